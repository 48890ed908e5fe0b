"""An environment step against two Engine moves, side by side in one process.

    python benchmarks/game_ai_bench.py [--coins 16] [--rounds 5]

A step of ``coinsrow.envs.CoinsRowEnv`` (optimal opponent) is the agent's move, the
opponent's reply and the observation's copy; its baseline is two ``take`` of an ``Engine``
(a move and ``take(best_move())``). Episodes on a row of ``--coins`` random coins, the agent
always taking the left end; the time of a step excludes ``reset``. Each round times both;
the ratio printed is the median of the rounds' ratios.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
import timeit
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import coinsrow
from coinsrow.envs import CoinsRowEnv


def step_seconds(row: list[int], episodes: int) -> float:
    env = CoinsRowEnv(row)
    moves = (len(row) + 1) // 2
    total = 0.0
    for _ in range(episodes):
        env.reset()
        start = time.perf_counter()
        for _ in range(moves):
            env.step(0)
        total += time.perf_counter() - start
    return total / (episodes * moves)


def two_takes_seconds(row: list[int], number: int) -> float:
    engine = coinsrow.Engine(row * (6 * number // len(row) + 2))  # 3 timings of number

    def two_takes() -> None:
        engine.take("left")
        engine.take(engine.best_move())

    return min(timeit.repeat(two_takes, number=number, repeat=3)) / number


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--coins", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    rng = random.Random(0)
    row = [rng.randint(0, 99) for _ in range(args.coins)]
    ratios = []
    for _ in range(args.rounds):
        step, takes = step_seconds(row, 2000), two_takes_seconds(row, 10000)
        ratios.append(step / takes)
        print(f"step {step * 1e6:.2f} us, two Engine takes {takes * 1e6:.2f} us, "
              f"ratio {step / takes:.2f}")
    print(f"median ratio {statistics.median(ratios):.2f} ({args.coins} coins)")


if __name__ == "__main__":
    main()
