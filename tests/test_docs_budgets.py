"""docs/budgets.md and the doctests of the modules issue 25 added are
run, so that the page cannot drift from what the code does."""

import doctest
from pathlib import Path

import pytest

import dlx.cli.input
import dlx.shorten
import sudoku.budget

PAGE = Path(__file__).resolve().parent.parent / "docs" / "budgets.md"


def test_the_budgets_page():
    result = doctest.testfile(
        str(PAGE), module_relative=False, optionflags=doctest.ELLIPSIS
    )
    assert result.attempted > 5 and result.failed == 0


@pytest.mark.parametrize("module", [dlx.shorten, dlx.cli.input, sudoku.budget])
def test_module_examples(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
