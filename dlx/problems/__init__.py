"""Problem builders: classic puzzles turned into ``dlx.ExactCover``.

* ``polyomino``: pentominoes (and tetrominoes, hexominoes, any ASCII
  shapes) packed into a board, counted up to the board's symmetries;
* ``queens``: n queens on an n x n board;
* ``langford``: Langford pairs, counted up to reversal.

Each builder returns an ``ExactCover`` whose options are tuples of item
names, and has a ``render`` that turns a solution back into a picture.
"""

from .langford import langford
from .polyomino import Polyomino, parse_board, parse_shapes, piece_set, \
    polyomino
from .queens import queens

__all__ = ["langford", "queens", "polyomino", "Polyomino", "parse_board",
           "parse_shapes", "piece_set"]
