"""Chains in forests: runs of nodes with one child each, which the value merges as the stacks
they are (a path is a stack). Forests made mostly of chains (paths, brooms, chains hanging
under branching nodes, chains of chains, caterpillars, several trees), numbered parents
first, parents last or anywhere, with nodes taken or not: against minimax on small
positions, against the global block merging, the 64-bit path and the exact twin on larger
ones, machine and twin bit for bit on floats; the parents' checks that tell the order; Ctrl-C
inside a chain.
"""

from __future__ import annotations

import random
import struct
import time
import traceback
from array import array
from fractions import Fraction

import numpy as np
import pytest
from alarms import raised_in, stop_after

from coinsrow import Game, _core

from generators import numbered_any_way, small_coins, taken_mask
from modes import scaled
from oracles import block_merging_value, brute_forest_value


def _chained(rng: random.Random, n: int) -> list[int]:
    """Parents of n nodes, every parent first, most nodes the only child of the node before."""
    kind = rng.randrange(7)
    length = rng.randint(2, 9)
    parents: list[int] = []
    for i in range(n):
        if i == 0 or (kind == 5 and rng.random() < 0.1):
            parents.append(-1)  # several trees
        elif kind == 0:
            parents.append(i - 1)  # a path
        elif kind == 1:
            parents.append(min(i - 1, n // 2))  # a broom: a chain, a star at its bottom
        elif kind == 2:
            parents.append(0 if i % length == 1 else i - 1)  # chains under one root
        elif kind == 3:
            # chains under the nodes of a chain (a chain's bottom or top has siblings)
            parents.append(i - 1 if rng.random() < 0.7 else rng.randrange(max(0, i - 12), i))
        elif kind == 4:
            parents.append(i - 1 if i % 2 else max(0, i - 2))  # a caterpillar
        elif kind == 5:
            parents.append(i - 1 if rng.random() < 0.75 else rng.randrange(i))
        else:
            # chains from parents anywhere below: an int64 forest of 50 nodes or more is
            # then scattered, and its chains are merged renumbered
            parents.append(i - 1 if rng.random() < 0.5 else rng.randrange(i))
    return parents


def _coins(rng: random.Random, n: int, kind: str) -> list:
    if kind == "big":
        return [rng.choice([-1, 1]) * rng.randint(0, 2**70) for _ in range(n)]
    if kind == "fractions":
        return [Fraction(rng.randint(-9, 9), rng.randint(1, 4)) for _ in range(n)]
    return small_coins(rng, n)  # negatives, ties, zeros



def test_chains_against_minimax():
    rng = random.Random(71)
    for case in range(scaled(240)):
        n = rng.randint(1, 10)
        kind = ("ints", "big", "fractions")[case % 3]
        values, parents = numbered_any_way(rng, _coins(rng, n, kind), _chained(rng, n))
        rows = [_coins(rng, rng.randint(1, 3), kind) for _ in range(rng.randint(0, 1))]
        stacks = [_coins(rng, rng.randint(1, 3), kind) for _ in range(rng.randint(0, 1))]
        game = Game(rows=rows, stacks=stacks, forest=(values, parents))
        expected = brute_forest_value(rows, stacks, values, parents)
        assert game.value() == expected
        play = game.play()
        assert sum(m.coin if t % 2 == 0 else -m.coin for t, m in enumerate(play)) == expected


def test_chains_in_play_against_the_global_block_merging_and_the_twin():
    """The machine kernel (int64; its 64-bit path), the exact twin and ``Game`` on forests of
    chains with nodes taken, against the global block merging of the nodes left."""
    rng = random.Random(72)
    for case in range(scaled(120)):
        n = rng.randint(20, 300)
        wide = case % 4 == 0
        coins = ([rng.randint(-2**40, 2**40) for _ in range(n)] if wide
                 else small_coins(rng, n))
        values, parents = numbered_any_way(rng, coins, _chained(rng, n))
        removed = taken_mask(rng, parents, rng.random() * 0.6) if case % 2 else array("B", bytes(n))
        keep = [v for v in range(n) if not removed[v]]
        new_id = {v: i for i, v in enumerate(keep)}
        left = [values[v] for v in keep]
        left_parents = [new_id[parents[v]] if parents[v] >= 0 and not removed[parents[v]]
                        else -1 for v in keep]
        expected = block_merging_value([], left, left_parents)
        arguments = (array("q"), array("q"), 0, 0, array("q", parents), removed)
        assert _core.forest_value(array("q", values), *arguments) == (_core.Status.OK, expected)
        assert _core.forest_value(array("q", values), *arguments, wide=True) == (
            _core.Status.OK, expected)
        assert _core.forest_value_exact(list(values), *arguments) == (_core.Status.OK, expected)
        assert Game(forest=(left, left_parents)).value() == expected


def test_chains_of_floats_machine_and_twin_bit_for_bit():
    """Floats with signed zeros and ties, and sums beyond the float range (OVERFLOW in both),
    through the chains' loop in every numbering."""
    rng = random.Random(73)
    for case in range(scaled(150)):
        n = rng.randint(0, 150)
        style = case % 3
        if style == 0:
            floats = [rng.choice([-0.0, 0.0, 0.5, 1.0, -1.0]) for _ in range(n)]
        elif style == 1:
            floats = [rng.choice([-1.7e308, 1e308, 0.0, 1.5e308]) for _ in range(n)]
        else:
            floats = [rng.uniform(-1e3, 1e3) for _ in range(n)]
        values, parents = numbered_any_way(rng, floats, _chained(rng, n) if n else [])
        arguments = (array("q"), array("q"), 0, 0, array("q", parents), array("B", bytes(n)))
        a = _core.forest_value(array("d", values), *arguments)
        b = _core.forest_value_exact(list(values), *arguments)
        assert a[0] == b[0]
        if a[0] == _core.Status.OK:
            assert struct.pack("<d", a[1]) == struct.pack("<d", b[1] + 0.0)


def test_one_path_of_floats_is_one_stack():
    rng = random.Random(74)
    for n in (1, 2, 7, 500):
        stack = [rng.choice([0.5, -0.25, 3.0, 0.0, -0.0, 1e300]) for _ in range(n)]
        assert Game(forest=(stack, list(range(-1, n - 1)))).value() == Game(
            stacks=[stack]).value()


def test_parents_checks_tell_the_order_cycles_and_the_bad_parent():
    """forest_check: in order (parents all first or all last) never a cycle; otherwise the
    cycle found; a parent out of range named by its node, whatever its size. The kernels'
    own check refuses it too."""
    rng = random.Random(75)
    for _ in range(200):
        n = rng.randint(1, 30)
        parents = numbered_any_way(rng, [0] * n, _chained(rng, n))[1]
        answer = _core.forest_check(array("q", parents))
        assert answer == (_core.ForestProblem.FOREST_OK, -1)
        assert type(answer[0]) is _core.ForestProblem
        if n >= 2:
            a, b = rng.sample(range(n), 2)
            cyclic = list(parents)
            cyclic[a], cyclic[b] = b, a
            code, node = _core.forest_check(array("q", cyclic))
            assert code == _core.ForestProblem.CYCLE and node in (a, b)
        bad = list(parents)
        at = rng.randrange(n)
        bad[at] = rng.choice([-2, n, 2**63 - 1, -2**63, n + 5])
        later = rng.randrange(at, n)
        bad[later] = rng.choice([-3, n])
        answer = _core.forest_check(array("q", bad))
        assert answer == (_core.ForestProblem.PARENT_OUT_OF_RANGE, at)
        assert type(answer[0]) is _core.ForestProblem
        with pytest.raises(ValueError, match="a parent is not a node index or -1"):
            _core.forest_value(array("q", [1] * n), array("q"), array("q"), 0, 0,
                               array("q", bad), bytes(n))


def test_a_signal_stops_a_long_chain():
    """The chain's loop looks at signals: an alarm's exception comes out of it (most of a
    path's time is spent there)."""
    n = 3 * 10**6
    coins = np.random.default_rng(76).integers(0, 1000, n)
    arguments = (coins, array("q"), array("q"), 0, 0, np.arange(-1, n - 1), bytes(n))
    expected = _core.forest_value(*arguments)
    start = time.perf_counter()  # timed once its scratch is kept (the first call's is fresh)
    _core.forest_value(*arguments)
    took = time.perf_counter() - start
    inside = False
    for attempt in range(24):  # a busy machine may deliver the alarm late or early
        try:
            stop = stop_after(took * (0.2 + 0.1 * (attempt % 6)),
                              lambda: _core.forest_value(*arguments))
        except pytest.fail.Exception:
            continue  # the call was over before the alarm
        inside = raised_in(stop, "_forest_blocks.pyx") and any(
            frame.name.endswith("_up_a_chain")
            for frame in traceback.extract_tb(stop.__traceback__))
        if inside:
            break
    assert inside
    assert _core.forest_value(*arguments) == expected
