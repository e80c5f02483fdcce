"""The search driver (dlx/services/search.py) and the thread pool of the
kernels (dlx/engines/threads.py): time limits, Ctrl-C and statistics."""

import _thread
import signal
import threading
import time

import numpy as np
import pytest

from dlx import BudgetExhausted, Interrupted
from dlx.engines import threads
from dlx.problems.polyomino import Polyomino
from dlx.problems.queens import queens
from dlx.services import search
from dlx.services.search import SLICE_SECONDS, Slicer

# Every test here runs on both kernels, dancing links and dancing cells.
pytestmark = pytest.mark.usefixtures("each_algorithm")

# Long enough to be still running when interrupted (seconds on one core).
LONG = 16


class interrupt_after:
    """Ctrl-C in the main thread after ``seconds``, as a terminal sends it,
    and again every quarter second until ``join``: Python raises the
    interrupt wherever the main thread happens to be, and one that lands
    in a weakref callback or a ``__del__`` is only printed, as a second
    Ctrl-C from a user would not be."""

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


def seconds_of_search(t0, c0):
    """The seconds a run took since ``t0 = time.perf_counter()`` and ``c0 =
    time.process_time()``: the wall clock's, or the CPU's when that is
    less (on a loaded machine the wall clock stretches; a search that ran
    on after Ctrl-C would burn CPU all the same)."""
    return min(time.perf_counter() - t0, time.process_time() - c0)


@pytest.mark.parametrize(
    "run",
    [
        lambda p: p.count(),
        lambda p: p.count(threads=2),
        lambda p: sum(1 for _ in p.solutions()),
        lambda p: p.solve_batch([[]], limit=10**9),
        lambda p: p.solve_batch(
            [[k] for k in range(16)], limit=10**9, threads=2
        ),
    ],
    ids=["count", "count-threads", "solutions", "batch", "batch-threads"],
)
def test_ctrl_c_stops_every_kind_of_run_at_once(run):
    # Compile outside the timing, on a tree big enough to be split over
    # threads: Ctrl-C in numba's compiler is not what this test is about.
    run(queens(11))
    p = queens(LONG)
    timer = interrupt_after(0.3)
    t0, c0 = time.perf_counter(), time.process_time()
    with pytest.raises(Interrupted) as stop:
        run(p)
    elapsed = seconds_of_search(t0, c0)
    timer.join()
    assert elapsed < 5.0  # the whole count takes tens of seconds
    assert isinstance(stop.value, KeyboardInterrupt)
    assert stop.value.stats.complete is False
    assert stop.value.count == stop.value.stats.solutions
    assert p.stats is stop.value.stats


class _CtrlCInFinaliser:
    """Presses Ctrl-C from its ``__del__`` and goes on running Python
    there: Python's own handler raises the interrupt inside ``__del__``,
    where it is printed and dropped, as in a gc or weakref callback."""

    def __del__(self):
        _thread.interrupt_main()
        sum(k for k in range(3))


class _RunInterruptedInACallback:
    """A run object (see ``dlx.search``) whose first step is hit by a
    Ctrl-C that lands in a finaliser; its second step ends the search."""

    def __init__(self):
        self.counters = np.zeros(3, np.int64)
        self.steps = 0

    def step(self, want, stop_at, store):
        self.steps += 1
        self.counters[0] += 1
        if self.steps == 1:
            _CtrlCInFinaliser()  # made and finalised at once
            return search.PAUSED, []
        return search.EXHAUSTED, []


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_a_ctrl_c_landing_in_a_callback_during_a_step_is_not_lost():
    fake = _RunInterruptedInACallback()
    stats = search.Stats()
    with pytest.raises(Interrupted) as stop:
        list(
            search.run(
                fake,
                stats,
                limit=None,
                max_nodes=None,
                time_limit=None,
                store=False,
                given=[],
            )
        )
    assert fake.steps == 1 and stop.value.stats is stats
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_program_s_own_ctrl_c_handler_is_left_alone():
    seen = []

    def mine(signum, frame):
        seen.append(signum)

    previous = signal.signal(signal.SIGINT, mine)
    try:
        with threads.ctrl_c_noted() as noted:
            assert signal.getsignal(signal.SIGINT) is mine
            _thread.interrupt_main()
            time.sleep(0.01)
        assert seen == [signal.SIGINT] and not noted.hit
    finally:
        signal.signal(signal.SIGINT, previous)


def test_ctrl_c_during_threaded_kernels_raises_their_stop_flag():
    stop = np.zeros(1, np.uint8)

    def task(k):  # a kernel that presses Ctrl-C, then runs until stopped
        _thread.interrupt_main()
        deadline = time.perf_counter() + 5
        while not stop[0] and time.perf_counter() < deadline:
            time.sleep(0.001)

    assert threads.run_tasks(task, 1, 1, stop, None) == "interrupt"
    assert stop[0] == 1
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_slice_s_progress_and_solutions_reach_the_caller():
    class Run:  # two slices, a solution in the second
        counters = np.zeros(3, np.int64)

        def step(self, want, stop_at, store):
            self.counters[0] += 5
            if self.counters[0] < 10:
                return search.OUT_OF_NODES, []
            self.counters[2] = 1
            return search.EXHAUSTED, [[3, 1]]

    seen = []
    found = list(
        search.run(
            Run(),
            search.Stats(),
            limit=None,
            max_nodes=None,
            time_limit=None,
            store=True,
            given=[2],
            progress=lambda run, s: seen.append(s.nodes),
        )
    )
    assert found == [[[1, 2, 3]]] and seen == [5, 10]


def test_a_failing_thread_pool_stops_the_kernels_it_started(monkeypatch):
    stop = np.zeros(1, np.uint8)
    saw_stop, ended = [], threading.Event()

    def task(k):  # a kernel that runs until stopped (5 s at most)
        deadline = time.perf_counter() + 5
        while not stop[0] and time.perf_counter() < deadline:
            time.sleep(0.001)
        saw_stop.append(bool(stop[0]))
        ended.set()

    class Pool(threads.ThreadPoolExecutor):  # the second submit fails
        def submit(self, fn, *args):
            if args[0] == 1:
                raise RuntimeError("cannot schedule new futures")
            return super().submit(fn, *args)

    monkeypatch.setattr(threads, "kept_pool", Pool)
    with pytest.raises(RuntimeError, match="cannot schedule"):
        threads.run_tasks(task, 2, 1, stop, None)
    assert ended.is_set() and saw_stop == [True]


def test_a_batch_keeps_its_threads_from_call_to_call():
    # Starting threads costs more than a small batch: each calling thread
    # keeps its pool; another calling thread has its own.
    assert threads.kept_pool(1) is threads.kept_pool(1)
    assert threads.kept_pool(2) is not threads.kept_pool(1)
    other = []
    worker = threading.Thread(
        target=lambda: other.append(threads.kept_pool(1))
    )
    worker.start()
    worker.join()
    assert other[0] is not threads.kept_pool(1)


def test_a_threaded_count_times_itself():
    p = queens(11)  # big enough to be split over the threads
    p.count(threads=2)
    t0 = time.perf_counter()
    p.count(threads=2)
    assert 0 < p.stats.seconds <= time.perf_counter() - t0


def test_an_interrupted_count_keeps_what_it_found():
    p = queens(LONG)
    p.count(limit=1)
    timer = interrupt_after(0.3)
    with pytest.raises(Interrupted) as stop:
        p.count()
    timer.join()
    assert stop.value.count > 0 and stop.value.stats.nodes > 0
    # The count so far is exactly what the same search finds in that many
    # nodes.
    nodes = stop.value.stats.nodes
    with pytest.raises(BudgetExhausted) as budget:
        p.count(max_nodes=nodes)
    assert budget.value.count == stop.value.count


def test_time_limit_stops_close_to_the_limit():
    p = Polyomino("6x10").problem  # about a second of search
    p.count(limit=1)
    t0 = time.perf_counter()
    with pytest.raises(BudgetExhausted, match="time_limit"):
        p.count(time_limit=0.05)
    # Before, the clock was read every 2**20 nodes: 1.4 s for this limit.
    assert time.perf_counter() - t0 < 0.5
    assert not p.stats.complete and p.stats.nodes > 0


@pytest.mark.parametrize("threads", [1, 2])
def test_a_zero_time_limit_stops_at_once(threads):
    p = queens(12)
    with pytest.raises(BudgetExhausted) as stop:
        p.count(time_limit=0.0, threads=threads)
    assert stop.value.count == 0 and stop.value.stats.nodes == 0


def test_time_limit_with_threads():
    p = queens(LONG)
    p.count(limit=1)
    t0 = time.perf_counter()
    with pytest.raises(BudgetExhausted):
        p.count(time_limit=0.2, threads=2)
    assert time.perf_counter() - t0 < 1.5


def test_the_pool_sees_a_stop_between_jobs_shorter_than_its_wait():
    # Jobs that each end within the pool's 0.1 s wait: a stop event and a
    # deadline looked at only when a wait timed out were never seen (the
    # k cheapest on threads ran to the end past its stop event).
    def job(k):
        if not flag[0]:  # as the kernels do
            time.sleep(0.01)

    for event, deadline, reason in [
        (threading.Event(), None, "stopped"),
        (None, time.perf_counter() - 1, "deadline"),
    ]:
        if event is not None:
            event.set()
        flag = np.zeros(1, np.uint8)
        start = time.perf_counter()
        assert threads.run_tasks(job, 200, 2, flag, deadline, event) == reason
        assert flag[0] == 1
        assert time.perf_counter() - start < 0.5  # not 200 jobs' 1 s


def test_slices_follow_the_node_rate_and_the_deadline():
    slicer = Slicer(deadline=None)
    first = slicer.next_bound(0, 10**12)
    slicer.record(
        first, 0.001
    )  # a fast problem: slices grow, fourfold at most
    assert slicer.next_bound(first, 10**12) - first == 4 * first
    for _ in range(20):
        slicer.record(slicer.size, 0.001)
    rate = slicer.size / 0.001
    assert slicer.size == int(rate * SLICE_SECONDS) or slicer.size == 1 << 24
    slicer.record(1000, 1.0)  # a slow patch: the next slice shrinks at once
    assert slicer.size == max(16, int(1000 * SLICE_SECONDS))
    near = Slicer(deadline=time.perf_counter() + 0.001)
    near.record(1000, 0.001)  # a million nodes a second, a millisecond left
    assert near.next_bound(0, 10**12) <= 1000
    assert near.next_bound(0, 10) == 10  # never past max_nodes


def test_stats_belong_to_one_run_when_runs_interleave():
    p = queens(8)
    stream = p.solutions()
    seen = 0
    for _ in stream:
        seen += 1
        if seen == 3:
            assert p.count(limit=10) == 10
            assert p.stats.solutions == 10 and not p.stats.complete
    assert seen == 92
    alone = queens(8)
    alone.count()
    assert p.stats == alone.stats.__class__(
        alone.stats.nodes, alone.stats.updates, 92, p.stats.seconds, True
    )


def test_a_budget_raised_by_a_threaded_count_is_not_chained():
    p = queens(LONG)
    with pytest.raises(BudgetExhausted) as stop:
        p.count(time_limit=0.01, threads=2)
    assert stop.value.__context__ is None


def test_slicing_is_invisible_to_the_search():
    # Many tiny slices (a deadline far away forces the sliced path) give
    # the nodes and updates of one call.
    p = queens(9)
    p.count()
    whole = (p.stats.nodes, p.stats.updates, p.stats.solutions)
    assert p.count(time_limit=60) == 352
    assert (p.stats.nodes, p.stats.updates, p.stats.solutions) == whole
    batch = p.solve_batch([[]], limit=10**6)
    assert (int(batch.nodes[0]), int(batch.updates[0])) == whole[:2]
    assert np.array_equal(batch.counts, [352])


@pytest.mark.parametrize(
    "solutions, text",
    [
        (0, "0 solutions"),
        (1, "1 solution,"),
        (2, "2 solutions"),
        (1234567, "1 234 567 solutions"),
    ],
)
def test_stats_print_like_knuth(solutions, text):
    from dlx.services.search import Stats

    line = str(Stats(1089, 2076, solutions, 0.5, True))
    assert (
        line == f"Altogether {text}{'' if text.endswith(',') else ','}"
        f" 2 076 updates, 1 089 nodes, 0.500 s."
    )
    assert str(Stats(1, 2, 3, 0.0, False)).endswith(" s (stopped early).")
