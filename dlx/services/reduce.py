"""Make a problem smaller before searching it (Knuth's DLX-PRE), and map
the solutions back.

``reduce(problem)`` applies sound rules until none applies (or a budget
runs out) and returns a ``Reduction``: the reduced ``ExactCover``, whose
solutions are exactly the original's, and the map from its options back to
the original options.  A reduced option is an original option with some
items struck out (colors kept); so a solution of the reduced problem,
mapped with ``Reduction.to_original``, is a solution of the original, and
every solution of the original is one of those.

The rules (``RULES``; ``DLX_PRE_RULES`` are Knuth's):

* ``"no-primary"``: an option with no primary item is never chosen: it
  goes (DLX-PRE drops it as it reads it, and does not number it).
* ``"empty-item"``: an item in no option goes; a primary item with fewer
  options than its lower bound (none, for an exact-cover item) leaves no
  solution (DLX-PRE's "Take note that cc has no options").
* ``"implied-item"``: if every option with primary item ``p`` also has item
  ``c`` (uncolored), ``c`` is struck out of every option and the options
  with ``c`` but not ``p`` go (DLX-PRE's ``hide`` and "Remove item c").
* ``"blocking-option"``: an option that leaves some primary item with no
  option compatible with it goes (DLX-PRE's "Stack option r for deletion").
* ``"free-secondary"`` (beyond DLX-PRE): a secondary item on which no two
  options can clash (in at most one option, or always with the same
  color) is struck out.

With bounds (DLX3 multiplicities; DLX-PRE refuses them): an item with upper
bound ``v >= 2`` may be shared, so it makes no clash; "blocking-option"
asks for ``u`` compatible options instead of one; "implied-item" removes
the options with ``c`` but not ``p`` only when ``c``'s upper bound is at
most ``p``'s lower bound, and then gives ``p`` the intersection of both
bounds.  ``given`` options are committed first: they leave the problem,
the items they cover go, and so do the options that clash with them.

The reduced problem's count is the original's; ``count``, ``solutions``
and ``solve`` here (and ``ExactCover``'s with ``reduce=True``) search it
and answer with original option numbers.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..engines.base import EXACT
from ..kernels import reduce as K
from ..shorten import shorten
from .defaults import DLX_PRE_RULES, RULES
from .search import BudgetExhausted, seconds as check_seconds, whole_number

__all__ = [
    "Reduction",
    "RULES",
    "DLX_PRE_RULES",
    "reduce",
    "round_work",
    "count",
    "solutions",
    "solve",
    "best",
    "best_of",
]

#: Every rule, by name (see the module's docstring), and its kernel code.
RULE_CODES = {
    "no-primary": K.NO_PRIMARY,
    "empty-item": K.EMPTY_ITEM,
    "implied-item": K.IMPLIED_ITEM,
    "blocking-option": K.BLOCKING_OPTION,
    "free-secondary": K.FREE_SECONDARY,
}
if tuple(RULE_CODES) != RULES:  # the names are dlx.services.defaults'
    raise ImportError("dlx.services.defaults.RULES is not RULE_CODES' keys")
#: What removed an option or item, by kernel code ("given": covered by a
#: given option or clashing with one).
_NAMES = {code: name for name, code in RULE_CODES.items()}
_NAMES[K.GIVEN] = "given"
_NO_SOLUTION = K.NRULES  # what is left when there is no solution
_NAMES[_NO_SOLUTION] = "no-solution"

# The sweeps run in slices of about this much work, so that a time limit
# is checked a few hundred times a second.
_SLICE = 200_000


@dataclass
class Reduction:
    """What ``reduce`` made of a problem.

    ``problem``: the reduced ``ExactCover`` (items and options in their
    original order, names and colors kept, bounds possibly tightened).
    ``original[k]``: the original number of its option ``k`` (an int64
    array).
    ``given``: the given options (original numbers), committed before the
    reduction: part of every solution, not of ``problem``.
    ``forced``: the original options in every solution (the givens, and
    the options alone in an item that must be covered).
    ``removed_options``: ``{original option: rule}``, ``removed_items``:
    ``{item: rule}`` (rule names as in ``RULES``; ``"given"``: covered by
    a given or clashing with one; ``"no-solution"``: what was left when
    the problem turned out to have no solution).
    ``infeasible``: the problem has no solution (``problem`` is then one
    primary item, the one that cannot be covered, and no option).
    ``rounds``, ``work`` (entries looked at, the budget's unit) and
    ``seconds``; ``complete`` is False when a budget stopped the rounds
    before a fixed point (the reduction is sound all the same).
    """

    problem: Any  # an ExactCover (dlx.problem is a layer above)
    original: np.ndarray
    given: tuple
    forced: tuple
    infeasible: bool
    rounds: int
    work: int
    seconds: float
    complete: bool
    # Why each original option and item went (kernel codes, 0: kept;
    # the givens are K.GIVEN too), and the original item names.
    why_option: np.ndarray = field(repr=False)
    why_item: np.ndarray = field(repr=False)
    items: tuple = field(repr=False)

    @functools.cached_property
    def removed_options(self) -> dict:
        committed = set(self.given)
        return {
            int(k): _NAMES[int(self.why_option[k])]
            for k in np.flatnonzero(self.why_option)
            if k not in committed
        }

    @functools.cached_property
    def removed_items(self) -> dict:
        return {
            self.items[i]: _NAMES[int(self.why_item[i])]
            for i in np.flatnonzero(self.why_item)
        }

    def to_original(self, solution: Iterable[int]) -> list[int]:
        """A solution of the reduced problem as original option numbers
        (givens included), ascending."""
        mapped = [int(self.original[k]) for k in solution]
        return sorted(set(self.given).union(mapped))

    def by_rule(self) -> dict:
        """``{rule: (options removed, items removed)}`` for every rule that
        removed something."""
        options = np.bincount(self.why_option, minlength=len(_NAMES) + 1)
        options[K.GIVEN] -= len(self.given)
        items = np.bincount(self.why_item, minlength=len(_NAMES) + 1)
        return {
            _NAMES[code]: (int(options[code]), int(items[code]))
            for code in sorted(_NAMES)
            if options[code] or items[code]
        }

    def summary(self) -> str:
        """One line in the manner of DLX-PRE's, with the rules that fired."""
        counts = self.by_rule().values()
        options = sum(o for o, _ in counts)
        items = sum(i for _, i in counts)
        work = f"{self.work:,}".replace(",", " ")
        text = (
            f"Removed {options} option{'' if options == 1 else 's'} "
            f"and {items} item{'' if items == 1 else 's'}, after "
            f"{work} work, {self.rounds} "
            f"round{'' if self.rounds == 1 else 's'}, "
            f"{self.seconds:.3f} s"
        )
        rules = ", ".join(
            f"{rule} {o}+{i}"
            for rule, (o, i) in sorted(self.by_rule().items())
        )
        if rules:
            text += f" ({rules})"
        if self.infeasible:
            text += (
                f"; no solution: item {shorten(self.problem.primary[0])} "
                f"cannot be covered"
            )
        if not self.complete:
            text += "; stopped by the budget before a fixed point"
        return text + "."

    def __str__(self) -> str:
        return self.summary()

    def given_cost(self, problem) -> int:
        """What the givens cost in ``problem`` (the original): every
        solution of the reduced problem costs that much more in the
        original, since each reduced option keeps its own cost."""
        costs = problem.structure().costs
        return int(sum(int(costs[g]) for g in self.given))


def _rule_mask(rules) -> np.ndarray:
    if isinstance(rules, str):
        rules = (rules,)
    mask = np.zeros(K.NRULES, np.uint8)
    for rule in rules:
        if rule not in RULE_CODES:
            raise ValueError(
                f"unknown reduction rule {shorten(rule)}; the rules "
                f"are {', '.join(RULES)}"
            )
        mask[RULE_CODES[rule]] = 1
    return mask


def _static(problem) -> tuple:
    """``(option_start, entry_item, entry_color, entry_option, item_start,
    item_entries, lower, upper)`` of ``problem`` (not to be written), kept
    by the problem until it changes (a Sudoku's encoding is reduced again
    with other givens)."""
    return problem.built("reduce", _static_arrays)


def _static_arrays(problem) -> tuple:
    structure = problem.structure()
    sizes = structure.sizes
    option_start = np.zeros(len(sizes) + 1, np.int64)
    np.cumsum(sizes, out=option_start[1:])
    entry_item = structure.members - 1
    entry_color = (
        np.zeros(len(entry_item), np.int64)
        if structure.colors is None
        else structure.colors.astype(np.int64)
    )
    entry_option = np.repeat(np.arange(len(sizes), dtype=np.int64), sizes)
    item_entries = np.argsort(entry_item, kind="stable").astype(np.int64)
    item_start = np.zeros(structure.nitems + 1, np.int64)
    np.cumsum(
        np.bincount(entry_item, minlength=structure.nitems), out=item_start[1:]
    )
    lower = np.zeros(structure.nitems, np.int64)
    upper = np.ones(structure.nitems, np.int64)
    lower[: structure.nprimary] = 1
    for k, (u, v) in structure.bounds.items():
        lower[k - 1], upper[k - 1] = u, v
    static = (
        option_start,
        entry_item,
        entry_color,
        entry_option,
        item_start,
        item_entries,
        lower,
        upper,
    )
    for a in static:
        a.flags.writeable = False
    return static


def arrays(problem, rules=RULES) -> K.Arrays:
    """The kernel's arrays of ``problem``, nothing removed yet."""
    (
        option_start,
        entry_item,
        entry_color,
        entry_option,
        item_start,
        item_entries,
        lower,
        upper,
    ) = _static(problem)
    nitems, noptions = len(item_start) - 1, len(option_start) - 1
    info = np.array([len(problem.primary), 0, 0, 0, -1], np.int64)
    return K.Arrays(
        option_start,
        entry_item,
        entry_color,
        entry_option,
        item_start,
        item_entries,
        lower.copy(),
        upper.copy(),
        np.zeros(noptions, np.int8),
        np.zeros(nitems, np.int8),
        np.ones(len(entry_item), np.uint8),
        np.diff(item_start),
        np.zeros(noptions, np.int64),
        np.zeros(nitems, np.int64),
        np.zeros(nitems, np.int64),
        _rule_mask(rules),
        info,
    )


def round_work(problem) -> int:
    """About the work (``Reduction.work``) of one round on ``problem``,
    predicted in linear time: each option is tested against the options
    that share an item with it, so a round looks at about
    ``sum(len(q) * sum(|s| for s in q))`` entries over the items ``q``.
    Within a factor 0.6 to 1.4 of the first round on the files of
    ``tests/data/dlxpre`` (test_reduce); a round runs at about 10 ns per
    unit of work.  What ``auto`` needs to weigh a reduction against a
    search (see ``docs/reduce.md``).

    >>> from dlx import ExactCover
    >>> p = ExactCover("AB")
    >>> _ = p.add_options(["A", "AB", "B"])
    >>> round_work(p)  # A: 2 options of 1 + 2 entries; B: likewise
    12
    """
    option_start, entry_item, _, entry_option = _static(problem)[:4]
    sizes = np.diff(option_start)
    nitems = len(problem.items)
    length = np.bincount(entry_item, minlength=nitems)
    entries = np.bincount(
        entry_item, weights=sizes[entry_option], minlength=nitems
    )
    return int((length * entries).sum())


def reduce(
    problem,
    *,
    given: Iterable[int] = (),
    rounds: int | None = None,
    time_limit: float | None = None,
    max_work: int | None = None,
    rules=RULES,
) -> Reduction:
    """Reduce ``problem`` with ``rules`` until none applies, or until
    ``rounds`` rounds (a round tries every rule everywhere once),
    ``time_limit`` seconds or ``max_work`` work (entries looked at) ran
    out; see the module's docstring.  ``given`` options are committed
    first (see ``Reduction.given``).

    >>> from dlx import ExactCover
    >>> p = ExactCover("ABCDE", secondary="FG")
    >>> _ = p.add_options(["CEF", "ADG", "BCF", "AD", "BG", "DEG"])
    >>> r = reduce(p)
    >>> r.problem.options, r.original.tolist()
    ((('E',), ('A',), ('B',)), [0, 3, 4])
    >>> [r.to_original(s) for s in r.problem.solutions()]
    [[0, 3, 4]]
    """
    t0 = time.perf_counter()
    if not hasattr(problem, "structure"):
        raise TypeError(
            f"reduce expects an ExactCover, got {type(problem).__name__}"
        )
    given = problem.given_options(given)
    return _reduce(problem, given, rounds, time_limit, max_work, rules, t0)


def _reduce(problem, given, rounds, time_limit, max_work, rules, t0):
    """``reduce`` with ``given`` checked already (a search's, checked once
    by the spec), from the time ``t0``."""
    rounds = whole_number("rounds", rounds, optional=True)
    max_work = whole_number("max_work", max_work, optional=True)
    time_limit = check_seconds("time_limit", time_limit)
    A = arrays(problem, rules)
    deadline = None if time_limit is None else t0 + time_limit
    work_limit = np.iinfo(np.int64).max if max_work is None else max_work

    def out_of_budget() -> bool:
        return A.info[K.WORK] >= work_limit or (
            deadline is not None and time.perf_counter() >= deadline
        )

    def sweep(kernel, end: int) -> bool:
        """Run ``kernel`` over 0..end in slices; False if the budget ran
        out first."""
        at = 0
        while at < end:
            if out_of_budget():
                return False
            cap = min(work_limit, int(A.info[K.WORK]) + _SLICE)
            at = kernel(A, at, cap)
        return True

    K.force(A, np.asarray(given, np.int64))
    if A.info[K.INFEASIBLE] < 0:
        K.no_primary(A, bool(A.rules[K.NO_PRIMARY]))
    K.check_items(A)
    complete = False
    count = 0
    while A.info[K.INFEASIBLE] < 0:
        if rounds is not None and count >= rounds:
            break
        count += 1
        before = int(A.info[K.CHANGES])
        if not sweep(K.round_sweep, len(A.length)):
            break
        if A.info[K.CHANGES] == before:
            complete = True  # a round that changed nothing: a fixed point
            break
    infeasible = bool(A.info[K.INFEASIBLE] >= 0)
    return _reduction(
        problem, A, given, infeasible, count, complete or infeasible, t0
    )


def _reduction(problem, A, given, infeasible, rounds, complete, t0):
    """The ``Reduction`` from the kernel's arrays."""
    items = problem.items
    nprimary = len(problem.primary)
    why_item, why_option = A.why_item, A.why_option
    if infeasible:
        # Everything goes but the item that cannot be covered (DLX-PRE
        # writes that item alone).
        blocked = int(A.info[K.INFEASIBLE])
        why_item = np.where(why_item == K.ALIVE, _NO_SOLUTION, why_item)
        why_item[blocked] = K.ALIVE
        why_option = np.where(why_option == K.ALIVE, _NO_SOLUTION, why_option)
        reduced = type(problem)([items[blocked]])
    else:
        # Without "no-primary", "free-secondary" may strike out every item
        # of an option that has no primary item: it goes too.
        left = np.bincount(
            A.entry_option, weights=A.entry_alive, minlength=len(why_option)
        )
        why_option[(why_option == K.ALIVE) & (left == 0)] = K.NO_PRIMARY
        reduced = _rebuilt(problem, A)
    forced = set(given)
    if not infeasible:
        # An option alone in a primary item that must be covered is in
        # every solution.
        alone = np.zeros(len(items), bool)
        alone[:nprimary] = (
            (A.length[:nprimary] == 1)
            & (A.lower[:nprimary] >= 1)
            & (why_item[:nprimary] == K.ALIVE)
        )
        there = (
            alone[A.entry_item]
            & (A.entry_alive == 1)
            & (why_option[A.entry_option] == K.ALIVE)
        )
        forced.update(np.unique(A.entry_option[there]).tolist())
    return Reduction(
        reduced,
        np.flatnonzero(why_option == K.ALIVE),
        tuple(given),
        tuple(sorted(forced)),
        infeasible,
        rounds,
        int(A.info[K.WORK]),
        time.perf_counter() - t0,
        complete,
        why_option.astype(np.int64),
        why_item.astype(np.int64),
        items,
    )


def _rebuilt(problem, A):
    """The problem made of what survives in ``A``."""
    items = problem.items
    nprimary = len(problem.primary)
    alive = A.why_item == K.ALIVE
    primary = [items[i] for i in range(nprimary) if alive[i]]
    secondary = [items[i] for i in range(nprimary, len(items)) if alive[i]]
    bounds = {
        items[i]: (int(A.lower[i]), int(A.upper[i]))
        for i in range(nprimary)
        if alive[i] and (A.lower[i], A.upper[i]) != (1, 1)
    }
    # The problem's own class: this service does not import the model.
    reduced = type(problem)(primary, secondary, bounds=bounds or None)
    options = problem.options
    costs = problem.structure().costs  # each option keeps its cost
    colored = problem.kind != EXACT
    plain: list = []
    plain_costs: list = []
    entry_alive, start = A.entry_alive, A.option_start
    for k in np.flatnonzero(A.why_option == K.ALIVE):
        names = [
            name
            for name, keep in zip(
                options[k], entry_alive[start[k] : start[k + 1]]
            )
            if keep
        ]
        colors = problem.option_colors(k) if colored else None
        if colors:
            if plain:
                reduced.add_options(plain, costs=plain_costs)
                plain, plain_costs = [], []
            kept = set(names)
            reduced.add_option(
                names,
                {name: color for name, color in colors.items() if name in kept}
                or None,
                cost=int(costs[k]),
            )
        else:
            plain.append(names)
            plain_costs.append(int(costs[k]))
    if plain:
        reduced.add_options(plain, costs=plain_costs)
    return reduced


# -- searching the reduced problem ------------------------------------------
def _options(reduce_options) -> dict:
    """The keywords of ``reduce`` from ``reduce=True`` or ``reduce={...}``."""
    if reduce_options is True:
        return {}
    if isinstance(reduce_options, dict):
        unknown = set(reduce_options) - {
            "rounds",
            "time_limit",
            "max_work",
            "rules",
        }
        if unknown:
            raise ValueError(
                f"reduce={shorten(reduce_options)}: unknown keyword "
                f"{shorten(sorted(unknown)[0])} (rounds, time_limit, "
                f"max_work and rules are known)"
            )
        return dict(reduce_options)
    raise TypeError(
        f"reduce must be True, False or a dict of reduce's "
        f"keywords, got {shorten(reduce_options)}"[:200]
    )


def _reduced(problem, given, time_limit, reduce_options):
    """The reduction for a search, and the time left for the search.  With
    a ``time_limit``, the reduction gets at most half of it unless told
    otherwise."""
    options = _options(reduce_options)
    time_limit = check_seconds("time_limit", time_limit)
    if time_limit is not None:
        options.setdefault("time_limit", time_limit / 2)
    reduction = _reduce(
        problem,
        given,
        options.get("rounds"),
        options.get("time_limit"),
        options.get("max_work"),
        options.get("rules", RULES),
        time.perf_counter(),
    )
    if time_limit is not None:
        time_limit = max(0.0, time_limit - reduction.seconds)
    return reduction, time_limit


def count(
    problem,
    limit: int | None = None,
    *,
    given: Iterable[int] = (),
    time_limit: float | None = None,
    reduce=True,
    **options,
) -> int:
    """``problem.count(...)`` of the reduced problem: the same number.
    ``reduce`` is True or a dict of ``reduce``'s keywords; the other
    keywords go to ``ExactCover.count``, and ``problem.stats`` becomes the
    reduced search's."""
    reduction, time_limit = _reduced(problem, given, time_limit, reduce)
    found = reduction.problem.count(limit, time_limit=time_limit, **options)
    problem.stats = reduction.problem.stats
    return found


def solutions(
    problem,
    limit: int | None = None,
    *,
    given: Iterable[int] = (),
    time_limit: float | None = None,
    reduce=True,
    **options,
) -> Iterator[list[int]]:
    """``problem.solutions(...)`` found in the reduced problem, each as
    original option numbers (ascending)."""
    reduction, time_limit = _reduced(problem, given, time_limit, reduce)
    reduced = reduction.problem
    try:
        for solution in reduced.solutions(
            limit, time_limit=time_limit, **options
        ):
            problem.stats = reduced.stats
            yield reduction.to_original(solution)
    finally:
        problem.stats = reduced.stats


def best(
    problem,
    k: int = 1,
    *,
    given: Iterable[int] = (),
    time_limit: float | None = None,
    reduce=True,
    **options,
) -> list[tuple[int, list[int]]]:
    """``problem.best(k, ...)`` found in the reduced problem: ``(cost,
    original option numbers)`` pairs, the givens' cost added.  A budget's
    ``BudgetExhausted`` hands back what was found the same way."""
    reduction, time_limit = _reduced(problem, given, time_limit, reduce)
    return best_of(reduction, problem, k, time_limit=time_limit, **options)


def best_of(
    reduction: Reduction, problem, k: int = 1, **options
) -> list[tuple[int, list[int]]]:
    """``best`` over a reduction already made of ``problem``."""
    reduced = reduction.problem
    extra = reduction.given_cost(problem)

    def original(found):
        return [
            (cost + extra, reduction.to_original(options))
            for cost, options in found
        ]

    try:
        found = reduced.best(k, **options)
    except BudgetExhausted as stop:
        if hasattr(stop, "best"):
            stop.best = original(stop.best)
        raise
    finally:
        problem.stats = reduced.stats
    return original(found)


def solve(problem, **options) -> list[int] | None:
    """``problem.solve(...)`` found in the reduced problem, as original
    option numbers (ascending), or None."""
    for solution in solutions(problem, 1, **options):
        return solution
    return None
