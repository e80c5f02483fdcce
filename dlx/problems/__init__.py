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
