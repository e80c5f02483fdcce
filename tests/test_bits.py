"""The bitset engines against the plain-Python reference, the other
engines, and known Sudoku answers: the count-based engine
(``dlx.engines.bits``) and the lane engine (``dlx.engines.lanes``), which
``algorithm="bits"`` takes where a problem fits it.  Every test that takes
``flavor`` runs once per engine (the registry's choice forced for it)."""

import threading
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from dlx import BudgetExhausted, ExactCover
from dlx.engines import bits as B, lanes as L, registry
from dlx.engines.base import EXHAUSTED, OUT_OF_NODES, PAUSED, Unsupported
from dlx.kernels import bits as K, lanes as LK
from dlx.services.search import Stats, run

from reference import exact_covers, is_exact_cover

ENGINE = B.Bits()


class Flavor:
    """One of the two bitset engines: its name, how its arrays are built
    (``arrays(problem, subsets)``, ``subsets`` one of ``RULES``) and its
    run class."""

    def __init__(self, name, arrays, run):
        self.name, self.arrays, self.run = name, arrays, run


#: The subset rule: off, on as each engine applies it (the count-based
#: engine at every node, the lane engine at the root and the branch
#: levels below ``SUBSET_DEPTH``), on at every node.
RULES = (False, True, "every")


def lane_arrays(p, subsets=True):
    """The lane engine's arrays with the subset rule as ``subsets`` says
    (one of ``RULES``): at every node, the tests of a try compare with
    the lanes of every level's branch point."""
    if subsets == "every":
        return L.LaneArrays.of(p, subset_depth=len(p) + 1)
    return L.LaneArrays.of(p, subsets=subsets)


FLAVORS = {
    "bits": Flavor(
        "bits",
        lambda p, subsets=False: B.BitsArrays.of(p, bool(subsets)),
        B.BitsRun,
    ),
    "lanes": Flavor("lanes", lane_arrays, L.LanesRun),
}
# The tests that take `flavor` with hypothesis: the fixture is the same
# for every example (it only forces the registry's choice).
SETTINGS = dict(
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.function_scoped_fixture,
    ],
)


@pytest.fixture(params=sorted(FLAVORS))
def flavor(request, monkeypatch):
    """Each bitset engine in turn behind ``algorithm="bits"``: the
    count-based one with the lane engine's ``fits`` made false."""
    if request.param == "bits":
        monkeypatch.setattr(L.Lanes, "fits", lambda self, problem: False)
    return FLAVORS[request.param]


def solve_batch(
    problem, givens, starts, limit=2, max_nodes=None, threads=1, **options
):
    """``ExactCover.solve_batch`` on the bitset engine."""
    return problem.solve_batch(
        givens,
        starts=starts,
        limit=limit,
        max_nodes=max_nodes,
        threads=threads,
        algorithm="bits",
        **options,
    )


DATA = Path(__file__).parent / "data"


def toy():
    """Knuth's seven-item example, f and g secondary."""
    p = ExactCover("abcde", secondary="fg")
    p.add_options(["cef", "adg", "bcf", "ad", "bg", "deg"])
    return p


def build(flavor, nitems, nprimary, options, subsets=None):
    """The problem, and its arrays for ``flavor``: with the subset rule
    as ``subsets`` says, or by default as the services build them (each
    engine's default: off for counts, on for lanes), so that a run on
    them meets the solutions in the services' order."""
    p = ExactCover(range(nprimary), range(nprimary, nitems))
    p.add_options(options)
    # (the small problems here all fit the lane engine)
    assert registry.engine_for(p, "bits", "batch").name == flavor.name
    if subsets is None:
        return p, flavor.arrays(p)
    return p, flavor.arrays(p, subsets)


def stream(flavor, arrays, given=(), want=1, stop_at=B.NO_LIMIT):
    """Every solution of one run, taken ``want`` at a time (sorted, the
    givens included), and the run."""
    r = flavor.run(arrays, list(given))
    if r.clash:
        return [], r
    if r.covered:
        return [tuple(sorted(given))], r
    found = []
    while True:
        status, rows = r.step(want, stop_at, True)
        found += [tuple(sorted(row + list(given))) for row in rows]
        if status != PAUSED:
            return found, r


# -- the worked example of the kernel's docstring ------------------------


def test_toy_as_the_docstring_tells():
    p = toy()
    arrays = B.BitsArrays.of(p)
    members = [
        {0, 2, 5},
        {1, 3, 4, 5},
        {0, 2, 4},
        {1, 3, 5},
        {1, 2, 4, 5},
        {0, 1, 3, 4, 5},
    ]
    assert arrays.conflict[:, 0].tolist() == [
        sum(1 << k for k in m) for m in members
    ]
    assert (arrays.init_count[:5] >> K.SHIFT).tolist() == [2, 2, 2, 3, 2]
    r = B.BitsRun(arrays, [])
    assert not r.clash and not r.covered
    status, rows = r.step(5, B.NO_LIMIT, True)
    assert status == EXHAUSTED
    assert rows == [[3, 0, 4]]  # in the order chosen
    assert r.counters.tolist() == [2, 12, 1]


def test_toy_as_the_lanes_docstring_tells():
    arrays = L.LaneArrays.of(toy())
    assert (int(arrays.lw), arrays.per_word) == (4, 16)
    # lane a holds options 1 3, b 2 4, c 0 2, d 1 3 5, e 0 5 (rank by
    # rank from bit 0), each with its guard bit 3
    lanes = [(int(arrays.init[0]) >> (4 * i)) & 15 for i in range(5)]
    assert lanes == [0b1011, 0b1011, 0b1011, 0b1111, 0b1011]
    assert [
        arrays.lane_opt[4 * i + s]
        for i, s in [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1), (3, 2)]
    ] == [1, 3, 2, 4, 0, 2, 5]
    # a and d are partners: they share options 1 and 3
    assert arrays.partner[:, 0].tolist() == [12, 0, 0, 0, 0]
    assert arrays.jshared[:, 0].tolist() == [0b11, 0, 0, 0b11, 0]
    for settings_, row, counters in (
        ({}, [0, 4, 3], [1, 3, 1]),
        ({"subsets": False}, [3, 0, 4], [2, 5, 1]),
        ({"subsets": False, "candidates": 8}, [0, 4, 3], [2, 4, 1]),
    ):
        r = L.LanesRun(L.LaneArrays.of(toy(), **settings_), [])
        assert not r.clash and not r.covered
        status, rows = r.step(5, B.NO_LIMIT, True)
        assert status == EXHAUSTED
        assert rows == [row]  # in the order chosen
        assert r.counters.tolist() == counters  # (nodes, moves, solutions)


def test_toy_batch(flavor):
    p = toy()
    found = solve_batch(p, [3, 1, 0, 3, 2], [0, 1, 2, 2, 4, 5], limit=2)
    # {a d}: forced to the solution; {a d g}: none; nothing given: the
    # solution; {c e f} and {a d} overlap nowhere...; {b c f}: none.
    assert found.counts.tolist() == [1, 0, 1, 1, 0]
    assert [sorted(r[r >= 0].tolist()) for r in found.solutions] == [
        [0, 4],
        [],
        [0, 3, 4],
        [4],
        [],
    ]
    clash = solve_batch(p, [0, 2], [0, 2], limit=2)
    assert clash.counts.tolist() == [-1]


# -- against the reference -------------------------------------------------


@st.composite
def small_problems(draw):
    nitems = draw(st.integers(1, 8))
    nsecondary = draw(st.integers(0, min(3, nitems - 1)))
    options = draw(
        st.lists(
            st.sets(
                st.integers(0, nitems - 1), min_size=1, max_size=nitems
            ).map(sorted),
            min_size=0,
            max_size=16,
        )
    )
    return nitems, nitems - nsecondary, options


@st.composite
def with_givens(draw):
    nitems, nprimary, options = draw(small_problems())
    given = []
    if options:
        given = draw(
            st.lists(st.integers(0, len(options) - 1), max_size=3, unique=True)
        )
    return nitems, nprimary, options, given


def overlap(options, given):
    taken = [i for k in given for i in options[k]]
    return len(taken) != len(set(taken))


@settings(max_examples=400, **SETTINGS)
@given(with_givens(), st.sampled_from(RULES), st.integers(1, 3))
def test_same_solutions_as_the_reference(flavor, case, subsets, want):
    nitems, nprimary, options, given = case
    p, arrays = build(flavor, nitems, nprimary, options, subsets)
    expected = exact_covers(options, nprimary, nitems, given=given)
    found, r = stream(flavor, arrays, given, want)
    assert sorted(found) == expected
    assert len(set(found)) == len(found)
    assert r.clash == overlap(options, given)
    for solution in found:
        assert is_exact_cover(p, solution)


@settings(max_examples=300, **SETTINGS)
@given(small_problems(), st.data())
def test_batch_agrees_with_the_reference_and_one_by_one(flavor, case, data):
    nitems, nprimary, options = case
    p, arrays = build(flavor, nitems, nprimary, options)
    # (Rising givens: solve_batch sorts each instance's givens, and the
    # order they are chosen in decides which forced move comes first.)
    instances = [[]] + [
        sorted(
            data.draw(
                st.lists(
                    st.integers(0, len(options) - 1), max_size=3, unique=True
                )
            )
        )
        for _ in range(4 if options else 0)
    ]
    limit = data.draw(st.integers(1, 4))
    flat = np.array([k for g in instances for k in g], np.int64)
    starts = np.cumsum([0] + [len(g) for g in instances])
    batch = solve_batch(p, flat, starts, limit=limit)
    # the answers do not depend on the threads
    shared = solve_batch(p, flat, starts, limit=limit, threads=2)
    for name in ("counts", "solutions", "nodes", "updates"):
        assert np.array_equal(getattr(shared, name), getattr(batch, name))
    for b, given in enumerate(instances):  # noqa: F402 - not the decorator
        expected = exact_covers(options, nprimary, nitems, given=given)
        if overlap(options, given):
            assert batch.counts[b] == -1
            continue
        assert batch.counts[b] == min(limit, len(expected))
        one = solve_batch(p, given, [0, len(given)], limit=limit)
        assert one.counts[0] == batch.counts[b]
        assert one.nodes[0] == batch.nodes[b]
        assert one.updates[0] == batch.updates[b]
        row = batch.solutions[b]
        first = tuple(sorted(row[row >= 0].tolist() + list(given)))
        if expected:
            assert first in expected
            # the first solution streamed is the batch's first
            assert stream(flavor, arrays, given)[0][0] == first
            # the options beyond the givens, each once, none of them given
            picked = row[row >= 0].tolist()
            assert len(set(picked)) == len(picked)
            assert not set(picked) & set(given)
        else:
            assert (row < 0).all()


@settings(max_examples=200, **SETTINGS)
@given(with_givens(), st.integers(0, 12), st.integers(1, 3))
def test_node_budgets(flavor, case, budget, limit):
    nitems, nprimary, options, given = case
    p, arrays = build(flavor, nitems, nprimary, options)
    if overlap(options, given):
        return
    free = solve_batch(p, given, [0, len(given)], limit=limit)
    bounded = solve_batch(
        p, given, [0, len(given)], limit=limit, max_nodes=budget
    )
    # The bound is checked before each branch point (a leaf is counted
    # without it, as DLX1 does).
    if bounded.counts[0] == -2:
        assert budget <= bounded.nodes[0] < free.nodes[0]
    else:
        assert bounded.counts[0] == free.counts[0]
        assert bounded.nodes[0] == free.nodes[0]
    # the streaming run stops at the same node, and resumes to the end
    expected = exact_covers(options, nprimary, nitems, given=given)
    r = flavor.run(arrays, list(given))
    if r.clash or r.covered:
        return
    status, rows = r.step(0, budget, False)
    assert status in (EXHAUSTED, OUT_OF_NODES)
    if status == OUT_OF_NODES:
        assert r.counters[0] >= budget
    r.step(0, B.NO_LIMIT, False)
    assert r.counters[2] == len(expected)


@settings(max_examples=150, **SETTINGS)
@given(with_givens())
def test_through_the_search_service(flavor, case):
    # dlx.search.run drives the run in slices, as it drives DLX1's.
    nitems, nprimary, options, given = case
    p, arrays = build(flavor, nitems, nprimary, options)
    r = flavor.run(arrays, list(given))
    if r.clash or r.covered:
        return
    stats = Stats()
    found = [
        tuple(s)
        for part in run(
            r,
            stats,
            limit=None,
            max_nodes=None,
            time_limit=None,
            store=True,
            given=sorted(given),
        )
        for s in part
    ]
    assert sorted(found) == exact_covers(
        options, nprimary, nitems, given=given
    )
    assert stats.complete and stats.solutions == len(found)


@settings(max_examples=100, **SETTINGS)
@given(with_givens(), st.integers(1, 3))
def test_the_search_methods_with_algorithm_bits(flavor, case, limit):
    # count, solutions and solve by name, as a user calls them.
    nitems, nprimary, options, given = case
    p, _ = build(flavor, nitems, nprimary, options)
    expected = exact_covers(options, nprimary, nitems, given=given)
    # (givens that overlap: no solution)
    assert p.count(given=given, algorithm="bits") == len(expected)
    assert p.count(given=given, limit=limit, algorithm="bits") == min(
        limit, len(expected)
    )
    found = [tuple(s) for s in p.solutions(given=given, algorithm="bits")]
    assert sorted(found) == expected
    first = p.solve(given=given, algorithm="bits")
    assert (first is None) == (not expected)
    if first is not None:
        assert tuple(first) == found[0]  # the first one streamed


def many_solutions(n=40):
    """``n`` items, each in two options of its own: 2**n solutions."""
    p = ExactCover(range(n))
    p.add_options([[k] for k in range(n) for _ in range(2)])
    return p


def test_stop_and_time_limit(flavor):
    p = many_solutions()
    assert registry.engine_for(p, "bits").name == flavor.name
    stop = threading.Event()
    stop.set()
    with pytest.raises(BudgetExhausted):
        p.count(algorithm="bits", stop=stop)
    with pytest.raises(BudgetExhausted, match="time_limit"):
        p.count(algorithm="bits", time_limit=0.05)
    with pytest.raises(BudgetExhausted) as out:
        p.count(algorithm="bits", max_nodes=100)
    assert out.value.stats.nodes == 100 and not out.value.stats.complete
    # a batch of instances each with 2**40 solutions to count
    with pytest.raises(BudgetExhausted):
        p.solve_batch([[]] * 4, limit=2**60, algorithm="bits", stop=stop)
    with pytest.raises(BudgetExhausted):
        p.solve_batch([[]] * 4, limit=2**60, algorithm="bits", time_limit=0.05)
    capped = p.solve_batch(
        [[]] * 3, limit=2**60, max_nodes=50, algorithm="bits"
    )
    assert capped.counts.tolist() == [-2] * 3


def test_lanes_stop_flag():
    arrays = L.LaneArrays.of(toy())
    first = np.full((3, arrays.width), -1, np.int32)
    counts = np.zeros(3, np.int64)
    LK.solve_batch(
        *arrays.search_arrays(),
        *arrays.start_arrays()[1:5],
        arrays.init,
        arrays.depth,
        np.zeros(0, np.int32),
        np.zeros(4, np.int64),
        2,
        B.NO_LIMIT,
        first,
        np.zeros(3, np.int32),
        counts,
        np.zeros((3, 3), np.int64),
        np.ones(1, np.uint8),
    )
    assert counts.tolist() == [LK.STOPPED] * 3


def test_stop_flag():
    p = toy()
    arrays = B.BitsArrays.of(p)
    first = np.full((3, arrays.width), -1, np.int32)
    counts = np.zeros(3, np.int64)
    K.solve_batch(
        *arrays.search_arrays(),
        arrays.init_live,
        arrays.init_count,
        arrays.init_forced,
        arrays.depth,
        np.zeros(0, np.int32),
        np.zeros(4, np.int64),
        2,
        B.NO_LIMIT,
        first,
        np.zeros(3, np.int32),
        counts,
        np.zeros((3, 3), np.int64),
        np.ones(1, np.uint8),
    )
    assert counts.tolist() == [K.STOPPED] * 3


# -- what the engine refuses -----------------------------------------------


def test_refuses_colors_bounds_and_size(flavor):
    colored = ExactCover("a", secondary="x")
    colored.add_option(["a", "x"], colors={"x": "red"})
    with pytest.raises(
        Unsupported,
        match="with algorithm='bits' is not "
        "available for a problem with colors",
    ):
        colored.count(algorithm="bits")
    bounded = ExactCover("ab", bounds={"a": (1, 2)})
    bounded.add_options(["a", "ab"])
    with pytest.raises(
        Unsupported,
        match="with algorithm='bits' is not "
        "available for a problem with bounds",
    ):
        bounded.solve_batch([[0]], algorithm="bits")
    big = ExactCover(range(B.MAX_OPTIONS + 1))
    big.add_options([[k] for k in range(B.MAX_OPTIONS + 1)])
    with pytest.raises(Unsupported, match="at most"):
        solve_batch(big, [], [0, 0])
    with pytest.raises(
        Unsupported,
        match="not available for a problem with "
        "plain exact cover searched by bitset Algorithm X",
    ):
        ExactCover("a").count(threads=2, algorithm="bits")
    with pytest.raises(
        Unsupported,
        match="not available for a problem with "
        "plain exact cover searched by bitset Algorithm X",
    ):
        ExactCover("a").count(jobs=1, split_into=2, algorithm="bits")
    with pytest.raises(
        Unsupported,
        match="Knuth's estimate is not "
        "available for a problem with plain exact cover "
        "searched by bitset Algorithm X",
    ):
        ExactCover("a").estimate(algorithm="bits")


def test_the_lane_engine_takes_what_fits_and_leaves_the_rest_to_bits():
    from sudoku.solver import problem_for

    assert L.fits(problem_for((3, 3)))
    assert not L.fits(problem_for((4, 4)))  # masks of 11 MB
    assert (
        registry.engine_for(problem_for((3, 3)), "auto", "batch").name
        == "lanes"
    )
    assert (
        registry.engine_for(problem_for((4, 4)), "auto", "batch").name
        == "bits"
    )
    # an item of MAX_DEGREE options fits, one more does not
    for degree, engine in (
        (L.MAX_DEGREE, "lanes"),
        (L.MAX_DEGREE + 1, "bits"),
    ):
        p = ExactCover(["a", "b"])
        p.add_options([["a"]] * degree + [["b"]])
        assert L.fits(p) == (engine == "lanes")
        assert registry.engine_for(p, "bits").name == engine
        assert p.count(algorithm="bits") == degree
        if engine == "bits":
            with pytest.raises(Unsupported, match="at most 63 options"):
                L.LaneArrays.of(p)
    # colors, bounds and costs never reach it
    colored = ExactCover("a", secondary="x")
    colored.add_option(["a", "x"], colors={"x": "red"})
    bounded = ExactCover("ab", bounds={"a": (1, 2)})
    bounded.add_options(["a", "ab"])
    assert not L.fits(colored) and not L.fits(bounded)
    priced = ExactCover("ab")
    priced.add_options(["a", "b"], costs=[1, 2])
    assert registry.engine_for(priced, "auto", "best").name != "lanes"


# -- Sudoku ------------------------------------------------------------------


def sudoku_lines(name):
    return [
        line.split()[0]
        for line in (DATA / name).read_text().splitlines()
        if line and not line.startswith("#")
    ]


def solve_stack(lines, limit=2):
    import sudoku
    from sudoku.solver import given_options, problem_for

    grids = [sudoku.parse(line) for line in lines]
    cells = np.stack([g.cells for g in grids])
    options, starts = given_options(cells)
    problem = problem_for(grids[0].box)
    return (
        grids,
        problem,
        options,
        starts,
        solve_batch(problem, options, starts, limit=limit),
    )


@pytest.mark.parametrize(
    "name",
    [
        "sudoku_top95.txt",
        "sudoku_17clue_50.txt",
        "sudoku_named.txt",
        "sudoku_hexadoku16.txt",
    ],
)
def test_sudoku_files(flavor, name):
    import sudoku
    from sudoku.solver import decode

    lines = sudoku_lines(name)
    grids, problem, options, starts, found = solve_stack(lines)
    links = problem.solve_batch(
        options, starts=starts, limit=2, algorithm="links"
    )
    assert found.counts.tolist() == links.counts.tolist()
    assert (found.counts == 1).all()
    for grid, row, b in zip(grids, found.solutions, range(len(grids))):
        picked = (
            options[starts[b] : starts[b + 1]].tolist()
            + row[row >= 0].tolist()
        )
        solution = grid.with_cells(decode(picked, grid.n))
        assert sudoku.is_valid_solution(solution, grid)


def test_sudoku_special_statuses(flavor):
    lines = (DATA / "sudoku_special.txt").read_text().splitlines()
    puzzles = [line.split()[0] for line in lines if line.strip()]
    statuses = [line.split()[1] for line in lines if line.strip()]
    counts = {"multiple": 2, "nosolution": 0, "invalid": -1}
    known = [(p, counts[s]) for p, s in zip(puzzles, statuses)]
    assert {c for _, c in known} == {2, 0, -1}
    import sudoku
    from sudoku.solver import given_options, problem_for

    cells = np.stack([sudoku.parse(p).cells for p, _ in known])
    options, starts = given_options(cells)
    found = solve_batch(problem_for((3, 3)), options, starts, limit=2)
    links = problem_for((3, 3)).solve_batch(
        options, starts=starts, limit=2, algorithm="links"
    )
    assert found.counts.tolist() == links.counts.tolist()
    assert found.counts.tolist() == [c for _, c in known]


def test_25x25_is_refused_and_16x16_taken():
    from sudoku.solver import problem_for

    assert len(problem_for((4, 4))) <= B.MAX_OPTIONS
    ENGINE.build(problem_for((4, 4)))
    with pytest.raises(Unsupported, match="at most"):
        ENGINE.build(problem_for((5, 5)))


def test_the_docs_page_runs():
    import doctest

    page = Path(__file__).resolve().parent.parent / "docs" / "bits.md"
    result = doctest.testfile(
        str(page), module_relative=False, optionflags=doctest.ELLIPSIS
    )
    assert result.failed == 0 and result.attempted >= 10


# -- problems of many words ------------------------------------------------


def two_sudokus():
    """Two 9x9 Sudoku grids side by side, one problem (648 items, 1,458
    options): 108 words of lanes, so the scans run in two chunks of 64
    and the subset rule's partners span many words."""
    from sudoku.solver import problem_for

    one = problem_for((3, 3))
    p = ExactCover([f"{side}{i}" for side in "LR" for i in one.primary])
    p.add_options(
        [
            [f"{side}{i}" for i in option]
            for side in "LR"
            for option in one.options
        ]
    )
    return p, len(one.options)


@pytest.mark.parametrize("limit", [1, 2, 3])
@pytest.mark.parametrize("subsets", RULES)
def test_two_sudokus_at_once_as_dancing_links(
    flavor, limit, subsets, monkeypatch
):
    import sudoku
    from sudoku.solver import given_options

    p, half = two_sudokus()
    # the engine behind algorithm="bits" builds its arrays with the
    # subset rule as `subsets` says (p is new: nothing built is cached)
    engine = L.Lanes if flavor.name == "lanes" else B.Bits
    monkeypatch.setattr(
        engine, "build", lambda self, problem: flavor.arrays(problem, subsets)
    )
    assert registry.engine_for(p, "bits", "batch").name == flavor.name
    if flavor.name == "lanes":
        assert len(L.LaneArrays.of(p).init) > 64
    lines = sudoku_lines("sudoku_top95.txt")[:12]
    special = (DATA / "sudoku_special.txt").read_text().splitlines()
    lines += [line.split()[0] for line in special if line.strip()][:8]
    cells = np.stack([sudoku.parse(line).cells for line in lines])
    options, starts = given_options(cells)
    rng = np.random.default_rng(7)
    instances = []
    for _ in range(16):
        left, right = rng.integers(len(lines), size=2)
        instances.append(
            options[starts[left] : starts[left + 1]].tolist()
            + (half + options[starts[right] : starts[right + 1]]).tolist()
        )
    instances.append([])  # no givens at all: many solutions
    found = p.solve_batch(instances, limit=limit, algorithm="bits")
    links = p.solve_batch(instances, limit=limit, algorithm="links")
    assert found.counts.tolist() == links.counts.tolist()
    for b, givens in enumerate(instances):
        if found.counts[b] <= 0:
            continue
        row = found.solutions[b]
        solution = sorted(givens + row[row >= 0].tolist())
        assert is_exact_cover(p, solution)


@pytest.mark.parametrize("n, count", [(1, 1), (4, 2), (6, 4), (8, 92)])
def test_queens_counts(flavor, n, count):
    from dlx.problems.queens import queens

    p = queens(n)
    assert registry.engine_for(p, "bits").name == flavor.name
    assert p.count(algorithm="bits") == count
    assert len({tuple(s) for s in p.solutions(algorithm="bits")}) == count


@st.composite
def tilings(draw):
    """The tilings of a row of ``n`` cells by pieces of 1 to 3 cells
    (some pieces left out, some with a secondary item of their own or
    shared): many items over many words of lanes, few options each."""
    n = draw(st.integers(20, 260))
    nsecondary = draw(st.integers(0, 4))
    options = []
    for start in range(n):
        for length in (1, 2, 3):
            if start + length <= n and draw(st.integers(0, 5)) > 0:
                extra = draw(
                    st.sampled_from(
                        [[]] + [[n + k] for k in range(nsecondary)]
                    )
                )
                options.append(list(range(start, start + length)) + extra)
    return n + nsecondary, n, options


def row_of_cells(n, options):
    p = ExactCover(range(n), range(n, n + 4))
    p.add_options(options)
    return p


@settings(max_examples=60, **SETTINGS)
@given(tilings(), st.data())
def test_wide_problems_count_as_dancing_links(flavor, case, data):
    nitems, nprimary, options = case
    p = row_of_cells(nprimary, options)
    assert registry.engine_for(p, "bits", "batch").name == flavor.name
    instances = [[]] + [
        sorted(
            data.draw(
                st.lists(
                    st.integers(0, len(options) - 1), max_size=6, unique=True
                )
            )
        )
        for _ in range(5 if options else 0)
    ]
    for limit in (1, 7):
        found = p.solve_batch(instances, limit=limit, algorithm="bits")
        links = p.solve_batch(instances, limit=limit, algorithm="links")
        assert found.counts.tolist() == links.counts.tolist()
        for b, givens in enumerate(instances):
            if found.counts[b] > 0:
                row = found.solutions[b]
                assert is_exact_cover(
                    p, sorted(givens + row[row >= 0].tolist())
                )


def test_lanes_that_fill_their_words_exactly():
    # 72 cells, each in 6 pieces at most: lanes of 7 bits, 9 to a word,
    # 8 words with no padding; every piece of 1 to 3 cells.
    n = 72
    options = [
        list(range(s, s + k))
        for s in range(n)
        for k in (1, 2, 3)
        if s + k <= n
    ]
    p = row_of_cells(n, options)
    arrays = L.LaneArrays.of(p)
    assert len(arrays.init) == 8 and arrays.init[-1] != 0
    # every tiling of the last 12 cells, the rest given as single cells
    given = [3 * s for s in range(n - 12)]
    tribonacci = [1, 1, 2]
    while len(tribonacci) <= 12:
        tribonacci.append(sum(tribonacci[-3:]))
    assert p.count(given=given, algorithm="bits") == tribonacci[12]
    assert p.count(given=given, algorithm="links") == tribonacci[12]


def test_a_run_meets_the_solutions_in_the_services_order(flavor):
    # Found by hypothesis: the count-based engine's subset rule (off in
    # the services) changes which solution comes first here.
    p, arrays = build(
        flavor, 5, 5, [[0], [2], [3], [0, 1], [0, 2, 4], [1, 3, 4], [0, 1, 4]]
    )
    batch = solve_batch(p, [], [0, 0], limit=1)
    row = batch.solutions[0]
    first = tuple(sorted(row[row >= 0].tolist()))
    assert stream(flavor, arrays)[0][0] == first
    assert tuple(p.solve(algorithm="bits")) == first
