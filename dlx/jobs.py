"""Long counts: the public names of the job services, in one place.

A count that takes hours is split into jobs (``split``), run on
processes, threads or a Dask cluster (``count``, or ``ExactCover.count``
with ``jobs=``, ``executor=``, ``checkpoint=``, ``split_into=``),
checkpointed (``Checkpoint``) and reported (``Progress``,
``progress_bar``).  ``jobs`` is always the processes that run the jobs,
``split_into`` how many jobs the tree is split into.  ``count`` and ``split``
check their arguments here, once (``dlx.options``), and hand them to
``dlx.services.jobs`` and ``dlx.services.split``.
"""

from __future__ import annotations

import concurrent.futures as cf
import os
from collections.abc import Callable, Iterable
from typing import Any

from .engines.base import Engine
from .options import check, renamed
from .services import jobs as _jobs, split as _split
from .services.checkpoint import Checkpoint, CheckpointError
from .services.jobs import job_budget
from .services.progress import PROGRESS_EVERY, Progress, progress_bar
from .services.search import whole_number
from .services.split import (
    BALANCE_PROBES,
    JOBS_PER_WORKER,
    MIN_JOBS,
    Job,
    Split,
    problem_digest,
    splitting_engine,
)

__all__ = [
    "Job",
    "Split",
    "split",
    "count",
    "job_budget",
    "Progress",
    "progress_bar",
    "Checkpoint",
    "CheckpointError",
    "problem_digest",
    "JOBS_PER_WORKER",
    "MIN_JOBS",
    "PROGRESS_EVERY",
]


def count(
    problem: Any,
    *,
    given: Iterable[int] = (),
    mrv_cutoff: int = 0,
    jobs: int = 0,
    executor: cf.Executor | None = None,
    split_into: int | None = None,
    checkpoint: str | os.PathLike | None = None,
    progress: Callable[[Progress], None] | bool | None = None,
    plan: Split | None = None,
    budget: int | None = None,
    algorithm: str = "auto",
    split_jobs: int | None = None,
) -> int:
    """Count every solution of ``problem`` as independent jobs.

    ``executor``: any ``concurrent.futures.Executor`` (for a Dask cluster,
    ``distributed.Client(...).get_executor()``: the problem is sent to
    each worker once); by default ``jobs`` processes on this machine (0:
    one per core; 1: in this process).  ``split_into``: how many jobs to
    split into (default: ``JOBS_PER_WORKER`` per worker, at least
    ``MIN_JOBS``; a checkpoint keeps its own).  ``budget``: the nodes a
    job explores on a worker before it hands back its rest as new jobs
    (default ``job_budget``, or ``UNESTIMATED_BUDGET`` where the split
    made no estimate; 0: never; jobs run in this process run to their
    end).  ``checkpoint``: a file
    recording every finished job and every job handed back (see
    ``Checkpoint``); the same call after a crash resumes from it.
    ``progress``: a callable given a ``Progress`` after each job, or True
    for a bar on stderr.  ``algorithm`` picks the engine whose tree is
    split (``plan``, a split made before, names its own).

    Sets ``problem.stats`` to the figures of the whole search (for the
    engines with an ``exact_split``, the same count, nodes and updates as
    one search from the root) and returns the count.  Ctrl-C raises
    ``dlx.Interrupted`` with the partial count (the jobs finished so far).

    Args:
        problem: The ``ExactCover`` to count.
        given: Option numbers chosen before the search.
        mrv_cutoff: The search rule's cutoff, as ``ExactCover.count``
            takes it.
        jobs: How many processes (0: one per core; 1: this process);
            ignored with ``executor``.
        executor: Any ``concurrent.futures.Executor`` to run the jobs.
        split_into: How many jobs to split into (a whole number >= 1, or
            None: the default).
        checkpoint: A path recording finished jobs; the same call
            resumes from it.
        progress: A callable given a ``Progress`` after each job, or True
            for a bar on stderr.
        plan: A split made before (its engine and jobs are used).
        budget: The nodes a job explores before handing back its rest
            (None: ``job_budget``, or ``UNESTIMATED_BUDGET`` where the
            split made no estimate; 0: never).
        algorithm: Which engine's tree is split.
        split_jobs: Deprecated: ``split_into``' old name (a
            DeprecationWarning).

    Returns:
        The number of solutions.

    Raises:
        TypeError: An argument of the wrong type.
        ValueError: An argument out of range, or a bad given option
            (``dlx.options``' sentences).
        CheckpointError: A checkpoint of another problem or split.
        dlx.Unsupported: The engine cannot split the problem's kind.
        dlx.Interrupted: Ctrl-C, with the partial count.
    """
    split_into = renamed(
        {"split_into": split_into, "split_jobs": split_jobs}
    ).get("split_into")
    options: dict[str, Any] = {
        "given": given,
        "mrv_cutoff": mrv_cutoff,
        "jobs": jobs,
        "executor": executor,
        "split_into": split_into,
        "checkpoint": checkpoint,
        "progress": progress,
        "algorithm": algorithm,
    }
    values = check(
        "count", problem, **{k: v for k, v in options.items() if v is not None}
    ).values
    return _jobs.count(
        problem,
        **{k: values[k] for k in options},
        plan=plan,
        budget=whole_number("budget", budget, optional=True),
    )


def split(
    problem: Any,
    *,
    split_into: int | None = None,
    given: Iterable[int] = (),
    path: tuple = (),
    mrv_cutoff: int = 0,
    probes: int = BALANCE_PROBES,
    seed: int = 0,
    algorithm: str = "auto",
    engine: Engine | None = None,
    jobs: int | None = None,
) -> Split:
    """Split ``problem``'s search tree into at least ``split_into``
    subtrees, its jobs (fewer only when the tree is smaller): see
    ``dlx.services.split.split``.

    Args:
        problem: The ``ExactCover`` to split.
        split_into: The fewest jobs wanted (a whole number >= 1; None:
            ``MIN_JOBS``).
        given: Option numbers chosen before the search.
        path: The node to split, as a job's path (default: the root).
        mrv_cutoff: The search rule's cutoff, as ``count`` takes it.
        probes: Knuth's probes per job for the balancing estimate (0:
            no estimate, no second split).
        seed: The probes' seed (a whole number >= 0).
        algorithm: Which engine's tree, as ``count`` takes it.
        engine: The engine itself (overrides ``algorithm``).
        jobs: Deprecated: ``split_into``' old name here (a
            DeprecationWarning; ``jobs`` is the processes elsewhere).

    Returns:
        The top of the tree and the jobs on its frontier.

    Raises:
        TypeError: An argument of the wrong type.
        ValueError: A number out of range, or a bad given option.
        dlx.Unsupported: The engine cannot split the problem's kind.
    """
    split_into = renamed(
        {"split_into": split_into, "jobs": jobs}, names={"jobs": "split_into"}
    ).get("split_into")
    values = check(
        "count",
        problem,
        given=given,
        mrv_cutoff=mrv_cutoff,
        algorithm=algorithm,
        split_into=MIN_JOBS if split_into is None else split_into,
    ).values
    return _split.split(
        problem,
        split_into=values["split_into"],
        given=values["given"],
        path=tuple(path),
        mrv_cutoff=values["mrv_cutoff"],
        probes=whole_number("probes", probes),
        seed=whole_number("seed", seed),
        engine=engine or splitting_engine(problem, values["algorithm"]),
    )
