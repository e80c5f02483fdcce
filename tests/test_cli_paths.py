"""Every file a ``dlx`` or ``sudoku`` command line names is checked before
the work starts (dlx/cli/paths.py): an output is never an input, its
directory exists, and a bad path is exit status 2 with one sentence.

The tests enumerate the parsers, so that a new output flag (or a new
command with one) cannot escape the check."""

import os
import sys

import pytest

import dlx.cli.command
import sudoku.cli
from dlx.cli.paths import (
    INPUT,
    OUTPUT,
    RESUMED,
    file_arguments,
    replacing,
)

TOOLS = {"dlx": dlx.cli.command, "sudoku": sudoku.cli}

# String-valued arguments that name no file (by metavar): every other one
# must say which file it names (names_file), or this test fails.
NOT_FILES = {"ADDRESS", "RxC", "SET", "AxBxC", "BOARD", "RULES", None}


def _arguments():
    for tool, module in TOOLS.items():
        for parser, action in file_arguments(module.build_parser()):
            yield tool, parser.prog.split()[-1], action


def _value_taking(action):
    return (
        action.nargs != 0
        and action.type is None
        and action.choices is None
        and action.dest not in ("help", "version")
    )


def test_every_argument_naming_a_file_is_marked():
    unmarked = [
        (tool, command, action.dest)
        for tool, command, action in _arguments()
        if _value_taking(action)
        and getattr(action, "path_role", None) is None
        and action.metavar not in NOT_FILES
    ]
    assert unmarked == []


# A command line of each command that names a file, and the file it reads
# ("{input}", or None); the outputs' check comes before any work, so the
# inputs' contents do not matter.
BASE = {
    ("dlx", "solve"): ["solve", "{input}"],
    ("dlx", "pentomino"): ["pentomino", "--board", "{input}"],
    ("dlx", "polycube"): ["polycube", "--board", "{input}"],
    ("dlx", "tiling"): ["tiling", "dominoes", "--board", "{input}"],
    ("dlx", "polyiamond"): ["polyiamond", "3x4"],
    ("dlx", "polyhex"): ["polyhex", "3x4"],
    ("dlx", "queens"): ["queens", "4"],
    ("dlx", "langford"): ["langford", "3"],
    ("dlx", "debruijn"): ["debruijn", "2"],
    ("dlx", "rooks"): ["rooks", "3", "1"],
    ("sudoku", "solve"): ["solve", "{input}"],
    ("sudoku", "count"): ["count", "{input}"],
}
OUTPUTS = sorted(
    {
        (tool, command, action.option_strings[-1])
        for tool, command, action in _arguments()
        if getattr(action, "path_role", None) in (OUTPUT, RESUMED)
    }
)


def _run(capsys, tool, argv):
    status = TOOLS[tool].main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def _argv(tool, command, tmp_path):
    source = tmp_path / "input.txt"
    source.write_text("A B\nA\nB\n")
    argv = [word.format(input=source) for word in BASE[tool, command]]
    return argv, (source if "{input}" in BASE[tool, command] else None)


def test_the_outputs_are_found():
    assert len(OUTPUTS) >= 18
    assert ("dlx", "solve", "--zdd") in OUTPUTS
    assert ("sudoku", "solve", "--output") in OUTPUTS


@pytest.mark.parametrize("tool, command, flag", OUTPUTS)
def test_an_output_in_no_directory_is_refused_at_once(
    capsys, tmp_path, tool, command, flag
):
    argv, _ = _argv(tool, command, tmp_path)
    target = tmp_path / "no-such-dir" / "out"
    status, out, err = _run(capsys, tool, [*argv, flag, str(target)])
    assert status == 2 and out == ""
    assert f"cannot write {target}: no such directory" in err
    status, out, err = _run(capsys, tool, [*argv, flag, str(tmp_path)])
    assert status == 2 and f"cannot write {tmp_path}: it is a directory" in err


@pytest.mark.parametrize("tool, command, flag", OUTPUTS)
def test_an_output_is_never_an_input(capsys, tmp_path, tool, command, flag):
    argv, source = _argv(tool, command, tmp_path)
    if source is None:
        pytest.skip(f"{tool} {command} reads no file")
    if (tool, command, flag) == ("sudoku", "solve", "--output"):
        pytest.skip("-o replaces its file at the end: it may be the input")
    before = source.read_bytes()
    status, out, err = _run(capsys, tool, [*argv, flag, str(source)])
    assert status == 2 and out == ""
    assert f"cannot write {source}: it is the " in err
    assert source.read_bytes() == before
    # A link to it is the same file.
    link = tmp_path / "link"
    link.symlink_to(source)
    status, out, err = _run(capsys, tool, [*argv, flag, str(link)])
    assert status == 2 and f"cannot write {link}: it is the " in err


PAIRS = [
    (tool, command, flag, other)
    for tool, command, flag in OUTPUTS
    for t, c, other in OUTPUTS
    if (t, c) == (tool, command) and other != flag
]


@pytest.mark.parametrize("tool, command, flag, other", PAIRS)
def test_two_outputs_are_never_one_file(
    capsys, tmp_path, tool, command, flag, other
):
    argv, _ = _argv(tool, command, tmp_path)
    target = str(tmp_path / "out")
    status, out, err = _run(capsys, tool, [*argv, flag, target, other, target])
    assert status == 2 and f"cannot write {target}: " in err
    assert "writes it too" in err and not os.path.exists(target)


def test_a_read_only_output_is_refused(capsys, tmp_path):
    if os.geteuid() == 0:
        pytest.skip("root writes any file")
    argv, _ = _argv("dlx", "solve", tmp_path)
    target = tmp_path / "locked.zdd"
    target.write_text("")
    target.chmod(0o444)
    status, out, err = _run(capsys, "dlx", [*argv, "--zdd", str(target)])
    assert status == 2 and "Permission denied" in err


def test_standard_input_is_an_input(capsys, tmp_path, monkeypatch):
    source = tmp_path / "c.dlx"
    source.write_text("A B\nA\nB\n")
    with open(source) as stdin:
        monkeypatch.setattr(sys, "stdin", stdin)
        status, out, err = _run(
            capsys, "dlx", ["solve", "-", "--zdd", str(source)]
        )
    assert status == 2
    assert f"cannot write {source}: it is standard input" in err
    assert source.read_text() == "A B\nA\nB\n"


INPUTS = sorted(
    {
        (
            tool,
            command,
            action.option_strings[-1] if action.option_strings else "",
        )
        for tool, command, action in _arguments()
        if getattr(action, "path_role", None) == INPUT
    }
)
INPUT_BASE = {
    ("dlx", "solve"): ["solve", "{input}"],
    ("dlx", "estimate"): ["estimate", "{input}"],
    ("dlx", "reduce"): ["reduce", "{input}"],
    ("dlx", "zdd"): ["zdd", "{input}", "--best", "1", "--weights", "{input}"],
    ("dlx", "pentomino"): ["pentomino", "--board", "{input}"],
    ("dlx", "polycube"): ["polycube", "--board", "{input}"],
    ("dlx", "tiling"): ["tiling", "dominoes", "--board", "{input}"],
}


@pytest.mark.parametrize("tool, command, flag", INPUTS)
def test_an_input_that_cannot_be_read_is_refused_at_once(
    capsys, tmp_path, tool, command, flag
):
    source = tmp_path / "input.txt"
    source.write_text("A\nA\n")
    argv = [word.format(input=source) for word in INPUT_BASE[tool, command]]
    missing = str(tmp_path / "missing")
    if flag:
        argv += [flag, missing]
    else:
        argv[argv.index(str(source))] = missing
    status, out, err = _run(capsys, tool, argv)
    assert status == 2 and out == ""
    assert f"cannot read {missing}: No such file or directory" in err


def test_the_zdd_is_written_whole_or_not_at_all(capsys, tmp_path, monkeypatch):
    from dlx.services.zdd import ZDD

    source = tmp_path / "c.dlx"
    source.write_text("A B\nA\nB\n")
    target = tmp_path / "c.zdd"
    target.write_text("old\n")

    def torn(self, file):
        file.write("2: (~1?0:1)\n")
        raise KeyboardInterrupt

    monkeypatch.setattr(ZDD, "write", torn)
    status, _, _ = _run(
        capsys, "dlx", ["solve", str(source), "--zdd", str(target)]
    )
    assert status == 130
    assert target.read_text() == "old\n"
    assert sorted(os.listdir(tmp_path)) == ["c.dlx", "c.zdd"]


def test_replacing_keeps_the_mode_and_leaves_no_temporary_file(tmp_path):
    target = tmp_path / "f"
    target.write_text("old")
    target.chmod(0o640)
    with replacing(target) as out:
        out.write("new")
    assert target.read_text() == "new"
    assert oct(target.stat().st_mode & 0o777) == "0o640"
    with pytest.raises(RuntimeError), replacing(target) as out:
        out.write("half")
        raise RuntimeError
    assert target.read_text() == "new" and os.listdir(tmp_path) == ["f"]
