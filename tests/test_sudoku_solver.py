"""Solving: every solution is checked independently of the solver."""

from pathlib import Path

import numpy as np
import pytest

import sudoku
from sudoku import InvalidPuzzle, parse

DATA = Path(__file__).parent / "data"
SHARED = Path(__file__).resolve().parents[2] / "shared" / "data" / "sudoku"


def obviously_valid(solution, puzzle) -> bool:
    """An independent check of ``sudoku.is_valid_solution``, kept as plain
    as possible: rows, columns and boxes each hold 1..n once; givens are
    kept."""
    s = np.asarray(solution.cells)
    p = parse(puzzle).cells
    n = s.shape[0]
    rows, cols = solution.box
    if s.shape != p.shape or rows * cols != n:
        return False
    want = set(range(1, n + 1))
    units = [s[r, :] for r in range(n)] + [s[:, c] for c in range(n)]
    units += [
        s[r : r + rows, c : c + cols].ravel()
        for r in range(0, n, rows)
        for c in range(0, n, cols)
    ]
    if any(set(u.tolist()) != want or len(u) != n for u in units):
        return False
    return bool(((p == 0) | (p == s)).all())


is_valid_solution = sudoku.is_valid_solution


def test_is_valid_solution_agrees_with_an_obvious_check():
    rng = np.random.default_rng(7)
    cases = 0
    for box in [(2, 2), (2, 3), (3, 2), (3, 3), (2, 4)]:
        n = box[0] * box[1]
        good = sudoku.solve("." * (n * n), box=box)
        for trial in range(60):
            cells = good.cells.copy()
            if trial % 3 == 1:  # swap two cells: usually breaks a unit
                (a, b), (c, d) = rng.integers(0, n, (2, 2))
                cells[a, b], cells[c, d] = cells[c, d], cells[a, b]
            elif trial % 3 == 2:  # relabel two digits: still a solution
                x, y = rng.choice(np.arange(1, n + 1), 2, replace=False)
                cells = np.where(cells == x, y, np.where(cells == y, x, cells))
            solution = sudoku.Grid(cells, box)
            puzzle = good.cells * (rng.random((n, n)) < 0.3)
            want = obviously_valid(solution, sudoku.Grid(puzzle, box))
            assert is_valid_solution(solution, puzzle) == want
            assert (
                is_valid_solution(
                    str(solution), str(sudoku.Grid(puzzle, box)), box=box
                )
                == want
            )
            cases += want
    assert 0 < cases < 300


def lines(name: str) -> list[str]:
    return (DATA / name).read_text().splitlines()


def tagged(name: str) -> list[tuple[str, str]]:
    return [tuple(line.split(" ", 1)) for line in lines(name)]


def brute_count(cells: np.ndarray, box) -> int:
    """Solutions of a small grid by plain backtracking (the reference)."""
    cells = cells.copy()
    n = cells.shape[0]
    rows, cols = box
    empty = list(zip(*np.nonzero(cells == 0)))

    def ok(r, c, d):
        br, bc = r - r % rows, c - c % cols
        return not (
            d in cells[r]
            or d in cells[:, c]
            or d in cells[br : br + rows, bc : bc + cols]
        )

    def go(k):
        if k == len(empty):
            return 1
        r, c = empty[k]
        total = 0
        for d in range(1, n + 1):
            if ok(r, c, d):
                cells[r, c] = d
                total += go(k + 1)
                cells[r, c] = 0
        return total

    return go(0)


# -- known answers ------------------------------------------------------------
def test_all_4x4_grids():
    assert sudoku.count("." * 16) == 288
    assert sudoku.count("." * 16, limit=10) == 10
    for call in (sudoku.count, sudoku.solve_many, sudoku.solve_cells):
        with pytest.raises(ValueError, match="limit must be a positive"):
            call(
                np.zeros((1, 4, 4), int)
                if call is sudoku.solve_cells
                else ["." * 16]
                if call is sudoku.solve_many
                else "." * 16,
                limit=0,
            )
    with pytest.raises(ValueError, match="limit must be a positive"):
        sudoku.count("." * 16, 0, max_nodes=100)
    assert not sudoku.is_unique("." * 16)


@pytest.mark.parametrize("puzzle, tag", tagged("sudoku_special.txt"))
def test_special_cases(puzzle, tag):
    if tag == "invalid":
        with pytest.raises(InvalidPuzzle, match="givens conflict"):
            sudoku.solve(puzzle)
        with pytest.raises(InvalidPuzzle):
            sudoku.count(puzzle)
        return
    solution = sudoku.solve(puzzle)
    if tag == "nosolution":
        assert solution is None
        assert sudoku.count(puzzle) == 0
        assert not sudoku.is_unique(puzzle)
    else:
        assert is_valid_solution(solution, puzzle)
        assert sudoku.count(puzzle, limit=2) == 2
        assert not sudoku.is_unique(puzzle)


@pytest.mark.parametrize(
    "line, want", [(11, 2), (12, 3), (13, 4), (14, 10), (15, 125)]
)
def test_exact_counts(line, want):
    puzzle = tagged("sudoku_special.txt")[line - 1][0]
    assert sudoku.count(puzzle) == want
    assert sudoku.count(puzzle, limit=want + 5) == want


@pytest.mark.parametrize("puzzle, name", tagged("sudoku_named.txt"))
def test_named(puzzle, name):
    solution = sudoku.solve(puzzle)
    assert is_valid_solution(solution, puzzle)
    assert sudoku.is_unique(puzzle)
    assert solution.format() == str(solution)


@pytest.mark.parametrize(
    "name",
    [
        "sudoku_top95.txt",
        "sudoku_17clue_50.txt",
        "sudoku_hexadoku16.txt",
        "sudoku_25x25_sample.txt",
    ],
)
def test_public_sets_solve_completely(name):
    puzzles = lines(name)
    results = sudoku.solve_many(puzzles)
    assert [r.status for r in results] == ["solved"] * len(puzzles)
    for puzzle, result in zip(puzzles, results):
        assert result.count == 1 and result.error is None
        assert is_valid_solution(result.grid, puzzle)
        assert result.grid.format() == str(result.grid)


def test_one_by_one_matches_batch():
    puzzles = lines("sudoku_top95.txt")[:20]
    batch = sudoku.solve_many(puzzles)
    for puzzle, result in zip(puzzles, batch):
        assert sudoku.solve(puzzle) == result.grid
        assert sudoku.is_unique(puzzle)


@pytest.mark.parametrize("puzzle, tag", tagged("sudoku_special_large.txt"))
def test_large_special_cases(puzzle, tag):
    result = sudoku.solve_many([puzzle])[0]
    assert result.status == tag
    if tag == "multiple":
        assert is_valid_solution(result.grid, puzzle)
    else:
        assert "givens conflict" in result.error


@pytest.mark.skipif(not SHARED.is_dir(), reason="shared data absent")
def test_shared_sets_when_present():
    for name, take in (
        ("top1465.txt", 300),
        ("easy50.txt", 50),
        ("hardest.txt", 11),
        ("kudoku20.txt", 20),
        ("forum_hardest.txt", 100),
    ):
        puzzles = (SHARED / name).read_text().split()[:take]
        results = sudoku.solve_many(puzzles)
        for puzzle, result in zip(puzzles, results):
            assert result.status == "solved", (name, puzzle)
            assert is_valid_solution(result.grid, puzzle)


# -- sizes and shapes ---------------------------------------------------------
@pytest.mark.parametrize(
    "box",
    [(2, 2), (2, 3), (3, 2), (2, 4), (3, 3), (3, 4), (4, 4), (5, 5), (6, 6)],
)
def test_empty_grid_of_every_shape(box):
    n = box[0] * box[1]
    solution = sudoku.solve(np.zeros((n, n), int), box=box)
    assert solution.box == box
    assert is_valid_solution(solution, np.zeros((n, n), int))


def test_small_grids_against_brute_force():
    rng = np.random.default_rng(7)
    for box in ((2, 2), (2, 3)):
        n = box[0] * box[1]
        base = sudoku.solve(np.zeros((n, n), int), box=box).cells
        for _ in range(12):
            cells = base.copy()
            keep = rng.random((n, n)) < (0.45 if n == 4 else 0.5)
            cells[~keep] = 0
            # relabel digits so the puzzles are not all alike
            perm = np.concatenate([[0], rng.permutation(n) + 1])
            cells = perm[cells]
            want = brute_count(cells, box)
            assert sudoku.count(cells, box=box) == want
            result = sudoku.solve_many([cells], box=box, limit=None)[0]
            assert result.count == want
            assert is_valid_solution(result.grid, cells)


# -- solve_many ---------------------------------------------------------------
def test_solve_many_mixes_good_and_bad():
    top = lines("sudoku_top95.txt")[:3]
    special = tagged("sudoku_special.txt")
    batch = [
        top[0],
        "x" * 81,
        special[3][0],
        top[1],
        "." * 16,
        special[6][0],
        special[10][0],
        top[2],
        "1" * 80,
        parse(top[0]),
        parse(top[0]).cells,
        "." * 36,
    ]
    results = sudoku.solve_many(batch)
    status = [r.status for r in results]
    assert status == [
        "solved",
        "invalid",
        "invalid",
        "solved",
        "multiple",
        "no solution",
        "multiple",
        "solved",
        "invalid",
        "solved",
        "solved",
        "multiple",
    ]
    assert "bad character 'x' at row 1, column 1" in results[1].error
    assert "givens conflict" in results[2].error
    assert "wrong size" in results[8].error
    for puzzle, result in zip(batch, results):
        if result.grid is not None:
            assert is_valid_solution(result.grid, puzzle)
        assert bool(result) == (result.status == "solved")


def test_solve_many_on_an_array_stack_and_limits():
    puzzles = lines("sudoku_17clue_50.txt")[:10] + [
        lines("sudoku_special.txt")[3][:81]
    ]
    stack = np.stack([parse(p).cells for p in puzzles])
    results = sudoku.solve_many(stack)
    assert [r.status for r in results] == ["solved"] * 10 + ["invalid"]
    assert all(
        is_valid_solution(r.grid, p) for r, p in zip(results[:10], puzzles)
    )
    first_only = sudoku.solve_many(["." * 16] * 3, limit=1)
    assert [r.status for r in first_only] == ["solved"] * 3
    counted = sudoku.solve_many(["." * 16, "1" + "." * 15], limit=None)
    assert [r.count for r in counted] == [288, 72]
    broken = stack[:3].copy()
    broken[1, 2, 3] = 10
    status = [r.status for r in sudoku.solve_many(broken)]
    assert status == ["solved", "invalid", "solved"]
    assert (
        "bad value 10 at row 3, column 4" in sudoku.solve_many(broken)[1].error
    )
    arrays = sudoku.solve_cells(stack)
    assert arrays.solutions.shape == stack.shape
    assert sudoku.STATUSES[arrays.status[-1]] == "invalid"
    assert sudoku.solve_many([]) == []


def test_threads_give_the_same_answers():
    puzzles = lines("sudoku_17clue_50.txt") + lines("sudoku_top95.txt")
    one = sudoku.solve_many(puzzles, threads=1)
    two = sudoku.solve_many(puzzles, threads=2)
    assert [r.grid for r in one] == [r.grid for r in two]


def test_node_budget_reports_unknown():
    puzzle = tagged("sudoku_named.txt")[0][0]
    result = sudoku.solve_many([puzzle], max_nodes=3)[0]
    assert result.status == "unknown" and result.grid is None


def test_solution_keeps_input_layout_in_batches():
    puzzle = lines("sudoku_top95.txt")[0].replace(".", "0")
    result = sudoku.solve_many([puzzle])[0]
    assert result.grid.format() == str(result.grid)
    assert parse(result.grid.format("csv")) == result.grid


def test_encoding_sizes():
    problem = sudoku.base_problem(3, 3)
    assert len(problem) == 729 and len(problem.primary) == 324
    assert sudoku.base_problem(3, 3) is problem


# -- restarts -----------------------------------------------------------------
def test_luby_sequence():
    from sudoku.solver import luby

    assert [luby(i) for i in range(1, 16)] == [
        1,
        1,
        2,
        1,
        1,
        2,
        4,
        1,
        1,
        2,
        1,
        1,
        2,
        4,
        8,
    ]


@pytest.mark.parametrize("box", [(2, 2), (2, 3), (3, 3), (4, 4)])
def test_symmetries_map_solutions_to_solutions(box):
    from sudoku.solver import Symmetry

    n = box[0] * box[1]
    solution = sudoku.solve(np.zeros((n, n), int), box=box)
    rng = np.random.default_rng(3)
    for _ in range(5):
        sym = Symmetry.random(rng, box)
        moved = sym.apply(solution.cells[None])
        assert is_valid_solution(sudoku.Grid(moved[0], box), moved[0])
        assert np.array_equal(sym.undo(moved)[0], solution.cells)


def test_restarts_keep_answers_exact(monkeypatch):
    from sudoku import solver

    monkeypatch.setattr(solver, "RESTART_NODES", 8)
    special = tagged("sudoku_special.txt")
    puzzles = lines("sudoku_top95.txt")[:6] + [p for p, _ in special[6:15]]
    results = sudoku.solve_many(puzzles)
    want = ["solved"] * 6 + ["no solution"] * 4 + ["multiple"] * 5
    assert [r.status for r in results] == want
    for puzzle, result in zip(puzzles, results):
        if result.grid is not None:
            assert is_valid_solution(result.grid, puzzle)
    assert sudoku.count(special[14][0]) == 125
    assert is_valid_solution(sudoku.solve(puzzles[0]), puzzles[0])
