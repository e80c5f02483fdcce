"""The services' settings that the command line's flags show (their
choices, defaults and help), in a module of their own, without numpy or
kernels: ``dlx --help`` builds every flag without loading a service."""

RULES = (
    "no-primary",
    "empty-item",
    "implied-item",
    "blocking-option",
    "free-secondary",
)
"""Every rule ``reduce`` may apply, by name (``dlx.services.reduce``'s
``RULE_CODES`` gives each its kernel's code)."""
DLX_PRE_RULES = ("no-primary", "empty-item", "implied-item", "blocking-option")
"""The rules of Knuth's DLX-PRE."""

DEFAULT_PROBES = 10_000
"""The probes of an estimate by default (``dlx.services.estimate``): on
the counting benchmarks the estimate of the node count is then within a
few percent (bench/)."""
