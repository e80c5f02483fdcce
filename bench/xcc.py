"""Counting with colors (XCC) and multiplicities (MCC), side by side.

    python bench/xcc.py [--rounds 3] [--knuth DIR] [--only TEXT]
    python bench/xcc.py --files tests/data/dlx2     # its colored files too
    python bench/xcc.py --ours --rounds 7 --only XCC --files tests/data/dlx2

Contenders, on the same problems (built by ``dlx.problems``, written with
``dlx.formats`` for the C programs), each round in turn:

* ours: ``count(algorithm="links")`` (DLX2/DLX3) after a warm-up count;
  ``stats.seconds`` (search only); the table's reference;
* ours (cells): ``count(algorithm="cells")`` (SSXCC; colors only), the same;
* Knuth's DLX2 (colors), SSXCC (colors, dancing cells) and DLX3 (bounds),
  when built in ``--knuth`` (default ``/work/knuth``, or ``$DLX_KNUTH``;
  ``$DLX2``, ``$SSXCC``, ``$DLX3`` name one build each):
  the search time is the process's wall time minus that of the same run
  stopped before its first node (``T0``: reading the input and starting
  up), so both sides time the search alone; their nodes and updates are
  checked against ours (DLX2's and DLX3's against links, SSXCC's against
  cells);
* miniexact (``miniexacts_c``/``miniexacts_m``) and xcover
  (``algorithm_c``, colors only), when installed (``pip install -e
  '.[compare]'``), timed in this process after a warm-up, their input
  built beforehand.

Every count is checked against the known one (for ``--files``, the
contenders against each other).  The table gives the best time of the
rounds and each contender's time divided by ours; ``hide_work`` is
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

from dlx.algorithm import choose_algorithm, hide_work  # noqa: E402
from dlx.formats import dumps, load  # noqa: E402
from dlx.problems import debruijn, queens, rooks  # noqa: E402

# name, builder, known count (sources in README: A016031, A001499, A001501)
PROBLEMS = [
    ("de Bruijn n=5 (XCC)", lambda: debruijn.debruijn(5), 2048),
    ("de Bruijn n=2, k=4 (XCC)", lambda: debruijn.debruijn(2, 4), 20736),
    ("de Bruijn n=3, k=3 (XCC)", lambda: debruijn.debruijn(3, 3), 373248),
    ("queens 12, colored diagonals (XCC)", lambda: colored_queens(12),
     14200),
    ("2 rooks a line, 6x6 (MCC)", lambda: rooks.rooks(6, 2), 67950),
    ("3 rooks a line, 6x6 (MCC)", lambda: rooks.rooks(6, 3), 297200),
    ("2 rooks a line, 7x7 (MCC)", lambda: rooks.rooks(7, 2), 3110940),
]

FIGURES = re.compile(r"Altogether (\d+) solutions?, .* (\d+) updates, .* "
                     r"(\d+) nodes")


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
        p.add_option(option, colors={x: color for x in option
                                     if x in secondary})
    return p


# A problem whose count takes less than this is counted again and again.
SHORT = 0.05


def ours(problem, algorithm="links"):
    problem.count(algorithm=algorithm)  # numba compiles or loads here
    t0 = time.perf_counter()
    problem.count(algorithm=algorithm)
    repeat = max(1, int(SHORT / max(time.perf_counter() - t0, 1e-6)))

    def run():
        best = None
        for _ in range(repeat):
            n = problem.count(algorithm=algorithm)
            best = min(best or problem.stats.seconds, problem.stats.seconds)
        s = problem.stats
        return n, best, (s.nodes, s.updates)
    run.short = repeat > 1
    return run


def knuth(program, path):
    def wall(*args):
        with open(path) as f:
            t0 = time.perf_counter()
            done = subprocess.run([program, *args], stdin=f,
                                  capture_output=True, text=True)
            return time.perf_counter() - t0, done.stderr

    def run():
        total, err = wall()
        start, _ = wall("T0")
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
        index[name] = s.primary(str(name), u, v) if problem.bounds \
            else s.primary(str(name))
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
        t0 = time.perf_counter()
        while s.solve() == 10:
            n += 1
        return n, time.perf_counter() - t0, None
    return run


def xcover(problem):
    from xcover import algorithm_c
    from xcover.solvers import input_as_arrays
    options = []
    for k, option in enumerate(problem.options):
        colors = problem.option_colors(k)
        options.append([f"{x}:{colors[x]}" if x in colors else x
                        for x in option])
    arrays = input_as_arrays(options, primary=list(problem.primary),
                             secondary=list(problem.secondary), colored=True)
    sum(1 for _ in algorithm_c(*arrays))  # warm-up (numba)

    def run():
        t0 = time.perf_counter()
        n = sum(1 for _ in algorithm_c(*arrays))
        return n, time.perf_counter() - t0, None
    return run


def available(module):
    try:
        __import__(module)
        return True
    except ImportError:
        return False


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--knuth", default=os.environ.get("DLX_KNUTH",
                                                          "/work/knuth"))
    parser.add_argument("--only", help="problems whose name has this text")
    parser.add_argument("--files", help="also every colored .dlx file of "
                        "this directory")
    parser.add_argument("--ours", action="store_true",
                        help="only our two algorithms (the data behind "
                             "algorithm='auto')")
    args = parser.parse_args(argv)
    problems = list(PROBLEMS)
    if args.files:
        for name in sorted(os.listdir(args.files)):
            if name.endswith(".dlx"):
                path = os.path.join(args.files, name)
                if load(path).kind == "colors":
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
        # and which of ours checks its nodes and updates.
        contenders = {"ours": ours(problem)}
        checks = {}
        programs = [("DLX3 (C)", "dlx3", "ours")] if problem.bounds else [
            ("DLX2 (C)", "dlx2", "ours"), ("SSXCC (C)", "ssxcc", "cells")]
        if not problem.bounds:
            contenders["cells"] = ours(problem, "cells")
        short = args.ours or any(run.short for run in contenders.values())
        for label, program, mine in programs:
            # $DLX2, $DLX3, $SSXCC name a build, as $DLX1 and $SSXC1 do
            # for bench/compare.py; else the one in --knuth.
            program = os.environ.get(program.upper()) or os.path.join(
                args.knuth, program)
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
                    raise SystemExit(f"{label} counted {n} on {name}, "
                                     f"not {known}")
                if label in ("ours", "cells"):
                    work[label] = figures
                elif label in checks and figures != work[checks[label]]:
                    raise SystemExit(f"{label} searched {figures} (nodes, "
                                     f"updates) on {name}; "
                                     f"{checks[label]} {work[checks[label]]}")
                best[label] = min(best.get(label, seconds), seconds)
        shape = hide_work(len(problem.items), len(problem),
                          len(problem._members))
        auto = choose_algorithm("auto", problem)
        rows.append((name, known, work["ours"], shape, auto, best))
        print(f"{name}: " + ", ".join(f"{k} {v:.6f} s"
                                      for k, v in best.items()),
              file=sys.stderr, flush=True)
    print("| problem | count | nodes (DLX2/3) | hide_work | auto | ours "
          "(links) | peer / ours |")
    print("|---|---|---|---|---|---|---|")
    for name, known, work, shape, auto, best in rows:
        peers = "; ".join(f"{k} {v:.3f} s = {v / best['ours']:.2f}"
                          if v >= 0.001 else
                          f"{k} {v * 1e6:.0f} µs = {v / best['ours']:.2f}"
                          for k, v in best.items() if k != "ours")
        mine = best["ours"]
        mine = f"{mine:.3f} s" if mine >= 0.001 else f"{mine * 1e6:.0f} µs"
        print(f"| {name} | {known:,} | {work[0]:,} | {shape:.2f} | {auto} "
              f"| {mine} | {peers} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
