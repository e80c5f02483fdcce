"""The public face of the engine: ``ExactCover``.

Vocabulary: an *item* is something to cover (a *primary* item exactly once,
a *secondary* item at most once); an *option* is a set of items; a
*solution* is a set of options that covers every primary item exactly once
and every secondary item at most once.  Options are numbered from 0 in the
order they were added, and solutions are lists of those numbers.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from typing import NamedTuple

import numpy as np

from . import validate
from .compact import (
    OptionStore,
    OptionsView,
    checked_colors,
    checked_csr,
    matrix_rows,
)
from .engines import COLORS, EXACT, MULTIPLICITIES
from .services import search
from .services.batch import BatchResult
from .services.search import BudgetExhausted, Interrupted, Stats
from .shorten import shorten

__all__ = [
    "ExactCover",
    "BatchResult",
    "BudgetExhausted",
    "Interrupted",
    "Stats",
    "Structure",
    "CSR",
]


class Structure(NamedTuple):
    """What every engine builds its arrays from (``ExactCover.structure``).

    ``nitems`` items, the first ``nprimary`` primary; ``members``: item
    numbers (1-based) option after option, ``sizes``: items per option
    (both int64); ``colors``: a color code per member (int32, 0 for none),
    or None when no option has a color; ``bounds``: ``{item number: (u,
    v)}`` for the primary items given bounds; ``costs``: each option's
    cost (int64).
    """

    nitems: int
    nprimary: int
    members: np.ndarray
    sizes: np.ndarray
    colors: np.ndarray | None
    bounds: dict
    costs: np.ndarray


class CSR(NamedTuple):
    """The problem as the model keeps it (``ExactCover.csr``): the compact
    form of ``Structure``, which big problems are built from.

    ``nitems`` items, the first ``nprimary`` primary; option ``j``'s items
    are ``indices[indptr[j]:indptr[j + 1]]``, item numbers counted from
    0 in the smallest integer type that holds them (uint8, uint16 or
    int32; ``indptr`` int32, or int64 past 2**31 members), read-only
    views of the model's arrays; ``colors``: a color code per member
    (int32, 0 for none), or None when no option has a color; ``bounds``:
    ``{item number (from 1): (u, v)}`` as in ``Structure``.
    """

    nitems: int
    nprimary: int
    indptr: np.ndarray
    indices: np.ndarray
    colors: np.ndarray | None
    bounds: dict


def _check_name(name, where: str):
    try:
        hash(name)
    except TypeError:
        raise ValueError(
            f"{where}: item name {shorten(name)} is not hashable"
        ) from None


def _count(name: str, value) -> int:
    """``value`` as a number of items (an int >= 0)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(
        value, (int, np.integer)
    ):
        raise TypeError(
            f"{name} must be an integer, got {shorten(value)}"[:200]
        )
    if value < 0:
        raise ValueError(f"{name} must be >= 0, got {value}")
    return int(value)


class ExactCover:
    """An exact-cover problem: items, options, and a DLX search over them.

    >>> p = ExactCover("abcde", secondary="fg")
    >>> for option in ["cef", "adg", "bcf", "ad", "bg", "deg"]:
    ...     _ = p.add_option(option)
    >>> p.solve()
    [0, 3, 4]
    >>> [p.options[i] for i in p.solve()]
    [('c', 'e', 'f'), ('a', 'd'), ('b', 'g')]

    A string given as a whole list of items (as above) is read one character
    per item; give a list to use longer names.
    """

    def __init__(
        self,
        primary: Iterable[Hashable] = (),
        secondary: Iterable[Hashable] = (),
        *,
        bounds: dict | None = None,
    ):
        self.primary: tuple = tuple(primary)
        self.secondary: tuple = tuple(secondary)
        self.items: tuple = self.primary + self.secondary
        self._index: dict = {}
        for k, name in enumerate(self.items):
            _check_name(name, "items")
            if name in self._index:
                raise ValueError(f"item {shorten(name)} is named twice")
            self._index[name] = k + 1
        # The options, as compressed sparse rows (item numbers from 0)
        # with their sparse colors: see dlx.compact.
        self._store = OptionStore(len(self.items))
        self._options_view: OptionsView | None = None
        # Costs (DLX5): the options whose cost is not 0, {option: cost}
        # (most problems have none, and bulk ones pay nothing for them).
        self._costs: dict = {}
        # What costs and cost_array() made, kept until _changed().
        self._cost_tuple: tuple | None = None
        self._cost_cache: np.ndarray | None = None

        # What the engines build from, and built (``built``): kept until
        # the problem changes.
        self._structure: Structure | None = None
        self._arrays: dict = {}
        self._runs = threading.local()
        # Colors and multiplicities: {color: code} (codes from 1, kept
        # per colored member in the store) and back (code - 1: color),
        # and {item number: (u, v)} for bounded primary items.
        self._color_codes: dict = {}
        self._colors: list = []
        self._bounds = validate.check_bounds(
            bounds, self._index, len(self.primary)
        )

    # -- building -----------------------------------------------------
    @classmethod
    def from_arrays(
        cls,
        indptr,
        indices,
        n_primary: int,
        n_secondary: int = 0,
        *,
        colors=None,
        names=None,
        bounds: dict | None = None,
        costs=None,
    ) -> ExactCover:
        """A problem from its options as compressed sparse rows: option
        ``i``'s items are ``indices[indptr[i]:indptr[i + 1]]``, items
        numbered from 0, the ``n_primary`` primary items first, then the
        ``n_secondary`` secondary ones (numpy arrays, or anything
        ``numpy.asarray`` reads as 1-D integer arrays).

        ``names`` (one per item, primary first) names the items; without
        it they are named by number (``0 .. n_primary + n_secondary -
        1``).  ``colors`` (one integer per entry of ``indices``, 0 for
        none) colors secondary items; ``bounds`` as in ``ExactCover``;
        ``costs`` (one whole number per option, 0 to 2**63 - 1) are the
        options' costs for ``best``.
        Options may list their items in any order; an option without a
        primary item is kept, as everywhere in the model (it can be
        given, and is never chosen by a search), and so is one without
        items (it covers nothing).  A ValueError names the first
        offending option of an item out of range or listed twice, or of a
        misplaced color.  No Python object is made per option: see
        ``docs/bulk.md``.
        """
        n_primary = _count("n_primary", n_primary)
        n_secondary = _count("n_secondary", n_secondary)
        nitems = n_primary + n_secondary
        if names is None:
            primary, secondary = range(n_primary), range(n_primary, nitems)
        else:
            names = tuple(names)
            if len(names) != nitems:
                raise ValueError(
                    f"names has {len(names)} entries for "
                    f"{n_primary} + {n_secondary} items"
                )
            primary, secondary = names[:n_primary], names[n_primary:]
        problem = cls(primary, secondary, bounds=bounds)
        problem.add_arrays(indptr, indices, colors=colors, costs=costs)
        return problem

    def add_arrays(self, indptr, indices, *, colors=None, costs=None) -> range:
        """Add options given as compressed sparse rows (as
        ``from_arrays`` takes them: items numbered from 0 in the order of
        ``items``, with their ``colors`` and ``costs``); returns their
        numbers.  All or nothing: when one is bad, none is added."""
        return self._add_rows(indptr, indices, colors, costs=costs)

    def _add_rows(
        self, indptr, indices, colors, repeats=True, costs=None
    ) -> range:
        indptr, indices = checked_csr(
            indptr, indices, len(self.items), repeats
        )
        if costs is not None:
            costs = _checked_costs(costs, len(indptr) - 1, len(self))
        at = code = None
        if colors is not None:
            at, values = checked_colors(
                colors, indptr, indices, len(self.primary)
            )
            code = self._codes_of(values)
        first = len(self)
        self._store.extend(indptr, indices, at, code)
        if costs is not None:
            for k in np.flatnonzero(costs).tolist():
                self._costs[first + k] = int(costs[k])
        self._changed()
        return range(first, len(self))

    def _codes_of(self, values: np.ndarray) -> np.ndarray:
        """The color codes of ``values`` (positive integers), new colors
        coded in the order they first appear."""
        distinct, first, inverse = np.unique(
            values, return_index=True, return_inverse=True
        )
        codes = np.zeros(len(distinct), np.int32)
        for k in np.argsort(first, kind="stable").tolist():
            codes[k] = self._code(distinct[k].item())
        return codes[inverse.reshape(-1)]

    def _code(self, color) -> int:
        code = self._color_codes.get(color)
        if code is None:
            self._colors.append(color)
            code = self._color_codes[color] = len(self._colors)
        return code

    @classmethod
    def from_matrix(cls, matrix, secondary: int = 0) -> ExactCover:
        """A problem from a 0/1 matrix: rows are options, columns items.

        ``matrix`` is a 2-D array (anything ``numpy.asarray`` reads) or a
        ``scipy.sparse`` matrix or array (CSR, CSC, COO, ...; scipy is
        needed only to make one).  Items are named by column number; the
        last ``secondary`` columns are secondary items.  An all-zero row
        is an option that covers nothing: it keeps its number and is
        never part of a solution.
        """
        indptr, indices, ncols = matrix_rows(matrix)
        if not 0 <= secondary <= ncols:
            raise ValueError(
                f"secondary={secondary} is not between 0 and "
                f"the {ncols} columns"
            )
        problem = cls(
            range(ncols - secondary), range(ncols - secondary, ncols)
        )
        problem._add_rows(indptr, indices, None, repeats=False)
        return problem

    def add_option(
        self,
        items: Iterable[Hashable],
        colors: dict | None = None,
        cost: int = 0,
    ) -> int:
        """Add an option (a set of items); returns its number.

        ``colors`` gives secondary items of the option a color (any
        hashable): ``{item: color}``.  ``cost`` (a whole number from 0 to
        2**63 - 1) is what the option costs in ``best``.
        """
        index = len(self)
        return self._add(
            [self._checked_option(index, items, colors)],
            [_checked_cost(cost, f"option {index}")],
        )[0]

    def add_options(
        self,
        options: Iterable[Iterable[Hashable]],
        costs: Iterable[int] | None = None,
    ) -> list[int]:
        """Add several options; returns their numbers.  ``costs``, when
        given, has one cost per option (see ``add_option``).  All or
        nothing: when one is bad, none is added."""
        first = len(self)
        checked = [
            self._checked_option(first + k, items, None)
            for k, items in enumerate(options)
        ]
        if costs is not None:
            costs = [
                _checked_cost(c, f"option {first + k}")
                for k, c in enumerate(costs)
            ]
            if len(costs) != len(checked):
                raise ValueError(
                    f"costs has {len(costs)} entries for "
                    f"{len(checked)} options"
                )
        return self._add(checked, costs)

    def _add(self, checked, costs=None) -> list[int]:
        """Add options checked by ``_checked_option``, with their costs
        (None: all 0)."""
        first = len(self)
        numbers, sizes, colored = [], [], {}
        for k, (_, option, colors) in enumerate(checked):
            numbers.extend(option)
            sizes.append(len(option))
            if colors:
                colored[k] = {
                    at: self._code(color) for at, color in colors.items()
                }
        self._store.append(numbers, sizes, colored)
        for k, cost in enumerate(costs or ()):
            if cost:
                self._costs[first + k] = cost
        self._changed()
        return list(range(first, first + len(checked)))

    def _checked_option(self, index: int, items, colors):
        """``(names, item numbers, colors)`` of option ``index``, or
        ValueError."""
        if isinstance(items, (str, bytes)) and not all(
            ch in self._index for ch in items
        ):
            raise ValueError(
                f"option {index} {shorten(items)}: a string is "
                f"read as one item per character; pass a list "
                f"of names"
            )
        try:
            names = tuple(items)
        except TypeError:
            raise ValueError(
                f"option {index}: {shorten(items)} is not an iterable of items"
            ) from None
        if not names:
            raise ValueError(
                f"option {index} is empty; every option needs "
                f"at least one item"
            )
        # One lookup per name at C speed; anything amiss (an unhashable,
        # unknown or repeated name) goes the long way, which says what.
        numbers: list | None
        try:
            numbers = list(map(self._index.get, names))
        except TypeError:
            numbers = None
        if (
            numbers is None
            or None in numbers
            or len(set(numbers)) != len(numbers)
        ):
            numbers = self._item_numbers(names, f"option {index}")
        if colors:
            colors = validate.check_colors(
                colors,
                names,
                self._index,
                len(self.primary),
                f"option {index}",
            )
        return names, numbers, colors

    def _item_numbers(self, names: tuple, where: str) -> list[int]:
        """The item numbers of ``names``, or ValueError naming the first
        that is unhashable, unknown or repeated."""
        numbers = []
        seen = set()
        for name in names:
            _check_name(name, where)
            k = self._index.get(name)
            if k is None:
                raise ValueError(
                    f"{where} {shorten(list(names))}: unknown item "
                    f"{shorten(name)}"
                )
            if k in seen:
                raise ValueError(
                    f"{where} {shorten(list(names))}: item {shorten(name)} "
                    f"appears twice"
                )
            seen.add(k)
            numbers.append(k)
        return numbers

    @property
    def options(self) -> Sequence[tuple]:
        """``options[i]`` is the tuple of item names of option ``i``
        (made when read: the model keeps item numbers, see
        ``dlx.compact``)."""
        if self._options_view is None:
            indptr, indices = self._store.arrays()
            self._options_view = OptionsView(self.items, indptr, indices)
        return self._options_view

    @property
    def costs(self) -> tuple:
        """``costs[i]`` is the cost of option ``i`` (0 unless given), a
        Python int.  Made once and kept until the problem changes, so
        that reading ``costs[k]`` in a loop costs O(1), not O(options);
        ``cost_of(k)`` reads one cost without making the tuple."""
        if self._cost_tuple is None:
            self._cost_tuple = tuple(self.cost_array().tolist())
        return self._cost_tuple

    def cost_of(self, option: int) -> int:
        """The cost of option ``option`` (0 unless given), in O(1)."""
        if not -len(self) <= option < len(self):
            raise IndexError(
                f"option {option} is out of range (0 to {len(self) - 1})"
            )
        return self._costs.get(option % len(self), 0)

    def cost_array(self) -> np.ndarray:
        """Each option's cost, as a read-only int64 array (0 unless
        given), made once and kept until the problem changes."""
        if self._cost_cache is None:
            costs = np.zeros(len(self), np.int64)
            if self._costs:
                where = np.fromiter(self._costs, np.int64, len(self._costs))
                costs[where] = np.fromiter(
                    self._costs.values(), np.int64, len(self._costs)
                )
            costs.setflags(write=False)
            self._cost_cache = costs
        return self._cost_cache

    def __len__(self) -> int:
        return len(self._store)

    def __repr__(self) -> str:
        return (
            f"<ExactCover: {len(self.primary)} primary + "
            f"{len(self.secondary)} secondary items, "
            f"{len(self)} options>"
        )

    @property
    def bounds(self) -> dict:
        """``{item: (u, v)}`` for the primary items given bounds (a bound
        above ``dlx.validate.MAX_BOUND``, more than any item's options, is kept
        as ``MAX_BOUND``: the same solutions)."""
        return {self.items[k - 1]: uv for k, uv in self._bounds.items()}

    def option_colors(self, option: int) -> dict:
        """``{item: color}`` for the colored items of ``option``."""
        colored = self._store.option_colors(option)
        if not colored:
            return {}
        numbers = self._store.option(option)
        return {
            self.items[numbers[at]]: self._colors[code - 1]
            for at, code in colored.items()
        }

    def option_line(self, option: int) -> str:
        """Option ``option`` as a line of Knuth's format writes it: its
        items' names, a colored one as ``name:color``."""
        colors = self.option_colors(option)
        return " ".join(
            str(x) if x not in colors else f"{x}:{colors[x]}"
            for x in self.options[option]
        )

    def solution_colors(self, solution: Iterable[int]) -> dict:
        """``{item: color}``: the color each secondary item ends with in
        ``solution`` (a list of option numbers); uncolored items are left
        out."""
        colors = {}
        for k in solution:
            colors.update(self.option_colors(k))
        return colors

    @property
    def kind(self) -> str:
        """Which of Knuth's programs reads this problem:
        ``dlx.engines.EXACT`` (DLX1), ``COLORS`` (DLX2) or
        ``MULTIPLICITIES`` (DLX3)."""
        if any(uv != (1, 1) for uv in self._bounds.values()):
            return MULTIPLICITIES
        return COLORS if self._store.colored else EXACT

    def csr(self) -> CSR:
        """The problem as the model keeps it: options as compressed sparse
        rows, item numbers from 0 in a compact type (see ``CSR``); what
        the engines build from.  No copy of the options is made."""
        indptr, indices = self._store.arrays()
        return CSR(
            len(self.items),
            len(self.primary),
            indptr,
            indices,
            self._store.member_colors(),
            dict(self._bounds),
        )

    def structure(self) -> Structure:
        """The problem as numbers (item numbers from 1 and sizes, int64),
        built once from ``csr()``, and again after a change."""
        if self._structure is None:
            c = self.csr()
            members = c.indices.astype(np.int64)
            members += 1
            self._structure = Structure(
                c.nitems,
                c.nprimary,
                members,
                np.diff(c.indptr).astype(np.int64),
                c.colors,
                c.bounds,
                self.cost_array(),
            )
        return self._structure

    def built(self, key: str, build):
        """The arrays ``build(self)`` makes, kept under ``key`` until the
        problem changes (``Engine.arrays`` asks for them)."""
        arrays = self._arrays.get(key)
        if arrays is None:
            arrays = self._arrays[key] = build(self)
        return arrays

    def _changed(self) -> None:
        self._cost_tuple = None
        self._cost_cache = None
        self._structure = None
        self._arrays = {}
        self._options_view = None

    @property
    def stats(self) -> Stats:
        """The record of the run that searched last in this thread (each
        thread sees its own, so threads may share one problem)."""
        stats = getattr(self._runs, "stats", None)
        if stats is None:
            stats = self._runs.stats = Stats()
        return stats

    @stats.setter
    def stats(self, value: Stats) -> None:
        self._runs.stats = value

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        for transient in (
            "_structure",
            "_arrays",
            "_runs",
            "_options_view",
            "_cost_tuple",
            "_cost_cache",
        ):
            state.pop(transient, None)
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._structure = None
        self._arrays = {}
        self._runs = threading.local()
        self._options_view = None
        self._cost_tuple = None
        self._cost_cache = None

    def given_options(self, given: Iterable[int]) -> list[int]:
        """``given`` checked: option numbers, each once, in the order first
        met (a TypeError for a non-integer, a ValueError for an option that
        does not exist or covers nothing)."""
        options = []
        for option in dict.fromkeys(given):
            if isinstance(option, (bool, np.bool_)) or not isinstance(
                option, (int, np.integer)
            ):
                raise TypeError(
                    f"given option {shorten(option)} is not an option number"[
                        :200
                    ]
                )
            if not 0 <= option < len(self):
                raise ValueError(
                    f"given option {option} does not exist "
                    f"(there are {len(self)})"
                )
            if not self._store.size(option):
                raise ValueError(EMPTY_GIVEN.format(option))
            options.append(int(option))
        return options

    def check_given_array(self, flat: np.ndarray) -> None:
        """``given_options``'s checks over a flat int64 array of option
        numbers at once (a batch's givens): a ValueError names the first
        that does not exist or covers nothing."""
        noptions = len(self)
        if not len(flat):
            return
        if flat.min() < 0 or flat.max() >= noptions:
            bad = flat[(flat < 0) | (flat >= noptions)][0]
            raise ValueError(
                f"given option {bad} does not exist (there are {noptions})"
            )
        indptr = self._store.arrays()[0]
        sizes = indptr[flat + 1] - indptr[flat]
        if not sizes.all():
            raise ValueError(EMPTY_GIVEN.format(flat[sizes == 0][0]))

    def to_matrix(self) -> np.ndarray:
        """The 0/1 matrix (options x items, primary columns first): with
        ``from_matrix(m, secondary=len(p.secondary))`` the same problem.

        A matrix has no room for colors or bounds: a problem with either
        is refused with a ``ValueError`` (``dlx.dumps`` writes it whole).
        """
        if self._store.colored:
            k = next(k for k in range(len(self)) if self.option_colors(k))
            raise ValueError(
                f"to_matrix: a 0/1 matrix cannot hold colors "
                f"(option {k} has some); dlx.dumps writes "
                f"the problem whole"
            )
        bounded = [
            (name, uv) for name, uv in self.bounds.items() if uv != (1, 1)
        ]
        if bounded:
            name, (u, v) = bounded[0]
            raise ValueError(
                f"to_matrix: a 0/1 matrix cannot hold bounds "
                f"(item {shorten(name)} has {u}..{v}); "
                f"dlx.dumps writes the problem whole"
            )
        indptr, indices = self._store.arrays()
        a = np.zeros((len(self), len(self.items)), np.int8)
        rows = np.repeat(np.arange(len(self)), np.diff(indptr))
        a[rows, indices] = 1
        return a

    # -- solving ---
    def solve(
        self,
        *,
        given: Iterable[int] = (),
        max_nodes: int | None = None,
        time_limit: float | None = None,
        mrv_cutoff: int = 0,
        algorithm: str = "auto",
        stop=None,
        reduce=False,
    ) -> list[int] | None:
        """The first solution (option numbers, ascending), or None.

        ``given`` lists options that every solution must contain: they are
        chosen before the search and are part of the answer.  Raises
        ``BudgetExhausted`` if ``max_nodes`` or ``time_limit`` (seconds)
        stops the search before it finds a solution or proves there is none,
        or once ``stop`` (an event with ``is_set()``, such as a
        ``threading.Event``: every search method takes one) is set, and
        ``Interrupted`` on Ctrl-C.

        ``mrv_cutoff`` (every search method has it): the item to branch on
        is the first active primary item with the fewest options, and the
        scan for it stops at the first item with at most ``mrv_cutoff``
        options.  0 (the default) is DLX1's rule exactly; 1 branches on the
        first forced item at once, which is often faster on Sudoku-like
        problems though it may visit more nodes.  ``algorithm="cells"``
        always stops at the first item with one option, as SSXC1 does.

        ``algorithm`` (every search method has it): ``"links"`` is Knuth's
        DLX1 (dancing links; DLX2 with colors, DLX3 with bounds),
        ``"cells"`` his SSXC1 (dancing cells: sparse sets; SSXCC with
        colors, SSMCC with bounds), ``"auto"`` (the default) picks the one
        that measured faster for problems of this shape (see
        ``dlx.engines.registry``).  Both find the same solutions, in their
        own order; ``stats`` counts nodes and updates as the chosen
        program counts them.
        """
        for solution in self.solutions(
            1,
            given=given,
            max_nodes=max_nodes,
            time_limit=time_limit,
            mrv_cutoff=mrv_cutoff,
            algorithm=algorithm,
            stop=stop,
            reduce=reduce,
        ):
            return solution
        return None

    def count(
        self,
        limit: int | None = None,
        *,
        given: Iterable[int] = (),
        max_nodes: int | None = None,
        time_limit: float | None = None,
        threads: int = 1,
        mrv_cutoff: int = 0,
        algorithm: str = "auto",
        memo=False,
        memo_bytes: int | None = None,
        choose: str = "auto",
        jobs: int | None = None,
        executor=None,
        checkpoint=None,
        progress=None,
        split_jobs: int | None = None,
        stop=None,
        reduce=False,
    ) -> int:
        """How many solutions, without storing them; at most ``limit``.

        ``count(limit=2) == 1`` proves a solution unique.  Raises
        ``BudgetExhausted`` (with the partial ``count``) when a budget stops
        the search first, and ``Interrupted`` (likewise) on Ctrl-C.
        ``threads`` > 1 (0: one per core) splits the top of the search tree
        into subtrees counted in parallel; it counts the whole tree, so it
        combines with ``time_limit`` but not with ``limit`` or
        ``max_nodes``.  The count, nodes and updates are the same as with
        one thread (with ``algorithm="cells"``, the count: each subtree
        breaks SSXC1's ties in its own item order).

        ``memo=True`` remembers the count of every subproblem (keyed by its
        set of active items) in a table of at most ``memo_bytes`` bytes
        (default 256 MiB), so counts in the billions and beyond cost far
        fewer nodes when subproblems repeat (tilings of boards); ``choose``
        is its item choice rule (``"mrv"``, ``"first"`` or ``"auto"``) and
        ``stats`` becomes a ``dlx.memo.MemoStats``.  ``memo="auto"`` keeps
        the memo only where it pays (see ``dlx.memo.count``).  A memoized
        count combines with ``given``, ``max_nodes`` and ``time_limit``,
        not with ``limit``, ``threads``, ``mrv_cutoff``, an ``algorithm``
        other than ``"auto"``, or bounds (colors it counts, see
        ``dlx.memo``).

        For long counts (see ``dlx.jobs``): ``jobs=N`` counts the tree as
        independent jobs on N processes (0: one per core), ``executor=``
        on any ``concurrent.futures.Executor`` (a Dask cluster's too),
        ``checkpoint=FILE`` records each finished job so that the same
        call resumes after a crash, and ``split_jobs`` sets how many jobs.
        ``progress=True`` draws a bar on stderr, and a callable receives a
        ``dlx.jobs.Progress`` as the count goes (a few times a second),
        with or without jobs.  Which arguments go together: the table in
        ``dlx.services.counting``.

        ``reduce=True`` (every search method has it; or a dict of
        ``dlx.services.reduce.reduce``'s keywords) searches the problem
        reduced by Knuth's DLX-PRE rules (see ``reduce``): the same
        solutions, as original option numbers.
        """
        count: Callable[..., int]
        if reduce:
            from .services.reduce import count as reduced_count

            count = functools.partial(reduced_count, reduce=reduce)
        else:
            from .services.counting import count
        return count(
            self,
            limit,
            given=given,
            max_nodes=max_nodes,
            time_limit=time_limit,
            threads=threads,
            mrv_cutoff=mrv_cutoff,
            algorithm=algorithm,
            memo=memo,
            memo_bytes=memo_bytes,
            choose=choose,
            jobs=jobs,
            executor=executor,
            checkpoint=checkpoint,
            progress=progress,
            split_jobs=split_jobs,
            stop=stop,
        )

    def best(
        self,
        k: int = 1,
        *,
        given: Iterable[int] = (),
        max_nodes: int | None = None,
        time_limit: float | None = None,
        threads: int = 1,
        jobs: int | None = None,
        executor=None,
        split_jobs: int | None = None,
        checkpoint=None,
        progress=None,
        stop=None,
        reduce=False,
    ) -> list[tuple[int, list[int]]]:
        """The ``k`` cheapest solutions, cheapest first, as ``(cost,
        option numbers)`` pairs (ties in any order; fewer when there are
        fewer solutions, ``[]`` when none).  Knuth's DLX5: see
        ``dlx.services.best`` (budgets, ``stop`` and Ctrl-C raise
        ``BudgetExhausted``/``Interrupted`` with ``best``, what was found,
        not proven optimal).  ``threads`` > 1 splits the search over
        threads that share the best found so far; ``jobs=N`` over N
        processes (0: one per core, 1: jobs in this process) and
        ``executor=`` over any ``concurrent.futures.Executor`` (Dask's
        too), each job given the best found so far when it is sent.  No
        checkpoints.  ``progress``: as for ``count``."""
        if reduce:  # see count(reduce=...)
            from .services.reduce import best as reduced_best

            return reduced_best(
                self,
                k,
                given=given,
                max_nodes=max_nodes,
                time_limit=time_limit,
                threads=threads,
                jobs=jobs,
                executor=executor,
                split_jobs=split_jobs,
                checkpoint=checkpoint,
                progress=progress,
                stop=stop,
                reduce=reduce,
            )
        from .services.best import best

        return best(
            self,
            k,
            given=given,
            max_nodes=max_nodes,
            time_limit=time_limit,
            threads=threads,
            jobs=jobs,
            executor=executor,
            split_jobs=split_jobs,
            checkpoint=checkpoint,
            progress=progress,
            stop=stop,
        )

    def zdd(
        self,
        *,
        given: Iterable[int] = (),
        max_nodes: int | None = None,
        time_limit: float | None = None,
        memo_bytes: int | None = None,
        zdd_bytes: int | None = None,
        choose: str = "auto",
    ):
        """Every solution at once: a ``dlx.ZDD`` built by the memoized
        search of ``count(memo=True)`` (see ``dlx.services.zdd``; ``memo_bytes``
        and ``choose`` as there, ``zdd_bytes`` limits the diagram: default
        1 GiB).  Raises ``BudgetExhausted`` when ``max_nodes``,
        ``time_limit`` or ``zdd_bytes`` stops it, ``Interrupted`` on
        Ctrl-C: a partial diagram is never returned."""
        from .services.zdd import build

        return build(
            self,
            given,
            max_nodes,
            time_limit,
            memo_bytes=memo_bytes,
            zdd_bytes=zdd_bytes,
            choose=choose,
        )

    def reduce(self, **options):
        """This problem made smaller by Knuth's DLX-PRE rules, with the map
        back to its options: a ``dlx.services.reduce.Reduction`` (see
        ``dlx.services.reduce.reduce`` for ``given``, ``rounds``,
        ``time_limit``, ``max_work`` and ``rules``)."""
        from .services.reduce import reduce

        return reduce(self, **options)

    def estimate(
        self,
        probes: int = 10_000,
        *,
        seed: int = 0,
        given: Iterable[int] = (),
        mrv_cutoff: int = 0,
        algorithm: str = "auto",
    ):
        """Knuth's Monte Carlo estimate of what ``count()`` would do:
        nodes, updates and solutions with standard errors, and the time
        (a ``dlx.services.estimate.Estimate``).  ``probes`` random
        root-to-leaf walks of the tree of the engine ``algorithm`` picks,
        reproducible for a given ``seed``."""
        from .services.estimate import estimate

        return estimate(
            self,
            probes,
            seed=seed,
            given=given,
            mrv_cutoff=mrv_cutoff,
            algorithm=algorithm,
        )

    def solutions(
        self,
        limit: int | None = None,
        *,
        given: Iterable[int] = (),
        max_nodes: int | None = None,
        time_limit: float | None = None,
        mrv_cutoff: int = 0,
        algorithm: str = "auto",
        stop=None,
        reduce=False,
    ) -> Iterator[list[int]]:
        """Stream solutions lazily, each a sorted list of option numbers.

        The jitted search pauses after each batch of solutions and resumes
        where it stopped, so taking the first few is cheap whatever the
        total.  Raises ``BudgetExhausted`` when a budget (or ``stop``)
        stops the search (after yielding every solution found before the
        stop), and ``Interrupted`` on Ctrl-C.
        """
        if reduce:
            from .services.reduce import solutions

            return solutions(
                self,
                limit,
                given=given,
                max_nodes=max_nodes,
                time_limit=time_limit,
                mrv_cutoff=mrv_cutoff,
                algorithm=algorithm,
                stop=stop,
                reduce=reduce,
            )
        from .engines import engine_for, refuse

        limit = search.whole_number("limit", limit, optional=True)
        max_nodes = search.whole_number("max_nodes", max_nodes, optional=True)
        time_limit = search.seconds("time_limit", time_limit)
        cutoff = search.whole_number("mrv_cutoff", mrv_cutoff)
        stop = search.stop_event(stop)
        given = self.given_options(given)
        engine = engine_for(self, algorithm)
        if not engine.streams:
            raise refuse("listing solutions", self.kind, engine)
        return self._stream(
            engine, limit, given, max_nodes, time_limit, cutoff, stop
        )

    def _stream(
        self, engine, limit, given, max_nodes, time_limit, cutoff, stop
    ):
        for batch in search.problem_search(
            self,
            engine,
            limit=limit,
            given=given,
            max_nodes=max_nodes,
            time_limit=time_limit,
            cutoff=cutoff,
            store=True,
            stop=stop,
        ):
            yield from batch

    def solve_batch(
        self,
        givens,
        *,
        starts=None,
        limit: int = 2,
        max_nodes: int | None = None,
        threads: int = 1,
        mrv_cutoff: int = 0,
        algorithm: str = "auto",
        stop=None,
        time_limit: float | None = None,
    ) -> BatchResult:
        """Solve many instances of this problem in one jitted call.

        Instance ``b`` must contain the options ``givens[b]`` (option
        numbers; one listed twice counts once).  With ``starts``, ``givens``
        is instead one flat int array in CSR form: instance ``b`` has
        ``givens[starts[b]:starts[b + 1]]`` (build it with numpy for
        millions of instances).  Each instance is searched until ``limit``
        solutions (``limit=2`` checks uniqueness) and its first solution is
        kept.  ``max_nodes`` bounds the search of each instance.
        ``threads`` > 1 shares the instances among that many threads (0: one
        per core); the answers do not depend on it.  Ctrl-C stops every
        thread at once and raises ``Interrupted``; ``stop`` (an event)
        stops them too, and ``time_limit`` (seconds for the whole batch)
        when it runs out, raising ``BudgetExhausted``.  Returns a
        ``dlx.services.batch.BatchResult``.
        """
        from .services.batch import solve_batch

        return solve_batch(
            self,
            givens,
            starts=starts,
            limit=limit,
            max_nodes=max_nodes,
            threads=threads,
            mrv_cutoff=mrv_cutoff,
            algorithm=algorithm,
            stop=stop,
            time_limit=time_limit,
        )


#: A given option that covers nothing (an all-zero row of a matrix).
EMPTY_GIVEN = (
    "given option {} is empty (an all-zero matrix row): it "
    "covers nothing and is never part of a solution"
)


#: The largest cost of an option (a solution's, a sum, may be larger:
#: ``best`` prices it exactly, in Python ints; see docs/costs.md).
MAX_COST = (1 << 63) - 1


def _checked_costs(costs, noptions: int, first: int) -> np.ndarray:
    """``costs`` of ``noptions`` options given as an array: whole numbers
    from 0 to ``MAX_COST``, one per option; a ValueError names the first
    bad one (numbered as the options it goes with, from ``first``)."""
    a = np.asarray(costs)
    if a.ndim != 1 or len(a) != noptions:
        raise ValueError(
            f"costs must hold one cost per option ({noptions}),"
            f" got shape {a.shape}"
        )
    if len(a) and a.dtype.kind not in "iu":
        raise TypeError(f"costs must be whole numbers, got {a.dtype}")
    a = a.astype(np.int64) if a.dtype.kind == "i" or len(a) == 0 else a
    if len(a) and (a < 0).any():
        k = int(np.flatnonzero(a < 0)[0])
        raise ValueError(
            f"option {first + k}: cost {int(a[k])} is not "
            f"between 0 and 2**63 - 1"
        )
    if a.dtype == np.uint64 and len(a) and (a > MAX_COST).any():
        k = int(np.flatnonzero(a > MAX_COST)[0])
        raise ValueError(
            f"option {first + k}: cost {int(a[k])} is not "
            f"between 0 and 2**63 - 1"
        )
    return a


def _checked_cost(cost, where: str) -> int:
    """An option's cost: a whole number from 0 to ``MAX_COST``."""
    if isinstance(cost, (bool, np.bool_)) or not isinstance(
        cost, (int, np.integer)
    ):
        raise TypeError(
            f"{where}: cost must be an integer, got {shorten(cost)}"[:200]
        )
    if not 0 <= cost <= MAX_COST:
        raise ValueError(
            f"{where}: cost {cost} is not between 0 and 2**63 - 1"
        )
    return int(cost)
