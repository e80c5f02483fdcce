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


@pytest.mark.parametrize(
    "argv, shown",
    [
        (["pentomino", "3x20", "--all"], 2),
        (["pentomino", "3x20", "--limit", "2"], 2),
        (["pentomino", "3x20", "--limit", "5"], 2),
        (["pentomino", "3x20", "--all", "--all-symmetries"], 8),
        (["pentomino", "3x20", "--limit", "3", "--all-symmetries"], 3),
        (["pentomino", "3x20", "--count"], 2),
        (["pentomino", "3x20"], 1),
        (["queens", "6", "--all"], 4),
        (["queens", "6", "--limit", "3"], 3),
    ],
)
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


NONE = "a b c\na b\nb c\n"  # no exact cover
TWO = "a b | x\na b\na x\nb\n"  # two: {a b}, {a x, b}


def write(tmp_path, text, name="p.dlx"):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


@pytest.mark.parametrize(
    "extra, status, out",
    [
        ([], 1, ""),
        (["--count"], 1, "0\n"),
        (["--all"], 1, ""),
        (["--limit", "3"], 1, ""),
    ],
)
def test_no_solution_exits_1(capsys, tmp_path, extra, status, out):
    code, printed, err = run(capsys, "solve", write(tmp_path, NONE), *extra)
    assert code == status and printed == out
    if "--count" not in extra:
        assert err == "no solution\n"


@pytest.mark.parametrize(
    "extra, out",
    [
        ([], "a b\n"),
        (["--count"], "2\n"),
        (["--all"], "solution 1:\na b\n\nsolution 2:\na x\nb\n"),
        (["--limit", "1"], "solution 1:\na b\n"),
        (["--limit", "2"], "solution 1:\na b\n\nsolution 2:\na x\nb\n"),
    ],
)
def test_solutions_exit_0(capsys, tmp_path, extra, out):
    code, printed, err = run(capsys, "solve", write(tmp_path, TWO), *extra)
    assert code == 0 and printed == out and err == ""


@pytest.mark.parametrize(
    "argv, message",
    [
        (["solve"], "required"),
        (["solve", "x.dlx", "--count", "--all"], "not allowed"),
        (["solve", "x.dlx", "--limit", "0"], "expected a positive whole"),
        (["solve", "x.dlx", "--limit", "x"], "expected a whole number"),
        (["queens", "0"], "not positive"),
        (["queens", "-3"], ""),
        (["queens", "8", "--all-symmetries"], "unrecognized"),
        (["pentomino"], "one of them"),
        (["pentomino", "6x10", "--board", __file__], "one of them"),
        (["pentomino", "6x10", "--copies", "0"], "not positive"),
        (
            ["pentomino", "6x10", "--pieces", "heptominoes"],
            "unknown piece set",
        ),
        (["pentomino", "7x9"], "60 cells but the board has 63"),
        (["pentomino", "seven"], "is neither"),
        (["pentomino", "6x20", "--copies", "2", "--dlx"], "--dlx cannot"),
        (["pentomino", "--board", "/no/such/board"], "cannot read"),
        (["solve", "/no/such/file.dlx"], "cannot read"),
        (["langford", "x"], "not an integer"),
    ],
)
def test_usage_errors_exit_2(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and message in err


@pytest.mark.parametrize(
    "files, message",
    [
        ({"p.dlx": "a b\na c\n"}, "p.dlx:2: unknown item 'c'"),
        ({"p.dlx": ""}, "no item line"),
        ({"b.txt": "..x\n"}, "neither '.'"),
        ({"b.txt": " \n\n"}, "b.txt: the board file is empty"),
        ({"b.txt": "....", "s.txt": "\n"}, "s.txt: no piece drawn"),
        (
            {"b.txt": "....\n", "s.txt": "AAA\n"},
            "the pieces have 3 cells but the board has 4",
        ),
        ({"b.txt": "...\n"}, "cells but the board has 3"),
        ({"b.txt": "....", "s.txt": "AA\n\nA"}, "drawn in two pictures"),
    ],
)
def test_bad_input_files_exit_1(capsys, tmp_path, files, message):
    paths = {name: write(tmp_path, text, name) for name, text in files.items()}
    if "p.dlx" in paths:
        argv = ["solve", paths["p.dlx"]]
    else:
        argv = ["pentomino", "--board", paths["b.txt"]]
        if "s.txt" in paths:
            argv += ["--pieces", paths["s.txt"]]
    code, out, err = run(capsys, *argv)
    assert code == 1 and out == "" and message in err
    assert err.count("\n") == 1


def test_pieces_and_board_files(capsys, tmp_path):
    board = write(tmp_path, "...\n...\n", "b.txt")
    pieces = write(tmp_path, "LL\nL.\n\nJJ\n.J\n", "s.txt")
    code, out, err = run(
        capsys,
        "pentomino",
        "--board",
        board,
        "--pieces",
        pieces,
        "--count",
        "--all-symmetries",
    )
    assert code == 0 and out == "4\n"  # two tilings, L and J swapped
    code, out, err = run(
        capsys, "pentomino", "--board", board, "--pieces", pieces, "--count"
    )
    # one orbit: a mirror swaps the two tilings, a half turn swaps L and J
    assert code == 0 and out == "1\n"
    code, out, err = run(
        capsys,
        "pentomino",
        "--board",
        board,
        "--pieces",
        pieces,
        "--one-sided",
        "--count",
        "--all-symmetries",
    )
    assert code == 0 and out == "4\n"  # the L tromino turns into itself


@pytest.mark.parametrize(
    "argv, count",
    [
        (["queens", "6"], 4),
        (["queens", "3"], 0),
        (["langford", "4"], 1),
        (["langford", "4", "--all-symmetries"], 2),
        (["langford", "5"], 0),
        (["pentomino", "3x20", "--all-symmetries"], 8),
    ],
)
def test_dlx_files_count_the_same(capsys, tmp_path, monkeypatch, argv, count):
    import io
    import sys

    code, text, err = run(capsys, *argv, "--dlx")
    assert code == 0 and text.startswith(f"| dlx {' '.join(argv)} --dlx\n")
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    code, out, err = run(capsys, "solve", "-", "--count")
    assert out == f"{count}\n" and code == (0 if count else 1)
    code, out, err = run(capsys, *argv, "--count")
    assert out == f"{count}\n" and code == (0 if count else 1)


@pytest.mark.parametrize(
    "argv, partial",
    [
        (["queens", "8"], 3),
        (["langford", "7"], 3),
        # one search with the X in a quarter: 3 orbits of 4 tilings each
        (["pentomino", "6x10"], 3),
        (["pentomino", "6x10", "--all-sym"], 12),
        # the V in one of its orbits: one search, as for the X on 6x10
        (["pentomino", "3x20"], 3),
    ],
)
def test_interrupted_count_prints_the_partial_count(
    capsys, monkeypatch, argv, partial
):
    from dlx import ExactCover, Interrupted, Stats

    def interrupted(self, *args, **kwargs):
        raise Interrupted(3, Stats(10, 20, 3, 0.5, False))

    def interrupted_stream(self, *args, **kwargs):
        yield from ()
        raise Interrupted(3, Stats(10, 20, 3, 0.5, False))

    monkeypatch.setattr(ExactCover, "count", interrupted)
    monkeypatch.setattr(ExactCover, "solutions", interrupted_stream)
    if argv[0] == "pentomino":  # Polyomino counts its own partial count
        from dlx.problems import polyomino

        monkeypatch.setattr(polyomino.Polyomino, "_labelings", lambda s: 1)
    status, out, err = run(capsys, *argv, "--count", "--stats")
    assert status == 130 and out == f"{partial} (partial: interrupted)\n"
    assert err.startswith(
        f"dlx: interrupted: {partial:,} solutions counted "
        f"so far (a partial count)\n"
    )
    assert "(stopped early)" in err


def test_ctrl_c_before_the_count_starts_counts_nothing(capsys, monkeypatch):
    from dlx import ExactCover

    def interrupted(self, *args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(ExactCover, "count", interrupted)
    status, out, err = run(capsys, "queens", "8", "--count", "--stats")
    assert status == 130 and out == "0 (partial: interrupted)\n"
    assert err == (
        "dlx: interrupted: 0 solutions counted so far (a partial count)\n"
    )


def test_interrupted_listing_says_how_many_were_printed(capsys, monkeypatch):
    from dlx import ExactCover, Interrupted, Stats

    def two_then_stop(self, *args, **kwargs):
        yield [0]
        yield [1]
        raise Interrupted(2, Stats(10, 20, 2, 0.5, False))

    monkeypatch.setattr(ExactCover, "solutions", two_then_stop)
    status, out, err = run(capsys, "queens", "4", "--all")
    # options 0 and 1, drawn, each under its header
    assert status == 130 and out == "solution 1:\nQ\n\nsolution 2:\n.\n"
    assert err == (
        "dlx: interrupted: 2 solutions printed so far (a partial list)\n"
    )


def test_ctrl_c_stops_a_listing_at_once():
    import signal
    import subprocess
    import sys
    import time

    process = subprocess.Popen(
        [sys.executable, "-m", "dlx", "queens", "18", "--all"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout.readline()  # the search is running
        sent = time.monotonic()
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
        assert time.monotonic() - sent < 30
    finally:
        process.kill()
    assert process.returncode == 130
    assert "dlx: interrupted: " in err and "(a partial list)" in err
    assert "Traceback" not in err


def test_ctrl_c_stops_a_count_with_its_partial_count():
    import signal
    import subprocess
    import sys
    import time

    script = (
        # The command's modules and kernels loaded first (a small count
        # of the same kind), so that the wait below is the count's alone
        # however loaded the machine.
        "import sys, dlx.cli, dlx.cli.command; "
        "from dlx.problems.queens import queens; queens(6).count(); "
        "print('ready', flush=True); "
        "sys.exit(dlx.cli.main(['queens', '17', '--count', "
        "'--stats']))"
    )
    process = subprocess.Popen(
        [sys.executable, "-c", script],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout.readline() == "ready\n"
        time.sleep(3)  # the count starts (queens 17: minutes)
        sent = time.monotonic()
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
        assert time.monotonic() - sent < 30
    finally:
        process.kill()
    assert process.returncode == 130, err
    count = int(out.split()[0])
    assert out == f"{count} (partial: interrupted)\n"
    assert err.startswith(f"dlx: interrupted: {count:,} solution")
    assert "counted so far (a partial count)" in err
    assert "Traceback" not in err
