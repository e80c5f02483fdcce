"""Making puzzles: random full grids from the engine, then givens removed
while the puzzle keeps one solution.

1. A random full grid: a few random givens (the first row a random
   permutation of the digits, plus a handful of random cells) are completed
   by the engine in one batch call, on a randomly relabelled and shuffled
   equivalent grid, and the result is mapped back.  Seeds with no
   completion are dropped and drawn again.  So the grids come from the
   search itself, not from one fixed grid reshuffled.
2. Givens are removed in a random order, one cell (or one symmetric pair)
   at a time, keeping a removal only when the puzzle still has exactly one
   solution.  One pass makes the puzzle *minimal*: a given that could not
   go at some point cannot go later either (fewer givens never make a
   puzzle "more unique").  With a symmetry, cells go in symmetric groups,
   and the puzzle is minimal among puzzles with that symmetry.
   Many puzzles are made in lock step: at each step every puzzle tries one
   removal, and all the uniqueness checks of the step are one engine call
   (``solve_batch``), not one Python call per check.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from dlx.shorten import shorten

from .budget import UNLIMITED, Budget
from .constants import MAX_SIZE, MIN_SIZE, SYMMETRIES
from .encode import Variant, as_variant
from .grid import Grid, check_box, default_box
from .rating import (
    check_level,
    clashing_givens,
    level_of,
    rate_cells,
    whole_positive,
)
from .solver import Symmetry, search_stack

# SYMMETRIES and the sizes it makes (MIN_SIZE to MAX_SIZE) are
# sudoku.constants': the command line's flags read them without this module.
# Candidates made per wanted puzzle and per round when a level is asked for,
# and the most rounds before giving up.
LEVEL_BATCH = 8
LEVEL_ROUNDS = 200
# A random seed grid that takes more search nodes than this times n to
# complete is dropped (it may have no completion) and another drawn.
SEED_NODES = 2000
SEED_ROUNDS = 100
# Near-minimal 25x25 puzzles can take minutes to decide; above 16x16 each
# uniqueness check gets this many nodes, and an undecided given stays.
BIG_CHECK_NODES = 20_000


class GenerationFailed(RuntimeError):
    """No puzzle of the wanted level turned up within the budget."""


# -- full grids ---------------------------------------------------------------
def full_grids(
    count: int,
    box: tuple[int, int],
    rng: np.random.Generator,
    variant: Variant | None = None,
    threads: int = 1,
    budget: Budget = UNLIMITED,
) -> np.ndarray:
    """``count`` random complete grids, shape ``(count, n, n)``."""
    rows, cols = box
    n = rows * cols
    found: list[np.ndarray] = []
    have = 0
    extra = max(1, n // 2)  # random cells (beyond the first row: classic)
    for attempt in range(SEED_ROUNDS):
        want = count - have
        if want <= 0:
            break
        size = (
            max(8, want + want // 2) if variant is None else max(32, 4 * want)
        )
        seeds = np.zeros((size, n, n), np.int64)
        if variant is None:
            seeds[:, 0, :] = np.argsort(rng.random((size, n)), axis=1) + 1
        cells = rng.integers(n if variant is None else 0, n * n, (size, extra))
        digits = rng.integers(1, n + 1, (size, extra))
        flat = seeds.reshape(size, n * n)
        np.put_along_axis(flat, cells, digits, axis=1)
        good = ~clashing_givens(seeds, box, variant)
        seeds = seeds[good]
        symmetry = (
            Symmetry.random(rng, box)
            if variant is None
            else Symmetry.relabel(rng, n)
        )
        counts, solved, _ = search_stack(
            symmetry.apply(seeds),
            box,
            1,
            max_nodes=SEED_NODES * n,
            threads=threads,
            variant=variant,
            budget=budget,
        )
        solved = symmetry.undo(solved)[counts == 1]
        found.append(solved[:want])
        have += len(found[-1])
        if attempt == 3 and have == 0:
            _check_some_grid(box, variant, budget)
    if have < count:
        name = "" if variant is None else f" {variant.name}"
        raise GenerationFailed(
            f"could not complete {count} random{name} grids within "
            f"{SEED_ROUNDS} rounds of {SEED_NODES * n} search nodes a seed "
            f"(some rule sets leave very few grids)"
        )
    return np.concatenate(found)


def _check_budget(box: tuple[int, int]) -> int | None:
    """The node budget of one uniqueness check while minimising."""
    return BIG_CHECK_NODES if box[0] * box[1] > 16 else None


def _check_some_grid(
    box: tuple[int, int], variant: Variant | None, budget: Budget = UNLIMITED
) -> None:
    """Raise when no grid at all keeps the rules (e.g. anti-king 4x4)."""
    n = box[0] * box[1]
    counts, _, _ = search_stack(
        np.zeros((1, n, n), np.int64),
        box,
        1,
        max_nodes=SEED_NODES * n * 100,
        variant=variant,
        budget=budget,
    )
    if counts[0] == 0:
        name = variant.name if variant is not None else "classic"
        raise GenerationFailed(f"no {n}x{n} grid keeps the {name} rules")


# -- removing givens ----------------------------------------------------------
def orbits(n: int, symmetry: str) -> list[np.ndarray]:
    """The groups of cells removed together: single cells, or cells with
    their image under a half turn (``rotational``) or a left-right mirror
    (``mirror``)."""
    cells = np.arange(n * n)
    r, c = np.divmod(cells, n)
    if symmetry == "rotational":
        image = (n - 1 - r) * n + (n - 1 - c)
    elif symmetry == "mirror":
        image = r * n + (n - 1 - c)
    else:
        return [np.array([k]) for k in cells.tolist()]
    return [np.unique([k, image[k]]) for k in cells.tolist() if k <= image[k]]


def minimise(
    solutions: np.ndarray,
    box: tuple[int, int],
    rng: np.random.Generator,
    symmetry: str = "none",
    variant: Variant | None = None,
    threads: int = 1,
    check_nodes: int | None = None,
    budget: Budget = UNLIMITED,
) -> np.ndarray:
    """Remove givens from full grids while each keeps one solution, until
    none can go (see the module docstring); ``(B, n, n)`` in and out.

    Each puzzle walks its groups of cells in its own random order.  While
    it has many givens it tries the next few groups at once (``_stride``):
    if the puzzle stays unique without all of them, taking them one by one
    would have kept every removal too (a puzzle with more givens has no
    more solutions), so the result is exactly that of the one-by-one pass
    with fewer checks; if not, those groups are tried one at a time.
    ``check_nodes`` bounds each check: a removal that cannot be decided
    within it is not made (the puzzle stays unique, but may then not be
    minimal).  ``generate`` uses it only above 16x16 (``BIG_CHECK_NODES``).
    """
    batch, n, _ = solutions.shape
    groups = orbits(n, symmetry)
    width = max(len(g) for g in groups)
    padded = np.array(
        [np.pad(g, (0, width - len(g)), mode="edge") for g in groups]
    )
    total = len(groups)
    order = np.argsort(rng.random((batch, total)), axis=1)
    puzzles = solutions.reshape(batch, n * n).copy()
    pos = np.zeros(batch, np.int64)  # next group in order
    careful = np.zeros(batch, np.int64)  # one at a time before this
    place = np.arange(total)
    while True:
        live = np.flatnonzero(pos < total)
        if not len(live):
            return puzzles.reshape(batch, n, n)
        filled = (puzzles[live] != 0).sum(axis=1)
        stride = np.where(pos[live] < careful[live], 1, _stride(filled, n * n))
        stride = np.minimum(stride, total - pos[live])
        take = (place >= pos[live, None]) & (
            place < (pos[live] + stride)[:, None]
        )
        trial = puzzles[live]
        which, slot = np.nonzero(take)
        cells = padded[order[live[which], slot]]
        trial[np.repeat(which, width), cells.ravel()] = 0
        counts, _, _ = search_stack(
            trial.reshape(len(live), n, n),
            box,
            2,
            max_nodes=check_nodes,
            threads=threads,
            variant=variant,
            budget=budget,
        )
        keep = counts == 1
        puzzles[live[keep]] = trial[keep]
        moved = keep | (stride == 1)
        pos[live[moved]] += stride[moved]
        failed = live[~moved]
        careful[failed] = pos[failed] + stride[~moved]


def _stride(filled: np.ndarray, cells: int) -> np.ndarray:
    """How many groups to try removing at once, by the share of cells
    still filled (removals almost never fail while most cells are full)."""
    share = filled / cells
    return np.select([share > 0.75, share > 0.55, share > 0.42], [8, 4, 2], 1)


# -- the generator ------------------------------------------------------------
def generate_cells(
    count: int,
    box: tuple[int, int],
    *,
    difficulty: str | None = None,
    symmetry: str = "none",
    seed: Any = None,
    variant: Variant | None = None,
    threads: int = 1,
    stats: dict | None = None,
    time_limit: float | None = None,
    stop: Any = None,
) -> tuple[np.ndarray, np.ndarray]:
    """``count`` minimal unique puzzles and their solutions, as two
    ``(count, n, n)`` arrays.  ``stats`` (a dict) receives ``candidates``:
    how many puzzles were made to find them, and with a ``difficulty``
    ``hits``: how many of those had the level.  ``time_limit`` and
    ``stop``: see ``sudoku.budget`` (``Stopped``)."""
    budget = Budget("generate", time_limit, stop)
    rng = _rng(seed)
    budget.check()
    if difficulty is None:
        solutions = full_grids(count, box, rng, variant, threads, budget)
        puzzles = minimise(
            solutions,
            box,
            rng,
            symmetry,
            variant,
            threads,
            _check_budget(box),
            budget,
        )
        if stats is not None:
            stats["candidates"] = count
        return puzzles, solutions
    kept_p: list[np.ndarray] = []
    kept_s: list[np.ndarray] = []
    have = made = hits = 0
    for _ in range(LEVEL_ROUNDS):
        budget.check(have)
        size = max(LEVEL_BATCH, LEVEL_BATCH * (count - have))
        solutions = full_grids(size, box, rng, variant, threads, budget)
        puzzles = minimise(
            solutions,
            box,
            rng,
            symmetry,
            variant,
            threads,
            _check_budget(box),
            budget,
        )
        made += size
        scores, _, _ = rate_cells(
            puzzles, box, variant, threads=threads, budget=budget
        )
        hit = np.array(
            [level_of(s) == difficulty for s in scores.tolist()], bool
        )
        hits += int(hit.sum())
        kept_p.append(puzzles[hit][: count - have])
        kept_s.append(solutions[hit][: count - have])
        have += len(kept_p[-1])
        if have >= count:
            break
    if stats is not None:
        stats["candidates"] = made
        stats["hits"] = hits
    if have < count:
        raise GenerationFailed(
            f"only {have} of {count} {difficulty} puzzles among {made} "
            f"generated; try another level or seed"
        )
    return np.concatenate(kept_p), np.concatenate(kept_s)


def generate_many(
    count: int,
    size: int = 9,
    box: tuple[int, int] | None = None,
    *,
    difficulty: str | None = None,
    symmetry: str | None = None,
    seed: Any = None,
    variant: Any = None,
    threads: int = 1,
    time_limit: float | None = None,
    stop: Any = None,
) -> list[Grid]:
    """``count`` puzzles as ``generate`` makes them, made together (much
    faster per puzzle than ``count`` calls).

    Args:
        count: How many puzzles (an int >= 0).
        size: As ``generate`` takes it.
        box: As ``generate`` takes it.
        difficulty: As ``generate`` takes it.
        symmetry: As ``generate`` takes it.
        seed: As ``generate`` takes it.
        variant: As ``generate`` takes it.
        threads: How many threads share the searches.
        time_limit: The most seconds for the whole batch.
        stop: Anything with ``is_set()`` that ends the work when set.

    Returns:
        ``count`` minimal puzzles, each with exactly one solution.

    Raises:
        TypeError: An argument of the wrong type.
        ValueError: An argument out of range.
        UnknownLevel: An unknown ``difficulty``.
        InvalidVariant: An unknown variant.
        GenerationFailed: A puzzle of ``difficulty`` did not turn up.
        sudoku.Stopped: ``time_limit`` ran out or ``stop`` was set
            (``count`` says how many puzzles were done).
    """
    count = whole_positive("count", count) if count != 0 else 0
    box, symmetry, difficulty, variant = checked_arguments(
        size, box, symmetry, difficulty, variant
    )
    rng = _rng(seed)
    if count == 0:
        return []
    puzzles, _ = generate_cells(
        count,
        box,
        difficulty=difficulty,
        symmetry=symmetry,
        seed=rng,
        variant=variant,
        threads=threads,
        time_limit=time_limit,
        stop=stop,
    )
    return [Grid.trusted(p.astype(np.int64), box) for p in puzzles]


def generate(
    size: int = 9,
    box: tuple[int, int] | None = None,
    *,
    difficulty: str | None = None,
    symmetry: str | None = None,
    seed: Any = None,
    variant: Any = None,
    time_limit: float | None = None,
    stop: Any = None,
) -> Grid:
    """A random minimal puzzle with exactly one solution.

    ``size``: ``MIN_SIZE`` to ``MAX_SIZE``, 4 to 25 (the grid is ``size x
    size``; 25 is slow);
    ``box``: the box shape (default as for ``parse``); ``difficulty``: one
    of ``LEVELS`` (puzzles are made and rated until one has that level;
    ``GenerationFailed`` if none turns up); ``symmetry``: ``"none"``
    (default), ``"rotational"`` (half-turn) or ``"mirror"`` (left-right);
    ``seed``: a whole number >= 0 (or a sequence of them, or numpy's
    ``SeedSequence``/``Generator``), for a reproducible puzzle;
    ``variant``: extra rules, as in ``sudoku.solve``.  ``time_limit``
    (seconds) and ``stop`` (anything with ``is_set()``, e.g. a
    ``threading.Event``) end the work early with ``sudoku.Stopped``: they
    are looked at between its steps and bound each of its searches (see
    ``sudoku.budget``).

    Args:
        size: The grid's side, 4 to 25.
        box: The box shape ``(rows, cols)``, ``rows * cols == size``.
        difficulty: One of ``sudoku.LEVELS`` (None: any).
        symmetry: ``"none"``, ``"rotational"`` or ``"mirror"``.
        seed: A whole number >= 0, a sequence of them, or numpy's
            ``SeedSequence``/``Generator`` (None: unpredictable).
        variant: Extra rules, as ``sudoku.solve`` takes them.
        time_limit: The most seconds.
        stop: Anything with ``is_set()`` that ends the work when set.

    Returns:
        A minimal puzzle with exactly one solution.

    Raises:
        TypeError: An argument of the wrong type.
        ValueError: A size, box, symmetry or seed out of range.
        UnknownLevel: An unknown ``difficulty``.
        InvalidVariant: An unknown variant.
        GenerationFailed: No puzzle of ``difficulty`` turned up.
        sudoku.Stopped: ``time_limit`` ran out or ``stop`` was set.
    """
    return generate_many(
        1,
        size,
        box,
        difficulty=difficulty,
        symmetry=symmetry,
        seed=seed,
        variant=variant,
        time_limit=time_limit,
        stop=stop,
    )[0]


def checked_arguments(size, box, symmetry, difficulty, variant):
    """Validate ``generate``'s arguments."""
    if isinstance(size, bool) or not isinstance(size, (int, np.integer)):
        raise TypeError(f"size must be an integer, got {type(size).__name__}")
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise ValueError(
            f"size must be between {MIN_SIZE} and {MAX_SIZE}, got {size}"
        )
    box = default_box(int(size)) if box is None else check_box(box, int(size))
    symmetry = "none" if symmetry is None else symmetry
    if not isinstance(symmetry, str):
        raise TypeError(
            f"symmetry must be a string, got {type(symmetry).__name__}"
        )
    if symmetry.lower() not in SYMMETRIES:
        raise ValueError(
            f"unknown symmetry {shorten(symmetry)}; choose one of "
            f"{', '.join(SYMMETRIES)}"
        )
    if difficulty is not None:
        difficulty = check_level(difficulty)
    variant = as_variant(variant)
    if variant is not None:
        variant.fits(int(size))
    return box, symmetry.lower(), difficulty, variant


def _rng(seed: Any) -> np.random.Generator:
    """numpy's random generator for ``seed``: None (fresh entropy), a whole
    number >= 0 or a sequence of them, or numpy's own ``SeedSequence``,
    ``BitGenerator`` or ``Generator``; anything else is a TypeError or
    ValueError naming ``seed`` (not numpy's message)."""
    if isinstance(seed, (bool, np.bool_, float, np.floating, str, bytes)):
        raise TypeError(
            f"seed must be a whole number >= 0 (or None), got "
            f"{type(seed).__name__} {shorten(seed)}"
        )
    try:
        return np.random.default_rng(seed)
    except TypeError:
        raise TypeError(
            f"seed must be a whole number >= 0 (or None), got "
            f"{type(seed).__name__} {shorten(seed)}"
        ) from None
    except ValueError:
        raise ValueError(
            f"seed must be a whole number >= 0 (or a sequence "
            f"of them), got {shorten(seed)}"
        ) from None
