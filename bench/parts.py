"""Memoized counts with and without components (``dlx.services.parts``).

Problems that fall apart: dominoes on 4 and 8 rooms of 8x8 in a row
joined by corridors of two cells (``dlx.problems.tiling.rooms``, cells
numbered row by row across the floor: 12,988,816**k), and a disjoint
union of 4 copies of the pentominoes on 6x10 (X in one quarter), items
interleaved (2,339**4).  With bounds (``dlx.problems.rooks``: 2 rooks in
every row and column): disjoint unions of 4 copies of the 6x6 board
(67,950**4) and 3 of the 7x7 (3,110,940**3), items interleaved; and 4
rooms of 8x8 whose corridor cells have bounds 1..2 (``bounded_rooms``).
Connected problems, to show what the root check costs: the domino,
pentomino, Sudoku-grid and Langford rows of ``bench/memo.py``, and rooks
7 2 and 6 3 (bounds).

Contenders: ``whole`` (``count(memo=True)`` with the root check taken
out: the memo keyed on the whole remaining problem, what it ran before),
``parts`` (``count(memo=True)``: the root check, then the components or
the whole memo) and ``check`` (the root check alone, not cached:
``dlx.services.parts.falls_apart``).  The root check is made once per
problem, so the best of ``parts``' repeated runs does not pay it again:
``check`` is what the first count pays.  Each row runs in its own process,
warmed up on a small board first; wall-clock time of the whole call, best
of ``--reps`` (a run over 2 s is timed once); counts checked against the
known ones; a run stopped by ``--timeout`` shows as ``> T``.

    python bench/parts.py                       # ~10 min
    python bench/parts.py --problems union-4-rooks-6-2,rooks-7-2
    python bench/parts.py --markdown bench/RESULTS.md
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
sys.path.insert(0, HERE)

HEADING = "## Counting by components (bench/parts.py)"

# Domino tilings of an 8x8 room, and of one less the two door cells of its
# middle row, (4, 0) and (4, 7) (count(memo=True)).
ROOM, ROOM_LESS_DOORS = 12_988_816, 1_117_240


def bounded_rooms_count(k):
    """The tilings of ``bounded_rooms(k)``, by a transfer over the
    corridors: ``ways[b]``, the rooms so far and whether the last
    corridor takes the next room's left door cell (b).  A corridor takes
    (left door, right door) in 1, 1, 1 and 2 ways for (0, 0), (1, 0),
    (0, 1), (1, 1); a room keeps both door cells or loses both."""
    ways = [1, 0]
    room = [ROOM, ROOM_LESS_DOORS]  # (both door cells kept, both lost)
    by = [[1, 1], [1, 2]]  # by[left][right]
    for _ in range(k - 1):
        ways = [
            sum(ways[b] * room[b] * by[b][r] for b in (0, 1)) for r in (0, 1)
        ]
    return ways[0] * ROOM


# key -> (how to build it, known count)
PROBLEMS = {
    "rooms-4x8x8": ("rooms:4", 12_988_816**4),
    "rooms-8x8x8": ("rooms:8", 12_988_816**8),
    "union-4-pentomino": ("union:4:pentomino-6x10", 2_339**4),
    "union-4-rooks-6-2": ("union:4:rooks-6-2", 67_950**4),
    "union-3-rooks-7-2": ("union:3:rooks-7-2", 3_110_940**3),
    "rooms-4x8x8-doors-1-2": ("doors:4", bounded_rooms_count(4)),
    "dominoes-8x8": ("memo:dominoes-8x8", 12_988_816),
    "dominoes-10x10": ("memo:dominoes-10x10", 258_584_046_368),
    "dominoes-12x12": ("memo:dominoes-12x12", 53_060_477_521_960_000),
    "pentomino-6x10": ("memo:pentomino-6x10", 2_339),
    "sudoku-grids-6x6": ("memo:sudoku-grids-6x6", 28_200_960),
    "langford-12": ("memo:langford-12", 216_288),
    "rooks-7-2": ("rooks:rooks-7-2", 3_110_940),
    "rooks-6-3": ("rooks:rooks-6-3", 297_200),
}

CONTENDERS = ["whole", "parts", "check"]


def union(problem, copies):
    """``copies`` disjoint copies of ``problem``, items interleaved (copy
    c's item i is item ``i * copies + c``), primary items first, with
    their bounds."""
    import numpy as np

    from dlx import ExactCover

    s = problem.structure()
    if s.nitems != s.nprimary:
        raise ValueError("union: primary items only")
    sizes = np.tile(s.sizes, copies)
    members = np.concatenate(
        [(s.members - 1) * copies + c for c in range(copies)]
    )
    bounds = {
        (item - 1) * copies + c: uv
        for item, uv in s.bounds.items()
        for c in range(copies)
    }
    return ExactCover.from_arrays(
        np.concatenate([[0], np.cumsum(sizes)]),
        members,
        copies * s.nitems,
        bounds=bounds,
    )


def bounded_rooms(k):
    """``rooms(k, 8)``, each corridor cell of bounds 1..2: a corridor's
    three dominoes may then also take both of a room's door cells (one
    alone leaves an odd room, with no tiling)."""
    from dlx import ExactCover
    from dlx.problems.tiling import rooms

    p = rooms(k, 8)
    step = 8 + 2  # (a room, its corridor)
    cells = sorted(
        [
            (r, room * step + c)
            for room in range(k)
            for r in range(8)
            for c in range(8)
        ]
        + [(4, room * step + 8 + j) for room in range(k - 1) for j in range(2)]
    )
    doors = {
        p.primary[i]: (1, 2) for i, (_, c) in enumerate(cells) if c % step >= 8
    }
    q = ExactCover(p.primary, bounds=doors)
    q.add_options(p.options)
    return q


def base(name):
    """A problem of ``bench/memo.py``, or ``rooks-N-K``."""
    import memo as B

    if name.startswith("rooks-"):
        from dlx.problems.rooks import rooks

        n, k = name.split("-")[1:]
        return rooks(int(n), int(k))
    return B.build(name)


def build(key):

    how, _ = PROBLEMS[key]
    kind, *what = how.split(":")
    if kind == "rooms":
        from dlx.problems.tiling import rooms

        return rooms(int(what[0]), 8)
    if kind == "doors":
        return bounded_rooms(int(what[0]))
    if kind == "union":
        return union(base(what[1]), int(what[0]))
    return base(what[0])


def available(key) -> bool:
    import memo as B

    how, _ = PROBLEMS[key]
    kind, *what = how.split(":")
    if kind in ("rooms", "doors") or what[-1].startswith("rooks-"):
        return True
    return B.available(what[-1])


def worker(contender, key, reps, timeout):
    from dlx import BudgetExhausted
    from dlx.problems.rooks import rooks
    from dlx.problems.tiling import rooms
    from dlx.services import parts

    problem = build(key)
    rooms(2, 4).count(memo=True)
    rooks(3, 2).count(memo=True)  # (the bounded memo's kernels)

    if contender == "whole":
        # count(memo=True) as it was: no root check, the memo as a whole.
        parts.falls_apart = lambda problem, given, cached=True: None

    def run():
        if contender == "check":
            parts.falls_apart(problem, [], cached=False)
            return PROBLEMS[key][1], {}
        try:
            n = problem.count(memo=True, time_limit=timeout)
        except BudgetExhausted:
            return None, {}
        s = problem.stats
        extra = {"nodes": s.nodes}
        if isinstance(s, parts.PartsStats):
            extra.update(
                parts=s.parts, repeats=s.repeats, splits=s.splits, cuts=s.cuts
            )
        return n, extra

    best = None
    result = None
    for _ in range(reps):
        t0 = time.perf_counter()
        n, extra = run()
        dt = time.perf_counter() - t0
        if n is None:
            return {"timeout": True}
        if best is None or dt < best:
            best, result = dt, (n, extra)
        if dt > 2.0:
            break
    n, extra = result
    return {
        "seconds": best,
        "valid": n == PROBLEMS[key][1],
        **extra,
    }


def measure(contender, key, reps, timeout):
    cmd = [
        sys.executable,
        os.path.abspath(__file__),
        "--worker",
        contender,
        key,
        str(reps),
        str(timeout),
    ]
    env = dict(os.environ, PYTHONPATH=ROOT)
    try:
        done = subprocess.run(
            cmd,
            capture_output=True,
            text=True,
            env=env,
            timeout=timeout * (reps + 1) + 120,
        )
    except subprocess.TimeoutExpired:
        return {"timeout": True}
    if done.returncode != 0:
        return {"error": done.stderr.strip().splitlines()[-1:]}
    return json.loads(done.stdout.strip().splitlines()[-1])


def _seconds(s):
    if s < 1e-3:
        return f"{s * 1e6:.0f} µs"
    if s < 1:
        return f"{s * 1e3:.1f} ms"
    return f"{s:.2f} s"


def _cell(r, timeout):
    if r.get("timeout"):
        return f"> {timeout:g} s"
    if r.get("error"):
        return "error"
    return _seconds(r["seconds"]) + ("" if r["valid"] else " WRONG")


def markdown(meta, results):
    timeout = meta["timeout"]
    lines = [
        HEADING,
        "",
        f"Written by `python bench/parts.py --rounds {meta['rounds']} "
        f"--markdown bench/RESULTS.md` on {meta['date']}; {meta['cpus']} "
        f"shared CPUs, Python {meta['python']}.  Wall-clock time of the "
        f"whole call, each row in its own process, best of up to "
        f"{meta['reps']} runs and {meta['rounds']} rounds; `> {timeout:g} "
        f"s`: stopped at the time limit.  `whole`: `count(memo=True)` "
        f"without the root check (the memo keyed on the whole remaining "
        f"problem, as before); `parts`: `count(memo=True)` now (the root "
        f"check, then the components where the problem falls apart or "
        f"has a cut item, else `whole`); `check`: the root check alone, "
        f"uncached (what the first count of a problem pays on top; later "
        f"counts find it made).  `parts / whole` above 1 is a slowdown.",
        "",
        "| problem | count | whole | parts | check | parts / whole "
        "| parts counted, repeats, splits, cuts |",
        "|---|---|---|---|---|---|---|",
    ]
    for key, row in results.items():
        w, p, c = (row.get(x, {}) for x in CONTENDERS)
        ratio = (
            f"{p['seconds'] / w['seconds']:.2f}"
            if "seconds" in w and "seconds" in p
            else "-"
        )
        shape = (
            f"{p['parts']}, {p['repeats']}, {p['splits']}, {p['cuts']}"
            if "parts" in p
            else "(connected: whole)"
        )
        lines.append(
            f"| {key} | {PROBLEMS[key][1]:,} | {_cell(w, timeout)} | "
            f"{_cell(p, timeout)} | {_cell(c, timeout)} | {ratio} | "
            f"{shape} |"
        )
    return "\n".join(lines) + "\n"


def write_section(path, text, heading=HEADING):
    """Replace the section under ``heading`` of the Markdown file ``path``
    (up to the next section) with ``text``, or add it at the end."""
    old = open(path).read() if os.path.exists(path) else ""
    start = old.find(heading)
    if start < 0:
        new = old.rstrip("\n") + "\n\n" + text
    else:
        end = old.find("\n## ", start + len(heading))
        new = old[:start] + text + ("" if end < 0 else old[end:])
    with open(path, "w") as f:
        f.write(new)


def main(argv=None):
    ap = argparse.ArgumentParser(
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ap.add_argument("--problems", default=",".join(PROBLEMS))
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--markdown", default=None)
    ap.add_argument("--worker", nargs=4, default=None, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        contender, key, reps, timeout = args.worker
        print(json.dumps(worker(contender, key, int(reps), float(timeout))))
        return 0
    problems = [k for k in args.problems.split(",") if available(k)]
    results = {k: {} for k in problems}
    for r in range(args.rounds):
        for key in problems:
            for c in CONTENDERS:
                old = results[key].get(c)
                if old is not None and (
                    old.get("timeout") or old.get("error")
                ):
                    continue  # a timeout stays one
                got = measure(c, key, args.reps, args.timeout)
                if old is None or got.get("seconds", float("inf")) < old.get(
                    "seconds", float("inf")
                ):
                    results[key][c] = got
                print(
                    f"round {r + 1} {key:18} {c:6} {_cell(got, args.timeout)}",
                    file=sys.stderr,
                    flush=True,
                )
    meta = {
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "rounds": args.rounds,
        "reps": args.reps,
        "timeout": args.timeout,
    }
    text = markdown(meta, results)
    print(text)
    if args.markdown:
        write_section(args.markdown, text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
