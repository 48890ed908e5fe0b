"""The cooperative maximum: the most the first player gets when the second player helps her."""

from __future__ import annotations

from typing import Any

from ._coins import Number, row_coins
from ._dispatch import run

__all__ = ["cooperative_max"]


def cooperative_max(row: Any) -> Number:
    """The largest total the first player can collect on one row when the second player helps.

    The game against a "dumb" (helping) opponent: both players pick their moves to maximise
    the first player's coins, so this is the maximum of her total over all plays of the row.
    ``0`` for an empty row. Exact like ``value``: ints give an ``int`` (int64 overflow is redone on
    Python ints), floats a ``float``, ``Fraction``/``Decimal`` their own type.

    O(n^2) time and O(n) memory: an interval DP by sub-row lengths that keeps one diagonal.
    The loop runs without the GIL and stops on Ctrl-C (``KeyboardInterrupt``); a row of
    10^4 machine numbers takes a small fraction of a second.

    >>> cooperative_max([3, 2, 2, 3, 1, 2])
    8
    >>> cooperative_max([1, 2, 1000, 3, 4, 900])   # 900, 1000 and 4: the helper opens the way
    1904
    """
    answer: Number = run(row_coins(row), "cooperative_max")
    return answer
