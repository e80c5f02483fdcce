"""The k cheapest solutions (Knuth's DLX5), with budgets and Ctrl-C, in
one search, on threads or in jobs.

``best(problem, k)`` asks an engine that offers costs (``Engine.costs``:
``dlx.engines.dlx5``, DLX5, and DLX3 with costs for bounds) for a
resumable search of the ``k`` cheapest solutions and drives it in slices
with ``dlx.services.search.run``, so that ``max_nodes``, ``time_limit``,
``stop``, Ctrl-C and progress behave as in every other search.  A search
stopped early raises ``BudgetExhausted`` or ``Interrupted`` carrying
``best``, the cheapest solutions found so far, and ``proven = False``:
cheaper ones may exist.

Split searches.  With ``threads`` > 1, or ``jobs``/``executor``, the
tree is cut into jobs by ``dlx.services.split`` (the engine's ``top``),
each job searched for its own ``k`` cheapest by ``start_best(path=)``
under a *threshold*, the net cost that a solution must beat to matter:

* threads share one threshold array in memory: a run reads it at every
  node and lowers it when it finds better, so every thread prunes with
  the best that any has found, at once;
* a job sent to a process or a Dask worker takes the threshold of the
  moment with it and returns its ``k`` cheapest; the parent keeps the
  ``k`` cheapest of all (``Cheapest``) and sends their threshold with the
  next job;
* a process pool of our own, forked, shares the threshold in memory
  besides (an anonymous shared mapping), as threads do.

On a pool of workers (processes, an executor) a job stops after a node
budget (``budget``; by default ``runner.UNESTIMATED_BUDGET``, as a
count's jobs where the split made no estimate: ``best`` splits without
probes) and hands back its unexplored rest as new jobs, the node where
it stopped and the untried branches on its path
(``dlx.engines.base.count_job``, the counting engines' routine), which
run next, each sent with the threshold of its moment as any job is.  So
a job far larger than the others cannot hold up the end of the search.

The merge is exact: a threshold is always the ``k``-th cost of ``k``
distinct solutions found, so no solution cheaper than the true ``k``-th
is ever pruned, and a job's heap never drops one (that would take ``k``
cheaper ones in the job); the ``k`` cheapest of the union are the ``k``
cheapest of the problem (ties arbitrary, as in DLX5).  Which options
each way takes is declared once, in ``dlx.options`` (its table is in
``docs/engines.md``).

A split search's nodes and updates are not one search's: they depend on
when each job learns of a better threshold (and a job's rest, handed back,
starts without the solutions its job had found: only the threshold they
set goes with it).  What is exact: the ``k`` cheapest, and, with no
threshold to share (``k`` at least the solutions), every solution found
in exactly one job and the pieces' nodes and updates adding up to their
job's.  There are no checkpoints for ``best``.
"""

from __future__ import annotations

import hashlib
import heapq
import mmap
import multiprocessing
import os
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ..engines import BY_NAME, Unsupported, engine_for, refuse
from ..engines.base import EXHAUSTED, NO_LIMIT, count_job
from ..engines.threads import run_tasks
from . import runner, search
from .pool import (
    Payload,
    problem_for,
)
from .progress import Progress, progress_bar, slice_progress
from .search import (
    BudgetExhausted,
    Interrupted,
    Stats,
    whole_number,
)
from .split import JOBS_PER_WORKER, MIN_JOBS, Job, problem_digest, split

__all__ = [
    "best",
    "Cheapest",
    "BestResult",
    "best_jobs",
    "JOBS_PER_THREAD",
]

# Jobs per thread: many more than threads, taken in the order the search
# meets them (cheapest options first), since they differ a lot in size.
JOBS_PER_THREAD = 64
# A job on a thread runs in slices of this many nodes, between which it
# looks at the stop flag (the deadline, the stop event, Ctrl-C).
THREAD_SLICE_NODES = 1 << 14
# (On an executor other than our own process pool jobs go in batches,
# runner.TASKS_PER_WORKER per worker: a batch searches its jobs in turn,
# each under the threshold the ones before it left.)


class Cheapest:
    """The ``k`` cheapest distinct solutions found so far, from any
    number of searches: ``(cost, sorted option numbers)`` pairs.
    ``threshold()``: the net cost (``total_tax`` off) a solution must
    beat to join them, ``NO_LIMIT`` until there are ``k``."""

    def __init__(self, k: int, total_tax: int):
        self.k = k
        self.total_tax = total_tax
        self.found: dict = {}  # options -> cost
        self.lock = threading.Lock()

    def add(self, solutions) -> None:
        with self.lock:
            for cost, options in solutions:
                self.found[tuple(sorted(options))] = cost
            if len(self.found) > 4 * self.k:
                self.found = {s: c for c, s in self._sorted()}

    def _sorted(self):
        return sorted(
            ((c, s) for s, c in self.found.items()), key=lambda pair: pair[0]
        )[: self.k]

    def best(self) -> list:
        with self.lock:
            return [(c, list(s)) for c, s in self._sorted()]

    def threshold(self) -> int:
        with self.lock:
            top = self._sorted()
        if len(top) < self.k:
            return int(NO_LIMIT)
        # (a wide problem's k-th may cost NO_LIMIT or more: no threshold)
        return min(top[-1][0] - self.total_tax, int(NO_LIMIT))


@dataclass
class BestResult:
    """What a worker's jobs found: ``best``, their ``k`` cheapest (``(cost,
    options)``, the givens left out), and their figures; ``rest``, for
    each job in turn, the jobs it handed back when its node budget ran
    out (``(path, share)`` each, ``share`` of that job's subtree by
    Knuth's measure; ``[]`` for a job run to its end)."""

    best: list = field(default_factory=list)
    nodes: int = 0
    updates: int = 0
    solutions: int = 0
    seconds: float = 0.0
    rest: list = field(default_factory=list)


def run_best_job(
    engine, arrays, given_nodes, path, k, shared, flag=None, budget=0
):
    """Search the subtree at ``path`` for its ``k`` cheapest solutions
    under the threshold array ``shared`` to its end, or until ``flag[0]``
    is set, or (``budget`` > 0) for ``budget`` nodes, its unexplored rest
    then handed back (``BestResult.rest``, ``count_job``): ``(BestResult,
    complete)``."""
    t0 = time.perf_counter()
    run = engine.start_best(arrays, given_nodes, k, shared, path)
    if budget > 0:
        job = count_job(run, tuple(path), budget)
        return BestResult(
            run.best(),
            job.nodes,
            job.updates,
            job.solutions,
            job.seconds,
            [job.rest],
        ), True
    base = int(run.counters[1])
    complete = True
    nodes = solutions = 0
    if run.covered:  # the path is a solution: a leaf, as one search has it
        nodes = solutions = 1
    elif not run.clash:
        while True:
            if flag is not None and flag[0]:
                complete = False
                break
            status, _ = run.step(
                0, int(run.counters[0]) + THREAD_SLICE_NODES, False
            )
            if status == EXHAUSTED:
                break
        nodes, solutions = int(run.counters[0]), int(run.counters[2])
    return BestResult(
        run.best(),
        nodes,
        int(run.counters[1]) - base,
        solutions,
        time.perf_counter() - t0,
        [[]],
    ), complete


# Thresholds in memory shared with the workers of a process pool forked
# by ``pooled`` (a one-element int64 array over an anonymous shared
# mapping, which a fork keeps shared), by the key passed with each task.
_in_shared_memory: dict = {}


def _shared_threshold(value: int):
    """A one-element int64 array in memory that processes forked from
    this one share."""
    mapping = mmap.mmap(-1, 8)  # anonymous, MAP_SHARED
    shared = np.frombuffer(mapping, np.int64)
    shared[0] = value
    return shared


def best_jobs(
    payload,
    engine: str,
    given: tuple,
    paths,
    k: int,
    threshold: int,
    key: str | None = None,
    budget: int = 0,
) -> BestResult:
    """In a worker: the jobs ``paths`` (below the options ``given``) of
    ``payload``'s problem searched in turn by the engine named ``engine``,
    each under the threshold the ones before it left (``threshold`` to
    begin with), each for at most ``budget`` nodes (0: to its end): their
    ``k`` cheapest solutions, figures and the rest of each job cut short.
    ``key`` names a threshold in shared memory (a pool forked by
    ``pooled``), which the runs then read at every node and lower, as
    threads do."""
    problem = problem_for(payload)
    search_engine = BY_NAME[engine]
    arrays = search_engine.arrays(problem)
    nodes = search_engine.option_nodes(arrays, given)
    shared = _in_shared_memory.get(key)
    if shared is None:
        shared = np.array([threshold], np.int64)
    elif threshold < shared[0]:
        shared[0] = threshold
    total = BestResult()
    found: list = []
    for path in paths:
        result, _ = run_best_job(
            search_engine, arrays, nodes, tuple(path), k, shared, None, budget
        )
        found += result.best
        total.nodes += result.nodes
        total.updates += result.updates
        total.solutions += result.solutions
        total.seconds += result.seconds
        total.rest += result.rest
        found = sorted(found, key=lambda pair: pair[0])[:k]
        if len(found) == k:
            shared[0] = min(int(shared[0]), found[-1][0] - arrays.total_tax)
    total.best = found
    return total


def best(
    problem,
    way: str = "serial",
    *,
    k: int = 1,
    given: Sequence[int] = (),
    max_nodes: int | None = None,
    time_limit: float | None = None,
    threads: int = 1,
    jobs: int | None = None,
    executor=None,
    split_into: int | None = None,
    checkpoint=None,
    progress=None,
    stop=None,
    threshold=None,
    engine=None,
    budget: int | None = None,
) -> list[tuple[int, list[int]]]:
    """The ``k`` cheapest solutions of ``problem`` (an ``ExactCover``),
    cheapest first: ``(cost, option numbers)`` each, the numbers sorted
    and the ``given`` options among them; fewer when the problem has
    fewer solutions, ``[]`` when it has none.  Ties are broken in no
    particular order, as in DLX5.  ``k`` is any positive int, however
    large: memory grows with the solutions found, never with ``k``
    (``dlx.engines.dlx5.GrowingHeap``).  Costs are exact Python ints,
    sums past 2**63 included (``dear``).

    The arguments come checked, once, by ``dlx.options.check`` (which
    ``ExactCover.best`` calls): ``way`` is the way it chose (``serial``,
    ``threads`` or ``jobs``), ``given`` option numbers, ``threads`` the
    number of threads, ``stop`` None or an event, and the options the
    way does not take are None (``checkpoint`` always is).

    ``problem.stats`` records the search (DLX5's nodes and updates;
    ``solutions``: the solutions found that beat the threshold of their
    moment).  ``max_nodes``/``time_limit``/``stop``/Ctrl-C raise
    ``BudgetExhausted``/``Interrupted`` with ``best`` (what was found)
    and ``proven = False``.  ``progress``: a callable given a
    ``dlx.jobs.Progress`` a few times a second (or after each job), or
    True for a bar on stderr.  ``threads`` > 1, ``jobs`` (processes; 0:
    one per core, 1: jobs in this process) or ``executor`` split the
    search (see the module docstring; ``split_into``: how many jobs).
    ``threshold``: a one-element int64 array of net costs shared with
    other searches, for a serial search only (see
    ``dlx.engines.dlx5.CostRun``).  ``budget``: the nodes a job explores
    on a pool of workers (processes, ``executor``) before it hands back
    its rest (None: ``runner.UNESTIMATED_BUDGET``; 0: never; jobs run in this
    process, ``jobs=1``, run to their end), for a search in jobs only.
    """
    if threshold is not None and way != "serial":
        raise Unsupported(
            "threshold is for a search in one process, not one "
            + ("in jobs" if way == "jobs" else "on threads")
        )
    budget = whole_number("budget", budget, optional=True)
    if budget is not None and way != "jobs":
        raise Unsupported(
            "budget is for a search in jobs, not "
            + ("one on threads" if way == "threads" else "one search")
        )
    engine = engine or engine_for(problem, purpose="best")
    start = time.perf_counter()
    found = _cheapest(
        problem,
        engine,
        way,
        k,
        given,
        max_nodes,
        time_limit,
        threads,
        jobs,
        executor,
        split_into,
        progress,
        stop,
        threshold,
        budget,
    )
    if (
        len(found) < k
        and threshold is None  # (else others may hold the cheaper ones)
        and wide(engine, problem, given)
    ):
        left = None
        if time_limit is not None:
            left = max(0.0, time_limit - (time.perf_counter() - start))
        return dear(problem, k, given, found, left, stop)
    return found


def _cheapest(
    problem,
    engine,
    way,
    k,
    given,
    max_nodes,
    time_limit,
    threads,
    jobs,
    executor,
    split_into,
    progress,
    stop,
    threshold,
    budget=None,
) -> list:
    """The ``k`` cheapest solutions of net cost below ``NO_LIMIT`` (all
    of them unless the problem is ``wide``) in ``way``."""
    if way == "serial":
        if progress:
            with slice_progress(progress) as hook:
                return serial(
                    problem,
                    engine,
                    k,
                    given,
                    max_nodes,
                    time_limit,
                    stop,
                    hook,
                    threshold,
                )
        return serial(
            problem,
            engine,
            k,
            given,
            max_nodes,
            time_limit,
            stop,
            None,
            threshold,
        )
    if not engine.splits:
        raise refuse(
            "splitting the search for the cheapest solutions",
            problem.kind,
            engine,
        )
    if way == "threads":
        return on_threads(problem, engine, k, given, threads, time_limit, stop)
    workers = runner.worker_count(executor, jobs)
    return in_jobs(
        problem,
        engine,
        k,
        given,
        workers,
        executor,
        split_into,
        time_limit,
        stop,
        progress,
        runner.UNESTIMATED_BUDGET if budget is None else budget,
    )


def wide(engine, problem, given) -> bool:
    """Whether some solution through ``given`` may cost more than the cost
    kernel's 64-bit sums reach (see ``dlx.engines.dlx5.Reach``)."""
    arrays = engine.arrays(problem)
    return arrays.wide_with(engine.option_nodes(arrays, given))


def dear(problem, k, given, found, time_limit, stop) -> list:
    """The ``k`` cheapest solutions of a ``wide`` problem of which the
    cost kernel found only ``found``, fewer than ``k``: then these are all
    the solutions of net cost below ``NO_LIMIT`` (the threshold never
    fell), and the others cost ``NO_LIMIT`` or more beyond the taxes,
    past what the kernel's 64-bit sums reach.  Every solution is listed
    (a plain search, without DLX5's pruning) and priced exactly in Python
    ints; the ``k`` cheapest are kept, in memory that grows with the
    solutions, never with ``k``.  Budgets, ``stop`` and Ctrl-C as in
    ``serial``: ``best`` holds the cheapest known when stopped."""
    costs = problem.costs  # Python ints, made once
    heap: list = []  # max-heap of (-cost, options): the k cheapest
    seen: set = set()

    def keep(cost: int, options: tuple) -> None:
        if options in seen:
            return
        if len(heap) < k:
            heapq.heappush(heap, (-cost, options))
            seen.add(options)
        elif cost < -heap[0][0]:
            _, dropped = heapq.heapreplace(heap, (-cost, options))
            seen.discard(dropped)
            seen.add(options)

    def ranked() -> list:
        return [(-c, list(o)) for c, o in sorted(heap, reverse=True)]

    for cost, options in found:
        keep(cost, tuple(sorted(options)))
    try:
        for solution in problem.solutions(
            given=given, time_limit=time_limit, stop=stop
        ):
            keep(sum(costs[o] for o in solution), tuple(solution))
    except (BudgetExhausted, Interrupted) as stopped:
        stopped.best = ranked()
        stopped.proven = False
        raise
    return ranked()


def serial(
    problem, engine, k, given, max_nodes, time_limit, stop, hook, threshold
) -> list:
    """One search in slices (``hook(run, stats)`` between slices)."""
    arrays = engine.arrays(problem)
    nodes = engine.option_nodes(arrays, given)
    given = sorted(given)
    stats = problem.stats = Stats(complete=False)
    run = engine.start_best(arrays, nodes, k, threshold)
    stats.updates = int(run.counters[1])
    if run.clash:  # the givens overlap: no solution
        stats.complete = True
        return []
    if run.covered:  # the givens are the one solution, a leaf node
        stats.nodes = stats.solutions = 1
        stats.complete = True
        return [(run.base + arrays.total_tax, given)]

    def found():
        return [
            (cost, sorted(options + given)) for cost, options in run.best()
        ]

    try:
        for _ in search.run(
            run,
            stats,
            limit=None,
            max_nodes=max_nodes,
            time_limit=time_limit,
            store=False,
            given=[],
            progress=hook,
            stop=stop,
        ):
            pass
    except (BudgetExhausted, Interrupted) as stopped:
        stopped.best = found()
        stopped.proven = False
        raise
    return found()


class _Split:
    """What a split search shares between its steps: the ``Cheapest``
    so far, the figures, the clock."""

    def __init__(self, problem, engine, k, given, time_limit, stop):
        self.problem, self.engine, self.k = problem, engine, k
        self.event = stop
        self.arrays = engine.arrays(problem)
        self.given = sorted(given)
        self.nodes = engine.option_nodes(self.arrays, given)
        self.cheapest = Cheapest(k, self.arrays.total_tax)
        self.stats = Stats(complete=False)
        self.lock = threading.Lock()
        self.start = time.perf_counter()
        self.deadline = None if time_limit is None else self.start + time_limit

    def left(self) -> float | None:
        if self.deadline is None:
            return None
        return max(0.0, self.deadline - time.perf_counter())

    def probe(self, stop):
        """The first ``runner.SERIAL_PROBE_NODES`` nodes in one search: its answer
        when that is the whole search, else None (what it found kept)."""
        try:
            return serial(
                self.problem,
                self.engine,
                self.k,
                self.given,
                runner.SERIAL_PROBE_NODES,
                self.left(),
                stop,
                None,
                None,
            )
        except BudgetExhausted as budget:
            self.add(budget.best, budget.stats, given_in=True)
            if budget.stats.nodes < runner.SERIAL_PROBE_NODES:
                raise self.stopped(budget) from budget
        except Interrupted as ctrl_c:
            self.add(ctrl_c.best, ctrl_c.stats, given_in=True)
            raise self.stopped(ctrl_c) from ctrl_c
        return None

    def add(self, found, figures, given_in=False) -> None:
        """A search's ``found`` (the givens left out unless ``given_in``)
        and its figures (a ``Stats`` or a ``BestResult``)."""
        if not given_in:
            found = [(cost, options + self.given) for cost, options in found]
        self.cheapest.add(found)
        with self.lock:  # threads add at once
            self.stats.nodes += figures.nodes
            self.stats.updates += figures.updates
            self.stats.solutions += figures.solutions

    def split(self, split_into: int):
        """The top of the tree cut into about ``split_into`` jobs: the paths of
        the solutions met (each a job of one leaf) and of the jobs, in
        the order the search meets them."""
        plan = split(
            self.problem,
            split_into=split_into,
            given=self.given,
            probes=0,
            engine=self.engine,
        )
        self.stats.nodes += plan.nodes
        self.stats.updates += plan.updates
        return [tuple(p) for p in plan.leaves], plan.jobs

    def finish(self) -> list:
        self.stats.seconds = time.perf_counter() - self.start
        self.stats.complete = True
        self.problem.stats = self.stats
        return self.cheapest.best()

    def stopped(self, why):
        """``why`` (``BudgetExhausted`` or ``Interrupted``, or the reason
        the threads stopped) as the exception to raise, with ``best``."""
        self.stats.seconds = time.perf_counter() - self.start
        self.problem.stats = self.stats
        found = self.cheapest.best()
        error: BudgetExhausted | Interrupted
        if why == "interrupt" or isinstance(why, KeyboardInterrupt):
            error = Interrupted(len(found), self.stats)
        else:
            if isinstance(why, BudgetExhausted):  # a run's, in this thread
                why = (
                    "stopped"
                    if self.event is not None and self.event.is_set()
                    else "time"
                )
            what = (
                "its time limit"
                if why in ("deadline", "time")
                else "its stop event"
            )
            error = BudgetExhausted(
                f"search stopped at {what} with {len(found)} of the "
                f"cheapest solutions found",
                len(found),
                self.stats,
            )
        error.best = found
        error.proven = False
        return error


def on_threads(problem, engine, k, given, threads, time_limit, stop) -> list:
    """The tree's jobs on ``threads`` threads sharing one threshold."""
    s = _Split(problem, engine, k, given, time_limit, stop)
    done = s.probe(stop)
    if done is not None:
        return done
    try:
        leaves, jobs = s.split(JOBS_PER_THREAD * threads)
    except KeyboardInterrupt:
        raise s.stopped("interrupt") from None
    paths = leaves + [job.path for job in jobs]
    shared = np.array([s.cheapest.threshold()], np.int64)
    flag = np.zeros(1, np.uint8)

    def task(i):
        if flag[0]:
            return
        result, _ = run_best_job(
            engine, s.arrays, s.nodes, paths[i], k, shared, flag
        )
        s.add(result.best, result)
        # The k cheapest of all may beat each job's own k-th: share it.
        threshold = s.cheapest.threshold()
        if threshold < shared[0]:
            shared[0] = threshold

    engine.load("search")
    reason = run_tasks(task, len(paths), threads, flag, s.deadline, stop)
    if reason is not None:
        raise s.stopped(reason)
    return s.finish()


def in_jobs(
    problem,
    engine,
    k,
    given,
    workers,
    executor,
    split_into,
    time_limit,
    stop,
    progress,
    budget=0,
) -> list:
    """The tree's jobs in this process (``workers`` 1), on a pool of
    ``workers`` processes or on ``executor``: each job takes the
    threshold of the moment, the parent merges what they find; on a
    pool, a job hands back its rest after ``budget`` nodes (0: never)."""
    s = _Split(problem, engine, k, given, time_limit, stop)
    if executor is None and workers > 1:
        done = s.probe(stop)
        if done is not None:
            return done
    target = split_into or max(MIN_JOBS, JOBS_PER_WORKER * workers)
    bar = None
    if progress is True:
        progress = bar = progress_bar()
    try:
        leaves, jobs = s.split(target)
        for path in leaves:  # a solution each: priced here
            result, _ = run_best_job(engine, s.arrays, s.nodes, path, k, None)
            s.add(result.best, result)
        if executor is None and workers <= 1:
            here(s, jobs, stop, progress)
        else:
            pooled(s, jobs, workers, executor, stop, progress, budget)
    except KeyboardInterrupt:
        raise s.stopped("interrupt") from None
    finally:
        if bar is not None:
            bar.close()
    return s.finish()


def _report(s: _Split, progress, fraction, done, total):
    if progress:
        progress(
            Progress(
                min(fraction, 1.0),
                done,
                total,
                s.stats.solutions,
                s.stats.nodes,
                time.perf_counter() - s.start,
            )
        )


def here(s: _Split, jobs, stop, progress) -> None:
    """Each job in this process in turn, in slices (budgets, Ctrl-C),
    under one threshold array that every job lowers."""
    shared = np.array([s.cheapest.threshold()], np.int64)
    fraction = 0.0
    for done, job in enumerate(jobs):
        shared[0] = min(int(shared[0]), s.cheapest.threshold())
        run = s.engine.start_best(s.arrays, s.nodes, s.k, shared, job.path)
        stats = Stats(complete=False)
        base = stats.updates = int(run.counters[1])
        if run.covered:
            stats.nodes = 1
        elif not run.clash:
            try:
                for _ in search.run(
                    run,
                    stats,
                    limit=None,
                    max_nodes=None,
                    time_limit=s.left(),
                    store=False,
                    given=[],
                    stop=stop,
                ):
                    pass
            except (BudgetExhausted, Interrupted) as why:
                s.add(run.best(), _less(stats, base))
                raise s.stopped(why) from None
        s.add(run.best(), _less(stats, base))
        fraction += job.share
        _report(s, progress, fraction, done + 1, len(jobs))


def _less(stats: Stats, base: int) -> Stats:
    """``stats`` without the updates of reaching the job's root."""
    return Stats(stats.nodes, stats.updates - base, stats.solutions)


def priced_digest(problem) -> str:
    """``problem_digest`` with the options' costs: a worker keeps the
    problem of each digest it met, and two problems that differ only in
    their costs have the same count but not the same cheapest."""
    h = hashlib.sha256(problem_digest(problem).encode())
    h.update(np.asarray(problem.structure().costs, np.int64).tobytes())
    return h.hexdigest()[:32]


def pooled(
    s: _Split, jobs, workers, executor, stop, progress, budget=0
) -> None:
    """The jobs on a process pool of ``workers`` (``executor`` None) or on
    ``executor``, in the order the search meets them; a job cut short by
    its node ``budget`` (0: none) hands back its rest, which runs next
    (shallowest first, as ``dlx.services.jobs`` runs a count's).

    Each task is sent with the threshold of the moment, and its ``k``
    cheapest merged here as it comes back.  On an executor only one task
    per worker is out at a time (two, one waiting with an older
    threshold, took 15% more nodes on bench/costs.py's colors instance:
    3.73 M against 3.26 M; one search takes 3.19 M).  A process pool of
    our own, forked, also shares one threshold in memory with its
    workers, which read it at every node as threads do (bench/costs.py's
    colors-k5 on 2 processes: 9.46 M nodes without, against 6.79 M for
    one search: a job waits for the others to end to hear of their
    solutions), and keeps two tasks per worker out."""
    if not jobs:
        return
    payload = Payload(s.problem, priced_digest(s.problem))
    key = shared = None
    window = max(1, workers)
    if executor is None and "fork" in multiprocessing.get_all_start_methods():
        # (Our own pool forks where it can.)  Set before the pool starts
        # its workers, which inherit it.
        key = f"{payload.digest}:{os.getpid()}:{id(s)}"
        shared = _in_shared_memory[key] = _shared_threshold(
            s.cheapest.threshold()
        )
        window = 2 * max(1, workers)
    fraction, finished, total = 0.0, 0, len(jobs)
    name, given = s.engine.name, tuple(s.given)

    def task(handle, batch):
        paths = [job.path for job in batch]
        threshold = s.cheapest.threshold()  # of the moment
        return (
            best_jobs,
            handle,
            name,
            given,
            paths,
            s.k,
            threshold,
            key,
            budget,
        )

    def done(batch, result) -> list:
        nonlocal fraction, finished, total
        s.add(result.best, result)
        if shared is not None:  # the k cheapest of all, shared
            shared[0] = min(int(shared[0]), s.cheapest.threshold())
        back = []
        for job, rest in zip(batch, result.rest):
            pieces = [Job(tuple(p), job.share * f) for p, f in rest]
            fraction += job.share - sum(piece.share for piece in pieces)
            back += pieces
        finished += len(batch)
        total += len(back)
        _report(s, progress, fraction, finished, total)
        return back

    def check() -> None:
        if s.deadline is not None and time.perf_counter() >= s.deadline:
            raise s.stopped("time")
        if stop is not None and stop.is_set():
            raise s.stopped("stopped")

    try:
        runner.run(
            payload,
            jobs,
            workers=workers,
            executor=executor,
            task=task,
            done=done,
            window=window,
            poll=0.1 if (s.deadline is not None or stop is not None) else None,
            check=check,
            # Handed back: shallowest first.
            back_order=lambda back: sorted(back, key=lambda j: j.share)[::-1],
        )
    finally:
        _in_shared_memory.pop(key, None)
