"""Limits, in the style of msgpack's tests: the extremes of every number type and layout.

The rule checked everywhere: the answer is the exact answer (the O(n^2) DP on Python ints or
Fractions), in the input's kind: ints give an exact ``int`` whatever int64 does on the way,
floats give the exact answer rounded to the nearest float. A float answer beyond the float
range is +-inf, the IEEE 754 rounding of the exact number (as ``1e308 + 1e308`` is ``inf`` in
Python); it is never NaN, and an overflow on the way to a representable answer does not show.
"""

from __future__ import annotations

import decimal
import math
import sys
from array import array, typecodes
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coinsrow import Game, Profits, best_move, play, profits, value

from checks import TINY, close, rounded
from oracles import brute_value, dp_table, dp_value

INT64_MAX = 2**63 - 1
INT64_MIN = -(2**63)
EXTREMES = [INT64_MAX, INT64_MIN, INT64_MAX - 1, INT64_MIN + 1, 2**63, -(2**63) - 1,
            2**64 - 1, 2**64, -(2**64), 2**62, -(2**62), 0, 1, -1]
INT_DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
              np.intp, np.uintp, np.longlong, np.ulonglong]
ARRAY_INT_CODES = "bBhHiIlLqQ"
# The tests parametrized over many dtypes run a fraction of the profile's examples each.
PER_DTYPE = settings(max_examples=max(10, settings.default.max_examples // 8))


def check_row(coins, exact_coins=None, *, kind=int):
    """value, profits, best_move and play of ``coins`` against the DP on exact numbers."""
    exact = list(exact_coins if exact_coins is not None else coins)
    n = len(exact)
    d = dp_table(exact)
    v = d[0][n] if n else 0
    total = sum(exact)
    got = value(coins)
    assert type(got) is kind
    if kind is int:
        assert got == v
        assert profits(coins) == Profits((total + v) // 2, (total - v) // 2)
    else:
        assert not math.isnan(got) and close(got, Fraction(v))
        first, second = profits(coins)
        assert type(first) is type(second) is float
        assert close(first, Fraction(total + v) / 2)
        assert close(second, Fraction(total - v) / 2)
    order = list(play(coins))
    assert sorted(order) == list(range(n))
    check_optimal_play(exact, order, d)
    if n:
        # The library's one tie rule: best_move is the first move of play (and optimal).
        move = best_move(coins)
        assert move == ("left" if order[0] == 0 else "right")
        worth = exact[0] - d[1][n] if move == "left" else exact[n - 1] - d[0][n - 1]
        assert worth == d[0][n]


def check_optimal_play(exact, order, d=None):
    """Every move of ``order`` is optimal where it is made (exact arithmetic)."""
    d = d or dp_table(exact)
    i, j = 0, len(exact)
    for p in order:
        assert p in (i, j - 1)
        if p == i:
            assert exact[i] - d[i + 1][j] == d[i][j]
            i += 1
        else:
            assert exact[j - 1] - d[i][j - 1] == d[i][j]
            j -= 1
    assert i == j


# -- int64 and uint64 extremes ----------------------------------------------------------------


@pytest.mark.slow
@given(st.lists(st.sampled_from(EXTREMES) | st.integers(-3, 3), max_size=12))
def test_int64_extremes_in_lists(row):
    check_row(row)
    check_row(tuple(row))


@pytest.mark.slow
@pytest.mark.parametrize("dtype", INT_DTYPES, ids=lambda d: np.dtype(d).name)
@PER_DTYPE
@given(data=st.data())
def test_every_numpy_integer_dtype_at_its_extremes(dtype, data):
    info = np.iinfo(dtype)
    edges = [info.min, info.max, info.min + 1, info.max - 1, 0, 1]
    values = data.draw(st.lists(st.sampled_from(edges) | st.integers(int(info.min),
                                                                      int(info.max)),
                                max_size=12))
    values = [int(x) for x in values]
    arr = np.array(values, dtype=dtype)
    check_row(arr, values)
    check_row(arr[::-1], values[::-1])  # strided, negative stride
    readonly = arr.copy()
    readonly.flags.writeable = False
    check_row(readonly, values)
    swapped = arr.astype(np.dtype(dtype).newbyteorder())  # the other byte order
    check_row(swapped, values)
    check_row(memoryview(swapped), values)  # a non-native buffer without NumPy's help
    check_row(np.array(values, dtype=object), values)


def test_the_extremes_of_each_dtype_one_by_one():
    for dtype in INT_DTYPES:
        info = np.iinfo(dtype)
        for x in (info.min, info.max):
            x = int(x)
            for row in ([x], [x, x], [x, -1, x], [x, x, x, x]):
                if -1 not in row or info.min < 0:
                    check_row(np.array(row, dtype=dtype), row)


@pytest.mark.slow
@given(st.lists(st.integers(2**63, 2**64 - 1) | st.integers(0, 5), max_size=10))
def test_uint64_beyond_int64(row):
    check_row(np.array(row, dtype=np.uint64), row)
    check_row(array("Q", row), row)
    check_row(memoryview(array("Q", row)), row)


BIG = st.integers(2**61, 2**63 - 1)


@pytest.mark.slow
@given(st.lists(BIG | BIG.map(lambda x: -x) | st.integers(-2, 2), min_size=1, max_size=14))
def test_fusions_and_sums_that_overflow_int64(row):
    """Coins near the int64 limits: fusion x - M + v and the sums overflow, silently never."""
    check_row(row)
    check_row(np.array(row, dtype=np.int64), row)


def test_hand_made_overflows():
    # x <= M >= v fuses into x - M + v = -3 * 2**62 < INT64_MIN.
    check_row([-(2**62), 2**62, -(2**62)])
    # The sum of the row (the profits) is 2**64: int64 overflow in the sum only.
    check_row([2**62] * 4)
    check_row([INT64_MAX, INT64_MAX])
    check_row([INT64_MIN, INT64_MIN, INT64_MIN])
    check_row([INT64_MIN, INT64_MAX, INT64_MIN])
    assert value([INT64_MIN]) == INT64_MIN and type(value([INT64_MIN])) is int


@pytest.mark.slow
@given(st.lists(st.lists(BIG | BIG.map(lambda x: -x) | st.integers(-2, 2), max_size=3),
                max_size=3),
       st.lists(st.lists(BIG | BIG.map(lambda x: -x) | st.integers(-2, 2), max_size=3),
                max_size=2))
def test_game_overflows_against_brute_force(rows, stacks):
    g = Game(rows=rows, stacks=stacks)
    v = brute_value(rows, stacks)
    assert g.value() == v and type(g.value()) is int
    total = sum(map(sum, rows)) + sum(map(sum, stacks))
    assert g.profits() == Profits((total + v) // 2, (total - v) // 2)
    # Walking the optimal line keeps the value exact at each step.
    while len(g):
        before = g.value()
        m = g.best_move()
        g = g.take(m)
        assert m.coin - g.value() == before


@pytest.mark.slow
@given(st.lists(st.integers(-(10**250), 10**250) | st.integers(-3, 3), max_size=12))
def test_ints_of_hundreds_of_digits(row):
    check_row(row)
    check_row(np.array(row, dtype=object), row)


def test_ints_of_thousands_of_digits():
    huge = 10**5000  # beyond int's default string conversion limit: must not matter
    row = [huge, -huge, huge + 1, 7, -huge - 3]
    check_row(row)
    assert Game(rows=[row[:2]], stacks=[row[2:]]).value() == brute_value([row[:2]], [row[2:]])


# -- floats: denormal, huge, overflowing ------------------------------------------------------

HUGE = 2.0**1020   # 16 of them overflow the float range


def _check_float_row(coins: list[float]) -> None:
    """``check_row`` on a list and on a NumPy array of float ``coins``, against the exact DP."""
    exact = [Fraction(c) for c in coins]
    check_row(coins, exact, kind=float)
    check_row(np.array(coins), exact, kind=float)


@pytest.mark.slow
@given(st.lists(st.integers(-1000, 1000), max_size=14))
def test_denormal_floats(ks):
    """Multiples of the smallest denormal: float arithmetic on them is exact."""
    coins = [k * TINY for k in ks]
    if not coins:
        return
    _check_float_row(coins)
    assert value(coins) == dp_value(ks) * TINY


@pytest.mark.slow
@given(st.lists(st.integers(-9, 9), max_size=12))
def test_huge_floats_never_nan_and_exactly_rounded(ks):
    """Multiples of 2**1020: any intermediate may overflow; the answer is still exact.

    The exact answer is rounded to a float once: +-inf only when it is beyond the range.
    """
    coins = [k * HUGE for k in ks]
    if not coins:
        return
    _check_float_row(coins)
    # Sums of multiples of 2**1020 are exact in floats: the answers are exactly rounded.
    v = Fraction(dp_value(ks)) * Fraction(HUGE)
    assert value(coins) == rounded(v)
    total = Fraction(sum(ks)) * Fraction(HUGE)
    assert profits(coins) == (rounded((total + v) / 2), rounded((total - v) / 2))


def test_an_overflow_on_the_way_to_a_finite_answer():
    """The float kernel's fusion and sums overflow; the exact answer is finite."""
    for ks in ([3, -3, -6, 6, -9], [-8, 6, 2, 9, 8], [-4, -7, 8, -1, -8, -7],
               [9, 3, -7, 9, 8, -2]):
        coins = [k * HUGE for k in ks]
        v = dp_value(ks)
        assert abs(v) < 16  # v * 2**1020 is representable...
        assert value(coins) == v * HUGE  # ...though the float kernel's sums overflow
        check_row(coins, [Fraction(c) for c in coins], kind=float)
        assert Game(rows=[coins]).value() == v * HUGE
    # ...the profits are each representable though their sum (the row's total) is too.
    assert profits([8 * HUGE] * 2) == (8 * HUGE, 8 * HUGE)
    assert math.isinf(sum([8 * HUGE] * 2))


@pytest.mark.slow
@given(st.lists(st.lists(st.integers(-9, 9), max_size=4), max_size=2),
       st.lists(st.lists(st.integers(-9, 9), max_size=3), max_size=2))
def test_huge_float_games_against_brute_force(rows, stacks):
    g = Game(rows=[[k * HUGE for k in r] for r in rows],
             stacks=[[k * HUGE for k in s] for s in stacks])
    v = brute_value(rows, stacks)
    assert g.value() == rounded(Fraction(v) * Fraction(HUGE))
    total = Fraction(sum(map(sum, rows)) + sum(map(sum, stacks))) * Fraction(HUGE)
    exact_v = Fraction(v) * Fraction(HUGE)
    assert g.profits() == (rounded((total + exact_v) / 2), rounded((total - exact_v) / 2))
    # The optimal line is optimal in exact arithmetic, overflow or not.
    solve_rows = [list(r) for r in rows]
    solve_stacks = [list(s) for s in stacks]
    for m in g.play():
        before = brute_value(solve_rows, solve_stacks)
        k = round(m.coin / HUGE)
        if m.kind == "row":
            r = solve_rows[m.index]
            r.pop(0 if m.end == "left" else len(r) - 1)
        else:
            solve_stacks[m.index].pop(0)
        assert k - brute_value(solve_rows, solve_stacks) == before


def test_float_extremes():
    big = sys.float_info.max
    tiny = sys.float_info.min  # smallest normal
    for coins in ([big], [big, big], [-big, big, -big], [big, -big, big, -big],
                  [tiny, TINY, -TINY, tiny], [big, TINY, -big], [5e-324] * 7,
                  [-big] * 5, [big, 1.0, big, 1.0]):
        check_row(coins, [Fraction(c) for c in coins], kind=float)


def test_ints_too_large_for_a_float_in_a_float_row():
    with pytest.raises(ValueError, match="index 1 is too large for a float"):
        value([1.0, 10**400])
    # Within the range, a big int in a float row is rounded to a float.
    assert value([0.5, 10**300]) == rounded(dp_value([Fraction(1, 2), Fraction(float(10**300))]))


# -- empty and one-coin rows ------------------------------------------------------------------

EMPTY_ROWS = {
    "list": (list, int), "tuple": (tuple, int), "iterator": (lambda: iter(()), int),
    "int64": (lambda: np.array([], dtype=np.int64), int),
    "uint8": (lambda: np.array([], dtype=np.uint8), int),
    "float64": (lambda: np.array([], dtype=np.float64), float),
    "float32": (lambda: np.array([], dtype=np.float32), float),
    "array-q": (lambda: array("q"), int), "array-d": (lambda: array("d"), float),
    "memoryview-i": (lambda: memoryview(array("i")), int),
    "object": (lambda: np.array([], dtype=object), int),
}


@pytest.mark.parametrize("name", EMPTY_ROWS)
def test_empty_rows(name):
    make, kind = EMPTY_ROWS[name]
    got = value(make())
    assert got == 0 and type(got) is kind
    assert profits(make()) == (0, 0)
    assert list(play(make())) == []
    with pytest.raises(ValueError, match="the row is empty: there is no move"):
        best_move(make())
    g = Game(rows=[make()], stacks=[make()])
    assert g.value() == 0 and g.play() == [] and g.moves() == [] and len(g) == 0


def test_empty_games():
    for g in (Game(), Game(rows=[]), Game(rows=[[], []], stacks=[[], []])):
        assert g.value() == 0 and g.profits() == (0, 0) and g.play() == [] and len(g) == 0


ONE_COINS = [0, 1, -1, INT64_MAX, INT64_MIN, 2**64, -(10**300), 0.0, -0.0, 5e-324, 1.5e308,
             -1.5e308, Fraction(-7, 3), Decimal("-2.50"), Decimal("1e-50")]


@pytest.mark.parametrize("coin", ONE_COINS, ids=repr)
def test_one_coin(coin):
    assert value([coin]) == coin and type(value([coin])) is type(coin)
    assert profits([coin]) == (coin, 0)
    assert list(play([coin])) == [0]
    assert best_move([coin]) == "left"
    assert Game(stacks=[[coin]]).value() == coin


def test_one_coin_arrays():
    for dtype in INT_DTYPES + [np.float16, np.float32, np.float64]:
        for x in (0, 1, 100):
            arr = np.array([x], dtype=dtype)
            assert value(arr) == x and list(play(arr)) == [0] and best_move(arr) == "left"


# -- layouts: strided, read-only, array.array, memoryview, big-endian, object arrays -------

@pytest.mark.slow
@given(st.lists(st.integers(-(2**40), 2**40), max_size=30), st.integers(1, 4),
       st.booleans())
def test_strided_and_readonly_arrays(values, step, reverse):
    base = np.array(values, dtype=np.int64)
    view = base[::-step] if reverse else base[::step]
    expected = [int(x) for x in view]
    check_row(view, expected)
    check_row(view.astype(np.float64), [Fraction(int(x)) for x in view], kind=float)
    frozen = view.copy()
    frozen.flags.writeable = False
    check_row(frozen, expected)
    check_row(memoryview(base)[::step], [int(x) for x in base[::step]])  # strided buffer


def test_2d_column_slices_are_1d_strided_rows():
    grid = np.arange(20, dtype=np.int64).reshape(4, 5) * [1, -1, 1, -1, 1]
    for c in range(5):
        check_row(grid[:, c], [int(x) for x in grid[:, c]])
    for dtype in (np.float32, np.int16):
        g = grid.astype(dtype)
        assert value(g[:, 1]) == value(list(grid[:, 1].tolist()))


@pytest.mark.slow
@pytest.mark.parametrize("code", ARRAY_INT_CODES + "fd")
@PER_DTYPE
@given(data=st.data())
def test_array_array_of_every_typecode(code, data):
    if code in "fd":
        values = data.draw(st.lists(st.integers(-(2**20), 2**20), max_size=20))
        arr = array(code, values)
        exact = [Fraction(x) for x in arr]
        check_row(arr, exact, kind=float)
        check_row(memoryview(arr), exact, kind=float)
        check_row(memoryview(arr)[::2], exact[::2], kind=float)
        return
    bits = 8 * array(code).itemsize
    low, high = (0, 2**bits - 1) if code.isupper() else (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1)
    values = data.draw(st.lists(st.sampled_from([low, high, 0]) | st.integers(low, high),
                                max_size=20))
    arr = array(code, values)
    check_row(arr, values)
    check_row(memoryview(arr), values)
    check_row(memoryview(arr)[::-1], values[::-1])
    check_row(memoryview(arr).cast("B").cast(code), values)


def test_unicode_arrays_are_not_coins():
    with pytest.raises(TypeError, match=r"^row is a buffer of format '(u|w)'; coins must be"):
        value(array("w" if "w" in typecodes else "u", "abc"))


@pytest.mark.parametrize("fmt", ["e", "f", "d", "<e", ">f", "<d", ">d", "=d", "@d"])
def test_float_buffers_of_any_width_and_byte_order(fmt):
    values = [1.5, -2.0, 0.25, 3.0]
    arr = np.array(values, dtype=fmt.lstrip("@="))
    exact = [Fraction(x) for x in values]
    check_row(arr, exact, kind=float)
    check_row(memoryview(arr), exact, kind=float)


@pytest.mark.parametrize("fmt", [">i2", "<i2", ">i4", ">u4", ">i8", "<i8", ">u8", "=u8"])
def test_integer_buffers_in_either_byte_order(fmt):
    info = np.iinfo(np.dtype(fmt))
    values = [int(info.max), int(info.min), 3, int(info.max) - 1]
    arr = np.array(values, dtype=fmt)
    check_row(arr, values)
    check_row(memoryview(arr), values)


def test_numpy_object_arrays():
    for values in ([1, 2, 3], [10**30, -(10**30), 5], [Fraction(1, 3), Fraction(-2, 7), 1],
                   [np.int64(4), np.int8(-3), 2]):
        arr = np.array(values, dtype=object)
        assert value(arr) == dp_value([Fraction(x) for x in values])
        check_optimal_play([Fraction(x) for x in values], list(play(arr)))
    decimals = np.array([Decimal("1.25"), Decimal("-0.5"), Decimal(3)], dtype=object)
    assert value(decimals) == dp_value(list(decimals)) and type(value(decimals)) is Decimal


def test_numpy_scalars_in_lists():
    row = [np.int8(-5), np.uint64(2**64 - 1), np.int64(INT64_MIN), 7]
    check_row(row, [int(x) for x in row])
    floats = [np.float32(0.5), np.float16(-2), 1.0]
    check_row(floats, [Fraction(float(x)) for x in floats], kind=float)


def test_decimal_exponent_range():
    """Exact Decimal sums of 1e1000 and 1e-1000 need 2001 digits: fine."""
    row = [Decimal("1e1000"), Decimal("1e-1000"), Decimal(-3)]
    with decimal.localcontext(decimal.Context(prec=decimal.MAX_PREC, traps=[decimal.Inexact])):
        assert value(row) == dp_value(row)
    assert profits(row)[0] + profits(row)[1] == Decimal("1e1000") + Decimal("1e-1000") - 3
    # A long row of ordinary Decimals is far below the digit budget.
    many = [Decimal(k) / 100 for k in range(-20_000, 20_000, 7)]
    assert value(many) == value([Fraction(x) for x in many])
