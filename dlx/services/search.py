"""Running a search: budgets, interrupts and statistics for every algorithm.

Every algorithm's kernel is resumable: it keeps its whole state in arrays,
and a call returns after a given number of solutions or when the node
count reaches a bound, to be called again later exactly where it stopped.
``run`` drives such a kernel in *slices* of a few milliseconds, so that

* ``time_limit`` is honoured to within a slice, whatever the node rate;
* Ctrl-C (``KeyboardInterrupt``) is seen between slices and becomes
  ``Interrupted``, carrying what was found so far (while a kernel runs,
  ``ctrl_c_noted`` holds the signal as a flag: Python would otherwise raise
  it in whatever code runs next, and one raised in a garbage-collector
  or weakref callback is printed and lost);
* a progress callback can look at the run between slices;

and the slices are invisible to the search: nodes and updates are those of
one uninterrupted call.

Every engine plugs in with a *run object* (``dlx.engines.base.Run``;
``dlx.engines.dlx1.LinksRun`` is DLX1's): ``counters``, ``[nodes,
updates, solutions]`` accumulated over its calls, and ``step(want,
stop_at, store) -> (status, solutions)``, one kernel call that pauses after
``want`` solutions (``0``: never) and stops when ``counters[0]`` reaches
``stop_at``.  A *stop event* (anything with ``is_set()``, such as a
``threading.Event``) stops a run between two slices as a budget does: a
web server sets it when its client leaves.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from typing import Literal, overload

import numpy as np

from ..engines.base import EXHAUSTED, NO_LIMIT, OUT_OF_NODES, PAUSED
from ..engines.threads import ctrl_c_noted
from ..shorten import shorten

__all__ = [
    "BudgetExhausted",
    "Interrupted",
    "Stats",
    "Slicer",
    "run",
    "finish_split",
    "whole_number",
    "seconds",
    "stop_event",
    "thread_count",
    "problem_search",
    "EXHAUSTED",
    "PAUSED",
    "OUT_OF_NODES",
    "NO_LIMIT",
]

# A slice aims at this many seconds: long enough that a kernel call's own
# cost (a few microseconds) is lost in it, short enough that a time limit,
# a stop event or Ctrl-C is answered at once.
SLICE_SECONDS = 0.005
# The first slice, before the node rate is known, and the bounds on any.
FIRST_SLICE_NODES = 256
MAX_SLICE_NODES = 1 << 24


class BudgetExhausted(RuntimeError):
    """The search stopped at ``max_nodes`` or ``time_limit`` before it ended.

    ``count`` is the number of solutions found before the stop and
    ``stats`` the work done; no solution was lost, but there may be more.

    Args:
        message: What ran out, in one sentence.
        count: The solutions found before the stop.
        stats: The work done (``stats.complete`` is False).
    """

    # Set only where a search for the cheapest solutions stopped
    # (``dlx.services.best``): ``best``, the ``(cost, options)`` found so
    # far, and ``proven``.  Declared, not defined: ``hasattr(error,
    # "best")`` tells which kind of search it was.
    best: list
    proven: bool

    def __init__(self, message: str, count: int, stats: Stats):
        super().__init__(message)
        self.count = count
        self.stats = stats


class Interrupted(KeyboardInterrupt):
    """Ctrl-C (or another ``KeyboardInterrupt``) stopped a search.

    Like ``BudgetExhausted`` it carries the partial ``count`` and the
    ``stats`` of the work done; being a ``KeyboardInterrupt``, it still
    stops a program that does not catch it.

    Args:
        count: The solutions found before the interrupt.
        stats: The work done.
    """

    best: list  # as for BudgetExhausted
    proven: bool

    def __init__(self, count: int, stats: Stats):
        super().__init__(f"interrupted with {count} solution(s) found")
        self.count = count
        self.stats = stats


@dataclass
class Stats:
    """The work of one search, counted like Knuth's DLX1.

    ``nodes``: search-tree nodes (each item chosen for branching, and each
    solution, a leaf; DLX1 counts the same);
    ``updates``: link changes made while covering; ``solutions``: solutions
    found; ``seconds``: time spent in the search (array building excluded);
    ``complete``: True when the whole search tree was explored, False when
    a limit, a budget or an interrupt stopped the search before its end.
    """

    nodes: int = 0
    updates: int = 0
    solutions: int = 0
    seconds: float = 0.0
    complete: bool = True

    def __str__(self) -> str:
        def group(n: int) -> str:
            return f"{n:,}".replace(",", " ")

        return (
            f"Altogether {group(self.solutions)} solution"
            f"{'' if self.solutions == 1 else 's'}, "
            f"{group(self.updates)} updates, {group(self.nodes)} nodes, "
            f"{self.seconds:.3f} s"
            + ("" if self.complete else " (stopped early)")
            + "."
        )


# -- argument checks shared by every entry point ------------------------
@overload
def whole_number(
    name: str,
    value: object,
    *,
    optional: Literal[False] = ...,
    positive: bool = ...,
) -> int: ...
@overload
def whole_number(
    name: str, value: object, *, optional: bool, positive: bool = ...
) -> int | None: ...
def whole_number(
    name: str, value: object, *, optional: bool = False, positive: bool = False
) -> int | None:
    """``value`` as an int >= 0 (>= 1 when ``positive``); None passes when
    ``optional``.  A wrong type is a TypeError, a wrong value a ValueError,
    each naming the argument."""
    if value is None and optional:
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(
        value, (int, np.integer)
    ):
        raise TypeError(
            f"{name} must be an integer, got {shorten(value)}"[:200]
        )
    if value < (1 if positive else 0):
        raise ValueError(
            f"{name} must be a "
            f"{'positive' if positive else 'non-negative'} "
            f"integer, got {shorten(value)}"[:200]
        )
    # No count, node or level number reaches int64's limit, so a larger
    # value means the same as that limit (which the kernels can hold).
    return min(int(value), NO_LIMIT)


def thread_count(threads) -> int:
    """``threads`` checked (0 means one per core)."""
    return whole_number("threads", threads) or (os.cpu_count() or 1)


def stop_event(value):
    """A stop event: None, or an object with ``is_set()``."""
    if value is not None and not callable(getattr(value, "is_set", None)):
        raise TypeError(
            f"stop must be an event with is_set() (such as a "
            f"threading.Event), got {shorten(value)}"[:200]
        )
    return value


def seconds(name: str, value) -> float | None:
    """A time limit: None, or a number of seconds >= 0; infinity is no
    limit (None), as a huge count limit is none.  The one definition of
    a time limit's range: the spec's (``dlx.options``), the command
    lines' (``dlx.cli.flags.seconds``) and Sudoku's budgets read it."""
    if value is None:
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(
        value, (int, float, np.integer, np.floating)
    ):
        raise TypeError(
            f"{name} must be a number of seconds, got {shorten(value)}"[:200]
        )
    if not value >= 0:  # also refuses NaN
        raise ValueError(
            f"{name} must be a non-negative number of seconds, "
            f"got {shorten(value)}"
        )
    if value == float("inf"):  # (a deadline's arithmetic overflowed)
        return None
    return float(value)


# -- the driver ---------------------------------------------------------
class Slicer:
    """How many nodes the next slice may explore.

    The node rate of the slices so far sets the next one to last about
    ``SLICE_SECONDS``, and never past the deadline's predicted node; a slice
    grows at most fourfold, so one slow patch of the tree cannot make a
    slice run long.
    """

    def __init__(self, deadline: float | None):
        self.deadline = deadline
        self.size = FIRST_SLICE_NODES

    def next_bound(self, nodes: int, node_cap: int) -> int:
        size = self.size
        if self.deadline is not None and self.rate is not None:
            left = self.deadline - time.perf_counter()
            size = min(size, max(1, int(left * self.rate)))
        return min(node_cap, nodes + size)

    rate: float | None = None

    def record(self, nodes: int, elapsed: float) -> None:
        if nodes <= 0:
            return
        rate = nodes / max(elapsed, 1e-7)
        self.rate = rate
        self.size = int(
            min(MAX_SLICE_NODES, 4 * self.size, max(16, rate * SLICE_SECONDS))
        )


def run(
    search,
    stats: Stats,
    *,
    limit: int | None,
    max_nodes: int | None,
    time_limit: float | None,
    store: bool,
    given: list[int],
    progress=None,
    stop=None,
):
    """Drive ``search`` (a run object, see the module docstring) to the end.

    A generator: yields a list of solutions (each sorted, ``given``
    included) per slice that found some when ``store``, else the number
    found.  ``stats`` is this run's own record, kept current after every
    slice.  Raises ``BudgetExhausted`` at ``max_nodes`` or ``time_limit``
    and ``Interrupted`` on Ctrl-C; ``progress(search, stats)`` is called
    between slices when given.  ``stop``: a stop event, which raises
    ``BudgetExhausted`` between two slices once it is set.
    """
    counters = search.counters
    node_cap = NO_LIMIT if max_nodes is None else max_nodes
    remaining = NO_LIMIT if limit is None else limit
    start = time.perf_counter()
    deadline = None if time_limit is None else start + time_limit
    slicer = Slicer(deadline)
    batch = 1  # solutions stored per call when streaming: 1, 2, 4 ... 4096
    elapsed = 0.0
    stats.complete = False
    try:
        while True:
            # Ctrl-C is noted while a slice runs and acted on after it;
            # the caller's own code, at the yield, gets it as usual.
            with ctrl_c_noted() as noted:
                if deadline is not None and time.perf_counter() >= deadline:
                    raise BudgetExhausted(
                        f"search stopped at time_limit={time_limit} s with "
                        f"{stats.solutions} solution(s) found",
                        stats.solutions,
                        stats,
                    )
                if stop is not None and stop.is_set():
                    raise BudgetExhausted(
                        f"search stopped by its stop event with "
                        f"{stats.solutions} solution(s) found",
                        stats.solutions,
                        stats,
                    )
                want = (
                    min(remaining, batch)
                    if store
                    else (remaining if remaining != NO_LIMIT else 0)
                )
                nodes_before = int(counters[0])
                t0 = time.perf_counter()
                status, found = search.step(
                    want, slicer.next_bound(nodes_before, node_cap), store
                )
                dt = time.perf_counter() - t0
                elapsed += dt
                slicer.record(int(counters[0]) - nodes_before, dt)
                new = int(counters[2]) - stats.solutions
                remaining -= new
                stats.nodes, stats.updates = int(counters[0]), int(counters[1])
                stats.solutions, stats.seconds = int(counters[2]), elapsed
                stats.complete = status == EXHAUSTED
                if progress is not None:
                    progress(search, stats)
                if store:
                    found = [sorted(s + given) for s in found]
            if noted.hit:
                raise Interrupted(stats.solutions, stats)
            if new:
                yield found if store else new
            if status == EXHAUSTED or remaining == 0:
                return
            if status == PAUSED:
                batch = min(batch * 2, 4096)
            elif counters[0] >= node_cap:
                raise BudgetExhausted(
                    f"search stopped after max_nodes={node_cap} nodes with "
                    f"{stats.solutions} solution(s) found",
                    stats.solutions,
                    stats,
                )
    except KeyboardInterrupt as ctrl_c:
        if isinstance(ctrl_c, Interrupted):
            raise
        raise Interrupted(stats.solutions, stats) from None


def finish_split(
    stats: Stats,
    t0: float,
    shallow: int,
    counts: np.ndarray,
    work: np.ndarray,
    stopped_by: str | None,
) -> int:
    """Close a count that split the top of its tree over threads.

    ``shallow`` solutions were met while splitting; ``counts``, ``work``
    and ``stopped_by`` are what the batch of subtrees returned (see
    ``Engine.count_paths``).  Adds the subtrees' work to ``stats`` and
    returns the count, or raises ``Interrupted`` (Ctrl-C) or
    ``BudgetExhausted`` (the deadline, or the stop event) with what was
    counted.  A subtree cut
    short adds its work but not its solutions, which its kernel could not
    hand back: the partial count is a floor.
    """
    stats.seconds = time.perf_counter() - t0
    stats.nodes += int(work[:, 0].sum())
    stats.updates += int(work[:, 1].sum())
    stats.solutions = shallow + int(np.maximum(counts, 0).sum())
    if stopped_by == "interrupt":
        raise Interrupted(stats.solutions, stats)
    if stopped_by == "deadline":
        raise BudgetExhausted(
            f"search stopped at its time limit with {stats.solutions} "
            f"solution(s) found",
            stats.solutions,
            stats,
        )
    if stopped_by == "stopped":
        raise BudgetExhausted(
            f"search stopped by its stop event with {stats.solutions} "
            f"solution(s) found",
            stats.solutions,
            stats,
        )
    stats.complete = True
    return stats.solutions


def problem_search(
    problem,
    engine,
    *,
    limit,
    given: list[int],
    max_nodes,
    time_limit,
    cutoff: int,
    store: bool,
    progress=None,
    stop=None,
):
    """One search of ``problem`` by ``engine`` (a generator, see ``run``),
    with the given options (checked option numbers) chosen first.

    ``problem.stats`` is this run's record from its start, and again
    whenever it resumes: it always belongs to the run that searched last
    (in this thread), never to a mix of two.
    """
    stats = problem.stats = Stats(complete=False)
    if limit == 0:
        stats.complete = True
        return
    arrays = engine.arrays(problem)
    runner = engine.start(arrays, engine.option_nodes(arrays, given), cutoff)
    stats.updates = int(runner.counters[1])
    if runner.clash:  # the givens overlap: no solution
        stats.complete = True
        return
    if runner.covered:
        # No primary item left to cover: the empty set of further
        # options is the one solution, and the tree's one (leaf) node.
        stats.nodes = stats.solutions = 1
        stats.complete = True
        yield [sorted(given)] if store else 1
        return
    for found in run(
        runner,
        stats,
        limit=limit,
        max_nodes=max_nodes,
        time_limit=time_limit,
        store=store,
        given=sorted(given),
        progress=progress,
        stop=stop,
    ):
        yield found
        problem.stats = stats
