"""Many threads at once on shared NumPy arrays and shared Games: every answer checked.

The kernels run without the GIL, so calls overlap for real; answers must not depend on it.
The expected answers are computed first, serially (and against the DP oracle where the
arrays are small enough); then a thread pool repeats every call many times, interleaved.
"""

from __future__ import annotations

import random
import sys
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from coinsrow import Game, best_move, play, profits, value

from oracles import dp_value

THREADS = 8


@pytest.fixture(autouse=True)
def _frequent_switches():
    """Switch threads often, so that Python-level steps interleave too."""
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(old)


def _shared_arrays():
    rng = np.random.default_rng(20261122)
    big = 2**62
    arrays = {
        "int64-small": rng.integers(-50, 50, 300),
        "float64-small": rng.normal(size=300),
        "int64-overflowing": rng.choice([big, -big, big - 1, 3], 200),  # Python-int fallback
        "int32-strided": rng.integers(-10**6, 10**6, 600).astype(np.int32)[::2],
        "float32-reversed": rng.normal(size=301).astype(np.float32)[::-1],
        "int64-large": rng.integers(-10**9, 10**9, 200_000),
        "float64-large": rng.normal(size=200_000),
        "uint64-beyond": np.array([2**64 - 1, 5, 2**63, 7], dtype=np.uint64),
    }
    for arr in arrays.values():
        arr.flags.writeable = False  # shared read-only state, as a server would keep it
    return arrays


ARRAYS = _shared_arrays()
ROW_CALLS = {"value": value, "profits": profits, "best_move": best_move,
             "play": lambda row: list(play(row))}


def _expected():
    expected = {}
    for name, arr in ARRAYS.items():
        for call, function in ROW_CALLS.items():
            expected[name, call] = function(arr)
    # The serial answers are right: the DP agrees on the arrays it can afford.
    for name in ("int64-small", "int64-overflowing", "int32-strided", "uint64-beyond"):
        assert expected[name, "value"] == dp_value([int(x) for x in ARRAYS[name]])
    assert abs(expected["float64-small", "value"]
               - dp_value(ARRAYS["float64-small"].tolist())) < 1e-9
    return expected


def _run_all(tasks):
    with ThreadPoolExecutor(max_workers=THREADS) as pool:
        return list(pool.map(lambda task: task(), tasks))


def test_row_functions_on_shared_arrays():
    expected = _expected()
    keys = list(expected) * 6
    random.Random(7).shuffle(keys)

    def task(key):
        name, call = key
        return key, ROW_CALLS[call](ARRAYS[name])

    results = _run_all([lambda key=key: task(key) for key in keys])
    assert len(results) == len(keys)
    for key, got in results:
        assert got == expected[key], key
    _arrays_unchanged()


def test_games_on_shared_arrays():
    """Games over shared arrays, built and solved in every thread."""
    rows = [ARRAYS["int64-small"], ARRAYS["int32-strided"]]
    stacks = [ARRAYS["int64-overflowing"][:50], ARRAYS["int64-small"][::-3]]
    reference = Game(rows=rows, stacks=stacks)
    want_value, want_line = reference.value(), reference.play()

    def task(seed):
        g = Game(rows=rows, stacks=stacks)
        assert g.value() == want_value
        assert g.play() == want_line
        return seed

    assert sorted(_run_all([lambda s=s: task(s) for s in range(24)])) == list(range(24))


def test_one_shared_game_walked_by_many_threads():
    """One Game object, its lazily cached line, read by all threads at once."""
    g = Game(rows=[ARRAYS["int64-small"][:120], ARRAYS["float64-small"][:40]],
             stacks=[ARRAYS["int64-small"][200:260]])
    serial = Game(rows=[ARRAYS["int64-small"][:120], ARRAYS["float64-small"][:40]],
                  stacks=[ARRAYS["int64-small"][200:260]])
    line = serial.play()
    values = []
    position = serial
    for m in line:
        values.append(position.value())
        position = position.take(m)

    def walk(seed):
        rng = random.Random(seed)
        position, t = g, 0
        while len(position):
            if rng.random() < 0.05:  # leave the line once: a fresh, still optimal, value
                m = rng.choice(position.moves())
                after = position.take(m)
                assert after.value() == Game(rows=after.rows, stacks=after.stacks).value()
            assert position.value() == values[t]
            m = position.best_move()
            assert m == line[t]
            position = position.take(m)
            t += 1
        return t

    assert _run_all([lambda s=s: walk(s) for s in range(THREADS * 2)]) == [len(line)] * (
        THREADS * 2)


def test_many_small_rows_against_the_oracle():
    rng = random.Random(11)
    rows = [[rng.randint(-20, 20) for _ in range(rng.randint(0, 25))] for _ in range(300)]
    arrays = [np.array(r, dtype=np.int64) for r in rows]
    want = [dp_value(r) for r in rows]

    def task(i):
        return value(arrays[i]), value(rows[i]), Game(stacks=[rows[i]]).value(), i

    for got_array, got_list, got_game, i in _run_all([lambda i=i: task(i) for i in range(300)]):
        assert got_array == got_list == want[i], i
        assert got_game == Game(stacks=[rows[i]]).value()


def _arrays_unchanged():
    fresh = _shared_arrays()
    for name, arr in ARRAYS.items():
        assert np.array_equal(arr, fresh[name]), name
