"""Small calls: what a short row, a small game and the start of a process cost.

    python benchmarks/small_calls.py            # about a minute
    python benchmarks/small_calls.py --quick    # 3 rounds instead of 7

Run from the repository root after ``python setup.py build_ext --inplace``. Every figure is
a ratio to a baseline measured side by side, in the same process (or, for the start-up
figures, in fresh processes started alternately), and the median over the rounds of the
ratio in each round:

- per call, on a list of 16 random ints: ``value``, ``profits``, ``play``, ``best_move``
  against ``sorted()`` of the same list; ``Game(rows=[[3, 1, 4, 1, 5]], stacks=[[9, 2,
  6]]).value()``; an ``Engine`` of 8 coins and 8 ``take(best_move())``; ``values_many`` of
  1,000 such rows against 1,000 ``sorted()`` calls;
- per game in a loop: ``value()`` over 10^4 random rows of 1 to 30 coins against
  ``sorted()`` of each;
- the first ``value([1, 2, 3])`` in a fresh process (after ``import coinsrow``), and the
  modules it imported that a list does not need;
- ``import coinsrow`` (cumulative, ``python -X importtime``) against ``import fractions,
  decimal``;
- the command line ``coinsrow 3 2 2 3 1 2`` (wall time) against ``python -c pass``.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
import timeit
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import coinsrow  # noqa: E402

# Enough calls per timing that one timing lasts some 20 ms: the timer's own cost vanishes.
_TARGET_SECONDS = 0.02


def _per_call(function: Callable[[], object], number: int) -> float:
    """Seconds per call: the best of three timings of ``number`` calls."""
    return min(timeit.repeat(function, number=number, repeat=3)) / number


def _calls_for(function: Callable[[], object]) -> int:
    number = 1
    while True:
        seconds = timeit.timeit(function, number=number)
        if seconds >= _TARGET_SECONDS / 4:
            return max(1, int(number * _TARGET_SECONDS / seconds))
        number *= 4


def paired(subject: Callable[[], object], baseline: Callable[[], object],
           rounds: int) -> tuple[float, float, float]:
    """(median seconds per call of ``subject``, of ``baseline``, median of their ratio in
    a round): the two timed one after the other in every round."""
    n_subject, n_baseline = _calls_for(subject), _calls_for(baseline)
    subjects, baselines, ratios = [], [], []
    for _ in range(rounds):
        s = _per_call(subject, n_subject)
        b = _per_call(baseline, n_baseline)
        subjects.append(s)
        baselines.append(b)
        ratios.append(s / b)
    return statistics.median(subjects), statistics.median(baselines), statistics.median(ratios)


# The fresh processes read coinsrow's modules from their bytecode caches, as from an
# installed package (pip compiles them): without the caches, every start would compile the
# sources again (some 30 ms of the import here), which no user pays after the first run.
_ENV = {**{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
        "PYTHONPATH": str(ROOT)}


def _python(code: str, *flags: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *flags, "-c", code], cwd=ROOT, check=True,
                          capture_output=True, text=True, env=_ENV)


def _cumulative_import_us(stderr: str, names: set[str]) -> int:
    """The cumulative microseconds of the top-level imports ``names`` in an importtime log."""
    total = 0
    for line in stderr.splitlines():
        if not line.startswith("import time:"):
            continue
        _self, cumulative, name = line[len("import time:"):].split("|")
        if name.strip() in names and not name[1:].startswith(" "):  # top level: no indent
            total += int(cumulative)
    return total


def import_time(rounds: int) -> tuple[float, float, float]:
    """Median microseconds of ``import coinsrow`` and ``import fractions, decimal`` (each in
    a fresh process, ``-X importtime``, cumulative), and the median ratio of a round."""
    _python("import coinsrow._cli")  # writes the bytecode caches of every module
    ours, theirs, ratios = [], [], []
    for _ in range(rounds):
        a = _cumulative_import_us(_python("import coinsrow", "-X", "importtime").stderr,
                                  {"coinsrow"})
        b = _cumulative_import_us(
            _python("import fractions, decimal", "-X", "importtime").stderr,
            {"fractions", "decimal"})
        ours.append(a)
        theirs.append(b)
        ratios.append(a / b)
    return statistics.median(ours), statistics.median(theirs), statistics.median(ratios)


_FIRST_CALL = """
import sys, time
import coinsrow
before = set(sys.modules)
start = time.perf_counter()
coinsrow.value([1, 2, 3])
seconds = time.perf_counter() - start
coinsrow.profits([1, 2, 3])
coinsrow.Game(rows=[[3, 1, 4, 1, 5]], stacks=[[9, 2, 6]]).value()
heavy = sorted(m for m in ("numpy", "pyarrow", "concurrent.futures", "logging",
                           "xml.sax.saxutils") if m in sys.modules)
print(seconds, len(set(sys.modules) - before), ",".join(heavy) or "-")
"""


def first_call(rounds: int) -> tuple[float, int, str]:
    """Median seconds of the first ``value([1, 2, 3])`` after ``import coinsrow`` in a fresh
    process; the modules it imported; the heavy modules loaded after list calls."""
    seconds, counts, heavy = [], [], ""
    for _ in range(rounds):
        s, count, heavy = _python(_FIRST_CALL).stdout.split()
        seconds.append(float(s))
        counts.append(int(count))
    return statistics.median(seconds), int(statistics.median(counts)), heavy


def _wall(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, cwd=ROOT, check=True, capture_output=True, env=_ENV)
    return time.perf_counter() - start


def cli_time(rounds: int) -> tuple[float, float, float]:
    """Median wall seconds of ``coinsrow 3 2 2 3 1 2`` (as its entry point runs it) and of
    ``python -c pass``, started alternately, and the median ratio of a round."""
    cli = [sys.executable, "-c", "import sys; from coinsrow._cli import main; "
           "sys.exit(main(['3', '2', '2', '3', '1', '2']))"]
    bare = [sys.executable, "-c", "pass"]
    _wall(cli)  # the first start reads the files from disk
    ours, theirs, ratios = [], [], []
    for _ in range(rounds):
        a, b = _wall(cli), _wall(bare)
        ours.append(a)
        theirs.append(b)
        ratios.append(a / b)
    return statistics.median(ours), statistics.median(theirs), statistics.median(ratios)


def _engine_game(coins: list[int]) -> None:
    engine = coinsrow.Engine(coins)
    for _ in range(len(coins)):
        engine.take(engine.best_move())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="3 rounds instead of 7")
    rounds = 3 if parser.parse_args().quick else 7

    rng = random.Random(1)
    a = [rng.randint(0, 100) for _ in range(16)]
    many = [[rng.randint(0, 100) for _ in range(16)] for _ in range(1000)]
    games = [[rng.randint(0, 100) for _ in range(rng.randint(1, 30))] for _ in range(10**4)]
    value, profits, play, best_move = (coinsrow.value, coinsrow.profits, coinsrow.play,
                                       coinsrow.best_move)
    game, eight = coinsrow.Game, a[:8]

    def sort_a() -> object:
        return sorted(a)

    def sort_many() -> None:
        for row in many:
            sorted(row)

    def sort_games() -> None:
        for row in games:
            sorted(row)

    def value_games() -> None:
        for row in games:
            value(row)

    calls: list[tuple[str, Callable[[], object], Callable[[], object], str]] = [
        ("`value(a)`", lambda: value(a), sort_a, "`sorted(a)`"),
        ("`profits(a)`", lambda: profits(a), sort_a, "`sorted(a)`"),
        ("`play(a)`", lambda: play(a), sort_a, "`sorted(a)`"),
        ("`best_move(a)`", lambda: best_move(a), sort_a, "`sorted(a)`"),
        ("`Game(rows=[[3, 1, 4, 1, 5]], stacks=[[9, 2, 6]]).value()`",
         lambda: game(rows=[[3, 1, 4, 1, 5]], stacks=[[9, 2, 6]]).value(), sort_a,
         "`sorted(a)`"),
        ("`Engine(a[:8])` + 8 `take(best_move())`", lambda: _engine_game(eight), sort_a,
         "`sorted(a)`"),
        ("`values_many` of 1,000 rows of 16", lambda: coinsrow.values_many(many), sort_many,
         "1,000 `sorted()`"),
        ("`value()` a game, 10^4 rows of 1-30", value_games, sort_games,
         "`sorted()` a game"),
    ]
    run = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    print(f"run {run}, Python {sys.version.split()[0]}, {rounds} rounds; "
          "a = 16 random ints in 0..100\n")
    print("| call | time | baseline | baseline time | ratio |")
    print("| --- | --- | --- | --- | --- |")
    for label, subject, baseline, baseline_label in calls:
        s, b, ratio = paired(subject, baseline, rounds)
        scale = 1e4 if "10^4" in label else 1
        print(f"| {label} | {s / scale * 1e6:.2f} µs | {baseline_label} | "
              f"{b / scale * 1e6:.2f} µs | {ratio:.2f}x |")
    seconds, count, heavy = first_call(rounds)
    print(f"| first `value([1, 2, 3])` in a process | {seconds * 1e3:.2f} ms | "
          f"({count} modules imported; after list calls: {heavy}) | | |")
    ours, theirs, ratio = import_time(rounds)
    print(f"| `import coinsrow` (-X importtime) | {ours / 1e3:.1f} ms | "
          f"`import fractions, decimal` | {theirs / 1e3:.1f} ms | {ratio:.2f}x |")
    ours, theirs, ratio = cli_time(rounds)
    print(f"| `coinsrow 3 2 2 3 1 2` (wall) | {ours * 1e3:.1f} ms | `python -c pass` | "
          f"{theirs * 1e3:.1f} ms | {ratio:.2f}x |")


if __name__ == "__main__":
    main()
