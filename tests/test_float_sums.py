"""The exact sums behind float profits (docs/algorithm.md, "Float profits"): each player's
coins summed as an integer count of 2^-1074 and rounded once, ties to even. They must be
``math.fsum`` of the coins each player takes, bit for bit, on doubles of every kind: random
bit patterns, subnormals, powers of two, halfway cases, cancellations to zero, and rows long
enough that the accumulator moves its carries many times. The kernels are called directly so
that their own sums are checked (a float overflow would send the public call to the exact
path); the public calls are checked against the same oracle."""

from __future__ import annotations

import math
import random
import struct
from fractions import Fraction

import numpy as np
import pytest

from coinsrow import Game, _core, play, profits, simulate

from checks import same_bits
from modes import drawn, machine_only, scaled

TINY = 5e-324            # the smallest subnormal, 2^-1074
SMALLEST_NORMAL = 2.2250738585072014e-308


def any_double(rng: random.Random, top: int) -> float:
    """A finite double of any of several kinds, most of them of magnitude below 2^top."""
    kind = rng.randrange(6)
    if kind == 0:  # a random bit pattern: every exponent, subnormals included
        while True:
            x: float = struct.unpack("<d", struct.pack("<Q", rng.getrandbits(64)))[0]
            if math.isfinite(x) and abs(x) < 2.0 ** top:
                return x
    if kind == 1:
        return rng.choice([0.0, -0.0, TINY, -TINY, 3 * TINY, SMALLEST_NORMAL,
                           -SMALLEST_NORMAL, SMALLEST_NORMAL - TINY, 1.0, -1.0, 0.5,
                           2.0 ** (top - 1), -(2.0 ** (top - 1))])
    if kind == 2:
        return rng.uniform(-1.0, 1.0) * 2.0 ** rng.randint(-1074, top - 1)
    if kind == 3:  # integers of 53 bits at nearby scales: sums that need every bit
        return rng.choice([-1, 1]) * rng.randint(0, 2**53 - 1) * 2.0 ** rng.randint(-60, 0)
    if kind == 4:
        return rng.choice([-1.0, 1.0]) * 2.0 ** rng.randint(-1074, top - 1)
    return rng.choice([-1, 1]) * rng.randint(1, 1000) * TINY


def float_row(rng: random.Random, n: int) -> list[float]:
    top = rng.choice([1023, 900, 64, 1, -1000])
    row = [any_double(rng, top) for _ in range(n)]
    if n > 2 and rng.random() < 0.3:
        row[-1] = -row[0]  # a cancellation
    if rng.random() < 0.3:
        # Halfway cases: 1 + 2^-53 lies halfway between two doubles, and a third coin
        # decides the rounding.
        row += [1.0, 2.0**-53, rng.choice([0.0, 2.0**-106, -(2.0**-106), TINY])]
    rng.shuffle(row)
    return row


def owner_fsums(row: list[float], moves) -> tuple[float, float]:
    """Each player's coins in a play given as coin indices, their exact sum rounded once,
    half to even: math.fsum, or where a partial sum of fsum's leaves the float range (it
    raises), the exact sum as a Fraction, rounded (+-inf where it is beyond the range)."""
    out = []
    for owned in (moves[0::2], moves[1::2]):
        try:
            out.append(math.fsum(row[i] for i in owned))
        except OverflowError:
            exact = sum((Fraction(row[i]) for i in owned), Fraction(0))
            try:
                out.append(float(exact))  # int / int: correctly rounded
            except OverflowError:
                out.append(math.inf if exact > 0 else -math.inf)
    return out[0], out[1]


@pytest.mark.slow
@machine_only
def test_row_kernel_sums_are_fsum_on_doubles_of_every_kind():
    rng = random.Random(4101)
    checked, rows = 0, drawn(600)
    for _ in range(rows):
        n = rng.choice([1, 2, 3, 4, 7, 30, 300, 3000])
        row = float_row(rng, n)
        arr = np.array(row, dtype=np.float64)
        want = owner_fsums(row, play(row, threads=1))
        for parts, threads in ((1, 1), (3, 2), (7, 3)):
            status, payload = _core.row_profits(arr, parts, threads, False)
            if status != _core.Status.OK:
                # A float overflow in the value: the exact path answers (checked below).
                assert status == _core.Status.OVERFLOW
                continue
            checked += 1
            assert same_bits(tuple(payload), want), (row, parts)
    assert checked > 2 * rows  # most rows (of 3 calls each) stay in the float range all along


@machine_only
def test_long_rows_carry_many_times():
    """Far more coins of one sign than the accumulator takes between two moves of its
    carries, at the top of the float range and at the bottom, and with large cancellations."""
    rng = random.Random(4102)
    n = 30_000
    cases = [
        [rng.random() * 2.0**1000 for _ in range(n)],                   # one sign, huge
        [-rng.random() * 2.0**1000 for _ in range(n)],
        [rng.randint(1, 2**52) * TINY for _ in range(n)],               # subnormal and small
        [rng.choice([-1, 1]) * rng.random() * 2.0**1000 for _ in range(n)],
        [x for k in range(n // 2) for x in (2.0 ** (k % 2000 - 1000), -(2.0 ** (k % 1990 - 995)))],
        # The largest step an addition makes in one 32-bit digit: a 53-bit significand
        # whose lowest bit is at a position 31 mod 32, all into the same digits.
        [math.ldexp(rng.randint(2**52, 2**53 - 1), 32 * 60 + 31 - 1074) for _ in range(n)],
        [-math.ldexp(rng.randint(2**52, 2**53 - 1), 32 * 2 + 31 - 1074) for _ in range(n)],
    ]
    for row in cases:
        arr = np.array(row, dtype=np.float64)
        status, payload = _core.row_profits(arr, 1, 1, False)
        assert status == _core.Status.OK
        assert same_bits(tuple(payload), owner_fsums(row, play(row, threads=1)))
        assert same_bits(profits(arr, threads=2), tuple(payload))


@machine_only
def test_game_kernels_sums_are_fsum():
    """Games of several rows and stacks sum a written play; a game of one row sums its
    reduced row directly. Both against math.fsum of what each player takes."""
    rng = random.Random(4103)
    for _ in range(scaled(400)):
        rows = [float_row(rng, rng.randint(1, 40)) for _ in range(rng.randint(1, 3))]
        stacks = [float_row(rng, rng.randint(1, 40)) for _ in range(rng.randint(0, 3))]
        # Coins of at most 2^900: no sum leaves the float range, so the kernels answer.
        rows = [[x if abs(x) < 2.0**900 else 1.0 for x in r] for r in rows]
        stacks = [[x if abs(x) < 2.0**900 else 1.0 for x in s] for s in stacks]
        game = Game(rows=rows, stacks=stacks)
        moves = game.play()
        want = (math.fsum(m.coin for m in moves[0::2]), math.fsum(m.coin for m in moves[1::2]))
        assert same_bits(game.profits(), want)
        one = Game(rows=rows[:1])
        moves = one.play()
        want = (math.fsum(m.coin for m in moves[0::2]), math.fsum(m.coin for m in moves[1::2]))
        assert same_bits(one.profits(), want)


def test_public_profits_are_fsum_of_each_players_coins():
    """In both modes, and where the kernel overflowed and the exact path answered."""
    rng = random.Random(4104)
    for _ in range(scaled(600)):
        row = float_row(rng, rng.choice([1, 2, 5, 20, 200]))
        first, second = profits(row, threads=1)
        moves = play(row, threads=1)
        want = owner_fsums(row, moves)
        assert same_bits((first, second), want), row


def test_sums_whose_partial_sums_leave_the_float_range():
    """A player's coins M, M, -M (M the largest double): math.fsum raises on them, the exact
    sum is M. Profits, the play's totals and simulate() all give M, without the exact path
    for the machine kernels."""
    big = 1.7976931348623157e308
    stack = [big, 0.0, big, 0.0, -big]  # the moves are forced: first takes big, big, -big
    game = Game(stacks=[stack])
    assert game.profits() == (big, 0.0)
    played = simulate(game, "greedy", "greedy")
    assert (played.first, played.second) == (big, 0.0)
    row = [big, 0.0, big, -big, 1.0]
    assert same_bits(profits(row), owner_fsums(row, play(row)))
    mixed = Game(rows=[row], stacks=[[1.0]])
    assert same_bits(tuple(mixed.profits()), owner_sums_of_moves(mixed.play()))


def owner_sums_of_moves(moves) -> tuple[float, float]:
    """owner_fsums for a play given as moves."""
    coins = [m.coin for m in moves]
    return owner_fsums(coins, list(range(len(coins))))
