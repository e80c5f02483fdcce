"""Memoized counting as a service: ``count(memo=...)``'s checks, its
statistics and the automatic choice.

The engine is ``dlx.engines.memo`` (its kernel ``dlx.kernels.memo``);
this module picks the item choice rule, runs the engine in slices (so that
a time limit, a stop event and Ctrl-C are honoured) and reports a
``MemoStats``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..engines import MULTIPLICITIES, refuse
from ..engines.memo import (
    CHOICE_RULES,
    DEFAULT_MEMO_BYTES,
    LIMB_BITS,
    Memo,
    NotWorthIt,
    bounded_items,
)
from ..kernels import memo as M
from ..shorten import shorten
from . import search
from .search import Stats

__all__ = [
    "MemoStats",
    "count",
    "choose_rule",
    "wanted",
    "key_layout",
    "memo_bounds",
    "MEMO",
    "CHOICE_RULES",
    "DEFAULT_MEMO_BYTES",
]

MEMO = Memo()
"""The memo engine."""


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
        return (
            super().__str__().removesuffix(".")
            + f"; memo ({self.choose}): {group(self.memo_entries)} "
            f"entries in {_size(self.memo_bytes)}, "
            f"{self.hit_rate:.1%} of {group(self.memo_lookups)} lookups "
            f"hit, {group(self.memo_replaced)} replaced."
        )


def _size(n: float) -> str:
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
    return (
        "first"
        if _window(problem) <= min(24, len(problem.primary) / 4)
        else "mrv"
    )


def wanted(problem, memo, choose):
    """Validate ``count``'s memo arguments (the combinations are checked
    by ``dlx.services.counting``): is the count to be memoized (``True``,
    or ``"auto"``: see ``count``)?"""
    use: str | bool
    if isinstance(memo, str) and memo == "auto":
        use = "auto"
    elif isinstance(memo, (bool, np.bool_)):
        use = bool(memo)
    else:
        raise ValueError(
            f"memo must be True, False or 'auto', got {shorten(memo)}"
        )
    if use is False:
        raise ValueError(
            "memo_bytes and choose apply only to a memoized "
            "count (memo=True or memo='auto')"
        )
    if not isinstance(choose, str) or choose not in CHOICE_RULES:
        raise ValueError(
            f"choose must be one of {', '.join(CHOICE_RULES)}; "
            f"got {shorten(choose)}"
        )
    if problem.kind not in MEMO.kinds:
        raise refuse(
            "memoized counting", problem.kind, instead="count without memo"
        )
    return use


def key_layout(problem) -> tuple[int, np.ndarray]:
    """The key's words and ``keyinfo`` (see ``dlx.kernels.memo``): one bit
    per item, then, with colors, a field per secondary item wide enough
    for its color code (0 while it is not purified), then, with bounds, a
    field per bounded item wide enough for its upper bound (how many
    chosen options cover it while it is active; ``bounds_key``)."""
    s = problem.structure()
    words = (s.nitems + 2 + 63) // 64
    cbits = lg = 0
    if s.colors is not None:
        cbits, lg = _fields(int(s.colors.max(initial=0)))
        words += -(-(s.nitems - s.nprimary) >> lg)
    info = [(s.nitems + 2 + 63) // 64, s.nprimary, cbits, lg]
    bounds = problem.csr().bounds if problem.kind == MULTIPLICITIES else {}
    if bounds:
        nbounded = len(bounded_items(bounds))
        ubits, ulg = _fields(max(v for _, v in bounds.values()))
        info += [words, ubits, ulg]
        words += -(-nbounded >> ulg)
    return words, np.array(info, np.int64)


def _fields(largest: int) -> tuple[int, int]:
    """Fields for values up to ``largest``: a power of two bits (the
    kernel then needs no division), ``2**lg`` of them to a word."""
    bits = 1
    while bits < largest.bit_length():
        bits *= 2
    return bits, 6 - bits.bit_length() + 1


def memo_bounds(problem) -> dict | None:
    """What ``Memo.start`` takes as ``bounds``: the problem's
    ``{item: (u, v)}`` when it has bounds, else None."""
    return problem.csr().bounds if problem.kind == MULTIPLICITIES else None


def _window(problem) -> int:
    """The widest span of primary item numbers within one option."""
    s = problem.structure()
    nprimary = s.nprimary
    members, sizes = s.members, s.sizes
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


def count(
    problem,
    given=(),
    max_nodes=None,
    time_limit=None,
    *,
    memo_bytes=None,
    choose="auto",
    auto=False,
    limb_bits=LIMB_BITS,
    min_cost=1,
    stop=None,
):
    """Count the solutions of ``problem`` (an ``ExactCover``) with a memo.

    See ``ExactCover.count``; ``problem.stats`` becomes a ``MemoStats``.
    The arguments come checked by ``dlx.options.check`` (``given``: option
    numbers; ``memo_bytes`` None: ``DEFAULT_MEMO_BYTES``), as
    ``ExactCover.count`` hands them over; nothing is checked again here.
    The count runs in slices (``dlx.services.search.run``): ``BudgetExhausted`` at
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
    if memo_bytes is None:
        memo_bytes = DEFAULT_MEMO_BYTES
    if choose == "auto":
        choose = choose_rule(problem)
    arrays = MEMO.arrays(problem)
    nwords, keyinfo = key_layout(problem)
    run = MEMO.start(
        arrays,
        MEMO.option_nodes(arrays, problem.given_options(given)),
        nwords=nwords,
        memo_bytes=memo_bytes,
        rule=M.FIRST if choose == "first" else M.MRV,
        limb_bits=limb_bits,
        min_cost=min_cost,
        probe=auto and choose == "mrv",
        keyinfo=keyinfo,
        bounds=memo_bounds(problem),
    )
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
        total = sum(
            search.run(
                run,
                stats,
                limit=None,
                max_nodes=max_nodes,
                time_limit=time_limit,
                store=False,
                given=[],
                progress=lambda run, stats: run.record(stats),
                stop=stop,
            )
        )
    except NotWorthIt:
        return None
    return total
