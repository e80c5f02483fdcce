"""Dancing cells: Knuth's SSXC1 over flat int32 arrays.

Exact cover with secondary items by sparse sets instead of linked lists
(Knuth, ``ssxc1.w``), with Christine Solnon's idea of saving the sizes of
the active sets on a stack, so that undoing a level is one pass over the
saved sizes.  Every function here is a module-level ``@njit(cache=True)``
kernel that calls only kernels of this module; none touches Python objects
or raises.

Layout (``dlx.engines.ssxc1.Cells`` builds it), for ``N`` items of which the first
``N1`` are primary:

* ``item`` (length ``N``): a permutation of the items, each given by its
  *set index* ``x``; the first ``active`` entries are the active items
  (``state[ACTIVE]``).  Taking item ``x`` out swaps it to position
  ``active - 1`` and decrements ``active``; the order of the active ones
  changes as the search goes, and breaks MRV ties (as in SSXC1).
* ``set``: one block per item, ``HEAD`` header words then one word per
  option that contains the item.  For item ``x``: ``set[x - 2]`` is
  ``pos(x)``, its position in ``item``; ``set[x - 1]`` is ``size(x)``; and
  ``set[x:x + size(x)]`` are the nodes of its *active* options, a sparse
  set: hiding an option swaps its node to the end of the active part and
  shrinks ``size(x)``, so restoring ``size(x)`` alone brings it back.
  Items are in input order, so ``x < second`` means primary.
* ``nd`` (two words per node, ``itm`` and ``loc``: ``itm[q] = nd[2q]``,
  ``loc[q] = nd[2q + 1]``, side by side as in SSXC1's node struct, so
  that one cache line serves both; measured 5-10% faster on the pentomino
  counts than two arrays): options one after another, a
  spacer node before each and after the last.  Option node ``q`` belongs
  to item ``itm[q]`` (a set index) and sits at ``set[loc[q]]``; a spacer
  after an option of ``t`` items has ``itm == -t``, so ``q += itm[q]``
  wraps a walk back to the option's first node.  Options without a primary
  item are kept in ``itm`` (they can be given) but in no set: SSXC1 ignores
  them, since no branch ever needs one.
* The invariants: ``set[item[k] - 2] == k`` for every position ``k``,
  and ``set[loc[q]] == q`` for every node ``q`` in a set.

``HEAD`` header words per item leave room in front of each set: SSXCC keeps
the same two, SSMCC adds bound and slack at ``x - 3`` and ``x - 4``, and the
colors of SSXCC widen a node to ``itm, loc, clr`` (a colors kernel module
indexes ``nd`` with its own node width).

Knuth's toy matrix: items ``a b c d e | f g`` (N1=5, N=7), options
``c e f``, ``a d g``, ``b c f``, ``a d``, ``b g``, ``d e g``.  The arrays
``dlx.engines.ssxc1.Cells`` builds for it (``python -m dlx.engines.ssxc1`` prints them;
``itm`` and ``loc`` are the two halves of ``nd``)::

    item       2  6 10 14 19 23 27     (second = 23: f and g are secondary)

    set index  0  1  2  3 |  4  5  6  7 |  8  9 10 11 | 12 13 14 15 16
    set        0  2  5 13 |  1  2  9 16 |  2  2  1 10 |  3  3  6 14 19
               pos size a | pos size b  | pos size c  | pos size d

    set index 17 18 19 20 | 21 22 23 24 | 25 26 27 28 29
    set        4  2  2 20 |  5  2  3 11 |  6  3  7 17 21
               pos size e | pos size f  | pos size g

    node       0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15
    itm        0 10 19 23 -3  2 14 27 -3  6 10 23 -3  2 14 -2
    loc        3 10 19 23  3  2 14 27  3  6 11 24  2  3 15  2

    node      16 17 18 19 20 21 22
    itm        6 27 -2 14 19 27 -3
    loc        7 28  3 16 20 29  0

Nodes 0, 4, 8, 12, 15, 18 and 22 are spacers; a spacer's ``loc`` is the
size of the option after it, as in SSXC1 (the kernels never read it).
Item a's set (index 2) holds nodes 5 and 13, the first nodes of ``a d g``
and ``a d``.  The unique solution is ``{a d}, {b g}, {c e f}``: options 3,
4 and 0.

Counters follow SSXC1, and equal its own on the same input: ``nodes``
counts every node of the search tree, that is every level entered, each
solution a leaf (TAOCP 7.2.2-(4)); ``updates`` counts one per item taken
out of the active list and one per node removed from a set.  ``max_nodes``
is checked before a node is entered.
"""

import numpy as np

from .jit import njit

# Every index goes through U(...): numba wraps negative indices around
# unless the index type is unsigned (see dlx/kernels/dlx1.py).  Indices
# here are never negative.
U = np.uint64

# Header words in front of each item's set: pos(x) = set[x - 2],
# size(x) = set[x - 1].
HEAD = 2

# Entries of ``state`` (int64): the search's whole scalar state, so that a
# later call continues where this one stopped, and so that given options
# can be committed before it.
LEVEL = 0
WHERE = 1
ACTIVE = 2  # how many items are active: item[0:active]
SAVEPTR = 3  # how many (item, size) pairs are on the save stack
BASE = 4  # where the search's entries begin on it: the sizes before the root
STATE_SIZE = 5

# Where the search resumes (state[WHERE]).
FORWARD = 0  # enter a new node at this level: choose an item
BACKUP = 1  # go back a level and try its next option
DONE = 2  # the whole tree has been explored

# What search() returns.
EXHAUSTED = 0  # no more solutions
PAUSED = 1  # stopped after the requested number of solutions; resumable
OUT_OF_NODES = 2  # stopped by the node budget; resumable
STACK_FULL = 3  # the save stack is too small: grow it and call again

# Larger than any set size.
NO_ITEM = 0x7FFFFFFF


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
def hide(c, set, nd):
    """Remove every option in c's set from the other sets it is in.

    Returns the number of nodes removed (updates).  An option in the set
    of an active item holds active items only, so a node is never removed
    twice.
    """
    updates = 0
    rr = c
    end = c + set[U(c - 1)]
    while rr < end:
        tt = set[U(rr)]
        nn = tt + 1
        while nn != tt:
            uu = nd[U(2 * nn)]
            if uu < 0:  # spacer: wrap to the option's first node
                nn += uu
                continue
            # Swap node nn with the last active node of uu's set.
            ss = set[U(uu - 1)] - 1
            vv = nd[U(2 * nn + 1)]
            last = uu + ss
            nnp = set[U(last)]
            set[U(uu - 1)] = ss
            set[U(last)] = nn
            set[U(vv)] = nnp
            nd[U(2 * nn + 1)] = last
            nd[U(2 * nnp + 1)] = vv
            nn += 1
            updates += 1
        rr += 1
    return updates


@njit(cache=True)
def hide_checked(c, set, nd, active, second):
    """``hide``, but stop as soon as an active primary item would be left
    with no option, and return ``-1 - updates`` then (the sets are left
    part-way, to be put right by restoring the saved sizes).  Two
    functions rather than a flag: the unchecked loop, SSXC1's busiest,
    stays free of the test."""
    updates = 0
    rr = c
    end = c + set[U(c - 1)]
    while rr < end:
        tt = set[U(rr)]
        nn = tt + 1
        while nn != tt:
            uu = nd[U(2 * nn)]
            if uu < 0:
                nn += uu
                continue
            ss = set[U(uu - 1)] - 1
            if ss == 0 and uu < second and set[U(uu - 2)] < active:
                return -1 - updates
            vv = nd[U(2 * nn + 1)]
            last = uu + ss
            nnp = set[U(last)]
            set[U(uu - 1)] = ss
            set[U(last)] = nn
            set[U(vv)] = nnp
            nd[U(2 * nn + 1)] = last
            nd[U(2 * nnp + 1)] = vv
            nn += 1
            updates += 1
        rr += 1
    return updates


@njit(cache=True)
def choose_item(item, set, active, second):
    """MRV as SSXC1 chooses: the first active primary item, in the current
    order of ``item``, with the smallest set; a set of size 1 (or 0) ends
    the scan.  Returns its set index, or 0 when no primary item is
    active (a solution)."""
    best = 0
    fewest = NO_ITEM
    for k in range(active):
        x = item[U(k)]
        if x < second:
            s = set[U(x - 1)]
            if s < fewest:
                best = x
                fewest = s
                if s <= 1:
                    break
    return best


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
    """SSXC1's search, iterative and resumable.

    ``choice[l]`` is the node of the option tried at level ``l``;
    ``saved[l]`` is the top of the save stack when level ``l`` began (the
    sizes saved at level ``l`` are entries ``saved[l]:saved[l + 1]``);
    ``stack`` holds (item, size) pairs, two int32 per entry; below
    ``saved[0]`` lie the sizes from before the root (from ``state[BASE]``
    on) and any saved by committed options.  ``state`` holds ``(level,
    where, active, saveptr, base)`` (see LEVEL...).  The first
    ``out.shape[0]`` solutions found by this call are written to
    ``out``/``out_len`` as rows of option nodes.  Returns PAUSED after
    ``want`` solutions (``want <= 0``: never), OUT_OF_NODES when
    ``counters[0]`` reaches ``max_nodes`` before a new node, STACK_FULL
    when the stack cannot hold the next level's sizes (nothing is lost:
    call again with a larger copy of it), or EXHAUSTED, and then the sets
    are as they were before the search (up to the order of their
    elements).  ``counters`` is ``(nodes, updates, solutions)``.
    """
    level = state[LEVEL]
    where = state[WHERE]
    active = state[ACTIVE]
    saveptr = state[SAVEPTR]
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
            if nodes >= max_nodes:
                status = OUT_OF_NODES
                break
            if saveptr + (active if level else 2 * active) > room:
                status = STACK_FULL
                break
            nodes += 1
            if level == 0:
                # The sizes before the root, to leave the sets as they were
                # when the search is over (SSXC1 has no need to).
                state[BASE] = saveptr
                saveptr = save_sizes(item, set, stack, saveptr, active)
            saved[U(level)] = saveptr
            best = choose_item(item, set, active, second)
            if best == 0:
                # Every primary item is covered: choice[0:level] is a
                # solution, and a leaf of the search tree.
                if found < cap:
                    for l in range(level):
                        out[found, l] = choice[U(l)]
                    out_len[found] = level
                found += 1
                where = BACKUP
                if found == want:
                    status = PAUSED
                    break
            else:
                take_out(best, item, set, active)
                active -= 1
                updates += 1 + hide(best, set, nd)
                saveptr = save_sizes(item, set, stack, saveptr, active)
                saved[U(level + 1)] = saveptr
                cur = best
                if set[U(best - 1)] == 0:
                    where = BACKUP
        if where == BACKUP:
            # Up to the nearest level with an untried option; restore the
            # sizes saved there (that undoes every level below it) and
            # move on to the next option.
            while True:
                if level == 0:
                    where = DONE
                    break
                level -= 1
                node = choice[U(level)]
                best = nd[U(2 * node)]
                cur = nd[U(2 * node + 1)] + 1
                if cur < best + set[U(best - 1)]:
                    break
            if where == DONE:
                break
            saveptr = saved[U(level + 1)]
            active = saveptr - saved[U(level)]
            restore_sizes(set, stack, saved[U(level)], saveptr)
        # Try the options of best from set[cur] on, until one leaves every
        # active primary item coverable.
        end = best + set[U(best - 1)]
        while True:
            node = set[U(cur)]
            choice[U(level)] = node
            # Take out the option's other items, then hide their options.
            q = node + 1
            while q != node:
                c = nd[U(2 * q)]
                if c < 0:
                    q += c
                else:
                    take_out(c, item, set, active)
                    active -= 1
                    updates += 1
                    q += 1
            ok = True
            q = node + 1
            while q != node:
                c = nd[U(2 * q)]
                if c < 0:
                    q += c
                else:
                    u = hide_checked(c, set, nd, active, second)
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
            cur += 1
            if cur >= end:
                where = BACKUP
                break
            # Undo the failed option: back to the sizes saved at this level.
            saveptr = saved[U(level + 1)]
            active = saveptr - saved[U(level)]
            restore_sizes(set, stack, saved[U(level)], saveptr)
    if where == DONE:
        # Back to the sets as they were before the root node.
        saveptr = state[BASE]
        active = saved[0] - saveptr
        restore_sizes(set, stack, saveptr, saved[0])
    state[LEVEL] = level
    state[WHERE] = where
    state[ACTIVE] = active
    state[SAVEPTR] = saveptr
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


@njit(cache=True)
def option_items(p, nd):
    """How many items the option of node p has."""
    k = 1
    q = p + 1
    while q != p:
        c = nd[U(2 * q)]
        if c < 0:
            q += c
        else:
            k += 1
            q += 1
    return k


@njit(cache=True)
def give(p, item, set, nd, active):
    """Take out the items of the option of node p and hide their options,
    with ``active`` items active before: the updates, or -1 when one of
    its items is no longer active (then nothing changes).  The option has
    ``option_items(p, nd)`` items, so that many fewer are active after."""
    q = p
    while True:
        c = nd[U(2 * q)]
        if c < 0:
            q += c
        else:
            if set[U(c - 2)] >= active:
                return -1
            q += 1
        if q == p:
            break
    updates = 0
    q = p
    while True:
        c = nd[U(2 * q)]
        if c < 0:
            q += c
        else:
            take_out(c, item, set, active)
            active -= 1
            updates += 1
            q += 1
        if q == p:
            break
    q = p
    while True:
        c = nd[U(2 * q)]
        if c < 0:
            q += c
        else:
            updates += hide(c, set, nd)
            q += 1
        if q == p:
            break
    return updates


@njit(cache=True)
def commit_option(p, item, set, nd, second, stack, state):
    """Choose the option of node p before the search (a given).

    Saves the active sizes (so ``release_option`` can undo it), takes its
    items out and hides their options.  Returns the number of updates, or
    -1 when one of its items is no longer active (it clashes with an
    option committed earlier), or -2 when the stack is too small; in both
    cases nothing changes.
    """
    active = state[ACTIVE]
    saveptr = state[SAVEPTR]
    if saveptr + active > stack.shape[0] // 2:
        return -2
    # Saved above the top: forgotten if the option clashes.
    top = save_sizes(item, set, stack, saveptr, active)
    updates = give(p, item, set, nd, active)
    if updates >= 0:
        state[ACTIVE] = active - option_items(p, nd)
        state[SAVEPTR] = top
    return updates


@njit(cache=True)
def release_option(p, set, nd, stack, state):
    """Inverse of commit_option (the last option committed must be
    released first)."""
    before = state[ACTIVE] + option_items(p, nd)
    saveptr = state[SAVEPTR]
    restore_sizes(set, stack, saveptr - before, saveptr)
    state[ACTIVE] = before
    state[SAVEPTR] = saveptr - before


@njit(cache=True)
def commit_options(nodes, item, set, nd, second, stack, state):
    """Choose the options of ``nodes`` (first nodes), in turn, before the
    search: the givens of a search, committed as ``commit_option`` would
    commit them one by one, but with the active sizes saved once, before
    the first (saving them per option cost O(givens x items), which made
    a search with many givens slow).  ``release_options`` undoes them all
    at once.

    Returns the number of updates, or -1 when an option's item is no
    longer active (it clashes with an option before it, here or committed
    earlier), or -2 when the stack cannot hold the save.  After -1 the
    sizes and the number of active items are as before the call (the
    order of ``item`` may differ); after -2 nothing changes.
    """
    active = state[ACTIVE]
    base = state[SAVEPTR]
    if base + active > stack.shape[0] // 2:
        return -2
    saveptr = save_sizes(item, set, stack, base, active)
    updates = 0
    for g in range(nodes.shape[0]):
        p = nodes[g]
        u = give(p, item, set, nd, active)
        if u < 0:  # it clashes with an option before it
            restore_sizes(set, stack, base, saveptr)
            return -1
        updates += u
        active -= option_items(p, nd)
    state[ACTIVE] = active
    state[SAVEPTR] = saveptr
    return updates


@njit(cache=True)
def release_options(base, set, stack, state):
    """Inverse of the ``commit_options`` call that began at save-stack
    entry ``base`` (its ``state[SAVEPTR]`` before the call; nothing
    committed after it may still be in force)."""
    saveptr = state[SAVEPTR]
    restore_sizes(set, stack, base, saveptr)
    state[ACTIVE] = saveptr - base
    state[SAVEPTR] = base


# solve_batch searches an instance this many nodes at a time between looks
# at its stop flag (a few milliseconds at most).
BATCH_SLICE_NODES = 1 << 14

# counts[b] in solve_batch for an instance the stop flag cut short (or never
# started); the values of dlx.kernels.dlx1.
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
    """Solve many instances that differ only in committed options.

    As ``dlx.kernels.dlx1.solve_batch``: instance ``b`` commits the nodes
    ``given_nodes[given_start[b]:given_start[b + 1]]``, counts solutions up
    to ``limit`` (``limit <= 0``: all of them) and keeps the first in
    ``first[b]``; ``counts[b]`` is the number found, ``-1`` if the givens
    clash, ``-2`` if the node budget ran out, ``STOPPED`` if ``stop[0]``
    became nonzero first (another thread sets it: Ctrl-C, a deadline);
    ``work[b]`` is ``(nodes, search updates, updates made by committing
    the givens)``.  Before every instance the arrays are reset from the
    ``pristine_*`` copies, so that each instance searches exactly as a
    fresh ``count``/``solve`` would (the item order, which breaks ties,
    starts as the input order) whatever ran before it on this copy.  It
    releases the GIL: threads may run it at once on separate copies.
    """
    nbatch = given_start.shape[0] - 1
    depth = first.shape[1]
    n = item.shape[0]
    choice = np.zeros(depth + 1, np.int32)
    saved = np.zeros(depth + 2, np.int64)
    stack = np.zeros(2 * max(16, 4 * n), np.int32)
    state = np.zeros(STATE_SIZE, np.int64)
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
        state[LEVEL] = 0
        state[WHERE] = FORWARD
        state[ACTIVE] = n
        state[SAVEPTR] = 0
        given = given_nodes[given_start[b] : given_start[b + 1]]
        u = commit_options(given, item, set, nd, second, stack, state)
        while u == -2:
            stack = grown(stack)
            u = commit_options(given, item, set, nd, second, stack, state)
        clash = u < 0
        updates = max(u, 0)
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
