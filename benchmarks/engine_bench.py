"""Benchmarks of the window structure: Engine, pizza, Intervals.

    python benchmarks/engine_bench.py            # n = 10^6 (about a minute or two)
    python benchmarks/engine_bench.py --n 100000 # quicker

Run from the repository root after ``python setup.py build_ext --inplace``. Times are CPU
seconds of this process (``time.process_time``: single-threaded code, so CPU time is the work
done, not the wait on a shared machine). Prints, per data kind:
- a whole game of n coins, the engine (moving first) against a random opponent and against
  the adversary of the structure (it takes the end whose end block spans more coins): per
  move through the Python API (``best_move`` + ``take``) and on the compiled structure
  itself (``RowWindows``' methods called in a loop);
- ``pizza`` of n slices: total time and time per shift;
- ``Intervals``: build time and microseconds per query for 2*10^5 random queries on each
  shape (V-shaped rows included: benchmarks/subrows_bench.py has every family);
- side by side at a small size: the engine against re-solving every position with ``value``
  (what one would do without it), and pizza against the naive n row solves.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from array import array
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import coinsrow
from coinsrow import Engine, Intervals, _core, pizza


def rows(n: int, seed: int = 1) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    k = np.arange(n)
    return {
        "uniform": rng.integers(-10**6, 10**6, n),
        "ties": rng.integers(0, 3, n),
        "walk": np.cumsum(rng.integers(-10, 11, n)),
        "valley": np.abs(k - n // 2) * 2 + rng.integers(0, 2, n),
        "peak": 10**7 - np.abs(k - n // 2) * 3 + rng.integers(0, 3, n),
        "spine": np.where(k % 2 == 0, 1, 3 + k // 2),
        "float": rng.uniform(-1, 1, n),
    }


def python_game(data: np.ndarray, opponent: str, seed: int) -> float:
    """Seconds for a whole game through the public API."""
    rng = random.Random(seed)
    engine = Engine(data)
    windows = engine._windows
    ours = True
    best_move, take = engine.best_move, engine.take
    start = time.process_time()
    while len(engine):
        if ours:
            take(best_move())
        elif opponent == "random":
            take("left" if rng.random() < 0.5 else "right")
        else:
            left, right = windows.end_blocks(0)
            take("left" if left >= right else "right")
        ours = not ours
    return time.process_time() - start


def kernel_game(data: np.ndarray, opponent: str, seed: int) -> tuple[float, float]:
    """Build seconds and play seconds of a whole game on the compiled structure itself
    (``RowWindows``: its methods called directly, without the Engine's Python layer)."""
    n = len(data)
    buf = np.ascontiguousarray(data, dtype=np.float64 if data.dtype.kind == "f" else np.int64)
    start = time.process_time()
    windows = _core.RowWindows(buf, array("q", [0]), array("q", [n]), 1)
    built = time.process_time()
    rng = random.Random(seed)
    best_in_row, pop_left, pop_right = windows.best_in_row, windows.pop_left, windows.pop_right
    end_blocks, random_draw = windows.end_blocks, rng.random
    ours = True
    for _ in range(n):
        if ours:
            from_left = best_in_row(0)
        elif opponent == "random":
            from_left = random_draw() < 0.5
        else:
            left, right = end_blocks(0)
            from_left = left >= right
        if from_left:
            pop_left(0)
        else:
            pop_right(0)
        ours = not ours
    return built - start, time.process_time() - built


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=10**6)
    parser.add_argument("--queries", type=int, default=2 * 10**5)
    parser.add_argument("--kinds", default="uniform,ties,walk,valley,peak,spine,float")
    args = parser.parse_args()
    n = args.n
    data = rows(n)
    kinds = args.kinds.split(",")
    print(f"coinsrow {coinsrow.__version__}, n = {n}")

    print("\n== Engine: a whole game, the engine moving first ==")
    print(f"{'kind':8s} {'build s':>8s} | {'opponent':9s} {'API us/move':>12s} "
          f"{'structure us/move':>18s}")
    for kind in kinds:
        for name in ("random", "adversary"):
            build, play = kernel_game(data[kind], name, 12345)
            api = python_game(data[kind], name, 7)
            print(f"{kind:8s} {build:8.2f} | {name:9s} {api / n * 1e6:12.2f} "
                  f"{play / n * 1e6:18.3f}")

    print("\n== Engine: many rows (one shared tree), engine first vs random ==")
    for n_rows in (10, 1000):
        length = n // n_rows
        flat = data["uniform"][: n_rows * length].reshape(n_rows, length)
        engine = Engine(coinsrow.Game(rows=list(flat)))
        r = random.Random(4)
        ours = True
        start = time.process_time()
        starts, stops, bases, coins = engine._starts, engine._stops, engine._bases, engine._data
        while len(engine):
            if ours:
                engine.take(engine.best_move())
            else:  # a random end of a random non-empty row
                c = r.randrange(n_rows)
                while starts[c] == stops[c]:
                    c = (c + 1) % n_rows
                end = "left" if r.random() < 0.5 else "right"
                p = starts[c] if end == "left" else stops[c] - 1
                engine.take(coinsrow.Move("row", c, end, p - bases[c], coins[p]))
            ours = not ours
        seconds = time.process_time() - start
        print(f"{n_rows:5d} rows of {length}: {seconds / (n_rows * length) * 1e6:.2f} us/move "
              f"(API, both sides)")

    print("\n== Engine: rows and stacks, engine first vs random ==")
    for n_rows, n_stacks in ((10, 10), (0, 100)):
        k = n_rows + n_stacks
        length = n // k
        flat = data["uniform"][: k * length].reshape(k, length)
        game = coinsrow.Game(rows=list(flat[:n_rows]), stacks=list(flat[n_rows:]))
        start = time.process_time()
        engine = Engine(game)
        built = time.process_time() - start
        r = random.Random(6)
        ours = True
        start = time.process_time()
        starts, stops, bases, coins = engine._starts, engine._stops, engine._bases, engine._data
        while len(engine):
            if ours:
                engine.take(engine.best_move())
            else:
                c = r.randrange(k)
                while starts[c] == stops[c]:
                    c = (c + 1) % k
                if c < n_rows:
                    end = "left" if r.random() < 0.5 else "right"
                    p = starts[c] if end == "left" else stops[c] - 1
                    engine.take(coinsrow.Move("row", c, end, p - bases[c], coins[p]))
                else:
                    p = starts[c]
                    engine.take(coinsrow.Move("stack", c - n_rows, "top", p - bases[c], coins[p]))
            ours = not ours
        seconds = time.process_time() - start
        print(f"{n_rows} rows + {n_stacks} stacks of {length}: build {built:.2f} s, "
              f"{seconds / (k * length) * 1e6:.2f} us/move (API, both sides)")

    print("\n== Engine: exact numbers (the structure on Python numbers) ==")
    m = min(n, 10**5)
    big = [int(x) * 2**64 + 1 for x in data["uniform"][:m]]
    start = time.process_time()
    engine = Engine(big)
    built = time.process_time() - start
    r = random.Random(8)
    ours = True
    start = time.process_time()
    while len(engine):
        engine.take(engine.best_move() if ours else ("left" if r.random() < 0.5 else "right"))
        ours = not ours
    seconds = time.process_time() - start
    print(f"{m} big ints: build {built:.2f} s, {seconds / m * 1e6:.1f} us/move")

    print("\n== pizza ==")
    for kind in kinds:
        buf = np.ascontiguousarray(data[kind])
        start = time.process_time()
        result = pizza(buf)
        seconds = time.process_time() - start
        print(f"{kind:8s} {seconds:6.2f} s total, {seconds / n * 1e6:6.2f} us/shift, "
              f"first slice {result.first_slice}")

    print(f"\n== Intervals: {args.queries} random queries ==")
    rng = np.random.default_rng(5)
    starts = rng.integers(0, n + 1, args.queries)
    stops = np.minimum(n, starts + rng.integers(0, n + 1, args.queries))
    for kind in kinds:
        start = time.process_time()
        iv = Intervals(data[kind])
        built = time.process_time() - start
        start = time.process_time()
        iv.values(starts, stops)
        seconds = time.process_time() - start
        print(f"{kind:8s} build {built:6.2f} s, {seconds / args.queries * 1e6:9.2f} us/query")

    print("\n== side by side at a small size ==")
    small = 20000
    row = data["uniform"][:small].tolist()
    start = time.process_time()
    engine = Engine(row)
    ours = True
    r = random.Random(3)
    while len(engine):
        engine.take(engine.best_move() if ours else ("left" if r.random() < 0.5 else "right"))
        ours = not ours
    t_engine = time.process_time() - start
    start = time.process_time()
    i, j = 0, small
    ours = True
    while i < j:  # re-solve each position: the engine's job without the window structure
        if ours:
            end = coinsrow.best_move(row[i:j])
        else:
            end = "left" if r.random() < 0.5 else "right"
        i, j = (i + 1, j) if end == "left" else (i, j - 1)
        ours = not ours
    t_resolve = time.process_time() - start
    print(f"game of {small} coins vs random: Engine {t_engine:.3f} s, re-solving every "
          f"position {t_resolve:.2f} s ({t_resolve / t_engine:.0f}x)")
    small = 2000
    circle = data["uniform"][:small].tolist()
    start = time.process_time()
    pizza(circle)
    t_pizza = time.process_time() - start
    start = time.process_time()
    max(circle[i] - coinsrow.value(circle[i + 1:] + circle[:i]) for i in range(small))
    t_naive = time.process_time() - start
    print(f"pizza of {small} slices: window {t_pizza * 1e3:.1f} ms, naive n row solves "
          f"{t_naive * 1e3:.0f} ms ({t_naive / t_pizza:.0f}x)")


if __name__ == "__main__":
    main()
