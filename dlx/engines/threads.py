"""Running kernels on threads: the pool, the stop flag, Ctrl-C.

Every engine's batch and split counts run their kernels (which release the
GIL) on a thread pool and watch one stop flag (``stop``, a one-byte array
the kernels read between slices): a deadline, Ctrl-C or an error raises
it, and every kernel returns within a slice.  ``ctrl_c_noted`` turns
Ctrl-C into a flag while a kernel runs, so that it is never lost.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from concurrent.futures import (
    ThreadPoolExecutor,
    TimeoutError as FutureTimeout,
    wait as wait_all,
)

import numpy as np


class ctrl_c_noted:
    """Within ``with ctrl_c_noted(on_ctrl_c) as noted:``, Ctrl-C sets
    ``noted.hit`` (and calls ``on_ctrl_c``) instead of raising.

    Python runs a signal handler at the next bytecode of the main thread,
    wherever that is; the default handler raises ``KeyboardInterrupt``
    there, and when "there" is a gc or weakref callback, the exception is
    printed and dropped.  Noting the signal loses nothing.  It takes over
    only from Python's default handler, and only in the main thread (the
    only one that receives signals): a program's own handler is left alone.
    """

    def __init__(self, on_ctrl_c=None):
        self.on_ctrl_c = on_ctrl_c
        self.hit = False
        self.previous = None

    def _note(self, signum, frame):
        self.hit = True
        if self.on_ctrl_c is not None:
            self.on_ctrl_c()

    def __enter__(self):
        if (
            threading.current_thread() is threading.main_thread()
            and signal.getsignal(signal.SIGINT) is signal.default_int_handler
        ):
            self.previous = signal.signal(signal.SIGINT, self._note)
        return self

    def __exit__(self, *exc):
        if self.previous is not None:
            signal.signal(signal.SIGINT, self.previous)
            self.previous = None
        return False


def wait(
    futures, stop: np.ndarray, deadline: float | None, event=None
) -> str | None:
    """Wait for ``futures`` whose kernels watch the flag ``stop``.

    The deadline, Ctrl-C or any exception sets the flag, so that every
    kernel returns within a slice, and all the futures are waited for
    before this returns or raises.  Returns what stopped them early:
    ``"deadline"``, ``"stopped"`` (``event``, a stop event, was set),
    ``"interrupt"`` (Ctrl-C, swallowed here for the caller to report with
    what was found), or None when they all ran to the end.
    """
    reason = None
    try:
        for f in futures:
            while True:
                # Looked at before every wait, not only when one times
                # out: many short jobs each end within a timeout, and a
                # stop looked at only then would never be seen.
                if not stop[0]:
                    if (
                        deadline is not None
                        and time.perf_counter() >= deadline
                    ):
                        stop[0] = 1
                        reason = "deadline"
                    elif event is not None and event.is_set():
                        stop[0] = 1
                        reason = "stopped"
                timeout = 0.1
                if deadline is not None and not stop[0]:
                    timeout = min(
                        timeout, max(0.001, deadline - time.perf_counter())
                    )
                try:
                    f.result(timeout)
                    break
                except FutureTimeout:
                    continue
    except BaseException as error:
        stop[0] = 1
        for f in futures:
            try:
                f.result()
            except BaseException:  # noqa: BLE001 - the first error is raised
                pass
        if isinstance(error, KeyboardInterrupt):
            return "interrupt"
        raise
    return reason


def batch_chunks(nbatch: int, threads: int, chunks_per_thread: int):
    """How a batch of ``nbatch`` instances is cut for ``threads`` threads:
    the threads worth starting, and the chunk boundaries (instance
    numbers, rising from 0 to ``nbatch``).  Many more chunks than threads,
    taken in turn: instances differ a lot in cost, and a static split
    would leave a thread idle; one thread takes the batch whole."""
    threads = max(1, min(threads, nbatch))
    bounds = np.linspace(
        0,
        nbatch,
        min(nbatch, chunks_per_thread * threads if threads > 1 else 1) + 1,
    )
    return threads, np.unique(bounds.astype(np.int64))


def flat_paths(paths) -> tuple[np.ndarray, np.ndarray]:
    """The paths of a split (each a list of nodes: one instance of a batch)
    in ``solve_batch``'s CSR form: ``nodes`` (int32) and ``starts``, where
    instance ``b`` is ``nodes[starts[b]:starts[b + 1]]``."""
    starts = np.zeros(len(paths) + 1, np.int64)
    np.cumsum([len(path) for path in paths], out=starts[1:])
    nodes = np.array([p for path in paths for p in path], np.int32)
    return nodes, starts


def run_tasks(
    task,
    ntasks: int,
    threads: int,
    stop: np.ndarray,
    deadline: float | None,
    event=None,
) -> str | None:
    """``task(k)`` for k in ``range(ntasks)`` on a pool of ``threads``
    threads, whose kernels watch ``stop``; waited for as ``wait`` does
    (with the deadline and the stop ``event``), whose answer this returns.
    From the first task on, Ctrl-C raises ``stop`` itself."""
    pool = kept_pool(threads)
    noted = ctrl_c_noted(lambda: stop.__setitem__(0, 1))
    futures: list = []
    try:
        with noted:
            for k in range(ntasks):
                futures.append(pool.submit(task, k))
            reason = wait(futures, stop, deadline, event)
    except BaseException:
        stop[0] = 1  # nothing may keep a kernel running past this call
        wait_all(futures)
        raise
    return "interrupt" if noted.hit else reason


_pools = threading.local()


def kept_pool(threads: int) -> ThreadPoolExecutor:
    """The calling thread's pool of ``threads`` threads, kept from call to
    call: starting threads costs more than a small batch's search (a few
    ms on a loaded machine, measured on 20 puzzles).  One set of pools a
    calling thread (concurrent callers never queue behind each other) and
    a process (a forked child starts its own); idle between calls, their
    threads end with the calling thread or the interpreter."""
    pools = getattr(_pools, "by_size", None)
    if pools is None or _pools.pid != os.getpid():
        pools = _pools.by_size = {}
        _pools.pid = os.getpid()
    pool = pools.get(threads)
    if pool is None:
        pool = pools[threads] = ThreadPoolExecutor(threads)
    return pool


def columns_used(first: np.ndarray) -> int:
    """How many columns of a ``-1``-padded solutions array are in use."""
    used = (first >= 0).sum(axis=1)
    return int(used.max()) if len(used) else 0
