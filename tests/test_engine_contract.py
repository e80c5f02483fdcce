"""The engine contract: every engine of the registry, present and future,
through every service, against the brute-force reference.

The tests are parametrised over ``dlx.engines.ENGINES`` (a new engine is
in them with nothing to add here).  What an engine claims is data on it
(``kinds``, ``streams``, ``batches``, ``splits``, ``exact_split``,
``hands_back``, ``costs``; ``Engine``'s docstring): each claim is checked
on random small problems of every kind the engine serves, through the
public API with the registry reduced to this one engine (``only``), and
each service it does not offer is refused in the one sentence of
``dlx.engines.refuse`` ("... is not available for a problem with ...").
Kinds it does not serve are refused the same way.

The core claims (counts, listings, batches, the cheapest) are checked
twice: with the compiled kernels, and with the kernels run as the plain
Python they are written in (``dlx.kernels.jit.plain_first``, what the
commands do for their first small problems), fresh modules whose kernels
have not been compiled.

What every searching engine (not ``costs``) offers: counts, the givens,
a node budget (``max_nodes``), a stop event and ``mrv_cutoff`` (honoured
where it claims ``cutoff``, else the same answer by its own rule).  What
every engine with ``costs`` offers: ``best(k)`` and the givens.
"""

import contextlib
import re
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from dlx import BudgetExhausted, ExactCover, Unsupported, jobs
from dlx.engines import ENGINES, KINDS, registry
from dlx.engines.base import COLORS, EXACT, MULTIPLICITIES, NO_LIMIT
from dlx.engines.registry import KIND_PHRASE
from dlx.problems.queens import queens

from conftest import plain_kernels
from reference import costed_covers, generalized_covers

SEARCHING = [e for e in ENGINES if not e.costs]
COSTING = [e for e in ENGINES if e.costs]
REFUSED = "is not available for a problem with"
FEW = settings(
    max_examples=4,
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.function_scoped_fixture,
    ],
)


def served(engines):
    """``(engine, kind)`` for every kind each of ``engines`` serves."""
    return [
        pytest.param(e, kind, id=f"{e.name}-{kind.split()[0]}")
        for e in engines
        for kind in KINDS
        if kind in e.kinds
    ]


def on_random_problems(engines, examples=None, **strategies):
    """A test run for each ``(engine, kind)`` of ``engines`` (``served``)
    on a few random problems (``data``, and ``strategies``; ``examples``
    of them where a few are not enough)."""

    def decorate(test):
        test = given(data=st.data(), **strategies)(test)
        few = FEW if examples is None else settings(FEW, max_examples=examples)
        return pytest.mark.parametrize("engine, kind", served(engines))(
            few(test)
        )

    return decorate


def ids(engines):
    return [pytest.param(e, id=e.name) for e in engines]


@contextlib.contextmanager
def only(engine):
    """The registry with ``engine`` alone: every search method, with
    ``algorithm="auto"``, gets it (or the registry's refusal), and splits
    split even the smallest tree."""
    from dlx.services import runner

    saved = (
        registry.RECORDS,
        registry.family,
        runner.SERIAL_PROBE_NODES,
    )
    decide = registry.family

    def family(problem, algorithm="auto", purpose="search"):
        decide(problem, algorithm, purpose)  # a known name
        return engine.algorithm

    registry.RECORDS = (engine,)
    registry.family = family
    runner.SERIAL_PROBE_NODES = 0
    try:
        yield
    finally:
        (
            registry.RECORDS,
            registry.family,
            runner.SERIAL_PROBE_NODES,
        ) = saved


@st.composite
def problems(draw, kind, priced=False):
    """``(problem, truth, given)`` of ``kind``: ``truth`` the reference's
    sorted solutions with ``given`` (or, ``priced``, its ``(cost,
    solution)`` pairs, cheapest first)."""
    nitems = draw(st.integers(1, 6))
    nsecondary = draw(st.integers(1 if kind == COLORS else 0, min(3, nitems)))
    assume(nsecondary < nitems or kind != MULTIPLICITIES)
    nprimary = nitems - nsecondary
    options, colors = [], []
    for _ in range(draw(st.integers(0, 7))):
        items = sorted(
            draw(st.sets(st.integers(0, nitems - 1), min_size=1, max_size=4))
        )
        options.append(items)
        colors.append(
            {
                i: draw(st.sampled_from("rg"))
                for i in items
                if kind != EXACT and i >= nprimary and draw(st.booleans())
            }
        )
    bounds = {}
    if kind == MULTIPLICITIES:
        for i in range(nprimary):
            u = draw(st.integers(0, 2))
            bounds[i] = (u, draw(st.integers(max(u, 1), 3)))
    costs = draw(
        st.lists(
            st.integers(0, 6), min_size=len(options), max_size=len(options)
        )
    )
    p = ExactCover(range(nprimary), range(nprimary, nitems), bounds=bounds)
    for items, cols, cost in zip(options, colors, costs):
        p.add_option(items, colors=cols, cost=cost if priced else 0)
    assume(p.kind == kind)
    forced = (
        draw(
            st.lists(st.integers(0, len(options) - 1), max_size=2, unique=True)
        )
        if options
        else []
    )
    shape = (options, nprimary, nitems)
    if priced:
        truth = costed_covers(*shape, costs, colors, bounds, forced)
    else:
        truth = generalized_covers(*shape, colors, bounds, forced)
    return p, truth, forced


def asked(engine) -> dict:
    """How a count asks for ``engine``: memo counting, which no
    ``algorithm=`` names, by ``memo=True``."""
    return {} if engine.named else {"memo": True}


def draw(data, engine, kind, priced=False):
    """``problems(kind, priced)`` that ``engine`` fits (the registry gives
    the others to the next engine of its family)."""
    p, truth, forced = data.draw(problems(kind, priced))
    assume(engine.fits(p))
    return p, truth, forced


@pytest.fixture(params=["compiled", "plain"])
def kernels(request):
    """The kernels as compiled, or (``plain``) every kernel module loaded
    afresh and run as plain Python, without limits, for the test."""
    if request.param == "compiled":
        yield request.param
        return
    # DLX1's family runs its batches compiled (a batch call cannot be cut
    # short: see dlx.engines.dlx1.run_batch); everything else stays plain.
    batches = "batches" in request.function.__name__
    with plain_kernels(float("inf"), 1 << 62, strict=not batches):
        yield request.param


def refused(call, what=REFUSED):
    with pytest.raises(Unsupported, match=what):
        call()


# -- every kind: served, or refused ------------------------------------------
@pytest.mark.parametrize("engine", ids(ENGINES))
@pytest.mark.parametrize("kind", KINDS, ids=[k.split()[0] for k in KINDS])
def test_a_kind_not_served_is_refused(engine, kind):
    p = {
        EXACT: ExactCover(["a"]),
        COLORS: ExactCover(["a"], ["x"]),
        MULTIPLICITIES: ExactCover(["a"], bounds={"a": (0, 2)}),
    }[kind]
    if kind == COLORS:
        p.add_option(["a", "x"], colors={"x": 1})
    else:
        p.add_option(["a"])
    assert p.kind == kind
    search = (lambda: p.best(1)) if engine.costs else p.count
    with only(engine):
        if kind in engine.kinds:
            assert search()  # the one solution
        else:
            refused(search, re.escape(f"{REFUSED} {KIND_PHRASE[kind]}"))


# -- what every searching engine offers ----------------------------------------
@on_random_problems(SEARCHING)
def test_counts_with_givens_are_the_reference(engine, kind, data, kernels):
    p, truth, forced = draw(data, engine, kind)
    with only(engine):
        assert p.count(given=forced, **asked(engine)) == len(truth)
        assert p.stats.complete and p.stats.solutions == len(truth)
        # mrv_cutoff: honoured (cutoff) or the engine's own rule, the same
        # count either way (memo counting refuses it).
        if engine.named:
            assert p.count(given=forced, mrv_cutoff=1) == len(truth)


@on_random_problems(SEARCHING)
def test_a_node_budget_and_a_stop_event_stop_it(engine, kind, data):
    p, truth, forced = draw(data, engine, kind)
    how = asked(engine)
    with only(engine):
        # A budget stops the search, or it was enough: never a count cut
        # short passed off as the answer.
        try:
            assert p.count(given=forced, max_nodes=1, **how) == len(truth)
        except BudgetExhausted as stopped:
            assert "max_nodes=1" in str(stopped)
            assert not p.stats.complete
        if kind == EXACT:  # a tree of hundreds of nodes: stopped
            with pytest.raises(BudgetExhausted):
                queens(6).count(max_nodes=5, **how)
        stop = threading.Event()
        stop.set()
        try:  # refused before any work, unless there is none to do
            assert p.count(given=forced, stop=stop, **how) == len(truth)
        except BudgetExhausted as stopped:
            assert "stop event" in str(stopped)


@on_random_problems(SEARCHING)
def test_streams_every_solution_or_refuses(engine, kind, data, kernels):
    p, truth, forced = draw(data, engine, kind)
    with only(engine):
        listing = lambda: list(p.solutions(given=forced))
        if engine.streams:
            assert sorted(map(tuple, listing())) == truth
        else:
            refused(listing, f"listing solutions {REFUSED}")


@on_random_problems(SEARCHING)
def test_batches_or_refuses(engine, kind, data, kernels):
    p, truth, forced = draw(data, engine, kind)
    with only(engine):
        batch = lambda: p.solve_batch([forced, []], limit=1000)
        if not engine.batches:
            refused(batch, f"solve_batch {REFUSED}")
            return
        result = batch()
    # -1: the givens clash (then there is no solution).
    assert result.counts[0] in ((len(truth),) if truth else (0, -1))
    first = [k for k in result.solutions[0] if k >= 0]
    if truth:
        assert tuple(sorted(first + list(forced))) in truth
    if result.counts[0] >= 0:
        # A whole search: the count's own nodes and updates.  (A batch
        # commits an instance's givens in rising order; in dancing cells
        # the order of commits is the order of the active items, which
        # breaks MRV's ties.)
        with only(engine):
            p.count(given=sorted(forced), mrv_cutoff=0)
        work = (result.nodes[0], result.updates[0])
        assert work == (p.stats.nodes, p.stats.updates)


@on_random_problems(SEARCHING)
def test_splits_count_the_same_or_refuses(engine, kind, data):
    p, truth, forced = draw(data, engine, kind)
    with only(engine):
        threads = lambda: p.count(given=forced, threads=2)
        here = lambda: p.count(given=forced, jobs=1, split_into=5)
        plan = lambda: jobs.split(p, split_into=5, given=forced)
        if not engine.splits:
            refused(threads, f"a count on threads {REFUSED}")
            refused(here, f"splitting the search into jobs {REFUSED}")
            refused(plan, f"splitting the search into jobs {REFUSED}")
            refused(lambda: p.estimate(), f"Knuth's estimate {REFUSED}")
            return
        p.count(given=forced)
        one = (p.stats.nodes, p.stats.updates)
        for split_count in (threads, here):
            assert split_count() == len(truth)
            if engine.exact_split:  # the same search, cut into pieces
                assert (p.stats.nodes, p.stats.updates) == one
        cut = plan()
        assert cut.solutions + sum(
            cut.run(p, job).solutions for job in cut.jobs
        ) == len(truth)


@on_random_problems([e for e in SEARCHING if e.splits])
def test_its_top_and_probes_walk_its_tree(engine, kind, data):
    p, truth, forced = draw(data, engine, kind)
    arrays = engine.arrays(p)
    nodes = engine.option_nodes(arrays, forced)
    top = engine.top(arrays, nodes, 0)
    if top.clash:
        assert truth == []
        return
    if top.covered:
        assert truth == [tuple(sorted(forced))]
        return

    def leaves(path):
        _, children = top.expand(path)
        return sum(
            1 if leaf else leaves(path + tuple(moves))
            for moves, leaf in children
        )

    assert leaves(()) == len(truth)
    probes = engine.probe(arrays, nodes, 0, 8, 1)
    assert probes.shape == (8, 3) and (probes[:, 0] >= 1).all()
    if not truth:  # no walk can meet a solution
        assert (probes[:, 2] == 0).all()


@on_random_problems(
    [e for e in SEARCHING if e.splits], budget=st.integers(1, 6)
)
def test_a_job_cut_short_hands_back_its_rest_or_runs_to_its_end(
    engine, kind, data, budget
):
    # Every job cut short by its budget, and every job it hands back in
    # turn: the count (and where the engine's split is exact, the nodes
    # and updates) adds up to the job run to its end, and Knuth's measure
    # of the pieces to the whole.
    p, truth, forced = draw(data, engine, kind)
    arrays = engine.arrays(p)
    nodes = engine.option_nodes(arrays, forced)
    if engine.top(arrays, nodes, 0).clash:
        return
    whole = engine.run_job(arrays, nodes, (), 0)
    assert whole.rest == [] and whole.solutions == len(truth)
    figures, pieces, share = [0, 0, 0], 0, 0.0
    stack = [((), 1.0)]
    while stack:
        path, part = stack.pop()
        result = engine.run_job(arrays, nodes, path, 0, budget=budget)
        if not engine.hands_back:
            assert result.rest == []
        for rest, _ in result.rest:  # deeper than the job: it ends
            assert rest[: len(path)] == path and len(rest) > len(path)
        figures[0] += result.solutions
        figures[1] += result.nodes
        figures[2] += result.updates
        pieces += 1
        share += part * (1 - sum(f for _, f in result.rest))
        stack += [(tuple(g), part * f) for g, f in result.rest]
    assert figures[0] == len(truth)
    if engine.exact_split:
        assert figures[1:] == [whole.nodes, whole.updates]
    assert share == pytest.approx(1.0)
    # Cut short whenever it enters more nodes than the budget (every node
    # but a solution is entered).
    if engine.hands_back and whole.nodes - whole.solutions > budget:
        assert pieces > 1


@on_random_problems(
    [e for e in SEARCHING if e.hands_back], budget=st.integers(1, 6)
)
def test_a_count_on_workers_with_a_budget_is_one_search(
    engine, kind, data, budget
):
    # Through jobs.count on an executor: the jobs handed back are run in
    # turn, and the figures are one search's.
    p, truth, forced = draw(data, engine, kind)
    with only(engine), ThreadPoolExecutor(2) as pool:
        p.count(given=forced)
        one = (p.stats.nodes, p.stats.updates)
        assert jobs.count(
            p, given=forced, executor=pool, split_into=3, budget=budget
        ) == len(truth)
        if engine.exact_split:
            assert (p.stats.nodes, p.stats.updates) == one


# -- what every engine with costs offers ---------------------------------------
@on_random_problems(COSTING, k=st.integers(1, 4))
def test_the_cheapest_are_the_reference(engine, kind, data, k, kernels):
    p, truth, forced = draw(data, engine, kind, priced=True)
    ways = [{}]
    if engine.splits:
        ways += [{"threads": 2}, {"jobs": 1, "split_into": 5}]
    with only(engine):
        for way in ways:
            found = p.best(k, given=forced, **way)
            assert [c for c, _ in found] == [c for c, _ in truth][:k]
            for cost, solution in found:
                assert tuple(solution) in {s for _, s in truth}
                assert cost == sum(p.costs[j] for j in solution)
        if not engine.splits:
            refused(
                lambda: p.best(k, given=forced, threads=2),
                f"splitting the search for the cheapest solutions {REFUSED}",
            )
        # It serves best, not the other searches (those are a searching
        # engine's): refused in the same sentence.
        refused(lambda: p.count(given=forced))
        refused(lambda: p.solve_batch([forced]))


def best_pieces(engine, p, forced, k, budget, pick=None):
    """The job at the root of ``p``'s tree below ``forced`` searched for
    its ``k`` cheapest with a node ``budget``, and every job handed back
    in turn (the next one ``pick(pending)``: the last by default), each
    started with the threshold of the ``k`` cheapest found so far, as the
    runner sends them: ``(the k cheapest, [(result, share)] of every
    piece)``."""
    from dlx.services.best import Cheapest, run_best_job

    arrays = engine.arrays(p)
    nodes = engine.option_nodes(arrays, forced)
    cheapest = Cheapest(k, arrays.total_tax)
    pending, pieces = [((), 1.0)], []
    while pending:
        path, share = pending.pop(pick(pending) if pick else -1)
        shared = np.array([cheapest.threshold()], np.int64)
        result, complete = run_best_job(
            engine, arrays, nodes, path, k, shared, budget=budget
        )
        assert complete
        cheapest.add([(c, sorted(o + list(forced))) for c, o in result.best])
        (rest,) = result.rest
        for deeper, _ in rest:  # below the job: it ends
            assert deeper[: len(path)] == path and len(deeper) > len(path)
        pieces.append((result, share))
        pending += [(tuple(g), share * f) for g, f in rest]
    return cheapest.best(), pieces


# (Many examples: a piece's figures go wrong only where a net cost is not
# 0, which the taxes make rare on the smallest problems.)
@on_random_problems(COSTING, examples=40, budget=st.integers(1, 5))
def test_a_best_job_cut_short_hands_back_its_rest(engine, kind, data, budget):
    # With no threshold to share (k beyond the solutions), the pieces of a
    # job cut short and handed back again and again find every solution
    # once, and their nodes, updates and solutions add up to the job's.
    p, truth, forced = draw(data, engine, kind, priced=True)
    everything = len(truth) + 1
    ((whole, _),) = best_pieces(engine, p, forced, everything, 0)[1]
    found, pieces = best_pieces(engine, p, forced, everything, budget)
    assert sorted((c, tuple(s)) for c, s in found) == sorted(truth)
    assert sum(r.solutions for r, _ in pieces) == len(truth)
    for figure in ("solutions", "nodes", "updates"):
        assert sum(getattr(r, figure) for r, _ in pieces) == getattr(
            whole, figure
        )
    assert sum(
        share * (1 - sum(f for _, f in r.rest[0])) for r, share in pieces
    ) == pytest.approx(1.0)
    if whole.nodes - whole.solutions > budget:  # cut short
        assert len(pieces) > 1


@on_random_problems(
    COSTING, examples=20, k=st.integers(1, 4), budget=st.integers(1, 3)
)
def test_the_cheapest_with_hand_backs_are_the_reference(
    engine, kind, data, k, budget
):
    # Under a threshold the pieces' nodes depend on the order they run in
    # (each starts from the k-th cheapest known when it is sent): the k
    # cheapest do not, in any order, nor through the runner on a pool.
    p, truth, forced = draw(data, engine, kind, priced=True)
    costs = [c for c, _ in truth][:k]
    order = data.draw(st.sampled_from(["last", "first", "any"]))
    pick = {
        "last": None,
        "first": lambda pending: 0,
        "any": lambda pending: data.draw(st.integers(0, len(pending) - 1)),
    }[order]
    found, _ = best_pieces(engine, p, forced, k, budget, pick)
    assert [c for c, _ in found] == costs
    from dlx.services.best import best

    with only(engine), ThreadPoolExecutor(2) as pool:
        found = best(
            p,
            "jobs",
            k=k,
            given=forced,
            executor=pool,
            split_into=3,
            budget=budget,
        )
    assert [c for c, _ in found] == costs
    for cost, solution in found:
        assert tuple(solution) in {s for _, s in truth}
        assert cost == sum(p.costs[j] for j in solution)


@pytest.mark.parametrize("engine", ids(SEARCHING))
def test_an_engine_without_costs_refuses_best(engine):
    p = ExactCover(["a"])
    p.add_option(["a"], cost=1)
    if EXACT not in engine.kinds:
        return
    with only(engine):
        refused(
            lambda: p.best(1), f"the cheapest solutions \\(best\\) .*{REFUSED}"
        )


def test_every_engine_declares_its_capabilities():
    # The contract's data: set (or inherited) on every engine, the kinds
    # among the registry's, names unique, a program to name it by.
    assert len({e.name for e in ENGINES}) == len(ENGINES)
    for engine in ENGINES:
        assert engine.name and engine.program and engine.algorithm
        assert engine.kinds and engine.kinds <= set(KINDS)
        for flag in (
            "streams",
            "batches",
            "splits",
            "exact_split",
            "hands_back",
            "cutoff",
            "costs",
            "named",
        ):
            assert isinstance(getattr(engine, flag), bool), (engine, flag)
        assert not (engine.exact_split and not engine.splits)
        assert not (engine.hands_back and not engine.splits)
    assert NO_LIMIT > 0


def test_every_record_says_what_its_engine_says():
    # The registry chooses and names engines from data-only records (so
    # that no engine module loads before it is used); the classes are the
    # truth, and every concrete engine class of dlx.engines has a record.
    import importlib
    import inspect
    import pkgutil

    import dlx.engines
    from dlx.engines.base import Engine

    for record in registry.RECORDS:
        module = importlib.import_module(f"dlx.engines.{record.module}")
        engine = registry.BY_NAME[record.name]
        assert type(engine) is getattr(module, record.cls)
        for field in ("name", "algorithm", "kinds", "costs", "named", "about"):
            assert getattr(record, field) == getattr(engine, field), (
                record.name,
                field,
            )
        assert record.fits == (type(engine).fits is not Engine.fits)
    classes = set()
    for info in pkgutil.iter_modules(dlx.engines.__path__):
        module = importlib.import_module(f"dlx.engines.{info.name}")
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, Engine) and cls is not Engine and cls.name:
                classes.add(cls)
    assert classes == {
        type(registry.BY_NAME[r.name]) for r in registry.RECORDS
    }
    assert [e.name for e in ENGINES] == [r.name for r in registry.RECORDS]
