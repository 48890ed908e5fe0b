"""The int64 game kernels sort the reduced entries as 32-bit offsets from the smallest when
they all lie within 2^32 of it, and as 64-bit keys otherwise (docs/positions.md). Games whose
entries straddle that boundary, against the paper's pseudocode and the exact twins."""

from __future__ import annotations

import random
from array import array

import pytest

from coinsrow import Game, _core

from oracles import paper_value

SPREADS = [2**31 - 1, 2**31, 2**31 + 1, 2**32 - 2, 2**32 - 1, 2**32, 2**32 + 1, 2**40, 2**62]


def spread_game(rng: random.Random, spread: int) -> tuple[list[list[int]], list[list[int]]]:
    """Rows and stacks of coins in [base, base + spread], the extremes present."""
    base = rng.choice([0, -(2**31), 2**33, -(2**62)])
    components = []
    for _ in range(rng.randint(1, 6)):
        n = rng.randint(1, 7)
        components.append([base + rng.choice([0, spread, rng.randint(0, spread)])
                           for _ in range(n)])
    components[0][0] = base
    components[-1][-1] = base + spread
    cut = rng.randint(0, len(components))
    return components[:cut], components[cut:]


@pytest.mark.parametrize("spread", SPREADS)
def test_games_across_the_sorts_boundary(spread):
    rng = random.Random(spread)
    for _ in range(300):
        rows, stacks = spread_game(rng, spread)
        game = Game(rows=rows, stacks=stacks)
        want = paper_value(rows, stacks)
        assert game.value() == want, (rows, stacks)
        first, second = game.profits()
        assert first - second == want and first + second == sum(map(sum, rows + stacks))


@pytest.mark.parametrize("spread", SPREADS)
def test_machine_kernels_agree_with_their_twins_across_the_boundary(spread):
    rng = random.Random(1000 + spread)
    for _ in range(300):
        rows, stacks = spread_game(rng, spread)
        coins = [c for component in rows + stacks for c in component]
        bounds = [0]
        for component in rows + stacks:
            bounds.append(bounds[-1] + len(component))
        starts, stops = array("q", bounds[:-1]), array("q", bounds[1:])
        for name in ("game_value", "game_profits"):
            status, payload = getattr(_core, name)(array("q", coins), starts, stops, len(rows))
            twin_status, twin_payload = getattr(_core, name + "_exact")(coins, starts, stops,
                                                                         len(rows))
            assert twin_status == _core.Status.OK
            if status == _core.Status.OK:  # else an int64 overflow, redone exactly
                assert payload == twin_payload, (name, rows, stacks)
