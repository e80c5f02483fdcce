"""SSXC1, Knuth's dancing cells for plain exact cover: the engine.

``Cells`` builds the sparse sets of ``dlx.kernels.ssxc1`` (SSXC1) or, for
a problem with colors, ``dlx.kernels.ssxcc`` (SSXCC; the engine is
``dlx.engines.ssxcc``), from the problem's structure, as
``dlx.engines.dlx1.Links`` does for DLX1.  ``CellsRun`` is one search
over a private copy, ``run_batch`` runs ``solve_batch`` over many
instances on threads, ``CellsTop`` walks the top of the tree, and
``SSXC1`` is the engine.  The kernels of both modules take the same
arguments, so everything here runs either: ``Cells.kernel`` says which.

A split count's nodes and updates are not one search's (see
``SSXC1.exact_split``): SSXC1 never puts back the order of the active
items nor of a set's elements (undoing a level restores sizes only), and
it breaks MRV ties by the order of ``item`` and tries a set's options in
the order of ``set``.  So the state in which one search enters its k-th
subtree is what the k-1 subtrees before it left, and nothing short of
searching them tells it; a subtree searched apart starts from the order
of the input instead, chooses otherwise at some ties, and makes a tree of
other nodes and updates (the solutions are the same).  SSXCC also pushes
forced items in that order, and a subtree's root is a committed option,
with an empty force stack.
"""

from __future__ import annotations

import threading

import numpy as np

from ..kernels import build as B, ssxc1 as C
from ..kernels.jit import compiled
from .base import (
    COLORS,
    EXACT,
    NO_LIMIT,
    Engine,
    Run,
    Top,
    count_job,
)
from .dlx1 import NodeOptions, check_nodes, kernel_rows, option_numbers
from .threads import batch_chunks, flat_paths, run_tasks


def kernel(kind: str):
    """The dancing-cells kernel module for a problem of this kind
    (``EXACT`` or ``COLORS``)."""
    if kind == COLORS:
        from ..kernels import ssxcc

        return ssxcc
    if kind == EXACT:
        return C
    raise ValueError(f"dancing cells has no kernel for {kind} here")


class Cells:
    """SSXC1's sparse sets for one problem: ``item``, ``set``, ``nd``
    (``itm`` and ``loc`` side by side) and ``second`` as
    ``dlx.kernels.ssxc1`` describes them, plus ``option_of`` (the option
    number of each node, -1 for spacers) and ``option_start`` (the first
    node of each option).  With ``colors``, SSXCC's (``clr`` a third word
    of each node, see ``dlx.kernels.ssxcc``); ``kernel`` is the
    module that searches them.

    ``uncoverable`` is True when some primary item is in no option that
    has a primary item: then there is no solution and, as SSXC1 does, no
    search at all.
    """

    __slots__ = (
        "item",
        "set",
        "nd",
        "second",
        "option_of",
        "option_start",
        "nprimary",
        "uncoverable",
        "kernel",
        "width",
    )

    def __init__(
        self,
        nitems: int,
        nprimary: int,
        members: np.ndarray,
        sizes: np.ndarray,
        head: int | None = None,
        colors: np.ndarray | None = None,
        width: int | None = None,
    ):
        """Build from ``members`` (1-based item numbers, option after
        option) and ``sizes`` (items per option); ``colors`` (one code per
        member, 0 for none) makes SSXCC's nodes.  ``head`` header words
        per item and ``width`` words per node, when another kernel's
        layout asks for more (SSMCC's)."""
        indptr = np.zeros(len(sizes) + 1, np.int64)
        np.cumsum(sizes, out=indptr[1:])
        self._build(
            nitems,
            nprimary,
            indptr,
            np.asarray(members),
            0,
            head,
            colors,
            width,
        )

    @classmethod
    def from_csr(
        cls, csr, head: int | None = None, width: int | None = None
    ) -> Cells:
        """Build from a problem's ``csr()`` (its colors included)."""
        cells = cls.__new__(cls)
        cells._build(
            csr.nitems,
            csr.nprimary,
            csr.indptr,
            csr.indices,
            1,
            head,
            csr.colors,
            width,
        )
        return cells

    def _build(
        self, nitems, nprimary, indptr, indices, base, head, colors, width
    ):
        """Item ``k`` of member ``t`` is ``indices[t] + base``, from 1;
        option ``j`` is ``indices[indptr[j]:indptr[j + 1]]`` (the walks of
        ``dlx.kernels.build.count_kept`` and ``fill_cells``)."""
        # The kernel: SSXC1, or SSXCC when members have colors (one code
        # per member, 0 for none), whose nodes carry a color (and a spare).
        self.kernel = kernel(EXACT if colors is None else COLORS)
        if width is None:
            width = getattr(self.kernel, "NODE", 2)
        self.width = width
        head = self.kernel.HEAD if head is None else head
        n = nitems
        m = len(indptr) - 1
        indptr, indices = kernel_rows(indptr, indices, len(indices) + m + 1)
        # Set sizes (SSXC1 ignores an option without a primary item: it
        # is in no set) and where each item's block starts (after its
        # header).
        length = np.zeros(n, np.int64)
        B.count_kept(indptr, indices, base, nprimary, length)
        x = np.zeros(n, np.int64)
        if n:
            x[0] = head
            np.cumsum(length[:-1] + head, out=x[1:])
            x[1:] += head
        total = int(x[-1] + length[-1]) if n else head

        # Node numbers: node 0 is a spacer, option j's first node is
        # 1 + indptr[j] + j, and a spacer follows every option.
        nnodes = len(indices) + m + 1
        check_nodes(max(nnodes, total))
        set_ = np.zeros(total, np.int32)
        nd = np.zeros(width * nnodes, np.int32)
        B.fill_cells(
            indptr,
            indices,
            base,
            nprimary,
            x.astype(np.int32),
            set_,
            nd,
            width,
            np.zeros(0, np.int32) if colors is None else colors,
        )
        set_[x - 1] = length
        set_[x - 2] = np.arange(n)

        first = np.arange(1, 1 + m, dtype=np.int32)
        first += indptr[:-1]
        self.item = x.astype(np.int32)
        self.set = set_
        self.nd = nd
        self.second = int(x[nprimary]) if nprimary < n else total + head
        self.option_of = NodeOptions(first, nnodes - 1)
        self.option_start = first
        self.nprimary = nprimary
        self.uncoverable = bool((length[:nprimary] == 0).any())

    @property
    def itm(self) -> np.ndarray:
        """Each node's item (a set index), or minus the size of the option
        before a spacer: a view of ``nd``."""
        return self.nd[0 :: self.width]

    @property
    def loc(self) -> np.ndarray:
        """Where each node sits in its item's set: a view of ``nd``."""
        return self.nd[1 :: self.width]

    @property
    def clr(self) -> np.ndarray | None:
        """Each node's color code (0: none), word 2 of SSXCC's nodes in
        ``nd``; None for SSXC1's nodes."""
        return self.nd[2 :: self.width] if self.width > 2 else None

    def copy_arrays(self):
        """Fresh copies of the mutable arrays, in kernel argument order:
        ``item, set, nd, second``."""
        return (self.item.copy(), self.set.copy(), self.nd.copy(), self.second)

    def new_state(self):
        """A state for a search that has not started (see
        ``dlx.kernels.ssxc1.search``)."""
        K = self.kernel
        size = (
            K.state_size(len(self.item))
            if hasattr(K, "state_size")
            else K.STATE_SIZE
        )
        state = np.zeros(size, np.int64)
        state[K.WHERE] = K.FORWARD
        state[K.ACTIVE] = len(self.item)
        return state

    def stack_size(self) -> int:
        """A first size (in entries) for the save stack; the kernels ask
        for more when they need it."""
        return max(16, 4 * len(self.item))


_loaded: set = set()


def load_kernels(*kernels: str, kind: str = EXACT) -> None:
    """Load (or compile) the kernels of ``kind`` once per process, outside
    any timing, as ``dlx.engines.dlx1.load_kernels`` does: ``"search"`` (with the
    single steps commit/release/choose) and ``"batch"``."""
    wanted = {(kind, k) for k in kernels} - _loaded
    if not wanted:
        return
    _loaded.update(wanted)  # first: CellsRun below calls back here
    K = kernel(kind)
    tiny = Cells(
        1,
        1,
        np.array([1], np.int64),
        np.array([1], np.int64),
        colors=None if kind == EXACT else np.zeros(1, np.int32),
    )
    if (kind, "search") in wanted:
        run = CellsRun(tiny, [int(tiny.option_start[0])])
        run.commit(int(tiny.option_start[0]))  # a clash: compiles it
        run.release()
        CellsRun(tiny, []).step(0, NO_LIMIT, True)
        K.unwind(
            tiny.set.copy(),
            np.zeros(4, np.int32),
            np.zeros(2, np.int64),
            tiny.new_state(),
        )
    if (kind, "batch") in wanted:
        K.solve_batch(
            *tiny.copy_arrays(),
            tiny.item,
            tiny.set,
            tiny.nd,
            np.zeros(0, np.int32),
            np.array([0, 0]),
            1,
            NO_LIMIT,
            np.zeros((1, 2), np.int32),
            np.zeros(1, np.int32),
            np.zeros(1, np.int64),
            np.zeros((1, 3), np.int64),
            np.zeros(1, np.uint8),
        )


def kind_of(cells: Cells) -> str:
    """The kind of problem ``cells`` was built for."""
    return EXACT if cells.kernel is C else COLORS


class CellsRun(Run):
    """One SSXC1 or SSXCC search over a private copy of ``cells``, for
    ``dlx.services.search``, with the given options (first nodes) committed first.

    ``clash``: there is no solution and nothing to search (the givens
    overlap, or a primary item is in no option, where SSXC1 does not
    search either); ``covered``: the givens already cover every primary
    item (one solution, the empty set of further options).
    """

    def __init__(self, cells: Cells, given_nodes: list[int]):
        self.K = cells.kernel
        load_kernels("search", kind=kind_of(cells))
        self.cells = cells
        self.arrays = cells.copy_arrays()
        self.stack = np.zeros(2 * cells.stack_size(), np.int32)
        self.state = cells.new_state()
        self.counters = np.zeros(3, np.int64)
        # (save-stack base, option or -1) of every commit still in
        # force, last on top.
        self.given: list[tuple[int, int]] = []
        self.clash = cells.uncoverable
        if given_nodes and not self.clash:
            u = self.commit_all(np.asarray(given_nodes, np.int32))
            self.clash = u < 0
            self.counters[1] += max(u, 0)
        self.covered = not self.clash and self.active_primary() == 0
        self.depth = cells.nprimary + 1
        self.saved = np.zeros(self.depth + 1, np.int64)
        self.choice = np.zeros(self.depth, np.int32)
        self.option_of = cells.option_of

    def commit(self, p: int) -> int:
        """Commit the option of node p (growing the stack if need be):
        its updates, or -1 when it clashes with the options committed so
        far (then nothing changes)."""
        item, set_, nd, second = self.arrays
        base = int(self.state[C.SAVEPTR])
        while True:
            u = self.K.commit_option(
                p, item, set_, nd, second, self.stack, self.state
            )
            if u != -2:
                break
            self.grow()
        if u >= 0:
            self.given.append((base, -1 if self.K is C else p))
        return u

    def commit_all(self, nodes: np.ndarray) -> int:
        """Commit the options of ``nodes`` in turn, with one save of the
        sizes for them all (``C.commit_options``): their updates, or -1
        when one clashes (then the sizes are as before).  Kernels without
        ``commit_options`` (SSXCC) commit them one by one."""
        if self.K is not C:
            total = 0
            for k, p in enumerate(nodes.tolist()):
                u = self.commit(int(p))
                if u < 0:
                    for _ in range(k):
                        self.uncommit()
                    return -1
                total += u
            return total
        item, set_, nd, second = self.arrays
        base = int(self.state[C.SAVEPTR])
        while True:
            u = C.commit_options(
                nodes, item, set_, nd, second, self.stack, self.state
            )
            if u != -2:
                break
            self.grow()
        if u >= 0:
            self.given.append((base, -1))
        return u

    def grow(self) -> None:
        """A save stack four times as large (a deep search with many active
        items fills it fast: each level saves every active size)."""
        bigger = np.zeros(4 * len(self.stack), np.int32)
        bigger[: len(self.stack)] = self.stack
        self.stack = bigger

    def uncommit(self) -> None:
        """Release the commit (one option, or a ``commit_all``) made
        last."""
        base, p = self.given.pop()
        if p < 0:  # a commit_options call, or SSXC1's commit_option
            C.release_options(base, self.arrays[1], self.stack, self.state)
        else:  # SSXCC's commit_option: it also tinted the option's items
            self.K.release_option(
                p, self.arrays[1], self.arrays[2], self.stack, self.state
            )

    def active_primary(self) -> int:
        """The item the kernel would branch on now (a set index), 0 if
        none."""
        item, set_, nd, second = self.arrays
        return self.K.choose_item(
            item, set_, self.state[self.K.ACTIVE], second
        )

    def step(self, want: int, stop_at: int, store: bool):
        """One kernel call (more if the save stack must grow): see
        ``dlx.services.search``."""
        keep = want if store else 0
        found = []
        while True:
            out = np.zeros((keep, self.depth), np.int32)
            out_len = np.zeros(keep, np.int32)
            before = int(self.counters[2])
            status = self.K.search(
                *self.arrays,
                self.stack,
                self.saved,
                self.choice,
                self.state,
                out,
                out_len,
                want,
                stop_at,
                self.counters,
            )
            new = int(self.counters[2]) - before
            stored = min(new, keep)
            found += [
                self.option_of[out[r, : out_len[r]]].tolist()
                for r in range(stored)
            ]
            if status != self.K.STACK_FULL:
                return status, found
            want = want - new if want > 0 else 0
            keep -= stored
            self.grow()

    def stopped_at(self):
        """The kernel stops on entering a node (``state`` at ``LEVEL``,
        ``FORWARD``): its path is the options of ``choice[0..level-1]``,
        and a level's degree the size of its item's set then."""
        K = self.K
        set_, nd = self.arrays[1], self.arrays[2]
        stride = 2 if K is C else K.NODE  # words a node in nd
        moves, degrees = [], []
        for node in self.choice[: int(self.state[K.LEVEL])].tolist():
            moves.append(int(self.option_of[node]))
            degrees.append(int(set_[int(nd[stride * node]) - 1]))
        return tuple(moves), degrees

    def leaf(self):
        """A solution: no primary item left to branch on."""
        return self.active_primary() == 0

    def skip(self):
        """Resume at the kernel's backup, as after a leaf: up to the
        nearest level with an untried option (SSXCC's force stack is
        empty there)."""
        K = self.K
        self.state[K.WHERE] = K.BACKUP
        if K is not C:
            self.state[K.FORCED] = 0

    def release(self):
        """Undo the search (when paused) and the givens: the arrays are as
        built again."""
        self.K.unwind(self.arrays[1], self.stack, self.saved, self.state)
        while self.given:
            self.uncommit()


def run_batch(
    cells: Cells,
    nodes,
    starts,
    limit,
    max_nodes,
    threads,
    chunks_per_thread=16,
    deadline=None,
    event=None,
):
    """Run the kernel's ``solve_batch`` over CSR instances, in chunks on
    ``threads`` threads (each with its own copy of the arrays), as
    ``dlx.engines.dlx1.run_batch`` does for DLX1; same results and stops."""
    depth = cells.nprimary + 1  # levels of a search: one per primary item
    nbatch = len(starts) - 1
    first = np.full((nbatch, depth), -1, np.int32)
    first_len = np.zeros(nbatch, np.int32)
    counts = np.zeros(nbatch, np.int64)
    work = np.zeros((nbatch, 3), np.int64)
    stop = np.zeros(1, np.uint8)
    threads, bounds = batch_chunks(nbatch, threads, chunks_per_thread)
    local = threading.local()
    # Compiled, as dlx.engines.dlx1.run_batch says why.
    solve = compiled(cells.kernel.solve_batch)

    def task(k):
        if not hasattr(local, "arrays"):
            local.arrays = cells.copy_arrays()
        lo, hi = bounds[k], bounds[k + 1]
        sub = starts[lo : hi + 1]
        solve(
            *local.arrays,
            cells.item,
            cells.set,
            cells.nd,
            nodes[sub[0] : sub[-1]],
            sub - sub[0],
            limit,
            max_nodes,
            first[lo:hi],
            first_len[lo:hi],
            counts[lo:hi],
            work[lo:hi],
            stop,
        )

    stopped_by = run_tasks(
        task, len(bounds) - 1, threads, stop, deadline, event
    )
    if cells.uncoverable:
        # A primary item in no option: as one search (CellsRun), no
        # solution and nothing searched; clashing givens still say -1.
        searched = counts >= 0
        counts[searched] = 0
        work[searched] = 0
    return counts, first, work, stopped_by


class CellsTop(Top):
    """The top of SSXC1's (or SSXCC's) tree, walked with single commits:
    at a node, the item the search would branch on and the options of its
    set, in order.  Paths are option numbers."""

    def __init__(self, cells: Cells, given_nodes, cutoff: int = 0):
        self.run = CellsRun(cells, given_nodes)
        self.option_start = cells.option_start
        self.option_of = cells.option_of
        self.clash = self.run.clash
        self.covered = self.run.covered
        self.base = int(self.run.counters[1])

    def expand(self, path):
        run = self.run
        set_ = run.arrays[1]
        for k in path:
            run.commit(int(self.option_start[k]))
        best = run.active_primary()
        options = set_[best : best + set_[best - 1]].tolist()
        # Updates as SSXC1 counts them at this node: best taken out and its
        # options hidden once (every commit below repeats that), then each
        # option's other items.
        hide_best = sum(
            run.K.option_items(p, run.arrays[2]) - 1 for p in options
        )
        updates = 1 + hide_best
        children = []
        for p in options:
            updates += run.commit(p) - 1 - hide_best
            children.append(
                ((int(self.option_of[p]),), run.active_primary() == 0)
            )
            run.uncommit()
        for _ in path:
            run.uncommit()
        return updates, children


class SSXC1(Engine):
    """Knuth's SSXC1: dancing cells (sparse sets), plain exact cover."""

    name = "ssxc1"
    program = "SSXC1"
    algorithm = "cells"
    kinds = frozenset({EXACT})
    about = "Knuth's SSXC1 (dancing cells)"
    exact_split = False
    hands_back = True
    cutoff = False  # SSXC1 always takes the first item with one option

    def build(self, problem) -> Cells:
        return Cells.from_csr(problem.csr())

    def load(self, *parts):
        load_kernels(
            *("search" if part == "split" else part for part in parts),
            kind=kind_of_engine(self),
        )

    def start(self, arrays, given_nodes, cutoff):
        return CellsRun(arrays, given_nodes)

    def batch(
        self,
        arrays,
        nodes,
        starts,
        limit,
        max_nodes,
        threads,
        cutoff,
        chunks_per_thread=16,
        deadline=None,
        event=None,
    ):
        load_kernels("batch", kind=kind_of(arrays))
        counts, first, work, stopped_by = run_batch(
            arrays,
            nodes,
            starts,
            limit,
            max_nodes,
            threads,
            chunks_per_thread,
            deadline,
            event,
        )
        return (
            counts,
            option_numbers(first, arrays.option_of),
            work,
            stopped_by,
        )

    def top(self, arrays, given_nodes, cutoff):
        return CellsTop(arrays, given_nodes)

    def count_paths(
        self,
        arrays,
        given_nodes,
        paths,
        threads,
        cutoff,
        deadline=None,
        event=None,
    ):
        load_kernels("search", "batch", kind=kind_of(arrays))
        nodes, starts = flat_paths(
            [
                list(given_nodes) + [int(arrays.option_start[k]) for k in path]
                for path in paths
            ]
        )
        counts, _, work, stopped_by = run_batch(
            arrays,
            nodes,
            starts,
            0,
            NO_LIMIT,
            threads,
            chunks_per_thread=max(1, len(paths)),
            deadline=deadline,
            event=event,
        )
        return counts, work, stopped_by

    def run_job(self, arrays, given_nodes, path, cutoff, budget=0):
        run = self.start_job(arrays, given_nodes, path, cutoff)
        assert run is not None  # Engine.start_job: a run at any path
        return count_job(run, tuple(path), budget)


def kind_of_engine(engine) -> str:
    """The kind of problem a dancing-cells engine's kernel searches."""
    return COLORS if COLORS in engine.kinds else EXACT


def _show(cells: Cells) -> str:  # pragma: no cover - a docstring helper
    lines = []
    for name in ("item", "set", "itm", "loc", "clr"):  # views of nd
        values = getattr(cells, name)
        if values is not None:
            lines.append(f"{name:6}" + " ".join(f"{v:3d}" for v in values))
    lines.append(f"second {cells.second}")
    return "\n".join(lines)


if __name__ == "__main__":  # pragma: no cover
    # Knuth's toy problem, for the docstring of dlx.kernels.ssxc1, and his
    # DLX2 example (colors 0 and 1 coded 1 and 2), for dlx.kernels.ssxcc.
    items = "abcdefg"
    opts = ["cef", "adg", "bcf", "ad", "bg", "deg"]
    mem = np.array([items.index(c) + 1 for o in opts for c in o])
    print(_show(Cells(7, 5, mem, np.array([len(o) for o in opts]))))
    items = "ABCXY"
    opts = ["A B X:0 Y:0", "A C X:1 Y:1", "C X:0", "B X:1", "C Y:1"]
    mem = np.array([items.index(w[0]) + 1 for o in opts for w in o.split()])
    clr = [int(w[2]) + 1 if ":" in w else 0 for o in opts for w in o.split()]
    print(
        _show(
            Cells(
                5,
                3,
                mem,
                np.array([len(o.split()) for o in opts]),
                colors=np.array(clr, np.int32),
            )
        )
    )
