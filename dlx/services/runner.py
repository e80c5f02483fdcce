"""The one job runner: the jobs of every search that splits (a count's,
``dlx.services.jobs``; the cheapest solutions', ``dlx.services.best``) on
a process pool of our own or on any ``concurrent.futures.Executor`` (a
Dask cluster among them).

``run`` sends the problem once (``dlx.services.pool``: installed in every
worker of our pool, scattered to every Dask worker, else sent with each
task), keeps a window of tasks out, hands each result back as it comes
and runs next the jobs a result hands back, and at the end cancels what
has not started and shuts its own pool down (``pool.release``).  What a
task is and what its result means is the caller's: ``task(handle, batch)``
and ``done(batch, result)``.
"""

from __future__ import annotations

import collections
import concurrent.futures as cf
import os
from collections.abc import Callable, Sequence
from typing import Any

from .pool import (
    Payload,
    dask_client,
    executor_workers,
    process_pool,
    release,
)
from .search import whole_number

__all__ = [
    "run",
    "worker_count",
    "SERIAL_PROBE_NODES",
    "TASKS_PER_WORKER",
    "UNESTIMATED_BUDGET",
]

# A search on several processes or threads first searches this many nodes
# in one, and only splits the tree when that does not finish it: a small
# tree is over before a pool would start (and, for the cheapest
# solutions, what it found seeds the jobs' threshold).
SERIAL_PROBE_NODES = 20_000
# On an executor of our choosing (a process pool) each job is one task.
# Elsewhere a task costs more (a Dask task takes milliseconds of the
# scheduler's time), so jobs go in batches, this many per worker; batch
# ``b`` takes jobs ``b, b + tasks, ...`` of the caller's order, so that
# batches are alike in size and the first hold the first jobs.
TASKS_PER_WORKER = 16
# Where the split made no estimate of the tree (an engine whose subtrees
# have no probes, DLX1's aside, or probes=0, as the cheapest solutions'
# split), a job on a pool hands back its rest after this many nodes (a
# second or so of search), so that a job far larger than the others still
# cannot hold up the end of a count or of a search for the cheapest.
UNESTIMATED_BUDGET = 1 << 22


def worker_count(executor: cf.Executor | None, jobs) -> int:
    """How many jobs run at once: as many as ``executor`` runs, else
    ``jobs`` processes (checked; 0: one per core)."""
    if executor is not None:
        return executor_workers(executor)
    return whole_number("jobs", jobs) or (os.cpu_count() or 1)


def run(
    payload: Payload,
    jobs: Sequence,
    *,
    workers: int,
    executor: cf.Executor | None,
    task: Callable[[Any, list], tuple],
    done: Callable[[list, Any], list],
    window: int,
    first: Sequence = (),
    poll: float | None = None,
    check: Callable[[], None] | None = None,
    back_order: Callable[[list], list] = list,
) -> None:
    """Run ``jobs`` (in their order: the first submitted first) on a pool
    of ``workers`` processes of our own (``executor`` None) or on
    ``executor``, at most ``window`` tasks out at a time.

    ``task(handle, batch)``: ``(function, *arguments)`` to submit for a
    batch of jobs (one job on our own pool; ``handle`` stands for the
    problem in the worker: see ``dlx.services.pool.problem_for``).
    ``done(batch, result)``, called here as results arrive: the jobs the
    result hands back, each run next as a task of its own; those of one
    wait are put at the front of the queue in ``back_order`` (the largest
    first).  ``first``: jobs to run before
    ``jobs``, each alone (jobs a budget cut short before a resume).
    ``check()``, when given, is called after each wait (every ``poll``
    seconds at least) and raises to stop the run.
    """
    if not jobs and not first:
        return
    queue: collections.deque = collections.deque([job] for job in first)
    own = executor is None
    if own:
        queue.extend([job] for job in jobs)
        executor = process_pool(max(1, min(workers, len(queue))), payload)
        handle: Any = payload.digest  # installed in every worker
    else:
        client = dask_client(executor)
        # A Dask cluster gets the problem once per worker; other
        # executors get the payload with every job (a thread pool shares
        # it in memory).  (A fresh key each time: the same problem
        # scattered again under the key of a future just released hung
        # distributed's scatter.)
        handle = (
            client.scatter(payload, broadcast=True, hash=False)
            if client is not None
            else payload
        )
        tasks = min(len(jobs), TASKS_PER_WORKER * max(1, workers))
        queue.extend(list(jobs[k::tasks]) for k in range(tasks))
    assert executor is not None
    futures: dict = {}
    complete = False
    try:
        while queue or futures:
            while queue and len(futures) < window:
                batch = queue.popleft()
                function, *arguments = task(handle, batch)
                futures[executor.submit(function, *arguments)] = batch
            ready, _ = cf.wait(
                futures, timeout=poll, return_when=cf.FIRST_COMPLETED
            )
            back: list = []
            for future in ready:
                batch = futures.pop(future)
                back += done(batch, future.result())
            # Handed back: to the front of the queue, in back_order.
            for job in reversed(back_order(back)):
                queue.appendleft([job])
            if check is not None:
                check()
        complete = True
    finally:
        release(executor, futures, own, complete)
