"""sudoku: a Sudoku solver on the ``dlx`` exact-cover engine.

Glossary
--------
*grid*: an ``n x n`` board (``Grid``); *cell*: one square, at row ``r`` and
column ``c`` (written ``r1c1`` .. ``r9c9``, 1-based, in messages);
*digit*: a value ``1..n`` (0 means an empty cell); *box*: one of the ``n``
``rows x cols`` blocks that tile the grid (3x3 for 9x9, 2x3 for 6x6, 4x4
for 16x16); *given*: a cell filled in the puzzle; *solution*: a full grid
where every row, column and box holds each digit once and the givens are
kept.

>>> import sudoku
>>> grid = sudoku.solve("4.....8.5.3..........7......2.....6.....8.4......"
...                     "1.......6.3.7.5..2.....1.4......")
>>> str(grid)[:18]
'417369825632158947'
>>> sudoku.count("." * 16)        # every completed 4x4 grid
288

Text is read one character per cell (``1-9A-Z`` as digits, ``. 0 _ - *``
as blanks, decoration skipped) or as separated numbers (CSV); see
``sudoku.grid`` for the alphabets and ``sudoku.solver`` for the encoding.
"""

from dlx import __version__

from .budget import Stopped
from .encode import RULES as VARIANTS, InvalidVariant, Variant
from .generator import GenerationFailed, generate, generate_many
from .grid import (
    ALPHABET,
    FORMATS,
    Grid,
    InvalidPuzzle,
    conflicts,
    default_box,
    format_csv,
    format_line,
    format_pretty,
    is_valid_solution,
    parse,
)
from .rating import LEVELS, Rating, UnknownLevel, rate, rate_many
from .solver import (
    STATUSES,
    BatchArrays,
    Result,
    base_problem,
    count,
    is_unique,
    solve,
    solve_cells,
    solve_many,
)

__all__ = [
    "parse",
    "Grid",
    "InvalidPuzzle",
    "solve",
    "count",
    "is_unique",
    "solve_many",
    "solve_cells",
    "Result",
    "BatchArrays",
    "STATUSES",
    "format_line",
    "format_pretty",
    "format_csv",
    "FORMATS",
    "ALPHABET",
    "conflicts",
    "is_valid_solution",
    "default_box",
    "base_problem",
    "Variant",
    "InvalidVariant",
    "VARIANTS",
    "generate",
    "generate_many",
    "rate",
    "rate_many",
    "Rating",
    "LEVELS",
    "GenerationFailed",
    "UnknownLevel",
    "Stopped",
    "__version__",
]
