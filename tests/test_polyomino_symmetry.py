"""Counting tilings up to symmetry, on every kind of piece set, against
brute force: all tilings found with no symmetry breaking, then grouped
into orbits by turning and flipping each one (``brute_force_orbits``)."""

import pytest

from dlx.problems.polyomino import Polyomino

from test_problems import brute_force_orbits, tiling_is_valid

L, J = "LLL\nL..", "JJJ\n..J"
I4, T4, O4 = "IIII", "TTT\n.T.", "OO\nOO"
S4, Z4 = ".SS\nSS.", "ZZ.\n.ZZ"

CASES = {
    # one-sided mirror twins used once, beside a symmetric piece used thrice
    "one-sided L J + 3 I on 4x5": (
        "4x5",
        {"L": L, "J": J, "I": I4},
        {"one_sided": True, "copies": {"I": 3}},
        (4, 1),
    ),
    # twins with different numbers of copies: no reflection maps the set
    "one-sided 2 L + J + 2 T on 4x5": (
        "4x5",
        {"L": L, "J": J, "T": T4},
        {"one_sided": True, "copies": {"L": 2, "T": 2}},
        (4, 2),
    ),
    "one-sided L + 2 J + 2 T on 4x5": (
        "4x5",
        {"L": L, "J": J, "T": T4},
        {"one_sided": True, "copies": {"J": 2, "T": 2}},
        (4, 2),
    ),
    # twins with equal copies on a square: the whole group
    "one-sided 2 L + 2 J on 4x4": (
        "4x4",
        {"L": L, "J": J},
        {"one_sided": True, "copies": 2},
        (4, 1),
    ),
    # a chiral piece without its twin: rotations only
    "one-sided 2 L + 2 O on 4x4": (
        "4x4",
        {"L": L, "O": O4},
        {"one_sided": True, "copies": 2},
        (4, 1),
    ),
    # no piece used once: Burnside over the whole group
    "free 2 S + 2 L on 4x4": ("4x4", {"S": S4, "L": L}, {"copies": 2}, (4, 1)),
    "2 L on 2x4": ("2x4", {"L": L}, {"copies": 2}, (2, 1)),
    "4 dominoes + 2 squares on 2x5": (
        "2x5",
        {"D": "DD", "m": "m"},
        {"copies": {"D": 4, "m": 2}},
        (56, 21),
    ),
    # copies of several pieces beside one used once
    "2 T + 2 L + O on 4x5": (
        "4x5",
        {"T": T4, "L": L, "O": O4},
        {"copies": {"T": 2, "L": 2}},
        (4, 1),
    ),
    "2 L + 2 I + O on 4x5": (
        "4x5",
        {"I": I4, "L": L, "O": O4},
        {"copies": {"I": 2, "L": 2}},
        (48, 14),
    ),
    # boards with other symmetry groups
    "square less its corners": (
        "#..#\n....\n....\n#..#",
        {"L": "LL\nL."},
        {"copies": 4},
        (3, 2),
    ),
    "a half turn only": (
        "..#.\n....\n.#..",
        {"D": "DD"},
        {"copies": 5},
        (1, 1),
    ),
    "an anti-diagonal mirror only": (
        "..##\n...#\n....\n....",
        {"L": "LL\nL.", "D": "DD"},
        {"copies": {"L": 3, "D": 2}},
        (38, 19),
    ),
}


@pytest.mark.parametrize("name", CASES)
def test_counts_match_brute_force(name):
    board, pieces, options, (total_known, orbits_known) = CASES[name]
    puzzle = Polyomino(board, pieces, **options)
    total, orbits = brute_force_orbits(puzzle)
    assert total > 0
    if total_known is not None:
        assert total == total_known
    if orbits_known is not None:
        assert orbits == orbits_known
    assert puzzle.count(distinct=False) == total
    assert puzzle.count(distinct=False, exhaustive=True) == total
    assert puzzle.count() == orbits
    distinct = list(puzzle.solutions())
    assert len(distinct) == orbits == puzzle.stats.solutions
    assert all(tiling_is_valid(puzzle, t) for t in distinct)
    assert len(list(puzzle.solutions(distinct=False))) == total
    for limit in (1, 2):
        assert len(list(puzzle.solutions(limit=limit))) == min(limit, orbits)


def test_free_polyominoes_from_one_cell():
    from dlx.problems.polyomino import free_polyominoes

    assert free_polyominoes(1) == [((0, 0),)]
    assert free_polyominoes(2) == [((0, 0), (0, 1))]
    assert [len(free_polyominoes(k)) for k in range(1, 7)] == [
        1,
        1,
        2,
        5,
        12,
        35,
    ]
    with pytest.raises(ValueError, match="n must be positive"):
        free_polyominoes(0)


def test_boards_longer_than_62_cells_name_cells_in_full():
    long = Polyomino("1x70", {"I": "I" * 35}, copies=2)
    assert long.count(distinct=False) == 1
    assert "r0c69" in long.problem.items and "0z" not in long.problem.items
    short = Polyomino("1x62", {"I": "I" * 62})
    assert "0Z" in short.problem.items and short.count() == 1


@pytest.mark.parametrize(
    "board, pieces, kwargs, message",
    [
        ("2x2", {"O": "OO\nOO"}, {"copies": {"X": 2}}, "no piece named 'X'"),
        ("2x2", {"O": "OO\nOO"}, {"copies": {"O": 0}}, "positive integer"),
        ("##\n##", {"O": "OO\nOO"}, {}, "the board has no cells"),
        ("0x4", {"O": "OO\nOO"}, {}, "board '0x4' has no cells"),
        ("2x2", {"O": ""}, {}, "no cell"),
        ("2x2", {}, {}, "no pieces"),
    ],
)
def test_polyomino_errors(board, pieces, kwargs, message):
    with pytest.raises(ValueError, match=message):
        Polyomino(board, pieces, **kwargs)
