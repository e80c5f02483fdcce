"""Counting by components: ``count(memo=True)`` on a problem that falls
apart into parts no option joins.

When the items of a (sub)problem fall into *components* (two items are in
one when an option holds both, or through a chain of such options; an
option joins all its items, primary and secondary), its solutions are
the products of its components' solutions: its count is the product of
theirs.  A memo keyed on the whole remaining problem
(``dlx.services.memo``) sees every combination of the parts' states
instead: dominoes on four 8x8 rooms joined by corridors
(``dlx.problems.tiling.rooms``), numbered row by row across the floor,
give it no answer in a minute; counted by components they take
milliseconds.

How a count runs (``count``):

1. At the root (after the givens are chosen) one check: the components
   (a union-find over the options' items, ``dlx.kernels.parts``) and, if
   there is one, a *cut item*: a primary item whose branch makes at
   most ``CUT_OPTIONS`` counts (one per option; with bounds, one per set
   of options, below) and whose removal, with its options, leaves the
   rest in two components or more (``CUT_CANDIDATES`` of the items of
   fewest branches are tried, within ``CUT_WORK`` members visited).  A
   problem that is connected and has no cut item (the domino boards,
   pentominoes, Langford pairs, Sudoku) is counted by the memo as a
   whole, exactly as before: the check is all it costs.
2. Otherwise the driver here counts it: a part that falls apart is the
   product of its components' counts; a connected one with a cut item is
   the sum, over the options of that item, of the counts of what is left
   once that option is chosen (each of which falls apart); a connected
   part without one is counted by the memo (or, with ``memo="auto"``,
   by the plain search when the memo does not pay).  Every part's count
   is remembered under its *shape* (its options over its items numbered
   in order, with their colors and bounds), so identical rooms, copies
   of a problem, and repeated states of the same part are counted once.

Bounds (MCC, ``u:v|item``) are served the same way.  A part carries each
primary item's bounds still to meet: options chosen above it (the givens,
a cut's branch) that cover an item ``c`` times leave it ``max(0, u - c)
.. v - c`` (the slack they used carries over), and it goes once ``v - c``
is 0.  A connected bounded part goes to the bounded memo
(``dlx.kernels.memo.count3``).  A cut item with bounds ``u..v`` is
branched on the *sets* of its options with ``u`` to ``v`` members (in
list order, each set once, as count3's takes and skips make them): each
branch chooses its set and shuts the item to every other option, so the
branches partition the solutions and each leaves the item gone with all
its options, which is what ``find_cut`` checked splits the part.  An item
without bounds has the sets of one option: the branch on its options.

Counts are Python integers (exact past 2**64).  ``max_nodes`` bounds the
sum of the parts' nodes (and one per cut branching), ``time_limit`` and
``stop`` the whole count; stopped, the partial count is the solutions of
the branches finished (a lower bound, 0 while a product is unfinished).
``zdd()`` builds its diagram by the same parts, with bounds too
(``dlx.services.zdd``, with ``falls_apart``, ``cut_item`` and
``bounds_of``): a bounded cut item's branches are the same sets of its
options.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from itertools import accumulate, combinations
from math import comb
from typing import NamedTuple

import numpy as np

from ..engines import engine_for
from ..kernels import parts as K
from . import memo as memo_count, search
from .memo import MemoStats
from .search import BudgetExhausted, Interrupted, Stats

__all__ = [
    "count",
    "falls_apart",
    "cut_item",
    "by_parts",
    "Part",
    "PartsStats",
    "bounds_of",
    "Limits",
    "strike",
    "struck_members",
]

#: Cut items are looked for among primary items whose branch makes this
#: many counts or fewer (one per option; with bounds one per set of
#: options: ``_branches``) ...
CUT_OPTIONS = 4
#: ... at most this many of them, those of fewest branches first ...
CUT_CANDIDATES = 64
#: ... and at most this many members visited looking (a test is one
#: union-find over the part's members).
CUT_WORK = 2_000_000
#: Branchings on a cut item per count, at most; past them every connected
#: part goes to the memo as a whole.
MAX_CUTS = 10_000


class Part(NamedTuple):
    """A (sub)problem as the driver keeps it: ``nitems`` items numbered
    from 0, the first ``nprimary`` primary; option ``k``'s items are
    ``indices[indptr[k]:indptr[k + 1]]`` (int64), with a color code per
    member in ``colors`` (0: none) or None; ``bounds``: each primary
    item's ``(u, v)`` still to meet (``nprimary`` x 2, int64: the slack
    left once the options chosen above the part are counted), or None
    when every primary item is covered exactly once.  Every option has a
    primary item, every secondary item is in an option, and so is every
    primary item whose ``u`` is 0."""

    nprimary: int
    nitems: int
    indptr: np.ndarray
    indices: np.ndarray
    colors: np.ndarray | None
    bounds: np.ndarray | None = None

    def shape(self) -> bytes:
        """The key of the part's count: equal for two parts whose options
        are the same over their items numbered in order, with the same
        colors and bounds."""
        head = np.array(
            [
                self.nprimary,
                self.nitems,
                len(self.indptr),
                self.colors is not None,
                self.bounds is not None,
            ],
            np.int64,
        ).tobytes()
        body = np.diff(self.indptr).astype(np.int32).tobytes()
        body += self.indices.astype(np.int32).tobytes()
        if self.colors is not None:
            body += self.colors.astype(np.int32).tobytes()
        if self.bounds is not None:
            body += self.bounds.astype(np.int64).tobytes()
        return head + body

    def lower(self) -> np.ndarray:
        """Each primary item's least number of options (``u``)."""
        if self.bounds is None:
            return np.ones(self.nprimary, np.int64)
        return self.bounds[:, 0]


@dataclass
class PartsStats(MemoStats):
    """The work of a count by components (``ExactCover.stats`` after
    ``count(memo=True)`` on a problem that falls apart).

    As ``MemoStats``, summed over the parts (``nodes``, ``updates``, the
    memo's lookups, hits, savings and replacements; its entries, size and
    limbs the largest of one part's; ``choose`` the rules used), plus:
    ``parts`` (connected parts counted by the memo or the search),
    ``repeats`` (parts answered by an earlier part of the same shape),
    ``splits`` (parts that fell apart into components) and ``cuts``
    (branchings on a cut item).
    """

    parts: int = 0
    repeats: int = 0
    splits: int = 0
    cuts: int = 0
    rules: set = field(default_factory=set, repr=False, compare=False)

    def add(self, stats: Stats) -> None:
        """Add one part's search to the totals."""
        self.nodes += stats.nodes
        self.updates += stats.updates
        if isinstance(stats, MemoStats):
            self.memo_lookups += stats.memo_lookups
            self.memo_hits += stats.memo_hits
            self.memo_saved += stats.memo_saved
            self.memo_replaced += stats.memo_replaced
            self.memo_entries = max(self.memo_entries, stats.memo_entries)
            self.memo_slots = max(self.memo_slots, stats.memo_slots)
            self.memo_bytes = max(self.memo_bytes, stats.memo_bytes)
            self.memo_limbs = max(self.memo_limbs, stats.memo_limbs)
            self.rules.add(stats.choose)
        else:
            self.rules.add("plain")
        self.choose = "/".join(sorted(self.rules))

    def __str__(self) -> str:
        return (
            super().__str__().removesuffix(".")
            + f"; components: {self.parts} parts counted, {self.repeats} "
            f"repeated, {self.splits} splits, {self.cuts} cut branchings."
        )


# -- parts as arrays ----------------------------------------------------------


def _restrict(
    nprimary: int,
    nitems: int,
    indptr: np.ndarray,
    indices: np.ndarray,
    colors: np.ndarray | None,
    option_kept: np.ndarray,
    item_kept: np.ndarray,
    bounds: np.ndarray | None = None,
) -> Part:
    """The part made of the kept options over the kept items: items struck
    out of the options that stay, options left without a primary item
    dropped (no search chooses them), secondary items left in no option
    dropped, and so are primary items of ``bounds`` ``(0, v)`` left in
    none (they are met by no option), the rest numbered in order, each
    primary item with its ``bounds``."""
    sizes = np.diff(indptr)
    option_of = np.repeat(np.arange(len(sizes)), sizes)
    member_kept = option_kept[option_of] & item_kept[indices]
    has_primary = np.zeros(len(sizes), np.bool_)
    has_primary[option_of[member_kept & (indices < nprimary)]] = True
    member_kept &= has_primary[option_of]
    used = np.zeros(nitems, np.bool_)
    used[indices[member_kept]] = True
    primary_kept = item_kept[:nprimary]
    if bounds is not None:
        primary_kept = primary_kept & (used[:nprimary] | (bounds[:, 0] > 0))
    primary = np.flatnonzero(primary_kept)
    secondary = nprimary + np.flatnonzero(used[nprimary:])
    number = np.full(nitems, -1, np.int64)
    number[primary] = np.arange(len(primary))
    number[secondary] = len(primary) + np.arange(len(secondary))
    new_sizes = np.bincount(option_of[member_kept], minlength=len(sizes))[
        has_primary
    ]
    new_indptr = np.zeros(len(new_sizes) + 1, np.int64)
    np.cumsum(new_sizes, out=new_indptr[1:])
    return Part(
        len(primary),
        len(primary) + len(secondary),
        new_indptr,
        number[indices[member_kept]],
        None if colors is None else colors[member_kept],
        None if bounds is None else bounds[primary],
    )


def _whole(part: Part) -> Part:
    return _restrict(
        part.nprimary,
        part.nitems,
        part.indptr,
        part.indices,
        part.colors,
        np.ones(len(part.indptr) - 1, np.bool_),
        np.ones(part.nitems, np.bool_),
        part.bounds,
    )


def strike(
    nprimary: int,
    nitems: int,
    items: np.ndarray,
    tints: np.ndarray | None,
    bounds: np.ndarray | None,
    close: int = -1,
) -> tuple[np.ndarray, np.ndarray | None] | None:
    """What choosing options does to the items of a part (``nitems``,
    the ``nprimary`` primary ones first): ``items`` are the chosen
    options' members (item numbers among them) and ``tints`` their colors
    (None: no colors).  None when the options clash; else ``state``, one
    per item (-1 untouched, 0 taken: a primary item with no slack left, a
    secondary one without color, or ``close``; c > 0 purified to color
    c), and with ``bounds`` (each primary item's ``(u, v)``) the bounds
    lowered by the uses, ``(max(0, u - c), v - c)`` (None without).  The
    one rule of both drivers (``_choose`` here, the ZDD's by parts)."""
    items = np.asarray(items, np.int64)
    tints = (
        np.zeros(len(items), np.int64)
        if tints is None
        else np.asarray(tints, np.int64)
    )
    # Primary items: how many times the chosen options cover each.
    uses = np.bincount(items[items < nprimary], minlength=nprimary)
    high = np.ones(nprimary, np.int64) if bounds is None else bounds[:, 1]
    if (uses > high).any():
        return None
    state = np.full(nitems, -1, np.int64)
    state[:nprimary][(uses > 0) & (uses == high)] = 0
    if close >= 0:
        state[close] = 0
    secondary = items >= nprimary
    for item, color in zip(
        items[secondary].tolist(), tints[secondary].tolist()
    ):
        was = int(state[item])
        if was >= 0 and (was == 0 or was != color):
            return None
        state[item] = color
    if bounds is None:
        return state, None
    return state, np.stack(
        [np.maximum(0, bounds[:, 0] - uses), high - uses], axis=1
    )


def struck_members(at: np.ndarray, tints: np.ndarray | None) -> np.ndarray:
    """Which members go with what ``strike`` took: ``at`` the ``state``
    of each member's item (-1 for an item no longer in the part),
    ``tints`` their colors (None: none).  A member on a taken item, or on
    an item purified to another color, strikes its option."""
    if tints is None:
        return at == 0
    return (at == 0) | ((at > 0) & (tints != at))


def _choose(part: Part, chosen, close: int = -1) -> Part | None:
    """What is left of ``part`` once the options ``chosen`` are chosen
    (None when they clash): they go, and with them their items and every
    option that holds one of their primary items, one of their uncolored
    secondary items, or one of their colored secondary items in another
    color (or none); an option that agrees on such a color stays, without
    that item (it is purified: nothing else can conflict on it).  With
    bounds, a primary item the chosen options cover ``c`` times has its
    bounds ``(u, v)`` lowered to ``(max(0, u - c), v - c)`` (more than
    ``v`` times is a clash); it goes, as above, once ``v - c`` is 0, and
    stays with its slack otherwise (the options that hold it stay).
    Primary item ``close`` (-1: none) goes in any case: no option other
    than the chosen ones may cover it."""
    nprimary, nitems = part.nprimary, part.nitems
    indptr, indices, colors = part.indptr, part.indices, part.colors
    chosen = list(chosen)
    members = np.concatenate(
        [np.arange(indptr[k], indptr[k + 1]) for k in chosen]
        + [np.zeros(0, np.int64)]
    )
    struck = strike(
        nprimary,
        nitems,
        indices[members],
        None if colors is None else colors[members],
        part.bounds,
        close,
    )
    if struck is None:
        return None
    state, bounds = struck
    sizes = np.diff(indptr)
    option_of = np.repeat(np.arange(len(sizes)), sizes)
    option_kept = np.ones(len(sizes), np.bool_)
    option_kept[option_of[struck_members(state[indices], colors)]] = False
    # (A chosen option whose bounded items keep some slack is not chosen
    # again.)
    option_kept[chosen] = False
    return _restrict(
        nprimary,
        nitems,
        indptr,
        indices,
        colors,
        option_kept,
        state < 0,
        bounds,
    )


def _components(part: Part, labels: np.ndarray, count: int) -> list[Part]:
    """The part's components (``labels`` from ``label_components``, every
    item in an option), each its options over its items numbered in order
    with their bounds, smallest first."""
    nprimary = part.nprimary
    indptr, indices, colors = part.indptr, part.indices, part.colors
    sizes = np.diff(indptr)
    option_label = labels[indices[indptr[:-1]]]
    by_label = np.argsort(option_label, kind="stable")
    bounds = np.searchsorted(option_label[by_label], np.arange(count + 1))
    # Each item's number within its component: its rank there (primary
    # items come first in every component, as they do in the part).
    item_order = np.argsort(labels, kind="stable")
    item_bounds = np.searchsorted(labels[item_order], np.arange(count + 1))
    rank = np.empty(part.nitems, np.int64)
    rank[item_order] = np.arange(part.nitems) - np.repeat(
        item_bounds[:-1], np.diff(item_bounds)
    )
    primaries = np.bincount(labels[:nprimary], minlength=count)
    out = []
    for c in range(count):
        options = by_label[bounds[c] : bounds[c + 1]]
        own = sizes[options]
        starts = np.repeat(indptr[options], own)
        offsets = np.arange(int(own.sum())) - np.repeat(
            np.cumsum(own) - own, own
        )
        members = starts + offsets
        new_indptr = np.zeros(len(options) + 1, np.int64)
        np.cumsum(own, out=new_indptr[1:])
        # The component's primary items, in order: the first of its items.
        first = item_bounds[c]
        primary = item_order[first : first + primaries[c]]
        out.append(
            Part(
                int(primaries[c]),
                int(item_bounds[c + 1] - item_bounds[c]),
                new_indptr,
                rank[indices[members]],
                None if colors is None else colors[members],
                None if part.bounds is None else part.bounds[primary],
            )
        )
    out.sort(key=lambda p: len(p.indices))
    return out


# _UPTO[d, s]: the sets of fewer than s of d options (d <= CUT_OPTIONS).
_UPTO = np.array(
    [
        [0, *accumulate(comb(d, s) for s in range(CUT_OPTIONS + 1))]
        for d in range(CUT_OPTIONS + 1)
    ],
    np.int64,
)


def _branches(part: Part, degree: np.ndarray, items: np.ndarray) -> np.ndarray:
    """How many counts a branch on each of ``items`` (primary, each in
    ``u`` to ``CUT_OPTIONS`` options) makes: its options (an item without
    bounds), or the sets of ``u`` to ``v`` of its options."""
    d = degree[items]
    if part.bounds is None:
        return d
    low, high = part.bounds[items, 0], part.bounds[items, 1]
    return _UPTO[d, np.minimum(high, d) + 1] - _UPTO[d, low]


def _cut_item(part: Part, degree: np.ndarray) -> int:
    """A cut item of a connected part (see the module docstring), or -1:
    among the primary articulation items (one linear pass) whose branch
    makes at most ``CUT_OPTIONS`` counts (``_branches``), fewest first,
    the first that passes the exact test."""
    joint = np.empty(part.nitems, np.bool_)
    K.articulation_items(part.indptr, part.indices, part.nitems, joint)
    candidates = np.flatnonzero(
        joint[: part.nprimary] & (degree[: part.nprimary] <= CUT_OPTIONS)
    )
    branches = _branches(part, degree, candidates)
    candidates = candidates[branches <= CUT_OPTIONS]
    if not len(candidates):
        return -1
    tries = min(CUT_CANDIDATES, max(1, CUT_WORK // max(1, len(part.indices))))
    order = np.argsort(branches[branches <= CUT_OPTIONS], kind="stable")
    return int(
        K.find_cut(
            part.indptr,
            part.indices,
            part.nitems,
            candidates[order[:tries]].astype(np.int64),
        )
    )


def cut_item(part: Part) -> int:
    """A cut item of a connected ``part``, as the driver picks it (see the
    module docstring), or -1: for another driver over the same parts
    (``dlx.services.zdd`` builds its diagram by parts with it)."""
    return _cut_item(part, np.bincount(part.indices, minlength=part.nitems))


def _root(problem, given: list[int]) -> Part | None:
    """The problem as a part, its givens chosen (None when they clash)."""
    c = problem.csr()
    bounds = None
    if c.bounds:
        bounds = np.ones((c.nprimary, 2), np.int64)
        for item, uv in c.bounds.items():  # (items from 1)
            bounds[item - 1] = uv
    full = Part(
        c.nprimary,
        c.nitems,
        c.indptr.astype(np.int64),
        c.indices.astype(np.int64),
        c.colors,
        bounds,
    )
    # A given without a primary item is chosen too: it takes its
    # secondary items.
    if given:
        return _choose(full, given)
    sizes = np.diff(full.indptr)
    if (
        len(sizes)
        and sizes.all()
        and (
            np.minimum.reduceat(full.indices, full.indptr[:-1]) < c.nprimary
        ).all()
        and np.bincount(full.indices, minlength=c.nitems).all()
    ):
        return full  # every option has a primary item, every item an option
    return _whole(full)


# -- the driver -----------------------------------------------------------------


class Limits:
    """The budgets of a driver over parts (this module's count, the ZDD
    built by parts in ``dlx.services.zdd``), from its start: at most
    ``max_nodes`` nodes summed over its parts (None: no limit), a
    ``time_limit`` in seconds (None: none) and a ``stop`` event (or
    None).  Checked between parts; what is left is handed to each part's
    own search."""

    def __init__(self, max_nodes, time_limit, stop=None):
        self.max_nodes = max_nodes
        self.time_limit = time_limit
        self.stop = stop
        self.start = time.perf_counter()
        self.deadline = None if time_limit is None else self.start + time_limit

    def why_stop(self, nodes: int) -> str | None:
        """Why to stop, ``nodes`` made so far (the sentence a
        ``BudgetExhausted`` says), or None to go on."""
        if self.stop is not None and self.stop.is_set():
            return "search stopped by its stop event"
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            return f"search stopped at time_limit={self.time_limit} s"
        if self.max_nodes is not None and nodes >= self.max_nodes:
            return f"search stopped after max_nodes={self.max_nodes} nodes"
        return None

    def left(self, nodes: int) -> tuple[int | None, float | None]:
        """The nodes and seconds left (None: no limit), ``nodes`` made so
        far: the budgets of the next part's search."""
        return (
            None if self.max_nodes is None else max(0, self.max_nodes - nodes),
            None
            if self.deadline is None
            else max(0.0, self.deadline - time.perf_counter()),
        )

    def seconds(self) -> float:
        """The seconds since the start."""
        return time.perf_counter() - self.start


class _Driver:
    """One count by components: the parts' table, the budgets, the
    totals."""

    def __init__(
        self, problem, max_nodes, time_limit, memo_bytes, choose, auto, stop
    ):
        self.make = type(problem).from_arrays
        self.limits = Limits(max_nodes, time_limit, stop)
        self.memo_bytes = memo_bytes
        self.choose = choose
        self.auto = auto
        self.stop = stop
        self.table: dict[bytes, int] = {}
        self.stats = PartsStats(complete=False, choose=choose)

    # The budgets, checked before each part.
    def _why_stop(self) -> str | None:
        return self.limits.why_stop(self.stats.nodes)

    def _budget(self):
        return self.limits.left(self.stats.nodes)

    def count(self, part: Part) -> int:
        """The part's count (a product, a sum over a cut item's options, or
        the memo's count), remembered under its shape."""
        if part.nprimary == 0:
            return 1
        degree = np.bincount(part.indices, minlength=part.nitems)
        if (degree[: part.nprimary] < part.lower()).any():
            return 0  # a primary item in fewer options than it needs
        key = part.shape()
        known = self.table.get(key)
        if known is not None:
            self.stats.repeats += 1
            return known
        why = self._why_stop()
        if why is not None:
            raise BudgetExhausted(why, 0, self.stats)
        labels = np.empty(part.nitems, np.int64)
        n = K.label_components(
            part.indptr, part.indices, part.nitems, -1, labels
        )
        if n > 1:
            self.stats.splits += 1
            total = self._product(_components(part, labels, n))
        else:
            item = (
                -1
                if self.stats.cuts >= MAX_CUTS
                else (_cut_item(part, degree))
            )
            if item >= 0:
                total = self._branch(part, item)
            else:
                total = self._memo(part)
        self.table[key] = total
        return total

    def _product(self, parts: list[Part]) -> int:
        total = 1
        for j, part in enumerate(parts):
            try:
                n = self.count(part)
            except (BudgetExhausted, KeyboardInterrupt) as e:
                # Solutions met so far: only once every other factor is
                # known.
                _partial(e, total * _found(e) if j == len(parts) - 1 else 0)
                raise
            total *= n
            if not total:
                return 0
        return total

    def _branch(self, part: Part, item: int) -> int:
        """The sum, over the sets of ``item``'s options that meet its
        bounds ``(u, v)`` (one option each for an item without bounds),
        in list order, of what is left once the set is chosen and no
        other option may cover ``item``.  The sets partition the
        solutions (each covers ``item`` with one set of its options), and
        ``item`` goes with all its options in every branch: what is left
        falls apart, as ``find_cut`` checked."""
        self.stats.cuts += 1
        self.stats.nodes += 1  # the branching, as a search counts it
        option_of = np.repeat(
            np.arange(len(part.indptr) - 1), np.diff(part.indptr)
        )
        holders = option_of[part.indices == item].tolist()
        low, high = (1, 1) if part.bounds is None else part.bounds[item]
        total = 0
        for size in range(int(low), min(int(high), len(holders)) + 1):
            for chosen in combinations(holders, size):
                rest = _choose(part, chosen, close=item)
                if rest is None:
                    continue
                try:
                    total += self.count(rest)
                except (BudgetExhausted, KeyboardInterrupt) as e:
                    _partial(e, total + _found(e))
                    raise
        return total

    def _memo(self, part: Part) -> int:
        """A connected part, counted by the memo as a whole."""
        self.stats.parts += 1
        sub = self.make(
            part.indptr,
            part.indices,
            part.nprimary,
            part.nitems - part.nprimary,
            colors=part.colors,
            bounds=bounds_of(part),
        )
        nodes, seconds = self._budget()
        try:
            found = memo_count.count(
                sub,
                (),
                nodes,
                seconds,
                memo_bytes=self.memo_bytes,
                choose=self.choose,
                auto=self.auto,
                stop=self.stop,
            )
            if found is None:  # memo="auto": it does not pay here
                self.stats.add(sub.stats)
                nodes, seconds = self._budget()
                found = sum(
                    search.problem_search(
                        sub,
                        engine_for(sub),
                        limit=None,
                        given=[],
                        max_nodes=nodes,
                        time_limit=seconds,
                        cutoff=0,
                        store=False,
                        stop=self.stop,
                    )
                )
        except (BudgetExhausted, KeyboardInterrupt) as e:
            self.stats.add(getattr(e, "stats", None) or sub.stats)
            _partial(e, _found(e))
            raise
        self.stats.add(sub.stats)
        return found

    def run(self, root: Part) -> int:
        stats = self.stats
        try:
            total = self.count(root)
        except (BudgetExhausted, KeyboardInterrupt) as e:
            found = _found(e)
            stats.solutions = found
            stats.seconds = self.limits.seconds()
            if isinstance(e, BudgetExhausted):
                why = self._why_stop() or str(e).split(" with ")[0]
                raise BudgetExhausted(
                    f"{why} with {found} solution(s) found", found, stats
                ) from None
            raise Interrupted(found, stats) from None
        stats.solutions = total
        stats.complete = True
        stats.seconds = self.limits.seconds()
        return total


def bounds_of(part: Part) -> dict | None:
    """The part's bounds as ``ExactCover`` takes them (its items named by
    number): ``{item: (u, v)}`` for the items not ``1..1`` (None without
    bounds): for the subproblem a part is counted or built on as a
    whole."""
    if part.bounds is None:
        return None
    other = np.flatnonzero((part.bounds != 1).any(axis=1))
    return {
        int(i): (int(u), int(v))
        for i, (u, v) in zip(other, part.bounds[other])
    }


def _found(e: BaseException) -> int:
    return int(getattr(e, "count", 0))


def _partial(e: BaseException, found: int) -> None:
    """Set the partial count a stop carries up to the next level."""
    e.count = found  # type: ignore[attr-defined]


# -- the service ------------------------------------------------------------------


def falls_apart(problem, given: list[int], cached: bool = True) -> Part | None:
    """The root check: the problem (its ``given`` options chosen) as a
    ``Part`` when it falls apart or has a cut item, else None (it is
    counted as a whole: also when the givens clash or cover everything,
    or a primary item is in no option).  One pass over the members for
    the components, and at most ``CUT_WORK`` more looking for a cut;
    without givens, made once per problem (until it changes) unless not
    ``cached``."""
    if not given and cached:
        return problem.built("parts", lambda p: (_falls_apart(p, []),))[0]
    return _falls_apart(problem, given)


def _falls_apart(problem, given: list[int]) -> Part | None:
    root = _root(problem, given)
    if root is None or root.nprimary == 0:
        return None
    degree = np.bincount(root.indices, minlength=root.nitems)
    if (degree[: root.nprimary] < root.lower()).any():
        return None
    labels = np.empty(root.nitems, np.int64)
    n = K.label_components(root.indptr, root.indices, root.nitems, -1, labels)
    if n == 1 and _cut_item(root, degree) < 0:
        return None
    return root


def count(
    problem,
    given=(),
    max_nodes=None,
    time_limit=None,
    *,
    memo_bytes=None,
    choose="auto",
    auto=False,
    stop=None,
):
    """Count the solutions of ``problem`` with a memo, by components where
    it falls apart (see the module docstring); otherwise exactly
    ``dlx.services.memo.count`` (same arguments, same result: None when
    ``auto`` finds the memo of little use on a connected problem).
    ``problem.stats`` becomes a ``PartsStats`` when the problem was
    counted by parts.  The arguments come checked by
    ``dlx.options.check``, as ``ExactCover.count`` hands them over
    (``memo_bytes`` None: ``dlx.services.memo.DEFAULT_MEMO_BYTES``)."""

    def whole():
        return memo_count.count(
            problem,
            given,
            max_nodes,
            time_limit,
            memo_bytes=memo_bytes,
            choose=choose,
            auto=auto,
            stop=stop,
        )

    root = falls_apart(problem, problem.given_options(given))
    if root is None:
        return whole()
    return _drive(
        problem, root, max_nodes, time_limit, memo_bytes, choose, auto, stop
    )


def by_parts(
    problem,
    given=(),
    max_nodes=None,
    time_limit=None,
    *,
    memo_bytes=None,
    choose="auto",
    auto=False,
    stop=None,
) -> int:
    """``count``, by the driver whatever the root check says (a connected
    problem without a cut item is then one part counted by the memo):
    for the tests and the bench.  The givens must not clash; the other
    arguments are as ``count`` takes them, unchecked."""
    root = _root(problem, problem.given_options(given))
    if root is None:
        raise ValueError("the given options clash")
    return _drive(
        problem, root, max_nodes, time_limit, memo_bytes, choose, auto, stop
    )


def _drive(
    problem, root, max_nodes, time_limit, memo_bytes, choose, auto, stop
) -> int:
    driver = _Driver(
        problem, max_nodes, time_limit, memo_bytes, choose, auto, stop
    )
    problem.stats = driver.stats
    try:
        return driver.run(root)
    finally:
        problem.stats = driver.stats
