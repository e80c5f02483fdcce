"""The item line as Knuth's programs read it (issue 25, item 4): a ``|``
that starts a word separates the primary items from the secondary ones
even when the first secondary name touches it (``A B C |X Y``).

What Knuth's DLX1, DLX2, DLX3, SSXC1, SSXCC and SSMCC (the builds in
/work/knuth) did with each item line below, followed by options ``A X``,
``A Y``, ``B`` and ``A``, on 2026-11-26: every program read ``A B |X Y``,
``A B<tab>|X``, ``A |X``, ``A |`` and (DLX3, SSMCC, the programs with
bounds) ``2:3|A |X``; every program refused ``A| X`` and ``A B|X`` (a
``|`` after a name), ``A |X |Y`` ("| twice"), ``A ||X``, ``A | |X``, ``A
|X|Y`` and ``A |X Y|`` (a ``|`` inside a name)."""

import pytest

from dlx.cli import main
from dlx.formats import DLXFormatError, dumps, loads


@pytest.mark.parametrize(
    "line,primary,secondary,bounds",
    [
        ("A B |X Y", ["A", "B"], ["X", "Y"], {}),
        ("A B C |X Y", ["A", "B", "C"], ["X", "Y"], {}),
        ("A B\t|X", ["A", "B"], ["X"], {}),
        ("A |X", ["A"], ["X"], {}),
        ("A | X", ["A"], ["X"], {}),
        ("A |", ["A"], [], {}),
        ("2:3|A |X", ["A"], ["X"], {"A": (2, 3)}),
        ("2:3|A 1|B |X Y", ["A", "B"], ["X", "Y"], {"A": (2, 3), "B": (1, 1)}),
        ("A 2|B |X", ["A", "B"], ["X"], {"B": (2, 2)}),
    ],
)
def test_item_lines_knuth_reads(line, primary, secondary, bounds):
    p = loads(line + "\nA\n")
    assert list(p.primary) == primary and list(p.secondary) == secondary
    assert p.bounds == bounds
    again = loads(dumps(p))
    plain = {k: uv for k, uv in p.bounds.items() if uv != (1, 1)}
    assert (again.primary, again.secondary, again.bounds) == (
        p.primary,
        p.secondary,
        plain,
    )


@pytest.mark.parametrize(
    "line,message",
    [
        ("A| X", "'A|'"),
        ("A B|X", "'B|X'"),
        ("A |X |Y", "'|' twice"),
        ("A |X | Y", "'|' twice"),
        ("A ||X", "'||X'"),
        ("A | |X", "'|X'"),
        ("A |X|Y", "'|X|Y'"),
        ("A |X Y|", "'Y|'"),
        ("A |2:3|X", "only primary items take bounds"),
        ("A |X |", "'|' twice"),
    ],
)
def test_item_lines_knuth_refuses(line, message):
    with pytest.raises(DLXFormatError, match=message) as error:
        loads(line + "\nA\n")
    assert error.value.line == 1


def test_the_issues_line_is_solved_by_the_command(tmp_path, capsys):
    path = tmp_path / "touching.dlx"
    path.write_text("A B C |X Y\nA B X\nC Y\nA X\nB C Y\n")
    assert main(["solve", str(path), "--count"]) == 0
    assert capsys.readouterr().out.strip() == "2"
    assert main(["solve", str(path), "--all"]) == 0
    assert capsys.readouterr().out.split("\n\n") == [
        "solution 1:\nA B X\nC Y",
        "solution 2:\nA X\nB C Y\n",
    ]


def test_a_word_starting_with_bar_in_an_option_line_is_not_read_here():
    # Option lines keep their own rules (and their comments).
    p = loads("A B |X\nA X\n| a comment\nB\n")
    assert list(p.options) == [("A", "X"), ("B",)]
