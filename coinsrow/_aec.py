"""The PettingZoo AEC environment of ``coinsrow.envs.aec_env`` (imports PettingZoo)."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import AgentSelector

from ._played_row import PlayedRow, draw_row, observation_bounds
from ._row_calls import value

_AGENTS = ["player_0", "player_1"]


class CoinsRowAEC(AECEnv):
    """Two agents take turns at the ends of one row (see ``coinsrow.envs.aec_env``)."""

    # The frameworks read it from the class, before an instance exists.
    metadata = {"render_modes": ["ansi"], "name": "coinsrow_v0",  # noqa: RUF012
                "is_parallelizable": False}

    def __init__(self, coins: Any = None, *, n: int = 10, max_coin: int = 100,
                 render_mode: str | None = None) -> None:
        super().__init__()
        self._fixed = None if coins is None else draw_row(coins, 0, np.random.default_rng(),
                                                         max_coin)
        if self._fixed is not None and not self._fixed:
            raise ValueError("coins: the row is empty")
        if self._fixed is None and (isinstance(n, bool) or not isinstance(n, int) or n < 1):
            raise ValueError(f"n must be a positive integer, got {n!r}")
        self._n = n if self._fixed is None else len(self._fixed)
        self._max_coin = max_coin
        self.render_mode = render_mode
        self.possible_agents = list(_AGENTS)
        self.action_spaces = {a: spaces.Discrete(2) for a in _AGENTS}
        self.observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(*observation_bounds(self._fixed, max_coin),
                                      shape=(2, self._n), dtype=np.float64),
            "action_mask": spaces.Box(0, 1, shape=(2,), dtype=np.int8),
        }) for a in _AGENTS}
        self._rng = np.random.default_rng()
        self._row: PlayedRow | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        coins = self._fixed if self._fixed is not None else draw_row(
            None, self._n, self._rng, self._max_coin)
        self._row = PlayedRow(coins)
        optimal = value(coins)
        self.agents = list(_AGENTS)
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {"optimal": optimal} for a in self.agents}
        self._selector = AgentSelector(self.agents)
        self.agent_selection = self._selector.reset()

    def observe(self, agent: str) -> dict:
        row = self._row
        assert row is not None
        board = row.observation()
        mask = np.zeros(2, dtype=np.int8)
        if agent == self.agent_selection and len(row):
            mask[:] = 1
        return {"observation": board, "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action not in (0, 1):
            raise ValueError(f"action {action!r} is not 0 (left) or 1 (right)")
        row = self._row
        assert row is not None
        coin = row.take(int(action))
        self._cumulative_rewards[agent] = 0
        other = _AGENTS[1 - _AGENTS.index(agent)]
        self.rewards = {agent: coin, other: -coin}
        if not len(row):
            self.terminations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()
        self.agent_selection = self._selector.next()

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self._row is None:
            return None
        row = self._row
        return f"row: {row.coins[row.left:row.right]}; {self.agent_selection} to move"

    def close(self) -> None:
        pass
