"""A costed problem that takes a while to prove, for the tests that stop a
search for the k cheapest (a time limit, the stop event, Ctrl-C, a client
that leaves), and how long it takes on this machine.

A stop set at a fixed moment tests nothing on a machine fast enough to
finish first (CI's did), so those tests stop at a fraction of
``seconds_to_prove()``, the time of one serial proof measured here."""

import functools
import time

from dlx import BudgetExhausted, ExactCover
from dlx.problems.polyomino import polyomino

OPTIMUM = 298  # of weighted_pentominoes(), proven by a full search


def weighted_pentominoes() -> ExactCover:
    """The 6x10 pentominoes, each placement costing its piece's rank times
    its distance from the corner (docs/costs.md): a million nodes to
    prove."""
    board = polyomino("6x10")
    weighted = ExactCover(board.primary)
    for piece, *cells in board.options:
        corner = min(int(c[0], 36) + int(c[1], 36) for c in cells)
        weighted.add_option(
            [piece, *cells], cost=("FILNPTUVWXYZ".index(piece) + 1) * corner
        )
    return weighted


@functools.cache
def seconds_to_prove() -> float:
    """Wall-clock seconds of ``best(2)`` in one serial search here (the
    kernels compiled beforehand, so only the search is timed)."""
    p = weighted_pentominoes()
    try:  # compiles the kernels, or loads them from numba's cache
        p.best(1, max_nodes=1000)
    except BudgetExhausted:
        pass
    start = time.perf_counter()
    found = p.best(2)
    seconds = time.perf_counter() - start
    assert found[0][0] == OPTIMUM
    return seconds


def stop_after() -> float:
    """When a stop should land: an eighth of a serial proof, so well before
    two threads or two processes could finish (at most twice as fast)."""
    return seconds_to_prove() / 8
