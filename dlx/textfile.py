"""Reading a text file whole, for every reader of ``dlx`` and ``sudoku``:
a file that is not UTF-8 text is a ``NotText`` error that names it.

>>> import io
>>> read_text(io.BytesIO(b"\\x92"), name="w.txt")
Traceback (most recent call last):
...
dlx.textfile.NotText: w.txt: not a UTF-8 text file (byte 0x92 at position 0)
"""

from __future__ import annotations

import os
import sys
from typing import IO, Any, Union

__all__ = ["NotText", "read_text"]

PathOrFile = Union[str, "os.PathLike[str]", IO[Any]]


class NotText(ValueError):
    """A file that is not UTF-8 text: ``name: reason``."""

    def __init__(self, name: str, reason: str):
        super().__init__(f"{name}: {reason}")
        self.name = name
        self.reason = reason


def read_text(
    file: PathOrFile,
    *,
    name: str | None = None,
    encoding: str = "utf-8",
    newline: str | None = None,
) -> str:
    """The whole text of ``file``: a path (``"-"`` is standard input) or
    a file object, text or binary.  ``name`` names it in the error (by
    default its path, or the file object's name); ``newline`` as for
    ``open`` (``""`` keeps line endings as they are).  Raises ``OSError``
    when it cannot be opened, ``NotText`` when it does not decode."""
    if isinstance(file, (str, os.PathLike)) and os.fspath(file) == "-":
        file = sys.stdin
    if isinstance(file, (str, os.PathLike)):
        path = os.fspath(file)
        with open(path, "rb") as handle:
            data = handle.read()
        name = path if name is None else name
    else:
        if name is None:
            found = getattr(file, "name", None)
            name = found if isinstance(found, str) else "the input"
        try:
            data = file.read()
        except UnicodeDecodeError as error:  # a text stream's own decoding
            raise NotText(
                name, f"not a UTF-8 text file ({error.reason})"
            ) from None
        if isinstance(data, str):
            return data
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as error:
        bad = data[error.start : error.start + 1]
        raise NotText(
            name,
            f"not a UTF-8 text file (byte 0x{bad.hex()} at position "
            f"{error.start})",
        ) from None
    if newline is None and "\r" in text:  # universal newlines, as open()
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text
