"""Problem builders: classic puzzles turned into ``dlx.ExactCover``.

* ``dlx.problems.polyomino``: pentominoes (and tetrominoes, hexominoes,
  any ASCII shapes) packed into a board, counted up to the board's
  symmetries (``Polyomino``, ``polyomino``);
* ``dlx.problems.queens``: n queens on an n x n board (``queens``);
* ``dlx.problems.langford``: Langford pairs, counted up to reversal
  (``langford``);
* ``dlx.problems.tiling``: tilings of a board by pieces used any number of
  times, dominoes by default (``tiling``).

Each builder returns an ``ExactCover`` whose options are tuples of item
names, and its module has a ``render`` that turns a solution back into a
picture.  The submodules are exported as modules (``queens.queens(8)``):
their main functions share their names.
"""

from . import langford, polyomino, queens, tiling
from .polyomino import Polyomino

__all__ = ["langford", "queens", "polyomino", "Polyomino", "tiling"]
