"""Colors (DLX2, and SSXCC's dancing cells) and multiplicities (DLX3)
against a brute-force reference."""

import time
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from dlx import ExactCover
from dlx.engines import COLORS, EXACT, MULTIPLICITIES
from dlx.engines.dlx2 import kernel_arrays as dlx2_arrays
from dlx.engines.dlx3 import DLX3
from dlx.engines.ssmcc import SSMCC as SSMCCEngine, McRun
from dlx.engines.ssxc1 import Cells
from dlx.formats import load
from dlx.kernels import (
    dlx1 as K,
    dlx2 as C,
    dlx3 as M,
    ssmcc as MC,
    ssxcc as CC,
)

from arrays import links_of
from reference import generalized_covers
from test_cells import CellsRun as CellsDriver, same_sets

KERNELS = {EXACT: K, COLORS: C, MULTIPLICITIES: M}


def kernel_arrays(problem, kind):
    """Fresh arrays of DLX2 (``COLORS``) or DLX3 (``MULTIPLICITIES``) for
    ``problem``, whatever its own kind."""
    if kind == MULTIPLICITIES:
        return DLX3().build(problem).copy_arrays()
    if kind == EXACT:
        return links_of(problem).copy_arrays()
    return dlx2_arrays(links_of(problem))


def depth(problem, kind):
    """Levels a search of ``problem`` on ``kind``'s kernel may need, +1."""
    if kind == MULTIPLICITIES:
        return DLX3().build(problem).depth
    return len(problem.primary) + 1


# SSXCC (dancing cells with colors): a third kernel for colored problems,
# driven through dlx.cells.CellsRun.
SSXCC = "ssxcc"
# SSMCC (dancing cells with bounds): the second kernel for bounded
# problems, driven through dlx.cells_mcc.McRun.
SSMCC = "ssmcc"


class Run:
    """One search of ``problem`` on the kernel of ``kind``, driven kernel
    call by kernel call."""

    def __init__(self, problem, kind=None, given=(), py=False, cutoff=0):
        self.problem = problem
        self.cutoff = cutoff
        self.kind = kind or problem.kind
        self.K = KERNELS[self.kind]
        self.arrays = kernel_arrays(problem, self.kind)
        self.depth = depth(problem, self.kind)
        self.choice = np.zeros(self.depth, np.int32)
        self.state = np.array([0, self.K.FORWARD], np.int64)
        self.counters = np.zeros(3, np.int64)
        self.search = self.K.search.py_func if py else self.K.search
        if py and hasattr(self.K, "_search"):
            # DLX3's search is a wrapper around its inlined body.
            body = self.K._search.py_func
            self.search = lambda *a: body(*a, False, 0, -1)
        self.clash = False
        self.given = sorted(set(given))
        self.committed = []
        for g in self.given:
            u = self.K.commit_option(
                int(links_of(problem).option_start[g]), *self.arrays
            )
            if u < 0:
                self.clash = True
                break
            self.committed.append(g)
            self.counters[1] += u

    def step(self, want=0, rows=0, max_nodes=2**62):
        """One call: its status and the solutions it stored, as sorted
        option numbers (givens included)."""
        if self.clash:
            return self.K.EXHAUSTED, []
        out = np.zeros((rows, self.depth), np.int32)
        out_len = np.zeros(rows, np.int32)
        before = self.counters[2]
        if (
            self.kind != MULTIPLICITIES
            and self.arrays[1][0] == 0
            and not self.counters[0]
        ):
            # DLX1/DLX2 need a primary item to start: the givens alone
            # are the one solution, one leaf node.
            self.state[1] = self.K.DONE
            self.counters += (1, 0, 1)
            return self.K.EXHAUSTED, [self.given] if rows else []
        status = self.search(
            *self.arrays,
            self.choice,
            self.state,
            out,
            out_len,
            want,
            max_nodes,
            self.counters,
            self.cutoff,
        )
        option_of = links_of(self.problem).option_of
        found = min(rows, self.counters[2] - before)
        return status, [
            sorted(option_of[out[r, : out_len[r]]].tolist() + self.given)
            for r in range(found)
        ]

    def all(self):
        status, found = self.step(0, rows=10_000)
        assert status == self.K.EXHAUSTED
        return sorted(tuple(s) for s in found)

    def release(self):
        """Release the givens (after a whole search)."""
        for g in reversed(self.committed):
            self.K.release_option(
                int(links_of(self.problem).option_start[g]), *self.arrays
            )

    def unwind(self):
        self.K.unwind(*self.arrays, self.choice, self.state)

    def restored(self):
        """Are the arrays as built?"""
        return same_arrays(self.problem, self.kind, self.arrays)


def colored_cells(problem):
    """SSXCC's arrays for ``problem``, colored or not."""
    s = problem.structure()
    return Cells(
        s.nitems,
        s.nprimary,
        s.members,
        s.sizes,
        colors=s.colors
        if s.colors is not None
        else np.zeros(len(s.members), np.int32),
    )


class CellsColorsRun:
    """``Run``'s counterpart for the SSXCC kernel (``test_cells``'s driver
    on SSXCC's arrays)."""

    K = CC

    def __init__(self, problem, given=(), py=False):
        self.problem = problem
        self.given = sorted(set(given))
        self.run = CellsDriver(
            problem,
            self.given,
            search=CC.search.py_func if py else None,
            cells=colored_cells(problem),
        )
        self.counters = self.run.counters
        self.clash = self.run.clash

    def step(self, want=0, rows=0, max_nodes=2**62):
        if self.clash:
            return CC.EXHAUSTED, []
        status, found = self.run.step(want, rows, max_nodes)
        return status, [sorted(s + self.given) for s in found]

    def all(self):
        status, found = self.step(0, rows=10_000)
        assert status == CC.EXHAUSTED
        return sorted(tuple(s) for s in found)

    def release(self):
        self.run.release()

    def unwind(self):
        CC.unwind(
            self.run.arrays[1], self.run.stack, self.run.saved, self.run.state
        )

    def restored(self):
        return same_sets(self.run.cells, self.run.arrays)


def runner(problem, kind=None, **kw):
    """A run of ``problem`` on the kernel of ``kind`` (``COLORS``,
    ``MULTIPLICITIES``, ``SSXCC`` or ``SSMCC``)."""
    if kind == SSXCC:
        return CellsColorsRun(problem, **kw)
    if kind == SSMCC:
        return SsmccRun(problem, **kw)
    return Run(problem, kind, **kw)


class SsmccRun:
    """One SSMCC search (``dlx.kernels.ssmcc``) driven like
    ``Run``: the givens committed by ``dlx.cells_mcc.McRun``, the search
    called here (``py``: its plain-Python ``py_func``)."""

    K = MC

    def __init__(self, problem, given=(), py=False):
        self.problem = problem
        self.cells = SSMCCEngine().build(problem)
        self.given = sorted(set(given))
        self.run = McRun(
            self.cells, [int(self.cells.option_start[g]) for g in self.given]
        )
        self.counters = self.run.counters
        self.clash = self.run.clash
        self.search = MC.search.py_func if py else MC.search

    @property
    def arrays(self):
        return self.run.arrays

    def step(self, want=0, rows=0, max_nodes=2**62):
        if self.clash:
            return MC.EXHAUSTED, []
        r = self.run
        option_of = self.cells.option_of
        solutions = []
        while True:
            out = np.zeros((rows, self.cells.stages), np.int32)
            out_len = np.zeros(rows, np.int32)
            before = self.counters[2]
            status = self.search(
                *r.arrays,
                r.stack,
                r.saved,
                r.choice,
                r.deg,
                r.levelstage,
                r.force,
                r.state,
                out,
                out_len,
                want,
                max_nodes,
                self.counters,
            )
            new = int(self.counters[2] - before)
            found = min(rows, new)
            solutions += [
                sorted(option_of[out[k, : out_len[k]]].tolist() + self.given)
                for k in range(found)
            ]
            if status != MC.STACK_FULL:
                return status, solutions
            r.stack = np.concatenate([r.stack, r.stack])
            rows -= found
            want = want - new if want > 0 else 0

    def all(self):
        status, found = self.step(0, rows=10_000)
        assert status == MC.EXHAUSTED
        return sorted(tuple(s) for s in found)

    def unwind(self):
        MC.unwind(self.run.arrays[1], self.run.stack, self.run.state)

    def release(self):
        self.run.release()

    def restored(self):
        """Are the sets as built, givens apart (up to the order of the
        active items and of each set's elements)?"""
        return same_cells(self.cells, self.run.arrays, self.run.state)


def same_cells(cells, arrays, state):
    """The sets of ``arrays`` as ``cells`` built them, up to the order of
    the items and of each set's elements; the sparse-set invariants
    hold."""
    item, set_, nd, _ = arrays
    active = int(state[MC.ACTIVE])
    if active != cells.active or sorted(item[:active]) != sorted(
        cells.item[:active]
    ):
        return False
    for k, x in enumerate(item):
        if set_[x - 2] != k:
            return False
        for h in (4, 3, 1):  # bound, slack, size
            if set_[x - h] != cells.set[x - h]:
                return False
        size = set_[x - 1]
        if sorted(set_[x : x + size]) != sorted(cells.set[x : x + size]):
            return False
        if any(
            nd[3 * q + 1] != x + at for at, q in enumerate(set_[x : x + size])
        ):
            return False
    return True


# Both kernels for problems with bounds: Knuth's DLX3 (dancing links) and
# SSMCC (dancing cells).
BOUND_KERNELS = [MULTIPLICITIES, SSMCC]


def build(nitems, nprimary, options, colors, bounds=None):
    p = ExactCover(range(nprimary), range(nprimary, nitems), bounds=bounds)
    for items, cols in zip(options, colors):
        p.add_option(items, colors=cols)
    return p


def knuth_dlx2_example():
    p = ExactCover("ABC", "XY")
    p.add_option("ABXY", colors={"X": 0, "Y": 0})
    p.add_option("ACXY", colors={"X": 1, "Y": 1})
    p.add_option("CX", colors={"X": 0})
    p.add_option("BX", colors={"X": 1})
    p.add_option("CY", colors={"Y": 1})
    return p


# -- Knuth's own examples -----------------------------------------------------


def test_dlx2_example_as_dlx2_counts_it():
    p = knuth_dlx2_example()
    assert p.kind == COLORS
    run = Run(p)
    assert run.all() == [(0, 2), (1, 3)]
    # dlx2 < dlx2-example.dlx: 2 solutions, 15 updates, 5 nodes.
    assert run.counters.tolist() == [5, 15, 2]


def test_dlx3_example_as_dlx3_counts_it():
    p = knuth_dlx2_example()
    q = ExactCover("ABC", "XY", bounds={"C": (2, 3)})
    for k in range(len(p)):
        q.add_option(p.options[k], colors=p.option_colors(k))
    assert q.kind == MULTIPLICITIES
    run = Run(q)
    assert run.all() == [(1, 3, 4)]
    # dlx3 < dlx3-example.dlx: 1 solution, 14 updates, 6 nodes.
    assert run.counters.tolist() == [6, 14, 1]
    cells = SsmccRun(q)
    assert cells.all() == [(1, 3, 4)]
    # ssmcc < dlx3-example.dlx: 1 solution, 13 updates, 5 nodes.
    assert cells.counters.tolist() == [5, 13, 1]


# -- random problems against the reference --------------------------------------


@st.composite
def colored_problems(draw, bounded=False):
    nitems = draw(st.integers(1, 6))
    nsecondary = draw(st.integers(0, min(3, nitems)))
    nprimary = nitems - nsecondary
    options, colors = [], []
    for _ in range(draw(st.integers(0, 9))):
        items = sorted(
            draw(
                st.sets(
                    st.integers(0, nitems - 1), min_size=1, max_size=nitems
                )
            )
        )
        cols = {
            i: draw(st.sampled_from("rg"))
            for i in items
            if i >= nprimary and draw(st.booleans())
        }
        options.append(items)
        colors.append(cols)
    bounds = {}
    if bounded:
        for i in range(nprimary):
            if draw(st.booleans()):
                u = draw(st.integers(0, 2))
                v = draw(st.integers(max(u, 1), 3))
                bounds[i] = (u, v)
    return nitems, nprimary, options, colors, bounds


# Every kernel that solves colored problems: DLX2, DLX3 (every bound
# 1..1) and SSXCC.
COLOR_KERNELS = [COLORS, MULTIPLICITIES, SSXCC]


@pytest.mark.parametrize("kind", COLOR_KERNELS)
@settings(
    max_examples=250,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(colored_problems())
def test_colors_match_reference(kind, case):
    nitems, nprimary, options, colors, _ = case
    p = build(nitems, nprimary, options, colors)
    expected = generalized_covers(options, nprimary, nitems, colors)
    run = runner(p, kind)
    assert run.all() == expected
    if kind == MULTIPLICITIES and p.primary:
        # DLX3 with every bound 1..1 is DLX2's search tree (its updates
        # differ: it leaves an empty item uncovered when it backtracks).
        dlx2 = Run(p, COLORS)
        dlx2.all()
        assert run.counters[0] == dlx2.counters[0]


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(colored_problems(bounded=True))
@pytest.mark.parametrize("kind", BOUND_KERNELS)
def test_multiplicities_match_reference(kind, case):
    nitems, nprimary, options, colors, bounds = case
    p = build(nitems, nprimary, options, colors, bounds)
    expected = generalized_covers(options, nprimary, nitems, colors, bounds)
    assert runner(p, kind).all() == expected
    if kind != MULTIPLICITIES:
        return
    # mrv_cutoff changes which item is branched on, never the solutions.
    for cutoff in (1, 2):
        run = Run(p, MULTIPLICITIES, cutoff=cutoff)
        assert run.all() == expected
        assert same_arrays(p, MULTIPLICITIES, run.arrays)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(0, 5),
            st.integers(1, 3),
            st.integers(0, 3),
            st.booleans(),
        ),
        min_size=1,
        max_size=8,
    ),
    st.integers(0, 3),
)
def test_choose_item_stops_at_the_cutoff(items, cutoff):
    # (length, bound, slack, active) per primary item: the choice is the
    # first active item of degree <= cutoff (Knuth's if cutoff is 0 and
    # there is none), else Knuth's: least degree, then least min(slack,
    # bound), then longest list, then first.
    n = len(items)
    length = np.array([0] + [i[0] for i in items] + [0], np.int32)
    bound = np.array([0] + [i[1] for i in items], np.int32)
    slack = np.array([0] + [i[2] for i in items], np.int32)
    active = [k for k in range(1, n + 1) if items[k - 1][3]]
    rlink = np.zeros(n + 2, np.int32)
    for a, b in zip([0] + active, active + [0]):
        rlink[a] = b

    def degree(k):
        return length[k] + min(slack[k], bound[k]) - bound[k] + 1

    score, k = M.choose_item(rlink, length, bound, slack, cutoff)
    if not active:
        assert (score, k) == (M.INFINITY, 0)
        return
    early = [k for k in active if degree(k) <= cutoff]
    if early and cutoff > 0:
        assert k == early[0]
    else:
        key = lambda k: (degree(k), min(slack[k], bound[k]), -length[k])
        best = min(key(k) for k in active)
        if best[0] <= 0:
            assert degree(k) <= 0  # a dead end: any such item will do
        else:
            assert k == next(k for k in active if key(k) == best)
    assert score == degree(k)


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(colored_problems(bounded=True), st.data())
def test_givens_match_reference(case, data):
    nitems, nprimary, options, colors, bounds = case
    if not options:
        return
    forced = data.draw(
        st.lists(st.integers(0, len(options) - 1), max_size=3, unique=True)
    )
    kinds = BOUND_KERNELS if bounds else COLOR_KERNELS
    p = build(nitems, nprimary, options, colors, bounds)
    expected = generalized_covers(
        options, nprimary, nitems, colors, bounds, given=forced
    )
    for kind in kinds:
        run = runner(p, kind, given=forced)
        assert run.all() == expected
        # Releasing the givens puts every array back.
        run.release()
        assert run.restored()


def same_arrays(problem, kind, arrays):
    fresh = kernel_arrays(problem, kind)
    if kind == MULTIPLICITIES:  # first_tweak is scratch space
        fresh, arrays = fresh[:-1], arrays[:-1]
    return all(np.array_equal(a, b) for a, b in zip(fresh, arrays))


# -- pausing, resuming, unwinding ----------------------------------------------


def queens_with_bounds(n, k):
    """k queens (k a pair: u..v) in every row and column of an n x n
    board, at most one on each diagonal (a small MCC problem)."""
    rows = [f"r{i}" for i in range(n)]
    cols = [f"c{j}" for j in range(n)]
    diagonals = [f"{d}{s}" for d in "ab" for s in range(2 * n - 1)]
    p = ExactCover(
        rows + cols, diagonals, bounds=dict.fromkeys(rows + cols, k)
    )
    for i in range(n):
        for j in range(n):
            p.add_option([f"r{i}", f"c{j}", f"a{i + j}", f"b{n - 1 - i + j}"])
    return p


@pytest.mark.parametrize("kind", COLOR_KERNELS + [SSMCC])
def test_pausing_and_resuming_loses_nothing(kind):
    p = (
        knuth_queens_colored(6)
        if kind in (COLORS, SSXCC)
        else queens_with_bounds(5, (1, 2))
    )
    one_go = runner(p, kind).all()
    run = runner(p, kind)
    pieces = []
    while True:
        status, found = run.step(3, rows=3)
        pieces += found
        if status == run.K.EXHAUSTED:
            break
    assert sorted(tuple(s) for s in pieces) == one_go and one_go
    assert run.restored()


@pytest.mark.parametrize("kind", COLOR_KERNELS + [SSMCC])
@pytest.mark.parametrize("want,max_nodes", [(1, 2**62), (5, 2**62), (0, 40)])
def test_unwind_restores_a_paused_search(kind, want, max_nodes):
    p = (
        queens_with_bounds(6, (1, 2))
        if kind in BOUND_KERNELS
        else knuth_queens_colored(7)
    )
    run = runner(p, kind)
    status, _ = run.step(want, max_nodes=max_nodes)
    assert status in (run.K.PAUSED, run.K.OUT_OF_NODES)
    assert not run.restored()
    run.unwind()
    assert run.restored()


def knuth_queens_colored(n):
    """n queens where the diagonals are secondary items used with a color
    (the same answers as plain n queens: a colored diagonal may be shared
    only by options that agree, and no two queens' options agree here)."""
    rows = [f"r{i}" for i in range(n)]
    cols = [f"c{j}" for j in range(n)]
    diagonals = [f"{d}{s}" for d in "ab" for s in range(2 * n - 1)]
    p = ExactCover(rows + cols, diagonals)
    for i in range(n):
        for j in range(n):
            a, b = f"a{i + j}", f"b{n - 1 - i + j}"
            p.add_option(
                [f"r{i}", f"c{j}", a, b], colors={a: (i, j), b: (i, j)}
            )
    return p


@pytest.mark.parametrize("kind", [COLORS, SSXCC])
def test_colored_queens_count_as_queens(kind):
    assert len(runner(knuth_queens_colored(6), kind).all()) == 4
    assert len(runner(knuth_queens_colored(7), kind).all()) == 40


@pytest.mark.parametrize("kind", BOUND_KERNELS)
@pytest.mark.parametrize("n,k,count", [(4, 2, 90), (5, 2, 2040)])
def test_two_per_row_and_column_without_diagonals(n, k, count, kind):
    # k rooks per row and column: OEIS A001499 (k = 2): 1, 6, 90, 2040.
    lines = [f"r{i}" for i in range(n)] + [f"c{j}" for j in range(n)]
    p = ExactCover(lines, bounds=dict.fromkeys(lines, (k, k)))
    for i in range(n):
        for j in range(n):
            p.add_option([f"r{i}", f"c{j}"])
    assert len(runner(p, kind).all()) == count


def test_the_kernel_logic_runs_unjitted():
    p = knuth_dlx2_example()
    status, found = Run(p, py=True).step(0, rows=5)
    assert sorted(found) == [[0, 2], [1, 3]]
    status, found = Run(queens_with_bounds(4, (1, 1)), py=True).step(0, rows=5)
    assert len(found) == 2
    status, found = runner(p, SSXCC, py=True).step(0, rows=5)
    assert sorted(found) == [[0, 2], [1, 3]]
    q = queens_with_bounds(4, (1, 2))
    run, jitted = runner(q, SSMCC, py=True), runner(q, SSMCC)
    assert run.all() == jitted.all() == Run(q).all()
    assert run.counters.tolist() == jitted.counters.tolist()


# -- the API -------------------------------------------------------------------


@pytest.mark.parametrize(
    "build_it,message",
    [
        (
            lambda: ExactCover("ab", "x").add_option("ax", colors={"a": 1}),
            "primary item 'a'",
        ),
        (
            lambda: ExactCover("ab", "xy").add_option("ax", colors={"y": 1}),
            "item 'y', which is not in the option",
        ),
        (
            lambda: ExactCover("ab", "xy").add_option("ax", colors={"x": [1]}),
            "not hashable",
        ),
        (lambda: ExactCover("ab", bounds={"a": (2, 1)}), "'a' are 2..1"),
        (lambda: ExactCover("ab", bounds={"a": (0, 0)}), "'a' are 0..0"),
        (lambda: ExactCover("ab", bounds={"a": (-1, 2)}), "'a' are -1..2"),
        (lambda: ExactCover("ab", bounds={"c": (1, 2)}), "'c': no such item"),
        (
            lambda: ExactCover("ab", "x", bounds={"x": (1, 2)}),
            "'x' is secondary",
        ),
        (lambda: ExactCover("ab", bounds={"a": (1.5, 2)}), "integers"),
        (lambda: ExactCover("ab", bounds={"a": "xy"}), "integers"),
        (lambda: ExactCover("ab", bounds={"a": (1, 2, 3)}), "a pair"),
    ],
)
def test_bad_colors_and_bounds_name_the_culprit(build_it, message):
    with pytest.raises(ValueError, match=message):
        build_it()


def test_kind_picks_the_least_general_kernel():
    assert ExactCover("ab").kind == EXACT
    assert ExactCover("ab", bounds={"a": (1, 1)}).kind == EXACT
    assert ExactCover("ab", bounds={"a": 2}).kind == MULTIPLICITIES
    assert ExactCover("ab", bounds={"a": 2}).bounds == {"a": (2, 2)}
    p = ExactCover("ab", "x")
    p.add_option("ax")
    assert p.kind == EXACT
    p.add_option("bx", colors={"x": "red"})
    assert p.kind == COLORS
    assert p.option_colors(1) == {"x": "red"} and p.option_colors(0) == {}
    assert p.solution_colors([1]) == {"x": "red"}
    q = knuth_dlx2_example()
    assert q.solution_colors(q.solve()) == {"X": 0, "Y": 0}


# -- through ExactCover: solve, solutions, count, solve_batch -----------------

# The tests through ExactCover run once per algorithm (each_algorithm):
# dancing links (DLX2/DLX3) and dancing cells (SSXCC/SSMCC).


@pytest.mark.usefixtures("each_algorithm")
@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.function_scoped_fixture,
    ],
)
@given(colored_problems(bounded=True), st.data())
def test_the_api_matches_reference(case, data):
    nitems, nprimary, options, colors, bounds = case
    p = build(nitems, nprimary, options, colors, bounds)
    forced = (
        data.draw(
            st.lists(st.integers(0, len(options) - 1), max_size=2, unique=True)
        )
        if options
        else []
    )
    expected = generalized_covers(
        options, nprimary, nitems, colors, bounds, given=forced
    )
    assert sorted(tuple(s) for s in p.solutions(given=forced)) == expected
    assert p.count(given=forced) == len(expected) == p.stats.solutions
    assert p.count(limit=1, given=forced) == min(1, len(expected))
    assert p.count(given=forced, mrv_cutoff=1) == len(expected)
    first = p.solve(given=forced)
    assert (first is None) == (not expected)
    assert first is None or tuple(first) in expected
    batch = p.solve_batch([forced, []], limit=1000)
    plain = generalized_covers(options, nprimary, nitems, colors, bounds)
    assert batch.counts[1] == len(plain)
    assert batch.counts[0] in (len(expected), -1)
    if batch.counts[0] == -1:
        assert not expected
    for b, g in enumerate([forced, []]):
        if batch.counts[b] > 0:
            found = tuple(
                sorted(set(g) | {k for k in batch.solutions[b] if k >= 0})
            )
            assert found in (expected if b == 0 else plain)


@pytest.mark.usefixtures("each_algorithm")
def test_budgets_and_stats_for_colors_and_bounds():
    p = queens_with_bounds(6, (1, 2))
    total = p.count()
    assert total > 100 and p.stats.complete
    from dlx import BudgetExhausted

    with pytest.raises(BudgetExhausted) as stop:
        p.count(max_nodes=50)
    assert stop.value.stats.nodes == 50 and stop.value.count < total
    assert p.count(limit=7) == 7 and not p.stats.complete
    q = knuth_queens_colored(8)
    assert q.count() == 92
    assert sum(1 for _ in q.solutions(limit=5)) == 5
    with pytest.raises(BudgetExhausted) as stop:
        q.count(max_nodes=50)
    assert stop.value.stats.nodes == 50 and stop.value.count < 92
    assert q.count(limit=7) == 7 and not q.stats.complete


def test_mrv_cutoff_changes_the_tree_of_bounds_not_the_count():
    p = queens_with_bounds(6, (1, 2))
    # DLX3's tree ("auto" takes SSMCC for bounds, which has no cutoff).
    assert p.count(algorithm="links") == 128 and p.stats.nodes == 1119
    # Branching on the first item of degree <= 1 (or 3) walks more nodes.
    assert p.count(mrv_cutoff=1, algorithm="links") == 128
    assert p.stats.nodes == 1426
    assert p.count(mrv_cutoff=3, algorithm="links") == 128
    assert p.stats.nodes == 7980


@pytest.mark.usefixtures("each_algorithm")
def test_time_limit_stops_colors_and_bounds():
    from dlx import BudgetExhausted
    from dlx.problems import debruijn, rooks

    for p in (rooks.rooks(8, 2), debruijn.debruijn(3, 3)):
        with pytest.raises(BudgetExhausted, match="time_limit"):
            p.count(time_limit=0.05)
        assert p.stats.seconds < 2 and not p.stats.complete


@pytest.mark.usefixtures("each_algorithm")
def test_huge_upper_bounds_cost_no_memory():
    p = ExactCover(["a", "b"], bounds={"a": (0, 10**9)})
    p.add_options([["a"], ["a", "b"], ["b"]])
    assert p.count() == 4  # b once; a any number of times
    assert sorted(p.solutions()) == [[0, 1], [0, 2], [1], [2]]


@pytest.mark.parametrize("per_thread", [1, 3, 64])
@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.function_scoped_fixture,
    ],
)
@given(colored_problems(bounded=True), st.data())
def test_parallel_count_with_bounds_does_the_same_search(
    per_thread, monkeypatch, case, data
):
    # Every subtree handed out at some level (per_thread sets how deep),
    # counted on two threads: the count, nodes and updates of one thread.
    monkeypatch.setattr("dlx.services.runner.SERIAL_PROBE_NODES", 0)
    monkeypatch.setattr("dlx.services.parallel.JOBS_PER_THREAD", per_thread)
    nitems, nprimary, options, colors, bounds = case
    p = build(nitems, nprimary, options, colors, bounds)
    forced = (
        data.draw(
            st.lists(st.integers(0, len(options) - 1), max_size=2, unique=True)
        )
        if options
        else []
    )
    # Links, as "auto" takes for any bound: a drawn case may have none, and
    # "auto" may then count with dancing cells, whose split count does
    # not repeat the one-thread tree (see tests/test_engine.py).
    for cutoff in (0, 1):
        one = p.count(given=forced, mrv_cutoff=cutoff, algorithm="links")
        serial = (p.stats.nodes, p.stats.updates)
        assert (
            p.count(
                threads=2, given=forced, mrv_cutoff=cutoff, algorithm="links"
            )
            == one
        )
        assert (p.stats.nodes, p.stats.updates) == serial
        assert p.stats.complete and p.stats.solutions == one


def test_parallel_count_with_bounds_on_larger_trees(monkeypatch):
    from dlx.problems import rooks

    monkeypatch.setattr("dlx.services.runner.SERIAL_PROBE_NODES", 0)
    p = rooks.rooks(6, 3)  # OEIS A001501; dlx3's figures for this file
    assert p.count(threads=2, algorithm="links") == 297200
    assert (p.stats.nodes, p.stats.updates) == (921078, 3196671)
    q = queens_with_bounds(6, (1, 2))
    assert q.count(threads=3, algorithm="links") == 128
    assert q.stats.nodes == 1119


def test_parallel_count_with_bounds_stops_at_its_time_limit():
    from dlx import BudgetExhausted
    from dlx.problems import rooks

    p = rooks.rooks(8, 2)
    with pytest.raises(BudgetExhausted, match="time limit") as stop:
        p.count(threads=2, time_limit=0.2)
    assert not stop.value.stats.complete and p.stats.seconds < 3


@pytest.mark.parametrize(
    "name",
    ["rooks-5-3.dlx", "random-1.dlx", "optionless.dlx", "too-few-options.dlx"],
)
def test_parallel_ssmcc_count_is_the_count(name, monkeypatch):
    monkeypatch.setattr("dlx.services.runner.SERIAL_PROBE_NODES", 0)
    p = load(ssmcc_file(name))
    assert p.kind == MULTIPLICITIES
    one = p.count(algorithm="cells")
    for threads in (2, 3):
        assert (
            p.count(threads=threads, algorithm="cells")
            == one
            == p.stats.solutions
        )
        assert p.stats.complete
    for g in ([0], [0, len(p) - 1], [len(p) - 1]):
        assert p.count(given=g, threads=2, algorithm="cells") == p.count(
            given=g, algorithm="links"
        )
    q = queens_with_bounds(6, (1, 2))
    assert q.count(threads=2, algorithm="cells") == q.count(algorithm="links")
    # A solution met while the top levels are split: one option holding
    # every row and column (a line's bound 1..2 lets it stand alone).
    r = queens_with_bounds(5, (1, 2))
    r.add_option(list(r.primary))
    assert r.count(threads=2, algorithm="cells") == r.count(algorithm="links")


@pytest.mark.parametrize("n", [1, 5, 8])
def test_parallel_count_with_colors_does_the_same_search(
    n, monkeypatch, each_algorithm
):
    monkeypatch.setattr("dlx.services.runner.SERIAL_PROBE_NODES", 0)
    p = knuth_queens_colored(n)
    one = p.count()
    serial = (p.stats.nodes, p.stats.updates)
    assert p.count(threads=2) == one
    from dlx.problems import debruijn

    q = debruijn.debruijn(4)
    assert q.count(threads=2) == 16
    assert q.count(threads=2, given=[0]) == q.count(given=[0])
    assert q.count(threads=2, given=[0, 1]) == q.count(given=[0, 1]) == 0
    if each_algorithm == "links":
        assert (p.stats.nodes, p.stats.updates) == serial
        q.count(threads=2)
        assert q.stats.nodes == 189
        assert q.stats.updates == 5660  # dlx2's own figures for this file
    else:
        # Each subtree starts again from the input's item order and with
        # an empty force stack: SSXCC's work differs a little.
        assert p.stats.complete and p.stats.nodes >= p.stats.solutions


def test_parallel_count_with_colors_counts_shallow_solutions(monkeypatch):
    # One option covers every primary item: a solution at depth 1, found
    # while the top levels are split, beside the 4 of 6 queens.
    monkeypatch.setattr("dlx.services.runner.SERIAL_PROBE_NODES", 0)
    p = knuth_queens_colored(6)
    p.add_option(list(p.primary))
    assert p.count() == 5
    serial = (p.stats.nodes, p.stats.updates)
    assert p.count(threads=2) == 5
    assert (p.stats.nodes, p.stats.updates) == serial


# -- Knuth's own figures -------------------------------------------------------

DATA = Path(__file__).parent / "data"


def knuth_figures(program):
    """{file: (solutions, nodes, updates)} as Knuth's program printed them."""
    figures = {}
    for line in (DATA / program / "figures.tsv").read_text().splitlines():
        if line.startswith(("#", "file\t")):
            continue
        name, *numbers = line.split("\t")
        figures[name] = tuple(int(x) for x in numbers[:3])
    return figures


FIGURES = {"dlx2": knuth_figures("dlx2"), "dlx3": knuth_figures("dlx3")}
KIND_OF = {"dlx2": COLORS, "dlx3": MULTIPLICITIES}


@pytest.mark.parametrize(
    "program,name",
    [
        (program, name)
        for program in ("dlx2", "dlx3")
        for name in sorted(FIGURES[program])
    ],
)
def test_same_nodes_and_updates_as_knuth(program, name):
    problem = load(DATA / program / name)
    run = Run(problem, KIND_OF[program])
    run.step(0)
    counters = run.counters.tolist()
    assert (counters[2], counters[0], counters[1]) == FIGURES[program][name]
    if problem.kind == KIND_OF[program]:
        # The same search through the API, on dancing links.
        problem.count(algorithm="links")
        stats = problem.stats
        assert (stats.solutions, stats.nodes, stats.updates) == FIGURES[
            program
        ][name]


def test_every_recorded_file_has_figures():
    for program in ("dlx2", "dlx3"):
        files = {p.name for p in (DATA / program).glob("*.dlx")}
        assert files == set(FIGURES[program])


def test_dlx3_search_loop_makes_no_refcount_calls():
    """The native DLX3 search increfs its array arguments on entry and
    nothing else: helpers inlined by numba (``inline='always'``) can leave
    an incref and a decref per array argument inside the loop (the
    backup step once paid ~20 such atomic calls, 1.4x the search's time).
    A fresh, uncached compile of the same function, read in LLVM IR."""
    import re

    import numba

    problem = ExactCover("A", bounds={"A": (1, 2)})
    problem.add_option("A")
    assert problem.kind == MULTIPLICITIES
    problem.count()  # compiles (or loads) M.search: its signature
    signature = M.search.signatures[0]
    fresh = numba.njit(M.search.py_func)
    fresh.compile(signature)
    ir = fresh.inspect_llvm(signature)
    native = re.search(
        r"define [^\n]*@_ZN[^\n]*search[^\n]*\{.*?\n\}", ir, re.S
    ).group(0)
    arrays = sum(1 for t in signature if isinstance(t, numba.types.Array))
    assert native.count("@NRT_incref") == arrays

    assert set(FIGURES["dlx3"]) | {
        p.name for p in (DATA / "ssmcc").glob("*.dlx")
    } == set(SSMCC_FIGURES)


def test_dlx2_search_loop_makes_no_refcount_calls():
    """DLX2's search, as DLX3's: LLVM inlines every helper, and the only
    reference counts left are the increfs of the array arguments on entry.
    (Why ``_nrt=False``, which took two thirds off DLX5's search, where
    helper calls stay, changes nothing here: bench/nrt_xcc.py measured
    0.99-1.00 on every problem of bench/xcc.py.)"""
    import re

    import numba

    problem = ExactCover("A", "X")
    problem.add_option(["A", "X"], colors={"X": 1})
    assert problem.kind == COLORS
    problem.count(algorithm="links")  # compiles (or loads) C.search
    signature = C.search.signatures[0]
    fresh = numba.njit(C.search.py_func)
    fresh.compile(signature)
    ir = fresh.inspect_llvm(signature)
    native = re.search(
        r"define [^\n]*@_ZN[^\n]*search[^\n]*\{.*?\n\}", ir, re.S
    ).group(0)
    arrays = sum(1 for t in signature if isinstance(t, numba.types.Array))
    assert native.count("@NRT_incref") == arrays


# SSMCC's figures: for the files of tests/data/ssmcc, and of dlx3 (the
# same inputs as DLX3's; SSMCC counts its binary tree's nodes).
SSMCC_FIGURES = knuth_figures("ssmcc")


def ssmcc_file(name):
    path = DATA / "ssmcc" / name
    return path if path.exists() else DATA / "dlx3" / name


@pytest.mark.parametrize("name", sorted(SSMCC_FIGURES))
def test_same_nodes_and_updates_as_ssmcc(name):
    problem = load(ssmcc_file(name))
    run = SsmccRun(problem)
    assert run.step(0)[0] == MC.EXHAUSTED
    count = int(run.counters[2])
    assert (count, run.counters[0], run.counters[1]) == SSMCC_FIGURES[name]
    if problem.kind == MULTIPLICITIES:
        # The same search through the API (problems without bounds go to
        # SSXC1 or SSXCC with algorithm="cells").
        assert problem.count(algorithm="cells") == count
        stats = problem.stats
        assert (count, stats.nodes, stats.updates) == SSMCC_FIGURES[name]
        assert stats.solutions == count and stats.complete
    if name in FIGURES["dlx3"]:
        # The same solutions as DLX3 (which counts them in its own tree).
        assert count == FIGURES["dlx3"][name][0]


def test_ssmcc_batches_agree_on_threads_and_with_links():
    from dlx.problems import rooks

    p = rooks.rooks(5, 2)
    givens = [[k] for k in range(len(p))] + [[0, 1, 2], [0, 6]]
    one = p.solve_batch(givens, limit=10**6, algorithm="cells")
    two = p.solve_batch(givens, limit=10**6, algorithm="cells", threads=2)
    links = p.solve_batch(givens, limit=10**6, algorithm="links")
    assert one.counts.tolist() == two.counts.tolist() == links.counts.tolist()
    assert (one.counts[:-2] == 2040 * 10 // 25).all()  # 10 of 25 squares
    assert one.counts[-2] == -1  # three rooks in row 0
    assert one.nodes.tolist() == two.nodes.tolist()
    for b, (g, row) in enumerate(zip(givens, one.solutions)):
        if one.counts[b] > 0:  # the first solution: 2 rooks a line
            solution = set(g) | {k for k in row if k >= 0}
            lines = [x for k in solution for x in p.options[k]]
            assert sorted(lines) == sorted(p.primary * 2)
    assert p.solve_batch(
        [[0]], limit=1, max_nodes=3, algorithm="cells"
    ).counts.tolist() == [-2]


def test_ssmcc_starts_with_optionless_items_inactive():
    # As ssmcc's "make optionless items invisible": A (bounds 0..1) and W
    # have no option (X:b Y:a has no primary item: in no set) and start
    # out inactive, the sets of the others in input order.
    cells = SSMCCEngine().build(load(DATA / "ssmcc" / "optionless.dlx"))
    names = "A B C D W X Y Z".split()
    x = dict(zip(names, sorted(cells.item)))
    active = list(cells.item[: cells.active])
    assert cells.active == 6 and sorted(active) == sorted(
        x[n] for n in "BCDXYZ"
    )
    assert all(cells.set[cells.item[k] - 2] == k for k in range(8))
    assert not cells.uncoverable
    assert (
        SSMCCEngine()
        .build(load(DATA / "ssmcc" / "too-few-options.dlx"))
        .uncoverable
    )


@pytest.mark.parametrize(
    "run",
    [
        lambda p: p.count(algorithm="cells"),
        lambda p: p.count(threads=2, algorithm="cells"),
        lambda p: sum(1 for _ in p.solutions(algorithm="cells")),
        lambda p: p.solve_batch([[]], limit=10**9, algorithm="cells"),
        lambda p: p.solve_batch(
            [[k] for k in range(16)], limit=10**9, threads=2, algorithm="cells"
        ),
    ],
    ids=["count", "count-threads", "solutions", "batch", "batch-threads"],
)
def test_ctrl_c_stops_every_kind_of_ssmcc_run_at_once(run):
    from dlx import Interrupted
    from dlx.problems import rooks

    from test_search import interrupt_after, seconds_of_search

    run(rooks.rooks(6, 2))  # compile outside the timing, threads too
    p = rooks.rooks(8, 2)  # 187,530,840 solutions: minutes of search
    timer = interrupt_after(0.3)
    t0, c0 = time.perf_counter(), time.process_time()
    with pytest.raises(Interrupted) as stop:
        run(p)
    elapsed = seconds_of_search(t0, c0)
    timer.join()
    # At once against minutes of search; the margin is for two shared
    # cores (a fresh CI run once took 2.24 s here, 0.3 s anywhere else).
    assert elapsed < 5.0
    assert stop.value.stats.complete is False
    assert stop.value.count == stop.value.stats.solutions
    assert p.stats is stop.value.stats
