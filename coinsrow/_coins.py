"""Input normalisation: any row or stack becomes one of three storages the kernels read.

- ``INT64``: a contiguous 1-D buffer of int64 (a NumPy array or ``array.array`` is used as
  it is, without a copy, when it already is one).
- ``FLOAT64``: the same for float64. Finiteness is checked by the kernel, in its own pass.
- ``OBJECTS``: a list of Python numbers of one exact kind (ints beyond int64, ``Fraction``,
  ``Decimal``), solved by the kernels' Python-number loop.
"""

from __future__ import annotations

import math
import numbers
import sys
from array import array
from collections.abc import Iterable, Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Any, Union

INT64 = "int64"
FLOAT64 = "float64"
OBJECTS = "objects"

Storage = Union[memoryview, array, list]

_INT_FORMATS = frozenset("bBhHiIlLqQnN")
_SIGNED_8_BYTE_FORMATS = frozenset("lqn")
_FLOAT_FORMATS = frozenset("efd")
_NATIVE_ORDER = "<" if sys.byteorder == "little" else ">"
_INT64_MAX = 2**63 - 1
_INT64_MIN = -(2**63)


class Column:
    """One normalised component: its storage kind and the data."""

    __slots__ = ("kind", "data", "exact_type")

    def __init__(self, kind: str, data: Storage, exact_type: type = int) -> None:
        self.kind = kind
        self.data = data
        # For OBJECTS: int, Fraction or Decimal, the type of the results.
        self.exact_type = exact_type

    def __len__(self) -> int:
        return len(self.data)


def _describe(value: Any) -> str:
    text = repr(value)
    if len(text) > 40:
        text = text[:37] + "..."
    return f"{text} of type {type(value).__name__}"


def _strip_byte_order(fmt: str) -> tuple[str, bool]:
    """The struct code of a buffer format and whether it is in native byte order."""
    if fmt[:1] in "@=":
        return fmt[1:], True
    if fmt[:1] in "<>!":
        return fmt[1:], fmt[0] == _NATIVE_ORDER
    return fmt, True


def _is_numpy_array(obj: Any) -> bool:
    numpy = sys.modules.get("numpy")
    return numpy is not None and isinstance(obj, numpy.ndarray)


def _from_numpy(arr: Any, where: str) -> Column | None:
    """NumPy arrays: vectorised conversion, one pass at most, never a Python loop."""
    import numpy as np

    if arr.ndim != 1:
        raise ValueError(f"{where} must be 1-dimensional, got an array of shape {arr.shape}")
    kind = arr.dtype.kind
    if kind == "O":
        return None  # a sequence of Python objects: checked element by element
    if kind == "b":
        raise TypeError(f"{where} has dtype bool; coins must be numbers, not booleans")
    if kind in "iu":
        if arr.dtype == np.int64 and arr.flags.c_contiguous:
            return Column(INT64, memoryview(arr).cast("B").cast("q"))
        if kind == "u" and arr.dtype.itemsize == 8 and arr.size and int(arr.max()) > _INT64_MAX:
            return Column(OBJECTS, arr.tolist())
        return Column(INT64, memoryview(np.ascontiguousarray(arr, dtype=np.int64)))
    if kind == "f":
        if arr.dtype.itemsize > 8:
            raise TypeError(
                f"{where} has dtype {arr.dtype}; extended-precision floats are not supported"
            )
        if arr.dtype == np.float64 and arr.flags.c_contiguous:
            return Column(FLOAT64, memoryview(arr).cast("B").cast("d"))
        return Column(FLOAT64, memoryview(np.ascontiguousarray(arr, dtype=np.float64)))
    raise TypeError(f"{where} has dtype {arr.dtype}; coins must be real numbers")


def _from_buffer(obj: Any, where: str) -> Column | None:
    """Buffers other than NumPy arrays (``array.array``, ``memoryview``, ...)."""
    try:
        view = memoryview(obj)
    except TypeError:
        return None
    if view.ndim != 1:
        raise ValueError(f"{where} must be a 1-dimensional buffer, got {view.ndim} dimensions")
    code, native = _strip_byte_order(view.format)
    if code not in _INT_FORMATS and code not in _FLOAT_FORMATS:
        raise TypeError(f"{where} is a buffer of format {view.format!r}; coins must be numbers")
    if not native:
        raise TypeError(f"{where} is a buffer in non-native byte order {view.format!r}")
    if code in _FLOAT_FORMATS:
        if code == "d" and view.c_contiguous:
            return Column(FLOAT64, view.cast("B").cast("d") if view.format != "d" else view)
        return Column(FLOAT64, array("d", view.tolist()))
    if code in _SIGNED_8_BYTE_FORMATS and view.itemsize == 8 and view.c_contiguous:
        return Column(INT64, view if view.format == "q" else view.cast("B").cast("q"))
    values = view.tolist()
    try:
        return Column(INT64, array("q", values))
    except OverflowError:
        return Column(OBJECTS, values)


def _classify(items: list, where: str) -> Column:
    """Python numbers, one element at a time: the slow path, with exact error messages."""
    has_float = has_fraction = has_decimal = has_big = False
    converted: list = []
    append = converted.append
    for index, item in enumerate(items):
        if isinstance(item, bool) or type(item).__name__ == "bool_":
            raise TypeError(
                f"{where}: coin at index {index} is {_describe(item)}; booleans are not coins"
            )
        if isinstance(item, int):
            item = int(item)
            if not _INT64_MIN <= item <= _INT64_MAX:
                has_big = True
        elif isinstance(item, float):
            item = float(item)
            if not math.isfinite(item):
                raise ValueError(f"{where}: coin at index {index} is {item!r}; coins must be finite")
            has_float = True
        elif isinstance(item, Fraction):
            has_fraction = True
        elif isinstance(item, Decimal):
            if not item.is_finite():
                raise ValueError(f"{where}: coin at index {index} is {item!r}; coins must be finite")
            has_decimal = True
        elif isinstance(item, numbers.Integral):
            item = int(item)
            if not _INT64_MIN <= item <= _INT64_MAX:
                has_big = True
        elif isinstance(item, numbers.Rational):
            item = Fraction(item.numerator, item.denominator)
            has_fraction = True
        elif isinstance(item, numbers.Real):
            try:
                item = float(item)
            except (TypeError, ValueError, OverflowError):
                raise TypeError(f"{where}: coin at index {index} is {_describe(item)}") from None
            if not math.isfinite(item):
                raise ValueError(f"{where}: coin at index {index} is {item!r}; coins must be finite")
            has_float = True
        else:
            raise TypeError(
                f"{where}: coin at index {index} is {_describe(item)}; coins must be real numbers"
            )
        append(item)
    if has_decimal and (has_float or has_fraction):
        raise TypeError(f"{where} mixes Decimal with float or Fraction coins; use one kind")
    if has_float:
        return _to_float_column(converted, where)
    if has_fraction:
        return Column(OBJECTS, converted, Fraction)
    if has_decimal:
        return Column(OBJECTS, [Decimal(x) for x in converted], Decimal)
    if has_big:
        return Column(OBJECTS, converted)
    return Column(INT64, array("q", converted))


def _to_float_column(values: list, where: str) -> Column:
    try:
        return Column(FLOAT64, array("d", [float(x) for x in values]))
    except OverflowError:
        for index, x in enumerate(values):
            try:
                float(x)
            except OverflowError:
                raise ValueError(
                    f"{where}: coin at index {index} is too large for a float; the row "
                    "has float coins, so all coins are solved as floats"
                ) from None
        raise


def column(row: Any, where: str) -> Column:
    """Normalise one row or stack. ``where`` names it in error messages ("row 2")."""
    if isinstance(row, (str, bytes, bytearray)):
        raise TypeError(
            f"{where} is a {type(row).__name__}; expected a sequence of numbers or a numeric buffer"
        )
    if _is_numpy_array(row):
        found = _from_numpy(row, where)
        if found is not None:
            return found
    elif not isinstance(row, (list, tuple)):
        found = _from_buffer(row, where)
        if found is not None:
            return found
    if isinstance(row, list):
        items = row
    else:
        if not isinstance(row, Iterable):
            raise TypeError(
                f"{where} is {_describe(row)}; expected a sequence of numbers or a numeric buffer"
            )
        items = list(row)
    kinds = set(map(type, items))
    if kinds <= {int}:
        try:
            return Column(INT64, array("q", items))
        except OverflowError:
            return Column(OBJECTS, list(items))
    if kinds <= {int, float}:
        column_ = _to_float_column(items, where)
        return column_
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
        data = col.data.tolist()
    if exact_type is Decimal:
        return [x if isinstance(x, Decimal) else Decimal(x) for x in data]
    return data


def as_floats(col: Column) -> array | memoryview:
    if col.kind == FLOAT64:
        return col.data
    return array("d", [float(x) for x in as_objects(col, int)])


def as_int64(col: Column) -> array | memoryview:
    return col.data
