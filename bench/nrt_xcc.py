"""Does numba's reference counting cost DLX2 and DLX3 time?  Their search
kernels side by side with copies compiled with ``_nrt=False``.

    python bench/nrt_xcc.py [--rounds 5] [--only TEXT]

DLX5's kernel (``dlx/kernels/dlx5.py``) lost two thirds of its time to
the atomic increments and decrements numba wraps around each call of a
helper that takes arrays (its pruning pass does not remove them across
loops with several exits), and is compiled with ``_nrt=False``.  This
copies ``dlx/kernels/dlx2.py`` and ``dlx/kernels/dlx3.py``
into a temporary folder, adds ``_nrt=False`` to every kernel there that
allocates no array (all but the batch and split drivers), imports both
versions and counts bench/xcc.py's problems (and, with ``--files``, the
colored and bounded files of a folder) with each search kernel in turn,
on the same arrays: CPU seconds, best of the rounds, and the nodes and
updates, which must be equal.  ``as is / nrt off`` above 1: ``_nrt=False``
is faster.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import numpy as np  # noqa: E402

from dlx.engines.base import NO_LIMIT  # noqa: E402
from dlx.engines.dlx2 import DLX2, kernel_arrays  # noqa: E402
from dlx.engines.dlx3 import DLX3  # noqa: E402
from dlx.formats import load  # noqa: E402

from xcc import PROBLEMS  # noqa: E402

DECORATOR = re.compile(
    r"@njit\(cache=True(?P<rest>[^)]*)\)\n"
    r"def (?P<name>\w+)\("
)


def without_nrt(source: str) -> str:
    """``source`` with ``_nrt=False`` on every kernel whose body allocates
    no array (a kernel that allocates needs numba's reference counts)."""
    bodies = re.split(r"\n(?=@njit)", source)
    out = []
    for body in bodies:
        if (
            body.startswith("@njit")
            and "np.zeros" not in body
            and "np.empty" not in body
        ):
            body = DECORATOR.sub(
                lambda m: (
                    f"@njit(cache=True{m['rest']}, _nrt=False)\n"
                    f"def {m['name']}("
                ),
                body,
                count=1,
            )
        out.append(body)
    return "\n".join(out)


def module(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def kernels(folder: str):
    """``{"colors": (as is, nrt off), "bounds": (...)}``."""
    found = {}
    for stem in ("colors", "bounds"):
        source = (ROOT / "dlx" / "kernels" / f"{stem}.py").read_text()
        changed = without_nrt(source)
        assert changed.count("_nrt=False") >= 8, stem
        path = Path(folder) / f"{stem}_nrt_off.py"
        path.write_text(changed)
        here = Path(folder) / f"{stem}_as_is.py"
        here.write_text(source)
        found[stem] = (
            module(here, f"{stem}_as_is"),
            module(path, f"{stem}_nrt_off"),
        )
    return found


def counter(problem, pair):
    """A timed count with each kernel of ``pair``: (seconds, (count,
    nodes, updates))."""
    if problem.kind == "multiplicities":
        arrays = DLX3().build(problem)
        fresh, depth = arrays.copy_arrays, arrays.depth
    else:
        arrays = DLX2().build(problem)
        fresh, depth = (lambda: kernel_arrays(arrays)), arrays.nprimary + 1

    def run(K):
        work = fresh()
        counters = np.zeros(3, np.int64)
        t = time.process_time()
        K.search(
            *work,
            np.zeros(depth, np.int32),
            np.array([0, K.FORWARD], np.int64),
            np.zeros((0, depth), np.int32),
            np.zeros(0, np.int32),
            0,
            NO_LIMIT,
            counters,
            0,
        )
        return time.process_time() - t, tuple(
            int(c) for c in counters[[2, 0, 1]]
        )

    return [lambda K=K: run(K) for K in pair]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--only", help="problems whose name has this text")
    parser.add_argument(
        "--files", help="also the colored or bounded .dlx files of this folder"
    )
    args = parser.parse_args(argv)
    problems = [(name, build) for name, build, _ in PROBLEMS]
    if args.files:
        for name in sorted(os.listdir(args.files)):
            if name.endswith(".dlx"):
                problems.append(
                    (name, lambda p=os.path.join(args.files, name): load(p))
                )
    print(f"load average at the start: {os.getloadavg()[0]:.1f}")
    print(
        "| problem | kernel | nodes | updates | as is s | nrt off s | "
        "as is / nrt off |"
    )
    print("|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as folder:
        pairs = kernels(folder)
        for name, build in problems:
            if args.only and args.only not in name:
                continue
            problem = build()
            if problem.kind not in ("colors", "multiplicities"):
                continue
            stem = "bounds" if problem.kind == "multiplicities" else "colors"
            runs = counter(problem, pairs[stem])
            first = [run() for run in runs]  # compiles
            assert first[0][1] == first[1][1], (name, first)
            # Short searches are repeated within a round.
            repeat = max(1, int(0.05 / max(first[0][0], 1e-6)))
            best = [float("inf"), float("inf")]
            for _ in range(args.rounds):
                for side, run in enumerate(runs):
                    for _ in range(repeat):
                        seconds, figures = run()
                        assert figures == first[0][1], (name, figures)
                        best[side] = min(best[side], seconds)
            count, nodes, updates = first[0][1]
            program = "DLX3" if stem == "bounds" else "DLX2"
            print(
                f"| {name} | {program} | {nodes:,} | {updates:,} | "
                f"{best[0]:.4f} | "
                f"{best[1]:.4f} | {best[0] / best[1]:.2f} |",
                flush=True,
            )
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
