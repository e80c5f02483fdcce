"""Memoized counting: Algorithm X that remembers each subproblem's count
and, when asked, its ZDD.

The idea is Nishino, Yasuda, Minato and Nagata's DXZ ("Dancing with
Decision Diagrams", AAAI 2017) and Knuth's DLX6: the ways to finish a
partial cover depend only on which items are still active (the active
options are exactly those whose items are all active), and the same set
of active items is reached along many paths.  So each search-tree node
looks its set up in a table first, and stores its count when its subtree
is done.  Building the ZDD of the solutions is the same search: each
entry also remembers its subproblem's ZDD node (``table_nodes``), and a
level's options fold into a chain of nodes as they finish (see ``count``
and ``make_node``).

With secondary items the search uses DLX6's verbs (``hide6`` ...): a
secondary item is in the key only while an active option uses it, and
with colors (DLX2's ``purify``) the key also holds, per such item, the
color it is purified to (``colors_key``; ``keyinfo`` says where).

With bounds (DLX3's multiplicities) the search is ``count3``, below:
the key then also holds, per bounded item still active, how many chosen
options cover it, and nodes are looked up only where no item is
part-way through its branching (see the comment above ``bounds_key``).

Arrays (besides DLX1's ``llink rlink ulink dlink top length``, used as in
``dlx.kernels.dlx1``, ``COVERED`` offset included):

* ``active``: int64[W], bit ``i`` set iff item ``i`` (primary or
  secondary; bit 0 and bit N+1 are the roots, never set) is active.
  ``cover``/``uncover`` here keep it in step with the item lists; it *is*
  the key of the current subproblem (a secondary item's bit only while
  an active option uses it; with colors, words of color fields follow).
* The table: ``table`` int64[cap, 1 + W + L], one row per slot holding
  ``work`` (search-tree nodes the entry stood for when it was stored; 0
  marks an empty slot), the key (a copy of ``active``) and the count; one
  row per slot keeps a lookup to one or two cache lines.  ``cap`` is a
  power of two, cut into buckets of ``BUCKET`` consecutive slots; a key
  lives in the bucket its hash names, in the first free slot.  Slots are
  never emptied, so a lookup stops at the first empty slot of its bucket.
  When a bucket is full, a new entry replaces the one that cost the
  fewest nodes (it is the cheapest to recompute): the table never fails,
  it forgets.  ``table_nodes`` int32[cap] (empty when no ZDD is built)
  holds each entry's ZDD node.
* Counts are exact whatever their size: a count is ``L`` limbs of ``shift``
  bits (``shift`` <= 62, so a sum of two limbs and a carry fits an int64),
  least significant first.  An addition that carries out of the top limb
  returns OVERFLOW, before any wrong value reaches the table; the driver
  then widens every count (the table's, ``acc``) and restarts.
* The stack, per level ``l``: ``choice[l]`` (option node tried),
  ``item[l]`` (the item branched on), ``acc[l]`` (limbs: solutions found
  so far in this node's subtree), ``born[l]`` (the node counter when the
  node was entered), ``hashes[l]`` (its key's hash).  The sum of ``acc``
  over the finished levels (``0..level``, or ``0..level-1`` when paused on
  entering ``level``) is the number of solutions in the part of the tree
  already explored: the partial count after a budget stops the search.

* The ZDD: nodes ``zvar zlo zhi`` (int32, 0 and 1 the sinks, ``made[0]``
  the next node's number), made only through the ``unique`` table (int32,
  open addressing, at most half full), so no two nodes are alike; the
  stack's ``chain[l]`` is level ``l``'s chain so far.

``state`` is ``(level, where, zres)`` as in ``dlx.kernels.dlx1.search``,
``zres`` the ZDD of the subtree just finished (0: none pending);
``counters`` is ``(nodes, updates, leaves)``; ``tstats`` is
``(used, lookups, hits, stores, replaced, saved)``; ``config`` is
``(rule, shift, can_grow, grow_at, min_cost, build, dlx6)`` (a subproblem
whose search took fewer than ``min_cost`` nodes is not stored; ``build``:
make the ZDD; ``dlx6``: DLX6's verbs); ``keyinfo`` is ``(W, nprimary,
cbits, lg)`` (see ``set_key``).  Nodes are counted like DLX1's: every node entered
to choose an item (a memo hit included: it is entered, then answered from
the table) and every leaf (a solution reached by the search itself).
"""

import numpy as np

from .jit import njit

U = np.uint64

COVERED = 1 << 30  # added to length[i] while item i is covered (as in links)
MRV_BLOCK = 16
BUCKET = 4  # slots per bucket

# Item choice rules (config[0]).
MRV = 0  # the first active primary item with the fewest options (DLX1)
FIRST = 1  # the first active primary item: sweeps the items in order

# Where the search resumes (state[1]).
FORWARD = 0
RECOVER = 1
DONE = 2

# What count() returns.
EXHAUSTED = 0  # the count is in acc[0]
OUT_OF_NODES = 2  # the node budget ran out; resumable
GROW = 3  # the table is past config[3] entries and may grow; resumable
OVERFLOW = 4  # a count needs more limbs; the search must restart
ROOM = 5  # the ZDD's arrays are full; resumable once they are larger

# tstats fields.
USED = 0
LOOKUPS = 1
HITS = 2
STORES = 3
REPLACED = 4
SAVED = 5  # nodes the hits stood for (the work stored with their entries)


@njit(cache=True)
def set_key(x, live, c, active, keyinfo):
    """Set (``live``) or clear item x's bit in the key and, with colors,
    write c (0: unpurified) into a secondary item's color field:
    ``keyinfo`` is ``(W, nprimary, cbits, lg)``, fields of ``cbits`` bits
    (a power of two), ``2**lg`` to a word, in the words after the ``W``
    words of bits.  No division: a kernel that may divide by zero checks
    for it and may raise, which slows every caller."""
    if live:
        active[x >> 6] |= np.int64(1) << (x & 63)
    else:
        active[x >> 6] &= ~(np.int64(1) << (x & 63))
    if keyinfo[2] != 0 and x > keyinfo[1]:
        j = x - keyinfo[1] - 1
        w = keyinfo[0] + (j >> keyinfo[3])
        shift = (j & ((np.int64(1) << keyinfo[3]) - 1)) * keyinfo[2]
        mask = ((np.int64(1) << keyinfo[2]) - 1) << shift
        field = np.int64(c) << shift if live else np.int64(0)
        active[w] = (active[w] & ~mask) | field


@njit(cache=True)
def hide(p, ulink, dlink, top, length):
    """Remove the other nodes of p's option from their items' lists."""
    updates = 0
    q = p + 1
    while q != p:
        x = top[U(q)]
        u = ulink[U(q)]
        if x <= 0:
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
    """Inverse of hide, walking leftward."""
    q = p - 1
    while q != p:
        x = top[U(q)]
        d = dlink[U(q)]
        if x <= 0:
            q = d
        else:
            u = ulink[U(q)]
            dlink[U(u)] = q
            ulink[U(d)] = q
            length[U(x)] += 1
            q -= 1


@njit(cache=True)
def cover(i, llink, rlink, ulink, dlink, top, length, active):
    """Knuth's cover, and clear item i's bit in the key."""
    left = llink[U(i)]
    right = rlink[U(i)]
    rlink[U(left)] = right
    llink[U(right)] = left
    length[U(i)] += COVERED
    active[i >> 6] &= ~(np.int64(1) << (i & 63))
    updates = 1
    p = dlink[U(i)]
    while p != i:
        updates += hide(p, ulink, dlink, top, length)
        p = dlink[U(p)]
    return updates


@njit(cache=True)
def uncover(i, llink, rlink, ulink, dlink, top, length, active):
    """Inverse of cover: unhide bottom-up, then relink i and set its bit."""
    p = ulink[U(i)]
    while p != i:
        unhide(p, ulink, dlink, top, length)
        p = ulink[U(p)]
    left = llink[U(i)]
    right = rlink[U(i)]
    rlink[U(left)] = i
    llink[U(right)] = i
    length[U(i)] -= COVERED
    active[i >> 6] |= np.int64(1) << (i & 63)


@njit(cache=True)
def cover_rest(p, llink, rlink, ulink, dlink, top, length, active):
    """Cover the items of p's option other than top[p]."""
    updates = 0
    q = p + 1
    while q != p:
        x = top[U(q)]
        if x <= 0:
            q = ulink[U(q)]
        else:
            updates += cover(
                x, llink, rlink, ulink, dlink, top, length, active
            )
            q += 1
    return updates


@njit(cache=True)
def uncover_rest(p, llink, rlink, ulink, dlink, top, length, active):
    """Inverse of cover_rest, leftward."""
    q = p - 1
    while q != p:
        x = top[U(q)]
        if x <= 0:
            q = dlink[U(q)]
        else:
            uncover(x, llink, rlink, ulink, dlink, top, length, active)
            q -= 1


# -- DLX6's verbs ---------------------------------------------------------------
# Problems with secondary items (colored or not) search with these: the
# key holds a secondary item only while an active option uses it (DLX6's
# signature: far more hits on such problems, and equal keys still mean
# equal sets of active options), and with colors each such item's color.
# The plain verbs above stay as they were, without the test this needs:
# they are the inner loop of every count without secondary items.
#
# Colors as in DLX2, but for one thing: hide unlinks a purified node
# (color -1) too, as it does any other, so that an item's length is the
# number of active options that use it.  Undoing in reverse order relinks
# such a node before unpurify walks the list to give it its color back.


@njit(cache=True)
def hide6(p, ulink, dlink, top, length, color, active, keyinfo):
    """hide, and a secondary item whose length drops to 0 leaves the key:
    no active option uses it (its color field, if any, is rewritten by
    ``colors_key``)."""
    updates = 0
    q = p + 1
    while q != p:
        x = top[U(q)]
        u = ulink[U(q)]
        if x <= 0:
            q = u
        else:
            d = dlink[U(q)]
            dlink[U(u)] = d
            ulink[U(d)] = u
            length[U(x)] -= 1
            if length[U(x)] == 0 and x > keyinfo[1]:
                active[x >> 6] &= ~(np.int64(1) << (x & 63))
            updates += 1
            q += 1
    return updates


@njit(cache=True)
def unhide6(p, ulink, dlink, top, length, color, active, keyinfo):
    """Inverse of hide6, walking leftward."""
    q = p - 1
    while q != p:
        x = top[U(q)]
        d = dlink[U(q)]
        if x <= 0:
            q = d
        else:
            u = ulink[U(q)]
            dlink[U(u)] = q
            ulink[U(d)] = q
            length[U(x)] += 1
            if length[U(x)] == 1 and x > keyinfo[1]:
                active[x >> 6] |= np.int64(1) << (x & 63)
            q -= 1


@njit(cache=True)
def cover6(i, llink, rlink, ulink, dlink, top, length, color, active, keyinfo):
    """cover, with hide6."""
    left = llink[U(i)]
    right = rlink[U(i)]
    rlink[U(left)] = right
    llink[U(right)] = left
    length[U(i)] += COVERED
    active[i >> 6] &= ~(np.int64(1) << (i & 63))  # its color field is 0
    updates = 1
    p = dlink[U(i)]
    while p != i:
        updates += hide6(p, ulink, dlink, top, length, color, active, keyinfo)
        p = dlink[U(p)]
    return updates


@njit(cache=True)
def uncover6(
    i, llink, rlink, ulink, dlink, top, length, color, active, keyinfo
):
    """Inverse of cover6: a secondary item's bit comes back only while an
    active option uses it (and its color field is 0: it was not
    purified)."""
    p = ulink[U(i)]
    while p != i:
        unhide6(p, ulink, dlink, top, length, color, active, keyinfo)
        p = ulink[U(p)]
    left = llink[U(i)]
    right = rlink[U(i)]
    rlink[U(left)] = i
    llink[U(right)] = i
    length[U(i)] -= COVERED
    if i <= keyinfo[1] or length[U(i)] > 0:
        active[i >> 6] |= np.int64(1) << (i & 63)


@njit(cache=True)
def purify6(p, ulink, dlink, top, length, color, active, keyinfo):
    """DLX2's purify (``dlx.kernels.dlx2.purify``, copied: kernel files
    never call each other) with hide6: the options of p's item that want
    another color (or none) are hidden and no longer counted in its
    length, the agreeing nodes are marked -1, and the item's color
    (``colors_key`` puts it in the key).  Invariant: p's own option is hidden (its item was
    covered), so p is not in the list."""
    x = top[U(p)]
    c = color[U(p)]
    color[U(x)] = c
    updates = 0
    r = dlink[U(x)]
    while r != x:
        if color[U(r)] != c:
            updates += hide6(
                r, ulink, dlink, top, length, color, active, keyinfo
            )
            length[U(x)] -= 1
        else:
            color[U(r)] = -1
        r = dlink[U(r)]
    if length[U(x)] == 0:  # no option left wants it: out of the key
        active[x >> 6] &= ~(np.int64(1) << (x & 63))
    return updates


@njit(cache=True)
def unpurify6(p, ulink, dlink, top, length, color, active, keyinfo):
    """Inverse of purify6, bottom-up."""
    x = top[U(p)]
    c = color[U(p)]
    r = ulink[U(x)]
    while r != x:
        if color[U(r)] < 0:
            color[U(r)] = c
        else:
            unhide6(r, ulink, dlink, top, length, color, active, keyinfo)
            length[U(x)] += 1
        r = ulink[U(r)]
    color[U(x)] = 0
    if length[U(x)] > 0:
        active[x >> 6] |= np.int64(1) << (x & 63)


@njit(cache=True)
def cover_rest6(
    p, llink, rlink, ulink, dlink, top, length, color, active, keyinfo
):
    """cover_rest with DLX6's verbs: with colors (as DLX2's C5) purify the
    option's colored items instead, and leave alone those already purified
    with the same color (color -1)."""
    colored = keyinfo[2]
    updates = 0
    q = p + 1
    while q != p:
        x = top[U(q)]
        if x <= 0:
            q = ulink[U(q)]
            continue
        c = 0 if colored == 0 else color[U(q)]
        if c == 0:
            updates += cover6(
                x,
                llink,
                rlink,
                ulink,
                dlink,
                top,
                length,
                color,
                active,
                keyinfo,
            )
        elif c > 0:
            if color[U(x)] == c:
                # Already purified with c: a node outside the lists (an
                # option with no primary item) agrees, as purify marks.
                color[U(q)] = -1
            else:
                updates += purify6(
                    q, ulink, dlink, top, length, color, active, keyinfo
                )
        q += 1
    return updates


@njit(cache=True)
def uncover_rest6(
    p, llink, rlink, ulink, dlink, top, length, color, active, keyinfo
):
    """Inverse of cover_rest6, leftward."""
    colored = keyinfo[2]
    q = p - 1
    while q != p:
        x = top[U(q)]
        if x <= 0:
            q = dlink[U(q)]
            continue
        c = 0 if colored == 0 else color[U(q)]
        if c == 0:
            uncover6(
                x,
                llink,
                rlink,
                ulink,
                dlink,
                top,
                length,
                color,
                active,
                keyinfo,
            )
        elif c > 0:
            unpurify6(q, ulink, dlink, top, length, color, active, keyinfo)
        q -= 1


@njit(cache=True)
def choose_mrv(llink, rlink, length):
    """The first active primary item with the fewest options (DLX1's
    choice), by the block scan of ``dlx.kernels.dlx1.choose_item``: the
    active list is in item order and covered items carry COVERED."""
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
            if least == 0:
                break
        block = end
    k = best_block
    while length[U(k)] > fewest:
        k += 1
    return k


@njit(cache=True)
def init_active(llink, rlink, length, color, active, keyinfo):
    """The key of the arrays as they are: the bits of the items on the two
    active lists (primary around root 0, secondary around root N+1 =
    len(llink) - 1; a secondary item only while an active option uses
    it) and, with colors, each such secondary item's color (``color[x]``,
    0 unless purified); every other bit clear."""
    active[:] = 0
    for root in (0, llink.shape[0] - 1):
        i = rlink[root]
        while i != root:
            if root == 0 or length[U(i)] > 0:
                set_key(
                    i,
                    True,
                    color[U(i)] if keyinfo[2] != 0 else 0,
                    active,
                    keyinfo,
                )
            i = rlink[U(i)]


@njit(cache=True)
def colors_key(llink, rlink, length, color, active, keyinfo):
    """Write the key's color fields from scratch: each secondary item on
    the active list that an active option uses (length > 0) and that is
    purified (``color[x] > 0``) gets its color, every other field 0.  With
    colors, the search calls it before it hashes a key and before it
    stores one (the hide loops do not keep the fields: a call there slows
    them all)."""
    for w in range(keyinfo[0], active.shape[0]):
        active[w] = 0
    root = llink.shape[0] - 1
    x = rlink[root]
    while x != root:
        if length[U(x)] > 0 and color[U(x)] > 0:
            set_key(x, True, color[U(x)], active, keyinfo)
        x = rlink[U(x)]


@njit(cache=True)
def key_hash(key, start, nwords):
    """A 64-bit hash of ``key[start:start + nwords]``."""
    h = U(0x9E3779B97F4A7C15)
    for w in range(start, start + nwords):
        h = (h ^ U(key[w])) * U(0xBF58476D1CE4E5B9)
        h ^= h >> U(29)
    h *= U(0x94D049BB133111EB)
    h ^= h >> U(32)
    return h


@njit(cache=True)
def lookup(table, key, h):
    """The slot holding ``key``, or -1."""
    nbuckets = table.shape[0] // BUCKET
    first = np.int64(h & U(nbuckets - 1)) * BUCKET
    nwords = key.shape[0]
    for s in range(first, first + BUCKET):
        if table[s, 0] == 0:
            return -1  # slots fill in order and are never emptied
        same = True
        for w in range(nwords):
            if table[s, 1 + w] != key[w]:
                same = False
                break
        if same:
            return s
    return -1


@njit(cache=True)
def free_slot(table, h):
    """Where a new key with hash ``h`` goes: the first empty slot of its
    bucket, else the slot of the bucket whose entry cost the fewest nodes."""
    nbuckets = table.shape[0] // BUCKET
    first = np.int64(h & U(nbuckets - 1)) * BUCKET
    victim = first
    for s in range(first, first + BUCKET):
        if table[s, 0] == 0:
            return s
        if table[s, 0] < table[victim, 0]:
            victim = s
    return victim


@njit(cache=True)
def store(table, key, h, src, row, cost, tstats):
    """Put ``key`` -> ``src[row]`` (limbs) in the table; the key is known
    to be absent.  Returns its slot."""
    s = free_slot(table, h)
    if table[s, 0] == 0:
        tstats[USED] += 1
    else:
        tstats[REPLACED] += 1
    tstats[STORES] += 1
    table[s, 0] = cost
    nwords = key.shape[0]
    for w in range(nwords):
        table[s, 1 + w] = key[w]
    for k in range(src.shape[1]):
        table[s, 1 + nwords + k] = src[row, k]
    return s


@njit(cache=True)
def rehash(table, new_table, nwords, tstats, nodes, new_nodes):
    """Move every entry into a new table, larger or with wider counts (the
    new limbs are zero), and its ZDD node from ``nodes`` to ``new_nodes``
    when a ZDD is built (they are empty otherwise)."""
    tstats[USED] = 0
    new_table[:, :] = 0
    width = min(table.shape[1], new_table.shape[1])
    for s in range(table.shape[0]):
        if table[s, 0] != 0:
            t = free_slot(new_table, key_hash(table[s], 1, nwords))
            if new_table[t, 0] == 0:
                tstats[USED] += 1
            for k in range(width):
                new_table[t, k] = table[s, k]
            if nodes.shape[0] != 0:
                new_nodes[t] = nodes[s]


@njit(cache=True)
def add_limbs(dst, i, src, j, offset, shift, mask):
    """dst[i] += src[j, offset:] (limbs); returns the carry out of the top
    limb."""
    carry = np.int64(0)
    for k in range(dst.shape[1]):
        s = dst[i, k] + src[j, offset + k] + carry
        dst[i, k] = s & mask
        carry = s >> shift
    return carry


@njit(cache=True)
def add_one(dst, i, shift, mask):
    """dst[i] += 1 (limbs); returns the carry out of the top limb."""
    for k in range(dst.shape[1]):
        s = dst[i, k] + 1
        if s <= mask:
            dst[i, k] = s
            return 0
        dst[i, k] = 0
    return 1


# -- the ZDD's nodes ------------------------------------------------------------
@njit(cache=True)
def node_hash(var, lo, hi):
    """A 64-bit hash of a ZDD node's three fields."""
    h = (U(var) * U(0x9E3779B97F4A7C15)) ^ U(lo)
    h = (h * U(0xBF58476D1CE4E5B9)) ^ U(hi)
    h *= U(0x94D049BB133111EB)
    h ^= h >> U(31)
    return h


@njit(cache=True)
def make_node(var, lo, hi, zvar, zlo, zhi, unique, made):
    """The node ``(var ? hi : lo)``: the one already made if any (the
    unique table, open addressing with linear probing, 0 marking an empty
    slot as node ids start at 2), else a new one numbered ``made[0]``.
    There must be room for one more node (see ROOM)."""
    mask = unique.shape[0] - 1
    s = np.int64(node_hash(var, lo, hi) & U(mask))
    while True:
        n = unique[s]
        if n == 0:
            break
        if zvar[n] == var and zlo[n] == lo and zhi[n] == hi:
            return n
        s = (s + 1) & mask
    n = made[0]
    made[0] = n + 1
    zvar[n] = var
    zlo[n] = lo
    zhi[n] = hi
    unique[s] = n
    return n


@njit(cache=True)
def unique_rehash(zvar, zlo, zhi, made, unique):
    """Fill an empty unique table (a larger one) with nodes 2..made-1."""
    mask = unique.shape[0] - 1
    for n in range(2, made):
        s = np.int64(node_hash(zvar[n], zlo[n], zhi[n]) & U(mask))
        while unique[s] != 0:
            s = (s + 1) & mask
        unique[s] = n


@njit(cache=True)
def count(
    llink,
    rlink,
    ulink,
    dlink,
    top,
    length,
    color,
    active,
    choice,
    item,
    acc,
    born,
    hashes,
    state,
    table,
    tstats,
    config,
    keyinfo,
    max_nodes,
    counters,
    option_of,
    chain,
    table_nodes,
    zvar,
    zlo,
    zhi,
    unique,
    made,
):
    """Algorithm X with a memo, counting, and building the ZDD of the
    solutions when ``config[5]`` is 1; iterative and resumable.

    Returns EXHAUSTED (the count is ``acc[0]``, the ZDD's root
    ``chain[0]``), OUT_OF_NODES (when ``counters[0]`` reaches
    ``max_nodes`` before a new node), GROW (when ``config[2]`` allows
    growth and the table holds ``config[3]`` entries; resume after moving
    the table), OVERFLOW (restart with wider counts) or ROOM (the ZDD's
    arrays are full; resume after making them larger).  The root list
    must hold a primary item on the first call.
    """
    rule = config[0]
    shift = config[1]
    mask = (np.int64(1) << shift) - 1
    can_grow = config[2]
    grow_at = config[3]
    min_cost = config[4]
    build = config[5]
    dlx6 = config[6]
    colored = keyinfo[2]
    nwords = active.shape[0]
    level = state[0]
    where = state[1]
    zres = state[2]
    nodes = counters[0]
    updates = counters[1]
    leaves = counters[2]
    status = EXHAUSTED
    best = 0
    p = 0
    if where == DONE:
        return EXHAUSTED
    while True:
        if where == FORWARD:
            if nodes >= max_nodes:
                status = OUT_OF_NODES
                break
            if can_grow != 0 and tstats[USED] >= grow_at:
                status = GROW
                break
            nodes += 1
            if colored != 0:
                colors_key(llink, rlink, length, color, active, keyinfo)
            h = U(key_hash(active, 0, nwords))
            tstats[LOOKUPS] += 1
            s = lookup(table, active, h)
            if s >= 0:
                # A subproblem seen before: its count (and its ZDD) goes
                # to the parent.
                tstats[HITS] += 1
                tstats[SAVED] += table[s, 0]
                if level == 0:
                    for k in range(acc.shape[1]):
                        acc[0, k] = table[s, 1 + nwords + k]
                    if build != 0:
                        chain[0] = table_nodes[s]
                    where = DONE
                    break
                level -= 1
                if (
                    add_limbs(acc, level, table, s, 1 + nwords, shift, mask)
                    != 0
                ):
                    status = OVERFLOW
                    break
                if build != 0:
                    zres = table_nodes[s]
                where = RECOVER
                continue
            hashes[level] = h
            born[level] = nodes
            if rule == FIRST:
                best = rlink[0]
            else:
                best = choose_mrv(llink, rlink, length)
            if dlx6 != 0:
                updates += cover6(
                    best,
                    llink,
                    rlink,
                    ulink,
                    dlink,
                    top,
                    length,
                    color,
                    active,
                    keyinfo,
                )
            else:
                updates += cover(
                    best, llink, rlink, ulink, dlink, top, length, active
                )
            item[level] = best
            for k in range(acc.shape[1]):
                acc[level, k] = 0
            chain[level] = 0
            p = dlink[U(best)]
        else:
            # The option tried at this level is done, its subtree's ZDD is
            # zres: the level's chain of nodes grows by one, (option ?
            # zres : chain so far), unless zres is the empty family.
            if zres != 0:
                if made[0] >= zvar.shape[0] or 2 * made[0] >= unique.shape[0]:
                    status = ROOM
                    break
                chain[level] = make_node(
                    option_of[U(choice[level])],
                    chain[level],
                    zres,
                    zvar,
                    zlo,
                    zhi,
                    unique,
                    made,
                )
                zres = 0
            # Undo the option tried at this level; on to the next one.
            best = item[level]
            p = choice[level]
            if dlx6 != 0:
                uncover_rest6(
                    p,
                    llink,
                    rlink,
                    ulink,
                    dlink,
                    top,
                    length,
                    color,
                    active,
                    keyinfo,
                )
            else:
                uncover_rest(
                    p, llink, rlink, ulink, dlink, top, length, active
                )
            p = dlink[U(p)]
        if p == best:
            # Every option of this level's item is done: the key is this
            # node's again once the item is back, acc[level] its count and
            # chain[level] its ZDD.
            if dlx6 != 0:
                uncover6(
                    best,
                    llink,
                    rlink,
                    ulink,
                    dlink,
                    top,
                    length,
                    color,
                    active,
                    keyinfo,
                )
            else:
                uncover(best, llink, rlink, ulink, dlink, top, length, active)
            cost = nodes - born[level] + 1
            if cost >= min_cost:
                if colored != 0:
                    colors_key(llink, rlink, length, color, active, keyinfo)
                s = store(
                    table, active, hashes[level], acc, level, cost, tstats
                )
                if build != 0:
                    table_nodes[s] = chain[level]
            if level == 0:
                where = DONE
                break
            if add_limbs(acc, level - 1, acc, level, 0, shift, mask) != 0:
                status = OVERFLOW
                break
            if build != 0:
                zres = chain[level]
            level -= 1
            where = RECOVER
            continue
        choice[level] = p
        if dlx6 != 0:
            updates += cover_rest6(
                p,
                llink,
                rlink,
                ulink,
                dlink,
                top,
                length,
                color,
                active,
                keyinfo,
            )
        else:
            updates += cover_rest(
                p, llink, rlink, ulink, dlink, top, length, active
            )
        if rlink[0] == 0:
            # Every primary item is covered: a leaf, one solution.
            nodes += 1
            leaves += 1
            if add_one(acc, level, shift, mask) != 0:
                status = OVERFLOW
                break
            if build != 0:
                zres = 1
            where = RECOVER
        else:
            level += 1
            where = FORWARD
    state[0] = level
    state[1] = where
    state[2] = zres
    counters[0] = nodes
    counters[1] = updates
    counters[2] = leaves
    return status


# -- multiplicities (MCC, DLX3's input) -----------------------------------------
# With bounds u..v on primary items, the search branches on a bounded item
# i one option at a time, in the order of i's list: take the first
# undecided option p (``tweak`` it, as DLX3 does, then commit its other
# items), or skip it (it stays tweaked while the level goes on), never
# going back to an earlier one; the last branch (``finish6``) takes no
# more options of i.  An item whose capacity is used up is finished too.
# A node is looked up and stored only where no item is part-way through
# its branching (``lvl[l, CONT]`` is 0): there the active options are
# exactly those whose items are all active (an option leaves only when
# one of its items is finished or covered), so the key is the active
# items (DLX6's, colors included) and, per bounded item still active, how
# many options already cover it (``used``; ``bounds_key``).  While i's
# branching goes on, its tweaked options stay in its own list (so that
# untweaking needs no record) and ``length[i]`` counts only the undecided
# ones.
#
# The ZDD of a bounded item's level: with its take-branches p1, p2, ...
# (p_j taken, p1..p_{j-1} skipped) and the last branch's Z_stop, it is
# (p1 ? Z1 : (p2 ? Z2 : ... (p_k ? Z_k : Z_stop))): each ``lo`` side skips
# its option, so no path meets an option twice.  The Z_j wait on a stack
# (``pvar``, ``pz``, its top ``state[3]``) until the level ends; an option
# is on it at most once (a skipped option is hidden from every other
# list), so it holds at most one entry per option.

CONT = 0  # lvl[l, CONT]: 1 while level l goes on with its parent's item
PHASE = 1  # lvl[l, PHASE]: TAKE or STOP, the branch level l is in
AFTER = 2  # lvl[l, AFTER]: the node after which level l's options begin
PBASE = 3  # lvl[l, PBASE]: the ZDD stack's top when level l began
TAKE = 0
STOP = 1
ENDING = 3  # state[1]: a bounded level's end, resumed after ROOM


@njit(cache=True)
def bounds_key(used, bitems, active, keyinfo):
    """Write the key's bound fields from scratch (after ``colors_key``,
    which clears every word past the bits): field ``k`` holds how many
    chosen options cover bounded item ``bitems[k]`` while it is active, 0
    once it is not.  ``keyinfo[4:7]`` is ``(first word, bits a field, lg
    fields a word)``."""
    start = keyinfo[4]
    ubits = keyinfo[5]
    ulg = keyinfo[6]
    for w in range(start, active.shape[0]):
        active[w] = 0
    for k in range(bitems.shape[0]):
        x = bitems[k]
        if (active[x >> 6] >> (x & 63)) & 1:
            w = start + (k >> ulg)
            sh = (k & ((np.int64(1) << ulg) - 1)) * ubits
            active[w] |= np.int64(used[x]) << sh


@njit(cache=True)
def finish6(
    i, after, llink, rlink, ulink, dlink, top, length, color, active, keyinfo
):
    """Take bounded item i off the active list and hide its options that
    follow node ``after`` in its list (the undecided ones): cover6 from
    a point of the list."""
    left = llink[U(i)]
    right = rlink[U(i)]
    rlink[U(left)] = right
    llink[U(right)] = left
    length[U(i)] += COVERED
    active[i >> 6] &= ~(np.int64(1) << (i & 63))
    updates = 1
    p = dlink[U(after)]
    while p != i:
        updates += hide6(p, ulink, dlink, top, length, color, active, keyinfo)
        p = dlink[U(p)]
    return updates


@njit(cache=True)
def unfinish6(
    i, after, llink, rlink, ulink, dlink, top, length, color, active, keyinfo
):
    """Inverse of finish6, bottom-up."""
    p = ulink[U(i)]
    while p != after:
        unhide6(p, ulink, dlink, top, length, color, active, keyinfo)
        p = ulink[U(p)]
    left = llink[U(i)]
    right = rlink[U(i)]
    rlink[U(left)] = i
    llink[U(right)] = i
    length[U(i)] -= COVERED
    active[i >> 6] |= np.int64(1) << (i & 63)


@njit(cache=True)
def use_item(
    q,
    llink,
    rlink,
    ulink,
    dlink,
    top,
    length,
    color,
    active,
    keyinfo,
    lo,
    hi,
    used,
):
    """A chosen option's node q (its option already out of every other
    list): cover its item, or count one more use of a bounded item and
    cover it at its capacity; a colored secondary item is purified as in
    ``cover_rest6``."""
    x = top[U(q)]
    if x <= keyinfo[1]:
        if lo[x] != 1 or hi[x] != 1:
            used[x] += 1
            if used[x] < hi[x]:
                return 0
        return cover6(
            x, llink, rlink, ulink, dlink, top, length, color, active, keyinfo
        )
    c = 0 if keyinfo[2] == 0 else color[U(q)]
    if c == 0:
        return cover6(
            x, llink, rlink, ulink, dlink, top, length, color, active, keyinfo
        )
    if c > 0:
        if color[U(x)] == c:
            color[U(q)] = -1
            return 0
        return purify6(q, ulink, dlink, top, length, color, active, keyinfo)
    return 0


@njit(cache=True)
def release_item(
    q,
    llink,
    rlink,
    ulink,
    dlink,
    top,
    length,
    color,
    active,
    keyinfo,
    lo,
    hi,
    used,
):
    """Inverse of use_item."""
    x = top[U(q)]
    if x <= keyinfo[1]:
        if lo[x] != 1 or hi[x] != 1:
            if used[x] >= hi[x]:
                uncover6(
                    x,
                    llink,
                    rlink,
                    ulink,
                    dlink,
                    top,
                    length,
                    color,
                    active,
                    keyinfo,
                )
            used[x] -= 1
            return
        uncover6(
            x, llink, rlink, ulink, dlink, top, length, color, active, keyinfo
        )
        return
    c = 0 if keyinfo[2] == 0 else color[U(q)]
    if c == 0:
        uncover6(
            x, llink, rlink, ulink, dlink, top, length, color, active, keyinfo
        )
    elif c > 0:
        unpurify6(q, ulink, dlink, top, length, color, active, keyinfo)


@njit(cache=True)
def commit3(
    p,
    llink,
    rlink,
    ulink,
    dlink,
    top,
    length,
    color,
    active,
    keyinfo,
    lo,
    hi,
    used,
):
    """use_item on the nodes of p's option other than p, rightward."""
    updates = 0
    q = p + 1
    while q != p:
        if top[U(q)] <= 0:
            q = ulink[U(q)]
            continue
        updates += use_item(
            q,
            llink,
            rlink,
            ulink,
            dlink,
            top,
            length,
            color,
            active,
            keyinfo,
            lo,
            hi,
            used,
        )
        q += 1
    return updates


@njit(cache=True)
def uncommit3(
    p,
    llink,
    rlink,
    ulink,
    dlink,
    top,
    length,
    color,
    active,
    keyinfo,
    lo,
    hi,
    used,
):
    """Inverse of commit3, leftward."""
    q = p - 1
    while q != p:
        if top[U(q)] <= 0:
            q = dlink[U(q)]
            continue
        release_item(
            q,
            llink,
            rlink,
            ulink,
            dlink,
            top,
            length,
            color,
            active,
            keyinfo,
            lo,
            hi,
            used,
        )
        q -= 1


@njit(cache=True)
def give3(
    p,
    llink,
    rlink,
    ulink,
    dlink,
    top,
    length,
    color,
    active,
    keyinfo,
    lo,
    hi,
    used,
):
    """Choose the given option whose first node is p before the search,
    as DLX3's ``commit_option`` does: its updates, or -1 (changing
    nothing) when it does not fit the givens before it (an item no
    longer active, a secondary item purified with another color).  The
    caller sets the key afterwards (``init_active``)."""
    q = p
    while top[U(q)] > 0:
        x = top[U(q)]
        c = 0 if keyinfo[2] == 0 else color[U(q)]
        if c >= 0:
            free = rlink[llink[U(x)]] == x and (
                keyinfo[2] == 0 or color[U(x)] == 0
            )
            if not (free or (x > keyinfo[1] and c > 0 and color[U(x)] == c)):
                return -1
        q += 1
    # Out of every list (an option without a primary item is in none),
    # then each of its items used.
    updates = 0
    q = p
    while top[U(q)] > 0:
        if dlink[U(q)] != q:
            u = ulink[U(q)]
            d = dlink[U(q)]
            dlink[U(u)] = d
            ulink[U(d)] = u
            length[U(top[U(q)])] -= 1
            updates += 1
        q += 1
    q = p
    while top[U(q)] > 0:
        updates += use_item(
            q,
            llink,
            rlink,
            ulink,
            dlink,
            top,
            length,
            color,
            active,
            keyinfo,
            lo,
            hi,
            used,
        )
        q += 1
    return updates


@njit(cache=True)
def choose3(rule, rlink, length, lo, used):
    """The item to branch on: the first active primary item (FIRST), or
    the one with the fewest branches, DLX3's ``length + 1 - need`` (DLX1's
    MRV for an item of bounds 1..1; at most 0: no way to cover it)."""
    i = rlink[0]
    if rule == FIRST:
        return i
    best = i
    fewest = np.int64(0x7FFFFFFF)
    while i != 0:
        need = lo[i] - used[i]
        if need < 0:
            need = 0
        theta = np.int64(length[U(i)]) + 1 - need
        if theta < fewest:
            fewest = theta
            best = i
            if theta <= 0:
                break
        i = rlink[U(i)]
    return best


G_TRY0 = 0  # count3's steps: the next option of an item of bounds 1..1,
G_TRY3 = 1  # the next branch of a bounded item,
G_END3 = 2  # a bounded item's level is over,
G_DONE = 3  # a level's count (and ZDD) is complete,
G_NEXT = 4  # the loop goes on (where says how).


@njit(cache=True)
def count3(
    llink,
    rlink,
    ulink,
    dlink,
    top,
    length,
    color,
    active,
    choice,
    item,
    acc,
    born,
    hashes,
    state,
    table,
    tstats,
    config,
    keyinfo,
    max_nodes,
    counters,
    option_of,
    chain,
    table_nodes,
    zvar,
    zlo,
    zhi,
    unique,
    made,
    lo,
    hi,
    used,
    bitems,
    lvl,
    pvar,
    pz,
):
    """``count`` for a problem with bounds (see the comment above
    ``bounds_key``): the same arguments and statuses, DLX6's verbs always,
    then ``lo hi used`` (per item; bounds 1..1 for an unbounded primary
    item), ``bitems`` (the bounded items, in key order), ``lvl`` (int64
    [depth, 4], see CONT ...), and the ZDD's stack ``pvar pz``; ``state``
    is ``(level, where, zres, ptop)``, ``where`` also ENDING."""
    rule = config[0]
    shift = config[1]
    mask = (np.int64(1) << shift) - 1
    can_grow = config[2]
    grow_at = config[3]
    min_cost = config[4]
    build = config[5]
    colored = keyinfo[2]
    nwords = active.shape[0]
    level = state[0]
    where = state[1]
    zres = state[2]
    ptop = state[3]
    nodes = counters[0]
    updates = counters[1]
    leaves = counters[2]
    status = EXHAUSTED
    p = 0
    i = 0
    go = G_NEXT
    if where == DONE:
        return EXHAUSTED
    while True:
        if where == FORWARD:
            if nodes >= max_nodes:
                status = OUT_OF_NODES
                break
            if can_grow != 0 and tstats[USED] >= grow_at:
                status = GROW
                break
            nodes += 1
            born[level] = nodes
            for k in range(acc.shape[1]):
                acc[level, k] = 0
            chain[level] = 0
            lvl[level, PBASE] = ptop
            if lvl[level, CONT] != 0:
                # Item[level]'s branching goes on after the parent's option.
                i = item[level]
                p = dlink[U(lvl[level, AFTER])]
                go = G_TRY3
            else:
                if colored != 0:
                    colors_key(llink, rlink, length, color, active, keyinfo)
                bounds_key(used, bitems, active, keyinfo)
                h = U(key_hash(active, 0, nwords))
                tstats[LOOKUPS] += 1
                s = lookup(table, active, h)
                if s >= 0:
                    tstats[HITS] += 1
                    tstats[SAVED] += table[s, 0]
                    if level == 0:
                        for k in range(acc.shape[1]):
                            acc[0, k] = table[s, 1 + nwords + k]
                        if build != 0:
                            chain[0] = table_nodes[s]
                        where = DONE
                        break
                    level -= 1
                    if (
                        add_limbs(
                            acc, level, table, s, 1 + nwords, shift, mask
                        )
                        != 0
                    ):
                        status = OVERFLOW
                        break
                    if build != 0:
                        zres = table_nodes[s]
                    where = RECOVER
                    continue
                hashes[level] = h
                i = choose3(rule, rlink, length, lo, used)
                item[level] = i
                if lo[i] == 1 and hi[i] == 1:
                    updates += cover6(
                        i,
                        llink,
                        rlink,
                        ulink,
                        dlink,
                        top,
                        length,
                        color,
                        active,
                        keyinfo,
                    )
                    p = dlink[U(i)]
                    go = G_TRY0
                else:
                    lvl[level, AFTER] = i
                    p = dlink[U(i)]
                    go = G_TRY3
        elif where == RECOVER:
            i = item[level]
            if lo[i] == 1 and hi[i] == 1:
                if zres != 0:
                    if (
                        made[0] >= zvar.shape[0]
                        or 2 * made[0] >= unique.shape[0]
                    ):
                        status = ROOM
                        break
                    chain[level] = make_node(
                        option_of[U(choice[level])],
                        chain[level],
                        zres,
                        zvar,
                        zlo,
                        zhi,
                        unique,
                        made,
                    )
                    zres = 0
                p = choice[level]
                uncommit3(
                    p,
                    llink,
                    rlink,
                    ulink,
                    dlink,
                    top,
                    length,
                    color,
                    active,
                    keyinfo,
                    lo,
                    hi,
                    used,
                )
                p = dlink[U(p)]
                go = G_TRY0
            elif lvl[level, PHASE] == STOP:
                # zres (Z_stop) stays for the level's end.
                p = choice[level]
                unfinish6(
                    i,
                    p,
                    llink,
                    rlink,
                    ulink,
                    dlink,
                    top,
                    length,
                    color,
                    active,
                    keyinfo,
                )
                p = dlink[U(p)]
                go = G_END3
            else:
                p = choice[level]
                if used[i] >= hi[i]:
                    unfinish6(
                        i,
                        p,
                        llink,
                        rlink,
                        ulink,
                        dlink,
                        top,
                        length,
                        color,
                        active,
                        keyinfo,
                    )
                uncommit3(
                    p,
                    llink,
                    rlink,
                    ulink,
                    dlink,
                    top,
                    length,
                    color,
                    active,
                    keyinfo,
                    lo,
                    hi,
                    used,
                )
                used[i] -= 1
                if build != 0 and zres != 0:
                    pvar[ptop] = option_of[U(p)]
                    pz[ptop] = zres
                    ptop += 1
                zres = 0
                # p stays tweaked: skipped from here on.
                p = dlink[U(p)]
                go = G_TRY3
        else:  # ENDING: a level's end, after the ZDD's arrays grew
            i = item[level]
            p = choice[level]
            go = G_END3

        if go == G_TRY3:
            if used[i] + length[U(i)] < lo[i]:
                go = G_END3  # too few options left to reach u
            elif p == i or used[i] >= hi[i]:
                # The last branch: no more options of i.
                after = ulink[U(p)]
                lvl[level, PHASE] = STOP
                choice[level] = after
                updates += finish6(
                    i,
                    after,
                    llink,
                    rlink,
                    ulink,
                    dlink,
                    top,
                    length,
                    color,
                    active,
                    keyinfo,
                )
                go = G_NEXT
            else:
                lvl[level, PHASE] = TAKE
                choice[level] = p
                updates += hide6(
                    p, ulink, dlink, top, length, color, active, keyinfo
                )
                length[U(i)] -= 1
                used[i] += 1
                updates += commit3(
                    p,
                    llink,
                    rlink,
                    ulink,
                    dlink,
                    top,
                    length,
                    color,
                    active,
                    keyinfo,
                    lo,
                    hi,
                    used,
                )
                if used[i] >= hi[i]:
                    updates += finish6(
                        i,
                        p,
                        llink,
                        rlink,
                        ulink,
                        dlink,
                        top,
                        length,
                        color,
                        active,
                        keyinfo,
                    )
                    go = G_NEXT
                else:
                    level += 1
                    lvl[level, CONT] = 1
                    lvl[level, AFTER] = p
                    item[level] = i
                    where = FORWARD
                    continue
            if go == G_NEXT:
                # i is finished: a leaf, or a node looked up.
                if rlink[0] == 0:
                    nodes += 1
                    leaves += 1
                    if add_one(acc, level, shift, mask) != 0:
                        status = OVERFLOW
                        break
                    if build != 0:
                        zres = 1
                    where = RECOVER
                else:
                    level += 1
                    lvl[level, CONT] = 0
                    where = FORWARD
                continue
        if go == G_END3:
            choice[level] = p
            if build != 0:
                base = lvl[level, PBASE]
                if ptop > base:
                    if (
                        made[0] + ptop - base > zvar.shape[0]
                        or 2 * (made[0] + ptop - base) >= unique.shape[0]
                    ):
                        status = ROOM
                        where = ENDING
                        break
                    while ptop > base:
                        ptop -= 1
                        zres = make_node(
                            pvar[ptop],
                            zres,
                            pz[ptop],
                            zvar,
                            zlo,
                            zhi,
                            unique,
                            made,
                        )
                chain[level] = zres
                zres = 0
            # Untweak the options decided here, bottom-up.
            a = lvl[level, AFTER]
            r = ulink[U(p)]
            while r != a:
                unhide6(r, ulink, dlink, top, length, color, active, keyinfo)
                length[U(i)] += 1
                r = ulink[U(r)]
            go = G_DONE
        elif go == G_TRY0:
            if p == i:
                uncover6(
                    i,
                    llink,
                    rlink,
                    ulink,
                    dlink,
                    top,
                    length,
                    color,
                    active,
                    keyinfo,
                )
                go = G_DONE
            else:
                choice[level] = p
                updates += commit3(
                    p,
                    llink,
                    rlink,
                    ulink,
                    dlink,
                    top,
                    length,
                    color,
                    active,
                    keyinfo,
                    lo,
                    hi,
                    used,
                )
                if rlink[0] == 0:
                    nodes += 1
                    leaves += 1
                    if add_one(acc, level, shift, mask) != 0:
                        status = OVERFLOW
                        break
                    if build != 0:
                        zres = 1
                    where = RECOVER
                else:
                    level += 1
                    lvl[level, CONT] = 0
                    where = FORWARD
                continue
        # go == G_DONE: acc[level] is the level's count, chain[level] its ZDD.
        if lvl[level, CONT] == 0:
            cost = nodes - born[level] + 1
            if cost >= min_cost:
                if colored != 0:
                    colors_key(llink, rlink, length, color, active, keyinfo)
                bounds_key(used, bitems, active, keyinfo)
                s = store(
                    table, active, hashes[level], acc, level, cost, tstats
                )
                if build != 0:
                    table_nodes[s] = chain[level]
        if level == 0:
            where = DONE
            break
        if add_limbs(acc, level - 1, acc, level, 0, shift, mask) != 0:
            status = OVERFLOW
            break
        if build != 0:
            zres = chain[level]
        level -= 1
        where = RECOVER
    state[0] = level
    state[1] = where
    state[2] = zres
    state[3] = ptop
    counters[0] = nodes
    counters[1] = updates
    counters[2] = leaves
    return status
