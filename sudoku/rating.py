"""Rating puzzles by the engine's own effort.

The effort is made independent of luck: the puzzle is searched
to the end (its solution found and proved unique) on ``samples`` random
relabellings of itself (digits renamed; for classic rules also bands,
stacks, rows within bands, columns within stacks shuffled and the grid
transposed; under a variant, rows or columns reversed and the grid
transposed where that keeps its rules, a jigsaw map turned with it), each
of which presents the items in another order.  The score
is ``log2(1 + extra)``, where ``extra`` is the mean number of search nodes
beyond one per empty cell: 0 when every step is forced, about 9 for
Norvig's top95, about 12.5 for the forum's hardest list.  Levels:

=========  ===========
level      score
=========  ===========
easy       below 2
medium     2 to 5
hard       5 to 8
expert     8 to 11
extreme    11 and more
=========  ===========
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from dlx.shorten import shorten

from .budget import UNLIMITED, Budget
from .constants import LEVELS, SAMPLES
from .encode import Variant, as_variant, clashes
from .grid import Grid, InvalidPuzzle, cells_conflict, parse
from .solver import Symmetry, givens_conflict, parse_batch, search_stack

# Lower score bound of each level after the first.
LEVEL_BOUNDS = (2.0, 5.0, 8.0, 11.0)
RATING_SEED = 13  # the relabellings are fixed: a rating is reproducible


class UnknownLevel(ValueError):
    """A difficulty level that does not exist."""


# -- rating -------------------------------------------------------------------
@dataclass(frozen=True)
class Rating:
    """A puzzle's difficulty: ``score`` (see the module docstring),
    ``level`` (one of ``LEVELS``) and ``nodes`` (mean search nodes over
    the relabellings)."""

    score: float
    level: str
    nodes: float

    def __str__(self) -> str:
        return f"{self.level} {self.score:.2f}"


def level_of(score: float) -> str:
    """The level name of a score."""
    return LEVELS[int(np.searchsorted(LEVEL_BOUNDS, score, side="right"))]


def check_level(level: Any) -> str:
    """``level`` as a level name, or UnknownLevel."""
    if not isinstance(level, str):
        raise TypeError(
            f"difficulty must be a level name, got {type(level).__name__}"
        )
    key = level.strip().lower()
    if key not in LEVELS:
        raise UnknownLevel(
            f"unknown difficulty {shorten(level)}; choose one of "
            f"{', '.join(LEVELS)}"
        )
    return key


def rate_cells(
    cells: np.ndarray,
    box: tuple[int, int],
    variant: Variant | None = None,
    *,
    samples: int = SAMPLES,
    threads: int = 1,
    budget: Budget = UNLIMITED,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rate a ``(B, n, n)`` stack of clash-free puzzles.

    Returns ``(scores, nodes, counts)``: the score and mean nodes of each
    puzzle, and its solution count (at most 2; only a puzzle with count 1
    has a meaningful score).  Every puzzle sees the same relabellings, so a
    puzzle's rating does not depend on the rest of the batch.  ``budget``
    (``sudoku.budget``) is looked at before each search.
    """
    batch, n, _ = cells.shape
    rng = np.random.default_rng(RATING_SEED)
    empty = (cells.reshape(batch, -1) == 0).sum(axis=1)
    total = np.zeros(batch, np.float64)
    counts = np.zeros(batch, np.int64)
    live = np.arange(batch)
    for k in range(samples):
        moved = variant
        if variant is None:
            symmetry = Symmetry.random(rng, box)
        else:
            symmetry, moved = variant_symmetry(rng, box, variant)
        found, _, work = search_stack(
            symmetry.apply(cells[live]),
            box,
            2,
            threads=threads,
            variant=moved,
            budget=budget,
            algorithm="links",
        )
        if k == 0:
            counts = found
            # Not one wasted node: every step was forced (a single), and
            # that holds for any relabelling, since placing singles never
            # removes another single.  The later samples would repeat it.
            total += work
            forced = (work <= empty + 1) | (found != 1)
            total[forced] *= samples
            live = np.flatnonzero(~forced)
        else:
            total[live] += work
    nodes = total / samples
    extra = np.maximum(nodes - empty - 1, 0)
    return np.log2(1 + extra), nodes, counts


# -- the relabellings of a variant ----------------------------------------------
# Renaming digits alone leaves the search of a unique puzzle (searched to
# its end) with the same number of nodes more often than not: every x
# puzzle got one rating whatever ``samples``.  So a variant's puzzle is
# also turned: rows reversed, columns reversed and (square boxes) the grid
# transposed, each of those maps that keeps the variant's rules (its units
# and cliques; a jigsaw map is turned with the grid).
def variant_symmetry(
    rng: np.random.Generator, box: tuple[int, int], variant: Variant
) -> tuple[Symmetry, Variant]:
    """A random symmetry that keeps ``variant``'s rules, with the variant
    as it applies to the moved grid (its region map moved too)."""
    maps = _maps_keeping(box, variant)
    flip_rows, flip_cols, transpose, moved = maps[int(rng.integers(len(maps)))]
    n = box[0] * box[1]
    order = np.arange(n)
    digits = np.concatenate(([0], rng.permutation(n) + 1))
    return Symmetry(
        order[::-1] if flip_rows else order,
        order[::-1] if flip_cols else order,
        digits,
        transpose,
    ), moved


@functools.lru_cache(maxsize=64)
def _maps_keeping(box: tuple[int, int], variant: Variant) -> tuple:
    """``(flip rows, flip columns, transpose, moved variant)`` for every
    such map of the grid that keeps the rules of ``variant`` (the
    identity always does)."""
    n = box[0] * box[1]
    order = np.arange(n)
    identity = np.arange(n + 1)
    before = _rules_of(box, variant)
    found = []
    for flip_rows, flip_cols, transpose in itertools.product(
        (False, True),
        (False, True),
        (False, True) if box[0] == box[1] else (False,),
    ):
        shape = Symmetry(
            order[::-1] if flip_rows else order,
            order[::-1] if flip_cols else order,
            identity,
            transpose,
        )
        moved = variant
        if variant.regions is not None:  # the region map turns too
            labels = np.asarray(variant.regions).reshape(1, n, n) + 1
            moved = Variant(variant, shape.apply(labels)[0] - 1)
        place = np.arange(n * n).reshape(n, n)[shape.rows][:, shape.cols]
        if transpose:
            place = place.T  # place[i, j]: the cell moved to (i, j)
        where = np.argsort(place.ravel())  # where each cell goes
        turned = {
            kind: {frozenset(where[list(cells)].tolist()) for cells in sets}
            for kind, sets in before.items()
        }
        if turned == _rules_of(box, moved):
            found.append((flip_rows, flip_cols, transpose, moved))
    return tuple(found)


def _rules_of(box: tuple[int, int], variant: Variant) -> dict:
    """The variant's units and cliques as sets of cells."""
    _, units = variant.units(box)
    _, cliques = variant.cliques(box)
    return {
        "units": {frozenset(u.tolist()) for u in units},
        "cliques": {frozenset(q[q >= 0].tolist()) for q in cliques},
    }


def rate(
    puzzle: Any,
    box: tuple[int, int] | None = None,
    *,
    variant: Any = None,
    samples: int = SAMPLES,
    time_limit: float | None = None,
    stop: Any = None,
) -> Rating:
    """How hard ``puzzle`` is for the engine (see the module docstring).

    Raises ``InvalidPuzzle`` for bad input or clashing givens and
    ``ValueError`` when the puzzle does not have exactly one solution.
    ``time_limit`` and ``stop`` end it early with ``sudoku.Stopped`` (see
    ``sudoku.budget``).

    Args:
        puzzle: Any input ``sudoku.parse`` reads.
        box: The box shape (default: inferred from the size).
        variant: Extra rules, as ``sudoku.solve`` takes them.
        samples: How many relabellings the rating averages over.
        time_limit: The most seconds.
        stop: Anything with ``is_set()`` that ends the work when set.

    Returns:
        The puzzle's score, level and mean search nodes.

    Raises:
        InvalidPuzzle: Input that is not a grid, or clashing givens.
        ValueError: A puzzle without exactly one solution.
        sudoku.Stopped: ``time_limit`` ran out or ``stop`` was set.
    """
    budget = Budget("rate", time_limit, stop)
    variant = as_variant(variant)
    samples = whole_positive("samples", samples)
    grid = parse(puzzle, box)
    message = givens_conflict(grid, variant)
    if message:
        raise InvalidPuzzle(message)
    scores, nodes, counts = rate_cells(
        grid.cells[None], grid.box, variant, samples=samples, budget=budget
    )
    if counts[0] != 1:
        raise ValueError(
            "the puzzle has no solution; only puzzles with "
            "exactly one solution are rated"
            if counts[0] == 0
            else "the puzzle has more than one solution; only "
            "puzzles with exactly one solution are rated"
        )
    return Rating(float(scores[0]), level_of(scores[0]), float(nodes[0]))


def whole_positive(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(
            f"{name} must be an integer, got {type(value).__name__}"
        )
    if value < 1:
        raise ValueError(f"{name} must be at least 1, got {value}")
    return int(value)


def rate_many(
    puzzles: Iterable[Any],
    box: tuple[int, int] | None = None,
    *,
    variant: Any = None,
    samples: int = SAMPLES,
    threads: int = 1,
    time_limit: float | None = None,
    stop: Any = None,
) -> list[Rating | str]:
    """Rate many puzzles at once: a ``Rating`` per puzzle, or a string
    saying why it has none (``invalid: ...``, ``multiple``,
    ``nosolution``).  ``time_limit`` and ``stop``: as for ``rate``.

    Args:
        puzzles: Puzzles as ``sudoku.parse`` reads them.
        box: The box shape of every puzzle (default: inferred).
        variant: Extra rules, as ``sudoku.solve`` takes them.
        samples: How many relabellings each rating averages over.
        threads: How many threads share the searches.
        time_limit: The most seconds for the whole batch.
        stop: Anything with ``is_set()`` that ends the work when set.

    Returns:
        A ``Rating`` per puzzle, or why it has none.

    Raises:
        sudoku.Stopped: ``time_limit`` ran out or ``stop`` was set.
    """
    budget = Budget("rate_many", time_limit, stop)
    variant = as_variant(variant)
    samples = whole_positive("samples", samples)
    if isinstance(puzzles, (str, bytes)):
        raise TypeError("rate_many takes a list of puzzles, not one string")
    puzzles = list(puzzles)
    grids, groups = parse_batch(puzzles, box)
    out: list[Rating | str | None] = [
        f"invalid: {g}" if isinstance(g, str) else None for g in grids
    ]
    for shape, (index, stack) in groups.items():
        if variant is not None and variant.size not in (
            None,
            shape[0] * shape[1],
        ):
            for b in index.tolist():
                out[b] = (
                    f"invalid: the region map is {variant.size}x"
                    f"{variant.size} but the puzzle is not"
                )
            continue
        bad = clashing_givens(stack, shape, variant)
        for k in np.flatnonzero(bad).tolist():
            grid = Grid.trusted(stack[k].astype(np.int64), shape)
            out[index[k]] = f"invalid: {givens_conflict(grid, variant)}"
        index, stack = index[~bad], stack[~bad]
        scores, nodes, counts = rate_cells(
            stack,
            shape,
            variant,
            samples=samples,
            threads=threads,
            budget=budget,
        )
        levels = [level_of(x) for x in scores.tolist()]
        for k, b in enumerate(index.tolist()):
            if counts[k] == 1:
                out[b] = Rating(float(scores[k]), levels[k], float(nodes[k]))
            else:
                out[b] = "nosolution" if counts[k] == 0 else "multiple"
    return out  # type: ignore[return-value]


def clashing_givens(
    cells: np.ndarray, box: tuple[int, int], variant: Variant | None
) -> np.ndarray:
    """True where the givens of a ``(B, n, n)`` stack clash."""
    if variant is None:
        return cells_conflict(cells, box)
    return clashes(cells, box, variant)
