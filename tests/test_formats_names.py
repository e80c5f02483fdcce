"""Item names that the DLX format cannot hold: each refused for its own
reason."""

import pytest

from dlx import ExactCover, dumps


@pytest.mark.parametrize("name, reason", [
    ("a b", "contains a blank"),
    ("a\tb", "contains a blank"),
    ("a|b", "contains '|'"),
    ("a:b", "contains ':'"),
    ("", "empty item name"),
    ("é", "not printable ASCII"),
    ("abcdefghi", "longer than 8"),
])
def test_unwritable_name_reason(name, reason):
    with pytest.raises(ValueError, match=reason):
        dumps(ExactCover([name]))
