"""All the solutions at once: the ZDD of a problem's solutions (DLX6).

A *ZDD* (zero-suppressed decision diagram) is a DAG whose nodes are
``(var ? hi : lo)``: the family of sets at a node is the family at ``lo``
together with every set of the family at ``hi`` with ``var`` added.  The
two *sinks* are node 0 (the empty family) and node 1 (the family holding
only the empty set).  Here a set is a solution and ``var`` an option
number, so one diagram holds every solution of a problem, often in far
fewer nodes than there are solutions: questions that would need another
search become walks over it (how many, a uniformly random one, the
cheapest ones by weights chosen after the search, how many use each
option).

``ExactCover.zdd()`` builds it with the memoized search of
``count(memo=True)`` (``dlx.services.memo``), as Nishino, Yasuda, Minato and
Nagata's DXZ and Knuth's DLX6 do: each subproblem (its set of active
items, and with colors the colors of its secondary items) is a memo entry
that remembers its ZDD node beside its count.  A search-tree node that
branches on item ``i`` with options ``p1, p2, ...`` becomes a chain of ZDD
nodes built as its options finish, ``(p_k ? Z_k : (... (p1 ? Z1 : 0)))``,
where ``Z_j`` is the ZDD of ``p_j``'s subproblem (a memo hit's node, the
sink 1 at a solution); an option with no solution adds no node.  Nodes are
made through a unique table, so no two are alike, and none has the
empty family as its ``hi``: the diagram is reduced, in the search's order
(not a fixed order of the options: DLX6 does the same).

A problem that falls apart (``dlx.services.parts``: its items fall into
components, or it has a cut item; with colors and bounds too) is built
by parts as ``count(memo=True)`` counts it: the product of its
components' diagrams (each one's sink 1 replaced by the next one's
root), the chain of a cut item's options over the diagrams of what each
leaves (with bounds ``u..v``, the union over the sets of ``u`` to ``v``
of its options), and the memoized search's diagram of each connected
part, with its items' bounds still to meet (see ``_PartsBuild``).

Nodes are numbered bottom-up: a node's children always have smaller
numbers, the sinks are 0 and 1, and the root is the last node.  The node
table is three int32 arrays (``var``, ``lo``, ``hi``): 12 bytes a node
(the search's unique table adds 4 to 8 bytes a node while it runs).

Files: ``write`` and ``read`` use the text of Knuth's ZDDREAD programs as
DLX6 prints it (``dlx6 m1 < problem.dlx``): one line a node,
``id: (~v?lo:hi)`` with hex ids, children before parents, the sinks never
written, and a dummy root ``(~0?0:r)`` last (``2: (~0?0:0)`` when there
is no solution).  Its options ``v`` are numbered from 1 in input order,
counting only the options that have a primary item (DLX6 ignores the
others); ``ZDD.read`` of DLX6's output gives the same solutions.
"""

from __future__ import annotations

import heapq
import os
import random
import re
from collections.abc import Iterator, Mapping, Sized
from dataclasses import dataclass
from itertools import combinations
from typing import IO, Any, NamedTuple, Union

import numpy as np

from ..engines import refuse
from ..kernels import memo as M, parts as PK
from ..shorten import shorten
from ..textfile import read_text
from . import memo, parts, search
from .search import BudgetExhausted, Interrupted

__all__ = ["ZDD", "ZddStats", "ZddPartsStats", "build", "DEFAULT_ZDD_BYTES"]

PathOrFile = Union[str, "os.PathLike[str]", IO[str]]

DEFAULT_ZDD_BYTES = 1 << 30
"""The default limit on the diagram's own memory (its node and unique
tables): 1 GiB, some 50 million nodes."""
#: Bytes a node costs while the search builds it: var, lo, hi (int32
#: each) and two int32 slots of the unique table (kept at most half full).
BUILD_NODE_BYTES = 12 + 8
_FIRST_NODES = 1 << 12


class ZDD:
    """A reduced ZDD of a family of sets of option numbers (see the module
    docstring): ``var``, ``lo``, ``hi`` (int32 arrays indexed by node,
    entries 0 and 1 unused: the sinks) and ``root``.

    ``numbering`` (optional) maps an option number to its number in a
    ZDDREAD file (DLX6's: from 1, options with a primary item only; -1 for
    the others); without it option ``k`` is written ``k + 1``.  ``costs``
    (optional) are the options' costs, the default weights of ``best`` and
    ``worst``.

    Args:
        var: Each node's option number (int32; entries 0 and 1 unused).
        lo: Each node's ``lo`` child, a smaller node number.
        hi: Each node's ``hi`` child, a smaller node number, never 0.
        root: The root node (0: no solution; 1: only the empty one).
        numbering: Each option's number in a ZDDREAD file (-1: none).
        costs: Each option's cost, the default weights.

    Raises:
        ValueError: ``var``, ``lo`` and ``hi`` of different lengths (or
            fewer than the two sinks), or a root that is not a node.
    """

    def __init__(self, var, lo, hi, root: int, *, numbering=None, costs=None):
        self.var = np.ascontiguousarray(var, np.int32)
        self.lo = np.ascontiguousarray(lo, np.int32)
        self.hi = np.ascontiguousarray(hi, np.int32)
        n = len(self.var)
        if not (len(self.lo) == len(self.hi) == n >= 2):
            raise ValueError(
                "var, lo and hi must have one entry per node, sinks included"
            )
        if not 0 <= root < n:
            raise ValueError(f"root {root} is not a node (there are {n})")
        self.root = int(root)
        self.numbering = (
            None if numbering is None else np.asarray(numbering, np.int64)
        )
        self.costs = costs
        self._counts: list[int] | None = None

    # -- size and equality ------------------------------------------------
    def __len__(self) -> int:
        """The number of nodes, sinks excluded."""
        return len(self.var) - 2

    def __repr__(self) -> str:
        return f"<ZDD: {len(self)} nodes, {self.count()} sets>"

    def __eq__(self, other) -> bool:
        if not isinstance(other, ZDD):
            return NotImplemented
        return (
            self.root == other.root
            and len(self) == len(other)
            and bool(
                (self.var[2:] == other.var[2:]).all()
                and (self.lo[2:] == other.lo[2:]).all()
                and (self.hi[2:] == other.hi[2:]).all()
            )
        )

    __hash__ = None  # type: ignore[assignment]  # equal by content, unhashable

    @property
    def nbytes(self) -> int:
        """The bytes of the node table."""
        return self.var.nbytes + self.lo.nbytes + self.hi.nbytes

    # -- counting ---------------------------------------------------------
    def _node_counts(self) -> list[int]:
        """The number of sets at every node (exact ints), computed once."""
        if self._counts is None:
            lo, hi = self.lo.tolist(), self.hi.tolist()
            c = [0, 1]
            append = c.append
            for v in range(2, len(lo)):
                append(c[lo[v]] + c[hi[v]])
            self._counts = c
        return self._counts

    def count(self) -> int:
        """How many sets (solutions): an exact int of any size.

        Returns:
            The number of solutions.
        """
        return self._node_counts()[self.root]

    def counts_by_size(self) -> list[int]:
        """The generating function by size: entry ``k`` is the number of
        solutions with ``k`` options (``[]`` when there is none).

        Returns:
            The counts by size, up to the largest solution's.
        """
        lo, hi = self.lo.tolist(), self.hi.tolist()
        polys: list = [[], [1]]
        for v in range(2, self.root + 1):
            a, b = polys[lo[v]], polys[hi[v]]
            p = [0] * max(len(a), len(b) + 1)
            for k, x in enumerate(a):
                p[k] = x
            for k, x in enumerate(b):
                p[k + 1] += x
            polys.append(p)
        return list(polys[self.root]) if self.root != 0 else []

    def option_counts(self, noptions: int | None = None) -> list[int]:
        """Entry ``k``: how many solutions use option ``k`` (0 for an
        option never used, the count for one in every solution), for
        ``noptions`` options (default: up to the largest used).

        Args:
            noptions: How many entries (at least one past the largest
                option in the diagram; None: just that many).

        Returns:
            How many solutions use each option.

        Raises:
            ValueError: ``noptions`` too small for an option in the
                diagram.
        """
        counts = self._node_counts()
        var, lo, hi = self.var.tolist(), self.lo.tolist(), self.hi.tolist()
        top = max(var[2 : self.root + 1], default=-1) + 1
        if noptions is None:
            noptions = top
        elif noptions < top:
            raise ValueError(
                f"noptions={noptions}, but option {top - 1} is in the ZDD"
            )
        out = [0] * noptions
        paths = [0] * (self.root + 1)
        paths[self.root] = 1
        for v in range(self.root, 1, -1):
            n = paths[v]
            if n:
                paths[lo[v]] += n
                paths[hi[v]] += n
                out[var[v]] += n * counts[hi[v]]
        return out

    # -- solutions ----------------------------------------------------------
    def __iter__(self) -> Iterator[list[int]]:
        """Every solution, lazily, each a sorted list of option numbers."""
        var, lo, hi = self.var, self.lo, self.hi
        if self.root == 0:
            return
        # Depth first, hi before lo; every node but the 0 sink leads to
        # a solution (no hi edge is 0), so no branch is a dead end.
        stack: list[tuple[int, tuple]] = [(self.root, ())]
        while stack:
            v, chosen = stack.pop()
            while v > 1:
                if lo[v] != 0:
                    stack.append((int(lo[v]), chosen))
                chosen = (int(var[v]), chosen)
                v = hi[v]
            out: list[int] = []
            while chosen:
                out.append(chosen[0])
                chosen = chosen[1]
            out.sort()
            yield out

    def sample(self, n: int = 1, *, seed=None) -> list[list[int]]:
        """``n`` solutions drawn uniformly at random (independently, so
        one may come twice), each a sorted list of option numbers;
        reproducible for a given ``seed``.  A ZDD with no solution has
        none to draw: ValueError.

        Args:
            n: How many solutions to draw (an int >= 0).
            seed: The seed of ``random.Random`` (None: unpredictable).

        Returns:
            ``n`` solutions, each a sorted list of option numbers.

        Raises:
            TypeError: ``n`` not an integer.
            ValueError: ``n`` < 0, or a diagram with no solution.
        """
        n = search.whole_number("n", n)
        counts = self._node_counts()
        total = counts[self.root]
        if total == 0 and n:
            raise ValueError("the ZDD holds no solution to sample")
        rng = random.Random(seed)
        var, lo, hi = self.var.tolist(), self.lo.tolist(), self.hi.tolist()
        out = []
        for _ in range(n):
            r = rng.randrange(total)
            v = self.root
            chosen = []
            # r ranks the solution among those at v: the first counts[lo]
            # are lo's, the rest hi's with var added.
            while v > 1:
                below = counts[lo[v]]
                if r < below:
                    v = lo[v]
                else:
                    r -= below
                    chosen.append(var[v])
                    v = hi[v]
            chosen.sort()
            out.append(chosen)
        return out

    def best(self, k: int = 1, weights=None) -> list[tuple]:
        """The ``k`` solutions of least total weight, cheapest first, as
        ``(total, solution)`` pairs (ties in an order fixed by the
        diagram).  ``weights[option]`` is a number for each option
        (a sequence or a mapping; None: the options' ``costs``).

        Args:
            k: How many solutions (an int >= 0).
            weights: A number for each option in the diagram (a sequence
                or a mapping); None: the options' ``costs``.

        Returns:
            Up to ``k`` ``(total, solution)`` pairs, cheapest first, each
            solution a sorted list of option numbers.

        Raises:
            TypeError: ``k`` not an integer.
            ValueError: ``k`` < 0, no weight (or not a number) for an
                option in the diagram, or no weights and no costs.
        """
        return self._extreme(k, weights, 1)

    def worst(self, k: int = 1, weights=None) -> list[tuple]:
        """As ``best``, the ``k`` solutions of greatest total weight.

        Args:
            k: How many solutions (an int >= 0).
            weights: As ``best`` takes them.

        Returns:
            Up to ``k`` ``(total, solution)`` pairs, dearest first.

        Raises:
            TypeError: ``k`` not an integer.
            ValueError: As ``best``.
        """
        return self._extreme(k, weights, -1)

    def _extreme(self, k, weights, sign) -> list[tuple]:
        k = search.whole_number("k", k)
        w = self._weights(weights)
        var, lo, hi = self.var.tolist(), self.lo.tolist(), self.hi.tolist()
        inf = float("inf")
        # least[v]: the least signed weight of a solution at v.
        least: list = [inf, 0]
        for v in range(2, self.root + 1):
            a = least[lo[v]]
            b = sign * w[var[v]] + least[hi[v]]
            least.append(a if a <= b else b)
        if self.root == 0 or k == 0:
            return []
        # Best-first over partial paths: a path's key is its weight so far
        # plus the least weight below it, exact, so complete paths come
        # out cheapest first and no path taken is a dead end.
        # (key, tick, weight so far, node, chosen options as nested pairs)
        heap: list[tuple[Any, int, Any, int, tuple]] = [
            (least[self.root], 0, 0, self.root, ())
        ]
        tick = 1
        out: list[tuple[Any, list[int]]] = []
        while heap and len(out) < k:
            key, _, spent, v, chosen = heapq.heappop(heap)
            if v == 1:
                options: list[int] = []
                while chosen:
                    options.append(chosen[0])
                    chosen = chosen[1]
                options.sort()
                out.append((sign * spent, options))
                continue
            if lo[v] != 0:
                heapq.heappush(
                    heap, (spent + least[lo[v]], tick, spent, lo[v], chosen)
                )
                tick += 1
            s = spent + sign * w[var[v]]
            heapq.heappush(
                heap, (s + least[hi[v]], tick, s, hi[v], (var[v], chosen))
            )
            tick += 1
        return out

    def _weights(self, weights):
        """``weights`` checked: indexable by every option in the ZDD, and
        when the diagram knows its problem's options (``numbering``), one
        weight an option exactly (a mapping: none for another option)."""
        if weights is None:
            weights = self.costs
            if weights is None:
                raise ValueError(
                    "no weights given, and the options have no costs"
                )
        if isinstance(weights, np.ndarray):
            weights = weights.tolist()
        if self.numbering is not None:
            noptions = len(self.numbering)
            if isinstance(weights, Mapping):
                for key in weights:
                    if (
                        isinstance(key, (bool, np.bool_))
                        or not isinstance(key, (int, np.integer))
                        or not 0 <= key < noptions
                    ):
                        raise ValueError(
                            f"weights has a weight for {shorten(key)}, "
                            f"which is not an option (they are numbered "
                            f"0 to {noptions - 1})"
                        )
            elif isinstance(weights, Sized) and len(weights) != noptions:
                raise ValueError(
                    f"weights has {len(weights)} entries for {noptions} "
                    f"options: give one weight an option"
                )
        used = set(self.var[2 : self.root + 1].tolist())
        for option in used:
            try:
                value = weights[option]
            except (IndexError, KeyError, TypeError):
                raise ValueError(
                    f"weights has no weight for option {option}"
                ) from None
            if (
                isinstance(value, (bool, np.bool_))
                or not isinstance(value, (int, float, np.integer, np.floating))
                or value != value
            ):
                raise ValueError(
                    f"the weight of option {option} is "
                    f"{shorten(value)}, not a number"
                )
        return weights

    # -- files ---------------------------------------------------------------
    def write(self, file: PathOrFile) -> None:
        """Write the diagram in ZDDREAD's text format (see the module
        docstring) to a path or a text file.

        Args:
            file: A path (written anew) or a text file open for writing.

        Raises:
            ValueError: With DLX6's numbering, an option in the diagram
                that has no primary item (so no number in the file).
            OSError: The path cannot be written.
        """
        var = self.var.tolist()
        if self.numbering is not None:
            numbering = self.numbering.tolist()
            for v in range(2, self.root + 1):
                if numbering[var[v]] < 1:
                    raise ValueError(
                        f"option {var[v]} has no primary item, so DLX6's "
                        f"numbering has no number for it"
                    )
            names = [numbering[x] for x in var[2:]]
        else:
            names = [x + 1 for x in var[2:]]
        lo, hi = self.lo.tolist(), self.hi.tolist()

        def chunks(out):
            # In pieces of 2**16 lines: a big diagram's text never sits
            # in memory whole.
            for start in range(2, self.root + 1, 1 << 16):
                out.write(
                    "".join(
                        f"{v:x}: (~{names[v - 2]}?{lo[v]:x}:{hi[v]:x})\n"
                        for v in range(
                            start, min(start + (1 << 16), self.root + 1)
                        )
                    )
                )
            out.write(f"{max(self.root + 1, 2):x}: (~0?0:{self.root:x})\n")

        if isinstance(file, (str, os.PathLike)):
            with open(file, "w") as f:
                chunks(f)
        else:
            chunks(file)

    @classmethod
    def read(cls, file: PathOrFile, problem=None) -> ZDD:
        """A diagram from ZDDREAD text (``write``'s or DLX6's), reduced as
        it is read: duplicate nodes become one, a node whose ``hi`` is the
        0 sink is its ``lo``, nodes the root does not reach are dropped.
        Option ``v`` of the file is option ``v - 1``, or with ``problem``
        (an ``ExactCover``) the option DLX6 numbers ``v`` in it.

        Args:
            file: A path or a text file open for reading.
            problem: The problem DLX6 read, to number the options as it
                did (only options with a primary item count).

        Returns:
            The diagram, reduced.

        Raises:
            ValueError: A line that is not ``id: (~v?lo:hi)`` or breaks
                the format, or a path that meets an option twice (naming
                the file and the line), or a file that is not UTF-8 text.
            OSError: The path cannot be read.
        """
        source = (
            os.fspath(file)
            if isinstance(file, (str, os.PathLike))
            else getattr(file, "name", "ZDD text")
        )
        text = read_text(file, name=str(source))  # NotText names it
        numbering = None
        back = None
        if problem is not None:
            numbering = dlx6_numbering(problem)
            back = np.flatnonzero(numbering > 0)  # back[v - 1]: option
        ids = {0: 0, 1: 1}
        unique: dict = {}
        var: list = [-1, -1]
        lo: list = [0, 0]
        hi: list = [0, 0]
        made: list = [(0, "", "")] * 2  # each node's line, id, option
        root = None
        last_line = 0
        for number, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            m = _LINE.fullmatch(line.strip())
            if m is None:
                raise ValueError(
                    f"{source}:{number}: not a ZDD node line "
                    f"'id: (~v?lo:hi)': {shorten(line.strip())}"[:200]
                )
            if root is not None:
                raise ValueError(
                    f"{source}:{number}: a line after the root line (~0?0:r)"
                )
            node, v = int(m[1], 16), int(m[2])
            kids = []
            for child in (m[3], m[4]):
                c = ids.get(int(child, 16))
                if c is None:
                    raise ValueError(
                        f"{source}:{number}: node {m[1]} "
                        f"refers to {child}, which no line "
                        f"above defines"
                    )
                kids.append(c)
            if node in ids:
                raise ValueError(
                    f"{source}:{number}: node {m[1]} is defined twice"
                )
            if v == 0:
                if kids[0] != 0:
                    raise ValueError(
                        f"{source}:{number}: variable 0 is "
                        f"the dummy root, (~0?0:r)"
                    )
                root = kids[1]
                continue
            last_line = number
            if back is not None:
                if v > len(back):
                    raise ValueError(
                        f"{source}:{number}: option {v}, but "
                        f"the problem has {len(back)} options "
                        f"with a primary item"
                    )
                v = int(back[v - 1])
            else:
                v -= 1
            if kids[1] == 0:
                ids[node] = kids[0]
                continue
            key = (v, kids[0], kids[1])
            n = unique.get(key)
            if n is None:
                n = len(var)
                unique[key] = n
                var.append(v)
                lo.append(kids[0])
                hi.append(kids[1])
                made.append((number, m[1], m[2]))
            ids[node] = n
        if root is None:
            raise ValueError(
                f"{source}: no root line (~0?0:r) after line {last_line}"
            )
        twice = _repeated_option(var, lo, hi)
        if twice is not None:
            line, node, option = made[twice]
            raise ValueError(
                f"{source}:{line}: option {option} appears again below "
                f"node {node}: no path of a ZDD has an option twice"
            )
        var, lo, hi, root = _reachable(
            np.array(var, np.int64),
            np.array(lo, np.int64),
            np.array(hi, np.int64),
            root,
        )
        return cls(var, lo, hi, root, numbering=numbering)

    # -- export ---------------------------------------------------------------
    def to_graphillion(self):
        """The solutions as a Graphillion ``setset`` (the ``graphillion``
        package: ``pip install dlx-toolkit[zdd]``), each the set of its
        option numbers, for its filters, iterators and set algebra.

        Graphillion keeps one universe (the variables, in a fixed order)
        for the whole process: it is set to the options that the ZDD uses
        when none is set yet, and must hold them all otherwise.  The
        diagram is rebuilt node by node in Graphillion's own order (one
        union and one join a node), so it costs far less than the
        solutions when they are many.

        Returns:
            A ``graphillion.setset`` of the solutions.

        Raises:
            ImportError: Graphillion is not installed.
            ValueError: Graphillion's universe lacks an option of the
                diagram.
        """
        from graphillion import setset

        used = sorted(set(self.var[2 : self.root + 1].tolist()))
        universe = setset.universe()
        if not universe:
            setset.set_universe(used or [0])
        elif not set(used) <= set(universe):
            missing = sorted(set(used) - set(universe))
            raise ValueError(
                f"Graphillion's universe lacks options "
                f"{missing[:5]}; set one that holds every "
                f"option (or none)"
            )
        var, lo, hi = self.var.tolist(), self.lo.tolist(), self.hi.tolist()
        families = [setset([]), setset([set()])]
        for v in range(2, self.root + 1):
            families.append(
                families[lo[v]] | families[hi[v]].join(setset([{var[v]}]))
            )
        return families[self.root]


_LINE = re.compile(
    r"([0-9a-fA-F]+):\s*\(~(\d+)\?([0-9a-fA-F]+):"
    r"([0-9a-fA-F]+)\)"
)


def _repeated_option(var: list, lo: list, hi: list) -> int | None:
    """The first node (children before parents) whose option appears
    again below it, on its ``lo`` or its ``hi`` side, or None: in a ZDD
    no path meets an option twice (any order of the options on a path is
    fine; DLX6's is the search's).  Each node's set of options below it
    is a bit set, dropped once its last parent has been seen, so only
    the sets of the diagram's frontier are alive at once."""
    parents = [0] * len(var)
    for k in range(2, len(var)):
        parents[lo[k]] += 1
        parents[hi[k]] += 1
    below: dict[int, int] = {0: 0, 1: 0}
    for k in range(2, len(var)):
        a, b = lo[k], hi[k]
        under = below[a] | below[b]
        if under >> var[k] & 1:
            return k
        for child in (a, b):
            parents[child] -= 1
            if parents[child] == 0 and child > 1:
                del below[child]
        below[k] = under | (1 << var[k])
    return None


def _reachable(var, lo, hi, root):
    """The nodes ``root`` reaches, renumbered in the same order."""
    n = len(var)
    keep = np.zeros(n, bool)
    keep[root] = True
    lo_l, hi_l = lo.tolist(), hi.tolist()
    for v in range(root, 1, -1):
        if keep[v]:
            keep[lo_l[v]] = True
            keep[hi_l[v]] = True
    keep[:2] = True
    if keep.all():
        return var, lo, hi, root
    new = np.cumsum(keep) - 1
    return (var[keep], new[lo[keep]], new[hi[keep]], int(new[root]))


def dlx6_numbering(problem) -> np.ndarray:
    """Each option's number in DLX6's files: from 1 in input order,
    counting only options that have a primary item; -1 for the others."""
    s = problem.structure()
    has = np.zeros(len(s.sizes), bool)
    owner = np.repeat(np.arange(len(s.sizes)), s.sizes)
    has[owner[s.members <= s.nprimary]] = True
    out = np.full(len(problem), -1, np.int64)
    out[has] = np.arange(1, int(has.sum()) + 1)
    return out


# -- building: the memoized search -------------------------------------------


@dataclass
class ZddStats(memo.MemoStats):
    """The work of ``ExactCover.zdd``: ``dlx.services.memo.MemoStats`` (the search
    and its memo) and ``zdd_nodes``, the nodes of the diagram."""

    zdd_nodes: int = 0

    def __str__(self) -> str:
        return super().__str__().removesuffix(
            "."
        ) + f"; {self.zdd_nodes:,} ZDD nodes.".replace(",", " ")


class _TooBig(Exception):
    """The diagram needs more than its memory limit."""


class NodeStore:
    """The diagram's arrays while the search builds it, as the kernel
    takes them (``var lo hi``, the ``unique`` table, ``made``: the next
    node's number), grown by doubling within ``limit`` bytes."""

    def __init__(self, limit: int):
        self.limit = limit
        capacity = _FIRST_NODES
        while capacity > 2 and capacity * BUILD_NODE_BYTES > limit:
            capacity //= 2
        self.var = np.zeros(capacity, np.int32)
        self.lo = np.zeros(capacity, np.int32)
        self.hi = np.zeros(capacity, np.int32)
        self.unique = np.zeros(2 * capacity, np.int32)
        self.made = np.array([2], np.int64)

    def grow(self) -> None:
        capacity = 2 * len(self.var)
        if capacity * BUILD_NODE_BYTES > self.limit or capacity > 1 << 31:
            raise _TooBig()
        for name in ("var", "lo", "hi"):
            old = getattr(self, name)
            new = np.zeros(capacity, np.int32)
            new[: len(old)] = old
            setattr(self, name, new)
        self.unique = np.zeros(2 * capacity, np.int32)
        M.unique_rehash(
            self.var, self.lo, self.hi, int(self.made[0]), self.unique
        )


def build(
    problem,
    given=(),
    max_nodes=None,
    time_limit=None,
    *,
    memo_bytes=None,
    zdd_bytes=None,
    choose="auto",
    limb_bits=62,
    min_cost=1,
    by_parts=True,
) -> ZDD:
    """The ZDD of the solutions of ``problem`` (see ``ExactCover.zdd``):
    by parts where it falls apart (``dlx.services.parts.falls_apart``: a
    problem, with or without colors and bounds, whose items fall into
    components or have a cut item, its givens chosen), else by the
    memoized search on the whole.

    ``limb_bits`` (62 as in ``dlx.services.memo.count``) and ``min_cost`` are that
    function's test knobs: narrow limbs make counts overflow and the
    search restart; entries whose search took fewer nodes are not kept.
    ``by_parts=False`` builds on the whole problem whatever it looks like,
    ``by_parts="always"`` by the parts' driver whatever the root check
    says (a connected problem without a cut item is then one part): for
    the tests and the bench.
    """
    max_nodes = search.whole_number("max_nodes", max_nodes, optional=True)
    time_limit = search.seconds("time_limit", time_limit)
    memo_bytes = search.whole_number(
        "memo_bytes",
        memo.DEFAULT_MEMO_BYTES if memo_bytes is None else memo_bytes,
    )
    zdd_bytes = search.whole_number(
        "zdd_bytes", DEFAULT_ZDD_BYTES if zdd_bytes is None else zdd_bytes
    )
    if not isinstance(choose, str) or choose not in memo.CHOICE_RULES:
        raise ValueError(
            f"choose must be one of "
            f"{', '.join(memo.CHOICE_RULES)}; got {shorten(choose)}"
        )
    if problem.kind not in memo.MEMO.kinds:
        raise refuse(
            "the ZDD of the solutions",
            problem.kind,
            instead="count or list them without it",
        )
    given = problem.given_options(given)
    if by_parts == "always" or (
        by_parts and parts.falls_apart(problem, given) is not None
    ):
        return _PartsBuild(
            problem,
            max_nodes,
            time_limit,
            dict(
                memo_bytes=memo_bytes,
                choose=choose,
                limb_bits=limb_bits,
                min_cost=min_cost,
            ),
            zdd_bytes,
        ).run(given)
    if choose == "auto":
        choose = memo.choose_rule(problem)
    engine = memo.MEMO
    arrays = engine.arrays(problem)
    nwords, keyinfo = memo.key_layout(problem)
    store = NodeStore(zdd_bytes)
    run = engine.start(
        arrays,
        engine.option_nodes(arrays, given),
        nwords=nwords,
        memo_bytes=memo_bytes,
        rule=M.FIRST if choose == "first" else M.MRV,
        limb_bits=limb_bits,
        min_cost=min_cost,
        keyinfo=keyinfo,
        zdd=store,
        bounds=memo.memo_bounds(problem),
    )
    stats = problem.stats = ZddStats(complete=False, choose=choose)
    stats.updates = run.counters[1]
    if run.clash:
        root = 0
    elif run.covered:
        stats.nodes = stats.solutions = 1
        root = 1
    else:
        try:
            for _ in search.run(
                run,
                stats,
                limit=None,
                max_nodes=max_nodes,
                time_limit=time_limit,
                store=False,
                given=[],
                progress=lambda r, s: r.record(s),
            ):
                pass
        except _TooBig:
            run.record(stats)
            raise BudgetExhausted(
                f"the ZDD outgrew zdd_bytes={zdd_bytes} at "
                f"{int(store.made[0]) - 2} nodes; the diagram so far is "
                f"partial",
                stats.solutions,
                stats,
            ) from None
        root = int(run.chain[0])
    made = int(store.made[0])
    return _finish(
        problem,
        store.var[:made],
        store.lo[:made],
        store.hi[:made],
        root,
        given,
        stats,
    )


def _finish(problem, var, lo, hi, root, given, stats) -> ZDD:
    """The diagram of the nodes ``root`` reaches, with a node above it for
    each given option (every solution holds them)."""
    made = len(var)
    if root != made - 1:
        var, lo, hi, root = _reachable(var, lo, hi, root)
        made = len(var)
    if given and root != 0:
        extra = len(given)
        var = np.concatenate([var, np.array(sorted(given), np.int32)])
        lo = np.concatenate([lo, np.zeros(extra, np.int32)])
        hi = np.concatenate(
            [hi, np.arange(made - 1, made + extra - 1, dtype=np.int32)]
        )
        hi[made] = root
        root = made + extra - 1
    stats.complete = True
    stats.zdd_nodes = len(var) - 2
    return ZDD(
        var,
        lo,
        hi,
        root,
        numbering=dlx6_numbering(problem),
        costs=getattr(problem, "costs", None),
    )


# -- building by parts ----------------------------------------------------------


@dataclass
class ZddPartsStats(ZddStats, parts.PartsStats):
    """The work of ``ExactCover.zdd`` on a problem that falls apart: the
    figures of ``dlx.services.parts.PartsStats`` summed over the parts'
    builds, and ``zdd_nodes``, the nodes of the diagram."""


class _Sub(NamedTuple):
    """A subproblem of the problem being built: its options (the
    problem's option numbers, ascending) over its active items (the
    problem's item numbers, ascending: the primary ones first), and with
    bounds each active primary item's ``(u, v)`` still to meet (as
    ``parts.Part.bounds``), or None."""

    options: np.ndarray
    items: np.ndarray
    bounds: np.ndarray | None = None


class _PartsBuild:
    """The ZDD of a problem that falls apart, built as
    ``dlx.services.parts`` counts it: a part that falls apart is the
    product of its components' diagrams (each one's 1 sink replaced by the
    next one's root: their options are disjoint, so no path meets one
    twice), a connected part with a cut item the chain of that item's
    options ``(p_k ? Z_k : (... (p_1 ? Z_1 : 0)))`` over what each leaves
    (with bounds, the union over the sets of its options that meet them:
    ``_branch``), and a connected part without one the memoized search's
    diagram (its option ``k`` the part's ``k``-th option; with bounds,
    each primary item's ``(u, v)`` still to meet, ``parts.bounds_of``).
    A subproblem carries that slack (``_Sub.bounds``): options chosen
    above it (the givens, a cut's branch) lower their items' bounds as
    ``parts`` does.  Every part's diagram is
    remembered under its shape (``parts.Part.shape``): a part of the same
    shape over other options (an identical room) is that diagram with its
    options renamed.  Nodes go through one unique table, children before
    parents, so the diagram is reduced."""

    def __init__(self, problem, max_nodes, time_limit, knobs, zdd_bytes):
        c = problem.csr()
        self.make_problem = type(problem).from_arrays
        self.problem = problem
        self.nprimary = c.nprimary
        self.indptr = c.indptr.astype(np.int64)
        self.indices = c.indices.astype(np.int64)
        self.colors = None if c.colors is None else c.colors.astype(np.int64)
        self.bounds = c.bounds  # {item (from 1): (u, v)}, or empty/None
        self.local = np.full(c.nitems, -1, np.int64)  # scratch, see _part
        self.limits = parts.Limits(max_nodes, time_limit)
        self.knobs = knobs
        self.zdd_bytes = zdd_bytes
        self.most_nodes = zdd_bytes // BUILD_NODE_BYTES
        self.var: list[int] = [-1, -1]
        self.lo: list[int] = [0, 0]
        self.hi: list[int] = [0, 0]
        self.unique: dict[tuple[int, int, int], int] = {}
        # shape -> (node, the options it was built over)
        self.table: dict[bytes, tuple[int, np.ndarray]] = {}
        self.stats = ZddPartsStats(complete=False, choose=knobs["choose"])

    # -- nodes --------------------------------------------------------------
    def node(self, v: int, lo: int, hi: int) -> int:
        """The node ``(v ? hi : lo)``, reduced: ``lo`` when ``hi`` is the
        empty family, an existing node when there is one alike."""
        if hi == 0:
            return lo
        key = (v, lo, hi)
        n = self.unique.get(key)
        if n is None:
            n = len(self.var)
            if n - 1 > self.most_nodes:
                raise self._too_big()
            self.unique[key] = n
            self.var.append(v)
            self.lo.append(lo)
            self.hi.append(hi)
        return n

    def copy(self, root: int, rename=None, top: int = 1) -> int:
        """The diagram at ``root`` with its options renamed (``rename``: a
        function of an option) and its 1 sink replaced by ``top``."""
        if root < 2:
            return top if root == 1 else 0
        below = {root}
        stack = [root]
        lo, hi = self.lo, self.hi
        while stack:
            v = stack.pop()
            for child in (lo[v], hi[v]):
                if child > 1 and child not in below:
                    below.add(child)
                    stack.append(child)
        new = {0: 0, 1: top}
        var, node, unique = self.var, self.node, self.unique
        for v in sorted(below):  # children before parents
            x = var[v] if rename is None else rename(var[v])
            low, high = new[lo[v]], new[hi[v]]
            # (node's fast path, inline: the copies are most of a product)
            made = unique.get((x, low, high)) if high else None
            new[v] = node(x, low, high) if made is None else made
        return new[root]

    # -- parts ----------------------------------------------------------------
    def _part(self, sub: _Sub) -> tuple[parts.Part, _Sub]:
        """The subproblem as a ``parts.Part`` (its items numbered in order),
        and the subproblem without the options that have no active primary
        item (no search chooses them) nor the secondary items left in no
        option: the part's options and items, in order."""
        indptr, options, items = self.indptr, sub.options, sub.items
        starts, sizes = indptr[options], indptr[options + 1] - indptr[options]
        owner = np.repeat(np.arange(len(options)), sizes)
        members = np.repeat(starts - (np.cumsum(sizes) - sizes), sizes)
        members += np.arange(len(members))
        self.local[items] = np.arange(len(items))
        at = self.local[self.indices[members]]
        self.local[items] = -1
        kept = at >= 0
        nprimary = int(np.searchsorted(items, self.nprimary))
        has_primary = np.zeros(len(options), np.bool_)
        has_primary[owner[kept & (at < nprimary)]] = True
        kept &= has_primary[owner]
        used = np.zeros(len(items), np.bool_)
        # A primary item stays, in an option or not (then the part has no
        # solution), unless its bounds are (0, v) and no option holds it.
        used[:nprimary] = True if sub.bounds is None else sub.bounds[:, 0] > 0
        used[at[kept]] = True
        bounds = None if sub.bounds is None else sub.bounds[used[:nprimary]]
        nprimary = int(used[:nprimary].sum())
        number = np.cumsum(used) - 1
        new_indptr = np.zeros(int(has_primary.sum()) + 1, np.int64)
        np.cumsum(
            np.bincount(owner[kept], minlength=len(options))[has_primary],
            out=new_indptr[1:],
        )
        part = parts.Part(
            nprimary,
            int(used.sum()),
            new_indptr,
            number[at[kept]],
            None if self.colors is None else self.colors[members[kept]],
            bounds,
        )
        return part, _Sub(options[has_primary], items[used], bounds)

    def _choose(self, sub: _Sub, chosen, close: int = -1) -> _Sub | None:
        """What is left of ``sub`` once the options ``chosen`` are chosen
        (None when they clash), as ``parts`` chooses them: their active
        items go, and with them every option that holds one of their
        primary items, one of their uncolored secondary items, or one of
        their colored secondary items in another color (or none); an
        option that agrees on such a color stays (the item is purified).
        With bounds, a primary item they cover ``c`` times has its
        ``(u, v)`` lowered to ``(max(0, u - c), v - c)`` and goes only
        once ``v - c`` is 0 (more is a clash).  Item ``close`` (-1: none)
        goes in any case."""
        indptr, indices, colors = self.indptr, self.indices, self.colors
        chosen = np.asarray(chosen, np.int64)
        sizes = indptr[chosen + 1] - indptr[chosen]
        mine = np.repeat(indptr[chosen] - (np.cumsum(sizes) - sizes), sizes)
        mine += np.arange(len(mine))
        nprimary = int(np.searchsorted(sub.items, self.nprimary))
        self.local[sub.items] = np.arange(len(sub.items))
        at = self.local[indices[mine]]
        live = at >= 0  # (an item the part no longer has)
        struck = parts.strike(
            nprimary,
            len(sub.items),
            at[live],
            None if colors is None else colors[mine][live],
            sub.bounds,
            -1 if close < 0 else int(self.local[close]),
        )
        if struck is None:
            self.local[sub.items] = -1
            return None
        state, bounds = struck
        options = sub.options
        sizes = indptr[options + 1] - indptr[options]
        owner = np.repeat(np.arange(len(options)), sizes)
        members = np.repeat(
            indptr[options] - (np.cumsum(sizes) - sizes), sizes
        )
        members += np.arange(len(members))
        where = self.local[indices[members]]
        self.local[sub.items] = -1
        seen = where >= 0
        at = np.where(seen, state[np.where(seen, where, 0)], -1)
        bad = parts.struck_members(
            at, None if colors is None else colors[members]
        )
        kept = np.ones(len(options), np.bool_)
        kept[owner[bad]] = False
        # (A chosen option whose bounded items keep slack is not chosen
        # again.)
        kept[np.searchsorted(options, chosen)] = False
        if bounds is not None:
            bounds = bounds[state[:nprimary] < 0]
        return _Sub(options[kept], sub.items[state < 0], bounds)

    # -- the driver -------------------------------------------------------------
    def _too_big(self) -> BudgetExhausted:
        return BudgetExhausted(
            f"the ZDD outgrew zdd_bytes={self.zdd_bytes} at "
            f"{len(self.var) - 2} nodes; the diagram so far is partial",
            0,
            self.stats,
        )

    def _why_stop(self) -> str | None:
        return self.limits.why_stop(self.stats.nodes)

    def diagram(self, sub: _Sub) -> int:
        """The root of ``sub``'s diagram: a product, a chain over a cut
        item's options, or the memoized search's diagram."""
        root, rename = self._diagram(sub)
        return root if rename is None else self.copy(root, rename)

    def _diagram(self, sub: _Sub):
        """``sub``'s diagram as a root and a renaming of its options (None:
        the diagram itself): a repeated shape over other options is the
        first one's diagram, renamed when it is copied (``_product``
        copies each factor once, renaming it on the way)."""
        part, sub = self._part(sub)
        if part.nprimary == 0:
            return 1, None
        degree = np.bincount(part.indices, minlength=part.nitems)
        if (degree[: part.nprimary] < part.lower()).any():
            return 0, None  # a primary item in fewer options than it needs
        key = part.shape()
        known = self.table.get(key)
        if known is not None:
            self.stats.repeats += 1
            root, options = known
            if np.array_equal(options, sub.options):
                return root, None
            rename = dict(zip(options.tolist(), sub.options.tolist()))
            return root, rename.__getitem__
        why = self._why_stop()
        if why is not None:
            raise BudgetExhausted(why, 0, self.stats)
        labels = np.empty(part.nitems, np.int64)
        n = PK.label_components(
            part.indptr, part.indices, part.nitems, -1, labels
        )
        if n > 1:
            self.stats.splits += 1
            root = self._product(part, sub, labels, n)
        else:
            item = (
                -1
                if self.stats.cuts >= parts.MAX_CUTS
                else parts.cut_item(part)
            )
            if item >= 0:
                root = self._branch(part, sub, item)
            else:
                root = self._whole(part, sub)
        self.table[key] = (root, sub.options)
        return root, None

    def _product(self, part, sub: _Sub, labels, n: int) -> int:
        option_label = labels[part.indices[part.indptr[:-1]]]
        primary_label = labels[: part.nprimary]
        pieces = sorted(
            (
                _Sub(
                    sub.options[option_label == c],
                    sub.items[labels == c],
                    None
                    if sub.bounds is None
                    else sub.bounds[primary_label == c],
                )
                for c in range(n)
            ),
            key=lambda piece: len(piece.options),
        )
        factors = []
        for piece in pieces:
            root, rename = self._diagram(piece)
            if root == 0:
                return 0
            factors.append((root, rename))
        # Every factor but the last (the largest) is copied, its sink 1
        # replaced by the product below it, renamed on the way when it
        # repeats a shape (one copy each, not a rename and then a copy).
        root, rename = factors.pop()
        if rename is not None:
            root = self.copy(root, rename)
        for below, rename in reversed(factors):
            root = self.copy(below, rename, top=root)
        return root

    def _branch(self, part, sub: _Sub, item: int) -> int:
        """The union, over the sets of ``item``'s options ``p_1 .. p_d``
        that meet its bounds ``(u, v)`` (one option each without bounds),
        of the set times the diagram of what is left once it is chosen
        and no other option may cover ``item`` (``parts`` counts the same
        branches).  No diagram below holds a ``p_j`` (``item`` goes with
        all its options), so the union is a tree of decisions on
        ``p_d``, then ``p_{d-1}``, ... down to the sets' diagrams: for an
        item ``1..1`` the chain ``(p_d ? Z_d : (... (p_1 ? Z_1 : 0)))``."""
        self.stats.cuts += 1
        self.stats.nodes += 1  # the branching, as a search counts it
        owner = np.repeat(
            np.arange(len(part.indptr) - 1), np.diff(part.indptr)
        )
        holders = sub.options[owner[part.indices == item]].tolist()
        low, high = (1, 1) if sub.bounds is None else sub.bounds[item]
        low, high = int(low), min(int(high), len(holders))
        close = int(sub.items[item])
        below: dict[tuple[int, ...], int] = {}
        for size in range(low, high + 1):
            for chosen in combinations(holders, size):
                rest = self._choose(sub, chosen, close)
                if rest is not None:
                    below[chosen] = self.diagram(rest)

        def tree(j: int, chosen: tuple[int, ...]) -> int:
            # The sets that agree with ``chosen`` on p_{j+1} .. p_d.
            if len(chosen) > high:
                return 0
            if j == 0:
                return below.get(chosen, 0)
            option = holders[j - 1]
            return self.node(
                option, tree(j - 1, chosen), tree(j - 1, (option, *chosen))
            )

        return tree(len(holders), ())

    def _whole(self, part, sub: _Sub) -> int:
        """A connected part, built by the memoized search as a whole."""
        self.stats.parts += 1
        problem = self.make_problem(
            part.indptr,
            part.indices,
            part.nprimary,
            part.nitems - part.nprimary,
            colors=part.colors,
            bounds=parts.bounds_of(part),
        )
        nodes, seconds = self.limits.left(self.stats.nodes)
        room = self.zdd_bytes - (len(self.var) - 2) * BUILD_NODE_BYTES
        try:
            z = build(
                problem,
                (),
                nodes,
                seconds,
                zdd_bytes=max(0, room),
                by_parts=False,
                **self.knobs,
            )
        except (BudgetExhausted, KeyboardInterrupt) as e:
            self.stats.add(getattr(e, "stats", None) or problem.stats)
            if isinstance(e, BudgetExhausted) and "outgrew zdd_bytes" in str(
                e
            ):
                raise self._too_big() from None  # in the whole's words
            raise
        self.stats.add(problem.stats)
        names = sub.options.tolist()
        var, lo, hi = z.var.tolist(), z.lo.tolist(), z.hi.tolist()
        new = [0, 1]
        for v in range(2, z.root + 1):
            new.append(self.node(names[var[v]], new[lo[v]], new[hi[v]]))
        return new[z.root]

    def run(self, given: list[int]) -> ZDD:
        stats = self.problem.stats = self.stats
        # Every option and item: the first _part drops what no search meets.
        bounds = None
        if self.bounds:
            bounds = np.ones((self.nprimary, 2), np.int64)
            for item, uv in self.bounds.items():  # (items from 1)
                bounds[item - 1] = uv
        sub: _Sub | None = _Sub(
            np.arange(len(self.indptr) - 1), np.arange(len(self.local)), bounds
        )
        clash = False
        for option in given:
            # A given an earlier one struck: no solution.
            assert sub is not None
            k = np.searchsorted(sub.options, option)
            if k == len(sub.options) or sub.options[k] != option:
                clash = True
                break
            sub = self._choose(sub, [option])
            if sub is None:
                clash = True
                break
        try:
            root = 0 if clash or sub is None else self.diagram(sub)
        except (BudgetExhausted, KeyboardInterrupt) as e:
            stats.seconds = self.limits.seconds()
            if isinstance(e, BudgetExhausted):
                why = self._why_stop() or str(e).split(" with ")[0]
                raise BudgetExhausted(why, 0, stats) from None
            raise Interrupted(0, stats) from None
        # Copies leave their originals behind: keep what the root reaches.
        var, lo, hi, root = _reachable(
            np.array(self.var, np.int32),
            np.array(self.lo, np.int32),
            np.array(self.hi, np.int32),
            root,
        )
        z = _finish(self.problem, var, lo, hi, root, given, stats)
        stats.solutions = z.count()
        stats.seconds = self.limits.seconds()
        return z
