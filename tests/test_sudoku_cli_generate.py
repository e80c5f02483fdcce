"""``sudoku generate``, ``sudoku rate`` and ``--variant`` on the command
line, driven through ``main(argv)``."""

from pathlib import Path

import pytest

import sudoku
from sudoku.cli import main

DATA = Path(__file__).parent / "data"
VARIANTS = [
    (line.split() + [None])[:4]
    for line in (DATA / "sudoku_variants.txt").read_text().splitlines()
    if line and not line.startswith("#")
]


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_generate_writes_unique_minimal_puzzles(capsys):
    code, out, err = run(capsys, "generate", "-n", "5", "--seed", "3")
    assert code == 0
    puzzles = out.split()
    assert len(puzzles) == 5 and all(len(p) == 81 for p in puzzles)
    assert all(sudoku.is_unique(p) for p in puzzles)
    assert "5 puzzles in" in err
    again = run(capsys, "generate", "-n", "5", "--seed", "3")[1]
    assert again == out


def test_generate_options(capsys):
    code, out, _ = run(
        capsys,
        "generate",
        "--size",
        "6",
        "--symmetry",
        "rotational",
        "--seed",
        "1",
        "--format",
        "grid",
        "-q",
    )
    assert code == 0
    grid = sudoku.parse(out)
    assert grid.n == 6 and sudoku.is_unique(grid)
    filled = grid.cells != 0
    assert (filled == filled[::-1, ::-1]).all()
    code, out, err = run(
        capsys, "generate", "--difficulty", "easy", "--seed", "2"
    )
    assert code == 0 and sudoku.rate(out.strip()).level == "easy"
    assert "made to find 1 easy" in err
    code, out, _ = run(capsys, "generate", "--variant", "x", "--seed", "4")
    assert code == 0
    assert sudoku.is_unique(out.strip(), variant="x")
    assert not sudoku.is_unique(out.strip())


def test_generate_jigsaw_from_a_region_file(capsys, tmp_path):
    regions = tmp_path / "regions.txt"
    regions.write_text(
        "\n".join(VARIANTS[-1][3][k : k + 9] for k in range(0, 81, 9)) + "\n"
    )
    code, out, _ = run(
        capsys,
        "generate",
        "--variant",
        "jigsaw",
        "--regions",
        str(regions),
        "--seed",
        "1",
        "-q",
    )
    assert code == 0
    variant = sudoku.Variant("jigsaw", regions.read_text())
    assert sudoku.is_unique(out.strip(), variant=variant)


@pytest.mark.parametrize("rules, puzzle, solution, regions", VARIANTS)
def test_solve_variants(capsys, rules, puzzle, solution, regions):
    extra = ["--regions", regions] if regions else []
    code, out, _ = run(capsys, "solve", puzzle, "--variant", rules, *extra)
    assert code == 0 and out.strip() == solution
    code, out, _ = run(
        capsys, "solve", puzzle, "--variant", rules, "--unique", *extra
    )
    assert code == 0 and out.strip() == "unique"


def test_solve_a_variant_file(capsys, tmp_path):
    lines = [
        p for r, p, _, _ in VARIANTS if r == "anti-knight" and len(p) == 81
    ]
    path = tmp_path / "ak.txt"
    path.write_text("\n".join(lines) + "\n")
    code, out, _ = run(
        capsys, "solve", str(path), "--variant", "anti-knight", "-q"
    )
    assert code == 0
    assert out.split() == [s for _, p, s, _ in VARIANTS if p in lines]


def test_rate(capsys, tmp_path):
    sample = [
        line.split()[1]
        for line in (DATA / "sudoku_rating_sample.txt")
        .read_text()
        .splitlines()
        if line and not line.startswith("#")
    ]
    path = tmp_path / "p.txt"
    path.write_text("\n".join(sample[:3] + sample[-3:]) + "\n")
    code, out, err = run(capsys, "rate", str(path))
    assert code == 0
    rows = [line.split() for line in out.splitlines()]
    assert [r[0] for r in rows] == sample[:3] + sample[-3:]
    for puzzle, level, score in rows:
        rating = sudoku.rate(puzzle)
        assert level == rating.level and float(score) == pytest.approx(
            rating.score, abs=0.01
        )
    assert [r[1] for r in rows[-3:]] == ["extreme"] * 3
    assert "6 puzzles rated" in err
    code, out, _ = run(capsys, "rate", sample[0])
    assert code == 0 and out.split()[0] == sample[0]


def test_rate_reports_puzzles_it_cannot_rate(capsys, tmp_path):
    path = tmp_path / "p.txt"
    path.write_text("." * 81 + "\n" + "11" + "." * 79 + "\nhello\n")
    code, out, err = run(capsys, "rate", str(path))
    assert code == 1
    assert [line.split()[-1] for line in out.splitlines()] == [
        "multiple",
        "invalid",
        "invalid",
    ]
    assert "line 2: givens conflict" in err


@pytest.mark.parametrize(
    "argv, message",
    [
        (["generate", "--difficulty", "impossible"], "unknown difficulty"),
        (["generate", "--variant", "sandwich"], "unknown variant"),
        (["generate", "--variant", "jigsaw"], "needs a region map"),
        (
            ["generate", "--regions", "aaab"],
            "region 'a' (first at r1c1) has 3",
        ),
        (["generate", "--size", "2"], "--size must be between"),
        (["generate", "--symmetry", "spiral"], "invalid choice"),
        (["solve", "." * 81, "--variant", "knight"], "unknown variant"),
        (
            ["solve", "." * 81, "--variant", "jigsaw", "--regions", "ab" * 8],
            "2 regions",
        ),
        (["rate", "." * 81, "--variant", "nope"], "unknown variant"),
    ],
)
def test_usage_errors_exit_2(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert message in err
    assert "Traceback" not in err


def test_a_region_map_that_does_not_fit_the_puzzle(capsys):
    code, out, err = run(
        capsys,
        "solve",
        "." * 16,
        "--variant",
        "jigsaw",
        "--regions",
        VARIANTS[-1][3],
    )
    assert code == 1
    assert "the puzzle is 4x4 but the region map is 9x9" in err


def test_rate_a_grid_over_several_lines(capsys, tmp_path):
    puzzle = sudoku.generate(seed=8)
    path = tmp_path / "grid.txt"
    path.write_text(puzzle.pretty() + "\n")
    code, out, _ = run(capsys, "rate", str(path), "-q")
    assert code == 0
    shown, level, score = out.split()
    assert shown == str(puzzle) and level == sudoku.rate(puzzle).level
