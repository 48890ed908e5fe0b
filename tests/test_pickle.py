"""Pickling and copying ``Game``, ``Engine`` and ``Intervals``, and reprs that never fail.

A ``Game`` is immutable and hashable: it pickles (multiprocessing, Dask send it to other
processes), and ``copy``/``deepcopy`` give the game itself. An ``Engine`` is mutable: a copy
is independent (a move on one leaves the other alone), a pickle plays from where it was.
An ``Intervals`` answers queries only: copies are the object itself, a pickle rebuilds it.
"""

from __future__ import annotations

import copy
import pickle
import random
import sys
from concurrent.futures import ProcessPoolExecutor
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest

from coinsrow import Engine, Game, Intervals, Move, PizzaResult, Profits, pizza, profits, value

from checks import same
from oracles import dp_value

PROTOCOLS = range(pickle.HIGHEST_PROTOCOL + 1)

# Rows of every storage: int64 (lists, NumPy), float64, Python big ints, Fraction, Decimal.
ROWS = {
    "int64": [3, 1, 2, 5, -4, 7],
    "numpy int64": np.array([3, 1, 2, 5, -4, 7], dtype=np.int64),
    "numpy int32": np.array([3, 1, 2, 5], dtype=np.int32),
    "float64": np.array([0.5, 1.25, -2.0, 1e300, 3.0]),
    "floats past 1e300": [1e308, -1e308, 1e308],  # solved exactly, rounded once
    "big ints": [2**70, 1, -(2**65), 3],
    "Fraction": [Fraction(1, 3), Fraction(-2, 7), 2],
    "Decimal": [Decimal("0.10"), Decimal("2.5"), Decimal("-1")],
}


def roundtrip(obj, protocol=pickle.HIGHEST_PROTOCOL):
    return pickle.loads(pickle.dumps(obj, protocol=protocol))


@pytest.mark.parametrize("kind", list(ROWS))
def test_game_pickles_copies_and_deep_copies(kind):
    row = ROWS[kind]
    games = [Game(rows=[row]), Game(rows=[row, [4, 5]], stacks=[[9, 1]]),
             Game(rows=[row], forest=([1, 5, 3], [-1, 0, 0]))]
    for game in games:
        for protocol in PROTOCOLS:
            twin = roundtrip(game, protocol)
            assert twin == game and hash(twin) == hash(game)
            assert same(twin.value(), game.value())
            assert twin.profits() == game.profits()
            assert twin.play() == game.play()
            assert twin.rows == game.rows and twin.stacks == game.stacks
            assert twin.forest == game.forest
        assert copy.copy(game) is game and copy.deepcopy(game) is game  # immutable
        assert copy.deepcopy([game, game])[0] is game


def test_a_game_part_way_through_pickles_as_its_position():
    """A position pickles as the game it was reached from and what is left of it: an equal
    game, which names its moves as the original does (positions in the original rows,
    nodes of the original forest), so every move of one is a move of the other."""
    rng = random.Random(3)
    for _ in range(100):
        game = Game(rows=[[rng.randint(-5, 9) for _ in range(rng.randint(0, 6))]],
                    stacks=[[rng.randint(-5, 9) for _ in range(rng.randint(0, 3))]],
                    forest=([rng.randint(0, 5) for _ in range(3)],
                            [-1, 0, rng.choice([-1, 0, 1])]))
        for _ in range(rng.randint(0, len(game))):
            game = game.take(rng.choice(game.moves()))
        twin = roundtrip(game)
        assert twin == game and hash(twin) == hash(game) and twin.value() == game.value()
        assert twin.play() == game.play() and twin.moves() == game.moves()
        for move in game.moves():
            assert twin.take(move) == game.take(move)
        assert twin == Game(rows=game.rows, stacks=game.stacks, forest=game.forest)


def _value_in_another_process(game):
    return game.value(), game.best_move(), pickle.dumps(game)


def test_games_go_through_a_process_pool():
    games = [Game(rows=[ROWS[kind]]) for kind in ("int64", "float64", "big ints",
                                                  "Fraction", "Decimal")]
    with ProcessPoolExecutor(max_workers=1) as pool:
        answers = list(pool.map(_value_in_another_process, games))
    for game, (game_value, best, pickled) in zip(games, answers):
        assert same(game_value, game.value())
        assert best == game.best_move()
        assert pickle.loads(pickled) == game


@pytest.mark.parametrize("kind", list(ROWS))
def test_engine_copies_are_independent(kind):
    row = ROWS[kind]
    for start in (Game(rows=[row]), Game(rows=[row, [4, 5]], stacks=[[9, 1, 2]])):
        first = Engine(start)
        first.take(first.best_move())
        before = (first.game, len(first), first.value())
        for make in (copy.copy, copy.deepcopy, roundtrip):
            second = make(first)
            assert (second.game, len(second), second.value()) == before
            assert second.best_move() == first.best_move()
            assert second.moves() == first.moves()
            second.take(second.best_move())
            # the original is untouched, and still plays
            assert (first.game, len(first), first.value()) == before
            assert len(second) == len(first) - 1
            assert second.game == first.game.take(first.best_move())
            assert same(second.value(), Engine(second.game).value())


def test_engine_pickle_keeps_the_move_numbers():
    """An engine pickles as the game it started from and the coins taken since: the copy
    names moves as the original does (a move of one is legal on the other)."""
    rng = random.Random(9)
    for _ in range(60):
        game = Game(rows=[[rng.randint(-5, 9) for _ in range(rng.randint(1, 7))]
                          for _ in range(2)],
                    stacks=[[rng.randint(-5, 9) for _ in range(rng.randint(1, 4))]])
        engine = Engine(game)
        for _ in range(rng.randint(0, len(game) - 1)):
            engine.take(rng.choice(engine.moves()))
        twin = roundtrip(engine)
        assert twin.moves() == engine.moves() and twin.value() == engine.value()
        while len(engine):
            move = rng.choice(engine.moves())
            assert twin.take(move) == engine.take(move)
            assert twin.value() == engine.value() == value_of(engine.game)


def value_of(game):
    return Game(rows=game.rows, stacks=game.stacks).value()


def test_engine_unpickling_refuses_a_tampered_state():
    engine = Engine([5, 1, 3])
    engine.take("left")
    function, (start, left, right) = engine.__reduce__()
    assert function(start, left, right).game == engine.game
    for bad in (([5], [0]), ([0, 0], [0]), ([-1], [0]), ([2], [2])):
        with pytest.raises(ValueError, match="does not match"):
            function(start, *bad)


@pytest.mark.parametrize("kind", list(ROWS))
def test_intervals_pickle_and_copy(kind):
    row = ROWS[kind]
    intervals = Intervals(row)
    n = len(row)
    queries = [(a, b) for a in range(n + 1) for b in range(a, n + 1)]
    expected = [intervals.value(a, b) for a, b in queries]
    for protocol in PROTOCOLS:
        twin = roundtrip(intervals, protocol)
        assert len(twin) == n
        for (a, b), want in zip(queries, expected):
            assert same(twin.value(a, b), want)
        assert list(twin.values([a for a, _ in queries], [b for _, b in queries])) == expected
    assert copy.copy(intervals) is intervals and copy.deepcopy(intervals) is intervals
    assert repr(intervals) == f"<Intervals of a row of {n} coins>"


def test_intervals_pickle_is_compact_for_machine_numbers():
    row = np.arange(100_000, dtype=np.int64)
    assert len(pickle.dumps(Intervals(row))) < 8 * len(row) + 1000
    assert roundtrip(Intervals(row)).value(5, 100) == value(row[5:100])


def test_reprs_never_fail():
    huge = 10**5000  # beyond Python's default int-to-str limit (4300 digits)
    limit = getattr(sys, "get_int_max_str_digits", lambda: 0)()
    for game in (Game(rows=[[huge]]), Game(rows=[[1, huge, 2]], stacks=[[huge]]),
                 Game(rows=[[Fraction(huge, 3)]]), Game(forest=([huge, 1], [-1, 0])),
                 Game(rows=[list(range(100_000))]), Game(), Game(rows=[[]])):
        text = repr(game)
        assert text.startswith("Game(rows=[") and len(text) <= 200
        assert repr(Engine(game) if game.forest is None else game)
    if limit:
        bits = huge.bit_length()
        assert repr(Game(rows=[[huge]])) == f"Game(rows=[[<int of {bits} bits>]], stacks=[])"
    assert repr(Engine([huge, 3])).startswith("Engine(Game(rows=[[<int of")
    # short games print as before: a call that builds the same game
    assert repr(Game(rows=[[3, 1, 2], [4]], stacks=[[1]], forest=([1, 2], [-1, 0]))) == (
        "Game(rows=[[3, 1, 2], [4]], stacks=[[1]], forest=([1, 2], [-1, 0]))")
    assert repr(Game(rows=[[0.5, Fraction(1, 3)]])) == (
        "Game(rows=[[0.5, 0.3333333333333333]], stacks=[])")
    assert repr(Game(rows=[[Decimal("1.5")]])) == "Game(rows=[[Decimal('1.5')]], stacks=[])"
    long = repr(Game(rows=[list(range(1000))]))
    assert len(long) == 195 and long.endswith(" ...)")


def test_pickled_games_answer_like_the_oracle():
    rng = random.Random(1)
    for _ in range(50):
        row = [rng.randint(-20, 20) for _ in range(rng.randint(0, 12))]
        assert roundtrip(Game(rows=[row])).value() == dp_value(row)
        engine = Engine(row)
        assert roundtrip(engine).value() == dp_value(row)


def test_move_numbers_survive_pickling_of_moves():
    move = Move("row", 0, "left", 0, Fraction(1, 3))
    assert roundtrip(move) == move


# Results pickled when Profits was defined in coinsrow._game and PizzaResult in
# coinsrow._pizza (protocols 0, 2 and 5): they name those modules, and still load.
OLD_RESULT_PICKLES = [
    (b"\x80\x02ccoinsrow._game\nProfits\nq\x00K\x08K\x05\x86q\x01\x81q\x02.",
     Profits(8, 5)),
    (b"\x80\x05\x95&\x00\x00\x00\x00\x00\x00\x00\x8c\x0ecoinsrow._game\x94\x8c\x07Profits\x94"
     b"\x93\x94K\x08K\x05\x86\x94\x81\x94.", Profits(8, 5)),
    (b"(lp0\nccopy_reg\n_reconstructor\np1\n(ccoinsrow._game\nProfits\np2\nc__builtin__\n"
     b"tuple\np3\n(F0.5\nF0.25\ntp4\ntp5\nRp6\na.", [Profits(0.5, 0.25)]),
    (b"\x80\x05\x950\x00\x00\x00\x00\x00\x00\x00\x8c\x0fcoinsrow._pizza\x94\x8c\x0bPizzaResult"
     b"\x94\x93\x94(K\x06K\x01K\tK\x03t\x94\x81\x94.", PizzaResult(6, 1, 9, 3)),
]


@pytest.mark.parametrize("pickled, expected", OLD_RESULT_PICKLES)
def test_results_pickled_under_their_old_module_still_load(pickled, expected):
    loaded = pickle.loads(pickled)
    assert loaded == expected
    items = loaded if isinstance(loaded, list) else [loaded]
    for item, want in zip(items, expected if isinstance(expected, list) else [expected]):
        assert type(item) is type(want)
        assert all(type(a) is type(b) for a, b in zip(item, want))


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_results_pickle(protocol):
    for result in (profits([3, 2, 2, 3, 1, 2]), profits([0.1, 0.2]),
                   profits([Fraction(1, 3), 2]), profits([Decimal("0.10"), 2]), pizza([2, 7, 3])):
        twin = roundtrip(result, protocol)
        assert twin == result and type(twin) is type(result)
        assert all(type(a) is type(b) for a, b in zip(twin, result))
