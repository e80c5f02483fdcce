"""Load check of `sudoku serve`: N concurrent clients solve top95 through
the JSON API for a fixed time, beside `solve_many` called directly.

    python bench/web_load.py                     # 8 clients, 5 s, 3 rounds
    python bench/web_load.py --clients 16 --seconds 10 --rounds 5

The server runs as a child process (`python -m sudoku serve`) on a free
port of 127.0.0.1, with its default workers (one per core) and a queue
large enough for every client; nothing leaves the machine, and every loop
is bounded by the time given.  Each client is a thread with one
keep-alive connection, posting without pause:

* ``single``: one puzzle per ``POST /api/solve`` (uniqueness checked);
* ``batch``: all 95 per ``POST /api/solve-many`` (limit 2, as the CLI).

For each it reports requests/s, puzzles/s, latency percentiles and errors
(any answer but 200 with every puzzle solved is one).  ``direct`` is
``sudoku.solve_many(top95)`` in this process on all cores (limit 2).  The
contenders alternate within each round and the best round of each counts;
the clients share the 2 cores with the server, as real ones on the same
machine would.
"""

from __future__ import annotations

import argparse
import http.client
import json
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import sudoku  # noqa: E402

TOP95 = (ROOT / "tests" / "data" / "sudoku_top95.txt").read_text().split()
MAX_CLIENTS = 64


def start_server() -> tuple[subprocess.Popen, int]:
    """`sudoku serve` on a free loopback port; returns (process, port)."""
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "sudoku",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--queue",
            str(MAX_CLIENTS),
        ],
        cwd=ROOT,
        stderr=subprocess.PIPE,
        text=True,
    )
    line = process.stderr.readline()
    found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    if not found:
        process.kill()
        raise SystemExit(f"the server did not start: {line.strip()}")
    # Drain its stderr so that it never blocks on a full pipe.
    threading.Thread(target=process.stderr.read, daemon=True).start()
    return process, int(found.group(1))


def post(connection, path: str, body: dict) -> tuple[int, dict]:
    connection.request(
        "POST", path, json.dumps(body), {"Content-Type": "application/json"}
    )
    response = connection.getresponse()
    return response.status, json.loads(response.read())


def run_clients(port: int, clients: int, seconds: float, mode: str) -> dict:
    """``clients`` threads posting for ``seconds``: latencies and errors."""
    latencies: list[float] = []
    errors = [0]
    puzzles = [0]
    lock = threading.Lock()
    stop_at = time.perf_counter() + seconds

    def client(k: int):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        i = k
        mine, bad, solved = [], 0, 0
        while time.perf_counter() < stop_at:
            t0 = time.perf_counter()
            try:
                if mode == "single":
                    status, data = post(
                        connection,
                        "/api/solve",
                        {"puzzle": TOP95[i % len(TOP95)]},
                    )
                    ok = status == 200 and data["status"] == "solved"
                    count = 1
                else:
                    status, data = post(
                        connection,
                        "/api/solve-many",
                        {"puzzles": TOP95, "limit": 2},
                    )
                    ok = status == 200 and data["summary"]["solved"] == len(
                        TOP95
                    )
                    count = len(TOP95)
            except (OSError, http.client.HTTPException, ValueError):
                ok, count = False, 0
                connection.close()
                connection = http.client.HTTPConnection(
                    "127.0.0.1", port, timeout=60
                )
            mine.append(time.perf_counter() - t0)
            if ok:
                solved += count
            else:
                bad += 1
            i += clients
        connection.close()
        with lock:
            latencies.extend(mine)
            errors[0] += bad
            puzzles[0] += solved

    threads = [
        threading.Thread(target=client, args=(k,)) for k in range(clients)
    ]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - t0
    latencies.sort()

    def pct(p):
        return (
            latencies[min(len(latencies) - 1, int(p / 100 * len(latencies)))]
            * 1000
        )

    return {
        "requests/s": len(latencies) / elapsed,
        "puzzles/s": puzzles[0] / elapsed,
        "requests": len(latencies),
        "errors": errors[0],
        "p50 ms": pct(50),
        "p90 ms": pct(90),
        "p99 ms": pct(99),
        "max ms": latencies[-1] * 1000,
    }


def run_direct(seconds: float) -> dict:
    """solve_many(top95) over and over for ``seconds``: puzzles/s."""
    done = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        results = sudoku.solve_many(TOP95, limit=2)
        assert all(r.status == "solved" for r in results)
        done += len(results)
    return {"puzzles/s": done / (time.perf_counter() - t0)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    if (
        not 1 <= args.clients <= MAX_CLIENTS
        or not 0 < args.seconds <= 120
        or not 1 <= args.rounds <= 20
    ):
        parser.error(
            f"--clients 1..{MAX_CLIENTS}, --seconds up to 120, --rounds 1..20"
        )
    sudoku.solve_many(TOP95[:2])  # compile (or load) the kernels
    process, port = start_server()
    try:
        warm = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        post(warm, "/api/solve-many", {"puzzles": TOP95})
        post(warm, "/api/solve", {"puzzle": TOP95[0]})
        warm.close()
        best: dict[str, dict] = {}
        for round_ in range(1, args.rounds + 1):
            for name in ("direct", "batch", "single"):
                result = (
                    run_direct(args.seconds)
                    if name == "direct"
                    else run_clients(port, args.clients, args.seconds, name)
                )
                print(
                    f"round {round_} {name:6s} "
                    + "  ".join(
                        f"{k} {v:,.1f}" if isinstance(v, float) else f"{k} {v}"
                        for k, v in result.items()
                    ),
                    flush=True,
                )
                if (
                    name not in best
                    or result["puzzles/s"] > best[name]["puzzles/s"]
                ):
                    best[name] = result
    finally:
        process.terminate()
        process.wait(10)
    direct = best["direct"]["puzzles/s"]
    print(
        f"\nbest of {args.rounds} rounds, {args.clients} clients, "
        f"{args.seconds:g} s each:"
    )
    for name in ("batch", "single"):
        b = best[name]
        print(
            f"  {name:6s} {b['requests/s']:8,.1f} requests/s "
            f"{b['puzzles/s']:9,.0f} puzzles/s  p50 {b['p50 ms']:.1f} ms  "
            f"p90 {b['p90 ms']:.1f} ms  p99 {b['p99 ms']:.1f} ms  "
            f"max {b['max ms']:.1f} ms  errors {b['errors']}  "
            f"direct/API {direct / max(b['puzzles/s'], 1e-9):.2f}"
        )
    print(f"  direct {direct:9,.0f} puzzles/s (solve_many, all cores)")
    errors = sum(best[name]["errors"] for name in ("batch", "single"))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
