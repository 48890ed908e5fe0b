"""Random inputs shared by the tests: rows with ties, zeros, negatives, shapes, big ints."""

from __future__ import annotations

import random

ROW_STYLES = (
    "wide", "ties", "signs", "valley", "peak", "walk", "alternating", "sorted", "big", "edges",
)

# Coins that fit in int32 (and in a float exactly): for NumPy dtype and float tests.
SMALL_STYLES = tuple(s for s in ROW_STYLES if s not in ("big", "edges"))


def random_row(rng: random.Random, n: int, styles: tuple[str, ...] = ROW_STYLES) -> list[int]:
    """A random row of ``n`` int coins in one of ``styles`` (chosen at random)."""
    style = rng.choice(styles)
    if style == "wide":
        return [rng.randint(-1000, 1000) for _ in range(n)]
    if style == "ties":  # many ties and zeros
        return [rng.randint(0, 3) for _ in range(n)]
    if style == "signs":  # ties, zeros, negatives
        return [rng.choice([-2, 0, 2]) for _ in range(n)]
    if style == "valley":  # V-shaped: one long valley, nothing fuses
        return [abs(k - n // 2) * 2 + rng.randint(0, 1) for k in range(n)]
    if style == "peak":  # everything fuses
        return [1000 - abs(k - n // 2) * 3 + rng.randint(0, 2) for k in range(n)]
    if style == "walk":
        x, out = 0, []
        for _ in range(n):
            x += rng.randint(-10, 10)
            out.append(x)
        return out
    if style == "alternating":  # high, low, high, ...
        return [rng.randint(0, 9) * (1 if k % 2 else 10) for k in range(n)]
    if style == "sorted":
        return sorted(rng.randint(-50, 50) for _ in range(n))
    if style == "big":  # beyond int64
        return [rng.randint(-3, 3) * 2**64 + rng.randint(0, 2) for _ in range(n)]
    if style == "edges":  # int64 limits: sums and fusions overflow
        return [rng.choice([2**63 - 1, -(2**63), 2**62, 0, -1]) for _ in range(n)]
    raise ValueError(f"unknown row style {style!r}")


def random_game(rng: random.Random, max_coins: int, lo: int = -4,
                hi: int = 4) -> tuple[list[list[int]], list[list[int]]]:
    """Random rows and stacks (stacks top first) of at most ``max_coins`` coins in all."""
    rows: list[list[int]] = []
    stacks: list[list[int]] = []
    budget = rng.randint(0, max_coins)
    while budget > 0:
        size = rng.randint(0, min(budget, 5))
        budget -= size
        component = [rng.randint(lo, hi) for _ in range(size)]
        (rows if rng.random() < 0.5 else stacks).append(component)
    return rows, stacks
