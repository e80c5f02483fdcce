"""Bad input to the engine's building API: one clear ValueError, and a
problem left exactly as it was."""

import re
from types import SimpleNamespace

import numpy as np
import pytest

from dlx import ExactCover


@pytest.mark.parametrize(
    "matrix, message",
    [
        ([[1, None]], r"entry \[0, 1\] is None"),
        ([[1, "1"]], r"entry \[0, 1\] is '1'"),
        ([[0, 1], [1, 0.5]], r"entry \[1, 1\] is 0.5"),
        ([[1, 0], [1]], "same length"),
        ([[1, 0], [0, -1]], r"entry \[1, 1\] is -1"),
    ],
)
def test_from_matrix_names_the_bad_entry(matrix, message):
    with pytest.raises(ValueError, match=message):
        ExactCover.from_matrix(matrix)


def test_from_matrix_accepts_booleans_and_floats_of_0_and_1():
    for matrix in ([[True, False], [False, True]], [[1.0, 0.0], [0.0, 1.0]]):
        assert ExactCover.from_matrix(matrix).count() == 1


@pytest.mark.parametrize(
    "bad", [[[3], [9]], [[3], [3, 3]], [[3], []], [[3], 7], [[3], "xyz"]]
)
def test_add_options_is_all_or_nothing(bad):
    p = ExactCover(range(5))
    p.add_options([[0, 1], [2]])
    before = (p.options, p.to_matrix().tolist(), p.count())
    with pytest.raises(ValueError, match="option 3"):
        p.add_options(bad)
    assert (p.options, p.to_matrix().tolist(), p.count()) == before
    assert p.add_options([[3, 4]]) == [2]
    assert p.count() == 1


def test_add_options_takes_any_iterable_and_numbers_from_the_end():
    p = ExactCover("abc")
    assert p.add_options(iter([["a"], ["b"]])) == [0, 1]
    assert p.add_option(["c"]) == 2
    assert p.add_options([]) == []
    assert p.solve() == [0, 1, 2]


def toy():
    p = ExactCover(["a", "b", "c", "d", "e"], secondary=["f", "g"])
    p.add_options(
        [
            ["c", "e", "f"],
            ["a", "d", "g"],
            ["b", "c", "f"],
            ["a", "d"],
            ["b", "g"],
            ["d", "e", "g"],
        ]
    )
    return p


def pairs():
    """Items 0..3; options every single item and the pairs {0,1}, {2,3}:
    two ways to cover {0,1} and two for {2,3}, 4 solutions."""
    p = ExactCover(range(4))
    p.add_options([[0], [1], [2], [3], [0, 1], [2, 3]])
    return p


def test_limit_zero_finds_nothing_and_searches_nothing():
    p = pairs()
    assert p.count(limit=0) == 0 and list(p.solutions(limit=0)) == []
    assert p.stats.nodes == 0 and p.stats.complete
    assert p.count(limit=1) == 1 and p.count(limit=3) == 3
    assert p.count(limit=4) == p.count(limit=5) == p.count() == 4
    assert len(list(p.solutions(limit=3))) == 3


def test_repeated_givens_in_a_batch_count_once():
    p = pairs()
    result = p.solve_batch([4, 4, 4], starts=[0, 2, 3], limit=5)
    assert result.counts.tolist() == [2, 2]
    result = p.solve_batch([[4, 4], [4], [5, 4, 5, 4]], limit=5)
    assert result.counts.tolist() == [2, 2, 1]
    # the same option in two instances is no repeat
    result = p.solve_batch([0, 1, 0], starts=[0, 2, 3], limit=5)
    assert result.counts.tolist() == [2, 2]


@pytest.mark.parametrize(
    "starts", [[1, 2, 3], [0, 2], [0, 3, 2, 3], [0, 2, 4], [], [[0, 3]]]
)
def test_batch_starts_must_rise_from_0_to_the_end(starts):
    with pytest.raises(ValueError, match="starts"):
        pairs().solve_batch(np.array([4, 4, 4]), starts=starts)


def test_batch_first_solutions_and_work():
    p = toy()
    result = p.solve_batch([[], [3], [0], [1]], limit=2)
    assert result.counts.tolist() == [1, 1, 1, 0]
    first = [sorted(row[row >= 0].tolist()) for row in result.solutions]
    assert first == [[0, 3, 4], [0, 4], [3, 4], []]
    assert (result.nodes > 0).all() and (result.updates > 0).all()
    overlap = p.solve_batch([[0, 2]])
    assert overlap.counts.tolist() == [-1]
    # DLX1's budget: a first node to branch, a second to find a cover.
    budget = p.solve_batch([[]], max_nodes=1, algorithm="links")
    assert budget.counts.tolist() == [-2]
    assert not p.stats.complete


@pytest.mark.parametrize("limit", [0, -1, 1.5, "2", None])
def test_batch_limit_must_be_positive(limit):
    with pytest.raises((TypeError, ValueError), match="limit"):
        pairs().solve_batch([[]], limit=limit)


@pytest.mark.parametrize("kwargs", [{"max_nodes": 5}, {"limit": 2}])
def test_threads_refuse_budgets(kwargs):
    with pytest.raises(ValueError, match="threads"):
        pairs().count(threads=2, **kwargs)


def test_threads_take_a_time_limit():
    p = pairs()
    assert p.count(threads=2, time_limit=60.0) == p.count()


@pytest.mark.parametrize("threads", [True, -1, 1.5, "2"])
def test_bad_thread_counts(threads):
    with pytest.raises((TypeError, ValueError), match="threads"):
        pairs().count(threads=threads)
    with pytest.raises((TypeError, ValueError), match="threads"):
        pairs().solve_batch([[]], threads=threads)


def test_one_thread_and_many_count_alike():
    p = pairs()
    assert p.count(threads=1) == p.count(threads=2) == p.count(threads=0) == 4


def test_budget_exhausted_carries_the_partial_count():
    from dlx import BudgetExhausted

    p = pairs()
    with pytest.raises(BudgetExhausted) as stop:
        p.count(max_nodes=3)
    assert stop.value.count == p.stats.solutions < 4
    assert stop.value.stats.nodes == 3 and not stop.value.stats.complete
    assert "max_nodes=3" in str(stop.value)
    p.count(max_nodes=10**6)  # enough: no exception
    assert p.stats.complete


@pytest.mark.parametrize(
    "given, expected",
    [
        ([], [[0, 1, 2, 3], [0, 1, 5], [2, 3, 4], [4, 5]]),
        ([4], [[2, 3, 4], [4, 5]]),
        ([4, 4], [[2, 3, 4], [4, 5]]),
        ([4, 5], [[4, 5]]),
        ([0, 4], []),
    ],
)
def test_given_options(given, expected):
    p = pairs()
    assert sorted(p.solutions(given=given)) == expected
    assert p.count(given=given) == len(expected)
    assert p.solve(given=given) == (expected[0] if expected else None)


def test_stats_text():
    from dlx import Stats

    assert (
        str(Stats(1089, 2076, 92, 0.5))
        == "Altogether 92 solutions, 2 076 updates, 1 089 nodes, 0.500 s."
    )
    assert (
        str(Stats(6, 30, 1, 0.0, False))
        == "Altogether 1 solution, 30 updates, 6 nodes, 0.000 s (stopped early)."
    )


def test_matrix_round_trip_and_secondary_columns():
    m = [[1, 0, 1], [0, 1, 0], [0, 1, 1]]
    p = ExactCover.from_matrix(m, secondary=1)
    assert p.primary == (0, 1) and p.secondary == (2,)
    assert p.to_matrix().tolist() == m
    assert p.options == ((0, 2), (1,), (1, 2))
    assert sorted(p.solutions()) == [[0, 1]]
    with pytest.raises(ValueError, match="secondary=-1"):
        ExactCover.from_matrix(m, secondary=-1)
    assert ExactCover.from_matrix(m, secondary=3).count() == 1


@pytest.mark.parametrize("bad", [6, -1, 100])
def test_batch_givens_must_exist(bad):
    with pytest.raises(
        ValueError,
        match=f"given option {bad} does not exist \\(there are 6\\)",
    ):
        toy().solve_batch([[0], [bad]])
    with pytest.raises(ValueError, match=f"given option {bad} does not"):
        toy().solve_batch(np.array([0, bad]), starts=[0, 1, 2])
    with pytest.raises(ValueError, match=f"given option {bad} does not"):
        toy().count(given=[bad])


def test_batch_edges():
    p = toy()
    assert p.solve_batch([[5]]).counts.tolist() == [0]
    assert p.solve_batch([]).counts.tolist() == []
    assert p.solve_batch(np.zeros(0, int), starts=[0]).counts.tolist() == []


def test_batch_stats_complete_only_when_every_tree_was_explored():
    p = toy()
    p.solve_batch([[5]])  # no solution: explored to the end
    assert p.stats.complete and p.stats.solutions == 0
    p.solve_batch([[0, 2]])  # overlapping givens: nothing to explore
    assert p.stats.complete
    p.solve_batch([[], [5]], limit=1)  # stopped at its limit: may have more
    assert not p.stats.complete and p.stats.solutions == 1
    p.solve_batch([[], [5]], limit=2)  # one solution < limit: explored
    assert p.stats.complete and p.stats.solutions == 1


# -- what the model promises at its edges (issue 31) ----------------------
def test_the_options_view_follows_added_options():
    p = ExactCover("abc")
    p.add_option("ab")
    view = p.options
    assert view == (("a", "b"),) and p.options is view  # kept while unchanged
    p.add_option("c")
    assert p.options == (("a", "b"), ("c",))
    p.add_options(["a", "bc"])
    assert p.options[2:] == (("a",), ("b", "c")) and len(p.options) == 4
    p.add_arrays(np.array([0, 3]), np.array([0, 1, 2]))
    assert p.options[-1] == ("a", "b", "c")
    assert p.count() == 3


@pytest.mark.parametrize("flag", [True, False, np.bool_(True)])
def test_a_bool_is_not_an_option_number(flag):
    p = ExactCover("ab")
    p.add_options(["a", "b", "ab"])
    with pytest.raises(TypeError, match="is not an option number"):
        p.count(given=[flag])
    with pytest.raises(TypeError, match="is not an option number"):
        p.solve(given=[flag])
    assert p.count(given=[np.int64(0)]) == 1 and p.count(given=[2]) == 1
    with pytest.raises(TypeError, match="must be an integer"):
        ExactCover.from_arrays(
            np.array([0]), np.array([], np.int64), n_primary=flag
        )


def _argument(name):
    import threading

    return {
        "limit": 5,
        "max_nodes": 10**6,
        "time_limit": 100.0,
        "stop": threading.Event(),
        "mrv_cutoff": 1,
        "algorithm": "links",
        "progress": lambda progress: None,
    }[name]


# The table of dlx.services.counting (ExactCover.count's docstring sends
# users there): which arguments each way of counting takes.
WAYS = {
    "a count": (
        {},
        {
            "limit",
            "max_nodes",
            "time_limit",
            "stop",
            "mrv_cutoff",
            "algorithm",
            "progress",
        },
    ),
    "a count on threads": (
        {"threads": 2},
        {"time_limit", "stop", "mrv_cutoff", "algorithm"},
    ),
    "a count in jobs": ({"jobs": 1}, {"mrv_cutoff", "algorithm", "progress"}),
    "a memoized count": ({"memo": True}, {"max_nodes", "time_limit", "stop"}),
}
ARGUMENTS = [
    "limit",
    "max_nodes",
    "time_limit",
    "stop",
    "mrv_cutoff",
    "algorithm",
    "progress",
]


@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize("name", ARGUMENTS)
def test_count_takes_the_arguments_of_its_way(way, name):
    from dlx.problems.langford import langford

    p = langford(4)
    chosen, takes = WAYS[way]
    options = {**chosen, name: _argument(name)}
    if name in takes:
        assert (
            p.count(**options) == 1
        )  # Langford pairs of 4: one, up to reversal
    else:
        with pytest.raises(ValueError) as refused:
            p.count(**options)
        assert str(refused.value) == f"{way} cannot be combined with {name}"


@pytest.mark.parametrize(
    "options, message",
    [
        (
            dict(memo=True, jobs=1, time_limit=5),
            "a memoized count in jobs cannot be combined with time_limit",
        ),
        (
            dict(memo_bytes=1 << 20, threads=2),
            "a memoized count cannot be combined with threads",
        ),
        (
            dict(choose="mrv", checkpoint="x", limit=3),
            "a memoized count cannot be combined with checkpoint or limit",
        ),
        (
            dict(jobs=1, threads=2),
            "a count in jobs cannot be combined with threads",
        ),
        (
            dict(split_into=4, threads=2, limit=1),
            "a count in jobs cannot be combined with threads or limit",
        ),
        (
            dict(executor=SimpleNamespace(submit=print), max_nodes=9),
            "a count in jobs cannot be combined with max_nodes",
        ),
    ],
)
def test_ways_that_do_not_mix_are_refused_before_any_work(options, message):
    from dlx.problems.langford import langford

    p = langford(4)
    with pytest.raises(ValueError) as refused:
        p.count(**options)
    assert str(refused.value) == message


def test_colors_from_arrays_are_the_colors_of_add_option():
    # Colors given as arrays (positive integers, 0 for none) mean what the
    # same colors given option by option mean.
    p = ExactCover(["a", "b"], ["x", "y"])
    p.add_arrays(
        np.array([0, 3, 6, 8]),
        np.array([0, 2, 3, 1, 2, 3, 0, 3]),
        colors=np.array([0, 7, 5, 0, 5, 7, 0, 7]),
    )
    assert [p.option_colors(k) for k in range(3)] == [
        {"x": 7, "y": 5},
        {"x": 5, "y": 7},
        {"y": 7},
    ]
    q = ExactCover(["a", "b"], ["x", "y"])
    q.add_option(["a", "x", "y"], colors={"x": 7, "y": 5})
    q.add_option(["b", "x", "y"], colors={"x": 5, "y": 7})
    q.add_option(["a", "y"], colors={"y": 7})
    assert [q.option_line(k) for k in range(3)] == [
        p.option_line(k) for k in range(3)
    ]
    assert p.count() == q.count() == 1


@pytest.mark.parametrize("cutoff", [None, 0, 1])
def test_an_exact_estimate_is_the_count_of_the_same_search(cutoff):
    # A tree small enough to be searched whole: the estimate's figures are
    # the count's, with the same mrv_cutoff (default 0 for both).
    from dlx.problems.queens import queens

    p = queens(8)
    given = {} if cutoff is None else {"mrv_cutoff": cutoff}
    estimate = p.estimate(100, **given)
    assert p.count(**given) == 92 and estimate.exact
    assert (estimate.nodes, estimate.updates, estimate.solutions) == (
        p.stats.nodes,
        p.stats.updates,
        92,
    )


def test_costs_as_an_array_are_one_whole_number_per_option():
    from dlx.problem import MAX_COST

    p = ExactCover("ab")
    p.add_arrays(
        np.array([0, 1, 2]),
        np.array([0, 1]),
        costs=np.array([0, MAX_COST], np.uint64),
    )
    assert p.costs == (0, MAX_COST)
    for costs, shape in (
        (np.array([[1], [2]]), "(2, 1)"),
        (np.array([1, 2, 3]), "(3,)"),
        (np.array(5), "()"),
    ):
        with pytest.raises(
            ValueError,
            match=re.escape(
                f"costs must hold one cost per option (2), got shape {shape}"
            ),
        ):
            p.add_arrays(np.array([0, 1, 2]), np.array([0, 1]), costs=costs)
    with pytest.raises(
        ValueError,
        match=re.escape(
            f"option 3: cost {MAX_COST + 1} is not between 0 and 2**63 - 1"
        ),
    ):
        p.add_arrays(
            np.array([0, 1, 2]),
            np.array([0, 1]),
            costs=np.array([1, MAX_COST + 1], np.uint64),
        )
    with pytest.raises(ValueError, match="option 2: cost -1 is not between"):
        p.add_arrays(
            np.array([0, 1, 2]), np.array([0, 1]), costs=np.array([-1, 1])
        )
    with pytest.raises(ValueError, match="option 3: cost -5 is not between"):
        p.add_arrays(
            np.array([0, 1, 2]), np.array([0, 1]), costs=np.array([0, -5])
        )
    assert len(p) == 2  # nothing refused was added


@pytest.mark.parametrize(
    "bounds, error, message",
    [
        (
            [("a", 1)],
            TypeError,
            "bounds must be a mapping {item: (u, v)}, got list",
        ),
        (
            {"x": 1},
            ValueError,
            "bounds for 'x': only primary items take bounds, "
            "and 'x' is secondary",
        ),
        ({"q": 1}, ValueError, "bounds for 'q': no such item"),
        (
            {"a": (2, 1)},
            ValueError,
            "bounds for 'a' are 2..1; they need 0 <= u <= v and v >= 1",
        ),
        ({"a": (0, 0)}, ValueError, "bounds for 'a' are 0..0"),
        ({"a": (-1, 2)}, ValueError, "bounds for 'a' are -1..2"),
        ({"a": (1, 2, 3)}, ValueError, "bounds for 'a' must be a pair"),
    ],
)
def test_bad_bounds_are_named(bounds, error, message):
    with pytest.raises(error) as refused:
        ExactCover(["a", "b"], ["x"], bounds=bounds)
    assert str(refused.value).startswith(message)


def test_good_bounds_are_kept():
    p = ExactCover(["a", "b"], ["x"], bounds={"a": (0, 2), "b": 3})
    assert p.bounds == {"a": (0, 2), "b": (3, 3)}


def test_a_color_for_an_item_outside_the_option_is_refused():
    p = ExactCover(["a"], ["x", "y"])
    with pytest.raises(
        ValueError, match="color 1 for item 'y', which is not in the option"
    ):
        p.add_option(["a", "x"], colors={"y": 1})
    with pytest.raises(ValueError, match="color 1 for primary item 'a'"):
        p.add_option(["a", "x"], colors={"a": 1})
    assert len(p) == 0
