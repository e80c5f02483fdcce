"""Tests that need a system browser skip without one, and fail without one
when ``DLX_REQUIRE_BROWSER`` is set (as ``.ci/run`` sets it): the README's
test command passes on a machine with nothing but Python, and CI never
hides a broken page behind a skip."""

import re
from pathlib import Path

import pytest
import system_browser
from system_browser import REQUIRE_BROWSER, chromium

TESTS = Path(__file__).parent
ROOT = TESTS.parent


@pytest.fixture
def no_browser(monkeypatch, tmp_path):
    monkeypatch.delenv("CHROMIUM", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))  # nothing on it


def test_no_browser_skips_with_the_reason(no_browser, monkeypatch):
    monkeypatch.delenv(REQUIRE_BROWSER, raising=False)
    with pytest.raises(pytest.skip.Exception, match="no Chromium found"):
        chromium()
    monkeypatch.setenv(REQUIRE_BROWSER, "0")
    with pytest.raises(pytest.skip.Exception):
        chromium()


def test_no_browser_fails_where_one_is_required(no_browser, monkeypatch):
    monkeypatch.setenv(REQUIRE_BROWSER, "1")
    with pytest.raises(pytest.fail.Exception, match=REQUIRE_BROWSER):
        chromium()


def test_a_browser_on_the_path_is_found(monkeypatch, tmp_path):
    monkeypatch.delenv("CHROMIUM", raising=False)
    fake = tmp_path / "chromium"
    fake.write_text("#!/bin/sh\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setenv(REQUIRE_BROWSER, "1")
    assert chromium() == str(fake)


def test_ci_requires_the_browser():
    run = (ROOT / ".ci" / "run").read_text()
    assert re.search(rf"^export {REQUIRE_BROWSER}=1$", run, re.M)


def test_every_test_finds_system_programs_through_the_helper():
    # The class: a test that looks for a program of the system (a browser,
    # any other) does it through system_browser, which skips without it;
    # other subprocesses run this Python (sys.executable) or bash.
    helper = Path(system_browser.__file__).resolve()
    for path in sorted(TESTS.glob("*.py")):
        if path.resolve() == helper or path.name == Path(__file__).name:
            continue
        text = path.read_text(encoding="utf-8")
        assert "shutil.which" not in text, path.name
        assert not re.search(r"def chromium\b", text), path.name
