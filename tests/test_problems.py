"""Problem builders: known counts, decoded pictures, symmetry handling."""

import itertools
from pathlib import Path

import pytest

from dlx.problems import debruijn, langford, polyomino, queens, rooks
from dlx.problems.polyomino import (
    Polyomino,
    free_polyominoes,
    normalize,
    orientations,
    parse_board,
    parse_shapes,
    piece_set,
    render,
    tiling_of,
)

from reference import is_exact_cover

DATA = Path(__file__).parent / "data"
SHARED = Path(__file__).resolve().parents[2] / "shared" / "data" / "exactcover"


def known_counts():
    """The cases of data/known_counts.txt as (builder, argument, symmetry,
    count), marked slow when the line ends with "slow"."""
    cases = []
    for line in (DATA / "known_counts.txt").read_text().splitlines():
        if line.strip() and not line.startswith("|"):
            builder, argument, symmetry, count, *flags = line.split()
            marks = [pytest.mark.slow] if "slow" in flags else []
            cases.append(
                pytest.param(
                    builder,
                    argument,
                    symmetry,
                    int(count),
                    marks=marks,
                    id=f"{builder}-{argument}-{symmetry}",
                )
            )
    return cases


def board_of(argument):
    if argument.endswith(".board"):
        return (DATA / argument).read_text()
    return argument


def count_of(builder, argument, symmetry):
    distinct = symmetry == "distinct"
    if builder == "pentomino":
        puzzle = Polyomino(board_of(argument))
        if symmetry == "exhaustive":  # no symmetry breaking at all
            return puzzle.count(distinct=False, exhaustive=True)
        return puzzle.count(distinct=distinct)
    if builder == "queens":
        return queens.queens(int(argument)).count()
    if builder == "langford":
        return langford.langford(int(argument), distinct=distinct).count()
    if builder == "debruijn":
        n, _, k = argument.partition("-")
        return debruijn.debruijn(int(n), int(k or 2)).count()
    if builder == "rooks":
        n, k = map(int, argument.split("-"))
        return rooks.rooks(n, k).count()
    raise ValueError(builder)


@pytest.mark.parametrize(
    "builder, argument, symmetry, expected", known_counts()
)
def test_known_count(builder, argument, symmetry, expected):
    assert count_of(builder, argument, symmetry) == expected


# -- independent checks of decoded solutions ------------------------------
def test_queens_pictures_are_valid():
    problem = queens.queens(8)
    for solution in problem.solutions():
        assert is_exact_cover(problem, solution)
        cols = queens.positions(problem, solution)
        assert sorted(cols) == list(range(8))
        for (i, a), (j, b) in itertools.combinations(enumerate(cols), 2):
            assert abs(a - b) != j - i
    picture = queens.render(problem, problem.solve()).splitlines()
    assert len(picture) == 8 and all(row.count("Q") == 1 for row in picture)


def test_queens_items():
    problem = queens.queens(8)
    assert problem.primary[:4] == ("r4", "c4", "r3", "c3")
    assert len(problem.secondary) == 2 * (2 * 8 - 3)
    assert len(problem) == 64


@pytest.mark.parametrize("n", [3, 4, 7, 8])
def test_langford_sequences_are_valid(n):
    problem = langford.langford(n, distinct=False)
    seen = set()
    for solution in problem.solutions():
        sequence = langford.sequence(problem, solution)
        assert sorted(sequence) == sorted(list(range(1, n + 1)) * 2)
        for d in range(1, n + 1):
            j, k = [i for i, x in enumerate(sequence) if x == d]
            assert k - j == d + 1
        seen.add(tuple(sequence))
    # Reversal pairs the solutions; the distinct problem keeps one of each.
    assert all(
        tuple(reversed(s)) in seen and tuple(reversed(s)) != s for s in seen
    )
    half = langford.langford(n)
    kept = {tuple(langford.sequence(half, s)) for s in half.solutions()}
    assert len(kept) * 2 == len(seen)
    assert all(tuple(reversed(s)) not in kept for s in kept)


@pytest.mark.parametrize("build", [queens.queens, langford.langford])
@pytest.mark.parametrize("n", [0, -1, "3", 2.0, None])
def test_builders_refuse_sizes_that_are_not_positive_integers(build, n):
    with pytest.raises(
        ValueError, match=f"n must be a positive integer, got {n!r}"
    ):
        build(n)
    assert build(1).count() == (build is queens.queens)  # 1 fits


def test_langford_render():
    problem = langford.langford(3)
    assert langford.render(problem, problem.solve()) in (
        "2 3 1 2 1 3",
        "3 1 2 1 3 2",
    )


# -- polyomino geometry ---------------------------------------------------
@pytest.mark.parametrize(
    "cells, free, one_sided, fixed",
    [(4, 5, 7, 19), (5, 12, 18, 63), (6, 35, 60, 216)],
)
def test_polyomino_enumeration(cells, free, one_sided, fixed):
    # OEIS A000105 (free), A000988 (one-sided), A001168 (fixed).
    shapes = free_polyominoes(cells)
    assert len(shapes) == free
    assert sum(len(orientations(s)) for s in shapes) == fixed
    assert (
        len(
            {
                min(orientations(o, one_sided=True))
                for s in shapes
                for o in orientations(s)
            }
        )
        == one_sided
    )


def test_piece_sets():
    pentominoes = piece_set("pentominoes")
    assert "".join(pentominoes) == "FILNPTUVWXYZ"
    assert sorted(map(len, map(orientations, pentominoes.values()))) == [
        1,
        2,
        4,
        4,
        4,
        4,
        4,
        8,
        8,
        8,
        8,
        8,
    ]
    assert {min(orientations(s)) for s in pentominoes.values()} == set(
        free_polyominoes(5)
    )
    assert set(piece_set("tetrominoes")) == set("ILOST")
    hexominoes = piece_set("hexominoes")
    assert list(hexominoes) == [f"h{k:02d}" for k in range(1, 36)]


def test_parse_board_size_and_art():
    assert parse_board("2x3") == {(r, c) for r in range(2) for c in range(3)}
    art = "  ..\n.#..\n"
    assert parse_board(art) == {(0, 2), (0, 3), (1, 0), (1, 2), (1, 3)}
    with pytest.raises(ValueError, match="line 2, column 3"):
        parse_board("...\n..x\n")
    with pytest.raises(ValueError):
        parse_board("0x5")


def test_parse_board_from_cells():
    # moved to start at row/column 0
    assert parse_board([(2, 3), (2, 4), [3, 3]]) == {(0, 0), (0, 1), (1, 0)}
    with pytest.raises(ValueError, match="no cells"):
        parse_board([])


def test_a_board_too_large_is_named_with_its_size():
    from dlx.problems.polyomino import MAX_BOARD_CELLS

    with pytest.raises(
        ValueError,
        match=f"'2000x1000' has 2000000 cells; at most {MAX_BOARD_CELLS}",
    ):
        parse_board("2000x1000")


@pytest.mark.parametrize("spec", ["0x5", "5x0", "0x0", " 3 x 0 ", "00x7"])
def test_a_board_with_no_rows_or_no_columns_is_refused(spec):
    with pytest.raises(
        ValueError, match=f"board '{spec.strip()}' has no cells"
    ):
        parse_board(spec)
    with pytest.raises(ValueError, match="has no cells"):
        Polyomino(spec, {"A": "A"})


def test_board_sizes_up_to_the_limit_are_built():
    from dlx.problems.polyomino import MAX_BOARD_CELLS

    assert parse_board("1x1") == {(0, 0)} and len(parse_board("1X2")) == 2
    assert len(parse_board(f"1x{MAX_BOARD_CELLS}")) == MAX_BOARD_CELLS
    with pytest.raises(ValueError, match=f"has {MAX_BOARD_CELLS + 1} cells"):
        parse_board(f"{MAX_BOARD_CELLS + 1}x1")


@pytest.mark.parametrize(
    "spec, message",
    [
        ("   ", "neither a size like '6x10' nor ASCII art"),
        ("6 by 10", "column 1: '6' is neither"),
        ("##\n##\n", "the board has no cells"),
        ("#  #", "neither a size like '6x10' nor ASCII art"),
    ],
)
def test_a_board_without_cells_is_explained(spec, message):
    with pytest.raises(ValueError, match=message):
        parse_board(spec)


def test_parse_shapes():
    shapes = parse_shapes("AAB\n.BB\n\nCC\n")
    assert shapes == {
        "A": ((0, 0), (0, 1)),
        "B": ((0, 1), (1, 0), (1, 1)),
        "C": ((0, 0), (0, 1)),
    }
    with pytest.raises(ValueError, match="two pictures"):
        parse_shapes("AA\n\nA\n")


def test_board_and_shapes_lines_end_at_newline_only():
    # A form feed is not a line break: it is reported on line 2.
    with pytest.raises(ValueError, match=r"line 2, column 2: '\\x0c'"):
        parse_board("...\n.\x0cx\n")
    # A byte-order mark and CRLF line ends are accepted.
    assert parse_board("\ufeff..\r\n.#\r\n") == {(0, 0), (0, 1), (1, 0)}
    assert parse_shapes("\ufeffAA\r\n.A\r\n") == {
        "A": ((0, 0), (0, 1), (1, 1))
    }
    with pytest.raises(ValueError, match="two pictures"):
        parse_shapes("A\x1cA\n\nA\n")  # \x1c is not a line break


def test_huge_board_size_is_refused_before_it_is_built():
    with pytest.raises(ValueError, match="at most 1000000"):
        parse_board("100000x100000")
    with pytest.raises(
        ValueError, match="60 cells but the board has 10000000000"
    ):
        Polyomino("100000x100000")


def test_single_piece_drawings():
    puzzle = Polyomino("2x2", {"L": "L.\r\nLL", "i": "i"})
    assert puzzle.shapes["L"] == ((0, 0), (1, 0), (1, 1))
    with pytest.raises(ValueError, match="piece 'i': the drawing has no"):
        Polyomino("2x2", {"L": "LL\nL.", "i": ". \n."})
    # Blank lines inside one drawing are empty rows.
    assert Polyomino("1x2", {"d": "d\n\nd"}).shapes["d"] == ((0, 0), (2, 0))


def test_one_sided_orientations():
    f = piece_set("pentominoes")["F"]
    assert len(orientations(f)) == 8
    assert len(orientations(f, one_sided=True)) == 4


def test_6x10_problem_shape():
    problem = polyomino.polyomino("6x10")
    assert len(problem) == 2056
    assert problem.primary[:12] == tuple("FILNPTUVWXYZ")
    assert len(problem.primary) == 72 and not problem.secondary


def tiling_is_valid(puzzle, tiling):
    cells = [x for _, placed in tiling for x in placed]
    if sorted(cells) != sorted(puzzle.board):
        return False
    used = {}
    for name, placed in tiling:
        if normalize(placed) not in puzzle.orientations[name]:
            return False
        used[name] = used.get(name, 0) + 1
    return used == puzzle.copies


def test_render_letter_grid():
    puzzle = Polyomino("3x20")
    tiling = next(puzzle.solutions())
    assert tiling_is_valid(puzzle, tiling)
    rows = puzzle.render(tiling).splitlines()
    assert len(rows) == 3 and all(len(row) == 20 for row in rows)
    assert sorted("".join(rows)) == sorted("FILNPTUVWXYZ" * 5)


def test_render_holes_and_copies():
    puzzle = Polyomino(DATA.joinpath("8x8-centre-hole.board").read_text())
    rows = puzzle.render(next(puzzle.solutions())).splitlines()
    assert rows[3][3:5] == "##" and rows[4][3:5] == "##"
    twice = Polyomino("2x3", {"L": "LL\nL."}, copies=2)
    grid = twice.render(next(twice.solutions()))
    assert sorted(grid.replace("\n", "")) == sorted("LLLlll")
    assert render([("A", ((0, 0),))], board={(0, 0), (0, 1)}) == "A."


# -- counting up to symmetry against brute force ----------------------------
def _image(puzzle, tiling, k):
    """Tiling ``tiling`` under symmetry ``k`` of the square, pieces renamed
    by shape; None if the image is not a tiling of the same board."""

    def turn(cell):
        r, c = cell
        for _ in range(k % 4):
            r, c = c, -r
        return (r, -c) if k >= 4 else (r, c)

    moved = [(name, [turn(x) for x in cells]) for name, cells in tiling]
    all_cells = [x for _, cells in moved for x in cells]
    r0 = min(r for r, _ in all_cells)
    c0 = min(c for _, c in all_cells)
    image = []
    for _name, cells in moved:
        cells = tuple(sorted((r - r0, c - c0) for r, c in cells))
        owners = [
            q for q, o in puzzle.orientations.items() if normalize(cells) in o
        ]
        if len(owners) != 1:
            return None
        image.append((owners[0], cells))
    return tuple(sorted(image))


def brute_force_orbits(puzzle):
    tilings = set(puzzle.solutions(distinct=False))
    orbits = 0
    left = set(tilings)
    while left:
        start = left.pop()
        orbits += 1
        stack = [start]
        while stack:
            tiling = stack.pop()
            for k in range(8):
                image = _image(puzzle, tiling, k)
                if image in left:
                    left.remove(image)
                    stack.append(image)
    return len(tilings), orbits


SMALL_PUZZLES = {
    "dominoes 2x4": ("2x4", {"D": "DD"}, {}, 4),
    "L-trominoes 3x4": ("3x4", {"L": "LL\nL."}, {}, 4),
    "L-trominoes 3x6": ("3x6", {"L": "LL\nL."}, {}, 6),
    "I O L 4x4": (
        "4x4",
        {"I": "IIII", "O": "OO\nOO", "L": "LLL\nL.."},
        {},
        {"L": 2},
    ),
    "X and L on a cross": (
        ".....\n.....\n.....\n.....\n.....",
        {"X": ".X.\nXXX\n.X.", "L": "LLLL\nL..."},
        {},
        {"L": 4},
    ),
    "X in a cross": ("#.#\n...\n#.#", {"X": ".X.\nXXX\n.X."}, {}, 1),
    "monominoes 2x2": ("2x2", {"m": "m"}, {}, 4),
    "one-sided L and J": (
        "4x4",
        {"L": "LLL\nL..", "J": "JJJ\n..J"},
        {"one_sided": True},
        2,
    ),
    "five pieces, 5x5 less two corners": (
        "....#\n.....\n.....\n.....\n#....",
        {
            "F": ".FF\nFF.\n.F.",
            "P": "PP\nPP\nP.",
            "T": "TTT\n.T.\n.T.",
            "V": "V..\nV..\nVVV",
            "I": "I\nI\nI",
        },
        {},
        1,
    ),
}


@pytest.mark.parametrize("name", SMALL_PUZZLES)
def test_distinct_count_matches_brute_force(name):
    board, pieces, options, copies = SMALL_PUZZLES[name]
    puzzle = Polyomino(board, pieces, copies=copies, **options)
    total, orbits = brute_force_orbits(puzzle)
    assert puzzle.count(distinct=False) == total
    assert puzzle.count(distinct=False, exhaustive=True) == total
    assert puzzle.count() == orbits
    distinct = list(puzzle.solutions())
    assert len(distinct) == orbits
    assert all(tiling_is_valid(puzzle, t) for t in distinct)


@pytest.mark.parametrize(
    "board",
    [
        "3x20",
        "8x8-centre-hole.board",
        pytest.param("4x15", marks=pytest.mark.slow),
    ],
)
def test_distinct_tilings_cover_every_orbit_once(board):
    puzzle = Polyomino(board_of(board))
    distinct = list(puzzle.solutions())
    seen = set()
    for tiling in distinct:
        assert tiling_is_valid(puzzle, tiling)
        orbit = {g.tiling(tiling) for g in puzzle.symmetries}
        assert not orbit & seen
        seen |= orbit
    assert len(seen) == puzzle.count(distinct=False, exhaustive=True)


def test_symmetry_groups():
    assert len(Polyomino("6x10").symmetries) == 4
    assert len(Polyomino(board_of("8x8-centre-hole.board")).symmetries) == 8
    # One-sided chiral pieces break the reflections...
    assert len(Polyomino("6x10", one_sided=True).symmetries) == 2
    # ...unless a piece's mirror twin is in the set too.
    twins = Polyomino(
        "4x4", {"L": "LLL\nL..", "J": "JJJ\n..J"}, one_sided=True, copies=2
    )
    assert len(twins.symmetries) == 8


def test_copies_count_each_tiling_once():
    dominoes = Polyomino("2x3", {"D": "DD"}, copies=3)
    assert dominoes.count(distinct=False) == 3
    assert dominoes.count() == 2
    assert len(list(dominoes.solutions(distinct=False))) == 3


def test_stats_accumulate():
    puzzle = Polyomino("4x15")
    assert puzzle.count() == 368
    assert puzzle.stats.solutions == 368
    assert puzzle.stats.nodes > 0 and puzzle.stats.updates > 0


def test_bad_pieces_and_boards():
    with pytest.raises(ValueError, match="60 cells but the board has 63"):
        Polyomino("7x9")
    with pytest.raises(ValueError, match="unknown piece set"):
        Polyomino("6x10", "heptominoes")
    with pytest.raises(ValueError, match="positive integer"):
        Polyomino("2x2", {"m": "m"}, copies=0)
    with pytest.raises(ValueError, match="no piece named"):
        Polyomino("2x2", {"m": "m"}, copies={"q": 4})


def test_distinct_problem():
    problem = Polyomino("6x10").distinct_problem()
    # X kept at one placement per orbit: 8 of its 32 (Knuth's quarter).
    assert len(problem) == 2056 - 24
    assert sum(o[0] == "X" for o in problem.options) == 8
    shared = SHARED / "pentomino-6x10-xquarter.dlx"
    if shared.exists():
        from dlx.formats import load

        assert sorted(load(shared).options) == sorted(problem.options)
    # 5x12: V has no placement that a symmetry fixes, so one search
    # over a quarter of its placements counts the tilings up to symmetry.
    assert (
        sum(o[0] == "V" for o in Polyomino("5x12").distinct_problem().options)
        == 30
    )
    with pytest.raises(ValueError):  # the X's only placement is symmetric
        Polyomino("#.#\n...\n#.#", {"X": ".X.\nXXX\n.X."}).distinct_problem()
    with pytest.raises(ValueError):
        Polyomino("2x4", {"D": "DD"}, copies=4).distinct_problem()


def test_tiling_of_a_problem_read_back():
    from dlx.formats import dumps, loads

    puzzle = Polyomino("2x5", {"L": "LLLL\nL..."}, copies=2)
    problem = loads(dumps(puzzle.problem))
    assert "L.1" in problem.primary
    tilings = {tiling_of(problem, s) for s in problem.solutions()}
    assert tilings == set(puzzle.solutions(distinct=False))
    picture = render(next(iter(tilings)))
    assert sorted(picture.replace("\n", "")) == sorted("LLLLLlllll")


def test_tiling_of_a_wide_board_read_back():
    # past 62 columns a cell is named r<row>c<col>
    from dlx.formats import dumps, loads

    puzzle = Polyomino("2x70", {"I": "I" * 70}, copies=2)
    problem = loads(dumps(puzzle.problem))
    assert "r1c69" in problem.primary
    tilings = {tiling_of(problem, s) for s in problem.solutions()}
    assert tilings == set(puzzle.solutions(distinct=False))


@pytest.mark.parametrize(
    "copies, board, count", [(None, "2x4", 4), (1, "2x4", 4), (2, "4x4", 60)]
)
def test_one_copy_of_each_piece_by_default(copies, board, count):
    pieces = {"L": "LLL\nL..", "J": "JJJ\n..J"}
    extra = {} if copies is None else {"copies": copies}
    assert Polyomino(board, pieces, **extra).count(distinct=False) == count


def test_polyomino_packs_one_copy_by_default():
    pieces = {"L": "LLL\nL..", "J": "JJJ\n..J"}
    assert polyomino.polyomino("2x4", pieces).count() == 4


def test_render_keeps_copies_apart_from_lower_case_pieces():
    # the second L cannot be drawn as "l": a piece has that name
    tiling = [
        ("L", ((0, 0),)),
        ("L", ((0, 1),)),
        ("l", ((0, 2),)),
        ("l", ((0, 3),)),
    ]
    picture = render(tiling)
    assert picture[0] == "L" and picture[2] == "l"
    assert len(set(picture)) == 4


# -- colors and multiplicities ---------------------------------------------
def test_debruijn_sequences_are_valid_and_distinct():
    for n, k in [(3, 2), (4, 2), (2, 3)]:
        problem = debruijn.debruijn(n, k)
        seen = set()
        for solution in problem.solutions():
            s = debruijn.sequence(problem, solution)
            assert len(s) == k**n and s.startswith("0" * n)
            windows = {(s + s)[j : j + n] for j in range(k**n)}
            assert len(windows) == k**n  # every word once
            seen.add(s)
        assert len(seen) == debruijn.known_count(n, k) == problem.count()
    assert problem.kind == "colors"


def test_debruijn_takes_every_symbol():
    # 36 symbols (0-9, a-z) is the most there are; order 1 is each once.
    problem = debruijn.debruijn(1, 36)
    s = debruijn.sequence(problem, problem.solve())
    assert sorted(s) == sorted(debruijn.SYMBOLS) and s[0] == "0"


def test_rooks_fill_the_board_when_k_is_n():
    problem = rooks.rooks(3, 3)  # the most that fit: one way, every square
    assert problem.count() == 1
    assert rooks.render(problem, problem.solve()) == "R R R\nR R R\nR R R"


def test_rooks_boards_are_valid():
    problem = rooks.rooks(5, 2)
    assert problem.kind == "multiplicities"
    for solution in itertools.islice(problem.solutions(), 50):
        rows = rooks.render(problem, solution).splitlines()
        assert all(r.count("R") == 2 for r in rows)
        assert all(
            [r.split()[j] for r in rows].count("R") == 2 for j in range(5)
        )


@pytest.mark.parametrize(
    "build, message",
    [
        (lambda: debruijn.debruijn(0), "n must be"),
        (lambda: debruijn.debruijn(3, 1), "k must be"),
        (lambda: debruijn.debruijn(1, 37), "k must be at most 36"),
        (lambda: rooks.rooks(3, 4), "cannot fit"),
        (lambda: rooks.rooks(0, 1), "n must be"),
    ],
)
def test_builders_refuse_bad_sizes(build, message):
    with pytest.raises(ValueError, match=message):
        build()
