"""Memoized counts in jobs (``count(memo=True, jobs=..., checkpoint=...,
split_into=..., executor=...)``, ``dlx.services.memo_jobs``): the same
count as the reference for every kind the memo serves, with givens, in
this process and on processes, stopped and resumed from a checkpoint."""

import json
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from dlx import Interrupted, Unsupported
from dlx.cli import main
from dlx.engines import memo as memo_engine
from dlx.problems.debruijn import debruijn
from dlx.problems.queens import queens
from dlx.problems.rooks import rooks
from dlx.problems.tiling import rooms, tiling
from dlx.services import memo_jobs, parts
from dlx.services.memo_jobs import MemoJobsStats
from dlx.services.split import split

from test_memo import KINDS, kinded_problems
from test_parts import build, glued, reference

# One small problem of each kind the memo counts, with its count: plain
# exact cover (with secondary items), colors, bounds.
SMALL = {
    "plain": (lambda: queens(7), 40),
    "colors": (lambda: debruijn(4), 16),
    "bounds": (lambda: rooks(4, 2), 90),
}


@pytest.mark.parametrize("kind", KINDS)
@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(st.data(), st.integers(1, 6), st.sampled_from([True, "auto"]))
def test_jobs_in_this_process_count_every_kind(kind, data, target, memo):
    p, forced, truth = data.draw(kinded_problems(kind))
    found = p.count(memo=memo, given=forced, jobs=1, split_into=target)
    assert found == len(truth)
    assert p.stats.solutions == len(truth) and p.stats.complete


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    st.data(), st.integers(1, 6), st.sampled_from(["exact cover", "colors"])
)
def test_jobs_that_fall_apart_are_counted_by_components(data, target, kind):
    case = data.draw(glued(kind))
    p = build(case)
    assert p.count(memo=True, jobs=1, split_into=target) == reference(case)


@pytest.mark.parametrize("kind", sorted(SMALL))
def test_jobs_on_processes_and_on_an_executor(kind, tmp_path):
    make, truth = SMALL[kind]
    p = make()
    # (A checkpoint skips the probe that counts a small tree at once.)
    path = tmp_path / "c"
    assert p.count(memo=True, jobs=2, split_into=8, checkpoint=path) == truth
    assert isinstance(p.stats, MemoJobsStats) and p.stats.complete
    lines = path.read_text().splitlines()
    assert json.loads(lines[0])["jobs"] == len(lines) - 1 >= 8
    assert p.stats.memo_jobs == len(lines) - 1
    with ProcessPoolExecutor(2) as pool:
        assert p.count(memo=True, executor=pool, split_into=5) == truth
    with ThreadPoolExecutor(2) as pool:
        assert p.count(memo=True, executor=pool, given=[0]) == p.count(
            given=[0]
        )


def test_a_small_count_on_processes_is_over_before_a_pool_starts():
    p = queens(6)
    assert p.count(memo=True, jobs=2) == 4
    assert not isinstance(p.stats, MemoJobsStats)  # one memoized count


@pytest.mark.parametrize("kind", sorted(SMALL))
def test_the_figures_add_up_over_the_split_and_its_jobs(kind):
    p = SMALL[kind][0]()
    jobs = memo_jobs.MemoJobs(None, "auto", False)
    plan = split(p, split_into=9, engine=jobs.engine(p))
    nodes, updates, lookups = plan.nodes, plan.updates, 0
    for job in plan.jobs:
        result = jobs.run_here(p, plan, job)
        nodes += result.nodes
        updates += result.updates
        lookups += result.memo.memo_lookups
    assert p.count(memo=True, jobs=1, split_into=9) == SMALL[kind][1]
    stats = p.stats
    assert (stats.nodes, stats.updates) == (nodes, updates)
    assert stats.memo_lookups == lookups
    assert stats.memo_jobs == len(plan.jobs) and stats.search_jobs == 0
    assert "jobs: " in str(stats)


def test_bounds_split_leaves_options_out():
    """With bounds the split walks SSMCC's tree: its paths leave options
    out (``-1 - k``), and each job is the problem without them."""
    p = rooks(4, 2)
    jobs = memo_jobs.MemoJobs(None, "auto", False)
    plan = split(p, split_into=20, engine=jobs.engine(p))
    assert plan.engine == "ssmcc"
    assert any(k < 0 for job in plan.jobs for k in job.path)
    for job in plan.jobs:
        found = jobs.run_here(p, plan, job).solutions
        assert found == plan.run(p, job).solutions


def test_memo_auto_counts_a_job_with_the_search_where_the_memo_does_not_pay(
    monkeypatch,
):
    # The memo decides after PROBE_NODES nodes; on queens it saves little.
    monkeypatch.setattr(memo_engine, "PROBE_NODES", 20)
    p = queens(8)
    assert p.count(memo="auto", jobs=1, split_into=4) == 92
    assert p.stats.search_jobs > 0


def test_rooms_in_jobs_are_counted_by_components():
    p = rooms(4, 4)
    truth = p.count(memo=True)
    assert p.count(memo=True, jobs=1, split_into=6) == truth
    assert p.stats.parts > 0


def test_a_checkpoint_resumes_to_the_same_figures(tmp_path):
    path = tmp_path / "d.ckpt"
    p = tiling("6x6")
    whole = p.count(memo=True, checkpoint=path, split_into=12)
    truth = (whole, p.stats.nodes, p.stats.updates)
    lines = path.read_text().splitlines()
    assert len(lines) - 1 >= 12
    # A crash after 5 records, the sixth torn: the rest is counted once.
    path.write_text("\n".join(lines[:6]) + "\n" + lines[6][:5])
    ran = []
    found = p.count(memo=True, checkpoint=path, progress=ran.append)
    assert (found, p.stats.nodes, p.stats.updates) == truth
    assert ran[0].jobs_done == 5 and ran[-1].jobs_done == len(lines) - 1
    assert p.stats.memo_jobs == len(lines) - 6  # only the jobs run here


def test_a_plain_checkpoint_resumes_memoized_and_back(tmp_path):
    """The same split and job paths: the memo's count of a job is the
    search's."""
    path = tmp_path / "q.ckpt"
    p = queens(8)
    p.count(checkpoint=path, split_into=20)
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:8]) + "\n")
    assert p.count(memo=True, checkpoint=path) == 92
    path.write_text("\n".join(lines[:3]) + "\n")
    assert p.count(checkpoint=path) == 92


def test_ctrl_c_gives_the_partial_count_and_the_checkpoint_the_rest(tmp_path):
    path = tmp_path / "c"
    p = queens(8)

    def stop_early(progress):
        if progress.jobs_done == 3:
            raise KeyboardInterrupt

    with pytest.raises(Interrupted) as stop:
        p.count(memo=True, split_into=10, checkpoint=path, progress=stop_early)
    assert 0 <= stop.value.count < 92 and not stop.value.stats.complete
    assert len(path.read_text().splitlines()) == 4
    assert p.count(memo=True, checkpoint=path) == 92


@pytest.mark.parametrize(
    "extra, words",
    [
        (
            {"max_nodes": 10},
            "a memoized count in jobs cannot be combined with max_nodes",
        ),
        ({"time_limit": 1.0}, "cannot be combined with time_limit"),
        ({"threads": 2}, "cannot be combined with threads"),
        ({"mrv_cutoff": 2}, "cannot be combined with mrv_cutoff"),
        ({"limit": 3}, "cannot be combined with limit"),
    ],
)
def test_what_a_memoized_count_in_jobs_refuses(extra, words):
    with pytest.raises(Unsupported, match=words):
        queens(6).count(memo=True, jobs=2, **extra)


def test_memo_options_without_memo_still_refuse_jobs():
    with pytest.raises(
        Unsupported, match="memoized count cannot be combined with jobs"
    ):
        queens(6).count(memo_bytes=1 << 20, jobs=2)


def test_dlx_solve_count_memo_jobs(tmp_path, capsys):
    path = tmp_path / "q.dlx"
    p = queens(7)
    lines = [
        " ".join(map(str, p.primary)) + " | " + " ".join(map(str, p.secondary))
    ]
    lines += [" ".join(map(str, option)) for option in p.options]
    path.write_text("\n".join(lines) + "\n")
    solve = ["solve", str(path), "--count", "--memo", "--no-progress"]
    for flags in (["--jobs", "2"], ["--checkpoint", str(tmp_path / "c")]):
        assert main([*solve, *flags]) == 0
        assert capsys.readouterr().out.split()[-1] == "40"
    assert main([*solve, "--jobs", "2", "--time-limit", "5"]) == 2
    assert capsys.readouterr().err == (
        "dlx: error: a memoized count in jobs cannot be combined with "
        "--time-limit\n"
    )


def test_parts_count_of_a_job_is_the_jobs_count():
    """A job of a plain split is the problem with its path given."""
    p = tiling("4x5")
    jobs = memo_jobs.MemoJobs(None, "auto", False)
    plan = split(p, split_into=5, engine=jobs.engine(p))
    for job in plan.jobs:
        given = list(plan.given) + list(job.path)
        assert jobs.run_here(p, plan, job).solutions == parts.count(p, given)
