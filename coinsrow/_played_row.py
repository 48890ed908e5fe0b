"""One row being played by the game-AI environments (``coinsrow.envs``): its coins, its ends,
its observation and the engine that knows the optimum. Needs NumPy, no framework."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._engine import Engine

LEFT, RIGHT = 0, 1
_LEFT, _RIGHT = LEFT, RIGHT


def draw_row(coins: Any, n: int, rng: np.random.Generator, max_coin: int) -> list[int]:
    if coins is None:
        return [int(c) for c in rng.integers(0, max_coin, size=n, endpoint=True)]
    row = list(coins)
    for i, coin in enumerate(row):
        if isinstance(coin, bool) or not isinstance(coin, (int, float, np.integer,
                                                           np.floating)):
            raise TypeError(f"coins[{i}] is {coin!r}; expected a real number")
    return row


def observation_bounds(fixed: list | None, max_coin: int) -> tuple[float, float]:
    """The bounds of an observation's entries: the coins' range with 0 and 1 in it."""
    coins = fixed if fixed is not None else [0, max_coin]
    return float(min(0, *coins)), float(max(1, *coins))


class PlayedRow:
    """One row being played: its coins, the ends left, the observation kept up to date
    (O(1) a move), and the engine that knows the optimum (O(log n) a move)."""

    def __init__(self, coins: list) -> None:
        self.coins = coins
        self.left, self.right = 0, len(coins)
        self.engine = Engine(coins)
        # Row 0: the coins (0 once taken); row 1: 1 where a coin is left.
        self.board = np.zeros((2, len(coins)))
        self.board[0] = coins
        self.board[1] = 1

    def __len__(self) -> int:
        return self.right - self.left

    def take(self, action: int) -> Any:
        """Take the left (0) or right (1) end; the coin taken."""
        if action == _LEFT:
            at = self.left
            self.left += 1
            self.engine.take("left")
        else:
            self.right -= 1
            at = self.right
            self.engine.take("right")
        self.board[0, at] = self.board[1, at] = 0
        return self.coins[at]

    def observation(self) -> np.ndarray:
        """The observation, a copy the caller may keep (O(n))."""
        copy: np.ndarray = self.board.copy()
        return copy
