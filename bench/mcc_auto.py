"""Links (DLX3) against cells (SSMCC) on problems with bounds: the data
behind ``algorithm="auto"`` for them (``dlx.algorithm.cells_for_bounds``).

    python bench/mcc_auto.py [--rounds 3]

CPU time (``time.process_time``), best of the rounds, the two algorithms
alternating; each line prints links / cells (above 1: cells is faster).
Problems: the bounded files of tests/data/dlx3 and tests/data/ssmcc; the
files of ``shared/data/exactcover`` (when present) given a bound 1..2 on
their first item; rooks and 1-2 queens a line with and without givens;
``solve`` with givens; ``solve_batch`` with one given an instance, and
with 3-8 givens taken from solutions (uniqueness checks, as a Sudoku
batch does).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from dlx import ExactCover  # noqa: E402
from dlx.formats import load  # noqa: E402
from dlx.problems import rooks  # noqa: E402

from xcc import queens_per_line  # noqa: E402

DATA = HERE.parent / "tests" / "data"
SHARED = Path(os.environ.get("DLX_DATA", "/work/shared/data/exactcover"))
ONE_BOUND = [
    "queens-10.dlx",
    "queens-12.dlx",
    "langford-11-half.dlx",
    "pentomino-6x10-xquarter.dlx",
    "sudoku-hardest-0001.dlx",
    "sudoku-ai-escargot.dlx",
    "sudoku-grids-4x4.dlx",
]


def one_bound(path):
    """The problem of ``path`` with its first primary item bounded 1..2."""
    p = load(path)
    q = ExactCover(p.primary, p.secondary, bounds={p.primary[0]: (1, 2)})
    for option in p.options:
        q.add_option(option)
    return q


def best_cpu(call, rounds):
    """CPU seconds of ``call`` for each algorithm, best of ``rounds``, the
    algorithms alternating; ``call(algorithm)`` is first run once
    untimed (numba's compile or cache load)."""
    for algorithm in ("links", "cells"):
        call(algorithm)
    # Repeat tiny calls so that one measurement lasts about 20 ms.
    t0 = time.process_time()
    call("links")
    reps = max(1, int(0.02 / max(time.process_time() - t0, 1e-6)))
    best = {}
    for _ in range(rounds):
        for algorithm in ("links", "cells"):
            t0 = time.process_time()
            for _ in range(reps):
                call(algorithm)
            dt = (time.process_time() - t0) / reps
            best[algorithm] = min(best.get(algorithm, dt), dt)
    return best


def report(name, best):
    print(
        f"{name}: links {best['links'] * 1e3:.3f} ms, cells "
        f"{best['cells'] * 1e3:.3f} ms, links / cells "
        f"{best['links'] / best['cells']:.2f}",
        flush=True,
    )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    r = args.rounds
    for path in sorted((DATA / "dlx3").glob("*.dlx")) + sorted(
        (DATA / "ssmcc").glob("*.dlx")
    ):
        p = load(path)
        if p.bounds:
            report(
                f"count {path.name}",
                best_cpu(lambda a: p.count(algorithm=a), r),
            )
    for name in ONE_BOUND:
        if (SHARED / name).exists():
            p = one_bound(SHARED / name)
            report(
                f"count {name}, first item 1..2",
                best_cpu(lambda a: p.count(algorithm=a), r),
            )
    counts = [
        ("rooks 6x6, 2 a line", rooks.rooks(6, 2), []),
        ("rooks 7x7, 2 a line", rooks.rooks(7, 2), []),
        ("rooks 7x7, 2 a line, 4 givens", rooks.rooks(7, 2), [0, 1, 9, 10]),
        (
            "rooks 7x7, 2 a line, 8 givens",
            rooks.rooks(7, 2),
            [0, 1, 9, 10, 16, 18, 25, 27],
        ),
        ("1-2 queens a line 10x10", queens_per_line(10, 1, 2), []),
        ("1-2 queens a line 11x11", queens_per_line(11, 1, 2), []),
        (
            "1-2 queens a line 11x11, 2 givens",
            queens_per_line(11, 1, 2),
            [0, 13],
        ),
        (
            "1-2 queens a line 11x11, 6 givens",
            queens_per_line(11, 1, 2),
            [0, 13, 26, 39, 52, 65],
        ),
    ]
    for name, p, given in counts:
        report(
            f"count {name}",
            best_cpu(lambda a: p.count(given=given, algorithm=a), r),
        )
        if given:
            report(
                f"solve {name}",
                best_cpu(lambda a: p.solve(given=given, algorithm=a), r),
            )
    for name, p in (
        ("rooks 6x6, 2 a line", rooks.rooks(6, 2)),
        ("1-2 queens a line 9x9", queens_per_line(9, 1, 2)),
    ):
        givens = [[k] for k in range(len(p))]
        for limit in (2, 10**9):
            report(
                f"solve_batch {name}, one given each, limit {limit}",
                best_cpu(
                    lambda a: p.solve_batch(givens, limit=limit, algorithm=a),
                    r,
                ),
            )
    # Uniqueness checks of partial solutions: the Sudoku-like batch.
    for name, p, k in (
        ("rooks 7x7, 2 a line", rooks.rooks(7, 2), 8),
        ("1-2 queens a line 11x11", queens_per_line(11, 1, 2), 6),
        ("1-2 queens a line 11x11", queens_per_line(11, 1, 2), 3),
    ):
        rng = random.Random(1)
        givens = [rng.sample(s, k) for s in p.solutions(limit=200)]
        report(
            f"solve_batch {name}, 200 instances of {k} givens from "
            f"solutions, limit 2",
            best_cpu(lambda a: p.solve_batch(givens, limit=2, algorithm=a), r),
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
