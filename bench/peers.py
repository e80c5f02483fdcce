"""Every solver the benchmarks compare, behind one signature, in one registry.

Glossary as in ``dlx``: an *instance* is an exact-cover problem given as
primary items, secondary items and options (lists of item names, in file
order); a *puzzle* is an 81-character Sudoku string (``.`` or ``0`` blank).

A solver is a ``Peer`` with up to two capabilities, each split into an
untimed ``prepare_*`` step (convert our instance into the peer's own input)
and a timed step:

* ``count(prepared) -> (solutions, extra)`` counts every solution;
* ``solve_sudoku_batch(prepared, limit=2)`` searches each puzzle until
  ``limit`` solutions (``limit=2`` proves a puzzle unique) and returns its
  answers in the solver's own form; the untimed
  ``sudoku_answers(output, prepared) -> [(count, solution), ...]`` turns
  them into counts and 81-digit strings for validation (by default the
  output is already in that form).

``extra`` is a dict of work counters (``nodes``, ``updates``) when the
solver reports them.  A capability the peer lacks is ``None``; one it lacks
for a particular instance (say, secondary items) is named by
``unsupported(instance)``, so the tables can mark it rather than drop it;
an instance with colors (XCC) or bounds (MCC) goes only to a peer whose
``handles`` names them.  Answers are validated by the caller, outside the
timed region.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import metadata

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.environ.get(
    "DLX_BENCH_DATA",
    os.path.normpath(os.path.join(HERE, "..", "..", "shared", "data")),
)
EXACTCOVER_DIR = os.path.join(DATA, "exactcover")
SUDOKU_DIR = os.path.join(DATA, "sudoku")


# -- instances ---------------------------------------------------------------


@dataclass
class Instance:
    """An exact-cover problem in plain lists, the common input of every peer."""

    name: str
    primary: list
    secondary: list
    options: list  # list of lists of item names
    # XCC: one {item: color} per option, or None when nothing is colored.
    colors: list | None = None
    # MCC: {primary item: (u, v)} for the items not 1..1.
    bounds: dict = field(default_factory=dict)

    @property
    def kind(self) -> str:
        """ "bounds", "colors" or "plain": what a peer must handle."""
        return (
            "bounds" if self.bounds else "colors" if self.colors else "plain"
        )

    def __repr__(self):
        return (
            f"<Instance {self.name}: {len(self.primary)}+"
            f"{len(self.secondary)} items, {len(self.options)} options>"
        )


def read_dlx(path: str, name: str | None = None) -> Instance:
    """Read Knuth's DLX1/DLX2/DLX3 text format: ``|`` comments, the item
    line (a lone ``|`` before the secondary items, ``u:v|item`` or
    ``v|item`` for bounds), options (``item:color`` for a color).

    A deliberately small reader so that every peer sees the very same items
    and options in the very same order; ``dlx.formats`` is the project's
    full one.
    """
    with open(path) as f:
        text = f.read()
    if name is None:
        name = os.path.splitext(os.path.basename(path))[0]
    return parse_dlx(text, name)


def parse_dlx(text: str, name: str) -> Instance:
    """``read_dlx`` on a text."""
    primary: list = []
    secondary: list = []
    options: list = []
    colors: list = []
    bounds: dict = {}
    seen_items = False
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("|"):
            continue
        if not seen_items:
            side = primary
            for token in line.split():
                if token.startswith("|"):  # "|" alone, or "|X" (Knuth's
                    side = secondary  # programs read both)
                    token = token[1:]
                    if not token:
                        continue
                if "|" in token:  # u:v|item or v|item
                    bound, _, token = token.partition("|")
                    u, _, v = bound.rpartition(":")
                    bounds[token] = (int(u or v), int(v))
                side.append(token)
            seen_items = True
        else:
            option, painted = [], {}
            for token in line.split():
                item, _, color = token.partition(":")
                option.append(item)
                if color:
                    painted[item] = color
            options.append(option)
            colors.append(painted)
    bounds = {k: b for k, b in bounds.items() if b != (1, 1)}
    return Instance(
        name,
        primary,
        secondary,
        options,
        colors if any(colors) else None,
        bounds,
    )


def to_exact_cover(instance: Instance):
    """Our ``dlx.ExactCover`` with the instance's items and option order
    (and its colors and bounds)."""
    from dlx import ExactCover

    problem = ExactCover(
        instance.primary, instance.secondary, bounds=instance.bounds or None
    )
    if instance.colors is None:
        problem.add_options(instance.options)
    else:
        for option, painted in zip(instance.options, instance.colors):
            problem.add_option(option, colors=painted)
    return problem


def read_puzzles(path: str, limit: int | None = None) -> list[str]:
    """The first ``limit`` puzzles of a one-puzzle-a-line file."""
    puzzles = []
    with open(path) as f:
        for line in f:
            text = line.strip()
            if not text or text.startswith("#"):
                continue
            text = text.split()[0].replace("0", ".")
            if len(text) != 81:
                continue
            puzzles.append(text)
            if limit is not None and len(puzzles) >= limit:
                break
    return puzzles


# -- Sudoku as exact cover, reduced per puzzle like Knuth's sudoku-dlx --------


def _box(r: int, c: int) -> int:
    return (r // 3) * 3 + c // 3


# Every item name in family order, and every (cell, digit)'s four items,
# worked out once: a peer's setup then costs what a careful user's would.
_ITEMS = [
    f"{family}{a}{b}"
    for family in "prcb"
    for a in range(9)
    for b in (range(9) if family == "p" else range(1, 10))
]
_CELL_ITEMS = [
    [
        (f"p{r}{c}", f"r{r}{d}", f"c{c}{d}", f"b{_box(r, c)}{d}")
        for d in range(1, 10)
    ]
    for r in range(9)
    for c in range(9)
]


def sudoku_instance(puzzle: str) -> tuple[Instance, list[tuple[int, int]]]:
    """The exact cover of one puzzle with the givens' items left out.

    Returns the instance and, per option, its ``(cell, digit)``: an option is
    written only for an empty cell and a digit that no given in its row,
    column or box forbids.  Items are ``p<r><c>``, ``r<r><d>``, ``c<c><d>``,
    ``b<b><d>``.
    """
    used = set()
    for cell, ch in enumerate(puzzle):
        if ch not in ".0":
            used.update(_CELL_ITEMS[cell][int(ch) - 1])
    primary = [name for name in _ITEMS if name not in used]
    options, meaning = [], []
    for cell, ch in enumerate(puzzle):
        if ch not in ".0":
            continue
        for d, items in enumerate(_CELL_ITEMS[cell], 1):
            if (
                items[1] not in used
                and items[2] not in used
                and items[3] not in used
            ):
                options.append(list(items))
                meaning.append((cell, d))
    return Instance("sudoku", primary, [], options), meaning


def fill(puzzle: str, meaning, chosen) -> str:
    """The grid with the chosen options' digits written in."""
    grid = [ch if ch not in ".0" else "0" for ch in puzzle]
    for k in chosen:
        cell, d = meaning[k]
        grid[cell] = str(d)
    return "".join(grid)


# The 27 units (rows, columns, boxes) of a 9x9 grid, as cell numbers.
_UNITS = (
    [[r * 9 + c for c in range(9)] for r in range(9)]
    + [[r * 9 + c for r in range(9)] for c in range(9)]
    + [
        [(br + r) * 9 + bc + c for r in range(3) for c in range(3)]
        for br in (0, 3, 6)
        for bc in (0, 3, 6)
    ]
)


def is_solved_grid(puzzle: str, grid: str) -> bool:
    """Is ``grid`` a complete valid Sudoku that keeps every given?  (Written
    here, apart from ``sudoku.is_valid_solution``, so that the benchmark
    does not check the project with its own code.)"""
    if grid is None or len(grid) != 81 or not grid.isdigit() or "0" in grid:
        return False
    if any(p not in ".0" and p != g for p, g in zip(puzzle, grid)):
        return False
    return all(len({grid[i] for i in unit}) == 9 for unit in _UNITS)


# -- the registry ------------------------------------------------------------


@dataclass
class Peer:
    name: str
    dist: str  # distribution name, for the version
    kind: str  # one line: what it is
    prepare_count: Callable | None = None
    count: Callable | None = None
    prepare_sudoku: Callable | None = None
    solve_sudoku_batch: Callable | None = None
    unsupported: Callable = field(default=lambda instance: None)
    # False when the prepared input is used up by a run (a stateful solver
    # object), so every timed run needs a fresh one.
    reusable: bool = True
    # Untimed: (puzzles) -> {"nodes": .., "updates": ..} for the batch.
    sudoku_work: Callable | None = None
    # Untimed: (batch output, prepared) -> [(count, 81-digit string), ...].
    sudoku_answers: Callable = field(default=lambda out, prepared: out)

    # Where it comes from when it is not a Python distribution: a callable
    # returning its version, or "not installed".
    local_version: Callable | None = None
    # How to get it, for the "not installed" row.
    install_hint: str = "pip install -e '.[compare]'"
    # The kinds of instance it takes (Instance.kind): plain exact cover,
    # colors (XCC), bounds (MCC, which may also carry colors).
    handles: tuple = ("plain",)

    def version(self) -> str:
        if self.local_version is not None:
            return self.local_version()
        try:
            return metadata.version(self.dist)
        except metadata.PackageNotFoundError:
            return "not installed"


PEERS: dict[str, Peer] = {}


def register(peer: Peer) -> Peer:
    PEERS[peer.name] = peer
    return peer


# ---- this project ----


def _ours_count(problem, threads=1):
    n = problem.count(threads=threads)
    s = problem.stats
    return n, {"nodes": s.nodes, "updates": s.updates}


def _ours_count_mt(problem):
    """``count`` on every core (``threads=0``)."""
    return _ours_count(problem, threads=0)


def _ours_solve_sudoku_batch(puzzles, limit=2, threads=1):
    """``sudoku.solve_many`` on one thread (the peers all run on one):
    ``Result`` objects holding decoded grids."""
    import sudoku

    return sudoku.solve_many(puzzles, limit=limit, threads=threads)


def _ours_solve_sudoku_batch_mt(puzzles, limit=2):
    """``sudoku.solve_many`` with its default threads (one per core)."""
    return _ours_solve_sudoku_batch(puzzles, limit, threads=0)


def _ours_sudoku_answers(results, prepared):
    return [(int(r.count), _grid_string(r.grid)) for r in results]


def ours_sudoku_work(puzzles, limit=2):
    """Nodes and updates of ``solve_many`` over ``puzzles`` (an untimed
    extra run): every engine call on the cached 9x9 cover is tallied."""
    import sudoku

    problem = sudoku.base_problem(3, 3)
    original = problem.solve_batch
    total = {"nodes": 0, "updates": 0}

    def tally(*args, **kwargs):
        result = original(*args, **kwargs)
        total["nodes"] += int(result.nodes.sum())
        total["updates"] += int(result.updates.sum())
        return result

    problem.solve_batch = tally
    try:
        _ours_solve_sudoku_batch(puzzles, limit)
    finally:
        del problem.solve_batch
    return total


def _grid_string(g) -> str | None:
    if g is None:
        return None
    if isinstance(g, str):
        return g.replace(".", "0")
    a = np.asarray(getattr(g, "cells", g)).ravel()
    return (a.astype(np.uint8) + ord("0")).tobytes().decode()


def _project_version() -> str:
    """This project's version; it is there (run from the checkout) even
    when the distribution is not installed."""
    try:
        return metadata.version("dlx-toolkit")
    except metadata.PackageNotFoundError:
        return "checkout"


register(
    Peer(
        "dlx-toolkit",
        "dlx-toolkit",
        'this project (numba; algorithm="auto": DLX1 or SSXC1), one thread',
        to_exact_cover,
        _ours_count,
        list,
        _ours_solve_sudoku_batch,
        sudoku_work=ours_sudoku_work,
        sudoku_answers=_ours_sudoku_answers,
        local_version=_project_version,
        handles=("plain", "colors", "bounds"),
    )
)

register(
    Peer(
        "dlx-toolkit-mt",
        "dlx-toolkit",
        "this project on every core (threads=0); not in the ratios",
        to_exact_cover,
        _ours_count_mt,
        list,
        _ours_solve_sudoku_batch_mt,
        sudoku_work=ours_sudoku_work,
        sudoku_answers=_ours_sudoku_answers,
        local_version=_project_version,
        handles=("plain", "colors", "bounds"),
    )
)


# ---- xcover (numba, dancing cells, Algorithm C) ----


def _xcover_prepare_count(instance):
    from xcover.solvers import input_as_arrays

    if instance.colors is None:
        return input_as_arrays(
            instance.options,
            primary=list(instance.primary),
            secondary=list(instance.secondary),
        )
    options = [
        [f"{x}:{painted[x]}" if x in painted else x for x in option]
        for option, painted in zip(instance.options, instance.colors)
    ]
    return input_as_arrays(
        options,
        primary=list(instance.primary),
        secondary=list(instance.secondary),
        colored=True,
    )


def _xcover_count(arrays):
    from xcover import algorithm_c

    n = 0
    for _ in algorithm_c(*arrays):
        n += 1
    return n, {}


def _per_puzzle(puzzles, convert):
    """Each puzzle's reduced cover, converted to the peer's input."""
    out = []
    for puzzle in puzzles:
        instance, meaning = sudoku_instance(puzzle)
        out.append((puzzle, meaning, convert(instance)))
    return out


def _xcover_prepare_sudoku(puzzles):
    return _per_puzzle(puzzles, _xcover_prepare_count)


def _xcover_solve_sudoku_batch(prepared, limit=2):
    from xcover import algorithm_c

    out = []
    for puzzle, meaning, arrays in prepared:
        found = list(itertools.islice(algorithm_c(*arrays), limit))
        out.append(
            (len(found), fill(puzzle, meaning, found[0]) if found else None)
        )
    return out


register(
    Peer(
        "xcover",
        "xcover",
        "numba, dancing cells (Algorithm C)",
        _xcover_prepare_count,
        _xcover_count,
        _xcover_prepare_sudoku,
        _xcover_solve_sudoku_batch,
        handles=("plain", "colors"),
    )
)


# ---- miniexact (C core, SWIG) ----


def _miniexact_prepare_count(instance):
    import miniexact

    if instance.kind == "plain":
        s = miniexact.miniexacts_x()
        index = {}
        for name in instance.primary:
            index[name] = s.primary(str(name))
        for name in instance.secondary:
            index[name] = s.secondary(str(name))
        for option in instance.options:
            s.add([index[x] for x in option])
        return s
    # Algorithm C (colors) or M (bounds, and colors), one node at a time.
    bounded = instance.kind == "bounds"
    s = miniexact.miniexacts_m() if bounded else miniexact.miniexacts_c()
    index = {}
    for name in instance.primary:
        index[name] = (
            s.primary(str(name), *instance.bounds.get(name, (1, 1)))
            if bounded
            else s.primary(str(name))
        )
    for name in instance.secondary:
        index[name] = s.secondary(str(name))
    codes = {}
    for option, painted in zip(
        instance.options, instance.colors or itertools.repeat({})
    ):
        for x in option:
            if x in painted:
                if painted[x] not in codes:
                    codes[painted[x]] = s.color(str(painted[x]))
                s.add(index[x], codes[painted[x]])
            else:
                s.add(index[x])
        s.add(0)
    return s


def _miniexact_count(s):
    n = 0
    while s.solve() == 10:
        n += 1
    return n, {}


def _miniexact_prepare_sudoku(puzzles):
    return _per_puzzle(puzzles, _miniexact_prepare_count)


def _miniexact_solve_sudoku_batch(prepared, limit=2):
    out = []
    for puzzle, meaning, s in prepared:
        n = 0
        first = None
        while n < limit and s.solve() == 10:
            if first is None:  # miniexact numbers options from 1
                first = [k - 1 for k in s.selected_options()]
            n += 1
        out.append((n, fill(puzzle, meaning, first) if n else None))
    return out


register(
    Peer(
        "miniexact",
        "miniexact",
        "C, Knuth's Algorithm X via SWIG",
        _miniexact_prepare_count,
        _miniexact_count,
        _miniexact_prepare_sudoku,
        _miniexact_solve_sudoku_batch,
        reusable=False,
        handles=("plain", "colors", "bounds"),
    )
)


# ---- pyxcc (Rust, PyO3) ----


def _pyxcc_prepare_count(instance):
    import pyxcc

    secondary = set(instance.secondary)
    options = []
    for k, option in enumerate(instance.options):
        options.append(
            pyxcc.Option(
                str(k),
                [str(x) for x in option if x not in secondary],
                [(str(x), "") for x in option if x in secondary],
            )
        )
    return pyxcc.Problem(
        [str(x) for x in instance.primary],
        [str(x) for x in instance.secondary],
        options,
    )


def _pyxcc_count(problem):
    import pyxcc

    return pyxcc.solve(problem, True).count(), {}


def _pyxcc_prepare_sudoku(puzzles):
    return _per_puzzle(puzzles, _pyxcc_prepare_count)


def _pyxcc_solve_sudoku_batch(prepared, limit=2):
    """pyxcc finds the first solution or all of them; all of a proper
    puzzle is one, and proving that costs the same search as ``limit=2``."""
    import pyxcc

    out = []
    for puzzle, meaning, problem in prepared:
        sols = pyxcc.solve(problem, limit != 1)
        n = sols.count()
        first = [int(x) for x in sols.first()] if n else None
        out.append(
            (min(n, limit), fill(puzzle, meaning, first) if n else None)
        )
    return out


register(
    Peer(
        "pyxcc",
        "pyxcc",
        "Rust via PyO3, exact cover with colours",
        _pyxcc_prepare_count,
        _pyxcc_count,
        _pyxcc_prepare_sudoku,
        _pyxcc_solve_sudoku_batch,
    )
)


# ---- exact-cover (C extension, dense boolean matrix) ----


def _matrix(instance):
    index = {x: k for k, x in enumerate(instance.primary)}
    a = np.zeros((len(instance.options), len(index)), np.bool_)
    for r, option in enumerate(instance.options):
        for x in option:
            a[r, index[x]] = True
    return a


def _exact_cover_prepare_count(instance):
    return np.ascontiguousarray(_matrix(instance))


def _exact_cover_count(matrix):
    from exact_cover import get_solution_count

    return int(get_solution_count(matrix)), {}


def _exact_cover_prepare_sudoku(puzzles):
    return _per_puzzle(puzzles, _exact_cover_prepare_count)


def _exact_cover_solve_sudoku_batch(prepared, limit=2):
    """exact-cover has no limit: it counts every solution (for a proper
    puzzle, the same search as ``limit=2``) and finds one by a second call,
    made by ``_exact_cover_sudoku_answers`` outside the timed region."""
    from exact_cover import get_solution_count

    return [
        (min(int(get_solution_count(m)), limit), None) for _, _, m in prepared
    ]


def _exact_cover_sudoku_answers(counts, prepared):
    """The untimed half of exact-cover's batch: one solution per puzzle."""
    from exact_cover import get_exact_cover
    from exact_cover.error import NoSolution

    answers = []
    for (n, _), (puzzle, meaning, m) in zip(counts, prepared):
        try:
            chosen = [int(k) for k in get_exact_cover(m)]
        except NoSolution:
            answers.append((n, None))
            continue
        answers.append((n, fill(puzzle, meaning, chosen)))
    return answers


register(
    Peer(
        "exact-cover",
        "exact-cover",
        "C extension, dense 0/1 matrix",
        _exact_cover_prepare_count,
        _exact_cover_count,
        _exact_cover_prepare_sudoku,
        _exact_cover_solve_sudoku_batch,
        sudoku_answers=_exact_cover_sudoku_answers,
        unsupported=lambda inst: (
            "no secondary items" if inst.secondary else None
        ),
    )
)


# ---- plain-Python constraint propagation (ours, for reference) ----


def _cp_solve_sudoku_batch(puzzles, limit=2):
    from norvig_style import solve as cp_solve

    return [cp_solve(p, limit) for p in puzzles]


register(
    Peer(
        "python-cp",
        "dlx-toolkit",
        "pure Python constraint propagation + search (bench/norvig_style.py)",
        None,
        None,
        list,
        _cp_solve_sudoku_batch,
        local_version=_project_version,
    )
)


# ---- Knuth's DLX1 and SSXC1 (C), when builds of them are at hand ----
#
# Not installable from a package registry: build them from dlx1.w and
# ssxc1.w (ctangle, then gcc -O3; see bench/README.md) and point DLX1 and
# SSXC1 at the binaries.  Each timed run is one process reading the
# instance from a file, so its time includes process start and input (for
# these files, under 0.1% of the mems and a few ms).


def _knuth_binary(env: str) -> str | None:
    path = os.environ.get(env)
    return path if path and os.access(path, os.X_OK) else None


def _dlx1_binary() -> str | None:
    return _knuth_binary("DLX1")


def _knuth_prepare_count(instance):
    """The instance as a DLX file (Knuth's programs read stdin)."""
    import atexit
    import tempfile

    with tempfile.NamedTemporaryFile("w", suffix=".dlx", delete=False) as f:
        atexit.register(os.unlink, f.name)
        f.write(
            " ".join(
                _bounded(x, instance.bounds.get(x)) for x in instance.primary
            )
        )
        if instance.secondary:
            f.write(" | " + " ".join(instance.secondary))
        f.write("\n")
        for option, painted in zip(
            instance.options, instance.colors or itertools.repeat({})
        ):
            f.write(
                " ".join(
                    f"{x}:{painted[x]}" if x in painted else x for x in option
                )
                + "\n"
            )
    return f.name


def _bounded(item, bound):
    """An item on DLX3's item line: ``u:v|item`` (``v|item`` for v..v)."""
    if bound is None:
        return item
    u, v = bound
    return f"{v}|{item}" if u == v else f"{u}:{v}|{item}"


_dlx1_prepare_count = _knuth_prepare_count

# What DLX1 and SSXC1 print last (DLX2 and DLX3 add their cleansings).
DLX1_TOTALS = (
    r"Altogether (\d+) solutions?, [\d+-]+ mems, (\d+) updates,"
    r"(?: \d+ cleansings,)? \d+ bytes, (\d+) nodes"
)


def _knuth_count(env: str, path: str):
    import re
    import subprocess

    with open(path) as f:
        done = subprocess.run(
            [_knuth_binary(env)],
            stdin=f,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            check=True,
        )
    found = re.search(DLX1_TOTALS, done.stderr)
    if not found:
        raise RuntimeError(f"no totals in {env}'s output: {done.stderr!r}")
    n, updates, nodes = (int(x) for x in found.groups())
    return n, {"nodes": nodes, "updates": updates}


def _dlx1_count(path):
    return _knuth_count("DLX1", path)


def _ssxc1_count(path):
    return _knuth_count("SSXC1", path)


register(
    Peer(
        "dlx1",
        "dlx1",
        "Knuth's DLX1 in C (gcc -O3), a local build ($DLX1)",
        _knuth_prepare_count,
        _dlx1_count,
        local_version=lambda: "dlx1.w" if _dlx1_binary() else "not installed",
        install_hint="build dlx1.w and set DLX1 to the binary "
        "(bench/README.md)",
    )
)


def _knuth_search_count(env: str, path: str):
    """DLX2/DLX3: ``_knuth_count``, plus ``startup`` in the extras: the
    wall time of the same run stopped before its first node (Knuth's
    ``T0`` option: process start and input), which the caller subtracts
    from the whole call's time to time the search alone."""
    import subprocess
    import time

    with open(path) as f:
        t0 = time.perf_counter()
        # (It may end on a signal: stopping there, it divides by zero
        # nodes when it reports.)
        subprocess.run(
            [_knuth_binary(env), "T0"],
            stdin=f,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        startup = time.perf_counter() - t0
    n, extra = _knuth_count(env, path)
    extra["startup"] = startup
    return n, extra


for _env, _kind, _what in (
    ("DLX2", "colors", "colors, Algorithm C"),
    ("DLX3", "bounds", "multiplicities, Algorithm M"),
):
    register(
        Peer(
            _env.lower(),
            _env.lower(),
            f"Knuth's {_env} ({_what}) in C, a local build (${_env}); its time "
            f"less that of the same run stopped before the search (T0)",
            _knuth_prepare_count,
            lambda path, env=_env: _knuth_search_count(env, path),
            local_version=lambda env=_env: (
                f"{env.lower()}.w" if _knuth_binary(env) else "not installed"
            ),
            install_hint=f"build {_env.lower()}.w and set {_env} to the "
            f"binary (bench/README.md)",
            handles=(_kind,),
        )
    )


register(
    Peer(
        "ssxc1",
        "ssxc1",
        "Knuth's SSXC1 (dancing cells) in C, a local build ($SSXC1)",
        _knuth_prepare_count,
        _ssxc1_count,
        local_version=lambda: (
            "ssxc1.w" if _knuth_binary("SSXC1") else "not installed"
        ),
        install_hint="build ssxc1.w and set SSXC1 to the binary "
        "(bench/README.md)",
    )
)


# ---- this project's memoized count, and dxz (memoized DLX in C++) ----


def _ours_count_memo(problem):
    """``count(memo=True)``: the count of each subproblem remembered."""
    n = problem.count(memo=True)
    s = problem.stats
    return n, {"nodes": s.nodes, "updates": s.updates}


register(
    Peer(
        "dlx-toolkit-memo",
        "dlx-toolkit",
        "this project, count(memo=True) (memoized DLX1), one thread",
        to_exact_cover,
        _ours_count_memo,
        local_version=_project_version,
    )
)


def _dxz_prepare_count(instance):
    """dxz's input: (options, items, flat 0/1 list of the matrix)."""
    a = _matrix(instance)
    return a.shape[0], a.shape[1], a.astype(np.int64).ravel().tolist()


def _dxz_count(prepared):
    import dxz

    return int(dxz.dxz_count(*prepared)), {}


register(
    Peer(
        "dxz",
        "dxz",
        "Nishino et al.'s DXZ (memoized DLX, ZDD of the solutions) in C++",
        _dxz_prepare_count,
        _dxz_count,
        unsupported=lambda inst: (
            "no secondary items" if inst.secondary else None
        ),
        install_hint="pip install dxz",
    )
)
