"""The families of rows the benchmarks (``run.py``'s family table, ``shapes.py``) and the
tests of the row families are run on, and a small generator of row shapes.

Every row is an int64 NumPy array whose sums stay far inside int64 at 10^8 coins (coins
below 10^9 in absolute value), so that the C baseline, which does not check for overflow,
gives the exact answer.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass

import numpy as np

Maker = Callable[[int, np.random.Generator], np.ndarray]


def pe477(n: int, rng: np.random.Generator) -> np.ndarray:
    """Project Euler 477's coins: s1 = 0, s(i+1) = (s(i)^2 + 45) mod 1000000007 (sequential:
    ``plain_c.PlainC.pe477`` is much faster where a C compiler is found)."""
    a = np.empty(n, dtype=np.int64)
    s = 0
    for i in range(n):
        a[i] = s
        s = (s * s + 45) % 1_000_000_007
    return a


def _sorted(n: int, rng: np.random.Generator) -> np.ndarray:
    return np.sort(rng.integers(0, 10**9, n, dtype=np.int64))


def _dealt_valley(n: int, rng: np.random.Generator) -> np.ndarray:
    s = _sorted(n, rng)
    return np.concatenate([s[0::2][::-1], s[1::2]])


def _dealt_peak(n: int, rng: np.random.Generator) -> np.ndarray:
    s = _sorted(n, rng)
    return np.concatenate([s[0::2], s[1::2][::-1]])


def _alternating(n: int, rng: np.random.Generator) -> np.ndarray:
    a = rng.integers(0, 1000, n, dtype=np.int64)
    a[::2] += 10**9  # high, low, high, low, ...
    return a


def _sawtooth(n: int, rng: np.random.Generator) -> np.ndarray:
    return (np.arange(n, dtype=np.int64) % 1000) * 1000 + rng.integers(0, 1000, n)


def linear_peak(n: int, rng: np.random.Generator | None = None) -> np.ndarray:
    """n//2 - |i - n//2|: a ramp up by ones, then down by ones."""
    i = np.arange(n, dtype=np.int64)
    return n // 2 - np.abs(i - n // 2)


def linear_valley(n: int, rng: np.random.Generator | None = None) -> np.ndarray:
    """|i - n//2|: a ramp down by ones, then up by ones."""
    i = np.arange(n, dtype=np.int64)
    return np.abs(i - n // 2)


def values_from(k: int) -> Maker:
    """Coins drawn uniformly from {0, 1, ..., k - 1}."""
    def make(n: int, rng: np.random.Generator) -> np.ndarray:
        return rng.integers(0, k, n, dtype=np.int64)
    return make


def plateaus(n: int, rng: np.random.Generator) -> np.ndarray:
    """Runs of equal coins (random in [0, 10^9)) of random lengths, 1 to 1000."""
    lengths = rng.integers(1, 1001, n // 500 + 2)
    return np.repeat(rng.integers(0, 10**9, len(lengths), dtype=np.int64), lengths)[:n]


def ties_at_the_top(n: int, rng: np.random.Generator) -> np.ndarray:
    """Random coins in [0, 10^9), the largest 30% of them cut down to one value."""
    return np.minimum(rng.integers(0, 10**9, n, dtype=np.int64), 7 * 10**8)


# ---------------------------------------------------------------------------------------------
# A generator of shapes (``shapes.py`` searches its parameters for the rows where value() is
# slowest against the C loop)

BASES = ("flat", "ramp up", "ramp down", "peak", "valley", "zigzag")


@dataclass(frozen=True)
class Shape:
    """A row shape: a base curve over the row's distinct positions, plus noise, cut to
    ``levels`` values, the top ``top`` fraction tied, each position repeated into a plateau
    of mean length ``run``.

    base: flat, ramp up / ramp down (teeth of ``period`` positions), peak, valley (one
    linear peak or valley over the whole row), zigzag (high, low, ...);
    amplitude: the base curve's height; noise: uniform noise in [0, noise] added;
    levels: 0 for any value, else the values are cut to that many levels (0 .. levels - 1);
    top: the largest fraction ``top`` of the values cut down to one value (0: none);
    run: mean plateau length (geometric lengths; 1: no plateaus).
    """

    base: str = "flat"
    period: int = 1000
    amplitude: int = 10**6
    noise: int = 10**6
    levels: int = 0
    top: float = 0.0
    run: float = 1.0

    def label(self) -> str:
        parts = [self.base]
        if self.base in ("ramp up", "ramp down"):
            parts.append(f"period {self.period}")
        if self.base != "flat":
            parts.append(f"amplitude {self.amplitude:g}")
        parts.append(f"noise {self.noise:g}")
        if self.levels:
            parts.append(f"{self.levels} levels")
        if self.top:
            parts.append(f"top {self.top:g} tied")
        if self.run > 1:
            parts.append(f"plateaus of {self.run:g}")
        return ", ".join(parts)

    def as_dict(self) -> dict:
        return asdict(self)

    def __call__(self, n: int, rng: np.random.Generator) -> np.ndarray:
        if n == 0:
            return np.zeros(0, dtype=np.int64)
        if self.run > 1:
            lengths = rng.geometric(1 / self.run, int(n / self.run) + 16)
            while lengths.sum() < n:
                lengths = np.concatenate([lengths, rng.geometric(1 / self.run, 16 + n // 16)])
            m = int(np.searchsorted(np.cumsum(lengths), n)) + 1
            lengths = lengths[:m]
        else:
            m = n
        t = np.arange(m, dtype=np.int64)
        half = max(m // 2, 1)
        if self.base == "flat":
            v = np.zeros(m, dtype=np.int64)
        elif self.base == "ramp up":
            v = (t % self.period) * self.amplitude // self.period
        elif self.base == "ramp down":
            v = (self.period - 1 - t % self.period) * self.amplitude // self.period
        elif self.base == "peak":
            v = (half - np.abs(t - half)) * self.amplitude // half
        elif self.base == "valley":
            v = np.abs(t - half) * self.amplitude // half
        elif self.base == "zigzag":
            v = (t % 2) * self.amplitude
        else:
            raise ValueError(self.base)
        if self.noise:
            v = v + rng.integers(0, self.noise + 1, m, dtype=np.int64)
        if self.levels:
            high = int(v.max()) + 1
            v = v * self.levels // high
        if self.top:
            v = np.minimum(v, np.quantile(v, 1 - self.top).astype(np.int64))
        if self.run > 1:
            v = np.repeat(v, lengths)[:n]
        return np.ascontiguousarray(v, dtype=np.int64)


# ---------------------------------------------------------------------------------------------
# The family table

# The shapes where value() was slowest against the C loop, found by ``shapes.py`` (see
# benchmarks/results/shapes.md).
WORST_SHAPES: dict[str, Shape] = {
    # Descending teeth of 16 positions cut to 10 levels (9, 9, 8, 7, 7, ... 0, then 9 again),
    # each position repeated 1.5 times on average: 2.8x the C loop (run 20261126T200611Z).
    "staircase down": Shape(base="ramp down", period=16, amplitude=1000, noise=0, levels=10,
                            run=1.5),
    # Two values alternating, each in a plateau of 2 on average: 1.6x.
    "zigzag plateaus": Shape(base="zigzag", amplitude=1000, noise=0, levels=10, run=2.0),
    # 0, 0, 0, 0, 1, 1, 1, 1, 0, ...: the worst shape once ties fuse in value() (1.95x the
    # C loop, whose one branch a coin learns the period).
    "square wave": Shape(base="ramp up", period=8, amplitude=1000, noise=0, levels=2),
    # Plateaus of three levels, some 16 coins each: the worst once the run scan and the
    # merge read ahead (1.31x the C loop at 10^6 coins, run 20261127T115152Z), the coins
    # sent back and forth between the Fusion loop and the run scan every 64 coins.
    "few-level plateaus": Shape(base="peak", amplitude=1, noise=1, levels=3, top=0.1, run=16),
}

FAMILIES: dict[str, Maker] = {
    "random": lambda n, rng: rng.integers(0, 10**9, n, dtype=np.int64),
    "PE 477": pe477,
    "ascending": _sorted,
    "descending": lambda n, rng: _sorted(n, rng)[::-1].copy(),
    "valley": _dealt_valley,
    "peak": _dealt_peak,
    "linear peak": linear_peak,
    "linear valley": linear_valley,
    "alternating": _alternating,
    "all equal": lambda n, rng: np.full(n, 7, dtype=np.int64),
    "2 values": values_from(2),
    "3 values": values_from(3),
    "5 values": values_from(5),
    "few distinct": values_from(10),
    "plateaus": plateaus,
    "ties at the top": ties_at_the_top,
    "sawtooth": _sawtooth,
    **WORST_SHAPES,
}

FAMILY_NOTES = (
    "random: uniform in [0, 10^9); PE 477: Project Euler 477's s1 = 0, s(i+1) = (s(i)^2 + "
    "45) mod 1000000007; ascending, descending: the random coins sorted (with their ties); "
    "valley: down then up, peak: up then down (the sorted coins dealt to two halves); "
    "linear peak: n//2 - |i - n//2|, linear valley: |i - n//2|; "
    "alternating: 10^9 + small, small, ...; all equal: every coin 7; 2, 3, 5 values: uniform "
    "in [0, k); few distinct: uniform in [0, 10); plateaus: runs of one random coin, of "
    "lengths uniform in 1..1000; ties at the top: uniform in [0, 10^9), the top 30% cut to "
    "7 * 10^8; sawtooth: ramps of 1000 coins"
    + "".join(f"; {name}: {shape.label()}" for name, shape in WORST_SHAPES.items())
    + "."
)


def make(kind: str, n: int, rng: np.random.Generator) -> np.ndarray:
    """A row of n int64 coins of the family ``kind``."""
    return FAMILIES[kind](n, rng)
