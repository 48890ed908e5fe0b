"""Values of many sub-rows of one row: ``Intervals``.

The kept boundaries of a sub-row [L, R) are two paths of static forests (the decreasing and
the increasing part of its reduced form, research/window.md §2) joined by the minimum block;
both paths' blocks decrease away from the ends, so the Greedy alternating sum is a merge of
two sorted runs, each run one jump-pointer search plus a difference of path sums.
"""

from __future__ import annotations

import decimal
import operator
from array import array
from typing import Any

from . import _core
from ._coins import FLOAT64, INT64, OBJECTS, column, unify
from ._game import _EXACT_DECIMAL, Number, _Coins, _exact

__all__ = ["Intervals"]


def _bounds_array(values: Any, what: str) -> array:
    """Any integer sequence or buffer as ``array('q')``; ``TypeError`` naming bad entries."""
    col = column(values, what)
    if col.kind == INT64:
        return col.data if isinstance(col.data, array) else array("q", col.data)
    for index, x in enumerate(col.data):
        if not isinstance(x, int):
            raise TypeError(f"{what}: entry {index} is {x!r}; slice bounds must be integers")
    # Python ints beyond int64 are clamped like slice bounds.
    limit = 2**62
    return array("q", [max(-limit, min(limit, x)) for x in col.data])


class Intervals:
    """Values of sub-rows: ``Intervals(row).value(start, stop) == value(row[start:stop])``.

    Built once in O(n log n) time and O(n) memory; a query costs O((1 + r) log n), where r is
    the number of runs when the two sides of the sub-row's reduced form are merged: small on
    random, sorted and random-walk rows (about 1 microsecond per query at n = 10^6), up to
    about n/10 on V-shaped rows. Bounds follow Python's slice convention.

    Exact like ``value``: for int64 rows whose alternating prefix sums pass 2^59 in magnitude,
    big ints, ``Fraction`` and ``Decimal``, each query is solved by the exact linear-time
    kernel instead: O(stop - start) per query.

    >>> iv = Intervals([1, 2, 1000, 3, 4, 900])
    >>> iv.value(0, 6), iv.value(1, 4), iv.value(-2, None)
    (1892, -995, 896)
    >>> list(iv.values([0, 2], [3, 6]))
    [999, 101]
    """

    __slots__ = ("_coins", "_n", "_kernel")

    def __init__(self, row: Any) -> None:
        col = column(row, "row")
        kind, exact_type = unify([col], "row")
        data = col.data if kind == OBJECTS else memoryview(col.data)
        self._n = n = len(col)
        self._coins = _Coins(kind, exact_type, data, (0,), (n,), 1)
        self._kernel: Any = None
        if kind != OBJECTS:
            kernel = _core.SubRows(data, 1 if kind == FLOAT64 else 0)
            if kernel.status == _core.STATUS_NOT_FINITE:
                bad = kernel.bad_index
                raise ValueError(
                    f"row: coin at index {bad} is {self._coins.coin(bad)!r}; coins must be finite"
                )
            if kernel.status == _core.STATUS_OK:
                self._kernel = kernel

    def __len__(self) -> int:
        return self._n

    def _exact_value(self, start: int, stop: int) -> Number:
        if stop <= start:
            return _exact(self._coins, 0)
        with decimal.localcontext(_EXACT_DECIMAL):
            result = _core.game_value_objects(self._coins.objects(), array("q", (start,)),
                                              array("q", (stop,)), 1)
        return _exact(self._coins, result)

    def value(self, start: int | None = None, stop: int | None = None) -> Number:
        """The value of ``row[start:stop]`` for the player to move (0 if it is empty).

        >>> Intervals([3, 2, 2, 3, 1, 2]).value(1, 5)
        2
        """
        bounds = []
        for bound in (start, stop):
            if bound is not None:
                if isinstance(bound, bool):
                    raise TypeError(f"slice bounds must be integers or None, got {bound!r}")
                try:
                    bound = operator.index(bound)
                except TypeError:
                    raise TypeError(
                        f"slice bounds must be integers or None, got {bound!r}"
                    ) from None
            bounds.append(bound)
        lo, hi, _ = slice(*bounds).indices(self._n)
        if hi < lo:
            hi = lo
        if self._kernel is not None:
            ok, result = self._kernel.value(lo, hi)
            if ok:
                return result
        return self._exact_value(lo, hi)

    def values(self, starts: Any, stops: Any) -> array | list:
        """The values of ``row[starts[q]:stops[q]]`` for every q.

        ``starts`` and ``stops`` are integer sequences or buffers of one length. Returns an
        ``array('q')`` for int rows (``array('d')`` for float rows) computed without the GIL,
        or a list for exact numbers (Fraction, Decimal, and int results beyond int64).

        >>> list(Intervals([3, 2, 2, 3, 1, 2]).values([0, 1, 5], [6, 5, 5]))
        [3, 2, 0]
        """
        lo = _bounds_array(starts, "starts")
        hi = _bounds_array(stops, "stops")
        m = len(lo)
        if len(hi) != m:
            raise ValueError(f"starts has {m} entries but stops has {len(hi)}")
        kind = self._coins.kind
        if self._kernel is None:
            out_list = []
            for q in range(m):
                a, b, _ = slice(lo[q], hi[q]).indices(self._n)
                out_list.append(self._exact_value(a, b))
            return out_list
        out = array("d" if kind == FLOAT64 else "q", bytes(8 * m))
        ok = array("B", bytes(m))
        bad = self._kernel.values(lo, hi, out, ok)
        if not bad:
            return out
        result = out.tolist()
        for q in range(m):
            if not ok[q]:
                a, b, _ = slice(lo[q], hi[q]).indices(self._n)
                result[q] = self._exact_value(a, b)
        try:
            return array("q", result)
        except OverflowError:
            return result
