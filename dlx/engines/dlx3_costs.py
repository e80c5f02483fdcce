"""DLX3 with DLX5's costs: the cheapest solutions of a problem with
bounds (``u:v|item``) whose options have costs.

DLX3's arrays (``dlx.engines.dlx3``) with DLX5's taxes and net costs
(``dlx.engines.dlx5``), each item's list sorted by net cost: this module
builds the kernel's arrays (``BoundedCostArrays``), runs the kernel
(``BoundedCostRun``) and walks the top of its tree (``BoundedCostsTop``)
to cut it into jobs, which ``dlx.services.best`` drives as it drives
DLX5's.  A job's path is the kernel's own moves, one a level, and a job
cut short hands back its rest: see ``dlx.engines.dlx5``.
"""

from __future__ import annotations

import numpy as np

from ..kernels import dlx3_costs as B
from .base import MULTIPLICITIES, Engine, Run, Top, Unsupported
from .dlx1 import Links
from .dlx3 import Bounded
from .dlx5 import INF, CostRun, GrowingHeap, Reach, sort_lists


class BoundedCostArrays(Reach):
    """The arrays of ``dlx.kernels.dlx3_costs`` for a problem with
    bounds: DLX3's (``dlx.kernels.dlx3``), each item's list
    sorted by net cost, the net ``cost`` of each node, ``tax`` per item
    (on the items of fixed multiplicity only) and ``total_tax``, what a
    solution pays beyond its net costs (each tax times its item's
    multiplicity)."""

    __slots__ = (
        "llink",
        "rlink",
        "ulink",
        "dlink",
        "top",
        "length",
        "color",
        "bound",
        "slack",
        "cost",
        "tax",
        "total_tax",
        "option_of",
        "option_start",
        "nprimary",
        "depth",
        "wide",
    )

    def __init__(self, s):
        """From a problem's ``structure()``."""
        links = Links(s.nitems, s.nprimary, s.members, s.sizes, s.colors)
        bounded = Bounded(links, s.bounds, len(s.sizes))
        nitems = len(links.llink) - 2
        nprimary = links.nprimary
        total = len(links.top)
        self.bound, self.slack = bounded.bound, bounded.slack
        fixed = np.zeros(nprimary + 1, np.bool_)
        fixed[1:] = self.slack[1:] == 0
        color = links.color
        self.color = (
            np.zeros(total, np.int32) if color is None else color.copy()
        )
        # (copy_arrays: a big problem's Links keeps no ulink/dlink, only
        # what rebuilds them)
        ulink, dlink = links.copy_arrays()[2:4]
        top = links.top
        option_of = links.option_of[np.arange(len(links.top))]
        costs = np.asarray(s.costs, np.int64).reshape(-1)
        cost = np.zeros(total, np.int64)
        member = option_of >= 0
        cost[member] = costs[option_of[member]]
        tax = np.zeros(nprimary + 1, np.int64)
        B.assign_taxes(ulink, dlink, top, cost, fixed, tax)
        sort_lists(ulink, dlink, top, cost, option_of)
        self.llink, self.rlink = links.llink.copy(), links.rlink.copy()
        self.ulink, self.dlink, self.top = ulink, dlink, top
        self.length = links.length.copy()
        self.cost, self.tax = cost, tax
        self.total_tax = sum(int(t) * int(v) for t, v in zip(tax, self.bound))
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
        self.reach = sum(
            int(c) * int(self.bound[k])
            for k, c in enumerate(most[: nprimary + 1])
        )
        self.wide = self.reach >= INF

    def copy_arrays(self):
        """Fresh copies of the mutable arrays, in kernel argument order
        (up to ``first_tweak``, made by the run)."""
        return (
            self.llink.copy(),
            self.rlink.copy(),
            self.ulink.copy(),
            self.dlink.copy(),
            self.top,
            self.length.copy(),
            self.color.copy(),
            self.bound.copy(),
            self.slack,
        )


class BoundedCostRun(GrowingHeap, Run):
    """``CostRun`` for ``BoundedCostArrays``: the same attributes,
    ``step`` and ``best``."""

    def __init__(
        self,
        arrays: BoundedCostArrays,
        given_nodes,
        k: int,
        threshold=None,
        path=(),
    ):
        self.B = B
        self.arrays = arrays
        depth = arrays.depth
        self.work = work = arrays.copy_arrays() + (np.zeros(depth, np.int32),)
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
        # A job's path (the kernel's moves: see the module docstring)
        # after the givens; its options belong to every solution it
        # reports.
        nitems = len(arrays.llink) - 2
        self.path_options = [
            int(arrays.option_of[m]) for m in path if m > nitems
        ]
        if not self.clash:
            u, cost = replay(B, arrays, work, path)
            self.clash = u < 0
            updates += max(u, 0)
            base += cost
        self.counters[1] = updates
        self.base = base
        if base >= INF:  # as in CostRun
            self.clash = True
        self.choice = np.zeros(depth, np.int32)
        self.partcost = np.zeros(depth, np.int64)
        self.state = np.array([0, B.FORWARD, INF, min(base, INF)], np.int64)
        self.start_heap(k, depth)
        self.shared = (
            np.full(1, INF, np.int64) if threshold is None else threshold
        )
        self.stop = np.zeros(1, np.uint8)

    clash = False
    covered = False  # DLX3 finds the empty solution by itself

    def step(self, want: int, stop_at: int, store: bool):
        if store:
            want = 1
        if self.clash:
            return self.B.EXHAUSTED, []
        status = self.grown_search(want, stop_at, self.B.PAUSED)
        found = []
        if store and status == self.B.PAUSED:
            nodes = self.choice[: self.state[0]]
            nodes = nodes[nodes > len(self.arrays.llink) - 2]
            found = [self.arrays.option_of[nodes].tolist()]
        return status, found

    best = CostRun.best

    # Where a job's node budget ran out (``dlx.engines.base.count_job``):
    # the kernel stops on entering a level (``where`` FORWARD), its moves
    # above in ``choice``.
    def stopped_at(self):
        """The kernel's moves on the levels above (an option's node in the
        list of the item it branched on, or the item for a null move: a
        path's moves, see the module docstring); no degrees (the options
        tried are tweaked out of the lists, as in DLX3)."""
        level = int(self.state[0])
        return tuple(int(x) for x in self.choice[:level]), None

    def leaf(self):
        """A solution (no primary item left) or a dead end (an item that
        needs an option has none cheap enough, or too few): scored at
        once."""
        llink, rlink, ulink, dlink, top, length, color, bound, slack = (
            self.work[:9]
        )
        score, _ = self.B.choose_item(
            rlink, dlink, length, bound, slack, self.arrays.cost, self.limit()
        )
        return bool(score <= 0 or score == self.B.INFINITY)

    def skip(self):
        """Leave the node as a solution is left: back down to its
        parent's next move."""
        self.state[1] = self.B.RECOVER

    def kernel(self, want: int, stop_at: int) -> int:
        return self.B.search(
            *self.work,
            self.arrays.cost,
            self.choice,
            self.partcost,
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
        )


def replay(B, arrays: BoundedCostArrays, work, path):
    """Make a job's moves (the kernel's, see the module docstring) on
    ``work`` (``copy_arrays`` plus ``first_tweak``, the givens committed),
    in order: ``(updates, net cost of the options chosen)``, the updates
    -1 when a move does not fit.

    A move is made as DLX3 leaves it made: the options above it in its
    item's list (those tried before it on its level) are excluded, then
    its option is chosen, or, for a null move, the item (every option of
    its list excluded) leaves the active list, taking no more."""
    updates = cost = 0
    llink, rlink, ulink, dlink, top, length, color = (
        work[0],
        work[1],
        work[2],
        work[3],
        work[4],
        work[5],
        work[6],
    )
    nitems = len(arrays.llink) - 2
    for move in path:
        move = int(move)
        item = move if move <= nitems else int(top[move])
        p = int(dlink[item])
        while p != move:
            if p == item:  # not in its item's list: no such move here
                return -1, cost
            after = int(dlink[p])
            updates += B.exclude_option(
                int(arrays.option_start[arrays.option_of[p]]),
                ulink,
                dlink,
                top,
                length,
                color,
            )
            p = after
        if move <= nitems:
            left, right = int(llink[item]), int(rlink[item])
            rlink[left], llink[right] = right, left
            continue
        first = int(arrays.option_start[arrays.option_of[move]])
        u = B.commit_option(first, *work)
        if u < 0:
            return -1, cost
        updates += u
        cost += int(arrays.cost[first])
    return updates, cost


class BoundedCostsTop(Top):
    """The top of the tree of DLX3 with costs, to cut into jobs, at no
    threshold.  A node branches on the item DLX3 would choose there among
    those that still have options (least branching degree, then least
    slack, then longest list), into its options cheapest first (each a
    move: its node, the options before it excluded by ``replay``), and
    (when the item has what it needs) a null move, the item with all of
    them excluded taken out: DLX3's tweaks and null move, so every
    solution is below exactly one child.  A
    child is a leaf when no item is left with an option to take or a need
    to fill: its options are a solution, the only one below it.  Each node
    is replayed on a copy of the arrays with the givens committed."""

    def __init__(self, arrays: BoundedCostArrays, given_nodes):
        load_bounded_kernels()
        self.B = B
        self.arrays = arrays
        self.work = work = arrays.copy_arrays() + (
            np.zeros(arrays.depth, np.int32),
        )
        updates = 0
        for p in given_nodes:
            u = B.commit_option(p, *work)
            if u < 0:
                self.clash = True
                break
            updates += u
        self.base = updates
        self.covered = not self.clash and self._settled(work)

    clash = False

    def _copy(self, work):
        # top, slack and first_tweak are not changed by a commit or an
        # exclusion.
        return tuple(
            a if i in (4, 8, 9) else a.copy() for i, a in enumerate(work)
        )

    def _settled(self, work) -> bool:
        """No active primary item has an option left or a need left."""
        rlink, length, bound, slack = work[1], work[5], work[7], work[8]
        k = int(rlink[0])
        while k != 0:
            if length[k] > 0 or bound[k] > slack[k]:
                return False
            k = int(rlink[k])
        return True

    def expand(self, path):
        B, arrays = self.B, self.arrays
        work = self._copy(self.work)
        updates, _ = replay(B, arrays, work, path)
        rlink, dlink, length, bound, slack = (
            work[1],
            work[3],
            work[5],
            work[7],
            work[8],
        )
        pick, degree, pick_slack, pick_length = 0, 0, 0, 0
        k = int(rlink[0])
        while k != 0:
            b, l = int(bound[k]), int(length[k])
            s = min(int(slack[k]), b)
            need = b - s  # options k must still take
            if l < need:  # it cannot: a dead end
                return max(updates, 0), []
            if l:
                t = l - need + 1  # DLX3's branching degree
                if (
                    not pick
                    or t < degree
                    or (
                        t == degree
                        and (
                            s < pick_slack
                            or (s == pick_slack and l > pick_length)
                        )
                    )
                ):
                    pick, degree, pick_slack, pick_length = k, t, s, l
            k = int(rlink[k])
        if not pick:  # a solution: its parent saw it as a leaf
            return max(updates, 0), []
        nodes = []
        p = int(dlink[pick])
        while p != pick:
            nodes.append(p)
            p = int(dlink[p])
        need = pick_length - degree + 1
        # The kernel's moves: each of the first ``degree`` options of the
        # list (the options above it excluded, by replay), then the null
        # move where pick needs nothing more.
        moves = [(p,) for p in nodes[:degree]]
        if not need:
            moves.append((pick,))
        children = []
        for move in moves:
            child = self._copy(work)
            u, _ = replay(B, arrays, child, move)
            updates += max(u, 0)
            children.append((move, u >= 0 and self._settled(child)))
        return max(updates, 0), children


class BoundedCostsEngine(Engine):
    """DLX3 with DLX5's costs: the cheapest solutions of a problem with
    bounds (which Knuth's DLX5 refuses)."""

    name = "dlx3-costs"
    program = "DLX3 with DLX5's costs"
    algorithm = "links"
    kinds = frozenset({MULTIPLICITIES})
    streams = True
    batches = False
    splits = True  # for best: jobs share the threshold (not for counts)
    exact_split = False
    hands_back = True  # for best: a job's rest (see the module docstring)
    cutoff = False
    costs = True

    def build(self, problem) -> BoundedCostArrays:
        return BoundedCostArrays(problem.structure())

    def start(self, arrays, given_nodes, cutoff=0) -> BoundedCostRun:
        return self.start_best(arrays, given_nodes, 1)

    def load(self, *parts: str) -> None:
        load_bounded_kernels()

    def start_best(self, arrays, given_nodes, k, threshold=None, path=()):
        load_bounded_kernels()
        return BoundedCostRun(arrays, given_nodes, k, threshold, path)

    def top(self, arrays, given_nodes, cutoff=0) -> BoundedCostsTop:
        return BoundedCostsTop(arrays, given_nodes)

    def path_nodes(self, arrays, path):
        raise NotImplementedError(
            "a job's exclusions are not givens: start_best(path=) replays them"
        )

    def count_paths(self, *args, **kwargs):
        raise Unsupported(
            "dlx3-costs' jobs find the cheapest solutions "
            "(dlx.services.best), they do not count"
        )

    run_job = count_paths


_bounded_loaded = False


def load_bounded_kernels() -> None:
    """``load_kernels`` for ``dlx.kernels.dlx3_costs``."""
    global _bounded_loaded
    if _bounded_loaded:
        return
    from types import SimpleNamespace

    one = np.ones(1, np.int64)
    tiny = BoundedCostArrays(
        SimpleNamespace(
            nitems=1,
            nprimary=1,
            members=one,
            sizes=one,
            colors=None,
            bounds={1: (0, 1)},
            costs=one,
        )
    )  # items a, bounds 0:1, option a
    run = BoundedCostRun(tiny, [int(tiny.option_start[0])], 1)
    run.step(0, 1 << 40, False)
    BoundedCostRun(tiny, [], 1, path=(1,))  # a's null move: exclude_option
    _bounded_loaded = True
