"""pizza against the naive O(n^2) solution (one row solved per first slice)."""

from __future__ import annotations

import random
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from coinsrow import PizzaResult, pizza, value

from oracles import dp_value


def _naive(circle, row_value):
    """max over the first slice i of circle[i] - value(the row left): (value, smallest i)."""
    n = len(circle)
    gains = [circle[i] - row_value([circle[(i + k) % n] for k in range(1, n)]) for i in range(n)]
    best = max(gains)
    return best, gains.index(best)


def _random_circle(rng, n):
    style = rng.randrange(6)
    if style == 0:
        return [rng.randint(-100, 100) for _ in range(n)]
    if style == 1:
        return [rng.randint(0, 2) for _ in range(n)]  # many ties
    if style == 2:
        return [rng.choice([-1, 0, 1]) for _ in range(n)]
    if style == 3:
        return [abs(k - n // 2) + rng.randint(0, 1) for k in range(n)]
    if style == 4:
        return [rng.randint(0, 5) * (10 if k % 2 else 1) for k in range(n)]
    return [7] * n


def _check(circle, result, expected_value, expected_slice):
    assert isinstance(result, PizzaResult)
    assert result.value == expected_value, (circle, result, expected_value)
    assert result.first_slice == expected_slice, (circle, result, expected_slice)
    assert result.first + result.second == sum(circle)
    assert result.first - result.second == result.value


@pytest.mark.parametrize("seed, circles, sizes, row_value", [
    (20, 3000, (1, 10), dp_value),  # small circles against the DP
    (21, 300, (10, 80), value),  # larger ones against the rows' values
])
def test_pizza_against_the_naive_first_slice(seed, circles, sizes, row_value):
    rng = random.Random(seed)
    for _ in range(circles):
        circle = _random_circle(rng, rng.randint(*sizes))
        v, i = _naive(circle, row_value)
        _check(circle, pizza(circle), v, i)


@given(st.lists(st.integers(-4, 4), min_size=1, max_size=14))
def test_pizza_hypothesis(circle):
    v, i = _naive(circle, dp_value)
    _check(circle, pizza(circle), v, i)


@pytest.mark.slow
def test_pizza_exact_numbers_and_types():
    rng = random.Random(22)
    for _ in range(200):
        ints = _random_circle(rng, rng.randint(1, 12))
        for circle, kind in (
            ([x * 2**70 + 1 for x in ints], int),
            ([Fraction(x, 3) for x in ints], Fraction),
            ([Decimal(x) / 4 for x in ints], Decimal),
            ([x / 8 for x in ints], float),
            ([(2**62 - 1) * (1 if k % 2 else -1) for k in range(len(ints))], int),
        ):
            result = pizza(circle)
            v, i = _naive(circle, dp_value)
            _check(circle, result, v, i)
            assert type(result.value) is kind
            assert type(result.first) is kind and type(result.second) is kind
        result = pizza(np.array(ints, dtype=np.int8))
        assert (result.value, result.first_slice) == _naive(ints, dp_value)
        assert type(result.value) is int


def test_pizza_examples_and_errors():
    assert pizza([5]) == PizzaResult(5, 0, 5, 0)
    assert pizza([1, 2]) == PizzaResult(1, 1, 2, 1)
    assert pizza([2, 7, 3]).first_slice == 1
    with pytest.raises(ValueError, match="empty"):
        pizza([])
    with pytest.raises(ValueError, match="index 2"):
        pizza([1.0, 2.0, float("nan")])
    with pytest.raises(TypeError):
        pizza([1, None])


def test_pizza_huge_floats():
    rng = random.Random(23)
    for _ in range(200):
        circle = [rng.choice([-3, -1, 0, 1, 2, 5]) * 1e305 for _ in range(rng.randint(1, 9))]
        v, i = _naive([Fraction(x) for x in circle], dp_value)
        result = pizza(circle)
        assert type(result.value) is float and result.value == float(v)
        assert result.first_slice == i
