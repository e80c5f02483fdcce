"""Long counts: the public names of the job services, in one place.

A count that takes hours is split into jobs (``split``), run on
processes, threads or a Dask cluster (``count``, or ``ExactCover.count``
with ``jobs=``, ``executor=``, ``checkpoint=``), checkpointed
(``Checkpoint``) and reported (``Progress``, ``progress_bar``).  See
``dlx.services.split`` and ``dlx.services.jobs``.
"""

from .services.checkpoint import Checkpoint, CheckpointError
from .services.jobs import count, job_budget
from .services.progress import PROGRESS_EVERY, Progress, progress_bar
from .services.split import (
    JOBS_PER_WORKER,
    MIN_JOBS,
    Job,
    Split,
    problem_digest,
    split,
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
