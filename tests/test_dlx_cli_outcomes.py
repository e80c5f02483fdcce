"""The ``dlx`` command: every outcome's output and exit status."""

import re

import pytest

from dlx.cli import main


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def altogether(err):
    found = re.search(r"Altogether (\d+) solution", err)
    return int(found.group(1))


@pytest.mark.parametrize("argv, shown", [
    (["pentomino", "3x20", "--all"], 2),
    (["pentomino", "3x20", "--limit", "2"], 2),
    (["pentomino", "3x20", "--limit", "5"], 2),
    (["pentomino", "3x20", "--all", "--all-symmetries"], 8),
    (["pentomino", "3x20", "--limit", "3", "--all-symmetries"], 3),
    (["pentomino", "3x20", "--count"], 2),
    (["pentomino", "3x20"], 1),
    (["queens", "6", "--all"], 4),
    (["queens", "6", "--limit", "3"], 3),
])
def test_stats_count_the_solutions_printed(capsys, argv, shown):
    status, out, err = run(capsys, *argv, "--stats")
    assert status == 0 and altogether(err) == shown
    if "--count" in argv:
        assert out == f"{shown}\n"
    else:
        assert len([b for b in out.split("\n\n") if b.strip()]) == shown


def test_version(capsys):
    import dlx
    status, out, err = run(capsys, "--version")
    assert status == 0 and out == f"dlx {dlx.__version__}\n"


def test_help_exits_0(capsys):
    for argv in (["--help"], ["solve", "-h"], ["pentomino", "--help"]):
        status, out, err = run(capsys, *argv)
        assert status == 0 and "usage: dlx" in out
