"""Knuth's DLX3 (Algorithm M, multiplicities and colors) over flat int32 arrays.

A primary item ``i`` may carry bounds ``u..v``: a solution covers it at
least ``u`` and at most ``v`` times.  Secondary items may carry colors as
in DLX2 (``dlx.kernels.dlx2``).  A solution is a *set* of options:
each option is used at most once, and two identical options are two
options (a solution may hold both; solutions that differ only in which of
them they use are different solutions).  Every function is a module-level
``@njit(cache=True)`` kernel calling only kernels of this module.

The arrays are DLX2's (``llink rlink ulink dlink top length color``) plus

* ``bound`` (index 0 unused, one entry per primary item): how many more
  options may still cover the item (starts at ``v``);
* ``slack`` (constant): ``v - u``, how many of those may be left unused;
* ``first_tweak`` (one entry per level): the option node the level's item
  had on top when the level began, so ``untweak`` can restore its list.

An item leaves the active list when its ``bound`` reaches 0 (it is
*covered*), or when the search decides to add no more options to it (a
*null move*, allowed while ``bound <= slack``).  Choosing an option of an
item with ``bound > 1`` or ``slack > 0`` does not cover the item: it
*tweaks* the option (unlinks it alone), and the next option on the same
level is tried with the previous ones still tweaked away, so each set of
options is visited once.

Knuth's example from ``dlx3.w``: items ``A B 2:3|C | X Y``, options
``A B X:0 Y:0``, ``A C X:1 Y:1``, ``C X:0``, ``B X:1``, ``C Y:1``.  Here
``bound = [0, 1, 1, 3]`` and ``slack = [0, 0, 0, 1]`` (``C`` must be
covered 2 or 3 times); the unique solution is ``A C X:1 Y:1``,
``B X:1``, ``C Y:1``.  The other arrays are DLX2's for the same options
(the worked example of ``dlx.kernels.dlx2``); after choosing ``A C X:1
Y:1`` at level 0 (``A`` has bound 1 and slack 0: it is covered), ``C``
has ``bound`` 2 and stays active, and the search branches on it with
degree ``length + min(slack, bound) - bound + 1 = 1 + 1 - 2 + 1 = 1``.

The item to branch on minimizes the branching degree ``length + s - bound
+ 1`` with ``s = min(slack, bound)`` (``bound`` minus ``s`` "monus" the
slack is how many more options the item needs); ties go to the smaller
``s``, then to the longer list, then to the first.  A degree ``<= 0``
means the item cannot be satisfied: a dead end.  Counters are DLX3's:
``nodes`` counts every level entered (a solution is one: it is found when
no active item is left to choose), ``updates`` one per ``cover`` plus one
per node unlinked by ``cover``, ``purify`` or ``tweak``.
"""

import numpy as np

from .jit import njit

U = np.uint64

# The score of "no active primary item left": a solution.
INFINITY = 0x7FFFFFFF

# Where the search resumes (state[1]) and what search() returns: the codes
# of dlx.kernels.dlx1.  RECOVER resumes at Knuth's "backdown".
FORWARD = 0
RECOVER = 1
DONE = 2

EXHAUSTED = 0
PAUSED = 1
OUT_OF_NODES = 2
# search() stopped at a node of its ceiling level (see search).
FRONTIER = 3


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True, inline="always")
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


@njit(cache=True, inline="always")
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


@njit(cache=True)
def choose_item(rlink, length, bound, slack, cutoff):
    """M3: the active primary item of least branching degree (see the
    module docstring) and that degree, or (INFINITY, 0) when no primary
    item is active.  The walk stops at the first item of degree ``<=
    cutoff``: 0 is Knuth's choice, since a degree ``<= 0`` is a dead end
    whichever item has it."""
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
        if t <= score:
            # Every item before k had a degree above cutoff, and so has
            # score: a degree <= cutoff is also below score.
            if t <= cutoff:
                return t, k
            if t < score or s < best_s or (s == best_s and l > best_l):
                score = t
                pick = k
                best_s = s
                best_l = l
        k = rlink[U(k)]
    return score, pick


@njit(cache=True, inline="always")
def restore_item(
    best,
    level,
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
    """M8 (Knuth's "backup"): put item best back as it was when ``level``
    began.  (For unwind; search writes it out, see its backup step.)"""
    if bound[U(best)] == 0 and slack[U(best)] == 0:
        uncover(best, True, llink, rlink, ulink, dlink, top, color, length)
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


# The steps of search(), after Knuth's labels.
_FORWARD = 0
_ADVANCE = 1
_BACKUP = 2
_BACKDOWN = 3


@njit(cache=True, inline="always")
def _search(
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
    choice,
    state,
    out,
    out_len,
    want,
    max_nodes,
    counters,
    cutoff,
    split,
    floor,
    ceiling,
):
    """The body of ``search`` and ``search_split``: with ``split`` False
    (a constant there) the compiler drops the ceiling test, and with
    ``floor`` 0 the floor is the root."""
    nitems = llink.shape[0] - 2
    level = state[0]
    where = state[1]
    nodes = counters[0]
    updates = counters[1]
    found = 0
    cap = out.shape[0]
    status = EXHAUSTED
    best = 0
    cur = 0
    if where == DONE:
        return EXHAUSTED
    step = _FORWARD if where == FORWARD else _BACKDOWN
    while True:
        if step == _FORWARD:
            # M2/M3: enter a level and choose an item.
            if split and level == ceiling:  # left to count_subtrees
                status = FRONTIER
                where = RECOVER
                break
            if nodes >= max_nodes:
                status = OUT_OF_NODES
                where = FORWARD
                break
            nodes += 1
            score, pick = choose_item(rlink, length, bound, slack, cutoff)
            if score <= 0:  # too few options left for some item
                step = _BACKDOWN
                continue
            if score == INFINITY:  # M2: every primary item is settled
                if found < cap:
                    n = 0
                    for l in range(level):
                        if choice[U(l)] > nitems:
                            out[found, n] = choice[U(l)]
                            n += 1
                    out_len[found] = n
                found += 1
                step = _BACKDOWN
                if found == want:
                    status = PAUSED
                    where = RECOVER
                    break
                continue
            # M4: prepare to branch on best.
            best = pick
            cur = dlink[U(best)]
            choice[U(level)] = cur
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
            # M5: try cur (tweaking it out of best), or the null move.
            b = bound[U(best)]
            sl = slack[U(best)]
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
                # M6: the rest of cur's option.
                updates += cover_rest(
                    cur, llink, rlink, ulink, dlink, top, length, color, bound
                )
            level += 1
            step = _FORWARD
        elif step == _BACKUP:
            # M8: restore_item, written out: numba's inlining of it left
            # an incref and a decref of every array argument here.
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
            # M9: leave this level.
            if level == floor:
                where = DONE
                break
            level -= 1
            cur = choice[U(level)]
            if cur <= nitems:  # a null move: reactivate the item
                best = cur
                left = llink[U(best)]
                right = rlink[U(best)]
                rlink[U(left)] = best
                llink[U(right)] = best
                step = _BACKUP
                continue
            best = top[U(cur)]
            # M7: undo cur's option, then try the next.
            uncover_rest(
                cur, llink, rlink, ulink, dlink, top, length, color, bound
            )
            cur = dlink[U(cur)]
            choice[U(level)] = cur
            step = _ADVANCE
    state[0] = level
    state[1] = where
    counters[0] = nodes
    counters[1] = updates
    counters[2] += found
    return status


@njit(cache=True, nogil=True)
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
    choice,
    state,
    out,
    out_len,
    want,
    max_nodes,
    counters,
    cutoff,
):
    """Algorithm M, iterative and resumable, with the arguments (after
    the arrays), state and return codes of ``dlx.kernels.dlx1.search``.

    ``choice[l]`` is the option node chosen at level ``l``, or the item's
    header node for a null move; a solution is the option nodes among
    ``choice[0..level-1]``.  ``cutoff``: the scan for the item stops at the
    first one of branching degree ``<= cutoff`` (0 is Knuth's choice, as
    ``mrv_cutoff`` for DLX1 and DLX2).  Unlike DLX1 the search
    may start with no active primary item (the empty set is then the one
    solution).
    """
    return _search(
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
        choice,
        state,
        out,
        out_len,
        want,
        max_nodes,
        counters,
        cutoff,
        False,
        0,
        -1,
    )


@njit(cache=True, nogil=True)
def search_split(
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
    choice,
    state,
    out,
    out_len,
    want,
    max_nodes,
    counters,
    cutoff,
    floor,
    ceiling,
):
    """``search`` for a count split over threads (``count_subtrees``):
    ``floor`` is the level of a subtree's root (the search is DONE when it
    would leave that level), and ``ceiling`` (``-1``: none) the level whose
    nodes are handed out as subtrees: the search returns FRONTIER on
    entering such a node (without counting it), with ``choice[0..level-1]``
    its path, and resumes after it.  (Apart from ``search`` so that the
    common search makes no test for them.)"""
    return _search(
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
        choice,
        state,
        out,
        out_len,
        want,
        max_nodes,
        counters,
        cutoff,
        True,
        floor,
        ceiling,
    )


@njit(cache=True)
def unwind(
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
    choice,
    state,
):
    """Undo a paused search so the arrays are as before it started."""
    nitems = llink.shape[0] - 2
    if state[1] == DONE:
        return
    level = state[0]
    while level > 0:
        level -= 1
        cur = choice[U(level)]
        if cur <= nitems:
            best = cur
            left = llink[U(best)]
            right = rlink[U(best)]
            rlink[U(left)] = best
            llink[U(right)] = best
        else:
            best = top[U(cur)]
            uncover_rest(
                cur, llink, rlink, ulink, dlink, top, length, color, bound
            )
            if bound[U(best)] == 0 and slack[U(best)] > 0:
                # Covered at this level, and untweak relinks no item: the
                # null move that would have reactivated it never came.
                left = llink[U(best)]
                right = rlink[U(best)]
                rlink[U(left)] = best
                llink[U(right)] = best
        restore_item(
            best,
            level,
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
        )
    state[0] = 0
    state[1] = DONE


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


@njit(cache=True)
def _unsettle(q, llink, rlink, ulink, dlink, top, length, color, bound):
    """Inverse of _settle."""
    nprimary = bound.shape[0] - 1
    x = top[U(q)]
    if x <= nprimary:
        if bound[U(x)] == 0:
            uncover(x, True, llink, rlink, ulink, dlink, top, color, length)
        bound[U(x)] += 1
        return
    c = color[U(q)]
    if c == 0:
        uncover(x, True, llink, rlink, ulink, dlink, top, color, length)
    elif c > 0:
        unpurify(q, ulink, dlink, top, color, length)
    elif dlink[U(q)] == q:  # marked by _settle: its color back
        color[U(q)] = color[U(x)]


@njit(cache=True)
def release_option(
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
    """Inverse of commit_option."""
    last = p
    while top[U(last + 1)] > 0:
        last += 1
    q = last
    while q >= p:
        _unsettle(q, llink, rlink, ulink, dlink, top, length, color, bound)
        q -= 1
    q = last
    while q >= p:
        if color[U(q)] >= 0 and dlink[U(q)] != q:
            up = ulink[U(q)]
            down = dlink[U(q)]
            dlink[U(up)] = q
            ulink[U(down)] = q
            length[U(top[U(q)])] += 1
        q -= 1


# solve_batch reads its stop flag every this many nodes, and marks an
# instance it cut short (or never started) with STOPPED: the values of
# dlx.kernels.dlx1.
BATCH_SLICE_NODES = 1 << 14
STOPPED = -3


@njit(cache=True, nogil=True)
def solve_batch(
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
    given_nodes,
    given_start,
    limit,
    max_nodes,
    first,
    first_len,
    counts,
    work,
    cutoff,
    stop,
):
    """Many instances that differ only in committed options, as
    ``dlx.kernels.dlx1.solve_batch`` (same arguments after the arrays,
    same results).  ``first`` needs a column per level: the sum of the
    upper bounds."""
    nbatch = given_start.shape[0] - 1
    depth = first.shape[1]
    choice = np.zeros(depth + 1, np.int32)
    state = np.zeros(2, np.int64)
    counters = np.zeros(3, np.int64)
    one_len = np.zeros(1, np.int32)
    for b in range(nbatch):
        if stop[0] != 0:
            counts[b] = STOPPED
            continue
        lo = given_start[b]
        hi = given_start[b + 1]
        updates = 0
        committed = lo
        clash = False
        while committed < hi:
            u = commit_option(
                given_nodes[committed],
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
            )
            if u < 0:
                clash = True
                break
            updates += u
            committed += 1
        counters[0] = 0
        counters[1] = 0
        counters[2] = 0
        if clash:
            counts[b] = -1
        else:
            state[0] = 0
            state[1] = FORWARD
            first_len[b] = 0
            while True:
                # In slices, so that the stop flag is read every
                # BATCH_SLICE_NODES nodes (invisible to nodes and updates).
                want = limit - counters[2] if limit > 0 else 0
                row = first[b : b + 1] if counters[2] == 0 else first[b:b]
                status = search(
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
                    choice,
                    state,
                    row,
                    one_len,
                    want,
                    min(max_nodes, counters[0] + BATCH_SLICE_NODES),
                    counters,
                    cutoff,
                )
                if counters[2] > 0 and first_len[b] == 0:
                    first_len[b] = one_len[0]
                if (
                    status != OUT_OF_NODES
                    or counters[0] >= max_nodes
                    or stop[0] != 0
                ):
                    break
            counts[b] = counters[2]
            if status == OUT_OF_NODES:
                counts[b] = -2 if counters[0] >= max_nodes else STOPPED
            if status != EXHAUSTED:
                unwind(
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
                    choice,
                    state,
                )
        work[b, 0] = counters[0]
        work[b, 1] = counters[1]
        work[b, 2] = updates
        while committed > lo:
            committed -= 1
            release_option(
                given_nodes[committed],
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
            )


@njit(cache=True)
def descend(
    target,
    level,
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
    choice,
):
    """Make the move ``target`` (an option node, or the item's header
    for a null move) at ``level``, as search does when it gets there: the
    item's options above ``target`` tweaked away, as search leaves them
    after trying each.  ``choice`` and ``first_tweak`` are set so that
    ``unwind`` undoes it.  Returns the updates (which the split count
    does not add: its own expansion counted them once)."""
    nitems = llink.shape[0] - 2
    best = target if target <= nitems else top[U(target)]
    cur = dlink[U(best)]
    choice[U(level)] = target
    bound[U(best)] -= 1
    b = bound[U(best)]
    updates = 0
    if b == 0 and slack[U(best)] == 0:
        updates += cover(best, llink, rlink, ulink, dlink, top, color, length)
    else:
        first_tweak[U(level)] = cur
        if b == 0:
            updates += cover(
                best, llink, rlink, ulink, dlink, top, color, length
            )
        # A tweaked option keeps its down link, whatever cover_rest and
        # uncover_rest did in between: the next one tried is dlink[cur].
        while cur != target:
            updates += tweak(cur, b, ulink, dlink, top, color, length)
            cur = dlink[U(cur)]
        if target != best:
            updates += tweak(target, b, ulink, dlink, top, color, length)
        elif b != 0:  # the null move
            left = llink[U(best)]
            right = rlink[U(best)]
            rlink[U(left)] = right
            llink[U(right)] = left
    if target > nitems:
        updates += cover_rest(
            target, llink, rlink, ulink, dlink, top, length, color, bound
        )
    return updates


@njit(cache=True, nogil=True)
def count_subtrees(
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
    path_nodes,
    path_start,
    limit,
    max_nodes,
    first,
    first_len,
    counts,
    work,
    cutoff,
    stop,
):
    """Count the subtrees whose root paths (``choice[0..d-1]`` as search
    returned them with FRONTIER) are the CSR rows of ``path_nodes``:
    ``solve_batch``'s arguments and results, the paths in place of the
    givens (``limit``, ``first`` and ``first_len`` are not used).  Each
    path is replayed with ``descend``, its subtree searched with the floor
    at its depth, and the whole path unwound: the nodes and updates in
    ``work`` are those of the subtree in the one-thread search."""
    nbatch = path_start.shape[0] - 1
    depth = first.shape[1]
    choice = np.zeros(depth + 1, np.int32)
    state = np.zeros(2, np.int64)
    counters = np.zeros(3, np.int64)
    out = np.zeros((0, depth + 1), np.int32)
    out_len = np.zeros(0, np.int32)
    for b in range(nbatch):
        if stop[0] != 0:
            counts[b] = STOPPED
            continue
        lo = path_start[b]
        d = path_start[b + 1] - lo
        replay = 0
        for level in range(d):
            replay += descend(
                path_nodes[lo + level],
                level,
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
                choice,
            )
        state[0] = d
        state[1] = FORWARD
        counters[0] = 0
        counters[1] = 0
        counters[2] = 0
        while True:
            status = search_split(
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
                choice,
                state,
                out,
                out_len,
                0,
                min(max_nodes, counters[0] + BATCH_SLICE_NODES),
                counters,
                cutoff,
                d,
                -1,
            )
            if (
                status != OUT_OF_NODES
                or counters[0] >= max_nodes
                or stop[0] != 0
            ):
                break
        counts[b] = counters[2]
        if status == OUT_OF_NODES:
            counts[b] = -2 if counters[0] >= max_nodes else STOPPED
        else:  # DONE at the floor: the path's own moves are left
            state[0] = d
            state[1] = FORWARD
        unwind(
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
            choice,
            state,
        )
        work[b, 0] = counters[0]
        work[b, 1] = counters[1]
        work[b, 2] = replay
