"""MkDocs hook: the command-line reference, generated from the parsers.

A line ``<!-- cli: dlx -->`` (or ``sudoku``) in a page becomes the
``--help`` text of the command and of each of its subcommands, each under
its own heading, exactly as ``argparse`` prints it at 80 columns.  Nothing
is retyped: a new option shows up in the docs at the next build.
(mkdocs.yml names this file under ``hooks:``.)
"""

from __future__ import annotations

import argparse
import os
import re

MARKER = re.compile(r"^<!-- cli: (\w+) -->$", re.M)


def parsers():
    """``{program: its argparse parser}``."""
    from dlx.cli.command import build_parser as dlx_parser
    from sudoku.cli import build_parser as sudoku_parser

    return {"dlx": dlx_parser, "sudoku": sudoku_parser}


def subcommands(parser: argparse.ArgumentParser):
    """``(name, parser)`` of each subcommand, in the order of ``--help``."""
    for action in parser._actions:  # argparse keeps them nowhere public
        if isinstance(action, argparse._SubParsersAction):
            seen = set()
            for name, sub in action.choices.items():
                if id(sub) not in seen:  # an alias names a parser again
                    seen.add(id(sub))
                    yield name, sub


def help_text(parser: argparse.ArgumentParser) -> str:
    before = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "80"  # the same text on every terminal
    try:
        return parser.format_help().rstrip()
    finally:
        if before is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = before


def reference(program: str) -> str:
    """The Markdown for one program: its help, then each subcommand's."""
    build = parsers().get(program)
    if build is None:
        raise ValueError(
            f"<!-- cli: {program} -->: no such program "
            f"(known: {', '.join(parsers())})"
        )
    parser = build()
    parts = [f"```text\n{help_text(parser)}\n```"]
    for name, sub in subcommands(parser):
        parts.append(
            f"### `{program} {name}`\n\n```text\n{help_text(sub)}\n```"
        )
    return "\n\n".join(parts)


def on_page_markdown(markdown, page, config, files):
    return MARKER.sub(lambda found: reference(found.group(1)), markdown)
