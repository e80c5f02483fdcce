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

from . import problems
from ._version import __version__
from .engines import Unsupported
from .formats import DLXFormatError, dump, dumps, load, loads
from .problem import ExactCover
from .services.batch import BatchResult
from .services.search import BudgetExhausted, Interrupted, Stats
from .services.zdd import ZDD

__all__ = [
    "ExactCover",
    "Stats",
    "BatchResult",
    "BudgetExhausted",
    "Interrupted",
    "Unsupported",
    "ZDD",
    "DLXFormatError",
    "load",
    "loads",
    "dump",
    "dumps",
    "problems",
    "__version__",
]
