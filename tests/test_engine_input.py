"""Bad input to the engine's building API: one clear ValueError, and a
problem left exactly as it was."""

import numpy as np
import pytest

from dlx import ExactCover


@pytest.mark.parametrize("matrix, message", [
    ([[1, None]], r"entry \[0, 1\] is None"),
    ([[1, "1"]], r"entry \[0, 1\] is '1'"),
    ([[0, 1], [1, 0.5]], r"entry \[1, 1\] is 0.5"),
    ([[1, 0], [1]], "same length"),
    ([[1, 0], [0, -1]], r"entry \[1, 1\] is -1"),
])
def test_from_matrix_names_the_bad_entry(matrix, message):
    with pytest.raises(ValueError, match=message):
        ExactCover.from_matrix(matrix)


def test_from_matrix_accepts_booleans_and_floats_of_0_and_1():
    for matrix in ([[True, False], [False, True]], [[1.0, 0.0], [0.0, 1.0]]):
        assert ExactCover.from_matrix(matrix).count() == 1


@pytest.mark.parametrize("bad", [[[3], [9]], [[3], [3, 3]], [[3], []],
                                 [[3], 7], [[3], "xyz"]])
def test_add_options_is_all_or_nothing(bad):
    p = ExactCover(range(5))
    p.add_options([[0, 1], [2]])
    before = (p.options, p.to_matrix().tolist(), p.count())
    with pytest.raises(ValueError, match="option 3"):
        p.add_options(bad)
    assert (p.options, p.to_matrix().tolist(), p.count()) == before
    assert p.add_options([[3, 4]]) == [2]
    assert p.count() == 1


def test_add_options_takes_any_iterable_and_numbers_from_the_end():
    p = ExactCover("abc")
    assert p.add_options(iter([["a"], ["b"]])) == [0, 1]
    assert p.add_option(["c"]) == 2
    assert p.add_options([]) == []
    assert p.solve() == [0, 1, 2]
