"""The bitset engine against dancing links: the data behind its size rule.

    python bench/bits.py [--rounds 3] [--only NAME,...]

Each case runs with ``algorithm="links"`` (DLX1, ``mrv_cutoff=1`` for the
Sudoku batches as ``sudoku.solve_many`` uses it) and on the bitset engine
(``dlx.engines.bits``), in turn round after round, keeping each one's best
round; times are CPU seconds of the whole process (the batches run on a
worker thread), which a loaded machine disturbs less than wall time.
Cases: Sudoku uniqueness batches (``limit=2``; 9x9 sets, 16x16 sets with
random relabellings), and counts of every solution of the exact-cover
files (queens, Langford, pentominoes; ``$DLX_BENCH_DATA/exactcover``),
with and without the subset rule for the counts.  Answers must agree.
Not a test: nothing asserts a time.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

from peers import DATA  # noqa: E402

if not os.path.isdir(os.path.join(DATA, "sudoku")) and os.path.isdir(
    "/work/shared/data"
):
    DATA = "/work/shared/data"

import sudoku  # noqa: E402
from dlx.engines import bits  # noqa: E402
from dlx.formats import load  # noqa: E402
from dlx.search import Stats, run  # noqa: E402
from sudoku.solver import Symmetry, given_options, problem_for  # noqa: E402


def sudoku_case(file, step=1, size=None, copies=1):
    """A uniqueness batch: ``(problem, givens, starts)``."""
    path = os.path.join(DATA, "sudoku", file)
    with open(path) as f:
        grids = [
            sudoku.parse(line.split()[0])
            for line in f
            if line.strip() and not line.startswith("#")
        ][::step]
    if size:
        grids = [g for g in grids if g.n == size]
    cells = np.stack([g.cells for g in grids])
    rng = np.random.default_rng(5)
    cells = np.concatenate(
        [cells]
        + [
            Symmetry.random(rng, grids[0].box).apply(cells)
            for _ in range(copies - 1)
        ]
    )
    options, starts = given_options(cells)
    return problem_for(grids[0].box), options, starts


def time_batch(problem, options, starts, engine):
    t0 = time.process_time()
    if engine == "links":
        found = problem.solve_batch(
            options,
            starts=starts,
            limit=2,
            threads=1,
            mrv_cutoff=1,
            algorithm="links",
        ).counts
    else:
        found = bits.solve_batch(
            problem, options, starts, limit=2, threads=1
        ).counts
    return time.process_time() - t0, found.tolist()


def time_count(problem, engine):
    t0 = time.process_time()
    if engine == "links":
        found = problem.count(algorithm="links")
    else:
        arrays = bits.BitsArrays.of(problem, engine == "bits+subsets")
        bits.load_kernels("search")
        t0 = time.process_time()
        found = sum(
            run(
                bits.BitsRun(arrays, []),
                Stats(),
                limit=None,
                max_nodes=None,
                time_limit=None,
                store=False,
                given=[],
            )
        )
    return time.process_time() - t0, found


CASES = {
    "17clue": lambda: sudoku_case("17clue.txt"),
    "top1465": lambda: sudoku_case("top1465.txt"),
    "forum": lambda: sudoku_case("forum_hardest_1905_11plus.txt", 5),
    "top95": lambda: sudoku_case("top95.txt"),
    "hexadoku16x20": lambda: sudoku_case("hexadoku16.txt", copies=20),
    "special_large16x10": lambda: sudoku_case(
        "special_large.txt", size=16, copies=10
    ),
    "queens-12": "queens-12.dlx",
    "langford-11": "langford-11.dlx",
    "pentomino-6x10-2339": "pentomino-6x10-xquarter.dlx",
    "sudoku-grids-4x4": "sudoku-grids-4x4.dlx",
}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--only", default="", help=f"comma-separated, of {', '.join(CASES)}"
    )
    args = parser.parse_args(argv)
    names = [n for n in args.only.split(",") if n] or list(CASES)
    print(f"load average {open('/proc/loadavg').read().split()[0]}")
    print(
        "| case | options | links (s) | bits (s) | bits / links | "
        "bits+subsets / links |"
    )
    print("|---|---|---|---|---|---|")
    bits.load_kernels("batch", "search")
    for name in names:
        case = CASES[name]
        if isinstance(case, str):
            path = os.path.join(DATA, "exactcover", case)
            if not os.path.exists(path):
                print(f"| {name} | - | skipped: {path} absent | | | |")
                continue
            problem = load(path)
            engines = ("links", "bits", "bits+subsets")
            timer = {e: (lambda e=e: time_count(problem, e)) for e in engines}
        else:
            problem, options, starts = case()
            engines = ("links", "bits")
            timer = {
                e: (lambda e=e: time_batch(problem, options, starts, e))
                for e in engines
            }
        best, answers = {}, {}
        for round_ in range(args.rounds):
            order = engines if round_ % 2 == 0 else engines[::-1]
            for engine in order:
                seconds, found = timer[engine]()
                best[engine] = min(best.get(engine, seconds), seconds)
                answers[engine] = found
        if len({str(a) for a in answers.values()}) != 1:
            raise SystemExit(f"{name}: the engines disagree")
        sub = (
            f"{best['bits+subsets'] / best['links']:.2f}"
            if "bits+subsets" in best
            else "-"
        )
        print(
            f"| {name} | {len(problem):,} | {best['links']:.3f} | "
            f"{best['bits']:.3f} | {best['bits'] / best['links']:.2f} | "
            f"{sub} |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
