"""The engine interface: what every solver offers the services around it.

An *engine* is one of Knuth's programs (DLX1, DLX2, DLX3 by dancing links;
SSXC1, SSXCC, SSMCC by dancing cells), or memo counting, wrapped so that
every service -- the search in slices with budgets and Ctrl-C, batches,
threads, jobs on processes and Dask, checkpoints, Knuth's estimate,
progress, the CLIs and the web API -- talks to it through the few methods
of ``Engine`` below and never asks which kind of problem it holds.

Each engine is one module of ``dlx.engines`` (its numba kernels are one
file of ``dlx.kernels``), and ``dlx.engines.ENGINES`` lists them; a new
solver is a new module, its kernel file and one line there.  What an
engine can do is data (the class attributes below), so a service asks
``engine.handback`` and never ``problem.kind``; what no engine offers is
refused from one place, ``dlx.engines.refuse``, with one sentence.

Vocabulary.  The *arrays* of an engine are what ``build`` makes of a
problem (``dlx.engines.dlx1.Links`` for DLX1); they are built once per
problem and engine and never changed: every search works on a private
copy.  A *node* is a kernel's number for an option (its first node); the
*given* options are committed before a search starts.  A *path* names a
node of the search tree below the givens, as a tuple of ints in the
engine's own vocabulary (``move``s): option numbers for DLX1, DLX2, SSXC1
and SSXCC (the node's subtree is then counted by giving those options),
the kernel's moves for DLX3 and SSMCC (see their modules).  A *job* is a
path whose subtree is counted on its own; a split of the tree into jobs
counts the whole tree (see ``dlx.services.split``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

EXACT = "exact cover"
"""The kind of a plain exact-cover problem (Knuth's DLX1)."""
COLORS = "colors"
"""The kind of a problem with colors on secondary items (DLX2, XCC)."""
MULTIPLICITIES = "multiplicities"
"""The kind of a problem with bounds on primary items (DLX3, MCC; colors may
come too)."""
KINDS = (EXACT, COLORS, MULTIPLICITIES)
"""Every kind of problem, simplest first."""

EXHAUSTED = 0
"""What a run's ``step`` returns (the codes of every resumable kernel) when
the whole tree has been explored."""
PAUSED = 1
"""What a run's ``step`` returns when it stopped after the requested number
of solutions."""
OUT_OF_NODES = 2
"""What a run's ``step`` returns when it stopped at the node bound."""

NO_LIMIT = 2**63 - 1
"""No bound (nodes, solutions): the largest int64 (numpy's
``iinfo(int64).max``; this module does not import numpy)."""


DEFAULT_MEMO_BYTES = 256 << 20
"""The memo table's default size limit: 256 MiB (memo counting,
``dlx.engines.memo``; here so that the options spec and the command line
read it without loading the memo's kernels)."""
CHOICE_RULES = ("auto", "mrv", "first")
"""What ``choose=`` takes (memo counting): ``"mrv"`` (Knuth's minimum
remaining values), ``"first"`` (the first active item) or ``"auto"``."""


class Unsupported(ValueError):
    """A service that the problem's engine does not offer, or arguments
    that do not go together: refused with one sentence, before any work."""


@dataclass
class JobResult:
    """What counting one job found: the figures of the part of its subtree
    that was explored (``solutions``, ``nodes``, ``updates``, counted as
    one search from the root counts them there, the moves into the job's
    root excluded), the ``seconds`` it took, and ``rest``: the unexplored
    part as new jobs, ``(path, share)`` each (``share`` of this job's
    subtree by Knuth's measure), empty when the job ran to its end."""

    solutions: int
    nodes: int
    updates: int
    seconds: float = 0.0
    rest: list = field(default_factory=list)


class Run:
    """One resumable search over a private copy of an engine's arrays,
    with the given options committed (the form ``dlx.services.search``
    drives).

    ``counters``: ``[nodes, updates, solutions]``, accumulated over the
    calls of ``step`` (an int64 array, or a list of ints when counts may
    outgrow 64 bits); ``clash``: the givens cannot all be in a solution
    (no search); ``covered``: the givens already cover every primary item
    (one solution, the empty set of further options, one leaf node).
    The search itself may only start when neither holds.
    """

    counters: Any  # an int64 array, or a list of ints
    clash: bool = False
    covered: bool = False

    def step(self, want: int, stop_at: int, store: bool):
        """One kernel call: pause after ``want`` solutions (0: never),
        stop when ``counters[0]`` reaches ``stop_at``; returns ``(status,
        solutions)``, ``status`` one of ``EXHAUSTED``, ``PAUSED``,
        ``OUT_OF_NODES`` and ``solutions``, when ``store``, the option
        numbers of each solution found (beyond the givens)."""
        raise NotImplementedError

    def explored(self) -> float:
        """The share of the tree explored so far (Knuth's measure); 0.0
        where the engine cannot tell."""
        return 0.0

    # Where the engine ``hands_back`` (``count_job``):
    def stopped_at(self) -> tuple[tuple, list[int] | None]:
        """After ``step`` returned ``OUT_OF_NODES``: ``(moves, degrees)``,
        the moves from the run's root to the node it was about to enter
        (a path's tail, in the engine's vocabulary: one move a level), and
        how many branches each of those levels has (for Knuth's measure;
        None where the engine cannot tell)."""
        raise NotImplementedError

    def leaf(self) -> bool:
        """After ``step`` returned ``OUT_OF_NODES``: whether the node it was
        about to enter is one the search counts in one node (a solution,
        or a dead end), cheaper to enter than to hand back (False where the
        engine cannot tell at once)."""
        return False

    def skip(self) -> None:
        """After ``step`` returned ``OUT_OF_NODES``: leave the node it was
        about to enter unexplored, so that the next ``step`` goes on after
        that node's subtree, backtracking as the search does."""
        raise NotImplementedError


def count_job(run: Run, path: tuple, budget: int = 0) -> JobResult:
    """Count the subtree of the job at ``path`` that ``run`` (started at its
    root, ``Engine.start_job``) searches: to its end, or (``budget`` > 0)
    for ``budget`` nodes, its unexplored rest then handed back as jobs
    (``JobResult.rest``, for an engine that ``hands_back``).

    The rest of a search stopped at its node bound is the node it was
    about to enter and every branch still untried on its path.  The run
    finds them itself: it goes on with its bound at the nodes it has, so
    that it stops again on entering each next node, which becomes a job
    (``Run.skip`` leaves it) unless it is a leaf (``Run.leaf``: entered
    here, one node), while the moves into them (their parent's updates)
    and the leaves are counted as one search counts them.  So the job's
    figures and its rest's add up to the
    job's, node for node where the engine's ``exact_split`` holds.  The
    same for every engine: each says only where it stopped
    (``Run.stopped_at``) and how to leave that node (``Run.skip``).
    """
    commit = int(run.counters[1])
    if run.clash:
        return JobResult(0, 0, 0)
    if run.covered:
        return JobResult(1, 1, 0)
    t0 = time.perf_counter()
    stop_at = min(int(budget), NO_LIMIT) if budget > 0 else NO_LIMIT
    status, _ = run.step(0, stop_at, False)
    stops: list[tuple] = []
    degrees = None
    if status == OUT_OF_NODES and budget > 0:
        moves, degrees = run.stopped_at()
        stops.append(moves)
        run.skip()
        # Every node entered from here on is left to a job of its own, but
        # for a leaf: a job of one node would cost more than the node.
        stop_at = int(run.counters[0])
        while run.step(0, stop_at, False)[0] == OUT_OF_NODES:
            if run.leaf():
                stop_at = int(run.counters[0]) + 1
                continue
            stops.append(run.stopped_at()[0])
            run.skip()
            stop_at = int(run.counters[0])
    while status == OUT_OF_NODES and not stops:  # no budget: to its end
        status, _ = run.step(0, NO_LIMIT, False)
    solutions, nodes, updates = (int(x) for x in run.counters[[2, 0, 1]])
    return JobResult(
        solutions,
        nodes,
        updates - commit,
        time.perf_counter() - t0,
        [
            (tuple(path) + tuple(moves), share)
            for moves, share in zip(stops, rest_shares(stops, degrees))
        ],
    )


def rest_shares(stops: list, degrees) -> list[float]:
    """Knuth's measure of each job handed back (``count_job``): a node
    at depth ``m`` below the job's root, on the stopped path or a sibling
    of a node on it, stands for the product of ``1 / degree`` of the
    ``m`` levels above it.  A degree is at least the branches the rest
    found at its level plus the one being explored (so the shares never
    add up to more than the job's), and just that where ``degrees`` is
    None."""
    if not stops:
        return []
    deep = len(stops[0])
    found = [1] * deep
    for moves in stops[1:]:
        found[len(moves) - 1] += 1
    share = [1.0]
    for level in range(deep):
        degree = max(found[level], degrees[level] if degrees else 0)
        share.append(share[-1] / degree)
    return [share[len(moves)] for moves in stops]


class Top:
    """The top of an engine's search tree, walked one node at a time from
    Python (to cut it into jobs, or to probe it).

    ``clash``/``covered`` as for ``Run``; ``base``: the updates of
    committing the givens.
    """

    clash: bool = False
    covered: bool = False
    base: int = 0

    def expand(self, path: tuple):
        """Branch at the node ``path`` as the search does: returns the
        updates the search makes there (choosing its item and trying each
        branch, the children's own subtrees excluded) and the children in
        the order the search meets them, ``(moves, is_leaf)`` each:
        ``path + moves`` is the child's path (one move, or several where a
        branch is a sequence of moves, as SSMCC's "not this option, nor
        that one, but this one"), and ``is_leaf`` tells that the child is
        a solution, a leaf node, not a job.  A node with no children is a
        dead end."""
        raise NotImplementedError

    def size(self, path: tuple, probes: int, seed: int):
        """The subtree at ``path``'s ``(nodes, updates)`` by Knuth's
        estimate (``probes`` random walks seeded by ``seed``), or
        ``(0.0, 0.0)`` when the engine has no probes."""
        return 0.0, 0.0


class Engine:
    """One solver as the services see it.  Subclasses set the attributes
    and implement the methods; ``dlx.engines.ENGINES`` lists them."""

    #: The engine's name (``"dlx1"``), and Knuth's name for its program.
    name = ""
    program = ""
    #: The family ``algorithm=`` names it by (``"links"``, ``"cells"``).
    algorithm = ""
    #: The kinds of problem it searches.
    kinds: frozenset = frozenset()
    #: ``algorithm=`` may name its family (the registry's
    #: ``algorithm_names`` reads this; memo counting is asked for by
    #: ``memo=True`` instead).
    named = True
    #: The line the command line's ``--algorithm`` help gives it (empty:
    #: none, as for the engines of ``best``, which no flag picks).
    about = ""
    # -- capabilities (what a service may ask of it) ----------------------
    #: ``solutions()``: it streams solutions (memo counting does not).
    streams = True
    #: ``solve_batch``: many instances that differ in their givens.
    batches = True
    #: Its tree can be cut into jobs (threads, processes, Dask,
    #: checkpoints; for an engine with ``costs``, the jobs of ``best``,
    #: without checkpoints).
    splits = True
    #: A split count's nodes and updates equal one search's (dancing cells
    #: restores sizes only, not orders, so its subtrees searched apart
    #: break ties otherwise: only the count is the same).
    exact_split = True
    #: A job stopped by a node budget hands back its unexplored rest (for
    #: an engine with ``costs``, a job of ``best``).
    hands_back = False
    #: It honours ``mrv_cutoff``.
    cutoff = True
    #: ``start_best``: it finds the cheapest solutions of a problem whose
    #: options have costs (``dlx.services.best``).
    costs = False
    #: Engines that search the same arrays share them: the key they are
    #: kept under on the problem (None: the engine's name).
    arrays_key: str | None = None

    # -- choosing --------------------------------------------------------
    def fits(self, problem) -> bool:
        """Whether it takes ``problem`` (an ``ExactCover`` of one of its
        ``kinds``) beyond its kind: a limit of size or shape.  The registry
        passes over an engine that does not fit to the next of its family
        (``dlx.engines.registry.engine_of``)."""
        return True

    # -- building --------------------------------------------------------
    def build(self, problem):
        """The engine's arrays for ``problem`` (an ``ExactCover``), from
        ``problem.csr()`` (the model's own rows: no copy, so a big
        problem is built without a second set of them) or
        ``problem.structure()``."""
        raise NotImplementedError

    def arrays(self, problem):
        """The engine's arrays for ``problem``, built once and kept on it
        until it changes."""
        return problem.built(self.arrays_key or self.name, self.build)

    def option_nodes(self, arrays, options) -> list[int]:
        """The kernel's node for each of ``options`` (option numbers)."""
        return [int(arrays.option_start[k]) for k in options]

    def load(self, *parts: str) -> None:
        """Compile (or load from numba's cache) the kernels that ``parts``
        name, once per process, outside any timing: ``"search"``,
        ``"batch"``, ``"split"``."""

    # -- searching -------------------------------------------------------
    def start(self, arrays, given_nodes: list[int], cutoff: int) -> Run:
        """A ``Run`` over a private copy of ``arrays``, givens committed."""
        raise NotImplementedError

    def batch(
        self,
        arrays,
        nodes,
        starts,
        limit,
        max_nodes,
        threads,
        cutoff,
        chunks_per_thread=16,
        deadline=None,
        event=None,
    ):
        """``solve_batch``: instance ``b`` commits the nodes
        ``nodes[starts[b]:starts[b + 1]]`` and is searched until ``limit``
        solutions (0: all).  Returns ``counts`` (-1: the givens clash,
        -2: ``max_nodes`` ran out, ``STOPPED``: the deadline or Ctrl-C),
        ``first`` (the option numbers of each instance's first solution
        beyond its givens, ``-1``-padded), ``work`` (nodes, search
        updates, given updates) and what stopped it early (see
        ``dlx.engines.threads.run_tasks``; ``event``: a
        ``threading.Event`` that stops it when set)."""
        raise NotImplementedError

    def start_best(
        self,
        arrays,
        given_nodes: list[int],
        k: int,
        threshold=None,
        path: tuple = (),
    ) -> Run:
        """Where ``costs``: a ``Run`` over a private copy of ``arrays``,
        givens committed, that searches for the ``k`` cheapest solutions.
        Besides ``Run``'s attributes it has ``best()``, the ``k`` cheapest
        found so far as ``(cost, option numbers)`` pairs, cheapest first
        (the givens left out, their cost counted), and ``base``, the
        givens' own net cost.  ``threshold``: None, or a one-element int64
        array that several searches share: each prunes every branch that
        cannot beat it and lowers it when it finds better (net costs, in
        the engine's arrays' terms: see ``dlx.engines.dlx5``).  ``path``:
        a node of ``top``'s tree below the givens (a job of a split, where
        the engine ``splits``): the run searches its subtree alone, and
        ``best()`` includes the options the path gives."""
        raise Unsupported(
            f"{self.name} does not search for the cheapest solutions"
        )

    # -- splitting -------------------------------------------------------
    def top(self, arrays, given_nodes: list[int], cutoff: int) -> Top:
        """The top of the tree below the givens, to cut into jobs."""
        raise NotImplementedError

    def count_paths(
        self,
        arrays,
        given_nodes: list[int],
        paths,
        threads,
        cutoff,
        deadline=None,
    ):
        """Count the subtree of each of ``paths`` on ``threads`` threads:
        ``(counts, work, stopped_by)`` as ``batch`` returns them (``work``
        the subtrees' own figures, the moves into their roots excluded)."""
        raise NotImplementedError

    def path_nodes(self, arrays, path: tuple) -> list[int]:
        """The nodes that give ``path``'s moves as givens, where the
        engine's moves can be given (option numbers by default)."""
        return self.option_nodes(arrays, path)

    def start_job(
        self, arrays, given_nodes: list[int], path: tuple, cutoff: int
    ) -> Run | None:
        """A ``Run`` at the root of the subtree at ``path``, its
        ``counters[1]`` starting at the updates of reaching it (the job's
        own figures are what it adds), or None where a job is only counted
        in one call (``run_job``)."""
        return self.start(
            arrays, list(given_nodes) + self.path_nodes(arrays, path), cutoff
        )

    def run_job(
        self,
        arrays,
        given_nodes: list[int],
        path: tuple,
        cutoff: int,
        budget: int = 0,
    ) -> JobResult:
        """Count the subtree at ``path``, for at most ``budget`` nodes when
        the engine ``hands_back`` (0: to the end)."""
        raise NotImplementedError

    # -- estimating ------------------------------------------------------
    def probe(
        self,
        arrays,
        given_nodes: list[int],
        cutoff: int,
        probes: int,
        seed: int,
    ):
        """Knuth's random root-to-leaf walks below the givens: an array of
        ``probes`` rows ``(nodes, updates, solutions)``, each an unbiased
        estimate of the tree's figures (the givens' own updates excluded).
        The default walks ``top``'s tree from Python; engines with a probe
        kernel do it there."""
        from .walk import probe_top

        return probe_top(self.top(arrays, given_nodes, cutoff), probes, seed)

    def __repr__(self) -> str:
        return f"<engine {self.name} ({self.program})>"
