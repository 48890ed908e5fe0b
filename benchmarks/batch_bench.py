"""Speed of values_many / profits_many against one thread and against a loop over value().

    python benchmarks/batch_bench.py [--games 1000000] [--min-coins 10] [--max-coins 100]
                                     [--repeat 3] [--threads 2]

Random integer games (coins 0..999, lengths uniform in [min, max]) as one flat NumPy int64
buffer with Arrow offsets (read without a copy) and as a list of Python lists. Each timing is
the best of ``--repeat`` rounds (the variants take turns within a round); all run side by side
in this process, so that their ratios mean something on a shared, noisy machine even where the
absolute times do not. The loop over value() runs once. "cores used" is the process's CPU time
over the wall time of that run: on an idle machine about 1 for one thread and about the thread
count for the kernels; much less means other processes had the cores.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import coinsrow


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10**6)
    parser.add_argument("--min-coins", type=int, default=10)
    parser.add_argument("--max-coins", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=12)
    args = parser.parse_args()

    rng = np.random.default_rng(args.seed)
    lengths = rng.integers(args.min_coins, args.max_coins + 1, size=args.games)
    offsets = np.zeros(args.games + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    flat = rng.integers(0, 1000, size=int(offsets[-1]), dtype=np.int64)
    rows = [flat[offsets[i]:offsets[i + 1]].tolist() for i in range(args.games)]
    print(f"{args.games} games, {flat.size} coins ({args.min_coins}..{args.max_coins} per game), "
          f"cpu_count={os.cpu_count()}, threads={args.threads}, best of {args.repeat}")

    timings = {}
    cores_used = {}  # process CPU time / wall time of the best run: < threads on a busy machine
    start, cpu_start = time.perf_counter(), time.process_time()
    expected = [coinsrow.value(row) for row in rows]
    timings["loop value(list)"] = time.perf_counter() - start
    cores_used["loop value(list)"] = (time.process_time() - cpu_start) / timings["loop value(list)"]
    expected_profits = [coinsrow.profits(row) for row in rows[:1000]]
    n = args.threads
    calls = {
        "values_many(flat, offsets, threads=1)":
            lambda: coinsrow.values_many(flat, offsets, threads=1),
        f"values_many(flat, offsets, threads={n})":
            lambda: coinsrow.values_many(flat, offsets, threads=n),
        "values_many(lists, threads=1)": lambda: coinsrow.values_many(rows, threads=1),
        f"values_many(lists, threads={n})": lambda: coinsrow.values_many(rows, threads=n),
        "profits_many(flat, offsets, threads=1)":
            lambda: coinsrow.profits_many(flat, offsets, threads=1),
        f"profits_many(flat, offsets, threads={n})":
            lambda: coinsrow.profits_many(flat, offsets, threads=n),
    }
    # Round robin: a burst of load from the machine's other users hits every variant alike.
    for _ in range(args.repeat):
        for label, call in calls.items():
            start, cpu_start = time.perf_counter(), time.process_time()
            result = call()
            seconds = time.perf_counter() - start
            if seconds < timings.get(label, float("inf")):
                timings[label] = seconds
                cores_used[label] = (time.process_time() - cpu_start) / seconds
            if label.startswith("values"):
                assert result == expected, label
            else:
                assert result[:1000] == expected_profits, label
            del result

    loop = timings["loop value(list)"]
    one = timings["values_many(flat, offsets, threads=1)"]
    width = max(map(len, timings))
    for label, seconds in timings.items():
        print(f"{label:<{width}}  {seconds:8.3f} s  {loop / seconds:7.1f}x loop  "
              f"{one / seconds:5.2f}x one thread  {cores_used[label]:4.2f} cores used")


if __name__ == "__main__":
    main()
