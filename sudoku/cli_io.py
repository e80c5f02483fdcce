"""Where the ``sudoku`` commands read their puzzles: a puzzle on the
command line, or a file, a pipe or standard input; and the one exception
of a usage error (exit status 2) they all raise."""

from __future__ import annotations

import contextlib
import io
import os
import re
import sys
from collections.abc import Iterator
from typing import TextIO

__all__ = ["UsageError", "names_input", "open_input", "count_lines"]


class UsageError(Exception):
    """A problem with the command line itself (exit status 2)."""


def names_input(source: str) -> bool:
    """Whether ``source`` names a file, a pipe or standard input (rather
    than being a puzzle); a path-like name that does not exist is an
    error."""
    if source == "-" or os.path.exists(source):
        if os.path.isdir(source):
            raise UsageError(f"{source} is a directory")
        return True
    looks_like_path = os.sep in source or source.lower().endswith(
        (".txt", ".csv", ".sdk")
    )
    if looks_like_path and not any(ch in source for ch in ",\n"):
        raise UsageError(f"no such file: {source}")
    if len(source) < 16 and re.fullmatch(r"[\w.~-]*[A-Za-z][\w.~-]*", source):
        # Shorter than any puzzle, and a word: a file name, most likely.
        from .grid import InvalidPuzzle, parse  # numpy: not for --help

        try:
            parse(source)
        except InvalidPuzzle as error:
            raise UsageError(
                f"no such file: {source} (nor is it a puzzle: {error})"
            ) from None
    return False


@contextlib.contextmanager
def open_input(source: str) -> Iterator[tuple[TextIO, int | None]]:
    """``(text stream, line count or None)`` for a file, a pipe or ``-``;
    any line ending is accepted and a UTF-8 byte-order mark is skipped."""
    if source == "-":
        stream = io.TextIOWrapper(
            sys.stdin.buffer,
            encoding="utf-8-sig",
            errors="replace",
            newline=None,
        )
        try:
            yield stream, None
        finally:
            stream.detach()  # leave standard input open
        return
    try:
        # A pipe (``<(...)``, ``/dev/stdin``, a FIFO) is read once.  The
        # count comes first: if it fails, no stream is left open.
        total = count_lines(source) if os.path.isfile(source) else None
        stream = open(
            source, encoding="utf-8-sig", errors="replace", newline=None
        )
    except OSError as error:
        raise UsageError(f"cannot read {source}: {error.strerror}") from None
    with stream:
        yield stream, total


def count_lines(path: str) -> int:
    """Lines in a file (a fast binary pass, for progress reports)."""
    total = 0
    last = b"\n"
    with open(path, "rb") as f:
        while block := f.read(1 << 20):
            total += block.count(b"\n")
            last = block[-1:]
    return total + (last != b"\n")
