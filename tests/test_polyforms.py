"""Polycubes, polyiamonds and polyhexes: known counts, symmetry reduction
against brute-force orbit counting, piece sets, parsing and errors."""

import itertools
from pathlib import Path

import pytest

from dlx.problems.lattice import CUBIC, HEXAGONAL, SQUARE, TRIANGULAR
from dlx.problems.planar import Polyhex, Polyiamond, parse_board
from dlx.problems.polycube import (
    Polycube,
    parse_box,
    parse_pieces,
    piece_set,
    polycube,
)
from dlx.problems.polyomino import Polyomino

from reference import is_exact_cover

DATA = Path(__file__).parent / "data"


def known_counts():
    cases = []
    for line in (DATA / "polyform_counts.txt").read_text().splitlines():
        if line.strip() and not line.startswith("|"):
            builder, board, pieces, symmetry, count, *flags = line.split()
            marks = [pytest.mark.slow] if "slow" in flags else []
            cases.append(
                pytest.param(
                    builder,
                    board,
                    pieces,
                    symmetry,
                    int(count),
                    marks=marks,
                    id=f"{builder}-{board}-{pieces}-{symmetry}",
                )
            )
    return cases


def make(builder, board, pieces):
    if builder == "polycube":
        return Polycube(board, pieces)
    cls = {"polyiamond": Polyiamond, "polyhex": Polyhex}[builder]
    return cls(board, pieces)


@pytest.mark.parametrize(
    "builder, board, pieces, symmetry, expected", known_counts()
)
def test_known_count(builder, board, pieces, symmetry, expected):
    puzzle = make(builder, board, pieces)
    # threads=0: one per core, as a user with a long count would.
    assert puzzle.count(symmetry == "distinct", threads=0) == expected
    assert puzzle.stats.complete


# -- brute-force orbits on small boards -----------------------------------
def brute_force_orbits(puzzle):
    """(all tilings, orbits under every map of the lattice's point group
    that takes the tiling's board onto itself), by moving whole tilings
    and renaming pieces by their shape: independent of ``Symmetry``."""
    lattice = puzzle.lattice
    owners = {}
    for name, orients in puzzle.orientations.items():
        for shape in orients:
            owners.setdefault(shape, []).append(name)
    tilings = set(puzzle.solutions(distinct=False))
    board = lattice.normalize(puzzle.board)

    def image(tiling, k):
        moved = [
            (name, [lattice.transform(x, k) for x in cells])
            for name, cells in tiling
        ]
        shift = lattice.offset(x for _, cells in moved for x in cells)
        result = []
        for _name, cells in moved:
            cells = tuple(
                sorted(tuple(a - s for a, s in zip(x, shift)) for x in cells)
            )
            names = owners.get(lattice.normalize(cells), [])
            if len(names) != 1:
                return None
            result.append((names[0], cells))
        result = tuple(sorted(result))
        cells = sorted(x for _, c in result for x in c)
        return result if tuple(cells) == board else None

    left, orbits = set(tilings), 0
    while left:
        orbits += 1
        stack = [left.pop()]
        while stack:
            tiling = stack.pop()
            for k in range(len(lattice.maps)):
                moved = image(tiling, k)
                if moved in left:
                    left.remove(moved)
                    stack.append(moved)
    return len(tilings), orbits


V = [(0, 0, 0), (0, 0, 1), (0, 1, 0)]
L4 = [(0, 0, 0), (0, 0, 1), (0, 0, 2), (0, 1, 0)]
T4 = [(0, 0, 0), (0, 0, 1), (0, 0, 2), (0, 1, 1)]
Z4 = [(0, 0, 0), (0, 0, 1), (0, 1, 1), (0, 1, 2)]
SCREW = [(0, 0, 0), (0, 0, 1), (0, 1, 0), (1, 1, 0)]
DOMINO = [(0, 0, 0), (0, 0, 1)]
RING = "...\n.#.\n...\n\n...\n.#.\n..."

SMALL_PACKINGS = {
    "V tricubes and a domino in 2x2x2": (
        "2x2x2",
        {"V": V, "D": DOMINO},
        {"copies": {"V": 2}},
    ),
    "screw twins and an L in 2x2x3": (
        "2x2x3",
        {
            "A": SCREW,
            "B": [(0, 0, 0), (0, 0, 1), (0, 1, 0), (1, 0, 1)],
            "L": L4,
        },
        {},
    ),
    "a screw (no twin) and four V in 2x2x4": (
        "2x2x4",
        {"A": SCREW, "V": V},
        {"copies": {"V": 4}},
    ),
    "two screws and two L in 2x2x4": (
        "2x2x4",
        {"A": SCREW, "L": L4},
        {"copies": 2},
    ),
    "a screw used twice, mirrored": (
        "2x2x2",
        {"A": SCREW},
        {"copies": 2, "one_sided": False},
    ),
    "V L T Z V in 2x3x3": (
        "2x3x3",
        {"V": V, "L": L4, "T": T4, "Z": Z4},
        {"copies": {"V": 2}},
    ),
    "L tetracubes in 2x2x4": ("2x2x4", {"L": L4}, {"copies": 4}),
    "L tetracubes in a two-layer ring": (RING, {"L": L4}, {"copies": 4}),
    "a screw and L tetracubes in a two-layer ring": (
        RING,
        {"A": SCREW, "L": L4},
        {"copies": {"L": 3}},
    ),
}


@pytest.mark.parametrize("name", SMALL_PACKINGS)
def test_polycube_counts_match_brute_force(name):
    board, pieces, options = SMALL_PACKINGS[name]
    puzzle = Polycube(board, pieces, **options)
    total, orbits = brute_force_orbits(puzzle)
    assert total > 0
    assert puzzle.count(distinct=False) == total
    assert puzzle.count(distinct=False, exhaustive=True) == total
    assert puzzle.count() == orbits
    distinct = list(puzzle.solutions())
    assert len(distinct) == orbits
    assert all(puzzle.is_tiling(t) for t in distinct)


SMALL_PLANAR = {
    "tetriamonds twice in a hexagon": (
        Polyiamond,
        "hexagon:2",
        "tetriamonds",
        {"copies": 2},
    ),
    "tetriamonds twice in a 3x4 parallelogram": (
        Polyiamond,
        "3x4",
        "tetriamonds",
        {"copies": 2},
    ),
    "one-sided tetriamonds twice in 3x4": (
        Polyiamond,
        "3x4",
        "tetriamonds",
        {"copies": 2, "one_sided": True},
    ),
    "triamonds in a triangle": (
        Polyiamond,
        "triangle:3",
        "triamonds",
        {"copies": 3},
    ),
    "triamonds in the unit hexagon": (
        Polyiamond,
        "hexagon:1",
        "triamonds",
        {"copies": 2},
    ),
    "dihexes in a 2x3 parallelogram": (
        Polyhex,
        "2x3",
        "2-hexes",
        {"copies": 3},
    ),
    "dihexes in a triangle": (Polyhex, "triangle:3", "2-hexes", {"copies": 3}),
    "tetrahexes in a 4x7 parallelogram": (Polyhex, "4x7", "tetrahexes", {}),
}


@pytest.mark.parametrize("name", SMALL_PLANAR)
def test_planar_counts_match_brute_force(name):
    cls, board, pieces, options = SMALL_PLANAR[name]
    puzzle = cls(board, pieces, **options)
    total, orbits = brute_force_orbits(puzzle)
    assert total > 0
    assert puzzle.count(distinct=False) == total
    assert puzzle.count(distinct=False, exhaustive=True) == total
    assert puzzle.count() == orbits
    distinct = list(puzzle.solutions())
    assert len(distinct) == orbits
    assert all(puzzle.is_tiling(t) for t in distinct)


def test_planar_boards():
    from dlx.problems.lattice import HEXAGONAL as H, TRIANGULAR as T

    for n in range(1, 5):
        assert len(parse_board(f"hexagon {n}", T)) == 6 * n * n
        assert len(parse_board(f"hexagon:{n}", H)) == 3 * n * (n - 1) + 1
        assert len(parse_board(f"triangle {n}", T)) == n * n
        assert len(parse_board(f"triangle {n}", H)) == n * (n + 1) // 2
    assert (
        len(parse_board("6x6", T)) == 72 and len(parse_board("6x6", H)) == 36
    )
    # the hexagon of side 2 has all 12 symmetries, the rhombus 4
    assert (
        len(Polyiamond("hexagon:2", "tetriamonds", copies=2).symmetries) == 12
    )
    assert len(Polyiamond("6x6").symmetries) == 4
    with pytest.raises(ValueError, match="not 'AxB'"):
        parse_board("circle 3", T)
    with pytest.raises(ValueError, match="no cells"):
        parse_board("0x3", H)
    with pytest.raises(ValueError, match="unknown piece set"):
        Polyhex("4x7", "hexiamonds")
    with pytest.raises(ValueError, match="not a cell"):
        Polyiamond("1x1", {"A": [(0, 0)]})


def test_planar_render_and_pieces():
    puzzle = Polyiamond("6x6")
    assert len(puzzle.shapes) == 12
    tiling = next(puzzle.solutions())
    rows = puzzle.render(tiling).splitlines()
    assert [len(r) for r in rows] == [12 + k for k in range(6)]
    assert all(r.startswith(" " * k) for k, r in enumerate(rows))
    assert sorted("".join(rows).replace(" ", "")) == sorted("ABCDEFGHIJKL" * 6)
    hexes = Polyhex("4x7")
    rows = hexes.render(next(hexes.solutions())).splitlines()
    assert [r.split() for r in rows] and all(len(r.split()) == 7 for r in rows)


def test_soma_solutions_are_packings():
    soma = Polycube("3x3x3", "soma")
    assert len(soma.symmetries) == 48  # reflections swap A and B
    problem = soma.problem
    for solution in itertools.islice(problem.solutions(), 20):
        assert is_exact_cover(problem, solution)
        assert soma.is_tiling(soma.decode(solution))
    picture = soma.render(next(soma.solutions()))
    rows = picture.splitlines()
    assert len(rows) == 3 and all(len(r) == 3 * 3 + 2 * 2 for r in rows)
    assert sorted(picture.replace(" ", "").replace("\n", "")) == sorted(
        "VVV" + "LLLL" + "TTTT" + "ZZZZ" + "AAAA" + "BBBB" + "PPPP"
    )


# -- the lattices and piece sets ------------------------------------------
def test_group_orders():
    assert (len(SQUARE.maps), SQUARE.rotations) == (8, 4)
    assert (len(CUBIC.maps), CUBIC.rotations) == (48, 24)
    assert (len(HEXAGONAL.maps), HEXAGONAL.rotations) == (12, 6)
    assert (len(TRIANGULAR.maps), TRIANGULAR.rotations) == (12, 6)
    for lattice in (SQUARE, CUBIC, HEXAGONAL, TRIANGULAR):
        maps = set(lattice.maps)
        assert len(maps) == len(lattice.maps)
        # closed under composition, rotations a subgroup
        for a in lattice.maps:
            for b in lattice.maps:
                product = tuple(
                    tuple(
                        sum(a[i][k] * b[k][j] for k in range(len(b)))
                        for j in range(len(b))
                    )
                    for i in range(len(a))
                )
                assert product in maps
        rotations = set(lattice.maps[: lattice.rotations])
        assert all(
            tuple(
                tuple(
                    sum(a[i][k] * b[k][j] for k in range(len(b)))
                    for j in range(len(b))
                )
                for i in range(len(a))
            )
            in rotations
            for a in rotations
            for b in rotations
        )


@pytest.mark.parametrize(
    "lattice, n, free, one_sided",
    [
        (SQUARE, 5, 12, 18),
        (SQUARE, 6, 35, 60),  # OEIS A000105, A000988
        (CUBIC, 4, 7, 8),
        (CUBIC, 5, 23, 29),  # A038119, A000162
        (TRIANGULAR, 6, 12, 19),
        (TRIANGULAR, 5, 4, 6),  # A000577, A006534
        (HEXAGONAL, 4, 7, 10),
        (HEXAGONAL, 5, 22, 33),  # A000228, A006535
    ],
)
def test_polyform_enumeration(lattice, n, free, one_sided):
    assert len(lattice.polyforms(n)) == free
    assert len(lattice.polyforms(n, one_sided=True)) == one_sided


def test_polycube_piece_sets():
    soma = piece_set("soma")
    assert list(soma) == list("VLTZABP")
    assert sum(map(len, soma.values())) == 27
    # A and B are mirror images, not rotations, of each other
    assert CUBIC.canonical(soma["A"], True) != CUBIC.canonical(soma["B"], True)
    assert CUBIC.canonical(soma["A"]) == CUBIC.canonical(soma["B"])
    bedlam = piece_set("bedlam")
    assert len(bedlam) == 13 and sum(map(len, bedlam.values())) == 64
    assert len({CUBIC.canonical(s, True) for s in bedlam.values()}) == 13
    flat = piece_set("flat-pentacubes")
    assert "".join(flat) == "FILNPTUVWXYZ"
    assert all({x[0] for x in s} == {0} for s in flat.values())
    pentacubes = piece_set("pentacubes")
    assert len(pentacubes) == 29
    assert {CUBIC.canonical(s, True) for s in pentacubes.values()} == set(
        CUBIC.polyforms(5, one_sided=True)
    )
    flat_ones = [
        n
        for n, s in pentacubes.items()
        if any(len({x[i] for x in s}) == 1 for i in range(3))
    ]
    assert sorted(flat_ones) == sorted("FILNPTUVWXYZ")


def test_parse_box_and_pieces():
    assert parse_box("1x2x3") == {(0, 0, c) for c in range(3)} | {
        (0, 1, c) for c in range(3)
    }
    art = "..\n.#\n\n..\n..\n"
    assert len(parse_box(art)) == 7 and (0, 1, 1) not in parse_box(art)
    with pytest.raises(ValueError, match="line 2, column 2"):
        parse_box("..\n.x\n")
    with pytest.raises(ValueError, match="no cells"):
        parse_box("0x2x2")
    with pytest.raises(ValueError, match="at most"):
        parse_box("1000x1000x1000")
    assert parse_pieces("| comment\nV 000 001 010\n") == {
        "V": ((0, 0, 0), (0, 0, 1), (0, 1, 0))
    }
    with pytest.raises(ValueError, match="line 2: '01' is not a cell"):
        parse_pieces("V 000\nW 01\n")
    with pytest.raises(ValueError, match="given twice"):
        parse_pieces("V 000\nV 001\n")


def test_polycube_errors_and_problem():
    with pytest.raises(ValueError, match="27 cells but the board has 36"):
        Polycube("3x3x4", "soma")
    with pytest.raises(ValueError, match="unknown piece set"):
        Polycube("3x3x3", "tetracubes")
    with pytest.raises(ValueError, match="positive integer"):
        Polycube("2x2x2", {"D": DOMINO}, copies=0)
    problem = polycube("3x3x3")
    assert problem.primary[:7] == tuple("VLTZABP")
    assert len(problem.primary) == 7 + 27
    assert "l0r0c0" not in problem.primary and "000" in problem.primary


def test_mirrored_pieces_double_the_orientations():
    screw = {"A": SCREW}
    assert (
        len(Polycube("2x2x1", {"D": DOMINO}, copies=2).orientations["D"]) == 3
    )
    assert len(Polycube("2x2x2", screw, copies=2).orientations["A"]) == 12
    assert (
        len(
            Polycube("2x2x2", screw, copies=2, one_sided=False).orientations[
                "A"
            ]
        )
        == 24
    )


# -- the command line -------------------------------------------------------
def run(capsys, *argv):
    from dlx.cli import main

    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize(
    "argv, count",
    [
        (["polycube", "soma", "--count"], 240),
        (["polycube", "soma", "--count", "--all-symmetries"], 11520),
        (
            [
                "polycube",
                "--pieces",
                "flat-pentacubes",
                "--box",
                "2x3x10",
                "--count",
            ],
            12,
        ),
    ],
)
def test_cli_polycube_counts(capsys, argv, count):
    status, out, _ = run(capsys, *argv)
    assert status == 0 and out.splitlines()[-1] == str(count)


def test_cli_polycube_pictures_and_errors(capsys, tmp_path):
    status, out, _ = run(capsys, "polycube", "soma", "--limit", "2")
    assert status == 0 and len(out.split("\n\n")) == 2
    pieces = tmp_path / "pieces.txt"
    pieces.write_text("D 000 001\nE 000 010\n")
    status, out, _ = run(
        capsys,
        "polycube",
        "--pieces",
        str(pieces),
        "--box",
        "1x2x2",
        "--all",
        "--all-symmetries",
    )
    assert status == 0 and out.count("\n\n") == 3  # 4 tilings
    for argv in (
        ["bogus"],
        ["pentacubes"],
        ["soma", "--box", "3x3x4"],
        ["soma", "--pieces", "soma"],
    ):
        status, out, err = run(capsys, "polycube", *argv)
        assert status == 2 and out == "" and "error:" in err
    pieces.write_text("D 000 0x1\n")
    status, out, err = run(
        capsys, "polycube", "--pieces", str(pieces), "--box", "1x1x2"
    )
    assert status == 1 and "line 1" in err


@pytest.mark.parametrize(
    "argv, count",
    [
        (["polyiamond", "6x6", "--count"], 156),
        (["polyiamond", "6x6", "--count", "--all-symmetries"], 624),
        (["polyhex", "4x7", "--count"], 9),
        (["polyhex", "4x7", "--count", "--all-symmetries"], 18),
        (
            [
                "polyiamond",
                "hexagon:2",
                "--pieces",
                "tetriamonds",
                "--copies",
                "2",
                "--count",
                "--all-symmetries",
            ],
            6,
        ),
    ],
)
def test_cli_planar_counts(capsys, argv, count):
    status, out, _ = run(capsys, *argv)
    assert status == 0 and out.splitlines()[-1] == str(count)


def test_cli_planar_errors(capsys):
    for argv in (
        ["polyiamond", "hexagon:3"],
        ["polyhex", "4x7", "--pieces", "bogus"],
        ["polyhex", "circle"],
    ):
        status, out, err = run(capsys, *argv)
        assert status == 2 and out == "" and "error:" in err
    status, out, _ = run(capsys, "polyiamond", "3x12", "--count")
    assert (status, out) == (1, "0\n")


def test_cli_dlx_output_of_a_packing_counts_the_same(capsys):
    from dlx.formats import loads

    status, text, _ = run(capsys, "polyiamond", "6x6", "--dlx")
    assert status == 0
    assert loads(text).count() == 156  # one cover per tiling up to symmetry
    status, text, _ = run(
        capsys,
        "polycube",
        "--box",
        "2x3x10",
        "--dlx",
        "--pieces",
        "flat-pentacubes",
    )
    assert status == 0 and loads(text).count() == 12
    # Soma: every piece fixed by all 48 symmetries has a symmetric
    # placement, so no single problem counts up to symmetry.
    status, text, err = run(capsys, "polycube", "soma", "--dlx")
    assert status == 2 and text == "" and "--all-symmetries" in err


def test_large_piece_sets_are_named_p001_on():
    from dlx.problems.planar import TRIANGULAR, piece_set

    names = list(piece_set("8-iamonds", TRIANGULAR))
    assert names == [f"p{k:03d}" for k in range(1, 67)]  # 66 octiamonds


@pytest.mark.parametrize(
    "spec, lattice, cells",
    [
        ("triangle 1500", HEXAGONAL, 1500 * 1501 // 2),
        ("triangle 1001", TRIANGULAR, 1001 * 1001),
        ("hexagon 600", HEXAGONAL, 3 * 600 * 599 + 1),
        ("hexagon 410", TRIANGULAR, 6 * 410 * 410),
    ],
)
def test_a_board_too_large_names_its_cells(spec, lattice, cells):
    with pytest.raises(ValueError, match=f"'{spec}' has {cells} cells"):
        parse_board(spec, lattice)


def test_triangle_cells_are_drawn_around_their_centroids():
    # Cells of the triangular lattice are named by three times their
    # centroid: (3i+1, 3j+1) points up, (3i+2, 3j+2) down, for every i, j
    # (pictures of boards beyond the first row of triangles use i, j > 0).
    from dlx.problems.packing import polygon

    h = 3**0.5 / 2
    for i, j in itertools.product(range(3), repeat=2):
        for cell in [(3 * i + 1, 3 * j + 1), (3 * i + 2, 3 * j + 2)]:
            corners = polygon(TRIANGULAR, cell)
            assert len(corners) == 3
            a, b = cell[0] / 3, cell[1] / 3
            x = sum(p[0] for p in corners) / 3
            y = sum(p[1] for p in corners) / 3
            assert (x, y) == pytest.approx((a + b / 2, b * h))


@pytest.mark.parametrize("distinct, expected", [(True, 9), (False, 18)])
def test_ctrl_c_between_searches_keeps_the_count_asked_for(
    monkeypatch, distinct, expected
):
    # Tetrahexes in 4x7: one symmetry-broken search (9 tilings up to
    # symmetry, 18 in all); Ctrl-C as it ends still reports the count the
    # caller asked for, not the other one.
    from dlx import Interrupted

    puzzle = Polyhex("4x7", "tetrahexes")

    def ctrl_c(stats):
        raise KeyboardInterrupt

    monkeypatch.setattr(puzzle, "_add_stats", ctrl_c)
    with pytest.raises(Interrupted) as stop:
        puzzle.count(distinct=distinct)
    assert stop.value.count == expected
    assert not stop.value.stats.complete


def _built_lattices():
    # Built afresh (the module's constants were built once at import).
    from dlx.problems import lattice as L

    return {
        "square": L._square(),
        "cubic": L._cubic(),
        "hexagonal": L._sixfold("hexagonal", 1, HEXAGONAL.steps),
        "triangular": L._sixfold("triangular", 3, TRIANGULAR.steps),
    }


# Free and one-sided polyforms by size (OEIS A000105, A000988, A038119,
# A000162, A000228, A006535, A000577, A006534).
POLYFORMS = {
    "square": ([1, 1, 2, 5, 12], [1, 1, 2, 7, 18]),
    "cubic": ([1, 1, 2, 7], [1, 1, 2, 8]),
    "hexagonal": ([1, 1, 3, 7, 22], [1, 1, 3, 10, 33]),
    "triangular": ([1, 1, 1, 3, 4], [1, 1, 1, 4, 6]),
}


@pytest.mark.parametrize("name", POLYFORMS)
def test_each_lattice_is_a_point_group_that_counts_polyforms(name):
    from dlx.problems.lattice import _det, _mul

    lattice = _built_lattices()[name]
    maps = lattice.maps
    d = lattice.dimension
    assert maps[0] == tuple(
        tuple(int(i == j) for j in range(d)) for i in range(d)
    )
    assert len(set(maps)) == len(maps) == 2 * lattice.rotations
    assert {_mul(a, b) for a in maps for b in maps} == set(maps)
    assert [_det(m) for m in maps] == (
        [1] * lattice.rotations + [-1] * lattice.rotations
    )
    free, one_sided = POLYFORMS[name]
    assert [len(lattice.polyforms(n)) for n in range(1, len(free) + 1)] == free
    assert [
        len(lattice.polyforms(n, one_sided=True))
        for n in range(1, len(free) + 1)
    ] == one_sided


def test_orientations_flip_unless_one_sided():
    # The L tetromino: 4 turns, and their 4 mirror images by default.
    ell = [(0, 0), (1, 0), (2, 0), (2, 1)]
    assert len(SQUARE.orientations(ell)) == 8
    assert len(SQUARE.orientations(ell, one_sided=True)) == 4
    assert SQUARE.canonical(ell) == SQUARE.canonical(
        [(0, 1), (1, 1), (2, 1), (2, 0)]
    )  # J is L mirrored


def test_a_box_from_cells_is_moved_to_the_origin():
    assert parse_box([(5, 2, 7), (5, 2, 8)]) == parse_box("1x1x2")
    with pytest.raises(ValueError, match=r"\(layer, row, col\) cells"):
        parse_box([(0, 0), (0, 1)])
    with pytest.raises(ValueError, match=r"\(layer, row, col\) cells"):
        parse_box([])


def test_pentacubes_are_listed_flat_letters_first_then_by_name():
    names = list(piece_set("pentacubes"))
    upper = [x for x in names if x.isupper()]
    lower = [x for x in names if x.islower()]
    assert len(names) == 29 and len(upper) == 12  # OEIS A000162
    assert names == sorted(upper) + sorted(lower)


# -- what count(exhaustive=True), piece names and sizes promise ----------
# (issue 31: these survived the whole default run when broken)
@pytest.mark.parametrize(
    "make, total, orbits",
    [
        (lambda: Polyomino("3x20"), 8, 2),
        (lambda: Polyhex("4x7", "tetrahexes"), 18, 9),
    ],
    ids=["pentominoes-3x20", "tetrahexes-4x7"],
)
def test_an_exhaustive_count_searches_every_placement(make, total, orbits):
    puzzle = make()
    puzzle.problem.count()
    plain = puzzle.problem.stats
    assert plain.solutions == total
    # exhaustive: the whole problem is searched, with no symmetry breaking,
    # so it is the plain search node for node, for either answer.
    assert puzzle.count(distinct=False, exhaustive=True) == total
    assert (puzzle.stats.nodes, puzzle.stats.solutions) == (plain.nodes, total)
    assert puzzle.count(exhaustive=True) == orbits
    assert (puzzle.stats.nodes, puzzle.stats.solutions) == (
        plain.nodes,
        orbits,
    )
    # Without it the same answers come from a smaller search.
    assert puzzle.count(distinct=False) == total
    assert puzzle.stats.nodes < plain.nodes
    assert puzzle.count() == orbits
    assert puzzle.stats.nodes < plain.nodes


def test_a_piece_named_like_a_cell_is_refused():
    # The 2x2 board's cells are items 00 01 10 11.
    with pytest.raises(
        ValueError,
        match="piece name '00' clashes with a cell name or has a blank",
    ):
        Polyomino("2x2", {"00": "AA\nAA"})
    with pytest.raises(ValueError, match="piece name 'a b' clashes"):
        Polyomino("2x2", {"a b": "AA\nAA"})
    (triamond,) = Polyiamond(
        "hexagon:1", "triamonds", copies=2
    ).shapes.values()
    with pytest.raises(ValueError, match="piece name '14' clashes"):
        Polyiamond("hexagon:1", {"14": triamond, "B": triamond})
    with pytest.raises(ValueError, match="piece name '000' clashes"):
        Polycube("1x1x2", {"000": [(0, 0, 0), (0, 0, 1)]})
    # A name that is not a cell's, and copies named 00.1 and 00.2: fine.
    assert Polyomino("2x2", {"0": "AA\nAA"}).count() == 1
    two = Polyomino("2x4", {"00": "AA\nAA"}, copies=2)
    assert two.problem.items[:2] == ("00.1", "00.2") and two.count() == 1


@pytest.mark.parametrize(
    "lattice",
    [SQUARE, CUBIC, HEXAGONAL, TRIANGULAR],
    ids=lambda lattice: lattice.name,
)
def test_polyforms_start_at_one_cell(lattice):
    for n in (0, -1):
        with pytest.raises(ValueError, match=f"n must be positive, got {n}"):
            lattice.polyforms(n)
    (one,) = lattice.polyforms(1)
    assert len(one) == 1 and lattice.polyforms(1, one_sided=True) == [one]
    assert all(len(shape) == 2 for shape in lattice.polyforms(2))
