"""Reducing a problem before its search (``dlx.services.reduce``,
Knuth's DLX-PRE).

Random small problems with a planted solution (plain, with secondary
items, colors, bounds, givens) are reduced, and the reduced problem's
solutions, found by the plain-Python reference and mapped back, must be
exactly the original's; each rule has a problem built so that it fires;
Knuth's two examples reduce as DLX-PRE reduces them, and on the files of
``tests/data/dlxpre`` nothing is left that DLX-PRE removes.
"""

import csv
import doctest
import io
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from dlx import BudgetExhausted, ExactCover, dumps, load, loads
from dlx.cli import main
from dlx.cli.reduce import numbered
from dlx.services.reduce import DLX_PRE_RULES, RULES, reduce, round_work

from reference import generalized_covers, is_exact_cover

DATA = Path(__file__).parent / "data" / "dlxpre"


# -- random problems with a planted solution ----------------------------------


@st.composite
def planted(draw, secondary=True, colors=True, bounded=False, noise=7):
    """``(nitems, nprimary, options, colors, bounds)``: a solution planted
    (primary items covered as often as their bounds allow, secondary items
    at most once or in one color) among random options."""
    nitems = draw(st.integers(1, 7))
    nsecondary = draw(st.integers(0, min(3, nitems - 1))) if secondary else 0
    nprimary = nitems - nsecondary
    bounds = {}
    if bounded:
        for i in range(nprimary):
            if draw(st.booleans()):
                u = draw(st.integers(0, 2))
                bounds[i] = (u, draw(st.integers(max(u, 1), 3)))
    need = {
        i: draw(st.integers(*bounds.get(i, (1, 1)))) for i in range(nprimary)
    }
    planted_color = {
        i: draw(st.sampled_from("rg"))
        if colors and draw(st.booleans())
        else None
        for i in range(nprimary, nitems)
    }
    options, option_colors = [], []
    used = set()
    while any(need.values()):
        wanted = [i for i in need if need[i]]
        chosen = draw(st.sets(st.sampled_from(wanted), min_size=1))
        for i in chosen:
            need[i] -= 1
        extra = (
            draw(st.sets(st.integers(nprimary, nitems - 1)))
            if nsecondary
            else set()
        )
        extra = {
            i for i in extra if planted_color[i] is not None or i not in used
        }
        used |= extra
        options.append(sorted(chosen | extra))
        option_colors.append(
            {
                i: planted_color[i]
                for i in extra
                if planted_color[i] is not None
            }
        )
    for _ in range(draw(st.integers(0, noise))):
        items = sorted(
            draw(st.sets(st.integers(0, nitems - 1), min_size=1, max_size=4))
        )
        cols = {
            i: draw(st.sampled_from("rg"))
            for i in items
            if i >= nprimary and colors and draw(st.booleans())
        }
        options.append(items)
        option_colors.append(cols)
    order = draw(st.permutations(range(len(options))))
    return (
        nitems,
        nprimary,
        [options[k] for k in order],
        [option_colors[k] for k in order],
        bounds,
    )


def build(nitems, nprimary, options, colors, bounds):
    p = ExactCover(
        range(nprimary), range(nprimary, nitems), bounds=bounds or None
    )
    for items, cols in zip(options, colors):
        p.add_option(items, colors=cols or None)
    return p


def reference_solutions(problem, given=()):
    """Every solution of ``problem`` by the plain-Python reference."""
    items = problem.items
    at = {name: k for k, name in enumerate(items)}
    options = [[at[x] for x in option] for option in problem.options]
    colors = [
        {at[x]: c for x, c in problem.option_colors(k).items()}
        for k in range(len(options))
    ]
    bounds = {at[x]: uv for x, uv in problem.bounds.items()}
    return generalized_covers(
        options, len(problem.primary), len(items), colors, bounds, given=given
    )


def check_reduction(problem, reduction, given=()):
    """The reduction keeps the solutions, and accounts for every option:
    each reduced option is an original one with items struck out and its
    colors kept."""
    expected = reference_solutions(problem, given)
    found = sorted(
        tuple(reduction.to_original(s))
        for s in reference_solutions(reduction.problem)
    )
    assert found == expected
    reduced = reduction.problem
    assert len(reduced.options) + len(reduction.removed_options) + len(
        reduction.given
    ) == len(problem.options)
    assert set(reduction.removed_options).isdisjoint(reduction.original)
    if reduction.infeasible:
        assert expected == [] and not reduced.options
        return expected
    for k, original in enumerate(reduction.original):
        assert set(reduced.options[k]) <= set(problem.options[original])
        colors = problem.option_colors(original)
        assert reduced.option_colors(k) == {
            x: c for x, c in colors.items() if x in reduced.options[k]
        }
    assert set(reduced.items) | set(reduction.removed_items) == set(
        problem.items
    )
    for k in reduction.forced:
        assert all(k in s for s in expected)
    return expected


KINDS = {
    "plain": dict(secondary=False, colors=False),
    "secondary": dict(colors=False),
    "colors": dict(),
    "bounds": dict(bounded=True),
}
SLOW = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@pytest.mark.parametrize("kind", KINDS)
@SLOW
@given(st.data())
def test_the_reduced_problem_has_the_same_solutions(kind, data):
    case = data.draw(planted(**KINDS[kind]))
    p = build(*case)
    reduction = reduce(p)
    assert reduction.complete
    check_reduction(p, reduction)
    # At the fixed point, reducing again removes nothing.
    again = reduce(reduction.problem)
    assert not again.removed_options and not again.removed_items
    assert again.problem.bounds == reduction.problem.bounds
    assert list(again.original) == list(range(len(reduction.problem)))


@pytest.mark.parametrize("kind", ["colors", "bounds"])
@SLOW
@given(st.data())
def test_givens_are_committed_first(kind, data):
    case = data.draw(planted(**KINDS[kind]))
    p = build(*case)
    forced = (
        data.draw(
            st.lists(st.integers(0, len(p) - 1), max_size=3, unique=True)
        )
        if len(p)
        else []
    )
    reduction = reduce(p, given=forced)
    assert reduction.given == tuple(forced)
    check_reduction(p, reduction, forced)


@pytest.mark.parametrize("kind", KINDS)
@SLOW
@given(st.data())
def test_every_subset_of_the_rules_is_sound(kind, data):
    case = data.draw(planted(**KINDS[kind]))
    rules = data.draw(st.sets(st.sampled_from(RULES)))
    p = build(*case)
    check_reduction(p, reduce(p, rules=tuple(rules)))


@pytest.mark.parametrize("kind", ["plain", "bounds"])
@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.function_scoped_fixture,
    ],
)
@given(data=st.data())
def test_searches_with_reduce_answer_in_original_options(
    kind, data, each_algorithm
):
    case = data.draw(planted(**KINDS[kind]))
    p = build(*case)
    forced = (
        data.draw(
            st.lists(st.integers(0, len(p) - 1), max_size=2, unique=True)
        )
        if len(p)
        else []
    )
    expected = reference_solutions(p, forced)
    assert p.count(given=forced, reduce=True) == len(expected)
    assert (
        sorted(map(tuple, p.solutions(given=forced, reduce=True))) == expected
    )
    first = p.solve(given=forced, reduce=True)
    assert (first is None) == (not expected)
    assert first is None or tuple(first) in expected


@SLOW
@given(planted(bounded=True), st.integers(0, 3), st.integers(0, 300))
def test_a_budget_stops_the_reduction_soundly(case, rounds, work):
    p = build(*case)
    for budget in ({"rounds": rounds}, {"max_work": work}):
        reduction = reduce(p, **budget)
        check_reduction(p, reduction)
        if not reduction.complete:
            full = reduce(p)
            assert len(full.problem.options) <= len(reduction.problem.options)


def test_a_time_limit_of_zero_removes_nothing_but_what_is_free():
    p = knuth_example()
    reduction = reduce(p, time_limit=0)
    assert not reduction.complete and reduction.rounds == 1
    assert len(reduction.problem.options) == 6
    check_reduction(p, reduction)


# -- Knuth's examples (dlx-pre.w) --------------------------------------------


def knuth_example():
    p = ExactCover("ABCDE", "FG")
    p.add_options(["CEF", "ADG", "BCF", "AD", "BG", "DEG"])
    return p


def knuth_color_example():
    p = ExactCover("ABC", "XY")
    p.add_option("ABXY", {"X": "0", "Y": "0"})
    p.add_option("ACXY", {"X": "1", "Y": "1"})
    p.add_option("XY", {"X": "0", "Y": "1"})
    p.add_option("BX", {"X": "1"})
    p.add_option("CY", {"Y": "1"})
    return p


def test_knuths_first_example():
    # dlx-pre v9 < example: items A B E, options A (from 4), B (from 5),
    # E (from 1); 3 options and 4 items removed, 3 rounds.
    p = knuth_example()
    for rules in (DLX_PRE_RULES, RULES):
        r = reduce(p, rules=rules)
        assert r.problem.primary == ("A", "B", "E")
        assert r.problem.secondary == ()
        assert r.problem.options == (("E",), ("A",), ("B",))
        assert [numbered(p)[k] for k in r.original] == [1, 4, 5]
        assert len(r.removed_options) == 3 and len(r.removed_items) == 4
        assert r.rounds == 3 and r.complete
        assert r.removed_items == {
            "C": "implied-item",
            "D": "implied-item",
            "F": "implied-item",
            "G": "implied-item",
        }
        assert r.removed_options == {
            1: "implied-item",
            2: "blocking-option",
            5: "implied-item",
        }
        assert r.forced == (0, 3, 4)
        assert [r.to_original(s) for s in r.problem.solutions()] == [[0, 3, 4]]


def test_knuths_color_example():
    # dlx-pre v9: A B | X Y; A X:1 Y:1 (from 2); B X:1 (from 3); 2 options
    # (and the option without a primary item, which it does not count)
    # and item C removed, 2 rounds.
    p = knuth_color_example()
    r = reduce(p, rules=DLX_PRE_RULES)
    assert (r.problem.primary, r.problem.secondary) == (("A", "B"), ("X", "Y"))
    assert r.problem.options == (("A", "X", "Y"), ("B", "X"))
    assert [r.problem.option_colors(k) for k in range(2)] == [
        {"X": "1", "Y": "1"},
        {"X": "1"},
    ]
    assert [numbered(p)[k] for k in r.original] == [2, 3]
    assert r.removed_items == {"C": "implied-item"}
    assert r.removed_options == {
        0: "blocking-option",
        2: "no-primary",
        4: "implied-item",
    }
    assert r.rounds == 2
    # Beyond DLX-PRE: X and Y no longer constrain anything.
    r = reduce(p)
    assert r.problem.items == ("A", "B")
    assert r.removed_items == {
        "C": "implied-item",
        "X": "free-secondary",
        "Y": "free-secondary",
    }
    assert r.problem.count() == p.count() == 1


# -- each rule, built to fire -------------------------------------------------


def fired(problem, rule, **options):
    """What ``rule`` removed (options, items); and the reduction keeps the
    solutions with and without it."""
    with_it = reduce(problem, **options)
    without = reduce(
        problem, rules=tuple(r for r in RULES if r != rule), **options
    )
    check_reduction(problem, with_it, options.get("given", ()))
    check_reduction(problem, without, options.get("given", ()))
    for r in (with_it, without):
        assert r.problem.count() == problem.count(
            given=options.get("given", ())
        )
    assert rule not in without.by_rule()
    return (
        {k for k, why in with_it.removed_options.items() if why == rule},
        {x for x, why in with_it.removed_items.items() if why == rule},
    )


def test_no_primary():
    p = ExactCover("A", "XY")
    p.add_options(["AX", "XY", "A"])
    assert fired(p, "no-primary") == ({1}, set())


def test_an_empty_row_goes_whatever_the_rules():
    p = ExactCover.from_matrix([[1, 0], [0, 0], [0, 1]], secondary=1)
    r = reduce(p, rules=())
    assert r.removed_options == {1: "no-primary"}
    assert list(r.original) == [0, 2]


def test_empty_items():
    p = ExactCover("AB", "X", bounds={"B": (0, 1)})
    p.add_options(["A"])
    assert fired(p, "empty-item") == (set(), {"B", "X"})
    q = ExactCover("AB", bounds={"B": (2, 3)})
    q.add_options(["A", "AB"])  # B can be covered once only
    r = reduce(q)
    assert r.infeasible and r.problem.primary == ("B",)
    assert r.problem.options == () and r.problem.count() == 0
    assert r.removed_options == {0: "no-solution", 1: "no-solution"}
    assert r.removed_items == {"A": "no-solution"}


def test_implied_item():
    # Every option with A has B: B goes, and so does B C.
    p = ExactCover("ABC")
    p.add_options(["AB", "BC", "C", "AB"])
    assert fired(p, "implied-item") == ({1}, {"B"})


def test_implied_secondary_item_bounds_the_primary_one():
    # Every option with A (bounds 1..2) has X: A is covered exactly once.
    p = ExactCover("A", "X", bounds={"A": (1, 2)})
    p.add_options(["AX", "AX", "X"])
    r = reduce(p)
    assert r.problem.bounds == {} and r.problem.items == ("A",)
    assert r.removed_options == {2: "no-primary"}
    assert fired(p, "implied-item") == (set(), {"X"})


def test_an_implied_item_that_other_options_may_cover_stays_in_them():
    # A (0..1) may be left uncovered, so C's other option stays: only the
    # bounds of A become C's when C (1..1) is struck out... but C has
    # options without A, so nothing may go.
    p = ExactCover("AC", bounds={"A": (0, 1)})
    p.add_options(["AC", "C"])
    r = reduce(p, rules=("implied-item",))
    assert not r.removed_options and not r.removed_items
    assert r.problem.count() == p.count() == 2
    # With A covered 2..2 and C up to 2: C's lone option still goes.
    q = ExactCover("AC", bounds={"A": (2, 2), "C": (1, 2)})
    q.add_options(["AC", "AC", "C"])
    assert fired(q, "implied-item") == ({2}, {"C"})


def test_an_implied_item_with_disjoint_bounds_leaves_no_solution():
    p = ExactCover("A", "X", bounds={"A": (2, 2)})
    p.add_options(["AX", "AX"])
    r = reduce(p, rules=("implied-item",))
    assert r.infeasible and r.problem.count() == 0 == p.count()


def test_of_two_items_with_the_same_options_the_later_stays():
    p = ExactCover("ABC")
    p.add_options(["AB", "ABC", "C"])
    r = reduce(p)
    assert r.removed_items == {"A": "implied-item"}


def test_blocking_option():
    # Choosing B C would leave E no option (dlx-pre.w's first example).
    p = ExactCover("BCE")
    p.add_options(["BC", "CE", "B"])
    assert fired(p, "blocking-option") == ({0}, set())


def test_blocking_counts_the_options_a_lower_bound_needs():
    # A must be covered twice; A X leaves A only A Y, which clashes on Y
    # with the third option... A X Y clashes with both others.
    p = ExactCover("A", "XY", bounds={"A": (2, 2)})
    p.add_options(["AX", "AY", "AXY"])
    assert fired(p, "blocking-option") == ({2}, set())
    # A shared item (upper bound 2) is no clash.
    q = ExactCover("AB", bounds={"A": (1, 2)})
    q.add_options(["AB", "A", "B"])
    r = reduce(q, rules=("blocking-option",))
    assert not r.removed_options


def test_blocking_respects_colors():
    # A X:r is compatible with B X:r, so it stays; A X:g leaves B nothing.
    p = ExactCover("AB", "X")
    p.add_option("AX", {"X": "r"})
    p.add_option("AX", {"X": "g"})
    p.add_option("BX", {"X": "r"})
    assert fired(p, "blocking-option") == ({1}, set())


def test_free_secondary():
    # X has one color, Y and Z one option each; W is shared uncolored.
    p = ExactCover("AB", "WXYZ")
    p.add_option("AXY", {"X": "r"})
    p.add_option("BX", {"X": "r"})
    p.add_options(["A", "BZ", "AW", "BW"])
    assert fired(p, "free-secondary") == (set(), {"X", "Y", "Z"})
    q = ExactCover("AB", "X")
    q.add_option("AX", {"X": "r"})
    q.add_option("BX", {"X": "g"})
    assert not reduce(q, rules=("free-secondary",)).removed_items


def test_givens():
    # Given A X:r: the options with X of another color, or uncolored, go;
    # those of color r keep going without X.
    p = ExactCover("ABC", "X", bounds={"C": (1, 2)})
    p.add_option("AX", {"X": "r"})
    p.add_option("BX", {"X": "g"})
    p.add_option("BX", {"X": "r"})
    p.add_option("CX")
    p.add_option("C")
    p.add_option("BC")
    r = reduce(p, given=[0, 4], rules=())
    assert r.given == (0, 4)
    assert r.removed_options == {1: "given", 3: "given"}
    assert r.removed_items == {"A": "given", "X": "given"}
    assert r.problem.options == (("B",), ("B", "C"))
    assert r.problem.bounds == {"C": (0, 1)}
    check_reduction(p, r, [0, 4])
    assert reduce(p, given=[0, 1]).infeasible  # X:r and X:g
    assert reduce(p, given=[4, 3, 5]).infeasible  # C thrice


# -- the DLX-PRE comparison ---------------------------------------------------


def figures():
    with open(DATA / "figures.tsv", encoding="utf-8") as handle:
        rows = [
            row
            for row in csv.reader(handle, delimiter="\t")
            if row and not row[0].startswith("#")
        ]
    return [
        (name, int(options), int(items)) for name, options, items, _ in rows
    ]


@pytest.mark.parametrize("name, options, items", figures())
def test_nothing_is_left_that_dlx_pre_removes(name, options, items):
    p = load(DATA / name)
    for rules in (RULES, DLX_PRE_RULES):
        r = reduce(p, rules=rules)
        assert len(r.problem.options) <= options
        assert len(r.problem.items) <= items
    # The prediction of a round's work is within its stated factor.
    first = reduce(p, rounds=1)
    assert 0.5 * round_work(p) <= first.work <= 1.5 * round_work(p)


# -- the command line ---------------------------------------------------------


def run(*argv, stdin=None):
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = main(list(argv))
    return status, out.getvalue(), err.getvalue()


def test_dlx_reduce_writes_the_reduced_problem(tmp_path):
    path = tmp_path / "colors.dlx"
    path.write_text(
        "| Knuth's color example\nA B C | X Y\nA B X:0 Y:0\n"
        "A C X:1 Y:1\nX:0 Y:1\nB X:1\nC Y:1\n"
    )
    status, out, err = run("reduce", "--rules", "dlx-pre", str(path))
    assert status == 0
    assert out == ("A B | X Y\nA X:1 Y:1\n| (from 2)\nB X:1\n| (from 3)\n")
    assert err.splitlines()[0] == "(5 options, 3+2 items read)"
    assert err.splitlines()[1].startswith("Removed 3 options and 1 item, ")
    assert "2 rounds" in err
    reduced = loads(out)
    assert reduced.count() == 1


def test_dlx_reduce_of_a_problem_without_solution(tmp_path):
    path = tmp_path / "none.dlx"
    path.write_text("A B\nA\n")
    status, out, err = run("reduce", str(path))
    assert (status, out) == (0, "B\n")
    assert "no solution: item 'B' cannot be covered" in err


@pytest.mark.parametrize(
    "argv, message, code",
    [
        (["reduce", "missing.dlx"], "cannot read missing.dlx", 2),
        (["reduce", "--rules", "nope", "x"], "unknown rule 'nope'", 2),
        (["reduce", "--rounds", "-1", "x"], "expected a whole number", 2),
    ],
)
def test_dlx_reduce_refuses_bad_usage(argv, message, code):
    status, out, err = run(*argv)
    assert status == code and message in err and out == ""


def test_dlx_reduce_refuses_bad_input(tmp_path):
    path = tmp_path / "bad.dlx"
    path.write_text("A B\nA C\n")
    status, out, err = run("reduce", str(path))
    assert status == 1 and "unknown item 'C'" in err and out == ""


def test_dlx_solve_reduce_prints_original_options(tmp_path):
    path = tmp_path / "knuth.dlx"
    path.write_text("A B C D E | F G\nC E F\nA D G\nB C F\nA D\nB G\nD E G\n")
    status, out, err = run("solve", "--reduce", "--all", "--stats", str(path))
    assert status == 0
    assert out == "solution 1:\nC E F\nA D\nB G\n"
    assert err.startswith("Removed 3 options and 4 items")
    status, out, _ = run("solve", "--reduce", "--count", str(path))
    assert (status, out) == (0, "1\n")


def test_dlx_solve_reduce_best(tmp_path):
    path = tmp_path / "costs.dlx"
    # Knuth's DLX5 format: a cost after '|' on an option line.
    path.write_text("A B C | X\nA X |3\nX |1\nA B |2\nC |1\nA |4\nB |1\n")
    expected = run("solve", "--best", "2", str(path))
    status, out, _ = run("solve", "--best", "2", "--reduce", str(path))
    assert expected[0] == status == 0 and out == expected[1]


def test_dlx_solve_reduce_counts_pentominoes_with_holes(tmp_path):
    # The 8x8 board with its centre 2x2 hole: 65 tilings up to symmetry
    # (520 in all).
    status, out, _ = run(
        "pentomino",
        "--board",
        str(Path(__file__).parent / "data" / "8x8-centre-hole.board"),
        "--dlx",
        "--all-symmetries",
    )
    path = tmp_path / "board.dlx"
    path.write_text(out)
    status, out, _ = run(
        "solve", "--reduce", "--count", "--jobs", "1", str(path)
    )
    assert (status, out.split()[-1]) == (0, "520")


# -- bad input ----------------------------------------------------------------


def test_bad_arguments_are_refused():
    p = knuth_example()
    with pytest.raises(ValueError, match="unknown reduction rule 'x'"):
        reduce(p, rules=("x",))
    with pytest.raises(ValueError, match="rounds"):
        reduce(p, rounds=-1)
    with pytest.raises(TypeError, match="given option 'a'"):
        reduce(p, given=["a"])
    with pytest.raises(ValueError, match="given option 9 does not exist"):
        reduce(p, given=[9])
    with pytest.raises(TypeError, match="reduce expects an ExactCover"):
        reduce([[1]])
    with pytest.raises(TypeError, match="reduce must be True"):
        p.count(reduce="yes")
    with pytest.raises(ValueError, match="unknown keyword 'limit'"):
        p.count(reduce={"limit": 3})
    assert p.count(reduce={"rounds": 1}) == 1


def test_reduce_goes_with_memo_counts_and_threads(tmp_path):
    from dlx.problems.tiling import tiling

    p = tiling("4x4", "dominoes")
    p.add_option(["00"])  # a monomino that no tiling can use
    assert p.count(reduce=True, memo=True) == p.count() == 36
    assert p.count(reduce=True, threads=2) == 36
    path = tmp_path / "tiling.dlx"
    path.write_text(dumps(p))
    status, out, _ = run("solve", "--reduce", "--count", "--memo", str(path))
    assert (status, out.split()[-1]) == (0, "36")


def test_a_budget_hands_back_the_cheapest_found_in_original_options():
    from dlx.problems.tiling import tiling

    dominoes = tiling("4x4", "dominoes")
    p = ExactCover(dominoes.primary, ["s"])
    p.add_option(["s"], cost=5)  # no primary item: the reduction drops it
    for k, option in enumerate(dominoes.options):
        p.add_option(option, cost=k % 3)
    with pytest.raises(BudgetExhausted) as stop:
        p.best(2, max_nodes=10, reduce=True)
    assert stop.value.best
    for cost, solution in stop.value.best:
        assert 0 not in solution and is_exact_cover(p, solution)
        assert cost == sum((k - 1) % 3 for k in solution)


def test_a_search_with_reduce_shares_its_time_limit(monkeypatch):
    import dlx.services.reduce as R

    seen = {}
    reduced = R._reduce  # the search's reduction (its given checked)

    def slow(problem, given, rounds, time_limit, *rest):  # it took 10 s
        seen["time_limit"] = time_limit
        reduction = reduced(problem, given, rounds, time_limit, *rest)
        reduction.seconds = 10.0
        return reduction

    monkeypatch.setattr(R, "_reduce", slow)
    p = ExactCover("AB")
    p.add_options(["A", "B", "AB"])
    assert p.count(reduce=True, time_limit=30) == 2
    assert seen["time_limit"] == 15  # half for the reduction
    with pytest.raises(BudgetExhausted):  # nothing left for the search
        p.count(reduce=True, time_limit=10)
    assert p.count(reduce={"time_limit": 1}, time_limit=12) == 2
    assert seen["time_limit"] == 1


def test_a_problem_changed_since_its_last_reduction_is_read_again():
    p = ExactCover("AB")
    p.add_options(["A", "B"])
    assert reduce(p).problem.options == (("A",), ("B",))
    p.add_option(["A", "B"])
    r = reduce(p)
    assert len(r.problem.options) == 3 and r.problem.count() == 2


@pytest.mark.parametrize("kind", ["colors", "bounds"])
@SLOW
@given(data=st.data())
def test_the_cheapest_solutions_carry_over(kind, data):
    nitems, nprimary, options, colors, bounds = data.draw(
        planted(**KINDS[kind])
    )
    costs = data.draw(
        st.lists(
            st.integers(0, 9), min_size=len(options), max_size=len(options)
        )
    )
    p = ExactCover(
        range(nprimary), range(nprimary, nitems), bounds=bounds or None
    )
    for items, cols, cost in zip(options, colors, costs):
        p.add_option(items, colors=cols or None, cost=cost)
    forced = (
        data.draw(
            st.lists(st.integers(0, len(p) - 1), max_size=2, unique=True)
        )
        if len(p)
        else []
    )
    r = reduce(p, given=forced)
    assert [r.problem.structure().costs[k] for k in range(len(r.problem))] == [
        costs[k] for k in r.original
    ]
    expected = sorted(
        sum(costs[k] for k in s) for s in reference_solutions(p, forced)
    )
    found = p.best(3, given=forced, reduce=True)
    assert [cost for cost, _ in found] == expected[:3]
    for cost, solution in found:
        assert cost == sum(costs[k] for k in solution)
        assert set(forced) <= set(solution)


# -- the module's examples (docs/reduce.md runs in test_readme) ---------------


def test_the_module_examples_run():
    import dlx.services.reduce

    result = doctest.testmod(dlx.services.reduce)
    assert result.attempted > 0 and result.failed == 0
