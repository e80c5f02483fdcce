"""The engines: one module per solver behind one interface
(``dlx.engines.base.Engine``), and the registry that picks one
(``dlx.engines.registry``)."""

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
    ENGINES,
    algorithm_help,
    algorithm_names,
    engine_for,
    engine_of,
    family,
    refuse,
)

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
