"""``dlx solve FILE --best K``: the K cheapest solutions (Knuth's DLX5).

Each solution is printed as a line ``cost N`` followed by its option
lines (each with its cost as one ``|n`` token, none when 0), cheapest
first (ties in any order).  Exit status 0, or 1 when the problem has no
solution; on Ctrl-C the cheapest solutions found so far are printed,
with a note on standard error that they are not proven optimal, and the
status is 130.  The search runs in this process (``--stats``: DLX5's own
figures), or split into jobs on ``--jobs N`` processes or a Dask cluster
(``--scheduler``), which share the best found so far; ``--progress`` as
for counts; no ``--checkpoint``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from ..engines import Unsupported
from .count import count_options
from .flags import add_flag

__all__ = ["add_best_option", "run_best"]


def add_best_option(parser: argparse.ArgumentParser) -> None:
    """``--best K``, from its entry in the spec (``dlx.options``)."""
    add_flag(parser, "k")


def run_best(
    args, problem, line: Callable[[int], str], usage_error: type
) -> int:
    """Search and print; ``line(k)`` is option ``k`` as the file wrote
    it.  What the search refuses raises ``usage_error``."""
    # Which flags go with --best was checked before (dlx.cli.flags).
    from ..services.search import BudgetExhausted, Interrupted

    def priced(k):  # the option line, its cost as one token
        cost = problem.cost_of(k)  # O(1): see test_costs_in_loops
        return line(k) + (f" |{cost}" if cost else "")

    try:
        with count_options(args, every_core=False) as options:
            if "jobs" not in options and "executor" not in options:
                options.pop("progress", None)  # one search: no bar
            if getattr(args, "time_limit", None) is not None:
                options["time_limit"] = args.time_limit
            found = problem.best(args.best, **options)
    except Unsupported as error:
        raise usage_error(str(error)) from None
    except (Interrupted, BudgetExhausted) as stop:
        budget = isinstance(stop, BudgetExhausted)
        _print(getattr(stop, "best", []), priced)
        print(
            f"dlx: {'time limit reached' if budget else 'interrupted'}: the "
            f"{len(getattr(stop, 'best', []))} "
            f"solution(s) printed are the cheapest found so far, not "
            f"proven optimal",
            file=sys.stderr,
        )
        if args.stats:
            print(stop.stats, file=sys.stderr)
        return 1 if budget else 130
    _print(found, priced)
    if not found:
        print("no solution", file=sys.stderr)
    if args.stats:
        print(problem.stats, file=sys.stderr)
    return 0 if found else 1


def _print(found, line) -> None:
    for cost, solution in found:
        print(f"cost {cost}")
        for k in solution:
            print(line(k))
    sys.stdout.flush()
