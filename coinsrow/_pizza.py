"""Winkler's pizza with the whole pizza intact: the first player takes any slice, then the
players alternately take a slice next to the gap, so the rest is a row game.

The seed paper (000, "Conclusions") leaves the first move open in o(n^2). With the window
structure (research/window.md) the row left after slice i is the window c[i+1 .. i+n-1] of
the doubled circle c + c; sliding it one slice costs at most 5 tree updates (amortised), so
all n first moves are valued in O(n log n).
"""

from __future__ import annotations

import decimal
from fractions import Fraction
from typing import Any, NamedTuple, cast

from . import _core
from ._coins import FLOAT64, OBJECTS, Buffer1D, column, unify
from ._engine import _ExactWindows
from ._game import _EXACT_DECIMAL, Number, _Coins, _exact, _profits
from array import array

__all__ = ["PizzaResult", "pizza"]


class PizzaResult(NamedTuple):
    """The pizza game: ``value`` = first player's total minus the second's, both optimal;
    ``first_slice`` an optimal first slice (the smallest index on ties); ``first`` and
    ``second`` the players' totals."""

    value: Number
    first_slice: int
    first: Number
    second: Number


def _pizza_exact(circle: list) -> tuple[int, Any]:
    """The same sliding window on exact Python numbers: ``(first_slice, value)``."""
    n = len(circle)
    windows = _ExactWindows([circle + circle], [0], fill=False)
    windows.left[0] = windows.right[0] = 1
    while windows.right[0] < n:
        windows.push_right(0)
    best_index, best = -1, None
    for i in range(n):
        if i > 0:
            windows.pop_left(0)
            windows.push_right(0)
        v = circle[i] - windows.value()
        if best is None or v > best:
            best_index, best = i, v
    return best_index, best


def pizza(circle: Any) -> PizzaResult:
    """Winkler's pizza: slices ``circle[0..n-1]`` around a circle, the whole pizza intact.

    The first player takes any slice; from then on, each player in turn takes a slice next
    to the gap (either end of the row that is left). Returns ``PizzaResult(value,
    first_slice, first, second)``: the first player's advantage with both playing optimally,
    her best first slice (the smallest index on ties) and both totals. The first slice
    answers an open problem of the seed paper in O(n log n) time and O(n) memory: one window
    of the reduced form slides around the circle. Numbers as for ``value``: ints give ints
    (int64 overflow is redone exactly), floats give floats, Fraction/Decimal their type.
    ``ValueError`` for an empty circle.

    >>> pizza([2, 7, 3])
    PizzaResult(value=6, first_slice=1, first=9, second=3)
    >>> pizza([3, 2, 2, 3, 1, 2]).first_slice
    0
    """
    col = column(circle, "circle")
    kind, exact_type = unify([col], "circle")
    n = len(col)
    if n == 0:
        raise ValueError("the circle is empty: there is no first slice")
    data = col.data if kind == OBJECTS else memoryview(cast(Buffer1D, col.data))
    coins = _Coins(kind, exact_type, data, (0,), (n,), 1)
    value: Number
    status = _core.STATUS_OVERFLOW
    if kind != OBJECTS:
        status, first_slice, value, _, bad = _core.window_pizza(cast(Buffer1D, data))
        if status == _core.STATUS_NOT_FINITE:
            raise ValueError(
                f"circle: coin at index {bad} is {coins.coin(bad)!r}; coins must be finite"
            )
    if status != _core.STATUS_OK:
        exact = coins.objects()
        if kind == FLOAT64:  # sums could overflow floats: solve exactly, round at the end
            exact = [Fraction(x) for x in exact]
        with decimal.localcontext(_EXACT_DECIMAL):
            first_slice, value = _pizza_exact(exact)
        value = float(value) if kind == FLOAT64 else _exact(coins, value)
    elif kind == FLOAT64:
        value = float(value)
    bounds = array("q", (0,)), array("q", (n,))
    first, second = _profits(coins, *bounds, value)
    return PizzaResult(value, first_slice, first, second)
