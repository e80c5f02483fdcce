"""Dancing cells with colors: Knuth's SSXCC over flat int32 arrays.

Exact cover with colors (XCC) by sparse sets (Knuth, ``ssxcc.w``): SSXC1's
sets and saved sizes (``dlx.kernels.ssxc1``), with three changes.

* *Purifying is hiding.*  Choosing an option that gives a secondary item
  ``x`` color ``c`` takes ``x`` out of the active items and hides only the
  options of ``x``'s set that do not give it ``c`` (an uncolored use hides
  them all).  An inactive secondary item is never touched again on the way
  down: ``hide`` leaves alone every item at or past ``oactive``, the count
  of active items before the current option took its own out.
* *Forced moves* (Solnon's idea, August 2023).  ``hide`` puts every active
  primary item it leaves with one option on a *force stack*; so does the
  scan for the branching item, for every item of size 1 it sees.  While
  that stack holds an active item the search takes it, without saving the
  sizes: a level with one option is never resumed, so the sizes before it
  are never needed (the nearest branching level above restores them).
* *Ties* in the choice of the smallest set go to the item first in the
  input (the smallest set index), not to the first in the current order.

Every function here but ``state_size`` is a module-level
``@njit(cache=True)`` kernel that calls only kernels of this module; none
touches Python objects or raises.

Layout (``dlx.engines.ssxc1.Cells`` builds it with member colors), as in
``dlx.kernels.ssxc1`` but for two things: ``HEAD = 3`` header words in
front of each item's set, ``set[x - 3]`` being its *tint* (the color a
committed option gave secondary item ``x``, read only by ``commit_option``
to check a later given against it); and ``NODE = 4`` words per node,
``itm, loc, clr`` and a spare, side by side (``clr`` the node's color
code, 0 for none, constant).  The spare word is Knuth's too: 16-byte
nodes, which measured 3-4% faster than 12-byte ones on de Bruijn n=3,
k=3 (``bench/xcc.py``'s largest XCC count; the node index becomes a
shift).

Knuth's DLX2 example (``dlx2.w``): items ``A B C | X Y`` (N1=3, N=5),
options ``A B X:0 Y:0``, ``A C X:1 Y:1``, ``C X:0``, ``B X:1``, ``C Y:1``
with colors ``0`` and ``1`` coded 1 and 2.  The arrays ``dlx.engines.ssxc1.Cells``
builds for it (``python -m dlx.engines.ssxc1`` prints them; ``itm``, ``loc`` and
``clr`` are words 0, 1 and 2 of each node in ``nd``)::

    item       3  8 13 19 | 26      (second = 19: X and Y are secondary)

    set index  0  1  2  3  4 |  5  6  7  8  9 | 10 11 12 13 14 15
    set        0  0  2  1  6 |  0  1  2  2 14 |  0  2  3  7 11 17
          tint pos size  A |     pos size  B |     pos size  C

    set index 16 17 18 19 20 21 22 | 23 24 25 26 27 28
    set        0  3  4  3  8 12 15 |  0  4  3  4  9 18
              tint pos size  X     |     pos size  Y

    node       0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15 16 17 18 19
    itm        0  3  8 19 26 -4  3 13 19 26 -4 13 19 -2  8 19 -2 13 26 -2
    loc        4  3  8 19 26  4  4 13 20 27  2 14 21  2  9 22  2 15 28  0
    clr        0  0  0  1  1  0  0  0  2  2  0  0  1  0  0  2  0  0  2  0

Nodes 0, 5, 10, 13, 16 and 19 are spacers.  Choosing ``A C X:1 Y:1``
(nodes 6-9) takes out ``A`` (branching on it), then ``C``, ``X`` and
``Y``; hiding ``X`` with color 2 hides ``C X:0`` (nodes 11-12) but
keeps ``B X:1`` (nodes 14-15).  The two solutions are options 0 and 2,
and options 1 and 3.

Counters follow SSXCC, and equal its own on the same input: ``nodes``
counts every level entered (a forced move too) and every solution, a leaf;
``updates`` counts one per item taken out of the active items and one per
node removed from a set.  ``max_nodes`` is checked before a node is
entered.
"""

import numpy as np

from .jit import njit

# Unsigned indices: numba wraps negative ones around otherwise (see
# dlx/kernels/dlx1.py).  Indices here are never negative.
U = np.uint64

# Header words in front of each item's set: tint(x) = set[x - 3],
# pos(x) = set[x - 2], size(x) = set[x - 1].
HEAD = 3
# Words per node: itm(q) = nd[4q], loc(q) = nd[4q + 1], clr(q) = nd[4q + 2],
# and a spare.
NODE = 4

# Entries of ``state`` (int64): the whole scalar state, then the force
# stack, so that a later call continues where this one stopped.
LEVEL = 0
WHERE = 1
ACTIVE = 2  # how many items are active: item[0:active]
SAVEPTR = 3  # how many (item, size) pairs are on the save stack
BASE = 4  # where the search's entries begin on it: the sizes before the root
FORCED = 5  # how many items are on the force stack
FORCE = 6  # state[FORCE:FORCE + forced] is the force stack
STATE_SIZE = FORCE  # plus one entry per item: see state_size

# Where the search resumes (state[WHERE]).
FORWARD = 0  # enter a new node at this level
BACKUP = 1  # go back a level and try its next option
DONE = 2  # the whole tree has been explored

# What search() returns: the values of dlx.kernels.ssxc1.
EXHAUSTED = 0
PAUSED = 1
OUT_OF_NODES = 2
STACK_FULL = 3

# Larger than any set size.
NO_ITEM = 0x7FFFFFFF


def state_size(nitems: int) -> int:
    """Length of ``state`` for a problem of ``nitems`` items: an item is on
    the force stack at most once at a time (it goes there when its set
    shrinks to one option, and leaves it, inactive, before another scan)."""
    return FORCE + nitems + 1


@njit(cache=True)
def take_out(x, item, set, active):
    """Swap item x to position active - 1 of ``item``, out of the active
    part (the caller decrements ``active``)."""
    p = active - 1
    pp = set[U(x - 2)]
    cc = item[U(p)]
    item[U(p)] = x
    item[U(pp)] = cc
    set[U(cc - 2)] = pp
    set[U(x - 2)] = p


@njit(cache=True)
def remove(nn, uu, set, nd):
    """Swap node nn (of item uu) with the last active node of uu's set and
    shrink it: one update."""
    ss = set[U(uu - 1)] - 1
    vv = nd[U(NODE * nn + 1)]
    last = uu + ss
    nnp = set[U(last)]
    set[U(uu - 1)] = ss
    set[U(last)] = nn
    set[U(vv)] = nnp
    nd[U(NODE * nn + 1)] = last
    nd[U(NODE * nnp + 1)] = vv


@njit(cache=True)
def hide(c, color, set, nd, oactive):
    """Hide the options in c's set that do not give c ``color`` (all of
    them when ``color`` is 0): remove each from the sets of the other
    items it has that were active (position below ``oactive``).  Returns
    the number of nodes removed (updates).  c itself is inactive, so a
    node is never removed twice."""
    updates = 0
    rr = c
    end = c + set[U(c - 1)]
    while rr < end:
        tt = set[U(rr)]
        if color == 0 or nd[U(NODE * tt + 2)] != color:
            nn = tt + 1
            while nn != tt:
                uu = nd[U(NODE * nn)]
                if uu < 0:  # spacer: wrap to the option's first node
                    nn += uu
                    continue
                if set[U(uu - 2)] < oactive:
                    remove(nn, uu, set, nd)
                    updates += 1
                nn += 1
        rr += 1
    return updates


@njit(cache=True)
def hide_checked(c, color, set, nd, oactive, active, second, state):
    """``hide``, but an active primary item left with one option goes on
    the force stack, and one left with none stops it: then it returns
    ``-1 - updates`` (the sets are left part-way, to be put right by
    restoring saved sizes).  Two functions rather than a flag: the
    unchecked one hides the branching item's options, every node."""
    updates = 0
    forced = state[FORCED]
    rr = c
    end = c + set[U(c - 1)]
    while rr < end:
        tt = set[U(rr)]
        if color == 0 or nd[U(NODE * tt + 2)] != color:
            nn = tt + 1
            while nn != tt:
                uu = nd[U(NODE * nn)]
                if uu < 0:
                    nn += uu
                    continue
                pp = set[U(uu - 2)]
                if pp < oactive:
                    ss = set[U(uu - 1)] - 1
                    if ss <= 1 and uu < second and pp < active:
                        if ss == 0:
                            state[FORCED] = forced
                            return -1 - updates
                        state[U(FORCE + forced)] = uu
                        forced += 1
                    remove(nn, uu, set, nd)
                    updates += 1
                nn += 1
        rr += 1
    state[FORCED] = forced
    return updates


@njit(cache=True)
def save_sizes(item, set, stack, saveptr, active):
    """Push (x, size(x)) for every active item; returns the new top."""
    base = 2 * saveptr
    for p in range(active):
        x = item[U(p)]
        stack[U(base + 2 * p)] = x
        stack[U(base + 2 * p + 1)] = set[U(x - 1)]
    return saveptr + active


@njit(cache=True)
def restore_sizes(set, stack, lo, hi):
    """Put back the sizes saved in stack entries lo..hi-1."""
    for p in range(lo, hi):
        set[U(stack[U(2 * p)] - 1)] = stack[U(2 * p + 1)]


@njit(cache=True)
def choose_item(item, set, active, second):
    """The item SSXCC's scan would take now, without a force stack: the
    last active primary item of size 1 or less in the current order, else
    the one with the smallest set, ties to the smallest set index; 0 when
    no primary item is active (a solution)."""
    best = 0
    fewest = NO_ITEM
    forced = 0
    for k in range(active):
        x = item[U(k)]
        if x < second:
            s = set[U(x - 1)]
            if s <= 1:
                forced = x
            elif s < fewest or (s == fewest and x < best):
                best = x
                fewest = s
    return forced if forced else best


@njit(cache=True, nogil=True)
def search(
    item,
    set,
    nd,
    second,
    stack,
    saved,
    choice,
    state,
    out,
    out_len,
    want,
    max_nodes,
    counters,
):
    """SSXCC's search, iterative and resumable.

    The arguments and results are those of ``dlx.kernels.ssxc1.search``;
    ``state`` also holds the force stack (see FORCED).  ``saved[l + 1]``
    is the top of the save stack after level ``l`` saved its sizes (a
    forced level saves none); ``choice[l]`` is the node of the option tried
    at level ``l``.  Labels are ssxcc.w's.
    """
    level = state[LEVEL]
    where = state[WHERE]
    active = state[ACTIVE]
    saveptr = state[SAVEPTR]
    forced = state[FORCED]
    nodes = counters[0]
    updates = counters[1]
    found = 0
    cap = out.shape[0]
    room = stack.shape[0] // 2
    status = EXHAUSTED
    best = 0
    cur = 0
    if where == DONE:
        return EXHAUSTED
    while True:
        if where == FORWARD:
            # forward:
            if nodes >= max_nodes:
                status = OUT_OF_NODES
                break
            if saveptr + (active if level else 2 * active) > room:
                status = STACK_FULL
                break
            nodes += 1
            if level == 0:
                # The sizes before the root, to leave the sets as they were
                # when the search is over (SSXCC has no need to).
                state[BASE] = saveptr
                saveptr = save_sizes(item, set, stack, saveptr, active)
                saved[0] = saveptr
            # Maybe do a forced move: an item on the force stack that is
            # still active.
            forcing = False
            while forced > 0:
                forced -= 1
                best = state[U(FORCE + forced)]
                if set[U(best - 2)] < active:
                    forcing = True
                    break
            if not forcing:
                # Set best to the best item for branching; every item of
                # size 1 goes on the force stack.
                best = 0
                fewest = NO_ITEM
                dead = False
                for k in range(active):
                    x = item[U(k)]
                    if x < second:
                        s = set[U(x - 1)]
                        if s <= 1:
                            if s == 0:
                                # Only after committed options (the search
                                # itself never leaves an empty set).
                                dead = True
                            else:
                                state[U(FORCE + forced)] = x
                                forced += 1
                        elif s < fewest or (s == fewest and x < best):
                            best = x
                            fewest = s
                if dead:
                    forced = 0
                    where = BACKUP
                elif forced > 0:
                    forced -= 1
                    best = state[U(FORCE + forced)]
                    forcing = True
                elif best == 0:
                    # Every primary item is covered: choice[0:level] is a
                    # solution, a leaf of the search tree.
                    if found < cap:
                        for l in range(level):
                            out[found, l] = choice[U(l)]
                        out_len[found] = level
                    found += 1
                    where = BACKUP
                    if found == want:
                        status = PAUSED
                        break
            if where == FORWARD:
                # Swap best out of the active list, hide its options.
                take_out(best, item, set, active)
                active -= 1
                updates += 1 + hide(best, 0, set, nd, active)
                cur = best
                if not forcing:
                    saveptr = save_sizes(item, set, stack, saveptr, active)
                saved[U(level + 1)] = saveptr
        if where == BACKUP:
            # backup: up to the nearest level with an untried option (a
            # forced level has none), restore the sizes saved there and
            # move on to its next option.
            while True:
                if level == 0:
                    where = DONE
                    break
                level -= 1
                node = choice[U(level)]
                best = nd[U(NODE * node)]
                cur = nd[U(NODE * node + 1)] + 1
                if cur < best + set[U(best - 1)]:
                    break
            if where == DONE:
                break
            saveptr = saved[U(level + 1)]
            active = saveptr - saved[U(level)]
            restore_sizes(set, stack, saved[U(level)], saveptr)
        # advance: try the options of best from set[cur] on, until one
        # leaves every active primary item coverable.  hide_checked keeps
        # the force stack's height in state[FORCED] meanwhile.
        state[FORCED] = forced
        while True:
            node = set[U(cur)]
            choice[U(level)] = node
            # Swap out the option's other items that are still active (a
            # colored secondary item may have been purified already).
            oactive = active
            q = node + 1
            while q != node:
                c = nd[U(NODE * q)]
                if c < 0:
                    q += c
                    continue
                pp = set[U(c - 2)]
                if pp < active:
                    active -= 1
                    cc = item[U(active)]
                    item[U(active)] = c
                    item[U(pp)] = cc
                    set[U(cc - 2)] = pp
                    set[U(c - 2)] = active
                    updates += 1
                q += 1
            # Hide the other options of those items, or abort.
            ok = True
            q = node + 1
            while q != node:
                c = nd[U(NODE * q)]
                if c < 0:
                    q += c
                    continue
                u = 0
                if c < second:
                    u = hide_checked(
                        c, 0, set, nd, oactive, active, second, state
                    )
                elif set[U(c - 2)] < oactive:  # not purified before
                    u = hide_checked(
                        c,
                        nd[U(NODE * q + 2)],
                        set,
                        nd,
                        oactive,
                        active,
                        second,
                        state,
                    )
                if u < 0:
                    updates += -1 - u
                    ok = False
                    break
                updates += u
                q += 1
            if ok:
                level += 1
                where = FORWARD
                break
            # abort:
            state[FORCED] = 0
            cur += 1
            if cur >= best + set[U(best - 1)]:
                where = BACKUP
                break
            saveptr = saved[U(level + 1)]
            active = saveptr - saved[U(level)]
            restore_sizes(set, stack, saved[U(level)], saveptr)
        forced = state[FORCED]
    if where == DONE:
        # Back to the sets as they were before the root node.
        saveptr = state[BASE]
        active = saved[0] - saveptr
        restore_sizes(set, stack, saveptr, saved[0])
        forced = 0
    state[LEVEL] = level
    state[WHERE] = where
    state[ACTIVE] = active
    state[SAVEPTR] = saveptr
    state[FORCED] = forced
    counters[0] = nodes
    counters[1] = updates
    counters[2] += found
    return status


@njit(cache=True)
def unwind(set, stack, saved, state):
    """Undo a paused search: the sets come back as before it started (the
    sizes saved before the root undo every level), and the state says
    DONE."""
    where = state[WHERE]
    if where == BACKUP or (where == FORWARD and state[LEVEL] > 0):
        base = state[BASE]
        restore_sizes(set, stack, base, saved[0])
        state[ACTIVE] = saved[0] - base
        state[SAVEPTR] = base
    state[LEVEL] = 0
    state[WHERE] = DONE
    state[FORCED] = 0


@njit(cache=True)
def option_items(p, nd):
    """How many items the option of node p has."""
    k = 1
    q = p + 1
    while q != p:
        c = nd[U(NODE * q)]
        if c < 0:
            q += c
        else:
            k += 1
            q += 1
    return k


@njit(cache=True)
def option_fits(p, set, nd, second, active):
    """Can the option of node p join the options committed so far?  Two
    options clash on an item they share, and a committed option has taken
    its items out: so each inactive item of p must be secondary, tinted
    with p's own color (nothing more to check: an option hidden by a
    committed one shares an item with it)."""
    q = p
    while True:
        c = nd[U(NODE * q)]
        if c < 0:
            q += c
        else:
            if set[U(c - 2)] >= active and (
                c < second
                or nd[U(NODE * q + 2)] == 0
                or nd[U(NODE * q + 2)] != set[U(c - 3)]
            ):
                return False
            q += 1
        if q == p:
            return True


@njit(cache=True)
def commit_option(p, item, set, nd, second, stack, state):
    """Choose the option of node p before the search (a given).

    Saves the active sizes and their number (so that ``release_option``
    can undo it), takes out its items that are active, and hides their
    options that disagree (a secondary item keeps the options of its
    color, and takes it as its tint).  Returns the number of updates, or
    -1 when the option does not fit the options committed earlier, or -2
    when the stack is too small; in both cases nothing changes.
    """
    active = state[ACTIVE]
    saveptr = state[SAVEPTR]
    if not option_fits(p, set, nd, second, active):
        return -1
    if saveptr + active + 1 > stack.shape[0] // 2:
        return -2
    saveptr = save_sizes(item, set, stack, saveptr, active)
    stack[U(2 * saveptr)] = active  # the frame's size, for release_option
    stack[U(2 * saveptr + 1)] = -1
    saveptr += 1
    oactive = active
    updates = 0
    q = p
    while True:
        c = nd[U(NODE * q)]
        if c < 0:
            q += c
        else:
            if set[U(c - 2)] < active:
                take_out(c, item, set, active)
                active -= 1
                updates += 1
            q += 1
        if q == p:
            break
    q = p
    while True:
        c = nd[U(NODE * q)]
        if c < 0:
            q += c
        else:
            # Taken out by this option: between active and oactive.
            if active <= set[U(c - 2)] < oactive:
                color = 0
                if c >= second:
                    color = nd[U(NODE * q + 2)]
                    set[U(c - 3)] = color
                updates += hide(c, color, set, nd, oactive)
            q += 1
        if q == p:
            break
    state[ACTIVE] = active
    state[SAVEPTR] = saveptr
    return updates


@njit(cache=True)
def release_option(p, set, nd, stack, state):
    """Inverse of commit_option (the last option committed must be
    released first)."""
    top = state[SAVEPTR] - 1
    before = stack[U(2 * top)]
    restore_sizes(set, stack, top - before, top)
    state[ACTIVE] = before
    state[SAVEPTR] = top - before


# solve_batch searches an instance this many nodes at a time between looks
# at its stop flag; STOPPED marks an instance it cut short (or never
# started): the values of dlx.kernels.ssxc1.
BATCH_SLICE_NODES = 1 << 14
STOPPED = -3


@njit(cache=True)
def grown(stack):
    """A copy of the save stack twice as large."""
    bigger = np.zeros(2 * stack.shape[0], np.int32)
    bigger[: stack.shape[0]] = stack
    return bigger


@njit(cache=True, nogil=True)
def solve_batch(
    item,
    set,
    nd,
    second,
    pristine_item,
    pristine_set,
    pristine_nd,
    given_nodes,
    given_start,
    limit,
    max_nodes,
    first,
    first_len,
    counts,
    work,
    stop,
):
    """Solve many instances that differ only in committed options, as
    ``dlx.kernels.ssxc1.solve_batch`` does (same arguments, same
    results): each instance starts from the ``pristine_*`` arrays, so it
    searches exactly as a fresh ``count``/``solve`` would."""
    nbatch = given_start.shape[0] - 1
    depth = first.shape[1]
    n = item.shape[0]
    choice = np.zeros(depth + 1, np.int32)
    saved = np.zeros(depth + 2, np.int64)
    stack = np.zeros(2 * max(16, 4 * n), np.int32)
    state = np.zeros(FORCE + n + 1, np.int64)
    counters = np.zeros(3, np.int64)
    one_len = np.zeros(1, np.int32)
    for b in range(nbatch):
        first_len[b] = 0
        if stop[0] != 0:
            counts[b] = STOPPED
            continue
        item[:] = pristine_item
        set[:] = pristine_set
        nd[:] = pristine_nd
        state[:] = 0
        state[WHERE] = FORWARD
        state[ACTIVE] = n
        updates = 0
        clash = False
        for g in range(given_start[b], given_start[b + 1]):
            u = commit_option(
                given_nodes[g], item, set, nd, second, stack, state
            )
            while u == -2:
                stack = grown(stack)
                u = commit_option(
                    given_nodes[g], item, set, nd, second, stack, state
                )
            if u < 0:
                clash = True
                break
            updates += u
        counters[0] = 0
        counters[1] = 0
        counters[2] = 0
        status = EXHAUSTED
        if clash:
            counts[b] = -1
        else:
            while True:
                # In slices, as one call would have run (pausing is
                # invisible to nodes and updates), so that the stop flag is
                # read every BATCH_SLICE_NODES nodes.
                want = limit - counters[2] if limit > 0 else 0
                row = first[b : b + 1] if counters[2] == 0 else first[b:b]
                status = search(
                    item,
                    set,
                    nd,
                    second,
                    stack,
                    saved,
                    choice,
                    state,
                    row,
                    one_len,
                    want,
                    min(max_nodes, counters[0] + BATCH_SLICE_NODES),
                    counters,
                )
                if counters[2] > 0 and first_len[b] == 0:
                    first_len[b] = one_len[0]
                if status == STACK_FULL:
                    stack = grown(stack)
                elif (
                    status != OUT_OF_NODES
                    or counters[0] >= max_nodes
                    or stop[0] != 0
                ):
                    break
            counts[b] = counters[2]
            if status == OUT_OF_NODES:
                counts[b] = -2 if counters[0] >= max_nodes else STOPPED
        work[b, 0] = counters[0]
        work[b, 1] = counters[1]
        work[b, 2] = updates
