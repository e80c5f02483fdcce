"""Algorithm X over item lanes: the forced moves of every item at once.

Every function here is a module-level ``@njit(cache=True)`` kernel and
calls only kernels of this module (numba's cache is keyed per file;
``cttz`` is a copy of ``dlx.kernels.bits``'s).

**Lanes.**  Each primary item ``i`` with ``d_i`` options gets a *lane* of
``L = D + 1`` bits, where ``D`` is the most options any primary item has:
bit ``s`` (``s < d_i``) says that the item's ``s``-th option (by option
number) is still live, and the lane's top bit, its *guard*, says that the
item is not yet covered.  A word holds ``K = 64 // L`` lanes (6 of 10 bits
for a 9x9 Sudoku, whose items have 9 options each), so the whole state of
a search is ``N = ceil(P / K)`` words (54 for Sudoku's 324 items, padded
to a multiple of 8).  An option appears in the lanes of all its primary
items; secondary items have no lane.

* **Choosing option o** is one AND-NOT over the ``N`` words with the
  precomputed ``mask[o]``: the lane bits of every option that shares an
  item with ``o`` (``o`` included), in all their lanes, and the guards of
  ``o``'s primary items.  Nothing is walked option by option.  The last
  move before a scan (below) is made in the scan's own pass over the
  words (``mask`` has a last row of zeros, the move of nothing, for a
  scan that follows none).
* **Forced moves for every item at once.**  With ``G`` the guards and
  ``O`` the lowest bit of each lane, a word ``x`` gives by a few word
  operations the lanes with no option (``opts = x & ~G``, ``d = (opts |
  G) - O``: a lane's guard bit of ``d`` is 0 exactly when its options
  are none) and the lanes with exactly one (``m = d & opts`` clears each
  lane's lowest option; a lane with one option has ``m`` zero).  A
  *scan* computes both over all words (vectorized: the words are a flat
  array): an uncovered lane with no option is a dead end, an uncovered
  lane with one option names a *forced* option (its bit, looked up in
  ``lane_opt``), which is chosen at once.  Scans alternate with the
  moves they force until none is left.  In Sudoku these are the naked
  and the hidden singles alike: both are items with one option.
* **Undoing** is copying the ``N`` words back: a branch point saves
  them (``saved[level]``), and each of its tries starts from that copy.
* **The subset rule** (Knuth's; in Sudoku, locked candidates): when every
  live option of item ``i`` also holds item ``j``, the other options of
  ``j`` go.  Each lane has at most ``P`` *partners*, the primary items
  that share two or more of its options, with the lane's shared options
  as a mask (``pshared[p]``, packed as the lanes are, its guard bit set
  where lane has a ``p``-th partner) and the partner's
  (``jshared``): one vector pass per partner tests every lane at once
  (``lane & ~shared == 0``), on the lanes whose options changed since the
  last test (no other can newly pass it).  It runs when nothing is forced,
  at branch levels below ``subset_depth`` (measured: deeper, its tests
  cost more than they spare).
* **Branching** (when nothing is forced and the rule drops nothing):
  among the first ``candidates`` uncovered lanes with two options (found
  by one vector pass), the one whose two options drop the most lane bits
  (``popcount(lanes & mask[o])``: the most constraining); with
  ``candidates = 0``, or when no lane has two options, the first lane
  with the fewest options (Knuth's MRV; the engine's default,
  ``dlx.engines.lanes.CANDIDATES``).

A search is iterative and resumable, as every kernel of the toolkit: the
level, where to resume and the options chosen are in ``state`` and
``meta``, the states in ``saved``.

Counters:

* ``nodes``: branch points plus solutions (leaves), and the root when the
  moves the givens force leave an item without options; a try that dies
  while it propagates is no node (as ``dlx.kernels.bits``);
* ``updates``: *moves*, the options chosen (each one AND-NOT of a mask;
  the givens' moves are counted by ``start``).

Knuth's toy problem: items ``a b c d e | f g``, options 0 ``c e f``,
1 ``a d g``, 2 ``b c f``, 3 ``a d``, 4 ``b g``, 5 ``d e g``.  ``D = 3``
(``d``), so lanes are 4 bits, 16 to a word, and the five primary items
take one word: lane ``a`` holds options ``1 3`` (bits 0 and 1, guard
bit 3), ``b`` ``2 4``, ``c`` ``0 2``, ``d`` ``1 3 5``, ``e`` ``0 5``.  No
lane has fewer than two options.  Lanes ``a`` and ``d`` are partners
(they share options 1 and 3), and every option of ``a`` holds ``d``: the
subset rule drops ``d``'s other option, 5, at the root.  That leaves
``e`` with 0, forced: 0 ``c e f`` clears the bit of 2 in ``b``, which is
forced to 4 ``b g``, which clears the bit of 1 in ``a`` and ``d``: 3
``a d`` is forced, and covers the last two lanes.  The solution ``0, 4,
3`` in the order chosen, one node (the leaf) and three moves.

Without the subset rule the search branches at the root, on the first
lane with the fewest options (MRV; every lane has two or more): ``a``.
Option 1 ``a d g`` clears lanes ``a`` and ``d`` and the bits of options
3, 4, 5 elsewhere: ``b`` is left with 2 and ``e`` with 0, so both are
forced; 2 ``b c f`` then clears the bit of option 0 in ``e``, which is
dead: a dead end.  Option 3 ``a d`` leaves ``e`` with 0 and ``b`` with
2, 4; 0 ``c e f`` is forced and leaves ``b`` with 4, forced too: the
solution ``3, 0, 4``.  Two nodes (the branch point and the leaf), five
moves (1, 2, 3, 0, 4).  (With ``candidates = 8`` it branches on ``e``
instead: of the lanes with two options, ``e``'s drop the most lane bits,
8 and 11 against ``a``'s 9 and 8; option 0 forces 4 and 3, the solution
``0, 4, 3``, and option 5 leaves ``a`` dead: two nodes, four moves.)
"""

import numpy as np

from .jit import intrinsic, njit

# Indices are cast to unsigned so that numba does not test for negative
# indices on every load (see dlx.kernels.dlx1: the same trick).
U = np.uint64

# Where the search resumes (state[WHERE]), as in dlx.kernels.bits.
FORWARD = 0  # choose an item at a new level
RECOVER = 1  # try the next option at this level
DONE = 2  # the whole tree has been explored
ROOT = 3  # make the moves the givens force, then FORWARD

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
STATE_SIZE = 3

# The columns of the per-level record `meta`.
M_CHOSEN = 0  # state[CHOSEN] at the level's branch point
M_LANE = 1  # the lane branched on: (word << 6) | its first bit
M_NEXT = 2  # its options not yet tried, as lane bits

# The words of a state are a multiple of this (whole vectors).
PAD = 8


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


def plain_popcount(x):
    """``popcount`` in Python."""
    return np.uint64(int(x).bit_count())


@intrinsic(plain_popcount)
def popcount(typingctx, x):
    """The set bits of a uint64 (one instruction)."""
    from numba import types

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return types.uint64(types.uint64), codegen


@njit(cache=True, nogil=True, inline="always")
def with_two(x, guard, low):
    """The guard bits of the uncovered lanes of word ``x`` with exactly
    two options: take away each lane's lowest option twice; a lane with
    two options is left with none then, but not after the first."""
    y1 = x & ~guard
    y1 &= (y1 | guard) - low  # one option less
    y2 = y1 & ((y1 | guard) - low)  # two less
    return ((y1 | guard) - low) & ~((y2 | guard) - low) & x & guard


@njit(cache=True, nogil=True)
def search(
    mask,
    lane_opt,
    own_word,
    own_bits,
    partner,
    jshared,
    pshared,
    prange,
    lw,
    per_word,
    guard,
    low,
    subset_depth,
    candidates,
    lanes,
    saved,
    meta,
    chosen,
    sing,
    fire,
    ref,
    snap,
    summ,
    state,
    out,
    out_len,
    want,
    max_nodes,
    counters,
):
    """Algorithm X over the lanes, iterative and resumable.

    ``lanes``/``state`` come from ``start``.  Level ``l`` keeps in
    ``saved[l]`` the lanes at its branch point and in ``meta[l]`` its
    chosen-length, lane and untried options; ``sing``, ``fire``, ``ref``,
    ``snap`` (``N`` words) and ``summ`` (a bit per word) are scratch.  The
    first ``out.shape[0]`` solutions found by this call go to
    ``out``/``out_len`` as rows of option numbers (beyond the givens, in
    the order chosen).  Returns PAUSED after ``want`` solutions (``want
    <= 0``: never), OUT_OF_NODES when ``counters[0]`` reaches
    ``max_nodes`` before a new node, or EXHAUSTED.  ``counters`` is
    ``(nodes, updates, solutions)``.

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
    nwords = lanes.shape[0]
    nchunks = (nwords + 63) >> 6
    field = (U(1) << (lw - U(1))) - U(1)
    # A lane's rank in its word, sh // lw for a bit sh < 64, by a multiply
    # (exact for every width 2..64: checked in tests/test_lanes.py), not a
    # division of some 40 cycles per lane the subset rule looks at.
    per_lane = (U(1) << U(16)) // lw + U(1)
    npart = partner.shape[1]
    nothing = mask.shape[0] - 1  # the zero row: no move
    if where == DONE:
        return EXHAUSTED
    while True:
        o = -1
        if where != ROOT:
            fresh = False
            if where == FORWARD:
                if nodes >= max_nodes:
                    status = OUT_OF_NODES
                    break
                nodes += 1
                # X3: choose the lane.  The lanes with two options (one
                # vector pass), and among the first `candidates` of them
                # the one whose options drop the most lane bits.
                lane = -1
                if candidates > 0:
                    bscore = U(0)
                    ncand = 0
                    for c in range(nchunks):
                        lo = c << 6
                        hi = min(lo + 64, nwords)
                        sm = U(0)
                        for w in range(lo, hi):
                            f = with_two(lanes[U(w)], guard, low)
                            fire[U(w)] = f
                            sm |= U(f != U(0)) << U(w - lo)
                        while sm != U(0) and ncand < candidates:
                            w = lo + np.int64(cttz(sm))
                            sm &= sm - U(1)
                            f = fire[U(w)]
                            x = lanes[U(w)]
                            while f != U(0) and ncand < candidates:
                                b = cttz(f)
                                f &= f - U(1)
                                sh = b + U(1) - lw
                                ob = (x >> sh) & field
                                ncand += 1
                                score = U(0)
                                while ob != U(0):
                                    t = cttz(ob)
                                    ob &= ob - U(1)
                                    q = lane_opt[
                                        U((w << 6) | np.int64(sh + t))
                                    ]
                                    for v in range(nwords):
                                        score += popcount(
                                            lanes[U(v)] & mask[U(q), U(v)]
                                        )
                                if lane < 0 or score > bscore:
                                    bscore = score
                                    lane = (w << 6) | np.int64(sh)
                        if ncand >= candidates:
                            break
                if lane < 0:
                    # MRV: the first uncovered lane with the fewest options.
                    # None has fewer than 2 after propagation, so it is the
                    # first lane with two if there is one: a word's lanes
                    # with two options are found by word operations (as
                    # `fire` above), without a count per lane.
                    for w in range(nwords):
                        f = with_two(lanes[U(w)], guard, low)
                        if f != U(0):
                            lane = (w << 6) | np.int64(cttz(f) + U(1) - lw)
                            break
                if lane < 0:
                    best = U(64)
                    for w in range(nwords):
                        x = lanes[U(w)]
                        act = x & guard
                        while act != U(0):
                            b = cttz(act)
                            act &= act - U(1)
                            sh = b + U(1) - lw
                            cnt = popcount((x >> sh) & field)
                            if cnt < best:
                                best = cnt
                                lane = (w << 6) | np.int64(sh)
                        if best <= U(2):
                            break
                for w in range(nwords):
                    saved[U(level), U(w)] = lanes[U(w)]
                meta[U(level), M_CHOSEN] = state[CHOSEN]
                meta[U(level), M_LANE] = lane
                meta[U(level), M_NEXT] = np.int64(
                    (lanes[U(lane >> 6)] >> U(lane & 63)) & field
                )
                fresh = True
            # X5: the level's next untried option; X7/X8: backtrack while
            # there is none.
            while True:
                if meta[U(level), M_NEXT] != 0:
                    break
                if level == 0:
                    where = DONE
                    break
                level -= 1
                fresh = False
            if where == DONE:
                break
            bits = U(meta[U(level), M_NEXT])
            t = cttz(bits)
            meta[U(level), M_NEXT] = np.int64(bits & (bits - U(1)))
            if not fresh:  # X6: undo the level's last try (copy back)
                for w in range(nwords):
                    lanes[U(w)] = saved[U(level), U(w)]
                state[CHOSEN] = meta[U(level), M_CHOSEN]
            o = lane_opt[U(meta[U(level), M_LANE] + np.int64(t))]
        # Propagate: choose o, then every forced option, then the subset
        # rule, until nothing changes, no item is left uncovered
        # (`left` 0: a solution) or one has no option (`dead`).
        # The last move chosen is made by the scan that follows it, in the
        # same pass over the words (`pend`: its option, or the zero row
        # `nothing` when there is none).
        n = state[CHOSEN]
        left = 1
        dead = False
        pend = nothing
        if o >= 0:
            chosen[U(n)] = o
            n += 1
            updates += 1
            pend = o
        firstcheck = True
        while True:
            # The scan (with the pending move): dead lanes, forced lanes
            # (summ: the words that hold one), any uncovered lane at all.
            anyd = U(0)
            anys = U(0)
            anya = U(0)
            for c in range(nchunks):
                lo = c << 6
                hi = min(lo + 64, nwords)
                sm = U(0)
                for w in range(lo, hi):
                    x = lanes[U(w)] & ~mask[U(pend), U(w)]
                    lanes[U(w)] = x
                    opts = x & ~guard
                    d = (opts | guard) - low  # guard bit 0: no option
                    m = d & opts  # each lane's lowest option cleared
                    m2 = (m | guard) - low  # guard bit 0: one option at most
                    anyd |= ~d & x & guard
                    anya |= x
                    s = x & d & ~m2 & guard
                    sing[U(w)] = s
                    sm |= U(s != U(0)) << U(w - lo)
                summ[U(c)] = sm
                anys |= sm
            pend = nothing
            if anya & guard == U(0):
                left = 0
                break
            if anyd != U(0):
                dead = True
                break
            if anys == U(0):
                if npart == 0 or (where != ROOT and level >= subset_depth):
                    break
                # The subset rule.  Only a lane changed since the last
                # test can newly pass it (options only go): the first test
                # of a try compares with the level's saved lanes (at the
                # root: none), later ones with the lanes before the
                # previous test.
                if firstcheck:
                    if where == ROOT:
                        for w in range(nwords):
                            ref[U(w)] = U(0)
                    else:
                        for w in range(nwords):
                            ref[U(w)] = saved[U(level), U(w)]
                    firstcheck = False
                for w in range(nwords):
                    snap[U(w)] = lanes[U(w)]
                dropped = False
                for p in range(npart):
                    plo = prange[U(p), 0]
                    phi = prange[U(p), 1]
                    for lo in range(plo, phi, 64):
                        hi = min(lo + 64, phi)
                        sm = U(0)
                        for w in range(lo, hi):
                            x = lanes[U(w)]
                            ps = pshared[U(p), U(w)]
                            z = x & ~ps & ~guard  # options outside
                            ch = (x ^ ref[U(w)]) & ~guard
                            f = (
                                x
                                & ~((z | guard) - low)
                                & ((ch | guard) - low)
                                & ps
                                & guard
                            )
                            fire[U(w)] = f
                            sm |= U(f != U(0)) << U(w - lo)
                        while sm != U(0):
                            w = lo + np.int64(cttz(sm))
                            sm &= sm - U(1)
                            f = fire[U(w)]
                            while f != U(0):
                                b = cttz(f)
                                f &= f - U(1)
                                sh = b + U(1) - lw
                                i = w * per_word + np.int64(
                                    (sh * per_lane) >> U(16)
                                )
                                j = np.int64(partner[U(i), U(p)])
                                js = U(j & 63)
                                extra = (
                                    (lanes[U(j >> 6)] >> js)
                                    & field
                                    & ~jshared[U(i), U(p)]
                                )
                                # Drop j's options outside i: clear their
                                # bits in all their lanes.
                                while extra != U(0):
                                    t = cttz(extra)
                                    extra &= extra - U(1)
                                    q = lane_opt[U(j + np.int64(t))]
                                    for r in range(own_word.shape[1]):
                                        lanes[
                                            U(own_word[U(q), U(r)])
                                        ] &= ~own_bits[U(q), U(r)]
                                    dropped = True
                for w in range(nwords):
                    ref[U(w)] = snap[U(w)]
                if not dropped:
                    break
                continue
            # Make the forced moves the scan found (a lane covered by an
            # earlier one meanwhile is skipped; one left with no option is
            # a dead end).  Each move is made when the next is found, and
            # the round's last by the next scan: a lane is looked at as
            # the pending move leaves it.
            for c in range(nchunks):
                sm = summ[U(c)]
                while sm != U(0):
                    w = (c << 6) + np.int64(cttz(sm))
                    sm &= sm - U(1)
                    s = sing[U(w)]
                    while s != U(0):
                        b = cttz(s)
                        s &= s - U(1)
                        x = lanes[U(w)] & ~mask[U(pend), U(w)]
                        if (x >> b) & U(1) == U(0):
                            continue
                        sh = b + U(1) - lw
                        opts = (x >> sh) & field
                        if opts == U(0):
                            dead = True
                            break
                        o = lane_opt[U((w << 6) | np.int64(sh + cttz(opts)))]
                        chosen[U(n)] = o
                        n += 1
                        updates += 1
                        if pend != nothing:
                            for v in range(nwords):
                                lanes[U(v)] &= ~mask[U(pend), U(v)]
                        pend = o
                    if dead:
                        break
                if dead:
                    break
            if dead:
                break
        state[CHOSEN] = n
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


# Inlined (numba's IR) into solve_batch: a call of another kernel counts
# every array it passes in and out (NRT, an atomic add each), some 0.1 us
# a puzzle for start's 10.  search is not inlined: its compile on an empty
# cache would be paid twice (solve_batch and LanesRun), 6.6 s becoming
# 12.3 s, for 6-10% of a 17-clue puzzle (bench/RESULTS.md).
@njit(cache=True, nogil=True, inline="always")
def start(
    mask,
    first_word,
    first_bit,
    opt_start,
    opt_item,
    guard,
    low,
    init_lanes,
    lanes,
    state,
    given,
    given_lo,
    given_hi,
    counters,
):
    """Reset ``lanes`` to the empty choice and commit the given options
    ``given[given_lo:given_hi]``; set ``state`` for ``search`` (whose root
    makes the moves they force).

    Returns -1 when two givens share an item (a clash), 0 when a primary
    item is left without options (no solution; ``counters[0]`` is then 1,
    the root), 2 when they cover every primary item, else 1: a search is
    due.  ``counters[1]`` receives the givens' moves.
    """
    nwords = lanes.shape[0]
    for w in range(nwords):
        lanes[U(w)] = init_lanes[U(w)]
    # Every given is committed, even after a dead end, so that a clash
    # among later ones is still told apart.
    for g in range(given_lo, given_hi):
        o = given[U(g)]
        fw = first_word[U(o)]
        if fw >= 0:
            # Only an earlier given can have cleared its bit: they share
            # an item.
            if (lanes[U(fw)] >> U(first_bit[U(o)])) & U(1) == U(0):
                return -1
        else:
            # An option without primary items has no lane: compare its
            # items with the earlier givens'.
            for h in range(given_lo, g):
                q = given[U(h)]
                for s in range(opt_start[U(o)], opt_start[U(o + 1)]):
                    for r in range(opt_start[U(q)], opt_start[U(q + 1)]):
                        if opt_item[U(s)] == opt_item[U(r)]:
                            return -1
        for w in range(nwords):
            lanes[U(w)] &= ~mask[U(o), U(w)]
    state[LEVEL] = 0
    state[WHERE] = ROOT
    state[CHOSEN] = 0
    counters[1] = given_hi - given_lo
    anyd = U(0)
    anya = U(0)
    for w in range(nwords):
        x = lanes[U(w)]
        anyd |= ~((x & ~guard | guard) - low) & x & guard
        anya |= x
    if anyd != U(0):
        counters[0] = 1  # the root, a dead end
        return 0
    if anya & guard == U(0):
        return 2
    return 1


@njit(cache=True, nogil=True)
def solve_batch(
    mask,
    lane_opt,
    own_word,
    own_bits,
    partner,
    jshared,
    pshared,
    prange,
    lw,
    per_word,
    guard,
    low,
    subset_depth,
    candidates,
    first_word,
    first_bit,
    opt_start,
    opt_item,
    init_lanes,
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
    moves, the givens' moves)``.  ``depth``: the most branch levels a
    search may need.  The work arrays are made once per call, none per
    instance.  Releases the GIL: threads may run it at once.
    """
    nbatch = given_start.shape[0] - 1
    nwords = init_lanes.shape[0]
    lanes = np.empty(nwords, np.uint64)
    saved = np.empty((depth, nwords), np.uint64)
    sing = np.empty(nwords, np.uint64)
    fire = np.empty(nwords, np.uint64)
    ref = np.empty(nwords, np.uint64)
    snap = np.empty(nwords, np.uint64)
    summ = np.empty((nwords + 63) >> 6, np.uint64)
    meta = np.empty((depth, 3), np.int64)
    chosen = np.empty(max(depth, 1), np.int32)
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
            mask,
            first_word,
            first_bit,
            opt_start,
            opt_item,
            guard,
            low,
            init_lanes,
            lanes,
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
        elif outcome == 2:
            counts[b] = 1  # the givens are a solution: one leaf node
            counters[0] = 1
        else:
            while True:
                want = limit - counters[2] if limit > 0 else 0
                status = search(
                    mask,
                    lane_opt,
                    own_word,
                    own_bits,
                    partner,
                    jshared,
                    pshared,
                    prange,
                    lw,
                    per_word,
                    guard,
                    low,
                    subset_depth,
                    candidates,
                    lanes,
                    saved,
                    meta,
                    chosen,
                    sing,
                    fire,
                    ref,
                    snap,
                    summ,
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
