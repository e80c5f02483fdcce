"""De Bruijn sequences as exact cover with colors (XCC).

A de Bruijn sequence of order ``n`` over ``k`` symbols is a cyclic
sequence of length ``L = k**n`` in which every word of ``n`` symbols
appears exactly once as ``n`` consecutive symbols: for k = 2, n = 3,
``00010111``.  Items: every word ``w<word>`` and every position
``p<j>`` (primary: each word at one position, each position starts one
word), and the symbol at each position, ``b<j>`` (secondary, colored by
the symbol).  Option ``w<word> p<j> b<j>:<s0> ... b<j+n-1>:<s(n-1)>``
puts the word at position ``j``; the colors make overlapping words agree
on the symbols they share, which is what makes this an XCC problem rather
than a plain exact cover.

Rotating a sequence gives another one; the word ``0...0`` is kept at
position 0 only, so each cyclic sequence is counted once.  The count is
``(k!)**(k**(n-1)) / k**n`` (de Bruijn 1946 for k = 2; van
Aardenne-Ehrenfest and de Bruijn 1951 in general, by the BEST theorem):
OEIS A016031 for k = 2 (1, 1, 2, 16, 2048, 67108864).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from math import factorial

from ..problem import ExactCover
from ..shorten import shorten

__all__ = ["debruijn", "sequence", "render", "known_count", "SYMBOLS"]

#: The most options built (a larger problem takes minutes and gigabytes
#: to build, and far longer to search): as the boards of dlx.problems.
MAX_OPTIONS = 1_000_000

SYMBOLS = "0123456789abcdefghijklmnopqrstuvwxyz"
"""The symbols, in order (``k`` <= 36)."""


def known_count(n: int, k: int = 2) -> int:
    """``(k!)**(k**(n-1)) / k**n``, the number of de Bruijn sequences up to
    rotation.

    Args:
        n: The length of the words.
        k: How many symbols.

    Returns:
        The exact count.
    """
    return factorial(k) ** (k ** (n - 1)) // k**n


def debruijn(n: int, k: int = 2) -> ExactCover:
    """De Bruijn sequences of order ``n`` over ``k`` symbols, as XCC.

    Args:
        n: The length of the words (an integer >= 1).
        k: How many symbols (2 to 36).

    Returns:
        The problem, counted up to rotation.

    Raises:
        ValueError: ``n`` or ``k`` out of range, or more than 1,000,000
            options.
    """
    for name, value, low in (("n", n, 1), ("k", k, 2)):
        if (
            isinstance(value, bool)
            or not isinstance(value, int)
            or value < low
        ):
            raise ValueError(
                f"{name} must be an integer >= {low}, got {shorten(value)}"
            )
    if k > len(SYMBOLS):
        raise ValueError(f"k must be at most {len(SYMBOLS)}, got {k}")
    if n >= 10 or (k**n) ** 2 > MAX_OPTIONS:  # (2**10 > 1000)
        raise ValueError(
            f"de Bruijn sequences of order {n} over {k} "
            f"symbols make about {k}**{2 * n} options; at most "
            f"{MAX_OPTIONS:,} are supported"
        )
    length = k**n
    words = ["".join(w) for w in itertools.product(SYMBOLS[:k], repeat=n)]
    problem = ExactCover(
        [f"w{w}" for w in words] + [f"p{j}" for j in range(length)],
        [f"b{j}" for j in range(length)],
    )
    for w in words:
        for j in range(length):
            if w == words[0] and j:
                continue  # 0...0 stays at position 0: one per rotation
            cells = [f"b{(j + i) % length}" for i in range(n)]
            problem.add_option(
                [f"w{w}", f"p{j}"] + cells, colors=dict(zip(cells, w))
            )
    return problem


def sequence(problem: ExactCover, solution: Sequence[int]) -> str:
    """The sequence, from position 0 (where ``0...0`` starts).

    Args:
        problem: The problem the builder made.
        solution: One of its solutions (option numbers).

    Returns:
        The ``k**n`` symbols.
    """
    symbols = {}
    for k in solution:
        for item, color in problem.option_colors(k).items():
            symbols[int(item[1:])] = color
    return "".join(symbols[j] for j in sorted(symbols))


def render(problem: ExactCover, solution: Sequence[int]) -> str:
    """The sequence as a line of symbols.

    Args:
        problem: The problem the builder made.
        solution: One of its solutions (option numbers).

    Returns:
        The sequence as text.
    """
    return sequence(problem, solution)
