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
    python bench/startup.py --tree OLD --tree NEW   # two checkouts, in turn
    python bench/startup.py --workers        # and queens 15 on 1 and 2 jobs

The commands are run as ``python -m dlx`` and ``python -m sudoku`` with
the interpreter given by ``--python`` (default: this one), from a
temporary directory, so they import the installed package as a user
would, or, with ``--tree DIR`` (repeated: one column each, every command
run for each tree in turn, so that a busy machine's drift falls alike on
all), the packages of the checkout DIR (``PYTHONPATH``).  Each must exit
with the status written beside it.  ``--workers`` adds whole runs of
``dlx queens 15 --count`` on one process and on two (``--jobs``), and the
ratio of their medians: the speed-up as a user sees it, start-up
included (it needs two idle cores to mean anything).
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
#: With --workers: a count on one process and on two.
WORKERS: list[tuple[str, list[str], int, str | None]] = [
    (
        f"dlx queens 15 --count --jobs {jobs}",
        ["-m", "dlx", "queens", "15", "--count", "--jobs", str(jobs)],
        0,
        None,
    )
    for jobs in (1, 2)
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


def tree_envs(ap: argparse.ArgumentParser, trees: list) -> dict:
    """The environment of each ``--tree`` (None: the installed packages),
    its checkout first on ``PYTHONPATH``; a tree without a ``dlx``
    package is a usage error."""
    envs = {}
    for tree in trees:
        env = dict(os.environ)
        if tree is not None:
            tree = os.path.abspath(tree)
            if not os.path.isdir(os.path.join(tree, "dlx")):
                ap.error(f"--tree {tree}: no dlx package there")
            env["PYTHONPATH"] = os.pathsep.join(
                [tree] + [p for p in [env.get("PYTHONPATH")] if p]
            )
        envs[tree] = env
    return envs


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--reps", type=int, default=9, help="runs of each")
    ap.add_argument("--cold", action="store_true", help="empty-cache rows")
    ap.add_argument(
        "--tree",
        action="append",
        default=None,
        metavar="DIR",
        help="a checkout whose packages to run (repeat to compare)",
    )
    ap.add_argument(
        "--workers", action="store_true", help="queens 15 on 1 and 2 jobs"
    )
    ap.add_argument("--markdown", default=None, help="write the table here")
    args = ap.parse_args(argv)
    if args.reps < 1:
        ap.error("--reps must be at least 1")
    trees = args.tree or [None]
    commands = COMMANDS + (WORKERS if args.workers else [])

    envs = tree_envs(ap, trees)
    trees = list(envs)
    for tree in trees:  # warm numba's cache
        for _, command, status, stdin in commands:
            run(args.python, command, status, stdin, envs[tree])
    times = {(t, name): [] for t in trees for name, *_ in commands}
    for _ in range(args.reps):  # in turn, so that load spreads evenly
        for name, command, status, stdin in commands:
            for tree in trees:
                times[tree, name].append(
                    run(args.python, command, status, stdin, envs[tree])
                )
    cold: dict = {}
    if args.cold:
        for name, command, status, stdin in commands[1:]:
            for tree in trees:
                cache = tempfile.mkdtemp(prefix="numba-cold-")
                try:
                    cold[tree, name] = run(
                        args.python,
                        command,
                        status,
                        stdin,
                        dict(envs[tree], NUMBA_CACHE_DIR=cache),
                    )
                finally:
                    shutil.rmtree(cache, ignore_errors=True)

    label = {t: "" if t is None else f" {os.path.basename(t)}" for t in trees}
    head = ["command"]
    for t in trees:
        head += [
            f"median{label[t]} (s)",
            f"min{label[t]} (s)",
            f"over `python -c pass`{label[t]} (s)",
        ]
        if cold:
            head.append(f"empty cache{label[t]} (s)")
    lines = ["| " + " | ".join(head) + " |", "|---" * len(head) + "|"]
    for name, *_ in commands:
        row = [name]
        for t in trees:
            floor = statistics.median(times[t, "python -c pass"])
            median = statistics.median(times[t, name])
            row += [
                f"{median:.3f}",
                f"{min(times[t, name]):.3f}",
                f"{median - floor:+.3f}",
            ]
            if cold:
                row.append(f"{cold[t, name]:.2f}" if (t, name) in cold else "")
        lines.append("| " + " | ".join(row) + " |")
    if args.workers:
        one, two = (name for name, *_ in WORKERS)
        for t in trees:
            ratio = statistics.median(times[t, one]) / statistics.median(
                times[t, two]
            )
            lines.append(f"\njobs 1 / jobs 2{label[t]}: {ratio:.2f}x")
    table = "\n".join(lines)
    print(table)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(table + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
