"""Algorithm X over bitsets, for small exact-cover problems.

Every function here is a module-level ``@njit(cache=True)`` kernel and
calls only kernels of this module (numba's cache is keyed per file).

Dancing links keeps every option in linked lists and pays a pointer chase
per node it unlinks and relinks.  For a small problem (a 9x9 Sudoku is
729 options, 324 items) the whole state fits in a few machine words
instead: the *live* options as a bitset of ``W = ceil(O / 64)`` words (12
for Sudoku), and for every item a count of its live options.

* **Choosing option o** is ``live &= ~conflict[o]``, one AND-NOT over
  ``W`` words, where ``conflict[o]`` is the precomputed set of the options
  that share an item with ``o`` (``o`` included).  The options it drops
  (``live & conflict[o]`` before the AND-NOT) are walked bit by bit to
  lower the counts of their primary items (``hit[x]``); the items of
  ``o`` itself are first marked covered (their count is set to
  ``covered``, far above any real count, so lowering it never brings it
  near 0 or 1, and a covered item is never chosen).
* **Undoing** is copying words back: a branch point saves ``live`` and the
  counts (``saved_live``, ``saved_count``), and each of its tries starts
  from that copy; nothing is walked backwards.
* **The item to branch on** is the uncovered primary item with the fewest
  live options (Knuth's MRV), the first of them on ties.

A count is an int32 holding ``(live options << 16) | x``, where ``x`` is
the XOR of the numbers of the item's live options: when the count falls
to one, ``x`` *is* the live option, with no search for it.

**Propagation.**  An item whose count falls to 1 is queued as it falls,
and its one live option is chosen before anything else (a *forced*
move); an item whose count falls to 0 ends the try (a dead end).  Only
when nothing is forced does the search branch.  Each try of a branch is
thus the option and every move it forces.  This stays exact cover: a
forced option is in every solution below, and choosing it is what
Algorithm X would do at the next level, where its item has one option.

**Subsets** (optional, by ``thresh``): when every live option of primary
item ``i`` also holds item ``j``, the options of ``j`` without ``i`` can
be in no solution below (``i`` will be covered by an option that covers
``j``), and are dropped: ``live &= ~(holders[j] & ~holders[i])``.  In
Sudoku this is the "locked candidates" rule (a digit confined to one box
within a row, or to one row within a box).  Item ``i`` is examined when
its count falls to at most ``T_i``, the most options it shares with any
one other item (``thresh[i] = (T_i + 1) << 16``; items that share at most
one option with every other item, like Sudoku's cells, are never
examined), and only when no move is forced.

Counters (not DLX1's, which counts forced moves as nodes too):

* ``nodes``: branch points (an item chosen to branch on once nothing is
  forced) plus solutions (leaves), and the root when the moves the givens
  force leave an item without options (a search has at least one node,
  as in DLX1); a try that dies while it propagates is no node;
* ``updates``: options dropped from the live set, chosen ones included
  (a try that dies stops counting where it dies).

Knuth's toy problem: items ``a b c d e | f g``, options 0 ``c e f``,
1 ``a d g``, 2 ``b c f``, 3 ``a d``, 4 ``b g``, 5 ``d e g``.  In one word
(bit ``k`` is option ``k``; ``conflict[0] = {0, 2, 5}``, ``conflict[1] =
{1, 3, 4, 5}``, ``conflict[3] = {1, 3, 5}`` ...), the counts of ``a b c
d e`` start at ``2 2 2 3 2``.  Nothing is forced, so the search branches
on ``a`` (the first with two).  Option 1 ``a d g`` drops ``{1, 3, 4,
5}`` (4 updates): ``b`` and ``e`` fall to one option each, 2 and 0;
``b``'s, ``b c f``, is forced and drops ``{0, 2}`` (2 updates), and ``e``
falls to none: a dead end.  Option 3 ``a d`` drops ``{1, 3, 5}`` (3):
``e`` falls to one, 0, forced; ``c e f`` drops ``{0, 2}`` (2), and ``b``
falls to one, 4, forced; ``b g`` drops ``{4}`` (1) and covers the rest:
the solution ``3, 0, 4`` in the order chosen.  Two nodes (the branch on
``a`` and the leaf), 12 updates.
"""

import numpy as np

from .jit import intrinsic, njit

# Indices are cast to unsigned so that numba does not test for negative
# indices on every load (see dlx.kernels.dlx1: the same trick).
U = np.uint64

# A count is (live options << SHIFT) | XOR of their numbers, in an int32
# (the engine takes at most 2**13 options).
SHIFT = 16
ONE = np.int32(1 << SHIFT)
TWO = np.int32(2 << SHIFT)
LOW = np.int32((1 << SHIFT) - 1)

# Where the search resumes (state[WHERE]), as in dlx.kernels.dlx1, and
# ROOT: make the moves the givens force (queued by start), then FORWARD.
FORWARD = 0  # choose an item at a new level
RECOVER = 1  # try the next option at this level
DONE = 2  # the whole tree has been explored
ROOT = 3

# What search() returns.
EXHAUSTED = 0
PAUSED = 1
OUT_OF_NODES = 2

# counts[b] in solve_batch for an instance the stop flag cut short.
STOPPED = -3
# solve_batch searches an instance this many nodes at a time between looks
# at its stop flag.
BATCH_SLICE_NODES = 1 << 14

# The scalars of a search, kept in its state array between calls.
LEVEL = 0  # the current branching level
WHERE = 1  # FORWARD, RECOVER, DONE or ROOT
CHOSEN = 2  # options chosen so far (beyond the givens)
LEFT = 3  # primary items not yet covered
QUEUED = 4  # forced items queued by start (for ROOT)
EXAMINE = 5  # items queued for the subset rule by start (for ROOT)
STATE_SIZE = 6

# The columns of the per-level record `meta`.
M_CHOSEN = 0  # state[CHOSEN] at the level's branch point
M_LEFT = 1  # state[LEFT] there
M_ITEM = 2  # the item branched on
M_NEXT = 3  # where its next option is in item_opt


def plain_cttz(x):
    """``cttz`` in Python."""
    x = int(x)
    return np.uint64((x & -x).bit_length() - 1)


@intrinsic(plain_cttz)
def cttz(typingctx, x):
    """The trailing zeros of a nonzero uint64 (one instruction)."""
    from llvmlite import ir
    from numba import types

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return types.uint64(types.uint64), codegen


@njit(cache=True, nogil=True)
def search(
    hit,
    thresh,
    conflict,
    holders,
    span,
    opt_start,
    opt_item,
    item_start,
    item_opt,
    nprimary,
    covered,
    live,
    count,
    saved_live,
    saved_count,
    meta,
    chosen,
    queue,
    examine,
    pick,
    state,
    out,
    out_len,
    want,
    max_nodes,
    counters,
):
    """Algorithm X over the bitset, iterative and resumable.

    ``live``/``count``/``state`` and the queues come from ``start``.  Level
    ``l`` keeps in ``saved_live[l]``/``saved_count[l]`` the state at its
    branch point and in ``meta[l]`` its chosen-length, items left, item
    and next option.  The first ``out.shape[0]`` solutions found by this
    call go to ``out``/``out_len`` as rows of option numbers (the options
    beyond the givens, in the order chosen).  Returns PAUSED after
    ``want`` solutions (``want <= 0``: never), OUT_OF_NODES when
    ``counters[0]`` reaches ``max_nodes`` before a new node, or
    EXHAUSTED.  ``counters`` is ``(nodes, updates, solutions)``.

    One function on purpose: numba counts references to the arrays a
    kernel passes at every call of another, which costs more than a small
    helper's work; the steps are labelled instead.
    """
    level = state[LEVEL]
    where = state[WHERE]
    nodes = counters[0]
    updates = counters[1]
    found = 0
    cap = out.shape[0]
    status = EXHAUSTED
    nwords = live.shape[0]
    nitems = count.shape[0]
    width = hit.shape[1]
    if where == DONE:
        return EXHAUSTED
    while True:
        o = -1
        qn = 0
        en = 0
        if where == ROOT:
            qn = state[QUEUED]
            en = state[EXAMINE]
        else:
            fresh = False
            if where == FORWARD:
                if nodes >= max_nodes:
                    status = OUT_OF_NODES
                    break
                nodes += 1
                # X3: choose the item (MRV, the first of the fewest; none
                # has fewer than 2 live options after propagation, so the
                # first with 2 is it), and save the state at this point.
                best = covered >> SHIFT
                item = 0
                for j in range(nprimary):
                    c = count[U(j)] >> SHIFT
                    if c < best:
                        best = c
                        item = j
                        if c <= 2:
                            break
                for w in range(nwords):
                    saved_live[U(level), U(w)] = live[U(w)]
                for j in range(nitems):
                    saved_count[U(level), U(j)] = count[U(j)]
                meta[U(level), M_CHOSEN] = state[CHOSEN]
                meta[U(level), M_LEFT] = state[LEFT]
                meta[U(level), M_ITEM] = item
                meta[U(level), M_NEXT] = item_start[U(item)]
                fresh = True
            # X5: the next live option of this level's item; X7/X8:
            # backtrack while there is none.
            while True:
                item = meta[U(level), M_ITEM]
                t = meta[U(level), M_NEXT]
                end = item_start[U(item + 1)]
                while t < end:
                    x = item_opt[U(t)]
                    if (saved_live[U(level), U(x >> 6)] >> U(x & 63)) & U(1):
                        break
                    t += 1
                if t < end:
                    break
                if level == 0:
                    where = DONE
                    break
                level -= 1
                fresh = False
            if where == DONE:
                break
            meta[U(level), M_NEXT] = t + 1
            if not fresh:  # X6: undo the level's last try (copy back)
                for w in range(nwords):
                    live[U(w)] = saved_live[U(level), U(w)]
                for j in range(nitems):
                    count[U(j)] = saved_count[U(level), U(j)]
                state[CHOSEN] = meta[U(level), M_CHOSEN]
                state[LEFT] = meta[U(level), M_LEFT]
            o = item_opt[U(t)]
        # Propagate: choose o, then every forced option, then apply the
        # subset rule, until nothing changes or an item has no option.
        n = state[CHOSEN]
        left = state[LEFT]
        head = 0
        ehead = 0
        dead = False
        while True:
            sub_i = -1
            sub_j = -1
            if o < 0:
                while head < qn:  # a forced option?
                    c = count[U(queue[U(head)])]
                    head += 1
                    if (c >> SHIFT) == 1:  # (else covered since it was queued)
                        o = c & LOW
                        break
            if o < 0:
                while ehead < en:  # an item for the subset rule?
                    i = examine[U(ehead)]
                    ehead += 1
                    c = count[U(i)]
                    if c >= thresh[U(i)] or c < TWO:
                        continue  # covered, forced, or too many options
                    # A live option of i (the first): the items that all
                    # of i's live options hold are among its items.
                    wlo = span[U(i), 0]
                    whi = span[U(i), 1]
                    p0 = -1
                    for w in range(wlo, whi):
                        r = live[U(w)] & holders[U(i), U(w)]
                        if r != 0:
                            p0 = (w << 6) | np.int64(cttz(r))
                            break
                    for s in range(opt_start[U(p0)], opt_start[U(p0 + 1)]):
                        j = opt_item[U(s)]
                        if j == i:
                            continue
                        shared = True
                        for w in range(p0 >> 6, whi):
                            if (
                                live[U(w)]
                                & holders[U(i), U(w)]
                                & ~holders[U(j), U(w)]
                            ):
                                shared = False
                                break
                        if not shared:
                            continue
                        # Does the rule drop anything through j?
                        for w in range(span[U(j), 0], span[U(j), 1]):
                            if (
                                live[U(w)]
                                & holders[U(j), U(w)]
                                & ~holders[U(i), U(w)]
                            ):
                                sub_j = j
                                break
                        if sub_j >= 0:
                            break
                    if sub_j >= 0:
                        sub_i = i
                        # i may share more items: look at it again later.
                        examine[U(ehead - 1)] = i
                        ehead -= 1
                        break
            if o < 0 and sub_j < 0:
                break  # nothing forced, nothing to drop: done
            if o >= 0:
                chosen[U(n)] = o
                n += 1
                for s in range(width):
                    j = hit[U(o), U(s)]
                    count[U(j)] = covered
                    left -= j < nprimary
            # Drop the live options of the mask: o's conflicts, or the
            # options of sub_j without sub_i.
            for w in range(nwords):
                if o >= 0:
                    r = live[U(w)] & conflict[U(o), U(w)]
                else:
                    r = (
                        live[U(w)]
                        & holders[U(sub_j), U(w)]
                        & ~holders[U(sub_i), U(w)]
                    )
                if r == 0:
                    continue
                live[U(w)] ^= r
                while r != 0:
                    x = (w << 6) | np.int64(cttz(r))
                    r &= r - U(1)
                    updates += 1
                    for s in range(width):
                        j = hit[U(x), U(s)]
                        c = (count[U(j)] - ONE) ^ x
                        count[U(j)] = c
                        if c < thresh[U(j)]:
                            if c >= TWO:
                                examine[U(en)] = j
                                en += 1
                            elif c >= ONE:
                                queue[U(qn)] = j
                                qn += 1
                            else:
                                dead = True
                if dead:
                    break
            if dead:
                break
            o = -1
        state[CHOSEN] = n
        state[LEFT] = left
        if where == ROOT:
            level = 0
            if dead:  # the root is a dead end: one node
                nodes += 1
                where = DONE
                break
            where = FORWARD
            if left > 0:
                continue
            where = DONE  # the givens force a whole solution
        elif dead:
            where = RECOVER
            continue
        if left == 0:
            # Every primary item is covered: a solution, a leaf node.
            nodes += 1
            if found < cap:
                for k in range(n):
                    out[found, k] = chosen[U(k)]
                out_len[found] = n
            found += 1
            if where != DONE:
                where = RECOVER
            if found == want:
                status = PAUSED
                break
            if where == DONE:
                break
        else:
            level += 1
            where = FORWARD
    state[LEVEL] = level
    state[WHERE] = where
    counters[0] = nodes
    counters[1] = updates
    counters[2] += found
    return status


@njit(cache=True, nogil=True)
def start(
    hit,
    thresh,
    conflict,
    nprimary,
    covered,
    init_live,
    init_count,
    init_forced,
    live,
    count,
    queue,
    examine,
    state,
    given,
    given_lo,
    given_hi,
    counters,
):
    """Reset ``live``/``count`` to the empty choice and commit the given
    options ``given[given_lo:given_hi]``, queueing what they force (and
    ``init_forced``, the primary items with at most one option before
    any choice); set ``state`` for ``search`` (which makes the forced moves
    first).

    Returns -1 when two givens share an item (a clash), 0 when a primary
    item is left without options (no solution; ``counters[0]`` is then 1,
    the root), else 1: a search is due.  ``counters[1]`` receives the
    updates of the givens.
    """
    nwords = live.shape[0]
    width = hit.shape[1]
    for w in range(nwords):
        live[U(w)] = init_live[U(w)]
    for j in range(count.shape[0]):
        count[U(j)] = init_count[U(j)]
    left = nprimary
    qn = 0
    en = 0
    updates = 0
    dead = False
    for k in range(init_forced.shape[0]):
        j = init_forced[U(k)]
        queue[U(qn)] = j
        qn += 1
        dead = dead or count[U(j)] < ONE
    # Every given is committed, even after a dead end, so that a clash
    # among later ones is still told apart.
    for g in range(given_lo, given_hi):
        o = given[U(g)]
        # Only an earlier given can have dropped it: they share an item.
        if not (live[U(o >> 6)] >> U(o & 63)) & U(1):
            return -1
        for s in range(width):
            j = hit[U(o), U(s)]
            count[U(j)] = covered
            left -= j < nprimary
        for w in range(nwords):
            r = live[U(w)] & conflict[U(o), U(w)]
            live[U(w)] ^= r
            while r != 0:
                x = (w << 6) | np.int64(cttz(r))
                r &= r - U(1)
                updates += 1
                for s in range(width):
                    j = hit[U(x), U(s)]
                    c = (count[U(j)] - ONE) ^ x
                    count[U(j)] = c
                    if c < thresh[U(j)]:
                        if c >= TWO:
                            examine[U(en)] = j
                            en += 1
                        elif c >= ONE:
                            queue[U(qn)] = j
                            qn += 1
                        else:
                            dead = True
    state[LEVEL] = 0
    state[WHERE] = ROOT
    state[CHOSEN] = 0
    state[LEFT] = left
    state[QUEUED] = qn
    state[EXAMINE] = en
    counters[1] = updates
    if dead:
        counters[0] = 1  # the root, a dead end
        return 0
    return 1


@njit(cache=True, nogil=True)
def solve_batch(
    hit,
    thresh,
    conflict,
    holders,
    span,
    opt_start,
    opt_item,
    item_start,
    item_opt,
    nprimary,
    covered,
    init_live,
    init_count,
    init_forced,
    depth,
    given,
    given_start,
    limit,
    max_nodes,
    first,
    first_len,
    counts,
    work,
    stop,
):
    """Solve many instances that differ only in their given options.

    Instance ``b`` gives the options ``given[given_start[b]:
    given_start[b + 1]]``, counts solutions up to ``limit`` (``limit <=
    0``: all) and keeps the first in ``first[b]`` (the options beyond the
    givens, in the order chosen).  ``counts[b]``: the number found, -1 if
    two givens share an item, -2 if ``max_nodes`` ran out, ``STOPPED`` if
    ``stop[0]`` became nonzero first.  ``work[b]``: ``(nodes, search
    updates, updates of the givens)``.  ``depth``: the most branch levels
    a search may need.  The work arrays are made once per call, none per
    instance.  Releases the GIL: threads may run it at once.
    """
    nbatch = given_start.shape[0] - 1
    nwords = init_live.shape[0]
    nitems = init_count.shape[0]
    live = np.empty(nwords, np.uint64)
    count = np.empty_like(init_count)
    saved_live = np.empty((depth, nwords), np.uint64)
    saved_count = np.empty((depth, nitems), np.int32)
    meta = np.empty((depth, 4), np.int64)
    chosen = np.empty(max(nprimary, 1), np.int32)
    queue = np.empty(nitems, np.int32)
    examine = np.empty(hit.shape[0] * hit.shape[1] + 1, np.int32)
    pick = np.empty(hit.shape[0], np.int32)
    state = np.zeros(STATE_SIZE, np.int64)
    counters = np.zeros(3, np.int64)
    row = np.empty((1, first.shape[1]), np.int32)
    none = np.empty((0, first.shape[1]), np.int32)
    one_len = np.zeros(1, np.int32)
    for b in range(nbatch):
        if stop[0] != 0:
            counts[b] = STOPPED
            continue
        counters[0] = 0
        counters[1] = 0
        counters[2] = 0
        first_len[b] = 0
        outcome = start(
            hit,
            thresh,
            conflict,
            nprimary,
            covered,
            init_live,
            init_count,
            init_forced,
            live,
            count,
            queue,
            examine,
            state,
            given,
            given_start[b],
            given_start[b + 1],
            counters,
        )
        work[b, 2] = counters[1]
        counters[1] = 0
        if outcome < 0:
            counts[b] = -1
        elif outcome == 0:
            counts[b] = 0  # (one node, the root)
        else:
            while True:
                want = limit - counters[2] if limit > 0 else 0
                status = search(
                    hit,
                    thresh,
                    conflict,
                    holders,
                    span,
                    opt_start,
                    opt_item,
                    item_start,
                    item_opt,
                    nprimary,
                    covered,
                    live,
                    count,
                    saved_live,
                    saved_count,
                    meta,
                    chosen,
                    queue,
                    examine,
                    pick,
                    state,
                    row if counters[2] == 0 else none,
                    one_len,
                    want,
                    min(max_nodes, counters[0] + BATCH_SLICE_NODES),
                    counters,
                )
                if counters[2] > 0 and first_len[b] == 0:
                    n = one_len[0]
                    for k in range(n):
                        first[b, k] = row[0, k]
                    first_len[b] = n
                if (
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
