"""The ``sudoku`` command line.

    sudoku solve PUZZLE|FILE|-   solve a puzzle, or a file (one per line)
    sudoku solve --example       a famous hard puzzle and its solution
    sudoku serve [--open]        a web page and JSON API on 127.0.0.1:8000
    sudoku generate [-n COUNT]   random minimal puzzles with one solution
    sudoku rate PUZZLE|FILE|-    difficulty: <puzzle> <level> <score>
    (every command takes --variant RULES and --regions MAP|FILE; see
    sudoku/cli_generate.py)
    sudoku count PUZZLE          count its solutions (solve --count), on
                                 every core, with progress and --checkpoint

A FILE (or ``-`` for standard input) holding one grid over several lines is
one puzzle; otherwise each non-blank line is a puzzle (text after the
puzzle and a space, such as a name or a tag, is ignored).  Lines that are
each a whole puzzle are never read as the rows of one grid (16 lines of
16 cells are 16 4x4 puzzles; ``--box 4x4`` makes them one 16x16 grid).
A FILE or ``-`` is always a batch, even with one puzzle: the output has one
entry per puzzle in input order (a PUZZLE given on the command line is
answered alone: its solution, a bare count or verdict).  With the line format a
puzzle that is not simply solved is written ``<grid> <tag>``, where the tag
is ``multiple``, ``nosolution``, ``invalid`` or ``unknown``, and the grid
is the first solution (``multiple``) or the puzzle itself.  A count that
stopped at ``--limit N`` is written ``N+`` (at least N), alone or as a tag.

A batch reports progress on stderr once it runs for more than a second,
and ends with a summary: solved, no solution, multiple, invalid, and
puzzles per second.

Exit status: 0 when every puzzle has a solution (with ``--unique``: exactly
one; with ``--count``: at least one), 1 when some puzzle has none or is
invalid, 2 for usage errors.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import os
import sys
import time
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, TextIO

# Only light modules at import: the parser is built for every command, and
# --version, --help and usage errors answer before numpy, numba or the
# engine loads; the solver loads when a command runs (tests/test_imports.py
# checks what each loads).
from dlx.cli import in_own_process, start_plain
from dlx.cli.count import (
    CountUsageError,
    add_count_options,
    count_options,
    interrupted_message,
)
from dlx.cli.flags import add_time_limit_option
from dlx.cli.paths import (
    OUTPUT,
    TEXT_OR_FILE,
    PathUsageError,
    check_paths,
    names_file,
    replacing,
    silence_stdout,
)
from dlx.services.checkpoint import CheckpointError  # light: not dlx.jobs
from dlx.shorten import shorten

from . import cli_generate
from .cli_io import UsageError, names_input, open_input
from .constants import ALPHABET, BLANKS, FORMATS
from .web import server as serve

if TYPE_CHECKING:
    from .grid import Grid
    from .lines import BatchOptions, Fast, Slow

EXAMPLE_NAME = "AI Escargot (Arto Inkala, 2006)"
EXAMPLE = (
    "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4"
    "......7..7...3.."
)
# How hard a single solve looks for a second solution, to warn about it.
UNIQUE_CHECK_NODES = 1_000_000
PROGRESS_AFTER = 1.0  # seconds before a batch starts reporting progress


DASH_MARK = "\0"


def _is_dashed_puzzle(arg: str) -> bool:
    """An argument starting with ``-`` that is a one-line puzzle (16 cells
    or more of blanks and digits), not an option."""
    return (
        arg.startswith("-")
        and len(arg) >= 16
        and all(ch in BLANKS or ch.upper() in ALPHABET for ch in arg)
    )


def _option_strings(parser: argparse.ArgumentParser) -> set[str]:
    """Every option of ``parser`` and of its commands."""
    found: set[str] = set()
    for action in parser._actions:
        found.update(action.option_strings)
        if isinstance(action.choices, dict):  # the commands' parsers
            for command in action.choices.values():
                found |= _option_strings(command)
    return found


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sudoku",
        description="Solve Sudoku puzzles (4x4 to 25x25 and "
        "beyond) by exact cover with Dancing Links.",
    )
    parser.add_argument(
        "--version", action="version", version=f"%(prog)s {_version()}"
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    solve = commands.add_parser(
        "solve",
        help="solve a puzzle or a file of puzzles",
        description="Solve PUZZLE (the grid itself), FILE (one puzzle per "
        "line, or one multi-line grid) or - (standard input).",
    )
    names_file(
        solve.add_argument("source", nargs="?", metavar="PUZZLE|FILE|-"),
        TEXT_OR_FILE,
    )
    solve.add_argument(
        "--example",
        action="store_true",
        help="solve a famous hard puzzle and show both grids",
    )
    mode = solve.add_mutually_exclusive_group()
    mode.add_argument(
        "--count",
        action="store_true",
        help="count the solutions (see --limit)",
    )
    mode.add_argument(
        "--unique",
        action="store_true",
        help="check that each puzzle has exactly one solution",
    )
    solve.add_argument(
        "--limit",
        type=_positive,
        default=None,
        metavar="N",
        help="with --count, stop counting at N",
    )
    solve.add_argument(
        "--format",
        choices=("same",) + FORMATS,
        default="same",
        help="output layout: same as the "
        "input (default), line, grid (pretty) or csv",
    )
    solve.add_argument(
        "--box",
        type=_box,
        default=None,
        metavar="RxC",
        help="box shape, e.g. 2x3 (default: inferred)",
    )
    solve.add_argument(
        "--max-nodes",
        type=_positive,
        default=None,
        metavar="N",
        help="give up on a puzzle after N search nodes (reported as unknown)",
    )
    solve.add_argument(
        "--threads",
        type=_count,
        default=0,
        metavar="N",
        help="solve a batch on N threads (0: one per core; the default)",
    )
    names_file(  # replaced at the end: it may be the input file
        solve.add_argument(
            "-o",
            "--output",
            metavar="FILE",
            help="write results to FILE instead of stdout",
        ),
        OUTPUT,
        may_be_input=True,
    )
    names_file(
        solve.add_argument(
            "--svg",
            metavar="FILE",
            help="also draw the solved grid as an SVG picture "
            "in FILE (givens bold on grey); one PUZZLE or "
            "--example only",
        ),
        OUTPUT,
    )
    solve.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help="no progress or summary on stderr",
    )
    add_time_limit_option(solve)
    serve.add_parser(commands)
    cli_generate.add_variant_options(solve)
    cli_generate.add_commands(commands, _positive, _count, _box)
    add_count_options(solve)
    counter = commands.add_parser(
        "count",
        help="count the solutions of a puzzle (solve --count)",
        description="Count the solutions of PUZZLE (a grid with few givens "
        "can have millions: the empty 6x6 has 28,200,960), on every core "
        "with a progress bar on a terminal; --checkpoint FILE resumes "
        "after a crash.  FILE or - counts each puzzle of a file.",
    )
    names_file(
        counter.add_argument("source", nargs="?", metavar="PUZZLE|FILE|-"),
        TEXT_OR_FILE,
    )
    counter.add_argument(
        "--limit",
        type=_positive,
        default=None,
        metavar="N",
        help="stop counting at N",
    )
    counter.add_argument(
        "--box",
        type=_box,
        default=None,
        metavar="RxC",
        help="box shape, e.g. 2x3 (default: inferred)",
    )
    add_count_options(counter)
    add_time_limit_option(counter)
    cli_generate.add_variant_options(counter)
    counter.set_defaults(
        example=False,
        count=True,
        unique=False,
        format="same",
        max_nodes=None,
        threads=0,
        output=None,
        quiet=False,
        svg=None,
    )
    return parser


def _version() -> str:
    from dlx import __version__

    return __version__


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(
            f"expected a positive integer, got {shorten(text)}"
        )
    return value


def _count(text: str) -> int:
    if not (text.isascii() and text.isdigit()):
        raise argparse.ArgumentTypeError(
            f"expected a whole number, got {shorten(text)}"
        )
    return int(text)


def _box(text: str) -> tuple[int, int]:
    parts = text.lower().replace(",", "x").split("x")
    if len(parts) == 2 and all(
        p.strip().isdigit() and int(p) > 0 for p in parts
    ):
        return int(parts[0]), int(parts[1])
    raise argparse.ArgumentTypeError(
        f"expected ROWSxCOLS such as 3x3, got {shorten(text)}"
    )


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    return in_own_process(_main, argv)


def _main(argv: list[str] | None) -> int:
    parser = build_parser()
    own_process = argv is None  # a command of its own: see start_plain
    argv = sys.argv[1:] if argv is None else list(argv)
    # A puzzle may start with "-" (a blank): mark it so that argparse does
    # not take it for an option (the mark is removed below).
    # (An option of 16 letters, --max-time-limit, is no puzzle.)
    options = _option_strings(parser)
    dashed = [
        k
        for k, arg in enumerate(argv)
        if _is_dashed_puzzle(arg) and arg.split("=")[0] not in options
    ]
    for k in dashed:
        argv[k] = DASH_MARK + argv[k]
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        return int(exit_.code or 0)
    if getattr(args, "source", None) and args.source.startswith(DASH_MARK):
        args.source = args.source[len(DASH_MARK) :]
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    if own_process and not start_plain("sudoku"):
        return 2
    try:
        check_paths(parser, args)  # before any work
        if args.command == "serve":
            return serve.run(args)
        if args.command in cli_generate.COMMANDS:
            return cli_generate.run(args, UsageError)
        return run_solve(args)
    except (UsageError, CountUsageError, PathUsageError) as error:
        print(f"sudoku: {_for_cli(str(error))}", file=sys.stderr)
        return 2
    except CheckpointError as error:
        print(f"sudoku: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt as stop:
        output = getattr(args, "output", None)
        where = (
            ""
            if output is None or not os.path.isfile(output)
            else f" ({output} left as it was)"
        )
        print(
            "\n" + interrupted_message("sudoku", stop) + where, file=sys.stderr
        )
        return 130
    except BrokenPipeError:
        # The reader went away (``sudoku solve big.txt | head -1``): stop
        # quietly with the status of a process killed by SIGPIPE (128 + 13,
        # as dlx), and keep Python from reporting the pipe again when it
        # flushes standard output at exit.
        silence_stdout()
        return 141
    except OSError as error:
        where = f"{error.filename}: " if error.filename else ""
        print(f"sudoku: {where}{error.strerror or error}", file=sys.stderr)
        return 1


def run_solve(args: argparse.Namespace) -> int:
    if args.svg and (args.count or args.unique):
        raise UsageError(
            "--svg draws a solution; it cannot go with "
            + ("--count" if args.count else "--unique")
        )
    if args.example:
        if args.source is not None:
            raise UsageError("--example takes no PUZZLE or FILE")
        ignored = [
            flag
            for flag, used in (
                ("-o", args.output),
                ("--format", args.format != "same"),
                ("--count", args.count),
                ("--unique", args.unique),
                ("--limit", args.limit),
                ("--box", args.box),
                ("--max-nodes", args.max_nodes),
                ("--time-limit", args.time_limit is not None),
            )
            if used
        ]
        if ignored:
            raise UsageError(
                f"--example shows one fixed puzzle and its "
                f"solution; it takes no {', '.join(ignored)}"
            )
        return show_example(args.svg)
    if args.source is None:
        raise UsageError("give a PUZZLE, a FILE or - (see sudoku solve -h)")
    if args.limit is not None and not args.count:
        raise UsageError("--limit goes with --count")
    if args.svg and names_input(args.source):
        raise UsageError(
            "--svg draws one PUZZLE given on the command line "
            "(or --example), not a FILE"
        )
    try:
        args.variant = cli_generate.variant_of(args)
    except (ValueError, TypeError) as error:
        raise UsageError(str(error)) from None
    _check_count_flags(args)
    if not names_input(args.source):
        with output_to(args.output) as out:
            return solve_one(args.source, args, out)
    spread = [
        flag
        for flag, value in (
            ("--jobs", args.jobs),
            ("--checkpoint", args.checkpoint),
            ("--scheduler", args.scheduler),
            ("--progress", args.progress or None),
        )
        if value is not None
    ]
    if spread:  # a batch runs on --threads: these would do nothing
        raise UsageError(
            f"{spread[0]} counts one PUZZLE given on the command line, "
            f"not a FILE (a FILE's puzzles share --threads)"
        )
    from . import lines  # a FILE's reading and writing

    options = lines.BatchOptions(
        args.box,
        args.format,
        args.unique,
        args.count,
        args.limit,
        args.max_nodes,
        args.threads,
        args.variant,
    )
    with open_input(args.source) as (stream, total):
        found = lines.segments(stream, options)
        first = next(found, None)
        if first is None:
            print(
                f"sudoku: {args.source}: no puzzle found (the input is empty)",
                file=sys.stderr,
            )
            return 1
        with output_to(args.output) as out:
            return solve_batch(
                itertools.chain([first], found), total, args, options, out
            )


@contextlib.contextmanager
def output_to(path: str | None) -> Iterator[TextIO]:
    """Standard output, or the file ``path``.  A regular file is written
    under a temporary name beside it and renamed into place at the end, so
    ``-o`` may name the input file, and a failure or an interrupt leaves
    the old file as it was (a device or a pipe is written in place)."""
    if path is None or path == "-":
        yield sys.stdout
        sys.stdout.flush()
        return
    if os.path.isdir(path):
        raise UsageError(f"cannot write {path}: it is a directory")
    try:
        writing = replacing(path)
        stream = writing.__enter__()
    except OSError as error:
        raise UsageError(f"cannot write {path}: {error.strerror}") from None
    with contextlib.ExitStack() as stack:
        stack.push(writing)
        yield stream


def _check_count_flags(args) -> None:
    """The count's flags checked as ``ExactCover.count`` checks them
    (``dlx.options``: a count in jobs takes no ``--limit``,
    ``--max-nodes`` or ``--time-limit``), and the long-count flags
    refused without ``--count``: one sentence, a usage error."""
    from dlx.options import check

    spread = {
        option: value
        for option, value in (
            ("jobs", args.jobs),
            ("checkpoint", args.checkpoint),
            ("executor", args.scheduler),
            ("progress", args.progress or None),
        )
        if value is not None
    }
    names = {
        "time_limit": "--time-limit",
        "max_nodes": "--max-nodes",
        "limit": "--limit",
        "jobs": "--jobs",
        "checkpoint": "--checkpoint",
        "executor": "--scheduler",
        "progress": "--progress",
    }
    if not args.count:
        if spread:
            raise UsageError(f"{names[next(iter(spread))]} goes with --count")
        return
    if "executor" in spread:  # an address: a stand-in executor to check
        spread["executor"] = argparse.Namespace(submit=print)
    budgets = {
        option: value
        for option, value in (
            ("limit", args.limit),
            ("max_nodes", args.max_nodes),
            ("time_limit", args.time_limit),
        )
        if value is not None
    }
    if not spread or not budgets:
        return  # one count here, or the long count: both run
    try:
        check("count", names=names, **budgets, **spread)
    except ValueError as error:
        raise UsageError(str(error)) from None


# -- one puzzle ---------------------------------------------------------------
def solve_one(text: str, args, out: TextIO) -> int:
    from dlx import BudgetExhausted

    from .batch_text import TAGS, count_text, render
    from .grid import InvalidPuzzle, parse
    from .solver import (
        INVALID,
        MULTIPLE,
        NO_SOLUTION,
        RESTART_NODES,
        SOLVED,
        UNKNOWN,
        count,
        solve_many,
    )

    try:
        puzzle = parse(text, args.box)
        if args.count:
            try:
                if (
                    args.limit is None
                    and args.max_nodes is None
                    and args.time_limit is None
                ):
                    # A whole count: the engine's long-count machinery.
                    with count_options(args) as options:
                        total = count(puzzle, variant=args.variant, **options)
                else:
                    # One count here (a budget or a limit: no jobs, as
                    # _check_count_flags made sure), its bar if asked for.
                    with count_options(args, every_core=False) as options:
                        total = count(
                            puzzle,
                            args.limit,
                            max_nodes=args.max_nodes,
                            time_limit=args.time_limit,
                            variant=args.variant,
                            **{k: v for k, v in options.items() if v},
                        )
            except KeyboardInterrupt as stop:  # Interrupted, or before it
                partial = getattr(stop, "count", 0)
                print(f"{partial} (partial: interrupted)", file=out)
                print(
                    interrupted_message("sudoku", stop, counted=partial),
                    file=sys.stderr,
                )
                return 130
            except BudgetExhausted as stop:
                if args.time_limit is None:
                    raise
                # As an interrupt prints it, naming the time limit.
                print(f"{stop.count} (partial: stopped)", file=out)
                said = interrupted_message("sudoku", stop, counted=stop.count)
                print(
                    said.replace("interrupted", "time limit reached", 1),
                    file=sys.stderr,
                )
                return 1
            print(count_text(total, args.limit), file=out)
            return 0 if total else 1
        several = None  # whether a second solution turned up (None: ask)
        if (
            not args.unique
            and args.max_nodes is None
            and (args.time_limit is None)
        ):
            # One search for the solution and the note on a second one:
            # ended within RESTART_NODES, it found the first solution the
            # search for one alone finds (no restart came before it) and
            # told whether there is another; else the two searches below
            # (and with a budget given, as it was: the budget is the
            # solution's, not the note's).
            both = solve_many(
                [puzzle],
                limit=2,
                max_nodes=RESTART_NODES,
                variant=args.variant,
                time_limit=args.time_limit,
            )[0]
            if both.status != UNKNOWN:
                result, several = both, both.status == MULTIPLE
        if several is None:
            result = solve_many(
                [puzzle],
                limit=2 if args.unique else 1,
                max_nodes=args.max_nodes,
                variant=args.variant,
                time_limit=args.time_limit,
            )[0]
    except InvalidPuzzle as error:
        print(
            f"sudoku: invalid puzzle: {_for_cli(str(error))}", file=sys.stderr
        )
        return 1
    except BudgetExhausted as error:
        print(f"sudoku: gave up: {error}", file=sys.stderr)
        return 1
    if result.status == INVALID:
        print(
            f"sudoku: invalid puzzle: {_for_cli(str(result.error))}",
            file=sys.stderr,
        )
        return 1
    if args.unique:
        print(
            {
                SOLVED: "unique",
                MULTIPLE: "multiple",
                NO_SOLUTION: TAGS[NO_SOLUTION],
                UNKNOWN: "unknown",
            }[result.status],
            file=out,
        )
        return 0 if result.status == SOLVED else 1
    if result.status in (NO_SOLUTION, UNKNOWN):
        reason = (
            "no solution"
            if result.status == NO_SOLUTION
            else "gave up (node budget)"
        )
        print(f"sudoku: {reason}", file=sys.stderr)
        return 1
    assert result.grid is not None  # solved
    print(render(result.grid, args.format), file=out)
    if args.svg:
        write_svg(args.svg, result.grid, puzzle)
    if several if several is not None else _has_several(puzzle, args.variant):
        print(
            "sudoku: note: the puzzle has more than one solution; this is "
            "one of them",
            file=sys.stderr,
        )
    return 0


def _has_several(puzzle: Grid, variant=None) -> bool:
    """Whether a second solution turns up within a modest search (proving
    uniqueness can cost far more than solving; ``--unique`` does that)."""
    from .solver import MULTIPLE, solve_many

    check = solve_many(
        [puzzle], limit=2, max_nodes=UNIQUE_CHECK_NODES, variant=variant
    )[0]
    return check.status == MULTIPLE


# -- batches ------------------------------------------------------------------
def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


class Summary:
    """Counts per status, timing and progress reports on stderr."""

    def __init__(self, total: int | None, quiet: bool):
        from .batch_text import TAGS

        self.total = total
        self.quiet = quiet
        self.counts = dict.fromkeys(TAGS, 0)
        self.done = 0
        self.start = time.perf_counter()
        self.last_report = self.start
        self.tty = sys.stderr.isatty()
        self.reported = False

    def add(self, status: str, number: int = 1) -> None:
        self.counts[status] += number
        self.done += number

    def progress(self, line: int) -> None:
        """Report, at most every few seconds; ``line``: the last line read
        (the share of a file done is that of its lines)."""
        now = time.perf_counter()
        if (
            self.quiet
            or now - self.start < PROGRESS_AFTER
            or (not self.tty and now - self.last_report < 5.0)
        ):
            return
        self.last_report = now
        rate = self.done / (now - self.start)
        if self.total:
            share = min(99, 100 * line // self.total)
            text = (
                f"sudoku: {_plural(self.done, 'puzzle')}, {share}% of "
                f"the input, {rate:,.0f} puzzles/s"
            )
        else:
            text = (
                f"sudoku: {_plural(self.done, 'puzzle')}, "
                f"{rate:,.0f} puzzles/s"
            )
        print(
            ("\r" + text) if self.tty else text,
            end="" if self.tty else "\n",
            file=sys.stderr,
            flush=True,
        )
        self.reported = True

    def finish(self, interrupted: bool = False) -> None:
        from .solver import INVALID, MULTIPLE, NO_SOLUTION, SOLVED, UNKNOWN

        if self.quiet and not interrupted:
            return
        seconds = time.perf_counter() - self.start
        if self.tty and self.reported:
            print("\r\033[K", end="", file=sys.stderr)
        rate = self.done / seconds if seconds > 0 else float("inf")
        parts = [
            f"{self.counts[SOLVED]} solved",
            f"{self.counts[NO_SOLUTION]} no solution",
            f"{self.counts[MULTIPLE]} multiple",
            f"{self.counts[INVALID]} invalid",
        ]
        if self.counts[UNKNOWN]:
            parts.append(f"{self.counts[UNKNOWN]} unknown")
        stopped = " before an interrupt (partial)" if interrupted else ""
        print(
            f"sudoku: {_plural(self.done, 'puzzle')} in {seconds:.2f} s"
            f"{stopped} ({rate:,.0f} puzzles/s): {', '.join(parts)}",
            file=sys.stderr,
        )


def solve_batch(
    parts: Iterable[Fast | Slow],
    total: int | None,
    args,
    options: BatchOptions,
    out: TextIO,
) -> int:
    """Solve the segments of a file (``sudoku.lines.segments``) in order,
    writing as it goes; ``total`` (an estimate, or None) is for progress
    reports."""
    import numpy as np

    from dlx import BudgetExhausted

    from .lines import answers
    from .solver import MULTIPLE, SOLVED, STATUSES

    # What fails the batch (exit status 1): with --unique, anything but
    # one solution; else a puzzle without a solution or not solved.
    passed = (SOLVED,) if args.unique else (SOLVED, MULTIPLE)
    failing = np.array([name not in passed for name in STATUSES])
    deadline = (
        None
        if args.time_limit is None
        else time.perf_counter() + args.time_limit
    )
    summary = Summary(total, args.quiet)
    failed = False
    found = answers(parts, options, deadline)
    while True:
        try:
            answer = next(found, None)
        except BudgetExhausted:
            # --time-limit: what was written stays, marked partial.
            out.flush()
            summary.finish(interrupted=True)
            print(
                "sudoku: time limit reached: the puzzles above are done, "
                "the rest are not (a partial list)",
                file=sys.stderr,
            )
            return 1
        except KeyboardInterrupt:
            # What was written stays (on standard output; a file given
            # with -o is left as it was); the summary says it is partial.
            out.flush()
            summary.finish(interrupted=True)
            raise
        if answer is None:
            break
        for where, message in answer.invalid:
            print(
                f"sudoku: line {where}: {_for_cli(message)}", file=sys.stderr
            )
        tally = np.bincount(answer.status, minlength=len(STATUSES))
        for name, number in zip(STATUSES, tally.tolist()):
            summary.add(name, number)
        failed |= bool(failing[answer.status].any())
        out.write(answer.text)
        summary.progress(int(answer.numbers[-1]))
    summary.finish()
    return 1 if failed else 0


def _for_cli(message: str) -> str:
    """A library message, with advice on Python arguments given as the
    command's flags."""
    return cli_generate.for_cli(message)


def write_svg(path: str, grid: Grid, puzzle: Grid) -> None:
    """Draw ``grid`` with ``puzzle``'s givens set apart into ``path``."""
    from .draw import grid_svg

    try:
        with replacing(path) as handle:
            handle.write(grid_svg(grid, puzzle))
    except OSError as error:
        raise UsageError(f"cannot write {path}: {error.strerror}") from None


# -- the example --------------------------------------------------------------
def show_example(svg: str | None = None) -> int:
    from .grid import parse
    from .solver import solve_many

    puzzle = parse(EXAMPLE)
    solution = solve_many([puzzle])[0].grid
    assert solution is not None  # the example has its solution
    if svg:
        write_svg(svg, solution, puzzle)
    left = puzzle.pretty().split("\n")
    right = solution.pretty().split("\n")
    width = len(left[0])
    middle = len(left) // 2
    print(EXAMPLE_NAME)
    print(EXAMPLE)
    print()
    print("puzzle".ljust(width + 7) + "solution")
    for k, (a, b) in enumerate(zip(left, right)):
        arrow = "  ->  " if k == middle else "      "
        print(f"{a.ljust(width)} {arrow}{b}")
    return 0
