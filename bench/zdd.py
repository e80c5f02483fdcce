"""ZDDs of all solutions side by side: ``ExactCover.zdd``, Knuth's DLX6, xcover.

The problems of issue 27: domino tilings (8x8 to 14x14, and 6x30),
tromino tilings of 9x9 (``dlx.problems.tiling``), pentominoes packed in
5x12 and Langford pairs (n = 11, 12; ``dlx pentomino|langford ... --dlx``,
with their symmetry breaking).  Each is written in DLX format once; every
contender reads that file.

Contenders:

* ``ours-auto`` and ``ours-mrv``: ``dlx.load`` the file, ``problem.zdd()``
  (``choose="auto"``, and DLX6's own rule ``"mrv"``) and ``write`` the
  diagram, timed together, in a worker process warmed up on a small board
  first (numba loads its cache there).  ``build`` is ``zdd()`` alone.
* ``dlx6``: Knuth's program, ``dlx6 m1 < FILE > OUT``, the wall time of
  the whole process (reading and printing included); its nodes are its
  output's lines, dummy root excluded.  Give its path with ``--dlx6``
  (default: ``/work/knuth/dlx6``; built from dlx6.w with ctangle, e.g.
  from ascherer/cwebtest, and gb_flip).  Its figures "bytes" and "mems"
  are taken from its report.
* ``xcover``: ``xcover.covers_zdd(options, use_memo_cache=True)`` from
  PyPI (optional; ``pip install xcover``), consumed to the end.

A contender that takes longer than ``--timeout`` seconds is stopped and
shows as ``> T``.  The best of ``--rounds`` rounds is kept (contenders take
turns within a round).  Each of our diagrams is checked: its count against
DLX6's diagram read back (exact past 2**64, where DLX6's printed count
wraps).  The last table times uniform sampling from the 10x10 domino
board's diagram (258,584,046,368 tilings).

    python bench/zdd.py                       # everything, ~5 minutes
    python bench/zdd.py --problems dominoes-10x10 --rounds 1
    python bench/zdd.py --markdown bench/RESULTS_ZDD.md
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)

# key -> the dlx command's arguments that write it in DLX format
PROBLEMS = {
    "dominoes-8x8": ["tiling", "dominoes", "8x8"],
    "dominoes-10x10": ["tiling", "dominoes", "10x10"],
    "dominoes-12x12": ["tiling", "dominoes", "12x12"],
    "dominoes-14x14": ["tiling", "dominoes", "14x14"],
    "dominoes-6x30": ["tiling", "dominoes", "6x30"],
    "trominoes-9x9": ["tiling", "trominoes", "9x9"],
    "pentomino-5x12": ["pentomino", "5x12"],
    "langford-11": ["langford", "11"],
    "langford-12": ["langford", "12"],
}
CONTENDERS = ("ours-auto", "ours-mrv", "dlx6", "xcover")


def write_problem(key: str, folder: str) -> str:
    path = os.path.join(folder, key + ".dlx")
    if not os.path.exists(path):
        out = subprocess.run(
            [sys.executable, "-m", "dlx", *PROBLEMS[key], "--dlx"],
            capture_output=True,
            text=True,
            check=True,
            cwd=ROOT,
        ).stdout
        with open(path, "w") as f:
            f.write(out)
    return path


# -- workers (one process per run) ----------------------------------------------
def worker_ours(path: str, choose: str, out: str) -> dict:
    import dlx
    from dlx.problems.tiling import tiling

    tiling("4x4").zdd()  # numba's cache, outside the timing
    t0 = time.perf_counter()
    problem = dlx.load(path, max_name_length=None)
    t1 = time.perf_counter()
    z = problem.zdd(choose=choose)
    t2 = time.perf_counter()
    z.write(out)
    t3 = time.perf_counter()
    return {
        "seconds": t3 - t0,
        "build": t2 - t1,
        "nodes": len(z),
        "count": str(z.count()),
        "choose": problem.stats.choose,
        "bytes": problem.stats.memo_bytes + z.nbytes,
        "rss": rss(),
    }


def rss() -> int:
    """This process's peak resident memory in bytes: VmHWM (Linux), not
    getrusage's maxrss, which a child inherits from the parent it was
    forked from (the bench's own process, large after reading DLX6's
    biggest diagrams)."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    return 0


# DLX6 runs under this small launcher, which times it alone and reports
# its peak memory (its children's maxrss: DLX6's, forked from the
# launcher, not from the bench).
LAUNCH = """
import resource, subprocess, sys, time
with open(sys.argv[2]) as fin, open(sys.argv[3], "w") as fout:
    t0 = time.perf_counter()
    done = subprocess.run([sys.argv[1], "m1"], stdin=fin, stdout=fout,
                          stderr=subprocess.PIPE, text=True)
    seconds = time.perf_counter() - t0
sys.stderr.write(done.stderr)
print(seconds, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024)
"""


def worker_xcover(path: str) -> dict:
    import xcover

    import dlx

    problem = dlx.load(path, max_name_length=None)
    options = [list(o) for o in problem.options]
    list(
        xcover.covers_zdd(
            options[:2],
            primary=list(problem.primary),
            secondary=list(problem.secondary),
            use_memo_cache=True,
        )
    )  # compile
    t0 = time.perf_counter()
    nodes = sum(
        1
        for _ in xcover.covers_zdd(
            options,
            primary=list(problem.primary),
            secondary=list(problem.secondary),
            use_memo_cache=True,
        )
    )
    return {"seconds": time.perf_counter() - t0, "nodes": nodes, "rss": rss()}


def run_worker(args: list[str], timeout: float) -> dict | None:
    """A worker process's answer, None when it ran past ``timeout``."""
    try:
        done = subprocess.run(
            [sys.executable, __file__, "--worker", *args],
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd=ROOT,
        )
    except subprocess.TimeoutExpired:
        return None
    if done.returncode != 0:
        raise RuntimeError(done.stderr[-2000:])
    return json.loads(done.stdout.strip().splitlines()[-1])


def run_dlx6(dlx6: str, path: str, out: str, timeout: float) -> dict | None:
    try:
        done = subprocess.run(
            [sys.executable, "-c", LAUNCH, dlx6, path, out],
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        return None
    seconds, peak = done.stdout.split()[-2:]
    report = done.stderr.strip().splitlines()[-1]
    m = re.search(
        r"Altogether (\d+) solutions?, (\d+)\+(\d+) mems, .* "
        r"(\d+) bytes",
        report,
    )
    with open(out) as f:
        lines = sum(1 for _ in f) - 1
    return {
        "seconds": float(seconds),
        "nodes": lines,
        "printed": m[1],
        "mems": int(m[2]) + int(m[3]),
        "bytes": int(m[4]),
        "rss": int(peak),
    }


# -- the tables -------------------------------------------------------------------
def fmt_time(result, timeout) -> str:
    """A time, or ``> T`` for a run stopped at its timeout."""
    if result is None:
        return f"> {timeout:.0f} s"
    s = result["seconds"]
    return f"{s * 1000:.0f} ms" if s < 1 else f"{s:.2f} s"


def fmt_nodes(result) -> str:
    return "" if result is None else f"{result['nodes']:,}"


def sampling_table(rounds: int) -> list[str]:
    from dlx.problems.tiling import tiling

    tiling("4x4").zdd()
    best = {}
    for _ in range(rounds):
        p = tiling("10x10")
        t0 = time.perf_counter()
        z = p.zdd()
        t1 = time.perf_counter()
        z.count()
        t2 = time.perf_counter()
        one = z.sample(1, seed=1)
        t3 = time.perf_counter()
        many = z.sample(1000, seed=2)
        t4 = time.perf_counter()
        for key, value in (
            ("build", t1 - t0),
            ("counts", t2 - t1),
            ("one", t3 - t2),
            ("thousand", t4 - t3),
        ):
            best[key] = min(best.get(key, 1e9), value)
    assert z.count() == 258_584_046_368
    assert all(p.count(given=s) == 1 for s in one + many[:20])
    return [
        "| step | seconds |",
        "| --- | ---: |",
        f"| build the ZDD (`tiling('10x10').zdd()`, {len(z):,} nodes) "
        f"| {best['build']:.4f} |",
        f"| count every node's solutions (once, cached) "
        f"| {best['counts']:.4f} |",
        f"| one uniformly random tiling | {best['one']:.5f} |",
        f"| 1,000 more | {best['thousand']:.4f} |",
    ]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--problems", default=",".join(PROBLEMS))
    parser.add_argument("--contenders", default=",".join(CONTENDERS))
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument(
        "--xcover-timeout",
        type=float,
        default=None,
        help="xcover's own (default: --timeout)",
    )
    parser.add_argument(
        "--dlx6", default=os.environ.get("DLX6", "/work/knuth/dlx6")
    )
    parser.add_argument("--markdown", metavar="FILE")
    parser.add_argument("--worker", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        kind, *rest = args.worker
        result = worker_ours(*rest) if kind == "ours" else worker_xcover(*rest)
        print(json.dumps(result))
        return 0
    keys = args.problems.split(",")
    contenders = args.contenders.split(",")
    if "dlx6" in contenders and not os.path.exists(args.dlx6):
        print(f"no dlx6 at {args.dlx6}: left out", file=sys.stderr)
        contenders.remove("dlx6")
    if "xcover" in contenders:
        try:
            import xcover  # noqa: F401
        except ImportError:
            print("xcover is not installed: left out", file=sys.stderr)
            contenders.remove("xcover")

    def limit(who):
        return (
            (args.xcover_timeout or args.timeout)
            if who == "xcover"
            else args.timeout
        )

    folder = tempfile.mkdtemp(prefix="bench-zdd-")
    results: dict = {}
    for key in keys:
        path = write_problem(key, folder)
        for _ in range(args.rounds):
            for who in contenders:
                out = os.path.join(folder, f"{key}.{who}.zdd")
                if who == "dlx6":
                    r = run_dlx6(args.dlx6, path, out, args.timeout)
                elif who == "xcover":
                    r = run_worker(
                        ["xcover", path], args.xcover_timeout or args.timeout
                    )
                else:
                    r = run_worker(
                        ["ours", path, who.split("-")[1], out], args.timeout
                    )
                old = results.get((key, who), "missing")
                if old == "missing" or (
                    r is not None
                    and (old is None or r["seconds"] < old["seconds"])
                ):
                    results[key, who] = r
                print(
                    key,
                    who,
                    fmt_time(r, limit(who)),
                    fmt_nodes(r),
                    file=sys.stderr,
                )
        # Check our diagrams against DLX6's, read back exactly.
        theirs = results.get((key, "dlx6"))
        if theirs is not None:
            import dlx

            exact = dlx.ZDD.read(os.path.join(folder, f"{key}.dlx6.zdd"))
            for who in ("ours-auto", "ours-mrv"):
                r = results.get((key, who))
                if r is not None:
                    assert int(r["count"]) == exact.count(), (key, who)
                    if who == "ours-mrv":
                        assert r["nodes"] <= theirs["nodes"], key
            results[key, "exact"] = exact.count()
    head = ["problem", "solutions"]
    for who in contenders:
        head += [f"{who} time", f"{who} nodes"]
    lines = [
        "| " + " | ".join(head) + " |",
        "| --- | ---: |" + " ---: | ---: |" * len(contenders),
    ]
    for key in keys:
        count = results.get((key, "exact"))
        if count is None:
            r = results.get((key, "ours-auto")) or {}
            count = int(r.get("count", 0))
        row = [key, f"{count:.3g}" if count > 10**6 else f"{count:,}"]
        for who in contenders:
            r = results.get((key, who))
            row += [fmt_time(r, limit(who)), fmt_nodes(r)]
        lines.append("| " + " | ".join(row) + " |")
    memory = [
        "| problem | ours-auto data | ours-mrv data | dlx6 data "
        "(its report) | ours-auto peak | ours-mrv peak | dlx6 peak |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for key in keys:
        cells = []
        for field in ("bytes", "rss"):
            for who in ("ours-auto", "ours-mrv", "dlx6"):
                r = results.get((key, who))
                cells.append(
                    "" if r is None else f"{r[field] / 2**20:,.1f} MiB"
                )
        memory.append(f"| {key} | " + " | ".join(cells) + " |")
    sampling = sampling_table(args.rounds)
    load = os.getloadavg()
    machine = (
        f"{platform.processor() or platform.machine()}, "
        f"{os.cpu_count()} cores, load average {load[0]:.1f} at the "
        f"end; Python {platform.python_version()}; "
        f"{time.strftime('%Y-%m-%d')}"
    )
    text = "\n".join(
        [
            "## ZDDs of all solutions (bench/zdd.py)",
            "",
            f"`python bench/zdd.py --rounds {args.rounds} --timeout "
            f"{args.timeout:.0f} --xcover-timeout {limit('xcover'):.0f}` on "
            f"{machine}. "
            "Time: reading the DLX file, building the diagram and writing it "
            "(ours: in a warm worker; dlx6: its whole process). Nodes: the "
            "diagram's, sinks excluded (dlx6: its lines, root excluded).",
            "",
            *lines,
            "",
            "Memory. Data: ours is the memo table plus the "
            "diagram's node table; dlx6's is the `bytes` of its report, which "
            "leaves out its hash table. Peak: the process's peak resident "
            "memory (ours includes Python, numpy and numba, about 150 MiB).",
            "",
            *memory,
            "",
            "Uniform sampling from the 10x10 domino board's diagram "
            "(258,584,046,368 tilings), best of the rounds:",
            "",
            *sampling,
            "",
        ]
    )
    print(text)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
