"""The grids that pieces live on, and their point groups.

A *lattice* here is a set of cells with integer coordinates, a group of
linear maps (its rotations first, then its reflections) that send cells to
cells, and the translations that move cells to cells: every vector whose
coordinates are multiples of ``period`` (1 everywhere except on the
triangular grid).  Shapes are compared after ``normalize``, which moves
them by such a translation so that each coordinate's minimum lies in
``[0, period)``: two shapes are translates of each other exactly when
their normal forms are equal.

* ``SQUARE``: cells ``(row, col)``; 4 rotations, 8 maps in all.
* ``CUBIC``: cells ``(layer, row, col)``; the 24 rotations of the cube,
  48 maps with the reflections.
* ``HEXAGONAL``: hexagons in axial coordinates ``(q, r)`` (the centre of
  hexagon ``(q, r)`` is ``q*e1 + r*e2`` with ``e1``, ``e2`` unit vectors
  60 degrees apart); 6 rotations, 12 maps.
* ``TRIANGULAR``: triangles named by three times their centroid in the
  same axial coordinates: ``(3i+1, 3j+1)`` is the upward triangle with
  corners ``(i, j)``, ``(i+1, j)``, ``(i, j+1)`` and ``(3i+2, 3j+2)`` the
  downward one with corners ``(i+1, j)``, ``(i, j+1)``, ``(i+1, j+1)``;
  the same 12 maps as the hexagons (turning about a lattice point), and
  translations by multiples of 3.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable
from dataclasses import dataclass

from ..shorten import shorten

Cell = tuple[int, ...]
Shape = tuple[Cell, ...]
Matrix = tuple[tuple[int, ...], ...]


def _mul(a: Matrix, b: Matrix) -> Matrix:
    return tuple(
        tuple(
            sum(a[i][k] * b[k][j] for k in range(len(b)))
            for j in range(len(b[0]))
        )
        for i in range(len(a))
    )


def _power(a: Matrix, k: int) -> Matrix:
    result = tuple(
        tuple(int(i == j) for j in range(len(a))) for i in range(len(a))
    )
    for _ in range(k):
        result = _mul(a, result)
    return result


def _det(m: Matrix) -> int:
    if len(m) == 2:
        return m[0][0] * m[1][1] - m[0][1] * m[1][0]
    return sum(
        (-1) ** j
        * m[0][j]
        * _det(
            tuple(tuple(row[c] for c in range(3) if c != j) for row in m[1:])
        )
        for j in range(3)
    )


@dataclass(frozen=True)
class Lattice:
    """A grid of cells: its point group and its translations."""

    name: str
    maps: tuple[Matrix, ...]  # rotations first, then reflections
    rotations: int  # how many of ``maps`` are rotations
    period: tuple[int, ...]  # translations: multiples of these
    steps: tuple[tuple[Cell, ...], ...]  # neighbour offsets by cell kind

    @property
    def dimension(self) -> int:
        return len(self.period)

    def transform(self, cell: Cell, k: int) -> Cell:
        """Map number ``k`` of the point group applied to ``cell``."""
        m = self.maps[k]
        return tuple(
            sum(row[j] * cell[j] for j in range(len(cell))) for row in m
        )

    def group(self, one_sided: bool = False) -> range:
        """The numbers of the maps a piece may undergo: the rotations
        only when it is ``one_sided`` (may not be mirrored)."""
        return range(self.rotations if one_sided else len(self.maps))

    def offset(self, cells: Iterable[Cell]) -> Cell:
        """The translation ``normalize`` subtracts from ``cells``."""
        cells = list(cells)
        return tuple(
            p * (min(x[i] for x in cells) // p)
            for i, p in enumerate(self.period)
        )

    def normalize(self, cells: Iterable[Cell]) -> Shape:
        """The cells moved by a translation of the lattice so that each
        coordinate's minimum is in ``[0, period)``, sorted."""
        cells = [tuple(x) for x in cells]
        shift = self.offset(cells)
        return tuple(
            sorted(tuple(a - s for a, s in zip(x, shift)) for x in cells)
        )

    def kind(self, cell: Cell) -> int:
        """Which class of cells under translation ``cell`` is in (the
        triangular grid's up and down triangles are 0 and 1)."""
        return 0 if len(self.steps) == 1 else cell[0] % self.period[0] - 1

    def is_cell(self, cell: Cell) -> bool:
        if len(self.steps) == 1:
            return True
        p = self.period[0]
        return cell[0] % p in (1, 2) and cell[0] % p == cell[1] % p

    def translates(self, a: Cell, b: Cell) -> bool:
        """Whether a translation of the lattice takes cell ``a`` to ``b``."""
        return all((y - x) % p == 0 for x, y, p in zip(a, b, self.period))

    def neighbours(self, cell: Cell) -> list[Cell]:
        """The cells sharing a side (a face in 3D) with ``cell``."""
        return [
            tuple(a + d for a, d in zip(cell, step))
            for step in self.steps[self.kind(cell)]
        ]

    def orientations(
        self, shape: Iterable[Cell], one_sided: bool = False
    ) -> list[Shape]:
        """The distinct orientations of a shape under the point group (the
        rotations only if ``one_sided``), in order of first appearance."""
        shape = list(shape)
        seen: dict[Shape, None] = {}
        for k in self.group(one_sided):
            seen.setdefault(
                self.normalize(self.transform(x, k) for x in shape)
            )
        return list(seen)

    def canonical(
        self, shape: Iterable[Cell], one_sided: bool = False
    ) -> Shape:
        """The least orientation of ``shape`` (its name up to motion)."""
        return min(self.orientations(shape, one_sided))

    def polyforms(self, n: int, one_sided: bool = False) -> list[Shape]:
        """The polyforms of ``n`` cells (free, or one-sided: up to
        rotation only), each by its canonical form, sorted."""
        if n < 1:
            raise ValueError(f"n must be positive, got {n}")
        start = (1,) * 2 if len(self.steps) > 1 else (0,) * self.dimension
        shapes: set[Shape] = {(start,)}
        for _ in range(n - 1):
            grown: set[Shape] = set()
            for shape in shapes:
                cells = set(shape)
                for x in shape:
                    for y in self.neighbours(x):
                        if y not in cells:
                            grown.add(self.canonical(cells | {y}, one_sided))
            shapes = grown
        return sorted(shapes)


def _square() -> Lattice:
    turn = ((0, 1), (-1, 0))  # (r, c) -> (c, -r)
    flip = ((1, 0), (0, -1))  # (r, c) -> (r, -c)
    maps = [_power(turn, k) for k in range(4)]
    maps += [_mul(flip, m) for m in maps]
    return Lattice(
        "square", tuple(maps), 4, (1, 1), (((1, 0), (-1, 0), (0, 1), (0, -1)),)
    )


def _cubic() -> Lattice:
    maps = []
    for perm in itertools.permutations(range(3)):
        for signs in itertools.product((1, -1), repeat=3):
            maps.append(
                tuple(
                    tuple(signs[i] if j == perm[i] else 0 for j in range(3))
                    for i in range(3)
                )
            )
    identity = ((1, 0, 0), (0, 1, 0), (0, 0, 1))
    maps.sort(key=lambda m: (_det(m) < 0, m != identity))
    steps = tuple(
        tuple(s * (i == j) for j in range(3))
        for i in range(3)
        for s in (1, -1)
    )
    return Lattice("cubic", tuple(maps), 24, (1, 1, 1), (steps,))


def _sixfold(name: str, period: int, steps) -> Lattice:
    turn = ((0, -1), (1, 1))  # (q, r) -> (-r, q + r): 60 degrees
    flip = ((0, 1), (1, 0))  # (q, r) -> (r, q)
    maps = [_power(turn, k) for k in range(6)]
    maps += [_mul(flip, m) for m in maps]
    return Lattice(name, tuple(maps), 6, (period, period), steps)


SQUARE = _square()
CUBIC = _cubic()
HEXAGONAL = _sixfold(
    "hexagonal", 1, (((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)),)
)
# An upward triangle's three neighbours are downward ones, and back.
TRIANGULAR = _sixfold(
    "triangular", 3, (((1, 1), (1, -2), (-2, 1)), ((-1, -1), (-1, 2), (2, -1)))
)


# -- sizes ----------------------------------------------------------------
# A size: whole numbers joined by 'x' (blanks around them allowed), such as
# 6x10 or 3x4x5; a lone number is a size of one dimension.  No board art
# is one (art is '.', '#' and blanks), so text of this shape is always
# read as a size, and one of the wrong number of dimensions is refused as
# such rather than read as art.
_SIZE = re.compile(r"\s*\d+(?:\s*[xX]\s*\d+)*\s*")


def parse_size(spec: str, shape: str) -> tuple[int, ...] | None:
    """The numbers of a size such as ``"6x10"``, or None when ``spec`` is
    not written as a size at all (it may be board art, or a name).
    ``shape`` names the dimensions expected, joined by ``x`` (e.g.
    ``"ROWSxCOLS"``); a size with another number of them is a
    ValueError: ``'6x10x2' is not a size ROWSxCOLS``."""
    if not _SIZE.fullmatch(spec):
        return None
    numbers = tuple(int(n) for n in re.findall(r"\d+", spec))
    if len(numbers) != shape.count("x") + 1:
        raise ValueError(f"{shorten(spec.strip())} is not a size {shape}")
    return numbers
