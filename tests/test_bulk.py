"""The compact model and the bulk ways in (issue 30): ``from_arrays``,
``from_matrix`` on dense and scipy.sparse matrices, ``add_options`` and
``dlx.loads`` build the same problem; the engines' arrays built from the
compressed rows are those of their definitions; bad arrays get one
ValueError naming the first offending option."""

import pickle
import re

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import dlx
from dlx import ExactCover, compact, formats
from dlx.engines import dlx1 as L
from dlx.engines.dlx1 import Links
from dlx.engines.ssmcc import McCells
from dlx.engines.ssxc1 import Cells

from reference import dlx1_arrays, exact_covers, generalized_covers, ssxc1_sets


@st.composite
def problems(draw, empty_options=False, max_options=9):
    """``(nprimary, nsecondary, options)``: options are lists of distinct
    item numbers from 0, in any order (some may have no primary item;
    with ``empty_options``, some may have no item)."""
    nprimary = draw(st.integers(0, 5))
    nsecondary = draw(st.integers(0, 3))
    n = nprimary + nsecondary
    if n == 0:
        options = (
            [[] for _ in range(draw(st.integers(0, 2)))]
            if empty_options
            else []
        )
        return nprimary, nsecondary, options
    options = draw(
        st.lists(
            st.lists(
                st.integers(0, n - 1),
                unique=True,
                min_size=0 if empty_options else 1,
                max_size=n,
            ),
            max_size=max_options,
        )
    )
    return nprimary, nsecondary, options


def csr(options):
    indptr = np.zeros(len(options) + 1, np.int64)
    np.cumsum([len(o) for o in options], out=indptr[1:])
    return indptr, np.array([k for o in options for k in o], np.int64)


def listed(nprimary, nsecondary, options):
    p = ExactCover(range(nprimary), range(nprimary, nprimary + nsecondary))
    p.add_options(options)
    return p


def dense(nprimary, nsecondary, options):
    a = np.zeros((len(options), nprimary + nsecondary), np.int8)
    for r, option in enumerate(options):
        a[r, option] = 1
    return a


def same_problem(p, q):
    s, t = p.structure(), q.structure()
    assert (s.nitems, s.nprimary, s.bounds) == (t.nitems, t.nprimary, t.bounds)
    assert s.members.dtype == t.members.dtype == np.int64
    assert s.sizes.dtype == t.sizes.dtype == np.int64
    assert np.array_equal(s.members, t.members)
    assert np.array_equal(s.sizes, t.sizes)
    assert (s.colors is None) == (t.colors is None)
    if s.colors is not None:
        assert np.array_equal(s.colors, t.colors)
    a, b = p.csr(), q.csr()
    assert a.indices.dtype == b.indices.dtype
    assert np.array_equal(a.indptr, b.indptr)
    assert np.array_equal(a.indices, b.indices)
    assert p.items == q.items and p.primary == q.primary
    assert p.options == q.options and len(p) == len(q)
    assert p.kind == q.kind


# -- every way in builds the same problem --------------------------------


@settings(max_examples=150, deadline=None)
@given(problems())
def test_from_arrays_and_add_options_build_the_same_problem(problem):
    nprimary, nsecondary, options = problem
    p = listed(*problem)
    q = ExactCover.from_arrays(*csr(options), nprimary, nsecondary)
    same_problem(p, q)
    expected = exact_covers(options, nprimary, nprimary + nsecondary)
    for algorithm in ("links", "cells"):
        assert (
            sorted(tuple(s) for s in q.solutions(algorithm=algorithm))
            == expected
        )
        assert q.count(algorithm=algorithm) == len(expected)


scipy = None
try:  # scipy is an optional extra
    import scipy.sparse as scipy
except ImportError:  # pragma: no cover
    pass

MATRICES = ["dense", "list"] + (["csr", "csc", "coo"] if scipy else [])


def matrix_of(kind, a):
    if kind == "dense":
        return a
    if kind == "list":  # (no rows: [] is not 2-dimensional)
        return a.tolist() if len(a) else a
    return {
        "csr": scipy.csr_matrix,
        "csc": scipy.csc_matrix,
        "coo": scipy.coo_matrix,
    }[kind](a)


@pytest.mark.parametrize("kind", MATRICES)
@settings(max_examples=60, deadline=None)
@given(problem=problems())
def test_from_matrix_builds_the_problem_of_its_rows(kind, problem):
    nprimary, nsecondary, options = problem
    options = [sorted(o) for o in options]  # a row lists its columns so
    a = dense(nprimary, nsecondary, options)
    p = ExactCover.from_matrix(matrix_of(kind, a), secondary=nsecondary)
    same_problem(listed(nprimary, nsecondary, options), p)
    assert np.array_equal(p.to_matrix(), a)
    assert sorted(tuple(s) for s in p.solutions()) == exact_covers(
        options, nprimary, nprimary + nsecondary
    )


@pytest.mark.skipif(scipy is None, reason="scipy is not installed")
def test_a_sparse_matrix_is_read_as_scipy_holds_it_and_left_as_it_was():
    # COO entries are summed (a repeated 1 is a 2), explicit zeros are
    # no entries, and a CSR matrix's unsorted rows come out sorted.
    coo = scipy.coo_matrix(([1, 1, 0], ([0, 1, 1], [1, 0, 1])), (2, 2))
    p = ExactCover.from_matrix(coo)
    assert p.options == ((1,), (0,))
    twice = scipy.coo_matrix(([1, 1], ([0, 0], [1, 1])), (1, 2))
    with pytest.raises(ValueError, match=r"entry \[0, 1\] is 2"):
        ExactCover.from_matrix(twice)
    m = scipy.csr_matrix(
        (np.array([1, 1, 0], np.int8), [2, 0, 1], [0, 3]), (1, 3)
    )
    before = (m.indices.copy(), m.data.copy())
    assert ExactCover.from_matrix(m).options == ((0, 2),)
    assert np.array_equal(m.indices, before[0])
    assert np.array_equal(m.data, before[1])
    with pytest.raises(ValueError, match=r"entry \[0, 2\] is 0.5"):
        ExactCover.from_matrix(scipy.csr_matrix([[1, 0, 0.5]]))
    with pytest.raises(ValueError, match="secondary=4"):
        ExactCover.from_matrix(scipy.csr_matrix([[1, 0, 1]]), secondary=4)


@settings(max_examples=100, deadline=None)
@given(problems(), st.data())
def test_colors_from_arrays_are_those_of_add_option(problem, data):
    nprimary, nsecondary, options = problem
    colors = [
        [data.draw(st.integers(0, 3)) if k >= nprimary else 0 for k in option]
        for option in options
    ]
    p = ExactCover(range(nprimary), range(nprimary, nprimary + nsecondary))
    for option, painted in zip(options, colors):
        p.add_option(
            option, {k: c for k, c in zip(option, painted) if c} or None
        )
    flat = np.array([c for painted in colors for c in painted], np.int64)
    q = ExactCover.from_arrays(
        *csr(options), nprimary, nsecondary, colors=flat
    )
    same_problem(p, q)
    for k in range(len(options)):
        assert p.option_colors(k) == q.option_colors(k)
        assert p.option_line(k) == q.option_line(k)
    expected = generalized_covers(
        options,
        nprimary,
        nprimary + nsecondary,
        colors=[
            {k: c for k, c in zip(o, painted) if c}
            for o, painted in zip(options, colors)
        ],
    )
    for algorithm in ("links", "cells"):
        assert (
            sorted(tuple(s) for s in q.solutions(algorithm=algorithm))
            == expected
        )


def test_names_bounds_and_more_arrays():
    p = ExactCover.from_arrays(
        [0, 2, 3, 4],
        [0, 2, 1, 1],
        2,
        1,
        names=["a", "b", "x"],
        bounds={"b": 2},
    )
    assert p.items == ("a", "b", "x") and p.bounds == {"b": (2, 2)}
    assert p.options == (("a", "x"), ("b",), ("b",))
    assert list(p.solutions()) == [[0, 1, 2]]
    assert p.add_arrays([0, 1], [0]) == range(3, 4)
    assert p.add_option(["a", "b"]) == 4
    assert sorted(p.solutions()) == [[0, 1, 2], [1, 2, 3], [1, 4], [2, 4]]


def test_an_option_without_a_primary_item_is_kept_and_can_be_given():
    # Items a | x; options "x" (no primary item), "a", "a x".
    p = ExactCover.from_arrays([0, 1, 2, 4], [1, 0, 0, 1], 1, 1)
    q = listed(1, 1, [[1], [0], [0, 1]])
    same_problem(p, q)
    for r in (p, q):
        assert sorted(r.solutions()) == [[1], [2]]
        assert list(r.solutions(given=[0])) == [[0, 1]]
    empty = ExactCover.from_arrays([0, 0, 1], [0], 1)
    assert empty.options == ((), (0,)) and empty.solve() == [1]
    with pytest.raises(ValueError, match="given option 0 is empty"):
        empty.solve(given=[0])


# -- bad arrays: one ValueError naming the first offending option ----------


@pytest.mark.parametrize(
    "indptr, indices, message",
    [
        ([], [], "indptr is empty"),
        ([1, 2], [0, 1], "indptr must start at 0, got 1"),
        (
            [0, 2, 1, 3],
            [0, 1, 2],
            r"option 1: indptr\[2\] = 1 is less than "
            r"indptr\[1\] = 2",
        ),
        ([0, 2], [0, 1, 2], "indptr ends at 2 but indices has 3 entries"),
        (
            [0, 1, 2, 3],
            [0, 4, 9],
            "option 1: item 4 is out of range "
            r"\(the items are numbered 0 to 3\)",
        ),
        ([0, 1, 2], [0, -1], "option 1: item -1 is out of range"),
        ([0, 2, 4, 6], [0, 1, 2, 2, 3, 3], "option 1: item 2 appears twice"),
        ([0, 2, 5], [3, 1, 1, 0, 1], "option 1: item 1 appears twice"),
        ([[0, 1]], [0], "indptr must be 1-dimensional"),
        ([0, 1], [[0]], "indices must be 1-dimensional"),
    ],
)
def test_bad_arrays_name_the_first_offending_option(indptr, indices, message):
    with pytest.raises(ValueError, match=message):
        ExactCover.from_arrays(indptr, indices, 3, 1)
    p = ExactCover(range(3), [3])
    p.add_option([0])
    # Options are named by their numbers in the problem: option 0 is
    # there already, so the arrays' first option is option 1.
    shifted = re.sub(
        r"option (\d+)", lambda m: f"option {int(m[1]) + 1}", message
    )
    with pytest.raises(ValueError, match=shifted):
        p.add_arrays(indptr, indices)
    assert p.options == ((0,),) and p.count() == 0  # all or nothing


def test_added_arrays_name_options_as_the_problem_numbers_them():
    p = ExactCover(range(4), ["x"])
    p.add_options([[0], [1], [2]])
    with pytest.raises(ValueError, match="option 3: item 5 is out of range"):
        p.add_arrays([0, 1], [5])
    with pytest.raises(ValueError, match="option 4: item 1 appears twice"):
        p.add_arrays([0, 1, 3], [0, 1, 1])
    with pytest.raises(ValueError, match="option 4: color 2 for primary"):
        p.add_arrays([0, 1, 3], [4, 4, 0], colors=[1, 0, 2])
    with pytest.raises(ValueError, match="option 3: color -1 for item 4"):
        p.add_arrays([0, 1], [4], colors=[-1])
    with pytest.raises(ValueError, match=r"option 4: indptr\[2\] = 0"):
        p.add_arrays([0, 1, 0], [0])
    assert p.add_arrays([0, 2], [3, 4], colors=[0, 7]) == range(3, 4)


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        (
            dict(indptr=[0.0, 1.0]),
            TypeError,
            "indptr must be an array of integers, got float64",
        ),
        (
            dict(indices=["a"]),
            TypeError,
            "indices must be an array of integers",
        ),
        (dict(n_primary=-1), ValueError, "n_primary must be >= 0"),
        (dict(n_secondary=1.5), TypeError, "n_secondary must be an integer"),
        (dict(names=["a"]), ValueError, "names has 1 entries for 2 \\+ 1"),
        (dict(names=["a", "a", "b"]), ValueError, "item 'a' is named twice"),
        (dict(names=[[], "a", "b"]), ValueError, "not hashable"),
        (
            dict(colors=[0]),
            ValueError,
            "colors has 1 entries but indices has 2",
        ),
        (
            dict(colors=[0.0, 1.0]),
            TypeError,
            "colors must be an array of integers",
        ),
        (
            dict(colors=[1, 0]),
            ValueError,
            "option 0: color 1 for primary item 0; only secondary items take",
        ),
        (
            dict(colors=[0, -2]),
            ValueError,
            "option 1: color -2 for item 2 is negative",
        ),
        (dict(bounds={"z": 2}), ValueError, "bounds for 'z': no such item"),
    ],
)
def test_bad_arguments_of_from_arrays(kwargs, error, message):
    args = dict(indptr=[0, 1, 2], indices=[0, 2], n_primary=2, n_secondary=1)
    args.update(kwargs)
    with pytest.raises(error, match=message):
        ExactCover.from_arrays(**args)


def test_the_first_offending_option_is_named_whatever_comes_after():
    indptr = np.arange(0, 3 * 1000 + 1, 3)
    indices = np.tile([0, 1, 2], 1000)
    indices[3 * 700 + 2] = 1  # option 700 repeats item 1
    indices[3 * 900] = 7  # option 900 is out of range
    with pytest.raises(ValueError, match="option 900: item 7"):
        ExactCover.from_arrays(indptr, indices, 3)
    indices[3 * 900] = 0
    with pytest.raises(ValueError, match="option 700: item 1 appears"):
        ExactCover.from_arrays(indptr, indices, 3)


# -- the model's arrays ----------------------------------------------------


@pytest.mark.parametrize(
    "nitems, dtype",
    [
        (0, np.uint8),
        (256, np.uint8),
        (257, np.uint16),
        (65536, np.uint16),
        (65537, np.int32),
    ],
)
def test_item_numbers_take_the_smallest_type(nitems, dtype):
    assert compact.item_dtype(nitems) == dtype
    p = ExactCover(range(nitems))
    assert p.csr().indices.dtype == dtype and p.csr().indptr.dtype == np.int32


def test_the_arrays_are_read_only_views_and_grow_in_chunks(monkeypatch):
    monkeypatch.setattr(compact, "PENDING", 5)
    p = ExactCover(range(4))
    for k in range(40):
        p.add_option([k % 4, (k + 1) % 4] if k % 3 else [k % 4])
    c = p.csr()
    assert len(c.indptr) == 41 and c.indptr[-1] == len(c.indices)
    with pytest.raises(ValueError):
        c.indices[0] = 3
    assert p.options[39] == (3,) and p.options[-2] == (2, 3)
    q = pickle.loads(pickle.dumps(p))
    same_problem(p, q)
    assert q.count() == p.count()


def test_indptr_widens_past_int32(monkeypatch):
    monkeypatch.setattr(compact, "INT32_MAX", 3)
    p = ExactCover.from_arrays([0, 2, 4], [0, 1, 2, 3], 4)
    assert p.csr().indptr.dtype == np.int64
    q = ExactCover(range(4))
    q.add_options([[0, 1], [2]])
    assert q.csr().indptr.dtype == np.int32
    q.add_options([[3], [2, 3], [0], [1]])
    assert q.csr().indptr.dtype == np.int64
    assert q.count() == 4 and q.count(algorithm="cells") == 4


def test_options_view_behaves_as_the_tuple_it_replaces(monkeypatch):
    monkeypatch.setattr(compact, "VIEW_CHUNK", 3)
    p = ExactCover("abcd")
    p.add_options(
        [["a"], ["b", "c"], ["d"], ["a", "b"], ["c", "d"], ["b"], ["c"]]
    )
    v = p.options
    expected = (
        ("a",),
        ("b", "c"),
        ("d",),
        ("a", "b"),
        ("c", "d"),
        ("b",),
        ("c",),
    )
    assert v == expected and expected == v and v != expected[:-1]
    assert tuple(v) == expected and list(v) == list(expected)
    assert v[1:6:2] == (("b", "c"), ("a", "b"), ("b",))
    assert v[-1] == ("c",) and len(v) == 7 and ("d",) in v
    assert v.index(("d",)) == 2 and repr(v) == repr(expected)
    for bad in (7, -8):
        with pytest.raises(IndexError):
            v[bad]
    with pytest.raises(TypeError):
        v["a"]
    assert v != [("a",)] and v is p.options
    p.add_option(["a", "b", "c", "d"])
    assert p.options[7] == ("a", "b", "c", "d") and len(v) == 7
    big = ExactCover.from_arrays(np.arange(31), np.arange(30) % 3, 3)
    assert repr(big.options) == "((0,), (1,), (2,), ... 27 more options)"


# -- the engines' arrays are those of their definitions ------------------


@settings(max_examples=150, deadline=None)
@given(problems(empty_options=True))
def test_dancing_links_arrays_are_those_of_the_definition(problem):
    nprimary, nsecondary, options = problem
    n = nprimary + nsecondary
    p = ExactCover.from_arrays(*csr(options), nprimary, nsecondary)
    links = Links.from_csr(p.csr())
    one_based = [[k + 1 for k in o] for o in options]
    top, ulink, dlink, length = dlx1_arrays(n, nprimary, one_based)
    assert links.top.tolist() == top
    assert links.ulink.tolist() == ulink and links.dlink.tolist() == dlink
    assert links.length.tolist() == length
    s = p.structure()
    old = Links(s.nitems, s.nprimary, s.members, s.sizes)
    for a, b in zip(old.copy_arrays(), links.copy_arrays()):
        assert np.array_equal(a, b)
    nodes = np.arange(len(top))
    owner = np.full(len(top), -1)
    for j, start in enumerate(links.option_start):
        owner[start : start + len(options[j])] = j
    assert links.option_of[nodes].tolist() == owner.tolist()
    assert [links.option_of[int(q)] for q in nodes] == owner.tolist()


@settings(max_examples=60, deadline=None)
@given(problems(empty_options=True))
def test_big_links_build_each_runs_arrays_as_a_copy_would(problem):
    nprimary, nsecondary, options = problem
    p = ExactCover.from_arrays(*csr(options), nprimary, nsecondary)
    kept = Links.from_csr(p.csr())
    lean = Links.from_csr(p.csr())
    assert lean.rows is None  # small: a pristine set is kept
    nodes = np.arange(len(kept.top))
    L.KEEP_NODES, keep = -1, L.KEEP_NODES
    try:
        lean = Links.from_csr(p.csr())
        searched = lean.option_of[nodes]  # a binary search, no table
        assert lean.option_of.table is None
    finally:
        L.KEEP_NODES = keep
    assert np.array_equal(searched, kept.option_of[nodes])
    assert lean.ulink is None and lean.dlink is None
    for a, b in zip(kept.copy_arrays(), lean.copy_arrays()):
        assert np.array_equal(a, b)


def test_a_big_problem_searches_alike_without_spare_links(monkeypatch):
    from dlx.problems.queens import queens

    p = queens(8)
    counts = [
        p.count(algorithm="links"),
        p.stats.nodes,
        p.stats.updates,
        p.count(threads=2),
        p.solve(),
        p.estimate(probes=50).nodes,
    ]
    monkeypatch.setattr(L, "KEEP_NODES", 0)
    q = queens(8)
    assert [
        q.count(algorithm="links"),
        q.stats.nodes,
        q.stats.updates,
        q.count(threads=2),
        q.solve(),
        q.estimate(probes=50).nodes,
    ] == counts


@settings(max_examples=150, deadline=None)
@given(problems(empty_options=True))
def test_dancing_cells_sets_are_those_of_the_definition(problem):
    nprimary, nsecondary, options = problem
    n = nprimary + nsecondary
    p = ExactCover.from_arrays(*csr(options), nprimary, nsecondary)
    cells = Cells.from_csr(p.csr())
    one_based = [[k + 1 for k in o] for o in options]
    x, set_, itm, loc = ssxc1_sets(n, nprimary, one_based)
    assert cells.item.tolist() == x and cells.set.tolist() == set_
    assert cells.itm.tolist() == itm and cells.loc.tolist() == loc
    s = p.structure()
    old = McCells(s.nitems, s.nprimary, s.members, s.sizes)
    new = McCells.from_csr(p.csr())
    for a, b in zip(old.copy_arrays(), new.copy_arrays()):
        assert np.array_equal(a, b)


def test_dlx1_arrays_are_those_of_the_kernels_docstring():
    p = ExactCover("abcde", "fg")
    p.add_options(["cef", "adg", "bcf", "ad", "bg", "deg"])
    links = Links.from_csr(p.csr())
    rows = {}
    for line in L.K.__doc__.split("::")[1].split("\n\n")[1:4]:
        for row in line.strip().splitlines():
            name, *values = row.split("(")[0].replace("|", " ").split()
            rows.setdefault(name, []).extend(int(v) for v in values)
    assert links.llink.tolist() == rows["llink"]
    assert links.rlink.tolist() == rows["rlink"]
    assert links.length.tolist() == rows["length"]
    for name in ("top", "ulink", "dlink"):
        assert getattr(links, name).tolist() == rows[name], name


# -- Knuth's format: the fast path reads what the full parser reads --------

NAMES = st.text(
    st.characters(
        min_codepoint=33, max_codepoint=126, blacklist_characters="|:"
    ),
    min_size=1,
    max_size=3,
).filter(lambda name: not name.startswith("//"))  # a comment


def slow_loads(text, **kwargs):
    """``loads`` without its fast path."""
    fast = formats._loads_plain
    formats._loads_plain = lambda *args: None
    try:
        return formats.loads(text, **kwargs)
    finally:
        formats._loads_plain = fast


@settings(max_examples=150, deadline=None)
@given(problems(), st.data())
def test_the_fast_reader_reads_what_the_full_parser_reads(problem, data):
    nprimary, nsecondary, options = problem
    if not nprimary:
        return
    names = data.draw(
        st.lists(
            NAMES,
            unique=True,
            min_size=nprimary + nsecondary,
            max_size=nprimary + nsecondary,
        )
    )
    blank = st.sampled_from([" ", "\t", "  ", " \v", "\f ", "\r"])
    lines = ["| " + data.draw(st.sampled_from(["a: b|c", "", "x"]))]
    lines.append(
        " ".join(names[:nprimary])
        + (" | " + " ".join(names[nprimary:]) if nsecondary else "")
    )
    for option in options:
        lines.append(
            data.draw(blank).join(names[k] for k in option) + data.draw(blank)
        )
        if data.draw(st.booleans()):
            lines.append(
                data.draw(
                    st.sampled_from(
                        ["", "   ", "// a:b", "|x:y", "| ||", "\t// z"]
                    )
                )
            )
    text = data.draw(st.sampled_from(["\n", "\r\n"])).join(lines)
    if data.draw(st.booleans()):
        text = "\ufeff" + text
    block = data.draw(st.sampled_from([formats.BLOCK, 1, 7, 40]))
    formats.BLOCK, keep = block, formats.BLOCK
    try:
        fast = formats._loads_plain(text, None)
    finally:
        formats.BLOCK = keep
    slow = slow_loads(text, max_name_length=None)
    assert fast is not None
    same_problem(fast, slow)


@pytest.mark.parametrize(
    "text",
    [
        "A B | X\nA X:1\n",  # a color
        "A B\nA |5\n",  # a cost (issue 26's grammar)
        "A B\nA C\n",  # an unknown item
        "A B\nA A\n",  # an item twice
        "A B\nA B\x1c\n",  # a separator of str.split, not of the format
        "A B\nA \u00e9\n",  # not ASCII
        "A B\nA:B\n",
        "| only comments\n",
        "",
        "A A\nA\n",  # a bad item line
    ],
)
def test_the_fast_reader_leaves_unusual_text_to_the_full_parser(text):
    assert formats._loads_plain(text, 8) is None
    try:
        expected = slow_loads(text)
    except ValueError as error:
        with pytest.raises(ValueError) as raised:
            formats.loads(text)
        assert str(raised.value) == str(error)
    else:
        same_problem(formats.loads(text), expected)


def test_a_big_plain_file_is_read_in_blocks(tmp_path, monkeypatch):
    monkeypatch.setattr(formats, "BLOCK", 64)
    rng = np.random.default_rng(5)
    lines = ["| made by test_bulk", " ".join(f"i{k}" for k in range(30))]
    options = [
        rng.choice(30, rng.integers(1, 6), replace=False).tolist()
        for _ in range(500)
    ]
    lines += [" ".join(f"i{k}" for k in o) for o in options]
    path = tmp_path / "big.dlx"
    path.write_text("\n".join(lines) + "\n")
    p = dlx.load(path)
    q = ExactCover.from_arrays(
        *csr(options), 30, names=[f"i{k}" for k in range(30)]
    )
    same_problem(p, q)


# -- the page ---------------------------------------------------------------


def test_the_bulk_page_runs():
    import doctest
    from pathlib import Path

    if scipy is None:  # pragma: no cover - the page builds a sparse matrix
        pytest.skip("scipy is not installed")
    page = Path(__file__).resolve().parent.parent / "docs" / "bulk.md"
    failures, tried = doctest.testfile(
        str(page), module_relative=False, optionflags=doctest.ELLIPSIS
    )
    assert tried >= 10 and failures == 0
