"""Memoized counting, and the ZDD of every solution: the engine of
``dlx.kernels.memo``.

``ExactCover.count(memo=True)`` runs it (through ``dlx.services.memo``,
which validates and reports).  The kernel remembers the
number of completions of every subproblem, keyed by its set of active
items (with bounds, and each bounded item's uses: ``count3``), in a
bounded table; this module sizes and grows the table, picks the
item choice rule, runs the kernel in slices (so that a time limit and
Ctrl-C are honoured) and turns the limbs of the count into an ``int``.
"""

from __future__ import annotations

import math

import numpy as np

from ..kernels import dlx2 as C, memo as M
from .base import (  # the memo's settings are light: the spec reads them
    CHOICE_RULES as CHOICE_RULES,  # its name here too (dlx.services.memo)
    COLORS,
    DEFAULT_MEMO_BYTES,
    EXACT,
    EXHAUSTED,
    MULTIPLICITIES,
    OUT_OF_NODES,
    Engine,
    Run,
)
from .dlx1 import Links, commit_givens, load_kernels
from .dlx2 import (
    commit_givens as commit_colored,
    load_kernels as load_colors_kernels,
)

#: The table starts with this many slots and doubles up to its limit.
_FIRST_SLOTS = 1 << 12
#: Bits per limb of a count (a sum of two limbs and a carry fits an int64).
LIMB_BITS = 62

#: memo="auto" with MRV decides after this many nodes ...
PROBE_NODES = 100_000
#: ... to keep the memo if by then it saved this many times the nodes it
#: visited (bench/memo.py measured about 2.3 on the 6x6 Sudoku grids, where
#: the memo is 8x faster in the end, and 1.1-1.4 on Langford pairs,
#: pentominoes and queens, where it is slower).
PROBE_GAIN = 1.8


def _limbs_for(
    length: np.ndarray, llink, rlink, limb_bits: int, noptions=None
) -> int:
    """Limbs enough for any count of the problem on these arrays.

    A subproblem has at most prod(max(1, options of i)) solutions over its
    active primary items i (by induction: branching on i multiplies by at
    most its options, and covering never adds options), and every
    partial sum the kernel keeps is at most its node's count.  With
    bounds (``noptions`` given) a solution is any set of options: at
    most ``2**noptions``.
    """
    if noptions is not None:
        return max(1, -(-(noptions + 1) // limb_bits))
    bits = 1
    i = int(rlink[0])
    while i != 0:
        bits += math.ceil(math.log2(max(1, int(length[i]))) + 1e-9)
        i = int(rlink[i])
    return max(1, -(-bits // limb_bits))


def _table(slots: int, words: int, limbs: int) -> np.ndarray:
    """An empty table: per slot, its work, key words and count limbs."""
    return np.zeros((slots, 1 + words + limbs), np.int64)


def _value(limbs: np.ndarray, limb_bits: int) -> int:
    return sum(int(x) << (limb_bits * k) for k, x in enumerate(limbs))


class NotWorthIt(Exception):
    """memo="auto": the probe found the memo of little use."""


class MemoRun(Run):
    given_updates: int  # set by _start
    """One memoized count over a private copy of ``links``, a run object
    for ``dlx.services.search.run`` (see its docstring).

    ``counters[2]`` is the number of solutions in the part of the tree
    explored so far (the sum of the finished levels' partial counts), and
    the whole count once the search is over.  ``counters`` is a list of
    Python ints, not an int64 array, as counts outgrow 64 bits.  Growing the
    table and widening the counts happen inside ``step``.
    """

    def __init__(
        self,
        links: Links,
        given_nodes,
        nwords: int,
        memo_bytes,
        rule: int,
        limb_bits: int,
        min_cost: int,
        probe: bool,
        keyinfo=None,
        zdd=None,
        bounds=None,
    ):
        load_memo_kernels()
        self.links = links
        # With bounds ({item: (u, v)}, items from 1) the search is
        # ``dlx.kernels.memo.count3``: per item its bounds (1..1 for an
        # unbounded primary item) and the bounded items in key order.
        self.bounds = _bounds_arrays(links, bounds) if bounds else None
        if self.bounds is not None:
            load_bounds_kernels()
        # With colors (keyinfo[2] > 0) the key holds the secondary items'
        # colors; with a ZDD (``dlx.services.zdd.NodeStore``) each entry
        # its node.
        self.keyinfo = (
            np.array([nwords, links.nprimary, 0, 0], np.int64)
            if keyinfo is None
            else keyinfo
        )
        self.zdd = zdd
        self.given_nodes = given_nodes
        # The ZDD's nodes name options: each node's option, as a table.
        self.option_table = (
            links.option_of[np.arange(len(links.top))]
            if zdd is not None
            else np.zeros(1, np.int32)
        )
        self.nwords = nwords
        self.memo_bytes = memo_bytes
        self.limb_bits = limb_bits
        self.depth = links.nprimary + 1
        if self.bounds is not None:
            # A level per item chosen, and one more per option taken
            # below its item's capacity (see ``Bounded.depth``).
            noptions = len(links.option_start)
            spent = links.nprimary + sum(
                max(v - 1, 0) for _, v in bounds.values()
            )
            self.depth = min(spent, links.nprimary + noptions) + 2
        self.counters = [0, 0, 0]
        self.clash = not self._start()
        self.covered = not self.clash and self.arrays[1][0] == 0
        self.counters[1] = self.given_updates
        if self.clash or self.covered:
            return
        # Counts start with one limb and widen on overflow, up to a bound.
        self.enough_limbs = _limbs_for(
            self.arrays[5],
            self.arrays[0],
            self.arrays[1],
            limb_bits,
            None if self.bounds is None else len(links.option_start),
        )
        self.limbs = 1
        self.most_slots = slots_within(memo_bytes, self._entry_bytes())
        self._new_table(min(_FIRST_SLOTS, self.most_slots), nwords, 1)
        self.tstats = np.zeros(6, np.int64)
        # DLX6's verbs where the problem has secondary items (see
        # dlx.kernels.memo), the plain ones elsewhere.
        dlx6 = (
            self.keyinfo[2] > 0
            or len(links.llink) - 2 > links.nprimary
            or self.bounds is not None
        )
        self.config = np.array(
            [rule, limb_bits, 0, 0, min_cost, 0 if zdd is None else 1, dlx6],
            np.int64,
        )
        self.kernel_counters = np.zeros(3, np.int64)
        self.kernel_counters[1] = self.given_updates
        self.probe = probe
        self._fresh_stack()

    def _start(self) -> bool:
        """Fresh links with the givens chosen; False when they clash."""
        self.arrays = self.links.copy_arrays()
        self.active = np.zeros(self.nwords, np.int64)
        updates: int | None
        if self.bounds is not None:
            updates = self._give_bounded()
        elif self.keyinfo[2]:
            # With colors, the givens are chosen with DLX2's kernels
            # (compiled here, only when needed: they take seconds).
            load_colors_kernels("search")
            assert self.links.color is not None  # keyinfo[2]: colors
            self.color = self.links.color.copy()
            done = commit_colored(
                C, self.given_nodes, self.arrays + (self.color,)
            )
            updates = None if done < 0 else done
        else:
            self.color = np.zeros(1, np.int32)  # never read
            updates = commit_givens(self.given_nodes, self.arrays)
        if updates is None:
            self.given_updates = 0
            return False
        self.given_updates = updates
        M.init_active(
            self.arrays[0],
            self.arrays[1],
            self.arrays[5],
            self.color,
            self.active,
            self.keyinfo,
        )
        return True

    def _give_bounded(self) -> int | None:
        """The givens chosen by ``give3`` (bounds: each item's uses so far
        in ``used``); their updates, or None when they clash."""
        assert self.bounds is not None
        lo, hi, _ = self.bounds
        self.used = np.zeros(len(lo), np.int32)
        color = self.links.color
        self.color = (
            np.zeros(len(self.arrays[4]), np.int32)
            if color is None
            else color.copy()
        )
        updates = 0
        for p in self.given_nodes:
            u = M.give3(
                p,
                *self.arrays,
                self.color,
                self.active,
                self.keyinfo,
                lo,
                hi,
                self.used,
            )
            if u < 0:
                return None
            updates += u
        return updates

    def _fresh_stack(self):
        d = self.depth
        self.choice = np.zeros(d, np.int32)
        self.item = np.zeros(d, np.int32)
        self.acc = np.zeros((d, self.limbs), np.int64)
        self.born = np.zeros(d, np.int64)
        self.hashes = np.zeros(d, np.uint64)
        self.state = np.array([0, M.FORWARD, 0, 0], np.int64)
        self.chain = np.zeros(d, np.int32)
        if self.bounds is not None:
            self.lvl = np.zeros((d, 4), np.int64)
            self.pvar = np.zeros(len(self.links.option_start) + 1, np.int32)
            self.pz = np.zeros(len(self.pvar), np.int32)

    def _entry_bytes(self) -> int:
        return 8 * (1 + self.nwords + self.limbs) + (4 if self.zdd else 0)

    def _new_table(self, slots: int, nwords: int, limbs: int):
        """A fresh table, and beside it its entries' ZDD nodes when a ZDD
        is built; returns the old pair."""
        old = getattr(self, "table", None), getattr(self, "table_nodes", None)
        self.table = _table(slots, nwords, limbs)
        self.table_nodes = np.zeros(slots if self.zdd else 0, np.int32)
        return old

    def step(self, want: int, stop_at: int, store: bool):
        """Count on until ``counters[0]`` reaches ``stop_at`` or the end."""
        if self.probe:
            stop_at = min(stop_at, PROBE_NODES)
        while True:
            table = self.table
            self.config[2] = 1 if 2 * len(table) <= self.most_slots else 0
            self.config[3] = len(table) // 2
            z = self.zdd or NO_ZDD
            kernel, extra = M.count, ()
            if self.bounds is not None:
                kernel = M.count3
                extra = self.bounds[:2] + (
                    self.used,
                    self.bounds[2],
                    self.lvl,
                    self.pvar,
                    self.pz,
                )
            status = kernel(
                *self.arrays,
                self.color,
                self.active,
                self.choice,
                self.item,
                self.acc,
                self.born,
                self.hashes,
                self.state,
                table,
                self.tstats,
                self.config,
                self.keyinfo,
                stop_at,
                self.kernel_counters,
                self.option_table,
                self.chain,
                self.table_nodes,
                z.var,
                z.lo,
                z.hi,
                z.unique,
                z.made,
                *extra,
            )
            if status == M.ROOM:
                self.zdd.grow()
            elif status == M.GROW:
                old, old_nodes = self._new_table(
                    2 * len(table), self.nwords, self.limbs
                )
                M.rehash(
                    old,
                    self.table,
                    self.nwords,
                    self.tstats,
                    old_nodes,
                    self.table_nodes,
                )
            elif status == M.OVERFLOW:
                # Every count in the table is exact (a store comes before
                # the addition that could overflow): widen them all and
                # search again from the root, which the table now mostly
                # answers.
                self.limbs = min(self.enough_limbs, 2 * self.limbs)
                self.most_slots = slots_within(
                    self.memo_bytes, self._entry_bytes()
                )
                old, old_nodes = self._new_table(
                    min(len(table), self.most_slots), self.nwords, self.limbs
                )
                M.rehash(
                    old,
                    self.table,
                    self.nwords,
                    self.tstats,
                    old_nodes,
                    self.table_nodes,
                )
                self._start()
                self._fresh_stack()
            else:
                break
        nodes, updates, _ = (int(x) for x in self.kernel_counters)
        self.counters[0] = nodes
        self.counters[1] = updates
        self.counters[2] = self.partial()
        if self.probe and status != M.EXHAUSTED and nodes >= PROBE_NODES:
            self.probe = False
            if nodes + int(self.tstats[M.SAVED]) < PROBE_GAIN * nodes:
                raise NotWorthIt()
        return (EXHAUSTED if status == M.EXHAUSTED else OUT_OF_NODES), []

    def partial(self) -> int:
        """Solutions in the part of the tree explored so far."""
        level = int(self.state[0])
        if self.state[1] == M.DONE:
            return _value(self.acc[0], self.limb_bits)
        done = level if self.state[1] == M.FORWARD else level + 1
        return sum(_value(self.acc[k], self.limb_bits) for k in range(done))

    def record(self, stats) -> None:
        """Copy the table's figures into ``stats``."""
        if self.clash or self.covered:
            return
        t = self.tstats
        stats.memo_entries = int(t[M.USED])
        stats.memo_slots = len(self.table)
        stats.memo_bytes = self.table.nbytes + self.table_nodes.nbytes
        stats.memo_lookups = int(t[M.LOOKUPS])
        stats.memo_hits = int(t[M.HITS])
        stats.memo_replaced = int(t[M.REPLACED])
        stats.memo_saved = int(t[M.SAVED])
        stats.memo_limbs = self.limbs


def _bounds_arrays(links: Links, bounds: dict):
    """``(lo, hi, bitems)`` for ``count3``: each item's bounds (1..1 for
    a primary item without, never read for a secondary one) and the
    items with other bounds, in order (``bounded_items``)."""
    n = len(links.llink)
    lo = np.ones(n, np.int32)
    hi = np.ones(n, np.int32)
    # No item is covered more times than there are options: bounds past
    # that (10**9 says "any number") are cut to one more, to fit int32.
    # u <= v still holds (an item finished at v uses has its u), and a u
    # past the options stays out of reach.
    beyond = len(links.option_start) + 1
    for k, (u, v) in bounds.items():
        lo[k] = min(u, beyond)
        hi[k] = min(v, beyond)
    return lo, hi, np.array(bounded_items(bounds), np.int64)


def bounded_items(bounds: dict) -> list[int]:
    """The items (from 1) whose bounds are not 1..1, in order: the key's
    bound fields (``dlx.kernels.memo.bounds_key``)."""
    return sorted(k for k, uv in bounds.items() if tuple(uv) != (1, 1))


def slots_within(memo_bytes: int, entry_bytes: int) -> int:
    """The most slots (a power of two, at least one bucket) in
    ``memo_bytes``."""
    slots = M.BUCKET
    while 2 * slots * entry_bytes <= memo_bytes:
        slots *= 2
    return slots


_loaded = False


def load_memo_kernels() -> None:
    """Compile (or load from the cache) the memo kernels once, on a
    two-item colored problem, counting and building a ZDD, so that
    ``stats.seconds`` times the count alone."""
    global _loaded
    if _loaded:
        return
    load_kernels("steps")  # the givens are chosen with DLX1's own kernels
    tiny = Links(
        2,
        1,
        np.array([1, 2], np.int64),
        np.array([2], np.int64),
        np.array([0, 1], np.int32),
    )
    arrays = tiny.copy_arrays()
    assert tiny.color is not None  # built with colors
    keyinfo = np.array([1, 1, 1, 6], np.int64)
    active = np.zeros(2, np.int64)
    M.init_active(arrays[0], arrays[1], arrays[5], tiny.color, active, keyinfo)
    tstats = np.zeros(6, np.int64)
    for rule, build in ((M.MRV, 0), (M.FIRST, 1)):
        a = tuple(x.copy() for x in arrays)
        table = _table(M.BUCKET, 2, 1)
        nodes = np.zeros(M.BUCKET * build, np.int32)
        z = NO_ZDD if not build else Nodes(8)
        M.count(
            *a,
            tiny.color.copy(),
            active.copy(),
            np.zeros(2, np.int32),
            np.zeros(2, np.int32),
            np.zeros((2, 1), np.int64),
            np.zeros(2, np.int64),
            np.zeros(2, np.uint64),
            np.array([0, M.FORWARD, 0], np.int64),
            table,
            tstats,
            np.array([rule, LIMB_BITS, 0, 0, 1, build, build], np.int64),
            keyinfo,
            np.iinfo(np.int64).max,
            np.zeros(3, np.int64),
            tiny.option_of[np.arange(len(tiny.top))],
            np.zeros(2, np.int32),
            nodes,
            z.var,
            z.lo,
            z.hi,
            z.unique,
            z.made,
        )
        M.rehash(
            table,
            _table(2 * M.BUCKET, 2, 1),
            2,
            tstats,
            nodes,
            np.zeros(2 * len(nodes), np.int32),
        )
    z = Nodes(8)
    M.unique_rehash(z.var, z.lo, z.hi, 2, z.unique)
    _loaded = True


_bounds_loaded = False


def load_bounds_kernels() -> None:
    """Compile (or load) ``count3`` and ``give3`` once, on a one-item
    problem of bounds 0..2 with a secondary item, counting and building
    a ZDD (only problems with bounds pay for them)."""
    global _bounds_loaded
    if _bounds_loaded:
        return
    _bounds_loaded = True
    tiny = Links(
        2,
        1,
        np.array([1, 2, 1], np.int64),
        np.array([2, 1], np.int64),
        np.array([0, 1, 0], np.int32),
    )
    keyinfo = np.array([1, 1, 1, 6, 2, 2, 5], np.int64)
    for rule, build in ((M.MRV, 0), (M.FIRST, 1)):
        run = MemoRun(
            tiny,
            [int(tiny.option_start[1])],
            3,
            1 << 12,
            rule,
            LIMB_BITS,
            1,
            False,
            keyinfo,
            Nodes(8) if build else None,
            {1: (0, 2)},
        )
        run.step(0, 1 << 20, False)


class Nodes:
    """Arrays for a ZDD's nodes as the kernel takes them (see
    ``dlx.services.zdd.NodeStore``, which grows them); empty, they stand
    for "no ZDD" in a plain count."""

    def __init__(self, capacity: int):
        self.var = np.zeros(capacity, np.int32)
        self.lo = np.zeros(capacity, np.int32)
        self.hi = np.zeros(capacity, np.int32)
        self.unique = np.zeros(2 * capacity, np.int32)
        self.made = np.array([2], np.int64)


NO_ZDD = Nodes(0)


class Memo(Engine):
    """Memoized counting (Nishino, Yasuda, Minato and Nagata's idea, as
    Knuth's DLX6 searches): DLX1's arrays, a count per subproblem."""

    name = "memo"
    program = "memo counting"
    algorithm = "memo"
    kinds = frozenset({EXACT, COLORS, MULTIPLICITIES})
    named = False  # memo=True asks for it
    streams = False
    batches = False
    splits = False
    exact_split = False
    cutoff = False
    #: Its arrays are DLX1's (DLX2's with colors), built once for both.
    arrays_key = "links"

    def build(self, problem) -> Links:
        return Links.from_csr(problem.csr())

    def load(self, *parts):
        load_memo_kernels()

    def start(
        self,
        arrays,
        given_nodes,
        cutoff=0,
        *,
        nwords: int = 0,
        memo_bytes: int = DEFAULT_MEMO_BYTES,
        rule: int = M.MRV,
        limb_bits: int = LIMB_BITS,
        min_cost: int = 1,
        probe: bool = False,
        keyinfo=None,
        zdd=None,
        bounds=None,
    ) -> MemoRun:
        """A memoized count below the givens (see ``MemoRun``): ``rule``
        is ``dlx.kernels.memo.MRV`` or ``FIRST``; ``nwords``: key words
        (0: enough for every item), ``keyinfo``: the key's layout with
        colors (``dlx.services.memo.key_layout``); ``zdd``: a node store,
        to build the ZDD of the solutions in the same search; ``bounds``:
        the problem's ``{item: (u, v)}`` (``CSR.bounds``), whose key
        fields ``keyinfo`` must then lay out."""
        nwords = nwords or (len(arrays.llink) + 63) // 64
        return MemoRun(
            arrays,
            given_nodes,
            nwords,
            memo_bytes,
            rule,
            limb_bits,
            min_cost,
            probe,
            keyinfo,
            zdd,
            bounds,
        )
