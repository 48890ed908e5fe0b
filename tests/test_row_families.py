"""The families of rows of the benchmark's table (benchmarks/families.py: linear peaks and
valleys, coins from 2, 3 and 5 values, plateaus, ties at the top, the worst shapes the
shape search found, ...) and random shapes of its generator: windows of them against the DP,
whole rows against the plain C loop of benchmarks/plain_loop.c (skipped without a C
compiler) and against the library's other paths (threads, parts, the exact twin, a Game).

The module is skipped where benchmarks/ is not at hand (an installed sdist)."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from coinsrow import Game, _core, play, profits, value

from modes import drawn, scaled
from oracles import dp_value

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def load(name: str) -> ModuleType:
    path = BENCHMARKS / f"{name}.py"
    if not path.exists():
        pytest.skip(f"benchmarks/{name}.py is not here", allow_module_level=True)
    spec = importlib.util.spec_from_file_location(f"coinsrow_benchmarks_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


families = load("families")
plain_c = load("plain_c")

# Every family but Project Euler 477's (its own tests: the same random-like coins).
KINDS = [kind for kind in families.FAMILIES if kind != "PE 477"]


def random_shape(rng: random.Random) -> object:
    return families.Shape(
        base=rng.choice(families.BASES), period=rng.choice([2, 3, 5, 16, 100]),
        amplitude=rng.choice([1, 10, 1000, 10**8]), noise=rng.choice([0, 1, 2, 100, 10**6]),
        levels=rng.choice([0, 2, 3, 5, 10]), top=rng.choice([0.0, 0.1, 0.5]),
        run=rng.choice([1.0, 1.5, 2.0, 8.0]))


def check_small(row: list[int], where: object) -> None:
    """value, profits and play of ``row`` against the DP, on one and several threads, as
    int64 and as float64; each player following play() makes the DP's value."""
    arr = np.array(row, dtype=np.int64)
    want = dp_value(row)
    total = sum(row)
    for threads in (1, 3):
        assert value(arr, threads=threads) == want, (where, threads)
        assert profits(arr, threads=threads) == ((total + want) // 2,
                                                 (total - want) // 2), (where, threads)
    moves = list(play(arr, threads=1))
    assert list(play(arr, threads=2)) == moves, where
    i, j, made, sign = 0, len(row), 0, 1
    for p in moves:
        assert p in (i, j - 1), where
        i, j = (i + 1, j) if p == i else (i, j - 1)
        made += sign * row[p]
        sign = -sign
    assert i == j and made == want, where
    assert value(arr.astype(np.float64), threads=1) == want, where


@pytest.mark.parametrize("kind", KINDS)
def test_windows_of_every_family_against_the_dp(kind):
    """Windows of every length up to 70 at random offsets of a longer row of the family
    (the start of it, where the family's shape begins, included), and the family's own
    short rows."""
    rng = random.Random(kind)
    long_row = families.make(kind, 4000, np.random.default_rng(rng.randrange(10**6))).tolist()
    for trial in range(scaled(drawn(60), 4)):
        n = rng.randint(0, 70)
        start = 0 if trial % 5 == 0 else rng.randint(0, len(long_row) - n)
        check_small(long_row[start:start + n], (kind, start, n))
    for n in range(0, 40, 3):
        check_small(families.make(kind, n, np.random.default_rng(n)).tolist(), (kind, n))


def test_random_shapes_against_the_dp():
    rng = random.Random(3117)
    for trial in range(scaled(120, 4)):
        shape = random_shape(rng)
        n = rng.randint(0, 80)
        row = shape(n, np.random.default_rng(trial)).tolist()
        check_small(row, shape)


@pytest.fixture(scope="module")
def plain() -> object:
    loop = plain_c.PlainC()
    if loop.lib is None:
        pytest.skip(f"the plain C loop is not available ({loop.why})")
    return loop


@pytest.mark.parametrize("kind", KINDS)
def test_every_family_against_the_c_loop(kind, plain):
    """Whole rows of 10^5 coins (fewer in the exact mode), and a few cut at odd lengths."""
    n = scaled(100_000, 20)
    a = families.make(kind, n, np.random.default_rng(4242))
    for stop in (n, n - 1, n // 3, 17):
        row = np.ascontiguousarray(a[:stop])
        assert value(row, threads=1) == plain.value(row), (kind, stop)


def test_random_shapes_against_the_c_loop(plain):
    rng = random.Random(3118)
    for trial in range(scaled(40, 4)):
        shape = random_shape(rng)
        a = shape(rng.randint(1000, scaled(50_000, 10)), np.random.default_rng(trial))
        assert value(a, threads=1) == plain.value(a), shape


@pytest.mark.parametrize("kind", KINDS)
def test_every_family_on_the_other_paths(kind):
    """The same answers on several threads, in parts, from the exact twin and from a Game
    (its own kernel) as on one thread; profits and play agree with value."""
    n = scaled(60_000, 20)
    a = families.make(kind, n, np.random.default_rng(4243))
    want = Game(rows=[a]).value()
    moves = play(a, threads=1)
    assert value(a, threads=1) == want
    for threads in (2, 3, None):
        assert value(a, threads=threads) == want, (kind, threads)
        assert play(a, threads=threads) == moves, (kind, threads)
        first, second = profits(a, threads=threads)
        assert first - second == want and first + second == int(a.sum()), (kind, threads)
    for parts in (2, 7):
        assert _core.row_value(a, parts, 2, False) == (_core.Status.OK, want), (kind, parts)
    assert _core.row_value_exact(a.tolist(), 3, 2, True) == (_core.Status.OK, want), kind


# Rows of value() and profits() from 2^17 to 2^21 coins take the strict Fusion test where a
# sample finds that letting ties fuse makes many more Fusions (square waves), else the tie
# test (docs/rows.md, "Ties: which Fusion test"). Both, against the C loop.
SHORTEST, LONGEST = 1 << 17, 1 << 21
SQUARE_WAVES = [
    families.Shape(base="ramp up", period=period, amplitude=1000, noise=noise, levels=levels)
    for period, noise, levels in ((4, 0, 2), (8, 0, 2), (64, 0, 2), (12, 0, 3), (8, 100, 2))
]


def fusion_test_cases() -> list[tuple[str, np.ndarray, bool]]:
    """(label, row, whether ties fuse): square waves inside and outside the sampled lengths,
    and rows of other families where the tie test stays."""
    cases = []
    for k, shape in enumerate(SQUARE_WAVES):
        for n in (SHORTEST, SHORTEST + 1 + k, LONGEST):
            cases.append((f"{shape.label()}, {n}", shape(n, np.random.default_rng(n)), False))
        for n in (SHORTEST - 1, LONGEST + 1):
            cases.append((f"{shape.label()}, {n}", shape(n, np.random.default_rng(n)), True))
    for kind in ("staircase down", "2 values", "zigzag plateaus", "random", "alternating"):
        cases.append((kind, families.make(kind, SHORTEST + 3, np.random.default_rng(5)), True))
    # A valley and a peak of a few noisy levels (their middle is a row of equal coins, where
    # the strict test fuses nothing; the samples are spread over the row), and a row with
    # many ties at random places, where the strict test makes fewer Fusions but is
    # mispredicted (the top 30% of the coins tied, plateaus of 2).
    for shape in (families.Shape(base="valley", amplitude=10, noise=2, levels=5),
                  families.Shape(base="peak", amplitude=10, noise=2, levels=5),
                  families.Shape(base="ramp down", period=100_000, amplitude=5 * 10**8,
                                 noise=10, top=0.3, run=2)):
        cases.append((shape.label(), shape(SHORTEST + 7, np.random.default_rng(6)), True))
    # Long plateaus of one tied value between ramps of short plateaus: three of the four
    # samples fall in a plateau, where only the tie test fuses (and where value() scans the
    # coins as runs whichever test), and took this row for a square wave (1.55x the C loop
    # with the strict test, 0.82x with ties fused).
    tied_ramps = families.Shape(base="ramp down", period=1000, amplitude=10**6, noise=10,
                                top=0.7, run=2)
    cases.append((tied_ramps.label(), tied_ramps(10**6, np.random.default_rng(1)), True))
    return cases


def test_the_fusion_test_of_long_rows_against_the_c_loop(plain):
    """The compiled kernel itself (in both modes), on one thread and in parts."""
    for label, row, ties in fusion_test_cases():
        assert _core._row_shapes.ties_fuse(row.tobytes()) is ties, label
        want = plain.value(row)
        assert _core.row_value(row, 1, 1) == (_core.Status.OK, want), label
        status, (first, second) = _core.row_profits(row, 1, 1)
        assert status == _core.Status.OK and first - second == want, label
        assert first + second == int(row.sum()), label
        assert _core.row_value(row, 3, 2) == (_core.Status.OK, want), label


def test_the_strict_fusion_test_whose_fusions_overflow():
    """A square wave that starts with coins near the int64 limits: the strict test's first
    Fusion overflows, the kernel says so, and value() redoes the row exactly (the exact
    twin's answer)."""
    high = 2**62
    for shape in SQUARE_WAVES[:2]:
        row = shape(SHORTEST + 5, np.random.default_rng(1))
        row[:3] = (-high, high, -high)
        assert not _core._row_shapes.ties_fuse(row.tobytes())
        assert _core.row_value(row, 1, 1)[0] == _core.Status.OVERFLOW
        want = _core.row_value_exact(row.tolist(), 1, 1)
        assert want[0] == _core.Status.OK
        assert value(row, threads=1) == want[1]
        first, second = profits(row, threads=1)
        assert first - second == want[1] and first + second == int(sum(row.tolist()))


def test_the_sum_of_profits_at_the_edges_of_the_unchecked_sum():
    """profits() sums 16,384 coins at a time without a test a coin where each is in
    [-2^46, 2^46), else with checked sums: rows of more than one such chunk, with coins just
    inside, at and beyond those bounds, and near the int64 limits (the sum then overflows and
    is redone exactly), against Python's sum and the value."""
    rng = np.random.default_rng(46)
    edge = 2**46
    for extra in ([edge - 1, -edge], [edge], [-edge - 1], [2**62, 2**62], [-(2**63)]):
        row = rng.integers(-edge, edge, 40_000, dtype=np.int64)
        at = rng.integers(0, len(row), len(extra))
        row[at] = extra
        want = value(row, threads=1)
        first, second = profits(row, threads=1)
        assert first + second == sum(row.tolist()), extra
        assert first - second == want, extra


# Play compacts the plateaus of rows of 2^17 coins or more first where a sample says it
# pays (staircases down: docs/rows.md, "Plateaus compacted first"): a plateau of equal coins
# followed by a lower coin fuses pair by pair from its end before the Fusion loop runs.
def compacted_by_hand(row: list[int], p: int, e: int) -> tuple[list[int], list[int]]:
    """What the compaction makes of row[p:e], one coin at a time: entries and first coins."""
    out: list[int] = []
    starts: list[int] = []
    k = 0  # coins in the current plateau
    for j in range(p, e):
        x = row[j]
        if j > p and x == row[j - 1]:
            out.append(x)
            starts.append(j)
            k += 1
            continue
        start = j
        if j > p and x < row[j - 1]:
            first = starts[-k]  # the plateau's first entry's first coin
            eaten = k - k % 2
            if eaten:
                del out[-eaten:], starts[-eaten:]
            start = first if k % 2 == 0 else j - k + 1
        out.append(x)
        starts.append(start)
        k = 1
    return out, starts


def reduced(values: list[int], starts: list[int]) -> list[tuple[int, int]]:
    """The strict reduction of entries (value, first coin): play's reduced row."""
    stack: list[tuple[int, int]] = []
    for v, s in zip(values, starts):
        while len(stack) >= 2 and stack[-2][0] <= stack[-1][0] > v:
            v, s = stack[-2][0] - stack[-1][0] + v, stack[-2][1]
            del stack[-2:]
        stack.append((v, s))
    return stack


def test_the_compaction_of_plateaus_against_one_by_hand():
    """The compiled compaction against the one above, on rows of few values (many plateaus;
    some longer than the 64 coins it looks at at once), cut anywhere; and pushing its
    entries gives the reduced row the coins give."""
    rng = random.Random(2048)
    compact = _core._row_shapes.compact_plateaus
    for trial in range(scaled(600, 60)):
        n = rng.choice([2, 3, 65, 130, 300, 1000])
        values = rng.randint(1, 6)
        run = rng.choice([1, 2, 3, 40, 200])
        row: list[int] = []
        while len(row) < n:
            row += [rng.randint(-values, values) * rng.choice([1, 10**17])] * rng.randint(1, run)
        row = row[:n]
        p = rng.randint(1, n - 1)
        e = rng.randint(p + 1, n)
        got = compact(np.array(row, dtype=np.int64).tobytes(), p, e)
        assert got == compacted_by_hand(row, p, e), (trial, row, p, e)
        assert reduced(*got) == reduced(row[p:e], list(range(p, e))), (trial, row, p, e)
    with pytest.raises(ValueError, match="need 0 < p < e <= 4"):
        compact(np.zeros(4, dtype=np.int64).tobytes(), 0, 2)
    with pytest.raises(ValueError, match="need 0 < p < e <= 4"):
        compact(np.zeros(4, dtype=np.int64).tobytes(), 2, 5)


STAIRCASES = [
    families.FAMILIES["staircase down"],
    families.Shape(base="ramp down", period=16, amplitude=1000, noise=0, levels=10, run=2.0),
    families.Shape(base="ramp down", period=100, amplitude=10**6, noise=0, levels=50,
                   run=1.5),
]


def with_long_plateaus(row: np.ndarray) -> np.ndarray:
    """``row`` with plateaus longer than a chunk of the compaction (2,048 coins) laid over
    it away from the samples, each followed by a lower coin or a higher one."""
    row = row.copy()
    n = len(row)
    for k, length in enumerate((2047, 2048, 2049, 4097, 5000, 2 * 2048 + 1)):
        at = (k + 1) * n // 8 - length - 600
        row[at:at + length] = row[at] + (k % 2) * 3 - 1
    return row


def compacted_rows() -> list[tuple[str, np.ndarray]]:
    """Rows the compaction is taken for: staircases down, with long plateaus, shifted to
    negative coins and to coins near the int64 limits (whose Fusions overflow)."""
    rows = []
    for k, shape in enumerate(STAIRCASES):
        for n in (1 << 17, (1 << 17) + 11 * k + 5, 300_001):
            row = shape(n, np.random.default_rng(n + k))
            rows.append((f"{shape.label()}, {n}", row))
        row = shape(1 << 17, np.random.default_rng(k))
        rows.append((f"{shape.label()}, long plateaus", with_long_plateaus(row)))
        rows.append((f"{shape.label()}, negative", row - 7))
        low = row * (2**62 // int(row.max())) - 2**62 - 2**61
        rows.append((f"{shape.label()}, near the limits", low))
    return rows


def test_the_compaction_is_taken_where_it_pays():
    """Staircases down of 2^17 coins or more, not shorter ones nor rows with few ties or
    with many rises (square waves, zigzag plateaus, coins from 2 values)."""
    pays = _core._row_shapes.compaction_pays
    for label, row in compacted_rows():
        assert pays(row.tobytes()), label
    assert not pays(STAIRCASES[0]((1 << 17) - 1, np.random.default_rng(1)).tobytes())
    for kind in ("random", "2 values", "zigzag plateaus", "square wave", "descending",
                 "plateaus", "all equal", "ties at the top", "few-level plateaus"):
        row = families.make(kind, 1 << 18, np.random.default_rng(7))
        assert not pays(row.tobytes()), kind


def test_play_with_plateaus_compacted_against_the_exact_twin():
    """The compiled kernel (one thread: the compaction; in parts of fewer coins than the
    samples need: the Fusion loop alone) against the exact twin; an overflow of a Fusion
    makes play() redo the row exactly."""
    overflowed = 0
    for label, row in compacted_rows():
        status, want = _core.row_play_exact(row.tolist(), 1, 1)
        if _core.row_play(row, 1, 1)[0] == _core.Status.OVERFLOW:
            assert status == _core.Status.OK, label
            assert play(row, threads=1) == want, label
            overflowed += 1
            continue
        assert status == _core.Status.OK, label
        assert _core.row_play(row, 1, 1) == (_core.Status.OK, want), label
        assert _core.row_play(row, 16, 1) == (_core.Status.OK, want), label
        assert play(row, threads=2) == play(row, threads=1), label
    assert overflowed == len(STAIRCASES)


def test_random_staircases_compacted_or_not_against_the_loop_alone():
    """Random shapes falling in plateaus: where the samples pick the compaction, the play
    equals the one of the Fusion loop alone (in parts too short for the samples) and, for
    a few, the exact twin's."""
    rng = random.Random(2049)
    compacted = 0
    for trial in range(scaled(60, 3)):
        shape = families.Shape(
            base="ramp down", period=rng.choice([3, 5, 16, 100]),
            amplitude=rng.choice([10, 1000, 10**8]), noise=rng.choice([0, 1, 100]),
            levels=rng.choice([0, 3, 10, 50]), top=rng.choice([0.0, 0.5]),
            run=rng.choice([1.5, 2.0, 3.0, 8.0]))
        row = shape((1 << 17) + rng.randint(0, 5000), np.random.default_rng(trial))
        if not _core._row_shapes.compaction_pays(row.tobytes()):
            continue
        compacted += 1
        want = _core.row_play(row, 16, 1)
        assert _core.row_play(row, 1, 1) == want, shape
        if compacted <= 3:
            assert _core.row_play_exact(row.tolist(), 1, 1) == want, shape
    assert compacted >= scaled(8, 4)
