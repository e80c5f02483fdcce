"""Splitting a file of puzzles into puzzles: ``entries(lines, box)``.

A file may hold one puzzle per line (a trailing word after a blank, such
as a tag or a name, is ignored), grids written over several lines (one row
a line, with any decoration: ``|``, ``+``, ``---+---``, CSV, separated
numbers), or a mix, and everything ``sudoku solve`` writes:

* a grid over several lines ends when it has as many rows as a row has
  cells, or at a blank line, a comment line (``#`` first), or a one-line
  puzzle of another width; after the ``# line 7: multiple`` header the
  command writes, the next line is always the first row of a grid;
* a line that is neither a puzzle nor a row, just before a grid, is the
  grid's title and is skipped (Project Euler's ``Grid 01``); anywhere else
  it is reported as an invalid puzzle, so nothing is silently dropped;
* a line of a one-line puzzle's length that is also a row of the grid
  below it (16 cells: a 4x4 puzzle, or the first row of a 16x16 grid) is
  taken as that row.  16 lines of 16 cells that are each a valid 4x4
  puzzle are 16 puzzles (``--box 4x4`` reads them as one grid).

Each entry is ``(line number, text)``, or ``(line number, InvalidPuzzle)``
for a line too long to be a puzzle.  The common case, a file of one-line
puzzles, is recognised by a regular expression per line, without parsing.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Iterator
from typing import TextIO

from .grid import ALPHABET, BLANKS, InvalidPuzzle, is_rule_line, parse

#: Lines longer than this (in characters) are refused unread: the largest
#: grid written as CSV (100x100) takes about 30,000 characters.
MAX_LINE = 1 << 20

_MAX_CHAR_SIZE = len(ALPHABET)
_HEADER = re.compile(r"# line \d+: \w+")
_DECORATION = " \t|+"


def read_lines(stream: TextIO) -> Iterator[tuple[int, str | None]]:
    """``(line number, line without its end)``; None for a line longer than
    ``MAX_LINE``, whose rest is skipped without being kept in memory."""
    number = 0
    while True:
        line = stream.readline(MAX_LINE + 1)
        if not line:
            return
        number += 1
        if len(line) > MAX_LINE and not line.endswith("\n"):
            while (rest := stream.readline(MAX_LINE)) and not rest.endswith(
                "\n"
            ):
                pass
            yield number, None
            continue
        yield number, line.rstrip("\r\n")


_ONE_LINE: dict[int, re.Pattern] = {}


def _one_line_pattern(n: int) -> re.Pattern:
    """A one-line ``n x n`` puzzle, possibly followed by a blank and a
    comment: ``n*n`` blanks or digits of size ``n``."""
    if n not in _ONE_LINE:
        digits = ALPHABET[:n]
        chars = re.escape(BLANKS + digits + digits.lower())
        _ONE_LINE[n] = re.compile(f"[{chars}]{{{n * n}}}(?:[ \t].*)?")
    return _ONE_LINE[n]


def is_header(text: str) -> bool:
    """Whether ``text`` (a stripped line) is the header ``sudoku solve``
    writes before a grid of several lines (``# line 7: multiple``): the
    next line is the grid's first row, whatever it holds."""
    return _HEADER.fullmatch(text) is not None


def _is_one_line_puzzle(line: str, box: tuple[int, int] | None) -> bool:
    """Whether ``line`` is a whole puzzle by itself (fast for the usual
    one-character-per-cell line; other layouts are parsed)."""
    n = math.isqrt(len(line))
    if (
        n * n == len(line)
        and (
            n == box[0] * box[1]
            if box is not None
            else 4 <= n <= _MAX_CHAR_SIZE
        )
        and _one_line_pattern(n).fullmatch(line)
    ):
        return True  # the usual case, at once
    text = line.strip()
    first = text.split(None, 1)[0]
    n = math.isqrt(len(first))
    if box is not None:
        fits = n == box[0] * box[1]
    else:
        fits = 4 <= n <= _MAX_CHAR_SIZE
    if n * n == len(first) and fits and _one_line_pattern(n).fullmatch(text):
        return True
    if "," not in text and ";" not in text and not re.search(r"\d\d", text):
        return False  # characters: a whole puzzle would have matched
    for candidate in (text, first):
        try:
            grid = parse(candidate, box)
        except InvalidPuzzle:
            continue
        return grid.n > 1 and len(candidate.splitlines()) == 1
    return False


def _cells(line: str) -> list[str]:
    """The cell tokens of one row: CSV fields, separated numbers, or one
    character per cell (decoration skipped)."""
    if "," in line or ";" in line:
        fields = re.split(r"[,;]", line)
        if fields and not fields[-1].strip():
            fields.pop()  # a trailing separator
        return [f.strip() for f in fields]
    tokens = [t for t in re.split(r"[\s|+]+", line) if t]
    numbers = [t for t in tokens if len(t) > 1 and t.isdigit()]
    # "10 0 3 16 ..." is numbers; "400 000 805" is digits grouped by box:
    # a row of k cells holds no number above k, nor one written "05"
    if (
        len(tokens) > 1
        and numbers
        and all(t[0] != "0" and int(t) <= len(tokens) for t in numbers)
    ):
        return tokens
    return [ch for ch in line if ch not in _DECORATION]


def _row_width(line: str) -> int | None:
    """The number of cells of ``line`` when it can be a row of a grid of
    that size (every cell a blank or a digit of that size), else None."""
    cells = _cells(line)
    k = len(cells)
    if k < 4:
        return None
    letters = ALPHABET[:k] if k <= _MAX_CHAR_SIZE else ""
    for token in cells:
        if token in ("", *BLANKS) or (token.isdigit() and int(token) <= k):
            continue
        if len(token) == 1 and token.upper() in letters:
            continue
        return None
    return k


def _cell_count(line: str) -> int:
    return len(_cells(line))


def entries(
    lines: Iterable[tuple[int, str | None]], box: tuple[int, int] | None = None
) -> Iterator[tuple[int, str | InvalidPuzzle]]:
    """The puzzles of numbered ``lines`` (see the module docstring)."""
    rows: list[tuple[int, str]] = []  # a grid being read, row by row
    width = 0  # cells per row of that grid
    held: tuple[int, str] | None = None  # a one-line puzzle, or a first row
    titles: list[tuple[int, str]] = []  # lines that are not rows
    header = False  # just after a "# line N: tag" header

    def grid(block):
        return block[0][0], "\n".join(line for _, line in block)

    def flush():
        """Whatever is pending, as entries."""
        nonlocal rows, held, titles
        if held is not None:
            yield held
        if rows and all(is_rule_line(x) for _, x in rows):
            rows = []  # the frame under a grid already read: decoration
        if rows:
            block = rows
            if (
                titles
                and _cell_count(titles[-1][1]) == width
                and sum(not is_rule_line(x) for _, x in rows) == width - 1
            ):
                block = titles[-1:] + rows  # a typo in the first row
            yield grid(block)
        else:
            yield from titles
        rows, held, titles = [], None, []

    for number, line in lines:
        if line is None:
            yield from flush()
            yield (
                number,
                InvalidPuzzle(
                    f"the line is longer than {MAX_LINE:,} characters"
                ),
            )
            continue
        text = line.strip()
        if not text or text.startswith("#"):
            yield from flush()
            # The header sudoku writes before a grid of several lines.
            header = is_header(text)
            continue
        if header and not rows:  # the grid's first row, whatever it holds
            header = False
            rows, width = [(number, line)], _cell_count(line)
            continue
        if rows:
            if (
                is_rule_line(line)
                or _cell_count(line) == width
                or not _is_one_line_puzzle(line, box)
            ):
                rows.append((number, line))
                if not width and not is_rule_line(line):
                    width = _row_width(line) or _cell_count(line)
                if (
                    width
                    and sum(not is_rule_line(x) for _, x in rows) == width
                ):
                    titles = []
                    yield grid(rows)
                    rows = []
                continue
            yield from flush()
        whole = _is_one_line_puzzle(line, box)
        if held is not None:
            if not whole:
                w = _row_width(held[1])
                if w is not None and w == _row_width(line):
                    rows, width, held = [held, (number, line)], w, None
                    continue  # (a grid has 4 rows or more: not complete)
            yield held
            held = None
        if whole:
            yield from titles
            titles = []
            held = (number, line)
            continue
        w = _row_width(line)
        if w is None and not is_rule_line(line):
            # At most two title lines (a name, an author) before a grid.
            yield from titles[:-1]
            titles = titles[-1:] + [(number, line)]
            continue
        # A rule line first (a frame): the width is not known yet (a line
        # of dashes would read as that many blank cells).
        # (w is None only for a rule line here: any other line went on.)
        rows, width = (
            [(number, line)],
            0 if is_rule_line(line) or w is None else w,
        )
    yield from flush()


def row_line(number: int, text: str, message: str) -> int:
    """The file line that ``message`` (an ``InvalidPuzzle`` message saying
    ``at row R`` or ``row R has``) points to, for a grid read from line
    ``number`` with one row a line; else ``number``."""
    found = re.search(r"\brow (\d+)\b", message)
    lines = text.split("\n")
    rows = [k for k, line in enumerate(lines) if not is_rule_line(line)]
    if not found or len(rows) < 2:
        return number
    r = int(found.group(1)) - 1
    return number + rows[r] if r < len(rows) else number
