"""sudoku.web.service without a server: the edges the HTTP tests leave
(found by mutation testing: tools/mutate.py sudoku/web/service.py)."""

import pytest

import sudoku
from sudoku.web import service
from sudoku.web.service import Budget, RequestError, Settings

ESCARGOT = (
    "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4"
    "......7..7...3.."
)


def call(job, **params):
    return job(params, Settings(), Budget(20))


@pytest.mark.parametrize(
    "puzzle, cell",
    [
        ("123." + "." * 12, (0, 3)),  # only its row rules digits out
        ("1...2...3.......", (3, 0)),  # only its column
        ("12..3...........", (1, 1)),  # its row, column and box together
    ],
)
def test_hint_counts_candidates_from_rows_columns_and_boxes(puzzle, cell):
    data = call(service.hint, puzzle=puzzle)
    assert (data["row"], data["col"]) == cell and data["candidates"] == 1
    assert data["digit"] == "4"


def test_hint_says_when_the_puzzle_has_several_solutions():
    unique = call(service.hint, puzzle=ESCARGOT)
    several = call(service.hint, puzzle="." * 16)
    assert "several" not in unique["message"]
    assert (
        "(from one of the puzzle's solutions: it has several)"
        in several["message"]
    )


def test_a_full_grid_is_its_own_one_solution():
    full = str(sudoku.solve(ESCARGOT))
    data = call(service.solve, puzzle=full)
    assert (data["status"], data["solution"], data["nodes"]) == (
        "solved",
        full,
        1,
    )
    assert call(service.count, puzzle=full)["count"] == 1


@pytest.mark.parametrize(
    "box, message",
    [
        ([3, 3, 3], "'box' must be"),
        (["3", 3], "'box' must be"),
        ([True, 3], "'box' must be"),
        ("6x6", "larger than this server takes"),
        ("3x", "'box' must look like"),
    ],
)
def test_bad_boxes(box, message):
    with pytest.raises(RequestError, match=message):
        call(service.solve, puzzle=ESCARGOT, box=box)


def test_budget_and_settings():
    budget = Budget(0.0)
    assert budget.remaining() == 0.0
    with pytest.raises(ValueError):
        Settings(time_limit=0)
    with pytest.raises(ValueError):
        Settings(queue=-1)
    assert Settings(workers=0).workers >= 1


def test_messages_count_in_the_singular_and_plural():
    knuth = "a b c d e | f g\nc e f\na d g\nb c f\na d\nb g\nd e g\n"
    assert call(service.exact_cover, problem=knuth)["message"] == "1 solution"
    assert (
        call(service.exact_cover, builder="queens", n=4)["message"]
        == "2 solutions"
    )
    assert call(service.count, puzzle=ESCARGOT)["message"] == "1 solution"


def test_parse_names_a_clash_only_a_variant_forbids():
    # 5 at r1c1 and r9c9: no row, column or box in common, but the same
    # main diagonal, which X Sudoku forbids (and classic Sudoku allows).
    puzzle = "5" + "." * 79 + "5"
    plain = service.parse_puzzle({"puzzle": puzzle}, Settings())
    assert plain["message"] is None and plain["conflicts"] == []
    x = service.parse_puzzle({"puzzle": puzzle, "variant": "x"}, Settings())
    assert x["message"] and sorted(x["conflicts"]) == [[0, 0], [8, 8]]


def test_the_bundled_sets_are_read_from_their_file():
    # BUNDLED is read once, at import; reading the file again gives it
    # back (comment lines skipped), every set with puzzles that parse.
    assert service._bundled() == service.BUNDLED
    assert {"easy", "hard"} <= set(service.BUNDLED)
    for puzzles in service.BUNDLED.values():
        assert puzzles and all(sudoku.parse(p).n in (9, 16) for p in puzzles)


def test_a_batch_takes_a_puzzle_of_the_largest_size_in_any_spelling():
    # A 4x4 puzzle written with separators is longer than 4 * 4
    # characters: read, it is 4x4, which a server of max_size 4 takes; a
    # 6x6 one it refuses, naming the puzzle.
    settings = Settings(max_size=4)
    service._check_size(
        1, "1 . . .\n. . . .\n. . . .\n. . . 2", None, settings
    )
    with pytest.raises(RequestError, match="puzzle 2"):
        service._check_size(2, "." * 36, None, settings)
