"""Instructions a coin of value(), profits() and play() against the plain C loop, family by
family, counted by callgrind: unlike times on a shared machine, the counts repeat exactly.

    python benchmarks/callgrind_counts.py [--n 1000000] [--families "random,3 values"]

Run from the repository root after ``python setup.py build_ext --inplace``; needs valgrind
(with its header ``valgrind/callgrind.h``), a C compiler and NumPy. The script runs itself
under ``valgrind --tool=callgrind --instr-atstart=no``; the rows are made and every method
called once before the instrumentation starts, then each call is counted alone (its
counters zeroed before it and dumped after it, by client requests from a small C helper).
With ``--branch-sim=yes``, callgrind also counts the conditional branches a
simple predictor would miss: on ties, the time goes there, not into instructions.
Output: a table on stdout and ``benchmarks/results/callgrind.md`` (``--out``), with
``callgrind.json``.
"""

from __future__ import annotations

import argparse
import ctypes
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # the in-place build of this checkout comes first
sys.path.insert(1, str(HERE))

import numpy as np  # noqa: E402
from families import FAMILIES  # noqa: E402
from plain_c import PlainC  # noqa: E402

import coinsrow  # noqa: E402

HELPER = """
#include <valgrind/callgrind.h>
void cg_start(void) { CALLGRIND_START_INSTRUMENTATION; }
void cg_zero(void) { CALLGRIND_ZERO_STATS; }
void cg_dump(const char *what) { CALLGRIND_DUMP_STATS_AT(what); }
"""

METHODS = ("C", "value", "profits", "play")


def child(n: int, kinds: list[str], seed: int) -> None:
    """Under callgrind: each method on each family once, each call dumped apart."""
    tmp = tempfile.mkdtemp(prefix="coinsrow-cg-")
    (Path(tmp) / "cg.c").write_text(HELPER)
    cc = shutil.which(os.environ.get("CC", "cc")) or "gcc"
    subprocess.run([cc, "-O1", "-shared", "-fPIC", "-o", f"{tmp}/cg.so", f"{tmp}/cg.c"],
                   check=True)
    cg = ctypes.CDLL(f"{tmp}/cg.so")
    cg.cg_dump.argtypes = [ctypes.c_char_p]
    plain = PlainC()
    assert plain.lib is not None, plain.why
    calls = []
    for kind in kinds:
        a = plain.pe477(n) if kind == "PE 477" else FAMILIES[kind](n, np.random.default_rng(seed))
        want = coinsrow.value(a, threads=1)
        assert plain.value(a) == want, kind
        methods = {"C": lambda a=a: plain.value(a),
                   "value": lambda a=a: coinsrow.value(a, threads=1),
                   "profits": lambda a=a: coinsrow.profits(a, threads=1),
                   "play": lambda a=a: coinsrow.play(a, threads=1)}
        for method, fn in methods.items():
            fn()  # the kept scratch grows now, not in the counted call
            calls.append((f"{kind}|{method}", fn))
    cg.cg_start()
    for label, fn in calls:
        cg.cg_zero()
        fn()
        cg.cg_dump(label.encode())


def counts(directory: str) -> dict[str, dict[str, int]]:
    """The events of each dumped call: {"family|method": {"Ir": ..., "Bcm": ..., ...}}
    (Ir: instructions; Bc, Bcm: conditional branches and their simulated mispredictions)."""
    out = {}
    for path in glob.glob(os.path.join(directory, "cg.out*")):
        text = Path(path).read_text(errors="replace")
        trigger = re.search(r"^desc: Trigger: Client Request: (.*)$", text, re.M)
        events = re.search(r"^events: (.*)$", text, re.M)
        total = re.search(r"^(?:totals|summary): ([\d ]+)$", text, re.M)
        if trigger and events and total and "|" in trigger.group(1):
            out[trigger.group(1).strip()] = dict(zip(events.group(1).split(),
                                                     map(int, total.group(1).split())))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=10**6, help="coins a row")
    parser.add_argument("--families", default="", help="comma-separated (default: all)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=HERE / "results")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    kinds = args.families.split(",") if args.families else list(FAMILIES)
    if args.child:
        child(args.n, kinds, args.seed)
        return 0
    if shutil.which("valgrind") is None:
        sys.exit("callgrind_counts: needs valgrind")
    directory = tempfile.mkdtemp(prefix="coinsrow-cg-out-")
    subprocess.run(["valgrind", "--tool=callgrind", "--instr-atstart=no", "--branch-sim=yes",
                    f"--callgrind-out-file={directory}/cg.out", sys.executable, __file__,
                    "--child", "--n", str(args.n), "--families", ",".join(kinds),
                    "--seed", str(args.seed)], check=True, stderr=subprocess.DEVNULL)
    found = counts(directory)
    ir = {k: v["Ir"] / args.n for k, v in found.items()}
    miss = {k: v.get("Bcm", 0) / args.n for k, v in found.items()}
    lines = [f"Instructions a coin, and mispredicted conditional branches a coin (callgrind's "
             f"branch simulator), {args.n:,} int64 coins, one thread "
             "(`python benchmarks/callgrind_counts.py"
             + (f" --n {args.n}" if args.n != 10**6 else "") + "`)", "",
             "| family | C loop Ir | value() Ir | value / C | profits / value | "
             "play / value | C loop mispredicts | value() mispredicts |",
             "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for kind in kinds:
        c, v, p, q = (ir.get(f"{kind}|{m}") for m in METHODS)
        if c is None or v is None or p is None or q is None:
            lines.append(f"| {kind} | (missing) | | | | | | |")
            continue
        lines.append(f"| {kind} | {c:.2f} | {v:.2f} | {v / c:.2f}x | {p / v:.2f}x | "
                     f"{q / v:.2f}x | {miss[kind + '|C']:.3f} | {miss[kind + '|value']:.3f} |")
    text = "\n".join(lines) + "\n"
    print(text)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "callgrind.md").write_text(text, encoding="utf-8")
    (args.out / "callgrind.json").write_text(
        json.dumps({"n": args.n, "instructions": found}, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
