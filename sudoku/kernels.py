"""The adapter's loops over a whole batch: grids to given options, first
solutions back to grids (``sudoku.solver``'s encoding: option ``cell*n +
digit - 1``), and one-line puzzles' answers written as text
(``sudoku.lines``).

They run once a chunk of puzzles, around the engine's call, where numpy
took several passes and temporaries per puzzle (together about 1.4 us
of a 17-clue puzzle's 7 on the text path, measured in one process).
Kernels from ``dlx.kernels.jit``, as the engine's: plain Python while a
command's first small batches run, numba's compiled code past them; this
file calls only its own kernels.
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


# How write_answers writes a puzzle of a status (``mode[status]``).
ECHO = 0  # its text as written
PUZZLE = 1  # its cells anew: ``chars[value]``, ``.`` for a blank
SOLUTION = 2  # its solution anew
FILLED = 3  # its solution in its text: a cell the solution changes


@njit(cache=True, nogil=True)
def write_answers(rows, values, solutions, status, mode, chars, tags, tag_at):
    """The answers to one-line puzzles as bytes, a line each: puzzle
    ``b`` (its text ``rows[b]``, its cells ``values[b]``, its first
    solution ``solutions[b]``) as ``mode[s]`` says for its status ``s =
    status[b]``, then that status's tag ``tags[tag_at[s]:tag_at[s + 1]]``
    and a newline."""
    count, length = rows.shape
    size = 0
    for b in range(count):
        s = status[b]
        size += length + tag_at[s + 1] - tag_at[s] + 1
    out = np.empty(size, np.uint8)
    at = 0
    for b in range(count):
        s = status[b]
        m = mode[s]
        for c in range(length):
            if m == ECHO:
                out[at + c] = rows[b, c]
            elif m == PUZZLE:
                out[at + c] = chars[max(values[b, c], 0)]
            elif m == SOLUTION or solutions[b, c] != values[b, c]:
                out[at + c] = chars[solutions[b, c]]
            else:
                out[at + c] = rows[b, c]
        at += length
        for k in range(tag_at[s], tag_at[s + 1]):
            out[at] = tags[k]
            at += 1
        out[at] = 10  # a newline
        at += 1
    return out
