"""The ``sudoku generate`` and ``sudoku rate`` commands, and the
``--variant``/``--regions`` options every command shares.

    sudoku generate -n 10 --difficulty hard --seed 1
    sudoku rate puzzles.txt                  # <puzzle> <level> <score>
    sudoku solve PUZZLE --variant jigsaw --regions regions.txt
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from dlx.cli.input import looks_like_a_file_name, no_such_file
from dlx.cli.paths import TEXT_OR_FILE, names_file
from dlx.textfile import read_text

# Only light modules at import (the flags read sudoku.constants): the
# generator, the rating and the engine load when a command runs.
from .constants import (
    FORMATS,
    LEVELS,
    MAX_SIZE,
    MIN_SIZE,
    RULES,
    SAMPLES,
    SYMMETRIES,
)

COMMANDS = ("generate", "rate")

# The library's advice names its Python arguments; a command's messages
# name the flags instead (every message the commands print goes through
# for_cli).
_FLAGS = (
    (
        "pass box=(rows, cols) explicitly",
        "give the box shape with --box ROWSxCOLS",
    ),
    ("(regions=... or --regions FILE)", "(--regions MAP|FILE)"),
)


def for_cli(message: str) -> str:
    """A library message with its advice on Python arguments given as the
    commands' flags."""
    for python, flags in _FLAGS:
        message = message.replace(python, flags)
    return message


def add_variant_options(parser: argparse.ArgumentParser) -> None:
    """``--variant`` and ``--regions``."""
    parser.add_argument(
        "--variant",
        default=None,
        metavar="RULES",
        help=f"extra rules: {', '.join(RULES)}, joined "
        f"with + (e.g. x+anti-knight)",
    )
    names_file(
        parser.add_argument(
            "--regions",
            default=None,
            metavar="MAP|FILE",
            help="the jigsaw region map: a grid of region "
            "letters, inline (one line) or in a file",
        ),
        TEXT_OR_FILE,
    )


def variant_of(args):
    """The ``Variant`` the options ask for (None: classic), or
    ``ValueError`` with the reason."""
    if args.variant is None and args.regions is None:
        return None
    from .encode import InvalidVariant, Variant

    regions = args.regions
    from_file = regions is not None and os.path.isfile(regions)
    if from_file:
        regions = read_text(regions, encoding="utf-8-sig")  # NotText: why
    elif regions is not None and os.path.isdir(regions):
        raise InvalidVariant(no_such_file("--regions", regions))
    rules = args.variant
    if rules is None:
        rules = "jigsaw"  # a region map alone means jigsaw
    try:
        return Variant(rules, regions) or None
    except InvalidVariant as error:
        # A mistyped file name is not a region map: say what it is.
        if (
            not from_file
            and regions is not None
            and looks_like_a_file_name(regions)
        ):
            raise InvalidVariant(
                no_such_file(
                    "--regions", regions, "a region map: " + str(error)
                )
            ) from None
        raise


def add_commands(commands, positive, count, box) -> None:
    """Register ``generate`` and ``rate`` on the subparsers ``commands``;
    ``positive``, ``count`` and ``box`` are the argument types of
    ``sudoku.cli``."""
    gen = commands.add_parser(
        "generate",
        help="make random minimal puzzles with one solution",
        description="Make random puzzles with exactly one solution and no "
        "given that could be removed, one per line on stdout.",
    )
    gen.add_argument(
        "-n",
        "--count",
        type=positive,
        default=1,
        metavar="COUNT",
        help="how many puzzles (default 1)",
    )
    gen.add_argument(
        "--size",
        type=positive,
        default=9,
        help=f"grid size, {MIN_SIZE} to {MAX_SIZE} (default 9)",
    )
    gen.add_argument(
        "--box",
        type=box,
        default=None,
        metavar="RxC",
        help="box shape, e.g. 2x3 (default: inferred)",
    )
    gen.add_argument(
        "--difficulty",
        type=_level,
        default=None,
        metavar="LEVEL",
        help=f"one of {', '.join(LEVELS)}",
    )
    gen.add_argument(
        "--symmetry",
        choices=SYMMETRIES,
        default="none",
        help="keep the givens symmetric (default none)",
    )
    gen.add_argument(
        "--seed",
        type=count,
        default=None,
        metavar="S",
        help="a whole number: make the same puzzles every time",
    )
    gen.add_argument(
        "--format",
        choices=FORMATS,
        default="line",
        help="line (default), grid (pretty) or csv",
    )
    gen.add_argument(
        "--threads",
        type=count,
        default=1,
        metavar="N",
        help="check uniqueness on N threads (0: one per core; default 1)",
    )
    add_variant_options(gen)
    gen.add_argument(
        "-q", "--quiet", action="store_true", help="no summary on stderr"
    )

    rate = commands.add_parser(
        "rate",
        help="rate the difficulty of puzzles",
        description="Rate PUZZLE or each puzzle of FILE (one per line; - "
        "for stdin) by the search effort it takes, averaged over random "
        "relabellings: writes <puzzle> <level> <score>.  Levels: "
        + ", ".join(LEVELS)
        + ".",
    )
    names_file(
        rate.add_argument("source", metavar="PUZZLE|FILE|-"), TEXT_OR_FILE
    )
    rate.add_argument(
        "--box",
        type=box,
        default=None,
        metavar="RxC",
        help="box shape, e.g. 2x3 (default: inferred)",
    )
    rate.add_argument(
        "--samples",
        type=positive,
        default=SAMPLES,
        metavar="K",
        help=f"relabellings averaged (default {SAMPLES})",
    )
    rate.add_argument(
        "--threads",
        type=count,
        default=0,
        metavar="N",
        help="N threads (0: one per core, the default)",
    )
    add_variant_options(rate)
    rate.add_argument(
        "-q", "--quiet", action="store_true", help="no summary on stderr"
    )


def _level(text: str) -> str:
    from . import rating as R

    try:
        return R.check_level(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def run(args, usage_error) -> int:
    """Run ``generate`` or ``rate``; ``usage_error`` is the exception class
    for exit status 2."""
    from .encode import InvalidVariant

    try:
        variant = variant_of(args)
    except (InvalidVariant, TypeError) as error:
        raise usage_error(str(error)) from None
    except OSError as error:
        raise usage_error(
            f"cannot read {args.regions}: {error.strerror}"
        ) from None
    if args.command == "generate":
        return run_generate(args, variant, usage_error)
    return run_rate(args, variant, usage_error)


def run_generate(args, variant, usage_error) -> int:
    if not MIN_SIZE <= args.size <= MAX_SIZE:
        raise usage_error(
            f"--size must be between {MIN_SIZE} and "
            f"{MAX_SIZE}, got {args.size}"
        )
    from . import generator as G, rating as R
    from .encode import InvalidVariant
    from .grid import InvalidPuzzle

    start = time.perf_counter()
    stats: dict = {}
    try:
        box, symmetry, difficulty, variant = G.checked_arguments(
            args.size, args.box, args.symmetry, args.difficulty, variant
        )
        puzzles, _ = G.generate_cells(
            args.count,
            box,
            difficulty=difficulty,
            symmetry=symmetry,
            seed=args.seed,
            variant=variant,
            threads=args.threads,
            stats=stats,
        )
    except (InvalidPuzzle, InvalidVariant, R.UnknownLevel) as error:
        raise usage_error(str(error)) from None
    except G.GenerationFailed as error:
        print(f"sudoku: {error}", file=sys.stderr)
        return 1
    from .grid import Grid

    out = []
    for cells in puzzles:
        grid = Grid.trusted(cells.astype("int64"), box)
        out.append(grid.format(args.format))
    sep = "\n" if args.format == "line" else "\n\n"
    sys.stdout.write(sep.join(out) + "\n")
    if not args.quiet:
        seconds = time.perf_counter() - start
        made = stats.get("candidates", args.count)
        extra = (
            f"; {made} made to find {args.count} {difficulty}"
            if difficulty
            else ""
        )
        print(
            f"sudoku: {args.count} puzzles in {seconds:.2f} s "
            f"({args.count / seconds:,.0f} puzzles/s){extra}",
            file=sys.stderr,
        )
    return 0


def run_rate(args, variant, usage_error) -> int:
    from . import rating as R, reader
    from .batch_text import without_comment
    from .cli_io import names_input, open_input

    start = time.perf_counter()
    if names_input(args.source):
        with open_input(args.source) as (stream, _):
            entries = list(reader.entries(reader.read_lines(stream), args.box))
    else:
        entries = [(0, args.source)]
    if not entries:
        print(f"sudoku: {args.source}: no puzzle found", file=sys.stderr)
        return 1
    texts = [
        text
        if not isinstance(text, str)
        or "\n" in text
        or (" " not in text.strip() and "\t" not in text)
        else without_comment(text, args.box)
        for _, text in entries
    ]
    readable = [k for k, text in enumerate(texts) if isinstance(text, str)]
    ratings: list = [f"invalid: {text}" for text in texts]
    for k, rating in zip(
        readable,
        R.rate_many(
            [texts[k] for k in readable],
            args.box,
            variant=variant,
            samples=args.samples,
            threads=args.threads,
        ),
    ):
        ratings[k] = rating
    counts = dict.fromkeys(LEVELS + ("multiple", "nosolution", "invalid"), 0)
    lines = []
    for (number, _), text, rating in zip(entries, texts, ratings):
        shown = _one_line(text)
        if isinstance(rating, R.Rating):
            counts[rating.level] += 1
            lines.append(f"{shown} {rating.level} {rating.score:.2f}\n")
            continue
        tag = rating.split(":", 1)[0]
        counts[tag] += 1
        where = f"line {number}: " if number else ""
        if tag == "invalid":
            print(
                f"sudoku: {where}{for_cli(rating.split(': ', 1)[1])}",
                file=sys.stderr,
            )
        lines.append(f"{shown} {tag}\n")
    sys.stdout.write("".join(lines))
    if not args.quiet and number:
        seconds = time.perf_counter() - start
        shown = ", ".join(f"{v} {k}" for k, v in counts.items() if v)
        print(
            f"sudoku: {len(texts)} puzzles rated in {seconds:.2f} s "
            f"({len(texts) / seconds:,.0f} puzzles/s): {shown}",
            file=sys.stderr,
        )
    return 0 if all(isinstance(r, R.Rating) for r in ratings) else 1


def _one_line(text) -> str:
    """A puzzle as one line for the output (a grid over several lines is
    written as its line form; unreadable text as it came, first line)."""
    if not isinstance(text, str):
        return "?"
    if "\n" in text:
        from .grid import InvalidPuzzle, parse

        try:
            return str(parse(text))
        except InvalidPuzzle:
            return text.strip().splitlines()[0]
    return text.strip()
