"""The jitted reduction of a problem before its search (Knuth's DLX-PRE).

Every function here is a module-level ``@njit(cache=True)`` kernel that
calls only kernels of this file, never raises and never touches a Python
object.  ``dlx.services.reduce`` builds the arrays, calls the sweeps in
slices (a time limit is checked between two slices) and rebuilds the
problem from what survives.

Layout (one ``Arrays`` tuple; ``N`` items, the first ``N1`` primary, ``M``
options, ``E`` entries, an *entry* being one item of one option):

* ``option_start`` (``M + 1``): the entries of option ``k`` are
  ``option_start[k]:option_start[k + 1]``; ``entry_item``, ``entry_color``
  (0: none, else a code from 1) and ``entry_option`` (``E``) describe
  them, in the order of the options and, within one, of its items.
* ``item_start`` (``N + 1``) and ``item_entries`` (``E``): the entries of
  item ``i``, in option order.
* ``lower``/``upper`` (``N``): the bounds ``u..v`` of each item (1..1 for
  a plain primary item, 0..1 for a secondary one).  Rules may tighten a
  primary item's bounds.
* ``why_option``/``why_item``: 0 while an option (an item) is still
  there, else the rule that removed it (the codes below).
  ``entry_alive``: 0 once an item has been struck out of an option (the
  option stays).  An entry is *live* when it is alive and its option is
  still there.
* ``length[i]``: the live entries of item ``i`` (its options).
* ``option_stamp``, ``item_stamp``, ``item_count``: scratch, stamped with
  a fresh generation by each test so that they never need clearing.
* ``rules[code]``: 1 where the rule of that code may fire.
* ``info``: ``[N1, generation, work, changes, infeasible item]``; *work*
  counts entries looked at (like Knuth's mems, the budget's unit); an
  infeasible item ``>= 0`` is a primary item that can no longer reach its
  lower bound: the problem has no solution, and the sweeps stop.

Knuth's first example (``dlx-pre.w``): items ``A B C D E | F G``, options
``C E F``, ``A D G``, ``B C F``, ``A D``, ``B G``, ``D E G``.  Round 1
(``round_sweep``): every option with ``A`` has ``D`` (``implied``), so
``D`` is struck out and ``D E G`` goes; every option with ``C`` has
``F``: ``F`` is struck out.  Round 2: ``B C`` leaves ``E`` (now only in
``C E``) no option (``blocks``), so it goes; then ``E``'s options all have
``C`` and ``B``'s all have ``G``: ``C`` and ``G`` are struck out, and
``A G`` goes.  Round 3 changes nothing.  Left: ``E``, ``A``, ``B`` (the
original options 0, 3 and 4), as DLX-PRE leaves them.

Every kernel takes the fields it uses out of the tuple once, before its
loops: reading a field costs a reference count each time (20 times slower,
measured on committing a 25x25 Sudoku's givens), so the helpers called
in loops (``delete_option``, ``strike_item``...) take the arrays
themselves.
"""

from typing import NamedTuple

import numpy as np

from .jit import njit

# Hot loops index with U(...): numba wraps negative indices around unless
# the index is unsigned (as in dlx.kernels.dlx1); indices are never
# negative here.
U = np.uint64

# Why an option or item was removed (0: it is still there).
ALIVE = 0
NO_PRIMARY = 1  # an option without a primary item is never chosen
EMPTY_ITEM = 2  # an item in no option; or a primary item short of u
IMPLIED_ITEM = 3  # every option with primary p has this item
BLOCKING_OPTION = 4  # the option leaves a primary item too few options
FREE_SECONDARY = 5  # no two options clash on this secondary item
GIVEN = 6  # covered by a given option, or clashing with one
NRULES = 7

# The slots of ``info``.
NPRIMARY = 0
GENERATION = 1
WORK = 2
CHANGES = 3
INFEASIBLE = 4


class Arrays(NamedTuple):
    option_start: np.ndarray
    entry_item: np.ndarray
    entry_color: np.ndarray
    entry_option: np.ndarray
    item_start: np.ndarray
    item_entries: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    why_option: np.ndarray
    why_item: np.ndarray
    entry_alive: np.ndarray
    length: np.ndarray
    option_stamp: np.ndarray
    item_stamp: np.ndarray
    item_count: np.ndarray
    rules: np.ndarray
    info: np.ndarray


@njit(cache=True)
def lost_option(length, lower, why_item, rules, info, i):
    """Item ``i`` just lost an option: a primary item that can no longer
    reach its lower bound makes the problem infeasible; an item left in
    no option goes."""
    if not rules[EMPTY_ITEM] or why_item[i] != ALIVE:
        return
    if length[i] < lower[i]:
        if info[INFEASIBLE] < 0:
            info[INFEASIBLE] = i
    elif length[i] == 0:
        why_item[i] = EMPTY_ITEM
        info[CHANGES] += 1


@njit(cache=True)
def delete_option(
    option_start,
    entry_item,
    entry_alive,
    why_option,
    length,
    lower,
    why_item,
    rules,
    info,
    r,
    why,
):
    """Remove option ``r`` (for rule ``why``)."""
    why_option[r] = why
    info[CHANGES] += 1
    info[WORK] += option_start[r + 1] - option_start[r]
    for e in range(option_start[r], option_start[r + 1]):
        if entry_alive[e]:
            i = entry_item[e]
            length[i] -= 1
            lost_option(length, lower, why_item, rules, info, i)


@njit(cache=True)
def strike_item(
    item_start, item_entries, entry_alive, length, why_item, info, i, why
):
    """Strike item ``i`` out of every option that still has it."""
    for k in range(item_start[i], item_start[i + 1]):
        entry_alive[item_entries[k]] = 0
    info[WORK] += item_start[i + 1] - item_start[i]
    length[i] = 0
    why_item[i] = why
    info[CHANGES] += 1


@njit(cache=True)
def next_generation(info):
    info[GENERATION] += 1
    return info[GENERATION]


@njit(cache=True)
def check_items(A):
    """The empty-item rule over every item (Knuth's input phase notes the
    items in no option): run once before the rounds and after givens."""
    length, lower, why_item = A.length, A.lower, A.why_item
    rules, info = A.rules, A.info
    for i in range(len(length)):
        lost_option(length, lower, why_item, rules, info, i)


@njit(cache=True)
def no_primary(A, every):
    """Remove every option with no primary item (DLX-PRE ignores them as
    it reads them: no search ever chooses one) if ``every``, else only
    those with no item at all (all-zero matrix rows, which cannot be
    written back)."""
    (
        option_start,
        entry_item,
        entry_color,
        entry_option,
        item_start,
        item_entries,
        lower,
        upper,
        why_option,
        why_item,
        entry_alive,
        length,
        option_stamp,
        item_stamp,
        item_count,
        rules,
        info,
    ) = A
    nprimary = info[NPRIMARY] if every else len(length)
    for r in range(len(why_option)):
        if why_option[r] != ALIVE:
            continue
        has = False
        for e in range(option_start[r], option_start[r + 1]):
            if entry_alive[e] and entry_item[e] < nprimary:
                has = True
                break
        info[WORK] += option_start[r + 1] - option_start[r]
        if not has:
            delete_option(
                option_start,
                entry_item,
                entry_alive,
                why_option,
                length,
                lower,
                why_item,
                rules,
                info,
                r,
                NO_PRIMARY,
            )


@njit(cache=True)
def force(A, given):
    """Commit the ``given`` options (distinct) in turn.  A given option
    leaves the problem (it is in every solution); a primary item it covers
    has its bounds lowered by one, and goes with the options that have it
    once its upper bound reaches 0; a secondary item it covers goes, with
    every option that would clash with the given one on it.  Two givens
    that clash make the problem infeasible (``INFEASIBLE`` names the item
    they clash on)."""
    (
        option_start,
        entry_item,
        entry_color,
        entry_option,
        item_start,
        item_entries,
        lower,
        upper,
        why_option,
        why_item,
        entry_alive,
        length,
        option_stamp,
        item_stamp,
        item_count,
        rules,
        info,
    ) = A
    nprimary = info[NPRIMARY]
    is_given = np.zeros(len(why_option), np.uint8)
    for g in given:
        is_given[g] = 1
    for g in given:
        # g is still there: a given that an earlier one would remove
        # stops everything (below) before it is removed.
        why_option[g] = GIVEN
        is_given[g] = 0
        for e in range(option_start[g], option_start[g + 1]):
            if not entry_alive[e]:  # an earlier given's color, the same
                continue
            i = entry_item[e]
            length[i] -= 1
            x = entry_color[e]
            if i < nprimary:
                lower[i] = max(lower[i] - 1, 0)
                upper[i] -= 1
                if upper[i] > 0:
                    continue
            for k in range(item_start[i], item_start[i + 1]):
                f = item_entries[k]
                s = entry_option[f]
                if not entry_alive[f] or why_option[s] != ALIVE:
                    continue
                if x != 0 and entry_color[f] == x:
                    continue  # the same color as g: compatible
                if is_given[s]:
                    info[INFEASIBLE] = i
                    return
                delete_option(
                    option_start,
                    entry_item,
                    entry_alive,
                    why_option,
                    length,
                    lower,
                    why_item,
                    rules,
                    info,
                    s,
                    GIVEN,
                )
            strike_item(
                item_start,
                item_entries,
                entry_alive,
                length,
                why_item,
                info,
                i,
                GIVEN,
            )


@njit(cache=True)
def implied(A, c):
    """Rule "implied-item" with ``c`` as the item struck out (DLX-PRE's
    ``hide(c)`` and "Remove item c, and maybe some options"): if every
    option with some primary item ``p`` also has ``c`` uncolored, strike
    ``c`` out of every option and remove the options that have ``c`` but
    not ``p``.  Returns whether it did.

    With bounds: every solution covers ``c`` at least as often as ``p``,
    so the options with ``c`` but not ``p`` can go only when ``c``'s upper
    bound is at most ``p``'s lower bound (a secondary item's is 1); once
    they are gone, ``c`` is covered exactly as often as ``p``, and ``p``
    takes the intersection of both bounds (if empty: no solution).
    """
    (
        option_start,
        entry_item,
        entry_color,
        entry_option,
        item_start,
        item_entries,
        lower,
        upper,
        why_option,
        why_item,
        entry_alive,
        length,
        option_stamp,
        item_stamp,
        item_count,
        rules,
        info,
    ) = A
    nprimary = info[NPRIMARY]
    gen = next_generation(info)
    work = 0
    # For each primary item, the options with c uncolored that have it.
    for k in range(item_start[c], item_start[c + 1]):
        f = item_entries[k]
        r = entry_option[f]
        if not entry_alive[f] or why_option[r] != ALIVE or entry_color[f]:
            continue
        for e in range(option_start[r], option_start[r + 1]):
            work += 1
            i = entry_item[e]
            if i >= nprimary or i == c or not entry_alive[e]:
                continue
            if item_stamp[i] != gen:
                item_stamp[i] = gen
                item_count[i] = 0
            item_count[i] += 1
    info[WORK] += work
    for k in range(item_start[c], item_start[c + 1]):
        f = item_entries[k]
        r = entry_option[f]
        if not entry_alive[f] or why_option[r] != ALIVE or entry_color[f]:
            continue
        for e in range(option_start[r], option_start[r + 1]):
            p = entry_item[e]
            # (c itself was never stamped: the loop above skips it.)
            if (
                p >= nprimary
                or not entry_alive[e]
                or item_stamp[p] != gen
                or item_count[p] != length[p]
            ):
                continue
            extra = length[c] - length[p]  # options with c but not p
            if extra > 0 and upper[c] > lower[p]:
                continue  # c may be covered by other options too
            lo = max(lower[p], lower[c])
            hi = min(upper[p], upper[c])
            if lo > hi:
                info[INFEASIBLE] = p
                return True
            if extra > 0:
                mark = next_generation(info)
                for j in range(item_start[p], item_start[p + 1]):
                    option_stamp[entry_option[item_entries[j]]] = mark
                info[WORK] += item_start[p + 1] - item_start[p]
                for j in range(item_start[c], item_start[c + 1]):
                    g = item_entries[j]
                    s = entry_option[g]
                    if (
                        entry_alive[g]
                        and why_option[s] == ALIVE
                        and option_stamp[s] != mark
                    ):
                        delete_option(
                            option_start,
                            entry_item,
                            entry_alive,
                            why_option,
                            length,
                            lower,
                            why_item,
                            rules,
                            info,
                            s,
                            IMPLIED_ITEM,
                        )
            strike_item(
                item_start,
                item_entries,
                entry_alive,
                length,
                why_item,
                info,
                c,
                IMPLIED_ITEM,
            )
            lower[p] = lo
            upper[p] = hi
            return True
    return False


@njit(cache=True)
def free_secondary(A, c):
    """Rule "free-secondary" (beyond DLX-PRE): a secondary item on which
    no two options can clash -- it is in at most one option, or every
    option gives it the same color -- constrains nothing: strike it out.
    Returns whether it did."""
    (
        option_start,
        entry_item,
        entry_color,
        entry_option,
        item_start,
        item_entries,
        lower,
        upper,
        why_option,
        why_item,
        entry_alive,
        length,
        option_stamp,
        item_stamp,
        item_count,
        rules,
        info,
    ) = A
    if A.length[c] > 1:
        color = -1
        info[WORK] += item_start[c + 1] - item_start[c]
        for k in range(item_start[c], item_start[c + 1]):
            f = item_entries[k]
            if not entry_alive[f] or why_option[entry_option[f]] != ALIVE:
                continue
            x = entry_color[f]
            if x == 0 or (color >= 0 and x != color):
                return False
            color = x
    strike_item(
        item_start,
        item_entries,
        entry_alive,
        length,
        why_item,
        info,
        c,
        FREE_SECONDARY,
    )
    return True


@njit(cache=True)
def blocks(A, r):
    """Does option ``r`` leave some primary item ``i`` fewer compatible
    options than its lower bound?  Counts, for each primary item, the
    options that clash with ``r`` (DLX-PRE's "Stack option r for deletion
    if it leaves some primary item uncoverable"; the test needs
    ``length[i] - clashing >= lower[i]`` for every primary ``i``, whether
    ``r`` has ``i`` or not).  Two options clash when they share a primary
    item with upper bound 1, or a secondary item that is not given the
    same color by both."""
    (
        option_start,
        entry_item,
        entry_color,
        entry_option,
        item_start,
        item_entries,
        lower,
        upper,
        why_option,
        why_item,
        entry_alive,
        length,
        option_stamp,
        item_stamp,
        item_count,
        rules,
        info,
    ) = A
    nprimary = info[NPRIMARY]
    gen = next_generation(info)
    option_stamp[U(r)] = gen
    work = 0
    blocked = False
    for e in range(option_start[U(r)], option_start[U(r + 1)]):
        if not entry_alive[U(e)]:
            continue
        q = entry_item[U(e)]
        if q < nprimary and upper[U(q)] > 1:
            continue  # q may be shared
        x = entry_color[U(e)]
        for k in range(item_start[U(q)], item_start[U(q + 1)]):
            f = item_entries[U(k)]
            s = entry_option[U(f)]
            work += 1
            if (
                not entry_alive[U(f)]
                or why_option[U(s)] != ALIVE
                or option_stamp[U(s)] == gen
            ):
                continue
            if x != 0 and entry_color[U(f)] == x:
                continue  # the same color: no clash on q
            option_stamp[U(s)] = gen
            for h in range(option_start[U(s)], option_start[U(s + 1)]):
                work += 1
                i = entry_item[U(h)]
                if i >= nprimary or not entry_alive[U(h)]:
                    continue
                if item_stamp[U(i)] != gen:
                    item_stamp[U(i)] = gen
                    item_count[U(i)] = 0
                item_count[U(i)] += 1
                if length[U(i)] - item_count[U(i)] < lower[U(i)]:
                    blocked = True
                    break
            if blocked:
                break
        if blocked:
            break
    info[WORK] += work
    return blocked


@njit(cache=True)
def round_sweep(A, first, work_cap):
    """One round of DLX-PRE's main loop, over the items ``c`` from
    ``first``: try to strike ``c`` out ("implied-item", then for a
    secondary item "free-secondary"); if it stays, test each option whose
    first remaining item is ``c`` ("blocking-option": every option is
    tested once a round; DLX-PRE skips those where ``c`` is colored).
    Returns where it stopped: ``N`` when the round is over, earlier when
    ``work_cap`` was reached."""
    (
        option_start,
        entry_item,
        entry_color,
        entry_option,
        item_start,
        item_entries,
        lower,
        upper,
        why_option,
        why_item,
        entry_alive,
        length,
        option_stamp,
        item_stamp,
        item_count,
        rules,
        info,
    ) = A
    nprimary = info[NPRIMARY]
    nprimary = info[NPRIMARY]
    n = len(length)
    for c in range(first, n):
        if info[WORK] >= work_cap:
            return c
        if info[INFEASIBLE] >= 0:
            return n
        if why_item[c] != ALIVE or length[c] == 0:
            continue
        if rules[IMPLIED_ITEM] and implied(A, c):
            continue
        if c >= nprimary and rules[FREE_SECONDARY] and free_secondary(A, c):
            continue
        if not rules[BLOCKING_OPTION]:
            continue
        for k in range(item_start[c], item_start[c + 1]):
            f = item_entries[k]
            r = entry_option[f]
            if not entry_alive[f] or why_option[r] != ALIVE:
                continue
            first_alive = option_start[r]  # r's first item not struck out
            while not entry_alive[first_alive]:
                first_alive += 1
            if first_alive == f and blocks(A, r):
                delete_option(
                    option_start,
                    entry_item,
                    entry_alive,
                    why_option,
                    length,
                    lower,
                    why_item,
                    rules,
                    info,
                    r,
                    BLOCKING_OPTION,
                )
                if info[INFEASIBLE] >= 0:
                    return n
    return n
