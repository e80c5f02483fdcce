"""Algorithm X over bitsets: the engine for small exact-cover problems.

The kernels and the representation are described in ``dlx.kernels.bits``:
the live options are ``W = ceil(O / 64)`` machine words, choosing an
option is one AND-NOT with its precomputed conflict set, undoing a branch
is copying the words (and the per-item counts) back, and forced moves are
made before every branch.  ``BitsArrays`` builds the arrays from a
problem's items and options; ``Bits`` is the engine the services see.

The conflict sets take ``O * W`` words (66 KB for a 9x9 Sudoku, 2 MB for
16x16), so the engine only takes problems of at most ``MAX_OPTIONS``
options; plain exact cover with secondary items, no colors, no bounds.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..kernels import bits as K
from ..kernels.jit import compiled, runs_plain
from .base import EXACT, NO_LIMIT, Engine, Run, Unsupported
from .threads import batch_chunks, columns_used, run_tasks

#: The most options the engine takes (its conflict sets grow as the
#: square of the options).
MAX_OPTIONS = 8192


class BitsArrays:
    """The bitset engine's arrays for one problem (see
    ``dlx.kernels.bits``); built once, never changed by a search.

    ``hit[k]``: the primary items of option ``k``, padded to the most any
    option has with a *sink* (number ``nprimary``, always covered);
    ``conflict[k]``: the options that share an item with ``k``, ``k``
    included, as a bitset; ``holders[j]``: the options of item ``j``, as a
    bitset; ``opt_start``/``opt_item``: each option's items (CSR);
    ``item_start``/``item_opt``: each item's options, rising (CSR);
    ``thresh[i]``: ``(T_i + 1) << 16`` where ``T_i`` is the most options
    primary item ``i`` shares with one other item when that is 2 or more
    (the subset rule looks at ``i`` when it falls to ``T_i`` options),
    else ``2 << 16`` (never); ``init_count``: each item's count before any
    choice, ``(options << 16) | XOR of their numbers``, for the primary
    items and the sink (secondary items need none: the conflict sets
    keep them covered at most once).
    """

    __slots__ = (
        "hit",
        "thresh",
        "conflict",
        "holders",
        "span",
        "opt_start",
        "opt_item",
        "item_start",
        "item_opt",
        "nprimary",
        "nitems",
        "noptions",
        "covered",
        "init_live",
        "init_count",
        "init_forced",
        "depth",
        "width",
        "subsets",
    )

    def __init__(
        self,
        nitems: int,
        nprimary: int,
        members: np.ndarray,
        sizes: np.ndarray,
        subsets: bool = False,
    ):
        """Build from ``members`` (1-based item numbers, option after
        option; the first ``nprimary`` items are primary) and ``sizes``
        (items per option).  ``subsets``: apply the subset rule."""
        members = np.asarray(members, np.int64) - 1
        sizes = np.asarray(sizes, np.int64)
        noptions = len(sizes)
        if noptions > MAX_OPTIONS:
            raise Unsupported(
                f"the bitset engine takes at most "
                f"{MAX_OPTIONS} options; this problem has "
                f"{noptions}"
            )
        owner = np.repeat(np.arange(noptions), sizes)
        opt_start = np.zeros(noptions + 1, np.int32)
        np.cumsum(sizes, out=opt_start[1:])
        # Each option's items, primary ones first.
        order = np.lexsort((members >= nprimary, owner))
        opt_item = members[order].astype(np.int32)
        is_primary = opt_item < nprimary
        nprim = np.bincount(owner[is_primary], minlength=noptions)
        width = max(1, int(nprim.max()) if noptions else 1)
        hit = np.full((noptions, width), nprimary, np.int32)
        column = np.arange(len(members)) - np.repeat(opt_start[:-1], sizes)
        hit[owner[is_primary], column[is_primary]] = opt_item[is_primary]
        # Each item's options, rising.
        by_item = np.lexsort((owner, members))
        item_opt = owner[by_item].astype(np.int32)
        item_start = np.zeros(nitems + 1, np.int32)
        np.cumsum(np.bincount(members, minlength=nitems), out=item_start[1:])
        nwords = max(1, (noptions + 63) // 64)
        bit = np.left_shift(np.uint64(1), (owner & 63).astype(np.uint64))
        holders = np.zeros((nitems, nwords), np.uint64)
        np.bitwise_or.at(holders, (members, owner >> 6), bit)
        # span[j]: the words where item j has options (from, to).
        span = np.zeros((nitems, 2), np.int32)
        nonzero = holders != 0
        span[:, 0] = np.argmax(nonzero, axis=1)
        span[:, 1] = nwords - np.argmax(nonzero[:, ::-1], axis=1)
        span[~nonzero.any(axis=1)] = 0
        conflict = np.zeros((noptions, nwords), np.uint64)
        for k in range(noptions):
            mine = members[opt_start[k] : opt_start[k + 1]]
            if len(mine):
                conflict[k] = np.bitwise_or.reduce(holders[mine], axis=0)
        every = np.arange(noptions)
        init_live = np.zeros(nwords, np.uint64)
        np.bitwise_or.at(
            init_live,
            every >> 6,
            np.left_shift(np.uint64(1), (every & 63).astype(np.uint64)),
        )
        degree = np.diff(item_start).astype(np.int64)
        xors = np.zeros(nitems, np.int64)
        np.bitwise_xor.at(xors, members, owner)
        shift = K.SHIFT
        self.covered = np.iinfo(np.int32).max
        init_count = np.zeros(nprimary + 1, np.int32)
        init_count[:nprimary] = (degree[:nprimary] << shift) | xors[:nprimary]
        init_count[nprimary] = self.covered
        thresh = np.full(nprimary + 1, 2 << shift, np.int32)
        thresh[nprimary] = 0
        if subsets:
            shared = shared_options(nitems, nprimary, opt_item, opt_start)
            thresh[:nprimary] = (np.maximum(shared, 1) + 1) << shift
        # A solution holds at most this many options beyond its givens
        # (each covers at least the fewest primary items an option has),
        # and a search branches at most once per option it chooses.
        least = int(nprim[nprim > 0].min()) if (nprim > 0).any() else 1
        self.width = max(1, nprimary // least)
        self.depth = self.width + 1
        self.hit, self.thresh, self.conflict, self.holders = (
            hit,
            thresh,
            conflict,
            holders,
        )
        self.span = span
        self.opt_start, self.opt_item = opt_start, opt_item
        self.item_start, self.item_opt = item_start, item_opt
        self.nprimary, self.nitems, self.noptions = (
            nprimary,
            nitems,
            noptions,
        )
        self.init_live, self.init_count = init_live, init_count
        self.init_forced = np.flatnonzero(degree[:nprimary] <= 1).astype(
            np.int32
        )
        self.subsets = subsets

    @classmethod
    def of(cls, problem, subsets: bool = False) -> BitsArrays:
        """The arrays of an ``ExactCover`` (from its ``structure()``)."""
        s = problem.structure()
        return cls(s.nitems, s.nprimary, s.members, s.sizes, subsets)

    def search_arrays(self):
        """The static arrays ``search`` and ``solve_batch`` take first."""
        return (
            self.hit,
            self.thresh,
            self.conflict,
            self.holders,
            self.span,
            self.opt_start,
            self.opt_item,
            self.item_start,
            self.item_opt,
            self.nprimary,
            self.covered,
        )

    def batch_arrays(self):
        """The arrays ``solve_batch`` takes before the instances."""
        return (
            *self.search_arrays(),
            self.init_live,
            self.init_count,
            self.init_forced,
            self.depth,
        )

    def start_arrays(self):
        """The static arrays ``start`` takes first."""
        return (
            self.hit,
            self.thresh,
            self.conflict,
            self.nprimary,
            self.covered,
        )


def shared_options(
    nitems: int, nprimary: int, opt_item: np.ndarray, opt_start: np.ndarray
) -> np.ndarray:
    """For each primary item, the most options it shares with one other
    item (0 when it shares none)."""
    sizes = np.diff(opt_start)
    pairs = []
    for size in np.unique(sizes):
        if size < 2:
            continue
        rows = np.flatnonzero(sizes == size)
        items = opt_item[opt_start[rows][:, None] + np.arange(size)]
        a, b = np.nonzero(~np.eye(size, dtype=bool))
        pairs.append(
            items[:, a].ravel() * np.int64(nitems) + items[:, b].ravel()
        )
    best = np.zeros(nprimary, np.int64)
    if pairs:
        keys, times = np.unique(np.concatenate(pairs), return_counts=True)
        first = keys // nitems
        keep = first < nprimary
        np.maximum.at(best, first[keep], times[keep])
    return best


_loaded: set = set()


def load_kernels(*parts: str) -> None:
    """Compile (or load from numba's cache) the kernels ``parts`` name
    (``"search"``, ``"batch"``) once per process, on a one-item problem,
    so that no timing includes it."""
    wanted = set(parts) - _loaded
    if not wanted:
        return
    tiny = BitsArrays(1, 1, np.array([1]), np.array([1]))
    if "search" in wanted:
        BitsRun(tiny, [0]).step(1, NO_LIMIT, True)
    if "batch" in wanted:
        run_batch(
            tiny, np.zeros(0, np.int32), np.zeros(2, np.int64), 1, NO_LIMIT, 1
        )
    _loaded.update(wanted)


class BitsRun(Run):
    """One resumable search (``dlx.kernels.bits.search``) over private
    work arrays, the given options committed (see ``dlx.engines.base``).

    ``covered``: the givens alone cover every primary item.  When they
    leave a primary item with no option, the search is simply empty.
    """

    def __init__(self, arrays: BitsArrays, given: list[int]):
        self.arrays = arrays
        nwords = len(arrays.init_live)
        nitems = len(arrays.init_count)
        self.live = np.empty(nwords, np.uint64)
        self.count = np.empty(nitems, np.int32)
        self.saved_live = np.empty((arrays.depth, nwords), np.uint64)
        self.saved_count = np.empty((arrays.depth, nitems), np.int32)
        self.meta = np.empty((arrays.depth, 4), np.int64)
        self.chosen = np.empty(max(arrays.nprimary, 1), np.int32)
        self.queue = np.empty(nitems, np.int32)
        self.examine = np.empty(arrays.hit.size + 1, np.int32)
        self.pick = np.empty(max(arrays.noptions, 1), np.int32)
        self.state = np.zeros(K.STATE_SIZE, np.int64)
        self.counters = np.zeros(3, np.int64)
        outcome = K.start(
            *arrays.start_arrays(),
            arrays.init_live,
            arrays.init_count,
            arrays.init_forced,
            self.live,
            self.count,
            self.queue,
            self.examine,
            self.state,
            np.asarray(given, np.int32),
            0,
            len(given),
            self.counters,
        )
        self.clash = outcome < 0
        self.covered = outcome > 0 and self.state[K.LEFT] == 0
        if outcome <= 0 or self.covered:
            self.state[K.WHERE] = K.DONE

    def step(self, want: int, stop_at: int, store: bool):
        """One kernel call: see ``dlx.engines.base.Run.step``."""
        keep = want if store else 0
        out = np.zeros((keep, self.arrays.width), np.int32)
        out_len = np.zeros(keep, np.int32)
        before = int(self.counters[2])
        status = K.search(
            *self.arrays.search_arrays(),
            self.live,
            self.count,
            self.saved_live,
            self.saved_count,
            self.meta,
            self.chosen,
            self.queue,
            self.examine,
            self.pick,
            self.state,
            out,
            out_len,
            want,
            stop_at,
            self.counters,
        )
        stored = min(int(self.counters[2]) - before, keep)
        return status, [out[r, : out_len[r]].tolist() for r in range(stored)]


# counts[b] of an instance whose max_nodes ran out (both kernels).
OUT_OF_NODES = -2
# A batch runs plain Python (see run_batch) only when it has at most
# PLAIN_BATCH instances, each given at most PLAIN_NODES nodes there: 32
# nodes of a 9x9 Sudoku take about 0.1 s plain, which a command spends at
# most before it loads the compiled kernels (most of a second); most
# puzzles need fewer.
PLAIN_BATCH = 2
PLAIN_NODES = 32


def run_batch(
    arrays,
    given,
    starts,
    limit,
    max_nodes,
    threads,
    chunks_per_thread=16,
    deadline=None,
    event=None,
    solve=None,
):
    """``solve`` (``K.solve_batch``, or the lane engine's) over CSR
    instances (``given`` option numbers, instance ``b`` is
    ``given[starts[b]:starts[b + 1]]``) in chunks on ``threads`` threads
    (the search always runs on worker threads, so that this one notices
    Ctrl-C), each chunk given ``arrays.batch_arrays()`` first (``arrays``:
    ``BitsArrays`` or the lane engine's ``LaneArrays``).  Returns
    ``(counts, first, work, stopped_by)`` as ``dlx.engines.dlx1.run_batch``
    does, ``first`` in option numbers."""
    if solve is None:  # looked up now: compiling rebinds the name (jit)
        solve = K.solve_batch
    given = np.ascontiguousarray(given, np.int32)
    starts = np.ascontiguousarray(starts, np.int64)
    nbatch = len(starts) - 1
    first = np.full((nbatch, arrays.width), -1, np.int32)
    first_len = np.zeros(nbatch, np.int32)
    counts = np.zeros(nbatch, np.int64)
    work = np.zeros((nbatch, 3), np.int64)
    stop = np.zeros(1, np.uint8)
    lead = arrays.batch_arrays()

    def task(k):
        lo, hi = bounds[k], bounds[k + 1]
        sub = starts[lo : hi + 1]
        solve(
            *lead,
            given[sub[0] : sub[-1]],
            sub - sub[0],
            limit,
            max_nodes,
            first[lo:hi],
            first_len[lo:hi],
            counts[lo:hi],
            work[lo:hi],
            stop,
        )

    threads, bounds = batch_chunks(nbatch, threads, chunks_per_thread)
    if nbatch <= PLAIN_BATCH and runs_plain(
        solve, *lead, given, starts, first, work
    ):
        # A command's first small batch runs plain Python (see
        # dlx.kernels.jit), a few nodes an instance: one that needs more
        # makes the whole batch run again, compiled, as if never tried.
        budget = max_nodes
        max_nodes = min(max_nodes, PLAIN_NODES)
        stopped_by = run_tasks(
            task, len(bounds) - 1, threads, stop, deadline, event
        )
        if (
            stopped_by is not None
            or not (counts == OUT_OF_NODES).any()
            or budget <= PLAIN_NODES
        ):
            return counts, first, work, stopped_by
        first[:], first_len[:], counts[:], work[:] = -1, 0, 0, 0
        max_nodes = budget
    # Else compiled: a batch call is not cut short between its instances,
    # and a chunk of hard ones would run plain for seconds.
    solve = compiled(solve)
    stopped_by = run_tasks(
        task, len(bounds) - 1, threads, stop, deadline, event
    )
    return counts, first, work, stopped_by


class Bits(Engine):
    """Algorithm X over bitsets, with forced moves made before every
    branch (``dlx.kernels.bits``): plain exact cover, secondary items
    allowed, at most ``MAX_OPTIONS`` options.

    The lane engine (``dlx.engines.lanes``) is this engine with other
    arrays and kernels: a subclass names its own ``arrays_class``,
    ``run_class``, ``load_kernels`` and ``run_batch``, and takes the rest
    (the batch's trimming, the refusals of a split and of the estimate)."""

    name = "bits"
    program = "bitset Algorithm X"
    algorithm = "bits"
    kinds = frozenset({EXACT})
    about = (
        f"Algorithm X over bitsets (plain exact cover up to "
        f"{MAX_OPTIONS:,} options, one process)"
    )
    streams = True
    batches = True
    splits = False
    exact_split = False
    hands_back = False
    cutoff = False

    arrays_class: Any = BitsArrays
    run_class: Any = BitsRun
    load_kernels: Callable[..., None] = staticmethod(load_kernels)
    run_batch: Callable[..., tuple] = staticmethod(run_batch)

    def build(self, problem):
        return self.arrays_class.of(problem)

    def option_nodes(self, arrays, options) -> list[int]:
        """Options are their own nodes here."""
        return [int(k) for k in options]

    def load(self, *parts: str) -> None:
        self.load_kernels(*(p for p in parts if p in ("search", "batch")))

    def start(self, arrays, given_nodes, cutoff=0):
        self.load_kernels("search")
        return self.run_class(arrays, list(given_nodes))

    def batch(
        self,
        arrays,
        nodes,
        starts,
        limit,
        max_nodes,
        threads,
        cutoff=0,
        chunks_per_thread=16,
        deadline=None,
        event=None,
    ):
        self.load_kernels("batch")
        counts, first, work, stopped_by = self.run_batch(
            arrays,
            nodes,
            starts,
            limit,
            max_nodes,
            threads,
            chunks_per_thread,
            deadline,
            event,
        )
        return counts, first[:, : columns_used(first)], work, stopped_by

    def top(self, arrays, given_nodes, cutoff=0):
        raise Unsupported(
            "the bitset engine does not split its tree; use "
            "algorithm='links' or 'cells' for jobs"
        )

    def count_paths(
        self, arrays, given_nodes, paths, threads, cutoff, deadline=None
    ):
        self.top(arrays, given_nodes)

    def run_job(self, arrays, given_nodes, path, cutoff, budget=0):
        self.top(arrays, given_nodes)

    def probe(self, arrays, given_nodes, cutoff, probes, seed):
        raise Unsupported(
            "the bitset engine has no estimate; use "
            "algorithm='links' or 'cells'"
        )
