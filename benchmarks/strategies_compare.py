"""Heuristics against optimal play: the numbers of the strategy comparison of
docs/guide/strategies.md.

    python benchmarks/strategies_compare.py [--rows 2000] [--length 20] [--seed 1]

1. The textbook rows (where the even/odd strategy is not optimal): what each strategy
   collects moving first against an optimal opponent, next to the optimal total and the
   cooperative maximum (the second player helping).
2. Random rows (even length, so the parity strategy applies; coins uniform in 1..100): the
   average loss of each heuristic against optimal play, in points of margin (own total minus
   the opponent's) below the value of the row, and how often it loses the game outright.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import coinsrow

HEURISTICS = ("optimal", "greedy", "lookahead", "parity", "random")
# The two rows the coins-in-a-line write-ups use to show the even/odd strategy is not optimal.
TEXTBOOK_ROWS = {
    "big coins inside": [1, 2, 1000, 3, 4, 900],
    "even/odd one short": [3, 2, 2, 3, 1, 2],
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=2000)
    parser.add_argument("--length", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.length % 2:
        parser.error("--length must be even (the parity strategy needs an even row)")

    print("Moving first against an optimal opponent (first player's total):\n")
    print("| row | " + " | ".join(HEURISTICS) + " | cooperative_max |")
    print("|---" * (len(HEURISTICS) + 2) + "|")
    for label, row in TEXTBOOK_ROWS.items():
        totals = [coinsrow.simulate(row, h, "optimal", seed=args.seed).first for h in HEURISTICS]
        print(f"| {label} `{row}` | " + " | ".join(map(str, totals))
              + f" | {coinsrow.cooperative_max(row)} |")

    rng = random.Random(args.seed)
    loss = dict.fromkeys(HEURISTICS, 0)
    lost_games = dict.fromkeys(HEURISTICS, 0)
    total_value = 0
    for _ in range(args.rows):
        row = [rng.randint(1, 100) for _ in range(args.length)]
        v = coinsrow.value(row)
        total_value += v
        for h in HEURISTICS:
            playout = coinsrow.simulate(row, h, "optimal", seed=rng.random())
            margin = playout.first - playout.second
            assert margin <= v
            loss[h] += v - margin
            lost_games[h] += margin < 0
    print(f"\n{args.rows} random rows of {args.length} coins in 1..100, each heuristic moving "
          f"first against optimal play (average value of a row: "
          f"{total_value / args.rows:.1f}):\n")
    print("| strategy | average loss of margin | games lost |")
    print("|---|---|---|")
    for h in HEURISTICS:
        print(f"| {h} | {loss[h] / args.rows:.1f} | {100 * lost_games[h] / args.rows:.1f}% |")


if __name__ == "__main__":
    main()
