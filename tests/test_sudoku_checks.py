"""Checks on every box shape, square or not, against plain loops; and
round trips that compare spelling, not just values."""

import re

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import sudoku
from sudoku import parse
from sudoku.grid import (
    InvalidPuzzle,
    cells_conflict,
    conflict_message,
    conflicts,
    has_conflict,
    is_valid_solution,
)

BOXES = [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3), (3, 4), (4, 3)]


def box_of(r, c, box):
    rows, cols = box
    return (r // rows, c // cols)


def plain_conflicts(cells, box):
    """The clashing pairs as ``conflicts`` lists them: in each unit, the
    givens of one digit in reading order, each with the next."""
    n = len(cells)
    found = set()
    for unit, key in (
        ("row", lambda r, c: r),
        ("column", lambda r, c: c),
        ("box", lambda r, c: box_of(r, c, box)),
    ):
        groups = {}
        for r in range(n):
            for c in range(n):
                if cells[r][c]:
                    groups.setdefault((key(r, c), cells[r][c]), []).append(
                        (r, c)
                    )
        for (_, digit), where in groups.items():
            for a, b in zip(where, where[1:]):
                found.add((a, b, digit, unit))
    return found


def plain_valid(cells, box):
    n = len(cells)
    want = set(range(1, n + 1))
    units = [[(r, c) for c in range(n)] for r in range(n)]
    units += [[(r, c) for r in range(n)] for c in range(n)]
    boxes = {}
    for r in range(n):
        for c in range(n):
            boxes.setdefault(box_of(r, c, box), []).append((r, c))
    units += list(boxes.values())
    return all({cells[r][c] for r, c in unit} == want for unit in units)


@st.composite
def sparse_grids(draw):
    box = draw(st.sampled_from(BOXES))
    n = box[0] * box[1]
    cells = draw(
        st.lists(
            st.lists(st.integers(0, n), min_size=n, max_size=n),
            min_size=n,
            max_size=n,
        )
    )
    # mostly blanks, as in puzzles
    mask = draw(st.lists(st.booleans(), min_size=n * n, max_size=n * n))
    cells = [
        [v if mask[r * n + c] else 0 for c, v in enumerate(row)]
        for r, row in enumerate(cells)
    ]
    return box, cells


@settings(max_examples=150, deadline=None)
@given(sparse_grids())
def test_conflicts_match_plain_loops(case):
    box, cells = case
    grid = parse(cells, box)
    expected = plain_conflicts(cells, box)
    found = conflicts(grid)
    assert set(found) == expected and len(found) == len(expected)
    # in reading order of the first cell, then of the second
    assert found == sorted(found, key=lambda f: (f[0], f[1]))
    assert has_conflict(grid) == bool(expected)
    stack = np.array([cells, np.zeros_like(cells), cells])
    assert cells_conflict(stack, box).tolist() == [
        bool(expected),
        False,
        bool(expected),
    ]
    message = conflict_message(grid)
    assert (message is None) == (not expected)
    if expected:
        (r1, c1), (r2, c2), digit, unit = min(
            expected,
            key=lambda f: (f[0][0] * 99 + f[0][1], f[1][0] * 99 + f[1][1]),
        )
        assert message.startswith(
            f"givens conflict: r{r1 + 1}c{c1 + 1} and "
            f"r{r2 + 1}c{c2 + 1} both hold"
        )


def test_conflicts_on_3x2_boxes():
    cells = np.zeros((6, 6), int)
    cells[0, 0] = cells[2, 1] = 4  # one 3x2 box; two different 2x3 boxes
    assert conflicts(parse(cells, (3, 2))) == [((0, 0), (2, 1), 4, "box")]
    assert conflicts(parse(cells, (2, 3))) == []
    cells = np.zeros((6, 6), int)
    cells[0, 0] = cells[1, 2] = 4  # one 2x3 box; two different 3x2 boxes
    assert conflicts(parse(cells, (3, 2))) == []
    assert conflicts(parse(cells, (2, 3))) == [((0, 0), (1, 2), 4, "box")]


@pytest.mark.parametrize("box", BOXES)
def test_validity_on_every_box_shape(box):
    n = box[0] * box[1]
    solution = sudoku.solve(np.zeros((n, n), int), box).cells
    assert is_valid_solution(solution, box=box) and plain_valid(
        solution.tolist(), box
    )
    latin = (np.arange(n)[:, None] + np.arange(n)[None, :]) % n + 1
    assert not is_valid_solution(latin, box=box)  # rows and columns right
    assert not plain_valid(latin.tolist(), box)
    if box[0] != box[1]:
        other = (box[1], box[0])
        assert is_valid_solution(solution, box=box)
        assert is_valid_solution(solution, box=other) == plain_valid(
            solution.tolist(), other
        )
    broken = solution.copy()
    broken[0, 0], broken[0, 1] = broken[0, 1], broken[0, 0]
    assert not is_valid_solution(broken, box=box)
    gap = solution.copy()
    gap[n - 1, n - 1] = 0
    assert not is_valid_solution(gap, box=box)


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(BOXES), st.randoms(use_true_random=False))
def test_validity_matches_plain_loops(box, rnd):
    n = box[0] * box[1]
    solution = sudoku.solve(np.zeros((n, n), int), box).cells.tolist()
    cells = [row[:] for row in solution]
    for _ in range(rnd.randint(0, 2)):  # swap two cells of a row or column
        r, c, k = rnd.randrange(n), rnd.randrange(n), rnd.randrange(n)
        if rnd.random() < 0.5:
            cells[r][c], cells[r][k] = cells[r][k], cells[r][c]
        else:
            cells[r][c], cells[k][c] = cells[k][c], cells[r][c]
    assert is_valid_solution(cells, box=box) == plain_valid(cells, box)


def test_validity_keeps_the_givens():
    solution = sudoku.solve("." * 36, (2, 3))
    puzzle = solution.cells.copy()
    puzzle[1:, :] = 0
    assert is_valid_solution(solution, puzzle, box=(2, 3))
    puzzle[0, 0] = puzzle[0, 0] % 6 + 1
    assert not is_valid_solution(solution, puzzle, box=(2, 3))
    assert not is_valid_solution(solution, "." * 16)  # another size


SPELLINGS = [
    # blanks, case, decoration and separators as written
    "1____7_9__3__2___8__96__5____53__9___1__8___26____4___3______1__4"
    "______7__7___3__",
    "0" * 40 + "1" + "0" * 40,
    "a" + "." * 255,
    "5 3 . | . 7 . | . . .\n6 . . | 1 9 5 | . . .\n. 9 8 | . . . | . 6 .\n"
    "------+-------+------\n8 . . | . 6 . | . . 3\n4 . . | 8 . 3 | . . 1\n"
    "7 . . | . 2 . | . . 6\n------+-------+------\n. 6 . | . . . | 2 8 .\n"
    ". . . | 4 1 9 | . . 5\n. . . | . 8 . | . 7 9",
    "1, 0,0 ,4\n0,0, 0,0\n0 ,0,0,0\n 4,0,0,1",
    "1;;;4\n;;;;\n;;;;\n4;;;1",
    "10 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 " + "0 " * 239 + "16",
    # letters in a decorated layout, in lower case
    ("a b . . | " + ". " * 12).rstrip()
    + "\n"
    + "\n".join(". . . . | " + " ".join(["."] * 12) for _ in range(15)),
]


@pytest.mark.parametrize("text", SPELLINGS)
def test_format_keeps_the_spelling(text):
    grid = parse(text)
    assert grid.format() == text
    assert parse(grid.format()) == grid
    solved = sudoku.solve(grid)
    if solved is None:
        return
    written = solved.format()
    assert parse(written) == solved
    # Every given and every piece of decoration stays as it was written.
    skeleton = re.compile(r"[^\s|+,;]")
    assert skeleton.sub("", written) == skeleton.sub("", text)
    if len(written) == len(text):
        for k, ch in enumerate(text):
            if ch not in ".0_-*":
                assert written[k] == ch


@pytest.mark.parametrize(
    "cells, message",
    [
        ([[1, 2, 3, 4], [3, 4], [1, 2, 3, 4, 5, 6], [1, 2, 3, 4]], "row"),
        ("12345\n341\n2143\n4321", "row 1 has 5 cells"),
        ("1234\n3412\n2143\n432", "row 4 has 3 cells"),
    ],
)
def test_ragged_rows_are_refused(cells, message):
    with pytest.raises(InvalidPuzzle, match=message):
        parse(cells)


@pytest.mark.parametrize(
    "n, box",
    [
        (4, (2, 2)),
        (6, (2, 3)),
        (8, (2, 4)),
        (9, (3, 3)),
        (10, (2, 5)),
        (12, (3, 4)),
        (15, (3, 5)),
        (16, (4, 4)),
        (18, (3, 6)),
        (20, (4, 5)),
        (25, (5, 5)),
        (36, (6, 6)),
    ],
)
def test_default_box_is_the_closest_pair(n, box):
    assert sudoku.grid.default_box(n) == box


@pytest.mark.parametrize("n", [1, 2, 3, 5, 7, 11, 13])
def test_prime_sizes_have_no_default_box(n):
    with pytest.raises(InvalidPuzzle, match=f"{n} has no factor pair"):
        sudoku.grid.default_box(n)


@pytest.mark.parametrize(
    "box, n, message",
    [
        ((0, 4), None, "pair of positive integers"),
        ((2,), None, "pair of positive integers"),
        ((2, 2.5), None, "pair of positive integers"),
        ("22", None, "pair of positive integers"),
        ((2, 3), 4, "box 2x3 holds 6 cells but the grid is 4x4"),
    ],
)
def test_check_box(box, n, message):
    with pytest.raises(InvalidPuzzle, match=message):
        sudoku.grid.check_box(box, n)


def test_check_box_accepts_whole_numbers():
    assert sudoku.grid.check_box((2.0, np.int64(3)), 6) == (2, 3)
    assert sudoku.grid.check_box([1, 4]) == (1, 4)


def test_grid_methods():
    puzzle = parse("12.." + "." * 12)
    assert puzzle.n == 4 and puzzle.givens == 2 and not puzzle.is_complete()
    solved = sudoku.solve(puzzle)
    assert solved.is_complete() and solved.givens == 16
    assert str(puzzle) == "12.." + "." * 12
    assert repr(puzzle) == f"Grid('12{'.' * 14}', box=(2, 2))"
    assert puzzle == parse([[1, 2, 0, 0]] + [[0] * 4] * 3)
    assert (
        puzzle != solved
        and puzzle != "12.."
        and hash(puzzle) == hash(parse("12" + "0" * 14))
    )
    assert parse(puzzle, (2, 2)) is puzzle
    assert parse("." * 36, (3, 2)) != parse("." * 36, (2, 3))
    assert parse(parse("." * 36), (3, 2)).box == (3, 2)
    with pytest.raises(InvalidPuzzle, match="box 3x3 holds 9"):
        parse(puzzle, (3, 3))
    with pytest.raises(ValueError, match="unknown format 'xml'"):
        puzzle.format("xml")
    assert puzzle.format("line") == str(puzzle)
    assert (
        puzzle.format("grid")
        == puzzle.pretty()
        == "1 2 | . .\n. . | . .\n----+----\n. . | . .\n. . | . ."
    )
    assert puzzle.format("csv") == "1,2,0,0\n0,0,0,0\n0,0,0,0\n0,0,0,0"
    assert puzzle.cells.flags.writeable is False


def test_35x35_is_the_largest_grid_in_letters():
    cells = np.zeros((35, 35), int)
    cells[0, 0], cells[0, 1] = 35, 10
    grid = parse(cells, (5, 7))
    assert str(grid).startswith("ZA.") and grid.pretty().startswith("Z A .")
    assert parse(grid.pretty(), (5, 7)) == grid


def test_six_by_six_pretty_and_big_grids():
    grid = parse("." * 36, (3, 2))
    assert grid.pretty().split("\n")[:4] == [
        ". . | . . | . .",
        ". . | . . | . .",
        ". . | . . | . .",
        "----+-----+----",
    ]
    big = np.zeros((36, 36), int)
    big[0, 0], big[35, 35] = 36, 1
    grid = parse(big)
    line = str(grid)
    assert line.startswith("36,0,") and line.endswith(",0,1")
    pretty = grid.pretty().split("\n")
    assert pretty[0].startswith("36  . ") and len(pretty) == 36 + 5
    assert sudoku.format_csv(grid).split("\n")[0].startswith("36,0,0")
    assert parse(grid.pretty()) == grid == parse(sudoku.format_csv(grid))


def test_digits_past_nine_are_letters():
    cells = np.zeros((16, 16), int)
    cells[0, :] = np.arange(1, 17)
    grid = parse(cells)
    assert str(grid)[:16] == "123456789ABCDEFG"
    assert parse(str(grid).lower()) == grid
    with pytest.raises(InvalidPuzzle, match="1-9 and A-G"):
        parse("H" + "." * 255)
    with pytest.raises(InvalidPuzzle, match="1-9 and A "):
        parse("B" + "." * 99)
    with pytest.raises(InvalidPuzzle, match="uses 1-8 and"):
        parse("9" + "." * 63)


@pytest.mark.parametrize(
    "source, box, message",
    [
        (np.arange(15) % 4, None, "wrong size: 15 cells is not a square grid"),
        (np.zeros(0, int), None, "empty puzzle|wrong size: 0 cells"),
        ([0] * 15 + [None], None, "bad value None at row 4, column 4"),
        ([0] * 14 + [1.5, 0], None, "bad value 1.5 at row 4, column 3"),
        (
            "." * 20,
            (2, 3),
            "wrong size: 20 cells, but box 2x3 makes a 6x6 grid of 36",
        ),
        (
            "1," * 19 + "1",
            (3, 2),
            "wrong size: 20 cells, but box 3x2 makes a 6x6 grid of 36",
        ),
        (np.zeros((4, 4, 1), int), None, "square"),
    ],
)
def test_flat_and_boxed_input_errors(source, box, message):
    with pytest.raises(InvalidPuzzle, match=message):
        parse(source, box)
