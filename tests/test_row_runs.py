"""Runs of unwritten coins in the one-row kernels (docs/rows.md): each run keeps its coins'
alternating sum so that the Greedy phase adds it without reading it again, Fusions that
reach into a run shorten it (their coins are taken out of the sum when it is used), an
overflow of that sum falls back to reading the coins; a row on several threads whose
sampled parts are mostly runs is reduced on one thread; scratch blocks are kept from one
call to the next. Every answer is checked against the whole-game kernel, the exact twin
and (small rows) the DP."""

from __future__ import annotations

import random
import threading
from array import array

import numpy as np
import pytest

from coinsrow import _core, play, profits, value

from modes import drawn, machine_only, scaled
from oracles import dp_value


def ties_and_dips(rng: random.Random, n: int, high: int, every: int) -> list[int]:
    """n sorted coins with a tie or a dip every ``every`` coins or so: long runs, each
    reached into by a Fusion now and then."""
    coins = sorted(rng.randrange(high) for _ in range(n))
    k = 0
    while True:
        k += rng.randint(1, 2 * every)
        if k + 1 >= n:
            return coins
        if rng.random() < 0.5:
            coins[k + 1] = coins[k]
        else:
            coins[k], coins[k + 1] = coins[k + 1], coins[k]


def shapes(rng: random.Random, n: int, high: int) -> list[list[int]]:
    """Descending, ascending, valley and peak rows of long runs, and a row that is half
    runs and half random coins (in either order)."""
    up = ties_and_dips(rng, n, high, rng.choice([20, 80, 300]))
    down = up[::-1]
    half = n // 2
    noise = [rng.randrange(high) for _ in range(n - half)]
    return [down, up, up[0::2][::-1] + up[1::2], up[0::2] + up[1::2][::-1],
            up[:half] + noise, noise + down[:half]]


def whole_game_value(row: np.ndarray) -> int:
    return _core.game_value(row, array("q", [0]), array("q", [len(row)]), 1)[1]


@pytest.mark.slow
def test_runs_keep_their_alternating_sums():
    """Value, profits and play of rows of long runs, on one thread and in parts."""
    rng = random.Random(7101)
    for _ in range(scaled(12, 3)):
        for row in shapes(rng, rng.randint(2000, scaled(30_000, 10)), rng.choice([50, 10**9])):
            arr = np.array(row, dtype=np.int64)
            want = whole_game_value(arr)
            total = int(arr.sum())
            assert _core.row_value(arr, 1, 1) == (_core.Status.OK, want)
            assert _core.row_value_exact(row, 1, 1) == (_core.Status.OK, want)
            assert _core.row_profits(arr, 1, 1) == (
                _core.Status.OK, ((total + want) // 2, (total - want) // 2))
            moves = _core.row_play(arr, 1, 1)[1]
            assert list(_core.row_play_exact(row, 1, 1)[1]) == list(moves)
            for parts in (2, 5):
                assert _core.row_value(arr, parts, 1) == (_core.Status.OK, want)
                assert _core.row_play(arr, parts, 1)[1] == moves


def test_small_rows_of_runs_against_the_dp():
    rng = random.Random(7102)
    for _ in range(scaled(40, 4)):
        for row in shapes(rng, rng.randint(40, 160), rng.choice([6, 1000])):
            arr = np.array(row, dtype=np.int64)
            want = dp_value(row)
            for parts, threads in ((1, 1), (3, 1), (4, 2)):
                assert _core.row_value(arr, parts, threads) == (_core.Status.OK, want)


def peak_eating_runs(rng: random.Random, n: int, high: int) -> list[int]:
    """A rise long enough to be scanned as a run, then falls, short rises and plateaus
    whose Fusions reach into it from its top (value and profits read such a run in place):
    some stop inside the run, some use it up, some leave four entries written above it."""
    row = sorted(rng.randrange(high) for _ in range(rng.randint(70, 200)))
    while len(row) < n:
        m = rng.randint(1, 40)
        kind = rng.random()
        if kind < 0.5:
            row += sorted((rng.randrange(high) for _ in range(m)), reverse=True)
        elif kind < 0.8:
            row += sorted(rng.randrange(high) for _ in range(m))
        else:
            row += [row[-1]] * m
    return row[:n]


def check_against_the_dp(row: list[int]) -> None:
    """value (one thread and in parts), profits and play of the row against the DP and the
    exact twin."""
    arr = np.array(row, dtype=np.int64)
    want = dp_value(row)
    total = sum(row)
    for parts, threads in ((1, 1), (3, 1), (2, 2)):
        assert _core.row_value(arr, parts, threads) == (_core.Status.OK, want)
    assert _core.row_profits(arr, 1, 1) == (
        _core.Status.OK, ((total + want) // 2, (total - want) // 2))
    assert value(arr) == want
    assert list(play(arr)) == list(_core.row_play_exact(row, 1, 1)[1])


def test_fusions_reading_a_run_in_place_against_the_dp():
    rng = random.Random(7108)
    for _ in range(scaled(drawn(150), 15)):
        n = rng.randint(80, 400)
        check_against_the_dp(peak_eating_runs(rng, n, rng.choice([5, 1000, 10**9])))


def falls_with_ties(rng: random.Random, n: int, high: int) -> list[int]:
    """Falling stretches long enough to be scanned as runs, with ties of two, three or
    four equal coins anywhere in them (the scan takes a tie of two that fuses with the next
    coin without stopping), now and then a rise or a plateau."""
    row: list[int] = []
    while len(row) < n:
        m = rng.randint(1, 400)
        kind = rng.random()
        if kind < 0.75:
            fall = sorted((rng.randrange(high) for _ in range(m)), reverse=True)
            for _ in range(rng.randint(0, m // 100 + 1)):
                k = rng.randrange(len(fall))
                fall[k:k] = [fall[k]] * rng.choice([1, 1, 1, 2, 3])
            row += fall
        elif kind < 0.9:
            row += sorted(rng.randrange(high) for _ in range(m))
        else:
            row += [rng.randrange(high)] * rng.randint(2, 6)
    return row[:n]


def test_ties_on_falling_runs_against_the_dp():
    rng = random.Random(7111)
    for _ in range(scaled(drawn(40), 6)):
        n = rng.randint(300, 700)
        high = rng.choice([400, 10**5, 10**9])
        shift = rng.choice([0, high // 2])  # negative coins too
        check_against_the_dp([c - shift for c in falls_with_ties(rng, n, high)])


@pytest.mark.slow
def test_ties_on_long_falling_runs_against_the_twin():
    rng = random.Random(7112)
    for _ in range(scaled(10, 3)):
        row = falls_with_ties(rng, rng.randint(5_000, scaled(60_000, 10)),
                              rng.choice([300, 10**9]))
        arr = np.array(row, dtype=np.int64)
        want = _core.row_value_exact(row, 1, 1)[1]
        assert want == whole_game_value(arr)
        total = int(arr.sum())
        assert _core.row_value(arr, 1, 1) == (_core.Status.OK, want)
        assert _core.row_profits(arr, 1, 1) == (
            _core.Status.OK, ((total + want) // 2, (total - want) // 2))
        assert _core.row_value(arr, 4, 2) == (_core.Status.OK, want)


@machine_only
@pytest.mark.parametrize("shape, seed", [(peak_eating_runs, 7109), (falls_with_ties, 7113)])
def test_huge_coins_whose_fusions_or_sums_overflow(shape, seed):
    """Huge coins on a peak (the Fusions that read the run in place overflow int64) and on
    falling runs with ties (their sums overflow): the kernel says so or answers exactly, and
    the value is exact either way."""
    rng = random.Random(seed)
    for _ in range(30):
        row = [2**62 + c for c in shape(rng, rng.randint(100, 600), 2**61)]
        arr = np.array(row, dtype=np.int64)
        want = _core.row_value_exact(row, 1, 1)[1]
        status, got = _core.row_value(arr, 1, 1)
        assert status in (_core.Status.OK, _core.Status.OVERFLOW)
        if status == _core.Status.OK:
            assert got == want
        assert value(arr) == want == value(row)
        first, second = profits(arr)
        assert first + second == sum(row) and first - second == want


@machine_only
def test_a_run_whose_sum_overflows_is_read_instead():
    """Runs of huge coins: the sums the scan keeps overflow int64, the value does not; the
    value is still exact (and an overflow of the value itself falls back exactly)."""
    rng = random.Random(7103)
    for _ in range(30):
        n = rng.randint(200, 3000)
        base = rng.choice([2**61, 2**62, -(2**62)])
        row = sorted(base + rng.randrange(2**40) for _ in range(n))
        if rng.random() < 0.5:
            row.reverse()
        for _ in range(rng.randint(0, 5)):
            i = rng.randrange(n - 1)
            row[i + 1] = row[i]
        arr = np.array(row, dtype=np.int64)
        want = _core.row_value_exact(row, 1, 1)[1]
        status, got = _core.row_value(arr, 1, 1)
        if status == _core.Status.OK:
            assert got == want
        else:
            assert status == _core.Status.OVERFLOW
        assert value(arr) == want == value(row)
        first, second = profits(arr)
        assert first + second == sum(row) and first - second == want


@pytest.mark.slow
def test_threads_on_rows_of_runs_agree_with_one_thread():
    """threads=2, 3 and None (the kernels' ``sample``) on rows whose parts are mostly runs
    (then reduced on one thread) and on rows that are not (on the pool): the answers of one
    thread."""
    rng = random.Random(7104)
    n = scaled(300_000, 30)
    for row in shapes(rng, n, 10**9) + [[rng.randrange(10**9) for _ in range(n)]]:
        arr = np.array(row, dtype=np.int64)
        want = whole_game_value(arr)
        moves = play(arr, threads=1)
        for threads in (2, 3, None):
            assert value(arr, threads=threads) == want
            assert play(arr, threads=threads) == moves
            first, second = profits(arr, threads=threads)
            assert first - second == want and first + second == int(arr.sum())
        for parts in (2, 40):
            for sample in (False, True):
                assert _core.row_value(arr, parts, 2, sample) == (_core.Status.OK, want)
                assert _core.row_play(arr, parts, 2, sample)[1] == moves
                assert _core.row_profits(arr, parts, 2, sample)[1] == profits(arr, threads=1)
            assert _core.row_value_exact(row, parts, 2, True) == (_core.Status.OK, want)
        floats = arr.astype(np.float64)
        assert value(floats, threads=2) == value(floats, threads=1)
        assert profits(floats, threads=2) == profits(floats, threads=1)


def test_edges_on_threads_and_parts():
    """Empty, one, two and three coins with more parts and threads than coins."""
    for row in ([], [5], [5, 9], [9, 5], [4, 4], [1, 3, 2], [2**63 - 1, 1, 2**63 - 1]):
        arr = np.array(row, dtype=np.int64)
        want = dp_value(row) if row else 0
        for parts, threads in ((1, 1), (4, 2), (8, 3)):
            assert _core.row_value(arr, parts, threads)[0] in (_core.Status.OK,
                                                               _core.Status.OVERFLOW)
        for threads in (1, 2, None):
            assert value(arr, threads=threads) == want
            assert list(play(arr, threads=threads)) == list(play(row, threads=1))


@pytest.mark.slow
def test_kept_scratch_between_calls_of_every_size():
    """Calls of growing and shrinking sizes, value, profits and play interleaved: a kept
    scratch block is never too small, nor shared by two calls at once."""
    rng = random.Random(7105)
    rows = []
    for n in (10, scaled(300_000, 30), 1000, scaled(2_100_000, 100), 3, scaled(100_000, 10)):
        row = np.array(ties_and_dips(rng, n, 10**9, 50)[::-1], dtype=np.int64)
        rows.append((row, whole_game_value(row), play(row, threads=1)))
    for row, want, moves in rows + rows[::-1]:
        assert value(row, threads=1) == want
        assert play(row, threads=1) == moves
        first, second = profits(row, threads=1)
        assert first - second == want
    errors: list[str] = []

    def worker(seed: int) -> None:
        order = random.Random(seed)
        for _ in range(scaled(drawn(20), 10)):
            row, want, moves = order.choice(rows)
            if value(row, threads=1) != want or play(row, threads=1) != moves:
                errors.append(f"worker {seed}")

    workers = [threading.Thread(target=worker, args=(seed,)) for seed in range(4)]
    for t in workers:
        t.start()
    for t in workers:
        t.join()
    assert errors == []
    kept = _core.scratch_kept()
    assert not any(busy for _, busy in kept)  # every call gave its blocks back
    assert sum(size for size, _ in kept) <= 256 << 20


def test_the_largest_number_at_the_bottom_of_the_stack():
    """The entries below a scratch stack hold int64 max (+inf for floats), so that a lone
    entry almost never passes the Fusion test: a row whose bottom entry is that number
    itself (int64 max, or a float Fusion that overflowed to +inf) is still exact."""
    rng = random.Random(7106)
    big = 2**63 - 1
    for _ in range(scaled(400, 4)):
        n = rng.randint(1, 40)
        row = [big] + [rng.choice([big, rng.randrange(-50, 50)]) for _ in range(n - 1)]
        want = dp_value(row)
        arr = np.array(row, dtype=np.int64)
        assert value(arr) == want
        for parts in (1, 2, 3):
            status, got = _core.row_value(arr, parts, 1)
            assert status == _core.Status.OVERFLOW or got == want
        first, second = profits(arr)
        assert first - second == want and first + second == sum(row)
    for _ in range(scaled(200, 4)):
        n = rng.randint(3, 30)
        row = [rng.choice([1e308, -1e308, 1.5e308, 3.0, -2.0]) for _ in range(n)]
        floats = np.array(row, dtype=np.float64)
        assert value(floats) == value(row)
        assert list(play(floats)) == list(play(row))
