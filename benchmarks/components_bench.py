"""Games of many components: building them, and playing them move by move.

    python benchmarks/components_bench.py [--components 100000] [--repeat 5]

Run from the repository root after ``python setup.py build_ext --inplace`` (it imports the
in-place build of the checkout it lives in). Needs NumPy and a C compiler; pyarrow for the
Arrow inputs (skipped without it).

1. The layout of the PA 2010 contest problem: 10^6 coins in 10^5 components (half rows, half
   stacks, 10 coins each, random int64 in [0, 10^9)). ``Game(rows=..., stacks=...)`` plus
   ``profits()``, from NumPy arrays, from Python lists and from pyarrow ListArrays, as a ratio
   to the plain C loop of the paper's pseudocode (``plain_loop.c``, ``cc -O2``, as
   ``benchmarks/run.py`` builds it) on the same 10^6 coins as one row.
2. Scaling of a whole game played move by move on stacks of 10 coins, 400 and 2000 stacks:
   a self-play through ``best_move()``/``take()``, and ``simulate(game, "greedy",
   "optimal")``. O(n log k) gives a ratio of about 5.5 for 5 times the coins.

The machine may be shared: times are CPU times of this process (``time.process_time``: the
code is single-threaded, so the time it waits for a core is not counted), each the median of
``--repeat`` runs, the inputs and sizes being compared timed interleaved in one process. Read
the ratios.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import coinsrow

sys.path.insert(0, str(Path(__file__).resolve().parent))
from plain_c import PlainC

COINS_PER_COMPONENT = 10


def plain_c() -> Callable[[np.ndarray], int]:
    """The plain C loop (``plain_c.PlainC``): exits without a C compiler."""
    plain = PlainC()
    if plain.lib is None:
        sys.exit(f"components_bench: needs the plain C baseline ({plain.why})")
    return plain.value


def medians(tasks: dict[str, Callable[[], object]], repeat: int) -> dict[str, float]:
    """Median CPU time of each task, the tasks run interleaved ``repeat`` times."""
    times: dict[str, list[float]] = {name: [] for name in tasks}
    for _ in range(repeat):
        for name, task in tasks.items():
            start = time.process_time()
            task()
            times[name].append(time.process_time() - start)
    return {name: statistics.median(ts) for name, ts in times.items()}


def contest_layout(n_components: int, repeat: int) -> None:
    rng = np.random.default_rng(2010)
    n = n_components * COINS_PER_COMPONENT
    flat = rng.integers(0, 10**9, n, dtype=np.int64)
    arrays = np.split(flat, n_components)
    half = n_components // 2
    rows, stacks = [a.copy() for a in arrays[:half]], [a.copy() for a in arrays[half:]]
    row_lists, stack_lists = [r.tolist() for r in rows], [s.tolist() for s in stacks]
    plain = plain_c()
    expected = coinsrow.Game(rows=rows, stacks=stacks).profits()
    tasks: dict[str, Callable[[], object]] = {
        "plain C loop, one row": lambda: plain(flat),
        "NumPy int64 arrays": lambda: coinsrow.Game(rows=rows, stacks=stacks).profits(),
        "Python lists of ints": lambda: coinsrow.Game(rows=row_lists,
                                                      stacks=stack_lists).profits(),
    }
    float_rows = [r.astype(np.float64) for r in rows]
    float_stacks = [s.astype(np.float64) for s in stacks]
    tasks["NumPy float64 arrays"] = lambda: coinsrow.Game(rows=float_rows,
                                                          stacks=float_stacks).profits()
    try:
        import pyarrow as pa
    except ImportError:
        pa = None
    if pa is not None:
        size = COINS_PER_COMPONENT
        offsets = np.arange(0, half * size + 1, size, dtype=np.int32)
        arrow_rows = pa.ListArray.from_arrays(pa.array(offsets), pa.array(flat[:half * size]))
        arrow_stacks = pa.ListArray.from_arrays(pa.array(offsets),
                                                pa.array(flat[half * size:]))
        try:
            arrow_ok = coinsrow.Game(rows=arrow_rows, stacks=arrow_stacks).profits() == expected
        except (TypeError, ValueError) as error:
            print(f"  pyarrow ListArray input refused: {error}")
            arrow_ok = False
        if arrow_ok:
            tasks["pyarrow ListArrays"] = lambda: coinsrow.Game(
                rows=arrow_rows, stacks=arrow_stacks).profits()
            only_rows = pa.ListArray.from_arrays(
                pa.array(np.arange(0, n + 1, size, dtype=np.int32)), pa.array(flat))
            tasks["pyarrow ListArray, rows only"] = lambda: coinsrow.Game(
                rows=only_rows).profits()
    for name, task in tasks.items():  # every input gives the same answer
        if name.startswith(("NumPy int64", "Python", "pyarrow ListArrays")):
            assert task() == expected, name
    times = medians(tasks, repeat)
    base = times["plain C loop, one row"]
    print(f"\n1. PA 2010 layout: {n:,} coins in {n_components:,} components "
          f"({half:,} rows, {n_components - half:,} stacks of {COINS_PER_COMPONENT}); "
          f"Game(...) + profits(), median of {repeat}")
    for name, t in times.items():
        print(f"  {name:30s} {t * 1e3:9.1f} ms   {t / base:7.1f}x the plain C loop")


def stacks_game(k: int, seed: int) -> list[list[int]]:
    rng = np.random.default_rng(seed)
    return rng.integers(-1000, 1000, (k, COINS_PER_COMPONENT)).tolist()


def self_play(game: coinsrow.Game) -> int:
    """A whole optimal self-play through ``best_move()`` and ``take()``: the moves played."""
    moves = 0
    while len(game):
        game = game.take(game.best_move())
        moves += 1
    return moves


def greedy_against_optimal(game: coinsrow.Game) -> int:
    return len(coinsrow.simulate(game, "greedy", "optimal").moves)


def scaling(repeat: int) -> None:
    small, large = 400, 2000
    stacks = {k: stacks_game(k, k) for k in (small, large)}
    print(f"\n2. Whole games move by move on stacks of {COINS_PER_COMPONENT} coins, "
          f"{small} and {large} stacks (5x the coins), median of {repeat}")
    for label, play in (("self-play best_move()/take()", self_play),
                        ("simulate(greedy, optimal)", greedy_against_optimal)):
        # A fresh Game for every run, built before the timing: its optimal line is computed
        # inside it.
        fresh = {k: iter([coinsrow.Game(stacks=s) for _ in range(repeat)])
                 for k, s in stacks.items()}
        times = medians({str(k): (lambda k=k, play=play, fresh=fresh: play(next(fresh[k])))
                         for k in stacks}, repeat)
        for k, s in stacks.items():
            assert play(coinsrow.Game(stacks=s)) == k * COINS_PER_COMPONENT
        t_small, t_large = times[str(small)], times[str(large)]
        print(f"  {label:30s} {small} stacks {t_small * 1e3:8.1f} ms   {large} stacks "
              f"{t_large * 1e3:8.1f} ms   ratio {t_large / t_small:5.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--components", type=int, default=10**5)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(f"coinsrow {coinsrow.__version__} from {Path(coinsrow.__file__).parent}, "
          f"Python {platform.python_version()}, NumPy {np.__version__}")
    contest_layout(args.components, args.repeat)
    scaling(args.repeat)


if __name__ == "__main__":
    main()
