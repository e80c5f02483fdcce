"""Read and write the text format of Knuth's DLX programs (``dlx1.w``,
``dlx2.w``, ``dlx3.w``, ``dlx5.w``).

The format, one problem per file::

    | a comment: any line whose first non-blank character is "|"
    A B 2:3|C | X Y        <- the item line: primary items, "|", secondary
    A B X:0 Y:0            <- every later line is one option
    A C X:1 Y:1 |7

* The first line that is neither blank nor a comment lists the items,
  separated by blanks.  A ``|`` that starts a word on it separates the
  primary items from the secondary ones, alone or touching the first
  secondary name (``A B |X Y``, as Knuth's programs read it); without it
  every item is primary.
* A primary item may carry bounds (DLX3): ``u:v|name`` (covered ``u`` to
  ``v`` times) or ``v|name`` (exactly ``v`` times), ``0 <= u <= v``,
  ``v >= 1``, written with the digits 0-9, as many as you like: a bound
  above ``dlx.validate.MAX_BOUND`` (more than any item's options) is kept as
  ``MAX_BOUND``, which means the same.
* Every later non-blank, non-comment line is one option: the names of its
  items, separated by blanks, each known and none repeated.  A secondary
  item may carry a color (DLX2): ``name:color`` (a color longer than
  Knuth's one character has no ``:``).  An option without a
  primary item is kept (it has a number) but never used in a solution, as
  Knuth's programs ignore it.
* An option may have costs (DLX5): tokens ``|n`` after any of its items,
  ``n`` a whole number written right after the ``|``; several add up, and
  none means 0.  A cost is at most 2**63 - 1 (a clear error otherwise).
* Item names follow Knuth's rules: printable ASCII, none of ``|`` and
  ``:``; his programs take 1 to 8 characters and one-character colors.
  Reading accepts longer names and colors (``loads``, ``load`` and the
  ``dlx`` command alike; ``max_name_length=MAX_NAME_LENGTH`` asks for
  Knuth's limit); writing keeps his limits unless told otherwise.
* Lines starting with ``//`` are comments too (xcover's files use them).
  Blank lines are ignored, CRLF line ends and a leading UTF-8 byte-order
  mark are accepted.  Lines end at "\\n" only, and names are separated
  by ASCII blanks (space, tab, "\\v", "\\f", "\\r") only, as in DLX1.

``loads``/``load`` give an ``ExactCover`` whose item names, options and
colors are the strings of the file; ``dumps``/``dump`` write one back
(names and colors are written with ``str``), so ``loads(dumps(p))`` has
the same items, options, colors, bounds and solutions as ``p`` when
``p``'s names and colors are strings.

``solution_lines`` and ``solution_header`` print solutions as the ``dlx``
command does, and ``read_solutions`` (with ``solution_options``) reads
that output back.
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Iterable, Iterator
from itertools import compress
from typing import IO, Any, Union

import numpy as np

from .problem import ExactCover
from .shorten import shorten
from .textfile import NotText, read_text
from .validate import MAX_BOUND

__all__ = [
    "DLXFormatError",
    "loads",
    "load",
    "dumps",
    "dump",
    "MAX_NAME_LENGTH",
    "MAX_COLOR_LENGTH",
    "costs_of",
    "solution_lines",
    "solution_header",
    "read_solutions",
    "solution_options",
]

MAX_NAME_LENGTH = 8
"""The longest item name Knuth's DLX1 accepts."""
MAX_COLOR_LENGTH = 1
"""The longest color Knuth's DLX2 accepts."""

PathOrFile = Union[str, "os.PathLike[str]", IO[str]]


class DLXFormatError(ValueError):
    """Text that is not a valid DLX problem; ``line`` is its 1-based line.

    Args:
        message: What is wrong (kept as ``reason``).
        line: The 1-based line it is on, if any.
        source: The file's name, put in front of the message.
    """

    def __init__(
        self, message: str, line: int | None = None, source: str | None = None
    ):
        where = ""
        if source is not None:
            where = f"{source}:"
        if line is not None:
            where += f"{line}:" if source is not None else f"line {line}:"
        super().__init__(f"{where} {message}" if where else message)
        self.line = line
        self.source = source
        self.reason = message


def _name_problem(name: str, max_length: int | None) -> str | None:
    """Why ``name`` is not a valid item name, or None when it is."""
    if not name:
        return "empty item name"
    if ":" in name:
        return (
            f"item name {shorten(name)} contains ':' (a color is written "
            f"'item:color' in options only)"
        )
    if "|" in name:
        return f"item name {shorten(name)} contains '|'"
    if any(ch in " \t\n\v\f\r" for ch in name):
        return (
            f"item name {shorten(name)} contains a blank (names are separated "
            f"by blanks)"
        )
    if not all(33 <= ord(ch) <= 126 for ch in name):
        return (
            f"item name {shorten(name)} has a character that is not printable "
            f"ASCII"
        )
    if max_length is not None and len(name) > max_length:
        return (
            f"item name {shorten(name)} is longer than {max_length} characters"
        )
    return None


_BLANK_CHARS = " \t\v\f\r"
_BLANKS = re.compile(f"[{_BLANK_CHARS}]+")


def text_lines(text: str) -> list[str]:
    """The lines of ``text``: a leading byte-order mark dropped, split at
    "\\n" only (not at form feeds and other separators ``splitlines``
    knows), a trailing "\\r" (CRLF) removed from each.  The DLX reader and
    the polyomino board and shape readers share it.

    Args:
        text: The text, as read from a file.

    Returns:
        Its lines, without their ends.
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    return [
        line[:-1] if line.endswith("\r") else line for line in text.split("\n")
    ]


def _content_lines(text: str) -> Iterator[tuple[int, list[str]]]:
    """(line number, tokens) of each line that is not blank or a comment."""
    for number, line in enumerate(text_lines(text), start=1):
        tokens = _BLANKS.split(line.strip(_BLANK_CHARS))
        if tokens == [""]:
            tokens = []
        if not tokens or tokens[0].startswith(("|", "//")):
            continue
        yield number, tokens


# Knuth's programs read bounds digit by digit, '0' to '9' only (not every
# character Python calls a digit).
_BOUND = re.compile(r"(?:([0-9]+):)?([0-9]+)\|(.*)", re.S)
# A number written with more digits than this is read as MAX_BOUND, which
# means the same (see dlx.validate.MAX_BOUND); int() refuses long ones.
_LONG_NUMBER = 18


def _number(digits: str) -> int:
    """The value of a string of digits, any number of them, as the model
    keeps it (at most MAX_BOUND)."""
    digits = digits.lstrip("0")
    if len(digits) > _LONG_NUMBER:
        return MAX_BOUND
    return min(int(digits or "0"), MAX_BOUND)


def _exceeds(a: str, b: str) -> bool:
    """Is the number written ``a`` larger than the one written ``b``
    (strings of digits of any length, compared without converting)?"""
    a, b = a.lstrip("0"), b.lstrip("0")
    return (len(a), a) > (len(b), b)


def _parse_items(
    tokens: list[str], number: int, source: str | None, max_length: int | None
) -> tuple[list[str], list[str], dict[str, tuple[int, int]]]:
    primary: list[str] = []
    secondary: list[str] = []
    bounds: dict[str, tuple[int, int]] = {}
    current = primary
    seen: set[str] = set()
    for token in tokens:
        if token.startswith("|"):
            # A '|' that starts a word separates, and may touch the first
            # secondary name ("A B |X Y"), as in all of Knuth's programs.
            if current is secondary:
                raise DLXFormatError(
                    "the item line has '|' twice", number, source
                )
            current = secondary
            token = token[1:]
            if not token:
                continue
        if "|" in token:
            token = _parse_bound(
                token, current is secondary, bounds, number, source
            )
        problem = _name_problem(token, max_length)
        if problem:
            raise DLXFormatError(problem, number, source)
        if token in seen:
            raise DLXFormatError(
                f"item {shorten(token)} is listed twice", number, source
            )
        seen.add(token)
        current.append(token)
    if not primary:
        raise DLXFormatError(
            "the item line lists no primary items", number, source
        )
    return primary, secondary, bounds


def _parse_bound(
    token: str, secondary: bool, bounds: dict, number: int, source: str | None
) -> str:
    """The name in a DLX3 ``u:v|name`` or ``v|name``; its bounds go to
    ``bounds`` (numbers of any length: above ``MAX_BOUND`` they are kept
    as ``MAX_BOUND``, which means the same)."""
    match = _BOUND.fullmatch(token)
    if not match:
        raise DLXFormatError(
            f"bad item {shorten(token)}: bounds are written "
            f"'u:v|name' or 'v|name' with whole numbers, "
            f"and a '|' before the secondary items "
            f"starts a word",
            number,
            source,
        )
    u, v, name = match.groups()
    u = v if u is None else u
    if secondary:
        raise DLXFormatError(
            f"secondary item {shorten(name)} has bounds; "
            f"only primary items take bounds",
            number,
            source,
        )
    if not v.strip("0") or _exceeds(u, v):
        raise DLXFormatError(
            f"item {shorten(name)} has bounds "
            f"{shorten(u, quote=False)}.."
            f"{shorten(v, quote=False)}; they need "
            f"0 <= u <= v and v >= 1",
            number,
            source,
        )
    bounds[name] = (_number(u), _number(v))
    return name


#: The largest cost an option may have (as ``ExactCover`` takes it).
MAX_COST = (1 << 63) - 1


def _parse_cost(token: str, number: int, source: str | None) -> int:
    """The cost in a DLX5 ``|n`` token."""
    digits = token[1:]
    if not digits or not digits.isascii() or not digits.isdigit():
        raise DLXFormatError(
            f"bad cost {shorten(token)}: a cost is written '|n' "
            f"with a whole number n right after the '|'",
            number,
            source,
        )
    return int(digits)


def _parse_option(
    tokens: list[str],
    primary: set,
    secondary: set,
    number: int,
    source: str | None,
) -> tuple[list[str], dict[str, str], int]:
    """(item names, {item: color}, cost) of an option line."""
    names: list[str] = []
    colors: dict[str, str] = {}
    seen: set[str] = set()
    cost = 0
    for token in tokens:
        if token.startswith("|"):  # the first token is an item (or the
            cost += _parse_cost(token, number, source)  # line a comment)
            if cost > MAX_COST:
                raise DLXFormatError(
                    f"the costs of this option add up to "
                    f"{cost}, more than 2**63 - 1",
                    number,
                    source,
                )
            continue
        name, colon, color = token.partition(":")
        if name not in primary and name not in secondary:
            raise DLXFormatError(
                f"unknown item {shorten(name)}", number, source
            )
        if name in seen:
            raise DLXFormatError(
                f"item {shorten(name)} appears twice in this option",
                number,
                source,
            )
        if colon:
            if not color:
                raise DLXFormatError(
                    f"item {shorten(name)}: empty color after ':'",
                    number,
                    source,
                )
            if ":" in color and color != ":":  # Knuth's programs refuse it
                raise DLXFormatError(
                    f"item {shorten(name)} has color "
                    f"{shorten(color)}: a color of more "
                    f"than one character has no ':'",
                    number,
                    source,
                )
            if name in primary:
                raise DLXFormatError(
                    f"primary item {shorten(name)} has color "
                    f"{shorten(color)}; only secondary items "
                    f"take colors",
                    number,
                    source,
                )
            colors[name] = color
        seen.add(name)
        names.append(name)
    return names, colors, cost


# -- the fast path: big files of plain options ------------------------------
# Most big files are plain: no colors, no bounds after the item line, only
# names and blanks on the option lines.  ``_loads_plain`` reads those a
# block of lines at a time: numpy finds where each token starts and on
# which line, ``str.split`` cuts the tokens, one dict lookup per token
# numbers them, and the options go to the model as compressed sparse rows
# (``ExactCover.add_arrays``), with no Python object kept per option.
# Anything else -- a ':' or a '|' on an option line, a character that is
# not ASCII, an unknown item, an item twice, no item line -- gives up
# (None), and ``loads`` reads the text line by line, so every error
# message, and every extension of the grammar, is the full parser's.

#: The fast path cuts the text into blocks of about this many characters.
BLOCK = 1 << 22

_SEPARATOR = np.zeros(256, bool)
_SEPARATOR[[9, 10, 11, 12, 13, 32]] = True  # the blanks and "\n"
# Characters that str.split also takes for blanks (in ASCII).
_OTHER_SPACES = "\x1c\x1d\x1e\x1f"


def _loads_plain(text: str, max_name_length: int | None) -> ExactCover | None:
    """The problem in ``text`` when its option lines are plain, else
    None (see above)."""
    if text.startswith("\ufeff"):
        text = text[1:]
    pos, number = 0, 0
    while True:  # to the item line, as _content_lines finds it
        if pos > len(text):
            return None
        end = text.find("\n", pos)
        if end < 0:
            end = len(text)
        number += 1
        line = text[pos:end]
        tokens = _BLANKS.split(line.rstrip("\r").strip(_BLANK_CHARS))
        if tokens != [""] and not tokens[0].startswith(("|", "//")):
            break
        pos = end + 1
    try:
        primary, secondary, bounds = _parse_items(
            tokens, number, None, max_name_length
        )
    except DLXFormatError:
        return None
    index = {name: k for k, name in enumerate(primary + secondary)}
    sizes, numbers = [], []
    pos = end + 1
    while pos < len(text):
        end = min(pos + BLOCK, len(text))
        if end < len(text):
            cut = text.rfind("\n", pos, end)
            end = cut + 1 if cut >= 0 else len(text)
        block = _plain_block(text[pos:end], index)
        if block is None:
            return None
        sizes.append(block[0])
        numbers.append(block[1])
        pos = end
    problem = ExactCover(primary, secondary, bounds=bounds)
    if sizes:
        indptr = np.zeros(sum(map(len, sizes)) + 1, np.int64)
        np.cumsum(np.concatenate(sizes), out=indptr[1:])
        try:
            problem.add_arrays(indptr, np.concatenate(numbers))
        except ValueError:  # an item twice in an option
            return None
    return problem


def _plain_block(
    block: str, index: dict
) -> tuple[np.ndarray, np.ndarray] | None:
    """``(sizes, item numbers)`` of the options on the lines of ``block``
    (whole lines), or None when one of them is not plain."""
    if not block.isascii() or any(ch in block for ch in _OTHER_SPACES):
        return None
    raw = np.frombuffer(block.encode("ascii"), np.uint8)
    blank = _SEPARATOR[raw]
    starts = np.flatnonzero(blank[:-1] & ~blank[1:])
    starts += 1
    if len(raw) and not blank[0]:
        starts = np.concatenate(([0], starts))
    newlines = np.flatnonzero(raw == 10)
    line = np.searchsorted(newlines, starts)  # each token's line
    first = np.ones(len(starts), bool)
    first[1:] = line[1:] != line[:-1]
    heads = starts[first]
    after = raw[np.minimum(heads + 1, len(raw) - 1)]
    comment = (raw[heads] == 124) | (
        (raw[heads] == 47) & (after == 47) & (heads + 1 < len(raw))
    )
    special = np.flatnonzero((raw == 58) | (raw == 124))  # ':' and '|'
    if (
        len(special)
        and not np.isin(
            np.searchsorted(newlines, special), line[first][comment]
        ).all()
    ):
        return None
    tokens = block.split()
    if len(tokens) != len(starts):
        return None
    if comment.any():
        keep = ~np.repeat(
            comment, np.diff(np.append(np.flatnonzero(first), len(starts)))
        )
        tokens = list(compress(tokens, keep.tolist()))
        line = line[keep]
    try:
        numbers = np.array(list(map(index.__getitem__, tokens)), np.int32)
    except KeyError:  # an unknown item
        return None
    if not len(line):  # blank or comment lines only
        return np.zeros(0, np.int64), numbers
    cuts = np.flatnonzero(line[1:] != line[:-1]) + 1
    sizes = np.diff(np.concatenate(([0], cuts, [len(line)])))
    return sizes, numbers


def loads(
    text: str, *, max_name_length: int | None = None, source: str | None = None
) -> ExactCover:
    """The problem written in ``text`` (Knuth's DLX format).

    Raises ``DLXFormatError`` naming the line of the first problem found.
    ``source`` (a file name) is put in front of error messages.  Names
    of any length are read unless ``max_name_length`` is given
    (``MAX_NAME_LENGTH``, 8, is Knuth's limit).

    Args:
        text: The problem in Knuth's DLX format.
        max_name_length: The longest item name accepted (None: any).
        source: A file name for the error messages.

    Returns:
        The problem, its options numbered from 0 in the order of the text.

    Raises:
        TypeError: ``text`` is not a ``str``.
        DLXFormatError: The first problem of the text (a ``ValueError``),
            naming its line.
    """
    if not isinstance(text, str):
        raise TypeError(f"loads expects a str, got {type(text).__name__}")
    problem = _loads_plain(text, max_name_length)
    if problem is not None:
        return problem
    lines = _content_lines(text)
    first = next(lines, None)
    if first is None:
        raise DLXFormatError(
            "no item line (the text has only blank or comment lines)",
            None,
            source,
        )
    number, tokens = first
    primary, secondary, bounds = _parse_items(
        tokens, number, source, max_name_length
    )
    problem = ExactCover(primary, secondary, bounds=bounds)
    primaries, secondaries = set(primary), set(secondary)
    for number, tokens in lines:
        names, colors, cost = _parse_option(
            tokens, primaries, secondaries, number, source
        )
        problem.add_option(names, colors or None, cost)
    return problem


def load(path_or_file: PathOrFile, **kwargs: Any) -> ExactCover:
    """The problem in a file (a path, or a text file object; ``"-"`` is
    standard input).  See ``loads``.

    Args:
        path_or_file: A path, ``"-"`` or a text file open for reading.
        **kwargs: ``max_name_length``, as ``loads`` takes it.

    Returns:
        The problem.

    Raises:
        DLXFormatError: The first problem of the file (naming the file
            and the line), or a file that is not UTF-8 text.
        OSError: The file cannot be read.
    """
    if isinstance(path_or_file, (str, os.PathLike)):
        name: str | None = os.fspath(path_or_file)
        if name == "-":
            name = "<stdin>"
    else:
        found = getattr(path_or_file, "name", None)
        name = found if isinstance(found, str) else None
    try:
        text = read_text(path_or_file, name=name or "the input", newline="")
    except NotText as error:
        raise DLXFormatError(error.reason, None, name) from None
    return loads(text, source=name, **kwargs)


def _checked_names(names: Iterable, max_length: int | None) -> list[str]:
    written = []
    for name in names:
        text = str(name)
        problem = _name_problem(text, max_length)
        if problem:
            raise ValueError(f"cannot write item {shorten(name)}: {problem}")
        written.append(text)
    return written


def _color_text(color: object, item: object, max_length: int | None) -> str:
    text = str(color)
    if not text or not all(33 <= ord(ch) <= 126 for ch in text):
        raise ValueError(
            f"cannot write color {shorten(color)} of item {shorten(item)}: "
            f"colors are written as printable ASCII without "
            f"blanks"
        )
    if ":" in text and text != ":":
        raise ValueError(
            f"cannot write color {shorten(color)} of item "
            f"{shorten(item)}: a color of more than one "
            f"character has no ':' (it would not read back)"
        )
    if max_length is not None and len(text) > max_length:
        raise ValueError(
            f"cannot write color {shorten(color)} of item {shorten(item)}: "
            f"longer than {max_length} character(s) (Knuth's "
            f"DLX2 reads one; pass max_color_length=None)"
        )
    return text


def dumps(
    problem: ExactCover,
    *,
    comment: str | None = None,
    max_name_length: int | None = MAX_NAME_LENGTH,
    max_color_length: int | None = MAX_COLOR_LENGTH,
) -> str:
    """``problem`` in Knuth's DLX format (one ``str`` per item name and
    color; bounds as ``u:v|name``; a cost as ``|n`` at the end of its
    option, none when it is 0).

    ``comment`` (possibly several lines) is written first as ``|`` lines.
    Raises ``ValueError`` if a name or color cannot be written (blank,
    ``|``, ``:``, non-ASCII, too long, or two names or two colors with the
    same text) or an option is empty (an all-zero row of ``from_matrix``:
    the file could not keep its number).

    Args:
        problem: The problem to write.
        comment: Text written first, each line as a ``|`` comment.
        max_name_length: The longest item name allowed (None: any; the
            default, 8, is Knuth's limit).
        max_color_length: The longest color allowed (None: any; the
            default, 1, is Knuth's limit).

    Returns:
        The text, one line of items and one line per option.

    Raises:
        ValueError: A name or color that cannot be written, or an empty
            option.
    """
    if not problem.primary:
        raise ValueError("cannot write a problem with no primary items")
    primary = _checked_names(problem.primary, max_name_length)
    secondary = _checked_names(problem.secondary, max_name_length)
    text_of = dict(zip(problem.items, primary + secondary))
    if len(set(text_of.values())) != len(text_of):
        raise ValueError(
            "two item names have the same text; the file could "
            "not tell them apart"
        )
    out = io.StringIO()
    if comment:
        for line in comment.splitlines():
            out.write(f"| {line}".rstrip() + "\n")
    bounds = problem.bounds
    for k, name in enumerate(problem.primary):
        u, v = bounds.get(name, (1, 1))
        if (u, v) != (1, 1):
            primary[k] = (
                f"{v}|{primary[k]}" if u == v else f"{u}:{v}|{primary[k]}"
            )
    out.write(" ".join(primary))
    if secondary:
        out.write(" | " + " ".join(secondary))
    out.write("\n")
    costs = problem.costs
    color_of_text: dict = {}
    for k, option in enumerate(problem.options):
        if not option:  # a blank line would renumber the options after it
            raise ValueError(
                f"cannot write option {k}: option {k} is empty "
                f"(an all-zero matrix row), and the DLX format "
                f"has no empty options"
            )
        colors = problem.option_colors(k)
        for name, color in colors.items():
            text = _color_text(color, name, max_color_length)
            if color_of_text.setdefault(text, color) != color:
                raise ValueError(
                    f"cannot write colors {shorten(color_of_text[text])} "
                    f"and {shorten(color)}: two colors with the same text "
                    f"{shorten(text)} would be one color in the file"
                )
        out.write(
            " ".join(
                text_of[name]
                if name not in colors
                else f"{text_of[name]}:"
                f"{_color_text(colors[name], name, max_color_length)}"
                for name in option
            )
            + (f" |{costs[k]}" if costs[k] else "")
            + "\n"
        )
    return out.getvalue()


def dump(problem: ExactCover, file: PathOrFile, **kwargs: Any) -> None:
    """Write ``problem`` to ``file`` (a path or a text file object).

    Args:
        problem: The problem to write.
        file: A path (written anew, UTF-8) or a text file open for
            writing.
        **kwargs: ``comment``, ``max_name_length``, ``max_color_length``,
            as ``dumps`` takes them.

    Raises:
        ValueError: As ``dumps``.
        OSError: The path cannot be written.
    """
    text = dumps(problem, **kwargs)
    if isinstance(file, (str, os.PathLike)):
        with open(file, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
    else:
        file.write(text)


# -- printed solutions ----------------------------------------------------
# How the ``dlx`` command prints solutions, and reading that back.  Each
# solution of a listing (``--all``, ``--limit N``) comes after a header
# line ``solution N:`` (``solution N: cost C`` when the problem has
# costs), with a blank line before every header but the first, so that
# every solution is delimited whatever its size (an empty one is its
# header alone).  ``--best`` heads each with ``cost C``, ``dlx zdd
# --best``/``--worst`` with ``weight W``.  The solution itself is its
# option lines (``solution_lines``).  No option line looks like
# ``solution N:``, since no item name holds a ``:``.
_HEADER = re.compile(
    r"solution (?P<number>\d+):(?: cost (?P<total>\d+))?"
    r"|cost (?P<cost>\d+)|weight (?P<weight>\S+)"
)


def costs_of(problem: ExactCover) -> tuple | None:
    """Each option's cost, read once for printing many solutions, or None
    when no option has a cost (its lines then carry no cost token).

    Args:
        problem: the problem whose solutions are printed.

    Returns:
        ``problem.costs``, or None when every cost is 0.
    """
    costs = problem.costs
    return costs if any(costs) else None


def solution_lines(
    problem: ExactCover, solution: Iterable[int], costs: Any = None
) -> list[str]:
    """The lines ``dlx`` prints for a solution: each option's line as
    Knuth's format writes it (``ExactCover.option_line``: colored items
    as ``name:color``), followed by its cost as one ``|n`` token when it
    is not 0, as in ``--best`` (``C |1`` and ``C |4`` stay apart).

    Args:
        solution: option numbers.
        costs: each option's cost (``costs_of(problem)``, read once), or
            None for no cost tokens.

    Returns:
        One line per option, in the solution's order.
    """
    if costs is None:
        return [problem.option_line(k) for k in solution]
    return [
        problem.option_line(k) + (f" |{costs[k]}" if costs[k] else "")
        for k in solution
    ]


def solution_header(number: int, cost: int | None = None) -> str:
    """The line before solution ``number`` (from 1) of a listing:
    ``solution 3:``, or ``solution 3: cost 7`` (its options' costs added
    up) when the problem has costs.

    Args:
        number: the solution's place in the listing, from 1.
        cost: its cost, or None when the problem has no costs.

    Returns:
        The header line, without its newline.
    """
    return f"solution {number}:" + ("" if cost is None else f" cost {cost}")


def read_solutions(text: str) -> list[tuple[Any, list[str]]]:
    """The solutions ``dlx`` printed, read back: one ``(cost, lines)``
    each, in order, ``lines`` the option lines as printed (with colors and
    cost tokens) and ``cost`` the header's cost (``solution N: cost C``
    or ``--best``'s ``cost C``), weight (``dlx zdd``'s ``weight W``) or
    None.  Text without headers is one solution (``dlx solve`` without
    ``--all``: the first one alone), or none when it has no line.  Blank
    lines are ignored.  Identical options print identical lines:
    ``solution_options`` picks among them.

    Args:
        text: the standard output of ``dlx solve`` (``--all``,
            ``--limit N``, ``--best K``, ``--reduce``...), of a builder
            (``dlx queens 8 --all``: each picture's lines) or of
            ``dlx zdd ... --problem FILE``.

    Returns:
        One ``(cost, lines)`` per solution.

    Raises:
        ValueError: solutions numbered out of order, or lines before the
            first header.
    """
    found: list[tuple[Any, list[str]]] = []
    loose: list[str] = []  # lines before any header
    for number, line in enumerate(text.split("\n"), 1):
        line = line.rstrip("\r")
        if not line.strip():
            continue
        header = _HEADER.fullmatch(line)
        if header is None:
            (found[-1][1] if found else loose).append(line)
            continue
        if loose:
            raise ValueError(
                f"line {number}: a header after option lines that have none"
            )
        if (
            header["number"] is not None
            and int(header["number"]) != len(found) + 1
        ):
            raise ValueError(
                f"line {number}: solution {header['number']} where "
                f"solution {len(found) + 1} was due"
            )
        value = header["total"] or header["cost"] or header["weight"]
        if value is not None:
            try:
                value = int(value)
            except ValueError:
                value = float(value)
        found.append((value, []))
    return found if found else ([(None, loose)] if loose else [])


def solution_options(
    problem: ExactCover, lines: Iterable[str], costs: Any = None
) -> list[int]:
    """The option numbers of a solution read back (``read_solutions``),
    sorted: each line is an option of ``problem`` as ``solution_lines``
    prints it; the i-th of identical lines is the i-th of the options
    that print so (identical options are interchangeable).

    Args:
        problem: the problem whose options were printed.
        lines: a solution's option lines.
        costs: as for ``solution_lines``: ``costs_of(problem)``.

    Returns:
        The option numbers, ascending.

    Raises:
        ValueError: a line that is no option of ``problem`` (or more of
            one than it has).
    """
    numbers: dict[str, list[int]] = {}
    printed = solution_lines(problem, range(len(problem.options)), costs)
    for k, line in enumerate(printed):
        numbers.setdefault(line, []).append(k)
    seen: dict[str, int] = {}
    options = []
    for line in lines:
        same = numbers.get(line, [])
        if seen.get(line, 0) >= len(same):
            raise ValueError(f"{shorten(line)} is not an option left")
        options.append(same[seen.get(line, 0)])
        seen[line] = seen.get(line, 0) + 1
    return sorted(options)
