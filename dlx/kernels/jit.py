"""The kernels' ``njit``: numba's, made when a kernel is first called, and
plain Python while a command's first small problems are searched.

A kernel module decorates its functions with ``njit`` from here, not
numba's.  The decorator returns a ``Kernel``: nothing imports numba until
one of the module's kernels is first called; then every kernel of that
module becomes numba's dispatcher at once (the module's names are rebound
to the dispatchers, so the kernels' calls to each other compile as
numba's always did, and the on-disk cache is used as before).

Loading compiled kernels has a fixed price: importing numba and its
registries takes most of a second on a quiet machine, where a search of
Knuth's seven-item example takes microseconds.  ``plain_first`` (the
``dlx`` and ``sudoku`` commands call it) lets the kernels run as the
plain Python they are written in, the same functions over the same
arrays, while every array they are given holds at most ``elements``
entries and until they have run ``seconds`` in all; past either, the
module's compiled kernels load and take over, and a resumable search
carries on from the state the plain calls left (``dlx.services.search``
runs a search in slices, each a call).  Nothing else changes: the same
code finds the same solutions in the same order with the same counters.
"""

from __future__ import annotations

import os
import threading
import time
import types
from typing import Any

import numpy as np

__all__ = [
    "njit",
    "intrinsic",
    "Kernel",
    "plain_first",
    "runs_plain",
    "compiled",
]


#: How long a command's kernels may run plain before the compiled ones
#: load (a tenth of what loading them costs on a quiet machine; a problem
#: that needs more is searched compiled, at most this much later).
PLAIN_SECONDS = 0.1


class _Plain:
    """``plain_first``'s settings and what has been spent."""

    enabled = False
    seconds = 0.0
    elements = 0
    spent = 0.0


_plain = _Plain()
_local = threading.local()  # .depth: plain calls under way on this thread
_lock = threading.Lock()


def plain_first(seconds: float | None = None, elements: int = 1 << 16) -> None:
    """Run kernels as plain Python while their arrays hold at most
    ``elements`` entries each, for ``seconds`` in all (see the module's
    docstring); ``seconds=0`` turns it off.  By default ``seconds`` is
    the environment's ``DLX_PLAIN_SECONDS``, else ``PLAIN_SECONDS``."""
    if seconds is None:
        text = os.environ.get("DLX_PLAIN_SECONDS", "").strip()
        try:
            seconds = float(text) if text else PLAIN_SECONDS
        except ValueError:
            seconds = -1.0
        if not seconds >= 0:  # (NaN too)
            raise ValueError(
                f"DLX_PLAIN_SECONDS must be a number of seconds, 0 or "
                f"more, got {text!r}"
            )
    _plain.enabled = seconds > 0
    _plain.seconds = seconds
    _plain.elements = elements
    _plain.spent = 0.0


def _plain_fits(args: tuple) -> bool:
    if not _plain.enabled or _plain.spent >= _plain.seconds:
        return False
    limit = _plain.elements
    return all(not isinstance(a, np.ndarray) or a.size <= limit for a in args)


def runs_plain(kernel: Any, *args: Any) -> bool:
    """Whether ``kernel(*args)`` would run plain now: a caller that cannot
    be cut short between calls (a batch) bounds its plain work with it."""
    if not isinstance(kernel, Kernel):
        return False
    if getattr(_local, "depth", 0):
        # Called by a plain kernel: plain throughout, even if another
        # thread has compiled the module meanwhile.
        return True
    return kernel.dispatcher is None and _plain_fits(args)


def _run_plain(function: Any, args: tuple, kwargs: dict) -> Any:
    depth = getattr(_local, "depth", 0)
    _local.depth = depth + 1
    start = time.perf_counter()
    try:
        # numba's integers wrap silently; numpy's scalars would warn.
        with np.errstate(all="ignore"):
            return function(*args, **kwargs)
    finally:
        _local.depth = depth
        if not depth:
            _plain.spent += time.perf_counter() - start


# Every Kernel made, by module and name (the latest of a reloaded module):
# what a plain run's names stand for (see Kernel.plain).
_made: dict[str, dict[str, Kernel]] = {}
# By module: the namespace plain runs read, the module's own with each
# kernel's name bound to its Kernel (made on the first plain run).
_plain_globals: dict[str, dict[str, Any]] = {}


class Kernel:
    """A kernel before its module is compiled (see the module's docstring):
    called, it runs plain or compiles its module; ``py_func`` is the
    Python function, as on numba's dispatchers."""

    def __init__(
        self, function: Any, options: dict[str, Any], name: str = ""
    ) -> None:
        self.py_func = function
        self.options = options
        self.dispatcher: Any = None
        self.__name__ = function.__name__
        self.__qualname__ = function.__qualname__
        self.__module__ = function.__module__
        self.__doc__ = function.__doc__
        self.__wrapped__ = function
        self._plain: Any = None
        with _lock:
            made = _made.setdefault(function.__module__, {})
            made[name or function.__name__] = self
            _plain_globals.pop(function.__module__, None)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if runs_plain(self, *args):
            return _run_plain(self.plain(), args, kwargs)
        return compiled(self)(*args, **kwargs)

    def plain(self) -> Any:
        """The Python function as plain runs call it: reading its module's
        names with each kernel bound to its ``Kernel``, not to what
        ``compiled`` rebinds it to (a numba intrinsic is not callable
        from Python, so a plain run under way when another thread
        compiles the module would meet one)."""
        if self._plain is None:
            function = self.py_func
            module = function.__module__
            with _lock:
                namespace = _plain_globals.get(module)
                if namespace is None:
                    namespace = dict(function.__globals__)
                    namespace.update(_made.get(module, {}))
                    _plain_globals[module] = namespace
            plain = types.FunctionType(
                function.__code__,
                namespace,
                function.__name__,
                function.__defaults__,
                function.__closure__,
            )
            plain.__kwdefaults__ = function.__kwdefaults__
            self._plain = plain
        return self._plain

    def __getattr__(self, name: str) -> Any:
        # What else numba's dispatcher answers (signatures, stats, ...);
        # not Python's own protocol names (copy, pickle ask for those).
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(compiled(self), name)

    def __repr__(self) -> str:
        return f"<kernel {self.__module__}.{self.__qualname__}>"

    def make(self) -> Any:
        """numba's version of the kernel (numba imported)."""
        import numba

        return numba.njit(**self.options)(self.py_func)

    @property
    def _numba_type_(self) -> Any:
        # numba types a global it meets by this attribute: a Kernel left
        # in some namespace still compiles as its dispatcher.
        from numba.core import types

        return types.Dispatcher(compiled(self))


class Intrinsic(Kernel):
    """A numba intrinsic (a typer returning its signature and code, as
    ``numba.extending.intrinsic`` takes it) with a plain Python twin that
    the kernels call while they run plain."""

    def __init__(self, typer: Any, plain: Any) -> None:
        super().__init__(plain, {}, typer.__name__)
        self.typer = typer
        self.__name__ = typer.__name__
        self.__qualname__ = typer.__qualname__
        self.__doc__ = typer.__doc__

    def make(self) -> Any:
        from numba.extending import intrinsic as numba_intrinsic

        return numba_intrinsic(self.typer)


def compiled(kernel: Any) -> Any:
    """``kernel``'s numba dispatcher, made with those of every kernel of
    its module (their names in the module rebound to them); a dispatcher
    (the module compiled already) as it is."""
    if not isinstance(kernel, Kernel):
        return kernel
    if kernel.dispatcher is not None:
        return kernel.dispatcher
    with _lock:
        if kernel.dispatcher is None:
            namespace = kernel.py_func.__globals__
            for name, value in list(namespace.items()):
                if isinstance(value, Kernel) and value.dispatcher is None:
                    value.dispatcher = value.make()
                    namespace[name] = value.dispatcher
            if kernel.dispatcher is None:  # not a module-level name
                kernel.dispatcher = kernel.make()
    return kernel.dispatcher


def njit(*args: Any, **options: Any) -> Any:
    """``@njit`` or ``@njit(cache=True, ...)``: a ``Kernel`` that becomes
    ``numba.njit(**options)`` of the function when first compiled."""
    if len(args) == 1 and callable(args[0]) and not options:
        return Kernel(args[0], {})
    if args:
        raise TypeError("njit takes its options as keywords")
    return lambda function: Kernel(function, options)


def intrinsic(plain: Any) -> Any:
    """``@intrinsic(plain)`` over a typer: an ``Intrinsic``, ``plain``
    standing in for it while the kernels run plain."""
    return lambda typer: Intrinsic(typer, plain)
