"""Coins in a row as an OpenSpiel game, with the exact engine as a bot.

Importing this module registers the game ``"coins_in_a_row"`` with OpenSpiel (``pyspiel``,
installed with ``pip install open_spiel`` or the ``games`` extra)::

    >>> import pyspiel
    >>> import coinsrow.spiel
    >>> game = pyspiel.load_game("coins_in_a_row", {"coins": "1 2 1000 3 4 900"})
    >>> state = game.new_initial_state()
    >>> state.legal_actions()
    [0, 1]

The game: one row of coins and, optionally, stacks; two players take turns, each taking a
coin from an end of the row or the top of a stack; sequential, deterministic, perfect
information, zero-sum. At the end ``returns()`` is ``[first - second, second - first]``.

Parameters:

- ``coins``: the row, a string of integers (``"1 2 1000 3 4 900"``);
- or ``n``, ``seed``, ``max_coin``: a random row of ``n`` coins from 0 to ``max_coin``, drawn
  with Python's ``random.Random(seed)``;
- ``stacks``: stacks separated by ``|``, each a string of integers from the top down
  (``"9 2 6 | 5 5"``); empty for none.

Actions: 0 takes the row's left end, 1 its right end (offered only while two or more coins
are left in the row, so that every legal action is a different move), and ``2 + k`` the top
of stack ``k``.

``OptimalBot(game, player_id)`` is a ``pyspiel.Bot`` that plays the engine's optimal move
(``coinsrow.Engine.best_move``) in O(log n) a move: against it an agent's loss to perfect
play is exact (``coinsrow.value`` of the start is the optimal margin).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel

from ._engine import Engine
from ._game import Game
from ._moves import Move
from ._text import format_number

__all__ = ["GAME_NAME", "CoinsInARowGame", "CoinsInARowState", "OptimalBot", "game_coins"]

GAME_NAME = "coins_in_a_row"
_DEFAULT_ROW = "1 2 1000 3 4 900"
_LEFT, _RIGHT, _FIRST_STACK = 0, 1, 2

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Coins in a row",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"coins": "", "n": 0, "seed": 0, "max_coin": 100, "stacks": ""},
)


def _integers(text: str, what: str) -> tuple[int, ...]:
    try:
        return tuple(int(word) for word in text.split())
    except ValueError:
        raise ValueError(
            f"coins_in_a_row: {what} must be integers separated by spaces, got {text!r}"
        ) from None


def game_coins(params: dict[str, Any]) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """The row and the stacks (each from the top down) that the parameters describe.

    Raises
    ------
    ValueError
        If both ``coins`` and ``n`` are given, ``n`` or ``max_coin`` is negative, or a coin is
        not an integer.
    """
    text, n = str(params.get("coins", "")), int(params.get("n", 0))
    max_coin = int(params.get("max_coin", 100))
    if text.strip() and n:
        raise ValueError("coins_in_a_row: give either 'coins' or 'n' (a random row), not both")
    if n < 0 or max_coin < 0:
        raise ValueError(f"coins_in_a_row: 'n' and 'max_coin' must be >= 0, got {n}, {max_coin}")
    if n:
        rng = random.Random(int(params.get("seed", 0)))
        row = tuple(rng.randint(0, max_coin) for _ in range(n))
    else:
        row = _integers(text if text.strip() else _DEFAULT_ROW, "'coins'")
    stacks_text = str(params.get("stacks", ""))
    stacks = tuple(
        _integers(part, "each stack of 'stacks'") for part in stacks_text.split("|")
        if part.strip()
    )
    return row, stacks


class CoinsInARowGame(pyspiel.Game):
    """The OpenSpiel game: a row of coins and optional stacks (see the module's text)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        self.row, self.stacks = game_coins(params)
        self.total_coins = len(self.row) + sum(map(len, self.stacks))
        bound = float(sum(abs(c) for c in self.row) + sum(abs(c) for s in self.stacks
                                                             for c in s))
        info = pyspiel.GameInfo(
            num_distinct_actions=_FIRST_STACK + len(self.stacks),
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=max(self.total_coins, 1),
        )
        super().__init__(_GAME_TYPE, info, params)

    def new_initial_state(self) -> CoinsInARowState:
        return CoinsInARowState(self)

    def coinsrow_game(self) -> Game:
        """The start as a ``coinsrow.Game`` (its ``value()`` is the optimal margin)."""
        return Game(rows=[list(self.row)], stacks=[list(s) for s in self.stacks])

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
        if iig_obs_type is None or (iig_obs_type.public_info
                                    and not iig_obs_type.perfect_recall):
            return _CoinsObserver(self, params)
        from open_spiel.python.observation import IIGObserverForPublicInfoGame
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class CoinsInARowState(pyspiel.State):
    """A position: the row's ends, the stacks' tops, each player's total, whose turn."""

    def __init__(self, game: CoinsInARowGame) -> None:
        super().__init__(game)
        self._row, self._stacks = game.row, game.stacks
        self.left, self.right = 0, len(game.row)          # the row left: row[left:right]
        self.tops = [0] * len(game.stacks)                # stack k left: stacks[k][tops[k]:]
        self.totals = [0, 0]
        self._player = 0
        self._left_coins = game.total_coins

    def current_player(self) -> int:
        return pyspiel.PlayerId.TERMINAL if self._left_coins == 0 else self._player

    def _legal_actions(self, player: int) -> list[int]:
        actions = []
        if self.right > self.left:
            actions.append(_LEFT)
            if self.right - self.left > 1:
                actions.append(_RIGHT)
        for k, stack in enumerate(self._stacks):
            if self.tops[k] < len(stack):
                actions.append(_FIRST_STACK + k)
        return actions

    def coin_of(self, action: int) -> int:
        """The coin that ``action`` takes in this position."""
        if action == _LEFT:
            return self._row[self.left]
        if action == _RIGHT:
            return self._row[self.right - 1]
        k = action - _FIRST_STACK
        return self._stacks[k][self.tops[k]]

    def _apply_action(self, action: int) -> None:
        self.totals[self._player] += self.coin_of(action)
        if action == _LEFT:
            self.left += 1
        elif action == _RIGHT:
            self.right -= 1
        else:
            self.tops[action - _FIRST_STACK] += 1
        self._left_coins -= 1
        self._player ^= 1

    def _action_to_string(self, player: int, action: int) -> str:
        if action == _LEFT:
            return "left"
        if action == _RIGHT:
            return "right"
        return f"stack {action - _FIRST_STACK}"

    def is_terminal(self) -> bool:
        return self._left_coins == 0

    def returns(self) -> list[float]:
        # Terminal rewards (the game type's reward model): the margin once the game is over,
        # 0 before, so that the rewards of an episode add up to its returns at every step.
        if self._left_coins:
            return [0.0, 0.0]
        margin = float(self.totals[0] - self.totals[1])
        return [margin, -margin]

    def rewards(self) -> list[float]:
        return self.returns()

    def coinsrow_game(self) -> Game:
        """The coins left as a ``coinsrow.Game``: its ``value()`` is what the player to move
        gains over the other from here with both playing optimally."""
        return Game(rows=[list(self._row[self.left:self.right])],
                    stacks=[list(s[t:]) for s, t in zip(self._stacks, self.tops)])

    def __str__(self) -> str:
        row = " ".join(map(format_number, self._row[self.left:self.right]))
        text = f"row: [{row}]"
        if self._stacks:
            stacks = " | ".join(" ".join(map(format_number, s[t:]))
                                for s, t in zip(self._stacks, self.tops))
            text += f" stacks (top first): [{stacks}]"
        return f"{text} totals: {self.totals[0]} {self.totals[1]}"


class _CoinsObserver:
    """Observation string and tensor: whose turn (2), then for every coin of the start
    (the row, then the stacks) whether it is left and its value (0 once taken)."""

    def __init__(self, game: CoinsInARowGame, params: Any) -> None:
        if params:
            raise ValueError(f"coins_in_a_row: observation parameters not supported: {params}")
        n = game.total_coins
        self.tensor = np.zeros(2 + 2 * n, np.float32)
        self.dict = {"player": self.tensor[:2], "present": self.tensor[2:2 + n],
                     "coins": self.tensor[2 + n:]}

    def set_from(self, state: CoinsInARowState, player: int) -> None:
        self.tensor.fill(0)
        mover = state.current_player()
        if mover in (0, 1):
            self.dict["player"][mover] = 1
        present, coins = self.dict["present"], self.dict["coins"]
        at = 0
        for segment, start in ((state._row, None), *((s, t) for s, t in
                                                      zip(state._stacks, state.tops))):
            size = len(segment)
            lo, hi = (state.left, state.right) if start is None else (start, size)
            if hi > lo:
                present[at + lo:at + hi] = 1
                coins[at + lo:at + hi] = segment[lo:hi]
            at += size

    def string_from(self, state: CoinsInARowState, player: int) -> str:
        mover = state.current_player()
        turn = f"player {mover} to move" if mover in (0, 1) else "game over"
        return f"{state} {turn}"


pyspiel.register_game(_GAME_TYPE, CoinsInARowGame)


def _action_of(move: Move) -> int:
    if move.kind == "row":
        return _LEFT if move.end == "left" else _RIGHT
    return _FIRST_STACK + move.index


class OptimalBot(pyspiel.Bot):
    """A ``pyspiel.Bot`` that plays an optimal move (``coinsrow.Engine.best_move``).

    The bot keeps an ``Engine`` in step with the states it is shown: a state that continues
    the last one costs O(log n) a move; any other is read afresh (O(n log n)).

    Parameters
    ----------
    game : pyspiel.Game
        A ``"coins_in_a_row"`` game.
    player_id : int
        The player the bot plays (0 moves first).
    """

    def __init__(self, game: Any, player_id: int) -> None:
        pyspiel.Bot.__init__(self)
        self._player_id = player_id
        self._engine: Engine | None = None
        self._history: list[int] = []

    def _synced(self, state: CoinsInARowState) -> Engine:
        history = state.history()
        engine = self._engine
        done = len(self._history)
        if engine is None or history[:done] != self._history:
            engine = Engine(state.coinsrow_game())
        else:
            for action in history[done:]:
                engine.take(self._move(engine, action))
        self._engine, self._history = engine, list(history)
        return engine

    @staticmethod
    def _move(engine: Engine, action: int) -> Move:
        for move in engine.moves():
            if _action_of(move) == action:
                return move
        raise ValueError(f"coins_in_a_row: action {action} is not legal here")

    def step(self, state: CoinsInARowState) -> int:
        """The optimal action in ``state`` (O(log n) when ``state`` continues the last)."""
        return _action_of(self._synced(state).best_move())

    def restart_at(self, state: CoinsInARowState) -> None:
        self._engine, self._history = None, []

    def inform_action(self, state: CoinsInARowState, player_id: int, action: int) -> None:
        pass

    def provides_policy(self) -> bool:
        return False
