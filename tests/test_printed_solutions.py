"""Every solution the ``dlx`` command prints is delimited and reads back:
``dlx.formats.read_solutions`` turns the output of every command that
prints solutions (``dlx solve`` alone, ``--all``, ``--limit N``,
``--reduce``, ``--algorithm cells``, ``--best K``, the builders, ``dlx zdd
--problem``) into the solutions ``ExactCover.solutions()`` finds, on random
problems with one-option and empty solutions, identical options, colors,
bounds and costs (two solutions that differ only in costs print
differently)."""

import collections
import contextlib
import io
import os
import tempfile

import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from dlx import ExactCover, dumps
from dlx.cli import main
from dlx.formats import (
    costs_of,
    loads,
    read_solutions,
    solution_header,
    solution_lines,
    solution_options,
)


@st.composite
def problems(draw):
    """A small problem of any kind: secondary items with colors, bounds
    (lower bounds of 0 give empty solutions), repeated options, costs."""
    nprimary = draw(st.integers(1, 4))
    nsecondary = draw(st.integers(0, 2))
    nitems = nprimary + nsecondary
    bounds = {}
    if draw(st.booleans()):
        for i in range(nprimary):
            if draw(st.booleans()):
                u = draw(st.integers(0, 1))
                bounds[i] = (u, draw(st.integers(max(u, 1), 2)))
    priced = draw(st.booleans())
    p = ExactCover(range(nprimary), range(nprimary, nitems), bounds=bounds)
    for _ in range(draw(st.integers(1, 7))):
        items = sorted(
            draw(st.sets(st.integers(0, nitems - 1), min_size=1, max_size=3))
        )
        colors = {
            i: draw(st.sampled_from("rg"))
            for i in items
            if i >= nprimary and draw(st.booleans())
        }
        cost = draw(st.integers(0, 5)) if priced else 0
        p.add_option(items, colors=colors, cost=cost)
        if draw(st.integers(0, 3)) == 0:  # the same items again
            p.add_option(items, colors=colors, cost=draw(st.integers(0, 5)))
    return p


def run(p, *argv):
    """``(status, standard output)`` of ``dlx solve FILE *argv``."""
    out = io.StringIO()
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "p.dlx")
        with open(path, "w") as f:
            f.write(dumps(p, max_name_length=None, max_color_length=None))
        with contextlib.redirect_stdout(out):
            status = main(["solve", path, *argv])
    return status, out.getvalue()


def printed(p, solutions):
    """What the command prints for ``solutions``, as ``read_solutions``
    answers: the header's cost (None without costs) and the lines."""
    costs = costs_of(p)
    return [
        (
            None if costs is None else sum(costs[k] for k in s),
            solution_lines(p, s, costs),
        )
        for s in solutions
    ]


def as_multisets(found):
    return collections.Counter(
        (cost, tuple(sorted(lines))) for cost, lines in found
    )


SETTINGS = settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@pytest.mark.parametrize("algorithm", ["links", "cells"])
@SETTINGS
@given(problems())
def test_every_listing_reads_back(algorithm, p):
    solutions = list(p.solutions(algorithm=algorithm))
    status, out = run(p, "--all", "--algorithm", algorithm)
    assert status == (0 if solutions else 1)
    found = read_solutions(out)
    assert found == printed(p, solutions)  # in order, every one delimited
    costs = costs_of(p)
    for _, lines in found:  # back to option numbers that print so
        options = solution_options(p, lines, costs)
        assert sorted(solution_lines(p, options, costs)) == sorted(lines)
    if len(solutions) > 1:
        status, out = run(p, "--limit", "2", "--algorithm", algorithm)
        assert read_solutions(out) == printed(p, solutions[:2])
    status, out = run(p, "--algorithm", algorithm)  # the first alone
    assert [lines for _, lines in read_solutions(out)] == [
        lines for _, lines in printed(p, solutions[:1])
    ]


@SETTINGS
@given(problems())
def test_reduced_and_cheapest_listings_read_back(p):
    solutions = list(p.solutions())
    status, out = run(p, "--reduce", "--all")
    assert as_multisets(read_solutions(out)) == as_multisets(
        printed(p, solutions)
    )
    assume(solutions)
    status, out = run(p, "--best", str(len(solutions)))
    found = read_solutions(out)
    costs = p.costs
    want = printed(p, solutions)
    assert as_multisets(found) == as_multisets(
        (sum(costs[k] for k in s), lines)
        for s, (_, lines) in zip(solutions, want)
    )


def test_solutions_of_one_option_and_none_are_delimited():
    # The examples: {A, B} and {A B}; A twice; the empty solution.
    for text, want in [
        ("A B\nA\nB\nA B\n", [["A", "B"], ["A B"]]),
        ("A\nA\nA\n", [["A"], ["A"]]),
        ("0:1|A\nA\n", [["A"], []]),
        ("0:1|A\n", [[]]),
    ]:
        p = loads(text)
        status, out = run(p, "--all")
        assert status == 0
        assert [lines for _, lines in read_solutions(out)] == want
        assert out.startswith(solution_header(1))
    status, out = run(loads("0:1|A\n"))  # alone, and still visible
    assert out == "solution 1:\n"


def test_costs_tell_solutions_apart():
    p = loads("C\nC |1\nC |4\n")
    status, out = run(p, "--all")
    assert out == "solution 1: cost 1\nC |1\n\nsolution 2: cost 4\nC |4\n"
    status, out = run(p)
    assert out == "C |1\n"


def test_builders_head_their_pictures(capsys):
    assert main(["queens", "6", "--all"]) == 0
    found = read_solutions(capsys.readouterr().out)
    assert len(found) == 4 and all(len(lines) == 6 for _, lines in found)
    assert main(["pentomino", "3x20", "--all"]) == 0
    assert len(read_solutions(capsys.readouterr().out)) == 2


def test_zdd_listings_read_back(tmp_path, capsys):
    p = loads("A B C\nA B\nC\nA\nB C\nB\nA B C |2\n")
    problem = tmp_path / "p.dlx"
    problem.write_text(dumps(p))
    zdd = tmp_path / "p.zdd"
    assert main(["solve", str(problem), "--zdd", str(zdd)]) == 0
    capsys.readouterr()
    assert (
        main(["zdd", str(zdd), "--sample", "5", "--problem", str(problem)])
        == 0
    )
    found = read_solutions(capsys.readouterr().out)
    every = {tuple(s) for s in p.solutions()}
    costs = costs_of(p)
    assert len(found) == 5
    for cost, lines in found:
        assert cost is None
        assert tuple(solution_options(p, lines, costs)) in every


def test_the_reader_refuses_what_it_cannot_read():
    with pytest.raises(
        ValueError, match="solution 3 where solution 2 was due"
    ):
        read_solutions("solution 1:\nA\nsolution 3:\nB\n")
    with pytest.raises(ValueError, match="header after option lines"):
        read_solutions("A\nsolution 1:\nB\n")
    assert read_solutions("") == []
    with pytest.raises(ValueError, match="not an option left"):
        solution_options(loads("A\nA\n"), ["A", "A"])
