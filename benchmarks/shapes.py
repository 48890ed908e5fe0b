"""Which row shapes make value() slowest against the plain C loop: a search over the
parameters of ``families.Shape``, ranked by the ratio value() / C loop.

    python benchmarks/shapes.py [--n 1000000] [--samples 80] [--climb 3] [--seed 1]

Run from the repository root after ``python setup.py build_ext --inplace``; needs NumPy and a
C compiler (``plain_c.py``). Every shape's row is checked (value() equals the C loop) and
timed as ``run.py`` times its families: CPU time of single calls in paired rounds (one call
of each a round), the ratio the median of the rounds' ratios. The search: the named
families, a sample of random shapes, then ``--climb`` rounds of hill climbing (each of the
worst few shapes with one parameter moved to each other value). The worst shapes are timed
again with more rounds. Output: a ranked table on stdout and in ``benchmarks/results/
shapes.md`` (``--out``), with ``shapes.json``.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import json
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # the in-place build of this checkout comes first
sys.path.insert(1, str(HERE))

import numpy as np  # noqa: E402
from families import BASES, FAMILIES, Shape  # noqa: E402
from plain_c import PlainC  # noqa: E402
from run import median, paired_ratio, rounds  # noqa: E402

import coinsrow  # noqa: E402

# The values each parameter of a shape takes in the search.
CHOICES: dict[str, tuple] = {
    "base": BASES,
    "period": (2, 3, 4, 8, 16, 64, 1000, 100_000),
    "amplitude": (1, 10, 1000, 10**6, 5 * 10**8),
    "noise": (0, 1, 2, 10, 1000, 10**6),
    "levels": (0, 2, 3, 5, 10),
    "top": (0.0, 0.1, 0.3, 0.7),
    "run": (1.0, 1.5, 2.0, 4.0, 16.0, 1000.0),
}


def random_shape(rng: random.Random) -> Shape:
    return Shape(**{name: rng.choice(values) for name, values in CHOICES.items()})


def neighbours(shape: Shape) -> list[Shape]:
    """The shapes with one parameter of ``shape`` moved to another of its values."""
    out = []
    for name, values in CHOICES.items():
        for value in values:
            if value != getattr(shape, name):
                out.append(dataclasses.replace(shape, **{name: value}))
    return out


class Ranking:
    def __init__(self, plain: PlainC, n: int, seed: int) -> None:
        self.plain = plain
        self.n = n
        self.seed = seed
        self.ratios: dict[str, float] = {}
        self.ns: dict[str, tuple[float, float]] = {}
        self.shapes: dict[str, Shape | None] = {}

    def measure(self, label: str, make, repeats: int) -> float:
        a = make(self.n, np.random.default_rng(self.seed))
        want = coinsrow.value(a, threads=1)
        assert self.plain.value(a) == want, label
        t = rounds({"C": lambda: self.plain.value(a),
                    "value": lambda: coinsrow.value(a, threads=1)}, repeats)
        ratio = paired_ratio(t, "value", "C")
        self.ratios[label] = ratio
        self.ns[label] = (median(t["C"]) / self.n * 1e9, median(t["value"]) / self.n * 1e9)
        self.shapes[label] = make if isinstance(make, Shape) else None
        print(f"{ratio:5.2f}x  {label}", flush=True)
        return ratio

    def worst(self, k: int) -> list[str]:
        return sorted(self.ratios, key=self.ratios.__getitem__, reverse=True)[:k]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=10**6, help="coins a row")
    parser.add_argument("--samples", type=int, default=80, help="random shapes")
    parser.add_argument("--climb", type=int, default=3, help="hill-climbing rounds")
    parser.add_argument("--repeats", type=int, default=5, help="rounds a shape (search)")
    parser.add_argument("--final", type=int, default=21, help="rounds a shape (the worst)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=HERE / "results")
    args = parser.parse_args(argv)
    plain = PlainC()
    if plain.lib is None:
        sys.exit(f"shapes: needs the plain C baseline ({plain.why})")
    started = datetime.datetime.now(datetime.timezone.utc)
    rank = Ranking(plain, args.n, args.seed)
    for name, make in FAMILIES.items():
        if name != "PE 477":  # generated in Python: slow, and measured by run.py
            rank.measure(name, make, args.repeats)
    rng = random.Random(args.seed)
    for _ in range(args.samples):
        shape = random_shape(rng)
        if shape.label() not in rank.ratios:
            rank.measure(shape.label(), shape, args.repeats)
    for _ in range(args.climb):
        for label in rank.worst(3):
            shape = rank.shapes[label]
            if shape is None:
                continue
            for near in neighbours(shape):
                if near.label() not in rank.ratios:
                    rank.measure(near.label(), near, args.repeats)
    top = rank.worst(12)
    print(f"-- the worst {len(top)} again, {args.final} rounds", flush=True)
    for label in top:
        shape = rank.shapes[label]
        rank.measure(label, shape if shape is not None else FAMILIES[label], args.final)
    top = sorted(top, key=rank.ratios.__getitem__, reverse=True)
    run_id = started.strftime("%Y%m%dT%H%M%SZ")
    lines = [f"# Row shapes ranked by value() / C loop, run {run_id}", "",
             f"`python benchmarks/shapes.py --n {args.n} --samples {args.samples} --climb "
             f"{args.climb} --seed {args.seed}`: {len(rank.ratios)} shapes of {args.n:,} "
             f"int64 coins, each timed in {args.repeats} paired rounds; the worst "
             f"{len(top)} again in {args.final} rounds (below). C loop: "
             f"benchmarks/plain_loop.c `plain_value`, {plain.compiler}, -O2.", "",
             "| shape | C loop ns/coin | value() ns/coin | value / C |",
             "| --- | --- | --- | --- |"]
    for label in top:
        c, v = rank.ns[label]
        lines.append(f"| {label} | {c:.2f} | {v:.2f} | {rank.ratios[label]:.2f}x |")
    text = "\n".join(lines) + "\n"
    print(text)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "shapes.md").write_text(text, encoding="utf-8")
    data = {"run": run_id, "n": args.n, "ratios": rank.ratios,
            "shapes": {k: (s.as_dict() if s else None) for k, s in rank.shapes.items()}}
    (args.out / "shapes.json").write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
