"""Inputs are never modified: lists, tuples, NumPy arrays, array.array, memoryviews.

Every public callable (found from ``coinsrow.__all__``, so later additions are covered too) is
called on every kind of input, valid or not; afterwards the input is compared with a snapshot
(contents, and for lists the identity of every element), and an ``array.array`` must still be
resizable (no buffer export left behind, even after an error). A ``Game`` is immutable: it does
not change when the array it was built from does.
"""

from __future__ import annotations

import copy
import types
from array import array
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest

import coinsrow
from coinsrow import Game


def _public_callables():
    found = {}
    for name in coinsrow.__all__:
        obj = getattr(coinsrow, name)
        if isinstance(obj, types.ModuleType) or not callable(obj):
            continue
        if isinstance(obj, type) and issubclass(obj, tuple):
            continue
        found[name] = obj
    # Methods of a game: run on a Game built from the input.
    found["Game(rows=).play"] = lambda row: Game(rows=[row]).play()
    found["Game(stacks=).profits"] = lambda row: Game(stacks=[row]).profits()
    found["Game(rows=, stacks=).best_move"] = lambda row: Game(rows=[row], stacks=[row]).best_move()
    found["Game.take"] = lambda row: Game(rows=[row]).take(Game(rows=[row]).moves()[-1])
    return found


CALLABLES = _public_callables()


def _inputs():
    """name -> factory of a fresh input (the factories make each test independent)."""
    return {
        "list-int": lambda: [3, -1, 4, 1, -5, 9, 2, 6],
        "list-big": lambda: [2**70, -(2**63), 5, 2**63 - 1, 7],
        "list-float": lambda: [0.5, 2.25, -1.0, 3.5],
        "list-fraction": lambda: [Fraction(1, 3), Fraction(-2, 5), 1],
        "list-decimal": lambda: [Decimal("1.5"), Decimal("-0.25"), 3],
        "list-bad": lambda: [1, 2, "x", 4],
        "list-nan": lambda: [1.0, float("nan"), 2.0],
        "list-nested": lambda: [[1, 2], [3]],
        "tuple": lambda: (5, 1, 2, 8),
        "int64": lambda: np.array([5, -3, 2, 8, 1], dtype=np.int64),
        "int64-overflow": lambda: np.array([2**62, -(2**62), 2**62, 2**62], dtype=np.int64),
        "float64": lambda: np.array([0.5, -2.0, 1.25, 3.0]),
        "float64-nan": lambda: np.array([0.5, np.nan, 1.0]),
        "int32-strided": lambda: np.arange(-10, 10, dtype=np.int32),  # sliced in the test
        "big-endian": lambda: np.array([4, 1, 3], dtype=">i8"),
        "uint64": lambda: np.array([2**64 - 1, 1, 2], dtype=np.uint64),
        "object": lambda: np.array([1, 2**80, Fraction(1, 2)], dtype=object),
        "2d": lambda: np.arange(6).reshape(2, 3),
        "array-q": lambda: array("q", [4, -2, 7, 1]),
        "array-d": lambda: array("d", [1.5, float("inf"), 2.0]),
        "array-i": lambda: array("i", [9, 8, 7]),
        "array-Q": lambda: array("Q", [2**64 - 1, 3]),
    }


INPUTS = _inputs()


def _snapshot(obj):
    if isinstance(obj, np.ndarray):
        return ("ndarray", obj.copy(), obj.dtype, obj.shape, obj.strides, obj.flags.writeable)
    if isinstance(obj, array):
        return ("array", obj.typecode, obj.tobytes())
    if isinstance(obj, list):
        return ("list", list(obj), copy.deepcopy(obj))
    return ("other", copy.deepcopy(obj))


def _assert_unchanged(obj, snap):
    if snap[0] == "ndarray":
        _, data, dtype, shape, strides, writeable = snap
        assert obj.dtype == dtype and obj.shape == shape and obj.strides == strides
        assert obj.flags.writeable == writeable
        assert np.array_equal(obj, data, equal_nan=obj.dtype.kind == "f")
    elif snap[0] == "array":
        assert obj.typecode == snap[1] and obj.tobytes() == snap[2]
        obj.append(obj[0] if len(obj) else 0)  # no buffer export is left behind
        obj.pop()
    elif snap[0] == "list":
        _, shallow, deep = snap
        assert len(obj) == len(shallow) and all(a is b for a, b in zip(obj, shallow))
        assert repr(obj) == repr(deep)
    else:
        assert obj == snap[1]


@pytest.mark.parametrize("input_name", sorted(INPUTS))
@pytest.mark.parametrize("name", sorted(CALLABLES))
def test_inputs_are_never_modified(name, input_name):
    row = INPUTS[input_name]()
    if input_name == "int32-strided":
        base, row = row, row[::3]
        base_snap = _snapshot(base)
    snap = _snapshot(row)
    for _ in range(2):  # twice: the second call must see the same input as the first
        try:
            CALLABLES[name](row)
        except (TypeError, ValueError):
            pass
        _assert_unchanged(row, snap)
    if input_name == "int32-strided":
        _assert_unchanged(base, base_snap)


@pytest.mark.parametrize("input_name", ["list-int", "tuple", "int64", "list-float",
                                        "float64", "array-q", "list-big"])
def test_memoryviews_are_never_modified(input_name):
    source = INPUTS[input_name]()
    source = array("q", source) if isinstance(source, (list, tuple)) and all(
        type(x) is int and -(2**63) <= x < 2**63 for x in source) else source
    if isinstance(source, list):
        source = array("d", [float(x) for x in source])
    view = memoryview(source)
    before = view.tobytes()
    for function in CALLABLES.values():
        try:
            function(view)
        except (TypeError, ValueError):
            pass
        assert view.tobytes() == before
    view.release()  # nothing else holds an export of the source
    if isinstance(source, array):
        source.append(0)


def test_a_game_does_not_change_with_its_source_array():
    arr = np.array([3, 9, 1, 4], dtype=np.int64)
    floats = np.array([0.5, 1.5, 2.5])
    buffer = array("q", [6, 2, 8])
    g = Game(rows=[arr, floats], stacks=[buffer])
    one = Game(rows=[arr])
    rows, stacks, v, h = g.rows, g.stacks, g.value(), hash(g)
    arr[:] = 0
    floats[:] = 7.0
    buffer.append(100)  # the game holds no export of the array.array
    buffer[0] = -1
    assert g.rows == rows and g.stacks == stacks and hash(g) == h
    assert Game(rows=rows, stacks=stacks).value() == v
    assert one.rows == ((3, 9, 1, 4),)
    assert one.play()[0].coin == 4


def test_results_are_not_views_of_the_input():
    arr = np.array([1, 2, 3], dtype=np.int64)
    order = coinsrow.play(arr)
    order[0] = 99  # the returned array is the caller's own
    assert list(arr) == [1, 2, 3]
    assert list(coinsrow.play(arr)) != list(order)


def test_errors_leave_array_array_resizable():
    bad = array("d", [1.0, float("nan")])
    for function in CALLABLES.values():
        with pytest.raises((TypeError, ValueError)):
            function(bad)
        bad.append(1.0)
        bad.pop()
