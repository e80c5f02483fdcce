"""The k cheapest solutions: dlx-toolkit's DLX5 kernel side by side with
Knuth's DLX5, and with CP-SAT (OR-Tools) where it is installed.

    python bench/costs.py                       # every instance, 3 rounds
    python bench/costs.py --rounds 1 --only pento-6x10
    python bench/costs.py --dlx5 PATH --markdown bench/RESULTS_COSTS.md

Knuth's program is not part of this project: build it from ``dlx5.w``
(ascherer/cwebtest) with ``ctangle dlx5.w && cc -O2 -o dlx5 dlx5.c`` and
point ``--dlx5`` at it (default ``/work/knuth/dlx5``); without it, its
column is empty.  CP-SAT (``pip install ortools``) solves the same
set-partitioning model (one boolean per option, each primary item
covered once, each secondary item at most once, colors by one boolean per
item and color) for ``k = 1`` only, on one worker.

The instances are made here, deterministically, and written to a
temporary folder as DLX files that both programs read:

* ``pento-RxC``: the 12 pentominoes in an R x C box, each placement
  costing (the piece's rank in FILNPTUVWXYZ) x (the distance of its
  nearest cell from the corner, rows plus columns);
* ``timetable``: ``dlx.problems.timetable`` on 14 exams of 2 to 4 of 60
  students, 4 rooms and 5 slots (random, seeded);
* ``colors``: 1000 random options with colors and costs on 60 primary
  and 10 secondary items (seeded).

Times are CPU seconds (the machine is shared: wall times vary more than
CPU times), the best of the rounds, run in turn; ours is the whole
``best(k)`` call (arrays built and searched), dlx5's the whole process.
Nodes and updates are checked equal to dlx5's, and the costs too.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from dlx import ExactCover
from dlx.formats import dumps, load
from dlx.problems.polyomino import polyomino
from dlx.problems.timetable import timetable

LETTERS = "FILNPTUVWXYZ"


def pento(board: str) -> ExactCover:
    base = polyomino(board)
    problem = ExactCover(base.primary)
    for piece, *cells in base.options:
        corner = min(int(c[0], 36) + int(c[1], 36) for c in cells)
        problem.add_option(
            [piece, *cells], cost=(LETTERS.index(piece) + 1) * corner
        )
    return problem


def exams(seed=9, nexams=14, nstudents=60, nrooms=4, nslots=5, most=4):
    r = random.Random(seed)
    people = [f"s{i}" for i in range(nstudents)]
    sitting = {
        f"x{i}": r.sample(people, r.randint(2, most)) for i in range(nexams)
    }
    rooms = {
        f"r{i}": (r.randint(2, most + 1), r.randint(1, 9))
        for i in range(nrooms)
    }
    slots = {f"t{i}": r.randint(0, 6) for i in range(nslots)}
    return timetable(sitting, rooms, slots)


def colors(seed=12, nprimary=60, nsecondary=10, noptions=1000, most=40):
    r = random.Random(seed)
    primary = [f"p{i}" for i in range(nprimary)]
    secondary = [f"s{i}" for i in range(nsecondary)]
    problem = ExactCover(primary, secondary)
    for _ in range(noptions):
        items = r.sample(primary, r.randint(1, 4)) + r.sample(
            secondary, r.randint(0, 2)
        )
        paint = {
            x: r.choice("ab")
            for x in items
            if x in secondary and r.random() < 0.6
        }
        problem.add_option(items, paint or None, cost=r.randint(0, most))
    return problem


INSTANCES = {
    "pento-4x15": (lambda: pento("4x15"), 1),
    "pento-5x12": (lambda: pento("5x12"), 1),
    "pento-6x10": (lambda: pento("6x10"), 1),
    "pento-6x10-k10": (lambda: pento("6x10"), 10),
    "timetable": (exams, 1),
    "colors": (colors, 1),
    "colors-k5": (colors, 5),
}


def run_dlx5(binary: str, path: str, k: int):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(path) as stdin:
        done = subprocess.run(
            [binary, f"k{k}", "v17"],
            stdin=stdin,
            capture_output=True,
            text=True,
        )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (
        after.ru_stime - before.ru_stime
    )
    err = done.stderr
    m = re.search(
        r"Altogether (\d+) solutions?, .*? (\d+) updates, .*?"
        r"(\d+) nodes",
        err,
    )
    costs = []
    for cost, times in re.findall(
        r"\$(\d+)(?: \(repeated (\d+) times\))?", err.split("optimum cost")[-1]
    ):
        costs += [int(cost)] * int(times or 1)
    return cpu, (int(m.group(3)), int(m.group(2))), costs


def run_ours(path: str, k: int):
    t = time.process_time()
    problem = load(path, max_name_length=None)
    found = problem.best(k)
    cpu = time.process_time() - t
    return (
        cpu,
        (problem.stats.nodes, problem.stats.updates),
        [c for c, _ in found],
    )


def run_cpsat(problem: ExactCover, limit: float):
    try:
        from ortools.sat.python import cp_model
    except ImportError:
        return None
    t = time.process_time()
    wall = time.perf_counter()
    model = cp_model.CpModel()
    x = [model.NewBoolVar(f"o{k}") for k in range(len(problem))]
    uses: dict = {}
    painted: dict = {}
    for k, option in enumerate(problem.options):
        paint = problem.option_colors(k)
        for item in option:
            if item in paint:
                painted.setdefault(item, {}).setdefault(
                    paint[item], []
                ).append(x[k])
            else:
                uses.setdefault(item, []).append(x[k])
    primary = set(problem.primary)
    for item in problem.items:
        plain = uses.get(item, [])
        flags = []
        for color, options in painted.get(item, {}).items():
            flag = model.NewBoolVar(f"{item}:{color}")
            for v in options:
                model.AddImplication(v, flag)
            flags.append(flag)
        if item in primary:
            model.Add(sum(plain) == 1)
        else:
            model.Add(sum(plain) + sum(flags) <= 1)
    model.Minimize(sum(c * v for c, v in zip(problem.costs, x)))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = limit
    status = solver.Solve(model)
    cpu = time.process_time() - t
    if status == cp_model.FEASIBLE:
        return (
            f"found {int(round(solver.ObjectiveValue()))}, no proof "
            f"in {limit:.0f} s"
        ), None
    if status != cp_model.OPTIMAL:
        return f"nothing in {limit:.0f} s", None
    return cpu, int(round(solver.ObjectiveValue())), time.perf_counter() - wall


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dlx5", default="/work/knuth/dlx5")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", help="comma-separated instance names")
    parser.add_argument("--cpsat-limit", type=float, default=60.0)
    parser.add_argument("--no-cpsat", action="store_true")
    parser.add_argument("--markdown", help="also write the table here")
    args = parser.parse_args(argv)
    names = args.only.split(",") if args.only else list(INSTANCES)
    have_dlx5 = os.access(args.dlx5, os.X_OK)
    # numba compiles (or loads its cache) outside the timing.
    ExactCover("a").best()
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for name in names:
            make, k = INSTANCES[name]
            problem = make()
            path = os.path.join(folder, f"{name}.dlx")
            with open(path, "w") as handle:
                handle.write(dumps(problem, max_name_length=None))
            ours = theirs = None
            for _ in range(args.rounds):
                if have_dlx5:
                    got = run_dlx5(args.dlx5, path, k)
                    theirs = (
                        got if theirs is None or got[0] < theirs[0] else theirs
                    )
                got = run_ours(path, k)
                ours = got if ours is None or got[0] < ours[0] else ours
            same = ""
            if theirs is not None:
                same = (
                    "yes"
                    if theirs[1:] == ours[1:]
                    else f"NO: dlx5 {theirs[1:]}, ours {ours[1:]}"
                )
            cpsat = None
            if k == 1 and not args.no_cpsat:
                cpsat = run_cpsat(problem, args.cpsat_limit)
            rows.append((name, k, len(problem), ours, theirs, same, cpsat))
            print(_row(*rows[-1]), flush=True)
    load1 = os.getloadavg()[0]
    table = "\n".join(
        [
            f"Load average at the end: {load1:.1f} "
            f"(CPU seconds, best of {args.rounds} rounds taken in turn)",
            "",
            "| instance | k | options | nodes | updates | optimum | "
            "dlx5 s | ours s | dlx5 / ours | same figures | CP-SAT s |",
            "|---|---|---|---|---|---|---|---|---|---|---|",
        ]
        + [_row(*row) for row in rows]
    )
    print()
    print(table)
    if args.markdown:
        Path(args.markdown).write_text(table + "\n")
    return 0


def _row(name, k, noptions, ours, theirs, same, cpsat) -> str:
    cpu, (nodes, updates), costs = ours
    their = f"{theirs[0]:.2f}" if theirs else "-"
    ratio = f"{theirs[0] / cpu:.2f}" if theirs else "-"
    if cpsat is None:
        sat = "-"
    elif isinstance(cpsat[0], str):
        sat = cpsat[0]
    else:
        sat = f"{cpsat[0]:.2f}" + (
            "" if cpsat[1] == costs[0] else f" (cost {cpsat[1]}!)"
        )
    best = costs[0] if len(costs) == 1 else f"{costs[0]}..{costs[-1]}"
    return (
        f"| {name} | {k} | {noptions} | {nodes:,} | {updates:,} | "
        f"{best} | {their} | {cpu:.2f} | {ratio} | {same} | {sat} |"
    )


if __name__ == "__main__":
    sys.exit(main())
