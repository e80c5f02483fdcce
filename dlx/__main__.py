"""``python -m dlx``: the ``dlx`` command (see ``dlx.cli``)."""

import sys

from .cli import main

sys.exit(main())
