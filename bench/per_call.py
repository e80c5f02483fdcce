"""The cost of one call on small searches, in two source trees side by
side: what a user pays around the search itself (checking the options,
building the run, the answer) when the search takes microseconds.

    python bench/per_call.py BASE_DIR [OURS_DIR] [--rounds 5]

Each round runs one fresh process per tree and workload, in turn (BASE,
OURS, BASE, ...); a process warms up (numba compiles or loads its cache
there) and keeps the best of three timings of the whole workload.  The
table gives each tree's median over the rounds and the ratio OURS / BASE
(below 1: OURS is faster).  Make BASE with e.g. ``git worktree add
/tmp/base main``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SUDOKU = os.path.normpath(
    os.path.join(HERE, "..", "..", "shared", "data", "sudoku", "17clue.txt")
)
PUZZLE = (
    "4.....8.5.3..........7......2.....6.....8.4......1......."
    "6.3.7.5..2.....1.4......"
)
KNUTH = """
from dlx import ExactCover
p = ExactCover("abcdefg")
p.add_options(["ce", "adg", "bcf", "adf", "bg", "deg"])
"""
#: name, code defining ``run()`` (the timed workload).
WORKLOADS = [
    (
        "sudoku.solve, 300 calls",
        f"import sudoku\n"
        f"def run():\n"
        f"    for _ in range(300): sudoku.solve({PUZZLE!r})\n",
    ),
    (
        "count() of Knuth's example, 3,000 calls",
        KNUTH + "def run():\n    for _ in range(3000): p.count()\n",
    ),
    (
        "solutions(1) of Knuth's example, 3,000 calls",
        KNUTH + "def run():\n    for _ in range(3000): list(p.solutions(1))\n",
    ),
    (
        "best() of Knuth's example with costs, 3,000 calls",
        KNUTH
        + "q = ExactCover('abcdefg')\n"
        + "q.add_options(['ce', 'adg', 'bcf', 'adf', 'bg', 'deg'],"
        + " costs=[1, 2, 3, 4, 5, 6])\n"
        + "def run():\n    for _ in range(3000): q.best()\n",
    ),
    (
        "queens(11).count()",
        "from dlx.problems.queens import queens\np = queens(11)\n"
        "def run(): assert p.count() == 2680\n",
    ),
]
if os.path.exists(SUDOKU):
    WORKLOADS.append(
        (
            "solve_many, 20,000 17-clue puzzles, one thread",
            f"import sudoku\nlines = [l.split()[0] for l in open({SUDOKU!r})"
            f" if l.strip() and not l.startswith('#')][:20000]\n"
            f"def run(): sudoku.solve_many(lines, threads=1)\n",
        )
    )
TIMED = """
import time
run()
times = []
for _ in range(3):
    t0 = time.perf_counter()
    run()
    times.append(time.perf_counter() - t0)
print(min(times))
"""


def timed(tree: str, code: str) -> float:
    done = subprocess.run(
        [sys.executable, "-c", code + TIMED],
        cwd=tree,  # the tree's packages first on sys.path
        capture_output=True,
        text=True,
    )
    if done.returncode:
        raise RuntimeError(f"{tree}: {done.stderr.strip()[-300:]}")
    return float(done.stdout.split()[-1])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("base")
    ap.add_argument("ours", nargs="?", default=os.path.dirname(HERE))
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args(argv)
    if args.rounds < 1:
        ap.error("--rounds must be at least 1")
    trees = {"base": args.base, "ours": args.ours}
    times: dict = {name: {"base": [], "ours": []} for name, _ in WORKLOADS}
    for _ in range(args.rounds):
        for name, code in WORKLOADS:
            for side, tree in trees.items():
                times[name][side].append(timed(tree, code))
    print("| workload | base (s) | ours (s) | ours / base |")
    print("|---|---|---|---|")
    for name, _ in WORKLOADS:
        base = statistics.median(times[name]["base"])
        ours = statistics.median(times[name]["ours"])
        print(f"| {name} | {base:.4f} | {ours:.4f} | {ours / base:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
