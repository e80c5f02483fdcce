"""Colors (DLX2) and multiplicities (DLX3) against a brute-force reference."""

from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from dlx import ExactCover, xcc
from dlx.formats import load
from dlx.kernels import colors as C, multiplicities as M

from reference import generalized_covers

KERNELS = {xcc.COLORS: C, xcc.MULTIPLICITIES: M}


class Run:
    """One search of ``problem`` on the kernel of ``kind``, driven kernel
    call by kernel call."""

    def __init__(self, problem, kind=None, given=(), py=False):
        self.problem = problem
        self.kind = kind or problem.kind
        self.K = xcc.kernel(self.kind)
        self.arrays = xcc.kernel_arrays(problem, self.kind)
        self.depth = xcc.depth(problem, self.kind)
        self.choice = np.zeros(self.depth, np.int32)
        self.state = np.array([0, self.K.FORWARD], np.int64)
        self.counters = np.zeros(3, np.int64)
        self.search = self.K.search.py_func if py else self.K.search
        self.clash = False
        self.given = sorted(set(given))
        self.committed = []
        for g in self.given:
            u = self.K.commit_option(int(problem.links.option_start[g]),
                                     *self.arrays)
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
        if self.kind != xcc.MULTIPLICITIES and self.arrays[1][0] == 0 \
                and not self.counters[0]:
            # DLX1/DLX2 need a primary item to start: the givens alone
            # are the one solution, one leaf node.
            self.state[1] = self.K.DONE
            self.counters += (1, 0, 1)
            return self.K.EXHAUSTED, [self.given] if rows else []
        status = self.search(*self.arrays, self.choice, self.state, out,
                             out_len, want, max_nodes, self.counters, 0)
        option_of = self.problem.links.option_of
        found = min(rows, self.counters[2] - before)
        return status, [sorted(option_of[out[r, :out_len[r]]].tolist()
                               + self.given) for r in range(found)]

    def all(self):
        status, found = self.step(0, rows=10_000)
        assert status == self.K.EXHAUSTED
        return sorted(tuple(s) for s in found)


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
    assert p.kind == xcc.COLORS
    run = Run(p)
    assert run.all() == [(0, 2), (1, 3)]
    # dlx2 < dlx2-example.dlx: 2 solutions, 15 updates, 5 nodes.
    assert run.counters.tolist() == [5, 15, 2]


def test_dlx3_example_as_dlx3_counts_it():
    p = knuth_dlx2_example()
    q = ExactCover("ABC", "XY", bounds={"C": (2, 3)})
    for k in range(len(p)):
        q.add_option(p.options[k], colors=p.option_colors(k))
    assert q.kind == xcc.MULTIPLICITIES
    run = Run(q)
    assert run.all() == [(1, 3, 4)]
    # dlx3 < dlx3-example.dlx: 1 solution, 14 updates, 6 nodes.
    assert run.counters.tolist() == [6, 14, 1]


# -- random problems against the reference --------------------------------------

@st.composite
def colored_problems(draw, bounded=False):
    nitems = draw(st.integers(1, 6))
    nsecondary = draw(st.integers(0, min(3, nitems)))
    nprimary = nitems - nsecondary
    options, colors = [], []
    for _ in range(draw(st.integers(0, 9))):
        items = sorted(draw(st.sets(st.integers(0, nitems - 1), min_size=1,
                                    max_size=nitems)))
        cols = {i: draw(st.sampled_from("rg")) for i in items
                if i >= nprimary and draw(st.booleans())}
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


@settings(max_examples=250, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(colored_problems())
def test_colors_match_reference(case):
    nitems, nprimary, options, colors, _ = case
    p = build(nitems, nprimary, options, colors)
    expected = generalized_covers(options, nprimary, nitems, colors)
    dlx2 = Run(p, xcc.COLORS)
    assert dlx2.all() == expected
    # DLX3 with every bound 1..1 is DLX2's search tree (its updates differ:
    # it leaves an empty item uncovered when it backtracks).
    dlx3 = Run(p, xcc.MULTIPLICITIES)
    assert dlx3.all() == expected
    if p.primary:
        assert dlx3.counters[0] == dlx2.counters[0]


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(colored_problems(bounded=True))
def test_multiplicities_match_reference(case):
    nitems, nprimary, options, colors, bounds = case
    p = build(nitems, nprimary, options, colors, bounds)
    expected = generalized_covers(options, nprimary, nitems, colors, bounds)
    assert Run(p, xcc.MULTIPLICITIES).all() == expected


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(colored_problems(bounded=True), st.data())
def test_givens_match_reference(case, data):
    nitems, nprimary, options, colors, bounds = case
    if not options:
        return
    forced = data.draw(st.lists(st.integers(0, len(options) - 1),
                                max_size=3, unique=True))
    kinds = [xcc.MULTIPLICITIES]
    if not bounds:
        kinds.append(xcc.COLORS)
    p = build(nitems, nprimary, options, colors, bounds)
    expected = generalized_covers(options, nprimary, nitems, colors, bounds,
                                  given=forced)
    for kind in kinds:
        run = Run(p, kind, given=forced)
        assert run.all() == expected
        # Releasing the givens puts every array back.
        for g in reversed(run.committed):
            run.K.release_option(int(p.links.option_start[g]), *run.arrays)
        assert same_arrays(p, kind, run.arrays)


def same_arrays(problem, kind, arrays):
    fresh = xcc.kernel_arrays(problem, kind)
    if kind == xcc.MULTIPLICITIES:  # first_tweak is scratch space
        fresh, arrays = fresh[:-1], arrays[:-1]
    return all(np.array_equal(a, b) for a, b in zip(fresh, arrays))


# -- pausing, resuming, unwinding ----------------------------------------------

def queens_with_bounds(n, k):
    """k queens (k a pair: u..v) in every row and column of an n x n
    board, at most one on each diagonal (a small MCC problem)."""
    rows = [f"r{i}" for i in range(n)]
    cols = [f"c{j}" for j in range(n)]
    diagonals = [f"{d}{s}" for d in "ab" for s in range(2 * n - 1)]
    p = ExactCover(rows + cols, diagonals,
                   bounds={x: k for x in rows + cols})
    for i in range(n):
        for j in range(n):
            p.add_option([f"r{i}", f"c{j}", f"a{i + j}", f"b{n - 1 - i + j}"])
    return p


@pytest.mark.parametrize("kind", [xcc.COLORS, xcc.MULTIPLICITIES])
def test_pausing_and_resuming_loses_nothing(kind):
    p = knuth_queens_colored(6) if kind == xcc.COLORS else \
        queens_with_bounds(5, (1, 1))
    one_go = Run(p, kind).all()
    run = Run(p, kind)
    pieces = []
    while True:
        status, found = run.step(3, rows=3)
        pieces += found
        if status == run.K.EXHAUSTED:
            break
    assert sorted(tuple(s) for s in pieces) == one_go and one_go
    assert same_arrays(p, kind, run.arrays)


@pytest.mark.parametrize("kind", [xcc.COLORS, xcc.MULTIPLICITIES])
@pytest.mark.parametrize("want,max_nodes", [(1, 2**62), (5, 2**62), (0, 40)])
def test_unwind_restores_a_paused_search(kind, want, max_nodes):
    p = knuth_queens_colored(7) if kind == xcc.COLORS else \
        queens_with_bounds(6, (1, 2))
    run = Run(p, kind)
    status, _ = run.step(want, max_nodes=max_nodes)
    assert status in (run.K.PAUSED, run.K.OUT_OF_NODES)
    assert not same_arrays(p, kind, run.arrays)
    run.K.unwind(*run.arrays, run.choice, run.state)
    assert same_arrays(p, kind, run.arrays)


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
            p.add_option([f"r{i}", f"c{j}", a, b],
                         colors={a: (i, j), b: (i, j)})
    return p


def test_colored_queens_count_as_queens():
    assert len(Run(knuth_queens_colored(6)).all()) == 4
    assert len(Run(knuth_queens_colored(7)).all()) == 40


@pytest.mark.parametrize("n,k,count", [(4, 2, 90), (5, 2, 2040)])
def test_two_per_row_and_column_without_diagonals(n, k, count):
    # k rooks per row and column: OEIS A001499 (k = 2): 1, 6, 90, 2040.
    p = ExactCover([f"r{i}" for i in range(n)] + [f"c{j}" for j in range(n)],
                   bounds={x: (k, k) for x in [f"r{i}" for i in range(n)]
                           + [f"c{j}" for j in range(n)]})
    for i in range(n):
        for j in range(n):
            p.add_option([f"r{i}", f"c{j}"])
    assert len(Run(p).all()) == count


def test_the_kernel_logic_runs_unjitted():
    p = knuth_dlx2_example()
    status, found = Run(p, py=True).step(0, rows=5)
    assert sorted(found) == [[0, 2], [1, 3]]
    status, found = Run(queens_with_bounds(4, (1, 1)), py=True).step(0, rows=5)
    assert len(found) == 2


# -- the API -------------------------------------------------------------------

@pytest.mark.parametrize("build_it,message", [
    (lambda: ExactCover("ab", "x").add_option("ax", colors={"a": 1}),
     "primary item 'a'"),
    (lambda: ExactCover("ab", "xy").add_option("ax", colors={"y": 1}),
     "item 'y', which is not in the option"),
    (lambda: ExactCover("ab", "xy").add_option("ax", colors={"x": [1]}),
     "not hashable"),
    (lambda: ExactCover("ab", bounds={"a": (2, 1)}), "'a' are 2..1"),
    (lambda: ExactCover("ab", bounds={"a": (0, 0)}), "'a' are 0..0"),
    (lambda: ExactCover("ab", bounds={"a": (-1, 2)}), "'a' are -1..2"),
    (lambda: ExactCover("ab", bounds={"c": (1, 2)}), "'c': no such item"),
    (lambda: ExactCover("ab", "x", bounds={"x": (1, 2)}),
     "'x' is secondary"),
    (lambda: ExactCover("ab", bounds={"a": (1.5, 2)}), "integers"),
    (lambda: ExactCover("ab", bounds={"a": "xy"}), "integers"),
    (lambda: ExactCover("ab", bounds={"a": (1, 2, 3)}), "a pair"),
])
def test_bad_colors_and_bounds_name_the_culprit(build_it, message):
    with pytest.raises(ValueError, match=message):
        build_it()


def test_kind_picks_the_least_general_kernel():
    assert ExactCover("ab").kind == xcc.EXACT
    assert ExactCover("ab", bounds={"a": (1, 1)}).kind == xcc.EXACT
    assert ExactCover("ab", bounds={"a": 2}).kind == xcc.MULTIPLICITIES
    assert ExactCover("ab", bounds={"a": 2}).bounds == {"a": (2, 2)}
    p = ExactCover("ab", "x")
    p.add_option("ax")
    assert p.kind == xcc.EXACT
    p.add_option("bx", colors={"x": "red"})
    assert p.kind == xcc.COLORS
    assert p.option_colors(1) == {"x": "red"} and p.option_colors(0) == {}
    assert p.solution_colors([1]) == {"x": "red"}
    q = knuth_dlx2_example()
    assert q.solution_colors(q.solve()) == {"X": 0, "Y": 0}


# -- through ExactCover: solve, solutions, count, solve_batch -----------------

@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(colored_problems(bounded=True), st.data())
def test_the_api_matches_reference(case, data):
    nitems, nprimary, options, colors, bounds = case
    p = build(nitems, nprimary, options, colors, bounds)
    forced = data.draw(st.lists(st.integers(0, len(options) - 1),
                                max_size=2, unique=True)) if options else []
    expected = generalized_covers(options, nprimary, nitems, colors, bounds,
                                  given=forced)
    assert sorted(tuple(s) for s in p.solutions(given=forced)) == expected
    assert p.count(given=forced) == len(expected) == p.stats.solutions
    assert p.count(limit=1, given=forced) == min(1, len(expected))
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
            found = tuple(sorted(set(g) | {k for k in batch.solutions[b]
                                           if k >= 0}))
            assert found in (expected if b == 0 else plain)


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


def test_time_limit_stops_colors_and_bounds():
    from dlx import BudgetExhausted
    from dlx.problems import debruijn, rooks
    for p in (rooks.rooks(8, 2), debruijn.debruijn(3, 3)):
        with pytest.raises(BudgetExhausted, match="time_limit"):
            p.count(time_limit=0.05)
        assert p.stats.seconds < 2 and not p.stats.complete


def test_huge_upper_bounds_cost_no_memory():
    p = ExactCover(["a", "b"], bounds={"a": (0, 10**9)})
    p.add_options([["a"], ["a", "b"], ["b"]])
    assert p.count() == 4  # b once; a any number of times
    assert sorted(p.solutions()) == [[0, 1], [0, 2], [1], [2]]


def test_threads_are_refused_for_bounds():
    with pytest.raises(ValueError, match="one thread"):
        queens_with_bounds(5, (1, 2)).count(threads=2)
    assert queens_with_bounds(5, (1, 2)).count(threads=1) > 0


@pytest.mark.parametrize("n", [1, 5, 8])
def test_parallel_count_with_colors_does_the_same_search(n, monkeypatch):
    monkeypatch.setattr("dlx.problem._SERIAL_PROBE_NODES", 0)
    p = knuth_queens_colored(n)
    one = p.count()
    serial = (p.stats.nodes, p.stats.updates)
    assert p.count(threads=2) == one
    assert (p.stats.nodes, p.stats.updates) == serial
    from dlx.problems import debruijn
    q = debruijn.debruijn(4)
    assert q.count(threads=2) == 16 and q.stats.nodes == 189
    assert q.stats.updates == 5660  # dlx2's own figures for this file
    assert q.count(threads=2, given=[0]) == q.count(given=[0])


def test_parallel_count_with_colors_counts_shallow_solutions(monkeypatch):
    # One option covers every primary item: a solution at depth 1, found
    # while the top levels are split, beside the 4 of 6 queens.
    monkeypatch.setattr("dlx.problem._SERIAL_PROBE_NODES", 0)
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
KIND_OF = {"dlx2": xcc.COLORS, "dlx3": xcc.MULTIPLICITIES}


@pytest.mark.parametrize("program,name", [
    (program, name) for program in ("dlx2", "dlx3")
    for name in sorted(FIGURES[program])])
def test_same_nodes_and_updates_as_knuth(program, name):
    problem = load(DATA / program / name)
    run = Run(problem, KIND_OF[program])
    run.step(0)
    counters = run.counters.tolist()
    assert (counters[2], counters[0], counters[1]) == FIGURES[program][name]
    if problem.kind == KIND_OF[program]:
        # The same search through the API, on the kernel it picks.
        problem.count()
        stats = problem.stats
        assert (stats.solutions, stats.nodes, stats.updates) == \
            FIGURES[program][name]


def test_every_recorded_file_has_figures():
    for program in ("dlx2", "dlx3"):
        files = {p.name for p in (DATA / program).glob("*.dlx")}
        assert files == set(FIGURES[program])
