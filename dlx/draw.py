"""Pictures as plain SVG text: tilings of any grid, and the helpers the
Sudoku drawing (``sudoku.draw``) and the web page share.

A tiling is drawn from one polygon per cell: the cells of a piece are
filled with the piece's colour, and a dark line is drawn along every cell
side that separates two pieces or a piece from the outside, never between
two cells of one piece, so the pieces read as whole shapes.  Each piece is
one ``<g class="piece" data-name="...">`` element (a polycube drawn layer
by layer is still one element), which is what tests and the web page
count and style.

Everything here is short string building with no dependency; coordinates
are rounded to two decimals so that the text is stable.
"""

from __future__ import annotations

import colorsys
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any
from xml.sax.saxutils import escape, quoteattr

__all__ = ["document", "colour", "tiling_svg", "fmt", "text", "line"]

Point = tuple[float, float]

BORDER = "#222"
EMPTY = "#f4f4f4"


def fmt(value: float) -> str:
    """A coordinate: at most two decimals, no trailing zeros."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def document(
    width: float, height: float, body: Iterable[str], title: str | None = None
) -> str:
    """A complete SVG document of the given size in user units."""
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" '
        f'width="{fmt(width)}" height="{fmt(height)}" '
        f'viewBox="0 0 {fmt(width)} {fmt(height)}">'
    )
    parts = [head]
    if title:
        parts.append(f"<title>{escape(title)}</title>")
    parts.extend(body)
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def colour(index: int) -> str:
    """A light, saturated colour; neighbouring indices differ in hue by
    the golden angle, so any few pieces get clearly different colours."""
    hue = (index * 0.381966) % 1.0
    lightness = (0.62, 0.72, 0.54)[index % 3]
    r, g, b = colorsys.hls_to_rgb(hue, lightness, 0.65)
    return f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}"


def text(
    x: float, y: float, content: str, size: float, **attrs: object
) -> str:
    """A centred text element."""
    extra = "".join(
        f" {k.replace('_', '-')}={quoteattr(str(v))}" for k, v in attrs.items()
    )
    return (
        f'<text x="{fmt(x)}" y="{fmt(y)}" font-size="{fmt(size)}" '
        f'text-anchor="middle" dominant-baseline="central" '
        f'font-family="sans-serif"{extra}>{escape(content)}</text>'
    )


def line(
    x1: float,
    y1: float,
    x2: float,
    y2: float,
    width: float,
    stroke: str = BORDER,
) -> str:
    """A line element from ``(x1, y1)`` to ``(x2, y2)``, ``width`` wide,
    in ``stroke`` (a CSS colour; the borders' by default)."""
    return (
        f'<line x1="{fmt(x1)}" y1="{fmt(y1)}" x2="{fmt(x2)}" '
        f'y2="{fmt(y2)}" stroke="{stroke}" stroke-width="{fmt(width)}" '
        f'stroke-linecap="square"/>'
    )


def _path(polygons: Iterable[Sequence[Point]]) -> str:
    return " ".join(
        "M" + " L".join(f"{fmt(x)},{fmt(y)}" for x, y in poly) + " Z"
        for poly in polygons
    )


def tiling_svg(
    pieces: Sequence[tuple[str, Iterable[Hashable]]],
    polygon: Callable[[Any], Sequence[Point]],
    board: Iterable[Hashable] = (),
    *,
    scale: float = 30,
    margin: float = 6,
    labels: bool = True,
    colours: dict[str, str] | None = None,
    part: Callable[[Any], Hashable] | None = None,
    title: str | None = None,
) -> str:
    """An SVG picture of a tiling.

    ``pieces``: (name, cells) for each placed piece; ``polygon(cell)``:
    the corners of a cell in grid units (y downwards); ``board``: cells
    to draw even when no piece covers them (pale, with their borders).
    ``colours``: piece name -> colour (default: by the order of first
    appearance of the names in sorted order).  ``part(cell)``: which
    drawing a cell is in (a layer of a polycube), to label a piece once
    in each (default: once).  Borders are drawn between
    cells of different pieces and around the outside only.
    """
    pieces = [(name, list(cells)) for name, cells in pieces]
    owner: dict[Hashable, int] = {}
    for i, (_, cells) in enumerate(pieces):
        for x in cells:
            owner[x] = i
    empty = [x for x in board if x not in owner]
    every = list(owner) + empty
    if not every:
        return document(2 * margin, 2 * margin, [], title)
    corners = {
        x: [(px * scale, py * scale) for px, py in polygon(x)] for x in every
    }
    xs = [p[0] for poly in corners.values() for p in poly]
    ys = [p[1] for poly in corners.values() for p in poly]
    dx, dy = margin - min(xs), margin - min(ys)
    corners = {
        x: [(px + dx, py + dy) for px, py in poly]
        for x, poly in corners.items()
    }
    if colours is None:
        names = sorted({name for name, _ in pieces})
        colours = {name: colour(i) for i, name in enumerate(names)}

    body = []
    for i, (name, cells) in enumerate(pieces):
        fill = colours.get(name, colour(i))
        # A thin stroke of the fill colour closes the hairlines that
        # anti-aliasing leaves between cells of one piece.
        group = [
            f'<g class="piece" data-name={quoteattr(name)}>',
            f'<path d="{_path(corners[x] for x in cells)}" '
            f'fill="{fill}" stroke="{fill}" stroke-width="0.6" '
            f'stroke-linejoin="round"/>',
        ]
        parts: dict[Hashable, list] = {}
        for x in cells:
            parts.setdefault(part(x) if part else 0, []).append(corners[x])
        for polys in parts.values() if labels else ():
            cx, cy = _label_point(polys)
            group.append(text(cx, cy, name, scale * 0.45, fill="#333"))
        group.append("</g>")
        body.append("".join(group))
    if empty:
        body.append(
            f'<path class="empty" d="{_path(corners[x] for x in empty)}" '
            f'fill="{EMPTY}"/>'
        )
    body.append(
        f'<path class="borders" d="{_borders(corners, owner)}" '
        f'fill="none" stroke="{BORDER}" '
        f'stroke-width="{fmt(max(1.5, scale / 12))}" '
        f'stroke-linecap="round"/>'
    )
    width = max(xs) + dx + margin
    height = max(ys) + dy + margin
    return document(width, height, body, title)


def _label_point(polygons: list[list[Point]]) -> Point:
    """The centre of the cell nearest the middle of all the cells."""
    centres = [
        (
            sum(p[0] for p in poly) / len(poly),
            sum(p[1] for p in poly) / len(poly),
        )
        for poly in polygons
    ]
    mx = sum(c[0] for c in centres) / len(centres)
    my = sum(c[1] for c in centres) / len(centres)
    return min(centres, key=lambda c: (c[0] - mx) ** 2 + (c[1] - my) ** 2)


def _borders(corners: dict, owner: dict) -> str:
    """Path data for the sides between different pieces (or the outside):
    a side is the pair of its end points, rounded, so that two cells that
    share it see the same key."""
    sides: dict[tuple, list] = {}
    for x, poly in corners.items():
        for a, b in zip(poly, poly[1:] + poly[:1]):
            key = tuple(
                sorted(
                    (
                        (round(a[0], 1), round(a[1], 1)),
                        (round(b[0], 1), round(b[1], 1)),
                    )
                )
            )
            sides.setdefault(key, []).append(owner.get(x, -1))
    drawn = [
        key
        for key, owners in sides.items()
        if len(owners) == 1 or len(set(owners)) > 1
    ]
    return " ".join(
        f"M{fmt(a[0])},{fmt(a[1])} L{fmt(b[0])},{fmt(b[1])}"
        for a, b in sorted(drawn)
    )
