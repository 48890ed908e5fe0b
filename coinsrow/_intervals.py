"""Values of many sub-rows of one row: ``Intervals``.

The reduced form of a sub-row [L, R) is two paths of static forests (its decreasing and its
increasing side, docs/window.md) joined by the minimum block, so its value, the Greedy
alternating sum, is the merge of two sorted lists. The forests are cut into heavy paths: a
side is O(log n) slot ranges, merged in chunks, run by run or from the tables kept for the
pairs of heavy paths that interleave a lot. docs/subrows.md proves it correct and its worst
case, O(sqrt(n) log n) a query.
"""

from __future__ import annotations

import operator
from array import array
from typing import Any, cast

from ._coins import FLOAT64, INT64, OBJECTS, Number, column, storage
from ._dispatch import Answer, run

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

    A query costs O(sqrt(n) log n) in the worst case (proven in docs/subrows.md), O(log n) to
    O(log^2 n) when the two sides of the sub-row interleave little; at n = 10^6 a random query
    takes a few microseconds on every row family measured (V-shaped rows included). The build
    takes O(n log n) time and O(n) memory (about 140 to 185 bytes per coin) plus the tables of
    the heavily interleaved pairs of heavy paths: on V-shaped rows a few, at most (n + 1) / 4
    checkpoints of 16 bytes while that budget suffices; in the worst case O(n^1.5 log n) time
    and O(n log n) memory. Bounds follow Python's slice convention.

    Exact like ``value``: int64 rows whose alternating prefix sums pass 2^59 in magnitude, big
    ints, ``Fraction`` and ``Decimal`` use the exact twin of the structure on Python numbers
    (same bounds, a constant factor slower); so do floats whose magnitudes sum past 1e300,
    as Fractions, the answers rounded once. An int64 query whose partial sums overflow is
    redone on the exact twin (built on the first such query).

    >>> iv = Intervals([1, 2, 1000, 3, 4, 900])
    >>> iv.value(0, 6), iv.value(1, 4), iv.value(-2, None)
    (1892, -995, 896)
    >>> list(iv.values([0, 2], [3, 6]))
    [999, 101]
    """

    __slots__ = ("_coins", "_n", "_structure")

    def __init__(self, row: Any) -> None:
        # A copy: the structure answers queries long after this call, and the exact twin is
        # built from the coins only when a query needs it.
        coins = storage([column(row, "row")], 1, ["row"], where="row")
        self._coins = coins
        self._n = len(coins)
        self._structure = run(coins, "SubRows", answer=Answer.STRUCTURE)

    def __len__(self) -> int:
        return self._n

    # -- copies and pickles: nothing changes an Intervals once built --------------------------

    def __copy__(self) -> Intervals:
        return self

    def __deepcopy__(self, memo: dict) -> Intervals:
        return self

    def __reduce__(self) -> tuple:
        """Pickled as its row (int64 and float64 coins as a compact ``array``); unpickling
        builds the structure again, O(n log n)."""
        coins = self._coins
        row: Any = coins.data
        if coins.kind != OBJECTS:
            row = array("q" if coins.kind == INT64 else "d", row.tobytes())
        return Intervals, (row,)

    def __repr__(self) -> str:
        return f"<Intervals of a row of {self._n} coins>"

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
        answer: Number = self._structure.ask("value", lo, hi if hi > lo else lo)
        return answer

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
        kernel = self._structure.kernel
        ok = array("B", bytes(m))
        if self._structure.machine:
            out: Any = array("d" if kind == FLOAT64 else "q", bytes(8 * m))
            _, overflowed = kernel.values(lo, hi, out, ok)
            if not overflowed:
                return cast(array, out)
            result = out.tolist()
        else:
            result = [0] * m
            kernel.values(lo, hi, result, ok)
        number = self._structure.number
        for q in range(m):
            if not ok[q]:  # an int64 overflow in this query: redone exactly
                a, b, _ = slice(lo[q], hi[q]).indices(self._n)
                result[q] = self._structure.ask("value", a, b if b > a else a)
            else:
                result[q] = number(result[q])
        if kind == FLOAT64:
            return array("d", result)
        if kind == OBJECTS:
            return cast(list, result)
        try:
            return array("q", result)
        except OverflowError:
            return cast(list, result)
