"""The arrays an engine builds for a problem, for the tests that drive
kernels directly (the engines keep them on the problem; see
``dlx.engines.base.Engine.arrays``)."""

from dlx.engines import engine_of
from dlx.engines.dlx1 import Links


def links_of(problem) -> Links:
    """DLX1's arrays, with DLX2's ``color`` when the problem has colors."""
    s = problem.structure()
    return Links(s.nitems, s.nprimary, s.members, s.sizes, s.colors)


def cells_of(problem):
    """The dancing-cells arrays of the problem's kind (SSXC1's, SSXCC's or
    SSMCC's)."""
    return engine_of("cells", problem.kind).arrays(problem)
