"""values_many / profits_many: every game of every batch against value() / profits()."""

from __future__ import annotations

import array
import gc
import math
import random
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from coinsrow import (
    Profits,
    _batch,
    _core,
    _dispatch,
    _threads,
    profits,
    profits_many,
    value,
    values_many,
)

from checks import same
from modes import machine_only
from oracles import dp_value

INT64_MAX = 2**63 - 1
INT64_MIN = -(2**63)


def check(games, *args, threads=None, rows=None):
    """values_many and profits_many of the batch against value()/profits() of each game."""
    batch = rows if rows is not None else games
    assert same(values_many(batch, *args, threads=threads), [value(g) for g in games])
    assert same(profits_many(batch, *args, threads=threads), [profits(g) for g in games])


def flat_of(games, dtype=np.int64):
    offsets = np.zeros(len(games) + 1, dtype=np.int64)
    np.cumsum([len(g) for g in games], out=offsets[1:])
    flat = np.concatenate([np.asarray(g, dtype=dtype) for g in games]) if games else np.zeros(
        0, dtype)
    return flat.astype(dtype), offsets


def random_games(rng, n_games, max_coins=30, low=-50, high=50):
    return [[rng.randint(low, high) for _ in range(rng.randint(0, max_coins))]
            for _ in range(n_games)]


@pytest.fixture
def small_chunks(monkeypatch):
    """Many kernel calls (chunks) per batch, so that the thread pool and chunk edges are used."""
    monkeypatch.setattr(_batch, "_CHUNK_COINS", 40)
    monkeypatch.setattr(_batch, "_CHUNK_GAMES", 7)


# -- sequences of rows --------------------------------------------------------------------------


def test_examples_and_empty():
    assert values_many([]) == [] and profits_many([]) == []
    assert same(values_many([[3, 2, 2, 3, 1, 2], [], [1, 2, 1000, 3, 4, 900], [-7]]),
                [3, 0, 1892, -7])
    assert same(profits_many([[], [5]]), [Profits(0, 0), Profits(5, 0)])
    assert values_many(iter([[1, 2], (3,)])) == [1, 3]  # any iterable of any rows
    check([[], [], []])


@pytest.mark.slow
@given(st.lists(st.lists(st.integers(-20, 20), max_size=25), max_size=30))
def test_int_rows_match_value_and_profits(games):
    check(games)
    check(games, threads=2)


@given(st.lists(st.lists(st.integers(-(2**80), 2**80), max_size=10), max_size=12))
def test_big_ints_are_exact(games):
    check(games)


@pytest.mark.slow
@given(st.lists(
    st.lists(st.integers(2**62 - 50, 2**62) | st.integers(-(2**62), -(2**62) + 50)
             | st.integers(-3, 3), max_size=12),
    max_size=12))
def test_int64_overflow_falls_back_per_game(games):
    check(games)
    flat, offsets = flat_of(games)
    check(games, offsets, rows=flat)


@machine_only
def test_only_the_overflowing_games_are_redone_exactly(monkeypatch):
    calls = []
    exact = _dispatch.run_game
    monkeypatch.setattr(_dispatch, "run_game",
                        lambda col, answer, name: calls.append(list(col.data))
                        or exact(col, answer, name))
    rng = random.Random(5)
    games = random_games(rng, 200)
    overflowing = [[2**62 + 3, 2**62 + 2, 2**62 + 1, 2**62], [INT64_MIN, 5, -1],
                   [INT64_MIN, INT64_MAX, INT64_MIN]]
    for game in overflowing:  # the premise: int64 arithmetic overflows in each
        assert _core.game_value(array.array("q", game), array.array("q", [0]),
                                array.array("q", [len(game)]), 1)[0] == _core.Status.OVERFLOW
    for i, game in zip((3, 77, 150), overflowing):
        games[i] = game
    for threads in (1, 2):
        calls.clear()
        assert same(values_many(games, threads=threads), [value(g) for g in games])
        assert sorted(calls) == sorted(overflowing)
    calls.clear()
    # [2**62, 2**62] has value 0 but its sum overflows: only the profits redo it.
    assert same(values_many([[2**62, 2**62], [1]]), [0, 1])
    assert calls == []
    assert same(profits_many([[2**62, 2**62], [1]]), [Profits(2**62, 2**62), Profits(1, 0)])
    assert calls == [[2**62, 2**62]]


def test_overflow_in_fusion_and_in_the_profits():
    games = [
        [INT64_MIN, INT64_MAX, INT64_MIN],  # fusion overflows
        [INT64_MAX, INT64_MAX],  # the sum overflows
        [INT64_MAX, INT64_MIN],  # value and sum fit, sum + value does not
        [INT64_MIN, 0, INT64_MAX],
        [INT64_MAX],
        [INT64_MIN],
        [1, 2, 3],
    ]
    check(games)
    flat, offsets = flat_of(games)
    check(games, offsets, rows=flat, threads=2)


def test_fractions_decimals_and_big_ints_keep_their_types():
    games = [
        [Fraction(1, 3), Fraction(2, 7), 1],
        [Decimal("1.5"), Decimal("-2.25"), 3],
        [2**70, 1, -(2**65)],
        [1, 2],
        [],
        [Fraction(5, 2)],
        [Decimal("1e-30"), Decimal("1e30")],
    ]
    check(games)
    check(games, threads=2)


def test_mixed_float_and_int_games():
    rng = random.Random(7)
    games = []
    for i in range(300):
        game = [rng.randint(-9, 9) for _ in range(rng.randint(0, 12))]
        kind = i % 5
        if kind == 1:
            game = [x / 4 for x in game]
        elif kind == 2 and game:
            game[0] = float(game[0])  # one float makes the whole game float
        elif kind == 3:
            game = np.array(game, dtype=np.float32)
        elif kind == 4:
            game = np.array(game, dtype=np.int16)
        games.append(game)
    check(games)
    check(games, threads=2)
    values = values_many(games)
    assert {type(v) for v in values} == {int, float}


@pytest.mark.slow
@given(st.lists(st.lists(st.floats(-1e6, 1e6, allow_nan=False), max_size=20), max_size=20))
def test_float_games_are_bit_for_bit_those_of_value(games):
    check(games)
    flat, offsets = flat_of(games, np.float64)
    check([flat[offsets[i]:offsets[i + 1]] for i in range(len(games))], offsets, rows=flat)
    for got, want in zip(profits_many(flat, offsets), (profits(g) for g in games)):
        assert [math.copysign(1, x) for x in got] == [math.copysign(1, x) for x in want]


def test_numpy_and_buffer_rows():
    rng = random.Random(11)
    games = random_games(rng, 60)
    rows = []
    for i, game in enumerate(games):
        kind = i % 4
        if kind == 0:
            rows.append(np.array(game, dtype=np.int64))
        elif kind == 1:
            rows.append(array.array("q", game))
        elif kind == 2:
            rows.append(tuple(game))
        else:
            rows.append(np.array(game, dtype=np.int64)[::-1][::-1])  # not the same object
    check(games, rows=rows)
    check(rows, threads=2)


def test_matches_the_dp_oracle():
    rng = random.Random(3)
    games = random_games(rng, 400, max_coins=14, low=-6, high=6)
    assert values_many(games) == [dp_value(g) for g in games]


def test_inputs_are_not_mutated():
    games = [[3, 1, 2], [5.5, 1], [2**70, 3]]
    copy = [list(g) for g in games]
    flat, offsets = flat_of([[3, 1, 2], [4]])
    flat_copy, offsets_copy = flat.copy(), offsets.copy()
    values_many(games)
    profits_many(flat, offsets)
    assert games == copy
    assert (flat == flat_copy).all() and (offsets == offsets_copy).all()


def test_big_profits_batches_leave_the_collector_as_they_found_it():
    games = [[i % 7, 3, -(i % 5)] for i in range(_batch._GC_PAUSE_GAMES + 5)]
    expected = [profits(g) for g in games]
    assert gc.isenabled()
    assert same(profits_many(games), expected)
    assert gc.isenabled()
    gc.disable()
    try:
        assert same(profits_many(games, threads=2), expected)
        assert not gc.isenabled()
    finally:
        gc.enable()


# -- flat buffers with offsets ------------------------------------------------------------------


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16,
                                   np.uint32, np.uint64, np.float16, np.float32, np.float64])
def test_flat_numpy_dtypes(dtype):
    rng = random.Random(13)
    low = 0 if np.dtype(dtype).kind == "u" else -100
    games = random_games(rng, 80, low=low, high=100)
    flat, offsets = flat_of(games, dtype)
    slices = [flat[offsets[i]:offsets[i + 1]] for i in range(len(games))]
    check(slices, offsets, rows=flat)
    check(slices, offsets, rows=flat, threads=2)


def test_uint64_beyond_int64():
    flat = np.array([2**64 - 1, 5, 2**63, 1, 2], dtype=np.uint64)
    games = [[2**64 - 1, 5], [2**63], [], [1, 2]]
    check(games, [0, 2, 3, 3, 5], rows=flat)


@pytest.mark.parametrize("offsets_type", ["list", "int64", "int32", "uint32", "uint64",
                                          "array_q", "array_i", "array_l", "tuple"])
def test_offsets_types(offsets_type):
    games = [[1, 2, 3], [], [4], [9, -9, 9, -9]]
    flat, offsets = flat_of(games)
    as_list = offsets.tolist()
    converted = {
        "list": as_list,
        "tuple": tuple(as_list),
        "int64": offsets,
        "int32": offsets.astype(np.int32),
        "uint32": offsets.astype(np.uint32),
        "uint64": offsets.astype(np.uint64),
        "array_q": array.array("q", as_list),
        "array_i": array.array("i", as_list),
        "array_l": array.array("l", as_list),
    }[offsets_type]
    check(games, converted, rows=flat)


@pytest.mark.parametrize("flat_type", ["numpy", "array", "memoryview", "list", "tuple",
                                       "object_array", "generator"])
def test_flat_types(flat_type):
    games = [[1, 2, 3], [], [4.5], [2**70, 1]] if flat_type in (
        "list", "tuple", "object_array", "generator") else [[1, 2, 3], [], [4], [9, 1]]
    coins = [x for g in games for x in g]
    offsets = [0, 3, 3, 4, 6]
    flat = {
        "numpy": lambda: np.array(coins, dtype=np.int64),
        "array": lambda: array.array("q", coins),
        "memoryview": lambda: memoryview(array.array("q", coins)),
        "list": lambda: coins,
        "tuple": lambda: tuple(coins),
        "object_array": lambda: np.array(coins, dtype=object),
        "generator": lambda: iter(coins),
    }
    # A list of numbers with offsets is cut into games solved as value() solves each one:
    # the int games stay int next to a float game.
    assert same(values_many(flat[flat_type](), offsets), [value(g) for g in games])
    assert same(profits_many(flat[flat_type](), offsets), [profits(g) for g in games])


def test_sliced_offsets_arrow_semantics():
    """offsets[0] > 0 and offsets[-1] < len(flat): the coins outside belong to no game."""
    flat = np.array([np.nan, 7.0, 1.0, 2.0, 3.0, 5.0, np.inf, -np.inf])
    games = [flat[1:3], flat[3:3], flat[3:6]]
    check(games, [1, 3, 3, 6], rows=flat)
    ints = np.arange(20, dtype=np.int64)
    check([ints[5:9], ints[9:9], ints[9:20]], np.array([5, 9, 9, 20]), rows=ints)
    assert values_many(ints, [20]) == [] and values_many(ints, [0]) == []


@pytest.mark.slow
@given(st.lists(st.lists(st.integers(-(2**40), 2**40), max_size=15), max_size=15),
       st.integers(0, 4), st.integers(0, 4), st.booleans())
def test_flat_buffers_with_unused_coins_around_the_games(games, before, after, floats):
    """Arrow layout: only flat[offsets[0]:offsets[-1]] is read; junk around it never is."""
    dtype = np.float64 if floats else np.int64
    junk = [np.nan] if floats else [INT64_MAX]
    coins = junk * before + [x for g in games for x in g] + junk * after
    flat = np.array(coins, dtype=dtype)
    offsets = np.zeros(len(games) + 1, dtype=np.int64)
    np.cumsum([len(g) for g in games], out=offsets[1:])
    offsets += before
    slices = [flat[offsets[i]:offsets[i + 1]] for i in range(len(games))]
    check(slices, offsets, rows=flat)
    check(slices, offsets.astype(np.int32), rows=flat, threads=2)


def test_two_dimensional_numpy_array():
    rng = np.random.default_rng(1)
    matrix = rng.integers(-100, 100, size=(50, 9))
    check(list(matrix), rows=matrix)
    check(list(matrix.T), rows=matrix.T)  # not contiguous
    floats = matrix / 3
    check(list(floats), rows=floats)
    assert same(values_many(np.zeros((4, 0), dtype=np.int64)), [0, 0, 0, 0])
    assert same(values_many(np.zeros((0, 5))), [])


# -- chunks and threads -------------------------------------------------------------------------


def test_threads_give_identical_results(small_chunks):
    rng = random.Random(17)
    games = random_games(rng, 500, max_coins=40, low=-1000, high=1000)
    games[10] = [2**62] * 7  # overflows next to normal games, in several chunks
    games[400] = [-(2**62), 2**62 - 1, -(2**62)] * 3
    flat, offsets = flat_of(games)
    expected_values = [value(g) for g in games]
    expected_profits = [profits(g) for g in games]
    for threads in (1, 2, 3, 8):
        assert same(values_many(flat, offsets, threads=threads), expected_values)
        assert same(profits_many(flat, offsets, threads=threads), expected_profits)
        assert same(values_many(games, threads=threads), expected_values)
    floats = flat.astype(np.float64) / 7
    assert values_many(floats, offsets, threads=1) == values_many(floats, offsets, threads=2)
    assert values_many(floats, offsets, threads=2) == [
        value(floats[offsets[i]:offsets[i + 1]]) for i in range(len(games))]


def test_concurrent_callers(small_chunks):
    """Several Python threads solving batches at once, each with its own thread pool."""
    from concurrent.futures import ThreadPoolExecutor

    rng = random.Random(31)
    batches = [random_games(rng, 150, max_coins=25) for _ in range(6)]
    flats = [flat_of(games) for games in batches]
    expected = [[value(g) for g in games] for games in batches]
    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(lambda fo: values_many(fo[0], fo[1], threads=2), flats))
        got_lists = list(pool.map(lambda games: values_many(games, threads=2), batches))
    assert got == expected and got_lists == expected


def test_long_games_cross_the_kernel_scratch_slices():
    """Games longer than the kernel's scratch slice (8192 coins), and many around its size."""
    rng = np.random.default_rng(23)
    lengths = [20000, 3, 8191, 8192, 8193, 1, 0, 16384, 5000, 5000]
    games = [rng.integers(-10**6, 10**6, size=n) for n in lengths]
    flat, offsets = flat_of(games)
    check(games, offsets, rows=flat)
    check(games, offsets, rows=flat, threads=2)


def test_thread_count_validation():
    for bad in (0, -1):
        with pytest.raises(ValueError, match="threads must be at least 1"):
            values_many([[1]], threads=bad)
    for bad in (1.5, "2", True):
        with pytest.raises(TypeError, match="threads must be a positive int"):
            values_many([[1]], threads=bad)
    assert _threads.thread_count(None) >= 1
    assert values_many([[1, 2]], threads=np.int64(2)) == [1]


# -- errors -----------------------------------------------------------------------------------


@pytest.mark.parametrize("offsets, message", [
    ([], "offsets is empty"),
    ([-1, 2], r"offsets\[0\] = -1 is negative"),
    ([0, 3, 2, 4], r"non-decreasing: offsets\[1\] = 3 > offsets\[2\] = 2"),
    ([0, 2, 9], r"offsets\[2\] = 9 is past the end of the 5 coins"),
    (np.array([0, 6]), r"offsets\[1\] = 6 is past the end of the 5 coins"),
    (np.array([0, 4, 1], dtype=np.int32), r"offsets\[1\] = 4 > offsets\[2\] = 1"),
    ([0, 2**64], "past any buffer's end"),
    (np.array([0, 2**64 - 1], dtype=np.uint64), "past any buffer's end"),
])
def test_bad_offsets(offsets, message):
    for flat in (np.arange(5), [1, 2, 3, 4, 5], array.array("d", [1, 2, 3, 4, 5])):
        with pytest.raises(ValueError, match=message):
            values_many(flat, offsets)


@pytest.mark.parametrize("offsets, error, message", [
    ([0, 1.5], TypeError, "offsets must be integers"),
    (np.array([0.0, 1.0]), TypeError, "offsets must be integers"),
    (np.array([[0, 1]]), ValueError, "offsets must be 1-dimensional"),
    ("01", TypeError, "offsets must be a sequence of integers"),
    (5, TypeError, "offsets must be a sequence of integers"),
    (array.array("d", [0, 1]), TypeError, "offsets must be integers"),
])
def test_offsets_of_the_wrong_type(offsets, error, message):
    with pytest.raises(error, match=message):
        values_many(np.arange(5), offsets)


def test_flat_buffer_without_offsets():
    for flat in (np.arange(5), array.array("q", [1, 2]), memoryview(b"ab")):
        with pytest.raises(TypeError, match="offsets="):
            values_many(flat)
    with pytest.raises(TypeError, match="game 0 is 3, a number, not a row"):
        values_many([3, 1, 2])
    with pytest.raises(TypeError, match=r"game 1 is 2\.5, a number"):
        profits_many([[1], 2.5])
    with pytest.raises(TypeError, match="rows must be a sequence"):
        values_many(5)
    with pytest.raises(TypeError, match="rows must be a sequence"):
        values_many("abc")
    with pytest.raises(ValueError, match="1-dimensional"):
        values_many(np.zeros((2, 2)), [0, 1])


def test_bad_coins_name_the_game_and_the_coin():
    cases = [
        ([[1, 2], [3, float("nan")]], ValueError, r"game 1: coin at index 1 is nan"),
        ([[1, 2], [], [1.0, 2.0, float("inf")]], ValueError, r"game 2: coin at index 2 is inf"),
        ([[1], np.array([0.5, -np.inf])], ValueError, r"game 1: coin at index 1 is -inf"),
        ([[1], [2], np.array([1, 2]), np.array([0.0, 1.0, np.nan])], ValueError,
         r"game 3: coin at index 2 is nan"),
        ([[1, 2], [3, "4"]], TypeError, r"game 1: coin at index 1 is '4'"),
        ([[1, 2], [3, None]], TypeError, r"game 1: coin at index 1 is None"),
        ([[True, 2]], TypeError, r"game 0: coin at index 0 is True"),
        ([[1], [2, 1j]], TypeError, r"game 1: coin at index 1 is 1j"),
        ([[1], "ab"], TypeError, r"game 1 is a str"),
        ([[1], np.array([True])], TypeError, r"game 1 has dtype bool"),
        ([[1], [Decimal(1), 0.5]], TypeError, r"game 1 mixes Decimal"),
    ]
    for rows, error, message in cases:
        with pytest.raises(error, match=message):
            values_many(rows)
        with pytest.raises(error, match=message):
            profits_many(rows, threads=2)


def test_bad_coins_in_a_flat_buffer():
    flat = np.array([1.0, 2.0, 3.0, 4.0, np.nan, 6.0, np.inf])
    with pytest.raises(ValueError, match=r"game 1: coin at index 2 is nan"):
        values_many(flat, [0, 2, 6, 7])
    with pytest.raises(ValueError, match=r"game 1: coin at index 0 is inf"):
        values_many(flat, [5, 6, 7])
    with pytest.raises(TypeError, match=r"game 1: coin at index 0 is 'x'"):
        values_many([1, "x", 3], [0, 1, 3])
    with pytest.raises(TypeError, match="dtype bool"):
        values_many(np.array([True, False]), [0, 2])


def test_kernels_refuse_inconsistent_arguments():
    coins = array.array("q", [1, 2, 3])
    out = array.array("q", bytes(16))
    status = bytearray(2)
    for base, offsets, stop, message in ((0, [0, 2, 9], 2, "decrease or point outside"),
                                         (0, [0, 3, 1], 2, "decrease or point outside"),
                                         (1, [0, 1, 2], 2, "decrease or point outside"),
                                         (0, [0, 1, 2], 3, "outside the offsets")):
        with pytest.raises(ValueError, match=message):
            _core.batch_solve(coins, base, array.array("q", offsets), 0, stop, out,
                              array.array("q"), status)
    with pytest.raises(ValueError, match="shorter"):
        _core.batch_solve(coins, 0, array.array("q", [0, 1, 2]), 0, 2, array.array("q", [0]),
                          array.array("q"), status)
    assert _core.batch_solve(coins, 0, array.array("q", [0, 1, 3]), 0, 2, out,
                             array.array("q"), status) == (_core.Status.OK, 0)
    assert list(out) == [1, 1] and status == bytearray(2)


def test_packer_leaves_other_games_to_the_caller():
    rows = [[1, 2], [True], [2**63], (1,), [1.0], [], [-(2**63)]]
    coins, offsets, packed = _core.batch_pack_int_lists(rows)
    assert list(packed) == [1, 0, 0, 0, 0, 1, 1]
    assert list(offsets) == [0, 2, 2, 2, 2, 2, 2, 3]
    assert list(coins[:3]) == [1, 2, -(2**63)]


# -- pyarrow ------------------------------------------------------------------------------------


def test_pyarrow_list_arrays():
    pa = pytest.importorskip("pyarrow", reason="pyarrow is an optional test dependency")
    rng = random.Random(29)
    games = random_games(rng, 120, low=-10**9, high=10**9)
    games[7] = [2**62, 2**62, -(2**62)]
    small = [[x % 1000 for x in g] for g in games]
    for list_type, data in ((pa.list_(pa.int64()), games), (pa.large_list(pa.int64()), games),
                            (pa.list_(pa.int32()), small), (pa.list_(pa.float64()), small)):
        arr = pa.array(data, type=list_type)
        # A flat buffer has one type for all its games: an empty float game is 0.0.
        dtype = np.float64 if list_type.value_type == pa.float64() else np.int64
        expected = [np.array(g, dtype=dtype) for g in arr.to_pylist()]
        check(expected, rows=arr)
        check(expected, rows=arr, threads=2)
        sliced = arr.slice(17, 50)  # offsets[0] != 0
        assert sliced.offsets[0].as_py() != 0
        check(expected[17:67], rows=sliced)
        chunked = pa.chunked_array([arr.slice(0, 30), arr.slice(30, 0), arr.slice(30)])
        check(expected, rows=chunked)


def test_pyarrow_value_types():
    pa = pytest.importorskip("pyarrow", reason="pyarrow is an optional test dependency")
    games = [[1.5, -2.0, 3.25], [], [0.5]]
    typed = [np.array(g, dtype=np.float64) for g in games]  # the empty game's value is 0.0
    check(typed, rows=pa.array(games, type=pa.list_(pa.float64())))
    check(typed, rows=pa.array(games, type=pa.list_(pa.float32())))
    check([[1, 2, 3], [4, 5, 6]], rows=pa.array([[1, 2, 3], [4, 5, 6]],
                                                type=pa.list_(pa.int16(), 3)))
    check([[250, 3], [255]], rows=pa.array([[250, 3], [255]], type=pa.list_(pa.uint8())))
    decimals = [[Decimal("1.25"), Decimal("-3.5")], [Decimal("2.00")]]
    check(decimals, rows=pa.array(decimals, type=pa.list_(pa.decimal128(10, 2))))
    big = [[2**64 - 1, 1], [2**63]]
    check(big, rows=pa.array(big, type=pa.list_(pa.uint64())))
    fixed = pa.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]], type=pa.list_(pa.int64(), 3)).slice(1)
    check([[4, 5, 6], [7, 8, 9]], rows=fixed)
    # a list array over a sliced child array: both have an offset
    child = pa.array(range(8), type=pa.int64()).slice(2)
    nested = pa.ListArray.from_arrays(pa.array([1, 3, 6], type=pa.int32()), child)
    check([[3, 4], [5, 6, 7]], rows=nested)
    check([[5, 6, 7]], rows=nested.slice(1))
    check([], rows=pa.chunked_array([], type=pa.list_(pa.int64())))
    # a flat Arrow array of coins with Arrow offsets
    flat = pa.array([5, 1, 2, 3, 9], type=pa.int64())
    check([[1, 2, 3]], pa.array([1, 4], type=pa.int32()), rows=flat)
    check([[1, 2]], pa.array([1, 3], type=pa.int64()), rows=flat.slice(0))
    check([[2, 3]], [0, 2], rows=flat.slice(2, 2))


def test_pyarrow_nulls_and_bad_types():
    pa = pytest.importorskip("pyarrow", reason="pyarrow is an optional test dependency")
    with pytest.raises(ValueError, match="game 1 is null"):
        values_many(pa.array([[1], None, [2]], type=pa.list_(pa.int64())))
    with pytest.raises(ValueError, match="game 3 is null"):
        values_many(pa.chunked_array([pa.array([[1], [2]]), pa.array([[3], None])]))
    with pytest.raises(ValueError, match="game 2: coin at index 1 is null"):
        values_many(pa.array([[1], [], [2, None, 3]], type=pa.list_(pa.int64())))
    with pytest.raises(ValueError, match="game 1: coin at index 0 is null"):
        profits_many(pa.array([[1.5], [None]], type=pa.list_(pa.float64())))
    with pytest.raises(ValueError, match="game 3: coin at index 2 is null"):
        values_many(pa.chunked_array([pa.array([[1], [2]]), pa.array([[], [4, 5, None]])]))
    with pytest.raises(ValueError, match="game 1: coin at index 0 is null"):
        values_many(pa.array([7, None, 8]), pa.array([0, 1, 3], type=pa.int32()))
    with pytest.raises(ValueError, match="offsets has 18446744073709551615, past any"):
        values_many(pa.array([1, 2]), pa.array([0, 2**64 - 1], type=pa.uint64()))
    with pytest.raises(ValueError, match="game 0: coin at index 1 is nan"):
        values_many(pa.array([[1.5, float("nan")]], type=pa.list_(pa.float64())))
    with pytest.raises(TypeError, match="game 1: coin at index 0 is 'a'"):
        values_many(pa.array([[], ["a"]], type=pa.list_(pa.string())))
    with pytest.raises(TypeError, match="game 0: coin at index 0 is True"):
        values_many(pa.array([[True]], type=pa.list_(pa.bool_())))
    with pytest.raises(TypeError, match="offsets="):
        values_many(pa.array([1, 2, 3]))
    # a null coin outside the games is not read
    flat = pa.array([None, 1, 2, None], type=pa.int64())
    check([[1, 2]], [1, 3], rows=flat)


# -- offsets of every integer dtype and byte order; half floats from Arrow --------------------


INTEGER_FORMATS = ["b", "B", "h", "H", "i", "I", "l", "L", "q", "Q"]


@pytest.mark.parametrize("order", ["<", ">", "="])
@pytest.mark.parametrize("code", INTEGER_FORMATS)
def test_offsets_of_every_integer_dtype_and_byte_order(code, order):
    games = [[1, 2, 3], [], [4], [9, -9, 9, -9]]
    flat, offsets = flat_of(games)
    typed = offsets.astype(np.dtype(order + code))
    assert typed.tolist() == offsets.tolist()
    check(games, typed, rows=flat)  # the NumPy array
    check(games, memoryview(typed), rows=flat)  # its buffer (format "<q", ">q", ...)
    check(games, typed[::1].tolist(), rows=flat)
    # strided: every other entry of a longer buffer
    spread = np.zeros(2 * len(typed), dtype=typed.dtype)
    spread[::2] = typed
    check(games, memoryview(spread)[::2], rows=flat)


def test_big_endian_offsets_past_int64_are_refused():
    offsets = np.array([0, 2**63], dtype=">u8")
    with pytest.raises(ValueError, match="past any buffer's end"):
        values_many(np.arange(5), memoryview(offsets))


@pytest.mark.parametrize("offsets", [
    [False, True],
    [0, True, 3],
    (0, False),
    np.array([False, True]),
    [np.bool_(False), np.bool_(True)],
    memoryview(np.array([False, True])),
])
def test_bool_offsets_are_refused(offsets):
    with pytest.raises(TypeError, match="offsets must be integers"):
        values_many([1, 2, 3], offsets)
    with pytest.raises(TypeError, match="offsets must be integers"):
        profits_many([1, 2, 3], offsets)


def test_bool_arrow_offsets_are_refused():
    pa = pytest.importorskip("pyarrow", reason="pyarrow is an optional test dependency")
    with pytest.raises(TypeError, match="offsets must be integers"):
        values_many([1, 2, 3], pa.array([False, True]))


def test_offsets_that_index_like_ints():
    games = [[1, 2, 3], [], [4]]
    flat, _ = flat_of(games)
    check(games, [np.int64(0), np.int8(3), np.uint16(3), 4], rows=flat)


def test_pyarrow_half_floats():
    """memoryview cannot cast to format "e" before Python 3.12: the half floats of an Arrow
    array are decoded another way, with the same answers as float64."""
    pa = pytest.importorskip("pyarrow", reason="pyarrow is an optional test dependency")
    halves = np.array([1.5, 2, -0.25, 65504, 3], dtype=np.float16)
    assert values_many(pa.array(halves[:2]), [0, 2]) == [0.5]
    assert values_many(pa.array(np.array([1.5, 2], dtype=np.float16)), [0, 2]) == [0.5]
    as_floats = halves.astype(np.float64)
    games = [as_floats[0:2], as_floats[2:2], as_floats[2:5]]
    check(games, [0, 2, 2, 5], rows=pa.array(halves))
    # sliced (an offset into the buffer), chunked, empty, and as the child of a list array
    check([as_floats[1:3]], [0, 2], rows=pa.array(halves).slice(1, 2))
    check([as_floats[1:3]], [0, 2], rows=pa.chunked_array([pa.array(halves[:1]),
                                                           pa.array(halves[1:3])]).slice(1))
    check([], [0], rows=pa.array(np.array([], dtype=np.float16)))
    lists = pa.ListArray.from_arrays(pa.array([0, 2, 2, 5], type=pa.int32()), pa.array(halves))
    check(games, rows=lists)
    check([as_floats[2:5]], rows=lists.slice(2))
    with pytest.raises(ValueError, match="coin at index 0 is nan"):
        values_many(pa.array(np.array([np.nan], dtype=np.float16)), [0, 1])
