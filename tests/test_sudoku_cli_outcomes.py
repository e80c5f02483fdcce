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
SPECIAL = [
    line.split(" ", 1)[0]
    for line in (DATA / "sudoku_special.txt").read_text().splitlines()
]
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


@pytest.mark.parametrize(
    "argv, status, out",
    [
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
        ([SEVERAL, "--count", "--limit", "2"], 0, "2+\n"),
        (["." * 81, "--max-nodes", "3", "--count"], 1, ""),
        (["." * 81, "--max-nodes", "3", "--unique"], 1, "unknown\n"),
    ],
)
def test_one_puzzle(capsys, argv, status, out):
    code, printed, err = run(capsys, "solve", *argv)
    assert code == status
    if out is not None:
        assert printed == out
    if status == 1 and not printed:
        assert err.startswith("sudoku: ") and err.count("\n") == 1


@pytest.mark.parametrize(
    "extra, status", [([], 1), (["--unique"], 1), (["--count"], 1)]
)
def test_batch_exit_status(capsys, tmp_path, extra, status):
    path = tmp_path / "p.txt"
    path.write_text(f"{TOP[0]}\n{NONE}\n")
    assert run(capsys, "solve", path, *extra)[0] == status
    path.write_text(f"{TOP[0]}\n{TOP[1]}\n")
    assert run(capsys, "solve", path, *extra)[0] == 0
    path.write_text(f"{TOP[0]}\n{SEVERAL}\n")
    assert run(capsys, "solve", path, *extra)[0] == (
        1 if extra == ["--unique"] else 0
    )
    path.write_text(f"{TOP[0]}\nxyz\n")
    assert run(capsys, "solve", path, *extra)[0] == 1


@pytest.mark.parametrize(
    "argv, message",
    [
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
    ],
)
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
    monkeypatch.setattr(
        sys, "stdin", io.TextIOWrapper(io.BytesIO(NONE.encode()))
    )
    batch = run(capsys, "solve", "-", "--unique")[1]
    assert alone.split() == batch.split()[1:] == ["nosolution"]


def test_example_alone(capsys):
    code, out, err = run(capsys, "solve", "--example")
    assert code == 0 and EXAMPLE in out


class FakeClock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


@pytest.mark.parametrize("tty", [False, True])
def test_progress_reports(capsys, monkeypatch, tty):
    import sudoku.cli as cli

    clock = FakeClock()
    monkeypatch.setattr(cli.time, "perf_counter", clock)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: tty, raising=False)
    summary = cli.Summary(total=200, quiet=False)
    for status in (
        "solved",
        "solved",
        "no solution",
        "multiple",
        "invalid",
        "unknown",
    ):
        summary.add(status)
    clock.now += 0.5  # too early to report
    summary.progress(50)
    assert capsys.readouterr().err == ""
    clock.now += 1.5
    summary.progress(50)
    err = capsys.readouterr().err
    line = "sudoku: 6 puzzles, 25% of the input, 3 puzzles/s"
    # a terminal is told at once, a log only every 5 seconds
    assert err == ("\r" + line if tty else "")
    clock.now += 1.0
    summary.progress(100)
    err = capsys.readouterr().err
    assert err == (
        "\rsudoku: 6 puzzles, 50% of the input, 2 puzzles/s" if tty else ""
    )
    clock.now += 5.0
    summary.progress(199)
    err = capsys.readouterr().err
    line = "sudoku: 6 puzzles, 99% of the input, 1 puzzles/s"
    assert err == ("\r" + line if tty else line + "\n")
    summary.finish()
    err = capsys.readouterr().err
    assert err == ("\r\x1b[K" if tty else "") + (
        "sudoku: 6 puzzles in 8.00 s (1 puzzles/s): 2 solved, 1 no "
        "solution, 1 multiple, 1 invalid, 1 unknown\n"
    )
    quiet = cli.Summary(total=None, quiet=True)
    clock.now += 10
    quiet.progress(1)
    quiet.finish()
    assert capsys.readouterr().err == ""
    unknown_total = cli.Summary(total=None, quiet=False)
    unknown_total.add("solved")
    clock.now += 2
    unknown_total.progress(1)
    assert capsys.readouterr().err == (
        "\rsudoku: 1 puzzle, 0 puzzles/s" if tty else ""
    )
    clock.now += 5
    unknown_total.progress(1)
    unknown_total.finish()
    err = capsys.readouterr().err
    assert (
        "sudoku: 1 puzzle in 7.00 s (0 puzzles/s): 1 solved, 0 no "
        "solution, 0 multiple, 0 invalid\n"
        in err
        and "unknown" not in err
    )


def test_interrupted_count_prints_the_partial_count(capsys, monkeypatch):
    import sudoku.solver as solver  # the command loads it when it runs
    from dlx import Interrupted, Stats

    def interrupted(*args, **kwargs):
        raise Interrupted(5, Stats(10, 20, 5, 0.5, False))

    monkeypatch.setattr(solver, "count", interrupted)
    code, out, err = run(capsys, "solve", "." * 81, "--count")
    assert code == 130 and out == "5 (partial: interrupted)\n"
    assert err == (
        "sudoku: interrupted: 5 solutions counted so far (a partial count)\n"
    )


def test_interrupted_batch_keeps_what_it_wrote(capsys, monkeypatch, tmp_path):
    import sudoku.lines as lines
    import sudoku.solver as solver  # the command loads it when it runs

    calls = []
    real = solver.solve_cells  # what every batch of puzzles goes through

    def second_call_interrupted(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(solver, "solve_cells", second_call_interrupted)
    monkeypatch.setattr(lines, "CHUNK", 2)
    monkeypatch.setattr(lines, "FAST_CHUNK", 2)
    path = tmp_path / "p.txt"
    path.write_text("\n".join(TOP[:5]) + "\n")
    code, out, err = run(capsys, "solve", path, "-q")
    assert code == 130 and len(out.splitlines()) == 2
    assert "sudoku: 2 puzzles in" in err and "(partial)" in err
    assert err.endswith("sudoku: interrupted\n")
    calls.clear()
    code, out, err = run(capsys, "solve", path, "-o", path)
    assert code == 130 and path.read_text() == "\n".join(TOP[:5]) + "\n"
    assert err.endswith(f"sudoku: interrupted ({path} left as it was)\n")


def test_ctrl_c_stops_a_count_with_its_partial_count():
    import signal
    import subprocess
    import time

    script = (
        # The command's modules and kernels loaded first (a small count
        # of the same kind), so that the wait below is the count's alone
        # however loaded the machine.
        "import sys, sudoku.cli, sudoku.solver; "
        "sudoku.solver.count('.' * 16); "
        "print('ready', flush=True); "
        "sys.exit(sudoku.cli.main(['solve', '.' * 81, '--count']))"
    )
    process = subprocess.Popen(
        [sys.executable, "-c", script],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout.readline() == "ready\n"
        time.sleep(5)  # the kernels load, the count starts
        sent = time.monotonic()
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
        assert time.monotonic() - sent < 30
    finally:
        process.kill()
    assert process.returncode == 130, err
    count = int(out.split()[0])
    assert out == f"{count} (partial: interrupted)\n"
    assert err.startswith(f"sudoku: interrupted: {count:,} solution")


def test_batch_tags_in_every_mode(capsys, tmp_path):
    path = tmp_path / "p.txt"
    hard = "." * 81
    path.write_text(f"{TOP[0]}\n{NONE}\n{SEVERAL}\n{CLASH}\n{hard}\n")
    code, out, err = run(
        capsys, "solve", path, "--count", "--limit", "5", "-q"
    )
    tags = [line.split()[-1] for line in out.splitlines()]
    assert (
        code == 1
        and tags[:2] == ["1", "0"]
        and tags[2] in ("2", "3", "4", "5+")
    )
    assert tags[3:] == ["invalid", "5+"]
    code, out, err = run(
        capsys, "solve", path, "--count", "--max-nodes", "3", "-q"
    )
    assert code == 1 and out.splitlines()[-1] == hard + " unknown"
    code, out, err = run(
        capsys, "solve", path, "--unique", "-q", "--max-nodes", "100000"
    )
    tags = [line.split()[-1] for line in out.splitlines()]
    assert code == 1 and tags == [
        "unique",
        "nosolution",
        "multiple",
        "invalid",
        "multiple",
    ]
    code, out, err = run(capsys, "solve", path, "-q", "--max-nodes", "100000")
    rows = out.splitlines()
    assert code == 1 and len(rows) == 5
    assert sudoku.is_valid_solution(rows[0], TOP[0])
    assert rows[1] == NONE + " nosolution" and rows[3] == CLASH + " invalid"
    assert rows[2].endswith(" multiple") and rows[4].endswith(" multiple")


def test_batch_in_the_grid_layout(capsys, tmp_path):
    path = tmp_path / "p.txt"
    path.write_text(f"{TOP[0]}\n{NONE}\n{CLASH}\n")
    code, out, err = run(capsys, "solve", path, "--format", "grid", "-q")
    blocks = out.split("\n\n")
    assert code == 1 and len(blocks) == 2
    assert sudoku.is_valid_solution(blocks[0], TOP[0])
    # an invalid puzzle is written as it was read, with its tag
    assert (
        blocks[1]
        == "# line 2: nosolution\n"
        + sudoku.parse(NONE).pretty()
        + f"\n{CLASH} invalid\n"
    )
    code, out, err = run(
        capsys, "solve", path, "--format", "csv", "-q", "--unique"
    )
    blocks = out.split("\n\n")
    assert blocks[0].startswith("# line 1: unique\n")
    assert sudoku.parse(blocks[0].split("\n", 1)[1]) == sudoku.parse(TOP[0])


def test_comment_after_a_puzzle_is_ignored(capsys, tmp_path):
    path = tmp_path / "p.txt"
    path.write_text(f"{TOP[0]} the first one\n{TOP[1]}\tsecond\n")
    code, out, err = run(capsys, "solve", path, "-q")
    rows = out.splitlines()
    assert code == 0 and len(rows) == 2
    assert sudoku.is_valid_solution(rows[0], TOP[0])
    assert sudoku.is_valid_solution(rows[1], TOP[1])


def test_several_solutions_note(capsys):
    code, out, err = run(capsys, "solve", SEVERAL)
    assert code == 0 and "more than one solution" in err
    code, out, err = run(capsys, "solve", TOP[0])
    assert code == 0 and err == ""
    # Without a budget one search finds the solution and the note; with
    # one, the solution's search and the note's: the same answers.
    for puzzle in (SEVERAL, TOP[0], TOP[1]):
        alone = run(capsys, "solve", puzzle)
        for budget in (["--max-nodes", "10000000"], ["--time-limit", "60"]):
            assert run(capsys, "solve", puzzle, *budget) == alone


@pytest.mark.parametrize(
    "box, ok",
    [
        ("3x3", True),
        ("3X3", True),
        ("3,3", True),
        ("1x9", True),
        ("0x9", False),
        ("3x", False),
        ("x3", False),
        ("3x3x3", False),
    ],
)
def test_box_flag(capsys, box, ok):
    code, out, err = run(capsys, "solve", TOP[0], "--box", box)
    if ok:
        assert code in (0, 1) and "expected ROWSxCOLS" not in err
    else:
        assert code == 2 and "expected ROWSxCOLS" in err


@pytest.mark.parametrize(
    "word, status, message",
    [
        (
            "abcdefghijklmno",
            2,
            "no such file: abcdefghijklmno (nor is it a "
            "puzzle: wrong size: 15 cells",
        ),
        ("abcdefghijklmnop", 1, "invalid puzzle: bad character 'a'"),
        ("puzzle.sdk", 2, "no such file: puzzle.sdk"),
        ("1234", 1, "invalid puzzle"),
        ("~/p", 2, "no such file"),
    ],
)
def test_words_that_are_neither_file_nor_puzzle(capsys, word, status, message):
    code, out, err = run(capsys, "solve", word)
    assert code == status and message in err and out == ""


@pytest.mark.parametrize(
    "arg, dashed",
    [
        ("-" * 16, True),
        ("-" + "." * 80, True),
        ("-q", False),
        ("--quiet", False),
        ("-" * 15, False),
        ("-x" + "." * 14, True),
        ("-!" + "." * 14, False),
        ("--", False),
    ],
)
def test_dashed_puzzles_are_told_from_options(arg, dashed):
    from sudoku.cli import _is_dashed_puzzle

    assert _is_dashed_puzzle(arg) == dashed


def test_count_of_a_file_prints_its_summary(capsys, tmp_path):
    path = tmp_path / "p.txt"
    path.write_text(f"{TOP[0]}\n{NONE}\n")
    code, out, err = run(capsys, "count", path)
    assert out == f"{TOP[0]} 1\n{NONE} 0\n"
    assert "2 puzzles in" in err and "1 solved, 1 no solution" in err


def test_main_reads_sys_argv(capsys, monkeypatch):
    import dlx

    monkeypatch.setattr(sys, "argv", ["sudoku", "--version"])
    assert main() == 0
    assert capsys.readouterr().out == f"sudoku {dlx.__version__}\n"


def test_a_summary_without_progress_does_not_clear_the_line(
    capsys, monkeypatch
):
    import sudoku.cli as cli

    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    summary = cli.Summary(total=1, quiet=False)
    summary.add("solved")
    summary.finish()
    assert capsys.readouterr().err.startswith("sudoku: 1 puzzle in ")


@pytest.mark.parametrize(
    "text, lines", [("", 0), ("a\n", 1), ("a", 1), ("a\nb", 2), ("a\nb\n", 2)]
)
def test_progress_counts_the_lines_of_the_input(tmp_path, text, lines):
    from sudoku.cli_io import count_lines

    path = tmp_path / "p.txt"
    path.write_text(text)
    assert count_lines(str(path)) == lines


def test_progress_never_claims_the_whole_input(capsys, monkeypatch):
    """The last line read may not be solved yet: the share stops at 99%."""
    import sudoku.cli as cli

    clock = FakeClock()
    monkeypatch.setattr(cli.time, "perf_counter", clock)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: False, raising=False)
    summary = cli.Summary(total=10, quiet=False)
    summary.add("solved")
    clock.now += 10
    summary.progress(10)
    assert "99% of the input" in capsys.readouterr().err


def test_the_example_points_from_the_middle_row(capsys):
    code, out, err = run(capsys, "solve", "--example")
    rows = out.split("\n\n", 1)[1].splitlines()[1:]
    assert [k for k, row in enumerate(rows) if "->" in row] == [len(rows) // 2]


@pytest.mark.parametrize("extra", [0, 1])
def test_invalid_lines_are_echoed_up_to_the_limit(capsys, tmp_path, extra):
    from sudoku.batch_text import ECHO_MAX

    line = "x" * (ECHO_MAX + extra)
    path = tmp_path / "p.txt"
    path.write_text(line + "\n")
    code, out, err = run(capsys, "solve", path)
    assert code == 1
    assert out == (line[:ECHO_MAX] + ("..." if extra else "") + " invalid\n")
