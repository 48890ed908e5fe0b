"""Winkler's pizza with the whole pizza intact: the first player takes any slice, then the
players alternately take a slice next to the gap, so the rest is a row game.

Idziaszek's paper leaves the first move open in o(n^2) ("Conclusions"). With the window
structure (docs/window.md) the row left after slice i is the window c[i+1 .. i+n-1] of the
doubled circle c + c; sliding it one slice costs at most 5 tree updates (amortised), so all
n first moves are valued in O(n log n).
"""

from __future__ import annotations

from typing import Any

from ._coins import row_coins
from ._dispatch import Answer, run
from ._results import PizzaResult

# PizzaResult is imported here under its old name too: pickles name it coinsrow._pizza.
__all__ = ["PizzaResult", "pizza"]


def pizza(circle: Any) -> PizzaResult:
    """Winkler's pizza: slices ``circle[0..n-1]`` around a circle, the whole pizza intact.

    The first player takes any slice; from then on, each player in turn takes a slice next
    to the gap (either end of the row that is left). Returns ``PizzaResult(value,
    first_slice, first, second)``: the first player's advantage with both playing optimally,
    her best first slice (the smallest index on ties) and both totals (for floats, each
    player's slices summed exactly and rounded once). The first slice answers an open problem
    of Idziaszek's paper in O(n log n) time and O(n) memory: one window of the reduced form
    slides around the circle. Numbers as for ``value``: ints give ints (int64 overflow is
    redone exactly), floats give floats, Fraction/Decimal their type. ``ValueError`` for an
    empty circle.

    >>> pizza([2, 7, 3])
    PizzaResult(value=6, first_slice=1, first=9, second=3)
    >>> pizza([3, 2, 2, 3, 1, 2]).first_slice
    0
    """
    coins = row_coins(circle, "circle")
    if len(coins) == 0:
        raise ValueError("the circle is empty: there is no first slice")
    first_slice, value = run(coins, "window_pizza", answer=Answer.INDEXED)
    first, second = run(coins, "pizza_profits", first_slice, answer=Answer.PROFITS)
    return PizzaResult(value, first_slice, first, second)
