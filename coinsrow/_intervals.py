"""Values of many sub-rows of one row: ``Intervals``.

The kept boundaries of a sub-row [L, R) are two paths of static forests (the decreasing and
the increasing part of its reduced form, research/window.md §2) joined by the minimum block;
both paths' blocks decrease away from the ends, so the Greedy alternating sum is a merge of
two sorted runs, each run one jump-pointer search plus a difference of path sums.
"""

from __future__ import annotations

import decimal
import operator
from fractions import Fraction
from array import array
from typing import Any, cast

from . import _core
from ._coins import FLOAT64, INT64, OBJECTS, Buffer1D, column, unify
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


class _ExactSubRows:
    """``_core.SubRows`` on exact Python numbers (ints of any size, Fraction, Decimal).

    The static forests depend only on the order of the keys (h[t], t): the compiled kernel
    builds them from the keys' ranks. Path sums and block comparisons use the exact heights.
    Same bounds as the compiled structure: O(n log n) to build, O((1 + runs) log n) a query.
    """

    def __init__(self, row: list) -> None:
        n = len(row)
        self.n = n
        h: list = [0] * (n + 1)
        for j, x in enumerate(row):
            h[j + 1] = x - h[j]
        self.h = h
        order = sorted(range(n + 1), key=h.__getitem__)  # stable: ties by boundary
        ranks = array("q", bytes(8 * (n + 1)))
        for r, t in enumerate(order):
            ranks[t] = r
        ns, ps, par1, par2 = (array("q", bytes(8 * (n + 1))) for _ in range(4))
        _core.window_forests(ranks, ns, ps, par1, par2)
        self.ns, self.ps = ns, ps
        self.par = (par1, par2)
        self.depth: list[list[int]] = []
        self.jump: list[list[int]] = []
        self.agg: list[list[int]] = []
        self.P: list[list] = []
        for f, par in enumerate(self.par):
            key = ns if f == 0 else ps
            better = max if f == 0 else min
            depth = [0] * (n + 1)
            jump = list(range(n + 1))
            agg = list(key)
            P: list = [0] * (n + 1)
            for x in (range(n, -1, -1) if f == 0 else range(n + 1)):
                p = par[x]
                if p < 0:
                    continue
                depth[x] = depth[p] + 1
                P[x] = h[x] + h[p] - P[p]
                jp = jump[p]
                if par[p] >= 0 and depth[p] - depth[jp] == depth[jp] - depth[jump[jp]]:
                    jump[x] = jump[jp]
                    agg[x] = better(key[p], agg[p], agg[jp])
                else:
                    jump[x] = p
                    agg[x] = key[p]
            self.depth.append(depth)
            self.jump.append(jump)
            self.agg.append(agg)
            self.P.append(P)

    def _path_end(self, f: int, x: int, bound: int) -> int:
        par, jump, agg = self.par[f], self.jump[f], self.agg[f]
        if f == 0:
            ns = self.ns
            while ns[x] <= bound:
                x = jump[x] if jump[x] != x and agg[x] <= bound else par[x]
        else:
            ps = self.ps
            while ps[x] >= bound:
                x = jump[x] if jump[x] != x and agg[x] >= bound else par[x]
        return x

    def _run_end(self, f: int, x: int, stop_depth: int, threshold: Any) -> int:
        h, par, jump, depth = self.h, self.par[f], self.jump[f], self.depth[f]

        def stops(z: int) -> bool:
            return depth[z] <= stop_depth or (
                threshold is not None and h[z] + h[par[z]] < threshold)

        while not stops(x):
            j = jump[x]
            x = j if not stops(j) else par[x]
        return x

    def value(self, lo: int, hi: int) -> Any:
        if lo >= hi:
            return 0
        h = self.h
        u = self._path_end(0, lo, hi)
        v = self._path_end(1, hi, lo)
        du, dv = self.depth[0][u], self.depth[1][v]
        par1, par2 = self.par
        P1, P2 = self.P
        x, y = lo, hi
        total: Any = 0
        plus = True
        while x != u or y != v:
            dx = h[x] + h[par1[x]] if x != u else None
            dy = h[y] + h[par2[y]] if y != v else None
            if dx is not None and (dy is None or dx >= dy):
                z = self._run_end(0, x, du, dy)
                length = self.depth[0][x] - self.depth[0][z]
                run = P1[x] + P1[z] if length & 1 else P1[x] - P1[z]
                x = z
            else:
                z = self._run_end(1, y, dv, dx)
                length = self.depth[1][y] - self.depth[1][z]
                run = P2[y] + P2[z] if length & 1 else P2[y] - P2[z]
                y = z
            total = total + run if plus else total - run
            if length & 1:
                plus = not plus
        bridge = h[u] + h[v]  # the minimum block comes last
        return total + bridge if plus else total - bridge


class Intervals:
    """Values of sub-rows: ``Intervals(row).value(start, stop) == value(row[start:stop])``.

    Built once in O(n log n) time and O(n) memory; a query costs O((1 + r) log n), where r is
    the number of runs when the two sides of the sub-row's reduced form are merged: small on
    random, sorted and random-walk rows (about 1 microsecond per query at n = 10^6), up to
    about n/10 on V-shaped rows. Bounds follow Python's slice convention.

    Exact like ``value``: int64 rows whose alternating prefix sums pass 2^59 in magnitude, big
    ints, ``Fraction`` and ``Decimal`` use the same structure on exact Python numbers (same
    bounds, a constant factor slower); so do floats whose alternating sums would pass 1e300,
    as Fractions, the results rounded to floats. A single int64 query whose partial sums
    overflow is redone by the exact linear-time kernel (O(stop - start)).

    >>> iv = Intervals([1, 2, 1000, 3, 4, 900])
    >>> iv.value(0, 6), iv.value(1, 4), iv.value(-2, None)
    (1892, -995, 896)
    >>> list(iv.values([0, 2], [3, 6]))
    [999, 101]
    """

    __slots__ = ("_coins", "_n", "_kernel", "_exact")

    def __init__(self, row: Any) -> None:
        col = column(row, "row")
        kind, exact_type = unify([col], "row")
        data = col.data if kind == OBJECTS else memoryview(cast(Buffer1D, col.data))
        self._n = n = len(col)
        self._coins = _Coins(kind, exact_type, data, (0,), (n,), 1)
        self._kernel: _core.SubRows | None = None
        self._exact: _ExactSubRows | None = None
        if kind != OBJECTS:
            kernel = _core.SubRows(cast(Buffer1D, data), 1 if kind == FLOAT64 else 0)
            if kernel.status == _core.STATUS_NOT_FINITE:
                bad = kernel.bad_index
                raise ValueError(
                    f"row: coin at index {bad} is {self._coins.coin(bad)!r}; coins must be finite"
                )
            if kernel.status == _core.STATUS_OK:
                self._kernel = kernel
        if self._kernel is None:
            exact = self._coins.objects()
            if kind == FLOAT64:  # sums could overflow floats: solve exactly, round at the end
                exact = [Fraction(x) for x in exact]
            with decimal.localcontext(_EXACT_DECIMAL):
                self._exact = _ExactSubRows(exact)

    def __len__(self) -> int:
        return self._n

    def _exact_value(self, start: int, stop: int) -> Number:
        if self._coins.kind == FLOAT64:
            if stop <= start or self._exact is None:  # pragma: no cover - floats never overflow
                return 0.0
            with decimal.localcontext(_EXACT_DECIMAL):
                return float(self._exact.value(start, stop))
        if stop <= start:
            return _exact(self._coins, 0)
        with decimal.localcontext(_EXACT_DECIMAL):
            if self._exact is not None:
                result = self._exact.value(start, stop)
            else:  # one int64 query overflowed: the exact linear-time kernel on that sub-row
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
            return array("d", out_list) if kind == FLOAT64 else out_list
        out: array[Any] = array("d" if kind == FLOAT64 else "q", bytes(8 * m))
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
