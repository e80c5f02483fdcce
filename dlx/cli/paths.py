"""The files a command line names, checked before the work starts (for
``dlx`` and ``sudoku``).

Each argument that names a file says so when it is declared::

    names_file(parser.add_argument("--zdd", metavar="OUT"), OUTPUT)

and ``check_paths(parser, args)``, right after parsing, checks every such
argument of the command chosen: an input (``INPUT``: a file or ``-``) must
be readable; an output (``OUTPUT``, or ``RESUMED`` for a file that is read
back and written again, a checkpoint) must be writable (its directory
exists and takes new files; the file, if there, takes writing) and must
not be a file the command reads (standard input included, when it is
``-``), nor the file of another output.  ``TEXT_OR_FILE`` (inline text or
a file) is an input only when it names a file.  A bad path is a
``PathUsageError`` (exit status 2): ``cannot write X: why`` or ``cannot
read X: why``, before a long search, not after it.

``replacing(path)`` writes a file under a temporary name beside it and
renames it into place at the end, so that a failure or an interrupt half
way leaves the old file as it was.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import stat
import sys
import tempfile
from collections.abc import Iterator
from typing import TextIO, cast

__all__ = [
    "INPUT",
    "OUTPUT",
    "RESUMED",
    "TEXT_OR_FILE",
    "PathUsageError",
    "check_paths",
    "file_arguments",
    "names_file",
    "replacing",
]

INPUT = "input"  # a file read (or - for standard input)
TEXT_OR_FILE = "text or file"  # inline text, or a file read
OUTPUT = "output"  # a file written (or replaced)
RESUMED = "resumed"  # a file read back and written again (a checkpoint)
ROLES = (INPUT, TEXT_OR_FILE, OUTPUT, RESUMED)


class PathUsageError(Exception):
    """A file named on the command line that cannot be read or written
    (exit status 2)."""


def names_file(
    action: argparse.Action, role: str, *, may_be_input: bool = False
) -> argparse.Action:
    """Mark ``action`` (what ``add_argument`` returned) as naming a file
    in ``role``.  ``may_be_input``: an output that may name an input file,
    since it is written under a temporary name and renamed into place
    once the input is read (``sudoku solve FILE -o FILE``)."""
    if role not in ROLES:
        raise ValueError(f"role must be one of {ROLES}, got {role!r}")
    action.path_role = role  # type: ignore[attr-defined]
    action.may_be_input = may_be_input  # type: ignore[attr-defined]
    return action


def _flag(action: argparse.Action) -> str:
    if action.option_strings:
        return max(action.option_strings, key=len)
    return str(action.metavar or action.dest)


def file_arguments(
    parser: argparse.ArgumentParser, args: argparse.Namespace | None = None
) -> Iterator[tuple[argparse.ArgumentParser, argparse.Action]]:
    """``(parser, action)`` for every argument of ``parser`` and of its
    subcommands (only the one ``args`` chose, with ``args``), marked or
    not, so that a test can see that none escapes."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            if args is None:
                chosen = list(action.choices.values())
            else:
                name = getattr(args, action.dest, None)
                chosen = [action.choices[name]] if name else []
            for sub in chosen:
                yield from file_arguments(sub, args)
        else:
            yield parser, action


def _same(a: os.stat_result, b: os.stat_result) -> bool:
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


def _stdin_stat() -> os.stat_result | None:
    try:
        return os.fstat(sys.stdin.fileno())
    except (OSError, ValueError, AttributeError):
        return None  # no standard input, or a replaced one (tests)


def _unreadable(path: str) -> str | None:
    """Why ``path`` cannot be read, or None."""
    try:
        info = os.stat(path)
    except OSError as error:
        return error.strerror or str(error)
    if stat.S_ISDIR(info.st_mode):
        return "it is a directory"
    if not os.access(path, os.R_OK):
        return "Permission denied"
    return None


def _unwritable(path: str) -> str | None:
    """Why ``path`` cannot be written, or None."""
    if os.path.isdir(path):
        return "it is a directory"
    if os.path.lexists(path):
        if os.path.exists(path) and not os.access(path, os.W_OK):
            return "Permission denied"
        return None
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        return f"no such directory {folder}"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"Permission denied (directory {folder})"
    return None


def check_paths(
    parser: argparse.ArgumentParser, args: argparse.Namespace
) -> None:
    """Check the files ``args`` names (see the module docstring); raises
    ``PathUsageError`` with one sentence for the first bad one."""
    reads: list[tuple[str, os.stat_result]] = []  # (what, the file)
    writes: list[tuple[argparse.Action, str]] = []
    for _, action in file_arguments(parser, args):
        role = getattr(action, "path_role", None)
        value = getattr(args, action.dest, None)
        if role is None or not isinstance(value, str):
            continue
        what = (
            "the input file"
            if not action.option_strings
            else f"the {_flag(action)} file"
        )
        if role in (INPUT, TEXT_OR_FILE):
            if value == "-":
                info = _stdin_stat()
                if info is not None and stat.S_ISREG(info.st_mode):
                    reads.append(("standard input", info))
                continue
            if role == TEXT_OR_FILE and not os.path.exists(value):
                continue  # inline text; its reader tells a mistyped name
            why = _unreadable(value)
            if why is not None:
                raise PathUsageError(f"cannot read {value}: {why}")
            reads.append((what, os.stat(value)))
        elif value != "-":  # - is standard output
            writes.append((action, value))
    seen: dict[object, str] = {}  # each output file: which flag writes it
    for action, value in writes:
        why = _unwritable(value)
        key: object = os.path.abspath(value)
        if why is None and os.path.exists(value):
            info = os.stat(value)
            key = (info.st_dev, info.st_ino)
            if not getattr(action, "may_be_input", False):
                why = next(
                    (f"it is {w}" for w, o in reads if _same(info, o)), None
                )
        if why is None and key in seen:
            why = f"{seen[key]} writes it too"
        if why is not None:
            raise PathUsageError(f"cannot write {value}: {why}")
        seen[key] = _flag(action)


@contextlib.contextmanager
def replacing(path: str | os.PathLike) -> Iterator[TextIO]:
    """A text stream that becomes the file ``path`` when the block ends
    without an exception: written under a temporary name in the same
    directory and renamed into place (keeping an old file's mode), so
    that a failure or an interrupt leaves the old file as it was.  A path
    that is not a regular file (a device, a pipe) is written in place."""
    path = os.fspath(path)
    if os.path.exists(path) and not os.path.isfile(path):
        with open(path, "w", encoding="utf-8") as device:
            yield device
        return
    folder, name = os.path.split(os.path.abspath(path))
    # (a text-mode temporary file: a TextIO in all but name)
    stream: TextIO = cast(
        TextIO,
        tempfile.NamedTemporaryFile(
            "w",
            encoding="utf-8",
            dir=folder,
            prefix=f".{name}.",
            suffix=".part",
            delete=False,
        ),
    )
    try:
        with stream:
            yield stream
        try:
            mode = stat.S_IMODE(os.stat(path).st_mode)
        except OSError:  # a new file: the usual mode for this user
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(stream.name, mode)
        os.replace(stream.name, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(stream.name)
        raise


def silence_stdout() -> None:
    """Point standard output at /dev/null, after its reader went away, so
    that flushing it at exit does not report the broken pipe again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        pass
