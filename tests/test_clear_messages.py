"""Messages that name what is wrong and what is accepted: a move whose index or position is
not an integer, a string that is not a move of the game, rows given with offsets, and Arrow
arrays of the wrong dimension (a 1-D Arrow array is a row, and is solved as one)."""

from __future__ import annotations

import ast
import random
import re
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest

from coinsrow import (
    Engine,
    Game,
    Intervals,
    Move,
    best_move,
    play,
    profits,
    profits_many,
    value,
    values_many,
)

from generators import random_forest, random_game, random_row
from oracles import dp_value


def games(rng: random.Random, count: int):
    for _ in range(count):
        rows, stacks = random_game(rng, 8)
        forest = random_forest(rng, rng.randint(1, 4)) if rng.random() < 0.4 else None
        game = Game(rows=rows, stacks=stacks, forest=forest)
        if len(game):
            yield game


NOT_INTEGERS = (0.0, 1.0, 0.5, "0", None, True, False, Fraction(0), Decimal(0), [0],
                np.float64(0.0), complex(0))


def test_a_move_whose_index_or_position_is_not_an_integer():
    rng = random.Random(11)
    for game in games(rng, 150):
        for player in (game, Engine(game)):
            for move in (player.moves() if isinstance(player, Engine) else game.moves()):
                for field in ("index", "position"):
                    for bad in NOT_INTEGERS:
                        with pytest.raises(ValueError, match="must be an integer") as refused:
                            player.take(move._replace(**{field: bad}))
                        message = str(refused.value)
                        assert f"its {field} must be an integer" in message, message
                        assert f"of type {type(bad).__name__}" in message, message
            if isinstance(player, Engine):
                assert player.game == game and player.value() == game.value()


def test_a_string_that_is_not_a_move_of_the_game():
    """The message says what a string can name, what the game has, and a legal move as it
    must be written: that move is then taken."""
    rng = random.Random(12)
    checked = 0
    for game in games(rng, 200):
        if len(game.rows) == 1 and not game.stacks and game.forest is None:
            continue
        for player in (game, Engine(game)):
            for text in ("left", "right", "node 0", "top", "row 0 left", "", "x" * 100):
                with pytest.raises(ValueError, match="one-row game") as refused:
                    player.take(text)
                message = str(refused.value)
                assert "Move(kind, index, end, position, coin)" in message
                assert ("names an end of a one-row game" if text in ("left", "right")
                        else "a string names only an end of a one-row game") in message
                if game.forest is not None:
                    assert f"a forest of {len(game.forest[0])} nodes" in message
                example = ast.literal_eval(re.search(r"\(e\.g\. (\(.*?\));", message)[1])
                assert Move(*example) in (player.moves() if isinstance(player, Engine)
                                          else game.moves())
                checked += 1
            taken = player.take(Move(*example))
            if isinstance(player, Engine):
                assert taken == Move(*example)
            else:
                assert len(taken) == len(game) - 1
    assert checked > 500


def test_rows_given_with_offsets():
    rng = random.Random(13)
    for _ in range(50):
        rows = [random_row(rng, rng.randint(0, 6)) for _ in range(rng.randint(1, 5))]
        offsets = [0, *np.cumsum([len(r) for r in rows]).tolist()]
        for batch in (rows, [tuple(r) for r in rows], [np.array(r, dtype=object)
                                                       for r in rows]):
            for call in (values_many, profits_many):
                with pytest.raises(TypeError, match=r"offsets= goes with one flat sequence "
                                   r"of coins, but rows\[0\] is .*, a row: pass the rows "
                                   r"without offsets"):
                    call(batch, offsets)
        # the two ways the message offers do solve the games
        flat = [c for r in rows for c in r]
        want = [dp_value(r) for r in rows]
        assert values_many(rows) == values_many(flat, offsets=offsets) == want


# -- Arrow -----------------------------------------------------------------------------------


def test_a_one_dimensional_arrow_array_is_a_row():
    pa = pytest.importorskip("pyarrow", reason="pyarrow is an optional test dependency")
    rng = random.Random(14)
    for _ in range(200):
        row = random_row(rng, rng.randint(0, 12))
        if not all(-(2**63) <= x < 2**63 for x in row):
            continue
        want = dp_value(row)
        for arrow in (pa.array(row, pa.int64()), pa.chunked_array([row[:3], row[3:]],
                                                                  pa.int64()),
                      pa.array([0, *row, 0], pa.int64()).slice(1, len(row))):
            assert value(arrow) == want
            assert profits(arrow) == profits(row)
            assert list(play(arrow)) == list(play(row))
            if row:
                assert best_move(arrow) == best_move(row)
            assert Engine(arrow).value() == want
            assert Game(rows=[arrow]).value() == want
            assert Intervals(arrow).value() == want
        if row and all(-255 <= x <= 255 for x in row):
            small = [abs(x) for x in row]
            assert value(pa.array(small, pa.uint8())) == dp_value(small)
            assert value(pa.array([x / 2 for x in row])) == dp_value(row) / 2
            decimals = pa.array([Decimal(x) / 4 for x in row], pa.decimal128(12, 2))
            assert value(decimals) == Decimal(dp_value(row)) / 4
    big = [2**64 - 1, 5, 2**63]
    assert value(pa.array(big, pa.uint64())) == dp_value(big)
    values, parents = [1, 5, 3, 2, 4], [-1, 0, 0, 1, 1]
    assert Game(forest=(pa.array(values), pa.array(parents))).value() == \
        Game(forest=(values, parents)).value()


def test_arrow_arrays_where_they_do_not_belong():
    pa = pytest.importorskip("pyarrow", reason="pyarrow is an optional test dependency")
    lists = pa.array([[3, 1, 2], [5]])
    for call in (value, profits, play, best_move, Engine, Intervals):
        with pytest.raises(TypeError, match=r"row( 0)? is an Arrow list array .*, not one "
                           r"row: a row is a 1-D array of numbers"):
            call(lists)
    with pytest.raises(TypeError, match=r"row 0 is an Arrow list array"):
        Game(rows=[lists])
    assert Game(rows=lists).value() == Game(rows=[[3, 1, 2], [5]]).value()
    assert values_many(lists) == [2, 5]
    flat = pa.array([3, 1, 2, 5])
    for call in (values_many, profits_many):
        with pytest.raises(TypeError, match=r"rows is a flat \(1-D\) Arrow array of int64 "
                           r"coins, not of rows: give offsets="):
            call(flat)
        with pytest.raises(TypeError, match="rows is an Arrow array of string, not of rows"):
            call(pa.array(["a", "b"]))
    assert values_many(flat, offsets=[0, 3, 4]) == [2, 5]
    for rows_or_stacks in ("rows", "stacks"):
        with pytest.raises(TypeError, match=f"{rows_or_stacks} is an Arrow array of int64, "
                           "not of lists"):
            Game(**{rows_or_stacks: flat})
    with pytest.raises(ValueError, match="row: coin at index 1 is null"):
        value(pa.array([1, None, 3]))
    with pytest.raises(TypeError, match="row is an Arrow array of string; coins must be "
                       "numbers"):
        value(pa.array(["1"]))
    with pytest.raises(TypeError, match="Arrow array of bool"):
        value(pa.array([True, False]))
    with pytest.raises(ValueError, match="forest parents: parent at index 2 is null"):
        Game(forest=([1, 2, 3], pa.array([-1, 0, None])))
