"""Cold start: what a user waits for the first answer in a fresh process.

A new interpreter imports the package and solves one 9x9 puzzle; the wall
time of the whole process is measured, first with an empty numba cache
(``NUMBA_CACHE_DIR`` set to a fresh temporary directory, so every kernel is
compiled) and then with the cache that run left behind (warm).  The same
for the numba-based peer xcover, and ``python -c pass`` / ``import numba``
as the floor.

    python bench/cold_start.py                 # table on stdout
    python bench/cold_start.py --json cold.json

The dancing-cells row counts Langford pairs (n = 7) with
``algorithm="cells"``, which compiles that kernel family instead of
dancing links.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

PUZZLE = (
    "4.....8.5.3..........7......2.....6.....8.4......1......."
    "6.3.7.5..2.....1.4......"
)

OURS = f"""
import sudoku
grid = sudoku.solve({PUZZLE!r})
assert grid is not None and grid.is_complete
"""

OURS_ENGINE = f"""
import dlx
puzzle = {PUZZLE!r}
p = dlx.ExactCover([f"{{f}}{{a}}{{b}}" for f in "prcb" for a in range(9)
                    for b in range(9)])
for cell in range(81):
    r, c = divmod(cell, 9)
    for d in range(9):
        p.add_option([f"p{{r}}{{c}}", f"r{{r}}{{d}}", f"c{{c}}{{d}}",
                      f"b{{(r // 3) * 3 + c // 3}}{{d}}"])
given = [cell * 9 + int(ch) - 1 for cell, ch in enumerate(puzzle)
         if ch != "."]
assert p.solve(given=given) is not None
"""

OURS_CELLS = """
from dlx.problems.langford import langford
assert langford(7).count(algorithm="cells") == 26
"""

XCOVER = f"""
from xcover import covers
puzzle = {PUZZLE!r}
options = []
for cell in range(81):
    r, c = divmod(cell, 9)
    digits = range(9) if puzzle[cell] == "." else [int(puzzle[cell]) - 1]
    for d in digits:
        options.append([f"p{{r}}{{c}}", f"r{{r}}{{d}}", f"c{{c}}{{d}}",
                        f"b{{(r // 3) * 3 + c // 3}}{{d}}"])
assert next(covers(options)) is not None
"""

SOLVERS = {
    "dlx-toolkit (sudoku.solve)": OURS,
    "dlx-toolkit (dlx.ExactCover)": OURS_ENGINE,
    "dlx-toolkit (count, dancing cells)": OURS_CELLS,
    "xcover (covers)": XCOVER,
}


def wall(python: str, code: str, cache_dir: str | None) -> float:
    env = dict(os.environ)
    if cache_dir is not None:
        env["NUMBA_CACHE_DIR"] = cache_dir
    t0 = time.perf_counter()
    # Run outside the work tree, as a user of the installed package would.
    proc = subprocess.run(
        [python, "-c", code],
        env=env,
        capture_output=True,
        text=True,
        cwd=tempfile.gettempdir(),
    )
    dt = time.perf_counter() - t0
    if proc.returncode != 0:
        raise RuntimeError(
            proc.stderr.strip().splitlines()[-1]
            if proc.stderr.strip()
            else "failed"
        )
    return dt


def measure(python: str, code: str, reps: int) -> dict:
    empty, warm = [], []
    for _ in range(reps):
        cache = tempfile.mkdtemp(prefix="numba-cold-")
        try:
            empty.append(wall(python, code, cache))
            for _ in range(reps):
                warm.append(wall(python, code, cache))
        finally:
            shutil.rmtree(cache, ignore_errors=True)
    return {
        "empty": min(empty),
        "warm": min(warm),
        "empty_all": empty,
        "warm_all": warm,
    }


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument(
        "--reps",
        type=int,
        default=2,
        help="empty-cache runs (each followed by as many warm "
        "runs); the best is reported",
    )
    ap.add_argument("--json", default=None)
    args = ap.parse_args(argv)

    baseline = min(wall(args.python, "pass", None) for _ in range(3))
    numba_import = min(
        wall(args.python, "import numba", None) for _ in range(3)
    )
    print(
        f"python -c pass: {baseline:.2f} s; import numba: {numba_import:.2f} s"
    )
    results = []
    for name, code in SOLVERS.items():
        try:
            r = measure(args.python, code, args.reps)
        except RuntimeError as e:
            print(f"{name}: failed: {e}")
            continue
        r["solver"] = name
        results.append(r)
        print(
            f"{name}: empty cache {r['empty']:.2f} s, warm cache "
            f"{r['warm']:.2f} s"
        )
    if args.json:
        with open(args.json, "w") as f:
            json.dump(
                {
                    "baseline": baseline,
                    "numba_import": numba_import,
                    "reps": args.reps,
                    "results": results,
                },
                f,
                indent=1,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
