"""Counts that take hours: a split's jobs run anywhere, checkpointed.

``count`` splits the tree (``dlx.services.split``), runs the jobs in this
process, or on a process pool or any executor (``dlx.services.runner``,
the runner of every split search's jobs, over ``dlx.services.pool``),
records each in a checkpoint (``dlx.services.checkpoint``) and reports
progress (``dlx.services.progress``); the figures add up to one search's
(see ``dlx.services.split``).  It works for every engine that splits.

On a pool of workers each job stops after a node budget (a share of the
whole tree's estimated nodes) where its engine can hand back its
unexplored rest as new jobs (``Engine.hands_back``): the node where it
stopped and the untried siblings of every node on its path.  So the
figures still add up exactly, and a job whose size the estimate missed
(polyomino trees are very irregular) cannot hold up the end of a count.

A memoized count in jobs (``dlx.services.memo_jobs``) is the same count
with another way of counting a job (``memo``: the split's engine, how a
job is counted here and on a worker, and the memo's figures).
"""

from __future__ import annotations

import concurrent.futures as cf
import time
from collections.abc import Callable, Sequence

from ..engines import BY_NAME
from ..engines.base import NO_LIMIT, JobResult
from . import runner
from .checkpoint import Checkpoint
from .pool import Payload, run_jobs
from .progress import Progress, progress_bar, slice_progress
from .runner import UNESTIMATED_BUDGET
from .search import BudgetExhausted, Interrupted, Stats, problem_search, run
from .split import (
    JOBS_PER_WORKER,
    MIN_JOBS,
    Job,
    Split,
    problem_digest,
    split,
    splitting_engine,
)

__all__ = ["count", "job_budget"]

# On a pool of workers a job stops after a node budget and hands back its
# unexplored rest as new jobs: the budget is the tree's estimated nodes
# over BUDGET_PER_WORKER pieces per worker, so that the last pieces to
# finish hold up their workers for a small share of the count (in a
# simulation of 6x10 pentominoes on 100 workers, bench/longcount.py, 8
# left 8% of the workers' time idle, 32 left 2%) ...
BUDGET_PER_WORKER = 32
# ... but never below this many nodes (a few tens of milliseconds), so a
# piece's own cost (a copy of the arrays, its givens chosen, a task sent)
# is lost in it.
MIN_BUDGET = 1 << 18
# (Where the split made no estimate: runner.UNESTIMATED_BUDGET, which the
# jobs of best share.)


def job_budget(plan: Split, workers: int) -> int:
    """The node budget of a job run by ``workers`` workers (0: none):
    ``BUDGET_PER_WORKER`` pieces per worker of the estimated tree, at
    least ``MIN_BUDGET`` nodes.

    Args:
        plan: The split, with its estimate of the tree.
        workers: How many workers run the jobs.

    Returns:
        The node budget, 0 for none.
    """
    if not plan.estimated_nodes:
        return 0
    # (An empty 9x9 Sudoku's tree is estimated far beyond int64.)
    return min(
        NO_LIMIT,
        max(
            MIN_BUDGET,
            int(plan.estimated_nodes / (BUDGET_PER_WORKER * max(1, workers))),
        ),
    )


def count(
    problem,
    *,
    given: Sequence[int] = (),
    mrv_cutoff: int = 0,
    jobs: int = 0,
    executor: cf.Executor | None = None,
    split_into: int | None = None,
    checkpoint=None,
    progress: Callable[[Progress], None] | bool | None = None,
    plan: Split | None = None,
    budget: int | None = None,
    algorithm: str = "auto",
    memo=None,
) -> int:
    """Count every solution of ``problem`` as independent jobs: see
    ``dlx.jobs.count``, which checks a user's arguments once
    (``dlx.options``); here they come checked (``given``: option numbers,
    each once; ``split_into``: None or a whole number >= 1).

    ``memo`` (a ``dlx.services.memo_jobs.MemoJobs``): count each job with
    the memo instead of the engine's search (no budget: a job runs to its
    end)."""
    workers = runner.worker_count(executor, jobs)
    if plan is not None:
        engine = BY_NAME[plan.engine]
    elif memo is not None:
        engine = memo.engine(problem)
    else:
        engine = splitting_engine(problem, algorithm)
    if (
        memo is not None
        and executor is None
        and workers > 1
        and checkpoint is None
        and plan is None
    ):
        found = memo.probe(problem, given, runner.SERIAL_PROBE_NODES)
        if found is not None:
            return found
    elif (
        executor is None
        and workers > 1
        and checkpoint is None
        and plan is None
    ):
        try:  # a small tree is over before a process pool would start
            # (one search by the engine itself, with the checked givens:
            # not back up through ExactCover.count, which checks again)
            return sum(
                problem_search(
                    problem,
                    engine,
                    limit=None,
                    given=list(given),
                    max_nodes=runner.SERIAL_PROBE_NODES,
                    time_limit=None,
                    cutoff=mrv_cutoff,
                    store=False,
                )
            )
        except BudgetExhausted:
            pass
    fingerprint = problem_digest(problem)
    if plan is None:
        target = split_into
        if target is None and checkpoint is not None:
            header = Checkpoint.read_header(checkpoint)
            if header is not None and header.get("problem") == fingerprint:
                target = header.get("target")
        if target is None and memo is not None:
            target = memo.split_into(workers)
        if target is None:
            target = max(MIN_JOBS, JOBS_PER_WORKER * workers)
        try:
            plan = split(
                problem,
                split_into=target,
                given=given,
                mrv_cutoff=mrv_cutoff,
                engine=engine,
            )
        except KeyboardInterrupt:
            # Before the checkpoint is read: its jobs are counted all the
            # same (the partial count is never below what it holds).
            held = Checkpoint.recorded(
                checkpoint, fingerprint, engine.name, given, mrv_cutoff
            )
            problem.stats = Stats(solutions=held, complete=False)
            raise Interrupted(held, problem.stats) from None
    if memo is not None:
        budget = 0  # the memo's count of a job cannot hand back its rest
    elif budget is None and engine.hands_back:
        budget = job_budget(plan, workers) or UNESTIMATED_BUDGET
    elif budget is None:
        budget = 0
    log = None
    if checkpoint is not None:
        log = Checkpoint(checkpoint, fingerprint, plan)
    bar = None
    if progress is True:
        progress = bar = progress_bar()
    start = time.perf_counter()
    stats = (Stats if memo is None else memo.Stats)(
        plan.nodes, plan.updates, plan.solutions, 0.0, False
    )
    fraction = plan.settled
    done = 0
    total = len(plan.jobs)

    def absorb(job: Job, result: JobResult) -> list:
        """Add a job's figures; its rest (jobs handed back) is returned."""
        nonlocal fraction, done, total
        stats.solutions += result.solutions
        stats.nodes += result.nodes
        stats.updates += result.updates
        if memo is not None:
            memo.absorb(stats, result)
        rest = [
            Job(tuple(path), job.share * share) for path, share in result.rest
        ]
        fraction += job.share - sum(j.share for j in rest)
        done += 1
        total += len(rest)
        return rest

    # Resume: what the checkpoint holds is added up, the jobs it handed
    # back are looked up in turn, and what is left is run.
    pending: list[Job] = []
    handed_back: list[Job] = []
    stack = [(job, False) for job in reversed(plan.jobs)]
    while stack:
        job, back = stack.pop()
        result = log.done.get(tuple(job.path)) if log else None
        if result is None:
            (handed_back if back else pending).append(job)
        else:
            stack.extend((j, True) for j in reversed(absorb(job, result)))

    def report(seconds=None):
        assert callable(progress)  # True became a bar above
        if seconds is None:
            seconds = time.perf_counter() - start
        progress(
            Progress(
                min(fraction, 1.0),
                done,
                total,
                stats.solutions,
                stats.nodes,
                seconds,
            )
        )

    def finished(job, result) -> list:
        # Added up before it is recorded: Ctrl-C during the record's fsync
        # must not leave the partial count below what the file holds.
        rest = absorb(job, result)
        if log is not None:
            log.record(job.path, result)
        if progress:
            report()
        return rest

    def within(job):
        """Progress inside a job counted here: its share of the tree."""
        if not progress:
            return None

        def report(inside: Progress):
            progress(
                Progress(
                    min(fraction + job.share * inside.fraction, 1.0),
                    done,
                    total,
                    stats.solutions + inside.solutions,
                    stats.nodes + inside.nodes,
                    time.perf_counter() - start,
                )
            )

        return report

    if progress and done:  # resumed: show what the checkpoint holds
        report(0.0)
    try:
        run_all(
            problem,
            engine,
            plan,
            pending,
            handed_back,
            executor,
            workers,
            fingerprint,
            finished,
            within,
            budget,
            memo,
        )
    except KeyboardInterrupt:
        stats.seconds = time.perf_counter() - start
        problem.stats = stats
        raise Interrupted(stats.solutions, stats) from None
    finally:
        if bar is not None:
            bar.close()
        if log is not None:
            log.close()
    stats.seconds = time.perf_counter() - start
    stats.complete = True
    problem.stats = stats
    return stats.solutions


def run_here(problem, engine, plan: Split, job: Job, progress) -> JobResult:
    """Count ``job`` in this process, to its end: in slices (Ctrl-C, and
    ``progress`` inside it) where the engine can start a run at the job's
    root, else in one call."""
    arrays = engine.arrays(problem)
    given_nodes = engine.option_nodes(arrays, plan.given)
    started = engine.start_job(
        arrays, given_nodes, tuple(job.path), plan.mrv_cutoff
    )
    if started is None:
        return engine.run_job(
            arrays, given_nodes, tuple(job.path), plan.mrv_cutoff
        )
    base = int(started.counters[1])
    if started.clash:
        return JobResult(0, 0, 0)
    if started.covered:
        return JobResult(1, 1, 0)
    stats = Stats(complete=False)
    stats.updates = base
    with slice_progress(progress) as hook:
        for _ in run(
            started,
            stats,
            limit=None,
            max_nodes=None,
            time_limit=None,
            store=False,
            given=[],
            progress=hook if progress else None,
        ):
            pass
    return JobResult(
        stats.solutions, stats.nodes, stats.updates - base, stats.seconds
    )


def run_all(
    problem,
    engine,
    plan: Split,
    pending: Sequence[Job],
    handed_back: Sequence[Job],
    executor,
    workers: int,
    fingerprint: str,
    finished,
    within,
    budget: int,
    memo=None,
) -> None:
    """Run ``pending`` and ``handed_back`` (jobs a budget cut short) and
    every job they hand back; ``finished(job, result)`` (called here, as
    results arrive) records a result and returns the jobs it hands back.
    ``within(job)`` is the progress callable of a job run here, or None.

    The jobs wait in one queue: jobs handed back first (they come from
    jobs known to be large; shallower first, as a work-stealing scheduler
    takes the oldest), then the split's largest first by its estimate
    (else by Knuth's measure: a shallower job stands for more of the
    tree), so the last jobs to finish are small ones.  Only about two
    tasks per worker are out at a time, so that a job handed back runs
    next, not after every job submitted before it (``runner.run``).
    ``memo``: as for ``count``.
    """
    if not pending and not handed_back:
        return
    cutoff = plan.mrv_cutoff
    first = sorted(handed_back, key=lambda j: -j.share)
    order = sorted(pending, key=lambda job: (-job.size, -job.share))
    if executor is None and workers <= 1:
        for job in first + order:  # here, one after the other, to its end
            if memo is not None:
                finished(job, memo.run_here(problem, plan, job))
            else:
                finished(
                    job, run_here(problem, engine, plan, job, within(job))
                )
        return
    name, given = engine.name, tuple(plan.given)

    def task(handle, batch):
        paths = [job.path for job in batch]
        if memo is not None:
            return memo.task(handle, plan, paths)
        return run_jobs, handle, name, given, paths, cutoff, budget

    def done(batch, results) -> list:
        back = []
        for job, result in zip(batch, results):
            back += finished(job, result)
        return back

    runner.run(
        Payload(problem, fingerprint),
        order,
        workers=workers,
        executor=executor,
        task=task,
        done=done,
        window=2 * max(1, workers),
        first=first,
        # Handed back: shallowest first.
        back_order=lambda back: sorted(back, key=lambda j: j.share)[::-1],
    )
