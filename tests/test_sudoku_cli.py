"""The ``sudoku`` command line, driven through ``main(argv)``."""

import io
import subprocess
import sys
from pathlib import Path

import pytest

import sudoku
from sudoku import parse
from sudoku.cli import main

DATA = Path(__file__).parent / "data"
TOP = (DATA / "sudoku_top95.txt").read_text().split()
SPECIAL = [
    line.split(" ", 1)
    for line in (DATA / "sudoku_special.txt").read_text().splitlines()
]


# Complete, valid and keeping the puzzle's givens (itself checked against
# an independent oracle in test_sudoku_solver).
solved = sudoku.is_valid_solution


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_example(capsys):
    code, out, err = run(capsys, "solve", "--example")
    assert code == 0 and "AI Escargot" in out
    solution = [line.split("->")[-1][-21:] for line in out.splitlines()[4:]]
    puzzle = out.splitlines()[1]
    assert solved("\n".join(solution), puzzle)


def test_one_puzzle_in_each_format(capsys):
    code, out, err = run(capsys, "solve", TOP[0])
    assert code == 0 and len(out.split()) == 1 and solved(out, TOP[0])
    for style in ("line", "grid", "csv"):
        code, out, _ = run(capsys, "solve", TOP[0], "--format", style)
        assert code == 0 and solved(out, TOP[0])
    code, out, _ = run(capsys, "solve", TOP[0], "--format", "grid")
    assert out.count("\n") == 11 and "|" in out


def test_one_puzzle_outcomes(capsys):
    code, out, err = run(capsys, "solve", SPECIAL[6][0])
    assert code == 1 and out == "" and "no solution" in err
    code, out, err = run(capsys, "solve", SPECIAL[3][0])
    assert code == 1 and "givens conflict: r4c6 and r5c4 both hold 5" in err
    code, out, err = run(capsys, "solve", "12345")
    assert code == 1 and "wrong size" in err
    code, out, err = run(capsys, "solve", SPECIAL[10][0])
    assert code == 0 and solved(out, SPECIAL[10][0]) and "more than one" in err
    assert run(capsys, "solve", "." * 16, "--count")[:2] == (0, "288\n")
    assert (
        run(capsys, "solve", "." * 16, "--count", "--limit", "7")[1] == "7+\n"
    )
    assert run(capsys, "solve", TOP[0], "--unique")[:2] == (0, "unique\n")
    assert run(capsys, "solve", SPECIAL[10][0], "--unique")[:2] == (
        1,
        "multiple\n",
    )
    assert (
        run(
            capsys,
            "solve",
            "." * 36,
            "--box",
            "3x2",
            "--count",
            "--limit",
            "3",
        )[1]
        == "3+\n"
    )


def test_batch_file(capsys, tmp_path):
    lines = [
        TOP[0],
        "",
        SPECIAL[3][0] + " invalid",
        TOP[1],
        "1" * 80,
        "   ",
        SPECIAL[6][0],
        SPECIAL[10][0] + " multiple",
        TOP[2],
    ]
    path = tmp_path / "puzzles.txt"
    path.write_bytes("\r\n".join(lines).encode() + b"\r\n")
    code, out, err = run(capsys, "solve", str(path))
    assert code == 1
    rows = out.splitlines()
    assert len(rows) == 7
    assert solved(rows[0], TOP[0]) and solved(rows[2], TOP[1])
    assert rows[1] == SPECIAL[3][0] + " invalid"
    assert rows[3] == "1" * 80 + " invalid"
    assert rows[4] == SPECIAL[6][0] + " nosolution"
    assert rows[5].endswith(" multiple") and solved(
        rows[5].split()[0], SPECIAL[10][0]
    )
    assert "line 3: givens conflict" in err and "line 5: wrong size" in err
    assert (
        "7 puzzles" in err
        and "3 solved, 1 no solution, 1 multiple, 2 invalid" in err
        and "puzzles/s" in err
    )


def test_batch_modes_and_output_file(capsys, tmp_path):
    path = tmp_path / "p.txt"
    path.write_text("\n".join(TOP[:5] + [SPECIAL[11][0]]) + "\n")
    code, out, err = run(capsys, "solve", str(path), "--count")
    assert code == 0
    assert out.splitlines()[-1] == SPECIAL[11][0] + " 3"
    assert out.splitlines()[0] == TOP[0] + " 1"
    assert (
        run(capsys, "solve", str(path), "--threads", "2")[1]
        == run(capsys, "solve", str(path))[1]
    )
    code, out, err = run(capsys, "solve", str(path), "--unique")
    assert code == 1 and out.splitlines()[-1].endswith(" multiple")
    assert out.splitlines()[0] == TOP[0] + " unique"
    target = tmp_path / "out.txt"
    code, out, err = run(
        capsys, "solve", str(path), "-o", str(target), "--format", "csv", "-q"
    )
    assert code == 0 and out == "" and err == ""
    blocks = target.read_text().split("\n\n")
    assert len(blocks) == 6 and solved(blocks[0], TOP[0])
    assert blocks[-1].startswith("# line 6: multiple")


def test_grid_file_is_one_puzzle(capsys, tmp_path):
    path = tmp_path / "grid.txt"
    path.write_text(parse(TOP[3]).format("grid") + "\n")
    code, out, err = run(capsys, "solve", str(path))
    assert code == 0 and solved(out, TOP[3]) and "|" in out
    big = tmp_path / "big.csv"
    grid = sudoku.solve("." * 256)
    cells = grid.cells.copy()
    cells[::2, ::3] = 0
    big.write_text(sudoku.format_csv(parse(cells)) + "\n")
    code, out, err = run(capsys, "solve", str(big))
    # A file is a batch even with one puzzle: this one has many solutions.
    head, grid_text = out.split("\n", 1)
    assert code == 0 and head == "# line 1: multiple"
    assert solved(grid_text, str(parse(cells)))


def test_stdin(capsys, monkeypatch):
    data = ("\n".join(TOP[:3]) + "\n").encode()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    code, out, err = run(capsys, "solve", "-")
    assert code == 0 and len(out.splitlines()) == 3
    assert all(solved(a, b) for a, b in zip(out.splitlines(), TOP))


def test_bad_input_files(capsys, tmp_path):
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    code, out, err = run(capsys, "solve", str(empty))
    assert code == 1 and "no puzzle found" in err
    blank = tmp_path / "blank.txt"
    blank.write_text("\n\r\n  \n")
    assert run(capsys, "solve", str(blank))[0] == 1
    old_mac = tmp_path / "bom.txt"
    old_mac.write_bytes(b"\xef\xbb\xbf" + "\r".join(TOP[:2]).encode() + b"\r")
    code, out, err = run(capsys, "solve", str(old_mac))
    assert code == 0 and solved(out.split()[1], TOP[1])


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["solve"],
        ["frobnicate"],
        ["solve", "x", "--box", "3by3"],
        ["solve", "no/such/file.txt"],
        ["solve", TOP[0], "--limit", "3"],
        ["solve", TOP[0], "--count", "--unique"],
        ["solve", "--example", TOP[0]],
        ["solve", TOP[0], "--format", "xml"],
    ],
)
def test_usage_errors(capsys, argv):
    assert run(capsys, *argv)[0] == 2


def test_python_dash_m():
    done = subprocess.run(
        [sys.executable, "-m", "sudoku", "solve", TOP[0]],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0 and solved(done.stdout, TOP[0])


FOUR = "1234341221434321"  # a solved 4x4 grid


def test_sixteen_4x4_lines_are_sixteen_puzzles(capsys, tmp_path):
    """16 lines of 16 cells could be the rows of a 16x16 grid, but each is
    a whole 4x4 puzzle: a batch (``--box 4x4`` asks for the grid)."""
    path = tmp_path / "fours.txt"
    puzzles = [FOUR[:k] + "." + FOUR[k + 1 :] for k in range(16)]
    path.write_text("\n".join(puzzles) + "\n")
    code, out, err = run(capsys, "solve", str(path))
    assert code == 0 and out.splitlines() == [FOUR] * 16
    assert "16 puzzles" in err
    code, out, err = run(capsys, "solve", str(path), "--box", "4x4")
    assert code == 1 and "# line 1: invalid" in out  # one clashing grid
    rows = tmp_path / "rows.txt"  # the rows of a real 16x16 grid
    rows.write_text(
        "\n".join(
            str(sudoku.solve("." * 256)).replace("1", ".", 5)[
                r * 16 : (r + 1) * 16
            ]
            for r in range(16)
        )
        + "\n"
    )
    code, out, err = run(capsys, "solve", str(rows))
    assert code == 0 and len(out.splitlines()) == 16 and "1 puzzle in" in err


@pytest.mark.parametrize("source", ["file", "stdin"])
def test_one_puzzle_file_is_a_batch(capsys, tmp_path, monkeypatch, source):
    """A FILE or ``-`` holding one puzzle is answered in the batch format,
    the same as the first line of a longer file."""

    def answer(puzzle, *options):
        text = puzzle + "\n"
        if source == "file":
            path = tmp_path / "one.txt"
            path.write_text(text)
            return run(capsys, "solve", str(path), "-q", *options)
        monkeypatch.setattr(
            sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode()))
        )
        return run(capsys, "solve", "-", "-q", *options)

    none, several = SPECIAL[6][0], SPECIAL[10][0]
    assert answer(TOP[0], "--unique") == (0, TOP[0] + " unique\n", "")
    assert answer(none, "--unique") == (1, none + " nosolution\n", "")
    assert answer(none) == (1, none + " nosolution\n", "")
    assert answer(several, "--unique") == (1, several + " multiple\n", "")
    assert answer("." * 16, "--count") == (0, "." * 16 + " 288\n", "")
    code, out, err = answer(several)
    assert code == 0 and out.endswith(" multiple\n")
    assert solved(out.split()[0], several)


def test_interrupt_is_one_line(capsys, monkeypatch):
    def interrupted(args):
        raise KeyboardInterrupt

    monkeypatch.setattr(sudoku.cli, "run_solve", interrupted)
    code, out, err = run(capsys, "solve", TOP[0])
    assert code == 130 and err.strip() == "sudoku: interrupted"
    assert "Traceback" not in err


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_write_error_is_one_line(capsys):
    code, out, err = run(capsys, "solve", TOP[0], "-o", "/dev/full")
    assert code == 1 and err == "sudoku: No space left on device\n"


def test_closed_pipe_exits_quietly(tmp_path):
    path = tmp_path / "many.txt"
    path.write_text((FOUR[:5] + "." + FOUR[6:] + "\n") * 100_000)
    reader = subprocess.Popen(
        [sys.executable, "-m", "sudoku", "solve", str(path), "-q"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert reader.stdout.readline() == (FOUR + "\n").encode()
    reader.stdout.close()
    err = reader.stderr.read().decode()
    assert reader.wait(timeout=120) == 141 and err == ""


# -- long counts ---------------------------------------------------------------


def test_count_command_with_checkpoint(capsys, tmp_path):
    path = tmp_path / "c"
    empty = "." * 16
    assert run(
        capsys, "count", empty, "--jobs", "1", "--checkpoint", str(path)
    )[:2] == (0, "288\n")
    assert path.read_text().count("\n") > 1
    assert run(capsys, "count", empty, "--checkpoint", str(path))[:2] == (
        0,
        "288\n",
    )
    status, out, err = run(
        capsys, "count", "1" + "." * 15, "--checkpoint", str(path)
    )
    assert status == 1 and "given options" in err


def test_count_command_agrees_with_solve_count(capsys):
    puzzle = "123456" + "." * 30  # 6x6, the first row given
    counted = run(capsys, "count", puzzle, "--jobs", "2")
    assert counted[:2] == run(capsys, "solve", puzzle, "--count")[:2]
    assert counted[1] == f"{28200960 // 720}\n"


def test_checkpoint_is_for_one_puzzle(capsys, tmp_path):
    path = tmp_path / "puzzles.txt"
    path.write_text("." * 16 + "\n")
    status, out, err = run(
        capsys, "count", str(path), "--checkpoint", str(tmp_path / "c")
    )
    assert status == 2 and "one PUZZLE" in err


@pytest.mark.parametrize(
    "flags",
    [
        ["--jobs", "0"],
        ["--jobs", "2"],
        ["--checkpoint", "cp.json"],
        ["--scheduler", "tcp://127.0.0.1:1"],
        ["--progress"],
    ],
)
def test_a_files_count_refuses_what_only_one_puzzle_takes(
    capsys, tmp_path, monkeypatch, flags
):
    # A FILE's puzzles are counted as a batch on --threads: the flags of
    # one long count would do nothing there, so they are refused.
    monkeypatch.chdir(tmp_path)
    (tmp_path / "p.txt").write_text("." * 16 + "\n")
    code, _, err = run(capsys, "solve", "p.txt", "--count", *flags)
    assert code == 2
    assert (
        f"sudoku: {flags[0]} counts one PUZZLE given on the command line, "
        f"not a FILE" in err
    )


def test_a_capped_count_takes_its_progress_bar(capsys, monkeypatch):
    # --progress beside --limit (one count in this process) reaches the
    # count instead of being dropped.
    seen = {}

    def count(puzzle, limit=None, **options):
        seen.update(options, limit=limit)
        return 5

    monkeypatch.setattr("sudoku.solver.count", count)  # loaded when run
    code, out, _ = run(
        capsys, "solve", "." * 16, "--count", "--limit", "5", "--progress"
    )
    assert (code, out.strip()) == (0, "5+")
    assert seen["limit"] == 5 and seen["progress"] is True
