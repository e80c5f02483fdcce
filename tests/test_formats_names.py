"""Item names that the DLX format cannot hold: each refused for its own
reason."""

import pytest

from dlx import ExactCover, dumps


@pytest.mark.parametrize(
    "name, reason",
    [
        ("a b", "contains a blank"),
        ("a\tb", "contains a blank"),
        ("a|b", "contains '|'"),
        ("a:b", "contains ':'"),
        ("", "empty item name"),
        ("é", "not printable ASCII"),
        ("abcdefghi", "longer than 8"),
    ],
)
def test_unwritable_name_reason(name, reason):
    with pytest.raises(ValueError, match=reason):
        dumps(ExactCover([name]))


@pytest.mark.parametrize("name", ["!", "~", "a!~b", "12345678"])
def test_printable_ascii_names_round_trip(name):
    from dlx import loads

    p = ExactCover([name, "x"])
    p.add_options([[name], ["x"]])
    text = dumps(p)
    assert text == f"{name} x\n{name}\nx\n"
    q = loads(text)
    assert q.primary == (name, "x") and q.options == p.options


@pytest.mark.parametrize("name", ["\x7f", "a\x1fb", "\x00"])
def test_control_characters_are_refused(name):
    with pytest.raises(ValueError, match="not printable ASCII"):
        dumps(ExactCover([name]))


def test_long_names_only_when_asked():
    p = ExactCover(["abcdefghi"])
    p.add_option(["abcdefghi"])
    assert dumps(p, max_name_length=None) == "abcdefghi\nabcdefghi\n"
    assert dumps(p, max_name_length=9) == "abcdefghi\nabcdefghi\n"
    with pytest.raises(ValueError, match="longer than 8"):
        dumps(p)


def test_names_with_the_same_text_are_refused():
    with pytest.raises(ValueError, match="same text"):
        dumps(ExactCover([1, "1"]))
    with pytest.raises(ValueError, match="no primary items"):
        dumps(ExactCover([], ["a"]))
