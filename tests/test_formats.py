"""Knuth's DLX text format: reading, writing, errors, round trips."""

import io
import re
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from dlx import ExactCover
from dlx.formats import DLXFormatError, dump, dumps, load, loads
from dlx.problems import langford, polyomino, queens

DATA = Path(__file__).parent / "data"
SHARED = Path(__file__).resolve().parents[2] / "shared" / "data" / "exactcover"


def test_toy_file():
    problem = load(DATA / "toy.dlx")
    assert problem.primary == tuple("abcde")
    assert problem.secondary == ("f", "g")
    assert len(problem) == 6
    assert [problem.options[i] for i in problem.solve()] == [
        ("c", "e", "f"),
        ("a", "d"),
        ("b", "g"),
    ]
    assert problem.count() == 1


def test_crlf_blank_lines_and_comments():
    text = "| head\r\n\r\nA B | C\r\n  | indented comment\r\nA C\r\n\r\nB\r\n"
    problem = loads(text)
    assert problem.items == ("A", "B", "C")
    assert problem.options == (("A", "C"), ("B",))


def test_no_secondary_and_lone_bar():
    assert loads("A B\nA B\n").secondary == ()
    problem = loads("A B |\nA\nB\n")
    assert problem.secondary == () and problem.count() == 1


def test_file_objects_and_paths(tmp_path):
    problem = load(io.StringIO("x y | z\nx z\ny\n"))
    assert problem.count() == 1
    path = tmp_path / "p.dlx"
    dump(problem, path)
    assert load(str(path)).options == problem.options
    out = io.StringIO()
    dump(problem, out)
    assert out.getvalue() == "x y | z\nx z\ny\n"


@pytest.mark.parametrize(
    "text, line, message",
    [
        ("", None, "no item line"),
        ("| only a comment\n\n", None, "no item line"),
        ("A B\nA C\n", 2, "unknown item 'C'"),
        ("A A\n", 1, "listed twice"),
        ("A B | A\n", 1, "listed twice"),
        ("A B\nB A B\n", 2, "appears twice"),
        ("A | B | C\n", 1, "'|' twice"),
        ("| c\n| B\n", None, "no item line"),
        ("A:1 B\n", 1, "contains ':'"),
        ("A B\n\n\nA:red\n", 4, "primary item 'A' has color 'red'"),
        ("A | X\nA X:\n", 2, "empty color"),
        ("A | X\nA Y:1\n", 2, "unknown item 'Y'"),
        ("A | X\nA X:1 X:2\n", 2, "appears twice"),
        ("A B 2:1|C\n", 1, "bounds 2..1"),
        ("A B 0|C\n", 1, "bounds 0..0"),
        ("A B x:2|C\n", 1, "bad item 'x:2|C'"),
        ("A B 1:|C\n", 1, "bad item '1:|C'"),
        ("A | 2|X\n", 1, "only primary items take bounds"),
        ("A B|C\n", 1, "bad item 'B|C'"),
        ("A 2|B|C\n", 1, "contains '|'"),
        ("caf\u00e9\n", 1, "printable ASCII"),
        ("| x\nA B\n| y\nA\n\nB Q\n", 6, "unknown item 'Q'"),
    ],
)
def test_errors_name_the_line(text, line, message):
    with pytest.raises(DLXFormatError, match=re.escape(message)) as caught:
        loads(text)
    assert caught.value.line == line
    if line is not None:
        assert f"line {line}:" in str(caught.value)


def test_error_names_the_file(tmp_path):
    path = tmp_path / "bad.dlx"
    path.write_text("A B\nA\nC\n")
    with pytest.raises(DLXFormatError, match=r"bad\.dlx:3: unknown item"):
        load(path)


def test_byte_order_mark_is_dropped(tmp_path):
    problem = loads("\ufeffA B\nA\nB\n")
    assert problem.items == ("A", "B") and problem.count() == 1
    path = tmp_path / "bom.dlx"
    path.write_bytes("\ufeffA B\r\nA B\r\n".encode("utf-8"))
    assert load(path).options == (("A", "B"),)


@pytest.mark.parametrize(
    "separator", ["\x0c", "\x0b", "\x1c", "\x1d", "\x1e", "\x85", "\u2028"]
)
def test_lines_end_at_newline_only(separator):
    # Not a line break: the options stay one line each, numbers stay right.
    text = f"A B C\nA{separator}B\nQ\n"
    with pytest.raises(
        DLXFormatError,
        match="line 3: unknown item 'Q'"
        if separator in "\x0c\x0b"
        else "line 2:",
    ):
        loads(text)


def test_undecodable_file(tmp_path):
    path = tmp_path / "latin1.dlx"
    path.write_bytes(b"A B\ncaf\xe9\n")
    with pytest.raises(DLXFormatError, match="not a UTF-8 text file"):
        load(path)


def test_long_names_when_allowed():
    problem = loads(
        "alphabetical beta\nalphabetical beta\n", max_name_length=None
    )
    assert problem.count() == 1
    assert (
        loads(
            dumps(problem, max_name_length=None), max_name_length=None
        ).options
        == problem.options
    )


@pytest.mark.parametrize(
    "names", [["a b"], ["a|b"], ["a:b"], [""], ["ok", "toolongname"], [1, "1"]]
)
def test_unwritable_names(names):
    problem = ExactCover(names)
    with pytest.raises(ValueError):
        dumps(problem)


def test_dumps_comment_and_numbers():
    problem = ExactCover([0, 1], [2])
    problem.add_options([[0, 2], [1]])
    text = dumps(problem, comment="two items\nand one more")
    assert text == "| two items\n| and one more\n0 1 | 2\n0 2\n1\n"
    back = loads(text)
    assert back.items == ("0", "1", "2") and back.count() == 1


BUILT = {
    "queens 8": lambda: queens.queens(8),
    "queens 10": lambda: queens.queens(10),
    "langford 7": lambda: langford.langford(7),
    "langford 8 all": lambda: langford.langford(8, distinct=False),
    "pentomino 3x20": lambda: polyomino.polyomino("3x20"),
    "toy": lambda: load(DATA / "toy.dlx"),
}


@pytest.mark.parametrize("name", BUILT)
def test_round_trip_builders(name):
    problem = BUILT[name]()
    back = loads(dumps(problem))
    assert back.primary == problem.primary
    assert back.secondary == problem.secondary
    assert back.options == problem.options
    assert back.count() == problem.count()
    assert dumps(back) == dumps(problem)


names = st.text(alphabet="abcxyz0189_.-+*", min_size=1, max_size=8)


@st.composite
def problems(draw):
    items = draw(st.lists(names, min_size=1, max_size=8, unique=True))
    nprimary = draw(st.integers(1, len(items)))
    problem = ExactCover(items[:nprimary], items[nprimary:])
    options = draw(
        st.lists(
            st.lists(st.sampled_from(items), min_size=1, unique=True),
            max_size=12,
        )
    )
    problem.add_options(options)
    return problem


@settings(max_examples=60, deadline=None)
@given(problems())
def test_round_trip_random(problem):
    back = loads(dumps(problem))
    assert back.items == problem.items and back.options == problem.options
    assert sorted(back.solutions()) == sorted(problem.solutions())


# -- the shared instances ---------------------------------------------------
def shared_cases():
    """(file, expected count) from the table in the shared README."""
    readme = SHARED / "README.md"
    if not readme.exists():
        return [
            pytest.param(
                None,
                None,
                marks=pytest.mark.skip(reason=f"{SHARED} is absent"),
            )
        ]
    cases = []
    for line in readme.read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 5 or not cells[0].endswith(".dlx"):
            continue
        count = re.match(r"[\d,]+", cells[4])
        if not count:
            continue
        expected = int(count.group().replace(",", ""))
        for name in _expand(cells[0]):
            slow = expected > 1_000_000 or name == "pentomino-6x10.dlx"
            cases.append(
                pytest.param(
                    name,
                    expected,
                    id=name,
                    marks=[pytest.mark.slow] if slow else [],
                )
            )
    return cases


def _expand(name):
    """ "x-0001..0003.dlx" -> x-0001.dlx, x-0002.dlx, x-0003.dlx."""
    ranged = re.fullmatch(r"(.*?)(\d+)\.\.(\d+)\.dlx", name)
    if not ranged:
        return [name]
    prefix, lo, hi = ranged.groups()
    return [
        f"{prefix}{k:0{len(lo)}d}.dlx" for k in range(int(lo), int(hi) + 1)
    ]


def dlx1_figures():
    """{file: (solutions, nodes, updates)} as Knuth's DLX1 printed them."""
    figures = {}
    for line in (DATA / "dlx1" / "figures.tsv").read_text().splitlines():
        if line.startswith(("#", "file\t")):
            continue
        name, *numbers = line.split("\t")
        figures[name] = tuple(int(x) for x in numbers[:3])
    return figures


DLX1 = dlx1_figures()


def assert_same_search_as_dlx1(name, stats):
    """Same count, nodes and updates (``stats`` of a whole count): DLX1's
    search, step for step."""
    assert (stats.solutions, stats.nodes, stats.updates) == DLX1[name]


def test_dlx1_figures_cover_the_shared_files():
    assert len(DLX1) == 37 and "toy-knuth.dlx" in DLX1


@pytest.mark.parametrize(
    "name", sorted(p.name for p in (DATA / "dlx1").glob("*.dlx"))
)
def test_same_nodes_and_updates_as_dlx1(name):
    problem = load(DATA / "dlx1" / name)
    problem.count(algorithm="links")
    assert_same_search_as_dlx1(name, problem.stats)


@pytest.mark.parametrize("name, expected", shared_cases())
def test_shared_instance(name, expected):
    path = SHARED / name
    if not path.exists():
        pytest.skip(f"{path} is absent")
    problem = load(path)
    assert problem.count(algorithm="links") == expected
    assert_same_search_as_dlx1(name, problem.stats)
    back = loads(dumps(problem))
    assert back.options == problem.options


def test_shared_pentomino_file_is_our_problem():
    path = SHARED / "pentomino-6x10.dlx"
    if not path.exists():
        pytest.skip(f"{path} is absent")
    theirs = load(path)
    ours = polyomino.polyomino("6x10")
    assert theirs.items == ours.items
    assert sorted(theirs.options) == sorted(ours.options)


# -- DLX2 colors and DLX3 bounds ------------------------------------------------

DLX3_EXAMPLE = """| A simple example of color controls
A B 2:3|C | X Y
A B X:0 Y:0
A C X:1 Y:1
C X:0
B X:1
C Y:1
"""


def test_colors_and_bounds_are_read():
    problem = loads(DLX3_EXAMPLE)
    assert problem.primary == ("A", "B", "C")
    assert problem.bounds == {"C": (2, 3)}
    assert problem.options[1] == ("A", "C", "X", "Y")
    assert problem.option_colors(1) == {"X": "1", "Y": "1"}
    assert problem.option_colors(2) == {"X": "0"}


def test_colors_and_bounds_round_trip():
    problem = loads(DLX3_EXAMPLE)
    text = dumps(problem)
    assert text == DLX3_EXAMPLE.split("\n", 1)[1]
    back = loads(text)
    assert back.bounds == problem.bounds
    assert [back.option_colors(k) for k in range(len(back))] == [
        problem.option_colors(k) for k in range(len(problem))
    ]
    assert loads("3|A B\nA\nB\n").bounds == {"A": (3, 3)}
    assert dumps(loads("3|A B\nA\nB\n")).startswith("3|A B\n")


def test_long_names_and_colors_are_read_and_written_when_allowed():
    problem = loads(
        "cell | colour\ncell colour:turquoise\n", max_name_length=None
    )
    assert problem.option_colors(0) == {"colour": "turquoise"}
    with pytest.raises(ValueError, match="longer than 1 character"):
        dumps(problem, max_name_length=None)
    text = dumps(problem, max_name_length=None, max_color_length=None)
    assert "colour:turquoise" in text


def test_slash_slash_lines_are_comments():
    problem = loads("// xcover's comments\nA B\n// here too\nA B\n")
    assert problem.items == ("A", "B") and len(problem) == 1


def test_an_option_without_primary_items_is_kept_but_never_used():
    # DLX2 says "Option ignored (no primary items)"; ours keeps its
    # number and never puts it in a solution.
    problem = loads("A B | X Y\nX:1 Y\nA X:1\nB X:1\nA B\nY\n")
    assert len(problem) == 5
    assert sorted(problem.solutions()) == [[1, 2], [3]]


def test_bounds_of_at_most_one_are_read():
    # v = 1 is the smallest upper bound: "1|A" is plain exact cover,
    # "0:1|A" an item covered at most once.
    plain = loads("1|A B\nA B\n")
    assert plain.bounds.get("A", (1, 1)) == (1, 1) and plain.count() == 1
    loose = loads("0:1|A B\nB\nA B\n")
    assert loose.bounds == {"A": (0, 1)} and loose.count() == 2
    with pytest.raises(DLXFormatError, match=r"0\.\.0"):
        loads("0:0|A B\nA B\n")


# -- edges of the format that users are promised (issue 31) --------------
@pytest.mark.parametrize(
    "text, items, options",
    [
        # Items whose names start with '/' are items, not comments: only a line
        # whose first token starts with "//" (or '|') is a comment.
        ("/x/ B\n/x/\nB\n", ("/x/", "B"), (("/x/",), ("B",))),
        ("/ A\nA\n/", ("/", "A"), (("A",), ("/",))),
        ("A /\n/ A\n", ("A", "/"), (("/", "A"),)),
        ("A B\nA\n//\n// B\nB\n", ("A", "B"), (("A",), ("B",))),
        ("| c\nA B\n| A B\nA\n|\nB\n", ("A", "B"), (("A",), ("B",))),
        ("\nA B\nA\nB\n", ("A", "B"), (("A",), ("B",))),
        ("x//y B\nx//y\nB\n", ("x//y", "B"), (("x//y",), ("B",))),
        ("0/ /0\n0/\n/0\n", ("0/", "/0"), (("0/",), ("/0",))),
        ("A B\n| only comments after the items\n\n", ("A", "B"), ()),
        ("A B\nA B\n//", ("A", "B"), (("A", "B"),)),
        ("\n\n// c\n\nA B\n\nA B\n", ("A", "B"), (("A", "B"),)),
    ],
)
def test_comments_and_blank_lines_around_options(text, items, options):
    problem = loads(text)
    assert (problem.items, problem.options) == (items, options)


def test_a_byte_order_mark_only_at_the_start(tmp_path):
    # Colors take the line-by-line reader: the mark is dropped there too.
    problem = loads("\ufeffA B | C\nA C:x\nB C:x\n")
    assert problem.primary == ("A", "B") and problem.count() == 1
    with pytest.raises(DLXFormatError, match="line 3: unknown item 'Q'"):
        loads("\ufeffA B | C\nA C:x\nQ\n")
    path = tmp_path / "bom.dlx"
    path.write_bytes("\ufeffA B | C\r\nA B C:y\r\n".encode("utf-8"))
    assert load(path).options == (("A", "B", "C"),)
    # Anywhere else U+FEFF is a character of a name (not ASCII: refused).
    with pytest.raises(DLXFormatError, match="line 1"):
        loads("A \ufeffB\nA\n")


def test_a_parse_error_names_its_source(tmp_path):
    with pytest.raises(DLXFormatError) as caught:
        loads("A B\nA\nQ\n", source="in.dlx")
    assert str(caught.value) == "in.dlx:3: unknown item 'Q'"
    assert (caught.value.source, caught.value.line) == ("in.dlx", 3)
    with pytest.raises(DLXFormatError) as caught:
        loads("| only a comment\n", source="e.dlx")
    assert str(caught.value).startswith("e.dlx: no item line")
    assert (caught.value.source, caught.value.line) == ("e.dlx", None)
    with pytest.raises(DLXFormatError) as caught:
        loads("A B\nA\nQ\n")
    assert str(caught.value) == "line 3: unknown item 'Q'"
    assert (caught.value.source, caught.value.line) == (None, 3)
    path = tmp_path / "q.dlx"
    path.write_text("A B\nA\nQ\n")
    with pytest.raises(DLXFormatError) as caught:
        load(path)
    assert caught.value.source == str(path) and caught.value.line == 3


def test_a_color_with_a_colon_is_one_character():
    assert loads("A | B\nA B::\n").options == (("A", "B"),)
    with pytest.raises(
        DLXFormatError,
        match="line 2: item 'B' has color "
        "'ab:c': a color of more than one character has no",
    ):
        loads("A | B\nA B:ab:c\n")
    with pytest.raises(DLXFormatError, match="has color 'a:'"):
        loads("A | B\nA B:a:\n")


@pytest.mark.parametrize("color", ["\x7f", "a\x7f", "\x1f", " ", ""])
def test_colors_that_cannot_be_written_are_refused(color):
    problem = ExactCover(["A"], ["B"])
    problem.add_option(["A", "B"], colors={"B": color})
    with pytest.raises(ValueError, match="cannot write color"):
        dumps(problem)


@pytest.mark.parametrize("color", ["!", "~", ":"])
def test_printable_colors_round_trip(color):
    problem = ExactCover(["A"], ["B"])
    problem.add_option(["A", "B"], colors={"B": color})
    text = dumps(problem)
    assert text == f"A | B\nA B:{color}\n"
    assert dumps(loads(text)) == text


def test_loads_takes_text_only():
    with pytest.raises(TypeError, match="loads expects a str, got bytes"):
        loads(b"A B\nA B\n")


def test_what_dumps_cannot_write_is_refused():
    problem = ExactCover(["A"], ["B"])
    problem.add_option(["A", "B"], colors={"B": "a:b"})
    with pytest.raises(
        ValueError,
        match="cannot write color 'a:b' of item 'B': a color of more than one",
    ):
        dumps(problem, max_color_length=None)
    clash = ExactCover(["A", "C"], ["B"])
    clash.add_option(["A", "B"], colors={"B": 1})
    clash.add_option(["C", "B"], colors={"B": "1"})
    with pytest.raises(ValueError, match="two colors with the same text"):
        dumps(clash)
    empty = ExactCover.from_matrix([[1, 0], [0, 0], [0, 1]])
    with pytest.raises(
        ValueError, match="cannot write option 1: option 1 is empty"
    ):
        dumps(empty)
