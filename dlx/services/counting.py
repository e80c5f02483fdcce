"""``ExactCover.count``, routed: the way its checked options chose.

A count runs one of five ways, each a service written once for every
engine that offers it:

* ``serial``: one search in slices (``dlx.services.search``);
* ``threads``: the tree split here and its subtrees counted on threads
  (``dlx.services.parallel``), when ``threads`` > 1;
* ``jobs``: the tree split into jobs run in this process, on processes
  or on any executor, with checkpoints (``dlx.services.jobs``), when
  ``jobs``, ``executor``, ``checkpoint`` or ``split_into`` is given;
* ``memo``: a memoized count (``dlx.services.memo``), by components
  where the problem falls apart (``dlx.services.parts``), when ``memo``,
  ``memo_bytes`` or ``choose`` is given;
* ``memo jobs``: the jobs' split, each job counted by the memo
  (``dlx.services.memo_jobs``), when ``memo`` and a jobs option are.

Which options each way takes is declared once, in ``dlx.options``
(``WAYS``; its table is in ``docs/engines.md``): ``ExactCover.count``
checks them there, once, and hands ``count`` the way and the values.

What the problem's engine cannot do (a memo for a kind it has no key
for, say) is refused by ``dlx.engines.refuse``, in the same words from
every entry point.
"""

from __future__ import annotations

import time
from contextlib import AbstractContextManager, nullcontext

from ..engines import engine_for, refuse
from . import search
from .search import BudgetExhausted, Stats

__all__ = ["count"]


def count(
    problem,
    way: str,
    *,
    limit,
    given,
    max_nodes,
    time_limit,
    threads,
    mrv_cutoff,
    algorithm,
    memo,
    memo_bytes,
    choose,
    jobs,
    executor,
    checkpoint,
    progress,
    split_into,
    stop,
) -> int:
    """See ``ExactCover.count``: ``way`` and the values come checked from
    ``dlx.options.check`` (``given``: option numbers, ``threads``: the
    number of threads)."""
    if way == "memo jobs":
        from . import memo_jobs

        return memo_jobs.count(
            problem,
            given=given,
            memo=memo,
            memo_bytes=memo_bytes,
            choose=choose,
            jobs=jobs,
            executor=executor,
            checkpoint=checkpoint,
            progress=progress,
            split_into=split_into,
        )
    if way == "memo":
        from . import memo as memo_count, parts

        use = memo_count.wanted(problem, memo, choose)
        # By components where the problem falls apart, else the memo alone.
        found = parts.count(
            problem,
            given,
            max_nodes,
            time_limit,
            memo_bytes=memo_bytes,
            choose=choose,
            auto=use == "auto",
            stop=stop,
        )
        if found is not None:
            return found
        # memo="auto" found the memo of little use: count without it.
        if time_limit is not None:
            time_limit = max(0.0, time_limit - problem.stats.seconds)
        return serial(
            problem,
            engine_for(problem),
            None,
            given,
            max_nodes,
            time_limit,
            0,
            None,
            stop,
        )
    if way == "jobs":
        from . import jobs as job_count

        return job_count.count(
            problem,
            given=given,
            mrv_cutoff=mrv_cutoff,
            jobs=1 if jobs is None else jobs,
            executor=executor,
            checkpoint=checkpoint,
            progress=progress,
            split_into=split_into,
            algorithm=algorithm,
        )
    if way == "threads":
        return threaded(
            problem,
            engine_for(problem, algorithm, "split"),
            given,
            threads,
            mrv_cutoff,
            time_limit,
            stop,
        )
    return serial(
        problem,
        engine_for(problem, algorithm),
        limit,
        given,
        max_nodes,
        time_limit,
        mrv_cutoff,
        progress,
        stop,
    )


def serial(
    problem,
    engine,
    limit,
    given,
    max_nodes,
    time_limit,
    cutoff,
    progress,
    stop,
) -> int:
    """One search in slices, counting (with a progress hook if asked)."""
    hooked: AbstractContextManager = nullcontext(None)
    if progress:
        from .progress import slice_progress

        hooked = slice_progress(progress)
    with hooked as hook:
        return sum(
            search.problem_search(
                problem,
                engine,
                limit=limit,
                given=given,
                max_nodes=max_nodes,
                time_limit=time_limit,
                cutoff=cutoff,
                store=False,
                progress=hook,
                stop=stop,
            )
        )


def threaded(problem, engine, given, threads, cutoff, time_limit, stop) -> int:
    """A count on threads; a small tree is counted on one before threads
    would pay off."""
    from .parallel import count_parallel
    from .runner import SERIAL_PROBE_NODES

    if not engine.splits:  # refused before any work
        raise refuse("a count on threads", problem.kind, engine)
    start = time.perf_counter()
    deadline = None if time_limit is None else start + time_limit
    try:
        return serial(
            problem,
            engine,
            None,
            given,
            SERIAL_PROBE_NODES,
            time_limit,
            cutoff,
            None,
            stop,
        )
    except BudgetExhausted as budget:
        if budget.stats.nodes < SERIAL_PROBE_NODES:
            raise  # the time limit or the stop event, not the node budget
    stats = problem.stats = Stats()
    return count_parallel(
        problem, engine, given, threads, cutoff, stats, deadline, stop
    )
