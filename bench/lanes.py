"""The lane engine against the count-based bitset engine, and its settings.

    python bench/lanes.py [--rounds 3] [--only NAME,...] [--variants ...]
                          [--before DIR]

Each case runs on the count-based bitset engine (``dlx.engines.bits``,
``bits``) and on the lane engine (``dlx.engines.lanes``) with its
default settings (``lanes``) and, with ``--variants``, other settings
(``lanes:candidates=0,subsets=0,depth=1``: MRV branching, no subset rule;
``depth`` is ``subset_depth``, ``depth=every`` the subset rule at every
node), in turn round after round, keeping each one's best round; with
``--before DIR``, also the lane engine's defaults of the source tree
``DIR`` (``before``: a fresh process each round, in turn with the rest;
its numba cache in a temporary directory).  Times are CPU seconds of the
whole process (the batches run on a worker thread), which a loaded
machine disturbs less than wall time.  The kernels alone: no parsing, no
``Result`` objects (for those, ``bench/tdoku.py``).  Cases: Sudoku
uniqueness batches (``limit=2``; 9x9 sets, 16x16 with random
relabellings), and counts of every solution of small exact-cover
problems (queens, Langford).  Answers must agree; nodes per instance are
printed, and each time as a ratio to ``lanes``.  Not a test: nothing
asserts a time.
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

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
# (`--child DIR`: a process of `--before`, timing the tree DIR)
TREE = (
    sys.argv[sys.argv.index("--child") + 1]
    if "--child" in sys.argv
    else os.path.dirname(HERE)
)
sys.path.insert(0, TREE)
sys.path.insert(1, HERE)

from peers import DATA  # noqa: E402

if not os.path.isdir(os.path.join(DATA, "sudoku")) and os.path.isdir(
    "/work/shared/data"
):
    DATA = "/work/shared/data"

from dlx.engines import bits, lanes  # noqa: E402
from dlx.engines.base import NO_LIMIT  # noqa: E402
from dlx.problems.langford import langford  # noqa: E402
from dlx.problems.queens import queens  # noqa: E402
from sudoku.grid import bare_cells  # noqa: E402
from sudoku.solver import Symmetry, given_options, problem_for  # noqa: E402

# name: (file, step, n, copies)
SUDOKU = {
    "17clue": ("17clue.txt", 1, 9, 1),
    "top1465": ("top1465.txt", 1, 9, 1),
    "forum": ("forum_hardest_1905_11plus.txt", 5, 9, 1),
    "top95": ("top95.txt", 1, 9, 1),
    "hexadoku16": ("hexadoku16.txt", 1, 16, 20),
    "special16": ("special_large.txt", 1, 16, 10),
}
COUNTS = {
    "queens 12": lambda: queens(12),
    "langford 11": lambda: langford(11),
    "langford 12": lambda: langford(12),
}
#: ``depth=every``: deeper than any search branches.
EVERY = 1 << 30


def sudoku_case(file, step, n, copies):
    """A uniqueness batch: ``(problem, givens, starts)``."""
    with open(os.path.join(DATA, "sudoku", file)) as f:
        lines = [
            line.split()[0]
            for line in f
            if line.strip() and not line.startswith("#")
        ][::step]
    lines = [line for line in lines if len(line) == n * n]
    readable, cells = bare_cells("".join(lines), len(lines), n)
    box = {9: (3, 3), 16: (4, 4)}[n]
    rng = np.random.default_rng(5)
    cells = np.concatenate(
        [cells]
        + [Symmetry.random(rng, box).apply(cells) for _ in range(copies - 1)]
    )
    options, starts = given_options(cells)
    return problem_for(box), options, starts


def contender(spec: str):
    """``(label, arrays builder, batch runner, run class)`` of a spec."""
    if spec == "bits":
        return (spec, bits.BitsArrays.of, bits.run_batch, bits.BitsRun)
    name, _, settings = spec.partition(":")
    options = {}
    for part in filter(None, settings.split(",")):
        key, value = part.split("=")
        key = {"depth": "subset_depth"}.get(key, key)
        if key == "subset_depth" and value == "every":
            value = str(EVERY)
        options[key] = bool(int(value)) if key == "subsets" else int(value)
    return (
        spec,
        lambda p: lanes.LaneArrays.of(p, **options),
        lanes.run_batch,
        lanes.LanesRun,
    )


def time_batch(arrays, runner, options, starts):
    t0 = time.process_time()
    counts, first, work, _ = runner(arrays, options, starts, 2, NO_LIMIT, 1)
    return time.process_time() - t0, counts, work[:, 0].mean()


def time_count(arrays, run_class):
    t0 = time.process_time()
    run = run_class(arrays, [])
    nodes = 0
    if not (run.clash or run.covered):
        run.step(0, NO_LIMIT, False)
        nodes = int(run.counters[0])
    return time.process_time() - t0, int(run.counters[2]), nodes


def time_case(name, contender_, problem, options=None, starts=None):
    """``(seconds, answer, mean nodes)`` of one run of a case."""
    _label, build, runner, run_class = contender_
    arrays = build(problem)
    if name in SUDOKU:
        seconds, counts, mean = time_batch(arrays, runner, options, starts)
        return seconds, counts.tolist(), mean
    return time_count(arrays, run_class)


def child(name: str) -> int:
    """``--child DIR``: one run of ``name`` on DIR's lane defaults, as a
    JSON line."""
    lanes.load_kernels("search", "batch")
    case = sudoku_case(*SUDOKU[name]) if name in SUDOKU else (COUNTS[name](),)
    print(json.dumps(time_case(name, contender("lanes"), *case)))
    return 0


def before_run(tree: str, name: str, cache: str):
    """One run of ``name`` in a fresh process on the tree ``tree``."""
    out = subprocess.run(
        [sys.executable, os.path.abspath(__file__), "--child", tree, name],
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, "NUMBA_CACHE_DIR": cache},
    ).stdout
    seconds, answer, mean = json.loads(out.splitlines()[-1])
    return seconds, answer, mean


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", help="comma-separated case names")
    parser.add_argument(
        "--variants",
        default="",
        help="space-separated lane settings, e.g. "
        "'lanes:candidates=0 lanes:subsets=0 lanes:depth=every'",
    )
    parser.add_argument(
        "--before",
        metavar="DIR",
        help="another source tree whose lane defaults to time as 'before'",
    )
    parser.add_argument("--child", metavar="DIR", help=argparse.SUPPRESS)
    parser.add_argument("case", nargs="?", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        return child(args.case)
    if args.before and not os.path.isdir(os.path.join(args.before, "dlx")):
        parser.error(f"--before {args.before}: no dlx package there")
    specs = ["bits", "lanes"] + args.variants.split()
    contenders = [contender(s) for s in specs]
    labels = specs + (["before"] if args.before else [])
    bits.load_kernels("search", "batch")
    lanes.load_kernels("search", "batch")
    names = list(SUDOKU) + list(COUNTS)
    if args.only:
        names = [n for n in names if n in args.only.split(",")]
    # (before's numba cache: its own, thrown away at the end)
    cache = tempfile.mkdtemp(prefix="lanes-before-") if args.before else ""
    try:
        table(args, names, contenders, labels, cache)
    finally:
        if cache:
            shutil.rmtree(cache, ignore_errors=True)
    return 0


def table(args, names, contenders, labels, cache) -> None:
    """Time every case and print its row (see the module's docstring)."""
    print(f"load average {open('/proc/loadavg').read().split()[:3]}")
    others = [s for s in labels if s != "lanes"]
    print(
        "| case | "
        + " | ".join(f"{s} (s)" for s in labels)
        + " | "
        + " | ".join(f"{s} / lanes" for s in others)
        + " | nodes ("
        + ", ".join(labels)
        + ") |"
    )
    print("|---" * (len(labels) + len(others) + 2) + "|")
    for name in names:
        case = (
            sudoku_case(*SUDOKU[name]) if name in SUDOKU else (COUNTS[name](),)
        )
        answers = {}
        for round_ in range(args.rounds):
            order = contenders if round_ % 2 == 0 else contenders[::-1]
            runs = [
                (c[0], lambda c=c: time_case(name, c, *case)) for c in order
            ]
            if args.before:
                run = ("before", lambda: before_run(args.before, name, cache))
                runs = runs + [run] if round_ % 2 == 0 else [run] + runs
            for label, once in runs:
                try:
                    seconds, answer, mean = once()
                except ValueError:  # the lane engine does not take it
                    continue
                previous = answers.get(label)
                if previous is None or seconds < previous[0]:
                    answers[label] = (seconds, answer, mean)
        got = {label: answers[label][1] for label in answers}
        if len({str(v) for v in got.values()}) > 1:
            raise SystemExit(f"{name}: the answers differ")
        cells = [
            f"{answers[s][0]:.3f}" if s in answers else "-" for s in labels
        ]
        ratios = [
            f"{answers[s][0] / answers['lanes'][0]:.2f}"
            if s in answers and "lanes" in answers
            else "-"
            for s in others
        ]
        mean_nodes = ", ".join(
            f"{answers[s][2]:.1f}" if s in answers else "-" for s in labels
        )
        print(
            f"| {name} | "
            + " | ".join(cells)
            + " | "
            + " | ".join(ratios)
            + f" | {mean_nodes} |",
            flush=True,
        )
    print(f"load average {open('/proc/loadavg').read().split()[:3]}")


if __name__ == "__main__":
    sys.exit(main())
