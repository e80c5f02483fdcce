"""The generator and the rating: every puzzle is checked one by one with
the plain API (unique, minimal, symmetric, keeps the rules)."""

from pathlib import Path

import numpy as np
import pytest

import sudoku
from sudoku import InvalidPuzzle, InvalidVariant, generator as G, rating as R

from test_sudoku_variants import keeps_rules

DATA = Path(__file__).parent / "data"


def assert_minimal_unique(puzzle, variant=None, groups=None):
    """Exactly one solution, and removing any given (or group) makes
    several: checked with ``sudoku.count``, one call per removal."""
    assert sudoku.count(puzzle, 2, variant=variant) == 1
    cells = puzzle.cells
    n = puzzle.n
    groups = groups or [[k] for k in range(n * n)]
    for group in groups:
        if not cells.flat[group[0]]:
            continue
        fewer = cells.copy()
        fewer.flat[list(group)] = 0
        assert (
            sudoku.count(sudoku.Grid(fewer, puzzle.box), 2, variant=variant)
            == 2
        )


@pytest.mark.parametrize("size", [4, 6, 8, 9])
def test_generated_puzzles_are_minimal_and_unique(size):
    for seed in range(3):
        puzzle = sudoku.generate(size, seed=seed)
        assert puzzle.n == size
        assert_minimal_unique(puzzle)
        assert sudoku.is_valid_solution(sudoku.solve(puzzle), puzzle)


def test_a_seed_makes_the_same_puzzle():
    a = sudoku.generate(seed=42)
    assert sudoku.generate(seed=42) == a
    assert sudoku.generate(seed=43) != a
    many = G.generate_many(5, seed=7)
    assert G.generate_many(5, seed=7) == many
    assert len({str(p) for p in many}) == 5


def test_batches_are_minimal_unique_too():
    puzzles = G.generate_many(40, seed=3)
    results = sudoku.solve_many(puzzles)
    assert all(r.status == "solved" for r in results)
    for puzzle in puzzles[:8]:
        assert_minimal_unique(puzzle)
    assert 19 <= np.mean([p.givens for p in puzzles]) <= 30


@pytest.mark.parametrize("symmetry", ["rotational", "mirror"])
def test_symmetric_puzzles(symmetry):
    n = 9
    for seed in range(3):
        puzzle = sudoku.generate(seed=seed, symmetry=symmetry)
        filled = puzzle.cells != 0
        image = (
            filled[::-1, ::-1] if symmetry == "rotational" else filled[:, ::-1]
        )
        assert (filled == image).all()
        groups = [g.tolist() for g in G.orbits(n, symmetry)]
        assert_minimal_unique(puzzle, groups=groups)


@pytest.mark.parametrize(
    "variant", ["x", "windoku", "anti-knight", "anti-king", "x+anti-king"]
)
def test_variant_puzzles(variant):
    puzzle = sudoku.generate(seed=5, variant=variant)
    assert_minimal_unique(puzzle, variant=variant)
    solution = sudoku.solve(puzzle, variant=variant)
    rules = sudoku.Variant(variant).rules
    assert keeps_rules(solution.cells.tolist(), (3, 3), rules)
    # Under the variant it needs fewer givens than classic rules allow.
    assert sudoku.count(puzzle, 2) == 2


def test_jigsaw_puzzles():
    regions = (
        "999998888555998888555998333555111333222111333222111444"
        "222766444777766444777766666"
    )
    variant = sudoku.Variant("jigsaw", regions)
    puzzle = sudoku.generate(seed=1, variant=variant)
    assert_minimal_unique(puzzle, variant=variant)
    solution = sudoku.solve(puzzle, variant=variant)
    assert keeps_rules(solution.cells.tolist(), (3, 3), ("jigsaw",), regions)


def test_difficulty_is_hit():
    for level in ("easy", "hard"):
        puzzle = sudoku.generate(seed=2, difficulty=level)
        assert sudoku.rate(puzzle).level == level
    puzzles = G.generate_many(3, seed=1, difficulty="medium")
    assert [sudoku.rate(p).level for p in puzzles] == ["medium"] * 3


def test_an_unreached_level_says_so(monkeypatch):
    monkeypatch.setattr(G, "LEVEL_ROUNDS", 1)
    with pytest.raises(G.GenerationFailed, match="extreme puzzles among"):
        sudoku.generate(seed=1, difficulty="extreme")


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        (
            dict(difficulty="impossible"),
            ValueError,
            "unknown difficulty "
            "'impossible'; choose one of easy, medium, hard, expert, extreme",
        ),
        (dict(symmetry="diagonal"), ValueError, "unknown symmetry"),
        (dict(size=3), ValueError, "size must be between 4 and 25"),
        (dict(size="9"), TypeError, "size must be an integer"),
        (dict(size=9, box=(2, 3)), InvalidPuzzle, "box 2x3"),
        (dict(variant="sandwich"), InvalidVariant, "unknown variant"),
        (dict(difficulty=3), TypeError, "difficulty must be a level name"),
    ],
)
def test_bad_arguments(kwargs, error, message):
    with pytest.raises(error, match=message):
        sudoku.generate(**kwargs)


def test_no_grid_keeps_the_rules():
    with pytest.raises(G.GenerationFailed, match="no 4x4 grid keeps"):
        sudoku.generate(4, variant="anti-king")


# -- rating -------------------------------------------------------------------
def sample_sets():
    sets: dict = {}
    for line in (DATA / "sudoku_rating_sample.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            name, puzzle = line.split()
            sets.setdefault(name, []).append(puzzle)
    return sets


def test_the_public_sets_order_as_people_rate_them():
    sets = sample_sets()
    scores = {
        name: [r.score for r in R.rate_many(puzzles)]
        for name, puzzles in sets.items()
    }
    easy, top, hardest = (
        np.median(scores[k]) for k in ("easy50", "top95", "forum_hardest")
    )
    assert easy < top < hardest
    assert max(scores["easy50"]) < min(scores["forum_hardest"])
    levels = [sudoku.rate(p).level for p in sets["forum_hardest"]]
    assert levels.count("extreme") >= 8
    assert [sudoku.rate(p).level for p in sets["easy50"]].count("easy") >= 5


def test_rating_is_stable_under_relabelling():
    """An equivalent puzzle gets about the same score (the spread of one
    search's node count over relabellings is several score points)."""
    rng = np.random.default_rng(0)
    gaps = []
    for puzzle in sample_sets()["top95"][:6]:
        cells = sudoku.parse(puzzle).cells
        base = sudoku.rate(puzzle)
        assert sudoku.rate(puzzle) == base  # reproducible
        for _ in range(3):
            sym = sudoku.solver.Symmetry.random(rng, (3, 3))
            moved = sym.apply(cells[None])[0]
            gaps.append(abs(sudoku.rate(moved).score - base.score))
    assert np.median(gaps) < 1.0 and max(gaps) < 3.5


def test_rating_bad_input():
    with pytest.raises(ValueError, match="more than one solution"):
        sudoku.rate("." * 81)
    with pytest.raises(InvalidPuzzle, match="givens conflict"):
        sudoku.rate("11" + "." * 79)
    with pytest.raises(InvalidPuzzle):
        sudoku.rate("123")
    out = R.rate_many(
        ["." * 81, "11" + "." * 79, "x", sample_sets()["top95"][0]]
    )
    assert out[0] == "multiple"
    assert out[1].startswith("invalid: givens conflict")
    assert out[2].startswith("invalid")
    assert isinstance(out[3], R.Rating)
    assert out[3] == sudoku.rate(sample_sets()["top95"][0])


def test_levels():
    assert [R.level_of(s) for s in (0, 1.99, 2, 5, 8, 11, 30)] == [
        "easy",
        "easy",
        "medium",
        "hard",
        "expert",
        "extreme",
        "extreme",
    ]


def test_a_puzzle_of_singles_wastes_no_node_under_any_relabelling():
    """Why the rating stops after one sample when no node was wasted."""
    from sudoku.solver import Symmetry, search_stack

    rng = np.random.default_rng(1)
    puzzles = sample_sets()["easy50"] + G.generate_many(20, seed=4)
    cells = np.array([sudoku.parse(p).cells for p in puzzles])
    empty = (cells.reshape(len(cells), -1) == 0).sum(axis=1)
    # The rating's nodes are DLX1's (links), one per forced cell.
    _, _, first = search_stack(cells, (3, 3), 2, algorithm="links")
    forced = first == empty + 1
    assert 0 < forced.sum() < len(cells)
    for _ in range(6):
        moved = Symmetry.random(rng, (3, 3)).apply(cells)
        _, _, nodes = search_stack(moved, (3, 3), 2, algorithm="links")
        assert ((nodes == empty + 1) == forced).all()
    scores, _, _ = R.rate_cells(cells, (3, 3))
    assert ((scores == 0) == forced).all()


def test_a_check_budget_keeps_puzzles_unique():
    """With too few nodes to decide, a given stays: unique, not always
    minimal (what 25x25 puzzles get, see BIG_CHECK_NODES)."""
    rng = np.random.default_rng(3)
    grids = G.full_grids(20, (3, 3), rng)
    loose = G.minimise(grids, (3, 3), np.random.default_rng(1))
    # (9x9 checks run on the lane engine, whose node is a branch point
    # after every forced move, singles and locked candidates: one of them
    # leaves some checks undecided.)
    tight = G.minimise(grids, (3, 3), np.random.default_rng(1), check_nodes=1)
    assert (sudoku.solve_cells(tight).status == 0).all()  # all "solved"
    assert (tight != 0).sum() > (loose != 0).sum()


@pytest.mark.slow
def test_25x25():
    puzzle = sudoku.generate(25, seed=1)
    assert sudoku.count(puzzle, 2) == 1


def test_rating_says_why_there_is_none():
    nosolution = (
        "..9.287..8.6..4..5..3.....46.........2.71345.........23....."
        "5..9..4..8.7..125.3.."
    )
    with pytest.raises(ValueError, match="the puzzle has no solution"):
        sudoku.rate(nosolution)
    assert R.rate_many([nosolution]) == ["nosolution"]


@pytest.mark.parametrize(
    "samples, error",
    [
        (0, ValueError),
        (-2, ValueError),
        (True, TypeError),
        (1.0, TypeError),
        ("3", TypeError),
    ],
)
def test_rating_samples_are_checked(samples, error):
    puzzle = sample_sets()["top95"][0]
    with pytest.raises(error, match="samples must be"):
        sudoku.rate(puzzle, samples=samples)
    with pytest.raises(error, match="samples must be"):
        R.rate_many([puzzle], samples=samples)


def test_one_sample_rates_too():
    puzzle = sample_sets()["top95"][0]
    assert isinstance(sudoku.rate(puzzle, samples=1), R.Rating)


def test_level_names_are_read_loosely_and_checked():
    assert R.check_level("  Hard ") == "hard"
    with pytest.raises(ValueError, match="unknown difficulty 'harder'"):
        R.check_level("harder")


def test_rate_many_names_a_region_map_of_another_size():
    jigsaw6 = sudoku.Variant(
        "jigsaw", "AAABBB\nAAABBB\nCCCDDD\nCCCDDD\nEEEFFF\nEEEFFF"
    )
    out = R.rate_many(["." * 16, sample_sets()["top95"][0]], variant=jigsaw6)
    assert (
        out[0]
        == out[1]
        == ("invalid: the region map is 6x6 but the puzzle is not")
    )
    # a 6x6 puzzle (2x3 boxes) fits the 6x6 map
    puzzle = sudoku.generate(6, variant=jigsaw6, seed=1)
    (rating,) = R.rate_many([puzzle], variant=jigsaw6)
    assert rating == sudoku.rate(puzzle, variant=jigsaw6)


def test_generate_many_of_none_still_checks_its_arguments():
    assert G.generate_many(0) == [] and G.generate_many(0, 25) == []
    assert len(G.generate_many(1, 4, seed=1)) == 1
    for size in (3, 26, 37):
        with pytest.raises(ValueError, match="size must be between 4 and 25"):
            G.generate_many(0, size)
