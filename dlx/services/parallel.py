"""Counting one tree on threads: its top split here, its subtrees counted
by the engine's kernels at once (they release the GIL).

The split is the one jobs use (``dlx.services.split``, without estimates:
a breadth-first frontier of ``JOBS_PER_THREAD`` nodes per thread), and the
subtrees are counted by ``Engine.count_paths``; for the engines with an
``exact_split``, the count, nodes and updates equal one thread's.
"""

from __future__ import annotations

import time

from .search import Interrupted, Stats, finish_split
from .split import split

__all__ = ["count_parallel", "JOBS_PER_THREAD"]

# Subtrees per thread: many more than threads, taken in turn, since
# subtrees differ a lot in size.
JOBS_PER_THREAD = 64


def count_parallel(
    problem,
    engine,
    given,
    threads: int,
    cutoff: int,
    stats: Stats,
    deadline: float | None = None,
    event=None,
) -> int:
    """Count ``problem``'s tree below the options ``given`` (checked
    option numbers) on ``threads`` threads; ``stats`` is kept current.
    Raises ``BudgetExhausted`` at the deadline or when the stop ``event``
    is set, and ``Interrupted`` on Ctrl-C, with the solutions of the
    subtrees finished by then."""
    engine.load("search", "batch", "split")
    stats.complete = False
    t0 = time.perf_counter()
    try:
        plan = split(
            problem,
            split_into=JOBS_PER_THREAD * threads,
            given=given,
            mrv_cutoff=cutoff,
            probes=0,
            engine=engine,
        )
    except KeyboardInterrupt:  # Ctrl-C while splitting: nothing counted
        stats.seconds = time.perf_counter() - t0
        raise Interrupted(0, stats) from None
    stats.nodes, stats.updates = plan.nodes, plan.updates
    arrays = engine.arrays(problem)
    counts, work, stopped_by = engine.count_paths(
        arrays,
        engine.option_nodes(arrays, given),
        [job.path for job in plan.jobs],
        threads,
        cutoff,
        deadline,
        event,
    )
    return finish_split(stats, t0, plan.solutions, counts, work, stopped_by)
