"""The one place tests look for a system browser (Debian's Chromium).

A test that needs one calls ``chromium()``: it answers the browser's path,
or skips the test with the reason when none is installed (the README's
test command passes on a machine with nothing but Python), unless the
environment variable ``DLX_REQUIRE_BROWSER`` is set (``.ci/run`` sets
it, after installing Chromium): then a missing browser fails the test,
so that CI never lets the browser tests go unnoticed behind a skip.
"""

import os
import shutil

import pytest

# Set (to anything but "" or "0") by .ci/run: a missing browser fails.
REQUIRE_BROWSER = "DLX_REQUIRE_BROWSER"
NAMES = ("chromium", "chromium-browser", "google-chrome")


def find_chromium() -> str | None:
    """``$CHROMIUM``, else the first of ``NAMES`` on ``PATH``, else None."""
    if os.environ.get("CHROMIUM"):
        return os.environ["CHROMIUM"]
    for name in NAMES:
        path = shutil.which(name)
        if path:
            return path
    return None


def browser_required() -> bool:
    return os.environ.get(REQUIRE_BROWSER, "") not in ("", "0")


def chromium() -> str:
    """The browser's path; skips the calling test when there is none (fails
    it when ``DLX_REQUIRE_BROWSER`` is set)."""
    path = find_chromium()
    if path:
        return path
    why = (
        "no Chromium found: install Debian's chromium (apt-get install "
        "chromium; .ci/run does) or set CHROMIUM=/path/to/chrome"
    )
    if browser_required():
        pytest.fail(
            f"{why} ({REQUIRE_BROWSER} is set: the browser is required)"
        )
    pytest.skip(why)
