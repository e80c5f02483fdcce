"""A plain-Python Sudoku solver in the constraint-propagation style.

The reference point for "what a Python programmer writes in an afternoon":
each cell keeps a set of candidate digits (a 9-bit mask); placing a digit
removes it from the cell's 20 peers, a cell left with one candidate is
placed (naked single), and a digit left with one place in a row, column or
box is placed there (hidden single).  When propagation stalls, the search
branches on a cell with the fewest candidates.  Written for this project;
no numba, no numpy.
"""

from __future__ import annotations

ALL = (1 << 9) - 1
CELLS = range(81)
UNITS_OF: list[list[tuple[int, ...]]] = [[] for _ in CELLS]
PEERS: list[tuple[int, ...]] = []


def _setup():
    units = []
    for r in range(9):
        units.append(tuple(r * 9 + c for c in range(9)))
    for c in range(9):
        units.append(tuple(r * 9 + c for r in range(9)))
    for br in (0, 3, 6):
        for bc in (0, 3, 6):
            units.append(
                tuple(
                    (br + r) * 9 + bc + c for r in range(3) for c in range(3)
                )
            )
    for unit in units:
        for cell in unit:
            UNITS_OF[cell].append(unit)
    for cell in CELLS:
        PEERS.append(
            tuple(sorted({x for u in UNITS_OF[cell] for x in u} - {cell}))
        )


_setup()
BIT_DIGIT = {1 << d: d + 1 for d in range(9)}


def _place(cand: list[int], cell: int, bit: int) -> bool:
    """Make ``bit`` the only candidate of ``cell``; False on contradiction."""
    others = cand[cell] & ~bit
    b = others
    while b:
        low = b & -b
        if not _remove(cand, cell, low):
            return False
        b ^= low
    return True


def _remove(cand: list[int], cell: int, bit: int) -> bool:
    """Remove candidate ``bit`` from ``cell`` and propagate."""
    if not cand[cell] & bit:
        return True
    left = cand[cell] & ~bit
    if not left:
        return False
    cand[cell] = left
    if left & (left - 1) == 0:  # naked single: its peers lose it
        for peer in PEERS[cell]:
            if not _remove(cand, peer, left):
                return False
    for unit in UNITS_OF[cell]:  # hidden single: bit has one place left
        places = [x for x in unit if cand[x] & bit]
        if not places:
            return False
        if (
            len(places) == 1
            and cand[places[0]] != bit
            and not _place(cand, places[0], bit)
        ):
            return False
    return True


def propagate(puzzle: str) -> list[int] | None:
    """Candidate masks after placing every given, or None if they clash."""
    cand = [ALL] * 81
    for cell, ch in enumerate(puzzle):
        if ch not in ".0" and not _place(cand, cell, 1 << (int(ch) - 1)):
            return None
    return cand


def _search(cand: list[int], limit: int, found: list):
    """Depth-first search; appends solutions (mask lists) to ``found``."""
    best, fewest = -1, 10
    for cell in CELLS:
        m = cand[cell]
        if m & (m - 1):
            n = bin(m).count("1")
            if n < fewest:
                best, fewest = cell, n
                if n == 2:
                    break
    if best < 0:
        found.append(cand)
        return
    m = cand[best]
    while m and len(found) < limit:
        low = m & -m
        m ^= low
        trial = cand[:]
        if _place(trial, best, low):
            _search(trial, limit, found)


def solve(puzzle: str, limit: int = 2) -> tuple[int, str | None]:
    """``(solutions found, at most limit; the first as an 81-digit string)``."""
    cand = propagate(puzzle)
    if cand is None:
        return 0, None
    found: list = []
    _search(cand, limit, found)
    if not found:
        return 0, None
    return len(found), "".join(str(BIT_DIGIT[m]) for m in found[0])


if __name__ == "__main__":
    import sys

    for line in sys.stdin:
        if line.strip():
            n, grid = solve(line.strip())
            print(n, grid)
