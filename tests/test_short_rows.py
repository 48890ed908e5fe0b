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
import re
from array import array
from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest

import coinsrow
from coinsrow import _core
from coinsrow._dispatch import EXACT, SHORT_PATH

from generators import random_game
from modes import drawn, scaled
from oracles import dp_value, paper_value

short_rows = _core.short_rows


def scaled_range(n: int) -> range:
    return range(scaled(n))


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
    for _ in range(drawn(1500)):
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


# -- the compiled fast path itself, called directly (in both modes) -------------------------

def _as_public(name: str, answer: Any) -> Any:
    """A fast-path answer as the public function returns it."""
    return coinsrow.Profits(*answer) if name == "profits" else answer


_FAST: dict[str, Callable[..., Any]] = {
    "value": short_rows.value,
    "profits": short_rows.profits,
    "play": short_rows.play,
    "best_move": short_rows.best_move,
}


def _fast_as_general(row: list) -> int:
    """Every answer the fast path gives for ``row`` (as a list and a tuple) is the general
    path's, with the same types (called directly, so the exact mode checks it against the
    exact twins); returns how many it gave."""
    answered = 0
    for name, fast in _FAST.items():
        general = _outcome(_CALLS[name], _Row(row))
        for given in (row, tuple(row)):
            answer = fast(given)
            if answer is not None:
                answered += 1
                public = _as_public(name, answer)
                assert _outcome(lambda _, public=public: public, given) == general, (
                    name, given)
    return answered


def test_the_fast_path_is_off_in_the_exact_mode_only() -> None:
    assert SHORT_PATH is not EXACT


@pytest.mark.parametrize("row", _EDGES, ids=lambda row: repr(row)[:40])
def test_every_edge_as_the_general_path_called_directly(row: list) -> None:
    _fast_as_general(row)


def test_random_short_rows_called_directly() -> None:
    rng = random.Random(33)
    answered = sum(_fast_as_general(_random_row(rng)) for _ in scaled_range(600))
    # Most rows are taken (8 answers each): the comparisons above are not vacuous.
    assert answered > 4 * scaled(600)


class _Float(float):
    pass


_NOT_SHORT = [[], [True], [1, False], [_Int(3)], [_INT64_MAX + 1], [_INT64_MIN - 1],
              [float("nan")], [float("inf")], [1, float("-inf")], [Fraction(1, 2)],
              [Decimal(1)], ["x"], [None], list(range(257)), _Row([1, 2]), array("q", [1]),
              range(3), iter([1, 2]), [_Float(0.5)]]


# The ids leave out the addresses in reprs ("<list_iterator object at 0x...>"): pytest-xdist
# requires every worker to collect the same ids.
@pytest.mark.parametrize("row", _NOT_SHORT,
                         ids=lambda row: re.sub(" at 0x[0-9a-f]+", "", repr(row))[:40])
def test_the_fast_path_leaves_other_rows_to_the_general_one(row: Any) -> None:
    for function in (*_FAST.values(), short_rows.coins):
        assert function(row) is None


def test_the_fast_path_takes_short_rows_and_declines_overflows() -> None:
    assert short_rows.value([3, 1, 2]) == 2 and short_rows.value((0.5, 2.0)) == 1.5
    assert short_rows.value([1] * 256) == 0
    coins = short_rows.coins([1, 2.5])
    assert coins is not None and coins.typecode == "d" and list(coins) == [1.0, 2.5]
    assert short_rows.value([3, 1, 2], 2) == 2
    for threads in (0, -1, True, 1.0, 2**70, "2"):
        assert short_rows.value([3, 1, 2], threads) is None
    # int64 overflow, a float sum beyond the float range: the general path redoes them.
    assert short_rows.value([_INT64_MAX, 1, _INT64_MAX]) is None
    assert short_rows.profits([_INT64_MAX, _INT64_MAX]) is None
    assert short_rows.value([-1.7e308, 1.7e308, -1.7e308]) is None
    assert short_rows.profits([1.7e308, 0, 1.7e308, 0]) is None


# -- small games: the compiled packing and the int64 value ----------------------------------

def _game_outcome(make: Callable[[], coinsrow.Game]) -> Any:
    """What a game built by ``make`` answers (value, profits, play, its description), with
    the types of the numbers, or the exception's type and text."""
    try:
        game = make()
    except Exception as error:
        return "raised", type(error), str(error)
    value, profits = game.value(), game.profits()
    return (value, type(value), tuple(profits), tuple(map(type, profits)), game.play(),
            len(game), game.rows, game.stacks, repr(game), hash(game))


def _same_game(rows: list, stacks: list) -> None:
    fast = _game_outcome(lambda: coinsrow.Game(rows=rows, stacks=stacks))
    general = _game_outcome(lambda: coinsrow.Game(rows=[_Row(r) for r in rows],
                                                  stacks=[_Row(s) for s in stacks]))
    assert fast == general, (rows, stacks)


_GAME_EDGES: list[tuple[list, list]] = [
    ([], []), ([[]], []), ([], [[]]), ([[3, 1, 4, 1, 5]], [[9, 2, 6]]), ([[7]], []),
    ([], [[7]]), ([[1.5, 2]], [[3]]), ([[1]], [[0.5, -0.0]]), ([[-0.0]], [[-0.0]]),
    ([[True]], []), ([[1]], [[False]]), ([[_Int(2)]], []), ([[_INT64_MAX]], [[_INT64_MAX]]),
    ([[_INT64_MIN, -1]], [[_INT64_MIN]]), ([[_INT64_MAX + 1]], []), ([], [[_INT64_MIN - 1]]),
    ([[float("nan")]], []), ([[1]], [[2, float("inf")]]), ([[1e308, 1e308]], [[1e308]]),
    ([[Fraction(1, 3)]], [[1]]), ([[Decimal("0.5")]], [[1]]), ([["x"]], []), ([[None]], []),
    ([list(range(200))], [list(range(57))]), ([list(range(200))], [list(range(56))]),
    ([[1]] * 64, []), ([[1]] * 65, []), ([[1, 2]] * 40, [[3]] * 30),
    ([[2**53 + 1, 0.5]], [[1]]), ([(1, 2)], [(3, 4)]),
]


@pytest.mark.parametrize("game", _GAME_EDGES, ids=lambda game: repr(game)[:40])
def test_small_game_edges_as_the_general_path(game: tuple[list, list]) -> None:
    _same_game(*game)


def test_random_small_games_as_the_general_path_and_the_paper() -> None:
    rng = random.Random(34)
    for i in scaled_range(1500):
        rows, stacks = random_game(rng, 14, -6, 9)
        if i % 3 == 1:  # float coins, some of them
            rows = [[x + 0.5 if rng.random() < 0.3 else x for x in r] for r in rows]
        elif i % 3 == 2:  # int64 edges: sums and fusions overflow
            rows = [[rng.choice([_INT64_MAX, _INT64_MIN, 2**62, 0, -1, x]) for x in r]
                    for r in rows]
        _same_game(rows, stacks)
        if i % 3 == 0:
            assert coinsrow.Game(rows=rows, stacks=stacks).value() == paper_value(rows, stacks)


def test_the_packing_is_the_general_packing() -> None:
    rng = random.Random(35)
    for _ in range(500):
        rows, stacks = random_game(rng, 20)
        if rng.random() < 0.3:
            stacks = [[x / 4 for x in s] for s in stacks]
        packed = short_rows.pack(rows, stacks)
        assert packed is not None
        status, general = _core.pack_components(rows + stacks, (memoryview,))
        assert status == _core.Packing.PACKED
        assert packed[0].format == general[0].format
        assert packed[0].tolist() == general[0].tolist() and packed[1] == general[1]
    for rows, stacks in [([[True]], []), ([[1]], [_Row([1])]), (_Row([[1]]), []),
                         ([[1]], iter([[2]])), ([[float("nan")]], []), ([[2**64]], []),
                         ([list(range(257))], []), ([[1]] * 65, []), ([array("q", [1])], [])]:
        assert short_rows.pack(rows, stacks) is None, (rows, stacks)


def test_the_small_game_value_is_the_kernels() -> None:
    rng = random.Random(36)
    taken = 0
    for i in range(3000):
        rows, stacks = random_game(rng, 16, -9, 9)
        if i % 2:
            stacks = [[rng.choice([_INT64_MAX, _INT64_MIN, 2**62, -1, x]) for x in s]
                      for s in stacks]
        coins = array("q", [x for c in rows + stacks for x in c])
        lengths = [len(c) for c in rows + stacks]
        starts = array("q", [sum(lengths[:c]) for c in range(len(lengths))])
        stops = array("q", [s + n for s, n in zip(starts, lengths)])
        answer = short_rows.game_value(memoryview(coins), starts, stops, len(rows))
        status, exact = _core.game_value_exact(coins.tolist(), starts, stops, len(rows))
        assert status == _core.Status.OK
        if answer is not None:
            taken += 1
            assert type(answer) is int and answer == exact, (rows, stacks)
    assert taken > 2000
    floats = array("d", [1.0, 2.0])
    assert short_rows.game_value(memoryview(floats), array("q", [0]), array("q", [2]), 1) is None
    assert short_rows.game_value([1, 2], array("q", [0]), array("q", [2]), 1) is None
    assert short_rows.game_value(array("q", [1, 2]), array("q", [0]), array("q", [3]), 1) is None


def test_an_engine_of_a_list_is_the_engine_of_the_general_game() -> None:
    rng = random.Random(37)
    for i in range(300):
        row: list[Any] = _random_row(rng)[:12] if i % 2 else [rng.randint(-5, 5)
                                                              for _ in range(rng.randint(0, 9))]
        engine = coinsrow.Engine(row)
        reference = coinsrow.Engine(coinsrow.Game(rows=[_Row(row)]))
        assert engine.game == reference.game
        while len(engine):
            value = engine.value()
            assert value == reference.value() and type(value) is type(reference.value())
            move = reference.best_move()
            assert engine.best_move() == move
            engine.take(move)
            reference.take(move)
