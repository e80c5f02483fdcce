"""Long counts: one core against all of them, local processes against a
Dask cluster, Knuth's estimate against the truth, and the balance of a
split for 100 and 1,000 workers.

    python bench/longcount.py                # writes its section of RESULTS.md
    python bench/longcount.py --big          # adds queens 16 and Langford 15
    python bench/longcount.py --quick --no-write   # a smoke run

Every contender runs in this one process, in turn, round after round;
each figure is the best of the rounds.  The counts, nodes and updates of
every parallel run are checked against the one-core run.  The Dask
cluster (a ``LocalCluster`` of worker processes, one thread each) is
started before timing; sending it the problem and the jobs is timed.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

import numpy as np  # noqa: E402

import dlx  # noqa: E402
from dlx import jobs as J  # noqa: E402
from dlx.estimate import DEFAULT_PROBES, probe_figures  # noqa: E402
from dlx.problems.langford import langford  # noqa: E402
from dlx.problems.polyomino import Polyomino  # noqa: E402
from dlx.problems.queens import queens  # noqa: E402

RESULTS = os.path.join(HERE, "RESULTS.md")
BEGIN = "<!-- longcount.py: begin -->"
END = "<!-- longcount.py: end -->"


def sudoku_grids(rows, cols):
    from sudoku.solver import base_problem
    return base_problem(rows, cols)


# name -> (builder, known count); the long counts the timing is about.
LONG = {
    "queens-15": (lambda: queens(15), 2_279_184),
    "pentomino-6x10-all": (lambda: Polyomino("6x10").problem, 9_356),
    "sudoku-grids-6x6": (lambda: sudoku_grids(2, 3), 28_200_960),
}
BIG = {
    "queens-16": (lambda: queens(16), 14_772_512),
    "langford-15": (lambda: langford(15), 39_809_640),
}
# The smaller counting benchmarks of compare.py (the same problems, built
# here), for the estimate's error.
SMALL = {
    "queens-12": (lambda: queens(12), 14_200),
    "queens-13": (lambda: queens(13), 73_712),
    "queens-14": (lambda: queens(14), 365_596),
    "langford-11": (lambda: langford(11), 17_792),
    "langford-12": (lambda: langford(12), 108_144),
    "pentomino-6x10-2339": (lambda: Polyomino("6x10").distinct_problem(),
                            2_339),
    "sudoku-grids-4x4": (lambda: sudoku_grids(2, 2), 288),
}
QUICK = {
    "queens-13": (lambda: queens(13), 73_712),
    "langford-12": (lambda: langford(12), 108_144),
}


def figures(problem):
    s = problem.stats
    return (s.solutions, s.nodes, s.updates)


def timed(run):
    t0 = time.perf_counter()
    found = run()
    return time.perf_counter() - t0, found


def simulate(problem, workers: int, probes: int, seed: int = 10 ** 6):
    """Split for ``workers`` as count(jobs=...) would, estimate each job's
    updates with ``probes`` probes, and schedule the jobs in the runner's
    order (largest share first) on ``workers`` workers."""
    t0 = time.perf_counter()
    plan = J.split(problem, jobs=J.JOBS_PER_WORKER * workers)
    split_seconds = time.perf_counter() - t0
    sizes = np.array([probe_figures(problem, probes, seed=seed + k,
                                    given=job.given)[0][1]
                      - job.commit_updates
                      for k, job in enumerate(plan.jobs)])
    order = sorted(range(len(plan.jobs)),
                   key=lambda k: (-plan.jobs[k].size, -plan.jobs[k].share))
    load = np.zeros(workers)
    for k in order:  # the next job goes to the first worker free
        load[np.argmin(load)] += sizes[k]
    total = sizes.sum()
    return dict(jobs=len(plan.jobs), split_seconds=split_seconds,
                largest=sizes.max() / sizes.mean(),
                efficiency=total / (workers * load.max()))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--big", action="store_true",
                        help="add queens 16 and Langford 15 (minutes each)")
    parser.add_argument("--quick", action="store_true",
                        help="small problems only (a smoke run)")
    parser.add_argument("--no-dask", action="store_true")
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--balance-probes", type=int, default=20)
    args = parser.parse_args(argv)

    timing = dict(QUICK if args.quick else LONG)
    if args.big:
        timing.update(BIG)
    small = {} if args.quick else SMALL
    problems = {name: build() for name, (build, _) in
                {**small, **timing}.items()}
    known = {name: k for name, (_, k) in {**small, **timing}.items()}
    workers = args.workers

    # Warm up: compile or load every kernel, start the Dask cluster.
    queens(9).count()
    queens(9).estimate(100)
    J.count(queens(9), jobs=2, split_jobs=8)
    client = cluster = None
    if not args.no_dask:
        try:
            from distributed import Client, LocalCluster
        except ImportError:
            print("dask is not installed: no Dask column", file=sys.stderr)
        else:
            cluster = LocalCluster(n_workers=workers, threads_per_worker=1,
                                   processes=True, host="127.0.0.1",
                                   dashboard_address=None)
            client = Client(cluster)
            J.count(queens(9), executor=client.get_executor(),
                    split_jobs=8)

    # The estimate of every counting benchmark, against the truth.
    estimates = {}
    for name, problem in problems.items():
        t0 = time.perf_counter()
        mean, error = probe_figures(problem, DEFAULT_PROBES, seed=0)
        probe_seconds = time.perf_counter() - t0
        estimate = problem.estimate()  # with the predicted time
        estimates[name] = dict(mean=mean, error=error,
                               probe_seconds=probe_seconds,
                               predicted=estimate.seconds,
                               exact=estimate.exact)
        print(f"estimated {name}", file=sys.stderr)

    # One core, all cores, the Dask cluster: in turn, round after round.
    best = {name: {} for name in problems}
    truth = {}
    for rnd in range(args.rounds):
        for name, problem in problems.items():
            runs = [("one", lambda: problem.count(algorithm="links"))]
            if name in timing:
                runs.append(("processes", lambda: problem.count(
                    jobs=workers)))
                if client is not None:
                    runs.append(("dask", lambda: problem.count(
                        executor=client.get_executor())))
            elif rnd:
                continue  # the small ones need only their true figures
            for label, run in runs:
                seconds, found = timed(run)
                got = figures(problem)
                assert found == known[name], (name, label, found)
                if label == "one":
                    truth[name] = got
                else:
                    assert got == truth[name], (name, label, got)
                old = best[name].get(label)
                best[name][label] = seconds if old is None else \
                    min(old, seconds)
                print(f"round {rnd + 1}: {name} {label} {seconds:.2f} s",
                      file=sys.stderr)

    # The balance of the split for a cluster (simulated, from estimates).
    balance = {}
    for name in timing:
        for w in (100, 1000):
            balance[name, w] = simulate(problems[name], w,
                                        args.balance_probes)
            print(f"balance {name} {w}: {balance[name, w]}",
                  file=sys.stderr)

    if client is not None:
        client.close()
        cluster.close()
    text = report(args, problems, timing, estimates, best, truth, balance,
                  workers, client is not None)
    print(text)
    if not args.no_write:
        write(text)


def report(args, problems, timing, estimates, best, truth, balance, workers,
           dask):
    lines = [BEGIN, "## Long counts: every core, Dask, the estimate, the "
             "balance of the split", ""]
    lines.append(
        f"Written by `bench/longcount.py{' --big' if args.big else ''}` on "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; "
        f"{platform.processor() or platform.machine()}, {os.cpu_count()} "
        f"cores shared with other work (noisy: compare ratios, not "
        f"times); Python {platform.python_version()}, dlx-toolkit "
        f"{dlx.__version__}.  Best of {args.rounds} rounds taking the "
        f"contenders in turn.  Every parallel run found the one-core "
        f"count, nodes and updates exactly.")
    lines += ["", f"### One core against {workers} (processes, and a Dask "
              f"LocalCluster of {workers} worker processes)", "",
              "| problem | solutions | nodes | one core (s) | "
              f"{workers} processes (s) | speed-up | Dask (s) | "
              "Dask / processes |", "|---|---|---|---|---|---|---|---|"]
    for name in timing:
        b = best[name]
        one, procs = b["one"], b["processes"]
        d = b.get("dask")
        lines.append(
            f"| {name} | {truth[name][0]:,} | {truth[name][1]:,} | "
            f"{one:.1f} | {procs:.1f} | {one / procs:.2f}x | "
            + (f"{d:.1f} | {d / procs:.2f} |" if d else "- | - |"))
    lines += ["", f"### Knuth's estimate ({DEFAULT_PROBES:,} probes, seed "
              f"0) against the true figures", "",
              "| problem | true nodes | estimated nodes | error | "
              "std. error | estimated solutions (true) | probes took (s) | "
              "predicted time (s) | one core (s) |",
              "|---|---|---|---|---|---|---|---|---|"]
    for name in problems:
        e = estimates[name]
        nodes = truth[name][1]
        err = e["mean"][0] / nodes - 1
        lines.append(
            f"| {name} | {nodes:,} | {e['mean'][0]:,.0f} | {100 * err:+.1f}% "
            f"| {100 * e['error'][0] / e['mean'][0]:.1f}% | "
            f"{e['mean'][2]:,.0f} ({truth[name][0]:,}) | "
            f"{e['probe_seconds']:.2f} | "
            + ("exact" if e["exact"] else f"{e['predicted']:.1f}")
            + f" | {best[name]['one']:.2f} |")
    lines += ["", "`predicted time` is `ExactCover.estimate().seconds`: the "
              "estimated updates at the rate of a short real search "
              "(\"exact\": that search finished the tree).", "",
              "### The split for a cluster (simulated from the estimate)", "",
              f"`count(jobs=W)` splits into {J.JOBS_PER_WORKER} jobs per "
              f"worker (splitting again the jobs its own estimate finds "
              f"far above the mean) and hands them out largest first; here "
              f"each job's updates are estimated anew with "
              f"{args.balance_probes} probes (other seeds) and the jobs are "
              f"scheduled on W workers in that order.  `largest / mean`: "
              f"the largest job "
              f"over the mean job; `efficiency`: total work over W times "
              f"the busiest worker's (1.0 is perfect balance).", "",
              "| problem | workers | jobs | split took (s) | largest / mean "
              "| efficiency |", "|---|---|---|---|---|---|"]
    for (name, w), b in balance.items():
        lines.append(f"| {name} | {w:,} | {b['jobs']:,} | "
                     f"{b['split_seconds']:.1f} | {b['largest']:.1f} | "
                     f"{b['efficiency']:.2f} |")
    lines.append(END)
    return "\n".join(lines) + "\n"


def write(text: str) -> None:
    with open(RESULTS, encoding="utf-8") as f:
        old = f.read()
    if BEGIN in old:
        head, rest = old.split(BEGIN, 1)
        tail = rest.split(END, 1)[1].lstrip("\n")
        new = head + text + ("\n" + tail if tail else "")
    else:
        new = old.rstrip("\n") + "\n\n" + text
    with open(RESULTS, "w", encoding="utf-8") as f:
        f.write(new)


if __name__ == "__main__":
    main()
