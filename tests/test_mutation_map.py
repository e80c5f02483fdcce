"""The mutation map (``[tool.mutation.modules]`` in pyproject.toml) stays
whole: every module of dlx/ and sudoku/ is mapped to tests that exist, and
every harmless key names exactly one mutant (issue 31)."""

import importlib.util
import sys
from pathlib import Path

import pytest

try:
    import tomllib
except ImportError:  # Python 3.10
    tomllib = pytest.importorskip("tomli")

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def mutate():
    spec = importlib.util.spec_from_file_location(
        "mutate_tool", ROOT / "tools" / "mutate.py"
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks itself up there
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def config():
    with open(ROOT / "pyproject.toml", "rb") as f:
        return tomllib.load(f)["tool"]["mutation"]


def test_every_module_is_mapped_to_tests_that_exist(mutate, config):
    assert mutate.check_map(config["modules"], config.get("skip", {})) == []


def test_every_package_module_has_an_entry(config):
    modules = {
        p.relative_to(ROOT).as_posix()
        for package in ("dlx", "sudoku")
        for p in (ROOT / package).rglob("*.py")
    }
    assert modules <= set(config["modules"]) | set(config.get("skip", {}))


def test_a_module_left_out_is_reported(mutate, config):
    modules = dict(config["modules"])
    del modules["dlx/problems/packing.py"]
    problems = mutate.check_map(modules, {})
    assert problems == [
        "dlx/problems/packing.py: neither in "
        "[tool.mutation.modules] nor in [tool.mutation.skip]"
    ]


def test_a_missing_test_file_is_reported(mutate, config):
    modules = dict(config["modules"])
    modules["dlx/problems/lattice.py"] = {"tests": ["tests/test_nothing.py"]}
    problems = mutate.check_map(modules, {})
    assert problems == [
        "dlx/problems/lattice.py: its test "
        "tests/test_nothing.py does not exist"
    ]


def test_a_stale_harmless_key_is_reported(mutate, config):
    modules = dict(config["modules"])
    modules["dlx/formats.py"] = {
        "tests": ["tests/test_formats.py"],
        "harmless": {"dlx/formats.py:149:4 x": "?"},
    }
    problems = mutate.check_map(modules, {})
    assert len(problems) == 1 and "names no mutant" in problems[0]


SOURCE = '''
def f(x, limit=3):
    """Doc."""
    if x > limit:
        raise ValueError("big")
    return x + 1
'''

# The same code after an edit above it and a reformatting.
EDITED = '''
import os


def g():
    return 0


def f(x: int,
      limit: int = 3) -> int:
    """Doc."""
    if (x >
            limit):
        raise ValueError('big')
    return (x
            + 1)
'''


def test_keys_survive_edits_elsewhere_and_reformatting(mutate):
    before = {m.key for m in mutate.mutants("m.py", SOURCE)}
    after = {
        m.key for m in mutate.mutants("m.py", EDITED) if m.function == "f"
    }
    assert before == after
    assert "m.py::f::if x > limit: :: Gt->GtE" in before
    assert "m.py::f::return x + 1 :: Add->Sub" in before
    assert "m.py::f::def f(x, limit=3): :: 3->4" in before


def test_an_edited_statement_gets_a_new_key(mutate):
    before = {m.key for m in mutate.mutants("m.py", SOURCE)}
    after = {
        m.key for m in mutate.mutants("m.py", SOURCE.replace("x + 1", "x + 2"))
    }
    assert "m.py::f::return x + 1 :: Add->Sub" in before - after
