"""Memoized counting: the Python side of ``dlx.kernels.memo``.

``ExactCover.count(memo=True)`` lands here.  The kernel remembers the
number of completions of every subproblem, keyed by its set of active
items, in a bounded table; this module sizes and grows the table, picks the
item choice rule, runs the kernel in slices (so that a time limit and
Ctrl-C are honoured) and turns the limbs of the count into an ``int``.
With colors the key also holds the secondary items' colors (``key_layout``).
``ExactCover.zdd`` (``dlx.zdd``) runs the same search, a ``MemoRun``
given a node store: each entry then keeps its subproblem's ZDD node too.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from . import search
from .kernels import memo as M
from .links import Links, commit_givens, load_kernels
from . import xcc
from .search import Stats

__all__ = ["MemoStats", "count", "choose_rule", "DEFAULT_MEMO_BYTES",
           "CHOICE_RULES"]

#: The table's default size limit: 256 MiB.
DEFAULT_MEMO_BYTES = 256 << 20
#: The table starts with this many slots and doubles up to its limit.
_FIRST_SLOTS = 1 << 12
#: Bits per limb of a count (a sum of two limbs and a carry fits an int64).
_LIMB_BITS = 62

CHOICE_RULES = ("auto", "mrv", "first")
#: memo="auto" with MRV decides after this many nodes ...
PROBE_NODES = 100_000
#: ... to keep the memo if by then it saved this many times the nodes it
#: visited (bench/memo.py measured about 2.3 on the 6x6 Sudoku grids, where
#: the memo is 8x faster in the end, and 1.1-1.4 on Langford pairs,
#: pentominoes and queens, where it is slower).
PROBE_GAIN = 1.8


@dataclass
class MemoStats(Stats):
    """The work of a memoized count (``ExactCover.stats`` after one).

    As ``dlx.Stats``: ``nodes`` (each node entered to choose an item, a
    memo hit included, and each solution the search reached itself),
    ``updates``, ``solutions`` (the count; after a budget or an interrupt,
    the solutions in the part of the tree already explored), ``seconds``,
    ``complete``.  The table: ``memo_entries`` (entries held at the end),
    ``memo_slots`` and ``memo_bytes`` (its size), ``memo_lookups``,
    ``memo_hits``, ``memo_saved`` (the nodes the hits stood for: the work
    recorded with their entries), ``memo_replaced`` (entries that took the
    place of older ones once their bucket was full), ``memo_limbs`` (62-bit
    limbs per count) and ``choose`` (the item choice rule used, ``"mrv"``
    or ``"first"``).
    """

    memo_entries: int = 0
    memo_slots: int = 0
    memo_bytes: int = 0
    memo_lookups: int = 0
    memo_hits: int = 0
    memo_saved: int = 0
    memo_replaced: int = 0
    memo_limbs: int = 1
    choose: str = "mrv"

    @property
    def hit_rate(self) -> float:
        """Hits per lookup (0.0 before any lookup)."""
        return self.memo_hits / self.memo_lookups if self.memo_lookups else 0.0

    def __str__(self) -> str:
        def group(n: int) -> str:
            return f"{n:,}".replace(",", " ")

        # Knuth's line as plain counts print it, then what the memo did.
        return (super().__str__().removesuffix(".")
                + f"; memo ({self.choose}): {group(self.memo_entries)} "
                f"entries in {_size(self.memo_bytes)}, "
                f"{self.hit_rate:.1%} of {group(self.memo_lookups)} lookups "
                f"hit, {group(self.memo_replaced)} replaced.")


def _size(n: int) -> str:
    for unit in ("bytes", "KiB", "MiB"):
        if n < 1024 or unit == "MiB":
            return f"{n:.0f} {unit}" if unit == "bytes" else f"{n:.1f} {unit}"
        n /= 1024
    return ""  # not reached


def choose_rule(problem) -> str:
    """The item choice rule ``choose="auto"`` takes: ``"first"`` when the
    options are local in item order, else ``"mrv"``.

    Branching on the first active item sweeps the items in order, and when
    every option's primary items lie within a short window of item numbers
    (cells of a board numbered row by row, pieces that span a row or two)
    the uncovered items always form one frontier of about that width:
    the number of distinct subproblems grows with the window, not with
    the problem.  "Short" is at most a quarter of the primary items and at
    most 24 (2**24 frontiers would outgrow any table).  Elsewhere (items
    of several kinds, like pieces and cells, or Sudoku's cells, rows,
    columns and boxes) the window is as wide as the problem and DLX1's
    fewest-options rule (MRV) does far better.
    """
    return "first" if _window(problem) <= min(24, len(problem.primary) / 4) \
        else "mrv"


def wanted(problem, memo, limit, threads, mrv_cutoff, algorithm, memo_bytes,
           choose):
    """Validate ``ExactCover.count``'s memo arguments; is the count to be
    memoized (``True``, ``False``, or ``"auto"``: see ``count``)?"""
    if isinstance(memo, str) and memo == "auto":
        use = "auto"
    elif isinstance(memo, (bool, np.bool_)):
        use = bool(memo)
    else:
        raise ValueError(f"memo must be True, False or 'auto', got {memo!r}")
    if use is False:
        raise ValueError("memo_bytes and choose apply only to a memoized "
                         "count (memo=True or memo='auto')")
    if not isinstance(choose, str) or choose not in CHOICE_RULES:
        raise ValueError(f"choose must be one of {', '.join(CHOICE_RULES)}; "
                         f"got {choose!r}")
    clashes = [name for name, value, plain in (
        ("limit", limit, None), ("threads", threads, 1),
        ("mrv_cutoff", mrv_cutoff, 0), ("algorithm", algorithm, "auto"))
        if value != plain]
    if problem.kind not in (xcc.EXACT, xcc.COLORS):
        raise ValueError(f"a memoized count takes exact cover with or "
                         f"without colors; this problem has "
                         f"{problem.kind}")
    if clashes:
        raise ValueError(f"a memoized count counts the whole tree on one "
                         f"thread with its own item choice; memo={memo!r} "
                         f"cannot be combined with {' or '.join(clashes)}")
    return use


def _window(problem) -> int:
    """The widest span of primary item numbers within one option."""
    nprimary = len(problem.primary)
    members = np.asarray(problem._members, np.int64)
    sizes = np.asarray(problem._sizes, np.int64)
    if not len(sizes):
        return 0
    option = np.repeat(np.arange(len(sizes)), sizes)
    primary = members <= nprimary
    if not primary.any():
        return 0
    lo = np.full(len(sizes), np.iinfo(np.int64).max)
    hi = np.full(len(sizes), -1)
    np.minimum.at(lo, option[primary], members[primary])
    np.maximum.at(hi, option[primary], members[primary])
    has = hi >= 0
    return int((hi[has] - lo[has]).max()) if has.any() else 0


def _limbs_for(length: np.ndarray, llink, rlink, limb_bits: int) -> int:
    """Limbs enough for any count of the problem on these arrays.

    A subproblem has at most prod(max(1, options of i)) solutions over its
    active primary items i (by induction: branching on i multiplies by at
    most its options, and covering never adds options), and every
    partial sum the kernel keeps is at most its node's count.
    """
    bits = 1
    i = int(rlink[0])
    while i != 0:
        bits += math.ceil(math.log2(max(1, int(length[i]))) + 1e-9)
        i = int(rlink[i])
    return max(1, -(-bits // limb_bits))


def key_layout(problem) -> tuple[int, np.ndarray]:
    """The key's words and ``keyinfo`` (see ``dlx.kernels.memo``): one bit
    per item, then, with colors, a field per secondary item wide enough
    for its color code (0 while it is not purified)."""
    words = (len(problem.items) + 2 + 63) // 64
    cbits = lg = 0
    if problem.kind == xcc.COLORS:
        # Fields of a power of two bits (the kernel then needs no
        # division), 2**lg of them to a word.
        cbits = 1
        while cbits < len(problem._color_codes).bit_length():
            cbits *= 2
        lg = 6 - cbits.bit_length() + 1
        words += -(-len(problem.secondary) >> lg)
    return words, np.array([(len(problem.items) + 2 + 63) // 64,
                            len(problem.primary), cbits, lg], np.int64)


def _table(slots: int, words: int, limbs: int) -> np.ndarray:
    """An empty table: per slot, its work, key words and count limbs."""
    return np.zeros((slots, 1 + words + limbs), np.int64)


def _value(limbs: np.ndarray, limb_bits: int) -> int:
    return sum(int(x) << (limb_bits * k) for k, x in enumerate(limbs))


class _NotWorthIt(Exception):
    """memo="auto": the probe found the memo of little use."""


class MemoRun:
    """One memoized count over a private copy of ``links``, a run object
    for ``dlx.search.run`` (see its docstring).

    ``counters[2]`` is the number of solutions in the part of the tree
    explored so far (the sum of the finished levels' partial counts), and
    the whole count once the search is over.  ``counters`` is a list of
    Python ints, not an int64 array, as counts outgrow 64 bits.  Growing the
    table and widening the counts happen inside ``step``.
    """

    def __init__(self, links: Links, given_nodes, nwords: int, memo_bytes,
                 rule: int, limb_bits: int, min_cost: int, probe: bool,
                 keyinfo=None, zdd=None):
        _load_kernels()
        self.links = links
        # With colors (keyinfo[2] > 0) the key holds the secondary items'
        # colors; with a ZDD (``dlx.zdd.NodeStore``) each entry its node.
        self.keyinfo = (np.array([nwords, links.nprimary, 0, 0], np.int64)
                        if keyinfo is None else keyinfo)
        self.zdd = zdd
        self.given_nodes = given_nodes
        self.nwords = nwords
        self.memo_bytes = memo_bytes
        self.limb_bits = limb_bits
        self.depth = links.nprimary + 1
        self.counters = [0, 0, 0]
        self.clash = not self._start()
        self.covered = not self.clash and self.arrays[1][0] == 0
        self.counters[1] = self.given_updates
        if self.clash or self.covered:
            return
        # Counts start with one limb and widen on overflow, up to a bound.
        self.enough_limbs = _limbs_for(self.arrays[5], self.arrays[0],
                                       self.arrays[1], limb_bits)
        self.limbs = 1
        self.most_slots = _slots_within(memo_bytes, self._entry_bytes())
        self._new_table(min(_FIRST_SLOTS, self.most_slots), nwords, 1)
        self.tstats = np.zeros(6, np.int64)
        # DLX6's verbs where the problem has secondary items (see
        # dlx.kernels.memo), the plain ones elsewhere.
        dlx6 = self.keyinfo[2] > 0 or len(links.llink) - 2 > links.nprimary
        self.config = np.array([rule, limb_bits, 0, 0, min_cost,
                                0 if zdd is None else 1, dlx6], np.int64)
        self.kernel_counters = np.zeros(3, np.int64)
        self.kernel_counters[1] = self.given_updates
        self.probe = probe
        self._fresh_stack()

    def _start(self) -> bool:
        """Fresh links with the givens chosen; False when they clash."""
        self.arrays = self.links.copy_arrays()
        if self.keyinfo[2]:
            # With colors, the givens are chosen with DLX2's kernels
            # (compiled here, only when needed: they take seconds).
            xcc.load_kernels(xcc.COLORS, "search")
            self.color = self.links.color.copy()
            updates = xcc.commit_givens(xcc.kernel(xcc.COLORS),
                                        self.given_nodes,
                                        self.arrays + (self.color,))
            updates = None if updates < 0 else updates
        else:
            self.color = np.zeros(1, np.int32)  # never read
            updates = commit_givens(self.given_nodes, self.arrays)
        if updates is None:
            self.given_updates = 0
            return False
        self.given_updates = updates
        self.active = np.zeros(self.nwords, np.int64)
        M.init_active(self.arrays[0], self.arrays[1], self.arrays[5],
                      self.color, self.active, self.keyinfo)
        return True

    def _fresh_stack(self):
        d = self.depth
        self.choice = np.zeros(d, np.int32)
        self.item = np.zeros(d, np.int32)
        self.acc = np.zeros((d, self.limbs), np.int64)
        self.born = np.zeros(d, np.int64)
        self.hashes = np.zeros(d, np.uint64)
        self.state = np.array([0, M.FORWARD, 0], np.int64)
        self.chain = np.zeros(d, np.int32)

    def _entry_bytes(self) -> int:
        return 8 * (1 + self.nwords + self.limbs) + (4 if self.zdd else 0)

    def _new_table(self, slots: int, nwords: int, limbs: int):
        """A fresh table, and beside it its entries' ZDD nodes when a ZDD
        is built; returns the old pair."""
        old = getattr(self, "table", None), getattr(self, "table_nodes",
                                                    None)
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
            z = self.zdd or _NO_ZDD
            status = M.count(*self.arrays, self.color, self.active,
                             self.choice, self.item, self.acc, self.born,
                             self.hashes, self.state, table, self.tstats,
                             self.config, self.keyinfo, stop_at,
                             self.kernel_counters, self.links.option_of,
                             self.chain, self.table_nodes, z.var, z.lo, z.hi,
                             z.unique, z.made)
            if status == M.ROOM:
                self.zdd.grow()
            elif status == M.GROW:
                old, old_nodes = self._new_table(2 * len(table), self.nwords,
                                                 self.limbs)
                M.rehash(old, self.table, self.nwords, self.tstats,
                         old_nodes, self.table_nodes)
            elif status == M.OVERFLOW:
                # Every count in the table is exact (a store comes before
                # the addition that could overflow): widen them all and
                # search again from the root, which the table now mostly
                # answers.
                self.limbs = min(self.enough_limbs, 2 * self.limbs)
                self.most_slots = _slots_within(self.memo_bytes,
                                                self._entry_bytes())
                old, old_nodes = self._new_table(
                    min(len(table), self.most_slots), self.nwords,
                    self.limbs)
                M.rehash(old, self.table, self.nwords, self.tstats,
                         old_nodes, self.table_nodes)
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
                raise _NotWorthIt()
        return (search.EXHAUSTED if status == M.EXHAUSTED
                else search.OUT_OF_NODES), []

    def partial(self) -> int:
        """Solutions in the part of the tree explored so far."""
        level = int(self.state[0])
        if self.state[1] == M.DONE:
            return _value(self.acc[0], self.limb_bits)
        done = level if self.state[1] == M.FORWARD else level + 1
        return sum(_value(self.acc[k], self.limb_bits) for k in range(done))

    def record(self, stats: MemoStats) -> None:
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


def count(problem, given=(), max_nodes=None, time_limit=None, *,
          memo_bytes=None, choose="auto", auto=False, limb_bits=_LIMB_BITS,
          min_cost=1):
    """Count the solutions of ``problem`` (an ``ExactCover``) with a memo.

    See ``ExactCover.count``; ``problem.stats`` becomes a ``MemoStats``.
    The count runs in slices (``dlx.search.run``): ``BudgetExhausted`` at
    ``max_nodes`` or ``time_limit`` and ``Interrupted`` on Ctrl-C carry
    the number of solutions in the part of the tree already explored.

    ``auto=True`` (``memo="auto"``): when the item choice is MRV, the count
    gives up after ``PROBE_NODES`` nodes, returning None, unless the memo
    has by then saved ``PROBE_GAIN`` times the nodes it visited (the nodes
    its hits stood for, over the nodes visited); a problem it helps that
    little is counted faster without it.

    ``limb_bits`` (tests only) makes the limbs of the count narrower, to
    exercise the carries on small counts; ``min_cost`` leaves out of the
    table the subproblems whose search took fewer nodes.
    """
    max_nodes = search.whole_number("max_nodes", max_nodes, optional=True)
    time_limit = search.seconds("time_limit", time_limit)
    memo_bytes = search.whole_number(
        "memo_bytes", DEFAULT_MEMO_BYTES if memo_bytes is None
        else memo_bytes)
    if not isinstance(choose, str) or choose not in CHOICE_RULES:
        raise ValueError(f"choose must be one of {', '.join(CHOICE_RULES)}; "
                         f"got {choose!r}")
    if choose == "auto":
        choose = choose_rule(problem)
    given_nodes = problem._given_nodes(list(given))
    nwords, keyinfo = key_layout(problem)
    run = MemoRun(problem.links, given_nodes, nwords, memo_bytes,
                  M.FIRST if choose == "first" else M.MRV, limb_bits,
                  min_cost, probe=auto and choose == "mrv", keyinfo=keyinfo)
    stats = problem.stats = MemoStats(complete=False, choose=choose)
    stats.updates = run.counters[1]
    if run.clash:  # the givens overlap: no solution
        stats.complete = True
        return 0
    if run.covered:  # the givens cover everything: one (leaf) solution
        stats.nodes = stats.solutions = 1
        stats.complete = True
        return 1
    try:
        total = sum(search.run(run, stats, limit=None, max_nodes=max_nodes,
                               time_limit=time_limit, store=False, given=[],
                               progress=lambda run, stats: run.record(stats)))
    except _NotWorthIt:
        return None
    return total


def _slots_within(memo_bytes: int, entry_bytes: int) -> int:
    """The most slots (a power of two, at least one bucket) in
    ``memo_bytes``."""
    slots = M.BUCKET
    while 2 * slots * entry_bytes <= memo_bytes:
        slots *= 2
    return slots


_loaded = False


def _load_kernels() -> None:
    """Compile (or load from the cache) the memo kernels once, on a
    one-item problem, so that ``stats.seconds`` times the count alone."""
    global _loaded
    if _loaded:
        return
    load_kernels("steps")  # the givens are chosen with DLX1's own kernels
    tiny = Links(2, 1, np.array([1, 2], np.int64), np.array([2], np.int64),
                 np.array([0, 1], np.int32))
    arrays = tiny.copy_arrays()
    keyinfo = np.array([1, 1, 1, 6], np.int64)
    active = np.zeros(2, np.int64)
    M.init_active(arrays[0], arrays[1], arrays[5], tiny.color, active,
                  keyinfo)
    tstats = np.zeros(6, np.int64)
    for rule, build in ((M.MRV, 0), (M.FIRST, 1)):
        a = tuple(x.copy() for x in arrays)
        table = _table(M.BUCKET, 2, 1)
        nodes = np.zeros(M.BUCKET * build, np.int32)
        z = _NO_ZDD if not build else _Nodes(8)
        M.count(*a, tiny.color.copy(), active.copy(), np.zeros(2, np.int32),
                np.zeros(2, np.int32), np.zeros((2, 1), np.int64),
                np.zeros(2, np.int64), np.zeros(2, np.uint64),
                np.array([0, M.FORWARD, 0], np.int64), table, tstats,
                np.array([rule, _LIMB_BITS, 0, 0, 1, build, build],
                         np.int64),
                keyinfo, np.iinfo(np.int64).max, np.zeros(3, np.int64),
                tiny.option_of, np.zeros(2, np.int32), nodes, z.var, z.lo,
                z.hi, z.unique, z.made)
        M.rehash(table, _table(2 * M.BUCKET, 2, 1), 2, tstats, nodes,
                 np.zeros(2 * len(nodes), np.int32))
    z = _Nodes(8)
    M.unique_rehash(z.var, z.lo, z.hi, 2, z.unique)
    _loaded = True


class _Nodes:
    """Arrays for a ZDD's nodes as the kernel takes them (see
    ``dlx.zdd.NodeStore``, which grows them); empty, they stand for "no
    ZDD" in a plain count."""

    def __init__(self, capacity: int):
        self.var = np.zeros(capacity, np.int32)
        self.lo = np.zeros(capacity, np.int32)
        self.hi = np.zeros(capacity, np.int32)
        self.unique = np.zeros(2 * capacity, np.int32)
        self.made = np.array([2], np.int64)


_NO_ZDD = _Nodes(0)


# -- the command line ----------------------------------------------------------
def add_cli_options(parser) -> None:
    """``--memo``, ``--choose`` and ``--memo-mb`` for a ``dlx`` command."""
    group = parser.add_argument_group("memoized counting (with --count)")
    group.add_argument("--memo", action="store_true",
                       help="remember the count of every subproblem (set "
                            "of uncovered items): far faster where they "
                            "repeat, as in tilings")
    group.add_argument("--choose", choices=CHOICE_RULES, default=None,
                       help="the item to branch on: mrv (fewest options), "
                            "first (sweep the items in order) or auto "
                            "(default: first when every option is local "
                            "in item order)")
    group.add_argument("--memo-mb", type=float, default=None, metavar="MB",
                       help=f"the table's size limit in MiB (default "
                            f"{DEFAULT_MEMO_BYTES >> 20})")


def cli_options(args) -> dict | None:
    """The ``count`` keywords the memo options ask for, None without
    ``--memo``; a ValueError for options that need ``--memo``/``--count``."""
    if not args.memo:
        if args.choose is not None or args.memo_mb is not None:
            raise ValueError("--choose and --memo-mb need --memo")
        return None
    if not args.count:
        raise ValueError("--memo needs --count (a memoized search counts, "
                         "it does not list solutions)")
    kwargs = {"memo": True, "choose": args.choose or "auto"}
    if args.memo_mb is not None:
        if not args.memo_mb >= 0:
            raise ValueError(f"--memo-mb must be a non-negative number, "
                             f"got {args.memo_mb}")
        kwargs["memo_bytes"] = int(args.memo_mb * (1 << 20))
    return kwargs
