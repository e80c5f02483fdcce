"""``ExactCover.count``: its arguments checked in one place, and routed.

A count runs one of four ways, each a service written once for every
engine that offers it:

* ``serial``: one search in slices (``dlx.services.search``);
* ``threads``: the tree split here and its subtrees counted on threads
  (``dlx.services.parallel``), when ``threads`` > 1;
* ``jobs``: the tree split into jobs run in this process, on processes
  or on any executor, with checkpoints (``dlx.services.jobs``), when
  ``jobs``, ``executor``, ``checkpoint`` or ``split_jobs`` is given;
* ``memo``: a memoized count (``dlx.services.memo``), when ``memo``,
  ``memo_bytes`` or ``choose`` is given.

Which arguments each way takes (every other combination is refused with
one sentence naming the way and the arguments, before any work):

==============  ======  =======  ====  ====
argument        serial  threads  jobs  memo
==============  ======  =======  ====  ====
``limit``       yes     no       no    no
``given``       yes     yes      yes   yes
``max_nodes``   yes     no       no    yes
``time_limit``  yes     yes      no    yes
``stop``        yes     yes      no    yes
``mrv_cutoff``  yes     yes      yes   no
``algorithm``   yes     yes      yes   ``"auto"``
``progress``    yes     no       yes   no
==============  ======  =======  ====  ====

What the problem's engine cannot do (a memo for a kind it has no key
for, say) is refused by ``dlx.engines.refuse``, in the same words from
every entry point.
"""

from __future__ import annotations

import time
from contextlib import AbstractContextManager, nullcontext

from ..engines import Unsupported, engine_for, family, refuse
from . import search
from .search import BudgetExhausted, Stats, thread_count, whole_number

__all__ = ["count", "WAYS", "TAKES"]

WAYS = {
    "serial": "a count",
    "threads": "a count on threads",
    "jobs": "a count in jobs",
    "memo": "a memoized count",
}
"""The four ways of counting, as a sentence names them."""
TAKES = {
    "serial": {
        "limit",
        "max_nodes",
        "time_limit",
        "stop",
        "mrv_cutoff",
        "algorithm",
        "progress",
    },
    "threads": {"time_limit", "stop", "mrv_cutoff", "algorithm"},
    "jobs": {"mrv_cutoff", "algorithm", "progress"},
    "memo": {"max_nodes", "time_limit", "stop"},
}
"""The arguments beyond the way's own that each way takes."""
#: Each argument's value when it is not given.
DEFAULTS = {
    "limit": None,
    "max_nodes": None,
    "time_limit": None,
    "stop": None,
    "mrv_cutoff": 0,
    "algorithm": "auto",
    "progress": None,
}


def count(
    problem,
    limit=None,
    *,
    given=(),
    max_nodes=None,
    time_limit=None,
    threads=1,
    mrv_cutoff=0,
    algorithm="auto",
    memo=False,
    memo_bytes=None,
    choose="auto",
    jobs=None,
    executor=None,
    checkpoint=None,
    progress=None,
    split_jobs=None,
    stop=None,
) -> int:
    """See ``ExactCover.count``."""
    # Each argument on its own.
    limit = whole_number("limit", limit, optional=True)
    max_nodes = whole_number("max_nodes", max_nodes, optional=True)
    time_limit = search.seconds("time_limit", time_limit)
    nthreads = thread_count(threads)
    cutoff = whole_number("mrv_cutoff", mrv_cutoff)
    family(problem, algorithm)  # a known name
    stop = search.stop_event(stop)
    given = problem.given_options(given)
    # The way, and what it takes.
    if memo is not False or memo_bytes is not None or choose != "auto":
        way = "memo"
    elif (
        jobs is not None
        or executor is not None
        or checkpoint is not None
        or split_jobs is not None
    ):
        way = "jobs"
    elif nthreads > 1:
        way = "threads"
    else:
        way = "serial"
    values = {
        "limit": limit,
        "max_nodes": max_nodes,
        "time_limit": time_limit,
        "stop": stop,
        "mrv_cutoff": cutoff,
        "algorithm": algorithm,
        "progress": progress or None,
    }
    clashes = [
        name
        for name, value in values.items()
        if name not in TAKES[way] and value != DEFAULTS[name]
    ]
    spread = [
        name
        for name, value in (
            ("threads", nthreads > 1),
            ("jobs", jobs is not None),
            ("executor", executor is not None),
            ("checkpoint", checkpoint is not None),
            ("split_jobs", split_jobs is not None),
        )
        if value
    ]
    if way == "memo":
        clashes = spread + clashes
    elif way == "jobs" and nthreads > 1:
        clashes = ["threads"] + clashes
    if clashes:
        raise Unsupported(
            f"{WAYS[way]} cannot be combined with {' or '.join(clashes)}"
        )
    if way == "memo":
        from . import memo as memo_count

        use = memo_count.wanted(problem, memo, choose)
        found = memo_count.count(
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
            mrv_cutoff=cutoff,
            jobs=1 if jobs is None else jobs,
            executor=executor,
            checkpoint=checkpoint,
            progress=progress,
            split_jobs=split_jobs,
            algorithm=algorithm,
        )
    if way == "threads":
        return threaded(
            problem,
            engine_for(problem, algorithm, "split"),
            given,
            nthreads,
            cutoff,
            time_limit,
            stop,
        )
    engine = engine_for(problem, algorithm)
    return serial(
        problem,
        engine,
        limit,
        given,
        max_nodes,
        time_limit,
        cutoff,
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
