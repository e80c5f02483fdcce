"""Sudoku rules as exact cover: the classic grid and its variants.

Every rule set keeps the option numbering of the classic encoding, option
``(row*n + col)*n + (digit - 1)`` is "put ``digit`` in cell ``(row, col)``",
so givens and decoding are the same for every variant; a variant only adds
items to the options.

Items, for an ``n x n`` grid:

* primary ``cell``: one per cell (it is filled);
* primary ``(unit, digit)``: one per *unit*, a set of ``n`` cells that must
  hold every digit once: the rows, the columns, the boxes (or the jigsaw
  regions that replace them), the two diagonals (``x``) and the extra
  windows (``windoku``);
* secondary ``(clique, digit)`` for the "anti" rules: a set of cells that
  may hold a digit at most once.  Anti-king uses the 2x2 squares (any two
  cells a king's move apart lie in one of them, and a 2x2 square is a
  clique of king moves, so one item per square and digit says it all);
  anti-knight uses the pairs of cells a knight's move apart (knight moves
  form no triangles, so pairs are the cliques).  Squares and pairs whose
  cells already share a row, column or box add nothing and are left out.

The classic rules give exactly the items of ``sudoku.solver`` (cells, rows,
columns, boxes, in that order), so the classic search is unchanged.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import numpy as np

from dlx import ExactCover
from dlx.shorten import shorten

from .constants import RULES
from .grid import ALPHABET, InvalidPuzzle

ALIASES = {
    "irregular": "jigsaw",
    "diagonal": "x",
    "sudoku-x": "x",
    "hyper": "windoku",
    "antiknight": "anti-knight",
    "antiking": "anti-king",
    "no-knight": "anti-knight",
    "no-king": "anti-king",
}
CLASSIC = ("", "classic", "none", "standard")

# Above this many matrix entries a problem is built option by option
# instead of from a dense 0/1 matrix.
_DENSE_LIMIT = 4_000_000


class InvalidVariant(ValueError):
    """An unknown variant, or a jigsaw region map that does not fit."""


class Variant:
    """A set of Sudoku rules beyond rows, columns and boxes.

    ``Variant("x+anti-knight")``; rules are ``jigsaw``, ``x``,
    ``windoku``, ``anti-knight``, ``anti-king`` (aliases: ``irregular``,
    ``diagonal``, ``hyper``), joined by ``+`` or ``,``.  ``jigsaw`` needs
    ``regions``: a grid of region letters (text, one row a line or all on
    one line; nested lists; an array), ``n`` regions of ``n`` cells each,
    which replace the boxes.  ``Variant("")`` is classic Sudoku.

    Args:
        rules: Rule names joined by ``+`` or ``,`` (or a sequence of
            them, or a ``Variant``).
        regions: The jigsaw's region map (only with ``jigsaw``).

    Raises:
        InvalidVariant: An unknown rule, a jigsaw without a region map
            (or a map without a jigsaw), or a bad map.
    """

    __slots__ = ("rules", "regions", "size")
    rules: tuple[str, ...]
    regions: tuple[int, ...] | None
    size: int | None

    def __init__(self, rules: Any = "", regions: Any = None):
        if isinstance(rules, Variant):
            rules, regions = (
                rules.rules,
                (rules.regions if regions is None else regions),
            )
        self.rules = _parse_rules(rules)
        if "jigsaw" in self.rules:
            if regions is None:
                raise InvalidVariant(
                    "the jigsaw variant needs a region map: a grid of region "
                    "letters (regions=... or --regions FILE)"
                )
            self.regions = _parse_regions(regions)
            self.size = int(len(self.regions) ** 0.5)
        else:
            if regions is not None:
                raise InvalidVariant(
                    "a region map goes with the jigsaw variant only"
                )
            self.regions = None
            self.size = None

    @property
    def name(self) -> str:
        """The rules as text, e.g. ``x+anti-king`` (``classic`` if none)."""
        return "+".join(self.rules) or "classic"

    def __bool__(self) -> bool:
        return bool(self.rules)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Variant):
            return NotImplemented
        return (self.rules, self.regions) == (other.rules, other.regions)

    def __hash__(self) -> int:
        return hash((self.rules, self.regions))

    def __repr__(self) -> str:
        if self.regions is None:
            return f"Variant({self.name!r})"
        letters = "".join(
            ALPHABET[r] if r < len(ALPHABET) else "?" for r in self.regions
        )
        return f"Variant({self.name!r}, regions={letters!r})"

    def fits(self, n: int) -> None:
        """Raise ``InvalidPuzzle`` unless the rules work on an ``n x n``
        grid (the puzzle does not fit its region map).

        Args:
            n: The grid's side.

        Raises:
            InvalidPuzzle: The region map is for another size.
        """
        if self.size is not None and self.size != n:
            raise InvalidPuzzle(
                f"the puzzle is {n}x{n} but the region map is "
                f"{self.size}x{self.size}"
            )

    # -- the units and cliques, as arrays of cell numbers --------------------
    def units(self, box: tuple[int, int]) -> tuple[list[str], np.ndarray]:
        """``(kinds, cells)``: every unit of ``n`` cells that must hold
        each digit once, as rows of ``cells`` (shape ``(units, n)``) with
        ``kinds[u]`` naming it (``row``, ``column``, ``box``, ``region``,
        ``diagonal``, ``window``).

        Args:
            box: The grid's box shape ``(rows, cols)``.

        Returns:
            The units' kinds and their cells.
        """
        rows, cols = box
        n = rows * cols
        self.fits(n)
        grid = np.arange(n * n).reshape(n, n)
        kinds = ["row"] * n + ["column"] * n
        groups = [grid, grid.T]
        if self.regions is None:
            boxes = grid.reshape(n // rows, rows, n // cols, cols)
            groups.append(boxes.swapaxes(1, 2).reshape(n, n))
            kinds += ["box"] * n
        else:
            labels = np.asarray(self.regions)
            groups.append(np.argsort(labels, kind="stable").reshape(n, n))
            kinds += ["region"] * n
        if "x" in self.rules:
            groups.append(
                np.stack([np.diagonal(grid), np.diagonal(grid[:, ::-1])])
            )
            kinds += ["diagonal"] * 2
        if "windoku" in self.rules:
            found = windows(box)
            groups.append(found.reshape(-1, n))
            kinds += ["window"] * len(found)
        return kinds, np.concatenate(groups).astype(np.int64)

    def cliques(self, box: tuple[int, int]) -> tuple[list[str], np.ndarray]:
        """``(kinds, cells)`` of the secondary cliques (``-1`` padded rows
        of cell numbers): cells that may hold a digit at most once and do
        not already share a unit.  ``kinds``: ``king``, ``knight``.

        Args:
            box: The grid's box shape ``(rows, cols)``.

        Returns:
            The cliques' kinds and their cells.
        """
        rows, cols = box
        n = rows * cols
        kinds: list[str] = []
        parts = []
        region = self.region_of(box)
        if "anti-king" in self.rules:
            r, c = np.mgrid[0 : n - 1, 0 : n - 1]
            square = np.stack(
                [
                    r * n + c,
                    r * n + c + 1,
                    (r + 1) * n + c,
                    (r + 1) * n + c + 1,
                ],
                axis=-1,
            ).reshape(-1, 4)
            keep = ~(region[square] == region[square[:, :1]]).all(axis=1)
            parts.append(square[keep])
            kinds += ["king"] * int(keep.sum())
        if "anti-knight" in self.rules:
            pairs = []
            for dr, dc in ((1, 2), (2, 1), (1, -2), (2, -1)):
                r, c = np.mgrid[0:n, 0:n]
                r2, c2 = r + dr, c + dc
                ok = (r2 < n) & (c2 >= 0) & (c2 < n)
                pairs.append(
                    np.stack([(r * n + c)[ok], (r2 * n + c2)[ok]], axis=1)
                )
            pair = np.concatenate(pairs)
            pair = pair[np.lexsort((pair[:, 1], pair[:, 0]))]
            keep = region[pair[:, 0]] != region[pair[:, 1]]
            padded = np.full((int(keep.sum()), 4), -1, np.int64)
            padded[:, :2] = pair[keep]
            parts.append(padded)
            kinds += ["knight"] * int(keep.sum())
        if not parts:
            return kinds, np.zeros((0, 4), np.int64)
        return kinds, np.concatenate(parts).astype(np.int64)

    def region_of(self, box: tuple[int, int]) -> np.ndarray:
        """The box (or jigsaw region) number of every cell, flat.

        Args:
            box: The grid's box shape ``(rows, cols)``.

        Returns:
            ``n * n`` region numbers, in reading order.
        """
        rows, cols = box
        n = rows * cols
        if self.regions is not None:
            return np.asarray(self.regions, np.int64)
        r, c = np.divmod(np.arange(n * n), n)
        return (r // rows) * rows + c // cols


def windows(box: tuple[int, int]) -> np.ndarray:
    """The extra ``rows x cols`` windows of Windoku (hyper-Sudoku), as
    ``(windows, rows, cols)`` cell numbers: boxes set one cell in from the
    edge and one cell apart (for 9x9 the four at rows and columns 2-4 and
    6-8)."""
    rows, cols = box
    n = rows * cols
    starts_r = range(1, n - rows, rows + 1)
    starts_c = range(1, n - cols, cols + 1)
    grid = np.arange(n * n).reshape(n, n)
    found = [
        grid[r : r + rows, c : c + cols] for r in starts_r for c in starts_c
    ]
    if not found:
        raise InvalidVariant(
            f"windoku needs a grid with room for extra "
            f"{rows}x{cols} windows; a {n}x{n} grid has none"
        )
    return np.stack(found)


def _parse_rules(rules: Any) -> tuple[str, ...]:
    if rules is None:
        return ()
    if isinstance(rules, str):
        words = rules.replace(",", "+").split("+")
    elif isinstance(rules, (list, tuple, set, frozenset)):
        words = list(rules)
    else:
        raise TypeError(
            f"variant must be a string such as 'x+anti-knight' "
            f"or a Variant, got {type(rules).__name__}"
        )
    found = set()
    for word in words:
        if not isinstance(word, str):
            raise TypeError(f"variant rules are strings, got {shorten(word)}")
        key = word.strip().lower().replace("_", "-").replace(" ", "-")
        key = ALIASES.get(key, key)
        if key in CLASSIC:
            if len(words) == 1:  # "", "classic", "standard" alone
                continue
            if not key:
                raise InvalidVariant(
                    f"empty rule in {shorten(rules)}: "
                    f"rules are joined by one +, e.g. "
                    f"x+anti-king"
                )
            raise InvalidVariant(
                f"{shorten(word.strip())} means no extra "
                f"rule; it cannot be joined with others "
                f"({shorten(rules)})"
            )
        if key not in RULES:
            raise InvalidVariant(
                f"unknown variant {shorten(word.strip())}; "
                f"choose from {', '.join(RULES)} (join "
                f"several with +)"
            )
        if key in found:
            raise InvalidVariant(
                f"the rule {shorten(key)} twice in {shorten(rules)}"
            )
        found.add(key)
    return tuple(rule for rule in RULES if rule in found)


def _parse_regions(source: Any) -> tuple[int, ...]:
    """A region map (text of letters, nested lists, an array) as a tuple of
    region numbers ``0..n-1`` in order of first appearance."""
    if isinstance(source, str):
        symbols = [
            ch
            for line in source.splitlines()
            if not _is_rule(line)
            for ch in line
            if not ch.isspace() and ch not in "|,"
        ]
    else:
        try:
            array = np.asarray(source)
        except Exception:  # noqa: BLE001 - any unreadable input
            raise InvalidVariant(
                f"cannot read a region map from {type(source).__name__}"
            ) from None
        if array.dtype == object:
            raise InvalidVariant(
                "a region map must be a square grid of region labels"
            )
        symbols = [str(v) for v in array.ravel().tolist()]
    count = len(symbols)
    n = int(round(count**0.5))
    if n * n != count or n < 1:
        raise InvalidVariant(
            f"the region map has {count} cells, which is not a square grid"
        )
    first: dict[str, int] = {}
    labels = tuple(first.setdefault(s, len(first)) for s in symbols)
    if len(first) != n:
        raise InvalidVariant(
            f"the {n}x{n} region map has {len(first)} "
            f"regions; it needs {n} regions of {n} cells"
        )
    sizes = np.bincount(labels, minlength=n)
    for symbol, k in first.items():
        if sizes[k] != n:
            cell = labels.index(k)
            raise InvalidVariant(
                f"region {shorten(symbol)} (first at r{cell // n + 1}c"
                f"{cell % n + 1}) has {sizes[k]} cells; each of the {n} "
                f"regions needs {n}"
            )
    return labels


def _is_rule(line: str) -> bool:
    """A drawn separator line such as ``---+---``."""
    stripped = line.strip()
    return bool(stripped) and set(stripped) <= set("-=+| \t")


# -- the exact-cover problem --------------------------------------------------
@functools.lru_cache(maxsize=64)
def option_items(
    box: tuple[int, int], variant: Variant | None = None
) -> tuple[np.ndarray, int, list]:
    """``(items, nprimary, labels)``: the item numbers of every option as
    an ``(n**3, width)`` array padded with ``-1`` (primary items first,
    then secondary), how many items are primary, and a name for every
    item (for error messages)."""
    rows, cols = box
    n = rows * cols
    variant = variant or Variant()
    kinds, units = variant.units(box)
    ckinds, cliques = variant.cliques(box)
    cell_units: list[list[int]] = [[] for _ in range(n * n)]
    for u, members in enumerate(units):
        for cell in members:
            cell_units[cell].append(u)
    cell_cliques: list[list[int]] = [[] for _ in range(n * n)]
    for q, members in enumerate(cliques):
        for cell in members[members >= 0]:
            cell_cliques[cell].append(q)
    width_u = max(len(u) for u in cell_units)
    width_q = max((len(q) for q in cell_cliques), default=0)
    nprimary = n * n + len(units) * n
    items = np.full((n * n, n, 1 + width_u + width_q), -1, np.int64)
    digit = np.arange(n)
    for cell in range(n * n):
        items[cell, :, 0] = cell
        for k, u in enumerate(cell_units[cell]):
            items[cell, :, 1 + k] = n * n + u * n + digit
        for k, q in enumerate(cell_cliques[cell]):
            items[cell, :, 1 + width_u + k] = nprimary + q * n + digit
    labels = (
        [f"r{c // n + 1}c{c % n + 1}" for c in range(n * n)]
        + [f"{kind} {u + 1}" for u, kind in enumerate(kinds) for _ in range(n)]
        + [f"{kind} move" for kind in ckinds for _ in range(n)]
    )
    return items.reshape(n**3, -1), nprimary, labels


@functools.lru_cache(maxsize=64)  # jigsaw maps are many: keep the recent
def problem(
    box: tuple[int, int], variant: Variant | None = None
) -> ExactCover:
    """The exact-cover problem of an empty grid under ``variant``; cached.
    Option ``(row*n + col)*n + digit - 1`` puts ``digit`` at
    ``(row, col)``."""
    items, nprimary, labels = option_items(box, variant)
    nitems = len(labels)
    if items.size * nitems <= _DENSE_LIMIT * 4:
        matrix = np.zeros((len(items), nitems), np.uint8)
        rows_of, cols_of = np.nonzero(items >= 0)
        matrix[rows_of, items[rows_of, cols_of]] = 1
        return ExactCover.from_matrix(matrix, secondary=nitems - nprimary)
    exact = ExactCover(range(nprimary), range(nprimary, nitems))
    exact.add_options([row[row >= 0].tolist() for row in items])
    return exact


def as_variant(variant: Any) -> Variant | None:
    """``variant`` (None, a string or a ``Variant``) as a Variant, or None
    for classic rules."""
    if variant is None:
        return None
    found = variant if isinstance(variant, Variant) else Variant(variant)
    return found or None


# -- checks -------------------------------------------------------------------
def clashes(
    cells: np.ndarray, box: tuple[int, int], variant: Variant
) -> np.ndarray:
    """For a ``(B, n, n)`` stack: True where two givens break a rule of
    ``variant`` (share a digit in a unit or a clique)."""
    items, _, labels = option_items(box, variant)
    batch, n, _ = cells.shape
    flat = cells.reshape(batch, n * n)
    b, cell = np.nonzero(flat)
    taken = items[cell * n + flat[b, cell] - 1]
    owner = np.repeat(b, taken.shape[1])
    keep = taken.ravel() >= 0
    keys = owner[keep] * len(labels) + taken.ravel()[keep]
    seen = np.bincount(keys, minlength=batch * len(labels))
    return np.asarray((seen.reshape(batch, len(labels)) > 1).any(axis=1))


@dataclass(frozen=True)
class Clash:
    """Two givens of an ``n x n`` grid that break a rule: their ``cells``
    (0-based ``(row, column)``, in reading order), the ``digit`` both
    hold, and ``how`` they clash (``"in the same row"``, ``"a knight's
    move apart"``); ``message`` is the sentence."""

    cells: tuple[tuple[int, int], tuple[int, int]]
    digit: int
    how: str
    n: int

    @property
    def message(self) -> str:
        (r1, c1), (r2, c2) = self.cells
        shown = (
            ALPHABET[self.digit - 1] if self.n <= len(ALPHABET) else self.digit
        )
        return (
            f"givens conflict: r{r1 + 1}c{c1 + 1} and r{r2 + 1}c{c2 + 1} "
            f"both hold {shown} {self.how}"
        )


def first_clash(
    cells: np.ndarray, box: tuple[int, int], variant: Variant
) -> Clash | None:
    """The first two givens of an ``n x n`` grid that break a rule of
    ``variant``, or None."""
    items, _, labels = option_items(box, variant)
    n = cells.shape[0]
    owner: dict[int, int] = {}
    for cell in np.flatnonzero(cells.ravel()).tolist():
        digit = int(cells.ravel()[cell])
        for item in items[cell * n + digit - 1].tolist():
            if item < 0:
                continue
            if item in owner:
                other = owner[item]
                where = labels[item]
                if where.endswith("move"):
                    how = f"a {where.split()[0]}'s move apart"
                else:
                    how = f"in the same {where.rsplit(' ', 1)[0]}"
                return Clash(
                    (divmod(other, n), divmod(cell, n)), digit, how, n
                )
            owner[item] = cell
    return None


def clash_message(
    cells: np.ndarray, box: tuple[int, int], variant: Variant
) -> str | None:
    """One sentence naming the first two givens of an ``n x n`` grid that
    break a rule of ``variant`` (``first_clash``), or None."""
    found = first_clash(cells, box, variant)
    return None if found is None else found.message


def broken_rule(
    solution: np.ndarray, box: tuple[int, int], variant: Variant | None = None
) -> str | None:
    """Why a full ``n x n`` grid breaks the rules, or None when it keeps
    them all (every unit then holds each digit once: ``n`` cells, no
    repeat)."""
    if not solution.all():
        return "the grid is not full"
    return clash_message(solution, box, variant or Variant())


__all__ = [
    "Variant",
    "InvalidVariant",
    "RULES",
    "problem",
    "option_items",
    "as_variant",
    "clashes",
    "Clash",
    "first_clash",
    "clash_message",
    "broken_rule",
    "windows",
]
