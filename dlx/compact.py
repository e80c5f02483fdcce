"""The compact model: a problem's options as compressed sparse rows.

``ExactCover`` keeps its options here, whichever way they came (one by
one with ``add_option``, from lists, from numpy arrays or a sparse
matrix, from a file): option ``j``'s items are ``indices[indptr[j]:
indptr[j + 1]]``, item numbers counted from 0 (primary items first), in
the order the option lists them.  No Python object is kept per option:

* ``indices`` is in the smallest integer type that holds every item
  number (``item_dtype``: uint8 up to 256 items, uint16 up to 65,536,
  else int32), ``indptr`` in int32 until the members outgrow it;
* both grow in chunks (``Growing``: the capacity doubles), and options
  added one at a time wait in a short Python list until a chunk is full
  or the arrays are read;
* colors are sparse: the member positions that have one and its code
  (int32), nothing for the options without.

Item names, and the tuples of names that ``ExactCover.options`` shows,
are never stored per option: ``OptionsView`` makes the tuples from the
numbers when they are read (a chunk at a time, kept once made).

``checked_csr`` and ``checked_colors`` validate arrays handed over by a
user (``ExactCover.from_arrays``) without a Python loop per option: one
``ValueError`` names the first offending option.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import accumulate
from typing import Any

import numpy as np
from numpy.typing import DTypeLike

from .shorten import shorten

__all__ = [
    "item_dtype",
    "Growing",
    "OptionStore",
    "OptionsView",
    "checked_csr",
    "checked_colors",
    "matrix_rows",
]

INT32_MAX = np.iinfo(np.int32).max

#: Options added one at a time are moved into the arrays when this many
#: of their members are waiting.
PENDING = 1 << 14

#: Up to this many members, the repeat check takes the arrays as int64
#: and int32, so that one compiled version serves every small problem.
SMALL = 1 << 22

#: Options per chunk of names that ``OptionsView`` makes (and keeps).
VIEW_CHUNK = 1 << 10


def item_dtype(nitems: int) -> np.dtype:
    """The smallest integer type for item numbers ``0 .. nitems - 1``."""
    if nitems <= 1 << 8:
        return np.dtype(np.uint8)
    if nitems <= 1 << 16:
        return np.dtype(np.uint16)
    return np.dtype(np.int32)


def offset_dtype(nmembers: int) -> np.dtype:
    """The type of ``indptr`` for ``nmembers`` members in all."""
    return np.dtype(np.int32 if nmembers <= INT32_MAX else np.int64)


class Growing:
    """A 1-D array that grows at its end: ``view()`` is the part in use;
    the capacity doubles when it is full, so appending is amortised."""

    __slots__ = ("buffer", "size")

    def __init__(self, dtype, values=None):
        """Empty, or holding ``values`` (an array of type ``dtype``, taken
        over without a copy)."""
        if values is None:
            self.buffer = np.zeros(0, dtype)
        else:
            self.buffer = np.asarray(values, dtype)
        self.size = len(self.buffer)

    @property
    def dtype(self) -> np.dtype:
        return self.buffer.dtype

    def extend(self, values: Any) -> None:
        n = len(values)
        end = self.size + n
        if end > len(self.buffer):
            grown = np.empty(
                max(end, 2 * len(self.buffer), 16), self.buffer.dtype
            )
            grown[: self.size] = self.buffer[: self.size]
            self.buffer = grown
        self.buffer[self.size : end] = values
        self.size = end

    def widen(self, dtype: DTypeLike) -> None:
        """Hold values of type ``dtype`` from now on."""
        if np.dtype(dtype) != self.buffer.dtype:
            self.buffer = self.buffer[: self.size].astype(dtype)

    def view(self) -> np.ndarray:
        """The values, read-only (no copy)."""
        view = self.buffer[: self.size]
        view.flags.writeable = False
        return view

    def __getstate__(self):
        return (self.buffer[: self.size].copy(),)

    def __setstate__(self, state):
        (self.buffer,) = state
        self.size = len(self.buffer)


class OptionStore:
    """The options of one problem as compressed sparse rows (see the
    module's docstring), with their sparse colors.

    ``append`` takes options as lists (item numbers from 1, as the model
    numbers them, and their sizes), ``extend`` as checked arrays;
    ``arrays()`` hands out ``(indptr, indices)`` and ``colors()``
    ``(positions, codes)``, read-only views of the store.
    """

    __slots__ = (
        "nitems",
        "indptr",
        "indices",
        "color_at",
        "color_code",
        "pending",
        "pending_sizes",
        "pending_at",
        "pending_code",
    )

    def __init__(self, nitems: int):
        self.nitems = nitems
        self.indptr = Growing(np.int32, np.zeros(1, np.int32))
        self.indices = Growing(item_dtype(nitems))
        self.color_at = Growing(np.int64)
        self.color_code = Growing(np.int32)
        self.pending: list[int] = []
        self.pending_sizes: list[int] = []
        self.pending_at: list[int] = []
        self.pending_code: list[int] = []

    def __len__(self) -> int:
        return self.indptr.size - 1 + len(self.pending_sizes)

    @property
    def nmembers(self) -> int:
        return self.indices.size + len(self.pending)

    def append(
        self, numbers: list[int], sizes: list[int], colors: dict
    ) -> None:
        """Add options: ``sizes`` of them, their items ``numbers`` one
        after another (counted from 1, as ``ExactCover`` numbers them),
        ``colors`` ``{option (from 0 here): {position: code}}`` for the
        colored ones."""
        if colors:
            at = self.nmembers
            offsets = [0]
            offsets.extend(accumulate(sizes))
            for k, option in colors.items():
                for position, code in option.items():
                    self.pending_at.append(at + offsets[k] + position)
                    self.pending_code.append(code)
        self.pending.extend(numbers)
        self.pending_sizes.extend(sizes)
        if len(self.pending) >= PENDING:
            self.flush()

    def flush(self) -> None:
        """Move the options waiting in ``pending`` into the arrays."""
        if not self.pending_sizes:
            return
        sizes = np.asarray(self.pending_sizes, np.int64)
        numbers = np.asarray(self.pending, np.int64)
        numbers -= 1
        self._put(sizes, numbers)
        if self.pending_at:
            self.color_at.extend(np.asarray(self.pending_at, np.int64))
            self.color_code.extend(np.asarray(self.pending_code, np.int32))
        self.pending, self.pending_sizes = [], []
        self.pending_at, self.pending_code = [], []

    def _put(self, sizes: np.ndarray, numbers: np.ndarray) -> None:
        end = self.indices.size + len(numbers)
        self.indptr.widen(offset_dtype(end))
        offsets = np.cumsum(sizes)
        offsets += self.indices.size
        self.indptr.extend(offsets)
        self.indices.extend(numbers)

    def extend(
        self,
        indptr: np.ndarray,
        indices: np.ndarray,
        color_at: np.ndarray | None = None,
        color_code: np.ndarray | None = None,
    ) -> None:
        """Add the options of checked CSR arrays (``indptr[0] == 0``);
        ``color_at`` (member positions within ``indices``) and
        ``color_code`` their colors."""
        self.flush()
        base = self.indices.size
        end = base + len(indices)
        self.indptr.widen(offset_dtype(end))
        if base == 0 and self.indptr.size == 1:
            self.indptr = Growing(self.indptr.dtype, indptr)
            self.indices = Growing(self.indices.dtype, indices)
        else:
            tail = indptr[1:].astype(self.indptr.dtype)
            tail += base
            self.indptr.extend(tail)
            self.indices.extend(indices)
        if color_at is not None and len(color_at):
            self.color_at.extend(color_at + base)
            self.color_code.extend(color_code)

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """``(indptr, indices)``: read-only views, no copy."""
        self.flush()
        return self.indptr.view(), self.indices.view()

    def colors(self) -> tuple[np.ndarray, np.ndarray]:
        """``(positions, codes)`` of the colored members, read-only."""
        self.flush()
        return self.color_at.view(), self.color_code.view()

    @property
    def colored(self) -> bool:
        return bool(self.color_at.size or self.pending_at)

    def member_colors(self) -> np.ndarray | None:
        """A color code per member (int32, 0 for none), or None when no
        member has a color."""
        at, code = self.colors()
        if not len(at):
            return None
        out = np.zeros(self.indices.size, np.int32)
        out[at] = code
        return out

    def size(self, option: int) -> int:
        self.flush()
        p = self.indptr.buffer
        return int(p[option + 1] - p[option])

    def option(self, option: int) -> np.ndarray:
        """The item numbers of ``option``."""
        self.flush()
        p = self.indptr.buffer
        return self.indices.buffer[p[option] : p[option + 1]]

    def option_colors(self, option: int) -> dict:
        """``{position: code}`` for the colored members of ``option``."""
        if not self.colored:
            return {}
        self.flush()
        at, code = self.color_at.view(), self.color_code.view()
        p = self.indptr.buffer
        lo, hi = int(p[option]), int(p[option + 1])
        a, b = np.searchsorted(at, (lo, hi))
        return {int(x) - lo: int(c) for x, c in zip(at[a:b], code[a:b])}


class OptionsView(Sequence):
    """``ExactCover.options``: option ``i`` as the tuple of its items'
    names, made from the item numbers when read (a chunk of options at a
    time, each chunk kept once made).  It compares equal to a tuple of
    the same tuples, as the tuple it replaces did."""

    __slots__ = ("_items", "_indptr", "_indices", "_chunks")

    def __init__(self, items: tuple, indptr: np.ndarray, indices: np.ndarray):
        self._items = items
        self._indptr = indptr
        self._indices = indices
        self._chunks: dict = {}

    def __len__(self) -> int:
        return len(self._indptr) - 1

    def _make(self, lo: int, hi: int) -> list[tuple]:
        p = self._indptr
        a, b = int(p[lo]), int(p[hi])
        names = list(map(self._items.__getitem__, self._indices[a:b].tolist()))
        cuts = (p[lo : hi + 1] - a).tolist()
        return [tuple(names[cuts[k] : cuts[k + 1]]) for k in range(hi - lo)]

    def _chunk(self, c: int) -> list[tuple]:
        chunk = self._chunks.get(c)
        if chunk is None:
            lo = c * VIEW_CHUNK
            chunk = self._chunks[c] = self._make(
                lo, min(lo + VIEW_CHUNK, len(self))
            )
        return chunk

    def __getitem__(self, index):
        if isinstance(index, slice):
            return tuple(self[k] for k in range(*index.indices(len(self))))
        try:
            k = index.__index__()
        except AttributeError:
            raise TypeError(
                f"option indices must be integers or slices, "
                f"not {type(index).__name__}"
            ) from None
        if k < 0:
            k += len(self)
        if not 0 <= k < len(self):
            raise IndexError("option index out of range")
        return self._chunk(k // VIEW_CHUNK)[k % VIEW_CHUNK]

    def __iter__(self):
        n = len(self)
        for c in range((n + VIEW_CHUNK - 1) // VIEW_CHUNK):
            chunk = self._chunks.get(c)
            if chunk is None:  # made for the loop, not kept
                lo = c * VIEW_CHUNK
                chunk = self._make(lo, min(lo + VIEW_CHUNK, n))
            yield from chunk

    def __eq__(self, other):
        if isinstance(other, (OptionsView, tuple)):
            return len(self) == len(other) and all(
                a == b for a, b in zip(self, other)
            )
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # equal by content, unhashable

    def __repr__(self) -> str:
        if len(self) <= 20:
            return repr(tuple(self))
        head = ", ".join(repr(self[k]) for k in range(3))
        return f"({head}, ... {len(self) - 3} more options)"


def _integers(name: str, values: Any) -> np.ndarray:
    """``values`` as a 1-D integer array (no copy when it is one)."""
    a = np.asarray(values)
    if a.ndim != 1:
        raise ValueError(f"{name} must be 1-dimensional, got shape {a.shape}")
    if a.dtype.kind not in "iu":
        if a.size:
            raise TypeError(
                f"{name} must be an array of integers, got {a.dtype}"
            )
        a = a.astype(np.int64)  # [] reads as float64
    return a


def _option_of(indptr: np.ndarray, position: int) -> int:
    """The option whose members include ``indices[position]``."""
    return int(np.searchsorted(indptr, position, side="right")) - 1


def checked_csr(
    indptr: Any,
    indices: Any,
    nitems: int,
    repeats: bool = True,
    first: int = 0,
) -> tuple[np.ndarray, np.ndarray]:
    """``(indptr, indices)`` checked and copied into the compact types,
    or ValueError naming the first offending option: ``indptr`` must
    start at 0, never decrease and end at ``len(indices)``; every item
    number must be in ``0 .. nitems - 1``, and no option may list an
    item twice (checked unless ``repeats`` is False: a matrix's rows
    cannot).  The options are named by the numbers they will have in
    the problem: ``first`` (the options it has already) and up."""
    indptr = _integers("indptr", indptr)
    indices = _integers("indices", indices)
    if not len(indptr):
        raise ValueError(
            "indptr is empty; it needs one entry more than "
            "there are options (a problem with no options "
            "has indptr [0])"
        )
    if indptr[0] != 0:
        raise ValueError(f"indptr must start at 0, got {indptr[0]}")
    down = np.flatnonzero(indptr[1:] < indptr[:-1])
    if len(down):
        j = int(down[0])
        raise ValueError(
            f"option {first + j}: indptr[{j + 1}] = {indptr[j + 1]} "
            f"is less than indptr[{j}] = {indptr[j]}"
        )
    if indptr[-1] != len(indices):
        raise ValueError(
            f"indptr ends at {indptr[-1]} but indices has "
            f"{len(indices)} entries"
        )
    if len(indices):
        lo, hi = indices.min(), indices.max()
        if lo < 0 or hi >= nitems:
            t = int(np.flatnonzero((indices < 0) | (indices >= nitems))[0])
            j = first + _option_of(indptr, t)
            raise ValueError(
                f"option {j}: item {indices[t]} is out of range (the "
                f"items are numbered 0 to {nitems - 1})"
                if nitems
                else f"option {j}: item {indices[t]} is out of range "
                f"(there are no items)"
            )
    indptr = indptr.astype(offset_dtype(len(indices)))
    indices = indices.astype(item_dtype(nitems))
    if repeats and len(indices):
        rows = (indptr, indices)
        if len(indices) <= SMALL:  # one compiled version for them all
            rows = (indptr.astype(np.int64), indices.astype(np.int32))
        # The kernel (numba) loads here, not with the model: a command
        # that builds no problem from arrays never pays for it.
        from .kernels import build as B

        option, t = B.first_repeat(*rows, np.full(nitems, -1, np.int64))
        if option >= 0:
            raise ValueError(
                f"option {first + option}: item {indices[t]} appears twice"
            )
    return indptr, indices


def checked_colors(
    colors: Any,
    indptr: np.ndarray,
    indices: np.ndarray,
    nprimary: int,
    first: int = 0,
) -> tuple[np.ndarray, np.ndarray]:
    """``(positions, values)`` of the nonzero entries of ``colors`` (one
    integer per member of ``indices``, 0 for none), or ValueError naming
    the first offending option (numbered from ``first``, as in
    ``checked_csr``): a color must be >= 0 and sit on a secondary item."""
    colors = _integers("colors", colors)
    if len(colors) != len(indices):
        raise ValueError(
            f"colors has {len(colors)} entries but indices "
            f"has {len(indices)}; give one per member (0 for "
            f"none)"
        )
    at = np.flatnonzero(colors)
    values = colors[at]
    bad = np.flatnonzero(values < 0)
    primary = np.flatnonzero(indices[at] < nprimary)
    if len(bad) or len(primary):
        t = int(
            min(
                at[bad[0]] if len(bad) else len(colors),
                at[primary[0]] if len(primary) else len(colors),
            )
        )
        j = first + _option_of(indptr, t)
        if colors[t] < 0:
            raise ValueError(
                f"option {j}: color {colors[t]} for item "
                f"{indices[t]} is negative (colors are "
                f"positive integers, 0 for none)"
            )
        raise ValueError(
            f"option {j}: color {colors[t]} for primary item "
            f"{indices[t]}; only secondary items take colors"
        )
    return at, values


def _is_sparse(matrix: object) -> bool:
    """True for a scipy.sparse matrix or array (without importing scipy:
    a program that has one has scipy loaded already)."""
    return type(matrix).__module__.startswith("scipy.sparse") and hasattr(
        matrix, "tocsr"
    )


def _dense_rows(matrix):
    """``(indptr, indices, columns)`` of a dense 0/1 matrix's rows."""
    try:
        a = np.asarray(matrix)
    except ValueError:  # ragged rows
        raise ValueError("matrix rows must all have the same length") from None
    if a.ndim != 2:
        raise ValueError(f"matrix must be 2-dimensional, got shape {a.shape}")
    if a.dtype.kind not in "biuf":  # None, strings, mixed objects
        a = np.array(matrix, dtype=object)
        for (r, c), value in np.ndenumerate(a):
            if isinstance(value, np.generic):
                value = value.item()
            if isinstance(value, (str, bytes)) or value not in (0, 1):
                raise ValueError(
                    f"matrix entry [{r}, {c}] is {shorten(value)};"
                    f" entries must be 0 or 1"
                )
        a = a.astype(np.int8)
    if a.size and not np.isin(a, (0, 1)).all():
        r, c = np.argwhere(~np.isin(a, (0, 1)))[0]
        raise ValueError(
            f"matrix entry [{r}, {c}] is {shorten(a[r, c].item())}; "
            f"entries must be 0 or 1"
        )
    rows, cols = np.nonzero(a)
    indptr = np.zeros(a.shape[0] + 1, np.int64)
    np.cumsum(np.bincount(rows, minlength=a.shape[0]), out=indptr[1:])
    return indptr, cols, a.shape[1]


def _sparse_rows(matrix):
    """``(indptr, indices, columns)`` of a scipy.sparse 0/1 matrix's rows,
    each row's columns in increasing order (as a dense matrix gives
    them); the matrix itself is left as it was."""
    if len(matrix.shape) != 2:
        raise ValueError(
            f"matrix must be 2-dimensional, got shape {matrix.shape}"
        )
    m = matrix.tocsr()
    if m is matrix:
        m = m.copy()
    m.sum_duplicates()  # also sorts each row's columns
    if m.dtype.kind not in "biuf":
        raise ValueError(
            f"matrix entries must be 0 or 1, got {m.dtype} entries"
        )
    bad = np.flatnonzero((m.data != 0) & (m.data != 1))
    if len(bad):
        t = int(bad[0])
        r = int(np.searchsorted(m.indptr, t, side="right")) - 1
        value = m.data[t].item()
        raise ValueError(
            f"matrix entry [{r}, {m.indices[t]}] is "
            f"{shorten(value)}; entries must be 0 or 1"
        )
    m.eliminate_zeros()
    return m.indptr, m.indices, m.shape[1]


def matrix_rows(matrix):
    """``(indptr, indices, columns)``: the rows of a 0/1 matrix (a dense
    array, anything ``numpy.asarray`` reads, or a scipy.sparse matrix or
    array) as compressed sparse rows, each row's columns in increasing
    order, or a ValueError naming the first entry that is not 0 or 1."""
    if _is_sparse(matrix):
        return _sparse_rows(matrix)
    return _dense_rows(matrix)
