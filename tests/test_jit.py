"""dlx.kernels.jit: kernels made numba's on their first compiled call, and
run as plain Python while a command's first small problems are searched.

The engines' answers in plain runs are the engine contract's
(tests/test_engine_contract.py, the ``plain`` runs); here, the switch
itself: a search begun plain and carried on compiled, a batch whose plain
try runs out of nodes, the limits on size and time."""

import sys

import numpy as np
import pytest

from dlx.engines import bits
from dlx.kernels import jit
from dlx.problems.debruijn import debruijn
from dlx.problems.queens import queens
from dlx.problems.rooks import rooks

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


BATCHES = [
    ("queens", "links", "dlx1"),
    ("queens", "cells", "ssxc1"),
    ("hexadoku", "bits", "bits"),
    ("queens", "auto", "lanes"),
    ("debruijn", "links", "dlx2"),
    ("debruijn", "cells", "ssxcc"),
    ("rooks", "cells", "ssmcc"),
]


@pytest.mark.parametrize("name, algorithm, kernels", BATCHES)
def test_a_batch_runs_compiled_in_plain_runs(name, algorithm, kernels):
    # A batch call is not cut short between its instances: past the
    # bitset engines' two-instance try, every batch runs compiled (a
    # chunk of top1465 ran plain for 20 s in `sudoku solve FILE`).
    from sudoku.solver import base_problem

    problems = {
        "queens": lambda: queens(6),
        "debruijn": lambda: debruijn(2, 3),
        "rooks": lambda: rooks(4, 2),
        # 16x16 Sudoku: too big for the lanes (the count-based engine)
        "hexadoku": lambda: base_problem(4, 4),
    }
    instances = [[], [], []]  # more than bits.PLAIN_BATCH
    want = problems[name]().solve_batch(
        instances, limit=10, algorithm=algorithm
    )
    with plain_kernels(60, 1 << 20, strict=False) as modules:
        module = next(
            m for m in modules if m.__name__ == f"dlx.kernels.{kernels}"
        )
        got = problems[name]().solve_batch(
            instances, limit=10, algorithm=algorithm
        )
        assert not isinstance(module.solve_batch, jit.Kernel)
    assert list(got.counts) == list(want.counts)
    assert list(got.nodes) == list(want.nodes)


SAMPLE = """
from dlx.kernels.jit import intrinsic, njit


def plain_twice(x):
    return 2 * x


@intrinsic(plain_twice)
def twice(typingctx, x):
    from numba import types

    def codegen(context, builder, signature, args):
        return builder.add(args[0], args[0])

    return types.int64(types.int64), codegen


@njit
def inner(x):
    return twice(x) + 1


@njit
def outer(x, meanwhile):
    meanwhile()
    return twice(x) + inner(x)
"""


def test_a_plain_run_stays_plain_while_another_compiles_its_module(
    tmp_path, monkeypatch
):
    # A plain run under way when another thread compiles its module (so
    # the module's names are numba's, and an intrinsic is not callable
    # from Python) carries on plain: `sudoku solve FILE` crashed so on
    # top1465, a batch's threads, one plain, one compiling.
    import importlib.util

    path = tmp_path / "jit_sample.py"
    path.write_text(SAMPLE)
    spec = importlib.util.spec_from_file_location("jit_sample", path)
    sample = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "jit_sample", sample)
    spec.loader.exec_module(sample)
    jit.plain_first(60, 1 << 20)
    try:
        assert sample.outer(3, lambda: jit.compiled(sample.inner)) == 13
    finally:
        jit.plain_first(0)
    assert not isinstance(sample.twice, jit.Kernel)  # compiled meanwhile
    assert sample.inner(3) == 7  # and the compiled kernels work
