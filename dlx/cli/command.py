"""dlx: exact cover by Dancing Links, from the command line.

  dlx solve FILE|-            solve a problem in Knuth's DLX format (DLX1,
                              DLX2 colors item:color, DLX3 bounds u:v|item)
  dlx estimate FILE|-         estimate the size of its search (--estimate)
  dlx reduce FILE|-           make it smaller first (Knuth's DLX-PRE)
  dlx pentomino 6x10          pack pentominoes (or other pieces) in a board
  dlx polycube soma           pack polycubes in a box
  dlx polyiamond 6x6          pack hexiamonds (triangular grid)
  dlx polyhex 4x7             pack tetrahexes (hexagonal grid)
  dlx queens 12               place n queens
  dlx langford 11             Langford pairs
  dlx debruijn 4 [--symbols K]  de Bruijn sequences (colors: XCC)
  dlx rooks 6 2               k rooks in every row and column (bounds: MCC)
  dlx tiling dominoes 8x8     tile a board with pieces used any number of times
  dlx zdd OUT --sample N      answer from a saved ZDD (dlx solve FILE --zdd OUT)

Solutions go to standard output (the first one by default; --all or
--limit N for more, each after a line 'solution N:', with ' cost C' where
options have costs); --count prints how many instead, the count alone on
the last line.  Pentomino and Langford counts are up to symmetry (the
board's rotations and reflections; reversal) unless --all-symmetries;
so are polycube counts.
--stats prints nodes, updates and time on standard error.  --memo (with
--count, for solve and tiling) remembers the count of every subproblem:
tilings in the billions and beyond count in moments.  A count runs on
every core (--jobs N), or a Dask cluster (--scheduler ADDRESS), can be
checkpointed (--checkpoint FILE) and shows a progress bar on a terminal;
Ctrl-C prints the partial count.  Exit status: 0
when a solution exists, 1 when none does or the input is wrong, 2 for a
usage error (a file that cannot be opened is one), 130 when interrupted,
141 (as for SIGPIPE) when the reader of the output goes away.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

# Only light modules at import: the parser is built for every command, and
# --version, --help and usage errors answer before numpy, numba or a kernel
# loads; the formats, the model and the services load when a command runs
# (each builder in its own command), an engine's kernels when it searches.
# tests/test_imports.py checks what each command loads.
from ..engines import Unsupported, engine_for
from ..shorten import shorten
from ..textfile import NotText, read_text
from . import start_plain, zdd
from .best import add_best_option, run_best
from .count import (
    CountUsageError,
    add_count_options,
    add_estimate_options,
    add_memo_options,
    count_options,
    interrupted_message,
    memo_options,
)
from .flags import add_flag, add_time_limit_option, check_flags
from .input import looks_like_a_file_name, no_such_file
from .paths import (
    INPUT,
    OUTPUT,
    TEXT_OR_FILE,
    PathUsageError,
    check_paths,
    names_file,
    replacing,
    silence_stdout,
)

if TYPE_CHECKING:
    from ..problem import ExactCover, Stats

__all__ = ["main"]


class InputError(Exception):
    """Bad input data (a file, or a board or piece drawing): exit status 1."""


class UsageError(Exception):
    """A problem with the command line, told in one line: exit status 2."""


# -- argument parsing -----------------------------------------------------
def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{shorten(text)} is not an integer"
        ) from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text} is not positive")
    return value


def _add_output_options(
    parser: argparse.ArgumentParser, symmetric: bool, memo: bool = False
):
    how_many = parser.add_mutually_exclusive_group()
    how_many.add_argument(
        "--count",
        action="store_true",
        help="print the number of solutions (last line)",
    )
    how_many.add_argument(
        "--all", action="store_true", help="print every solution"
    )
    add_flag(how_many, "limit")
    if symmetric:
        parser.add_argument(
            "--all-symmetries",
            action="store_true",
            help="count solutions that are symmetric "
            "images of each other separately",
        )
    parser.add_argument(
        "--stats",
        action="store_true",
        help="print nodes, updates and time on stderr",
    )
    if memo:
        add_memo_options(parser)
    if parser.prog.split()[-1] != "solve":
        parser.add_argument(
            "--dlx",
            action="store_true",
            help="print the problem in Knuth's DLX format "
            "instead of solving it",
        )
    add_estimate_options(parser)
    add_count_options(parser)


def _add_svg_option(parser: argparse.ArgumentParser):
    names_file(
        parser.add_argument(
            "--svg",
            metavar="FILE",
            help="also draw the first solution printed as an SVG picture "
            "in FILE",
        ),
        OUTPUT,
    )


def _write_svg(args, picture: str):
    try:
        with replacing(args.svg) as handle:
            handle.write(picture)
    except OSError as error:
        raise UsageError(
            f"cannot write {args.svg}: {error.strerror}"
        ) from None


def build_parser() -> argparse.ArgumentParser:
    """The ``dlx`` command's argument parser (the docs render its help)."""
    parser = argparse.ArgumentParser(
        prog="dlx",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    from .. import __version__

    parser.add_argument(
        "--version", action="version", version=f"%(prog)s {__version__}"
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True

    solve = commands.add_parser(
        "solve",
        help="solve a file in Knuth's DLX format",
        description="Solve an exact-cover problem in Knuth's DLX format "
        "(first line: primary items, '|', secondary items; "
        "then one option a line; '|' and '//' lines are "
        "comments). DLX2 colors ('item:color' in options) and "
        "DLX3 bounds ('u:v|item' or 'v|item' on the item line) "
        "are understood. Solutions are printed as their option "
        "lines.",
    )
    names_file(
        solve.add_argument(
            "file",
            metavar="FILE|-",
            help="the problem file, or - for standard input",
        ),
        INPUT,
    )
    add_flag(solve, "algorithm")
    _add_output_options(solve, symmetric=False, memo=True)
    add_time_limit_option(solve)
    add_best_option(solve)
    zdd.add_zdd_option(solve)
    zdd.add_zdd_command(commands)
    from .reduce import add_reduce_command, add_reduce_option

    add_reduce_option(solve)
    add_reduce_command(commands)

    estimate = commands.add_parser(
        "estimate",
        help="estimate the size of a search (DLX format)",
        description="Estimate the nodes, updates and solutions of counting "
        "a problem in Knuth's DLX format, and the time it would "
        "take on one core, by Knuth's random probes.",
    )
    names_file(
        estimate.add_argument(
            "file",
            metavar="FILE|-",
            help="the problem file, or - for standard input",
        ),
        INPUT,
    )
    add_estimate_options(estimate, flag=False)
    estimate.set_defaults(estimate=True, dlx=False)

    pento = commands.add_parser(
        "pentomino",
        help="pack pentominoes (or other pieces) in a board",
        description="Pack polyominoes into a board and print the tilings "
        "as letter grids, or count them (up to the board's "
        "symmetries unless --all-symmetries).",
    )
    pento.add_argument(
        "size", nargs="?", metavar="RxC", help="a rectangular board, e.g. 6x10"
    )
    names_file(
        pento.add_argument(
            "--board",
            metavar="FILE",
            help="the board as ASCII art: '.' a cell, '#' a hole",
        ),
        INPUT,
    )
    names_file(
        pento.add_argument(
            "--pieces",
            default="pentominoes",
            metavar="SET|FILE",
            help="pentominoes (default), tetrominoes, "
            "hexominoes (named h01..h35), or a file of "
            "ASCII shapes (each character other than '.' "
            "and blanks is a cell of the piece it names)",
        ),
        TEXT_OR_FILE,
    )
    pento.add_argument(
        "--one-sided",
        action="store_true",
        help="pieces may turn but not flip over",
    )
    pento.add_argument(
        "--copies",
        type=_positive,
        default=1,
        metavar="K",
        help="use every piece K times (default 1)",
    )
    _add_output_options(pento, symmetric=True)
    _add_svg_option(pento)
    pento.set_defaults(parser=pento)

    cube = commands.add_parser(
        "polycube",
        help="pack polycubes (Soma, Bedlam, pentacubes) in a box",
        description="Pack polycubes into a box and print the packings as "
        "letter grids, one per layer side by side, or count "
        "them (up to the box's symmetries unless "
        "--all-symmetries).  Pieces turn but are not mirrored "
        "unless --mirror.",
    )
    cube.add_argument(
        "set",
        nargs="?",
        metavar="SET",
        help="soma (default; box 3x3x3), bedlam (4x4x4), "
        "flat-pentacubes (3x4x5) or pentacubes",
    )
    names_file(
        cube.add_argument(
            "--pieces",
            metavar="SET|FILE",
            help="a piece set, or a file with one piece a line: "
            "its name, then each cell as three digits "
            "(layer, row, column)",
        ),
        TEXT_OR_FILE,
    )
    cube.add_argument(
        "--box", metavar="AxBxC", help="the box: layers x rows x columns"
    )
    names_file(
        cube.add_argument(
            "--board",
            metavar="FILE",
            help="the board as layers of ASCII art separated by "
            "blank lines: '.' a cell, '#' a hole",
        ),
        INPUT,
    )
    cube.add_argument(
        "--mirror",
        action="store_true",
        help="pieces may also be mirrored (48 orientations)",
    )
    cube.add_argument(
        "--copies",
        type=_positive,
        default=1,
        metavar="K",
        help="use every piece K times (default 1)",
    )
    _add_output_options(cube, symmetric=True)
    _add_svg_option(cube)
    cube.set_defaults(parser=cube)

    for command, default, grid in (
        ("polyiamond", "hexiamonds", "triangular"),
        ("polyhex", "tetrahexes", "hexagonal"),
    ):
        planar = commands.add_parser(
            command,
            help=f"pack {default} (or other pieces) in a board "
            f"of the {grid} grid",
            description=f"Pack pieces of the {grid} grid into a board and "
            f"print the tilings as slanted rows of letters, or "
            f"count them (up to the board's 12 rotations and "
            f"reflections unless --all-symmetries).",
        )
        planar.add_argument(
            "board",
            metavar="BOARD",
            help="AxB (a parallelogram; 6x6 a rhombus), "
            "hexagon:N or triangle:N",
        )
        other = "pentiamonds" if grid == "triangular" else "pentahexes"
        planar.add_argument(
            "--pieces",
            default=default,
            metavar="SET",
            help=f"{default} (default), or another set such as {other}",
        )
        planar.add_argument(
            "--one-sided",
            action="store_true",
            help="pieces may turn but not flip over",
        )
        planar.add_argument(
            "--copies",
            type=_positive,
            default=1,
            metavar="K",
            help="use every piece K times",
        )
        _add_output_options(planar, symmetric=True)
        _add_svg_option(planar)
        planar.set_defaults(parser=planar)

    queens = commands.add_parser(
        "queens",
        help="place n non-attacking queens",
        description="Place n queens on an n x n board, no two attacking; "
        "counts include every solution (OEIS A000170).",
    )
    queens.add_argument("n", type=_positive)
    _add_output_options(queens, symmetric=False)
    _add_svg_option(queens)

    langford = commands.add_parser(
        "langford",
        help="Langford pairs",
        description="Arrange two copies of 1..n so that the copies of d "
        "have d numbers between them; a sequence and its "
        "reverse count once (OEIS A014552) unless "
        "--all-symmetries.",
    )
    langford.add_argument("n", type=_positive)
    _add_output_options(langford, symmetric=True)

    debruijn = commands.add_parser(
        "debruijn",
        help="de Bruijn sequences (an XCC problem)",
        description="Cyclic sequences of K**N symbols in which every word "
        "of N symbols appears once, counted up to rotation "
        "(OEIS A016031 for K = 2). Exact cover with colors: "
        "the symbol at each position is a colored secondary "
        "item.",
    )
    debruijn.add_argument("n", type=_positive)
    debruijn.add_argument(
        "--symbols",
        type=_positive,
        default=2,
        metavar="K",
        help="alphabet size (default 2)",
    )
    _add_output_options(debruijn, symmetric=False)

    rooks = commands.add_parser(
        "rooks",
        help="k rooks in every row and column (an MCC problem)",
        description="Place rooks on an n x n board, exactly k in every row "
        "and column (OEIS A001499 for k = 2, A001501 for "
        "k = 3). Exact cover with multiplicities: rows and "
        "columns are items with bounds k..k.",
    )
    rooks.add_argument("n", type=_positive)
    rooks.add_argument("k", type=_positive)
    _add_output_options(rooks, symmetric=False)

    tiling = commands.add_parser(
        "tiling",
        help="tile a board with pieces used any number of times",
        description="Tile a board with polyominoes, each used as often as "
        "it fits (turned and flipped): every tiling counts, "
        "e.g. 12988816 for dominoes on 8x8 (OEIS A099390).  "
        "--count --memo counts far beyond what visiting every "
        "tiling allows.",
    )
    names_file(
        tiling.add_argument(
            "pieces",
            metavar="PIECES",
            help="dominoes, trominoes, tetrominoes, "
            "pentominoes, hexominoes (every free "
            "polyomino of that size), monominoes, or a "
            "file of ASCII shapes",
        ),
        TEXT_OR_FILE,
    )
    tiling.add_argument(
        "size", nargs="?", metavar="RxC", help="a rectangular board, e.g. 8x8"
    )
    names_file(
        tiling.add_argument(
            "--board",
            metavar="FILE",
            help="the board as ASCII art: '.' a cell, '#' a hole",
        ),
        INPUT,
    )
    tiling.add_argument(
        "--one-sided",
        action="store_true",
        help="pieces may turn but not flip over",
    )
    _add_output_options(tiling, symmetric=False, memo=True)
    tiling.set_defaults(parser=tiling)
    return parser


# -- running --------------------------------------------------------------
def _read_text(name: str) -> str:
    """A board or pieces file (``-`` is standard input), without a leading
    byte-order mark; a file that cannot be opened is a usage error."""
    try:
        text = read_text(name, newline="")
    except NotText as error:
        raise InputError(str(error)) from None
    except OSError as error:
        raise UsageError(f"cannot read {name}: {error.strerror}") from None
    return text[1:] if text.startswith("\ufeff") else text


def _limit(args) -> int | None:
    if args.count:
        return None
    if args.all:
        return None
    return args.limit or 1


def _report(
    args,
    pictures: Iterable[tuple[str, int | None]],
    count: Callable[[], int],
    stats: Callable[[], Stats],
) -> int:
    """Print the solutions (``(picture, cost)`` each: ``cost`` their
    options' costs added up, None for a problem without costs) or the
    count; returns the exit status.  A listing (``--all``, ``--limit``)
    heads each solution with ``solution N:`` (``formats.solution_header``)
    and a blank line before all but the first, so that every solution is
    delimited whatever its size; the first solution alone is printed
    bare, unless it is empty."""
    from ..formats import solution_header
    from ..services.search import BudgetExhausted, Interrupted

    found = 0
    listing = args.all or args.limit is not None
    try:
        if args.count:
            found = count()
            print(found)
        else:
            for picture, cost in pictures:
                if listing or not picture:
                    if found:
                        print()
                    print(solution_header(found + 1, cost))
                if picture:
                    print(picture, flush=args.all)
                elif args.all:
                    sys.stdout.flush()
                found += 1  # printed
            if not found:
                print("no solution", file=sys.stderr)
    except (KeyboardInterrupt, BudgetExhausted) as stop:
        # Ctrl-C or --time-limit: what was found so far, marked partial
        # (the count's line is not a bare number, so no script takes it
        # for the answer).  The engine's Interrupted carries its count;
        # Ctrl-C between two solutions of a listing leaves the number
        # printed.
        budget = isinstance(stop, BudgetExhausted)
        why = "stopped" if budget else "interrupted"
        if args.count:  # before the search started, nothing was counted
            found = getattr(stop, "count", 0)
            print(f"{found} (partial: {why})", flush=True)
            said = interrupted_message("dlx", stop, counted=found)
        else:
            said = interrupted_message("dlx", stop, printed=found)
        if budget:  # the same words, naming the budget (--time-limit)
            said = said.replace("interrupted", "time limit reached", 1)
        print(said, file=sys.stderr)
        if args.stats and isinstance(stop, (Interrupted, BudgetExhausted)):
            print(stop.stats, file=sys.stderr)
        return 1 if budget else 130
    if args.stats:
        print(stats(), file=sys.stderr)
    return 0 if found else 1


def _run_problem(
    args,
    problem: ExactCover,
    draw: Callable | None,
    svg: Callable | None = None,
) -> int:
    if svg is not None and args.svg and (args.count or args.dlx):
        raise UsageError(
            f"--svg draws a solution; it cannot go with "
            f"{'--count' if args.count else '--dlx'}"
        )
    from ..formats import costs_of, dumps

    if getattr(args, "dlx", False):
        print(dumps(problem, comment=f"dlx {' '.join(args.argv)}"), end="")
        return 0
    if args.estimate:
        return _estimate(args, problem)
    assert draw is not None  # only --dlx comes without one
    algorithm = getattr(args, "algorithm", "auto")
    time_limit = getattr(args, "time_limit", None)
    solutions = problem.solutions(
        _limit(args), algorithm=algorithm, time_limit=time_limit
    )
    if svg is not None and args.svg:
        solutions = _drawing_first(args, lambda s: svg(problem, s), solutions)

    def pictures():  # each with its cost (None when options cost nothing)
        costs = costs_of(problem)  # once: the property lists every option's
        for solution in solutions:
            cost = None if costs is None else sum(costs[k] for k in solution)
            yield draw(problem, solution), cost

    try:
        memo = memo_options(args)
    except ValueError as error:
        raise UsageError(str(error)) from None
    # Without --jobs a count takes every core where the engine splits its
    # tree, else this process.
    splits = engine_for(problem, algorithm, "split").splits
    count = lambda: _count(
        args,
        problem.count,
        memo,
        algorithm=algorithm,
        # a count in jobs has no time limit: with one, this process
        splits=splits and time_limit is None,
    )
    return _report(args, pictures(), count, lambda: problem.stats)


def _count(
    args,
    count: Callable,
    memo: dict | None = None,
    algorithm: str = "auto",
    splits: bool = True,
) -> int:
    """``count(**options)`` with the long-count options of ``args`` (and
    the memo's, ``memo``); what ``count`` refuses is a usage error.
    ``splits``: the engine splits its tree, so that a count without
    ``--jobs`` takes every core."""
    with count_options(args, every_core=memo is None and splits) as options:
        options.update(memo or {})
        if algorithm != "auto":
            options["algorithm"] = algorithm
        if getattr(args, "time_limit", None) is not None:
            options["time_limit"] = args.time_limit
        try:
            return count(**options)
        except Unsupported as error:
            raise UsageError(str(error)) from None


def _estimate(args, problem: ExactCover) -> int:
    from ..services.defaults import DEFAULT_PROBES

    probes = DEFAULT_PROBES if args.probes is None else args.probes
    print(
        problem.estimate(
            probes,
            seed=args.seed or 0,
            algorithm=getattr(args, "algorithm", "auto"),
        )
    )
    return 0


def _solve(args) -> int:
    from ..formats import DLXFormatError, costs_of, load, solution_lines

    try:
        problem = load(args.file)  # long names too: the library's default
    except DLXFormatError as error:
        raise InputError(str(error)) from None
    except OSError as error:
        raise UsageError(
            f"cannot read {args.file}: {error.strerror}"
        ) from None

    if getattr(args, "zdd", None) is not None:
        return zdd.solve_zdd(args, problem)

    priced: list = []  # costs_of(problem), read for the first line drawn

    def draw(problem, solution):  # as the file wrote them: colors, costs
        if not priced:
            priced.append(costs_of(problem))
        return "\n".join(solution_lines(problem, solution, priced[0]))

    if getattr(args, "reduce", False):
        from .reduce import reducing

        problem = reducing(args, problem)
    if getattr(args, "best", None):
        return run_best(args, problem, problem.option_line, UsageError)
    return _run_problem(args, problem, draw)


def _board_file(path: str) -> str:
    """The text of a board file, which must not be empty."""
    board = _read_text(path)
    if not board.strip():
        raise InputError(f"{path}: the board file is empty")
    return board


def _board(args, parser, example: str) -> str:
    """The board of a planar builder: a size like ``example``, or the text
    of ``--board FILE`` (exactly one of them)."""
    if (args.size is None) == (args.board is None):
        parser.error(
            f"give a board size like {example} or --board FILE (one of them)"
        )
    return args.size if args.board is None else _board_file(args.board)


def _pentomino(args, parser) -> int:
    from ..problems.polyomino import Polyomino, parse_shapes, piece_set

    board = _board(args, parser, "6x10")
    if os.path.exists(args.pieces):
        try:
            pieces = parse_shapes(_read_text(args.pieces))
        except ValueError as error:
            raise InputError(f"{args.pieces}: {error}") from None
    else:
        try:
            pieces = piece_set(args.pieces)
        except ValueError as error:  # a typo in a set name: not a file
            parser.error(_not_a_file("--pieces", args.pieces, error))
    from_files = args.board is not None or os.path.exists(args.pieces)
    try:
        puzzle = Polyomino(
            board, pieces, one_sided=args.one_sided, copies=args.copies
        )
    except ValueError as error:
        if not from_files:  # the arguments alone are wrong
            parser.error(str(error))
        raise InputError(str(error)) from None
    return _run_packing(args, puzzle)


def _run_packing(args, puzzle) -> int:
    """Print, count or write as DLX the tilings of a ``Packing``."""
    distinct = not args.all_symmetries
    if args.svg and (args.count or args.dlx):
        raise UsageError(
            f"--svg draws a solution; it cannot go with "
            f"{'--count' if args.count else '--dlx'}"
        )
    if args.estimate:
        try:
            problem = puzzle.distinct_problem() if distinct else puzzle.problem
        except ValueError:
            problem = puzzle.problem
            print(
                "dlx: note: estimating the search for every tiling "
                "(this board's count up to symmetry is not one search)",
                file=sys.stderr,
            )
        return _estimate(args, problem)
    if args.dlx:
        if any(k > 1 for k in puzzle.copies.values()):
            raise UsageError(
                f"--dlx cannot be used with --copies {args.copies}: the DLX "
                f"problem would have one solution per numbering of the "
                f"copies ({args.copies}! per piece) for each tiling"
            )
        try:
            problem = puzzle.distinct_problem() if distinct else puzzle.problem
        except ValueError:
            raise UsageError(
                "--dlx: no single DLX problem has exactly one solution per "
                "tiling up to symmetry for this board; add --all-symmetries "
                "to write the one with every tiling"
            ) from None
        return _run_problem(args, problem, None)
    tilings = puzzle.solutions(distinct, limit=_limit(args))
    if args.svg:
        tilings = _drawing_first(args, puzzle.svg, tilings)
    pictures = ((puzzle.render(tiling), None) for tiling in tilings)
    return _report(
        args,
        pictures,
        lambda: _count(
            args, lambda **options: puzzle.count(distinct, **options)
        ),
        lambda: puzzle.stats,
    )


def _polycube(args, parser) -> int:
    from ..problems.polycube import (
        DEFAULT_BOXES,
        Polycube,
        parse_pieces,
        piece_set,
    )

    if args.set is not None and args.pieces is not None:
        parser.error("give the piece set once (SET or --pieces)")
    name = args.set or args.pieces or "soma"
    if args.box is not None and args.board is not None:
        parser.error("give --box or --board, not both")
    from_files = args.board is not None
    if os.path.exists(name) and args.set is None:
        try:
            pieces = parse_pieces(_read_text(name))
        except ValueError as error:
            raise InputError(f"{name}: {error}") from None
        from_files = True
    else:
        try:
            pieces = piece_set(name)
        except ValueError as error:
            parser.error(
                _not_a_file("SET" if args.set else "--pieces", name, error)
            )
    board = args.box
    if board is not None and not _is_box(board):
        raise UsageError(
            f"--box must be a box like 3x4x5 (layers x rows x "
            f"columns, each at least 1), got {shorten(board)}; "
            f"--board FILE draws other shapes"
        )
    if args.board is not None:
        board = _board_file(args.board)
    elif board is None:
        board = DEFAULT_BOXES.get(name.strip().lower())
        if board is None:
            parser.error(
                f"give a box like --box 3x4x5 or --board FILE for "
                f"the pieces {shorten(name)}"
            )
    try:
        puzzle = Polycube(
            board, pieces, one_sided=not args.mirror, copies=args.copies
        )
    except ValueError as error:
        if not from_files:
            parser.error(str(error))
        raise InputError(str(error)) from None
    return _run_packing(args, puzzle)


def _is_box(text: str) -> bool:
    """``text`` is a box of at least one cell, ``AxBxC`` (the builders'
    rule for sizes: ``lattice.parse_size``)."""
    from ..problems.lattice import parse_size

    try:
        size = parse_size(text, "LAYERSxROWSxCOLS")
    except ValueError:  # a size of another number of dimensions
        return False
    return size is not None and min(size) >= 1


def _not_a_file(option: str, text: str, error: ValueError) -> str:
    """Why a SET|FILE value is neither: no such file, when it looks like
    a file name (then the set names come second), else ``error``."""
    if not looks_like_a_file_name(text) and not os.path.isdir(text):
        return str(error)
    return no_such_file(option, text, f"a piece set: {error}")


def _drawing_first(args, picture: Callable, solutions):
    """The solutions, the first one also drawn to ``args.svg``."""
    for number, solution in enumerate(solutions):
        if number == 0:
            _write_svg(args, picture(solution))
        yield solution


def _planar(args, parser) -> int:
    from ..problems.planar import Polyhex, Polyiamond

    cls = Polyiamond if args.command == "polyiamond" else Polyhex
    try:
        puzzle = cls(
            args.board,
            args.pieces,
            one_sided=args.one_sided,
            copies=args.copies,
        )
    except ValueError as error:
        parser.error(str(error))
    return _run_packing(args, puzzle)


def _queens(args) -> int:
    from ..problems.queens import queens, render, svg

    try:
        problem = queens(args.n)
    except ValueError as error:  # too large to build
        raise UsageError(str(error)) from None
    return _run_problem(args, problem, render, svg)


def _tiling(args, parser) -> int:
    from ..problems.tiling import pieces, render, tiling

    board = _board(args, parser, "8x8")
    shapes = args.pieces
    if os.path.exists(shapes):
        try:
            shapes = pieces(_read_text(shapes) + "\n")
        except ValueError as error:
            raise InputError(f"{args.pieces}: {error}") from None
    else:
        try:
            shapes = pieces(shapes)
        except ValueError as error:
            parser.error(_not_a_file("PIECES", shapes, error))
    try:
        problem = tiling(board, shapes, one_sided=args.one_sided)
    except ValueError as error:
        if args.board is None:
            parser.error(str(error))
        raise InputError(str(error)) from None
    return _run_problem(args, problem, render)


def _langford(args) -> int:
    from ..problems.langford import langford, render

    try:
        problem = langford(args.n, distinct=not args.all_symmetries)
    except ValueError as error:  # too large to build
        raise UsageError(str(error)) from None
    return _run_problem(args, problem, render)


def _debruijn(args) -> int:
    from ..problems.debruijn import debruijn, render

    if args.symbols < 2:
        raise UsageError("--symbols must be at least 2")
    try:
        problem = debruijn(args.n, args.symbols)
    except ValueError as error:
        raise UsageError(str(error)) from None
    return _run_problem(args, problem, render)


def _rooks(args) -> int:
    from ..problems.rooks import render, rooks

    try:
        problem = rooks(args.n, args.k)
    except ValueError as error:
        raise UsageError(str(error)) from None
    return _run_problem(args, problem, render)


def main(argv: list[str] | None = None) -> int:
    """Run the ``dlx`` command; returns the exit status."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if argv is None and not start_plain("dlx"):
            return 2
        args.argv = sys.argv[1:] if argv is None else list(argv)
        check_paths(parser, args)  # before any work
        if args.command not in ("reduce", "zdd"):
            check_flags(args)  # before any work: dlx.options's sentences
        if args.command in ("solve", "estimate"):
            status = _solve(args)
        elif args.command == "reduce":
            from .reduce import run_reduce

            status = run_reduce(args)
        elif args.command == "pentomino":
            status = _pentomino(args, args.parser)
        elif args.command == "polycube":
            status = _polycube(args, args.parser)
        elif args.command in ("polyiamond", "polyhex"):
            status = _planar(args, args.parser)
        elif args.command == "queens":
            status = _queens(args)
        elif args.command == "debruijn":
            status = _debruijn(args)
        elif args.command == "rooks":
            status = _rooks(args)
        elif args.command == "tiling":
            status = _tiling(args, args.parser)
        elif args.command == "zdd":
            status = zdd.run(args)
        else:
            status = _langford(args)
        sys.stdout.flush()  # a closed pipe shows here, not at exit
        return status
    except SystemExit as stop:  # argparse: --help, or a usage error
        return stop.code if isinstance(stop.code, int) else 2
    except BrokenPipeError:
        # The reader went away (e.g. "| head"): stop quietly, with the
        # status of a process killed by SIGPIPE (128 + 13).
        silence_stdout()
        return 141
    except KeyboardInterrupt as stop:
        print(interrupted_message("dlx", stop), file=sys.stderr)
        return 130
    except (UsageError, CountUsageError, PathUsageError, Unsupported) as error:
        # Unsupported: options that do not go together, or a service the
        # problem's engine does not offer: a usage error from every flag.
        print(f"dlx: error: {error}", file=sys.stderr)
        return 2
    except (InputError, ValueError, OSError) as error:
        print(f"dlx: error: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
