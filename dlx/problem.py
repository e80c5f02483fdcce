"""The public face of the engine: ``ExactCover``.

Vocabulary: an *item* is something to cover (a *primary* item exactly once,
a *secondary* item at most once); an *option* is a set of items; a
*solution* is a set of options that covers every primary item exactly once
and every secondary item at most once.  Options are numbered from 0 in the
order they were added, and solutions are lists of those numbers.
"""

from __future__ import annotations

import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Hashable, Iterable, Iterator, Sequence

import numpy as np

from .kernels import links as K

_NO_LIMIT = np.iinfo(np.int64).max
# count(threads=N) first searches this many nodes on one thread, and only
# splits the tree among threads when that does not finish it.
_SERIAL_PROBE_NODES = 20_000
# How many nodes one kernel call may explore before Python looks at the
# clock again when a time limit is set.
_TIME_SLICE_NODES = 1 << 20


class BudgetExhausted(RuntimeError):
    """The search stopped at ``max_nodes`` or ``time_limit`` before it ended.

    ``count`` is the number of solutions found before the stop and
    ``stats`` the work done; no solution was lost, but there may be more.
    """

    def __init__(self, message: str, count: int, stats: "Stats"):
        super().__init__(message)
        self.count = count
        self.stats = stats


@dataclass
class Stats:
    """The work of the last search, counted like Knuth's DLX1.

    ``nodes``: search-tree nodes (each item chosen for branching, and each
    solution, a leaf; DLX1 counts the same);
    ``updates``: link changes made while covering; ``solutions``: solutions
    found; ``seconds``: time spent in the search (array building excluded);
    ``complete``: True when the whole search tree was explored, False when
    a limit or a budget stopped the search before its end.
    """

    nodes: int = 0
    updates: int = 0
    solutions: int = 0
    seconds: float = 0.0
    complete: bool = True

    def __str__(self) -> str:
        def group(n: int) -> str:
            return f"{n:,}".replace(",", " ")

        return (f"Altogether {group(self.solutions)} solution"
                f"{'' if self.solutions == 1 else 's'}, "
                f"{group(self.updates)} updates, {group(self.nodes)} nodes, "
                f"{self.seconds:.3f} s"
                + ("" if self.complete else " (stopped early)") + ".")


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


class Links:
    """The DLX1 arrays of one problem (see ``dlx.kernels.links``)."""

    __slots__ = ("llink", "rlink", "ulink", "dlink", "top", "length",
                 "option_of", "option_start", "nprimary")

    def __init__(self, nitems: int, nprimary: int, members: np.ndarray,
                 sizes: np.ndarray):
        """Build from ``members`` (1-based item numbers, option after option)
        and ``sizes`` (items per option)."""
        n = nitems
        m = len(sizes)
        total = n + 1 + len(members) + m + 1
        # Node numbers: option j's first node is n + 2 + start_j + j.
        starts = np.zeros(m + 1, np.int64)
        np.cumsum(sizes, out=starts[1:])
        first = n + 2 + starts[:-1] + np.arange(m)
        spacers = np.empty(m + 1, np.int64)
        spacers[0] = n + 1
        spacers[1:] = first + sizes
        node_of_member = (np.arange(len(members))
                          + n + 2 + np.repeat(np.arange(m), sizes))

        top = np.zeros(total, np.int32)
        ulink = np.zeros(total, np.int32)
        dlink = np.zeros(total, np.int32)
        top[node_of_member] = members
        top[spacers] = -np.arange(m + 1)
        # Vertical lists: each item's nodes in option order, closed through
        # the header node (item k's header is node k).
        order = np.argsort(members, kind="stable")
        nodes_sorted = node_of_member[order]
        items_sorted = members[order]
        length = np.bincount(members, minlength=n + 2).astype(np.int32)
        length[0] = 0
        length[n + 1] = 0
        ulink[: n + 1] = np.arange(n + 1)
        dlink[: n + 1] = np.arange(n + 1)
        if len(members):
            is_head = np.ones(len(members), bool)
            is_head[1:] = items_sorted[1:] != items_sorted[:-1]
            is_tail = np.ones(len(members), bool)
            is_tail[:-1] = is_head[1:]
            prev = np.empty(len(members), np.int64)
            prev[1:] = nodes_sorted[:-1]
            prev[is_head] = items_sorted[is_head]
            nxt = np.empty(len(members), np.int64)
            nxt[:-1] = nodes_sorted[1:]
            nxt[is_tail] = items_sorted[is_tail]
            ulink[nodes_sorted] = prev
            dlink[nodes_sorted] = nxt
            dlink[items_sorted[is_head]] = nodes_sorted[is_head]
            ulink[items_sorted[is_tail]] = nodes_sorted[is_tail]
        # Spacers: ulink = first node of the option above, dlink = last node
        # of the option below.
        ulink[spacers[1:]] = first
        dlink[spacers[:-1]] = first + sizes - 1
        ulink[spacers[0]] = 0
        dlink[spacers[-1]] = 0

        # Item lists: primary 1..nprimary around root 0, secondary around
        # root n+1.
        llink = np.zeros(n + 2, np.int32)
        rlink = np.zeros(n + 2, np.int32)
        for root, lo, hi in ((0, 1, nprimary), (n + 1, nprimary + 1, n)):
            ring = np.concatenate(([root], np.arange(lo, hi + 1)))
            rlink[ring] = np.roll(ring, -1)
            llink[ring] = np.roll(ring, 1)

        option_of = np.full(total, -1, np.int32)
        option_of[node_of_member] = np.repeat(np.arange(m), sizes)
        self.llink, self.rlink = llink, rlink
        self.ulink, self.dlink, self.top = ulink, dlink, top
        self.length = length
        self.option_of = option_of
        self.option_start = first.astype(np.int32)
        self.nprimary = nprimary

    def copy_arrays(self):
        """Fresh copies of the mutable arrays, in kernel argument order."""
        return (self.llink.copy(), self.rlink.copy(), self.ulink.copy(),
                self.dlink.copy(), self.top, self.length.copy())


_loaded: set = set()


def _load_kernels(*kernels: str) -> None:
    """Load (or compile) kernels once per process, outside any timing.

    numba compiles a kernel, or loads it from its cache, on its first call;
    that call is made here on a one-item problem so that ``stats.seconds``
    measures the search alone.  ``kernels`` names what the caller is about
    to use: ``"search"``, ``"batch"`` (solve_batch) or ``"steps"`` (the
    single steps the parallel count calls from Python).
    """
    wanted = set(kernels) - _loaded
    if not wanted:
        return
    tiny = Links(1, 1, np.array([1], np.int64), np.array([1], np.int64))
    arrays = tiny.copy_arrays()
    if "steps" in wanted:
        p = int(tiny.option_start[0])
        K.commit_option(p, *arrays)
        K.release_option(p, *arrays)
        K.choose_item(arrays[0], arrays[1], arrays[5], 0)
        K.cover(1, *arrays)
        K.cover_rest(p, *arrays)
        K.uncover_rest(p, *arrays)
        K.uncover(1, *arrays)
    if "search" in wanted:
        K.search(*arrays, np.zeros(2, np.int32), np.array([0, K.FORWARD]),
                 np.zeros((1, 2), np.int32), np.zeros(1, np.int32), 0,
                 _NO_LIMIT, np.zeros(3, np.int64), 0)
    if "batch" in wanted:
        K.solve_batch(*arrays, np.zeros(0, np.int32), np.array([0, 0]), 1,
                      _NO_LIMIT, np.zeros((1, 2), np.int32),
                      np.zeros(1, np.int32), np.zeros(1, np.int64),
                      np.zeros((1, 3), np.int64), 0)
    _loaded.update(wanted)


def _commit_givens(nodes, arrays) -> int | None:
    """Choose the given options (by first node) on ``arrays``: returns the
    link updates, or None when one overlaps an earlier one (the arrays are
    then left part-way and must be dropped)."""
    updates = 0
    for p in nodes:
        u = K.commit_option(p, *arrays)
        if u < 0:
            return None
        updates += u
    return updates


def _non_negative(name: str, value) -> int:
    """``value`` as an int, or ValueError naming the argument ``name``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) \
            or value < 0:
        raise ValueError(f"{name} must be a non-negative integer, got "
                         f"{value!r}")
    return int(value)


def _thread_count(threads) -> int:
    """Validate ``threads`` (0 means one per core)."""
    return _non_negative("threads", threads) or (os.cpu_count() or 1)


def _columns_used(first: np.ndarray) -> int:
    """How many columns of a ``-1``-padded solutions array are in use."""
    used = (first >= 0).sum(axis=1)
    return int(used.max()) if len(used) else 0


def _cutoff(mrv_cutoff) -> int:
    """Validate ``mrv_cutoff`` (see ``ExactCover.solve``)."""
    return _non_negative("mrv_cutoff", mrv_cutoff)


def _run_batch(arrays, nodes, starts, limit, max_nodes, depth, threads,
               cutoff, chunks_per_thread=16):
    """Run ``K.solve_batch`` over CSR instances, in chunks on ``threads``
    threads (each with its own copy of the links); about
    ``chunks_per_thread`` chunks per thread.

    Returns ``counts``, ``first`` (option nodes of the first solution,
    ``-1`` padded) and ``work`` (nodes, search updates, given updates).
    """
    nbatch = len(starts) - 1
    first = np.full((nbatch, depth), -1, np.int32)
    first_len = np.zeros(nbatch, np.int32)
    counts = np.zeros(nbatch, np.int64)
    work = np.zeros((nbatch, 3), np.int64)

    def run(lo, hi, links):
        sub = starts[lo:hi + 1]
        K.solve_batch(*links, nodes[sub[0]:sub[-1]], sub - sub[0], limit,
                      max_nodes, first[lo:hi], first_len[lo:hi],
                      counts[lo:hi], work[lo:hi], cutoff)

    if threads <= 1 or nbatch < 2:
        run(0, nbatch, arrays)
    else:
        # Many more chunks than threads, taken in turn: instances differ a
        # lot in cost, and a static split would leave a thread idle.
        bounds = np.linspace(
            0, nbatch, min(nbatch, chunks_per_thread * threads) + 1)
        bounds = np.unique(bounds.astype(np.int64))
        local = threading.local()

        def task(k):
            if not hasattr(local, "links"):
                local.links = tuple(a.copy() for a in arrays)
            run(bounds[k], bounds[k + 1], local.links)

        with ThreadPoolExecutor(threads) as pool:
            list(pool.map(task, range(len(bounds) - 1)))
    return counts, first, work


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
                 secondary: Iterable[Hashable] = ()):
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
        self._options_view: tuple | None = None
        self.stats = Stats()

    # -- building -----------------------------------------------------
    @classmethod
    def from_matrix(cls, matrix, secondary: int = 0) -> "ExactCover":
        """A problem from a 0/1 matrix: rows are options, columns items.

        Items are named by column number; the last ``secondary`` columns are
        secondary items.
        """
        a = np.asarray(matrix)
        if a.ndim != 2:
            raise ValueError(f"matrix must be 2-dimensional, got shape "
                             f"{a.shape}")
        if a.size and not np.isin(a, (0, 1)).all():
            r, c = np.argwhere(~np.isin(a, (0, 1)))[0]
            raise ValueError(f"matrix entry [{r}, {c}] is {a[r, c].item()!r}; "
                             f"entries must be 0 or 1")
        ncols = a.shape[1]
        if not 0 <= secondary <= ncols:
            raise ValueError(f"secondary={secondary} is not between 0 and "
                             f"the {ncols} columns")
        empty = np.flatnonzero(~a.astype(bool).any(axis=1))
        if len(empty):
            raise ValueError(f"matrix row {empty[0]} is empty; every option "
                             f"needs at least one item")
        problem = cls(range(ncols - secondary), range(ncols - secondary, ncols))
        rows, cols = np.nonzero(a)
        problem._members = (cols + 1).tolist()
        problem._sizes = np.bincount(rows, minlength=a.shape[0]).tolist()
        names = problem.items
        bounds = np.concatenate(([0], np.cumsum(problem._sizes)))
        problem._options = [tuple(names[c] for c in cols[lo:hi])
                            for lo, hi in zip(bounds[:-1], bounds[1:])]
        return problem

    def add_option(self, items: Iterable[Hashable]) -> int:
        """Add an option (a set of items); returns its number."""
        index = len(self._options)
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
        self._members.extend(numbers)
        self._sizes.append(len(numbers))
        self._options.append(names)
        self._links = None
        self._options_view = None
        return index

    def add_options(self, options: Iterable[Iterable[Hashable]]) -> list[int]:
        """Add several options; returns their numbers."""
        return [self.add_option(items) for items in options]

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
    def links(self) -> Links:
        """The DLX1 arrays (built on first use and after any change)."""
        if self._links is None:
            self._links = Links(len(self.items), len(self.primary),
                                np.asarray(self._members, np.int64),
                                np.asarray(self._sizes, np.int64))
        return self._links

    def to_matrix(self) -> np.ndarray:
        """The 0/1 matrix (options x items, primary columns first)."""
        a = np.zeros((len(self._options), len(self.items)), np.int8)
        rows = np.repeat(np.arange(len(self._sizes)), self._sizes)
        a[rows, np.asarray(self._members, np.int64) - 1] = 1
        return a

    # -- solving ------------------------------------------------------
    def solve(self, *, given: Iterable[int] = (), max_nodes: int | None = None,
              time_limit: float | None = None,
              mrv_cutoff: int = 0) -> list[int] | None:
        """The first solution (option numbers, ascending), or None.

        ``given`` lists options that every solution must contain: they are
        chosen before the search and are part of the answer.  Raises
        ``BudgetExhausted`` if ``max_nodes`` or ``time_limit`` (seconds)
        stops the search before it finds a solution or proves there is none.

        ``mrv_cutoff`` (every search method has it): the item to branch on
        is the first active primary item with the fewest options, and the
        scan for it stops at the first item with at most ``mrv_cutoff``
        options.  0 (the default) is DLX1's rule exactly; 1 branches on the
        first forced item at once, which is often faster on Sudoku-like
        problems though it may visit more nodes.
        """
        for solution in self.solutions(1, given=given, max_nodes=max_nodes,
                                       time_limit=time_limit,
                                       mrv_cutoff=mrv_cutoff):
            return solution
        return None

    def count(self, limit: int | None = None, *, given: Iterable[int] = (),
              max_nodes: int | None = None, time_limit: float | None = None,
              threads: int = 1, mrv_cutoff: int = 0, jobs: int | None = None,
              executor=None, checkpoint=None, progress=None,
              split_jobs: int | None = None) -> int:
        """How many solutions, without storing them; at most ``limit``.

        ``count(limit=2) == 1`` proves a solution unique.  Raises
        ``BudgetExhausted`` (with the partial ``count``) when a budget stops
        the search first.  ``threads`` > 1 (0: one per core) splits the top
        of the search tree into subtrees counted in parallel; it counts the
        whole tree, so it does not combine with ``limit`` or a budget.  The
        count, nodes and updates are the same as with one thread.

        For long counts (see ``dlx.jobs``): ``jobs=N`` counts the tree as
        independent jobs on N processes (0: one per core), ``executor=``
        on any ``concurrent.futures.Executor`` (a Dask cluster's too),
        ``checkpoint=FILE`` records each finished job so that the same
        call resumes after a crash, ``progress=True`` (a bar on stderr) or
        a callable receives a ``dlx.jobs.Progress`` after each job, and
        ``split_jobs`` sets how many jobs.  Ctrl-C then raises
        ``dlx.jobs.Interrupted`` with the partial count.
        """
        if jobs is not None or executor is not None or \
                checkpoint is not None or progress or split_jobs is not None:
            if limit is not None or max_nodes is not None or \
                    time_limit is not None or threads != 1:
                raise ValueError("jobs, executor, checkpoint and progress "
                                 "count the whole search tree; they cannot "
                                 "be combined with limit, max_nodes, "
                                 "time_limit or threads")
            from . import jobs as J
            return J.count(self, given=given, mrv_cutoff=mrv_cutoff,
                           jobs=1 if jobs is None else jobs,
                           executor=executor, checkpoint=checkpoint,
                           progress=progress, split_jobs=split_jobs)
        nthreads = _thread_count(threads)
        if nthreads > 1:
            if limit is not None or max_nodes is not None or \
                    time_limit is not None:
                raise ValueError("threads > 1 counts the whole search tree; "
                                 "it cannot be combined with limit, "
                                 "max_nodes or time_limit")
            given = list(given)
            try:  # a small tree is over before threads would pay off
                return self.count(given=given, max_nodes=_SERIAL_PROBE_NODES,
                                  mrv_cutoff=mrv_cutoff)
            except BudgetExhausted:
                return self._count_parallel(given, nthreads,
                                            _cutoff(mrv_cutoff))
        total = 0
        for found in self._run(limit, given, max_nodes, time_limit,
                               mrv_cutoff, store=False):
            total += found
        return total

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
                  time_limit: float | None = None,
                  mrv_cutoff: int = 0) -> Iterator[list[int]]:
        """Stream solutions lazily, each a sorted list of option numbers.

        The jitted search pauses after each batch of solutions and resumes
        where it stopped, so taking the first few is cheap whatever the
        total.  Raises ``BudgetExhausted`` when a budget stops the search
        (after yielding every solution found before the stop).
        """
        for batch in self._run(limit, given, max_nodes, time_limit,
                               mrv_cutoff, store=True):
            yield from batch

    def solve_batch(self, givens, *, starts=None, limit: int = 2,
                    max_nodes: int | None = None, threads: int = 1,
                    mrv_cutoff: int = 0) -> "BatchResult":
        """Solve many instances of this problem in one jitted call.

        Instance ``b`` must contain the options ``givens[b]`` (option
        numbers; one listed twice counts once).  With ``starts``, ``givens``
        is instead one flat int array in CSR form: instance ``b`` has
        ``givens[starts[b]:starts[b + 1]]`` (build it with numpy for
        millions of instances).  Each instance is searched until ``limit``
        solutions (``limit=2`` checks uniqueness) and its first solution is
        kept.  ``max_nodes`` bounds the search of each instance.
        ``threads`` > 1 shares the instances among that many threads (0: one
        per core); the answers do not depend on it.
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
        flat, starts = _without_repeats(flat, starts)
        if not isinstance(limit, (int, np.integer)) or limit < 1:
            raise ValueError(f"limit must be a positive integer, got "
                             f"{limit!r}")
        links = self.links
        nodes = links.option_start[flat].astype(np.int32)
        _load_kernels("batch")
        t0 = time.perf_counter()
        counts, first, work = _run_batch(
            links.copy_arrays(), nodes, starts, int(limit),
            _NO_LIMIT if max_nodes is None else int(max_nodes),
            len(self.primary) + 1, _thread_count(threads),
            _cutoff(mrv_cutoff))
        seconds = time.perf_counter() - t0
        width = _columns_used(first)
        solutions = np.where(first[:, :width] >= 0,
                             links.option_of[first[:, :width]],
                             np.int32(-1)).astype(np.int32, copy=False)
        work[:, 1] += work[:, 2]
        # An instance that found `limit` solutions paused: it may have more.
        explored = (counts == -1) | ((counts >= 0) & (counts < limit))
        self.stats = Stats(int(work[:, 0].sum()), int(work[:, 1].sum()),
                           int(np.maximum(counts, 0).sum()), seconds,
                           bool(explored.all()))
        return BatchResult(counts, solutions, work[:, 0], work[:, 1])

    def _count_parallel(self, given: list[int], threads: int,
                        cutoff: int) -> int:
        """Count by splitting the top levels of the tree into subtrees.

        The top levels are expanded here, exactly as the kernel would
        (MRV item, options in order), counting their nodes and updates like
        DLX1; each frontier node becomes one instance of ``solve_batch``
        whose givens are the options on its path.
        """
        links = self.links
        _load_kernels("steps", "batch")
        stats = self.stats = Stats(complete=False)
        t0 = time.perf_counter()
        arrays = links.copy_arrays()
        llink, rlink = arrays[0], arrays[1]
        updates = _commit_givens(self._given_nodes(given), arrays)
        if updates is None:  # the givens overlap: no solution
            stats.complete = True
            return 0
        stats.updates += updates
        if rlink[0] == 0:  # the givens alone are a cover: one leaf node
            stats.nodes = stats.solutions = 1
            stats.complete = True
            return 1
        frontier = [()]
        shallow = 0
        target = 64 * threads
        for _ in range(4):  # at most four levels expanded here
            if not frontier or len(frontier) >= target:
                break
            grown = []
            for path in frontier:
                for p in path:
                    K.commit_option(p, *arrays)
                stats.nodes += 1
                best = K.choose_item(llink, rlink, arrays[5], cutoff)
                stats.updates += K.cover(best, *arrays)
                p = int(arrays[3][best])
                while p != best:
                    stats.updates += K.cover_rest(p, *arrays)
                    if rlink[0] == 0:  # a solution: a leaf node
                        shallow += 1
                        stats.nodes += 1
                    else:
                        grown.append(path + (p,))
                    K.uncover_rest(p, *arrays)
                    p = int(arrays[3][p])
                K.uncover(best, *arrays)
                for p in reversed(path):
                    K.release_option(p, *arrays)
            frontier = grown
        starts = np.zeros(len(frontier) + 1, np.int64)
        np.cumsum([len(path) for path in frontier], out=starts[1:])
        nodes = np.array([p for path in frontier for p in path], np.int32)
        # Subtrees next to each other in the frontier share a prefix and
        # are often alike in size, so each is a chunk of its own.
        counts, _, work = _run_batch(arrays, nodes, starts, 0, _NO_LIMIT,
                                     len(self.primary) + 1, threads, cutoff,
                                     chunks_per_thread=len(frontier))
        stats.nodes += int(work[:, 0].sum())
        stats.updates += int(work[:, 1].sum())
        stats.solutions = shallow + int(counts.sum())
        stats.seconds = time.perf_counter() - t0
        stats.complete = True
        return stats.solutions

    def _given_nodes(self, given: Iterable[int]) -> list[int]:
        """The first nodes of the given options (each once), validated."""
        links = self.links
        nodes = []
        for option in dict.fromkeys(given):
            if isinstance(option, (bool, np.bool_)) or not isinstance(
                    option, (int, np.integer)):
                raise ValueError(f"given option {option!r} is not an option "
                                 f"number")
            if not 0 <= option < len(self._options):
                raise ValueError(f"given option {option} does not exist "
                                 f"(there are {len(self._options)})")
            nodes.append(int(links.option_start[option]))
        return nodes

    def _run(self, limit, given, max_nodes, time_limit, mrv_cutoff, store):
        """Drive the kernel: yields per call a list of solutions (store) or
        a number of solutions found."""
        for name, value in (("limit", limit), ("max_nodes", max_nodes)):
            if value is not None and (not isinstance(value, (int, np.integer))
                                      or value < 0):
                raise ValueError(f"{name} must be a non-negative integer, "
                                 f"got {value!r}")
        if time_limit is not None and not time_limit >= 0:
            raise ValueError(f"time_limit must be a non-negative number of "
                             f"seconds, got {time_limit!r}")
        cutoff = _cutoff(mrv_cutoff)
        given = list(given)
        nodes = self._given_nodes(given)
        links = self.links
        _load_kernels("search")
        stats = self.stats = Stats(complete=False)
        if limit == 0:
            stats.complete = True
            return
        arrays = links.copy_arrays()
        llink, rlink = arrays[0], arrays[1]
        counters = np.zeros(3, np.int64)
        updates = _commit_givens(nodes, arrays)
        if updates is None:  # the givens overlap: no solution
            stats.complete = True
            return
        counters[1] = updates
        given_sorted = sorted({int(g) for g in given})
        if rlink[0] == 0:
            # No primary item left to cover: the empty set of further
            # options is the one solution, and the tree's one (leaf) node.
            stats.nodes = stats.solutions = 1
            stats.updates = int(counters[1])
            stats.complete = True
            yield [given_sorted] if store else 1
            return

        depth = len(self.primary) + 1
        choice = np.zeros(depth, np.int32)
        state = np.array([0, K.FORWARD], np.int64)
        option_of = links.option_of
        node_cap = _NO_LIMIT if max_nodes is None else int(max_nodes)
        remaining = _NO_LIMIT if limit is None else int(limit)
        deadline = None if time_limit is None else time.perf_counter() + \
            time_limit
        batch = 1
        elapsed = 0.0
        while True:
            want = min(remaining, batch) if store else (
                remaining if remaining != _NO_LIMIT else 0)
            cap = want if store else 0
            out = np.zeros((cap, depth), np.int32)
            out_len = np.zeros(cap, np.int32)
            stop_at = node_cap
            if deadline is not None:
                stop_at = min(node_cap, int(counters[0]) + _TIME_SLICE_NODES)
            before = int(counters[2])
            t0 = time.perf_counter()
            status = K.search(*arrays, choice, state, out, out_len, want,
                              stop_at, counters, cutoff)
            elapsed += time.perf_counter() - t0
            found = int(counters[2]) - before
            remaining -= found
            stats.nodes, stats.updates = int(counters[0]), int(counters[1])
            stats.solutions, stats.seconds = int(counters[2]), elapsed
            stats.complete = status == K.EXHAUSTED
            if found:
                if store:
                    result = []
                    for r in range(found):
                        picked = option_of[out[r, : out_len[r]]].tolist()
                        result.append(sorted(picked + given_sorted))
                    yield result
                else:
                    yield found
            if status == K.EXHAUSTED or remaining == 0:
                return
            if status == K.OUT_OF_NODES:
                if counters[0] >= node_cap:
                    raise BudgetExhausted(
                        f"search stopped after max_nodes={node_cap} nodes "
                        f"with {stats.solutions} solution(s) found",
                        stats.solutions, stats)
                if time.perf_counter() >= deadline:
                    raise BudgetExhausted(
                        f"search stopped at time_limit={time_limit} s "
                        f"with {stats.solutions} solution(s) found",
                        stats.solutions, stats)
            batch = min(batch * 2, 4096)
