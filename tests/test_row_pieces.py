"""Long valleys whose two sides are in many pieces (runs of unwritten coins between written
entries): the value's merge of L and R goes piece by piece (docs/rows.md), and must give
the paper's value, the whole-game kernel's value and the exact twin's value."""

from __future__ import annotations

import random
from array import array

import numpy as np

from coinsrow import _core, play, profits, value

from modes import scaled
from oracles import paper_value


def broken_side(rng: random.Random, n: int, high: int) -> list[int]:
    """n sorted coins (non-decreasing), with ties and small dips every few dozen coins."""
    coins = sorted(rng.randrange(high) for _ in range(n))
    k = 0
    while k + 3 < n:
        k += rng.randint(1, 300)
        if k + 3 >= n:
            break
        if rng.random() < 0.5:
            coins[k + 1] = coins[k]          # a tie
        else:
            coins[k], coins[k + 1] = coins[k + 1], coins[k]  # a dip
    return coins


def valley(rng: random.Random, n: int, high: int) -> list[int]:
    """Down, then up: both sides broken into pieces, their lengths far apart or close."""
    n_left = rng.randint(n // 8, n - n // 8)
    left = broken_side(rng, n_left, high)[::-1]
    right = broken_side(rng, n - n_left, high)
    return left + right


def test_long_valleys_in_pieces_against_the_paper_and_the_twin():
    rng = random.Random(2201)
    for trial in range(scaled(24, 6)):
        n = rng.choice([5000, 9000, 20000])
        row = valley(rng, n, rng.choice([50, 10**4, 10**9]))
        if trial % 3 == 0:
            row = [-x for x in row[::-1]]    # the same shape, negative coins
        arr = np.array(row, dtype=np.int64)
        want = paper_value([row])
        assert value(arr, threads=1) == want, trial
        assert value(arr, threads=3) == want, trial
        assert _core.row_value_exact(row, 1, 1)[1] == want, trial
        starts, stops = array("q", [0]), array("q", [n])
        assert _core.game_value(arr, starts, stops, 1)[1] == want, trial
        total = sum(row)
        assert profits(arr, threads=1) == ((total + want) // 2, (total - want) // 2), trial
        moves = list(play(arr, threads=1))
        taken = [row[p] for p in moves]
        assert sum(taken[0::2]) - sum(taken[1::2]) == want, trial


def test_the_pieces_merge_near_the_int64_limits():
    """Coins near +-2**62: the piecewise merge reports an overflow where one can happen, and
    value() then answers exactly."""
    rng = random.Random(2202)
    for _ in range(scaled(6, 3)):
        row = [x * 2**43 for x in valley(rng, 6000, 10**6)]
        arr = np.array(row, dtype=np.int64)
        assert value(arr, threads=1) == paper_value([row])
