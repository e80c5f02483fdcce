"""The engines: one module per solver behind one interface
(``dlx.engines.base.Engine``), and the registry that picks one
(``dlx.engines.registry``).  Importing the package loads no engine:
each loads with its kernels when it is first used (``ENGINES``, every
one of them, loads on first look-up)."""

from typing import TYPE_CHECKING

from .base import (
    COLORS,
    EXACT,
    KINDS,
    MULTIPLICITIES,
    Engine,
    JobResult,
    Unsupported,
)
from .registry import (
    ALGORITHMS,
    BY_NAME,
    algorithm_help,
    algorithm_names,
    engine_for,
    engine_of,
    family,
    refuse,
)

if TYPE_CHECKING:
    from .registry import ENGINES


def __getattr__(name: str) -> object:
    if name == "ENGINES":  # every engine loaded (PEP 562)
        from . import registry

        return registry.ENGINES
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "Engine",
    "JobResult",
    "Unsupported",
    "EXACT",
    "COLORS",
    "MULTIPLICITIES",
    "KINDS",
    "ENGINES",
    "BY_NAME",
    "ALGORITHMS",
    "algorithm_names",
    "algorithm_help",
    "engine_for",
    "engine_of",
    "family",
    "refuse",
]
