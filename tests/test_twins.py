"""Every compiled kernel against its exact twin, call by call.

The naming rule: the twin of kernel ``name`` is ``name_exact`` (``NameExact`` for a class),
with the same arguments and methods on a list of Python numbers. On int64 coins the twin
must give the machine kernel's answers wherever the machine kernel does not overflow; on
float64 coins the twin, computing on the same Python floats, must agree bit for bit and
report OVERFLOW and NOT_FINITE exactly where the machine kernel does. Bad arguments must be
refused by both with the same exception and the same message.
"""

from __future__ import annotations

import inspect
import math
import random
from array import array
from typing import Any

import pytest

from coinsrow import _core

from checks import same_bits
from generators import ROW_STYLES, random_parents, random_row
from modes import drawn
from window_check import check_windows

Status = _core.Status
INT64_STYLES = tuple(style for style in ROW_STYLES if style != "big")

# Names in _core that compute nothing on coins (argument checks, a forest's children and
# roots, packing coins into one buffer, a span of an Arrow list array to pack, the scratch
# kept between calls, tasks on threads) and so have no twin.
NOT_KERNELS = {"forest_check", "forest_children_and_roots", "batch_check_offsets",
               "batch_pack_int_lists", "pack_components", "PackSpan", "scratch_kept",
               "scratch_release", "run_on_threads"}


def _kernel_names() -> list[str]:
    names = []
    for name in _core.__all__:  # loaded from their modules when first used
        obj = getattr(_core, name)
        if name.startswith("_") or name.endswith(("_exact", "Exact")) or name in NOT_KERNELS:
            continue
        if isinstance(obj, type) and issubclass(obj, int):  # the enums
            continue
        if callable(obj) and not inspect.ismodule(obj):
            names.append(name)
    return sorted(names)


def _twin(name: str) -> Any:
    machine = getattr(_core, name)
    return getattr(_core, name + ("Exact" if isinstance(machine, type) else "_exact"))


def test_every_kernel_has_its_exact_twin_under_the_naming_rule():
    names = _kernel_names()
    assert {"game_value", "game_play", "game_profits", "RowWindows", "SubRows", "window_pizza",
            "forest_value", "batch_solve", "cooperative_max"} <= set(names)
    for name in names:
        twin = _twin(name)
        assert callable(twin), name
        if isinstance(getattr(_core, name), type):
            machine_methods = {m for m in dir(getattr(_core, name)) if not m.startswith("__")}
            twin_methods = {m for m in dir(twin) if not m.startswith("__")}
            assert machine_methods <= twin_methods, (name, machine_methods - twin_methods)


# -- comparing answers ------------------------------------------------------------------------


def same(machine: Any, twin: Any, exact: bool) -> bool:
    """Equal answers; floats bit for bit (signed zeros too); other numbers of the same type,
    unless ``exact`` (an int64 machine answer against the twin's Python int)."""
    if isinstance(machine, (tuple, list)):
        return (isinstance(twin, (tuple, list)) and len(machine) == len(twin)
                and all(same(a, b, exact) for a, b in zip(machine, twin)))
    if isinstance(machine, float) and type(twin) is int and twin == 0:
        twin = 0.0  # the answer of an empty game: the dispatch layer types the twin's 0, 0.0
    if exact and not isinstance(machine, float):
        return bool(machine == twin)
    return same_bits(twin, machine)


def outcome(call: tuple) -> tuple[Any, BaseException | None]:
    """``(answer, None)`` or ``(None, the exception)`` of ``call = (function, *arguments)``."""
    try:
        return call[0](*call[1:]), None
    except Exception as error:
        return None, error


def compare(machine_call: tuple, twin_call: tuple) -> tuple[Any, Any]:
    """Both calls, each ``(function, *arguments)``: the same exception (type and message),
    or the two answers; ``(None, None)`` after an exception."""
    a, machine_error = outcome(machine_call)
    b, twin_error = outcome(twin_call)
    if machine_error is not None or twin_error is not None:
        assert type(twin_error) is type(machine_error), (machine_error, twin_error)
        assert str(twin_error) == str(machine_error)
        return None, None
    return a, b


def check_pair(a: Any, b: Any, floats: bool) -> None:
    """A machine answer ``a`` = (status, payload) against the twin's ``b``."""
    if a is None:
        return
    status_a, payload_a = a
    status_b, payload_b = b
    if floats:
        assert status_a == status_b, (a, b)
        if status_a != Status.OVERFLOW:
            assert same(payload_a, payload_b, False), (a, b)
    else:  # the twin on Python ints never overflows; it agrees wherever the machine does
        if status_a == Status.OVERFLOW:
            assert status_b == Status.OK
        else:
            assert status_a == status_b and same(payload_a, payload_b, True), (a, b)


# -- inputs -----------------------------------------------------------------------------------


def random_coins(rng: random.Random, n: int, floats: bool) -> list:
    if not floats:  # int64 coins, the edges of int64 included (overflows)
        return random_row(rng, n, INT64_STYLES)
    style = rng.random()
    if style < 0.15:  # beyond the float range when summed: overflow and exact redo
        return [rng.choice([-1.7e308, -1e308, 0.0, 1e308, 1.7976931348623157e308])
                for _ in range(n)]
    if style < 0.2 and n:  # a NaN or an infinity somewhere
        coins = [rng.uniform(-5, 5) for _ in range(n)]
        coins[rng.randrange(n)] = rng.choice([math.nan, math.inf, -math.inf])
        return coins
    if style < 0.5:  # ties, zeros, signed zeros
        return [rng.choice([-0.0, 0.0, 0.5, 1.0, -1.0, 2.0]) for _ in range(n)]
    return [rng.uniform(-1e3, 1e3) for _ in range(n)]


def random_layout(rng: random.Random, n: int) -> tuple[array, array, int]:
    """Components over coins[0:n]: random cuts, a random number of them rows."""
    cuts = sorted(rng.randint(0, n) for _ in range(rng.randint(0, 4)))
    bounds = [0, *cuts, n]
    starts = array("q", bounds[:-1])
    stops = array("q", bounds[1:])
    return starts, stops, rng.randint(0, len(starts))


def machine_buffer(coins: list, floats: bool) -> array:
    return array("d" if floats else "q", coins)


CASES = [(seed, floats) for seed in range(6) for floats in (False, True)]


@pytest.mark.parametrize("seed,floats", CASES)
def test_game_kernels_call_by_call(seed, floats):
    rng = random.Random(seed)
    for _ in range(250):
        n = rng.randint(0, 14)
        coins = random_coins(rng, n, floats)
        buffer = machine_buffer(coins, floats)
        starts, stops, n_rows = random_layout(rng, n)
        for name in ("game_value", "game_profits"):
            a, b = compare((getattr(_core, name), buffer, starts, stops, n_rows),
                           (_twin(name), list(coins), starts, stops, n_rows))
            check_pair(a, b, floats)
        outs = [[array("q", bytes(8 * n)), array("q", bytes(8 * n)), array("B", bytes(n))]
                for _ in range(2)]
        a, b = compare((_core.game_play, buffer, starts, stops, n_rows, *outs[0]),
                       (_core.game_play_exact, list(coins), starts, stops, n_rows, *outs[1]))
        check_pair(a, b, floats)
        if a is not None and a[0] == Status.OK:
            assert outs[0] == outs[1]
        check_pair(*compare((_core.check_finite, buffer),
                            (_core.check_finite_exact, list(coins))), floats)
        check_pair(*compare((_core.cooperative_max, buffer),
                            (_core.cooperative_max_exact, list(coins))), floats)


@pytest.mark.slow
@pytest.mark.parametrize("seed,floats", CASES)
def test_row_kernels_call_by_call(seed, floats):
    """The one-row kernels, cut into parts on threads or not, against their twins."""
    rng = random.Random(50 + seed)
    for _ in range(drawn(250)):
        n = rng.randint(0, 20)
        coins = random_coins(rng, n, floats)
        buffer = machine_buffer(coins, floats)
        parts = rng.randint(1, max(1, min(n, 5)))
        threads = 1 if parts == 1 else rng.randint(1, 3)
        for name in ("row_value", "row_profits", "row_play"):
            check_pair(*compare((getattr(_core, name), buffer, parts, threads),
                                (_twin(name), list(coins), parts, threads)), floats)


@pytest.mark.parametrize("seed,floats", CASES)
def test_pizza_kernels_call_by_call(seed, floats):
    rng = random.Random(100 + seed)
    for _ in range(120):
        n = rng.randint(0, 12)
        coins = random_coins(rng, n, floats)
        buffer = machine_buffer(coins, floats)
        a, b = compare((_core.window_pizza, buffer), (_core.window_pizza_exact, list(coins)))
        check_pair(a, b, floats)
        first_slice = rng.randint(-1, n)  # out of range sometimes: the same ValueError
        check_pair(*compare((_core.pizza_profits, buffer, first_slice),
                            (_core.pizza_profits_exact, list(coins), first_slice)), floats)


def _forest_arguments(rng: random.Random, n_nodes: int) -> tuple[array, array]:
    """Random parents (each node below an earlier one, or a root) and a position: the
    removed nodes are closed upwards (a node goes only after its parent)."""
    parents = array("q", random_parents(rng, n_nodes, shuffled=False))
    removed = array("B", bytes(n_nodes))
    for i in range(n_nodes):
        if (parents[i] < 0 or removed[parents[i]]) and rng.random() < 0.3:
            removed[i] = 1
    return parents, removed


@pytest.mark.parametrize("seed,floats", CASES)
def test_forest_kernels_call_by_call(seed, floats):
    rng = random.Random(200 + seed)
    for _ in range(150):
        n_nodes = rng.randint(0, 10)
        n = rng.randint(0, 10)
        coins = random_coins(rng, n + n_nodes, floats)
        buffer = machine_buffer(coins, floats)
        starts, stops, n_rows = random_layout(rng, n)
        parents, removed = _forest_arguments(rng, n_nodes)
        args = (starts, stops, n_rows, n, parents, removed)
        for name in ("forest_value", "forest_profits"):
            check_pair(*compare((getattr(_core, name), buffer, *args),
                                (_twin(name), list(coins), *args)), floats)
        live = n + n_nodes - sum(removed)
        outs = [[array("q", bytes(8 * live)), array("q", bytes(8 * live)),
                 array("B", bytes(live))] for _ in range(2)]
        a, b = compare((_core.forest_play, buffer, *args, *outs[0]),
                       (_core.forest_play_exact, list(coins), *args, *outs[1]))
        check_pair(a, b, floats)
        if a is not None and a[0] == Status.OK:
            assert outs[0] == outs[1]


@pytest.mark.parametrize("seed,floats", CASES)
def test_batch_kernel_call_by_call(seed, floats):
    rng = random.Random(300 + seed)
    for _ in range(80):
        n = rng.randint(0, 30)
        coins = random_coins(rng, n, floats)
        buffer = machine_buffer(coins, floats)
        cuts = sorted(rng.randint(0, n) for _ in range(rng.randint(0, 6)))
        offsets = array("q", [0, *cuts, n])
        games = len(offsets) - 1
        for profits in (False, True):
            first_m = array("d" if floats else "q", bytes(8 * games))
            second_m = array("d" if floats else "q", bytes(8 * games) if profits else b"")
            first_t, second_t = [0] * games, [0] * games if profits else []
            status_m, status_t = bytearray(games), bytearray(games)
            a, b = compare(
                (_core.batch_solve, buffer, 0, offsets, 0, games, first_m, second_m, status_m),
                (_core.batch_solve_exact, list(coins), 0, offsets, 0, games, first_t, second_t,
                 status_t))
            if a is None:
                continue
            if floats:
                assert a[0] == b[0] and status_m == status_t, (a, b)
            for g in range(games):
                if status_m[g] == Status.OK:
                    assert status_t[g] == Status.OK
                    assert same(first_m[g], float(first_t[g]) if floats else first_t[g],
                                not floats)
                    if profits:
                        assert same(second_m[g], float(second_t[g]) if floats
                                    else second_t[g], not floats)


def _structure_calls(rng: random.Random, rows: int, n_rows: int, lengths: list[int]):
    """A random sequence of (method, args) calls on a window structure, bad ones included."""
    left = list(lengths)
    calls = []
    for _ in range(sum(lengths) + 6):
        c = rng.randint(-1, rows)
        kind = rng.random()
        if kind < 0.35:
            calls.append(("pop_left", (c,)))
        elif kind < 0.6:
            calls.append(("pop_right", (c,)))
        else:
            calls.append((rng.choice(["value", "best", "best_in_row", "blocks", "kept",
                                       "end_blocks", "length", "bounds"]), (c,)))
    del left
    return calls


@pytest.mark.parametrize("seed,floats", CASES)
def test_window_structures_call_by_call(seed, floats):
    rng = random.Random(400 + seed)
    for _ in range(60):
        n = rng.randint(0, 12)
        coins = random_coins(rng, n, floats)
        buffer = machine_buffer(coins, floats)
        starts, stops, n_rows = random_layout(rng, n)
        machine, twin = compare((_core.RowWindows, buffer, starts, stops, n_rows),
                                (_core.RowWindowsExact, list(coins), starts, stops, n_rows))
        if machine is None:
            continue
        if floats or machine.status != Status.OVERFLOW:
            assert (machine.status, machine.bad_index) == (twin.status, twin.bad_index)
        if machine.status != Status.OK:
            continue
        for method, args in _structure_calls(rng, len(starts), n_rows, list(stops)):
            if method == "value":
                args = ()
            if method == "best":
                args = ()
            a, b = compare((getattr(machine, method), *args), (getattr(twin, method), *args))
            assert same(a, b, not floats), (method, args, a, b)
        check_windows(machine)
        check_windows(twin)


@pytest.mark.parametrize("seed,floats", CASES)
def test_subrow_structures_call_by_call(seed, floats):
    rng = random.Random(500 + seed)
    for _ in range(80):
        n = rng.randint(0, 14)
        coins = random_coins(rng, n, floats)
        buffer = machine_buffer(coins, floats)
        machine, twin = _core.SubRows(buffer), _core.SubRowsExact(list(coins))
        if floats or machine.status != Status.OVERFLOW:
            assert (machine.status, machine.bad_index) == (twin.status, twin.bad_index)
        if machine.status != Status.OK:
            continue
        for _ in range(20):
            start, stop = rng.randint(-1, n + 1), rng.randint(-1, n + 1)
            check_pair(*compare((machine.value, start, stop), (twin.value, start, stop)),
                       floats)
        starts = array("q", [rng.randint(-n - 2, n + 2) for _ in range(10)])
        stops = array("q", [rng.randint(-n - 2, n + 2) for _ in range(10)])
        out_m = array("d" if floats else "q", bytes(80))
        out_t = [0] * 10
        ok_m, ok_t = array("B", bytes(10)), array("B", bytes(10))
        a, _ = compare((machine.values, starts, stops, out_m, ok_m),
                       (twin.values, starts, stops, out_t, ok_t))
        if a is not None:
            for q in range(10):
                if ok_m[q]:
                    assert same(out_m[q], out_t[q], not floats), (q, out_m[q], out_t[q])


def test_bad_arguments_are_refused_alike():
    """The same exception and message from a kernel and its twin for each bad argument."""
    coins = [3, 1, 2]
    buffer = array("q", coins)
    one, three, short = array("q", [0]), array("q", [3]), array("q", [0, 1])
    calls = [
        ("game_value", (one, short, 1)),                   # starts and stops differ
        ("game_value", (three, one, 1)),                   # a component ends before it starts
        ("game_profits", (one, short, 1)),
        ("game_play", (one, three, 1, array("q"), array("q"), array("B"))),  # short outputs
        ("forest_value", (one, three, 1, 3, array("q", [-1]), array("B"))),  # removed short
        ("forest_value", (one, three, 1, 3, array("q", [-1]), array("B", [0]))),  # outside
        ("pizza_profits", (3,)),
        ("pizza_profits", (-1,)),
        ("RowWindows", (one, three, 2)),                   # n_rows past the components
        ("RowWindows", (one, short, 1)),
    ]
    for name, args in calls:
        _, machine_error = outcome((getattr(_core, name), buffer, *args))
        _, twin_error = outcome((_twin(name), list(coins), *args))
        assert machine_error is not None, name
        assert type(twin_error) is type(machine_error), name
        assert str(twin_error) == str(machine_error), name
    out = array("q", bytes(16))
    for offsets, first, stop in (([0, 2, 9], 0, 2), ([0, 3, 1], 0, 2), ([0, 1, 2], 0, 3)):
        _, machine_error = outcome((_core.batch_solve, buffer, 0, array("q", offsets), first,
                                    stop, out, array("q"), bytearray(3)))
        _, twin_error = outcome((_core.batch_solve_exact, coins, 0, array("q", offsets), first,
                                 stop, [0, 0, 0], [], bytearray(3)))
        assert isinstance(machine_error, ValueError)
        assert type(twin_error) is ValueError and str(twin_error) == str(machine_error)
