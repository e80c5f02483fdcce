"""Checks of what a user hands the model: colors and bounds.

Vocabulary (Knuth, TAOCP 7.2.2.1): in an XCC problem an option may give a
secondary item a *color*; options of one solution may share a secondary
item only if they all give it the same color (an uncolored use excludes
every other use).  In an MCC problem a primary item may carry *bounds*
``u..v``: it is covered at least ``u`` and at most ``v`` times.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from .shorten import shorten


def _is_int(value: object) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(
        value, (bool, np.bool_)
    )


#: Bounds above this are kept as this (``check_bounds``).  An item lies in
#: fewer options than that in any problem the kernels' int32 arrays can
#: hold (each of its options takes a node and a spacer there), so
#: ``v >= MAX_BOUND`` means "any number of its options" and ``u >=
#: MAX_BOUND`` "never covered enough" before and after; and the kernels'
#: own sums of bounds and lengths stay far from int32's limit.
MAX_BOUND = 2**30


def check_bounds(bounds: Any, index: Mapping, nprimary: int) -> dict:
    """``{item number (1-based): (u, v)}`` from ``{item: (u, v)}`` (or
    ``{item: v}``, meaning ``v..v``), every bound checked: the item must be
    primary, ``0 <= u <= v`` and ``v >= 1``.

    ``u`` and ``v`` above ``MAX_BOUND`` are kept as ``MAX_BOUND``: more
    than the item's options either way, so the solutions are the same,
    and no kernel ever sees a bound beyond its integers (a bound of
    ``2**32 + 1`` once wrapped to 1 in a 32-bit array)."""
    if bounds is None:
        return {}
    if not isinstance(bounds, Mapping):
        raise TypeError(
            f"bounds must be a mapping {{item: (u, v)}}, got "
            f"{type(bounds).__name__}"
        )
    checked = {}
    for item, bound in bounds.items():
        try:
            k = index.get(item)
        except TypeError:
            k = None
        if k is None:
            raise ValueError(f"bounds for {shorten(item)}: no such item")
        if k > nprimary:
            raise ValueError(
                f"bounds for {shorten(item)}: only primary items "
                f"take bounds, and {shorten(item)} is secondary"
            )
        if _is_int(bound):
            u = v = bound
        else:
            try:
                u, v = bound
            except (TypeError, ValueError):
                raise ValueError(
                    f"bounds for {shorten(item)} must be a pair "
                    f"(u, v) or one number, got "
                    f"{shorten(bound)}"
                ) from None
        if not (_is_int(u) and _is_int(v)):
            raise ValueError(
                f"bounds for {shorten(item)} must be integers, got "
                f"{shorten(bound)}"
            )
        if not 0 <= u <= v or v < 1:
            raise ValueError(
                f"bounds for {shorten(item)} are {u}..{v}; they need "
                f"0 <= u <= v and v >= 1"
            )
        checked[k] = (min(int(u), MAX_BOUND), min(int(v), MAX_BOUND))
    return checked


def check_colors(
    colors: Any, names: tuple, index: Mapping, nprimary: int, where: str
) -> dict:
    """``{position in the option: color}`` from ``{item: color}``, each
    item in the option and secondary, each color hashable."""
    if not isinstance(colors, Mapping):
        raise TypeError(
            f"{where}: colors must be a mapping {{item: "
            f"color}}, got {type(colors).__name__}"
        )
    position = {}
    for k, name in enumerate(names):
        position[name] = k
    checked = {}
    for item, color in colors.items():
        try:
            at = position.get(item)
        except TypeError:
            at = None
        if at is None:
            raise ValueError(
                f"{where} {shorten(list(names))}: color {shorten(color)} "
                f"for item {shorten(item)}, which is not in the "
                f"option"
            )
        if index[item] <= nprimary:
            raise ValueError(
                f"{where} {shorten(list(names))}: color {shorten(color)} "
                f"for primary item {shorten(item)}; only secondary "
                f"items take colors"
            )
        try:
            hash(color)
        except TypeError:
            raise ValueError(
                f"{where}: color {shorten(color)} for item {shorten(item)} "
                f"is not hashable"
            ) from None
        checked[at] = color
    return checked
