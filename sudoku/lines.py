"""Many puzzles, text in and text out, with nothing per puzzle in Python.

A file of puzzles is mostly one-line puzzles of ``n*n`` characters, one a
line.  Here numpy finds them in the whole text at once (where the lines
are, which are such puzzles, which are blank or comments), the engine
solves them in one call per chunk (``sudoku.solver.solve_cells``), and
numpy writes each answer as ``sudoku.batch_text.batch_entry`` does (the
solution, or the puzzle with a tag).  Every other line goes the way of
any entry (``sudoku.reader.entries``, then ``solve_many`` and
``batch_entry``): the output is the same byte for byte.

Which lines can be taken in bulk: ``reader.entries`` reads with context
(a grid over several lines, a title above it, the header ``# line 7:
multiple``), but a blank line or a comment that is not a header ends
whatever it was reading, so the reader starts afresh after one.  In a
*block* (the lines between two such lines), a leading run of one-line
puzzles are puzzles by themselves, except its last when other lines
follow: that one may be the first row of a grid (a 16-character line
above a 16x16 grid's second row).  The bulk path takes the leading runs
(their last line only when nothing else follows in the block) and hands
the rest of each block to the reader, which starts there as it would at
the top of a file.

``solve_text`` answers a whole text; ``segments`` and ``answers`` do the
same in chunks for ``sudoku solve FILE``, which writes as it reads.
"""

from __future__ import annotations

import io
import itertools
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, TextIO

import numpy as np

from . import kernels, reader, solver
from .batch_text import TAGS, batch_entry, without_comment
from .encode import as_variant
from .grid import (
    ALPHABET,
    CHAR_OF_VALUE,
    VALUE_OF_BYTE,
    Grid,
    InvalidPuzzle,
    check_box,
    default_box,
)
from .kernels import ECHO, FILLED, PUZZLE, SOLUTION
from .reader import entries, is_header, read_lines, row_line
from .solver import (
    INVALID,
    MULTIPLE,
    SOLVED,
    STATUSES,
    Result,
    givens_conflict,
)

__all__ = [
    "BatchOptions",
    "Fast",
    "Slow",
    "Answer",
    "TextBatch",
    "segments",
    "answers",
    "solve_text",
    "solve_entries",
]

#: Entries per ``solve_many`` call on the per-line path, and puzzles per
#: chunk of the bulk path (a chunk is one engine call per ``ENGINE_CHUNK``).
CHUNK = 4096
FAST_CHUNK = 1 << 14
#: Characters read at a time from a stream.
READ_SIZE = 1 << 20
#: A block that is not taken in bulk is carried over to the next read while
#: it goes on; past this many characters, the rest of the input goes the
#: per-line way (memory stays bounded whatever the file).
CARRY_MAX = 1 << 22

# The kinds of line: a one-line puzzle of the batch's size, a blank line, a
# comment (``#`` first) that is not a header, a header, anything else.
SIMPLE, BLANK, COMMENT, HEADER, OTHER = range(5)

# str.isspace over Latin-1 (what ``line.strip()`` strips, one byte each).
_SPACE = np.zeros(256, bool)
_SPACE[[c for c in range(256) if chr(c).isspace()]] = True
_HASH = ord("#")
_MAX_CHAR_SIZE = len(ALPHABET)
_INVALID = STATUSES.index(INVALID)
_SOLVED = STATUSES.index(SOLVED)
_MULTIPLE = STATUSES.index(MULTIPLE)


@dataclass
class BatchOptions:
    """How a batch is solved and written: the fields of ``sudoku solve``'s
    options that ``batch_entry`` and ``solve_many`` read."""

    box: tuple[int, int] | None = None
    format: str = "same"
    unique: bool = False
    count: bool = False
    limit: int | None = None
    max_nodes: int | None = None
    threads: int = 0
    variant: Any = None

    @property
    def bulk(self) -> bool:
        """Whether the bulk path can write these answers (one line each,
        the tags of ``TAGS``): not for counts, nor grids over several
        lines."""
        return not self.count and self.format in ("same", "line")


@dataclass
class Fast:
    """Puzzles read in bulk: ``rows[k]`` (``L`` bytes, ``L = n*n``) is the
    text of the puzzle on line ``numbers[k]``."""

    numbers: np.ndarray
    rows: np.ndarray
    box: tuple[int, int]


@dataclass
class Slow:
    """Entries read by ``reader.entries``: ``(line number, text or
    InvalidPuzzle)``."""

    entries: list


@dataclass
class Answer:
    """The answers to one segment: ``text`` (as the command writes it),
    ``status`` (indices into ``STATUSES``), ``numbers`` (the line of each
    entry), ``invalid`` (``(line to report, message)`` in order)."""

    text: str
    status: np.ndarray
    numbers: np.ndarray
    invalid: list[tuple[int, str]] = field(default_factory=list)


# -- reading --------------------------------------------------------------------
class _Lines:
    """Whole lines of text (each ends with ``\\n``), the first numbered
    ``first``; ``sort(n)`` finds their kinds for puzzles of size ``n``."""

    def __init__(self, text: str, first: int, long: Iterable[int]):
        self.text, self.first = text, first
        # One byte a character: what is not Latin-1 is "?", never a cell.
        raw = np.frombuffer(text.encode("latin-1", "replace"), np.uint8)
        ends = np.flatnonzero(raw == 10)
        starts = np.zeros(len(ends), np.int64)
        starts[1:] = ends[:-1] + 1
        self.raw, self.starts, self.ends = raw, starts, ends
        # The numbers of the lines too long to read (reader.read_lines).
        self.long = set(long) | set(
            (first + np.flatnonzero(ends - starts > reader.MAX_LINE)).tolist()
        )

    def sort(self, n: int) -> None:
        """``kinds``, and the text of the one-line puzzles of size ``n``
        (none for 0): ``rows[at[k]]`` for line ``k``."""
        lengths = self.ends - self.starts
        kinds = np.full(len(lengths), OTHER, np.int8)
        kinds[lengths == 0] = BLANK
        self.at = np.full(len(lengths), -1, np.int64)
        self.rows = np.zeros((0, n * n), np.uint8)
        if n:
            maybe = np.flatnonzero(lengths == n * n)
            if len(maybe) == len(lengths):  # every line: rows of one width
                rows = self.raw.reshape(len(maybe), n * n + 1)[:, : n * n]
            else:
                rows = self.raw[self.starts[maybe][:, None] + np.arange(n * n)]
            # Every character a blank or a digit of size n (-1 is 255).
            fits = (VALUE_OF_BYTE.view(np.uint8)[rows] <= n).all(axis=1)
            kinds[maybe[fits]] = SIMPLE
            self.rows = rows
            self.at[maybe] = np.arange(len(maybe))
        for k in np.flatnonzero(kinds == OTHER).tolist():
            text = self.line(k).strip()
            if not text:
                kinds[k] = BLANK
            elif text[0] == "#":
                kinds[k] = HEADER if is_header(text) else COMMENT
        for k in self.long:
            kinds[k - self.first] = OTHER
        self.kinds = kinds

    def line(self, k: int) -> str:
        return self.text[self.starts[k] : self.ends[k]]

    def numbered(self, lo: int, hi: int) -> list:
        """Lines ``lo..hi-1`` as ``reader.read_lines`` gives them."""
        return [
            (
                self.first + k,
                None if self.first + k in self.long else self.line(k),
            )
            for k in range(lo, hi)
        ]


def _size_of(lines: _Lines, box: tuple[int, int] | None) -> int:
    """The size ``n`` of the first one-line puzzle (``n*n`` characters, a
    blank or a digit each) among ``lines``, or 0."""
    lengths = lines.ends - lines.starts
    roots = np.sqrt(lengths).round().astype(np.int64)
    low, high = (4, _MAX_CHAR_SIZE) if box is None else (box[0] * box[1],) * 2
    maybe = np.flatnonzero(
        (roots * roots == lengths) & (roots >= low) & (roots <= high)
    )
    for k in maybe[:64].tolist():
        n = int(roots[k])
        values = VALUE_OF_BYTE[lines.raw[lines.starts[k] : lines.ends[k]]]
        if (values >= 0).all() and (values <= n).all():
            try:
                default_box(n) if box is None else check_box(box, n)
            except InvalidPuzzle:
                return 0
            return n
    return 0


def _plan(kinds: np.ndarray, final: bool) -> tuple[np.ndarray, int]:
    """``(fast, cut)``: which lines the bulk path takes, and where the
    block still being read starts (lines from ``cut`` on wait for more
    input; ``len(kinds)`` when ``final``)."""
    size = len(kinds)
    reset = (kinds == BLANK) | (kinds == COMMENT)
    block = np.cumsum(reset)
    other = ~reset & (kinds != SIMPLE)
    # Other lines of each block before each line.
    before = np.cumsum(other) - other
    at_start = np.zeros(block[-1] + 1 if size else 1, np.int64)
    starts = np.flatnonzero(reset)
    at_start[block[starts]] = before[starts]
    lead = (kinds == SIMPLE) & (before == at_start[block])
    fast = lead.copy()
    # The last line of each leading run, when anything else follows in
    # its block (or the block goes on in the next read).
    runs = np.flatnonzero(lead)
    if len(runs):
        last = runs[np.append(block[runs[1:]] != block[runs[:-1]], True)]
        has_other = np.zeros(len(at_start), bool)
        has_other[block[other]] = True
        if not final:
            has_other[block[-1]] = True
        fast[last[has_other[block[last]]]] = False
    if final:
        return fast, size
    trailing = np.flatnonzero((block == block[-1]) & ~reset & ~fast)
    return fast, int(trailing[0]) if len(trailing) else size


def _pieces(stream: TextIO) -> Iterator[tuple[str, list[int]]]:
    """The stream in pieces of whole lines (each line ending with
    ``\\n``, one added at the end), and for each piece the lines too long
    to read (``reader.MAX_LINE``): each becomes an empty line there, its
    index in the piece listed."""
    tail = ""
    skipping = False
    while True:
        block = stream.read(READ_SIZE)
        if not block:
            break
        if skipping:
            cut = block.find("\n")
            if cut < 0:
                continue
            block, skipping = block[cut + 1 :], False
        text = tail + block
        end = text.rfind("\n") + 1
        whole, tail = text[:end], text[end:]
        if len(tail) > reader.MAX_LINE:  # a line too long: skip to its end
            yield whole + "\n", [whole.count("\n")]
            tail, skipping = "", True
        elif whole:
            yield whole, []
    if tail:
        yield tail + "\n", []


def segments(
    source: TextIO | str,
    options: BatchOptions,
    bulk: bool = True,
) -> Iterator[Fast | Slow]:
    """The puzzles of ``source`` (a stream, or the text of one) in order,
    in segments: ``Fast`` ones read in bulk, ``Slow`` ones as
    ``reader.entries`` reads them (see the module docstring); none empty.
    Without ``bulk`` or ``options.bulk``, every entry is read the
    per-line way."""
    bulk = bulk and options.bulk
    if isinstance(source, str):
        text = source.replace("\r\n", "\n").replace("\r", "\n")
        if text.startswith("\ufeff"):
            text = text[1:]
        source = io.StringIO(text) if not bulk else source
    if not bulk:  # the per-line way, as the reader goes
        assert not isinstance(source, str)
        found = entries(read_lines(source), options.box)
        while chunk := list(itertools.islice(found, CHUNK)):
            yield Slow(chunk)
        return
    if isinstance(source, str):
        if text and not text.endswith("\n"):
            text += "\n"
        pieces: Iterator[tuple[str, list[int]]] = iter(
            [(text, [])] if text else []
        )
    else:
        pieces = _pieces(stream=source)
    box = options.box
    n = 0
    number = 1  # of the first line of `carry`
    carry = ""
    carry_long: list[int] = []
    ahead = next(pieces, None)
    while ahead is not None:
        (text, long), ahead = ahead, next(pieces, None)
        final = ahead is None
        lines_in_carry = carry.count("\n")
        long_numbers = set(carry_long) | {
            number + lines_in_carry + k for k in long
        }
        text = carry + text
        lines = _Lines(text, number, long_numbers)
        if not n:
            n = _size_of(lines, box)
            v = as_variant(options.variant)
            if n and v is not None and v.size not in (None, n):
                n = 0  # solve_many says why each puzzle is invalid
        lines.sort(n)
        fast, cut = _plan(lines.kinds, final)
        yield from _cut(lines, fast, cut, n, box)
        carry = text[lines.starts[cut] :] if cut < len(fast) else ""
        carry_long = [k for k in lines.long if k >= number + cut]
        number += cut
        if len(carry) > CARRY_MAX and not final:
            # The rest of the input, line by line, from a fresh start.
            rest = _numbered_rest(
                carry, carry_long, number, itertools.chain([ahead], pieces)
            )
            found = entries(rest, box)
            while chunk := list(itertools.islice(found, CHUNK)):
                yield Slow(chunk)
            return


def _numbered_rest(
    carry: str, carry_long: list[int], number: int, pieces: Iterator
) -> Iterator[tuple[int, str | None]]:
    """``(number, line)`` of ``carry`` and the pieces after it, as
    ``reader.read_lines`` numbers them."""
    for text, long in itertools.chain([(carry, [])], pieces):
        lines = text.split("\n")[:-1]
        for k, line in enumerate(lines):
            too_long = k in long or number in carry_long
            yield (
                number,
                (None if too_long or len(line) > reader.MAX_LINE else line),
            )
            number += 1


def _cut(
    lines: _Lines,
    fast: np.ndarray,
    cut: int,
    n: int,
    box: tuple[int, int] | None,
) -> Iterator[Fast | Slow]:
    """The segments of ``lines[:cut]``: runs of fast lines, and runs of
    the other lines that are not blank or a comment (with any blank or
    comment lines between them)."""
    kinds = lines.kinds[:cut]
    fast = fast[:cut]
    content = np.flatnonzero(fast | ((kinds != BLANK) & (kinds != COMMENT)))
    if not len(content):
        return
    labels = fast[content]
    edges = np.flatnonzero(labels[1:] != labels[:-1]) + 1
    shape = None
    if n:
        shape = default_box(n) if box is None else check_box(box, n)
    for run in np.split(content, edges):
        if fast[run[0]]:
            for lo in range(0, len(run), FAST_CHUNK):
                part = run[lo : lo + FAST_CHUNK]
                assert shape is not None
                yield Fast(
                    lines.first + part, lines.rows[lines.at[part]], shape
                )
        else:
            found = entries(lines.numbered(run[0], run[-1] + 1), box)
            while chunk := list(itertools.islice(found, CHUNK)):
                yield Slow(chunk)


# -- solving and writing ----------------------------------------------------------
def answers(
    parts: Iterable[Fast | Slow],
    options: BatchOptions,
    deadline: float | None = None,
    stop: Any = None,
) -> Iterator[Answer]:
    """The answer to each segment, in order.  ``deadline`` (a
    ``time.perf_counter()`` time) and ``stop`` end the batch with
    ``sudoku.Stopped``, a ``dlx.BudgetExhausted``."""
    first = True
    for part in parts:
        left = (
            None
            if deadline is None
            else max(0.0, deadline - time.perf_counter())
        )
        if isinstance(part, Fast):
            yield _answer_fast(part, options, left, stop)
        else:
            yield _answer_slow(part.entries, options, first, left, stop)
        first = False


def _answer_fast(
    part: Fast, options: BatchOptions, time_limit: float | None, stop: Any
) -> Answer:
    n = part.box[0] * part.box[1]
    cells = VALUE_OF_BYTE[part.rows].reshape(-1, n, n)
    arrays = solver.solve_cells(
        cells,
        part.box,
        limit=2,
        max_nodes=options.max_nodes,
        threads=options.threads,
        variant=options.variant,
        time_limit=time_limit,
        stop=stop,
    )
    status = arrays.status
    variant = as_variant(options.variant)
    invalid = [
        (
            int(part.numbers[k]),
            str(
                givens_conflict(
                    Grid.trusted(cells[k].astype(np.int64), part.box), variant
                )
            ),
        )
        for k in np.flatnonzero(status == _INVALID).tolist()
    ]
    text = write_rows(
        part.rows,
        arrays.solutions.reshape(len(status), -1),
        status,
        options,
        cells,
    )
    return Answer(text, status, part.numbers, invalid)


def write_rows(
    rows: np.ndarray,
    solutions: np.ndarray,
    status: np.ndarray,
    options: BatchOptions,
    values: np.ndarray | None = None,
) -> str:
    """The answers as ``batch_entry`` writes them, for one-line puzzles
    (``rows``: their text as bytes, a row each; ``solutions``: the first
    solution of each, a row each; ``status``: indices into ``STATUSES``;
    ``values``: the rows' cells, if already read), with the options'
    ``format`` (``same`` or ``line``) and ``unique``."""
    if not len(rows):
        return ""
    if values is None:
        values = VALUE_OF_BYTE[rows]
    line = options.format == "line"
    # A status's puzzles: with ``line``, written anew (. and 1-9A-Z), an
    # invalid one echoed as written; else a digit keeps its spelling (a/A)
    # and a blank takes the solution's.  The first solution is written
    # where there is one (not with unique).
    mode = np.full(len(STATUSES), PUZZLE if line else ECHO, np.int8)
    mode[_INVALID] = ECHO
    if not options.unique:
        mode[[_SOLVED, _MULTIPLE]] = SOLUTION if line else FILLED
    tags = [
        (b" unique" if options.unique and name == SOLVED else b"")
        or ((" " + TAGS[name]).encode() if TAGS[name] else b"")
        for name in STATUSES
    ]
    tag_at = np.cumsum([0] + [len(tag) for tag in tags])
    out = kernels.write_answers(
        rows,
        values.reshape(rows.shape),
        solutions.reshape(rows.shape),
        status,
        mode,
        CHAR_OF_VALUE,
        np.frombuffer(b"".join(tags), np.uint8),
        tag_at,
    )
    return out.tobytes().decode("latin-1")


def _answer_slow(
    chunk: list,
    options: BatchOptions,
    first: bool,
    left: float | None,
    stop: Any,
) -> Answer:
    """Entries the per-line way: ``solve_many`` and ``batch_entry``."""
    texts = [
        line
        if not isinstance(line, str)
        or "\n" in line
        or (" " not in line and "\t" not in line)
        else without_comment(line, options.box)
        for _, line in chunk
    ]
    good = [k for k, text in enumerate(texts) if isinstance(text, str)]
    solved = solver.solve_many(
        [texts[k] for k in good],
        options.box,
        limit=options.limit if options.count else 2,
        max_nodes=options.max_nodes,
        threads=options.threads,
        variant=options.variant,
        time_limit=left,
        stop=stop,
    )
    results = (
        solved
        if len(good) == len(texts)
        else [Result(INVALID, None, str(text)) for text in texts]
    )
    if results is not solved:
        for k, result in zip(good, solved):
            results[k] = result
    out = []
    invalid = []
    for (number, _), text, result in zip(chunk, texts, results):
        if result.status == INVALID:
            where = (
                number
                if not isinstance(text, str)
                else row_line(number, text, str(result.error))
            )
            invalid.append((where, str(result.error)))
        out.append(batch_entry(number, text, result, options, first))
        first = False
    status = np.array([STATUSES.index(r.status) for r in results], np.int8)
    numbers = np.array([number for number, _ in chunk], np.int64)
    return Answer("".join(out), status, numbers, invalid)


# -- the public form ------------------------------------------------------------
@dataclass
class TextBatch:
    """What ``solve_text`` found.

    ``text``: the answers as ``sudoku solve FILE`` writes them; per
    puzzle, in order: ``lines`` (the line it starts on), ``status``
    (indices into ``STATUSES``); ``errors``: ``{line: message}`` for the
    invalid ones (the line the message points to).
    """

    text: str
    lines: np.ndarray
    status: np.ndarray
    errors: dict[int, str]

    def statuses(self) -> list[str]:
        """The status of each puzzle, by name.

        Returns:
            One of ``STATUSES`` a puzzle, in order.
        """
        return [STATUSES[k] for k in self.status.tolist()]


def solve_text(
    text: str,
    box: tuple[int, int] | None = None,
    *,
    format: str = "same",
    unique: bool = False,
    max_nodes: int | None = None,
    threads: int = 0,
    variant: Any = None,
    time_limit: float | None = None,
    stop: Any = None,
) -> TextBatch:
    """Solve every puzzle of ``text`` (a file's contents: one puzzle a
    line, grids over several lines, comments) and write the answers
    exactly as ``sudoku solve FILE`` does.

    One-line puzzles are read, solved and written in bulk, with nothing
    per puzzle in Python (see ``sudoku.lines``); the other entries as
    ``solve_many`` reads them.  Uniqueness is checked: a solution is
    written for a puzzle with one (with ``multiple`` after it when it has
    more), else the puzzle and a tag: ``nosolution``, ``invalid`` (the
    line is not a puzzle or its givens clash), ``unknown`` (``max_nodes``
    ran out).

    Args:
        text: The puzzles, as a file holds them.
        box: The box shape of every puzzle (default: from each size).
        format: ``"same"`` (each answer written as its puzzle was),
            ``"line"``, ``"grid"`` or ``"csv"``.
        unique: Write ``unique`` after a puzzle with one solution, the
            puzzle rather than the solution (``sudoku solve --unique``).
        max_nodes: The most search nodes per puzzle.
        threads: How many threads share each engine call (0: one per
            core).
        variant: Extra rules for every puzzle, as ``solve`` takes them.
        time_limit: The most seconds for the batch.
        stop: Anything with ``is_set()`` that ends the batch when set.

    Returns:
        A ``TextBatch``: the text written, and each puzzle's line and
        status.

    Raises:
        TypeError: ``text`` that is not a string.
        ValueError: An unknown ``format``.
        InvalidVariant: An unknown variant.
        sudoku.Stopped: ``time_limit`` ran out or ``stop`` was set.
    """
    if not isinstance(text, str):
        raise TypeError(
            f"solve_text takes the text of a file of puzzles, "
            f"got {type(text).__name__}"
        )
    if format not in ("same", "line", "grid", "pretty", "csv"):
        raise ValueError(
            f"unknown format {format!r}; choose one of same, line, grid, csv"
        )
    options = BatchOptions(
        None if box is None else check_box(box),
        format,
        unique,
        False,
        None,
        max_nodes,
        threads,
        as_variant(variant),
    )
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    found = list(answers(segments(text, options), options, deadline, stop))
    if not found:
        return TextBatch("", np.zeros(0, np.int64), np.zeros(0, np.int8), {})
    return TextBatch(
        "".join(a.text for a in found),
        np.concatenate([a.numbers for a in found]),
        np.concatenate([a.status for a in found]).astype(np.int8),
        {where: message for a in found for where, message in a.invalid},
    )


def solve_entries(
    texts: list[str],
    box: tuple[int, int] | None,
    *,
    format: str = "same",
    limit: int | None = 2,
    max_nodes: int | None = None,
    threads: int = 0,
    time_limit: float | None = None,
    stop: Any = None,
) -> list[tuple[Result, str | None]]:
    """Each of ``texts`` (a puzzle each, no context between them, as the
    web page's "solve many" takes them) solved: ``(Result, solution
    written in format)``, the solution None when there is none.  The
    one-line puzzles of the first one's size are read, solved and written
    in bulk (their ``Result`` holds no grid); the others as
    ``solve_many`` reads them.  ``format``: ``same`` or ``line`` (others
    go the per-entry way)."""
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    n = 0
    if format in ("same", "line") and texts:
        n = _size_of(_Lines("\n".join(texts[:64]) + "\n", 1, ()), box)
    done: list[tuple[Result, str | None] | None] = [None] * len(texts)
    if n:
        size = n * n
        lengths = np.fromiter(map(len, texts), np.int64, len(texts))
        maybe = np.flatnonzero(lengths == size)
        joined = "".join(texts[k] for k in maybe.tolist())
        raw = np.frombuffer(joined.encode("latin-1", "replace"), np.uint8)
        rows = raw.reshape(len(maybe), size)
        values = VALUE_OF_BYTE[rows]
        fits = (values.view(np.uint8) <= n).all(axis=1)  # (-1 is 255)
        index, rows = maybe[fits], rows[fits]
        shape = default_box(n) if box is None else check_box(box, n)
        cells = values[fits].reshape(-1, n, n)
        arrays = solver.solve_cells(
            cells,
            shape,
            limit=limit,
            max_nodes=max_nodes,
            threads=threads,
            time_limit=time_limit,
            stop=stop,
        )
        written = write_rows(
            rows,
            arrays.solutions.reshape(len(rows), -1),
            arrays.status,
            BatchOptions(format=format),
            cells,
        ).split("\n")
        counts = arrays.counts.tolist()
        for k, code in enumerate(arrays.status.tolist()):
            name = STATUSES[code]
            error = None
            if code == _INVALID:
                grid = Grid.trusted(cells[k].astype(np.int64), shape)
                error = givens_conflict(grid, None)
            shown = written[k][:size] if name in (SOLVED, MULTIPLE) else None
            done[index[k]] = (Result(name, None, error, counts[k]), shown)
    rest = [k for k, found in enumerate(done) if found is None]
    if rest:
        results = solver.solve_many(
            [texts[k] for k in rest],
            box,
            limit=limit,
            max_nodes=max_nodes,
            threads=threads,
            time_limit=None
            if deadline is None
            else max(0.0, deadline - time.perf_counter()),
            stop=stop,
        )
        style = None if format == "same" else format
        for k, result in zip(rest, results):
            solution = result.grid
            done[k] = (
                result,
                None if solution is None else solution.format(style),
            )
    return done  # type: ignore[return-value]
