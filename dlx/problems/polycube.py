"""Polycube packing (Soma, Bedlam, pentacubes) as exact cover.

Glossary as in ``dlx.problems.packing``: a *cell* is a ``(layer, row,
col)`` triple of a cube; a *board* (here a *box* when it is a cuboid) is a
set of cells; a piece's *orientations* are its distinct images under the
24 rotations of the cube, or under all 48 rotations and reflections when
the pieces may be mirrored (``one_sided=False``).  Physical pieces turn
but cannot be mirrored, so ``one_sided=True`` is the default here (unlike
polyominoes, which can be flipped over in space).  Counts are up to the
board's symmetries that map the set of pieces onto itself: a reflection
counts when every chiral piece's mirror twin is in the set (the Soma cube)
or when no piece is chiral (flat pentacubes).

Items: one per piece (per copy), then one per board cell, named by its
layer, row and column digits (``012``; ``l1r2c70`` when a coordinate
passes 61).  Options: ``<piece> <cell> ...``, one per placement.

Boards: ``"3x4x5"`` (layers x rows x columns), or ASCII art, one layer
after another separated by blank lines, ``.`` a cell and ``#`` a hole::

    ...    ...    ...
    ...    .#.    ...      is one layer per paragraph, e.g.
    ...    ...    ...      "...\\n...\\n...\\n\\n...\\n.#.\\n..."

Pieces: a set name (``PIECE_SET_NAMES``), a mapping ``name -> cells``
(``(layer, row, col)`` triples, or the layered ASCII art of one piece),
or text with one piece a line: its name, then its cells as three digits
each, e.g. ``V 000 001 010``.

Piece sets:

* ``soma``: Piet Hein's 7 Soma pieces V L T Z A B P (27 cells; A and B
  are mirror twins);
* ``bedlam``: the 13 pieces of the Bedlam cube (64 cells: 12 pentacubes
  and one tetracube), named F X W M B H L S C E I T Z;
* ``flat-pentacubes``: the 12 pentominoes as one-layer pentacubes;
* ``pentacubes``: all 29 pentacubes that differ under rotation (mirror
  twins counted apart): the 12 flat ones named by their pentomino letter,
  the 17 others ``a`` to ``q`` in increasing order of their canonical
  form.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable

from ..formats import text_lines
from ..problem import ExactCover
from ..shorten import shorten
from .lattice import CUBIC, Cell, Shape, parse_size
from .packing import Packing, Placement, Tiling, copies_from
from .polyomino import piece_letters, piece_set as polyomino_set

__all__ = [
    "Polycube",
    "polycube",
    "parse_box",
    "parse_pieces",
    "piece_set",
    "render",
    "PIECE_SET_NAMES",
    "DEFAULT_BOXES",
]

PIECE_SET_NAMES = ("soma", "bedlam", "flat-pentacubes", "pentacubes")
"""The named piece sets ``pieces`` takes."""

DEFAULT_BOXES = {
    "soma": "3x3x3",
    "bedlam": "4x4x4",
    "flat-pentacubes": "3x4x5",
}
"""The box each piece set fills when no board is given."""

#: The largest board ``parse_box`` builds from a size like ``"AxBxC"``.
MAX_BOARD_CELLS = 1_000_000

# Each piece: its cells as layer-row-column digits.
_SOMA = """
V 000 001 010
L 000 001 002 010
T 000 001 002 011
Z 000 001 011 012
A 000 001 010 110
B 000 001 010 101
P 000 001 010 100
"""

_BEDLAM = """
F 001 010 011 012 022
X 001 010 011 012 021
W 000 001 011 012 022
M 001 010 011 012 111
B 001 010 011 012 101
H 001 010 011 012 110
L 002 010 011 012 110
S 000 010 011 012 100
C 000 010 011 012 110
E 001 002 010 011 110
I 001 002 010 011 111
T 001 002 011 110 111
Z 000 001 010 110
"""


# -- parsing --------------------------------------------------------------
def _box_size(spec: str) -> tuple[int, ...] | None:
    """(layers, rows, columns) of a box given as ``"AxBxC"``, else None (a
    size of another number of dimensions is a ValueError)."""
    return parse_size(spec, "LAYERSxROWSxCOLS")


def parse_box(spec: str | Iterable[Cell]) -> frozenset:
    """A board from ``"AxBxC"`` (layers x rows x columns), from layers of
    ASCII art separated by blank lines (``.`` a cell, ``#`` or a blank a
    hole), or from an iterable of ``(layer, row, col)`` cells; moved to
    start at 0 in every coordinate.

    Args:
        spec: ``"AxBxC"``, ASCII layers, or ``(layer, row, col)`` cells.

    Returns:
        The box's cells.

    Raises:
        ValueError: A bad size or picture, or more than 1,000,000 cells.
    """
    if not isinstance(spec, str):
        cells = [tuple(x) for x in spec]
        if not cells or any(len(x) != 3 for x in cells):
            raise ValueError(
                "a board is a non-empty set of (layer, row, col) cells"
            )
        return frozenset(CUBIC.normalize(cells))
    size = _box_size(spec)
    if size:
        if min(size) < 1:
            raise ValueError(f"box {shorten(spec.strip())} has no cells")
        if size[0] * size[1] * size[2] > MAX_BOARD_CELLS:
            raise ValueError(
                f"box {shorten(spec.strip())} has "
                f"{size[0] * size[1] * size[2]} cells; at most "
                f"{MAX_BOARD_CELLS} are supported"
            )
        return frozenset(
            (a, b, c)
            for a in range(size[0])
            for b in range(size[1])
            for c in range(size[2])
        )
    cells = []
    layer, row = 0, 0
    for number, line in enumerate(text_lines(spec), start=1):
        if not line.strip():
            if row:
                layer, row = layer + 1, 0
            continue
        for c, ch in enumerate(line):
            if ch == ".":
                cells.append((layer, row, c))
            elif ch not in "# \t":
                raise ValueError(
                    f"board line {number}, column {c + 1}: "
                    f"{shorten(ch)} is neither '.' (a cell) nor '#' "
                    f"(a hole)"
                )
        row += 1
    if not cells:
        if "\n" not in spec and "." not in spec:
            raise ValueError(
                f"board {shorten(spec)} is neither a size like "
                f"'3x4x5' nor ASCII art"
            )
        raise ValueError("the board has no cells ('.')")
    return frozenset(CUBIC.normalize(cells))


def parse_pieces(text: str) -> dict[str, Shape]:
    """Pieces written one a line: a name, then each cell as three digits
    (layer, row, column), e.g. ``V 000 001 010``.  Blank lines and lines
    starting with ``|`` are skipped.

    Args:
        text: The pieces, one a line.

    Returns:
        The pieces by name, each its normalized cells.

    Raises:
        ValueError: A bad line (naming it).
    """
    pieces: dict[str, Shape] = {}
    for number, line in enumerate(text_lines(text), start=1):
        words = line.split()
        if not words or words[0].startswith("|"):
            continue
        name, cells = words[0], words[1:]
        where = f"pieces line {number}"
        if name in pieces:
            raise ValueError(f"{where}: piece {shorten(name)} is given twice")
        if not cells:
            raise ValueError(f"{where}: piece {shorten(name)} has no cell")
        bad = [w for w in cells if not re.fullmatch(r"\d\d\d", w)]
        if bad:
            raise ValueError(
                f"{where}: {shorten(bad[0])} is not a cell (three "
                f"digits: layer, row, column)"
            )
        coords = [tuple(int(ch) for ch in w) for w in cells]
        if len(set(coords)) != len(coords):
            raise ValueError(
                f"{where}: piece {shorten(name)} has a cell twice"
            )
        pieces[name] = CUBIC.normalize(coords)
    if not pieces:
        raise ValueError("no piece given")
    return pieces


def piece_set(name: str) -> dict[str, Shape]:
    """A named set of polycubes (see ``PIECE_SET_NAMES``).

    Args:
        name: One of ``PIECE_SET_NAMES``.

    Returns:
        The pieces by name.

    Raises:
        ValueError: An unknown name.
    """
    key = name.strip().lower().replace("_", "-")
    if key == "soma":
        return parse_pieces(_SOMA)
    if key == "bedlam":
        return parse_pieces(_BEDLAM)
    if key in ("flat-pentacubes", "flat"):
        return {
            letter: CUBIC.normalize((0,) + x for x in cells)
            for letter, cells in polyomino_set("pentominoes").items()
        }
    if key in ("pentacubes", "pentacube"):
        return _pentacubes()
    raise ValueError(
        f"unknown piece set {shorten(name)}; choose one of "
        f"{', '.join(PIECE_SET_NAMES)}"
    )


def _pentacubes() -> dict[str, Shape]:
    flat = {
        CUBIC.canonical(shape, one_sided=True): letter
        for letter, shape in piece_set("flat-pentacubes").items()
    }
    pieces, spare = {}, iter("abcdefghijklmnopq")
    for shape in CUBIC.polyforms(5, one_sided=True):
        pieces[flat.get(shape) or next(spare)] = shape
    return dict(
        sorted(pieces.items(), key=lambda kv: (kv[0].islower(), kv[0]))
    )


def _shape_from(name: str, shape) -> Shape:
    cells: Collection[Cell]
    if isinstance(shape, str):
        cells = parse_box(shape) if shape.strip() else ()
    else:
        cells = [tuple(x) for x in shape]
    if not cells:
        raise ValueError(f"piece {shorten(name)} has no cell")
    if any(len(x) != 3 for x in cells):
        raise ValueError(f"piece {shorten(name)}: cells are (layer, row, col)")
    return CUBIC.normalize(cells)


def pieces_from(spec) -> dict[str, Shape]:
    if isinstance(spec, str):
        return (
            parse_pieces(spec)
            if "\n" in spec.strip() or len(spec.split()) > 1
            else piece_set(spec)
        )
    pieces = {
        str(name): _shape_from(str(name), shape)
        for name, shape in dict(spec).items()
    }
    if not pieces:
        raise ValueError("no pieces")
    return pieces


# -- the problem ------------------------------------------------------------
class Polycube(Packing):
    """Polycubes to pack into a box (or any set of cells).

    >>> soma = Polycube("3x3x3", "soma")
    >>> soma.count(), soma.count(distinct=False)   # doctest: +SKIP
    (240, 11520)

    ``one_sided`` (default True): pieces turn but are not mirrored (24
    orientations at most); ``one_sided=False`` allows mirror images too
    (48).  ``copies``: how many times each piece is used (an int or a
    mapping name -> int).  Counting works as for polyominoes (see
    ``dlx.problems.packing``); ``count(threads=N)`` spreads the main
    search over N threads.

    Args:
        board: A size ``"AxBxC"`` (layers x rows x columns), layers of ASCII
            art, or an iterable of ``(layer, row, col)`` cells.
        pieces: A set name (``PIECE_SET_NAMES``), pieces as ``parse_pieces``
            reads them, or a mapping name -> cells.
        one_sided: Pieces turn but are not mirrored (the default).
        copies: How many times each piece is used (an int, or a mapping
            name -> int).

    Raises:
        ValueError: A bad board, piece set, shape or ``copies`` (saying
            which), or a board of more than 1,000,000 cells.
    """

    lattice = CUBIC
    axes = "lrc"

    def __init__(
        self, board, pieces="soma", *, one_sided: bool = True, copies=1
    ):
        shapes = pieces_from(pieces)
        self.copies = copies_from(copies, shapes)
        self.shapes = shapes
        size = _box_size(board) if isinstance(board, str) else None
        if size:  # before listing the cells of a box that may be huge
            self._check_areas(size[0] * size[1] * size[2])
        self._setup(parse_box(board), shapes, one_sided, self.copies)

    def render(self, tiling: Tiling) -> str:
        """A packing as letter grids, one per layer, side by side.

        Args:
            tiling: The placements of a solution (``decode``'s).

        Returns:
            The grids, one line per row.
        """
        return render(tiling, self.board)

    @staticmethod
    def _part(cell: Cell) -> int:
        return cell[0]  # label each piece once per layer

    def _polygon(self, cell: Cell) -> list[tuple[float, float]]:
        # The layers side by side, one empty column between them, as in
        # ``render``: each piece is one group across the layers it meets.
        layer, row, col = cell
        if not hasattr(self, "_columns"):
            self._columns = 1 + max(c for _, _, c in self.board)
        x = col + layer * (self._columns + 1)  # a gap between layers
        return [(x, row), (x + 1, row), (x + 1, row + 1), (x, row + 1)]


def polycube(
    board, pieces="soma", *, one_sided: bool = True, copies=1
) -> ExactCover:
    """The exact-cover problem of packing ``pieces`` into ``board`` (every
    placement; see ``Polycube`` for counting up to symmetry).

    Args:
        board: A size ``"AxBxC"`` (layers x rows x columns), layers of ASCII
            art, or an iterable of ``(layer, row, col)`` cells.
        pieces: A set name (``PIECE_SET_NAMES``), pieces as ``parse_pieces``
            reads them, or a mapping name -> cells.
        one_sided: Pieces turn but are not mirrored (the default).
        copies: How many times each piece is used (an int, or a mapping
            name -> int).

    Returns:
        The problem, one option per placement.

    Raises:
        ValueError: A bad board, piece set, shape or ``copies`` (saying
            which), or a board of more than 1,000,000 cells.
    """
    return Polycube(board, pieces, one_sided=one_sided, copies=copies).problem


def render(
    tiling: Iterable[Placement], board: Iterable[Cell] | None = None
) -> str:
    """A packing as one letter grid per layer, the layers side by side
    (layer 0 on the left) with two blanks between them: ``.`` an
    uncovered board cell, ``#`` a cell off the board.

    Args:
        tiling: The placements, ``(name, cells)`` each.
        board: The board's cells (default: the cells of the tiling).

    Returns:
        The grids, one line per row.
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
    spans = [
        range(min(x[i] for x in cells), 1 + max(x[i] for x in cells))
        for i in range(3)
    ]
    return "\n".join(
        "  ".join(
            "".join(
                grid.get((a, r, c), "." if (a, r, c) in board else "#")
                for c in spans[2]
            )
            for a in spans[0]
        )
        for r in spans[1]
    )
