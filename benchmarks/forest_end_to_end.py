"""Forests and many components end to end: building the game, its value, an Engine and its
first moves, each against the same coins in the shape they are simplest in.

    python benchmarks/forest_end_to_end.py [--n 1000000] [--repeat 5] [--components 100000]

Every figure is a ratio of two medians of ``--repeat`` CPU-time timings taken in turn in one
process (``components_bench.medians``; the machine is shared: compare the ratios, not the
seconds):

- built from NumPy arrays then ``value()``: a random recursive forest and a star (a root and
  n - 1 leaves) against ``Game(rows=[coins]).value()`` on the same coins, and a path against
  the same coins as one stack (``Game(stacks=[coins])``, the path's root on top);
- the random forest built from Python lists against the NumPy build + ``value()``;
- ``Engine`` of the random forest plus its first ``moves()`` against the Game's build +
  ``value()``; a move along the optimal line (``take(best_move())``) of the forest's Engine
  against one of a row Engine's on the same coins;
- ``--components`` rows and stacks (half each, n coins in all) built then ``profits()``,
  from NumPy arrays and from Python lists, against the plain C loop of the paper's pseudocode
  on the same coins as one row (``plain_c.PlainC``: needs a C compiler).
"""

from __future__ import annotations

import os

# NumPy's BLAS threads spin after each call: on a busy machine they only add noise here.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from components_bench import medians  # noqa: E402
from plain_c import PlainC  # noqa: E402

import coinsrow  # noqa: E402


def shapes(n: int, seed: int) -> dict[str, np.ndarray]:
    """Parent arrays of n nodes, every parent before its children."""
    rng = np.random.default_rng(seed)
    random_tree = np.concatenate([[-1], (rng.random(n - 1) * np.arange(1, n)).astype(np.int64)])
    return {
        "random": random_tree,
        "star": np.concatenate([[-1], np.zeros(n - 1, dtype=np.int64)]),
        "path": np.arange(-1, n - 1, dtype=np.int64),
    }


def line_moves(engine: coinsrow.Engine, moves: int) -> None:
    for _ in range(moves):
        engine.take(engine.best_move())


def report(label: str, numerator: float, denominator: float, goal: str) -> None:
    print(f"  {label:62s} {numerator * 1e3:9.1f} ms / {denominator * 1e3:8.1f} ms"
          f" = {numerator / denominator:6.2f}x   (goal {goal})")


def forests(n: int, repeat: int) -> None:
    coins = np.random.default_rng(1).integers(0, 1000, n, dtype=np.int64)
    parents = shapes(n, 2)
    print(f"\n{n:,} nodes (coins 0..999), medians of {repeat}:")
    tasks: dict[str, Callable[[], object]] = {
        "row value": lambda: coinsrow.Game(rows=[coins]).value(),
        "stack value": lambda: coinsrow.Game(stacks=[coins]).value(),
    }
    for shape, parent in parents.items():
        tasks[shape] = (lambda p=parent: coinsrow.Game(forest=(coins, p)).value())
    values, parent_list = coins.tolist(), parents["random"].tolist()
    tasks["random from lists"] = lambda: coinsrow.Game(forest=(values, parent_list))
    game = coinsrow.Game(forest=(coins, parents["random"]))
    tasks["random Engine + moves()"] = lambda: coinsrow.Engine(game).moves()
    t = medians(tasks, repeat)
    report("random forest build + value / row value", t["random"], t["row value"], "<= 12x")
    report("star build + value / row value", t["star"], t["row value"], "<= 4x")
    report("path build + value / the coins as one stack", t["path"], t["stack value"],
           "<= 2x")
    report("random forest from lists, build / NumPy build + value", t["random from lists"],
           t["random"], "<= 2x")
    report("Engine + first moves() / build + value", t["random Engine + moves()"],
           t["random"], "<= 2x")
    # Each timing plays the first moves of an Engine built (and asked its moves) beforehand.
    moves = min(n // 2, 20_000)
    row_game = coinsrow.Game(rows=[coins])
    fresh = {"forest": [coinsrow.Engine(game) for _ in range(repeat)],
             "row": [coinsrow.Engine(row_game) for _ in range(repeat)]}
    for engine in fresh["forest"] + fresh["row"]:
        engine.moves()
    t = medians({"forest": lambda: line_moves(fresh["forest"].pop(), moves),
                 "row": lambda: line_moves(fresh["row"].pop(), moves)}, repeat)
    report(f"a move along the optimal line, forest / row (the first {moves:,})",
           t["forest"], t["row"], "<= 3x, aim 2x")


def components(n: int, k: int, repeat: int) -> None:
    plain = PlainC()
    if plain.lib is None:
        print(f"\ncomponents: skipped, no plain C baseline ({plain.why})")
        return
    coins = np.random.default_rng(3).integers(0, 1000, n, dtype=np.int64)
    parts = np.array_split(coins, k)
    rows, stacks = parts[: k // 2], parts[k // 2:]
    row_lists, stack_lists = [p.tolist() for p in rows], [p.tolist() for p in stacks]
    print(f"\n{k:,} components (half rows, half stacks), {n:,} coins, medians of {repeat}:")
    t = medians({
        "plain C": lambda: plain.value(coins),
        "NumPy": lambda: coinsrow.Game(rows=rows, stacks=stacks).profits(),
        "lists": lambda: coinsrow.Game(rows=row_lists, stacks=stack_lists).profits(),
    }, repeat)
    report("from NumPy arrays, build + profits() / plain C loop", t["NumPy"], t["plain C"],
           "<= 3x")
    report("from Python lists, build + profits() / plain C loop", t["lists"], t["plain C"],
           "<= 4x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10**6)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--components", type=int, default=10**5)
    args = parser.parse_args()
    print(f"coinsrow {coinsrow.__version__}, Python {sys.version.split()[0]}")
    forests(args.n, args.repeat)
    components(args.n, args.components, args.repeat)


if __name__ == "__main__":
    main()
