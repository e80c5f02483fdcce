"""DLX2, Knuth's dancing links with colors: the engine.

An XCC problem (TAOCP 7.2.2.1) lets an option give a secondary item a
*color*; options of one solution may share a secondary item only if they
all give it the same color.  DLX2's arrays are DLX1's (``Links``) with a
``color`` per node (``dlx.kernels.dlx2``); ``XccRun`` is one search (it
serves DLX3 too, ``dlx.engines.dlx3``), ``ColorsRun`` is DLX2's (it hands
back the rest of a job cut short), ``ColorsTop`` walks the top of the
tree, and ``DLX2`` is the engine.  A colored option chosen commits
its colors by *purifying* (hiding the options of other colors), which
DLX2 undoes exactly, so its split counts have the same nodes and updates
as one search, as DLX1's do.
"""

from __future__ import annotations

import numpy as np

from ..kernels import dlx2 as C
from .base import COLORS, NO_LIMIT, Engine, Run, Top, count_job
from .dlx1 import Links, LinksStops, option_numbers, run_batch
from .threads import flat_paths

_loaded: set = set()


def kernel_arrays(links: Links) -> tuple:
    """Fresh copies of DLX2's arrays, in its kernels' argument order."""
    color = links.color
    if color is None:  # a plain problem searched by DLX2: no colors
        color = np.zeros(len(links.top), np.int32)
    return links.copy_arrays() + (color.copy(),)


def tiny_links() -> Links:
    """A two-item, one-option problem with a color, to compile kernels on."""
    return Links(
        2,
        1,
        np.array([1, 2], np.int64),
        np.array([2], np.int64),
        np.array([0, 1], np.int32),
    )


def load_kernels(*parts: str) -> None:
    """Compile (or load from numba's cache) DLX2's kernels that ``parts``
    name, once per process, on a tiny problem, so that ``stats.seconds``
    measures the search alone: ``"search"`` (search, unwind and the
    givens' commit and release), ``"batch"`` (solve_batch) and
    ``"steps"`` (the single steps a split takes from Python)."""
    wanted = set(parts or ("search",)) - _loaded
    if not wanted:
        return
    tiny = tiny_links()
    levels = 2
    p = int(tiny.option_start[0])
    if "search" in wanted or "steps" in wanted:
        arrays = kernel_arrays(tiny)
        C.commit_option(p, *arrays)
        C.release_option(p, *arrays)
    if "search" in wanted:
        warm_search(C, kernel_arrays(tiny), levels)
    if "steps" in wanted:
        a = kernel_arrays(tiny)
        llink, rlink, ulink, dlink, top, length, color = a
        best = C.choose_item(llink, rlink, length, 0)
        C.cover(best, llink, rlink, ulink, dlink, top, color, length)
        C.cover_rest(p, llink, rlink, ulink, dlink, top, color, length)
        C.uncover_rest(p, llink, rlink, ulink, dlink, top, color, length)
        C.uncover(best, llink, rlink, ulink, dlink, top, color, length)
    if "batch" in wanted:
        warm_batch(C, kernel_arrays(tiny), levels)
    _loaded.update(wanted)


def warm_search(K, arrays: tuple, levels: int) -> None:
    """Compile kernel module ``K``'s ``search`` and ``unwind`` (DLX2's or
    DLX3's: the same arguments after the arrays) on ``arrays``, a tiny
    problem's of ``levels`` levels."""
    K.search(
        *arrays,
        np.zeros(levels, np.int32),
        np.array([0, K.FORWARD], np.int64),
        np.zeros((1, levels), np.int32),
        np.zeros(1, np.int32),
        1,
        NO_LIMIT,
        np.zeros(3, np.int64),
        0,
    )
    K.unwind(
        *arrays,
        np.zeros(levels, np.int32),
        np.array([0, K.DONE], np.int64),
    )


def warm_batch(K, arrays: tuple, levels: int) -> None:
    """Compile kernel module ``K``'s ``solve_batch`` (DLX2's or DLX3's) on
    ``arrays``, a tiny problem's of ``levels`` levels."""
    K.solve_batch(
        *arrays,
        np.zeros(0, np.int32),
        np.array([0, 0]),
        1,
        NO_LIMIT,
        np.zeros((1, levels), np.int32),
        np.zeros(1, np.int32),
        np.zeros(1, np.int64),
        np.zeros((1, 3), np.int64),
        0,
        np.zeros(1, np.uint8),
    )


def commit_givens(K, given_nodes, arrays) -> int:
    """Commit the given options (first nodes) with kernel module ``K``:
    their updates, or -1 when they clash (no solution; the arrays are
    then left as they are and must be dropped)."""
    updates = 0
    for p in given_nodes:
        u = K.commit_option(p, *arrays)
        if u < 0:
            return -1
        updates += u
    return updates


class XccRun(Run):
    """One DLX2 or DLX3 search over ``arrays`` (a fresh copy, in the
    kernel module ``K``'s argument order), for ``dlx.services.search``:
    the counterpart of ``dlx.engines.dlx1.LinksRun``.

    ``empty_is_a_node``: DLX3 sees "no active primary item" as a solution
    by itself (a node of its tree); DLX1 and DLX2 start with an item to
    branch on, so givens that cover everything are ``covered`` here.
    """

    def __init__(
        self,
        K,
        arrays: tuple,
        option_of,
        depth: int,
        given_nodes,
        cutoff: int,
        empty_is_a_node: bool = False,
    ):
        self.K = K
        self.arrays = arrays
        self.counters = np.zeros(3, np.int64)
        updates = commit_givens(K, given_nodes, self.arrays)
        self.clash = updates < 0
        self.counters[1] = max(updates, 0)
        self.covered = (
            not self.clash and not empty_is_a_node and self.arrays[1][0] == 0
        )
        self.depth = depth
        self.choice = np.zeros(depth, np.int32)
        self.state = np.array([0, K.FORWARD], np.int64)
        self.option_of = option_of
        self.cutoff = cutoff

    def step(self, want: int, stop_at: int, store: bool):
        """One kernel call: see ``dlx.services.search``."""
        keep = want if store else 0
        out = np.zeros((keep, self.depth), np.int32)
        out_len = np.zeros(keep, np.int32)
        before = int(self.counters[2])
        status = self.K.search(
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


class ColorsRun(LinksStops, XccRun):
    """One DLX2 search: an ``XccRun`` that can leave the node where its
    node bound stopped it (DLX2 keeps DLX1's state and choices), so that
    a job cut short hands back its rest."""


class ColorsTop(Top):
    """DLX2's tree near the root, walked with its single steps, as
    ``dlx.engines.dlx1.LinksTop`` walks DLX1's.  A committed option
    leaves exactly the lists that ``cover`` + ``cover_rest`` leave, but for
    the covered item's own list, which nobody walks: the subtree below a
    path given as options is the one search's subtree."""

    def __init__(self, links: Links, given_nodes, cutoff: int):
        load_kernels("steps")
        self.arrays = kernel_arrays(links)
        self.option_start = links.option_start
        self.option_of = links.option_of
        self.cutoff = cutoff
        updates = commit_givens(C, given_nodes, self.arrays)
        self.clash = updates < 0
        self.base = max(updates, 0)
        self.covered = not self.clash and self.arrays[1][0] == 0

    def expand(self, path):
        arrays = self.arrays
        llink, rlink, ulink, dlink, top, length, color = arrays
        nodes = [int(self.option_start[k]) for k in path]
        for p in nodes:
            C.commit_option(p, *arrays)
        best = C.choose_item(llink, rlink, length, self.cutoff)
        updates = C.cover(best, llink, rlink, ulink, dlink, top, color, length)
        children = []
        p = int(dlink[best])
        while p != best:
            updates += C.cover_rest(
                p, llink, rlink, ulink, dlink, top, color, length
            )
            children.append(((int(self.option_of[p]),), bool(rlink[0] == 0)))
            C.uncover_rest(p, llink, rlink, ulink, dlink, top, color, length)
            p = int(dlink[p])
        C.uncover(best, llink, rlink, ulink, dlink, top, color, length)
        for p in reversed(nodes):
            C.release_option(p, *arrays)
        return updates, children


class DLX2(Engine):
    """Knuth's DLX2: dancing links with colors on secondary items."""

    name = "dlx2"
    program = "DLX2"
    algorithm = "links"
    kinds = frozenset({COLORS})
    about = "DLX2 with colors"
    hands_back = True
    arrays_key = "links"

    def build(self, problem) -> Links:
        return Links.from_csr(problem.csr())

    def load(self, *parts):
        load_kernels(*("steps" if part == "split" else part for part in parts))

    def start(self, arrays, given_nodes, cutoff):
        load_kernels("search")
        return ColorsRun(
            C,
            kernel_arrays(arrays),
            arrays.option_of,
            arrays.nprimary + 1,
            given_nodes,
            cutoff,
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
            kernel_arrays(arrays),
            nodes,
            starts,
            limit,
            max_nodes,
            arrays.nprimary + 1,
            threads,
            cutoff,
            chunks_per_thread,
            deadline,
            solve=C.solve_batch,
            event=event,
        )
        return (
            counts,
            option_numbers(first, arrays.option_of),
            work,
            stopped_by,
        )

    def top(self, arrays, given_nodes, cutoff):
        return ColorsTop(arrays, given_nodes, cutoff)

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
        counts, _, work, stopped_by = run_batch(
            kernel_arrays(arrays),
            nodes,
            starts,
            0,
            NO_LIMIT,
            arrays.nprimary + 1,
            threads,
            cutoff,
            chunks_per_thread=max(1, len(paths)),
            deadline=deadline,
            solve=C.solve_batch,
            event=event,
        )
        return counts, work, stopped_by

    def run_job(self, arrays, given_nodes, path, cutoff, budget=0):
        run = self.start_job(arrays, given_nodes, path, cutoff)
        assert run is not None  # Engine.start_job: a run at any path
        return count_job(run, tuple(path), budget)
