"""Zigzag stretches in the one-row kernels (docs/rows.md, "Zigzags"): after a Fusion whose
result is below the entry under it, each following pair of coins a, b with top <= a > b
fuses into the top entry without touching the stack. The rows here are made of such
stretches (high, low, high, ...), cut at every offset and parity, with ties (top == a,
a == b), negatives, other shapes around them and int64 limits, and checked against the DP,
the exact twin, the whole-game kernel and the same row on several threads."""

from __future__ import annotations

import random
from array import array

import numpy as np
import pytest

from coinsrow import _core, play, profits, value

from checks import check_play
from modes import drawn, machine_only, scaled
from oracles import dp_value


def zigzag(rng: random.Random, n: int, high: int) -> list[int]:
    """n coins alternating high and low (from either), with ties and now and then a coin
    out of the pattern."""
    start = rng.randint(0, 1)
    row = []
    for k in range(n):
        if (k + start) % 2:
            row.append(rng.randint(high // 2, high))
        else:
            row.append(rng.randint(-high // 4, high // 2))
        if rng.random() < 0.05:
            row[-1] = rng.choice([row[-2] if k else 0, -high, high, 0])
    return row


def mixed(rng: random.Random, n: int, high: int) -> list[int]:
    """Zigzag stretches between sorted stretches and random coins."""
    row: list[int] = []
    while len(row) < n:
        size = rng.randint(1, 200)
        kind = rng.randrange(4)
        if kind == 0:
            row += sorted(rng.randint(-high, high) for _ in range(size))
        elif kind == 1:
            row += [rng.randint(-high, high) for _ in range(size)]
        else:
            row += zigzag(rng, size, high)
    return row[:n]


@pytest.mark.slow
def test_small_zigzags_against_the_dp():
    rng = random.Random(9301)
    for trial in range(scaled(drawn(400), 4)):
        n = rng.randint(0, 90)
        row = (zigzag if trial % 2 else mixed)(rng, n, rng.choice([3, 20, 10**6]))
        arr = np.array(row, dtype=np.int64)
        want = dp_value(row)
        total = sum(row)
        for threads in (1, 2, 3, 7):
            assert value(arr, threads=threads) == want, (trial, threads)
            assert profits(arr, threads=threads) == ((total + want) // 2,
                                                     (total - want) // 2), (trial, threads)
        check_play(row, list(play(arr, threads=1)))
        assert list(play(arr, threads=3)) == list(play(arr, threads=1))
        floats = arr.astype(np.float64)
        assert value(floats, threads=1) == want
        assert value(floats, threads=2) == want


@pytest.mark.slow
def test_long_zigzags_against_the_twin_and_the_whole_game():
    rng = random.Random(9302)
    for trial in range(scaled(24, 6)):
        n = rng.choice([3000, 10_000, 40_000]) + rng.randint(0, 1)
        row = (zigzag if trial % 2 else mixed)(rng, n, rng.choice([50, 10**9]))
        arr = np.array(row, dtype=np.int64)
        want = _core.game_value(arr, array("q", [0]), array("q", [n]), 1)[1]
        assert _core.row_value_exact(row, 1, 1) == (_core.Status.OK, want)
        total = sum(row)
        moves = list(play(arr, threads=1))
        taken = [row[p] for p in moves]
        assert sorted(moves) == list(range(n))
        assert sum(taken[0::2]) - sum(taken[1::2]) == want
        assert list(_core.row_play_exact(row, 1, 1)[1]) == moves
        for threads in (1, 2, 3, 7):
            assert value(arr, threads=threads) == want, (trial, threads)
            assert profits(arr, threads=threads) == ((total + want) // 2,
                                                     (total - want) // 2), (trial, threads)
            assert list(play(arr, threads=threads)) == moves, (trial, threads)


def test_float_zigzags_agree_with_the_twin_bit_for_bit():
    """A zigzag adds top - a + b in the order a Fusion does, so the float answers are the
    exact twin's, rounded once."""
    rng = random.Random(9303)
    for _ in range(scaled(40, 4)):
        n = rng.randint(100, 3000)
        row = [x / 7 + rng.random() * 1e-9 for x in zigzag(rng, n, 10**6)]
        arr = np.array(row, dtype=np.float64)
        assert _core.row_value(arr, 1, 1) == _core.row_value_exact(row, 1, 1)
        assert _core.row_profits(arr, 1, 1) == _core.row_profits_exact(row, 1, 1)
        assert list(_core.row_play(arr, 1, 1)[1]) == list(_core.row_play_exact(row, 1, 1)[1])


@pytest.mark.slow
@machine_only
def test_zigzags_near_the_int64_limits():
    """High coins near 2**62 and low ones near -2**62: a zigzag's top - a + b leaves int64
    after a few pairs. The kernel reports the overflow and value(), profits() and play()
    answer exactly; where it does not overflow, the int64 answer is the twin's."""
    rng = random.Random(9304)
    overflowed = 0
    for _ in range(60):
        n = rng.randint(6, 400)
        scale = rng.choice([2**40, 2**58, 2**60])
        row = [x * scale for x in zigzag(rng, n, 7)]  # |coin| <= 7 * 2**60 < 2**63
        arr = np.array(row, dtype=np.int64)
        want = _core.row_value_exact(row, 1, 1)[1]
        status = _core.row_value(arr, 1, 1)[0]
        if status == _core.Status.OVERFLOW:
            overflowed += 1
        else:
            assert _core.row_value(arr, 1, 1) == (_core.Status.OK, want)
        total = sum(row)
        assert value(arr, threads=1) == want
        assert value(arr, threads=3) == want
        assert profits(arr, threads=1) == ((total + want) // 2, (total - want) // 2)
        moves = list(play(arr, threads=1))
        assert list(_core.row_play_exact(row, 1, 1)[1]) == moves
    assert overflowed > 5
