"""The tiling builder (pieces used any number of times) and its commands."""

from pathlib import Path

import pytest

from dlx.cli import main
from dlx.problems.tiling import pieces, render, sweep_order, tiling

from reference import domino_tilings, is_exact_cover

DATA = Path(__file__).parent / "data"
HOLE = str(DATA / "8x8-centre-hole.board")
TOY = str(DATA / "toy.dlx")


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize(
    "size", ["2x2", "3x4", "4x3", "5x6", "6x6", "7x8", "4x13"]
)
def test_domino_tilings_by_the_builder(size):
    rows, cols = map(int, size.split("x"))
    p = tiling(size)
    assert p.count(memo=True) == domino_tilings(rows, cols)
    if rows * cols <= 36:
        assert p.count() == domino_tilings(rows, cols)


@pytest.mark.parametrize(
    "board,shapes",
    [
        ("3x6", "trominoes"),
        ("4x6", "trominoes"),
        ("4x4", "tetrominoes"),
        ("5x4", "tetrominoes"),
        ("5x5", "pentominoes"),
        ("3x5", 1),
        (open(HOLE).read(), "dominoes"),
        ("4x6", "L..\nLLL\n"),
    ],
)
def test_memo_and_plain_counts_agree(board, shapes):
    p = tiling(board, shapes)
    plain = p.count()
    assert p.count(memo=True) == plain
    assert p.count(memo=True, choose="mrv") == plain


def test_known_small_counts():
    assert tiling("2x3", "trominoes").count() == 3  # two L's twice, I's once
    assert tiling("3x5", "monominoes").count() == 1
    assert tiling("3x3").count() == 0  # odd area
    assert tiling("4x4", "tetrominoes").count() == 117
    # A piece may fill the whole board: one tiling by one piece.
    assert tiling("1x2").count() == 1
    assert tiling("2x2", "tetrominoes").count() == 1  # the square


def test_one_sided_pieces_do_not_flip():
    free = tiling("4x4", "L...\nLLL.\n").count()
    one_sided = tiling("4x4", "L...\nLLL.\n", one_sided=True).count()
    assert one_sided < free


def test_cells_are_swept_across_the_shorter_side():
    assert sweep_order([(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)]) == [
        (0, 0),
        (1, 0),
        (0, 1),
        (1, 1),
        (0, 2),
        (1, 2),
    ]
    p = tiling("3x2")
    assert p.items == ("00", "01", "10", "11", "20", "21")
    assert tiling("2x3").items == ("00", "10", "01", "11", "02", "12")


def test_render_draws_each_placement_apart_from_its_neighbours():
    p = tiling("4x6", "trominoes")
    for _k, solution in enumerate(p.solutions(limit=20)):
        assert is_exact_cover(p, solution)
        picture = render(p, solution).splitlines()
        assert len(picture) == 4 and all(len(row) == 6 for row in picture)
        cells = {}
        for r, row in enumerate(picture):
            for c, ch in enumerate(row):
                cells[(r, c)] = ch
        # Same letter on two neighbours: they belong to one placement.
        owner = {}
        for number in solution:
            for name in p.options[number]:
                owner[(int(name[0]), int(name[1]))] = number
        for (r, c), ch in cells.items():
            for x in ((r + 1, c), (r, c + 1)):
                if x in cells and cells[x] == ch:
                    assert owner[x] == owner[(r, c)]


@pytest.mark.parametrize(
    "spec,message",
    [
        ("bogus", "unknown piece set 'bogus'"),
        (9, "choose 1 to 8"),
        ({}, "no pieces"),
    ],
)
def test_bad_pieces(spec, message):
    with pytest.raises(ValueError, match=message):
        pieces(spec)


def test_piece_set_names():
    assert len(pieces("dominoes")) == len(pieces("domino")) == 1
    assert len(pieces("pentominoes")) == 12 and len(pieces(6)) == 35


# -- the commands ------------------------------------------------------------


def test_tiling_count_with_memo(capsys):
    status, out, err = run(
        capsys, "tiling", "dominoes", "8x8", "--count", "--memo", "--stats"
    )
    assert status == 0 and out.strip() == "12988816"
    assert "memo (first)" in err and "hit" in err


def test_tiling_counts_past_two_to_the_64(capsys):
    status, out, _ = run(
        capsys, "tiling", "dominoes", "14x14", "--count", "--memo"
    )
    assert status == 0 and out.strip() == "112202208776036178000000"


def test_tiling_pictures(capsys):
    status, out, _ = run(capsys, "tiling", "dominoes", "2x4", "--all")
    assert status == 0 and len(out.strip().split("\n\n")) == 5
    status, out, _ = run(
        capsys, "tiling", "dominoes", "--board", HOLE, "--count"
    )
    assert status == 0 and int(out) == tiling(open(HOLE).read()).count()


def test_tiling_pieces_from_a_file(capsys, tmp_path):
    shapes = tmp_path / "l.txt"
    shapes.write_text("L.\nL.\nLL\n")
    status, out, _ = run(
        capsys, "tiling", str(shapes), "4x6", "--count", "--memo"
    )
    assert status == 0 and int(out) == tiling("4x6", "L.\nL.\nLL\n").count()


def test_solve_count_with_memo(capsys, tmp_path):
    problem = tmp_path / "d.dlx"
    status, out, _ = run(capsys, "tiling", "dominoes", "6x6", "--dlx")
    problem.write_text(out)
    status, out, err = run(
        capsys,
        "solve",
        str(problem),
        "--count",
        "--memo",
        "--choose",
        "mrv",
        "--memo-mb",
        "1",
        "--stats",
    )
    assert status == 0 and out.strip() == "6728" and "memo (mrv)" in err
    status, out, _ = run(capsys, "solve", TOY, "--count", "--memo")
    assert status == 0 and out.strip() == "1"


@pytest.mark.parametrize(
    "argv,message",
    [
        (["tiling", "dominoes", "8x8", "--memo"], "--memo goes with --count"),
        (
            ["tiling", "dominoes", "8x8", "--count", "--choose", "mrv"],
            "--choose needs --memo",
        ),
        (
            ["solve", TOY, "--count", "--memo-mb", "3"],
            "--memo-mb needs --memo",
        ),
        (
            [
                "tiling",
                "dominoes",
                "8x8",
                "--count",
                "--choose",
                "mrv",
                "--checkpoint",
                "c",
            ],
            "a memoized count cannot be combined with --checkpoint",
        ),
    ],
)
def test_tiling_usage_errors(capsys, argv, message):
    status, out, err = run(capsys, *argv)
    assert status == 2 and message in err and out == ""
