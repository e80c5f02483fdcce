"""Tilings of a board by pieces used any number of times (dominoes, ...).

Glossary as in ``dlx.problems.polyomino``: a *board* is a set of cells, a
*shape* a set of cells, a *placement* a shape on board cells, a *tiling* a
set of placements that covers every cell of the board once.  Unlike
``Polyomino`` (each piece once, or ``copies`` times) every piece here may be
used as often as it fits, so the items are the board's cells alone and
the options every placement of every piece: ``tiling("8x8")`` has
12,988,816 solutions, the domino tilings of the chessboard (OEIS A099390).

Cells are numbered (item order) along the board's longer side, across its
shorter side: row by row on a board at least as tall as it is wide, column
by column otherwise.  Branching on the first uncovered cell then sweeps the
board like a transfer matrix, and the uncovered cells always form a
frontier about as wide as the shorter side, which keeps the number of
distinct subproblems of ``count(memo=True)`` small (``choose="auto"``
finds this out by itself: see ``dlx.services.memo.choose_rule``).

Cells are named as in ``dlx.problems.polyomino`` (``<row><col>``, one
character per coordinate, or ``r<row>c<col>`` on large boards).
Placements that cover the same cells (two pieces of the same shape) are
one option: a tiling is a partition of the board into piece shapes.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..problem import ExactCover
from ..shorten import shorten
from .packing import cell_namer
from .polyomino import (
    MAX_BOARD_CELLS,
    cell_of,
    free_polyominoes,
    orientations,
    parse_board,
    pieces_from,
)

__all__ = ["tiling", "rooms", "pieces", "render", "PIECE_SETS"]

PIECE_SETS = {
    "monominoes": 1,
    "dominoes": 2,
    "trominoes": 3,
    "tetrominoes": 4,
    "pentominoes": 5,
    "hexominoes": 6,
}
"""Named sets, for ``pieces``: the free polyominoes of each size."""


def pieces(spec) -> dict[str, tuple]:
    """Shapes by name from ``spec``: a set name (``"dominoes"``,
    ``"trominoes"``, ..., ``"hexominoes"``, singular or plural, or the
    number of cells), ASCII shapes (text with a newline, as
    ``polyomino.parse_shapes`` reads them), or a mapping name -> shape.

    Args:
        spec: A set name or size, ASCII shapes, or a mapping.

    Returns:
        The shapes by name, each its cells.

    Raises:
        ValueError: An unknown set or a bad shape.
    """
    size: int | None
    if isinstance(spec, int) and not isinstance(spec, bool):
        size = spec
    elif isinstance(spec, str) and "\n" not in spec:
        key = spec.strip().lower()
        size = next(
            (
                k
                for name, k in PIECE_SETS.items()
                if key in (name, name[:-2], name[:-1], str(k))
            ),
            None,
        )
        if size is None:
            raise ValueError(
                f"unknown piece set {shorten(spec)}; choose one of "
                f"{', '.join(PIECE_SETS)}, or draw the pieces"
            )
    else:
        return pieces_from(spec)
    if not 1 <= size <= 8:
        raise ValueError(f"pieces of {size} cells: choose 1 to 8")
    shapes = free_polyominoes(size)
    return {f"{size}.{k}": shape for k, shape in enumerate(shapes, 1)}


def sweep_order(board: Iterable[tuple]) -> list[tuple]:
    """The board's cells in item order: across the shorter side first."""
    cells = list(board)
    height = 1 + max(r for r, _ in cells) - min(r for r, _ in cells)
    width = 1 + max(c for _, c in cells) - min(c for _, c in cells)
    if width > height:
        return sorted(cells, key=lambda x: (x[1], x[0]))
    return sorted(cells)


def tiling(
    board="8x8", shapes="dominoes", *, one_sided: bool = False
) -> ExactCover:
    """The exact cover whose solutions are the tilings of ``board`` (a size
    like ``"8x8"``, ASCII art with ``.`` cells and ``#`` holes, or cells) by
    ``shapes`` (see ``pieces``), each used any number of times, turned and
    (unless ``one_sided``) flipped.

    Args:
        board: A size like ``"8x8"``, ASCII art (``.`` cells, ``#`` holes) or
            an iterable of cells.
        shapes: The pieces, as ``pieces`` reads them.
        one_sided: Pieces turn but are not flipped.

    Returns:
        The problem, one option per placement, the board's cells primary.

    Raises:
        ValueError: A bad board or shapes (saying which), or a board of
            more than 1,000,000 cells.
    """
    cells = parse_board(board)
    return _tiling(cells, sweep_order(cells), shapes, one_sided)


def _tiling(cells: frozenset, order: list, shapes, one_sided: bool):
    """``tiling``'s problem over ``cells``, the items in ``order``."""
    name = cell_namer(cells, "rc")
    problem = ExactCover([name(x) for x in order])
    seen = set()
    placements = []
    for shape in pieces(shapes).values():
        for orient in orientations(shape, one_sided):
            anchor = orient[0]
            for r, c in order:
                moved = frozenset(
                    (a + r - anchor[0], b + c - anchor[1]) for a, b in orient
                )
                if moved <= cells and moved not in seen:
                    seen.add(moved)
                    placements.append(moved)
    rank = {x: k for k, x in enumerate(order)}
    # Options in the order of their first cell, so that the first cell's
    # options are met first in the sweep.
    placements.sort(key=lambda p: sorted(rank[x] for x in p))
    problem.add_options(
        [name(x) for x in sorted(p, key=rank.__getitem__)] for p in placements
    )
    return problem


def rooms(
    k: int = 4, n: int = 8, *, corridor: int = 2, shapes="dominoes"
) -> ExactCover:
    """Tilings of ``k`` rooms of ``n`` x ``n`` cells in a row, each joined
    to the next by a corridor one cell wide and ``corridor`` cells long
    (on row ``n // 2``), by ``shapes`` (see ``pieces``) used any number of
    times.

    Unlike ``tiling``, the cells are numbered row by row across the whole
    floor, as one numbers a floor plan: branching on the first uncovered
    cell then crosses every room, and a memo keyed on the whole remaining
    problem sees every combination of the rooms' states.  Counted by
    components (``count(memo=True)``: see ``dlx.services.parts``), each
    room is counted once: with dominoes and even corridors every corridor
    is one domino and the count is the rooms' counts multiplied,
    ``rooms(4)`` 12,988,816**4 (the tilings of 8x8 to the fourth).

    Args:
        k: How many rooms (an int >= 1).
        n: Each room's side (an int >= 1).
        corridor: Each corridor's length in cells (an int >= 1).
        shapes: The pieces, as ``pieces`` reads them.

    Returns:
        The problem, one option per placement, the cells primary.

    Raises:
        TypeError: A count that is not an integer (naming it).
        ValueError: A count out of range (naming it), bad shapes, or a
            floor of more than 1,000,000 cells.
    """
    for what, value, least in (
        ("k", k, 1),
        ("n", n, 1),
        ("corridor", corridor, 1),
    ):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(
                f"rooms: {what} must be an integer, got {shorten(value)}"
            )
        if value < least:
            raise ValueError(
                f"rooms: {what} must be at least {least}, got {value}"
            )
    if k * n * n + (k - 1) * corridor > MAX_BOARD_CELLS:
        raise ValueError(
            f"rooms: {k} rooms of {n}x{n} have more than "
            f"{MAX_BOARD_CELLS} cells"
        )
    step = n + corridor
    cells = frozenset(
        [
            (r, room * step + c)
            for room in range(k)
            for r in range(n)
            for c in range(n)
        ]
        + [
            (n // 2, room * step + n + j)
            for room in range(k - 1)
            for j in range(corridor)
        ]
    )
    return _tiling(cells, sorted(cells), shapes, False)


def render(problem: ExactCover, solution: Sequence[int]) -> str:
    """A tiling as a letter grid: each placement gets a letter that none of
    its neighbours has (``#`` off the board).

    Args:
        problem: The problem ``tiling`` made.
        solution: One of its solutions (option numbers).

    Returns:
        The grid, one line per row.
    """
    placements = [
        tuple(cell_of(str(x)) for x in problem.options[k]) for k in solution
    ]
    owner = {x: k for k, cells in enumerate(placements) for x in cells}
    letters: list[str] = []
    for k, cells in enumerate(placements):
        near = {
            letters[owner[(r + dr, c + dc)]]
            for r, c in cells
            for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
            if owner.get((r + dr, c + dc), k) < k
        }
        letters.append(
            next(ch for ch in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" if ch not in near)
        )
    if not owner:
        return ""
    rows = range(min(r for r, _ in owner), 1 + max(r for r, _ in owner))
    cols = range(min(c for _, c in owner), 1 + max(c for _, c in owner))
    return "\n".join(
        "".join(
            letters[owner[(r, c)]] if (r, c) in owner else "#" for c in cols
        )
        for r in rows
    )
