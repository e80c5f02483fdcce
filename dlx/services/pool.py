"""Where jobs run: a process pool, any ``concurrent.futures.Executor``,
a Dask cluster.

The problem travels to the workers once (pickled in a ``Payload``, with
its fingerprint; a process pool installs it in every worker as it starts,
a Dask cluster gets it scattered to each worker, other executors get the
payload with each task), and a job is plain data: the engine's name, the
split's givens, the job's path, the search rule and a node budget.
``run_piece`` counts one job in a worker with the engine's ``run_job``.
"""

from __future__ import annotations

import concurrent.futures as cf
import multiprocessing
import os
import pickle
import signal
import threading
import time

from ..engines import BY_NAME
from ..engines.base import JobResult

__all__ = [
    "Payload",
    "run_piece",
    "run_jobs",
    "process_pool",
    "stop_pool",
    "executor_workers",
    "dask_client",
]


class Payload:
    """The problem, pickled once, with its fingerprint; a worker process
    unpickles it once and keeps it (``installed``)."""

    def __init__(self, problem, digest: str):
        self.digest = digest
        self.blob = pickle.dumps(problem, protocol=pickle.HIGHEST_PROTOCOL)


installed: dict = {}
_unpickling = threading.Lock()


def stop_pool(executor) -> None:
    """Terminate a process pool's workers and wait for the pool to close.

    On the way out, CPython 3.11's pool manager thread marks every future
    it still holds as broken, and one already cancelled makes it raise
    InvalidStateError (later versions ignore it): that traceback is noise
    after Ctrl-C, so it is kept off stderr while the pool closes.
    """
    hook = threading.excepthook

    def quiet(args):
        if not issubclass(args.exc_type, cf.InvalidStateError):
            hook(args)

    threading.excepthook = quiet
    try:
        for process in list(getattr(executor, "_processes", {}).values()):
            process.terminate()
        executor.shutdown(wait=True, cancel_futures=True)
    finally:
        threading.excepthook = hook


def release(executor, futures, own: bool, complete: bool) -> None:
    """The end of a run of jobs on ``executor``: the ``futures`` not yet
    started are cancelled; a pool of our own (``own``) is shut down after
    its jobs when the run is ``complete``, else stopped at once
    (``stop_pool``), not after the jobs still running."""
    for future in futures:
        future.cancel()
    if own:
        if complete:
            executor.shutdown(wait=True)
        else:
            stop_pool(executor)


def install(payload: Payload, parent: int | None = None) -> None:
    """Process-pool initializer: keep the problem; let Ctrl-C reach only
    the parent, which stops the pool; and end with the parent (``parent``,
    its pid) if it dies without stopping the pool (``kill -9``, a crash):
    an orphaned worker would otherwise wait for jobs forever."""
    installed[payload.digest] = payload
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if parent is not None:
        threading.Thread(
            target=_exit_with,
            args=(parent,),
            daemon=True,
            name="dlx-exit-with-parent",
        ).start()


def _exit_with(parent: int, every: float = 0.5) -> None:
    """Exit this process once its parent is no longer ``parent``."""
    while os.getppid() == parent:
        time.sleep(every)
    os._exit(1)


def problem_for(payload):
    """The problem of ``payload`` (a ``Payload``, or the fingerprint of
    one installed in this process), unpickled once per process: threads
    may share it (engines' arrays are read only, and ``stats`` is kept
    per thread)."""
    if isinstance(payload, str):
        payload = installed[payload]
    problem = installed.get(("problem", payload.digest))
    if problem is None:
        with _unpickling:
            problem = installed.get(("problem", payload.digest))
            if problem is None:
                problem = pickle.loads(payload.blob)
                installed[("problem", payload.digest)] = problem
    return problem


def run_piece(
    payload,
    engine: str,
    given: tuple,
    path: tuple,
    mrv_cutoff: int,
    budget: int = 0,
) -> JobResult:
    """Count one job (``path`` below the options ``given``) with the
    engine named ``engine`` for at most ``budget`` nodes (0: to its end),
    in a worker: see ``Engine.run_job``.  The figures of the rest it hands
    back, counted as jobs, add up with its own to the figures of the whole
    job."""
    problem = problem_for(payload)
    search = BY_NAME[engine]
    arrays = search.arrays(problem)
    return search.run_job(
        arrays,
        search.option_nodes(arrays, given),
        tuple(path),
        mrv_cutoff,
        budget,
    )


def run_jobs(
    payload, engine: str, given: tuple, paths, mrv_cutoff: int, budget: int = 0
) -> list:
    """``run_piece`` for each of ``paths``: one task for executors whose
    every task costs milliseconds (Dask)."""
    return [
        run_piece(payload, engine, given, path, mrv_cutoff, budget)
        for path in paths
    ]


def executor_workers(executor) -> int:
    """How many jobs ``executor`` runs at once, as far as it says."""
    client = dask_client(executor)
    if client is not None:
        try:
            return max(1, sum(client.nthreads().values()))
        except Exception:  # noqa: BLE001 - a scheduler that cannot say: one
            return 1
    return int(getattr(executor, "_max_workers", 1) or 1)


def dask_client(executor):
    """The ``distributed.Client`` behind a Dask executor, else None."""
    client = getattr(executor, "_client", None)
    return client if hasattr(client, "scatter") else None


def process_pool(workers: int, payload: Payload) -> cf.ProcessPoolExecutor:
    """A pool of ``workers`` processes, each with ``payload`` installed."""
    # fork starts a worker in milliseconds with the kernels already
    # loaded; elsewhere the platform's default start method is used.
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context(
        "fork" if "fork" in methods else None
    )
    return cf.ProcessPoolExecutor(
        workers,
        mp_context=context,
        initializer=install,
        initargs=(payload, os.getpid()),
    )
