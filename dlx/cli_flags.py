"""The search flags of the ``dlx`` commands, checked against the options
spec (``dlx.options``) before any work: every combination either works
or is refused in one sentence (exit status 2).

A command line asks for one search by its *mode flag* (``--count``,
``--best``, ``--zdd``, ``--estimate``, ``--dlx``; none: list solutions),
and each other flag stands for one option of ``dlx.options.OPTIONS``
(``FLAGS``).  The flags given are checked as the Python call would be
(``dlx.options.check``, names spelled as flags), so a flag the search
does not take, or two that do not go together, is refused in the words
``ExactCover`` uses; a flag that needs another (``--rounds`` needs
``--reduce``) says so.
"""

from __future__ import annotations

import argparse

from .engines import Unsupported
from .options import OPTIONS, check
from .services.search import seconds as search_seconds
from .shorten import shorten

__all__ = ["MODES", "FLAGS", "check_flags", "add_time_limit_option", "seconds"]

#: The mode flags (``args`` attribute: flag, search), in the order a
#: sentence names them; without one, a command lists solutions.
MODES = {
    "zdd": ("--zdd", "zdd"),
    "best": ("--best", "best"),
    "estimate": ("--estimate", "estimate"),
    "dlx": ("--dlx", None),
    "count": ("--count", "count"),
}
#: The other flags: ``args`` attribute: (flag, option).
FLAGS = {
    "limit": ("--limit", "limit"),
    "all": ("--all", "limit"),
    "algorithm": ("--algorithm", "algorithm"),
    "memo": ("--memo", "memo"),
    "memo_mb": ("--memo-mb", "memo_bytes"),
    "choose": ("--choose", "choose"),
    "jobs": ("--jobs", "jobs"),
    "scheduler": ("--scheduler", "executor"),
    "checkpoint": ("--checkpoint", "checkpoint"),
    "progress": ("--progress", "progress"),
    "time_limit": ("--time-limit", "time_limit"),
    "probes": ("--probes", "probes"),
    "seed": ("--seed", "seed"),
    "reduce": ("--reduce", "reduce"),
}
#: Flags that only shape another flag's work: (flag, the flag it needs).
NEEDS = {
    "rounds": ("--rounds", "reduce"),
    "reduce_time": ("--reduce-time", "reduce"),
    "max_work": ("--max-work", "reduce"),
    "rules": ("--rules", "reduce"),
}
# A value standing for a flag given whose own value the check need not
# see (a Dask address, say): checked by the option's kind, so it is one.
_STAND_INS = {"executor": argparse.Namespace(submit=print)}


def _given(args: argparse.Namespace, attribute: str) -> bool:
    """Whether the flag behind ``args.attribute`` was given (its value is
    not argparse's default: each of these defaults to None or False)."""
    value = getattr(args, attribute, None)
    if attribute == "algorithm":
        return value not in (None, "auto")
    if attribute == "rules":
        from .services.reduce import RULES

        return value not in (None, RULES)
    return value is not None and value is not False


def check_flags(args: argparse.Namespace) -> None:
    """Refuse, with one sentence (``Unsupported``), the flags of ``args``
    (a ``dlx`` command's parsed arguments) that do not go together."""
    modes = [m for m in MODES if _given(args, m)]
    if len(modes) > 1:
        raise Unsupported(
            f"{MODES[modes[0]][0]} cannot go with {MODES[modes[1]][0]}"
        )
    for attribute, (flag, needed) in NEEDS.items():
        if _given(args, attribute) and not _given(args, needed):
            raise Unsupported(f"{flag} needs {FLAGS[needed][0]}")
    given = {a: FLAGS[a] for a in FLAGS if _given(args, a)}
    mode = modes[0] if modes else None
    search = "solutions" if mode is None else MODES[mode][1]
    if search is None:  # --dlx writes the problem: no search flag
        if given:
            raise Unsupported(
                f"--dlx cannot go with {next(iter(given.values()))[0]}"
            )
        return
    names = {option: flag for flag, option in FLAGS.values()}
    names.update({option: flag for flag, option in given.values()})
    for flag, option in given.values():
        if search not in OPTIONS[option].searches:
            if mode is not None:
                raise Unsupported(f"{MODES[mode][0]} cannot go with {flag}")
            takes = [
                m
                for m, (_, s) in MODES.items()
                if s is not None
                and s in OPTIONS[option].searches
                and s not in OPTIONS[option].refused
            ]
            raise Unsupported(
                f"{flag} goes with " + " or ".join(MODES[m][0] for m in takes)
            )
    values = {}
    for attribute, (_, option) in given.items():
        value = getattr(args, attribute)
        if option == "memo_bytes":
            value = int(value * (1 << 20))
        elif attribute == "all":
            value = None
        elif option == "progress":
            value = bool(value)
        values[option] = _STAND_INS.get(option, value)
    check(search, names=names, **values)


def seconds(text: str) -> float | None:
    """A time limit on the command line (argparse's type): a number of
    seconds in the spec's range (``dlx.services.search.seconds``: >= 0;
    ``inf``, no limit, is None)."""
    try:
        return search_seconds("", float(text))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a number of seconds, got {shorten(text)}"
        ) from None


def add_time_limit_option(parser: argparse.ArgumentParser) -> None:
    """``--time-limit SECONDS``: the search stops then, and what it found
    is printed, marked as partial."""
    parser.add_argument(
        "--time-limit",
        type=seconds,
        default=None,
        metavar="SECONDS",
        help="stop the search after SECONDS and print what it found "
        "so far, marked as partial (exit status 1)",
    )
