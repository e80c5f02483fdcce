"""The web page and its JSON API, as a Starlette application (routes only:
the work is done in ``sudoku.web.service``).

* ``GET /`` the page, ``GET /static/...`` its files, from the package only;
* ``GET /api/status``: limits, load and features;
* ``POST /api/parse | solve | solve-many | count | hint | random |
  generate | rate | exact-cover``: a JSON object in, a JSON object out.

Errors are JSON ``{"error": "<one sentence>"}``: 400 bad input, 404/405
unknown route or method, 413 body over the limit,
503 every worker busy and the queue full, or busy for the whole of a
request's time limit (with ``Retry-After``), 500 a bug (never with a stack
trace).  A search that outlasts its time budget is answered 200 with
``"status": "stopped"``.

Searches run on a bounded thread pool (the engine's kernels release the
GIL), never on the event loop.  At most ``workers + queue`` are admitted at
once.  A request's time limit runs from its arrival, its wait for a worker
included: one still waiting at its deadline, every worker busy, is dropped
and answered 503 then; one that started stops itself at the deadline (the
engine's time limit) with its partial answer.  While one waits or runs
the app watches its client: when the client goes away the search's budget
is cancelled.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from . import service
from .service import Budget, Cancelled, RequestError, Settings

STATIC = Path(__file__).with_name("static")
LOOPBACK_HOSTS = ["127.0.0.1", "localhost", "::1", "[::1]"]
# How often a waiting request looks whether its client is still there.
DISCONNECT_POLL = 0.2
log = logging.getLogger("sudoku.web")

HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'self'; img-src 'self' data:; object-src 'none'; "
        b"base-uri 'none'; frame-ancestors 'none'; form-action 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]


class SecurityHeaders:
    """Adds a strict Content-Security-Policy (the page loads nothing from
    elsewhere) and friends to every response."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                message.setdefault("headers", [])
                message["headers"] = list(message["headers"]) + HEADERS
            await send(message)

        await self.app(scope, receive, send_with_headers)


class Runner:
    """A bounded pool of search threads and the count of admitted jobs."""

    def __init__(self, settings: Settings):
        self.settings = settings
        self.pool = ThreadPoolExecutor(
            settings.workers, thread_name_prefix="sudoku-search"
        )
        self.lock = threading.Lock()
        self.admitted = 0
        self.running = 0
        self.budgets: set[Budget] = set()

    def admit(self, budget: Budget) -> None:
        with self.lock:
            limit = self.settings.workers + self.settings.queue
            if self.admitted >= limit:
                raise RequestError(
                    f"the server is busy ({self.admitted} searches running "
                    f"or waiting, the most it takes); try again shortly",
                    status=503,
                )
            self.admitted += 1
            self.budgets.add(budget)

    def _release(self, budget: Budget) -> None:
        with self.lock:
            self.admitted -= 1
            self.budgets.discard(budget)

    def submit(self, fn: Callable, budget: Budget):
        def job():
            with self.lock:
                self.running += 1
            try:
                budget.remaining()  # dropped while it waited?
                return fn()
            finally:
                with self.lock:
                    self.running -= 1

        try:
            future = self.pool.submit(job)
        except RuntimeError:  # shutting down
            self._release(budget)
            raise RequestError(
                "the server is shutting down", status=503
            ) from None
        future.add_done_callback(lambda _: self._release(budget))
        return future

    def saturated(self) -> bool:
        """Is every worker running a search?"""
        with self.lock:
            return self.running >= self.settings.workers

    def status(self) -> dict:
        with self.lock:
            return {
                "running": self.running,
                "waiting": self.admitted - self.running,
                "workers": self.settings.workers,
                "queue": self.settings.queue,
            }

    def close(self) -> None:
        with self.lock:
            for budget in self.budgets:
                budget.cancel.set()
        self.pool.shutdown(wait=False, cancel_futures=True)


def too_late(budget: Budget) -> RequestError:
    """The 503 of a request whose time limit ran out before a worker was
    free to start its search."""
    return RequestError(
        f"the server is busy: no worker was free to start its search "
        f"within the request's time limit of {budget.seconds:g} s; try "
        f"again shortly",
        status=503,
    )


def error(message: str, status: int, **extra) -> JSONResponse:
    headers = {"Retry-After": "1"} if status == 503 else None
    return JSONResponse(
        {"error": message, **extra}, status_code=status, headers=headers
    )


async def read_json(request: Request, settings: Settings) -> dict:
    """The request's body as a JSON object, at most ``max_body`` bytes."""
    limit = settings.max_body
    too_big = RequestError(
        f"the request body is larger than {limit} bytes", status=413
    )
    declared = request.headers.get("content-length")
    if declared is not None:
        if not declared.isdigit():
            raise RequestError("the Content-Length header is not a number")
        if int(declared) > limit:
            raise too_big
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise too_big
    try:
        data = json.loads(body.decode("utf-8")) if body.strip() else {}
    except UnicodeDecodeError:
        raise RequestError("the request body is not UTF-8 text") from None
    except (ValueError, RecursionError) as problem:
        where = (
            f" (line {problem.lineno}, column {problem.colno})"
            if isinstance(problem, json.JSONDecodeError)
            else ""
        )
        raise RequestError(
            f"the request body is not valid JSON{where}"
        ) from None
    if not isinstance(data, dict):
        raise RequestError(
            'the request body must be a JSON object, e.g. {"puzzle": "..."}'
        )
    return data


def _searching(job: Callable) -> Callable:
    """A route running ``job(params, settings, budget)`` on the pool."""

    async def endpoint(request: Request) -> Response:
        arrived = time.perf_counter()  # the time limit runs from here
        settings = request.app.state.settings
        runner = request.app.state.runner
        params = await read_json(request, settings)
        budget = Budget(service.time_limit_of(params, settings), arrived)
        runner.admit(budget)
        # The answer is also turned into JSON on the worker, not on the
        # event loop (a batch's answer is large).
        future = runner.submit(
            lambda: _json(job(params, settings, budget)), budget
        )
        waiting = asyncio.wrap_future(future)
        waiting.add_done_callback(
            lambda f: f.cancelled() or f.exception()
        )  # always retrieved
        while True:
            # Wake at the deadline as well as to poll the client.
            left = budget.left()
            wake = DISCONNECT_POLL if left <= 0 else min(DISCONNECT_POLL, left)
            done, _ = await asyncio.wait({waiting}, timeout=wake)
            if done:
                return Response(
                    waiting.result(), media_type="application/json"
                )
            if await request.is_disconnected():
                budget.cancel.set()
                raise Cancelled()
            # Out of time before a worker was free: answered now.  (With
            # a worker free, the search is about to start: it stops at
            # once with its partial answer, as any search at its limit.)
            if budget.left() <= 0 and runner.saturated() and future.cancel():
                raise too_late(budget)

    return endpoint


def _json(answer: dict) -> bytes:
    """An answer as JSON, written as Starlette's JSONResponse writes it."""
    return json.dumps(
        answer, ensure_ascii=False, allow_nan=False, separators=(",", ":")
    ).encode("utf-8")


def _quick(job: Callable) -> Callable:
    """A route running ``job(params, settings)`` at once (no search)."""

    async def endpoint(request: Request) -> Response:
        settings = request.app.state.settings
        params = await read_json(request, settings)
        return JSONResponse(job(params, settings))

    return endpoint


def _guarded(endpoint: Callable) -> Callable:
    """Every failure as one JSON sentence; never a stack trace."""

    async def guarded(request: Request) -> Response:
        try:
            return await endpoint(request)
        except RequestError as problem:
            return error(str(problem), problem.status, **problem.extra)
        except Cancelled:
            return Response(status_code=499)  # nobody is listening
        except Exception:
            log.exception("internal error in %s", request.url.path)
            return error(
                "internal error: the server failed on this request", 500
            )

    return guarded


async def index(request: Request) -> Response:
    return FileResponse(STATIC / "index.html")


async def status(request: Request) -> Response:
    settings = request.app.state.settings
    return JSONResponse(
        {
            **request.app.state.runner.status(),
            "time_limit": settings.time_limit,
            "max_time_limit": settings.max_time_limit,
            "max_body": settings.max_body,
            "max_size": settings.max_size,
            "features": service.features(),
        }
    )


async def not_found(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)  # registered for these only
    if exc.status_code == 405:
        return error(
            f"{request.method} is not allowed on {request.url.path}", 405
        )
    if exc.status_code == 404:
        return error(f"nothing at {request.url.path}", 404)
    return error(str(exc.detail), exc.status_code)


async def server_error(request: Request, exc: Exception) -> Response:
    return error("internal error: the server failed on this request", 500)


def create_app(
    settings: Settings | None = None,
    *,
    allowed_hosts: list[str] | None = None,
    warm_up: bool = True,
) -> Starlette:
    """The application.  ``allowed_hosts``: the Host headers answered (by
    default loopback names only, so that a page elsewhere cannot reach
    the server by DNS rebinding; ``["*"]`` for any)."""
    settings = settings or Settings()
    api = [
        ("/api/solve", _searching(service.solve)),
        ("/api/count", _searching(service.count)),
        ("/api/solve-many", _searching(service.solve_many)),
        ("/api/hint", _searching(service.hint)),
        ("/api/exact-cover", _searching(service.exact_cover)),
        ("/api/generate", _searching(service.generate)),
        ("/api/rate", _searching(service.rate)),
        ("/api/parse", _quick(service.parse_puzzle)),
        ("/api/random", _quick(service.random_puzzle)),
    ]
    routes: list[BaseRoute] = [
        Route("/", index, methods=["GET"]),
        Route("/api/status", status, methods=["GET"]),
    ]
    routes += [Route(path, _guarded(fn), methods=["POST"]) for path, fn in api]
    routes.append(
        Mount("/static", StaticFiles(directory=STATIC), name="static")
    )

    runner = Runner(settings)

    @asynccontextmanager
    async def lifespan(app):
        if warm_up:
            runner.pool.submit(service.warm_up)
        try:
            yield
        finally:
            runner.close()

    hosts = (
        (LOOPBACK_HOSTS + ["testserver"])
        if allowed_hosts is None
        else allowed_hosts
    )
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        middleware=[
            Middleware(SecurityHeaders),
            Middleware(TrustedHostMiddleware, allowed_hosts=hosts),
        ],
        exception_handlers={HTTPException: not_found, 500: server_error},
    )
    app.state.settings = settings
    app.state.runner = runner
    return app
