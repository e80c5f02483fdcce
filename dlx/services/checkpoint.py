"""Checkpoints: the finished jobs of a long count, kept durably.

A checkpoint is an append-only log: a header line (which problem, which
engine, which split) written whole by write-then-rename, then one line per
finished job (with, in the same line, the jobs it handed back when its
budget ran out), each flushed and fsynced before the next job is recorded.
A crash at any instant leaves at most a torn last line, which is dropped
on resume; a job is recorded only after it finished, and a recorded job is
never run again, so the resumed count is exactly the uninterrupted one.
"""

from __future__ import annotations

import json
import os

from ..engines.base import JobResult
from ..shorten import shorten

__all__ = ["Checkpoint", "CheckpointError"]


class CheckpointError(ValueError):
    """A checkpoint file that does not belong to this count."""


_FORMAT = "dlx-checkpoint 3"
# Version 2 (DLX1's tree only, before other engines could split) named a
# job by its givens, the split's own first: its records read the same,
# the path being what follows the split's givens; version 1 had no jobs
# handed back.
_READABLE = (_FORMAT, "dlx-checkpoint 2", "dlx-checkpoint 1")


class Checkpoint:
    """The finished jobs of one split, kept in an append-only file.

    Open with ``Checkpoint(path, problem_fingerprint, plan)``: a new file
    gets a header naming the problem, the engine and the split; an
    existing one must have the same, or ``CheckpointError`` says what
    differs.  ``done`` maps each recorded job's path to its ``JobResult``,
    whose ``rest`` (the jobs it handed back, ``(path, share)`` each) is
    recorded in the same line as its figures, so a job's rest is known
    exactly when its figures are.

    Args:
        path: The checkpoint's file (created when missing).
        problem_fingerprint: The problem's ``problem_digest``.
        plan: The ``Split`` whose jobs are recorded.

    Raises:
        CheckpointError: A file of another problem or split, or not a
            checkpoint.
        OSError: The file cannot be read or written.
    """

    def __init__(self, path, problem_fingerprint: str, plan):
        self.path = os.fspath(path)
        self.done: dict = {}
        header = {
            "format": _FORMAT,
            "problem": problem_fingerprint,
            "engine": plan.engine,
            "given": list(plan.given),
            "mrv_cutoff": plan.mrv_cutoff,
            "target": plan.target,
            "jobs": len(plan.jobs),
            "split": plan.digest(),
        }
        if os.path.exists(self.path):
            self._resume(header)
        else:
            self._create(header)
        self._file = open(self.path, "a", encoding="utf-8")

    @staticmethod
    def read_header(path) -> dict | None:
        """The header of the checkpoint at ``path``, or None if there is no
        file; CheckpointError if it is not a checkpoint.

        Args:
            path: The checkpoint's file.

        Returns:
            The header's fields, or None without a file.

        Raises:
            CheckpointError: The file is not a checkpoint.
        """
        path = os.fspath(path)
        if not os.path.exists(path):
            return None
        with open(path, "rb") as f:
            first = f.readline()
        try:
            header = json.loads(first)
            if header.get("format") not in _READABLE:
                raise ValueError
        except (ValueError, AttributeError):
            raise CheckpointError(
                f"{path} is not a dlx checkpoint (its "
                f"first line is not a checkpoint header)"
            ) from None
        # Before version 3 only DLX1's tree was split.
        header.setdefault("engine", "dlx1")
        return header

    @staticmethod
    def recorded(
        path,
        problem_fingerprint: str,
        engine: str,
        given=(),
        mrv_cutoff: int = 0,
    ) -> int:
        """The solutions of the jobs recorded at ``path`` for this problem,
        engine, given options and cutoff (0 without such a checkpoint):
        what a count interrupted before it read the file holds already.

        Args:
            path: The checkpoint's file.
            problem_fingerprint: The problem's ``problem_digest``.
            engine: The engine's name.
            given: The given options.
            mrv_cutoff: The search rule's cutoff.

        Returns:
            The solutions recorded (0 without a matching checkpoint).
        """
        try:
            header = None if path is None else Checkpoint.read_header(path)
        except (CheckpointError, OSError):
            return 0
        if header is None or (
            header.get("problem"),
            header.get("engine"),
            header.get("given"),
            header.get("mrv_cutoff"),
        ) != (problem_fingerprint, engine, list(given), mrv_cutoff):
            return 0
        with open(os.fspath(path), "rb") as f:
            lines = f.read().split(b"\n")[1:-1]  # (the last may be torn)
        total, seen = 0, set()
        for line in lines:
            try:
                entry = json.loads(line)
                key = tuple(
                    entry["path"] if "path" in entry else entry["given"]
                )
                found = entry["solutions"]
            except (ValueError, KeyError, TypeError):
                break
            if type(found) is int and found >= 0 and key not in seen:
                seen.add(key)
                total += found
        return total

    def _create(self, header: dict) -> None:
        # The header appears whole or not at all: written to a temporary
        # file, synced, then renamed over the name.
        temporary = f"{self.path}.tmp{os.getpid()}"
        with open(temporary, "w", encoding="utf-8") as f:
            f.write(json.dumps(header) + "\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(temporary, self.path)
        _sync_directory(self.path)

    def _resume(self, header: dict) -> None:
        old = self.read_header(self.path)
        assert old is not None  # resumed only where the file exists
        where = self.path
        if old["problem"] != header["problem"]:
            raise CheckpointError(
                f"{where} was made for a different problem; "
                f"remove it or name another file"
            )
        for name, what in (
            ("engine", "engine"),
            ("given", "given options"),
            ("mrv_cutoff", "mrv_cutoff"),
        ):
            if old[name] != header[name]:
                raise CheckpointError(
                    f"{where} was made with {what} {shorten(old[name])}, "
                    f"not {shorten(header[name])}"
                )
        if old["split"] != header["split"]:
            raise CheckpointError(
                f"{where} was made for a different split of this problem "
                f"({old['jobs']} jobs aimed at {old['target']}, not "
                f"{header['jobs']} aimed at {header['target']})"
            )
        given = len(old["given"])
        with open(self.path, "rb") as f:
            data = f.read()
        lines = data.split(b"\n")
        good = len(lines[0]) + 1
        # The last piece is empty after a whole last line; anything else
        # there is a line torn by a crash, and is dropped.
        for k, line in enumerate(lines[1:-1], 2):
            try:
                entry = json.loads(line)
                # Before version 3, a job was named by all its givens
                # (the split's first), and so were the jobs it handed back.
                skip = 0 if "path" in entry else given
                key = tuple(
                    entry["path"] if "path" in entry else entry["given"][skip:]
                )
                value = JobResult(
                    int(entry["solutions"]),
                    int(entry["nodes"]),
                    int(entry["updates"]),
                    0.0,
                    [
                        (tuple(int(o) for o in rest[skip:]), float(share))
                        for rest, share in entry.get("rest", ())
                    ],
                )
                # (A hand-edited figure is no count: whole numbers >= 0.)
                if any(
                    type(entry[f]) is not int or entry[f] < 0
                    for f in ("solutions", "nodes", "updates")
                ):
                    raise ValueError
            except (ValueError, KeyError, TypeError):
                raise CheckpointError(
                    f"{where}:{k}: not a job record; the file is damaged"
                ) from None
            self.done.setdefault(key, value)
            good += len(line) + 1
        if good < len(data):
            with open(self.path, "r+b") as torn:
                torn.truncate(good)
                torn.flush()
                os.fsync(torn.fileno())

    def record(self, path: tuple, result: JobResult) -> None:
        """Record a finished job durably (flushed and fsynced).

        Args:
            path: The job's path.
            result: Its figures and the rest it handed back.
        """
        rest = [(tuple(p), s) for p, s in result.rest]
        self.done[tuple(path)] = JobResult(
            result.solutions, result.nodes, result.updates, 0.0, rest
        )
        entry = {
            "path": list(path),
            "solutions": result.solutions,
            "nodes": result.nodes,
            "updates": result.updates,
        }
        if rest:
            entry["rest"] = [[list(p), s] for p, s in rest]
        self._file.write(json.dumps(entry) + "\n")
        self._file.flush()
        os.fsync(self._file.fileno())

    def close(self) -> None:
        self._file.close()


def _sync_directory(path: str) -> None:
    """Make a rename durable (the directory entry), where the OS allows."""
    try:
        fd = os.open(os.path.dirname(os.path.abspath(path)), os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
