"""The jitted heart of the engine: Knuth's DLX1 over flat int32 arrays.

Every function here is a module-level ``@njit(cache=True)`` kernel, and
calls only kernels of this module (numba's on-disk cache is keyed per file
and does not notice edits to functions in other files).  The kernels never
touch Python objects and never raise.

Layout (Knuth, *Dancing Links*, and ``dlx1.w``), for ``N`` items of which
the first ``N1`` are primary:

* ``llink``/``rlink`` (length ``N + 2``): two circular doubly linked lists
  of *active* items.  Node 0 is the root of the primary list; node ``N + 1``
  is the root of the secondary list.  Item ``k`` (1-based) is node ``k``.
* ``ulink``/``dlink``/``top`` (one entry per node): node ``k <= N`` is the
  header of item ``k`` and heads the circular vertical list of the options
  that still contain ``k``.  Option nodes follow, one option at a time, with
  a *spacer* node before each option and after the last one.  For an option
  node ``top`` is its item; for a spacer ``top <= 0``, ``ulink`` is the
  first node of the option above it and ``dlink`` the last node of the
  option below it, so a walk right (left) off the end of an option jumps
  back to its start (end).
* ``length[k]``: how many options in item ``k``'s vertical list, plus
  ``COVERED`` while item ``k`` is covered (see ``choose_item``).

Knuth's toy matrix: items ``a b c d e | f g`` (N1=5, N=7), options
``c e f``, ``a d g``, ``b c f``, ``a d``, ``b g``, ``d e g``.  The arrays
the engine builds for it (``|`` marks the spacers 8, 12, 16, ..., 30)::

    item     0  1  2  3  4  5  6  7  8     (0 and 8 are the two roots)
    llink    5  0  1  2  3  4  8  6  7
    rlink    1  2  3  4  5  0  7  8  6
    length   0  2  2  2  3  2  2  3  0

    node     0  1  2  3  4  5  6  7 | 8  9 10 11 |12 13 14 15 |16 17 18 19
    top      0  0  0  0  0  0  0  0 | 0  3  5  6 |-1  1  4  7 |-2  2  3  6
    ulink    0 21 24 18 27 28 19 29 | 0  3  5  6 | 9  1  4  7 |13  2  9 11
    dlink    0 13 17  9 14 10 11 15 |11 18 28 19 |15 21 22 25 |19 24  3  6

    node    20 21 22 |23 24 25 |26 27 28 29 |30
    top     -3  1  4 |-4  2  7 |-5  4  5  7 |-6
    ulink   17 13 14 |21 17 15 |24 22 10 25 |27
    dlink   22  1 27 |25  2 29 |29  4  5  7 | 0

Header nodes do not use ``top`` (0).  The unique solution is
``{a d}, {b g}, {c e f}``: options 3, 4 and 0.

Counters follow DLX1, and equal its own on the same input: ``nodes``
counts search-tree nodes, that is every level entered to choose an item
plus every solution (a solution is a leaf node, TAOCP 7.2.2-(4));
``updates`` counts link changes made by ``cover`` (one per item removed
from the item list and one per option node hidden).  ``max_nodes`` is
checked before an item is chosen.
"""

import numpy as np

from .jit import njit

# Every link lookup indexes with U(...): numba wraps negative indices
# around unless the index type is unsigned, and that test on every load
# made the search 1.6-2.6x slower (bench/, same nodes and updates).
# Indices here are never negative.
U = np.uint64

# Added to length[i] while item i is covered, so that a plain scan over a
# range of item numbers (choose_item) never prefers a covered item.  It is
# far above any real length: a length never exceeds the number of nodes,
# and node numbers are int32.
COVERED = 1 << 30

# choose_item looks at items in blocks of this many: the minimum of a block
# is one vectorised pass, and the scan can stop after any block.
MRV_BLOCK = 16

# Where the search resumes (state[1]).
FORWARD = 0  # X2/X3: enter a new level and choose an item
RECOVER = 1  # X6: undo the option at this level and try the next one
DONE = 2  # the whole tree has been explored

# What search() returns.
EXHAUSTED = 0  # no more solutions
PAUSED = 1  # stopped after the requested number of solutions; resumable
OUT_OF_NODES = 2  # stopped by the node budget; resumable


@njit(cache=True)
def hide(p, ulink, dlink, top, length):
    """Remove the other nodes of p's option from their items' lists."""
    updates = 0
    q = p + 1
    while q != p:
        x = top[U(q)]
        u = ulink[U(q)]
        if x <= 0:  # spacer: wrap to the first node of this option
            q = u
        else:
            d = dlink[U(q)]
            dlink[U(u)] = d
            ulink[U(d)] = u
            length[U(x)] -= 1
            updates += 1
            q += 1
    return updates


@njit(cache=True)
def unhide(p, ulink, dlink, top, length):
    """Inverse of hide: walk the option leftward, the reverse of hide."""
    q = p - 1
    while q != p:
        x = top[U(q)]
        d = dlink[U(q)]
        if x <= 0:  # spacer: wrap to the last node of this option
            q = d
        else:
            u = ulink[U(q)]
            dlink[U(u)] = q
            ulink[U(d)] = q
            length[U(x)] += 1
            q -= 1


@njit(cache=True)
def cover(i, llink, rlink, ulink, dlink, top, length):
    """Take item i out of the active list and hide every option that has it."""
    left = llink[U(i)]
    right = rlink[U(i)]
    rlink[U(left)] = right
    llink[U(right)] = left
    length[U(i)] += COVERED
    updates = 1
    p = dlink[U(i)]
    while p != i:
        updates += hide(p, ulink, dlink, top, length)
        p = dlink[U(p)]
    return updates


@njit(cache=True)
def uncover(i, llink, rlink, ulink, dlink, top, length):
    """Inverse of cover: unhide bottom-up, then relink i (the reverse order)."""
    p = ulink[U(i)]
    while p != i:
        unhide(p, ulink, dlink, top, length)
        p = ulink[U(p)]
    left = llink[U(i)]
    right = rlink[U(i)]
    rlink[U(left)] = i
    llink[U(right)] = i
    length[U(i)] -= COVERED


@njit(cache=True)
def cover_rest(p, llink, rlink, ulink, dlink, top, length):
    """Cover the items of p's option other than top[p] (step X5)."""
    updates = 0
    q = p + 1
    while q != p:
        x = top[U(q)]
        if x <= 0:
            q = ulink[U(q)]
        else:
            updates += cover(x, llink, rlink, ulink, dlink, top, length)
            q += 1
    return updates


@njit(cache=True)
def uncover_rest(p, llink, rlink, ulink, dlink, top, length):
    """Inverse of cover_rest, leftward (step X6)."""
    q = p - 1
    while q != p:
        x = top[U(q)]
        if x <= 0:
            q = dlink[U(q)]
        else:
            uncover(x, llink, rlink, ulink, dlink, top, length)
            q -= 1


@njit(cache=True)
def choose_item(llink, rlink, length, cutoff):
    """MRV: the active primary item with the fewest options, first on ties.

    The scan stops early at an item with at most ``cutoff`` options.  With
    ``cutoff == 0`` this is exactly DLX1's choice (an empty item cannot be
    beaten); ``cutoff == 1`` takes the first forced item without looking
    for an empty one, which trades a few more nodes for shorter scans.

    DLX1 walks the active list.  This scan reads ``length`` straight
    through the item numbers from the first active primary item
    (``rlink[0]``) to the last (``llink[0]``) instead: the active list is
    always in item-number order (cover and uncover unlink and relink in
    place), and a covered item in that range carries ``COVERED`` in its
    length, so the choice is the same.  Blocks of ``MRV_BLOCK`` items are
    reduced to their minimum without branches (the compiler vectorises
    that); only the block holding the choice is searched item by item.
    """
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
    # In best_block, the first item with the block's minimum, or (after a
    # cutoff stop) the first with at most cutoff options, as DLX1's walk
    # would have met it.
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
    choice,
    state,
    out,
    out_len,
    want,
    max_nodes,
    counters,
    cutoff,
):
    """Algorithm X, iterative, resumable.

    ``choice[l]`` is the option node tried at level ``l``; ``state`` holds
    ``(level, where)`` so a later call continues exactly where this one
    stopped.  The first ``out.shape[0]`` solutions found by this call are
    written to ``out``/``out_len`` as rows of option nodes.  The call
    returns PAUSED after ``want`` solutions (``want <= 0``: never),
    OUT_OF_NODES when ``counters[0]`` reaches ``max_nodes`` before a new
    node, or EXHAUSTED.  ``counters`` is ``(nodes, updates, solutions)``.

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
            # X2 is folded into X5 (a solution is seen right after a cover);
            # X3: choose an item.
            if nodes >= max_nodes:
                status = OUT_OF_NODES
                break
            nodes += 1
            best = choose_item(llink, rlink, length, cutoff)
            # X4: cover it and start with its first option.
            updates += cover(best, llink, rlink, ulink, dlink, top, length)
            p = dlink[U(best)]
            choice[U(level)] = p
        else:
            # X6: undo the option at this level and move down to the next.
            uncover_rest(p, llink, rlink, ulink, dlink, top, length)
            p = dlink[U(p)]
            choice[U(level)] = p
        # X5: try option p, or backtrack when best's list is used up.
        while p == best:
            # X7/X8: uncover and go back a level (X8).
            uncover(best, llink, rlink, ulink, dlink, top, length)
            if level == 0:
                where = DONE
                break
            level -= 1
            p = choice[U(level)]
            best = top[U(p)]
            uncover_rest(p, llink, rlink, ulink, dlink, top, length)
            p = dlink[U(p)]
            choice[U(level)] = p
        if where == DONE:
            break
        updates += cover_rest(p, llink, rlink, ulink, dlink, top, length)
        if rlink[0] == 0:
            # X2: every primary item is covered; choice[0..level] is a cover,
            # and a leaf node of the search tree.
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
def unwind(llink, rlink, ulink, dlink, top, length, choice, state):
    """Undo a paused search so the links are as before it started."""
    level = state[0]
    where = state[1]
    if where == DONE:
        return
    if where == FORWARD:
        level -= 1  # levels below the current one hold a covered option
    while level >= 0:
        p = choice[U(level)]
        uncover_rest(p, llink, rlink, ulink, dlink, top, length)
        uncover(top[U(p)], llink, rlink, ulink, dlink, top, length)
        level -= 1
    state[0] = 0
    state[1] = DONE


@njit(cache=True)
def commit_option(p, llink, rlink, ulink, dlink, top, length):
    """Choose the option holding node p before the search (a given).

    Returns the number of link updates, or -1 (and changes nothing) when
    one of its items is no longer active: the option clashes with an
    option committed earlier.
    """
    # An item x is active iff rlink[llink[x]] == x: a covered item is
    # skipped by its neighbours until uncover relinks it.
    q = p
    while True:
        x = top[U(q)]
        if x <= 0:
            q = ulink[U(q)]
        else:
            if rlink[llink[U(x)]] != x:
                return -1
            q += 1
        if q == p:
            break
    updates = cover(top[U(p)], llink, rlink, ulink, dlink, top, length)
    return updates + cover_rest(p, llink, rlink, ulink, dlink, top, length)


@njit(cache=True)
def release_option(p, llink, rlink, ulink, dlink, top, length):
    """Inverse of commit_option."""
    uncover_rest(p, llink, rlink, ulink, dlink, top, length)
    uncover(top[U(p)], llink, rlink, ulink, dlink, top, length)


# solve_batch searches an instance this many nodes at a time between
# looks at its stop flag (a few milliseconds at most).
BATCH_SLICE_NODES = 1 << 14

# counts[b] in solve_batch for an instance the stop flag cut short (or never
# started).
STOPPED = -3


@njit(cache=True, nogil=True)
def solve_batch(
    llink,
    rlink,
    ulink,
    dlink,
    top,
    length,
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
    """Solve many instances that differ only in committed options.

    Instance ``b`` commits the option nodes
    ``given_nodes[given_start[b]:given_start[b + 1]]``, counts solutions up
    to ``limit`` (``limit <= 0``: all of them) and keeps the first in
    ``first[b]``.  ``counts[b]`` is the number found, ``-1`` if the givens
    clash, ``-2`` if the node budget ran out, ``STOPPED`` if ``stop[0]``
    became nonzero first (another thread sets it: Ctrl-C, a deadline).
    ``work[b]`` receives ``(nodes, search updates, updates made by
    committing the givens)``.  The links are restored after every instance,
    so one copy serves the whole batch.  It releases the GIL: threads may
    run it at once on separate copies of the links.
    """
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
                given_nodes[committed], llink, rlink, ulink, dlink, top, length
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
            counts[b] = 1  # the givens alone are a cover: one leaf node
            first_len[b] = 0
            counters[0] = 1
        else:
            state[0] = 0
            state[1] = FORWARD
            first_len[b] = 0
            while True:
                # The search goes on in slices, as one call would have run
                # (pausing is invisible to nodes and updates), so that the
                # stop flag is read every BATCH_SLICE_NODES nodes.
                want = limit - counters[2] if limit > 0 else 0
                row = first[b : b + 1] if counters[2] == 0 else first[b:b]
                status = search(
                    llink,
                    rlink,
                    ulink,
                    dlink,
                    top,
                    length,
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
                unwind(llink, rlink, ulink, dlink, top, length, choice, state)
        work[b, 0] = counters[0]
        work[b, 1] = counters[1]
        work[b, 2] = updates
        while committed > lo:
            committed -= 1
            release_option(
                given_nodes[committed], llink, rlink, ulink, dlink, top, length
            )


@njit(cache=True)
def probe(llink, rlink, ulink, dlink, top, length, choice, cutoff, out):
    """One random root-to-leaf walk of the search tree (Knuth, 1975).

    At each node the item is chosen as ``search`` chooses it and one of its
    ``d`` options at random; the walk's weight, the product of the degrees
    ``d`` so far, is how many nodes of that depth it stands for.  Adds to
    ``out`` the walk's estimates ``(nodes, updates, solutions)``: the sum
    of the weights of the nodes on the walk; the sum of their weighted
    costs (a node costs its ``cover_rest`` and, if it branches, its
    ``cover``, as the search counts them); the weight of the leaf when it
    is a solution.  Each is an unbiased estimate of the tree's figure.
    The links are restored before it returns.
    """
    weight = 1.0
    nodes = 1.0
    updates = 0.0
    solutions = 0.0
    level = 0
    while True:
        best = choose_item(llink, rlink, length, cutoff)
        updates += weight * cover(
            best, llink, rlink, ulink, dlink, top, length
        )
        degree = length[U(best)] - COVERED
        if degree == 0:  # a dead end: undo this level's cover only
            uncover(best, llink, rlink, ulink, dlink, top, length)
            level -= 1
            break
        p = dlink[U(best)]
        for _ in range(np.random.randint(0, degree)):
            p = dlink[U(p)]
        choice[U(level)] = p
        weight *= degree
        nodes += weight
        updates += weight * cover_rest(
            p, llink, rlink, ulink, dlink, top, length
        )
        if rlink[0] == 0:  # a solution, a leaf
            solutions = weight
            break
        level += 1
    while level >= 0:
        p = choice[U(level)]
        uncover_rest(p, llink, rlink, ulink, dlink, top, length)
        uncover(top[U(p)], llink, rlink, ulink, dlink, top, length)
        level -= 1
    out[0] += nodes
    out[1] += updates
    out[2] += solutions


@njit(cache=True)
def estimate(
    llink, rlink, ulink, dlink, top, length, choice, cutoff, seed, out
):
    """``out.shape[0]`` independent probes, seeded by ``seed``: row ``k``
    of ``out`` receives probe ``k``'s ``(nodes, updates, solutions)``.
    A negative ``seed`` goes on with the thread's random numbers where the
    last call left them, so that probes made in several calls are the
    probes of one.

    The root list must hold at least one primary item.
    """
    if seed >= 0:
        np.random.seed(seed)
    for k in range(out.shape[0]):
        out[k, 0] = 0.0
        out[k, 1] = 0.0
        out[k, 2] = 0.0
        probe(llink, rlink, ulink, dlink, top, length, choice, cutoff, out[k])


@njit(cache=True)
def explored(dlink, top, length, choice, levels):
    """The share of the search tree explored, as DLX1 reports it.

    ``choice[0..levels-1]`` are the options being tried; at level ``l``
    option ``choice[l]`` is the ``k``-th (from 0) of the ``d`` options of
    its item, so the subtrees of the ``k`` before it are done.  Each level
    weighs one over the product of the degrees above it (Knuth's measure),
    and the current subtree counts half done.  An item's own option list
    is untouched below it (every option meeting it is hidden elsewhere),
    so ``d`` is its length and the position is a walk down that list.
    """
    share = 0.0
    weight = 1.0
    for level in range(levels):
        p = choice[U(level)]
        item = top[U(p)]
        degree = length[U(item)] - COVERED
        k = 0
        q = dlink[U(item)]
        while q != p:
            k += 1
            q = dlink[U(q)]
        weight /= degree
        share += k * weight
    return share + weight / 2
