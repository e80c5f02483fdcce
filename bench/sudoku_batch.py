"""How much faster is ``sudoku.solve_many`` than ``sudoku.solve`` in a loop?

    python bench/sudoku_batch.py [--data DIR] [--loop N] [--take N] [SET ...]

For each puzzle file (default: top95, top1465, the first 10,000 of 17clue)
it times, after a warm-up that compiles or loads the kernels:

* ``solve_many(puzzles, limit=1)`` against ``solve(p)`` for each puzzle
  (first solution only, the same work), and
* ``solve_many(puzzles)`` (``limit=2``: uniqueness checked, the default)
  against ``is_unique(p)`` for each puzzle,

with the batch on one thread and on two (``threads=2``).

The loops run over the first ``--loop`` puzzles only (default 2,000) and
are compared per puzzle on those same puzzles.  Every answer is checked
before the numbers are printed.  Not a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

import sudoku  # noqa: E402

from peers import DATA, read_puzzles  # noqa: E402

SETS = ["top95.txt", "top1465.txt", "17clue.txt"]


def best_of(repeat: int, fn, *args):
    """(fewest seconds, result) over ``repeat`` runs."""
    best = float("inf")
    result = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn(*args)
        best = min(best, time.perf_counter() - t0)
    return best, result


def loop(fn, puzzles):
    return [fn(p) for p in puzzles]


def check(puzzles, results) -> None:
    for puzzle, result in zip(puzzles, results):
        ok = result.status == "solved" and sudoku.is_valid_solution(
            result.grid, sudoku.parse(puzzle)
        )
        if not ok:
            raise SystemExit(f"wrong answer for {puzzle}: {result}")


def bench_set(
    name: str, puzzles: list[str], loop_size: int, repeat: int
) -> None:
    sample = puzzles[:loop_size]
    print(
        f"\n{name}: {len(puzzles)} puzzles (loops over the first "
        f"{len(sample)})"
    )
    print(
        f"  {'':26s}{'batch/s':>10s}{'2 threads':>11s}{'loop/s':>9s}"
        f"{'ratio':>7s}{'ratio 2t':>9s}{'nodes':>8s}"
    )
    stack = [sudoku.parse(p).cells for p in puzzles]
    for label, limit, single in (
        ("first solution (limit=1)", 1, sudoku.solve),
        ("unique check (limit=2)", 2, sudoku.is_unique),
    ):

        def batch(p, threads=1):
            return sudoku.solve_many(p, limit=limit, threads=threads)

        batch_s, results = best_of(repeat, batch, puzzles)
        check(puzzles, results)
        nodes = sudoku.solve_cells(stack, limit=limit).nodes.mean()
        threaded_s, results = best_of(repeat, batch, puzzles, 2)
        check(puzzles, results)
        # Ratios compare the batch and the loop on the same puzzles.
        sample_s, _ = best_of(repeat, batch, sample)
        sample_2t, _ = best_of(repeat, batch, sample, 2)
        loop_s, answers = best_of(repeat, loop, single, sample)
        if single is sudoku.is_unique:
            assert all(answers)
        print(
            f"  {label:26s}{len(puzzles) / batch_s:10,.0f}"
            f"{len(puzzles) / threaded_s:11,.0f}"
            f"{len(sample) / loop_s:9,.0f}{loop_s / sample_s:7.2f}"
            f"{loop_s / sample_2t:9.2f}{nodes:8,.0f}"
        )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("sets", nargs="*", default=SETS, metavar="SET")
    parser.add_argument(
        "--data",
        default=DATA,
        help="directory holding sudoku/ (default: ../shared/data)",
    )
    parser.add_argument(
        "--take",
        type=int,
        default=10_000,
        help="puzzles per set (default 10,000)",
    )
    parser.add_argument(
        "--loop",
        type=int,
        default=2_000,
        help="puzzles in the one-by-one loops",
    )
    parser.add_argument(
        "--repeat",
        type=int,
        default=3,
        help="runs per timing; the fastest counts",
    )
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    sudoku.solve_many(["." * 81])  # compile or load the kernels
    print(
        f"warm-up (kernels compiled or loaded): "
        f"{time.perf_counter() - t0:.2f} s"
    )
    for name in args.sets:
        path = os.path.join(args.data, "sudoku", name)
        if not os.path.exists(path):
            print(f"\n{name}: skipped ({path} not found)")
            continue
        bench_set(name, read_puzzles(path, args.take), args.loop, args.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
