"""The before/after speed table of a change: two checkouts timed side by side.

    python benchmarks/side_by_side.py BEFORE AFTER [--rounds 5] [--only rows,forests]
    python benchmarks/side_by_side.py BEFORE AFTER --quick     # small sizes, a few seconds

BEFORE and AFTER are the roots of two checkouts of coinsrow, each built in place
(``python setup.py build_ext --inplace``). Both import a package named ``coinsrow``, so they
cannot share a process: every round starts one fresh process for each side, before then after,
round after round, so that a drift of the machine's load falls on both sides alike. Each
process times every workload and prints its times; the ratios come from those processes only.

Why it is built so:

- Both sides time the same rows: the workloads and the row families are taken from AFTER's
  ``benchmarks/families.py`` (loaded by path on both sides; BEFORE may predate newer families),
  and every input is drawn from fixed seeds.
- Both sides are checked before their times count: each process asserts that every
  ``coinsrow`` module it loaded lies under its own root, and the answers of every workload (the
  value, the profits, a hash of the moves) must be the same on both sides and in every round.
  A difference is an error (exit status 1), never a timing.
- A time is the best of ``--repeats`` timings, each of enough calls to last some 2 ms (one
  call, for most workloads), with the garbage collector off: the best is the time least
  disturbed by the other programs of a shared machine, and short timings give it more chances
  to fall between two bursts of their work. Calls on one thread (``threads=1`` where the call
  takes it) are timed in CPU time (``time.process_time``), which another program's work
  barely moves; the calls on two threads are timed in wall time (``time.perf_counter``; CPU
  time would add both threads' work) and are labelled ``wall``.
- Each process starts by allocating a buffer of a random size (below 64 KiB, drawn from the
  round and the side, so a run is repeatable): it shifts where every later buffer lands in the
  heap. Without it the checkout's path alone (its length, in ``sys.path`` and in the strings
  made from it) fixed the heap's layout, and with it the alignment of a kernel's buffers
  against each other, the same in every round of a side: two copies of one build differed by
  3% to 7% on some rows, in every round. With it, each side's best time is its best over
  several layouts.

The workload groups (``--only``): ``rows`` (value(), profits() and play() of every family of
``families.py`` at ``--n`` int64 coins), ``floats`` (value() and profits() of random float64
coins), ``threads`` (value() and play() of 8 * ``--n`` coins on two threads), ``components``
(a Game of 10^5 components of 10 coins, half rows and half stacks), ``forests`` (forests of
``--n`` nodes: random parents, the same forest with shuffled labels, a path, a star), ``engine``
(an Engine on a row of 10^5 coins, 20,000 ``take(best_move())``; on a forest of 20,000 nodes,
2,000 moves), ``subrows`` (``Intervals`` of ``--n`` coins: the build, and 2 * 10^4 sub-rows'
values) and ``batch`` (``values_many`` of 10^5 lists of 20 coins, and of the same coins flat
with offsets).

How to read the table: ``before ms`` and ``after ms`` are each side's best time over all
rounds, ``after/before`` their ratio (below 1: the change made the workload faster), ``rounds``
the ratio in each round alone: when they scatter widely the machine was too busy for the best
times to be trusted. Rows whose ratio is above ``--flag`` (1.03: 3% slower) are marked ``<<``.
The geometric means of the ratios, over all rows and per group, close the table. The markdown
table and a JSON file of every raw time are written to ``--out``.

What the table can resolve: time the same commit against itself first (an A/A run: one build
copied to a second directory, ``cp -a``, given as BEFORE and AFTER). On the 2-core machine of
docs/rows.md, 63 row workloads at 10^6 coins, 11 rounds of 20 repeats: every A/A ratio within
0.975 to 1.012; with the earlier settings (timings of 30 ms, no layout shift, 5 rounds of 7)
0.920 to 1.124, eleven rows above 1.03. Every workload, 11 rounds: 0.950 to 1.046, two rows
above 1.03 (benchmarks/results/house-before-after/): a row a few percent over 1.03 in one run
is within this machine's noise until it comes back in the next.

On a shared machine, run one benchmark at a time (for instance under ``flock`` on a lock file
that every benchmark takes).
"""

from __future__ import annotations

import argparse
import array
import gc
import hashlib
import importlib.util
import json
import math
import os
import platform
import random
import shlex
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime, timezone
from functools import partial
from pathlib import Path
from typing import Any

GROUPS = ("rows", "floats", "threads", "components", "forests", "engine", "subrows", "batch")
# A timing lasts at least this long: the clock's own cost (well under a microsecond) vanishes,
# and a timing stays short enough to fit between two bursts of another program's work.
_TARGET_SECONDS = 0.002
# Each timing process first allocates a buffer of a random size below this (the module
# docstring says why); Python allocates a bytearray of 512 bytes or more with malloc.
_LAYOUT_BYTES = 1 << 16
_layout_buffer = bytearray()
_HERE = Path(__file__).resolve()
_DEFAULT_OUT = _HERE.parent / "results" / "side-by-side"


# ---------------------------------------------------------------------------------------------
# The workloads (run in the timing process, where ``coinsrow`` is the side's own)

@dataclass(frozen=True)
class Sizes:
    """The sizes of the workloads: ``row`` coins a row (forests: nodes), the rest fixed."""

    row: int
    components: int = 10**5
    component_coins: int = 10
    engine_coins: int = 10**5
    engine_moves: int = 20_000
    forest_engine_nodes: int = 20_000
    forest_engine_moves: int = 2_000
    queries: int = 20_000
    batch_games: int = 10**5
    batch_coins: int = 20

    @classmethod
    def quick(cls, row: int) -> Sizes:
        return cls(row=row, components=200, engine_coins=500, engine_moves=200,
                   forest_engine_nodes=500, forest_engine_moves=100, queries=200,
                   batch_games=200)


@dataclass(frozen=True)
class Workload:
    """One row of the table: ``call`` is timed; ``answer`` turns its result into what both
    sides must agree on; ``clock`` is ``"cpu"`` or ``"wall"``."""

    name: str
    group: str
    call: Callable[[], Any]
    answer: Callable[[Any], Any] = lambda result: result
    clock: str = "cpu"


def _load_families(path: str) -> dict[str, Callable]:
    spec = importlib.util.spec_from_file_location("side_by_side_families", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"side_by_side: cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while it loads
    spec.loader.exec_module(module)
    return dict(module.FAMILIES)


def _moves_line(engine: Any, moves: int) -> list:
    """``moves`` times ``take(best_move())``: the moves taken."""
    taken = []
    for _ in range(moves):
        taken.append(engine.take(engine.best_move()))
    return taken


def _forest_value(game: Callable, values: Any, parents: Any) -> Any:
    return game(forest=(values, parents)).value()


def _workloads(groups: list[str], sizes: Sizes, families_path: str) -> Iterator[Workload]:
    """The workloads of ``groups``, their inputs made from fixed seeds (the same on both
    sides). Made group by group, so that one group's inputs are freed before the next."""
    import numpy as np

    from coinsrow import Engine, Game, Intervals, play, profits, value, values_many

    n = sizes.row
    if "rows" in groups:
        for family, make in _load_families(families_path).items():
            row = make(n, np.random.default_rng(1))
            yield Workload(f"value {family}", "rows", partial(value, row, threads=1))
            yield Workload(f"profits {family}", "rows", partial(profits, row, threads=1))
            yield Workload(f"play {family}", "rows", partial(play, row, threads=1))
    rng = np.random.default_rng(7)
    if "floats" in groups:
        floats = rng.random(n)
        yield Workload("value float64 random", "floats", lambda: value(floats, threads=1))
        yield Workload("profits float64 random", "floats", lambda: profits(floats, threads=1))
    if "threads" in groups:
        big = np.random.default_rng(8).integers(0, 10**9, 8 * n, dtype=np.int64)
        yield Workload(f"value {8 * n:,} coins, threads=2 (wall)", "threads",
                       lambda: value(big, threads=2), clock="wall")
        yield Workload(f"play {8 * n:,} coins, threads=2 (wall)", "threads",
                       lambda: play(big, threads=2), clock="wall")
    if "components" in groups:
        coins = np.random.default_rng(9).integers(
            0, 10**9, (sizes.components, sizes.component_coins), dtype=np.int64)
        half = sizes.components // 2
        rows, stacks = list(coins[:half]), list(coins[half:])
        label = f"{sizes.components:,} components of {sizes.component_coins}"
        yield Workload(f"Game({label}).profits()", "components",
                       lambda: Game(rows=rows, stacks=stacks).profits())
        yield Workload(f"Game({label}).value()", "components",
                       lambda: Game(rows=rows, stacks=stacks).value())
    if "forests" in groups:
        frng = np.random.default_rng(10)
        values = frng.integers(-10**9, 10**9, n, dtype=np.int64)
        parents = (frng.random(n) * np.arange(n)).astype(np.int64)  # a parent before its child
        parents[0] = -1
        labels = frng.permutation(n)
        shuffled = np.empty(n, dtype=np.int64)
        shuffled[labels] = np.where(parents < 0, -1, labels[np.maximum(parents, 0)])
        path = np.arange(-1, n - 1, dtype=np.int64)
        star = np.zeros(n, dtype=np.int64)
        star[0] = -1
        for shape, shaped in (("random", parents), ("shuffled labels", shuffled),
                              ("path", path), ("star", star)):
            yield Workload(f"Game(forest {shape}).value()", "forests",
                           partial(_forest_value, Game, values, shaped))
        yield Workload("Game(forest random).profits()", "forests",
                       lambda: Game(forest=(values, parents)).profits())
    if "engine" in groups:
        erng = np.random.default_rng(11)
        row = erng.integers(0, 10**9, sizes.engine_coins, dtype=np.int64)
        yield Workload(f"Engine(row of {sizes.engine_coins:,}), {sizes.engine_moves:,} moves",
                       "engine", lambda: _moves_line(Engine(row), sizes.engine_moves))
        m = sizes.forest_engine_nodes
        tree = (erng.random(m) * np.arange(m)).astype(np.int64)
        tree[0] = -1
        forest = Game(forest=(erng.integers(-10**9, 10**9, m, dtype=np.int64), tree))
        yield Workload(f"Engine(forest of {m:,}), {sizes.forest_engine_moves:,} moves",
                       "engine", lambda: _moves_line(Engine(forest), sizes.forest_engine_moves))
    if "subrows" in groups:
        srng = np.random.default_rng(12)
        row = srng.integers(0, 10**9, n, dtype=np.int64)
        yield Workload(f"Intervals({n:,} coins)", "subrows", lambda: Intervals(row),
                       answer=lambda built: built.value(0, n))
        intervals = Intervals(row)
        bounds = np.sort(srng.integers(0, n + 1, (sizes.queries, 2)), axis=1)
        starts, stops = bounds[:, 0].copy(), bounds[:, 1].copy()
        yield Workload(f"Intervals.values, {sizes.queries:,} sub-rows", "subrows",
                       lambda: intervals.values(starts, stops))
    if "batch" in groups:
        coins = np.random.default_rng(13).integers(
            0, 1000, sizes.batch_games * sizes.batch_coins, dtype=np.int64)
        lists = coins.reshape(sizes.batch_games, sizes.batch_coins).tolist()
        offsets = np.arange(0, len(coins) + 1, sizes.batch_coins, dtype=np.int64)
        label = f"{sizes.batch_games:,} games of {sizes.batch_coins}"
        yield Workload(f"values_many({label}, lists of ints)", "batch",
                       lambda: values_many(lists, threads=1))
        yield Workload(f"values_many({label}, flat + offsets)", "batch",
                       lambda: values_many(coins, offsets, threads=1))


def _canonical(result: Any) -> Any:
    """``result`` in a form that compares equal across the two sides: NumPy scalars as Python
    numbers, numeric sequences (a list, an ``array.array``, an ndarray) as a hash of their
    int64 or float64 bytes."""
    import numpy as np

    if isinstance(result, np.generic):
        return result.item()
    if isinstance(result, tuple):
        return tuple(_canonical(item) for item in result)
    if isinstance(result, (list, array.array, np.ndarray)):
        if len(result) and not isinstance(result[0], tuple):
            numbers = np.asarray(result)
            if numbers.ndim == 1 and numbers.dtype.kind in "iuf":
                wide = numbers.astype(np.float64 if numbers.dtype.kind == "f" else np.int64)
                return (len(result), numbers.dtype.kind,
                        hashlib.sha256(wide.tobytes()).hexdigest())
        return [_canonical(item) for item in result]
    return result


def _digest(result: Any) -> str:
    """A short text of the answer: itself when short, else a hash of it."""
    text = repr(_canonical(result))
    return text if len(text) <= 80 else "sha256 " + hashlib.sha256(text.encode()).hexdigest()[:20]


def _best_time(call: Callable[[], Any], clock: str, repeats: int) -> float:
    """Seconds a call: the best of ``repeats`` timings of enough calls to last
    ``_TARGET_SECONDS``, the garbage collector off (as ``timeit`` does)."""
    now = time.process_time if clock == "cpu" else time.perf_counter
    gc.collect()
    gc.disable()
    try:
        start = now()
        call()
        once = now() - start
        calls = max(1, int(_TARGET_SECONDS / max(once, 1e-7)))
        best = math.inf
        for _ in range(repeats):
            start = now()
            for _ in range(calls):
                call()
            best = min(best, (now() - start) / calls)
        return best
    finally:
        gc.enable()


def _modules_outside(root: Path) -> list[str]:
    """The ``coinsrow`` modules loaded from anywhere but ``root``."""
    outside = []
    for name, module in list(sys.modules.items()):
        if name != "coinsrow" and not name.startswith("coinsrow."):
            continue
        where = getattr(module, "__file__", None)
        if where is not None and not Path(where).resolve().is_relative_to(root):
            outside.append(f"{name} from {where}")
    return outside


def _time_side(config: dict) -> dict:
    """One round of one side (in its own process): every workload's answer and best time."""
    global _layout_buffer
    _layout_buffer = bytearray(config["layout"])  # kept until the process ends
    root = Path(config["root"]).resolve()
    sys.path.insert(0, str(root))
    import coinsrow

    if not Path(coinsrow.__file__).resolve().is_relative_to(root):
        raise SystemExit(f"side_by_side: coinsrow was imported from {coinsrow.__file__}, "
                         f"not from {root}")
    sizes = Sizes.quick(config["n"]) if config["quick"] else Sizes(row=config["n"])
    rows = []
    for workload in _workloads(config["groups"], sizes, config["families"]):
        answer = _digest(workload.answer(workload.call()))
        outside = _modules_outside(root)
        if outside:
            raise SystemExit(f"side_by_side: {workload.name} loaded coinsrow modules outside "
                             f"{root}: {', '.join(outside)}")
        seconds = _best_time(workload.call, workload.clock, config["repeats"])
        rows.append({"name": workload.name, "group": workload.group, "clock": workload.clock,
                     "seconds": seconds, "answer": answer})
    return {"coinsrow": coinsrow.__file__, "layout": config["layout"], "workloads": rows}


# ---------------------------------------------------------------------------------------------
# The driver: the rounds, the checks across sides, the table

def _git_head(root: Path) -> str:
    try:
        head = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"],
                              capture_output=True, text=True, check=True).stdout.strip()
        changed = subprocess.run(["git", "-C", str(root), "status", "--porcelain",
                                  "--untracked-files=no"],
                                 capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "not a git checkout"
    return head + (" (with uncommitted changes)" if changed else "")


def _cpu() -> str:
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("model name"):
                    return f"{line.split(':', 1)[1].strip()}, {os.cpu_count()} cores"
    except OSError:
        pass
    return f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores"


def _load() -> str:
    try:
        return " ".join(f"{figure:.2f}" for figure in os.getloadavg())
    except OSError:
        return "unknown"


def _run_side(root: Path, config: dict) -> dict:
    command = [sys.executable, str(_HERE), "--time-side",
               json.dumps({**config, "root": str(root)})]
    done = subprocess.run(command, cwd=root, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"side_by_side: the timing process of {root} failed "
                         f"(exit status {done.returncode}):\n{done.stderr.strip()}")
    measured: dict = json.loads(done.stdout)
    return measured


def _check_answers(rounds: list[dict[str, dict]]) -> list[str]:
    """The workloads whose answers differ between the sides or between rounds."""
    first = rounds[0]["before"]["workloads"]
    problems = []
    for side in ("before", "after"):
        for number, measured in enumerate(rounds, 1):
            for expected, row in zip(first, measured[side]["workloads"]):
                if row["name"] != expected["name"]:
                    problems.append(f"round {number}, {side}: {row['name']!r} where "
                                    f"{expected['name']!r} was expected")
                elif row["answer"] != expected["answer"]:
                    problems.append(f"{row['name']}: before (round 1) {expected['answer']}, "
                                    f"{side} (round {number}) {row['answer']}")
    return problems


def _geometric_mean(ratios: list[float]) -> float:
    return math.exp(sum(math.log(r) for r in ratios) / len(ratios))


def _table(rounds: list[dict[str, dict]], flag: float) -> tuple[list[str], dict[str, float]]:
    """The markdown table's lines and each workload's ratio of the best times."""
    names = [row["name"] for row in rounds[0]["after"]["workloads"]]
    groups = {row["name"]: row["group"] for row in rounds[0]["after"]["workloads"]}
    clocks = {row["name"]: row["clock"] for row in rounds[0]["after"]["workloads"]}
    times: dict[str, dict[str, list[float]]] = {"before": {}, "after": {}}
    for measured in rounds:
        for side in times:
            for row in measured[side]["workloads"]:
                times[side].setdefault(row["name"], []).append(row["seconds"])
    lines = ["| workload | clock | before ms | after ms | after/before | rounds | |",
             "|---|---|---:|---:|---:|---|---|"]
    ratios = {}
    for name in names:
        before, after = times["before"][name], times["after"][name]
        ratios[name] = min(after) / min(before)
        per_round = ", ".join(f"{a / b:.3f}" for b, a in zip(before, after))
        mark = "<<" if ratios[name] > flag else ""
        lines.append(f"| {name} | {clocks[name]} | {min(before) * 1e3:.3f} | "
                     f"{min(after) * 1e3:.3f} | {ratios[name]:.3f} | {per_round} | {mark} |")
    lines.append("")
    lines.append(f"Geometric mean of after/before, all {len(ratios)} rows: "
                 f"**{_geometric_mean(list(ratios.values())):.3f}**")
    for group in GROUPS:
        of_group = [ratios[name] for name in names if groups[name] == group]
        if of_group:
            lines.append(f"- {group} ({len(of_group)} rows): {_geometric_mean(of_group):.3f}")
    flagged = [name for name in names if ratios[name] > flag]
    lines.append("")
    lines.append(f"Rows above {flag:g} (marked <<): {len(flagged)}"
                 + (f": {', '.join(flagged)}" if flagged else ""))
    return lines, ratios


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Time two checkouts of coinsrow side by side, in alternating fresh "
                    "processes, and write the before/after table.")
    parser.add_argument("before", type=Path, help="root of the checkout before the change")
    parser.add_argument("after", type=Path, help="root of the checkout after the change")
    parser.add_argument("--rounds", type=int, default=5,
                        help="rounds; each times both sides, before then after (default 5)")
    parser.add_argument("--repeats", type=int, default=20,
                        help="timings a workload a round; its time is the best (default 20)")
    parser.add_argument("--only", default=",".join(GROUPS),
                        help=f"comma-separated workload groups (default all: {','.join(GROUPS)})")
    parser.add_argument("--n", type=int, default=None,
                        help="coins a row, nodes a forest (default 10^6; --quick: 2,000)")
    parser.add_argument("--quick", action="store_true",
                        help="small sizes everywhere: a check that the script runs")
    parser.add_argument("--flag", type=float, default=1.03,
                        help="mark rows whose after/before is above this (default 1.03)")
    parser.add_argument("--families", type=Path, default=None,
                        help="the families file (default AFTER/benchmarks/families.py)")
    parser.add_argument("--out", type=Path, default=_DEFAULT_OUT,
                        help="directory of the markdown table and the JSON of raw times "
                             "(default benchmarks/results/side-by-side/ beside this script)")
    args = parser.parse_args(argv)
    groups = [group.strip() for group in args.only.split(",") if group.strip()]
    unknown = [group for group in groups if group not in GROUPS]
    if unknown or not groups:
        parser.error(f"--only: unknown group {', '.join(unknown) or '(none given)'}; "
                     f"the groups are {', '.join(GROUPS)}")
    args.groups = [group for group in GROUPS if group in groups]
    if args.rounds < 1 or args.repeats < 1:
        parser.error("--rounds and --repeats must be at least 1")
    if args.n is None:
        args.n = 2000 if args.quick else 10**6
    if args.n < 2:
        parser.error("--n must be at least 2")
    for side in ("before", "after"):
        root = getattr(args, side).resolve()
        if not (root / "coinsrow" / "__init__.py").is_file():
            parser.error(f"{side}: {root} is not a checkout of coinsrow (no coinsrow/__init__.py)")
        setattr(args, side, root)
    if args.families is None:
        args.families = args.after / "benchmarks" / "families.py"
    if not args.families.is_file():
        parser.error(f"--families: {args.families} is not a file")
    return args


def main(argv: list[str] | None = None) -> int:
    command = shlex.join(["python", *sys.argv] if argv is None else argv)
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--time-side"]:
        print(json.dumps(_time_side(json.loads(argv[1]))))
        return 0
    args = _arguments(argv)
    started = datetime.now(timezone.utc)
    load_at_start = _load()
    config = {"groups": args.groups, "n": args.n, "quick": args.quick, "repeats": args.repeats,
              "families": str(args.families.resolve())}
    rounds: list[dict[str, dict]] = []
    for number in range(1, args.rounds + 1):
        measured = {}
        for side in ("before", "after"):
            print(f"round {number}/{args.rounds}: {side} ({getattr(args, side)})",
                  file=sys.stderr, flush=True)
            layout = random.Random(f"{number} {side}").randrange(_LAYOUT_BYTES)
            measured[side] = _run_side(getattr(args, side), {**config, "layout": layout})
        rounds.append(measured)
        problems = _check_answers(rounds)
        if problems:
            print("side_by_side: the two sides' answers differ:", file=sys.stderr)
            for problem in problems:
                print(f"  {problem}", file=sys.stderr)
            return 1
    seconds = (datetime.now(timezone.utc) - started).total_seconds()
    lines, ratios = _table(rounds, args.flag)
    header = [
        "# Side by side: after/before",
        "",
        f"- command: `{command}`",
        f"- before: {args.before} at {_git_head(args.before)}",
        f"- after: {args.after} at {_git_head(args.after)}",
        f"- workloads from: {args.families}",
        f"- date: {started:%Y-%m-%d %H:%M} UTC; {args.rounds} round(s) (before, after, ...), "
        f"{seconds:.0f} s in all",
        f"- CPU: {_cpu()}; Python {platform.python_version()}",
        f"- load averages (1, 5, 15 min): {load_at_start} at the start, {_load()} at the end",
        "- a time is the best over all rounds of the best of "
        f"{args.repeats} timings of at least {_TARGET_SECONDS * 1e3:g} ms; each process shifts "
        "its heap by a random allocation; cpu: time.process_time on one thread, wall: "
        "time.perf_counter",
        "",
    ]
    text = "\n".join(header + lines) + "\n"
    print(text)
    args.out.mkdir(parents=True, exist_ok=True)
    stem = args.out / f"{started:%Y%m%dT%H%M%SZ}"
    stem.with_suffix(".md").write_text(text)
    raw = {"command": command, "date": started.isoformat(), "seconds": seconds,
           "cpu": _cpu(), "python": platform.python_version(),
           "load": {"start": load_at_start, "end": _load()},
           "before": {"root": str(args.before), "head": _git_head(args.before)},
           "after": {"root": str(args.after), "head": _git_head(args.after)},
           "families": str(args.families), "config": config, "flag": args.flag,
           "ratios": ratios, "rounds": rounds}
    stem.with_suffix(".json").write_text(json.dumps(raw, indent=1) + "\n")
    print(f"written: {stem.with_suffix('.md')}, {stem.with_suffix('.json')}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
