"""Starting the server: ``sudoku serve [--host H] [--port P] [--open]``."""

from __future__ import annotations

import argparse
import ipaddress
import socket
import sys
import threading
import webbrowser

from dlx.cli.flags import seconds
from dlx.shorten import shorten

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000


def add_parser(commands) -> argparse.ArgumentParser:
    """The ``serve`` subcommand of the ``sudoku`` command line."""
    serve = commands.add_parser(
        "serve",
        help="start the web page and JSON API on this machine",
        description="Serve a Sudoku page and a JSON API (needs the web "
        "extra: pip install 'dlx-toolkit[web]').  Binds to 127.0.0.1 "
        "unless --host says otherwise.",
    )
    serve.add_argument(
        "--host",
        default=DEFAULT_HOST,
        help="address to listen on (default 127.0.0.1: this machine only)",
    )
    serve.add_argument(
        "--port",
        type=_port,
        default=DEFAULT_PORT,
        help="port (default 8000; 0 picks a free one)",
    )
    serve.add_argument(
        "--open", action="store_true", help="open the page in a web browser"
    )
    # The time limits are read as every command line reads one (the
    # spec's range, dlx.cli.flags.seconds); what a server needs besides
    # (more than 0, finite, the default within the cap) is Settings'.
    serve.add_argument(
        "--time-limit",
        type=seconds,
        default=20.0,
        metavar="S",
        help="time budget of a search that names none (default 20 s)",
    )
    serve.add_argument(
        "--max-time-limit",
        type=seconds,
        default=60.0,
        metavar="S",
        help="the most a request may ask for (default 60 s)",
    )
    serve.add_argument(
        "--workers",
        type=_whole,
        default=0,
        metavar="N",
        help="searches running at once (default: one per core)",
    )
    serve.add_argument(
        "--queue",
        type=_whole,
        default=32,
        metavar="N",
        help="searches waiting for a worker before the "
        "server answers 503 (default 32)",
    )
    return serve


def _port(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or int(text) > 65535:
        raise argparse.ArgumentTypeError(
            f"expected a port number 0-65535, got {shorten(text)}"
        )
    return int(text)


def _whole(text: str) -> int:
    if not (text.isascii() and text.isdigit()):
        raise argparse.ArgumentTypeError(
            f"expected a whole number, got {shorten(text)}"
        )
    return int(text)


def run(args) -> int:
    """Serve until interrupted; returns the exit status."""
    try:
        import uvicorn

        from .app import LOOPBACK_HOSTS, create_app
        from .service import Settings  # the engine: not for sudoku --help
    except ImportError as missing:
        print(
            f"sudoku: serve needs the web extra ({missing.name} is "
            f"missing): pip install 'dlx-toolkit[web]'",
            file=sys.stderr,
        )
        return 1
    try:
        settings = Settings(
            time_limit=args.time_limit,
            max_time_limit=args.max_time_limit,
            workers=args.workers,
            queue=args.queue,
        )
    except ValueError as error:  # its sentence names the flag
        print(f"sudoku: {error}", file=sys.stderr)
        return 2
    try:
        sock = _bind(args.host, args.port)
    except OSError as error:
        print(
            f"sudoku: cannot listen on {args.host} port {args.port}: "
            f"{error.strerror or error}",
            file=sys.stderr,
        )
        return 1
    loopback = _is_loopback(args.host)
    app = create_app(
        settings, allowed_hosts=LOOPBACK_HOSTS if loopback else ["*"]
    )
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{port}/"
    print(f"sudoku: serving {url} (Ctrl-C stops)", file=sys.stderr)
    if not loopback:
        print(
            "sudoku: warning: listening beyond this machine; anyone who "
            "can reach it can use the solver",
            file=sys.stderr,
        )
    if args.open:
        threading.Timer(0.5, webbrowser.open, [url]).start()
    config = uvicorn.Config(app, log_level="warning", lifespan="on")
    uvicorn.Server(config).run(sockets=[sock])
    return 0


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # proto must say TCP: asyncio sets TCP_NODELAY on accepted sockets only
    # then, and without it every answer on a kept-alive connection waited
    # 40 ms (Nagle's algorithm against delayed acknowledgements).
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    sock.listen(128)
    return sock


__all__ = ["add_parser", "run"]
