"""A batch of puzzles as text: a puzzle a line (with a comment after it,
or a grid over several lines), and each answer as the ``sudoku`` command
writes it and the web page's "solve many" shows it.

``without_comment`` reads an entry, ``batch_entry`` writes the answer to
one puzzle (its solution, or the puzzle with a tag: ``multiple``,
``nosolution``, ``invalid``, ``unknown``; ``unique`` and counts when asked
for), ``TAGS`` names the statuses, ``count_text`` writes a count (``5+``
when it stopped at the limit).
"""

from __future__ import annotations

from typing import Any

from .grid import Grid, InvalidPuzzle, parse
from .solver import INVALID, MULTIPLE, NO_SOLUTION, SOLVED, UNKNOWN, Result

__all__ = [
    "TAGS",
    "ECHO_MAX",
    "without_comment",
    "batch_entry",
    "count_text",
    "entry",
    "echo",
    "render",
]

#: The tag written after a puzzle of each status (none for a solution).
TAGS = {
    SOLVED: "",
    MULTIPLE: "multiple",
    NO_SOLUTION: "nosolution",
    INVALID: "invalid",
    UNKNOWN: "unknown",
}
# Invalid input echoed in the output is cut to this many characters (the
# largest grid written as CSV that we solve, 100x100, takes about 30,000).
ECHO_MAX = 1 << 16


def without_comment(line: str, box: tuple[int, int] | None) -> str:
    """``<puzzle> <comment>`` -> ``<puzzle>`` when the line as a whole is
    not a puzzle but its first word is."""
    first = line.split(None, 1)[0]
    if first == line.strip():
        return line
    try:
        parse(line, box)
        return line
    except InvalidPuzzle:
        pass
    try:
        parse(first, box)
        return first
    except InvalidPuzzle:
        return line


def render(grid: Grid, style: str) -> str:
    return grid.format(None if style == "same" else style)


def count_text(count: int, limit: int | None) -> str:
    """A count as ``sudoku solve --count`` prints it: ``288``, or ``5+``
    (at least 5) when the count stopped at ``limit``, so that a capped
    count never looks exact."""
    return f"{count}+" if limit is not None and count >= limit else str(count)


def batch_entry(
    number: int,
    text: str | InvalidPuzzle,
    result: Result,
    args: Any,
    first: bool,
) -> str:
    """The output for one puzzle of a batch: ``args`` says how (its
    ``format``, ``count``, ``unique`` and ``box``, as the command's
    options do)."""
    style = args.format
    if args.count:
        tag = {INVALID: "invalid", UNKNOWN: "unknown"}.get(
            result.status, count_text(result.count, args.limit)
        )
    elif args.unique:
        tag = "unique" if result.status == SOLVED else TAGS[result.status]
    else:
        tag = TAGS[result.status]
        if result.grid is not None:
            return entry(render(result.grid, style), tag, number, first)
    if result.status == INVALID:
        return entry(echo(text), tag, number, first)
    assert isinstance(text, str)  # an entry that is not text is INVALID
    if style == "same":
        shown = text
    else:
        shown = render(parse(text, args.box), style)
    return entry(shown, tag, number, first)


def echo(text: object) -> str:
    """Invalid input as written back: at most ``ECHO_MAX`` characters."""
    if not isinstance(text, str):
        return "..."  # a line too long to read
    if len(text) > ECHO_MAX:
        text = text[:ECHO_MAX] + "..."
    if not text.isprintable():  # binary garbage: no control characters out
        text = "".join(
            ch if ch.isprintable() or ch in "\n\t" else "?" for ch in text
        )
    return text


def entry(shown: str, tag: str, number: int, first: bool) -> str:
    if "\n" not in shown:
        return f"{shown} {tag}\n" if tag else f"{shown}\n"
    head = "" if first else "\n"
    if tag:
        head += f"# line {number}: {tag}\n"
    return f"{head}{shown}\n"
