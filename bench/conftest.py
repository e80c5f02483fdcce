"""Fixtures of the benchmark suite (``pytest bench/``; never in the default
run, whose testpaths is ``tests``).

The counting benchmarks read the DLX-format instances of
``shared/data/exactcover`` (the same instances, in the same option order,
that were measured with Knuth's DLX1, so nodes and updates compare with
DLX1's); the Sudoku benchmarks read ``shared/data/sudoku``.  A benchmark
whose file is absent is skipped.  ``DLX_BENCH_DATA`` points elsewhere.
"""

import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import peers as P  # noqa: E402


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "slow: a benchmark that runs for a minute or more "
        "(deselect with -m 'not slow')",
    )


def load_instance(filename):
    """Our ExactCover for a DLX file, built as ``compare.py`` builds it;
    skips when the file is absent."""
    path = os.path.join(P.EXACTCOVER_DIR, filename)
    if not os.path.exists(path):
        pytest.skip(f"{path} is absent")
    return P.to_exact_cover(P.read_dlx(path))


def load_puzzles(filename, limit=None):
    path = os.path.join(P.SUDOKU_DIR, filename)
    if not os.path.exists(path):
        pytest.skip(f"{path} is absent")
    return P.read_puzzles(path, limit)
