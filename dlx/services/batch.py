"""``ExactCover.solve_batch``: many instances of one problem that differ
only in their given options, in one jitted call per chunk, on threads.

This is how the Sudoku adapter solves a file of puzzles.  Any engine
that ``batches`` runs it; ``"auto"`` takes dancing links (see
``dlx.engines.registry.family``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from ..engines import engine_for, refuse
from ..engines.base import NO_LIMIT
from ..shorten import shorten
from .search import (
    BudgetExhausted,
    Interrupted,
    Stats,
    seconds,
    stop_event,
    thread_count,
    whole_number,
)

__all__ = ["BatchResult", "solve_batch"]


@dataclass
class BatchResult:
    """What ``ExactCover.solve_batch`` found, one entry per instance.

    ``counts[b]``: solutions found (at most the limit); ``-1`` when the
    given options overlap, ``-2`` when ``max_nodes`` stopped the search.
    ``solutions[b]``: the option numbers (int32) of the first solution
    beyond the givens, in the order the search chose them, padded with
    ``-1`` (all ``-1`` when there is none); as many columns as the longest.
    ``nodes``/``updates``: the work per instance.
    """

    counts: np.ndarray
    solutions: np.ndarray
    nodes: np.ndarray
    updates: np.ndarray


def option_numbers(values, where: str) -> np.ndarray:
    """``values`` as a flat int64 array; anything but integers is refused."""
    a = np.asarray(values)
    if a.size == 0:
        return np.zeros(0, np.int64)
    if a.ndim != 1 or a.dtype.kind not in "iu":
        raise ValueError(
            f"{where} must be a flat sequence of option "
            f"numbers, got {shorten(values)}"[:200]
        )
    return a.astype(np.int64)


def without_repeats(flat: np.ndarray, starts: np.ndarray):
    """Drop an option listed twice in one instance (CSR in, CSR out)."""
    instance = np.repeat(np.arange(len(starts) - 1), np.diff(starts))
    same = instance[1:] == instance[:-1]
    if not (same & (flat[1:] <= flat[:-1])).any():
        return flat, starts  # every instance strictly rising: no repeats
    order = np.lexsort((flat, instance))
    flat, instance = flat[order], instance[order]
    keep = np.ones(len(flat), bool)
    keep[1:] = (flat[1:] != flat[:-1]) | (instance[1:] != instance[:-1])
    if keep.all():
        return flat, starts
    counts = np.bincount(instance[keep], minlength=len(starts) - 1)
    starts = np.zeros(len(starts), np.int64)
    np.cumsum(counts, out=starts[1:])
    return flat[keep], starts


def solve_batch(
    problem,
    givens,
    *,
    starts=None,
    limit: int = 2,
    max_nodes: int | None = None,
    threads: int = 1,
    mrv_cutoff: int = 0,
    algorithm: str = "auto",
    stop=None,
    time_limit: float | None = None,
) -> BatchResult:
    """See ``ExactCover.solve_batch``."""
    if starts is None:
        rows = [
            option_numbers(g, f"givens[{b}]") for b, g in enumerate(givens)
        ]
        starts = np.zeros(len(rows) + 1, np.int64)
        np.cumsum([len(r) for r in rows], out=starts[1:])
        flat = np.concatenate(rows) if rows else np.zeros(0, np.int64)
    else:
        flat = option_numbers(givens, "givens")
        starts = option_numbers(starts, "starts")
        if (
            len(starts) < 1
            or starts[0] != 0
            or (np.diff(starts) < 0).any()
            or starts[-1] != len(flat)
        ):
            raise ValueError(
                f"starts must rise from 0 to len(givens) = {len(flat)}"
            )
    problem.check_given_array(flat)
    flat, starts = without_repeats(flat, starts)
    limit = whole_number("limit", limit, positive=True)
    max_nodes = whole_number("max_nodes", max_nodes, optional=True)
    nthreads = thread_count(threads)
    cutoff = whole_number("mrv_cutoff", mrv_cutoff)
    stop = stop_event(stop)
    time_limit = seconds("time_limit", time_limit)
    engine = engine_for(problem, algorithm, "batch")
    if not engine.batches:
        raise refuse("solve_batch", problem.kind, engine)
    arrays = engine.arrays(problem)
    nodes = np.asarray(engine.option_nodes(arrays, flat), np.int32)
    engine.load("batch")
    stats = problem.stats = Stats(complete=False)
    if time_limit == 0 and len(starts) > 1:  # before the first node
        raise BudgetExhausted(
            "solve_batch stopped at its time limit with 0 solution(s) found",
            0,
            stats,
        )
    t0 = time.perf_counter()
    deadline = None if time_limit is None else t0 + time_limit
    counts, solutions, work, stopped_by = engine.batch(
        arrays,
        nodes,
        starts,
        limit,
        NO_LIMIT if max_nodes is None else max_nodes,
        nthreads,
        cutoff,
        deadline=deadline,
        event=stop,
    )
    stats.seconds = time.perf_counter() - t0
    work[:, 1] += work[:, 2]
    # An instance that found `limit` solutions paused: it may have more.
    explored = (counts == -1) | ((counts >= 0) & (counts < limit))
    stats.nodes = int(work[:, 0].sum())
    stats.updates = int(work[:, 1].sum())
    stats.solutions = int(np.maximum(counts, 0).sum())
    stats.complete = bool(explored.all())
    if stopped_by == "interrupt":
        raise Interrupted(stats.solutions, stats)
    if stopped_by == "stopped":
        raise BudgetExhausted(
            f"solve_batch stopped by its stop event with {stats.solutions} "
            f"solution(s) found",
            stats.solutions,
            stats,
        )
    # (An instance the time limit cut short has counts -3, STOPPED.)
    if stopped_by == "deadline" and (counts < -2).any():
        raise BudgetExhausted(
            f"solve_batch stopped at its time limit with {stats.solutions} "
            f"solution(s) found",
            stats.solutions,
            stats,
        )
    return BatchResult(counts, solutions, work[:, 0], work[:, 1])
