"""The adapter's two loops over a whole batch: grids to given options, and
first solutions back to grids (``sudoku.solver``'s encoding: option
``cell*n + digit - 1``).

They run once a chunk of puzzles, around the engine's call, where numpy
took several passes and temporaries per puzzle (about 1.1 us of a 17-clue
puzzle's 9, measured with ``bench/tdoku.py``).  Kernels from
``dlx.kernels.jit``, as the engine's: plain Python while a command's
first small batches run, numba's compiled code past them; this file
calls only its own kernels.
"""

import numpy as np

from dlx.kernels.jit import njit


@njit(cache=True, nogil=True)
def given_options(cells, n):
    """``(options, starts)``: the option numbers of the filled cells of
    ``cells`` (a ``(B, n*n)`` stack, 0 for an empty cell), puzzle ``b``'s
    in ``options[starts[b]:starts[b + 1]]``, rising."""
    batch, size = cells.shape
    starts = np.zeros(batch + 1, np.int64)
    k = 0
    for b in range(batch):
        for c in range(size):
            if cells[b, c] != 0:
                k += 1
        starts[b + 1] = k
    options = np.empty(k, np.int64)
    k = 0
    for b in range(batch):
        for c in range(size):
            v = np.int64(cells[b, c])
            if v != 0:
                options[k] = c * n + v - 1
                k += 1
    return options, starts


@njit(cache=True, nogil=True)
def fill(grids, found, n):
    """Write the options of ``found`` (a row of option numbers a puzzle,
    ``-1``-padded) into the cells of ``grids`` (``(B, n*n)``, row by
    row); the cells no option names keep their values (the givens)."""
    for b in range(found.shape[0]):
        for k in range(found.shape[1]):
            o = np.int64(found[b, k])
            if o < 0:
                break
            grids[b, o // n] = o % n + 1
