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
    holders = {
        i: {k for k, opt in enumerate(options) if i in opt}
        for i in range(nitems)
    }
    solutions = []

    def search(active, chosen):
        open_primary = [i for i in range(nprimary) if i in active]
        if not open_primary:
            solutions.append(tuple(sorted(chosen)))
            return
        item = min(
            open_primary, key=lambda i: len(holders[i] & active_opts(active))
        )
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
    return len(covered) == len(set(covered)) and set(problem.primary) <= set(
        covered
    )


def generalized_covers(
    options, nprimary, nitems, colors=None, bounds=None, given=()
):
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
    free = [
        k
        for k, opt in enumerate(options)
        if k not in given and any(i < nprimary for i in opt)
    ]
    solutions = []
    for size in range(len(free) + 1):
        for extra in itertools.combinations(free, size):
            chosen = sorted(given + list(extra))
            if _is_generalized_cover(
                chosen, options, nprimary, nitems, colors, bounds
            ):
                solutions.append(tuple(chosen))
    return sorted(solutions)


def is_generalized_cover(
    chosen, options, nprimary, nitems, colors=None, bounds=None
):
    """Is the set of options ``chosen`` an XCC/MCC solution (see
    ``generalized_covers``)?  Options with no primary item count too."""
    return _is_generalized_cover(
        sorted(chosen),
        options,
        nprimary,
        nitems,
        colors or [{} for _ in options],
        bounds or {},
    )


def _is_generalized_cover(chosen, options, nprimary, nitems, colors, bounds):
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


def costed_covers(
    options, nprimary, nitems, costs, colors=None, bounds=None, given=()
):
    """Every XCC/MCC solution with its cost (the sum of its options'
    ``costs``), as ``(cost, solution)`` pairs sorted by cost: the brute
    force that ``best`` is checked against."""
    return sorted(
        (sum(costs[k] for k in solution), solution)
        for solution in generalized_covers(
            options, nprimary, nitems, colors, bounds, given
        )
    )


# -- the engines' arrays, from their definitions ---------------------------


def dlx1_arrays(nitems, nprimary, options):
    """DLX1's ``top, ulink, dlink, length`` (``dlx.kernels.dlx1``) for
    ``options`` (lists of item numbers from 1), laid out from the
    definition: option ``j``'s nodes are ``nitems + 2 + (members before
    it) + j`` on, a spacer before each option and after the last; an item's
    vertical list is the header and then the nodes of the options with a
    primary item that contain it, in option order, closed in a ring; the
    other options' nodes point to themselves."""
    n, m = nitems, len(options)
    node, spacers, firsts = n + 1, [n + 1], []
    members = []  # (node, item, linked)
    for opt in options:
        firsts.append(node + 1)
        linked = any(k <= nprimary for k in opt)
        for k in opt:
            node += 1
            members.append((node, k, linked))
        node += 1
        spacers.append(node)
    total = node + 1
    top, ulink, dlink = [0] * total, [0] * total, [0] * total
    length = [0] * (n + 2)
    for x, k, _linked in members:
        top[x] = k
        ulink[x] = dlink[x] = x
    for j, s in enumerate(spacers):
        top[s] = -j
        ulink[s] = firsts[j - 1] if j else 0
        dlink[s] = firsts[j] + len(options[j]) - 1 if j < m else 0
    for k in range(n + 1):
        ring = [k] + [x for x, i, linked in members if i == k and linked]
        length[k] = len(ring) - 1
        for a, b in zip(ring, ring[1:] + ring[:1]):
            dlink[a], ulink[b] = b, a
    return top, ulink, dlink, length


def ssxc1_sets(nitems, nprimary, options, head=2):
    """SSXC1's ``item, set, itm, loc`` (``dlx.kernels.ssxc1``) for
    ``options`` (lists of item numbers from 1), from the definition: item
    ``k``'s block is ``head`` header words (``pos``, ``size`` last) and
    then the nodes of the options with a primary item that contain ``k``,
    in option order; node 0 and a node after each option are spacers
    (``itm`` minus the size of the option before it, ``loc`` the size of
    the option after it)."""
    kept = [any(k <= nprimary for k in opt) for opt in options]
    holders = {k: [] for k in range(1, nitems + 1)}
    node, nodes = 0, []
    for j, opt in enumerate(options):
        for k in opt:
            node += 1
            nodes.append((node, k, kept[j]))
            if kept[j]:
                holders[k].append(node)
        node += 1
    x, where = [], head
    for k in range(1, nitems + 1):
        x.append(where)
        where += len(holders[k]) + head
    set_ = [0] * (where - head if nitems else head)  # (no items: a head)
    itm, loc = [0] * (node + 1), [-1] * (node + 1)
    for k in range(1, nitems + 1):
        xk = x[k - 1]
        set_[xk - 2], set_[xk - 1] = k - 1, len(holders[k])
        for r, q in enumerate(holders[k]):
            set_[xk + r] = q
            loc[q] = xk + r
    for q, k, _ in nodes:
        itm[q] = x[k - 1]
    spacer = 0
    for opt in options:
        loc[spacer] = len(opt)
        spacer += len(opt) + 1
        itm[spacer] = -len(opt)
    loc[spacer] = 0
    return x, set_, itm, loc
