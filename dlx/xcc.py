"""Colors and multiplicities: what ``ExactCover`` needs beyond DLX1.

Vocabulary (Knuth, TAOCP 7.2.2.1): in an XCC problem an option may give a
secondary item a *color*; options of one solution may share a secondary
item only if they all give it the same color (an uncolored use excludes
every other use).  In an MCC problem a primary item may carry *bounds*
``u..v``: it is covered at least ``u`` and at most ``v`` times.

This module validates colors and bounds for the model, builds the extra
arrays of the DLX3 kernel (``bound``/``slack``) and tells which kernel a
problem needs.  The kernels are ``dlx.kernels.colors`` (DLX2) and
``dlx.kernels.multiplicities`` (DLX3).
"""

from __future__ import annotations

import time
from typing import Mapping

import numpy as np
from .shorten import shorten

#: Which kernel a problem runs on.
EXACT = "exact cover"            # DLX1: dlx.kernels.links
COLORS = "colors"                # DLX2: dlx.kernels.colors
MULTIPLICITIES = "multiplicities"  # DLX3: dlx.kernels.multiplicities


def _is_int(value) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(
        value, (bool, np.bool_))


#: Bounds above this are kept as this (``check_bounds``).  An item lies in
#: fewer options than that in any problem the kernels' int32 arrays can
#: hold (each of its options takes a node and a spacer there), so
#: ``v >= MAX_BOUND`` means "any number of its options" and ``u >=
#: MAX_BOUND`` "never covered enough" before and after; and the kernels'
#: own sums of bounds and lengths stay far from int32's limit.
MAX_BOUND = 2**30


def check_bounds(bounds, index: Mapping, nprimary: int) -> dict:
    """``{item number (1-based): (u, v)}`` from ``{item: (u, v)}`` (or
    ``{item: v}``, meaning ``v..v``), every bound checked: the item must be
    primary, ``0 <= u <= v`` and ``v >= 1``.

    ``u`` and ``v`` above ``MAX_BOUND`` are kept as ``MAX_BOUND``: more
    than the item's options either way, so the solutions are the same,
    and no kernel ever sees a bound beyond its integers (a bound of
    ``2**32 + 1`` once wrapped to 1 in a 32-bit array)."""
    if bounds is None:
        return {}
    if not isinstance(bounds, Mapping):
        raise TypeError(f"bounds must be a mapping {{item: (u, v)}}, got "
                        f"{type(bounds).__name__}")
    checked = {}
    for item, bound in bounds.items():
        try:
            k = index.get(item)
        except TypeError:
            k = None
        if k is None:
            raise ValueError(f"bounds for {shorten(item)}: no such item")
        if k > nprimary:
            raise ValueError(f"bounds for {shorten(item)}: only primary items "
                             f"take bounds, and {shorten(item)} is secondary")
        if _is_int(bound):
            u = v = bound
        else:
            try:
                u, v = bound
            except (TypeError, ValueError):
                raise ValueError(f"bounds for {shorten(item)} must be a pair "
                                 f"(u, v) or one number, got "
                                 f"{shorten(bound)}") from None
        if not (_is_int(u) and _is_int(v)):
            raise ValueError(f"bounds for {shorten(item)} must be integers, got "
                             f"{shorten(bound)}")
        if not 0 <= u <= v or v < 1:
            raise ValueError(f"bounds for {shorten(item)} are {u}..{v}; they need "
                             f"0 <= u <= v and v >= 1")
        checked[k] = (min(int(u), MAX_BOUND), min(int(v), MAX_BOUND))
    return checked


def check_colors(colors, names: tuple, index: Mapping, nprimary: int,
                 where: str) -> dict:
    """``{position in the option: color}`` from ``{item: color}``, each
    item in the option and secondary, each color hashable."""
    if not isinstance(colors, Mapping):
        raise TypeError(f"{where}: colors must be a mapping {{item: "
                        f"color}}, got {type(colors).__name__}")
    position = {}
    for at, name in enumerate(names):
        position[name] = at
    checked = {}
    for item, color in colors.items():
        try:
            at = position.get(item)
        except TypeError:
            at = None
        if at is None:
            raise ValueError(f"{where} {shorten(list(names))}: color {shorten(color)} "
                             f"for item {shorten(item)}, which is not in the "
                             f"option")
        if index[item] <= nprimary:
            raise ValueError(f"{where} {shorten(list(names))}: color {shorten(color)} "
                             f"for primary item {shorten(item)}; only secondary "
                             f"items take colors")
        try:
            hash(color)
        except TypeError:
            raise ValueError(f"{where}: color {shorten(color)} for item {shorten(item)} "
                             f"is not hashable") from None
        checked[at] = color
    return checked


def member_colors(option_colors: Mapping, codes: Mapping,
                  sizes) -> np.ndarray:
    """One color code per member (0: none), from ``{option: {position:
    color}}`` and ``{color: code}``."""
    starts = np.zeros(len(sizes) + 1, np.int64)
    np.cumsum(sizes, out=starts[1:])
    out = np.zeros(int(starts[-1]), np.int32)
    for option, colors in option_colors.items():
        for at, color in colors.items():
            out[starts[option] + at] = codes[color]
    return out


def bound_arrays(bounds: Mapping, nprimary: int):
    """DLX3's ``bound`` and ``slack`` (index 0 unused, one entry per
    primary item: ``v`` and ``v - u``; ``1`` and ``0`` when unbounded)."""
    bound = np.ones(nprimary + 1, np.int32)
    slack = np.zeros(nprimary + 1, np.int32)
    bound[0] = 0
    for k, (u, v) in bounds.items():
        bound[k] = v
        slack[k] = v - u
    return bound, slack


def kernel(kind: str):
    """The kernel module for a problem of this kind."""
    if kind == MULTIPLICITIES:
        from .kernels import multiplicities
        return multiplicities
    if kind == COLORS:
        from .kernels import colors
        return colors
    from .kernels import links
    return links


def depth(problem, kind: str | None = None) -> int:
    """Levels a search of ``problem`` may need, plus one: one per option of
    a solution for DLX1/DLX2; for DLX3 each level spends one unit of some
    item's upper bound (an option, or a null move)."""
    if (kind or problem.kind) != MULTIPLICITIES:
        return len(problem.primary) + 1
    # A level adds an option or deactivates an item (a null move), so
    # there are never more than options + items, whatever the bounds.
    spent = len(problem.primary) + sum(
        v - 1 for _, v in problem._bounds.values())
    return min(spent, len(problem) + len(problem.primary)) + 1


def kernel_arrays(problem, kind: str | None = None) -> tuple:
    """Fresh copies of the arrays the problem's kernel takes, in its
    argument order: DLX1's, then ``color`` (DLX2), then ``bound``,
    ``slack`` and ``first_tweak`` (DLX3).  ``kind`` asks for a more general
    kernel's arrays than the problem needs (DLX3's for a plain problem)."""
    links = problem.links
    arrays = links.copy_arrays()
    kind = kind or problem.kind
    color = links.color
    if color is None and kind != EXACT:
        color = np.zeros(len(links.top), np.int32)
    if kind == EXACT:
        return arrays
    arrays += (color.copy(),)
    if kind == COLORS:
        return arrays
    bound, slack = bound_arrays(problem._bounds, len(problem.primary))
    return arrays + (bound, slack, np.zeros(depth(problem, kind), np.int32))


_loaded: set = set()


def load_kernels(kind: str, *parts: str) -> None:
    """Compile (or load from numba's cache) the kernels of ``kind`` that
    ``parts`` name, once per process, on a one-item problem, so that
    ``stats.seconds`` measures the search alone: ``"search"`` (search,
    unwind and the givens' commit and release), ``"batch"``
    (solve_batch, compiled apart since a first run seldom needs it) and
    ``"split"`` (DLX3's count_subtrees, for count(threads=N))."""
    wanted = {(kind, part) for part in parts or ("search",)} - _loaded
    if not wanted or kind == EXACT:
        return
    from .links import Links
    from .search import NO_LIMIT
    K = kernel(kind)
    tiny = Links(2, 1, np.array([1, 2], np.int64), np.array([2], np.int64),
                 np.array([0, 1], np.int32))
    levels = 2
    if (kind, "search") in wanted:
        arrays = _tiny_arrays(tiny, kind)
        p = int(tiny.option_start[0])
        K.commit_option(p, *arrays)
        K.release_option(p, *arrays)
        K.search(*arrays, np.zeros(levels, np.int32),
                 np.array([0, K.FORWARD], np.int64),
                 np.zeros((1, levels), np.int32), np.zeros(1, np.int32), 1,
                 NO_LIMIT, np.zeros(3, np.int64), 0)
        K.unwind(*arrays, np.zeros(levels, np.int32),
                 np.array([0, K.DONE], np.int64))
    if (kind, "batch") in wanted:
        K.solve_batch(*_tiny_arrays(tiny, kind), np.zeros(0, np.int32),
                      np.array([0, 0]), 1, NO_LIMIT,
                      np.zeros((1, levels), np.int32), np.zeros(1, np.int32),
                      np.zeros(1, np.int64), np.zeros((1, 3), np.int64), 0,
                      np.zeros(1, np.uint8))
    if (kind, "split") in wanted:
        levels = 2
        K.search_split(*_tiny_arrays(tiny, kind), np.zeros(levels, np.int32),
                       np.array([0, K.FORWARD], np.int64),
                       np.zeros((0, levels), np.int32), np.zeros(0, np.int32),
                       0, NO_LIMIT, np.zeros(3, np.int64), 0, 0, 1)
        K.count_subtrees(*_tiny_arrays(tiny, kind), np.zeros(0, np.int32),
                         np.array([0, 0]), 0, NO_LIMIT,
                         np.zeros((1, levels), np.int32),
                         np.zeros(1, np.int32), np.zeros(1, np.int64),
                         np.zeros((1, 3), np.int64), 0,
                         np.zeros(1, np.uint8))
    _loaded.update(wanted)


def _tiny_arrays(tiny, kind):
    arrays = tiny.copy_arrays() + (tiny.color.copy(),)
    if kind == MULTIPLICITIES:
        arrays += (np.ones(2, np.int32), np.zeros(2, np.int32),
                   np.zeros(2, np.int32))
    return arrays


def commit_givens(K, given_nodes, arrays) -> int:
    """Commit the given options (first nodes) with kernel module ``K``:
    their updates, or -1 when they clash (no solution; the arrays are
    then left as they are)."""
    updates = 0
    for p in given_nodes:
        u = K.commit_option(p, *arrays)
        if u < 0:
            return -1
        updates += u
    return updates


class XccRun:
    """One DLX2 or DLX3 search of ``problem``, for ``dlx.search.run``: the
    counterpart of ``dlx.links.LinksRun`` (same attributes and ``step``)."""

    def __init__(self, problem, given_nodes: list[int], cutoff: int):
        kind = problem.kind
        self.K = K = kernel(kind)
        load_kernels(kind)
        self.arrays = kernel_arrays(problem)
        self.counters = np.zeros(3, np.int64)
        updates = commit_givens(K, given_nodes, self.arrays)
        self.clash = updates < 0
        self.counters[1] = max(updates, 0)
        # DLX2, like DLX1, starts with a primary item to branch on; DLX3
        # sees "no active item" as its solution by itself.
        self.covered = (not self.clash and kind == COLORS
                        and self.arrays[1][0] == 0)
        self.depth = depth(problem)
        self.choice = np.zeros(self.depth, np.int32)
        self.state = np.array([0, K.FORWARD], np.int64)
        self.option_of = problem.links.option_of
        self.cutoff = cutoff

    def step(self, want: int, stop_at: int, store: bool):
        """One kernel call: see ``dlx.search``."""
        keep = want if store else 0
        out = np.zeros((keep, self.depth), np.int32)
        out_len = np.zeros(keep, np.int32)
        before = int(self.counters[2])
        status = self.K.search(*self.arrays, self.choice, self.state, out,
                               out_len, want, stop_at, self.counters,
                               self.cutoff)
        stored = min(int(self.counters[2]) - before, keep)
        return status, [self.option_of[out[r, :out_len[r]]].tolist()
                        for r in range(stored)]


def count_parallel_colors(problem, given_nodes: list[int], threads: int,
                          cutoff: int, stats, deadline=None) -> int:
    """``count(threads=N)`` for a colored problem: DLX2's tree split at its
    top levels, as ``dlx.links.count_parallel`` splits DLX1's.

    The top levels are expanded here with the DLX2 kernels (MRV item,
    options in order), counting nodes and updates as the one-thread search
    does; each frontier node becomes a ``solve_batch`` instance whose
    givens are the options on its path.  A committed option leaves exactly
    the lists that ``cover`` + ``cover_rest`` leave, but for the covered
    item's own list, which nobody walks: every subtree makes the same
    search as under one thread, so the count, nodes and updates are equal.
    """
    from .kernels import colors as C
    from .links import run_batch
    from .search import NO_LIMIT, finish_split, flat_paths
    load_kernels(COLORS, "search", "batch")
    stats.complete = False
    t0 = time.perf_counter()
    arrays = kernel_arrays(problem)
    llink, rlink, ulink, dlink, top, length, color = arrays
    first_node = problem.links.option_start
    option_of = problem.links.option_of
    updates = commit_givens(C, given_nodes, arrays)
    if updates < 0:  # the givens clash: no solution
        stats.complete = True
        return 0
    stats.updates += updates
    if rlink[0] == 0:  # the givens alone are a cover: one leaf node
        stats.nodes = stats.solutions = 1
        stats.complete = True
        return 1
    frontier = [()]  # paths of first nodes of options
    shallow = 0
    target = 64 * threads
    for _ in range(4):
        if not frontier or len(frontier) >= target:
            break
        grown = []
        for path in frontier:
            for p in path:
                C.commit_option(p, *arrays)
            stats.nodes += 1
            best = C.choose_item(llink, rlink, length, cutoff)
            stats.updates += C.cover(best, llink, rlink, ulink, dlink, top,
                                     color, length)
            p = int(dlink[best])
            while p != best:
                stats.updates += C.cover_rest(p, llink, rlink, ulink, dlink,
                                              top, color, length)
                if rlink[0] == 0:  # a solution: a leaf node
                    shallow += 1
                    stats.nodes += 1
                else:
                    grown.append(path + (int(first_node[option_of[p]]),))
                C.uncover_rest(p, llink, rlink, ulink, dlink, top, color,
                               length)
                p = int(dlink[p])
            C.uncover(best, llink, rlink, ulink, dlink, top, color, length)
            for p in reversed(path):
                C.release_option(p, *arrays)
        frontier = grown
    nodes, starts = flat_paths(frontier)
    counts, _, work, stopped_by = run_batch(
        arrays, nodes, starts, 0, NO_LIMIT, depth(problem), threads, cutoff,
        chunks_per_thread=len(frontier), deadline=deadline,
        solve=C.solve_batch)
    return finish_split(stats, t0, shallow, counts, work, stopped_by)


# count_parallel_bounds hands out the nodes of the first level (from the
# top) that has at least this many per thread, looking no deeper than
# SPLIT_LEVELS.
SPLIT_PER_THREAD = 64
SPLIT_LEVELS = 6


def count_parallel_bounds(problem, given_nodes: list[int], threads: int,
                          cutoff: int, stats, deadline=None) -> int:
    """``count(threads=N)`` for a problem with bounds: DLX3's tree split
    at one of its top levels.

    A DLX3 node is not a set of options (the options tried before on its
    level are tweaked away, an item may have been given up by a null
    move), so a subtree is handed out as its path of moves instead of as
    givens: the search here runs with a *ceiling* and stops at every node
    of that level, whose path ``count_subtrees`` replays on a copy of the
    arrays before it searches below it.  The nodes above the ceiling, their
    updates and their solutions are counted here, once; each subtree's in
    its thread: together the same count, nodes and updates as one thread.
    """
    from .kernels import multiplicities as M
    from .search import NO_LIMIT, finish_split
    load_kernels(MULTIPLICITIES, "search", "split")
    stats.complete = False
    t0 = time.perf_counter()
    arrays = kernel_arrays(problem)
    updates = commit_givens(M, given_nodes, arrays)
    if updates < 0:  # the givens clash: no solution
        stats.complete = True
        return 0
    levels = depth(problem)
    choice = np.zeros(levels, np.int32)
    out = np.zeros((0, levels), np.int32)
    out_len = np.zeros(0, np.int32)
    for ceiling in range(1, SPLIT_LEVELS + 1):
        # The whole top of the tree down to the ceiling; a complete search
        # leaves the arrays as it found them.
        state = np.array([0, M.FORWARD], np.int64)
        counters = np.zeros(3, np.int64)
        paths = []
        while M.search_split(*arrays, choice, state, out, out_len, 0,
                             NO_LIMIT, counters, cutoff, 0,
                             ceiling) == M.FRONTIER:
            paths.append(choice[:ceiling].copy())
        if len(paths) >= SPLIT_PER_THREAD * threads or not paths:
            break
    stats.nodes += int(counters[0])
    stats.updates += updates + int(counters[1])
    shallow = int(counters[2])
    starts = np.arange(0, ceiling * len(paths) + 1, ceiling, dtype=np.int64)
    nodes = (np.concatenate(paths) if paths
             else np.zeros(0, np.int32)).astype(np.int32)
    from .links import run_batch
    counts, _, work, stopped_by = run_batch(
        arrays, nodes, starts, 0, NO_LIMIT, levels, threads, cutoff,
        chunks_per_thread=max(1, len(paths)), deadline=deadline,
        solve=M.count_subtrees)
    return finish_split(stats, t0, shallow, counts, work, stopped_by)
