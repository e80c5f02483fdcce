"""Seeds, sizes and counts at every way in (issue 25, item 3 and the
size limits of item 8): a bad value is one sentence naming the argument
(TypeError/ValueError in Python, exit 2 on the command line, 400 from the
web API), never a traceback from numpy; and every size limit comes from
one place (``sudoku.generator.MIN_SIZE``/``MAX_SIZE``)."""

import numpy as np
import pytest

import sudoku
from dlx.cli import main as dlx_main
from dlx.problems.queens import queens
from sudoku.cli import main as sudoku_main
from sudoku.generator import MAX_SIZE, MIN_SIZE, generate_cells


def run(main, capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def one_sentence(err, *words):
    lines = err.strip().splitlines()
    assert "Traceback" not in err
    assert all(word in lines[-1] for word in words), err
    return lines[-1]


# -- seeds ---------------------------------------------------------------------

GENERATORS = {
    "generate": lambda seed: sudoku.generate(4, seed=seed),
    "generate_many": lambda seed: sudoku.generate_many(2, 4, seed=seed),
    "generate_many none": lambda seed: sudoku.generate_many(0, 4, seed=seed),
    "generate_cells": lambda seed: generate_cells(1, (2, 2), seed=seed),
}


@pytest.mark.parametrize("make", GENERATORS)
@pytest.mark.parametrize(
    "seed,error",
    [
        (-1, ValueError),
        (-(2**70), ValueError),
        ([1, -2], ValueError),
        (1.5, TypeError),
        (1.0, TypeError),
        ("1", TypeError),
        (True, TypeError),
        (np.float64(2), TypeError),
        (object(), TypeError),
    ],
)
def test_a_bad_seed_names_seed(make, seed, error):
    with pytest.raises(error, match="seed") as raised:
        GENERATORS[make](seed)
    assert "numpy" not in str(raised.value)
    assert len(str(raised.value)) < 200


@pytest.mark.parametrize(
    "seed",
    [0, 7, 2**80, np.int64(3), np.uint8(3), [1, 2], np.random.SeedSequence(5)],
)
def test_every_seed_numpy_takes_still_works(seed):
    assert sudoku.generate(4, seed=seed).givens > 0


def test_a_seed_makes_the_same_puzzles_every_time():
    assert sudoku.generate(9, seed=12) == sudoku.generate(9, seed=12)
    assert sudoku.generate_many(3, 6, seed=4) == sudoku.generate_many(
        3, 6, seed=4
    )
    assert sudoku.generate(9, seed=np.int64(12)) == sudoku.generate(9, seed=12)


@pytest.mark.parametrize(
    "seed", ["-1", "-7", "1.5", "x", "", "\u00b2", "\u0663"]
)
def test_the_generate_command_refuses_a_bad_seed(capsys, seed):
    status, out, err = run(sudoku_main, capsys, "generate", "--seed", seed)
    assert status == 2 and out == ""
    one_sentence(err, "--seed")


def test_the_generate_command_takes_any_whole_seed(capsys):
    status, out, _ = run(
        sudoku_main,
        capsys,
        "generate",
        "--seed",
        "9" * 30,
        "--size",
        "4",
        "-q",
    )
    assert status == 0 and len(out.strip()) == 16


@pytest.mark.parametrize("seed", [-1, 1.5, "1", True, [1]])
def test_the_web_api_names_seed(seed):
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from sudoku.web.app import create_app

    with TestClient(create_app(warm_up=False)) as client:
        answer = client.post("/api/generate", json={"seed": seed})
    assert answer.status_code == 400, answer.text
    assert "seed" in answer.json()["error"]


@pytest.mark.parametrize(
    "argv",
    [
        ["estimate", "-", "--seed", "-1"],
        ["estimate", "-", "--seed", "\u00b2"],
        ["queens", "6", "--estimate", "--seed", "x"],
        ["queens", "6", "--estimate", "--probes", "\u00b2"],
        ["queens", "6", "--count", "--jobs", "\u00b2"],
    ],
)
def test_the_dlx_command_refuses_a_bad_number(capsys, argv):
    status, out, err = run(dlx_main, capsys, *argv)
    assert status == 2 and out == ""
    line = one_sentence(err, argv[-2])
    assert "_whole" not in line and "invalid" not in line


@pytest.mark.parametrize(
    "seed,error", [(-1, ValueError), (1.5, TypeError), (True, TypeError)]
)
def test_the_estimate_names_seed(seed, error):
    with pytest.raises(error, match="seed"):
        queens(6).estimate(10, seed=seed)


# -- sizes and counts ---------------------------------------------------------


@pytest.mark.parametrize("size", [MIN_SIZE - 1, MAX_SIZE + 1, 0, -4, 100])
def test_sizes_out_of_range_name_the_range(size):
    with pytest.raises(
        ValueError,
        match=f"size must be between {MIN_SIZE} and {MAX_SIZE}, got {size}",
    ):
        sudoku.generate(size)


@pytest.mark.parametrize("size", [MIN_SIZE - 1, MAX_SIZE + 1, 100])
def test_the_command_refuses_the_same_sizes(capsys, size):
    status, out, err = run(
        sudoku_main, capsys, "generate", "--size", str(size)
    )
    assert status == 2 and out == ""
    one_sentence(err, "--size", f"{MIN_SIZE}", f"{MAX_SIZE}")


def test_the_help_gives_the_same_sizes(capsys):
    assert sudoku_main(["generate", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert f"{MIN_SIZE} to {MAX_SIZE}" in text


@pytest.mark.parametrize(
    "count,error",
    [(-1, ValueError), (1.5, TypeError), ("2", TypeError), (True, TypeError)],
)
def test_a_bad_count_names_count(count, error):
    with pytest.raises(error, match="count"):
        sudoku.generate_many(count, 4)


@pytest.mark.parametrize("samples,error", [(0, ValueError), (1.5, TypeError)])
def test_a_bad_samples_names_samples(samples, error):
    with pytest.raises(error, match="samples"):
        sudoku.rate("." * 16, samples=samples)


@pytest.mark.parametrize(
    "argv",
    [
        ["generate", "-n", "-1"],
        ["generate", "-n", "\u00b2"],
        ["generate", "--threads", "\u00b2"],
        ["rate", "x", "--samples", "0"],
        ["solve", "--example", "--threads", "\u0663"],
        ["serve", "--workers", "\u00b2"],
        ["serve", "--port", "\u00b2"],
    ],
)
def test_the_sudoku_command_names_the_flag(capsys, argv):
    status, out, err = run(sudoku_main, capsys, *argv)
    assert status == 2 and out == ""
    flag = argv[-2]
    line = one_sentence(err, flag)
    assert (
        "_count" not in line and "_whole" not in line and "_port" not in line
    )


# -- builders too large to build are refused before they are built -----------


@pytest.mark.parametrize(
    "argv",
    [
        ["queens", "100000", "--count"],
        ["langford", "100000", "--count"],
        ["rooks", "100000", "2", "--count"],
        ["debruijn", "40", "--count"],
        ["debruijn", "10", "--count"],
        ["debruijn", "4", "--symbols", "6"],
    ],
)
def test_huge_builders_are_usage_errors(capsys, argv):
    status, out, err = run(dlx_main, capsys, *argv)
    assert status == 2 and out == ""
    one_sentence(err, "at most 1,000,000")


def test_the_largest_builders_still_build(monkeypatch):
    from dlx.problems import debruijn, langford, queens as q, rooks

    for module in (debruijn, langford, q, rooks):
        monkeypatch.setattr(module, "MAX_OPTIONS", 100)
    assert len(q.queens(10)) == 100
    assert len(rooks.rooks(10, 1)) == 100
    assert len(debruijn.debruijn(1, 10)) == 100 - 9
    assert langford.langford(9).primary
    for build in (
        lambda: q.queens(11),
        lambda: rooks.rooks(11, 1),
        lambda: debruijn.debruijn(2, 10),
        lambda: langford.langford(10),
    ):
        with pytest.raises(ValueError, match="at most 100 are supported"):
            build()
