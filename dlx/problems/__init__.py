"""Problem builders: classic puzzles turned into ``dlx.ExactCover``.

* ``dlx.problems.polyomino``: pentominoes (and tetrominoes, hexominoes,
  any ASCII shapes) packed into a board, counted up to the board's
  symmetries (``Polyomino``, ``polyomino``);
* ``dlx.problems.polycube``: Soma, Bedlam and pentacubes packed into a
  box (``Polycube``);
* ``dlx.problems.planar``: polyiamonds and polyhexes on the triangular
  and hexagonal grids (``Polyiamond``, ``Polyhex``);
* ``dlx.problems.packing`` holds what all of these share (placements,
  counting up to symmetry, SVG pictures) and ``dlx.problems.lattice``
  the grids and their symmetry groups;
* ``dlx.problems.queens``: n queens on an n x n board (``queens``);
* ``dlx.problems.langford``: Langford pairs, counted up to reversal
  (``langford``);
* ``dlx.problems.debruijn``: de Bruijn sequences, up to rotation
  (``debruijn``; colors: Knuth's XCC);
* ``dlx.problems.rooks``: k rooks in every row and column (``rooks``;
  multiplicities: Knuth's MCC);
* ``dlx.problems.tiling``: tilings of a board by pieces used any number of
  times, dominoes by default (``tiling``);
* ``dlx.problems.timetable``: exams booked into rooms and slots, with
  costs: the cheapest timetables by ``best`` (``timetable``; Knuth's
  DLX5).

Each builder returns an ``ExactCover`` whose options are tuples of item
names, and its module has a ``render`` that turns a solution back into a
picture.  The submodules are exported as modules (``queens.queens(8)``):
their main functions share their names.
"""

import importlib
from typing import TYPE_CHECKING

# Each builder loads on first use (PEP 562), so that a command loads its
# own builder alone (``dlx queens`` no polyomino); ``from dlx.problems
# import queens`` and ``dlx.problems.queens`` load that module.
_MODULES = (
    "debruijn",
    "langford",
    "planar",
    "polycube",
    "polyomino",
    "queens",
    "rooks",
    "tiling",
    "timetable",
)
_CLASSES = {
    "Polyhex": "planar",
    "Polyiamond": "planar",
    "Polycube": "polycube",
    "Polyomino": "polyomino",
}

if TYPE_CHECKING:  # what the names are, for type checkers and readers
    from . import (
        debruijn,
        langford,
        planar,
        polycube,
        polyomino,
        queens,
        rooks,
        tiling,
        timetable,
    )
    from .planar import Polyhex, Polyiamond
    from .polycube import Polycube
    from .polyomino import Polyomino


def __getattr__(name: str) -> object:
    if name in _MODULES:
        value = importlib.import_module(f".{name}", __name__)
    elif name in _CLASSES:
        module = importlib.import_module(f".{_CLASSES[name]}", __name__)
        value = getattr(module, name)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value  # the next look-up is a plain one
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


__all__ = [
    "debruijn",
    "langford",
    "queens",
    "polyomino",
    "polycube",
    "planar",
    "rooks",
    "tiling",
    "timetable",
    "Polyomino",
    "Polycube",
    "Polyiamond",
    "Polyhex",
]
