"""The ZDD of all solutions (ExactCover.zdd, dlx.ZDD) against the
reference, the plain search and Knuth's DLX6."""

import io
import math
import os

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import dlx
from dlx import ZDD, BudgetExhausted, ExactCover, Interrupted
from dlx.engines import memo as memo_engine
from dlx.problems.rooks import rooks
from dlx.services import memo as memo_count, zdd as Z

from reference import exact_covers, generalized_covers
from test_engine import small_problems, toy
from test_memo import KINDS, kinded_problems

HERE = os.path.dirname(__file__)
DLX6 = os.path.join(HERE, "data", "dlx6")

# The search's variants (see test_memo.VARIANTS): both choice rules, a
# table of one bucket that forgets all the time, limbs of three bits
# (counts overflow and the search restarts), entries kept only when dear.
VARIANTS = [
    dict(choose="mrv"),
    dict(choose="first"),
    dict(choose="mrv", memo_bytes=0),
    dict(choose="first", memo_bytes=0),
    dict(choose="mrv", limb_bits=3),
    dict(choose="first", limb_bits=3, memo_bytes=0),
    dict(choose="mrv", min_cost=3),
]


def build_zdd(problem, given=(), **kwargs):
    """Z.build, as ExactCover.zdd calls it (with the test-only knobs)."""
    return Z.build(problem, given, **kwargs)


def check_diagram(z: ZDD):
    """Reduced (no hi edge to 0, no two nodes alike), children numbered
    before parents, the root last."""
    var, lo, hi = z.var[2:], z.lo[2:], z.hi[2:]
    ids = np.arange(2, len(z.var))
    assert (hi != 0).all()
    assert (lo < ids).all() and (hi < ids).all()
    assert len(set(zip(var.tolist(), lo.tolist(), hi.tolist()))) == len(z)
    assert z.root == (len(z.var) - 1 if len(z) else z.root)


def check_against(z: ZDD, expected, problem):
    """Everything a ZDD answers, against the list of solutions."""
    check_diagram(z)
    noptions = len(problem)
    found = list(z)
    assert sorted(tuple(s) for s in found) == sorted(expected)
    assert len(found) == len(set(map(tuple, found)))
    assert z.count() == len(expected)
    sizes = [0] * (max(map(len, expected), default=-1) + 1)
    for s in expected:
        sizes[len(s)] += 1
    assert z.counts_by_size() == sizes
    uses = [0] * noptions
    for s in expected:
        for k in s:
            uses[k] += 1
    assert z.option_counts(noptions) == uses
    out = io.StringIO()
    if any(
        not problem.options[k]
        or all(i in problem.secondary for i in problem.options[k])
        for k in z.var[2:]
    ):
        # A given option with no primary item: DLX6 numbers it not.
        with pytest.raises(ValueError, match="no primary item"):
            z.write(out)
    else:
        z.write(out)
        assert ZDD.read(io.StringIO(out.getvalue()), problem) == z
    weights = [(7 * k) % 5 - 2 for k in range(noptions)]
    by_weight = sorted(sum(weights[k] for k in s) for s in expected)
    assert [w for w, _ in z.best(3, weights)] == by_weight[:3]
    assert [w for w, _ in z.worst(3, weights)] == by_weight[::-1][:3]
    for w, s in z.best(len(expected) + 1, weights):
        assert tuple(s) in expected and w == sum(weights[k] for k in s)
    if expected:
        for s in z.sample(5, seed=1):
            assert tuple(s) in expected


# -- against the reference ----------------------------------------------------


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(small_problems(), st.sampled_from(VARIANTS), st.data())
def test_zdd_matches_reference(case, variant, data):
    nitems, nprimary, options = case
    p = ExactCover(range(nprimary), range(nprimary, nitems))
    p.add_options(options)
    forced = (
        data.draw(
            st.lists(
                st.integers(0, max(0, len(options) - 1)),
                max_size=2,
                unique=True,
            )
        )
        if options
        else []
    )
    expected = exact_covers(options, nprimary, nitems, forced)
    z = build_zdd(p, forced, **variant)
    check_against(z, expected, p)
    assert p.stats.complete and p.stats.zdd_nodes == len(z)
    assert z.count() == p.count(given=forced)


@pytest.mark.parametrize("kind", KINDS)
@settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(st.sampled_from(VARIANTS), st.data())
def test_zdd_of_every_kind_matches_reference(kind, variant, data):
    # Colors and bounds (and both): the same search as the memoized count.
    p, forced, expected = data.draw(kinded_problems(kind))
    z = build_zdd(p, forced, **variant)
    check_against(z, expected, p)
    assert z.count() == p.count(given=forced)
    assert memo_count.count(p, forced, **variant) == len(expected)
    assert sorted(map(tuple, p.solutions(given=forced))) == expected


def test_colors_share_subproblems():
    # Knuth's DLX2 example, and a chain of colored items where the memo
    # must tell the colors apart: X purified to 0 or 1 leaves the same
    # active items.
    p = ExactCover("ABC", "XY")
    p.add_option("ABXY", colors={"X": 0, "Y": 0})
    p.add_option("ACXY", colors={"X": 1, "Y": 1})
    p.add_option("CX", colors={"X": 0})
    p.add_option("BX", colors={"X": 1})
    p.add_option("CY", colors={"Y": 1})
    assert sorted(p.zdd()) == [[0, 2], [1, 3]]
    q = ExactCover(["A", "B", "C", "D"], ["X"])
    q.add_option(["A", "X"], colors={"X": "red"})
    q.add_option(["A", "X"], colors={"X": "blue"})
    q.add_option(["B"])
    q.add_option(["B", "C"])
    q.add_option(["C", "D", "X"], colors={"X": "red"})
    q.add_option(["C"])
    q.add_option(["D", "X"], colors={"X": "blue"})
    expected = generalized_covers(
        [[0, 4], [0, 4], [1], [1, 2], [2, 3, 4], [2], [3, 4]],
        4,
        5,
        [{4: "r"}, {4: "b"}, {}, {}, {4: "r"}, {}, {4: "b"}],
    )
    for choose in ("mrv", "first"):
        assert sorted(map(tuple, q.zdd(choose=choose))) == expected
        assert q.count(memo=True, choose=choose) == len(expected) == 3
    # {C, D} with X free, then {C, D} with X red: one key but for the
    # color, so the color must be the state's when an entry is stored
    # (not that of the last node searched below it; a table of one
    # bucket finds such an entry even when its hash is right).
    r = ExactCover("ABCD", "X")
    r.add_option("AB")
    r.add_option("ABX", colors={"X": "r"})
    r.add_option("CX", colors={"X": "b"})
    r.add_option("CX", colors={"X": "r"})
    r.add_option("DX", colors={"X": "r"})
    r.add_option("D")
    for choose in ("mrv", "first"):
        assert sorted(r.zdd(choose=choose, memo_bytes=0)) == [
            [0, 2, 5],
            [0, 3, 4],
            [0, 3, 5],
            [1, 3, 4],
            [1, 3, 5],
        ]
        assert r.count(memo=True, choose=choose, memo_bytes=0) == 5


def test_bounds_rooks_and_their_samples():
    # 2 rooks in every row and column of 5 x 5 (OEIS A001499): the ZDD's
    # solutions, samples and cheapest are the plain search's.
    p = rooks(5, 2)
    z = p.zdd()
    assert z.count() == 2040 == p.count()
    solutions = sorted(map(tuple, p.solutions()))
    assert sorted(map(tuple, z)) == solutions
    assert all(tuple(s) in set(solutions) for s in z.sample(20, seed=3))
    weights = [k % 7 for k in range(len(p))]
    cheapest = min(sum(weights[k] for k in s) for s in solutions)
    assert z.best(1, weights)[0][0] == cheapest


def test_the_kernel_logic_runs_unjitted():
    from dlx.kernels import memo as M

    original = M.count
    try:
        M.count = original.py_func
        z = build_zdd(
            dlx.problems.tiling.tiling("4x4"), choose="first", limb_bits=3
        )
        assert z.count() == 36
    finally:
        M.count = original
    original = M.count3
    try:
        M.count3 = original.py_func
        z = build_zdd(rooks(4, 2), choose="first", limb_bits=3)
        assert z.count() == 90
        assert build_zdd(rooks(3, 2), memo_bytes=0).count() == 6
    finally:
        M.count3 = original


# -- givens, edges, budgets ---------------------------------------------------


def test_givens_that_clash_or_finish():
    p = toy()
    assert p.zdd(given=[0, 2]).count() == 0
    z = p.zdd(given=[0, 3, 4])
    assert list(z) == [[0, 3, 4]] and len(z) == 3
    assert list(p.zdd(given=[3])) == list(p.solutions(given=[3]))


def test_no_solution_and_no_primary_item():
    p = ExactCover("AB")
    p.add_option("A")
    z = p.zdd()
    assert z.count() == 0 and len(z) == 0 and list(z) == []
    assert z.counts_by_size() == [] and z.best(2, [1]) == []
    with pytest.raises(ValueError, match="no solution to sample"):
        z.sample(1)
    out = io.StringIO()
    z.write(out)
    assert out.getvalue() == "2: (~0?0:0)\n"
    empty = ExactCover([], ["X"])
    empty.add_option(["X"])
    z = empty.zdd()
    assert list(z) == [[]] and z.count() == 1 and z.counts_by_size() == [1]


def test_node_and_time_budgets_never_return_a_partial_diagram():
    p = dlx.problems.tiling.tiling("8x8")
    with pytest.raises(BudgetExhausted) as stop:
        p.zdd(max_nodes=100)
    assert not stop.value.stats.complete
    assert stop.value.count < 12_988_816
    with pytest.raises(BudgetExhausted):
        p.zdd(time_limit=0)
    with pytest.raises(BudgetExhausted, match="outgrew zdd_bytes"):
        p.zdd(zdd_bytes=1000)
    assert p.zdd(zdd_bytes=200_000).count() == 12_988_816


def test_ctrl_c_stops_the_build(monkeypatch):
    p = dlx.problems.tiling.tiling("10x10")
    calls = []
    record = memo_engine.MemoRun.record

    def interrupt(run, stats):
        calls.append(1)
        record(run, stats)
        if len(calls) == 2:
            raise KeyboardInterrupt

    monkeypatch.setattr(memo_engine.MemoRun, "record", interrupt)
    with pytest.raises(Interrupted) as stop:
        p.zdd(choose="mrv", memo_bytes=0)
    assert not stop.value.stats.complete


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        (dict(choose="best"), ValueError, "choose must be"),
        (dict(memo_bytes=-1), ValueError, "memo_bytes"),
        (dict(zdd_bytes=1.5), TypeError, "zdd_bytes"),
        (dict(max_nodes=-1), ValueError, "max_nodes"),
        (dict(given=[99]), ValueError, "does not exist"),
    ],
)
def test_bad_arguments(kwargs, error, message):
    with pytest.raises(error, match=message):
        toy().zdd(**kwargs)


# -- the diagram's own questions ----------------------------------------------


def test_counts_past_two_to_the_64():
    # Domino tilings of 2 x n are Fibonacci numbers.
    p = dlx.problems.tiling.tiling("2x100")
    z = p.zdd()
    fib = [0, 1]
    while len(fib) < 102:
        fib.append(fib[-1] + fib[-2])
    assert z.count() == fib[101] > 2**64
    assert z.counts_by_size() == [0] * 100 + [fib[101]]
    assert sum(z.option_counts()) == 100 * fib[101]
    s = z.sample(3, seed=0)
    assert all(len(x) == 100 for x in s)
    assert all(
        dlx.problems.tiling.tiling("2x100").count(given=x) == 1 for x in s
    )


def chi2_sf(x, df):
    """P(X >= x) for X chi-square with ``df`` degrees of freedom: the
    regularized upper incomplete gamma function Q(df/2, x/2), by its
    series below a + 1 and its continued fraction above (Lentz), so that
    tiny tails keep their relative precision."""
    a, h = df / 2, x / 2
    if h <= 0:
        return 1.0
    front = math.exp(a * math.log(h) - h - math.lgamma(a))
    if h < a + 1:
        term = total = 1 / a
        n = 0
        while abs(term) > 1e-17 * abs(total):
            n += 1
            term *= h / (a + n)
            total += term
        return max(0.0, 1.0 - front * total)
    tiny = 1e-300
    b = h + 1 - a
    c = 1 / tiny
    d = 1 / b
    f = d
    for n in range(1, 10_000):
        an = -n * (n - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        f *= d * c
        if abs(d * c - 1) < 1e-16:
            break
    return front * f


def chi2_p_value(draws, solutions):
    """The p-value of draws (lists of options) being uniform over
    ``solutions``."""
    seen = dict.fromkeys(map(tuple, solutions), 0)
    for s in draws:
        seen[tuple(s)] += 1  # a draw that is no solution is a KeyError
    mean = len(draws) / len(seen)
    stat = sum((k - mean) ** 2 / mean for k in seen.values())
    return chi2_sf(stat, len(seen) - 1)


def test_chi2_sf_agrees_with_known_quantiles():
    # Tables' 0.05 upper quantiles, and the closed forms for 2 and 4
    # degrees of freedom: exp(-x/2) and exp(-x/2) (1 + x/2).
    assert chi2_sf(3.841459, 1) == pytest.approx(0.05, rel=1e-5)
    assert chi2_sf(55.758479, 40) == pytest.approx(0.05, rel=1e-5)
    for x in (0.5, 10.0, 2 * math.log(1e6), 60.0):
        assert chi2_sf(x, 2) == pytest.approx(
            math.exp(-x / 2), rel=1e-6, abs=1e-15
        )
        assert chi2_sf(x, 4) == pytest.approx(
            math.exp(-x / 2) * (1 + x / 2), rel=1e-6, abs=1e-15
        )


def coin_flip_sample(z, n, seed):
    """A wrong sampler: a fair coin at every node with two ways on."""
    import random

    rng = random.Random(seed)
    out = []
    for _ in range(n):
        v, chosen = z.root, []
        while v > 1:
            if z.lo[v] != 0 and rng.random() < 0.5:
                v = int(z.lo[v])
            else:
                chosen.append(int(z.var[v]))
                v = int(z.hi[v])
        out.append(sorted(chosen))
    return out


SAMPLED = [
    ("tiling", "4x4"),
    ("tiling", "3x6"),
    ("queens", 6),
    ("langford", 7),
]


@pytest.mark.parametrize("kind, size", SAMPLED)
def test_sampling_is_uniform(kind, size):
    """A chi-square test of 50 draws per solution on problems with a few
    dozen solutions (36, 41, 4 and 26).  The seed is fixed, so the test is
    deterministic; it asks for a p-value above 1e-6, so that a correct
    sampler would fail it for one seed in a million (choosing another
    seed cannot hide a real bias: a sampler that flips a fair coin at each
    node gets p-values below 1e-20 here, checked below)."""
    if kind == "tiling":
        p = dlx.problems.tiling.tiling(size)
    elif kind == "queens":
        p = dlx.problems.queens.queens(size)
    else:
        p = dlx.problems.langford.langford(size)
    z = p.zdd()
    solutions = list(z)
    n = z.count()
    assert 4 <= n == len(solutions) <= 100
    draws = z.sample(50 * n, seed=2024)
    assert {tuple(s) for s in draws} == {tuple(s) for s in solutions}
    assert chi2_p_value(draws, solutions) > 1e-6
    if kind == "tiling":
        biased = coin_flip_sample(z, 50 * n, seed=2024)
        assert chi2_p_value(biased, solutions) < 1e-20


def test_sample_is_reproducible_and_checks_n():
    z = toy().zdd()
    assert z.sample(4, seed=7) == z.sample(4, seed=7)
    assert z.sample(0) == []
    with pytest.raises(ValueError, match="non-negative"):
        z.sample(-1)


def test_best_and_worst_by_weights():
    p = dlx.problems.tiling.tiling("4x4")
    z = p.zdd()
    # Weight 1 per horizontal domino: the fewest horizontal ones first.
    horizontal = [int(o[0][0] == o[1][0]) for o in p.options]
    best = z.best(2, horizontal)
    # One tiling has no horizontal domino; none has exactly one.
    assert [w for w, _ in best] == [0, 2]
    assert all(not horizontal[k] for k in best[0][1])
    all_w = sorted(sum(horizontal[k] for k in s) for s in z)
    assert [w for w, _ in z.best(36, horizontal)] == all_w
    assert [w for w, _ in z.worst(5, horizontal)] == all_w[::-1][:5]
    assert z.best(3, dict.fromkeys(range(len(p)), 0.5))[0][0] == 4.0
    with pytest.raises(ValueError, match="weights has 2 entries for 24"):
        z.best(1, [1, 2])
    with pytest.raises(ValueError, match="no weight for option"):
        ZDD(z.var, z.lo, z.hi, z.root).best(1, [1, 2])  # options unknown
    with pytest.raises(ValueError, match="not a number"):
        z.best(1, ["x"] * len(p))
    # By default, the options' costs: none were given, so all are 0.
    assert [w for w, _ in z.best(2)] == [0, 0]
    saved = io.StringIO()
    z.write(saved)
    saved.seek(0)
    with pytest.raises(ValueError, match="no costs"):
        ZDD.read(saved).best(1)  # read without its problem: no costs


def test_option_counts_find_forced_and_unused_options():
    p = ExactCover("ABC")
    p.add_options(["A", "B", "C", "AB", "ABC"])
    z = p.zdd()
    assert z.option_counts(5) == [1, 1, 2, 1, 1]
    with pytest.raises(ValueError, match="noptions=2"):
        z.option_counts(2)


# -- files --------------------------------------------------------------------


def test_write_and_read_round_trip(tmp_path):
    p = dlx.problems.tiling.tiling("6x6")
    z = p.zdd()
    path = tmp_path / "six.zdd"
    z.write(path)
    back = ZDD.read(path)
    assert back == z and back.count() == 6728
    assert ZDD.read(path, p) == z


def test_numbering_skips_options_without_a_primary_item(tmp_path):
    p = ExactCover("AB", "X")
    p.add_options([["X"], ["A"], ["B", "X"], ["A", "B"]])
    z = p.zdd()
    assert sorted(z) == [[1, 2], [3]]
    out = io.StringIO()
    z.write(out)
    # DLX6 numbers the options 1, 2, 3 (option 0 has no primary item).
    assert "(~1?" in out.getvalue() and "(~4?" not in out.getvalue()
    assert sorted(ZDD.read(io.StringIO(out.getvalue()), p)) == sorted(z)
    assert sorted(ZDD.read(io.StringIO(out.getvalue()))) == [[0, 1], [2]]


def test_read_reduces_and_checks():
    # Duplicates, a node with hi 0 and a node the root does not reach.
    text = (
        "2: (~1?0:1)\n3: (~1?0:1)\n4: (~2?2:3)\n5: (~3?4:0)\n"
        "6: (~4?0:1)\n7: (~0?0:5)\n"
    )
    z = ZDD.read(io.StringIO(text))
    assert sorted(z) == [[0], [0, 1]] and len(z) == 2
    for bad, message in [
        ("2: (~1?0:3)\n", "which no line above"),
        ("2: (~1?0:1)\n", "no root line"),
        ("2 (~1?0:1)\n", "not a ZDD node line"),
        ("2: (~1?0:1)\n2: (~1?0:1)\n", "defined twice"),
        ("2: (~0?0:1)\n3: (~1?0:1)\n", "after the root"),
        ("2: (~0?1:1)\n", "dummy root"),
        # An option twice on a path: a "solution" [0, 0] (on the hi
        # side), or an option both left out and taken (lo, then hi).
        (
            "2: (~1?0:1)\n3: (~1?0:2)\n4: (~0?0:3)\n",
            r"ZDD text:2: option 1 appears again below node 3: no path",
        ),
        (
            "2: (~1?0:1)\n3: (~2?2:1)\n4: (~1?3:1)\n5: (~0?0:4)\n",
            r"ZDD text:3: option 1 appears again below node 4",
        ),
        (
            "2: (~2?0:1)\n3: (~1?0:2)\n4: (~3?3:2)\n5: (~2?0:4)\n"
            "6: (~0?0:5)\n",
            r"ZDD text:4: option 2 appears again below node 5",
        ),
    ]:
        with pytest.raises(ValueError, match=message):
            ZDD.read(io.StringIO(bad))


def test_read_accepts_options_in_any_order_on_different_paths():
    # Option 1 above option 2 on one path, 2 above 1 on another (DLX6
    # writes such diagrams: each path in its search's order).
    text = (
        "2: (~2?0:1)\n3: (~1?0:2)\n4: (~1?0:1)\n5: (~2?0:4)\n"
        "6: (~3?3:5)\n7: (~0?0:6)\n"
    )
    z = ZDD.read(io.StringIO(text))
    assert sorted(z) == [[0, 1], [0, 1, 2]] and len(z) == 5


def test_read_names_a_file_that_is_not_text(tmp_path):
    path = tmp_path / "binary.zdd"
    path.write_bytes(b"\x92\x00\x01")
    with pytest.raises(ValueError) as error:
        ZDD.read(path)
    assert str(error.value) == (
        f"{path}: not a UTF-8 text file (byte 0x92 at position 0)"
    )


def test_weights_are_one_an_option():
    p = ExactCover("AB")
    p.add_options(["A", "B", "AB"])
    z = p.zdd()
    assert z.best(1, [1, 1, 5]) == [(2, [0, 1])]
    for weights, message in [
        ([1, 1, 5, 7], "weights has 4 entries for 3 options"),
        ([1, 1], "weights has 2 entries for 3 options"),
        ({0: 1, 1: 1, 2: 5, 3: 0}, "a weight for 3, which is not an option"),
        ({0: 1, 1: 1, 2: 5, "A": 0}, "a weight for 'A', which is not an"),
    ]:
        with pytest.raises(ValueError, match=message):
            z.best(1, weights)
        with pytest.raises(ValueError, match=message):
            z.worst(1, weights)
    # Read with its problem, the diagram knows the options too.
    saved = io.StringIO()
    z.write(saved)
    with pytest.raises(ValueError, match="4 entries for 3 options"):
        ZDD.read(io.StringIO(saved.getvalue()), p).best(1, [1, 1, 5, 7])


# -- Knuth's DLX6 -------------------------------------------------------------


def dlx6_figures():
    with open(os.path.join(DLX6, "figures.tsv")) as f:
        rows = [
            line.rstrip("\n").split("\t")
            for line in f
            if not line.startswith("#")
        ]
    head, rows = rows[0], rows[1:]
    rows = [dict(zip(head, row)) for row in rows if row]
    return [
        pytest.param(
            row,
            id=row["file"],
            marks=[pytest.mark.slow] if row["slow"] else [],
        )
        for row in rows
    ]


@pytest.mark.parametrize("row", dlx6_figures())
def test_dlx6_known_answers(row):
    p = dlx.load(os.path.join(DLX6, row["file"]), max_name_length=None)
    z = p.zdd(choose="mrv")
    exact = int(row["solutions"])
    assert z.count() == exact
    assert int(row["printed"]) == exact % 2**64  # DLX6's count wraps
    # DLX6 made zdd_lines nodes (its "ZDD nodes" figure adds the two
    # sinks); ours, reduced, never more, and exactly its diagram reduced.
    assert len(z) <= int(row["zdd_lines"])
    assert len(z) == int(row["reduced"])
    saved = row["file"].replace(".dlx", ".zdd")
    if os.path.exists(os.path.join(DLX6, saved)):
        theirs = ZDD.read(os.path.join(DLX6, saved), p)
        assert theirs.count() == exact
        assert theirs == z


# -- the command line ---------------------------------------------------------


def run_dlx(capsys, *argv):
    from dlx.cli import main

    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_cli_solve_writes_the_zdd_and_zdd_answers(capsys, tmp_path):
    board = os.path.join(DLX6, "dominoes-8x8.dlx")
    out_file = tmp_path / "eight.zdd"
    status, out, err = run_dlx(
        capsys, "solve", board, "--zdd", out_file, "--stats", "--choose", "mrv"
    )
    assert status == 0 and out.splitlines()[-1] == "12988816"
    assert "ZDD nodes" in err
    # With DLX6's rule, DLX6's very file.
    with open(os.path.join(DLX6, "dominoes-8x8.zdd")) as f:
        assert out_file.read_text() == f.read()
    status, out, _ = run_dlx(capsys, "zdd", out_file, "--count")
    assert status == 0 and out == "12988816\n"
    status, out, _ = run_dlx(
        capsys, "zdd", out_file, "--sample", 3, "--seed", 5
    )
    lines = out.splitlines()
    assert status == 0 and len(lines) == 3
    p = dlx.load(board)
    for line in lines:
        options = [int(k) - 1 for k in line.split()]
        assert p.count(given=options) == 1 and len(options) == 32
    weights = tmp_path / "w.txt"
    weights.write_text(" ".join(str(k % 3) for k in range(1, 113)))
    status, out, _ = run_dlx(
        capsys, "zdd", out_file, "--best", 2, "--weights", weights
    )
    z = ZDD.read(out_file)
    w = [k % 3 for k in range(1, 113)]
    assert status == 0
    assert [int(line.split(":")[0]) for line in out.splitlines()] == [
        t for t, _ in z.best(2, w)
    ]
    status, out, _ = run_dlx(
        capsys,
        "zdd",
        out_file,
        "--worst",
        1,
        "--weights",
        weights,
        "--problem",
        board,
    )
    assert (
        status == 0 and out.splitlines()[0] == f"weight {z.worst(1, w)[0][0]}"
    )
    assert len(out.splitlines()) == 1 + 32  # its header, its options


def test_cli_zdd_reads_dlx6_past_two_to_the_64(capsys):
    status, out, _ = run_dlx(
        capsys, "zdd", os.path.join(DLX6, "dominoes-2x100.zdd"), "--count"
    )
    assert status == 0 and int(out) == 573147844013817084101


def test_cli_no_solution(capsys, tmp_path):
    problem = tmp_path / "none.dlx"
    problem.write_text("A B\nA\n")
    out_file = tmp_path / "none.zdd"
    status, out, _ = run_dlx(capsys, "solve", problem, "--zdd", out_file)
    assert status == 1 and out == "0\n"
    assert out_file.read_text() == "2: (~0?0:0)\n"
    status, out, err = run_dlx(capsys, "zdd", out_file, "--sample", 1)
    assert status == 1 and "no solution" in err


@pytest.mark.parametrize(
    "argv, message",
    [
        (
            ["solve", "{board}", "--zdd", "{out}", "--all"],
            "cannot go with --all",
        ),
        (
            ["solve", "{board}", "--zdd", "{out}", "--memo-mb", "-1"],
            "non-negative",
        ),
        (["zdd", "{zdd}", "--best", "2"], "--weights goes with"),
        (["zdd", "{zdd}", "--count", "--seed", "2"], "--seed goes with"),
        (["zdd", "{zdd}", "--sample", "-2"], "must not be negative"),
        (["zdd", "{missing}", "--count"], "cannot read"),
        (["zdd", "{zdd}"], "one of the arguments"),
    ],
)
def test_cli_usage_errors(capsys, tmp_path, argv, message):
    names = dict(
        board=os.path.join(DLX6, "dominoes-4x4.dlx"),
        out=tmp_path / "o.zdd",
        missing=tmp_path / "missing",
        zdd=os.path.join(DLX6, "dominoes-4x4.zdd"),
    )
    status, out, err = run_dlx(capsys, *[a.format(**names) for a in argv])
    assert status == 2 and message in err


def test_cli_bad_files(capsys, tmp_path):
    bad = tmp_path / "bad.zdd"
    bad.write_text("2: (~1?0:9)\n")
    status, _, err = run_dlx(capsys, "zdd", bad, "--count")
    assert status == 1 and "which no line above defines" in err
    weights = tmp_path / "w.txt"
    weights.write_text("1 two 3")
    status, _, err = run_dlx(
        capsys,
        "zdd",
        os.path.join(DLX6, "dominoes-4x4.zdd"),
        "--best",
        1,
        "--weights",
        weights,
    )
    assert status == 1 and "weight 2 is 'two'" in err


def test_cli_interrupted_build_writes_nothing(capsys, tmp_path, monkeypatch):
    def interrupt(self, **kwargs):
        raise Interrupted(7, dlx.Stats(complete=False))

    monkeypatch.setattr(ExactCover, "zdd", interrupt)
    out_file = tmp_path / "o.zdd"
    status, out, err = run_dlx(
        capsys,
        "solve",
        os.path.join(DLX6, "dominoes-4x4.dlx"),
        "--zdd",
        out_file,
    )
    assert status == 130 and out == "7 (partial: interrupted)\n"
    assert "was not written" in err and not out_file.exists()


def test_export_to_graphillion():
    graphillion = pytest.importorskip("graphillion")
    p = dlx.problems.tiling.tiling("6x6")
    z = p.zdd()
    graphillion.setset.set_universe(list(range(len(p))))
    family = z.to_graphillion()
    assert family.len() == z.count() == 6728
    assert {frozenset(s) for s in family} == {frozenset(s) for s in z}
    weights = {k: (3 * k) % 11 for k in range(len(p))}
    best = next(family.min_iter(weights))
    assert sum(weights[k] for k in best) == z.best(1, weights)[0][0]
    graphillion.setset.set_universe([0, 1])
    with pytest.raises(ValueError, match="universe lacks options"):
        z.to_graphillion()


def test_docs_page_runs():
    """docs/zdd.md's examples, as doctests."""
    import doctest

    page = os.path.join(HERE, "..", "docs", "zdd.md")
    result = doctest.testfile(
        page, module_relative=False, optionflags=doctest.ELLIPSIS
    )
    assert result.attempted >= 20 and result.failed == 0
