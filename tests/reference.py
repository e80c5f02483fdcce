"""A tiny pure-Python Algorithm X: the yardstick for the jitted engine.

Items are column numbers; an option is a set of them.  Secondary items may
be covered at most once.  Plain recursion over dicts of sets, no cleverness.
"""

import itertools


def exact_covers(options, nprimary, nitems, given=()):
    """Every solution, as a sorted tuple of option numbers.

    With ``given``, the solutions that contain those options (none when
    they overlap): the search starts with them already chosen.
    """
    holders = {i: {k for k, opt in enumerate(options) if i in opt}
               for i in range(nitems)}
    solutions = []

    def search(active, chosen):
        open_primary = [i for i in range(nprimary) if i in active]
        if not open_primary:
            solutions.append(tuple(sorted(chosen)))
            return
        item = min(open_primary, key=lambda i: len(holders[i] & active_opts(active)))
        for k in sorted(holders[item] & active_opts(active)):
            rest = active - set(options[k])
            chosen.append(k)
            search(rest, chosen)
            chosen.pop()

    def active_opts(active):
        return {k for k, opt in enumerate(options) if set(opt) <= active}

    taken = [i for k in given for i in options[k]]
    if len(taken) == len(set(taken)):
        search(set(range(nitems)) - set(taken), list(given))
    return sorted(solutions)


def is_exact_cover(problem, solution):
    """Do the options ``solution`` of an ``ExactCover`` cover every primary
    item once and every secondary item at most once?"""
    covered = [item for k in solution for item in problem.options[k]]
    return (len(covered) == len(set(covered))
            and set(problem.primary) <= set(covered))


def generalized_covers(options, nprimary, nitems, colors=None, bounds=None,
                       given=()):
    """Every XCC/MCC solution, by brute force over sets of options.

    ``options[k]`` is a list of item numbers, ``colors[k]`` a dict {item:
    color} for its colored (secondary) items, ``bounds`` {primary item:
    (u, v)} (others (1, 1)).  A solution is a set of distinct options
    holding ``given``: primary item i in u_i..v_i of them; a secondary item
    in at most one, or in several that all give it the same color.  An
    option with no primary item is never part of a solution unless given
    (Knuth's programs ignore it).
    """
    colors = colors or [{} for _ in options]
    bounds = bounds or {}
    given = sorted(set(given))
    free = [k for k, opt in enumerate(options) if k not in given
            and any(i < nprimary for i in opt)]
    solutions = []
    for size in range(len(free) + 1):
        for extra in itertools.combinations(free, size):
            chosen = sorted(given + list(extra))
            if _is_generalized_cover(chosen, options, nprimary, nitems,
                                     colors, bounds):
                solutions.append(tuple(chosen))
    return sorted(solutions)


def is_generalized_cover(chosen, options, nprimary, nitems, colors=None,
                         bounds=None):
    """Is the set of options ``chosen`` an XCC/MCC solution (see
    ``generalized_covers``)?  Options with no primary item count too."""
    return _is_generalized_cover(sorted(chosen), options, nprimary, nitems,
                                 colors or [{} for _ in options],
                                 bounds or {})


def _is_generalized_cover(chosen, options, nprimary, nitems, colors,
                          bounds):
    uses = {i: [] for i in range(nitems)}
    for k in chosen:
        for i in options[k]:
            uses[i].append(colors[k].get(i))
    for i in range(nprimary):
        u, v = bounds.get(i, (1, 1))
        if not u <= len(uses[i]) <= v:
            return False
    for i in range(nprimary, nitems):
        if len(uses[i]) > 1 and (None in uses[i] or len(set(uses[i])) > 1):
            return False
    return True

def domino_tilings(rows, cols):
    """The number of domino tilings of a rows x cols board, by a transfer
    matrix over the cells in row order (a state is the set of cells of the
    next row already covered by vertical dominoes), with Python integers:
    an independent check of the memoized counts, exact at any size."""
    if rows * cols % 2:
        return 0
    if cols > rows:
        rows, cols = cols, rows
    states = {0: 1}
    for r in range(rows):
        for c in range(cols):
            bit = 1 << c
            grown = {}
            for state, n in states.items():
                if state & bit:  # covered from above: move on
                    nexts = [state & ~bit]
                else:
                    nexts = []
                    if r + 1 < rows:  # a vertical domino into the next row
                        nexts.append(state | bit)
                    if c + 1 < cols and not state & (bit << 1):
                        nexts.append(state | (bit << 1))  # a horizontal one
                for s in nexts:
                    grown[s] = grown.get(s, 0) + n
            states = grown
    return states.get(0, 0)


def costed_covers(options, nprimary, nitems, costs, colors=None,
                  bounds=None, given=()):
    """Every XCC/MCC solution with its cost (the sum of its options'
    ``costs``), as ``(cost, solution)`` pairs sorted by cost: the brute
    force that ``best`` is checked against."""
    return sorted((sum(costs[k] for k in solution), solution)
                  for solution in generalized_covers(
                      options, nprimary, nitems, colors, bounds, given))
