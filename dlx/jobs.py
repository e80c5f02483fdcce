"""Counts that take hours: independent jobs, executors, checkpoints, progress.

A *job* is one node of the search tree, named by the options chosen on
the path from the root to it (the problem's givens first).  Counting the
problem with those options given counts exactly the subtree below that
node, so a *split* -- the top of the tree walked here, plus the jobs on
its frontier -- counts the whole tree: the split's own nodes, updates and
solutions plus those of every job are exactly the figures of one search
from the root (DLX1's figures).  Jobs are plain data (a tuple of option
numbers and two numbers), so any ``concurrent.futures.Executor`` runs
them: processes on this machine by default, threads, or a Dask cluster
through ``distributed.Client.get_executor()``.

A job that turns out large is split again the same way:
``split(problem, given=job.given)``.  A count does that by itself as it
runs: on a pool of workers each job stops after a node budget (a share of
the whole tree's estimated nodes) and hands back, with the figures of what
it explored, its unexplored rest as new jobs -- the node where it stopped
and the untried siblings of every node on its path (``run_piece``).  So
the figures still add up exactly, and a job whose size the estimate
missed (polyomino trees are very irregular) cannot hold up the end of a
count.

    >>> from dlx.problems.queens import queens
    >>> p = queens(8)
    >>> plan = split(p, jobs=20)
    >>> len(plan.jobs) >= 20
    True
    >>> sum(p.count(given=job.given) for job in plan.jobs) + plan.solutions
    92

A checkpoint is an append-only log: a header line (which problem, which
split) written whole by write-then-rename, then one line per finished job
(with, in the same line, the jobs it handed back when its budget ran out),
each flushed and fsynced before the next job is recorded.  A crash at any
instant leaves at most a torn last line, which is dropped on resume; a job
is recorded only after it finished, and a recorded job is never run again,
so the resumed count is exactly the uninterrupted one.
"""

from __future__ import annotations

import collections
import contextlib
import concurrent.futures as cf
import hashlib
import json
import multiprocessing
import os
import pickle
import signal
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Callable, Iterable, Sequence

import numpy as np

from .kernels import links as K
from .links import LinksRun, load_kernels
from .search import (NO_LIMIT, OUT_OF_NODES, BudgetExhausted, Interrupted,
                     Stats, whole_number)
from .xcc import EXACT

__all__ = ["Job", "Split", "split", "count", "Progress", "Checkpoint",
           "CheckpointError"]

# How many jobs per worker a split aims at by default (before the jobs
# estimated far above the mean are split again, see BALANCE_*): with the
# largest run first, a few per worker keep every worker busy to the end.
JOBS_PER_WORKER = 16
# ... and never fewer than this, so that a checkpoint saves work often and
# a run resumed on a machine with more cores still balances.
MIN_JOBS = 256
# On an executor of our choosing (a process pool) each job is one task.
# Elsewhere a task costs more (a Dask task takes milliseconds of the
# scheduler's time), so jobs go in batches, this many per worker; each
# batch takes every so many jobs of the largest-first order, so batches
# are alike in size.
TASKS_PER_WORKER = 16
# The split estimates every job with this many of Knuth's probes and
# splits again any job estimated above BALANCE_FACTOR times the mean (at
# most BALANCE_ROUNDS times): trees are irregular (6x10 pentominoes: a
# breadth-first frontier's largest job is hundreds of times its mean).
BALANCE_PROBES = 16
BALANCE_FACTOR = 2.0
BALANCE_ROUNDS = 8
# ... as long as the jobs stay fewer than this many times the target.
BALANCE_JOBS = 4
# On a pool of workers a job stops after a node budget and hands back its
# unexplored rest as new jobs: the budget is the tree's estimated nodes
# over BUDGET_PER_WORKER pieces per worker, so that the last pieces to
# finish hold up their workers for a small share of the count (in a
# simulation of 6x10 pentominoes on 100 workers, bench/longcount.py, 8
# left 8% of the workers' time idle, 32 left 2%) ...
BUDGET_PER_WORKER = 32
# ... but never below this many nodes (a few tens of milliseconds), so a
# piece's own cost (a copy of the links, its givens chosen, a task sent)
# is lost in it.
MIN_BUDGET = 1 << 18


class CheckpointError(ValueError):
    """A checkpoint file that does not belong to this count."""


@dataclass(frozen=True)
class Job:
    """A subtree: count the problem with ``given`` chosen (option numbers).

    ``share``: the subtree's share of the whole tree by Knuth's measure
    (one over the product of the branching degrees on its path), used for
    progress; ``commit_updates``: the link updates that choosing ``given``
    makes, which belong to the split, not to the job's subtree; ``size``:
    its updates as estimated by a few probes (0.0 when not estimated),
    which orders the jobs largest first.
    """

    given: tuple
    share: float = 1.0
    commit_updates: int = 0
    size: float = 0.0


@dataclass
class Split:
    """The top of a search tree and the jobs on its frontier.

    ``nodes``/``updates``/``solutions``: the work of the top of the tree,
    done while splitting (solutions found there are shallow leaves);
    ``settled``: the share of the tree finished while splitting;
    ``jobs``: in the order the search would meet them;
    ``estimated_nodes``: the whole tree's nodes by Knuth's estimate of
    every job (0 when the split made no estimate), which sets the node
    budget of a job on a pool of workers.
    """

    given: tuple
    mrv_cutoff: int
    target: int
    jobs: list = field(default_factory=list)
    nodes: int = 0
    updates: int = 0
    solutions: int = 0
    settled: float = 0.0
    estimated_nodes: float = 0.0

    def digest(self) -> str:
        """A fingerprint of the split (its jobs and the search rule)."""
        h = hashlib.sha256()
        h.update(json.dumps([list(self.given), self.mrv_cutoff,
                             [list(j.given) for j in self.jobs]]).encode())
        return h.hexdigest()[:32]


def problem_digest(problem) -> str:
    """A fingerprint of a problem's structure (items and options, not
    their names): the same count for the same fingerprint."""
    links = problem.links
    h = hashlib.sha256()
    h.update(f"{type(problem).__name__} {len(problem.items)} "
             f"{links.nprimary}".encode())
    h.update(np.ascontiguousarray(links.top, np.int32).tobytes())
    return h.hexdigest()[:32]


# -- splitting ------------------------------------------------------------
class _Top:
    """DLX1's search tree near the root, walked from Python one node at a
    time with the kernels' single steps (the branching item is chosen as
    the search chooses it, so the frontier is the search's own)."""

    def __init__(self, problem, given_nodes, cutoff):
        links = problem.links
        self.arrays = links.copy_arrays()
        self.option_start = links.option_start
        self.option_of = links.option_of
        self.cutoff = cutoff
        self.base = 0
        self.clash = False
        for p in given_nodes:
            u = K.commit_option(p, *self.arrays)
            if u < 0:
                self.clash = True
                return
            self.base += u

    def solved(self) -> bool:
        return self.arrays[1][0] == 0

    def expand(self, path):
        """Branch at the node ``path`` (option numbers below the givens):
        returns the updates of covering its item and trying each option,
        and per child ``(option, is a solution, updates to commit it)``."""
        arrays = self.arrays
        llink, rlink, dlink = arrays[0], arrays[1], arrays[3]
        nodes = [int(self.option_start[k]) for k in path]
        for p in nodes:
            K.commit_option(p, *arrays)
        best = K.choose_item(llink, rlink, arrays[5], self.cutoff)
        updates = K.cover(best, *arrays)
        tried = []
        p = int(dlink[best])
        while p != best:
            updates += K.cover_rest(p, *arrays)
            tried.append((p, rlink[0] == 0))
            K.uncover_rest(p, *arrays)
            p = int(dlink[p])
        K.uncover(best, *arrays)
        children = []
        for p, leaf in tried:
            # What count(given=...) spends choosing this option on top of
            # its ancestors (the same whatever the order of choosing).
            u = K.commit_option(p, *arrays)
            K.release_option(p, *arrays)
            children.append((int(self.option_of[p]), bool(leaf), u))
        for p in reversed(nodes):
            K.release_option(p, *arrays)
        return updates, children

    def size(self, path, probes: int, seed: int) -> tuple:
        """The estimated ``(nodes, updates)`` of the subtree at ``path``
        (Knuth's probes, seeded by ``seed``)."""
        arrays = self.arrays
        nodes = [int(self.option_start[k]) for k in path]
        for p in nodes:
            K.commit_option(p, *arrays)
        out = np.zeros((probes, 3))
        choice = np.zeros(len(arrays[0]), np.int32)
        K.estimate(*arrays, choice, self.cutoff, seed, out)
        for p in reversed(nodes):
            K.release_option(p, *arrays)
        return float(out[:, 0].mean()), float(out[:, 1].mean())


def split(problem, *, jobs: int = MIN_JOBS, given: Iterable[int] = (),
          mrv_cutoff: int = 0, probes: int = BALANCE_PROBES,
          seed: int = 0) -> Split:
    """Split ``problem``'s search tree into at least ``jobs`` subtrees
    (fewer only when the tree is smaller).

    Nodes are expanded nearest the root first until the frontier holds
    ``jobs`` nodes; then, with ``probes`` > 0, each is estimated by that
    many of Knuth's probes (seeded from ``seed``) and any estimated above
    ``BALANCE_FACTOR`` times the mean is split again, a few rounds.
    ``given``: options chosen before the search (a job's ``given`` splits
    that job again).  The jobs come in the order the search meets them.
    """
    from .problem import _cutoff

    if getattr(problem, "kind", EXACT) != EXACT:
        raise ValueError("jobs split DLX1's search tree; a problem with "
                         "colors or bounds is counted in one search")
    target = whole_number("jobs", jobs) or 1
    probes = whole_number("probes", probes)
    seed = whole_number("seed", seed)
    cutoff = _cutoff(mrv_cutoff)
    given = tuple(dict.fromkeys(given))
    nodes = problem._given_nodes(given)
    load_kernels("steps")
    if probes:
        load_kernels("search")
    plan = Split(given, cutoff, target)
    top = _Top(problem, nodes, cutoff)
    if top.clash:  # the givens overlap: an empty tree
        plan.settled = 1.0
        return plan
    plan.updates = top.base
    if top.solved():  # the givens alone are a cover: one leaf node
        plan.nodes = plan.solutions = 1
        plan.settled = 1.0
        return plan

    def expand(entry):
        """The entry's node is walked here: its children that are not
        solutions become entries."""
        place, path, share, commit = entry
        updates, children = top.expand(path)
        plan.nodes += 1
        plan.updates += updates
        if not children:
            plan.settled += share
        grown = []
        for k, (option, leaf, u) in enumerate(children):
            child_share = share / len(children)
            if leaf:
                plan.nodes += 1
                plan.solutions += 1
                plan.settled += child_share
            else:
                grown.append((place + (k,), path + (option,), child_share,
                              commit + u))
        return grown

    # Entries: (position among siblings on the path, path, share, commit).
    frontier = collections.deque([((), (), 1.0, top.base)])
    while frontier and len(frontier) < target:
        frontier.extend(expand(frontier.popleft()))
    frontier = list(frontier)
    sizes: dict = {}
    limit = None
    for _ in range(BALANCE_ROUNDS if probes else 0):
        for entry in frontier:
            if entry[1] not in sizes:
                sizes[entry[1]] = top.size(entry[1], probes,
                                           seed + len(sizes))
        if limit is None:  # a fair share of the whole tree, fixed
            limit = BALANCE_FACTOR * sum(sizes[e[1]][1] for e in frontier) / \
                max(target, len(frontier))
        big = [e for e in frontier if sizes[e[1]][1] > limit]
        if not big or len(frontier) + len(big) > BALANCE_JOBS * target:
            break
        frontier = [child for entry in frontier for child in (
            expand(entry) if sizes[entry[1]][1] > limit else [entry])]
    for place, path, share, commit in sorted(frontier):
        nodes, updates = sizes.get(path, (0.0, 0.0))
        plan.jobs.append(Job(given + path, share, commit, updates))
        plan.estimated_nodes += nodes
    if plan.estimated_nodes:
        plan.estimated_nodes += plan.nodes
    return plan


# -- running one job --------------------------------------------------------
class _Payload:
    """The problem, pickled once, with its fingerprint; workers unpickle
    it once per thread and keep it (``_installed``)."""

    def __init__(self, problem, digest: str):
        self.digest = digest
        self.blob = pickle.dumps(problem, protocol=pickle.HIGHEST_PROTOCOL)


_installed: dict = {}
_local = threading.local()


def _stop_pool(executor) -> None:
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


def _install(payload: _Payload, parent: int | None = None) -> None:
    """Process-pool initializer: keep the problem; let Ctrl-C reach only
    the parent, which stops the pool; and end with the parent (``parent``,
    its pid) if it dies without stopping the pool (``kill -9``, a crash):
    an orphaned worker would otherwise wait for jobs forever."""
    _installed[payload.digest] = payload
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if parent is not None:
        threading.Thread(target=_exit_with, args=(parent,), daemon=True,
                         name="dlx-exit-with-parent").start()


def _exit_with(parent: int, every: float = 0.5) -> None:
    """Exit this process once its parent is no longer ``parent``."""
    while os.getppid() == parent:
        time.sleep(every)
    os._exit(1)


def _problem_for(payload) -> object:
    """This thread's own copy of the problem (a search keeps its ``stats``
    on the problem object, so threads must not share one)."""
    if isinstance(payload, str):
        payload = _installed[payload]
    cache = getattr(_local, "problems", None)
    if cache is None:
        cache = _local.problems = {}
    problem = cache.get(payload.digest)
    if problem is None:
        problem = cache[payload.digest] = pickle.loads(payload.blob)
    return problem


def run_jobs(payload, batch, mrv_cutoff: int, budget: int = 0) -> list:
    """``run_piece`` for each ``given`` of ``batch``: one task for
    executors whose every task costs milliseconds (Dask)."""
    return [run_piece(payload, given, mrv_cutoff, budget)
            for given in batch]


def run_piece(payload, given: tuple, mrv_cutoff: int, budget: int = 0):
    """Count one job for at most ``budget`` nodes (0: to its end).

    Returns ``(solutions, nodes, updates, seconds, rest)``: the figures of
    the part of the job's subtree explored, and ``rest``, the unexplored
    part as new jobs ``(given, share)`` (``share``: of this job's tree),
    empty when the job ran to its end.  The figures of the rest, counted
    as jobs, add up with these to the figures of the whole job: DLX1's
    node and updates of the untried siblings' own covers (and the leaves
    among them) are counted here, at their parent, where one search counts
    them.  Runs in a worker; ``payload`` is a ``_Payload`` or the
    fingerprint of one installed in this process.
    """
    problem = _problem_for(payload)
    links = problem.links
    load_kernels("search")
    run = LinksRun(links, problem._given_nodes(given), mrv_cutoff)
    commit = int(run.counters[1])
    if run.clash:
        return 0, 0, 0, 0.0, []
    if run.covered:
        return 1, 1, 0, 0.0, []
    t0 = time.perf_counter()
    status = K.search(*run.arrays, run.choice, run.state,
                      np.zeros((0, 1), np.int32), np.zeros(0, np.int32), 0,
                      min(int(budget), NO_LIMIT) if budget else NO_LIMIT,
                      run.counters,
                      mrv_cutoff)
    seconds = time.perf_counter() - t0
    solutions, nodes, updates = (int(x) for x in run.counters[[2, 0, 1]])
    updates -= commit
    rest = []
    if status == OUT_OF_NODES:
        found, leaves, extra = _hand_back(run, tuple(given), rest)
        solutions += found
        nodes += leaves
        updates += extra
    return solutions, nodes, updates, seconds, rest


def _hand_back(run: LinksRun, given: tuple, rest: list):
    """Turn a search stopped at its node bound into jobs, undoing it.

    The kernel stops on entering a node (``state`` is ``(level,
    FORWARD)``): that node, whose path is ``choice[0..level-1]``, is a job,
    and so is every option still untried at each level above it.  Trying
    one of those costs its parent the updates of ``cover_rest`` (and a
    leaf node when it completes a cover), which one search counts at the
    parent: returned here as ``(solutions, nodes, updates)``.
    """
    arrays = run.arrays
    rlink, dlink, top = arrays[1], arrays[3], arrays[4]
    option_of = run.option_of
    choice = run.choice
    level = int(run.state[0])
    path = [int(option_of[choice[k]]) for k in range(level)]
    shares = [1.0]
    for k in range(level):  # Knuth's measure: 1 / the product of degrees
        best = int(top[choice[k]])
        degree = 0
        q = int(dlink[best])
        while q != best:
            degree += 1
            q = int(dlink[q])
        shares.append(shares[-1] / degree)
    rest.append((given + tuple(path), shares[level]))
    found = leaves = extra = 0
    for k in range(level - 1, -1, -1):
        p = int(choice[k])
        best = int(top[p])
        K.uncover_rest(p, *arrays)
        q = int(dlink[p])
        while q != best:
            extra += K.cover_rest(q, *arrays)
            if rlink[0] == 0:  # a cover: a leaf, not a job
                found += 1
                leaves += 1
            else:
                rest.append((given + tuple(path[:k]) +
                             (int(option_of[q]),), shares[k + 1]))
            K.uncover_rest(q, *arrays)
            q = int(dlink[q])
        K.uncover(best, *arrays)
    run.state[:] = (0, K.DONE)
    return found, leaves, extra


# -- checkpoints ---------------------------------------------------------------
_FORMAT = "dlx-checkpoint 2"
# Version 1 had no jobs handed back; its records read the same.
_READABLE = (_FORMAT, "dlx-checkpoint 1")


class Checkpoint:
    """The finished jobs of one split, kept in an append-only file.

    Open with ``Checkpoint(path, problem, plan)``: a new file gets a header
    naming the problem and the split; an existing one must have the same,
    or ``CheckpointError`` says what differs.  ``done`` maps each recorded
    job's ``given`` to its ``(solutions, nodes, updates, seconds, rest)``,
    ``rest`` being the jobs it handed back, ``(given, share)`` each (see
    ``run_piece``): they are recorded in the same line as the figures, so
    a job's rest is known exactly when its figures are.
    """

    def __init__(self, path, problem_fingerprint: str, plan: Split):
        self.path = os.fspath(path)
        self.done: dict = {}
        header = {"format": _FORMAT, "problem": problem_fingerprint,
                  "given": list(plan.given), "mrv_cutoff": plan.mrv_cutoff,
                  "target": plan.target, "jobs": len(plan.jobs),
                  "split": plan.digest()}
        if os.path.exists(self.path):
            self._resume(header)
        else:
            self._create(header)
        self._file = open(self.path, "a", encoding="utf-8")

    @staticmethod
    def read_header(path) -> dict | None:
        """The header of the checkpoint at ``path``, or None if there is no
        file; CheckpointError if it is not a checkpoint."""
        path = os.fspath(path)
        if not os.path.exists(path):
            return None
        with open(path, "rb") as f:
            first = f.readline()
        try:
            header = json.loads(first)
            if header.get("format") not in _READABLE:
                raise ValueError
        except (ValueError, AttributeError):
            raise CheckpointError(f"{path} is not a dlx checkpoint (its "
                                  f"first line is not a checkpoint header)"
                                  ) from None
        return header

    @staticmethod
    def recorded(path, problem_fingerprint: str, given=(),
                 mrv_cutoff: int = 0) -> int:
        """The solutions of the jobs recorded at ``path`` for this problem,
        given options and cutoff (0 without such a checkpoint): what a count
        interrupted before it read the file holds already."""
        try:
            header = None if path is None else Checkpoint.read_header(path)
        except (CheckpointError, OSError):
            return 0
        if header is None or (header.get("problem"), header.get("given"),
                              header.get("mrv_cutoff")) != (
                problem_fingerprint, list(given), mrv_cutoff):
            return 0
        with open(os.fspath(path), "rb") as f:
            lines = f.read().split(b"\n")[1:-1]  # (the last may be torn)
        total, seen = 0, set()
        for line in lines:
            try:
                entry = json.loads(line)
                key, found = tuple(entry["given"]), entry["solutions"]
            except (ValueError, KeyError, TypeError):
                break
            if type(found) is int and found >= 0 and key not in seen:
                seen.add(key)
                total += found
        return total

    def _create(self, header: dict) -> None:
        # The header appears whole or not at all: written to a temporary
        # file, synced, then renamed over the name.
        temporary = f"{self.path}.tmp{os.getpid()}"
        with open(temporary, "w", encoding="utf-8") as f:
            f.write(json.dumps(header) + "\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(temporary, self.path)
        _sync_directory(self.path)

    def _resume(self, header: dict) -> None:
        old = self.read_header(self.path)
        where = self.path
        if old["problem"] != header["problem"]:
            raise CheckpointError(f"{where} was made for a different problem; "
                                  f"remove it or name another file")
        for key, what in (("given", "given options"),
                          ("mrv_cutoff", "mrv_cutoff")):
            if old[key] != header[key]:
                raise CheckpointError(
                    f"{where} was made with {what} {old[key]!r}, not "
                    f"{header[key]!r}")
        if old["split"] != header["split"]:
            raise CheckpointError(
                f"{where} was made for a different split of this problem "
                f"({old['jobs']} jobs aimed at {old['target']}, not "
                f"{header['jobs']} aimed at {header['target']})")
        with open(self.path, "rb") as f:
            data = f.read()
        lines = data.split(b"\n")
        good = len(lines[0]) + 1
        # The last piece is empty after a whole last line; anything else
        # there is a line torn by a crash, and is dropped.
        for k, line in enumerate(lines[1:-1], 2):
            try:
                entry = json.loads(line)
                key = tuple(entry["given"])
                value = (int(entry["solutions"]), int(entry["nodes"]),
                         int(entry["updates"]), 0.0,
                         [(tuple(int(o) for o in given), float(share))
                          for given, share in entry.get("rest", ())])
                # (A hand-edited figure is no count: whole numbers >= 0.)
                if any(type(entry[f]) is not int or entry[f] < 0 for f in
                       ("solutions", "nodes", "updates")):
                    raise ValueError
            except (ValueError, KeyError, TypeError):
                raise CheckpointError(f"{where}:{k}: not a job record; the "
                                      f"file is damaged") from None
            self.done.setdefault(key, value)
            good += len(line) + 1
        if good < len(data):
            with open(self.path, "r+b") as f:
                f.truncate(good)
                f.flush()
                os.fsync(f.fileno())

    def record(self, job: Job, result) -> None:
        """Record a finished job durably (flushed and fsynced)."""
        solutions, nodes, updates = result[:3]
        rest = [(tuple(g), s) for g, s in result[4]] if len(result) > 4 \
            else []
        self.done[tuple(job.given)] = (solutions, nodes, updates, 0.0, rest)
        entry = {"given": list(job.given), "solutions": solutions,
                 "nodes": nodes, "updates": updates}
        if rest:
            entry["rest"] = [[list(g), s] for g, s in rest]
        self._file.write(json.dumps(entry) + "\n")
        self._file.flush()
        os.fsync(self._file.fileno())

    def close(self) -> None:
        self._file.close()


def _sync_directory(path: str) -> None:
    """Make a rename durable (the directory entry), where the OS allows."""
    try:
        fd = os.open(os.path.dirname(os.path.abspath(path)), os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


# -- progress ------------------------------------------------------------------
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
            raise ImportError("the progress bar needs tqdm: pip install "
                              "'dlx-toolkit[progress]'") from None
        # No monitor thread: the process pool is forked after the bar
        # starts, and a fork should not copy a process with threads.
        tqdm.monitor_interval = 0
        self.bar = tqdm(total=1000, unit="‰", delay=delay,
                        file=stream or sys.stderr, leave=False,
                        dynamic_ncols=True,
                        bar_format="{l_bar}{bar}| {remaining} left{postfix}")
        self.shown = 0

    def __call__(self, p: Progress) -> None:
        reached = min(1000, int(p.fraction * 1000))
        if reached > self.shown:
            self.bar.update(reached - self.shown)
            self.shown = reached
        self.bar.set_postfix_str(f"{p.solutions:,} solutions, "
                                 f"{p.jobs_done}/{p.jobs} jobs",
                                 refresh=False)

    def close(self) -> None:
        self.bar.close()


def progress_bar(delay: float = 1.0, stream=None) -> _Bar:
    """A ``progress`` callable drawing a bar on stderr (needs tqdm)."""
    return _Bar(delay, stream)


# How often (seconds) a search reports its progress.
PROGRESS_EVERY = 0.1


@contextlib.contextmanager
def slice_progress(progress):
    """A hook for ``dlx.search.run`` (called between slices) that hands
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
        progress(Progress(fraction, 0, 1, stats.solutions, stats.nodes,
                          now - start))

    try:
        yield hook
    finally:
        if bar is not None:
            bar.close()


# -- running many jobs ---------------------------------------------------------
def _workers(jobs) -> int:
    return whole_number("jobs", jobs) or (os.cpu_count() or 1)


def _executor_workers(executor) -> int:
    """How many jobs ``executor`` runs at once, as far as it says."""
    client = _dask_client(executor)
    if client is not None:
        try:
            return max(1, sum(client.nthreads().values()))
        except Exception:  # a scheduler that cannot say: assume one
            return 1
    return int(getattr(executor, "_max_workers", 1) or 1)


def _dask_client(executor):
    """The ``distributed.Client`` behind a Dask executor, else None."""
    client = getattr(executor, "_client", None)
    return client if hasattr(client, "scatter") else None


def _process_pool(workers: int, payload: _Payload) -> cf.ProcessPoolExecutor:
    # fork starts a worker in milliseconds with the kernels already
    # loaded; elsewhere the platform's default start method is used.
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods
                                          else None)
    return cf.ProcessPoolExecutor(workers, mp_context=context,
                                  initializer=_install,
                                  initargs=(payload, os.getpid()))


def job_budget(plan: Split, workers: int) -> int:
    """The node budget of a job run by ``workers`` workers (0: none):
    ``BUDGET_PER_WORKER`` pieces per worker of the estimated tree, at
    least ``MIN_BUDGET`` nodes."""
    if not plan.estimated_nodes:
        return 0
    # (An empty 9x9 Sudoku's tree is estimated far beyond int64.)
    return min(NO_LIMIT, max(MIN_BUDGET, int(
        plan.estimated_nodes / (BUDGET_PER_WORKER * max(1, workers)))))


def count(problem, *, given: Iterable[int] = (), mrv_cutoff: int = 0,
          jobs: int = 0, executor: cf.Executor | None = None,
          split_jobs: int | None = None, checkpoint=None,
          progress: Callable[[Progress], None] | bool | None = None,
          plan: Split | None = None, budget: int | None = None) -> int:
    """Count every solution of ``problem`` as independent jobs.

    ``executor``: any ``concurrent.futures.Executor`` (for a Dask cluster,
    ``distributed.Client(...).get_executor()``: the problem is sent to
    each worker once); by default ``jobs`` processes on this machine (0:
    one per core; 1: in this process).  ``split_jobs``: how many jobs to
    split into (default: ``JOBS_PER_WORKER`` per worker, at least
    ``MIN_JOBS``; a checkpoint keeps its own).  ``budget``: the nodes a
    job explores on a worker before it hands back its rest as new jobs
    (default ``job_budget``; 0: never; jobs run in this process run to
    their end).  ``checkpoint``: a file recording every finished job and
    every job handed back (see ``Checkpoint``); the same call after a
    crash resumes from it.  ``progress``: a callable given a ``Progress``
    after each job, or True for a bar on stderr.

    Sets ``problem.stats`` to the figures of the whole search (the same
    count, nodes and updates as one search from the root) and returns the
    count.  Ctrl-C raises ``dlx.Interrupted`` with the partial count
    (the jobs finished so far).
    """
    from .problem import _SERIAL_PROBE_NODES

    workers = _executor_workers(executor) if executor is not None \
        else _workers(jobs)
    budget = whole_number("budget", budget, optional=True)
    given = list(given)
    if executor is None and workers > 1 and checkpoint is None \
            and plan is None:
        try:  # a small tree is over before a process pool would start
            return problem.count(given=given, max_nodes=_SERIAL_PROBE_NODES,
                                 algorithm="links",
                                 mrv_cutoff=mrv_cutoff)
        except BudgetExhausted:
            pass
    fingerprint = problem_digest(problem)
    if plan is None:
        target = split_jobs
        if target is None and checkpoint is not None:
            header = Checkpoint.read_header(checkpoint)
            if header is not None and header.get("problem") == fingerprint:
                target = header.get("target")
        if target is None:
            target = max(MIN_JOBS, JOBS_PER_WORKER * workers)
        try:
            plan = split(problem, jobs=target, given=given,
                         mrv_cutoff=mrv_cutoff)
        except KeyboardInterrupt:
            # Before the checkpoint is read: its jobs are counted all the
            # same (the partial count is never below what it holds).
            held = Checkpoint.recorded(checkpoint, fingerprint, given,
                                       mrv_cutoff)
            problem.stats = Stats(solutions=held, complete=False)
            raise Interrupted(held, problem.stats) from None
    if budget is None:
        budget = job_budget(plan, workers)
    log = None
    if checkpoint is not None:
        log = Checkpoint(checkpoint, fingerprint, plan)
    bar = None
    if progress is True:
        progress = bar = progress_bar()
    start = time.perf_counter()
    stats = Stats(plan.nodes, plan.updates, plan.solutions, 0.0, False)
    fraction = plan.settled
    done = 0
    total = len(plan.jobs)

    def absorb(job, result) -> list:
        """Add a job's figures; its rest (jobs handed back) is returned."""
        nonlocal fraction, done, total
        stats.solutions += result[0]
        stats.nodes += result[1]
        stats.updates += result[2]
        rest = [Job(tuple(g), job.share * share)
                for g, share in (result[4] if len(result) > 4 else ())]
        fraction += job.share - sum(j.share for j in rest)
        done += 1
        total += len(rest)
        return rest

    # Resume: what the checkpoint holds is added up, the jobs it handed
    # back are looked up in turn, and what is left is run.
    pending, handed_back = [], []
    stack = [(job, False) for job in reversed(plan.jobs)]
    while stack:
        job, back = stack.pop()
        result = log.done.get(tuple(job.given)) if log else None
        if result is None:
            (handed_back if back else pending).append(job)
        else:
            stack.extend((j, True) for j in reversed(absorb(job, result)))

    def report():
        progress(Progress(min(fraction, 1.0), done, total, stats.solutions,
                          stats.nodes, time.perf_counter() - start))

    def finished(job, result) -> list:
        # Added up before it is recorded: Ctrl-C during the record's fsync
        # must not leave the partial count below what the file holds.
        rest = absorb(job, result)
        if log is not None:
            log.record(job, result)
        if progress:
            report()
        return rest

    def within(job):
        """Progress inside a job counted here: its share of the tree."""
        if not progress:
            return None

        def report(inside: Progress):
            progress(Progress(min(fraction + job.share * inside.fraction,
                                  1.0), done, total,
                              stats.solutions + inside.solutions,
                              stats.nodes + inside.nodes,
                              time.perf_counter() - start))
        return report

    if progress and done:  # resumed: show what the checkpoint holds
        progress(Progress(min(fraction, 1.0), done, total,
                          stats.solutions, stats.nodes, 0.0))
    try:
        _run_all(problem, plan, pending, handed_back, executor, workers,
                 fingerprint, finished, within, budget)
    except KeyboardInterrupt:
        stats.seconds = time.perf_counter() - start
        problem.stats = stats
        raise Interrupted(stats.solutions, stats) from None
    finally:
        if bar is not None:
            bar.close()
        if log is not None:
            log.close()
    stats.seconds = time.perf_counter() - start
    stats.complete = True
    problem.stats = stats
    return stats.solutions


def _run_all(problem, plan: Split, pending: Sequence[Job],
             handed_back: Sequence[Job], executor, workers: int,
             fingerprint: str, finished, within, budget: int) -> None:
    """Run ``pending`` and ``handed_back`` (jobs a budget cut short) and
    every job they hand back; ``finished(job, result)`` (called here, as
    results arrive) records a result and returns the jobs it hands back.
    ``within(job)`` is the progress callable of a job run here, or None.

    The jobs wait in one queue: jobs handed back first (they come from
    jobs known to be large; shallower first, as a work-stealing scheduler
    takes the oldest), then the split's largest first by its estimate
    (else by Knuth's measure: a shallower job stands for more of the
    tree), so the last jobs to finish are small ones.  Only about two
    tasks per worker are out at a time, so that a job handed back runs
    next, not after every job submitted before it.
    """
    if not pending and not handed_back:
        return
    cutoff = plan.mrv_cutoff
    queue = collections.deque(
        [job] for job in sorted(handed_back, key=lambda j: -j.share))
    order = sorted(pending, key=lambda job: (-job.size, -job.share))
    if executor is None and workers <= 1:
        queue.extend([job] for job in order)
        while queue:  # here, one after the other, each to its end
            job = queue.popleft()[0]
            found = problem.count(given=job.given, mrv_cutoff=cutoff,
                                  algorithm="links",
                                  progress=within(job))
            s = problem.stats
            finished(job, (found, s.nodes,
                           s.updates - _commit_updates(problem, job)))
        return
    payload = _Payload(problem, fingerprint)
    own = executor is None
    if own:
        queue.extend([job] for job in order)
        executor = _process_pool(min(workers, len(queue)), payload)
        handle = fingerprint  # installed in every worker by _install
    else:
        client = _dask_client(executor)
        # A Dask cluster gets the problem once per worker; other
        # executors get the payload with every job (a thread pool shares
        # it in memory).
        handle = (client.scatter(payload, broadcast=True)
                  if client is not None else payload)
        # A task costs milliseconds there: the split's jobs go in
        # batches, each taking every so many jobs of the largest-first
        # order, so batches are alike in size.
        tasks = min(len(order), TASKS_PER_WORKER * max(1, workers))
        queue.extend(order[k::tasks] for k in range(tasks))
    window = 2 * max(1, workers)
    futures = {}
    complete = False

    def submit():
        while queue and len(futures) < window:
            batch = queue.popleft()
            if own:
                future = executor.submit(run_piece, handle, batch[0].given,
                                         cutoff, budget)
            else:
                future = executor.submit(
                    run_jobs, handle, [job.given for job in batch], cutoff,
                    budget)
            futures[future] = batch

    try:
        submit()
        while futures:
            ready, _ = cf.wait(futures, return_when=cf.FIRST_COMPLETED)
            back = []
            for future in ready:
                batch = futures.pop(future)
                results = [future.result()] if own else future.result()
                for job, result in zip(batch, results):
                    back += finished(job, result)
            # Handed back: to the front of the queue, shallowest first.
            for job in sorted(back, key=lambda j: j.share):
                queue.appendleft([job])
            submit()
        complete = True
    finally:
        for future in futures:
            future.cancel()
        if own:
            if complete:
                executor.shutdown(wait=True)
            else:  # stop at once, not after the running jobs
                _stop_pool(executor)


def _commit_updates(problem, job: Job) -> int:
    """The updates of choosing a job's givens (known for the split's
    jobs; for a job handed back, found by choosing them)."""
    if job.commit_updates or not job.given:
        return job.commit_updates
    run = LinksRun(problem.links, problem._given_nodes(job.given), 0)
    return int(run.counters[1])
