"""The jitted component finder of counting by components
(``dlx.services.parts``).

The items of a problem fall into *components*: two items are in the same
one when an option holds both, or through a chain of such options.  An
option joins all its items, primary and secondary (a secondary item two
options share is a conflict between them unless they agree on its
color; either way their counts do not multiply).  No option crosses from
one component to another, so the problem's solutions are the products of
its components' solutions.

Every function here is a module-level ``@njit(cache=True)`` kernel that
calls only kernels of this file and never touches a Python object.
Options come as compressed sparse rows: option ``k``'s items are
``indices[indptr[k]:indptr[k + 1]]``, numbered from 0.
"""

import numpy as np

from .jit import njit


@njit(cache=True)
def _root(parent, x):
    # Path halving: every other node on the way up points to its
    # grandparent, so the trees stay shallow without ranks.
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


@njit(cache=True)
def label_components(indptr, indices, nitems, skip, labels):
    """Label each item with its component (0, 1, ... in the order of the
    items' smallest numbers) over the options that do not hold item
    ``skip`` (-1: every option); ``labels[i]`` is -1 for an item in no
    such option (and for ``skip``).  Returns the number of components:
    a union-find over the options' items, one pass over the members."""
    parent = np.arange(nitems)
    touched = np.zeros(nitems, np.bool_)
    for k in range(len(indptr) - 1):
        a = indptr[k]
        b = indptr[k + 1]
        if a == b:
            continue
        if skip >= 0:
            holds = False
            for m in range(a, b):
                if indices[m] == skip:
                    holds = True
                    break
            if holds:
                continue
        first = _root(parent, indices[a])
        touched[indices[a]] = True
        for m in range(a + 1, b):
            x = indices[m]
            touched[x] = True
            r = _root(parent, x)
            if r != first:
                parent[r] = first
    count = 0
    number = np.full(nitems, -1, np.int64)
    for x in range(nitems):
        labels[x] = -1
        if touched[x]:
            r = _root(parent, x)
            if number[r] < 0:
                number[r] = count
                count += 1
            labels[x] = number[r]
    return count


@njit(cache=True)
def _columns(indptr, indices, nitems):
    """The options of each item: item ``x``'s are
    ``holder[start[x]:start[x + 1]]``, in order."""
    start = np.zeros(nitems + 1, np.int64)
    for m in range(len(indices)):
        start[indices[m] + 1] += 1
    for x in range(nitems):
        start[x + 1] += start[x]
    fill = start[:-1].copy()
    holder = np.empty(len(indices), np.int64)
    for k in range(len(indptr) - 1):
        for m in range(indptr[k], indptr[k + 1]):
            holder[fill[indices[m]]] = k
            fill[indices[m]] += 1
    return start, holder


@njit(cache=True)
def articulation_items(indptr, indices, nitems, out):
    """Mark in ``out`` the items that are articulation points of the
    items-options graph (a node per item and per option, an edge where an
    option holds an item): the items whose removal alone leaves their
    component in pieces, the likely cut items (see ``find_cut``).
    Tarjan's lowpoints, by an iterative depth-first search: linear in the
    members."""
    noptions = len(indptr) - 1
    start, holder = _columns(indptr, indices, nitems)
    n = nitems + noptions
    disc = np.full(n, -1, np.int64)
    low = np.zeros(n, np.int64)
    nxt = np.zeros(n, np.int64)
    up = np.full(n, -1, np.int64)
    stack = np.empty(n, np.int64)
    for x in range(nitems):
        out[x] = False
    clock = 0
    for s in range(nitems):
        if disc[s] >= 0 or start[s] == start[s + 1]:
            continue
        disc[s] = low[s] = clock
        clock += 1
        stack[0] = s
        depth = 1
        children = 0
        while depth:
            u = stack[depth - 1]
            v = -1
            if u < nitems:
                if nxt[u] < start[u + 1] - start[u]:
                    v = nitems + holder[start[u] + nxt[u]]
            else:
                k = u - nitems
                if nxt[u] < indptr[k + 1] - indptr[k]:
                    v = indices[indptr[k] + nxt[u]]
            if v >= 0:
                nxt[u] += 1
                if disc[v] < 0:
                    up[v] = u
                    disc[v] = low[v] = clock
                    clock += 1
                    stack[depth] = v
                    depth += 1
                    if u == s:
                        children += 1
                elif v != up[u] and disc[v] < low[u]:
                    low[u] = disc[v]
            else:
                depth -= 1
                p = up[u]
                if p >= 0:
                    if low[u] < low[p]:
                        low[p] = low[u]
                    if p != s and p < nitems and low[u] >= disc[p]:
                        out[p] = True
        if children > 1:
            out[s] = True


@njit(cache=True)
def find_cut(indptr, indices, nitems, candidates):
    """The first of ``candidates`` (item numbers) whose removal, with
    every option that holds it, leaves the other items in two components
    or more: a branch on it splits the problem whichever option covers
    it.  Returns -1 when none does.

    One union-find per candidate over the options that do not hold it,
    stopped as soon as two items are seen apart; the scratch arrays are
    made once."""
    noptions = len(indptr) - 1
    parent = np.empty(nitems, np.int64)
    touched = np.zeros(nitems, np.bool_)
    skip = np.zeros(noptions, np.bool_)
    start, holder = _columns(indptr, indices, nitems)
    for c in range(len(candidates)):
        item = candidates[c]
        for m in range(start[item], start[item + 1]):
            skip[holder[m]] = True
        for x in range(nitems):
            parent[x] = x
            touched[x] = False
        for k in range(noptions):
            a = indptr[k]
            b = indptr[k + 1]
            if skip[k] or a == b:
                continue
            first = _root(parent, indices[a])
            touched[indices[a]] = True
            for m in range(a + 1, b):
                x = indices[m]
                touched[x] = True
                r = _root(parent, x)
                if r != first:
                    parent[r] = first
        for m in range(start[item], start[item + 1]):
            skip[holder[m]] = False
        root = -1
        for x in range(nitems):
            if touched[x]:
                r = _root(parent, x)
                if root < 0:
                    root = r
                elif r != root:
                    return item
    return -1
