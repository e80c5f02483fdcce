"""Generating and rating under a budget (issue 25, item 2): ``time_limit``
and ``stop`` (anything with ``is_set()``, e.g. a ``threading.Event``) in
``sudoku.generate``, ``generate_many``, ``rate`` and ``rate_many``, and
through them ``POST /api/generate`` and ``/api/rate``: the budget is
checked between the generator's own steps and passed down to every search
as its time limit; a stop is seen between two steps.  The web layer sets
the stop when the client leaves, and counts the wait for a worker in the
budget.

The checks here are deterministic (a stop that turns on after so many
looks, the time limit each engine call receives); the few that read a
clock give a bound ten times what the work needs, far below what the
unbudgeted work took (30-60 s)."""

import functools
import json
import socket
import threading
import time

import numpy as np
import pytest

import sudoku
from dlx import BudgetExhausted, ExactCover
from sudoku import Stopped
from sudoku.generator import generate_cells

ESCARGOT = (
    "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4"
    "......7..7...3.."
)


class StopAfter:
    """A stop that turns on at its ``looks``-th ``is_set()``."""

    def __init__(self, looks):
        self.looks = looks
        self.seen = 0

    def is_set(self):
        self.seen += 1
        return self.seen >= self.looks


@pytest.fixture
def engine_calls(monkeypatch):
    """Every ``solve_batch`` call's time limit, in order."""
    calls = []
    real = ExactCover.solve_batch

    def spy(self, *args, **kw):
        calls.append(kw.get("time_limit"))
        return real(self, *args, **kw)

    monkeypatch.setattr(ExactCover, "solve_batch", spy)
    return calls


JOBS = {
    "generate": lambda **kw: sudoku.generate(9, seed=3, **kw),
    "generate level": lambda **kw: sudoku.generate(
        9, difficulty="hard", seed=3, **kw
    ),
    "generate_many": lambda **kw: sudoku.generate_many(4, 6, seed=3, **kw),
    "generate variant": lambda **kw: sudoku.generate(
        6, variant="x", seed=3, **kw
    ),
    "rate": lambda **kw: sudoku.rate(ESCARGOT, **kw),
    "rate_many": lambda **kw: sudoku.rate_many([ESCARGOT] * 3, **kw),
    "rate variant": lambda **kw: sudoku.rate(x_puzzle(), variant="x", **kw),
}


@functools.cache
def x_puzzle():
    return sudoku.generate(6, variant="x", seed=3)


@pytest.mark.parametrize("job", JOBS)
def test_an_expired_budget_stops_before_any_search(job, engine_calls):
    x_puzzle()
    engine_calls.clear()
    with pytest.raises(Stopped) as stop:
        JOBS[job](time_limit=0)
    assert stop.value.reason == "time_limit" and "time limit" in str(
        stop.value
    )
    with pytest.raises(Stopped) as stop:
        JOBS[job](stop=StopAfter(1))
    assert stop.value.reason == "stop"
    assert engine_calls == []
    assert isinstance(stop.value, BudgetExhausted)  # as dlx's searches


@pytest.mark.parametrize("job", JOBS)
@pytest.mark.parametrize("looks", [2, 3, 5, 20])
def test_a_stop_is_seen_between_two_steps(job, looks, engine_calls):
    x_puzzle()
    engine_calls.clear()
    stop = StopAfter(looks)
    try:
        JOBS[job](stop=stop)
    except Stopped as stopped:
        assert stopped.reason == "stop"
        # No engine call after the stop turned on: one look per step.
        assert len(engine_calls) <= looks
    else:
        assert stop.seen < looks  # it ended before the stop turned on


@pytest.mark.parametrize("job", JOBS)
def test_every_search_gets_the_time_left(job, engine_calls):
    x_puzzle()
    engine_calls.clear()
    JOBS[job](time_limit=600)
    assert engine_calls and all(
        t is not None and 0 < t <= 600 for t in engine_calls
    )
    assert engine_calls == sorted(engine_calls, reverse=True)


def test_without_a_budget_the_results_are_unchanged():
    for seed in range(3):
        assert sudoku.generate(
            9, seed=seed, time_limit=600, stop=threading.Event()
        ) == sudoku.generate(9, seed=seed)
    assert sudoku.rate(ESCARGOT, time_limit=600) == sudoku.rate(ESCARGOT)
    cells, _ = generate_cells(3, (2, 3), seed=1)
    again, _ = generate_cells(3, (2, 3), seed=1, time_limit=600)
    assert np.array_equal(cells, again)


def test_a_long_level_search_stops_at_its_time_limit():
    sudoku.generate(9, seed=1)  # compiled
    start = time.perf_counter()
    with pytest.raises(Stopped):
        # Unbudgeted: 200 rounds, 30-60 s, then GenerationFailed.
        sudoku.generate(9, difficulty="extreme", seed=1, time_limit=0.3)
    assert time.perf_counter() - start < 3


def test_a_stop_from_another_thread_ends_the_search():
    sudoku.generate(9, seed=1)
    stop = threading.Event()
    threading.Timer(0.3, stop.set).start()
    start = time.perf_counter()
    with pytest.raises(Stopped):
        sudoku.generate(9, difficulty="extreme", seed=2, stop=stop)
    assert time.perf_counter() - start < 3


@pytest.mark.parametrize(
    "bad,error",
    [
        (dict(time_limit=-1), ValueError),
        (dict(time_limit="2"), TypeError),
        (dict(time_limit=float("nan")), ValueError),
        (dict(stop=True), TypeError),
        (dict(stop="yes"), TypeError),
    ],
)
@pytest.mark.parametrize("job", ["generate", "rate"])
def test_bad_budgets_name_the_argument(bad, error, job):
    name = next(iter(bad))
    with pytest.raises(error, match=name):
        JOBS[job](**bad)


# -- the web API ----------------------------------------------------------------


@pytest.fixture(scope="module")
def client():
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from sudoku.web.app import create_app
    from sudoku.web.service import Settings

    with TestClient(create_app(Settings(workers=2), warm_up=False)) as c:
        yield c


def test_generate_answers_stopped_at_its_time_budget(client):
    client.post("/api/generate", json={"seed": 1})  # compiled
    start = time.perf_counter()
    answer = client.post(
        "/api/generate",
        json={"difficulty": "extreme", "seed": 1, "time_limit": 0.3},
    )
    assert answer.status_code == 200, answer.text
    data = answer.json()
    assert data["status"] == "stopped", data
    assert data["message"].startswith("stopped at the time budget of 0.3 s")
    assert time.perf_counter() - start < 3


def test_rate_answers_stopped_at_its_time_budget(client, monkeypatch):
    answer = client.post(
        "/api/rate", json={"puzzle": ESCARGOT, "time_limit": 0.000001}
    )
    assert answer.status_code == 200, answer.text
    assert answer.json()["status"] == "stopped"


@pytest.mark.parametrize(
    "endpoint,body",
    [
        ("generate", {"difficulty": "extreme", "seed": 1}),
        ("rate", {"puzzle": ESCARGOT}),
    ],
)
def test_a_cancelled_budget_drops_generate_and_rate(endpoint, body):
    from sudoku.web import service

    budget = service.Budget(30)
    budget.cancel.set()
    with pytest.raises(service.Cancelled):
        getattr(service, endpoint)(body, service.Settings(), budget)
    # Set half-way: seen between two steps.
    budget = service.Budget(30)
    budget.cancel = StopAfter(4)
    with pytest.raises(service.Cancelled):
        getattr(service, endpoint)(body, service.Settings(), budget)


def test_an_expired_wait_leaves_no_time_to_generate():
    from sudoku.web import service

    budget = service.Budget(0.05)
    time.sleep(0.1)  # waited for a worker past its budget
    data = service.generate({"seed": 1}, service.Settings(), budget)
    assert data["status"] == "stopped"


# -- the engine's part: solve_batch keeps a time limit --------------------------


@pytest.mark.parametrize("algorithm", ["links", "cells"])
def test_solve_batch_stops_at_its_time_limit(algorithm):
    from dlx.problems.queens import queens

    p = queens(11)
    p.solve_batch([[]], limit=1, algorithm=algorithm)  # compiled
    with pytest.raises(BudgetExhausted) as stop:
        p.solve_batch([[]], limit=2**40, time_limit=0, algorithm=algorithm)
    assert not stop.value.stats.complete
    start = time.perf_counter()
    with pytest.raises(BudgetExhausted):  # 2,680 solutions each, 64 times
        p.solve_batch(
            [[]] * 64, limit=2**40, time_limit=0.05, algorithm=algorithm
        )
    assert time.perf_counter() - start < 2
    done = p.solve_batch(
        [[]], limit=2**40, time_limit=600, algorithm=algorithm
    )
    assert done.counts.tolist() == [2680]


# -- a real server: abandoned generators no longer hold the workers -----------


def _request(host, port, path, body):
    body = json.dumps(body).encode()
    return (
        f"POST {path} HTTP/1.1\r\nHost: {host}:{port}\r\n"
        f"Content-Type: application/json\r\nContent-Length: "
        f"{len(body)}\r\nConnection: close\r\n\r\n"
    ).encode() + body


def _post(host, port, path, body):
    with socket.create_connection((host, int(port))) as s:
        s.sendall(_request(host, port, path, body))
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    return json.loads(data.split(b"\r\n\r\n", 1)[1])


def _status(url):
    import urllib.request

    with urllib.request.urlopen(url + "api/status") as r:
        return json.load(r)


def _wait_for(url, ok, timeout):
    deadline = time.monotonic() + timeout
    while not ok(status := _status(url)):
        assert time.monotonic() < deadline, status
        time.sleep(0.02)


def test_abandoned_generators_free_the_workers_of_a_real_server():
    pytest.importorskip("uvicorn")
    from sudoku.web.service import Settings

    from web_server import live_server

    extreme = {"difficulty": "extreme", "seed": 1}
    with live_server(Settings(workers=2, time_limit=5)) as url:
        host, port = url.split("//")[1].rstrip("/").split(":")
        assert (
            _post(host, port, "/api/generate", {"seed": 1})["status"]
            == "generated"
        )  # compiled
        # The first case: a budget of 2 s is kept (it took 62 s).
        start = time.monotonic()
        answer = _post(
            host, port, "/api/generate", dict(extreme, time_limit=2)
        )
        assert answer["status"] == "stopped"
        assert time.monotonic() - start < 2 + 3
        # Two clients ask for extreme puzzles, then give up.
        gone = []
        for _ in range(2):
            s = socket.create_connection((host, int(port)))
            s.sendall(_request(host, port, "/api/generate", extreme))
            gone.append(s)
        _wait_for(url, lambda s: s["running"] == 2, 5)
        time.sleep(0.5)
        left = time.monotonic()
        for s in gone:
            s.close()
        # Seen within a poll (0.2 s), stopped within a step.
        _wait_for(url, lambda s: s["running"] == 0, 3)
        assert time.monotonic() - left < 3
        # A solve behind them answers within its own budget.
        start = time.monotonic()
        solved = _post(
            host, port, "/api/solve", {"puzzle": ESCARGOT, "time_limit": 3}
        )
        assert solved["status"] == "solved"
        assert time.monotonic() - start < 3


def test_solve_many_keeps_its_budget_within_a_chunk(client):
    """A batch's chunk is cut by the budget too, waiting included: a chunk
    of hard 16x16 puzzles once ran to its end whatever the budget."""
    from sudoku.web import service

    hard = [sudoku.generate(16, seed=k).format("line") for k in range(2)]
    budget = service.Budget(0.05)
    time.sleep(0.1)  # the wait for a worker took the whole budget
    data = service.solve_many(
        {"puzzles": hard * 100}, service.Settings(), budget
    )
    assert data["status"] == "stopped" and data["done"] == 0
    budget = service.Budget(30)
    budget.cancel.set()
    with pytest.raises(service.Cancelled):
        service.solve_many({"puzzles": hard}, service.Settings(), budget)
    budget = service.Budget(30)
    budget.cancel = StopAfter(3)  # set while the first chunk runs
    with pytest.raises(service.Cancelled):
        service.solve_many({"puzzles": hard * 100}, service.Settings(), budget)


def test_solve_many_and_solve_cells_take_a_budget():
    with pytest.raises(Stopped):
        sudoku.solve_many([ESCARGOT] * 3, time_limit=0)
    with pytest.raises(Stopped):
        sudoku.solve_many([ESCARGOT] * 3, stop=StopAfter(1))
    assert [
        r.status for r in sudoku.solve_many([ESCARGOT] * 3, time_limit=600)
    ] == ["solved"] * 3
