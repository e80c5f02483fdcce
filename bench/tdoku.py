"""Side by side with tdoku: its own benchmark program against ``solve_many``.

    TDOKU=/path/to/run_benchmark python bench/tdoku.py [--before DIR]
        [--sets 17clue,top1465,forum] [--seconds 5] [--rounds 2]
        [--markdown bench/RESULTS.md]

tdoku (Tom Dillon's SIMD Sudoku solver, C++) is not part of this project
and never a test dependency; build its benchmark program from its public
sources once, outside this tree, with its default flags (``-O3
-march=native``; with no other option its build holds only tdoku's own
solver)::

    git clone https://github.com/t-dillon/tdoku /tmp/tdoku
    cmake -S /tmp/tdoku -B /tmp/tdoku-build && make -C /tmp/tdoku-build run_benchmark

For each set, in turn round after round (best round kept):

* **tdoku**: ``run_benchmark -s tdoku -r0 -n N -t SECONDS -w WARMUP FILE``
  on a file holding exactly the set's ``N`` puzzles: its fastest solver
  (``tdoku``, the only one built by default), the puzzles as given
  (``-r0``: not permuted, ``-n N``: neither sampled nor repeated), in its
  default mode, which stops each puzzle at its second solution
  (uniqueness; ``-f`` would stop at the first), on one thread, solutions
  validated during its warm-up.  Its rate is puzzles per second of wall
  time over whole passes through the set.
* **ours**: ``sudoku.solve_many(puzzles, limit=2, threads=1)`` on the same
  puzzles as strings, in a fresh process on this source tree, after a
  warm-up (numba compiles or loads its cache there), parsing and result
  objects included; every answer checked (solved, valid) after the clock.
* **text** (where the tree has it): ``sudoku.solve_text(text,
  threads=1)``, the text path: the set's text in (one puzzle a line),
  the text ``sudoku solve FILE`` writes out, every answer checked the
  same way.  ``all cores``: ``solve_many(threads=0)``, for scale (the
  target is one thread).  The answers are checked with numpy alone
  (``check_answers``: the givens kept, every unit a permutation), not
  with tdoku nor the solver's own checks.
* **before** (with ``--before DIR``): the same on another source tree,
  e.g. ``git archive main | tar -x -C /tmp/base``.

Sets: ``17clue`` (49,158 puzzles with 17 givens), ``top1465``, ``forum``
(every 5th line of the forum's hardest 11+ list, from the first: 9,754),
and for before/after only ``top95``, ``kudoku20``, ``forum375`` (the 375
of ``forum_hardest.txt``), ``hexadoku16`` (16x16), ``sudoku25`` (25x25),
where tdoku (9x9 only) shows ``-``.  Not a test: nothing asserts a time.
The load average is printed at the start and the end; on a shared
machine, compare ratios from one run.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

from peers import DATA  # noqa: E402

SUDOKU_DIR = os.path.join(DATA, "sudoku")
if not os.path.isdir(SUDOKU_DIR) and os.path.isdir("/work/shared/data"):
    SUDOKU_DIR = "/work/shared/data/sudoku"

# name: (file, step, 9x9)
SETS = {
    "17clue": ("17clue.txt", 1, True),
    "top1465": ("top1465.txt", 1, True),
    "forum": ("forum_hardest_1905_11plus.txt", 5, True),
    "top95": ("top95.txt", 1, True),
    "kudoku20": ("kudoku20.txt", 1, True),
    "forum375": ("forum_hardest.txt", 1, True),
    "hexadoku16": ("hexadoku16.txt", 1, False),
    "sudoku25": ("sudoku25.txt", 1, False),
}
DEFAULT_SETS = "17clue,top1465,forum"
# The section of RESULTS.md this writes (bench/compare.py keeps it).
HEADING = "## Against tdoku, measured (bench/tdoku.py)"


def read_set(name: str) -> list[str]:
    """The puzzles of a set, one string each (first field of a line)."""
    file, step, _ = SETS[name]
    with open(os.path.join(SUDOKU_DIR, file)) as f:
        lines = [
            line.split()[0]
            for line in f
            if line.strip() and not line.startswith("#")
        ]
    return lines[::step]


# -- ours, in a fresh process -------------------------------------------------


def check_answers(puzzles: list[str], answers: list[str]) -> None:
    """Every answer a valid solution of its puzzle, checked with numpy
    alone (not with the solver's own checks): one digit 1-n a cell, the
    givens kept, every row, column and box a permutation of 1-n."""
    import numpy as np

    if len(answers) != len(puzzles):
        raise SystemExit(f"{len(answers)} answers for {len(puzzles)} puzzles")
    digits = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    value = np.zeros(256, np.int64)
    for k, ch in enumerate(digits):
        value[ord(ch)] = value[ord(ch.lower())] = k + 1
    size = len(puzzles[0])
    n = int(round(size**0.5))
    rows = next(r for r in range(int(n**0.5), 0, -1) if n % r == 0)
    cols = n // rows

    def cells(lines):
        raw = np.frombuffer("".join(lines).encode("latin-1"), np.uint8)
        return value[raw].reshape(len(lines), n, n)

    if any(len(a) != size for a in answers):
        bad = next(a for a in answers if len(a) != size)
        raise SystemExit(f"not a solution: {bad!r}")
    given, solved = cells(puzzles), cells(answers)
    boxes = (
        solved.reshape(len(solved), n // rows, rows, n // cols, cols)
        .transpose(0, 1, 3, 2, 4)
        .reshape(len(solved), n, n)
    )
    want = np.arange(1, n + 1)
    ok = ((given == 0) | (given == solved)).all(axis=(1, 2))
    for units in (solved, solved.transpose(0, 2, 1), boxes):
        ok &= (np.sort(units, axis=2) == want).all(axis=(1, 2))
    if not ok.all():
        k = int(np.flatnonzero(~ok)[0])
        raise SystemExit(f"wrong answer for {puzzles[k]}: {answers[k]}")


def worker(tree: str, name: str, rounds: int) -> dict:
    """Time ``solve_many(limit=2, threads=1)`` on one set with the source
    tree ``tree``: the best of ``rounds`` runs, answers checked; where the
    tree has it, the text path too (``sudoku.solve_text`` on the set's
    text, one thread), and ``solve_many`` on all cores (``threads=0``)."""
    sys.path.insert(0, tree)
    import sudoku

    puzzles = read_set(name)
    t0 = time.perf_counter()
    sudoku.solve_many([puzzles[0]], limit=2, threads=1)
    warm = time.perf_counter() - t0
    best = best_cpu = float("inf")
    results = None
    for _ in range(rounds):
        t0, c0 = time.perf_counter(), time.process_time()
        results = sudoku.solve_many(puzzles, limit=2, threads=1)
        best = min(best, time.perf_counter() - t0)
        best_cpu = min(best_cpu, time.process_time() - c0)
    assert results is not None
    if any(r.status != "solved" for r in results):
        bad = next(r for r in results if r.status != "solved")
        raise SystemExit(f"{tree}: not solved: {bad}")
    check_answers(puzzles, [r.grid.format("line") for r in results])
    got = {
        "rate": len(puzzles) / best,
        "seconds": best,
        "cpu_rate": len(puzzles) / best_cpu,
        "puzzles": len(puzzles),
        "warm": warm,
    }
    best = float("inf")
    for _ in range(rounds):
        t0 = time.perf_counter()
        results = sudoku.solve_many(puzzles, limit=2, threads=0)
        best = min(best, time.perf_counter() - t0)
    got["all_cores_rate"] = len(puzzles) / best
    if hasattr(sudoku, "solve_text"):
        text = "\n".join(puzzles) + "\n"
        sudoku.solve_text(text[: len(puzzles[0]) + 1], threads=1)
        best = best_cpu = float("inf")
        for _ in range(rounds):
            t0, c0 = time.perf_counter(), time.process_time()
            out = sudoku.solve_text(text, threads=1).text
            best = min(best, time.perf_counter() - t0)
            best_cpu = min(best_cpu, time.process_time() - c0)
        check_answers(puzzles, out.splitlines())
        got["text_rate"] = len(puzzles) / best
        got["text_cpu_rate"] = len(puzzles) / best_cpu
    return got


def ours(tree: str, name: str, rounds: int) -> dict:
    out = subprocess.run(
        [sys.executable, __file__, "--worker", tree, name, str(rounds)],
        check=True,
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


# -- tdoku ----------------------------------------------------------------------


def tdoku(binary: str, name: str, seconds: int, warmup: int) -> dict:
    """tdoku's rate on a file of exactly the set's puzzles."""
    puzzles = read_set(name)
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("\n".join(puzzles) + "\n")
        path = f.name
    try:
        command = [
            binary,
            "-s",
            "tdoku",
            "-r0",
            "-n",
            str(len(puzzles)),
            "-t",
            str(seconds),
            "-w",
            str(warmup),
            "-v1",
            path,
        ]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        out = subprocess.run(
            command, check=True, capture_output=True, text=True
        ).stdout
        wall = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    finally:
        os.unlink(path)
    # The share of the run that tdoku had a core (it never waits): its
    # rate per CPU second is its rate over wall time divided by that.
    busy = (
        (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    ) / wall
    for line in out.splitlines():
        if line.startswith("|tdoku"):
            cells = [
                c.strip().replace("'", "").replace(",", "")
                for c in line.split("|")[2:6]
            ]
            wall_rate = float(cells[0])
            return {
                "rate": wall_rate,
                "cpu_rate": wall_rate / min(1.0, busy),
                "usec": float(cells[1]),
                "no_guess": cells[2],
                "guesses": float(cells[3]),
                # No local path in the results: the program by its name.
                "command": " ".join(
                    ["run_benchmark"] + command[1:-1] + [f"<{name}>"]
                ),
            }
    raise SystemExit(f"no tdoku line in its output:\n{out}")


def load() -> str:
    return " ".join(open("/proc/loadavg").read().split()[:3])


def rate(value: float) -> str:
    """A rate with thousands separators, or three digits when small."""
    return f"{value:,.0f}" if value >= 100 else f"{value:.3g}"


def table(rows: list[dict], before: bool) -> str:
    """``text`` is the text path (``solve_text``: text in, text out),
    ``many`` ``solve_many`` (Result objects), both on one thread; ``all
    cores`` is ``solve_many(threads=0)``."""
    head = ["set", "puzzles"]
    if before:
        head.append("before, many (puzzles/s)")
    head += [
        "after, many (puzzles/s)",
        "after, text (puzzles/s)",
        "tdoku (puzzles/s)",
        "text / tdoku",
        "many / tdoku",
    ]
    if before:
        head += ["before / tdoku", "text / before"]
    head += ["text / tdoku, CPU", "after, many, all cores (puzzles/s)"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in rows:
        t = row.get("tdoku", {}).get("rate")
        after = row["after"]
        a = after["rate"]
        x = after.get("text_rate")
        cells = [row["set"], f"{after['puzzles']:,}"]
        if before:
            cells.append(rate(row["before"]["rate"]))
        cells += [
            rate(a),
            rate(x) if x else "-",
            rate(t) if t else "-",
            f"{x / t:.2f}" if t and x else "-",
            f"{a / t:.2f}" if t else "-",
        ]
        if before:
            b = row["before"]["rate"]
            cells += [f"{b / t:.2f}" if t else "-", f"{(x or a) / b:.2f}"]
        tc = row.get("tdoku", {}).get("cpu_rate")
        xc = after.get("text_cpu_rate")
        cells += [
            f"{xc / tc:.2f}" if tc and xc else "-",
            rate(after["all_cores_rate"]),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def write_markdown(path: str, section: str) -> None:
    """Put ``section`` (starting with ``HEADING``) in place of the file's
    own, up to the next second-level heading, or at its end."""
    old = open(path).read() if os.path.exists(path) else ""
    start = old.find(HEADING + "\n")
    if start < 0:
        new = old.rstrip("\n") + "\n\n" + section.rstrip("\n") + "\n"
    else:
        end = old.find("\n## ", start + len(HEADING))
        rest = old[end + 1 :] if end >= 0 else ""
        new = (
            old[:start]
            + section.rstrip("\n")
            + "\n"
            + ("\n" + rest if rest else "")
        )
    with open(path, "w") as f:
        f.write(new)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "--worker":
        print(json.dumps(worker(argv[1], argv[2], int(argv[3]))))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--sets",
        default=DEFAULT_SETS,
        help=f"comma-separated, of {', '.join(SETS)} (default {DEFAULT_SETS})",
    )
    parser.add_argument(
        "--before",
        metavar="DIR",
        help="another source tree to time as 'before'",
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=2,
        help="rounds, taking the contenders in turn",
    )
    parser.add_argument(
        "--reps",
        type=int,
        default=2,
        help="our runs per round (the fastest counts)",
    )
    parser.add_argument(
        "--seconds",
        type=int,
        default=5,
        help="tdoku's -t (timed seconds per run)",
    )
    parser.add_argument(
        "--warmup",
        type=int,
        default=2,
        help="tdoku's -w (warm-up seconds per run)",
    )
    parser.add_argument(
        "--markdown",
        metavar="FILE",
        help=f"write the table as the section {HEADING!r}",
    )
    args = parser.parse_args(argv)
    binary = os.environ.get("TDOKU")
    if binary and not os.access(binary, os.X_OK):
        parser.error(f"TDOKU={binary} is not an executable")
    names = [s for s in args.sets.split(",") if s]
    for name in names:
        if name not in SETS:
            parser.error(
                f"unknown set {name!r}; choose from {', '.join(SETS)}"
            )
    start_load = load()
    print(f"load average at the start: {start_load}", flush=True)
    rows = []
    for name in names:
        row = {"set": name}
        for round_ in range(args.rounds):
            contenders = [("after", lambda: ours(ROOT, name, args.reps))]
            if args.before:
                contenders.append(
                    (
                        "before",
                        lambda: ours(
                            os.path.abspath(args.before), name, args.reps
                        ),
                    )
                )
            if binary and SETS[name][2]:
                contenders.append(
                    (
                        "tdoku",
                        lambda: tdoku(binary, name, args.seconds, args.warmup),
                    )
                )
            if round_ % 2:
                contenders.reverse()
            for key, run in contenders:
                got = run()
                if key not in row:
                    row[key] = got
                    continue
                for field, value in got.items():  # each rate's best
                    if field.endswith("rate"):
                        row[key][field] = max(row[key].get(field, 0), value)
                    elif got["rate"] >= row[key]["rate"]:
                        row[key][field] = value
        rows.append(row)
        print(
            f"{name}: "
            + ", ".join(
                f"{k} {rate(row[k]['rate'])}/s"
                for k in ("before", "after", "tdoku")
                if k in row
            )
            + f", after text {rate(row['after'].get('text_rate', 0))}/s",
            flush=True,
        )
    text = table(rows, bool(args.before))
    commands = sorted(
        {row["tdoku"]["command"] for row in rows if "tdoku" in row}
    )
    notes = (
        f"Load average {start_load} at the start, {load()} at the "
        f"end; best of {args.rounds} rounds (ours: best of "
        f"{args.reps} runs a round).  Rates are puzzles per second "
        f"of wall time, as tdoku's program reports them; the *CPU* "
        f"ratios divide rates per CPU second instead (ours: process "
        f"CPU time; tdoku: its rate over the share of its run it had "
        f"a core), which a loaded machine disturbs less.  "
        f"`TDOKU=/path/to/run_benchmark python bench/tdoku.py "
        + " ".join("BASE" if a == args.before else a for a in (argv or []))
        + "`"
        + (" (BASE: the tree timed as before)." if args.before else ".")
    )
    if commands:
        notes += "  tdoku: `" + "`, `".join(commands) + "`."
    print()
    print(text)
    print()
    print(notes)
    if args.markdown:
        write_markdown(
            args.markdown, HEADING + "\n\n" + notes + "\n\n" + text + "\n"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
