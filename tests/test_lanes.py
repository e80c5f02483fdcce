"""The lane engine's search, pinned: its speed may change, its search not.

The kernel (``dlx.kernels.lanes``) makes a move in the pass of the scan
that follows it, finds MRV's lane by word operations and ranks a lane in
its word by a multiply: each is the same search, done cheaper.  "The
same search" is checked here by what a search counts and finds: for
problems of every shape the engine takes (lanes of 3 to 21 bits, one to
16 a word, secondary items, givens, a Sudoku batch) and every setting
(the subset rule off, at the first levels, at every node; scored
branching), the nodes, the moves, the solutions and the first solution
in the order chosen are those the kernel gave before these changes
(``PINNED``, measured on the tree of main 171eebb).  A change that means
to change the search updates ``PINNED`` and says why.  The answers
themselves are tests/test_bits.py's (against the reference).
"""

import hashlib

import numpy as np
import pytest

from dlx import ExactCover
from dlx.engines import lanes as L
from dlx.engines.base import NO_LIMIT
from dlx.problems.langford import langford
from dlx.problems.queens import queens

from conftest import plain_kernels

#: The settings of ``LaneArrays`` each case runs with.
SETTINGS = {
    "default": {},
    "no subset rule": {"subsets": False},
    "subset rule everywhere": {"subset_depth": 1 << 30},
    "scored branching": {"candidates": 8},
}


def toy():
    """Knuth's seven-item example, f and g secondary."""
    p = ExactCover("abcde", secondary="fg")
    p.add_options(["cef", "adg", "bcf", "ad", "bg", "deg"])
    return p


def scattered(nprimary, nsecondary, noptions, most, seed):
    """A problem of options of 1 to ``most`` items drawn by a fixed LCG
    (no library's random stream: the cases must not move)."""
    state = seed
    p = ExactCover(range(nprimary), range(nprimary, nprimary + nsecondary))
    options = []
    for _ in range(noptions):
        state = (state * 6364136223846793005 + 1442695040888963407) % (1 << 64)
        size = 1 + (state >> 33) % most
        items = set()
        for _ in range(size):
            state = (state * 6364136223846793005 + 1) % (1 << 64)
            items.add(int((state >> 33) % (nprimary + nsecondary)))
        options.append(sorted(items))
    p.add_options(options)
    return p


def grids(nprimary, width):
    """Rooks on a ``nprimary`` x ``width`` board, one in each row and
    column: an option per cell, its row and its column (secondary when
    there are more columns than rows: lanes of ``width + 1`` bits)."""
    columns = range(nprimary, nprimary + width)
    if width > nprimary:
        p = ExactCover(range(nprimary), columns)
    else:
        p = ExactCover([*range(nprimary), *columns])
    for r in range(nprimary):
        for c in range(width):
            p.add_option([r, nprimary + c])
    return p


#: name: a builder of the problem.
COUNTS = {
    "toy": toy,
    "queens 6": lambda: queens(6),
    "queens 8": lambda: queens(8),
    "langford 7": lambda: langford(7),
    "langford 8": lambda: langford(8),
    "scattered 12": lambda: scattered(12, 3, 40, 4, 1),
    "scattered 20": lambda: scattered(20, 0, 90, 3, 7),
    "latin 6x6": lambda: grids(6, 6),
    "wide 3x20": lambda: grids(3, 20),
    "wide 2x40": lambda: grids(2, 40),
}
#: The ones small enough to run as plain Python too.
PLAIN = ("toy", "queens 6", "scattered 12", "latin 6x6")


def record(problem, settings):
    """``(nodes, moves, solutions, first solution in the order chosen)``
    of a search for every solution."""
    run = L.LanesRun(L.LaneArrays.of(problem, **settings), [])
    assert not (run.clash or run.covered)
    _status, rows = run.step(1, NO_LIMIT, True)
    run.step(0, NO_LIMIT, False)
    nodes, moves, solutions = (int(c) for c in run.counters)
    return nodes, moves, solutions, rows[0] if rows else []


def sudoku_record(settings):
    """A uniqueness batch of 9x9 puzzles (tests/data): the total nodes,
    search moves and givens' moves, the counts, and a digest of the first
    solutions in the order chosen."""
    from pathlib import Path

    import sudoku
    from sudoku.solver import given_options, problem_for

    data = Path(__file__).parent / "data"
    lines = []
    for name in ("sudoku_17clue_50.txt", "sudoku_top95.txt"):
        text = (data / name).read_text().splitlines()
        lines += [line.split()[0] for line in text if line.strip()]
    cells = np.stack([sudoku.parse(line).cells for line in lines])
    options, starts = given_options(cells)
    arrays = L.LaneArrays.of(problem_for((3, 3)), **settings)
    counts, first, work, _ = L.run_batch(
        arrays, options, starts, 2, NO_LIMIT, 1
    )
    digest = hashlib.md5(np.ascontiguousarray(first, np.int32)).hexdigest()
    return (
        *(int(v) for v in work.sum(0)),
        counts.tolist().count(1),
        digest[:12],
    )


# Measured on main 171eebb (before issue 36's kernel changes).
PINNED = {
    ("langford 7", "default"): (110, 384, 26, [0, 52, 40, 49, 35, 9, 24]),
    ("langford 7", "no subset rule"): (
        110,
        384,
        26,
        [0, 52, 40, 49, 35, 9, 24],
    ),
    ("langford 7", "scored branching"): (
        107,
        364,
        26,
        [0, 52, 40, 35, 9, 49, 24],
    ),
    ("langford 7", "subset rule everywhere"): (
        104,
        372,
        26,
        [0, 52, 40, 49, 35, 9, 24],
    ),
    ("langford 8", "default"): (
        525,
        1729,
        150,
        [0, 71, 57, 68, 25, 19, 50, 35],
    ),
    ("langford 8", "no subset rule"): (
        525,
        1729,
        150,
        [0, 71, 57, 68, 25, 19, 50, 35],
    ),
    ("langford 8", "scored branching"): (
        501,
        1666,
        150,
        [0, 71, 57, 68, 25, 19, 50, 35],
    ),
    ("langford 8", "subset rule everywhere"): (
        498,
        1670,
        150,
        [0, 71, 57, 68, 25, 19, 50, 35],
    ),
    ("latin 6x6", "default"): (1237, 1956, 720, [0, 7, 14, 21, 28, 35]),
    ("latin 6x6", "no subset rule"): (1237, 1956, 720, [0, 7, 14, 21, 28, 35]),
    ("latin 6x6", "scored branching"): (
        1237,
        1956,
        720,
        [0, 7, 14, 21, 28, 35],
    ),
    ("latin 6x6", "subset rule everywhere"): (
        1237,
        1956,
        720,
        [0, 7, 14, 21, 28, 35],
    ),
    ("queens 6", "default"): (23, 104, 4, [18, 26, 9, 17, 34, 1]),
    ("queens 6", "no subset rule"): (23, 104, 4, [18, 26, 9, 17, 34, 1]),
    ("queens 6", "scored branching"): (23, 92, 4, [18, 26, 9, 17, 34, 1]),
    ("queens 6", "subset rule everywhere"): (
        23,
        104,
        4,
        [18, 26, 9, 17, 34, 1],
    ),
    ("queens 8", "default"): (301, 1082, 92, [32, 3, 20, 26, 45, 14, 57, 55]),
    ("queens 8", "no subset rule"): (
        301,
        1082,
        92,
        [32, 3, 20, 26, 45, 14, 57, 55],
    ),
    ("queens 8", "scored branching"): (
        286,
        1064,
        92,
        [32, 3, 20, 26, 45, 14, 57, 55],
    ),
    ("queens 8", "subset rule everywhere"): (
        301,
        1082,
        92,
        [32, 3, 20, 26, 45, 14, 57, 55],
    ),
    ("scattered 12", "default"): (60, 110, 30, [2, 18, 25, 16, 17]),
    ("scattered 12", "no subset rule"): (61, 111, 30, [2, 18, 25, 16, 17]),
    ("scattered 12", "scored branching"): (60, 108, 30, [2, 18, 25, 16, 17]),
    ("scattered 12", "subset rule everywhere"): (
        60,
        110,
        30,
        [2, 18, 25, 16, 17],
    ),
    ("scattered 20", "default"): (
        3928557,
        4029610,
        2945576,
        [6, 0, 12, 3, 4, 10, 31, 79, 65, 27],
    ),
    ("scattered 20", "no subset rule"): (
        3928557,
        4029610,
        2945576,
        [6, 0, 12, 3, 4, 10, 31, 79, 65, 27],
    ),
    ("scattered 20", "scored branching"): (
        3928567,
        4029683,
        2945576,
        [6, 0, 12, 3, 4, 10, 31, 79, 65, 27],
    ),
    ("scattered 20", "subset rule everywhere"): (
        3931196,
        4021006,
        2945576,
        [6, 0, 12, 3, 4, 10, 31, 79, 65, 27],
    ),
    ("toy", "default"): (1, 3, 1, [0, 4, 3]),
    ("toy", "no subset rule"): (2, 5, 1, [3, 0, 4]),
    ("toy", "scored branching"): (1, 3, 1, [0, 4, 3]),
    ("toy", "subset rule everywhere"): (1, 3, 1, [0, 4, 3]),
    ("wide 2x40", "default"): (1601, 1600, 1560, [0, 41]),
    ("wide 2x40", "no subset rule"): (1601, 1600, 1560, [0, 41]),
    ("wide 2x40", "scored branching"): (1601, 1600, 1560, [0, 41]),
    ("wide 2x40", "subset rule everywhere"): (1601, 1600, 1560, [0, 41]),
    ("wide 3x20", "default"): (7241, 7240, 6840, [0, 21, 42]),
    ("wide 3x20", "no subset rule"): (7241, 7240, 6840, [0, 21, 42]),
    ("wide 3x20", "scored branching"): (7241, 7240, 6840, [0, 21, 42]),
    ("wide 3x20", "subset rule everywhere"): (7241, 7240, 6840, [0, 21, 42]),
    ("sudoku", "default"): (2552, 44546, 2803, 145, "67e68965cc41"),
    ("sudoku", "no subset rule"): (5366, 77187, 2803, 145, "b03abc5171ec"),
    ("sudoku", "scored branching"): (1657, 32738, 2803, 145, "bcfbdec2f4b4"),
    ("sudoku", "subset rule everywhere"): (
        2096,
        38671,
        2803,
        145,
        "038ca122336a",
    ),
}


@pytest.mark.parametrize("setting", sorted(SETTINGS))
@pytest.mark.parametrize("name", sorted(COUNTS))
def test_the_search_is_the_one_pinned(name, setting):
    assert record(COUNTS[name](), SETTINGS[setting]) == PINNED[name, setting]


@pytest.mark.parametrize("setting", sorted(SETTINGS))
def test_a_sudoku_batch_is_the_one_pinned(setting):
    assert sudoku_record(SETTINGS[setting]) == PINNED["sudoku", setting]


@pytest.mark.parametrize("name", PLAIN)
def test_plain_python_searches_the_same(name):
    with plain_kernels(float("inf"), 1 << 62):
        for setting in sorted(SETTINGS):
            got = record(COUNTS[name](), SETTINGS[setting])
            assert got == PINNED[name, setting], setting


def test_a_lanes_rank_in_its_word_by_a_multiply():
    # search() finds the rank of the lane at bit sh of a word as
    # (sh * per_lane) >> 16, per_lane = 2**16 // lw + 1: exact for every
    # lane width the engine takes (2 .. MAX_DEGREE + 1) and bit.
    for lw in range(2, L.MAX_DEGREE + 2):
        per_lane = (1 << 16) // lw + 1
        for sh in range(64):
            assert (sh * per_lane) >> 16 == sh // lw, (lw, sh)
