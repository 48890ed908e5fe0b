"""Short rows of ints and floats take a compiled fast path: it must answer exactly as the
general path does, or leave the row to it.

The general path is forced with a list subclass holding the same coins (the fast path takes
a list or a tuple only; the general path reads a subclass as the list it is) and, for the
answers, with a NumPy copy. Compared: answers, their types (and the sign of a float zero),
exception types and texts.
"""

from __future__ import annotations

import math
import random
from array import array
from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest

import coinsrow

from oracles import dp_value


class _Row(list):
    """The same coins, but not a list: the general path."""


class _Int(int):
    pass


_CALLS: dict[str, Callable[..., Any]] = {
    "value": coinsrow.value,
    "profits": coinsrow.profits,
    "play": coinsrow.play,
    "best_move": coinsrow.best_move,
}


def _outcome(call: Callable[..., Any], row: Any, **kwargs: Any) -> Any:
    """What a call gives, comparable across paths: the answer with the type of each number
    (and the sign of a float), or the exception's type and text."""
    try:
        answer = call(row, **kwargs)
    except Exception as error:
        return "raised", type(error), str(error)
    if isinstance(answer, array):
        return "array", answer.typecode, answer.tolist()
    numbers = tuple(answer) if isinstance(answer, tuple) else (answer,)
    return (type(answer), numbers, tuple(type(x) for x in numbers),
            tuple(math.copysign(1, x) if isinstance(x, float) else 0 for x in numbers))


def _same_as_general(row: list, **kwargs: Any) -> None:
    for name, call in _CALLS.items():
        for given in (row, tuple(row)):
            fast = _outcome(call, given, **kwargs)
            general = _outcome(call, _Row(row), **kwargs)
            assert fast == general, (name, given, kwargs)


_INT64_MAX, _INT64_MIN = 2**63 - 1, -(2**63)

_EDGES: list[list[Any]] = [
    [], [0], [7], [-7], [0.0], [-0.0], [-0.0, -0.0], [-0.0, 0.0, -0.0], [5, -0.0],
    [True], [1, False], [_Int(3), 1], [1, _Int(2)],
    [_INT64_MAX], [_INT64_MIN], [_INT64_MAX, _INT64_MAX], [_INT64_MIN, _INT64_MIN, 1],
    [_INT64_MAX, 1, _INT64_MAX], [_INT64_MIN, -1], [_INT64_MAX + 1], [_INT64_MIN - 1],
    [1, 2**64, 3], [2**200, 1.5], [2**1100, 1.5],
    [float("nan")], [1, float("nan"), 2], [float("inf")], [1.0, float("-inf")],
    [1e308, 1e308], [1e308, 1, 1e308], [-1e308, 5, -1e308, 3], [1e308, -1e308, 1e308],
    [1.7976931348623157e308, 1.7976931348623157e308, 0.5],
    [5e-324, 5e-324], [0.1, 0.2], [0.1, 0.2, 0.3], [1, 2.5], [2.5, 1], [2**53 + 1, 0.5],
    [_INT64_MAX, 0.5], [Fraction(1, 3), 2], [1, Fraction(7, 2)], [Decimal("0.5"), 1],
    [Decimal("1.5"), 0.5], ["x"], [1, None], [[1, 2]], [1 + 2j],
    list(range(256)), list(range(257)), [0.5] * 256, [0.5] * 257,
    [3, 2, 2, 3, 1, 2], [1, 2, 1000, 3, 4, 900], [1] * 9, [2, 1] * 7, [1, 2] * 7,
]


@pytest.mark.parametrize("row", _EDGES, ids=lambda row: repr(row)[:40])
def test_every_edge_as_the_general_path(row: list) -> None:
    _same_as_general(row)


def _random_row(rng: random.Random) -> list:
    n = rng.choice([1, 2, 3, rng.randint(1, 20), rng.randint(1, 300)])
    style = rng.randrange(7)
    if style == 0:  # small: many ties
        return [rng.randint(-3, 3) for _ in range(n)]
    if style == 1:
        return [rng.randint(-2**62, 2**62) for _ in range(n)]
    if style == 2:  # sums that overflow int64
        return [rng.choice([_INT64_MAX, _INT64_MIN, 0, 1, -1, 2**62]) for _ in range(n)]
    if style == 3:
        return [rng.uniform(-5, 5) for _ in range(n)]
    if style == 4:  # float ties, zeros of both signs, overflows, subnormals
        return [rng.choice([0.1, 0.2, 0.3, -0.0, 0.0, 1e308, -1e308, 5e-324, 1.5])
                for _ in range(n)]
    if style == 5:  # mixed int and float
        return [rng.choice([1, 2.5, -3, 0.1, 2**53 + 1, _INT64_MAX]) for _ in range(n)]
    return [rng.randint(0, 100) for _ in range(n)]


def test_random_short_rows_as_the_general_path() -> None:
    rng = random.Random(30)
    for _ in range(1500):
        _same_as_general(_random_row(rng))


def test_random_short_rows_as_numpy_copies() -> None:
    np = pytest.importorskip("numpy")
    rng = random.Random(31)
    for _ in range(500):
        row = _random_row(rng)
        if any(isinstance(x, float) for x in row):
            copy = np.array(row, dtype=np.float64)
        elif all(_INT64_MIN <= x <= _INT64_MAX for x in row):
            copy = np.array(row, dtype=np.int64)
        else:
            continue
        for name, call in _CALLS.items():
            assert _outcome(call, row) == _outcome(call, copy), (name, row)


def test_short_rows_against_the_quadratic_dp() -> None:
    rng = random.Random(32)
    for _ in range(2000):
        row = [rng.randint(-9, 9) for _ in range(rng.randint(1, 14))]
        exact = dp_value(row)
        assert coinsrow.value(row) == exact
        first, second = coinsrow.profits(row)
        assert first - second == exact and first + second == sum(row)
        moves = coinsrow.play(row)
        assert sorted(moves) == list(range(len(row)))
        gains = [row[i] for i in moves]
        assert sum(gains[0::2]) - sum(gains[1::2]) == exact
        assert coinsrow.best_move(row) == ("left" if moves[0] == 0 else "right")


@pytest.mark.parametrize("threads", [None, 1, 2, 64, 0, -1, True, 1.0, "2", 2**70])
def test_threads_as_the_general_path(threads: Any) -> None:
    for row in ([3, 1, 2], [0.5, 2.0, 1.5], [], [float("nan")]):
        for name in ("value", "profits", "play"):
            call = _CALLS[name]
            assert _outcome(call, row, threads=threads) == _outcome(
                call, _Row(row), threads=threads), (name, row, threads)


def test_the_input_is_left_alone() -> None:
    row = [3, 1.5, -0.0, 2]
    kept = list(row)
    for call in _CALLS.values():
        call(row)
    assert row == kept and [type(x) for x in row] == [type(x) for x in kept]
