"""How big is a search tree?  Knuth's Monte Carlo estimate.

Knuth ("Estimating the efficiency of backtrack programs", 1975; TAOCP
7.2.2) walks from the root to a leaf choosing a random option at each
node; the product of the branching degrees along the walk is how many
nodes of each depth the walk stands for.  Summed, it is an unbiased
estimate of the tree's node count (and, weighting each node's work, of
its updates; the weight of a solution leaf, of the solutions).  Many
walks (*probes*) average out; their spread gives a standard error.  The
walks run in the engine's kernel where it has one
(``dlx.kernels.dlx1.probe`` for DLX1), else from Python over its tree
(``dlx.engines.walk``); an estimated time comes from the updates per
second of a short real search.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from ..engines import engine_for, engine_of, refuse
from .defaults import DEFAULT_PROBES
from .search import BudgetExhausted, whole_number

__all__ = ["Estimate", "estimate"]

# Nodes of the short real search that measures the search rate.
RATE_NODES = 300_000


@dataclass
class Estimate:
    """Estimated size of a search tree, with standard errors (``*_error``:
    one standard error of the mean over ``probes`` probes).

    ``seconds``: estimated time of the whole search at the rate (updates
    per second) measured on this machine; ``exact``: True when the tree
    was small enough that the rate measurement searched it all, and the
    figures are then the true ones; ``program``: whose search tree it is
    (Knuth's name: ``"DLX1"``, ``"SSXC1"``...).
    """

    nodes: float
    nodes_error: float
    updates: float
    updates_error: float
    solutions: float
    solutions_error: float
    seconds: float
    probes: int
    exact: bool = False
    program: str = "DLX1"

    def __str__(self) -> str:
        def show(value, error):
            if self.exact:
                return f"{value:,.0f}"
            share = f" ± {100 * error / value:.0f}%" if value else ""
            return f"about {_round(value)}{share}"

        solutions = (
            f"{show(self.solutions, self.solutions_error)} solutions"
            if self.solutions or self.exact
            else "no solution met by any probe"
        )
        return (
            f"Estimated from {self.probes:,} probes of {self.program}'s "
            f"tree: {solutions}, "
            f"{show(self.nodes, self.nodes_error)} nodes, "
            f"{show(self.updates, self.updates_error)} updates, "
            f"{_duration(self.seconds)} on one core"
            + (" (exact: the whole tree was searched)" if self.exact else "")
            + "."
        )


def _round(x: float) -> str:
    """Three significant digits, grouped: 14,800,000."""
    if x < 1000:
        return f"{x:.3g}"
    digits = int(math.floor(math.log10(x))) - 2
    return f"{round(x, -digits):,.0f}"


def _duration(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.3g} s"
    if seconds < 7200:
        return f"{seconds / 60:.3g} min"
    if seconds < 48 * 3600:
        return f"{seconds / 3600:.3g} h"
    return f"{seconds / 86400:.3g} days"


def estimate(
    problem,
    probes: int = DEFAULT_PROBES,
    *,
    seed: int = 0,
    given: Iterable[int] = (),
    mrv_cutoff: int = 0,
    algorithm: str = "auto",
) -> Estimate:
    """Knuth's estimate of ``problem.count(algorithm=algorithm)``'s work
    (see the module), on the tree of the engine ``algorithm`` picks."""
    probes = whole_number("probes", probes)
    if probes < 1:
        raise ValueError("probes must be at least 1")
    seed = whole_number("seed", seed)
    cutoff = whole_number("mrv_cutoff", mrv_cutoff)
    given = problem.given_options(given)
    engine = probed_engine(problem, algorithm)
    # The rate: a short real search (which may settle the question).
    t0 = time.perf_counter()
    try:
        problem.count(
            given=given,
            max_nodes=RATE_NODES,
            mrv_cutoff=cutoff,
            algorithm=engine.algorithm,
        )
        exact = True
    except BudgetExhausted:
        exact = False
    stats = problem.stats
    spent = time.perf_counter() - t0
    if exact:
        return Estimate(
            stats.nodes,
            0.0,
            stats.updates,
            0.0,
            stats.solutions,
            0.0,
            stats.seconds,
            probes,
            True,
            engine.program,
        )
    mean, error = probe_figures(
        problem,
        probes,
        seed=seed,
        given=given,
        mrv_cutoff=cutoff,
        algorithm=algorithm,
    )
    rate = stats.updates / max(stats.seconds, spent * 1e-3, 1e-9)
    return Estimate(
        float(mean[0]),
        float(error[0]),
        float(mean[1]),
        float(error[1]),
        float(mean[2]),
        float(error[2]),
        float(mean[1] / rate),
        probes,
        False,
        engine.program,
    )


def probed_engine(problem, algorithm="auto"):
    """The engine whose tree the probes walk for ``algorithm``: its own,
    where its ``Top`` walks the search's very tree (``exact_split``); for
    dancing cells, dancing links' of the same kind.  SSXC1's next node
    depends on the order in which the subtrees before it left its sets,
    which no walk from the root can know, so its own tree has no unbiased
    probe here (the solutions' estimate would be, not the nodes')."""
    engine = engine_for(problem, algorithm, "split")
    if not engine.splits:
        raise refuse("Knuth's estimate", problem.kind, engine)
    if not engine.exact_split:
        engine = engine_of("links", problem.kind)
    return engine


def probe_figures(
    problem,
    probes: int,
    *,
    seed: int = 0,
    given: Iterable[int] = (),
    mrv_cutoff: int = 0,
    algorithm: str = "auto",
):
    """The probes alone: ``(mean, standard error)``, each an array of the
    estimated ``(nodes, updates, solutions)``."""
    engine = probed_engine(problem, algorithm)
    arrays = engine.arrays(problem)
    given_nodes = engine.option_nodes(arrays, problem.given_options(given))
    top = engine.top(arrays, given_nodes, mrv_cutoff)
    if top.clash:  # the givens clash: an empty tree
        return np.zeros(3), np.zeros(3)
    if top.covered:  # the givens are a cover: one leaf
        return np.array([1.0, top.base, 1.0]), np.zeros(3)
    out = engine.probe(arrays, given_nodes, mrv_cutoff, probes, seed)
    mean = out.mean(axis=0)
    error = (
        out.std(axis=0, ddof=1) / math.sqrt(probes)
        if probes > 1
        else np.full(3, math.inf)
    )
    mean[1] += top.base  # the givens' own updates, once
    return mean, error
