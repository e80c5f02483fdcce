"""SSMCC, Knuth's dancing cells with multiplicities: the engine.

``McCells`` builds the arrays of ``dlx.kernels.ssmcc``
(Knuth's SSMCC: multiplicities and colors) for a problem with bounds,
``McRun`` is one search over a private copy, ``run_batch`` runs
``solve_batch`` on threads, ``McTop`` walks the top of the tree and
``SSMCC`` is the engine.

A path here is a sequence of *signed* option numbers: ``k`` includes
option ``k``, ``-1 - k`` excludes it.  At a node, the item SSMCC would
branch on, with options ``o1 ... od`` in its set, splits the solutions
into ``d + 1`` disjoint parts: those with ``o1``; without ``o1`` and with
``o2``; ...; without any of them (SSMCC's right branches, taken in
advance).  A split's pieces are counted from the input's item order,
without the forced moves pending above them, so, as for SSXC1, only the
count equals one search's.
"""

from __future__ import annotations

import threading

import numpy as np

from ..kernels import ssmcc as M
from ..kernels.jit import compiled
from .base import MULTIPLICITIES, NO_LIMIT, Engine, Run, Top, count_job
from .dlx1 import option_numbers
from .ssxc1 import Cells
from .threads import batch_chunks, flat_paths, run_tasks


class McCells:
    """SSMCC's sparse sets for one problem: ``item``, ``set``, ``nd``
    (``itm, loc, clr`` a node) and ``second`` as
    ``dlx.kernels.ssmcc`` describes them; ``active`` items
    at the start (optionless items are left out, as SSMCC does),
    ``option_of`` (each node's option, -1 for spacers), ``option_start``
    (each option's first node).  ``uncoverable``: some primary item has
    fewer options than its lower bound (SSMCC does not search then)."""

    __slots__ = (
        "item",
        "set",
        "nd",
        "second",
        "active",
        "option_of",
        "option_start",
        "nprimary",
        "uncoverable",
        "levels",
        "stages",
    )

    def __init__(
        self,
        nitems: int,
        nprimary: int,
        members,
        sizes,
        colors=None,
        bounds=None,
    ):
        self._build(
            Cells(
                nitems,
                nprimary,
                members,
                sizes,
                head=M.HEAD,
                colors=colors,
                width=3,
            ),
            bounds,
            len(sizes),
        )

    @classmethod
    def from_csr(cls, csr) -> McCells:
        """Build from a problem's ``csr()`` (its colors and bounds)."""
        cells = cls.__new__(cls)
        cells._build(
            Cells.from_csr(csr, head=M.HEAD, width=3),
            csr.bounds,
            len(csr.indptr) - 1,
        )
        return cells

    def _build(self, c: Cells, bounds, m: int):
        """From SSXC1's sets with SSMCC's header words and node width
        (``itm, loc, clr``)."""
        n = len(c.item)
        nprimary = c.nprimary
        nd = c.nd
        set_ = c.set
        x = c.item.astype(np.int64)
        bound = np.ones(n, np.int64)
        slack = np.zeros(n, np.int64)
        for k, (u, v) in (bounds or {}).items():  # k: item number, 1-based
            bound[k - 1] = v
            slack[k - 1] = v - u
        set_[x - 4] = bound
        set_[x - 3] = slack
        size = set_[x - 1].astype(np.int64)
        lower = bound - slack
        self.uncoverable = bool((size[:nprimary] < lower[:nprimary]).any())
        # SSMCC's "make optionless items invisible": pushed from the last
        # item to the first, each popped item swapped to the end of the
        # active part.
        item = c.item.copy()
        active = n
        needed = np.arange(n) < nprimary
        needed &= lower > 0
        for k in np.flatnonzero((size == 0) & ~needed).tolist():
            # the pops: the first optionless item first
            xk = set_[x[k] - 2]
            active -= 1
            other = item[active]
            item[active] = x[k]
            item[xk] = other
            set_[x[k] - 2] = active
            set_[other - 2] = xk
        self.item = item
        self.set = set_
        self.nd = nd
        self.second = c.second
        self.active = active
        self.option_of = c.option_of
        self.option_start = c.option_start
        self.nprimary = nprimary
        # A level includes or removes an option that no active set holds
        # afterwards; a stage adds one unit of some primary item's bound.
        self.levels = m + 2
        self.stages = min(m, int(bound[:nprimary].sum())) + 2

    def copy_arrays(self):
        """Fresh copies of the mutable arrays: ``item, set, nd, second``."""
        return (self.item.copy(), self.set.copy(), self.nd.copy(), self.second)

    def new_state(self):
        state = np.zeros(M.STATE_SIZE, np.int64)
        state[M.WHERE] = M.FORWARD
        state[M.ACTIVE] = self.active
        return state

    def givens_clash(self, given_nodes) -> bool:
        """True when two givens share a secondary item without sharing
        its color.  (The kernel sees every other clash; this one it cannot
        see when one of them has no primary item.)"""
        seen: dict = {}
        nd = self.nd
        for p in given_nodes:
            q = p
            while q >= 0 and nd[3 * q] > 0:  # (q < 0: an exclusion)
                if nd[3 * q] >= self.second:
                    x, color = int(nd[3 * q]), int(nd[3 * q + 2])
                    if x in seen and (color == 0 or seen[x] != color):
                        return True
                    seen[x] = color
                q += 1
        return False


_loaded: set = set()


def load_kernels(*kernels: str, kind: str = MULTIPLICITIES) -> None:
    """Load (or compile) the kernels once per process, outside any timing:
    ``"search"`` (with commit/release/unwind) and ``"batch"``.  (``kind``,
    as ``dlx.engines.ssxc1.load_kernels`` takes it, can only be bounds here.)"""
    wanted = set(kernels) - _loaded
    if not wanted:
        return
    _loaded.update(wanted)
    tiny = McCells(1, 1, np.array([1]), np.array([1]), None, {1: (0, 2)})
    if "search" in wanted:
        p = int(tiny.option_start[0])
        run = McRun(tiny, [p])
        run.step(0, NO_LIMIT, True)
        run.release()
        # And the single steps count_parallel takes from Python.
        run = McRun(tiny, [-1 - p])
        run.branch_item()
        run.release()
    if "batch" in wanted:
        M.solve_batch(
            *tiny.copy_arrays(),
            tiny.item,
            tiny.set,
            tiny.nd,
            np.zeros(0, np.int32),
            np.array([0, 0]),
            1,
            NO_LIMIT,
            tiny.active,
            np.zeros((1, tiny.stages), np.int32),
            np.zeros(1, np.int32),
            np.zeros(1, np.int64),
            np.zeros((1, 3), np.int64),
            tiny.levels,
            np.zeros(1, np.uint8),
        )


class McRun(Run):
    """One SSMCC search over a private copy of ``cells``, for
    ``dlx.services.search``, with the given options (first nodes) included first.
    ``clash``: nothing to search (the givens clash, or an item has fewer
    options than its lower bound); ``covered`` is always False: the
    kernel finds the solution of an empty problem itself."""

    covered = False

    def __init__(self, cells: McCells, given_nodes: list[int]):
        load_kernels("search")
        self.cells = cells
        self.arrays = cells.copy_arrays()
        self.stack = np.zeros(3 * max(16, 4 * len(cells.item)), np.int32)
        self.state = cells.new_state()
        self.counters = np.zeros(3, np.int64)
        self.marks: list[int] = []  # where each given's save began
        self.clash = cells.uncoverable or cells.givens_clash(given_nodes)
        for p in given_nodes if not self.clash else ():
            u = self.commit(p)
            if u < 0:
                self.clash = True
                break
            self.counters[1] += u
        self.saved = np.zeros(cells.stages, np.int64)
        self.levelstage = np.zeros(cells.stages, np.int32)
        self.choice = np.zeros(cells.levels, np.int32)
        self.deg = np.zeros(cells.levels, np.int32)
        self.force = np.zeros(len(cells.nd) // 3 + 1, np.int32)
        self.option_of = cells.option_of

    def commit(self, p: int) -> int:
        """Include the option of node p (``p >= 0``) or exclude that of
        node ``-1 - p`` (growing the stack if need be): its updates, or -1
        when it clashes (nothing changes then)."""
        item, set_, nd, second = self.arrays
        lo = int(self.state[M.SAVEPTR])
        while True:
            if p >= 0:
                u = M.commit_option(
                    p, item, set_, nd, second, self.stack, self.state
                )
            else:
                u = M.exclude_option(
                    -1 - p, item, set_, nd, second, self.stack, self.state
                )
            if u != -2:
                break
            self.stack = np.concatenate([self.stack, self.stack * 0])
        if u >= 0:
            self.marks.append(lo)
        return int(u)

    def step(self, want: int, stop_at: int, store: bool):
        """One kernel call (more if the save stack must grow): see
        ``dlx.services.search``."""
        keep = want if store else 0
        found = []
        width = self.cells.stages
        while True:
            out = np.zeros((keep, width), np.int32)
            out_len = np.zeros(keep, np.int32)
            before = int(self.counters[2])
            status = M.search(
                *self.arrays,
                self.stack,
                self.saved,
                self.choice,
                self.deg,
                self.levelstage,
                self.force,
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
            if status == M.TOO_DEEP:  # pragma: no cover - sized not to
                raise RuntimeError("SSMCC search deeper than its arrays")
            if status != M.STACK_FULL:
                return status, found
            want = want - new if want > 0 else 0
            keep -= stored
            self.stack = np.concatenate([self.stack, self.stack * 0])

    def uncommit(self) -> None:
        """Undo the last ``commit``."""
        M.release_option(
            self.arrays[1], self.stack, self.state, self.marks.pop()
        )

    def branch_item(self) -> int:
        """The item SSMCC would branch on now (its set index; a forced
        one first), or 0 when none is left: a solution."""
        item, set_, nd, second = self.arrays
        out = np.zeros(2, np.int64)
        score = M.choose_item(
            item, set_, int(self.state[M.ACTIVE]), second, self.force, 0, out
        )
        if out[1] > 0:
            return int(self.force[out[1] - 1])
        return 0 if score == M.INF else int(out[0])

    def stopped_at(self):
        """The kernel stops on entering a node (``state`` at ``LEVEL``,
        ``FORWARD``): each level above it either included the option
        ``choice[level]`` (a left branch: the levels ``levelstage[s]`` of
        the stages ``s`` so far) or removed it (a right branch), so its
        path is the signed options of the module's docstring, one a
        level.  A level branches two ways, a forced move (degree 1) one."""
        level, stage = int(self.state[M.LEVEL]), int(self.state[M.STAGE])
        included = set(self.levelstage[:stage].tolist())
        moves = []
        for at, node in enumerate(self.choice[:level].tolist()):
            k = int(self.option_of[node])
            moves.append(k if at in included else -1 - k)
        return tuple(moves), [1 if d == 1 else 2 for d in self.deg[:level]]

    def leaf(self):
        """A solution: no item left to branch on, none forced (scored on a
        copy of the force stack: the pending forced moves are kept)."""
        item, set_, nd, second = self.arrays
        out = np.zeros(2, np.int64)
        score = M.choose_item(
            item,
            set_,
            int(self.state[M.ACTIVE]),
            second,
            self.force.copy(),
            0,
            out,
        )
        return bool(score == M.INF and out[1] == 0)

    def skip(self):
        """Resume at the kernel's backup, as after a solution: to the
        right branch of the latest left one (the force stack is empty
        there)."""
        self.state[M.WHERE] = M.BACKUP
        self.state[M.FORCED] = 0

    def release(self):
        """Undo the search (when paused) and the givens."""
        M.unwind(self.arrays[1], self.stack, self.state)
        while self.marks:
            M.release_option(
                self.arrays[1], self.stack, self.state, self.marks.pop()
            )


def run_batch(
    cells: McCells,
    nodes,
    starts,
    limit,
    max_nodes,
    threads,
    chunks_per_thread=16,
    deadline=None,
    event=None,
):
    """``solve_batch`` over CSR instances on ``threads`` threads, as
    ``dlx.engines.ssxc1.run_batch`` does for SSXC1; same results and stops.
    Instances whose givens share a secondary item without sharing its
    color are answered -1 here (see ``McCells.givens_clash``)."""
    nbatch = len(starts) - 1
    width = cells.stages
    first = np.full((nbatch, width), -1, np.int32)
    first_len = np.zeros(nbatch, np.int32)
    counts = np.zeros(nbatch, np.int64)
    work = np.zeros((nbatch, 3), np.int64)
    stop = np.zeros(1, np.uint8)
    if cells.uncoverable:
        return counts, first, work, None
    clash = np.array(
        [
            cells.givens_clash(nodes[starts[b] : starts[b + 1]])
            for b in range(nbatch)
        ],
        bool,
    )
    threads, bounds = batch_chunks(nbatch, threads, chunks_per_thread)
    local = threading.local()
    # Compiled, as dlx.engines.dlx1.run_batch says why.
    solve = compiled(M.solve_batch)

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
            cells.active,
            first[lo:hi],
            first_len[lo:hi],
            counts[lo:hi],
            work[lo:hi],
            cells.levels,
            stop,
        )

    stopped_by = run_tasks(
        task, len(bounds) - 1, threads, stop, deadline, event
    )
    counts[clash] = -1
    first[clash] = -1
    work[clash] = 0
    return counts, first, work, stopped_by


def nodes_of(cells: McCells, moves) -> list[int]:
    """Signed option numbers as the signed nodes ``McRun.commit`` takes."""
    start = cells.option_start
    return [
        int(start[k]) if k >= 0 else -1 - int(start[-1 - k]) for k in moves
    ]


class McTop(Top):
    """The top of SSMCC's tree: at a node, its branching item's options
    ``o1 ... od`` give the ``d + 1`` parts of the module's docstring; a
    part whose moves clash has no solution and is left out, one with no
    item left to branch on is a solution (a leaf)."""

    def __init__(self, cells: McCells, given_nodes, cutoff: int = 0):
        self.cells = cells
        self.run = McRun(cells, given_nodes)
        self.clash = self.run.clash
        self.base = int(self.run.counters[1])
        self.covered = not self.clash and self.run.branch_item() == 0

    def _enter(self, moves) -> int:
        """Commit ``moves``; how many went in before one clashed."""
        applied = 0
        for p in nodes_of(self.cells, moves):
            if self.run.commit(p) < 0:
                break
            applied += 1
        return applied

    def _leave(self, applied: int) -> None:
        for _ in range(applied):
            self.run.uncommit()

    def expand(self, path):
        run = self.run
        set_ = run.arrays[1]
        self._enter(path)  # a path handed out never clashes
        best = run.branch_item()
        option_of = self.cells.option_of
        options = [
            int(option_of[q])
            for q in set_[best : best + set_[best - 1]].tolist()
        ]
        children = []
        for k in range(len(options) + 1):
            moves = tuple(-1 - x for x in options[:k]) + tuple(
                options[k : k + 1]
            )
            applied = self._enter(moves)
            if applied == len(moves):
                children.append((moves, run.branch_item() == 0))
            self._leave(applied)
        self._leave(len(path))
        return 0, children


class SSMCC(Engine):
    """Knuth's SSMCC: dancing cells with multiplicities (and colors)."""

    name = "ssmcc"
    program = "SSMCC"
    algorithm = "cells"
    kinds = frozenset({MULTIPLICITIES})
    about = "SSMCC with bounds"
    exact_split = False
    hands_back = True
    cutoff = False

    def build(self, problem) -> McCells:
        return McCells.from_csr(problem.csr())

    def load(self, *parts):
        load_kernels(
            *("search" if part == "split" else part for part in parts)
        )

    def start(self, arrays, given_nodes, cutoff):
        return McRun(arrays, given_nodes)

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
        load_kernels("batch")
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
        return McTop(arrays, given_nodes)

    def path_nodes(self, arrays, path):
        return nodes_of(arrays, path)

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
        load_kernels("search", "batch")
        nodes, starts = flat_paths(
            [list(given_nodes) + nodes_of(arrays, p) for p in paths]
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


def _show(cells: McCells) -> str:  # pragma: no cover - a docstring helper
    lines = [
        "item   " + " ".join(f"{v:3d}" for v in cells.item),
        "set    " + " ".join(f"{v:3d}" for v in cells.set),
    ]
    for name, k in (("itm", 0), ("loc", 1), ("clr", 2)):
        lines.append(
            f"{name:6} " + " ".join(f"{v:3d}" for v in cells.nd[k::3])
        )
    lines.append(f"second {cells.second}, active {cells.active}")
    return "\n".join(lines)


if __name__ == "__main__":  # pragma: no cover
    # Knuth's example from dlx3.w, for the kernel's docstring: items
    # A B 2:3|C | X Y, options A B X:0 Y:0, A C X:1 Y:1, C X:0, B X:1,
    # C Y:1 (colors 0 and 1 coded 1 and 2).
    members = [1, 2, 4, 5, 1, 3, 4, 5, 3, 4, 2, 4, 3, 5]
    colors = [0, 0, 1, 1, 0, 0, 2, 2, 0, 1, 0, 2, 0, 2]
    print(
        _show(
            McCells(
                5,
                3,
                np.array(members),
                np.array([4, 4, 2, 2, 2]),
                np.array(colors, np.int32),
                {3: (2, 3)},
            )
        )
    )
