"""Which kernel searches: dancing links (DLX1/DLX2/DLX3) or dancing cells
(SSXC1/SSXCC/SSMCC).

``algorithm="links" | "cells" | "auto"`` on every search method of
``ExactCover``; ``"auto"`` decides here, from the problem's shape alone
(measured: see the README's section on the two algorithms and
``bench/cells_vs_ssxc1.py``).
"""

from __future__ import annotations

from . import xcc
from .shorten import shorten

ALGORITHMS = ("links", "cells", "auto")

# "auto" searches with cells when hide_work(problem) is at least this
# (plain exact cover: SSXC1 against DLX1) ...
CELLS_FROM = 1.0
# ... and, with colors, at least this (SSXCC against DLX2; measured with
# bench/xcc.py, see cells_for_colors).
COLORS_CELLS_FROM = 2.0
# ... and, with bounds, at least this (SSMCC against DLX3; measured with
# bench/mcc_auto.py, see cells_for_bounds).
BOUNDS_CELLS_FROM = 4.0


def hide_work(nitems: int, noptions: int, nnodes: int) -> float:
    """How much work covering an item is, per item of the problem: the
    options per item (nnodes / nitems) times the items per option
    (nnodes / noptions), over the number of items.

    At every node dancing cells pays for a scan and a save of all active
    items, and wins it back in hiding (sparse-set swaps, and SSXC1's
    look-ahead, which spares whole nodes); the more an item's options
    weigh against the number of items, the more it wins.  Measured
    (bench/cells_vs_ssxc1.py, CPU time, links / cells): pentomino 6x10
    14.1 (1.4-1.5x faster with cells), Langford 11 and 12 1.36-1.38
    (1.2-1.3x); queens 12 and 13 0.5 (0.65-0.7x: links faster), Sudoku
    grids 6x6 0.17 (0.77x), single Sudoku puzzles under 0.1 (0.3-0.5x).
    """
    if nitems == 0 or noptions == 0:
        return 0.0
    return (nnodes / nitems) * (nnodes / noptions) / nitems


def cells_for_exact_cover(problem) -> bool:
    """``"auto"``'s rule for plain exact cover: ``hide_work`` at least
    ``CELLS_FROM``."""
    work = hide_work(len(problem.items), len(problem), len(problem._members))
    return work >= CELLS_FROM


def cells_for_colors(problem) -> bool:
    """``"auto"``'s rule for colors (SSXCC against DLX2): ``hide_work`` at
    least ``COLORS_CELLS_FROM``.

    Measured (bench/xcc.py --files tests/data/dlx2, four runs of best of
    3 or 7 rounds that alternate the two, on a loaded machine; cells /
    links time): 3x3 word squares 0.66-0.68 (hide_work 33), de Bruijn
    n=3, k=3 0.81-0.97 (2.68), n=5 0.74-1.02 (5.28), DLX2's debruijn-4
    0.95-0.98 (3.77): cells.  De Bruijn n=2, k=4 0.69-1.14 (1.67: level),
    queens 12 with colored diagonals 1.00-1.17 (0.52), and DLX2's small
    files from 1.57 to 1.75 (0.97-1.30, a few µs): links.  Above 2 only
    random-1 (2.54, 9 against 12 µs) went the other way.
    """
    work = hide_work(len(problem.items), len(problem), len(problem._members))
    return work >= COLORS_CELLS_FROM


def cells_for_bounds(problem) -> bool:
    """``"auto"``'s rule for bounds (SSMCC against DLX3): ``hide_work`` at
    least ``BOUNDS_CELLS_FROM``.

    Measured (``python bench/mcc_auto.py --rounds 3``, CPU time, best of
    3, the two alternating, load about 1.5; links / cells time): rooks
    0.60-0.76 (hide_work 1.0), 1-2 queens a line 0.70-0.77, queens 10/12
    and Langford 11 given one bound 0.63-0.77 (0.5, 1.4): links.  The
    6x10 pentominoes given one bound 1.07 (14): cells.  Knuth's own small
    bounded files and Sudoku puzzles given a bound went either way within
    a millisecond.  (Batches of uniqueness checks took 0.41-0.58 of the
    time with links, as batches always use.)
    """
    work = hide_work(len(problem.items), len(problem), len(problem._members))
    return work >= BOUNDS_CELLS_FROM


# The kinds of problem dancing cells can search (SSXC1, SSXCC, SSMCC), each
# with the rule by which "auto" picks it over dancing links for a search.
CELLS_RULES = {xcc.EXACT: cells_for_exact_cover,
               xcc.COLORS: cells_for_colors,
               xcc.MULTIPLICITIES: cells_for_bounds}


def choose_algorithm(algorithm, problem, purpose: str = "search") -> str:
    """``"links"`` or ``"cells"`` for ``problem`` (an ``ExactCover``).

    ``purpose`` is ``"search"`` (count, solutions, solve) or ``"batch"``
    (``solve_batch``).  ``"auto"`` asks the rule of ``CELLS_RULES`` for
    the problem's kind for a search; a batch is always ``"links"``
    (measured faster on every Sudoku batch: its instances are small
    searches, where the per-node scan and save of dancing cells weigh
    most).  A wrong type is a TypeError, an unknown name a ValueError.
    """
    if not isinstance(algorithm, str):
        raise TypeError(f"algorithm must be one of {', '.join(ALGORITHMS)}; "
                        f"got {shorten(algorithm)}"[:200])
    if algorithm not in ALGORITHMS:
        raise ValueError(f"algorithm must be one of "
                         f"{', '.join(ALGORITHMS)}; got {shorten(algorithm)}")
    if algorithm != "auto":
        return algorithm
    if purpose == "batch":
        return "links"
    return "cells" if CELLS_RULES[problem.kind](problem) else "links"
