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
from numba import njit


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
def find_cut(indptr, indices, nitems, candidates, labels):
    """The first of ``candidates`` (item numbers) whose removal, with
    every option that holds it, leaves the other items in two components
    or more: a branch on it splits the problem whichever option covers
    it.  Returns -1 when none does (``labels``: scratch)."""
    for c in range(len(candidates)):
        if (
            label_components(indptr, indices, nitems, candidates[c], labels)
            > 1
        ):
            return candidates[c]
    return -1
