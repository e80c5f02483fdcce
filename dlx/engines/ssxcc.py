"""SSXCC, Knuth's dancing cells with colors: the engine.

Its kernel is ``dlx.kernels.ssxcc``; its arrays, runs, batches and
splits are SSXC1's (``dlx.engines.ssxc1``), which drive either kernel
(``Cells.kernel`` says which): purifying hides only the options of other
colors, and a stack of forced items breaks ties by input order.
"""

from __future__ import annotations

from .base import COLORS
from .ssxc1 import SSXC1, Cells


class SSXCC(SSXC1):
    """Knuth's SSXCC: dancing cells with colors on secondary items."""

    name = "ssxcc"
    program = "SSXCC"
    kinds = frozenset({COLORS})
    about = "SSXCC with colors"

    def build(self, problem) -> Cells:
        return Cells.from_csr(problem.csr())
