"""The numbers in a move: an index or a position is anything ``operator.index`` accepts
(Python and NumPy integers, not bool, not float), and ``Game.take`` and ``Engine.take`` judge a
move alike, on and off the optimal line; ``Engine.take`` returns the move as the position
names it (the normalised ``Move``), never the caller's numbers echoed back."""

from __future__ import annotations

import operator
import random

import numpy as np
import pytest

from coinsrow import Engine, Game, Move


class Index:
    """Not an int, but an integer index by ``__index__`` (as ``operator.index`` reads it)."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value


INTEGER_LIKE = [np.int64, np.int32, np.uint8, np.intp, Index, operator.index]
NOT_INDICES = [True, False, np.bool_(False), 0.0, 1.0, np.float64(0), "0", None, 1 + 0j]
# What Game.take and Engine.take say of a move they refuse (no such row, or not its coin).
ILLEGAL = r"^illegal move Move\("


def positions(game: Game) -> list[Game]:
    """The game off its line (no optimal line computed) and on it (best_move asked)."""
    on_line = Game(rows=game.rows, stacks=game.stacks)
    on_line.best_move()
    return [Game(rows=game.rows, stacks=game.stacks), on_line]


def with_fields(move: Move, **fields) -> Move:
    return move._replace(**fields)


@pytest.mark.parametrize("make", INTEGER_LIKE)
def test_take_accepts_what_operator_index_accepts(make):
    start = Game(rows=[[3, 1, 2], [7]], stacks=[[5, 4]])
    for game in positions(start):
        for move in game.moves():
            expected = game.take(move)
            for changed in (with_fields(move, index=make(move.index)),
                            with_fields(move, position=make(move.position)),
                            with_fields(move, index=make(move.index),
                                        position=make(move.position))):
                assert game.take(changed) == expected
                assert game.take(tuple(changed)) == expected
                engine = Engine(game)
                played = engine.take(changed)
                assert played == move
                assert [type(x) for x in played] == [type(x) for x in move]  # normalised
                assert engine.game == expected


@pytest.mark.parametrize("bad", NOT_INDICES)
def test_take_refuses_bools_and_floats_as_indices_and_positions(bad):
    start = Game(rows=[[3, 1, 2], [7]], stacks=[[5, 4]])
    for game in positions(start):
        for move in game.moves():
            for changed in (with_fields(move, index=bad), with_fields(move, position=bad)):
                # A bool or float equal to the int (True == 1, 0.0 == 0) names nothing.
                with pytest.raises(ValueError, match=ILLEGAL):
                    game.take(changed)
                engine = Engine(game)
                with pytest.raises(ValueError, match=ILLEGAL):
                    engine.take(changed)
                assert engine.game == game and len(engine) == len(game)  # unchanged


def test_the_best_move_with_a_bool_index_is_refused_on_the_line():
    """On the optimal line, Game.take used to compare the move with the line's by ==, which
    a bool index (True == 1) passes."""
    game = Game(rows=[[1], [9, 1, 5]])
    best = game.best_move()
    assert best.index == 1
    with pytest.raises(ValueError, match=r"its index must be an integer .*, got True of type bool"):
        game.take(best._replace(index=True))
    first = Game(rows=[[9, 1], [5]])
    best = first.best_move()
    assert best.index == 0
    with pytest.raises(ValueError, match=r"index must be an integer .*, got False of type bool"):
        first.take(best._replace(index=False))
    assert first.take(best._replace(index=np.int64(0))) == first.take(best)


def test_engine_take_returns_the_normalised_move():
    engine = Engine([5, 1, 3])
    played = engine.take(Move("row", np.int64(0), "left", np.int64(0), np.int64(5)))
    assert played == Move("row", 0, "left", 0, 5)
    assert [type(x) for x in played] == [str, int, str, int, int]
    played = engine.take(Move("row", 0, "right", 2, 3.0))  # an equal coin of another type
    assert played == Move("row", 0, "right", 2, 3) and type(played.coin) is int
    with pytest.raises(ValueError, match=r"position=1\.0, coin=1\): its position must be an "
                       r"integer .*, got 1\.0 of type float"):
        engine.take(Move("row", 0, "left", 1.0, 1))
    with pytest.raises(ValueError, match=r"position=0\.0, coin=1\): its position must be an "
                       r"integer"):
        engine.take(Move("row", 0, "left", 0.0, 1))  # a float position: refused, not echoed
    assert len(engine) == 1 and engine.take("left") == Move("row", 0, "left", 1, 1)
    floats = Engine([2.5, 1.0])
    assert type(floats.take(Move("row", 0, "left", 0, 2.5)).coin) is float
    exact = floats.take(Move("row", 0, "left", 1, 1))  # int 1 == 1.0: the coin as it is
    assert exact == Move("row", 0, "left", 1, 1.0) and type(exact.coin) is float


def test_game_and_engine_agree_on_random_moves():
    """Random moves with their numbers changed to other types: Game.take (on or off its
    line) and Engine.take both accept them, or both refuse them."""
    rng = random.Random(7)
    kinds = [int, np.int64, Index, float, bool]
    for _ in range(150):
        game = Game(rows=[[rng.randint(0, 5) for _ in range(rng.randint(1, 4))]
                          for _ in range(rng.randint(1, 2))],
                    stacks=[[rng.randint(0, 5) for _ in range(rng.randint(0, 3))]])
        engine = Engine(game)
        while len(game):
            if rng.random() < 0.5:
                game.best_move()  # on the line
            move = rng.choice(game.moves())
            index_kind, position_kind = rng.choice(kinds), rng.choice(kinds)
            try:
                changed = move._replace(index=index_kind(move.index),
                                        position=position_kind(move.position))
            except (TypeError, ValueError):
                continue
            legal = all(k in (int, np.int64, Index) for k in (index_kind, position_kind))
            if legal:
                game = game.take(changed)
                assert engine.take(changed) == move
            else:
                with pytest.raises(ValueError, match=ILLEGAL):
                    game.take(changed)
                with pytest.raises(ValueError, match=ILLEGAL):
                    engine.take(changed)
            assert engine.game == game
