"""The ``dlx`` command: output, exit status and error messages."""

import io
import subprocess
import sys
from pathlib import Path

import pytest

from dlx.cli import main
from dlx.formats import read_solutions

DATA = Path(__file__).parent / "data"
TOY = str(DATA / "toy.dlx")
HOLE = str(DATA / "8x8-centre-hole.board")


def run(capsys, *argv, stdin=None, monkeypatch=None):
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def last_line(out):
    return out.strip().splitlines()[-1]


def test_solve_prints_option_lines(capsys):
    status, out, err = run(capsys, "solve", TOY)
    assert status == 0
    assert out.splitlines() == ["c e f", "a d", "b g"]
    assert err == ""


def test_solve_count_and_stats(capsys):
    status, out, err = run(capsys, "solve", TOY, "--count", "--stats")
    assert status == 0 and last_line(out) == "1"
    assert err.startswith("Altogether 1 solution,")
    assert "updates" in err and "nodes" in err and " s." in err


@pytest.mark.parametrize(
    "algorithm, work",
    [
        ("links", "16 680 updates, 1 049 nodes"),  # DLX1's figures
        ("cells", "14 897 updates, 807 nodes"),  # SSXC1's
    ],
)
def test_solve_with_either_algorithm(capsys, algorithm, work):
    queens8 = str(DATA / "dlx1" / "queens-8.dlx")
    status, out, err = run(
        capsys,
        "solve",
        queens8,
        "--count",
        "--stats",
        "--algorithm",
        algorithm,
    )
    assert status == 0 and last_line(out) == "92"
    assert work in err
    status, out, _ = run(capsys, "solve", TOY, "--algorithm", algorithm)
    assert out.splitlines() == ["c e f", "a d", "b g"]


def test_an_unknown_algorithm_is_a_usage_error(capsys):
    status, out, err = run(capsys, "solve", TOY, "--algorithm", "dance")
    assert status == 2 and out == "" and "invalid choice: 'dance'" in err


def test_solve_all_and_limit(capsys, tmp_path):
    path = tmp_path / "two.dlx"
    path.write_text("a b\na b\na\nb\n")
    status, out, _ = run(capsys, "solve", str(path), "--all")
    assert status == 0
    assert out.split("\n\n") == ["solution 1:\na b", "solution 2:\na\nb\n"]
    status, out, _ = run(capsys, "solve", str(path), "--limit", "1")
    assert out == "solution 1:\na b\n"
    status, out, _ = run(capsys, "solve", str(path))  # the first, alone
    assert out == "a b\n"


def test_solve_colors_and_bounds(capsys):
    # Knuth's DLX3 example: the option lines come back with their colors,
    # and --stats prints dlx3's own figures (1 solution, 14 updates, 6
    # nodes).
    example = str(DATA / "dlx3" / "dlx3-example.dlx")
    status, out, err = run(
        capsys, "solve", example, "--all", "--stats", "--algorithm", "links"
    )
    assert status == 0
    assert out.splitlines() == ["solution 1:", "A C X:1 Y:1", "B X:1", "C Y:1"]
    assert err.startswith("Altogether 1 solution, 14 updates, 6 nodes,")
    # On dancing cells, SSMCC: ssmcc's own figures.
    status, out, err = run(
        capsys, "solve", example, "--all", "--stats", "--algorithm", "cells"
    )
    assert out.splitlines() == ["solution 1:", "A C X:1 Y:1", "B X:1", "C Y:1"]
    assert err.startswith("Altogether 1 solution, 13 updates, 5 nodes,")
    words = str(DATA / "dlx2" / "words-3x3.dlx")
    status, out, err = run(
        capsys, "solve", words, "--count", "--stats", "--algorithm", "links"
    )
    assert last_line(out) == "119"
    assert err.startswith(
        "Altogether 119 solutions, 115 590 updates, 891 nodes,"
    )
    # Dancing cells (auto's choice here): ssxcc's own figures.
    for algorithm in ("cells", "auto"):
        status, out, err = run(
            capsys,
            "solve",
            words,
            "--count",
            "--stats",
            "--algorithm",
            algorithm,
        )
        assert last_line(out) == "119"
        assert err.startswith(
            "Altogether 119 solutions, 95 975 updates, 491 nodes,"
        )


def test_solve_stdin(capsys, monkeypatch):
    status, out, _ = run(
        capsys,
        "solve",
        "-",
        "--count",
        stdin="x y\nx\ny\nx y\n",
        monkeypatch=monkeypatch,
    )
    assert status == 0 and last_line(out) == "2"


@pytest.mark.parametrize(
    "text, message",
    [
        ("a b\na c\n", "<stdin>:2: unknown item 'c'"),
        ("a:1 b\n", "contains ':'"),
        ("", "no item line"),
        ("a | x\na:1 x\n", "<stdin>:2: primary item 'a' has color '1'"),
        ("a 2:1|b\nb\n", "<stdin>:1: item 'b' has bounds 2..1"),
        ("a 1:x|b\nb\n", "<stdin>:1: bad item '1:x|b'"),
    ],
)
def test_solve_bad_input_is_one_line(capsys, monkeypatch, text, message):
    status, out, err = run(
        capsys, "solve", "-", stdin=text, monkeypatch=monkeypatch
    )
    assert status == 1 and out == ""
    assert err.count("\n") == 1 and message in err
    assert err.startswith("dlx: error:")


@pytest.mark.parametrize(
    "argv",
    [
        ["solve", "{missing}"],
        ["pentomino", "--board", "{missing}"],
        ["pentomino", "3x20", "--pieces", "{tmp}"],  # a directory
    ],
)
def test_unreadable_file_is_a_one_line_usage_error(capsys, tmp_path, argv):
    missing = str(tmp_path / "none.dlx")
    argv = [a.format(missing=missing, tmp=tmp_path) for a in argv]
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("dlx: error: cannot read")
    if "none.dlx" in err:
        assert "No such file" in err


def test_unknown_piece_set_with_board_file_is_a_usage_error(capsys):
    status, out, err = run(
        capsys, "pentomino", "--board", HOLE, "--pieces", "pentominos-typo"
    )
    assert status == 2 and out == "" and "unknown piece set" in err


def test_byte_order_mark_is_accepted(capsys, tmp_path):
    path = tmp_path / "bom.dlx"
    path.write_bytes(b"\xef\xbb\xbfA B\r\nA\r\nB\r\n")
    status, out, err = run(capsys, "solve", str(path))
    assert status == 0 and out == "A\nB\n" and err == ""
    board = tmp_path / "bom.board"
    board.write_bytes(b"\xef\xbb\xbf..\r\n..\r\n")
    pieces = tmp_path / "bom.txt"
    pieces.write_bytes(b"\xef\xbb\xbfDD\r\n")
    status, out, err = run(
        capsys,
        "pentomino",
        "--board",
        str(board),
        "--pieces",
        str(pieces),
        "--copies",
        "2",
        "--count",
    )
    assert status == 0 and last_line(out) == "1" and err == ""


def test_form_feed_does_not_split_a_line(capsys, tmp_path):
    path = tmp_path / "ff.dlx"
    path.write_text("A B\nA\x0cB\nZ\n")  # one option "A B", then line 3
    status, _, err = run(capsys, "solve", str(path))
    assert status == 1 and f"{path}:3: unknown item 'Z'" in err


def test_no_solution_exit_status(capsys, tmp_path):
    path = tmp_path / "none.dlx"
    path.write_text("a b\na\n")
    status, out, err = run(capsys, "solve", str(path))
    assert status == 1 and out == "" and "no solution" in err
    status, out, _ = run(capsys, "solve", str(path), "--count")
    assert status == 1 and last_line(out) == "0"


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["frobnicate"],
        ["queens"],
        ["queens", "0"],
        ["queens", "x"],
        ["solve", TOY, "--count", "--all"],
        ["pentomino"],
        ["pentomino", "6x10", "--board", HOLE],
        ["pentomino", "7x9"],
        ["pentomino", "6x10", "--pieces", "nope"],
    ],
)
def test_usage_errors(capsys, argv):
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == "" and "usage:" in err


def test_help(capsys):
    status, out, _ = run(capsys, "--help")
    assert status == 0 and "exact cover" in out


@pytest.mark.parametrize(
    "argv, count",
    [
        (["queens", "8"], 92),
        (["queens", "12"], 14200),
        (["langford", "7"], 26),
        (["langford", "8"], 150),
        (["langford", "8", "--all-symmetries"], 300),
        (["langford", "11"], 17792),
        (["langford", "11", "--all-symmetries"], 35584),
        (["pentomino", "3x20"], 2),
        (["pentomino", "3x20", "--all-symmetries"], 8),
        (["pentomino", "6x10"], 2339),
        (["pentomino", "--board", HOLE], 65),
    ],
)
def test_counts(capsys, argv, count):
    status, out, _ = run(capsys, *argv, "--count")
    assert status == 0 and last_line(out) == str(count)


def test_queens_pictures(capsys):
    status, out, _ = run(capsys, "queens", "8", "--limit", "2")
    boards = [rows for _, rows in read_solutions(out)]
    assert status == 0 and len(boards) == 2
    for rows in boards:
        assert len(rows) == 8 and all(r.count("Q") == 1 for r in rows)


def test_langford_sequences(capsys):
    status, out, _ = run(capsys, "langford", "7", "--all")
    found = [lines for _, lines in read_solutions(out)]
    assert status == 0 and len(found) == 26
    assert all(
        len(lines) == 1 and len(lines[0].split()) == 14 for lines in found
    )


def test_pentomino_pictures(capsys):
    status, out, _ = run(capsys, "pentomino", "3x20", "--all")
    grids = [rows for _, rows in read_solutions(out)]
    assert status == 0 and len(grids) == 2
    for rows in grids:
        assert [len(r) for r in rows] == [20, 20, 20]
        assert sorted("".join(rows)) == sorted("FILNPTUVWXYZ" * 5)


def test_pentomino_board_file_and_pieces_file(capsys):
    status, out, _ = run(capsys, "pentomino", "--board", HOLE)
    rows = out.splitlines()
    assert status == 0 and rows[3][3:5] == "##"
    pieces = str(DATA / "l-tromino.txt")
    status, out, _ = run(
        capsys,
        "pentomino",
        "2x3",
        "--pieces",
        pieces,
        "--copies",
        "2",
        "--count",
        "--all-symmetries",
    )
    assert status == 0 and last_line(out) == "2"


def test_pentomino_bad_board_file(capsys, tmp_path):
    path = tmp_path / "bad.board"
    path.write_text("...\n.x.\n")
    status, out, err = run(capsys, "pentomino", "--board", str(path))
    assert status == 1 and out == ""
    assert err.count("\n") == 1 and "line 2, column 2" in err


def test_python_dash_m():
    done = subprocess.run(
        [sys.executable, "-m", "dlx", "queens", "8", "--count"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0 and done.stdout == "92\n"


@pytest.mark.parametrize(
    "argv, count",
    [
        (["queens", "8"], 92),
        (["langford", "8"], 150),
        (["langford", "8", "--all-symmetries"], 300),
        (["pentomino", "3x20", "--all-symmetries"], 8),
        (["pentomino", "6x10"], 2339),
    ],
)
def test_dlx_output_round_trips(capsys, monkeypatch, argv, count):
    status, text, _ = run(capsys, *argv, "--dlx")
    assert status == 0 and text.startswith("| dlx ")
    status, out, _ = run(
        capsys, "solve", "-", "--count", stdin=text, monkeypatch=monkeypatch
    )
    assert int(last_line(out)) == count


def test_dlx_output_needs_all_symmetries_when_not_exact(capsys, tmp_path):
    # The X's only placement in the cross is symmetric: no single
    # problem has one solution per tiling up to symmetry.
    (tmp_path / "cross.txt").write_text("#.#\n...\n#.#\n")
    (tmp_path / "x.txt").write_text(".X.\nXXX\n.X.\n")
    status, out, err = run(
        capsys,
        "pentomino",
        "--board",
        str(tmp_path / "cross.txt"),
        "--pieces",
        str(tmp_path / "x.txt"),
        "--dlx",
    )
    assert status == 2 and out == "" and "--all-symmetries" in err
    assert err.count("\n") == 1


@pytest.mark.parametrize("extra", [[], ["--all-symmetries"]])
def test_dlx_output_refused_with_copies(capsys, tmp_path, extra):
    # Two dominoes on 2x2: 1 tiling up to symmetry, 2 in all, but the
    # problem with labelled copies has 4 solutions.
    pieces = tmp_path / "domino.txt"
    pieces.write_text("DD\n")
    argv = ["pentomino", "2x2", "--pieces", str(pieces), "--copies", "2"]
    status, out, err = run(capsys, *argv, "--dlx", *extra)
    assert status == 2 and out == "" and err.count("\n") == 1
    assert "--copies" in err and "--all-symmetries" not in err
    status, out, _ = run(capsys, *argv, "--count", *extra)
    assert status == 0 and last_line(out) == ("2" if extra else "1")


def test_huge_board_is_refused_before_it_is_built(capsys):
    status, out, err = run(capsys, "pentomino", "100000x100000")
    assert status == 2 and out == "" and "10000000000" in err


def _python_dlx(*argv):
    return subprocess.Popen(
        [sys.executable, "-m", "dlx", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_closed_pipe_stops_quietly():
    # Like "dlx queens 12 --all | head -1" (far more than a pipe buffer).
    process = _python_dlx("queens", "12", "--all")
    assert process.stdout.readline()
    process.stdout.close()
    err = process.stderr.read()
    assert process.wait(timeout=120) == 141
    assert err == ""


def test_interrupt_is_one_line(capsys, monkeypatch):
    import dlx.cli.command

    def interrupted(args):
        raise KeyboardInterrupt

    monkeypatch.setattr(dlx.cli.command, "_queens", interrupted)
    status, out, err = run(capsys, "queens", "8")
    assert status == 130 and out == "" and err == "dlx: interrupted\n"


# -- long counts: estimate, jobs, checkpoints, progress -----------------------


def test_estimate_command_and_flag(capsys, tmp_path):
    status, out, err = run(capsys, "estimate", TOY)
    assert status == 0 and "1 solutions" in out and "exact" in out
    status, out, err = run(
        capsys, "queens", "13", "--estimate", "--probes", "500", "--seed", "3"
    )
    assert status == 0 and out.startswith(
        "Estimated from 500 probes of DLX1's tree: about"
    )
    assert "nodes" in out and "on one core" in out
    status, out, err = run(capsys, "pentomino", "3x20", "--estimate")
    assert status == 0 and "solutions" in out


def test_count_with_jobs_checkpoint_and_progress(capsys, tmp_path):
    path = tmp_path / "q9.ckpt"
    status, out, err = run(
        capsys,
        "queens",
        "9",
        "--count",
        "--jobs",
        "1",
        "--checkpoint",
        str(path),
        "--stats",
        "--progress",
    )
    assert status == 0 and last_line(out) == "352"
    assert "Altogether 352 solutions" in err
    assert path.read_text().count("\n") > 1
    status, out, err = run(
        capsys, "queens", "9", "--count", "--checkpoint", str(path)
    )
    assert status == 0 and last_line(out) == "352"
    status, out, err = run(
        capsys, "queens", "8", "--count", "--checkpoint", str(path)
    )
    assert status == 1 and "different problem" in err
    status, out, err = run(
        capsys,
        "queens",
        "8",
        "--count",
        "--checkpoint",
        str(tmp_path / "no" / "c"),
    )
    assert status == 2 and "no such directory" in err


def test_pentomino_count_on_jobs(capsys):
    status, out, err = run(
        capsys, "pentomino", "3x20", "--count", "--jobs", "2"
    )
    assert status == 0 and last_line(out) == "2"


def test_no_progress_bar_in_a_pipe():
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "dlx",
            "queens",
            "11",
            "--count",
            "--jobs",
            "1",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0 and done.stdout == "2680\n"
    assert done.stderr == ""


def test_scheduler_that_is_not_there(capsys, monkeypatch):
    pytest.importorskip("distributed")
    from dlx.cli import count

    monkeypatch.setattr(count, "SCHEDULER_TIMEOUT", 1)
    status, out, err = run(
        capsys, "queens", "8", "--count", "--scheduler", "tcp://127.0.0.1:9"
    )
    assert status == 2 and "cannot reach the Dask scheduler" in err


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_prints_the_partial_count(jobs, tmp_path):
    import signal
    import time

    path = tmp_path / "c"
    process = _python_dlx(
        "queens", "15", "--count", "--jobs", jobs, "--checkpoint", str(path)
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (
        not path.exists() or path.read_text().count("\n") < 3
    ):
        time.sleep(0.02)
    process.send_signal(signal.SIGINT)
    stopped = time.monotonic()
    out, err = process.communicate(timeout=60)
    assert time.monotonic() - stopped < 10
    assert process.returncode == 130
    assert out.endswith(" (partial: interrupted)\n")
    assert int(out.split()[0]) > 0 and "(a partial count)" in err


def test_debruijn_and_rooks_commands(capsys):
    status, out, _ = run(capsys, "debruijn", "3", "--all")
    # (in the order of the algorithm auto picks)
    found = sorted(lines for _, lines in read_solutions(out))
    assert status == 0 and found == [["00010111"], ["00011101"]]
    status, out, _ = run(capsys, "rooks", "5", "2", "--count")
    assert status == 0 and last_line(out) == "2040"
    status, out, _ = run(capsys, "rooks", "3", "2", "--limit", "1")
    assert out.count("R") == 6
    status, out, _ = run(capsys, "debruijn", "3", "--dlx")
    assert "w000 p0 b0:0 b1:0 b2:0" in out
    status, _, err = run(capsys, "rooks", "3", "4")
    assert status == 2 and "cannot fit" in err


def test_progress_bar_by_flag_or_on_a_terminal(monkeypatch):
    import argparse

    from dlx.cli.count import _progress

    pytest.importorskip("tqdm")
    args = argparse.Namespace
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    assert _progress(args(progress=None)) is True
    assert _progress(args(progress=False)) is None
    monkeypatch.setattr(sys.stderr, "isatty", lambda: False, raising=False)
    assert _progress(args(progress=None)) is None
    assert _progress(args(progress=True)) is True


def test_progress_without_tqdm(monkeypatch):
    # Asked for, a missing tqdm is a usage error naming the extra; by
    # default the count just runs without a bar.
    import argparse

    from dlx.cli.count import CountUsageError, _progress

    monkeypatch.setitem(sys.modules, "tqdm", None)  # import tqdm fails
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    args = argparse.Namespace
    with pytest.raises(CountUsageError, match=r"dlx-toolkit\[progress\]"):
        _progress(args(progress=True))
    assert _progress(args(progress=None)) is None
    assert _progress(args(progress=False)) is None


def test_estimate_seed_defaults_to_0(capsys):
    import re

    first = run(capsys, "queens", "13", "--estimate", "--probes", "300")
    again = run(
        capsys, "queens", "13", "--estimate", "--probes", "300", "--seed", "0"
    )
    other = run(
        capsys, "queens", "13", "--estimate", "--probes", "300", "--seed", "1"
    )
    strip = lambda out: re.sub(r"[\d.]+ (s|min|h|days) on one core", "", out)
    assert strip(first[1]) == strip(again[1]) != strip(other[1])


@pytest.mark.parametrize("flag", ["--jobs", "--probes", "--seed"])
def test_counts_of_long_runs_are_whole_numbers(capsys, flag):
    status, out, err = run(capsys, "queens", "6", "--count", flag, "x")
    assert status == 2 and "expected a whole number, got 'x'" in err


# -- builders' commands at their edges (issue 31) -------------------------
def test_debruijn_needs_two_symbols(capsys):
    status, out, err = run(capsys, "debruijn", "3", "--symbols", "1")
    assert status == 2 and out == ""
    assert "--symbols must be at least 2" in err
    status, out, _ = run(capsys, "debruijn", "2", "--symbols", "2", "--count")
    assert status == 0 and last_line(out) == "1"  # 0011, up to rotation


def test_polycube_takes_a_box_or_a_board_not_both(capsys, tmp_path):
    board = tmp_path / "b.txt"
    board.write_text("..\n..\n")
    status, out, err = run(
        capsys, "polycube", "soma", "--box", "3x3x3", "--board", str(board)
    )
    assert status == 2 and out == ""
    assert "give --box or --board, not both" in err


def test_polycube_mirror_lets_pieces_flip(capsys, tmp_path):
    # A screw-shaped tetracube, twice, in a 2x2x2 box: its mirror image
    # packs it in more ways (the command's pieces turn but do not flip
    # unless --mirror).
    pieces = tmp_path / "screw.txt"
    pieces.write_text("A 000 001 010 101\n")
    counts = {}
    for flag in ((), ("--mirror",)):
        status, out, _ = run(
            capsys,
            "polycube",
            "--pieces",
            str(pieces),
            "--box",
            "2x2x2",
            "--copies",
            "2",
            "--count",
            "--all-symmetries",
            *flag,
        )
        assert status == 0
        counts[flag] = int(last_line(out))
    from dlx.problems.polycube import Polycube

    screw = [(0, 0, 0), (0, 0, 1), (0, 1, 0), (1, 0, 1)]
    assert counts[()] == Polycube(
        "2x2x2", {"A": screw}, copies=2, one_sided=True
    ).count(distinct=False)
    assert counts[("--mirror",)] == Polycube(
        "2x2x2", {"A": screw}, copies=2, one_sided=False
    ).count(distinct=False)
    assert counts[()] != counts[("--mirror",)]


@pytest.mark.parametrize(
    "command, grid, other",
    [
        ("polyiamond", "triangular", "pentiamonds"),
        ("polyhex", "hexagonal", "pentahexes"),
    ],
)
def test_planar_commands_name_their_grid(capsys, command, grid, other):
    status, out, _ = run(capsys, command, "--help")
    out = " ".join(out.split())  # as argparse wraps it
    assert status == 0
    assert f"of the {grid} grid" in out and f"such as {other}" in out
    assert "--all-symmetries" in out


def test_solve_offers_memo_but_no_symmetries(capsys):
    status, out, _ = run(capsys, "solve", "--help")
    assert status == 0 and "--memo" in out and "--all-symmetries" not in out


def test_board_and_pieces_files_may_start_with_a_byte_order_mark(
    capsys, tmp_path
):
    board = tmp_path / "hole.board"
    board.write_bytes(b"\xef\xbb\xbf" + Path(HOLE).read_bytes())
    status, out, _ = run(capsys, "pentomino", "--board", str(board), "--count")
    assert status == 0 and last_line(out) == "65"
    shapes = tmp_path / "l.txt"
    shapes.write_bytes("\ufeffL.\nL.\nLL".encode("utf-8"))  # no last newline
    status, out, _ = run(capsys, "tiling", str(shapes), "4x6", "--count")
    assert status == 0 and int(last_line(out)) > 0
    problem = tmp_path / "bom.dlx"
    problem.write_bytes("\ufeffa b\r\na b\r\n".encode("utf-8"))
    status, out, _ = run(capsys, "solve", str(problem))
    assert status == 0 and out == "a b\n"


def test_a_bad_file_is_named_with_its_line(capsys, tmp_path):
    problem = tmp_path / "bad.dlx"
    problem.write_text("a b | c\na c:x:y\n")
    status, out, err = run(capsys, "solve", str(problem))
    assert status == 1 and out == ""
    assert f"{problem}:2: item 'c' has color 'x:y'" in err
