"""Options that take "a file or inline text" (``sudoku --regions MAP|FILE``,
``dlx --pieces SET|FILE``, ``dlx polycube SET``, ``dlx tiling PIECES``):
telling a mistyped file name from inline text.

A value naming an existing file is read from it.  Any other value is
inline text, unless the text cannot be read as such and looks like a file
name: then the message says first that there is no such file, since
``regons.txt`` read as a region map ("11 cells, not a square grid") only
confuses.

>>> looks_like_a_file_name("regions.txt"), looks_like_a_file_name("maps/a")
(True, True)
>>> looks_like_a_file_name("AAABBBCCC" * 9), looks_like_a_file_name("soma")
(False, False)
"""

from __future__ import annotations

import os
import re

from ..shorten import shorten

__all__ = ["looks_like_a_file_name", "no_such_file"]

# A last dot and 1-5 letters or digits: .txt, .csv, .dlx, .board, ...
_EXTENSION = re.compile(r"\.[A-Za-z0-9]{1,5}$")


def looks_like_a_file_name(text: str) -> bool:
    """Does ``text`` (which names no file) look like a file name rather
    than inline text: one line, and a path separator or an extension?"""
    if "\n" in text or not text.strip():
        return False
    return (
        "/" in text
        or os.sep in text
        or text.startswith("~")
        or bool(_EXTENSION.search(text))
    )


def no_such_file(option: str, text: str, reason: str | None = None) -> str:
    """The one sentence for a value of ``option`` that names no file (and
    is not valid inline text either, for ``reason``)."""
    if os.path.isdir(text):
        return f"{option} {shorten(text)}: that is a directory, not a file"
    message = f"{option} {shorten(text)}: no such file"
    if reason:
        message += f" (nor is it {reason})"
    return message
