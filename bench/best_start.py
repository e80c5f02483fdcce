"""The cheapest packing as whole processes: ``dlx solve F --best 1``
against Knuth's DLX5 on Scott's pentomino packing with costs (issue 36).

    DLX5=/path/to/dlx5 python bench/best_start.py --tree .
    python bench/best_start.py --dlx5 PATH --tree OLD --tree NEW --reps 9
    python bench/best_start.py --tree . --split    # and where the time goes
    python bench/best_start.py --tree . --what-if  # and what would help
    python bench/best_start.py --write scott.dlx   # just the instance

The instance: Dana Scott's packing (1958), the 12 pentominoes and a 2x2
square (``O``) on an 8x8 board, every placement of every piece an option
(2,357 options; items the 13 piece names, then the 64 cells ``00`` to
``77``), each option with a cost drawn from ``random.Random(--seed)``,
0 to ``--most``, written as DLX5 writes costs (``|n`` after the items)
to a temporary file that both programs read.  It is made by
``dlx.problems.polyomino`` of this checkout, seeded: the same file every
run (its SHA-256 is printed).

Knuth's program is not part of this project: build it from ``dlx5.w``
(ascherer/cwebtest) with ``ctangle ./dlx5.w - dlx5.c``, ``ctangle
./gb_flip.w`` and ``cc -O3 -o dlx5 dlx5.c gb_flip.c``, and point
``--dlx5`` (or the environment variable ``DLX5``) at it.  It runs as
``dlx5 m1 < F``: with its default ``k1`` it keeps the cheapest solution
found so far and, with ``m1``, prints each solution that improves on it
as it goes, the last one the cheapest (and "The optimum cost is $C" on
standard error).  Ours runs as ``python -m dlx solve F --best 1`` (it
prints the cheapest solution), from a temporary directory, with the
installed package or, with ``--tree DIR`` (repeated: one row each), the
packages of the checkout DIR (``PYTHONPATH``), so that a before and an
after are one run.

numba's cache is warm: every command runs once before the timing.  Then
the commands run in turn, ``--reps`` times (so that a busy machine's
drift falls alike on all), each a whole process: wall seconds (median
and minimum) and CPU seconds (user + system of the child, median; on a
shared machine the steadier of the two), and ``DLX5 / ours``: DLX5's
median over ours, above 1 when ours is faster.  ``python -c pass`` runs
in the same turns, the interpreter's own start.  Every run's answer is
checked: the solution printed is an exact cover by options of the file
whose costs add up to the total printed, and ours and DLX5's totals are
equal.  ``--split`` adds, in the same turns, a process per tree that
does what the command does in stages and times each apart (CPU
seconds): the interpreter's start (up to its first line), importing
``dlx`` and its CLI, reading F, importing numba, the first ``best(1)``
(the engine's modules, its kernels loaded from numba's cache, the
arrays, the search), a second ``best(1)`` in the same process (the
search alone, everything loaded) and the interpreter's end (after its
last line: the process's CPU less what it had spent by then); the first
``best(1)`` less the second is what loading the kernels costs.
``--what-if`` adds, per tree, the same command run through a wrapper
that changes only the process around it (``WHAT_IF``): what a change to
the start and the end of the command would save, measured before it is
made.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from startup import tree_envs

from dlx import ExactCover
from dlx.formats import dumps
from dlx.problems.polyomino import piece_set, polyomino

#: Scott's extra piece: the 2x2 square, named as the tetromino is.
SQUARE = ((0, 0), (0, 1), (1, 0), (1, 1))


def scott(seed: int = 36, most: int = 99) -> ExactCover:
    """Scott's packing, every option with a cost drawn uniformly from 0
    to ``most`` by ``random.Random(seed)`` in the order of the options."""
    pieces = dict(piece_set("pentominoes"), O=SQUARE)
    base = polyomino("8x8", pieces)
    draw = random.Random(seed)
    problem = ExactCover(base.primary)
    for option in base.options:
        problem.add_option(list(option), cost=draw.randint(0, most))
    return problem


def run(argv, stdin_path, env, cwd):
    """(wall seconds, CPU seconds, stdout, stderr) of one whole process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    with open(stdin_path) if stdin_path else open(os.devnull) as stdin:
        done = subprocess.run(
            argv, stdin=stdin, capture_output=True, text=True, env=env, cwd=cwd
        )
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (
        after.ru_stime - before.ru_stime
    )
    if done.returncode != 0:
        raise RuntimeError(
            f"{' '.join(argv)}: exit {done.returncode}: "
            f"{done.stderr.strip()[-300:]}"
        )
    return wall, cpu, done.stdout, done.stderr


def check(problem: ExactCover, options, total: int, who: str) -> int:
    """``total`` after checking that ``options`` (each a list of item
    names and the cost printed beside it) is an exact cover by options
    of ``problem`` whose costs add up to ``total``."""
    cost_of = {}
    for k, option in enumerate(problem.options):
        cost_of[frozenset(map(str, option))] = problem.cost_of(k)
    seen: list[str] = []
    spent = 0
    for names, printed in options:
        key = frozenset(names)
        if key not in cost_of:
            raise RuntimeError(f"{who}: {' '.join(names)} is not an option")
        if cost_of[key] != printed:
            raise RuntimeError(
                f"{who}: {' '.join(names)} costs {cost_of[key]}, "
                f"printed {printed}"
            )
        seen += names
        spent += printed
    if sorted(seen) != sorted(map(str, problem.items)):
        raise RuntimeError(f"{who}: the solution is not an exact cover")
    if spent != total:
        raise RuntimeError(f"{who}: costs add up to {spent}, not {total}")
    return total


def answer_dlx5(problem, out: str, err: str) -> int:
    """The cheapest total of ``dlx5 m1``: its last solution printed
    (``N: (total cost $C)`` then lines `` a b c (i of j) $c [net]``),
    which must equal the optimum it reports on standard error."""
    blocks = re.split(r"^\d+: \(total cost \$(\d+)\)\n", out, flags=re.M)
    if len(blocks) < 3:
        raise RuntimeError(f"dlx5 printed no solution: {err.strip()[-300:]}")
    total, body = int(blocks[-2]), blocks[-1]
    options = []
    for line in body.splitlines():
        m = re.fullmatch(r" (.*?) \(\d+ of \d+\)(?: \$(\d+) \[\d+\])?", line)
        if not m:
            raise RuntimeError(f"dlx5: unexpected line {line!r}")
        options.append((m.group(1).split(), int(m.group(2) or 0)))
    m = re.search(r"The optimum cost is \$(\d+)", err)
    if not m or int(m.group(1)) != total:
        raise RuntimeError(f"dlx5: last solution ${total}, {err[-200:]!r}")
    return check(problem, options, total, "dlx5")


def answer_ours(problem, out: str) -> int:
    """The total of ``dlx solve --best 1``: ``cost C`` then the option
    lines, each with its cost as a ``|n`` token (none when 0)."""
    lines = out.splitlines()
    if not lines or not lines[0].startswith("cost "):
        raise RuntimeError(f"dlx: unexpected output {out[:200]!r}")
    options = []
    for line in lines[1:]:
        names = line.split()
        cost = 0
        if names and names[-1].startswith("|"):
            cost = int(names.pop()[1:])
        options.append((names, cost))
    return check(problem, options, int(lines[0].split()[1]), "dlx")


#: ``--split``: one process that times each stage of ``dlx solve F
#: --best 1`` apart (CPU seconds), then prints the cheapest total.
STAGE_NAMES = (
    "the interpreter's start",
    "import dlx and the CLI",
    "read F",
    "import numba",
    "first best(1) (engine, kernels loaded from numba's cache, arrays, "
    "search)",
    "second best(1) (the search, all loaded)",
    "the interpreter's end",
)
STAGES = """
import sys, time
clock = time.process_time
t = [clock()]
import dlx, dlx.cli
from dlx.formats import load
t.append(clock())
problem = load(sys.argv[1])
t.append(clock())
import numba
t.append(clock())
first = problem.best(1)
t.append(clock())
again = problem.best(1)
t.append(clock())
assert first[0][0] == again[0][0]
print(t[0], *(b - a for a, b in zip(t, t[1:])), t[-1], first[0][0])
"""


#: ``--what-if``: changes to the process around ``python -m dlx``, made
#: by a wrapper (``WRAPPER``), not in ``dlx``: what each would save.
#: ``gc.freeze()`` before the interpreter ends keeps its last collection
#: from walking numba's objects; ``gc.disable()`` for the whole run
#: (start-up included: the search allocates next to nothing); and numba's
#: first dispatch imports ``scipy.linalg`` when scipy is installed (to
#: find BLAS, ``numba.np.arraymath``), which the kernels never use:
#: ``sys.modules["scipy"] = None`` runs as if scipy were not installed.
WHAT_IF = {
    "gc.freeze() at exit": ("", "gc.freeze()"),
    "and gc off, no scipy": (
        "gc.disable(); sys.modules['scipy'] = None; ",
        "gc.freeze()",
    ),
}
WRAPPER = """import gc, runpy, sys; {pre}sys.argv[0] = "dlx"
try:
    runpy.run_module("dlx", run_name="__main__", alter_sys=True)
finally:
    {post}
"""


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--dlx5",
        default=os.environ.get("DLX5"),
        help="Knuth's dlx5 binary (default: $DLX5)",
    )
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--reps", type=int, default=7, help="runs of each")
    ap.add_argument(
        "--tree",
        action="append",
        default=None,
        metavar="DIR",
        help="a checkout whose packages to run (repeat to compare)",
    )
    ap.add_argument("--seed", type=int, default=36, help="of the costs")
    ap.add_argument("--most", type=int, default=99, help="the dearest cost")
    ap.add_argument(
        "--split", action="store_true", help="time the stages apart"
    )
    ap.add_argument(
        "--what-if",
        action="store_true",
        help="and the command with gc.freeze() at exit, gc off, no scipy",
    )
    ap.add_argument("--write", metavar="F", help="write the instance; stop")
    ap.add_argument("--markdown", default=None, help="write the table here")
    args = ap.parse_args(argv)
    if args.reps < 1:
        ap.error("--reps must be at least 1")
    if args.most < 0:
        ap.error("--most must be at least 0")

    problem = scott(args.seed, args.most)
    text = dumps(problem)
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    if args.write:
        Path(args.write).write_text(text)
        print(f"{args.write}: {len(problem)} options, sha256 {digest}...")
        return 0
    if not args.dlx5 or not os.access(args.dlx5, os.X_OK):
        ap.error("--dlx5 (or $DLX5): Knuth's dlx5 program is needed")

    envs = tree_envs(ap, args.tree or [None])
    trees = list(envs)
    label = {
        t: "installed" if t is None else os.path.basename(t) for t in trees
    }

    with tempfile.TemporaryDirectory(prefix="best-start-") as cwd:
        path = os.path.join(cwd, "scott-costs.dlx")
        Path(path).write_text(text)
        ours = [args.python, "-m", "dlx", "solve", path, "--best", "1"]
        # name -> (argv, standard input, tree, whose answer to read)
        commands = {
            "python -c pass": ([args.python, "-c", "pass"], None, None, ""),
            "DLX5 m1 < F": ([args.dlx5, "m1"], path, None, "dlx5"),
        }
        for t in trees:
            name = f"dlx solve F --best 1 ({label[t]})"
            commands[name] = (ours, None, t, "ours")
            if args.what_if:
                for key, (pre, post) in WHAT_IF.items():
                    code = WRAPPER.format(pre=pre, post=post)
                    name = f"  {key} ({label[t]})"
                    commands[name] = (
                        [args.python, "-c", code, *ours[3:]],
                        None,
                        t,
                        "ours",
                    )
            if args.split:
                name = f"  in stages ({label[t]})"
                probe = [args.python, "-c", STAGES, path]
                commands[name] = (probe, None, t, "stages")

        def once(name):
            argv, stdin, t, whose = commands[name]
            env = envs[t] if whose in ("ours", "stages") else None
            wall, cpu, out, err = run(argv, stdin, env, cwd)
            total = None
            if whose == "dlx5":
                total = answer_dlx5(problem, out, err)
            elif whose == "ours":
                total = answer_ours(problem, out)
            elif whose == "stages":
                *seconds, inside, total = map(float, out.split())
                total = int(total)
                stages[name].append([*seconds, cpu - inside])
            return wall, cpu, total, err

        stages: dict = {name: [] for name in commands}
        totals = {}
        for name in commands:  # warm numba's cache; the answers agree
            totals[name] = once(name)[2]
        optimum = totals["DLX5 m1 < F"]
        wrong = {
            n: c for n, c in totals.items() if c is not None and c != optimum
        }
        if wrong:
            raise RuntimeError(f"DLX5 found ${optimum}; not so {wrong}")
        stages = {name: [] for name in commands}
        walls = {name: [] for name in commands}
        cpus = {name: [] for name in commands}
        for _ in range(args.reps):
            for name in commands:
                wall, cpu, total, err = once(name)
                if total is not None and total != optimum:
                    raise RuntimeError(f"{name}: ${total}, not ${optimum}")
                walls[name].append(wall)
                cpus[name].append(cpu)

    whose_of = {name: spec[3] for name, spec in commands.items()}
    med = {n: statistics.median(walls[n]) for n in commands}
    cmed = {n: statistics.median(cpus[n]) for n in commands}
    base = "DLX5 m1 < F"
    head = (
        "| command | wall median (s) | wall min (s) | CPU median (s) "
        "| DLX5 / ours (wall) | DLX5 / ours (CPU) | cheapest |"
    )
    lines = [head, "|---" * 7 + "|"]
    for name in commands:
        row = [
            name,
            f"{med[name]:.3f}",
            f"{min(walls[name]):.3f}",
            f"{cmed[name]:.3f}",
        ]
        if whose_of[name] == "ours":
            row += [
                f"{med[base] / med[name]:.2f}x",
                f"{cmed[base] / cmed[name]:.2f}x",
            ]
        else:
            row += ["", ""]
        row.append("" if totals[name] is None else f"${totals[name]}")
        lines.append("| " + " | ".join(row) + " |")
    notes = [
        f"\nScott's packing with costs: {len(problem)} options, "
        f"{len(problem.items)} items, seed {args.seed}, costs 0..{args.most},"
        f" sha256 {digest}...; {args.reps} runs of each in turn; every "
        f"answer checked, the cheapest ${optimum} for all.",
    ]
    for t in trees:
        if t is None:
            continue
        head = subprocess.run(
            ["git", "-C", t, "log", "-1", "--format=%h %s"],
            capture_output=True,
            text=True,
        ).stdout.strip()
        if head:
            notes.append(f"{label[t]}: {head[:72]}")
    if args.split:
        notes.append(
            "\nCPU seconds in one process, stage by stage (medians): "
            + ", ".join(STAGE_NAMES)
            + "."
        )
        for t in trees:
            name = f"  in stages ({label[t]})"
            split = [statistics.median(x) for x in zip(*stages[name])]
            notes.append(
                f"- {label[t]}: "
                + ", ".join(f"{x:.3f}" for x in split)
                + f" (python -c pass {cmed['python -c pass']:.3f})"
            )
    table = "\n".join(lines + notes)
    print(table)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(table + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
