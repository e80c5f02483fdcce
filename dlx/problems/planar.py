"""Polyiamonds and polyhexes: pieces on the triangular and hexagonal grids.

Both grids have the 12 symmetries of the regular hexagon (6 rotations,
6 reflections); packing, counting up to symmetry and pictures are the
shared ones of ``dlx.problems.packing``, so counts are exact on every
board.  Coordinates are those of ``dlx.problems.lattice``: a hexagon is
``(q, r)`` in axial coordinates, a triangle three times its centroid in
the same coordinates, ``(3i+1, 3j+1)`` pointing up and ``(3i+2, 3j+2)``
pointing down, where ``(i, j)`` is the lattice point at its left corner.

Boards (the same words on both grids):

* ``"AxB"``: a parallelogram of A rows and B columns (unit rhombi of two
  triangles, or hexagons); ``"6x6"`` is a rhombus;
* ``"hexagon N"``: the regular hexagon of side N (6N² triangles, or
  3N(N-1)+1 hexagons);
* ``"triangle N"``: the triangle of side N (N² triangles, or N(N+1)/2
  hexagons);
* or any iterable of cells.

Pieces: ``"hexiamonds"`` (the 12 free hexiamonds), ``"pentiamonds"``
(4), ``"heptiamonds"`` (24), ``"tetrahexes"`` (7), ``"pentahexes"`` (22),
... ("<n>-iamonds"/"<n>-hexes" for any size: ``"6-iamonds"``), named
``A``, ``B``, ... in increasing order of their canonical form; or a
mapping ``name -> cells``.

Text pictures: one line per row, each triangle (hexagon) one character
(followed by a blank for hexagons), rows indented to follow the 60 degree
slant, ``.`` for a board cell left uncovered; ``svg()`` draws the real
shapes.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterable

from ..problem import ExactCover
from ..shorten import shorten
from .lattice import (
    HEXAGONAL,
    TRIANGULAR,
    Cell,
    Lattice,
    Shape,
    parse_size,
)
from .packing import Packing, Placement, Tiling, copies_from
from .polyomino import piece_letters

__all__ = [
    "Polyiamond",
    "Polyhex",
    "polyiamond",
    "polyhex",
    "parse_board",
    "piece_set",
    "render",
    "IAMOND_SETS",
    "HEX_SETS",
]

IAMOND_SETS = {
    "triamonds": 3,
    "tetriamonds": 4,
    "pentiamonds": 5,
    "hexiamonds": 6,
    "heptiamonds": 7,
}
"""The polyiamond sets by name, with their size (triangles a piece)."""
HEX_SETS = {"trihexes": 3, "tetrahexes": 4, "pentahexes": 5, "hexahexes": 6}
"""The polyhex sets by name, with their size (hexagons a piece)."""
MAX_BOARD_CELLS = 1_000_000


def _corners(points: Iterable[tuple[int, int]], lattice: Lattice) -> frozenset:
    """The cells all of whose corners (triangles) or centres (hexagons)
    are among ``points``, a set of lattice points."""
    points = set(points)
    if lattice is HEXAGONAL:
        return frozenset(points)
    cells = set()
    for i, j in points:
        if {(i + 1, j), (i, j + 1)} <= points:
            cells.add((3 * i + 1, 3 * j + 1))  # corners (i, j) and right
        if {(i - 1, j + 1), (i, j + 1)} <= points:
            cells.add((3 * i - 1, 3 * j + 2))  # corners (i, j) and below
    return frozenset(cells)


def parse_board(spec, lattice: Lattice) -> frozenset:
    """A board of ``lattice`` (``TRIANGULAR`` or ``HEXAGONAL``) from a
    spec (see the module doc), moved into normal position.

    Args:
        spec: A board spec, or its cells.
        lattice: ``TRIANGULAR`` or ``HEXAGONAL``.

    Returns:
        The board's cells.

    Raises:
        ValueError: A bad spec, or more than 1,000,000 cells.
    """
    if not isinstance(spec, str):
        cells = [tuple(x) for x in spec]
        if not cells or any(
            len(x) != 2 or not lattice.is_cell(x) for x in cells
        ):
            raise ValueError(
                f"a board is a non-empty set of cells of the "
                f"{lattice.name} grid"
            )
        return frozenset(lattice.normalize(cells))
    text = spec.strip().lower()
    size = parse_size(text, "ROWSxCOLS")
    shape = re.fullmatch(r"(hexagon|triangle)[\s:]*(\d+)", text)
    if size:
        rows, cols = size
        count = rows * cols * (2 if lattice is TRIANGULAR else 1)
        _check(spec, count)
        extra = 0 if lattice is HEXAGONAL else 1
        points = [
            (i, j) for i in range(cols + extra) for j in range(rows + extra)
        ]
    elif shape:
        n = int(shape.group(2))
        if shape.group(1) == "hexagon":
            count = 6 * n * n if lattice is TRIANGULAR else 3 * n * (n - 1) + 1
            _check(spec, count)
            m = n if lattice is TRIANGULAR else n - 1
            points = [
                (i, j)
                for i in range(-m, m + 1)
                for j in range(-m, m + 1)
                if abs(i + j) <= m
            ]
        else:
            count = n * n if lattice is TRIANGULAR else n * (n + 1) // 2
            _check(spec, count)
            m = n if lattice is TRIANGULAR else n - 1
            points = [(i, j) for i in range(m + 1) for j in range(m + 1 - i)]
    else:
        raise ValueError(
            f"board {shorten(spec)} is not 'AxB', 'hexagon N' or 'triangle N'"
        )
    return frozenset(lattice.normalize(_corners(points, lattice)))


def _check(spec: str, count: int):
    if count < 1:
        raise ValueError(f"board {shorten(spec.strip())} has no cells")
    if count > MAX_BOARD_CELLS:
        raise ValueError(
            f"board {shorten(spec.strip())} has {count} cells; at "
            f"most {MAX_BOARD_CELLS} are supported"
        )


def piece_set(name: str, lattice: Lattice) -> dict[str, Shape]:
    """A named set of free polyforms of ``lattice`` (see the module doc).

    Args:
        name: A set name (``IAMOND_SETS`` or ``HEX_SETS``).
        lattice: ``TRIANGULAR`` or ``HEXAGONAL``.

    Returns:
        The pieces by name.

    Raises:
        ValueError: An unknown name for that lattice.
    """
    key = name.strip().lower()
    sets = IAMOND_SETS if lattice is TRIANGULAR else HEX_SETS
    suffix = "iamonds" if lattice is TRIANGULAR else "hexes"
    size = sets.get(key)
    match = re.fullmatch(r"(\d+)-?" + suffix, key)
    if match:
        size = int(match.group(1))
    if size is None or not 1 <= size <= 10:
        raise ValueError(
            f"unknown piece set {shorten(name)}; choose one of "
            f"{', '.join(sets)} (or e.g. 8-{suffix})"
        )
    shapes = lattice.polyforms(size)
    names = _names(len(shapes))
    return dict(zip(names, shapes))


def _names(count: int) -> list[str]:
    letters = string.ascii_uppercase + string.ascii_lowercase
    if count <= len(letters):
        return list(letters[:count])
    return [f"p{k:03d}" for k in range(1, count + 1)]


def pieces_from(spec, lattice: Lattice) -> dict[str, Shape]:
    if isinstance(spec, str):
        return piece_set(spec, lattice)
    pieces = {}
    for name, cells in dict(spec).items():
        cells = [tuple(x) for x in cells]
        if not cells:
            raise ValueError(f"piece {shorten(name)} has no cell")
        bad = [x for x in cells if len(x) != 2 or not lattice.is_cell(x)]
        if bad:
            raise ValueError(
                f"piece {shorten(name)}: {bad[0]} is not a cell of the "
                f"{lattice.name} grid"
            )
        pieces[str(name)] = lattice.normalize(cells)
    if not pieces:
        raise ValueError("no pieces")
    return pieces


class _Planar(Packing):
    default_pieces = ""

    def __init__(
        self, board, pieces=None, *, one_sided: bool = False, copies=1
    ):
        shapes = pieces_from(pieces or self.default_pieces, self.lattice)
        self.copies = copies_from(copies, shapes)
        self.shapes = shapes
        self._setup(
            parse_board(board, self.lattice), shapes, one_sided, self.copies
        )

    def render(self, tiling: Tiling) -> str:
        """A tiling as slanted rows of letters (see the module doc)."""
        return render(tiling, self.board, self.lattice)


class Polyiamond(_Planar):
    """Polyiamonds to pack into a board of the triangular grid.

    >>> Polyiamond("6x6").count()        # doctest: +SKIP
    156
    """

    lattice = TRIANGULAR
    axes = "qr"
    default_pieces = "hexiamonds"


class Polyhex(_Planar):
    """Polyhexes to pack into a board of the hexagonal grid."""

    lattice = HEXAGONAL
    axes = "qr"
    default_pieces = "tetrahexes"


def polyiamond(board, pieces="hexiamonds", **options) -> ExactCover:
    """The exact-cover problem of packing polyiamonds into ``board``.

    Args:
        board: A board of the grid (see the module doc), or its cells.
        pieces: A set name (``IAMOND_SETS``) or a mapping name -> cells.
        **options: ``one_sided`` and ``copies``, as ``Polyiamond`` takes them.

    Returns:
        The problem, one option per placement.

    Raises:
        ValueError: A bad board, piece set, shape or ``copies`` (saying
            which), or a board of more than 1,000,000 cells.
    """
    return Polyiamond(board, pieces, **options).problem


def polyhex(board, pieces="tetrahexes", **options) -> ExactCover:
    """The exact-cover problem of packing polyhexes into ``board``.

    Args:
        board: A board of the grid (see the module doc), or its cells.
        pieces: A set name (``HEX_SETS``) or a mapping name -> cells.
        **options: ``one_sided`` and ``copies``, as ``Polyhex`` takes them.

    Returns:
        The problem, one option per placement.

    Raises:
        ValueError: A bad board, piece set, shape or ``copies`` (saying
            which), or a board of more than 1,000,000 cells.
    """
    return Polyhex(board, pieces, **options).problem


def render(
    tiling: Iterable[Placement], board: Iterable[Cell], lattice: Lattice
) -> str:
    """Rows of letters, one row of rhombi (hexagons) a line, indented one
    character per row for the slant; ``.`` an uncovered board cell.

    Args:
        tiling: The placements, ``(name, cells)`` each.
        board: The board's cells.
        lattice: ``TRIANGULAR`` or ``HEXAGONAL``.

    Returns:
        The rows of letters.
    """
    tiling = sorted(tiling)
    grid: dict[Cell, str] = {}
    for letter, (_, piece) in zip(piece_letters(tiling), tiling):
        for x in piece:
            grid[x] = letter
    cells = set(grid) | set(board)
    if not cells:
        return ""
    hexes = lattice is HEXAGONAL

    # Column of a cell in characters: two per unit of x (x = i + j/2).
    def row(x):
        return x[1] if hexes else x[1] // 3

    def column(x):
        if hexes:
            return 2 * x[0] + x[1]
        i, j = x[0] // 3, x[1] // 3
        return 2 * i + j + (x[0] % 3 == 2)

    low = min(column(x) for x in cells)
    lines = []
    for r in range(min(map(row, cells)), 1 + max(map(row, cells))):
        chars: dict[int, str] = {}
        for x in cells:
            if row(x) == r:
                chars[column(x) - low] = grid.get(x, ".")
        width = 1 + max(chars) if chars else 0
        lines.append("".join(chars.get(k, " ") for k in range(width)).rstrip())
    return "\n".join(lines)
