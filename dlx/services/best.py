"""The k cheapest solutions (Knuth's DLX5), with budgets and Ctrl-C.

``best(problem, k)`` asks an engine that offers costs (``Engine.costs``:
today ``dlx.engines.costs``, DLX5) for a resumable search of the ``k``
cheapest solutions and drives it in slices with ``dlx.search.run``, so
that ``max_nodes``, ``time_limit``, Ctrl-C and progress behave as in every
other search.  A search stopped early raises ``BudgetExhausted`` or
``Interrupted`` carrying ``best``, the cheapest solutions found so far,
and ``proven = False``: cheaper ones may exist.

Several searches may share one threshold (``threshold``: a one-element
int64 array of net costs, see ``dlx.engines.costs.CostRun``): each prunes
with the best that any of them has found, so jobs that split one tree
prune as well as one search does.
"""

from __future__ import annotations

from typing import Iterable

from ..engines import engine_for
from . import search
from .search import BudgetExhausted, Interrupted, Stats, whole_number

__all__ = ["best"]


def best(problem, k: int = 1, *, given: Iterable[int] = (),
         max_nodes: int | None = None, time_limit: float | None = None,
         threshold=None, progress=None,
         engine=None) -> list[tuple[int, list[int]]]:
    """The ``k`` cheapest solutions of ``problem`` (an ``ExactCover``),
    cheapest first: ``(cost, option numbers)`` each, the numbers sorted
    and the ``given`` options among them; fewer when the problem has
    fewer solutions, ``[]`` when it has none.  Ties are broken in no
    particular order, as in DLX5.

    ``problem.stats`` records the search (DLX5's nodes and updates;
    ``solutions``: the solutions found that beat the threshold of their
    moment).  ``max_nodes``/``time_limit``/Ctrl-C raise
    ``BudgetExhausted``/``Interrupted`` with ``best`` (what was found) and
    ``proven = False``.  ``progress(run, stats)`` is called between
    slices.  ``threshold``: see the module docstring.
    """
    k = whole_number("k", k, positive=True)
    max_nodes = whole_number("max_nodes", max_nodes, optional=True)
    time_limit = search.seconds("time_limit", time_limit)
    given = problem.given_options(given)
    engine = engine or engine_for(problem, purpose="best")
    arrays = engine.arrays(problem)
    nodes = engine.option_nodes(arrays, given)
    given = sorted(given)
    stats = problem.stats = Stats(complete=False)
    run = engine.start_best(arrays, nodes, k, threshold)
    stats.updates = int(run.counters[1])
    if run.clash:  # the givens overlap: no solution
        stats.complete = True
        return []
    if run.covered:  # the givens are the one solution, a leaf node
        stats.nodes = stats.solutions = 1
        stats.complete = True
        return [(run.base + arrays.total_tax, given)]

    def found():
        return [(cost, sorted(options + given))
                for cost, options in run.best()]

    try:
        for _ in search.run(run, stats, limit=None, max_nodes=max_nodes,
                            time_limit=time_limit, store=False, given=[],
                            progress=progress):
            pass
    except (BudgetExhausted, Interrupted) as stop:
        stop.best = found()
        stop.proven = False
        raise
    return found()
