"""Reduction before the search (issue 28): where does it pay?

For each problem: its options and items, what
``dlx.services.reduce.reduce`` (every rule) and Knuth's DLX-PRE leave of
them, the time each takes to reduce,
and the search (``count``, its default algorithm, one thread) with and
without ``reduce=True`` -- time and nodes.  ``reduce=True``'s time includes
the reduction's, so the ratio ``with / without`` is what a user sees.

Problems: the builders' (pentomino boards with holes, Soma and flat
pentacubes, queens, Langford pairs), Sudoku puzzles and their variants
(givens committed by the reduction; a row is a set of puzzles, each
searched to ``limit=2`` as the Sudoku solver does), and the files of
``shared/data/exactcover``.  DLX-PRE reads the problem as a file written by
``dlx.dumps`` (for Sudoku: the problem with the givens committed, no other
rule), its wall-clock time taken with reading and writing; it is skipped
for bounds (it refuses them) and when its binary is absent (``DLX_PRE``,
default ``/work/knuth/dlx-pre``; build it from Knuth's ``dlx-pre.w`` with
``ctangle`` and ``gcc -O2``).

Every figure is the best of ``--reps`` runs (a run over 2 s is timed
once); the runs with and without reduction alternate, after a warm-up
(numba compiles or loads its cache there).  Counts are checked against
each other and against the known ones.

    python bench/reduce.py                         # everything, ~5-10 min
    python bench/reduce.py --problems soma,queens-12 --reps 1
    python bench/reduce.py --markdown bench/RESULTS.md

``--markdown`` rewrites the section of RESULTS.md headed ``HEADING`` and
leaves the rest of the file as it is.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "tests"))

from dlx import dumps, load  # noqa: E402
from dlx.services.reduce import reduce  # noqa: E402

HEADING = "## Reduction before the search (bench/reduce.py)"
DATA = os.environ.get(
    "DLX_BENCH_DATA", os.path.join(os.path.dirname(ROOT), "shared", "data")
)
EXACTCOVER = os.path.join(DATA, "exactcover")
DLX_PRE = os.environ.get("DLX_PRE", "/work/knuth/dlx-pre")
TESTS = os.path.join(ROOT, "tests", "data")


# -- the problems: key -> () -> [(problem, givens, limit)], known count ------


def _pentomino(board):
    def build():
        from dlx.problems.polyomino import Polyomino

        return [(Polyomino(board).problem, (), None)]

    return build


def _holes(rows, cols, holes):
    return "\n".join(
        "".join("#" if (r, c) in holes else "." for c in range(cols))
        for r in range(rows)
    )


def _polycube(pieces, box):
    def build():
        from dlx.problems.polycube import Polycube

        return [(Polycube(box, pieces).problem, (), None)]

    return build


def _queens(n):
    def build():
        from dlx.problems.queens import queens

        return [(queens(n), (), None)]

    return build


def _langford(n):
    def build():
        from dlx.problems.langford import langford

        return [(langford(n), (), None)]

    return build


def _file(name):
    def build():
        return [(load(os.path.join(EXACTCOVER, name)), (), None)]

    return build


def _files(prefix):
    def build():
        names = sorted(
            n
            for n in os.listdir(EXACTCOVER)
            if n.startswith(prefix) and n.endswith(".dlx") and "grids" not in n
        )
        return [(load(os.path.join(EXACTCOVER, n)), (), 2) for n in names]

    return build


def _sudoku(path, box=(3, 3), variant=None, first=None):
    """The puzzles of a file (one a line; a variants file: ``variant
    puzzle solution [regions]``) with their givens."""

    def build():
        from sudoku.encode import Variant, problem
        from sudoku.grid import parse
        from sudoku.solver import given_options

        out = []
        with open(path, encoding="utf-8") as handle:
            lines = [
                line.split()
                for line in handle
                if line.strip() and not line.startswith("#")
            ]
        for words in lines[:first]:
            if variant is None:
                rules, puzzle, regions = None, words[0], None
            else:
                if words[0] != variant:
                    continue
                rules, puzzle = words[0], words[1]
                regions = words[3] if len(words) > 3 else None
            n = int(round(len(puzzle) ** 0.5))
            shape = box if n == box[0] * box[1] else (2, 3)
            v = None if rules is None else Variant(rules, regions=regions)
            grid = parse(puzzle, shape)
            givens = given_options(grid.cells[None])[0].tolist()
            out.append((problem(shape, v), givens, 2))
        return out

    return build


PROBLEMS = {
    "pentomino-8x8-centre": (
        _pentomino(_holes(8, 8, {(3, 3), (3, 4), (4, 3), (4, 4)})),
        520,
    ),
    "pentomino-8x8-corners": (
        _pentomino(_holes(8, 8, {(0, 0), (0, 7), (7, 0), (7, 7)})),
        None,
    ),
    "pentomino-8x8-scattered": (
        _pentomino(_holes(8, 8, {(1, 1), (2, 5), (5, 2), (6, 6)})),
        None,
    ),
    "pentomino-3x20": (_pentomino("3x20"), 8),
    "pentomino-6x10": (_file("pentomino-6x10.dlx"), 9356),
    "pentomino-6x10-xquarter": (_file("pentomino-6x10-xquarter.dlx"), 2339),
    "soma": (_polycube("soma", "3x3x3"), 11520),
    "flat-pentacubes-2x5x6": (_polycube("flat-pentacubes", "2x5x6"), None),
    "queens-12": (_queens(12), 14200),
    "queens-13": (_queens(13), 73712),
    "langford-11": (_langford(11), 17792),
    "langford-12": (_langford(12), 108144),
    "sudoku-files (24)": (_files("sudoku-"), 24),
    "sudoku-hardest (11)": (
        _sudoku(os.path.join(DATA, "sudoku", "hardest.txt")),
        11,
    ),
    "sudoku-top95 (first 20)": (
        _sudoku(os.path.join(DATA, "sudoku", "top95.txt"), first=20),
        20,
    ),
    "sudoku-x": (
        _sudoku(os.path.join(TESTS, "sudoku_variants.txt"), variant="x"),
        1,
    ),
    "sudoku-anti-knight (3)": (
        _sudoku(
            os.path.join(TESTS, "sudoku_variants.txt"), variant="anti-knight"
        ),
        3,
    ),
    "sudoku-windoku": (
        _sudoku(os.path.join(TESTS, "sudoku_variants.txt"), variant="windoku"),
        1,
    ),
    "sudoku-jigsaw": (
        _sudoku(os.path.join(TESTS, "sudoku_variants.txt"), variant="jigsaw"),
        1,
    ),
    "hexadoku-16x16 (3)": (
        _sudoku(
            os.path.join(TESTS, "sudoku_hexadoku16.txt"), box=(4, 4), first=3
        ),
        3,
    ),
    "sudoku-25x25 (3)": (
        _sudoku(
            os.path.join(TESTS, "sudoku_25x25_sample.txt"), box=(5, 5), first=3
        ),
        3,
    ),
}


# -- measuring ----------------------------------------------------------------


def best_of(reps, run):
    """(best seconds, last result) of up to ``reps`` runs of ``run``."""
    best, result = None, None
    for _ in range(reps):
        t0 = time.perf_counter()
        result = run()
        dt = time.perf_counter() - t0
        best = dt if best is None else min(best, dt)
        if dt > 2.0:
            break
    return best, result


def dlx_pre(instances, reps):
    """DLX-PRE's (seconds, options left, items left), summed over the
    instances, or None."""
    if not os.path.exists(DLX_PRE):
        return None
    total, options, items = 0.0, 0, 0
    with tempfile.TemporaryDirectory() as folder:
        for k, (problem, givens, _) in enumerate(instances):
            if problem.kind == "multiplicities":
                return None
            if givens:
                problem = reduce(problem, given=givens, rules=()).problem
            path = os.path.join(folder, f"{k}.dlx")
            with open(path, "w") as handle:
                handle.write(
                    dumps(problem, max_name_length=None, max_color_length=None)
                )

            def run():
                with open(path) as source:
                    return subprocess.run(
                        [DLX_PRE, "v9"],
                        stdin=source,
                        capture_output=True,
                        text=True,
                        check=True,
                    ).stdout

            seconds, out = best_of(reps, run)
            lines = out.splitlines()
            total += seconds
            options += sum(
                1 for line in lines[1:] if not line.lstrip().startswith("|")
            )
            items += len(lines[0].replace("|", " ").split())
    return total, options, items


def measure(key, reps):
    build, known = PROBLEMS[key]
    instances = build()
    options = sum(len(p.options) for p, _, _ in instances)
    items = sum(len(p.items) for p, _, _ in instances)
    # Warm up: numba compiles or loads its caches, and each problem builds
    # its search arrays (kept: a Sudoku's encoding serves every puzzle).
    for problem, givens, _limit in instances:
        problem.count(limit=1, given=givens)
    instances[0][0].count(limit=1, given=instances[0][1], reduce=True)
    row = {
        "problem": key,
        "instances": len(instances),
        "options": options,
        "items": items,
    }

    def reduce_all():
        return [reduce(p, given=g) for p, g, _ in instances]

    row["reduce_s"], reductions = best_of(reps, reduce_all)
    row["left_options"] = sum(len(r.problem.options) for r in reductions)
    row["left_items"] = sum(len(r.problem.items) for r in reductions)
    row["rounds"] = max(r.rounds for r in reductions)
    pre = dlx_pre(instances, reps)
    if pre is not None:
        row["pre_s"], row["pre_options"], row["pre_items"] = pre

    def plain():
        found, nodes, updates = 0, 0, 0
        for problem, givens, limit in instances:
            found += problem.count(limit=limit, given=givens)
            nodes += problem.stats.nodes
            updates += problem.stats.updates
        return found, nodes, updates

    def reduced_search():  # the reduced problems' arrays built before
        found, nodes, updates = 0, 0, 0
        for r, (_, _, limit) in zip(reductions, instances):
            found += r.problem.count(limit=limit)
            nodes += r.problem.stats.nodes
            updates += r.problem.stats.updates
        return found, nodes, updates

    def with_reduce():  # what a user sees: reduce, build, search
        return sum(
            problem.count(limit=limit, given=givens, reduce=True)
            for problem, givens, limit in instances
        )

    reduced_search()  # builds the reduced problems' arrays
    best = {}
    results = {}
    for _ in range(reps):  # in turn, best of each
        for name, run in (
            ("plain", plain),
            ("with", with_reduce),
            ("reduced", reduced_search),
        ):
            t0 = time.perf_counter()
            results[name] = run()
            dt = time.perf_counter() - t0
            best[name] = min(dt, best.get(name, dt))
        if best["plain"] > 10.0:
            break
    found, nodes, updates = results["plain"]
    assert results["with"] == found == results["reduced"][0], (key, results)
    assert known is None or found == known, (key, found, known)
    row.update(
        count=found,
        plain_s=best["plain"],
        reduced_s=best["with"],
        search_reduced_s=best["reduced"],
        plain_nodes=nodes,
        plain_updates=updates,
        reduced_nodes=results["reduced"][1],
        reduced_updates=results["reduced"][2],
    )
    return row


# -- the report ---------------------------------------------------------------


def _seconds(s):
    if s is None:
        return "-"
    if s < 0.01:
        return f"{s * 1000:.2f} ms"
    if s < 1:
        return f"{s * 1000:.0f} ms"
    return f"{s:.2f} s" if s < 10 else f"{s:.1f} s"


def markdown(rows, meta) -> str:
    lines = [
        HEADING,
        "",
        f"Written by `python bench/reduce.py --reps {meta['reps']} "
        f"--markdown bench/RESULTS.md` on {meta['date']}; "
        f"{meta['cpus']} shared CPUs (load average {meta['load']} at the "
        f"start: the times are noisy, the updates are not), Python "
        f"{meta['python']}.  *options / items*: before, and what is left "
        f"after our reduction (every rule) and after DLX-PRE's; *reduce*: "
        f"our reduction; *DLX-PRE*: its wall clock, reading and writing "
        f"the file included; *search*: `count()` (limit 2 for Sudoku, "
        f"givens given), its arrays built before; *reduced*: the same "
        f"search of the reduced problem; *with reduce*: "
        f"`count(reduce=True)`, reducing, building and searching; "
        f"*ratio*: with reduce / search (below 1: the reduction pays); "
        f"*updates*: the search's link updates, before -> after (DLX1's "
        f"measure of its work).",
        "",
        "| problem | options / items | left (ours) | left (DLX-PRE) | "
        "rounds | reduce | DLX-PRE | search | reduced | with reduce | "
        "ratio | updates |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        pre = (
            f"{r['pre_options']:,} / {r['pre_items']:,}"
            if "pre_options" in r
            else "-"
        )
        lines.append(
            f"| {r['problem']} | {r['options']:,} / {r['items']:,} | "
            f"{r['left_options']:,} / {r['left_items']:,} | {pre} | "
            f"{r['rounds']} | {_seconds(r['reduce_s'])} | "
            f"{_seconds(r.get('pre_s'))} | {_seconds(r['plain_s'])} | "
            f"{_seconds(r['search_reduced_s'])} | "
            f"{_seconds(r['reduced_s'])} | "
            f"{r['reduced_s'] / r['plain_s']:.2f} | "
            f"{r['plain_updates']:,} -> {r['reduced_updates']:,} |"
        )
    return "\n".join(lines) + "\n"


def write_section(path, text):
    """Replace the section headed ``HEADING`` in ``path`` (up to the next
    second-level heading) with ``text``, or append it."""
    try:
        with open(path) as f:
            old = f.read()
    except FileNotFoundError:
        old = ""
    start = old.find(HEADING + "\n")
    if start < 0:
        new = old.rstrip("\n") + "\n\n" + text
    else:
        end = old.find("\n## ", start + len(HEADING))
        new = old[:start] + text + (old[end:] if end >= 0 else "")
    with open(path, "w") as f:
        f.write(new)


def main(argv=None):
    ap = argparse.ArgumentParser(
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ap.add_argument("--problems", default=",".join(PROBLEMS))
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--markdown", default=None)
    args = ap.parse_args(argv)
    meta = {
        "date": time.strftime("%Y-%m-%d"),
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "reps": args.reps,
        "load": f"{os.getloadavg()[0]:.1f}",
    }
    rows = []
    for key in args.problems.split(","):
        try:
            row = measure(key, args.reps)
        except FileNotFoundError as error:
            print(f"{key}: skipped ({error})", file=sys.stderr)
            continue
        rows.append(row)
        print(markdown([row], meta).splitlines()[-1], flush=True)
    text = markdown(rows, meta)
    if args.markdown:
        write_section(args.markdown, text)
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
