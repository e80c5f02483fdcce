"""Counting with colors (XCC) and multiplicities (MCC), side by side.

    python bench/xcc.py [--rounds 3] [--knuth DIR] [--markdown]

Contenders, on the same problems (built by ``dlx.problems``, written with
``dlx.formats`` for the C programs), each round in turn:

* ours: ``count()`` after a warm-up count; ``stats.seconds`` (search only);
* Knuth's DLX2 (colors) and DLX3 (bounds), when built in ``--knuth``
  (default ``/work/knuth``, or ``$DLX_KNUTH``): the search time is the
  process's wall time minus that of the same run stopped before its first
  node (``T0``: reading the input and starting up), so both sides time
  the search alone; their nodes and updates are checked against ours;
* miniexact (``miniexacts_c``/``miniexacts_m``) and xcover
  (``algorithm_c``, colors only), when installed (``pip install -e
  '.[compare]'``), timed in this process after a warm-up, their input
  built beforehand.

Every count is checked against the known one.  The table gives the best
time of the rounds and each contender's time divided by ours.

``--cpu`` times CPU seconds instead of wall time, which a shared, loaded
machine disturbs far less: ours is the thread time of the ``count()``
call (its search runs in the calling thread), Knuth's the child's user +
system time of the run less that of the ``T0`` run.  The peers in this
process are timed in thread time too.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile
import time

# The clock of the in-process contenders: wall time, or (--cpu) the
# calling thread's CPU time.
CLOCK = [time.perf_counter]

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.normpath(os.path.join(HERE, "..")))

from dlx.formats import dumps  # noqa: E402
from dlx.problems import debruijn, rooks  # noqa: E402

# name, builder, known count (sources in README: A016031, A001499, A001501)
PROBLEMS = [
    ("de Bruijn n=5 (XCC)", lambda: debruijn.debruijn(5), 2048),
    ("de Bruijn n=2, k=4 (XCC)", lambda: debruijn.debruijn(2, 4), 20736),
    ("de Bruijn n=3, k=3 (XCC)", lambda: debruijn.debruijn(3, 3), 373248),
    ("2 rooks a line, 6x6 (MCC)", lambda: rooks.rooks(6, 2), 67950),
    ("3 rooks a line, 6x6 (MCC)", lambda: rooks.rooks(6, 3), 297200),
    ("2 rooks a line, 7x7 (MCC)", lambda: rooks.rooks(7, 2), 3110940),
]

FIGURES = re.compile(r"Altogether (\d+) solutions?, .* (\d+) updates, .* "
                     r"(\d+) nodes")


def ours(problem):
    problem.count()  # warm-up: numba compiles or loads its cache here

    def run():
        t0 = CLOCK[0]()
        n = problem.count()
        t = CLOCK[0]() - t0
        s = problem.stats
        seconds = s.seconds if CLOCK[0] is time.perf_counter else t
        return n, seconds, (s.nodes, s.updates)
    return run


def knuth(program, path):
    def wall(*args):
        with open(path) as f:
            r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.perf_counter()
            done = subprocess.run([program, *args], stdin=f,
                                  capture_output=True, text=True)
            t = time.perf_counter() - t0
            r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            if CLOCK[0] is not time.perf_counter:  # --cpu
                t = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
            return t, done.stderr

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
        t0 = CLOCK[0]()
        while s.solve() == 10:
            n += 1
        return n, CLOCK[0]() - t0, None
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
        t0 = CLOCK[0]()
        n = sum(1 for _ in algorithm_c(*arrays))
        return n, CLOCK[0]() - t0, None
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
    parser.add_argument("--cpu", action="store_true",
                        help="CPU seconds instead of wall time")
    args = parser.parse_args(argv)
    if args.cpu:
        CLOCK[0] = time.thread_time
    load = os.getloadavg()[0]
    rows = []
    tmp = tempfile.mkdtemp()
    for name, build, known in PROBLEMS:
        if args.only and args.only not in name:
            continue
        problem = build()
        program = os.path.join(args.knuth,
                               "dlx3" if problem.bounds else "dlx2")
        path = os.path.join(tmp, "p.dlx")
        with open(path, "w") as f:
            f.write(dumps(problem))
        # label -> one timed run (returns count, seconds, (nodes, updates))
        contenders = {"ours": ours(problem)}
        if os.access(program, os.X_OK):
            label = "DLX3 (C)" if problem.bounds else "DLX2 (C)"
            contenders[label] = knuth(program, path)
        if available("miniexact"):  # a solver object counts once
            contenders["miniexact"] = lambda p=problem: miniexact(p)()
        if available("xcover") and not problem.bounds:
            contenders["xcover"] = xcover(problem)
        best: dict = {}
        work = None
        for _ in range(args.rounds):
            for label, run in contenders.items():
                n, seconds, figures = run()
                if n != known:
                    raise SystemExit(f"{label} counted {n} on {name}, "
                                     f"not {known}")
                if label == "ours":
                    work = figures
                elif figures is not None and figures != work:
                    raise SystemExit(f"{label} searched {figures} (nodes, "
                                     f"updates) on {name}; ours {work}")
                best[label] = min(best.get(label, seconds), seconds)
        rows.append((name, known, work, best))
        print(f"{name}: " + ", ".join(f"{k} {v:.3f} s"
                                      for k, v in best.items()),
              file=sys.stderr, flush=True)
    print(f"({'CPU' if args.cpu else 'wall'} seconds; load average "
          f"{load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end, "
          f"{os.cpu_count()} CPUs)")
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
