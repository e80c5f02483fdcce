"""The public face of the engine: ``ExactCover``.

Vocabulary: an *item* is something to cover (a *primary* item exactly once,
a *secondary* item at most once); an *option* is a set of items; a
*solution* is a set of options that covers every primary item exactly once
and every secondary item at most once.  Options are numbered from 0 in the
order they were added, and solutions are lists of those numbers.
"""

from __future__ import annotations

import threading
from collections.abc import Hashable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

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
from .options import (
    GROUPS,
    OPTIONS,
    RENAMED,
    Budget,
    Checked,
    Method,
    Workers,
    check,
    gather,
    is_default,
    renamed,
)
from .services import search
from .services.batch import BatchResult
from .services.search import BudgetExhausted, Interrupted, Stats
from .shorten import shorten

if TYPE_CHECKING:
    from .services.estimate import Estimate
    from .services.reduce import Reduction
    from .services.zdd import ZDD

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

    Args:
        primary: The primary items' names (each covered exactly once, or
            within its bounds); any hashable values, each named once.
        secondary: The secondary items' names (each covered at most once,
            or by options that agree on its color).
        bounds: ``{item: (u, v)}`` or ``{item: v}`` (for ``v..v``): a
            primary item covered at least ``u`` and at most ``v`` times,
            ``0 <= u <= v``, ``v >= 1`` (Knuth's DLX3); other primary
            items stay ``1..1``.

    Raises:
        ValueError: An item named twice or not hashable, or a bad bound
            (naming the item).
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

        Args:
            indptr: Where each option starts in ``indices``: ``noptions +
                1`` non-decreasing offsets from 0 to ``len(indices)``.
            indices: The options' item numbers, from 0.
            n_primary: How many primary items (an int >= 0).
            n_secondary: How many secondary items (an int >= 0).
            colors: One integer per entry of ``indices`` (0: no color),
                on secondary items only.
            names: One name per item, primary first (default: the item
                numbers).
            bounds: As ``ExactCover`` takes them.
            costs: One whole number per option, 0 to 2**63 - 1.

        Returns:
            The new problem, its options numbered from 0 in row order.

        Raises:
            TypeError: ``n_primary``, ``n_secondary`` or ``costs`` of the
                wrong type.
            ValueError: A bad count, ``names`` of the wrong length, or the
                first bad option (an item out of range or listed twice, a
                misplaced color, a cost out of range).
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
        numbers.  All or nothing: when one is bad, none is added.

        Args:
            indptr: Where each option starts in ``indices``.
            indices: The options' item numbers, from 0.
            colors: One integer per entry of ``indices`` (0: no color).
            costs: One whole number per option, 0 to 2**63 - 1.

        Returns:
            The new options' numbers.

        Raises:
            TypeError: ``costs`` that are not whole numbers.
            ValueError: The first bad option (an item out of range or
                listed twice, a misplaced color, a cost out of range).
        """
        return self._add_rows(indptr, indices, colors, costs=costs)

    def _add_rows(
        self, indptr, indices, colors, repeats=True, costs=None
    ) -> range:
        # Errors name options by their numbers in the problem.
        indptr, indices = checked_csr(
            indptr, indices, len(self.items), repeats, first=len(self)
        )
        if costs is not None:
            costs = _checked_costs(costs, len(indptr) - 1, len(self))
        at = code = None
        if colors is not None:
            at, values = checked_colors(
                colors, indptr, indices, len(self.primary), first=len(self)
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

        Args:
            matrix: A 2-D 0/1 array (rows: options, columns: items) or a
                ``scipy.sparse`` matrix or array.
            secondary: How many of the last columns are secondary items,
                from 0 to the number of columns.

        Returns:
            The problem, option ``i`` being row ``i``.

        Raises:
            ValueError: A matrix that is not 2-D, an entry other than 0
                or 1 (naming it), or ``secondary`` out of range.
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

        Args:
            items: The option's item names, each once (a string is read as
                one item per character when every character is an item).
            colors: ``{item: color}`` for secondary items of the option.
            cost: What the option costs, 0 to 2**63 - 1.

        Returns:
            The option's number (options are numbered from 0 in the order
            they are added).

        Raises:
            TypeError: A cost that is not an integer.
            ValueError: An empty option, an unknown or repeated item, a
                color on a primary item or one not in the option, or a cost
                out of range.
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
        nothing: when one is bad, none is added.

        Args:
            options: Each option's item names (as ``add_option`` takes
                them).
            costs: One cost per option, each 0 to 2**63 - 1.

        Returns:
            The new options' numbers.

        Raises:
            TypeError: A cost that is not an integer.
            ValueError: The first bad option (as ``add_option``), or
                ``costs`` of another length than ``options``.
        """
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
        """The cost of one option, in O(1).

        Args:
            option: An option number (negative counts from the end).

        Returns:
            Its cost, a Python int (0 unless given).

        Raises:
            IndexError: No such option.
        """
        if not -len(self) <= option < len(self):
            raise IndexError(
                f"option {option} is out of range (0 to {len(self) - 1})"
            )
        return self._costs.get(option % len(self), 0)

    def cost_array(self) -> np.ndarray:
        """Each option's cost, as a read-only int64 array (0 unless
        given), made once and kept until the problem changes.

        Returns:
            The array of ``len(self)`` costs (read-only: copy it to change
            it).
        """
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
        """``{item: color}`` for the colored items of ``option``.

        Args:
            option: An option number.

        Returns:
            The colors of the option's colored items (empty without any).
        """
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
        items' names, a colored one as ``name:color``.

        Args:
            option: An option number.

        Returns:
            The option's items, separated by spaces.
        """
        colors = self.option_colors(option)
        return " ".join(
            str(x) if x not in colors else f"{x}:{colors[x]}"
            for x in self.options[option]
        )

    def solution_colors(self, solution: Iterable[int]) -> dict:
        """``{item: color}``: the color each secondary item ends with in
        ``solution`` (a list of option numbers); uncolored items are left
        out.

        Args:
            solution: Option numbers, as a search returns them.

        Returns:
            The color of each colored item of the solution's options.
        """
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
        the engines build from.  No copy of the options is made.

        Returns:
            The options' arrays, with the colors and bounds.
        """
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
        built once from ``csr()``, and again after a change.

        Returns:
            The arrays, with the colors, bounds and costs.
        """
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
        problem changes (``Engine.arrays`` asks for them).

        Args:
            key: What the arrays are kept under (one per engine layout).
            build: Makes them from the problem, called once per change.

        Returns:
            What ``build(self)`` returned, the first time or since the
            last change.
        """
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
        does not exist or covers nothing).

        Args:
            given: Option numbers (repeats are dropped).

        Returns:
            The option numbers, each once, in the order first met.

        Raises:
            TypeError: A number that is not an integer.
            ValueError: An option that does not exist or covers nothing.
        """
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
        that does not exist or covers nothing.

        Args:
            flat: Option numbers (int64).

        Raises:
            ValueError: An option that does not exist or covers nothing.
        """
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

        Returns:
            An int8 array of ``len(self)`` rows and ``len(self.items)``
            columns.

        Raises:
            ValueError: The problem has colors or bounds.
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
    # Each search method checks its options once, from the spec of
    # dlx.options (types, ranges, which go together), and hands the
    # checked values down: the services below take them as they come.
    def solve(
        self,
        *,
        given: Iterable[int] = (),
        method: Method | None = None,
        budget: Budget | None = None,
        **options: Any,
    ) -> list[int] | None:
        """The first solution (option numbers, ascending), or None.

        The item to branch on is the first active primary item with the
        fewest options (Knuth's MRV rule), and the scan for it stops at
        the first item with at most ``mrv_cutoff`` options: 0 is DLX1's
        rule exactly; 1 branches on the first forced item at once, often
        faster on Sudoku-like problems.  ``algorithm="cells"`` always stops
        at the first item with one option, as SSXC1 does.  Every engine
        finds the same solutions, in its own order; ``stats`` counts nodes
        and updates as the chosen program counts them.

        The options of every search method come gathered in groups (a
        ``dlx.Method``, ``dlx.Workers``, ``dlx.Budget``) or one by one
        by their field names (``time_limit=5``), never both for one
        option; ``docs/engines.md`` tables them all, and which go
        together.

        Args:
            given: options every solution must contain (option numbers):
                chosen before the search, and part of the answer.
            method: how to search: ``algorithm`` (the engine:
                ``"links"`` is Knuth's DLX1, DLX2 with colors, DLX3 with
                bounds; ``"cells"`` his SSXC1, SSXCC, SSMCC; ``"bits"``
                Algorithm X over bitsets; ``"auto"`` the one measured
                faster for problems of this shape, see
                ``dlx.engines.registry``), ``mrv_cutoff`` (stop the scan
                for the item to branch on at an item with at most this
                many options, a whole number >= 0) and ``reduce`` (True,
                or a dict of ``dlx.services.reduce.reduce``'s keywords,
                searches the problem reduced by Knuth's DLX-PRE rules:
                the same solutions, as original option numbers).
            budget: when to stop: after ``max_nodes`` search-tree nodes
                (a whole number >= 0, or None), after ``time_limit``
                seconds (a number >= 0, or None), or once ``stop`` (an
                event with ``is_set()``, such as a ``threading.Event``)
                is set.
            **options: the fields of the groups, one by one.

        Returns:
            The first solution found, or None when there is none.

        Raises:
            BudgetExhausted: ``max_nodes``, ``time_limit`` or ``stop``
                stopped the search before it found a solution or proved
                there is none.
            Interrupted: Ctrl-C stopped it.
            TypeError: an option of the wrong type, or one given twice.
            ValueError: an option out of range, options that do not go
                together (``dlx.options``), or a given option that does
                not exist; one sentence.
        """
        options.update(given=given, method=method, budget=budget)
        values = self._checked("solve", options).values
        values["limit"] = 1
        for solution in self._listed(values):
            return solution
        return None

    def _checked(self, search_name: str, options: dict) -> Checked:
        """A method's ``options`` (its keywords, its groups among them)
        checked once by ``dlx.options.check``: an old name
        (``dlx.options.RENAMED``) taken with a DeprecationWarning, an
        unknown one refused as Python refuses it."""
        groups = {key: options.pop(key, None) for key in GROUPS}
        for key in options:
            if key not in OPTIONS and key not in RENAMED:
                raise TypeError(
                    f"{search_name}() got an unexpected keyword argument "
                    f"{key!r}"
                )
        options = {
            k: v
            for k, v in options.items()
            if k in RENAMED or not is_default(v, OPTIONS[k].default)
        }
        if any(k in RENAMED for k in options):
            options = renamed(options, 3)
        return check(search_name, self, **gather(search_name, groups, options))

    def count(
        self,
        limit: int | None = None,
        *,
        given: Iterable[int] = (),
        method: Method | None = None,
        workers: Workers | None = None,
        budget: Budget | None = None,
        **options: Any,
    ) -> int:
        """How many solutions, without storing them; at most ``limit``.

        ``count(limit=2) == 1`` proves a solution unique.  A count runs one
        of four ways, chosen by the options given: memoized (``memo``,
        ``memo_bytes`` or ``choose``), in jobs (``jobs``, ``executor``,
        ``checkpoint`` or ``split_into``; see ``dlx.jobs``), on threads
        (``threads`` > 1), or in one search; which options each way takes
        is the table of ``dlx.options`` (``docs/engines.md``), and any
        other combination is refused before any work.

        Args:
            limit: count at most this many (a whole number >= 0, or None
                for all).
            given: as for ``solve``.
            method: as for ``solve``, and the memo: ``memo`` (True
                remembers the count of every subproblem, keyed by its
                active items, so counts in the billions cost far fewer
                nodes where subproblems repeat, as in tilings; ``"auto"``
                keeps it only where it pays, see ``dlx.services.memo``;
                ``stats`` becomes a ``dlx.services.memo.MemoStats``; colors
                and bounds are counted; with ``workers``' jobs, each job
                is, ``dlx.services.memo_jobs``),
                ``memo_bytes`` (its table size limit in bytes, or None:
                256 MiB) and ``choose`` (its item choice rule:
                ``"mrv"``, ``"first"`` or ``"auto"``).
            workers: where to count: ``threads`` (split the top of the
                tree into subtrees counted on this many threads; 0: one
                per core; nodes and updates are those of one thread),
                ``jobs`` (count the tree as independent jobs on this many
                processes; 0: one per core, 1: in this process),
                ``executor`` (run the jobs on any
                ``concurrent.futures.Executor``, a Dask cluster's too),
                ``split_into`` (how many jobs the tree is split into, or
                None: a few per worker), ``checkpoint`` (a file recording
                each finished job, so that the same call resumes after a
                crash) and ``progress`` (True draws a bar on stderr; a
                callable receives a ``dlx.jobs.Progress`` a few times a
                second).
            budget: as for ``solve``.
            **options: the fields of the groups, one by one
                (``split_jobs``, ``split_into``'s old name, with a
                DeprecationWarning).

        Returns:
            The number of solutions (at most ``limit``).

        Raises:
            BudgetExhausted: a budget or ``stop`` stopped the count first;
                its ``count`` is the partial count.
            Interrupted: Ctrl-C stopped it, with the partial ``count``.
            TypeError: as for ``solve``.
            ValueError: as for ``solve``; also a service the problem's
                engine does not offer.
        """
        options.update(
            limit=limit,
            given=given,
            method=method,
            workers=workers,
            budget=budget,
        )
        checked = self._checked("count", options)
        values = checked.values
        reduced = values.pop("reduce")
        if reduced:
            from .services.reduce import count as reduced_count

            return reduced_count(self, reduce=reduced, **values)
        from .services.counting import count as count_way

        return count_way(self, checked.way, **values)

    def best(
        self,
        k: int = 1,
        *,
        given: Iterable[int] = (),
        method: Method | None = None,
        workers: Workers | None = None,
        budget: Budget | None = None,
        **options: Any,
    ) -> list[tuple[int, list[int]]]:
        """The ``k`` cheapest solutions, cheapest first (Knuth's DLX5: see
        ``dlx.services.best``); ties in any order.

        The search runs in one process, on threads that share the best
        found so far (``threads`` > 1), or in jobs (``jobs``,
        ``executor`` or ``split_into``), each job given the best found so
        far when it is sent; which options each way takes is the table of
        ``dlx.options``.  A search for the cheapest solutions keeps no
        checkpoints (``time_limit`` hands back what it found).

        Args:
            k: how many solutions (a whole number >= 1).
            given: as for ``solve``.
            method: ``reduce``, as for ``solve``.
            workers: as for ``count``, but ``checkpoint``.
            budget: as for ``solve`` (``max_nodes``: one search only).
            **options: as for ``count``.

        Returns:
            ``(cost, option numbers)`` pairs, cheapest first: fewer when
            there are fewer solutions, ``[]`` when there is none.

        Raises:
            BudgetExhausted: a budget or ``stop`` stopped the search; its
                ``best`` is what was found (not proven optimal).
            Interrupted: Ctrl-C stopped it, with ``best`` likewise.
            TypeError: as for ``solve``.
            ValueError: as for ``count``.
        """
        options.update(
            k=k, given=given, method=method, workers=workers, budget=budget
        )
        checked = self._checked("best", options)
        values = checked.values
        reduced = values.pop("reduce")
        if checked.way == "jobs" and values["jobs"] is None:
            values["jobs"] = 1  # split_into alone: jobs in this process
        if reduced:
            from .services.reduce import best as reduced_best

            return reduced_best(self, reduce=reduced, **values)
        from .services.best import best as cheapest

        return cheapest(self, checked.way, **values)

    def zdd(
        self,
        *,
        given: Iterable[int] = (),
        method: Method | None = None,
        budget: Budget | None = None,
        **options: Any,
    ) -> ZDD:
        """Every solution at once: a ``dlx.ZDD`` built by the memoized
        search of ``count(memo=True)``, by parts where the problem falls
        apart as that count does (see ``dlx.services.zdd``).

        Args:
            given: as for ``solve``.
            method: ``memo_bytes`` and ``choose``, as for ``count``.
            budget: as for ``solve``, but ``stop``; and ``zdd_bytes``,
                the diagram's size limit in bytes (a whole number >= 0, or
                None: 1 GiB).
            **options: as for ``solve``.

        Returns:
            A ``dlx.ZDD`` of every solution.

        Raises:
            BudgetExhausted: ``max_nodes``, ``time_limit`` or ``zdd_bytes``
                stopped it: a partial diagram is never returned.
            Interrupted: Ctrl-C stopped it.
            TypeError: as for ``solve``.
            ValueError: as for ``solve``.
        """
        from .services.zdd import build

        options.update(given=given, method=method, budget=budget)
        values = self._checked("zdd", options).values
        return build(
            self,
            values.pop("given"),
            values.pop("max_nodes"),
            values.pop("time_limit"),
            **values,
        )

    def reduce(self, **options: Any) -> Reduction:
        """This problem made smaller by Knuth's DLX-PRE rules, with the map
        back to its options: a ``dlx.services.reduce.Reduction`` (see
        ``dlx.services.reduce.reduce``).

        Args:
            **options: ``given`` (option numbers committed first),
                ``rounds`` (an int >= 0, or None: until no rule applies),
                ``time_limit`` (seconds), ``max_work`` (entries looked at)
                and ``rules`` (names of ``dlx.services.reduce.RULES``), as
                ``dlx.services.reduce.reduce`` takes them.

        Returns:
            The reduced problem and the map back to this one's options.

        Raises:
            TypeError: An argument of the wrong type.
            ValueError: A bad value (naming the argument), or a bad given
                option.
        """
        from .services.reduce import reduce

        return reduce(self, **options)

    def estimate(
        self,
        probes: int = 10_000,
        *,
        seed: int = 0,
        given: Iterable[int] = (),
        method: Method | None = None,
        **options: Any,
    ) -> Estimate:
        """Knuth's Monte Carlo estimate of what ``count()`` would do:
        ``probes`` random root-to-leaf walks of the tree of the engine
        ``algorithm`` picks.

        Args:
            probes: how many walks (a whole number >= 1).
            seed: their random seed (a whole number >= 0): the same seed,
                the same estimate.
            given: as for ``solve``.
            method: ``algorithm`` and ``mrv_cutoff``, as for ``solve``.
            **options: as for ``solve``.

        Returns:
            A ``dlx.services.estimate.Estimate``: nodes, updates and
            solutions with standard errors, and the time.

        Raises:
            TypeError: as for ``solve``.
            ValueError: as for ``solve``.
        """
        from .services.estimate import estimate

        options.update(probes=probes, seed=seed, given=given, method=method)
        values = self._checked("estimate", options).values
        return estimate(self, values.pop("probes"), **values)

    def solutions(
        self,
        limit: int | None = None,
        *,
        given: Iterable[int] = (),
        method: Method | None = None,
        budget: Budget | None = None,
        **options: Any,
    ) -> Iterator[list[int]]:
        """Stream solutions lazily, each a sorted list of option numbers.

        The jitted search pauses after each batch of solutions and resumes
        where it stopped, so taking the first few is cheap whatever the
        total.  The options are checked at the call, before the first
        solution is asked for.

        Args:
            limit: at most this many solutions (a whole number >= 0, or
                None for all).
            given: as for ``solve``.
            method: as for ``solve``.
            budget: as for ``solve``.
            **options: as for ``solve``.

        Returns:
            An iterator of solutions.

        Raises:
            BudgetExhausted: a budget or ``stop`` stopped the search (after
                every solution found before the stop was yielded).
            Interrupted: Ctrl-C stopped it.
            TypeError: as for ``solve``.
            ValueError: as for ``solve``; also an engine that cannot list
                solutions.
        """
        options.update(limit=limit, given=given, method=method, budget=budget)
        return self._listed(self._checked("solutions", options).values)

    def _listed(self, values: dict) -> Iterator[list[int]]:
        """The solutions of checked ``values`` (``solutions``' options)."""
        reduced = values.pop("reduce")
        if reduced:
            from .services.reduce import solutions

            return solutions(self, reduce=reduced, **values)
        from .engines import engine_for, refuse

        engine = engine_for(self, values["algorithm"])
        if not engine.streams:
            raise refuse("listing solutions", self.kind, engine)
        return self._stream(
            engine,
            values["limit"],
            values["given"],
            values["max_nodes"],
            values["time_limit"],
            values["mrv_cutoff"],
            values["stop"],
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
        givens: Any,
        *,
        starts: Any = None,
        limit: int = 2,
        method: Method | None = None,
        workers: Workers | None = None,
        budget: Budget | None = None,
        **options: Any,
    ) -> BatchResult:
        """Solve many instances of this problem in one jitted call.

        Instance ``b`` must contain the options ``givens[b]`` (option
        numbers; one listed twice counts once).  Each instance is searched
        until ``limit`` solutions (``limit=2`` checks uniqueness) and its
        first solution is kept.

        Args:
            givens: one list of option numbers per instance; or, with
                ``starts``, one flat int array in CSR form (instance ``b``
                has ``givens[starts[b]:starts[b + 1]]``: build it with
                numpy for millions of instances).
            starts: see ``givens``.
            limit: solutions per instance (a whole number >= 1).
            method: ``algorithm`` and ``mrv_cutoff``, as for ``solve``.
            workers: ``threads``: share the instances among this many
                threads (a whole number >= 0; 0: one per core); the
                answers do not depend on it.
            budget: ``max_nodes`` bounds the search of each instance;
                ``time_limit`` is seconds for the whole batch; ``stop``
                stops every thread.
            **options: as for ``solve``.

        Returns:
            A ``dlx.services.batch.BatchResult``.

        Raises:
            BudgetExhausted: ``time_limit`` or ``stop`` ended the batch.
            Interrupted: Ctrl-C stopped every thread.
            TypeError: as for ``solve``.
            ValueError: an option out of range, or a given option that
                does not exist.
        """
        from .services.batch import solve_batch

        options.update(
            limit=limit, method=method, workers=workers, budget=budget
        )
        values = self._checked("solve_batch", options).values
        return solve_batch(self, givens, starts=starts, **values)


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
