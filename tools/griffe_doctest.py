"""Griffe extension: docstrings' ``>>>`` sessions and tables shown as code.

The docstrings are written for ``help()`` and doctest, with sessions in
plain text; Markdown would read ``>>>`` as nested quotes and ``a[i][j]``
as a link, and run a reStructuredText table (``=====  ===`` borders)
together into one paragraph.  This wraps each session (from its first
``>>>`` line to the next blank line) in a ``pycon`` fence, and each such
table (from its first border to its third) in a ``text`` fence, before
mkdocstrings renders it.  (mkdocs.yml names this file among the python
handler's extensions.)
"""

from __future__ import annotations

import re

import griffe

BORDER = re.compile(r"^\s*=+(\s+=+)+\s*$")


def fence_tables(text: str) -> str:
    lines = text.split("\n")
    out: list[str] = []
    borders = 0
    for line in lines:
        if BORDER.match(line):
            if borders == 0:
                indent = line[: len(line) - len(line.lstrip())]
                out.append(f"{indent}```text")
            borders += 1
            out.append(line)
            if borders == 3:  # top, under the header, bottom
                out.append(f"{indent}```")
                borders = 0
            continue
        out.append(line)
    return "\n".join(out)


def fence_sessions(text: str) -> str:
    lines = text.split("\n")
    out: list[str] = []
    inside = False
    fenced = False  # already inside a ``` block of the docstring's own
    for line in lines:
        stripped = line.strip()
        if stripped.startswith("```"):
            fenced = not fenced
        if not fenced and not inside and stripped.startswith(">>>"):
            indent = line[: len(line) - len(line.lstrip())]
            out.append(f"{indent}```pycon")
            inside = True
        elif inside and not stripped:
            out.append(f"{indent}```")
            inside = False
        out.append(line)
    if inside:
        out.append(f"{indent}```")
    return "\n".join(out)


class DoctestFences(griffe.Extension):
    def on_instance(self, *, obj: griffe.Object, **kwargs) -> None:
        if obj.docstring is not None:
            obj.docstring.value = fence_tables(
                fence_sessions(obj.docstring.value)
            )
