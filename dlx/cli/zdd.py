"""The ``dlx`` command's ZDD parts: ``dlx solve FILE --zdd OUT`` and
``dlx zdd``.

``dlx solve FILE --zdd OUT`` builds the ZDD of every solution of FILE
(``ExactCover.zdd``: the memoized search, ``--choose`` and ``--memo-mb``
as for ``--memo``) and writes it to OUT in the text of Knuth's ZDDREAD
programs, as DLX6 does (``dlx6 m1``); the count goes on the last line.

``dlx zdd OUT`` answers from such a file, DLX6's or ours, without the
problem's search: ``--count``, ``--sample N`` (uniformly random
solutions; ``--seed S``), ``--best K``/``--worst K`` with ``--weights W``
(a file of numbers, the k-th the weight of option k).  Options are
DLX6's numbers (from 1, counting the options that have a primary item);
with ``--problem FILE`` each solution is printed as its option lines, as
``dlx solve --all`` prints them: after a line ``solution N:`` (``--sample``)
or ``weight W`` (``--best``, ``--worst``), a blank line between two.
"""

from __future__ import annotations

import sys

# Only light modules at import: the parser is built for every command
# (--help, --version); formats, services and kernels load when run.
from ..textfile import read_text
from .count import CountUsageError
from .paths import INPUT, OUTPUT, names_file, replacing

__all__ = [
    "ZddUsageError",
    "add_zdd_option",
    "add_zdd_command",
    "solve_zdd",
    "run",
]


class ZddUsageError(CountUsageError):
    """A command line that asks the ZDD for what it cannot do (exit 2)."""


def add_zdd_option(solve) -> None:
    """``--zdd OUT`` for ``dlx solve``."""
    names_file(
        solve.add_argument(
            "--zdd",
            metavar="OUT",
            help="write the ZDD of every solution to OUT "
            "(Knuth's ZDDREAD text, as DLX6 writes it) and "
            "print the count; --choose and --memo-mb as "
            "with --memo",
        ),
        OUTPUT,
    )


def add_zdd_command(commands) -> None:
    """The ``dlx zdd`` subcommand."""
    zdd = commands.add_parser(
        "zdd",
        help="answer from a saved ZDD (dlx solve --zdd, dlx6 m1)",
        description="Answer from a ZDD file (dlx solve FILE --zdd OUT, or "
        "Knuth's dlx6 m1) without searching again. Options "
        "are numbered as in the file (from 1, options with a "
        "primary item); --problem prints them as lines of the "
        "problem file.",
    )
    names_file(
        zdd.add_argument("file", metavar="ZDD", help="the ZDD file"), INPUT
    )
    what = zdd.add_mutually_exclusive_group(required=True)
    what.add_argument(
        "--count",
        action="store_true",
        help="print the number of solutions (exact)",
    )
    what.add_argument(
        "--sample",
        type=int,
        metavar="N",
        help="print N uniformly random solutions",
    )
    what.add_argument(
        "--best",
        type=int,
        metavar="K",
        help="print the K solutions of least weight",
    )
    what.add_argument(
        "--worst",
        type=int,
        metavar="K",
        help="print the K solutions of greatest weight",
    )
    zdd.add_argument(
        "--seed",
        type=int,
        default=None,
        metavar="S",
        help="random seed of --sample",
    )
    names_file(
        zdd.add_argument(
            "--weights",
            metavar="W",
            help="a file of numbers: the k-th is option k's "
            "weight (for --best and --worst)",
        ),
        INPUT,
    )
    names_file(
        zdd.add_argument(
            "--problem",
            metavar="FILE",
            help="the problem in DLX format: print solutions as its "
            "option lines",
        ),
        INPUT,
    )


def solve_zdd(args, problem) -> int:
    """``dlx solve FILE --zdd OUT``; returns the exit status."""
    # What goes with --zdd was checked before (dlx.cli.flags).
    kwargs = {"choose": args.choose or "auto"}
    if args.memo_mb is not None:
        kwargs["memo_bytes"] = int(args.memo_mb * (1 << 20))
    if args.time_limit is not None:
        kwargs["time_limit"] = args.time_limit
    from ..services.search import BudgetExhausted

    try:
        z = problem.zdd(**kwargs)
    except (KeyboardInterrupt, BudgetExhausted) as stop:
        # Like an interrupted count: the partial count marked as such,
        # and no file, since a partial diagram is no answer.
        interrupted = isinstance(stop, KeyboardInterrupt)
        why = "interrupted" if interrupted else str(stop)
        print(
            f"{getattr(stop, 'count', 0)} (partial: "
            f"{'interrupted' if interrupted else 'stopped'})",
            flush=True,
        )
        print(
            f"dlx: {why}; the ZDD is partial and was not written to "
            f"{args.zdd}",
            file=sys.stderr,
        )
        return 130 if interrupted else 1
    with replacing(args.zdd) as out:  # the old file stays on a failure
        z.write(out)
    count = z.count()
    print(count)
    if args.stats:
        print(problem.stats, file=sys.stderr)
    return 0 if count else 1


def _weights(path: str) -> list:
    """Option k's weight at index k - 1, from a file of numbers."""
    try:
        words = read_text(path).split()
    except OSError as error:
        raise ZddUsageError(f"cannot read {path}: {error.strerror}") from None
    out: list[int | float] = []
    for k, word in enumerate(words, 1):
        try:
            out.append(int(word))
        except ValueError:
            try:
                out.append(float(word))
            except ValueError:
                raise ValueError(
                    f"{path}: weight {k} is {word!r}, not a number"
                ) from None
    return out


def run(args) -> int:
    """``dlx zdd``; returns the exit status."""
    if (args.best is not None or args.worst is not None) != (
        args.weights is not None
    ):
        raise ZddUsageError(
            "--weights goes with --best or --worst, and they need it"
        )
    if args.seed is not None and args.sample is None:
        raise ZddUsageError("--seed goes with --sample")
    for name in ("sample", "best", "worst"):
        value = getattr(args, name)
        if value is not None and value < 0:
            raise ZddUsageError(f"--{name} must not be negative, got {value}")
    from ..formats import (
        DLXFormatError,
        costs_of,
        load,
        solution_header,
        solution_lines,
    )
    from ..services.zdd import ZDD

    problem = None
    if args.problem is not None:
        try:
            problem = load(args.problem, max_name_length=None)
        except DLXFormatError as error:
            raise ValueError(str(error)) from None
    try:
        z = ZDD.read(args.file, problem)
    except OSError as error:
        raise ZddUsageError(
            f"cannot read {args.file}: {error.strerror}"
        ) from None
    if args.count:
        count = z.count()
        print(count)
        return 0 if count else 1

    shown = 0
    costs = None if problem is None else costs_of(problem)

    def show(solution, total=None):
        nonlocal shown
        shown += 1
        if problem is None:
            # As in the file: DLX6's numbers, one solution a line.
            print(
                ("" if total is None else f"{total}: ")
                + " ".join(str(k + 1) for k in solution)
            )
            return
        # As dlx solve prints a listing (formats.read_solutions reads it).
        if shown > 1:
            print()
        print(solution_header(shown) if total is None else f"weight {total}")
        for line in solution_lines(problem, solution, costs):
            print(line)

    if args.sample is not None:
        if not z.count():
            print("no solution", file=sys.stderr)
            return 1
        for solution in z.sample(args.sample, seed=args.seed):
            show(solution)
        return 0
    weights = _weights(args.weights)
    if problem is not None:
        # The file numbers options DLX6's way; the ZDD has the problem's.
        from ..services.zdd import dlx6_numbering

        numbering = dlx6_numbering(problem)
        numbered = int((numbering > 0).sum())
        if len(weights) != numbered:
            raise ValueError(
                f"{args.weights}: {len(weights)} weights for the "
                f"{numbered} options of {args.problem} (those with a "
                f"primary item): give one weight an option"
            )
        weights = [
            weights[n - 1] if 0 < n <= len(weights) else None
            for n in numbering.tolist()
        ]
    k = args.best if args.best is not None else args.worst
    found = (z.best if args.best is not None else z.worst)(k, weights)
    for total, solution in found:
        show(solution, total)
    if not found and not z.count():
        print("no solution", file=sys.stderr)
        return 1
    return 0
