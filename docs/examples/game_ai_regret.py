"""OpenSpiel's MCTS against the exact optimum: its regret on rows of growing length.

    python docs/examples/game_ai_regret.py [--lengths 8 16 32] [--budgets 10 100 1000]
                                           [--rows 10] [--seed 0]

For every row length and MCTS simulation budget, MCTS (random roll-outs, UCT constant 100:
the exploration term must be of the size of the returns, which are margins of coins up to 99)
moves first against ``coinsrow.spiel.OptimalBot`` on ``--rows`` random rows of coins from 0 to
99. Its regret on a row is ``coinsrow.value(row)`` (the margin optimal play gets from the
start) minus the margin it got: 0 for perfect play, exact, with no estimate in it. The table
gives the mean regret and how many rows MCTS played perfectly. Then a random Gymnasium agent
and a PettingZoo loop, to show the other two adapters.
"""

from __future__ import annotations

import argparse
import random

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

import coinsrow
import coinsrow.spiel
from coinsrow.envs import CoinsRowEnv, aec_env

UCT_C = 100.0


def mcts_regret(row: list[int], budget: int, seed: int) -> int:
    """``value(row)`` minus MCTS's margin, MCTS first, OptimalBot second."""
    game = pyspiel.load_game("coins_in_a_row", {"coins": " ".join(map(str, row))})
    state_rng = np.random.RandomState(seed)
    searcher = mcts.MCTSBot(game, UCT_C, budget, mcts.RandomRolloutEvaluator(1, state_rng),
                            random_state=state_rng)
    bots = [searcher, coinsrow.spiel.OptimalBot(game, 1)]
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
    return coinsrow.value(row) - int(state.returns()[0])


def regret_table(lengths: list[int], budgets: list[int], rows: int, seed: int) -> list[dict]:
    rng = random.Random(seed)
    table = []
    for length in lengths:
        games = [[rng.randint(0, 99) for _ in range(length)] for _ in range(rows)]
        for budget in budgets:
            regrets = [mcts_regret(row, budget, seed + i) for i, row in enumerate(games)]
            table.append({"length": length, "budget": budget,
                          "mean_regret": sum(regrets) / len(regrets),
                          "perfect": sum(r == 0 for r in regrets), "rows": len(regrets)})
    return table


def random_agent_regret(episodes: int, seed: int) -> float:
    """A uniformly random Gymnasium agent against the optimal opponent: its mean regret."""
    env = CoinsRowEnv(n=16, seed=seed)
    rng = random.Random(seed)
    total = 0
    for episode in range(episodes):
        env.reset(seed=seed + episode)
        done = False
        while not done:
            _, _, done, _, info = env.step(rng.randrange(2))
        total += info["regret"]
    return total / episodes


def pettingzoo_margin(seed: int) -> tuple[int, int]:
    """Two greedy agents in the AEC environment: the first one's margin and the optimum."""
    env = aec_env(n=12)
    env.reset(seed=seed)
    margin = 0
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        if agent == "player_0":
            margin += reward
        if termination or truncation:
            env.step(None)
            continue
        coins, present = observation["observation"]
        left = int(np.argmax(present))
        right = len(present) - 1 - int(np.argmax(present[::-1]))
        env.step(0 if coins[left] >= coins[right] else 1)
    return int(margin), info["optimal"]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lengths", type=int, nargs="+", default=[8, 16, 32])
    parser.add_argument("--budgets", type=int, nargs="+", default=[10, 100, 1000])
    parser.add_argument("--rows", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    print("| coins | MCTS simulations | mean regret | rows played perfectly |")
    print("|---:|---:|---:|---:|")
    for line in regret_table(args.lengths, args.budgets, args.rows, args.seed):
        print(f"| {line['length']} | {line['budget']} | {line['mean_regret']:.1f} | "
              f"{line['perfect']} of {line['rows']} |")
    print(f"\nGymnasium, a random agent on 16 coins: mean regret "
          f"{random_agent_regret(200, args.seed):.1f} over 200 episodes")
    margin, optimal = pettingzoo_margin(args.seed)
    print(f"PettingZoo, two greedy agents on 12 coins: the first's margin {margin}, "
          f"optimal {optimal}")


if __name__ == "__main__":
    main()
