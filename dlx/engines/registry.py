"""The registry: every engine, and the one place that picks one.

``engine_for(problem, algorithm)`` is the only code that looks at a
problem's kind: ``"links"`` is Knuth's dancing links (DLX1, DLX2 with
colors, DLX3 with bounds), ``"cells"`` his dancing cells (SSXC1, SSXCC,
SSMCC), ``"memo"`` memoized counting, and ``"auto"`` picks links or cells
by the problem's shape (measured: see ``hide_work``).  A new engine is
one line of ``RECORDS`` (and a rule here if ``"auto"`` should pick it):
the names ``algorithm=`` takes and the command line's help for them are
read from it (``algorithm_names``, ``algorithm_help``).
``refuse`` words every refusal of a service the problem's engine lacks,
so that the Python API, the CLIs and the web API say the same sentence.

The registry holds each engine as a ``Record``, data only: choosing an
engine, naming the families and refusing read the records, and an
engine's module (with numba and its kernels) is imported when the engine
is first used (``load``), so that a command that answers ``--help``, or
runs one engine, loads no other engine's kernels.  The engine classes
stay the truth: tests/test_engine_contract.py checks that every record
says what its class says, and that every engine class has a record.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Iterator, Mapping
from typing import NamedTuple

from ..shorten import shorten
from .base import COLORS, EXACT, MULTIPLICITIES, Engine, Unsupported


class Record(NamedTuple):
    """What the registry knows of an engine without importing it: the
    class attributes of the same names (``name``, ``algorithm``,
    ``kinds``, ``costs``, ``named``, ``about``), ``fits``: whether its
    class has a ``fits`` of its own (the registry must then load it to
    choose), and where the class is (``module`` of ``dlx.engines``,
    ``cls``)."""

    name: str
    algorithm: str
    kinds: frozenset
    module: str
    cls: str
    costs: bool = False
    named: bool = True
    about: str = ""
    fits: bool = False


RECORDS: tuple[Record | Engine, ...] = (
    Record("dlx1", "links", frozenset({EXACT}), "dlx1", "DLX1",
           about="Knuth's DLX1 (dancing links)"),
    Record("dlx2", "links", frozenset({COLORS}), "dlx2", "DLX2",
           about="DLX2 with colors"),
    Record("dlx3", "links", frozenset({MULTIPLICITIES}), "dlx3", "DLX3",
           about="DLX3 with bounds"),
    Record("ssxc1", "cells", frozenset({EXACT}), "ssxc1", "SSXC1",
           about="Knuth's SSXC1 (dancing cells)"),
    Record("ssxcc", "cells", frozenset({COLORS}), "ssxcc", "SSXCC",
           about="SSXCC with colors"),
    Record("ssmcc", "cells", frozenset({MULTIPLICITIES}), "ssmcc",
           "SSMCC", about="SSMCC with bounds"),
    Record("lanes", "bits", frozenset({EXACT}), "lanes", "Lanes", fits=True),
    Record("bits", "bits", frozenset({EXACT}), "bits", "Bits",
           about="Algorithm X over bitsets (plain exact cover up to "
           "8,192 options, one process)"),
    Record("memo", "memo", frozenset({EXACT, COLORS, MULTIPLICITIES}), "memo",
           "Memo", named=False),
    Record("dlx5", "links", frozenset({EXACT, COLORS}), "dlx5",
           "CostsEngine", costs=True),
    Record("dlx3-costs", "links", frozenset({MULTIPLICITIES}), "dlx3_costs",
           "BoundedCostsEngine", costs=True),
)  # fmt: skip
"""Every engine, by the family ``algorithm=`` names and the kinds it reads;
the engines with ``costs`` serve ``best`` (the cheapest solutions), the
others every other search.  Of a family's engines for a kind, the first
that ``fits`` the problem searches it (the item lanes before the
count-based bitset engine)."""

_engines: dict[str, Engine] = {}
_loading = threading.Lock()


def load(record: Record | Engine) -> Engine:
    """The engine of ``record``, its module imported on first use (one
    instance per process, shared by every caller).  An entry of
    ``RECORDS`` may be an engine itself, already loaded (as a test that
    reduces or extends the registry puts there)."""
    if isinstance(record, Engine):
        return record
    engine = _engines.get(record.name)
    if engine is None:
        with _loading:
            engine = _engines.get(record.name)
            if engine is None:
                module = importlib.import_module(
                    f".{record.module}", __package__
                )
                engine = _engines[record.name] = getattr(module, record.cls)()
    return engine


def has_fit_test(record: Record | Engine) -> bool:
    """Whether choosing ``record``'s engine asks its ``fits`` (a loaded
    engine always is asked)."""
    return record.fits if isinstance(record, Record) else True


class Engines(Mapping):
    """``BY_NAME``: the engines by their ``name`` (Knuth's program:
    ``dlx1``, ``ssxc1``, ...), each loaded when it is first looked up."""

    _records = {record.name: record for record in RECORDS}

    def __getitem__(self, name: str) -> Engine:
        return load(self._records[name])

    def __iter__(self) -> Iterator[str]:
        return iter(self._records)

    def __len__(self) -> int:
        return len(self._records)


BY_NAME: Mapping[str, Engine] = Engines()
"""The engines by their ``name`` (Knuth's program: ``DLX1``, ``SSXC1``,
...), each loaded on first look-up."""


ENGINES: tuple[Engine, ...]  # declared only: loaded by __getattr__ below
"""Every engine of ``RECORDS``, each loaded (its module and kernels) when
``ENGINES`` is first looked up: for tests and tools that walk them all;
a search asks ``engine_for``, which loads only the one it picks."""


def __getattr__(name: str) -> object:
    # ENGINES, every engine loaded: for tests and tools that walk them
    # all (PEP 562: a search never needs it).
    if name == "ENGINES":
        return tuple(load(record) for record in RECORDS)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def algorithm_names() -> tuple[str, ...]:
    """What ``algorithm=`` takes on every search method, read from
    ``RECORDS``: the family of each engine that is ``named`` (in their
    order), then ``"auto"``."""
    names: list[str] = []
    for record in RECORDS:
        if record.named and record.algorithm not in names:
            names.append(record.algorithm)
    return (*names, "auto")


def algorithm_help() -> str:
    """What each of ``algorithm_names`` means, in one line (the command
    line's help): each family with the ``about`` of its engines."""
    said: dict[str, list[str]] = {}
    for record in RECORDS:
        if record.named and record.about:
            said.setdefault(record.algorithm, []).append(record.about)
    return "; ".join(
        [f"{name}: {', '.join(abouts)}" for name, abouts in said.items()]
        + ["auto (default): the faster for the problem's shape"]
    )


ALGORITHMS = algorithm_names()
"""What ``algorithm=`` takes on every search method (``algorithm_names``)."""

#: How a kind of problem is named in a sentence.
KIND_PHRASE = {
    EXACT: "plain exact cover",
    COLORS: "colors",
    MULTIPLICITIES: "bounds (multiplicities)",
}

# "auto" runs batches of plain exact cover of at most this many options on
# the bitset engine (bits/links time 0.60-0.64 on 9x9 Sudoku batches,
# 0.72-0.79 on 16x16: see bench/bits.py) ...
BITS_UP_TO = 4096
# ... and else with cells when hide_work(problem) is at least this
# (plain exact cover: SSXC1 against DLX1) ...
CELLS_FROM = 1.0
# ... and, with colors, at least this (SSXCC against DLX2; measured with
# bench/xcc.py, see cells_for_colors).
COLORS_CELLS_FROM = 2.0
# ... and, with bounds, at least this (SSMCC against DLX3; measured with
# bench/mcc_auto.py, see cells_for_bounds).
BOUNDS_CELLS_FROM = 4.0


def hide_work(nitems: int, noptions: int, nnodes: int) -> float:
    """How much work covering an item is, per item of the problem: the
    options per item (nnodes / nitems) times the items per option
    (nnodes / noptions), over the number of items.

    At every node dancing cells pays for a scan and a save of all active
    items, and wins it back in hiding (sparse-set swaps, and SSXC1's
    look-ahead, which spares whole nodes); the more an item's options
    weigh against the number of items, the more it wins.  Measured
    (bench/cells_vs_ssxc1.py, CPU time, links / cells): pentomino 6x10
    14.1 (1.4-1.5x faster with cells), Langford 11 and 12 1.36-1.38
    (1.2-1.3x); queens 12 and 13 0.5 (0.65-0.7x: links faster), Sudoku
    grids 6x6 0.17 (0.77x), single Sudoku puzzles under 0.1 (0.3-0.5x).
    """
    if nitems == 0 or noptions == 0:
        return 0.0
    return (nnodes / nitems) * (nnodes / noptions) / nitems


def problem_hide_work(problem) -> float:
    """``hide_work`` of a problem (an ``ExactCover``)."""
    c = problem.csr()
    return hide_work(c.nitems, len(c.indptr) - 1, len(c.indices))


def cells_for_exact_cover(problem) -> bool:
    """``"auto"``'s rule for plain exact cover: ``hide_work`` at least
    ``CELLS_FROM``."""
    return problem_hide_work(problem) >= CELLS_FROM


def cells_for_colors(problem) -> bool:
    """``"auto"``'s rule for colors (SSXCC against DLX2): ``hide_work`` at
    least ``COLORS_CELLS_FROM``.

    Measured (bench/xcc.py --files tests/data/dlx2, four runs of best of
    3 or 7 rounds that alternate the two, on a loaded machine; cells /
    links time): 3x3 word squares 0.66-0.68 (hide_work 33), de Bruijn
    n=3, k=3 0.81-0.97 (2.68), n=5 0.74-1.02 (5.28), DLX2's debruijn-4
    0.95-0.98 (3.77): cells.  De Bruijn n=2, k=4 0.69-1.14 (1.67: level),
    queens 12 with colored diagonals 1.00-1.17 (0.52), and DLX2's small
    files from 1.57 to 1.75 (0.97-1.30, a few µs): links.  Above 2 only
    random-1 (2.54, 9 against 12 µs) went the other way.
    """
    return problem_hide_work(problem) >= COLORS_CELLS_FROM


def cells_for_bounds(problem) -> bool:
    """``"auto"``'s rule for bounds (SSMCC against DLX3): ``hide_work`` at
    least ``BOUNDS_CELLS_FROM``.

    Measured (``python bench/mcc_auto.py --rounds 3``, CPU time, best of
    3, the two alternating, load about 1.5; links / cells time): rooks
    0.60-0.76 (hide_work 1.0), 1-2 queens a line 0.70-0.77, queens 10/12
    and Langford 11 given one bound 0.63-0.77 (0.5, 1.4): links.  The
    6x10 pentominoes given one bound 1.07 (14): cells.  Knuth's own small
    bounded files and Sudoku puzzles given a bound went either way within
    a millisecond.  (Batches of uniqueness checks took 0.41-0.58 of the
    time with links, as batches always use.)
    """
    return problem_hide_work(problem) >= BOUNDS_CELLS_FROM


# The kinds of problem dancing cells can search (SSXC1, SSXCC, SSMCC), each
# with the rule by which "auto" picks it over dancing links for a search.
CELLS_RULES = {
    EXACT: cells_for_exact_cover,
    COLORS: cells_for_colors,
    MULTIPLICITIES: cells_for_bounds,
}


def check_algorithm(algorithm) -> str:
    """``algorithm`` checked: one of ``algorithm_names()`` (a TypeError
    for another type, a ValueError for another name)."""
    if algorithm == "auto" and isinstance(algorithm, str):
        return algorithm  # every search's default: no names to read
    names = algorithm_names()
    if not isinstance(algorithm, str):
        raise TypeError(
            f"algorithm must be one of {', '.join(names)}; "
            f"got {shorten(algorithm)}"
        )
    if algorithm not in names:
        raise ValueError(
            f"algorithm must be one of "
            f"{', '.join(names)}; got {shorten(algorithm)}"
        )
    return algorithm


def family(problem, algorithm="auto", purpose: str = "search") -> str:
    """``"links"``, ``"cells"`` or ``"bits"``: ``algorithm`` checked and
    ``"auto"`` decided.  ``purpose`` is ``"search"`` (count, solutions,
    solve), ``"batch"`` (``solve_batch``), ``"split"`` (a count on threads
    or in jobs, the estimate: an engine that splits its tree) or
    ``"best"`` (the cheapest solutions, Knuth's DLX5: dancing links).
    A batch of plain exact cover of at most ``BITS_UP_TO`` options takes
    the bitset engine, any other batch ``"links"`` (measured faster on
    every Sudoku batch: its instances are small searches, where the
    per-node scan and save of dancing cells weigh most); a search takes
    the rule of ``CELLS_RULES`` for the problem's kind.  (The bitset
    engine is faster on small counts too, bench/bits.py: ask for it by
    name; "auto" keeps to dancing links or cells there, whose first
    solutions and figures are Knuth's programs'.)"""
    algorithm = check_algorithm(algorithm)
    if algorithm != "auto":
        return algorithm
    if purpose == "best":
        return "links"
    if purpose == "batch":
        if problem.kind == EXACT and len(problem) <= BITS_UP_TO:
            return "bits"
        return "links"
    return "cells" if CELLS_RULES[problem.kind](problem) else "links"


def engine_for(problem, algorithm="auto", purpose: str = "search") -> Engine:
    """The engine that searches ``problem`` (an ``ExactCover``) with
    ``algorithm`` (see ``family``) for ``purpose``.  The bitset family
    has two engines: item lanes (``dlx.engines.lanes``) where the problem
    fits them (``Lanes.fits``: items of at most 63 options, masks of at
    most 2 MB, as a 9x9 Sudoku), else per-item counts
    (``dlx.engines.bits``)."""
    name = family(problem, algorithm, purpose)
    return engine_of(name, problem.kind, purpose == "best", problem)


def engine_of(
    algorithm: str, kind: str, costs: bool = False, problem=None
) -> Engine:
    """The engine of family ``algorithm`` for problems of ``kind``; with
    ``costs``, the one that finds the cheapest solutions; with
    ``problem``, the first that ``fits`` it (only an engine whose record
    says it has a test of its own is loaded to ask)."""
    for record in RECORDS:
        if (
            record.algorithm == algorithm
            and kind in record.kinds
            and record.costs == costs
        ):
            engine = load(record)
            if problem is None or not has_fit_test(record):
                return engine
            if engine.fits(problem):
                return engine
    service = "the cheapest solutions (best)" if costs else "searching"
    raise refuse(f"{service} with algorithm={algorithm!r}", kind)


def refuse(
    service: str, kind: str, engine: Engine | None = None, instead: str = ""
) -> Unsupported:
    """The one sentence for a service that no engine offers for ``kind``
    (or that ``engine`` lacks): ``Unsupported`` (a ValueError) to raise."""
    where = f"a problem with {KIND_PHRASE[kind]}"
    if engine is not None:
        where += f" searched by {engine.program}"
    return Unsupported(
        f"{service} is not available for {where}"
        + (f"; {instead}" if instead else "")
    )
