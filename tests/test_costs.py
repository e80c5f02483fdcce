"""Costs and the k cheapest solutions (Knuth's DLX5): the format, the
model, the kernel against a brute force and against DLX5's own figures,
budgets, the shared threshold and the CLI."""

import csv
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from dlx import ExactCover
from dlx.cli import main
from dlx.engines import dlx5 as engine_module, engine_for
from dlx.engines.dlx5 import INF, CostArrays, CostsEngine
from dlx.formats import DLXFormatError, dumps, load, loads
from dlx.kernels import dlx5 as K
from dlx.services.search import BudgetExhausted

from reference import costed_covers

DATA = Path(__file__).parent / "data" / "dlx5"

# Knuth's example (issue 26): dlx5 k3 reports $4, $5, $6.
EXAMPLE = "A B C\nA B |5\nC |1\nA |2\nB C |3\nB |1\nC |4\n"


def build(nitems, nprimary, options, colors, costs, bounds=None):
    p = ExactCover(range(nprimary), range(nprimary, nitems), bounds=bounds)
    for items, cols, cost in zip(options, colors, costs):
        p.add_option(items, cols or None, cost)
    return p


@st.composite
def costed_problems(draw, max_cost=5, bounded=False):
    nitems = draw(st.integers(1, 6))
    nsecondary = draw(st.integers(0, min(3, nitems - 1)))
    nprimary = nitems - nsecondary
    options, colors, costs = [], [], []
    for _ in range(draw(st.integers(0, 10))):
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
        costs.append(draw(st.integers(0, max_cost)))
    if not bounded:
        return nitems, nprimary, options, colors, costs
    bounds = {}
    for i in range(nprimary):
        if draw(st.booleans()):
            u = draw(st.integers(0, 2))
            bounds[i] = (u, draw(st.integers(max(u, 1), 3)))
    return nitems, nprimary, options, colors, costs, bounds


def check_best(p, found, reference, k, given=()):
    """``found`` (best's answer) is the k cheapest of ``reference``."""
    assert [c for c, _ in found] == [c for c, _ in reference][:k]
    solutions = {tuple(s) for _, s in reference}
    for cost, solution in found:
        assert solution == sorted(solution)
        assert tuple(solution) in solutions  # a solution ...
        assert cost == sum(p.costs[k] for k in solution)  # ... as priced
        assert set(given) <= set(solution)
    assert len({tuple(s) for _, s in found}) == len(found)


# -- the kernel against the brute force -------------------------------------
class links_of:
    """Within ``with links_of(bits):``, the engine builds links of that
    many bits (16 for small problems, else 32)."""

    def __init__(self, bits):
        self.small = engine_module.SMALL if bits == 16 else 0

    def __enter__(self):
        self.saved, engine_module.SMALL = engine_module.SMALL, self.small

    def __exit__(self, *exc):
        engine_module.SMALL = self.saved


@pytest.mark.parametrize("bits", [16, 32])
@pytest.mark.parametrize("k", [1, 3, 1000])
@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(costed_problems())
def test_best_matches_brute_force(k, bits, case):
    nitems, nprimary, options, colors, costs = case
    p = build(nitems, nprimary, options, colors, costs)
    reference = costed_covers(options, nprimary, nitems, costs, colors)
    with links_of(bits):
        found = p.best(k)
    check_best(p, found, reference, k)
    assert p.stats.complete


def test_links_take_16_bits_when_they_fit():
    p = loads(EXAMPLE)
    assert CostArrays.of(p).nd.dtype == np.int16
    with links_of(32):
        assert CostArrays.of(p).nd.dtype == np.int32


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(costed_problems(), st.data())
def test_best_with_givens_matches_brute_force(case, data):
    nitems, nprimary, options, colors, costs = case
    if not options:
        return
    p = build(nitems, nprimary, options, colors, costs)
    chosen = data.draw(st.lists(st.integers(0, len(options) - 1), max_size=2))
    reference = costed_covers(
        options, nprimary, nitems, costs, colors, given=chosen
    )
    found = p.best(3, given=chosen)
    check_best(p, found, reference, 3, chosen)


@settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(costed_problems(max_cost=(1 << 59)))
def test_huge_costs_match_brute_force(case):
    nitems, nprimary, options, colors, costs = case
    p = build(nitems, nprimary, options, colors, costs)
    reference = costed_covers(options, nprimary, nitems, costs, colors)
    check_best(p, p.best(2), reference, 2)


@pytest.mark.parametrize("bits", [16, 32])
@settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(costed_problems(), st.integers(1, 7))
def test_sliced_search_is_one_search(bits, case, slice_nodes):
    """A search paused every few nodes (and at every solution) ends with
    the figures, the answer and the links of one uninterrupted call."""
    nitems, nprimary, options, colors, costs = case
    p = build(nitems, nprimary, options, colors, costs)
    with links_of(bits):
        arrays = CostArrays.of(p)
    engine = CostsEngine()
    whole = engine.start_best(arrays, [], 3)
    if whole.covered:
        return
    assert whole.step(0, 1 << 60, False)[0] == K.EXHAUSTED
    sliced = engine.start_best(arrays, [], 3)
    improving = []
    while True:
        status, found = sliced.step(
            1, int(sliced.counters[0]) + slice_nodes, True
        )
        improving += found
        if status == K.EXHAUSTED:
            break
    assert sliced.counters.tolist() == whole.counters.tolist()
    assert [c for c, _ in sliced.best()] == [c for c, _ in whole.best()]
    assert len(improving) == whole.counters[2]
    # Each solution handed back beat the three best before it.
    priced = [sum(p.costs[k] for k in s) for s in improving]
    for n, cost in enumerate(priced):
        assert cost < (sorted(priced[:n])[2] if n >= 3 else INF)
    # Every link is back where the search found it.
    for mine, fresh in zip(sliced.work, arrays.copy_arrays()):
        assert np.array_equal(mine, fresh)


def test_taxes_make_net_costs_nonnegative_with_a_free_option_per_item():
    p = loads(EXAMPLE)
    arrays = CostArrays.of(p)
    # dlx5 v8 prints A tax=$2, B tax=$1, C tax=$1 (total $4).
    assert arrays.tax[1:4].tolist() == [2, 1, 1]
    assert arrays.total_tax == 4
    for item in (1, 2, 3):
        q, costs = arrays.nd[4 * item + 1], []
        while q != item:
            costs.append(int(arrays.cost[q]))
            q = arrays.nd[4 * q + 1]
        assert costs == sorted(costs) and costs[0] == 0


# -- known answers from Knuth's DLX5 ----------------------------------------
def figures():
    with open(DATA / "figures.tsv", newline="") as handle:
        rows = [
            r
            for r in csv.reader(handle, delimiter="\t")
            if r and not r[0].startswith("#")
        ]
    return [pytest.param(*r, id=f"{r[0]}-k{r[1]}") for r in rows]


@pytest.mark.parametrize("bits", [16, 32])
@pytest.mark.parametrize("name,k,solutions,updates,nodes,costs", figures())
def test_dlx5_figures(name, k, solutions, updates, nodes, costs, bits):
    p = load(DATA / name)
    with links_of(bits):
        found = p.best(int(k))
    assert [c for c, _ in found] == [int(c) for c in costs.split()]
    assert (p.stats.solutions, p.stats.updates, p.stats.nodes) == (
        int(solutions),
        int(updates),
        int(nodes),
    )
    for cost, solution in found:
        assert cost == sum(p.costs[i] for i in solution)
        covered = [x for i in solution for x in p.options[i]]
        assert set(p.primary) <= set(covered)
        assert all(covered.count(x) == 1 for x in p.primary)


def test_example_as_dlx5_counts_it():
    p = loads(EXAMPLE)
    found = p.best(3)
    assert [c for c, _ in found] == [4, 5, 6]
    # dlx5 k3: Altogether 4 solutions, 8 updates, 0 cleansings, 8 nodes.
    assert (p.stats.solutions, p.stats.updates, p.stats.nodes) == (4, 8, 8)
    assert found[0] == (4, [1, 2, 4])  # C, A, B


# -- edge cases ---------------------------------------------------------------
def test_no_primary_item_has_the_empty_solution():
    assert ExactCover().best(3) == [(0, [])]
    p = ExactCover([], ["x"])
    p.add_option(["x"], cost=5)
    assert p.best(2) == [(0, [])]


def test_no_solution():
    p = ExactCover("ab")
    p.add_option("a", cost=1)
    assert p.best() == []
    assert ExactCover("a").best() == []


def test_givens_that_cover_everything_or_clash():
    p = ExactCover("ab")
    p.add_options(["a", "b", "ab"], costs=[1, 2, 7])
    assert p.best(5, given=[2]) == [(7, [2])]
    assert p.best(5, given=[0, 2]) == []
    assert p.best(5) == [(3, [0, 1]), (7, [2])]
    with pytest.raises(ValueError, match="does not exist"):
        p.best(given=[3])
    with pytest.raises(TypeError):
        p.best(given=["a"])


def test_without_costs_every_solution_costs_nothing():
    p = ExactCover("ab")
    p.add_options(["a", "b", "ab"])
    assert sorted(s for _, s in p.best(5)) == [[0, 1], [2]]
    assert {c for c, _ in p.best(5)} == {0}


@pytest.mark.parametrize("k", [0, -1, 1.5, True, None])
def test_k_must_be_a_positive_integer(k):
    with pytest.raises((TypeError, ValueError), match="k must"):
        loads(EXAMPLE).best(k)


def test_dlx5_arrays_refuse_bounds_with_one_sentence():
    p = ExactCover("ab", bounds={"a": (1, 2)})
    p.add_option("a", cost=1)
    with pytest.raises(ValueError, match="bounds"):
        CostArrays.of(p)
    assert p.best() == []  # b has no option


# -- bounds: DLX3 with costs ------------------------------------------------
@pytest.mark.parametrize("k", [1, 3, 1000])
@settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(costed_problems(bounded=True))
def test_bounded_best_matches_brute_force(k, case):
    nitems, nprimary, options, colors, costs, bounds = case
    p = build(nitems, nprimary, options, colors, costs, bounds)
    reference = costed_covers(options, nprimary, nitems, costs, colors, bounds)
    check_best(p, p.best(k), reference, k)
    assert p.stats.complete


@settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(costed_problems(bounded=True), st.data())
def test_bounded_best_with_givens(case, data):
    nitems, nprimary, options, colors, costs, bounds = case
    if not options:
        return
    p = build(nitems, nprimary, options, colors, costs, bounds)
    chosen = data.draw(st.lists(st.integers(0, len(options) - 1), max_size=2))
    reference = costed_covers(
        options, nprimary, nitems, costs, colors, bounds, given=chosen
    )
    check_best(p, p.best(3, given=chosen), reference, 3, chosen)


@settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(costed_problems(bounded=True), st.integers(1, 7))
def test_bounded_sliced_search_is_one_search(case, slice_nodes):
    nitems, nprimary, options, colors, costs, bounds = case
    p = build(nitems, nprimary, options, colors, costs, bounds)
    engine = engine_for(p, purpose="best")
    arrays = engine.build(p)
    whole = engine.start_best(arrays, [], 3)
    assert whole.step(0, 1 << 60, False)[0] == 0
    sliced = engine.start_best(arrays, [], 3)
    improving = []
    while True:
        status, found = sliced.step(
            1, int(sliced.counters[0]) + slice_nodes, True
        )
        improving += found
        if status == 0:
            break
    assert sliced.counters.tolist() == whole.counters.tolist()
    assert sliced.best() == whole.best()
    assert len(improving) == whole.counters[2]
    for mine, fresh in zip(sliced.work, arrays.copy_arrays()):
        assert np.array_equal(mine, fresh)


def test_bounded_taxes_only_fixed_items():
    # a: exactly 2 (taxed twice), b: 0..1 (untaxed).
    p = ExactCover("ab", bounds={"a": 2, "b": (0, 1)})
    p.add_options(["a", "a", "ab", "b"], costs=[3, 4, 6, 1])
    arrays = engine_for(p, purpose="best").build(p)
    assert arrays.tax[1:].tolist() == [3, 0]
    assert arrays.total_tax == 6
    assert p.best(5) == [
        (7, [0, 1]),
        (8, [0, 1, 3]),
        (9, [0, 2]),
        (10, [1, 2]),
    ]


def test_costs_whose_sums_pass_64_bits():
    p = ExactCover("ab")
    big = (1 << 63) - 1
    p.add_options(["a", "b"], costs=[big, 1])
    p.add_options(["a", "b"], costs=[0, 0])
    # Taxes are 0: a solution could cost big + 1, exact all the same
    # (tests/test_costs_exact.py has the rest).
    assert p.best(4) == [
        (0, [2, 3]),
        (1, [1, 2]),
        (big, [0, 3]),
        (big + 1, [0, 1]),
    ]
    q = ExactCover("ab")
    q.add_options(["a", "b"], costs=[big, big])
    # Taxed to net 0 each: fine, and the sum is a Python int.
    assert q.best() == [(2 * big, [0, 1])]


# -- the model's costs --------------------------------------------------------
@pytest.mark.parametrize(
    "cost,error",
    [
        (-1, ValueError),
        (1 << 63, ValueError),
        (1.5, TypeError),
        (True, TypeError),
        ("3", TypeError),
        (None, TypeError),
    ],
)
def test_bad_costs_are_refused(cost, error):
    p = ExactCover("a")
    with pytest.raises(error, match="option 0"):
        p.add_option("a", cost=cost)
    with pytest.raises(error, match="option 1"):
        p.add_options(["a", "a"], costs=[0, cost])
    assert len(p) == 0 and p.costs == ()


def test_costs_sit_beside_the_options():
    p = ExactCover("ab")
    assert p.add_option("a", cost=np.int64(4)) == 0
    p.add_options(["b", "ab"])
    p.add_options(["a"], costs=[(1 << 63) - 1])
    assert p.costs == (4, 0, 0, (1 << 63) - 1)
    with pytest.raises(ValueError, match="2 entries for 1 options"):
        p.add_options(["a"], costs=[1, 2])
    assert ExactCover.from_matrix([[1, 0], [0, 1]]).costs == (0, 0)


# -- the format ---------------------------------------------------------------
def test_cost_tokens_read_as_dlx5_reads_them():
    p = loads("| comment\nA B | X\nA |3 B |4\nA X |0\nB\n")
    assert p.costs == (7, 0, 0)
    assert p.options[0] == ("A", "B")
    assert loads("A\nA |9223372036854775807\n").costs == ((1 << 63) - 1,)


@pytest.mark.parametrize(
    "line,message",
    [
        ("A |", "bad cost"),
        ("A | 5", "bad cost"),
        ("A |5x", "bad cost"),
        ("A |-1", "bad cost"),
        ("A |+1", "bad cost"),
        ("A |٣", "bad cost"),
        ("A |9223372036854775807 |1", "add up to 9223372036854775808"),
        ("A|5", "unknown item"),
    ],
)
def test_bad_cost_tokens_name_their_line(line, message):
    with pytest.raises(DLXFormatError, match=message) as error:
        loads(f"A B\n\n{line}\n")
    assert error.value.line == 3


@settings(max_examples=100, deadline=None)
@given(costed_problems(max_cost=(1 << 63) - 1))
def test_costs_round_trip(case):
    nitems, nprimary, options, colors, costs = case
    p = build(nitems, nprimary, options, colors, costs)
    text = dumps(p, max_name_length=None)
    q = loads(text, max_name_length=None)
    assert q.costs == p.costs
    assert q.options == tuple(tuple(str(i) for i in o) for o in p.options)
    assert dumps(q, max_name_length=None) == text


# -- the shared threshold -----------------------------------------------------
def test_a_shared_threshold_prunes_and_is_lowered():
    p = loads(EXAMPLE)
    arrays = CostArrays.of(p)
    engine = CostsEngine()
    net = lambda cost: cost - arrays.total_tax
    shared = np.array([net(4)], np.int64)  # someone found $4 already
    told = engine.start_best(arrays, [], 1, shared)
    told.step(0, 1 << 60, False)
    assert told.best() == []  # nothing beats $4
    shared[0] = net(6)  # someone found $6
    run = engine.start_best(arrays, [], 1, shared)
    run.step(0, 1 << 60, False)
    assert [c for c, _ in run.best()] == [4]
    assert shared[0] == net(4)  # lowered for the others
    # Without a shared threshold DLX5 visits more of the tree.
    alone = engine.start_best(arrays, [], 1)
    alone.step(0, 1 << 60, False)
    assert alone.counters[0] > told.counters[0]


# -- budgets -----------------------------------------------------------------
def grid_problem(n=6):
    """n x n cells, options: dominoes and monominoes with costs."""
    cells = [(r, c) for r in range(n) for c in range(n)]
    p = ExactCover(cells)
    for r, c in cells:
        p.add_option([(r, c)], cost=3 + (r * 7 + c * 3) % 5)
        if c + 1 < n:
            p.add_option([(r, c), (r, c + 1)], cost=(r + 2 * c) % 4 + 1)
        if r + 1 < n:
            p.add_option([(r, c), (r + 1, c)], cost=(3 * r + c) % 4 + 1)
    return p


def test_a_budget_hands_back_what_was_found_unproven():
    p = grid_problem()
    with pytest.raises(BudgetExhausted) as stop:
        p.best(3, max_nodes=60)
    assert stop.value.proven is False
    assert not stop.value.stats.complete
    assert 1 <= len(stop.value.best) <= 3
    full = p.best(3)
    assert p.stats.complete
    for cost, solution in stop.value.best:
        assert cost == sum(p.costs[k] for k in solution)
        assert cost >= full[0][0]
    with pytest.raises(BudgetExhausted):
        p.best(3, time_limit=0)


# -- the CLI ----------------------------------------------------------------
def test_cli_prints_the_k_best(tmp_path, capsys):
    path = tmp_path / "example.dlx"
    path.write_text(EXAMPLE)
    assert main(["solve", str(path), "--best", "3"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "cost 4" and sorted(out[1:4]) == ["A |2", "B |1", "C |1"]
    assert out[4] == "cost 5" and sorted(out[5:7]) == ["A |2", "B C |3"]
    assert out[7] == "cost 6" and sorted(out[8:10]) == ["A B |5", "C |1"]
    assert len(out) == 10


def test_cli_without_solution_and_usage(tmp_path, capsys):
    path = tmp_path / "none.dlx"
    path.write_text("A B\nA |3\n")
    assert main(["solve", str(path), "--best", "2"]) == 1
    assert capsys.readouterr().out == ""
    assert main(["solve", str(path), "--best", "2", "--count"]) == 2
    assert "--best cannot go with --count" in capsys.readouterr().err
    assert main(["solve", str(path), "--best", "0"]) == 2


# -- the docs page and the timetable ------------------------------------
def test_the_docs_page_runs():
    import doctest

    page = Path(__file__).resolve().parent.parent / "docs" / "costs.md"
    result = doctest.testfile(
        str(page), module_relative=False, optionflags=doctest.ELLIPSIS
    )
    assert result.attempted > 10 and result.failed == 0


def test_timetable_module_examples():
    import doctest

    from dlx.problems import timetable

    result = doctest.testmod(timetable)
    assert result.attempted >= 3 and result.failed == 0


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(st.integers(0, 10**6))
def test_timetables_are_valid_and_cheapest(seed):
    import random

    from dlx.problems.timetable import schedule, timetable

    r = random.Random(seed)
    people = "abcdef"
    exams = {
        f"e{i}": r.sample(people, r.randint(1, 3))
        for i in range(r.randint(1, 4))
    }
    rooms = {
        f"r{i}": (r.randint(1, 3), r.randint(0, 5))
        for i in range(r.randint(1, 2))
    }
    # At most 4 x 2 x 2 = 16 placements: the brute force tries every set
    # of options (2**24 with three slots took the run over a minute).
    slots = {f"s{i}": r.randint(0, 3) for i in range(r.randint(1, 2))}
    p = timetable(exams, rooms, slots)
    options = [[p.items.index(x) for x in o] for o in p.options]
    assert len(options) <= 16
    reference = costed_covers(options, len(p.primary), len(p.items), p.costs)
    found = p.best(3)
    check_best(p, found, reference, 3)
    for cost, solution in found:
        booked = schedule(p, solution)
        assert sorted(e for _, _, e in booked) == sorted(exams)
        assert len({(s, room) for s, room, _ in booked}) == len(booked)
        for _s, room, e in booked:
            assert rooms[room][0] >= len(exams[e])
        assert cost == sum(rooms[room][1] + slots[s] for s, room, _ in booked)


def test_cli_ctrl_c_prints_the_best_found_unproven(
    tmp_path, capsys, monkeypatch
):
    from dlx.services.search import Interrupted, Stats

    path = tmp_path / "example.dlx"
    path.write_text(EXAMPLE)

    def interrupted(self, k=1, **kwargs):
        stop = Interrupted(1, Stats(nodes=3, complete=False))
        stop.best, stop.proven = [(6, [0, 1])], False
        raise stop

    monkeypatch.setattr(ExactCover, "best", interrupted)
    assert main(["solve", str(path), "--best", "2", "--stats"]) == 130
    out, err = capsys.readouterr()
    assert out.splitlines() == ["cost 6", "A B |5", "C |1"]
    assert "not proven optimal" in err and "3 nodes" in err


def test_an_interrupt_hands_back_what_was_found(monkeypatch):
    """Ctrl-C during a slice: search.run raises Interrupted, and best adds
    what it had found."""
    from dlx.services import search
    from dlx.services.search import Interrupted

    p = grid_problem()
    real = search.Slicer.record
    calls = []

    def record(self, nodes, elapsed):  # the first slice "sees" Ctrl-C
        calls.append(nodes)
        real(self, nodes, elapsed)
        if len(calls) == 1:
            raise KeyboardInterrupt

    monkeypatch.setattr(search.Slicer, "record", record)
    with pytest.raises(Interrupted) as stop:
        p.best(2)
    assert stop.value.proven is False
    for cost, solution in stop.value.best:
        assert cost == sum(p.costs[k] for k in solution)


@pytest.mark.parametrize(
    "exams, rooms, slots, refused",
    [
        ({"e 1": ["a"]}, {"r": (1, 0)}, ["s"], "exam 'e 1'"),
        ({"e": ["a@b"]}, {"r": (1, 0)}, ["s"], "student 'a@b'"),
        ({"e": ["a"]}, {"": (1, 0)}, ["s"], "room ''"),
        ({"e": ["a"]}, {"r": (1, 0)}, ["s\t2"], "slot 's\\t2'"),
    ],
)
def test_timetable_names_must_make_item_names(exams, rooms, slots, refused):
    from dlx.problems.timetable import timetable

    with pytest.raises(ValueError) as caught:
        timetable(exams, rooms, slots)
    assert str(caught.value) == (
        f"{refused}: names must be nonempty, without blanks or '@'"
    )


def test_timetable_slots_given_as_a_list_cost_nothing():
    from dlx.problems.timetable import timetable

    p = timetable({"e": ["a"], "f": ["a", "b"]}, {"r": (2, 3)}, ["s", "t"])
    assert p.costs == (3, 3, 3, 3)
    q = timetable(
        {"e": ["a"], "f": ["a", "b"]}, {"r": (2, 3)}, {"s": 0, "t": 5}
    )
    assert q.costs == (3, 8, 3, 8) and q.best(1)[0][0] == 11
