"""DLX1, Knuth's dancing links for plain exact cover: the engine.

``Links`` builds Knuth's DLX1 arrays (see ``dlx.kernels.dlx1``) from the
problem's options as compressed sparse rows (``ExactCover.csr``), in one
pass of ``dlx.kernels.build``, or from its structure (item numbers option
after option, ``members``, 1-based, and ``sizes``); ``NodeOptions`` tells
the option of a node.
``LinksRun`` is one search over a private copy of them, ``run_batch`` runs
``solve_batch`` over many instances on threads, ``LinksTop`` walks the top
of the tree one node at a time (to split it into jobs), ``run_job`` counts
one job and hands back the rest when its node budget runs out, and
``DLX1`` is the engine that the services see.
"""

from __future__ import annotations

import threading
from typing import Any

import numpy as np

from ..kernels import build as B, dlx1 as K
from ..kernels.jit import compiled
from .base import EXACT, NO_LIMIT, Engine, JobResult, Run, Top, count_job
from .threads import batch_chunks, columns_used, flat_paths, run_tasks


class NodeOptions:
    """The option of each node, ``self[nodes]`` (an int for one node, an
    int32 array for an array of them; -1 for a header or a spacer).

    A problem of at most ``KEEP_NODES`` nodes makes the table of every
    node's option at its first lookup (a batch decodes thousands of
    solutions at once); a bigger one looks nodes up in ``option_start``
    (each option's first node) instead of keeping four bytes a node: a
    binary search per node, and only the solutions' nodes are looked up.
    Both layouts put one spacer between options, so option ``j``'s nodes
    end before ``option_start[j + 1] - 1``; ``last`` is the last spacer.
    """

    __slots__ = ("start", "last", "table")

    def __init__(self, option_start: np.ndarray, last: int):
        self.start = option_start
        self.last = last
        self.table: np.ndarray | None = None

    def _search(self, nodes: np.ndarray) -> np.ndarray:
        start = self.start
        m = len(start)
        j = np.searchsorted(start, nodes, side="right") - 1
        if m:
            after = np.where(
                j + 1 < m, start[np.minimum(j + 1, m - 1)], self.last + 1
            )
            j = np.where((j >= 0) & (nodes < after - 1), j, -1)
        return j.astype(np.int32)

    def __getitem__(self, nodes):
        table = self.table
        if table is None and self.last < KEEP_NODES:
            table = self.table = self._search(np.arange(self.last + 1))
        j = self._search(np.asarray(nodes)) if table is None else table[nodes]
        return int(j) if np.ndim(j) == 0 else j

    def __len__(self) -> int:
        return self.last + 1


def kernel_rows(indptr, indices, total: int):
    """The rows as the build kernels take them: for a problem of at most
    ``KEEP_NODES`` nodes, ``indptr`` int64 and ``indices`` int32 (one
    compiled version of each build kernel serves every small problem, so
    none of them costs a compile), for a bigger one the model's own
    arrays (no copy)."""
    if total <= KEEP_NODES:
        return (np.asarray(indptr, np.int64), np.asarray(indices, np.int32))
    return indptr, indices


def check_nodes(total: int) -> None:
    """The kernels' int32 arrays can number ``total`` nodes, or a
    ValueError says the problem is too big for them."""
    if total > np.iinfo(np.int32).max:
        raise ValueError(
            f"the problem needs {total:,} nodes; the search's "
            f"int32 arrays hold at most 2,147,483,647"
        )


#: A problem with more nodes than this keeps no spare ``ulink``/``dlink``:
#: each run builds its own from the model's rows (see ``Links``).
KEEP_NODES = 1 << 22

# The probes of an estimate made in one kernel call: between two calls
# Ctrl-C is seen (a probe of a big problem takes about a millisecond).
PROBES_A_CALL = 1024


class Links:
    """The DLX1 arrays of one problem (see ``dlx.kernels.dlx1``).

    They are never changed: a run searches fresh copies of the mutable
    ones (``copy_arrays``).  Up to ``KEEP_NODES`` nodes, the copies are
    made from a pristine set kept here; a bigger problem keeps no
    ``ulink`` and ``dlink`` (None) and builds each run's from the model's
    rows, one pass over the members instead of a copy, which spares
    eight bytes a node for as long as the problem lives (a third of the
    memory of a search of ten million options).
    """

    __slots__ = (
        "llink",
        "rlink",
        "ulink",
        "dlink",
        "top",
        "length",
        "option_of",
        "option_start",
        "nprimary",
        "color",
        "rows",
    )

    def __init__(
        self,
        nitems: int,
        nprimary: int,
        members: np.ndarray,
        sizes: np.ndarray,
        colors: np.ndarray | None = None,
    ):
        """Build from ``members`` (1-based item numbers, option after option)
        and ``sizes`` (items per option); ``colors`` (one code per member,
        0 for none) adds DLX2's ``color`` array (``dlx.kernels.dlx2``).

        An option with no primary item is left out of the vertical lists
        (its nodes point to themselves), as Knuth's programs ignore it: no
        search can choose it, and covering its items does not count it.
        """
        indptr = np.zeros(len(sizes) + 1, np.int64)
        np.cumsum(sizes, out=indptr[1:])
        self._build(nitems, nprimary, indptr, np.asarray(members), 0, colors)

    @classmethod
    def from_csr(cls, csr) -> Links:
        """Build from a problem's ``csr()`` (its colors included)."""
        links = cls.__new__(cls)
        links._build(
            csr.nitems, csr.nprimary, csr.indptr, csr.indices, 1, csr.colors
        )
        return links

    def _build(self, nitems, nprimary, indptr, indices, base, colors):
        """Item ``k`` of member ``t`` is ``indices[t] + base``, from 1;
        option ``j`` is ``indices[indptr[j]:indptr[j + 1]]`` (the walk of
        ``dlx.kernels.build.link_options``)."""
        n = nitems
        m = len(indptr) - 1
        total = n + 1 + len(indices) + m + 1
        check_nodes(total)
        indptr, indices = kernel_rows(indptr, indices, total)
        top = np.zeros(total, np.int32)
        ulink: np.ndarray | None = np.zeros(total, np.int32)
        dlink: np.ndarray | None = np.zeros(total, np.int32)
        length = np.zeros(n + 2, np.int32)
        B.link_options(
            indptr, indices, base, n, nprimary, top, ulink, dlink, length, True
        )
        self.rows = None
        if total > KEEP_NODES:  # rebuilt for each run: see copy_arrays
            self.rows = (indptr, indices, base, n)
            ulink = dlink = None
        # Option j's first node is n + 2 + indptr[j] + j.
        first = np.arange(n + 2, n + 2 + m, dtype=np.int32)
        first += indptr[:-1]

        # Item lists: primary 1..nprimary around root 0, secondary around
        # root n+1.
        llink = np.zeros(n + 2, np.int32)
        rlink = np.zeros(n + 2, np.int32)
        for root, lo, hi in ((0, 1, nprimary), (n + 1, nprimary + 1, n)):
            ring = np.concatenate(([root], np.arange(lo, hi + 1)))
            rlink[ring] = np.roll(ring, -1)
            llink[ring] = np.roll(ring, 1)

        self.color = None
        if colors is not None:
            # Member nodes are the nodes past the first spacer whose top
            # is an item (spacers have top <= 0), in member order.
            self.color = np.zeros(total, np.int32)
            self.color[n + 2 :][top[n + 2 :] > 0] = colors
        self.llink, self.rlink = llink, rlink
        self.ulink, self.dlink, self.top = ulink, dlink, top
        self.length = length
        self.option_start = first
        self.option_of = NodeOptions(first, total - 1)
        self.nprimary = nprimary

    def copy_arrays(self):
        """Fresh copies of the mutable arrays, in kernel argument order."""
        if self.rows is None:
            assert self.ulink is not None and self.dlink is not None
            ulink, dlink = self.ulink.copy(), self.dlink.copy()
        else:
            indptr, indices, base, n = self.rows
            ulink = np.empty(len(self.top), np.int32)
            dlink = np.empty(len(self.top), np.int32)
            B.link_options(
                indptr,
                indices,
                base,
                n,
                self.nprimary,
                self.top,
                ulink,
                dlink,
                np.zeros(n + 2, np.int32),
                False,
            )
        return (
            self.llink.copy(),
            self.rlink.copy(),
            ulink,
            dlink,
            self.top,
            self.length.copy(),
        )


_loaded: set = set()


def load_kernels(*kernels: str) -> None:
    """Load (or compile) kernels once per process, outside any timing.

    numba compiles a kernel, or loads it from its cache, on its first call;
    that call is made here on a one-item problem so that ``stats.seconds``
    measures the search alone.  ``kernels`` names what the caller is about
    to use: ``"search"``, ``"batch"`` (solve_batch) or ``"steps"`` (the
    single steps the parallel count calls from Python).
    """
    wanted = set(kernels) - _loaded
    if not wanted:
        return
    tiny = Links(1, 1, np.array([1], np.int64), np.array([1], np.int64))
    arrays = tiny.copy_arrays()
    if "steps" in wanted:
        p = int(tiny.option_start[0])
        K.commit_option(p, *arrays)
        K.release_option(p, *arrays)
        K.choose_item(arrays[0], arrays[1], arrays[5], 0)
        K.cover(1, *arrays)
        K.cover_rest(p, *arrays)
        K.uncover_rest(p, *arrays)
        K.uncover(1, *arrays)
    if "search" in wanted:
        K.search(
            *arrays,
            np.zeros(2, np.int32),
            np.array([0, K.FORWARD]),
            np.zeros((1, 2), np.int32),
            np.zeros(1, np.int32),
            0,
            NO_LIMIT,
            np.zeros(3, np.int64),
            0,
        )
    if "batch" in wanted:
        K.solve_batch(
            *arrays,
            np.zeros(0, np.int32),
            np.array([0, 0]),
            1,
            NO_LIMIT,
            np.zeros((1, 2), np.int32),
            np.zeros(1, np.int32),
            np.zeros(1, np.int64),
            np.zeros((1, 3), np.int64),
            0,
            np.zeros(1, np.uint8),
        )
    _loaded.update(wanted)


def commit_givens(nodes, arrays) -> int | None:
    """Choose the given options (by first node) on ``arrays``: returns the
    link updates, or None when one overlaps an earlier one (the arrays are
    then left part-way and must be dropped)."""
    updates = 0
    for p in nodes:
        u = K.commit_option(p, *arrays)
        if u < 0:
            return None
        updates += u
    return updates


def run_batch(
    arrays,
    nodes,
    starts,
    limit,
    max_nodes,
    depth,
    threads,
    cutoff,
    chunks_per_thread=16,
    deadline=None,
    solve=None,
    event=None,
):
    """Run ``K.solve_batch`` over CSR instances, in chunks on ``threads``
    threads (each with its own copy of the links); about
    ``chunks_per_thread`` chunks per thread.

    Returns ``counts``, ``first`` (option nodes of the first solution,
    ``-1`` padded), ``work`` (nodes, search updates, given updates) and
    what stopped it early (see ``dlx.engines.threads.wait``: ``"deadline"`` for
    ``deadline``, a ``time.perf_counter()`` value, ``"interrupt"`` for
    Ctrl-C, ``"stopped"`` for the stop ``event``, None): every instance
    cut short has ``counts`` ``K.STOPPED``.
    ``solve`` is the kernel (another algorithm's ``solve_batch`` with the
    same arguments after its own arrays).
    The search runs on worker threads even for one thread, so that this
    one stays free to notice Ctrl-C.
    """
    if solve is None:  # looked up now: compiling rebinds the name (jit)
        solve = K.solve_batch
    # Always compiled: a batch call is not cut short between instances,
    # and plain Python could run one hard instance for seconds (the
    # bitset engines' batches try a few plain nodes first instead).
    solve = compiled(solve)
    nbatch = len(starts) - 1
    first = np.full((nbatch, depth), -1, np.int32)
    first_len = np.zeros(nbatch, np.int32)
    counts = np.zeros(nbatch, np.int64)
    work = np.zeros((nbatch, 3), np.int64)
    stop = np.zeros(1, np.uint8)

    def run(lo, hi, links):
        sub = starts[lo : hi + 1]
        solve(
            *links,
            nodes[sub[0] : sub[-1]],
            sub - sub[0],
            limit,
            max_nodes,
            first[lo:hi],
            first_len[lo:hi],
            counts[lo:hi],
            work[lo:hi],
            cutoff,
            stop,
        )

    threads, bounds = batch_chunks(nbatch, threads, chunks_per_thread)
    local = threading.local()

    def task(k):
        if threads == 1:
            local.links = arrays
        elif not hasattr(local, "links"):
            local.links = tuple(a.copy() for a in arrays)
        run(bounds[k], bounds[k + 1], local.links)

    stopped_by = run_tasks(
        task, len(bounds) - 1, threads, stop, deadline, event
    )
    return counts, first, work, stopped_by


class LinksStops:
    """Where a DLX1 or DLX2 run stopped at its node bound, and how to
    leave that node (``Run.stopped_at``, ``Run.skip``): both kernels keep
    ``state`` ``(level, where)``, the option node tried at each level in
    ``choice`` and the links first in their arrays."""

    K: Any  # the kernel module (dlx.kernels.dlx1 or dlx2)
    arrays: tuple
    choice: np.ndarray
    state: np.ndarray
    option_of: NodeOptions
    cutoff: int

    def stopped_at(self):
        """The kernel stops on entering a node (``state`` is ``(level,
        FORWARD)``): its path is the options of ``choice[0..level-1]``, and
        a level's degree the length of its item's list (untouched below
        it: every option meeting the item is hidden elsewhere)."""
        dlink, top = self.arrays[3], self.arrays[4]
        moves, degrees = [], []
        for k in range(int(self.state[0])):
            p = int(self.choice[k])
            best = int(top[p])
            degree, q = 0, int(dlink[best])
            while q != best:
                degree += 1
                q = int(dlink[q])
            moves.append(int(self.option_of[p]))
            degrees.append(degree)
        return tuple(moves), degrees

    def leaf(self):
        """A dead end: the item the search would choose has no option left
        (solutions never stop it: they are counted at their parent)."""
        K = self.K
        best = K.choose_item(
            self.arrays[0], self.arrays[1], self.arrays[5], self.cutoff
        )
        return bool(self.arrays[5][best] == 0)

    def skip(self):
        """Resume at X6 one level up: undo the option tried there and try
        the next (the node entered below it is left out)."""
        self.state[:] = (int(self.state[0]) - 1, K.RECOVER)


class LinksRun(LinksStops, Run):
    """One DLX1 search over a private copy of ``links``, for ``dlx.services.search``.

    The given options are committed first; ``clash`` tells that they
    overlap (no solution), ``covered`` that they already cover every
    primary item (one solution, the empty set of further options).  The
    search itself may only start when neither holds.
    """

    def __init__(self, links: Links, given_nodes: list[int], cutoff: int):
        load_kernels("search")
        self.K = K
        self.arrays = links.copy_arrays()
        self.counters = np.zeros(3, np.int64)
        updates = commit_givens(given_nodes, self.arrays)
        self.clash = updates is None
        self.counters[1] = updates or 0
        self.covered = not self.clash and self.arrays[1][0] == 0
        self.depth = links.nprimary + 1
        self.choice = np.zeros(self.depth, np.int32)
        self.state = np.array([0, K.FORWARD], np.int64)
        self.option_of = links.option_of
        self.cutoff = cutoff

    def explored(self) -> float:
        """The share of the tree explored so far (Knuth's measure, as
        DLX1's progress reports compute it)."""
        level, where = int(self.state[0]), int(self.state[1])
        if where == K.DONE:
            return 1.0
        levels = level + 1 if where == K.RECOVER else level
        return float(
            K.explored(
                self.arrays[3],
                self.arrays[4],
                self.arrays[5],
                self.choice,
                levels,
            )
        )

    def step(self, want: int, stop_at: int, store: bool):
        """One kernel call: see ``dlx.services.search``."""
        keep = want if store else 0
        out = np.zeros((keep, self.depth), np.int32)
        out_len = np.zeros(keep, np.int32)
        before = int(self.counters[2])
        status = K.search(
            *self.arrays,
            self.choice,
            self.state,
            out,
            out_len,
            want,
            stop_at,
            self.counters,
            self.cutoff,
        )
        stored = min(int(self.counters[2]) - before, keep)
        return status, [
            self.option_of[out[r, : out_len[r]]].tolist()
            for r in range(stored)
        ]


class LinksTop(Top):
    """DLX1's search tree near the root, walked from Python one node at a
    time with the kernels' single steps (the item is chosen as the search
    chooses it, so the frontier is the search's own).  Paths are option
    numbers."""

    def __init__(self, links: Links, given_nodes, cutoff: int):
        load_kernels("steps")
        self.arrays = links.copy_arrays()
        self.option_start = links.option_start
        self.option_of = links.option_of
        self.cutoff = cutoff
        updates = commit_givens(given_nodes, self.arrays)
        self.clash = updates is None
        self.base = updates or 0
        self.covered = not self.clash and self.arrays[1][0] == 0

    def _enter(self, path):
        nodes = [int(self.option_start[k]) for k in path]
        for p in nodes:
            K.commit_option(p, *self.arrays)
        return nodes

    def _leave(self, nodes):
        for p in reversed(nodes):
            K.release_option(p, *self.arrays)

    def expand(self, path):
        arrays = self.arrays
        llink, rlink, dlink = arrays[0], arrays[1], arrays[3]
        nodes = self._enter(path)
        best = K.choose_item(llink, rlink, arrays[5], self.cutoff)
        updates = K.cover(best, *arrays)
        children = []
        p = int(dlink[best])
        while p != best:
            updates += K.cover_rest(p, *arrays)
            children.append(((int(self.option_of[p]),), bool(rlink[0] == 0)))
            K.uncover_rest(p, *arrays)
            p = int(dlink[p])
        K.uncover(best, *arrays)
        self._leave(nodes)
        return updates, children

    def size(self, path, probes: int, seed: int):
        load_kernels("search")
        nodes = self._enter(path)
        out = np.zeros((probes, 3))
        choice = np.zeros(len(self.arrays[0]), np.int32)
        K.estimate(*self.arrays, choice, self.cutoff, seed, out)
        self._leave(nodes)
        return float(out[:, 0].mean()), float(out[:, 1].mean())


def run_job(
    links: Links, given_nodes, path: tuple, cutoff: int, budget: int = 0
) -> JobResult:
    """Count the subtree at ``path`` (option numbers below the givens) for
    at most ``budget`` nodes (0: to its end), handing back the rest; see
    ``Engine.run_job`` and ``dlx.engines.base.count_job``.

    DLX1 restores its links exactly, so the subtree counted with the
    path's options given is the one search's subtree, node for node; the
    updates of committing them belong to the split, not to the job.
    """
    run = LinksRun(
        links,
        list(given_nodes) + [int(links.option_start[k]) for k in path],
        cutoff,
    )
    return count_job(run, tuple(path), budget)


class DLX1(Engine):
    """Knuth's DLX1: dancing links, plain exact cover (secondary items
    included)."""

    name = "dlx1"
    program = "DLX1"
    algorithm = "links"
    kinds = frozenset({EXACT})
    about = "Knuth's DLX1 (dancing links)"
    hands_back = True
    #: DLX1's arrays are DLX2's and the memo's: built once for all three.
    arrays_key = "links"

    def build(self, problem) -> Links:
        return Links.from_csr(problem.csr())

    def load(self, *parts):
        load_kernels(*("steps" if part == "split" else part for part in parts))

    def start(self, arrays, given_nodes, cutoff):
        return LinksRun(arrays, given_nodes, cutoff)

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
        load_kernels("batch")
        counts, first, work, stopped_by = run_batch(
            arrays.copy_arrays(),
            nodes,
            starts,
            limit,
            max_nodes,
            arrays.nprimary + 1,
            threads,
            cutoff,
            chunks_per_thread,
            deadline,
            event=event,
        )
        return (
            counts,
            option_numbers(first, arrays.option_of),
            work,
            stopped_by,
        )

    def top(self, arrays, given_nodes, cutoff):
        return LinksTop(arrays, given_nodes, cutoff)

    def count_paths(
        self,
        arrays,
        given_nodes,
        paths,
        threads,
        cutoff,
        deadline=None,
        event=None,
    ):
        load_kernels("batch")
        nodes, starts = flat_paths(
            [
                list(given_nodes) + [int(arrays.option_start[k]) for k in path]
                for path in paths
            ]
        )
        # Subtrees next to each other share a prefix and are often alike
        # in size, so each is a chunk of its own.
        counts, _, work, stopped_by = run_batch(
            arrays.copy_arrays(),
            nodes,
            starts,
            0,
            NO_LIMIT,
            arrays.nprimary + 1,
            threads,
            cutoff,
            chunks_per_thread=max(1, len(paths)),
            deadline=deadline,
            event=event,
        )
        return counts, work, stopped_by

    def run_job(self, arrays, given_nodes, path, cutoff, budget=0):
        return run_job(arrays, given_nodes, path, cutoff, budget)

    def probe(self, arrays, given_nodes, cutoff, probes, seed):
        load_kernels("search")
        copy = arrays.copy_arrays()
        commit_givens(given_nodes, copy)
        out = np.zeros((probes, 3), np.float64)
        choice = np.zeros(arrays.nprimary + 1, np.int32)
        # In slices, each going on with the random numbers of the one
        # before (the same probes as one call): Ctrl-C is seen between two.
        for start in range(0, probes, PROBES_A_CALL):
            K.estimate(
                *copy,
                choice,
                cutoff,
                seed if start == 0 else -1,
                out[start : start + PROBES_A_CALL],
            )
        return out


def option_numbers(first: np.ndarray, option_of: np.ndarray) -> np.ndarray:
    """Rows of option nodes (``-1``-padded, as ``solve_batch`` keeps the
    first solutions) as option numbers, trimmed to the columns in use."""
    width = columns_used(first)
    return np.where(
        first[:, :width] >= 0, option_of[first[:, :width]], np.int32(-1)
    ).astype(np.int32, copy=False)
