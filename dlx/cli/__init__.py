"""The ``dlx`` command, one module per part:

  command   its parser, ``dlx solve`` and the builders' commands, main
  count     --count: jobs, a scheduler, checkpoints, progress
  best      --best K
  reduce    ``dlx reduce`` and --reduce (Knuth's DLX-PRE)
  zdd       --zdd and ``dlx zdd``
  flags     the search options' flags, read from ``dlx.options``
  paths     input and output files (checked before the work starts)
  input     a file name or the text itself

The package itself loads nothing: ``sudoku`` (and its web server) read
``flags``, ``paths`` and ``input`` without loading the command, and
``main`` loads ``dlx.cli.command`` when it is called (the console script
``dlx = "dlx.cli:main"``, ``python -m dlx``)."""

from __future__ import annotations


def main(argv: list[str] | None = None) -> int:
    """Run the ``dlx`` command on ``argv`` (``sys.argv[1:]`` when None)
    and return its exit status: ``dlx.cli.command.main``."""
    from .command import main as run

    return run(argv)
