"""Rooted forests of 10^6 nodes against the same coins as one row and as one stack.

    python benchmarks/forest_bench.py [--n 1000000] [--repeat 5] [--play]

For each forest shape (a random recursive tree, one path, a star, a caterpillar: a path of
n/2 nodes with one leaf on each), times ``Game(forest=...).value()`` on a game built
beforehand (construction and validation not timed), next to ``Game(rows=[coins]).value()``
and ``Game(stacks=[coins]).value()`` on the same n coins, and prints the ratios. Node i of
each shape holds coin i, so the path holds the stack's coins top first. Each shape is
measured twice: with its nodes numbered as generated (every parent before its children) and
relabelled at random (parents anywhere). ``--play`` adds the whole optimal line
(``best_move()`` of a fresh game: the play kernel) against a row's.

Every timing is the median CPU time of ``--repeat`` runs, the row, the stack and the forest
interleaved in one process (the machine is shared: compare the ratios, not the seconds).
Needs NumPy (to build the inputs).
"""

from __future__ import annotations

import os

# NumPy's BLAS threads spin after each call: on a busy machine they only add noise here.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import statistics
import sys
import time
from collections.abc import Callable

import numpy as np

# Run from a checkout: benchmark the in-place build of this worktree.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))

from coinsrow import Game


def shapes(n: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
    """The parent arrays of the four shapes, every parent numbered before its children."""
    index = np.arange(n, dtype=np.int64)
    random_tree = (rng.random(n) * index).astype(np.int64)  # uniform in [0, i)
    random_tree[0] = -1
    path = index - 1
    star = np.zeros(n, dtype=np.int64)
    star[0] = -1
    spine = n // 2
    caterpillar = np.where(index < spine, index - 1, index - spine)
    caterpillar[0] = -1
    return {"random": random_tree, "path": path, "star": star, "caterpillar": caterpillar}


def relabelled(values: np.ndarray, parents: np.ndarray,
               rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """The same forest with its nodes renumbered by a random permutation."""
    label = rng.permutation(len(values))
    new_parents = np.empty_like(parents)
    new_parents[label] = np.where(parents < 0, -1, label[np.maximum(parents, 0)])
    new_values = np.empty_like(values)
    new_values[label] = values
    return new_values, new_parents


def cpu_time(make: Callable[[], Game], method: str) -> float:
    """CPU seconds of one call of ``method`` on a game built (untimed) by ``make``."""
    game = make()
    start = time.process_time()
    getattr(game, method)()
    return time.process_time() - start


def compare(repeat: int, method: str,
            contenders: dict[str, Callable[[], Game]]) -> dict[str, float]:
    """Median CPU time of ``method`` for each contender, the contenders interleaved."""
    times: dict[str, list[float]] = {name: [] for name in contenders}
    for _ in range(repeat):
        for name, make in contenders.items():
            times[name].append(cpu_time(make, method))
    return {name: statistics.median(runs) for name, runs in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--play", action="store_true", help="also time the optimal line")
    args = parser.parse_args()
    n, repeat = args.n, args.repeat
    rng = np.random.default_rng(1)
    values = rng.integers(-10**9, 10**9, n)
    print(f"n = {n:,} int64 coins in [-1e9, 1e9), median CPU time of {repeat}")
    methods = ["value"] + (["best_move"] if args.play else [])
    for method in methods:
        print(f"\n{method}():")
        print(f"{'forest':28} {'forest':>9} {'row':>9} {'stack':>9} {'/row':>7} {'/stack':>7}")
        for name, parents in shapes(n, rng).items():
            for labels in ("as generated", "relabelled"):
                forest_values, forest_parents = values, parents
                if labels == "relabelled":
                    forest_values, forest_parents = relabelled(values, parents, rng)
                times = compare(repeat, method, {
                    "row": lambda: Game(rows=[values]),
                    "stack": lambda: Game(stacks=[values]),
                    "forest": lambda v=forest_values, p=forest_parents: Game(forest=(v, p)),
                })
                if method == "value" and name == "path":
                    stack = Game(stacks=[values]).value()
                    path = Game(forest=(forest_values, forest_parents)).value()
                    assert path == stack, (path, stack)
                forest, row, stack_time = times["forest"], times["row"], times["stack"]
                print(f"{name + ', ' + labels:28} {forest * 1e3:7.1f}ms {row * 1e3:7.1f}ms "
                      f"{stack_time * 1e3:7.1f}ms {forest / row:6.1f}x "
                      f"{forest / stack_time:6.1f}x", flush=True)


if __name__ == "__main__":
    main()
