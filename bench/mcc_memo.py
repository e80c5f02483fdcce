"""MCC memo counts against the plain search: ``count(memo=True)`` on
problems with bounds (DLX3's input) beside ``count()`` (DLX3 or SSMCC, as
``algorithm="auto"`` picks; one thread).

    python bench/mcc_memo.py [--problems rooks-7-2,...] [--timeout 120]
    python bench/mcc_memo.py --markdown bench/RESULTS.md

Problems: ``k`` rooks in every row and column (``dlx.problems.rooks``;
OEIS A001499 and A001501), and tetrominoes packed with each of the five
pieces used exactly twice (the pieces are items of bounds 2..2: one MCC
solution for every 2**5 of ``Polyomino(..., copies=2)``, which tells the
copies apart).  Each count runs once in this process after a warm-up
(numba's cache load) and shows the search's own ``stats.seconds`` and
nodes; a count stopped at ``--timeout`` shows as ``> T``.  Both counts
must agree.  ``--markdown`` rewrites the section headed ``HEADING`` of
the file (appended the first time).
"""

from __future__ import annotations

import argparse
import os
import platform
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from dlx import BudgetExhausted, ExactCover  # noqa: E402
from dlx.problems.polyomino import Polyomino  # noqa: E402
from dlx.problems.rooks import rooks  # noqa: E402

HEADING = "## MCC memo counts against the plain search (bench/mcc_memo.py)"


def packing(board: str, pieces: str, copies: int) -> ExactCover:
    """``pieces`` packed in ``board``, each used exactly ``copies`` times:
    a piece is one item of bounds ``copies..copies``."""
    labelled = Polyomino(board, pieces, copies=copies).problem
    names = [x for x in labelled.primary if x.endswith(".1")]
    cells = [x for x in labelled.primary if "." not in x]
    bounds = {n[:-2]: (copies, copies) for n in names}
    p = ExactCover([n[:-2] for n in names] + cells, bounds=bounds)
    for option in labelled.options:
        if option[0].endswith(".1"):
            p.add_option([option[0][:-2], *option[1:]])
    return p


PROBLEMS = {
    "rooks-6-3": lambda: rooks(6, 3),
    "rooks-7-2": lambda: rooks(7, 2),
    "rooks-7-3": lambda: rooks(7, 3),
    "rooks-8-2": lambda: rooks(8, 2),
    "tetrominoes-x2-4x10": lambda: packing("4x10", "tetrominoes", 2),
    "tetrominoes-x2-5x8": lambda: packing("5x8", "tetrominoes", 2),
}


def run(p: ExactCover, timeout: float, **how):
    """(count or None, nodes, seconds) of one count."""
    try:
        count = p.count(time_limit=timeout, **how)
    except BudgetExhausted as stop:
        return None, stop.stats.nodes, stop.stats.seconds
    return count, p.stats.nodes, p.stats.seconds


def table(rows, timeout: float) -> str:
    out = [
        "| problem | solutions | memo nodes | memo s | plain nodes | plain s "
        "| plain / memo |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for key, memo, plain in rows:
        count = memo[0] if memo[0] is not None else plain[0]

        def cell(r):
            return (
                (f"{r[1]:,}", f"{r[2]:.3f}")
                if r[0] is not None
                else (f"> {r[1]:,}", f"> {timeout:.0f}")
            )

        ratio = (
            f"{plain[2] / memo[2]:.1f}x"
            if memo[0] is not None and plain[0] is not None and memo[2] > 0
            else (
                "> " + f"{timeout / memo[2]:.0f}x"
                if memo[0] is not None
                else ""
            )
        )
        out.append(
            f"| {key} | {count:,} | {' | '.join(cell(memo))} | "
            f"{' | '.join(cell(plain))} | {ratio} |"
            if count is not None
            else f"| {key} | ? | {' | '.join(cell(memo))} | "
            f"{' | '.join(cell(plain))} | |"
        )
    return "\n".join(out)


def write_markdown(path: str, text: str) -> None:
    old = open(path, encoding="utf-8").read() if os.path.exists(path) else ""
    start = old.find(HEADING)
    if start < 0:
        new = old.rstrip("\n") + "\n\n" + text + "\n"
    else:
        end = old.find("\n## ", start + len(HEADING))
        new = old[:start] + text + ("\n" + old[end:] if end >= 0 else "\n")
    with open(path, "w", encoding="utf-8") as f:
        f.write(new)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--problems", default=",".join(PROBLEMS))
    ap.add_argument("--timeout", type=float, default=120.0)
    ap.add_argument("--markdown", default=None)
    args = ap.parse_args(argv)
    warm = rooks(4, 2)
    warm.count(memo=True)
    warm.count()
    rows = []
    for key in args.problems.split(","):
        p = PROBLEMS[key]()
        memo = run(p, args.timeout, memo=True)
        plain = run(p, args.timeout)
        if memo[0] is not None and plain[0] is not None:
            assert memo[0] == plain[0], (key, memo, plain)
        rows.append((key, memo, plain))
        print(key, memo, plain, flush=True)
    text = (
        f"{HEADING}\n\n`python bench/mcc_memo.py --timeout {args.timeout:.0f}` "
        f"({platform.processor() or platform.machine()}, Python "
        f"{platform.python_version()}; one thread, the search's own "
        f"seconds):\n\n{table(rows, args.timeout)}\n"
    )
    print(text)
    if args.markdown:
        write_markdown(args.markdown, text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
