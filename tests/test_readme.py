"""Every example of the README and of the docs is run, so that a page
whose output has drifted is a failing test, not a confused reader.

Pages are found, not listed: README.md and every ``docs/**/*.md``.  In each
page

* every ```` ```python ```` block is a doctest session (a block without
  ``>>>`` fails: an example that is not run has no place in a python
  fence); the blocks of one page run in order in one namespace, like
  ``doctest.testfile``, so a page can build on its earlier examples;
* every ```` ```console ```` block is a terminal: each ``$ command`` line
  runs in a scratch directory (one per page, so a later command can read
  a file an earlier one wrote) and what it printed on standard output
  must match the lines below it (doctest's rules: ``...`` matches
  anything); a last line ``[exit N]`` expects that exit status, 0
  otherwise.  A ``dlx``/``sudoku`` command without shell syntax runs
  through the command's ``main`` in this process, anything else in
  ``bash``;
* in ```` ```sh ```` blocks, which are not run, a line ``dlx ... --count
  # N`` is still checked: the count it prints must be N.
"""

import doctest
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md"] + sorted((ROOT / "docs").rglob("*.md"))


def name(page: Path) -> str:
    return str(page.relative_to(ROOT))


def blocks(page: Path, language: str):
    """``(line number, body)`` of each fenced block in ``language``."""
    text = page.read_text(encoding="utf-8")
    for match in re.finditer(
        rf"^```{language}[ \t]*\n(.*?)^```", text, re.S | re.M
    ):
        yield text.count("\n", 0, match.start()) + 2, match.group(1)


def pages_with(language: str):
    found = [page for page in PAGES if any(blocks(page, language))]
    return pytest.mark.parametrize("page", found, ids=map(name, found))


# -- Python sessions -----------------------------------------------------


def test_every_page_is_found():
    names = set(map(name, PAGES))
    assert {"README.md", "docs/index.md", "docs/getting-started.md"} <= names


def test_python_blocks_are_sessions():
    bare = [
        f"{name(page)}:{line}"
        for page in PAGES
        for line, body in blocks(page, "python")
        if ">>>" not in body
    ]
    assert not bare, f"python blocks that would not be run: {bare}"


@pages_with("python")
def test_python_sessions(page):
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    namespace = {"__name__": "__docs__"}
    for line, body in blocks(page, "python"):
        # Timings vary: "0.000 s" on a page matches any time.
        body = re.sub(r"\b\d+\.\d{3} s\.", "... s.", body)
        test = parser.get_doctest(
            body, namespace, f"{name(page)}:{line}", str(page), line
        )
        runner.run(test, clear_globs=False)
        namespace = test.globs
    assert runner.failures == 0, f"{name(page)}: see the output above"


# -- Terminal sessions ---------------------------------------------------


def console_commands(body: str):
    """``(command, expected output, expected status)`` of a console block."""
    commands = []
    for line in body.splitlines():
        if line.startswith("$ "):
            commands.append([line[2:], [], 0])
        elif commands:
            found = re.fullmatch(r"\[exit (\d+)\]", line)
            if found:
                commands[-1][2] = int(found.group(1))
            else:
                commands[-1][1].append(line)
    return [
        (command, "\n".join(lines).strip("\n") + "\n", status)
        for command, lines, status in commands
    ]


def in_process(command: str):
    """The argv of a plain ``dlx``/``sudoku`` call, else None."""
    if re.search(r"[|<>;&$`*]", command):
        return None
    argv = shlex.split(command)
    return argv if argv[0] in ("dlx", "sudoku") else None


def run_command(command, capsys):
    """``(standard output, exit status)`` of one command."""
    argv = in_process(command)
    if argv is not None:
        import dlx.cli
        import sudoku.cli

        main = {"dlx": dlx.cli.main, "sudoku": sudoku.cli.main}[argv[0]]
        capsys.readouterr()
        status = main(argv[1:])
        return capsys.readouterr().out, status
    bin_dir = str(Path(sys.executable).parent)
    env = dict(
        os.environ,
        PATH=bin_dir + os.pathsep + os.environ["PATH"],
        COLUMNS="80",
    )
    done = subprocess.run(
        ["bash", "-c", command],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    return done.stdout, done.returncode


@pages_with("console")
def test_console_sessions(page, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    checker = doctest.OutputChecker()
    failures = []
    for line, body in blocks(page, "console"):
        for command, want, status in console_commands(body):
            got, code = run_command(command, capsys)
            if want == "\n":
                want = ""
            if code != status or not checker.check_output(
                want, got, doctest.ELLIPSIS
            ):
                failures.append(
                    f"{name(page)}:{line}: $ {command}\n"
                    f"expected (exit {status}):\n{want}"
                    f"got (exit {code}):\n{got}"
                )
    assert not failures, "\n".join(failures)


def test_console_blocks_have_commands():
    empty = [
        f"{name(page)}:{line}"
        for page in PAGES
        for line, body in blocks(page, "console")
        if not console_commands(body)
    ]
    assert not empty, f"console blocks without a $ command: {empty}"


# -- Counts noted in shell blocks ----------------------------------------


def counted_commands():
    """Shell lines ``dlx ...  # N`` or ``sudoku ... --count  # N``."""
    for page in PAGES:
        for start, body in blocks(page, "sh"):
            for k, line in enumerate(body.splitlines()):
                found = re.fullmatch(
                    r"((?:dlx|sudoku) [^#|<>]*?)\s+#\s*(\d+)\b.*", line
                )
                if found and "--count" in found.group(1):
                    yield (
                        f"{name(page)}:{start + k}",
                        found.group(1),
                        int(found.group(2)),
                    )


COMMANDS = list(counted_commands())


@pytest.mark.parametrize(
    "where, command, count", COMMANDS, ids=[f"{w} {c}" for w, c, _ in COMMANDS]
)
def test_shell_count(capsys, where, command, count):
    out, status = run_command(command, capsys)
    assert status == 0, where
    assert out.split()[-1] == str(count), where


# -- Tables copied from the code -----------------------------------------


def test_the_options_table_is_the_specs():
    """docs/engines.md shows ``dlx.options``'s table of which options go
    together, as ``dlx.options.table()`` renders it."""
    from dlx.options import table

    text = (ROOT / "docs" / "engines.md").read_text(encoding="utf-8")
    start = "<!-- options table: generated by dlx.options.table() -->\n"
    shown = text[text.index(start) + len(start) : text.index("<!-- end of")]
    assert shown == table()
