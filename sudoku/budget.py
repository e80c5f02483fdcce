"""Budgets of the long jobs: generating and rating.

``generate``, ``generate_many``, ``rate`` and ``rate_many`` take
``time_limit`` (seconds) and ``stop`` (anything with an ``is_set()``
method, such as a ``threading.Event`` another thread sets).  Their
``Budget`` is looked at between their own steps (a round of candidates, a
step of removing givens, a relabelling of the rating, a restart of a
search) and handed to every search as its time limit, so the time limit
is kept to a few milliseconds and a stop is seen within one step (one
engine call: milliseconds on 9x9 grids, at most about 0.1 s measured on
16x16).  Either raises ``Stopped``, a ``dlx.BudgetExhausted``.

>>> import threading, sudoku
>>> stop = threading.Event()
>>> stop.set()
>>> sudoku.generate(9, seed=1, stop=stop)
Traceback (most recent call last):
...
sudoku.budget.Stopped: generate stopped: its stop was set
"""

from __future__ import annotations

import time
from typing import Any

from dlx import BudgetExhausted, Stats
from dlx.services.search import seconds

__all__ = ["Budget", "Stopped"]


class Stopped(BudgetExhausted):
    """A generator or a rating stopped before its end: ``reason`` is
    ``"time_limit"`` (it ran out) or ``"stop"`` (the stop was set);
    ``count`` is the puzzles finished by then (0 for one puzzle).

    Args:
        what: The job's name, for the message (``"generate"``, ...).
        reason: ``"time_limit"`` or ``"stop"``.
        seconds: The time limit, for the message.
        count: The puzzles finished by then.
    """

    def __init__(
        self, what: str, reason: str, seconds: float | None, count: int = 0
    ):
        if reason == "stop":
            message = f"{what} stopped: its stop was set"
        else:
            message = (
                f"{what} stopped at its time limit of {seconds:g} s "
                f"before it was done"
            )
        super().__init__(message, count, Stats(complete=False))
        self.reason = reason


class Budget:
    """A deadline and a stop flag for one job called ``what``: its time
    limit counts from ``start`` (a ``time.perf_counter()``; by default
    now)."""

    def __init__(
        self,
        what: str,
        time_limit: float | None = None,
        stop: Any = None,
        *,
        start: float | None = None,
    ) -> None:
        self.what = what
        self.seconds = seconds("time_limit", time_limit)
        if stop is not None and not callable(getattr(stop, "is_set", None)):
            raise TypeError(
                f"stop must have an is_set() method (e.g. a "
                f"threading.Event), got {type(stop).__name__}"
            )
        self.stop = stop
        self.start = time.perf_counter() if start is None else start
        self.deadline = (
            None if self.seconds is None else self.start + self.seconds
        )

    def check(self, count: int = 0) -> None:
        """Raise ``Stopped`` when the stop is set or the time is up."""
        if self.stop is not None and self.stop.is_set():
            raise Stopped(self.what, "stop", self.seconds, count)
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            raise Stopped(self.what, "time_limit", self.seconds, count)

    def left(self) -> float | None:
        """Seconds to the deadline (negative past it; None: no limit),
        whatever the stop."""
        if self.deadline is None:
            return None
        return self.deadline - time.perf_counter()

    def remaining(self) -> float | None:
        """Seconds left (None: no limit), after ``check``."""
        self.check()
        if self.deadline is None:
            return None
        return max(0.0, self.deadline - time.perf_counter())


# A budget that never runs out (the default of every internal step).
UNLIMITED = Budget("search")
