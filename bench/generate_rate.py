"""Generating and rating Sudoku, side by side in one run.

    python bench/generate_rate.py                       # print the tables
    python bench/generate_rate.py --markdown bench/RESULTS.md
    python bench/generate_rate.py --py-sudoku /tmp/pysudoku

* Generation: minimal unique 9x9 puzzles per second with ``sudoku``'s
  generator on 1 thread and on 2, and py-sudoku (``pip install --target
  DIR py-sudoku``; its import name is ``sudoku`` too, so it runs in its own
  process from DIR, never installed beside this project).  The contenders
  take turns, ``--rounds`` times, best round kept.  Every puzzle is checked
  after the clock stops: exactly one solution, and minimal (each given
  removed in turn gives several solutions), for py-sudoku's as well.
* Rating: puzzles per second on top1465 (1 and 2 threads) beside the plain
  uniqueness check of the same file, in turn.
* Meaning: the scores of the public sets (easy50, top95, forum_hardest,
  top1465, hardest), how they order, and Spearman rank correlations with
  the number of givens and with the set.
* ``--difficulty``: how often a generated puzzle has each level, and how
  many candidates ``generate_many(5, difficulty=level)`` made.

``--markdown FILE`` replaces the section between ``<!-- generate-rate -->``
markers in FILE (appending it the first time).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import sudoku  # noqa: E402
from sudoku import generator as G, rating as R  # noqa: E402

DATA = Path(os.environ.get("DLX_BENCH_DATA", ROOT.parent / "shared" / "data"))
SUDOKU_DATA = DATA / "sudoku"
if not SUDOKU_DATA.is_dir():
    SUDOKU_DATA = Path("/work/shared/data/sudoku")
SETS = ("easy50", "top95", "forum_hardest", "top1465", "hardest")
ORDERED = ("easy50", "top95", "forum_hardest")  # as people rate them
START, END = "<!-- generate-rate -->", "<!-- /generate-rate -->"

PY_SUDOKU = r"""
import json, sys, time
from sudoku import Sudoku
count, difficulty, seed = int(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])
Sudoku(3, seed=0).difficulty(difficulty)           # warm up
t = time.perf_counter()
boards = [Sudoku(3, seed=seed + k).difficulty(difficulty).board
          for k in range(count)]
seconds = time.perf_counter() - t
lines = ["".join(str(v) if v else "." for row in b for v in row)
         for b in boards]
print(json.dumps({"seconds": seconds, "puzzles": lines}))
"""


# -- checks (outside the clock) -----------------------------------------------
def unique_and_minimal(cells: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For a ``(B, 9, 9)`` stack: which have one solution, and which of
    those lose it when any single given is removed (batched)."""
    batch = len(cells)
    arrays = sudoku.solve_cells(cells, limit=2, threads=1)
    unique = arrays.status == sudoku.STATUSES.index("solved")
    minimal = np.zeros(batch, bool)
    owners, trials = [], []
    for b in np.flatnonzero(unique).tolist():
        for cell in np.flatnonzero(cells[b].ravel()).tolist():
            fewer = cells[b].copy().ravel()
            fewer[cell] = 0
            owners.append(b)
            trials.append(fewer.reshape(9, 9))
    if trials:
        counts = sudoku.solve_cells(
            np.array(trials), limit=2, threads=1
        ).counts
        still = np.zeros(batch, bool)
        np.logical_or.at(still, np.array(owners), counts == 1)
        minimal = unique & ~still
    return unique, minimal


def ranks(a: np.ndarray) -> np.ndarray:
    """Ranks from 1, ties given their mean rank."""
    a = np.asarray(a, float)
    order = np.argsort(a, kind="mergesort")
    r = np.empty(len(a))
    r[order] = np.arange(1, len(a) + 1)
    _, inverse, counts = np.unique(a, return_inverse=True, return_counts=True)
    sums = np.bincount(inverse, weights=r)
    return (sums / counts)[inverse]


def spearman(x, y) -> float:
    rx, ry = ranks(x), ranks(y)
    return float(np.corrcoef(rx, ry)[0, 1])


def auc(lower, higher) -> float:
    """The chance that a puzzle of ``higher`` outscores one of ``lower``
    (ties count half)."""
    lower, higher = np.asarray(lower), np.asarray(higher)
    wins = (higher[:, None] > lower[None, :]).mean()
    ties = (higher[:, None] == lower[None, :]).mean()
    return float(wins + ties / 2)


def load(name: str) -> list[str]:
    path = SUDOKU_DATA / f"{name}.txt"
    return [
        line.split()[0]
        for line in path.read_text().splitlines()
        if line.strip()
    ]


# -- the runs -----------------------------------------------------------------
def run_py_sudoku(path: str, count: int, difficulty: float, seed: int):
    env = dict(os.environ, PYTHONPATH=path)
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            PY_SUDOKU,
            str(count),
            str(difficulty),
            str(seed),
        ],
        env=env,
        cwd="/",
        capture_output=True,
        text=True,
        timeout=900,
        check=True,
    )
    return json.loads(done.stdout)


def bench_generation(args, lines: list[str]) -> dict:
    count = args.count
    G.generate_many(20, seed=99)  # compile / load the kernels
    best: dict = {}
    made: dict = {}
    contenders = [("ours, 1 thread", 1), ("ours, 2 threads", 2)]
    for r in range(args.rounds):
        for name, threads in contenders:
            t = time.perf_counter()
            puzzles, _ = G.generate_cells(
                count, (3, 3), seed=1000 + r, threads=threads
            )
            seconds = time.perf_counter() - t
            best[name] = min(best.get(name, np.inf), seconds)
            made[name] = puzzles
        if args.py_sudoku:
            for diff in (0.5, 0.7):
                name = f"py-sudoku, difficulty({diff})"
                out = run_py_sudoku(args.py_sudoku, count, diff, 1000 * r)
                best[name] = min(best.get(name, np.inf), out["seconds"])
                made[name] = np.array(
                    [sudoku.parse(p).cells for p in out["puzzles"]]
                )
    rows = []
    ours = best["ours, 1 thread"]
    for name, seconds in best.items():
        cells = made[name]
        unique, minimal = unique_and_minimal(cells)
        rows.append(
            (
                name,
                count / seconds,
                seconds / ours,
                unique.mean(),
                minimal.mean(),
                (cells != 0).sum(axis=(1, 2)).mean(),
            )
        )
    lines.append(
        f"### Generating 9x9 puzzles: {count} per run, best of "
        f"{args.rounds} rounds taken in turn"
    )
    lines.append("")
    lines.append(
        "| generator | puzzles/s | time / ours (1 thread) | unique "
        "| minimal | mean givens |"
    )
    lines.append("|---|---:|---:|---:|---:|---:|")
    for name, rate, ratio, uniq, mini, givens in rows:
        lines.append(
            f"| {name} | {rate:,.0f} | {ratio:.2f} | "
            f"{uniq:.1%} | {mini:.1%} | {givens:.1f} |"
        )
    lines.append("")
    return {"puzzles": made["ours, 1 thread"]}


def bench_rating(args, lines: list[str]) -> None:
    top = load("top1465")
    R.rate_many(top[:20])
    best: dict = {}
    for _ in range(args.rounds):
        for name, call in (
            ("rate_many, 1 thread", lambda: R.rate_many(top, threads=1)),
            ("rate_many, 2 threads", lambda: R.rate_many(top, threads=2)),
            (
                "solve_many uniqueness check, 1 thread (for scale)",
                lambda: sudoku.solve_many(top, threads=1),
            ),
        ):
            t = time.perf_counter()
            call()
            best[name] = min(best.get(name, np.inf), time.perf_counter() - t)
    lines.append(
        f"### Rating top1465 ({len(top)} puzzles, {R.SAMPLES} "
        f"relabellings each), best of {args.rounds} rounds in turn"
    )
    lines.append("")
    lines.append("| run | puzzles/s | time / uniqueness check |")
    lines.append("|---|---:|---:|")
    check = best["solve_many uniqueness check, 1 thread (for scale)"]
    for name, seconds in best.items():
        lines.append(
            f"| {name} | {len(top) / seconds:,.0f} | {seconds / check:.1f} |"
        )
    lines.append("")


def bench_meaning(args, lines: list[str], generated: np.ndarray) -> None:
    scores: dict = {}
    givens: dict = {}
    levels: dict = {}
    for name in SETS:
        try:
            puzzles = load(name)
        except OSError:
            continue
        ratings = R.rate_many(puzzles, threads=2)
        keep = [
            (p, r) for p, r in zip(puzzles, ratings) if isinstance(r, R.Rating)
        ]
        scores[name] = np.array([r.score for _, r in keep])
        givens[name] = np.array([sum(ch != "." for ch in p) for p, _ in keep])
        levels[name] = [r.level for _, r in keep]
    gen_ratings = R.rate_many(list(generated), threads=2)
    scores["generated (ours)"] = np.array([r.score for r in gen_ratings])
    givens["generated (ours)"] = (generated != 0).sum(axis=(1, 2))
    levels["generated (ours)"] = [r.level for r in gen_ratings]
    lines.append("### What the score means on public sets")
    lines.append("")
    lines.append(
        "| set | puzzles | score median (10%-90%) | "
        + " | ".join(R.LEVELS)
        + " | Spearman(score, givens) |"
    )
    lines.append("|---|---:|---|" + "---:|" * len(R.LEVELS) + "---:|")
    for name, s in scores.items():
        q10, q50, q90 = np.quantile(s, [0.1, 0.5, 0.9])
        counts = [levels[name].count(level) for level in R.LEVELS]
        rho = (
            spearman(s, givens[name])
            if len(set(givens[name])) > 1
            else float("nan")
        )
        lines.append(
            f"| {name} | {len(s)} | {q50:.2f} ({q10:.2f}-{q90:.2f})"
            f" | " + " | ".join(str(c) for c in counts) + f" | {rho:+.2f} |"
        )
    lines.append("")
    present = [k for k in ORDERED if k in scores]
    pooled_s = np.concatenate([scores[k] for k in present])
    pooled_set = np.concatenate(
        [np.full(len(scores[k]), i) for i, k in enumerate(present)]
    )
    pooled_g = np.concatenate([givens[k] for k in present])
    medians = [float(np.median(scores[k])) for k in present]
    lines.append(
        "Order of the medians: "
        + " < ".join(f"{k} {m:.2f}" for k, m in zip(present, medians))
        + (
            " (as people rate them)"
            if medians == sorted(medians)
            else " (NOT in the expected order)"
        )
    )
    lines.append("")
    lines.append(
        f"Spearman rank correlation over {' + '.join(present)} "
        f"({len(pooled_s)} puzzles): score vs set (0, 1, 2) "
        f"{spearman(pooled_s, pooled_set):+.2f}; score vs givens "
        f"{spearman(pooled_s, pooled_g):+.2f}; givens vs set "
        f"{spearman(pooled_g, pooled_set):+.2f}."
    )
    if "top95" in scores:
        from sudoku.solver import Symmetry

        cells = np.array([sudoku.parse(p).cells for p in load("top95")])
        base, _, _ = R.rate_cells(cells, (3, 3))
        rng = np.random.default_rng(11)
        gaps = np.concatenate(
            [
                np.abs(
                    R.rate_cells(
                        Symmetry.random(rng, (3, 3)).apply(cells), (3, 3)
                    )[0]
                    - base
                )
                for _ in range(3)
            ]
        )
        lines.append(
            f"Stability: top95 against 3 random relabellings of "
            f"each puzzle, score gap median {np.median(gaps):.2f}, "
            f"mean {gaps.mean():.2f}, 90% below "
            f"{np.quantile(gaps, 0.9):.2f}, largest "
            f"{gaps.max():.2f} (levels are 3 wide)."
        )
        lines.append("")
    pairs = [(a, b) for i, a in enumerate(present) for b in present[i + 1 :]]
    lines.append(
        "Chance that a puzzle of the harder set scores above one "
        "of the easier: "
        + "; ".join(
            f"{b} over {a} {auc(scores[a], scores[b]):.3f}" for a, b in pairs
        )
        + "."
    )
    lines.append("")


def bench_levels(args, lines: list[str], generated: np.ndarray) -> None:
    ratings = R.rate_many(list(generated), threads=2)
    natural = {
        level: sum(r.level == level for r in ratings) for level in R.LEVELS
    }
    lines.append("### `--difficulty`: hitting a level")
    lines.append("")
    lines.append(
        f"Of {len(generated)} generated puzzles (no level asked), "
        "the share at each level is the chance that one candidate "
        "hits it; `generate_many(5, difficulty=...)` makes "
        f"candidates in rounds until 5 hit, giving up after "
        f"{G.LEVEL_ROUNDS} rounds of {G.LEVEL_BATCH} per wanted "
        f"puzzle."
    )
    lines.append("")
    lines.append(
        "| level | share of plain puzzles | 5 asked: candidates made "
        "| of which at the level | seconds |"
    )
    lines.append("|---|---:|---:|---:|---:|")
    for level in R.LEVELS:
        stats: dict = {}
        t = time.perf_counter()
        try:
            G.generate_cells(
                5, (3, 3), difficulty=level, seed=7, threads=2, stats=stats
            )
            got = 5
        except G.GenerationFailed:
            got = 0
        seconds = time.perf_counter() - t
        made = stats.get("candidates", G.LEVEL_ROUNDS * G.LEVEL_BATCH * 5)
        hits = stats.get("hits", 0)
        share = natural[level] / len(generated)
        lines.append(
            f"| {level} | {share:.1%} | {made:,} | "
            f"{hits} ({hits / made:.1%})"
            f"{'' if got else ', gave up'} | {seconds:.1f} |"
        )
    lines.append("")


def king_pairs_problem():
    """Anti-king with one secondary item per king-apart cell pair and digit
    (pairs in one row, column or box left out), on the same options as
    ``sudoku.encode``'s clique encoding, for comparison."""
    from dlx import ExactCover
    from sudoku.encode import option_items

    items, nprimary, _ = option_items((3, 3), None)
    n = 9
    box = lambda c: (c // n // 3) * 3 + c % n // 3
    pairs = [
        (r * n + c, (r + 1) * n + c + dc)
        for r in range(n - 1)
        for c in range(n)
        for dc in (-1, 1)
        if 0 <= c + dc < n
    ]
    pairs = [p for p in pairs if box(p[0]) != box(p[1])]
    touching = [[] for _ in range(n * n)]
    for k, (a, b) in enumerate(pairs):
        touching[a].append(k)
        touching[b].append(k)
    options = [
        row.tolist() + [nprimary + k * n + o % n for k in touching[o // n]]
        for o, row in enumerate(items)
    ]
    problem = ExactCover(
        range(nprimary), range(nprimary, nprimary + len(pairs) * n)
    )
    problem.add_options(options)
    return problem, len(pairs)


def bench_king_encoding(args, lines: list[str]) -> None:
    from sudoku.encode import Variant, problem
    from sudoku.solver import MRV_CUTOFF, given_options

    variant = Variant("anti-king")
    cells, _ = G.generate_cells(200, (3, 3), seed=5, variant=variant)
    options, starts = given_options(cells)
    squares = problem((3, 3), variant)
    pairs, npairs = king_pairs_problem()
    nsquares = (
        len(squares.secondary) if hasattr(squares, "secondary") else None
    )
    best: dict = {}
    found: dict = {}
    for _ in range(args.rounds):
        for name, exact in (
            ("2x2 squares (ours)", squares),
            ("cell pairs", pairs),
        ):
            exact.solve_batch(options[:0], starts=starts[:1], limit=2)
            t = time.perf_counter()
            result = exact.solve_batch(
                options, starts=starts, limit=2, mrv_cutoff=MRV_CUTOFF
            )
            best[name] = min(best.get(name, np.inf), time.perf_counter() - t)
            found[name] = result
    lines.append("### Anti-king: one item per 2x2 square, or per cell pair")
    lines.append("")
    lines.append(
        f"200 generated anti-king puzzles, solved and proved "
        f"unique on each encoding (same options, same givens), "
        f"best of {args.rounds}. Secondary items: squares "
        f"{nsquares if nsquares is not None else 252}, pairs "
        f"{npairs * 9}."
    )
    lines.append("")
    lines.append("| encoding | seconds | nodes | updates | time / ours |")
    lines.append("|---|---:|---:|---:|---:|")
    ours = best["2x2 squares (ours)"]
    for name, seconds in best.items():
        r = found[name]
        lines.append(
            f"| {name} | {seconds:.3f} | {int(r.nodes.sum()):,} | "
            f"{int(r.updates.sum()):,} | {seconds / ours:.2f} |"
        )
    same = (
        found["cell pairs"].counts == found["2x2 squares (ours)"].counts
    ).all()
    lines.append("")
    lines.append(f"Same answers on both: {bool(same)}.")
    lines.append("")


def machine() -> str:
    try:
        model = next(
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        )
    except (OSError, StopIteration):
        model = platform.processor()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    import numba

    return (
        f"{model}, {os.cpu_count()} cores, load average {load:.1f} at "
        f"the start; Python {platform.python_version()}, numpy "
        f"{np.__version__}, numba {numba.__version__}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--count",
        type=int,
        default=1000,
        help="puzzles per generation run (default 1000)",
    )
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--py-sudoku",
        default=os.environ.get("PY_SUDOKU_PATH"),
        metavar="DIR",
        help="where py-sudoku is "
        "installed (pip install --target DIR py-sudoku)",
    )
    parser.add_argument("--markdown", metavar="FILE")
    args = parser.parse_args()
    lines = [
        "## Generating and rating Sudoku (bench/generate_rate.py)",
        "",
        f"Machine: {machine()}.",
        "",
        f"Command: `python bench/generate_rate.py --count {args.count} "
        f"--rounds {args.rounds}"
        + (" --py-sudoku DIR" if args.py_sudoku else "")
        + "`.",
        "",
    ]
    generated = bench_generation(args, lines)["puzzles"]
    bench_rating(args, lines)
    bench_meaning(args, lines, generated)
    bench_levels(args, lines, generated)
    bench_king_encoding(args, lines)
    text = "\n".join(lines)
    print(text)
    if args.markdown:
        path = Path(args.markdown)
        old = path.read_text() if path.exists() else ""
        block = f"{START}\n{text}\n{END}\n"
        if START in old and END in old:
            head, rest = old.split(START, 1)
            new = head + block + rest.split(END, 1)[1].lstrip("\n")
        else:
            new = old.rstrip("\n") + "\n\n" + block
        path.write_text(new)
    return 0


if __name__ == "__main__":
    sys.exit(main())
