"""The dancing-cells kernel with colors (SSXCC) called directly: its
arrays, Knuth's own figures, and the given options' checks.  Its search
against the reference is in test_xcc (parametrised over every colors
kernel), and through ExactCover in test_xcc and test_engine."""

from pathlib import Path

import numpy as np
import pytest

from dlx import ExactCover, load
from dlx.engines import COLORS
from dlx.kernels import ssxcc as CC

from test_cells import CellsRun, same_sets
from test_xcc import colored_cells, knuth_dlx2_example

DATA = Path(__file__).parent / "data"


def ssxcc_figures():
    """{(file, args): (solutions, nodes, updates)} as ssxcc printed them."""
    figures = {}
    for line in (DATA / "ssxcc" / "figures.tsv").read_text().splitlines():
        if line.startswith(("#", "file\t")):
            continue
        name, args, *numbers = line.split("\t")
        figures[name, args] = tuple(int(x) for x in numbers[:3])
    return figures


SSXCC = ssxcc_figures()


def test_dlx2_example_arrays_are_those_of_the_docstring():
    c = colored_cells(knuth_dlx2_example())
    assert c.kernel is CC and c.width == CC.NODE == 4
    assert c.item.tolist() == [3, 8, 13, 19, 26] and c.second == 19
    assert c.set.tolist() == [
        0,
        0,
        2,
        1,
        6,
        0,
        1,
        2,
        2,
        14,
        0,
        2,
        3,
        7,
        11,
        17,
        0,
        3,
        4,
        3,
        8,
        12,
        15,
        0,
        4,
        3,
        4,
        9,
        18,
    ]
    assert c.itm.tolist() == [
        0,
        3,
        8,
        19,
        26,
        -4,
        3,
        13,
        19,
        26,
        -4,
        13,
        19,
        -2,
        8,
        19,
        -2,
        13,
        26,
        -2,
    ]
    assert c.loc.tolist() == [
        4,
        3,
        8,
        19,
        26,
        4,
        4,
        13,
        20,
        27,
        2,
        14,
        21,
        2,
        9,
        22,
        2,
        15,
        28,
        0,
    ]
    assert c.clr.tolist() == [
        0,
        0,
        0,
        1,
        1,
        0,
        0,
        0,
        2,
        2,
        0,
        0,
        1,
        0,
        0,
        2,
        0,
        0,
        2,
        0,
    ]


def ssxcc_run(problem, want=0):
    run = CellsRun(problem, cells=colored_cells(problem))
    run.step(want)
    return tuple(
        int(v) for v in (run.counters[2], run.counters[0], run.counters[1])
    )


@pytest.mark.parametrize("name,args", sorted(SSXCC))
def test_same_solutions_nodes_and_updates_as_ssxcc(name, args):
    """Every file, run to the end and stopped after 1 and 5 solutions
    (ssxcc's ``t1``, ``t5``: our ``want``), plain files too (with no
    color, SSXCC's tree is not SSXC1's: it forces moves)."""
    want = int(args[1:]) if args else 0
    assert ssxcc_run(load(DATA / name), want) == SSXCC[name, args]


@pytest.mark.parametrize(
    "name", sorted(name for name, args in SSXCC if not args)
)
def test_the_api_searches_colors_as_ssxcc(name):
    problem = load(DATA / name)
    if problem.kind != COLORS:
        return
    solutions, nodes, updates = SSXCC[name, ""]
    assert problem.count(algorithm="cells") == solutions
    assert (problem.stats.nodes, problem.stats.updates) == (nodes, updates)
    limited = SSXCC[name, "t5"]
    assert problem.count(limit=5, algorithm="cells") == limited[0]
    assert (problem.stats.nodes, problem.stats.updates) == limited[1:]


def test_every_recorded_file_has_figures():
    names = {name for name, _ in SSXCC}
    for folder in ("dlx2", "ssxcc"):
        assert {
            f"{folder}/{p.name}" for p in (DATA / folder).glob("*.dlx")
        } <= names


# -- given options ------------------------------------------------------------


def two_colors():
    """a | x y: options that agree or clash on x's color, one with no
    primary item."""
    p = ExactCover(["a", "b"], ["x", "y"])
    p.add_option(["a", "x"], colors={"x": 1})  # 0
    p.add_option(["b", "x"], colors={"x": 1})  # 1
    p.add_option(["b", "x"], colors={"x": 2})  # 2
    p.add_option(["x", "y"], colors={"x": 1})  # 3: no primary item
    p.add_option(["x"], colors={"x": 2})  # 4: no primary item
    p.add_option(["b", "y"])  # 5
    p.add_option(["x"])  # 6: no primary, uncolored
    return p


@pytest.mark.parametrize(
    "given,fits",
    [
        ([0, 1], True),
        ([0, 2], False),
        ([0, 3], True),
        ([0, 4], False),
        ([3, 4], False),
        ([3, 5], False),
        ([0, 6], False),
        ([6, 3], False),
        ([4, 2], True),
        ([3, 0, 1], True),
        ([3, 0, 5], False),
    ],
)
def test_a_given_fits_only_the_same_color(given, fits):
    p = two_colors()
    run = CellsRun(p, given=given, cells=colored_cells(p))
    assert run.clash == (not fits)
    run.release()
    assert same_sets(run.cells, run.arrays)
    assert run.state[CC.SAVEPTR] == 0
    assert p.count(given=given, algorithm="cells") == p.count(
        given=given, algorithm="links"
    )


def test_a_given_clash_changes_nothing():
    p = two_colors()
    run = CellsRun(p, given=[0], cells=colored_cells(p))
    before = [a.copy() for a in run.arrays[:3]] + [run.state.copy()]
    item, set_, nd, second = run.arrays
    assert (
        CC.commit_option(
            int(run.cells.option_start[2]),
            item,
            set_,
            nd,
            second,
            run.stack,
            run.state,
        )
        == -1
    )
    after = list(run.arrays[:3]) + [run.state]
    assert all(np.array_equal(a, b) for a, b in zip(before, after))


def test_givens_that_empty_an_item_leave_nothing_to_find():
    # Given "a x:1" leaves b only "b x:2", hidden: b's set is empty at the
    # root (a search never gets there by itself; the root is a dead end).
    p = ExactCover(["a", "b"], ["x"])
    p.add_option(["a", "x"], colors={"x": 1})
    p.add_option(["b", "x"], colors={"x": 2})
    p.add_option(["a"])
    run = CellsRun(p, given=[0], cells=colored_cells(p))
    assert not run.clash
    status, found = run.step(0, rows=5)
    assert status == CC.EXHAUSTED and found == []
    assert tuple(run.counters[[0, 2]]) == (1, 0)
    assert p.count(given=[0], algorithm="cells") == 0
    assert p.count(algorithm="cells") == 1


def test_the_force_stack_never_outgrows_its_room():
    # An item goes on the force stack at most once at a time: a chain of
    # forced moves as long as the problem (every item forced in turn).
    n = 40
    p = ExactCover([f"p{k}" for k in range(n)], ["x"])
    for k in range(n - 1):
        p.add_option([f"p{k}", f"p{k + 1}"])
        p.add_option([f"p{k + 1}", "x"], colors={"x": k % 3})
    p.add_option(["p0"])
    cells = colored_cells(p)
    assert len(cells.new_state()) == CC.state_size(n + 1)
    found = CellsRun(p, cells=cells).all_solutions(per_call=10)
    assert sorted(map(tuple, found)) == sorted(
        tuple(s) for s in p.solutions(algorithm="links")
    )


def test_batches_search_as_fresh_counts_on_any_number_of_threads():
    p = load(DATA / "dlx2" / "words-3x3.dlx")
    givens = [[k] for k in range(0, len(p), 37)] + [[0, 1], []]
    one = p.solve_batch(givens, limit=1000, algorithm="cells")
    two = p.solve_batch(givens, limit=1000, algorithm="cells", threads=2)
    assert np.array_equal(one.counts, two.counts)
    assert np.array_equal(one.nodes, two.nodes)
    assert one.counts[-1] == 119 and one.nodes[-1] == 491  # ssxcc's
    for b, g in enumerate(givens):
        expected = p.count(given=g, algorithm="links")
        if one.counts[b] == -1:  # the givens clash: nothing to find
            assert expected == 0
        else:
            assert one.counts[b] == expected
        if one.counts[b] > 0:
            solution = set(g) | {k for k in one.solutions[b] if k >= 0}
            used = [
                x for k in solution for x in p.options[k] if x in p.primary
            ]
            assert sorted(used) == sorted(p.primary)
