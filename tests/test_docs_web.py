"""docs/web.md's table of the JSON API says what the service takes.

The truth is asked of the service itself, as a client would: a field it
does not know is refused with the list of those it takes, and a value
it does not know with the list of those it takes.  Each endpoint's row of
the table must name every field (and every value of a field with a
fixed set of values) and nothing else, so that a mode, a field or a
value added to the service and not to the page (or left on the page
after the service dropped it) fails here.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from sudoku.web.app import create_app

PAGE = Path(__file__).resolve().parent.parent / "docs" / "web.md"
# The fields with a fixed set of values; the values of ``variant`` and
# ``format`` (every grid endpoint takes them) are in the page's prose.
ENUMS = ("mode", "builder", "set", "difficulty", "symmetry")
IN_PROSE = ("variant", "format")


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app())  # no lifespan: no warm-up search


def table() -> dict[str, str]:
    """``{endpoint: its body cell}`` of the POST endpoints' rows."""
    rows = re.findall(
        r"^\| `(/api/[\w-]+)` \| (.*?) \| .* \|$", PAGE.read_text(), re.M
    )
    return dict(rows)


def ticked(text: str) -> set[str]:
    """The words in backticks (``"x"`` counts as ``x``)."""
    return {word.strip('"') for word in re.findall(r"`([^`]+)`", text)}


def takes(client, endpoint: str) -> list[str]:
    """The fields ``endpoint`` takes, as its refusal of a stranger says."""
    answer = client.post(endpoint, json={"no such field": 1})
    assert answer.status_code == 400
    found = re.search(r"takes ([\w, ]+)\)", answer.json()["error"])
    assert found, answer.json()
    return found.group(1).split(", ")


def values(client, endpoint: str, field: str, fields: list[str]) -> set[str]:
    """The values ``field`` takes, as the refusal of a wrong one says
    (``count, solutions or best``, ``choose one of easy, medium, ...``)."""
    body = {field: "no such value"}
    if "puzzle" in fields:
        body["puzzle"] = "." * 16
    answer = client.post(endpoint, json=body)
    assert answer.status_code == 400, answer.json()
    message = answer.json()["error"].replace("'no such value'", "")
    runs = re.findall(r"[\w-]+(?:, [\w-]+)+(?:,? or [\w-]+)?", message)
    assert runs, message
    longest = max(runs, key=len)
    return set(re.split(r",? or |, ", longest))


def test_every_endpoint_has_a_row(client):
    routes = {
        route.path
        for route in client.app.routes
        if "POST" in getattr(route, "methods", ())
    }
    assert routes == set(table())


@pytest.mark.parametrize("endpoint", sorted(table()))
def test_a_row_names_what_its_endpoint_takes(client, endpoint):
    cell = table()[endpoint]
    fields = takes(client, endpoint)
    enums = {
        field: values(client, endpoint, field, fields)
        for field in fields
        if field in ENUMS + IN_PROSE
    }
    named = ticked(cell)
    missing = set(fields) - named - {"time_limit"}
    assert not missing, f"{endpoint}: the page does not name {missing}"
    for field in set(enums) & set(ENUMS):
        left_out = enums[field] - named
        assert not left_out, f"{endpoint}: {field} also takes {left_out}"
    known = set(fields).union(*enums.values(), {"null"})
    unknown = named - known
    assert not unknown, f"{endpoint}: the service takes no {unknown}"


def test_the_prose_names_every_variant_and_format(client):
    prose = PAGE.read_text().split("## The JSON API")[1].split("| endpoint")[0]
    named = ticked(prose)
    fields = takes(client, "/api/solve")
    for field in IN_PROSE:
        left_out = values(client, "/api/solve", field, fields) - named
        assert not left_out, f"{field} also takes {left_out}"


def test_the_mode_values_are_read_back(client):
    fields = takes(client, "/api/exact-cover")
    assert "mode" in fields
    modes = values(client, "/api/exact-cover", "mode", fields)
    assert {"count", "solutions", "best"} <= modes
