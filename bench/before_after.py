"""Plain exact-cover counting speed of two source trees, side by side.

    python bench/before_after.py BASE_DIR [OURS_DIR] [--rounds 5]

Each round runs one fresh process per tree, in turn (BASE, OURS, BASE,
...), each counting every problem below on the DLX1 kernel
(``algorithm="links"`` where the tree has that choice) after a warm-up
count (numba
compiles or loads its cache there), and keeping the best ``stats.seconds``
(search only) of three counts; the table gives the best over the rounds
and the ratio OURS / BASE.  Both trees must count the same solutions with
the same nodes and updates.  Make BASE with e.g. ``git archive main | tar
-x -C /tmp/base``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.path.normpath(os.path.join(HERE, "..", "..", "shared", "data",
                                       "exactcover"))

# (name, python expression building the problem in the tree under test)
PROBLEMS = [
    ("queens 13", "__import__('dlx.problems.queens', fromlist=['q'])"
                  ".queens(13)"),
    ("langford 12 (half)", "__import__('dlx.problems.langford', "
                           "fromlist=['l']).langford(12)"),
    ("pentominoes 6x10 (X quarter)",
     "__import__('dlx.problems.polyomino', fromlist=['p'])"
     ".Polyomino('6x10').distinct_problem()"),
    ("sudoku grids 4x4 x 200", "GRIDS"),
]

CHILD = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
import dlx
from dlx.formats import loads
result = {}
for name, expr in json.loads(sys.argv[2]):
    if expr == "GRIDS":
        text = open(sys.argv[3]).read()
        problem = loads(text)
        def once():
            for _ in range(200):
                problem.count()  # "auto" is links here
            return problem.stats.seconds * 200
    else:
        problem = eval(expr)
        def once():
            try:  # the DLX1 kernel, where the tree has a choice
                problem.count(algorithm="links")
            except TypeError:
                problem.count()
            return problem.stats.seconds
    once()
    best = min(once() for _ in range(3))
    s = problem.stats
    result[name] = (best, s.solutions, s.nodes, s.updates)
print(json.dumps(result))
"""


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base")
    parser.add_argument("ours", nargs="?",
                        default=os.path.normpath(os.path.join(HERE, "..")))
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    grids = os.path.join(HERE, "..", "tests", "data", "dlx1",
                         "sudoku-grids-4x4.dlx")
    spec = json.dumps(PROBLEMS)
    best: dict = {"base": {}, "ours": {}}
    for _ in range(args.rounds):
        for label, tree in (("base", args.base), ("ours", args.ours)):
            out = subprocess.run(
                [sys.executable, "-c", CHILD, tree, spec, grids],
                check=True, capture_output=True, text=True,
                env=dict(os.environ, PYTHONPATH=tree)).stdout
            for name, (t, *work) in json.loads(out).items():
                old = best[label].get(name)
                if old is not None and old[1:] != work:
                    raise SystemExit(f"{label}: {name} searched differently")
                if old is None or t < old[0]:
                    best[label][name] = [t, *work]
    print(f"| problem | base (s) | ours (s) | ours / base |")
    print(f"|---|---|---|---|")
    for name, _ in PROBLEMS:
        b, o = best["base"][name], best["ours"][name]
        if b[1:] != o[1:]:
            raise SystemExit(f"{name}: the trees disagree: {b} vs {o}")
        print(f"| {name} | {b[0]:.4f} | {o[0]:.4f} | {o[0] / b[0]:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
