"""Knuth's Monte Carlo estimate of the search tree."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from dlx import ExactCover
from dlx.problems.langford import langford
from dlx.problems.queens import queens
from dlx.services.estimate import Estimate, probe_figures

from arrays import links_of
from test_jobs import problems


def truth(problem, given=(), mrv_cutoff=0):
    # The probes walk the dancing-links tree: its figures are DLX1's.
    found = problem.count(
        given=list(given), mrv_cutoff=mrv_cutoff, algorithm="links"
    )
    s = problem.stats
    return np.array([s.nodes, s.updates, found], float)


def assert_unbiased(problem, probes, seed, given=(), mrv_cutoff=0):
    mean, error = probe_figures(
        problem,
        probes,
        seed=seed,
        given=given,
        mrv_cutoff=mrv_cutoff,
        algorithm="links",
    )
    exact = truth(problem, given, mrv_cutoff)
    # Within five standard errors (the chance of failing by luck alone is
    # below one in a million per figure), or equal when every probe saw
    # the same (a tree with one path).
    assert np.all(np.abs(mean - exact) <= 5 * error + 1e-9 * exact), (
        mean,
        error,
        exact,
    )
    return mean, error, exact


@pytest.mark.parametrize(
    "build,cutoff",
    [
        (lambda: queens(6), 0),
        (lambda: queens(8), 0),
        (lambda: queens(8), 1),
        (lambda: langford(7), 0),
        (lambda: langford(8, False), 0),
    ],
    ids=[
        "queens-6",
        "queens-8",
        "queens-8-cutoff-1",
        "langford-7",
        "langford-8-all",
    ],
)
def test_mean_of_probes_is_the_tree(build, cutoff):
    mean, error, exact = assert_unbiased(build(), 20_000, 1, (), cutoff)
    assert np.all(error[:2] < 0.05 * exact[:2])  # and the probes are many


@settings(max_examples=150, deadline=None)
@given(problems(), st.integers(0, 1 << 20))
def test_mean_of_probes_is_the_tree_of_random_problems(case, seed):
    nitems, nprimary, options = case
    p = ExactCover(range(nprimary), range(nprimary, nitems))
    p.add_options(options)
    assert_unbiased(p, 3000, seed)


def test_probes_with_givens():
    p = queens(8)
    assert_unbiased(p, 20_000, 5, given=[3])
    assert list(probe_figures(p, 10, given=[0, 1])[0]) == [0, 0, 0]


def test_probes_leave_the_links_as_they_were():
    p = queens(7)
    before = [a.copy() for a in links_of(p).copy_arrays()]
    from dlx.kernels import dlx1 as K

    arrays = links_of(p).copy_arrays()
    K.estimate(*arrays, np.zeros(8, np.int32), 0, 3, np.zeros((500, 3)))
    assert all(np.array_equal(a, b) for a, b in zip(arrays, before))


@pytest.mark.parametrize("slice_", [1, 7, 1024])
def test_probes_in_slices_are_the_probes_of_one_call(monkeypatch, slice_):
    # The kernel runs a slice of the probes a call (so that Ctrl-C is seen
    # between two), each slice going on with the random numbers of the
    # last: whatever the slice, the probes and so the estimate are one
    # call's.
    p = queens(12)
    monkeypatch.setattr("dlx.engines.dlx1.PROBES_A_CALL", 10**9)
    whole = probe_figures(p, 3000, seed=5, algorithm="links")
    monkeypatch.setattr("dlx.engines.dlx1.PROBES_A_CALL", slice_)
    sliced = probe_figures(p, 3000, seed=5, algorithm="links")
    assert all(np.array_equal(a, b) for a, b in zip(whole, sliced))
    other = probe_figures(p, 3000, seed=6, algorithm="links")
    assert not np.array_equal(whole[0], other[0])


def test_estimate_is_reproducible_and_sized(monkeypatch):
    monkeypatch.setattr("dlx.services.estimate.RATE_NODES", 100)
    p = queens(9)
    e = p.estimate(2000, seed=7)
    assert isinstance(e, Estimate) and not e.exact and e.probes == 2000
    again = p.estimate(2000, seed=7)
    assert (again.nodes, again.updates, again.solutions) == (
        e.nodes,
        e.updates,
        e.solutions,
    )
    assert e.seconds > 0
    assert "Estimated from 2,000 probes" in str(e) and "nodes" in str(e)


def test_a_small_tree_is_simply_counted():
    e = queens(8).estimate()
    assert e.exact and (e.solutions, e.nodes) == (92, 1049)
    assert e.nodes_error == 0 and "exact" in str(e)


def test_estimate_refuses_bad_arguments():
    with pytest.raises(ValueError, match="probes"):
        queens(5).estimate(0)
    with pytest.raises(ValueError, match="seed"):
        queens(5).estimate(seed=-1)
    with pytest.raises(ValueError, match="does not exist"):
        queens(5).estimate(given=[99])


def test_estimate_reports_each_figure_of_the_probes(monkeypatch):
    monkeypatch.setattr("dlx.services.estimate.RATE_NODES", 100)
    p = queens(8)
    e = p.estimate(500, seed=3)
    mean, error = probe_figures(p, 500, seed=3)
    assert (e.nodes, e.updates, e.solutions) == tuple(mean)
    assert (e.nodes_error, e.updates_error, e.solutions_error) == tuple(error)


def test_one_probe_has_no_error_bar_and_two_have_one():
    one = probe_figures(queens(8), 1, seed=1)[1]
    assert np.all(np.isinf(one))
    two = probe_figures(queens(8), 2, seed=1)[1]
    assert np.all(np.isfinite(two))


def test_givens_that_cover_make_a_one_leaf_tree():
    p = ExactCover("ab")
    p.add_options(["a", "b", "ab"])
    mean, error = probe_figures(p, 7, given=[2])
    assert list(mean[[0, 2]]) == [1, 1] and list(error) == [0, 0, 0]


@pytest.mark.parametrize(
    "estimate, text",
    [
        (
            Estimate(1000, 10, 2e7, 0, 0, 0, 3 * 3600, 4),
            "Estimated from 4 probes of DLX1's tree: no solution met by any probe, about 1,000 "
            "± 1% nodes, about 20,000,000 ± 0% updates, 3 h on one core.",
        ),
        (
            Estimate(999, 0, 5, 0, 12345, 100, 90, 1000),
            "Estimated from 1,000 probes of DLX1's tree: about 12,300 ± 1% solutions, about 999 "
            "± 0% nodes, about 5 ± 0% updates, 90 s on one core.",
        ),
        (
            Estimate(5, 0, 7, 0, 0, 0, 150, 10, True),
            "Estimated from 10 probes of DLX1's tree: 0 solutions, 5 nodes, 7 updates, 2.5 min "
            "on one core (exact: the whole tree was searched).",
        ),
        (
            Estimate(5, 0, 7, 0, 1, 0, 3 * 86400, 10),
            "Estimated from 10 probes of DLX1's tree: about 1 ± 0% solutions, about 5 ± 0% "
            "nodes, about 7 ± 0% updates, 3 days on one core.",
        ),
    ],
)
def test_estimate_text(estimate, text):
    assert str(estimate) == text


def test_a_tree_without_solutions_still_takes_time(monkeypatch):
    """The time is the updates' (not the solutions') at the measured rate."""
    monkeypatch.setattr("dlx.services.estimate.RATE_NODES", 20)
    e = langford(6).estimate(200, seed=1)
    assert not e.exact and e.solutions == 0 and e.updates > 0
    assert e.seconds > 0
    assert "no solution met by any probe" in str(e)


@pytest.mark.parametrize("algorithm", ["links", "cells"])
@pytest.mark.parametrize(
    "build",
    [
        lambda: queens(6),
        lambda: langford(6),
        lambda: __import__("dlx.problems.debruijn", fromlist=["d"]).debruijn(
            4
        ),
        lambda: __import__("dlx.problems.rooks", fromlist=["r"]).rooks(4, 2),
    ],
    ids=["queens-6", "langford-6", "debruijn-4-colors", "rooks-4-2-bounds"],
)
def test_every_engines_probes_are_unbiased(build, algorithm):
    """Knuth's estimate on the tree of each engine (DLX1's kernel, DLX2's
    and DLX3's a walk of their ``Top``; dancing cells' is dancing links'
    tree of the same kind, see ``probed_engine``): the mean over many
    probes within five standard errors of the tree's own nodes, updates
    and solutions."""
    p = build()
    mean, error = probe_figures(p, 3000, seed=11, algorithm=algorithm)
    found = p.count(algorithm="links")
    s = p.stats
    exact = np.array([s.nodes, s.updates, found], float)
    assert np.all(np.abs(mean - exact) <= 5 * error + 1e-9 * exact), (
        mean,
        error,
        exact,
    )
