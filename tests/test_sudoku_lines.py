"""The bulk path of a batch (``sudoku.lines``, issue 36): a file's
one-line puzzles read, solved and written with numpy writes what the
per-line path (``reader.entries``, ``solve_many``, ``batch_entry``) writes,
byte for byte, with the same statuses, line numbers and messages, for any
mix of lines, any cut of the stream into reads, and every option that
takes the bulk path."""

from __future__ import annotations

import io

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import sudoku
import sudoku.lines as lines
from sudoku.lines import BatchOptions, answers, segments, solve_text

GOOD = (
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5.."
    "2.....1.4......"
)
MULTIPLE = "." * 80 + "1"
NO_SOLUTION = "12345678." + "........9" + "." * 63
CLASH = "11" + "." * 79
GRID = """4 . . | . . . | 8 . 5
. 3 . | . . . | . . .
. . . | 7 . . | . . .
------+-------+------
. 2 . | . . . | . 6 .
. . . | . 8 . | 4 . .
. . . | . 1 . | . . .
------+-------+------
. . . | 6 . 3 | . 7 .
5 . . | 2 . . | . . .
1 . 4 | . . . | . . ."""
FOUR = "1...2...3...4..."
# Every kind of line a file may hold: one-line puzzles of each outcome and
# spelling, comments, a commented puzzle, blanks, a header, rows of a grid,
# junk, lines with spaces around.
MIX = [
    GOOD,
    MULTIPLE,
    "# a comment",
    NO_SOLUTION,
    CLASH,
    "",
    GOOD + " a comment",
    "xyz not a puzzle",
    GOOD.replace(".", "0"),
    GRID,
    "",
    GOOD.lower(),
    "# line 3: multiple",
    GRID,
    FOUR,
    FOUR,
    "",
    FOUR,
    "  " + GOOD,
    GOOD + "\t",
    "abc" * 27,
    "   ",
    GOOD,
    "1.3.2...3...4...",  # a 4x4 clash
    GOOD,
]


def _run(source, options, bulk):
    """(text, statuses, line numbers, messages) of a batch."""
    found = list(answers(segments(source, options, bulk), options))
    return (
        "".join(a.text for a in found),
        [s for a in found for s in a.status.tolist()],
        [k for a in found for k in a.numbers.tolist()],
        [m for a in found for m in a.invalid],
    )


def _same(text, options, **stream):
    """The bulk path over ``text`` (whole, and as a stream read in pieces
    of ``stream`` sizes) is the per-line path."""
    expected = _run(text, options, bulk=False)
    assert _run(text, options, bulk=True) == expected
    return expected


OPTIONS = [
    BatchOptions(threads=1),
    BatchOptions(format="line", threads=1),
    BatchOptions(unique=True, threads=1),
    BatchOptions(format="line", unique=True, threads=1),
    BatchOptions(box=(3, 3), threads=1),
    BatchOptions(max_nodes=2, threads=1),
]


@pytest.mark.parametrize("run", ["compiled", "plain"])
@pytest.mark.parametrize("options", OPTIONS)
def test_a_mixed_file_is_written_as_the_per_line_path_writes_it(
    monkeypatch, options, run
):
    if run == "plain":  # the adapter's kernels as at a command's start
        for name in ("given_options", "fill", "write_answers"):
            kernel = getattr(sudoku.kernels, name)
            monkeypatch.setattr(sudoku.kernels, name, kernel.py_func)
    text = "\n".join(MIX) + "\n"
    written, status, numbers, invalid = _same(text, options)
    assert written.count("\n") > len(MIX) // 2
    names = {sudoku.STATUSES[s] for s in status}
    assert {"solved", "invalid"} <= names
    assert sorted(numbers) == numbers
    # Without the last newline, and with Windows line ends: the same.
    assert _run(text[:-1], options, True)[0] == written
    assert _run(text.replace("\n", "\r\n"), options, True)[0] == written


@pytest.mark.parametrize("size", [5, 64, 333])
def test_reads_in_pieces_give_the_same_answers(monkeypatch, size):
    monkeypatch.setattr(lines, "READ_SIZE", size)
    options = BatchOptions(threads=1)
    text = "\n".join(MIX * 2) + "\n"
    expected = _run(text, options, bulk=False)
    assert _run(io.StringIO(text), options, bulk=True) == expected
    monkeypatch.setattr(lines, "CARRY_MAX", 100)  # the rest line by line
    assert _run(io.StringIO(text), options, bulk=True) == expected


def test_lines_too_long_are_reported_as_the_reader_reports_them(
    monkeypatch,
):
    import sudoku.reader

    monkeypatch.setattr(sudoku.reader, "MAX_LINE", 100)
    monkeypatch.setattr(lines, "READ_SIZE", 64)
    text = "\n".join([GOOD, "1" * 250, GOOD, "2" * 101, GOOD, "3" * 300])
    options = BatchOptions(threads=1)
    expected = _run(io.StringIO(text), options, bulk=False)
    assert _run(io.StringIO(text), options, bulk=True) == expected
    assert expected[1].count(sudoku.STATUSES.index("invalid")) == 3


def test_only_leading_one_line_puzzles_of_a_block_go_in_bulk():
    options = BatchOptions(threads=1)
    # A 4x4 puzzle line above the rows of a 16x16 grid is its first row.
    hexa = [
        "6E.F..B82D..5.73",
        ".35.7.1..G.A.29.",
    ]
    parts = list(segments("\n".join([FOUR, FOUR, *hexa]) + "\n", options))
    kinds = [type(p).__name__ for p in parts]
    assert kinds == ["Fast", "Slow"]
    assert parts[0].numbers.tolist() == [1]
    # The reader takes the last 4x4 line and the rows below as one grid.
    assert parts[1].entries == [(2, "\n".join([FOUR, *hexa]))]
    # A file of one-line puzzles, blank lines and comments: one segment.
    parts = list(segments("\n".join([GOOD, "", "# x", GOOD]), options))
    assert [type(p).__name__ for p in parts] == ["Fast"]
    assert parts[0].numbers.tolist() == [1, 4]


def test_solve_text_writes_what_the_command_writes(tmp_path, capsys):
    from sudoku.cli import main

    text = "\n".join(MIX) + "\n"
    path = tmp_path / "mix.txt"
    path.write_text(text)
    assert main(["solve", str(path), "-q"]) == 1
    out, err = capsys.readouterr()
    found = solve_text(text, threads=1)
    assert found.text == out
    assert [f"sudoku: line {k}: " in err for k in found.errors] == [
        True
    ] * len(found.errors)
    assert len(found.lines) == len(found.status) == len(found.statuses())
    assert solve_text("").text == ""
    with pytest.raises(TypeError, match="text of a file"):
        solve_text(["x"])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown format"):
        solve_text(GOOD, format="bold")


def test_write_rows_keeps_the_spelling_of_givens():
    # A 16x16 row: the given "a" (10) stays lower case, the rest is
    # written 1-9A-G; a multiple gets its tag, an invalid line is echoed.
    rows = np.frombuffer(("a" + "." * 255).encode(), np.uint8)
    rows = np.stack([rows] * 3)
    solution = np.arange(256)[None].repeat(3, 0) % 16 + 1
    solution[:, 0] = 10
    status = np.array(
        [sudoku.STATUSES.index(s) for s in ("solved", "multiple", "invalid")],
        np.int8,
    )
    chars = "123456789ABCDEFG"
    body = "a" + "".join(chars[k % 16] for k in range(1, 256))
    assert lines.write_rows(rows, solution, status, BatchOptions()) == (
        f"{body}\n{body} multiple\na{'.' * 255} invalid\n"
    )


LINE_KINDS = st.sampled_from(
    [GOOD, MULTIPLE, NO_SOLUTION, CLASH, FOUR, "", "# c", "  ", "x y"]
    + [GOOD + " note", GOOD.lower(), "1.3.2...3...4...", "# line 2: solved"]
    + ["4 . . | . . . | 8 . 5", "------+-------+------", "...."]
)


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(st.lists(LINE_KINDS, max_size=14), st.integers(3, 200))
def test_any_mix_of_lines_any_reads(chosen, size):
    text = "\n".join(chosen)
    options = BatchOptions(threads=1)
    expected = _run(text, options, bulk=False)
    old = lines.READ_SIZE
    lines.READ_SIZE = size
    try:
        assert _run(io.StringIO(text), options, bulk=True) == expected
    finally:
        lines.READ_SIZE = old


@pytest.mark.parametrize("fmt, limit", [("same", 2), ("line", 2), ("same", 1)])
def test_solve_entries_answers_as_solve_many(fmt, limit):
    # The web page's batch: each entry alone, no context between them.
    texts = [t for t in MIX if t.strip() and "\n" not in t] + [GRID]
    found = lines.solve_entries(texts, None, format=fmt, limit=limit)
    style = None if fmt == "same" else fmt
    for (result, shown), want in zip(
        found, sudoku.solve_many(texts, limit=limit, threads=1)
    ):
        assert (result.status, result.error, result.count) == (
            want.status,
            want.error,
            want.count,
        )
        assert shown == (
            None if want.grid is None else want.grid.format(style)
        )
    assert len(found) == len(texts)
