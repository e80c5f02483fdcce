"""DLX5: the cheapest solutions of a problem whose options have costs.

Knuth's DLX5 is DLX2 (colors) with costs: it finds a solution of least
total cost, or the ``k`` cheapest, pruning every branch whose cheapest
completion cannot beat the ``k``-th best found so far (see
``dlx.kernels.dlx5`` for the taxes, the net costs and where the
threshold lives).  This module builds the kernel's arrays from a problem
(``CostArrays``), runs the kernel (``CostRun``) and walks the top of its
tree (``CostsTop``) to cut it into jobs; ``dlx.services.best`` drives it
with budgets, Ctrl-C and progress, on threads and in jobs.  The same for
problems with bounds is ``dlx.engines.dlx3_costs`` (DLX3 with DLX5's
costs), on the common parts of this module (``Reach``, ``GrowingHeap``,
``sort_lists``).

A job of a split is a path in the engine's tree below the givens: option
numbers for DLX5 (its subtree: the solutions that contain them, as for
DLX2), the kernel's own moves with bounds, one a level (an option's node
in the list of the item the level branches on, or that item's header for
its null move, as in ``choice``): replayed (``replay``), the options
tried before a move on its level are taken out of the problem, as DLX3's
tweaks take them out (an item that may take several options would
otherwise meet one set of options on several branches), and a null move
takes its item out of the active list.  A run started at a path
(``start_best(..., path=)``) searches that subtree under the shared
threshold, and its ``best()`` includes the path's options.

A job cut short by a node budget hands back its unexplored rest as new
jobs (``dlx.engines.base.count_job``, as the counting engines do; the
runs say where they stopped, ``stopped_at``, and leave that node,
``skip``), in the same vocabulary.  With no threshold (``k`` at least the
solutions) the pieces' nodes, updates and solutions add up to the job's:
a replay leaves the lists as the search left them.  Under a threshold
they do not (DLX5's covers hide only the options below the threshold of
the moment, a replay hides them all, and DLX3 with costs leaves the
options too dear for a level in the lists where a replay takes them out,
so the choice of item may differ), but every solution below the
threshold is in exactly one piece.
"""

from __future__ import annotations

import numpy as np

from ..kernels import dlx5 as K
from .base import COLORS, EXACT, MULTIPLICITIES, Engine, Run, Top, Unsupported
from .dlx1 import Links

#: No threshold yet: every solution's net cost is below it.
INF = int(K.INF)
#: Problems whose node numbers are below this take 16-bit links.
SMALL = 1 << 15


class Reach:
    """``reach``: the most a solution's searched options may cost beyond
    the taxes (the sum over primary items of their largest share)."""

    reach: int
    cost: np.ndarray

    def wide_with(self, given_nodes) -> bool:
        """Whether a solution through the options at ``given_nodes`` may
        cost INF or more beyond the taxes, past what the kernel sees: the
        givens' net cost counts too (an option without primary items is
        only ever given, and has no share in ``reach``)."""
        return self.reach + sum(int(self.cost[p]) for p in given_nodes) >= INF


class CostArrays(Reach):
    """DLX5's arrays for one problem: DLX2's, with each node's ``ulink``,
    ``dlink``, ``top`` and ``color`` side by side in ``nd`` (node ``q``'s
    at ``4q`` to ``4q + 3``: one cache line, as in DLX5's node struct),
    the net ``cost``
    of each node, each item's list sorted by net cost; ``tax`` per item and
    ``total_tax`` (a Python int: a solution costs ``total_tax`` plus its
    net costs); ``option_of``/``option_start`` as in ``dlx.engines.dlx1.Links``;
    ``depth``, the most levels a search takes, plus one."""

    __slots__ = (
        "llink",
        "rlink",
        "nd",
        "length",
        "cost",
        "tax",
        "total_tax",
        "option_of",
        "option_start",
        "nprimary",
        "depth",
        "wide",
    )

    def __init__(self, links: Links, costs):
        """From a problem's DLX arrays (``links``, its ``color`` used when
        present) and the cost of each option."""
        nitems = len(links.llink) - 2
        nprimary = links.nprimary
        total = len(links.top)
        color = links.color
        color = np.zeros(total, np.int32) if color is None else color.copy()
        # (copy_arrays: a big problem's Links keeps no ulink/dlink, only
        # what rebuilds them)
        ulink, dlink = links.copy_arrays()[2:4]
        top = links.top
        option_of = links.option_of[np.arange(len(links.top))]
        costs = np.asarray(costs, np.int64).reshape(-1)
        cost = np.zeros(total, np.int64)
        member = option_of >= 0
        cost[member] = costs[option_of[member]]
        tax = np.zeros(nitems + 2, np.int64)
        nd: np.ndarray = np.empty((total, 4), np.int32)
        nd[:, 0], nd[:, 1], nd[:, 2], nd[:, 3] = ulink, dlink, top, color
        # (the kernel's own total could overflow: summed here instead)
        K.assign_taxes(nd.reshape(-1), cost, nprimary, tax)
        sort_lists(ulink, dlink, top, cost, option_of)
        nd[:, 0], nd[:, 1] = ulink, dlink
        nd = nd.reshape(-1)
        if len(nd) and max(int(nd.max()), -int(nd.min())) < SMALL:
            # Node numbers, items, spacers' option numbers and colors all
            # fit in 16 bits: half the memory to walk, the links of a
            # pentomino packing all in L2 (numba compiles the kernels for
            # int16 too; 15% faster there).
            nd = nd.astype(np.int16)
        self.llink, self.rlink = links.llink.copy(), links.rlink.copy()
        self.nd = nd
        self.length = links.length.copy()
        self.cost, self.tax = cost, tax
        self.total_tax = sum(int(t) for t in tax)
        self.option_of = option_of
        self.option_start = links.option_start
        self.nprimary = nprimary
        self.depth = nprimary + 1
        # The options of a solution have disjoint primary items: share
        # each option's net cost among its primary items (rounded up), and
        # a solution's net cost is at most the sum over primary items of
        # their largest share.  When that sum may reach INF the problem is
        # ``wide``: some solutions may cost INF or more beyond the taxes.
        # The kernel never overflows all the same (a partial solution
        # only grows by options cheaper than ``cut - curcost``, so its
        # net cost stays below ``cut`` <= INF), but it cannot see those
        # solutions: ``dlx.services.best`` finds them another way when
        # fewer than k are below INF.
        linked = member & (ulink != np.arange(total))
        items = top[linked]
        prim = items <= nprimary
        nodes = np.flatnonzero(linked)[prim]
        owners = option_of[nodes]
        width = np.bincount(owners, minlength=len(costs))[owners]
        share = cost[nodes] // width + (cost[nodes] % width > 0)
        most = np.zeros(nitems + 1, np.int64)
        np.maximum.at(most, items[prim], share)
        self.reach = sum(int(c) for c in most)
        self.wide = self.reach >= INF

    @classmethod
    def of(cls, problem) -> CostArrays:
        """The arrays of ``problem`` (an ``ExactCover``)."""
        if problem.kind == MULTIPLICITIES:
            raise Unsupported(
                "DLX5 takes no bounds: BoundedCostsEngine "
                "(DLX3 with costs) does"
            )
        s = problem.structure()
        return cls(
            Links(s.nitems, s.nprimary, s.members, s.sizes, s.colors), s.costs
        )

    def copy_arrays(self):
        """Fresh copies of the mutable arrays, in kernel argument order."""
        return (
            self.llink.copy(),
            self.rlink.copy(),
            self.nd.copy(),
            self.length.copy(),
            self.cost,
        )


def sort_lists(ulink, dlink, top, cost, option_of):
    """Relink every item's list in order of net cost, ties in option order
    (DLX5's stable sort); options left out of the lists stay out."""
    nodes = np.flatnonzero((option_of >= 0) & (ulink != np.arange(len(ulink))))
    if not len(nodes):
        return
    items = top[nodes]
    order = np.lexsort((nodes, cost[nodes], items))
    nodes, items = nodes[order], items[order]
    is_head = np.ones(len(nodes), bool)
    is_head[1:] = items[1:] != items[:-1]
    is_tail = np.ones(len(nodes), bool)
    is_tail[:-1] = is_head[1:]
    prev = np.empty(len(nodes), np.int64)
    prev[1:] = nodes[:-1]
    prev[is_head] = items[is_head]
    nxt = np.empty(len(nodes), np.int64)
    nxt[:-1] = nodes[1:]
    nxt[is_tail] = items[is_tail]
    ulink[nodes] = prev
    dlink[nodes] = nxt
    dlink[items[is_head]] = nodes[is_head]
    ulink[items[is_tail]] = nodes[is_tail]


_loaded = False


def load_kernels() -> None:
    """Compile (or load from numba's cache) the kernels once per process,
    on a one-item problem, outside any timing."""
    global _loaded
    if _loaded:
        return
    tiny = Links(
        1,
        1,
        np.array([1], np.int64),
        np.array([1], np.int64),
        np.zeros(1, np.int32),
    )

    arrays = CostArrays(tiny, [0])
    run = CostRun(arrays, [], 1)
    run.step(0, 1 << 40, False)
    _loaded = True


class GrowingHeap:
    """The heap of the ``k`` cheapest solutions found by a run of a cost
    kernel, in memory that grows with the solutions found, never with
    ``k`` (any positive int: ``best(10**20)`` is fine).

    The kernels keep a max-heap of net costs (``heap_cost``, ``INF`` for
    an empty entry), the rows of ``best_nodes`` holding each entry's
    options (``heap_slot``, ``best_len``), and take the heap's size for
    ``k``: its root, the dearest, is their threshold once no entry is
    ``INF``.  So while the heap holds fewer than ``k`` entries the run
    pauses the kernel before it fills the last one (``want``), and then
    doubles the heap: the entries, sorted dearest first, are a max-heap
    again, the new empty ones at the top.  The root stays ``INF`` until
    ``k`` solutions are known, as with a heap of ``k`` entries, so the
    search (its nodes, its pruning) is the same."""

    k: int
    counters: np.ndarray
    heap_cost: np.ndarray
    heap_slot: np.ndarray
    best_nodes: np.ndarray
    best_len: np.ndarray

    #: The first heap's rows hold up to this many option numbers in all.
    FIRST_NODES = 1 << 16

    def start_heap(self, k: int, depth: int) -> None:
        size = min(k, max(2, self.FIRST_NODES // max(depth, 1)))
        self.heap_cost = np.full(size, INF, np.int64)
        self.heap_slot = np.arange(size, dtype=np.int32)
        self.best_nodes = np.zeros((size, depth), np.int32)
        self.best_len = np.zeros(size, np.int32)

    def grow_heap(self) -> None:
        """Double the heap (up to ``k`` entries), keeping its entries."""
        size = len(self.heap_cost)
        new = min(self.k, 2 * size)
        nodes = np.zeros((new, self.best_nodes.shape[1]), np.int32)
        nodes[:size] = self.best_nodes
        lengths = np.zeros(new, np.int32)
        lengths[:size] = self.best_len
        cost = np.full(new, INF, np.int64)
        cost[:size] = self.heap_cost
        slot = np.arange(new, dtype=np.int32)
        slot[:size] = self.heap_slot
        order = np.argsort(cost, kind="stable")[::-1]  # dearest first
        self.heap_cost = np.ascontiguousarray(cost[order])
        self.heap_slot = np.ascontiguousarray(slot[order])
        self.best_nodes, self.best_len = nodes, lengths

    def kernel(self, want: int, stop_at: int) -> int:
        raise NotImplementedError

    state: np.ndarray  # the kernel's [level, where, cut, curcost]
    shared: np.ndarray  # the threshold shared with other searches

    def limit(self) -> int:
        """What a completion must cost less than where the kernel stands:
        the threshold of the moment (the run's, or the shared one if
        lower) less the net cost so far."""
        return min(int(self.state[2]), int(self.shared[0])) - int(
            self.state[3]
        )

    def grown_search(self, want: int, stop_at: int, paused: int) -> int:
        """``kernel(want, stop_at)``, the heap grown as it fills: the
        kernel's status (``paused`` only for the caller's ``want``)."""
        while True:
            size = len(self.heap_cost)
            ask = want
            if size < self.k:
                # Every solution recorded takes an entry until the heap
                # is full (the counter counts them): keep one empty.
                room = size - 1 - int(self.counters[2])
                if room <= 0:
                    self.grow_heap()
                    continue
                ask = room if want == 0 else min(want, room)
            before = int(self.counters[2])
            status = self.kernel(ask, stop_at)
            if status != paused or ask == want:
                return status
            got = int(self.counters[2]) - before
            if want:
                if got >= want:
                    return status
                want -= got


class CostRun(GrowingHeap, Run):
    """One DLX5 search for the ``k`` cheapest solutions over a private copy
    of ``arrays``, the given options (first nodes) committed.

    As a ``Run`` (``step``), its solutions are those DLX5 prints: each
    solution found that beats the threshold of the moment.  ``best()`` is
    the ``k`` cheapest found so far.  ``threshold``: a one-element int64
    array shared with other searches of the same arrays (net costs, that
    is costs less ``arrays.total_tax``), which each lowers when it finds
    better; None for one of its own.
    """

    def __init__(
        self,
        arrays: CostArrays,
        given_nodes,
        k: int,
        threshold=None,
        lenthresh: int = K.LENTHRESH,
        path=(),
    ):
        self.arrays = arrays
        self.work = work = arrays.copy_arrays()
        self.counters = np.zeros(3, np.int64)
        self.k = k
        updates = 0
        base = 0
        # A job's path: its options are given after the givens (see the
        # module docstring), and belong to every solution it reports.
        self.path_options = [int(k) for k in path]
        self.given_nodes = list(given_nodes) + [
            int(arrays.option_start[k]) for k in self.path_options
        ]
        for p in self.given_nodes:
            u = K.commit_option(p, *work)
            if u < 0:
                self.clash = True
                break
            updates += u
            base += int(arrays.cost[p])
        self.counters[1] = updates
        self.base = base  # the givens' net cost
        self.covered = not self.clash and work[1][0] == 0
        if base >= INF and not self.covered:
            # (a wide problem's) every solution here costs INF or more
            # beyond the taxes: none for the kernel, see CostArrays.
            self.clash = True
        depth = arrays.depth
        self.choice = np.zeros(depth, np.int32)
        self.partcost = np.zeros(depth, np.int64)
        self.thresh0 = np.zeros(depth, np.int64)
        self.thresh = np.zeros(depth, np.int64)
        self.state = np.array([0, K.FORWARD, INF, min(base, INF)], np.int64)
        self.start_heap(k, depth)
        self.shared = (
            np.full(1, INF, np.int64) if threshold is None else threshold
        )
        self.stop = np.zeros(1, np.uint8)
        self.lenthresh = lenthresh

    clash = False

    def step(self, want: int, stop_at: int, store: bool):
        """One kernel call (see ``dlx.engines.base.Run``); when ``store``,
        it pauses at each solution found, to hand it back."""
        if store:
            want = 1
        status = self.grown_search(want, stop_at, K.PAUSED)
        found = []
        if store and status == K.PAUSED:
            found = [
                self.arrays.option_of[
                    self.choice[: self.state[0] + 1]
                ].tolist()
            ]
        return status, found

    def best(self) -> list:
        """The ``k`` cheapest solutions found so far, cheapest first:
        ``(cost, option numbers)`` each, the givens left out and a job's
        path options in (ties in the order the heap has them).  Givens
        that cover everything are the one solution."""
        option_of = self.arrays.option_of
        path = self.path_options
        if self.clash:
            return []
        if self.covered:
            return [(self.base + self.arrays.total_tax, list(path))]
        found = []
        for h in range(len(self.heap_cost)):
            net = int(self.heap_cost[h])
            if net >= INF:
                continue
            slot = self.heap_slot[h]
            options = option_of[self.best_nodes[slot, : self.best_len[slot]]]
            found.append(
                (net + self.arrays.total_tax, path + options.tolist())
            )
        found.sort(key=lambda pair: pair[0])
        return found

    def kernel(self, want: int, stop_at: int) -> int:
        return K.search(
            *self.work,
            self.choice,
            self.partcost,
            self.thresh0,
            self.thresh,
            self.state,
            self.heap_cost,
            self.heap_slot,
            self.best_nodes,
            self.best_len,
            self.shared,
            self.stop,
            want,
            stop_at,
            self.counters,
            self.lenthresh,
        )

    def explored(self) -> float:
        return 0.0

    # Where a job's node budget ran out (``dlx.engines.base.count_job``):
    # the kernel stops on entering a level (``state`` is ``(level,
    # FORWARD, cut, curcost)``), the option nodes of the levels above in
    # ``choice``.
    def stopped_at(self):
        """The options chosen on the levels above (a job's path is option
        numbers, as the top's); a level's degree is the options of its
        item below the threshold of the moment (those it will try: the
        item's list is untouched below it, as in DLX2)."""
        nd, cost = self.work[2], self.arrays.cost
        cut = min(int(self.state[2]), int(self.shared[0]))
        moves, degrees = [], []
        for level in range(int(self.state[0])):
            p = int(self.choice[level])
            item = int(nd[4 * p + K.TOP])
            below = cut - int(self.partcost[level])
            degree, q = 0, int(nd[4 * item + K.DOWN])
            while q != item and cost[q] < below:
                degree += 1
                q = int(nd[4 * q + K.DOWN])
            moves.append(int(self.arrays.option_of[p]))
            degrees.append(max(degree, 1))
        return tuple(moves), degrees

    def leaf(self):
        """A dead end: some item has no option cheap enough (DLX5's
        choice finds it at once; a solution is recorded at its parent)."""
        llink, rlink, nd, length, cost = self.work
        t, _ = K.choose_item(
            rlink, nd, length, cost, self.limit(), self.lenthresh
        )
        return bool(t == 0)

    def skip(self):
        """Resume as after a solution, at the level above: undo the option
        tried there and try the next (its net cost so far restored)."""
        level = int(self.state[0]) - 1
        self.state[0] = level
        self.state[1] = K.RECOVER
        self.state[3] = self.partcost[level]


class CostsTop(Top):
    """The top of DLX5's tree, walked with its kernel's steps at no
    threshold (``INF``: the tree of every solution), to cut into jobs:
    a node branches on the item DLX5 would choose there, its children are
    the options of the item's list, cheapest first (the order DLX5 meets
    them), and a path is option numbers, given to reach the node.  Each
    ``expand`` starts from a copy of the arrays with the givens committed
    (DLX5's covers have no inverse of a given)."""

    def __init__(self, arrays: CostArrays, given_nodes):
        load_kernels()
        self.arrays = arrays
        self.work = work = arrays.copy_arrays()
        updates = 0
        for p in given_nodes:
            u = K.commit_option(p, *work)
            if u < 0:
                self.clash = True
                break
            updates += u
        self.base = updates
        self.covered = not self.clash and work[1][0] == 0

    clash = False

    def expand(self, path):
        arrays = self.arrays
        work = tuple(a.copy() for a in self.work[:4]) + (self.work[4],)
        llink, rlink, nd, length, cost = work
        for k in path:
            K.commit_option(int(arrays.option_start[k]), *work)
        t, best = K.choose_item(rlink, nd, length, cost, INF, K.LENTHRESH)
        if t == 0:  # an item with no option left: a dead end
            return 0, []
        updates = K.cover(best, INF, llink, rlink, nd, length, cost)
        children = []
        p = int(nd[4 * best + K.DOWN])
        while p != best:
            updates += K.cover_rest(p, INF, llink, rlink, nd, length, cost)
            children.append(((int(arrays.option_of[p]),), bool(rlink[0] == 0)))
            K.uncover_rest(p, INF, llink, rlink, nd, length, cost)
            p = int(nd[4 * p + K.DOWN])
        K.uncover(best, INF, llink, rlink, nd, length, cost)
        return updates, children


class CostsEngine(Engine):
    """Knuth's DLX5: DLX2 with costs, for ``best``."""

    name = "dlx5"
    program = "DLX5"
    algorithm = "links"
    kinds = frozenset({EXACT, COLORS})
    streams = True  # the improving solutions, as DLX5 prints them
    batches = False
    splits = True  # for best: jobs share the threshold (not for counts)
    exact_split = False
    hands_back = True  # for best: a job's rest (see the module docstring)
    cutoff = False
    costs = True

    def build(self, problem) -> CostArrays:
        return CostArrays.of(problem)

    def load(self, *parts: str) -> None:
        load_kernels()

    def start(self, arrays, given_nodes, cutoff=0) -> CostRun:
        """DLX5 with k = 1: its solutions are the improving ones."""
        return self.start_best(arrays, given_nodes, 1)

    def start_best(
        self, arrays, given_nodes, k, threshold=None, path=()
    ) -> CostRun:
        load_kernels()
        return CostRun(arrays, given_nodes, k, threshold, path=path)

    def batch(self, *args, **kwargs):
        raise Unsupported("dlx5 does not solve batches")

    def top(self, arrays, given_nodes, cutoff=0) -> CostsTop:
        return CostsTop(arrays, given_nodes)

    def count_paths(self, *args, **kwargs):
        raise Unsupported(
            "dlx5's jobs find the cheapest solutions "
            "(dlx.services.best), they do not count"
        )

    run_job = count_paths
