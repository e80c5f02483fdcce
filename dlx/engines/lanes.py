"""Algorithm X over item lanes: the bitset engine for small, dense problems.

The kernels and the representation are described in ``dlx.kernels.lanes``:
each primary item has a *lane* of ``D + 1`` bits (``D``: the most options
a primary item has), its live options and a guard; the search state is
the lanes packed in ``N`` machine words; choosing an option is one
AND-NOT with its precomputed mask, undoing is copying the words back, and
the forced moves of every item are found at once by a few word operations
per word.  ``LaneArrays`` builds the arrays from a problem; ``Lanes`` is
the engine the services see (``algorithm="bits"`` takes it where it fits,
see ``dlx.engines.registry``).

The masks take ``O * N`` words (``O``: options): 0.3 MB for a 9x9 Sudoku,
11 MB for 16x16, where the count-based engine (``dlx.engines.bits``) is
kept.  ``fits`` says whether a problem may use it: plain exact cover
(secondary items allowed), no primary item with more than 63 options,
masks of at most ``MAX_MASK_BYTES``.
"""

from __future__ import annotations

import numpy as np

from ..kernels import lanes as K
from .base import EXACT, NO_LIMIT, Run, Unsupported
from .bits import Bits, run_batch as bits_run_batch

#: The most bytes the masks may take (measured: see ``fits``).
MAX_MASK_BYTES = 2 << 20
#: The most options a primary item may have (a lane is a part of a word,
#: its guard bit included).
MAX_DEGREE = 63
#: The most partners of a lane for the subset rule.
MAX_PARTNERS = 8
#: Branching: score this many of the lanes with two options (0: MRV, the
#: first lane with the fewest options).  MRV by default: scoring gained
#: nothing measurable on the Sudoku sets (bench/lanes.py --variants
#: lanes:candidates=0, 17clue 0.27 against 0.25 of bits' time, top1465
#: and forum level, queens and Langford faster with MRV), and it
#: interleaves the branches of independent parts of a problem: two 9x9
#: grids side by side (tests/test_bits.py) took 49 million nodes with 8
#: candidates where MRV takes 339 ...
CANDIDATES = 0
#: ... and apply the subset rule at the root and at the branch levels
#: below this one (0: at the root only; measured in bench/lanes.py: at
#: every node it spares 18-21% of the nodes of top1465 and the forum's
#: hardest but takes 1.0-1.5x the time, Langford 12 4% for 2-2.2x; depths 0,
#: 2 and 3 are within the noise of 1 on the Sudoku sets).
SUBSET_DEPTH = 1


def shape(nprimary: int, degrees: np.ndarray, noptions: int):
    """``(L, K, N)``: the lane width, the lanes per word and the words
    (a multiple of ``dlx.kernels.lanes.PAD``) of a problem whose primary
    items have ``degrees`` options."""
    most = int(degrees.max()) if len(degrees) else 0
    width = most + 1
    per_word = 64 // width if width <= 64 else 0
    words = -(-nprimary // per_word) if per_word else 0
    words = max(K.PAD, -(-words // K.PAD) * K.PAD)
    return width, per_word, words


def fits(problem) -> bool:
    """Whether ``problem`` (an ``ExactCover``) may use this engine: plain
    exact cover whose primary items have at most ``MAX_DEGREE`` options
    each and whose masks take at most ``MAX_MASK_BYTES``.

    Measured (``python bench/lanes.py --rounds 3``): a 9x9 Sudoku (masks
    0.3 MB) runs its uniqueness batches in 0.28-0.40 of the count-based
    engine's time, queens 12 and Langford 12 count in 0.38-0.42; 16x16
    (masks of 11 MB, 342 words a state) took 0.64 on hexadoku16 but 1.18
    on special_large, and keeps the count-based engine.
    """
    if problem.kind != EXACT:
        return False
    # A mask is at least PAD words: a big problem is turned away before
    # its structure is read (such problems are built from arrays).
    if len(problem) * K.PAD * 8 > MAX_MASK_BYTES:
        return False
    return problem.built("lanes-fit", _fit)


def _fit(problem) -> bool:
    s = problem.structure()
    members = np.asarray(s.members, np.int64) - 1
    degrees = np.bincount(members[members < s.nprimary], minlength=s.nprimary)
    if len(degrees) and degrees.max() > MAX_DEGREE:
        return False
    _, _, words = shape(s.nprimary, degrees, len(s.sizes))
    return len(s.sizes) * words * 8 <= MAX_MASK_BYTES


class LaneArrays:
    """The lane engine's arrays for one problem (see
    ``dlx.kernels.lanes``); built once, never changed by a search.

    ``mask[o]``: what choosing option ``o`` clears (``N`` words; a last
    row of zeros, ``mask[O]``, is the move of nothing);
    ``lane_opt[(w << 6) | b]``: the option of bit ``b`` of word ``w``;
    ``own_word``/``own_bits``: each option's own bits (a word and a bit
    per primary item, padded with bit 0); ``partner[i, p]`` (the lane,
    ``(word << 6) | first bit``, of item ``i``'s ``p``-th partner),
    ``jshared[i, p]`` (the options it shares with ``i``, as bits of its
    lane), ``pshared[p]`` (``i``'s shared options, packed as the lanes,
    guard bit set where there is a ``p``-th partner) and ``prange[p]``
    (the words where ``pshared[p]`` is not zero): the subset rule's;
    ``first_word``/``first_bit``: where each option's first primary bit is
    (-1: it has no primary item); ``opt_start``/``opt_item``: each option's
    items (CSR), for givens without primary items; ``init``: the lanes
    before any choice; ``width``: the most options a solution has beyond
    its givens; ``depth``: the most branch levels.
    """

    __slots__ = (
        "mask",
        "lane_opt",
        "own_word",
        "own_bits",
        "partner",
        "jshared",
        "pshared",
        "prange",
        "lw",
        "per_word",
        "guard",
        "low",
        "first_word",
        "first_bit",
        "opt_start",
        "opt_item",
        "init",
        "nprimary",
        "nitems",
        "noptions",
        "width",
        "depth",
        "candidates",
        "subset_depth",
    )

    def __init__(
        self,
        nitems: int,
        nprimary: int,
        members: np.ndarray,
        sizes: np.ndarray,
        subsets: bool = True,
        candidates: int = CANDIDATES,
        subset_depth: int = SUBSET_DEPTH,
    ):
        """Build from ``members`` (1-based item numbers, option after
        option; the first ``nprimary`` items are primary) and ``sizes``
        (items per option).  ``subsets``: apply the subset rule (at the
        levels below ``subset_depth``); ``candidates``: the lanes with two
        options scored when branching (0: MRV)."""
        members = np.asarray(members, np.int64) - 1
        sizes = np.asarray(sizes, np.int64)
        noptions = len(sizes)
        owner = np.repeat(np.arange(noptions), sizes)
        primary = members < nprimary
        degrees = np.bincount(members[primary], minlength=nprimary)
        if len(degrees) and degrees.max() > MAX_DEGREE:
            raise Unsupported(
                f"the lane engine takes primary items of at most "
                f"{MAX_DEGREE} options; item {int(degrees.argmax())} has "
                f"{int(degrees.max())}"
            )
        lw, per_word, nwords = shape(nprimary, degrees, noptions)
        self.lw, self.per_word = np.uint64(lw), per_word
        # Where each primary item's lane starts: (word << 6) | first bit.
        items = np.arange(nprimary)
        start = (items // max(per_word, 1)) * 64 + (
            items % max(per_word, 1)
        ) * lw
        # The (item, option) pairs of primary items, by item then option:
        # an option's slot in a lane is its rank among the item's options.
        order = np.lexsort((owner[primary], members[primary]))
        pitem = members[primary][order]
        popt = owner[primary][order]
        first = np.zeros(nprimary + 1, np.int64)
        np.cumsum(degrees, out=first[1:])
        slot = np.arange(len(pitem)) - first[pitem]
        pos = start[pitem] + slot  # (word << 6) | bit of the pair
        word, bit = pos >> 6, (pos & 63).astype(np.uint64)
        one = np.uint64(1)
        # Each option's own bits, primary items in rising order.
        by_option = np.lexsort((pitem, popt))
        npri = np.bincount(popt, minlength=noptions)
        most = max(1, int(npri.max()) if noptions else 1)
        rank = np.arange(len(popt)) - np.repeat(np.cumsum(npri) - npri, npri)
        own_word = np.zeros((noptions, most), np.int32)
        own_bits = np.zeros((noptions, most), np.uint64)
        own_word[popt[by_option], rank] = word[by_option]
        own_bits[popt[by_option], rank] = one << bit[by_option]
        first_word = np.full(noptions, -1, np.int32)
        first_bit = np.zeros(noptions, np.int32)
        lead = by_option[rank == 0]
        first_word[popt[lead]] = word[lead]
        first_bit[popt[lead]] = bit[lead]
        # clears[i]: every lane bit of every option of item i, and i's
        # guard if primary; mask[o]: the OR of clears over o's items.
        clears = np.zeros((nitems + 1, nwords), np.uint64)
        width = max(1, int(sizes.max()) if noptions else 1)
        opt_items = np.full((noptions, width), nitems, np.int64)
        column = np.arange(len(members)) - np.repeat(
            np.cumsum(sizes) - sizes, sizes
        )
        opt_items[owner, column] = members
        own_pos = np.full((noptions, most), -1, np.int64)
        own_pos[popt[by_option], rank] = pos[by_option]
        pairs_item = np.repeat(opt_items[:, :, None], most, axis=2)
        pairs_pos = np.repeat(own_pos[:, None, :], width, axis=1)
        keep = (pairs_item < nitems) & (pairs_pos >= 0)
        at = pairs_pos[keep]
        np.bitwise_or.at(
            clears,
            (pairs_item[keep], at >> 6),
            one << (at & 63).astype(np.uint64),
        )
        guards = start + lw - 1
        np.bitwise_or.at(
            clears,
            (items, guards >> 6),
            one << (guards & 63).astype(np.uint64),
        )
        # (and a last row of zeros: see dlx.kernels.lanes, the scan)
        mask = np.zeros((noptions + 1, nwords), np.uint64)
        for s in range(width):
            mask[:noptions] |= clears[opt_items[:, s]]
        lane_opt = np.full(nwords * 64, -1, np.int32)
        lane_opt[pos] = popt
        init = np.zeros(nwords, np.uint64)
        full = (np.left_shift(one, degrees.astype(np.uint64)) - one) | (
            one << np.uint64(lw - 1)
        )
        np.bitwise_or.at(
            init, start >> 6, full << (start & 63).astype(np.uint64)
        )
        lanes = np.arange(max(per_word, 1), dtype=np.uint64) * np.uint64(lw)
        self.guard = np.bitwise_or.reduce(one << (lanes + np.uint64(lw - 1)))
        self.low = np.bitwise_or.reduce(one << lanes)
        self.mask, self.lane_opt, self.init = mask, lane_opt, init
        self.own_word, self.own_bits = own_word, own_bits
        self.first_word, self.first_bit = first_word, first_bit
        self.opt_start = np.zeros(noptions + 1, np.int32)
        np.cumsum(sizes, out=self.opt_start[1:])
        self.opt_item = members.astype(np.int32)
        self.partner, self.jshared, self.pshared, self.prange = partners(
            nprimary,
            nwords,
            lw,
            start,
            popt,
            pitem,
            slot,
            MAX_PARTNERS if subsets else 0,
        )
        self.nprimary, self.nitems, self.noptions = (
            nprimary,
            nitems,
            noptions,
        )
        # A solution holds at most this many options beyond its givens
        # (each covers at least the fewest primary items an option has),
        # and a search branches at most once per option it chooses.
        least = int(npri[npri > 0].min()) if (npri > 0).any() else 1
        self.width = max(1, nprimary // least)
        self.depth = self.width + 1
        self.candidates = int(candidates)
        self.subset_depth = int(subset_depth)

    @classmethod
    def of(cls, problem, **options) -> LaneArrays:
        """The arrays of an ``ExactCover`` (from its ``structure()``)."""
        s = problem.structure()
        return cls(s.nitems, s.nprimary, s.members, s.sizes, **options)

    def search_arrays(self):
        """The static arguments ``search`` and ``solve_batch`` take
        first."""
        return (
            self.mask,
            self.lane_opt,
            self.own_word,
            self.own_bits,
            self.partner,
            self.jshared,
            self.pshared,
            self.prange,
            self.lw,
            self.per_word,
            self.guard,
            self.low,
            self.subset_depth,
            self.candidates,
        )

    def batch_arrays(self):
        """The arrays ``solve_batch`` takes before the instances."""
        return (
            *self.search_arrays(),
            self.first_word,
            self.first_bit,
            self.opt_start,
            self.opt_item,
            self.init,
            self.depth,
        )

    def start_arrays(self):
        """The static arguments ``start`` takes first."""
        return (
            self.mask,
            self.first_word,
            self.first_bit,
            self.opt_start,
            self.opt_item,
            self.guard,
            self.low,
            self.init,
        )


def partners(nprimary, nwords, lw, start, popt, pitem, slot, most):
    """The subset rule's arrays (see ``LaneArrays``): for each primary
    item, up to ``most`` partners, the primary items sharing two or more
    of its options, those sharing the most first (then by number)."""
    one = np.uint64(1)
    empty = (
        np.zeros((nprimary, 0), np.int32),
        np.zeros((nprimary, 0), np.uint64),
        np.zeros((0, nwords), np.uint64),
        np.zeros((0, 2), np.int64),
    )
    if most == 0 or len(popt) == 0:
        return empty
    # Every ordered pair of primary items of one option, with the option's
    # slot in each.
    order = np.lexsort((pitem, popt))
    o, i, s = popt[order], pitem[order], slot[order]
    ends = np.flatnonzero(np.diff(np.r_[o, -1]))
    counts = np.diff(np.r_[-1, ends])
    a_idx, b_idx = [], []
    for size in np.unique(counts):
        if size < 2:
            continue
        heads = (ends - counts + 1)[counts == size]
        first, second = np.nonzero(~np.eye(size, dtype=bool))
        a_idx.append((heads[:, None] + first).ravel())
        b_idx.append((heads[:, None] + second).ravel())
    if not a_idx:
        return empty
    first_of, second_of = np.concatenate(a_idx), np.concatenate(b_idx)
    a, b = i[first_of], i[second_of]
    key = a * nprimary + b
    keys, inverse, shared = np.unique(
        key, return_inverse=True, return_counts=True
    )
    ka, kb = keys // nprimary, keys % nprimary
    good = shared >= 2
    # Rank each item's partners: most shared first, then by number.
    rank_order = np.lexsort((kb, -shared, ka))
    rank = np.full(len(keys), -1, np.int64)
    sorted_a = ka[rank_order]
    run_start = np.r_[0, np.flatnonzero(np.diff(sorted_a)) + 1]
    position = np.arange(len(keys)) - np.repeat(
        run_start, np.diff(np.r_[run_start, len(keys)])
    )
    # (ranks count the good pairs only: the bad ones share one option and
    # sort last, after every good pair of the same item)
    rank[rank_order] = position
    rank[~good] = -1
    kept = (rank >= 0) & (rank < most)
    npart = int(rank[kept].max()) + 1 if kept.any() else 0
    if npart == 0:
        return empty
    partner = np.zeros((nprimary, npart), np.int32)
    jshared = np.zeros((nprimary, npart), np.uint64)
    ishared = np.zeros((nprimary, npart), np.uint64)
    partner[ka[kept], rank[kept]] = start[kb[kept]]
    pair_rank = rank[inverse]
    use = pair_rank >= 0
    use[use] = pair_rank[use] < most
    np.bitwise_or.at(
        ishared,
        (a[use], pair_rank[use]),
        one << s[first_of][use].astype(np.uint64),
    )
    np.bitwise_or.at(
        jshared,
        (a[use], pair_rank[use]),
        one << s[second_of][use].astype(np.uint64),
    )
    has = np.zeros((nprimary, npart), bool)
    has[ka[kept], rank[kept]] = True
    pshared = np.zeros((npart, nwords), np.uint64)
    guard = one << np.uint64(lw - 1)
    rows, cols = np.nonzero(has)
    np.bitwise_or.at(
        pshared,
        (cols, start[rows] >> 6),
        (ishared[rows, cols] | guard) << (start[rows] & 63).astype(np.uint64),
    )
    prange = np.zeros((npart, 2), np.int64)
    for p in range(npart):
        nonzero = np.flatnonzero(pshared[p])
        prange[p] = (
            nonzero[0] // K.PAD * K.PAD,
            min(nwords, -(-(nonzero[-1] + 1) // K.PAD) * K.PAD),
        )
    return partner, jshared, pshared, prange


_loaded: set = set()


def load_kernels(*parts: str) -> None:
    """Compile (or load from numba's cache) the kernels ``parts`` name
    (``"search"``, ``"batch"``) once per process, on a one-item problem,
    so that no timing includes it."""
    wanted = set(parts) - _loaded
    if not wanted:
        return
    tiny = LaneArrays(2, 2, np.array([1, 2, 1, 2]), np.array([1, 1, 2]))
    if "search" in wanted:
        LanesRun(tiny, []).step(1, NO_LIMIT, True)
    if "batch" in wanted:
        run_batch(
            tiny, np.zeros(0, np.int32), np.zeros(2, np.int64), 1, NO_LIMIT, 1
        )
    _loaded.update(wanted)


class LanesRun(Run):
    """One resumable search (``dlx.kernels.lanes.search``) over private
    work arrays, the given options committed (see ``dlx.engines.base``).

    ``covered``: the givens alone cover every primary item.  When they
    leave a primary item with no option, the search is simply empty (one
    node, the root)."""

    def __init__(self, arrays: LaneArrays, given: list[int]):
        self.arrays = arrays
        nwords = len(arrays.init)
        self.lanes = np.empty(nwords, np.uint64)
        self.saved = np.empty((arrays.depth, nwords), np.uint64)
        self.meta = np.empty((arrays.depth, 3), np.int64)
        self.chosen = np.empty(arrays.depth, np.int32)
        self.scratch = np.empty((4, nwords), np.uint64)
        self.summ = np.empty((nwords + 63) >> 6, np.uint64)
        self.state = np.zeros(K.STATE_SIZE, np.int64)
        self.counters = np.zeros(3, np.int64)
        outcome = K.start(
            *arrays.start_arrays(),
            self.lanes,
            self.state,
            np.asarray(given, np.int32),
            0,
            len(given),
            self.counters,
        )
        self.clash = outcome < 0
        self.covered = outcome == 2
        if outcome <= 0 or self.covered:
            self.state[K.WHERE] = K.DONE

    def step(self, want: int, stop_at: int, store: bool):
        """One kernel call: see ``dlx.engines.base.Run.step``."""
        keep = want if store else 0
        out = np.zeros((keep, self.arrays.width), np.int32)
        out_len = np.zeros(keep, np.int32)
        before = int(self.counters[2])
        sing, fire, ref, snap = self.scratch
        status = K.search(
            *self.arrays.search_arrays(),
            self.lanes,
            self.saved,
            self.meta,
            self.chosen,
            sing,
            fire,
            ref,
            snap,
            self.summ,
            self.state,
            out,
            out_len,
            want,
            stop_at,
            self.counters,
        )
        stored = min(int(self.counters[2]) - before, keep)
        return status, [out[r, : out_len[r]].tolist() for r in range(stored)]


def run_batch(
    arrays: LaneArrays,
    given,
    starts,
    limit,
    max_nodes,
    threads,
    chunks_per_thread=16,
    deadline=None,
    event=None,
):
    """The count-based engine's ``run_batch`` with the lane kernel."""
    return bits_run_batch(
        arrays,
        given,
        starts,
        limit,
        max_nodes,
        threads,
        chunks_per_thread,
        deadline,
        event,
        solve=K.solve_batch,
    )


class Lanes(Bits):
    """Algorithm X over item lanes (``dlx.kernels.lanes``): plain exact
    cover, secondary items allowed, primary items of at most
    ``MAX_DEGREE`` options, masks of at most ``MAX_MASK_BYTES`` (see
    ``fits``).  The count-based engine with these arrays and kernels."""

    name = "lanes"
    program = "bitset Algorithm X over item lanes"
    about = ""  # the bitset family's, said once by Bits

    arrays_class = LaneArrays
    run_class = LanesRun
    load_kernels = staticmethod(load_kernels)
    run_batch = staticmethod(run_batch)

    def fits(self, problem) -> bool:
        """See ``fits``: else the count-based engine of the family takes
        the problem."""
        return fits(problem)

    def option_nodes(self, arrays, options):
        """Options are their own nodes here."""
        return np.asarray(options, np.int32)
