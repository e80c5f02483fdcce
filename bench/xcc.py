"""Counting with colors (XCC) and multiplicities (MCC), side by side.

    python bench/xcc.py [--rounds 3] [--knuth DIR] [--markdown]

Contenders, on the same problems (built by ``dlx.problems``, written with
``dlx.formats`` for the C programs), each round in turn:

* ours: ``count()`` (``algorithm="auto"``: DLX2 for colors, SSMCC's
  dancing cells for bounds) after a warm-up count; with bounds also
  ``ours, links``: ``count(algorithm="links")``, our DLX3 kernel;
* Knuth's DLX2 (colors), DLX3 and SSMCC (bounds), when built in
  ``--knuth`` (default ``/work/knuth``, or ``$DLX_KNUTH``): the search
  time is the process's CPU time minus that of the same run stopped
  before its first node (``T0``: reading the input and starting up), so
  both sides time the search alone; their nodes and updates are checked
  against those of ours on the same algorithm (DLX2 and SSMCC against
  ``ours``, DLX3 against ``ours, links``);
* miniexact (``miniexacts_c``/``miniexacts_m``) and xcover
  (``algorithm_c``, colors only), when installed (``pip install -e
  '.[compare]'``), timed in this process after a warm-up, their input
  built beforehand.

Times are CPU seconds (``time.process_time`` in this process, the child's
rusage for Knuth's programs), which a machine shared with other work
disturbs far less than wall time.  Every count is checked against the
known one (or, where none is published, against ours).  The table gives
the best time of the rounds and each contender's time divided by ours.
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
from dlx.formats import dumps  # noqa: E402
from dlx.problems import debruijn, rooks  # noqa: E402


def queens_per_line(n, u, v):
    """u..v queens in every row and column of an n x n board, at most one
    on each diagonal (secondary items): an MCC problem whose options have
    secondary items, unlike the rooks."""
    lines = [f"r{i}" for i in range(n)] + [f"c{j}" for j in range(n)]
    diagonals = [f"{d}{s}" for d in "ab" for s in range(2 * n - 1)]
    p = ExactCover(lines, diagonals, bounds={x: (u, v) for x in lines})
    for i in range(n):
        for j in range(n):
            p.add_option([f"r{i}", f"c{j}", f"a{i + j}", f"b{n - 1 - i + j}"])
    return p


# name, builder, known count (sources in README: A016031, A001499, A001501)
PROBLEMS = [
    ("de Bruijn n=5 (XCC)", lambda: debruijn.debruijn(5), 2048),
    ("de Bruijn n=2, k=4 (XCC)", lambda: debruijn.debruijn(2, 4), 20736),
    ("de Bruijn n=3, k=3 (XCC)", lambda: debruijn.debruijn(3, 3), 373248),
    ("2 rooks a line, 6x6 (MCC)", lambda: rooks.rooks(6, 2), 67950),
    ("3 rooks a line, 6x6 (MCC)", lambda: rooks.rooks(6, 3), 297200),
    ("2 rooks a line, 7x7 (MCC)", lambda: rooks.rooks(7, 2), 3110940),
    # No published count: checked against ours (and DLX3's, SSMCC's).
    ("1-2 queens a line, 11x11 (MCC)", lambda: queens_per_line(11, 1, 2),
     None),
]

FIGURES = re.compile(r"Altogether (\d+) solutions?, .* (\d+) updates, .* "
                     r"(\d+) nodes")


def ours(problem, algorithm="auto"):
    # warm-up: numba compiles or loads its cache here
    problem.count(algorithm=algorithm)

    def run():
        t0 = time.process_time()
        n = problem.count(algorithm=algorithm)
        seconds = time.process_time() - t0
        s = problem.stats
        return n, seconds, (s.nodes, s.updates)
    return run


def knuth(program, path):
    def cpu(*args):
        with open(path) as f, tempfile.TemporaryFile("w+") as err:
            proc = subprocess.Popen([program, *args], stdin=f,
                                    stdout=subprocess.DEVNULL, stderr=err)
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
        options.append([f"{x}:{colors[x]}" if x in colors else x
                        for x in option])
    arrays = input_as_arrays(options, primary=list(problem.primary),
                             secondary=list(problem.secondary), colored=True)
    sum(1 for _ in algorithm_c(*arrays))  # warm-up (numba)

    def run():
        t0 = time.process_time()
        n = sum(1 for _ in algorithm_c(*arrays))
        return n, time.process_time() - t0, None
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
    args = parser.parse_args(argv)
    rows = []
    tmp = tempfile.mkdtemp()
    for name, build, known in PROBLEMS:
        if args.only and args.only not in name:
            continue
        problem = build()
        path = os.path.join(tmp, "p.dlx")
        with open(path, "w") as f:
            f.write(dumps(problem))
        # label -> one timed run (returns count, seconds, (nodes, updates))
        contenders = {"ours": ours(problem)}
        # Knuth's program -> our run that must search the same tree
        same_tree = {"dlx2": "ours"}
        if problem.bounds:
            contenders["ours, links"] = ours(problem, "links")
            same_tree = {"dlx3": "ours, links", "ssmcc": "ours"}
        twin = {}
        for program, mine in same_tree.items():
            binary = os.path.join(args.knuth, program)
            if os.access(binary, os.X_OK):
                label = f"{program.upper()} (C)"
                contenders[label] = knuth(binary, path)
                twin[label] = mine
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
                if label.startswith("ours"):
                    work[label] = figures
                elif label in twin and figures != work[twin[label]]:
                    raise SystemExit(f"{label} searched {figures} (nodes, "
                                     f"updates) on {name}; "
                                     f"{twin[label]} {work[twin[label]]}")
                best[label] = min(best.get(label, seconds), seconds)
        rows.append((name, known, work["ours"], best))
        print(f"{name}: " + ", ".join(f"{k} {v:.3f} s"
                                      for k, v in best.items()),
              file=sys.stderr, flush=True)
    print("| problem | count | nodes | ours | peer / ours |")
    print("|---|---|---|---|---|")
    for name, known, work, best in rows:
        peers = "; ".join(f"{k} {v:.3f} s = {v / best['ours']:.2f}"
                          for k, v in best.items() if k != "ours")
        print(f"| {name} | {known:,} | {work[0]:,} | {best['ours']:.3f} s "
              f"| {peers} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
