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
from typing import Any

from ..engines import Unsupported
from ..options import OPTIONS, check
from ..shorten import shorten

__all__ = [
    "MODES",
    "FLAGS",
    "check_flags",
    "add_flag",
    "add_time_limit_option",
    "seconds",
    "whole",
    "positive",
    "mebibytes",
]

#: The mode flags (``args`` attribute: flag, search), in the order a
#: sentence names them; without one, a command lists solutions.
MODES = {
    "zdd": ("--zdd", "zdd"),
    "best": ("--best", "best"),
    "estimate": ("--estimate", "estimate"),
    "dlx": ("--dlx", None),
    "count": ("--count", "count"),
}
#: The other flags: ``args`` attribute: (flag, option), in the spec's
#: order: every option's flag but the mode flags', and ``--all`` (no
#: limit) after ``--limit``.
FLAGS = {
    attribute: flags
    for name, option in OPTIONS.items()
    if option.flag is not None
    and option.flag.name not in {flag for flag, _ in MODES.values()}
    for attribute, flags in (
        (option.flag.name[2:].replace("-", "_"), (option.flag.name, name)),
        *([("all", ("--all", "limit"))] if name == "limit" else []),
    )
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
        from ..services.defaults import RULES

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


def whole(text: str) -> int:
    """A whole number >= 0 (argparse's type)."""
    if not (text.isascii() and text.isdigit()):  # "²".isdigit() is True
        raise argparse.ArgumentTypeError(
            f"expected a whole number, got {shorten(text)}"
        )
    return int(text)


def positive(text: str) -> int:
    """A whole number >= 1 (argparse's type)."""
    value = whole(text)
    if value < 1:
        raise argparse.ArgumentTypeError(
            f"expected a positive whole number, got {shorten(text)}"
        )
    return value


def mebibytes(text: str) -> float:
    """A number of MiB >= 0 (argparse's type)."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value < float("inf"):
        raise argparse.ArgumentTypeError(
            f"expected a non-negative number of MiB, got {shorten(text)}"
        )
    return value


def seconds(text: str) -> float | None:
    """A time limit on the command line (argparse's type): a number of
    seconds in the spec's range (``dlx.services.search.seconds``: >= 0;
    ``inf``, no limit, is None)."""
    # (the services load when a flag's value is read, not for --help)
    from ..services.search import seconds as search_seconds

    try:
        return search_seconds("", float(text))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a number of seconds, got {shorten(text)}"
        ) from None


def add_time_limit_option(parser: argparse.ArgumentParser) -> None:
    """``--time-limit SECONDS``: the search stops then, and what it found
    is printed, marked as partial."""
    add_flag(parser, "time_limit")


#: How a flag reads its value, by kind (``dlx.options.KINDS``); the
#: kinds not here take the text as it is (a file name, an address).
READERS = {
    "whole": whole,
    "positive": positive,
    "seconds": seconds,
    "mebibytes": mebibytes,
}


def add_flag(parser: Any, name: str) -> argparse.Action:
    """Add option ``name``'s flag to ``parser`` (a parser or a group of
    one), built from its entry in the spec (``dlx.options.OPTIONS``):
    the flag's name, help line, metavar, and the type or choices of its
    kind.  Returns the argparse action (to mark a file name, say)."""
    option = OPTIONS[name]
    flag = option.flag
    assert flag is not None, name
    # (argparse formats help with %: a literal % is doubled.)
    keywords: dict[str, Any] = {
        "help": flag.help_line().replace("%", "%%"),
        "default": flag.default,
    }
    kind = flag.kind or option.kind
    if flag.switch == "both":
        keywords["action"] = argparse.BooleanOptionalAction
    elif flag.switch:
        keywords["action"] = "store_true"
        keywords["default"] = False
    elif kind == "choice":
        keywords["choices"] = option.choices
    else:
        keywords["metavar"] = flag.metavar
        if kind in READERS:
            keywords["type"] = READERS[kind]
    return parser.add_argument(flag.name, **keywords)
