"""One row on several threads: value, profits and play with ``threads=k`` are those of one
thread (the DP agrees), on every shape of row, int64 overflow and floats included; the
parts' stitching on its own (``parts``); Ctrl-C stops long rows.

The row is cut into parts reduced on their own and stitched at the seams (docs/rows.md):
``threads=k`` cuts a row into several parts even when it is short, so that small rows,
checked against the DP, go through the stitching too.
"""

from __future__ import annotations

import math
import os
import random
import signal
import subprocess
import sys
import textwrap
import threading
import time
from array import array
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
from alarms import CtrlC, raised_in, stop_after

import coinsrow
from coinsrow import _core, play, profits, value
from coinsrow._threads import row_split

from checks import check_play
from generators import random_row
from modes import drawn, machine_only, scaled
from oracles import dp_value

THREADS = (1, 2, 3, 7)


# -- the families of the benchmark, small --------------------------------------------------------


def pe477(n: int, modulus: int = 1_000_000_007) -> list[int]:
    """Project Euler 477's coins: s(1) = 0, s(i+1) = (s(i)^2 + 45) mod 1000000007."""
    out, s = [], 0
    for _ in range(n):
        out.append(s)
        s = (s * s + 45) % modulus
    return out


def family(name: str, rng: random.Random, n: int, high: int = 10**9) -> list[int]:
    """A row of n int coins of one of the benchmark's families (small values make ties)."""
    if name == "random":
        return [rng.randrange(high) for _ in range(n)]
    if name == "pe477":
        start = rng.randrange(50)
        return pe477(start + n, rng.choice([1_000_000_007, 97, 13]))[start:]
    if name == "ascending":
        return sorted(rng.randrange(high) for _ in range(n))
    if name == "descending":
        return sorted((rng.randrange(high) for _ in range(n)), reverse=True)
    if name == "valley":
        coins = sorted(rng.randrange(high) for _ in range(n))
        return coins[0::2][::-1] + coins[1::2]
    if name == "peak":
        coins = sorted(rng.randrange(high) for _ in range(n))
        return coins[0::2] + coins[1::2][::-1]
    if name == "alternating":
        return [rng.randrange(1000) + (high if k % 2 == 0 else 0) for k in range(n)]
    if name == "all equal":
        return [rng.randrange(-3, 4)] * n
    if name == "few distinct":
        return [rng.randrange(4) for _ in range(n)]
    if name == "sawtooth":
        tooth = rng.randint(2, 40)
        return [(k % tooth) * 1000 + rng.randrange(1000) for k in range(n)]
    raise ValueError(name)


FAMILIES = ("random", "pe477", "ascending", "descending", "valley", "peak", "alternating",
            "all equal", "few distinct", "sawtooth")


def small_row(rng: random.Random, n: int) -> list[int]:
    """A family's row with small coins (many ties), or one of the tests' random styles."""
    if rng.random() < 0.5:
        return family(rng.choice(FAMILIES), rng, n, high=rng.choice([5, 50, 10**9]))
    return random_row(rng, n)


# -- every thread count against the DP ----------------------------------------------------------


@pytest.mark.slow
def test_every_thread_count_against_the_dp_on_every_family():
    rng = random.Random(2101)
    for _ in range(scaled(drawn(600))):
        row = small_row(rng, rng.randint(0, 40))
        arr = np.array(row, dtype=np.int64) if all(abs(x) < 2**62 for x in row) else row
        want = dp_value(row)
        total = sum(row)
        moves1 = list(play(arr, threads=1))
        check_play(row, moves1)
        for k in THREADS:
            assert value(arr, threads=k) == want, (row, k)
            assert profits(arr, threads=k) == ((total + want) // 2, (total - want) // 2), (row, k)
            assert list(play(arr, threads=k)) == moves1, (row, k)


def test_families_of_a_thousand_coins_agree_across_thread_counts():
    rng = random.Random(2102)
    for name in FAMILIES:
        for n in (1, 2, 3, 64, 65, scaled(1000)):
            row = family(name, rng, n)
            arr = np.array(row, dtype=np.int64)
            answers = {k: (value(arr, threads=k), profits(arr, threads=k),
                           list(play(arr, threads=k))) for k in THREADS}
            assert len(set(map(repr, answers.values()))) == 1, (name, n)
            if n <= 200:
                assert answers[1][0] == dp_value(row)
                check_play(row, answers[1][2])


@pytest.mark.slow
@pytest.mark.parametrize("name", FAMILIES)
def test_long_rows_agree_with_the_one_part_kernel(name):
    """Rows long enough for runs of unwritten coins and many parts: every thread count gives
    what one thread gives, and the row kernel what the whole-game kernel gives."""
    rng = random.Random(hash(name) % 1000)
    n = scaled(200_000, 20)
    row = np.array(family(name, rng, n), dtype=np.int64)
    starts, stops = array("q", [0]), array("q", [n])
    want = _core.game_value(row, starts, stops, 1)[1]
    moves1 = play(row, threads=1)
    for k in THREADS:
        assert value(row, threads=k) == want
        assert play(row, threads=k) == moves1
    first, second = profits(row, threads=3)
    assert first + second == int(row.sum()) and first - second == want


@pytest.mark.slow
def test_parts_and_stitching_on_their_own():
    """The kernels with 1 to 8 parts in the calling thread, machine and twin, against the DP:
    the seams fall anywhere, in runs of ties and in Fusions."""
    rng = random.Random(2103)
    for _ in range(scaled(drawn(6000))):
        row = small_row(rng, rng.randint(0, 30))
        if not all(abs(x) < 2**62 for x in row):
            continue
        arr = np.array(row, dtype=np.int64)
        want = dp_value(row)
        total = sum(row)
        moves = _core.row_play(arr, 1, 1)[1]
        for parts in range(1, 9):
            for kernel, coins in ((_core.row_value, arr), (_core.row_value_exact, row)):
                assert kernel(coins, parts, 1) == (_core.Status.OK, want), (row, parts)
            assert _core.row_profits_exact(row, parts, 1) == (
                _core.Status.OK, ((total + want) // 2, (total - want) // 2))
            assert _core.row_play(arr, parts, 1)[1] == moves
            assert list(_core.row_play_exact(row, parts, 1)[1]) == list(moves)


def test_thread_count_choice():
    assert row_split(10, 1) == (1, 1)
    assert row_split(0, 4) == (1, 1)
    parts, threads = row_split(10, 7)
    assert threads == min(7, os.cpu_count() or 1) and 7 <= parts <= 10
    assert row_split(100, None) == (1, 1)  # a short row: one thread pays off best
    parts, threads = row_split(10**9, 2)
    assert threads == 2 and parts * (1 << 22) >= 10**9
    for bad in (0, -1):
        with pytest.raises(ValueError, match="threads must be at least 1"):
            value([1, 2], threads=bad)
    for bad in (1.5, "2", True):
        with pytest.raises(TypeError):
            value([1, 2], threads=bad)


# -- int64 overflow, big ints, exact numbers ------------------------------------------------------


@pytest.mark.slow
def test_int64_overflow_falls_back_exactly_on_every_thread_count():
    rng = random.Random(2104)
    edges = [2**63 - 1, -(2**63), 2**62, -(2**62), 0, 1, -1]
    for _ in range(scaled(drawn(150))):
        n = rng.randint(1, 30)
        row = [rng.choice(edges) if rng.random() < 0.6 else rng.randint(-9, 9) for _ in range(n)]
        arr = np.array(row, dtype=np.int64)
        want = dp_value(row)
        total = sum(row)
        for k in THREADS:
            got = value(arr, threads=k)
            assert got == want and type(got) is int, (row, k)
            assert profits(arr, threads=k) == ((total + want) // 2, (total - want) // 2)
            check_play(row, play(arr, threads=k))


def test_big_ints_fractions_and_decimals_on_threads():
    rng = random.Random(2105)
    for _ in range(scaled(100)):
        ints = small_row(rng, rng.randint(1, 25))
        for row in ([x * 2**70 + 1 for x in ints], [Fraction(x, 7) for x in ints],
                    [Decimal(x) / 4 for x in ints]):
            want = dp_value(row)
            for k in THREADS:
                assert value(row, threads=k) == want
                assert list(play(row, threads=k)) == list(play(row, threads=1))


# -- floats ---------------------------------------------------------------------------------------


@pytest.mark.slow
def test_floats_are_bit_for_bit_those_of_one_thread():
    """Floats whose every signed sum is exact (integers, halves) are cut into parts; others
    are not (a new order of the additions could round differently). Either way the answers,
    rounding included, are one thread's."""
    rng = random.Random(2106)
    for _ in range(scaled(drawn(400))):
        ints = small_row(rng, rng.randint(1, 40))
        if not all(abs(x) < 2**40 for x in ints):
            continue
        scale = rng.choice([1.0, 0.5, 0.1, 1e-300, 1e290, 3.7])
        arr = np.array(ints, dtype=np.float64) * scale
        want = (value(arr, threads=1), profits(arr, threads=1), list(play(arr, threads=1)))
        assert math.copysign(1.0, want[0]) == 1.0 or want[0] != 0  # never -0.0
        for k in THREADS:
            got = (value(arr, threads=k), profits(arr, threads=k), list(play(arr, threads=k)))
            assert repr(got) == repr(want), (list(arr), k)
        if scale == 1.0:
            assert want[0] == dp_value(ints)


@pytest.mark.slow
@machine_only
def test_exact_floats_are_cut_into_parts_and_others_are_not():
    """The parts really run for exact floats: the float kernel with parts equals the twin
    with parts on the same numbers (which stitches them), and equals one part."""
    rng = random.Random(2107)
    for _ in range(drawn(200)):
        ints = small_row(rng, rng.randint(2, 60))
        if not all(abs(x) < 2**40 for x in ints):
            continue
        arr = np.array(ints, dtype=np.float64)
        for parts in (2, 3, 5):
            assert _core.row_value(arr, parts, 1) == _core.row_value(arr, 1, 1)
            assert _core.row_value(arr, parts, 1)[1] == dp_value(ints)
            assert _core.row_play(arr, parts, 1)[1] == _core.row_play(arr, 1, 1)[1]
            assert _core.row_profits(arr, parts, 2) == _core.row_profits(arr, 1, 1)


@pytest.mark.slow
def test_long_float_rows_agree_across_thread_counts():
    rng = random.Random(2108)
    n = scaled(100_000, 10)
    for scale in (1.0, 0.1):
        for name in ("random", "valley", "sawtooth"):
            arr = np.array(family(name, rng, n, high=10**6), dtype=np.float64) * scale
            want = (value(arr, threads=1), profits(arr, threads=1), play(arr, threads=1))
            for k in (2, 3):
                assert (value(arr, threads=k), profits(arr, threads=k),
                        play(arr, threads=k)) == want


@pytest.mark.slow
def test_huge_floats_on_threads():
    """Rows near the float range: every thread count gives one thread's answer (and
    ``Game``'s); where the machine's sums overflow, the exact answer rounded once."""
    big = 1.6e308
    rng = random.Random(2109)
    for _ in range(scaled(drawn(200))):
        row = [rng.choice([big, -big, 1.0, -3.0, 2.5e307]) for _ in range(rng.randint(1, 12))]
        want = value(row, threads=1)
        assert repr(want) == repr(coinsrow.Game(rows=[row]).value())
        for k in THREADS:
            assert repr(value(row, threads=k)) == repr(want)
            assert repr(profits(row, threads=k)) == repr(profits(row, threads=1))
    # Each player's two bigs overflow the machine's sums (inf - inf): redone exactly.
    row = [big, big, big, big]
    for k in THREADS:
        assert value(row, threads=k) == float(dp_value([Fraction(x) for x in row])) == 0.0


def test_not_finite_is_refused_on_threads():
    for k in THREADS:
        for bad in (math.nan, math.inf):
            row = np.array([1.0, 2.0, 3.0, bad, 5.0, 6.0], dtype=np.float64)
            with pytest.raises(ValueError, match="index 3"):
                value(row, threads=k)
            with pytest.raises(ValueError, match="index 3"):
                play(row, threads=k)


# -- Ctrl-C ----------------------------------------------------------------------------------------


def _call_repeatedly(times, function, *args, **kwargs):
    """``function(*args, **kwargs)`` ``times`` times: long enough for a signal to come."""
    for _ in range(times):
        function(*args, **kwargs)


@pytest.mark.slow
@machine_only
@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="needs setitimer (POSIX)")
@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("shape", ["sawtooth", "staircase"])
def test_a_signal_stops_a_long_machine_row(threads, shape):
    """A signal handler runs between steps of the loop and its exception stops the kernel
    (on threads: the call, whose workers then stop at their next step); on a staircase down,
    between the chunks of plays that compact its plateaus first."""
    n = 10_000_000
    if shape == "sawtooth":
        row = np.arange(n, dtype=np.int64) % 1000  # Fusions and runs
    else:
        # Ten levels down, again and again, each coin repeated 1.5 times on average.
        lengths = np.random.default_rng(0).geometric(2 / 3, n)
        row = np.repeat(9 - np.arange(n, dtype=np.int64) % 10, lengths)[:n]
        assert _core._row_shapes.compaction_pays(row.tobytes())
    value(row[:100], threads=threads)
    # The handler may also run between two calls (in Python code): a kernel that never
    # looked at signals would be stopped only there, so one stop inside it in a few tries
    # is what this asks.
    # The alarm comes at a different moment of a call each try: at one fixed delay it can
    # keep landing in the same phase of the calls (the end of one, in Python).
    inside = []
    for k in range(5):  # (each call is a fraction of a second)
        stop = stop_after(0.05 + 0.017 * k,
                          lambda: _call_repeatedly(100, play, row, threads=threads))
        inside.append(raised_in(stop, ("_one_row.pyx", "_row_stack.pyx", "_rows_exact.pyx")))
        if inside[-1]:
            break
    assert any(inside), inside
    assert value(row[:6], threads=threads) == dp_value(list(row[:6]))


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="needs setitimer (POSIX)")
@pytest.mark.parametrize("kernel", ["row_value_exact", "row_profits_exact", "row_play_exact"])
def test_a_signal_stops_the_exact_twin_on_big_ints(kernel):
    """The twins' loops hold the GIL: they run the signal handlers now and then."""
    row = [2**64 + (k % 1000) for k in range(3_000_000)]
    twin = getattr(_core, kernel)
    twin(row[:10], 1, 1)
    assert raised_in(stop_after(0.05, lambda: _call_repeatedly(100, twin, row, 1, 1)),
                     ("_one_row.pyx", "_row_stack.pyx", "_rows_exact.pyx"))


@pytest.mark.slow
def test_ctrl_c_in_a_process_running_one_long_row():
    """SIGINT to a process busy with long rows (machine kernels, on threads too, and the
    exact twin): it ends with KeyboardInterrupt, not after finishing its work."""
    script = textwrap.dedent("""
        import sys
        import numpy as np
        import coinsrow
        kind = sys.argv[1]
        if kind == "objects":
            row = [2**64 + (k % 1000) for k in range(3_000_000)]
        else:
            row = np.arange(10_000_000, dtype=np.int64) % 1000
        print("ready", flush=True)
        for _ in range(10_000):
            coinsrow.play(row, threads=2 if kind == "threads" else 1)
        print("finished", flush=True)
    """)
    if sys.platform == "win32":  # pragma: no cover
        pytest.skip("SIGINT to a child process is POSIX")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    for kind in ("int64", "threads", "objects"):
        child = subprocess.Popen([sys.executable, "-c", script, kind], stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True, env=env)
        try:
            assert child.stdout.readline().strip() == "ready"
            threading.Event().wait(0.3)
            child.send_signal(signal.SIGINT)
            out, err = child.communicate(timeout=120)  # a guard against a hang, not a timing
        finally:
            child.kill()
        assert "finished" not in out
        assert "KeyboardInterrupt" in err, err[-2000:]
        assert child.returncode != 0


def _play_until(deadline: float, row: np.ndarray) -> None:
    while time.monotonic() < deadline:
        play(row, threads=2)


# A KeyboardInterrupt raised inside a finaliser is reported as unraisable (and dropped):
# Python's behaviour, not the kernel's; the next press is the one that counts.
@pytest.mark.slow
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_ctrl_c_raises_keyboard_interrupt_in_this_process():
    if threading.current_thread() is not threading.main_thread():  # pragma: no cover
        pytest.skip("signals are handled in the main thread only")
    row = np.arange(scaled(20_000_000, 100), dtype=np.int64) % 1000
    play(row[:10])
    # What Ctrl-C does, every half second: Python drops a KeyboardInterrupt that its handler
    # raises while a finaliser runs, and a user then presses Ctrl-C again.
    presses = CtrlC(0.1, lambda: 0.5)
    # Bounded: interrupts that all got lost fail here instead of hanging the suite.
    deadline = time.monotonic() + 120
    try:
        with pytest.raises(KeyboardInterrupt):
            _play_until(deadline, row)
    finally:
        presses.stop()
    assert value([1, 2, 3], threads=2) == 2
