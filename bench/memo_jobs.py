"""Memoized counts in jobs: ``count(memo=True)`` against
``count(memo=True, jobs=N)`` (``dlx.services.memo_jobs``).

Each job of a memoized count in jobs has a memo of its own, so the jobs
repeat the subproblems they share; this measures what that costs and what
the processes win back.  Contenders, per problem:

- ``memo``: ``count(memo=True)``, one process;
- ``jobs=1 (S jobs)``: the split into S jobs counted one after the other
  in this process (the work the jobs add, without processes);
- ``jobs=N``: ``count(memo=True, jobs=N)`` (its default split,
  ``MEMO_JOBS_PER_WORKER`` jobs per worker), and ``jobs=N, S jobs``.

Every run is checked against the count of ``memo``; the best of
``--rounds`` rounds (the contenders alternate within a round) is kept,
with its CPU time (this process's and its workers') and nodes (the
split's and the jobs' together).
Kernels are loaded (numba's cache) on a small board before the clock
starts.

    python bench/memo_jobs.py                       # ~2 minutes
    python bench/memo_jobs.py --problems sudoku-grids-6x6 --sizes 2
    python bench/memo_jobs.py --problems dominoes-14x14 --rounds 1
    python bench/memo_jobs.py --markdown bench/RESULTS.md
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

HEADING = "## Memoized counts in jobs (bench/memo_jobs.py)"

# key -> (how to build it, known count)
PROBLEMS = {
    "dominoes-14x14": ("tiling:14x14", 112_202_208_776_036_178_000_000),
    "sudoku-grids-6x6": ("file:sudoku-grids-6x6.dlx", 28_200_960),
    "pentomino-6x10": ("file:pentomino-6x10-xquarter.dlx", 2_339),
}


def build(how: str):
    """A tiling (``tiling:RxC``) or a file of ``peers.EXACTCOVER_DIR``
    (``file:NAME``), as an ``ExactCover``; None when the file is not
    there."""
    import peers as P

    kind, what = how.split(":")
    if kind == "tiling":
        from dlx.problems.tiling import tiling

        return tiling(what)
    path = os.path.join(P.EXACTCOVER_DIR, what)
    if not os.path.exists(path):
        return None
    return P.to_exact_cover(P.read_dlx(path))


def contenders(workers: int, sizes: list[int]) -> list[tuple[str, dict]]:
    out: list[tuple[str, dict]] = [("memo", {})]
    out += [(f"jobs=1, {s} jobs", {"jobs": 1, "split_into": s}) for s in sizes]
    out.append((f"jobs={workers}", {"jobs": workers}))
    out += [
        (f"jobs={workers}, {s} jobs", {"jobs": workers, "split_into": s})
        for s in sizes
    ]
    return out


def cpu() -> float:
    """CPU seconds of this process and of its children waited for (a
    process pool's workers, once it is shut down)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def run(problem, options: dict) -> tuple[int, float, float, int]:
    """The count, its wall and CPU seconds, its nodes."""
    start, used = time.perf_counter(), cpu()
    found = problem.count(memo=True, **options)
    wall = time.perf_counter() - start
    return found, wall, cpu() - used, problem.stats.nodes


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--problems",
        default="dominoes-14x14,pentomino-6x10",
        help=f"some of {', '.join(PROBLEMS)} (the Sudoku grids take minutes)",
    )
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--sizes", default="2,8", help="split_into values to try"
    )
    parser.add_argument("--markdown", help="rewrite this file's section")
    args = parser.parse_args(argv)
    from dlx.problems.tiling import tiling

    tiling("6x6").count(memo=True, jobs=1, split_into=4)  # load the kernels
    sizes = [int(s) for s in args.sizes.split(",") if s]
    load = os.getloadavg()
    rows = []
    for key in args.problems.split(","):
        how, truth = PROBLEMS[key]
        problem = build(how)
        if problem is None:
            print(f"{key}: not available here, skipped", file=sys.stderr)
            continue
        problem.count(memo=True, jobs=1, split_into=2)  # its kernels
        best: dict = {}
        for _ in range(args.rounds):
            for name, options in contenders(args.workers, sizes):
                found, seconds, used, nodes = run(problem, options)
                assert found == truth, (key, name, found)
                old = best.get(name)
                if old is None or seconds < old[0]:
                    best[name] = (seconds, used, nodes)
                print(
                    f"{key} {name}: {seconds:.3f} s ({used:.3f} s CPU), "
                    f"{nodes:,} nodes"
                )
        base = best["memo"][0]
        for name, (seconds, used, nodes) in best.items():
            rows.append((key, name, seconds, used, base / seconds, nodes))
    lines = [
        HEADING,
        "",
        f"`python bench/memo_jobs.py --rounds {args.rounds}` on "
        f"{platform.machine()}, {os.cpu_count()} cores (shared: other "
        "work ran beside it), best of the rounds.  Speed-up: the memo's "
        "time over this one's (above 1: faster); CPU: this process's "
        "and its workers' (CPU over time: the cores it had).  Load "
        f"average before and after: {load[0]:.1f}, {os.getloadavg()[0]:.1f}.",
        "",
        "Each job has a memo of its own: the nodes show what the jobs "
        "repeat of each other's subproblems (on the domino board swept in "
        "item order, nearly all of it; with MRV on the pentominoes, "
        "little), and the CPU column what a second process had to run on.",
        "",
        "| problem | run | time | CPU | speed-up | nodes |",
        "|---|---|---|---|---|---|",
    ]
    for key, name, seconds, used, ratio, nodes in rows:
        lines.append(
            f"| {key} | {name} | {seconds:.2f} s | {used:.2f} s | "
            f"{ratio:.2f} | {nodes:,} |"
        )
    text = "\n".join(lines) + "\n"
    print(text)
    if args.markdown:
        write_section(args.markdown, text)
    return 0


def write_section(path: str, text: str) -> None:
    """Replace the section headed ``HEADING`` (up to the next second-level
    heading), or append it."""
    try:
        with open(path, encoding="utf-8") as f:
            old = f.read()
    except FileNotFoundError:
        old = ""
    if HEADING in old:
        start = old.index(HEADING)
        end = old.find("\n## ", start + len(HEADING))
        end = len(old) if end < 0 else end + 1
        new = old[:start] + text + ("\n" + old[end:] if end < len(old) else "")
    else:
        new = old.rstrip("\n") + "\n\n" + text
    with open(path, "w", encoding="utf-8") as f:
        f.write(new)


if __name__ == "__main__":
    sys.exit(main())
