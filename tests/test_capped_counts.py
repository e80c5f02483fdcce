"""A count that stopped at a limit never looks exact: the command line
writes it ``N+`` (alone or as a batch's tag), the web answers
``complete: false`` with status ``limit``; a count under its limit is
written bare."""

import pytest

from sudoku.batch_text import count_text
from sudoku.cli import main
from sudoku.web.service import Budget, Settings, count, exact_cover

EMPTY4 = "." * 16  # 288 solutions


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out


def test_count_text():
    assert count_text(288, None) == "288"
    assert count_text(288, 1000) == "288"
    assert count_text(5, 5) == "5+"
    assert count_text(0, 1) == "0"


@pytest.mark.parametrize("command", ["solve", "count"])
def test_one_puzzle(capsys, command):
    args = [command, EMPTY4] + (["--count"] if command == "solve" else [])
    assert run(capsys, *args, "--limit", "5") == (0, "5+\n")
    assert run(capsys, *args, "--limit", "288") == (0, "288+\n")
    assert run(capsys, *args, "--limit", "289") == (0, "288\n")


@pytest.mark.parametrize("command", ["solve", "count"])
def test_a_batch(capsys, tmp_path, command):
    path = tmp_path / "p.txt"
    path.write_text(f"{EMPTY4}\n{'1234' + '.' * 12}\n")
    args = [command, path] + (["--count"] if command == "solve" else [])
    code, out = run(capsys, *args, "--limit", "50")
    assert code == 0
    assert [line.split()[-1] for line in out.splitlines()] == ["50+", "12"]


def test_the_web_marks_it():
    settings = Settings()
    capped = count({"puzzle": EMPTY4, "limit": 5}, settings, Budget(30))
    assert (capped["count"], capped["complete"]) == (5, False)
    assert capped["status"] == "limit"
    whole = count({"puzzle": EMPTY4, "limit": None}, settings, Budget(30))
    assert (whole["count"], whole["complete"]) == (288, True)
    queens = {"builder": "queens", "n": 6, "mode": "count"}
    capped = exact_cover(dict(queens, limit=2), settings, Budget(30))
    assert (capped["complete"], capped["status"]) == (False, "limit")
    whole = exact_cover(dict(queens, limit=5), settings, Budget(30))
    assert (whole["count"], whole["complete"]) == (4, True)
