"""``python -m sudoku``: the same as the ``sudoku`` command."""

import sys

from .cli import main

sys.exit(main())
