"""Ctrl-C in every long loop: KeyboardInterrupt at once, and nothing left half-done.

Each test runs a long call in a child process, sends it SIGINT (what Ctrl-C sends) once the
call is under way, and checks that KeyboardInterrupt came out of the loop itself: its
traceback ends in the compiled file of the loop, where a loop that never looked at signals
would only raise after returning, from its Python caller. The time from the signal to the
exception is printed (``pytest -s``) and must be well within a few seconds, while every call
here runs for several seconds at least when left alone. In the exact mode
(``COINSROW_EXACT=1``, inherited by the child) the same calls run the exact twins.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from coinsrow import Engine, Game
from coinsrow._dispatch import EXACT

from modes import drawn, scaled

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGINT") or sys.platform == "win32",
                                reason="sends SIGINT to a child process (POSIX)")

# The child: SETUP, a warm-up, "ready" on stdout, then the CALL; on KeyboardInterrupt it
# prints when it was raised and in which file the traceback ends, and exits. The loops look
# at signals through the shared inline helper of _signals.pxd, whose frame ends every
# traceback: the file reported is that of the loop that called it.
CHILD = """
import json, sys, time, traceback
{setup}
print("ready", flush=True)
try:
    {call}
except KeyboardInterrupt as error:
    frames = [frame for frame in traceback.extract_tb(error.__traceback__)
              if not frame.filename.endswith("_signals.pxd")]
    print(json.dumps({{"raised": time.time(), "file": frames[-1].filename,
                      "function": frames[-1].name, "state": {state}}}), flush=True)
    sys.exit(0)
print(json.dumps({{"finished": time.time()}}), flush=True)
"""


def interrupt(setup: str, call: str, state: str = "None", delay: float = 0.4) -> dict:
    """Run ``call`` in a child, SIGINT it ``delay`` seconds after it starts; the child's
    report, with "latency" (seconds from the signal to the exception)."""
    code = CHILD.format(setup=textwrap.dedent(setup), call=call, state=state)
    child = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "ready", child.stderr.read()
        time.sleep(delay)
        sent = time.time()
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert out.strip(), err
    report = json.loads(out.splitlines()[-1])
    assert "raised" in report, f"the call finished before the signal: {report}, {err}"
    report["latency"] = report["raised"] - sent
    print(f"\n{call}: KeyboardInterrupt {1000 * report['latency']:.0f} ms after SIGINT, "
          f"in {Path(report['file']).name} ({report['function']})")
    assert child.returncode == 0, err
    return report


# Modules of a kernel's steps, whose loops its calls run too: a window structure's heights
# and static forests are built in _window_forests.
STEPS = {"_window.pyx": {"_window_forests.pyx"}}


def check(report: dict, loop_file: str, twin_runs: bool = False) -> None:
    # In the exact mode (or on numbers only the twin takes, ``twin_runs``) the twin beside the
    # kernel's module runs the loop: the signal may land in its own code or in the kernel
    # module's signal helper that it calls.
    twin_file = loop_file.replace(".pyx", "_exact.pyx")
    files = {loop_file, twin_file} if EXACT or twin_runs else {loop_file}
    files |= STEPS.get(loop_file, set())
    assert Path(report["file"]).name in files, report
    # Generous: the machine is shared; a loop that never looks at signals takes seconds.
    assert report["latency"] < 3.0, report


NUMPY_ROW = "import numpy as np\nrow = np.random.default_rng(1).integers(-10**6, 10**6, {n})\n"


@pytest.mark.slow
def test_pizza_of_millions_of_slices():
    n = 2 * 10**5 if EXACT else 2 * 10**6
    report = interrupt(NUMPY_ROW.format(n=n) + "from coinsrow import pizza\npizza(row[:50])",
                       "pizza(row)")
    check(report, "_window.pyx")


@pytest.mark.slow
def test_pizza_of_floats():
    n = 2 * 10**5 if EXACT else 2 * 10**6
    report = interrupt(NUMPY_ROW.format(n=n) + "row = row / 7\nfrom coinsrow import pizza\n"
                       "pizza(row[:50])", "pizza(row)")
    check(report, "_window.pyx")


@pytest.mark.slow
def test_building_an_engine_of_millions_of_coins():
    n = 10**6 if EXACT else 10**7
    report = interrupt(NUMPY_ROW.format(n=n) + "from coinsrow import Engine\nEngine(row[:50])",
                       "Engine(row)")
    check(report, "_window.pyx")


@pytest.mark.slow
def test_building_an_engine_of_many_rows_and_stacks():
    n = 10**6 if EXACT else 5 * 10**6
    setup = NUMPY_ROW.format(n=n) + textwrap.dedent("""
        from coinsrow import Engine, Game
        parts = np.split(row, 1000)
        game = Game(rows=parts[:500], stacks=parts[500:])
        Engine(Game(rows=[row[:9]], stacks=[row[9:20]]))
        """)
    check(interrupt(setup, "Engine(game)"), "_window.pyx")


@pytest.mark.slow
def test_exact_twins_on_big_ints():
    """Python ints beyond int64 run the exact twins of the window structure."""
    setup = textwrap.dedent("""
        import random
        from coinsrow import Engine, pizza
        rng = random.Random(1)
        row = [rng.randrange(2**70) for _ in range(300_000)]
        Engine(row[:50]); pizza(row[:50])
        """)
    # Early: while the boundaries are sorted; later (most of a pizza's time, which is about
    # 2.6 s here): while the window slides.
    # The twins' loops look at signals through _window's helper, and between the pieces of
    # the boundaries' sort in their own code (_w_order): the last frame is in either module.
    check(interrupt(setup, "Engine(row)"), "_window.pyx", twin_runs=True)
    check(interrupt(setup, "pizza(row)", delay=1.2), "_window.pyx", twin_runs=True)


@pytest.mark.slow
def test_batch_exact_games():
    """values_many of games beyond int64 on Python ints; in the exact mode every game."""
    setup = textwrap.dedent("""
        import random
        from coinsrow import values_many
        rng = random.Random(1)
        games = [[rng.randrange(2**70) for _ in range(3)] for _ in range(200_000)]
        values_many(games[:5])
        """)
    report = interrupt(setup, "[values_many(games) for _ in range(100)]")
    assert report["latency"] < 3.0


@pytest.mark.slow
def test_an_engine_interrupted_while_playing_stays_consistent():
    """Ctrl-C while an Engine plays move after move: the engine the child is left with is
    the position of the moves made (the structure and its bookkeeping agree), and plays on."""
    n = 2 * 10**5 if EXACT else 10**6
    setup = NUMPY_ROW.format(n=n) + textwrap.dedent("""
        from coinsrow import Engine, Game
        engine = Engine(Game(rows=[row[: len(row) // 2]], stacks=[row[len(row) // 2:]]))
        played = []

        def consistent():
            game = engine.game
            again = Engine(game)
            rows, stacks = game.rows, game.stacks
            # The interrupted move was made, or not made: never half made.
            taken = len(row) - len(engine)
            ok = (len(engine) == len(game) and taken in (len(played), len(played) + 1)
                  and engine.value() == again.value()
                  and engine.best_move() == again.best_move()
                  and len(rows[0]) + len(stacks[0]) == len(engine))
            engine.take(engine.best_move())
            return ok and engine.value() == Engine(engine.game).value()
        """)
    call = "while len(engine) > 2:\n        played.append(engine.take(engine.moves()[-1]))"
    report = interrupt(setup, call, state="consistent()")
    assert report["state"] is True, report
    assert report["latency"] < 3.0


# -- the same in the test process, without signals: an interrupt between the structure's pop
# and the engine's bookkeeping (where a signal raised after the compiled pop returns lands)


class _InterruptAfterPop:
    """A window structure that raises KeyboardInterrupt right after (or instead of) a pop."""

    def __init__(self, windows, pop_first: bool) -> None:
        self._windows = windows
        self._pop_first = pop_first

    def __getattr__(self, name):
        return getattr(self._windows, name)

    def pop_left(self, c):
        if self._pop_first:
            self._windows.pop_left(c)
        raise KeyboardInterrupt

    def pop_right(self, c):
        if self._pop_first:
            self._windows.pop_right(c)
        raise KeyboardInterrupt


@pytest.mark.parametrize("pop_first", [True, False])
def test_engine_bookkeeping_follows_the_structure_after_an_interrupt(pop_first):
    start = Game(rows=[[3, 1, 4, 1, 5], [9, 2, 6]], stacks=[[5, 3, 5]])
    for move in start.moves():
        engine = Engine(start)
        windows = engine._windows
        engine._windows = _InterruptAfterPop(windows, pop_first)
        with pytest.raises(KeyboardInterrupt):
            engine.take(move)
        engine._windows = windows
        expected = start.take(move) if pop_first else start
        assert engine.game == expected and len(engine) == len(expected)
        assert engine.value() == expected.value()
        assert engine.best_move() == Engine(expected).best_move()
        while len(engine):  # and it plays on, optimally
            best = engine.best_move()
            expected = expected.take(best)
            engine.take(best)
            assert engine.value() == expected.value()


def _play_out(engine):
    """Play the engine down to two coins. A function of its own: CPython 3.13.0 does not
    catch a KeyboardInterrupt raised at a loop's back edge directly inside a ``try`` (the
    exception leaves the frame), whereas one raised in a called frame is caught."""
    while len(engine) > 2:
        engine.take(engine.moves()[-1])


@pytest.mark.slow
def test_interrupts_at_random_moments_of_play_leave_engines_consistent():
    """Ctrl-C (``_thread.interrupt_main``, as the signal handler does) at random moments
    while an engine plays; after each, the engine is its own game, and plays on."""
    import _thread
    import random
    import threading

    if threading.current_thread() is not threading.main_thread():  # pragma: no cover
        pytest.skip("interrupts reach the main thread only")
    rng = random.Random(2)
    n = scaled(20_000)
    row = [rng.randint(-1000, 1000) for _ in range(n)]
    for _ in range(drawn(12)):
        engine = Engine(Game(rows=[row[:n // 2]], stacks=[row[n // 2:]]))
        timer = threading.Timer(rng.uniform(0.005, 0.06), _thread.interrupt_main)
        try:
            timer.start()
            _play_out(engine)
            timer.join()
            time.sleep(0.01)  # the interrupt lands here if the play was faster
        except KeyboardInterrupt:
            pass
        finally:
            timer.cancel()
        game = engine.game
        assert len(engine) == len(game) == sum(map(len, game.rows + game.stacks))
        assert engine.value() == Engine(game).value() == game.value()
        assert engine.best_move() == Engine(game).best_move()


# The child of the forest test: a random recursive tree (parents[i] uniform in [0, i)), then
# rounds of value() or profits() on a fresh Game, each announced by "go" on stdout; after a
# KeyboardInterrupt (or a call that ended first, then the signal) it reports, then checks
# that the same Game answers as an uninterrupted one did, and goes on.
# What each round of the children below runs: "go", then the call, until it ends or the
# signal comes (during the call, or during the sleep after a call that ended first).
CHILD_ROUND = """
def interrupted_round(call, report):
    try:
        print("go", flush=True)
        report["started"] = time.time()
        call()
        report["finished"] = time.time()
    except KeyboardInterrupt:
        report["raised"] = time.time()
    else:
        try:
            time.sleep(30)  # the signal comes during the sleep
        except KeyboardInterrupt:
            pass
"""

FOREST_CHILD = """
import json, sys, time
import numpy as np
from coinsrow import Game
{round_function}
rng = np.random.default_rng(7)
n = {n}
parents = np.empty(n, dtype=np.int64)
parents[0] = -1
parents[1:] = (rng.random(n - 1) * np.arange(1, n)).astype(np.int64)
values = rng.integers(-10**9, 10**9, n)
expected, seconds = {{}}, {{}}
for method in ("value", "profits"):
    start = time.perf_counter()
    answer = getattr(Game(forest=(values, parents)), method)()
    seconds[method] = time.perf_counter() - start
    expected[method] = answer if method == "value" else tuple(answer)
print(json.dumps([seconds["value"], seconds["profits"]]), flush=True)
for round in range({rounds}):
    method = "value" if round % 2 == 0 else "profits"
    game = Game(forest=(values, parents))
    report = {{"method": method}}
    interrupted_round(getattr(game, method), report)
    answer = getattr(game, method)()
    report["usable"] = (answer if method == "value" else tuple(answer)) == expected[method]
    print(json.dumps(report), flush=True)
"""


def signals_at_random_moments(code: str, rounds: int, seed: int) -> tuple[list[float], str]:
    """Run the child ``code``: it prints the seconds of an uninterrupted call of each of its
    two kinds (a JSON list), then for each round "go" as the round's call starts and a JSON
    report after it (``usable``: the objects answer right; ``raised``: when KeyboardInterrupt
    came), then anything else up to its exit. SIGINT goes at a random moment of each call.
    Returns the latencies of the signals that landed in a call, and the child's last line."""
    import queue
    import random
    import threading

    rng = random.Random(seed)
    child = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(text) for text in child.stdout] + [lines.put("")],
                     daemon=True).start()

    def line(timeout: float) -> str:
        try:
            text = lines.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError("no answer from the child: it hangs after SIGINT") from None
        assert text, f"the child died (exit code {child.wait()}): {child.stderr.read()}"
        return text.strip()

    latencies = []
    last = ""
    try:
        seconds = json.loads(line(300))  # an uninterrupted call of each kind
        for turn in range(rounds):
            assert line(120) == "go"
            # Anywhere in the call (most of its time is in the kernel).
            time.sleep(rng.uniform(0.0, seconds[turn % 2]))
            sent = time.time()
            child.send_signal(signal.SIGINT)
            # The report follows a whole uninterrupted call (is the object usable?): on a
            # loaded machine that call alone can take many times its first measure.
            report = json.loads(line(30 + 20 * max(seconds)))
            assert report["usable"], report
            if "raised" in report:
                latencies.append(report["raised"] - sent)
                assert report["raised"] >= sent, (report, sent)
        while text := lines.get(timeout=300):  # up to the end of its output
            last = text.strip()
        child.wait(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
        child.wait()
    print(f"\n{len(latencies)} of {rounds} signals inside the call; latencies (ms): "
          f"{sorted(round(1000 * t) for t in latencies)}")
    assert child.returncode == 0, child.stderr.read()
    assert latencies, "no signal landed inside a call"
    return latencies, last


def test_interrupts_at_random_moments_of_big_forests():
    """SIGINT at random moments during value() and profits() of a 2*10^6-node random
    recursive tree: each call ends with KeyboardInterrupt within a second (never a hang, a
    crash or an ignored signal), and the Game answers right afterwards."""
    n = 2 * 10**5 if EXACT else 2 * 10**6
    rounds = drawn(8)
    code = FOREST_CHILD.format(n=n, rounds=rounds, round_function=CHILD_ROUND)
    latencies, _ = signals_at_random_moments(code, rounds, 11)
    assert max(latencies) < 1.0, latencies


# The child of the Intervals test: the row (int64 coins, and the same divided by 7 as
# float64), a small Intervals built first, then rounds of building Intervals of the whole
# row, each announced by "go"; after a KeyboardInterrupt (or a build that ended first, then
# the signal) it reports whether the row, the small Intervals and a new Intervals of a slice
# still answer as before the rounds; at the end one uninterrupted build answers as the first.
INTERVALS_CHILD = """
import json, time
import numpy as np
from coinsrow import Intervals
{round_function}
rng = np.random.default_rng(5)
rows = [rng.integers(-10**6, 10**6, {n})]
rows.append(rows[0] / 7)
copies = [row.copy() for row in rows]
starts = rng.integers(0, {n}, 50)
stops = starts + rng.integers(0, {n} // 4, 50)
small = Intervals(rows[0][:3000])
small_answers = list(small.values(starts % 3000, stops % 3001))
expected, seconds = [], []
for row in rows:
    start = time.perf_counter()
    whole = Intervals(row)
    seconds.append(time.perf_counter() - start)
    expected.append(list(whole.values(starts, stops)))
    del whole
print(json.dumps(seconds), flush=True)


def usable(kind):
    return (all(np.array_equal(row, copy) for row, copy in zip(rows, copies))
            and list(small.values(starts % 3000, stops % 3001)) == small_answers
            and Intervals(rows[kind][:5000]).value(7, 4000)
            == Intervals(list(rows[kind][:5000])).value(7, 4000))


for round in range({rounds}):
    kind = round % 2
    report = {{"kind": kind}}
    interrupted_round(lambda: Intervals(rows[kind]), report)
    report["usable"] = usable(kind)
    print(json.dumps(report), flush=True)
again = [list(Intervals(row).values(starts, stops)) for row in rows]
print(json.dumps({{"same": again == expected}}), flush=True)
"""


@pytest.mark.slow
def test_interrupts_at_random_moments_of_building_intervals():
    """SIGINT at random moments while Intervals of millions of coins (int64, float64) are
    built: each build ends with KeyboardInterrupt within a second (never a hang, a crash or
    an ignored signal); the row, the Intervals built before and new ones answer right."""
    n = 2 * 10**5 if EXACT else 3 * 10**6
    rounds = drawn(6)
    code = INTERVALS_CHILD.format(n=n, rounds=rounds, round_function=CHILD_ROUND)
    latencies, last = signals_at_random_moments(code, rounds, 13)
    assert max(latencies) < 1.0, latencies
    assert json.loads(last) == {"same": True}


@pytest.mark.slow
def test_building_intervals_raises_from_its_loops():
    """KeyboardInterrupt comes out of the build's own loops (the heavy paths, the keys, the
    static forests), not after the build returns."""
    n = 2 * 10**5 if EXACT else 6 * 10**6
    report = interrupt(NUMPY_ROW.format(n=n) + "from coinsrow import Intervals\n"
                       "Intervals(row[:50])", "Intervals(row)", delay=0.3)
    assert Path(report["file"]).name in {"_subrows.pyx", "_subrows_core.pyx",
                                         "_subrows_exact.pyx", "_window_forests.pyx",
                                         "_window_exact.pyx"}
    assert report["latency"] < 3.0, report
