"""Sudoku as exact cover, solved by the ``dlx`` engine.

Encoding for an ``n x n`` grid with ``r x c`` boxes (``n = r*c``):

* option ``(row*n + col)*n + (digit - 1)``: "put ``digit`` in cell
  ``(row, col)``", so decoding is a ``divmod``;
* ``4*n*n`` primary items, in this order: cell ``(row, col)`` is filled,
  ``row`` has ``digit``, ``col`` has ``digit``, box ``b`` has ``digit``
  (boxes numbered in reading order).  For 9x9: 729 options, 324 items.

The base problem of a box shape is built once (``base_problem``, cached)
and every puzzle of that shape reuses it: the givens are passed to the
engine as options chosen before the search, never as a new matrix.
"""

from __future__ import annotations

import functools
import gc
import itertools
from collections.abc import Iterable
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np

from dlx import BudgetExhausted, ExactCover
from dlx.shorten import shorten

from . import kernels
from .budget import UNLIMITED, Budget, Stopped
from .encode import Variant, as_variant, clash_message, clashes, problem
from .grid import (
    ALPHABET,
    Grid,
    InvalidPuzzle,
    Layout,
    bare_cells,
    check_box,
    conflict_message,
    default_box,
    grid_phrase,
    parse,
)

# The engine's MRV scan may stop at the first item with this many options:
# a forced cell or digit is taken at once instead of looking further for an
# impossible one.  Sudoku has many forced moves, and stopping at them costs a
# few more nodes but makes each node much cheaper (about 1.5x faster
# overall).  Answers and counts do not depend on it.
MRV_CUTOFF = 1

# Above this many matrix entries the base problem is built option by
# option instead of from a dense 0/1 matrix.
_DENSE_LIMIT = 4_000_000


# -- encoding -----------------------------------------------------------------
def option_items(rows: int, cols: int) -> np.ndarray:
    """The 4 item numbers (0-based) of every option, shape ``(n**3, 4)``."""
    n = rows * cols
    option = np.arange(n**3)
    cell, digit = np.divmod(option, n)
    r, c = np.divmod(cell, n)
    b = (r // rows) * rows + c // cols
    return np.stack(
        [
            cell,
            n * n + r * n + digit,
            2 * n * n + c * n + digit,
            3 * n * n + b * n + digit,
        ],
        axis=1,
    )


@functools.cache
def base_problem(rows: int, cols: int) -> ExactCover:
    """The exact-cover problem of an empty ``(rows*cols)``-grid; cached."""
    n = rows * cols
    items = option_items(rows, cols)
    if n**3 * 4 * n * n <= _DENSE_LIMIT:
        matrix = np.zeros((n**3, 4 * n * n), np.uint8)
        np.put_along_axis(matrix, items, 1, axis=1)
        return ExactCover.from_matrix(matrix)
    problem = ExactCover(range(4 * n * n))
    problem.add_options(items.tolist())
    return problem


def problem_for(
    box: tuple[int, int], variant: Variant | None = None
) -> ExactCover:
    """The cached problem of an empty grid: ``base_problem`` for classic
    rules, ``sudoku.encode.problem`` for a variant."""
    return base_problem(*box) if variant is None else problem(box, variant)


def given_options(cells: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The option numbers of the filled cells of a ``(B, n, n)`` stack, in
    CSR form ``(options, starts)``: puzzle ``b`` has
    ``options[starts[b]:starts[b + 1]]``, rising."""
    batch, n, _ = cells.shape
    return kernels.given_options(cells.reshape(batch, n * n), n)


def decode(options: Iterable[int], n: int) -> np.ndarray:
    """Option numbers back to an ``n x n`` cells array."""
    options = np.asarray(list(options), np.int64)
    cells = np.zeros(n * n, np.int64)
    cell, digit = np.divmod(options, n)
    cells[cell] = digit + 1
    return cells.reshape(n, n)


def grid_givens(grid: Grid) -> list[int]:
    """The option numbers of one grid's givens (see ``given_options``)."""
    return given_options(grid.cells[None])[0].tolist()


def _checked(puzzle: Any, box, variant: Variant | None = None) -> Grid:
    """Parse and refuse clashing givens (InvalidPuzzle)."""
    grid = parse(puzzle, box)
    message = givens_conflict(grid, variant)
    if message:
        raise InvalidPuzzle(message)
    return grid


def givens_conflict(grid: Grid, variant: Variant | None) -> str | None:
    """One sentence naming two clashing givens, or None."""
    if variant is None:
        return conflict_message(grid)
    variant.fits(grid.n)
    return clash_message(grid.cells, grid.box, variant)


# -- one puzzle ---------------------------------------------------------------
def solve(
    puzzle: Any,
    box: tuple[int, int] | None = None,
    *,
    max_nodes: int | None = None,
    time_limit: float | None = None,
    variant: Any = None,
) -> Grid | None:
    """The first solution of ``puzzle`` as a ``Grid``, or None if it has
    none.  (A puzzle with several solutions gives one of them; see
    ``is_unique``.)  Raises ``InvalidPuzzle`` for bad input and
    ``dlx.BudgetExhausted`` when ``max_nodes``/``time_limit`` run out.
    ``variant``: extra rules (``"x"``, ``"anti-knight"``, a
    ``sudoku.Variant``...; see ``sudoku.encode``).

    Args:
        puzzle: Any input ``sudoku.parse`` reads: text (one line, a grid
            over several lines, CSV), nested lists, a numpy array or a
            ``Grid``.
        box: The box shape ``(rows, cols)`` (default: inferred from the
            size).
        max_nodes: The most search nodes (None: no bound).
        time_limit: The most seconds (None: no bound).
        variant: Extra rules: a name (``"x"``, ``"windoku"``, rules joined
            by ``+``) or a ``sudoku.Variant`` (None: standard rules).

    Returns:
        The first solution found, or None when there is none.

    Raises:
        InvalidPuzzle: Input that is not a grid, or clashing givens.
        InvalidVariant: An unknown variant.
        dlx.BudgetExhausted: ``max_nodes`` or ``time_limit`` ran out.
    """
    variant = as_variant(variant)
    grid = _checked(puzzle, box, variant)
    if max_nodes is None and time_limit is None:
        counts, solutions, _ = search_stack(
            grid.cells[None], grid.box, 1, variant=variant
        )
        return grid.with_cells(solutions[0]) if counts[0] else None
    found = problem_for(grid.box, variant).solve(
        given=grid_givens(grid),
        max_nodes=max_nodes,
        time_limit=time_limit,
        mrv_cutoff=MRV_CUTOFF,
    )
    if found is None:
        return None
    return grid.with_cells(decode(found, grid.n))


def count(
    puzzle: Any,
    limit: int | None = None,
    box: tuple[int, int] | None = None,
    *,
    max_nodes: int | None = None,
    time_limit: float | None = None,
    variant: Any = None,
    **long_count,
) -> int:
    """How many solutions ``puzzle`` has, counting at most ``limit`` (a
    positive integer, or None for all; 0 raises ``ValueError``).  Raises
    ``InvalidPuzzle`` for bad input and ``dlx.BudgetExhausted`` when
    ``max_nodes``/``time_limit`` run out.

    For a grid with few givens (the empty 6x6 has 28,200,960 solutions),
    the engine's long-count options (``jobs``, ``executor``,
    ``checkpoint``, ``progress``; see ``dlx.ExactCover.count``) count it
    as independent jobs, on every core or a cluster, with a progress bar
    and a checkpoint; they count every solution (no ``limit`` or budget).

    Args:
        puzzle: Any input ``sudoku.parse`` reads: text (one line, a grid
            over several lines, CSV), nested lists, a numpy array or a
            ``Grid``.
        box: The box shape ``(rows, cols)`` (default: inferred from the
            size).
        limit: Count at most this many (a positive integer; None: all).
        max_nodes: The most search nodes (None: no bound).
        time_limit: The most seconds (None: no bound).
        variant: Extra rules, as ``solve`` takes them.
        **long_count: ``jobs``, ``executor``, ``checkpoint``,
            ``progress``, ... as ``dlx.ExactCover.count`` takes them.

    Returns:
        The number of solutions (``limit`` when it stopped there).

    Raises:
        ValueError: A ``limit`` that is not a positive integer or None.
        InvalidPuzzle: Input that is not a grid, or clashing givens.
        InvalidVariant: An unknown variant.
        dlx.BudgetExhausted: ``max_nodes`` or ``time_limit`` ran out.
    """
    checked_limit = _check_limit(limit)
    variant = as_variant(variant)
    grid = _checked(puzzle, box, variant)
    if long_count:
        return problem_for(grid.box, variant).count(
            limit,
            given=grid_givens(grid),
            max_nodes=max_nodes,
            time_limit=time_limit,
            mrv_cutoff=MRV_CUTOFF,
            **long_count,
        )
    if max_nodes is None and time_limit is None:
        counts, _, _ = search_stack(
            grid.cells[None], grid.box, checked_limit, variant=variant
        )
        return int(counts[0])
    return problem_for(grid.box, variant).count(
        limit,
        given=grid_givens(grid),
        max_nodes=max_nodes,
        time_limit=time_limit,
        mrv_cutoff=MRV_CUTOFF,
    )


def is_unique(
    puzzle: Any,
    box: tuple[int, int] | None = None,
    *,
    max_nodes: int | None = None,
    time_limit: float | None = None,
    variant: Any = None,
) -> bool:
    """True when ``puzzle`` has exactly one solution (the search stops at
    the second).

    Args:
        puzzle: Any input ``sudoku.parse`` reads: text (one line, a grid
            over several lines, CSV), nested lists, a numpy array or a
            ``Grid``.
        box: The box shape ``(rows, cols)`` (default: inferred from the
            size).
        max_nodes: The most search nodes (None: no bound).
        time_limit: The most seconds (None: no bound).
        variant: Extra rules, as ``solve`` takes them.

    Returns:
        Whether the puzzle has exactly one solution.

    Raises:
        InvalidPuzzle: Input that is not a grid, or clashing givens.
        InvalidVariant: An unknown variant.
        dlx.BudgetExhausted: ``max_nodes`` or ``time_limit`` ran out.
    """
    return (
        count(
            puzzle,
            2,
            box,
            max_nodes=max_nodes,
            time_limit=time_limit,
            variant=variant,
        )
        == 1
    )


# -- batches ------------------------------------------------------------------
SOLVED = "solved"
NO_SOLUTION = "no solution"
MULTIPLE = "multiple"
INVALID = "invalid"
UNKNOWN = "unknown"
STATUSES = (SOLVED, NO_SOLUTION, MULTIPLE, INVALID, UNKNOWN)
"""What a ``Result``'s ``status`` can be."""


class Result:
    """The outcome for one puzzle of ``solve_many``.

    ``status``: ``"solved"``, ``"no solution"``, ``"multiple"`` (two or
    more solutions; only when uniqueness is checked), ``"invalid"`` (the
    input is not a grid or its givens clash), or ``"unknown"`` (the
    ``max_nodes`` budget ran out first).  ``grid``: the first solution
    found (for ``"solved"`` and ``"multiple"``), else None; it is built on
    first use, so a large batch costs little until its grids are read.
    ``error``: the reason for ``"invalid"``, else None.  ``count``: the
    solutions found, at most the batch's ``limit``.  A ``Result`` is true
    when the status is ``"solved"``.

    Args:
        status: One of ``STATUSES``.
        grid: The first solution found, if any.
        error: Why the puzzle is ``"invalid"``.
        count: The solutions found.
    """

    __slots__ = ("status", "error", "count", "_grid", "_batch", "_k")

    def __init__(
        self,
        status: str,
        grid: Grid | None = None,
        error: str | None = None,
        count: int = 0,
        _batch=None,
        _k: int = 0,
    ):
        self.status = status
        self.error = error
        self.count = count
        self._grid = grid
        # A solution not yet made a Grid: row _k of a _Solutions.
        self._batch = _batch
        self._k = _k

    @property
    def grid(self) -> Grid | None:
        if self._batch is not None:
            self._grid = self._batch.grid(self._k)
            self._batch = None
        return self._grid

    def __bool__(self) -> bool:
        return self.status == SOLVED

    def _key(self):
        return (self.status, self.grid, self.error, self.count)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Result):
            return NotImplemented
        return self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"Result(status={self.status!r}, grid={self.grid!r}, "
            f"error={self.error!r}, count={self.count})"
        )


@dataclass
class BatchArrays:
    """``solve_many`` results as arrays, for callers that want no objects.

    ``status[b]``: index into ``STATUSES``; ``solutions``: ``(B, n, n)``,
    the first solution found (zeros when none); ``counts``: solutions
    found, at most the limit (0 when invalid); ``nodes``: search nodes.
    """

    status: np.ndarray
    solutions: np.ndarray
    counts: np.ndarray
    nodes: np.ndarray


def solve_cells(
    cells: np.ndarray,
    box: tuple[int, int] | None = None,
    *,
    limit: int | None = 2,
    max_nodes: int | None = None,
    threads: int = 0,
    variant: Any = None,
    time_limit: float | None = None,
    stop: Any = None,
) -> BatchArrays:
    """Solve a ``(B, n, n)`` int array of puzzles in one engine call.

    The vectorised core of ``solve_many``: no Python work per puzzle.
    Values must already be in ``0..n``; puzzles whose givens clash get
    status ``"invalid"`` without reaching the engine.  ``limit``: stop each
    search after this many solutions (2: check uniqueness; 1: first
    solution only; None: count them all).  ``threads``: share the batch
    among that many threads (0, the default: one per core).  ``variant``:
    extra rules, as in ``solve``.  ``time_limit`` (seconds) and ``stop``
    end the batch early with ``sudoku.Stopped`` (see ``sudoku.budget``).

    Args:
        cells: A ``(B, n, n)`` int array, 0 for an empty cell.
        box: The box shape (default: inferred from ``n``).
        limit: Stop each search after this many solutions (a positive
            integer; None: count them all).
        max_nodes: The most search nodes per puzzle (status
            ``"unknown"`` when they run out).
        threads: How many threads share the batch (0: one per core).
        variant: Extra rules for every puzzle, as ``solve`` takes them.
        time_limit: The most seconds for the batch.
        stop: Anything with ``is_set()`` that ends the batch when set.

    Returns:
        Each puzzle's status, count and first solution, as arrays.

    Raises:
        ValueError: ``cells`` of the wrong shape or values, or a bad
            ``limit``.
        InvalidVariant: An unknown variant.
        sudoku.Stopped: ``time_limit`` ran out or ``stop`` was set.
    """
    budget = Budget("solve_cells", time_limit, stop)
    limit = _check_limit(limit)
    variant = as_variant(variant)
    cells = np.asarray(cells)
    if cells.dtype.kind not in "iu":
        cells = cells.astype(np.int64)
    if cells.ndim != 3 or cells.shape[1] != cells.shape[2]:
        raise ValueError(f"cells must have shape (B, n, n), got {cells.shape}")
    batch, n, _ = cells.shape
    box = default_box(n) if box is None else check_box(box, n)
    if cells.size and (cells.min() < 0 or cells.max() > n):
        raise ValueError(f"cells must hold values 0..{n}")
    status = np.full(batch, STATUSES.index(INVALID), np.int8)
    solutions = np.zeros_like(cells)
    nodes = np.zeros(batch, np.int64)
    found = np.zeros(batch, np.int64)
    if batch == 0:
        return BatchArrays(status, solutions, found, nodes)
    if variant is None:
        # The engine reports clashing givens itself (count -1: two givens
        # share a row, column or box digit, which is what cells_conflict
        # tests), so every puzzle goes to it.
        counts, solutions, nodes = search_stack(
            cells, box, limit, max_nodes, threads, variant, budget
        )
        return BatchArrays(
            status_codes(counts), solutions, np.maximum(counts, 0), nodes
        )
    variant.fits(n)
    good = np.flatnonzero(~clashes(cells, box, variant))
    counts, out, work = search_stack(
        cells[good], box, limit, max_nodes, threads, variant, budget
    )
    status[good] = status_codes(counts)
    nodes[good] = work
    found[good] = np.maximum(counts, 0)
    solutions[good] = out
    return BatchArrays(status, solutions, found, nodes)


# The status (an index into STATUSES) of each engine count: -1 (clashing
# givens) invalid, 0 no solution, 1 solved, 2 or more multiple, -2 (the
# node budget ran out) unknown.
_STATUS_OF_COUNT = np.array(
    [
        STATUSES.index(UNKNOWN),
        STATUSES.index(INVALID),
        STATUSES.index(NO_SOLUTION),
        STATUSES.index(SOLVED),
    ],
    np.int8,
)


def status_codes(counts: np.ndarray) -> np.ndarray:
    """The status codes (indices into ``STATUSES``) of engine counts."""
    codes = _STATUS_OF_COUNT[np.clip(counts, -2, 1) + 2]
    codes[counts >= 2] = STATUSES.index(MULTIPLE)
    return codes


# -- the search, with restarts ------------------------------------------------
# Backtracking times are heavy-tailed.  One public 25x25 puzzle needs more
# than 20 million nodes as written, yet the same puzzle with its digits
# renamed and its bands, stacks, rows and columns shuffled takes 200
# thousand.  So a search that runs past its budget is started again on a
# random equivalent puzzle, with budgets RESTART_NODES times Luby's sequence
# 1 1 2 1 1 2 4 1 1 2 ... (within a log factor of the best fixed budget).
# No ordinary 9x9 puzzle comes near the first budget.  Restarts are for
# finding a solution and proving it unique (limit <= 2); a count of many
# solutions must walk a whole tree anyway, so it runs once, unbounded.
RESTART_NODES = 200_000
RESTART_SEED = 2024


def luby(i: int) -> int:
    """The ``i``-th term (from 1) of Luby's restart sequence."""
    while True:
        k = i.bit_length()
        if i == (1 << k) - 1:
            return 1 << (k - 1)
        i -= (1 << (k - 1)) - 1


@dataclass(frozen=True)
class Symmetry:
    """A map from Sudoku grids to equivalent ones: keep rows ``rows`` and
    columns ``cols`` in that order, rename digit ``d`` to ``digits[d]``,
    then transpose if ``transpose`` (square boxes only)."""

    rows: np.ndarray
    cols: np.ndarray
    digits: np.ndarray
    transpose: bool = False

    @classmethod
    def random(
        cls, rng: np.random.Generator, box: tuple[int, int]
    ) -> Symmetry:
        """Shuffle bands, rows in a band, stacks, columns in a stack and
        digits; transpose half the time when boxes are square."""
        rows_per_box, cols_per_box = box
        n = rows_per_box * cols_per_box

        def shuffle(size: int) -> np.ndarray:
            groups = rng.permutation(n // size)
            return np.concatenate(
                [g * size + rng.permutation(size) for g in groups]
            )

        digits = np.concatenate(([0], rng.permutation(n) + 1))
        return cls(
            shuffle(rows_per_box),
            shuffle(cols_per_box),
            digits,
            rows_per_box == cols_per_box and bool(rng.integers(2)),
        )

    @classmethod
    def relabel(cls, rng: np.random.Generator, n: int) -> Symmetry:
        """Rename the digits only: the one symmetry every variant keeps."""
        digits = np.concatenate(([0], rng.permutation(n) + 1))
        return cls(np.arange(n), np.arange(n), digits)

    def apply(self, cells: np.ndarray) -> np.ndarray:
        """Map a ``(B, n, n)`` stack."""
        moved = self.digits[cells[:, self.rows][:, :, self.cols]]
        return moved.transpose(0, 2, 1) if self.transpose else moved

    def undo(self, cells: np.ndarray) -> np.ndarray:
        """The inverse of ``apply``."""
        if self.transpose:
            cells = cells.transpose(0, 2, 1)
        back = np.empty_like(cells)
        back[:, self.rows[:, None], self.cols] = np.argsort(self.digits)[cells]
        return back


def search_stack(
    cells: np.ndarray,
    box: tuple[int, int],
    limit: int,
    max_nodes: int | None = None,
    threads: int = 1,
    variant: Variant | None = None,
    budget: Budget = UNLIMITED,
    algorithm: str = "auto",
):
    """Search a ``(B, n, n)`` stack of clash-free puzzles.

    Returns ``(counts, solutions, nodes)``: solutions found up to ``limit``
    (-2: ``max_nodes`` ran out), the first solution found as a ``(B, n, n)``
    array (zeros when none), and the nodes searched.  With ``limit <= 2``
    and no ``max_nodes`` a puzzle that outlasts its budget is restarted as
    a random equivalent puzzle (see ``RESTART_NODES``); every search ends
    with an exact answer.  Under a ``variant`` the restarts only rename
    digits (moving rows or columns would change the rules).

    ``budget`` (``sudoku.budget.Budget``) is looked at before every engine
    call, each of which gets the time left as its time limit: ``Stopped``
    when it runs out or its stop is set.  ``algorithm``: as in
    ``_engine_call``.
    """
    batch = len(cells)
    if batch == 0:
        return (
            np.zeros(batch, np.int64),
            np.zeros_like(cells),
            np.zeros(batch, np.int64),
        )
    pending = None  # every puzzle (no copy)
    rng = None
    symmetry = None
    restarts = max_nodes is None and limit <= 2
    for attempt in itertools.count(1):
        nodes_each = (
            RESTART_NODES * luby(attempt)
            if restarts
            else max_nodes
            if max_nodes is not None
            else _ALL
        )
        part = cells if pending is None else cells[pending]
        if symmetry is not None:
            part = symmetry.apply(part)
        found, first, work = _engine_call(
            part, box, limit, nodes_each, threads, variant, budget, algorithm
        )
        if symmetry is not None:
            first = symmetry.undo(first)
        done = (found != -2) | (not restarts)
        if pending is None:
            counts, solutions, nodes = found, first, work
            if done.all():
                return counts, solutions, nodes
            pending = np.arange(batch)
        else:
            counts[pending[done]] = found[done]
            solutions[pending[done]] = first[done]
            nodes[pending] += work
        pending = pending[~done]
        if not len(pending):
            return counts, solutions, nodes
        rng = rng or np.random.default_rng(RESTART_SEED)
        symmetry = (
            Symmetry.random(rng, box)
            if variant is None
            else Symmetry.relabel(rng, box[0] * box[1])
        )


# Puzzles per engine call.  Every call keeps, per puzzle, a row of option
# nodes as long as the deepest possible cover (325 entries for 9x9) while
# it runs, so a call over a million puzzles would hold over a gigabyte;
# calls of this size keep that near 10 MB at no measurable cost.
ENGINE_CHUNK = 1 << 13


def _engine_call(
    cells: np.ndarray,
    box: tuple[int, int],
    limit: int,
    max_nodes: int,
    threads: int,
    variant: Variant | None = None,
    budget: Budget = UNLIMITED,
    algorithm: str = "auto",
):
    """``solve_batch`` over a stack: ``(counts, first solutions, nodes)``;
    ``Stopped`` when ``budget`` runs out (before or during the call).
    ``algorithm``: the engine's, ``"auto"`` taking the bitset engine up to
    its size (``dlx.engines.registry``)."""
    batch, n, _ = cells.shape
    size = n * n
    counts = np.empty(batch, np.int64)
    nodes = np.empty(batch, np.int64)
    # Each first solution's options into its cells, the givens' kept.
    out = cells.reshape(batch, size).copy()
    problem = problem_for(box, variant)
    for lo in range(0, batch, ENGINE_CHUNK):
        hi = min(lo + ENGINE_CHUNK, batch)
        options, starts = given_options(cells[lo:hi])
        time_limit = budget.remaining()
        try:
            result = problem.solve_batch(
                options,
                starts=starts,
                limit=limit,
                max_nodes=max_nodes,
                threads=threads,
                mrv_cutoff=MRV_CUTOFF,
                algorithm=algorithm,
                time_limit=time_limit,
            )
        except BudgetExhausted:  # the time limit, reached inside the call
            budget.check()
            raise Stopped(budget.what, "time_limit", budget.seconds) from None
        counts[lo:hi] = result.counts
        nodes[lo:hi] = result.nodes
        kernels.fill(out[lo:hi], result.solutions, n)
    solutions = out.reshape(batch, n, n)
    solutions[counts <= 0] = 0
    return counts, solutions, nodes


def _check_limit(limit) -> int:
    if limit is None:
        return _ALL
    if (
        isinstance(limit, bool)
        or not isinstance(limit, (int, np.integer))
        or limit < 1
    ):
        raise ValueError(
            f"limit must be a positive integer or None, got {shorten(limit)}"
        )
    return int(limit)


_ALL = 1 << 62


def solve_many(
    puzzles: Iterable[Any],
    box: tuple[int, int] | None = None,
    *,
    limit: int | None = 2,
    max_nodes: int | None = None,
    threads: int = 0,
    variant: Any = None,
    time_limit: float | None = None,
    stop: Any = None,
) -> list[Result]:
    """Solve a batch of puzzles; one ``Result`` per puzzle, in order.

    ``puzzles``: any iterable of accepted inputs (lines of text, grids,
    arrays), or a ``(B, n, n)`` numpy array.  All puzzles of one box shape
    go through a single jitted engine call.  Uniqueness is checked by
    default: with ``limit=2`` the search of each puzzle stops at its second
    solution and reports ``"multiple"``; ``limit=1`` stops at the first
    solution (faster; never ``"multiple"``); a larger ``limit`` or None
    counts solutions into ``Result.count``.  ``max_nodes`` bounds the search
    of each puzzle (status ``"unknown"`` when it runs out).  ``threads``
    shares the engine call among that many threads (0, the default: one
    per core; the answers do not depend on it).  A bad puzzle never stops
    the batch: its result has status ``"invalid"`` and the reason in
    ``error``.  ``variant``: extra rules for every puzzle, as in
    ``solve``.  ``time_limit`` (seconds) and ``stop`` end the batch early
    with ``sudoku.Stopped`` (see ``sudoku.budget``).

    Args:
        puzzles: Puzzles as ``sudoku.parse`` reads them (not one string:
            a list of lines), or a ``(B, n, n)`` numpy array.
        box: The box shape of every puzzle (default: inferred from each
            puzzle's size).
        limit: Stop each search after this many solutions (a positive
            integer; None: count them all).
        max_nodes: The most search nodes per puzzle.
        threads: How many threads share the engine call (0: one per
            core).
        variant: Extra rules for every puzzle, as ``solve`` takes them.
        time_limit: The most seconds for the batch.
        stop: Anything with ``is_set()`` that ends the batch when set.

    Returns:
        One ``Result`` per puzzle, in order.

    Raises:
        TypeError: One string instead of a list of puzzles.
        ValueError: A bad ``limit``.
        InvalidVariant: An unknown variant.
        sudoku.Stopped: ``time_limit`` ran out or ``stop`` was set.
    """
    budget = Budget("solve_many", time_limit, stop)
    limit = _check_limit(limit)
    variant = as_variant(variant)
    if isinstance(puzzles, (str, bytes)):
        raise TypeError(
            "solve_many takes a list of puzzles, not one string; "
            "use text.splitlines() for one puzzle per line"
        )
    if isinstance(puzzles, np.ndarray) and puzzles.ndim == 3:
        grids, groups = _stack_groups(puzzles, box)
        template = None
    else:
        puzzles = list(puzzles)
        grids, groups = parse_batch(puzzles, box)
        template = puzzles
    results: list[Result | None] = [None] * len(grids)
    if grids.count(None) != len(grids):  # (every line read in bulk: none)
        for b, item in enumerate(grids):
            if isinstance(item, str):
                results[b] = Result(INVALID, None, item)
    for shape, (index, cells) in groups.items():
        n = shape[0] * shape[1]
        if variant is not None and variant.size not in (None, n):
            for b in index.tolist():
                results[b] = Result(
                    INVALID,
                    None,
                    (
                        f"the puzzle is {n}x{n} but the region map is "
                        f"{variant.size}x{variant.size}"
                    ),
                )
            continue
        arrays = solve_cells(
            cells,
            shape,
            limit=limit,
            max_nodes=max_nodes,
            threads=threads,
            variant=variant,
            time_limit=budget.remaining(),
            stop=stop,
        )
        _collect(
            results, grids, index, cells, shape, arrays, template, variant
        )
    return results  # type: ignore[return-value]


def _stack_groups(stack: np.ndarray, box):
    """``(grids, groups)`` as in ``parse_batch`` for a ``(B, n, n)``
    array: puzzles holding a value outside ``0..n`` are invalid."""
    batch, n, width = stack.shape
    if n != width or stack.dtype.kind not in "biu":
        raise InvalidPuzzle(
            f"a puzzle stack must be a (B, n, n) integer "
            f"array, got shape {stack.shape} of {stack.dtype}"
        )
    shape = default_box(n) if box is None else check_box(box, n)
    out_of_range = (stack < 0) | (stack > n)
    bad = out_of_range.any(axis=(1, 2))
    grids: list = [None] * batch
    for b in np.flatnonzero(bad).tolist():
        r, c = np.argwhere(out_of_range[b])[0]
        grids[b] = (
            f"bad value {stack[b, r, c]} at row {r + 1}, column "
            f"{c + 1}: {grid_phrase(n)} uses 1-{n} (0 = empty)"
        )
    good = np.flatnonzero(~bad)
    return grids, {shape: (good, stack[good].astype(_cell_dtype(n)))}


def parse_batch(puzzles: list, box):
    """Parse every puzzle; group the good ones by box shape.

    Returns ``(grids, groups)``: ``grids[b]`` is a Grid, None (parsed in
    bulk) or an error message; ``groups[shape] = (indices, cells stack)``.
    """
    grids: list = [None] * len(puzzles)
    bulk = _parse_lines_bulk(puzzles, box)
    by_shape: dict = {}
    if bulk is not None:
        shape, index, cells = bulk
        by_shape[shape] = ([index], [cells])
        done = np.zeros(len(puzzles), bool)
        done[index] = True
        rest = np.flatnonzero(~done).tolist()
    else:
        rest = range(len(puzzles))
    for b in rest:
        try:
            grid = parse(puzzles[b], box)
        except InvalidPuzzle as error:
            grids[b] = str(error)
            continue
        grids[b] = grid
        lists = by_shape.setdefault(grid.box, ([], []))
        lists[0].append(np.array([b]))
        lists[1].append(grid.cells[None])
    groups = {
        shape: (np.concatenate(ix), np.concatenate(cs))
        for shape, (ix, cs) in by_shape.items()
    }
    return grids, groups


def _parse_lines_bulk(puzzles: list, box):
    """Vectorised reading of the common case: one-line puzzles of
    ``n*n`` characters.  Returns ``(box, indices, cells)`` for the lines it
    could read, or None; the others are left to ``parse``."""
    if not puzzles or set(map(type, puzzles)) != {str}:
        return None
    length = len(puzzles[0])
    n = int(round(length**0.5))
    if n * n != length or n < 4 or n > len(ALPHABET):
        return None
    try:
        shape = default_box(n) if box is None else check_box(box, n)
    except InvalidPuzzle:
        return None
    lengths = np.fromiter(map(len, puzzles), np.int64, len(puzzles))
    index = np.flatnonzero(lengths == length)
    if not len(index):
        return None
    text = (
        "".join(puzzles)
        if len(index) == len(puzzles)
        else "".join(puzzles[i] for i in index.tolist())
    )
    readable, cells = bare_cells(text, len(index), n)
    return shape, index[readable], cells[readable]


def _cell_dtype(n: int):
    """The smallest integer type for the cells of a stack of size ``n``."""
    return np.int8 if n < 128 else np.int16 if n < 32768 else np.int64


def _collect(
    results, grids, index, cells, shape, arrays, template, variant=None
):
    """Turn one group's arrays into ``Result`` objects (their grids made
    on first use, from one shared ``_Solutions``)."""
    codes = arrays.status
    lazy = _Solutions(arrays.solutions, codes, shape, grids, template, index)
    statuses = list(map(STATUSES.__getitem__, codes.tolist()))
    with _gc_paused():
        made = list(
            map(
                Result,
                statuses,
                itertools.repeat(None),
                itertools.repeat(None),
                arrays.counts.tolist(),
                itertools.repeat(lazy),
                range(len(index)),
            )
        )
    for k in np.flatnonzero(codes == STATUSES.index(INVALID)).tolist():
        source = grids[index[k]]
        grid = (
            source
            if isinstance(source, Grid)
            else Grid.trusted(cells[k].astype(np.int64), shape)
        )
        made[k] = Result(INVALID, None, givens_conflict(grid, variant))
    if len(index) == len(results) and (index == np.arange(len(index))).all():
        results[:] = made
    else:
        for k, b in enumerate(index.tolist()):
            results[b] = made[k]


@contextmanager
def _gc_paused():
    """Pause Python's cyclic garbage collector while a batch makes its
    ``Result`` objects: they hold no cycles, and a collection every 700
    new objects walks every object alive (measured: 2 us a puzzle more on
    17clue when the previous batch's results are still held)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


class _Solutions:
    """The first solutions of one group of a batch, made ``Grid`` objects
    on demand (``grid(k)``), in their puzzles' layouts."""

    __slots__ = ("solutions", "codes", "shape", "grids", "template", "index")

    def __init__(self, solutions, codes, shape, grids, template, index):
        self.solutions, self.codes, self.shape = solutions, codes, shape
        self.grids, self.template, self.index = grids, template, index

    def grid(self, k: int) -> Grid | None:
        """The solution of the group's puzzle ``k``, or None (no
        solution found)."""
        if STATUSES[self.codes[k]] not in (SOLVED, MULTIPLE):
            return None
        b = int(self.index[k])
        cells = self.solutions[k].astype(np.int64)
        source = self.grids[b]
        if isinstance(source, Grid):
            return source.with_cells(cells)
        layout = (
            None if self.template is None else Layout.line(self.template[b])
        )
        return Grid.trusted(cells, self.shape, layout)
