"""Hypothesis state machines: an Engine and a Game played side by side, any move by either
side, checked against brute-force minimax and the window structure's own invariants."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from coinsrow import Engine, Game

from oracles import after_move, brute_forest_solver, brute_forest_value
from window_check import check_windows

COIN = st.integers(-4, 4)
NUMBERS = st.sampled_from(["int", "big", "fraction", "float"])


def _convert(kind: str, coins: list[int]) -> list:
    if kind == "big":
        return [x * 2**70 + 1 for x in coins]
    if kind == "fraction":
        return [Fraction(x, 3) for x in coins]
    if kind == "float":
        return [x / 4 for x in coins]
    return coins


class EngineBesideGame(RuleBasedStateMachine):
    """Every step: a legal move (random, or the engine's best) played on both; every state:
    the same position, the value of brute force, the same best move (one tie rule), and the
    window structure's invariants."""

    @initialize(rows=st.lists(st.lists(COIN, max_size=4), max_size=3),
                stacks=st.lists(st.lists(COIN, max_size=4), max_size=2), kind=NUMBERS)
    def start(self, rows, stacks, kind):
        rows = [_convert(kind, r) for r in rows]
        stacks = [_convert(kind, s) for s in stacks]
        self.game = Game(rows=rows, stacks=stacks)
        self.engine = Engine(self.game)
        # One memoised minimax for the whole run: every position reached is one of its
        # states (a fresh one each step would solve the game again, up to 13 times).
        self.solve = brute_forest_solver(rows, stacks, (), ())
        self.state = (tuple((0, len(r)) for r in rows), tuple(0 for _ in stacks), 0)

    def _play(self, move):
        played = self.engine.take(move)
        self.game = self.game.take(move)
        self.state = after_move(self.state, move)
        assert played == move

    @precondition(lambda self: len(self.game) > 0)
    @rule(data=st.data())
    def any_move(self, data):
        self._play(data.draw(st.sampled_from(self.game.moves())))

    @precondition(lambda self: len(self.game) > 0)
    @rule()
    def best_move(self):
        move = self.engine.best_move()
        assert move == self.game.best_move()
        self._play(move)

    @rule()
    def the_legal_moves_agree(self):
        assert self.engine.moves() == self.game.moves()
        if not len(self.game):
            assert self.engine.value() == 0

    @invariant()
    def same_position_and_value(self):
        assert self.engine.game == self.game
        assert len(self.engine) == len(self.game)
        value = self.engine.value()
        assert value == self.game.value()
        assert value == self.solve(*self.state)
        check_windows(self.engine._windows)


EngineBesideGame.TestCase.settings = settings(max_examples=60, stateful_step_count=12,
                                              deadline=None)
TestEngineBesideGame = pytest.mark.slow(EngineBesideGame.TestCase)


class ForestGame(RuleBasedStateMachine):
    """A Game with a forest (and rows and stacks), any move: every position's value, profits
    and best move against brute force."""

    @initialize(values=st.lists(COIN, max_size=7), data=st.data(),
                rows=st.lists(st.lists(COIN, max_size=3), max_size=1),
                stacks=st.lists(st.lists(COIN, max_size=3), max_size=1))
    def start(self, values, data, rows, stacks):
        parents = [data.draw(st.integers(-1, i - 1)) for i in range(len(values))]
        self.game = Game(rows=rows, stacks=stacks, forest=(values, parents))

    @precondition(lambda self: len(self.game) > 0)
    @rule(data=st.data())
    def any_move(self, data):
        self.game = self.game.take(data.draw(st.sampled_from(self.game.moves())))

    @precondition(lambda self: len(self.game) > 0)
    @rule()
    def best_move(self):
        move = self.game.best_move()
        after = self.game.take(move)
        assert move.coin - after.value() == self.game.value()
        self.game = after

    @rule()
    def every_legal_move_is_accepted(self):
        for move in self.game.moves():
            assert len(self.game.take(move)) == len(self.game) - 1

    @invariant()
    def value_of_brute_force(self):
        values, parents = self.game.forest
        value = brute_forest_value(self.game.rows, self.game.stacks, values, parents)
        assert self.game.value() == value
        first, second = self.game.profits()
        assert first - second == value
        assert first + second == sum(values) + sum(map(sum, self.game.rows)) \
            + sum(map(sum, self.game.stacks))


ForestGame.TestCase.settings = settings(max_examples=100, stateful_step_count=10, deadline=None)
TestForestGame = pytest.mark.slow(ForestGame.TestCase)
