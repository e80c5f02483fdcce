"""Reading and writing Sudoku grids: ``parse``, ``Grid`` and the formatters.

Accepted text
-------------
* **Characters**, one per cell, row by row, on one line or many: a digit is
  a character of ``ALPHABET`` (``123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ``; the
  value of a character is its position, so ``A`` is 10 and ``G`` is 16;
  lower case is read as upper case) and a blank is one of ``. 0 _ - *``.
  Spaces, tabs, ``|`` and ``+`` are decoration and are skipped, and so are
  lines drawn only with ``- = + |`` (``---+---+---``).  A grid of size
  ``n`` uses the first ``n`` characters of the alphabet:

  ======  =========  =====================
  grid    box        digits
  ======  =========  =====================
  4x4     2x2        ``1-4``
  6x6     2x3        ``1-6``
  8x8     2x4        ``1-8``
  9x9     3x3        ``1-9``
  12x12   3x4        ``1-9 A-C``
  16x16   4x4        ``1-9 A-G``
  25x25   5x5        ``1-9 A-P``
  ======  =========  =====================

  These are the alphabets of the benchmark files in ``shared/data/sudoku``
  (``hexadoku16.txt``, ``sudoku25.txt``).
* **Numbers with separators**: comma- or semicolon-separated values (CSV),
  one grid row per line or all ``n*n`` values on one line, or
  whitespace-separated numbers when some number has two digits (``10 0 3``).
  ``0``, an empty field, ``.``, ``_`` and ``-`` are blanks.  This is the
  only text form for grids larger than 35x35.
* **Arrays**: nested lists or a numpy array of shape ``(n, n)`` or
  ``(n*n,)`` with values ``0..n`` (0 = blank), a list of row strings, or a
  ``Grid``.

The size ``n`` comes from the number of cells (``n*n``); the box shape is
the factor pair of ``n`` closest to square with rows <= columns (6 -> 2x3,
8 -> 2x4, 12 -> 3x4) unless ``box=(rows, cols)`` is given.

Writing
-------
``Grid.format()`` writes a grid in the layout it was read from (any
character layout, decoration included, and any separated-number layout are
reproduced exactly, with the solved digits filled in).  ``format_line``,
``format_pretty`` and ``format_csv`` write the three standard layouts.
"""

from __future__ import annotations

import bisect
import math
import re
from typing import Any

import numpy as np

from dlx.shorten import shorten

from .constants import (
    ALPHABET,
    BLANKS,
    FORMATS as FORMATS,
)  # FORMATS: its name here too

_DECORATION = " \t|+"
_RULE_CHARS = set("-=+| \t")
_MAX_CHAR_SIZE = len(ALPHABET)


class InvalidPuzzle(ValueError):
    """The input is not a well-formed Sudoku grid (size, character, clash)."""


def grid_phrase(n: int) -> str:
    """``a 9x9 grid``, ``an 8x8 grid`` (the article as the size is said)."""
    article = "an" if str(n).startswith("8") or n in (11, 18) else "a"
    return f"{article} {n}x{n} grid"


# -- box shapes ---------------------------------------------------------------
def default_box(n: int) -> tuple[int, int]:
    """The box shape used for an ``n x n`` grid when none is given.

    Args:
        n: The grid's side.

    Returns:
        ``(rows, cols)``, as near square as ``n`` allows, rows <= cols.

    Raises:
        InvalidPuzzle: ``n`` has no factor pair other than ``1 x n``.
    """
    rows = math.isqrt(n)
    while n % rows:
        rows -= 1
    if rows < 2:
        raise InvalidPuzzle(
            f"{grid_phrase(n)} has no box shape ({n} has no factor pair "
            f"other than 1x{n}); pass box=(rows, cols) explicitly"
        )
    return rows, n // rows


def check_box(box: Any, n: int | None = None) -> tuple[int, int]:
    """Validate ``box=(rows, cols)``; with ``n``, check that it fits."""
    try:
        rows, cols = (int(v) for v in box)
        ok = all(int(v) == v for v in box) and rows >= 1 and cols >= 1
    except (TypeError, ValueError):
        ok = False
    if not ok:
        raise InvalidPuzzle(
            f"box must be a pair of positive integers "
            f"(rows, cols), got {shorten(box)}"
        )
    if n is not None and rows * cols != n:
        raise InvalidPuzzle(
            f"box {rows}x{cols} holds {rows * cols} cells "
            f"but the grid is {n}x{n}"
        )
    return rows, cols


def _digits_text(n: int) -> str:
    """How the digits of size ``n`` are written, e.g. ``1-9 and A-G``."""
    if n <= 9 or n > _MAX_CHAR_SIZE:
        return f"1-{n}"
    last = ALPHABET[n - 1]
    return "1-9 and A" + ("" if last == "A" else f"-{last}")


# -- the Grid type ------------------------------------------------------------
class Layout:
    """Where the cells of a parsed text sit, to write a grid back the same
    way: ``text`` with cell ``k`` at ``spans[k]`` (``spans`` is None for a
    bare line of one character per cell, the common case)."""

    __slots__ = ("text", "spans", "_blank", "numeric")

    def __init__(
        self,
        text: str,
        spans: list[tuple[int, int]] | None,
        blank: str | None,
        numeric: bool = False,
    ):
        self.text = text
        self.spans = spans
        self._blank = blank
        self.numeric = numeric

    @classmethod
    def line(cls, text: str) -> Layout:
        """The layout of a bare one-line puzzle."""
        return cls(text, None, None)

    @property
    def blank(self) -> str:
        """How an empty cell is written: the text's most common blank (a
        tie goes to the first written; in a bare line, to the first of
        ``BLANKS``)."""
        if self._blank is None:
            counts = [self.text.count(ch) for ch in BLANKS]
            self._blank = (
                BLANKS[counts.index(max(counts))] if max(counts) else "."
            )
        return self._blank


class Grid:
    """An ``n x n`` Sudoku grid with ``r x c`` boxes (``n = r*c``).

    ``cells`` is a read-only ``n x n`` numpy int array, 0 for an empty
    cell.  ``str(grid)`` is the canonical one-line form (``.`` for empty
    cells; comma-separated numbers beyond 35x35); ``grid.format()`` writes
    the grid in the layout of the text it was parsed from.

    Args:
        cells: The ``n x n`` digits (0 for an empty cell): nested lists
            or an array.
        box: The box shape ``(rows, cols)`` (default: ``default_box``).

    Raises:
        InvalidPuzzle: Cells that do not make a grid of that box shape,
            or digits out of range.
    """

    __slots__ = ("cells", "box", "_layout")
    cells: np.ndarray
    box: tuple[int, int]
    _layout: Layout | None

    def __init__(self, cells: Any, box: tuple[int, int] | None = None):
        grid = _from_array(cells, box)
        self.cells = grid.cells
        self.box = grid.box
        self._layout = None

    @classmethod
    def trusted(
        cls,
        cells: np.ndarray,
        box: tuple[int, int],
        layout: Layout | None = None,
    ) -> Grid:
        """Trusted constructor: ``cells`` is already checked.

        Args:
            cells: A valid ``n x n`` int array (not copied).
            box: Its box shape.
            layout: The layout of the text it came from, for ``format``.

        Returns:
            The grid, unchecked.
        """
        grid = object.__new__(cls)
        cells.flags.writeable = False
        grid.cells = cells
        grid.box = box
        grid._layout = layout
        return grid

    @property
    def n(self) -> int:
        """The side of the grid (also the number of digits)."""
        return self.cells.shape[0]

    @property
    def givens(self) -> int:
        """How many cells are filled."""
        return int(np.count_nonzero(self.cells))

    def is_complete(self) -> bool:
        """True when no cell is empty.

        Returns:
            Whether every cell holds a digit.
        """
        return bool(self.cells.all())

    def with_cells(self, cells: np.ndarray) -> Grid:
        """A grid of the same shape and layout holding ``cells``.

        Args:
            cells: An ``n x n`` int array of the same size.

        Returns:
            The new grid.
        """
        cells = np.array(cells, dtype=np.int64).reshape(self.cells.shape)
        return Grid.trusted(cells, self.box, self._layout)

    def format(self, style: str | None = None) -> str:
        """The grid as text: ``style`` is ``"line"``, ``"grid"`` (pretty),
        ``"csv"``, or None for the layout it was parsed from.

        Args:
            style: ``"line"``, ``"grid"`` (or ``"pretty"``), ``"csv"``, or
                None (``"same"`` on the command line).

        Returns:
            The text, without a final newline.

        Raises:
            ValueError: An unknown style.
        """
        if style in (None, "same", "input"):
            if self._layout is None:
                return format_line(self)
            return _format_like(self, self._layout)
        try:
            writer = _WRITERS[style]
        except KeyError:
            raise ValueError(
                f"unknown format {shorten(style)}; choose one of "
                f"{', '.join(_WRITERS)}"
            ) from None
        return writer(self)

    def pretty(self) -> str:
        """The grid drawn with box borders (``format_pretty``).

        Returns:
            The text, one line per row.
        """
        return format_pretty(self)

    def __str__(self) -> str:
        return format_line(self)

    def __repr__(self) -> str:
        return f"Grid({format_line(self)!r}, box={self.box})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Grid):
            return NotImplemented
        return self.box == other.box and np.array_equal(
            self.cells, other.cells
        )

    def __hash__(self) -> int:
        return hash((self.box, self.cells.tobytes()))


# -- formatting ---------------------------------------------------------------
_CHAR_TABLE = np.frombuffer(("." + ALPHABET).encode(), np.uint8)


def _chars(cells: np.ndarray, blank: str = ".") -> str:
    """Cells as one character each (sizes up to 35)."""
    table = _CHAR_TABLE.copy()
    table[0] = ord(blank)
    return table[cells.ravel()].tobytes().decode()


def format_line(grid: Grid, blank: str = ".") -> str:
    """One line, a character per cell (``.`` empty); comma-separated
    numbers for grids larger than 35x35.

    Args:
        grid: The grid.
        blank: The character of an empty cell.

    Returns:
        The line.
    """
    if grid.n > _MAX_CHAR_SIZE:
        return ",".join(map(str, grid.cells.ravel().tolist()))
    return _chars(grid.cells, blank)


def format_csv(grid: Grid, blank: str = "0") -> str:
    """One comma-separated row per line, 0 for an empty cell.

    Args:
        grid: The grid.
        blank: What an empty cell is written as.

    Returns:
        The text, one line per row.
    """
    return "\n".join(
        ",".join(str(v) if v else blank for v in row)
        for row in grid.cells.tolist()
    )


def format_pretty(grid: Grid) -> str:
    """The grid with spaces between cells and lines between boxes.

    Args:
        grid: The grid.

    Returns:
        The text, one line per row and a rule between bands of boxes.
    """
    n = grid.n
    rows, cols = grid.box
    if n > _MAX_CHAR_SIZE:
        width = len(str(n))
        tokens = [
            [str(v).rjust(width) if v else ".".rjust(width) for v in row]
            for row in grid.cells.tolist()
        ]
    else:
        width = 1
        text = _chars(grid.cells)
        tokens = [list(text[r * n : (r + 1) * n]) for r in range(n)]
    group_width = cols * width + cols - 1
    rule = "-+-".join(["-" * group_width] * (n // cols))
    lines = []
    for r, row in enumerate(tokens):
        if r and r % rows == 0:
            lines.append(rule)
        groups = [" ".join(row[c : c + cols]) for c in range(0, n, cols)]
        lines.append(" | ".join(groups))
    return "\n".join(lines)


_WRITERS = {
    "line": format_line,
    "grid": format_pretty,
    "pretty": format_pretty,
    "csv": format_csv,
}


def _format_like(grid: Grid, layout: Layout) -> str:
    """Write ``grid`` into the text it was parsed from: cells that kept
    their value keep their original spelling."""
    cells = grid.cells.ravel()
    if layout.spans is None:
        old = np.frombuffer(layout.text.encode("latin-1"), np.uint8)
        new = np.frombuffer(_chars(cells, layout.blank).encode(), np.uint8)
        keep = _VALUE_OF_BYTE[old] == cells
        return np.where(keep, old, new).astype(np.uint8).tobytes().decode()
    text = layout.text
    pieces = []
    last = 0
    for k, (start, end) in enumerate(layout.spans):
        value = int(cells[k])
        token = text[start:end]
        pieces.append(text[last:start])
        if value == _token_value(token, layout.numeric):
            pieces.append(token)
        elif value == 0:
            pieces.append(layout.blank)
        elif layout.numeric:
            pieces.append(str(value))
        else:
            pieces.append(ALPHABET[value - 1])
        last = end
    pieces.append(text[last:])
    return "".join(pieces)


def _byte_values() -> np.ndarray:
    table = np.full(256, -1, np.int64)
    for ch in BLANKS:
        table[ord(ch)] = 0
    for v, ch in enumerate(ALPHABET):
        table[ord(ch)] = table[ord(ch.lower())] = v + 1
    return table


_VALUE_OF_BYTE = _byte_values()


def _token_value(token: str, numeric: bool) -> int:
    """The value a (valid) cell token was read as."""
    token = token.strip().upper()
    if numeric and token.isdigit():
        return int(token)
    if len(token) == 1 and token in ALPHABET:
        return ALPHABET.index(token) + 1
    return 0


# -- parsing ------------------------------------------------------------------
def parse(source: Any, box: tuple[int, int] | None = None) -> Grid:
    """Read a puzzle from text, nested lists, a numpy array or a ``Grid``.

    ``box=(rows, cols)`` fixes the box shape (and so the size); otherwise
    the size is inferred from the number of cells.  Raises
    ``InvalidPuzzle`` with a one-sentence reason when the input is not a
    grid.  Conflicting givens are *not* checked here (see ``conflicts``).

    Args:
        source: Text (one character per cell, a grid over several lines,
            or separated numbers), nested lists, a numpy array or a
            ``Grid``.
        box: The box shape ``(rows, cols)`` (default: inferred from the
            number of cells).

    Returns:
        The grid, remembering the layout of its text for ``format``.

    Raises:
        InvalidPuzzle: Input that is not a grid, with the reason.
    """
    if box is not None:
        box = check_box(box)
    if isinstance(source, Grid):
        if box is not None and box != source.box:
            check_box(box, source.n)
            return Grid.trusted(source.cells, box, source._layout)
        return source
    if isinstance(source, bytes):
        source = source.decode("utf-8", errors="replace")
    if isinstance(source, str):
        return _parse_text(source, box)
    if (
        isinstance(source, (list, tuple))
        and source
        and all(isinstance(row, str) for row in source)
    ):
        return _parse_text("\n".join(source), box)
    return _from_array(source, box)


def _from_array(source: Any, box: tuple[int, int] | None) -> Grid:
    if isinstance(source, Grid):
        return parse(source, box)
    try:
        a = np.asarray(source)
    except (TypeError, ValueError):
        _reject_ragged(source)
        raise InvalidPuzzle(
            f"cannot read a grid from {type(source).__name__}"
            f"; give text, nested lists or an array"
        ) from None
    if a.dtype == object:
        _reject_odd_values(a)
    if a.dtype == object or a.dtype.kind not in "biuf":
        raise InvalidPuzzle(
            f"a grid array must hold integers, got {a.dtype} values"
        )
    if a.ndim == 1:
        n = math.isqrt(a.size)
        if n * n != a.size or a.size == 0:
            raise InvalidPuzzle(_size_message(a.size))
        a = a.reshape(n, n)
    if a.ndim != 2 or a.shape[0] != a.shape[1] or a.size == 0:
        raise InvalidPuzzle(
            f"a grid array must be square (n x n), got shape {a.shape}"
        )
    n = a.shape[0]
    box = _box_for(n, box)
    if a.dtype.kind == "f":
        bad = np.argwhere(~np.isfinite(a) | (a != np.round(a)))
        if len(bad):
            r, c = bad[0]
            raise InvalidPuzzle(
                f"bad value {shorten(a[r, c].item())} at row {r + 1}"
                f", column {c + 1}: cells hold whole numbers"
            )
    # Check the range before any cast, which could wrap a large value.
    bad = np.argwhere((a < 0) | (a > n))
    if len(bad):
        r, c = bad[0]
        raise InvalidPuzzle(_value_message(a[r, c].item(), r, c, n))
    cells = a.astype(np.int64)
    return Grid.trusted(cells.copy(), box)


def _reject_ragged(rows: Any) -> None:
    """Name the first row of nested lists whose length is not the number
    of rows."""
    try:
        lengths = [len(row) for row in rows]
    except TypeError:
        return
    for r, length in enumerate(lengths):
        if length != len(lengths):
            raise InvalidPuzzle(
                f"wrong size: row {r + 1} has {length} "
                f"cells, expected {len(lengths)}"
            )


def _value_message(value: Any, r: int, c: int, n: int | None) -> str:
    """``bad value ... at row r+1, column c+1: ...`` (0-based r, c)."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        value = int(value)
    where = f"bad value {shorten(value)} at row {r + 1}, column {c + 1}"
    if n is None:
        return f"{where}: cells hold whole numbers"
    return f"{where}: {grid_phrase(n)} uses {_digits_text(n)} (0 = empty)"


def _reject_odd_values(a: np.ndarray) -> None:
    """For an object array (numpy found no common number type): name the
    first value that is not a whole number, or a whole number out of range
    (Python ints too large for int64 end up here)."""
    shape = a.shape
    if a.ndim == 1:
        side = math.isqrt(a.size)
        if side * side != a.size or a.size == 0:
            return
        shape = (side, side)
    elif a.ndim != 2 or a.shape[0] != a.shape[1]:
        return
    n = shape[0]
    for k, value in enumerate(a.ravel().tolist()):
        r, c = divmod(k, n)
        whole = isinstance(value, (int, np.integer)) or (
            isinstance(value, (float, np.floating))
            and math.isfinite(value)
            and float(value).is_integer()
        )
        if isinstance(value, bool) or not whole:
            raise InvalidPuzzle(_value_message(value, r, c, None))
        if not 0 <= value <= n:
            raise InvalidPuzzle(_value_message(value, r, c, n))


def _box_for(n: int, box: tuple[int, int] | None) -> tuple[int, int]:
    if box is None:
        return default_box(n)
    return check_box(box, n)


def _size_message(cells: int, box: tuple[int, int] | None = None) -> str:
    if box is not None:
        n = box[0] * box[1]
        return (
            f"wrong size: {cells} cells, but box {box[0]}x{box[1]} makes "
            f"{grid_phrase(n)} of {n * n}"
        )
    if cells == 0:
        return "empty puzzle: no cells found"
    near = max(4, round(math.sqrt(cells)))
    return (
        f"wrong size: {cells} cells is not a square grid ({grid_phrase(near)}"
        f" has {near * near})"
    )


def is_rule_line(line: str) -> bool:
    """A line drawn only with ``- = + |`` and spaces (a box border)."""
    return bool(line.strip()) and set(line) <= _RULE_CHARS


_NUMBER = re.compile(r"\d+")


def _parse_text(text: str, box: tuple[int, int] | None) -> Grid:
    text = text.replace("\r\n", "\n").replace("\r", "\n").lstrip("\ufeff")
    text = text.strip("\n")
    quick = _parse_bare_line(text, box)
    if quick is not None:
        return quick
    if not text.strip():
        raise InvalidPuzzle("empty puzzle: no cells found")
    if "," in text or ";" in text:
        return _parse_numbers(text, box, separated=True)
    if _looks_like_numbers(text):
        return _parse_numbers(text, box, separated=False)
    return _parse_chars(text, box)


def _looks_like_numbers(text: str) -> bool:
    """Whitespace-separated numbers, one per cell, some with two digits
    (``10 0 3 ...``); rows of digits such as ``530070000`` are not."""
    tokens = [
        t
        for line in text.split("\n")
        if not is_rule_line(line)
        for t in re.split(r"[\s|+]+", line)
        if t
    ]
    n = math.isqrt(len(tokens))
    if n * n != len(tokens) or n < 4:
        return False
    widest = max(len(t) for t in tokens)
    return 1 < widest <= len(str(n)) and all(
        t.isdigit() or t in BLANKS or t.upper() in ALPHABET for t in tokens
    )


def _parse_bare_line(text: str, box: tuple[int, int] | None) -> Grid | None:
    """The common case fast: one character per cell and nothing else."""
    n = math.isqrt(len(text))
    if n * n != len(text) or not 4 <= n <= _MAX_CHAR_SIZE:
        return None
    try:
        box = _box_for(n, box)
    except InvalidPuzzle:
        return None
    readable, cells = bare_cells(text, 1, n)
    if not readable[0]:
        return None  # let the careful reader name the culprit
    return Grid.trusted(cells[0].astype(np.int64), box, Layout.line(text))


_VALUE_OF_BYTE_8 = _VALUE_OF_BYTE.astype(np.int8)
_VALUE_OF_BYTE_8.flags.writeable = False
#: The value of each byte read as a cell character (``-1``: not one), and
#: the character of each value (``.`` for 0): the tables of the readers
#: and writers of many one-line puzzles at once (``sudoku.lines``).
VALUE_OF_BYTE = _VALUE_OF_BYTE_8
CHAR_OF_VALUE = _CHAR_TABLE


def bare_cells(text: str, count: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Read ``count`` one-line puzzles of ``n*n`` characters each, joined
    in ``text``: ``(readable, cells)``, where ``readable[b]`` says whether
    every character of puzzle ``b`` is a blank or a digit of size ``n``
    and ``cells`` is a ``(count, n, n)`` int8 stack (valid where readable).
    A character beyond Latin-1 becomes ``?``, which is never readable, so
    the encoding keeps one byte per character."""
    raw = np.frombuffer(text.encode("latin-1", errors="replace"), np.uint8)
    cells = _VALUE_OF_BYTE_8[raw].reshape(count, n, n)
    readable = np.asarray(((cells >= 0) & (cells <= n)).all(axis=(1, 2)))
    return readable, cells


def _char_cells(text: str, skip_rules: bool) -> list[int]:
    """Indices of the cell characters of ``text``."""
    cells: list[int] = []
    pos = 0
    for line in text.split("\n"):
        if not (skip_rules and is_rule_line(line)):
            cells.extend(
                pos + i for i, ch in enumerate(line) if ch not in _DECORATION
            )
        pos += len(line) + 1
    return cells


def _parse_chars(text: str, box: tuple[int, int] | None) -> Grid:
    want = None if box is None else box[0] * box[1]
    index = _char_cells(text, skip_rules=True)
    if not _size_ok(len(index), want):
        # Lines of dashes might be rows of empty cells after all.
        other = _char_cells(text, skip_rules=False)
        if _size_ok(len(other), want):
            index = other
    count = len(index)
    if want is not None and count != want * want:
        raise InvalidPuzzle(_size_message(count, box))
    n = math.isqrt(count)
    if n * n != count or count == 0:
        _check_row_lengths(text, index, None)  # one row too short or long?
        raise InvalidPuzzle(_size_message(count))
    if n > _MAX_CHAR_SIZE:
        raise InvalidPuzzle(
            f"{grid_phrase(n)} cannot be written one "
            f"character per cell; use separated numbers"
        )
    box = _box_for(n, box)
    _check_row_lengths(text, index, n)
    chars = "".join(text[i] for i in index)
    lookup = {ch: v + 1 for v, ch in enumerate(ALPHABET[:n])}
    lookup.update({ch.lower(): v for ch, v in list(lookup.items())})
    values = []
    blanks = []
    for k, ch in enumerate(chars):
        if ch in BLANKS:
            values.append(0)
            blanks.append(ch)
        elif ch in lookup:
            values.append(lookup[ch])
        else:
            r, c = divmod(k, n)
            raise InvalidPuzzle(
                f"bad character {shorten(ch)} at row {r + 1}, column {c + 1}: "
                f"{grid_phrase(n)} uses {_digits_text(n)} and "
                f"{' '.join(BLANKS)} for empty cells"
            )
    if len(index) == len(text):
        layout = Layout.line(text)
    else:
        blank = max(dict.fromkeys(blanks), key=blanks.count) if blanks else "."
        layout = Layout(text, [(i, i + 1) for i in index], blank)
    cells = np.array(values, np.int64).reshape(n, n)
    return Grid.trusted(cells, box, layout)


def _size_ok(count: int, want: int | None) -> bool:
    if want is not None:
        return count == want * want
    n = math.isqrt(count)
    return count > 0 and n * n == count


def _check_row_lengths(text: str, index: list[int], n: int | None) -> None:
    """With one line per row, every row must have ``n`` cells (None: as
    many as there are rows)."""
    per_line: dict[int, int] = {}
    # (Counting the newlines before each cell made a long text quadratic:
    # 16 s for 200,000 characters.)
    newlines = [m.start() for m in re.finditer("\n", text)]
    for i in index:
        line = bisect.bisect_left(newlines, i)
        per_line[line] = per_line.get(line, 0) + 1
    counts = list(per_line.values())
    if n is None:
        if len(counts) < 4:
            return
        n = len(counts)
    if len(counts) == n and any(c != n for c in counts):
        row = next(r for r, c in enumerate(counts) if c != n)
        raise InvalidPuzzle(
            f"wrong size: row {row + 1} has {counts[row]} cells, expected {n}"
        )


def _parse_numbers(
    text: str, box: tuple[int, int] | None, separated: bool
) -> Grid:
    """Separated numbers: CSV (``separated``) or whitespace-separated."""
    spans = []
    pos = 0
    for line in text.split("\n"):
        if line.strip() and not is_rule_line(line):
            if separated:
                spans.extend(_csv_spans(line, pos))
            else:
                spans.extend(
                    (pos + m.start(), pos + m.end())
                    for m in re.finditer(r"[^\s|+]+", line)
                )
        pos += len(line) + 1
    count = len(spans)
    want = None if box is None else box[0] * box[1]
    if want is not None and count != want * want:
        raise InvalidPuzzle(_size_message(count, box))
    n = math.isqrt(count)
    if n * n != count:
        raise InvalidPuzzle(_size_message(count))
    box = _box_for(n, box)
    values = []
    blanks = []
    letters = ALPHABET[:n] if n <= _MAX_CHAR_SIZE else ""
    for k, (start, end) in enumerate(spans):
        token = text[start:end].strip()
        if token in ("", ".", "_", "-", "*") or (
            token.isdigit() and int(token) == 0
        ):
            values.append(0)
            blanks.append(token)
        elif token.isdigit() and int(token) <= n:
            values.append(int(token))
        elif len(token) == 1 and token.upper() in letters:
            values.append(letters.index(token.upper()) + 1)
        else:
            r, c = divmod(k, n)
            what = "value" if token.isdigit() else "entry"
            raise InvalidPuzzle(
                f"bad {what} {shorten(token)} at row {r + 1}, column {c + 1}: "
                f"{grid_phrase(n)} uses {_digits_text(n)} and 0 for empty cells"
            )
    blank = max(dict.fromkeys(blanks), key=blanks.count) if blanks else "0"
    layout = Layout(text, spans, blank, numeric=True)
    cells = np.array(values, np.int64).reshape(n, n)
    return Grid.trusted(cells, box, layout)


def _csv_spans(line: str, pos: int) -> list[tuple[int, int]]:
    """The field spans of one CSV line (a trailing separator is ignored)."""
    spans = []
    start = 0
    for m in re.finditer(r"[,;]", line):
        spans.append((pos + start, pos + m.start()))
        start = m.end()
    tail = line[start:]
    if tail.strip() or not spans:
        spans.append((pos + start, pos + len(line)))
    # Keep the spans tight around the value so rewriting keeps spacing.
    tight = []
    for a, b in spans:
        field = line[a - pos : b - pos]
        lead = len(field) - len(field.lstrip())
        core = field.strip()
        tight.append((a + lead, a + lead + len(core)))
    return tight


# -- checks -------------------------------------------------------------------
def conflicts(
    grid: Grid,
) -> list[tuple[tuple[int, int], tuple[int, int], int, str]]:
    """Pairs of givens that share a row, column or box and a digit.

    Each entry is ``((r1, c1), (r2, c2), digit, unit)`` with 0-based cells
    in reading order and ``unit`` one of ``"row"``, ``"column"``, ``"box"``;
    the list is sorted by the first cell, then the second.

    Args:
        grid: The grid.

    Returns:
        The clashing pairs (empty when the givens agree).
    """
    cells = grid.cells
    n = grid.n
    rows, cols = grid.box
    r, c = np.nonzero(cells)
    d = cells[r, c]
    b = (r // rows) * rows + c // cols
    found = []
    for unit, where in (("row", r), ("column", c), ("box", b)):
        key = where * (n + 1) + d
        order = np.lexsort((r * n + c, key))
        same = np.flatnonzero(key[order][1:] == key[order][:-1])
        for k in same:
            i, j = order[k], order[k + 1]
            found.append(
                (
                    (int(r[i]), int(c[i])),
                    (int(r[j]), int(c[j])),
                    int(d[i]),
                    unit,
                )
            )
    found.sort(key=lambda f: (f[0][0] * n + f[0][1], f[1][0] * n + f[1][1]))
    return found


def cells_conflict(cells: np.ndarray, box: tuple[int, int]) -> np.ndarray:
    """For a ``(B, n, n)`` stack: True where some givens clash."""
    rows, cols = box
    batch, n, _ = cells.shape
    units = 3 * n * n  # (unit, digit) pairs of one puzzle
    bad = np.zeros(batch, bool)
    step = max(1, 1_000_000 // units)
    for lo in range(0, batch, step):
        part = cells[lo : lo + step]
        b, r, c = np.nonzero(part)
        d = part[b, r, c] - 1
        x = (r // rows) * rows + c // cols
        base = b * units
        keys = np.concatenate(
            (
                base + r * n + d,
                base + (n + c) * n + d,
                base + (2 * n + x) * n + d,
            )
        )
        seen = np.bincount(keys, minlength=len(part) * units)
        bad[lo : lo + step] = (seen.reshape(len(part), units) > 1).any(axis=1)
    return bad


def has_conflict(grid: Grid) -> bool:
    """True when two givens share a digit and a row, column or box."""
    return bool(cells_conflict(grid.cells[None], grid.box)[0])


def conflict_message(grid: Grid) -> str | None:
    """One sentence naming the first pair of clashing givens, or None."""
    if not has_conflict(grid):
        return None
    found = conflicts(grid)
    if not found:
        return None
    (r1, c1), (r2, c2), digit, unit = found[0]
    shown = ALPHABET[digit - 1] if grid.n <= _MAX_CHAR_SIZE else str(digit)
    return (
        f"givens conflict: r{r1 + 1}c{c1 + 1} and r{r2 + 1}c{c2 + 1} "
        f"both hold {shown} in the same {unit}"
    )


def is_valid_solution(
    solution: Any, puzzle: Any = None, box: tuple[int, int] | None = None
) -> bool:
    """True when ``solution`` is complete, every row, column and box holds
    each digit once, and it keeps the givens of ``puzzle``.

    Both take any input ``parse`` accepts (text, nested lists, arrays,
    a ``Grid``); ``box`` fixes the box shape of ``solution`` (by default
    its own, or the inferred one).  A puzzle of another size is not kept,
    so the answer is False; unreadable input raises ``InvalidPuzzle``.

    Args:
        solution: The filled grid, in any input ``parse`` accepts.
        puzzle: The puzzle whose givens it must keep (None: any).
        box: The box shape of ``solution``.

    Returns:
        Whether ``solution`` solves ``puzzle``.

    Raises:
        InvalidPuzzle: Input that is not a grid.
    """
    solution = parse(solution, box)
    s = solution.cells
    n = solution.n
    rows, cols = solution.box
    want = np.arange(1, n + 1)
    boxes = s.reshape(n // rows, rows, n // cols, cols).swapaxes(1, 2)
    units = (s, s.T, boxes.reshape(n, n))
    if not all((np.sort(u, axis=1) == want).all() for u in units):
        return False
    if puzzle is not None:
        try:
            p = parse(puzzle, solution.box).cells
        except InvalidPuzzle:
            p = parse(puzzle).cells  # another size (False), or unreadable
        if p.shape != s.shape or ((p != 0) & (p != s)).any():
            return False
    return True
