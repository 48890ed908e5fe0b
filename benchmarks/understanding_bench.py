"""What reviewing a game and valuing its moves cost. Run from the repository root after
building:

    python benchmarks/understanding_bench.py

- analyze() of a row of 10^5 coins played by a random player, against simulate() playing
  the same game: analyze is one Engine pass (O(1) a value, O(log n) a move), simulate one
  too (random against random), so the ratio should stay small (at most 3x).
- analyze() on 4*10^4 and 2*10^5 moves: O(n log n), so the ratio should be about 5.5x (at
  most 7x) for 5x the moves.
- Game.move_values() on a game of 10^4 one-coin rows (10^4 legal moves), against
  Game.moves() on the same game: one reduction for all the moves, so a small factor (at most
  20x), not 10^4 games solved.
- Engine.move_values() mid-game on a row of 10^5 coins and on a 10^5-node forest of 100
  trees (2,000 moves played), against best_move() of the same Engine: the ratio says
  whether the window structure answers (a few per legal move) or the position is solved
  again (thousands and more). Game.move_values() of the same position, the path
  Engine.move_values() took before it went through the window structure (and still takes
  for float coins), is timed beside it.

The machine may be shared: the calls are timed interleaved, best of several repetitions, and
the ratios are what to read.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import coinsrow


def best_times(calls: dict[str, Callable[[], object]], repeat: int) -> dict[str, float]:
    """The best time of each call over ``repeat`` rounds, the calls interleaved."""
    best = {name: float("inf") for name in calls}
    for _ in range(repeat):
        for name, call in calls.items():
            start = time.perf_counter()
            call()
            best[name] = min(best[name], time.perf_counter() - start)
    return best


def main() -> None:
    rng = random.Random(2026)
    print(f"coinsrow {coinsrow.__version__}, Python {sys.version.split()[0]}")
    coinsrow.analyze([1, 2, 3], ["left"])  # warm-up: imports what the calls use

    n = 10**5
    row = [rng.randint(-10**6, 10**6) for _ in range(n)]
    moves = coinsrow.simulate(row, "random", "random", seed=1).moves
    t = best_times({
        "simulate": lambda: coinsrow.simulate(row, "random", "random", seed=1),
        "analyze": lambda: coinsrow.analyze(row, moves),
    }, 5)
    print(f"\none row of {n} coins, a random player against a random player:")
    print(f"  simulate {t['simulate']:.3f} s   analyze {t['analyze']:.3f} s   "
          f"ratio {t['analyze'] / t['simulate']:.2f} (at most 3)")

    small, large = 4 * 10**4, 2 * 10**5
    rows = {m: [rng.randint(-10**6, 10**6) for _ in range(m)] for m in (small, large)}
    played = {m: coinsrow.simulate(r, "random", "greedy", seed=2).moves for m, r in rows.items()}
    t = best_times({str(m): (lambda m=m: coinsrow.analyze(rows[m], played[m]))
                    for m in (small, large)}, 5)
    print(f"\nanalyze() of a random player against greedy, {small} and {large} moves:")
    print(f"  {t[str(small)]:.3f} s and {t[str(large)]:.3f} s   ratio "
          f"{t[str(large)] / t[str(small)]:.2f} (moves ratio {large // small}, at most 7)")

    game = coinsrow.Game(rows=[[rng.randint(-100, 100)] for _ in range(10**4)])
    t = best_times({"moves": game.moves, "move_values": game.move_values}, 7)
    print(f"\na game of 10^4 one-coin rows ({len(game.moves())} legal moves):")
    print(f"  moves() {t['moves'] * 1e3:.1f} ms   move_values() {t['move_values'] * 1e3:.1f} ms"
          f"   ratio {t['move_values'] / t['moves']:.1f} (at most 20)")
    long_row = coinsrow.Game(rows=[row])
    # value(row) computes the value afresh from the list (a Game caches its own);
    # move_values of one int64 component runs the compiled kernel on the row without each
    # end coin.
    t = best_times({"value": lambda: coinsrow.value(row),
                    "move_values": long_row.move_values}, 5)
    print(f"\none row of {n} coins (2 legal moves): value(row) {t['value'] * 1e3:.1f} ms   "
          f"move_values() {t['move_values'] * 1e3:.1f} ms   ratio "
          f"{t['move_values'] / t['value']:.2f}")

    # An Engine mid-game: move_values() against best_move() (O(log n)) of the same Engine,
    # and Game.move_values() of the same position (the position solved again). Read the
    # ratio: a few per legal move is the window structure answering, tens of thousands a
    # game solved again.
    engine = coinsrow.Engine(row)
    for _ in range(1000):
        engine.take(engine.best_move())
    parents = [-1 if k < 100 else rng.randrange(k) for k in range(n)]
    forest = coinsrow.Engine(coinsrow.Game(
        forest=([rng.randint(-10**6, 10**6) for _ in range(n)], parents)))
    for _ in range(2000):
        forest.take(forest.best_move())
    print()
    for name, e, repeat in (("one row", engine, 5), (f"a {n}-node forest", forest, 3)):
        position = e.game

        def best_moves(e: coinsrow.Engine = e) -> None:
            for _ in range(1000):
                e.best_move()

        t = best_times({"best_move": best_moves, "move_values": e.move_values,
                        "game": position.move_values}, repeat)
        t["best_move"] /= 1000  # a call's time, the timer's cost spread over 1,000 calls
        legal = len(e.moves())
        print(f"an Engine of {name}, {len(e)} coins left, {legal} legal moves: best_move() "
              f"{t['best_move'] * 1e6:.2f} us   move_values() {t['move_values'] * 1e3:.3f} ms"
              f"   ratio {t['move_values'] / t['best_move']:.0f} "
              f"({t['move_values'] / t['best_move'] / legal:.1f} a legal move)   "
              f"Game.move_values() of the position {t['game'] * 1e3:.1f} ms, ratio "
              f"{t['game'] / t['best_move']:.0f}")


if __name__ == "__main__":
    main()
