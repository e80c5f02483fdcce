"""Cutting a search tree into jobs, for any engine.

A *job* is one node of the search tree, named by its *path*: the moves
from the root (below the problem's givens) to it, in the engine's own
vocabulary (option numbers for DLX1, DLX2, SSXC1 and SSXCC; see
``dlx.engines.base``).  Counting the job counts exactly the subtree below
that node, so a *split* -- the top of the tree walked here, plus the jobs
on its frontier -- counts the whole tree: for the engines with an
``exact_split`` (dancing links), the split's own nodes, updates and
solutions plus those of every job are exactly the figures of one search
from the root; for dancing cells, the count is.  Jobs are plain data (a
tuple of ints and two numbers), so any ``concurrent.futures.Executor``
runs them (``dlx.services.pool``).

    >>> from dlx.problems.queens import queens
    >>> p = queens(8)
    >>> plan = split(p, split_into=20)
    >>> len(plan.jobs) >= 20
    True
    >>> sum(plan.run(p, job).solutions for job in plan.jobs) + plan.solutions
    92

A job that turns out large is split again the same way:
``split(problem, path=job.path)``.
"""

from __future__ import annotations

import collections
import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ..engines import BY_NAME, engine_for, refuse
from ..engines.base import Engine, JobResult

__all__ = [
    "Job",
    "Split",
    "split",
    "problem_digest",
    "MIN_JOBS",
    "JOBS_PER_WORKER",
]

# How many jobs per worker a split aims at by default (before the jobs
# estimated far above the mean are split again, see BALANCE_*): with the
# largest run first, a few per worker keep every worker busy to the end.
JOBS_PER_WORKER = 16
"""How many jobs per worker a split aims at by default."""
# ... and never fewer than this, so that a checkpoint saves work often and
# a run resumed on a machine with more cores still balances.
MIN_JOBS = 256
"""The fewest jobs a split makes by default."""
# The split estimates every job with this many of Knuth's probes and
# splits again any job estimated above BALANCE_FACTOR times the mean (at
# most BALANCE_ROUNDS times): trees are irregular (6x10 pentominoes: a
# breadth-first frontier's largest job is hundreds of times its mean).
BALANCE_PROBES = 16
BALANCE_FACTOR = 2.0
BALANCE_ROUNDS = 8
# ... as long as the jobs stay fewer than this many times the target.
BALANCE_JOBS = 4


@dataclass(frozen=True)
class Job:
    """A subtree: the node at ``path`` (moves below the split's givens).

    ``share``: the subtree's share of the whole tree by Knuth's measure
    (one over the product of the branching degrees on its path), used for
    progress; ``size``: its updates as estimated by a few probes (0.0
    when not estimated), which orders the jobs largest first.
    """

    path: tuple
    share: float = 1.0
    size: float = 0.0


@dataclass
class Split:
    """The top of a search tree and the jobs on its frontier.

    ``engine``: the name of the engine whose tree it is; ``given``: the
    problem's given options; ``nodes``/``updates``/``solutions``: the
    work of the top of the tree, done while splitting (solutions found
    there are shallow leaves); ``settled``: the share of the tree finished
    while splitting; ``jobs``: in the order the search would meet them;
    ``estimated_nodes``: the whole tree's nodes by Knuth's estimate of
    every job (0 when the split made no estimate), which sets the node
    budget of a job on a pool of workers; ``leaves``: the paths of the
    solutions met while splitting (the givens alone when they are one),
    which a count only counts but ``best`` prices.
    """

    engine: str
    given: tuple
    mrv_cutoff: int
    target: int
    jobs: list = field(default_factory=list)
    nodes: int = 0
    updates: int = 0
    solutions: int = 0
    settled: float = 0.0
    estimated_nodes: float = 0.0
    leaves: list = field(default_factory=list)

    def digest(self) -> str:
        """A fingerprint of the split (its engine, jobs and search rule).
        DLX1's is the one checkpoints of format 2 recorded.

        Returns:
            A hex digest.
        """
        h = hashlib.sha256()
        if self.engine == "dlx1":
            h.update(
                json.dumps(
                    [
                        list(self.given),
                        self.mrv_cutoff,
                        [list(self.given) + list(j.path) for j in self.jobs],
                    ]
                ).encode()
            )
        else:
            h.update(
                json.dumps(
                    [
                        self.engine,
                        list(self.given),
                        self.mrv_cutoff,
                        [list(j.path) for j in self.jobs],
                    ]
                ).encode()
            )
        return h.hexdigest()[:32]

    def run(self, problem, job: Job, budget: int = 0) -> JobResult:
        """Count ``job`` of this split of ``problem`` here (see
        ``Engine.run_job``): the figures of its subtree.

        Args:
            problem: The problem this split was made of.
            job: One of ``jobs``.
            budget: The most nodes before the rest is handed back as new
                jobs (0: run to the end).

        Returns:
            The job's solutions, nodes and updates, and its rest.
        """
        engine = BY_NAME[self.engine]
        arrays = engine.arrays(problem)
        return engine.run_job(
            arrays,
            engine.option_nodes(arrays, self.given),
            tuple(job.path),
            self.mrv_cutoff,
            budget,
        )


def splitting_engine(problem, algorithm="auto") -> Engine:
    """The engine whose tree jobs split for ``problem``, or the one
    sentence saying that none can."""
    engine = engine_for(problem, algorithm, "split")
    if not engine.splits:
        raise refuse("splitting the search into jobs", problem.kind, engine)
    return engine


def problem_digest(problem) -> str:
    """A fingerprint of a problem's structure (items and options, their
    colors and bounds, not their names): the same count for the same
    fingerprint.

    Args:
        problem: An ``ExactCover``.

    Returns:
        A hex digest.
    """
    s = problem.structure()
    h = hashlib.sha256()
    h.update(f"{type(problem).__name__} {s.nitems} {s.nprimary}".encode())
    h.update(np.ascontiguousarray(s.sizes, np.int64).tobytes())
    h.update(np.ascontiguousarray(s.members, np.int64).tobytes())
    if s.colors is not None:
        h.update(b"colors")
        h.update(np.ascontiguousarray(s.colors, np.int32).tobytes())
    if s.bounds:
        h.update(json.dumps(sorted(s.bounds.items())).encode())
    return h.hexdigest()[:32]


def split(
    problem,
    *,
    split_into: int = MIN_JOBS,
    given: Sequence[int] = (),
    path: tuple = (),
    mrv_cutoff: int = 0,
    probes: int = BALANCE_PROBES,
    seed: int = 0,
    algorithm: str = "auto",
    engine: Engine | None = None,
) -> Split:
    """Split ``problem``'s search tree into at least ``split_into``
    subtrees, its jobs (fewer only when the tree is smaller).

    Nodes are expanded nearest the root first until the frontier holds
    ``split_into`` nodes; then, with ``probes`` > 0 and an engine that can
    estimate a subtree, each is estimated by that many of Knuth's probes
    (seeded from ``seed``) and any estimated above ``BALANCE_FACTOR``
    times the mean is split again, a few rounds.  ``given``: options
    chosen before the search; ``path``: the node to split (a job's path
    splits that job again).  The jobs come in the order the search meets
    them.  ``engine`` (default: the one ``algorithm`` picks) walks the
    tree.  The arguments come checked (``dlx.jobs.split`` checks a
    user's): this is the split every search that splits shares.

    Args:
        problem: The ``ExactCover`` to split.
        split_into: The fewest jobs wanted (a whole number >= 1).
        given: Option numbers chosen before the search, checked
            (``ExactCover.given_options``).
        path: The node to split, as a job's path (default: the root).
        mrv_cutoff: The search rule's cutoff, as ``count`` takes it.
        probes: Knuth's probes per job for the balancing estimate (0:
            no estimate, no second split).
        seed: The probes' seed (a whole number >= 0).
        algorithm: Which engine's tree, as ``count`` takes it.
        engine: The engine itself (overrides ``algorithm``).

    Returns:
        The top of the tree and the jobs on its frontier.

    Raises:
        dlx.Unsupported: The engine cannot split the problem's kind.
    """
    target, cutoff, given = split_into, mrv_cutoff, tuple(given)
    if engine is None:
        engine = splitting_engine(problem, algorithm)
    arrays = engine.arrays(problem)
    top = engine.top(arrays, engine.option_nodes(arrays, given), cutoff)
    plan = Split(engine.name, given, cutoff, target)
    if top.clash:  # the givens overlap: an empty tree
        plan.settled = 1.0
        return plan
    plan.updates = top.base
    if top.covered:  # the givens alone are a cover: one leaf node
        plan.nodes = plan.solutions = 1
        plan.settled = 1.0
        plan.leaves.append(tuple(path))
        return plan

    def expand(entry):
        """The entry's node is walked here: its children that are not
        solutions become entries."""
        place, at, share = entry
        updates, children = top.expand(at)
        plan.nodes += 1
        plan.updates += updates
        if not children:
            plan.settled += share
        grown = []
        for k, (moves, leaf) in enumerate(children):
            child_share = share / len(children)
            if leaf:
                plan.nodes += 1
                plan.solutions += 1
                plan.settled += child_share
                plan.leaves.append(at + tuple(moves))
            else:
                grown.append((place + (k,), at + tuple(moves), child_share))
        return grown

    # Entries: (position among siblings on the path, path, share).
    queue = collections.deque([((), tuple(path), 1.0)])
    while queue and len(queue) < target:
        queue.extend(expand(queue.popleft()))
    frontier = list(queue)
    sizes: dict = {}
    limit = None
    for _ in range(BALANCE_ROUNDS if probes else 0):
        for entry in frontier:
            if entry[1] not in sizes:
                sizes[entry[1]] = top.size(entry[1], probes, seed + len(sizes))
        if limit is None:  # a fair share of the whole tree, fixed
            limit = (
                BALANCE_FACTOR
                * sum(sizes[e[1]][1] for e in frontier)
                / max(target, len(frontier))
            )
        big = [e for e in frontier if sizes[e[1]][1] > limit]
        if not big or len(frontier) + len(big) > BALANCE_JOBS * target:
            break
        frontier = [
            child
            for entry in frontier
            for child in (
                expand(entry) if sizes[entry[1]][1] > limit else [entry]
            )
        ]
    for _place, at, share in sorted(frontier):
        nodes, updates = sizes.get(at, (0.0, 0.0))
        plan.jobs.append(Job(at, share, updates))
        plan.estimated_nodes += nodes
    if plan.estimated_nodes:
        plan.estimated_nodes += plan.nodes
    return plan
