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

An algorithm plugs in with a *run object* (``dlx.links.LinksRun`` is the
DLX1 one): ``counters``, an int64 array ``[nodes, updates, solutions]``
accumulated over its calls, and ``step(want, stop_at, store) -> (status,
solutions)``, one kernel call that pauses after ``want`` solutions (``0``:
never) and stops when ``counters[0]`` reaches ``stop_at``; ``status`` is
one of ``EXHAUSTED``, ``PAUSED``, ``OUT_OF_NODES`` below and
``solutions``, when ``store``, the option numbers of each solution found
(beyond the givens; ``[]`` otherwise).
"""

from __future__ import annotations

import signal
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass

import numpy as np
from .shorten import shorten

# What a kernel call returns (the values of dlx.kernels.links).
EXHAUSTED = 0  # the whole tree has been explored
PAUSED = 1  # stopped after the requested number of solutions
OUT_OF_NODES = 2  # stopped at the node bound

NO_LIMIT = np.iinfo(np.int64).max

# A slice aims at this many seconds: long enough that a kernel call's own
# cost (a few microseconds) is lost in it, short enough that a time limit
# or Ctrl-C is answered at once.
SLICE_SECONDS = 0.005
# The first slice, before the node rate is known, and the bounds on any.
FIRST_SLICE_NODES = 256
MAX_SLICE_NODES = 1 << 24


class BudgetExhausted(RuntimeError):
    """The search stopped at ``max_nodes`` or ``time_limit`` before it ended.

    ``count`` is the number of solutions found before the stop and
    ``stats`` the work done; no solution was lost, but there may be more.
    """

    def __init__(self, message: str, count: int, stats: "Stats"):
        super().__init__(message)
        self.count = count
        self.stats = stats


class Interrupted(KeyboardInterrupt):
    """Ctrl-C (or another ``KeyboardInterrupt``) stopped a search.

    Like ``BudgetExhausted`` it carries the partial ``count`` and the
    ``stats`` of the work done; being a ``KeyboardInterrupt``, it still
    stops a program that does not catch it.
    """

    def __init__(self, count: int, stats: "Stats"):
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

        return (f"Altogether {group(self.solutions)} solution"
                f"{'' if self.solutions == 1 else 's'}, "
                f"{group(self.updates)} updates, {group(self.nodes)} nodes, "
                f"{self.seconds:.3f} s"
                + ("" if self.complete else " (stopped early)") + ".")


# -- argument checks shared by every entry point ------------------------
def whole_number(name: str, value, *, optional: bool = False,
                 positive: bool = False) -> int | None:
    """``value`` as an int >= 0 (>= 1 when ``positive``); None passes when
    ``optional``.  A wrong type is a TypeError, a wrong value a ValueError,
    each naming the argument."""
    if value is None and optional:
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(
            value, (int, np.integer)):
        raise TypeError(f"{name} must be an integer, got {shorten(value)}"[:200])
    if value < (1 if positive else 0):
        raise ValueError(f"{name} must be a "
                         f"{'positive' if positive else 'non-negative'} "
                         f"integer, got {shorten(value)}"[:200])
    # No count, node or level number reaches int64's limit, so a larger
    # value means the same as that limit (which the kernels can hold).
    return min(int(value), NO_LIMIT)


def seconds(name: str, value) -> float | None:
    """A time limit: None, or a number of seconds >= 0."""
    if value is None:
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(
            value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a number of seconds, got "
                        f"{shorten(value)}"[:200])
    if not value >= 0:  # also refuses NaN
        raise ValueError(f"{name} must be a non-negative number of seconds, "
                         f"got {shorten(value)}")
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
        self.size = int(min(MAX_SLICE_NODES, 4 * self.size,
                            max(16, rate * SLICE_SECONDS)))


class ctrl_c_noted:
    """Within ``with ctrl_c_noted(on_ctrl_c) as noted:``, Ctrl-C sets
    ``noted.hit`` (and calls ``on_ctrl_c``) instead of raising.

    Python runs a signal handler at the next bytecode of the main thread,
    wherever that is; the default handler raises ``KeyboardInterrupt``
    there, and when "there" is a gc or weakref callback, the exception is
    printed and dropped.  Noting the signal loses nothing.  It takes over
    only from Python's default handler, and only in the main thread (the
    only one that receives signals): a program's own handler is left alone.
    """

    def __init__(self, on_ctrl_c=None):
        self.on_ctrl_c = on_ctrl_c
        self.hit = False
        self.previous = None

    def _note(self, signum, frame):
        self.hit = True
        if self.on_ctrl_c is not None:
            self.on_ctrl_c()

    def __enter__(self):
        if threading.current_thread() is threading.main_thread() and \
                signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            self.previous = signal.signal(signal.SIGINT, self._note)
        return self

    def __exit__(self, *exc):
        if self.previous is not None:
            signal.signal(signal.SIGINT, self.previous)
            self.previous = None
        return False


def run(search, stats: Stats, *, limit: int | None, max_nodes: int | None,
        time_limit: float | None, store: bool, given: list[int],
        progress=None):
    """Drive ``search`` (a run object, see the module docstring) to the end.

    A generator: yields a list of solutions (each sorted, ``given``
    included) per slice that found some when ``store``, else the number
    found.  ``stats`` is this run's own record, kept current after every
    slice.  Raises ``BudgetExhausted`` at ``max_nodes`` or ``time_limit``
    and ``Interrupted`` on Ctrl-C; ``progress(search, stats)`` is called
    between slices when given.
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
                        stats.solutions, stats)
                want = (min(remaining, batch) if store else
                        (remaining if remaining != NO_LIMIT else 0))
                nodes_before = int(counters[0])
                t0 = time.perf_counter()
                status, found = search.step(
                    want, slicer.next_bound(nodes_before, node_cap), store)
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
                    stats.solutions, stats)
    except KeyboardInterrupt as stop:
        if isinstance(stop, Interrupted):
            raise
        raise Interrupted(stats.solutions, stats) from None


def wait(futures, stop: np.ndarray, deadline: float | None) -> str | None:
    """Wait for ``futures`` whose kernels watch the flag ``stop``.

    The deadline, Ctrl-C or any exception sets the flag, so that every
    kernel returns within a slice, and all the futures are waited for
    before this returns or raises.  Returns what stopped them early:
    ``"deadline"``, ``"interrupt"`` (Ctrl-C, swallowed here for the caller
    to report with what was found), or None when they all ran to the end.
    """
    reason = None
    try:
        for f in futures:
            while True:
                timeout = 0.1
                if deadline is not None and not stop[0]:
                    timeout = min(timeout, max(0.001, deadline -
                                               time.perf_counter()))
                try:
                    f.result(timeout)
                    break
                except FutureTimeout:
                    if deadline is not None and not stop[0] and \
                            time.perf_counter() >= deadline:
                        stop[0] = 1
                        reason = "deadline"
    except BaseException as error:
        stop[0] = 1
        for f in futures:
            try:
                f.result()
            except BaseException:
                pass
        if isinstance(error, KeyboardInterrupt):
            return "interrupt"
        raise
    return reason


def batch_chunks(nbatch: int, threads: int, chunks_per_thread: int):
    """How a batch of ``nbatch`` instances is cut for ``threads`` threads:
    the threads worth starting, and the chunk boundaries (instance
    numbers, rising from 0 to ``nbatch``).  Many more chunks than threads,
    taken in turn: instances differ a lot in cost, and a static split
    would leave a thread idle; one thread takes the batch whole."""
    threads = max(1, min(threads, nbatch))
    bounds = np.linspace(0, nbatch, min(
        nbatch, chunks_per_thread * threads if threads > 1 else 1) + 1)
    return threads, np.unique(bounds.astype(np.int64))


def flat_paths(paths) -> tuple[np.ndarray, np.ndarray]:
    """The paths of a split (each a list of nodes: one instance of a batch)
    in ``solve_batch``'s CSR form: ``nodes`` (int32) and ``starts``, where
    instance ``b`` is ``nodes[starts[b]:starts[b + 1]]``."""
    starts = np.zeros(len(paths) + 1, np.int64)
    np.cumsum([len(path) for path in paths], out=starts[1:])
    nodes = np.array([p for path in paths for p in path], np.int32)
    return nodes, starts


def run_tasks(task, ntasks: int, threads: int, stop: np.ndarray,
              deadline: float | None) -> str | None:
    """``task(k)`` for k in ``range(ntasks)`` on a pool of ``threads``
    threads, whose kernels watch ``stop``; waited for as ``wait`` does,
    whose answer this returns.  From the first task on, Ctrl-C raises
    ``stop`` itself."""
    pool = ThreadPoolExecutor(threads)
    noted = ctrl_c_noted(lambda: stop.__setitem__(0, 1))
    try:
        with noted:
            futures = [pool.submit(task, k) for k in range(ntasks)]
            reason = wait(futures, stop, deadline)
    except BaseException:
        stop[0] = 1  # nothing may keep a kernel running past this call
        raise
    finally:
        pool.shutdown(wait=True)
    return "interrupt" if noted.hit else reason


def finish_split(stats: Stats, t0: float, shallow: int, counts: np.ndarray,
                 work: np.ndarray, stopped_by: str | None) -> int:
    """Close a count that split the top of its tree over threads.

    ``shallow`` solutions were met while splitting; ``counts``, ``work``
    and ``stopped_by`` are what the batch of subtrees returned (see
    ``dlx.links.run_batch``).  Adds the subtrees' work to ``stats`` and
    returns the count, or raises ``Interrupted`` (Ctrl-C) or
    ``BudgetExhausted`` (the deadline) with what was counted.  A subtree cut
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
            f"solution(s) found", stats.solutions, stats)
    stats.complete = True
    return stats.solutions
