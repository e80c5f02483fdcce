"""Dancing cells against Knuth's SSXC1, DLX1 and our dancing links.

For each counting file of ``shared/data/exactcover`` the contenders run in
turn, round after round, from this one script (Knuth's programs as
subprocesses reading the file), and each keeps its best round.  Times are
CPU seconds (user + system: ``time.process_time`` for ours, the child's
rusage for Knuth's), which a machine shared with other work disturbs far
less than wall time; Knuth's include process start and reading the input
(a few ms).  Counts, nodes and updates are checked: ours with
``algorithm="cells"`` must equal what SSXC1 printed.  Then the Sudoku
batches (``sudoku.solve_many``, one thread) with each of our kernels.

    python bench/cells_vs_ssxc1.py                 # SSXC1, DLX1 from /work/knuth
    SSXC1=/path/ssxc1 DLX1=/path/dlx1 python bench/cells_vs_ssxc1.py --rounds 3
    python bench/cells_vs_ssxc1.py --problems queens-12,top95
    python bench/cells_vs_ssxc1.py --results bench/RESULTS.md   # its section there

*Ours* is what ``count()`` runs by default (``algorithm="auto"``: cells or
links, see ``dlx/algorithm.py``); the table ends with SSXC1's time over
ours.  The exact command and the load average (before and after) are
printed with the table, since the machine may be shared.
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
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)

import peers as P  # noqa: E402

FILES = {
    "queens-12": "queens-12.dlx",
    "queens-13": "queens-13.dlx",
    "langford-11": "langford-11.dlx",
    "langford-12": "langford-12.dlx",
    "pentomino-6x10-2339": "pentomino-6x10-xquarter.dlx",
    "pentomino-6x10-9356": "pentomino-6x10.dlx",
    "sudoku-grids-6x6": "sudoku-grids-6x6.dlx",
}

TOTALS = (
    r"Altogether (\d+) solutions?, \d+\+\d+ mems, (\d+) updates,"
    r" \d+ bytes, (\d+) nodes"
)


SUDOKU = {
    "top95": "top95.txt",
    "top1465": "top1465.txt",
    "17clue-10k": "17clue.txt",
    "forum_hardest": "forum_hardest.txt",
}


def knuth(binary, path):
    """Run one of Knuth's programs on ``path``: (CPU seconds, (count,
    nodes, updates))."""
    with open(path) as f, tempfile.TemporaryFile("w+") as err:
        proc = subprocess.Popen(
            [binary], stdin=f, stdout=subprocess.DEVNULL, stderr=err
        )
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = status
        err.seek(0)
        text = err.read()
    n, updates, nodes = (int(x) for x in re.search(TOTALS, text).groups())
    return usage.ru_utime + usage.ru_stime, (n, nodes, updates)


def ours(problem, algorithm):
    t0 = time.process_time()
    n = problem.count(algorithm=algorithm)
    dt = time.process_time() - t0
    s = problem.stats
    return dt, (n, s.nodes, s.updates)


def sudoku_batch(puzzles, algorithm):
    """``sudoku.solve_many`` on one thread with ``algorithm`` as the
    default of ``solve_batch``: (CPU seconds, (puzzles, nodes, updates))."""
    import dlx.problem
    import sudoku
    from dlx.algorithm import choose_algorithm

    def forced(name, problem, purpose="search"):
        return choose_algorithm(
            algorithm if name == "auto" else name, problem, purpose
        )

    original = dlx.problem.choose_algorithm
    dlx.problem.choose_algorithm = forced
    try:
        t0 = time.process_time()
        results = sudoku.solve_many(puzzles, threads=1)
        dt = time.process_time() - t0
    finally:
        dlx.problem.choose_algorithm = original
    assert all(r.status == "solved" for r in results)
    return dt, (len(results), 0, 0)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument(
        "--problems",
        default=None,
        help="comma-separated keys (default: all) of " + ", ".join(FILES),
    )
    ap.add_argument(
        "--results",
        default=None,
        help="write the tables into this RESULTS.md, replacing "
        "their section (compare.py keeps it)",
    )
    args = ap.parse_args(argv)
    ssxc1 = os.environ.get("SSXC1", "/work/knuth/ssxc1")
    dlx1 = os.environ.get("DLX1", "/work/knuth/dlx1")
    keys = (
        args.problems.split(",")
        if args.problems
        else list(FILES) + list(SUDOKU)
    )
    from dlx import ExactCover

    warm = ExactCover("ab")
    warm.add_options(["a", "b"])
    for algorithm in ("links", "cells"):
        warm.count(algorithm=algorithm)
    rows = []
    sudoku_rows = []
    load_before = os.getloadavg()
    command = "python bench/cells_vs_ssxc1.py " + " ".join(
        argv if argv is not None else sys.argv[1:]
    )
    for key in keys:
        if key in SUDOKU:
            puzzles = P.read_puzzles(
                os.path.join(P.SUDOKU_DIR, SUDOKU[key]), 10_000
            )
            best = {}
            for algorithm in ("links", "cells"):
                sudoku_batch(puzzles[:5], algorithm)  # warm up
            for _ in range(args.rounds):
                for algorithm in ("links", "cells"):
                    dt, _ = sudoku_batch(puzzles, algorithm)
                    best[algorithm] = min(dt, best.get(algorithm, dt))
            sudoku_rows.append((key, len(puzzles), best))
            print(
                f"{key} ({len(puzzles)} puzzles): links "
                f"{best['links']:.3f} s, cells {best['cells']:.3f} s; "
                f"links/cells {best['links'] / best['cells']:.2f}",
                flush=True,
            )
            continue
        path = os.path.join(P.EXACTCOVER_DIR, FILES.get(key, key + ".dlx"))
        if not os.path.exists(path):
            print(f"{key}: skipped, {path} is absent")
            continue
        problem = P.to_exact_cover(P.read_dlx(path))
        contenders = {
            "cells": lambda: ours(problem, "cells"),
            "links": lambda: ours(problem, "links"),
        }
        if os.access(ssxc1, os.X_OK):
            contenders["SSXC1"] = lambda: knuth(ssxc1, path)
        if os.access(dlx1, os.X_OK):
            contenders["DLX1"] = lambda: knuth(dlx1, path)
        best, work = {}, {}
        for _ in range(args.rounds):
            for name, run in contenders.items():
                dt, w = run()
                best[name] = min(dt, best.get(name, dt))
                work[name] = w
        if "SSXC1" in work and work["cells"] != work["SSXC1"]:
            raise SystemExit(
                f"{key}: cells did {work['cells']}, SSXC1 {work['SSXC1']}"
            )
        auto = problem._algorithm("auto")
        rows.append((key, best, work, auto))
        print(
            f"{key}: "
            + ", ".join(f"{k} {v:.3f} s" for k, v in best.items())
            + f"; ours = {auto}; SSXC1/ours "
            + (f"{best['SSXC1'] / best[auto]:.2f}" if "SSXC1" in best else "-")
            + f"; links/cells {best['links'] / best['cells']:.2f}",
            flush=True,
        )
    load = (load_before, os.getloadavg())
    section = markdown(rows, sudoku_rows, args.rounds, command, load)
    print()
    print(section)
    if args.results:
        text = ""
        if os.path.exists(args.results):
            with open(args.results) as f:
                text = f.read()
        heading = section.split("\n", 1)[0]
        start = text.find(heading + "\n")
        if start < 0:
            text = text.rstrip("\n") + "\n\n" + section
        else:
            end = text.find("\n## ", start + len(heading))
            rest = text[end + 1 :] if end >= 0 else ""
            text = text[:start] + section + ("\n" + rest if rest else "")
        with open(args.results, "w") as f:
            f.write(text)


def markdown(rows, sudoku_rows, rounds, command, load):
    lines = [
        "## Dancing cells against SSXC1 and DLX1",
        "",
        f"Written by `{command}` on "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load "
        f"average {load[0][0]:.1f} before and {load[1][0]:.1f} after on "
        f"{os.cpu_count()} cores, best of {rounds} rounds: the "
        "contenders run in turn, round after round, each keeping its best "
        "round (one thread each).  Times are CPU seconds (user + system), "
        "which a shared machine disturbs far less than wall "
        "time.  *cells* and *links* are `ExactCover.count(algorithm=...)` "
        "(the arrays are built in the first round, outside the best "
        "time); SSXC1 and DLX1 are the builds in /work/knuth, one process "
        "per run reading the file (process start and input included: a "
        "few ms).  Ratios are times over ours with cells: above 1, slower "
        "than cells.  *ours* is what `count()` runs by default "
        '(`algorithm="auto"`), and *SSXC1 / ours* the target (at least '
        "1).  Our cells search makes exactly SSXC1's nodes and "
        "updates (checked on every run), our links search exactly "
        "DLX1's.",
        "",
        "| problem | cells (s) | links (s) | SSXC1 (s) | DLX1 (s) | "
        "links / cells | SSXC1 / cells | DLX1 / cells | cells nodes | "
        "cells updates | links nodes | ours | SSXC1 / ours |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    if not rows:
        lines = lines[:-3]  # no counting table
    for key, best, work, auto in rows:
        c = best["cells"]

        def t(name):
            return f"{best[name]:.3f}" if name in best else "-"

        def r(name):
            return f"{best[name] / c:.2f}" if name in best else "-"

        lines.append(
            f"| {key} | {t('cells')} | {t('links')} | {t('SSXC1')} | "
            f"{t('DLX1')} | {r('links')} | {r('SSXC1')} | {r('DLX1')} | "
            f"{work['cells'][1]:,} | {work['cells'][2]:,} | "
            f"{work['links'][1]:,} | {auto} | "
            + (f"{best['SSXC1'] / best[auto]:.2f}" if "SSXC1" in best else "-")
            + " |"
        )
    if sudoku_rows:
        lines += [
            "",
            "Sudoku batches, `sudoku.solve_many(threads=1)` "
            "(uniqueness check, limit 2) with each kernel:",
            "",
            "| batch | puzzles | links (s) | cells (s) | links / cells |",
            "|---|---|---|---|---|",
        ]
        for key, n, best in sudoku_rows:
            lines.append(
                f"| {key} | {n} | {best['links']:.3f} | "
                f"{best['cells']:.3f} | "
                f"{best['links'] / best['cells']:.2f} |"
            )
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
