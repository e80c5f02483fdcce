"""The ``sudoku`` command: every outcome's output, message and exit
status, for one PUZZLE and for a batch."""

import io
import sys
from pathlib import Path

import pytest

import sudoku
from sudoku.cli import EXAMPLE, main

DATA = Path(__file__).parent / "data"
TOP = (DATA / "sudoku_top95.txt").read_text().split()
SPECIAL = [line.split(" ", 1)[0] for line in
           (DATA / "sudoku_special.txt").read_text().splitlines()]
NONE, CLASH, SEVERAL = SPECIAL[6], SPECIAL[3], SPECIAL[10]


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_version(capsys):
    import dlx
    code, out, err = run(capsys, "--version")
    assert code == 0 and out == f"sudoku {dlx.__version__}\n"


@pytest.mark.parametrize("argv", [["--help"], ["solve", "--help"]])
def test_help_exits_0(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 0 and "usage: sudoku" in out


@pytest.mark.parametrize("argv, status, out", [
    ([TOP[0]], 0, None),
    ([NONE], 1, ""),
    ([CLASH], 1, ""),
    (["12345"], 1, ""),
    ([SEVERAL], 0, None),
    ([TOP[0], "--unique"], 0, "unique\n"),
    ([NONE, "--unique"], 1, "nosolution\n"),
    ([SEVERAL, "--unique"], 1, "multiple\n"),
    ([CLASH, "--unique"], 1, ""),
    (["." * 16, "--count"], 0, "288\n"),
    ([NONE, "--count"], 1, "0\n"),
    ([SEVERAL, "--count", "--limit", "2"], 0, "2\n"),
    (["." * 81, "--max-nodes", "3", "--count"], 1, ""),
    (["." * 81, "--max-nodes", "3", "--unique"], 1, "unknown\n"),
])
def test_one_puzzle(capsys, argv, status, out):
    code, printed, err = run(capsys, "solve", *argv)
    assert code == status
    if out is not None:
        assert printed == out
    if status == 1 and not printed:
        assert err.startswith("sudoku: ") and err.count("\n") == 1


@pytest.mark.parametrize("extra, status", [
    ([], 1), (["--unique"], 1), (["--count"], 1)])
def test_batch_exit_status(capsys, tmp_path, extra, status):
    path = tmp_path / "p.txt"
    path.write_text(f"{TOP[0]}\n{NONE}\n")
    assert run(capsys, "solve", path, *extra)[0] == status
    path.write_text(f"{TOP[0]}\n{TOP[1]}\n")
    assert run(capsys, "solve", path, *extra)[0] == 0
    path.write_text(f"{TOP[0]}\n{SEVERAL}\n")
    assert run(capsys, "solve", path, *extra)[0] == (1 if extra == [
        "--unique"] else 0)
    path.write_text(f"{TOP[0]}\nxyz\n")
    assert run(capsys, "solve", path, *extra)[0] == 1


@pytest.mark.parametrize("argv, message", [
    ([], "usage"),
    (["solve"], "give a PUZZLE"),
    (["solve", "nosuchfile"], "no such file: nosuchfile"),
    (["solve", "no/such/file"], "no such file"),
    (["solve", "x.txt"], "no such file"),
    (["solve", "."], "is a directory"),
    (["solve", TOP[0], "--box", "0x4"], "expected ROWSxCOLS"),
    (["solve", TOP[0], "--box", "3by3"], "expected ROWSxCOLS"),
    (["solve", TOP[0], "--limit", "3"], "--limit goes with --count"),
    (["solve", TOP[0], "--count", "--limit", "0"], "positive integer"),
    (["solve", TOP[0], "--max-nodes", "-1"], "positive integer"),
    (["solve", TOP[0], "--threads", "x"], "whole number"),
    (["solve", TOP[0], "--threads", "-1"], "whole number"),
    (["solve", TOP[0], "--count", "--unique"], "not allowed"),
    (["solve", "--example", TOP[0]], "takes no PUZZLE"),
    (["solve", "--example", "-o", "x.txt"], "takes no -o"),
    (["solve", "--example", "--format", "csv"], "takes no --format"),
    (["solve", "--example", "--count"], "takes no --count"),
    (["solve", "--example", "--box", "3x3"], "takes no --box"),
    (["solve", TOP[0], "--format", "xml"], "invalid choice"),
    (["solve", TOP[0], "-o", "/no/such/dir/out.txt"], "cannot write"),
    (["solve", TOP[0], "-o", "."], "cannot write"),
])
def test_usage_errors_exit_2_with_one_message(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and message in err


def test_unreadable_file_is_a_usage_error(capsys, tmp_path):
    path = tmp_path / "secret.txt"
    path.write_text(TOP[0])
    path.chmod(0)
    try:
        open(path).close()
        pytest.skip("running as a user who can read anything")
    except PermissionError:
        pass
    code, out, err = run(capsys, "solve", path)
    assert code == 2 and "cannot read" in err


def test_box_advice_names_the_flag(capsys):
    code, out, err = run(capsys, "solve", "1" * 49)
    assert code == 1 and "--box ROWSxCOLS" in err and "box=(" not in err
    assert "a 7x7 grid" in err


def test_articles_and_plurals(capsys, tmp_path):
    code, out, err = run(capsys, "solve", "1" * 63)
    assert "(an 8x8 grid has 64)" in err
    path = tmp_path / "one.txt"
    path.write_text(TOP[0] + "\n")
    code, out, err = run(capsys, "solve", path)
    assert "1 puzzle in" in err


def test_a_puzzle_may_start_with_a_dash(capsys):
    dashed = "-" + next(p for p in TOP if p[0] == ".")[1:]
    code, out, err = run(capsys, "solve", dashed, "--format", "line")
    assert code == 0 and sudoku.is_valid_solution(out, dashed)
    code, out, err = run(capsys, "solve", "--unique", dashed)
    assert code == 0 and out == "unique\n"


def test_the_same_tag_alone_and_in_a_batch(capsys, monkeypatch):
    alone = run(capsys, "solve", NONE, "--unique")[1]
    monkeypatch.setattr(sys, "stdin",
                        io.TextIOWrapper(io.BytesIO(NONE.encode())))
    batch = run(capsys, "solve", "-", "--unique")[1]
    assert alone.split() == batch.split()[1:] == ["nosolution"]


def test_example_alone(capsys):
    code, out, err = run(capsys, "solve", "--example")
    assert code == 0 and EXAMPLE in out
