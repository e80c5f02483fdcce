"""Langford pairs as exact cover.

Arrange two copies of each of ``1, 2, ..., n`` in a row of ``2n`` slots so
that the two copies of ``d`` have exactly ``d`` other numbers between
them; for n = 3: ``2 3 1 2 1 3``.  Items: the digits ``1 .. n`` and the
slots ``s1 .. s2n`` (all primary).  Option ``d s<j> s<k>`` with
``k = j + d + 1`` puts the two copies of ``d`` in slots ``j`` and ``k``.

Reversing an arrangement gives another one, never the same (digit 1's
pair moves from slots ``j, j+2`` to ``2n-1-j, 2n+1-j``, and ``j = 2n-1-j``
has no integer solution).  With ``distinct=True`` digit 1 keeps only
starts ``j <= n-1``, so exactly one of each arrangement and its reverse
survives: the counts are OEIS A014552 (n=7: 26, n=8: 150, n=11: 17792).
Solutions exist only for n = 0 or 3 (mod 4).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..problem import ExactCover
from ..shorten import shorten

#: The most options built (a larger problem takes minutes and gigabytes
#: to build, and far longer to search): as the boards of dlx.problems.
MAX_OPTIONS = 1_000_000

__all__ = ["langford", "sequence", "render"]


def langford(n: int, distinct: bool = True) -> ExactCover:
    """Langford pairs of ``1..n``; ``distinct`` counts each arrangement and
    its reverse once.

    Args:
        n: The largest digit (a positive integer).
        distinct: Count an arrangement and its reverse once.

    Returns:
        The problem (no solution unless ``n % 4`` is 0 or 3).

    Raises:
        ValueError: ``n`` is not a positive integer, or makes more than
            1,000,000 options.
    """
    if not isinstance(n, int) or n < 1:
        raise ValueError(f"n must be a positive integer, got {shorten(n)}")
    if n * (n + 1) > MAX_OPTIONS:  # (about n * n options)
        raise ValueError(
            f"Langford pairs of 1..{n} make about {n * n:,} "
            f"options; at most {MAX_OPTIONS:,} are supported"
        )
    digits = [str(d) for d in range(1, n + 1)]
    slots = [f"s{j}" for j in range(1, 2 * n + 1)]
    problem = ExactCover(digits + slots)
    for d in range(1, n + 1):
        for j in range(1, 2 * n - d):
            if distinct and d == 1 and j > n - 1:
                continue
            problem.add_option([str(d), f"s{j}", f"s{j + d + 1}"])
    return problem


def sequence(problem: ExactCover, solution: Sequence[int]) -> list[int]:
    """The arrangement: the digit in each of the ``2n`` slots.

    Args:
        problem: The problem the builder made.
        solution: One of its solutions (option numbers).

    Returns:
        The ``2n`` digits in order.
    """
    slots = {}
    options = problem.options
    for number in solution:
        digit, *places = options[number]
        for place in places:
            slots[int(place[1:])] = int(digit)
    return [slots[j] for j in sorted(slots)]


def render(problem: ExactCover, solution: Sequence[int]) -> str:
    """The arrangement as digits separated by spaces.

    Args:
        problem: The problem the builder made.
        solution: One of its solutions (option numbers).

    Returns:
        The arrangement as text.
    """
    return " ".join(map(str, sequence(problem, solution)))
