"""Compare this project with the exact-cover solvers people would otherwise use.

Runs every solver of ``bench/peers.py`` on the same instances in one run:
the DLX-format counting problems of ``shared/data/exactcover`` and the
Sudoku batches of ``shared/data/sudoku``.  Each (solver, problem) pair runs
in its own subprocess with a time limit and a memory cap, so a slow or
greedy peer cannot hang the table.  Inside it the solver is warmed up (that
is where numba compiles), its input is converted outside the timed region,
the best of up to ``--reps`` runs is kept, and the answer is validated
after the clock stops.  One table per problem: time, rate, and the ratio
of each solver's time to this project's (above 1: slower than us).

    python bench/compare.py --quick             # a fast subset, ~2 min
    python bench/compare.py                     # everything, ~10-15 min
    python bench/compare.py --json out.json --markdown bench/RESULTS.md

Run it with an interpreter that has the ``compare`` extra installed
(``pip install -e '.[compare]'``); peers that are missing are marked.
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
sys.path.insert(0, HERE)

import peers as P  # noqa: E402

# key -> (file, expected count, in --quick)
COUNTING = {
    "queens-12": ("queens-12.dlx", 14_200, True),
    "queens-13": ("queens-13.dlx", 73_712, False),
    "langford-11": ("langford-11.dlx", 35_584, True),
    "langford-12": ("langford-12.dlx", 216_288, False),
    "pentomino-6x10-2339": ("pentomino-6x10-xquarter.dlx", 2_339, True),
    "pentomino-6x10-9356": ("pentomino-6x10.dlx", 9_356, False),
    "sudoku-grids-4x4": ("sudoku-grids-4x4.dlx", 288, True),
    "sudoku-grids-6x6": ("sudoku-grids-6x6.dlx", 28_200_960, False),
}

# Colors (XCC) and multiplicities (MCC): key -> (builder, expected count,
# in --quick), built by dlx.problems and written in Knuth's DLX2/DLX3
# format, which every peer then reads (so all see the same order).  Counts:
# de Bruijn OEIS A016031 and (k!)^(k^(n-1))/k^n; rooks OEIS A001499 (k=2),
# A001501 (k=3).
COLORED = {
    "debruijn-5": ("debruijn(5)", 2_048, True),
    "debruijn-2-4": ("debruijn(2, 4)", 20_736, False),
    "debruijn-3-3": ("debruijn(3, 3)", 373_248, False),
    "rooks-6-2": ("rooks(6, 2)", 67_950, True),
    "rooks-6-3": ("rooks(6, 3)", 297_200, False),
    "rooks-7-2": ("rooks(7, 2)", 3_110_940, False),
}


# Their section of RESULTS.md (a run of these problems alone rewrites it).
COLORED_HEADING = "## Colors and multiplicities (XCC and MCC counts)"


def instance_for(key: str) -> P.Instance:
    """The instance of a COUNTING file or a COLORED builder."""
    if key in COUNTING:
        return P.read_dlx(os.path.join(P.EXACTCOVER_DIR, COUNTING[key][0]))
    sys.path.insert(0, os.path.join(HERE, ".."))
    from dlx.formats import dumps
    from dlx.problems import debruijn, rooks

    builder = COLORED[key][0]
    problem = eval(
        builder, {"debruijn": debruijn.debruijn, "rooks": rooks.rooks}
    )
    return P.parse_dlx(dumps(problem), key)


def expected_count(key: str) -> int:
    return (COUNTING.get(key) or COLORED[key])[1]


# key -> (file, puzzles in a full run, in a --quick run); None: the whole
# file, 0: not in a --quick run
SUDOKU = {
    "kudoku20": ("kudoku20.txt", None, None),
    "top95": ("top95.txt", None, None),
    "forum_hardest": ("forum_hardest.txt", None, None),
    "top1465": ("top1465.txt", None, 0),
    "17clue-10k": ("17clue.txt", 10_000, 1_000),
}

# Given figures (not measured by us), for the tables' reference column.
REFERENCE = {
    "DLX1 (C, -O3)": {
        "queens-12": 0.056,
        "queens-13": 0.225,
        "langford-11": 0.097,
        "langford-12": 0.61,
        "pentomino-6x10-2339": 2.24,
        "pentomino-6x10-9356": 9.6,
        "sudoku-grids-6x6": 35.8,
    },
    "miniexact": {
        "queens-12": 0.078,
        "langford-11": 0.113,
        "pentomino-6x10-2339": 2.06,
        "pentomino-6x10-9356": 9.05,
    },
    "xcover": {
        "queens-12": 0.139,
        "langford-11": 0.228,
        "pentomino-6x10-2339": 2.22,
        "pentomino-6x10-9356": 8.63,
    },
    "pyxcc": {
        "queens-12": 0.528,
        "langford-11": 0.340,
        "pentomino-6x10-2339": 2.01,
        "pentomino-6x10-9356": 7.80,
    },
}
REFERENCE_SUDOKU = {  # puzzles/s, uniqueness check (limit 2)
    "kudoku (C)": {"top1465": 6_600, "17clue-10k": 26_600},
    "best Python peer": {"top95": 500},
}
# tdoku is measured, not given: bench/tdoku.py writes its own section.
TDOKU_HEADING = "## Against tdoku, measured (bench/tdoku.py)"
BITS_HEADING = "## The bitset engine: where the time goes"

MEMORY_CAP = 6 << 30  # bytes of resident memory per worker


# -- the worker: one solver on one problem, in its own process ---------------

_TOY = [list(o) for o in ["cef", "adg", "bcf", "ad", "bg", "deg"]]


def _warm_instance(peer):
    """A small instance ``peer`` takes, to compile or load its caches:
    8 queens when the file is there, else Knuth's toy matrix (with its
    secondary items made primary for a peer that has none)."""
    choices = [
        P.Instance("toy", list("abcde"), list("fg"), _TOY),
        P.Instance("toy", list("abcdefg"), [], _TOY),
    ]
    path = os.path.join(P.EXACTCOVER_DIR, "queens-8.dlx")
    if os.path.exists(path):
        choices.insert(0, P.read_dlx(path))
    return next(i for i in choices if not peer.unsupported(i))


def _timed(prepare, run, source, reps, budget, reusable=True):
    """Best of up to ``reps`` runs, the input prepared once, or afresh for
    every run when a run uses it up.

    Returns ``(seconds, (output, prepared), runs, setup)``: the best run's
    time, its output, and the fastest ``prepare`` (timed apart: it is the
    conversion a user of that solver would also pay).
    """
    best = None
    setup = None
    result = None
    prepared = None
    t_start = time.perf_counter()
    for r in range(reps):
        if prepared is None or not reusable:
            t0 = time.perf_counter()
            prepared = prepare(source)
            dt = time.perf_counter() - t0
            setup = dt if setup is None else min(setup, dt)
        t0 = time.perf_counter()
        out = run(prepared)
        dt = time.perf_counter() - t0
        if best is None or dt < best:
            best, result = dt, (out, prepared)
        if (
            dt > 2.0
            or (time.perf_counter() - t_start) * (r + 2) / (r + 1) > budget
        ):
            break
    return best, result, r + 1, setup


def worker(
    peer_name: str,
    kind: str,
    key: str,
    reps: int,
    budget: float,
    puzzles_wanted: int | None,
):
    peer = P.PEERS[peer_name]
    out = {"peer": peer_name, "problem": key, "version": peer.version()}
    if kind == "count":
        expected = expected_count(key)
        inst = instance_for(key)
        warm = _warm_instance(peer) if inst.kind == "plain" else inst
        peer.count(peer.prepare_count(warm))
        seconds, (res, _), runs, _ = _timed(
            peer.prepare_count, peer.count, inst, reps, budget, peer.reusable
        )
        n, extra = res
        if "startup" in extra:  # DLX2/DLX3: the search alone
            seconds = max(seconds - extra.pop("startup"), 0.0)
        out.update(
            seconds=seconds,
            runs=runs,
            count=n,
            extra=extra,
            valid=(n == expected),
            detail=""
            if n == expected
            else f"counted {n}, expected {expected}",
        )
    else:
        fname, _, _ = SUDOKU[key]
        puzzles = P.read_puzzles(
            os.path.join(P.SUDOKU_DIR, fname), puzzles_wanted
        )
        peer.solve_sudoku_batch(peer.prepare_sudoku(puzzles[:1]))  # warm
        seconds, (output, prepared), runs, setup = _timed(
            peer.prepare_sudoku,
            peer.solve_sudoku_batch,
            puzzles,
            reps,
            budget,
            peer.reusable,
        )
        extra = {}
        work = peer.sudoku_work(puzzles) if peer.sudoku_work else None
        if work:
            extra = {k: v / len(puzzles) for k, v in work.items()}
        res = peer.sudoku_answers(output, prepared)
        bad = [
            i
            for i, ((n, g), p) in enumerate(zip(res, puzzles))
            if n != 1 or not P.is_solved_grid(p, g)
        ]
        out.update(
            seconds=seconds,
            setup=setup,
            runs=runs,
            count=len(puzzles),
            extra=extra,
            valid=not bad,
            detail=""
            if not bad
            else f"{len(bad)} wrong, first at puzzle {bad[0]}: "
            f"{res[bad[0]][0]} solutions",
        )
    print(json.dumps(out))


# -- the driver --------------------------------------------------------------


def _rss(pid: int) -> int:
    """Resident memory of a process in bytes (0 when unknown)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def run_one(python, peer, kind, key, timeout, reps, puzzles):
    """One worker: its JSON result, or a status row (timeout, error).

    The worker is watched rather than limited with RLIMIT_AS: some peers
    reserve far more address space than they use (miniexact segfaults under
    an address-space cap), so resident memory is polled and the worker
    killed above ``MEMORY_CAP``.
    """
    cmd = [
        python,
        os.path.abspath(__file__),
        "--worker",
        peer,
        kind,
        key,
        "--reps",
        str(reps),
        "--budget",
        str(timeout / 2),
    ]
    if puzzles:
        cmd += ["--puzzles", str(puzzles)]
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    killed = None
    while True:
        try:
            proc.wait(0.2)
            break
        except subprocess.TimeoutExpired:
            pass
        if time.perf_counter() - t0 > timeout:
            killed = "timeout"
        elif _rss(proc.pid) > MEMORY_CAP:
            killed = "memory"
        if killed:
            proc.kill()
            break
    stdout, stderr = proc.communicate()
    wall = time.perf_counter() - t0
    if killed == "timeout":
        return {
            "peer": peer,
            "problem": key,
            "status": "timeout",
            "detail": f"> {timeout:g} s",
        }
    if killed == "memory":
        return {
            "peer": peer,
            "problem": key,
            "status": "error",
            "detail": f"out of memory (over {MEMORY_CAP >> 30} GiB "
            f"resident after {wall:.0f} s)",
        }
    lines = [ln for ln in stdout.splitlines() if ln.startswith("{")]
    if proc.returncode != 0 or not lines:
        err = (stderr.strip().splitlines() or ["no output"])[-1]
        if proc.returncode and proc.returncode < 0:
            err = f"crashed (signal {-proc.returncode})"
        if (
            "MemoryError" in stderr
            or "std::bad_alloc" in stderr
            or "memory allocation" in stderr
        ):
            err = "out of memory"
        return {
            "peer": peer,
            "problem": key,
            "status": "error",
            "detail": err[:120],
        }
    res = json.loads(lines[-1])
    res["status"] = "ok" if res["valid"] else "wrong"
    res["wall"] = wall
    return res


def _fmt_rate(x):
    if x >= 1e6:
        return f"{x / 1e6:.2f}M"
    if x >= 1e3:
        return f"{x / 1e3:.1f}k"
    return f"{x:.1f}"


def table_rows(kind, key, results, ours="dlx-toolkit"):
    """Rows (list of str lists) of one problem's table."""
    base = next(
        (r for r in results if r["peer"] == ours and r.get("status") == "ok"),
        None,
    )
    rows = []
    for r in results:
        if r.get("status") == "ok":
            t = r["seconds"]
            rate = r["count"] / t if t > 0 else float("inf")
            ratio = f"{t / base['seconds']:.2f}" if base else "-"
            unit = "sol/s" if kind == "count" else "puzzles/s"
            extra = r.get("extra") or {}
            if kind == "count":
                nodes = f"{extra['nodes']:,}" if "nodes" in extra else "-"
                upd = f"{extra['updates']:,}" if "updates" in extra else "-"
            else:
                nodes = f"{extra['nodes']:.1f}" if "nodes" in extra else "-"
                upd = f"{extra['updates']:.0f}" if "updates" in extra else "-"
            extra_cols = (
                [f"{1e6 * t / r['count']:.1f}"] if kind == "sudoku" else []
            )
            setup_cols = []
            if kind == "sudoku":
                # With setup: the conversion into the solver's own input,
                # which a user of that solver pays too (ours parses inside
                # the timed call, so its setup is nil).
                whole = t + (r.get("setup") or 0.0)
                base_whole = (
                    base["seconds"] + (base.get("setup") or 0.0)
                    if base
                    else None
                )
                setup_cols = [
                    f"{r.get('setup') or 0.0:.3f}",
                    f"{whole / base_whole:.2f}" if base else "-",
                ]
            rows.append(
                [
                    r["peer"],
                    r.get("version", ""),
                    f"{t:.3f}",
                    f"{_fmt_rate(rate)} {unit}",
                ]
                + extra_cols
                + [ratio]
                + setup_cols
                + [nodes, upd, str(r.get("runs", ""))]
            )
        else:
            status = r.get("status", "?")
            label = {
                "unsupported": "not supported",
                "timeout": "timeout",
                "error": "error",
                "wrong": "WRONG ANSWER",
                "missing": "not installed",
            }.get(status, status)
            cols = len(headers(kind))
            rows.append(
                [
                    r["peer"],
                    r.get("version", ""),
                    f"{label}: {r.get('detail', '')}",
                ]
                + [""] * (cols - 3)
            )
    return rows


def headers(kind):
    if kind == "count":
        return [
            "solver",
            "version",
            "time (s)",
            "rate",
            "x ours",
            "nodes",
            "updates",
            "runs",
        ]
    return [
        "solver",
        "version",
        "time (s)",
        "rate",
        "us/puzzle",
        "x ours",
        "setup (s)",
        "x ours with setup",
        "nodes/puzzle",
        "updates/puzzle",
        "runs",
    ]


def print_table(title, kind, rows):
    hdr = headers(kind)
    widths = [
        max(
            len(h),
            *(
                len(r[i])
                for r in rows
                if len(r) > i and not (r[3] == "" and i == 2)
            ),
        )
        for i, h in enumerate(hdr)
    ]
    print(f"\n{title}")
    print("  ".join(h.ljust(w) for h, w in zip(hdr, widths)))
    for r in rows:
        if r[3] == "":  # a status line spans the rest
            print(
                "  ".join(c.ljust(w) for c, w in zip(r[:2], widths[:2]))
                + "  "
                + r[2]
            )
        else:
            print("  ".join(c.ljust(w) for c, w in zip(r, widths)))
    sys.stdout.flush()


def markdown_table(kind, rows):
    hdr = headers(kind)
    lines = [
        "| " + " | ".join(hdr) + " |",
        "|" + "|".join("---" for _ in hdr) + "|",
    ]
    for r in rows:
        lines.append("| " + " | ".join(r) + " |")
    return "\n".join(lines)


def cpu_model():
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
        for line in out.splitlines():
            if line.lower().startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def main(argv=None):
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawTextHelpFormatter,
    )
    ap.add_argument(
        "--quick",
        action="store_true",
        help="a fast subset of problems and puzzles",
    )
    ap.add_argument(
        "--timeout",
        type=float,
        default=60.0,
        help="seconds per (solver, problem) run, warm-up and "
        "conversion included (default 60)",
    )
    ap.add_argument(
        "--reps",
        type=int,
        default=3,
        help="best of this many timed runs (runs over 2 s are timed once)",
    )
    ap.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="run every solver this many times in turn, "
        "keeping each one's best (default 1)",
    )
    ap.add_argument(
        "--peers",
        default=None,
        help="comma-separated solvers (default: all of "
        + ", ".join(P.PEERS)
        + ")",
    )
    ap.add_argument(
        "--problems",
        default=None,
        help="comma-separated problem keys (default: all)",
    )
    ap.add_argument(
        "--python", default=sys.executable, help="interpreter for the workers"
    )
    ap.add_argument("--json", default=None, help="write raw results here")
    ap.add_argument(
        "--markdown",
        default=None,
        help="write the tables as Markdown here (RESULTS.md)",
    )
    ap.add_argument(
        "--cold-start",
        default=None,
        help="cold_start.py --json output to include in the Markdown",
    )
    ap.add_argument(
        "--from-json",
        default=None,
        help="run nothing: rewrite --markdown from a --json "
        "file of an earlier run",
    )
    ap.add_argument("--worker", nargs=3, help=argparse.SUPPRESS)
    ap.add_argument(
        "--budget", type=float, default=30.0, help=argparse.SUPPRESS
    )
    ap.add_argument(
        "--puzzles", type=int, default=None, help=argparse.SUPPRESS
    )
    args = ap.parse_args(argv)

    if args.worker:
        worker(*args.worker, args.reps, args.budget, args.puzzles)
        return 0

    if args.from_json:
        with open(args.from_json) as f:
            saved = json.load(f)
        _write_markdown(args, saved["meta"], saved["problems"])
        return 0

    names = args.peers.split(",") if args.peers else list(P.PEERS)
    unknown = [n for n in names if n not in P.PEERS]
    if unknown:
        ap.error(f"unknown solver(s) {unknown}; known: {list(P.PEERS)}")
    wanted = set(args.problems.split(",")) if args.problems else None

    jobs = []  # (kind, key, path, puzzles: how many, None for all)
    for key, (fname, _, quick) in COUNTING.items():
        if (wanted and key not in wanted) or (
            args.quick and not quick and not wanted
        ):
            continue
        jobs.append(
            ("count", key, os.path.join(P.EXACTCOVER_DIR, fname), None)
        )
    for key, (_, _, quick) in COLORED.items():
        if (wanted and key not in wanted) or (
            args.quick and not quick and not wanted
        ):
            continue
        jobs.append(("count", key, None, None))
    for key, (fname, full, quick) in SUDOKU.items():
        if (wanted and key not in wanted) or (
            args.quick and quick == 0 and not wanted
        ):
            continue
        jobs.append(
            (
                "sudoku",
                key,
                os.path.join(P.SUDOKU_DIR, fname),
                quick if args.quick and quick else full,
            )
        )

    print(
        f"machine: {cpu_model()}, {os.cpu_count()} CPUs; python "
        f"{platform.python_version()}"
    )
    print(
        "solvers: " + ", ".join(f"{n} {P.PEERS[n].version()}" for n in names)
    )
    all_results = []
    t_start = time.perf_counter()
    load_start = os.getloadavg()[0]
    for kind, key, path, puzzles in jobs:
        if path is not None and not os.path.exists(path):
            print(f"\n{key}: skipped, {path} is absent")
            continue
        if kind == "count":
            inst = instance_for(key)
            given = REFERENCE["DLX1 (C, -O3)"].get(key)
            source = (
                f"{inst.name}.dlx"
                if path
                else f"dlx.problems.{COLORED[key][0]}, "
                + ("MCC" if inst.bounds else "XCC")
            )
            title = (
                f"{key}: count {expected_count(key):,} solutions "
                f"({source}, {len(inst.primary)}+"
                f"{len(inst.secondary)} items, {len(inst.options)} "
                f"options)"
            )
            if given:
                title += f"; DLX1 reference {given} s (given)"
        else:
            inst = None
            total = len(P.read_puzzles(path, puzzles))
            title = f"{key}: {total} puzzles, uniqueness check (limit=2)"
        results = []
        runnable = []
        for name in names:
            peer = P.PEERS[name]
            base = {"peer": name, "problem": key, "version": peer.version()}
            capable = (
                peer.count if kind == "count" else peer.solve_sudoku_batch
            )
            if peer.version() == "not installed":
                results.append(
                    {**base, "status": "missing", "detail": peer.install_hint}
                )
                continue
            if capable is None:
                results.append(
                    {
                        **base,
                        "status": "unsupported",
                        "detail": "no exact-cover interface"
                        if kind == "count"
                        else "no batch interface",
                    }
                )
                continue
            reason = peer.unsupported(inst) if inst is not None else None
            if inst is not None and inst.kind not in peer.handles:
                reason = (
                    f"no {inst.kind}"
                    if inst.kind != "plain"
                    else "only colored or bounded problems"
                )
            if reason:
                results.append(
                    {**base, "status": "unsupported", "detail": reason}
                )
                continue
            results.append(None)
            runnable.append((len(results) - 1, name))
        # Rounds interleave the solvers in time, so a burst of load on the
        # shared machine hits them alike; each keeps its best round.
        for _ in range(args.rounds):
            for slot, name in runnable:
                res = run_one(
                    args.python,
                    name,
                    kind,
                    key,
                    args.timeout,
                    args.reps,
                    puzzles,
                )
                res.setdefault("version", P.PEERS[name].version())
                old = results[slot]
                if old is None or (
                    res.get("status") == "ok"
                    and (
                        old.get("status") != "ok"
                        or res["seconds"] < old["seconds"]
                    )
                ):
                    res["rounds"] = (old or {}).get("rounds", 0) + 1
                    results[slot] = res
                else:
                    old["rounds"] = old.get("rounds", 1) + 1
                if res.get("status") == "timeout":
                    runnable = [(s, n) for s, n in runnable if n != name]
        all_results.append(
            {"kind": kind, "problem": key, "title": title, "results": results}
        )
        print_table(title, kind, table_rows(kind, key, results))
    elapsed = time.perf_counter() - t_start
    print(f"\n(total {elapsed:.0f} s)")

    meta = {
        "cpu": cpu_model(),
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "versions": {n: P.PEERS[n].version() for n in names},
        "numba": _version("numba"),
        "numpy": _version("numpy"),
        "quick": args.quick,
        "timeout": args.timeout,
        "reps": args.reps,
        "rounds": args.rounds,
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "load": f"{load_start:.1f} at the start, "
        f"{os.getloadavg()[0]:.1f} at the end",
        "elapsed": elapsed,
    }
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"meta": meta, "problems": all_results}, f, indent=1)
    _write_markdown(args, meta, all_results)
    return 0


# A section of RESULTS.md written by another script (bench/cells_vs_ssxc1.py)
# and kept when this one rewrites the file.
KEPT_SECTIONS = (
    "## Dancing cells against SSXC1 and DLX1",
    "## Memoized counts (bench/memo.py)",
    COLORED_HEADING,
    TDOKU_HEADING,
    BITS_HEADING,
    "## Reduction before the search (bench/reduce.py)",
)


def kept_sections(text: str, new: str = "") -> str:
    """The ``KEPT_SECTIONS`` of a RESULTS.md text, each up to the next
    second-level heading; those that ``new`` (the text about to be
    written) has already are left out."""
    out = []
    for heading in KEPT_SECTIONS:
        if heading + "\n" in new:
            continue
        start = text.find(heading + "\n")
        if start >= 0:
            end = text.find("\n## ", start + len(heading))
            out.append(
                text[start : end if end >= 0 else len(text)].rstrip("\n")
                + "\n"
            )
    return "\n".join(out)


def _write_markdown(args, meta, problems):
    if not args.markdown:
        return
    cold = None
    if args.cold_start and os.path.exists(args.cold_start):
        with open(args.cold_start) as f:
            cold = json.load(f)
    old = ""
    if os.path.exists(args.markdown):
        with open(args.markdown) as f:
            old = f.read()
    if old and problems and all(p["problem"] in COLORED for p in problems):
        # Only colored and bounded problems ran: rewrite their section.
        with open(args.markdown, "w") as f:
            f.write(
                replace_section(
                    old,
                    COLORED_HEADING,
                    "\n".join(colored_section(meta, problems)),
                )
            )
        return
    new = results_markdown(meta, problems, cold)
    kept = kept_sections(old, new) if old else ""
    with open(args.markdown, "w") as f:
        f.write(new + ("\n" + kept if kept else ""))


def replace_section(text: str, heading: str, section: str) -> str:
    """``text`` with its second-level section ``heading`` (up to the next
    one) replaced by ``section``, or with ``section`` added at the end."""
    section = section.rstrip("\n") + "\n"
    start = text.find(heading + "\n")
    if start < 0:
        return text.rstrip("\n") + "\n\n" + section
    end = text.find("\n## ", start + len(heading))
    return (
        text[:start]
        + section
        + (text[end + 1 :] and "\n" + text[end + 1 :] if end >= 0 else "")
    )


def _version(dist):
    from importlib import metadata

    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "not installed"


FIGURES = os.path.join(HERE, "..", "tests", "data", "dlx1", "figures.tsv")
SSXC1_FIGURES = os.path.join(
    HERE, "..", "tests", "data", "ssxc1", "figures.tsv"
)


def dlx1_figures(path=FIGURES):
    """{file: (solutions, nodes, updates)} as DLX1 (or, from
    ``SSXC1_FIGURES``, SSXC1) printed them."""
    figures = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                if line.startswith(("#", "file\t")):
                    continue
                name, *numbers = line.rstrip("\n").split("\t")
                figures[name] = tuple(int(x) for x in numbers[:3])
    return figures


def dlx1_section(problems):
    """Our counting runs against DLX1: the same search (nodes and updates
    against what DLX1 printed for the same file), and the time, measured
    here when a DLX1 build was given, else estimated from the given
    figures calibrated by the peers."""
    figures = dlx1_figures()
    cells_figures = dlx1_figures(SSXC1_FIGURES)
    ours, dlx1, peer_ratio = {}, {}, []
    for p in problems:
        if p["kind"] != "count" or p["problem"] not in COUNTING:
            continue
        for r in p["results"]:
            if r.get("status") != "ok":
                continue
            if r["peer"] in ("dlx-toolkit", "dlx1"):
                (ours if r["peer"] == "dlx-toolkit" else dlx1)[
                    p["problem"]
                ] = r
            given = REFERENCE.get(r["peer"], {}).get(p["problem"])
            if given and r["peer"] != "dlx1":
                peer_ratio.append(r["seconds"] / given)
    if not ours:
        return []
    peer_ratio.sort()
    c = peer_ratio[len(peer_ratio) // 2] if peer_ratio else None
    out = [
        "## Against DLX1",
        "",
        "*Same search*: our nodes and updates against what Knuth's DLX1 "
        "printed for the same file (`tests/data/dlx1/figures.tsv`; a "
        "solution counts as a node in both), or SSXC1 "
        '(`tests/data/ssxc1/figures.tsv`) where `algorithm="auto"` '
        "chose dancing cells.  *DLX1 here* is a local "
        "build of `dlx1.w` (gcc -O3) timed in the same run, one process "
        "per run, input reading included (`-` when `DLX1` was not set). "
        " *x DLX1 (est.)* sets our time against DLX1's given time scaled "
        "by this machine's speed: the median of the peers' measured/given "
        "times"
        + (
            f", **{c:.2f}** over {len(peer_ratio)} peer runs"
            if c
            else " (no peer figure to calibrate with)"
        )
        + ".  The target is within 1.25x of DLX1.",
        "",
        "| problem | nodes | updates | same search as DLX1 | ours (s) | "
        "DLX1 here (s) | x DLX1 here | DLX1 given (s) | x DLX1 (est.) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for key, r in ours.items():
        extra = r.get("extra") or {}
        work = (r["count"], extra.get("nodes"), extra.get("updates"))
        known = figures.get(COUNTING[key][0])
        known_cells = cells_figures.get(COUNTING[key][0])
        same = (
            "-"
            if known is None
            else "yes"
            if work == known
            else "yes, SSXC1's"
            if work == known_cells
            else f"no: DLX1 {known[1]:,} nodes, {known[2]:,} updates"
        )
        here = dlx1.get(key)
        given = REFERENCE["DLX1 (C, -O3)"].get(key)
        t = r["seconds"]
        out.append(
            f"| {key} | {work[1]:,} | {work[2]:,} | {same} | {t:.3f} | "
            + (
                f"{here['seconds']:.3f} | {t / here['seconds']:.2f}"
                if here
                else "- | -"
            )
            + " | "
            + (
                f"{given} | " + (f"{t / (given * c):.2f}" if c else "-")
                if given
                else "- | -"
            )
            + " |"
        )
    out.append("")
    return out


def xcc_section(problems):
    """Our colored and bounded counts against Knuth's DLX2 and DLX3 (the
    same search: nodes and updates compared) and the fastest peer."""
    rows = []
    for p in problems:
        if p["kind"] != "count" or p["problem"] not in COLORED:
            continue
        ok = {r["peer"]: r for r in p["results"] if r.get("status") == "ok"}
        ours = ok.get("dlx-toolkit")
        if not ours:
            continue
        t = ours["seconds"]
        extra = ours.get("extra") or {}
        knuth = ok.get("dlx3") or ok.get("dlx2")
        same = "-"
        if knuth:
            kx = knuth.get("extra") or {}
            same = (
                "yes"
                if (kx.get("nodes"), kx.get("updates"))
                == (extra.get("nodes"), extra.get("updates"))
                else f"no: {kx.get('nodes'):,} nodes, "
                f"{kx.get('updates'):,} updates"
            )
        peers = {
            k: r["seconds"]
            for k, r in ok.items()
            if not k.startswith("dlx") and r["seconds"] > 0
        }
        best = min(peers, key=peers.get) if peers else None
        mt = ok.get("dlx-toolkit-mt")
        rows.append(
            f"| {p['problem']} | {extra.get('nodes', 0):,} | {same} | "
            f"{t:.3f} | "
            + (
                f"{knuth['peer'].upper()} {knuth['seconds']:.3f} | "
                f"{knuth['seconds'] / t:.2f}"
                if knuth
                else "- | -"
            )
            + " | "
            + (
                f"{best} {peers[best]:.3f} | {peers[best] / t:.2f}"
                if best
                else "- | -"
            )
            + " | "
            + (f"{mt['seconds']:.3f}" if mt else "-")
            + " |"
        )
    if not rows:
        return []
    return (
        [
            "### Against DLX2 and DLX3",
            "",
            "*Same search*: our nodes and updates against what Knuth's "
            "DLX2 (colors) or DLX3 (bounds) printed in the same run.  "
            "Their time is the run's wall time less that of the same run "
            "stopped before its first node (`T0`), so both sides time the "
            "search alone.  Ratios are their time divided by ours (above "
            "1: slower than us); *ours, all cores* is `count(threads=0)`.",
            "",
            "| problem | nodes | same search as Knuth | ours (s) | Knuth (s) "
            "| x ours | fastest peer (s) | x ours | ours, all cores (s) |",
            "|---|---|---|---|---|---|---|---|---|",
        ]
        + rows
        + [""]
    )


def colored_section(meta, problems):
    """The COLORED problems' tables and the DLX2/DLX3 summary, as one
    section (a run of these problems alone rewrites just this section of
    RESULTS.md)."""
    tables = []
    for p in problems:
        if p["kind"] == "count" and p["problem"] in COLORED:
            tables += [
                f"### {p['title']}",
                "",
                markdown_table(
                    "count", table_rows("count", p["problem"], p["results"])
                ),
                "",
            ]
    if not tables:
        return []
    return (
        [
            COLORED_HEADING,
            "",
            f"Written by `bench/compare.py` on {meta['date']}"
            f" (load average {meta.get('load', '?')}, on "
            f"{meta['cpus']} CPUs shared with other work), best of up to {meta['reps']} runs in "
            f"each of {meta.get('rounds', 1)} round(s) that take the "
            f"solvers in turn.  Built by `dlx.problems` and written in "
            f"Knuth's DLX2/DLX3 format, which every solver reads (same "
            f"items and options in the same order).  Known counts: de "
            f"Bruijn cycles OEIS A016031 and (k!)^(k^(n-1))/k^n, rooks "
            f"OEIS A001499 (2 a line) and A001501 (3 a line).  xcover takes "
            f"colors but not bounds; DLX2 and DLX3 are local builds of "
            f"Knuth's programs ($DLX2, $DLX3).",
            "",
        ]
        + tables
        + xcc_section(problems)
    )


def sudoku_summary(problems):
    """Our single-thread Sudoku rates against the fastest peer measured
    here and the given C/C++ figures."""
    out = [
        "## Sudoku against the targets",
        "",
        "Rates in puzzles/s.  `fastest peer` is the fastest other solver "
        "in the same run (all single-threaded).  *Solve only* times the "
        "peers on their own input, built beforehand and untimed (the "
        "kindest measure for them); *with setup* adds that building "
        "(the puzzle's reduced exact cover, put through the peer's API), "
        "which a user of the peer pays too.  Ours parses the puzzle "
        "strings inside its timed call either way.  kudoku is a given "
        "figure (not measured here, and not calibrated); tdoku is "
        "measured side by side in its own section.",
        "",
        "| batch | ours, 1 thread | ours, all cores | fastest peer, "
        "solve only | ours / it | fastest peer, with setup | ours / it "
        "| kudoku (given) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    any_row = False
    for p in problems:
        if p["kind"] != "sudoku":
            continue
        ok = [
            r
            for r in p["results"]
            if r.get("status") == "ok" and r["seconds"] > 0
        ]
        rate = {r["peer"]: r["count"] / r["seconds"] for r in ok}
        whole = {
            r["peer"]: r["count"] / (r["seconds"] + (r.get("setup") or 0.0))
            for r in ok
        }
        if "dlx-toolkit" not in rate:
            continue
        ours = rate["dlx-toolkit"]
        mt = rate.get("dlx-toolkit-mt")
        cells = [p["problem"], f"{ours:,.0f}", f"{mt:,.0f}" if mt else "-"]
        for rates, ours_rate in ((rate, ours), (whole, whole["dlx-toolkit"])):
            peers = {
                k: v for k, v in rates.items() if not k.startswith("dlx-")
            }
            best = max(peers, key=peers.get) if peers else None
            cells += (
                [
                    f"{best} {peers[best]:,.0f}",
                    f"{ours_rate / peers[best]:.1f}",
                ]
                if best
                else ["-", "-"]
            )
        given = {s: f.get(p["problem"]) for s, f in REFERENCE_SUDOKU.items()}
        cells += [f"{given[k]:,}" if given[k] else "" for k in ("kudoku (C)",)]
        out.append("| " + " | ".join(cells) + " |")
        any_row = True
    return out + [""] if any_row else []


def results_markdown(meta, problems, cold=None):
    out = [
        "# Benchmark results",
        "",
        f"Written by `bench/compare.py{' --quick' if meta['quick'] else ''}"
        f"` on {meta['date']}.  Machine: **{meta['cpu']}** "
        f"({meta['cpus']} CPUs, shared with other work and noisy; every "
        f"solver on one thread except the `dlx-toolkit-mt` rows); "
        f"Python {meta['python']}, numba {meta['numba']}, "
        f"numpy {meta['numpy']}.  Versions: "
        + ", ".join(f"{k} {v}" for k, v in meta["versions"].items())
        + f".  Best of up to {meta['reps']} runs (runs over 2 s timed "
        f"once) in each of {meta.get('rounds', 1)} round(s) that take "
        f"the solvers in turn; time limit {meta['timeout']:g} s per "
        f"run.  "
        "`x ours` is the solver's time divided by this project's "
        "(above 1: slower than us).  Every answer was validated outside "
        "the timed region.",
        "",
    ]
    sections = [
        (
            "count",
            "## Counting problems (DLX-format instances, "
            "same item and option order as measured with DLX1)",
            COUNTING,
        ),
        (
            "sudoku",
            "## Sudoku batches (solve and prove unique, limit=2)",
            SUDOKU,
        ),
    ]
    for kind, heading, keys in sections:
        if not any(
            p["kind"] == kind and p["problem"] in keys for p in problems
        ):
            continue
        out += [heading, ""]
        for p in problems:
            if p["kind"] == kind and p["problem"] in keys:
                out += [
                    f"### {p['title']}",
                    "",
                    markdown_table(
                        kind, table_rows(kind, p["problem"], p["results"])
                    ),
                    "",
                ]
    out += dlx1_section(problems)
    out += colored_section(meta, problems)
    out += sudoku_summary(problems)
    if cold:
        out += [
            "## Cold start",
            "",
            "A fresh process imports the package and solves one 9x9 "
            "puzzle; wall time of the whole process (interpreter start "
            "included), first with an empty numba cache "
            "(`NUMBA_CACHE_DIR` a fresh temp dir), then warm.  "
            f"Best of {cold.get('reps', 1)}.",
            "",
            "| solver | empty cache (s) | warm cache (s) |",
            "|---|---|---|",
        ]
        for r in cold["results"]:
            out.append(
                f"| {r['solver']} | {r['empty']:.2f} | {r['warm']:.2f} |"
            )
        out += [
            "",
            f"For scale: `python -c pass` takes "
            f"{cold['baseline']:.2f} s and `python -c 'import numba'` "
            f"{cold.get('numba_import', float('nan')):.2f} s here.",
        ]
        out.append("")
    given = [k for k in COUNTING if any(k in f for f in REFERENCE.values())]
    out += [
        "## Reference figures (given, not measured by us)",
        "",
        "Measured earlier on this kind of machine, single thread, and "
        "handed to us as targets; they are not from the runs above.",
        "",
        "| solver | " + " | ".join(given) + " |",
        "|---|" + "---|" * len(given),
    ]
    for solver, figs in REFERENCE.items():
        out.append(
            f"| {solver} | "
            + " | ".join(f"{figs[k]} s" if k in figs else "" for k in given)
            + " |"
        )
    out += [
        "",
        "Sudoku uniqueness check (limit 2), puzzles/s:",
        "",
        "| solver | top95 | top1465 | 17clue |",
        "|---|---|---|---|",
    ]
    for solver, figs in REFERENCE_SUDOKU.items():
        out.append(
            f"| {solver} | {figs.get('top95', '')} | "
            f"{figs.get('top1465', '')} | "
            f"{figs.get('17clue-10k', '')} |"
        )
    out += [
        "",
        "Targets: counting faster than every Python peer and within "
        "1.25x of DLX1; Sudoku `solve_many` at least kudoku's rate and "
        "at least 10x the fastest Python peer; cold start under 1.0 s "
        "warm and under 10 s with an empty cache.",
        "",
    ]
    return "\n".join(out)


if __name__ == "__main__":
    sys.exit(main())
