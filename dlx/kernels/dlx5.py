"""Knuth's DLX5 (the k cheapest solutions, with colors) over flat arrays.

Every function is a module-level ``@njit(cache=True)`` kernel calling only
kernels of this module (see ``dlx.kernels``): ``hide``/``unhide``,
``option_fits``, ``hide_option`` and ``commit_option`` are copies of
``dlx.kernels.dlx2``'s, with the cost threshold added where DLX5 has it.

The arrays are DLX2's (``dlx.kernels.dlx2``: ``llink``, ``rlink``,
``ulink``, ``dlink``, ``top``, ``length``, ``color``), the four node
arrays interleaved as one, ``nd`` (node ``q``'s ``ulink``, ``dlink``,
``top`` and ``color`` at ``nd[4q]`` to ``nd[4q + 3]``: what a hide reads
of a node is one cache line, as in DLX5's node struct; a third faster
than four arrays), plus one:

* ``cost`` (int64, one entry per node): the *net* cost of the node's
  option, the same in each of its nodes.  ``assign_taxes`` makes it so:
  each primary item in turn pays a *tax*, the least net cost of the
  options in its list, which is taken off every one of them.  Afterwards
  every option's net cost is >= 0 and every primary item has an option of
  net cost 0; a solution costs the total tax plus its net costs, so the
  net costs rank solutions as the costs do.
* Every item's list is sorted by net cost, cheapest on top (ties in
  option order, as DLX5's stable merge sort leaves them); the engine
  (``dlx.engines.dlx5``) sorts them when it builds the arrays.

Where the pruning lives.  ``cut`` (``state[2]``) is the threshold: the
net cost of the ``k``-th best solution found so far (``INF`` until ``k``
are known), lowered, never raised, whenever a better solution is found or
the caller's ``shared[0]`` (a threshold other searches may lower) is
below it.  A partial solution of net cost ``curcost`` can only grow by
options of net cost below ``cut - curcost``: the lists being sorted, a
walk down a list stops at the first option that is too dear.  So

* choosing an item (``choose_item``, DLX5's rule) backtracks at once when
  an active item's cheapest option is too dear (no completion can beat
  the threshold), or its list is empty;
* trying the options of the chosen item stops at the first too-dear one;
* ``cover`` and ``purify`` hide only the options below the threshold
  ``cut - nextcost`` of the moment (``thresh0``/``thresh`` per level):
  the rest could never be chosen below, since the threshold only falls.
  ``uncover`` and ``unpurify`` walk the same options with the same
  threshold (DLX5 walks them downward too: the links come back all the
  same, as Knuth remarks).

Counters are DLX5's and equal its own on the same input (with
``lenthresh`` 10, its default): ``nodes`` counts every level entered (to
choose an item, or to find it hopeless) plus every solution recorded;
``updates`` one per ``cover`` plus one per node unlinked by ``cover`` or
``purify``; ``solutions`` every solution recorded, that is every solution
found that beat the threshold of the moment (DLX5's "solutions").

The ``k`` best so far are a max-heap: ``heap_cost[h]`` the net cost of
heap entry ``h`` (``INF`` when empty), ``heap_slot[h]`` the row of
``best_nodes`` holding its options (first nodes of the chosen options, one
per level, ``best_len`` of them).  A new solution replaces the root (the
dearest), so ``heap_cost[0]`` is the local threshold.
"""

import numpy as np

from .jit import njit

# See dlx.kernels.dlx1: unsigned indices avoid numba's wraparound test.
U = np.uint64

# A node's fields in nd: node q's are nd[4 * q + UP] ... nd[4 * q + COLOR].
UP = 0
DOWN = 1
TOP = 2
COLOR = 3

# The threshold before any solution is known; every net cost of a
# solution is below it (the engine checks their sum when it builds).
INF = np.iinfo(np.int64).max

# The search and its helpers are compiled with _nrt=False: numba's
# reference counting otherwise wraps each call of cover, purify and
# cover_rest in atomic increments and decrements of the arrays' counts
# (its pruning pass does not remove them across these loops' several
# exits), which took two thirds of the time on a timetable (2.6 M nodes:
# 0.51 s -> 0.18 s; dlx5 0.20 s).  No kernel here allocates an array, and
# the caller keeps every array alive for the call.
NO_NRT = dict(cache=True, _nrt=False)

# DLX5's lenthresh: choose_item looks at most this many options down a
# list before it takes the list's length instead.
LENTHRESH = 10

# Where the search resumes (state[1]), and what search() returns (the
# codes of dlx.kernels.dlx1).
FORWARD = 0
RECOVER = 1  # after a pause at a solution: try the next option
DONE = 2

EXHAUSTED = 0
PAUSED = 1
OUT_OF_NODES = 2

# The search's steps between two visits to the top of its loop.
_ADVANCE = 1
_RECOVER = 2
_BACKUP = 3
_BACKDOWN = 4


@njit(cache=True)
def assign_taxes(nd, cost, nprimary, tax):
    """DLX5's taxes: for each primary item in turn, the least net cost in
    its list is its tax (``tax[k]``, 0 for an empty list) and is taken off
    every node of every option in the list.  Returns the total tax (the
    caller checks that it fits)."""
    total = 0
    for k in range(1, nprimary + 1):
        p = nd[U(4 * k + DOWN)]
        if p == k:
            tax[k] = 0
            continue
        minc = cost[U(p)]
        while p != k and minc > 0:
            if cost[U(p)] < minc:
                minc = cost[U(p)]
            p = nd[U(4 * p + DOWN)]
        tax[k] = minc
        if minc == 0:
            continue
        total += minc
        p = nd[U(4 * k + DOWN)]
        while p != k:
            q = p + 1
            while True:
                if nd[U(4 * q + TOP)] <= 0:
                    q = nd[U(4 * q + UP)]
                    continue
                cost[U(q)] -= minc
                if q == p:
                    break
                q += 1
            p = nd[U(4 * p + DOWN)]
    return total


@njit(**NO_NRT)
def hide(p, nd, length):
    """Unlink the other nodes of p's option (DLX2's hide)."""
    updates = 0
    q = p + 1
    while q != p:
        x = nd[U(4 * q + TOP)]
        if x <= 0:  # spacer: wrap to the first node of this option
            q = nd[U(4 * q + UP)]
            continue
        if nd[U(4 * q + COLOR)] >= 0:
            u = nd[U(4 * q + UP)]
            d = nd[U(4 * q + DOWN)]
            nd[U(4 * u + DOWN)] = d
            nd[U(4 * d + UP)] = u
            length[U(x)] -= 1
            updates += 1
        q += 1
    return updates


@njit(**NO_NRT)
def unhide(p, nd, length):
    """Relink the other nodes of p's option (in hide's order, as DLX5)."""
    q = p + 1
    while q != p:
        x = nd[U(4 * q + TOP)]
        if x <= 0:
            q = nd[U(4 * q + UP)]
            continue
        if nd[U(4 * q + COLOR)] >= 0:
            nd[U(4 * nd[U(4 * q + UP)] + DOWN)] = q
            nd[U(4 * nd[U(4 * q + DOWN)] + UP)] = q
            length[U(x)] += 1
        q += 1


@njit(**NO_NRT)
def cover(i, thresh, llink, rlink, nd, length, cost):
    """Take item i out of the active list and hide the options of its list
    that cost less than ``thresh``; returns the updates."""
    left = llink[U(i)]
    right = rlink[U(i)]
    rlink[U(left)] = right
    llink[U(right)] = left
    updates = 1
    r = nd[U(4 * i + DOWN)]
    while r != i:
        if cost[U(r)] >= thresh:
            break
        updates += hide(r, nd, length)
        r = nd[U(4 * r + DOWN)]
    return updates


@njit(**NO_NRT)
def uncover(i, thresh, llink, rlink, nd, length, cost):
    """Inverse of cover with the same threshold (downward, as DLX5)."""
    r = nd[U(4 * i + DOWN)]
    while r != i:
        if cost[U(r)] >= thresh:
            break
        unhide(r, nd, length)
        r = nd[U(4 * r + DOWN)]
    left = llink[U(i)]
    right = rlink[U(i)]
    rlink[U(left)] = i
    llink[U(right)] = i


@njit(**NO_NRT)
def purify(p, thresh, nd, length, cost):
    """Give p's secondary item p's color: among the options below
    ``thresh``, hide those that want another color (or none) and mark the
    agreeing nodes -1.  The item's header keeps the color (givens read
    it)."""
    x = nd[U(4 * p + TOP)]
    c = nd[U(4 * p + COLOR)]
    nd[U(4 * x + COLOR)] = c
    updates = 0
    r = nd[U(4 * x + DOWN)]
    while r != x:
        if cost[U(r)] >= thresh:
            break
        if nd[U(4 * r + COLOR)] != c:
            updates += hide(r, nd, length)
        elif r != p:
            nd[U(4 * r + COLOR)] = -1
        r = nd[U(4 * r + DOWN)]
    return updates


@njit(**NO_NRT)
def unpurify(p, thresh, nd, length, cost):
    """Inverse of purify with the same threshold."""
    x = nd[U(4 * p + TOP)]
    c = nd[U(4 * p + COLOR)]
    nd[U(4 * x + COLOR)] = 0
    r = nd[U(4 * x + DOWN)]
    while r != x:
        if cost[U(r)] >= thresh:
            break
        if nd[U(4 * r + COLOR)] < 0:
            nd[U(4 * r + COLOR)] = c
        elif r != p:
            unhide(r, nd, length)
        r = nd[U(4 * r + DOWN)]


@njit(**NO_NRT)
def cover_rest(p, thresh, llink, rlink, nd, length, cost):
    """Cover or purify the other items of p's option (DLX5's "cover all
    other items of cur_node"); purified nodes (-1) are left alone."""
    updates = 0
    q = p + 1
    while q != p:
        x = nd[U(4 * q + TOP)]
        if x <= 0:
            q = nd[U(4 * q + UP)]
            continue
        c = nd[U(4 * q + COLOR)]
        if c == 0:
            updates += cover(x, thresh, llink, rlink, nd, length, cost)
        elif c > 0:
            updates += purify(q, thresh, nd, length, cost)
        q += 1
    return updates


@njit(**NO_NRT)
def uncover_rest(p, thresh, llink, rlink, nd, length, cost):
    """Inverse of cover_rest, leftward."""
    q = p - 1
    while q != p:
        x = nd[U(4 * q + TOP)]
        if x <= 0:
            q = nd[U(4 * q + DOWN)]
            continue
        c = nd[U(4 * q + COLOR)]
        if c == 0:
            uncover(x, thresh, llink, rlink, nd, length, cost)
        elif c > 0:
            unpurify(q, thresh, nd, length, cost)
        q -= 1


@njit(**NO_NRT)
def choose_item(rlink, nd, length, cost, limit, lenthresh):
    """DLX5's branching rule: the active primary item with the fewest
    options cheaper than ``limit`` (counted up to ``lenthresh``, beyond
    which the list's length stands in), ties to the one whose cheapest
    option costs most, then to the leftmost.  Returns the count and the
    item; a count of 0 (with that item) when some item has no option
    cheaper than ``limit``: no completion beats the threshold."""
    t = 0x7FFFFFFF
    best = 0
    dearest = 0
    k = np.int64(rlink[0])
    while k != 0:
        p = nd[U(4 * k + DOWN)]
        if p == k:
            return 0, k
        mincost = cost[U(p)]
        if mincost >= limit:
            return 0, k
        s = 1
        p = nd[U(4 * p + DOWN)]
        more = False
        while True:
            if p == k or cost[U(p)] >= limit:
                break
            if s == t:
                more = True
                break
            if s >= lenthresh:
                s = length[U(k)]
                break
            s += 1
            p = nd[U(4 * p + DOWN)]
        if not more and (s < t or (s == t and mincost > dearest)):
            t = s
            best = k
            dearest = mincost
        k = rlink[U(k)]
    return t, best


@njit(**NO_NRT)
def record(c, level, choice, heap_cost, heap_slot, best_nodes, best_len):
    """Put a solution of net cost ``c`` (below ``heap_cost[0]``) in the
    heap, in place of the dearest; its options are ``choice[:level+1]``."""
    slot = heap_slot[0]
    for l in range(level + 1):
        best_nodes[slot, l] = choice[U(l)]
    best_len[slot] = level + 1
    kk = heap_cost.shape[0]
    h = 0
    while True:
        hh = 2 * h + 1
        if hh >= kk:
            break
        if hh + 1 < kk and heap_cost[hh + 1] > heap_cost[hh]:
            hh += 1
        if heap_cost[hh] > c:
            heap_cost[h] = heap_cost[hh]
            heap_slot[h] = heap_slot[hh]
            h = hh
        else:
            break
    heap_cost[h] = c
    heap_slot[h] = slot


@njit(nogil=True, **NO_NRT)
def search(
    llink,
    rlink,
    nd,
    length,
    cost,
    choice,
    partcost,
    thresh0,
    thresh,
    state,
    heap_cost,
    heap_slot,
    best_nodes,
    best_len,
    shared,
    stop,
    want,
    max_nodes,
    counters,
    lenthresh,
):
    """DLX5's search, iterative and resumable: runs until the tree is
    explored (``EXHAUSTED``), until ``want`` solutions have been recorded
    (``PAUSED``, 0: never; the last one is ``choice[:state[0] + 1]``), or,
    before entering a level, until ``counters[0]`` reaches ``max_nodes``
    or ``stop[0]`` is set (``OUT_OF_NODES``).  Call again to go on.

    ``state``: ``[level, where, cut, curcost]`` (start with ``[0,
    FORWARD, INF, net cost of the givens]``); ``choice``, ``partcost``,
    ``thresh0`` and ``thresh`` hold, per level, the chosen node, the net
    cost before it and the thresholds of its covers.  ``shared[0]``: a
    threshold others may lower (``INF`` for none); this search lowers it
    to its own when it finds better.  The root list must hold a primary
    item on the first call.
    """
    level = state[0]
    if state[1] == DONE:
        return EXHAUSTED
    cut = state[2]
    curcost = state[3]
    nodes = counters[0]
    updates = counters[1]
    found = 0
    status = EXHAUSTED
    best = 0
    p = 0
    nextcost = 0
    step = FORWARD
    if state[1] == RECOVER:
        p = choice[level]
        best = nd[U(4 * p + TOP)]
        step = _RECOVER
    state[1] = FORWARD
    while True:
        if step == FORWARD:
            if nodes >= max_nodes or stop[0] != 0:
                status = OUT_OF_NODES
                break
            nodes += 1
            if shared[0] < cut:
                cut = shared[0]
            t, best = choose_item(
                rlink, nd, length, cost, cut - curcost, lenthresh
            )
            if t == 0:
                step = _BACKDOWN
                continue
            partcost[level] = curcost
            p = nd[U(4 * best + DOWN)]
            choice[level] = p
            nextcost = curcost + cost[U(p)]
            thresh0[level] = cut - nextcost
            updates += cover(
                best, thresh0[level], llink, rlink, nd, length, cost
            )
            step = _ADVANCE
        elif step == _ADVANCE:
            th = cut - nextcost
            thresh[level] = th
            updates += cover_rest(p, th, llink, rlink, nd, length, cost)
            if rlink[0] == 0:
                # A solution below the threshold: a leaf node.
                nodes += 1
                found += 1
                record(
                    nextcost,
                    level,
                    choice,
                    heap_cost,
                    heap_slot,
                    best_nodes,
                    best_len,
                )
                if heap_cost[0] < cut:
                    cut = heap_cost[0]
                    if cut < shared[0]:
                        shared[0] = cut
                step = _RECOVER
                if found == want:
                    state[1] = RECOVER
                    status = PAUSED
                    break
            else:
                level += 1
                curcost = nextcost
                step = FORWARD
        elif step == _RECOVER:
            uncover_rest(p, thresh[level], llink, rlink, nd, length, cost)
            p = nd[U(4 * p + DOWN)]
            choice[level] = p
            if p == best or cost[U(p)] >= cut - curcost:
                step = _BACKUP
            else:
                nextcost = curcost + cost[U(p)]
                step = _ADVANCE
        elif step == _BACKUP:
            uncover(best, thresh0[level], llink, rlink, nd, length, cost)
            step = _BACKDOWN
        else:  # _BACKDOWN
            if level == 0:
                state[1] = DONE
                break
            level -= 1
            p = choice[level]
            best = nd[U(4 * p + TOP)]
            curcost = partcost[level]
            step = _RECOVER
    state[0] = level
    state[2] = cut
    state[3] = curcost
    counters[0] = nodes
    counters[1] = updates
    counters[2] += found
    return status


# -- givens: copies of dlx.kernels.dlx2's, with thresholds at INF --------
@njit(cache=True)
def option_fits(p, llink, rlink, nd):
    """Can the option whose first node is p join the options chosen so far?
    (dlx.kernels.dlx2.option_fits)"""
    q = p
    while nd[U(4 * q + TOP)] > 0:
        x = nd[U(4 * q + TOP)]
        c = nd[U(4 * q + COLOR)]
        if c >= 0:
            free = rlink[llink[U(x)]] == x and nd[U(4 * x + COLOR)] == 0
            if not (free or (c > 0 and nd[U(4 * x + COLOR)] == c)):
                return False
        q += 1
    return True


@njit(cache=True)
def hide_option(p, nd, length):
    """Unlink every node of the option whose first node is p
    (dlx.kernels.dlx2.hide_option)."""
    updates = 0
    q = p
    while nd[U(4 * q + TOP)] > 0:
        if nd[U(4 * q + COLOR)] >= 0 and nd[U(4 * q + DOWN)] != q:
            u = nd[U(4 * q + UP)]
            d = nd[U(4 * q + DOWN)]
            nd[U(4 * u + DOWN)] = d
            nd[U(4 * d + UP)] = u
            length[U(nd[U(4 * q + TOP)])] -= 1
            updates += 1
        q += 1
    return updates


@njit(cache=True)
def commit_option(p, llink, rlink, nd, length, cost):
    """Choose the option whose first node is p before the search (a given):
    every option of its items that it excludes is hidden, whatever its
    cost.  Returns the updates, or -1 (nothing changed) when it does not
    fit the options committed before it."""
    if not option_fits(p, llink, rlink, nd):
        return -1
    updates = hide_option(p, nd, length)
    q = p
    while nd[U(4 * q + TOP)] > 0:
        c = nd[U(4 * q + COLOR)]
        x = nd[U(4 * q + TOP)]
        if c == 0:
            updates += cover(x, INF, llink, rlink, nd, length, cost)
        elif c > 0:
            if nd[U(4 * x + COLOR)] == c:
                nd[U(4 * q + COLOR)] = -1  # already purified with c
            else:
                updates += purify(q, INF, nd, length, cost)
        q += 1
    return updates
