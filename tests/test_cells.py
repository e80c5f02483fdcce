"""The dancing-cells kernel (SSXC1) called directly: its arrays, its search
against the reference and against Knuth's own figures, pausing, unwinding
and given options."""

from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from dlx import ExactCover, load
from dlx.engines.ssxc1 import Cells
from dlx.kernels import ssxc1 as C
from dlx.problems.langford import langford

from reference import exact_covers
from test_engine import small_problems

DATA = Path(__file__).parent / "data"
SHARED = Path(__file__).resolve().parents[2] / "shared" / "data" / "exactcover"
if not SHARED.is_dir():
    SHARED = Path("/work/shared/data/exactcover")


def cells_of(problem):
    """SSXC1's arrays for ``problem`` (colors, if any, left out)."""
    s = problem.structure()
    return Cells(s.nitems, s.nprimary, s.members, s.sizes)


class CellsRun:
    """One search of ``problem`` on fresh dancing-cells arrays (``cells``,
    SSXC1's by default), driven kernel call by kernel call (``search``:
    the jitted kernel or its ``py_func``), with ``given`` options
    committed first."""

    def __init__(self, problem, given=(), search=None, stack=None, cells=None):
        self.problem = problem
        self.cells = cells or cells_of(problem)
        self.K = K = self.cells.kernel
        self.search = search or K.search
        self.arrays = self.cells.copy_arrays()
        self.depth = len(problem.primary) + 1
        self.stack = np.zeros(2 * (stack or self.cells.stack_size()), np.int32)
        self.saved = np.zeros(self.depth + 1, np.int64)
        self.choice = np.zeros(self.depth, np.int32)
        self.state = self.cells.new_state()
        self.counters = np.zeros(3, np.int64)
        self.given = [int(self.cells.option_start[g]) for g in given]
        self.clash = False
        item, set_, nd, second = self.arrays
        for k, p in enumerate(self.given):
            u = K.commit_option(
                p, item, set_, nd, second, self.stack, self.state
            )
            while u == -2:
                self.grow()
                u = K.commit_option(
                    p, item, set_, nd, second, self.stack, self.state
                )
            if u == -1:
                self.clash = True
                del self.given[k:]  # only those committed
                break
            self.counters[1] += u

    def grow(self):
        self.stack = np.concatenate([self.stack, np.zeros_like(self.stack)])

    def step(self, want, rows=0, max_nodes=2**62):
        """One call (more when the stack must grow); its status and the
        first ``rows`` solutions it found, as sorted option numbers."""
        option_of = self.cells.option_of
        solutions = []
        while True:
            out = np.zeros((rows, self.depth), np.int32)
            out_len = np.zeros(rows, np.int32)
            before = self.counters[2]
            status = self.search(
                *self.arrays,
                self.stack,
                self.saved,
                self.choice,
                self.state,
                out,
                out_len,
                want,
                max_nodes,
                self.counters,
            )
            found = min(rows, self.counters[2] - before)
            solutions += [
                sorted(option_of[out[r, : out_len[r]]].tolist())
                for r in range(found)
            ]
            if status != self.K.STACK_FULL:
                return status, solutions
            want -= self.counters[2] - before  # what is still wanted
            rows -= found
            self.grow()

    def all_solutions(self, per_call=3):
        if self.clash:
            return []
        found = []
        while True:
            status, got = self.step(per_call, rows=per_call)
            found += got
            if status == self.K.EXHAUSTED:
                return found

    def release(self):
        item, set_, nd, second = self.arrays
        for p in reversed(self.given):
            self.K.release_option(p, set_, nd, self.stack, self.state)


def same_sets(cells, arrays, active=None):
    """Do the arrays hold the same active items, and every item the same
    set of active options, as ``cells`` (order aside)?"""
    item, set_, nd, second = arrays
    loc = nd[1 :: cells.width]
    n = len(cells.item)
    if sorted(item.tolist()) != sorted(cells.item.tolist()):
        return False
    for x in cells.item:
        size = set_[x - 1]
        if size != cells.set[x - 1]:
            return False
        if set(set_[x : x + size]) != set(cells.set[x : x + size]):
            return False
        if set_[item[set_[x - 2]] - 2] != set_[x - 2]:
            return False
    return all(
        set_[loc[q]] == q for x in item for q in set_[x : x + set_[x - 1]]
    ) and n == len(item)


def toy():
    p = ExactCover("abcde", secondary="fg")
    p.add_options(["cef", "adg", "bcf", "ad", "bg", "deg"])
    return p


def queens(n):
    p = ExactCover(
        [f"r{i}" for i in range(n)] + [f"c{j}" for j in range(n)],
        [f"{d}{k}" for d in "ab" for k in range(2 * n - 1)],
    )
    for i in range(n):
        for j in range(n):
            p.add_option([f"r{i}", f"c{j}", f"a{i + j}", f"b{n - 1 - i + j}"])
    return p


# -- the arrays -----------------------------------------------------------------


def test_toy_arrays_are_those_of_the_docstring():
    c = cells_of(toy())
    assert c.item.tolist() == [2, 6, 10, 14, 19, 23, 27]
    assert c.second == 23
    assert c.set.tolist() == [
        0,
        2,
        5,
        13,
        1,
        2,
        9,
        16,
        2,
        2,
        1,
        10,
        3,
        3,
        6,
        14,
        19,
        4,
        2,
        2,
        20,
        5,
        2,
        3,
        11,
        6,
        3,
        7,
        17,
        21,
    ]
    assert c.itm.tolist() == [
        0,
        10,
        19,
        23,
        -3,
        2,
        14,
        27,
        -3,
        6,
        10,
        23,
        -3,
        2,
        14,
        -2,
        6,
        27,
        -2,
        14,
        19,
        27,
        -3,
    ]
    assert c.loc.tolist() == [
        3,
        10,
        19,
        23,
        3,
        2,
        14,
        27,
        3,
        6,
        11,
        24,
        2,
        3,
        15,
        2,
        7,
        28,
        3,
        16,
        20,
        29,
        0,
    ]
    assert c.option_start.tolist() == [1, 5, 9, 13, 16, 19]
    assert not c.uncoverable


def test_options_without_a_primary_item_are_in_no_set():
    p = ExactCover(["a"], ["x", "y"])
    p.add_options([["x", "y"], ["a", "x"], ["y"]])
    c = cells_of(p)
    x, y = c.item[1], c.item[2]
    assert c.set[x - 1] == 1 and c.set[y - 1] == 0  # only "a x" is kept
    assert c.itm[c.option_start[0]] == x  # but its nodes are there


def test_an_item_in_no_option_with_a_primary_is_uncoverable():
    p = ExactCover(["a", "b"], ["x"])
    p.add_options([["a"], ["b", "x"]])
    assert not cells_of(p).uncoverable
    p = ExactCover(["a", "b"], ["x"])
    p.add_options([["a"], ["x"]])
    assert cells_of(p).uncoverable


# -- against Knuth's SSXC1 ----------------------------------------------------------


def ssxc1_figures():
    figures = {}
    for line in (DATA / "ssxc1" / "figures.tsv").read_text().splitlines():
        if line.startswith(("#", "file\t")):
            continue
        name, *numbers = line.split("\t")
        figures[name] = tuple(int(x) for x in numbers[:3])
    return figures


SSXC1 = ssxc1_figures()


def ssxc1_run(path):
    run = CellsRun(load(path))
    run.step(0)
    return tuple(
        int(v) for v in (run.counters[2], run.counters[0], run.counters[1])
    )


def test_toy_search_is_that_of_ssxc1():
    run = CellsRun(toy())
    assert run.all_solutions() == [[0, 3, 4]]
    assert tuple(run.counters) == (5, 27, 1)  # SSXC1: 5 nodes, 27 updates


@pytest.mark.parametrize(
    "name", sorted(p.name for p in (DATA / "dlx1").glob("*.dlx"))
)
def test_same_solutions_nodes_and_updates_as_ssxc1(name):
    assert ssxc1_run(DATA / "dlx1" / name) == SSXC1[name]


@pytest.mark.skipif(not SHARED.is_dir(), reason="shared data absent")
@pytest.mark.parametrize(
    "name",
    sorted(
        n
        for n in SSXC1
        if not n.startswith(
            ("pentomino", "sudoku-grids-6", "langford-12", "queens-13")
        )
    ),
)
def test_shared_files_as_ssxc1(name):
    assert ssxc1_run(SHARED / name) == SSXC1[name]


@pytest.mark.slow
@pytest.mark.skipif(not SHARED.is_dir(), reason="shared data absent")
@pytest.mark.parametrize(
    "name", ["pentomino-6x10-xquarter.dlx", "langford-12.dlx", "queens-13.dlx"]
)
def test_long_shared_files_as_ssxc1(name):
    assert ssxc1_run(SHARED / name) == SSXC1[name]


# -- against the reference ------------------------------------------------------------


@settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(small_problems(), st.data())
def test_kernel_matches_reference(case, data):
    nitems, nprimary, options = case
    forced = (
        data.draw(
            st.lists(st.integers(0, len(options) - 1), max_size=2, unique=True)
        )
        if options
        else []
    )
    p = ExactCover(range(nprimary), range(nprimary, nitems))
    p.add_options(options)
    expected = exact_covers(options, nprimary, nitems, given=forced)
    per_call = data.draw(st.integers(1, 3))
    run = CellsRun(
        p, given=forced, stack=data.draw(st.sampled_from([None, 1]))
    )
    found = run.all_solutions(per_call)
    assert sorted(tuple(sorted(s + forced)) for s in found) == expected
    assert len(found) == len(set(map(tuple, found)))
    if not run.clash:
        run.release()
        assert run.state[C.ACTIVE] == len(run.cells.item)
        assert run.state[C.SAVEPTR] == 0
    if not run.clash:
        assert same_sets(run.cells, run.arrays)


# -- pausing, budgets, unwinding -----------------------------------------------------


def test_pausing_and_resuming_loses_nothing():
    one_go = CellsRun(queens(8))
    first = one_go.all_solutions(per_call=1000)
    pieces = CellsRun(queens(8)).all_solutions(per_call=3)
    assert pieces == first and len(first) == 92


def test_the_sets_come_back_after_a_full_search():
    run = CellsRun(queens(7))
    status, _ = run.step(0)
    assert status == C.EXHAUSTED and run.counters[2] == 40
    assert run.state[C.WHERE] == C.DONE
    assert same_sets(run.cells, run.arrays)


@pytest.mark.parametrize(
    "want,max_nodes", [(1, 2**62), (7, 2**62), (0, 50), (0, 1)]
)
def test_unwind_restores_a_paused_search(want, max_nodes):
    run = CellsRun(queens(7))
    status, _ = run.step(want, max_nodes=max_nodes)
    assert status in (C.PAUSED, C.OUT_OF_NODES)
    if max_nodes > 1:
        assert not same_sets(run.cells, run.arrays)
    C.unwind(run.arrays[1], run.stack, run.saved, run.state)
    assert same_sets(run.cells, run.arrays)
    assert run.state[C.ACTIVE] == len(run.cells.item)


def test_node_budget_counts_nodes_like_the_full_search():
    run = CellsRun(load(DATA / "dlx1" / "queens-8.dlx"))
    total = 0
    while True:
        status, _ = run.step(0, max_nodes=run.counters[0] + 10)
        total += 1
        if status == C.EXHAUSTED:
            break
        assert status == C.OUT_OF_NODES
    assert tuple(run.counters) == (807, 14897, 92)  # SSXC1's, in 81 calls
    assert total > 50


def test_a_tiny_stack_grows_without_changing_the_search():
    run = CellsRun(load(DATA / "dlx1" / "queens-8.dlx"), stack=1)
    run.step(0)
    assert tuple(run.counters) == (807, 14897, 92)


def test_the_kernel_logic_runs_unjitted():
    run = CellsRun(toy(), search=C.search.py_func)
    status, found = run.step(0, rows=2)
    assert status == C.EXHAUSTED and found == [[0, 3, 4]]
    assert tuple(run.counters) == (5, 27, 1)


def test_a_given_clash_changes_nothing():
    run = CellsRun(toy(), given=[0, 2])  # both hold c and f
    assert run.clash
    assert run.state[C.ACTIVE] == 7 - 3 and run.state[C.SAVEPTR] == 7


@settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(small_problems(), st.data())
def test_commit_options_is_commit_option_in_turn(case, data):
    """The givens committed at once (one save of the sizes) leave exactly
    the arrays and updates of committing them one by one, and
    release_options undoes them; a clash leaves the sizes as they were."""
    nitems, nprimary, options = case
    if not options:
        return
    p = ExactCover(range(nprimary), range(nprimary, nitems))
    p.add_options(options)
    c = cells_of(p)
    forced = data.draw(
        st.lists(st.integers(0, len(options) - 1), max_size=4, unique=True)
    )
    nodes = np.array([c.option_start[g] for g in forced], np.int32)
    one = CellsRun(p, given=forced)
    arrays = c.copy_arrays()
    item, set_, nd, second = arrays
    stack = np.zeros(2 * c.stack_size(), np.int32)
    state = c.new_state()
    u = C.commit_options(nodes, item, set_, nd, second, stack, state)
    if one.clash:
        assert u == -1
        assert state[C.ACTIVE] == len(c.item) and state[C.SAVEPTR] == 0
        assert same_sets(c, arrays)
        return
    assert u == one.counters[1]
    assert state[C.ACTIVE] == one.state[C.ACTIVE]
    for mine, theirs in zip(arrays[:3], one.arrays[:3]):
        assert mine.tolist() == theirs.tolist()
    C.release_options(0, set_, stack, state)
    assert state[C.ACTIVE] == len(c.item) and state[C.SAVEPTR] == 0
    assert same_sets(c, arrays)


def test_commit_options_wants_room_for_one_save():
    c = cells_of(toy())
    item, set_, nd, second = c.copy_arrays()
    state = c.new_state()
    stack = np.zeros(2 * 6, np.int32)  # 7 items active: one entry short
    nodes = np.array([c.option_start[3]], np.int32)
    assert C.commit_options(nodes, item, set_, nd, second, stack, state) == -2
    assert state[C.ACTIVE] == 7 and state[C.SAVEPTR] == 0


# -- the batch kernel ---------------------------------------------------------------


def batch(problem, givens, limit):
    c = cells_of(problem)
    arrays = c.copy_arrays()
    nodes = np.array(
        [c.option_start[g] for gs in givens for g in gs], np.int32
    )
    starts = np.zeros(len(givens) + 1, np.int64)
    np.cumsum([len(g) for g in givens], out=starts[1:])
    first = np.full((len(givens), len(problem.primary) + 1), -1, np.int32)
    first_len = np.zeros(len(givens), np.int32)
    counts = np.zeros(len(givens), np.int64)
    work = np.zeros((len(givens), 3), np.int64)
    C.solve_batch(
        *arrays,
        c.item,
        c.set,
        c.nd,
        nodes,
        starts,
        limit,
        2**62,
        first,
        first_len,
        counts,
        work,
        np.zeros(1, np.uint8),
    )
    return c, counts, first, first_len, work


def test_batch_instances_search_as_fresh_runs():
    p = queens(8)
    givens = [[k] for k in range(0, 64, 5)] + [[0, 1], [0, 10], []]
    c, counts, first, first_len, work = batch(p, givens, 0)
    assert counts[-3] == -1  # same row
    for b, g in enumerate(givens):
        if counts[b] < 0:
            continue
        run = CellsRun(p, given=g)
        found = run.all_solutions(1000)
        assert counts[b] == len(found)
        assert tuple(work[b]) == (
            run.counters[0],
            run.counters[1] - work[b, 2],
            work[b, 2],
        )
        if found:
            mine = sorted(c.option_of[first[b, : first_len[b]]].tolist())
            assert mine == found[0]
    assert counts[-1] == 92 and tuple(work[-1]) == (896, 18532, 0)


# -- counting on threads ---------------------------------------------------------


@pytest.mark.parametrize(
    "problem", [queens(8), langford(8)], ids=["queens-8", "langford-8"]
)
def test_threaded_count_is_its_split_plus_each_subtree_alone(
    problem, monkeypatch
):
    """A threaded count's figures are exactly the split's nodes and
    updates plus those of every job searched from fresh arrays (they
    cannot be one thread's: see ``dlx.engines.ssxc1``), whatever the
    scheduling."""
    from dlx.jobs import split
    from dlx.services.parallel import JOBS_PER_THREAD

    monkeypatch.setattr("dlx.services.runner.SERIAL_PROBE_NODES", 0)
    one = problem.count(algorithm="cells")
    assert problem.count(threads=2, algorithm="cells") == one
    threaded = problem.stats
    assert problem.count(threads=2, algorithm="cells") == one
    again = problem.stats
    assert (again.nodes, again.updates) == (threaded.nodes, threaded.updates)
    plan = split(
        problem, split_into=JOBS_PER_THREAD * 2, probes=0, algorithm="cells"
    )
    assert len(plan.jobs) > 1
    found, nodes, updates = plan.solutions, plan.nodes, plan.updates
    for job in plan.jobs:  # each subtree alone
        result = plan.run(problem, job)
        found += result.solutions
        nodes += result.nodes
        updates += result.updates
    assert found == one
    assert (threaded.nodes, threaded.updates) == (nodes, updates)
