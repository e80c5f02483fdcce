"""Rating under variants (issue 25, item 8): ``samples`` averages over
relabellings that change the search, as it does for classic rules.

Renaming digits alone left the whole search of a unique puzzle the same
size more often than not (every x puzzle got one rating whatever
``samples``); a variant's puzzle is now also turned by the maps of the
grid that keep its rules (rows or columns reversed, transposed), a jigsaw
map turned with it.  Each such map must keep the puzzle's solutions
exactly."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import sudoku
from sudoku.cli import main
from sudoku.encode import Variant
from sudoku.rating import _maps_keeping, variant_symmetry
from sudoku.solver import search_stack

# Otto Janko's Chaos Sudoku 108 (tests/data/sudoku_variants.txt).
JIGSAW = (
    "999998888555998888555998333555111333222111333222111444222766444"
    "777766444777766666"
)

VARIANTS = [
    "x",
    "windoku",
    "anti-knight",
    "anti-king",
    "x+anti-king",
    "jigsaw",
]


def variant(name, n=9):
    if name == "jigsaw":
        return (
            Variant("jigsaw", JIGSAW)
            if n == 9
            else Variant("jigsaw", "AAABBBAAABBBCCCDDDCCCDDDEEEFFFEEEFFF")
        )
    return Variant(name)


def puzzles_of(name):
    v = variant(name)
    return v, [sudoku.generate(9, variant=v, seed=seed) for seed in range(8)]


# The mean change of the score from 1 sample to 6, over 8 puzzles:
# 0.16-0.6 by variant now; 0.002-0.04 when digits were only renamed.
SPREAD = 0.1


@pytest.mark.parametrize("name", VARIANTS)
def test_samples_change_the_ratings(name):
    v, puzzles = puzzles_of(name)
    change = [
        abs(
            sudoku.rate(p, variant=v, samples=1).score
            - sudoku.rate(p, variant=v, samples=6).score
        )
        for p in puzzles
    ]
    assert sum(change) / len(change) > SPREAD, change


@pytest.mark.parametrize("name", VARIANTS)
def test_the_command_takes_samples_into_account(capsys, name, tmp_path):
    _, puzzles = puzzles_of(name)
    path = tmp_path / "p.txt"
    path.write_text("\n".join(p.format("line") for p in puzzles) + "\n")
    extra = ["--regions", JIGSAW] if name == "jigsaw" else []
    scores = []
    for samples in ("1", "6"):
        assert (
            main(
                [
                    "rate",
                    str(path),
                    "--variant",
                    name,
                    "--samples",
                    samples,
                    "-q",
                    *extra,
                ]
            )
            == 0
        )
        scores.append(
            [
                float(line.split()[2])
                for line in capsys.readouterr().out.splitlines()
            ]
        )
    change = [abs(a - b) for a, b in zip(*scores)]
    assert sum(change) / len(change) > SPREAD, change


def test_the_same_puzzle_always_gets_the_same_rating():
    v = Variant("x")
    p = sudoku.generate(9, variant=v, seed=1)
    assert len({sudoku.rate(p, variant=v) for _ in range(3)}) == 1
    assert sudoku.rate_many([p], variant=v)[0] == sudoku.rate(p, variant=v)


@pytest.mark.parametrize("box", [(2, 2), (2, 3), (3, 3), (2, 4)])
@pytest.mark.parametrize("name", VARIANTS)
def test_the_maps_keep_the_rules(box, name):
    n = box[0] * box[1]
    if name == "jigsaw" and n not in (6, 9):
        return
    try:
        v = variant(name, n)
        v.units(box)
        v.cliques(box)
    except ValueError:  # (windoku needs room for its windows)
        return
    maps = _maps_keeping(box, v)
    assert maps[0][:3] == (False, False, False)  # the identity
    if name != "jigsaw" and box[0] == box[1] and name != "windoku":
        assert len(maps) == 8  # the square's symmetries all keep them


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(st.sampled_from(VARIANTS), st.integers(0, 10_000), st.data())
def test_a_moved_puzzle_has_the_moved_solution(name, seed, data):
    v = variant(name)
    puzzle = sudoku.generate(9, variant=v, seed=seed % 7)
    cells = puzzle.cells[None]
    _, solution, _ = search_stack(cells, (3, 3), 2, variant=v)
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32)))
    symmetry, moved = variant_symmetry(rng, (3, 3), v)
    counts, found, _ = search_stack(
        symmetry.apply(cells), (3, 3), 2, variant=moved
    )
    assert counts.tolist() == [1]
    assert np.array_equal(symmetry.undo(found), solution)
