"""Sudoku grids as SVG pictures (the shared helpers are in ``dlx.draw``).

``grid_svg(grid, puzzle=None)``: the grid with thin lines between cells
and thick lines around boxes; the puzzle's givens are bold black on a
grey ground, the digits filled in by the solver blue on white, so a
solved puzzle shows at a glance which digits were given.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from dlx.draw import document, fmt, line, text

from .grid import ALPHABET, Grid, parse

__all__ = ["grid_svg"]

GIVEN_GROUND = "#e4e4e4"
GIVEN_INK = "#111"
FILLED_INK = "#1f5fbf"


def _digit(value: int, n: int) -> str:
    return ALPHABET[value - 1] if n <= len(ALPHABET) else str(value)


def grid_svg(
    grid: Any,
    puzzle: Any = None,
    *,
    cell: float = 36,
    title: str | None = None,
) -> str:
    """SVG text of ``grid`` (a ``Grid`` or anything ``parse`` reads).

    ``puzzle``: the grid's givens (default: every filled cell of ``grid``
    is a given); its filled cells must hold the same digits in ``grid``.
    Each cell's digit is a ``<text class="given">`` or ``<text
    class="filled">`` element.
    """
    grid = grid if isinstance(grid, Grid) else parse(grid)
    puzzle = (
        grid
        if puzzle is None
        else (puzzle if isinstance(puzzle, Grid) else parse(puzzle, grid.box))
    )
    if puzzle.cells.shape != grid.cells.shape:
        raise ValueError(
            f"the puzzle is {puzzle.n}x{puzzle.n} but the grid "
            f"is {grid.n}x{grid.n}"
        )
    given = puzzle.cells != 0
    clash = given & (puzzle.cells != grid.cells)
    if clash.any():
        r, c = (int(v) for v in np.argwhere(clash)[0])
        raise ValueError(
            f"the grid does not keep the given at r{r + 1}c{c + 1}"
        )
    n = grid.n
    rows, cols = grid.box
    margin = max(2.0, cell / 12)
    side = n * cell
    body = []
    for r in range(n):
        for c in range(n):
            if given[r, c]:
                body.append(
                    f'<rect x="{fmt(margin + c * cell)}" '
                    f'y="{fmt(margin + r * cell)}" '
                    f'width="{fmt(cell)}" height="{fmt(cell)}" '
                    f'fill="{GIVEN_GROUND}"/>'
                )
    size = cell * (0.6 if n <= len(ALPHABET) else 0.4)
    for r in range(n):
        for c in range(n):
            value = int(grid.cells[r, c])
            if not value:
                continue
            kind = "given" if given[r, c] else "filled"
            body.append(
                text(
                    margin + (c + 0.5) * cell,
                    margin + (r + 0.5) * cell,
                    _digit(value, n),
                    size,
                    fill=GIVEN_INK if given[r, c] else FILLED_INK,
                    font_weight="bold" if given[r, c] else "normal",
                    **{"class": kind},
                )
            )
    thin, thick = max(0.5, cell / 40), max(1.5, cell / 12)
    for k in range(n + 1):
        for width, boxed in ((thin, False), (thick, True)):
            if boxed != (k % rows == 0):
                continue
            y = margin + k * cell
            body.append(line(margin, y, margin + side, y, width))
        for width, boxed in ((thin, False), (thick, True)):
            if boxed != (k % cols == 0):
                continue
            x = margin + k * cell
            body.append(line(x, margin, x, margin + side, width))
    return document(side + 2 * margin, side + 2 * margin, body, title)
