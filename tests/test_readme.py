"""The README's examples are run: its Python sessions as doctests, and its
shell lines that end in ``# <count>`` through the commands' ``main``."""

import doctest
import re
import shlex
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"
TEXT = README.read_text(encoding="utf-8")


def blocks(language):
    """``(line number, body)`` of each fenced block in ``language``."""
    for match in re.finditer(rf"^```{language}\n(.*?)^```", TEXT,
                             re.S | re.M):
        yield TEXT.count("\n", 0, match.start()) + 2, match.group(1)


SESSIONS = [(line, body) for line, body in blocks("python")
            if ">>>" in body]


def test_the_readme_has_sessions():
    assert len(SESSIONS) >= 3


@pytest.mark.parametrize("line, body", SESSIONS,
                         ids=[f"line{line}" for line, _ in SESSIONS])
def test_python_session(line, body):
    # Timings vary: "0.000 s" in the README matches any time.
    body = re.sub(r"\b\d+\.\d{3} s\.", "... s.", body)
    parser = doctest.DocTestParser()
    test = parser.get_doctest(body, {}, f"README.md:{line}", str(README),
                              line)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0, f"README.md:{line}: see the output above"


def counted_commands():
    """Shell lines ``dlx ...  # N`` or ``sudoku ... --count  # N``."""
    for start, body in blocks("sh"):
        for k, line in enumerate(body.splitlines()):
            found = re.fullmatch(r"((?:dlx|sudoku) [^#|<>]*?)\s+#\s*(\d+)\b.*",
                                 line)
            if found and "--count" in found.group(1):
                yield start + k, found.group(1), int(found.group(2))


COMMANDS = list(counted_commands())


@pytest.mark.parametrize("line, command, count", COMMANDS,
                         ids=[c for _, c, _ in COMMANDS])
def test_shell_count(capsys, line, command, count):
    import dlx.cli
    import sudoku.cli
    program, *argv = shlex.split(command)
    main = {"dlx": dlx.cli.main, "sudoku": sudoku.cli.main}[program]
    assert main(argv) == 0
    assert capsys.readouterr().out.split()[-1] == str(count), \
        f"README.md:{line}"


def test_some_shell_counts_are_checked():
    assert len(COMMANDS) >= 2
