"""DLX3 (bounds, colors) with DLX5's costs: the k cheapest solutions of a
problem whose primary items have multiplicities ``u..v``.

Knuth's DLX5 refuses bounds; this kernel is his DLX3 (``dlx.kernels.
multiplicities``, whose ``hide`` to ``uncover_rest``, ``commit_option``
and ``_settle`` are copied here unchanged, compiled without reference
counting as in ``dlx.kernels.dlx5``) with DLX5's pruning added:

* taxes (``assign_taxes``) on the items of fixed multiplicity (``u = v``)
  only: a solution covers such an item exactly ``v`` times, so it pays
  ``v`` times its tax whatever it is, and net costs rank solutions as
  costs do (an item of ``u < v`` is covered a varying number of times:
  it pays no tax);
* every item's list sorted by net cost, cheapest on top (the engine sorts
  them; DLX3's tweaks take options off the top, so the top of a list is
  always its cheapest untried option);
* the threshold ``cut`` (``state[2]``), the net cost of the ``k``-th best
  solution found so far, lowered by better solutions and by the caller's
  shared ``shared[0]``, never raised.  A partial solution of net cost
  ``curcost`` ends when an active item that still needs an option (its
  ``bound`` above its ``slack``) has none cheaper than ``cut - curcost``
  (``choose_item``), and a level stops trying options of its item at the
  first too-dear one, going on to the null move when the item may take no
  more.

Covers are DLX3's, whole (DLX5's covers of only the options below the
threshold are not carried over): nodes and updates are DLX3's where no
cost prunes, and no Knuth program counts this search otherwise.
"""

import numpy as np

from .jit import njit

U = np.uint64

# As in dlx.kernels.dlx5: the search and its helpers run without numba's
# reference counting (nothing here allocates an array).
NO_NRT = dict(cache=True, _nrt=False)

# No threshold yet (every solution's net cost is below it).
INF = np.iinfo(np.int64).max

# choose_item's score when no primary item is active: a solution.
INFINITY = 0x7FFFFFFF

FORWARD = 0
RECOVER = 1
DONE = 2

EXHAUSTED = 0
PAUSED = 1
OUT_OF_NODES = 2


@njit(cache=True)
def assign_taxes(ulink, dlink, top, cost, fixed, tax):
    """Tax each primary item ``k`` with ``fixed[k]`` (``u = v``) the least
    net cost in its list, taken off every node of every option there
    (``dlx.kernels.dlx5.assign_taxes``, for the fixed items only)."""
    for k in range(1, fixed.shape[0]):
        tax[k] = 0
        p = dlink[U(k)]
        if p == k or not fixed[k]:
            continue
        minc = cost[U(p)]
        while p != k and minc > 0:
            if cost[U(p)] < minc:
                minc = cost[U(p)]
            p = dlink[U(p)]
        tax[k] = minc
        if minc == 0:
            continue
        p = dlink[U(k)]
        while p != k:
            q = p + 1
            while True:
                if top[U(q)] <= 0:
                    q = ulink[U(q)]
                    continue
                cost[U(q)] -= minc
                if q == p:
                    break
                q += 1
            p = dlink[U(p)]


@njit(**NO_NRT)
def hide(p, ulink, dlink, top, color, length):
    """Unlink the other nodes of p's option (purified ones stay)."""
    updates = 0
    q = p + 1
    while q != p:
        x = top[U(q)]
        if x <= 0:
            q = ulink[U(q)]
            continue
        if color[U(q)] >= 0:
            u = ulink[U(q)]
            d = dlink[U(q)]
            dlink[U(u)] = d
            ulink[U(d)] = u
            length[U(x)] -= 1
            updates += 1
        q += 1
    return updates


@njit(**NO_NRT)
def unhide(p, ulink, dlink, top, color, length):
    """Inverse of hide, leftward."""
    q = p - 1
    while q != p:
        x = top[U(q)]
        if x <= 0:
            q = dlink[U(q)]
            continue
        if color[U(q)] >= 0:
            up = ulink[U(q)]
            down = dlink[U(q)]
            dlink[U(up)] = q
            ulink[U(down)] = q
            length[U(x)] += 1
        q -= 1


@njit(**NO_NRT)
def cover(c, llink, rlink, ulink, dlink, top, color, length):
    """Deactivate item c and hide every option that has it."""
    left = llink[U(c)]
    right = rlink[U(c)]
    rlink[U(left)] = right
    llink[U(right)] = left
    updates = 1
    r = dlink[U(c)]
    while r != c:
        updates += hide(r, ulink, dlink, top, color, length)
        r = dlink[U(r)]
    return updates


@njit(**NO_NRT)
def uncover(c, react, llink, rlink, ulink, dlink, top, color, length):
    """Inverse of cover; relinks c only when ``react``."""
    r = ulink[U(c)]
    while r != c:
        unhide(r, ulink, dlink, top, color, length)
        r = ulink[U(r)]
    if react:
        left = llink[U(c)]
        right = rlink[U(c)]
        rlink[U(left)] = c
        llink[U(right)] = c


@njit(**NO_NRT)
def purify(p, ulink, dlink, top, color, length):
    """As in DLX2: hide the options that disagree with p's color on p's
    item, mark the agreeing nodes -1 (p's own option is already out)."""
    x = top[U(p)]
    c = color[U(p)]
    color[U(x)] = c
    updates = 0
    r = dlink[U(x)]
    while r != x:
        if color[U(r)] != c:
            updates += hide(r, ulink, dlink, top, color, length)
        elif r != p:
            color[U(r)] = -1
        r = dlink[U(r)]
    return updates


@njit(**NO_NRT)
def unpurify(p, ulink, dlink, top, color, length):
    """Inverse of purify, bottom-up."""
    x = top[U(p)]
    c = color[U(p)]
    r = ulink[U(x)]
    while r != x:
        if color[U(r)] < 0:
            color[U(r)] = c
        elif r != p:
            unhide(r, ulink, dlink, top, color, length)
        r = ulink[U(r)]
    color[U(x)] = 0


@njit(**NO_NRT)
def tweak(n, block, ulink, dlink, top, color, length):
    """Unlink node n, the top of its item's list, and (``block``) the rest
    of its option: n's option is chosen, and leaves the item for good at
    this level.  Without ``block`` the item is covered already, and only
    n leaves it."""
    updates = 0
    q = n + 1 if block else n
    while True:
        x = top[U(q)]
        if x <= 0:
            q = ulink[U(q)]
            continue
        if color[U(q)] >= 0:
            u = ulink[U(q)]
            d = dlink[U(q)]
            dlink[U(u)] = d
            ulink[U(d)] = u
            length[U(x)] -= 1
            updates += 1
        if q == n:
            break
        q += 1
    return updates


@njit(**NO_NRT)
def untweak(c, first, unblock, llink, rlink, ulink, dlink, top, color, length):
    """Undo the tweaks of item c since ``first`` was on top.

    The tweaked nodes still point down to each other, ``first`` to the
    next and the last to the current top ``z``: relinking their ``ulink``
    along that chain and ``dlink[c] = first`` restores the list.
    """
    z = dlink[U(c)]
    dlink[U(c)] = first
    r = first
    k = 0
    above = c
    while r != z:
        ulink[U(r)] = above
        k += 1
        if unblock:
            q = r + 1
            while q != r:
                x = top[U(q)]
                if x <= 0:
                    q = ulink[U(q)]
                    continue
                if color[U(q)] >= 0:
                    up = ulink[U(q)]
                    down = dlink[U(q)]
                    dlink[U(up)] = q
                    ulink[U(down)] = q
                    length[U(x)] += 1
                q += 1
        above = r
        r = dlink[U(r)]
    ulink[U(r)] = above
    length[U(c)] += k
    if not unblock:
        uncover(c, False, llink, rlink, ulink, dlink, top, color, length)


@njit(**NO_NRT)
def cover_rest(p, llink, rlink, ulink, dlink, top, length, color, bound):
    """The other items of p's option, rightward: a primary item's bound
    drops by one (covered at 0), a secondary item is covered (uncolored)
    or purified (colored)."""
    nprimary = bound.shape[0] - 1
    updates = 0
    q = p + 1
    while q != p:
        x = top[U(q)]
        if x <= 0:
            q = ulink[U(q)]
            continue
        if x <= nprimary:
            bound[U(x)] -= 1
            if bound[U(x)] == 0:
                updates += cover(
                    x, llink, rlink, ulink, dlink, top, color, length
                )
        else:
            c = color[U(q)]
            if c == 0:
                updates += cover(
                    x, llink, rlink, ulink, dlink, top, color, length
                )
            elif c > 0:
                updates += purify(q, ulink, dlink, top, color, length)
        q += 1
    return updates


@njit(**NO_NRT)
def uncover_rest(p, llink, rlink, ulink, dlink, top, length, color, bound):
    """Inverse of cover_rest, leftward."""
    nprimary = bound.shape[0] - 1
    q = p - 1
    while q != p:
        x = top[U(q)]
        if x <= 0:
            q = dlink[U(q)]
            continue
        if x <= nprimary:
            if bound[U(x)] == 0:
                uncover(
                    x, True, llink, rlink, ulink, dlink, top, color, length
                )
            bound[U(x)] += 1
        else:
            c = color[U(q)]
            if c == 0:
                uncover(
                    x, True, llink, rlink, ulink, dlink, top, color, length
                )
            elif c > 0:
                unpurify(q, ulink, dlink, top, color, length)
        q -= 1


@njit(**NO_NRT)
def choose_item(rlink, dlink, length, bound, slack, cost, limit):
    """DLX3's M3 (the active primary item of least branching degree, ties
    to the smaller slack, then the longer list, then the first), with
    DLX5's test: a degree of 0 (a dead end) also when an item that still
    needs an option has none cheaper than ``limit``.  Returns ``(degree,
    item)``, ``(INFINITY, 0)`` when no primary item is active."""
    score = INFINITY
    pick = 0
    best_s = 0
    best_l = 0
    k = rlink[0]
    while k != 0:
        b = bound[U(k)]
        s = slack[U(k)]
        if s > b:
            s = b
        l = length[U(k)]
        t = l + s - b + 1
        if b > s:  # k needs another option: is one cheap enough?
            p = dlink[U(k)]
            if p == k or cost[U(p)] >= limit:
                t = 0
        if t <= score:
            if t <= 0:
                return t, k
            if t < score or s < best_s or (s == best_s and l > best_l):
                score = t
                pick = k
                best_s = s
                best_l = l
        k = rlink[U(k)]
    return score, pick


@njit(**NO_NRT)
def record(
    c, level, nitems, choice, heap_cost, heap_slot, best_nodes, best_len
):
    """Put a solution of net cost ``c`` in the heap of the k best, in place
    of the dearest; its options are the option nodes of
    ``choice[:level]`` (null moves left out)."""
    slot = heap_slot[0]
    n = 0
    for l in range(level):
        if choice[U(l)] > nitems:
            best_nodes[slot, n] = choice[U(l)]
            n += 1
    best_len[slot] = n
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


_FORWARD = 0
_ADVANCE = 1
_BACKUP = 2
_BACKDOWN = 3


@njit(nogil=True, **NO_NRT)
def search(
    llink,
    rlink,
    ulink,
    dlink,
    top,
    length,
    color,
    bound,
    slack,
    first_tweak,
    cost,
    choice,
    partcost,
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
):
    """DLX3 with costs, iterative and resumable (the returns of
    ``dlx.kernels.dlx5.search``).  ``state``: ``[level, where, cut,
    curcost]``; ``choice[l]`` the option node chosen at level ``l`` (an
    item's header for a null move) and ``partcost[l]`` the net cost
    before it.  A solution is recorded when no primary item is active;
    when ``want`` solutions have been recorded it pauses, the last one
    being the option nodes of ``choice[:state[0]]``."""
    nitems = llink.shape[0] - 2
    level = state[0]
    where = state[1]
    if where == DONE:
        return EXHAUSTED
    cut = state[2]
    curcost = state[3]
    nodes = counters[0]
    updates = counters[1]
    found = 0
    status = EXHAUSTED
    best = 0
    cur = 0
    step = _FORWARD if where == FORWARD else _BACKDOWN
    while True:
        if step == _FORWARD:
            if nodes >= max_nodes or stop[0] != 0:
                status = OUT_OF_NODES
                where = FORWARD
                break
            nodes += 1
            if shared[0] < cut:
                cut = shared[0]
            score, pick = choose_item(
                rlink, dlink, length, bound, slack, cost, cut - curcost
            )
            if score <= 0:
                step = _BACKDOWN
                continue
            if score == INFINITY:  # every primary item is settled
                found += 1
                record(
                    curcost,
                    level,
                    nitems,
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
                step = _BACKDOWN
                if found == want:
                    status = PAUSED
                    where = RECOVER
                    break
                continue
            best = pick
            cur = dlink[U(best)]
            choice[U(level)] = cur
            partcost[U(level)] = curcost
            bound[U(best)] -= 1
            if bound[U(best)] == 0 and slack[U(best)] == 0:
                updates += cover(
                    best, llink, rlink, ulink, dlink, top, color, length
                )
            else:
                first_tweak[U(level)] = cur
                if bound[U(best)] == 0:
                    updates += cover(
                        best, llink, rlink, ulink, dlink, top, color, length
                    )
            step = _ADVANCE
        elif step == _ADVANCE:
            b = bound[U(best)]
            sl = slack[U(best)]
            if cur != best and cost[U(cur)] >= cut - curcost:
                # This option and the rest of the list are too dear: only
                # the null move is left, where the item allows one (slack
                # above bound, as when DLX3 has tweaked its whole list
                # away).  The dear options stay in the lists: no level
                # below can afford them, the threshold only falling.
                if sl <= b:
                    step = _BACKUP
                    continue
                cur = best
                choice[U(level)] = cur
            if b == 0 and sl == 0:
                if cur == best:
                    step = _BACKUP
                    continue
            elif length[U(best)] <= b - sl:
                step = _BACKUP
                continue
            elif cur != best:
                updates += tweak(cur, b, ulink, dlink, top, color, length)
            elif b != 0:  # the null move: best takes no more options
                left = llink[U(best)]
                right = rlink[U(best)]
                rlink[U(left)] = right
                llink[U(right)] = left
            if cur > nitems:
                updates += cover_rest(
                    cur, llink, rlink, ulink, dlink, top, length, color, bound
                )
                curcost = partcost[U(level)] + cost[U(cur)]
            level += 1
            step = _FORWARD
        elif step == _BACKUP:
            if bound[U(best)] == 0 and slack[U(best)] == 0:
                uncover(
                    best, True, llink, rlink, ulink, dlink, top, color, length
                )
            else:
                untweak(
                    best,
                    first_tweak[U(level)],
                    bound[U(best)],
                    llink,
                    rlink,
                    ulink,
                    dlink,
                    top,
                    color,
                    length,
                )
            bound[U(best)] += 1
            step = _BACKDOWN
        else:
            if level == 0:
                where = DONE
                break
            level -= 1
            cur = choice[U(level)]
            curcost = partcost[U(level)]
            if cur <= nitems:  # a null move: reactivate the item
                best = cur
                left = llink[U(best)]
                right = rlink[U(best)]
                rlink[U(left)] = best
                llink[U(right)] = best
                step = _BACKUP
                continue
            best = top[U(cur)]
            uncover_rest(
                cur, llink, rlink, ulink, dlink, top, length, color, bound
            )
            cur = dlink[U(cur)]
            choice[U(level)] = cur
            step = _ADVANCE
    state[0] = level
    state[1] = where
    state[2] = cut
    state[3] = curcost
    counters[0] = nodes
    counters[1] = updates
    counters[2] += found
    return status


# -- givens: dlx.kernels.dlx3's, unchanged ----------------------
@njit(cache=True)
def commit_option(
    p,
    llink,
    rlink,
    ulink,
    dlink,
    top,
    length,
    color,
    bound,
    slack,
    first_tweak,
):
    """Choose the option whose first node is p before the search (a given).

    Returns the updates, or -1 (changing nothing) when the option does not
    fit those committed before: a primary item already at its upper
    bound, or a secondary item used against its color.
    """
    nprimary = bound.shape[0] - 1
    q = p
    while top[U(q)] > 0:
        x = top[U(q)]
        c = color[U(q)]
        if c >= 0:
            free = rlink[llink[U(x)]] == x and color[U(x)] == 0
            if not (free or (x > nprimary and c > 0 and color[U(x)] == c)):
                return -1
        q += 1
    # The option leaves every list (unless Knuth's rule left it out of
    # them: no primary item), then acts on each of its items.
    updates = 0
    q = p
    while top[U(q)] > 0:
        if color[U(q)] >= 0 and dlink[U(q)] != q:
            up = ulink[U(q)]
            down = dlink[U(q)]
            dlink[U(up)] = down
            ulink[U(down)] = up
            length[U(top[U(q)])] -= 1
            updates += 1
        q += 1
    q = p
    while top[U(q)] > 0:
        updates += _settle(
            q, llink, rlink, ulink, dlink, top, length, color, bound
        )
        q += 1
    return updates


@njit(cache=True)
def exclude_option(p, ulink, dlink, top, length, color):
    """Take the option whose first node is p out of the problem before a
    search: every node of it still in a list (a node purified to -1 by a
    given stays, as in ``hide``) leaves its list.  A job of a split (see
    ``dlx.engines.dlx3_costs.BoundedCostsTop``) excludes the options tried
    before its own on a level, as DLX3's tweaks do; the option must be in
    the lists (not hidden by a given) or the links would break.  Returns
    the updates."""
    updates = 0
    q = p
    while top[U(q)] > 0:
        if color[U(q)] >= 0 and dlink[U(q)] != q:
            up = ulink[U(q)]
            down = dlink[U(q)]
            dlink[U(up)] = down
            ulink[U(down)] = up
            length[U(top[U(q)])] -= 1
            updates += 1
        q += 1
    return updates


@njit(cache=True)
def _settle(q, llink, rlink, ulink, dlink, top, length, color, bound):
    """What choosing q's option does to q's item: cover_rest's action on
    one node, for a given option."""
    nprimary = bound.shape[0] - 1
    x = top[U(q)]
    if x <= nprimary:
        bound[U(x)] -= 1
        if bound[U(x)] == 0:
            return cover(x, llink, rlink, ulink, dlink, top, color, length)
        return 0
    c = color[U(q)]
    if c == 0:
        return cover(x, llink, rlink, ulink, dlink, top, color, length)
    if c > 0:
        if color[U(x)] == c:
            # Already purified with c: a node outside the lists (an option
            # with no primary item) agrees, as purify marks.
            color[U(q)] = -1
            return 0
        return purify(q, ulink, dlink, top, color, length)
    return 0
