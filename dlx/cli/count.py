"""The options of long counts, shared by the ``dlx`` commands (and
``sudoku``): ``--jobs``, ``--scheduler``, ``--checkpoint``,
``--progress``, and the estimate (``--estimate``, ``--probes``,
``--seed``).  The work itself is ``dlx.jobs`` and ``dlx.services.estimate``.
"""

from __future__ import annotations

import argparse
import contextlib
import sys

from .flags import add_flag
from .paths import RESUMED, names_file

__all__ = [
    "add_count_options",
    "add_estimate_options",
    "add_memo_options",
    "count_options",
    "memo_options",
    "interrupted_message",
]

# How long --scheduler keeps trying to reach a Dask scheduler (seconds).
SCHEDULER_TIMEOUT = 10


class CountUsageError(Exception):
    """A long-count option that cannot be honoured (exit status 2)."""


def add_count_options(parser: argparse.ArgumentParser) -> None:
    """``--jobs``, ``--scheduler``, ``--checkpoint``, ``--progress``."""
    group = parser.add_argument_group(
        "long counts (with --count)",
        "The tree is split into independent jobs; the count, nodes and "
        "updates are those of one search.",
    )
    # (Each flag from its entry in the spec, dlx.options.)
    add_flag(group, "jobs")
    add_flag(group, "executor")
    names_file(add_flag(group, "checkpoint"), RESUMED)
    add_flag(group, "progress")


def add_estimate_options(
    parser: argparse.ArgumentParser, flag: bool = True
) -> None:
    """``--estimate`` (unless ``flag`` is False), ``--probes``, ``--seed``."""
    if flag:
        parser.add_argument(
            "--estimate",
            action="store_true",
            help="estimate the size of the search (Knuth's "
            "random probes) instead of solving",
        )
    add_flag(parser, "probes")
    add_flag(parser, "seed")


def _progress(args):
    """True, False, or a bar if tqdm is there (the automatic default)."""
    if args.progress is False or not (args.progress or sys.stderr.isatty()):
        return None  # no bar: tqdm is not imported (0.05 s) to ask
    try:
        import tqdm  # noqa: F401
    except ImportError:
        if args.progress:
            raise CountUsageError(
                "--progress needs tqdm: pip install 'dlx-toolkit[progress]'"
            ) from None
        return None
    return True


@contextlib.contextmanager
def count_options(args, every_core: bool = True):
    """The keyword arguments of ``ExactCover.count`` for the options in
    ``args``, with a Dask client open for as long as they are in use.
    ``every_core``: without ``--jobs``, count on one process per core
    (False: in this one, as a memoized count does)."""
    jobs = args.jobs
    if jobs is None and every_core:
        jobs = 0
    options = {"progress": _progress(args)}
    if jobs is not None:
        options["jobs"] = jobs
    if args.checkpoint is not None:
        options["checkpoint"] = args.checkpoint
    # (its directory was checked with the other files: dlx.cli.paths)
    if args.scheduler is None:
        yield options
        return
    try:
        from distributed import Client
    except ImportError:
        raise CountUsageError(
            "--scheduler needs Dask: pip install 'dlx-toolkit[dask]'"
        ) from None
    try:
        client = Client(args.scheduler, timeout=SCHEDULER_TIMEOUT)
    except (OSError, TimeoutError, ValueError) as error:
        raise CountUsageError(
            f"cannot reach the Dask scheduler at {args.scheduler}: {error}"
        ) from None
    with client:
        options["executor"] = client.get_executor()
        yield options


def add_memo_options(parser) -> None:
    """``--memo``, ``--choose`` and ``--memo-mb`` for a ``dlx`` command."""
    group = parser.add_argument_group("memoized counting (with --count)")
    add_flag(group, "memo")
    add_flag(group, "choose")
    add_flag(group, "memo_bytes")


def memo_options(args) -> dict | None:
    """The ``count`` keywords the memo options ask for, None without
    ``--memo`` (or for a command without them); their combinations are
    checked before (``dlx.cli.flags.check_flags``)."""
    if not hasattr(args, "memo"):
        return None
    if not args.memo:  # --choose and --memo-mb need it (dlx.cli.flags)
        return None
    kwargs = {"memo": True, "choose": args.choose or "auto"}
    if args.memo_mb is not None:
        kwargs["memo_bytes"] = int(args.memo_mb * (1 << 20))
    return kwargs


def interrupted_message(
    prog: str,
    stop: BaseException | None,
    *,
    counted: int | None = None,
    printed: int | None = None,
) -> str:
    """What to say when Ctrl-C stopped a run (every command says it so):
    ``dlx: interrupted: 1,234 solutions counted so far (a partial
    count)``, or ``... printed so far (a partial list)`` for a listing
    that had printed ``printed``, or ``dlx: interrupted`` when nothing
    was counted.  ``counted`` defaults to the count ``stop`` carries."""
    if printed is not None:
        return (
            f"{prog}: interrupted: {printed:,} "
            f"solution{'' if printed == 1 else 's'} printed so far "
            f"(a partial list)"
        )
    if counted is None:
        counted = getattr(stop, "count", None)
    if counted is None:
        return f"{prog}: interrupted"
    return (
        f"{prog}: interrupted: {counted:,} "
        f"solution{'' if counted == 1 else 's'} counted so far "
        f"(a partial count)"
    )
