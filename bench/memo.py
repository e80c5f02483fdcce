"""Memoized counts side by side: ``count(memo=...)``, the plain count, dxz.

The contenders of issue 16 on its problems: domino tilings of 6x8, 8x8,
8x10 and 10x10 boards (``dlx.problems.tiling``: one option per domino
placement, one item per cell) and three problems where subproblems seldom
repeat (the 6x6 Sudoku grids, pentominoes on 6x10 with the X in one
quarter, Langford pairs for n = 12; files of ``shared/data/exactcover``).

Contenders: ``plain`` (``count()``, its default algorithm, one thread), ``memo``
(``count(memo=True)``, item choice ``auto``), ``memo-mrv`` and
``memo-first`` (the two choice rules forced), ``memo-auto``
(``count(memo="auto")``: the memo only where it pays) and ``dxz`` (the
``dxz`` package from PyPI, Nishino et al.'s DXZ in C++; optional).

Each (contender, problem) pair runs in its own subprocess, warmed up on a
small board first (numba loads its cache there), the problem built outside
the timed region, the best of up to ``--reps`` runs kept (a run over 2 s is
timed once) and its count checked against the known one.  Rounds take the
contenders in turn for each problem, and the best of the rounds is kept.
A run is stopped after ``--timeout`` seconds (ours through ``time_limit``,
dxz by killing its process) and shows as ``> T``.

    python bench/memo.py                          # everything, ~10-20 min
    python bench/memo.py --problems dominoes-8x8,dominoes-10x10 --rounds 1
    python bench/memo.py --rounds 2 --markdown bench/RESULTS.md

``--markdown`` rewrites the section of RESULTS.md headed ``HEADING`` (up to
the next second-level heading; appended the first time) and leaves the rest
of the file as it is; ``bench/compare.py`` keeps the section when it
rewrites the file.
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

import peers as P  # noqa: E402

HEADING = "## Memoized counts (bench/memo.py)"

# key -> (how to build it, known count)
PROBLEMS = {
    "dominoes-6x8": ("tiling:6x8", 167_089),
    "dominoes-8x8": ("tiling:8x8", 12_988_816),
    "dominoes-8x10": ("tiling:8x10", 1_031_151_241),
    "dominoes-10x10": ("tiling:10x10", 258_584_046_368),
    "dominoes-12x12": ("tiling:12x12", 53_060_477_521_960_000),
    "sudoku-grids-6x6": ("file:sudoku-grids-6x6.dlx", 28_200_960),
    "pentomino-6x10": ("file:pentomino-6x10-xquarter.dlx", 2_339),
    "langford-12": ("file:langford-12.dlx", 216_288),
}

CONTENDERS = ["plain", "memo", "memo-mrv", "memo-first", "memo-auto", "dxz"]


def build(key):
    """The problem as an ``ExactCover``."""
    how, _ = PROBLEMS[key]
    kind, what = how.split(":")
    if kind == "tiling":
        from dlx.problems.tiling import tiling

        return tiling(what)
    return P.to_exact_cover(P.read_dlx(os.path.join(P.EXACTCOVER_DIR, what)))


def available(key) -> bool:
    how, _ = PROBLEMS[key]
    kind, what = how.split(":")
    return kind == "tiling" or os.path.exists(
        os.path.join(P.EXACTCOVER_DIR, what)
    )


# -- the worker ----------------------------------------------------------------


def _ours(problem, contender, timeout):
    from dlx import BudgetExhausted

    kwargs = {
        "plain": {},
        "memo": {"memo": True},
        "memo-mrv": {"memo": True, "choose": "mrv"},
        "memo-first": {"memo": True, "choose": "first"},
        "memo-auto": {"memo": "auto"},
    }[contender]
    try:
        n = problem.count(time_limit=timeout, **kwargs)
    except BudgetExhausted:
        return None, {}
    s = problem.stats
    extra = {"nodes": s.nodes}
    if hasattr(s, "memo_lookups"):
        extra.update(
            choose=s.choose,
            hit_rate=s.hit_rate,
            entries=s.memo_entries,
            bytes=s.memo_bytes,
            limbs=s.memo_limbs,
        )
    return n, extra


def _dxz_prepare(problem):
    """dxz's input: a flat 0/1 list, options by items (primary only)."""
    if problem.secondary:
        raise ValueError("dxz has no secondary items")
    m = problem.to_matrix()
    return m.shape[0], m.shape[1], m.ravel().tolist()


def worker(contender, key, reps, timeout):
    problem = build(key)
    if contender == "dxz":
        import dxz

        rows, cols, flat = _dxz_prepare(problem)
        small = _dxz_prepare(build("dominoes-6x8"))
        dxz.dxz_count(*small)  # warm

        def run():
            return int(dxz.dxz_count(rows, cols, flat)), {}
    else:
        warm = build("dominoes-6x8")
        for c in ("plain", "memo", "memo-mrv", "memo-first"):
            _ours(warm, c, None)

        def run():
            return _ours(problem, contender, timeout)

    best = None
    result = None
    runs = 0
    for _ in range(reps):
        t0 = time.perf_counter()
        n, extra = run()
        dt = time.perf_counter() - t0
        runs += 1
        if n is None:  # stopped by the time limit
            return {"timeout": True}
        if best is None or dt < best:
            best, result = dt, (n, extra)
        if dt > 2.0:
            break
    n, extra = result
    return {
        "seconds": best,
        "count": n,
        "valid": n == PROBLEMS[key][1],
        "runs": runs,
        **extra,
    }


# -- the parent ----------------------------------------------------------------


def measure(contender, key, reps, timeout):
    """One (contender, problem) pair in a subprocess."""
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
            timeout=timeout * (reps + 1) + 60,
        )
    except subprocess.TimeoutExpired:
        return {"timeout": True}
    if done.returncode != 0:
        return {"error": done.stderr.strip().splitlines()[-1:]}
    return json.loads(done.stdout.strip().splitlines()[-1])


def dxz_version():
    from importlib import metadata

    try:
        return metadata.version("dxz")
    except metadata.PackageNotFoundError:
        return None


def main(argv=None):
    ap = argparse.ArgumentParser(
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ap.add_argument("--problems", default=",".join(PROBLEMS))
    ap.add_argument("--contenders", default=",".join(CONTENDERS))
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--json", default=None)
    ap.add_argument("--markdown", default=None)
    ap.add_argument("--worker", nargs=4, default=None, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        contender, key, reps, timeout = args.worker
        print(json.dumps(worker(contender, key, int(reps), float(timeout))))
        return 0
    problems = [k for k in args.problems.split(",") if available(k)]
    contenders = args.contenders.split(",")
    if "dxz" in contenders and dxz_version() is None:
        print(
            "dxz is not installed (pip install dxz): left out", file=sys.stderr
        )
        contenders.remove("dxz")
    results = {k: {} for k in problems}
    for r in range(args.rounds):
        for key in problems:
            for c in contenders:
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
                    f"round {r + 1} {key:18} {c:11} {_cell(got)}",
                    file=sys.stderr,
                    flush=True,
                )
    meta = {
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "machine": platform.processor() or platform.machine(),
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "dxz": dxz_version(),
        "rounds": args.rounds,
        "reps": args.reps,
        "timeout": args.timeout,
    }
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"meta": meta, "results": results}, f, indent=1)
    text = markdown(meta, results, contenders)
    print(text)
    if args.markdown:
        write_section(args.markdown, text)
    return 0


def _cell(r):
    if r.get("timeout"):
        return "timeout"
    if r.get("error"):
        return f"error {r['error']}"
    return _seconds(r["seconds"]) + ("" if r["valid"] else " WRONG")


def markdown(meta, results, contenders):
    timeout = meta["timeout"]
    lines = [
        HEADING,
        "",
        f"Written by `python bench/memo.py --rounds {meta['rounds']} "
        f"--markdown bench/RESULTS.md` on {meta['date']}; {meta['cpus']} "
        f"shared CPUs, Python {meta['python']}, dxz "
        f"{meta['dxz'] or 'not installed'}.  Each (contender, problem) "
        f"pair in its own process, best of up to {meta['reps']} runs per "
        f"round and of {meta['rounds']} rounds that take the contenders "
        f"in turn; `> {timeout:g} s` is a run stopped at the time limit.  "
        f"Every count was checked against the known one.  `x memo` is the "
        f"time over `memo`'s (above 1: slower than `count(memo=True)`).",
        "",
        "| problem | count | " + " | ".join(contenders) + " |",
        "|---|---|" + "---|" * len(contenders),
    ]
    for key, row in results.items():
        base = row.get("memo", {}).get("seconds")
        cells = []
        for c in contenders:
            r = row.get(c, {})
            if r.get("timeout"):
                cells.append(f"> {timeout:g} s")
            elif r.get("error") is not None:
                cells.append("error")
            elif "seconds" in r:
                text = _seconds(r["seconds"])
                if not r["valid"]:
                    text += " (wrong count)"
                elif base and c != "memo":
                    text += f" ({_ratio(r['seconds'] / base)})"
                cells.append(text)
            else:
                cells.append("-")
        lines.append(
            f"| {key} | {PROBLEMS[key][1]:,} | " + " | ".join(cells) + " |"
        )
    lines += [
        "",
        "The memo's table at the end of each `memo` run (item "
        "choice, entries, hit rate = hits per lookup, nodes):",
        "",
        "| problem | choice | entries | table | hit rate | nodes "
        "(memo) | nodes (plain) |",
        "|---|---|---|---|---|---|---|",
    ]
    for key, row in results.items():
        m = row.get("memo", {})
        plain = row.get("plain", {})
        if "seconds" not in m:
            continue
        lines.append(
            f"| {key} | {m['choose']} | {m['entries']:,} | "
            f"{m['bytes'] / 2**20:.1f} MiB | {m['hit_rate']:.1%} | "
            f"{m['nodes']:,} | "
            + (f"{plain['nodes']:,}" if "nodes" in plain else "-")
            + " |"
        )
    return "\n".join(lines) + "\n"


def _seconds(s):
    if s < 0.01:
        return f"{s * 1000:.2f} ms"
    if s < 1:
        return f"{s * 1000:.0f} ms"
    return f"{s:.2f} s" if s < 10 else f"{s:.1f} s"


def _ratio(x):
    return f"{x:,.0f}x" if x >= 10 else f"{x:.2g}x"


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


if __name__ == "__main__":
    sys.exit(main())
