"""Sudoku batch benchmarks: ``sudoku.solve_many`` (one jitted call per
batch, on one thread like the references) solving and proving unique
(limit=2) whole puzzle files.

Each reports puzzles/s, µs per puzzle and the nodes and updates per puzzle
in ``benchmark.extra_info``.  Answers are checked after the timed runs.
"""

import pytest

import peers as P
from compare import SUDOKU
from conftest import load_puzzles

# Timed rounds per batch (the batches are compare.py's).
ROUNDS = {
    "kudoku20": 10,
    "top95": 10,
    "forum_hardest": 3,
    "top1465": 3,
    "17clue-10k": 3,
}

# (file, how many puzzles, rounds)
CASES = [
    pytest.param(fname, full, ROUNDS[key], id=key)
    for key, (fname, full, _) in SUDOKU.items()
]

OURS = P.PEERS["dlx-toolkit"]


@pytest.mark.parametrize("filename,limit,rounds", CASES)
def test_solve_many(benchmark, filename, limit, rounds):
    puzzles = load_puzzles(filename, limit)
    OURS.solve_sudoku_batch(puzzles[:1])  # compile or load the kernels
    benchmark.group = "sudoku"
    output = benchmark.pedantic(
        OURS.solve_sudoku_batch, args=(puzzles,), rounds=rounds, iterations=1
    )
    results = OURS.sudoku_answers(output, puzzles)
    work = P.ours_sudoku_work(puzzles)
    bad = [
        i
        for i, ((n, grid), p) in enumerate(zip(results, puzzles))
        if n != 1 or not P.is_solved_grid(p, grid)
    ]
    assert not bad, f"puzzle {bad[0]} of {filename}: {results[bad[0]]}"
    if benchmark.disabled:  # --benchmark-disable: answers checked, no timings
        return
    best = benchmark.stats.stats.min
    n = len(puzzles)
    benchmark.extra_info.update(
        puzzles=n,
        puzzles_per_s=round(n / best, 1),
        us_per_puzzle=round(1e6 * best / n, 1),
        nodes_per_puzzle=round(work["nodes"] / n, 1),
        updates_per_puzzle=round(work["updates"] / n, 1),
    )
