"""Read and write the text format of Knuth's DLX programs (``dlx1.w``).

The format, one problem per file::

    | a comment: any line whose first non-blank character is "|"
    A B C D E | F G        <- the item line: primary items, "|", secondary
    C E F                  <- every later line is one option
    A D G

* The first line that is neither blank nor a comment lists the items,
  separated by blanks.  A lone ``|`` on it separates the primary items
  from the secondary ones; without it every item is primary.
* Every later non-blank, non-comment line is one option: the names of its
  items, separated by blanks, each known and none repeated.
* Item names follow Knuth's DLX1 rules: 1 to 8 printable ASCII characters,
  none of them ``|`` or ``:``.  (The 8-character limit can be lifted with
  ``max_name_length=None``.)
* Blank lines are ignored, CRLF line ends and a leading UTF-8 byte-order
  mark are accepted.  Lines end at "\\n" only, and names are separated
  by ASCII blanks (space, tab, "\\v", "\\f", "\\r") only, as in DLX1.

DLX2's colour suffixes (``item:colour``) are *not* supported: a ``:`` in a
name is reported as such rather than silently misread.

``loads``/``load`` give an ``ExactCover`` whose item names and options are
the strings of the file; ``dumps``/``dump`` write one back (names are
written with ``str``), so ``loads(dumps(p))`` has the same items, options
and solutions as ``p`` when ``p``'s names are strings.
"""

from __future__ import annotations

import io
import os
import re
from typing import IO, Iterable, Union

from .problem import ExactCover

__all__ = ["DLXFormatError", "loads", "load", "dumps", "dump",
           "MAX_NAME_LENGTH"]

#: The longest item name Knuth's DLX1 accepts.
MAX_NAME_LENGTH = 8

PathOrFile = Union[str, "os.PathLike[str]", IO[str]]


class DLXFormatError(ValueError):
    """Text that is not a valid DLX problem; ``line`` is its 1-based line."""

    def __init__(self, message: str, line: int | None = None,
                 source: str | None = None):
        where = ""
        if source is not None:
            where = f"{source}:"
        if line is not None:
            where += f"{line}:" if source is not None else f"line {line}:"
        super().__init__(f"{where} {message}" if where else message)
        self.line = line
        self.source = source
        self.reason = message


def _name_problem(name: str, max_length: int | None) -> str | None:
    """Why ``name`` is not a valid item name, or None when it is."""
    if not name:
        return "empty item name"
    if ":" in name:
        return (f"item name {name!r} contains ':' (DLX2 colour suffixes "
                f"'item:colour' are not supported)")
    if "|" in name:
        return f"item name {name!r} contains '|'"
    if any(ch in " \t\n\v\f\r" for ch in name):
        return (f"item name {name!r} contains a blank (names are separated "
                f"by blanks)")
    if not all(33 <= ord(ch) <= 126 for ch in name):
        return (f"item name {name!r} has a character that is not printable "
                f"ASCII")
    if max_length is not None and len(name) > max_length:
        return (f"item name {name!r} is longer than {max_length} "
                f"characters")
    return None


_BLANK_CHARS = " \t\v\f\r"
_BLANKS = re.compile(f"[{_BLANK_CHARS}]+")


def text_lines(text: str) -> list[str]:
    """The lines of ``text``: a leading byte-order mark dropped, split at
    "\\n" only (not at form feeds and other separators ``splitlines``
    knows), a trailing "\\r" (CRLF) removed from each.  The DLX reader and
    the polyomino board and shape readers share it."""
    if text.startswith("\ufeff"):
        text = text[1:]
    return [line[:-1] if line.endswith("\r") else line
            for line in text.split("\n")]


def _content_lines(text: str):
    """(line number, tokens) of each line that is not blank or a comment."""
    for number, line in enumerate(text_lines(text), start=1):
        tokens = _BLANKS.split(line.strip(_BLANK_CHARS))
        if tokens == [""]:
            tokens = []
        if not tokens or tokens[0].startswith("|"):
            continue
        yield number, tokens


def _parse_items(tokens: list[str], number: int, source, max_length):
    primary: list[str] = []
    secondary: list[str] = []
    current = primary
    seen: set[str] = set()
    for token in tokens:
        if token == "|":
            if current is secondary:
                raise DLXFormatError("the item line has '|' twice", number,
                                     source)
            current = secondary
            continue
        problem = _name_problem(token, max_length)
        if problem:
            raise DLXFormatError(problem, number, source)
        if token in seen:
            raise DLXFormatError(f"item {token!r} is listed twice", number,
                                 source)
        seen.add(token)
        current.append(token)
    if not primary:
        raise DLXFormatError("the item line lists no primary items", number,
                             source)
    return primary, secondary


def _check_option(tokens: list[str], known: set, number: int, source):
    seen: set[str] = set()
    for token in tokens:
        if token not in known:
            if ":" in token:
                raise DLXFormatError(
                    f"item {token!r}: DLX2 colour suffixes 'item:colour' are "
                    f"not supported", number, source)
            raise DLXFormatError(f"unknown item {token!r}", number, source)
        if token in seen:
            raise DLXFormatError(f"item {token!r} appears twice in this "
                                 f"option", number, source)
        seen.add(token)


def loads(text: str, *, max_name_length: int | None = MAX_NAME_LENGTH,
          source: str | None = None) -> ExactCover:
    """The problem written in ``text`` (Knuth's DLX format).

    Raises ``DLXFormatError`` naming the line of the first problem found.
    ``source`` (a file name) is put in front of error messages.
    """
    if not isinstance(text, str):
        raise TypeError(f"loads expects a str, got {type(text).__name__}")
    lines = _content_lines(text)
    first = next(lines, None)
    if first is None:
        raise DLXFormatError("no item line (the text has only blank or "
                             "comment lines)", None, source)
    number, tokens = first
    primary, secondary = _parse_items(tokens, number, source,
                                      max_name_length)
    problem = ExactCover(primary, secondary)
    known = set(primary) | set(secondary)
    for number, tokens in lines:
        _check_option(tokens, known, number, source)
        problem.add_option(tokens)
    return problem


def load(path_or_file: PathOrFile, **kwargs) -> ExactCover:
    """The problem in a file (a path, or a text file object; ``"-"`` is
    standard input).  See ``loads``."""
    if isinstance(path_or_file, (str, os.PathLike)):
        name = os.fspath(path_or_file)
        if name == "-":
            import sys
            return loads(sys.stdin.read(), source="<stdin>", **kwargs)
        with open(name, encoding="utf-8", newline="") as handle:
            try:
                text = handle.read()
            except UnicodeDecodeError:
                raise DLXFormatError("not a UTF-8 text file", None,
                                     name) from None
        return loads(text, source=name, **kwargs)
    source = getattr(path_or_file, "name", None)
    return loads(path_or_file.read(),
                 source=source if isinstance(source, str) else None, **kwargs)


def _checked_names(names: Iterable, max_length: int | None) -> list[str]:
    written = []
    for name in names:
        text = str(name)
        problem = _name_problem(text, max_length)
        if problem:
            raise ValueError(f"cannot write item {name!r}: {problem}")
        written.append(text)
    return written


def dumps(problem: ExactCover, *, comment: str | None = None,
          max_name_length: int | None = MAX_NAME_LENGTH) -> str:
    """``problem`` in Knuth's DLX format (one ``str`` per item name).

    ``comment`` (possibly several lines) is written first as ``|`` lines.
    Raises ``ValueError`` if a name cannot be written (blank, ``|``,
    ``:``, non-ASCII, too long, or two names with the same text).
    """
    if not problem.primary:
        raise ValueError("cannot write a problem with no primary items")
    primary = _checked_names(problem.primary, max_name_length)
    secondary = _checked_names(problem.secondary, max_name_length)
    text_of = dict(zip(problem.items, primary + secondary))
    if len(set(text_of.values())) != len(text_of):
        raise ValueError("two item names have the same text; the file could "
                         "not tell them apart")
    out = io.StringIO()
    if comment:
        for line in comment.splitlines():
            out.write(f"| {line}".rstrip() + "\n")
    out.write(" ".join(primary))
    if secondary:
        out.write(" | " + " ".join(secondary))
    out.write("\n")
    for option in problem.options:
        out.write(" ".join(text_of[name] for name in option) + "\n")
    return out.getvalue()


def dump(problem: ExactCover, file: PathOrFile, **kwargs) -> None:
    """Write ``problem`` to ``file`` (a path or a text file object)."""
    text = dumps(problem, **kwargs)
    if isinstance(file, (str, os.PathLike)):
        with open(file, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
    else:
        file.write(text)
