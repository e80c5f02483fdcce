"""Shared fixtures."""

import contextlib
import importlib
import pkgutil
import signal

import pytest

import dlx.kernels
from dlx.engines import Unsupported, registry
from dlx.kernels import jit

# A shell that starts the suite in the background (``pytest &`` in a
# script, nohup) hands it SIGINT ignored, and the processes it starts too:
# every test of Ctrl-C would then wait for an interrupt that never comes.
# Python's own handler makes the suite and its children (a caught signal
# is the default again after exec) take Ctrl-C as a terminal gives it.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

#: Every family ``algorithm=`` names, from the registry (``"auto"`` aside):
#: a new engine's family is in every test that runs per algorithm.
FAMILIES = [name for name in registry.algorithm_names() if name != "auto"]


def family_serves(name, problem, purpose="search") -> bool:
    """Does family ``name`` have an engine for ``problem``'s kind that
    offers ``purpose`` (``registry.family``'s word: search, batch, split
    or best)?"""
    try:
        engine = registry.engine_of(
            name, problem.kind, costs=purpose == "best"
        )
    except Unsupported:
        return False
    return {"batch": engine.batches, "split": engine.splits}.get(purpose, True)


@pytest.fixture(params=FAMILIES)
def each_algorithm(request, monkeypatch):
    """Run a test once per search family: ``algorithm="auto"`` (the
    default of every search method) means this one while it runs, where
    the family serves the problem and the search (links: DLX1, DLX2, DLX3;
    cells: SSXC1, SSXCC, SSMCC; bits: plain exact cover, no splits), and
    what "auto" decides elsewhere, since the registry is the one place
    that decides."""
    decide = registry.family

    def forced(problem, algorithm="auto", purpose="search"):
        if algorithm == "auto" and family_serves(
            request.param, problem, purpose
        ):
            algorithm = request.param
        return decide(problem, algorithm, purpose)

    monkeypatch.setattr(registry, "family", forced)
    return request.param


@contextlib.contextmanager
def plain_kernels(seconds, elements, strict=True):
    """Every kernel module loaded afresh (none of its kernels compiled)
    and ``jit.plain_first(seconds, elements)`` for the block; on leaving,
    plain runs are off again and, ``strict``, every kernel is asserted to
    be still the plain one (what ran plain, ran plain)."""
    modules = [
        importlib.reload(importlib.import_module(f"dlx.kernels.{m.name}"))
        for m in pkgutil.iter_modules(dlx.kernels.__path__)
        if m.name != "jit"
    ]
    jit.plain_first(seconds, elements)
    try:
        yield modules
    finally:
        jit.plain_first(0)
    if strict:
        for module in modules:
            for name, value in vars(module).items():
                if hasattr(value, "py_func"):
                    assert isinstance(value, jit.Kernel), (module, name)
