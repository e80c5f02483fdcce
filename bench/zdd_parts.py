"""The ZDD of all solutions built by parts and as a whole
(``dlx.services.zdd``).

The problems of ``bench/parts.py`` (its ``PROBLEMS`` and builders): dominoes
on 4 and 8 rooms of 8x8 joined by corridors (12,988,816**k), 4 interleaved
copies of the pentominoes on 6x10, with bounds 4 interleaved rooks
boards (2 rooks in every row and column of a 6x6, 67,950**4) and the 4
rooms whose corridor cells take 1..2 dominoes (``bounded_rooms``: cut
items with bounds), and connected problems (dominoes 8x8 and 10x10,
pentominoes 6x10) to show what the root check costs a build that stays
whole.

Contenders: ``whole`` (``dlx.services.zdd.build(by_parts=False)``: the
memoized search on the whole problem, what ``zdd()`` ran before) and
``parts`` (``zdd()`` now: the root check, then the parts where the problem
falls apart or has a cut item, else ``whole``).  Each row runs in its own
process, warmed up on a small board first; wall-clock time of the whole
call, best of ``--reps`` (a run over 2 s is timed once), best over
``--rounds``; counts checked against the known ones; a run stopped by
``--timeout`` shows as ``> T``.

    python bench/zdd_parts.py --rounds 2               # ~5 min
    python bench/zdd_parts.py --markdown bench/RESULTS.md
    python bench/zdd_parts.py --problems union-4-rooks-6-2  # some rows
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

import parts as P  # noqa: E402  (bench/parts.py: the problems)

HEADING = "## The ZDD by parts (bench/zdd_parts.py)"

KEYS = [
    "rooms-4x8x8",
    "rooms-8x8x8",
    "union-4-pentomino",
    "union-4-rooks-6-2",
    "rooms-4x8x8-doors-1-2",
    "dominoes-8x8",
    "dominoes-10x10",
    "pentomino-6x10",
]
CONTENDERS = ["whole", "parts"]


def worker(contender, key, reps, timeout):
    from dlx import BudgetExhausted
    from dlx.problems.rooks import rooks
    from dlx.problems.tiling import rooms
    from dlx.services import zdd as Z

    problem = P.build(key)
    for warm in (rooms(2, 4), rooks(3, 2)):  # (rooks: the bounded kernels)
        warm.zdd()
        Z.build(warm, by_parts=False)

    def run():
        try:
            z = Z.build(
                problem, time_limit=timeout, by_parts=contender == "parts"
            )
        except BudgetExhausted:
            return None, {}
        s = problem.stats
        extra = {"nodes": s.nodes, "zdd_nodes": len(z)}
        if isinstance(s, Z.ZddPartsStats):
            extra.update(parts=s.parts, repeats=s.repeats, cuts=s.cuts)
        return z.count(), extra

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
    return {"seconds": best, "valid": n == P.PROBLEMS[key][1], **extra}


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
            timeout=timeout * (reps + 1) + 180,
        )
    except subprocess.TimeoutExpired:
        return {"timeout": True}
    if done.returncode != 0:
        return {"error": done.stderr.strip().splitlines()[-1:]}
    return json.loads(done.stdout.strip().splitlines()[-1])


def cell(r, timeout):
    if r.get("timeout"):
        return f"> {timeout:g} s"
    if r.get("error"):
        return "error"
    s = r["seconds"]
    text = f"{s * 1e3:.1f} ms" if s < 1 else f"{s:.2f} s"
    return text + ("" if r["valid"] else " WRONG")


def markdown(meta, results):
    timeout = meta["timeout"]
    lines = [
        HEADING,
        "",
        f"Written by `python bench/zdd_parts.py --rounds {meta['rounds']} "
        f"--markdown bench/RESULTS.md` on {meta['date']}; {meta['cpus']} "
        f"shared CPUs, Python {meta['python']}.  Wall-clock time of the "
        f"whole build, each row in its own process, best of up to "
        f"{meta['reps']} runs and {meta['rounds']} rounds; `> {timeout:g} "
        f"s`: stopped at the time limit.  `whole`: "
        f"`dlx.services.zdd.build(by_parts=False)` (the memoized search on "
        f"the whole problem, what `zdd()` ran before); `parts`: `zdd()` now "
        f"(the root check, then the parts, else `whole`).  `parts / whole` "
        f"above 1 is a slowdown; on the connected rows it is the root "
        f"check (cached per problem after its first run) and noise.",
        "",
        "| problem | count | whole | parts | parts / whole | ZDD nodes "
        "whole / parts | parts built, repeats, cuts |",
        "|---|---|---|---|---|---|---|",
    ]
    for key, row in results.items():
        w, p = (row.get(x, {}) for x in CONTENDERS)
        ratio = (
            f"{p['seconds'] / w['seconds']:.2f}"
            if "seconds" in w and "seconds" in p
            else "-"
        )
        sizes = f"{w.get('zdd_nodes', '-')} / {p.get('zdd_nodes', '-')}"
        shape = (
            f"{p['parts']}, {p['repeats']}, {p['cuts']}"
            if "parts" in p
            else "(connected: whole)"
        )
        lines.append(
            f"| {key} | {P.PROBLEMS[key][1]:,} | {cell(w, timeout)} | "
            f"{cell(p, timeout)} | {ratio} | {sizes} | {shape} |"
        )
    return "\n".join(lines) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ap.add_argument("--problems", default=",".join(KEYS))
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
    problems = [k for k in args.problems.split(",") if P.available(k)]
    results: dict = {k: {} for k in problems}
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
                    f"round {r + 1} {key:18} {c:6} {cell(got, args.timeout)}",
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
        P.write_section(args.markdown, text, HEADING)
    return 0


if __name__ == "__main__":
    sys.exit(main())
