"""Every entry point that counts or lists solutions reaches the same solver
for the problem's kind, and the brute-force reference agrees with it.

Random small problems of every kind (secondary items, colors, bounds
``u:v`` with zero lower bounds, given options) are asked the same question
through each entry point: the Python API with each ``algorithm``, on
threads, in jobs (in this process and on processes), resumed from a
checkpoint cut at a random job, memoized where the engine has a memo key,
the ``dlx`` command and the web API in both of its modes.  A new entry
point is one more line in ``COUNTS`` or ``LISTINGS``.

The same problems with costs ask for the ``k`` cheapest solutions
(``BESTS``): serial, on threads, in jobs here and on processes, the
``dlx solve --best`` command and the web API's mode best, against the
brute force's sorted costs (``costed_covers``).
"""

import collections
import contextlib
import io
import os
import tempfile

import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from dlx import ExactCover, Unsupported, dumps, jobs
from dlx.cli import main as dlx_main
from dlx.engines import ENGINES, engine_for
from dlx.engines.memo import Memo

from conftest import FAMILIES, family_serves
from reference import costed_covers, generalized_covers


@st.composite
def problems(draw):
    """``(problem, options, colors, bounds, given)``: a small problem of any
    kind, with a few given options."""
    nitems = draw(st.integers(1, 6))
    nsecondary = draw(st.integers(0, min(3, nitems)))
    nprimary = nitems - nsecondary
    options, colors = [], []
    for _ in range(draw(st.integers(0, 8))):
        items = sorted(
            draw(
                st.sets(
                    st.integers(0, nitems - 1), min_size=1, max_size=nitems
                )
            )
        )
        options.append(items)
        colors.append(
            {
                i: draw(st.sampled_from("rg"))
                for i in items
                if i >= nprimary and draw(st.booleans())
            }
        )
    bounds = {}
    if draw(st.booleans()):
        for i in range(nprimary):
            if draw(st.booleans()):
                u = draw(st.integers(0, 2))
                bounds[i] = (u, draw(st.integers(max(u, 1), 3)))
    p = ExactCover(range(nprimary), range(nprimary, nitems), bounds=bounds)
    for items, cols in zip(options, colors):
        p.add_option(items, colors=cols)
    forced = (
        draw(
            st.lists(st.integers(0, len(options) - 1), max_size=2, unique=True)
        )
        if options
        else []
    )
    return p, options, colors, bounds, forced


def expected(case):
    p, options, colors, bounds, forced = case
    return generalized_covers(
        options, len(p.primary), len(p.items), colors, bounds, forced
    )


@contextlib.contextmanager
def always_split():
    """Counts and best on threads and processes split even the smallest
    tree."""
    from dlx.services import runner

    old = runner.SERIAL_PROBE_NODES
    runner.SERIAL_PROBE_NODES = 0
    try:
        yield
    finally:
        runner.SERIAL_PROBE_NODES = old


def resumed(p, given, algorithm):
    """A count with a checkpoint, cut after its second job, then resumed."""
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "c.ckpt")
        whole = p.count(
            given=given, checkpoint=path, split_into=6, algorithm=algorithm
        )
        lines = open(path).read().splitlines(keepends=True)
        with open(path, "w") as f:
            f.writelines(lines[:3])
        again = p.count(
            given=given, checkpoint=path, split_into=6, algorithm=algorithm
        )
        assert again == whole
        return again


def split_sums(p, given, algorithm):
    plan = jobs.split(p, split_into=5, given=given, algorithm=algorithm)
    return plan.solutions + sum(
        plan.run(p, job).solutions for job in plan.jobs
    )


def memoized(p, given, algorithm):
    """A memoized count where the engine has a memo key for the kind; the
    one sentence of refusal elsewhere (and then the plain count)."""
    if p.kind not in Memo.kinds:
        with pytest.raises(
            Unsupported,
            match="memoized counting is not available for a problem with",
        ):
            p.count(given=given, memo=True)
        return p.count(given=given)
    return p.count(given=given, memo=True)


def cli_count(p, given, algorithm):
    """``dlx solve FILE --count`` on the problem as Knuth's format writes
    it (the givens cannot be written: they are left to the others), in
    this process (``--jobs 1`` where the engine splits its tree; one that
    does not counts here without it)."""
    out, err = io.StringIO(), io.StringIO()
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "p.dlx")
        with open(path, "w") as f:
            f.write(dumps(p, max_name_length=None, max_color_length=None))
        here = ["--jobs", "1"] if splits(algorithm, p) else []
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = dlx_main(
                ["solve", path, "--count", *here, "--algorithm", algorithm]
            )
    if not serves(algorithm, p, "search"):
        # A refusal is a usage error, from every flag alike.
        assert status == 2 and "is not available for" in err.getvalue()
        return None
    count = int(out.getvalue().split()[-1])
    assert status == (0 if count else 1)
    return count


def web(client, p, mode, limit):
    r = client.post(
        "/api/exact-cover",
        json={
            "problem": dumps(p, max_name_length=None, max_color_length=None),
            "mode": mode,
            "limit": limit,
        },
    )
    assert r.status_code == 200, r.text
    return r.json()


def serves(algorithm, p, purpose):
    """Does ``algorithm`` serve ``p`` for ``purpose`` (None: the entry
    point picks its own engine)?"""
    return (
        purpose is None
        or algorithm == "auto"
        or family_serves(algorithm, p, purpose)
    )


def splits(algorithm, p):
    return serves(algorithm, p, "split")


# Each entry point: (name, purpose, count(problem, given, algorithm)), the
# purpose as ``registry.family`` names it: where the family has no engine
# for it, the entry point refuses in the one sentence.
COUNTS = [
    ("count", "search", lambda p, g, a: p.count(given=g, algorithm=a)),
    (
        "count-threads",
        "split",
        lambda p, g, a: p.count(given=g, threads=2, algorithm=a),
    ),
    (
        "count-jobs-here",
        "split",
        lambda p, g, a: p.count(given=g, jobs=1, split_into=5, algorithm=a),
    ),
    ("split-jobs", "split", split_sums),
    ("count-memo", None, memoized),
    (
        "solutions",
        "search",
        lambda p, g, a: len(list(p.solutions(given=g, algorithm=a))),
    ),
]
# ... and those that start processes or write files for each example.
SLOW_COUNTS = [
    (
        "count-jobs-processes",
        "split",
        lambda p, g, a: p.count(given=g, jobs=2, split_into=5, algorithm=a),
    ),
    ("count-resumed", "split", resumed),
]


def check_count(count, purpose, algorithm, case):
    p, *_, forced = case
    with always_split():
        if serves(algorithm, p, purpose):
            assert count(p, forced, algorithm) == len(expected(case))
        else:
            with pytest.raises(Unsupported, match="is not available for"):
                count(p, forced, algorithm)


@pytest.mark.parametrize("algorithm", FAMILIES)
@pytest.mark.parametrize(
    "name, purpose, count", COUNTS, ids=[n for n, *_ in COUNTS]
)
@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(problems())
def test_every_count_is_the_reference(name, purpose, count, algorithm, case):
    check_count(count, purpose, algorithm, case)


@pytest.mark.parametrize("algorithm", FAMILIES)
@pytest.mark.parametrize(
    "name, purpose, count", SLOW_COUNTS, ids=[n for n, *_ in SLOW_COUNTS]
)
@settings(
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(problems())
def test_every_slow_count_is_the_reference(
    name, purpose, count, algorithm, case
):
    check_count(count, purpose, algorithm, case)


@pytest.mark.parametrize("algorithm", [*FAMILIES, "auto"])
@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(problems())
def test_the_dlx_command_counts_as_the_reference(algorithm, case):
    p, options, colors, bounds, _ = case
    assume(p.primary)  # Knuth's format needs a primary item
    count = cli_count(p, [], algorithm)
    assert count is None or count == len(
        generalized_covers(
            options, len(p.primary), len(p.items), colors, bounds
        )
    )


@pytest.fixture(scope="module")
def client():
    from starlette.testclient import TestClient

    from sudoku.web.app import create_app
    from sudoku.web.service import Settings

    with TestClient(create_app(Settings(workers=2), warm_up=False)) as c:
        yield c


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.function_scoped_fixture,
    ],
)
@given(problems())
def test_the_web_api_answers_as_the_reference(client, case):
    p, options, colors, bounds, _ = case
    assume(p.primary)  # Knuth's format needs a primary item
    truth = generalized_covers(
        options, len(p.primary), len(p.items), colors, bounds
    )
    assert web(client, p, "count", None)["count"] == len(truth)
    listed = web(client, p, "solutions", 100)
    assert listed["count"] == len(truth)
    found = sorted(tuple(s["options"]) for s in listed["solutions"])
    assert found == truth
    for solution in listed["solutions"]:
        # The option lines as the problem's file writes them, colors too.
        assert solution["text"].splitlines() == [
            p.option_line(k) for k in solution["options"]
        ]


def test_knuths_examples_through_the_web_api(client):
    # dlx2.w's color example and a problem with bounds: the answers the
    # web page once got wrong (it searched every problem with DLX1).
    colored = "A B C | X Y\nA B X:0 Y:0\nA C X:1 Y:1\nX:0 Y:1\nB X:1\nC Y:1\n"
    answer = client.post("/api/exact-cover", json={"problem": colored}).json()
    assert answer["count"] == 1
    answer = client.post(
        "/api/exact-cover", json={"problem": colored, "mode": "solutions"}
    ).json()
    assert answer["solutions"][0]["text"] == "A C X:1 Y:1\nB X:1"
    bounded = "2:3|A B\nA\nA\nA\nB\nB\n"
    answer = client.post("/api/exact-cover", json={"problem": bounded}).json()
    assert answer["count"] == 8


def test_a_refusal_is_the_same_sentence_everywhere(tmp_path, capsys):
    p = ExactCover(["A"], bounds={"A": (1, 2)})
    p.add_options([["A"], ["A"]])
    with pytest.raises(Unsupported) as refused:
        p.count(algorithm="bits")
    sentence = str(refused.value)
    assert sentence.startswith(
        "searching with algorithm='bits' is not available for a problem "
        "with bounds"
    )
    path = tmp_path / "bounded.dlx"
    path.write_text(dumps(p))
    assert (
        dlx_main(["solve", str(path), "--count", "--algorithm", "bits"]) == 2
    )
    assert capsys.readouterr().err.strip() == f"dlx: error: {sentence}"
    # A combination no way of counting takes: refused before any work.
    with pytest.raises(Unsupported) as refused:
        p.count(jobs=2, time_limit=1)
    assert str(refused.value) == (
        "a count in jobs cannot be combined with time_limit"
    )


def test_engines_in_use_cover_every_kind_and_algorithm():
    # The registry hands each kind to an engine of each family that has
    # one for it: every (family, kind) its searching engines declare.
    colored = ExactCover("a", "x")
    colored.add_option(["a", "x"], colors={"x": 1})
    seen = set()
    for case in (
        ExactCover("a"),
        colored,
        ExactCover("a", bounds={"a": (0, 2)}),
    ):
        for algorithm in FAMILIES:
            if family_serves(algorithm, case):
                engine = engine_for(case, algorithm)
                assert engine.algorithm == algorithm
                assert case.kind in engine.kinds
                seen.add((algorithm, case.kind))
            else:
                with pytest.raises(Unsupported, match="is not available"):
                    engine_for(case, algorithm)
    assert seen == {
        (engine.algorithm, kind)
        for engine in ENGINES
        if engine.named and not engine.costs
        for kind in engine.kinds
    }


# -- the k cheapest -------------------------------------------------------
@st.composite
def costed(draw):
    """``problems()`` with a cost on each option: ``(problem, options,
    colors, bounds, given, costs)``."""
    p, options, colors, bounds, forced = draw(problems())
    costs = draw(
        st.lists(
            st.integers(0, 6), min_size=len(options), max_size=len(options)
        )
    )
    q = ExactCover(p.primary, p.secondary, bounds=bounds)
    for items, cols, cost in zip(options, colors, costs):
        q.add_option(items, colors=cols, cost=cost)
    return q, options, colors, bounds, forced, costs


def cli_best(p, k, given):
    """``dlx solve FILE --best K``: ``(cost, options)`` for each block of
    the output, its options found by their (priced) lines."""
    assert not given  # Knuth's format cannot write them
    out = io.StringIO()
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "p.dlx")
        with open(path, "w") as f:
            f.write(dumps(p, max_name_length=None, max_color_length=None))
        with contextlib.redirect_stdout(out):
            status = dlx_main(["solve", path, "--best", str(k)])
    numbers = {}  # a priced line -> the options written so
    for j in range(len(p.options)):
        line = p.option_line(j) + (f" |{p.costs[j]}" if p.costs[j] else "")
        numbers.setdefault(line, []).append(j)
    blocks = []
    for line in out.getvalue().splitlines():
        if line.startswith("cost "):
            blocks.append((int(line.split()[1]), []))
        else:
            blocks[-1][1].append(line)
    assert status == (0 if blocks else 1)
    found = []
    for cost, block in blocks:
        # The i-th of identical lines: the i-th of their options (which
        # are interchangeable).
        seen = collections.Counter()
        options = []
        for line in block:
            options.append(numbers[line][seen[line]])
            seen[line] += 1
        found.append((cost, sorted(options)))
    return found


def web_best(client, p, k, given):
    assert not given
    data = web(client, p, "best", min(k, 100))
    assert data["status"] == ("best" if data["solutions"] else "no solution")
    for solution in data["solutions"]:
        assert solution["text"].splitlines() == [
            p.option_line(j) + (f" |{p.costs[j]}" if p.costs[j] else "")
            for j in solution["options"]
        ]
    return [(s["cost"], s["options"]) for s in data["solutions"]]


# Each entry point: (name, best(problem, k, given)).
BESTS = [
    ("best", lambda p, k, g: p.best(k, given=g)),
    ("best-threads", lambda p, k, g: p.best(k, given=g, threads=2)),
    (
        "best-jobs-here",
        lambda p, k, g: p.best(k, given=g, jobs=1, split_into=5),
    ),
]
SLOW_BESTS = [
    (
        "best-jobs-processes",
        lambda p, k, g: p.best(k, given=g, jobs=2, split_into=5),
    ),
]


def check_cheapest(p, found, reference, k, given, distinct=True):
    """``found`` holds ``k`` of the cheapest (the brute force's sorted
    costs), each a solution priced as reported, the givens in it, none
    twice (not ``distinct``: identical options cannot be told apart)."""
    assert [cost for cost, _ in found] == [cost for cost, _ in reference][:k]
    solutions = {tuple(s) for _, s in reference}
    for cost, solution in found:
        assert list(solution) == sorted(solution)
        assert tuple(solution) in solutions
        assert cost == sum(p.costs[j] for j in solution)
        assert set(given) <= set(solution)
    if distinct:
        assert len({tuple(s) for _, s in found}) == len(found)


def _ks(reference):
    return (1, 3, max(1, len(reference)))


@pytest.mark.parametrize("name, cheapest", BESTS, ids=[n for n, _ in BESTS])
@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(costed())
def test_every_best_is_the_reference(name, cheapest, case):
    p, options, colors, bounds, forced, costs = case
    reference = costed_covers(
        options, len(p.primary), len(p.items), costs, colors, bounds, forced
    )
    with always_split():
        for k in _ks(reference):
            check_cheapest(p, cheapest(p, k, forced), reference, k, forced)


@pytest.mark.parametrize(
    "name, cheapest", SLOW_BESTS, ids=[n for n, _ in SLOW_BESTS]
)
@settings(
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(costed())
def test_every_slow_best_is_the_reference(name, cheapest, case):
    p, options, colors, bounds, forced, costs = case
    reference = costed_covers(
        options, len(p.primary), len(p.items), costs, colors, bounds, forced
    )
    with always_split():
        k = max(1, len(reference))
        check_cheapest(p, cheapest(p, k, forced), reference, k, forced)


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(costed())
def test_the_dlx_command_finds_the_cheapest_as_the_reference(case):
    p, options, colors, bounds, _, costs = case
    assume(p.primary)  # Knuth's format needs a primary item
    reference = costed_covers(
        options, len(p.primary), len(p.items), costs, colors, bounds
    )
    for k in _ks(reference):
        # Printed, identical options look the same.
        check_cheapest(p, cli_best(p, k, []), reference, k, [], distinct=False)


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.function_scoped_fixture,
    ],
)
@given(costed())
def test_the_web_api_finds_the_cheapest_as_the_reference(client, case):
    p, options, colors, bounds, _, costs = case
    assume(p.primary)
    reference = costed_covers(
        options, len(p.primary), len(p.items), costs, colors, bounds
    )
    for k in _ks(reference):
        check_cheapest(
            p, web_best(client, p, k, []), reference, min(k, 100), []
        )
