"""Polyomino packing (pentominoes and friends) as exact cover.

Glossary: a *cell* is a ``(row, col)`` pair; a *board* is a set of cells;
a *shape* is a set of cells moved so that its smallest row and column are
0; a *piece* is a named shape with its *orientations* (the distinct shapes
it takes under the 8 rotations and reflections of the square, or only the
4 rotations when it is *one-sided*); a *placement* is a piece on a set of
board cells; a *tiling* is a set of placements covering the board.

Items: one per piece (one per copy when a piece is used several times),
then one per board cell, all primary.  Options: one per placement,
``<piece> <cell> <cell> ...``.  Cells are named ``<row><col>`` with one
character per coordinate (``0-9a-zA-Z``), or ``r<row>c<col>`` on boards
wider or taller than 62.

Boards: ``"6x10"`` (rows x columns), or ASCII art with ``.`` for a cell and
``#`` (or a blank) for a hole::

    ........
    ........
    ........
    ...##...
    ...##...
    ........
    ........
    ........

Pieces: ``"pentominoes"`` (F I L N P T U V W X Y Z), ``"tetrominoes"``
(I L O S T), ``"hexominoes"`` (the 35 free hexominoes, named ``h01`` to
``h35`` in increasing order of their canonical form; see
``free_polyominoes``), or ASCII shapes: each character other than ``.``
and blanks is a cell of the piece named by that character, several pieces
may share a picture, and pictures are separated by blank lines.

Counting up to symmetry.  The symmetries of a problem are the rotations
and reflections of the plane that map the board onto itself and the set of
pieces onto itself (a piece may turn into another one, e.g. one-sided
mirror twins).  Two tilings are the same "up to symmetry" when one of
these maps one onto the other; ``count(distinct=True)`` counts the orbits.
The rule, exact for every board and piece set:

1. Pick a piece ``p`` used once that every symmetry maps to itself (the
   one with the fewest placement orbits).  Split its placements into
   orbits under the symmetry group ``G`` and keep one placement ``r`` of
   each orbit.  Orbits of tilings correspond one to one to the pairs
   (``r``, orbit of ``Stab(r)`` on the tilings with ``p`` at ``r``).
2. When ``Stab(r)`` is trivial (the usual case) no two tilings with ``p``
   at such an ``r`` are images of each other, so one DLX search over the
   kept placements counts their orbits exactly (for 6x10 this is Knuth's
   rule of keeping the X in one quarter of the board, and
   ``distinct_problem()`` returns that search as an ``ExactCover``).
3. When ``r`` is itself symmetric (the X centred on the middle row of a
   5x12 box), the tilings with ``p`` at ``r`` are listed and their
   ``Stab(r)``-orbits counted by Burnside's lemma: each tiling adds
   (number of elements of ``Stab(r)`` fixing it) / ``|Stab(r)|``;
   ``solutions()`` yields the least tiling of each of those orbits.
4. If no piece fits step 1, every tiling is listed and Burnside's lemma is
   applied with the whole group (exact, but slow on large problems).

``count(distinct=False)`` counts every tiling (a piece used k times counts
each tiling once, not k! times): from the same searches, each tiling of
step 2 stands for ``|G|`` tilings and each of step 3 for
``|G| / |Stab(r)|``.  ``count(distinct=False, exhaustive=True)`` searches
every placement with no symmetry breaking; the tests check that both
agree.
"""

from __future__ import annotations

import math
import re
import weakref
from dataclasses import dataclass
from typing import Iterable, Iterator, Mapping, Sequence, Union

from ..formats import text_lines
from ..problem import ExactCover, Stats

__all__ = ["Polyomino", "polyomino", "tiling_of", "parse_board",
           "parse_shapes", "piece_set", "orientations", "normalize",
           "free_polyominoes", "render", "PIECE_SET_NAMES"]

Cell = tuple[int, int]
Shape = tuple[Cell, ...]
Placement = tuple[str, tuple[Cell, ...]]
Tiling = tuple[Placement, ...]

_DIGITS = ("0123456789abcdefghijklmnopqrstuvwxyz"
           "ABCDEFGHIJKLMNOPQRSTUVWXYZ")

_PENTOMINOES = """
.FF  I  LLLL  NN..  PP  TTT  U.U  V..  W..  .X.  YYYY  ZZ.
FF.  I  L...  .NNN  PP  .T.  UUU  V..  WW.  XXX  .Y..  .Z.
.F.  I              P.  .T.       VVV  .WW  .X.        .ZZ
     I
     I
"""

_TETROMINOES = """
IIII  OO  TTT  LLL  .SS
      OO  .T.  L..  SS.
"""

PIECE_SET_NAMES = ("pentominoes", "tetrominoes", "hexominoes")


# -- geometry -----------------------------------------------------------
def _transform(cell: Cell, k: int) -> Cell:
    """Symmetry ``k`` of the square (0-3: rotations by k quarter turns,
    4-7: the same followed by a reflection) applied to ``cell``."""
    r, c = cell
    for _ in range(k % 4):
        r, c = c, -r
    return (r, -c) if k >= 4 else (r, c)


def normalize(cells: Iterable[Cell]) -> Shape:
    """The cells moved so that the smallest row and column are 0, sorted."""
    cells = list(cells)
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    return tuple(sorted((r - r0, c - c0) for r, c in cells))


def orientations(shape: Iterable[Cell], one_sided: bool = False
                 ) -> list[Shape]:
    """The distinct orientations of a shape (rotations, and reflections
    unless ``one_sided``), in order of first appearance."""
    shape = list(shape)
    seen: dict[Shape, None] = {}
    for k in range(4 if one_sided else 8):
        seen.setdefault(normalize(_transform(x, k) for x in shape))
    return list(seen)


def _canonical(shape: Iterable[Cell]) -> Shape:
    return min(orientations(shape))


def free_polyominoes(n: int) -> list[Shape]:
    """The free polyominoes of ``n`` cells, each by its canonical form (the
    smallest of its orientations, comparing sorted cell lists), sorted."""
    if n < 1:
        raise ValueError(f"n must be positive, got {n}")
    shapes = {((0, 0),)}
    for _ in range(n - 1):
        grown = set()
        for shape in shapes:
            cells = set(shape)
            for r, c in shape:
                for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                    new = (r + dr, c + dc)
                    if new not in cells:
                        grown.add(_canonical(cells | {new}))
        shapes = grown
    return sorted(shapes)


# -- parsing --------------------------------------------------------------
#: The largest board ``parse_board`` builds from a size like ``"RxC"``.
MAX_BOARD_CELLS = 1_000_000


def _board_size(spec: str) -> tuple[int, int] | None:
    """(rows, columns) of a board given as ``"RxC"``, else None."""
    size = re.fullmatch(r"\s*(\d+)\s*[xX]\s*(\d+)\s*", spec)
    return (int(size.group(1)), int(size.group(2))) if size else None


def parse_board(spec: Union[str, Iterable[Cell]]) -> frozenset:
    """A board from ``"RxC"``, from ASCII art (``.`` cell, ``#`` or blank
    hole), or from an iterable of cells; moved to start at row/col 0."""
    if not isinstance(spec, str):
        cells = [tuple(x) for x in spec]
        if not cells:
            raise ValueError("the board has no cells")
        return frozenset(normalize(cells))
    size = _board_size(spec)
    if size:
        rows, cols = size
        if rows < 1 or cols < 1:
            raise ValueError(f"board {spec.strip()!r} has no cells")
        if rows * cols > MAX_BOARD_CELLS:
            raise ValueError(f"board {spec.strip()!r} has {rows * cols} "
                             f"cells; at most {MAX_BOARD_CELLS} are "
                             f"supported")
        return frozenset((r, c) for r in range(rows) for c in range(cols))
    cells = []
    for r, line in enumerate(text_lines(spec)):
        for c, ch in enumerate(line):
            if ch == ".":
                cells.append((r, c))
            elif ch not in "# \t":
                raise ValueError(f"board line {r + 1}, column {c + 1}: "
                                 f"{ch!r} is neither '.' (a cell) nor '#' "
                                 f"(a hole)")
    if not cells:
        if "\n" not in spec and "." not in spec:
            raise ValueError(f"board {spec!r} is neither a size like '6x10' "
                             f"nor ASCII art")
        raise ValueError("the board has no cells ('.')")
    return frozenset(normalize(cells))


def parse_shapes(text: str) -> dict[str, Shape]:
    """Pieces drawn in ASCII: every character other than ``.`` and blanks
    is a cell of the piece it names; pictures are separated by blank
    lines and each piece is drawn once."""
    pieces: dict[str, list[Cell]] = {}
    done: set[str] = set()
    picture: set[str] = set()
    for r, line in enumerate(text_lines(text)):
        if not line.strip():
            done |= picture
            picture = set()
            continue
        for c, ch in enumerate(line):
            if ch in ". \t":
                continue
            if ch in done:
                raise ValueError(f"shapes line {r + 1}: piece {ch!r} is "
                                 f"drawn in two pictures")
            picture.add(ch)
            pieces.setdefault(ch, []).append((r, c))
    if not pieces:
        raise ValueError("no piece drawn")
    return {name: normalize(cells) for name, cells in pieces.items()}


def piece_set(name: str) -> dict[str, Shape]:
    """A named set of pieces: pentominoes, tetrominoes or hexominoes."""
    key = name.strip().lower()
    if key in ("pentominoes", "pentomino", "5"):
        return parse_shapes(_PENTOMINOES)
    if key in ("tetrominoes", "tetromino", "4"):
        return parse_shapes(_TETROMINOES)
    if key in ("hexominoes", "hexomino", "6"):
        return {f"h{k:02d}": shape
                for k, shape in enumerate(free_polyominoes(6), start=1)}
    raise ValueError(f"unknown piece set {name!r}; choose one of "
                     f"{', '.join(PIECE_SET_NAMES)}")


def _shape_from_text(name: str, text: str) -> Shape:
    """One piece drawn in ASCII: every character other than ``.`` and
    blanks is one of its cells (``parse_shapes`` with all of them read as
    one piece, and blank lines kept as empty rows)."""
    drawing = "\n".join(
        "".join(ch if ch in ". \t" else "#" for ch in line)
        if line.strip() else "." for line in text_lines(text))
    try:
        (shape,) = parse_shapes(drawing).values()
    except ValueError:
        raise ValueError(f"piece {name!r}: the drawing has no cell") from None
    return shape


def _pieces_from(spec) -> dict[str, Shape]:
    """Pieces from a set name, from ASCII shapes (text with a newline), or
    from a mapping name -> shape (ASCII text or iterable of cells)."""
    if isinstance(spec, str):
        return parse_shapes(spec) if "\n" in spec else piece_set(spec)
    pieces = {}
    for name, shape in dict(spec).items():
        name = str(name)
        if isinstance(shape, str):
            pieces[name] = _shape_from_text(name, shape)
        else:
            cells = [tuple(x) for x in shape]
            if not cells:
                raise ValueError(f"piece {name!r} has no cell")
            pieces[name] = normalize(cells)
    if not pieces:
        raise ValueError("no pieces")
    return pieces


# -- symmetries -----------------------------------------------------------
@dataclass(frozen=True)
class Symmetry:
    """A symmetry of a problem: how it moves cells and renames pieces."""

    k: int  # which of the 8 symmetries of the square (see _transform)
    cell_map: Mapping[Cell, Cell]
    piece_map: Mapping[str, str]

    def placement(self, placement: Placement) -> Placement:
        name, cells = placement
        return (self.piece_map[name],
                tuple(sorted(self.cell_map[x] for x in cells)))

    def tiling(self, tiling: Tiling) -> Tiling:
        return tuple(sorted(self.placement(x) for x in tiling))


def _board_maps(board: frozenset) -> list[tuple[int, dict]]:
    """The symmetries of the square that map ``board`` onto itself, each
    with the cell mapping it induces."""
    target = normalize(board)
    found = []
    for k in range(8):
        image = [_transform(x, k) for x in board]
        if normalize(image) != target:
            continue
        r0 = min(r for r, _ in image)
        c0 = min(c for _, c in image)
        found.append((k, {x: (y[0] - r0, y[1] - c0)
                          for x, y in zip(board, image)}))
    return found


def _piece_map(k: int, shapes: dict[str, frozenset],
               copies: dict[str, int]) -> dict[str, str] | None:
    """How symmetry ``k`` renames the pieces, or None if it does not map
    the set of pieces (with their orientations and counts) onto itself."""
    mapping = {}
    for name, orients in shapes.items():
        image = frozenset(normalize(_transform(x, k) for x in o)
                          for o in orients)
        if image == orients:
            mapping[name] = name
            continue
        twins = [q for q, o in shapes.items() if o == image]
        if len(twins) != 1 or copies[twins[0]] != copies[name]:
            return None
        mapping[name] = twins[0]
    if len(set(mapping.values())) != len(mapping):
        return None
    return mapping


# -- the problem ------------------------------------------------------------
def _cell_namer(board: frozenset):
    rows = 1 + max(r for r, _ in board)
    cols = 1 + max(c for _, c in board)
    if rows <= len(_DIGITS) and cols <= len(_DIGITS):
        return lambda x: _DIGITS[x[0]] + _DIGITS[x[1]]
    return lambda x: f"r{x[0]}c{x[1]}"


def _copies_from(copies, names) -> dict[str, int]:
    if isinstance(copies, int):
        counts = {name: copies for name in names}
    else:
        counts = {name: 1 for name in names}
        for name, k in dict(copies).items():
            if name not in counts:
                raise ValueError(f"copies: no piece named {name!r}")
            counts[name] = k
    for name, k in counts.items():
        if not isinstance(k, int) or k < 1:
            raise ValueError(f"piece {name!r}: the number of copies must be "
                             f"a positive integer, got {k!r}")
    return counts


class Polyomino:
    """Pieces to pack into a board, as an exact-cover problem.

    >>> puzzle = Polyomino("3x20")
    >>> puzzle.count(), puzzle.count(distinct=False)
    (2, 8)
    >>> print(puzzle.render(next(puzzle.solutions())))  # doctest: +SKIP

    ``problem`` is the ``ExactCover`` with every placement; ``solutions``
    and ``count`` work up to symmetry by default (see the module doc).
    """

    def __init__(self, board, pieces="pentominoes", *,
                 one_sided: bool = False, copies=1):
        self.shapes = _pieces_from(pieces)
        self.one_sided = one_sided
        self.copies = _copies_from(copies, self.shapes)
        size = _board_size(board) if isinstance(board, str) else None
        if size:  # before listing the cells of a board that may be huge
            self._check_areas(size[0] * size[1])
        self.board = parse_board(board)
        self.orientations = {name: orientations(shape, one_sided)
                             for name, shape in self.shapes.items()}
        self._check_areas(len(self.board))
        self._cell_name = _cell_namer(self.board)
        self._piece_items = self._name_piece_items()
        self.placements: list[Placement] = self._find_placements()
        self.symmetries: list[Symmetry] = self._find_symmetries()
        self.stats = Stats()
        self._count_options: dict = {}
        # problem -> (placement of each option, copy of each option)
        self._tables = weakref.WeakKeyDictionary()
        self.problem = self._build(range(len(self.placements)))

    # -- construction -------------------------------------------------
    def _check_areas(self, board_area: int):
        area = sum(len(shape) * self.copies[name]
                   for name, shape in self.shapes.items())
        if area != board_area:
            raise ValueError(f"the pieces have {area} cells but the board "
                             f"has {board_area}; they must be equal")

    def _name_piece_items(self) -> dict[str, list[str]]:
        items = {}
        for name, k in self.copies.items():
            items[name] = [name] if k == 1 else [f"{name}.{i}"
                                                 for i in range(1, k + 1)]
        cells = {self._cell_name(x) for x in self.board}
        for name, names in items.items():
            for item in names:
                if item in cells or any(ch.isspace() for ch in item):
                    raise ValueError(f"piece name {name!r} clashes with a "
                                     f"cell name or has a blank")
        return items

    def _find_placements(self) -> list[Placement]:
        board = self.board
        placements = []
        for name, orients in self.orientations.items():
            for shape in orients:
                anchor = shape[0]
                for r, c in sorted(board):
                    dr, dc = r - anchor[0], c - anchor[1]
                    cells = tuple((a + dr, b + dc) for a, b in shape)
                    if all(x in board for x in cells):
                        placements.append((name, cells))
        return placements

    def _find_symmetries(self) -> list[Symmetry]:
        orient_sets = {name: frozenset(o)
                       for name, o in self.orientations.items()}
        found = []
        for k, cell_map in _board_maps(self.board):
            piece_map = _piece_map(k, orient_sets, self.copies)
            if piece_map is not None:
                found.append(Symmetry(k, cell_map, piece_map))
        return found

    def _build(self, kept: Iterable[int]) -> ExactCover:
        """The problem with only the placements numbered in ``kept``,
        recording the placement and copy of each of its options."""
        items = [i for name in self.shapes for i in self._piece_items[name]]
        items += [self._cell_name(x) for x in sorted(self.board)]
        problem = ExactCover(items)
        option_placement, option_copy = [], []
        kept = sorted(kept)
        name_of = self._cell_name
        for copy in range(max(self.copies.values())):
            for index in kept:
                name, cells = self.placements[index]
                if copy >= self.copies[name]:
                    continue
                problem.add_option([self._piece_items[name][copy]]
                                   + [name_of(x) for x in sorted(cells)])
                option_placement.append(index)
                option_copy.append(copy)
        self._tables[problem] = (option_placement, option_copy)
        return problem

    # -- decoding -----------------------------------------------------
    def decode(self, solution: Sequence[int],
               problem: ExactCover | None = None) -> Tiling | None:
        """The tiling of a solution (option numbers of ``problem``,
        default ``self.problem``); None for a relabelling of copies that
        is not the canonical one (copy i+1 placed after copy i)."""
        if problem is None:
            problem = self.problem
        placement_of, copy_of = self._tables[problem]
        last: dict[str, int] = {}
        tiling = []
        for number in sorted(solution, key=lambda o: copy_of[o]):
            index = placement_of[number]
            name = self.placements[index][0]
            if last.get(name, -1) > index:
                return None
            last[name] = index
            tiling.append(self.placements[index])
        return tuple(sorted(tiling))

    def render(self, tiling: Tiling) -> str:
        """A tiling as a letter grid (see ``render``)."""
        return render(tiling, self.board)

    # -- counting up to symmetry ---------------------------------------
    def _labelings(self) -> int:
        return math.prod(math.factorial(k) for k in self.copies.values())

    def distinct_problem(self) -> ExactCover:
        """One ``ExactCover`` whose solutions are the tilings up to
        symmetry, one each: ``problem`` with the chosen piece kept at one
        placement per orbit (step 2 of the module doc).  Raises
        ``ValueError`` when step 3 or 4 is needed (no such problem), or
        when a piece is used several times (each tiling would appear once
        per numbering of the copies)."""
        if len(self.symmetries) == 1 and self._labelings() == 1:
            return self.problem
        plan = self._breaking_plan()
        if plan is None or plan[2] or self._labelings() != 1:
            raise ValueError("no single exact-cover problem has exactly one "
                             "solution per tiling up to symmetry here; "
                             "count with Polyomino.count() instead")
        return self._build(plan[1] + self._others(plan[0]))

    def _breaking_plan(self):
        """(piece, trivial reps, [(rep, stabilizer)]) for step 1 of the
        module doc, or None when no piece qualifies."""
        best = None
        for name in self.shapes:
            if self.copies[name] != 1 or any(
                    g.piece_map[name] != name for g in self.symmetries):
                continue
            plan = self._orbit_reps(name)
            key = (len(plan[0]) + len(plan[1]), len(plan[1]))
            if best is None or key < best[0]:
                best = (key, name, plan)
        if best is None:
            return None
        return (best[1],) + best[2]

    def _orbit_reps(self, name: str):
        index_of = {p: i for i, p in enumerate(self.placements)
                    if p[0] == name}
        trivial, symmetric = [], []
        seen = set()
        for placement, index in index_of.items():
            if placement in seen:
                continue
            images = [g.placement(placement) for g in self.symmetries]
            seen.update(images)
            stabilizer = [g for g, x in zip(self.symmetries, images)
                          if x == placement]
            if len(stabilizer) == 1:
                trivial.append(index)
            else:
                symmetric.append((index, stabilizer))
        return trivial, symmetric

    def _run_count(self, problem: ExactCover) -> int:
        found = problem.count(**self._count_options)
        self._add_stats(problem.stats)
        return found

    def _add_stats(self, stats: Stats):
        total = self.stats
        total.nodes += stats.nodes
        total.updates += stats.updates
        total.seconds += stats.seconds
        total.complete = total.complete and stats.complete

    def _tilings(self, problem: ExactCover, limit=None) -> Iterator[Tiling]:
        """The tilings of ``problem``, each once (copies unlabelled)."""
        taken = 0
        solutions = problem.solutions()
        try:
            for solution in solutions:
                tiling = self.decode(solution, problem)
                if tiling is None:
                    continue
                yield tiling
                taken += 1
                if limit is not None and taken >= limit:
                    return
        finally:
            solutions.close()
            self._add_stats(problem.stats)

    def count(self, distinct: bool = True, *, exhaustive: bool = False,
              **count_options) -> int:
        """How many tilings: up to symmetry (``distinct``) or all.

        All tilings are counted from the orbits found for the distinct
        count (orbit sizes by the orbit-stabilizer theorem), which is
        several times faster than searching them all; ``exhaustive=True``
        searches ``problem`` instead, with no symmetry breaking at all.
        ``count_options`` (``jobs``, ``executor``, ``checkpoint``,
        ``progress``) go to ``ExactCover.count`` for the searches that
        count without listing tilings.
        """
        self.stats = Stats()
        self._count_options = count_options
        plan = None
        if len(self.symmetries) > 1 and not exhaustive:
            plan = self._breaking_plan()
        if plan is not None:
            found = self._count_with_plan(plan)[0 if distinct else 1]
        elif distinct and len(self.symmetries) > 1:
            found = self._burnside(self.problem, self.symmetries)[0]
        else:
            found = self._run_count(self.problem) // self._labelings()
        self.stats.solutions = found
        return found

    def _count_with_plan(self, plan) -> tuple[int, int]:
        """(tilings up to symmetry, all tilings) by steps 2 and 3."""
        name, trivial, symmetric = plan
        others = self._others(name)
        group = len(self.symmetries)
        orbits = total = 0
        if trivial:
            found = self._run_count(self._build(trivial + others)) // \
                self._labelings()
            orbits += found
            total += found * group
        for index, stabilizer in symmetric:
            found, tilings = self._burnside(self._build([index] + others),
                                            stabilizer)
            orbits += found
            # Each of the group/|stabilizer| placements in the orbit of
            # this one has as many tilings.
            total += tilings * (group // len(stabilizer))
        return orbits, total

    def _others(self, name: str) -> list[int]:
        return [i for i, p in enumerate(self.placements) if p[0] != name]

    def _burnside(self, problem: ExactCover, group: list[Symmetry]
                  ) -> tuple[int, int]:
        """(orbits of ``group`` on the tilings of ``problem``, which it
        must preserve; the number of those tilings).  Orbits are the sum
        over tilings of |elements fixing it| / |group|."""
        fixed = tilings = 0
        for tiling in self._tilings(problem):
            tilings += 1
            fixed += sum(g.tiling(tiling) == tiling for g in group)
        orbits, rest = divmod(fixed, len(group))
        assert rest == 0, "Burnside's count is not a whole number"
        return orbits, tilings

    def solutions(self, distinct: bool = True, limit: int | None = None
                  ) -> Iterator[Tiling]:
        """Stream the tilings: one per symmetry class (``distinct``) or
        all of them; at most ``limit``."""
        self.stats = Stats()
        if not distinct or len(self.symmetries) == 1:
            yield from self._tilings(self.problem, limit)
            return
        taken = 0
        for tiling in self._distinct_tilings():
            yield tiling
            taken += 1
            if limit is not None and taken >= limit:
                return

    def _distinct_tilings(self) -> Iterator[Tiling]:
        plan = self._breaking_plan()
        if plan is None:
            yield from self._least_of_orbit(self.problem, self.symmetries)
            return
        name, trivial, symmetric = plan
        others = self._others(name)
        if trivial:
            yield from self._tilings(self._build(trivial + others))
        for index, stabilizer in symmetric:
            problem = self._build([index] + others)
            yield from self._least_of_orbit(problem, stabilizer)

    def _least_of_orbit(self, problem, group) -> Iterator[Tiling]:
        for tiling in self._tilings(problem):
            if all(tiling <= g.tiling(tiling) for g in group):
                yield tiling


def _cell_of(name: str) -> Cell:
    """The cell named ``name`` (``<row><col>`` in 0-9a-zA-Z digits, or
    ``r<row>c<col>``)."""
    long = re.fullmatch(r"r(\d+)c(\d+)", name)
    if long:
        return int(long.group(1)), int(long.group(2))
    if len(name) == 2 and all(ch in _DIGITS for ch in name):
        return _DIGITS.index(name[0]), _DIGITS.index(name[1])
    raise ValueError(f"{name!r} is not a cell name")


def tiling_of(problem: ExactCover, solution: Sequence[int]) -> Tiling:
    """The tiling of a solution of any problem built like ``polyomino``'s
    (also one read back from a DLX file): each option is a piece name
    (``<name>.<copy>`` for copies) followed by cell names."""
    tiling = []
    options = problem.options
    for number in solution:
        piece, *cells = options[number]
        name = re.sub(r"\.\d+$", "", str(piece))
        tiling.append((name, tuple(sorted(_cell_of(str(x)) for x in cells))))
    return tuple(sorted(tiling))


def polyomino(board, pieces="pentominoes", *, one_sided: bool = False,
              copies=1) -> ExactCover:
    """The exact-cover problem of packing ``pieces`` into ``board`` (every
    placement of every piece; see ``Polyomino`` for counting up to
    symmetry and for decoding)."""
    return Polyomino(board, pieces, one_sided=one_sided,
                     copies=copies).problem


_SPARE = ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
          "0123456789")


def _letters(tiling: Sequence[Placement]) -> list[str]:
    """One character per placement: the piece's name when it is one
    character long, else (and for the second and later copies of a
    piece) the lower-case name if free, else the first free of A-Z, a-z,
    0-9 ("?" when they run out)."""
    used = {name for name, _ in tiling if len(name) == 1}
    spare = (ch for ch in _SPARE if ch not in used)
    given: dict[str, str] = {}
    letters = []
    for name, _ in tiling:
        if name not in given and len(name) == 1:
            letter = name
        elif name in given and len(name) == 1 and name.lower() not in used:
            letter = name.lower()
            used.add(letter)
        else:
            letter = next(spare, "?")
            used.add(letter)
        given.setdefault(name, letter)
        letters.append(letter)
    return letters


def render(tiling: Iterable[Placement], board: Iterable[Cell] | None = None
           ) -> str:
    """A tiling as a letter grid.  Each cell shows its piece's name when
    that is one character (a second copy of a piece gets the lower-case
    letter, further copies and longer names get free letters); board
    cells left uncovered show ``.``, cells off the board ``#``."""
    tiling = sorted(tiling)
    grid: dict[Cell, str] = {}
    for letter, (_, cells) in zip(_letters(tiling), tiling):
        for x in cells:
            grid[x] = letter
    board = set(board or ())
    cells = set(grid) | board
    if not cells:
        return ""
    rows = range(min(r for r, _ in cells), 1 + max(r for r, _ in cells))
    cols = range(min(c for _, c in cells), 1 + max(c for _, c in cells))
    return "\n".join("".join(grid.get((r, c), "." if (r, c) in board
                                      else "#") for c in cols)
                     for r in rows)
