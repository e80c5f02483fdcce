"""Options that take a file or inline text (issue 25, item 5): a mistyped
file name is reported as a file that does not exist, not read as inline
text ("the region map has 11 cells"), in every command that takes one:
``sudoku solve|generate|rate --regions``, ``dlx pentomino|polycube
--pieces``, ``dlx polycube SET`` and ``dlx tiling PIECES``."""

import pytest

from dlx.cli import main as dlx_main
from dlx.cli.input import looks_like_a_file_name
from sudoku.cli import main as sudoku_main

# A 4x4 jigsaw map and a puzzle that fits it.
MAP = "AABBAABBCCDDCCDD"
PUZZLE = "1..." + "...." * 3

REGION_COMMANDS = {
    "solve": ["solve", PUZZLE, "--variant", "jigsaw"],
    "generate": ["generate", "--size", "4", "--seed", "1", "-q"],
    "rate": ["rate", "1234341221434321"[:-4] + "....", "--variant", "jigsaw"],
}


def run(main, capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("command", REGION_COMMANDS)
@pytest.mark.parametrize(
    "name", ["regons.txt", "maps/regions.txt", "./jig", "~/jigsaw.map"]
)
def test_a_missing_regions_file_is_named(capsys, command, name):
    status, out, err = run(
        sudoku_main, capsys, *REGION_COMMANDS[command], "--regions", name
    )
    assert status == 2 and out == ""
    line = err.strip()
    assert "\n" not in line and "Traceback" not in line
    assert f"--regions '{name}': no such file" in line
    assert "cells" not in line.split("(")[0]


@pytest.mark.parametrize("command", REGION_COMMANDS)
def test_a_directory_is_not_a_regions_file(capsys, command, tmp_path):
    status, _, err = run(
        sudoku_main,
        capsys,
        *REGION_COMMANDS[command],
        "--regions",
        str(tmp_path),
    )
    assert status == 2 and "is a directory" in err


@pytest.mark.parametrize("command", REGION_COMMANDS)
def test_inline_maps_and_files_still_work(capsys, command, tmp_path):
    status, out, err = run(
        sudoku_main, capsys, *REGION_COMMANDS[command], "--regions", MAP
    )
    assert status in (0, 1) and out, err  # (rate: 1 without one solution)
    path = tmp_path / "map.txt"
    path.write_text("AABB\nAABB\nCCDD\nCCDD\n")
    again = run(
        sudoku_main, capsys, *REGION_COMMANDS[command], "--regions", str(path)
    )
    assert again[:2] == (status, out)


@pytest.mark.parametrize("command", REGION_COMMANDS)
def test_a_bad_inline_map_keeps_its_own_message(capsys, command):
    status, _, err = run(
        sudoku_main,
        capsys,
        *REGION_COMMANDS[command],
        "--regions",
        "AABBAABBCCDDCCD",
    )
    assert status == 2 and "no such file" not in err
    assert "15 cells" in err


@pytest.mark.parametrize(
    "argv,option",
    [
        (["pentomino", "6x10", "--pieces", "pices.txt"], "--pieces"),
        (["polycube", "--pieces", "cubes/pieces.txt"], "--pieces"),
        (["polycube", "pices.txt"], "SET"),
        (["tiling", "pices.txt", "4x4"], "PIECES"),
    ],
)
def test_a_missing_pieces_file_is_named(capsys, argv, option):
    status, out, err = run(dlx_main, capsys, *argv)
    assert status == 2 and out == ""
    line = err.strip().splitlines()[-1]
    assert (
        f"{option} '{argv[-1] if option != 'PIECES' else argv[1]}'"
        f": no such file" in line
    )
    assert "piece set" in line  # and not a set name either


@pytest.mark.parametrize(
    "argv",
    [
        ["pentomino", "6x10", "--pieces", "pentominos"],
        ["polycube", "somma"],
        ["tiling", "dominos2", "4x4"],
    ],
)
def test_a_mistyped_set_name_is_still_an_unknown_set(capsys, argv):
    status, _, err = run(dlx_main, capsys, *argv)
    assert status == 2 and "unknown piece set" in err
    assert "no such file" not in err


def test_what_looks_like_a_file_name():
    assert looks_like_a_file_name("regions.txt")
    assert looks_like_a_file_name("a/b")
    assert not looks_like_a_file_name(MAP)
    assert not looks_like_a_file_name("AABB\nAABB\nCCDD\nCCDD")
    assert not looks_like_a_file_name("soma")
    assert not looks_like_a_file_name("")
    # More than one line is text, even when it ends like a file name.
    assert not looks_like_a_file_name("AB\nregions.txt")
    assert not looks_like_a_file_name("a/b\n")
    assert not looks_like_a_file_name("   ")
