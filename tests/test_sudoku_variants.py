"""Variants: published puzzles, and every answer checked against the rules
written out directly, and counts against a brute-force search."""

from itertools import product
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import sudoku
from sudoku import InvalidPuzzle, InvalidVariant, Variant
from sudoku.encode import problem
from sudoku.solver import decode

DATA = Path(__file__).parent / "data"


def published():
    rows = []
    for line in (DATA / "sudoku_variants.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            fields = line.split()
            rows.append(
                pytest.param(
                    *fields[:3],
                    fields[3] if len(fields) > 3 else None,
                    id=f"{fields[0]}-{len(rows)}",
                )
            )
    return rows


# -- the rules, written out plainly -------------------------------------------
def regions_of(n, box, regions):
    """Region number of every cell: the boxes, or the jigsaw map."""
    if regions is not None:
        labels = [ch for ch in regions if not ch.isspace()]
        names = sorted(set(labels), key=labels.index)
        return [
            [names.index(labels[r * n + c]) for c in range(n)]
            for r in range(n)
        ]
    rows, cols = box
    return [
        [(r // rows) * rows + c // cols for c in range(n)] for r in range(n)
    ]


def plain_groups(n, box, rules, regions):
    """Every set of cells that must hold distinct digits."""
    region = regions_of(n, box, regions)
    groups = [[(r, c) for c in range(n)] for r in range(n)]
    groups += [[(r, c) for r in range(n)] for c in range(n)]
    groups += [
        [(r, c) for r in range(n) for c in range(n) if region[r][c] == k]
        for k in range(n)
    ]
    if "x" in rules:
        groups.append([(i, i) for i in range(n)])
        groups.append([(i, n - 1 - i) for i in range(n)])
    if "windoku" in rules:
        rows, cols = box
        for r0 in range(1, n, rows + 1):
            for c0 in range(1, n, cols + 1):
                if r0 + rows < n and c0 + cols < n:
                    groups.append(
                        [
                            (r0 + i, c0 + j)
                            for i in range(rows)
                            for j in range(cols)
                        ]
                    )
    moves = []
    if "anti-king" in rules:
        moves += [(1, -1), (1, 0), (1, 1), (0, 1)]
    if "anti-knight" in rules:
        moves += [(1, 2), (2, 1), (1, -2), (2, -1)]
    for r, c in product(range(n), repeat=2):
        for dr, dc in moves:
            if 0 <= r + dr < n and 0 <= c + dc < n:
                groups.append([(r, c), (r + dr, c + dc)])
    return groups


def keeps_rules(cells, box, rules, regions=None):
    """Full, digits 1..n, no group holding a digit twice."""
    n = len(cells)
    if any(not 1 <= cells[r][c] <= n for r in range(n) for c in range(n)):
        return False
    for group in plain_groups(n, box, rules, regions):
        values = [cells[r][c] for r, c in group]
        if len(values) != len(set(values)):
            return False
    return True


def brute_count(puzzle, box, rules, regions=None):
    """Fill the empty cells in reading order, checking every group."""
    n = len(puzzle)
    groups = plain_groups(n, box, rules, regions)
    touching = {
        (r, c): [g for g in groups if (r, c) in g]
        for r in range(n)
        for c in range(n)
    }
    cells = [list(row) for row in puzzle]
    for group in groups:
        values = [cells[r][c] for r, c in group if cells[r][c]]
        if len(values) != len(set(values)):
            return 0
    empty = [(r, c) for r in range(n) for c in range(n) if not cells[r][c]]

    def fill(k):
        if k == len(empty):
            return 1
        r, c = empty[k]
        total = 0
        for d in range(1, n + 1):
            if all(cells[a][b] != d for g in touching[(r, c)] for a, b in g):
                cells[r][c] = d
                total += fill(k + 1)
                cells[r][c] = 0
        return total

    return fill(0)


# -- published puzzles --------------------------------------------------------
@pytest.mark.parametrize("rules, puzzle, solution, regions", published())
def test_published_puzzles_have_their_published_solution(
    rules, puzzle, solution, regions
):
    variant = Variant(rules, regions)
    grid = sudoku.solve(puzzle, variant=variant)
    assert str(grid) == solution
    assert sudoku.is_unique(puzzle, variant=variant)
    cells = grid.cells.tolist()
    assert keeps_rules(cells, grid.box, variant.rules, regions)
    # The variant's rules are what makes the solution unique.
    assert sudoku.count(puzzle, 2) == 2 or sudoku.count(puzzle) != 1
    [result] = sudoku.solve_many([puzzle], variant=variant)
    assert result.status == "solved" and str(result.grid) == solution


def test_the_rules_checker_can_fail():
    """A classic solution breaks the extra rules (so the checks above are
    not empty)."""
    grid = sudoku.solve("." * 81)
    cells = grid.cells.tolist()
    assert keeps_rules(cells, (3, 3), ())
    assert not all(
        keeps_rules(cells, (3, 3), (rule,))
        for rule in ("x", "windoku", "anti-knight", "anti-king")
    )


# -- property tests -----------------------------------------------------------
RULE_SETS = [
    ("x",),
    ("windoku",),
    ("anti-knight",),
    ("anti-king",),
    ("x", "anti-king"),
    ("windoku", "anti-knight"),
    ("jigsaw",),
    ("jigsaw", "x"),
    ("jigsaw", "anti-knight"),
]


def random_regions(rng, n):
    """A random map of n regions of n cells (shapes need not be joined)."""
    order = rng.permutation(n * n)
    labels = np.empty(n * n, np.int64)
    labels[order] = np.arange(n * n) // n
    return "".join("abcdefghijklmnop"[k] for k in labels)


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(RULE_SETS),
    st.integers(0, 2**32 - 1),
    st.floats(0.0, 0.5),
    st.sampled_from([(2, 2), (2, 3)]),
)
def test_counts_and_solutions_agree_with_brute_force(
    rules, seed, density, box
):
    rng = np.random.default_rng(seed)
    n = box[0] * box[1]
    regions = random_regions(rng, n) if "jigsaw" in rules else None
    variant = Variant("+".join(rules), regions)
    # Givens from a solution of the variant when there is one (so that
    # many puzzles are solvable), else from random digits.
    base = sudoku.solve("." * (n * n), box=box, variant=variant)
    if n == 6:
        density = 0.4 + density  # keeps the brute force quick
    if base is not None:
        cells = base.cells * (rng.random((n, n)) < density)
    else:
        cells = rng.integers(0, n + 1, (n, n)) * (rng.random((n, n)) < 0.2)
    puzzle = sudoku.Grid(cells, box)
    want = brute_count(cells.tolist(), box, variant.rules, regions)
    try:
        got = sudoku.count(puzzle, variant=variant)
    except InvalidPuzzle:
        assert want == 0  # clashing givens: no solution either way
        return
    assert got == want
    exact = problem(box, variant)
    given_opts = [
        (r * n + c) * n + d - 1
        for r, c in zip(*np.nonzero(cells))
        for d in [cells[r, c]]
    ]
    if got:
        seen = set()
        for solution in exact.solutions(given=given_opts, limit=50):
            full = decode(list(solution) + given_opts, n)
            assert keeps_rules(full.tolist(), box, variant.rules, regions)
            assert ((cells == 0) | (cells == full)).all()
            seen.add(full.tobytes())
        assert len(seen) == min(got, 50)
    assert sudoku.is_unique(puzzle, variant=variant) == (want == 1)


def test_empty_4x4_counts():
    """Completed 4x4 grids: 288 classic; the extra rules cut them down,
    matching the brute force."""
    for rules in ("x", "anti-king", "windoku", "x+windoku"):
        v = Variant(rules)
        assert sudoku.count("." * 16, variant=v) == brute_count(
            [[0] * 4 for _ in range(4)], (2, 2), v.rules
        )
    assert sudoku.count("." * 16, variant="anti-king") == 0
    assert sudoku.count("." * 16) == 288


# -- bad input ----------------------------------------------------------------
JIGSAW_MAP = "\n".join(
    ["aaabbbccc"] * 3 + ["dddeeefff"] * 3 + ["ggghhhiii"] * 3
)


@pytest.mark.parametrize(
    "spec, regions, message",
    [
        ("knights", None, "unknown variant 'knights'"),
        ("x+sandwich", None, "unknown variant 'sandwich'"),
        ("jigsaw", None, "needs a region map"),
        ("x", JIGSAW_MAP, "jigsaw variant only"),
        (
            "jigsaw",
            "a" * 8 + "b" * 8,
            "4x4 region map has 2 regions; it needs 4",
        ),
        ("jigsaw", JIGSAW_MAP[:-1], "80 cells, which is not a square"),
        (
            "jigsaw",
            JIGSAW_MAP[:-2] + "ai",
            "region 'a' (first at r1c1) has 10 "
            "cells; each of the 9 regions needs 9",
        ),
    ],
)
def test_bad_variants_raise_one_clear_error(spec, regions, message):
    with pytest.raises(
        InvalidVariant, match=message.replace("(", r"\(").replace(")", r"\)")
    ):
        Variant(spec, regions)


def test_a_region_map_of_another_size_is_refused():
    variant = Variant("jigsaw", JIGSAW_MAP)
    with pytest.raises(
        InvalidPuzzle, match="the puzzle is 4x4 but the region map is 9x9"
    ):
        sudoku.solve("." * 16, variant=variant)
    [result] = sudoku.solve_many(["." * 16], variant=variant)
    assert result.status == "invalid" and "9x9" in result.error


def test_variant_type_errors():
    with pytest.raises(TypeError):
        Variant(42)
    with pytest.raises(InvalidVariant):
        sudoku.solve("." * 81, variant="nonsense")


def test_clashing_givens_name_the_rule():
    puzzle = "1" + "." * 9 + "1" + "." * 70  # r1c1 and r2c2: same box
    with pytest.raises(InvalidPuzzle, match="same box"):
        sudoku.solve(puzzle)
    x_clash = "1" + "." * 39 + "1" + "." * 40  # r1c1, r5c5: a diagonal
    assert sudoku.count(x_clash, 2) == 2
    with pytest.raises(InvalidPuzzle, match="same diagonal"):
        sudoku.solve(x_clash, variant="x")
    knight = "." * 2 + "1" + "." * 10 + "1" + "." * 67  # r1c3, r2c5
    with pytest.raises(InvalidPuzzle, match="knight's move apart"):
        sudoku.solve(knight, variant="anti-knight")
    king = "." * 2 + "1" + "." * 9 + "1" + "." * 68  # r1c3, r2c4
    with pytest.raises(InvalidPuzzle, match="king's move apart"):
        sudoku.solve(king, variant="anti-king")
    [result] = sudoku.solve_many([king], variant="anti-king")
    assert result.status == "invalid" and "king" in result.error


def test_variant_spelling():
    assert Variant("X, Anti_Knight").name == "x+anti-knight"
    assert Variant("hyper").rules == ("windoku",)
    assert not Variant("classic")
    assert Variant("x") == Variant("diagonal")
    assert hash(Variant("x")) == hash(Variant("diagonal"))
    assert sudoku.count("." * 16, variant="classic") == 288


def test_the_first_clash_is_structured_and_its_sentence_is_the_message():
    from sudoku.encode import clash_message, first_clash

    grid = sudoku.parse("1" + "." * 9 + "1" + "." * 70)  # r1c1 and r2c2
    x = Variant("x")
    found = first_clash(grid.cells, grid.box, x)
    assert found is not None
    assert found.cells == ((0, 0), (1, 1)) and found.digit == 1
    assert found.how == "in the same box"
    assert found.message == clash_message(grid.cells, grid.box, x)
    assert found.message == (
        "givens conflict: r1c1 and r2c2 both hold 1 in the same box"
    )
    knight = Variant("anti-knight")
    grid = sudoku.parse(".." + "1" + "." * 10 + "1" + "." * 67)  # r1c3, r2c5
    found = first_clash(grid.cells, grid.box, knight)
    assert found is not None
    assert found.cells == ((0, 2), (1, 4)) and found.how == (
        "a knight's move apart"
    )
    assert first_clash(sudoku.parse("." * 81).cells, (3, 3), x) is None
