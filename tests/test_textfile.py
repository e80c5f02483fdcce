"""A file that is not UTF-8 text: every reader names it (dlx/textfile.py),
as a sentence, never a bare codec message."""

import io

import pytest

import dlx.cli
import sudoku.cli
from dlx import ZDD, DLXFormatError, load
from dlx.textfile import NotText, read_text

BINARY = b"A B\n\x92\x00\n"
WHY = "not a UTF-8 text file (byte 0x92 at position 4)"


def test_read_text_of_paths_and_files(tmp_path):
    path = tmp_path / "t.txt"
    path.write_bytes(b"a\r\nb\rc\n")
    assert read_text(path) == "a\nb\nc\n"
    assert read_text(path, newline="") == "a\r\nb\rc\n"
    assert read_text(io.StringIO("x")) == "x"
    assert read_text(io.BytesIO(b"\xef\xbb\xbfx"), encoding="utf-8-sig") == "x"
    path.write_bytes(BINARY)
    with pytest.raises(NotText) as error:
        read_text(path)
    assert str(error.value) == f"{path}: {WHY}"
    assert error.value.name == str(path) and error.value.reason == WHY
    with pytest.raises(NotText) as error:
        read_text(io.BytesIO(BINARY), name="in.txt")
    assert str(error.value) == f"in.txt: {WHY}"
    with pytest.raises(OSError):
        read_text(tmp_path / "missing")


@pytest.mark.parametrize(
    "read",
    [
        lambda path: load(path),
        lambda path: load(open(path, "rb")),
        lambda path: ZDD.read(path),
        lambda path: ZDD.read(open(path, "rb")),
    ],
    ids=["load", "load-file", "ZDD.read", "ZDD.read-file"],
)
def test_library_readers_name_the_file(tmp_path, read):
    path = tmp_path / "binary.txt"
    path.write_bytes(BINARY)
    with pytest.raises(ValueError) as error:
        read(path)
    assert str(error.value) == f"{path}: {WHY}"


def test_load_of_standard_input(monkeypatch):
    stdin = io.TextIOWrapper(io.BytesIO(BINARY), encoding="utf-8")
    monkeypatch.setattr("sys.stdin", stdin)
    with pytest.raises(DLXFormatError, match=r"^<stdin>: not a UTF-8 text"):
        load("-")


@pytest.mark.parametrize(
    "tool, argv",
    [
        ("dlx", ["solve", "{f}"]),
        ("dlx", ["reduce", "{f}"]),
        ("dlx", ["zdd", "{f}", "--count"]),
        ("dlx", ["zdd", "{zdd}", "--best", "1", "--weights", "{f}"]),
        ("dlx", ["pentomino", "--board", "{f}"]),
        ("dlx", ["pentomino", "3x20", "--pieces", "{f}"]),
        ("dlx", ["tiling", "{f}", "3x3"]),
        ("sudoku", ["solve", "." * 81, "--regions", "{f}"]),
    ],
)
def test_commands_name_the_file(capsys, tmp_path, tool, argv):
    path = tmp_path / "binary.txt"
    path.write_bytes(BINARY)
    zdd = tmp_path / "a.zdd"
    zdd.write_text("2: (~1?0:1)\n3: (~0?0:2)\n")
    argv = [word.format(f=path, zdd=zdd) for word in argv]
    module = dlx.cli if tool == "dlx" else sudoku.cli
    status = module.main(argv)
    out, err = capsys.readouterr()
    assert status in (1, 2) and out == ""
    assert f"{path}: {WHY}" in err and "codec" not in err
