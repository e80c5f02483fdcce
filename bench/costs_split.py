"""The k cheapest solutions split: one search against 2 threads (one
shared threshold in memory) and 2 processes (the threshold sent with each
job), on bench/costs.py's instances.

    python bench/costs_split.py                  # every instance, 3 rounds
    python bench/costs_split.py --rounds 1 --only timetable,colors

Wall-clock seconds (what splitting is for) and CPU seconds (the work:
this process's threads and its pool's processes together), each the best
of the rounds, the three ways run in turn; a ratio ``1 / 2t`` or ``1 /
2p`` above 1: the split is faster (wall), or does less work (CPU).
``nodes``: summed over jobs for a split (a split search's nodes are not
one search's: a job prunes only with what is known when it starts, or,
on threads, as soon as another finds better).  The costs found are
checked equal.

First a calibration: two copies of one search on 2 threads, and on 2
processes, against one copy alone (wall time).  On two free cores that is
1.0; on a machine whose other work leaves this one a single core's worth
or less, 2.0, and then no split can be faster in wall time: the CPU
columns tell what it would do on free cores (the same work spread over
two is twice as fast).
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import multiprocessing
import os
import resource
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from dlx import ExactCover

from costs import INSTANCES

WAYS = {"1": {}, "2 threads": {"threads": 2}, "2 processes": {"jobs": 2}}


def cpu() -> float:
    """CPU seconds of this process (every thread) and its reaped
    children (a process pool's workers, once it is shut down)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def run(problem, k, options):
    c = cpu()
    t = time.perf_counter()
    found = problem.best(k, **options)
    return (
        time.perf_counter() - t,
        cpu() - c,
        problem.stats.nodes,
        [c for c, _ in found],
    )


def _alone(problem, k):
    problem.best(k)


def calibrate(problem, k) -> tuple[float, float]:
    """Wall time of two copies of one search on 2 threads, and on 2
    processes, over one copy's."""
    t = time.perf_counter()
    _alone(problem, k)
    one = time.perf_counter() - t
    pair = [
        threading.Thread(target=_alone, args=(problem, k)) for _ in range(2)
    ]
    t = time.perf_counter()
    for thread in pair:
        thread.start()
    for thread in pair:
        thread.join()
    threads = time.perf_counter() - t
    context = multiprocessing.get_context("fork")
    with cf.ProcessPoolExecutor(2, mp_context=context) as pool:
        list(pool.map(abs, [1, 2]))  # started
        t = time.perf_counter()
        list(pool.map(_alone, [problem, problem], [k, k]))
        processes = time.perf_counter() - t
    return threads / one, processes / one


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", help="comma-separated instance names")
    args = parser.parse_args(argv)
    names = args.only.split(",") if args.only else list(INSTANCES)
    # numba compiles (or loads its cache) outside the timing.
    warm = ExactCover("ab")
    warm.add_options(["a", "b", "ab"], costs=[1, 2, 4])
    for options in WAYS.values():
        warm.best(2, **options)
    print(f"load average at the start: {os.getloadavg()[0]:.1f}")
    make, k = INSTANCES["pento-4x15"]
    on_threads, on_processes = calibrate(make(), k)
    print(
        f"calibration (pento-4x15): two copies take {on_threads:.2f}x "
        f"one's wall time on 2 threads, {on_processes:.2f}x on 2 "
        f"processes (1.0 on two free cores)"
    )
    print()
    header = (
        "| instance | k | wall 1 s | wall 2t | wall 2p | 1 / 2t | "
        "1 / 2p | CPU 1 s | CPU 2t | CPU 2p | 1 / 2t | 1 / 2p | "
        "nodes 1 | nodes 2t | nodes 2p | same costs |"
    )
    print(header)
    print("|" + "---|" * 16)
    for name in names:
        make, k = INSTANCES[name]
        problem = make()
        wall, work, nodes, costs = {}, {}, {}, {}
        for _ in range(args.rounds):
            for way, options in WAYS.items():
                w, c, n, found = run(problem, k, options)
                wall[way] = min(wall.get(way, w), w)
                work[way] = min(work.get(way, c), c)
                nodes[way], costs[way] = n, found
        one, two_t, two_p = WAYS
        same = (
            "yes"
            if costs[one] == costs[two_t] == costs[two_p]
            else f"NO: {costs[one]} {costs[two_t]} {costs[two_p]}"
        )
        print(
            f"| {name} | {k} | {wall[one]:.2f} | {wall[two_t]:.2f} | "
            f"{wall[two_p]:.2f} | {wall[one] / wall[two_t]:.2f} | "
            f"{wall[one] / wall[two_p]:.2f} | {work[one]:.2f} | "
            f"{work[two_t]:.2f} | {work[two_p]:.2f} | "
            f"{work[one] / work[two_t]:.2f} | "
            f"{work[one] / work[two_p]:.2f} | {nodes[one]:,} | "
            f"{nodes[two_t]:,} | {nodes[two_p]:,} | {same} |",
            flush=True,
        )
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
