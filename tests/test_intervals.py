"""Intervals.value / .values against the DP table, on random and V-shaped rows."""

from __future__ import annotations

import random
from array import array
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from coinsrow import Intervals, value
from oracles import dp_table
from generators import SMALL_STYLES, random_row


def test_every_sub_row_of_small_rows():
    rng = random.Random(30)
    for _ in range(600):
        row = random_row(rng, rng.randint(0, 18), SMALL_STYLES)
        d = dp_table(row)
        iv = Intervals(row)
        n = len(row)
        for i in range(n + 1):
            for j in range(i, n + 1):
                assert iv.value(i, j) == d[i][j], (row, i, j)


def test_random_queries_on_long_rows():
    rng = random.Random(31)
    for _ in range(12):
        row = random_row(rng, rng.randint(150, 300), SMALL_STYLES)
        n = len(row)
        d = dp_table(row)
        iv = Intervals(row)
        starts = [rng.randint(0, n) for _ in range(400)]
        stops = [rng.randint(s, n) for s in starts]
        got = iv.values(starts, stops)
        assert isinstance(got, array) and got.typecode == "q"
        assert list(got) == [d[s][e] for s, e in zip(starts, stops)]
        assert [iv.value(s, e) for s, e in zip(starts, stops)] == list(got)


def test_v_shaped_rows():
    rng = random.Random(32)
    for n in (50, 101, 200):
        row = [abs(k - n // 2) * 2 + rng.randint(0, 1) for k in range(n)]
        d = dp_table(row)
        iv = Intervals(row)
        for i in range(0, n + 1, 3):
            for j in range(i, n + 1, 2):
                assert iv.value(i, j) == d[i][j]


@given(st.lists(st.integers(-5, 5), max_size=20), st.integers(-25, 25), st.integers(-25, 25))
def test_slice_convention(row, start, stop):
    iv = Intervals(row)
    assert iv.value(start, stop) == value(row[start:stop])
    assert iv.values([start], [stop])[0] == value(row[start:stop])


def test_slice_bounds_none_and_types():
    row = [3, 2, 2, 3, 1, 2]
    iv = Intervals(row)
    assert iv.value() == value(row) and len(iv) == 6
    assert iv.value(None, 3) == value(row[:3]) and iv.value(-3) == value(row[-3:])
    assert iv.value(np.int64(1), np.int32(4)) == value(row[1:4])
    assert list(iv.values(np.array([0, 1]), array("q", [6, 4]))) == [value(row), value(row[1:4])]
    assert list(iv.values([5, 2**80], [2, -2**80])) == [0, 0]
    with pytest.raises(TypeError):
        iv.value(1.5, 3)
    with pytest.raises(TypeError):
        iv.values([1.5], [3])
    with pytest.raises(ValueError):
        iv.values([1, 2], [3])


def test_exact_and_float_rows():
    rng = random.Random(33)
    for _ in range(60):
        ints = random_row(rng, rng.randint(1, 25), SMALL_STYLES)
        n = len(ints)
        for row, kind in (
            ([x * 2**70 + 3 for x in ints], int),
            ([Fraction(x, 7) for x in ints], Fraction),
            ([Decimal(x) / 4 for x in ints], Decimal),
            ([x / 4 for x in ints], float),
            ([(2**62 - 1) * (1 if k % 2 else -1) for k in range(n)], int),
        ):
            d = dp_table(row)
            iv = Intervals(row)
            starts = [rng.randint(0, n) for _ in range(30)]
            stops = [rng.randint(s, n) for s in starts]
            got = iv.values(starts, stops)
            assert list(got) == [d[s][e] for s, e in zip(starts, stops)]
            for s, e in zip(starts, stops):
                v = iv.value(s, e)
                assert v == d[s][e] and type(v) is kind


def test_intervals_bad_input():
    with pytest.raises(ValueError, match="index 1"):
        Intervals([1.0, float("inf")])
    with pytest.raises(TypeError):
        Intervals([1, "a"])
    assert Intervals([]).value(0, 0) == 0


def test_exact_structure_on_every_sub_row():
    from coinsrow import _core

    rng = random.Random(34)
    for _ in range(150):
        ints = random_row(rng, rng.randint(1, 16), SMALL_STYLES)
        if rng.random() < 0.5:
            row = [Fraction(x, 3) for x in ints]
        else:
            row = [(x + 2000) * 2**64 + x for x in ints]
        iv = Intervals(row)
        assert isinstance(iv._structure.kernel, _core.SubRowsExact)
        d = dp_table(row)
        n = len(row)
        for i in range(n + 1):
            for j in range(i, n + 1):
                assert iv.value(i, j) == d[i][j], (row, i, j)


def test_huge_floats():
    rng = random.Random(35)
    for _ in range(100):
        row = [rng.choice([-3, -1, 0, 1, 2, 5]) * 1e305 for _ in range(rng.randint(1, 12))]
        d = dp_table([Fraction(x) for x in row])
        iv = Intervals(row)
        n = len(row)
        got = iv.values([0] * (n + 1), list(range(n + 1)))
        assert isinstance(got, array) and got.typecode == "d"
        assert list(got) == [float(d[0][j]) for j in range(n + 1)]
        for i in range(n + 1):
            for j in range(i, n + 1):
                v = iv.value(i, j)
                assert type(v) is float and v == float(d[i][j])
