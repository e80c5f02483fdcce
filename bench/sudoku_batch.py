"""How much faster is ``sudoku.solve_many`` than ``sudoku.solve`` in a loop?

    python bench/sudoku_batch.py [--data DIR] [--loop N] [--take N] [SET ...]

For each puzzle file (default: top95, top1465, the first 10,000 of 17clue)
it times, after a warm-up that compiles or loads the kernels:

* ``solve_many(puzzles, limit=1)`` against ``solve(p)`` for each puzzle
  (first solution only, the same work), and
* ``solve_many(puzzles)`` (``limit=2``: uniqueness checked, the default)
  against ``is_unique(p)`` for each puzzle.

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

import sudoku  # noqa: E402

DEFAULT_DATA = os.environ.get("DLX_BENCH_DATA", os.path.normpath(
    os.path.join(HERE, "..", "..", "shared", "data")))
SETS = ["top95.txt", "top1465.txt", "17clue.txt"]


def load(path: str, take: int) -> list[str]:
    with open(path) as f:
        return [line.split()[0] for line in f if line.strip()][:take]


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
            result.grid, sudoku.parse(puzzle))
        if not ok:
            raise SystemExit(f"wrong answer for {puzzle}: {result}")


def bench_set(name: str, puzzles: list[str], loop_size: int,
              repeat: int) -> None:
    sample = puzzles[:loop_size]
    print(f"\n{name}: {len(puzzles)} puzzles (loops over the first "
          f"{len(sample)})")
    print(f"  {'':28s}{'batch/s':>12s}{'loop/s':>12s}{'ratio':>8s}"
          f"{'nodes/puzzle':>14s}")
    for label, limit, single in (("first solution (limit=1)", 1,
                                  sudoku.solve),
                                 ("unique check (limit=2)", 2,
                                  sudoku.is_unique)):
        batch_s, results = best_of(
            repeat, lambda p: sudoku.solve_many(p, limit=limit), puzzles)
        check(puzzles, results)
        nodes = sudoku.base_problem(3, 3).stats.nodes / len(puzzles)
        # the batch rate on the loop's own puzzles, for a like-for-like ratio
        sample_s, _ = best_of(repeat, lambda p: sudoku.solve_many(
            p, limit=limit), sample)
        loop_s, answers = best_of(1, loop, single, sample)
        if single is sudoku.is_unique:
            assert all(answers)
        rate = len(puzzles) / batch_s
        loop_rate = len(sample) / loop_s
        ratio = loop_s / sample_s
        print(f"  {label:28s}{rate:12,.0f}{loop_rate:12,.0f}{ratio:8.2f}"
              f"{nodes:14,.1f}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("sets", nargs="*", default=SETS, metavar="SET")
    parser.add_argument("--data", default=DEFAULT_DATA,
                        help="directory holding sudoku/ (default: "
                        "../shared/data)")
    parser.add_argument("--take", type=int, default=10_000,
                        help="puzzles per set (default 10,000)")
    parser.add_argument("--loop", type=int, default=2_000,
                        help="puzzles in the one-by-one loops")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    sudoku.solve_many(["." * 81])  # compile or load the kernels
    print(f"warm-up (kernels compiled or loaded): "
          f"{time.perf_counter() - t0:.2f} s")
    for name in args.sets:
        path = os.path.join(args.data, "sudoku", name)
        if not os.path.exists(path):
            print(f"\n{name}: skipped ({path} not found)")
            continue
        bench_set(name, load(path, args.take), args.loop, args.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
