"""The words and sizes the ``sudoku`` command shows in its flags (their
choices, defaults and help), in a module without numpy or the engine:
``sudoku --help`` builds every flag without loading them.  Each is
defined here and named by the module it belongs to (``sudoku.grid``,
``sudoku.encode``, ``sudoku.generator``, ``sudoku.rating``) as well."""

ALPHABET = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
"""The digits as one character each: ``1``-``9``, then ``A``-``Z`` (up to
35)."""
BLANKS = ".0_-*"
"""The characters of an empty cell."""
FORMATS = ("line", "grid", "csv")
"""The layouts ``Grid.format`` and ``sudoku solve --format`` write."""

RULES = ("jigsaw", "x", "windoku", "anti-knight", "anti-king")
"""The variant rules beyond the standard one (``sudoku.VARIANTS``); join
several with ``+``."""

SYMMETRIES = ("none", "rotational", "mirror")
"""The symmetries the generator gives a puzzle's givens."""
# The sizes the generator makes (the command line's help and checks read
# them here): a 25x25 puzzle takes about 20 s; larger ones are not
# practical.
MIN_SIZE = 4
MAX_SIZE = 25

LEVELS = ("easy", "medium", "hard", "expert", "extreme")
"""The difficulty levels, easiest first."""
SAMPLES = 6  # relabellings averaged by the rating
