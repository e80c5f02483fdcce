"""Bounds of any size (issue 25, item 1): a bound beyond the kernels'
32-bit integers is never wrapped.  The model keeps a bound above
``dlx.validate.MAX_BOUND`` as ``MAX_BOUND``, more than the options of any item
the arrays can hold, so the solutions are those of the bound as written;
every kernel (DLX3, SSMCC), every search method and every way in (the
Python API, ``dlx.formats``, ``dlx solve``, the web API) agrees with the
brute-force reference, which reads the bounds as Python integers."""

import io
import sys

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from dlx import ExactCover, validate as xcc
from dlx.cli import main
from dlx.formats import DLXFormatError, loads

from reference import generalized_covers
from test_xcc import colored_problems

ALGORITHMS = ["links", "cells"]

# Bounds at and around the places where fixed-width integers break.
HUGE = [
    2**30 - 1,
    2**30,
    2**31 - 1,
    2**31,
    2**32 + 1,
    2**63,
    2**64 + 3,
    10**40,
]

# The issue's problem: item A in two options (Knuth: "0:3|A" counts 4).
ISSUE_TEXT = "0:4294967297|A\nA\nA\n"


def solutions(p, algorithm, **kw):
    return sorted(tuple(s) for s in p.solutions(algorithm=algorithm, **kw))


def reference(p, bounds):
    """The reference's solutions of ``p`` with ``bounds`` {item number:
    (u, v)} as Python integers."""
    number = {name: k for k, name in enumerate(p.items)}
    options = [[number[x] for x in o] for o in p.options]
    colors = [
        {number[x]: c for x, c in p.option_colors(k).items()}
        for k in range(len(p))
    ]
    return generalized_covers(
        options, len(p.primary), len(p.items), colors, bounds
    )


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize("v", HUGE)
def test_a_huge_upper_bound_means_any_number_of_options(algorithm, v):
    p = ExactCover(["A"], bounds={"A": (0, v)})
    p.add_options([["A"], ["A"], ["A"]])
    assert p.count(algorithm=algorithm) == 8  # every subset of 3 options
    assert solutions(p, algorithm) == [
        (),
        (0,),
        (0, 1),
        (0, 1, 2),
        (0, 2),
        (1,),
        (1, 2),
        (2,),
    ]
    assert p.bounds["A"] == (0, min(v, xcc.MAX_BOUND))


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize("u", HUGE)
def test_a_huge_lower_bound_is_never_met(algorithm, u):
    p = ExactCover(["A", "B"], bounds={"A": (u, u + 5)})
    p.add_options([["A"], ["A", "B"], ["B"]])
    assert p.count(algorithm=algorithm) == 0
    assert p.solve(algorithm=algorithm) is None


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_huge_bounds_in_every_search_method(algorithm, monkeypatch):
    p = ExactCover(
        ["A", "B"], ["X"], bounds={"A": (1, 2**40), "B": (0, 2**33)}
    )
    p.add_options(
        [["A", "X"], ["A"], ["A", "B"], ["B"], ["B", "X"], ["A", "B"]]
    )
    expected = reference(p, {0: (1, 2**40), 1: (0, 2**33)})
    assert len(expected) > 4
    assert solutions(p, algorithm) == expected
    assert p.count(algorithm=algorithm) == len(expected)
    assert p.count(algorithm=algorithm, limit=3) == 3
    assert p.count(algorithm=algorithm, given=[1]) == sum(
        1 in s for s in expected
    )
    batch = p.solve_batch([[], [1], [0, 3]], limit=100, algorithm=algorithm)
    assert batch.counts.tolist() == [
        len(expected),
        sum(1 in s for s in expected),
        sum(0 in s and 3 in s for s in expected),
    ]
    # Threads split the tree at its top (a tiny probe budget forces it).
    monkeypatch.setattr("dlx.services.runner.SERIAL_PROBE_NODES", 1)
    assert p.count(algorithm=algorithm, threads=2) == len(expected)


@st.composite
def widened(draw):
    """A random bounded problem, and the same bounds with some of them
    pushed far past 32 bits (``v`` always meaning the same, being above
    the number of options; ``u`` sometimes, making the item unmeetable)."""
    nitems, nprimary, options, colors, bounds = draw(
        colored_problems(bounded=True)
    )
    wide = dict(bounds)
    for i in range(nprimary):
        if draw(st.booleans()):
            u, v = bounds.get(i, (1, 1))
            big = draw(st.sampled_from(HUGE))
            wide[i] = (big if draw(st.integers(0, 4)) == 0 else u, big + 1)
    return nitems, nprimary, options, colors, wide


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(widened())
def test_wide_bounds_match_reference(algorithm, case):
    nitems, nprimary, options, colors, bounds = case
    p = ExactCover(range(nprimary), range(nprimary, nitems), bounds=bounds)
    for items, cols in zip(options, colors):
        p.add_option(items, colors=cols)
    expected = generalized_covers(options, nprimary, nitems, colors, bounds)
    assert solutions(p, algorithm) == expected


# -- the ways in: formats, the command line, the web API ---------------------


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_the_issues_file_counts_four(algorithm, tmp_path, capsys, monkeypatch):
    p = loads(ISSUE_TEXT)
    assert p.count(algorithm=algorithm) == 4
    path = tmp_path / "huge.dlx"
    path.write_text(ISSUE_TEXT)
    assert main(["solve", str(path), "--count", "--algorithm", algorithm]) == 0
    assert capsys.readouterr().out.strip() == "4"
    monkeypatch.setattr(sys, "stdin", io.StringIO(ISSUE_TEXT))
    assert main(["solve", "-", "--count", "--algorithm", algorithm]) == 0
    assert capsys.readouterr().out.strip() == "4"


@pytest.mark.parametrize(
    "text,count",
    [
        ("0:4294967297|A\nA\nA\n", 4),
        ("4294967297|A\nA\nA\n", 0),  # exactly 2**32 + 1: never
        ("2:4294967297|A\nA\nA\n", 1),
        ("0:" + "9" * 5000 + "|A\nA\nA\n", 4),  # past int()'s digit limit
        ("0" * 4000 + "1:" + "9" * 6000 + "|A\nA\n", 1),
        ("9" * 5000 + ":" + "9" * 5000 + "|A\nA\n", 0),
    ],
)
def test_the_reader_takes_numbers_of_any_length(text, count):
    assert loads(text).count() == count


@pytest.mark.parametrize(
    "text,message",
    [
        ("9" * 5001 + ":" + "9" * 5000 + "|A\nA\n", "u <= v"),
        ("1" + "0" * 5000 + ":" + "9" * 5000 + "|A\nA\n", "u <= v"),
        ("0:" + "0" * 5000 + "|A\nA\n", "v >= 1"),
        ("0:\u0663|A\nA\n", "whole numbers"),  # an Arabic-Indic 3
        ("\uff12|A\nA\n", "whole numbers"),  # a fullwidth 2
    ],
)
def test_the_reader_refuses_bad_numbers_in_one_short_sentence(text, message):
    with pytest.raises(DLXFormatError, match=message) as error:
        loads(text)
    assert len(str(error.value)) < 300


def test_the_web_api_counts_huge_bounds():
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from sudoku.web.app import create_app

    with TestClient(create_app(warm_up=False)) as client:
        answer = client.post(
            "/api/exact-cover", json={"builder": "dlx", "problem": ISSUE_TEXT}
        )
    assert answer.status_code == 200, answer.text
    assert answer.json()["count"] == 4


# -- the same class: other whole numbers beyond the kernels' int64 ------------


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize("argument", ["limit", "max_nodes", "mrv_cutoff"])
def test_numbers_beyond_int64_mean_no_limit(algorithm, argument):
    from dlx.problems.queens import queens

    p = queens(6)
    huge = {argument: 2**70}
    assert p.count(algorithm=algorithm, **huge) == 4
    assert len(list(p.solutions(algorithm=algorithm, **huge))) == 4
    batch = p.solve_batch(
        [[]],
        algorithm=algorithm,
        **({"limit": 2**70} if argument == "mrv_cutoff" else huge),
    )
    assert batch.counts.tolist() == [4 if argument != "max_nodes" else 2]
