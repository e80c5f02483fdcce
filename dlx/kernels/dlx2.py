"""Knuth's DLX2 (Algorithm C, exact cover with colors) over flat int32 arrays.

A secondary item may carry a *color* inside an option.  Several options of
a solution may share a secondary item when they all give it the same
color; an uncolored use of a secondary item excludes every other use.
Every function is a module-level ``@njit(cache=True)`` kernel calling only
kernels of this module (see ``dlx.kernels``).

The arrays are DLX1's (see ``dlx.kernels.dlx1``) plus one:

* ``color`` (one entry per node): the color code (``>= 1``) of an option
  node, 0 for an uncolored node, a spacer or a header.  While a secondary
  item ``x`` is *purified* with color ``c`` (an option giving ``x`` color
  ``c`` was chosen), the nodes of ``x`` that agree get ``color == -1`` (so
  that nobody purifies or hides them again) and the header ``color[x]``
  holds ``c``; the options that disagree are hidden.

Knuth's DLX2 example (``dlx2.w``): items ``A B C | X Y`` (N1=3, N=5),
options ``A B X:0 Y:0``, ``A C X:1 Y:1``, ``C X:0``, ``B X:1``, ``C Y:1``,
colors ``0`` and ``1`` coded 1 and 2 (``|`` marks the spacers)::

    item     0  1  2  3  4  5  6     (0 and 6 are the two roots)
    llink    3  0  1  2  6  4  5
    rlink    1  2  3  0  5  6  4
    length   0  2  2  3  4  3  0

    node     0  1  2  3  4  5 | 6  7  8  9 10 |11 12 13 14 15 |16 17 18
    top      0  0  0  0  0  0 | 0  1  2  4  5 |-1  1  3  4  5 |-2  3  4
    color    0  0  0  0  0  0 | 0  0  0  1  1 | 0  0  0  2  2 | 0  0  1
    ulink    0 12 20 23 21 24 | 0  1  2  4  5 | 7  7  3  9 10 |12 13 14
    dlink    0  7  8 13  9 10 |10 12 20 14 15 |15  1 17 18 24 |18 23 21

    node    19 20 21 |22 23 24 |25
    top     -3  2  4 |-4  3  5 |-5
    color    0  0  2 | 0  0  2 | 0
    ulink   17  8 18 |20 17 15 |23
    dlink   21  2  4 |24  3  5 | 0

Choosing ``A C X:1 Y:1`` (nodes 12-15) covers ``A`` and ``C`` and
purifies ``X`` and ``Y`` with color 2: ``A B X:0 Y:0`` and ``C X:0`` are
hidden, while ``B X:1`` stays, its node 21 marked ``-1``.  The two
solutions are options 0 and 2, and options 1 and 3.

Counters are DLX2's, and equal its own on the same input: ``nodes``
counts every level entered to choose an item plus every solution;
``updates`` counts one per ``cover`` plus one per node unlinked by
``cover`` or ``purify`` (DLX2's "updates"; its "cleansings" are not
counted).  Options that have no primary item are left out of the lists
when the arrays are built, as DLX2 ignores them.
"""

import numpy as np

from .jit import njit

# See dlx.kernels.dlx1: unsigned indices avoid numba's wraparound test.
U = np.uint64

# Added to length[i] while item i is covered (see choose_item).
COVERED = 1 << 30

# choose_item looks at items in blocks of this many.
MRV_BLOCK = 16

# Where the search resumes (state[1]), and what search() returns: the same
# codes as dlx.kernels.dlx1.
FORWARD = 0
RECOVER = 1
DONE = 2

EXHAUSTED = 0
PAUSED = 1
OUT_OF_NODES = 2


@njit(cache=True)
def hide(p, ulink, dlink, top, color, length):
    """Unlink the other nodes of p's option; purified nodes (color < 0)
    stay, as in DLX2 (nobody walks a purified item's list but unpurify)."""
    updates = 0
    q = p + 1
    while q != p:
        x = top[U(q)]
        if x <= 0:  # spacer: wrap to the first node of this option
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
    """Inverse of hide, walking leftward."""
    q = p - 1
    while q != p:
        x = top[U(q)]
        if x <= 0:  # spacer: wrap to the last node of this option
            q = dlink[U(q)]
            continue
        if color[U(q)] >= 0:
            u = ulink[U(q)]
            d = dlink[U(q)]
            dlink[U(u)] = q
            ulink[U(d)] = q
            length[U(x)] += 1
        q -= 1


@njit(cache=True)
def cover(i, llink, rlink, ulink, dlink, top, color, length):
    """Take item i out of its active list and hide every option that has
    it; returns the updates (1 + the nodes unlinked)."""
    left = llink[U(i)]
    right = rlink[U(i)]
    rlink[U(left)] = right
    llink[U(right)] = left
    length[U(i)] += COVERED
    updates = 1
    p = dlink[U(i)]
    while p != i:
        updates += hide(p, ulink, dlink, top, color, length)
        p = dlink[U(p)]
    return updates


@njit(cache=True)
def uncover(i, llink, rlink, ulink, dlink, top, color, length):
    """Inverse of cover: unhide bottom-up, then relink i."""
    p = ulink[U(i)]
    while p != i:
        unhide(p, ulink, dlink, top, color, length)
        p = ulink[U(p)]
    left = llink[U(i)]
    right = rlink[U(i)]
    rlink[U(left)] = i
    llink[U(right)] = i
    length[U(i)] -= COVERED


@njit(cache=True)
def purify(p, ulink, dlink, top, color, length):
    """Give p's secondary item p's color: hide every option of the item
    that wants another color (or none), mark the agreeing nodes -1.

    Invariant: p's own option is already hidden, so p is not in the list.
    """
    x = top[U(p)]
    c = color[U(p)]
    color[U(x)] = c  # the item's color while purified (givens check it)
    updates = 0
    r = dlink[U(x)]
    while r != x:
        if color[U(r)] != c:
            updates += hide(r, ulink, dlink, top, color, length)
        else:
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
        else:
            unhide(r, ulink, dlink, top, color, length)
        r = ulink[U(r)]
    color[U(x)] = 0


@njit(cache=True)
def cover_rest(p, llink, rlink, ulink, dlink, top, color, length):
    """Cover or purify the items of p's option other than top[p] (C5):
    an uncolored item is covered, a colored one purified, one already
    purified with the same color (color -1) left alone."""
    updates = 0
    q = p + 1
    while q != p:
        x = top[U(q)]
        if x <= 0:
            q = ulink[U(q)]
            continue
        c = color[U(q)]
        if c == 0:
            updates += cover(x, llink, rlink, ulink, dlink, top, color, length)
        elif c > 0:
            if color[U(top[U(q)])] == c:
                # Already purified with c: a node outside the lists (an
                # option with no primary item) agrees, as purify marks.
                color[U(q)] = -1
            else:
                updates += purify(q, ulink, dlink, top, color, length)
        q += 1
    return updates


@njit(cache=True)
def uncover_rest(p, llink, rlink, ulink, dlink, top, color, length):
    """Inverse of cover_rest, leftward (C6)."""
    q = p - 1
    while q != p:
        x = top[U(q)]
        if x <= 0:
            q = dlink[U(q)]
            continue
        c = color[U(q)]
        if c == 0:
            uncover(x, llink, rlink, ulink, dlink, top, color, length)
        elif c > 0:
            unpurify(q, ulink, dlink, top, color, length)
        q -= 1


@njit(cache=True)
def choose_item(llink, rlink, length, cutoff):
    """MRV, first on ties, exactly as in ``dlx.kernels.dlx1`` (DLX2
    chooses as DLX1 does): a block scan of ``length`` between the first
    and last active primary items, covered items carrying ``COVERED``."""
    last = llink[0]
    block = rlink[0]
    best_block = block
    fewest = 0x7FFFFFFF
    while block <= last:
        end = min(block + MRV_BLOCK, last + 1)
        least = length[U(block)]
        for k in range(block + 1, end):
            s = length[U(k)]
            least = s if s < least else least
        if least < fewest:
            fewest = least
            best_block = block
            if least <= cutoff:
                break
        block = end
    bound = max(fewest, cutoff)
    k = best_block
    while length[U(k)] > bound:
        k += 1
    return k


@njit(cache=True, nogil=True)
def search(
    llink,
    rlink,
    ulink,
    dlink,
    top,
    length,
    color,
    choice,
    state,
    out,
    out_len,
    want,
    max_nodes,
    counters,
    cutoff,
):
    """Algorithm C, iterative and resumable, with the arguments, state and
    return codes of ``dlx.kernels.dlx1.search``.

    The root list must hold at least one primary item on the first call.
    """
    level = state[0]
    where = state[1]
    nodes = counters[0]
    updates = counters[1]
    found = 0
    cap = out.shape[0]
    status = EXHAUSTED
    best = 0
    p = 0
    if where == DONE:
        return EXHAUSTED
    if where == RECOVER:
        p = choice[U(level)]
        best = top[U(p)]
    while True:
        if where == FORWARD:
            # C3: choose an item (C2, the test for a solution, is folded
            # into C5 below).
            if nodes >= max_nodes:
                status = OUT_OF_NODES
                break
            nodes += 1
            best = choose_item(llink, rlink, length, cutoff)
            # C4: cover it and start with its first option.
            updates += cover(
                best, llink, rlink, ulink, dlink, top, color, length
            )
            p = dlink[U(best)]
            choice[U(level)] = p
        else:
            # C6: undo the option at this level, move to the next.
            uncover_rest(p, llink, rlink, ulink, dlink, top, color, length)
            p = dlink[U(p)]
            choice[U(level)] = p
        while p == best:
            # C7/C8: uncover and go back a level.
            uncover(best, llink, rlink, ulink, dlink, top, color, length)
            if level == 0:
                where = DONE
                break
            level -= 1
            p = choice[U(level)]
            best = top[U(p)]
            uncover_rest(p, llink, rlink, ulink, dlink, top, color, length)
            p = dlink[U(p)]
            choice[U(level)] = p
        if where == DONE:
            break
        # C5: try option p.
        updates += cover_rest(
            p, llink, rlink, ulink, dlink, top, color, length
        )
        if rlink[0] == 0:
            # C2: every primary item is covered: a solution, a leaf node.
            nodes += 1
            if found < cap:
                for l in range(level + 1):
                    out[found, l] = choice[U(l)]
                out_len[found] = level + 1
            found += 1
            where = RECOVER
            if found == want:
                status = PAUSED
                break
        else:
            level += 1
            where = FORWARD
    state[0] = level
    state[1] = where
    counters[0] = nodes
    counters[1] = updates
    counters[2] += found
    return status


@njit(cache=True)
def unwind(llink, rlink, ulink, dlink, top, length, color, choice, state):
    """Undo a paused search so the links are as before it started."""
    level = state[0]
    where = state[1]
    if where == DONE:
        return
    if where == FORWARD:
        level -= 1
    while level >= 0:
        p = choice[U(level)]
        uncover_rest(p, llink, rlink, ulink, dlink, top, color, length)
        uncover(top[U(p)], llink, rlink, ulink, dlink, top, color, length)
        level -= 1
    state[0] = 0
    state[1] = DONE


@njit(cache=True)
def option_fits(p, llink, rlink, top, color):
    """Can the option whose first node is p join the options chosen so far?

    An item x is active iff ``rlink[llink[x]] == x``; a purified secondary
    item stays active, with its color in ``color[x]``.  An uncolored node
    needs an active, unpurified item; a colored one an item purified with
    its own color (its node then reads -1) or an active, unpurified one.
    """
    q = p
    while top[U(q)] > 0:
        x = top[U(q)]
        c = color[U(q)]
        if c >= 0:
            free = rlink[llink[U(x)]] == x and color[U(x)] == 0
            if not (free or (c > 0 and color[U(x)] == c)):
                return False
        q += 1
    return True


@njit(cache=True)
def hide_option(p, ulink, dlink, top, color, length):
    """Unlink every node of the option whose first node is p (a given
    option leaves the lists, so the search cannot choose it again).  An
    option left out of the lists (no primary item) has self-linked nodes
    and is skipped."""
    updates = 0
    q = p
    while top[U(q)] > 0:
        if color[U(q)] >= 0 and dlink[U(q)] != q:
            u = ulink[U(q)]
            d = dlink[U(q)]
            dlink[U(u)] = d
            ulink[U(d)] = u
            length[U(top[U(q)])] -= 1
            updates += 1
        q += 1
    return updates


@njit(cache=True)
def unhide_option(p, ulink, dlink, top, color, length):
    """Inverse of hide_option, from the last node back to p."""
    q = p
    while top[U(q + 1)] > 0:
        q += 1
    while q >= p:
        if color[U(q)] >= 0 and dlink[U(q)] != q:
            dlink[U(ulink[U(q)])] = q
            ulink[U(dlink[U(q)])] = q
            length[U(top[U(q)])] += 1
        q -= 1


@njit(cache=True)
def commit_option(p, llink, rlink, ulink, dlink, top, length, color):
    """Choose the option whose first node is p before the search (a given).

    Returns the number of updates, or -1 (and changes nothing) when the
    option does not fit the options committed before it.
    """
    if not option_fits(p, llink, rlink, top, color):
        return -1
    updates = hide_option(p, ulink, dlink, top, color, length)
    q = p
    while top[U(q)] > 0:
        c = color[U(q)]
        if c == 0:
            updates += cover(
                top[U(q)], llink, rlink, ulink, dlink, top, color, length
            )
        elif c > 0:
            if color[U(top[U(q)])] == c:
                # Already purified with c: a node outside the lists (an
                # option with no primary item) agrees, as purify marks.
                color[U(q)] = -1
            else:
                updates += purify(q, ulink, dlink, top, color, length)
        q += 1
    return updates


@njit(cache=True)
def release_option(p, llink, rlink, ulink, dlink, top, length, color):
    """Inverse of commit_option."""
    q = p
    while top[U(q + 1)] > 0:
        q += 1
    while q >= p:
        c = color[U(q)]
        if c == 0:
            uncover(top[U(q)], llink, rlink, ulink, dlink, top, color, length)
        elif c > 0:
            unpurify(q, ulink, dlink, top, color, length)
        elif dlink[U(q)] == q:  # marked by commit_option: its color back
            color[U(q)] = color[U(top[U(q)])]
        q -= 1
    unhide_option(p, ulink, dlink, top, color, length)


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
    ``dlx.kernels.dlx1.solve_batch`` (same arguments after ``color``,
    same results)."""
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
        elif rlink[0] == 0:
            counts[b] = 1
            first_len[b] = 0
            counters[0] = 1
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
            )
