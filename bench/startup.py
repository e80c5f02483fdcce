"""Start-up: how long the commands take to give their first answer.

Each command runs as a whole process, in turn with the others, ``--reps``
times; the median and the minimum of each are printed beside the
interpreter's own start (``python -c pass``), and the figure that matters
is the difference: what the command adds to an empty interpreter.  numba's
cache is warm (every command runs once before the timing); ``--cold``
adds a row per command whose first run compiles into an empty cache
(``NUMBA_CACHE_DIR`` set to a fresh directory).

    python bench/startup.py                  # the table on stdout
    python bench/startup.py --reps 15 --markdown startup.md
    python bench/startup.py --cold           # and each with an empty cache

The commands are run as ``python -m dlx`` and ``python -m sudoku`` with
the interpreter given by ``--python`` (default: this one), from a
temporary directory, so they import the installed package as a user
would.  Each must exit with the status written beside it.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

PUZZLE = (
    "4.....8.5.3..........7......2.....6.....8.4......1......."
    "6.3.7.5..2.....1.4......"
)
# Knuth's seven-item example (dlx1.w).
TINY = "a b c d e f g\nc e\na d g\nb c f\na d f\nb g\nd e g\n"

#: name, argv after ``python``, expected exit status, standard input.
COMMANDS: list[tuple[str, list[str], int, str | None]] = [
    ("python -c pass", ["-c", "pass"], 0, None),
    ("dlx --version", ["-m", "dlx", "--version"], 0, None),
    ("dlx --help", ["-m", "dlx", "--help"], 0, None),
    ("dlx solve --help", ["-m", "dlx", "solve", "--help"], 0, None),
    ("dlx (usage error)", ["-m", "dlx", "solve", "--bogus"], 2, None),
    ("dlx solve (7 items)", ["-m", "dlx", "solve", "-"], 0, TINY),
    ("dlx queens 8 --count", ["-m", "dlx", "queens", "8", "--count"], 0, None),
    ("sudoku --version", ["-m", "sudoku", "--version"], 0, None),
    ("sudoku --help", ["-m", "sudoku", "--help"], 0, None),
    ("sudoku (usage error)", ["-m", "sudoku", "solve", "--bogus"], 2, None),
    ("sudoku solve PUZZLE", ["-m", "sudoku", "solve", PUZZLE], 0, None),
]


def run(python: str, argv: list[str], status: int, stdin, env) -> float:
    t0 = time.perf_counter()
    done = subprocess.run(
        [python, *argv],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        cwd=tempfile.gettempdir(),
    )
    elapsed = time.perf_counter() - t0
    if done.returncode != status:
        raise RuntimeError(
            f"{' '.join(argv)}: exit {done.returncode}, expected {status}: "
            f"{done.stderr.strip()[-200:]}"
        )
    return elapsed


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--reps", type=int, default=9, help="runs of each")
    ap.add_argument("--cold", action="store_true", help="empty-cache rows")
    ap.add_argument("--markdown", default=None, help="write the table here")
    args = ap.parse_args(argv)
    if args.reps < 1:
        ap.error("--reps must be at least 1")

    env = dict(os.environ)
    for _, command, status, stdin in COMMANDS:  # warm numba's cache
        run(args.python, command, status, stdin, env)
    times: dict[str, list[float]] = {name: [] for name, *_ in COMMANDS}
    for _ in range(args.reps):  # in turn, so that load spreads evenly
        for name, command, status, stdin in COMMANDS:
            times[name].append(run(args.python, command, status, stdin, env))
    cold: dict[str, float] = {}
    if args.cold:
        for name, command, status, stdin in COMMANDS[1:]:
            cache = tempfile.mkdtemp(prefix="numba-cold-")
            try:
                cold[name] = run(
                    args.python,
                    command,
                    status,
                    stdin,
                    dict(env, NUMBA_CACHE_DIR=cache),
                )
            finally:
                shutil.rmtree(cache, ignore_errors=True)

    floor = statistics.median(times["python -c pass"])
    lines = [
        "| command | median (s) | min (s) | median over `python -c pass` (s)"
        + (" | empty cache (s) |" if cold else " |"),
        "|---|---|---|---" + ("|---|" if cold else "|"),
    ]
    for name, *_ in COMMANDS:
        median = statistics.median(times[name])
        row = (
            f"| {name} | {median:.3f} | {min(times[name]):.3f} | "
            f"{median - floor:+.3f} |"
        )
        if cold:
            row += f" {cold[name]:.2f} |" if name in cold else " |"
        lines.append(row)
    table = "\n".join(lines)
    print(table)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(table + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
