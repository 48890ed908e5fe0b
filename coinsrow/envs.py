"""Coins in a row as a Gymnasium and a PettingZoo environment, judged by the exact engine.

Importing this module needs ``gymnasium`` (and ``pettingzoo`` for ``aec_env``), installed by
the ``games`` extra; it registers ``"coinsrow/CoinsRow-v0"`` with Gymnasium.

``CoinsRowEnv`` puts an agent against an opponent on one row: the agent moves first; each
step is the agent's move and the opponent's reply; the reward is the agent's coin minus the
reply's, so an episode's return is the final margin, and at the end ``info["regret"]`` is the
optimal margin (``coinsrow.value`` of the row) minus the agent's margin. Against the optimal
opponent the regret is at least 0, and 0 exactly when the agent played optimally; against an
opponent that errs it can be negative.

``aec_env`` is the same game for two learning agents (PettingZoo's AEC API, action masks).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from ._game import Game
from ._moves import Move
from ._played_row import LEFT, RIGHT, PlayedRow, draw_row, observation_bounds
from ._row_calls import value

__all__ = ["OPPONENTS", "CoinsRowEnv", "aec_env"]

OPPONENTS = ("optimal", "greedy", "lookahead", "random")
_LEFT, _RIGHT = LEFT, RIGHT
_BOTH, _NONE = np.ones(2, dtype=np.int8), np.zeros(2, dtype=np.int8)


def _opponent(name_or_callable: Any) -> Callable[[PlayedRow, Any], int]:
    """The opponent's choice ``f(row, rng) -> action`` for a name or a user's callable."""
    if callable(name_or_callable):
        strategy = name_or_callable

        def ask(row: PlayedRow, rng: Any) -> int:
            answer = strategy(Game(rows=[row.coins[row.left:row.right]]))
            end = answer.end if isinstance(answer, Move) else answer
            if end not in ("left", "right"):
                raise ValueError(f"the opponent answered {answer!r}; expected 'left', "
                                 "'right' or a Move of the row")
            return _LEFT if end == "left" else _RIGHT
        return ask
    if name_or_callable == "optimal":
        return lambda row, rng: _LEFT if row.engine.best_move().end == "left" else _RIGHT
    if name_or_callable == "greedy":
        return lambda row, rng: (_LEFT if row.coins[row.left] >= row.coins[row.right - 1]
                                 else _RIGHT)
    if name_or_callable == "lookahead":
        return _lookahead
    if name_or_callable == "random":
        return lambda row, rng: int(rng.integers(2))
    raise ValueError(f"unknown opponent {name_or_callable!r}; expected one of "
                     f"{', '.join(map(repr, OPPONENTS))} or a callable f(game) -> move")


def _lookahead(row: PlayedRow, rng: Any) -> int:
    """``simulate``'s "lookahead": maximise my coin minus the best coin it exposes."""
    a, i, j = row.coins, row.left, row.right
    if j - i <= 1:
        return _LEFT
    take_left = a[i] - max(a[i + 1], a[j - 1]) >= a[j - 1] - max(a[i], a[j - 2])
    return _LEFT if take_left else _RIGHT


class CoinsRowEnv(gymnasium.Env):
    """An agent against an opponent on one row of coins (Gymnasium API).

    Parameters
    ----------
    coins : sequence of numbers, optional
        The row, the same at every reset. None: a random row of ``n`` integer coins from 0 to
        ``max_coin`` at each reset, drawn from the environment's ``np_random``.
    n : int
        The length of a random row (ignored when ``coins`` is given).
    seed : int, optional
        Seeds the environment's generator (as ``reset(seed=...)`` does).
    opponent : {"optimal", "greedy", "lookahead", "random"} or callable
        The second player: the exact optimum, one of ``simulate``'s named strategies, or
        ``f(game) -> Move | "left" | "right"`` given the coins left as a ``Game``.
    max_coin : int
        The largest coin of a random row.

    Notes
    -----
    Observation: an array of shape ``(2, n)``: the coins (0 once taken), and 1 where a coin
    is left. Actions: 0 takes the left end, 1 the right end (on the last coin both take it;
    ``info["action_mask"]`` says which are legal). Reward: the agent's coin minus the
    opponent's reply. At the end ``info["optimal"]`` is ``coinsrow.value`` of the row and
    ``info["regret"]`` is that minus the agent's margin (the episode's return).

    Cost: a reset O(n log n); a step O(log n) for the engine (the optimum and the optimal
    opponent) plus the observation's copy, O(n) but a memory copy (2 µs for 10^4 coins).
    """

    # Gymnasium reads it from the class, before an instance exists.
    metadata = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012

    def __init__(self, coins: Any = None, *, n: int = 10, seed: int | None = None,
                 opponent: Any = "optimal", max_coin: int = 100,
                 render_mode: str | None = None) -> None:
        if coins is None and (isinstance(n, bool) or not isinstance(n, int) or n < 1):
            raise ValueError(f"n must be a positive integer, got {n!r}")
        self._fixed = None if coins is None else draw_row(coins, 0, np.random.default_rng(),
                                                         max_coin)
        if self._fixed is not None and not self._fixed:
            raise ValueError("coins: the row is empty")
        self._n = n if self._fixed is None else len(self._fixed)
        self._max_coin = max_coin
        self._reply = _opponent(opponent)
        self.render_mode = render_mode
        self.action_space = spaces.Discrete(2)
        self.observation_space = spaces.Box(*observation_bounds(self._fixed, max_coin),
                                            shape=(2, self._n), dtype=np.float64)
        self._row: PlayedRow | None = None
        self._margin: Any = 0
        if seed is not None:
            self.np_random, _ = gymnasium.utils.seeding.np_random(seed)

    def reset(self, *, seed: int | None = None, options: dict | None = None
              ) -> tuple[np.ndarray, dict]:
        super().reset(seed=seed)
        coins = self._fixed if self._fixed is not None else draw_row(
            None, self._n, self.np_random, self._max_coin)
        self._row = PlayedRow(coins)
        self._optimal = value(coins)
        self._margin = 0
        return self._row.observation(), self._info()

    def _info(self) -> dict:
        row = self._row
        assert row is not None
        return {"action_mask": (_BOTH if len(row) else _NONE).copy()}

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        row = self._row
        if row is None or not len(row):
            raise RuntimeError("step() after the end of an episode: call reset() first")
        # Checked by hand: Discrete.contains cost as much as the two moves of the engine.
        if (action != 0 and action != 1) or isinstance(action, (bool, float)):
            raise ValueError(f"action {action!r} is not 0 (left) or 1 (right)")
        reward = row.take(int(action))
        if len(row):
            reward -= row.take(self._reply(row, self.np_random))
        self._margin += reward
        info = self._info()
        done = not len(row)
        if done:
            info["optimal"] = self._optimal
            info["regret"] = self._optimal - self._margin
        return row.observation(), float(reward), done, False, info

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self._row is None:
            return None
        row = self._row
        return f"row: {row.coins[row.left:row.right]} margin so far: {self._margin}"


gymnasium.register(id="coinsrow/CoinsRow-v0", entry_point="coinsrow.envs:CoinsRowEnv")


def aec_env(coins: Any = None, **kwargs: Any) -> Any:
    """The game for two agents, ``"player_0"`` (first) and ``"player_1"``, as a PettingZoo
    AEC environment with action masks.

    Parameters
    ----------
    coins : sequence of numbers, optional
        The row; None: a random row of ``n`` coins (keyword ``n``, default 10; ``max_coin``,
        default 100) at each reset, from the reset's seed.
    **kwargs
        ``n``, ``max_coin``, ``render_mode``.

    Returns
    -------
    pettingzoo.AECEnv
        Observations ``{"observation": (2, n) array as CoinsRowEnv's, "action_mask": int8
        array of 2}``; each step's reward is the coin taken, to the mover, and its opposite to
        the other agent, so each agent's return is its margin. ``infos[agent]["optimal"]`` is
        ``coinsrow.value`` of the row (the first player's optimal margin).

    Cost: a step O(n) for the observation, O(1) otherwise; a reset O(n log n).
    """
    from ._aec import CoinsRowAEC  # PettingZoo imported only here
    return CoinsRowAEC(coins, **kwargs)
