"""Which kernel searches: dancing links (DLX1) or dancing cells (SSXC1).

``algorithm="links" | "cells" | "auto"`` on every search method of
``ExactCover``; ``"auto"`` decides here, from the problem's shape alone
(measured: see the README's section on the two algorithms and
``bench/cells_vs_ssxc1.py``).
"""

from __future__ import annotations

from . import xcc

ALGORITHMS = ("links", "cells", "auto")

# "auto" searches with cells when hide_work(problem) is at least this.
CELLS_FROM = 1.0


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


def choose_algorithm(algorithm, problem, purpose: str = "search") -> str:
    """``"links"`` or ``"cells"`` for ``problem`` (an ``ExactCover``).

    ``purpose`` is ``"search"`` (count, solutions, solve) or ``"batch"``
    (``solve_batch``).  ``"auto"`` is ``"cells"`` for a search when
    ``hide_work`` reaches ``CELLS_FROM``, else ``"links"``; a batch is
    always ``"links"`` (measured faster on every Sudoku batch: its
    instances are small searches, where the per-node scan and save of
    dancing cells weigh most).  A wrong type is a TypeError, an unknown
    name a ValueError.
    """
    if not isinstance(algorithm, str):
        raise TypeError(f"algorithm must be one of {', '.join(ALGORITHMS)}; "
                        f"got {algorithm!r}"[:200])
    if algorithm not in ALGORITHMS:
        raise ValueError(f"algorithm must be one of "
                         f"{', '.join(ALGORITHMS)}; got {algorithm!r}")
    if problem.kind == xcc.MULTIPLICITIES:  # SSMCC: see dlx.cells_mcc
        from .cells_mcc import choose
        return choose(algorithm, problem, purpose)
    if problem.kind != xcc.EXACT:
        # Colors and bounds run on DLX2/DLX3; dancing cells has neither yet.
        if algorithm == "cells":
            raise ValueError("algorithm='cells' solves plain exact cover; "
                             "problems with colors or bounds run on "
                             "dancing links (algorithm='links' or 'auto')")
        return "links"
    if algorithm != "auto":
        return algorithm
    if purpose == "batch":
        return "links"
    work = hide_work(len(problem.items), len(problem), len(problem._members))
    return "cells" if work >= CELLS_FROM else "links"
