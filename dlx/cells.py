"""The dancing-cells arrays of one problem (see ``dlx.kernels.cells``).

Built from the same input as the DLX arrays (``dlx.problem.Links``): item
numbers option after option (``members``, 1-based) and items per option
(``sizes``), as ``ExactCover`` keeps them.
"""

from __future__ import annotations

import numpy as np

from .kernels import cells as C


class Cells:
    """SSXC1's sparse sets for one problem: ``item``, ``set``, ``nd``
    (``itm`` and ``loc`` side by side) and ``second`` as
    ``dlx.kernels.cells`` describes them, plus ``option_of`` (the option number of each node, -1 for spacers) and
    ``option_start`` (the first node of each option).

    ``uncoverable`` is True when some primary item is in no option that
    has a primary item: then there is no solution and, as SSXC1 does, no
    search at all.
    """

    __slots__ = ("item", "set", "nd", "second", "option_of",
                 "option_start", "nprimary", "uncoverable")

    def __init__(self, nitems: int, nprimary: int, members: np.ndarray,
                 sizes: np.ndarray, head: int = C.HEAD):
        n = nitems
        m = len(sizes)
        members = np.asarray(members, np.int64)
        sizes = np.asarray(sizes, np.int64)
        option_of_member = np.repeat(np.arange(m), sizes)
        # SSXC1 ignores an option without a primary item: it is in no set.
        has_primary = np.zeros(m, bool)
        np.logical_or.at(has_primary, option_of_member, members <= nprimary)
        kept = has_primary[option_of_member]
        # Set sizes and where each item's block starts (after its header).
        length = np.bincount(members[kept], minlength=n + 1)[1:]
        x = np.zeros(n, np.int64)
        if n:
            x[0] = head
            np.cumsum(length[:-1] + head, out=x[1:])
            x[1:] += head
        total = int(x[-1] + length[-1]) if n else head

        # Node numbers: node 0 is a spacer, option j's first node is
        # 1 + start_j + j, and a spacer follows every option.
        starts = np.zeros(m + 1, np.int64)
        np.cumsum(sizes, out=starts[1:])
        first = 1 + starts[:-1] + np.arange(m)
        nnodes = int(starts[-1]) + m + 1
        node_of_member = (np.arange(len(members)) + 1
                          + option_of_member)
        itm = np.zeros(nnodes, np.int32)
        loc = np.full(nnodes, -1, np.int32)
        itm[node_of_member] = x[members - 1]
        spacers = np.concatenate(([0], first + sizes))
        itm[spacers[1:]] = -sizes
        loc[spacers[:-1]] = sizes
        loc[spacers[-1]] = 0

        # Each item's set: the nodes of its kept options, in option order.
        set_ = np.zeros(total, np.int32)
        nodes_kept = node_of_member[kept]
        items_kept = members[kept]
        order = np.argsort(items_kept, kind="stable")
        nodes_sorted = nodes_kept[order]
        items_sorted = items_kept[order]
        rank = np.arange(len(items_sorted)) - np.repeat(
            np.concatenate(([0], np.cumsum(length)[:-1])), length)
        where = x[items_sorted - 1] + rank
        set_[where] = nodes_sorted
        loc[nodes_sorted] = where
        set_[x - 1] = length
        set_[x - 2] = np.arange(n)

        option_of = np.full(nnodes, -1, np.int32)
        option_of[node_of_member] = option_of_member
        self.item = x.astype(np.int32)
        self.set = set_
        self.nd = np.empty(2 * nnodes, np.int32)
        self.nd[0::2] = itm
        self.nd[1::2] = loc
        self.second = int(x[nprimary]) if nprimary < n else total + head
        self.option_of = option_of
        self.option_start = first.astype(np.int32)
        self.nprimary = nprimary
        self.uncoverable = bool((length[:nprimary] == 0).any())

    @property
    def itm(self) -> np.ndarray:
        """Each node's item (a set index), or minus the size of the option
        before a spacer: a view of ``nd``."""
        return self.nd[0::2]

    @property
    def loc(self) -> np.ndarray:
        """Where each node sits in its item's set: a view of ``nd``."""
        return self.nd[1::2]

    def copy_arrays(self):
        """Fresh copies of the mutable arrays, in kernel argument order:
        ``item, set, nd, second``."""
        return (self.item.copy(), self.set.copy(), self.nd.copy(),
                self.second)

    def new_state(self):
        """A state for a search that has not started (see
        ``dlx.kernels.cells.search``)."""
        state = np.zeros(C.STATE_SIZE, np.int64)
        state[C.WHERE] = C.FORWARD
        state[C.ACTIVE] = len(self.item)
        return state

    def stack_size(self) -> int:
        """A first size (in entries) for the save stack; the kernels ask
        for more when they need it."""
        return max(16, 4 * len(self.item))


def _show(cells: Cells) -> str:  # pragma: no cover - a docstring helper
    lines = []
    for name in ("item", "set", "itm", "loc"):  # itm, loc: halves of nd
        lines.append(f"{name:6}" + " ".join(f"{v:3d}"
                                            for v in getattr(cells, name)))
    lines.append(f"second {cells.second}")
    return "\n".join(lines)


if __name__ == "__main__":  # pragma: no cover
    # Knuth's toy problem, for the docstring of dlx.kernels.cells.
    items = "abcdefg"
    opts = ["cef", "adg", "bcf", "ad", "bg", "deg"]
    mem = np.array([items.index(c) + 1 for o in opts for c in o])
    print(_show(Cells(7, 5, mem, np.array([len(o) for o in opts]))))
