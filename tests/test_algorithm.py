"""What algorithm="auto" picks (dlx.engines.registry): the measured rules of the
README's "Two algorithms" section, one problem on each side of each
threshold, and the checks on the argument."""

import pytest

from dlx import ExactCover
from dlx.engines import COLORS, ENGINES, EXACT, MULTIPLICITIES, registry
from dlx.engines.bits import Bits
from dlx.engines.registry import (
    BITS_UP_TO,
    BOUNDS_CELLS_FROM,
    CELLS_FROM,
    COLORS_CELLS_FROM,
    family,
    hide_work,
)
from dlx.problems import debruijn, queens, rooks
from dlx.problems.langford import langford
from dlx.problems.polyomino import Polyomino

from conftest import FAMILIES


def shape(problem):
    return hide_work(
        len(problem.items), len(problem), len(problem.structure().members)
    )


def with_bound(problem):
    """``problem`` with a bound 1..2 on its first primary item."""
    first = problem.primary[0]
    bounded = ExactCover(
        problem.primary, problem.secondary, bounds={first: (1, 2)}
    )
    bounded.add_options(problem.options)
    return bounded


def test_hide_work_is_options_per_item_times_items_per_option_per_item():
    # 3 items, 2 options, 4 nodes: (4 / 3) * (4 / 2) / 3.
    assert hide_work(3, 2, 4) == pytest.approx(8 / 9)
    assert shape(queens.queens(12)) == pytest.approx(0.52, abs=0.01)


@pytest.mark.parametrize(
    "build, kind, expected",
    [
        (lambda: Polyomino("6x10").distinct_problem(), EXACT, "cells"),
        (lambda: langford(11), EXACT, "cells"),
        (lambda: queens.queens(12), EXACT, "links"),
        (lambda: debruijn.debruijn(3, 3), COLORS, "cells"),
        (lambda: debruijn.debruijn(2, 4), COLORS, "links"),
        (lambda: rooks.rooks(6, 2), MULTIPLICITIES, "links"),
        (lambda: with_bound(langford(11)), MULTIPLICITIES, "links"),
        (
            lambda: with_bound(Polyomino("6x10").distinct_problem()),
            MULTIPLICITIES,
            "cells",
        ),
    ],
)
def test_auto_follows_the_measured_rule_for_each_kind(build, kind, expected):
    problem = build()
    assert problem.kind == kind
    threshold = {
        EXACT: CELLS_FROM,
        COLORS: COLORS_CELLS_FROM,
        MULTIPLICITIES: BOUNDS_CELLS_FROM,
    }[kind]
    assert (shape(problem) >= threshold) == (expected == "cells")
    assert family(problem, "auto") == expected
    # A batch runs on the bitset engine when it is plain exact cover of at
    # most BITS_UP_TO options, else on links; a named algorithm is taken
    # as it is.
    small = kind == EXACT and len(problem) <= BITS_UP_TO
    assert family(problem, "auto", "batch") == ("bits" if small else "links")
    for name in FAMILIES:
        assert family(problem, name) == name
        assert family(problem, name, "batch") == name


def test_the_thresholds_sit_between_the_measured_shapes():
    # Langford 11 (1.36) on cells and queens (0.52) on links for plain
    # exact cover; de Bruijn n=3, k=3 (2.68) on cells and n=2, k=4 (1.67)
    # on links with colors; the bounded pentominoes (14) on cells and the
    # rooks (1.0) and Langford (1.4) on links with bounds.
    assert 0.52 < CELLS_FROM <= 1.36
    assert 1.67 < COLORS_CELLS_FROM <= 2.68
    assert 1.4 < BOUNDS_CELLS_FROM <= 14


@pytest.mark.parametrize(
    "algorithm, error",
    [
        ("fast", ValueError),
        ("", ValueError),
        (None, TypeError),
        (1, TypeError),
    ],
)
def test_a_bad_algorithm_is_refused(algorithm, error):
    with pytest.raises(error, match="links, cells, bits, auto"):
        family(queens.queens(4), algorithm)


def test_the_names_algorithm_takes_come_from_the_registry(monkeypatch):
    # Every family of an engine that algorithm= may name, then "auto";
    # memo counting is memo=True, not a name.
    named = {e.algorithm for e in ENGINES if e.named}
    assert set(registry.algorithm_names()) == named | {"auto"}
    assert "memo" not in registry.algorithm_names()
    assert registry.algorithm_names()[-1] == "auto"
    # The command line offers the same names, each with its engines' line.
    from dlx.cli.command import build_parser

    solve = build_parser()._subparsers._group_actions[0].choices["solve"]
    (flag,) = [a for a in solve._actions if "--algorithm" in a.option_strings]
    assert tuple(flag.choices) == registry.algorithm_names()
    for engine in ENGINES:
        assert engine.about in flag.help
    # A new engine's family is taken, and said, with nothing else to edit.

    class Fresh(Bits):
        name = "fresh"
        algorithm = "fresh"
        about = "a fresh engine"

    monkeypatch.setattr(registry, "RECORDS", (*registry.RECORDS, Fresh()))
    assert registry.algorithm_names()[-2:] == ("fresh", "auto")
    assert "fresh: a fresh engine" in registry.algorithm_help()
    assert family(ExactCover(["a"]), "fresh") == "fresh"


def test_an_empty_problem_has_no_hide_work():
    assert hide_work(0, 0, 0) == hide_work(3, 0, 0) == hide_work(0, 2, 0) == 0
    assert family(ExactCover([]), "auto") == "links"
    assert family(ExactCover(["a", "b"]), "auto") == "links"


def test_each_threshold_itself_takes_cells():
    exact = ExactCover(["a"])
    exact.add_option(["a"])  # 1 item, 1 option, 1 node: 1.0
    colored = ExactCover(["a"], ["x"])
    for _ in range(2):  # 2 items, 2 options, 4 nodes: 2.0
        colored.add_option(["a", "x"], colors={"x": "red"})
    bounded = ExactCover(["a"], bounds={"a": (1, 2)})
    for _ in range(4):  # 1 item, 4 options, 4 nodes: 4.0
        bounded.add_option(["a"])
    for problem, threshold in (
        (exact, CELLS_FROM),
        (colored, COLORS_CELLS_FROM),
        (bounded, BOUNDS_CELLS_FROM),
    ):
        assert shape(problem) == threshold
        assert family(problem, "auto") == "cells"


def test_batches_take_the_bitset_engine_up_to_its_size():
    small = ExactCover(range(3))
    small.add_options([[k] for k in range(3)] * (BITS_UP_TO // 3))
    assert len(small) <= BITS_UP_TO
    assert family(small, "auto", "batch") == "bits"
    assert family(small, "auto") == "cells"  # a search keeps its rule
    small.add_options([[0]] * (BITS_UP_TO + 1 - len(small)))
    assert len(small) == BITS_UP_TO + 1
    assert family(small, "auto", "batch") == "links"
    colored = ExactCover(["a"], ["x"])
    colored.add_option(["a", "x"], colors={"x": 1})
    assert family(colored, "auto", "batch") == "links"
