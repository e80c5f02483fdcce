"""Memoized counts in jobs: ``count(memo=True, jobs=..., executor=...,
checkpoint=..., split_into=..., progress=...)``.

The tree is split into jobs exactly as a count in jobs splits it
(``dlx.services.jobs`` over ``dlx.services.split``: the same split, the
same job paths, so checkpoints, resumes and progress work unchanged), and
each job, the subproblem below its path, is counted by the memo
(``dlx.services.parts.count``: by components where it falls apart, the
memo alone where it does not) instead of by the engine's search, in this
process or on a worker.  The count is the split's own solutions plus the
jobs' counts.

A job's subproblem.  For plain exact cover and colors the split walks the
tree of DLX1/DLX2 (or dancing cells), whose paths are option numbers: the
job is the problem with its path's options given.  With bounds it walks
SSMCC's tree (DLX3's paths are its kernel's moves, not options), whose
paths are signed option numbers (``k``: option ``k`` is in, ``-1 - k``:
it is out): the job is the problem without the options its path leaves
out, with the others given.

What the jobs do not share: each job has a memo of its own, so a
subproblem that several jobs meet is counted once per job, and the jobs'
nodes add up to more than one memoized count's: on a tiling swept in
item order, where the memo answers most of the tree from the table,
about as many times more as there are jobs (14x14 dominoes: 2 jobs 1.9
times the nodes, 9 jobs 9 times); with MRV, where the subproblems met
repeat mostly within a job, little more (the 8 jobs of 6x10 pentominoes:
11% more nodes).  So a memoized count in jobs splits into few jobs
(``MEMO_JOBS_PER_WORKER`` per worker, ``split_into`` to choose), and is
for what processes and a checkpoint give: a long memoized count on every
core, that survives a crash (``bench/memo_jobs.py``).  Not done: the jobs
a worker runs could share its table (for plain exact cover and colors a
key decides its subproblem whatever the job's givens; with bounds a job
may leave options out, and may not), which would bring the jobs' nodes
in one process down to about one memoized count's.

Figures (``problem.stats``, a ``MemoJobsStats``): nodes and updates are
the split's (the engine's walk of the top of the tree) plus the jobs'
memo counts'; the memo's lookups, hits, savings and replacements are
summed over the jobs counted in this call, its entries, size and limbs
are the largest of one job's.  A job read back from a checkpoint adds its
count, nodes and updates only.  On several processes without a
checkpoint, a count the memo finishes within ``SERIAL_PROBE_NODES``
(``dlx.services.runner``) is over before a pool would start, and its
figures are that one memoized count's.  The jobs run to their end (no
node budget hands back their rest), and, as for a count in jobs, no
budget or stop event is taken.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from ..engines import BY_NAME, MULTIPLICITIES, engine_for
from ..engines.base import JobResult
from . import memo as memo_count, parts
from .jobs import count as count_in_jobs
from .memo import MemoStats
from .parts import PartsStats
from .pool import problem_for
from .search import BudgetExhausted
from .split import splitting_engine

__all__ = [
    "count",
    "count_job",
    "run_memo_jobs",
    "MemoJobs",
    "MemoJobsStats",
    "MemoJobResult",
    "MEMO_JOBS_PER_WORKER",
]

MEMO_JOBS_PER_WORKER = 2
"""How many jobs per worker a memoized count in jobs aims at by default:
each job has a memo of its own, so more jobs repeat more of the
subproblems they share (see the module docstring)."""

#: The splitting engines whose paths are option numbers (a job: the
#: problem with its path given) ...
OPTION_PATHS = frozenset({"dlx1", "dlx2", "ssxc1", "ssxcc"})
#: ... and signed option numbers (``-1 - k``: option ``k`` left out).
SIGNED_PATHS = frozenset({"ssmcc"})


@dataclass
class MemoJobsStats(MemoStats):
    """The work of a memoized count in jobs (``ExactCover.stats`` after
    ``count(memo=True, jobs=...)``): see the module docstring.  As
    ``MemoStats``, plus ``memo_jobs`` (jobs counted by the memo in this
    call), ``search_jobs`` (jobs that ``memo="auto"`` counted with the
    engine's search, the memo not paying there) and, summed over the jobs
    that fell apart, ``parts``, ``repeats``, ``splits`` and ``cuts`` (see
    ``dlx.services.parts.PartsStats``)."""

    memo_jobs: int = 0
    search_jobs: int = 0
    parts: int = 0
    repeats: int = 0
    splits: int = 0
    cuts: int = 0
    rules: set = field(default_factory=set, repr=False, compare=False)

    def add_job(self, job: MemoStats, searched: bool) -> None:
        """Add one job's memo figures (its nodes and updates are the job
        result's, added by the jobs' count)."""
        if searched:
            self.search_jobs += 1
        else:
            self.memo_jobs += 1
        self.memo_lookups += job.memo_lookups
        self.memo_hits += job.memo_hits
        self.memo_saved += job.memo_saved
        self.memo_replaced += job.memo_replaced
        self.memo_entries = max(self.memo_entries, job.memo_entries)
        self.memo_slots = max(self.memo_slots, job.memo_slots)
        self.memo_bytes = max(self.memo_bytes, job.memo_bytes)
        self.memo_limbs = max(self.memo_limbs, job.memo_limbs)
        if isinstance(job, PartsStats):
            self.parts += job.parts
            self.repeats += job.repeats
            self.splits += job.splits
            self.cuts += job.cuts
        self.rules.add(job.choose)
        self.choose = "/".join(sorted(self.rules))

    def __str__(self) -> str:
        return (
            super().__str__().removesuffix(".")
            + f"; jobs: {self.memo_jobs} memoized, {self.search_jobs} "
            f"searched, {self.parts} parts counted by components."
        )


@dataclass
class MemoJobResult(JobResult):
    """A job's ``JobResult`` with the memo's figures (``memo``, a
    ``MemoStats``) and whether ``memo="auto"`` gave the job to the
    engine's search (``searched``)."""

    memo: MemoStats | None = None
    searched: bool = False


def subproblem(problem, given, path: tuple):
    """The job at ``path`` (signed option numbers) below the options
    ``given``, as ``(problem, options given)``: ``problem`` itself where
    the path leaves no option out, else a copy without those options."""
    included = [int(k) for k in given] + [int(k) for k in path if k >= 0]
    excluded = [-1 - int(k) for k in path if k < 0]
    if not excluded:
        return problem, included
    c = problem.csr()
    keep = np.ones(len(c.indptr) - 1, np.bool_)
    keep[excluded] = False
    sizes = np.diff(c.indptr)
    members = np.repeat(keep, sizes)
    indptr = np.zeros(int(keep.sum()) + 1, np.int64)
    np.cumsum(sizes[keep], out=indptr[1:])
    # (bounds by item name: from_arrays names the items 0, 1, ...)
    sub = type(problem).from_arrays(
        indptr,
        c.indices[members],
        c.nprimary,
        c.nitems - c.nprimary,
        colors=None if c.colors is None else c.colors[members],
        bounds={k - 1: uv for k, uv in c.bounds.items()},
    )
    number = np.cumsum(keep) - 1
    return sub, [int(number[k]) for k in included]


def count_job(
    problem,
    engine: str,
    given: tuple,
    path: tuple,
    memo_bytes,
    choose: str,
    auto: bool,
) -> MemoJobResult:
    """Count the job at ``path`` of a split by ``engine`` (its name) with
    the memo (``dlx.services.parts.count``); with ``auto`` where the memo
    does not pay, with the engine's own search (``Engine.run_job``)."""
    start = time.perf_counter()
    sub, chosen = subproblem(problem, given, path)
    found = parts.count(
        sub, chosen, memo_bytes=memo_bytes, choose=choose, auto=auto
    )
    stats = sub.stats
    assert isinstance(stats, MemoStats)
    if found is not None:
        return MemoJobResult(
            found,
            stats.nodes,
            stats.updates,
            time.perf_counter() - start,
            memo=stats,
        )
    search = BY_NAME[engine]
    arrays = search.arrays(problem)
    plain = search.run_job(
        arrays, search.option_nodes(arrays, given), tuple(path), 0, 0
    )
    return MemoJobResult(
        plain.solutions,
        plain.nodes + stats.nodes,  # the memo's probe was work too
        plain.updates + stats.updates,
        time.perf_counter() - start,
        memo=stats,
        searched=True,
    )


def run_memo_jobs(
    payload, engine: str, given: tuple, paths, memo_bytes, choose, auto
) -> list:
    """``count_job`` for each of ``paths``, in a worker (``payload``: the
    problem, see ``dlx.services.pool.problem_for``)."""
    problem = problem_for(payload)
    return [
        count_job(problem, engine, given, path, memo_bytes, choose, auto)
        for path in paths
    ]


@dataclass(frozen=True)
class MemoJobs:
    """How ``dlx.services.jobs.count`` counts jobs with the memo (its
    ``memo`` argument): the memo's settings, the split's engine, a job
    counted here or sent to a worker, the figures."""

    memo_bytes: int | None
    choose: str
    auto: bool

    Stats = MemoJobsStats

    def engine(self, problem):
        """The engine whose tree is split (see the module docstring)."""
        if problem.kind == MULTIPLICITIES:
            engine = engine_for(problem, "cells", "split")
        else:
            engine = splitting_engine(problem)
        assert engine.name in OPTION_PATHS | SIGNED_PATHS, engine.name
        return engine

    def split_into(self, workers: int) -> int:
        """The jobs a split aims at by default."""
        return MEMO_JOBS_PER_WORKER * max(1, workers)

    def probe(self, problem, given, nodes: int) -> int | None:
        """The count, if the memo finishes it within ``nodes`` nodes (a
        small count is over before a pool would start), else None."""
        try:
            return parts.count(
                problem,
                list(given),
                nodes,
                memo_bytes=self.memo_bytes,
                choose=self.choose,
                auto=self.auto,
            )
        except BudgetExhausted:
            return None

    def run_here(self, problem, plan, job) -> MemoJobResult:
        return count_job(
            problem,
            plan.engine,
            tuple(plan.given),
            tuple(job.path),
            self.memo_bytes,
            self.choose,
            self.auto,
        )

    def task(self, handle, plan, paths) -> tuple:
        return (
            run_memo_jobs,
            handle,
            plan.engine,
            tuple(plan.given),
            paths,
            self.memo_bytes,
            self.choose,
            self.auto,
        )

    def absorb(self, stats: MemoJobsStats, result: JobResult) -> None:
        """Add a job's memo figures to ``stats`` (none for a job read
        back from a checkpoint)."""
        if isinstance(result, MemoJobResult) and result.memo is not None:
            stats.add_job(result.memo, result.searched)


def count(
    problem,
    *,
    given,
    memo,
    memo_bytes,
    choose,
    jobs,
    executor,
    checkpoint,
    progress,
    split_into,
) -> int:
    """``count(memo=..., jobs=...)``: the arguments come checked by
    ``dlx.options`` (the way "memo jobs"); see the module docstring."""
    use = memo_count.wanted(problem, memo, choose)
    return count_in_jobs(
        problem,
        given=given,
        jobs=1 if jobs is None else jobs,
        executor=executor,
        checkpoint=checkpoint,
        progress=progress,
        split_into=split_into,
        memo=MemoJobs(memo_bytes, choose, use == "auto"),
    )
