"""The lane engine against the count-based bitset engine, and its settings.

    python bench/lanes.py [--rounds 3] [--only NAME,...] [--variants ...]
                          [--before DIR] [--paired DIR]

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

``--paired DIR`` times two lane kernels head to head in one process
instead: this tree's ``dlx/kernels/lanes.py`` and ``DIR``'s (loaded
beside it from a temporary package, its numba cache there), both on this
tree's arrays and defaults, every case a batch of ``solve_batch`` (the
counts as one instance without givens), the two in turn ``--rounds``
times, best round each (process CPU time).  A shared machine disturbs
both alike, so their ratio is steadier than ``--before``'s.  The
nodes, moves and answers (counts and first solutions, in the order
chosen) must be the same: a kernel change that keeps the search.
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
    parser.add_argument(
        "--paired",
        metavar="DIR",
        help="time this tree's lane kernel against DIR's in one process",
    )
    parser.add_argument("--child", metavar="DIR", help=argparse.SUPPRESS)
    parser.add_argument("case", nargs="?", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        return child(args.case)
    if args.before and not os.path.isdir(os.path.join(args.before, "dlx")):
        parser.error(f"--before {args.before}: no dlx package there")
    if args.paired:
        kernel = os.path.join(args.paired, "dlx", "kernels", "lanes.py")
        if not os.path.isfile(kernel):
            parser.error(f"--paired {args.paired}: no {kernel}")
        names = list(SUDOKU) + list(COUNTS)
        if args.only:
            names = [n for n in names if n in args.only.split(",")]
        paired(kernel, names, args.rounds)
        return 0
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


def kernel_beside(path: str, package: str):
    """The lane kernel file ``path`` as the module ``package.lanes``, a
    temporary package beside this tree's (its ``jit`` this tree's)."""
    import importlib

    from dlx.kernels import jit

    root = tempfile.mkdtemp(prefix="lanes-paired-")
    os.makedirs(os.path.join(root, package))
    open(os.path.join(root, package, "__init__.py"), "w").close()
    shutil.copy(jit.__file__, os.path.join(root, package, "jit.py"))
    shutil.copy(path, os.path.join(root, package, "lanes.py"))
    sys.path.insert(0, root)
    return importlib.import_module(f"{package}.lanes"), root


def paired(path: str, names, rounds: int) -> None:
    """``--paired``: this tree's lane kernel against the file ``path``
    (see the module's docstring)."""
    from dlx.kernels import lanes as here

    other, root = kernel_beside(path, "lanes_paired_other")
    try:
        print(f"load average {open('/proc/loadavg').read().split()[:3]}")
        print(
            "| case | this kernel (us an instance, or s) | other / this "
            "| nodes | moves |"
        )
        print("|---|---|---|---|---|")
        for name in names:
            if name in SUDOKU:
                problem, given, starts = sudoku_case(*SUDOKU[name])
                limit = 2
            else:
                problem, limit = COUNTS[name](), 0
                given, starts = np.zeros(0, np.int32), np.zeros(2, np.int64)
            try:
                arrays = lanes.LaneArrays.of(problem)
            except ValueError:  # the lane engine does not take it
                continue
            given = np.asarray(given, np.int32)
            starts = np.asarray(starts, np.int64)
            best, seen = {}, {}
            for round_ in range(rounds + 1):  # (round 0: compiles)
                kernels = (here, other) if round_ % 2 else (other, here)
                for kernel in kernels:
                    seconds, answer = paired_run(
                        kernel, arrays, given, starts, limit
                    )
                    seen.setdefault(kernel.__name__, answer)
                    if seen[kernel.__name__] != answer:
                        raise SystemExit(f"{name}: a kernel changed answer")
                    if round_:
                        previous = best.get(kernel.__name__, seconds)
                        best[kernel.__name__] = min(previous, seconds)
            if seen[here.__name__] != seen[other.__name__]:
                raise SystemExit(f"{name}: the kernels search differently")
            ninstances = len(starts) - 1
            mine = best[here.__name__]
            shown = (
                f"{mine / ninstances * 1e6:.2f} us"
                if name in SUDOKU
                else f"{mine:.4f} s"
            )
            nodes, moves = seen[here.__name__][:2]
            print(
                f"| {name} | {shown} | {best[other.__name__] / mine:.3f} "
                f"| {nodes / ninstances:.1f} | {moves / ninstances:.1f} |",
                flush=True,
            )
        print(f"load average {open('/proc/loadavg').read().split()[:3]}")
    finally:
        shutil.rmtree(root, ignore_errors=True)


def paired_run(kernel, arrays, given, starts, limit):
    """One ``solve_batch`` of ``kernel``: ``(CPU seconds, (nodes, moves,
    a digest of the counts and first solutions))``."""
    import hashlib

    nbatch = len(starts) - 1
    first = np.zeros((nbatch, arrays.width), np.int32)
    first_len = np.zeros(nbatch, np.int32)
    counts = np.zeros(nbatch, np.int64)
    work = np.zeros((nbatch, 3), np.int64)
    stop = np.zeros(1, np.int64)
    t0 = time.process_time()
    kernel.solve_batch(
        *arrays.batch_arrays(),
        given,
        starts,
        limit,
        NO_LIMIT,
        first,
        first_len,
        counts,
        work,
        stop,
    )
    seconds = time.process_time() - t0
    digest = hashlib.md5(counts.tobytes() + first.tobytes()).hexdigest()
    return seconds, (int(work[:, 0].sum()), int(work[:, 1].sum()), digest)


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
