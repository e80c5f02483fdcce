"""A size with the wrong number of dimensions is refused as a size, in
every builder and command that takes one (one rule:
``dlx.problems.lattice.parse_size``), never read as board art."""

import pytest

from dlx.cli import main
from dlx.problems.lattice import parse_size
from dlx.problems.planar import Polyhex, Polyiamond
from dlx.problems.polycube import Polycube, parse_box
from dlx.problems.polyomino import Polyomino, parse_board
from dlx.problems.tiling import pieces, tiling

PLANAR = [
    parse_board,
    Polyomino,
    lambda size: tiling(size, pieces("dominoes")),
    Polyiamond,
    Polyhex,
]


@pytest.mark.parametrize("build", PLANAR)
@pytest.mark.parametrize("size", ["6x10x2", "4x4x4", "6", " 2 x 3 x 4 "])
def test_planar_builders_want_two_dimensions(build, size):
    with pytest.raises(ValueError, match=r"is not a size ROWSxCOLS$"):
        build(size)


@pytest.mark.parametrize("build", [parse_box, Polycube])
@pytest.mark.parametrize("size", ["3x3", "3", "2x2x2x2"])
def test_boxes_want_three_dimensions(build, size):
    with pytest.raises(ValueError, match=r"is not a size LAYERSxROWSxCOLS$"):
        build(size)


def test_the_message_names_the_size():
    with pytest.raises(ValueError) as error:
        parse_board("6x10x2")
    assert str(error.value) == "'6x10x2' is not a size ROWSxCOLS"


def test_sizes_and_other_text():
    assert parse_size("6x10", "ROWSxCOLS") == (6, 10)
    assert parse_size(" 3 X 4 x5 ", "AxBxC") == (3, 4, 5)
    for text in ("..\n..", "hexagon:3", "6x", "x6", "6xx10", ""):
        assert parse_size(text, "ROWSxCOLS") is None


@pytest.mark.parametrize(
    "argv",
    [
        ["pentomino", "6x10x2"],
        ["pentomino", "6"],
        ["tiling", "dominoes", "4x4x4"],
        ["polyiamond", "6x6x2"],
        ["polyhex", "4x7x1"],
    ],
)
def test_commands_say_the_size_is_wrong(argv, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert f"'{argv[-1]}' is not a size ROWSxCOLS" in err
    assert "board line" not in err


def test_a_board_file_holding_a_wrong_size(tmp_path, capsys):
    board = tmp_path / "board.txt"
    board.write_text("6x10x2\n")
    assert main(["pentomino", "--board", str(board)]) == 1
    assert "is not a size ROWSxCOLS" in capsys.readouterr().err


@pytest.mark.parametrize("box", ["3x3", "3x3x3x3", "3", "0x3x3"])
def test_the_box_option_wants_three_dimensions(box, capsys):
    assert main(["polycube", "soma", "--box", box]) == 2
    assert "--box must be a box like 3x4x5" in capsys.readouterr().err
