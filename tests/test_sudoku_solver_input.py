"""The solver's documented errors and answers at its edges."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import sudoku
from dlx import BudgetExhausted
from sudoku import InvalidPuzzle, kernels
from sudoku.solver import (
    STATUSES,
    decode,
    given_options,
    option_items,
    search_stack,
    solve_cells,
)

FOUR = "1234341221434321"


@pytest.mark.parametrize("value", [-1, 5, 99])
def test_solve_cells_refuses_values_out_of_range(value):
    cells = np.zeros((2, 4, 4), int)
    cells[1, 2, 3] = value
    with pytest.raises(ValueError, match=r"values 0\.\.4"):
        solve_cells(cells)


@pytest.mark.parametrize("shape", [(4, 4), (1, 4, 5), (1, 2, 4, 4)])
def test_solve_cells_wants_a_stack(shape):
    with pytest.raises(ValueError, match=r"shape \(B, n, n\)"):
        solve_cells(np.zeros(shape, int))


def test_solve_cells_statuses_and_limits():
    full = sudoku.parse(FOUR).cells
    none = full.copy()
    none[0, 0] = 0
    none[1, 0] = 0
    none[0, 1] = 0
    none[3, 3] = 0
    clash = full.copy()
    clash[0, 0] = 2
    stack = np.array([full, np.zeros((4, 4), int), clash, full])
    stack[3, :, :] = 0
    stack[3, 0] = [1, 2, 3, 4]
    result = solve_cells(stack, threads=1)
    assert [STATUSES[k] for k in result.status] == [
        "solved",
        "multiple",
        "invalid",
        "multiple",
    ]
    assert result.counts.tolist() == [1, 2, 0, 2]
    assert (result.solutions[0] == full).all()
    assert sudoku.is_valid_solution(result.solutions[1])
    assert (result.solutions[2] == 0).all()
    counted = solve_cells(stack, limit=None, threads=1)
    assert counted.counts.tolist() == [1, 288, 0, 12]
    first = solve_cells(stack, limit=1, threads=1)
    assert first.counts.tolist() == [1, 1, 0, 1]
    assert [STATUSES[k] for k in first.status] == [
        "solved",
        "solved",
        "invalid",
        "solved",
    ]
    empty = solve_cells(np.zeros((0, 4, 4), int))
    assert empty.status.shape == (0,)


@pytest.mark.parametrize("limit", [0, -2, 1.5, True, "2"])
def test_limits_must_be_positive_integers(limit):
    with pytest.raises((TypeError, ValueError), match="limit"):
        sudoku.count("." * 16, limit)
    with pytest.raises((TypeError, ValueError), match="limit"):
        sudoku.solve_many(["." * 16], limit=limit)
    with pytest.raises((TypeError, ValueError), match="limit"):
        solve_cells(np.zeros((1, 4, 4), int), limit=limit)


def test_counts_with_and_without_budgets():
    assert sudoku.count("." * 16) == 288
    assert sudoku.count("." * 16, 10) == 10
    assert sudoku.count("." * 16, max_nodes=10**6) == 288
    assert sudoku.count("." * 16, 7, max_nodes=10**6) == 7
    with pytest.raises(BudgetExhausted):
        sudoku.count("." * 81, max_nodes=5)
    with pytest.raises(BudgetExhausted):
        sudoku.solve("." * 81, max_nodes=5)
    assert sudoku.is_unique(FOUR[:-1] + ".")
    assert not sudoku.is_unique("." * 16)
    assert sudoku.solve(FOUR[:-1] + ".", max_nodes=1000) == sudoku.parse(FOUR)
    assert sudoku.solve(".23..1..4.......", max_nodes=1000) is None
    assert sudoku.solve(".23..1..4.......") is None


def test_clashing_givens_are_invalid_everywhere():
    clash = "11" + "." * 14
    for call in (sudoku.solve, sudoku.count, sudoku.is_unique):
        with pytest.raises(InvalidPuzzle, match="givens conflict"):
            call(clash)
    result = sudoku.solve_many([clash])[0]
    assert result.status == "invalid" and "givens conflict" in result.error


def test_encoding_round_trip():
    n = 6
    items = option_items(2, 3)
    assert items.shape == (n**3, 4)
    assert items.max() == 4 * n * n - 1
    # every item is in exactly n options (each cell takes n digits, ...)
    assert (np.bincount(items.ravel()) == n).all()
    grid = sudoku.solve("." * 36, (2, 3))
    options, starts = given_options(grid.cells[None])
    assert starts.tolist() == [0, 36]
    assert (decode(options, n) == grid.cells).all()
    # box items: option of r3c4 digit 1 names box 1*... in reading order
    r, c, d = 2, 3, 0
    assert (
        items[(r * n + c) * n + d][3]
        == 3 * n * n + ((r // 2) * 2 + c // 3) * n + d
    )


def test_search_stack_budget_reports_minus_two():
    counts, solutions, nodes = search_stack(
        np.zeros((2, 9, 9), np.int8), (3, 3), 2, max_nodes=5
    )
    assert counts.tolist() == [-2, -2] and (solutions == 0).all()
    assert (nodes > 0).all()


def test_results_compare_and_print():
    a, b = sudoku.solve_many([FOUR, FOUR])
    assert a == b and bool(a) and a.count == 1
    assert "solved" in repr(a)
    bad = sudoku.solve_many(["x"])[0]
    assert not bad and bad != a and bad.grid is None


def test_engine_calls_in_chunks_give_the_same_answers(monkeypatch):
    import sudoku.solver as solver

    puzzles = [
        "." * 16,
        FOUR,
        ".23..1..4.......",
        FOUR[:-1] + ".",
        "11" + "." * 14,
    ]
    whole = solver.solve_many(puzzles, threads=1)
    monkeypatch.setattr(solver, "ENGINE_CHUNK", 2)
    assert solver.solve_many(puzzles, threads=1) == whole
    assert [r.status for r in whole] == [
        "multiple",
        "solved",
        "no solution",
        "solved",
        "invalid",
    ]


def test_array_stacks():
    stack = np.zeros((3, 4, 4), np.int64)
    stack[0] = sudoku.parse(FOUR).cells
    stack[1, 0, 0] = 5
    stack[2, 3, 3] = -1
    results = sudoku.solve_many(stack)
    assert [r.status for r in results] == ["solved", "invalid", "invalid"]
    assert results[1].error == (
        "bad value 5 at row 1, column 1: a 4x4 grid uses 1-4 (0 = empty)"
    )
    assert results[2].error.startswith("bad value -1 at row 4, column 4")
    assert results[0].grid == sudoku.parse(FOUR)
    with pytest.raises(InvalidPuzzle, match="integer array"):
        sudoku.solve_many(np.zeros((2, 4, 4), float))
    with pytest.raises(InvalidPuzzle, match="shape"):
        sudoku.solve_many(np.zeros((2, 4, 5), int))
    boxed = sudoku.solve_many(np.zeros((1, 6, 6), int), (3, 2), limit=1)
    assert boxed[0].grid.box == (3, 2)
    assert sudoku.is_valid_solution(boxed[0].grid, box=(3, 2))


def test_batches_keep_each_puzzles_layout_and_box():
    pretty = sudoku.parse(FOUR[:-1] + ".").pretty()
    results = sudoku.solve_many(
        [pretty, FOUR[:-1] + "0", "." * 36, sudoku.parse("." * 36, (3, 2))],
        limit=1,
    )
    assert results[0].grid.format() == sudoku.parse(FOUR).pretty()
    assert results[1].grid.format() == FOUR
    assert results[2].grid.box == (2, 3) and results[3].grid.box == (3, 2)
    assert sudoku.is_valid_solution(results[3].grid, box=(3, 2))


def test_restart_symmetries_round_trip():
    from sudoku.solver import Symmetry, luby

    rng = np.random.default_rng(1)
    for box in [(2, 2), (2, 3), (3, 2), (3, 3)]:
        n = box[0] * box[1]
        grid = sudoku.solve(np.zeros((n, n), int), box).cells[None]
        for _ in range(5):
            g = Symmetry.random(rng, box)
            moved = g.apply(grid)
            assert (g.undo(moved) == grid).all()
            assert sudoku.is_valid_solution(moved[0], box=box)
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


def test_restarts_answer_the_same(monkeypatch):
    import sudoku.solver as solver

    puzzles = [".23..1..4.......", FOUR[:-1] + ".", "." * 16]
    plain = solver.solve_many(puzzles, threads=1)
    monkeypatch.setattr(solver, "RESTART_NODES", 1)
    restarted = solver.solve_many(puzzles, threads=1)
    assert [r.status for r in restarted] == [r.status for r in plain]
    assert restarted[1].grid == plain[1].grid


def test_solve_cells_takes_any_whole_number_type():
    for dtype in (float, np.int8, np.uint8, np.int64):
        result = solve_cells(np.zeros((1, 4, 4), dtype), limit=1)
        assert STATUSES[result.status[0]] == "solved"
        assert sudoku.is_valid_solution(result.solutions[0])


def test_solve_cells_counts_nothing_for_no_solution_or_a_budget():
    none = sudoku.parse(".23..1..4.......").cells
    result = solve_cells(np.array([none, sudoku.parse(FOUR).cells]), threads=1)
    assert result.counts.tolist() == [0, 1]
    assert STATUSES[result.status[0]] == "no solution"
    assert (result.solutions[0] == 0).all() and result.nodes[0] > 0
    budget = solve_cells(np.zeros((1, 9, 9), int), max_nodes=3, threads=1)
    assert STATUSES[budget.status[0]] == "unknown"
    assert budget.counts.tolist() == [0] and budget.nodes[0] > 0


@pytest.mark.parametrize("run", ["compiled", "plain"])
@pytest.mark.parametrize("dtype", [np.int8, np.int64])
@given(data=st.data())
@settings(max_examples=30, deadline=None)
def test_kernels_encode_and_decode_as_the_encoding_says(run, dtype, data):
    """``given_options`` and ``fill`` (sudoku.kernels), compiled and as
    the plain Python they run as at a command's start, against the
    encoding written out: option ``cell*n + digit - 1``, rising."""
    n = data.draw(st.sampled_from([1, 4, 9, 16]))
    batch = data.draw(st.integers(0, 5))
    cells = np.array(
        data.draw(
            st.lists(
                st.lists(st.integers(0, n), min_size=n * n, max_size=n * n),
                min_size=batch,
                max_size=batch,
            )
        ),
        dtype,
    ).reshape(batch, n * n)
    want = [
        [c * n + int(v) - 1 for c, v in enumerate(row) if v]
        for row in cells.tolist()
    ]
    encode, fill = kernels.given_options, kernels.fill
    if run == "plain":
        encode, fill = encode.py_func, fill.py_func
    options, starts = encode(cells, n)
    assert starts.tolist() == np.cumsum([0] + [len(w) for w in want]).tolist()
    assert options.tolist() == [o for w in want for o in w]
    # Each row's options, -1-padded, filled into an empty grid: the cells
    # come back; a row of -1 leaves its grid as it was.
    width = max(map(len, want), default=0) + 1
    found = np.full((batch, width), -1, np.int32)
    for b, w in enumerate(want):
        found[b, : len(w)] = w
    grids = np.zeros_like(cells)
    fill(grids, found, n)
    assert (grids == cells).all()
