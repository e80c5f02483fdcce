"""Dancing cells with multiplicities and colors: Knuth's SSMCC.

Exact cover with bounds ``u..v`` on primary items and colors on secondary
items (an MCC problem, as DLX3 solves it: ``dlx.kernels.dlx3``)
by sparse sets, as SSMCC (``ssmcc.w``, Knuth's SSXCC-BINARY with Filip
Stappers' multiplicities) does it.  Every function here is a module-level
``@njit(cache=True)`` kernel calling only kernels of this module; none
touches Python objects or raises.

The search branches *two ways*: a node of the tree is an item ``i`` and
the first option ``o`` of its set; the left child *includes* ``o`` (the
options clashing with it leave every set, ``i``'s bound drops by one and
so do those of ``o``'s other primary items), the right child *removes*
``o`` and branches again.  A *stage* is a left branch taken: the options of
a partial solution are ``choice[levelstage[0:stage]]``.  An item whose
set holds exactly the options it still needs (``size == bound - slack``)
is *forced*: it is pushed on ``force`` once per option it needs, and the
following nodes include those options without branching or saving.

Layout (``dlx.engines.ssmcc.McCells`` builds it), as ``dlx.kernels.ssxc1``
with ``HEAD = 4`` header words per item and three words per node:

* ``item``: the items' set indices, the first ``active`` of them active;
* ``set``: for item ``x``, ``set[x - 4]`` is ``bound(x)`` (how many more
  options may cover it; starts at ``v``, 1 for a secondary item),
  ``set[x - 3]`` ``slack(x)`` (``v - u``, constant), ``set[x - 2]``
  ``pos(x)``, ``set[x - 1]`` ``size(x)``, then its options' nodes, the
  first ``size(x)`` of them active;
* ``nd``: ``itm, loc, clr`` for each node (``clr`` the color code, 0 for
  none); a spacer has ``itm = -t`` after an option of ``t`` items and
  ``itm = 0`` for the first; walks go from an option's first node to the
  spacer after it, as in SSMCC;
* ``stack``: saved ``(item, size, bound)`` triples, three int32 an entry.

An item is deactivated when its bound reaches 0 (covered), when its set
empties, or (secondary) when a chosen option purifies it.  Optionless
items start out inactive (SSMCC's "make optionless items invisible"), and
options without a primary item are in no set.

Knuth's example from ``dlx3.w``: items ``A B 2:3|C | X Y``, options
``A B X:0 Y:0``, ``A C X:1 Y:1``, ``C X:0``, ``B X:1``, ``C Y:1``
(``python -m dlx.engines.ssmcc`` prints the arrays)::

    item         4 10 16 23 31      (second = 23: X and Y are secondary)

    set index  0  1  2  3  4  5 |  6  7  8  9 10 11 | 12 13 14 15 16 17 18
    set        1  0  0  2  1  6 |  1  0  1  2  2 14 |  3  1  2  3  7 11 17
              bd sl pos sz A    | bd sl pos sz B    | bd sl pos sz C

    set index 19 20 21 22 23 24 25 26 | 27 28 29 30 31 32 33
    set        1  0  3  4  3  8 12 15 |  1  0  4  3  4  9 18
              bd sl pos sz X          | bd sl pos sz Y

    node       0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15 16 17 18 19
    itm        0  4 10 23 31 -4  4 16 23 31 -4 16 23 -2 10 23 -2 16 31 -2
    loc        4  4 10 23 31  4  5 16 24 32  2 17 25  2 11 26  2 18 33  0
    clr        0  0  0  1  1  0  0  0  2  2  0  0  1  0  0  2  0  0  2  0

(colors ``0`` and ``1`` of the file are codes 1 and 2).  C's bound is 3
and its slack 1; the unique solution is options 1, 3 and 4.

Counters are SSMCC's, and equal its own on the same input: ``nodes``
counts every node entered (left and right children, forced moves and
solutions alike); ``updates`` one per node swapped out of a set (SSMCC
does not count deactivating an item).  ``max_nodes`` is checked before a
node is entered.
"""

import numpy as np

from .jit import njit

# Indices go through U(...): numba wraps negative indices around unless
# the index type is unsigned (see dlx/kernels/dlx1.py).
U = np.uint64

HEAD = 4  # header words in front of each item's set

# Entries of ``state`` (int64): the search's whole scalar state.
LEVEL = 0
STAGE = 1
WHERE = 2
ACTIVE = 3
SAVEPTR = 4
FORCED = 5  # entries on the force stack
BASE = 6  # where the sizes before the root begin on the save stack
BASE_END = 7
STATE_SIZE = 8

# Where the search resumes (state[WHERE]): SSMCC's labels.
FORWARD = 0
BACKUP = 1
DONE = 2
_ADVANCE = 3
_TRYAGAIN = 4
_PREBACKUP = 5
_PURGEIT = 6

# What search() returns.
EXHAUSTED = 0
PAUSED = 1
OUT_OF_NODES = 2
STACK_FULL = 3  # grow the save stack and call again
TOO_DEEP = 4  # choice/levelstage too short (never, sized as the glue does)

INF = 0x7FFFFFFF


@njit(cache=True)
def deactivate(x, item, set, active):
    """Swap item x to position active - 1 (the caller decrements
    ``active``)."""
    p = set[U(x - 2)]
    a = active - 1
    other = item[U(a)]
    item[U(a)] = x
    item[U(p)] = other
    set[U(x - 2)] = a
    set[U(other - 2)] = p


@njit(cache=True)
def remove_elsewhere(optp, item, set, nd, second, active, upd):
    """SSMCC's "remove optp from its other sets": swap every node of
    optp's option out of its item's set (purified secondary items are left
    alone; an item left with no option is deactivated).  Returns the new
    ``active``, or -1 when a primary item would keep fewer options than it
    still needs (then the sets are left part-way, for the caller to
    restore).  ``upd[0]`` counts the swaps."""
    nn = optp
    while nd[U(3 * (nn - 1))] > 0:
        nn -= 1
    while True:
        ii = nd[U(3 * nn)]
        if ii <= 0:
            break
        p = nd[U(3 * nn + 1)]
        if p >= second and set[U(ii - 2)] >= active:
            nn += 1
            continue
        ss = set[U(ii - 1)] - 1
        if p < second:
            if ss < set[U(ii - 4)] - set[U(ii - 3)]:
                return -1
            if ss == 0:
                deactivate(ii, item, set, active)
                active -= 1
        if ss > 0:
            last = ii + ss
            nnp = set[U(last)]
            set[U(ii - 1)] = ss
            set[U(last)] = nn
            set[U(p)] = nnp
            nd[U(3 * nn + 1)] = last
            nd[U(3 * nnp + 1)] = p
            upd[0] += 1
        nn += 1
    return active


@njit(cache=True)
def include_option(opt, item, set, nd, second, active, upd):
    """SSMCC's ``include_option``: add opt's option to the partial
    solution.  Each primary item's bound drops by one; at 0 the item is
    covered (its other options leave every set, and it is deactivated),
    else opt leaves its set (or, the set empty, the item is deactivated).
    Each active secondary item is purified (options with another color
    leave) and deactivated.  Returns the new ``active``, or -1 when some
    primary item could no longer be satisfied."""
    while nd[U(3 * (opt - 1))] > 0:
        opt -= 1
    while True:
        ii = nd[U(3 * opt)]
        if ii <= 0:
            break
        pp = nd[U(3 * opt + 1)]
        p = set[U(ii - 2)]
        if p >= active:  # a purified secondary item
            opt += 1
            continue
        if ii < second:
            set[U(ii - 4)] -= 1
        if ii >= second or set[U(ii - 4)] == 0:
            ss = set[U(ii - 1)]
            c = 0 if ii < second else nd[U(3 * opt + 2)]
            s = ii + ss - 1
            while s >= ii:
                if s != pp:
                    optp = set[U(s)]
                    if c == 0 or nd[U(3 * optp + 2)] != c:
                        active = remove_elsewhere(
                            optp, item, set, nd, second, active, upd
                        )
                        if active < 0:
                            return -1
                s -= 1
            deactivate(ii, item, set, active)
            active -= 1
        else:
            ss = set[U(ii - 1)] - 1
            if ss < set[U(ii - 4)] - set[U(ii - 3)]:
                return -1
            if ss == 0:
                deactivate(ii, item, set, active)
                active -= 1
            else:
                last = ii + ss
                nnp = set[U(last)]
                set[U(ii - 1)] = ss
                set[U(last)] = opt
                set[U(pp)] = nnp
                nd[U(3 * opt + 1)] = last
                nd[U(3 * nnp + 1)] = pp
                upd[0] += 1
        opt += 1
    return active


@njit(cache=True)
def live(q, set, nd, second, active):
    """Is the option of node q still in play: every primary item of it
    active and holding it?  (A removed option may linger in the set of an
    item that it emptied: SSMCC leaves a set of one alone.)"""
    while nd[U(3 * (q - 1))] > 0:
        q -= 1
    while True:
        x = nd[U(3 * q)]
        if x <= 0:
            return True
        if x < second and (
            set[U(x - 2)] >= active or nd[U(3 * q + 1)] >= x + set[U(x - 1)]
        ):
            return False
        q += 1


@njit(cache=True)
def include_secondary_only(opt, item, set, nd, second, active, upd):
    """Include a given option that has no primary item (SSMCC keeps such
    options in no set, so its search never meets one): purify each of its
    active secondary items, removing only the options still in play, and
    deactivate it.  Returns the new ``active``, or -1 as
    ``include_option``."""
    while nd[U(3 * (opt - 1))] > 0:
        opt -= 1
    while True:
        ii = nd[U(3 * opt)]
        if ii <= 0:
            break
        if set[U(ii - 2)] < active:
            c = nd[U(3 * opt + 2)]
            s = ii + set[U(ii - 1)] - 1
            while s >= ii:
                optp = set[U(s)]
                if (c == 0 or nd[U(3 * optp + 2)] != c) and live(
                    optp, set, nd, second, active
                ):
                    active = remove_elsewhere(
                        optp, item, set, nd, second, active, upd
                    )
                    if active < 0:
                        return -1
                s -= 1
            deactivate(ii, item, set, active)
            active -= 1
        opt += 1
    return active


@njit(cache=True)
def remove_option(opt, item, set, nd, second, active, upd):
    """SSMCC's "remove the option cur_choice" (the right branch): opt's
    option leaves every set it is active in.  Returns the new ``active``,
    or -1 when a primary item would keep too few options."""
    while nd[U(3 * (opt - 1))] > 0:
        opt -= 1
    while True:
        ii = nd[U(3 * opt)]
        if ii <= 0:
            break
        p = nd[U(3 * opt + 1)]
        if p >= second and set[U(ii - 2)] >= active:
            opt += 1
            continue
        ss = set[U(ii - 1)] - 1
        if p < second:
            if ss < set[U(ii - 4)] - set[U(ii - 3)]:
                return -1
            if ss == 0:
                deactivate(ii, item, set, active)
                active -= 1
        if ss > 0:
            last = ii + ss
            nnp = set[U(last)]
            set[U(ii - 1)] = ss
            set[U(last)] = opt
            set[U(p)] = nnp
            nd[U(3 * opt + 1)] = last
            nd[U(3 * nnp + 1)] = p
            upd[0] += 1
        opt += 1
    return active


@njit(cache=True)
def save(item, set, stack, saveptr, active, second):
    """Push (x, size(x), bound(x)) for every active item; the new top."""
    base = 3 * saveptr
    for k in range(active):
        x = item[U(k)]
        stack[U(base + 3 * k)] = x
        stack[U(base + 3 * k + 1)] = set[U(x - 1)]
        stack[U(base + 3 * k + 2)] = set[U(x - 4)]
    return saveptr + active


@njit(cache=True)
def restore(set, stack, lo, hi):
    """Put back the sizes and bounds saved in entries lo..hi-1."""
    for k in range(lo, hi):
        x = stack[U(3 * k)]
        set[U(x - 1)] = stack[U(3 * k + 1)]
        set[U(x - 4)] = stack[U(3 * k + 2)]


@njit(cache=True)
def choose_item(item, set, active, second, force, forced, best_out):
    """SSMCC's choice: the active primary item of least branching degree
    ``size + s - bound + 1`` (``s = min(slack, bound)``), ties to smaller
    ``s``, then larger ``size``, then the smaller set index.  An item of
    degree 1 is pushed on ``force`` ``bound - slack`` times instead.
    Returns the degree (``INF``: no item, a solution) with the item in
    ``best_out[0]``, and the new number of forced entries in
    ``best_out[1]``."""
    score = INF
    best = 0
    best_s = 0
    best_l = 0
    for k in range(active):
        x = item[U(k)]
        if x < second:
            b = set[U(x - 4)]
            sl = set[U(x - 3)]
            s = sl if sl <= b else b
            size = set[U(x - 1)]
            t = size + s - b + 1
            if t == 1:
                for _ in range(b - sl):
                    force[U(forced)] = x
                    forced += 1
            elif t <= score and (
                t < score
                or (
                    s <= best_s
                    and (
                        s < best_s
                        or (size >= best_l and (size > best_l or x < best))
                    )
                )
            ):
                score = t
                best = x
                best_s = s
                best_l = size
    best_out[0] = best
    best_out[1] = forced
    return score


@njit(cache=True, nogil=True)
def search(
    item,
    set,
    nd,
    second,
    stack,
    saved,
    choice,
    deg,
    levelstage,
    force,
    state,
    out,
    out_len,
    want,
    max_nodes,
    counters,
):
    """SSMCC's search, iterative and resumable.

    ``choice[l]`` and ``deg[l]``: the node tried at level ``l`` and its
    item's degree (1 for a forced move); ``levelstage[s]``: the latest
    level of stage ``s``; ``saved[s]``: the save stack's top when stage
    ``s`` saved its sizes (at its first non-forced node; right branches
    save again over it).  ``state`` is ``(level, stage, where, active,
    saveptr, forced, base, base_end)``.  The first ``out.shape[0]``
    solutions found by this call are written to ``out``/``out_len`` as
    rows of option nodes.  Returns PAUSED after ``want`` solutions
    (``want <= 0``: never), OUT_OF_NODES when ``counters[0]`` reaches
    ``max_nodes`` before a new node, STACK_FULL when the save stack
    cannot hold the next node's sizes (call again with a larger copy), or
    EXHAUSTED, and then the sets are as before the search (up to the order
    of their elements).  ``counters`` is ``(nodes, updates, solutions)``.
    """
    level = state[LEVEL]
    stage = state[STAGE]
    where = state[WHERE]
    active = state[ACTIVE]
    saveptr = state[SAVEPTR]
    forced = state[FORCED]
    nodes = counters[0]
    upd = np.zeros(1, np.int64)
    upd[0] = counters[1]
    found = 0
    cap = out.shape[0]
    room = stack.shape[0] // 3
    depth = choice.shape[0]
    status = EXHAUSTED
    best_out = np.zeros(2, np.int64)
    best = 0
    score = 0
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
            if level + 1 >= depth or stage + 1 >= saved.shape[0]:
                status = TOO_DEEP
                break
            nodes += 1
            if level == 0:
                # The sizes before the root, to leave the sets as they were
                # when the search is over (SSMCC has no need to).
                state[BASE] = saveptr
                saveptr = save(item, set, stack, saveptr, active, second)
                state[BASE_END] = saveptr
                levelstage[0] = 0
            # Maybe do a forced move left by the last choice.
            best = 0
            while forced > 0:
                forced -= 1
                x = force[U(forced)]
                if set[U(x - 2)] < active:
                    best = x
                    break
            if best != 0:
                saved[U(stage)] = saveptr
                score = 1
                where = _ADVANCE
            else:
                score = choose_item(
                    item, set, active, second, force, forced, best_out
                )
                best = best_out[0]
                forced = best_out[1]
                if forced > 0:
                    forced -= 1
                    best = force[U(forced)]
                    saved[U(stage)] = saveptr
                    score = 1
                    where = _ADVANCE
                elif score == INF:
                    # A solution: the options of the stages so far.
                    if found < cap:
                        for k in range(stage):
                            out[found, k] = choice[U(levelstage[U(k)])]
                        out_len[found] = stage
                    found += 1
                    where = BACKUP
                    if found == want:
                        status = PAUSED
                        break
                    continue
                else:
                    saved[U(stage)] = saveptr
                    saveptr = save(item, set, stack, saveptr, active, second)
                    where = _ADVANCE
        if where == _ADVANCE:
            cur = set[U(best)]
            choice[U(level)] = cur
            deg[U(level)] = score
            a = include_option(cur, item, set, nd, second, active, upd)
            if a >= 0:
                active = a
                stage += 1
                level += 1
                levelstage[U(stage)] = level
                where = FORWARD
                continue
            forced = 0
            where = _TRYAGAIN
        if where == _TRYAGAIN:
            where = _PREBACKUP if deg[U(level)] == 1 else _PURGEIT
        if where == _PREBACKUP:
            saveptr = saved[U(stage)]
            where = BACKUP
        if where == BACKUP:
            stage -= 1
            if stage < 0:
                where = DONE
                break
            level = levelstage[U(stage)]
            where = _PURGEIT
        if where == _PURGEIT:
            if deg[U(level)] == 1:
                where = _PREBACKUP
                continue
            active = saveptr - saved[U(stage)]
            saveptr = saved[U(stage)]
            restore(set, stack, saveptr, saveptr + active)
            a = remove_option(
                choice[U(level)], item, set, nd, second, active, upd
            )
            if a < 0:
                where = _PREBACKUP
                continue
            active = a
            level += 1
            levelstage[U(stage)] = level
            where = FORWARD
    if where == DONE:
        # Back to the sets as they were before the root node.
        saveptr = state[BASE]
        active = state[BASE_END] - saveptr
        restore(set, stack, saveptr, state[BASE_END])
        level = 0
        stage = 0
        forced = 0
    state[LEVEL] = level
    state[STAGE] = stage
    state[WHERE] = where
    state[ACTIVE] = active
    state[SAVEPTR] = saveptr
    state[FORCED] = forced
    counters[0] = nodes
    counters[1] = upd[0]
    counters[2] += found
    return status


@njit(cache=True)
def unwind(set, stack, state):
    """Undo a paused search: the sets as before it started, state DONE."""
    where = state[WHERE]
    if where != DONE and (where != FORWARD or state[LEVEL] > 0):
        base = state[BASE]
        restore(set, stack, base, state[BASE_END])
        state[ACTIVE] = state[BASE_END] - base
        state[SAVEPTR] = base
    state[LEVEL] = 0
    state[STAGE] = 0
    state[FORCED] = 0
    state[WHERE] = DONE


@njit(cache=True)
def commit_option(p, item, set, nd, second, stack, state):
    """Include the option of node p before the search (a given).

    Saves the active sizes and bounds (``release_option`` puts them
    back), then includes it as SSMCC includes a choice.  Returns the
    updates, -1 when the option is no longer available (a primary item of
    it is inactive or no longer has it) or its inclusion leaves some item
    unsatisfiable (nothing changes then), -2 when the stack is too small
    (nothing changes).  Colors against an earlier given whose secondary
    item it purified are the caller's to check for options without a
    primary item (SSMCC keeps those in no set)."""
    active = state[ACTIVE]
    saveptr = state[SAVEPTR]
    if not live(p, set, nd, second, active):
        return -1
    q = p
    while nd[U(3 * (q - 1))] > 0:
        q -= 1
    primary = False
    while nd[U(3 * q)] > 0:
        primary = primary or nd[U(3 * q)] < second
        q += 1
    if saveptr + active > stack.shape[0] // 3:
        return -2
    top = save(item, set, stack, saveptr, active, second)
    upd = np.zeros(1, np.int64)
    if primary:
        a = include_option(p, item, set, nd, second, active, upd)
    else:
        a = include_secondary_only(p, item, set, nd, second, active, upd)
    if a < 0:
        restore(set, stack, saveptr, top)
        return -1
    state[ACTIVE] = a
    state[SAVEPTR] = top
    return upd[0]


@njit(cache=True)
def exclude_option(p, item, set, nd, second, stack, state):
    """Remove the option of node p before the search (a right branch
    taken in advance: every solution searched then leaves it out), as
    ``commit_option`` includes one; ``release_option`` undoes it.
    Returns the updates, -1 when the option is no longer in play or its
    removal leaves a primary item with too few options (nothing changes
    then), -2 when the stack is too small."""
    active = state[ACTIVE]
    saveptr = state[SAVEPTR]
    if not live(p, set, nd, second, active):
        return -1
    if saveptr + active > stack.shape[0] // 3:
        return -2
    top = save(item, set, stack, saveptr, active, second)
    upd = np.zeros(1, np.int64)
    a = remove_option(p, item, set, nd, second, active, upd)
    if a < 0:
        restore(set, stack, saveptr, top)
        return -1
    state[ACTIVE] = a
    state[SAVEPTR] = top
    return upd[0]


@njit(cache=True)
def release_option(set, stack, state, lo):
    """Undo the commit whose save began at stack entry ``lo`` (the last
    one committed)."""
    hi = state[SAVEPTR]
    restore(set, stack, lo, hi)
    state[ACTIVE] = hi - lo
    state[SAVEPTR] = lo


# solve_batch searches an instance this many nodes at a time between looks
# at its stop flag.
BATCH_SLICE_NODES = 1 << 14
STOPPED = -3  # counts[b] of an instance the stop flag cut short


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
    active0,
    first,
    first_len,
    counts,
    work,
    levels,
    stop,
):
    """Solve many instances that differ only in committed options, as
    ``dlx.kernels.ssxc1.solve_batch`` does (same ``counts`` codes and
    ``work`` columns); a given ``-1 - p`` excludes the option of node
    ``p`` instead (``exclude_option``).  ``levels`` sizes
    ``choice``/``deg``, and ``first.shape[1]`` the stages.  Each instance
    starts from the ``pristine_*`` arrays with ``active0`` items active.
    Releases the GIL."""
    nbatch = given_start.shape[0] - 1
    stages = first.shape[1]
    n = item.shape[0]
    choice = np.zeros(levels + 1, np.int32)
    deg = np.zeros(levels + 1, np.int32)
    levelstage = np.zeros(stages + 2, np.int32)
    saved = np.zeros(stages + 2, np.int64)
    force = np.zeros(nd.shape[0] // 3 + 1, np.int32)
    stack = np.zeros(3 * max(16, 4 * n), np.int32)
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
        state[:] = 0
        state[WHERE] = FORWARD
        state[ACTIVE] = active0
        updates = 0
        clash = False
        for g in range(given_start[b], given_start[b + 1]):
            p = given_nodes[g]
            while True:
                if p >= 0:
                    u = commit_option(p, item, set, nd, second, stack, state)
                else:
                    u = exclude_option(
                        -1 - p, item, set, nd, second, stack, state
                    )
                if u != -2:
                    break
                stack = grown(stack)
            if u < 0:
                clash = True
                break
            updates += u
        counters[:] = 0
        status = EXHAUSTED
        if clash:
            counts[b] = -1
        else:
            while True:
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
                    deg,
                    levelstage,
                    force,
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
