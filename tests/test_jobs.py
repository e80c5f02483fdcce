"""Counting in independent jobs: splits, executors, checkpoints, progress."""

import json
import os
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from dlx import ExactCover, Interrupted, jobs
from dlx.engines import BY_NAME, ENGINES
from dlx.problems.debruijn import debruijn
from dlx.problems.langford import langford
from dlx.problems.polyomino import Polyomino
from dlx.problems.queens import queens
from dlx.problems.rooks import rooks
from dlx.services import jobs as job_service, pool

from reference import exact_covers

ROOT = Path(__file__).resolve().parent.parent


# The families whose engines hand back the rest of a job cut short (every
# engine that splits a count, of every kind).
HANDING_BACK = sorted({e.algorithm for e in ENGINES if e.hands_back})


def one_search(problem, given=()):
    """(count, nodes, updates) of one plain search from the root (jobs
    split the dancing-links tree, so the figures are DLX1's)."""
    found = problem.count(given=list(given), algorithm="links")
    return found, problem.stats.nodes, problem.stats.updates


def split_sums(problem, plan):
    """(count, nodes, updates) added up over the split and its jobs, each
    job counted as a worker counts it (``Split.run``)."""
    found, nodes, updates = plan.solutions, plan.nodes, plan.updates
    for job in plan.jobs:
        result = plan.run(problem, job)
        found += result.solutions
        nodes += result.nodes
        updates += result.updates
    return found, nodes, updates


@st.composite
def problems(draw):
    nitems = draw(st.integers(1, 8))
    nsecondary = draw(st.integers(0, min(3, nitems)))
    options = draw(
        st.lists(
            st.sets(
                st.integers(0, nitems - 1), min_size=1, max_size=nitems
            ).map(sorted),
            min_size=0,
            max_size=16,
        )
    )
    return nitems, nitems - nsecondary, options


@settings(max_examples=200, deadline=None)
@given(problems(), st.integers(1, 40), st.data())
def test_split_adds_up_to_the_whole_search(case, target, data):
    nitems, nprimary, options = case
    p = ExactCover(range(nprimary), range(nprimary, nitems))
    p.add_options(options)
    forced = (
        data.draw(
            st.lists(
                st.integers(0, max(0, len(options) - 1)),
                max_size=2,
                unique=True,
            )
        )
        if options
        else []
    )
    truth = one_search(p, forced)
    assert truth[0] == len(exact_covers(options, nprimary, nitems, forced))
    plan = jobs.split(p, split_into=target, given=forced, algorithm="links")
    assert split_sums(p, plan) == truth
    # Knuth's shares of the finished top and the jobs make the whole tree.
    assert plan.settled + sum(j.share for j in plan.jobs) == pytest.approx(1.0)


@pytest.mark.parametrize(
    "build",
    [
        lambda: queens(8),
        lambda: langford(8),
        lambda: langford(7, False),
        lambda: Polyomino("3x20").problem,
        lambda: Polyomino("4x5", "tetrominoes").problem,
    ],
    ids=[
        "queens-8",
        "langford-8",
        "langford-7-all",
        "pentomino-3x20",
        "tetromino-4x5",
    ],
)
@pytest.mark.parametrize("target", [1, 7, 100, 2000])
def test_split_of_classics_adds_up(build, target):
    p = build()
    plan = jobs.split(p, split_into=target, algorithm="links")
    assert len(plan.jobs) >= target or not plan.jobs  # or the tree is done
    assert split_sums(p, plan) == one_search(p)


def test_a_job_splits_again():
    p = queens(11)
    plan = jobs.split(p, split_into=4, algorithm="links")
    big = plan.jobs[0]
    again = jobs.split(p, split_into=30, path=big.path, algorithm="links")
    assert len(again.jobs) >= 30
    assert all(j.path[: len(big.path)] == big.path for j in again.jobs)
    alone = plan.run(p, big)
    assert split_sums(p, again) == (
        alone.solutions,
        alone.nodes,
        alone.updates,
    )
    # DLX1's path is options: the job is the count with them given, but
    # for the updates of giving them, which belong to the split above it.
    given = jobs.split(p, split_into=30, given=big.path, algorithm="links")
    assert split_sums(p, given) == one_search(p, big.path)
    assert given.updates - again.updates > 0


def pieces_sums(problem, plan, budget):
    """(count, nodes, updates, pieces, share) added up over the split and
    every piece run with ``budget``, each job handed back run in turn."""
    payload = pool.Payload(problem, jobs.problem_digest(problem))
    found, nodes, updates = plan.solutions, plan.nodes, plan.updates
    share, pieces = plan.settled, 0
    stack = [(job.path, job.share) for job in plan.jobs]
    while stack:
        given, part = stack.pop()
        r = pool.run_piece(
            payload, plan.engine, plan.given, given, plan.mrv_cutoff, budget
        )
        s, n, u, rest = r.solutions, r.nodes, r.updates, r.rest
        assert all(
            g[: len(given)] == given
            and len(g) > len(given)
            or g == given
            and k == 0
            for k, (g, _) in enumerate(rest)
        )
        found, nodes, updates, pieces = (
            found + s,
            nodes + n,
            updates + u,
            pieces + 1,
        )
        share += part * (1 - sum(f for _, f in rest))
        stack += [(g, part * f) for g, f in rest]
    return found, nodes, updates, pieces, share


@settings(max_examples=200, deadline=None)
@given(problems(), st.integers(1, 6), st.integers(1, 12), st.data())
def test_pieces_cut_short_add_up_to_the_whole_search(
    case, target, budget, data
):
    nitems, nprimary, options = case
    p = ExactCover(range(nprimary), range(nprimary, nitems))
    p.add_options(options)
    forced = (
        data.draw(
            st.lists(
                st.integers(0, max(0, len(options) - 1)),
                max_size=2,
                unique=True,
            )
        )
        if options
        else []
    )
    truth = one_search(p, forced)
    plan = jobs.split(p, split_into=target, given=forced, algorithm="links")
    *sums, pieces, share = pieces_sums(p, plan, budget)
    assert tuple(sums) == truth
    assert share == pytest.approx(1.0)


@pytest.mark.parametrize(
    "build",
    [
        lambda: queens(8),
        lambda: langford(8),
        lambda: langford(7, False),
        lambda: Polyomino("3x20").problem,
        lambda: Polyomino("4x5", "tetrominoes").problem,
        lambda: debruijn(4),
        lambda: rooks(4, 2),
    ],
    ids=[
        "queens-8",
        "langford-8",
        "langford-7-all",
        "pentomino-3x20",
        "tetromino-4x5",
        "colors-debruijn-4",
        "bounds-rooks-4-2",
    ],
)
@pytest.mark.parametrize("budget", [1, 3, 10])
@pytest.mark.parametrize("algorithm", HANDING_BACK)
def test_pieces_of_classics_add_up(build, budget, algorithm):
    # Every engine that hands back (the registry's, by family and kind).
    p = build()
    plan = jobs.split(p, split_into=5, algorithm=algorithm)
    engine = BY_NAME[plan.engine]
    assert engine.hands_back
    *sums, pieces, share = pieces_sums(p, plan, budget)
    if engine.exact_split:
        assert tuple(sums) == one_search(p)
    else:  # dancing cells: the count is one search's
        assert sums[0] == one_search(p)[0]
    if budget == 1:  # the budget did cut jobs short
        assert pieces > len(plan.jobs)
    assert share == pytest.approx(1.0)


def test_count_with_a_budget_on_any_executor(always_split):
    p = Polyomino("3x20").problem
    truth = one_search(p)
    seen = []
    with ThreadPoolExecutor(2) as pool:
        assert (
            jobs.count(
                p,
                executor=pool,
                split_into=8,
                budget=200,
                progress=seen.append,
                algorithm="links",
            ),
            p.stats.nodes,
            p.stats.updates,
        ) == truth
    assert seen[-1].jobs > 8 + 50 and seen[-1].jobs_done == seen[-1].jobs
    assert seen[-1].fraction == pytest.approx(1.0)
    assert (
        jobs.count(p, jobs=2, split_into=8, budget=500, algorithm="links"),
        p.stats.nodes,
        p.stats.updates,
    ) == truth


def test_the_default_budget_cuts_long_jobs_only():
    plan = jobs.split(queens(10), split_into=50)
    assert plan.estimated_nodes == pytest.approx(
        one_search(queens(10))[1], rel=0.5
    )
    assert jobs.job_budget(plan, 2) == job_service.MIN_BUDGET
    plan.estimated_nodes = 1e12
    assert jobs.job_budget(plan, 100) == 1e12 // (
        job_service.BUDGET_PER_WORKER * 100
    )
    assert (
        jobs.job_budget(jobs.split(queens(10), split_into=50, probes=0), 2)
        == 0
    )
    # A tree beyond int64 (an empty 9x9 Sudoku's is estimated at ~1e25
    # nodes): the budget stays a kernel's int64.
    plan.estimated_nodes = 1e30
    huge = jobs.job_budget(plan, 2)
    assert huge == np.iinfo(np.int64).max
    p = queens(6)
    payload = pool.Payload(p, jobs.problem_digest(p))
    assert pool.run_piece(payload, "dlx1", (), (), 0, huge).solutions == 4
    assert pool.run_piece(payload, "dlx1", (), (), 0, 10**30).solutions == 4


def test_jobs_are_small_plain_data():
    import pickle

    plan = jobs.split(queens(10), split_into=50)
    job = plan.jobs[3]
    assert pickle.loads(pickle.dumps(job)) == job
    assert all(isinstance(k, int) for k in job.path)


def test_split_refuses_bad_arguments():
    for value in (-1, 0):  # 0 is refused, as count(split_into=0) is
        with pytest.raises(ValueError, match="split_into must be a positive"):
            jobs.split(queens(5), split_into=value)
    with pytest.raises(ValueError, match="split_into must be a positive"):
        jobs.count(queens(5), jobs=1, split_into=0)
    with pytest.raises(ValueError, match="does not exist"):
        jobs.split(queens(5), given=[99])
    with pytest.raises(ValueError, match="does not exist"):
        jobs.count(queens(5), jobs=1, given=[99])


def test_the_old_names_of_split_into_work_with_a_warning():
    """``split_into`` was ``split(jobs=)`` and ``count(split_jobs=)``:
    the old keywords work, with a DeprecationWarning naming the new one
    (``jobs`` is the processes everywhere else)."""
    p = queens(6)
    with pytest.warns(
        DeprecationWarning, match="jobs is deprecated: use split_into"
    ):
        plan = jobs.split(p, jobs=7, probes=0)
    assert plan.target == 7
    with pytest.warns(DeprecationWarning, match="split_jobs is deprecated"):
        assert jobs.count(p, jobs=1, split_jobs=7) == 4
    with pytest.raises(TypeError, match="not both split_into and jobs"):
        jobs.split(p, jobs=7, split_into=7)


@pytest.fixture
def always_split(monkeypatch):
    """Make count(jobs=N) split even the smallest tree."""
    monkeypatch.setattr("dlx.services.runner.SERIAL_PROBE_NODES", 0)


@pytest.mark.parametrize("probe", [True, False], ids=["probe", "split"])
def test_given_is_checked_once_on_the_way_down(probe, monkeypatch):
    """``given`` is checked (``ExactCover.given_options``) once, at the
    boundary, and handed down checked: not again by the count in jobs,
    the split, or the probe that counts a small tree at once."""
    if not probe:  # the tree split and its jobs counted
        monkeypatch.setattr("dlx.services.runner.SERIAL_PROBE_NODES", 0)
    checked = []
    given_options = ExactCover.given_options

    def counted(self, given):
        checked.append(list(given))
        return given_options(self, given)

    monkeypatch.setattr(ExactCover, "given_options", counted)
    p = queens(7)
    costly = ExactCover("abcdefg")
    costly.add_options(
        ["ce", "adg", "bcf", "adf", "bg", "deg"], costs=[1, 2, 3, 4, 5, 6]
    )
    calls = {
        "count(jobs=2)": lambda: p.count(jobs=2, given=[3]),
        "count(jobs=1)": lambda: p.count(jobs=1, split_into=9, given=[3]),
        "count(threads=2)": lambda: p.count(threads=2, given=[3]),
        "dlx.jobs.count": lambda: jobs.count(p, jobs=1, given=[3]),
        "dlx.jobs.split": lambda: jobs.split(p, split_into=9, given=[3]),
        "best(jobs=1)": lambda: costly.best(jobs=1, split_into=4, given=[0]),
        "best(threads=2)": lambda: costly.best(threads=2, given=[0]),
        "count(reduce=True)": lambda: p.count(reduce=True, given=[3]),
        "best(reduce=True)": lambda: costly.best(reduce=True, given=[0]),
    }
    for name, call in calls.items():
        checked.clear()
        call()
        assert len(checked) == 1, name


def test_count_on_processes_is_the_one_search(always_split):
    p = queens(9)
    truth = one_search(p)
    assert p.count(jobs=2) == truth[0]
    assert (
        p.count(jobs=2, split_into=40),
        p.stats.nodes,
        p.stats.updates,
    ) == truth
    assert p.stats.complete


def test_count_on_any_executor():
    p = langford(8)
    truth = one_search(p)
    with ThreadPoolExecutor(3) as pool:
        assert (
            p.count(executor=pool, algorithm="links"),
            p.stats.nodes,
            p.stats.updates,
        ) == truth


def test_count_jobs_with_givens():
    p = queens(8)
    assert p.count(given=[3], jobs=1, split_into=9) == p.count(given=[3])
    assert p.count(given=[0, 1], jobs=1) == 0  # same row: they clash


def test_count_jobs_refuses_budgets():
    with pytest.raises(ValueError, match="cannot be combined"):
        queens(6).count(limit=2, jobs=2)
    with pytest.raises(ValueError, match="jobs must be"):
        queens(6).count(jobs=-2)


def test_progress_reaches_the_whole_tree():
    seen = []
    p = queens(8)
    assert p.count(progress=seen.append, split_into=30) == 92
    fractions = [s.fraction for s in seen]
    assert fractions == sorted(fractions) and fractions[-1] == pytest.approx(
        1.0
    )
    assert seen[-1].solutions == 92 and seen[-1].jobs_done == seen[-1].jobs
    assert seen[-1].eta == pytest.approx(0.0, abs=1e-6)


def test_ctrl_c_gives_the_partial_count(tmp_path):
    p = queens(8)

    def stop_early(progress):
        if progress.jobs_done == 5:
            raise KeyboardInterrupt

    with pytest.raises(Interrupted) as stop:
        p.count(progress=stop_early, split_into=30, checkpoint=tmp_path / "c")
    assert isinstance(stop.value, KeyboardInterrupt)
    assert 0 <= stop.value.count < 92 and not stop.value.stats.complete
    assert 0 < stop.value.stats.seconds < 600  # the time it ran
    # The five finished jobs were recorded, and the rest is counted once.
    assert p.count(checkpoint=tmp_path / "c") == 92


# -- checkpoints ---------------------------------------------------------------


def test_checkpoint_resumes_without_counting_twice(tmp_path):
    path = tmp_path / "q9.ckpt"
    p = queens(9)
    truth = one_search(p)
    ran = []
    p.count(checkpoint=path, split_into=50, progress=ran.append)
    total = ran[-1].jobs
    lines = path.read_text().splitlines()
    assert json.loads(lines[0])["jobs"] == total == len(lines) - 1
    # Keep the header and 10 jobs, plus half of an eleventh line (a torn
    # write): resuming runs the other jobs only.
    path.write_text("\n".join(lines[:11]) + "\n" + lines[11][:7])
    ran.clear()
    assert (
        p.count(checkpoint=path, progress=ran.append),
        p.stats.nodes,
        p.stats.updates,
    ) == truth
    assert ran[0].jobs_done == 10  # where it resumed
    assert sorted({r.jobs_done for r in ran}) == list(range(10, total + 1))
    assert len(path.read_text().splitlines()) == total + 1
    # A finished checkpoint answers at once.
    ran.clear()
    assert p.count(checkpoint=path, progress=ran.append) == truth[0]
    assert [(r.jobs_done, r.fraction) for r in ran] == [
        (total, pytest.approx(1.0))
    ]


def test_checkpoint_of_another_problem_is_refused(tmp_path):
    path = tmp_path / "c"
    queens(7).count(checkpoint=path)
    with pytest.raises(jobs.CheckpointError, match="different problem"):
        queens(8).count(checkpoint=path)
    with pytest.raises(jobs.CheckpointError, match="different split"):
        queens(7).count(checkpoint=path, split_into=3)
    with pytest.raises(jobs.CheckpointError, match="given options"):
        queens(7).count(checkpoint=path, given=[2])
    bad = tmp_path / "notes.txt"
    bad.write_text("my notes\n")
    with pytest.raises(jobs.CheckpointError, match="not a dlx checkpoint"):
        queens(7).count(checkpoint=bad)
    assert bad.read_text() == "my notes\n"  # never overwritten


def test_checkpoint_with_jobs_handed_back_resumes_exactly(tmp_path):
    path = tmp_path / "p.ckpt"
    p = Polyomino("3x20").problem
    truth = one_search(p)
    with ThreadPoolExecutor(2) as pool:
        jobs.count(
            p,
            executor=pool,
            split_into=6,
            budget=300,
            checkpoint=path,
            algorithm="links",
        )
    lines = path.read_text().splitlines()
    entries = [json.loads(line) for line in lines[1:]]
    assert sum("rest" in e for e in entries) > 10
    # A crash after any record: the rest is counted once, on one process
    # or on several, with or without a budget.
    for keep in (0, 1, 5, len(entries) // 2, len(entries) - 1):
        path.write_text("\n".join(lines[: 1 + keep]) + "\n")
        for run in (
            lambda: jobs.count(p, jobs=1, checkpoint=path, algorithm="links"),
            lambda: jobs.count(
                p, jobs=2, budget=100, checkpoint=path, algorithm="links"
            ),
        ):
            path.write_text("\n".join(lines[: 1 + keep]) + "\n")
            assert (run(), p.stats.nodes, p.stats.updates) == truth
    # Still refused for another problem or split.
    with pytest.raises(jobs.CheckpointError, match="different problem"):
        jobs.count(queens(8), checkpoint=path)
    with pytest.raises(jobs.CheckpointError, match="different split"):
        jobs.count(p, checkpoint=path, split_into=40, algorithm="links")


def test_damaged_checkpoint_is_refused(tmp_path):
    path = tmp_path / "c"
    queens(7).count(checkpoint=path, split_into=20)
    lines = path.read_text().splitlines()
    lines[3] = "garbage"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(jobs.CheckpointError, match=":4: not a job record"):
        queens(7).count(checkpoint=path)


KILLED_RUN = """
import sys, time
from dlx import jobs
from dlx.problems import debruijn, queens, rooks
def slowly(progress):
    time.sleep(0.01)  # make the run last long enough to be killed
p = eval(sys.argv[4])
workers, budget = int(sys.argv[2]), int(sys.argv[3])
if sys.argv[5] == "memo":  # each job counted by the memo
    found = p.count(memo=True, checkpoint=sys.argv[1], split_into=150,
                    progress=slowly, jobs=workers)
else:
    found = jobs.count(p, checkpoint=sys.argv[1], split_into=150,
                       progress=slowly, jobs=workers, budget=budget or None,
                       algorithm=sys.argv[5])
print(found, p.stats.nodes, p.stats.updates, flush=True)
"""
# The problems killed and rerun: plain exact cover (DLX1), colors (DLX2)
# and bounds (DLX3, and SSMCC, where only the count is one search's),
# with and without a budget (every engine that splits hands back the rest
# of a job cut short by it); and each kind memoized (its jobs counted by
# the memo: no budget).
KILLED = {
    "queens": ("queens.queens(10)", "links", 724),
    "colors": ("debruijn.debruijn(5)", "links", 2048),
    "bounds": ("rooks.rooks(5, 2)", "links", 2040),
    "bounds-cells": ("rooks.rooks(5, 2)", "cells", 2040),
    "memo": ("queens.queens(10)", "memo", 724),
    "colors-memo": ("debruijn.debruijn(5)", "memo", 2048),
    "bounds-memo": ("rooks.rooks(5, 2)", "memo", 2040),
}


def _alive() -> set:
    """The pids of the running processes (Linux: /proc; else none)."""
    if not os.path.isdir("/proc"):
        return set()
    return {
        int(d)
        for d in os.listdir("/proc")
        if d.isdigit() and _state(d) not in (None, "Z")
    }


def _state(pid) -> str | None:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return None


def _children(pid: int) -> set:
    """The pids whose parent is ``pid`` (Linux: /proc; else none)."""
    found = set()
    for child in _alive():
        try:
            with open(f"/proc/{child}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        if ppid == pid:
            found.add(child)
    return found


@pytest.mark.parametrize(
    "workers,budget,problem",
    [
        (1, 0, "queens"),
        (2, 40, "queens"),
        (2, 0, "colors"),
        (1, 0, "bounds"),
        (2, 40, "bounds"),
        (2, 0, "bounds-cells"),
        (2, 40, "bounds-cells"),
        (1, 0, "memo"),
        (2, 0, "colors-memo"),
        (2, 0, "bounds-memo"),
    ],
    ids=[
        "one-process",
        "processes-with-a-budget",
        "colors-on-processes",
        "bounds-one-process",
        "bounds-with-a-budget",
        "bounds-cells-on-processes",
        "bounds-cells-with-a-budget",
        "memo-one-process",
        "colors-memo-on-processes",
        "bounds-memo-on-processes",
    ],
)
def test_sigkill_and_rerun_gives_the_exact_count(
    tmp_path, workers, budget, problem
):
    path = tmp_path / "killed.ckpt"
    env = dict(
        os.environ,
        PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
    )
    build, algorithm, count = KILLED[problem]
    command = [
        sys.executable,
        "-c",
        KILLED_RUN,
        str(path),
        str(workers),
        str(budget),
        build,
        algorithm,
    ]
    run = subprocess.Popen(command, env=env, stdout=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if path.exists() and len(path.read_bytes().splitlines()) > 20:
            break
        time.sleep(0.01)
    workers_of_run = _children(run.pid)
    run.send_signal(signal.SIGKILL)
    run.wait()
    assert run.returncode == -signal.SIGKILL
    # The pool's workers, orphaned, end by themselves within a second or so
    # (they watch their parent), instead of waiting for jobs forever.
    deadline = time.monotonic() + 10
    while workers_of_run & _alive() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not workers_of_run & _alive()
    recorded = len(path.read_bytes().splitlines()) - 1
    header = json.loads(path.read_bytes().splitlines()[0])
    assert recorded >= 20  # killed part-way:
    assert (
        b"rest" in path.read_bytes() if budget else recorded < header["jobs"]
    )
    again = subprocess.run(
        command, env=env, stdout=subprocess.PIPE, check=True, timeout=120
    )
    found, nodes, updates = map(int, again.stdout.split())
    assert found == count
    if algorithm == "links":  # DLX1, DLX2, DLX3: one search's figures
        from dlx.problems import debruijn, rooks

        p = {
            "queens": lambda: queens(10),
            "colors": lambda: debruijn.debruijn(5),
            "bounds": lambda: rooks.rooks(5, 2),
        }[problem]()
        assert (found, nodes, updates) == one_search(p)


# -- Dask --------------------------------------------------------------------


@pytest.mark.filterwarnings("ignore:Port .* is already in use")
def test_a_dask_cluster_counts():
    distributed = pytest.importorskip("distributed")
    p = langford(8)
    truth = one_search(p)
    with (
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        executor = client.get_executor()
        assert (
            p.count(executor=executor, split_into=64, algorithm="links"),
            p.stats.nodes,
            p.stats.updates,
        ) == truth
        # Jobs cut short by a budget hand back their rest as Dask tasks.
        seen = []
        assert (
            jobs.count(
                p,
                executor=executor,
                split_into=16,
                budget=60,
                progress=seen.append,
                algorithm="links",
            ),
            p.stats.nodes,
            p.stats.updates,
        ) == truth
        assert seen[-1].jobs > 16 + 10
        # A memoized count's jobs, as Dask tasks too.
        assert p.count(memo=True, executor=executor, split_into=8) == truth[0]
        assert p.stats.memo_jobs >= 8


# -- known long counts (pytest -m slow) -----------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize(
    "build,expected",
    [
        (lambda: queens(14), 365_596),
        (lambda: queens(15), 2_279_184),
        (lambda: queens(16), 14_772_512),
        (lambda: langford(15), 39_809_640),
    ],
    ids=["queens-14", "queens-15", "queens-16", "langford-15"],
)
def test_known_long_counts(build, expected, workers):
    p = build()
    t0 = time.perf_counter()
    assert p.count(jobs=workers) == expected
    assert p.stats.complete and p.stats.solutions == expected
    # Run with -s to see how long it took.
    print(
        f"{expected:,} on {workers} worker(s) in "
        f"{time.perf_counter() - t0:.1f} s, {p.stats.nodes:,} nodes"
    )


def test_progress_of_one_search(monkeypatch):
    monkeypatch.setattr("dlx.services.progress.PROGRESS_EVERY", 0.0)
    seen = []
    p = queens(11)
    assert p.count(progress=seen.append) == 2680
    assert (p.stats.nodes, p.stats.updates) == one_search(p)[1:]
    fractions = [s.fraction for s in seen]
    assert len(seen) > 3 and fractions == sorted(fractions)
    assert fractions[0] > 0 and fractions[-1] <= 1
    counted = [s.solutions for s in seen]
    assert counted == sorted(counted) and counted[-1] <= 2680


def test_progress_inside_jobs_run_here(monkeypatch):
    monkeypatch.setattr("dlx.services.progress.PROGRESS_EVERY", 0.0)
    seen = []
    p = queens(11)
    assert p.count(progress=seen.append, jobs=1, split_into=4) == 2680
    fractions = [s.fraction for s in seen]
    assert len(seen) > 8 and fractions == sorted(fractions)
    assert seen[-1].solutions == 2680


def test_an_executor_gets_jobs_for_each_of_its_workers():
    seen = []
    p = queens(10)
    with ThreadPoolExecutor(40) as pool:
        assert p.count(executor=pool, progress=seen.append) == 724
    assert seen[-1].jobs >= jobs.JOBS_PER_WORKER * 40 > jobs.MIN_JOBS
    assert 0 < p.stats.seconds < 600  # the time it ran


def test_progress_bar_follows_the_fraction():
    import io

    stream = io.StringIO()
    bar = jobs.progress_bar(delay=0, stream=stream)
    bar(jobs.Progress(0.25, 1, 4, 10, 100, 1.0))
    bar(jobs.Progress(0.5, 2, 4, 20, 200, 2.0))
    assert bar.bar.n == 500  # of 1000
    bar(jobs.Progress(1.0, 4, 4, 40, 400, 4.0))
    assert bar.bar.n == 1000
    assert bar.bar.postfix == "40 solutions, 4/4 jobs"
    bar.close()
