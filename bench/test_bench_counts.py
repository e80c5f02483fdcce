"""Counting benchmarks on the DLX-format instances that DLX1 was run on.

Each reports solutions/s and the nodes and updates of the search (in all,
and per solution) in ``benchmark.extra_info``; compare them with DLX1's
figures for the same files.
"""

import pytest

from compare import COUNTING, REFERENCE
from conftest import load_instance

# Timed rounds per problem (the problems are compare.py's).
ROUNDS = {
    "queens-12": 5,
    "queens-13": 3,
    "langford-11": 5,
    "langford-12": 3,
    "pentomino-6x10-2339": 2,
    "pentomino-6x10-9356": 1,
    "sudoku-grids-4x4": 20,
    "sudoku-grids-6x6": 1,
}
SLOW = {"sudoku-grids-6x6"}

# (file, expected solutions, rounds, DLX1 seconds given as reference)
CASES = [
    pytest.param(
        fname,
        expected,
        ROUNDS[key],
        REFERENCE["DLX1 (C, -O3)"].get(key),
        id=key,
        marks=[pytest.mark.slow] if key in SLOW else [],
    )
    for key, (fname, expected, _) in COUNTING.items()
]


@pytest.mark.parametrize("filename,expected,rounds,dlx1", CASES)
def test_count(benchmark, filename, expected, rounds, dlx1):
    problem = load_instance(filename)
    problem.count(limit=1)  # compile or load the kernels before timing
    benchmark.group = "count"
    counted = benchmark.pedantic(problem.count, rounds=rounds, iterations=1)
    assert counted == expected
    stats = problem.stats
    assert stats.complete and stats.solutions == expected
    if benchmark.disabled:  # --benchmark-disable: answers checked, no timings
        return
    best = benchmark.stats.stats.min
    benchmark.extra_info.update(
        solutions=counted,
        nodes=stats.nodes,
        updates=stats.updates,
        solutions_per_s=round(counted / best, 1),
        nodes_per_solution=round(stats.nodes / counted, 2),
        updates_per_solution=round(stats.updates / counted, 2),
        dlx1_seconds_given=dlx1,
        x_dlx1=round(best / dlx1, 3) if dlx1 else None,
    )
