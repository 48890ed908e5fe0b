"""cooperative_max: the first player's best total when the second helps (a "dumb" opponent)."""

from __future__ import annotations

import _thread
import decimal
import math
import random
import signal
import sys
import threading
from array import array
from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
from alarms import raised_in, stop_after
from hypothesis import given
from hypothesis import strategies as st

import coinsrow
from coinsrow import Game, cooperative_max, profits, simulate

from generators import SMALL_STYLES, random_row
from modes import drawn
from oracles import cooperative_brute, cooperative_dumb_dp, cooperative_exhaustive

INT64_MAX = 2**63 - 1
INT64_MIN = -(2**63)


def test_small_rows_against_memoised_brute_force():
    rng = random.Random(3001)
    for _ in range(4000):
        row = random_row(rng, rng.randint(0, 12), SMALL_STYLES)
        assert cooperative_max(row) == cooperative_brute(row), row


def test_small_rows_against_every_play():
    rng = random.Random(3002)
    for _ in range(400):
        row = random_row(rng, rng.randint(0, 9), SMALL_STYLES)
        assert cooperative_max(row) == cooperative_exhaustive(row), row


def test_rows_up_to_200_against_the_dumb_opponent_dp():
    rng = random.Random(3003)
    for n in list(range(13, 40)) + [rng.randint(40, 200) for _ in range(12)] + [199, 200]:
        row = random_row(rng, n, SMALL_STYLES)
        assert cooperative_max(row) == cooperative_dumb_dp(row), row


@given(st.lists(st.integers(-20, 20), max_size=40))
def test_hypothesis_against_the_dumb_opponent_dp(row):
    assert cooperative_max(row) == cooperative_dumb_dp(row)


def test_empty_and_one_coin():
    assert cooperative_max([]) == 0 and type(cooperative_max([])) is int
    assert cooperative_max(np.array([], dtype=np.float64)) == 0
    for coin in (7, -7, 0, 2.5, Fraction(1, 3), Decimal("0.1"), 2**100, INT64_MIN):
        assert cooperative_max([coin]) == coin
        assert type(cooperative_max([coin])) is type(coin)


def test_two_coins_she_takes_the_larger():
    rng = random.Random(3004)
    for _ in range(200):
        a, b = rng.randint(-9, 9), rng.randint(-9, 9)
        assert cooperative_max([a, b]) == max(a, b)


def test_result_bounds_every_play():
    """No play gives her more than the cooperative maximum, and the optimal one is a play."""
    rng = random.Random(3005)
    for _ in range(drawn(300)):
        row = random_row(rng, rng.randint(0, 30), SMALL_STYLES)
        best = cooperative_max(row)
        assert best >= profits(row).first
        for first in ("greedy", "lookahead", "random"):
            for second in ("greedy", "lookahead", "random", "optimal"):
                assert simulate(row, first, second, seed=rng.random()).first <= best


def test_textbook_examples():
    # 1, 2, 1000, 3, 4, 900: with a helping opponent she gets 900, 1000 and 4.
    assert cooperative_max([1, 2, 1000, 3, 4, 900]) == 1904
    # {3, 2, 2, 3, 1, 2}: the three largest coins 3, 3, 2 are within reach.
    assert cooperative_max([3, 2, 2, 3, 1, 2]) == 8


def test_big_ints_near_the_int64_limits_fall_back_exactly():
    rng = random.Random(3006)
    edges = [INT64_MAX, INT64_MAX - 1, INT64_MIN, INT64_MIN + 1, 2**62, -(2**62), 0, 1, -1]
    for _ in range(300):
        n = rng.randint(1, 12)
        row = [rng.choice(edges) for _ in range(n)]
        expected = cooperative_brute(row)
        got = cooperative_max(row)
        assert got == expected and type(got) is int, row
        got_np = cooperative_max(np.array(row, dtype=np.int64))
        assert got_np == expected and type(got_np) is int, row
    # Sums that leave int64 only in the last layers, and beyond-int64 coins.
    for _ in range(40):
        row = [rng.randint(2**58, 2**60) for _ in range(rng.randint(10, 60))]
        assert cooperative_max(row) == cooperative_dumb_dp(row)
        wide = [x * 2**70 - rng.randint(0, 5)
                for x in random_row(rng, rng.randint(0, 40), SMALL_STYLES)]
        assert cooperative_max(wide) == cooperative_dumb_dp(wide)
    # Absolute sums just below and just above int64: the kernel's unchecked path (taken when
    # no sum can overflow) and its checked path meet here.
    for _ in range(300):
        n = rng.randint(1, 30)
        limit = INT64_MAX // n
        row = [rng.choice([limit, -limit, limit - 1, 0, rng.randint(-limit, limit)])
               for _ in range(n)]
        assert cooperative_max(row) == cooperative_dumb_dp(row), row
        nudged = [x + rng.choice([0, 1, 2]) for x in row]
        assert cooperative_max(nudged) == cooperative_dumb_dp(nudged), nudged
    unsigned = np.array([2**64 - 1, 3, 2**63, 5], dtype=np.uint64)
    assert cooperative_max(unsigned) == cooperative_brute([int(x) for x in unsigned])


def test_floats_approximately_and_exactly_when_sums_are_exact():
    rng = random.Random(3007)
    for _ in range(200):
        row = [rng.uniform(-1e6, 1e6) for _ in range(rng.randint(1, 80))]
        got = cooperative_max(row)
        assert type(got) is float
        assert math.isclose(got, cooperative_dumb_dp(row), rel_tol=1e-9, abs_tol=1e-3)
        assert cooperative_max(np.array(row)) == got
        # exact in binary
        quarters = [x / 4 for x in random_row(rng, rng.randint(1, 60), SMALL_STYLES)]
        assert cooperative_max(quarters) == cooperative_dumb_dp(quarters)
        assert cooperative_max(array("d", quarters)) == cooperative_max(quarters)
    mixed = [1, 2.5, 3]
    assert cooperative_max(mixed) == 5.5 and type(cooperative_max(mixed)) is float


def test_fractions_and_decimals_exactly():
    rng = random.Random(3008)
    for _ in range(150):
        ints = random_row(rng, rng.randint(0, 30), SMALL_STYLES)
        fractions = [Fraction(x, rng.randint(1, 7)) for x in ints]
        got = cooperative_max(fractions)
        assert got == cooperative_dumb_dp(fractions)
        assert ints == [] or type(got) is Fraction
        decimals = [Decimal(x).scaleb(-rng.randint(0, 40)) for x in ints]
        got = cooperative_max(decimals)
        with decimal.localcontext(decimal.Context(prec=200)):  # the oracle's sums, exactly
            assert got == cooperative_dumb_dp(decimals)
        assert ints == [] or type(got) is Decimal
    # Beyond the default 28 digits of the decimal context: still exact.
    row = [Decimal("1e30"), Decimal(0), Decimal("1e-30")]
    assert cooperative_max(row) == Decimal("1000000000000000000000000000000."
                                           "000000000000000000000000000001")


def test_every_buffer_type_gives_the_list_answer():
    rng = random.Random(3009)
    for _ in range(50):
        row = random_row(rng, rng.randint(1, 40), SMALL_STYLES)
        expected = cooperative_max(row)
        for dtype in (np.int8, np.int16, np.int32, np.int64, np.uint16, np.uint64):
            if np.iinfo(dtype).min <= min(row) and max(row) <= np.iinfo(dtype).max:
                assert cooperative_max(np.array(row, dtype=dtype)) == expected
        assert cooperative_max(array("q", row)) == expected
        assert cooperative_max(memoryview(array("l", row))) == expected
        assert cooperative_max(np.array(row, dtype=np.int64)[::-1][::-1]) == expected
        strided = np.array([x for x in row for _ in (0, 1)], dtype=np.int64)[::2]
        assert cooperative_max(strided) == expected
        assert cooperative_max(tuple(row)) == expected
        assert cooperative_max(iter(row)) == expected


def test_bad_input_is_a_clear_error_and_changes_nothing():
    row = [3, 1, float("nan"), 2]
    with pytest.raises(ValueError, match="index 2"):
        cooperative_max(row)
    with pytest.raises(ValueError, match="index 1"):
        cooperative_max(np.array([1.0, np.inf, 2.0]))
    with pytest.raises(ValueError, match="index 0"):
        cooperative_max([-math.inf])
    with pytest.raises(TypeError, match="index 1"):
        cooperative_max([1, "2", 3])
    with pytest.raises(TypeError, match="index 0"):
        cooperative_max([True])
    with pytest.raises(TypeError):
        cooperative_max(None)
    with pytest.raises(TypeError):
        cooperative_max("123")
    with pytest.raises(TypeError, match="Game"):
        cooperative_max(Game(rows=[[1, 2]]))
    with pytest.raises(ValueError, match="row must be 1-dimensional"):
        cooperative_max(np.zeros((2, 2)))
    values = [5, -3, 2**70, 4]
    copy = list(values)
    arr = np.array([5, -3, 7, 4])
    cooperative_max(values)
    cooperative_max(arr)
    assert values == copy and arr.tolist() == [5, -3, 7, 4]


def test_read_only_arrays():
    arr = np.array([4, 9, 1, 7], dtype=np.int64)
    arr.setflags(write=False)
    assert cooperative_max(arr) == cooperative_brute([4, 9, 1, 7])
    floats = np.array([4.0, 9.0, 1.0], dtype=np.float64)
    floats.setflags(write=False)
    assert cooperative_max(floats) == 13.0


def test_many_threads_at_once_get_the_right_answers():
    rng = random.Random(3010)
    rows = [np.array(random_row(rng, rng.randint(100, 400), SMALL_STYLES), dtype=np.int64)
            for _ in range(24)]
    expected = [cooperative_dumb_dp(r.tolist()) for r in rows[:6]] * 4
    shared = rows[:6] * 4  # the same arrays read by several threads
    with ThreadPoolExecutor(max_workers=4) as pool:
        assert list(pool.map(cooperative_max, shared)) == expected


# -- interrupts ---------------------------------------------------------------------------
# A long row (~5*10^9 DP cells for the machine loop: several seconds) is interrupted after
# 0.1 s. The exception must come out of the kernel itself: its traceback goes through
# _cooperative.pyx (or its twin's, _cooperative_exact.pyx). A loop that did not look at
# signals would only raise after returning, from the caller's frame, so the assertion can
# fail.


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="needs setitimer (POSIX)")
@pytest.mark.parametrize("kind", ["int64", "float64", "objects"])
def test_a_signal_stops_the_loop(kind):
    n = 100_000 if kind != "objects" else 30_000
    row = {"int64": np.arange(n, dtype=np.int64), "float64": np.arange(n, dtype=np.float64),
           "objects": [2**64 + i for i in range(n)]}[kind]
    cooperative_max(row[:10])  # first call of a kernel: its imports are not the loop
    assert raised_in(stop_after(0.1, lambda: cooperative_max(row)),
                     ("_cooperative.pyx", "_cooperative_exact.pyx"))
    # Nothing is left in a bad state: the next call works.
    assert cooperative_max(row[:12]) == cooperative_brute(list(row[:12]))


def test_ctrl_c_raises_keyboard_interrupt_from_the_loop():
    if threading.current_thread() is not threading.main_thread():  # pragma: no cover
        pytest.skip("signals are handled in the main thread only")
    row = np.arange(100_000, dtype=np.int64)
    cooperative_max(row[:10])
    timer = threading.Timer(0.1, _thread.interrupt_main)  # what Ctrl-C does
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt) as caught:
            cooperative_max(row)
    finally:
        timer.cancel()
    assert raised_in(caught.value, ("_cooperative.pyx", "_cooperative_exact.pyx"))
    assert cooperative_max([1, 2, 3]) == 5


def test_exported():
    assert "cooperative_max" in coinsrow.__all__ and coinsrow.cooperative_max is cooperative_max
    assert cooperative_max.__doc__ and "O(n^2)" in cooperative_max.__doc__
    assert sys.modules["coinsrow._cooperative"].cooperative_max is cooperative_max
