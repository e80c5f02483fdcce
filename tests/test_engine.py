"""The exact-cover engine against a pure-Python reference and known answers."""

import itertools
import time

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from dlx import BudgetExhausted, ExactCover
from dlx.kernels import dlx1 as K

from arrays import links_of
from reference import exact_covers, is_exact_cover

# Every test here runs on both kernels, dancing links and dancing cells.
pytestmark = pytest.mark.usefixtures("each_algorithm")

TOY_OPTIONS = ["cef", "adg", "bcf", "ad", "bg", "deg"]


def toy():
    """Knuth's seven-item example, f and g secondary."""
    p = ExactCover("abcde", secondary="fg")
    p.add_options(TOY_OPTIONS)
    return p


def queens(n):
    rows = [f"r{i}" for i in range(n)]
    cols = [f"c{j}" for j in range(n)]
    diagonals = [f"{d}{k}" for d in "ab" for k in range(2 * n - 1)]
    p = ExactCover(rows + cols, diagonals)
    for i, j in itertools.product(range(n), repeat=2):
        p.add_option([f"r{i}", f"c{j}", f"a{i + j}", f"b{n - 1 - i + j}"])
    return p


# -- known answers ----------------------------------------------------------


def test_toy_has_its_one_solution():
    p = toy()
    assert p.solve() == [0, 3, 4]
    assert [p.options[k] for k in p.solve()] == [
        ("c", "e", "f"),
        ("a", "d"),
        ("b", "g"),
    ]
    assert list(p.solutions()) == [[0, 3, 4]]
    assert p.count() == 1


@pytest.mark.parametrize(
    "n,expected",
    [
        (1, 1),
        (2, 0),
        (3, 0),
        (4, 2),
        (5, 10),
        (6, 4),
        (7, 40),
        (8, 92),
        (9, 352),
        (10, 724),
    ],
)
def test_queens_counts(n, expected):
    p = queens(n)
    assert p.count() == expected
    assert p.stats.solutions == expected and p.stats.complete


def test_queens_solutions_are_distinct_and_valid():
    p = queens(8)
    solutions = list(p.solutions())
    assert len(solutions) == 92 == len({tuple(s) for s in solutions})
    assert all(is_exact_cover(p, s) for s in solutions)
    assert all(s == sorted(s) for s in solutions)


def test_node_count_is_that_of_dlx1_on_the_toy(each_algorithm):
    # DLX1 by hand: a (first of the shortest) at the root; under "a d g",
    # b then e (empty: dead end); under "a d", e then b, and the solution
    # is a leaf node of its own.  SSXC1 sees at once that "a d g" leaves e
    # without an option (no node), and prints 5 nodes, 27 updates.  The
    # bitset engines count branch points and solutions only (docs/bits.md):
    # here one.
    p = toy()
    p.count()
    nodes = {"links": 6, "cells": 5, "bits": 1}[each_algorithm]
    assert (p.stats.nodes, p.stats.solutions) == (nodes, 1)
    assert p.stats.updates > 0 and p.stats.seconds >= 0


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 4), st.booleans()), min_size=1, max_size=70
    ),
    st.integers(0, 2),
)
def test_block_scan_chooses_as_a_walk_of_the_active_list(items, cutoff):
    # items[k-1] = (length, covered) of primary item k; the kernel must
    # pick what DLX1's walk of the active list picks: the first item with
    # at most `cutoff` options, else the first with the fewest.
    n = len(items)
    active = [k for k in range(1, n + 1) if not items[k - 1][1]]
    if not active:
        active = [n]
    ring = [0] + active
    llink = np.zeros(n + 2, np.int32)
    rlink = np.zeros(n + 2, np.int32)
    for a, b in zip(ring, ring[1:] + ring[:1]):
        rlink[a], llink[b] = b, a
    length = np.zeros(n + 2, np.int32)
    for k, (size, _) in enumerate(items, 1):
        length[k] = size + (0 if k in active else K.COVERED)
    walk = None
    for k in active:
        if walk is None or length[k] < length[walk]:
            walk = k
            if length[k] <= cutoff:
                break
    assert K.choose_item(llink, rlink, length, cutoff) == walk


# -- against the reference ----------------------------------------------------


@st.composite
def small_problems(draw):
    nitems = draw(st.integers(1, 7))
    nsecondary = draw(st.integers(0, min(3, nitems)))
    options = draw(
        st.lists(
            st.sets(
                st.integers(0, nitems - 1), min_size=1, max_size=nitems
            ).map(sorted),
            min_size=0,
            max_size=14,
        )
    )
    return nitems, nitems - nsecondary, options


@settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(small_problems())
def test_matches_reference(case):
    nitems, nprimary, options = case
    p = ExactCover(range(nprimary), range(nprimary, nitems))
    p.add_options(options)
    expected = exact_covers(options, nprimary, nitems)
    found = sorted(tuple(s) for s in p.solutions())
    assert found == expected
    assert p.count() == len(expected)
    assert p.count(mrv_cutoff=1) == len(expected)
    assert p.count(limit=2) == min(2, len(expected))
    first = p.solve()
    assert (first is None) == (not expected)
    if first is not None:
        assert tuple(first) in expected


@settings(max_examples=150, deadline=None)
@given(small_problems(), st.data())
def test_given_options_match_reference(case, data):
    nitems, nprimary, options = case
    if not options:
        return
    forced = data.draw(
        st.lists(st.integers(0, len(options) - 1), max_size=2, unique=True)
    )
    p = ExactCover(range(nprimary), range(nprimary, nitems))
    p.add_options(options)
    expected = exact_covers(options, nprimary, nitems, given=forced)
    assert sorted(tuple(s) for s in p.solutions(given=forced)) == expected
    assert p.count(given=forced) == len(expected)
    batch = p.solve_batch([forced], limit=1000)
    overlap = len({i for k in forced for i in options[k]}) < sum(
        len(options[k]) for k in forced
    )
    assert batch.counts[0] == (-1 if overlap else len(expected))


@settings(max_examples=150, deadline=None)
@given(small_problems())
def test_from_matrix_agrees_with_add_option(case):
    nitems, nprimary, options = case
    matrix = np.zeros((len(options), nitems), np.int8)
    for r, opt in enumerate(options):
        matrix[r, opt] = 1
    p = ExactCover.from_matrix(matrix, secondary=nitems - nprimary)
    assert np.array_equal(p.to_matrix(), matrix)
    expected = exact_covers(options, nprimary, nitems)
    assert sorted(tuple(s) for s in p.solutions()) == expected


# -- the kernel's own invariants ----------------------------------------------


class KernelRun:
    """One search of ``problem``, driven kernel call by kernel call (by
    ``search``: the jitted kernel, or its plain-Python ``py_func``)."""

    def __init__(self, problem, search=K.search):
        self.problem = problem
        self.search = search
        self.arrays = links_of(problem).copy_arrays()
        self.depth = len(problem.primary) + 1
        self.choice = np.zeros(self.depth, np.int32)
        self.state = np.array([0, K.FORWARD], np.int64)
        self.counters = np.zeros(3, np.int64)

    def step(self, want, rows=0, max_nodes=2**62):
        """One call; returns its status and the first ``rows`` solutions
        it found, as sorted option numbers."""
        out = np.zeros((rows, self.depth), np.int32)
        out_len = np.zeros(rows, np.int32)
        before = self.counters[2]
        status = self.search(
            *self.arrays,
            self.choice,
            self.state,
            out,
            out_len,
            want,
            max_nodes,
            self.counters,
            0,
        )
        option_of = links_of(self.problem).option_of
        found = min(rows, self.counters[2] - before)
        return status, [
            sorted(option_of[out[r, : out_len[r]]]) for r in range(found)
        ]


def same_links(problem, arrays):
    links = links_of(problem)
    original = (
        links.llink,
        links.rlink,
        links.ulink,
        links.dlink,
        links.top,
        links.length,
    )
    return all(np.array_equal(a, b) for a, b in zip(original, arrays))


def test_links_come_back_after_a_full_search():
    p = queens(7)
    run = KernelRun(p)
    status, _ = run.step(want=0)
    assert status == K.EXHAUSTED and run.counters[2] == 40
    assert same_links(p, run.arrays)


@pytest.mark.parametrize("want,max_nodes", [(1, 2**62), (7, 2**62), (0, 50)])
def test_unwind_restores_a_paused_search(want, max_nodes):
    p = queens(7)
    run = KernelRun(p)
    status, _ = run.step(want, max_nodes=max_nodes)
    assert status in (K.PAUSED, K.OUT_OF_NODES)
    assert not same_links(p, run.arrays)
    K.unwind(*run.arrays, run.choice, run.state)
    assert same_links(p, run.arrays)


def test_pausing_and_resuming_loses_nothing():
    p = queens(8)
    one_go = list(p.solutions(algorithm="links"))
    run = KernelRun(p)
    pieces = []
    while True:
        status, found = run.step(3, rows=3)
        pieces += found
        if status == K.EXHAUSTED:
            break
    assert pieces == one_go


def test_the_kernel_logic_runs_unjitted():
    # The same code as plain Python: covers the logic, not just the binary.
    run = KernelRun(toy(), K.search.py_func)
    status, found = run.step(0, rows=2)
    assert status == K.EXHAUSTED and run.counters[2] == 1
    assert found == [[0, 3, 4]]


# -- streaming, limits and budgets ----------------------------------------------


def many_solutions(bits=24):
    """2**bits solutions: each item is covered by either of two options."""
    p = ExactCover(range(bits))
    for i in range(bits):
        p.add_options([[i], [i]])
    return p


def test_solutions_streams_without_searching_ahead():
    p = many_solutions()
    first = next(p.solutions())
    assert first == list(range(0, 48, 2))
    assert p.stats.solutions == 1 and p.stats.nodes == 24 + 1  # + a leaf
    firsts = list(itertools.islice(p.solutions(), 100))
    assert len({tuple(s) for s in firsts}) == 100
    assert p.stats.solutions < 300  # batches grow, but stay small


def test_two_streams_are_independent():
    p = queens(6)
    first, second = list(p.solutions())[:2]
    a, b = p.solutions(), p.solutions()
    assert [next(a), next(b), next(a), next(b)] == [
        first,
        first,
        second,
        second,
    ]


def test_count_with_limit_stops_early():
    p = many_solutions()
    assert p.count(limit=2) == 2
    assert p.stats.nodes == 24 + 2  # 24 levels down, then two leaves
    assert p.count(limit=5) == 5
    assert list(p.solutions(limit=3)) == list(
        itertools.islice(p.solutions(), 3)
    )


def test_node_budget_raises_with_partial_count():
    p = queens(10)
    with pytest.raises(BudgetExhausted) as stop:
        p.count(max_nodes=200)
    assert stop.value.stats.nodes == 200 and not stop.value.stats.complete
    assert 0 <= stop.value.count < 724
    found = []
    with pytest.raises(BudgetExhausted):
        for s in p.solutions(max_nodes=2000):
            found.append(s)
    assert len(found) == p.stats.solutions > 0


def test_time_limit_stops_the_search():
    p = many_solutions(40)
    t0 = time.perf_counter()
    with pytest.raises(BudgetExhausted, match="time_limit"):
        p.count(time_limit=0.2)
    assert time.perf_counter() - t0 < 30  # stopped, not ran for 2**40


def test_a_budget_large_enough_is_not_reported():
    p = queens(6)
    assert p.count(max_nodes=10**6) == 4 and p.stats.complete


# -- edge cases ---------------------------------------------------------------


def test_no_primary_items_has_the_empty_solution():
    p = ExactCover([], ["x"])
    p.add_option(["x"])
    assert p.solve() == []
    assert p.count() == 1
    assert list(p.solutions()) == [[]]


def test_no_items_at_all_has_the_empty_solution():
    assert ExactCover().count() == 1


def test_a_primary_item_in_no_option_means_no_solution():
    p = ExactCover(["a", "b"])
    p.add_option(["a"])
    assert p.solve() is None and p.count() == 0


def test_secondary_only_options_are_never_needed():
    p = ExactCover(["a"], ["x", "y"])
    p.add_options([["x", "y"], ["a"], ["a", "x"], ["y"]])
    assert sorted(p.solutions()) == [[1], [2]]


def test_given_options_are_part_of_the_answer():
    p = toy()
    assert p.solve(given=[3]) == [0, 3, 4]
    assert p.solve(given=[1]) is None
    assert p.solve(given=[0, 3, 4]) == [0, 3, 4]
    assert p.solve(given=[0, 2]) is None  # they overlap in c and f


def test_a_given_option_listed_twice_counts_once():
    p = toy()
    assert p.solve(given=[3, 3]) == [0, 3, 4]
    assert p.count(given=[3, 3, 4]) == 1


def test_solve_batch_reads_csr_only_when_told():
    p = queens(8)
    pair = (np.array([3, 12]), np.array([0, 1, 2]))
    as_instances = p.solve_batch(pair, limit=1000)
    assert as_instances.counts.tolist() == [-1, -1]  # each clashes itself
    csr = p.solve_batch(
        np.array([3, 12]), starts=np.array([0, 1, 2]), limit=1000
    )
    assert csr.counts.tolist() == [p.count(given=[3]), p.count(given=[12])]


def test_solve_batch_counts_a_repeated_given_once():
    p = toy()
    assert p.solve_batch([[3, 3], [3, 4, 3]]).counts.tolist() == [1, 1]
    result = p.solve_batch(np.array([3, 3, 0]), starts=np.array([0, 2, 3]))
    assert result.counts.tolist() == [1, 1]


def test_complete_means_the_whole_tree_was_explored():
    p = queens(6)
    p.count()
    assert p.stats.complete
    p.count(limit=1)
    assert not p.stats.complete and "stopped early" in str(p.stats)
    p.solve_batch([[0], [1]], limit=100)
    assert p.stats.complete
    p.solve_batch([[]], limit=1)
    assert not p.stats.complete


def test_adding_options_after_a_search_rebuilds():
    p = ExactCover(["a", "b"])
    p.add_option(["a"])
    assert p.count() == 0
    p.add_option(["b"])
    assert p.count() == 1


# -- bad input ----------------------------------------------------------------


@pytest.mark.parametrize(
    "build,message",
    [
        (lambda: ExactCover(["a", "a"]), "item 'a' is named twice"),
        (lambda: ExactCover(["a"], ["a"]), "item 'a' is named twice"),
        (lambda: ExactCover([["a"]]), "not hashable"),
        (lambda: ExactCover(["a"]).add_option(["b"]), "unknown item 'b'"),
        (
            lambda: ExactCover(["a", "b"]).add_option(["a", "b", "a"]),
            "item 'a' appears twice",
        ),
        (lambda: ExactCover(["a"]).add_option([]), "option 0 is empty"),
        (lambda: ExactCover(["ab"]).add_option("ab"), "pass a list of names"),
        (lambda: ExactCover(["a"]).add_option(5), "not an iterable"),
        (lambda: ExactCover.from_matrix([[0, 2]]), r"entry \[0, 1\] is 2"),
        (
            lambda: ExactCover.from_matrix([[1, 0], [0, 0]]).solve(given=[1]),
            "given option 1 is empty",
        ),
        (
            lambda: ExactCover.from_matrix([[1, 0], [0, 0]]).solve_batch(
                [[1]]
            ),
            "given option 1 is empty",
        ),
        (lambda: ExactCover.from_matrix([1, 0]), "2-dimensional"),
        (lambda: ExactCover.from_matrix([[1, 0]], secondary=3), "secondary=3"),
        (lambda: toy().solve(given=[6]), "given option 6 does not exist"),
        (lambda: toy().count(limit=-1), "limit must be"),
        (lambda: toy().count(time_limit=-1), "time_limit must be"),
        (lambda: toy().count(mrv_cutoff=-1), "mrv_cutoff must be"),
        (lambda: toy().solve_batch([[7]]), "given option 7 does not exist"),
        (lambda: toy().count(algorithm="dance"), "algorithm must be one of"),
        (lambda: toy().solve(algorithm="DLX1"), "algorithm must be one of"),
        (lambda: toy().solve_batch([[1]], algorithm=""), "algorithm must be"),
        (lambda: toy().solve_batch([[3.9]]), r"givens\[0\] must be a flat"),
        (
            lambda: toy().solve_batch(np.array([1]), starts=np.array([0, 2])),
            "starts must rise",
        ),
    ],
)
def test_bad_input_gets_one_clear_value_error(build, message):
    with pytest.raises(ValueError, match=message):
        build()


@pytest.mark.parametrize(
    "build, message",
    [
        (lambda: toy().solve(given=["a"]), "not an option number"),
        (lambda: toy().count(max_nodes=1.5), "max_nodes must be an integer"),
        (lambda: toy().count(limit="2"), "limit must be an integer"),
        (lambda: toy().count(time_limit="1"), "time_limit must be a number"),
        (lambda: toy().count(threads=True), "threads must be an integer"),
        (
            lambda: toy().solve_batch([[1]], limit=2.0),
            "limit must be an integer",
        ),
        (lambda: toy().count(algorithm=None), "algorithm must be one of"),
    ],
)
def test_a_wrong_type_is_a_type_error(build, message):
    with pytest.raises(TypeError, match=message):
        build()


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"max_nodes": -1}, "max_nodes must be a non-negative"),
        ({"limit": 0}, "limit must be a positive"),
        ({"threads": -1}, "threads must be a non-negative"),
        ({"mrv_cutoff": -1}, "mrv_cutoff must be a non-negative"),
    ],
)
def test_solve_batch_checks_its_numbers_like_count(kwargs, message):
    with pytest.raises(ValueError, match=message):
        toy().solve_batch([[1]], **kwargs)


# -- threads ------------------------------------------------------------------


@pytest.fixture
def always_split(monkeypatch):
    """Make count(threads=N) split even the smallest tree."""
    monkeypatch.setattr("dlx.services.runner.SERIAL_PROBE_NODES", 0)


@pytest.mark.parametrize("n", [1, 4, 8, 9])
def test_parallel_count_does_the_same_search(n, always_split, each_algorithm):
    p = queens(n)
    one = p.count()
    serial = (p.stats.nodes, p.stats.updates)
    assert p.count(threads=2) == one
    if each_algorithm == "links":
        assert (p.stats.nodes, p.stats.updates) == serial
    else:
        # Each subtree starts from the input's item order, which breaks
        # SSXC1's MRV ties, and its root is a given option committed
        # without SSXC1's look-ahead: the work differs a little.
        assert p.stats.complete and p.stats.nodes >= p.stats.solutions


def test_parallel_count_leaves_small_trees_to_one_thread(monkeypatch):
    def no_split(*args):
        raise AssertionError("split a tree of a few hundred nodes")

    monkeypatch.setattr("dlx.services.parallel.count_parallel", no_split)
    p = queens(6)
    assert p.count(threads=2) == 4 and p.stats.complete
    with pytest.raises(AssertionError, match="split"):
        queens(11).count(threads=2)


def test_parallel_count_with_given_options(always_split):
    p = queens(8)
    assert p.count(given=[3], threads=2) == p.count(given=[3])
    assert p.count(given=[0, 1], threads=2) == 0  # same row: they clash


def test_parallel_count_sees_shallow_solutions(always_split):
    p = many_solutions(3)
    assert p.count(threads=3) == 8


def test_parallel_count_refuses_a_limit():
    with pytest.raises(ValueError, match="cannot be combined"):
        queens(6).count(limit=2, threads=2)
    with pytest.raises(ValueError, match="threads must be"):
        queens(6).count(threads=-1)


def test_batch_answers_do_not_depend_on_threads():
    p = queens(8)
    givens = [[k] for k in range(64)] + [[0, 1], [0, 10]]
    one = p.solve_batch(givens, limit=100)
    two = p.solve_batch(givens, limit=100, threads=2)
    assert np.array_equal(one.counts, two.counts)
    assert np.array_equal(one.solutions, two.solutions)
    assert one.counts[:64].sum() == 92 * 8 and one.counts[64] == -1
    for g, c, s in zip(givens, one.counts, one.solutions):
        if c > 0:
            assert is_exact_cover(p, list(g) + [k for k in s if k >= 0])


def test_all_zero_matrix_rows_are_options_never_used():
    # jwg4/exact_cover's test matrices have such rows and expect answers.
    p = ExactCover.from_matrix(
        [[0, 0, 0], [1, 0, 0], [0, 0, 0], [0, 1, 1], [1, 1, 0], [0, 0, 1]]
    )
    assert len(p) == 6 and p.options[0] == () and p.options[3] == (1, 2)
    assert sorted(p.solutions()) == [[1, 3], [4, 5]]
    assert p.count() == 2 and p.solve_batch([[1], [4]]).counts.tolist() == [
        1,
        1,
    ]
    assert np.array_equal(p.to_matrix()[[0, 2]], np.zeros((2, 3)))
