"""Every bad input gets a clear TypeError/ValueError, with an exact, predictable message.

The messages are compared in full (RapidFuzz style): each names the row or stack, the index
of the offending coin and its value or type. The one-row functions call their argument "row";
``Game`` calls its components "row i" and "stack i".
"""

from __future__ import annotations

from array import array
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest

import coinsrow
from coinsrow import Game, Move, best_move, play, profits, value


class Opaque:
    """An object that is no number, with a stable repr."""

    def __repr__(self) -> str:
        return "Opaque()"


class BrokenRepr:
    def __repr__(self) -> str:
        raise RuntimeError("no repr")


EXPECTED = "expected a sequence of numbers or a numeric buffer"
REAL = "coins must be real numbers"
FINITE = "coins must be finite"

# (id, bad row, exception, message with {w} for the row's name)
COIN_CASES = [
    ("nan", [1, float("nan")], ValueError, "{w}: coin at index 1 is nan; " + FINITE),
    ("inf-floats", [1.0, 2.0, float("inf")], ValueError, "{w}: coin at index 2 is inf; " + FINITE),
    ("minus-inf", [float("-inf")], ValueError, "{w}: coin at index 0 is -inf; " + FINITE),
    ("nan-after-fraction", [Fraction(1, 2), float("nan")], ValueError,
     "{w}: coin at index 1 is nan; " + FINITE),
    ("numpy-nan-scalar", [1, np.float64("nan")], ValueError,
     "{w}: coin at index 1 is nan; " + FINITE),
    ("float32-nan-scalar", [np.float32(2), np.float32("nan")], ValueError,
     f"{{w}}: coin at index 1 is {np.float32('nan')!r}; " + FINITE),
    ("numpy-nan", np.array([1.0, 2.0, np.nan]), ValueError,
     "{w}: coin at index 2 is nan; " + FINITE),
    ("numpy-f32-inf", np.array([np.inf, 1], dtype=np.float32), ValueError,
     "{w}: coin at index 0 is inf; " + FINITE),
    ("numpy-strided-nan", np.array([1.0, 0.0, np.nan, 0.0])[::2], ValueError,
     "{w}: coin at index 1 is nan; " + FINITE),
    ("array-d-inf", array("d", [0.5, float("-inf")]), ValueError,
     "{w}: coin at index 1 is -inf; " + FINITE),
    ("decimal-nan", [Decimal(1), Decimal("NaN")], ValueError,
     "{w}: coin at index 1 is Decimal('NaN'); " + FINITE),
    ("decimal-snan", [Decimal("sNaN")], ValueError,
     "{w}: coin at index 0 is Decimal('sNaN'); " + FINITE),
    ("decimal-inf", [Decimal("-Infinity")], ValueError,
     "{w}: coin at index 0 is Decimal('-Infinity'); " + FINITE),
    ("numpy-object-nan", np.array([1, float("nan")], dtype=object), ValueError,
     "{w}: coin at index 1 is nan; " + FINITE),
    ("str-coin", [1, 2, "a"], TypeError, "{w}: coin at index 2 is 'a' of type str; " + REAL),
    ("bytes-coin", [b"x"], TypeError, "{w}: coin at index 0 is b'x' of type bytes; " + REAL),
    ("none-coin", [3, None], TypeError, "{w}: coin at index 1 is None of type NoneType; " + REAL),
    ("complex-coin", [1, 2j], TypeError, "{w}: coin at index 1 is 2j of type complex; " + REAL),
    ("bool-coin", [1, True], TypeError,
     "{w}: coin at index 1 is True of type bool; booleans are not coins"),
    ("numpy-bool-coin", [np.False_], TypeError,
     f"{{w}}: coin at index 0 is {np.False_!r} of type {type(np.False_).__name__}; "
     "booleans are not coins"),
    ("object-coin", [Opaque()], TypeError,
     "{w}: coin at index 0 is Opaque() of type Opaque; " + REAL),
    ("broken-repr-coin", [1, BrokenRepr()], TypeError,
     "{w}: coin at index 1 is <BrokenRepr object> of type BrokenRepr; " + REAL),
    ("nested-list", [[1, 2]], TypeError, "{w}: coin at index 0 is [1, 2] of type list; " + REAL),
    ("long-repr", [list(range(30))], TypeError,
     "{w}: coin at index 0 is [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11... of type list; " + REAL),
    ("numpy-object-none", np.array([1, None], dtype=object), TypeError,
     "{w}: coin at index 1 is None of type NoneType; " + REAL),
    ("int-too-large-for-float", [1.5, 10**400], ValueError,
     "{w}: coin at index 1 is too large for a float; the row has float coins, "
     "so all coins are solved as floats"),
    ("decimal-and-float", [Decimal(1), 1.5], TypeError,
     "{w} mixes Decimal with float or Fraction coins; use one kind"),
    ("decimal-and-fraction", [Fraction(1, 3), Decimal(1)], TypeError,
     "{w} mixes Decimal with float or Fraction coins; use one kind"),
    ("decimal-digit-blowup", [Decimal("1e100000000"), Decimal(1)], ValueError,
     "{w}: exact Decimal sums of these coins need 100000001 digits each (coin at index 0 "
     "is Decimal('1E+100000000')); round the coins to a common, smaller exponent range"),
    ("decimal-digit-blowup-both-ends", [Decimal("1e60000000"), Decimal("1e-60000000")], ValueError,
     "{w}: exact Decimal sums of these coins need 120000001 digits each (coin at index 0 "
     "is Decimal('1E+60000000'), coin at index 1 is Decimal('1E-60000000')); round the "
     "coins to a common, smaller exponent range"),
    ("masked", np.ma.masked_array([1, 2, 3], mask=[0, 0, 1]), ValueError,
     "{w}: coin at index 2 is masked; coins must be numbers"),
]

ROW_CASES = [
    ("str", "abc", TypeError, "{w} is a str; " + EXPECTED),
    ("bytes", b"\x01\x02", TypeError, "{w} is a bytes; " + EXPECTED),
    ("bytearray", bytearray(b"\x01"), TypeError, "{w} is a bytearray; " + EXPECTED),
    ("none", None, TypeError, "{w} is None of type NoneType; " + EXPECTED),
    ("opaque", Opaque(), TypeError, "{w} is Opaque() of type Opaque; " + EXPECTED),
    ("range-too-long", range(10**20), ValueError,
     "{w} is range(0, 100000000000000000000) of type range; it has too many coins"),
    ("set", {1, 2}, TypeError, "{w} is a set, which has no order of coins; " + EXPECTED),
    ("dict", {1: 2}, TypeError, "{w} is a dict, which has no order of coins; " + EXPECTED),
    ("numpy-2d", np.zeros((2, 3)), ValueError,
     "{w} must be 1-dimensional, got an array of shape (2, 3)"),
    ("numpy-0d", np.array(5), ValueError, "{w} must be 1-dimensional, got an array of shape ()"),
    ("numpy-bool", np.array([True, False]), TypeError,
     "{w} has dtype bool; booleans are not coins"),
    ("numpy-str", np.array(["a", "b"]), TypeError, "{w} has dtype <U1; coins must be real numbers"),
    ("numpy-complex", np.array([1j]), TypeError,
     "{w} has dtype complex128; coins must be real numbers"),
    ("numpy-datetime", np.array(["2020-01-01"], dtype="datetime64[D]"), TypeError,
     "{w} has dtype datetime64[D]; coins must be real numbers"),
    ("numpy-structured", np.zeros(2, dtype=[("a", "<i4")]), TypeError,
     "{w} has dtype [('a', '<i4')]; coins must be real numbers"),
    ("memoryview-2d", memoryview(bytes(6)).cast("B", (2, 3)), ValueError,
     "{w} must be a 1-dimensional buffer, got 2 dimensions (shape (2, 3))"),
    ("memoryview-chars", memoryview(b"ab").cast("c"), TypeError,
     "{w} is a buffer of format 'c'; coins must be numbers"),
    ("memoryview-bools", memoryview(b"\x01").cast("?"), TypeError,
     "{w} is a buffer of booleans (format '?'); booleans are not coins"),
    ("memoryview-pointers", memoryview(bytes(8)).cast("P"), TypeError,
     "{w} is a buffer of format 'P'; coins must be numbers"),
]
if np.dtype(np.longdouble).itemsize > 8:
    ROW_CASES.append(
        ("numpy-longdouble", np.array([1.0], dtype=np.longdouble), TypeError,
         f"{{w}} has dtype {np.dtype(np.longdouble)}; extended-precision floats are not "
         "supported, convert the array to float64"))

ALL_CASES = COIN_CASES + ROW_CASES
IDS = [case[0] for case in ALL_CASES]

ONE_ROW_FUNCTIONS = [value, profits, best_move, play]


def _raises(call, exception, message):
    with pytest.raises(exception) as info:
        call()
    assert type(info.value) is exception
    assert str(info.value) == message


@pytest.mark.parametrize("function", ONE_ROW_FUNCTIONS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("case", ALL_CASES, ids=IDS)
def test_one_row_functions(function, case):
    _, row, exception, message = case
    _raises(lambda: function(row), exception, message.format(w="row"))


@pytest.mark.parametrize("case", ALL_CASES, ids=IDS)
def test_game_names_the_row(case):
    _, bad, exception, message = case
    _raises(lambda: Game(rows=[[1, 2], [3], bad]), exception, message.format(w="row 2"))
    _raises(lambda: Game([[1, 2], [3], bad]), exception, message.format(w="row 2"))


@pytest.mark.parametrize("case", ALL_CASES, ids=IDS)
def test_game_names_the_stack(case):
    _, bad, exception, message = case
    _raises(lambda: Game(rows=[[1, 2]], stacks=[[5], bad]), exception,
            message.format(w="stack 1"))


@pytest.mark.parametrize("case", COIN_CASES, ids=[c[0] for c in COIN_CASES])
def test_the_bad_coin_is_found_in_a_long_row(case):
    """The index is the coin's own, also far into a row (the kernels' finiteness check)."""
    _, bad, exception, message = case
    if isinstance(bad, np.ma.MaskedArray):
        long_row = np.ma.concatenate([np.ma.masked_array(np.arange(1000)), bad])
    elif isinstance(bad, np.ndarray):
        long_row = np.concatenate([np.arange(1000, dtype=bad.dtype), bad])
    elif isinstance(bad, array):
        long_row = array(bad.typecode, range(1000)) + bad
    else:
        filler = [Decimal(0)] * 1000 if any(isinstance(x, Decimal) for x in bad) else [0] * 1000
        long_row = filler + list(bad)
    shifted = message.replace("at index ", "at index 1000+")
    for index in range(5):
        shifted = shifted.replace(f"1000+{index}", str(1000 + index))
    _raises(lambda: value(long_row), exception, shifted.format(w="row"))


# -- Game(rows=..., stacks=...) given something else than sequences of rows ----------------

GAME_CASES = [
    (dict(rows=[1, 2]), TypeError,
     "rows[0] is 1 of type int, not a row; rows= takes a sequence of rows, e.g. rows=[[3, 1, 2]]"),
    (dict(rows=[[1], 2.5]), TypeError,
     "rows[1] is 2.5 of type float, not a row; rows= takes a sequence of rows, "
     "e.g. rows=[[3, 1, 2]]"),
    (dict(stacks=[Decimal(3)]), TypeError,
     "stacks[0] is Decimal('3') of type Decimal, not a stack; stacks= takes a sequence of "
     "stacks, e.g. stacks=[[3, 1, 2]]"),
    (dict(rows=np.arange(3)), TypeError,
     f"rows[0] is {np.int64(0)!r} of type int64, not a row; rows= takes a sequence of rows, "
     "e.g. rows=[[3, 1, 2]]"),
    (dict(rows=5), TypeError, "rows must be a sequence of rows, got int"),
    (dict(rows=None), TypeError, "rows must be a sequence of rows, got NoneType"),
    (dict(rows="abc"), TypeError, "rows must be a sequence of rows, got str"),
    (dict(stacks=b"ab"), TypeError, "stacks must be a sequence of stacks, got bytes"),
    (dict(stacks=range(10**20)), ValueError,
     "stacks is range(0, 100000000000000000000) of type range; it has too many stacks"),
    (dict(rows=range(10**20)), ValueError,
     "rows is range(0, 100000000000000000000) of type range; it has too many rows"),
    (dict(rows={(1, 2), (3,)}), TypeError, "rows must be a sequence of rows, got set"),
    (dict(rows=memoryview(bytes(4)).cast("B", (2, 2))), TypeError,
     "rows must be a sequence of rows, got memoryview"),
    (dict(stacks=memoryview(np.array([1, 2], dtype=">i2"))), TypeError,
     "stacks must be a sequence of stacks, got memoryview"),
    (dict(rows=[[1, 2]], stacks=[[10**400]], ), None, None),  # exact ints: fine
    (dict(rows=[[1.5]], stacks=[[1], [10**400]]), ValueError,
     "stack 1: coin at index 0 is too large for a float; the game has float coins, "
     "so all coins are solved as floats"),
    (dict(rows=[[1.5]], stacks=[[Decimal(1)]]), TypeError,
     "game mixes Decimal with float coins; use one kind"),
    (dict(rows=[[Fraction(1, 2)]], stacks=[[Decimal(1)]]), TypeError,
     "game mixes Decimal with Fraction coins; use one kind"),
    (dict(rows=[[Decimal("1e60000000")]], stacks=[[Decimal("1e-60000000")]]), ValueError,
     "game: exact Decimal sums of these coins need 120000001 digits each (coin at index 0 "
     "is Decimal('1E+60000000'), coin at index 1 is Decimal('1E-60000000')); round the "
     "coins to a common, smaller exponent range"),
    (dict(rows=[[1.0, 2.0], np.array([3.0, np.nan])], stacks=[[np.inf]]), ValueError,
     "row 1: coin at index 1 is nan; coins must be finite"),
    (dict(rows=[[1, 2]], stacks=[[1.0], [2.0, 3.0, -np.inf]]), ValueError,
     "stack 1: coin at index 2 is -inf; coins must be finite"),
]


@pytest.mark.parametrize("kwargs, exception, message", GAME_CASES)
def test_game_arguments(kwargs, exception, message):
    if exception is None:
        Game(**kwargs).value()
        return
    _raises(lambda: Game(**kwargs).value(), exception, message)


def test_a_game_passed_to_a_one_row_function():
    for function in ONE_ROW_FUNCTIONS:
        _raises(lambda function=function: function(Game(rows=[[1]])), TypeError,
                "expected a row of coins, got a Game; call its methods instead")


def test_no_move_left():
    for row in ([], (), np.array([], dtype=np.int64), array("d")):
        _raises(lambda row=row: best_move(row), ValueError, "the row is empty: there is no move")
    g = Game(rows=[[7]], stacks=[[]])
    _raises(lambda: g.take(g.best_move()).best_move(), ValueError,
            "the game is over: no coin is left")


TAKE_CASES = [
    (Move("row", 0, "middle", 0, 1), "illegal move Move(kind='row', index=0, end='middle', "
     "position=0, coin=1): a row's end is 'left' or 'right'"),
    (Move("stack", 0, "left", 0, 4), "illegal move Move(kind='stack', index=0, end='left', "
     "position=0, coin=4): a stack is taken from its 'top'"),
    (Move("row", 1, "left", 0, 1), "illegal move Move(kind='row', index=1, end='left', "
     "position=0, coin=1): no such 'row' with index 1"),
    (Move("stack", -1, "top", 0, 4), "illegal move Move(kind='stack', index=-1, end='top', "
     "position=0, coin=4): no such 'stack' with index -1"),
    (Move("row", 0, "left", 1, 2), "illegal move Move(kind='row', index=0, end='left', "
     "position=1, coin=2): the coin there is Move(kind='row', index=0, end='left', "
     "position=0, coin=1)"),
    (Move("row", 0, "right", 2, 99), "illegal move Move(kind='row', index=0, end='right', "
     "position=2, coin=99): the coin there is Move(kind='row', index=0, end='right', "
     "position=2, coin=3)"),
    (("row", 0), "('row', 0) is not a Move(kind, index, end, position, coin)"),
    (None, "None is not a Move(kind, index, end, position, coin)"),
    (17, "17 is not a Move(kind, index, end, position, coin)"),
]


@pytest.mark.parametrize("move, message", TAKE_CASES)
def test_take_rejects_illegal_moves(move, message):
    g = Game(rows=[[1, 2, 3]], stacks=[[4, 5]])
    _raises(lambda: g.take(move), ValueError, message)
    assert g.rows == ((1, 2, 3),) and g.stacks == ((4, 5),)


def test_errors_are_raised_before_any_work_on_the_other_components():
    """A bad stack is reported even when the rows before it are long and valid."""
    rows = [list(range(10_000)), np.arange(10_000, dtype=np.float32)]
    _raises(lambda: Game(rows=rows, stacks=[[1, "x"]]), TypeError,
            "stack 0: coin at index 1 is 'x' of type str; " + REAL)


def test_public_names_are_importable():
    for name in coinsrow.__all__:
        assert hasattr(coinsrow, name), name
