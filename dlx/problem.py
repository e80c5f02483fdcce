"""The public face of the engine: ``ExactCover``.

Vocabulary: an *item* is something to cover (a *primary* item exactly once,
a *secondary* item at most once); an *option* is a set of items; a
*solution* is a set of options that covers every primary item exactly once
and every secondary item at most once.  Options are numbered from 0 in the
order they were added, and solutions are lists of those numbers.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from typing import Hashable, Iterable, Iterator, Sequence

import numpy as np

from . import cells as cells_run, cells_mcc, search, xcc
from .algorithm import choose_algorithm
from .cells import Cells
from .cells_mcc import McCells
from .links import (Links, LinksRun, columns_used, count_parallel,
                    load_kernels, run_batch)
from .search import BudgetExhausted, Interrupted, Stats, whole_number

__all__ = ["ExactCover", "BatchResult", "BudgetExhausted", "Interrupted",
           "Stats"]

# count(threads=N) first searches this many nodes on one thread, and only
# splits the tree among threads when that does not finish it.
_SERIAL_PROBE_NODES = 20_000


@dataclass
class BatchResult:
    """What ``ExactCover.solve_batch`` found, one entry per instance.

    ``counts[b]``: solutions found (at most the limit); ``-1`` when the
    given options overlap, ``-2`` when ``max_nodes`` stopped the search.
    ``solutions[b]``: the option numbers (int32) of the first solution
    beyond the givens, in the order the search chose them, padded with
    ``-1`` (all ``-1`` when there is none); as many columns as the longest.
    ``nodes``/``updates``: the work per instance.
    """

    counts: np.ndarray
    solutions: np.ndarray
    nodes: np.ndarray
    updates: np.ndarray


def _option_numbers(values, where: str) -> np.ndarray:
    """``values`` as a flat int64 array; anything but integers is refused."""
    a = np.asarray(values)
    if a.size == 0:
        return np.zeros(0, np.int64)
    if a.ndim != 1 or a.dtype.kind not in "iu":
        raise ValueError(f"{where} must be a flat sequence of option "
                         f"numbers, got {values!r}"[:200])
    return a.astype(np.int64)


def _without_repeats(flat: np.ndarray, starts: np.ndarray):
    """Drop an option listed twice in one instance (CSR in, CSR out)."""
    instance = np.repeat(np.arange(len(starts) - 1), np.diff(starts))
    same = instance[1:] == instance[:-1]
    if not (same & (flat[1:] <= flat[:-1])).any():
        return flat, starts  # every instance strictly rising: no repeats
    order = np.lexsort((flat, instance))
    flat, instance = flat[order], instance[order]
    keep = np.ones(len(flat), bool)
    keep[1:] = (flat[1:] != flat[:-1]) | (instance[1:] != instance[:-1])
    if keep.all():
        return flat, starts
    counts = np.bincount(instance[keep], minlength=len(starts) - 1)
    starts = np.zeros(len(starts), np.int64)
    np.cumsum(counts, out=starts[1:])
    return flat[keep], starts


def _check_name(name, where: str):
    try:
        hash(name)
    except TypeError:
        raise ValueError(f"{where}: item name {name!r} is not hashable") \
            from None


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

    def __init__(self, primary: Iterable[Hashable] = (),
                 secondary: Iterable[Hashable] = (), *,
                 bounds: dict | None = None):
        self.primary: tuple = tuple(primary)
        self.secondary: tuple = tuple(secondary)
        self.items: tuple = self.primary + self.secondary
        self._index: dict = {}
        for k, name in enumerate(self.items):
            _check_name(name, "items")
            if name in self._index:
                raise ValueError(f"item {name!r} is named twice")
            self._index[name] = k + 1
        self._members: list[int] = []
        self._sizes: list[int] = []
        self._options: list[tuple] = []
        self._links: Links | None = None
        self._cells: Cells | None = None
        self._options_view: tuple | None = None
        self.stats = Stats()
        # Colors and multiplicities (dlx.xcc): {option: {position: color}}
        # for colored options only, color codes from 1, and
        # {item number: (u, v)} for bounded primary items.
        self._option_colors: dict = {}
        self._color_codes: dict = {}
        self._bounds = xcc.check_bounds(bounds, self._index,
                                        len(self.primary))

    # -- building -----------------------------------------------------
    @classmethod
    def from_matrix(cls, matrix, secondary: int = 0) -> "ExactCover":
        """A problem from a 0/1 matrix: rows are options, columns items.

        Items are named by column number; the last ``secondary`` columns are
        secondary items.  An all-zero row is an option that covers nothing:
        it keeps its number and is never part of a solution.
        """
        try:
            a = np.asarray(matrix)
        except ValueError:  # ragged rows
            raise ValueError("matrix rows must all have the same length") \
                from None
        if a.ndim != 2:
            raise ValueError(f"matrix must be 2-dimensional, got shape "
                             f"{a.shape}")
        if a.dtype.kind not in "biuf":  # None, strings, mixed objects
            a = np.array(matrix, dtype=object)
            for (r, c), value in np.ndenumerate(a):
                if isinstance(value, np.generic):
                    value = value.item()
                if isinstance(value, (str, bytes)) or value not in (0, 1):
                    raise ValueError(f"matrix entry [{r}, {c}] is {value!r};"
                                     f" entries must be 0 or 1")
            a = a.astype(np.int8)
        if a.size and not np.isin(a, (0, 1)).all():
            r, c = np.argwhere(~np.isin(a, (0, 1)))[0]
            raise ValueError(f"matrix entry [{r}, {c}] is {a[r, c].item()!r}; "
                             f"entries must be 0 or 1")
        ncols = a.shape[1]
        if not 0 <= secondary <= ncols:
            raise ValueError(f"secondary={secondary} is not between 0 and "
                             f"the {ncols} columns")
        problem = cls(range(ncols - secondary), range(ncols - secondary, ncols))
        rows, cols = np.nonzero(a)
        problem._members = (cols + 1).tolist()
        problem._sizes = np.bincount(rows, minlength=a.shape[0]).tolist()
        names = problem.items
        bounds = np.concatenate(([0], np.cumsum(problem._sizes)))
        problem._options = [tuple(names[c] for c in cols[lo:hi])
                            for lo, hi in zip(bounds[:-1], bounds[1:])]
        return problem

    def add_option(self, items: Iterable[Hashable],
                   colors: dict | None = None) -> int:
        """Add an option (a set of items); returns its number.

        ``colors`` gives secondary items of the option a color (any
        hashable): ``{item: color}``.
        """
        return self._add([self._checked_option(len(self._options), items,
                                               colors)])[0]

    def add_options(self, options: Iterable[Iterable[Hashable]]) -> list[int]:
        """Add several options; returns their numbers.  All or nothing:
        when one is bad, none is added."""
        first = len(self._options)
        return self._add([self._checked_option(first + k, items, None)
                          for k, items in enumerate(options)])

    def _add(self, checked) -> list[int]:
        """Add options checked by ``_checked_option``."""
        first = len(self._options)
        for index, (names, numbers, colors) in enumerate(checked, first):
            if colors:
                for color in colors.values():
                    self._color_codes.setdefault(color,
                                                 len(self._color_codes) + 1)
                self._option_colors[index] = colors
            self._members.extend(numbers)
            self._sizes.append(len(numbers))
            self._options.append(names)
        self._links = None
        self._cells = None
        self._options_view = None
        return list(range(first, first + len(checked)))

    def _checked_option(self, index: int, items, colors):
        """``(names, item numbers, colors)`` of option ``index``, or
        ValueError."""
        where = f"option {index}"
        if isinstance(items, (str, bytes)) and not all(
                ch in self._index for ch in items):
            raise ValueError(f"{where} {items!r}: a string is read as one "
                             f"item per character; pass a list of names")
        try:
            names = tuple(items)
        except TypeError:
            raise ValueError(f"{where}: {items!r} is not an iterable of "
                             f"items") from None
        if not names:
            raise ValueError(f"{where} is empty; every option needs at "
                             f"least one item")
        numbers = []
        seen = set()
        for name in names:
            _check_name(name, where)
            k = self._index.get(name)
            if k is None:
                raise ValueError(f"{where} {list(names)!r}: unknown item "
                                 f"{name!r}")
            if k in seen:
                raise ValueError(f"{where} {list(names)!r}: item {name!r} "
                                 f"appears twice")
            seen.add(k)
            numbers.append(k)
        if colors:
            colors = xcc.check_colors(colors, names, self._index,
                                      len(self.primary), where)
        return names, numbers, colors

    @property
    def options(self) -> Sequence[tuple]:
        """``options[i]`` is the tuple of item names of option ``i``."""
        if self._options_view is None:
            self._options_view = tuple(self._options)
        return self._options_view

    def __len__(self) -> int:
        return len(self._options)

    def __repr__(self) -> str:
        return (f"<ExactCover: {len(self.primary)} primary + "
                f"{len(self.secondary)} secondary items, "
                f"{len(self._options)} options>")

    @property
    def bounds(self) -> dict:
        """``{item: (u, v)}`` for the primary items given bounds."""
        return {self.items[k - 1]: uv for k, uv in self._bounds.items()}

    def option_colors(self, option: int) -> dict:
        """``{item: color}`` for the colored items of ``option``."""
        names = self._options[option]
        return {names[at]: color for at, color in
                self._option_colors.get(option, {}).items()}

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
        """The kernel this problem needs: ``dlx.xcc.EXACT`` (DLX1),
        ``COLORS`` (DLX2) or ``MULTIPLICITIES`` (DLX3)."""
        if any(uv != (1, 1) for uv in self._bounds.values()):
            return xcc.MULTIPLICITIES
        return xcc.COLORS if self._option_colors else xcc.EXACT

    @property
    def links(self) -> Links:
        """The DLX arrays (built on first use and after any change), with
        DLX2's ``color`` when the problem has colors or bounds."""
        if self._links is None:
            colors = None
            if self.kind != xcc.EXACT:
                colors = xcc.member_colors(self._option_colors,
                                           self._color_codes, self._sizes)
            self._links = Links(len(self.items), len(self.primary),
                                np.asarray(self._members, np.int64),
                                np.asarray(self._sizes, np.int64), colors)
        return self._links

    @property
    def cells(self) -> Cells:
        """The dancing-cells arrays (SSXC1's, SSXCC's with colors), built
        like ``links``; SSMCC's (``dlx.cells_mcc.McCells``) for a problem
        with bounds."""
        if self._cells is None and self.kind == xcc.MULTIPLICITIES:
            self._cells = McCells.of(self)
        if self._cells is None:
            colors = None
            if self.kind == xcc.COLORS:
                colors = xcc.member_colors(self._option_colors,
                                           self._color_codes, self._sizes)
            self._cells = Cells(len(self.items), len(self.primary),
                                np.asarray(self._members, np.int64),
                                np.asarray(self._sizes, np.int64),
                                colors=colors)
        return self._cells

    @property
    def _cells_glue(self):
        """The module that runs this problem's dancing-cells kernel:
        ``dlx.cells`` (SSXC1, SSXCC) or ``dlx.cells_mcc`` (SSMCC), with
        the same ``Run``, ``run_batch``, ``count_parallel`` and
        ``load_kernels``."""
        return cells_mcc if self.kind == xcc.MULTIPLICITIES else cells_run

    def _algorithm(self, algorithm, purpose: str = "search") -> str:
        """``"links"`` or ``"cells"``: ``algorithm`` checked, and ``"auto"``
        decided (``dlx.algorithm``)."""
        return choose_algorithm(algorithm, self, purpose)

    def to_matrix(self) -> np.ndarray:
        """The 0/1 matrix (options x items, primary columns first)."""
        a = np.zeros((len(self._options), len(self.items)), np.int8)
        rows = np.repeat(np.arange(len(self._sizes)), self._sizes)
        a[rows, np.asarray(self._members, np.int64) - 1] = 1
        return a

    # -- solving ---
    def solve(self, *, given: Iterable[int] = (), max_nodes: int | None = None,
              time_limit: float | None = None, mrv_cutoff: int = 0,
              algorithm: str = "auto") -> list[int] | None:
        """The first solution (option numbers, ascending), or None.

        ``given`` lists options that every solution must contain: they are
        chosen before the search and are part of the answer.  Raises
        ``BudgetExhausted`` if ``max_nodes`` or ``time_limit`` (seconds)
        stops the search before it finds a solution or proves there is none,
        and ``Interrupted`` on Ctrl-C.

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
        that measured faster for problems of this shape (see the README).
        Both find the same
        solutions, in their own order; ``stats`` counts nodes and updates
        as the chosen program counts them.
        """
        for solution in self.solutions(1, given=given, max_nodes=max_nodes,
                                       time_limit=time_limit,
                                       mrv_cutoff=mrv_cutoff,
                                       algorithm=algorithm):
            return solution
        return None

    def count(self, limit: int | None = None, *, given: Iterable[int] = (),
              max_nodes: int | None = None, time_limit: float | None = None,
              threads: int = 1, mrv_cutoff: int = 0,
              algorithm: str = "auto", memo=False,
              memo_bytes: int | None = None, choose: str = "auto",
              jobs: int | None = None, executor=None, checkpoint=None,
              progress=None, split_jobs: int | None = None) -> int:
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
        with or without jobs.
        """
        if memo is not False or memo_bytes is not None or choose != "auto":
            if jobs is not None or executor is not None or progress or \
                    checkpoint is not None or split_jobs is not None:
                raise ValueError("a memoized count runs in one process; it "
                                 "cannot be combined with jobs, executor, "
                                 "checkpoint, split_jobs or progress")
            from . import memo as memo_count
            use = memo_count.wanted(self, memo, limit, threads, mrv_cutoff,
                                    algorithm, memo_bytes, choose)
            found = memo_count.count(self, given, max_nodes, time_limit,
                                     memo_bytes=memo_bytes, choose=choose,
                                     auto=use == "auto")
            if found is not None:
                return found
            # memo="auto" found the memo of little use: count without it.
            if time_limit is not None:
                time_limit = max(0.0, time_limit - self.stats.seconds)
        if jobs is not None or executor is not None or \
                checkpoint is not None or split_jobs is not None:
            if limit is not None or max_nodes is not None or \
                    time_limit is not None or threads != 1:
                raise ValueError("jobs, executor, checkpoint and progress "
                                 "count the whole search tree; they cannot "
                                 "be combined with limit, max_nodes, "
                                 "time_limit or threads")
            if algorithm == "cells":
                raise ValueError("jobs split the dancing-links search tree; "
                                 "algorithm='cells' counts in one process")
            from . import jobs as J
            return J.count(self, given=given, mrv_cutoff=mrv_cutoff,
                           jobs=1 if jobs is None else jobs,
                           executor=executor, checkpoint=checkpoint,
                           progress=progress, split_jobs=split_jobs)
        nthreads = _thread_count(threads)
        algorithm = self._algorithm(algorithm)
        if progress:
            if nthreads > 1:
                raise ValueError("progress goes with jobs, not threads")
            from .jobs import slice_progress
            with slice_progress(progress) as hook:
                return sum(self._run(limit, given, max_nodes, time_limit,
                                     mrv_cutoff, False, hook,
                                     algorithm))
        if nthreads > 1:
            if limit is not None or max_nodes is not None:
                raise ValueError("threads > 1 counts the whole search tree; "
                                 "it cannot be combined with limit or "
                                 "max_nodes")
            time_limit = search.seconds("time_limit", time_limit)
            cutoff = _cutoff(mrv_cutoff)
            nodes = self._given_nodes(given, algorithm)
            start = time.perf_counter()
            deadline = None if time_limit is None else start + time_limit
            # A small tree is over before threads would pay off.
            probe = self._search(None, nodes, _SERIAL_PROBE_NODES, time_limit,
                                 cutoff, store=False, algorithm=algorithm)
            try:
                return sum(probe)
            except BudgetExhausted as stop:
                if stop.stats.nodes < _SERIAL_PROBE_NODES:
                    raise  # the time limit, not the probe's node budget
            stats = self.stats = Stats()
            if algorithm == "cells":
                return self._cells_glue.count_parallel(
                    self.cells, nodes, nthreads, stats, deadline)
            if self.kind == xcc.COLORS:
                return xcc.count_parallel_colors(self, nodes, nthreads,
                                                 cutoff, stats, deadline)
            if self.kind == xcc.MULTIPLICITIES:
                return xcc.count_parallel_bounds(self, nodes, nthreads,
                                                 cutoff, stats, deadline)
            return count_parallel(self.links, nodes, nthreads, cutoff, stats,
                                  deadline)
        return sum(self._run(limit, given, max_nodes, time_limit, mrv_cutoff,
                             store=False, algorithm=algorithm))

    def zdd(self, *, given: Iterable[int] = (), max_nodes: int | None = None,
            time_limit: float | None = None, memo_bytes: int | None = None,
            zdd_bytes: int | None = None, choose: str = "auto"):
        """Every solution at once: a ``dlx.ZDD`` built by the memoized
        search of ``count(memo=True)`` (see ``dlx.zdd``; ``memo_bytes``
        and ``choose`` as there, ``zdd_bytes`` limits the diagram: default
        1 GiB).  Raises ``BudgetExhausted`` when ``max_nodes``,
        ``time_limit`` or ``zdd_bytes`` stops it, ``Interrupted`` on
        Ctrl-C: a partial diagram is never returned."""
        from .zdd import build
        return build(self, given, max_nodes, time_limit,
                     memo_bytes=memo_bytes, zdd_bytes=zdd_bytes,
                     choose=choose)

    def estimate(self, probes: int = 10_000, *, seed: int = 0,
                 given: Iterable[int] = (), mrv_cutoff: int = 0):
        """Knuth's Monte Carlo estimate of what ``count()`` would do:
        nodes, updates and solutions with standard errors, and the time
        (a ``dlx.estimate.Estimate``).  ``probes`` random root-to-leaf
        walks, reproducible for a given ``seed``."""
        from .estimate import estimate
        return estimate(self, probes, seed=seed, given=given,
                        mrv_cutoff=mrv_cutoff)

    def solutions(self, limit: int | None = None, *,
                  given: Iterable[int] = (), max_nodes: int | None = None,
                  time_limit: float | None = None, mrv_cutoff: int = 0,
                  algorithm: str = "auto") -> Iterator[list[int]]:
        """Stream solutions lazily, each a sorted list of option numbers.

        The jitted search pauses after each batch of solutions and resumes
        where it stopped, so taking the first few is cheap whatever the
        total.  Raises ``BudgetExhausted`` when a budget stops the search
        (after yielding every solution found before the stop), and
        ``Interrupted`` on Ctrl-C.
        """
        algorithm = self._algorithm(algorithm)
        for batch in self._run(limit, given, max_nodes, time_limit,
                               mrv_cutoff, store=True, algorithm=algorithm):
            yield from batch

    def solve_batch(self, givens, *, starts=None, limit: int = 2,
                    max_nodes: int | None = None, threads: int = 1,
                    mrv_cutoff: int = 0,
                    algorithm: str = "auto") -> "BatchResult":
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
        thread at once and raises ``Interrupted``.
        """
        if starts is None:
            rows = [_option_numbers(g, f"givens[{b}]")
                    for b, g in enumerate(givens)]
            starts = np.zeros(len(rows) + 1, np.int64)
            np.cumsum([len(r) for r in rows], out=starts[1:])
            flat = np.concatenate(rows) if rows else np.zeros(0, np.int64)
        else:
            flat = _option_numbers(givens, "givens")
            starts = _option_numbers(starts, "starts")
            if len(starts) < 1 or starts[0] != 0 or (
                    np.diff(starts) < 0).any() or starts[-1] != len(flat):
                raise ValueError(f"starts must rise from 0 to "
                                 f"len(givens) = {len(flat)}")
        if len(flat) and (flat.min() < 0 or flat.max() >= len(self._options)):
            bad = flat[(flat < 0) | (flat >= len(self._options))][0]
            raise ValueError(f"given option {bad} does not exist (there are "
                             f"{len(self._options)})")
        if len(flat) and 0 in self._sizes:
            sizes = np.asarray(self._sizes)[flat]
            if not sizes.all():
                raise ValueError(_EMPTY_GIVEN.format(flat[sizes == 0][0]))
        flat, starts = _without_repeats(flat, starts)
        limit = whole_number("limit", limit, positive=True)
        max_nodes = whole_number("max_nodes", max_nodes, optional=True)
        nthreads = _thread_count(threads)
        cutoff = _cutoff(mrv_cutoff)
        algorithm = self._algorithm(algorithm, "batch")
        links = self.cells if algorithm == "cells" else self.links
        nodes = links.option_start[flat].astype(np.int32)
        budget = search.NO_LIMIT if max_nodes is None else max_nodes
        kind = self.kind
        if algorithm == "cells":
            self._cells_glue.load_kernels("batch", kind=kind)
        elif kind == xcc.EXACT:
            load_kernels("batch")
        else:
            xcc.load_kernels(kind, "batch")
        stats = self.stats = Stats(complete=False)
        t0 = time.perf_counter()
        if algorithm == "cells":
            counts, first, work, stopped_by = self._cells_glue.run_batch(
                links, nodes, starts, limit, budget, nthreads)
        else:
            counts, first, work, stopped_by = run_batch(
                xcc.kernel_arrays(self), nodes, starts, limit, budget,
                xcc.depth(self), nthreads, cutoff,
                solve=xcc.kernel(kind).solve_batch)
        stats.seconds = time.perf_counter() - t0
        width = columns_used(first)
        solutions = np.where(first[:, :width] >= 0,
                             links.option_of[first[:, :width]],
                             np.int32(-1)).astype(np.int32, copy=False)
        work[:, 1] += work[:, 2]
        # An instance that found `limit` solutions paused: it may have more.
        explored = (counts == -1) | ((counts >= 0) & (counts < limit))
        stats.nodes = int(work[:, 0].sum())
        stats.updates = int(work[:, 1].sum())
        stats.solutions = int(np.maximum(counts, 0).sum())
        stats.complete = bool(explored.all())
        if stopped_by == "interrupt":
            raise Interrupted(stats.solutions, stats)
        return BatchResult(counts, solutions, work[:, 0], work[:, 1])

    def _given_nodes(self, given: Iterable[int],
                     algorithm: str = "links") -> list[int]:
        """The first nodes of the given options (each once), validated, in
        ``algorithm``'s arrays."""
        links = self.cells if algorithm == "cells" else self.links
        nodes = []
        for option in dict.fromkeys(given):
            if isinstance(option, (bool, np.bool_)) or not isinstance(
                    option, (int, np.integer)):
                raise TypeError(f"given option {option!r} is not an option "
                                f"number")
            if not 0 <= option < len(self._options):
                raise ValueError(f"given option {option} does not exist "
                                 f"(there are {len(self._options)})")
            if not self._sizes[option]:
                raise ValueError(_EMPTY_GIVEN.format(option))
            nodes.append(int(links.option_start[option]))
        return nodes

    def _run(self, limit, given, max_nodes, time_limit, mrv_cutoff, store,
             progress=None, algorithm="links"):
        """Validate the arguments, then ``_search``."""
        limit = whole_number("limit", limit, optional=True)
        max_nodes = whole_number("max_nodes", max_nodes, optional=True)
        time_limit = search.seconds("time_limit", time_limit)
        cutoff = _cutoff(mrv_cutoff)
        given = list(given)
        nodes = self._given_nodes(given, algorithm)
        return self._search(limit, nodes, max_nodes, time_limit, cutoff,
                            store, sorted({int(g) for g in given}), progress,
                            algorithm)

    def _search(self, limit, nodes, max_nodes, time_limit, cutoff, store,
                given_sorted=(), progress=None, algorithm="links"):
        """One run (a generator, see ``dlx.search.run``) with its own stats.

        ``self.stats`` is this run's record from its start, and again
        whenever it resumes: it always belongs to the run that searched
        last, never to a mix of two.
        """
        stats = self.stats = Stats(complete=False)
        if limit == 0:
            stats.complete = True
            return
        if algorithm == "cells":
            run = self._cells_glue.Run(self.cells, nodes)
        elif self.kind == xcc.EXACT:
            run = LinksRun(self.links, nodes, cutoff)
        else:
            run = xcc.XccRun(self, nodes, cutoff)
        stats.updates = int(run.counters[1])
        if run.clash:  # the givens overlap: no solution
            stats.complete = True
            return
        if run.covered:
            # No primary item left to cover: the empty set of further
            # options is the one solution, and the tree's one (leaf) node.
            stats.nodes = stats.solutions = 1
            stats.complete = True
            yield [list(given_sorted)] if store else 1
            return
        for found in search.run(run, stats, limit=limit, max_nodes=max_nodes,
                                time_limit=time_limit, store=store,
                                given=list(given_sorted), progress=progress):
            yield found
            self.stats = stats


_EMPTY_GIVEN = ("given option {} is empty (an all-zero matrix row): it "
                "covers nothing and is never part of a solution")


def _thread_count(threads) -> int:
    """Validate ``threads`` (0 means one per core)."""
    return whole_number("threads", threads) or (os.cpu_count() or 1)


def _cutoff(mrv_cutoff) -> int:
    """Validate ``mrv_cutoff`` (see ``ExactCover.solve``)."""
    return whole_number("mrv_cutoff", mrv_cutoff)
