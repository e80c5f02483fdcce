"""DLX5: the cheapest solutions of a problem whose options have costs.

Knuth's DLX5 is DLX2 (colors) with costs: it finds a solution of least
total cost, or the ``k`` cheapest, pruning every branch whose cheapest
completion cannot beat the ``k``-th best found so far (see
``dlx.kernels.costs`` for the taxes, the net costs and where the
threshold lives).  This module builds the kernel's arrays from a problem
(``CostArrays``) and runs the kernel (``CostRun``); ``dlx.services.best``
drives it with budgets, Ctrl-C and progress.
"""

from __future__ import annotations

import numpy as np

from ..kernels import costs as K
from .base import COLORS, EXACT, MULTIPLICITIES, Engine, Run, Unsupported
from .bounds import Bounded
from .links import Links

#: No threshold yet: every solution's net cost is below it.
INF = int(K.INF)
#: Problems whose node numbers are below this take 16-bit links.
SMALL = 1 << 15


class CostArrays:
    """DLX5's arrays for one problem: DLX2's, with each node's ``ulink``,
    ``dlink``, ``top`` and ``color`` side by side in ``nd`` (node ``q``'s
    at ``4q`` to ``4q + 3``: one cache line, as in DLX5's node struct),
    the net ``cost``
    of each node, each item's list sorted by net cost; ``tax`` per item and
    ``total_tax`` (a Python int: a solution costs ``total_tax`` plus its
    net costs); ``option_of``/``option_start`` as in ``dlx.links.Links``;
    ``depth``, the most levels a search takes, plus one."""

    __slots__ = ("llink", "rlink", "nd", "length", "cost", "tax",
                 "total_tax", "option_of",
                 "option_start", "nprimary", "depth")

    def __init__(self, links: Links, costs):
        """From a problem's DLX arrays (``links``, its ``color`` used when
        present) and the cost of each option."""
        nitems = len(links.llink) - 2
        nprimary = links.nprimary
        total = len(links.top)
        color = links.color
        color = np.zeros(total, np.int32) if color is None else color.copy()
        ulink, dlink = links.ulink.copy(), links.dlink.copy()
        top = links.top
        option_of = links.option_of
        costs = np.asarray(costs, np.int64).reshape(-1)
        cost = np.zeros(total, np.int64)
        member = option_of >= 0
        cost[member] = costs[option_of[member]]
        tax = np.zeros(nitems + 2, np.int64)
        nd = np.empty((total, 4), np.int32)
        nd[:, 0], nd[:, 1], nd[:, 2], nd[:, 3] = ulink, dlink, top, color
        # (the kernel's own total could overflow: summed here instead)
        K.assign_taxes(nd.reshape(-1), cost, nprimary, tax)
        _sort_lists(ulink, dlink, top, cost, option_of)
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
        # their largest share.  Below INF, the kernel's sums never
        # overflow.
        linked = member & (ulink != np.arange(total))
        items = top[linked]
        prim = items <= nprimary
        nodes = np.flatnonzero(linked)[prim]
        owners = option_of[nodes]
        width = np.bincount(owners, minlength=len(costs))[owners]
        share = cost[nodes] // width + (cost[nodes] % width > 0)
        most = np.zeros(nitems + 1, np.int64)
        np.maximum.at(most, items[prim], share)
        if sum(int(c) for c in most) >= INF:
            raise ValueError("the costs are too large: a solution could "
                             "cost 2**63 - 1 or more beyond the items' "
                             "taxes (DLX5 sums 64-bit costs)")

    @classmethod
    def of(cls, problem) -> "CostArrays":
        """The arrays of ``problem`` (an ``ExactCover``)."""
        if problem.kind == MULTIPLICITIES:
            raise Unsupported("DLX5 takes no bounds: BoundedCostsEngine "
                              "(DLX3 with costs) does")
        s = problem.structure()
        return cls(Links(s.nitems, s.nprimary, s.members, s.sizes, s.colors),
                   s.costs)

    def copy_arrays(self):
        """Fresh copies of the mutable arrays, in kernel argument order."""
        return (self.llink.copy(), self.rlink.copy(), self.nd.copy(),
                self.length.copy(), self.cost)


def _sort_lists(ulink, dlink, top, cost, option_of):
    """Relink every item's list in order of net cost, ties in option order
    (DLX5's stable sort); options left out of the lists stay out."""
    nodes = np.flatnonzero((option_of >= 0) &
                           (ulink != np.arange(len(ulink))))
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
    tiny = Links(1, 1, np.array([1], np.int64), np.array([1], np.int64),
                 np.zeros(1, np.int32))

    run = CostRun(CostArrays(tiny, [0]), [], 1)
    run.step(0, 1 << 40, False)
    _loaded = True


class CostRun(Run):
    """One DLX5 search for the ``k`` cheapest solutions over a private copy
    of ``arrays``, the given options (first nodes) committed.

    As a ``Run`` (``step``), its solutions are those DLX5 prints: each
    solution found that beats the threshold of the moment.  ``best()`` is
    the ``k`` cheapest found so far.  ``threshold``: a one-element int64
    array shared with other searches of the same arrays (net costs, that
    is costs less ``arrays.total_tax``), which each lowers when it finds
    better; None for one of its own.
    """

    def __init__(self, arrays: CostArrays, given_nodes, k: int,
                 threshold=None, lenthresh: int = K.LENTHRESH):
        self.arrays = arrays
        self.work = work = arrays.copy_arrays()
        self.counters = np.zeros(3, np.int64)
        self.k = k
        updates = 0
        base = 0
        self.given_nodes = list(given_nodes)
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
        depth = arrays.depth
        self.choice = np.zeros(depth, np.int32)
        self.partcost = np.zeros(depth, np.int64)
        self.thresh0 = np.zeros(depth, np.int64)
        self.thresh = np.zeros(depth, np.int64)
        self.state = np.array([0, K.FORWARD, INF, base], np.int64)
        self.heap_cost = np.full(k, INF, np.int64)
        self.heap_slot = np.arange(k, dtype=np.int32)
        self.best_nodes = np.zeros((k, depth), np.int32)
        self.best_len = np.zeros(k, np.int32)
        self.shared = (np.full(1, INF, np.int64) if threshold is None
                       else threshold)
        self.stop = np.zeros(1, np.uint8)
        self.lenthresh = lenthresh

    clash = False

    def step(self, want: int, stop_at: int, store: bool):
        """One kernel call (see ``dlx.engines.base.Run``); when ``store``,
        it pauses at each solution found, to hand it back."""
        if store:
            want = 1
        status = K.search(*self.work, self.choice, self.partcost,
                          self.thresh0, self.thresh, self.state,
                          self.heap_cost, self.heap_slot, self.best_nodes,
                          self.best_len, self.shared, self.stop, want,
                          stop_at, self.counters, self.lenthresh)
        found = []
        if store and status == K.PAUSED:
            found = [self.arrays.option_of[
                self.choice[:self.state[0] + 1]].tolist()]
        return status, found

    def best(self) -> list:
        """The ``k`` cheapest solutions found so far, cheapest first:
        ``(cost, option numbers)`` each, the givens left out (ties in the
        order the heap has them)."""
        option_of = self.arrays.option_of
        found = []
        for h in range(self.k):
            net = int(self.heap_cost[h])
            if net >= INF:
                continue
            slot = self.heap_slot[h]
            options = option_of[self.best_nodes[slot, :self.best_len[slot]]]
            found.append((net + self.arrays.total_tax, options.tolist()))
        found.sort(key=lambda pair: pair[0])
        return found

    def explored(self) -> float:
        return 0.0


class CostsEngine(Engine):
    """Knuth's DLX5: DLX2 with costs, for ``best``."""

    name = "dlx5"
    program = "DLX5"
    algorithm = "links"
    kinds = frozenset({EXACT, COLORS})
    streams = True  # the improving solutions, as DLX5 prints them
    batches = False
    splits = False
    exact_split = False
    cutoff = False
    costs = True

    def build(self, problem) -> CostArrays:
        return CostArrays.of(problem)

    def load(self, *parts: str) -> None:
        load_kernels()

    def start(self, arrays, given_nodes, cutoff=0) -> CostRun:
        """DLX5 with k = 1: its solutions are the improving ones."""
        return self.start_best(arrays, given_nodes, 1)

    def start_best(self, arrays, given_nodes, k, threshold=None) -> CostRun:
        load_kernels()
        return CostRun(arrays, given_nodes, k, threshold)

    def batch(self, *args, **kwargs):
        raise Unsupported("dlx5 does not solve batches")

    def top(self, *args, **kwargs):
        raise Unsupported("dlx5's tree is not split into jobs yet")

    count_paths = run_job = top


# -- bounds: DLX3 with DLX5's costs (dlx.kernels.costs_bounds) --------------
class BoundedCostArrays:
    """The arrays of ``dlx.kernels.costs_bounds`` for a problem with
    bounds: DLX3's (``dlx.kernels.multiplicities``), each item's list
    sorted by net cost, the net ``cost`` of each node, ``tax`` per item
    (on the items of fixed multiplicity only) and ``total_tax``, what a
    solution pays beyond its net costs (each tax times its item's
    multiplicity)."""

    __slots__ = ("llink", "rlink", "ulink", "dlink", "top", "length",
                 "color", "bound", "slack", "cost", "tax", "total_tax",
                 "option_of", "option_start", "nprimary", "depth")

    def __init__(self, s):
        """From a problem's ``structure()``."""
        from ..kernels import costs_bounds as B
        links = Links(s.nitems, s.nprimary, s.members, s.sizes, s.colors)
        bounded = Bounded(links, s.bounds, len(s.sizes))
        nitems = len(links.llink) - 2
        nprimary = links.nprimary
        total = len(links.top)
        self.bound, self.slack = bounded.bound, bounded.slack
        fixed = np.zeros(nprimary + 1, np.bool_)
        fixed[1:] = self.slack[1:] == 0
        color = links.color
        self.color = (np.zeros(total, np.int32) if color is None
                      else color.copy())
        ulink, dlink = links.ulink.copy(), links.dlink.copy()
        top = links.top
        option_of = links.option_of
        costs = np.asarray(s.costs, np.int64).reshape(-1)
        cost = np.zeros(total, np.int64)
        member = option_of >= 0
        cost[member] = costs[option_of[member]]
        tax = np.zeros(nprimary + 1, np.int64)
        B.assign_taxes(ulink, dlink, top, cost, fixed, tax)
        _sort_lists(ulink, dlink, top, cost, option_of)
        self.llink, self.rlink = links.llink.copy(), links.rlink.copy()
        self.ulink, self.dlink, self.top = ulink, dlink, top
        self.length = links.length.copy()
        self.cost, self.tax = cost, tax
        self.total_tax = sum(int(t) * int(v)
                             for t, v in zip(tax, self.bound))
        self.option_of = option_of
        self.option_start = links.option_start
        self.nprimary = nprimary
        self.depth = bounded.depth + 1
        # As in CostArrays, with item k taking up to v_k options.
        linked = member & (ulink != np.arange(total))
        items = top[linked]
        prim = items <= nprimary
        nodes = np.flatnonzero(linked)[prim]
        owners = option_of[nodes]
        width = np.bincount(owners, minlength=len(costs))[owners]
        share = cost[nodes] // width + (cost[nodes] % width > 0)
        most = np.zeros(nitems + 1, np.int64)
        np.maximum.at(most, items[prim], share)
        if sum(int(c) * int(self.bound[k]) for k, c in
               enumerate(most[:nprimary + 1])) >= INF:
            raise ValueError("the costs are too large: a solution could "
                             "cost 2**63 - 1 or more beyond the items' "
                             "taxes (DLX5 sums 64-bit costs)")

    def copy_arrays(self):
        """Fresh copies of the mutable arrays, in kernel argument order
        (up to ``first_tweak``, made by the run)."""
        return (self.llink.copy(), self.rlink.copy(), self.ulink.copy(),
                self.dlink.copy(), self.top, self.length.copy(),
                self.color.copy(), self.bound.copy(), self.slack)


class BoundedCostRun(Run):
    """``CostRun`` for ``BoundedCostArrays``: the same attributes,
    ``step`` and ``best``."""

    def __init__(self, arrays: BoundedCostArrays, given_nodes, k: int,
                 threshold=None):
        from ..kernels import costs_bounds as B
        self.B = B
        self.arrays = arrays
        depth = arrays.depth
        self.work = work = arrays.copy_arrays() + (
            np.zeros(depth, np.int32),)
        self.counters = np.zeros(3, np.int64)
        self.k = k
        updates = base = 0
        for p in given_nodes:
            u = B.commit_option(p, *work)
            if u < 0:
                self.clash = True
                break
            updates += u
            base += int(arrays.cost[p])
        self.counters[1] = updates
        self.base = base
        self.choice = np.zeros(depth, np.int32)
        self.partcost = np.zeros(depth, np.int64)
        self.state = np.array([0, B.FORWARD, INF, base], np.int64)
        self.heap_cost = np.full(k, INF, np.int64)
        self.heap_slot = np.arange(k, dtype=np.int32)
        self.best_nodes = np.zeros((k, depth), np.int32)
        self.best_len = np.zeros(k, np.int32)
        self.shared = (np.full(1, INF, np.int64) if threshold is None
                       else threshold)
        self.stop = np.zeros(1, np.uint8)

    clash = False
    covered = False  # DLX3 finds the empty solution by itself

    def step(self, want: int, stop_at: int, store: bool):
        if store:
            want = 1
        status = self.B.search(*self.work, self.arrays.cost, self.choice,
                               self.partcost, self.state, self.heap_cost,
                               self.heap_slot, self.best_nodes,
                               self.best_len, self.shared, self.stop, want,
                               stop_at, self.counters)
        found = []
        if store and status == self.B.PAUSED:
            nodes = self.choice[:self.state[0]]
            nodes = nodes[nodes > len(self.arrays.llink) - 2]
            found = [self.arrays.option_of[nodes].tolist()]
        return status, found

    best = CostRun.best


class BoundedCostsEngine(Engine):
    """DLX3 with DLX5's costs: the cheapest solutions of a problem with
    bounds (which Knuth's DLX5 refuses)."""

    name = "dlx3-costs"
    program = "DLX3 with DLX5's costs"
    algorithm = "links"
    kinds = frozenset({MULTIPLICITIES})
    streams = True
    batches = False
    splits = False
    exact_split = False
    cutoff = False
    costs = True

    def build(self, problem) -> BoundedCostArrays:
        return BoundedCostArrays(problem.structure())

    def start(self, arrays, given_nodes, cutoff=0) -> BoundedCostRun:
        return self.start_best(arrays, given_nodes, 1)

    def load(self, *parts: str) -> None:
        load_bounded_kernels()

    def start_best(self, arrays, given_nodes, k, threshold=None):
        load_bounded_kernels()
        return BoundedCostRun(arrays, given_nodes, k, threshold)


_bounded_loaded = False


def load_bounded_kernels() -> None:
    """``load_kernels`` for ``dlx.kernels.costs_bounds``."""
    global _bounded_loaded
    if _bounded_loaded:
        return
    from types import SimpleNamespace
    one = np.ones(1, np.int64)
    tiny = BoundedCostArrays(SimpleNamespace(
        nitems=1, nprimary=1, members=one, sizes=one, colors=None,
        bounds={1: (0, 1)}, costs=one))  # items a, bounds 0:1, option a
    run = BoundedCostRun(tiny, [int(tiny.option_start[0])], 1)
    run.step(0, 1 << 40, False)
    _bounded_loaded = True
