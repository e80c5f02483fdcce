"""DLX1 on the engine's side: the arrays of a problem, and running them.

``Links`` builds Knuth's DLX1 arrays (see ``dlx.kernels.links``) from the
shared input every algorithm starts from: item numbers option after option
(``members``, 1-based) and the number of items in each option (``sizes``).
``LinksRun`` is one search over a private copy of them, in the form
``dlx.search.run`` drives; ``run_batch`` runs ``solve_batch`` over many
instances on threads, and ``count_parallel`` counts one tree on threads by
splitting its top levels.
"""

from __future__ import annotations

import threading
import time

import numpy as np

from .kernels import links as K
from .search import (NO_LIMIT, Stats, batch_chunks, finish_split, flat_paths,
                     run_tasks)

class Links:
    """The DLX1 arrays of one problem (see ``dlx.kernels.links``)."""

    __slots__ = ("llink", "rlink", "ulink", "dlink", "top", "length",
                 "option_of", "option_start", "nprimary", "color")

    def __init__(self, nitems: int, nprimary: int, members: np.ndarray,
                 sizes: np.ndarray, colors: np.ndarray | None = None):
        """Build from ``members`` (1-based item numbers, option after option)
        and ``sizes`` (items per option); ``colors`` (one code per member,
        0 for none) adds DLX2's ``color`` array (``dlx.kernels.colors``).

        An option with no primary item is left out of the vertical lists
        (its nodes point to themselves), as Knuth's programs ignore it: no
        search can choose it, and covering its items does not count it.
        """
        n = nitems
        m = len(sizes)
        owner = np.repeat(np.arange(m), sizes)
        all_members, all_owner = members, owner
        linked = np.zeros(m, bool)
        linked[owner[members <= nprimary]] = True
        if not linked.all():
            members = members[linked[owner]]
        total = n + 1 + len(all_members) + m + 1
        # Node numbers: option j's first node is n + 2 + start_j + j.
        starts = np.zeros(m + 1, np.int64)
        np.cumsum(sizes, out=starts[1:])
        first = n + 2 + starts[:-1] + np.arange(m)
        spacers = np.empty(m + 1, np.int64)
        spacers[0] = n + 1
        spacers[1:] = first + sizes
        node_of_all = np.arange(len(all_members)) + n + 2 + all_owner
        node_of_member = node_of_all
        if len(members) < len(all_members):
            node_of_member = node_of_all[linked[all_owner]]

        top = np.zeros(total, np.int32)
        ulink = np.zeros(total, np.int32)
        dlink = np.zeros(total, np.int32)
        top[node_of_all] = all_members
        if len(members) < len(all_members):  # unlinked nodes: self-loops
            ulink[node_of_all] = node_of_all
            dlink[node_of_all] = node_of_all
        top[spacers] = -np.arange(m + 1)
        # Vertical lists: each item's nodes in option order, closed through
        # the header node (item k's header is node k).
        order = np.argsort(members, kind="stable")
        nodes_sorted = node_of_member[order]
        items_sorted = members[order]
        length = np.bincount(members, minlength=n + 2).astype(np.int32)
        length[0] = 0
        length[n + 1] = 0
        ulink[: n + 1] = np.arange(n + 1)
        dlink[: n + 1] = np.arange(n + 1)
        if len(members):
            is_head = np.ones(len(members), bool)
            is_head[1:] = items_sorted[1:] != items_sorted[:-1]
            is_tail = np.ones(len(members), bool)
            is_tail[:-1] = is_head[1:]
            prev = np.empty(len(members), np.int64)
            prev[1:] = nodes_sorted[:-1]
            prev[is_head] = items_sorted[is_head]
            nxt = np.empty(len(members), np.int64)
            nxt[:-1] = nodes_sorted[1:]
            nxt[is_tail] = items_sorted[is_tail]
            ulink[nodes_sorted] = prev
            dlink[nodes_sorted] = nxt
            dlink[items_sorted[is_head]] = nodes_sorted[is_head]
            ulink[items_sorted[is_tail]] = nodes_sorted[is_tail]
        # Spacers: ulink = first node of the option above, dlink = last node
        # of the option below.
        ulink[spacers[1:]] = first
        dlink[spacers[:-1]] = first + sizes - 1
        ulink[spacers[0]] = 0
        dlink[spacers[-1]] = 0

        # Item lists: primary 1..nprimary around root 0, secondary around
        # root n+1.
        llink = np.zeros(n + 2, np.int32)
        rlink = np.zeros(n + 2, np.int32)
        for root, lo, hi in ((0, 1, nprimary), (n + 1, nprimary + 1, n)):
            ring = np.concatenate(([root], np.arange(lo, hi + 1)))
            rlink[ring] = np.roll(ring, -1)
            llink[ring] = np.roll(ring, 1)

        option_of = np.full(total, -1, np.int32)
        option_of[node_of_all] = all_owner
        self.color = None
        if colors is not None:
            self.color = np.zeros(total, np.int32)
            self.color[node_of_all] = colors
        self.llink, self.rlink = llink, rlink
        self.ulink, self.dlink, self.top = ulink, dlink, top
        self.length = length
        self.option_of = option_of
        self.option_start = first.astype(np.int32)
        self.nprimary = nprimary

    def copy_arrays(self):
        """Fresh copies of the mutable arrays, in kernel argument order."""
        return (self.llink.copy(), self.rlink.copy(), self.ulink.copy(),
                self.dlink.copy(), self.top, self.length.copy())


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
        K.search(*arrays, np.zeros(2, np.int32), np.array([0, K.FORWARD]),
                 np.zeros((1, 2), np.int32), np.zeros(1, np.int32), 0,
                 NO_LIMIT, np.zeros(3, np.int64), 0)
    if "batch" in wanted:
        K.solve_batch(*arrays, np.zeros(0, np.int32), np.array([0, 0]), 1,
                      NO_LIMIT, np.zeros((1, 2), np.int32),
                      np.zeros(1, np.int32), np.zeros(1, np.int64),
                      np.zeros((1, 3), np.int64), 0, np.zeros(1, np.uint8))
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


def columns_used(first: np.ndarray) -> int:
    """How many columns of a ``-1``-padded solutions array are in use."""
    used = (first >= 0).sum(axis=1)
    return int(used.max()) if len(used) else 0


def run_batch(arrays, nodes, starts, limit, max_nodes, depth, threads,
              cutoff, chunks_per_thread=16, deadline=None,
              solve=K.solve_batch):
    """Run ``K.solve_batch`` over CSR instances, in chunks on ``threads``
    threads (each with its own copy of the links); about
    ``chunks_per_thread`` chunks per thread.

    Returns ``counts``, ``first`` (option nodes of the first solution,
    ``-1`` padded), ``work`` (nodes, search updates, given updates) and
    what stopped it early (see ``dlx.search.wait``: ``"deadline"`` for
    ``deadline``, a ``time.perf_counter()`` value, ``"interrupt"`` for
    Ctrl-C, None): every instance cut short has ``counts`` ``K.STOPPED``.
    ``solve`` is the kernel (another algorithm's ``solve_batch`` with the
    same arguments after its own arrays).
    The search runs on worker threads even for one thread, so that this
    one stays free to notice Ctrl-C.
    """
    nbatch = len(starts) - 1
    first = np.full((nbatch, depth), -1, np.int32)
    first_len = np.zeros(nbatch, np.int32)
    counts = np.zeros(nbatch, np.int64)
    work = np.zeros((nbatch, 3), np.int64)
    stop = np.zeros(1, np.uint8)

    def run(lo, hi, links):
        sub = starts[lo:hi + 1]
        solve(*links, nodes[sub[0]:sub[-1]], sub - sub[0], limit,
              max_nodes, first[lo:hi], first_len[lo:hi], counts[lo:hi],
              work[lo:hi], cutoff, stop)

    threads, bounds = batch_chunks(nbatch, threads, chunks_per_thread)
    local = threading.local()

    def task(k):
        if threads == 1:
            local.links = arrays
        elif not hasattr(local, "links"):
            local.links = tuple(a.copy() for a in arrays)
        run(bounds[k], bounds[k + 1], local.links)

    stopped_by = run_tasks(task, len(bounds) - 1, threads, stop, deadline)
    return counts, first, work, stopped_by


def count_parallel(links: Links, given_nodes: list[int], threads: int,
                   cutoff: int, stats: Stats, deadline=None) -> int:
    """Count on ``threads`` threads by splitting the top of the tree.

    The top levels are expanded here, exactly as the kernel would (MRV
    item, options in order), counting their nodes and updates like DLX1;
    each frontier node becomes one instance of ``solve_batch`` whose givens
    are the options on its path.  ``stats`` is kept current.  Raises
    ``BudgetExhausted`` at the deadline and ``Interrupted`` on Ctrl-C, with
    the solutions of the subtrees finished by then.
    """
    load_kernels("steps", "batch")
    stats.complete = False
    t0 = time.perf_counter()
    arrays = links.copy_arrays()
    llink, rlink = arrays[0], arrays[1]
    updates = commit_givens(given_nodes, arrays)
    if updates is None:  # the givens overlap: no solution
        stats.complete = True
        return 0
    stats.updates += updates
    if rlink[0] == 0:  # the givens alone are a cover: one leaf node
        stats.nodes = stats.solutions = 1
        stats.complete = True
        return 1
    frontier = [()]
    shallow = 0
    target = 64 * threads
    for _ in range(4):  # at most four levels expanded here
        if not frontier or len(frontier) >= target:
            break
        grown = []
        for path in frontier:
            for p in path:
                K.commit_option(p, *arrays)
            stats.nodes += 1
            best = K.choose_item(llink, rlink, arrays[5], cutoff)
            stats.updates += K.cover(best, *arrays)
            p = int(arrays[3][best])
            while p != best:
                stats.updates += K.cover_rest(p, *arrays)
                if rlink[0] == 0:  # a solution: a leaf node
                    shallow += 1
                    stats.nodes += 1
                else:
                    grown.append(path + (p,))
                K.uncover_rest(p, *arrays)
                p = int(arrays[3][p])
            K.uncover(best, *arrays)
            for p in reversed(path):
                K.release_option(p, *arrays)
        frontier = grown
    nodes, starts = flat_paths(frontier)
    # Subtrees next to each other in the frontier share a prefix and are
    # often alike in size, so each is a chunk of its own.
    counts, _, work, stopped_by = run_batch(
        arrays, nodes, starts, 0, NO_LIMIT, links.nprimary + 1, threads,
        cutoff, chunks_per_thread=len(frontier), deadline=deadline)
    return finish_split(stats, t0, shallow, counts, work, stopped_by)


class LinksRun:
    """One DLX1 search over a private copy of ``links``, for ``dlx.search``.

    The given options are committed first; ``clash`` tells that they
    overlap (no solution), ``covered`` that they already cover every
    primary item (one solution, the empty set of further options).  The
    search itself may only start when neither holds.
    """

    def __init__(self, links: Links, given_nodes: list[int], cutoff: int):
        load_kernels("search")
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
        return float(K.explored(self.arrays[3], self.arrays[4],
                                self.arrays[5], self.choice, levels))

    def step(self, want: int, stop_at: int, store: bool):
        """One kernel call: see ``dlx.search``."""
        keep = want if store else 0
        out = np.zeros((keep, self.depth), np.int32)
        out_len = np.zeros(keep, np.int32)
        before = int(self.counters[2])
        status = K.search(*self.arrays, self.choice, self.state, out, out_len,
                          want, stop_at, self.counters, self.cutoff)
        stored = min(int(self.counters[2]) - before, keep)
        return status, [self.option_of[out[r, :out_len[r]]].tolist()
                        for r in range(stored)]
