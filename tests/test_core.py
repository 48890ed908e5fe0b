"""value, profits and Game.value against the oracles: DP, brute force, the paper's pseudocode."""

from __future__ import annotations

import array
import importlib
import importlib.machinery
import random
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from coinsrow import Game, Profits, profits, value

from generators import random_game, random_row
from modes import drawn
from oracles import brute_value, dp_table, dp_value, paper_value

INT64_MAX = 2**63 - 1
INT64_MIN = -(2**63)


def test_core_is_a_package_of_compiled_extensions():
    import pkgutil

    from coinsrow import _core

    modules = [info.name for info in pkgutil.iter_modules(_core.__path__)]
    assert {"_rows", "_forest", "_window"} <= set(modules), modules
    for name in modules:
        module = importlib.import_module(f"coinsrow._core.{name}")
        assert module.__file__.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)), name


# -- the textbook rows where the even/odd strategy is not optimal ----------------------------


def test_textbook_examples():
    assert profits([3, 2, 2, 3, 1, 2]) == (8, 5)  # even/odd is not optimal
    assert value([3, 2, 2, 3, 1, 2]) == 3
    # not 1 + 1000 + 4 (the even/odd strategy) but 900 + 1 + 1000
    assert profits([1, 2, 1000, 3, 4, 900]) == (1901, 9)


def test_empty_and_one_coin():
    assert value([]) == 0 and isinstance(value([]), int)
    assert profits([]) == Profits(0, 0)
    assert value([7]) == 7
    assert value([-7]) == -7
    assert profits([-7]) == (-7, 0)
    assert Game().value() == 0
    assert Game(rows=[[], []], stacks=[[]]).profits() == (0, 0)


# -- one row against the DP table ----------------------------------------------------------


def test_every_sub_row_of_random_rows_matches_the_dp():
    rng = random.Random(20261122)
    checked = 0
    for _ in range(12):
        row = random_row(rng, rng.randint(100, 250))
        d = dp_table(row)
        for _ in range(400):
            i = rng.randint(0, len(row))
            j = rng.randint(i, len(row))
            assert value(row[i:j]) == d[i][j], (row[i:j])
            checked += 1
    assert checked == 12 * 400


@given(st.lists(st.integers(-20, 20), max_size=40))
def test_value_and_profits_match_the_dp(row):
    v = value(row)
    assert v == dp_value(row)
    first, second = profits(row)
    assert first + second == sum(row)
    assert first - second == v
    assert all(type(x) is int for x in (v, first, second))


@given(st.lists(st.integers(-(2**80), 2**80), max_size=14))
def test_big_ints_are_exact(row):
    v = value(row)
    assert v == dp_value(row) and type(v) is int
    assert profits(row) == ((sum(row) + v) // 2, (sum(row) - v) // 2)


@given(st.lists(st.integers(2**62 - 50, 2**62) | st.integers(-(2**62), -(2**62) + 50), max_size=16))
def test_values_near_int64_limits_fall_back_exactly(row):
    assert value(row) == dp_value(row)
    assert value(np.array(row, dtype=np.int64)) == dp_value(row)


def test_fusions_that_overflow_int64():
    # x - M + y with x very negative and M very positive leaves int64.
    row = [INT64_MIN, INT64_MAX, INT64_MIN, 0]
    assert value(row) == dp_value(row)
    row = [INT64_MAX, INT64_MAX, INT64_MAX, INT64_MAX]
    assert value(row) == 0 and profits(row) == (2 * INT64_MAX, 2 * INT64_MAX)
    row = [INT64_MIN] * 5
    assert value(row) == INT64_MIN and profits(row)[0] == 3 * INT64_MIN
    big = np.array([INT64_MAX] * 3 + [INT64_MIN] * 3, dtype=np.int64)
    assert value(big) == dp_value(big.tolist())
    assert Game(rows=[big], stacks=[big]).value() == brute_value([big.tolist()], [big.tolist()])


# -- several rows and stacks against brute force ---------------------------------------------


@pytest.mark.slow
def test_games_of_rows_and_stacks_match_brute_force():
    rng = random.Random(7)
    for trial in range(drawn(2500)):
        rows, stacks = random_game(rng, 10, *((-4, 4) if trial % 2 else (0, 2)))
        g = Game(rows=rows, stacks=stacks)
        expected = brute_value(rows, stacks)
        assert g.value() == expected, (rows, stacks)
        first, second = g.profits()
        total = sum(map(sum, rows)) + sum(map(sum, stacks))
        assert (first + second, first - second) == (total, expected)


def test_stacks_alone_match_brute_force():
    rng = random.Random(11)
    for _ in range(1500):
        stacks = [[rng.randint(-3, 3) for _ in range(rng.randint(0, 5))]
                  for _ in range(rng.randint(1, 3))]
        assert Game(stacks=stacks).value() == brute_value([], stacks), stacks


def test_larger_games_match_the_paper_pseudocode():
    rng = random.Random(3)
    for _ in range(300):
        rows, stacks = random_game(rng, 300, -100, 100)
        assert Game(rows=rows, stacks=stacks).value() == paper_value(rows, stacks)


def test_one_row_game_is_value_of_the_row():
    rng = random.Random(5)
    for _ in range(200):
        row = random_row(rng, rng.randint(0, 60))
        assert Game(rows=[row]).value() == value(row)
        assert Game(rows=[row]).profits() == profits(row)


def test_a_stack_of_one_coin_is_a_row_of_one_coin():
    rng = random.Random(9)
    for _ in range(200):
        rows, stacks = random_game(rng, 8)
        singles = [[rng.randint(-5, 5)] for _ in range(rng.randint(0, 3))]
        assert Game(rows=rows + singles, stacks=stacks).value() == Game(
            rows=rows, stacks=stacks + singles).value()


# -- number types -------------------------------------------------------------------------


INT_DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]


@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_numpy_integer_dtypes(dtype):
    rng = np.random.default_rng(1)
    info = np.iinfo(dtype)
    for _ in range(30):
        n = int(rng.integers(0, 40))
        arr = rng.integers(info.min, info.max, size=n, dtype=dtype, endpoint=True)
        expected = dp_value([int(x) for x in arr])
        got = value(arr)
        assert got == expected and type(got) is int
        assert value(arr[::-2]) == dp_value([int(x) for x in arr[::-2]])


def test_uint64_beyond_int64():
    arr = np.array([2**64 - 1, 0, 2**63, 5], dtype=np.uint64)
    assert value(arr) == dp_value([int(x) for x in arr])


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_numpy_float_dtypes(dtype):
    rng = np.random.default_rng(2)
    for _ in range(30):
        arr = rng.normal(size=int(rng.integers(0, 40))).astype(dtype)
        got = value(arr)
        assert type(got) is float
        assert got == pytest.approx(dp_value([float(x) for x in arr]), abs=1e-9)


def test_floats_give_floats():
    assert value([1.5, 2, 3]) == pytest.approx(dp_value([1.5, 2, 3]))
    assert type(value([1.5, 2, 3])) is float
    assert type(value([1, 2, 3.0])) is float
    assert type(profits([1.0]).first) is float
    rng = random.Random(4)
    for _ in range(300):
        row = [rng.uniform(-10, 10) for _ in range(rng.randint(0, 30))]
        assert value(row) == pytest.approx(dp_value(row), abs=1e-9)
        p = profits(row)
        assert p.first + p.second == pytest.approx(sum(row), abs=1e-9)


@pytest.mark.slow
@given(st.lists(st.fractions(max_denominator=12), min_size=1, max_size=16))
def test_fractions_are_exact(row):
    v = value(row)
    assert v == dp_value(row) and type(v) is Fraction
    first, second = profits(row)
    assert type(first) is Fraction and first + second == sum(row) and first - second == v


@given(st.lists(st.decimals(-1000, 1000, places=3), min_size=1, max_size=16))
def test_decimals_are_exact(row):
    v = value(row)
    assert v == dp_value(row) and type(v) is Decimal
    first, second = profits(row)
    assert type(first) is Decimal and first + second == sum(row) and first - second == v


def test_decimal_with_many_digits_stays_exact():
    # The default decimal context would round to 28 digits; the answer must not.
    row = [Decimal("1e-60"), Decimal("1e60"), Decimal("3.14159265358979323846264338327950288")]
    assert Fraction(value(row)) == dp_value([Fraction(x) for x in row])
    first, second = profits(row)
    assert Fraction(first) + Fraction(second) == sum(Fraction(x) for x in row)


def test_array_module_typecodes():
    for code in "bBhHiIlLqQfd":
        row = array.array(code, [1, 5, 2, 7, 3, 3])
        expected = dp_value([1, 5, 2, 7, 3, 3])
        assert value(row) == expected
        assert value(memoryview(row)) == expected
        assert type(value(row)) is (float if code in "fd" else int)


def test_iterables_and_generators():
    assert value(iter([3, 2, 2, 3, 1, 2])) == 3
    assert value(x for x in (3, 2, 2, 3, 1, 2)) == 3
    assert value((3, 2, 2, 3, 1, 2)) == 3
    assert value(range(10)) == dp_value(list(range(10)))
    assert value([np.int64(3), np.int32(2), 2, 3, np.uint8(1), 2]) == 3


def test_mixed_games_use_one_number_type():
    assert type(Game(rows=[[1, 2]], stacks=[[1.5]]).value()) is float
    assert type(Game(rows=[[1, 2]], stacks=[[Fraction(1, 2)]]).value()) is Fraction
    assert type(Game(rows=[[1, 2]], stacks=[[Decimal("0.5")]]).value()) is Decimal
    assert Game(rows=[[2**70, 1]], stacks=[np.array([3, 4])]).value() == brute_value(
        [[2**70, 1]], [[3, 4]])


# -- the Game object -----------------------------------------------------------------------


def test_game_members():
    g = Game(rows=[[3, 2, 2, 3, 1, 2], []], stacks=[[1, 5]])
    assert g.rows == ((3, 2, 2, 3, 1, 2), ())
    assert g.stacks == ((1, 5),)
    assert len(g) == 8
    assert g.value() == brute_value([[3, 2, 2, 3, 1, 2]], [[1, 5]])
    assert g == Game(rows=[(3, 2, 2, 3, 1, 2), []], stacks=[np.array([1, 5])])
    assert hash(g) == hash(Game(rows=[(3, 2, 2, 3, 1, 2), []], stacks=[[1, 5]]))
    assert g != Game(rows=[[3, 2, 2, 3, 1, 2]], stacks=[[1, 5]])
    with pytest.raises(AttributeError):
        g.value = 3  # type: ignore[misc]


def test_game_does_not_share_mutable_input():
    row = [3, 2, 2, 3, 1, 2]
    arr = np.array(row)
    g = Game(rows=[row], stacks=[arr])
    before = g.value()
    assert row == [3, 2, 2, 3, 1, 2] and arr.tolist() == row
    h = Game(rows=[row], stacks=[arr])
    assert h.value() == before
