"""What a start-up loads: ``import dlx`` and ``import sudoku`` read the
version and nothing heavy (numba, numpy, the kernels, the builders load
when a name that needs them is first used), and every public name still
loads on first use.  Not a timed test: the modules a fresh interpreter
holds after each import are the same on any machine."""

import json
import subprocess
import sys

import pytest

HEAVY = ("numba", "numpy", "llvmlite")


def loaded_after(code: str) -> set[str]:
    """The modules a fresh interpreter holds after running ``code``."""
    probe = f"{code}\nimport sys, json\nprint(json.dumps(sorted(sys.modules)))"
    done = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        check=True,
    )
    return set(json.loads(done.stdout.splitlines()[-1]))


@pytest.mark.parametrize("package", ["dlx", "sudoku"])
def test_import_loads_nothing_heavy(package):
    loaded = loaded_after(f"import {package}; {package}.__version__")
    assert not [m for m in loaded if m.split(".")[0] in HEAVY]
    ours = sorted(m for m in loaded if m.split(".")[0] in ("dlx", "sudoku"))
    assert ours == sorted({"dlx", "dlx._version", package})


@pytest.mark.parametrize("package", ["dlx", "sudoku"])
def test_every_public_name_loads_on_first_use(package):
    module = __import__(package)
    for name in module.__all__:
        assert getattr(module, name) is not None, name
    assert set(module.__all__) <= set(dir(module))
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        module.nothing  # noqa: B018 (the attribute look-up is the test)


def test_names_are_the_modules_own():
    import dlx
    import sudoku
    from dlx.engines.base import Unsupported
    from dlx.problem import ExactCover
    from sudoku.encode import RULES

    assert dlx.ExactCover is ExactCover
    assert dlx.Unsupported is Unsupported
    assert sudoku.VARIANTS is RULES
    assert dlx.problems.queens.queens(6).count() == 4
