"""DLX3, Knuth's dancing links with multiplicities: the engine.

An MCC problem (TAOCP 7.2.2.1) lets a primary item carry bounds ``u..v``:
a solution covers it at least ``u`` and at most ``v`` times; secondary
items may carry colors as in DLX2.  DLX3's arrays are DLX2's plus
``bound`` and ``slack`` per primary item (``dlx.kernels.dlx3``);
``Bounded`` holds them, ``BoundsTop`` walks the top of the tree,
``BoundsJob`` searches one job (and hands back its rest when a node
budget cuts it short) and ``DLX3`` is the engine.

A DLX3 node is not a set of options: the options tried before on its
level are *tweaked* away, and a *null move* gives an item up.  So a path
here is the kernel's own moves (``choice`` entries: an option's node in
the branching item's list, or the item's header for a null move), and a
subtree is counted by replaying its path (``descend``) and searching
below it with the floor at its depth: node for node the one search's
subtree, so split counts have the same nodes and updates.
"""

from __future__ import annotations

import numpy as np

from ..kernels import dlx3 as M
from .base import (
    MULTIPLICITIES,
    NO_LIMIT,
    Engine,
    Run,
    Top,
    count_job,
)
from .dlx1 import Links, option_numbers, run_batch
from .dlx2 import XccRun, commit_givens, tiny_links, warm_batch, warm_search
from .threads import flat_paths

_loaded: set = set()


class Bounded:
    """DLX3's arrays for one problem: DLX2's ``links`` (with ``color``),
    ``bound`` (``v`` per primary item, index 0 unused) and ``slack``
    (``v - u``), and ``depth``, the levels a search may need plus one."""

    __slots__ = (
        "links",
        "bound",
        "slack",
        "depth",
        "option_start",
        "option_of",
        "nprimary",
    )

    def __init__(self, links: Links, bounds: dict, noptions: int):
        nprimary = links.nprimary
        self.links = links
        self.bound = np.ones(nprimary + 1, np.int32)
        self.slack = np.zeros(nprimary + 1, np.int32)
        self.bound[0] = 0
        for k, (u, v) in bounds.items():  # k: item number, 1-based
            self.bound[k] = v
            self.slack[k] = v - u
        # A level adds an option or deactivates an item (a null move), so
        # there are never more than options + items, whatever the bounds.
        spent = nprimary + sum(v - 1 for _, v in bounds.values())
        self.depth = min(spent, noptions + nprimary) + 1
        self.option_start = links.option_start
        self.option_of = links.option_of
        self.nprimary = nprimary

    def copy_arrays(self) -> tuple:
        """Fresh copies of the kernels' arrays, in their argument order."""
        links = self.links
        color = links.color
        if color is None:
            color = np.zeros(len(links.top), np.int32)
        return links.copy_arrays() + (
            color.copy(),
            self.bound.copy(),
            self.slack,
            np.zeros(self.depth, np.int32),
        )


def load_kernels(*parts: str) -> None:
    """Compile (or load) DLX3's kernels once per process, outside any
    timing: ``"search"`` (search, unwind, commit and release),
    ``"batch"`` (solve_batch) and ``"split"`` (search_split, descend and
    count_subtrees)."""
    wanted = set(parts or ("search",)) - _loaded
    if not wanted:
        return
    tiny = Bounded(tiny_links(), {}, 1)
    levels = tiny.depth
    if "search" in wanted:
        arrays = tiny.copy_arrays()
        p = int(tiny.option_start[0])
        M.commit_option(p, *arrays)
        M.release_option(p, *arrays)
        warm_search(M, arrays, levels)
    if "batch" in wanted:
        warm_batch(M, tiny.copy_arrays(), levels)
    if "split" in wanted:
        M.search_split(
            *tiny.copy_arrays(),
            np.zeros(levels, np.int32),
            np.array([0, M.FORWARD], np.int64),
            np.zeros((0, levels), np.int32),
            np.zeros(0, np.int32),
            0,
            NO_LIMIT,
            np.zeros(3, np.int64),
            0,
            0,
            1,
        )
        M.count_subtrees(
            *tiny.copy_arrays(),
            np.zeros(0, np.int32),
            np.array([0, 0]),
            0,
            NO_LIMIT,
            np.zeros((1, levels), np.int32),
            np.zeros(1, np.int32),
            np.zeros(1, np.int64),
            np.zeros((1, 3), np.int64),
            0,
            np.zeros(1, np.uint8),
        )
    _loaded.update(wanted)


class BoundsJob(Run):
    """The subtree of one job of DLX3's tree, searched in slices: its path
    replayed (``descend``, the moves' updates not its own) and searched
    with the floor at its depth, as ``count_subtrees`` counts it, so that
    a node bound can stop it and its rest be handed back
    (``dlx.engines.base.count_job``).  A path handed back is the kernel's
    own moves, ``choice[0..level-1]``: the tweaks of the options tried
    before each move are implied by replaying it, so the jobs are exactly
    the unexplored subtrees."""

    def __init__(self, bounded: Bounded, given_nodes, path, cutoff: int):
        load_kernels("search", "split")
        self.arrays = bounded.copy_arrays()
        self.counters = np.zeros(3, np.int64)
        self.clash = commit_givens(M, given_nodes, self.arrays) < 0
        self.choice = np.zeros(bounded.depth + 1, np.int32)
        self.floor = len(path)
        if not self.clash:
            for level, move in enumerate(path):
                M.descend(move, level, *self.arrays, self.choice)
        self.state = np.array([self.floor, M.FORWARD], np.int64)
        self.cutoff = cutoff
        self.out = np.zeros((0, bounded.depth + 1), np.int32)
        self.out_len = np.zeros(0, np.int32)

    def step(self, want: int, stop_at: int, store: bool):
        """One kernel call; a job's solutions are counted, not kept."""
        status = M.search_split(
            *self.arrays,
            self.choice,
            self.state,
            self.out,
            self.out_len,
            want,
            stop_at,
            self.counters,
            self.cutoff,
            self.floor,
            -1,
        )
        return status, []

    def stopped_at(self):
        """The moves below the job's root to the node the kernel was about
        to enter (``state`` is ``(level, FORWARD)``); DLX3 does not tell
        its degrees (tweaks take the options tried out of the lists)."""
        level = int(self.state[0])
        return tuple(int(x) for x in self.choice[self.floor : level]), None

    def leaf(self):
        """A solution (no primary item left to settle) or a dead end (an
        item with too few options left): M3 scores it at once."""
        a = self.arrays
        score, _ = M.choose_item(a[1], a[5], a[7], a[8], self.cutoff)
        return bool(score <= 0 or score == M.INFINITY)

    def skip(self):
        """Leave the node as a frontier node is left (``search_split``'s
        ``FRONTIER``): back down to its parent's next move."""
        self.state[1] = M.RECOVER


class BoundsTop(Top):
    """DLX3's tree near the root: a node is expanded by replaying its path
    (``descend``) and searching with the floor at its depth and the
    ceiling one below, which stops at each child (``FRONTIER``)."""

    def __init__(self, bounded: Bounded, given_nodes, cutoff: int):
        load_kernels("search", "split")
        self.arrays = bounded.copy_arrays()
        self.depth = bounded.depth
        self.cutoff = cutoff
        updates = commit_givens(M, given_nodes, self.arrays)
        self.clash = updates < 0
        self.base = max(updates, 0)
        # No active primary item left: the root is a solution, a leaf (the
        # search finds it as a node of its tree).
        self.covered = not self.clash and self.arrays[1][0] == 0

    def expand(self, path):
        arrays = self.arrays
        rlink = arrays[1]
        d = len(path)
        choice = np.zeros(self.depth + 1, np.int32)
        for level, move in enumerate(path):
            M.descend(move, level, *arrays, choice)
        state = np.array([d, M.FORWARD], np.int64)
        counters = np.zeros(3, np.int64)
        out = np.zeros((0, self.depth + 1), np.int32)
        out_len = np.zeros(0, np.int32)
        children = []
        while (
            M.search_split(
                *arrays,
                choice,
                state,
                out,
                out_len,
                0,
                NO_LIMIT,
                counters,
                self.cutoff,
                d,
                d + 1,
            )
            == M.FRONTIER
        ):
            # A child with no active primary item is a solution: a leaf.
            children.append(((int(choice[d]),), bool(rlink[0] == 0)))
        # Back at the floor: only the path's own moves are left to undo.
        state[:] = (d, M.FORWARD)
        M.unwind(*arrays, choice, state)
        return int(counters[1]), children


class DLX3(Engine):
    """Knuth's DLX3: dancing links with multiplicities (and colors)."""

    name = "dlx3"
    program = "DLX3"
    algorithm = "links"
    kinds = frozenset({MULTIPLICITIES})
    about = "DLX3 with bounds"
    hands_back = True

    def build(self, problem) -> Bounded:
        csr = problem.csr()
        # (without colors, copy_arrays gives the kernels zeros)
        return Bounded(Links.from_csr(csr), csr.bounds, len(csr.indptr) - 1)

    def load(self, *parts):
        load_kernels(*parts)

    def start(self, arrays, given_nodes, cutoff):
        load_kernels("search")
        return XccRun(
            M,
            arrays.copy_arrays(),
            arrays.option_of,
            arrays.depth,
            given_nodes,
            cutoff,
            empty_is_a_node=True,
        )

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
            arrays.depth,
            threads,
            cutoff,
            chunks_per_thread,
            deadline,
            solve=M.solve_batch,
            event=event,
        )
        return (
            counts,
            option_numbers(first, arrays.option_of),
            work,
            stopped_by,
        )

    def top(self, arrays, given_nodes, cutoff):
        return BoundsTop(arrays, given_nodes, cutoff)

    def _committed(self, arrays, given_nodes):
        """Fresh arrays with the givens committed, or None on a clash."""
        copy = arrays.copy_arrays()
        return None if commit_givens(M, given_nodes, copy) < 0 else copy

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
        load_kernels("search", "split")
        copy = self._committed(arrays, given_nodes)
        if copy is None:
            n = len(paths)
            return np.zeros(n, np.int64), np.zeros((n, 3), np.int64), None
        nodes, starts = flat_paths(paths)
        counts, _, work, stopped_by = run_batch(
            copy,
            nodes,
            starts,
            0,
            NO_LIMIT,
            arrays.depth,
            threads,
            cutoff,
            chunks_per_thread=max(1, len(paths)),
            deadline=deadline,
            solve=M.count_subtrees,
            event=event,
        )
        return counts, work, stopped_by

    def path_nodes(self, arrays, path):
        raise NotImplementedError("DLX3's moves are replayed, not given")

    def start_job(self, arrays, given_nodes, path, cutoff):
        return None  # in-process jobs are counted in one call

    def run_job(self, arrays, given_nodes, path, cutoff, budget=0):
        run = BoundsJob(arrays, given_nodes, tuple(path), cutoff)
        return count_job(run, tuple(path), budget)
