"""Progress of a long search: a ``Progress`` record, a bar, a hook.

A count reports how far it has come a few times a second by Knuth's
measure (each node of the tree weighs one over the product of the
branching degrees on its path): ``Progress`` carries it to a callable, or
``progress_bar`` draws it on stderr (tqdm, the ``[progress]`` extra).
"""

from __future__ import annotations

import contextlib
import sys
import time
from dataclasses import dataclass

__all__ = ["Progress", "progress_bar", "slice_progress", "PROGRESS_EVERY"]


@dataclass
class Progress:
    """How far a count has come, passed to a ``progress`` callable.

    ``fraction``: the share of the search tree explored (Knuth's measure:
    each job weighs one over the product of the branching degrees on its
    path); ``jobs_done`` of ``jobs`` (the jobs known so far: a job cut
    short by its budget adds the jobs it hands back); ``solutions``/``nodes``
    so far;
    ``seconds`` since the start; ``eta``: seconds left at the rate so far
    (None until something is known).
    """

    fraction: float
    jobs_done: int
    jobs: int
    solutions: int
    nodes: int
    seconds: float

    @property
    def eta(self) -> float | None:
        if self.fraction <= 0 or self.seconds <= 0:
            return None
        return self.seconds * (1 - self.fraction) / self.fraction


class _Bar:
    """A progress bar on stderr, by tqdm (``pip install
    'dlx-toolkit[progress]'``), shown once a run lasts ``delay`` seconds."""

    def __init__(self, delay: float = 1.0, stream=None):
        try:
            from tqdm import tqdm
        except ImportError:
            raise ImportError(
                "the progress bar needs tqdm: pip install "
                "'dlx-toolkit[progress]'"
            ) from None
        # No monitor thread: the process pool is forked after the bar
        # starts, and a fork should not copy a process with threads.
        tqdm.monitor_interval = 0
        self.bar = tqdm(
            total=1000,
            unit="‰",
            delay=delay,
            file=stream or sys.stderr,
            leave=False,
            dynamic_ncols=True,
            bar_format="{l_bar}{bar}| {remaining} left{postfix}",
        )
        self.shown = 0

    def __call__(self, p: Progress) -> None:
        reached = min(1000, int(p.fraction * 1000))
        if reached > self.shown:
            self.bar.update(reached - self.shown)
            self.shown = reached
        self.bar.set_postfix_str(
            f"{p.solutions:,} solutions, {p.jobs_done}/{p.jobs} jobs",
            refresh=False,
        )

    def close(self) -> None:
        self.bar.close()


def progress_bar(delay: float = 1.0, stream=None) -> _Bar:
    """A ``progress`` callable drawing a bar on stderr (needs tqdm).

    Args:
        delay: Seconds a run lasts before the bar shows.
        stream: Where the bar is drawn (default: standard error).

    Returns:
        A callable taking a ``Progress``, and a context manager that
        closes the bar.

    Raises:
        ImportError: tqdm is not installed.
    """
    return _Bar(delay, stream)


PROGRESS_EVERY = 0.1
"""How often (seconds) a search reports its progress."""


@contextlib.contextmanager
def slice_progress(progress):
    """A hook for ``dlx.services.search.run`` (called between slices) that hands
    ``progress`` a ``Progress`` a few times a second; ``progress=True``
    draws a bar for as long as the context lasts."""
    bar = None
    if progress is True:
        progress = bar = progress_bar()
    start = time.perf_counter()
    last = start

    def hook(run, stats):
        nonlocal last
        now = time.perf_counter()
        if now - last < PROGRESS_EVERY:
            return
        last = now
        explored = getattr(run, "explored", None)
        fraction = explored() if explored is not None else 0.0
        progress(
            Progress(fraction, 0, 1, stats.solutions, stats.nodes, now - start)
        )

    try:
        yield hook
    finally:
        if bar is not None:
            bar.close()
