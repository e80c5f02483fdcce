"""``sudoku solve`` reads back everything it writes, in every layout and
size; multi-grid files; one precise error per bad grid; ``-o`` onto the
input; pipes and FIFOs as FILE."""

import os
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

import sudoku
from sudoku import parse
from sudoku.cli import main
from sudoku.reader import entries, read_lines

DATA = Path(__file__).parent / "data"
TOP = (DATA / "sudoku_top95.txt").read_text().split()
ROOT = Path(__file__).resolve().parent.parent


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def puzzles_of_size(n):
    """Four puzzles of size n: most likely unique, surely several
    solutions, no solution (no clash), and clashing givens."""
    box = sudoku.grid.default_box(n)
    full = sudoku.solve(np.zeros((n, n), int)).cells
    rng = np.random.default_rng(n)
    one = full.copy()
    one[rng.random((n, n)) < 0.4] = 0
    several = full.copy()
    several[:, :] = 0
    several[0] = full[0]
    none = full.copy()
    none[:, :] = 0
    none[0, 1:] = full[0, 1:]  # cell r1c1 can only hold full[0, 0] ...
    none[1, 0] = full[0, 0]  # ... which its column already has: no clash
    none[0, 0] = 0
    if n > 2 and box[0] > 1:  # keep r2c1 out of r1c1's box for no clash
        none[1, 0] = 0
        none[box[0], 0] = full[0, 0]
    clash = full.copy()
    clash[rng.random((n, n)) < 0.5] = 0
    clash[0, 0] = clash[0, 1] = full[0, 0]
    return [parse(c) for c in (one, several, none, clash)]


def texts(path):
    """The entry texts of a file as the reader splits it, without a
    trailing tag word on one-line entries."""
    with open(path, encoding="utf-8") as f:
        found = [text for _, text in entries(read_lines(f))]
    return [t.split()[0] if "\n" not in t else t for t in found]


SIZES = [4, 6, 8, 9, 12, 16, 25, 36]


@pytest.mark.parametrize("style", ["line", "grid", "csv"])
@pytest.mark.parametrize("n", SIZES)
def test_output_reads_back(capsys, tmp_path, style, n):
    puzzles = puzzles_of_size(n)
    results = sudoku.solve_many(puzzles)
    assert [r.status for r in results] == [
        "solved",
        "multiple",
        "no solution",
        "invalid",
    ] or [r.status for r in results][1:] == [
        "multiple",
        "no solution",
        "invalid",
    ]
    source = tmp_path / "in.txt"
    source.write_text("\n".join(str(p) for p in puzzles) + "\n")
    first = tmp_path / "first.txt"
    assert (
        run(capsys, "solve", source, "--format", style, "-o", first, "-q")[0]
        == 1
    )
    # What was written is read back as the same grids ...
    expected = [
        r.grid if r.grid is not None else p for p, r in zip(puzzles, results)
    ]
    written = texts(first)
    assert [parse(t) for t in written] == expected
    # ... and solving it again writes every grid with the same spelling.
    second = tmp_path / "second.txt"
    code, out, err = run(capsys, "solve", first, "-o", second)
    assert code == 1 and "4 puzzles in" in err
    assert texts(second) == written


def test_pretty_grids_separated_by_blank_lines(capsys, tmp_path):
    path = tmp_path / "two.txt"
    path.write_text(
        parse(TOP[0]).pretty() + "\n\n" + parse(TOP[1]).pretty() + "\n"
    )
    code, out, err = run(capsys, "solve", path, "--format", "line")
    assert code == 0 and "2 puzzles in" in err
    rows = out.splitlines()
    assert sudoku.is_valid_solution(rows[0], TOP[0])
    assert sudoku.is_valid_solution(rows[1], TOP[1])


def test_grids_without_blank_lines_and_mixed_with_lines(capsys, tmp_path):
    path = tmp_path / "mixed.txt"
    rows = lambda p: "\n".join(p[k : k + 9] for k in range(0, 81, 9))
    path.write_text(f"{TOP[0]}\n{rows(TOP[1])}\n{rows(TOP[2])}\n{TOP[3]}\n")
    code, out, err = run(capsys, "solve", path, "--format", "line", "-q")
    assert code == 0
    assert all(
        sudoku.is_valid_solution(a, b)
        for a, b in zip(out.splitlines(), TOP[:4])
    )
    assert len(out.splitlines()) == 4


EULER = """Grid 01
4.....8.5
.3.......
...7.....
.2.....6.
....8.4..
....1....
...6.3.7.
5..2.....
1.4......
Grid 02
200080300
060070084
030500209
000105408
000000000
402706000
301007040
720040060
004010003
"""


def test_project_euler_layout(capsys, tmp_path):
    path = tmp_path / "p096_sudoku.txt"
    path.write_text(EULER)
    code, out, err = run(capsys, "solve", path, "--format", "line")
    lines = out.splitlines()
    assert code == 0 and len(lines) == 2 and "2 puzzles in" in err
    assert sudoku.is_valid_solution(
        lines[1], "".join(EULER.splitlines()[11:20])
    )


def test_a_stray_line_is_reported_not_dropped(capsys, tmp_path):
    path = tmp_path / "p.txt"
    path.write_text(f"hello world\n{TOP[0]}\n{TOP[1]}\nbye\n")
    code, out, err = run(capsys, "solve", path)
    assert code == 1 and len(out.splitlines()) == 4
    assert "line 1: " in err and "line 4: " in err


def test_header_comment_is_skipped(capsys, tmp_path):
    path = tmp_path / "p.txt"
    path.write_text(f"# line 1: multiple\n{TOP[0]}\n# note\n{TOP[1]}\n")
    code, out, err = run(capsys, "solve", path, "-q")
    assert code == 0 and len(out.splitlines()) == 2


@pytest.mark.parametrize("row, column", [(1, 1), (2, 1), (5, 7), (9, 9)])
def test_a_typo_in_a_grid_file_is_one_precise_error(
    capsys, tmp_path, row, column
):
    lines = parse(TOP[0]).pretty().split("\n")
    k = row - 1 + (row - 1) // 3  # the file line of the row (rules between)
    cells = [i for i, ch in enumerate(lines[k]) if ch not in " |"]
    typo = (
        lines[k][: cells[column - 1]] + "x" + lines[k][cells[column - 1] + 1 :]
    )
    lines[k] = typo
    path = tmp_path / "typo.txt"
    path.write_text("Grid 7\n" + "\n".join(lines) + "\n")
    code, out, err = run(capsys, "solve", path)
    assert code == 1
    messages = [line for line in err.splitlines() if "line" in line]
    assert messages == [
        f"sudoku: line {k + 2}: bad character 'x' at row "
        f"{row}, column {column}: a 9x9 grid uses 1-9 and "
        f". 0 _ - * for empty cells"
    ]


def test_a_short_row_is_one_error(capsys, tmp_path):
    rows = [TOP[0][k : k + 9] for k in range(0, 81, 9)]
    rows[4] = rows[4][:-1]
    path = tmp_path / "short.txt"
    path.write_text("\n".join(rows) + "\n")
    code, out, err = run(capsys, "solve", path)
    assert code == 1 and err.count("sudoku: line") == 1
    assert "sudoku: line 5: wrong size: row 5 has 8 cells, expected 9" in err


def test_output_onto_the_input_file(capsys, tmp_path):
    path = tmp_path / "big.txt"
    path.write_text("\n".join(TOP * 6) + "\n")  # 570 lines
    os.chmod(path, 0o640)
    code, out, err = run(capsys, "solve", path, "-o", path, "-q")
    assert code == 0 and out == ""
    lines = path.read_text().splitlines()
    assert len(lines) == 570
    assert all(sudoku.is_valid_solution(a, b) for a, b in zip(lines, TOP * 6))
    assert oct(os.stat(path).st_mode & 0o777) == "0o640"
    assert os.listdir(tmp_path) == ["big.txt"]  # no temporary file left


def test_a_failed_run_leaves_the_output_file_alone(
    capsys, tmp_path, monkeypatch
):
    import sudoku.solver  # the command loads it when it runs

    path = tmp_path / "p.txt"
    path.write_text("\n".join(TOP[:3]) + "\n")
    before = path.read_text()

    def broken(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(sudoku.solver, "solve_cells", broken)
    code, out, err = run(capsys, "solve", path, "-o", path)
    assert code == 130 and path.read_text() == before
    assert os.listdir(tmp_path) == ["p.txt"]


def _sudoku(*argv, **kwargs):
    return subprocess.run(
        [sys.executable, "-m", "sudoku", *argv],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        **kwargs,
    )


def test_dev_stdin_and_process_substitution():
    done = _sudoku("solve", "/dev/stdin", "-q", input=TOP[0] + "\n")
    assert done.returncode == 0 and sudoku.is_valid_solution(
        done.stdout, TOP[0]
    )
    done = subprocess.run(
        [
            "bash",
            "-c",
            f'"{sys.executable}" -m sudoku solve '
            f'<(printf "%s\\n" {TOP[0]} {TOP[1]}) -q',
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.splitlines()) == 2


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_named_fifo(capsys, tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)

    def write():
        with open(fifo, "w") as f:
            f.write("\n".join(TOP[:3]) + "\n")

    writer = threading.Thread(target=write)
    writer.start()
    code, out, err = run(capsys, "solve", fifo, "-q")
    writer.join(timeout=60)
    assert code == 0 and len(out.splitlines()) == 3


def test_too_long_and_binary_lines(capsys, tmp_path, monkeypatch):
    import sudoku.reader

    monkeypatch.setattr(sudoku.reader, "MAX_LINE", 1000)
    path = tmp_path / "junk.txt"
    path.write_bytes(
        b"1" * 5000 + b"\n\x00\x01\xff garbage\n" + TOP[0].encode() + b"\n"
    )
    code, out, err = run(capsys, "solve", path)
    lines = out.splitlines()
    assert code == 1 and len(lines) == 3
    assert lines[0] == "... invalid" and "line 1: the line is longer" in err
    assert lines[1].isprintable() and lines[1].endswith(" invalid")
    assert sudoku.is_valid_solution(lines[2], TOP[0])


def test_long_invalid_input_is_echoed_cut(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr("sudoku.batch_text.ECHO_MAX", 50)
    path = tmp_path / "long.txt"
    path.write_text("1" * 500 + "\n")
    code, out, err = run(capsys, "solve", path)
    assert code == 1 and out == "1" * 50 + "... invalid\n"


@pytest.mark.parametrize(
    "text, lines",
    [
        ("x" * 8, [(1, "x" * 8)]),
        ("x" * 8 + "\ny\n", [(1, "x" * 8), (2, "y")]),
        ("x" * 9 + "\ny\n", [(1, None), (2, "y")]),
        ("x" * 30 + "\ny", [(1, None), (2, "y")]),
        ("x" * 30, [(1, None)]),
        ("", []),
    ],
)
def test_lines_longer_than_the_limit_are_skipped_whole(
    monkeypatch, text, lines
):
    import io

    from sudoku import reader

    monkeypatch.setattr(reader, "MAX_LINE", 8)
    assert list(reader.read_lines(io.StringIO(text))) == lines


def test_grids_of_rows_without_spaces_and_of_numbers(capsys, tmp_path):
    """Grids written a row a line, one digit per cell and no spaces: a
    row is nine cells, not one nine-digit number."""
    top = TOP[0].replace(".", "0")
    rows = "\n".join(top[k : k + 9] for k in range(0, 81, 9))
    path = tmp_path / "grids.txt"
    path.write_text(f"{rows}\n\n{rows}\n")
    code, out, err = run(capsys, "solve", path, "--format", "line")
    solution = str(sudoku.solve(TOP[0]))
    assert code == 0 and out.split() == [solution, solution]
    assert "2 puzzles" in err


def test_a_16x16_grid_of_spaced_numbers(capsys, tmp_path):
    line = (DATA / "sudoku_hexadoku16.txt").read_text().split()[0]
    grid = sudoku.parse(line)
    rows = "\n".join(
        " ".join(str(v) for v in row) for row in grid.cells.tolist()
    )
    assert "10" in rows and "16" in rows
    path = tmp_path / "big.txt"
    path.write_text(rows + "\n")
    code, out, err = run(capsys, "solve", path, "--format", "line")
    assert code == 0 and out.split() == [str(sudoku.solve(line))]


def test_grids_with_digits_grouped_by_box(capsys, tmp_path):
    """Rows like "400 000 805" are nine digits in three groups, not three
    numbers (a file of such grids was read as one-row puzzles)."""
    top = TOP[0].replace(".", "0")
    rows = "\n".join(
        " ".join(top[k + j : k + j + 3] for j in (0, 3, 6))
        for k in range(0, 81, 9)
    )
    path = tmp_path / "grouped.txt"
    path.write_text(f"{rows}\n\n{rows}\n")
    code, out, err = run(capsys, "solve", path, "--format", "line")
    solution = str(sudoku.solve(TOP[0]))
    assert code == 0 and out.split() == [solution, solution]


def test_a_framed_grid_reads_as_one_puzzle(tmp_path):
    # A grid whose first line is a rule line (a frame drawn round it), two
    # such grids in a row, and a one-line puzzle after them: three entries.
    # (The frame must not fix the grid's width before its first row does.)
    row = "| 5 3 . | . 7 . | . . . |"
    frame = "+-------+-------+-------+"
    grid = "\n".join(
        [frame]
        + [row] * 3
        + [frame]
        + [row] * 3
        + [frame]
        + [row] * 3
        + [frame]
    )
    line = "53..7...." * 9
    source = tmp_path / "framed.txt"
    source.write_text(grid + "\n" + grid + "\n" + line + "\n")
    found = texts(source)
    assert len(found) == 3
    assert [len(parse(t).cells) for t in found] == [9, 9, 9]
    assert parse(found[0]) == parse(found[1]) == parse(line)


def test_a_stray_space_in_a_row_of_characters_is_decoration(tmp_path):
    # "1 3..7...." is nine cells with one space in it, not two cells "1"
    # and "3..7....": a lone digit is not a row of separated numbers.
    rows = ["1 3..7...."] + ["13..7...."] * 8
    source = tmp_path / "spaced.txt"
    source.write_text("\n".join(rows) + "\n")
    found = texts(source)
    assert len(found) == 1
    assert parse(found[0]) == parse("13..7...." * 9)
