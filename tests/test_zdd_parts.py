"""The ZDD built by parts (dlx.services.zdd on a problem that falls apart,
as dlx.services.parts counts it): the same solutions as the whole build
and the reference on copies and glued pieces, plain and colored, with and
without givens; rooms past 2**64; budgets and Ctrl-C never return a
partial diagram; write and read.  Every kind (``test_memo.KINDS``: plain,
colored, with bounds, both) is drawn by the same strategies."""

import io

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from dlx import ZDD, BudgetExhausted, ExactCover, Interrupted
from dlx.engines import memo as memo_engine
from dlx.problems.rooks import rooks
from dlx.problems.tiling import rooms, tiling
from dlx.services import parts, zdd as Z

from reference import generalized_covers
from test_parts import (
    KINDS,
    build,
    copies,
    glued,
    side_by_side,
    small_problems,
)
from test_zdd import check_against, check_diagram

# The whole build's knobs (see test_zdd.VARIANTS), passed to every part.
VARIANTS = [
    dict(),
    dict(choose="first", memo_bytes=0),
    dict(choose="mrv", limb_bits=3),
]


def solutions(case, forced=()):
    nprimary, nitems, options, colors, bounds = case
    return sorted(
        generalized_covers(
            options, nprimary, nitems, colors, bounds, given=forced
        )
    )


def same_as_whole(p, z, forced=(), **knobs):
    """The diagram by parts holds the whole build's solutions."""
    whole = Z.build(p, forced, by_parts=False, **knobs)
    assert sorted(z) == sorted(whole) and z.count() == whole.count()
    return whole


def check_by_parts(p, forced, expected, by_parts=True, **knobs):
    """``by_parts="always"``: the driver even where the root check would
    build whole (then also with givens that clash)."""
    z = Z.build(p, forced, by_parts=by_parts, **knobs)
    check_against(z, expected, p)
    assert p.stats.complete and p.stats.zdd_nodes == len(z)
    if by_parts == "always" or parts.falls_apart(p, forced) is not None:
        assert isinstance(p.stats, Z.ZddPartsStats)
        assert p.stats.solutions == len(expected)
    same_as_whole(p, z, forced, **knobs)
    return z


# -- against the reference and the whole build ---------------------------------


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@pytest.mark.parametrize("kind", KINDS)
@given(data=st.data())
def test_zdd_by_parts_matches_the_reference(kind, data):
    case = data.draw(glued(kind))
    if len(case[2]) > 14:  # the reference tries every set of options
        return
    forced = data.draw(
        st.lists(st.integers(0, len(case[2]) - 1), max_size=2, unique=True)
    )
    knobs = data.draw(st.sampled_from(VARIANTS))
    by_parts = data.draw(st.sampled_from([True, "always"]))
    expected = solutions(case, forced)
    check_by_parts(build(case), forced, expected, by_parts, **knobs)


@settings(max_examples=60, deadline=None)
@pytest.mark.parametrize("kind", KINDS)
@given(data=st.data())
def test_zdd_by_parts_of_any_small_problem(kind, data):
    check_by_parts(
        build(case := data.draw(small_problems(kind))),
        (),
        solutions(case),
        "always",
    )


@pytest.mark.parametrize(
    "case",
    [
        # Item 1 is a cut item; its option {0, 1, 2} leaves an empty part.
        (3, 3, [[0], [0, 1], [1], [2], [0, 1, 2]], [{}] * 5, {}),
        # Item 1 (1..2) is a cut item branched on the sets of its options:
        # {0}, {1}, {0, 1} ...
        (3, 3, [[0, 1], [1, 2], [0], [2]], [{}] * 4, {1: (1, 2)}),
        # ... and with u = 0 the empty set too, its item left uncovered.
        (3, 3, [[0, 1], [1, 2], [0], [2]], [{}] * 4, {1: (0, 2)}),
        (3, 3, [[0, 1], [1, 2], [0], [2]], [{}] * 4, {1: (2, 3)}),
    ],
)
def test_zdd_by_parts_of_these_problems(case):
    p = build(case)
    Z.build(p, by_parts="always")
    assert p.stats.cuts >= 1
    check_by_parts(p, (), solutions(case), "always")


def test_a_colored_given_purifies_across_parts():
    # X is secondary: the given {A, X:a} lets {B, X:a} stay (purified) and
    # strikes {B, X:b}; C and D are a part of their own.
    p = ExactCover("ABCD", "X")
    p.add_option("AX", colors={"X": "a"})
    p.add_option("BX", colors={"X": "a"})
    p.add_option("BX", colors={"X": "b"})
    p.add_options(["B", "C", "D", "CD"])
    expected = [(0, 1, 4, 5), (0, 1, 6), (0, 3, 4, 5), (0, 3, 6)]
    z = check_by_parts(p, [0], expected)
    assert sorted(map(tuple, z)) == expected


# -- rooms and copies ------------------------------------------------------------


def test_rooms_4_8_past_two_to_the_64():
    p = rooms(4, 8)
    z = p.zdd()
    assert z.count() == 12_988_816**4 > 2**64
    check_diagram(z)
    s = p.stats
    assert isinstance(s, Z.ZddPartsStats) and s.complete
    # Every room alike is built once: the others are renamed copies.
    assert s.repeats >= 3 and s.cuts >= 3 and s.zdd_nodes == len(z)
    for solution in z.sample(3, seed=5):
        covered = sorted(i for k in solution for i in p.options[k])
        assert covered == sorted(p.primary)


def test_rooms_by_parts_equal_the_whole_build():
    p = rooms(2, 4)
    z = p.zdd()
    assert isinstance(p.stats, Z.ZddPartsStats)
    whole = same_as_whole(p, z)
    assert z.count() == 36**2
    check_against(z, sorted(map(tuple, whole)), p)
    # Sampling draws from the same solutions.
    every = set(map(tuple, whole))
    assert {tuple(s) for s in z.sample(200, seed=1)} <= every
    assert z.option_counts(len(p)) == whole.option_counts(len(p))


def test_a_given_that_cuts_the_board():
    p = tiling("6x5")
    down = [
        k
        for k, option in enumerate(p.options)
        if sorted(option) in (["02", "12"], ["22", "32"], ["42", "52"])
    ]
    z = p.zdd(given=down)
    assert isinstance(p.stats, Z.ZddPartsStats) and p.stats.splits >= 1
    assert z.count() == 13**2  # 6 x 2 boards either side
    assert all(set(down) <= set(s) for s in z)
    same_as_whole(p, z, down)


def test_past_the_cut_limit_parts_are_built_whole(monkeypatch):
    # No cut branching left: a connected part goes to the memo whole,
    # components still multiply.
    monkeypatch.setattr(parts, "MAX_CUTS", 0)
    p = rooms(2, 4)
    z = p.zdd()
    assert p.stats.cuts == 0 and p.stats.parts >= 1
    same_as_whole(p, z)


def test_connected_problems_are_built_whole():
    p = tiling("6x6")
    assert parts.falls_apart(p, []) is None
    z = p.zdd()
    assert type(p.stats) is Z.ZddStats
    assert z == Z.build(p, by_parts=False)


def test_bounds_are_built_by_parts():
    # Three parts no option joins: A (1..2, two options: 3 ways), B, C.
    p = ExactCover(["A", "B", "C"], bounds={"A": (1, 2)})
    p.add_options([["A"], ["A"], ["B"], ["C"]])
    z = p.zdd()
    assert type(p.stats) is Z.ZddPartsStats and p.stats.splits == 1
    assert sorted(z) == [[0, 1, 2, 3], [0, 2, 3], [1, 2, 3]]


@pytest.mark.parametrize(
    "make,each,n",
    [
        (lambda: rooks(3, 2), 6, 3),
        (lambda: rooks(4, 2), 90, 3),
        (lambda: rooks(5, 2), 2040, 6),
    ],
)
def test_copies_of_rooks_boards_multiply(make, each, n):
    # Interleaved copies: one board built, the others renamed copies;
    # 2040**6 is past 2**64.
    p = copies(make(), n)
    z = p.zdd()
    assert z.count() == each**n
    check_diagram(z)
    assert isinstance(p.stats, Z.ZddPartsStats)
    assert p.stats.parts == 1 and p.stats.repeats == n - 1
    if each**n < 1000:
        same_as_whole(p, z)
    elif each**n < 10**6:
        whole = Z.build(p, by_parts=False)
        assert whole.count() == z.count()
        assert z.option_counts(len(p)) == whole.option_counts(len(p))


def test_rooks_with_a_given_multiply():
    # A rook given on the first board uses one of the slack of its row
    # and its column: it is in half of that board's 90 solutions.
    p = side_by_side(rooks(4, 2), rooks(3, 2), rooks(4, 2))
    rook = p.options.index(((0, "r0"), (0, "c0")))
    z = p.zdd(given=[rook])
    assert z.count() == 45 * 6 * 90
    assert isinstance(p.stats, Z.ZddPartsStats)
    assert all(rook in s for s in z.sample(20, seed=2))
    same_as_whole(p, z, [rook])


def test_corridors_of_bounded_cells():
    # test_parts' three 4 x 4 rooms whose corridor cells take 1..2
    # dominoes: cut items with bounds, each branched on the sets of its
    # options (a tree of decisions over them), against the whole build.
    doors = ["24", "25", "2a", "2b"]  # (row 2, columns 4, 5, 10, 11)
    p = rooms(3, 4)
    q = ExactCover(p.primary, bounds=dict.fromkeys(doors, (1, 2)))
    q.add_options(p.options)
    z = q.zdd()
    assert isinstance(q.stats, Z.ZddPartsStats) and q.stats.cuts >= 2
    assert z.count() == 54432
    check_diagram(z)
    whole = same_as_whole(q, z)
    assert z.option_counts(len(q)) == whole.option_counts(len(q))


def test_a_bounded_budget_never_returns_a_partial_diagram():
    p = copies(rooks(5, 2), 3)
    with pytest.raises(BudgetExhausted, match="max_nodes=30") as stop:
        p.zdd(max_nodes=30)
    assert isinstance(stop.value.stats, Z.ZddPartsStats)
    assert not stop.value.stats.complete
    with pytest.raises(BudgetExhausted, match="outgrew zdd_bytes=400 at"):
        p.zdd(zdd_bytes=400)
    assert p.zdd().count() == 2040**3


# -- budgets, Ctrl-C, files --------------------------------------------------------


def test_budgets_never_return_a_partial_diagram():
    p = rooms(3, 6)
    with pytest.raises(BudgetExhausted, match="max_nodes=40") as stop:
        p.zdd(max_nodes=40)
    assert isinstance(stop.value.stats, Z.ZddPartsStats)
    assert not stop.value.stats.complete
    with pytest.raises(BudgetExhausted, match="time_limit=0"):
        p.zdd(time_limit=0)
    # Outgrown in a part's search and in the product's copies.
    for limit in (200, 20 * 900):
        with pytest.raises(
            BudgetExhausted, match=f"outgrew zdd_bytes={limit} at"
        ):
            p.zdd(zdd_bytes=limit)
    assert p.zdd(zdd_bytes=10**6, max_nodes=10**6).count() == 6728**3


@pytest.mark.parametrize("where", ["search", "copy"])
def test_ctrl_c_stops_the_build(monkeypatch, where):
    p = rooms(3, 4)
    if where == "search":
        record = memo_engine.MemoRun.record

        def interrupt(run, stats):
            record(run, stats)
            raise KeyboardInterrupt

        monkeypatch.setattr(memo_engine.MemoRun, "record", interrupt)
    else:

        def interrupt(self, *args, **kwargs):
            raise KeyboardInterrupt

        monkeypatch.setattr(Z._PartsBuild, "copy", interrupt)
    with pytest.raises(Interrupted) as stop:
        p.zdd()
    assert isinstance(stop.value.stats, Z.ZddPartsStats)
    assert not stop.value.stats.complete


def test_write_and_read_round_trip(tmp_path):
    p = rooms(2, 4)
    z = p.zdd()
    path = tmp_path / "rooms.zdd"
    z.write(path)
    assert ZDD.read(path, p) == z == ZDD.read(path)
    text = io.StringIO()
    z.write(text)
    assert ZDD.read(io.StringIO(text.getvalue())).count() == 36**2
