"""What the user wrote, quoted in an error message without quoting all of
it.

An error names the culprit, and a culprit can be long: a 200,000-character
item name, an option of 10,000 items, a line of a megabyte.  ``shorten``
keeps its beginning and says how long it was::

    >>> shorten("A" * 200_000)
    "'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAA...' (200,000 characters)"
    >>> shorten("X1")
    "'X1'"
    >>> shorten(list(range(10_000)))
    '[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, ... (10,000 items)'

Every message of ``dlx`` and ``sudoku`` that quotes input goes through it.
"""

from __future__ import annotations

from typing import Any

__all__ = ["shorten", "LIMIT"]

#: The longest quotation kept whole, in characters.
LIMIT = 40


def shorten(value: Any, limit: int = LIMIT, *, quote: bool = True) -> str:
    """``repr(value)`` (``str`` when ``quote`` is False and ``value`` is a
    string) if it is at most ``limit`` characters, else its first
    characters, ``...`` and how long ``value`` is."""
    if isinstance(value, str):
        text = repr(value) if quote else value
        if len(text) <= limit:
            return text
        head = value[: max(1, limit - 10)]
        shown = (
            f"{repr(head)[:-1]}...{repr(head)[-1]}" if quote else f"{head}..."
        )
        return f"{shown} ({len(value):,} characters)"
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - a broken __repr__ is no reason to fail
        text = f"<{type(value).__name__}>"
    if len(text) <= limit:
        return text
    try:
        size = f" ({len(value):,} items)"
    except TypeError:
        size = ""
    cut = text[:limit]
    comma = cut.rfind(", ")
    if comma > limit // 2:  # end at a whole element
        cut = cut[: comma + 1] + " "
    return f"{cut}...{size}"
