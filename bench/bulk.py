"""Big problems: options handed over as arrays, built and solved.

    python bench/bulk.py [--base BASE_DIR] [--sizes 1000000 10000000]
                         [--file 1000000] [--lists 1000000] [--out FILE]

The instance (issue 30): 20,000 primary items in 1,000 groups of 20; each
group is cut at random into four planted options of 5 items, every other
option is 5 distinct items of one random group, and the options come in
random order.  Its search is short (a group has solutions galore), so the
figures are the build's.

Every figure comes from a fresh process, whose peak memory is its
``ru_maxrss`` (numba's and numpy's own share included: about 160 MB before
any problem), after a warm-up process that loads or compiles numba's
kernels in that tree:

* ``arrays N``: ``ExactCover.from_arrays`` on the numpy arrays, then
  ``solve()`` (which builds the engine's arrays and finds the first
  solution): the seconds of each, and their sum;
* ``lists N`` (``--base``: a checkout of the tree before the compact
  model, e.g. ``git archive COMMIT | tar -x -C DIR``): the old path, the
  same options as lists of item numbers (``indices.tolist()``, not
  counted) through ``add_options``, then ``solve()``;
* ``file N``: ``dlx.load`` of the instance written in Knuth's format
  (items ``i0 ... i19999``), then ``solve()``; with ``--base``, the old
  tree's ``load`` too.

``model B/opt`` is what the problem keeps per option (measured by
``tracemalloc`` in a second run of the same build: Python objects and
numpy arrays alike), ``peak`` the process's peak resident set.  Every
first solution is checked to be an exact cover (outside the timings).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
OURS = os.path.dirname(HERE)

GROUPS, GROUP_SIZE, OPTION_SIZE = 1000, 20, 5
# The size of the warm-up runs.
WARM = 5000


def planted(noptions: int, seed: int = 1):
    """``(indptr, indices, nitems)`` of the planted instance with
    ``noptions`` options (at least 4,000)."""
    rng = np.random.default_rng(seed)
    nitems = GROUPS * GROUP_SIZE
    dtype = np.uint16
    k = OPTION_SIZE
    plant = np.argsort(rng.random((GROUPS, GROUP_SIZE)), axis=1)
    plant = plant.astype(dtype)
    plant += (np.arange(GROUPS, dtype=dtype) * GROUP_SIZE)[:, None]
    plant = plant.reshape(-1, k)
    rest = noptions - len(plant)
    # k distinct members of 0..GROUP_SIZE-1 per option, by redrawing the
    # rows that repeat one.
    picks = rng.integers(0, GROUP_SIZE, (rest, k), dtype=np.uint8)
    redraw = np.arange(rest)
    while len(redraw):
        picks[redraw] = rng.integers(
            0, GROUP_SIZE, (len(redraw), k), dtype=np.uint8
        )
        sub = picks[redraw]
        repeats = np.zeros(len(redraw), bool)
        for a in range(k):
            for b in range(a + 1, k):
                repeats |= sub[:, a] == sub[:, b]
        redraw = redraw[repeats]
    options = np.empty((noptions, k), dtype)
    options[: len(plant)] = plant
    options[len(plant) :] = picks
    del picks
    group = rng.integers(0, GROUPS, rest).astype(dtype)
    group *= GROUP_SIZE
    options[len(plant) :] += group[:, None]
    del group
    options = options[rng.permutation(noptions)]
    indices = options.reshape(-1)
    indptr = np.arange(
        0,
        noptions * k + 1,
        k,
        dtype=np.int32 if noptions * k < 2**31 else np.int64,
    )
    return indptr, indices, nitems


def write_dlx(path: str, noptions: int) -> None:
    """The instance in Knuth's format."""
    indptr, indices, nitems = planted(noptions)
    names = np.array([f"i{k}" for k in range(nitems)])
    with open(path, "w") as f:
        f.write("| the planted instance of bench/bulk.py\n")
        f.write(" ".join(names.tolist()) + "\n")
        rows = names[indices].reshape(-1, OPTION_SIZE)
        for lo in range(0, len(rows), 100_000):
            chunk = rows[lo : lo + 100_000]
            f.write("\n".join(" ".join(r) for r in chunk.tolist()) + "\n")


CHILD = r"""
import json, os, resource, sys, time, tracemalloc
sys.path.insert(0, sys.argv[1])
sys.path.insert(0, sys.argv[2])
import numpy as np
import dlx
import bulk

how, n, path, traced = sys.argv[3], int(sys.argv[4]), sys.argv[5], \
    sys.argv[6] == "bytes"
out = {}
if how != "file":
    indptr, indices, nitems = bulk.planted(n)
    if how == "lists":
        lists = indices.reshape(-1, bulk.OPTION_SIZE).tolist()
        del indptr, indices
if traced:  # what the problem keeps, not timed (tracemalloc is slow)
    if hasattr(dlx.ExactCover, "from_arrays"):
        # numba's first call makes its own Python objects: not the model's
        dlx.ExactCover.from_arrays(*bulk.planted(bulk.WARM)[:2],
                                   bulk.GROUPS * bulk.GROUP_SIZE)
    tracemalloc.start()
t0 = time.perf_counter()
if how == "file":
    p = dlx.load(path)
elif how == "lists":
    p = dlx.ExactCover(range(nitems))
    p.add_options(lists)
else:
    p = dlx.ExactCover.from_arrays(indptr, indices, nitems)
t1 = time.perf_counter()
if how == "lists":
    del lists
elif how == "arrays":
    del indptr, indices
if traced:
    print(json.dumps({"model": tracemalloc.get_traced_memory()[0],
                      "options": len(p)}))
    sys.exit()
solution = p.solve()
t2 = time.perf_counter()
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
# The check: every primary item exactly once.
position = {name: k for k, name in enumerate(p.items)}
covered = np.zeros(len(p.items), np.int64)
for k in solution:
    for name in p.options[k]:
        covered[position[name]] += 1
assert (covered[:len(p.primary)] == 1).all(), "not an exact cover"
out.update(model_seconds=t1 - t0, solve_seconds=t2 - t1,
           total=t2 - t0, peak=peak, options=len(p),
           nodes=p.stats.nodes, updates=p.stats.updates)
print(json.dumps(out))
"""


def child(
    tree: str, how: str, n: int, path: str = "", traced: bool = False
) -> dict:
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            CHILD,
            tree,
            HERE,
            how,
            str(n),
            path,
            "bytes" if traced else "time",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode:
        raise RuntimeError(f"{how} {n} in {tree}: {result.stderr}")
    return json.loads(result.stdout)


def measured(tree: str, how: str, n: int, path: str = "") -> dict:
    """The figures of one run, and the model's bytes per option from a
    second (traced) run of the same build."""
    r = child(tree, how, n, path)
    r["model"] = child(tree, how, n, path, traced=True)["model"]
    return r


def row(label: str, tree: str, r: dict) -> str:
    mb = 1 << 20
    return (
        f"| {label} | {tree} | {r['options']:,} | "
        f"{r['model_seconds']:.2f} | {r['solve_seconds']:.2f} | "
        f"{r['total']:.2f} | {r['peak'] / mb:,.0f} | "
        f"{r['model'] / r['options']:.0f} | "
        f"{r['peak'] / r['options']:.0f} |"
    )


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--base", help="the tree before the compact model")
    parser.add_argument(
        "--sizes", type=int, nargs="*", default=[1_000_000, 10_000_000]
    )
    parser.add_argument(
        "--lists",
        type=int,
        nargs="*",
        default=[1_000_000],
        help="sizes for the old path (needs --base)",
    )
    parser.add_argument("--file", type=int, nargs="*", default=[1_000_000])
    parser.add_argument("--out", help="append the table to this file")
    args = parser.parse_args(argv)
    trees = [("ours", OURS)] + ([("base", args.base)] if args.base else [])
    # The warm-up: numba compiles (or loads) every kernel these paths
    # use, for the same array types, in each tree.
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "small.dlx")
        write_dlx(path, WARM)
        for _, tree in trees:
            for how in ("arrays", "lists", "file"):
                if how != "arrays" or tree == OURS:
                    child(tree, how, WARM, path)
    lines = [
        "| path | tree | options | model (s) | solve (s) | total (s) "
        "| peak (MiB) | model B/opt | peak B/opt |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    if args.base:
        for n in args.lists:
            lines.append(
                row(
                    "add_options (lists)",
                    "base",
                    measured(args.base, "lists", n),
                )
            )
            print(lines[-1], flush=True)
    for n in args.lists:
        lines.append(
            row("add_options (lists)", "ours", measured(OURS, "lists", n))
        )
        print(lines[-1], flush=True)
    for n in args.sizes:
        lines.append(row("from_arrays", "ours", measured(OURS, "arrays", n)))
        print(lines[-1], flush=True)
    for n in args.file:
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, f"planted-{n}.dlx")
            write_dlx(path, n)
            for label, tree in trees:
                lines.append(
                    row(
                        f"load (file, {os.path.getsize(path) >> 20} MiB)",
                        label,
                        measured(tree, "file", n, path),
                    )
                )
                print(lines[-1], flush=True)
    if args.out:
        with open(args.out, "a") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
