"""Counting by components (dlx.services.parts): count(memo=True) on
problems that fall apart, against the reference; the rooms of
dlx.problems.tiling.rooms against their known products; givens that cut a
problem apart; budgets, Ctrl-C and the stats."""

import threading

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from dlx import BudgetExhausted, ExactCover, Interrupted
from dlx.engines import memo as memo_engine
from dlx.kernels import parts as K
from dlx.problems.rooks import rooks
from dlx.problems.tiling import rooms, tiling
from dlx.services import parts
from dlx.services.memo import MemoStats
from dlx.services.parts import PartsStats

from reference import domino_tilings, generalized_covers
from test_memo import KINDS


def _bounds(draw, kind, items):
    """Bounds ``{item: (u, v)}`` for some of ``items`` (primary item
    numbers) when ``kind`` has bounds, as ``test_xcc``'s problems draw
    them: ``u`` 0 to 2, ``v`` up to 3."""
    bounds = {}
    if "bounds" in kind:
        for i in items:
            if draw(st.booleans()):
                u = draw(st.integers(0, 2))
                bounds[i] = (u, draw(st.integers(max(u, 1), 3)))
    return bounds


def _colors(draw, kind, items, nprimary):
    """Colors ``{item: color}`` for some secondary items of an option
    when ``kind`` has colors."""
    tint = {}
    if "colors" in kind:
        for i in items:
            if i >= nprimary and draw(st.booleans()):
                tint[i] = draw(st.sampled_from("ab"))
    return tint


@st.composite
def pieces(draw, kind, most_options):
    """A small problem: (nprimary, nsecondary, options as item lists,
    colors as {item: color} per option, bounds as {item: (u, v)})."""
    nprimary = draw(st.integers(1, 4))
    nsecondary = draw(st.integers(0, 2))
    nitems = nprimary + nsecondary
    options, colors = [], []
    for _ in range(draw(st.integers(1, most_options))):
        items = sorted(
            draw(st.sets(st.integers(0, nitems - 1), min_size=1, max_size=3))
        )
        options.append(items)
        colors.append(_colors(draw, kind, items, nprimary))
    bounds = _bounds(draw, kind, range(nprimary))
    return nprimary, nsecondary, options, colors, bounds


@st.composite
def glued(draw, kind):
    """Copies and other pieces side by side, numbered so that the pieces'
    items interleave (primary items first), some of them glued by options
    that join two pieces (a glue item primary, the piece's items
    secondary or primary): the problems the components are for."""
    first = draw(pieces(kind, 4))
    blocks = [first] * draw(st.integers(1, 2)) + [
        draw(pieces(kind, 4)) for _ in range(draw(st.integers(0, 2)))
    ]
    glues = draw(st.integers(0, 2 if len(blocks) > 1 else 0))
    nprimary = sum(b[0] for b in blocks) + glues
    nsecondary = sum(b[1] for b in blocks)
    # Item numbers: each piece's primary items, then the glue items, then
    # each piece's secondary items.
    starts_p, starts_s, p, s = [], [], 0, nprimary
    for b in blocks:
        starts_p.append(p)
        starts_s.append(s)
        p += b[0]
        s += b[1]
    options, colors, bounds = [], [], {}
    for b, sp, ss in zip(blocks, starts_p, starts_s):
        for items, tint in zip(b[2], b[3]):
            number = {i: sp + i if i < b[0] else ss + i - b[0] for i in items}
            options.append(sorted(number.values()))
            colors.append({number[i]: c for i, c in tint.items()})
        bounds.update({sp + i: uv for i, uv in b[4].items()})
    glue_items = range(sum(b[0] for b in blocks), nprimary)
    for glue in glue_items:
        for _ in range(draw(st.integers(1, 2))):
            a, b = draw(
                st.lists(
                    st.integers(0, len(blocks) - 1),
                    min_size=2,
                    max_size=2,
                    unique=True,
                )
            )
            options.append(sorted([glue, starts_p[a], starts_p[b]]))
            colors.append({})
    bounds.update(_bounds(draw, kind, glue_items))
    return nprimary, nprimary + nsecondary, options, colors, bounds


def build(case):
    nprimary, nitems, options, colors, bounds = case
    p = ExactCover(range(nprimary), range(nprimary, nitems), bounds=bounds)
    for items, tint in zip(options, colors):
        p.add_option(items, colors=tint)
    return p


def reference(case, forced=()):
    nprimary, nitems, options, colors, bounds = case
    return len(
        generalized_covers(
            options, nprimary, nitems, colors, bounds, given=forced
        )
    )


# -- against the reference -----------------------------------------------------


@st.composite
def small_problems(draw, kind):
    """Any small problem, most of them connected: the driver then tries
    its cut items (with bounds too), and a branch may leave an empty part
    (count 1)."""
    nprimary = draw(st.integers(1, 5))
    nsecondary = draw(st.integers(0, 2))
    nitems = nprimary + nsecondary
    options = draw(
        st.lists(
            st.lists(
                st.integers(0, nitems - 1), min_size=1, max_size=3, unique=True
            ).map(sorted),
            min_size=1,
            max_size=8,
        )
    )
    colors = [_colors(draw, kind, items, nprimary) for items in options]
    bounds = _bounds(draw, kind, range(nprimary))
    return nprimary, nitems, options, colors, bounds


@settings(max_examples=100, deadline=None)
@pytest.mark.parametrize("kind", KINDS)
@given(data=st.data())
def test_the_driver_counts_any_small_problem(kind, data):
    _driver_counts(data.draw(small_problems(kind)))


@pytest.mark.parametrize(
    "case,cuts",
    [
        # Item 1 is a cut item; its option {0, 1, 2} leaves an empty part.
        ((3, 3, [[0], [0, 1], [1], [2], [0, 1, 2]], [{}] * 5, {}), 1),
        # With bounds: item 1 (1..2) is cut by the sets of its options
        # ({0 1}, {1 2}, both), items 0 and 2 (1..2) take their slack
        # along.
        (
            (
                3,
                3,
                [[0], [0, 1], [1, 2], [2], [0]],
                [{}] * 5,
                {0: (1, 2), 1: (1, 2), 2: (1, 2)},
            ),
            1,
        ),
        # Item 1 (0..1, three options: four sets) is cut, item 2 (2..3)
        # needs two of its three options.
        (
            (
                3,
                4,
                [[0, 3], [0, 1], [1, 2], [1, 2], [2], [2], [3]],
                [{}] * 7,
                {1: (0, 1), 2: (2, 3)},
            ),
            1,
        ),
    ],
)
def test_the_driver_counts_these_problems(case, cuts):
    p = _driver_counts(case)
    assert p.stats.cuts >= cuts


def _driver_counts(case):
    p = build(case)
    assert parts.by_parts(p) == reference(case)
    return p


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@pytest.mark.parametrize("kind", KINDS)
@given(data=st.data())
def test_count_by_parts_matches_the_reference(kind, data):
    case = data.draw(glued(kind))
    if len(case[2]) > 14:  # the reference tries every set of options
        return
    p = build(case)
    expected = reference(case)
    assert p.count(memo=True) == expected
    assert p.stats.solutions == expected and p.stats.complete
    # The driver itself, also where the root check would not split.
    assert parts.by_parts(p) == expected
    assert parts.by_parts(p, choose="first", memo_bytes=0) == expected


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@pytest.mark.parametrize("kind", KINDS)
@given(data=st.data())
def test_count_by_parts_with_givens(kind, data):
    case = data.draw(glued(kind))
    if len(case[2]) > 14:
        return
    forced = data.draw(
        st.lists(st.integers(0, len(case[2]) - 1), max_size=2, unique=True)
    )
    p = build(case)
    expected = reference(case, forced)
    assert p.count(memo=True, given=forced) == expected
    assert p.count(memo="auto", given=forced) == expected


def _given_case(colors):
    """Items 0, 1, 2 primary, 3 secondary (the first secondary item: its
    number is nprimary); option 0 is ``0 3:a``, then ``1 3:c`` for each
    color c of ``colors`` (``1 3`` for None), then ``1``, and item 2 in a
    part of its own (two options ``2``)."""
    options = [[0, 3]] + [[1, 3]] * len(colors) + [[1], [2], [2]]
    tints = [{3: "a"}] + [{3: c} if c else {} for c in colors] + [{}] * 3
    return 3, 4, options, tints, {}


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@pytest.mark.parametrize("kind", KINDS)
@given(data=st.data())
def test_givens_through_the_driver(kind, data):
    case = data.draw(glued(kind))
    if len(case[2]) > 14:
        return
    forced = data.draw(
        st.lists(st.integers(0, len(case[2]) - 1), max_size=2, unique=True)
    )
    _driver_with_givens(case, forced)


def _driver_with_givens(case, forced):
    """The driver itself (whatever the root check says), the givens
    chosen at its root, against the reference."""
    expected = reference(case, forced)
    try:
        found = parts.by_parts(build(case), given=forced)
    except ValueError as clash:
        assert "clash" in str(clash)
        found = 0
    assert found == expected


@pytest.mark.parametrize(
    "colors", [["a", "b", "b"], ["b", "a"], ["a", "a", "b"], ["b"]]
)
def test_a_colored_given_strikes_only_the_options_it_disagrees_with(colors):
    # Option 0 (0 3:a) given: each other option on item 3 stays (without
    # item 3) when it says a, and goes when it says b; item 2's part
    # makes the root fall apart, so count(memo=True) takes the driver too.
    case = _given_case(colors)
    expected = reference(case, [0])
    assert expected == 2 * (1 + colors.count("a"))
    _driver_with_givens(case, [0])
    p = build(case)
    assert p.count(memo=True, given=[0]) == expected
    assert isinstance(p.stats, PartsStats)


@pytest.mark.parametrize(
    "forced,solutions", [([0, 1], 2), ([0, 2], 0), ([0, 3], 0), ([1, 4], 0)]
)
def test_two_givens_on_one_item(forced, solutions):
    # Options 0 (0 3:a) and 1 (1 3:a) agree on item 3; option 2 (1 3:b)
    # does not, and option 3 (1 3) has no color: those two clash with
    # option 0.  Options 1 and 4 (1) clash on their primary item.
    case = _given_case(["a", "b", None])
    assert reference(case, forced) == solutions
    _driver_with_givens(case, forced)
    assert build(case).count(memo=True, given=forced) == solutions


# -- rooms, copies, givens that cut -------------------------------------------


@pytest.mark.parametrize(
    "k,n,room", [(2, 4, 36), (3, 4, 36), (2, 6, 6728), (3, 2, 2)]
)
def test_rooms_multiply(k, n, room):
    p = rooms(k, n)
    if n <= 4:  # a plain count of 6728**2 solutions takes seconds
        assert p.count() == room**k
    assert p.count(memo=True) == room**k
    s = p.stats
    assert isinstance(s, PartsStats) and s.complete
    # Every room alike is counted once: the others are repeats.
    assert s.repeats >= k - 1 and s.cuts >= k - 1


def test_rooms_past_two_to_the_64():
    p = rooms(8, 6)
    found = p.count(memo=True)
    assert type(found) is int and found == 6728**8 > 2**64


def test_odd_corridors_against_the_plain_count():
    # A corridor of odd length takes a cell of a room: no longer a plain
    # product, still a sum over the corridor's cut items.
    for corridor in (1, 3):
        p = rooms(2, 4, corridor=corridor)
        assert p.count(memo=True) == p.count()


def test_corridors_of_bounded_cells():
    # Three 4 x 4 rooms, each corridor cell of bounds 1..2: a corridor may
    # take both door cells of the middle room (6 tilings of what is left,
    # against 36), by two dominoes or three.  Transfer: 36 * (36 * 36 +
    # 36 * 6) = 54,432, the plain search's count.
    doors = ["24", "25", "2a", "2b"]  # (row 2, columns 4, 5, 10, 11)
    p = rooms(3, 4)
    q = ExactCover(p.primary, bounds=dict.fromkeys(doors, (1, 2)))
    q.add_options(p.options)
    assert q.count(memo=True) == 54432
    assert isinstance(q.stats, PartsStats) and q.stats.cuts >= 2
    assert q.count() == 54432


def test_rooms_are_numbered_across_the_floor():
    # Two 2 x 2 rooms and a corridor of one cell on row 1, in reading
    # order.
    p = rooms(2, 2, corridor=1)
    assert p.primary == ("00", "01", "03", "04", "10", "11", "12", "13", "14")


def test_a_given_that_cuts_the_board():
    # Vertical dominoes down column 2 of a 6 x 5 board leave a 6 x 2 and
    # a 6 x 2 board either side.
    p = tiling("6x5")
    down = [
        k
        for k, option in enumerate(p.options)
        if sorted(option) in (["02", "12"], ["22", "32"], ["42", "52"])
    ]
    assert len(down) == 3
    expected = domino_tilings(6, 2) ** 2
    assert p.count(given=down) == expected
    assert p.count(memo=True, given=down) == expected
    assert isinstance(p.stats, PartsStats) and p.stats.splits >= 1


def copies(problem, n):
    """``n`` copies of ``problem`` (primary items only, with their
    bounds), their items interleaved: copy c's are c, n + c, 2n + c, ..."""
    s = problem.structure()
    assert s.nitems == s.nprimary
    sizes = np.tile(s.sizes, n)
    members = np.concatenate([(s.members - 1) * n + c for c in range(n)])
    bounds = {
        (item - 1) * n + c: uv
        for item, uv in s.bounds.items()
        for c in range(n)
    }
    return ExactCover.from_arrays(
        np.concatenate([[0], np.cumsum(sizes)]),
        members,
        n * s.nitems,
        bounds=bounds,
    )


def side_by_side(*problems):
    """The disjoint union of ``problems`` (primary items only, with their
    bounds), each one's items after the last one's."""
    union = ExactCover(
        [(j, x) for j, p in enumerate(problems) for x in p.primary],
        bounds={
            (j, x): uv
            for j, p in enumerate(problems)
            for x, uv in p.bounds.items()
        },
    )
    for j, p in enumerate(problems):
        union.add_options([[(j, x) for x in o] for o in p.options])
    return union


@pytest.mark.parametrize(
    "make,each,n",
    [
        (lambda: tiling("4x4"), 36, 5),
        (lambda: rooks(4, 2), 90, 3),
        (lambda: rooks(3, 3), 1, 4),
        (lambda: rooks(5, 2), 2040, 6),  # past 2**64
    ],
)
def test_copies_of_a_problem_are_counted_once(make, each, n):
    p = copies(make(), n)
    assert p.count(memo=True) == each**n
    assert isinstance(p.stats, PartsStats)
    assert p.stats.parts == 1 and p.stats.repeats == n - 1


def test_rooks_on_disjoint_boards_multiply():
    # 2 rooks in every row and column of a 4 x 4, a 5 x 5 and a 4 x 4
    # board (OEIS A001499: 90, 2040); the two 4 x 4 boards are one shape.
    p = side_by_side(rooks(4, 2), rooks(5, 2), rooks(4, 2))
    assert p.count(memo=True) == 90 * 2040 * 90
    assert p.stats.parts == 2 and p.stats.repeats == 1
    # A rook given on the first board uses one of the slack of its row and
    # its column: each square holds a rook in 2/4 of that board's
    # solutions.
    rook = p.options.index(((0, "r0"), (0, "c0")))
    assert p.count(memo=True, given=[rook]) == 45 * 2040 * 90
    assert isinstance(p.stats, PartsStats) and p.stats.parts == 3


# -- connected problems: the memo as before -----------------------------------


def test_connected_problems_go_to_the_memo_as_a_whole():
    for p in (tiling("6x6"), tiling("4x7", "trominoes")):
        assert parts.falls_apart(p, []) is None
        p.count(memo=True)
        assert type(p.stats) is MemoStats


def test_bounds_are_counted_by_parts():
    # Three parts no option joins: A (1..2, two options: 3 ways), B, C.
    bounded = ExactCover(["A", "B", "C"], bounds={"A": (1, 2)})
    bounded.add_options([["A"], ["A"], ["B"], ["C"]])
    assert bounded.count(memo=True) == 3
    assert isinstance(bounded.stats, PartsStats)
    assert bounded.count() == 3


# -- budgets and Ctrl-C -----------------------------------------------------------


# Problems counted by parts, without bounds and with them: three 6x6
# rooms, three copies of 2 rooks in every row and column of a 6x6 board.
BUDGETED = [
    pytest.param(lambda: rooms(3, 6), 6728**3, id="rooms"),
    pytest.param(lambda: copies(rooks(6, 2), 3), 67950**3, id="rooks"),
]


@pytest.mark.parametrize("make,count", BUDGETED)
def test_a_node_budget_stops_a_count_by_parts(make, count):
    p = make()
    with pytest.raises(BudgetExhausted, match="max_nodes=40") as stop:
        p.count(memo=True, max_nodes=40)
    s = stop.value.stats
    assert isinstance(s, PartsStats) and not s.complete
    assert s.nodes <= 40 and 0 <= stop.value.count <= count
    assert p.count(memo=True, max_nodes=10**6) == count


def test_a_stopped_product_counts_what_its_known_factors_multiply():
    # Three parts: one item of three options, one of five, and a 4x4
    # board of dominoes (36 tilings): 540 in all.  Stopped at any budget,
    # the partial count is 0 while a factor before the last is unknown,
    # else the known factors times what the last had found: a multiple of
    # 15 or of the last's other factors, never more than 540, and never
    # less as the budget grows.
    p = ExactCover(
        ["x", "y"] + [f"{r}{c}" for r in range(4) for c in range(4)]
    )
    p.add_options([["x"]] * 3 + [["y"]] * 5)
    for r in range(4):
        for c in range(4):
            if c < 3:
                p.add_option([f"{r}{c}", f"{r}{c + 1}"])
            if r < 3:
                p.add_option([f"{r}{c}", f"{r + 1}{c}"])
    assert p.count(memo=True) == 540
    assert isinstance(p.stats, PartsStats)
    whole = p.stats.nodes
    seen = []
    for budget in range(1, whole):
        try:
            found = p.count(memo=True, max_nodes=budget)
        except BudgetExhausted as stop:
            found = stop.count
        seen.append(found)
    assert seen == sorted(seen) and seen[-1] <= 540
    assert all(n == 0 or n % 3 == 0 or n % 5 == 0 or n % 36 == 0 for n in seen)
    assert any(0 < n < 540 for n in seen)


@pytest.mark.parametrize("make,count", BUDGETED)
def test_a_time_limit_and_a_stop_event_stop_it(make, count):
    p = make()
    with pytest.raises(BudgetExhausted, match="time_limit"):
        p.count(memo=True, time_limit=0)
    stop = threading.Event()
    stop.set()
    with pytest.raises(BudgetExhausted, match="stop event"):
        p.count(memo=True, stop=stop)
    # Neither stops a count that ends in time.
    assert p.count(memo=True, time_limit=600, stop=threading.Event()) == count
    assert isinstance(p.stats, PartsStats) and p.stats.complete


@pytest.mark.parametrize(
    "make", [lambda: rooms(3, 4), lambda: copies(rooks(4, 2), 3)]
)
def test_ctrl_c_stops_a_count_by_parts(monkeypatch, make):
    record = memo_engine.MemoRun.record

    def interrupt(run, stats):
        record(run, stats)
        raise KeyboardInterrupt

    monkeypatch.setattr(memo_engine.MemoRun, "record", interrupt)
    p = make()
    with pytest.raises(Interrupted) as stop:
        p.count(memo=True)
    assert isinstance(stop.value.stats, PartsStats)
    assert stop.value.count == stop.value.stats.solutions
    assert not stop.value.stats.complete


def test_ctrl_c_between_parts(monkeypatch):
    # Ctrl-C in the driver's own work (looking for a cut item, here), not
    # in a memo count: Interrupted with what was found, nothing yet.
    def interrupt(*args):
        raise KeyboardInterrupt

    p = rooms(3, 4)
    parts.falls_apart(p, [])  # (the root check, kept with the problem)
    monkeypatch.setattr(parts, "_cut_item", interrupt)
    with pytest.raises(Interrupted) as stop:
        p.count(memo=True)
    assert stop.value.count == 0 == stop.value.stats.solutions
    assert not stop.value.stats.complete


def test_memo_auto_counts_each_part_its_own_way():
    p = rooms(2, 4)
    assert p.count(memo="auto") == 36**2
    assert "components" in str(p.stats)


# -- the builder ------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs,error,message",
    [
        (dict(k=0), ValueError, "k must be at least 1"),
        (dict(n=0), ValueError, "n must be at least 1"),
        (dict(corridor=0), ValueError, "corridor must be at least 1"),
        (dict(k="2"), TypeError, "k must be an integer"),
        (dict(k=10**6), ValueError, "more than 1000000 cells"),
    ],
)
def test_rooms_checks_its_arguments(kwargs, error, message):
    with pytest.raises(error, match=message):
        rooms(**kwargs)


# -- the kernels ---------------------------------------------------------------


def _pieces_of_graph(nitems, options, without):
    """Connected pieces of the items-options graph without item
    ``without``, by a plain search (items in no option left out)."""
    nodes = {("i", x) for o in options for x in o if x != without}
    nodes |= {("o", k) for k, o in enumerate(options) if o}
    edges = {n: set() for n in nodes}
    for k, o in enumerate(options):
        for x in o:
            if x != without:
                edges[("o", k)].add(("i", x))
                edges[("i", x)].add(("o", k))
    seen, pieces_ = set(), 0
    for n in nodes:
        if n not in seen:
            pieces_ += 1
            todo = [n]
            while todo:
                m = todo.pop()
                if m not in seen:
                    seen.add(m)
                    todo.extend(edges[m])
    return pieces_


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 7).flatmap(
        lambda n: st.tuples(
            st.just(n),
            st.lists(
                st.sets(st.integers(0, n - 1), min_size=1, max_size=3).map(
                    sorted
                ),
                min_size=1,
                max_size=8,
            ),
        )
    )
)
def test_articulation_items_are_tarjans(case):
    nitems, options = case
    indptr = np.concatenate([[0], np.cumsum([len(o) for o in options])])
    indices = np.array([x for o in options for x in o], np.int64)
    out = np.empty(nitems, np.bool_)
    K.articulation_items(indptr.astype(np.int64), indices, nitems, out)
    before = _pieces_of_graph(nitems, options, None)
    for x in range(nitems):
        if any(x in o for o in options):
            # Tarjan's sense: x is a node of the graph like any other (the
            # exact test of find_cut judges the candidates).
            after = _pieces_of_graph(nitems, options, x)
            assert bool(out[x]) == (after > before), (x, options)
        else:
            assert not out[x]


def _item_pieces(options):
    """Connected pieces of the items the options hold, by a plain search."""
    items = {x for o in options for x in o}
    seen, count = set(), 0
    for start in items:
        if start not in seen:
            count += 1
            todo = [start]
            while todo:
                x = todo.pop()
                if x not in seen:
                    seen.add(x)
                    todo.extend(y for o in options if x in o for y in o)
    return count


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 7).flatmap(
        lambda n: st.tuples(
            st.just(n),
            st.lists(
                st.sets(st.integers(0, n - 1), min_size=1, max_size=3).map(
                    sorted
                ),
                min_size=1,
                max_size=8,
            ),
        )
    )
)
def test_find_cut_and_components_against_a_plain_search(case):
    nitems, options = case
    indptr = np.concatenate([[0], np.cumsum([len(o) for o in options])])
    indptr = indptr.astype(np.int64)
    indices = np.array([x for o in options for x in o], np.int64)
    labels = np.empty(nitems, np.int64)
    assert K.label_components(
        indptr, indices, nitems, -1, labels
    ) == _item_pieces(options)
    for x in range(nitems):
        rest = [o for o in options if x not in o]
        cut = _item_pieces(rest) > 1
        found = K.find_cut(indptr, indices, nitems, np.array([x], np.int64))
        assert found == (x if cut else -1), (x, options)


def test_the_limits_shared_by_the_drivers():
    # parts.Limits: what the count by parts and the ZDD by parts check
    # between parts, and hand to each part's search.
    free = parts.Limits(None, None)
    assert free.why_stop(10**9) is None and free.left(7) == (None, None)
    some = parts.Limits(10, 60.0)
    assert some.why_stop(9) is None
    assert some.why_stop(10) == "search stopped after max_nodes=10 nodes"
    nodes, seconds = some.left(4)
    assert nodes == 6 and 0 < seconds <= 60 and some.left(12)[0] == 0
    assert parts.Limits(None, 0).why_stop(0) == (
        "search stopped at time_limit=0 s"
    )
    stop = threading.Event()
    stop.set()
    assert parts.Limits(10, 0, stop).why_stop(10) == (
        "search stopped by its stop event"
    )
