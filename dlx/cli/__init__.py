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

from collections.abc import Callable


def main(argv: list[str] | None = None) -> int:
    """Run the ``dlx`` command on ``argv`` (``sys.argv[1:]`` when None)
    and return its exit status: ``dlx.cli.command.main``."""
    from .command import main as run

    return in_own_process(run, argv)


def in_own_process(
    run: Callable[[list[str] | None], int], argv: list[str] | None
) -> int:
    """``run(argv)``, a command's main.  With ``argv`` None the command
    runs as its own process, and ends by leaving no object to the
    collector's walk at the interpreter's end (``gc.freeze``): every one
    dies with the process, and the walk over numba's, once loaded, took
    0.4 s (``bench/best_start.py --what-if``)."""
    if argv is not None:
        return run(argv)
    try:
        return run(argv)
    finally:
        import gc

        gc.freeze()


def start_plain(command: str) -> bool:
    """A command in its own process runs its first small problems'
    kernels plain (``dlx.kernels.jit.plain_first``): False after saying
    why it cannot (a bad ``DLX_PLAIN_SECONDS``) on standard error."""
    import sys

    from ..kernels.jit import plain_first

    try:
        plain_first()
    except ValueError as error:
        print(f"{command}: {error}", file=sys.stderr)
        return False
    return True
