"""Arrow arrays read where they are: primitive numeric arrays as typed memoryviews of their
data buffers, list arrays as their child values and offsets, chunk by chunk.

``Game(rows=...)``/``Game(stacks=...)`` and ``values_many`` read Arrow input through these
functions; each caller checks the offsets and words its own errors. One row, stack or
forest column given as a 1-D Arrow array (``value``, ``Engine``, ``Game(rows=[array])``, ...)
is read by ``arrow_row``. pyarrow is never imported
here: an object is Arrow only if pyarrow is already loaded (``is_arrow``), so users without it
pay nothing. Every function is O(1) apart from the ones that look for nulls, O(number of
coins) when the array has nulls and O(1) otherwise.
"""

from __future__ import annotations

import bisect
import sys
from array import array
from collections.abc import Iterator
from typing import Any, NamedTuple

# The struct format of each primitive Arrow type whose data buffer is read as it is. uint64
# and half floats are cast first (``values_view``).
_FORMATS = {"int8": "b", "int16": "h", "int32": "i", "int64": "q", "uint8": "B",
            "uint16": "H", "uint32": "I", "float": "f", "double": "d"}


def is_arrow(obj: Any) -> bool:
    """Whether ``obj`` is a pyarrow ``Array`` or ``ChunkedArray``."""
    pyarrow = sys.modules.get("pyarrow")
    return pyarrow is not None and isinstance(obj, (pyarrow.Array, pyarrow.ChunkedArray))


def is_list_type(kind: Any) -> bool:
    """Whether an Arrow type is a list, large list or fixed-size list."""
    types = sys.modules["pyarrow"].types
    return bool(types.is_list(kind) or types.is_large_list(kind)
                or types.is_fixed_size_list(kind))


def values_view(values: Any) -> memoryview | None:
    """A primitive numeric Arrow array as a typed memoryview of its data buffer, without a
    copy; uint64 and half floats are cast to int64 and float64 first (a copy). None for other
    types and for uint64 values beyond int64 (the caller reads them as Python ints)."""
    pyarrow = sys.modules["pyarrow"]
    name = str(values.type)
    if name in ("uint64", "halffloat"):
        target = pyarrow.int64() if name == "uint64" else pyarrow.float64()
        try:
            values = values.cast(target)
        except (pyarrow.ArrowInvalid, pyarrow.ArrowNotImplementedError):
            return None
        name = str(values.type)
    fmt = _FORMATS.get(name)
    if fmt is None:
        return None
    data = values.buffers()[1]
    # typeshed's memoryview.cast takes only literal formats: the casts to ``fmt`` are
    # ignored, their results annotated.
    size = memoryview(b"").cast(fmt).itemsize  # type: ignore[call-overload]
    if data is None or len(values) == 0:
        empty: memoryview = memoryview(b"").cast(fmt)  # type: ignore[call-overload]
        return empty
    start = values.offset * size
    view: memoryview = memoryview(data)[start:start + len(values) * size].cast(
        fmt)  # type: ignore[call-overload]
    return view


def arrow_row(values: Any, where: str, item: str = "coin") -> Any:
    """One row or stack given as an Arrow array (or ``ChunkedArray``): a primitive numeric
    array as a typed memoryview of its data buffer (``values_view``: no copy for one chunk),
    a decimal one or uint64 beyond int64 as its Python numbers. A list array (rows, where one
    row is expected), a null or another type is a ``TypeError``/``ValueError`` naming
    ``where`` (``item`` names its entries: a coin, a parent) and what is accepted. O(1), or
    O(n) with nulls or exact numbers."""
    pyarrow = sys.modules["pyarrow"]
    if isinstance(values, pyarrow.ChunkedArray):
        values = values.combine_chunks()
    kind = values.type
    if is_list_type(kind):
        raise TypeError(f"{where} is an Arrow list array (rows of coins), not one row: a row "
                        "is a 1-D array of numbers; pass the lists to Game(rows=...) or "
                        "values_many(...), or one list (array[i].values)")
    types = pyarrow.types
    if not (types.is_integer(kind) or types.is_floating(kind) or types.is_decimal(kind)):
        raise TypeError(f"{where} is an Arrow array of {kind}; {item}s must be numbers (an "
                        "Arrow array of integers, floats or decimals)")
    if values.null_count:
        nulls: list[bool] = values.is_null().to_pylist()
        raise ValueError(f"{where}: {item} at index {nulls.index(True)} is null")
    view = values_view(values)
    return view if view is not None else values.to_pylist()


class ListChunk(NamedTuple):
    """One chunk of a list array: its lists are ``values[offsets[j]:offsets[j + 1]]``."""

    first: int  # the index of the chunk's first list in the whole array
    lists: Any  # the chunk itself (a list array)
    values: Any  # its whole child array: the offsets say which coins are its lists'
    offsets: memoryview  # int32 or int64, not checked


def list_chunks(lists: Any) -> Iterator[ListChunk]:
    """The chunks of a list array (or of a ``ChunkedArray`` of list arrays), read where they
    are. The offsets are not checked here: each caller checks them with its own words."""
    pyarrow = sys.modules["pyarrow"]
    chunks = lists.chunks if isinstance(lists, pyarrow.ChunkedArray) else [lists]
    kind = lists.type
    first = 0
    for chunk in chunks:
        if pyarrow.types.is_fixed_size_list(kind):
            size = kind.list_size
            offsets: Any = memoryview(array("q", range(0, len(chunk) * size + 1, size)))
            yield ListChunk(first, chunk, chunk.flatten(), offsets)
        else:
            view = values_view(chunk.offsets)  # int32 or int64: always read in place
            if view is None:  # pragma: no cover - Arrow list offsets are never another type
                raise TypeError(f"an Arrow list array with offsets of {chunk.offsets.type}")
            yield ListChunk(first, chunk, chunk.values, view)
        first += len(chunk)


def first_null_list(chunk: ListChunk) -> int | None:
    """The index in the whole array of the chunk's first null list, or None."""
    if not chunk.lists.null_count:
        return None
    nulls: list[bool] = chunk.lists.is_null().to_pylist()
    return chunk.first + nulls.index(True)


def first_null_coin(values: Any, offsets: Any) -> tuple[int, int] | None:
    """The first null among the coins the (checked) offsets cover, as (list j, index in list
    j) counted from ``offsets[0]``'s list, or None."""
    lo, hi = offsets[0], offsets[len(offsets) - 1]
    if not values.null_count:
        return None
    nulls = values.slice(lo, hi - lo).is_null().to_pylist()
    if True not in nulls:
        return None
    flat = lo + nulls.index(True)
    j = bisect.bisect_right(offsets, flat) - 1
    return j, flat - offsets[j]
