"""One version, from dlx/_version.py, everywhere a user can ask for it."""

import importlib.metadata
import re
from pathlib import Path

import dlx
import dlx.cli
import sudoku
import sudoku.cli

ROOT = Path(__file__).resolve().parent.parent
SOURCE = (ROOT / "dlx" / "_version.py").read_text(encoding="utf-8")
VERSION = re.search(r'^__version__ = "([^"]+)"$', SOURCE, re.M).group(1)


def test_the_packages_say_the_source_version():
    assert dlx.__version__ == sudoku.__version__ == VERSION


def test_it_is_a_pep440_version():
    assert re.fullmatch(r"\d+\.\d+\.\d+((a|b|rc)\d+)?(\.dev\d+)?", VERSION)


def test_pyproject_reads_it_from_the_one_source():
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert re.search(r'^dynamic = \["version"\]$', pyproject, re.M)
    assert not re.search(r"^version = \"", pyproject, re.M)
    assert 'version = {attr = "dlx._version.__version__"}' in pyproject


def test_the_installed_metadata_agrees():
    # An install made before the version changed says otherwise:
    # pip install -e . again.
    assert importlib.metadata.version("dlx-toolkit") == VERSION


def test_the_commands_print_it(capsys):
    assert dlx.cli.main(["--version"]) == 0
    assert capsys.readouterr().out == f"dlx {VERSION}\n"
    assert sudoku.cli.main(["--version"]) == 0
    assert capsys.readouterr().out == f"sudoku {VERSION}\n"


def test_the_changelog_has_a_section_for_it():
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    if ".dev" in VERSION:  # between releases: the Unreleased section
        assert re.search(r"^## \[Unreleased\]$", changelog, re.M)
    else:
        assert re.search(
            rf"^## \[{re.escape(VERSION)}\] - \d{{4}}-\d\d-\d\d$",
            changelog,
            re.M,
        )
    assert re.search(r"^## \[0\.1\.0\]", changelog, re.M)
