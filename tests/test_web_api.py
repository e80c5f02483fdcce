"""The JSON API of `sudoku serve`, through Starlette's test client (and a
real uvicorn server on loopback for what only a socket shows)."""

import json
import socket
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from starlette.testclient import TestClient

import sudoku
from sudoku import InvalidPuzzle, is_valid_solution, parse
from sudoku.web import service
from sudoku.web.app import create_app
from sudoku.web.service import Settings

import weighted
from web_server import live_server

DATA = Path(__file__).parent / "data"
ESCARGOT = (
    "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4"
    "......7..7...3.."
)
CONFLICT = "11" + "." * 79


def special(tag):
    for line in (DATA / "sudoku_special.txt").read_text().splitlines():
        puzzle, _, found = line.partition(" ")
        if found == tag:
            return puzzle
    raise LookupError(tag)


TOP95 = (DATA / "sudoku_top95.txt").read_text().split()
HEX16 = (DATA / "sudoku_hexadoku16.txt").read_text().split()


@pytest.fixture(scope="module")
def client():
    app = create_app(Settings(workers=2, queue=64), warm_up=False)
    with TestClient(app) as c:
        yield c


def post(client, path, body, status=200):
    r = client.post(path, json=body)
    assert r.status_code == status, r.text
    assert r.headers["content-type"] == "application/json"
    return r.json()


def assert_error(r, status):
    """A JSON error: one sentence, no trace, the right status."""
    assert r.status_code == status, r.text
    data = r.json()
    assert isinstance(data["error"], str) and data["error"]
    assert "\n" not in data["error"] and "Traceback" not in r.text
    return data


# -- /api/solve ------------------------------------------------------------
def test_solve_unique_puzzle(client):
    data = post(client, "/api/solve", {"puzzle": ESCARGOT})
    assert data["status"] == "solved" and data["count"] == 1
    assert is_valid_solution(data["solution"], ESCARGOT)
    assert sudoku.solve(ESCARGOT).format() == data["solution"]
    assert data["cells"] == parse(data["solution"]).cells.tolist()
    assert data["nodes"] > 0 and data["ms"] >= 0
    assert data["n"] == 9 and data["box"] == "3x3"


def test_solve_answers_in_the_input_layout_or_a_chosen_one(client):
    pretty = parse(ESCARGOT).pretty()
    data = post(client, "/api/solve", {"puzzle": pretty})
    assert data["solution"] == sudoku.solve(pretty).format()
    assert data["solution"].count("\n") == pretty.count("\n")
    for style in ("line", "grid", "csv"):
        data = post(
            client, "/api/solve", {"puzzle": ESCARGOT, "format": style}
        )
        assert data["solution"] == sudoku.solve(ESCARGOT).format(style)


def test_solve_several_solutions_names_two_differing_cells(client):
    data = post(client, "/api/solve", {"puzzle": special("multiple")})
    assert data["status"] == "multiple" and data["count"] == 2
    first, second = parse(data["solution"]), parse(data["second"])
    assert first != second
    for grid in (first, second):
        assert is_valid_solution(grid, special("multiple"))
    assert len(data["differ"]) == 2
    for d in data["differ"]:
        r, c = d["row"], d["col"]
        assert d["cell"] == f"r{r + 1}c{c + 1}"
        assert (
            str(first.cells[r, c])
            == d["first"]
            != d["second"]
            == str(second.cells[r, c])
        )
        assert (
            f"{d['cell']} is {d['first']} or {d['second']}" in data["message"]
        )


def test_solve_no_solution(client):
    data = post(client, "/api/solve", {"puzzle": special("nosolution")})
    assert data["status"] == "no solution" and data["solution"] is None


def test_conflicting_givens_are_400_with_the_sentence_and_cells(client):
    with pytest.raises(InvalidPuzzle) as expected:
        sudoku.solve(CONFLICT)
    for path in ("/api/solve", "/api/count", "/api/hint"):
        data = assert_error(client.post(path, json={"puzzle": CONFLICT}), 400)
        assert data["error"] == str(expected.value)
        assert data["conflicts"] == [[0, 0], [0, 1]]


def test_every_size_and_box_shape(client):
    for box in ((2, 2), (2, 3), (3, 2), (2, 4), (3, 4), (4, 4)):
        n = box[0] * box[1]
        data = post(
            client,
            "/api/solve",
            {"puzzle": "." * (n * n), "box": f"{box[0]}x{box[1]}"},
        )
        assert data["status"] == "multiple"
        assert is_valid_solution(data["solution"], box=box)
    data = post(client, "/api/solve", {"puzzle": HEX16[0], "box": [4, 4]})
    assert data["status"] == "solved" and data["n"] == 16
    assert is_valid_solution(data["solution"], HEX16[0])


def test_solve_many_writes_what_the_cli_writes(client, capsys):
    from sudoku.cli import main

    path = DATA / "sudoku_special.txt"
    main(["solve", str(path), "-q"])
    cli = capsys.readouterr().out
    data = post(client, "/api/solve-many", {"puzzles": path.read_text()})
    assert data["text"] == cli and data["status"] == "done"
    assert data["done"] == data["puzzles"] == 24
    assert data["summary"]["multiple"] == 11
    assert [r["line"] for r in data["results"]] == list(range(1, 25))
    data = post(
        client, "/api/solve-many", {"puzzles": TOP95, "format": "grid"}
    )
    assert data["summary"]["solved"] == 95
    for puzzle, result in zip(TOP95, data["results"]):
        assert is_valid_solution(result["solution"], puzzle)


def test_solve_many_stops_between_chunks_at_the_budget(client):
    data = post(
        client, "/api/solve-many", {"puzzles": TOP95 * 3, "time_limit": 0.001}
    )
    assert data["status"] == "stopped"
    # Within the budget even the first chunk is cut (issue 25): the
    # puzzles done are those of the chunks finished before the time ran out.
    assert data["done"] < service.BATCH_FIRST_CHUNK
    assert len(data["results"]) == data["done"]
    for body in (
        {"puzzles": 5},
        {"puzzles": [1, 2]},
        {"puzzles": [",".join(["0"] * 36 * 36)]},
        {"puzzles": TOP95, "limit": 3},
    ):
        assert_error(client.post("/api/solve-many", json=body), 400)


def test_variants(client):
    data = post(client, "/api/solve", {"puzzle": "." * 81, "variant": "x"})
    grid = parse(data["solution"]).cells
    assert is_valid_solution(grid)
    assert len(set(grid.diagonal())) == len(set(grid[:, ::-1].diagonal())) == 9
    assert data["variant"] == "x" and len(data["diagonal"]) == 17
    data = post(
        client, "/api/parse", {"puzzle": "." * 81, "variant": "windoku"}
    )
    assert len(data["windows"]) == 36
    # A jigsaw whose regions are the boxes is classic Sudoku.
    boxes = "".join(
        "ABCDEFGHI"[(r // 3) * 3 + c // 3] for r in range(9) for c in range(9)
    )
    data = post(
        client,
        "/api/solve",
        {"puzzle": ESCARGOT, "variant": "jigsaw", "regions": boxes},
    )
    assert data["solution"] == str(sudoku.solve(ESCARGOT))
    clash = "1" + "." * 10 + "1" + "." * 69  # r1c1 and r2c3: a knight apart
    data = assert_error(
        client.post(
            "/api/solve", json={"puzzle": clash, "variant": "anti-knight"}
        ),
        400,
    )
    assert data["conflicts"] == [[0, 0], [1, 2]]
    for body in (
        {"puzzle": ESCARGOT, "variant": "jigsaw"},
        {"puzzle": ESCARGOT, "variant": "nope"},
        {"puzzle": "." * 16, "variant": "jigsaw", "regions": "AABB"},
        {"puzzle": ESCARGOT, "regions": "A" * 81},
    ):
        assert_error(client.post("/api/solve", json=body), 400)


# -- /api/count, /api/hint, /api/parse, /api/random -----------------------
def test_count(client):
    data = post(client, "/api/count", {"puzzle": "." * 16, "limit": None})
    assert (data["count"], data["status"], data["verdict"]) == (
        288,
        "counted",
        "several",
    )
    data = post(client, "/api/count", {"puzzle": "." * 16, "limit": 10})
    assert (data["count"], data["status"]) == (10, "limit")
    assert post(client, "/api/count", {"puzzle": "." * 16})["count"] == 288
    verdicts = {
        ESCARGOT: "unique",
        special("multiple"): "several",
        special("nosolution"): "none",
    }
    for puzzle, verdict in verdicts.items():
        data = post(client, "/api/count", {"puzzle": puzzle, "limit": 2})
        assert data["verdict"] == verdict


def test_hint_is_an_empty_cell_of_the_solution(client):
    solution = sudoku.solve(ESCARGOT)
    data = post(client, "/api/hint", {"puzzle": ESCARGOT})
    assert data["status"] == "hint"
    r, c = data["row"], data["col"]
    assert parse(ESCARGOT).cells[r, c] == 0
    assert data["digit"] == str(solution.cells[r, c])
    assert data["candidates"] >= 1
    full = post(client, "/api/hint", {"puzzle": str(solution)})
    assert full["status"] == "complete"
    none = post(client, "/api/hint", {"puzzle": special("nosolution")})
    assert none["status"] == "no solution"


def test_hint_picks_a_forced_cell_when_there_is_one(client):
    puzzle = str(sudoku.solve(ESCARGOT))
    puzzle = puzzle[:40] + "." + puzzle[41:]  # one hole: one candidate
    data = post(client, "/api/hint", {"puzzle": puzzle})
    assert (data["row"], data["col"], data["candidates"]) == (4, 4, 1)


def test_parse_lists_conflicts_instead_of_refusing(client):
    data = post(client, "/api/parse", {"puzzle": CONFLICT})
    assert data["conflicts"] == [[0, 0], [0, 1]]
    assert data["message"].startswith("givens conflict")
    csv = "\n".join(",".join(["0"] * 6) for _ in range(6))
    data = post(client, "/api/parse", {"puzzle": csv, "box": "3x2"})
    assert (data["n"], data["box"]) == (6, "3x2")
    assert data["cells"] == [[0] * 6] * 6 and data["message"] is None


def test_random_gives_a_shuffled_bundled_puzzle_with_one_solution(client):
    for name in service.BUNDLED:
        data = post(client, "/api/random", {"set": name})
        puzzle = parse(data["puzzle"])
        assert data["cells"] == puzzle.cells.tolist()
        assert sudoku.is_unique(puzzle)
    one = post(client, "/api/random", {"set": "hard", "seed": 7})
    assert one == post(client, "/api/random", {"set": "hard", "seed": 7})
    assert_error(client.post("/api/random", json={"set": "nope"}), 400)


# -- /api/exact-cover ------------------------------------------------------
def test_exact_cover_builders(client):
    def cover(**body):
        return post(client, "/api/exact-cover", body)

    assert cover(builder="queens", n=8)["count"] == 92  # OEIS A000170
    assert cover(builder="langford", n=7)["count"] == 26  # A014552
    assert cover(builder="langford", n=7, distinct=False)["count"] == 52
    assert (
        cover(builder="pentomino", board="3x20", distinct=False)["count"] == 8
    )
    # Up to symmetry: 2, or one sentence saying that no single problem
    # counts them so here (where symmetric tilings need Burnside's lemma).
    r = client.post(
        "/api/exact-cover", json={"builder": "pentomino", "board": "3x20"}
    )
    if r.status_code == 200:
        assert r.json()["count"] == 2
    else:
        assert "distinct" in assert_error(r, 400)["error"]
    data = cover(builder="queens", n=6, mode="solutions", limit=10)
    assert data["count"] == 4 and data["status"] == "counted"
    assert all(s["text"].count("Q") == 6 for s in data["solutions"])
    data = cover(builder="pentomino", board="6x10", mode="solutions")
    text = data["solutions"][0]["text"]
    assert data["status"] == "limit" and len(text.split()) == 6
    assert set(text) - {"\n"} == set("FILNPTUVWXYZ")
    svg = data["solutions"][0].get("svg")
    if svg is not None:  # where dlx.draw exists: one group per piece
        assert svg.startswith("<svg") and svg.count('class="piece"') == 12


def test_exact_cover_dlx_text(client):
    knuth = "a b c d e | f g\nc e f\na d g\nb c f\na d\nb g\nd e g\n"
    data = post(
        client,
        "/api/exact-cover",
        {"problem": knuth, "mode": "solutions", "limit": 5},
    )
    assert data["count"] == 1 and data["complete"]
    assert data["solutions"][0]["options"] == [0, 3, 4]
    assert data["solutions"][0]["text"] == "c e f\na d\nb g"
    bad = assert_error(
        client.post("/api/exact-cover", json={"problem": "a b\na c\n"}), 400
    )
    assert bad["error"] == "line 2: unknown item 'c'"


# Knuth's DLX5 example (issue 26): dlx5 k3 reports $4, $5, $6.
DLX5_EXAMPLE = "A B C\nA B |5\nC |1\nA |2\nB C |3\nB |1\nC |4\n"


def weighted_pentominoes():
    """The weighted pentominoes as a problem file (names kept whole)."""
    from dlx import dumps

    return dumps(weighted.weighted_pentominoes(), max_name_length=None)


def test_exact_cover_best(client):
    def cheapest(**body):
        return post(client, "/api/exact-cover", dict(mode="best", **body))

    data = cheapest(problem=DLX5_EXAMPLE, limit=3)
    assert data["status"] == "best" and data["complete"]
    assert data["message"] == "the 3 cheapest solutions (costs 4 to 6)"
    assert [s["cost"] for s in data["solutions"]] == [4, 5, 6]
    costs = [5, 1, 2, 3, 1, 4]
    for s in data["solutions"]:
        assert s["cost"] == sum(costs[k] for k in s["options"])
    # The option lines as the file has them, each with its cost.
    assert sorted(data["solutions"][0]["text"].split("\n")) == [
        "A |2",
        "B |1",
        "C |1",
    ]
    assert [
        s["cost"] for s in cheapest(problem=DLX5_EXAMPLE)["solutions"]
    ] == [4]  # limit: 1 by default
    data = cheapest(problem=DLX5_EXAMPLE, limit=100)
    assert [s["cost"] for s in data["solutions"]] == [4, 5, 6, 7, 9]
    assert data["message"].endswith("(all 5 there are)")
    # No costs: every solution costs 0.
    data = cheapest(builder="queens", n=6, limit=2)
    assert [s["cost"] for s in data["solutions"]] == [0, 0]
    assert all(s["text"].count("Q") == 6 for s in data["solutions"])
    data = cheapest(problem="A B\nA |3\n")
    assert data["status"] == "no solution" and data["solutions"] == []


def test_exact_cover_best_stops_at_its_budget(client):
    text = weighted_pentominoes()
    seconds = round(weighted.stop_after(), 3)
    start = time.perf_counter()
    data = post(
        client,
        "/api/exact-cover",
        {"problem": text, "mode": "best", "limit": 2, "time_limit": seconds},
    )
    assert time.perf_counter() - start < 10
    assert data["status"] == "stopped" and not data["complete"]
    assert data["message"].startswith(
        f"stopped at the time budget of {seconds:g} s"
    )
    assert data["message"].endswith("not proven optimal")
    # What was found is priced as found (the optimum is 298).
    for s in data["solutions"]:
        assert s["cost"] >= weighted.OPTIMUM
        assert s["text"].count("\n") == 11


def test_best_drops_its_search_when_the_client_leaves():
    import threading

    problem = __import__("dlx").loads(
        weighted_pentominoes(), max_name_length=None
    )
    budget = service.Budget(30)
    threading.Timer(weighted.stop_after(), budget.cancel.set).start()
    start = time.perf_counter()
    with pytest.raises(service.Cancelled):
        service.run_best(problem, budget, 1)
    assert time.perf_counter() - start < 10  # the search takes seconds


@pytest.mark.parametrize(
    "body",
    [
        {"mode": "best", "limit": 0},
        {"mode": "best", "limit": 101},
        {"mode": "best", "limit": "3"},
        {"mode": "best", "limit": 2.5},
        {"mode": "cheapest"},
    ],
)
def test_exact_cover_best_bad_input(client, body):
    error = assert_error(
        client.post(
            "/api/exact-cover", json=dict(problem=DLX5_EXAMPLE, **body)
        ),
        400,
    )["error"]
    assert error.startswith(
        "'limit' must be a positive integer"
        if "limit" in body
        else "'mode' must be count, solutions or best"
    )


@pytest.mark.parametrize(
    "body",
    [
        {"builder": "chess"},
        {"builder": "queens"},
        {"builder": "queens", "n": 65},
        {"builder": "queens", "n": 0},
        {"builder": "langford", "n": "7"},
        {"builder": "pentomino", "board": "5x5"},
        {"builder": "pentomino", "pieces": "dominoes"},
        {"builder": "pentomino", "board": "3x20", "distinct": "yes"},
        {"problem": ""},
        {},
        {"problem": 3},
        {"builder": "queens", "n": 8, "mode": "all"},
        {"builder": "queens", "n": 8, "limit": 10**30},
        {"builder": "queens", "n": 8, "mode": "solutions", "limit": 101},
    ],
)
def test_exact_cover_bad_input(client, body):
    assert_error(client.post("/api/exact-cover", json=body), 400)


# -- errors ------------------------------------------------------------------
@pytest.mark.parametrize(
    "body",
    [
        {},
        {"puzzle": 5},
        {"puzzle": None},
        {"puzzle": "12x"},
        {"puzzle": "." * 80},
        {"puzzle": ESCARGOT, "box": "3by3"},
        {"puzzle": ESCARGOT, "box": [3, 2]},
        {"puzzle": ESCARGOT, "box": [0, 9]},
        {"puzzle": ",".join(["0"] * 36 * 36)},  # 36x36: larger than served
        {"puzzle": ESCARGOT, "limit": 0},
        {"puzzle": ESCARGOT, "limit": -1},
        {"puzzle": ESCARGOT, "limit": "2"},
        {"puzzle": ESCARGOT, "limit": True},
        {"puzzle": ESCARGOT, "limit": 10**30},
        {"puzzle": ESCARGOT, "limit": 1.5},
        {"puzzle": ESCARGOT, "time_limit": -1},
        {"puzzle": ESCARGOT, "time_limit": 61},
        {"puzzle": ESCARGOT, "time_limit": "1"},
        {"puzzle": ESCARGOT, "variant": "killer"},
        {"puzzle": ESCARGOT, "format": "xml"},
        {"puzzle": [[1, 2], [3]]},
        {"puzzle": ESCARGOT, "time_limt": 1},
    ],
)
def test_bad_input_is_400_with_one_sentence(client, body):
    path = "/api/solve" if "format" in body else "/api/count"
    assert_error(client.post(path, json=body), 400)


def test_bad_bodies(client):
    for content in (b"{", b"[1, 2]", b'"text"', b"\xff\xfe", b"[" * 100_000):
        assert_error(client.post("/api/solve", content=content), 400)
    assert_error(client.post("/api/solve", content=b"x" * (2 << 20)), 413)

    def chunks():  # no Content-Length: the limit holds while streaming
        for _ in range(40):
            yield b" " * 65536

    assert_error(client.post("/api/solve", content=chunks()), 413)


def test_routes_methods_and_not_yet(client):
    assert_error(client.get("/api/solve"), 405)
    assert_error(client.post("/api/nothing", json={}), 404)
    assert_error(client.get("/static/../service.py"), 404)
    assert_error(client.get("/static/%2e%2e/service.py"), 404)
    status = client.get("/api/status").json()
    assert status["time_limit"] == 20.0
    assert status["features"]["generate"] and status["features"]["rate"]


def test_generate_and_rate(client):
    data = post(client, "/api/generate", {"seed": 5, "box": "2x3"})
    assert data["status"] == "generated" and data["box"] == "2x3"
    assert sudoku.is_unique(data["puzzle"], box=(2, 3))
    assert (
        post(client, "/api/generate", {"seed": 5, "box": "2x3"})["puzzle"]
        == data["puzzle"]
    )
    data = post(client, "/api/generate", {"difficulty": "easy", "seed": 1})
    assert sudoku.is_unique(data["puzzle"])
    rated = post(client, "/api/rate", {"puzzle": data["puzzle"]})
    assert rated["status"] == "rated" and rated["level"] == "easy"
    assert post(client, "/api/rate", {"puzzle": ESCARGOT})["level"] in (
        "expert",
        "extreme",
    )
    assert (
        post(client, "/api/rate", {"puzzle": "." * 81})["status"] == "unrated"
    )
    for body in (
        {"difficulty": "nope"},
        {"size": 25},
        {"size": 7},
        {"puzzle": ESCARGOT},
    ):
        assert_error(client.post("/api/generate", json=body), 400)
    assert_error(client.post("/api/rate", json={"puzzle": CONFLICT}), 400)


def test_page_and_static_files_with_a_strict_policy(client):
    page = client.get("/")
    assert page.status_code == 200 and '<table id="grid"' in page.text
    policy = page.headers["content-security-policy"]
    assert "default-src 'self'" in policy
    assert page.headers["x-content-type-options"] == "nosniff"
    assert "://" not in page.text  # nothing loaded from elsewhere
    for name in ("app.js", "app.css"):
        r = client.get(f"/static/{name}")
        assert r.status_code == 200 and "://" not in r.text


def test_foreign_host_names_are_refused(client):
    r = client.get("/api/status", headers={"Host": "evil.example"})
    assert r.status_code == 400


def test_internal_errors_are_500_without_a_trace(monkeypatch):
    def broken(params, settings, budget):
        raise ZeroDivisionError("secret detail")

    monkeypatch.setattr(service, "solve", broken)
    app = create_app(Settings(workers=1), warm_up=False)
    with TestClient(app, raise_server_exceptions=False) as c:
        r = c.post("/api/solve", json={"puzzle": ESCARGOT})
    data = assert_error(r, 500)
    assert "secret" not in r.text and "ZeroDivision" not in r.text
    assert data["error"].startswith("internal error")


# -- budgets, concurrency, saturation ----------------------------------------
def test_time_budget_stops_a_search_and_says_so(client):
    post(client, "/api/count", {"puzzle": "." * 81, "limit": 1})  # warm
    start = time.perf_counter()
    data = post(
        client,
        "/api/count",
        {"puzzle": "." * 81, "limit": None, "time_limit": 0.05},
    )
    assert data["status"] == "stopped" and data["count"] > 0
    assert data["message"].startswith("stopped at the time budget of 0.05 s")
    # The engine keeps a time limit to a slice of a few milliseconds.
    assert data["ms"] < 1000 and time.perf_counter() - start < 2
    data = post(
        client,
        "/api/exact-cover",
        {"builder": "queens", "n": 30, "time_limit": 0.05},
    )
    assert data["status"] == "stopped" and not data["complete"]


def test_a_time_limit_of_0_answers_at_once_as_every_search_reads_it(client):
    """``time_limit`` has one range, the spec's (``dlx.options``): 0 is a
    budget spent at once, not a bad request."""
    data = post(
        client,
        "/api/count",
        {"puzzle": "." * 81, "limit": None, "time_limit": 0},
    )
    assert data["status"] == "stopped"
    assert data["message"].startswith("stopped at the time budget of 0 s")


def test_server_answers_while_long_searches_run():
    """Both workers busy with long searches: the event loop still answers
    at once (the kernels release the GIL)."""
    import urllib.request

    with live_server(Settings(workers=2)) as url:
        host, port = url.split("//")[1].rstrip("/").split(":")
        slow = json.dumps(
            {"puzzle": "." * 81, "limit": None, "time_limit": 3.0}
        ).encode()
        with ThreadPoolExecutor(2) as pool:
            long = [pool.submit(_post, host, port, slow) for _ in range(2)]
            _wait_status(url, lambda s: s["running"] == 2)
            for _ in range(5):
                t0 = time.perf_counter()
                body = json.dumps({"puzzle": ESCARGOT}).encode()
                with urllib.request.urlopen(url + "api/parse", body) as r:
                    assert json.load(r)["n"] == 9
                assert _wait_status(url, lambda s: True)["running"] == 2
                assert time.perf_counter() - t0 < 0.5
            assert not any(f.done() for f in long)
            assert [json.loads(f.result())["status"] for f in long] == [
                "stopped"
            ] * 2


def test_many_simultaneous_requests_are_all_answered(client):
    puzzles = TOP95[:48]
    with ThreadPoolExecutor(24) as pool:
        answers = list(
            pool.map(
                lambda p: client.post("/api/solve", json={"puzzle": p}),
                puzzles,
            )
        )
    assert [a.status_code for a in answers] == [200] * len(puzzles)
    for puzzle, answer in zip(puzzles, answers):
        data = answer.json()
        assert data["status"] == "solved"
        assert is_valid_solution(data["solution"], puzzle)


def _held(monkeypatch, name):
    """Make ``service.<name>`` wait until the returned event is set (at
    most 20 s) before it works; ``started`` is set when one begins.  To
    call before ``create_app``, which takes the service's functions."""
    import threading

    release, started = threading.Event(), threading.Event()
    real = getattr(service, name)

    def held(params, settings, budget):
        started.set()
        while not release.wait(0.01):
            budget.remaining()  # Cancelled once its request is dropped
        return real(params, settings, budget)

    monkeypatch.setattr(service, name, held)
    return release, started


def _status_until(c, ok):
    deadline = time.time() + 10
    while not ok(status := c.get("/api/status").json()):
        assert time.time() < deadline, status
        time.sleep(0.01)
    return status


def test_saturated_server_answers_503_then_recovers(monkeypatch):
    release, _ = _held(monkeypatch, "count")
    app = create_app(Settings(workers=1, queue=1), warm_up=False)
    with TestClient(app) as c, ThreadPoolExecutor(2) as pool:
        try:
            slow = {"puzzle": ESCARGOT, "time_limit": 30}
            held = [
                pool.submit(c.post, "/api/count", json=slow) for _ in range(2)
            ]
            _status_until(c, lambda s: s["running"] == s["waiting"] == 1)
            r = c.post("/api/solve", json={"puzzle": ESCARGOT})
            data = assert_error(r, 503)
            assert r.headers["retry-after"] == "1" and "busy" in data["error"]
        finally:
            release.set()
        assert [h.result().status_code for h in held] == [200, 200]
        assert (
            c.post("/api/solve", json={"puzzle": ESCARGOT}).status_code == 200
        )


def test_a_request_that_cannot_start_in_its_time_limit_answers_503(
    monkeypatch,
):
    """Every worker busy: a request's time limit counts its wait, and a
    request still waiting at its deadline is answered then (503), not
    when a worker frees up."""
    release, started = _held(monkeypatch, "solve")
    app = create_app(Settings(workers=1, queue=4), warm_up=False)
    with TestClient(app) as c, ThreadPoolExecutor(1) as pool:
        try:
            busy = pool.submit(
                c.post,
                "/api/solve",
                json={"puzzle": ESCARGOT, "time_limit": 30},
            )
            assert started.wait(10)
            r = c.post(
                "/api/count", json={"puzzle": "." * 81, "time_limit": 0.2}
            )
            data = assert_error(r, 503)
            assert r.headers["retry-after"] == "1"
            assert data["error"] == (
                "the server is busy: no worker was free to start its search "
                "within the request's time limit of 0.2 s; try again shortly"
            )
            # Dropped from the queue, not left to run later.
            assert c.get("/api/status").json()["waiting"] == 0
        finally:
            release.set()
        assert busy.result().json()["status"] == "solved"


def test_a_client_that_leaves_drops_its_waiting_search():
    with live_server(Settings(workers=1, queue=4)) as url:
        host, port = url.split("//")[1].rstrip("/").split(":")
        slow = json.dumps(
            {"puzzle": "." * 81, "limit": None, "time_limit": 1.5}
        ).encode()
        held = ThreadPoolExecutor(1).submit(_post, host, port, slow)
        _wait_status(url, lambda s: s["running"] == 1)
        # A second search waits for the only worker; its client leaves.
        gone = socket.create_connection((host, int(port)))
        gone.sendall(_request(host, port, slow))
        _wait_status(url, lambda s: s["waiting"] == 1)
        gone.close()
        assert json.loads(held.result())["status"] == "stopped"
        # The dropped search never ran its 1.5 s: the server is idle.
        _wait_status(
            url, lambda s: s["running"] == 0 and s["waiting"] == 0, timeout=1.0
        )


def test_a_client_that_leaves_stops_its_running_search():
    with live_server(Settings(workers=1, queue=4)) as url:
        host, port = url.split("//")[1].rstrip("/").split(":")
        slow = json.dumps(
            {"puzzle": "." * 81, "limit": None, "time_limit": 30}
        ).encode()
        fine = json.dumps({"puzzle": ESCARGOT}).encode()
        assert json.loads(_post(host, port, fine))["count"] == 1  # warm
        gone = socket.create_connection((host, int(port)))
        gone.sendall(_request(host, port, slow))
        _wait_status(url, lambda s: s["running"] == 1)
        time.sleep(0.5)  # well into the search itself
        left = time.perf_counter()
        gone.close()
        # Seen within a poll (0.2 s) and stopped within a slice (5 ms),
        # not at the end of its 30 s.
        _wait_status(url, lambda s: s["running"] == 0, timeout=3.0)
        assert time.perf_counter() - left < 3.0
        assert json.loads(_post(host, port, fine))["count"] == 1


def _request(host, port, body):
    return (
        f"POST /api/count HTTP/1.1\r\nHost: {host}:{port}\r\n"
        f"Content-Type: application/json\r\nContent-Length: "
        f"{len(body)}\r\nConnection: close\r\n\r\n"
    ).encode() + body


def _post(host, port, body):
    with socket.create_connection((host, int(port))) as s:
        s.sendall(_request(host, port, body))
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    return data.split(b"\r\n\r\n", 1)[1]


def _wait_status(url, ok, timeout=5.0):
    import urllib.request

    deadline = time.time() + timeout
    while True:
        with urllib.request.urlopen(url + "api/status") as r:
            status = json.load(r)
        if ok(status):
            return status
        assert time.time() < deadline, status
        time.sleep(0.02)


def test_service_functions_run_without_a_server():
    budget = service.Budget(5)
    data = service.solve({"puzzle": ESCARGOT}, Settings(), budget)
    assert data["status"] == "solved"
    budget.cancel.set()
    with pytest.raises(service.Cancelled):
        service.count({"puzzle": ESCARGOT}, Settings(), budget)
    with pytest.raises(ValueError):
        Settings(time_limit=100, max_time_limit=60)


def test_serve_command_line(capsys):
    from sudoku.cli import main

    assert main(["serve", "--port", "http"]) == 2
    assert main(["serve", "--time-limit", "90"]) == 2  # above the cap
    assert main(["serve", "--time-limit", "0"]) == 2  # no time at all
    assert main(["serve", "--max-time-limit", "inf"]) == 2  # no cap
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    try:
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 1
    finally:
        taken.close()
    err = capsys.readouterr().err
    assert f"cannot listen on 127.0.0.1 port {port}" in err
    assert (
        "time_limit (--time-limit, 90 s) is larger than max_time_limit "
        "(--max-time-limit, 60 s)"
    ) in err
    assert (
        "time_limit (--time-limit) must be a finite number of seconds "
        "more than 0, got 0"
    ) in err
    assert (
        "max_time_limit (--max-time-limit) must be a finite number of "
        "seconds more than 0, got no limit"
    ) in err


def test_listening_socket_is_tcp_so_answers_are_not_delayed():
    """asyncio sets TCP_NODELAY on accepted sockets only when the
    listening socket says TCP; without it every answer on a kept-alive
    connection waited 40 ms for a delayed acknowledgement."""
    from sudoku.web.server import _bind

    sock = _bind("127.0.0.1", 0)
    try:
        assert sock.proto == socket.IPPROTO_TCP
    finally:
        sock.close()
