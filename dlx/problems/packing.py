"""Packing pieces into a board on any lattice, counted up to symmetry.

This is the part that polyominoes, polycubes, polyiamonds and polyhexes
share: placements, the exact-cover problem, decoding, and counting up to
the board's symmetries.  The lattice (``dlx.problems.lattice``) supplies
the point group and the translations; each family's module supplies
parsing, piece sets, cell names and pictures.

Glossary: a *cell* is a tuple of integers; a *board* is a set of cells; a
*shape* is a set of cells in normal position (``Lattice.normalize``); a
*piece* is a named shape with its *orientations* (its distinct images
under the lattice's point group, or under its rotations only when the
pieces are *one-sided*); a *placement* is a piece on a set of board
cells; a *tiling* (a packing, in 3D) is a set of placements covering the
board.

Items: one per piece (one per copy when a piece is used several times),
then one per board cell, all primary.  Options: one per placement,
``<piece> <cell> <cell> ...``.

Counting up to symmetry.  The symmetries of a problem are the maps of the
point group that take the board onto itself (after a translation) and the
set of pieces onto itself (a piece may turn into another one, e.g.
one-sided mirror twins).  Two tilings are the same "up to symmetry" when
one of these maps one onto the other; ``count(distinct=True)`` counts the
orbits.  The rule, exact for every board and piece set:

1. Pick a piece ``p`` used once that every symmetry maps to itself (the
   one with the fewest placement orbits).  Split its placements into
   orbits under the symmetry group ``G`` and keep one placement ``r`` of
   each orbit.  Orbits of tilings correspond one to one to the pairs
   (``r``, orbit of ``Stab(r)`` on the tilings with ``p`` at ``r``).
2. When ``Stab(r)`` is trivial (the usual case) no two tilings with ``p``
   at such an ``r`` are images of each other, so one DLX search over the
   kept placements counts their orbits exactly (for pentominoes in 6x10
   this is Knuth's rule of keeping the X in one quarter of the board, and
   ``distinct_problem()`` returns that search as an ``ExactCover``).
3. When ``r`` is itself symmetric (the X centred on the middle row of a
   5x12 box), the tilings with ``p`` at ``r`` are listed and their
   ``Stab(r)``-orbits counted by Burnside's lemma: each tiling adds
   (number of elements of ``Stab(r)`` fixing it) / ``|Stab(r)|``;
   ``solutions()`` yields the least tiling of each of those orbits.
4. If no piece fits step 1, every tiling is listed and Burnside's lemma is
   applied with the whole group (exact, but slow on large problems).

``count(distinct=False)`` counts every tiling (a piece used k times counts
each tiling once, not k! times): from the same searches, each tiling of
step 2 stands for ``|G|`` tilings and each of step 3 for
``|G| / |Stab(r)|``.  ``count(distinct=False, exhaustive=True)`` searches
every placement with no symmetry breaking; the tests check that both
agree.
"""

from __future__ import annotations

import math
import weakref
from collections.abc import (
    Callable,
    Hashable,
    Iterable,
    Iterator,
    Mapping,
    Sequence,
)
from dataclasses import dataclass
from fractions import Fraction

from ..draw import colour, tiling_svg
from ..problem import ExactCover, Stats
from ..services.search import Interrupted
from ..shorten import shorten
from .lattice import Cell, Lattice, Shape

__all__ = [
    "Packing",
    "Symmetry",
    "Placement",
    "Tiling",
    "cell_namer",
    "copies_from",
    "DIGITS",
]

Placement = tuple[str, tuple[Cell, ...]]
"""One piece on the board: its name and its cells."""
Tiling = tuple[Placement, ...]
"""A solution as the placements of its pieces."""

DIGITS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
"""The labels of the pieces of a generated set, in order."""


@dataclass(frozen=True)
class Symmetry:
    """A symmetry of a problem: how it moves cells and renames pieces."""

    k: int  # which map of the lattice's point group
    cell_map: Mapping[Cell, Cell]
    piece_map: Mapping[str, str]

    def placement(self, placement: Placement) -> Placement:
        name, cells = placement
        return (
            self.piece_map[name],
            tuple(sorted(self.cell_map[x] for x in cells)),
        )

    def tiling(self, tiling: Tiling) -> Tiling:
        return tuple(sorted(self.placement(x) for x in tiling))


def board_maps(lattice: Lattice, board: frozenset) -> list[tuple[int, dict]]:
    """The maps of the point group that take ``board`` onto itself (after
    a translation), each with the cell mapping it induces."""
    target = lattice.normalize(board)
    shift = lattice.offset(board)
    found = []
    for k in range(len(lattice.maps)):
        image = [lattice.transform(x, k) for x in board]
        if lattice.normalize(image) != target:
            continue
        move = tuple(a - b for a, b in zip(lattice.offset(image), shift))
        found.append(
            (
                k,
                {
                    x: tuple(a - m for a, m in zip(y, move))
                    for x, y in zip(board, image)
                },
            )
        )
    return found


def piece_map(
    lattice: Lattice,
    k: int,
    shapes: dict[str, frozenset],
    copies: dict[str, int],
) -> dict[str, str] | None:
    """How map ``k`` renames the pieces (``shapes``: each piece's set of
    orientations), or None if it does not map the set of pieces (with
    their orientations and counts) onto itself."""
    mapping = {}
    for name, orients in shapes.items():
        image = frozenset(
            lattice.normalize(lattice.transform(x, k) for x in o)
            for o in orients
        )
        if image == orients:
            mapping[name] = name
            continue
        twins = [q for q, o in shapes.items() if o == image]
        if len(twins) != 1 or copies[twins[0]] != copies[name]:
            return None
        mapping[name] = twins[0]
    if len(set(mapping.values())) != len(mapping):
        return None
    return mapping


def cell_namer(board: frozenset, letters: str) -> Callable[[Cell], str]:
    """Cell names: one character of ``DIGITS`` per coordinate, or, when a
    coordinate is too large for that, each coordinate after its letter
    (``letters``, e.g. ``"rc"``: ``r12c70``)."""
    if all(
        min(x[i] for x in board) >= 0
        and max(x[i] for x in board) < len(DIGITS)
        for i in range(len(letters))
    ):
        return lambda x: "".join(DIGITS[a] for a in x)
    return lambda x: "".join(f"{ch}{a}" for ch, a in zip(letters, x))


def copies_from(copies, names) -> dict[str, int]:
    """How many times each piece is used, from an int or a mapping."""
    if isinstance(copies, int) and not isinstance(copies, bool):
        counts = dict.fromkeys(names, copies)
    elif isinstance(copies, Mapping):
        counts = dict.fromkeys(names, 1)
        for name, k in copies.items():
            if name not in counts:
                raise ValueError(f"copies: no piece named {shorten(name)}")
            counts[name] = k
    else:
        raise TypeError(
            f"copies must be an int or a mapping from piece "
            f"names to ints, not {type(copies).__name__}"
        )
    for name, k in counts.items():
        if not isinstance(k, int) or isinstance(k, bool) or k < 1:
            raise ValueError(
                f"piece {shorten(name)}: the number of copies must be "
                f"a positive integer, got {shorten(k)}"
            )
    return counts


def polygon(lattice: Lattice, cell: Cell) -> list[tuple[float, float]]:
    """The corners of a cell of a plane lattice, in units of its side,
    x to the right and y downwards."""
    h = math.sqrt(3) / 2
    if lattice.name == "square":
        r, c = cell
        return [(c, r), (c + 1, r), (c + 1, r + 1), (c, r + 1)]
    if lattice.name == "hexagonal":
        q, r = cell
        x, y = q + r / 2, r * h
        radius = 1 / math.sqrt(3)
        return [
            (
                x + radius * math.cos(math.radians(30 + 60 * k)),
                y + radius * math.sin(math.radians(30 + 60 * k)),
            )
            for k in range(6)
        ]
    if lattice.name == "triangular":
        i, j = cell[0] // 3, cell[1] // 3
        if cell[0] % 3 == 1:
            points = [(i, j), (i + 1, j), (i, j + 1)]
        else:
            points = [(i + 1, j), (i + 1, j + 1), (i, j + 1)]
        return [(a + b / 2, b * h) for a, b in points]
    raise ValueError(f"no plane drawing for the {lattice.name} lattice")


class Packing:
    """Pieces to pack into a board of a lattice, as an exact-cover problem.

    Subclasses (``Polyomino``, ``Polycube``, ``Polyiamond``, ``Polyhex``)
    parse their boards and pieces and call ``_setup``.  ``problem`` is the
    ``ExactCover`` with every placement; ``solutions`` and ``count`` work
    up to symmetry by default (see the module doc).
    """

    lattice: Lattice
    #: coordinate letters for long cell names (see ``cell_namer``)
    axes = "rc"

    def _setup(
        self,
        board: frozenset,
        shapes: dict[str, Shape],
        one_sided: bool,
        copies: dict[str, int],
    ):
        self.shapes = shapes
        self.one_sided = one_sided
        self.copies = copies
        self.board = board
        self.orientations = {
            name: self.lattice.orientations(shape, one_sided)
            for name, shape in shapes.items()
        }
        self._check_areas(len(board))
        self._cell_name = self._namer()
        self._piece_items = self._name_piece_items()
        self.placements: list[Placement] = self._find_placements()
        self.symmetries: list[Symmetry] = self._find_symmetries()
        self.stats = Stats()
        # problem -> (placement of each option, copy of each option)
        self._tables: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        self.problem = self._build(range(len(self.placements)))

    # -- construction -------------------------------------------------
    def _namer(self) -> Callable[[Cell], str]:
        return cell_namer(self.board, self.axes)

    def _check_areas(self, board_area: int):
        area = sum(
            len(shape) * self.copies[name]
            for name, shape in self.shapes.items()
        )
        if area != board_area:
            raise ValueError(
                f"the pieces have {area} cells but the board "
                f"has {board_area}; they must be equal"
            )

    def _name_piece_items(self) -> dict[str, list[str]]:
        items = {}
        for name, k in self.copies.items():
            items[name] = (
                [name] if k == 1 else [f"{name}.{i}" for i in range(1, k + 1)]
            )
        cells = {self._cell_name(x) for x in self.board}
        for name, names in items.items():
            for item in names:
                if item in cells or any(ch.isspace() for ch in item):
                    raise ValueError(
                        f"piece name {shorten(name)} clashes with a "
                        f"cell name or has a blank"
                    )
        return items

    def _find_placements(self) -> list[Placement]:
        board = self.board
        translates = self.lattice.translates
        placements = []
        cells_in_order = sorted(board)
        for name, orients in self.orientations.items():
            for shape in orients:
                anchor = shape[0]
                for x in cells_in_order:
                    if not translates(anchor, x):
                        continue
                    move = tuple(a - b for a, b in zip(x, anchor))
                    cells = tuple(
                        tuple(a + m for a, m in zip(y, move)) for y in shape
                    )
                    if all(y in board for y in cells):
                        placements.append((name, cells))
        return placements

    def _find_symmetries(self) -> list[Symmetry]:
        orient_sets = {
            name: frozenset(o) for name, o in self.orientations.items()
        }
        found = []
        for k, cell_map in board_maps(self.lattice, self.board):
            names = piece_map(self.lattice, k, orient_sets, self.copies)
            if names is not None:
                found.append(Symmetry(k, cell_map, names))
        return found

    def _build(self, kept: Iterable[int]) -> ExactCover:
        """The problem with only the placements numbered in ``kept``,
        recording the placement and copy of each of its options."""
        items = [i for name in self.shapes for i in self._piece_items[name]]
        items += [self._cell_name(x) for x in sorted(self.board)]
        problem = ExactCover(items)
        option_placement, option_copy = [], []
        kept = sorted(kept)
        name_of = self._cell_name
        for copy in range(max(self.copies.values())):
            for index in kept:
                name, cells = self.placements[index]
                if copy >= self.copies[name]:
                    continue
                problem.add_option(
                    [self._piece_items[name][copy]]
                    + [name_of(x) for x in sorted(cells)]
                )
                option_placement.append(index)
                option_copy.append(copy)
        self._tables[problem] = (option_placement, option_copy)
        return problem

    # -- decoding -----------------------------------------------------
    def decode(
        self, solution: Sequence[int], problem: ExactCover | None = None
    ) -> Tiling | None:
        """The tiling of a solution (option numbers of ``problem``,
        default ``self.problem``); None for a relabelling of copies that
        is not the canonical one (copy i+1 placed after copy i)."""
        if problem is None:
            problem = self.problem
        placement_of, copy_of = self._tables[problem]
        last: dict[str, int] = {}
        tiling = []
        for number in sorted(solution, key=lambda o: copy_of[o]):
            index = placement_of[number]
            name = self.placements[index][0]
            if last.get(name, -1) > index:
                return None
            last[name] = index
            tiling.append(self.placements[index])
        return tuple(sorted(tiling))

    def is_tiling(self, tiling: Iterable[Placement]) -> bool:
        """Whether ``tiling`` covers the board exactly once with the
        pieces, each used its number of times in one of its
        orientations (an independent check of a decoded solution)."""
        tiling = list(tiling)
        cells = [x for _, placed in tiling for x in placed]
        if sorted(cells) != sorted(self.board):
            return False
        used: dict[str, int] = {}
        for name, placed in tiling:
            if (
                name not in self.orientations
                or self.lattice.normalize(placed)
                not in self.orientations[name]
            ):
                return False
            used[name] = used.get(name, 0) + 1
        return used == self.copies

    # -- pictures -------------------------------------------------------
    def svg(
        self,
        tiling: Iterable[Placement],
        *,
        scale: float = 30,
        labels: bool = True,
        title: str | None = None,
    ) -> str:
        """A tiling as SVG text: coloured pieces with dark borders between
        pieces (not between cells), board cells left uncovered pale
        (see ``dlx.draw.tiling_svg``)."""
        names = sorted(self.shapes)
        colours = {name: colour(i) for i, name in enumerate(names)}
        return tiling_svg(
            sorted(tiling),
            self._polygon,
            self.board,
            scale=scale,
            labels=labels,
            colours=colours,
            part=self._part,
            title=title,
        )

    _part: Callable[[Cell], Hashable] | None = None  # see dlx.draw.tiling_svg

    def _polygon(self, cell: Cell) -> list[tuple[float, float]]:
        """The corners of a cell in the plane, in grid units."""
        return polygon(self.lattice, cell)

    # -- counting up to symmetry ---------------------------------------
    def _labelings(self) -> int:
        return math.prod(math.factorial(k) for k in self.copies.values())

    def distinct_problem(self) -> ExactCover:
        """One ``ExactCover`` whose solutions are the tilings up to
        symmetry, one each: ``problem`` with the chosen piece kept at one
        placement per orbit (step 2 of the module doc).  Raises
        ``ValueError`` when step 3 or 4 is needed (no such problem), or
        when a piece is used several times (each tiling would appear once
        per numbering of the copies)."""
        if len(self.symmetries) == 1 and self._labelings() == 1:
            return self.problem
        plan = self._breaking_plan()
        if plan is None or plan[2] or self._labelings() != 1:
            raise ValueError(
                "no single exact-cover problem has exactly one "
                "solution per tiling up to symmetry here; "
                "count with count() instead"
            )
        return self._build(plan[1] + self._others(plan[0]))

    def _breaking_plan(self):
        """(piece, trivial reps, [(rep, stabilizer)]) for step 1 of the
        module doc, or None when no piece qualifies."""
        best = None
        for name in self.shapes:
            if self.copies[name] != 1 or any(
                g.piece_map[name] != name for g in self.symmetries
            ):
                continue
            plan = self._orbit_reps(name)
            kept = len(plan[0]) + len(plan[1])
            # The kept fraction of the piece's placements is about the
            # fraction of the tilings the searches visit; then fewer
            # Burnside listings, then fewer options (Knuth's X on 6x10).
            total = sum(p[0] == name for p in self.placements)
            # (A piece with no placement at all: no tilings, nothing to
            # search.)
            key = (
                Fraction(kept, total) if total else Fraction(0),
                len(plan[1]),
                kept,
            )
            if best is None or key < best[0]:
                best = (key, name, plan)
        if best is None:
            return None
        return (best[1],) + best[2]

    def _orbit_reps(self, name: str):
        index_of = {
            p: i for i, p in enumerate(self.placements) if p[0] == name
        }
        trivial, symmetric = [], []
        seen = set()
        for placement, index in index_of.items():
            if placement in seen:
                continue
            images = [g.placement(placement) for g in self.symmetries]
            seen.update(images)
            stabilizer = [
                g for g, x in zip(self.symmetries, images) if x == placement
            ]
            if len(stabilizer) == 1:
                trivial.append(index)
            else:
                symmetric.append((index, stabilizer))
        return trivial, symmetric

    def _run_count(
        self, problem: ExactCover, orbit: int, threads: int = 1
    ) -> tuple[int, int]:
        """Count the tilings of ``problem``, each standing for ``orbit``
        tilings in all; adds them to ``self._partial`` (also when
        interrupted) and returns it."""
        found = 0
        try:
            found = problem.count(
                threads=threads, **getattr(self, "_count_options", {})
            )
        except Interrupted as stop:
            self._add_stats(stop.stats)
            found = stop.count
            raise
        else:
            self._add_stats(problem.stats)
        finally:
            found //= self._labelings()
            self._partial[0] += found
            self._partial[1] += found * orbit
        return self._partial[0], self._partial[1]

    def _add_stats(self, stats: Stats):
        total = self.stats
        total.nodes += stats.nodes
        total.updates += stats.updates
        total.seconds += stats.seconds
        total.complete = total.complete and stats.complete

    def _tilings(self, problem: ExactCover, limit=None) -> Iterator[Tiling]:
        """The tilings of ``problem``, each once (copies unlabelled)."""
        taken = 0
        solutions = problem.solutions()
        try:
            for solution in solutions:
                tiling = self.decode(solution, problem)
                if tiling is None:
                    continue
                yield tiling
                taken += 1
                if limit is not None and taken >= limit:
                    return
        finally:
            solutions.close()  # type: ignore[attr-defined]  # a generator
            self._add_stats(problem.stats)

    def count(
        self,
        distinct: bool = True,
        *,
        exhaustive: bool = False,
        threads: int = 1,
        **count_options,
    ) -> int:
        """How many tilings: up to symmetry (``distinct``) or all.

        All tilings are counted from the orbits found for the distinct
        count (orbit sizes by the orbit-stabilizer theorem), which is
        several times faster than searching them all; ``exhaustive=True``
        searches ``problem`` instead, with no symmetry breaking at all.
        ``threads`` and ``count_options`` (``jobs``, ``executor``,
        ``checkpoint``, ``progress``; see ``dlx.jobs``) are passed to
        ``ExactCover.count`` for the searches that count without listing
        (0 threads: one per core).
        """
        self.stats = Stats()
        # On Ctrl-C, Interrupted carries the tilings counted so far (a
        # lower bound: a Burnside step that did not end adds nothing).
        self._partial = [0, 0]  # (up to symmetry, all) counted so far
        self._count_options = count_options
        plan = None
        if len(self.symmetries) > 1 and not exhaustive:
            plan = self._breaking_plan()
        try:
            if plan is not None:
                found = self._count_with_plan(plan, threads)[
                    0 if distinct else 1
                ]
            elif distinct and len(self.symmetries) > 1:
                found = self._burnside(self.problem, self.symmetries)[0]
            else:
                found = self._run_count(self.problem, 1, threads)[1]
        except KeyboardInterrupt:  # Interrupted, or Ctrl-C between searches
            self.stats.complete = False
            self.stats.solutions = self._partial[0 if distinct else 1]
            raise Interrupted(self.stats.solutions, self.stats) from None
        self.stats.solutions = found
        return found

    def _count_with_plan(self, plan, threads: int = 1) -> tuple[int, int]:
        """(tilings up to symmetry, all tilings) by steps 2 and 3."""
        name, trivial, symmetric = plan
        others = self._others(name)
        group = len(self.symmetries)
        if trivial:
            self._run_count(self._build(trivial + others), group, threads)
        for index, stabilizer in symmetric:
            found, tilings = self._burnside(
                self._build([index] + others), stabilizer
            )
            self._partial[0] += found
            # Each of the group/|stabilizer| placements in the orbit of
            # this one has as many tilings.
            self._partial[1] += tilings * (group // len(stabilizer))
        return self._partial[0], self._partial[1]

    def _others(self, name: str) -> list[int]:
        return [i for i, p in enumerate(self.placements) if p[0] != name]

    def _burnside(
        self, problem: ExactCover, group: list[Symmetry]
    ) -> tuple[int, int]:
        """(orbits of ``group`` on the tilings of ``problem``, which it
        must preserve; the number of those tilings).  Orbits are the sum
        over tilings of |elements fixing it| / |group|."""
        fixed = tilings = 0
        for tiling in self._tilings(problem):
            tilings += 1
            fixed += sum(g.tiling(tiling) == tiling for g in group)
        orbits, rest = divmod(fixed, len(group))
        assert rest == 0, "Burnside's count is not a whole number"
        return orbits, tilings

    def solutions(
        self, distinct: bool = True, limit: int | None = None
    ) -> Iterator[Tiling]:
        """Stream the tilings: one per symmetry class (``distinct``) or
        all of them; at most ``limit``."""
        self.stats = stats = Stats()
        if not distinct or len(self.symmetries) == 1:
            tilings = self._tilings(self.problem, limit)
        else:
            tilings = self._distinct_tilings()
        for tiling in tilings:
            stats.solutions += 1  # the tilings yielded, not the covers
            yield tiling
            if limit is not None and stats.solutions >= limit:
                return

    def _distinct_tilings(self) -> Iterator[Tiling]:
        plan = self._breaking_plan()
        if plan is None:
            yield from self._least_of_orbit(self.problem, self.symmetries)
            return
        name, trivial, symmetric = plan
        others = self._others(name)
        if trivial:
            yield from self._tilings(self._build(trivial + others))
        for index, stabilizer in symmetric:
            problem = self._build([index] + others)
            yield from self._least_of_orbit(problem, stabilizer)

    def _least_of_orbit(self, problem, group) -> Iterator[Tiling]:
        for tiling in self._tilings(problem):
            if all(tiling <= g.tiling(tiling) for g in group):
                yield tiling
