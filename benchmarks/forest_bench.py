"""Rooted forests of 10^6 nodes against stacks of as many coins.

    python benchmarks/forest_bench.py [--n 1000000] [--repeat 3]

For each forest shape, times ``Game(forest=...)`` construction (validation included), then
``.value()``, ``.best_move()`` (the whole optimal line computed by the kernel) and ``.play()``
(that line as a list of ``Move`` objects), each on a fresh game, construction time subtracted;
next to ``Game(stacks=...)`` on the same number of coins (1000 stacks of n/1000, and one stack
of n), measured in one process, best CPU time of ``--repeat``. Needs NumPy (to build the inputs).
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

# Run from a checkout: benchmark the in-place build of this worktree.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))

from coinsrow import Game  # noqa: E402


def random_tree(n: int, rng: np.random.Generator) -> np.ndarray:
    parents = (rng.random(n) * np.arange(n)).astype(np.int64)  # uniform in [0, i)
    parents[0] = -1
    return parents


def shapes(n: int, values: np.ndarray,
           rng: np.random.Generator) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """``(values, parents)`` of n nodes, relabelled at random (parents after children too).

    Node i of the unlabelled shape holds ``values[i]``: the paths hold the stacks' coins.
    """
    index = np.arange(n)
    random_parents = random_tree(n, rng)
    path = index - 1
    star = np.zeros(n, dtype=np.int64)
    star[0] = -1
    spine = n // 2  # caterpillar: a path of n/2 nodes, one leaf on each
    caterpillar = np.where(index < spine, index - 1, index - spine)
    caterpillar[0] = -1
    many_paths = np.where(index % 1000 == 0, -1, index - 1)  # 1000 paths: as the stacks
    result = {}
    for name, parents in (("random recursive tree", random_parents), ("one path", path),
                          ("star", star), ("caterpillar", caterpillar),
                          ("1000 paths", many_paths)):
        label = rng.permutation(n)
        relabelled = np.empty(n, dtype=np.int64)
        relabelled[label] = np.where(parents < 0, -1, label[np.maximum(parents, 0)])
        moved = np.empty_like(values)
        moved[label] = values
        result[name] = (moved, relabelled)
    return result


def best_of(repeat: int, function) -> float:
    """Best CPU time of ``repeat`` runs: on a shared machine, less noisy than wall time."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        function()
        best = min(best, time.process_time() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    n, repeat = args.n, args.repeat
    rng = np.random.default_rng(1)
    values = rng.integers(-10**6, 10**6, n)
    print(f"n = {n:,} coins, int64 values in [-1e6, 1e6), best of {repeat}, CPU seconds")
    print(f"{'position':40} {'build':>7} {'value':>7} {'line':>7} {'play':>7}")

    def row(name: str, make) -> object:
        game = make()
        build = best_of(repeat, make)
        value = best_of(repeat, lambda: make().value()) - build
        line = best_of(repeat, lambda: make().best_move()) - build
        play = best_of(repeat, lambda: make().play()) - build
        print(f"{name:40} {build:7.3f} {value:7.3f} {line:7.3f} {play:7.3f}"
              f"   value {game.value()}")
        return game.value()

    stacks = [values[i:i + n // 1000] for i in range(0, n, n // 1000)]
    expected = {"1000 paths": row("stacks: 1000 x n/1000", lambda: Game(stacks=stacks)),
                "one path": row("stacks: one of n", lambda: Game(stacks=[values]))}
    forests = shapes(n, values, rng)
    for name, (vals, parents) in forests.items():
        result = row(f"forest: {name}", lambda v=vals, p=parents: Game(forest=(v, p)))
        if name in expected and result != expected[name]:
            raise AssertionError(f"{name}: {result} != stacks' {expected[name]}")
    floats, parents = forests["random recursive tree"]
    floats = floats.astype(np.float64)
    row("forest: random tree, float64", lambda: Game(forest=(floats, parents)))
    small = n // 10
    big = [int(x) << 62 for x in values[:small]]
    small_tree = random_tree(small, rng)
    row("forest: random tree, n/10 int64", lambda: Game(forest=(values[:small], small_tree)))
    row("forest: random tree, n/10 ints > int64", lambda: Game(forest=(big, small_tree)))


if __name__ == "__main__":
    main()
