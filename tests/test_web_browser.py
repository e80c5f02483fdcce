"""The page of `sudoku serve` in a real headless Chromium, clicking what a
person clicks.

Needs Debian's ``chromium`` (``.ci/run`` installs it) and Playwright's
Python package (the test extra), which drives that browser through
``executable_path``: Playwright's own browser download does not work on
these machines.  With no browser the tests skip and say so, unless
``DLX_REQUIRE_BROWSER`` is set (as ``.ci/run`` sets it): then they fail,
since a page that breaks must not go unnoticed behind a skip in CI (see
``system_browser.py``).  ``SUDOKU_SCREENSHOT=PATH``
saves the README's screenshot there.
"""

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect, sync_playwright
from system_browser import chromium

import sudoku
from sudoku import is_valid_solution, parse
from sudoku.web.service import Settings

from web_server import live_server

DATA = Path(__file__).parent / "data"
ESCARGOT = (
    "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4"
    "......7..7...3.."
)
HEX16 = (DATA / "sudoku_hexadoku16.txt").read_text().split()[0]
# What the probe of these machines found Chromium needs here: no sandbox
# (root), and no background connections (the network is closed).
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="module")
def server():
    with live_server(Settings(workers=2)) as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=chromium(), args=FLAGS, headless=True
        )
        yield browser
        browser.close()


@pytest.fixture
def page(browser, server):
    page = browser.new_page(viewport={"width": 900, "height": 860})
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server)
    page.wait_for_selector("body[data-ready=true]")
    yield page
    page.close()
    assert not errors, errors


def cell(page, r, c):
    return page.locator(f"#grid input[data-r='{r}'][data-c='{c}']")


def grid_text(page) -> str:
    """The grid as the page shows it, one character a cell."""
    return page.eval_on_selector_all(
        "#grid input", "els => els.map(e => e.value || '.').join('')"
    )


def classes(page, name) -> list:
    return page.eval_on_selector_all(
        f"#grid input.{name}",
        "els => els.map(e => [+e.dataset.r, +e.dataset.c])",
    )


def status(page, starts: str) -> str:
    expect(page.locator("#status")).to_contain_text(starts, timeout=30_000)
    return page.inner_text("#status")


def test_type_a_puzzle_and_solve_it(page):
    cell(page, 0, 0).click()
    page.keyboard.type(ESCARGOT)
    assert grid_text(page) == ESCARGOT
    page.click("#solve")
    status(page, "solved")
    shown = grid_text(page)
    assert shown == str(sudoku.solve(ESCARGOT))
    assert is_valid_solution(shown, ESCARGOT)
    # Givens and filled cells look different.
    filled = classes(page, "filled")
    assert len(filled) == 81 - parse(ESCARGOT).givens
    assert all(ESCARGOT[r * 9 + c] == "." for r, c in filled)
    given_colour = cell(page, 0, 0).evaluate("e => getComputedStyle(e).color")
    filled_colour = cell(page, *filled[0]).evaluate(
        "e => getComputedStyle(e).color"
    )
    assert given_colour != filled_colour
    assert "nodes" in page.inner_text("#stats") and "ms" in page.inner_text(
        "#stats"
    )


def test_keyboard_moves_and_clears(page):
    cell(page, 4, 4).click()
    page.keyboard.type("5")  # typing moves on to the next cell
    page.keyboard.press("ArrowDown")
    page.keyboard.type("7")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowUp")
    page.keyboard.type("x")  # not a digit: ignored
    page.keyboard.press("Tab")
    page.keyboard.type("3")
    text = grid_text(page)
    assert text[4 * 9 + 4] == "5" and text[5 * 9 + 5] == "7"
    assert text[4 * 9 + 5] == "3" and text.count(".") == 78
    cell(page, 5, 5).click()
    page.keyboard.press("Backspace")
    assert grid_text(page)[5 * 9 + 5] == "."
    page.keyboard.press("Backspace")  # an empty cell: clears the one before
    assert grid_text(page)[5 * 9 + 4] == "."
    page.click("#clear")
    assert grid_text(page) == "." * 81


def test_random_then_solve(page):
    page.select_option("#random-set", "hard")
    page.click("#random")
    status(page, "a puzzle from the bundled set")
    puzzle = grid_text(page)
    assert 17 <= 81 - puzzle.count(".") < 81
    page.click("#solve")
    status(page, "solved")
    assert is_valid_solution(grid_text(page), puzzle)


def test_new_puzzle_of_a_difficulty_and_rate(page):
    page.select_option("#random-set", "new:easy")
    page.click("#random")
    status(page, "a new 9x9 puzzle")
    puzzle = grid_text(page)
    assert sudoku.is_unique(puzzle)
    expect(page.locator("#rate")).to_be_visible()
    page.click("#rate")
    assert status(page, "rating:").startswith("rating: easy")
    page.click("#solve")
    status(page, "solved")
    assert is_valid_solution(grid_text(page), puzzle)


def test_x_variant_is_drawn_and_solved(page):
    page.select_option("#variant", "x")
    expect(page.locator("#grid td.diag")).to_have_count(17)
    page.click("#solve")
    status(page, "several solutions")
    cells = parse(grid_text(page)).cells
    assert len(set(cells.diagonal())) == 9
    assert len(set(cells[:, ::-1].diagonal())) == 9


def test_invalid_puzzle_shows_the_conflict(page):
    cell(page, 0, 0).click()
    page.keyboard.type("1......1")
    page.click("#solve")
    with pytest.raises(sudoku.InvalidPuzzle) as expected:
        sudoku.solve("1......1" + "." * 73)
    assert status(page, "givens conflict") == str(expected.value)
    assert classes(page, "conflict") == [[0, 0], [0, 7]]
    assert page.locator("#status.error").count() == 1


def test_sixteen_by_sixteen(page):
    page.select_option("#size", "4x4")
    assert page.locator("#grid input").count() == 256
    cell(page, 0, 0).click()
    page.keyboard.type(HEX16[:32].lower())  # letters in either case
    assert grid_text(page)[:32] == HEX16[:32]
    page.click("#text-box summary")  # the rest through the text box
    page.fill("#puzzle-text", HEX16)
    page.click("#load-text")
    status(page, "loaded a 16x16 puzzle")
    assert grid_text(page) == HEX16
    page.click("#solve")
    status(page, "solved")
    assert is_valid_solution(grid_text(page), HEX16)
    assert page.inner_text("#solution-text") == str(sudoku.solve(HEX16))


def test_several_solutions_show_two_differing_cells(page):
    page.select_option("#size", "2x2")
    page.click("#solve")
    message = status(page, "several solutions")
    differ = classes(page, "differ")
    assert len(differ) == 2
    for r, c in differ:
        assert f"r{r + 1}c{c + 1} is" in message
    assert is_valid_solution(grid_text(page), box=(2, 2))


def test_check_count_and_hint(page):
    cell(page, 0, 0).click()
    page.keyboard.type(ESCARGOT)
    page.click("#check")
    status(page, "check: unique")
    page.click("#hint")
    status(page, "hint:")
    hinted = classes(page, "hint")
    assert len(hinted) == 1
    r, c = hinted[0]
    assert grid_text(page)[r * 9 + c] == str(sudoku.solve(ESCARGOT))[r * 9 + c]
    page.click("#clear")
    page.select_option("#size", "2x2")
    page.fill("#count-limit", "1000")
    page.click("#count")
    status(page, "288 solutions")


def test_stop_drops_a_long_search(page):
    page.fill("#time-limit", "3")
    page.fill("#count-limit", "")  # count them all: far beyond 3 s
    page.click("#count")
    expect(page.locator("#stop")).to_be_visible()
    expect(page.locator("#solve")).to_be_disabled()
    page.click("#stop")
    status(page, "stopped: the search was dropped")
    expect(page.locator("#stop")).to_be_hidden()
    expect(page.locator("#solve")).to_be_enabled()


def test_paste_any_format_the_cli_reads(page):
    pretty = parse("." * 20 + "1" + "." * 15, box=(2, 3)).pretty()
    page.evaluate(
        """([text]) => {
        const data = new DataTransfer();
        data.setData('text/plain', text);
        document.querySelector('#grid input').dispatchEvent(new ClipboardEvent(
            'paste', {clipboardData: data, bubbles: true, cancelable: true}));
    }""",
        [pretty],
    )
    expect(page.locator("#grid input")).to_have_count(36)
    assert page.input_value("#size") == "2x3"
    assert grid_text(page) == "." * 20 + "1" + "." * 15


def test_exact_cover_tab_counts_eight_queens(page):
    page.click("#tab-cover")
    page.select_option("#builder", "queens")
    page.fill("#cover-n", "8")
    page.check("input[name=mode][value=count]")
    page.click("#cover-run")
    expect(page.locator("#cover-status")).to_have_text(
        "count: 92 solutions", timeout=30_000
    )
    page.check("input[name=mode][value=solutions]")
    page.fill("#cover-limit", "3")
    page.click("#cover-run")
    expect(page.locator(".solution")).to_have_count(3, timeout=30_000)
    assert page.locator(".solution").first.locator("td.queen").count() == 8


def test_exact_cover_tab_finds_the_cheapest_solutions(page):
    # Knuth's DLX5 example (issue 26): dlx5 k3 reports $4, $5, $6.
    page.click("#tab-cover")
    page.select_option("#builder", "dlx")
    page.fill("#dlx-text", "A B C\nA B |5\nC |1\nA |2\nB C |3\nB |1\nC |4\n")
    page.check("input[name=mode][value=best]")
    page.fill("#cover-limit", "3")
    page.click("#cover-run")
    expect(page.locator("#cover-status")).to_have_text(
        "the 3 cheapest solutions (costs 4 to 6)", timeout=30_000
    )
    solutions = page.locator(".solution")
    expect(solutions).to_have_count(3)
    assert [solutions.nth(i).locator("h3").inner_text() for i in range(3)] == [
        "solution 1, cost 4",
        "solution 2, cost 5",
        "solution 3, cost 6",
    ]
    assert sorted(solutions.first.locator("pre").inner_text().split("\n")) == [
        "A |2",
        "B |1",
        "C |1",
    ]


def test_exact_cover_tab_tiles_a_pentomino_board(page):
    page.click("#tab-cover")
    page.select_option("#builder", "pentomino")
    page.fill("#board", "6x10")
    page.check("input[name=mode][value=solutions]")
    page.fill("#cover-limit", "1")
    page.click("#cover-run")
    expect(page.locator(".solution")).to_have_count(1, timeout=30_000)
    picture = page.locator(".solution img.tiling")
    if picture.count():  # an SVG drawn by dlx.draw
        expect(picture).to_be_visible()
        assert picture.evaluate("e => e.complete && e.naturalWidth > 100")
        letters = list(picture.get_attribute("alt").replace("\n", ""))
    else:  # coloured table cells
        letters = page.locator(".solution td").all_inner_texts()
    assert len(letters) == 60 and set(letters) == set("FILNPTUVWXYZ")


def test_screenshot(page, tmp_path):
    page.evaluate("""() => fetch('/api/solve', {method: 'POST',
        body: JSON.stringify({puzzle: '.'.repeat(81)})})""")  # warm
    cell(page, 0, 0).click()
    page.keyboard.type(ESCARGOT)
    page.click("#solve")
    status(page, "solved")
    target = Path(os.environ.get("SUDOKU_SCREENSHOT") or tmp_path / "page.png")
    page.set_viewport_size({"width": 760, "height": 690})
    page.screenshot(path=str(target))
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
