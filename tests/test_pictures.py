"""SVG pictures: they parse as XML, show one element per piece, keep
borders between pieces only, and (rendered by headless Chromium when it
is installed) look like the committed reference picture."""

import struct
import subprocess
import xml.etree.ElementTree as ET
import zlib
from pathlib import Path

import pytest
from system_browser import chromium

import sudoku
from dlx.cli import main as dlx_main
from dlx.draw import tiling_svg
from dlx.problems.polycube import Polycube
from dlx.problems.polyomino import Polyomino
from sudoku.cli import main as sudoku_main
from sudoku.draw import grid_svg

DATA = Path(__file__).parent / "data"
SVG = "{http://www.w3.org/2000/svg}"
PUZZLE = (
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5."
    ".2.....1.4......"
)


def pieces_of(svg_text):
    root = ET.fromstring(svg_text)
    assert root.tag == SVG + "svg"
    return [g for g in root.iter(SVG + "g") if g.get("class") == "piece"]


def border_segments(svg_text):
    root = ET.fromstring(svg_text)
    (borders,) = [
        p for p in root.iter(SVG + "path") if p.get("class") == "borders"
    ]
    return borders.get("d").count("M")


def test_polyomino_svg():
    puzzle = Polyomino("3x20")
    tiling = next(puzzle.solutions())
    svg = puzzle.svg(tiling)
    groups = pieces_of(svg)
    assert sorted(g.get("data-name") for g in groups) == list("FILNPTUVWXYZ")
    fills = {g.find(SVG + "path").get("fill") for g in groups}
    assert len(fills) == 12
    # Borders: the outline (2 * (3 + 20) unit sides) plus the sides
    # between different pieces; never the sides inside a piece.
    inner = sum(
        1
        for (r, c) in puzzle.board
        for (dr, dc) in ((0, 1), (1, 0))
        if (r + dr, c + dc) in puzzle.board
        and owner(tiling, (r, c)) != owner(tiling, (r + dr, c + dc))
    )
    assert border_segments(svg) == 2 * (3 + 20) + inner


def owner(tiling, cell):
    return next(name for name, cells in tiling if cell in cells)


def test_polyomino_svg_with_holes_and_copies():
    board = (DATA / "8x8-centre-hole.board").read_text()
    puzzle = Polyomino(board)
    svg = puzzle.svg(next(puzzle.solutions()))
    assert len(pieces_of(svg)) == 12
    twice = Polyomino("2x3", {"L": "LL\nL."}, copies=2)
    svg = twice.svg(next(twice.solutions()), labels=False)
    assert [g.get("data-name") for g in pieces_of(svg)] == ["L", "L"]
    assert "<text" not in svg
    # A partial tiling: uncovered board cells are drawn pale.
    partial = tiling_svg(
        [("A", [(0, 0)])],
        lambda x: [
            (x[1], x[0]),
            (x[1] + 1, x[0]),
            (x[1] + 1, x[0] + 1),
            (x[1], x[0] + 1),
        ],
        board=[(0, 0), (0, 1)],
    )
    root = ET.fromstring(partial)
    assert [
        p.get("class")
        for p in root.iter(SVG + "path")
        if p.get("class") == "empty"
    ] == ["empty"]


def test_polycube_svg_is_one_group_per_piece():
    soma = Polycube("3x3x3", "soma")
    svg = soma.svg(next(soma.solutions()))
    groups = pieces_of(svg)
    assert sorted(g.get("data-name") for g in groups) == sorted("VLTZABP")
    # every piece is drawn with one square per cube, across the layers
    squares = sum(g.find(SVG + "path").get("d").count("M") for g in groups)
    assert squares == 27


def test_sudoku_svg():
    solution = sudoku.solve(PUZZLE)
    svg = grid_svg(solution, PUZZLE)
    root = ET.fromstring(svg)
    texts = list(root.iter(SVG + "text"))
    assert len(texts) == 81
    givens = [t for t in texts if t.get("class") == "given"]
    assert len(givens) == 17
    assert all(t.get("font-weight") == "bold" for t in givens)
    assert {t.get("fill") for t in texts if t.get("class") == "filled"} == {
        "#1f5fbf"
    }
    widths = sorted(
        {float(x.get("stroke-width")) for x in root.iter(SVG + "line")}
    )
    assert len(widths) == 2  # thin cell lines, thick box lines
    thick = [
        x
        for x in root.iter(SVG + "line")
        if float(x.get("stroke-width")) == widths[1]
    ]
    assert len(thick) == 2 * 4
    # a 6x6 grid has 2x3 boxes: 4 thick rows, 3 thick columns
    six = grid_svg(sudoku.solve("." * 36))
    lines = list(ET.fromstring(six).iter(SVG + "line"))
    assert len(lines) == 2 * 7
    with pytest.raises(ValueError, match="r1c1"):
        grid_svg(solution, "5" + PUZZLE[1:])


def test_cli_svg(tmp_path, capsys):
    out = tmp_path / "p.svg"
    assert dlx_main(["pentomino", "3x20", "--svg", str(out)]) == 0
    printed = capsys.readouterr().out
    svg = out.read_text()
    assert len(pieces_of(svg)) == 12
    # The picture is of the tiling printed.
    letters = printed.splitlines()
    for g in pieces_of(svg):
        assert g.get("data-name") in "".join(letters)
    assert dlx_main(["polycube", "soma", "--svg", str(out)]) == 0
    assert len(pieces_of(out.read_text())) == 7
    assert dlx_main(["pentomino", "3x20", "--count", "--svg", str(out)]) == 2
    assert sudoku_main(["solve", PUZZLE, "--svg", str(out)]) == 0
    assert len(list(ET.fromstring(out.read_text()).iter(SVG + "text"))) == 81
    assert sudoku_main(["solve", "--example", "--svg", str(out)]) == 0
    assert sudoku_main(["solve", PUZZLE, "--count", "--svg", str(out)]) == 2
    puzzles = tmp_path / "p.txt"
    puzzles.write_text(PUZZLE + "\n")
    assert sudoku_main(["solve", str(puzzles), "--svg", str(out)]) == 2
    capsys.readouterr()


# -- rendering --------------------------------------------------------------
def read_png(data: bytes):
    """(width, height, rows of RGB triples) of an 8-bit RGB or RGBA PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, chunks, header = 8, [], None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos : pos + 8])
        body = data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            chunks.append(body)
        pos += 12 + length
    width, height, depth, colour_type, _, _, interlace = header
    assert depth == 8 and colour_type in (2, 6) and interlace == 0
    step = 3 if colour_type == 2 else 4
    raw = zlib.decompress(b"".join(chunks))
    stride = width * step
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - step] if i >= step else 0
            b = previous[i]
            c = previous[i - step] if i >= step else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (
                    line[i]
                    + (a if pa <= pb and pa <= pc else b if pb <= pc else c)
                ) & 255
        rows.append(
            [tuple(line[x * step : x * step + 3]) for x in range(width)]
        )
        previous = line
    return width, height, rows


def coarse(rows, cells=(6, 20)):
    """Mean colour of each block of a coarse grid over the picture."""
    height, width = len(rows), len(rows[0])
    out = []
    for by in range(cells[0]):
        for bx in range(cells[1]):
            ys = range(by * height // cells[0], (by + 1) * height // cells[0])
            xs = range(bx * width // cells[1], (bx + 1) * width // cells[1])
            pixels = [rows[y][x] for y in ys for x in xs]
            out.append(
                tuple(
                    sum(p[k] for p in pixels) / len(pixels) for k in range(3)
                )
            )
    return out


def test_rendered_picture_looks_like_the_reference(tmp_path):
    browser = chromium()  # skips (or fails in CI) without one
    puzzle = Polyomino("3x20")
    svg = puzzle.svg(min(puzzle.solutions()))
    (tmp_path / "p.svg").write_text(svg)
    root = ET.fromstring(svg)
    width, height = int(root.get("width")), int(root.get("height"))
    shot = tmp_path / "p.png"
    subprocess.run(
        [
            browser,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            f"--window-size={width},{height}",
            f"--screenshot={shot}",
            (tmp_path / "p.svg").as_uri(),
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )
    got = read_png(shot.read_bytes())
    want = read_png((DATA / "pentomino-3x20.png").read_bytes())
    assert got[:2] == want[:2] == (width, height)
    a, b = coarse(got[2]), coarse(want[2])
    worst = max(max(abs(x - y) for x, y in zip(p, q)) for p, q in zip(a, b))
    assert worst < 24, f"rendering differs from the reference by {worst}"
    # And it is not blank: the blocks show many colours.
    assert len({tuple(round(v / 32) for v in p) for p in a}) > 8


@pytest.mark.parametrize(
    "command, board, pieces",
    [("polyiamond", "6x6", 12), ("polyhex", "4x7", 7)],
)
def test_planar_svg(tmp_path, capsys, command, board, pieces):
    out = tmp_path / "t.svg"
    assert dlx_main([command, board, "--svg", str(out)]) == 0
    svg = out.read_text()
    groups = pieces_of(svg)
    assert len(groups) == pieces
    # one polygon per cell: 6 triangles (4 hexagons) per piece
    cells = 6 if command == "polyiamond" else 4
    assert all(
        g.find(SVG + "path").get("d").count("M") == cells for g in groups
    )
    corners = 3 if command == "polyiamond" else 6
    first = groups[0].find(SVG + "path").get("d").split("M")[1]
    assert first.count("L") == corners - 1
    capsys.readouterr()


def test_readme_pictures_are_what_their_commands_draw(tmp_path, capsys):
    """The pictures of docs/problems.md are committed files: redrawing
    them with the commands the page names gives the same text."""
    page = (Path(__file__).parent.parent / "docs" / "problems.md").read_text()
    commands = [
        line.split()
        for line in page.splitlines()
        if "--svg docs/pictures/" in line
    ]
    assert len(commands) == 5
    for program, *argv in commands:
        target = argv[-1]
        argv[-1] = str(tmp_path / "drawn.svg")
        main = {"dlx": dlx_main, "sudoku": sudoku_main}[program]
        assert main(argv) == 0
        committed = Path(__file__).parent.parent / target
        assert (tmp_path / "drawn.svg").read_text() == committed.read_text()
        # and the page shows it (its links are relative to docs/)
        assert f"({target.removeprefix('docs/')})" in page
    capsys.readouterr()


def test_queens_svg(tmp_path, capsys):
    out = tmp_path / "q.svg"
    assert dlx_main(["queens", "8", "--svg", str(out)]) == 0
    rows = capsys.readouterr().out.splitlines()
    root = ET.fromstring(out.read_text())
    queens = [
        c for c in root.iter(SVG + "circle") if c.get("class") == "queen"
    ]
    assert len(queens) == 8
    # the picture shows the board printed: queen in row r at column c
    for r, (row, circle) in enumerate(zip(rows, queens)):
        column = row.split().index("Q")
        assert float(circle.get("cx")) == (column + 0.5) * 30
        assert float(circle.get("cy")) == (r + 0.5) * 30
        assert float(circle.get("r")) < 15  # inside its square
    assert dlx_main(["queens", "8", "--count", "--svg", str(out)]) == 2
    capsys.readouterr()


def square(cell):
    r, c = cell
    return [(c, r), (c + 1, r), (c + 1, r + 1), (c, r + 1)]


def numbers_in(d):
    import re

    values = [float(x) for x in re.findall(r"-?\d+(?:\.\d+)?", d)]
    return values[0::2], values[1::2]


def test_a_tiling_fits_its_canvas_and_labels_sit_on_their_pieces():
    # an L of three cells at (2, 5) and a bar of two below it, off origin
    pieces = [("L", [(2, 5), (3, 5), (3, 6)]), ("I", [(4, 5), (4, 6)])]
    svg = tiling_svg(pieces, square, scale=10, margin=4)
    root = ET.fromstring(svg)
    width, height = float(root.get("width")), float(root.get("height"))
    assert (width, height) == (2 * 10 + 8, 3 * 10 + 8)
    for path in root.iter(SVG + "path"):
        xs, ys = numbers_in(path.get("d"))
        assert min(xs) == 4 and max(xs) == width - 4
        assert min(ys) >= 4 and max(ys) <= height - 4
    labels = {
        t.text: (float(t.get("x")), float(t.get("y")))
        for t in root.iter(SVG + "text")
    }
    # each label at the centre of one of its piece's cells
    assert labels["L"] == (9, 19) and labels["I"] in [(9, 29), (19, 29)]


def test_an_empty_tiling_is_an_empty_canvas():
    root = ET.fromstring(tiling_svg([], square, margin=5))
    assert (root.get("width"), root.get("height")) == ("10", "10")
    assert not list(root.iter(SVG + "path"))


def test_sudoku_svg_geometry_on_2x3_boxes():
    """Each digit at its cell's centre, givens on a tinted square, lines
    across the whole grid, thick ones around the 2x3 boxes."""
    solution = sudoku.solve("1" + "." * 35)
    root = ET.fromstring(grid_svg(solution, "1" + "." * 35, cell=10))
    margin = 2.0
    assert (root.get("width"), root.get("height")) == ("64", "64")
    texts = list(root.iter(SVG + "text"))
    centres = {(float(t.get("x")), float(t.get("y"))) for t in texts}
    assert centres == {
        (margin + 10 * c + 5, margin + 10 * r + 5)
        for r in range(6)
        for c in range(6)
    }
    first = [t for t in texts if t.get("class") == "given"]
    assert [(t.get("x"), t.get("y"), t.text) for t in first] == [
        ("7", "7", "1")
    ]
    (ground,) = root.iter(SVG + "rect")
    assert (ground.get("x"), ground.get("y")) == ("2", "2")
    lines = list(root.iter(SVG + "line"))
    thick = max(float(x.get("stroke-width")) for x in lines)
    across = {
        (x.get("y1"), float(x.get("stroke-width")) == thick)
        for x in lines
        if x.get("y1") == x.get("y2")
    }
    down = {
        (x.get("x1"), float(x.get("stroke-width")) == thick)
        for x in lines
        if x.get("x1") == x.get("x2")
    }
    # box rows are 2 cells high, box columns 3 cells wide
    assert across == {(str(2 + 10 * k), k % 2 == 0) for k in range(7)}
    assert down == {(str(2 + 10 * k), k % 3 == 0) for k in range(7)}
    for x in lines:
        assert {x.get("x1"), x.get("x2")} <= {
            str(2 + 10 * k) for k in range(7)
        }
        assert (x.get("x1"), x.get("x2")) in [("2", "62")] or (
            x.get("y1"),
            x.get("y2"),
        ) == ("2", "62")
