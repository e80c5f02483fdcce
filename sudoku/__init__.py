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

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from dlx import __version__

# The names below load on first use (PEP 562), as in ``dlx``: ``sudoku
# --version`` and ``--help`` answer without numba and the kernels.
_WHERE = {
    "Stopped": (".budget", "Stopped"),
    "VARIANTS": (".encode", "RULES"),
    "InvalidVariant": (".encode", "InvalidVariant"),
    "Variant": (".encode", "Variant"),
    "GenerationFailed": (".generator", "GenerationFailed"),
    "generate": (".generator", "generate"),
    "generate_many": (".generator", "generate_many"),
    "ALPHABET": (".grid", "ALPHABET"),
    "FORMATS": (".grid", "FORMATS"),
    "Grid": (".grid", "Grid"),
    "InvalidPuzzle": (".grid", "InvalidPuzzle"),
    "conflicts": (".grid", "conflicts"),
    "default_box": (".grid", "default_box"),
    "format_csv": (".grid", "format_csv"),
    "format_line": (".grid", "format_line"),
    "format_pretty": (".grid", "format_pretty"),
    "is_valid_solution": (".grid", "is_valid_solution"),
    "parse": (".grid", "parse"),
    "LEVELS": (".rating", "LEVELS"),
    "Rating": (".rating", "Rating"),
    "UnknownLevel": (".rating", "UnknownLevel"),
    "rate": (".rating", "rate"),
    "rate_many": (".rating", "rate_many"),
    "TextBatch": (".lines", "TextBatch"),
    "solve_text": (".lines", "solve_text"),
    "STATUSES": (".solver", "STATUSES"),
    "BatchArrays": (".solver", "BatchArrays"),
    "Result": (".solver", "Result"),
    "base_problem": (".solver", "base_problem"),
    "count": (".solver", "count"),
    "is_unique": (".solver", "is_unique"),
    "solve": (".solver", "solve"),
    "solve_cells": (".solver", "solve_cells"),
    "solve_many": (".solver", "solve_many"),
}

if TYPE_CHECKING:  # what the names are, for type checkers and readers
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
    from .lines import TextBatch, solve_text
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


def __getattr__(name: str) -> object:
    if name not in _WHERE:
        raise AttributeError(f"module 'sudoku' has no attribute {name!r}")
    module, inner = _WHERE[name]
    value = getattr(importlib.import_module(module, __name__), inner)
    globals()[name] = value  # the next look-up is a plain one
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


__all__ = [
    "parse",
    "Grid",
    "InvalidPuzzle",
    "solve",
    "count",
    "is_unique",
    "solve_many",
    "solve_cells",
    "solve_text",
    "TextBatch",
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
