"""Counting benchmarks on the DLX-format instances that DLX1 was run on.

Each reports solutions/s and the nodes and updates of the search (in all,
and per solution) in ``benchmark.extra_info``; compare them with DLX1's
figures for the same files.
"""

import pytest

from conftest import load_instance

# (file, expected solutions, rounds, DLX1 seconds given as reference)
CASES = [
    pytest.param("queens-12.dlx", 14_200, 5, 0.056, id="queens-12"),
    pytest.param("queens-13.dlx", 73_712, 3, 0.225, id="queens-13"),
    pytest.param("langford-11.dlx", 35_584, 5, 0.097, id="langford-11"),
    pytest.param("langford-12.dlx", 216_288, 3, 0.61, id="langford-12"),
    pytest.param("pentomino-6x10-xquarter.dlx", 2_339, 2, 2.24,
                 id="pentomino-6x10-2339"),
    pytest.param("pentomino-6x10.dlx", 9_356, 1, 9.6,
                 id="pentomino-6x10-9356"),
    pytest.param("sudoku-grids-4x4.dlx", 288, 20, None,
                 id="sudoku-grids-4x4"),
    pytest.param("sudoku-grids-6x6.dlx", 28_200_960, 1, 35.8,
                 id="sudoku-grids-6x6", marks=pytest.mark.slow),
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
        solutions=counted, nodes=stats.nodes, updates=stats.updates,
        solutions_per_s=round(counted / best, 1),
        nodes_per_solution=round(stats.nodes / counted, 2),
        updates_per_solution=round(stats.updates / counted, 2),
        dlx1_seconds_given=dlx1,
        x_dlx1=round(best / dlx1, 3) if dlx1 else None)
