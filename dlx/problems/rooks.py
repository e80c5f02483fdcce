"""k rooks in every row and column: exact cover with multiplicities (MCC).

Place rooks on an ``n x n`` board so that every row and every column holds
exactly ``k`` of them: the ``n x n`` 0/1 matrices with ``k`` ones in each
row and column.  Items: rows ``r<i>`` and columns ``c<j>``, primary, each
with bounds ``k..k``; option ``r<i> c<j>`` puts a rook on square (i, j).
With ``k = 1`` this is plain exact cover (the ``n!`` permutation
matrices).

Counts: ``n!`` for k = 1; OEIS A001499 for k = 2 (1, 6, 90, 2040, 67950,
3110940, ...); OEIS A001501 for k = 3 (1, 24, 2040, 297200, ...).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..problem import ExactCover
from ..shorten import shorten

#: The most options built (a larger problem takes minutes and gigabytes
#: to build, and far longer to search): as the boards of dlx.problems.
MAX_OPTIONS = 1_000_000

__all__ = ["rooks", "render"]


def rooks(n: int, k: int) -> ExactCover:
    """``k`` rooks in every row and column of an ``n x n`` board.

    Args:
        n: The board's side (a positive integer).
        k: Rooks per row and column (1 to ``n``).

    Returns:
        The problem, rows and columns with bounds ``k..k`` (MCC).

    Raises:
        ValueError: ``n`` or ``k`` out of range, or more than 1,000,000
            options.
    """
    for name, value in (("n", n), ("k", k)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(
                f"{name} must be a positive integer, got {shorten(value)}"
            )
    if k > n:
        raise ValueError(f"k = {k} rooks cannot fit in a row of n = {n}")
    if n * n > MAX_OPTIONS:
        raise ValueError(
            f"an {n} x {n} board makes {n * n:,} options; at "
            f"most {MAX_OPTIONS:,} are supported"
        )
    lines = [f"r{i}" for i in range(n)] + [f"c{j}" for j in range(n)]
    problem = ExactCover(lines, bounds=dict.fromkeys(lines, (k, k)))
    for i in range(n):
        for j in range(n):
            problem.add_option([f"r{i}", f"c{j}"])
    return problem


def render(problem: ExactCover, solution: Sequence[int]) -> str:
    """The board, ``R`` for a rook and ``.`` for an empty square.

    Args:
        problem: The problem the builder made.
        solution: One of its solutions (option numbers).

    Returns:
        The board as text.
    """
    n = len(problem.primary) // 2
    board = [["."] * n for _ in range(n)]
    for k in solution:
        row, col = problem.options[k]
        board[int(row[1:])][int(col[1:])] = "R"
    return "\n".join(" ".join(line) for line in board)
