"""Counting with colors (XCC) and multiplicities (MCC), side by side.

    python bench/xcc.py [--rounds 3] [--knuth DIR] [--only TEXT]
    python bench/xcc.py --files tests/data/dlx2     # its colored files too
    python bench/xcc.py --ours --rounds 7 --only XCC --files tests/data/dlx2

Contenders, on the same problems (built by ``dlx.problems``, written with
``dlx.formats`` for the C programs), each round in turn:

* links: ``count(algorithm="links")``, our DLX2 (colors) or DLX3 (bounds),
  after a warm-up count; the table's reference;
* cells: ``count(algorithm="cells")``, our SSXCC (colors) or SSMCC
  (bounds), the same;
* Knuth's DLX2 and SSXCC (colors), DLX3 and SSMCC (bounds), when built in
  ``--knuth`` (default ``/work/knuth``, or ``$DLX_KNUTH``; ``$DLX2``,
  ``$SSXCC``, ``$DLX3``, ``$SSMCC`` name one build each): the search time
  is the process's CPU time minus that of the same run stopped before its
  first node (``T0``: reading the input and starting up), so both sides
  time the search alone; their nodes and updates must equal those of our
  kernel for the same algorithm (DLX2's and DLX3's our links', SSXCC's and
  SSMCC's our cells');
* miniexact (``miniexacts_c``/``miniexacts_m``) and xcover
  (``algorithm_c``, colors only), when installed (``pip install -e
  '.[compare]'``), timed in this process after a warm-up, their input
  built beforehand.

Times are CPU seconds (``time.process_time`` here, the child's rusage for
Knuth's programs), which a machine shared with other work disturbs far
less than wall time.  Every count is checked against the known one (or,
where none is published or for ``--files``, the contenders against each
other).  The table gives the best time of the rounds, each contender's
time divided by links', and Knuth's programs' time divided by that of our
kernel for the same search tree (``same tree``); ``hide_work`` is
``dlx.algorithm``'s measure of a problem's shape, and ``auto`` what
``algorithm="auto"`` picks.  A problem whose search takes under 50 ms is
counted again and again within a round (ours only; Knuth's programs'
times there are mostly noise and left out).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.normpath(os.path.join(HERE, "..")))

from dlx import ExactCover  # noqa: E402
from dlx.engines.registry import family, hide_work  # noqa: E402
from dlx.formats import dumps, load  # noqa: E402
from dlx.problems import debruijn, queens, rooks  # noqa: E402


def queens_per_line(n, u, v):
    """u..v queens in every row and column of an n x n board, at most one
    on each diagonal (secondary items): an MCC problem whose options have
    secondary items, unlike the rooks."""
    lines = [f"r{i}" for i in range(n)] + [f"c{j}" for j in range(n)]
    diagonals = [f"{d}{s}" for d in "ab" for s in range(2 * n - 1)]
    p = ExactCover(lines, diagonals, bounds=dict.fromkeys(lines, (u, v)))
    for i in range(n):
        for j in range(n):
            p.add_option([f"r{i}", f"c{j}", f"a{i + j}", f"b{n - 1 - i + j}"])
    return p


# name, builder, known count (sources in README: A016031, A001499, A001501)
PROBLEMS = [
    ("de Bruijn n=5 (XCC)", lambda: debruijn.debruijn(5), 2048),
    ("de Bruijn n=2, k=4 (XCC)", lambda: debruijn.debruijn(2, 4), 20736),
    ("de Bruijn n=3, k=3 (XCC)", lambda: debruijn.debruijn(3, 3), 373248),
    ("queens 12, colored diagonals (XCC)", lambda: colored_queens(12), 14200),
    ("2 rooks a line, 6x6 (MCC)", lambda: rooks.rooks(6, 2), 67950),
    ("3 rooks a line, 6x6 (MCC)", lambda: rooks.rooks(6, 3), 297200),
    ("2 rooks a line, 7x7 (MCC)", lambda: rooks.rooks(7, 2), 3110940),
    # No published count: checked against ours (and DLX3's, SSMCC's).
    (
        "1-2 queens a line, 11x11 (MCC)",
        lambda: queens_per_line(11, 1, 2),
        None,
    ),
]

FIGURES = re.compile(
    r"Altogether (\d+) solutions?, .* (\d+) updates, .* "
    r"(\d+) nodes"
)


def colored_queens(n):
    """n queens (n <= 36) whose diagonals are secondary items colored by
    the queen's row, so that two queens on one diagonal never agree:
    queens as an XCC problem, written with one-character colors."""
    from dlx import ExactCover

    plain = queens.queens(n)
    secondary = set(plain.secondary)
    p = ExactCover(plain.primary, plain.secondary)
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    for option in plain.options:
        color = digits[int(option[0][1:])]  # option[0] is its row, r<i>
        p.add_option(
            option, colors={x: color for x in option if x in secondary}
        )
    return p


# A problem whose count takes less than this is counted again and again.
SHORT = 0.05


def ours(problem, algorithm="links"):
    problem.count(algorithm=algorithm)  # numba compiles or loads here
    t0 = time.process_time()
    problem.count(algorithm=algorithm)
    repeat = max(1, int(SHORT / max(time.process_time() - t0, 1e-6)))

    def run():
        best = None
        for _ in range(repeat):
            t0 = time.process_time()
            n = problem.count(algorithm=algorithm)
            seconds = time.process_time() - t0
            best = seconds if best is None else min(best, seconds)
        s = problem.stats
        return n, best, (s.nodes, s.updates)

    run.short = repeat > 1
    return run


def knuth(program, path):
    def cpu(*args):
        with open(path) as f, tempfile.TemporaryFile("w+") as err:
            proc = subprocess.Popen(
                [program, *args],
                stdin=f,
                stdout=subprocess.DEVNULL,
                stderr=err,
            )
            _, status, usage = os.wait4(proc.pid, 0)
            proc.returncode = status
            err.seek(0)
            return usage.ru_utime + usage.ru_stime, err.read()

    def run():
        total, err = cpu()
        start, _ = cpu("T0")
        m = FIGURES.search(err)
        n, updates, nodes = (int(x) for x in m.groups())
        return n, max(total - start, 0.0), (nodes, updates)

    return run


def miniexact(problem):
    import miniexact as me

    s = me.miniexacts_m() if problem.bounds else me.miniexacts_c()
    index = {}
    bounds = problem.bounds
    for name in problem.primary:
        u, v = bounds.get(name, (1, 1))
        index[name] = (
            s.primary(str(name), u, v)
            if problem.bounds
            else s.primary(str(name))
        )
    for name in problem.secondary:
        index[name] = s.secondary(str(name))
    codes = {}
    for k, option in enumerate(problem.options):
        colors = problem.option_colors(k)
        for name in option:
            if name in colors:
                c = colors[name]
                if c not in codes:
                    codes[c] = s.color(str(c))
                s.add(index[name], codes[c])
            else:
                s.add(index[name])
        s.add(0)

    def run():
        n = 0
        t0 = time.process_time()
        while s.solve() == 10:
            n += 1
        return n, time.process_time() - t0, None

    return run


def xcover(problem):
    from xcover import algorithm_c
    from xcover.solvers import input_as_arrays

    options = []
    for k, option in enumerate(problem.options):
        colors = problem.option_colors(k)
        options.append(
            [f"{x}:{colors[x]}" if x in colors else x for x in option]
        )
    arrays = input_as_arrays(
        options,
        primary=list(problem.primary),
        secondary=list(problem.secondary),
        colored=True,
    )
    sum(1 for _ in algorithm_c(*arrays))  # warm-up (numba)

    def run():
        t0 = time.process_time()
        n = sum(1 for _ in algorithm_c(*arrays))
        return n, time.process_time() - t0, None

    return run


def shown(t):
    return f"{t:.3f} s" if t >= 0.001 else f"{t * 1e6:.0f} µs"


def available(module):
    try:
        __import__(module)
        return True
    except ImportError:
        return False


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--knuth", default=os.environ.get("DLX_KNUTH", "/work/knuth")
    )
    parser.add_argument("--only", help="problems whose name has this text")
    parser.add_argument(
        "--files",
        help="also every colored or bounded .dlx file of this directory",
    )
    parser.add_argument(
        "--ours",
        action="store_true",
        help="only our two algorithms (the data behind algorithm='auto')",
    )
    args = parser.parse_args(argv)
    load_at_start = os.getloadavg()[0]
    problems = list(PROBLEMS)
    if args.files:
        for name in sorted(os.listdir(args.files)):
            if name.endswith(".dlx"):
                path = os.path.join(args.files, name)
                if load(path).kind in ("colors", "multiplicities"):
                    problems.append((name, lambda p=path: load(p), None))
    rows = []
    tmp = tempfile.mkdtemp()
    for name, build, known in problems:
        if args.only and args.only not in name:
            continue
        problem = build()
        path = os.path.join(tmp, "p.dlx")
        with open(path, "w") as f:
            f.write(dumps(problem))
        # label -> one timed run (returns count, seconds, (nodes, updates)),
        # and, for Knuth's programs, which of ours searches the same tree.
        contenders = {"ours": ours(problem), "cells": ours(problem, "cells")}
        checks = {}
        programs = (
            [("DLX3 (C)", "dlx3", "ours"), ("SSMCC (C)", "ssmcc", "cells")]
            if problem.bounds
            else [
                ("DLX2 (C)", "dlx2", "ours"),
                ("SSXCC (C)", "ssxcc", "cells"),
            ]
        )
        short = args.ours or any(run.short for run in contenders.values())
        for label, program, mine in programs:
            # $DLX2, $DLX3, $SSXCC, $SSMCC name a build, as $DLX1 and
            # $SSXC1 do for bench/compare.py; else the one in --knuth.
            program = os.environ.get(program.upper()) or os.path.join(
                args.knuth, program
            )
            if os.access(program, os.X_OK) and not short:
                contenders[label] = knuth(program, path)
                checks[label] = mine
        if not short:
            if available("miniexact"):  # a solver object counts once
                contenders["miniexact"] = lambda p=problem: miniexact(p)()
            if available("xcover") and not problem.bounds:
                contenders["xcover"] = xcover(problem)
        best: dict = {}
        work: dict = {}
        for _ in range(args.rounds):
            for label, run in contenders.items():
                n, seconds, figures = run()
                if known is None:
                    known = n
                if n != known:
                    raise SystemExit(
                        f"{label} counted {n} on {name}, not {known}"
                    )
                if label in ("ours", "cells"):
                    work[label] = figures
                elif label in checks and figures != work[checks[label]]:
                    raise SystemExit(
                        f"{label} searched {figures} (nodes, "
                        f"updates) on {name}; "
                        f"{checks[label]} {work[checks[label]]}"
                    )
                best[label] = min(best.get(label, seconds), seconds)
        s = problem.structure()
        shape = hide_work(s.nitems, len(s.sizes), len(s.members))
        auto = family(problem, "auto")
        rows.append((name, known, work["ours"], shape, auto, best, checks))
        print(
            f"{name}: " + ", ".join(f"{k} {v:.6f} s" for k, v in best.items()),
            file=sys.stderr,
            flush=True,
        )
    print(
        f"(CPU seconds; load average {load_at_start:.1f} at the start, "
        f"{os.getloadavg()[0]:.1f} at the end, {os.cpu_count()} CPUs)"
    )
    print(
        "| problem | count | nodes (DLX2/3) | hide_work | auto | ours "
        "(links) | peer / ours | same tree: Knuth / ours |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for name, known, work, shape, auto, best, checks in rows:
        peers = "; ".join(
            f"{k} {shown(v)} = {v / best['ours']:.2f}"
            for k, v in best.items()
            if k != "ours"
        )
        twins = "; ".join(
            f"{k} / {mine} = {best[k] / best[mine]:.2f}"
            for k, mine in checks.items()
            if k in best
        )
        print(
            f"| {name} | {known:,} | {work[0]:,} | {shape:.2f} | {auto} "
            f"| {shown(best['ours'])} | {peers} | {twins or '-'} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
