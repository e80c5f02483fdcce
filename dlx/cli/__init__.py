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

    if argv is not None:
        return run(argv)
    try:
        return run(argv)
    finally:
        spare_the_last_collection()


def spare_the_last_collection() -> None:
    """What a command run as its own process does last: every object it
    made dies with the process, so none is left to the collector's walk
    at the interpreter's end (``gc.freeze``), which over numba's objects,
    once loaded, took 0.4 s (``bench/best_start.py --what-if``)."""
    import gc

    gc.freeze()
