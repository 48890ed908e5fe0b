"""``threads=``: a count past the machine's cores starts no more threads than it has cores
(the answers unchanged), and a count above ``MAX_THREADS`` is a ``ValueError`` naming
``threads``, on every public call that takes it (docs/rows.md, "Bounds").
"""

from __future__ import annotations

import inspect
import os
import random
from fractions import Fraction

import numpy as np
import pytest

import coinsrow
from coinsrow import play, profits, profits_many, value, values_many
from coinsrow._threads import MAX_THREADS, row_split, thread_count

from checks import check_play
from generators import random_row
from oracles import dp_value

ABSURD = (MAX_THREADS + 1, 10**6, 2**31, 2**63 - 1, 2**63, 2**64, 2**70, 10**100, 10**9999)


def _public_calls_with_threads() -> list:
    calls = []
    for name in coinsrow.__all__:
        obj = getattr(coinsrow, name)
        if callable(obj) and not isinstance(obj, type):
            try:
                parameters = inspect.signature(obj).parameters
            except (TypeError, ValueError):  # pragma: no cover - every public call has one
                continue
            if "threads" in parameters:
                calls.append(obj)
    return calls


CALLS = _public_calls_with_threads()


def test_every_call_taking_threads_is_covered():
    assert {f.__name__ for f in CALLS} >= {"value", "profits", "play", "values_many",
                                           "profits_many"}


@pytest.mark.parametrize("call", CALLS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("threads", ABSURD, ids=lambda t: f"{t.bit_length()}-bit")
def test_an_absurd_count_is_a_value_error_naming_threads(call, threads):
    argument = [[1, 2, 3]] if call.__name__.endswith("_many") else [1, 2, 3]
    with pytest.raises(ValueError, match=f"threads must be at most {MAX_THREADS}, got "):
        call(argument, threads=threads)
    with pytest.raises(ValueError, match=f"threads must be at most {MAX_THREADS}, got "):
        call(argument, threads=np.uint64(min(threads, 2**64 - 1)))
    with pytest.raises(ValueError, match="threads must be at least 1"):
        call(argument, threads=-threads)


@pytest.mark.parametrize("call", CALLS, ids=lambda f: f.__name__)
def test_the_largest_count_answers_as_one_thread(call):
    rng = random.Random(8192)
    for n in (0, 1, 2, 3, 10, 100, 5000):
        row = random_row(rng, n)
        argument = [row, row[::-1]] if call.__name__.endswith("_many") else row
        assert call(argument, threads=MAX_THREADS) == call(argument, threads=1), (call, n)


def test_a_count_past_the_cores_is_capped_and_answers_right():
    cores = os.cpu_count() or 1
    for n in (2, 7, 100, 10**6, 10**9):
        for k in (2, 3, cores + 1, 4 * cores + 3, 1000, MAX_THREADS):
            parts, pool = row_split(n, k)
            assert pool == min(k, cores), (n, k)
            assert min(k, n) <= parts <= n, (n, k)
            assert parts <= max(4 * pool, -(-n // (1 << 22)), k)
    assert thread_count(MAX_THREADS) == min(MAX_THREADS, cores)
    assert thread_count(1) == 1
    rng = random.Random(29)
    for _ in range(60):
        ints = random_row(rng, rng.randint(0, 40))
        # The same game beyond int64, and in halves (floats; exact with small coins).
        games = [(ints, 1), ([x * 2**70 for x in ints], 2**70)]
        if all(abs(x) < 2**40 for x in ints):
            games.append(([x / 2 for x in ints], Fraction(1, 2)))
        for row, scale in games:
            want = dp_value([Fraction(x) for x in ints]) * scale
            for k in (cores + 1, 64, MAX_THREADS):
                assert value(row, threads=k) == want
                first, second = profits(row, threads=k)
                assert first - second == want
                check_play(row, play(row, threads=k))
            assert values_many([row, row], threads=MAX_THREADS) == [want, want]
            assert [p.first - p.second for p in profits_many([row], threads=64)] == [want]


def test_a_long_row_with_the_largest_count():
    """A million coins with threads=MAX_THREADS: at least MAX_THREADS parts on the machine's
    cores, the answer of one thread (not a thread per part)."""
    row = np.random.default_rng(3).integers(-10**9, 10**9, 10**6)
    want = value(row, threads=1)
    assert value(row, threads=MAX_THREADS) == want
    assert profits(row, threads=MAX_THREADS) == profits(row, threads=1)
