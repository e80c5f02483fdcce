"""dlx: exact cover by Dancing Links, from the command line.

  dlx solve FILE|-            solve a problem in Knuth's DLX format
  dlx estimate FILE|-         estimate the size of its search (--estimate)
  dlx pentomino 6x10          pack pentominoes (or other pieces) in a board
  dlx queens 12               place n queens
  dlx langford 11             Langford pairs

Solutions go to standard output (the first one by default; --all or
--limit N for more); --count prints how many instead, the count alone on
the last line.  Pentomino and Langford counts are up to symmetry (the
board's rotations and reflections; reversal) unless --all-symmetries.
--stats prints nodes, updates and time on standard error.  A count runs
on every core (--jobs N), or a Dask cluster (--scheduler ADDRESS), can
be checkpointed (--checkpoint FILE) and shows a progress bar on a
terminal; Ctrl-C prints the partial count.  Exit status: 0
when a solution exists, 1 when none does or the input is wrong, 2 for a
usage error (a file that cannot be opened is one), 130 when interrupted,
141 (as for SIGPIPE) when the reader of the output goes away.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
from typing import Callable, Iterable

from .cli_count import (CountUsageError, add_count_options,
                        add_estimate_options, count_options,
                        interrupted_message)
from .formats import DLXFormatError, dumps, load
from .problem import ExactCover, Stats

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
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer")
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text} is not positive")
    return value


def _add_output_options(parser: argparse.ArgumentParser, symmetric: bool):
    how_many = parser.add_mutually_exclusive_group()
    how_many.add_argument("--count", action="store_true",
                          help="print the number of solutions (last line)")
    how_many.add_argument("--all", action="store_true",
                          help="print every solution")
    how_many.add_argument("--limit", type=_positive, metavar="N",
                          help="print at most N solutions (default 1)")
    if symmetric:
        parser.add_argument("--all-symmetries", action="store_true",
                            help="count solutions that are symmetric "
                                 "images of each other separately")
    parser.add_argument("--stats", action="store_true",
                        help="print nodes, updates and time on stderr")
    if parser.prog.split()[-1] != "solve":
        parser.add_argument("--dlx", action="store_true",
                            help="print the problem in Knuth's DLX format "
                                 "instead of solving it")
    add_estimate_options(parser)
    add_count_options(parser)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="dlx", description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True

    solve = commands.add_parser(
        "solve", help="solve a file in Knuth's DLX format",
        description="Solve an exact-cover problem in Knuth's DLX format "
                    "(first line: primary items, '|', secondary items; "
                    "then one option a line; '|' lines are comments). "
                    "Solutions are printed as their option lines.")
    solve.add_argument("file", metavar="FILE|-",
                       help="the problem file, or - for standard input")
    _add_output_options(solve, symmetric=False)

    estimate = commands.add_parser(
        "estimate", help="estimate the size of a search (DLX format)",
        description="Estimate the nodes, updates and solutions of counting "
                    "a problem in Knuth's DLX format, and the time it would "
                    "take on one core, by Knuth's random probes.")
    estimate.add_argument("file", metavar="FILE|-",
                          help="the problem file, or - for standard input")
    add_estimate_options(estimate, flag=False)
    estimate.set_defaults(estimate=True, dlx=False)

    pento = commands.add_parser(
        "pentomino", help="pack pentominoes (or other pieces) in a board",
        description="Pack polyominoes into a board and print the tilings "
                    "as letter grids, or count them (up to the board's "
                    "symmetries unless --all-symmetries).")
    pento.add_argument("size", nargs="?", metavar="RxC",
                       help="a rectangular board, e.g. 6x10")
    pento.add_argument("--board", metavar="FILE",
                       help="the board as ASCII art: '.' a cell, '#' a hole")
    pento.add_argument("--pieces", default="pentominoes",
                       metavar="SET|FILE",
                       help="pentominoes (default), tetrominoes, "
                            "hexominoes (named h01..h35), or a file of "
                            "ASCII shapes (each character other than '.' "
                            "and blanks is a cell of the piece it names)")
    pento.add_argument("--one-sided", action="store_true",
                       help="pieces may turn but not flip over")
    pento.add_argument("--copies", type=_positive, default=1, metavar="K",
                       help="use every piece K times (default 1)")
    _add_output_options(pento, symmetric=True)
    pento.set_defaults(parser=pento)

    queens = commands.add_parser(
        "queens", help="place n non-attacking queens",
        description="Place n queens on an n x n board, no two attacking; "
                    "counts include every solution (OEIS A000170).")
    queens.add_argument("n", type=_positive)
    _add_output_options(queens, symmetric=False)

    langford = commands.add_parser(
        "langford", help="Langford pairs",
        description="Arrange two copies of 1..n so that the copies of d "
                    "have d numbers between them; a sequence and its "
                    "reverse count once (OEIS A014552) unless "
                    "--all-symmetries.")
    langford.add_argument("n", type=_positive)
    _add_output_options(langford, symmetric=True)
    return parser


# -- running --------------------------------------------------------------
def _read_text(name: str) -> str:
    """A board or pieces file (``-`` is standard input), without a leading
    byte-order mark; a file that cannot be opened is a usage error."""
    try:
        if name == "-":
            text = sys.stdin.read()
        else:
            with open(name, encoding="utf-8", newline="") as handle:
                text = handle.read()
    except UnicodeDecodeError:
        raise InputError(f"{name}: not a UTF-8 text file") from None
    except OSError as error:
        raise UsageError(f"cannot read {name}: {error.strerror}") from None
    return text[1:] if text.startswith("\ufeff") else text


def _limit(args) -> int | None:
    if args.count:
        return None
    if args.all:
        return None
    return args.limit or 1


def _report(args, pictures: Iterable[str], count: Callable[[], int],
            stats: Callable[[], Stats]) -> int:
    """Print pictures or the count; returns the exit status."""
    if args.count:
        found = count()
        print(found)
    else:
        found = 0
        for picture in pictures:
            if found and "\n" in picture:  # a blank line between pictures
                print()
            print(picture, flush=args.all)
            found += 1
        if not found:
            print("no solution", file=sys.stderr)
    if args.stats:
        print(stats(), file=sys.stderr)
    return 0 if found else 1


def _run_problem(args, problem: ExactCover, draw: Callable) -> int:
    if getattr(args, "dlx", False):
        print(dumps(problem, comment=f"dlx {' '.join(args.argv)}"), end="")
        return 0
    if args.estimate:
        return _estimate(args, problem)
    pictures = (draw(problem, solution)
                for solution in problem.solutions(_limit(args)))
    return _report(args, pictures, lambda: _count(args, problem.count),
                   lambda: problem.stats)


def _count(args, count: Callable) -> int:
    """``count(**options)`` with the long-count options of ``args``."""
    with count_options(args) as options:
        return count(**options)


def _estimate(args, problem: ExactCover) -> int:
    print(problem.estimate(args.probes, seed=args.seed))
    return 0


def _solve(args) -> int:
    try:
        problem = load(args.file, max_name_length=None)
    except DLXFormatError as error:
        raise InputError(str(error)) from None
    except OSError as error:
        raise UsageError(f"cannot read {args.file}: {error.strerror}") \
            from None

    options = problem.options

    def draw(problem, solution):
        return "\n".join(" ".join(map(str, options[i])) for i in solution)

    return _run_problem(args, problem, draw)


def _pentomino(args, parser) -> int:
    from .problems.polyomino import Polyomino, parse_shapes, piece_set
    if (args.size is None) == (args.board is None):
        parser.error("give a board size like 6x10 or --board FILE "
                     "(one of them)")
    board = args.size
    if args.board is not None:
        board = _read_text(args.board)
        if not board.strip():
            raise InputError(f"{args.board}: the board file is empty")
    if os.path.exists(args.pieces):
        pieces = _read_text(args.pieces)
        try:
            pieces = parse_shapes(pieces)
        except ValueError as error:
            raise InputError(f"{args.pieces}: {error}") from None
    else:
        try:
            pieces = piece_set(args.pieces)
        except ValueError as error:  # a typo in a set name: not a file
            parser.error(str(error))
    from_files = args.board is not None or os.path.exists(args.pieces)
    try:
        puzzle = Polyomino(board, pieces, one_sided=args.one_sided,
                           copies=args.copies)
    except ValueError as error:
        if not from_files:  # the arguments alone are wrong
            parser.error(str(error))
        raise InputError(str(error)) from None
    distinct = not args.all_symmetries
    if args.estimate:
        try:
            problem = puzzle.distinct_problem() if distinct else \
                puzzle.problem
        except ValueError:
            problem = puzzle.problem
            print("dlx: note: estimating the search for every tiling "
                  "(this board's count up to symmetry is not one search)",
                  file=sys.stderr)
        return _estimate(args, problem)
    if args.dlx:
        if any(k > 1 for k in puzzle.copies.values()):
            raise UsageError(
                f"--dlx cannot be used with --copies {args.copies}: the DLX "
                f"problem would have one solution per numbering of the "
                f"copies ({args.copies}! per piece) for each tiling")
        try:
            problem = puzzle.distinct_problem() if distinct else \
                puzzle.problem
        except ValueError:
            raise UsageError(
                "--dlx: no single DLX problem has exactly one solution per "
                "tiling up to symmetry for this board; add --all-symmetries "
                "to write the one with every tiling") from None
        return _run_problem(args, problem, None)
    pictures = map(puzzle.render,
                   puzzle.solutions(distinct, limit=_limit(args)))
    return _report(args, pictures,
                   lambda: _count(args, lambda **options: puzzle.count(
                       distinct, **options)),
                   lambda: puzzle.stats)


def _queens(args) -> int:
    from .problems.queens import queens, render
    return _run_problem(args, queens(args.n), render)


def _langford(args) -> int:
    from .problems.langford import langford, render
    problem = langford(args.n, distinct=not args.all_symmetries)
    return _run_problem(args, problem, render)


def silence_stdout() -> None:
    """Point standard output at /dev/null, after its reader went away, so
    that flushing it at exit does not report the broken pipe again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        pass


def main(argv: list[str] | None = None) -> int:
    """Run the ``dlx`` command; returns the exit status."""
    parser = _parser()
    try:
        args = parser.parse_args(argv)
        args.argv = sys.argv[1:] if argv is None else list(argv)
        if args.command in ("solve", "estimate"):
            status = _solve(args)
        elif args.command == "pentomino":
            status = _pentomino(args, args.parser)
        elif args.command == "queens":
            status = _queens(args)
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
    except (UsageError, CountUsageError) as error:
        print(f"dlx: error: {error}", file=sys.stderr)
        return 2
    except (InputError, ValueError, OSError) as error:
        print(f"dlx: error: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
