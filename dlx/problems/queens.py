"""The n-queens problem as exact cover.

Place ``n`` queens on an ``n x n`` board, no two in the same row, column or
diagonal.  Items: ``r<i>`` and ``c<j>`` (rows and columns, primary: each
holds exactly one queen) and the diagonals ``a<i+j>`` and ``b<n-1-i+j>``
(secondary: each holds at most one queen).  The two one-cell diagonals of
each family are left out, as they can never hold two queens.  Option: one
per square, ``r<i> c<j> a<i+j> b<n-1-i+j>``.

Rows and columns are listed centre first ("organ-pipe" order), which makes
the search branch on the most constrained lines first when lengths tie.
Every solution is counted (OEIS A000170: 1, 0, 0, 2, 10, 4, 40, 92, ...).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..problem import ExactCover
from ..shorten import shorten

#: The most options built (a larger problem takes minutes and gigabytes
#: to build, and far longer to search): as the boards of dlx.problems.
MAX_OPTIONS = 1_000_000

__all__ = ["queens", "positions", "render"]


def organ_pipe(n: int) -> list[int]:
    """0..n-1 from the middle outwards: n=8 gives 4 3 5 2 6 1 7 0."""
    order = []
    for k in range(n):
        step = (k + 1) // 2
        order.append(n // 2 - step if k % 2 else n // 2 + step)
    return order


def queens(n: int) -> ExactCover:
    """The n-queens problem: one option per square of the board.

    Args:
        n: The board's side (a positive integer).

    Returns:
        The problem, rows and columns primary and diagonals secondary.

    Raises:
        ValueError: ``n`` is not a positive integer, or makes more than
            1,000,000 options.
    """
    if not isinstance(n, int) or n < 1:
        raise ValueError(f"n must be a positive integer, got {shorten(n)}")
    if n * n > MAX_OPTIONS:
        raise ValueError(
            f"{n} queens make {n * n:,} options; at most "
            f"{MAX_OPTIONS:,} are supported"
        )
    primary = []
    for k in organ_pipe(n):
        primary += [f"r{k}", f"c{k}"]
    diagonals = range(1, 2 * n - 2)
    secondary = [f"{family}{d}" for d in diagonals for family in "ab"]
    problem = ExactCover(primary, secondary)
    for i in range(n):
        for j in range(n):
            option = [f"r{i}", f"c{j}"]
            for family, d in (("a", i + j), ("b", n - 1 - i + j)):
                if 0 < d < 2 * n - 2:
                    option.append(f"{family}{d}")
            problem.add_option(option)
    return problem


def positions(problem: ExactCover, solution: Sequence[int]) -> list[int]:
    """The column of the queen in each row (a permutation of 0..n-1).

    Args:
        problem: The problem the builder made.
        solution: One of its solutions (option numbers).

    Returns:
        The queens' columns, row by row.
    """
    where = {}
    options = problem.options
    for number in solution:
        names = options[number]
        row = next(int(x[1:]) for x in names if x.startswith("r"))
        col = next(int(x[1:]) for x in names if x.startswith("c"))
        where[row] = col
    return [where[i] for i in range(len(where))]


def render(problem: ExactCover, solution: Sequence[int]) -> str:
    """The board, one line per row: ``Q`` for a queen, ``.`` otherwise.

    Args:
        problem: The problem the builder made.
        solution: One of its solutions (option numbers).

    Returns:
        The board as text.
    """
    cols = positions(problem, solution)
    n = len(cols)
    return "\n".join(
        " ".join("Q" if j == c else "." for j in range(n)) for c in cols
    )


def svg(
    problem: ExactCover, solution: Sequence[int], *, cell: float = 30
) -> str:
    """The board as an SVG picture: light and dark squares, each queen a
    dark disc (``<circle class="queen">``)."""
    from ..draw import document, fmt

    cols = positions(problem, solution)
    n = len(cols)
    body = [
        f'<rect width="{fmt(n * cell)}" height="{fmt(n * cell)}" '
        f'fill="#f0d9b5"/>'
    ]
    body += [
        f'<rect x="{fmt(c * cell)}" y="{fmt(r * cell)}" '
        f'width="{fmt(cell)}" height="{fmt(cell)}" fill="#b58863"/>'
        for r in range(n)
        for c in range(n)
        if (r + c) % 2
    ]
    body += [
        f'<circle class="queen" cx="{fmt((c + 0.5) * cell)}" '
        f'cy="{fmt((r + 0.5) * cell)}" r="{fmt(cell * 0.32)}" '
        f'fill="#222" stroke="#fff" stroke-width="{fmt(cell / 20)}"/>'
        for r, c in enumerate(cols)
    ]
    return document(n * cell, n * cell, body, f"{n} queens")
