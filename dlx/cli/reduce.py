"""``dlx reduce FILE``: a problem made smaller (Knuth's DLX-PRE), written in
his format; and ``dlx solve FILE --reduce``, which searches the reduced
problem and prints the original options.

The reduced problem goes to standard output, each option followed by a
comment ``| (from N)`` naming the original option it comes from, numbered
as DLX-PRE numbers them (from 1, counting only the options with a primary
item); a summary (what was removed, rounds, time) goes to standard error.
The work itself is ``dlx.services.reduce``.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

# Only light modules at import: the parser is built for every command
# (--help, --version); formats, services and kernels load when run.
from ..services.defaults import DLX_PRE_RULES, RULES
from .flags import add_flag, seconds, whole
from .paths import INPUT, names_file

if TYPE_CHECKING:
    from ..services.reduce import Reduction

__all__ = [
    "add_reduce_command",
    "add_reduce_option",
    "run_reduce",
    "reducing",
    "numbered",
]


def _rules(text: str) -> tuple:
    if text == "dlx-pre":
        return DLX_PRE_RULES
    if text == "all":
        return RULES
    rules = tuple(rule for rule in text.split(",") if rule)
    for rule in rules:
        if rule not in RULES:
            raise argparse.ArgumentTypeError(
                f"unknown rule {rule!r}; the rules are {', '.join(RULES)} "
                f"(or all, or dlx-pre)"
            )
    return rules


def _add_budget(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group(
        "the reduction",
        "Rules are applied until none applies, or until "
        "a budget runs out (the result is sound either "
        "way).",
    )
    group.add_argument(
        "--rounds", type=whole, metavar="N", help="at most N rounds"
    )
    group.add_argument(
        "--reduce-time",
        type=seconds,
        metavar="SECONDS",
        help="at most this long",
    )
    group.add_argument(
        "--max-work",
        type=whole,
        metavar="N",
        help="at most N work (entries looked at)",
    )
    group.add_argument(
        "--rules",
        type=_rules,
        default=RULES,
        metavar="LIST",
        help=f"the rules, comma-separated: "
        f"{', '.join(RULES)}; all (default) or "
        f"dlx-pre (Knuth's)",
    )


def add_reduce_command(commands) -> None:
    """The ``dlx reduce`` subcommand."""
    parser = commands.add_parser(
        "reduce",
        help="make a problem smaller (Knuth's DLX-PRE)",
        description="Reduce an exact-cover problem in Knuth's DLX format "
        "(DLX2 colors and DLX3 bounds understood) by Knuth's "
        "DLX-PRE rules: the reduced problem, with the same "
        "solutions, goes to standard output, each option "
        "followed by '| (from N)', its original option "
        "(numbered from 1 among the options with a primary "
        "item, as DLX-PRE numbers them); a summary goes to "
        "standard error.",
    )
    names_file(
        parser.add_argument(
            "file",
            metavar="FILE|-",
            help="the problem file, or - for standard input",
        ),
        INPUT,
    )
    _add_budget(parser)


def add_reduce_option(parser: argparse.ArgumentParser) -> None:
    """``dlx solve --reduce`` (and the reduction's budget)."""
    add_flag(parser, "reduce")  # from its entry in the spec
    _add_budget(parser)


def _budget(args) -> dict:
    return {
        "rounds": args.rounds,
        "time_limit": args.reduce_time,
        "max_work": args.max_work,
        "rules": args.rules,
    }


def numbered(problem) -> list[int]:
    """DLX-PRE's number of each option of ``problem``: from 1, counting
    only options with a primary item (0 for the others)."""
    primary = set(problem.primary)
    numbers, n = [], 0
    for option in problem.options:
        if any(item in primary for item in option):
            n += 1
            numbers.append(n)
        else:
            numbers.append(0)
    return numbers


def reduced_text(problem, reduction: Reduction) -> str:
    """The reduced problem in Knuth's format, with DLX-PRE's ``(from N)``
    comments."""
    from ..formats import dumps

    lines = dumps(
        reduction.problem, max_name_length=None, max_color_length=None
    ).splitlines()
    numbers = numbered(problem)
    out = [lines[0]]
    for line, k in zip(lines[1:], reduction.original):
        out += [line, f"| (from {numbers[k]})"]
    return "\n".join(out) + "\n"


def _load(args):
    """The problem of ``args.file``, or an exit status after an error."""
    from ..formats import DLXFormatError, load

    try:
        return load(args.file, max_name_length=None)
    except DLXFormatError as error:
        print(f"dlx: error: {error}", file=sys.stderr)
        return 1
    except OSError as error:
        print(
            f"dlx: error: cannot read {args.file}: {error.strerror}",
            file=sys.stderr,
        )
        return 2


def run_reduce(args) -> int:
    """``dlx reduce FILE``; returns the exit status."""
    problem = _load(args)
    if isinstance(problem, int):
        return problem
    from ..services.reduce import reduce

    reduction = reduce(problem, **_budget(args))
    try:
        text = reduced_text(problem, reduction)
    except ValueError as error:  # e.g. no primary item left to write
        print(
            f"dlx: error: the reduced problem cannot be written: {error}",
            file=sys.stderr,
        )
        return 1
    sys.stdout.write(text)
    nprimary, nsecondary = len(problem.primary), len(problem.secondary)
    print(
        f"({len(problem.options)} options, {nprimary}+{nsecondary} items "
        f"read)",
        file=sys.stderr,
    )
    print(reduction.summary(), file=sys.stderr)
    return 0


class _Reducing:
    """A problem seen through its reduction, for ``dlx solve --reduce``:
    searches run on the reduced problem and answer with original option
    numbers; everything else is the original problem's."""

    def __init__(self, problem, reduction: Reduction):
        self._problem = problem
        self._reduction = reduction

    def __getattr__(self, name):
        return getattr(self._problem, name)

    @property
    def kind(self):
        return self._reduction.problem.kind

    @property
    def stats(self):
        return self._reduction.problem.stats

    def solutions(self, limit=None, **options):
        reduction = self._reduction
        for solution in reduction.problem.solutions(limit, **options):
            yield reduction.to_original(solution)

    def count(self, *args, **options):
        return self._reduction.problem.count(*args, **options)

    def estimate(self, *args, **options):
        return self._reduction.problem.estimate(*args, **options)

    def best(self, k=1, **options):
        from ..services.reduce import best_of

        return best_of(self._reduction, self._problem, k, **options)


def reducing(args, problem):
    """``problem`` as ``dlx solve --reduce`` searches it; the reduction's
    summary goes to standard error with ``--stats``."""
    from ..services.reduce import reduce

    reduction = reduce(problem, **_budget(args))
    if args.stats:
        print(reduction.summary(), file=sys.stderr)
    return _Reducing(problem, reduction)
