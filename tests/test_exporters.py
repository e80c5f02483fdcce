"""What leaves the model keeps its meaning, or is refused (issue 25,
item 6): ``to_matrix`` has no room for colors and bounds; ``dumps`` must
not merge two colors that print alike nor drop an empty option (which
would renumber the options after it); solutions shown as option lines
(``dlx solve``, the web API) carry their colors."""

import pytest
from hypothesis import HealthCheck, given, settings

from dlx import ExactCover, dumps, loads
from dlx.cli import main

from test_xcc import colored_problems


def colored():
    """The issue's problem: two solutions, both through colors."""
    p = ExactCover(["A", "B"], ["X"])
    p.add_option(["A", "X"], colors={"X": 0})
    p.add_option(["B", "X"], colors={"X": 0})
    p.add_option(["A", "X"], colors={"X": 1})
    p.add_option(["B", "X"], colors={"X": 1})
    return p


def test_to_matrix_refuses_colors():
    p = colored()
    assert p.count() == 2
    with pytest.raises(ValueError, match="colors") as error:
        p.to_matrix()
    assert "option 0" in str(error.value) and "dumps" in str(error.value)


@pytest.mark.parametrize("bound", [(2, 3), (0, 1), 2, (0, 5)])
def test_to_matrix_refuses_bounds(bound):
    p = ExactCover(["A", "B"], bounds={"A": bound})
    p.add_options([["A"], ["A", "B"], ["B"]])
    with pytest.raises(ValueError, match="bounds") as error:
        p.to_matrix()
    assert "'A'" in str(error.value)


def test_to_matrix_keeps_what_a_matrix_holds():
    p = ExactCover(["A", "B"], ["X"], bounds={"A": (1, 1)})
    p.add_options([["A", "X"], ["B"], ["A", "B"]])
    m = p.to_matrix()
    assert m.tolist() == [[1, 0, 1], [0, 1, 0], [1, 1, 0]]
    assert ExactCover.from_matrix(m, secondary=1).count() == p.count() == 2


def test_dumps_refuses_two_colors_that_print_alike():
    p = ExactCover(["A", "B"], ["X"])
    p.add_option(["A", "X"], colors={"X": 1})
    p.add_option(["B", "X"], colors={"X": "1"})
    assert p.count() == 0  # 1 and "1" are two colors
    with pytest.raises(ValueError, match="same text"):
        dumps(p)


def test_dumps_refuses_an_empty_option():
    p = ExactCover.from_matrix([[1, 0], [0, 0], [0, 1]])
    assert p.solve() == [0, 2]
    with pytest.raises(ValueError, match="option 1 is empty"):
        dumps(p)


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(colored_problems(bounded=True))
def test_what_dumps_writes_loads_reads_back(case):
    nitems, nprimary, options, colors, bounds = case
    p = ExactCover(
        [f"p{i}" for i in range(nprimary)],
        [f"s{i}" for i in range(nprimary, nitems)],
        bounds={f"p{i}": uv for i, uv in bounds.items()},
    )
    names = list(p.items)
    for items, cols in zip(options, colors):
        p.add_option(
            [names[i] for i in items],
            colors={names[i]: c for i, c in cols.items()},
        )
    if not p.primary:
        return
    q = loads(dumps(p))
    assert q.options == p.options
    assert [q.option_colors(k) for k in range(len(q))] == [
        p.option_colors(k) for k in range(len(p))
    ]
    assert {k: v for k, v in q.bounds.items() if v != (1, 1)} == {
        k: v for k, v in p.bounds.items() if v != (1, 1)
    }
    assert sorted(q.solutions(limit=200)) == sorted(p.solutions(limit=200))


def test_solutions_are_shown_with_their_colors(tmp_path, capsys):
    text = "A B | X\nA X:0\nB X:0\nA X:1\nB X:1\n"
    p = loads(text)
    assert [p.option_line(k) for k in range(4)] == [
        "A X:0",
        "B X:0",
        "A X:1",
        "B X:1",
    ]
    path = tmp_path / "colored.dlx"
    path.write_text(text)
    assert main(["solve", str(path), "--all"]) == 0
    shown = capsys.readouterr().out.split("\n\n")
    assert shown == [
        "solution 1:\nA X:0\nB X:0",
        "solution 2:\nA X:1\nB X:1\n",
    ]


def test_the_web_api_shows_colors():
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from sudoku.web.app import create_app

    with TestClient(create_app(warm_up=False)) as client:
        answer = client.post(
            "/api/exact-cover",
            json={
                "builder": "dlx",
                "mode": "solutions",
                "problem": "A B | X\nA X:1\nB\n",
            },
        )
    assert answer.status_code == 200, answer.text
    assert answer.json()["solutions"][0]["text"] == "A X:1\nB"
