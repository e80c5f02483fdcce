"""Knuth's random probes over any engine's tree, walked from Python.

The fallback of ``Engine.probe`` for engines without a probe kernel: each
probe walks from the root to a leaf by ``Top.expand``, choosing a child
at random; the product of the branching degrees along the walk is how
many nodes of each depth the walk stands for (Knuth, "Estimating the
efficiency of backtrack programs", 1975).  Slower than a kernel (a node
is expanded from Python, its path replayed from the root), and unbiased
all the same.
"""

from __future__ import annotations

import numpy as np


def probe_top(top, probes: int, seed: int) -> np.ndarray:
    """``probes`` walks of ``top``'s tree: rows ``(nodes, updates,
    solutions)``, each an unbiased estimate of the tree's figures (the
    givens' own updates excluded).  ``top`` must have a tree to walk
    (neither ``clash`` nor ``covered``)."""
    rng = np.random.default_rng(seed)
    out = np.zeros((probes, 3), np.float64)
    for k in range(probes):
        path: tuple = ()
        weight = nodes = 1.0
        updates = solutions = 0.0
        while True:
            spent, children = top.expand(path)
            updates += weight * spent
            if not children:  # a dead end
                break
            weight *= len(children)
            nodes += weight
            moves, leaf = children[int(rng.integers(len(children)))]
            if leaf:  # a solution, a leaf
                solutions = weight
                break
            path += tuple(moves)
        out[k] = nodes, updates, solutions
    return out
