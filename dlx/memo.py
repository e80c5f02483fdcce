"""Memoized counting: the Python side of ``dlx.kernels.memo``.

``ExactCover.count(memo=True)`` lands here.  The kernel remembers the
number of completions of every subproblem, keyed by its set of active
items, in a bounded table; this module sizes and grows the table, picks the
item choice rule, runs the kernel in slices (so that a time limit and
Ctrl-C are honoured) and turns the limbs of the count into an ``int``.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np

from .kernels import memo as M

__all__ = ["MemoStats", "count", "choose_rule", "DEFAULT_MEMO_BYTES",
           "CHOICE_RULES"]

#: The table's default size limit: 256 MiB.
DEFAULT_MEMO_BYTES = 256 << 20
#: The table starts with this many slots and doubles up to its limit.
_FIRST_SLOTS = 1 << 12
#: Bits per limb of a count (a sum of two limbs and a carry fits an int64).
_LIMB_BITS = 62
#: Nodes per kernel call: small enough that Ctrl-C and time limits are
#: seen within a few milliseconds, large enough that calls cost nothing.
_SLICE_NODES = 1 << 15

CHOICE_RULES = ("auto", "mrv", "first")
#: memo="auto" with MRV decides after this many nodes ...
PROBE_NODES = 100_000
#: ... to keep the memo if by then it saved this many times the nodes it
#: visited (bench/memo.py measured about 2.3 on the 6x6 Sudoku grids, where
#: the memo is 8x faster in the end, and 1.1-1.4 on Langford pairs,
#: pentominoes and queens, where it is slower).
PROBE_GAIN = 1.8


@dataclass
class MemoStats:
    """The work of a memoized count (``ExactCover.stats`` after one).

    As ``dlx.Stats``: ``nodes`` (each node entered to choose an item, a
    memo hit included, and each solution the search reached itself),
    ``updates``, ``solutions`` (the count), ``seconds``, ``complete``.
    The table: ``memo_entries`` (entries held at the end), ``memo_slots``
    and ``memo_bytes`` (its size), ``memo_lookups``, ``memo_hits``,
    ``memo_replaced`` (entries that took the place of older ones once
    their bucket was full), ``memo_limbs`` (62-bit limbs per count) and
    ``choose`` (the item choice rule used, ``"mrv"`` or ``"first"``).
    """

    nodes: int = 0
    updates: int = 0
    solutions: int = 0
    seconds: float = 0.0
    complete: bool = True
    memo_entries: int = 0
    memo_slots: int = 0
    memo_bytes: int = 0
    memo_lookups: int = 0
    memo_hits: int = 0
    memo_replaced: int = 0
    memo_limbs: int = 1
    memo_saved: int = 0
    choose: str = "mrv"

    @property
    def hit_rate(self) -> float:
        """Hits per lookup (0.0 before any lookup)."""
        return self.memo_hits / self.memo_lookups if self.memo_lookups else 0.0

    def __str__(self) -> str:
        def group(n: int) -> str:
            return f"{n:,}".replace(",", " ")

        return (f"Altogether {group(self.solutions)} solution"
                f"{'' if self.solutions == 1 else 's'}, "
                f"{group(self.updates)} updates, {group(self.nodes)} nodes, "
                f"{self.seconds:.3f} s"
                + ("" if self.complete else " (stopped early)")
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


def wanted(problem, memo, limit, threads, mrv_cutoff, memo_bytes,
           choose) -> bool:
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
        ("mrv_cutoff", mrv_cutoff, 0)) if value != plain]
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


def _table(slots: int, words: int, limbs: int) -> np.ndarray:
    """An empty table: per slot, its work, key words and count limbs."""
    return np.zeros((slots, 1 + words + limbs), np.int64)


def _value(limbs: np.ndarray, limb_bits: int) -> int:
    return sum(int(x) << (limb_bits * k) for k, x in enumerate(limbs))


def count(problem, given=(), max_nodes=None, time_limit=None, *,
          memo_bytes=None, choose="auto", auto=False, limb_bits=_LIMB_BITS,
          min_cost=1):
    """Count the solutions of ``problem`` (an ``ExactCover``) with a memo.

    See ``ExactCover.count``; ``problem.stats`` becomes a ``MemoStats``.
    Raises ``dlx.BudgetExhausted`` when ``max_nodes`` or ``time_limit``
    stops the count: its ``count`` is the number of solutions in the part
    of the search tree already explored.

    ``auto=True`` (``memo="auto"``): when the item choice is MRV, the count
    gives up after ``PROBE_NODES`` nodes, returning None, unless the memo
    has by then saved ``PROBE_GAIN`` times the nodes it visited (the nodes
    its hits stood for, over the nodes visited); a problem it helps that
    little is counted faster without it.

    ``limb_bits`` (tests only) makes the limbs of the count narrower, to
    exercise the carries on small counts; ``min_cost`` leaves out of the
    table the subproblems whose search took fewer nodes.
    """
    from .problem import BudgetExhausted, _commit_givens, _non_negative

    if max_nodes is not None:
        max_nodes = _non_negative("max_nodes", max_nodes)
    if time_limit is not None and not time_limit >= 0:
        raise ValueError(f"time_limit must be a non-negative number of "
                         f"seconds, got {time_limit!r}")
    if memo_bytes is None:
        memo_bytes = DEFAULT_MEMO_BYTES
    memo_bytes = _non_negative("memo_bytes", memo_bytes)
    if not isinstance(choose, str) or choose not in CHOICE_RULES:
        raise ValueError(f"choose must be one of {', '.join(CHOICE_RULES)}; "
                         f"got {choose!r}")
    if choose == "auto":
        choose = choose_rule(problem)
    probing = auto and choose == "mrv"
    given_nodes = problem._given_nodes(list(given))
    links = problem.links
    _load_kernels()
    words = (len(problem.items) + 2 + 63) // 64
    stats = MemoStats(complete=False, choose=choose)
    problem.stats = stats

    t0 = time.perf_counter()
    deadline = None if time_limit is None else t0 + time_limit
    node_cap = np.iinfo(np.int64).max if max_nodes is None else max_nodes

    def start():
        """Fresh links with the givens chosen: (arrays, active, updates),
        or None when the givens clash."""
        arrays = links.copy_arrays()
        updates = _commit_givens(given_nodes, arrays)
        if updates is None:
            return None
        active = np.zeros(words, np.int64)
        M.init_active(arrays[0], arrays[1], active)
        return arrays, active, updates

    begun = start()
    if begun is None:  # the givens overlap: no solution
        stats.complete = True
        return 0
    arrays, active, given_updates = begun
    if arrays[1][0] == 0:  # the givens cover everything: one solution
        stats.nodes = stats.solutions = 1
        stats.updates = given_updates
        stats.complete = True
        return 1

    # Counts start with one limb and widen on overflow, up to a bound.
    enough_limbs = _limbs_for(arrays[5], arrays[0], arrays[1], limb_bits)
    limbs = 1
    most_slots = _slots_within(memo_bytes, 8 * (1 + words + limbs))
    table = _table(min(_FIRST_SLOTS, most_slots), words, limbs)
    tstats = np.zeros(6, np.int64)
    config = np.array([M.FIRST if choose == "first" else M.MRV, limb_bits,
                       0, 0, min_cost], np.int64)
    depth = len(problem.primary) + 1
    counters = np.zeros(3, np.int64)
    counters[1] = given_updates

    def fresh_stack():
        return (np.zeros(depth, np.int32), np.zeros(depth, np.int32),
                np.zeros((depth, limbs), np.int64),
                np.zeros(depth, np.int64), np.zeros(depth, np.uint64),
                np.array([0, M.FORWARD], np.int64))

    choice, item, acc, born, hashes, state = fresh_stack()

    def record(complete):
        stats.nodes, stats.updates = int(counters[0]), int(counters[1])
        stats.seconds = time.perf_counter() - t0
        stats.complete = complete
        stats.memo_entries = int(tstats[M.USED])
        stats.memo_slots = len(table)
        stats.memo_bytes = table.nbytes
        stats.memo_lookups = int(tstats[M.LOOKUPS])
        stats.memo_hits = int(tstats[M.HITS])
        stats.memo_replaced = int(tstats[M.REPLACED])
        stats.memo_saved = int(tstats[M.SAVED])
        stats.memo_limbs = limbs

    while True:
        config[2] = 1 if 2 * len(table) <= most_slots else 0
        config[3] = len(table) // 2
        stop_at = min(node_cap, int(counters[0]) + _SLICE_NODES)
        if probing:
            stop_at = min(stop_at, PROBE_NODES)
        status = M.count(*arrays, active, choice, item, acc, born, hashes,
                         state, table, tstats, config, stop_at, counters)
        if status == M.EXHAUSTED:
            break
        if status == M.GROW:
            bigger = _table(2 * len(table), words, limbs)
            M.rehash(table, bigger, words, tstats)
            table = bigger
            continue
        if status == M.OVERFLOW:
            # Every count in the table is exact (a store comes before the
            # addition that could overflow): widen them all and search
            # again from the root, which the table now mostly answers.
            limbs = min(enough_limbs, 2 * limbs)
            most_slots = _slots_within(memo_bytes, 8 * (1 + words + limbs))
            wider = _table(min(len(table), most_slots), words, limbs)
            M.rehash(table, wider, words, tstats)
            table = wider
            arrays, active, _ = start()
            choice, item, acc, born, hashes, state = fresh_stack()
            continue
        # OUT_OF_NODES: a slice ended.
        if probing and counters[0] >= PROBE_NODES:
            probing = False
            if counters[0] + tstats[M.SAVED] < PROBE_GAIN * counters[0]:
                record(False)
                return None
        spent = counters[0] >= node_cap
        late = deadline is not None and time.perf_counter() >= deadline
        if spent or late:
            record(False)
            level = int(state[0])
            done_levels = level if state[1] == M.FORWARD else level + 1
            partial = sum(_value(acc[k], limb_bits)
                          for k in range(done_levels))
            stats.solutions = partial
            what = (f"max_nodes={node_cap} nodes" if spent else
                    f"time_limit={time_limit} s")
            raise BudgetExhausted(
                f"memoized count stopped after {what} with {partial} "
                f"solution(s) found so far", partial, stats)
    record(True)
    stats.solutions = _value(acc[0], limb_bits)
    return stats.solutions


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
    from .problem import Links, _load_kernels as load_links
    load_links("steps")  # the givens are chosen with DLX1's own kernels
    tiny = Links(1, 1, np.array([1], np.int64), np.array([1], np.int64))
    arrays = tiny.copy_arrays()
    active = np.zeros(1, np.int64)
    M.init_active(arrays[0], arrays[1], active)
    table = _table(M.BUCKET, 1, 1)
    bigger = _table(2 * M.BUCKET, 1, 1)
    tstats = np.zeros(6, np.int64)
    for rule in (M.MRV, M.FIRST):
        a = tuple(x.copy() for x in arrays)
        M.count(*a, active.copy(), np.zeros(2, np.int32),
                np.zeros(2, np.int32), np.zeros((2, 1), np.int64),
                np.zeros(2, np.int64), np.zeros(2, np.uint64),
                np.array([0, M.FORWARD], np.int64), table, tstats,
                np.array([rule, _LIMB_BITS, 0, 0, 1], np.int64),
                np.iinfo(np.int64).max, np.zeros(3, np.int64))
    M.rehash(table, bigger, 1, tstats)
    _loaded = True


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
