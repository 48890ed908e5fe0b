"""Input normalisation: any row or stack becomes one of three storages the kernels read.

- ``INT64``: a contiguous 1-D buffer of int64 (a NumPy array or ``array.array`` is used as
  it is, without a copy, when it already is one).
- ``FLOAT64``: the same for float64. Finiteness is checked by the kernel, in its own pass
  (NaN and infinities would poison its comparisons), so a float64 array costs no extra pass.
- ``OBJECTS``: a list of Python numbers of one exact kind (ints beyond int64, ``Fraction``,
  ``Decimal``), solved by the kernels' Python-number loop.

Every rejection is a ``TypeError`` (not a number, not a row) or a ``ValueError`` (a number
that cannot be a coin: NaN, an infinity, a float out of range; a buffer of the wrong shape),
and its message names the row or stack (``where``), the index of the coin and its value or
type. Inputs are only read, never modified.

The normalised components of a game are then laid out in one flat storage, ``Coins``
(``storage``; ``row_coins`` for the one-row functions), which every kernel reads through
``_dispatch.run``. docs/architecture.md shows where this sits in the data flow.
"""

from __future__ import annotations

import math
import numbers
import struct
import sys
from array import array
from collections.abc import Iterable, Mapping, Sequence, Set
from decimal import Decimal
from fractions import Fraction
from typing import Any, TypeAlias, cast

from ._arrow import arrow_row, is_arrow

#: The number types of coins and answers: a game's answers are of its coins' type.
Number: TypeAlias = int | float | Fraction | Decimal

INT64 = "int64"
FLOAT64 = "float64"
OBJECTS = "objects"
#: The ``array`` type code of each machine kind.
TYPECODES = {INT64: "q", FLOAT64: "d"}

# The data of a column: a 1-D buffer of int64 ("q") or float64 ("d") for INT64 and FLOAT64, a
# list of exact Python numbers for OBJECTS. Which one is told by ``kind``, which the type
# system cannot follow: code that has checked the kind casts ``data`` to ``Buffer1D``.
# (Strings: ``memoryview`` and ``array`` cannot be subscripted at run time on 3.10 and 3.11.)
Buffer1D: TypeAlias = "memoryview[int] | memoryview[float] | array[Any]"
Storage: TypeAlias = "Buffer1D | list[Any]"

_INT_FORMATS = frozenset("bBhHiIlLqQnN")
_SIGNED_8_BYTE_FORMATS = frozenset("lqn")
_FLOAT_FORMATS = frozenset("efd")
_NATIVE_ORDER = "<" if sys.byteorder == "little" else ">"
_INT64_MAX = 2**63 - 1
_INT64_MIN = -(2**63)

# Exact Decimal arithmetic needs every digit from the largest exponent down to the smallest:
# Decimal("1e100000000") + 1 is a number of 10^8 digits, built from two tiny inputs. A game
# whose coins would need more than this many digits (times the number of coins) beyond the
# size of the input itself is refused, instead of allocating gigabytes.
_DECIMAL_DIGIT_BUDGET = 10**8

_EXPECTED = "expected a sequence of numbers or a numeric buffer"


class Column:
    """One normalised component: its storage kind, the data, and where it came from."""

    __slots__ = ("kind", "data", "exact_type", "where")

    def __init__(self, kind: str, data: Storage, exact_type: type = int,
                 where: str = "row") -> None:
        self.kind = kind
        self.data = data
        # For OBJECTS: int, Fraction or Decimal, the type of the results.
        self.exact_type = exact_type
        self.where = where

    def __len__(self) -> int:
        return len(self.data)


def describe(value: Any) -> str:
    """``repr`` (shortened) and type of a rejected value, for error messages."""
    try:
        text = repr(value)
    except Exception:  # a broken __repr__, or an int too long to print
        text = f"<{type(value).__name__} object>"
    if len(text) > 40:
        text = text[:37] + "..."
    return f"{text} of type {type(value).__name__}"


def short_repr(value: Any) -> str:
    """``repr`` of a value for an error message, shortened (and never failing)."""
    try:
        text = repr(value)
    except Exception:
        return f"<{type(value).__name__} object>"
    return text if len(text) <= 40 else text[:37] + "..."


def is_bool(item: Any) -> bool:
    """Whether ``item`` is a bool, Python's or NumPy's (no NumPy bool exists unless NumPy
    is imported). O(1)."""
    if isinstance(item, bool):
        return True
    numpy = sys.modules.get("numpy")
    return numpy is not None and isinstance(item, numpy.bool_)


def _is_numpy_array(obj: Any) -> bool:
    numpy = sys.modules.get("numpy")
    return numpy is not None and isinstance(obj, numpy.ndarray)


def _from_numpy(arr: Any, where: str) -> Column | None:
    """NumPy arrays: vectorised conversion, one pass at most, never a Python loop."""
    import numpy as np

    if arr.ndim != 1:
        raise ValueError(f"{where} must be 1-dimensional, got an array of shape {arr.shape}")
    masked: Any = np.ma  # (untyped in the stubs of NumPy before 2.3)
    if isinstance(arr, np.ma.MaskedArray) and masked.is_masked(arr):
        index = int(np.flatnonzero(masked.getmaskarray(arr))[0])
        raise ValueError(f"{where}: coin at index {index} is masked; coins must be numbers")
    dtype = arr.dtype
    kind = dtype.kind
    if kind == "O":
        return None  # a sequence of Python objects: checked element by element
    if kind == "b":
        raise TypeError(f"{where} has dtype bool; booleans are not coins")
    if kind in "iu":
        if dtype == np.int64 and arr.flags.c_contiguous and arr.flags.aligned:
            return Column(INT64, memoryview(arr).cast("B").cast("q"), int, where)
        if kind == "u" and dtype.itemsize >= 8 and arr.size and int(arr.max()) > _INT64_MAX:
            return Column(OBJECTS, arr.tolist(), int, where)
        return Column(INT64, memoryview(arr.astype(np.int64, order="C")), int, where)
    if kind == "f":
        if dtype.itemsize > 8:
            raise TypeError(
                f"{where} has dtype {dtype}; extended-precision floats are not supported, "
                "convert the array to float64"
            )
        if dtype == np.float64 and arr.flags.c_contiguous and arr.flags.aligned:
            return Column(FLOAT64, memoryview(arr).cast("B").cast("d"), int, where)
        # float16/float32 -> float64 is exact; NaN and infinities stay for the kernel to find.
        return Column(FLOAT64, memoryview(arr.astype(np.float64, order="C")), int, where)
    raise TypeError(f"{where} has dtype {dtype}; coins must be real numbers")


def split_format(fmt: str) -> tuple[str, str]:
    """A buffer format as (byte-order prefix for ``struct``, type code)."""
    if fmt[:1] in "@=<>!":
        return fmt[0], fmt[1:]
    return "@", fmt


def _refuse_pandas_missing(obj: Any, where: str) -> None:
    """A pandas Series or Index of floats holding a missing value: ``ValueError`` naming it
    as missing, None included. pandas stores None in a column of numbers as NaN, so the
    kernel would report the coin as "nan", which its author never wrote. O(n), vectorised;
    nothing for other objects (pandas is never imported here)."""
    pandas = sys.modules.get("pandas")
    if pandas is None or not isinstance(obj, (pandas.Series, pandas.Index)):
        return
    if getattr(obj.dtype, "kind", None) != "f":  # None stays None in other columns
        return
    missing = obj.isna()
    flags = missing.to_numpy() if hasattr(missing, "to_numpy") else missing
    if flags.any():
        index = int(flags.argmax())
        raise ValueError(f"{where}: coin at index {index} is missing (None or NaN: pandas "
                         "stores None as NaN in a column of numbers); coins must be finite")


def _from_buffer(obj: Any, where: str) -> Column | None:
    """Buffers other than NumPy arrays (``array.array``, ``memoryview``, ...)."""
    try:
        view = memoryview(obj)
    except TypeError:
        return None
    if view.ndim != 1:
        raise ValueError(
            f"{where} must be a 1-dimensional buffer, got {view.ndim} dimensions "
            f"(shape {view.shape})"
        )
    order, code = split_format(view.format)
    if code == "?":
        raise TypeError(f"{where} is a buffer of booleans (format {view.format!r}); "
                        "booleans are not coins")
    if code not in _INT_FORMATS and code not in _FLOAT_FORMATS:
        raise TypeError(f"{where} is a buffer of format {view.format!r}; coins must be numbers")
    native = order in "@=" or order == _NATIVE_ORDER
    if native and view.c_contiguous:
        # Zero-copy for the kernels' own formats.
        if code == "d" and view.itemsize == 8:
            return Column(FLOAT64, view if view.format == "d" else view.cast("B").cast("d"),
                          int, where)
        if code in _SIGNED_8_BYTE_FORMATS and view.itemsize == 8:
            return Column(INT64, view if view.format == "q" else view.cast("B").cast("q"),
                          int, where)
    # Any other layout (other widths, strided, half floats, non-native byte order): decode
    # with struct, which knows every standard and native size and both byte orders.
    values = struct.unpack(f"{order}{len(view)}{code}", view.tobytes())
    if code in _FLOAT_FORMATS:
        return Column(FLOAT64, array("d", values), int, where)
    try:
        return Column(INT64, array("q", values), int, where)
    except OverflowError:  # uint64 beyond int64: exact Python ints
        return Column(OBJECTS, list(values), int, where)


def _not_a_coin(where: str, index: int, item: Any) -> TypeError:
    if is_bool(item):
        return TypeError(
            f"{where}: coin at index {index} is {describe(item)}; booleans are not coins"
        )
    return TypeError(
        f"{where}: coin at index {index} is {describe(item)}; coins must be real numbers"
    )


def _not_finite(where: str, index: int, item: Any) -> ValueError:
    return ValueError(f"{where}: coin at index {index} is {short_repr(item)}; "
                      "coins must be finite")


def _classify(items: list, where: str) -> Column:
    """Python numbers, one element at a time: the slow path, with exact error messages."""
    has_float = has_fraction = has_decimal = has_big = False
    converted: list = []
    append = converted.append
    for index, item in enumerate(items):
        if is_bool(item):
            raise _not_a_coin(where, index, item)
        if isinstance(item, int):
            item = int(item)
            if not _INT64_MIN <= item <= _INT64_MAX:
                has_big = True
        elif isinstance(item, float):
            item = float(item)
            if not math.isfinite(item):
                raise _not_finite(where, index, item)
            has_float = True
        elif isinstance(item, Fraction):
            has_fraction = True
        elif isinstance(item, Decimal):
            if not item.is_finite():
                raise _not_finite(where, index, item)
            has_decimal = True
        elif isinstance(item, numbers.Integral):
            try:
                item = int(item)
            except (TypeError, ValueError, OverflowError):
                raise _not_a_coin(where, index, item) from None
            if not _INT64_MIN <= item <= _INT64_MAX:
                has_big = True
        elif isinstance(item, numbers.Rational):
            try:
                item = Fraction(int(item.numerator), int(item.denominator))
            except (TypeError, ValueError, ZeroDivisionError, OverflowError):
                raise _not_a_coin(where, index, item) from None
            has_fraction = True
        elif isinstance(item, numbers.Real):
            original = item
            try:
                item = float(item)
            except OverflowError:
                raise ValueError(f"{where}: coin at index {index} is {describe(original)}; "
                                 "it is too large for a float") from None
            except (TypeError, ValueError):
                raise _not_a_coin(where, index, item) from None
            if not math.isfinite(item):
                # A wide float (e.g. numpy.longdouble) can be finite and still be inf as a float.
                raise _not_finite(where, index, original)
            has_float = True
        else:
            raise _not_a_coin(where, index, item)
        append(item)
    if has_decimal and (has_float or has_fraction):
        raise TypeError(f"{where} mixes Decimal with float or Fraction coins; use one kind")
    if has_float:
        return _to_float_column(converted, where)
    if has_fraction:
        return Column(OBJECTS, converted, Fraction, where)
    if has_decimal:
        decimals = [x if isinstance(x, Decimal) else Decimal(x) for x in converted]
        _check_decimal_digits(decimals, where)
        return Column(OBJECTS, decimals, Decimal, where)
    if has_big:
        return Column(OBJECTS, converted, int, where)
    return Column(INT64, array("q", converted), int, where)


def _check_decimal_digits(decimals: list, where: str) -> None:
    """Refuse Decimal coins whose exact sums need far more digits than the coins have."""
    if not decimals:
        return
    low = high = 0  # sums start from the integer 0
    low_index = high_index = -1
    input_digits = 0
    for index, d in enumerate(decimals):
        _sign, digits, exponent = d.as_tuple()
        input_digits += len(digits)
        if exponent < low:
            low, low_index = exponent, index
        top = exponent + len(digits)
        if top > high:
            high, high_index = top, index
    span = high - low
    if span * len(decimals) > max(_DECIMAL_DIGIT_BUDGET, 10 * input_digits):
        ends = []
        if high_index >= 0:
            ends.append(f"coin at index {high_index} is {short_repr(decimals[high_index])}")
        if low_index >= 0:
            ends.append(f"coin at index {low_index} is {short_repr(decimals[low_index])}")
        raise ValueError(
            f"{where}: exact Decimal sums of these coins need {span} digits each "
            f"({', '.join(ends)}); round the coins to a common, smaller exponent range"
        )


def _to_float_column(values: Sequence, where: str) -> Column:
    try:
        return Column(FLOAT64, array("d", [float(x) for x in values]), int, where)
    except OverflowError:
        raise _too_large_for_float(values, where, "the row has float coins") from None


def _too_large_for_float(values: Sequence, where: str, reason: str) -> ValueError:
    for index, x in enumerate(values):
        try:
            float(x)
        except OverflowError:
            return ValueError(
                f"{where}: coin at index {index} is too large for a float; {reason}, "
                "so all coins are solved as floats"
            )
    return ValueError(f"{where}: a coin is too large for a float")  # pragma: no cover


def read_once(row: Any, where: str) -> Any:
    """``row`` itself when it can be read again (a sequence, a NumPy or Arrow array, a
    buffer; a set, a mapping or no iterable at all, which ``column`` refuses); otherwise (a
    generator, ``map``, ``iter(...)``, any iterable that may be read only once) its coins read
    into a list, once, so that every later pass over the row (the one-pass packing of a game,
    then the general reading of its numbers when the packing declines) sees the same coins.
    O(n) for an iterable read here, O(1) otherwise."""
    if (row.__class__ is list or row.__class__ is tuple
            or isinstance(row, (Sequence, Set, Mapping)) or not isinstance(row, Iterable)
            or _is_numpy_array(row) or is_arrow(row)):
        return row
    try:
        memoryview(cast(Any, row))
        return row
    except TypeError:
        pass
    _refuse_pandas_missing(row, where)  # the list would hold the NaN, not what was written
    try:
        return list(row)
    except OverflowError:  # a count past sys.maxsize: more coins than a list can hold
        raise ValueError(f"{where} is {describe(row)}; it has too many coins") from None


def column(row: Any, where: str) -> Column:
    """Normalise one row or stack. ``where`` names it in error messages ("row 2")."""
    if is_arrow(row):
        row = arrow_row(row, where)
    if isinstance(row, (str, bytes, bytearray)):
        raise TypeError(f"{where} is a {type(row).__name__}; {_EXPECTED}")
    if _is_numpy_array(row):
        found = _from_numpy(row, where)
        if found is not None:
            return found
    elif isinstance(row, (Set, Mapping)):
        # Iterating them gives no meaningful left-to-right order (or gives a dict's keys).
        raise TypeError(f"{where} is a {type(row).__name__}, which has no order of coins; "
                        f"{_EXPECTED}")
    elif not isinstance(row, (list, tuple)):
        _refuse_pandas_missing(row, where)
        found = _from_buffer(row, where)
        if found is not None:
            return found
    if isinstance(row, list):
        items = row
    else:
        try:
            iterator = iter(row)
        except TypeError:
            raise TypeError(f"{where} is {describe(row)}; {_EXPECTED}") from None
        try:
            items = list(iterator)
        except OverflowError:  # e.g. range(10**20): more coins than a list can hold
            raise ValueError(f"{where} is {describe(row)}; it has too many coins") from None
    kinds = set(map(type, items))
    if kinds <= {int}:
        try:
            return Column(INT64, array("q", items), int, where)
        except OverflowError:
            return Column(OBJECTS, list(items), int, where)
    if kinds <= {int, float}:
        # NaN and infinities are found by the kernel, without a Python pass here.
        return _to_float_column(items, where)
    return _classify(items, where)


def unify(columns: Sequence[Column], where: str = "game") -> tuple[str, type]:
    """The storage kind (and exact result type) that all components are solved in."""
    kinds = {c.kind for c in columns}
    exact = {c.exact_type for c in columns if c.kind == OBJECTS}
    if FLOAT64 in kinds:
        if Decimal in exact:
            raise TypeError(f"{where} mixes Decimal with float coins; use one kind")
        return FLOAT64, float
    if OBJECTS in kinds:
        if Decimal in exact and Fraction in exact:
            raise TypeError(f"{where} mixes Decimal with Fraction coins; use one kind")
        if Decimal in exact:
            if len(columns) > 1:
                _check_decimal_digits([x for c in columns for x in as_objects(c, Decimal)],
                                      where)
            return OBJECTS, Decimal
        if Fraction in exact:
            return OBJECTS, Fraction
        return OBJECTS, int
    return INT64, int


def as_objects(col: Column, exact_type: type) -> list:
    """The column's coins as a list of exact Python numbers of ``exact_type``."""
    if col.kind == OBJECTS:
        data = col.data if isinstance(col.data, list) else list(col.data)
    else:
        data = cast(Buffer1D, col.data).tolist()
    if exact_type is Decimal:
        return [x if isinstance(x, Decimal) else Decimal(x) for x in data]
    return data


def as_floats(col: Column) -> Buffer1D:
    """The column's coins as float64 (for a game where some component has float coins)."""
    if col.kind == FLOAT64:
        return cast(Buffer1D, col.data)
    values = as_objects(col, int)
    try:
        return array("d", [float(x) for x in values])
    except OverflowError:
        raise _too_large_for_float(values, col.where, "the game has float coins") from None


def as_int64(col: Column) -> Buffer1D:
    return cast(Buffer1D, col.data)


# -- one flat storage of a game's coins -------------------------------------------------------

def round_float(exact: Any) -> float:
    """An exact number rounded to the nearest float: +-inf beyond the float range."""
    try:
        return float(exact)
    except OverflowError:
        return math.inf if exact > 0 else -math.inf


class Coins:
    """The flat storage of a position's coins, and the exact-number context of its game.

    ``kind`` is INT64, FLOAT64 or OBJECTS; ``data`` an int64/float64 buffer (a memoryview)
    or a list of Python numbers of one ``exact_type`` (int, Fraction or Decimal; ``float``
    for FLOAT64, ``int`` for INT64). Component c occupies ``data[bases[c]:bases[c] +
    lengths[c]]``; components ``n_rows ..`` are stacks; ``names[c]`` names it in errors. A
    forest's nodes follow them from ``forest_base`` on. Immutable once built: the positions
    of a game share it.
    """

    __slots__ = ("kind", "exact_type", "data", "bases", "lengths", "n_rows", "names",
                 "forest_base", "_objects", "_exact", "_exponent")

    def __init__(self, kind: str, exact_type: type, data: Any, bases: Sequence[int],
                 lengths: Sequence[int], n_rows: int, names: Sequence[str],
                 forest_base: int | None = None) -> None:
        self.kind = kind
        self.exact_type = float if kind == FLOAT64 else exact_type
        self.data = data
        self.bases = bases
        self.lengths = lengths
        self.n_rows = n_rows
        self.names = names
        self.forest_base = forest_base
        self._objects: list | None = None
        self._exact: list | None = None
        self._exponent: int | None = None

    def __len__(self) -> int:
        return len(self.data)

    # -- the numbers in the forms the kernels read ------------------------------------------

    def objects(self) -> list:
        """The coins as Python numbers (ints, floats, Fractions or Decimals), cached."""
        if self._objects is None:
            self._objects = self.data if self.kind == OBJECTS else self.data.tolist()
        return self._objects

    def exact(self) -> list:
        """The coins as exact numbers: floats become Fractions (no NaN or infinity is left
        by then: the machine kernel or ``check_finite`` has refused them)."""
        if self._exact is None:
            if self.kind == FLOAT64:
                coins = self.objects()
                try:
                    self._exact = [Fraction(x) for x in coins]
                except (ValueError, OverflowError):
                    bad = next(i for i, x in enumerate(coins) if not math.isfinite(x))
                    raise self.not_finite(bad) from None
            else:
                self._exact = self.objects()
        return self._exact

    def decimal_exponent(self) -> int:
        """The finest exponent among ALL the game's coins, forest included (0 if none is
        finer): every sum of coins is exact there."""
        if self._exponent is None:
            exponent = 0
            if self.exact_type is Decimal:
                for x in self.data:
                    e = x.as_tuple().exponent
                    if isinstance(e, int) and e < exponent:
                        exponent = e
            self._exponent = exponent
        return self._exponent

    # -- results and errors ------------------------------------------------------------------

    def number(self, exact: Any) -> Number:
        """An answer in the game's number type: floats rounded once, 0 typed."""
        kind = self.exact_type
        if kind is float:
            return exact if type(exact) is float else round_float(exact)
        if kind is int:
            return int(exact)
        result: Any = exact if type(exact) is kind else kind(exact)
        return cast(Number, result)

    def coin(self, flat_index: int) -> Number:
        coin: Number = self.data[flat_index]
        return coin

    def locate(self, flat_index: int) -> tuple[str, str]:
        """(name of the component, "index i" or "node i") of a flat index."""
        base = self.forest_base
        if base is not None and flat_index >= base:
            return "forest", f"node {flat_index - base}"
        for c, (start, length) in enumerate(zip(self.bases, self.lengths)):
            if start <= flat_index < start + length:
                return self.names[c], f"index {flat_index - start}"
        return "game", f"index {flat_index}"  # pragma: no cover - every coin has a place

    def not_finite(self, flat_index: int) -> ValueError:
        name, place = self.locate(flat_index)
        return ValueError(f"{name}: coin at {place} is {short_repr(self.coin(flat_index))}; "
                          "coins must be finite")


def storage(columns: Sequence[Column], n_rows: int, names: Sequence[str],
            forest: Column | None = None, *, copy: bool = True, where: str = "game") -> Coins:
    """One flat storage for the components (rows first, then stacks) and a forest's values
    (after them), in the one number kind they are solved in (``unify``).

    With ``copy`` (a ``Game``: immutable, it never keeps a view of a caller's mutable
    buffer) the coins are always copied; without it (one call of a one-row function) a
    single int64/float64 buffer is read where it is. O(n).
    """
    lengths = [len(c) for c in columns]
    bases = []
    offset = 0
    for length in lengths:
        bases.append(offset)
        offset += length
    every = list(columns) if forest is None else [*columns, forest]
    kind, exact_type = unify(every, where)
    data: Any
    if kind in (INT64, FLOAT64):
        parts = [cast(Buffer1D, c.data) if kind == INT64 else as_floats(c) for c in every]
        if len(parts) == 1 and not (copy and isinstance(parts[0], memoryview)):
            data = memoryview(parts[0])
        else:
            flat: array[Any] = array(TYPECODES[kind])
            for part in parts:
                flat.frombytes(memoryview(part).cast("B"))
            data = memoryview(flat)
    else:
        data = []
        for c in every:
            data.extend(as_objects(c, exact_type))
    return Coins(kind, exact_type, data, bases, lengths, n_rows, names,
                 None if forest is None else offset)


# Types that hold coins but are not rows (``Game``), refused by the one-row functions with a
# hint; the modules that define them register them (``refuse_as_row``), so that this module,
# at the bottom of the imports, needs none of them.
_NOT_ROWS: tuple[type, ...] = ()


def refuse_as_row(kind: type) -> None:
    """Make ``row_coins`` refuse ``kind`` ("expected a row of coins, got a Game; call its
    methods instead") instead of reporting it as an object that is not a sequence."""
    global _NOT_ROWS
    _NOT_ROWS += (kind,)


def row_coins(row: Any, name: str = "row") -> Coins:
    """The storage of one row for the one-row functions (a buffer is read where it is). O(n)
    (O(1) for an int64/float64 buffer)."""
    if isinstance(row, _NOT_ROWS):
        raise TypeError(f"expected a row of coins, got a {type(row).__name__}; "
                        "call its methods instead")
    col = column(row, name)
    return storage([col], 1, [name], copy=False, where=name)
