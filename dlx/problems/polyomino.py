"""Polyomino packing (pentominoes and friends) as exact cover.

Glossary: a *cell* is a ``(row, col)`` pair; a *board* is a set of cells;
a *shape* is a set of cells moved so that its smallest row and column are
0; a *piece* is a named shape with its *orientations* (the distinct shapes
it takes under the 8 rotations and reflections of the square, or only the
4 rotations when it is *one-sided*); a *placement* is a piece on a set of
board cells; a *tiling* is a set of placements covering the board.

Items: one per piece (one per copy when a piece is used several times),
then one per board cell, all primary.  Options: one per placement,
``<piece> <cell> <cell> ...``.  Cells are named ``<row><col>`` with one
character per coordinate (``0-9a-zA-Z``), or ``r<row>c<col>`` on boards
wider or taller than 62.

Boards: ``"6x10"`` (rows x columns), or ASCII art with ``.`` for a cell and
``#`` (or a blank) for a hole::

    ........
    ........
    ........
    ...##...
    ...##...
    ........
    ........
    ........

Pieces: ``"pentominoes"`` (F I L N P T U V W X Y Z), ``"tetrominoes"``
(I L O S T), ``"hexominoes"`` (the 35 free hexominoes, named ``h01`` to
``h35`` in increasing order of their canonical form; see
``free_polyominoes``), or ASCII shapes: each character other than ``.``
and blanks is a cell of the piece named by that character, several pieces
may share a picture, and pictures are separated by blank lines.

Counting up to symmetry is shared with the other lattices: see
``dlx.problems.packing`` (one piece kept at one placement per orbit of the
board's symmetry group, Burnside's lemma where a kept placement is itself
symmetric), so counts are exact on every board.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from ..formats import text_lines
from ..problem import ExactCover
from ..shorten import shorten
from .lattice import SQUARE, parse_size
from .packing import (
    DIGITS as _DIGITS,
    Packing,
    Placement,
    Tiling,
    copies_from,
)

__all__ = [
    "Polyomino",
    "polyomino",
    "tiling_of",
    "parse_board",
    "parse_shapes",
    "piece_set",
    "orientations",
    "normalize",
    "free_polyominoes",
    "render",
    "PIECE_SET_NAMES",
]

Cell = tuple[int, ...]  # (row, column): the lattice's cells, of any dimension
Shape = tuple[Cell, ...]

_PENTOMINOES = """
.FF  I  LLLL  NN..  PP  TTT  U.U  V..  W..  .X.  YYYY  ZZ.
FF.  I  L...  .NNN  PP  .T.  UUU  V..  WW.  XXX  .Y..  .Z.
.F.  I              P.  .T.       VVV  .WW  .X.        .ZZ
     I
     I
"""

_TETROMINOES = """
IIII  OO  TTT  LLL  .SS
      OO  .T.  L..  SS.
"""

PIECE_SET_NAMES = ("pentominoes", "tetrominoes", "hexominoes")
"""The named piece sets ``pieces`` takes."""


# -- geometry -----------------------------------------------------------
def _transform(cell: Cell, k: int) -> Cell:
    """Symmetry ``k`` of the square (0-3: rotations by k quarter turns,
    4-7: the same followed by a reflection) applied to ``cell``."""
    return SQUARE.transform(cell, k)


def normalize(cells: Iterable[Cell]) -> Shape:
    """The cells moved so that the smallest row and column are 0, sorted.

    Args:
        cells: ``(row, col)`` cells.

    Returns:
        The cells, moved and sorted.
    """
    return SQUARE.normalize(cells)


def orientations(
    shape: Iterable[Cell], one_sided: bool = False
) -> list[Shape]:
    """The distinct orientations of a shape (rotations, and reflections
    unless ``one_sided``), in order of first appearance.

    Args:
        shape: The cells ``(row, col)`` of a piece.
        one_sided: Rotations only.

    Returns:
        Each orientation, normalized.
    """
    return SQUARE.orientations(shape, one_sided)


def free_polyominoes(n: int) -> list[Shape]:
    """The free polyominoes of ``n`` cells, each by its canonical form (the
    smallest of its orientations, comparing sorted cell lists), sorted.

    Args:
        n: The number of cells (a positive integer).

    Returns:
        The shapes, each in its canonical form.
    """
    return SQUARE.polyforms(n)


# -- parsing --------------------------------------------------------------
#: The largest board ``parse_board`` builds from a size like ``"RxC"``.
MAX_BOARD_CELLS = 1_000_000


def _board_size(spec: str) -> tuple[int, ...] | None:
    """(rows, columns) of a board given as ``"RxC"``, else None (a size
    of another number of dimensions is a ValueError)."""
    return parse_size(spec, "ROWSxCOLS")


def parse_board(spec: str | Iterable[Cell]) -> frozenset:
    """A board from ``"RxC"``, from ASCII art (``.`` cell, ``#`` or blank
    hole), or from an iterable of cells; moved to start at row/col 0.

    Args:
        spec: ``"RxC"``, ASCII art, or ``(row, col)`` cells.

    Returns:
        The board's cells.

    Raises:
        ValueError: A bad size or a character that is neither a cell nor
            a hole (naming its line and column), or more than 1,000,000
            cells.
    """
    if not isinstance(spec, str):
        cells = [tuple(x) for x in spec]
        if not cells:
            raise ValueError("the board has no cells")
        return frozenset(normalize(cells))
    size = _board_size(spec)
    if size:
        rows, cols = size
        if rows < 1 or cols < 1:
            raise ValueError(f"board {shorten(spec.strip())} has no cells")
        if rows * cols > MAX_BOARD_CELLS:
            raise ValueError(
                f"board {shorten(spec.strip())} has {rows * cols} "
                f"cells; at most {MAX_BOARD_CELLS} are "
                f"supported"
            )
        return frozenset((r, c) for r in range(rows) for c in range(cols))
    cells = []
    for r, line in enumerate(text_lines(spec)):
        for c, ch in enumerate(line):
            if ch == ".":
                cells.append((r, c))
            elif ch not in "# \t":
                raise ValueError(
                    f"board line {r + 1}, column {c + 1}: "
                    f"{shorten(ch)} is neither '.' (a cell) nor '#' "
                    f"(a hole)"
                )
    if not cells:
        if "\n" not in spec and "." not in spec:
            raise ValueError(
                f"board {shorten(spec)} is neither a size like '6x10' "
                f"nor ASCII art"
            )
        raise ValueError("the board has no cells ('.')")
    return frozenset(normalize(cells))


def parse_shapes(text: str) -> dict[str, Shape]:
    """Pieces drawn in ASCII: every character other than ``.`` and blanks
    is a cell of the piece it names; pictures are separated by blank
    lines and each piece is drawn once.

    Args:
        text: The pictures.

    Returns:
        The pieces by name, each its normalized cells.

    Raises:
        ValueError: A piece drawn twice, or no piece at all.
    """
    pieces: dict[str, list[Cell]] = {}
    done: set[str] = set()
    picture: set[str] = set()
    for r, line in enumerate(text_lines(text)):
        if not line.strip():
            done |= picture
            picture = set()
            continue
        for c, ch in enumerate(line):
            if ch in ". \t":
                continue
            if ch in done:
                raise ValueError(
                    f"shapes line {r + 1}: piece {shorten(ch)} is "
                    f"drawn in two pictures"
                )
            picture.add(ch)
            pieces.setdefault(ch, []).append((r, c))
    if not pieces:
        raise ValueError("no piece drawn")
    return {name: normalize(cells) for name, cells in pieces.items()}


def piece_set(name: str) -> dict[str, Shape]:
    """A named set of pieces: pentominoes, tetrominoes or hexominoes.

    Args:
        name: One of ``PIECE_SET_NAMES``.

    Returns:
        The pieces by name.

    Raises:
        ValueError: An unknown name.
    """
    key = name.strip().lower()
    if key in ("pentominoes", "pentomino", "5"):
        return parse_shapes(_PENTOMINOES)
    if key in ("tetrominoes", "tetromino", "4"):
        return parse_shapes(_TETROMINOES)
    if key in ("hexominoes", "hexomino", "6"):
        return {
            f"h{k:02d}": shape
            for k, shape in enumerate(free_polyominoes(6), start=1)
        }
    raise ValueError(
        f"unknown piece set {shorten(name)}; choose one of "
        f"{', '.join(PIECE_SET_NAMES)}"
    )


def _shape_from_text(name: str, text: str) -> Shape:
    """One piece drawn in ASCII: every character other than ``.`` and
    blanks is one of its cells (``parse_shapes`` with all of them read as
    one piece, and blank lines kept as empty rows)."""
    drawing = "\n".join(
        "".join(ch if ch in ". \t" else "#" for ch in line)
        if line.strip()
        else "."
        for line in text_lines(text)
    )
    try:
        (shape,) = parse_shapes(drawing).values()
    except ValueError:
        raise ValueError(
            f"piece {shorten(name)}: the drawing has no cell"
        ) from None
    return shape


def pieces_from(spec) -> dict[str, Shape]:
    """Pieces from a set name, from ASCII shapes (text with a newline), or
    from a mapping name -> shape (ASCII text or iterable of cells)."""
    if isinstance(spec, str):
        return parse_shapes(spec) if "\n" in spec else piece_set(spec)
    pieces = {}
    for name, shape in dict(spec).items():
        name = str(name)
        if isinstance(shape, str):
            pieces[name] = _shape_from_text(name, shape)
        else:
            cells = [tuple(x) for x in shape]
            if not cells:
                raise ValueError(f"piece {shorten(name)} has no cell")
            pieces[name] = normalize(cells)
    if not pieces:
        raise ValueError("no pieces")
    return pieces


# -- the problem ------------------------------------------------------------
class Polyomino(Packing):
    """Pieces to pack into a board, as an exact-cover problem.

    >>> puzzle = Polyomino("3x20")
    >>> puzzle.count(), puzzle.count(distinct=False)
    (2, 8)
    >>> print(puzzle.render(next(puzzle.solutions())))  # doctest: +SKIP

    ``problem`` is the ``ExactCover`` with every placement; ``solutions``
    and ``count`` work up to symmetry by default (see
    ``dlx.problems.packing``).

    Args:
        board: A size ``"RxC"``, ASCII art (``.`` a cell, ``#`` or a blank a
            hole) or an iterable of ``(row, col)`` cells.
        pieces: A set name (``PIECE_SET_NAMES``), ASCII shapes (see
            ``parse_shapes``) or a mapping name -> cells.
        one_sided: Pieces turn but are not flipped.
        copies: How many times each piece is used (an int, or a mapping
            name -> int).

    Raises:
        ValueError: A bad board, piece set, shape or ``copies`` (saying
            which), or a board of more than 1,000,000 cells.
    """

    lattice = SQUARE

    def __init__(
        self, board, pieces="pentominoes", *, one_sided: bool = False, copies=1
    ):
        shapes = pieces_from(pieces)
        self.copies = copies_from(copies, shapes)
        self.shapes = shapes
        size = _board_size(board) if isinstance(board, str) else None
        # The areas before listing the cells of a board that may be huge;
        # a board of no rows or no columns is parse_board's to refuse.
        if size and min(size) > 0:
            self._check_areas(size[0] * size[1])
        self._setup(parse_board(board), shapes, one_sided, self.copies)

    def render(self, tiling: Tiling) -> str:
        """A tiling as a letter grid (see ``render``).

        Args:
            tiling: The placements of a solution (``decode``'s).

        Returns:
            The grid, one line per row.
        """
        return render(tiling, self.board)


def cell_of(name: str) -> Cell:
    """The cell named ``name`` (``<row><col>`` in 0-9a-zA-Z digits, or
    ``r<row>c<col>``)."""
    long = re.fullmatch(r"r(\d+)c(\d+)", name)
    if long:
        return int(long.group(1)), int(long.group(2))
    if len(name) == 2 and all(ch in _DIGITS for ch in name):
        return _DIGITS.index(name[0]), _DIGITS.index(name[1])
    raise ValueError(f"{shorten(name)} is not a cell name")


def tiling_of(problem: ExactCover, solution: Sequence[int]) -> Tiling:
    """The tiling of a solution of any problem built like ``polyomino``'s
    (also one read back from a DLX file): each option is a piece name
    (``<name>.<copy>`` for copies) followed by cell names.

    Args:
        problem: A problem built like ``polyomino``'s.
        solution: One of its solutions (option numbers).

    Returns:
        The placements, each a piece's name and its cells.
    """
    tiling = []
    options = problem.options
    for number in solution:
        piece, *cells = options[number]
        name = re.sub(r"\.\d+$", "", str(piece))
        tiling.append((name, tuple(sorted(cell_of(str(x)) for x in cells))))
    return tuple(sorted(tiling))


def polyomino(
    board, pieces="pentominoes", *, one_sided: bool = False, copies=1
) -> ExactCover:
    """The exact-cover problem of packing ``pieces`` into ``board`` (every
    placement of every piece; see ``Polyomino`` for counting up to
    symmetry and for decoding).

    Args:
        board: A size ``"RxC"``, ASCII art (``.`` a cell, ``#`` or a blank a
            hole) or an iterable of ``(row, col)`` cells.
        pieces: A set name (``PIECE_SET_NAMES``), ASCII shapes (see
            ``parse_shapes``) or a mapping name -> cells.
        one_sided: Pieces turn but are not flipped.
        copies: How many times each piece is used (an int, or a mapping
            name -> int).

    Returns:
        The problem, one option per placement, the board's cells and the
            pieces primary.

    Raises:
        ValueError: A bad board, piece set, shape or ``copies`` (saying
            which), or a board of more than 1,000,000 cells.
    """
    return Polyomino(board, pieces, one_sided=one_sided, copies=copies).problem


_SPARE = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


def piece_letters(tiling: Sequence[Placement]) -> list[str]:
    """One character per placement: the piece's name when it is one
    character long, else (and for the second and later copies of a
    piece) the lower-case name if free, else the first free of A-Z, a-z,
    0-9 ("?" when they run out)."""
    used = {name for name, _ in tiling if len(name) == 1}
    spare = (ch for ch in _SPARE if ch not in used)
    given: dict[str, str] = {}
    letters = []
    for name, _ in tiling:
        if name not in given and len(name) == 1:
            letter = name
        elif name in given and len(name) == 1 and name.lower() not in used:
            letter = name.lower()
            used.add(letter)
        else:
            letter = next(spare, "?")
            used.add(letter)
        given.setdefault(name, letter)
        letters.append(letter)
    return letters


def render(
    tiling: Iterable[Placement], board: Iterable[Cell] | None = None
) -> str:
    """A tiling as a letter grid.  Each cell shows its piece's name when
    that is one character (a second copy of a piece gets the lower-case
    letter, further copies and longer names get free letters); board
    cells left uncovered show ``.``, cells off the board ``#``.

    Args:
        tiling: The placements, ``(name, cells)`` each.
        board: The board's cells (default: the cells of the tiling).

    Returns:
        The grid, one line per row.
    """
    tiling = sorted(tiling)
    grid: dict[Cell, str] = {}
    for letter, (_, piece) in zip(piece_letters(tiling), tiling):
        for x in piece:
            grid[x] = letter
    board = set(board or ())
    cells = set(grid) | board
    if not cells:
        return ""
    rows = range(min(r for r, _ in cells), 1 + max(r for r, _ in cells))
    cols = range(min(c for _, c in cells), 1 + max(c for _, c in cells))
    return "\n".join(
        "".join(
            grid.get((r, c), "." if (r, c) in board else "#") for c in cols
        )
        for r in rows
    )
