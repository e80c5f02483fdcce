"""The k cheapest solutions split into jobs (dlx.services.best): the cost
engines' trees cut into jobs that partition the solutions, threads that
share one threshold, jobs here, on processes, on any executor and on
Dask, budgets, the stop event and Ctrl-C, and the arguments refused.

The answers of small problems through every entry point are checked
against the brute force in tests/test_entry_points.py; here larger random
problems (too many options for the brute force, enough solutions for the
thresholds to matter) are checked against one search's costs, and every
solution independently."""

import _thread
import concurrent.futures as cf
import threading
import time

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from dlx import BudgetExhausted, ExactCover, Interrupted, Unsupported
from dlx.cli import main
from dlx.engines import engine_for
from dlx.services import runner
from dlx.services.best import Cheapest, best as cheapest, run_best_job
from dlx.services.split import split

from reference import costed_covers, is_generalized_cover
from weighted import OPTIMUM, stop_after, weighted_pentominoes


def build(nprimary, nitems, options, colors, costs, bounds):
    p = ExactCover(range(nprimary), range(nprimary, nitems), bounds=bounds)
    for items, cols, cost in zip(options, colors, costs):
        p.add_option(items, colors=cols or None, cost=cost)
    return p


@st.composite
def costed(draw, min_options=0, max_options=9, max_cost=6):
    """``(problem, options, colors, costs, bounds)``: random, with colors
    and (half the time) bounds."""
    nitems = draw(st.integers(1, 8))
    nsecondary = draw(st.integers(0, min(2, nitems - 1)))
    nprimary = nitems - nsecondary
    options, colors, costs = [], [], []
    for _ in range(draw(st.integers(min_options, max_options))):
        items = sorted(
            draw(st.sets(st.integers(0, nitems - 1), min_size=1, max_size=3))
        )
        options.append(items)
        colors.append(
            {
                i: draw(st.sampled_from("rg"))
                for i in items
                if i >= nprimary and draw(st.booleans())
            }
        )
        costs.append(draw(st.integers(0, max_cost)))
    bounds = {}
    if draw(st.booleans()):
        for i in range(nprimary):
            if draw(st.booleans()):
                u = draw(st.integers(0, 2))
                bounds[i] = (u, draw(st.integers(max(u, 1), 3)))
    p = build(nprimary, nitems, options, colors, costs, bounds)
    return p, options, colors, costs, bounds


class split_always:
    """Within it, a split search splits even the smallest tree."""

    def __enter__(self):
        self.saved = runner.SERIAL_PROBE_NODES
        runner.SERIAL_PROBE_NODES = 0

    def __exit__(self, *exc):
        runner.SERIAL_PROBE_NODES = self.saved


# -- the cost engines' trees, cut into jobs ---------------------------------
@pytest.mark.parametrize("jobs", [1, 4, 30])
@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(costed(), st.data())
def test_jobs_partition_the_solutions(jobs, case, data):
    # Each solution is below exactly one job (or is one of the split's
    # leaves): every job searched for all its solutions, with no
    # threshold, finds the brute force's solutions, none twice.  (With
    # bounds, the options tried before on a level must be excluded:
    # without, a set of options is met on several branches.)
    p, options, colors, costs, bounds = case
    chosen = (
        data.draw(st.lists(st.integers(0, len(options) - 1), max_size=1))
        if options
        else []
    )
    reference = costed_covers(
        options, len(p.primary), len(p.items), costs, colors, bounds, chosen
    )
    engine = engine_for(p, purpose="best")
    plan = split(p, split_into=jobs, given=chosen, probes=0, engine=engine)
    arrays = engine.arrays(p)
    nodes = engine.option_nodes(arrays, chosen)
    everything = len(reference) + 1
    # A node budget (0: none): a job cut short hands back its rest, whose
    # pieces partition its solutions too.
    budget = data.draw(st.integers(0, 4))
    found = []
    pending = plan.leaves + [job.path for job in plan.jobs]
    while pending:
        path = tuple(pending.pop())
        result, _ = run_best_job(
            engine, arrays, nodes, path, everything, None, budget=budget
        )
        found += [
            (cost, tuple(sorted(options + chosen)))
            for cost, options in result.best
        ]
        pending += [rest for rest, _ in result.rest[0]]
    assert sorted(found) == sorted(reference)
    assert len(plan.leaves) == plan.solutions


def test_a_job_path_is_given_options_for_dlx5_and_the_kernels_moves_with_bounds():
    p = ExactCover("ab")
    p.add_options(["a", "b", "ab"], costs=[1, 2, 4])
    plan = split(
        p, split_into=2, probes=0, engine=engine_for(p, purpose="best")
    )
    assert all(0 <= m < 3 for job in plan.jobs for m in job.path)
    q = ExactCover("ab", bounds={"a": (1, 2)})
    q.add_options(["a", "a", "ab", "b"], costs=[1, 2, 4, 3])
    plan = split(
        q, split_into=8, probes=0, engine=engine_for(q, purpose="best")
    )
    paths = plan.leaves + [job.path for job in plan.jobs]
    # An option's node (beyond the 2 items' headers), or an item's header
    # for its null move ("a" may take one option, not two).
    assert any(m > 2 for path in paths for m in path)
    assert any(m == 1 for path in paths for m in path)  # a's null move
    assert [c for c, _ in q.best(10, jobs=1, split_into=8)] == [
        4,
        4,
        5,
        5,
        6,
        6,
    ]  # {a, b} {ab}, {a2, b} {ab, a}, {a, a2, b} {ab, a2}


@pytest.mark.parametrize(
    "bounds", [{}, {1: (1, 2)}], ids=["dlx5", "dlx3-costs"]
)
def test_a_job_cut_short_prices_the_solutions_beside_where_it_stopped(bounds):
    # Stopped below the dearer option of item 1, the job goes on to that
    # option's siblings, a solution among them: its cost is counted from
    # the level's own net cost, not the stopped node's.
    options = [[1], [0, 1], [0, 1], [0]]
    costs = [5, 0, 3, 1]
    p = build(2, 2, options, [None] * 4, costs, bounds)
    engine = engine_for(p, purpose="best")
    arrays = engine.arrays(p)
    reference = costed_covers(options, 2, 2, costs, None, bounds)
    found, pending = [], [()]
    while pending:
        result, _ = run_best_job(
            engine, arrays, [], pending.pop(), 100, None, budget=1
        )
        found += [(c, tuple(sorted(o))) for c, o in result.best]
        pending += [rest for rest, _ in result.rest[0]]
    assert sorted(found) == sorted(reference)


# -- the merge ------------------------------------------------------------
def test_cheapest_keeps_the_k_cheapest_distinct_and_their_threshold():
    c = Cheapest(3, total_tax=10)
    assert c.threshold() == np.iinfo(np.int64).max  # fewer than k known
    c.add([(15, [2, 1]), (12, [3])])
    c.add([(15, [1, 2]), (20, [4])])  # the same solution again
    assert c.best() == [(12, [3]), (15, [1, 2]), (20, [4])]
    assert c.threshold() == 20 - 10  # net: the taxes off
    c.add([(11, [5]), (30, [6])] + [(40, [7, k]) for k in range(20)])
    assert c.best() == [(11, [5]), (12, [3]), (15, [1, 2])]
    assert c.threshold() == 5


# -- larger problems: every way against one search ----------------------------
def valid(p, options, colors, bounds, found):
    for cost, solution in found:
        assert solution == sorted(solution)
        assert is_generalized_cover(
            solution, options, len(p.primary), len(p.items), colors, bounds
        )
        assert cost == sum(p.costs[k] for k in solution)
    assert len({tuple(s) for _, s in found}) == len(found)


WAYS = {
    "threads": dict(threads=2),
    "jobs-here": dict(jobs=1, split_into=8),
    "executor": dict(executor=None, split_into=8),
}


@pytest.mark.parametrize("way", list(WAYS))
@pytest.mark.parametrize("k", [1, 2, 5])
@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(costed(min_options=10, max_options=30, max_cost=30))
def test_split_best_finds_one_searchs_costs(way, k, case):
    # Enough solutions that a wrong threshold (one off, say) prunes one
    # of the k cheapest.
    p, options, colors, costs, bounds = case
    one = p.best(k)
    options_of = dict(WAYS[way])
    with split_always():
        if "executor" in options_of:  # any executor: a thread pool here
            with cf.ThreadPoolExecutor(2) as pool:
                options_of["executor"] = pool
                found = p.best(k, **options_of)
        else:
            found = p.best(k, **options_of)
    assert [c for c, _ in found] == [c for c, _ in one]
    valid(p, options, colors, bounds, found)
    assert p.stats.complete


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(costed(min_options=10, max_options=30, max_cost=30))
def test_processes_find_one_searchs_costs(case):
    # A pool of our own also shares the threshold in shared memory.
    p, options, colors, costs, bounds = case
    one = p.best(3)
    with split_always():
        found = p.best(3, jobs=2, split_into=8)
    assert [c for c, _ in found] == [c for c, _ in one]
    valid(p, options, colors, bounds, found)


def timetable(exams=10):
    """bench/costs.py's timetable, smaller: 10 exams, a few seconds of
    DLX5 on a loaded machine (8: 127,000 nodes, a twentieth of a
    second)."""
    import random

    from dlx.problems.timetable import timetable as make

    r = random.Random(9)
    people = [f"s{i}" for i in range(40)]
    sitting = {
        f"x{i}": r.sample(people, r.randint(2, 4)) for i in range(exams)
    }
    rooms = {f"r{i}": (r.randint(2, 5), r.randint(1, 9)) for i in range(4)}
    slots = {f"t{i}": r.randint(0, 6) for i in range(4)}
    return make(sitting, rooms, slots)


def test_processes_find_one_searchs_costs_on_a_timetable():
    p = timetable()
    one = [c for c, _ in p.best(3)]
    seen = []
    found = p.best(3, jobs=2, progress=seen.append)
    assert [c for c, _ in found] == one
    options = [[p.items.index(x) for x in o] for o in p.options]
    valid(p, options, None, None, found)
    assert seen and seen[-1].jobs_done == seen[-1].jobs
    assert seen[-1].fraction == pytest.approx(1.0)


@settings(
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    costed(min_options=10, max_options=30, max_cost=30),
    st.integers(1, 40),
)
def test_processes_that_hand_back_find_one_searchs_costs(case, budget):
    # A node budget of a few nodes: jobs hand back their rest again and
    # again, the pieces sent with the threshold of their moment (and read
    # the shared one), and the k cheapest are one search's.
    p, options, colors, costs, bounds = case
    one = p.best(3)
    with split_always():
        found = cheapest(p, "jobs", k=3, jobs=2, split_into=4, budget=budget)
    assert [c for c, _ in found] == [c for c, _ in one]
    valid(p, options, colors, bounds, found)


@pytest.mark.parametrize("bounded", [False, True], ids=["dlx5", "dlx3-costs"])
def test_a_timetable_in_jobs_that_hand_back(bounded):
    # Thousands of pieces handed back on an executor: the same costs as
    # one search, the progress's share of the tree adding up to 1 and every
    # job counted, those handed back too.
    p = timetable(exams=8)
    if bounded:  # its first item may be left out: DLX3 with costs
        t, p = (
            p,
            ExactCover(p.primary, p.secondary, bounds={p.primary[0]: (0, 1)}),
        )
        for k, items in enumerate(t.options):
            p.add_option(items, colors=t.option_colors(k), cost=t.costs[k])
    assert (p.kind == "multiplicities") == bounded
    one = [c for c, _ in p.best(3)]
    seen = []
    with cf.ThreadPoolExecutor(2) as pool:
        found = cheapest(
            p,
            "jobs",
            k=3,
            executor=pool,
            split_into=4,
            budget=2000,
            progress=seen.append,
        )
    assert [c for c, _ in found] == one
    assert seen[-1].jobs > 4 and seen[-1].jobs_done == seen[-1].jobs
    assert seen[-1].fraction == pytest.approx(1.0)


def test_a_budget_is_for_jobs():
    p = timetable()
    with pytest.raises(Unsupported, match="budget is for a search in jobs"):
        cheapest(p, "threads", k=1, threads=2, budget=10)
    with pytest.raises(Unsupported, match="budget is for a search in jobs"):
        cheapest(p, "serial", k=1, budget=10)
    with pytest.raises(ValueError, match="budget"):
        cheapest(p, "jobs", k=1, jobs=1, budget=-1)


@pytest.mark.filterwarnings("ignore:Port .* is already in use")
def test_a_dask_cluster_finds_the_cheapest():
    distributed = pytest.importorskip("distributed")
    p = timetable()
    one = [c for c, _ in p.best(3)]
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
        found = p.best(3, executor=client.get_executor(), split_into=64)
    assert [c for c, _ in found] == one


# -- budgets, the stop event, Ctrl-C ---------------------------------------
def check_unproven(p, stopped):
    assert stopped.proven is False and not stopped.stats.complete
    assert p.stats is stopped.stats
    for cost, solution in stopped.best:
        assert cost >= OPTIMUM
        assert cost == sum(p.costs[k] for k in solution)
        assert len(solution) == 12


@pytest.mark.parametrize(
    "options",
    [dict(threads=2), dict(jobs=1), dict(jobs=2)],
    ids=["threads", "jobs-here", "processes"],
)
def test_a_time_limit_hands_back_what_was_found(options):
    p = weighted_pentominoes()
    seconds = stop_after()
    start = time.perf_counter()
    with pytest.raises(BudgetExhausted) as stop:
        p.best(2, time_limit=seconds, **options)
    assert time.perf_counter() - start < 10  # the search takes seconds
    check_unproven(p, stop.value)
    assert "time limit" in str(stop.value)


@pytest.mark.parametrize(
    "options", [dict(threads=2), dict(jobs=2)], ids=["threads", "processes"]
)
def test_the_stop_event_hands_back_what_was_found(options):
    p = weighted_pentominoes()
    event = threading.Event()
    threading.Timer(stop_after(), event.set).start()
    with pytest.raises(BudgetExhausted) as stop:
        p.best(1, stop=event, **options)
    check_unproven(p, stop.value)
    assert "stop event" in str(stop.value)


class interrupt_after:
    """Ctrl-C in the main thread after ``seconds`` (and again every
    quarter second until ``join``, in case one lands before a handler)."""

    def __init__(self, seconds):
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run, args=(seconds,))
        self.thread.start()

    def _run(self, seconds):
        if self.done.wait(seconds):
            return
        while True:
            _thread.interrupt_main()
            if self.done.wait(0.25):
                return

    def join(self):
        self.done.set()
        self.thread.join()
        try:  # one already raised but not yet delivered ends here
            time.sleep(0.01)
        except KeyboardInterrupt:
            pass


@pytest.mark.parametrize(
    "options",
    [dict(threads=2), dict(jobs=1), dict(jobs=2)],
    ids=["threads", "jobs-here", "processes"],
)
def test_ctrl_c_hands_back_what_was_found(options):
    p = weighted_pentominoes()
    timer = interrupt_after(stop_after())
    start = time.perf_counter()
    try:
        with pytest.raises(Interrupted) as stop:
            p.best(2, **options)
    finally:
        timer.join()
    assert time.perf_counter() - start < 20
    assert isinstance(stop.value, KeyboardInterrupt)
    check_unproven(p, stop.value)


# -- what goes together ----------------------------------------------------
@pytest.mark.parametrize(
    "options, sentence",
    [
        (dict(checkpoint="x.ckpt"), "cannot be checkpointed"),
        (
            dict(threads=2, max_nodes=10),
            "on threads cannot be combined with max_nodes",
        ),
        (
            dict(jobs=2, max_nodes=10),
            "in jobs cannot be combined with max_nodes",
        ),
        (dict(jobs=2, threads=2), "in jobs cannot be combined with threads"),
        (
            dict(threads=2, progress=print),
            "on threads cannot be combined with progress",
        ),
    ],
)
def test_arguments_that_do_not_go_together(options, sentence):
    p = ExactCover("a")
    p.add_option("a", cost=1)
    with pytest.raises(Unsupported, match=sentence):
        p.best(**options)


def test_progress_of_one_search_and_of_jobs():
    p = weighted_pentominoes()
    seen = []
    with pytest.raises(BudgetExhausted):
        p.best(1, max_nodes=200_000, progress=seen.append)
    assert seen and seen[-1].nodes > 0  # a few times a second
    seen.clear()
    p = timetable()
    p.best(1, jobs=1, split_into=20, progress=seen.append)
    assert [s.jobs_done for s in seen] == list(range(1, len(seen) + 1))
    assert seen[-1].fraction == pytest.approx(1.0)


def test_the_dlx_command_splits_with_jobs(tmp_path, capsys):
    from dlx.formats import dumps

    p = timetable()
    path = tmp_path / "timetable.dlx"
    path.write_text(dumps(p, max_name_length=None))
    assert main(["solve", str(path), "--best", "2"]) == 0
    one = capsys.readouterr().out
    assert main(["solve", str(path), "--best", "2", "--jobs", "2"]) == 0
    two = capsys.readouterr().out
    costs = [line for line in one.splitlines() if line.startswith("cost ")]
    assert costs == [
        line for line in two.splitlines() if line.startswith("cost ")
    ]
    assert (
        main(
            [
                "solve",
                str(path),
                "--best",
                "2",
                "--checkpoint",
                str(tmp_path / "c"),
            ]
        )
        == 2
    )
    assert "cannot be checkpointed" in capsys.readouterr().err
