"""Counting and batch speed of two source trees, side by side.

    python bench/before_after.py BASE_DIR [OURS_DIR] [--rounds 5]

Each round runs one fresh process per tree, in turn (BASE, OURS, BASE,
...), each running every problem below after a warm-up run (numba
compiles or loads its cache there), and keeping the best of three: the
search's own ``stats.seconds`` for a count (DLX1 where the entry says
``links``, dancing cells for ``cells``, the memo for ``memo``), the whole
call for a Sudoku batch (``solve_many``, uniqueness, one thread).  The
table gives the best over the rounds and the ratio OURS / BASE.  Both
trees must find the same solutions with the same nodes and updates.  Make
BASE with e.g. ``git worktree add /tmp/base main``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.path.normpath(
    os.path.join(HERE, "..", "..", "shared", "data", "exactcover")
)

# (name, python expression building the problem in the tree under test,
# how to count it: "links", "cells", "memo", or "batch" for a file of
# Sudoku puzzles)
PROBLEMS = [
    (
        "queens 13",
        "__import__('dlx.problems.queens', fromlist=['q']).queens(13)",
        "links",
    ),
    (
        "langford 12 (half)",
        "__import__('dlx.problems.langford', fromlist=['l']).langford(12)",
        "links",
    ),
    (
        "langford 12 (half), cells",
        "__import__('dlx.problems.langford', fromlist=['l']).langford(12)",
        "cells",
    ),
    (
        "pentominoes 6x10 (X quarter)",
        "__import__('dlx.problems.polyomino', fromlist=['p'])"
        ".Polyomino('6x10').distinct_problem()",
        "links",
    ),
    (
        "pentominoes 6x10 (X quarter), cells",
        "__import__('dlx.problems.polyomino', fromlist=['p'])"
        ".Polyomino('6x10').distinct_problem()",
        "cells",
    ),
    ("sudoku grids 4x4 x 200", "GRIDS", "links"),
    (
        "dominoes 10x10, memo",
        "__import__('dlx.problems.tiling', fromlist=['t']).tiling('10x10')",
        "memo",
    ),
    ("sudoku top95, batch", "top95.txt", "batch"),
    ("sudoku 17clue x 2000, batch", "17clue.txt", "batch"),
]

CHILD = r"""
import json, os, sys, time
sys.path.insert(0, sys.argv[1])
import dlx
from dlx.formats import loads
result = {}
for name, expr, how in json.loads(sys.argv[2]):
    if how == "batch":
        import sudoku
        lines = open(os.path.join(sys.argv[4], expr)).read().split()[:2000]
        def once():
            global figures
            t0 = time.perf_counter()
            found = sudoku.solve_many(lines, limit=2, threads=1)
            seconds = time.perf_counter() - t0
            figures = [sum(1 for r in found if r.status == "solved"), 0, 0]
            return seconds
    elif expr == "GRIDS":
        text = open(sys.argv[3]).read()
        problem = loads(text)
        def once():
            global figures
            for _ in range(200):
                problem.count()  # "auto" is links here
            s = problem.stats
            figures = [s.solutions, s.nodes, s.updates]
            return problem.stats.seconds * 200
    else:
        problem = eval(expr)
        def once():
            global figures
            if how == "memo":
                problem.count(memo=True)
            else:
                problem.count(algorithm=how)
            s = problem.stats
            figures = [s.solutions, s.nodes, s.updates]
            return s.seconds
    once()
    best = min(once() for _ in range(3))
    result[name] = (best, *figures)
print(json.dumps(result))
"""


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base")
    parser.add_argument(
        "ours", nargs="?", default=os.path.normpath(os.path.join(HERE, ".."))
    )
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    grids = os.path.join(
        HERE, "..", "tests", "data", "dlx1", "sudoku-grids-4x4.dlx"
    )
    puzzles = os.path.normpath(
        os.path.join(HERE, "..", "..", "shared", "data", "sudoku")
    )
    spec = json.dumps(PROBLEMS)
    best: dict = {"base": {}, "ours": {}}
    for _ in range(args.rounds):
        for label, tree in (("base", args.base), ("ours", args.ours)):
            out = subprocess.run(
                [sys.executable, "-c", CHILD, tree, spec, grids, puzzles],
                check=True,
                capture_output=True,
                text=True,
                env=dict(os.environ, PYTHONPATH=tree),
            ).stdout
            for name, (t, *work) in json.loads(out).items():
                old = best[label].get(name)
                if old is not None and old[1:] != work:
                    raise SystemExit(f"{label}: {name} searched differently")
                if old is None or t < old[0]:
                    best[label][name] = [t, *work]
    print("| problem | base (s) | ours (s) | ours / base |")
    print("|---|---|---|---|")
    for name, *_ in PROBLEMS:
        b, o = best["base"][name], best["ours"][name]
        if b[1:] != o[1:]:
            raise SystemExit(f"{name}: the trees disagree: {b} vs {o}")
        print(f"| {name} | {b[0]:.4f} | {o[0]:.4f} | {o[0] / b[0]:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
