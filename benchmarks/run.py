"""coinsrow benchmarks: one command, one process, one set of results.

    python benchmarks/run.py            # full run (3 to 5 minutes on 2 busy cores)
    python benchmarks/run.py --quick    # smaller sizes, under 2 minutes

Run it from the repository root after ``python setup.py build_ext --inplace`` (or with
coinsrow installed). Needs NumPy; a C compiler (``cc``/``gcc``) for the plain C baseline and
matplotlib for the plot are optional (the table says what was left out).

What it measures, on the same inputs, median of several runs, methods interleaved run by run
so that the noise of a shared machine hits them alike:

- the goals of the core and of optimal play: ``value()`` vs ``a.sum()`` vs a plain C loop of
  the paper's pseudocode on 10^7 random int64 coins; peak extra memory;
  ``Game.value()`` on 20,000 rows + 20,000 stacks vs ``value()`` on the same coins as one row;
  ``play()`` vs ``value()``; a whole self-play through ``best_move()``/``take()``;
- ``value()`` vs a pure-Python O(n) script, the O(n^2) DP (pure Python and NumPy by diagonals),
  the plain C loop and ``a.sum()`` for n = 10^2 ... 10^8 (a method is skipped at the sizes where
  its estimated time exceeds the budget; the table says so);
- every family of rows in one table (``families.py``: random, Project Euler 477, sorted,
  dealt and linear peaks and valleys, alternating, all equal, 2, 3, 5 and 10 values,
  plateaus, ties at the top, sawtooth, and the worst shapes ``shapes.py`` found): value()
  against the C loop, profits() and play() against value(), float profits, threads=None
  against one thread;
- one row of 10^8 coins on two threads (wall time), with the machine's own two-thread
  speed-up of the C loop as a calibration;
- ``Game.value()`` for k = 1 ... 10^6 components at a fixed total n (the log k term);
- peak memory per coin (tracemalloc; the kernels allocate through ``PyMem_RawMalloc``, which
  tracemalloc sees, and NumPy reports its buffers to it too);
- ``cooperative_max`` vs a pure-Python DP, when ``coinsrow`` has it.

The C loop (``plain_loop.c``'s ``plain_value``, built with ``cc -O2`` by ``plain_c.py``) is the
paper's pseudocode as a competent C programmer writes it by hand: its stack allocated once,
outside the timed calls; the incoming coin v kept in a register, fused while
``stack[m-2] <= stack[m-1] >= v`` into ``v = stack[m-2] - stack[m-1] + v; m -= 2``, then
stored once; the reduced (bitonic) row merged from both ends. No SIMD, no special cases, no
overflow checks (every benchmark row's sums stay far inside int64). The goals table also
shows the earlier baseline (``plain_value_push_first``: a malloc per call, each coin pushed
before the three top entries are tested in memory).

Output, all from this one run (stamped with its id): ``results.md`` (Markdown tables, with the
machine), ``results.json`` and ``loglog.png`` in ``benchmarks/results/`` (``--quick``:
``benchmarks/results/quick/``).
"""

from __future__ import annotations

import argparse
import datetime
import gc
import json
import os
import platform
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # the in-place build of this checkout comes first

import numpy as np  # noqa: E402

import coinsrow  # noqa: E402

if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))
import families as family_table  # noqa: E402
from plain_c import PlainC  # noqa: E402

SEED = 20240601

# ---------------------------------------------------------------------------------------------
# Timing


def median(xs: list[float]) -> float:
    s = sorted(xs)
    m = len(s) // 2
    return s[m] if len(s) % 2 else (s[m - 1] + s[m]) / 2


# CPU time of this process (user + system), not wall time: the machines these run on are
# often shared, and time spent waiting for a core is not the code's. Every method timed with
# it runs on one thread, so on an idle machine the two agree; calls on several threads are
# timed in wall time instead (``wall_compare``).
clock = time.process_time


def once(fn: Callable[[], Any]) -> float:
    gc.collect()
    t = clock()
    fn()
    return clock() - t


def batch(fn: Callable[[], Any], number: int) -> float:
    """Seconds per call of ``number`` calls in a row (warm caches, as timeit does)."""
    gc.collect()
    t = clock()
    for _ in range(number):
        fn()
    return (clock() - t) / number


def calibrate(fn: Callable[[], Any], target: float = 0.01) -> tuple[int, float]:
    """How many calls make a batch of at least ``target`` seconds, and one timing of it."""
    number = 1
    while True:
        seconds = batch(fn, number)
        if seconds * number >= target or number >= 10**6:
            return number, seconds
        number *= max(2, min(100, int(target / max(seconds * number, 1e-9)) + 1))


def compare(methods: dict[str, Callable[[], Any]], repeats: int) -> dict[str, float]:
    """Median seconds of single calls of each method, the methods taking turns call by call.

    Single calls, not batches: for the large inputs compared here (each call 0.1 ms or
    more), a batch would let ``a.sum()`` re-read an array the previous call left in the
    cache, which is not the memory-read limit it stands for.
    """
    return {name: median(ts) for name, ts in rounds(methods, repeats).items()}


def rounds(methods: dict[str, Callable[[], Any]], repeats: int) -> dict[str, list[float]]:
    """Seconds of single calls of each method in ``repeats`` rounds, one call of each
    method a round (after one warm-up call each): the times of one round were taken
    within a fraction of a second of each other, on the same state of the machine."""
    for fn in methods.values():
        fn()  # warm-up: code and allocator, not the data
    times: dict[str, list[float]] = {name: [] for name in methods}
    for _ in range(repeats):
        for name, fn in methods.items():
            times[name].append(once(fn))
    return times


def paired_ratio(times: dict[str, list[float]], num: str, den: str) -> float:
    """The median over rounds of ``num``'s time over ``den``'s in the same round: steadier
    than the ratio of the two medians on a shared machine, where another job slows a few
    rounds (measured on sawtooth rows, 10^7 coins, profits/value: 0.86x to 1.24x over three
    runs as a ratio of medians of 11; 1.00x as the median of 31 paired ratios)."""
    return median(n / d for n, d in zip(times[num], times[den]))


def compare_batches(methods: dict[str, Callable[[], Any]], repeats: int) -> dict[str, float]:
    """Median seconds per call, in batches of at least 10 ms, the methods taking turns."""
    return {name: median(ts) for name, ts in batch_rounds(methods, repeats).items()}


def batch_rounds(methods: dict[str, Callable[[], Any]],
                 repeats: int) -> dict[str, list[float]]:
    """``rounds`` with a batch of at least 10 ms of each method a round (seconds per call)."""
    numbers = {name: calibrate(fn)[0] for name, fn in methods.items()}
    times: dict[str, list[float]] = {name: [] for name in methods}
    for _ in range(repeats):
        for name, fn in methods.items():
            times[name].append(batch(fn, numbers[name]))
    return times


def adaptive(fn: Callable[[], Any], budget: float, max_repeats: int = 7) -> tuple[float, int]:
    """Median of up to ``max_repeats`` batches, fewer when one call is long (at least 3 if
    short); returns (seconds per call, batches)."""
    number, first = calibrate(fn)
    if first * number * 3 > budget:
        return first, 1
    times = [first]
    while len(times) < max_repeats and (sum(times) + first) * number < budget:
        times.append(batch(fn, number))
    while len(times) < 3:
        times.append(batch(fn, number))
    return median(times), len(times)


# ---------------------------------------------------------------------------------------------
# The methods a user would otherwise run


def python_linear(row: list) -> int:
    """The paper's pseudocode in plain Python, O(n): Fusion with a stack, then the reduced row
    (bitonic) is merged from both ends, largest first, with alternating signs."""
    sc: list = []
    push = sc.append
    for v in row:
        while len(sc) >= 2 and sc[-2] <= sc[-1] >= v:
            v = sc[-2] - sc[-1] + v
            del sc[-2:]
        push(v)
    left, right = 0, len(sc) - 1
    total, sign = 0, 1
    while left <= right:
        if sc[left] >= sc[right]:
            total += sign * sc[left]
            left += 1
        else:
            total += sign * sc[right]
            right -= 1
        sign = -sign
    return total


def python_dp(row: list) -> int:
    """The textbook O(n^2) DP, d(i, j) = max(a[i] - d(i+1, j), a[j] - d(i, j-1)), by lengths,
    in O(n) memory."""
    n = len(row)
    d = [0] * (n + 1)  # values of the sub-rows of the previous length
    for length in range(1, n + 1):
        d = [
            max(row[i] - d[i + 1], row[i + length - 1] - d[i])
            for i in range(n - length + 1)
        ]
    return d[0] if n else 0


def numpy_dp(a: np.ndarray) -> int:
    """The same DP, vectorised by diagonals (sub-rows of one length at a time)."""
    n = len(a)
    d = np.zeros(n + 1, dtype=a.dtype)
    for length in range(1, n + 1):
        d = np.maximum(a[: n - length + 1] - d[1:], a[length - 1:] - d[:-1])
    return int(d[0]) if n else 0


def python_cooperative(row: list) -> int:
    """Largest total of the first player when the second helps her: O(n^2) DP by lengths."""
    n = len(row)
    best = [0] * (n + 1)
    for length in range(1, n + 1):
        if (n - length) % 2 == 0:  # the first player moves on sub-rows of this length
            best = [
                max(row[i] + best[i + 1], row[i + length - 1] + best[i])
                for i in range(n - length + 1)
            ]
        else:
            best = [max(best[i + 1], best[i]) for i in range(n - length + 1)]
    return best[0] if n else 0


def make_input(kind: str, n: int, rng: np.random.Generator, plain: PlainC) -> np.ndarray:
    """A row of n int64 coins of one family (the families of the benchmark's table)."""
    if kind == "PE 477" and plain.lib is not None:
        return plain.pe477(n)
    return family_table.make(kind, n, rng)


FAMILIES = list(family_table.FAMILIES)


# ---------------------------------------------------------------------------------------------
# Memory


def release_kept_scratch() -> None:
    """Return the scratch buffers the kernels keep between calls to the allocator, so that the
    next call allocates its scratch afresh: without this, a call that finds an earlier call's
    buffer measures as allocating nothing (a float64 row after an int64 row: 0.00 bytes a
    coin instead of 8.00)."""
    from coinsrow import _core
    _core.scratch_release()


def peak_bytes(fn: Callable[[], Any]) -> int:
    """Peak memory allocated while ``fn`` runs, above what was allocated before (tracemalloc),
    its scratch allocated afresh (``release_kept_scratch``)."""
    gc.collect()
    release_kept_scratch()
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        before = tracemalloc.get_traced_memory()[0]
        result = fn()
        peak = tracemalloc.get_traced_memory()[1]
        del result
    finally:
        tracemalloc.stop()
    return peak - before


def peak_rss_bytes(fn: Callable[[], Any]) -> int | None:
    """The rise of the process's peak RSS (VmHWM) while ``fn`` runs, its scratch allocated
    afresh; None where unavailable."""
    release_kept_scratch()

    def hwm() -> int:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
        raise OSError

    try:
        gc.collect()
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")  # reset the peak to the current RSS
        before = hwm()
        fn()
        return hwm() - before
    except OSError:
        return None


# ---------------------------------------------------------------------------------------------
# Machine


def machine() -> dict[str, Any]:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = os.cpu_count()
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    return {
        "cpu": cpu,
        "logical cores": os.cpu_count(),
        "usable cores": usable,
        "load average at start": load,
        "python": platform.python_version(),
        "numpy": np.__version__,
        "coinsrow": coinsrow.__version__,
        "coinsrow core": os.path.basename(coinsrow._core.__file__),
        "os": platform.platform(),
    }


# ---------------------------------------------------------------------------------------------
# The report


class Report:
    def __init__(self, run_id: str) -> None:
        self.run_id = run_id
        self.lines: list[str] = []
        self.data: dict[str, Any] = {"run": run_id}

    def say(self, text: str = "") -> None:
        self.lines.append(text)
        print(text, flush=True)

    def table(self, header: list[str], rows: list[list[Any]]) -> None:
        self.say("| " + " | ".join(header) + " |")
        self.say("|" + "|".join(" --- " for _ in header) + "|")
        for row in rows:
            self.say("| " + " | ".join(str(x) for x in row) + " |")
        self.say()


def fmt_time(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds:.2f} s"


def ns_per(seconds: float, n: int) -> str:
    return f"{seconds / n * 1e9:.2f}"


# ---------------------------------------------------------------------------------------------
# Sections


def goals(rep: Report, plain: PlainC, quick: bool) -> None:
    rng = np.random.default_rng(SEED)
    rep.say("## Goals of the core and of optimal play")
    rep.say()
    results: dict[str, Any] = {}

    # value() vs a.sum() vs the plain C loop, 10^7 random int64 coins.
    n = 10**6 if quick else 10**7
    a = rng.integers(0, 10**9, n, dtype=np.int64)
    methods = {"value()": lambda: coinsrow.value(a, threads=1), "a.sum()": a.sum}
    if plain.lib is not None:
        methods["plain C loop"] = lambda: plain.value(a)
        methods["earlier C loop (malloc per call, push first)"] = \
            lambda: plain.value_push_first(a)
        assert plain.value(a) == plain.value_push_first(a) == coinsrow.value(a, threads=1)
    t = compare(methods, 5 if quick else 11)
    rows = [[name, ns_per(s, n), f"{s / t['a.sum()']:.1f}x"] for name, s in t.items()]
    rep.say(f"**value() on {n:,} random int64 coins** (uniform in [0, 10^9)), median of "
            f"{5 if quick else 11} single calls, the methods taking turns. Goal: no slower than "
            "the plain C loop of the paper's pseudocode (gcc -O2, its stack allocated once outside "
            "the timed calls, the incoming coin in a register; the earlier baseline, which "
            "allocates its stack in each call and pushes each coin before testing, below it), "
            "aim <= 12x `a.sum()`.")
    rep.say()
    rep.table(["method", "ns/coin", "time / a.sum()"], rows)
    results["value_vs_sum"] = {"n": n, "seconds": t}

    # Peak extra memory of value().
    m = 10**6
    b = rng.integers(0, 10**9, m, dtype=np.int64)
    mem_rows = []
    for label, arg in [("NumPy int64 (contiguous)", b), ("NumPy float64 (contiguous)",
                                                          b.astype(np.float64)),
                       ("NumPy int32 (converted once)", b.astype(np.int32)),
                       ("NumPy int64, strided view (copied)", np.repeat(b, 2)[::2]),
                       ("Python list of int", b.tolist())]:
        peak = peak_bytes(lambda arg=arg: coinsrow.value(arg, threads=1))
        mem_rows.append([f"value(), {label}", f"{peak / m:.2f}"])
    for label, fn in [("play(), NumPy int64", lambda: coinsrow.play(b, threads=1)),
                      ("Game(rows=[a]).value(), NumPy int64",
                       lambda: coinsrow.Game(rows=[b]).value())]:
        mem_rows.append([label, f"{peak_bytes(fn) / m:.2f}"])
    many = coinsrow.Game(rows=[b[i:i + 100] for i in range(0, m, 200)],
                         stacks=[b[i:i + 100] for i in range(100, m, 200)])
    mem_rows.append(["Game.value() on 5,000 rows + 5,000 stacks of 100 coins (built before)",
                     f"{peak_bytes(many.value) / m:.2f}"])
    sorted_b = np.sort(b)
    rss_random = peak_rss_bytes(lambda: coinsrow.value(b, threads=1))
    rss_sorted = peak_rss_bytes(lambda: coinsrow.value(sorted_b, threads=1))
    mem_rows.append(["value(), NumPy int64, sorted (nothing fuses, and nothing is written)",
                     f"{peak_bytes(lambda: coinsrow.value(sorted_b, threads=1)) / m:.2f}"])
    rep.say(f"**Peak extra memory** (tracemalloc, {m:,} random coins; the kernels allocate "
            "through PyMem_RawMalloc, which tracemalloc sees). Goal: value() on an int64 array at "
            "most one int64 (8 bytes) per coin, no copy of a contiguous int64/float64 input.")
    rep.say()
    rep.table(["call", "bytes per coin"], mem_rows)
    if rss_random is not None and rss_sorted is not None:
        rep.say(f"Cross-check by the rise of the process's peak RSS (VmHWM) during value(), "
                f"which counts only the pages of the scratch stack actually touched: "
                f"{rss_random / m:.2f} bytes/coin on the random coins (fusions keep the stack "
                f"short), {rss_sorted / m:.2f} bytes/coin on the same coins sorted.")
        rep.say()
    results["memory_bytes_per_coin"] = {r[0]: float(r[1]) for r in mem_rows}

    # Game.value() on 20,000 rows and 20,000 stacks vs value() on one row of the same coins.
    k = 2_000 if quick else 20_000
    per = 50
    coins = rng.integers(0, 10**9, 2 * k * per, dtype=np.int64)
    parts = [coins[i * per:(i + 1) * per] for i in range(2 * k)]
    rows_, stacks_ = parts[:k], parts[k:]
    build_times, value_times, row_times = [], [], []
    for _ in range(3 if quick else 5):
        g: list = []
        build_times.append(once(lambda g=g: g.append(coinsrow.Game(rows=rows_, stacks=stacks_))))
        value_times.append(once(g[0].value))  # a fresh Game: nothing cached
        row_times.append(once(lambda: coinsrow.value(coins, threads=1)))
    tb, tg, tr = median(build_times), median(value_times), median(row_times)
    assert coinsrow.Game(rows=[coins]).value() == coinsrow.value(coins)
    rep.say(f"**Game.value() with {k:,} rows and {k:,} stacks of {per} coins** "
            f"({2 * k * per:,} coins) vs value() on one row of the same coins. Goal: within 3x.")
    rep.say()
    rep.table(["call", "time", "vs value() on one row"], [
        ["value(one row)", fmt_time(tr), "1x"],
        ["Game.value() (fresh Game)", fmt_time(tg), f"{tg / tr:.2f}x"],
        ["Game(rows, stacks) construction", fmt_time(tb), f"{tb / tr:.2f}x"],
        ["construction + value()", fmt_time(tb + tg), f"{(tb + tg) / tr:.2f}x"],
    ])
    results["game_vs_row"] = {"coins": 2 * k * per, "row": tr, "game_value": tg,
                              "construction": tb}

    # play() vs value() on 10^6 random coins.
    n = 10**6
    c = rng.integers(0, 10**9, n, dtype=np.int64)
    t = compare({"value()": lambda: coinsrow.value(c, threads=1),
                 "play()": lambda: coinsrow.play(c, threads=1)},
                5 if quick else 9)
    rep.say(f"**play() vs value() on {n:,} random int64 coins.** Goal: within 5x.")
    rep.say()
    rep.table(["call", "time", "ns/coin", "vs value()"], [
        [name, fmt_time(s), ns_per(s, n), f"{s / t['value()']:.2f}x"] for name, s in t.items()])
    results["play_vs_value"] = {"n": n, "seconds": t}

    # A whole self-play through best_move()/take().
    def self_play(row: np.ndarray) -> None:
        g = coinsrow.Game(rows=[row])
        for _ in range(len(row)):
            g = g.take(g.best_move())
        assert len(g) == 0

    small, large = (2_000, 10_000) if quick else (20_000, 100_000)
    ts, tl = [], []
    rs, rl = (rng.integers(0, 10**9, x, dtype=np.int64) for x in (small, large))
    for _ in range(3):
        ts.append(once(lambda: self_play(rs)))
        tl.append(once(lambda: self_play(rl)))
    ts_, tl_ = median(ts), median(tl)
    rep.say(f"**A whole self-play through Game.best_move()/take()**, {large:,} vs {small:,} "
            f"random coins ({large // small}x the coins). Goal: at most 8x the time.")
    rep.say()
    rep.table(["coins", "time", "µs per move", "ratio"], [
        [f"{small:,}", fmt_time(ts_), f"{ts_ / small * 1e6:.1f}", "1x"],
        [f"{large:,}", fmt_time(tl_), f"{tl_ / large * 1e6:.1f}", f"{tl_ / ts_:.2f}x"],
    ])
    results["self_play"] = {"small": [small, ts_], "large": [large, tl_]}
    rep.data["goals"] = results


def scaling(rep: Report, plain: PlainC, quick: bool) -> dict[str, dict[int, float]]:
    """Time vs n on random coins, every method; skip where the estimate exceeds the budget."""
    rng = np.random.default_rng(SEED + 1)
    limit = 2.0 if quick else 60.0        # longest single run allowed
    max_exp = 6 if quick else 8
    sizes = [10**e for e in range(2, max_exp + 1)]
    # method: (function of (array, list), exponent of n in its cost)
    methods: dict[str, tuple[Callable[[np.ndarray, list], Any], float]] = {
        "coinsrow.value()": (lambda a, as_list: coinsrow.value(a, threads=1), 1.0),
    }
    if plain.lib is not None:
        methods["plain C loop (-O2)"] = (lambda a, as_list: plain.value(a), 1.0)
    methods["numpy a.sum()"] = (lambda a, as_list: a.sum(), 1.0)
    methods["pure Python O(n)"] = (lambda a, as_list: python_linear(as_list), 1.0)
    methods["DP O(n^2), NumPy by diagonals"] = (lambda a, as_list: numpy_dp(a), 2.0)
    methods["DP O(n^2), pure Python"] = (lambda a, as_list: python_dp(as_list), 2.0)
    times: dict[str, dict[int, float]] = {m: {} for m in methods}
    notes: dict[str, dict[int, str]] = {m: {} for m in methods}
    repeats: dict[str, dict[int, int]] = {m: {} for m in methods}
    for n in sizes:
        a = rng.integers(0, 10**9, n, dtype=np.int64)
        as_list = a.tolist() if n <= 10**7 else None
        expected = coinsrow.value(a, threads=1)
        for name, (fn, power) in methods.items():
            known = times[name]
            if known:
                last_n = max(known)
                estimate = known[last_n] * (n / last_n) ** power
                if estimate > limit:
                    notes[name][n] = f"skipped (est. {fmt_time(estimate)})"
                    continue
            elif name not in ("coinsrow.value()", "numpy a.sum()", "plain C loop (-O2)"):
                pass
            if as_list is None and name.startswith(("pure Python", "DP O(n^2), pure")):
                notes[name][n] = "skipped (list too large)"
                continue
            got = fn(a, as_list)
            if name != "numpy a.sum()" and got != expected:
                raise AssertionError(f"{name} gives {got}, value() gives {expected} (n={n})")
            seconds, count = adaptive(lambda fn=fn, a=a, as_list=as_list: fn(a, as_list),
                                      budget=6.0 if quick else 20.0,
                                      max_repeats=5 if quick else 7)
            times[name][n] = seconds
            repeats[name][n] = count
        del a, as_list
    rep.say("## value() against what users run today (random int64 coins in [0, 10^9))")
    rep.say()
    rep.say(f"Time per call: median of up to {5 if quick else 7} batches of calls (a batch "
            f"lasts at least 10 ms; 1 batch where a single call is long; the counts are in "
            f"results.json). A method is skipped at a size where its time, "
            f"extrapolated from the previous size (linear or quadratic), would exceed "
            f"{fmt_time(limit)} per run. Every method's result is checked against value().")
    rep.say()
    header = ["n"] + list(methods)
    rows = []
    for n in sizes:
        row = [f"10^{len(str(n)) - 1}"]
        for name in methods:
            row.append(fmt_time(times[name][n]) if n in times[name] else notes[name].get(n, "-"))
        rows.append(row)
    rep.table(header, rows)
    # The same, relative to value().
    rows = []
    for n in sizes:
        base = times["coinsrow.value()"].get(n)
        row = [f"10^{len(str(n)) - 1}"]
        for name in methods:
            s = times[name].get(n)
            row.append(f"{s / base:.3g}x" if (s is not None and base) else "-")
        rows.append(row)
    rep.say("Relative to value() (greater than 1x: slower than value()):")
    rep.say()
    rep.table(header, rows)
    rep.data["scaling"] = {"times": {m: {str(n): s for n, s in t.items()}
                                     for m, t in times.items()},
                           "repeats": {m: {str(n): c for n, c in r.items()}
                                       for m, r in repeats.items()},
                           "skipped": {m: {str(n): s for n, s in x.items()}
                                       for m, x in notes.items()}}
    return times


def wall_compare(methods: dict[str, Callable[[], Any]], repeats: int) -> dict[str, float]:
    """``compare`` in wall time (``time.perf_counter``): for calls on several threads, whose
    CPU time is the sum of the threads'."""
    return {name: median(ts) for name, ts in wall_rounds(methods, repeats).items()}


def wall_rounds(methods: dict[str, Callable[[], Any]], repeats: int) -> dict[str, list[float]]:
    """``rounds`` in wall time."""
    for fn in methods.values():
        fn()
    times: dict[str, list[float]] = {name: [] for name in methods}
    for _ in range(repeats):
        for name, fn in methods.items():
            gc.collect()
            t = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - t)
    return times


def families(rep: Report, plain: PlainC, quick: bool, kinds: list[str] = FAMILIES) -> None:
    """Every family of rows in one table: value() against the C loop, profits() and play()
    against value(), float profits, threads=None against one thread."""
    rng = np.random.default_rng(SEED + 2)
    n = 10**6 if quick else 10**7
    n_play = 10**6
    # 21 rounds, each ratio the median of the rounds' ratios (see paired_ratio): with
    # medians of 5, then of 11, a ratio still moved by up to 0.2 from one run to the next on
    # a shared two-core machine (the all-equal and sorted rows take about 5 ms a call).
    repeats = 3 if quick else 21
    rows, data = [], {}
    for kind in kinds:
        a = make_input(kind, n, rng, plain)
        want = coinsrow.value(a, threads=1)
        methods: dict[str, Callable[[], Any]] = {}
        if plain.lib is not None:
            methods["C"] = lambda a=a: plain.value(a)
            assert plain.value(a) == want, kind
        methods["value"] = lambda a=a: coinsrow.value(a, threads=1)
        methods["profits"] = lambda a=a: coinsrow.profits(a, threads=1)
        assert coinsrow.value(a, threads=2) == want and coinsrow.profits(a, threads=1)[0] * 2 \
            == int(a.sum()) + want, kind
        t = rounds(methods, repeats)
        # play() against value() at 10^6 coins (the goal's size), in batches, on a row of
        # the family made at that size (the first 10^6 coins of a peak or a valley of 10^7
        # are a sorted stretch, not the family's shape).
        b = make_input(kind, n_play, rng, plain) if n > n_play else a
        tp = batch_rounds({"value": lambda b=b: coinsrow.value(b, threads=1),
                           "play": lambda b=b: coinsrow.play(b, threads=1)}, repeats)
        # Float rows: the same coins as float64 (value and each player's exact sum).
        f = a.astype(np.float64) / 3
        tf = rounds({"value": lambda f=f: coinsrow.value(f, threads=1),
                     "profits": lambda f=f: coinsrow.profits(f, threads=1)}, repeats)
        # threads=None (as many threads as pay off: two here) against one, in wall time.
        tw = wall_rounds({"1": lambda a=a: coinsrow.value(a, threads=1),
                          "2": lambda a=a: coinsrow.value(a, threads=None)}, repeats)
        row = [kind]
        if plain.lib is not None:
            row += [ns_per(median(t["C"]), n), ns_per(median(t["value"]), n),
                    f"{paired_ratio(t, 'value', 'C'):.2f}x"]
        else:
            row += ["-", ns_per(median(t["value"]), n), "-"]
        row += [f"{paired_ratio(t, 'profits', 'value'):.2f}x",
                f"{paired_ratio(tp, 'play', 'value'):.2f}x",
                f"{paired_ratio(tf, 'profits', 'value'):.2f}x",
                f"{paired_ratio(tw, '2', '1'):.2f}x"]
        rows.append(row)
        data[kind] = {"n": n, "cpu": t, "play_vs_value": tp, "float": tf, "wall": tw}
        del a, b, f, methods  # methods holds a too: free it before the next array
    rep.say(f"## Every family of rows, {n:,} int64 coins, one thread")
    rep.say()
    rep.say(family_table.FAMILY_NOTES)
    rep.say()
    rep.say(f"CPU time of single calls in {repeats} rounds, one call of each method a round; "
            "each ratio is the median over the rounds of the two calls' ratio in a round, "
            f"each ns/coin the median call; play() vs value() in batches, on a row of the family "
            f"made with {n_play:,} coins; "
            "float: the same coins / 3 as float64; "
            "the last column in wall time (threads=None, as many threads as pay off: on two "
            "cores, the row in parts reduced at once on two threads, unless a sample of the "
            "parts finds it mostly sorted stretches). "
            "Goals: value() no slower than the plain C loop of the paper's pseudocode, "
            "profits() at most 1.1x value(), play() at most 3x value().")
    rep.say()
    rep.table(["family", "C loop ns/coin", "value() ns/coin", "value / C",
               "profits / value", "play / value", "float profits / float value",
               "threads=None / 1 (wall)"], rows)
    rep.data["families"] = data


def threads_scaling(rep: Report, plain: PlainC, quick: bool) -> None:
    """One long row on two threads, in wall time, against the single-thread C loop; the
    machine's own two-thread speed-up (the C loop on two halves at once) as a calibration,
    and the memory-read limit (a.sum())."""
    rng = np.random.default_rng(SEED + 6)
    n = 10**7 if quick else 10**8
    repeats = 3 if quick else 5
    rows, data = [], {}
    for kind in ("random", "PE 477", "ascending"):
        a = make_input(kind, n, rng, plain)
        want = coinsrow.value(a, threads=1)
        methods: dict[str, Callable[[], Any]] = {}
        if plain.lib is not None:
            methods["C"] = lambda a=a: plain.value(a)
            methods["C halves, 2 threads"] = lambda a=a: plain.halves_on_two_threads(a)
        methods["1 thread"] = lambda a=a: coinsrow.value(a, threads=1)
        methods["2 threads"] = lambda a=a: coinsrow.value(a, threads=2)
        methods["a.sum()"] = a.sum
        for k in (2, 3):
            assert coinsrow.value(a, threads=k) == want, kind
        t = wall_compare(methods, repeats)
        base = t.get("C", t["1 thread"])
        rows.append([kind, fmt_time(base), f"{t['1 thread'] / base:.2f}x",
                     f"{t['2 threads'] / base:.2f}x", f"{t['2 threads'] / t['1 thread']:.2f}x",
                     (f"{t['C halves, 2 threads'] / t['C']:.2f}x" if "C" in t else "-"),
                     f"{t['a.sum()'] / base:.3f}x"])
        data[kind] = {"n": n, "wall": t}
        del a, methods  # methods holds a too: free it before the next array
    rep.say(f"## One row on two threads, {n:,} int64 coins (wall time)")
    rep.say()
    rep.say(f"Median of {repeats} calls, the methods taking turns. Goals: value() on 2 "
            "threads at most 0.6x the single-thread C loop on random and PE 477 coins, 1.0x "
            "on ascending coins. On a shared machine two threads get two cores only when "
            "nothing else runs: the C loop run on the two halves at once on two threads shows "
            "what this machine gave at that moment (0.5x with two free cores). "
            f"Load average: {os.getloadavg() if hasattr(os, 'getloadavg') else '-'}.")
    rep.say()
    rep.table(["family", "C loop (1 thread)", "value(), 1 thread / C",
               "value(), 2 threads / C", "2 threads / 1", "C halves on 2 threads / C",
               "a.sum() / C"], rows)
    rep.data["threads"] = data


def components(rep: Report, quick: bool) -> None:
    rng = np.random.default_rng(SEED + 3)
    n = 10**5 if quick else 10**6
    coins = rng.integers(0, 10**9, n, dtype=np.int64)
    t_row = adaptive(lambda: coinsrow.value(coins, threads=1), budget=3.0)[0]
    rows = []
    k = 1
    while k <= n:
        size = n // k
        parts = [coins[i * size:(i + 1) * size] for i in range(k)]
        for layout in ("rows", "half rows, half stacks"):
            if layout == "rows":
                kwargs = {"rows": parts}
            else:
                kwargs = {"rows": parts[: k // 2], "stacks": parts[k // 2:]}
            builds, values = [], []
            for _ in range(3):
                holder: list = []
                builds.append(once(lambda holder=holder, kwargs=kwargs:
                                   holder.append(coinsrow.Game(**kwargs))))
                values.append(once(holder[0].value))
            tb, tv = median(builds), median(values)
            rows.append([f"{k:,}", layout, f"{size:,}", fmt_time(tv),
                         f"{tv / t_row:.2f}x", fmt_time(tb)])
        k *= 10
    rep.say(f"## Game.value() with k components, {n:,} coins in all")
    rep.say()
    rep.say(f"Fresh Game each run (value() is cached on a Game), median of 3; construction timed "
            f"apart. value() on the {n:,} coins as one row: {fmt_time(t_row)}.")
    rep.say()
    rep.table(["k", "components", "coins each", "Game.value()", "vs one row",
               "Game(...) construction"], rows)
    rep.data["components"] = rows


def play_vs_value(rep: Report, quick: bool) -> None:
    rng = np.random.default_rng(SEED + 4)
    rows = []
    for e in range(3, 7 if quick else 8):
        n = 10**e
        a = rng.integers(0, 10**9, n, dtype=np.int64)
        t = compare_batches({"value": lambda a=a: coinsrow.value(a, threads=1),
                             "play": lambda a=a: coinsrow.play(a, threads=1),
                             "profits": lambda a=a: coinsrow.profits(a, threads=1)}, 5)
        rows.append([f"10^{e}", fmt_time(t["value"]), fmt_time(t["profits"]),
                     fmt_time(t["play"]), f"{t['play'] / t['value']:.2f}x"])
    rep.say("## play() vs value() (random int64 coins)")
    rep.say()
    rep.say("Batches of calls (at least 10 ms each, median of 5, methods taking turns): "
            "memory freed by one call is reused by the next, unlike the single calls of the "
            "goal above, where play()'s output arrays (17 bytes per coin) land on fresh pages.")
    rep.say()
    rep.table(["n", "value()", "profits()", "play()", "play / value"], rows)
    rep.data["play_vs_value"] = rows


def cooperative(rep: Report, quick: bool) -> None:
    if not hasattr(coinsrow, "cooperative_max"):
        rep.say("## cooperative_max")
        rep.say()
        rep.say("Not measured: this build of coinsrow has no `cooperative_max`.")
        rep.say()
        return
    rng = np.random.default_rng(SEED + 5)
    rows = []
    for n in ([10, 100, 1000] if quick else [10, 100, 1000, 3000, 10000]):
        row = rng.integers(0, 10**9, n, dtype=np.int64).tolist()
        got, want = coinsrow.cooperative_max(row), python_cooperative(row)
        agree = "yes" if got == want else f"NO ({got} vs {want})"
        t_lib = adaptive(lambda row=row: coinsrow.cooperative_max(row), budget=5.0,
                         max_repeats=5)[0]
        t_py = adaptive(lambda row=row: python_cooperative(row), budget=5.0 if quick else 30.0,
                        max_repeats=5)[0]
        rows.append([f"{n:,}", fmt_time(t_lib), fmt_time(t_py), f"{t_py / t_lib:.1f}x", agree])
    rep.say("## cooperative_max vs a pure-Python O(n^2) DP (random coins)")
    rep.say()
    rep.table(["n", "coinsrow.cooperative_max", "pure-Python DP", "speed-up", "same result"],
              rows)
    rep.data["cooperative"] = rows


def plot(times: dict[str, dict[int, float]], path: Path, title: str) -> str | None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return "matplotlib is not installed: no plot"
    fig, ax = plt.subplots(figsize=(8, 5.5), dpi=110)
    styles = {
        "coinsrow.value()": dict(color="tab:red", marker="o", linewidth=2.5),
        "plain C loop (-O2)": dict(color="tab:orange", marker="s", linestyle="--"),
        "numpy a.sum()": dict(color="tab:gray", marker=".", linestyle=":"),
        "pure Python O(n)": dict(color="tab:green", marker="^"),
        "DP O(n^2), NumPy by diagonals": dict(color="tab:blue", marker="D"),
        "DP O(n^2), pure Python": dict(color="tab:purple", marker="v"),
    }
    for name, t in times.items():
        if not t:
            continue
        ns = sorted(t)
        ax.plot(ns, [t[n] for n in ns], label=name, **styles.get(name, {}))
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("n (coins in the row)")
    ax.set_ylabel("time per call (s)")
    ax.set_title(title, fontsize=10)
    ax.grid(True, which="major", alpha=0.4)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, under 2 minutes")
    parser.add_argument("--out", type=Path, default=None,
                        help="output directory (default benchmarks/results[/quick])")
    parser.add_argument("--families", default="",
                        help="comma-separated families of the family table (default: all; the "
                             "random rows then differ from a full run's, drawn in order "
                             "from one generator)")
    parser.add_argument("--only", default="",
                        help="comma-separated sections: goals,scaling,families,threads,"
                             "components,play,"
                             "cooperative (default: all)")
    args = parser.parse_args(argv)
    out = args.out or (HERE / "results" / "quick" if args.quick else HERE / "results")
    out.mkdir(parents=True, exist_ok=True)
    sections = set(args.only.split(",")) if args.only else None
    started = datetime.datetime.now(datetime.timezone.utc)
    run_id = started.strftime("%Y%m%dT%H%M%SZ") + ("-quick" if args.quick else "")
    rep = Report(run_id)
    info = machine()
    rep.data["machine"] = info
    plain = PlainC()
    rep.say(f"# coinsrow benchmarks, run {run_id}")
    rep.say()
    rep.say("Every figure below comes from this one run, in one process "
            f"(`python benchmarks/run.py{' --quick' if args.quick else ''}`). Times are CPU "
            "times of the process (user + system), so that other jobs on a shared machine do not "
            "inflate them, of calls on one thread; calls on two threads are timed in wall time, "
            "as said where they are.")
    rep.say()
    for key, val in info.items():
        rep.say(f"- {key}: {val}")
    if plain.lib is not None:
        rep.say(f"- C baseline: benchmarks/plain_loop.c, {plain.compiler}, -O2")
    else:
        rep.say(f"- C baseline: not measured ({plain.why})")
    rep.say()

    def wanted(name: str) -> bool:
        return sections is None or name in sections

    times = None
    if wanted("goals"):
        goals(rep, plain, args.quick)
    if wanted("scaling"):
        times = scaling(rep, plain, args.quick)
    if wanted("families") or wanted("shapes"):
        kinds = args.families.split(",") if args.families else FAMILIES
        unknown = sorted(set(kinds) - set(FAMILIES))
        if unknown:
            parser.error(f"unknown families: {', '.join(unknown)}")
        families(rep, plain, args.quick, kinds)
    if wanted("threads"):
        threads_scaling(rep, plain, args.quick)
    if wanted("components"):
        components(rep, args.quick)
    if wanted("play"):
        play_vs_value(rep, args.quick)
    if wanted("cooperative"):
        cooperative(rep, args.quick)
    elapsed = (datetime.datetime.now(datetime.timezone.utc) - started).total_seconds()
    if times is not None:
        png = out / "loglog.png"
        why = plot(times, png, f"coins in a row, one row of random int64 coins — {info['cpu']}, "
                               f"run {run_id}")
        rep.say(f"Plot: {png.relative_to(ROOT) if png.is_relative_to(ROOT) else png}"
                if why is None else f"Plot: not made ({why}).")
        rep.say()
    rep.say(f"Run time: {elapsed:.0f} s; load average at the end: "
            f"{os.getloadavg() if hasattr(os, 'getloadavg') else '-'}.")
    rep.data["seconds"] = elapsed
    (out / "results.md").write_text("\n".join(rep.lines) + "\n", encoding="utf-8")
    (out / "results.json").write_text(json.dumps(rep.data, indent=1, default=str) + "\n",
                                      encoding="utf-8")
    if times is None and (out / "loglog.png").exists():
        # No scaling section in this run: a plot from another run must not sit beside it.
        (out / "loglog.png").unlink()
    return 0


if __name__ == "__main__":
    sys.exit(main())
