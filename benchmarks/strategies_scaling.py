"""How simulate() and cooperative_max() scale. Run from the repository root after building:

    python benchmarks/strategies_scaling.py

- simulate(optimal, optimal) follows the Game's cached optimal line, so it is O(n log k):
  the time for 10^5 coins should be about 5x (at most 8x) the time for 2*10^4 coins.
- cooperative_max is O(n^2): a row of 10^4 coins, timed for int64, float64 and a list.

The machine may be shared: the sizes are timed interleaved, best of several repetitions, and
the ratios are what to read.
"""

from __future__ import annotations

import random
import sys
import time
from array import array
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import coinsrow


def best_time(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    rng = random.Random(2024)
    small_n, large_n = 2 * 10**4, 10**5
    print(f"coinsrow {coinsrow.__version__}, Python {sys.version.split()[0]}")
    coinsrow.simulate([1, 2, 3])  # warm-up: the kernels' first call imports what they use
    print("\nsimulate(game, 'optimal', 'optimal'): one row, and 8 rows + 8 stacks")
    for label, make in (
        ("one row", lambda n: coinsrow.Game(rows=[[rng.randint(-1000, 1000) for _ in range(n)]])),
        ("8 rows + 8 stacks", lambda n: coinsrow.Game(
            rows=[[rng.randint(-1000, 1000) for _ in range(n // 16)] for _ in range(8)],
            stacks=[[rng.randint(-1000, 1000) for _ in range(n // 16)] for _ in range(8)])),
    ):
        games = {n: make(n) for n in (small_n, large_n)}
        times = {n: float("inf") for n in games}
        for _ in range(5):  # interleaved, so both sizes see the same machine load
            for n, game in games.items():
                # A fresh Game each time: the optimal line is computed inside the timing.
                fresh = coinsrow.Game(rows=game.rows, stacks=game.stacks)
                times[n] = min(times[n], best_time(lambda fresh=fresh: coinsrow.simulate(fresh), 1))
        playout = coinsrow.simulate(games[large_n])
        assert (playout.first, playout.second) == tuple(games[large_n].profits())
        print(f"  {label:18s} n={small_n:>6}: {times[small_n]:.3f} s   n={large_n:>6}: "
              f"{times[large_n]:.3f} s   ratio {times[large_n] / times[small_n]:.2f} "
              f"(coins ratio {large_n / small_n:.0f})")

    print("\ncooperative_max on a row of 10^4 coins (O(n^2) = 5*10^7 DP cells)")
    n = 10**4
    ints = [rng.randint(-10**6, 10**6) for _ in range(n)]
    rows = {
        "list of ints": ints,
        "array('q')": array("q", ints),
        "array('d')": array("d", ints),
    }
    try:
        import numpy as np

        rows["numpy int64"] = np.array(ints, dtype=np.int64)
        rows["numpy float64"] = np.array(ints, dtype=np.float64)
    except ImportError:
        pass
    for label, row in rows.items():
        print(f"  {label:14s}: {best_time(lambda row=row: coinsrow.cooperative_max(row), 3):.3f} s")
    big = [x * 2**62 for x in ints[:2000]]
    print(f"  2000 ints near 2^62 (int64 overflow -> exact Python ints): "
          f"{best_time(lambda: coinsrow.cooperative_max(big), 1):.3f} s")


if __name__ == "__main__":
    main()
