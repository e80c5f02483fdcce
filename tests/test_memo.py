"""Memoized counts (count(memo=True)) against plain counts, the reference
and known tiling counts; exactness past 2**63; budgets and a bounded table."""

import os

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from dlx import BudgetExhausted, ExactCover, Interrupted, Stats
from dlx.engines import MULTIPLICITIES, memo as memo_engine
from dlx.kernels import memo as M
from dlx.problems.rooks import rooks
from dlx.services import memo as memo_count
from dlx.services.memo import MemoStats

from reference import domino_tilings, exact_covers, generalized_covers
from test_engine import queens, small_problems, toy
from test_xcc import build, colored_problems

HERE = os.path.dirname(__file__)


def dominoes(rows, cols):
    """Every domino placement on a rows x cols board; cells in row order."""
    p = ExactCover([(r, c) for r in range(rows) for c in range(cols)])
    for r in range(rows):
        for c in range(cols):
            if c + 1 < cols:
                p.add_option([(r, c), (r, c + 1)])
            if r + 1 < rows:
                p.add_option([(r, c), (r + 1, c)])
    return p


def known_tilings():
    with open(os.path.join(HERE, "data", "a099390.txt")) as f:
        rows = [line.split() for line in f if not line.startswith("#")]
    return [tuple(int(x) for x in row) for row in rows if row]


# Every way the memoized count can run: the two item choice rules, a
# table of one bucket (entries replace each other all the time), and limbs
# of three bits (every count of 8 or more carries, and overflows at first).
VARIANTS = [
    dict(choose="mrv"),
    dict(choose="first"),
    dict(choose="mrv", memo_bytes=0),
    dict(choose="first", memo_bytes=0),
    dict(choose="mrv", limb_bits=3),
    dict(choose="first", limb_bits=3, memo_bytes=0),
    dict(choose="mrv", min_cost=3),
]


def memo(problem, **kwargs):
    """memo_count.count, as ExactCover.count(memo=True) calls it."""
    return memo_count.count(problem, **kwargs)


# -- against the reference and the plain count --------------------------------


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(small_problems(), st.sampled_from(VARIANTS))
def test_memo_count_matches_reference(case, variant):
    nitems, nprimary, options = case
    p = ExactCover(range(nprimary), range(nprimary, nitems))
    p.add_options(options)
    expected = len(exact_covers(options, nprimary, nitems))
    assert memo(p, **variant) == expected
    assert p.stats.solutions == expected and p.stats.complete
    assert p.count(memo=True) == expected


@settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(small_problems(), st.data(), st.sampled_from(VARIANTS))
def test_memo_count_with_given_options(case, data, variant):
    nitems, nprimary, options = case
    if not options:
        return
    forced = data.draw(
        st.lists(st.integers(0, len(options) - 1), max_size=2, unique=True)
    )
    p = ExactCover(range(nprimary), range(nprimary, nitems))
    p.add_options(options)
    expected = len(exact_covers(options, nprimary, nitems, given=forced))
    assert memo(p, given=forced, **variant) == expected
    assert p.count(given=forced, memo=True) == p.count(given=forced)


# The kinds of problem the memo counts (and builds the ZDD of): the
# property tests below and in test_zdd run on each.
KINDS = ["plain", "colors", "bounds", "bounds+colors"]


@st.composite
def kinded_problems(draw, kind):
    """``(problem, given, truth)`` of ``kind`` (``test_xcc``'s random
    problems, their colors dropped where the kind has none), ``truth``
    the reference's solutions holding ``given``."""
    bounded = "bounds" in kind
    nitems, nprimary, options, colors, bounds = draw(
        colored_problems(bounded=bounded)
    )
    if "colors" not in kind:
        colors = [{} for _ in options]
    p = build(nitems, nprimary, options, colors, bounds)
    assume((p.kind == MULTIPLICITIES) == bounded)
    forced = (
        draw(
            st.lists(st.integers(0, len(options) - 1), max_size=2, unique=True)
        )
        if options
        else []
    )
    truth = generalized_covers(
        options, nprimary, nitems, colors, bounds, forced
    )
    return p, forced, truth


def sliced_count(p, forced, step, **variant):
    """The memo engine's count run ``step`` nodes at a time, as
    ``dlx.services.memo.count`` sets it up: every slice resumes the
    kernel where the last one stopped."""
    engine = memo_count.MEMO
    arrays = engine.arrays(p)
    nwords, keyinfo = memo_count.key_layout(p)
    run = engine.start(
        arrays,
        engine.option_nodes(arrays, p.given_options(forced)),
        nwords=nwords,
        keyinfo=keyinfo,
        bounds=memo_count.memo_bounds(p),
        rule=M.FIRST if variant.get("choose") == "first" else M.MRV,
        memo_bytes=variant.get("memo_bytes", memo_engine.DEFAULT_MEMO_BYTES),
    )
    if run.clash or run.covered:
        return 0 if run.clash else 1
    stop_at = 0
    while True:
        stop_at += step
        status, _ = run.step(0, stop_at, False)
        if status == memo_engine.EXHAUSTED:
            return run.counters[2]


@pytest.mark.parametrize("kind", KINDS)
@settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(st.data(), st.sampled_from(VARIANTS))
def test_memo_count_of_every_kind_matches_reference(kind, data, variant):
    p, forced, truth = data.draw(kinded_problems(kind))
    assert memo(p, given=forced, **variant) == len(truth)
    assert p.stats.solutions == len(truth) and p.stats.complete
    assert p.count(memo=True, given=forced) == len(truth)
    assert p.count(given=forced) == len(truth)


@pytest.mark.parametrize("kind", KINDS)
@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(st.data(), st.integers(1, 5), st.sampled_from(VARIANTS[:4]))
def test_memo_count_in_slices_of_a_few_nodes(kind, data, step, variant):
    # Every slice ends the kernel call and the next resumes it: the
    # search's state lives in its arrays, none in the kernel's locals.
    p, forced, truth = data.draw(kinded_problems(kind))
    assert sliced_count(p, forced, step, **variant) == len(truth)


@st.composite
def repetitive_problems(draw):
    """Problems where subproblems repeat: several small independent blocks
    (whose counts multiply) with options local in item order, plus some
    secondary items shared between blocks."""
    blocks = draw(st.integers(1, 4))
    size = draw(st.integers(2, 5))
    nsecondary = draw(st.integers(0, 2))
    nprimary = blocks * size
    options = []
    for b in range(blocks):
        base = b * size
        for _ in range(draw(st.integers(1, 2 * size))):
            items = draw(
                st.sets(st.integers(0, size - 1), min_size=1, max_size=3)
            )
            option = [base + i for i in sorted(items)]
            if nsecondary and draw(st.booleans()):
                option.append(nprimary + draw(st.integers(0, nsecondary - 1)))
            options.append(option)
    return nprimary + nsecondary, nprimary, options


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(repetitive_problems(), st.sampled_from(VARIANTS))
def test_memo_count_where_subproblems_repeat(case, variant):
    nitems, nprimary, options = case
    p = ExactCover(range(nprimary), range(nprimary, nitems))
    p.add_options(options)
    plain = p.count()
    assert memo(p, **variant) == plain
    if plain > 1:
        # The memo itself (count(memo=True) counts these by components).
        memo(p, choose="first")
        assert p.stats.memo_lookups > 0


def test_toy_and_queens():
    assert toy().count(memo=True) == 1
    for n, expected in [(1, 1), (4, 2), (6, 4), (8, 92)]:
        assert queens(n).count(memo=True, choose="mrv") == expected
        assert queens(n).count(memo=True, choose="first") == expected


def test_the_kernel_logic_runs_unjitted():
    # The driver with the search kernel as plain Python (its helpers stay
    # compiled): covers the logic of the loop itself.
    p = dominoes(4, 4)
    original = M.count
    try:
        M.count = original.py_func
        assert memo(p, choose="first", limb_bits=3) == 36
        assert memo(dominoes(2, 3), memo_bytes=0) == 3
    finally:
        M.count = original
    original = M.count3
    try:
        M.count3 = original.py_func
        assert memo(rooks(4, 2), choose="first", limb_bits=3) == 90
        assert memo(rooks(3, 2), memo_bytes=0) == 6
    finally:
        M.count3 = original


# -- known counts -------------------------------------------------------------


def test_domino_reference_agrees_with_oeis():
    for rows, cols, count in known_tilings():
        if rows * cols <= 144:
            assert domino_tilings(rows, cols) == count


@pytest.mark.parametrize(
    "rows,cols,count",
    [case for case in known_tilings() if case[0] * case[1] <= 144],
)
@pytest.mark.parametrize("choose", ["mrv", "first"])
def test_domino_tilings_a099390(rows, cols, count, choose):
    p = dominoes(rows, cols)
    assert p.count(memo=True, choose=choose) == count
    assert p.stats.memo_hits > 0 or count < 10
    if count < 200_000:
        assert p.count() == count


@pytest.mark.slow
@pytest.mark.parametrize(
    "rows,cols,count",
    [case for case in known_tilings() if case[0] * case[1] > 144],
)
def test_large_domino_tilings_a099390(rows, cols, count):
    assert dominoes(rows, cols).count(memo=True) == count


@pytest.mark.parametrize(
    "k,counts",
    [
        (2, [1, 0, 1, 6, 90, 2040, 67950]),  # OEIS A001499
        (3, [1, 0, 0, 1, 24, 2040, 297200]),  # OEIS A001501
    ],
)
@pytest.mark.parametrize("choose", ["mrv", "first"])
def test_rooks_with_bounds_a001499_a001501(k, counts, choose):
    for n in range(k, len(counts)):
        p = rooks(n, k)
        assert p.count(memo=True, choose=choose) == counts[n], n
        assert p.stats.memo_hits > 0 or n == k


# -- exact past 2**63 -----------------------------------------------------------


def test_bounded_counts_past_two_to_the_64():
    # 45 items of bounds 1..2, each with two options of its own and one
    # shared with the next: every count is exact, whatever its size.
    n = 45
    p = ExactCover(range(n + 1), bounds=dict.fromkeys(range(n + 1), (1, 2)))
    for i in range(n):
        p.add_options([[i], [i], [i, i + 1]])
    p.add_option([n])
    # Item i's own options and the shared ones around it: a transfer
    # matrix over "is option (i, i+1) taken".
    ways = {0: 1, 1: 0}  # "shared option into item i taken?": count
    for _ in range(n):
        new = {0: 0, 1: 0}
        for into, c in ways.items():
            for out in (0, 1):
                # Uses of i: into + out + own options (0..2), in 1..2.
                for own, m in ((0, 1), (1, 2), (2, 1)):
                    if 1 <= into + out + own <= 2:
                        new[out] += c * m
        ways = new
    # Item n: its own option alone, or beside the shared one (or not).
    expected = ways[0] + ways[1] * 2
    assert expected > 2**64
    for choose in ("mrv", "first"):
        # The bounded memo on the whole chain (count(memo=True) cuts it
        # at its items: dlx.services.parts).
        found = memo(p, choose=choose)
        assert type(found) is int and found == expected
        assert p.stats.memo_limbs >= 2
    assert p.count(memo=True) == expected
    assert p.zdd().count() == expected


def test_counts_past_two_to_the_64():
    # 100 x 2: Fibonacci(101), about 2**68; 80 x 3 and 40 x 5 from the
    # transfer matrix; 14 x 14 from OEIS (A004003), about 2**76.  (Rows
    # are the short side: the items are then swept across it.)
    fib = [0, 1]
    while len(fib) < 102:
        fib.append(fib[-1] + fib[-2])
    cases = [
        (100, 2, fib[101]),
        (80, 3, domino_tilings(80, 3)),
        (40, 5, domino_tilings(40, 5)),
        (14, 14, 112202208776036178000000),
    ]
    for rows, cols, count in cases:
        assert count > 2**64
        p = dominoes(rows, cols)
        found = p.count(memo=True)
        assert type(found) is int and found == count
        assert p.stats.solutions == count and p.stats.memo_limbs >= 2


def test_independent_blocks_multiply():
    # Six disjoint copies of the 6 x 6 board: 6728**6, about 2**76.
    blocks = 6
    p = ExactCover(
        [(b, r, c) for b in range(blocks) for r in range(6) for c in range(6)]
    )
    for b in range(blocks):
        for r in range(6):
            for c in range(6):
                if c < 5:
                    p.add_option([(b, r, c), (b, r, c + 1)])
                if r < 5:
                    p.add_option([(b, r, c), (b, r + 1, c)])
    for choose in ("mrv", "first"):
        assert p.count(memo=True, choose=choose) == 6728**blocks


def test_narrow_limbs_carry_exactly():
    # 4-bit limbs: 12,988,816 needs six of them, and two restarts widen
    # the counts (1 -> 2 -> 4 -> 6 limbs, the bound for this board).
    p = dominoes(8, 8)
    assert memo(p, limb_bits=4) == 12988816
    assert p.stats.memo_limbs >= 6


# -- the table ------------------------------------------------------------------


def test_a_bounded_table_still_counts_right():
    p = dominoes(8, 10)
    big = p.count(memo=True)
    entries = p.stats.memo_entries
    small = p.count(memo=True, memo_bytes=16 * 1024)
    assert small == big == 1031151241
    s = p.stats
    assert s.memo_bytes <= 16 * 1024 and s.memo_entries < entries
    assert s.memo_replaced > 0 and 0 < s.hit_rate < 1
    assert "entries" in str(s) and "hit" in str(s)


def test_the_table_grows_and_reports_itself():
    p = dominoes(10, 10)
    p.count(memo=True)
    s = p.stats
    assert isinstance(s, MemoStats) and s.complete
    assert s.memo_slots > 4096  # it grew from its first size
    assert s.memo_entries <= s.memo_slots
    assert s.memo_bytes == s.memo_slots * 8 * (1 + 2 + s.memo_limbs)
    assert s.memo_hits <= s.memo_lookups <= s.nodes
    assert s.memo_saved > s.nodes  # the hits stood for more than was done


def test_memo_auto_keeps_the_memo_only_where_it_pays():
    p = dominoes(6, 8)
    assert p.count(memo="auto") == 167089
    assert isinstance(p.stats, MemoStats) and p.stats.choose == "first"
    q = queens(10)  # subproblems rarely repeat: the probe gives up
    old = memo_engine.PROBE_NODES
    try:
        memo_engine.PROBE_NODES = 1000
        assert q.count(memo="auto") == 724
        assert type(q.stats) is Stats and q.stats.complete
    finally:
        memo_engine.PROBE_NODES = old


def test_choose_auto_sweeps_boards_and_uses_mrv_elsewhere():
    assert memo_count.choose_rule(dominoes(8, 8)) == "first"
    assert memo_count.choose_rule(queens(8)) == "mrv"


# -- budgets --------------------------------------------------------------------


# Budgets, time limits and Ctrl-C: without bounds and with them.
BUDGETED = [
    pytest.param(lambda: queens(9), 352, id="queens"),
    pytest.param(lambda: rooks(6, 3), 297200, id="rooks"),
]


@pytest.mark.parametrize("make,count", BUDGETED)
def test_node_budget_gives_a_partial_count(make, count):
    p = make()
    with pytest.raises(BudgetExhausted) as stop:
        p.count(memo=True, max_nodes=500)
    assert 0 <= stop.value.count < count
    assert stop.value.stats.nodes == 500 and not stop.value.stats.complete
    assert p.count(memo=True, max_nodes=10**6) == count


@pytest.mark.parametrize(
    "make",
    [
        # Langford-like chains of distinct subproblems: no memo saves this.
        pytest.param(lambda: queens(16), id="queens"),
        pytest.param(lambda: rooks(12, 6), id="rooks"),
    ],
)
def test_time_limit_stops_a_memoized_count(make):
    p = make()
    with pytest.raises(BudgetExhausted, match="time_limit"):
        p.count(memo=True, time_limit=0.2)
    assert p.stats.seconds < 5


@pytest.mark.parametrize(
    "make,count",
    [
        pytest.param(lambda: queens(12), 14200, id="queens"),
        pytest.param(lambda: rooks(8, 2), 187530840, id="rooks"),
    ],
)
def test_ctrl_c_stops_a_memoized_count_with_its_partial_count(
    monkeypatch, make, count
):
    calls = []
    record = memo_engine.MemoRun.record

    def interrupt_on_the_third_slice(run, stats):
        record(run, stats)
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt

    monkeypatch.setattr(
        memo_engine.MemoRun, "record", interrupt_on_the_third_slice
    )
    p = make()
    with pytest.raises(Interrupted) as stop:
        p.count(memo=True)
    assert 0 <= stop.value.count < count
    assert stop.value.count == stop.value.stats.solutions
    assert not stop.value.stats.complete and stop.value.stats.nodes > 0
    assert isinstance(stop.value.stats, MemoStats)


@pytest.mark.parametrize(
    "make,count",
    [
        pytest.param(lambda: dominoes(6, 6), 6728, id="dominoes"),
        pytest.param(lambda: rooks(5, 2), 2040, id="rooks"),
    ],
)
def test_partial_counts_only_grow(make, count):
    # The partial count after each slice is a lower bound that rises to
    # the count: the finished subtrees' counts are never taken back.
    seen = []
    p = make()
    for budget in (5, 20, 60, 120, 200, 400, 800):
        try:
            seen.append(
                memo_count.count(
                    p, max_nodes=budget, choose="mrv", memo_bytes=0
                )
            )
        except BudgetExhausted as stop:
            seen.append(stop.count)
    assert seen == sorted(seen) and seen[-1] <= count
    assert memo_count.count(p, choose="mrv", memo_bytes=0) == count


def test_colors_and_bounds_are_counted_other_algorithms_refused():
    colored = ExactCover(["A", "B"], ["X"])
    colored.add_option(["A", "X"], colors={"X": 0})
    colored.add_option(["B", "X"], colors={"X": 0})
    assert colored.count(memo=True) == 1  # colors are counted (test_zdd)
    bounded = ExactCover(["A", "B"], bounds={"A": (1, 2)})
    bounded.add_options([["A"], ["A", "B"]])
    assert bounded.count(memo=True) == bounded.count() == 2
    assert bounded.count(memo="auto") == 2
    with pytest.raises(ValueError, match="combined with algorithm"):
        toy().count(memo=True, algorithm="cells")


def test_huge_upper_bounds():
    for v in (10**9, 10**12):
        p = ExactCover(["a", "b"], bounds={"a": (0, v)})
        p.add_options([["a"], ["a", "b"], ["b"]])
        assert p.count(memo=True) == 4  # b once; a any number of times
        assert sorted(p.zdd()) == [[0, 1], [0, 2], [1], [2]]
    p = ExactCover(["a", "b"], bounds={"a": (5, 10**9)})
    p.add_options([["a"], ["a", "b"], ["b"]])
    assert p.count(memo=True) == 0
    # Bounds past the number of options: u out of reach, given or not.
    for u in (2, 3):
        q = ExactCover(["a", "b"], bounds={"a": (u, u)})
        q.add_option(["a", "b"])
        assert q.count(memo=True) == q.count(memo=True, given=[0]) == 0
        assert q.zdd().count() == q.zdd(given=[0]).count() == 0


def test_givens_that_clash_or_finish():
    p = toy()
    assert p.count(memo=True, given=[0, 2]) == 0
    assert p.count(memo=True, given=[0, 3, 4]) == 1
    assert p.count(memo=True, given=[3]) == 1


# -- bad input ------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs,message",
    [
        (dict(memo="yes"), "memo must be True, False or 'auto'"),
        (dict(memo=True, limit=3), "cannot be combined with limit"),
        (dict(memo=True, threads=2), "cannot be combined with threads"),
        (dict(memo=True, mrv_cutoff=1), "cannot be combined with mrv_cutoff"),
        (dict(memo=True, choose="fewest"), "choose must be one of"),
        (dict(memo_bytes=1000), "memo_bytes needs memo"),
        (dict(choose="first"), "choose needs memo"),
        (dict(memo=True, memo_bytes=-1), "memo_bytes must be"),
        (dict(memo=True, max_nodes=-1), "max_nodes must be"),
        (dict(memo=True, time_limit=-1), "time_limit must be"),
        (dict(memo=True, given=[9]), "given option 9 does not exist"),
    ],
)
def test_bad_memo_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        toy().count(**kwargs)


def test_no_primary_items():
    p = ExactCover([], ["x"])
    p.add_option(["x"])
    assert p.count(memo=True) == 1
    assert ExactCover().count(memo=True) == 1
    q = ExactCover(["a", "b"])
    q.add_option(["a"])
    assert q.count(memo=True) == 0


def test_hash_spreads_keys_over_buckets():
    keys = np.arange(1 << 12, dtype=np.int64).reshape(-1, 1) * 2
    buckets = {int(M.key_hash(k, 0, 1) & np.uint64(255)) for k in keys}
    assert len(buckets) == 256


def test_a_probe_that_pays_lets_the_count_run_on(monkeypatch):
    # MRV with memo="auto": past the probe's nodes the memo has paid, and
    # the count goes on to the end with it
    monkeypatch.setattr(memo_engine, "PROBE_NODES", 300)
    p = dominoes(6, 8)
    assert memo_count.count(p, auto=True, choose="mrv") == 167089
    assert isinstance(p.stats, MemoStats) and p.stats.nodes > 300
    assert p.stats.complete


@pytest.mark.parametrize("choose", ["bogus", 5, None])
@pytest.mark.parametrize("memo", [True, "auto"])
def test_count_checks_the_memo_choice_rule(choose, memo):
    # The boundary (dlx.options.check, from ExactCover.count) refuses it;
    # dlx.services.memo and dlx.services.parts trust what it hands over.
    with pytest.raises((TypeError, ValueError), match="choose must be one of"):
        queens(5).count(memo=memo, choose=choose)


def test_a_stopped_count_without_hits_is_dlx1s_partial_count():
    # With no memo hit (queens rarely repeat a subproblem) the memoized
    # search walks DLX1's tree node for node: stopped at any budget, both
    # have met the same solutions.
    p = queens(8)
    for budget in range(7, 1000, 41):
        with pytest.raises(BudgetExhausted) as memo_stop:
            memo_count.count(p, max_nodes=budget, choose="mrv", memo_bytes=0)
        assert memo_stop.value.stats.memo_hits == 0
        with pytest.raises(BudgetExhausted) as plain_stop:
            p.count(max_nodes=budget, algorithm="links")
        assert memo_stop.value.count == plain_stop.value.count, budget
