"""Iterables that can be read only once (generators, ``map``, ``iter(...)``, an object whose
``__iter__`` hands out the same iterator) are read once wherever a row, a stack, a forest's
values or parents, an ``Engine``'s row or a batch is accepted: the answer equals the minimax
oracle's and the answer for the same coins given as a list, for coins of every number type.
"""

from __future__ import annotations

import random
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest

import coinsrow

from oracles import brute_forest_value, dp_value


def _ints(rng, n):
    return [rng.randint(-5, 9) for _ in range(n)]


NUMBER_KINDS = {
    "int": _ints,
    "big int": lambda rng, n: [x * 2**64 + rng.randint(-3, 3) for x in _ints(rng, n)],
    "float": lambda rng, n: [x / 4 for x in _ints(rng, n)],
    "huge float": lambda rng, n: [x * 1e300 for x in _ints(rng, n)],
    "Fraction": lambda rng, n: [Fraction(x, rng.randint(1, 7)) for x in _ints(rng, n)],
    "Decimal": lambda rng, n: [Decimal(x) / 4 for x in _ints(rng, n)],
    "numpy int64": lambda rng, n: [np.int64(x) for x in _ints(rng, n)],
    "numpy float64": lambda rng, n: [np.float64(x / 2) for x in _ints(rng, n)],
    "int and Fraction": lambda rng, n: [Fraction(x, 3) if x % 2 else x for x in _ints(rng, n)],
}


class _SameIterator:
    """Iterable once: every ``iter()`` of it continues the same iterator."""

    def __init__(self, items):
        self._items = iter(items)

    def __iter__(self):
        return self._items


def _same(x):
    return x


def _generator(items):
    yield from items


ONE_SHOT = {
    "iter": iter,
    "generator": _generator,
    "map": lambda items: map(_same, items),
    "same iterator": _SameIterator,
}


def _oracle(oracle, *groups):
    """The oracle's answer; with float coins, within float rounding of the exact answer."""
    floats = any(isinstance(x, float) for group in groups for x in group)
    exact = [[Fraction(x) if isinstance(x, float) else x for x in group] for group in groups]
    answer = oracle(*exact)
    return pytest.approx(float(answer), rel=1e-12, abs=1e-12) if floats else answer


def _cases():
    rng = random.Random(29)
    for kind, make in NUMBER_KINDS.items():
        for n in (0, 1, 2, 5):
            yield kind, make(rng, n)


CASES = list(_cases())


@pytest.fixture(params=list(ONE_SHOT), name="once")
def _once(request):
    return ONE_SHOT[request.param]


@pytest.mark.parametrize("kind, row", CASES, ids=[f"{k}-{len(r)}" for k, r in CASES])
def test_a_one_shot_row_is_read_once_everywhere(once, kind, row):
    want = _oracle(dp_value, row) if row else 0
    assert coinsrow.value(once(row)) == want
    assert coinsrow.value(once(row)) == coinsrow.value(list(row))
    assert tuple(coinsrow.profits(once(row))) == tuple(coinsrow.profits(row))
    assert list(coinsrow.play(once(row))) == list(coinsrow.play(row))
    if row:
        assert coinsrow.best_move(once(row)) == coinsrow.best_move(row)
    assert coinsrow.Game(rows=[once(row)]).value() == want
    assert coinsrow.Game(rows=once([once(row)])).value() == want
    assert coinsrow.Engine(once(row)).value() == want
    assert coinsrow.Engine(coinsrow.Game(rows=[once(row)])).value() == want
    assert coinsrow.simulate(once(row), "greedy", "optimal") == coinsrow.simulate(
        row, "greedy", "optimal")
    assert coinsrow.values_many([once(row), [1, 2]]) == [want, 1]
    assert coinsrow.values_many(once([once(row)])) == [want]
    assert coinsrow.values_many(once(row), once([0, len(row)])) == [want]
    assert [tuple(p) for p in coinsrow.profits_many([once(row)])] == [
        tuple(coinsrow.profits(row))]
    assert coinsrow.cooperative_max(once(row)) == coinsrow.cooperative_max(row)
    if row:
        assert coinsrow.pizza(once(row)) == coinsrow.pizza(row)
        assert coinsrow.Intervals(once(row)).value(0, len(row)) == want


@pytest.mark.parametrize("kind, coins", CASES, ids=[f"{k}-{len(r)}" for k, r in CASES])
def test_one_shot_stacks_forests_and_mixed_games(once, kind, coins):
    rng = random.Random(len(coins))
    row = coins[: len(coins) // 2]
    stack = coins[len(coins) // 2:]
    parents = [rng.randrange(-1, i) for i in range(len(coins))]
    want = _oracle(lambda r, s, v: brute_forest_value([r], [s], v, parents), row, stack, coins)
    game = coinsrow.Game(rows=[once(row)], stacks=once([once(stack)]),
                         forest=(once(coins), once(parents)))
    assert game.value() == want
    assert coinsrow.Engine(game).value() == want
    assert coinsrow.Game(stacks=[once(coins)]).value() == _oracle(
        lambda s: brute_forest_value([], [s], (), ()), coins)
    mapping = {"values": once(coins), "parents": once(parents)}
    assert coinsrow.Game(forest=mapping).value() == _oracle(
        lambda v: brute_forest_value([], [], v, parents), coins)
