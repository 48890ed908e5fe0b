"""The number contract at every entry point (docs/guide/numbers.md).

- Exact numbers stay exact: ints (int64 overflow redone on Python ints), Fraction, Decimal.
- Floats: an overflow to +-inf anywhere in a computation is redone exactly and rounded once;
  no answer is ever NaN; no entry point raises where ``value()`` answers.
- Float profits are each player's ``math.fsum`` of the coins they take in the optimal play.
"""

from __future__ import annotations

import math
import random
from decimal import Decimal
from fractions import Fraction

import pytest

import coinsrow
from coinsrow import (
    Engine,
    Game,
    Intervals,
    cooperative_max,
    pizza,
    profits,
    profits_many,
    value,
    values_many,
)

from checks import close, rounded
from generators import random_parents
from modes import drawn, scaled
from oracles import brute_forest_value, cooperative_brute, dp_table

M = 1.7976931348623157e308  # the largest float
HUGE = [M, -M, 1e308, -1e308, 9e307, -9e307, 1e300, 0.0, -0.0, 1.0, -2.5]


def owner_sums(moves) -> tuple[float, float]:
    """What each player takes in a play, summed exactly and rounded once: math.fsum of it,
    where fsum's intermediate sums stay in the float range."""
    return (rounded(sum(Fraction(m.coin) for m in moves[0::2])),
            rounded(sum(Fraction(m.coin) for m in moves[1::2])))


# -- the examples of the contract ---------------------------------------------------------------


def test_large_float_forests_of_the_examples():
    game = Game(forest=([-M, -1e308, M, M], [-1, -1, 1, 1]))
    exact = brute_forest_value([], [], [Fraction(x) for x in (-M, -1e308, M, M)], [-1, -1, 1, 1])
    assert game.value() == rounded(exact) == 7.976931348623157e307
    move = game.best_move()
    assert move.coin - game.take(move).value() == game.value()  # optimal, not node 0
    first, second = game.profits()
    assert (first, second) == owner_sums(game.play()) and not math.isnan(first + second)
    assert Game(forest=([1e308, -1e308, -1e308, 1e308], [-1, 0, 1, 2])).value() == 0.0
    assert Game(forest=([1e308, 1e308], [-1, -1])).profits() == (1e308, 1e308)
    assert Game(forest=([Decimal("0.5")], [-1])).profits() == (Decimal("0.5"), Decimal("0"))


def test_float_profits_are_what_each_player_takes():
    assert profits([0.1, 0.2]) == (0.2, 0.1)
    first, second = profits([1e16, 1.0, 3.0])
    assert (first, second) == owner_sums(Game(rows=[[1e16, 1.0, 3.0]]).play())
    assert second == 3.0


def test_batches_redo_float_overflow_like_value():
    assert values_many([[M, 1e308, M]]) == [value([M, 1e308, M])] == [1e308]
    assert profits_many([[1e308, 1e308, -1e308]]) == [profits([1e308, 1e308, -1e308])]
    assert not any(math.isnan(x) for p in profits_many([[1e308, 1e308, -1e308]]) for x in p)


def test_engine_intervals_and_pizza_answer_where_value_answers():
    row = [1e308, -1e308]
    assert Engine(row).value() == value(row) == math.inf  # the exact 2e308 is beyond floats
    assert Intervals(row).value(0, 2) == value(row)
    result = pizza(row)
    assert result.value == math.inf and not math.isnan(result.first + result.second)


def test_a_nan_forest_coin_is_refused_when_the_game_is_built():
    with pytest.raises(ValueError, match=r"forest: coin at node 1 is nan; coins must be finite"):
        Game(forest=([1.0, math.nan], [-1, 0]))
    with pytest.raises(ValueError, match=r"forest: coin at node 0 is inf"):
        Game(rows=[[1.0]], forest=([math.inf], [-1]))


# -- random inputs against exact oracles --------------------------------------------------------


def test_huge_float_forests_against_exact_minimax():
    rng = random.Random(61)
    for _ in range(scaled(300)):
        n = rng.randint(1, 7)
        values = [rng.choice(HUGE) for _ in range(n)]
        parents = random_parents(rng, n)
        rows = [[rng.choice(HUGE) for _ in range(rng.randint(0, 3))]
                for _ in range(rng.randint(0, 1))]
        game = Game(rows=rows, forest=(values, parents))
        exact = brute_forest_value([[Fraction(x) for x in r] for r in rows], [],
                                   [Fraction(x) for x in values], parents)
        got = game.value()
        coins = values + [x for r in rows for x in r]
        assert type(got) is float and close(got, exact, coins), (rows, values, parents)
        moves = game.play()  # float decisions: legal and complete, not exact-optimal
        position = game
        for move in moves:
            position = position.take(move)
        assert len(position) == 0
        first, second = game.profits()  # each player's coins of the play, rounded once
        taken = ([Fraction(m.coin) for m in moves[0::2]], [Fraction(m.coin) for m in moves[1::2]])
        assert (first, second) == (rounded(sum(taken[0])), rounded(sum(taken[1])))


@pytest.mark.parametrize("kind", [Fraction, Decimal])
def test_exact_forests(kind):
    rng = random.Random(62)
    for _ in range(scaled(200)):
        n = rng.randint(0, 7)
        values = [kind(rng.randint(-40, 40)) / kind(rng.choice([1, 4, 10])) for _ in range(n)]
        parents = random_parents(rng, n)
        stacks = [[kind(rng.randint(-9, 9)) / kind(10) for _ in range(rng.randint(0, 3))]]
        game = Game(stacks=stacks, forest=(values, parents))
        exact = brute_forest_value([], stacks, values, parents)
        got = game.value()
        assert got == exact and (type(got) is kind or not (n or stacks[0]))
        first, second = game.profits()
        assert type(first) is type(second) is (kind if n or stacks[0] else int)
        assert first - second == exact and first + second == sum(values) + sum(stacks[0])


@pytest.mark.slow
def test_random_huge_float_rows_at_every_entry_point():
    rng = random.Random(63)
    for _ in range(scaled(drawn(300))):
        n = rng.randint(0, 9)
        row = [rng.choice(HUGE) for _ in range(n)]
        exact = [Fraction(x) for x in row]
        d = dp_table(exact)
        v = d[0][n] if n else Fraction(0)
        assert close(value(row), v, row)
        assert close(Engine(row).value(), v, row)
        iv = Intervals(row)
        for i in range(n + 1):
            for j in range(i, n + 1):
                assert close(iv.value(i, j), d[i][j], row)
        first, second = profits(row)
        assert (first, second) == owner_sums(Game(rows=[row]).play())
        assert values_many([row]) == [value(row)]
        assert profits_many([row]) == [profits(row)]
        assert close(cooperative_max(row), cooperative_brute(exact), row)
        if n:
            result = pizza(row)
            best = max(exact[i] - (dp_table(exact[i + 1:] + exact[:i])[0][n - 1] if n > 1
                                   else 0) for i in range(n))
            assert close(result.value, best, row)
            for x in (result.value, result.first, result.second):
                assert not math.isnan(x)


def test_float_games_of_rows_and_stacks_profits_and_playouts():
    rng = random.Random(64)
    for _ in range(scaled(200)):
        rows = [[rng.uniform(-1, 1) for _ in range(rng.randint(0, 5))] for _ in range(2)]
        stacks = [[rng.choice([0.1, 0.2, 0.3, -0.7, 1e16]) for _ in range(rng.randint(0, 5))]]
        game = Game(rows=rows, stacks=stacks)
        assert game.profits() == owner_sums(game.play())
        playout = coinsrow.simulate(game)
        assert (playout.first, playout.second) == game.profits()


def test_batches_equal_one_game_answers_on_every_kind_of_number():
    rng = random.Random(65)
    games = []
    for _ in range(scaled(200)):
        n = rng.randint(0, 6)
        kind = rng.choice(["huge", "int64", "big", "fraction", "decimal", "float"])
        if kind == "huge":
            games.append([rng.choice(HUGE) for _ in range(n)])
        elif kind == "int64":
            games.append([rng.choice([2**63 - 1, -(2**63), 2**62, -1, 0, 3]) for _ in range(n)])
        elif kind == "big":
            games.append([rng.randint(-3, 3) * 2**80 for _ in range(n)])
        elif kind == "fraction":
            games.append([Fraction(rng.randint(-9, 9), 7) for _ in range(n)])
        elif kind == "decimal":
            games.append([Decimal(rng.randint(-99, 99)) / 100 for _ in range(n)])
        else:
            games.append([rng.uniform(-5, 5) for _ in range(n)])
    for threads in (1, 2):
        got = values_many(games, threads=threads)
        assert got == [value(g) for g in games]
        assert [type(x) for x in got] == [type(value(g)) for g in games]
        assert profits_many(games, threads=threads) == [profits(g) for g in games]
