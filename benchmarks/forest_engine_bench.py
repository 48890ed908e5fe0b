"""How a forest Engine's moves() and simulate() on forests grow with n; the Engine's lock.

    python benchmarks/forest_engine_bench.py [--small 10000] [--large 100000] [--repeat 3]

- ``Engine.moves()`` on a path of n nodes (one legal move) and on a random recursive tree
  after a tenth of its nodes were taken at random: microseconds a call at both sizes. The
  engine keeps its set of roots, so the cost follows the number of legal moves, not n (a
  ratio near 1 on the path).
- ``simulate(game, strategy, "optimal")`` for the strategies "greedy" and "random" on a path
  and on a random recursive tree of n nodes (with a row of 100 coins, so that the first
  move leaves the optimal line at once): seconds at both sizes. O(n log n): a ratio near
  (large / small) times a little.
- The Engine's lock: the time of an empty ``with engine._lock`` (``take`` holds it once)
  next to a move (``best_move()`` + ``take()``) of a one-row game and of a forest game.

The sizes are timed interleaved, best of ``--repeat`` runs each (the machine may be shared:
read the ratios). Run from the repository root after building in place.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import timeit
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import coinsrow
from coinsrow import Engine, Game, simulate


def best_of(repeat: int, fn: Callable[[], object], calls: int = 1) -> float:
    """The best time of ``repeat`` runs of ``calls`` calls of fn, per call (seconds)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        best = min(best, (time.perf_counter() - start) / calls)
    return best


def path(n: int, rng: random.Random) -> tuple[list[int], list[int]]:
    return [rng.randint(-1000, 1000) for _ in range(n)], [-1] + list(range(n - 1))


def recursive_tree(n: int, rng: random.Random) -> tuple[list[int], list[int]]:
    parents = [-1] + [rng.randrange(i) for i in range(1, n)]
    return [rng.randint(-1000, 1000) for _ in range(n)], parents


def engine_after_random_moves(forest: tuple[list[int], list[int]], share: float,
                              rng: random.Random) -> Engine:
    engine = Engine(Game(forest=forest))
    for _ in range(int(share * len(forest[0]))):
        listed = engine.moves()
        engine.take(listed[rng.randrange(len(listed))])
    return engine


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--small", type=int, default=10**4)
    parser.add_argument("--large", type=int, default=10**5)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    sizes = (args.small, args.large)
    rng = random.Random(29)
    print(f"coinsrow {coinsrow.__version__}, Python {sys.version.split()[0]}; "
          f"n = {sizes[0]} and {sizes[1]}")

    print("\nEngine.moves(): microseconds a call")
    engines = {
        "path (1 legal move)": {n: Engine(Game(forest=path(n, rng))) for n in sizes},
        "random tree, 10% taken": {
            n: engine_after_random_moves(recursive_tree(n, rng), 0.1, rng) for n in sizes},
    }
    for label, by_size in engines.items():
        for engine in by_size.values():
            engine.moves()  # the set of roots is built on the first call
        times = {n: float("inf") for n in sizes}
        for _ in range(args.repeat):
            for n, engine in by_size.items():
                times[n] = min(times[n], best_of(1, engine.moves, calls=200))
        legal = {n: len(engine.moves()) for n, engine in by_size.items()}
        print(f"  {label:24s} " + "   ".join(
            f"n={n}: {1e6 * times[n]:8.2f} us ({legal[n]} moves)" for n in sizes)
            + f"   ratio {times[sizes[1]] / times[sizes[0]]:.2f}")

    print("\nsimulate(game, strategy, 'optimal'), a row of 100 coins and a forest: seconds")
    for shape, make in (("path", path), ("random tree", recursive_tree)):
        games = {n: Game(rows=[[rng.randint(-9, 9) for _ in range(100)]],
                         forest=make(n, rng)) for n in sizes}
        for strategy in ("greedy", "random"):
            times = {n: float("inf") for n in sizes}
            for _ in range(args.repeat):
                for n, game in games.items():
                    fresh = Game(rows=game.rows, forest=game.forest)  # no line cached
                    times[n] = min(times[n], best_of(
                        1, lambda fresh=fresh, strategy=strategy: simulate(
                            fresh, strategy, "optimal", seed=1)))
            print(f"  {shape:12s} {strategy:7s} " + "   ".join(
                f"n={n}: {times[n]:7.3f} s" for n in sizes)
                + f"   ratio {times[sizes[1]] / times[sizes[0]]:.1f} "
                f"(n ratio {sizes[1] / sizes[0]:.0f})")

    print("\nThe Engine's lock next to a move (best_move() + take()), microseconds")
    n = sizes[1]
    for label, game in (("one row", Game(rows=[[rng.randint(-1000, 1000) for _ in range(n)]])),
                        ("forest (random tree)", Game(forest=recursive_tree(n, rng)))):
        moves = float("inf")
        for _ in range(args.repeat):
            engine = Engine(game)
            best_move, take = engine.best_move, engine.take
            start = time.perf_counter()
            for _ in range(n // 2):
                take(best_move())
            moves = min(moves, (time.perf_counter() - start) / (n // 2))
        # take() holds the lock once: an empty ``with`` on it, less an empty loop.
        where = {"lock": Engine(game)._lock}
        hold = (min(timeit.repeat("with lock: pass", globals=where, number=n, repeat=5))
                - min(timeit.repeat("pass", number=n, repeat=5))) / n
        print(f"  {label:22s} a move {1e6 * moves:6.2f} us, the lock held once "
              f"{1e6 * hold:5.3f} us ({100 * hold / moves:.0f}% of the move)")


if __name__ == "__main__":
    main()
