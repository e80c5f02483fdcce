"""dlx: exact cover by Knuth's Dancing Links, with numba-jitted kernels.

Glossary: *item* — something to cover (primary: exactly once; secondary: at
most once); *option* — a set of items; *solution* — options that cover each
primary item exactly once and each secondary item at most once.

>>> from dlx import ExactCover
>>> p = ExactCover(["a", "b", "c"])
>>> p.add_options([["a", "b"], ["c"], ["a"], ["b", "c"]])
[0, 1, 2, 3]
>>> sorted(p.solutions())
[[0, 1], [2, 3]]
>>> p.count()
2
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from ._version import __version__

# The names below load on first use (PEP 562), so that a command that
# answers ``--version`` or ``--help``, or a script that needs only the
# formats, does not pay for numba and every kernel module at start-up.
_WHERE = {
    "ExactCover": ".problem",
    "Stats": ".services.search",
    "BatchResult": ".services.batch",
    "BudgetExhausted": ".services.search",
    "Interrupted": ".services.search",
    "Unsupported": ".engines.base",
    "ZDD": ".services.zdd",
    "Method": ".options",
    "Workers": ".options",
    "Budget": ".options",
    "DLXFormatError": ".formats",
    "load": ".formats",
    "loads": ".formats",
    "dump": ".formats",
    "dumps": ".formats",
}

if TYPE_CHECKING:  # what the names are, for type checkers and readers
    from . import problems
    from .engines.base import Unsupported
    from .formats import DLXFormatError, dump, dumps, load, loads
    from .options import Budget, Method, Workers
    from .problem import ExactCover
    from .services.batch import BatchResult
    from .services.search import BudgetExhausted, Interrupted, Stats
    from .services.zdd import ZDD


def __getattr__(name: str) -> object:
    if name == "problems":
        value = importlib.import_module(".problems", __name__)
    elif name in _WHERE:
        value = getattr(importlib.import_module(_WHERE[name], __name__), name)
    else:
        raise AttributeError(f"module 'dlx' has no attribute {name!r}")
    globals()[name] = value  # the next look-up is a plain one
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


__all__ = [
    "ExactCover",
    "Stats",
    "BatchResult",
    "BudgetExhausted",
    "Interrupted",
    "Unsupported",
    "ZDD",
    "Method",
    "Workers",
    "Budget",
    "DLXFormatError",
    "load",
    "loads",
    "dump",
    "dumps",
    "problems",
    "__version__",
]
