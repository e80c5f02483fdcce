"""dlx.kernels.jit: kernels made numba's on their first compiled call, and
run as plain Python while a command's first small problems are searched.

The engines' answers in plain runs are the engine contract's
(tests/test_engine_contract.py, the ``plain`` runs); here, the switch
itself: a search begun plain and carried on compiled, a batch whose plain
try runs out of nodes, the limits on size and time."""

import numpy as np

from dlx.engines import bits
from dlx.kernels import jit
from dlx.problems.queens import queens

from conftest import plain_kernels


def test_a_search_begun_plain_carries_on_compiled():
    # A first slice plain (the budget is spent by then), the rest compiled:
    # the count, nodes and updates of a compiled search throughout.
    compiled = queens(8)
    assert compiled.count() == 92
    with plain_kernels(1e-9, 1 << 20, strict=False) as modules:
        dlx1 = next(m for m in modules if m.__name__ == "dlx.kernels.dlx1")
        p = queens(8)
        assert p.count() == 92
        assert not isinstance(dlx1.search, jit.Kernel)  # compiled since
    assert (p.stats.nodes, p.stats.updates) == (
        compiled.stats.nodes,
        compiled.stats.updates,
    )


def test_a_search_too_big_for_plain_runs_compiled():
    with plain_kernels(60, 16, strict=False) as modules:
        dlx1 = next(m for m in modules if m.__name__ == "dlx.kernels.dlx1")
        assert queens(5).count() == 10
        assert not isinstance(dlx1.search, jit.Kernel)


def test_a_plain_batch_out_of_nodes_runs_again_compiled():
    # Sudoku's hardest need more than PLAIN_NODES nodes: their plain try
    # is dropped, and the batch answers as compiled, nodes included.
    import sudoku
    from sudoku.solver import search_stack

    hard = sudoku.parse(
        # the sixth of top95 (magictour's list, as in Norvig's top95.txt)
        "......52..8.4......3...9...5.1...6..2..7........3....."
        "6...1..........7.4.......3."
    )
    stack = hard.cells[None].astype(np.int8)
    want = search_stack(stack, hard.box, 2, threads=1)
    assert want[2][0] > bits.PLAIN_NODES
    with plain_kernels(60, 1 << 20, strict=False) as modules:
        lanes = next(m for m in modules if m.__name__ == "dlx.kernels.lanes")
        got = search_stack(stack, hard.box, 2, threads=1)
        assert not isinstance(lanes.solve_batch, jit.Kernel)
    for a, b in zip(got, want):
        assert np.array_equal(a, b)


def test_a_links_batch_runs_compiled_even_in_plain_runs():
    # A batch call is not cut short between its instances: DLX1's family
    # runs it compiled from the start (the bitset engines try 32 nodes).
    with plain_kernels(60, 1 << 20, strict=False) as modules:
        dlx1 = next(m for m in modules if m.__name__ == "dlx.kernels.dlx1")
        result = queens(6).solve_batch([[], []], limit=10, algorithm="links")
        assert list(result.counts) == [4, 4]
        assert not isinstance(dlx1.solve_batch, jit.Kernel)
