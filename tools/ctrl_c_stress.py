"""Is every Ctrl-C answered at once, even one Python would drop?

    PYTHONPATH=$PWD python tools/ctrl_c_stress.py [--rounds 6]

Python raises ``KeyboardInterrupt`` at the next bytecode of the main
thread, wherever it is; one that lands in a gc or weakref callback is
printed and lost.  This installs a gc callback that runs Python code (as
hypothesis does), then presses Ctrl-C 0.2 s into each kind of long run
(count, threaded count, solutions, batch, threaded batch; queens 16 and 2
rooks a line on 8x8; dancing links and dancing cells) and prints, for
each, the longest time from the start to ``Interrupted`` and what was
raised.  Every row should say about 0.2 s and ``Interrupted`` only.  Not a
test: its figures are times on a shared machine.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from dlx import Interrupted
from dlx.problems.queens import queens
from dlx.problems.rooks import rooks

from test_search import interrupt_after

RUNS = {
    "count": lambda p, a: p.count(algorithm=a),
    "count-threads": lambda p, a: p.count(threads=2, algorithm=a),
    "solutions": lambda p, a: sum(1 for _ in p.solutions(algorithm=a)),
    "batch": lambda p, a: p.solve_batch([[]], limit=10**9, algorithm=a),
    "batch-threads": lambda p, a: p.solve_batch(
        [[k] for k in range(16)], limit=10**9, threads=2, algorithm=a
    ),
}


def _python_in_gc(phase, info):
    time.perf_counter()  # any Python: an interrupt may be raised here


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=6)
    args = parser.parse_args()
    gc.callbacks.append(_python_in_gc)
    problems = [
        ("queens 16", queens(11), queens(16)),
        ("rooks 8/2", rooks(6, 2), rooks(8, 2)),
    ]
    for name, small, big in problems:
        for algorithm in ("links", "cells"):
            for kind, run in RUNS.items():
                run(small, algorithm)  # compile outside the timing
                worst, raised = 0.0, set()
                for _ in range(args.rounds):
                    timer = interrupt_after(0.2)
                    t0 = time.perf_counter()
                    try:
                        run(big, algorithm)
                        raised.add("nothing: the run ended")
                    except Interrupted:
                        raised.add("Interrupted")
                    except KeyboardInterrupt:
                        raised.add("a bare KeyboardInterrupt")
                    worst = max(worst, time.perf_counter() - t0)
                    timer.join()
                print(
                    f"{name:10} {algorithm:6} {kind:14} {worst:5.2f} s  "
                    f"{', '.join(sorted(raised))}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
