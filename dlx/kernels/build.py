"""Building the engines' arrays: numba passes over compressed sparse rows.

The options come as CSR arrays (``dlx.compact``): option ``j``'s items
are ``indices[indptr[j]:indptr[j + 1]]``, and item ``k``'s number is
``indices[t] + base`` counted from 1 (``base`` is 1 for the model's
numbers from 0, 0 for a ``Structure``'s ``members``).  Each pass below
walks them once, in order, writing straight into the arrays a kernel
module searches: the vertical lists of dancing links (``link_options``,
DLX1's layout, see ``dlx.kernels.dlx1``) and the sets of dancing cells
(``count_kept``, ``fill_cells``, SSXC1's layout, see
``dlx.kernels.ssxc1``).  An item's list, or set, gets its options in
option order because the options are walked in order: no sort, and no
temporary array per member (a numpy build needed an argsort, eight bytes
a member, and several more such arrays).

An option without a primary item is linked into no list and no set, as
Knuth's programs ignore it (it keeps its nodes, so it can be given).

``first_repeat`` is the model's check that no option lists an item twice.
These functions call no kernel of another file.
"""

import numpy as np

from .jit import njit

# Indices go through U(...) where they index, as in the search kernels:
# numba wraps negative indices around unless the index type is unsigned.
U = np.uint64


@njit(cache=True)
def first_repeat(indptr, indices, seen):
    """The first option that lists an item twice, and where (the member's
    position in ``indices``): ``(-1, -1)`` when none does.  ``seen`` (one
    entry per item, -1 each) is scratch."""
    for j in range(len(indptr) - 1):
        for t in range(indptr[j], indptr[j + 1]):
            k = indices[U(t)]
            if seen[U(k)] == j:
                return j, t
            seen[U(k)] = j
    return -1, -1


@njit(cache=True)
def has_primary(indptr, indices, base, nprimary, j):
    """True when option ``j`` has a primary item."""
    for t in range(indptr[j], indptr[j + 1]):
        if indices[U(t)] + base <= nprimary:
            return True
    return False


@njit(cache=True)
def link_options(
    indptr,
    indices,
    base,
    nitems,
    nprimary,
    top,
    ulink,
    dlink,
    length,
    fill_top,
):
    """Fill DLX1's node arrays (``top``, ``ulink``, ``dlink``, zeros of
    length ``nitems + 1 + members + options + 1``) and ``length`` (zeros,
    ``nitems + 2``): option ``j``'s first node is ``nitems + 2 +
    indptr[j] + j``, a spacer before each option and after the last (the
    first spacer is node ``nitems + 1``), each item's vertical list its
    options in order through its header node.  ``ulink`` and ``dlink``
    may come uninitialised (every entry is written); ``top`` is written
    only when ``fill_top`` (else it is read-only here, and may be shared
    by threads)."""
    n = nitems
    for k in range(n + 1):
        ulink[U(k)] = k
        dlink[U(k)] = k
    spacer = n + 1  # top[spacer] = 0: spacer 0
    ulink[U(spacer)] = 0
    for j in range(len(indptr) - 1):
        lo = indptr[j]
        hi = indptr[j + 1]
        first = n + 2 + lo + j
        linked = has_primary(indptr, indices, base, nprimary, j)
        for t in range(lo, hi):
            x = first + (t - lo)
            k = indices[U(t)] + base
            if fill_top:
                top[U(x)] = k
            if linked:  # below the last node of item k's list
                last = ulink[U(k)]
                ulink[U(x)] = last
                dlink[U(last)] = x
                dlink[U(x)] = k
                ulink[U(k)] = x
                length[U(k)] += 1
            else:
                ulink[U(x)] = x
                dlink[U(x)] = x
        dlink[U(spacer)] = first + (hi - lo) - 1  # the last node below
        spacer = first + (hi - lo)
        if fill_top:
            top[U(spacer)] = -(j + 1)
        ulink[U(spacer)] = first  # the first node above
    dlink[U(spacer)] = 0


@njit(cache=True)
def count_kept(indptr, indices, base, nprimary, length):
    """``length[k - 1]`` += the options with a primary item that contain
    item ``k``: the size of item ``k``'s set."""
    for j in range(len(indptr) - 1):
        if has_primary(indptr, indices, base, nprimary, j):
            for t in range(indptr[j], indptr[j + 1]):
                length[U(indices[U(t)] + base - 1)] += 1


@njit(cache=True)
def fill_cells(indptr, indices, base, nprimary, x, set_, nd, width, colors):
    """Fill SSXC1's nodes (``nd``, ``width`` words a node: ``itm, loc``
    and, with ``colors`` (one code per member; empty for none), ``clr``;
    zeros on entry) and the items' sets in ``set_``, from each item's
    set index ``x[k - 1]``: option ``j``'s first node is ``1 + indptr[j]
    + j``, a spacer before each option and after the last."""
    m = len(indptr) - 1
    fill = x.copy()
    colored = len(colors) > 0
    # Spacer 0: itm 0, loc the size of option 0 (SSXC1 never reads it).
    nd[1] = indptr[1] - indptr[0] if m > 0 else 0
    for j in range(m):
        lo = indptr[j]
        hi = indptr[j + 1]
        first = 1 + lo + j
        kept = has_primary(indptr, indices, base, nprimary, j)
        for t in range(lo, hi):
            q = first + (t - lo)
            k = indices[U(t)] + base
            nd[U(width * q)] = x[U(k - 1)]
            if kept:
                where = fill[U(k - 1)]
                fill[U(k - 1)] = where + 1
                set_[U(where)] = q
                nd[U(width * q + 1)] = where
            else:
                nd[U(width * q + 1)] = -1
            if colored:
                nd[U(width * q + 2)] = colors[U(t)]
        spacer = first + (hi - lo)
        nd[U(width * spacer)] = -(hi - lo)
        # The spacer's loc: the size of the option after it (0 at the end).
        nd[U(width * spacer + 1)] = indptr[j + 2] - hi if j + 1 < m else 0
