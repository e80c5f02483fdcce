"""Long names and long input (issue 25, item 7).

Reading Knuth's format accepts names longer than his 8 characters and
colors longer than one, in the library as in ``dlx solve`` (one default);
writing keeps his limits unless asked.  And no error message quotes a
culprit whole: every message of ``dlx`` and ``sudoku`` that names what the
user wrote cuts it (``dlx.shorten``), so a 200,000-character name makes a
short sentence, not a 200 KB one."""

import io
import sys

import numpy as np
import pytest

import sudoku
from dlx import ExactCover, dumps, formats, load, loads
from dlx.cli import main as dlx_main
from dlx.problems import Polycube, Polyhex
from dlx.problems.polyomino import Polyomino, parse_shapes, piece_set
from dlx.problems.tiling import pieces, tiling
from dlx.shorten import shorten
from sudoku.cli import main as sudoku_main

LONG = "N" * 200_000
# The longest message allowed: the sentence, a few quotations, locations.
SHORT = 600


def test_loads_reads_long_names_and_colors_by_default(tmp_path):
    text = "Alongname Bb | Xlongsecondary\nAlongname Xlongsecondary:red\nBb\n"
    p = loads(text)
    assert p.primary == ("Alongname", "Bb") and p.count() == 1
    assert p.option_colors(0) == {"Xlongsecondary": "red"}
    path = tmp_path / "long.dlx"
    path.write_text(text)
    assert load(path).options == p.options
    # The same as the command (which always read them).
    assert dlx_main(["solve", str(path), "--count"]) == 0
    # Writing keeps Knuth's limits unless asked.
    with pytest.raises(ValueError, match="longer than 8"):
        dumps(p)
    with pytest.raises(ValueError, match="longer than 1"):
        dumps(p, max_name_length=None)
    assert (
        loads(dumps(p, max_name_length=None, max_color_length=None)).options
        == p.options
    )
    # Knuth's limit on reading, when asked for.
    with pytest.raises(formats.DLXFormatError, match="longer than 8"):
        loads(text, max_name_length=formats.MAX_NAME_LENGTH)


def failing(call):
    with pytest.raises((ValueError, TypeError)) as error:
        call()
    return str(error.value)


def matrix_with_a_long_entry():
    m = np.array([[1, 0], [0, 1]], dtype=object)
    m[1, 1] = LONG
    return m


CALLS = {
    # dlx: the model
    "item named twice": lambda: ExactCover([LONG, LONG]),
    "unknown item": lambda: ExactCover(["A"]).add_option(["A", LONG]),
    "long option, unknown item": lambda: ExactCover(["A"]).add_option(
        ["A"] * 1 + [f"x{k}" for k in range(50_000)]
    ),
    "item twice in an option": lambda: ExactCover([LONG]).add_option(
        [LONG, LONG]
    ),
    "string option": lambda: ExactCover(["A"]).add_option(LONG),
    "not iterable": lambda: ExactCover(["A"]).add_option(10**100_0),
    "bounds, no such item": lambda: ExactCover(["A"], bounds={LONG: 2}),
    "bounds, secondary": lambda: ExactCover(["A"], [LONG], bounds={LONG: 2}),
    "bounds, not a pair": lambda: ExactCover([LONG], bounds={LONG: LONG}),
    "bounds, order": lambda: ExactCover([LONG], bounds={LONG: (3, 2)}),
    "color, not in option": lambda: ExactCover(["A"], ["X"]).add_option(
        ["A"], colors={"X": LONG}
    ),
    "color, primary": lambda: ExactCover(["A"], ["X"]).add_option(
        ["A"], colors={"A": LONG}
    ),
    "matrix entry": lambda: ExactCover.from_matrix(matrix_with_a_long_entry()),
    "given": lambda: ExactCover(["A"]).count(given=[LONG]),
    "givens of a batch": lambda: ExactCover(["A"]).solve_batch([[LONG]]),
    "limit": lambda: ExactCover(["A"]).count(limit=LONG),
    "algorithm": lambda: ExactCover(["A"]).count(algorithm=LONG),
    "memo": lambda: ExactCover(["A"]).count(memo=LONG),
    "choose": lambda: ExactCover(["A"]).count(memo=True, choose=LONG),
    # dlx: the format
    "format, unknown item": lambda: loads("A\n" + LONG + "\n"),
    "format, listed twice": lambda: loads(f"{LONG} {LONG}\n"),
    "format, name with ':'": lambda: loads(f"A:{LONG}\n"),
    "format, bad bound": lambda: loads(f"{LONG}|A\n"),
    "format, bad bound 2": lambda: loads(f"2:x{LONG}|A\n"),
    "format, secondary bound": lambda: loads(f"A | 2|{LONG}\n"),
    "format, twice in option": lambda: loads(f"{LONG}\n{LONG} {LONG}\n"),
    "format, color on primary": lambda: loads(f"A\nA:{LONG}\n"),
    "format, knuth's length": lambda: loads(f"{LONG}\n", max_name_length=8),
    "dumps, bad name": lambda: dumps(ExactCover([LONG + " x"])),
    "dumps, long name": lambda: dumps(ExactCover([LONG])),
    "dumps, bad color": lambda: dumps(_colored(LONG + " ")),
    "dumps, long color": lambda: dumps(_colored(LONG)),
    # dlx: the builders
    "polyomino board": lambda: Polyomino(LONG),
    "polyomino board 2": lambda: Polyomino("6x" + "9" * 5000),
    "polyomino set": lambda: piece_set(LONG),
    "polyomino shapes": lambda: parse_shapes("A\n\n" + "A" * 200_000),
    "polycube box": lambda: Polycube(LONG),
    "polycube set": lambda: Polycube("3x3x3", LONG),
    "polyhex board": lambda: Polyhex(LONG),
    "tiling pieces": lambda: pieces(LONG),
    "tiling board": lambda: tiling(LONG),
    # sudoku
    "puzzle": lambda: sudoku.solve(LONG),
    "puzzle row": lambda: sudoku.solve("1" * 80 + LONG),
    "puzzle csv": lambda: sudoku.solve(",".join(["1"] * 80 + [LONG])),
    "box": lambda: sudoku.solve("." * 81, box=LONG),
    "variant": lambda: sudoku.solve("." * 81, variant=LONG),
    "regions": lambda: sudoku.Variant("jigsaw", LONG),
    "difficulty": lambda: sudoku.generate(9, difficulty=LONG),
    "symmetry": lambda: sudoku.generate(9, symmetry=LONG),
    "format": lambda: sudoku.parse("." * 16).format(LONG),
    "limit of count": lambda: sudoku.count("." * 16, limit=LONG),
}


def _colored(color):
    p = ExactCover(["A"], ["X"])
    p.add_option(["A", "X"], colors={"X": color})
    return p


@pytest.mark.parametrize("name", CALLS)
def test_messages_cut_long_input(name):
    message = failing(CALLS[name])
    assert len(message) < SHORT, message[:SHORT] + "..."


@pytest.mark.parametrize(
    "argv",
    [
        ["solve", "-"],
        ["estimate", "-"],
        ["pentomino", LONG],
        ["pentomino", "6x10", "--pieces", LONG],
        ["polycube", LONG],
        ["polycube", "--box", LONG],
        ["polyhex", LONG],
        ["tiling", LONG, "4x4"],
        ["tiling", "dominoes", LONG],
    ],
)
def test_dlx_commands_cut_long_input(capsys, monkeypatch, argv):
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"A\n{LONG}\n"))
    status = dlx_main(argv)
    err = capsys.readouterr().err
    assert status in (1, 2) and 0 < len(err) < SHORT + 1000


@pytest.mark.parametrize(
    "argv",
    [
        ["solve", LONG],
        ["solve", "." * 81, "--variant", LONG],
        ["solve", "." * 81, "--regions", LONG],
        ["solve", "." * 81, "--box", LONG],
        ["generate", "--difficulty", LONG],
        ["rate", LONG],
        ["count", LONG],
    ],
)
def test_sudoku_commands_cut_long_input(capsys, argv):
    status = sudoku_main(argv)
    err = capsys.readouterr().err
    assert status in (1, 2) and 0 < len(err) < SHORT + 1000


def test_web_errors_cut_long_input():
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from sudoku.web.app import create_app

    bodies = {
        "/api/solve": [
            {"puzzle": LONG},
            {"puzzle": "." * 81, "box": LONG},
            {"puzzle": "." * 81, "variant": LONG},
            {"puzzle": "." * 81, "format": LONG},
            {LONG: 1},
        ],
        "/api/exact-cover": [
            {"problem": f"A\n{LONG}\n"},
            {"builder": LONG},
            {"builder": "pentomino", "board": LONG[:9000]},
            {"builder": "pentomino", "pieces": LONG},
        ],
        "/api/generate": [{"difficulty": LONG}, {"symmetry": LONG}],
        "/api/random": [{"set": LONG}],
    }
    with TestClient(create_app(warm_up=False)) as client:
        for path, cases in bodies.items():
            for body in cases:
                answer = client.post(path, json=body)
                assert answer.status_code == 400, (path, answer.text[:300])
                assert len(answer.json()["error"]) < SHORT, (
                    path,
                    answer.json()["error"][:300],
                )


def test_shorten():
    assert shorten("abc") == "'abc'"
    long = shorten(LONG)
    assert len(long) < 80 and "200,000 characters" in long
    assert shorten(LONG, quote=False).startswith("NNN")
    assert "10,000 items" in shorten(list(range(10_000)))
