"""Benchmark of sub-row values: ``Intervals(row).value(start, stop)`` on every row family.

    python benchmarks/subrows_bench.py                      # n = 10^6, 2*10^4 queries
    python benchmarks/subrows_bench.py --n 100000           # quicker
    python benchmarks/subrows_bench.py --baseline DIR       # and another checkout, side by side

Run from the repository root after ``python setup.py build_ext --inplace``. For each row
family it builds ``Intervals`` on n int64 coins (CPU seconds of the build; the structure's
memory in bytes per coin, its pair tables and checkpoints), then answers random queries with
``Intervals.values``: ``random`` are uniform pairs start <= stop over 0..n (the goal's
measure; ``value()`` times the same queries one ``Intervals.value`` call each, from a Python
loop), ``wide`` have start in the first and stop in the last 1% of the row (the longest
sub-rows, the slowest for a merge of the two sides). The last family, a triangle wave, is
the pattern the worst-case bounds are written for (docs/subrows.md), not one of the goal's
families. Times are CPU seconds of this process
(``time.process_time``: the work done, not the wait on a shared machine), the best of
``--repeat`` runs, printed in microseconds per query.

With ``--baseline DIR`` every measurement is also made with the coinsrow built in place in
the checkout DIR (in a child process, family by family, right after this one), and the
answers of the two are compared (a checksum of all of them).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

FAMILIES = ("valley", "vplateau", "nestedv", "peak", "ascending", "alternating", "random",
            "sawtooth", "triangle")

DESCRIPTIONS = {
    "valley": "V with noise: |k - n/2| * 3 + uniform(-4, 4)",
    "vplateau": "V of plateaus: |k - n/2| // w, w in 1..4",
    "nestedv": "nested V: |k - n/2| * 10 + |k % p - p/2| * 3, p in 3..7",
    "peak": "peak: 10^7 - |k - n/2| * 3 + uniform(0, 2)",
    "ascending": "ascending: sorted uniform(-10^6, 10^6)",
    "alternating": "alternating: (1000 if k odd else 0) + uniform(0, 10)",
    "random": "random: uniform(-10^6, 10^6)",
    "sawtooth": "sawtooth: (k % p) * 5 + uniform(0, 1), p in 2..6",
    "triangle": "triangle wave, arms of sqrt(n) coins: |k % 2s - s| * 8 + uniform(-3, 3)",
}


def family(name: str, n: int, seed: int) -> np.ndarray:
    """The row of one family (int64), the same for a given seed."""
    rng = np.random.default_rng([seed, FAMILIES.index(name)])
    k = np.arange(n, dtype=np.int64)
    m = n // 2
    if name == "valley":
        return np.abs(k - m) * 3 + rng.integers(-4, 5, n)
    if name == "vplateau":
        return np.abs(k - m) // int(rng.integers(1, 5))
    if name == "nestedv":
        p = int(rng.integers(3, 8))
        return np.abs(k - m) * 10 + np.abs(k % p - p // 2) * 3
    if name == "peak":
        return 10**7 - np.abs(k - m) * 3 + rng.integers(0, 3, n)
    if name == "ascending":
        return np.sort(rng.integers(-10**6, 10**6 + 1, n))
    if name == "alternating":
        return np.where(k % 2 == 1, 1000, 0) + rng.integers(0, 11, n)
    if name == "random":
        return rng.integers(-10**6, 10**6 + 1, n)
    if name == "sawtooth":
        p = int(rng.integers(2, 7))
        return (k % p) * 5 + rng.integers(0, 2, n)
    if name == "triangle":  # every descending arm interleaves with every later ascending arm
        s = max(1, int(np.sqrt(n)))
        return np.abs(k % (2 * s) - s) * 8 + rng.integers(-3, 4, n)
    raise ValueError(name)


def queries(kind: str, n: int, count: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng([seed, 99, len(kind)])
    if kind == "random":
        a = rng.integers(0, n + 1, count)
        b = rng.integers(0, n + 1, count)
        return np.minimum(a, b), np.maximum(a, b)
    edge = max(1, n // 100)
    return rng.integers(0, edge, count), n - rng.integers(0, edge, count)


def measure(name: str, n: int, count: int, repeat: int, seed: int, used: int) -> dict:
    """Build and query one family with the coinsrow on sys.path: the first ``used`` of the
    ``count`` queries of each kind (the same queries whatever ``used`` is)."""
    from coinsrow import Intervals

    row = family(name, n, seed)
    start = time.process_time()
    iv = Intervals(row)
    build = time.process_time() - start
    kernel = iv._structure.kernel
    result = {"build_s": build}
    for attribute in ("memory", "table_pairs", "checkpoints", "spacing"):
        if hasattr(kernel, attribute):
            result[attribute] = getattr(kernel, attribute)
    digest = hashlib.sha256()
    for kind in ("random", "wide"):
        starts, stops = queries(kind, n, count, seed)
        starts, stops = starts[:used], stops[:used]
        best = float("inf")
        for _ in range(repeat):
            start = time.process_time()
            answers = iv.values(starts, stops)
            best = min(best, time.process_time() - start)
        digest.update(np.asarray(answers, dtype=np.int64).tobytes())
        result[kind + "_us"] = best / used * 1e6
        if kind == "random":  # one call of Intervals.value per query, from Python
            pairs = list(zip(starts.tolist(), stops.tolist()))
            one = iv.value
            start = time.process_time()
            for a, b in pairs:
                one(a, b)
            result["value_us"] = (time.process_time() - start) / used * 1e6
    result["checksum"] = digest.hexdigest()[:12]
    return result


def baseline(directory: str, name: str, n: int, count: int, repeat: int, seed: int,
             used: int) -> dict:
    env = dict(os.environ, PYTHONPATH=directory)
    env.pop("COINSROW_EXACT", None)
    out = subprocess.run(
        [sys.executable, __file__, "--worker", name, "--n", str(n), "--queries", str(count),
         "--repeat", str(repeat), "--seed", str(seed), "--used", str(used)],
        env=env, cwd=directory, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=10**6)
    parser.add_argument("--queries", type=int, default=20000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--families", default=",".join(FAMILIES))
    parser.add_argument("--baseline", help="a checkout of coinsrow built in place")
    parser.add_argument("--baseline-repeat", type=int, default=1)
    parser.add_argument("--baseline-queries", type=int,
                        help="the baseline answers only the first so many queries of each kind")
    parser.add_argument("--used", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        used = args.used or args.queries
        print(json.dumps(measure(args.worker, args.n, args.queries, args.repeat, args.seed,
                                 used)))
        return
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    names = args.families.split(",")
    print(f"Intervals on n = {args.n} int64 coins; {args.queries} queries of each kind; "
          f"best of {args.repeat}; CPU microseconds per query")
    for name in names:
        print(f"  {name:12s} {DESCRIPTIONS[name]}")
    header = (f"{'family':12s} {'build s':>8s} {'B/coin':>7s} {'tables':>6s} {'ckpts':>7s} "
              f"{'spacing':>7s} {'random':>8s} {'value()':>8s} {'wide':>8s}")
    if args.baseline:
        header += (f" | {'base build':>10s} {'base random':>11s} {'base value()':>12s} "
                   f"{'base wide':>10s} answers")
    print(header)
    for name in names:
        r = measure(name, args.n, args.queries, args.repeat, args.seed, args.queries)
        line = (f"{name:12s} {r['build_s']:8.2f} {r.get('memory', 0) / (args.n + 1):7.1f} "
                f"{r.get('table_pairs', 0):6d} {r.get('checkpoints', 0):7d} "
                f"{r.get('spacing', 0):7d} {r['random_us']:8.2f} {r['value_us']:8.2f} "
                f"{r['wide_us']:8.2f}")
        if args.baseline:
            used = min(args.baseline_queries or args.queries, args.queries)
            b = baseline(args.baseline, name, args.n, args.queries, args.baseline_repeat,
                         args.seed, used)
            if used != args.queries:  # the same queries as the baseline's, to compare
                r["checksum"] = measure(name, args.n, args.queries, 1, args.seed,
                                        used)["checksum"]
            same = "equal" if b["checksum"] == r["checksum"] else "DIFFER"
            line += (f" | {b['build_s']:10.2f} {b['random_us']:11.2f} {b['value_us']:12.2f} "
                     f"{b['wide_us']:10.2f} {same}")
        print(line, flush=True)


if __name__ == "__main__":
    main()
