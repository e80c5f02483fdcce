"""A real `sudoku serve` server on a free loopback port, for the tests
that need a socket or a browser."""

import contextlib
import threading
import time

import uvicorn

from sudoku.web.app import create_app
from sudoku.web.server import _bind


@contextlib.contextmanager
def live_server(settings=None, timeout=30.0):
    """Serve on 127.0.0.1 (a free port) in a thread; yields the base URL
    ``http://127.0.0.1:PORT/`` and stops the server on exit."""
    sock = _bind("127.0.0.1", 0)
    port = sock.getsockname()[1]
    app = create_app(settings, warm_up=False)
    server = uvicorn.Server(
        uvicorn.Config(app, log_level="warning", lifespan="on")
    )
    thread = threading.Thread(
        target=server.run, kwargs={"sockets": [sock]}, daemon=True
    )
    thread.start()
    deadline = time.monotonic() + timeout
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        server.should_exit = True
        thread.join(timeout)
        sock.close()
