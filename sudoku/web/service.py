"""What the web page's JSON API does, without the web.

Every endpoint of ``sudoku.web.app`` is one function here taking the
request's JSON object (a dict) and returning the answer's (a dict): parse
the input with the library's own readers, search with the engine under a
``Budget``, format grids as the CLI writes them.  Bad input raises
``RequestError`` with one sentence (the app answers it as JSON with its
``status``).  Nothing here touches the file system (but for the bundled
puzzles, read once from the package), evaluates user text or imports the
web framework, so it is tested and reused without a server.

The time budget rule, for every search: a search that outlasts its budget
is an answer, not an error: HTTP 200 with ``"status": "stopped"`` and what
was found so far (solutions, a partial count, nodes).
"""

from __future__ import annotations

import math
import os
import random
import threading
import time
from dataclasses import dataclass
from importlib import resources
from types import SimpleNamespace

import numpy as np

from dlx import BudgetExhausted, DLXFormatError, ExactCover, loads
from dlx.formats import costs_of, solution_lines
from dlx.problems import langford as langford_builder, queens as queens_builder
from dlx.problems.polyomino import Polyomino, piece_set
from dlx.services.search import seconds
from dlx.shorten import shorten

from ..budget import Budget as JobBudget, Stopped
from ..encode import RULES, Variant, as_variant, first_clash
from ..generator import GenerationFailed, generate as make_puzzle
from ..grid import (
    ALPHABET,
    FORMATS,
    Grid,
    InvalidPuzzle,
    conflict_message,
    conflicts,
    parse,
)
from ..rating import LEVELS, rate as rate_puzzle
from ..solver import (
    MRV_CUTOFF,
    STATUSES,
    Symmetry,
    decode,
    grid_givens,
    problem_for,
)


# -- settings and errors -------------------------------------------------------
@dataclass
class Settings:
    """The server's limits (``sudoku serve`` sets them from its options).

    ``time_limit``: the budget of a search that names none (seconds);
    ``max_time_limit``: the most a request may ask for; ``workers``:
    searches running at once (0: one per core); ``queue``: searches that
    may wait for a worker before the server answers 503; ``max_body``:
    the largest request body in bytes (413 beyond); ``max_size``: the
    largest Sudoku side the API takes.
    """

    time_limit: float = 20.0
    max_time_limit: float = 60.0
    workers: int = 0
    queue: int = 32
    max_body: int = 1 << 20
    max_size: int = 25

    def __post_init__(self):
        # A server's every search ends, so that its worker is freed: the
        # time limits are more than 0 and finite (None: no limit).
        for name in ("time_limit", "max_time_limit"):
            value = getattr(self, name)
            if value is None or not 0 < value < math.inf:
                raise ValueError(
                    f"{name} (--{name.replace('_', '-')}) must be a "
                    f"finite number of seconds more than 0, got "
                    f"{'no limit' if value is None else format(value, 'g')}"
                )
        if self.time_limit > self.max_time_limit:
            raise ValueError(
                f"time_limit (--time-limit, {self.time_limit:g} s) is "
                f"larger than max_time_limit (--max-time-limit, "
                f"{self.max_time_limit:g} s)"
            )
        if self.workers < 0 or self.queue < 0 or self.max_body < 1:
            raise ValueError(
                "workers and queue must be >= 0 and max_body >= 1"
            )
        self.workers = self.workers or (os.cpu_count() or 1)


class RequestError(ValueError):
    """Bad input from a client: one sentence, an HTTP status, and extra
    fields for the answer (such as the cells of clashing givens)."""

    def __init__(self, message: str, status: int = 400, **extra):
        super().__init__(message)
        self.status = status
        self.extra = extra


class Cancelled(Exception):
    """The client went away: the search was dropped."""


class Budget(JobBudget):
    """A request's budget: its time limit counts from its arrival
    (``start``), the wait for a worker included, and its stop is
    ``cancel``, the event the app sets when the client disconnects.
    ``remaining()`` is 0 once the time is up (a search then stops at once
    with what it has) and raises ``Cancelled`` once the client is gone."""

    def __init__(self, seconds: float, start: float | None = None):
        super().__init__("request", seconds, threading.Event(), start=start)
        self.cancel: threading.Event = self.stop

    def left(self) -> float:
        """Seconds to the deadline (negative past it)."""
        assert self.deadline is not None  # a request always has a limit
        return self.deadline - time.perf_counter()

    def remaining(self) -> float:
        """Seconds left; raises ``Cancelled`` once the client is gone."""
        if self.cancel.is_set():
            raise Cancelled()
        return max(0.0, self.left())

    def ms(self) -> float:
        """Milliseconds since the request arrived."""
        return round((time.perf_counter() - self.start) * 1000, 1)


# -- reading requests ----------------------------------------------------------
def _field(params: dict, name: str, kinds, default=None, *, what: str = ""):
    value = params.get(name, default)
    if value is None:
        return default
    if isinstance(value, bool) and bool not in (
        kinds if isinstance(kinds, tuple) else (kinds,)
    ):
        raise RequestError(f"'{name}' must be {what}, got {shorten(value)}")
    if not isinstance(value, kinds):
        raise RequestError(f"'{name}' must be {what}, got {shorten(value)}")
    return value


def _only(params: dict, *names: str) -> None:
    """Refuse fields an endpoint does not know (a typo would otherwise be
    ignored in silence)."""
    for key in params:
        if key not in names and key != "time_limit":
            raise RequestError(
                f"unknown field {shorten(key)} (this request "
                f"takes {', '.join(names + ('time_limit',))})"
            )


GRID_FIELDS = ("puzzle", "box", "variant", "regions")


def time_limit_of(params: dict, settings: Settings) -> float:
    """The request's ``time_limit`` (seconds): a time limit as every
    search reads one (``dlx.services.search.seconds``: a number >= 0; 0
    answers at once with what was found), capped by the server's
    ``max_time_limit``; a 400 in one sentence otherwise."""
    value = params.get("time_limit")
    if value is None:
        return settings.time_limit
    try:
        limit = seconds("'time_limit'", value)
    except (TypeError, ValueError) as error:
        raise RequestError(str(error)) from None
    if limit is None or limit > settings.max_time_limit:
        raise RequestError(
            f"'time_limit' must be at most {settings.max_time_limit:g} "
            f"seconds on this server, got {shorten(value)}"
        )
    return limit


def _positive(
    params: dict, name: str, default: int | None, cap: int | None = None
) -> int | None:
    value = _field(params, name, int, default, what="a positive integer")
    if value is None:
        return None
    if value < 1 or (cap is not None and value > cap):
        top = f" and at most {cap}" if cap is not None else ""
        raise RequestError(
            f"'{name}' must be a positive integer{top}, got {value}"
        )
    return value


def _box(params: dict) -> tuple[int, int] | None:
    value = params.get("box")
    if value is None or value == "":
        return None
    if isinstance(value, str):
        parts = value.lower().replace(",", "x").split("x")
        if len(parts) == 2 and all(p.strip().isdigit() for p in parts):
            value = [int(p) for p in parts]
        else:
            raise RequestError(
                f"'box' must look like \"3x3\" (rows x "
                f"columns), got {shorten(value)}"
            )
    if not (
        isinstance(value, list)
        and len(value) == 2
        and all(
            isinstance(v, int) and not isinstance(v, bool) and v >= 1
            for v in value
        )
    ):
        raise RequestError(
            f"'box' must be \"RxC\" or [rows, columns], got {shorten(value)}"
        )
    return value[0], value[1]


def _format(params: dict) -> str | None:
    value = _field(params, "format", str, "same", what="a format name")
    if value not in ("same",) + FORMATS:
        raise RequestError(
            f"'format' must be one of same, "
            f"{', '.join(FORMATS)}; got {shorten(value)}"
        )
    return None if value == "same" else value


VARIANTS = ("standard",) + RULES


def _variant(params: dict):
    """The request's ``variant`` (rules joined by ``+``, e.g. ``x+anti-king``)
    and ``regions`` (jigsaw), as the solver's Variant; None for standard
    rules."""
    value = _field(params, "variant", str, "standard", what="a variant name")
    regions = params.get("regions")
    if regions is not None and not isinstance(regions, (str, list)):
        raise RequestError(
            f"'regions' must be text or a list of rows, got {shorten(regions)}"
        )
    if value in ("standard", "classic", ""):
        if regions is not None:
            raise RequestError("'regions' goes with the jigsaw variant")
        return None
    try:
        return as_variant(Variant(value, regions))
    except (ValueError, TypeError) as error:
        raise RequestError(str(error)) from None


def read_grid(params: dict, settings: Settings, *, check: bool = True):
    """``(grid, variant)``: the ``puzzle`` of a request (any text the CLI
    reads, or a list of rows), with ``box``, ``variant`` and ``regions``;
    clashing givens are refused (``check``) with their cells listed in
    ``conflicts``."""
    if "puzzle" not in params:
        raise RequestError(
            "the request has no 'puzzle' (the grid as text, "
            'e.g. {"puzzle": "4.....8.5.3..."})'
        )
    source = params["puzzle"]
    if not isinstance(source, (str, list)):
        raise RequestError(
            f"'puzzle' must be text or a list of rows, got {shorten(source)}"
        )
    box = _box(params)
    variant = _variant(params)
    if box is not None and box[0] * box[1] > settings.max_size:
        raise RequestError(_too_big(box[0] * box[1], settings))
    try:
        grid = parse(source, box)
    except InvalidPuzzle as error:
        raise RequestError(str(error)) from None
    except (TypeError, ValueError, OverflowError):
        raise RequestError(
            "'puzzle' is not a grid: give text (one "
            "character per cell, or CSV) or a list of "
            "rows of numbers"
        ) from None
    if grid.n > settings.max_size:
        raise RequestError(_too_big(grid.n, settings))
    if variant is not None:
        try:
            variant.fits(grid.n)
            variant.units(grid.box)  # windoku needs room for its windows
        except ValueError as error:
            raise RequestError(str(error)) from None
    if check:
        message, cells = clash(grid, variant)
        if message:
            raise RequestError(message, conflicts=cells)
    return grid, variant


def clash(grid: Grid, variant) -> tuple[str | None, list[list[int]]]:
    """The sentence naming clashing givens (None when there are none) and
    the cells to highlight, as ``[row, col]`` (0-based)."""
    if variant is None:
        return conflict_message(grid), _conflict_cells(grid)
    found = first_clash(grid.cells, grid.box, variant)
    if found is None:
        return None, []
    return found.message, [list(cell) for cell in found.cells]


def _too_big(n: int, settings: Settings) -> str:
    return (
        f"a {n}x{n} grid is larger than this server takes (up to "
        f"{settings.max_size}x{settings.max_size})"
    )


def _conflict_cells(grid: Grid) -> list[list[int]]:
    """Every given in a clashing pair, as ``[row, col]`` (0-based)."""
    cells: set = set()
    for first, second, _, _ in conflicts(grid):
        cells.update((first, second))
    return [list(cell) for cell in sorted(cells)]


def _cell_name(r: int, c: int) -> str:
    return f"r{r + 1}c{c + 1}"


def _digit(n: int, value: int) -> str:
    return ALPHABET[value - 1] if n <= len(ALPHABET) else str(value)


def _grid_fields(grid: Grid, variant=None) -> dict:
    """Size and box; for a variant its name and what the page draws:
    ``regions`` (each cell's box or jigsaw region), ``diagonal`` (X) and
    ``windows`` (windoku cells)."""
    fields = {"n": grid.n, "box": f"{grid.box[0]}x{grid.box[1]}"}
    if variant is not None:
        n = grid.n
        kinds, units = variant.units(grid.box)
        marked = lambda kind: sorted(
            {int(c) for k, u in zip(kinds, units) if k == kind for c in u}
        )
        fields.update(
            variant=variant.name,
            regions=variant.region_of(grid.box).reshape(n, n).tolist(),
            diagonal=[[c // n, c % n] for c in marked("diagonal")],
            windows=[[c // n, c % n] for c in marked("window")],
        )
    return fields


# -- searching -----------------------------------------------------------------
@dataclass
class Found:
    """What one budgeted search found: solutions (option numbers) or a
    count, the work done, and whether the budget stopped it."""

    solutions: list
    count: int
    nodes: int
    complete: bool
    stopped: bool


def run_search(
    problem: ExactCover,
    budget: Budget,
    *,
    limit: int | None,
    store: bool,
    given=(),
    mrv_cutoff: int = 0,
) -> Found:
    """Search ``problem`` under ``budget``: the first ``limit`` solutions
    (``store``) or their count.

    Through the library's own ``solutions`` and ``count``, as a Python
    user or the CLIs would: the same engine for the problem's kind (colors
    and bounds included), the time budget as ``time_limit`` and the
    client's departure as the ``stop`` event, which stops the search
    within a slice of a few milliseconds.  ``problem.stats`` is kept per
    thread, so threads may share one problem.
    """
    solutions: list = []
    total = 0
    try:
        if store:
            for solution in problem.solutions(
                limit,
                given=given,
                time_limit=budget.remaining(),
                mrv_cutoff=mrv_cutoff,
                stop=budget.cancel,
            ):
                solutions.append(solution)
            total = len(solutions)
        else:
            total = problem.count(
                limit,
                given=given,
                time_limit=budget.remaining(),
                mrv_cutoff=mrv_cutoff,
                stop=budget.cancel,
            )
    except BudgetExhausted as stop:
        budget.remaining()  # a client that left is told apart from time
        return Found(solutions, stop.count, stop.stats.nodes, False, True)
    stats = problem.stats
    return Found(solutions, total, stats.nodes, stats.complete, False)


def run_best(problem: ExactCover, budget: Budget, k: int) -> Found:
    """The ``k`` cheapest solutions of ``problem`` under ``budget``, as
    ``(cost, options)`` pairs in ``solutions``, through the library's own
    ``best`` (the time budget as ``time_limit``, the client's departure
    as ``stop``): what was found when the budget stopped it is an
    answer, not proven optimal."""
    try:
        found = problem.best(
            k, time_limit=budget.remaining(), stop=budget.cancel
        )
    except BudgetExhausted as stop:
        budget.remaining()  # a client that left is told apart from time
        return Found(stop.best, len(stop.best), stop.stats.nodes, False, True)
    stats = problem.stats
    return Found(found, len(found), stats.nodes, stats.complete, False)


def _stopped_message(budget: Budget) -> str:
    return f"stopped at the time budget of {budget.seconds:g} s"


def _search_grid(
    grid: Grid, variant, budget: Budget, limit: int | None, store: bool
) -> Found:
    return run_search(
        problem_for(grid.box, variant),
        budget,
        limit=limit,
        store=store,
        given=grid_givens(grid),
        mrv_cutoff=MRV_CUTOFF,
    )


# -- the Sudoku endpoints ------------------------------------------------------
def solve(params: dict, settings: Settings, budget: Budget) -> dict:
    """POST /api/solve: the solution, and whether it is the only one.

    Looks for two solutions: ``"solved"`` (exactly one), ``"multiple"``
    (two cells where the two differ are named), ``"no solution"``, or
    ``"stopped"`` (the time budget ran out; a solution found by then is
    still shown)."""
    _only(params, *GRID_FIELDS, "format")
    grid, variant = read_grid(params, settings)
    fmt = _format(params)
    found = _search_grid(grid, variant, budget, 2, True)
    grids = [grid.with_cells(decode(s, grid.n)) for s in found.solutions]
    answer = _grid_fields(grid, variant)
    answer.update(
        count=found.count,
        nodes=found.nodes,
        ms=budget.ms(),
        solution=None,
        cells=None,
    )
    if grids:
        answer["solution"] = grids[0].format(fmt)
        answer["cells"] = grids[0].cells.tolist()
    if found.stopped:
        answer["status"] = "stopped"
        answer["message"] = _stopped_message(budget) + (
            ": a solution was found but not proved to be the only one"
            if grids
            else " before a solution was found"
        )
    elif not grids:
        answer["status"] = "no solution"
        answer["message"] = "no solution: the givens cannot be completed"
    elif len(grids) == 1:
        answer["status"] = "solved"
        answer["message"] = "solved: the puzzle has exactly one solution"
    else:
        answer["status"] = "multiple"
        differ = _differing_cells(grids[0], grids[1])
        answer["second"] = grids[1].format(fmt)
        answer["second_cells"] = grids[1].cells.tolist()
        answer["differ"] = differ
        shown = ", ".join(
            f"{d['cell']} is {d['first']} or {d['second']}" for d in differ
        )
        answer["message"] = f"several solutions: {shown} (the first is shown)"
    return answer


def _differing_cells(first: Grid, second: Grid, at_most: int = 2):
    rows, cols = np.nonzero(first.cells != second.cells)
    n = first.n
    return [
        {
            "cell": _cell_name(r, c),
            "row": r,
            "col": c,
            "first": _digit(n, int(first.cells[r, c])),
            "second": _digit(n, int(second.cells[r, c])),
        }
        for r, c in zip(rows[:at_most].tolist(), cols[:at_most].tolist())
    ]


COUNT_LIMIT = 1000
# The largest limit taken (the engine counts in 64-bit integers).
MAX_LIMIT = 1 << 62


def count(params: dict, settings: Settings, budget: Budget) -> dict:
    """POST /api/count: how many solutions, counting at most ``limit``
    (default 1000; ``null`` for all).  ``verdict`` tells unique / several
    / none (``unknown`` when the budget stopped the count before two)."""
    _only(params, *GRID_FIELDS, "limit")
    grid, variant = read_grid(params, settings)
    limit = (
        _positive(params, "limit", COUNT_LIMIT, MAX_LIMIT)
        if params.get("limit", COUNT_LIMIT) is not None
        else None
    )
    found = _search_grid(grid, variant, budget, limit, False)
    answer = _grid_fields(grid, variant)
    total = found.count
    verdict = (
        "several"
        if total >= 2
        else "unknown"
        if found.stopped
        else "unique"
        if total == 1
        else "none"
    )
    answer.update(
        count=total,
        limit=limit,
        # Whole, as /api/exact-cover says it: not stopped, not capped.
        complete=not found.stopped and (limit is None or total < limit),
        verdict=verdict,
        nodes=found.nodes,
        ms=budget.ms(),
    )
    plural = "" if total == 1 else "s"
    if found.stopped:
        answer["status"] = "stopped"
        answer["message"] = (
            f"{_stopped_message(budget)} after {total} solution{plural}"
        )
    elif limit is not None and total >= limit:
        answer["status"] = "limit"
        answer["message"] = (
            f"at least {total} solution{plural} (the count "
            f"stops at the limit, {limit})"
        )
    else:
        answer["status"] = "counted"
        answer["message"] = f"{total} solution{plural}"
    return answer


def hint(params: dict, settings: Settings, budget: Budget) -> dict:
    """POST /api/hint: one empty cell and its digit, from the solution:
    the empty cell with the fewest candidates left by the givens."""
    _only(params, *GRID_FIELDS)
    grid, variant = read_grid(params, settings)
    found = _search_grid(grid, variant, budget, 2, True)
    answer = _grid_fields(grid, variant)
    answer.update(nodes=found.nodes, ms=budget.ms())
    if not found.solutions:
        answer["status"] = "stopped" if found.stopped else "no solution"
        answer["message"] = (
            _stopped_message(budget)
            if found.stopped
            else "no hint: the puzzle has no solution"
        )
        return answer
    if grid.is_complete():
        answer["status"] = "complete"
        answer["message"] = "no hint: every cell is filled"
        return answer
    solution = grid.with_cells(decode(found.solutions[0], grid.n))
    r, c, left = _most_constrained(grid)
    digit = _digit(grid.n, int(solution.cells[r, c]))
    answer.update(
        status="hint",
        cell=_cell_name(r, c),
        row=r,
        col=c,
        digit=digit,
        candidates=left,
    )
    note = (
        ""
        if len(found.solutions) == 1 and not found.stopped
        else " (from one of the puzzle's solutions: it has several)"
        if len(found.solutions) > 1
        else " (from a solution not yet proved unique)"
    )
    answer["message"] = (
        f"hint: {_cell_name(r, c)} is {digit}; the givens "
        f"leave it {left} candidate"
        f"{'' if left == 1 else 's'}{note}"
    )
    return answer


def _most_constrained(grid: Grid) -> tuple[int, int, int]:
    """The empty cell with the fewest digits not yet in its row, column
    or box (the first in reading order on ties), and that number."""
    n = grid.n
    rows, cols = grid.box
    cells = grid.cells
    seen = np.zeros((n, n, n + 1), bool)  # seen[r, c, d]: d rules out (r, c)
    r, c = np.nonzero(cells)
    d = cells[r, c]
    in_row = np.zeros((n, n + 1), bool)
    in_col = np.zeros((n, n + 1), bool)
    in_box = np.zeros((n, n + 1), bool)
    in_row[r, d] = True
    in_col[c, d] = True
    in_box[(r // rows) * rows + c // cols, d] = True
    rr, cc = np.indices((n, n))
    seen = in_row[rr] | in_col[cc] | in_box[(rr // rows) * rows + cc // cols]
    left = n - seen[:, :, 1:].sum(axis=2)
    left = np.where(cells == 0, left, n + 1)
    k = int(np.argmin(left))
    return k // n, k % n, int(left.flat[k])


def parse_puzzle(params: dict, settings: Settings) -> dict:
    """POST /api/parse: a pasted puzzle read as the CLI reads it, for the
    page's grid (no search).  Clashing givens are listed, not refused."""
    _only(params, *GRID_FIELDS)
    grid, variant = read_grid(params, settings, check=False)
    answer = _grid_fields(grid, variant)
    answer.update(
        cells=grid.cells.tolist(),
        puzzle=grid.format("line"),
        message=clash(grid, variant)[0],
        conflicts=clash(grid, variant)[1],
    )
    return answer


# -- batches --------------------------------------------------------------------
# A batch is solved chunk by chunk (solve_many, one engine call each), the
# budget and the client looked at between chunks.  The first chunk is
# BATCH_FIRST_CHUNK puzzles; later ones are sized from the time per puzzle
# so far to last about BATCH_CHUNK_SECONDS (and never past the budget),
# between BATCH_MIN_CHUNK and BATCH_MAX_CHUNK puzzles.
BATCH_FIRST_CHUNK = 256
BATCH_MIN_CHUNK = 16
BATCH_MAX_CHUNK = 4096
BATCH_CHUNK_SECONDS = 0.25
# Each puzzle of a batch stops after this many nodes (status "unknown", as
# with `sudoku solve --max-nodes`); no ordinary 9x9 puzzle comes near it.
BATCH_MAX_NODES = 2_000_000
BATCH_MAX_PUZZLES = 100_000


def _check_size(number: int, text: str, box, settings: Settings) -> None:
    """Refuse a batch's puzzle larger than the server takes, before any
    search (a line of up to max_size**2 characters cannot be)."""
    if len(text) <= settings.max_size**2:
        return
    try:
        n = parse(text, box).n
    except InvalidPuzzle:
        return  # solve_many reports it, as "invalid"
    if n > settings.max_size:
        raise RequestError(f"puzzle {number}: {_too_big(n, settings)}")


def solve_many(params: dict, settings: Settings, budget: Budget) -> dict:
    """POST /api/solve-many: a batch, as ``sudoku solve FILE`` solves it.

    ``puzzles``: a list of puzzles, or text with one puzzle a line (text
    after the puzzle and a space is a comment).  ``limit`` 2 (default)
    checks uniqueness, 1 stops at the first solution.  ``text`` is the
    CLI's output for the batch (a solution, or ``<grid> <tag>``, a line
    per puzzle); ``results`` the same per puzzle.  When the budget runs
    out, the puzzles done so far are answered and ``status`` is
    ``"stopped"``.
    """
    from ..batch_text import TAGS, batch_entry, entry, without_comment
    from ..lines import solve_entries

    _only(params, "puzzles", "box", "format", "limit")
    box = _box(params)
    fmt = _format(params)
    limit = _positive(params, "limit", 2, 2)
    source = params.get("puzzles")
    if isinstance(source, str):
        entries = [
            (k, line.strip())
            for k, line in enumerate(source.splitlines(), 1)
            if line.strip()
        ]
        entries = [(k, without_comment(line, box)) for k, line in entries]
    elif isinstance(source, list) and all(isinstance(p, str) for p in source):
        entries = list(enumerate(source, 1))
    else:
        raise RequestError(
            "'puzzles' must be a list of puzzles or text "
            "with one puzzle a line"
        )
    if box is not None and box[0] * box[1] > settings.max_size:
        raise RequestError(_too_big(box[0] * box[1], settings))
    if len(entries) > BATCH_MAX_PUZZLES:
        raise RequestError(
            f"a batch holds at most {BATCH_MAX_PUZZLES} "
            f"puzzles, this one {len(entries)}"
        )
    for number, text in entries:
        _check_size(number, text, box, settings)
    style = SimpleNamespace(
        format=fmt or "same", count=False, unique=False, box=box
    )
    results, lines = [], []
    summary = dict.fromkeys(STATUSES, 0)
    done = 0
    chunk = BATCH_FIRST_CHUNK
    stopped = False
    while done < len(entries):
        # The budget counts from admission, waiting for a worker included.
        if budget.remaining() <= 0:
            stopped = True
            break
        part = entries[done : done + chunk]
        t0 = time.perf_counter()
        try:
            found = solve_entries(
                [text for _, text in part],
                box,
                format=fmt or "same",
                limit=limit,
                max_nodes=BATCH_MAX_NODES,
                threads=1,
                time_limit=budget.remaining(),
                stop=budget.cancel,
            )
        except Stopped:  # the chunk is dropped; those before it are kept
            budget.remaining()  # a client that left is told apart
            stopped = True
            break
        per_puzzle = max(time.perf_counter() - t0, 1e-6) / len(part)
        for (number, text), (result, shown) in zip(part, found):
            summary[result.status] += 1
            results.append(
                {
                    "line": number,
                    "status": result.status,
                    "solution": shown,
                    "error": result.error,
                }
            )
            if shown is not None:  # what batch_entry writes, formatted once
                lines.append(
                    entry(shown, TAGS[result.status], number, number == 1)
                )
            else:
                lines.append(
                    batch_entry(number, text, result, style, number == 1)
                )
        done += len(part)
        seconds = min(BATCH_CHUNK_SECONDS, budget.remaining())
        chunk = int(
            min(BATCH_MAX_CHUNK, max(BATCH_MIN_CHUNK, seconds / per_puzzle))
        )
    message = f"{done} of {len(entries)} puzzles: " + ", ".join(
        f"{v} {k}" for k, v in summary.items() if v
    )
    return {
        "status": "stopped" if stopped else "done",
        "message": (_stopped_message(budget) + "; " if stopped else "")
        + message,
        "puzzles": len(entries),
        "done": done,
        "summary": summary,
        "results": results,
        "text": "".join(lines),
        "ms": budget.ms(),
    }


# -- bundled puzzles -----------------------------------------------------------
def _bundled() -> dict[str, list[str]]:
    sets: dict[str, list[str]] = {}
    text = (
        resources.files(__package__).joinpath("puzzles.txt").read_text("utf-8")
    )
    for line in text.splitlines():
        if line.strip() and not line.startswith("#"):
            name, puzzle = line.split()
            sets.setdefault(name, []).append(puzzle)
    return sets


BUNDLED = _bundled()
_rng = random.Random()


def random_puzzle(params: dict, settings: Settings) -> dict:
    """POST /api/random: a puzzle from a bundled set (``set``: easy, hard,
    16x16), relabelled and shuffled into an equivalent one."""
    _only(params, "set", "seed")
    name = _field(params, "set", str, "easy", what="a set name")
    if name not in BUNDLED:
        raise RequestError(
            f"no bundled set {shorten(name)} (sets: {', '.join(BUNDLED)})"
        )
    seed = _field(params, "seed", int, None, what="an integer")
    rng = random.Random(seed) if seed is not None else _rng
    puzzle = parse(rng.choice(BUNDLED[name]))
    symmetry = Symmetry.random(
        np.random.default_rng(rng.getrandbits(64)), puzzle.box
    )
    shuffled = puzzle.with_cells(symmetry.apply(puzzle.cells[None])[0])
    answer = _grid_fields(shuffled)
    answer.update(
        set=name, puzzle=shuffled.format("line"), cells=shuffled.cells.tolist()
    )
    return answer


# -- exact cover in general ----------------------------------------------------
BUILDERS = ("dlx", "queens", "langford", "pentomino")
MAX_BUILDER_N = 64
MAX_SHOWN = 100


def _pentomino(params: dict):
    board = _field(
        params,
        "board",
        str,
        "6x10",
        what="a board (\"6x10\" or ASCII art: '.' a cell, '#' a hole)",
    )
    pieces = _field(
        params, "pieces", str, "pentominoes", what="a piece set name"
    )
    try:
        piece_set(pieces)
    except ValueError as error:
        raise RequestError(str(error)) from None
    if len(board) > 10_000:
        raise RequestError("'board' is longer than 10000 characters")
    try:
        puzzle = Polyomino(board, pieces)
    except ValueError as error:
        raise RequestError(str(error)) from None
    distinct = _field(params, "distinct", bool, True, what="true or false")
    problem = puzzle.problem
    if distinct:
        try:
            problem = puzzle.distinct_problem()
        except ValueError:
            raise RequestError(
                "this board has no single problem with one solution per "
                'tiling up to symmetry; ask with "distinct": false'
            ) from None

    def picture(solution):
        tiling = puzzle.decode(solution, problem)
        assert tiling is not None  # one copy a piece: every tiling decodes
        drawn = {
            "text": puzzle.render(tiling),
            "pieces": [name for name, _ in tiling],
        }
        if hasattr(puzzle, "svg"):  # dlx.draw, where this version has it
            drawn["svg"] = puzzle.svg(tiling)
        return drawn

    return problem, picture, distinct


def _problem_of(params: dict):
    """``(problem, picture(solution) -> dict, distinct)`` for a request."""
    builder = _field(params, "builder", str, "dlx", what="a builder name")
    if builder not in BUILDERS:
        raise RequestError(
            f"unknown builder {shorten(builder)} (choose {', '.join(BUILDERS)})"
        )
    if builder == "dlx":
        text = params.get("problem")
        if not isinstance(text, str) or not text.strip():
            raise RequestError(
                "the request has no 'problem' (an exact-cover "
                "problem in Knuth's DLX format)"
            )
        try:
            problem = loads(text, max_name_length=None)
        except DLXFormatError as error:
            raise RequestError(str(error)) from None

        costs = costs_of(problem)  # read once, not per line

        def picture(solution):  # option lines as dlx prints them
            return {
                "text": "\n".join(solution_lines(problem, solution, costs))
            }

        return problem, picture, False
    if builder == "pentomino":
        return _pentomino(params)
    n = _positive(params, "n", None, MAX_BUILDER_N)
    if n is None:
        raise RequestError(
            f"the {builder} builder needs 'n', a positive integer"
        )
    if builder == "queens":
        problem = queens_builder.queens(n)
        return (
            problem,
            lambda s: {"text": queens_builder.render(problem, s)},
            False,
        )
    distinct = _field(params, "distinct", bool, True, what="true or false")
    problem = langford_builder.langford(n, distinct)
    return (
        problem,
        lambda s: {"text": langford_builder.render(problem, s)},
        distinct,
    )


#: The fields of /api/exact-cover that each builder reads.
BUILDER_FIELDS = {
    "dlx": ("problem",),
    "queens": ("n",),
    "langford": ("n", "distinct"),
    "pentomino": ("board", "pieces", "distinct"),
}
#: /api/exact-cover's modes: the search each runs (``dlx.options``).
MODE_SEARCHES = {"count": "count", "solutions": "solutions", "best": "best"}


def check_applicable(params: dict, mode: str) -> None:
    """Refuse, in one sentence, a field of an /api/exact-cover request
    that would do nothing: another builder's, or a search field (a web
    field of ``dlx.options``) that the ``mode``'s search does not take.
    (Unknown fields are refused by ``_only``.)"""
    from dlx.options import OPTIONS, SEARCHES

    builder = params.get("builder") or "dlx"
    if isinstance(builder, str) and builder in BUILDER_FIELDS:
        for key in params:
            owners = [b for b, keys in BUILDER_FIELDS.items() if key in keys]
            if owners and key not in BUILDER_FIELDS[builder]:
                raise RequestError(
                    f"'{key}' does not apply to the {builder} builder "
                    f"(it is for {' and '.join(owners)})"
                )
    search = MODE_SEARCHES[mode]
    taken = {
        o.web_field
        for o in OPTIONS.values()
        if o.web_field is not None and search in o.searches
    }
    for option in OPTIONS.values():
        if option.web_field in params and option.web_field not in taken:
            raise RequestError(
                f"{SEARCHES[search]} does not take '{option.web_field}'"
            )


def exact_cover(params: dict, settings: Settings, budget: Budget) -> dict:
    """POST /api/exact-cover: count the solutions of a problem (``mode``
    count, up to ``limit``), list the first ``limit`` (``mode``
    solutions, default 1, at most 100) or the ``limit`` cheapest (``mode``
    best, default 1, at most 100: options cost ``|n`` as in Knuth's DLX5,
    none meaning 0, so a problem without costs has every solution at 0),
    each as text: option lines, a queens board, a Langford sequence or a
    tiling's letter grid (and its ``cost`` in mode best)."""
    _only(
        params,
        "builder",
        "mode",
        "limit",
        "problem",
        "n",
        "board",
        "pieces",
        "distinct",
    )
    mode = _field(
        params, "mode", str, "count", what="count, solutions or best"
    )
    if mode not in ("count", "solutions", "best"):
        raise RequestError(
            f"'mode' must be count, solutions or best, got {shorten(mode)}"
        )
    check_applicable(params, mode)
    if mode == "count":
        limit = _positive(params, "limit", None, MAX_LIMIT)
    else:
        limit = _positive(params, "limit", 1, MAX_SHOWN)
    problem, picture, distinct = _problem_of(params)
    if mode == "best":
        return _cheapest(params, problem, picture, distinct, budget, limit)
    found = run_search(problem, budget, limit=limit, store=mode == "solutions")
    total = found.count
    plural = "" if total == 1 else "s"
    answer = {
        "builder": params.get("builder") or "dlx",
        "mode": mode,
        "items": len(problem.items),
        "options": len(problem.options),
        "count": total,
        "complete": found.complete,
        "distinct": distinct,
        "nodes": found.nodes,
        "ms": budget.ms(),
        "solutions": [dict(picture(s), options=s) for s in found.solutions],
    }
    if found.stopped:
        answer["status"] = "stopped"
        answer["message"] = (
            f"{_stopped_message(budget)} after {total} solution{plural}"
        )
    elif limit is not None and total >= limit:
        answer["status"] = "limit"
        answer["message"] = (
            f"{total} solution{plural} (stopped at the "
            f"limit; there may be more)"
        )
    else:
        answer["status"] = "counted" if total else "no solution"
        answer["message"] = (
            f"{total} solution{plural}" if total else "no solution"
        )
    if distinct and answer["builder"] != "dlx":
        answer["message"] += " up to symmetry"
    return answer


def _cheapest(params, problem, picture, distinct, budget, k) -> dict:
    """``exact_cover``'s mode best: the ``k`` cheapest, cheapest first."""
    found = run_best(problem, budget, k)
    total = found.count
    answer = {
        "builder": params.get("builder") or "dlx",
        "mode": "best",
        "items": len(problem.items),
        "options": len(problem.options),
        "count": total,
        "complete": found.complete,
        "distinct": distinct,
        "nodes": found.nodes,
        "ms": budget.ms(),
        "solutions": [
            dict(picture(s), options=s, cost=cost)
            for cost, s in found.solutions
        ],
    }
    costs = [cost for cost, _ in found.solutions]
    span = (
        ""
        if not costs
        else (
            f" (cost {costs[0]})"
            if costs[0] == costs[-1]
            else f" (costs {costs[0]} to {costs[-1]})"
        )
    )
    if found.stopped:
        answer["status"] = "stopped"
        answer["message"] = (
            f"{_stopped_message(budget)}: the {total} "
            f"cheapest found so far{span}, not proven "
            f"optimal"
        )
    elif total:
        answer["status"] = "best"
        answer["message"] = (
            f"the cheapest solution{span}"
            if total == 1
            else f"the {total} cheapest solutions{span}"
        )
        if total < k:
            answer["message"] += f" (all {total} there are)"
    else:
        answer["status"] = "no solution"
        answer["message"] = "no solution"
    if distinct and answer["builder"] != "dlx" and total:
        answer["message"] += " up to symmetry"
    return answer


# -- generating and rating ----------------------------------------------------
# Generated puzzles are kept to this size here: larger ones take seconds
# to make.
MAX_GENERATED = 16


def features() -> dict:
    """What this server can do beyond solving (the page adapts to it)."""
    return {
        "generate": True,
        "rate": True,
        "levels": list(LEVELS),
        "variants": list(VARIANTS),
        "sets": list(BUNDLED),
    }


def generate(params: dict, settings: Settings, budget: Budget) -> dict:
    """POST /api/generate: a new minimal puzzle with one solution, of
    ``size`` (or ``box``), ``difficulty`` (a level) and ``symmetry``;
    ``seed`` makes it reproducible.  The generator gets the time left of
    the budget and its cancel flag: ``"status": "stopped"`` when the
    time runs out first."""
    _only(params, "size", "box", "difficulty", "symmetry", "seed")
    box = _box(params)
    size = _positive(
        params, "size", box[0] * box[1] if box else 9, MAX_GENERATED
    )
    seed = _field(params, "seed", int, None, what="an integer")
    difficulty = _field(params, "difficulty", str, None, what="a level")
    symmetry = _field(params, "symmetry", str, None, what="a symmetry")
    assert size is not None  # it has a default
    try:
        grid = make_puzzle(
            size,
            box,
            difficulty=difficulty,
            symmetry=symmetry,
            seed=seed,
            time_limit=budget.remaining(),
            stop=budget.cancel,
        )
    except Stopped:
        budget.remaining()  # a client that left is told apart from time
        return {
            "status": "stopped",
            "ms": budget.ms(),
            "message": f"{_stopped_message(budget)} before a puzzle was made",
        }
    except (ValueError, TypeError) as error:  # InvalidPuzzle, UnknownLevel
        raise RequestError(str(error)) from None
    except GenerationFailed as error:
        budget.remaining()
        return {"status": "failed", "message": str(error), "ms": budget.ms()}
    budget.remaining()
    answer = _grid_fields(grid)
    answer.update(
        status="generated",
        puzzle=grid.format("line"),
        cells=grid.cells.tolist(),
        givens=grid.givens,
        difficulty=difficulty,
        ms=budget.ms(),
        message=f"a new {grid.n}x{grid.n} puzzle with "
        f"{grid.givens} givens" + (f", {difficulty}" if difficulty else ""),
    )
    return answer


def rate(params: dict, settings: Settings, budget: Budget) -> dict:
    """POST /api/rate: how hard the puzzle is for the engine (``score``,
    ``level``, mean ``nodes``); a puzzle without exactly one solution is
    answered ``"status": "unrated"``, one whose rating outlasts the budget
    ``"stopped"``."""
    _only(params, *GRID_FIELDS)
    grid, variant = read_grid(params, settings)
    try:
        rating = rate_puzzle(
            grid,
            variant=variant,
            time_limit=budget.remaining(),
            stop=budget.cancel,
        )
    except Stopped:
        budget.remaining()
        return {
            "status": "stopped",
            "ms": budget.ms(),
            "message": f"{_stopped_message(budget)} before the "
            f"rating was done",
        }
    except InvalidPuzzle as error:
        raise RequestError(str(error)) from None
    except ValueError as error:  # not exactly one solution
        return {"status": "unrated", "message": str(error), "ms": budget.ms()}
    answer = _grid_fields(grid, variant)
    answer.update(
        status="rated",
        score=round(rating.score, 2),
        level=rating.level,
        nodes=round(rating.nodes, 1),
        ms=budget.ms(),
        message=f"rating: {rating.level} (score {rating.score:.2f})",
    )
    return answer


def warm_up() -> None:
    """Compile (or load) the engine's kernels before the first click."""
    budget = Budget(60.0)
    solve({"puzzle": "." * 81}, Settings(), budget)
    count({"puzzle": "." * 16, "limit": 3}, Settings(), budget)
