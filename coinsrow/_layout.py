"""A new game's input laid out in one flat storage: its rows, stacks and forest as ``Coins``.

``layout(rows, stacks, forest)`` is how ``Game`` stores a new game. The common inputs (lists
of ints or floats, NumPy arrays and other numeric buffers, Arrow list arrays) are packed by
one compiled pass (``_core.pack_components``); a component that pass does not take is
normalised on its own by ``_coins.column`` (whose errors name it), and a game that needs
exact numbers is stored by ``_coins.storage``. docs/positions.md describes the storage.
"""

from __future__ import annotations

import numbers
import sys
from array import array
from collections.abc import Iterable, Mapping, Sequence, Set
from decimal import Decimal
from typing import Any, NamedTuple

from . import _core
from ._arrow import (
    first_null_coin,
    first_null_list,
    is_arrow,
    is_list_type,
    list_chunks,
    values_view,
)
from ._coins import (
    FLOAT64,
    INT64,
    OBJECTS,
    Coins,
    Column,
    column,
    describe,
    read_once,
    storage,
)

__all__ = ["Layout", "layout", "unpacked"]


def _group(label: str, group: Any) -> list:
    """The components of ``rows=`` or ``stacks=`` as a new list, not yet checked one by one
    (a component that may be read only once is read in ``layout``, where the packing
    declines it). O(k)."""
    if group.__class__ is list or group.__class__ is tuple:
        return list(group)  # the common case, without the checks of abstract types below
    if isinstance(group, (str, bytes, Set, Mapping)) or not isinstance(group, Iterable):
        raise TypeError(f"{label}s must be a sequence of {label}s, got {type(group).__name__}")
    try:
        return list(group)
    except NotImplementedError:  # a multi-dimensional memoryview cannot be iterated
        raise TypeError(
            f"{label}s must be a sequence of {label}s, got {type(group).__name__}"
        ) from None
    except OverflowError:  # e.g. range(10**20): more components than a list can hold
        raise ValueError(f"{label}s is {describe(group)}; it has too many {label}s") from None


def _column(label: str, i: int, component: Any) -> Column:
    """Component i of ``rows=`` or ``stacks=``, normalised (the one-by-one path, whose
    errors name the component and the coin)."""
    if isinstance(component, (numbers.Number, Decimal)):
        raise TypeError(
            f"{label}s[{i}] is {describe(component)}, not a "
            f"{label}; {label}s= takes a sequence of {label}s, e.g. {label}s=[[3, 1, 2]]"
        )
    return column(component, f"{label} {i}")


def _columns(rows: list, stacks: list) -> list[Column]:
    """The rows' and the stacks' columns (rows first), one component at a time."""
    return ([_column("row", i, r) for i, r in enumerate(rows)]
            + [_column("stack", i, s) for i, s in enumerate(stacks)])


class _Names(Sequence[str]):
    """The components' names for error messages ("row 3", "stack 0"), made when asked."""

    __slots__ = ("_k", "_n_rows")

    def __init__(self, n_rows: int, k: int) -> None:
        self._n_rows = n_rows
        self._k = k

    def __len__(self) -> int:
        return self._k

    def __getitem__(self, c: Any) -> Any:
        if isinstance(c, slice):
            return [self[i] for i in range(*c.indices(self._k))]
        if not 0 <= c < self._k:
            raise IndexError(c)
        return f"row {c}" if c < self._n_rows else f"stack {c - self._n_rows}"


class _Lengths(Sequence[int]):
    """The components' lengths, from their offsets (Arrow's list layout)."""

    __slots__ = ("_offsets",)

    def __init__(self, offsets: Any) -> None:
        self._offsets = offsets

    def __len__(self) -> int:
        return len(self._offsets) - 1

    def __getitem__(self, c: Any) -> Any:
        if isinstance(c, slice):
            return [self[i] for i in range(*c.indices(len(self)))]
        if not 0 <= c < len(self):
            raise IndexError(c)
        return int(self._offsets[c + 1] - self._offsets[c])


def _buffer_types() -> tuple[type, ...]:
    """The buffer types the packing kernel reads (their format is checked there)."""
    numpy = sys.modules.get("numpy")
    return (array, memoryview) if numpy is None else (array, memoryview, numpy.ndarray)


class Layout(NamedTuple):
    """The coins of a new game and where each component is in them."""

    coins: Coins
    starts: Any
    stops: Any
    coins_in_components: int


def layout(rows: Any, stacks: Any, forest: Column | None) -> Layout:
    """The storage of a new game: the coins of its rows, stacks and forest in one buffer.

    The common inputs (lists of ints or floats, NumPy arrays and other numeric buffers,
    Arrow list arrays) are packed by one compiled pass, ``pack_components``; a component it
    does not take (exact numbers, other types) is normalised on its own by ``column``, whose
    errors name it, and when some component needs exact numbers the whole game is stored as
    ``storage`` stores it. O(n + k) compiled, plus O(1) Python per component the kernel
    does not take. A single Arrow list array of int64 or float64 coins (rows alone, or
    stacks alone) is read where it is, without a copy.
    """
    row_items, n_rows = _items("row", rows)
    try:
        stack_items, n_stacks = _items("stack", stacks)
    except Exception:
        _columns(_expanded(row_items), [])  # the rows' errors come first
        raise
    k = n_rows + n_stacks
    if forest is None and len(row_items) + len(stack_items) == 1:
        single = (row_items or stack_items)[0]
        if isinstance(single, _core.PackSpan):
            shared = _shared_span(single, n_rows, _Names(n_rows, k))
            if shared is not None:
                return shared
    items = row_items + stack_items
    if forest is not None:
        if forest.kind == OBJECTS:
            return _stored(row_items, stack_items, forest)
        items.append(forest.data)
    status, payload = _core.pack_components(items, _buffer_types())
    if status == _core.Packing.PACK_ELSEWHERE:
        if any(isinstance(item, _core.PackSpan) for item in row_items + stack_items):
            return _stored(row_items, stack_items, forest)
        marks = payload
        n_row_items = len(row_items)
        n_components = n_row_items + len(stack_items)
        i = marks.find(1)
        while i >= 0:
            label, index = ("row", i) if i < n_row_items else ("stack", i - n_row_items)
            if i >= n_components:
                return _stored(row_items, stack_items, forest)  # the forest's values
            # The packing does not read what it declines: an iterator is read here, once,
            # and every later pass (``_stored``) reads the list it became.
            items[i] = read_once(items[i], f"{label} {index}")
            (row_items if i < n_row_items else stack_items)[index] = items[i]
            col = _column(label, index, items[i])
            if col.kind == OBJECTS:
                return _stored(row_items, stack_items, forest)
            items[i] = col.data
            i = marks.find(1, i + 1)
        status, payload = _core.pack_components(items, _buffer_types())
        if status != _core.Packing.PACKED:  # pragma: no cover - a list changed meanwhile
            return _stored(row_items, stack_items, forest)
    data, offsets = payload
    return _packed(data, offsets, n_rows, k, forest)


def unpacked(data: memoryview, offsets: array, n_rows: int) -> Layout:
    """The layout of a game that ``short_rows.pack`` packed (``data``, ``offsets``, its rows
    first): what ``layout`` answers for the same game. O(1)."""
    return _packed(data, offsets, n_rows, len(offsets) - 1, None)


def _packed(data: memoryview, offsets: array, n_rows: int, k: int,
            forest: Column | None) -> Layout:
    """The layout of the coins of k components (rows first) and a forest's values packed
    into ``data``, component c in ``data[offsets[c]:offsets[c + 1]]``. O(1)."""
    kind = FLOAT64 if data.format == "d" else INT64
    bounds = memoryview(offsets)
    coins = Coins(kind, int, data, bounds[:k], _Lengths(bounds[:k + 1]), n_rows,
                  _Names(n_rows, k), None if forest is None else offsets[k])
    return Layout(coins, bounds[:k], bounds[1:k + 1], offsets[k])


def _items(label: str, group: Any) -> tuple[list, int]:
    """The items to pack of ``rows=`` or ``stacks=`` and their number of components."""
    if not is_arrow(group):
        items = _group(label, group)
        return items, len(items)
    items = _arrow_items(label, group)
    count = 0
    for item in items:
        count += len(item.offsets) - 1 if isinstance(item, _core.PackSpan) else 1
    return items, count


def _stored(row_items: list, stack_items: list, forest: Column | None) -> Layout:
    """The one-by-one path: every component normalised by ``column``, then ``storage``."""
    rows = _expanded(row_items)
    stacks = _expanded(stack_items)
    columns = _columns(rows, stacks)
    coins = storage(columns, len(rows), _Names(len(rows), len(columns)), forest)
    starts = array("q", coins.bases)
    stops = array("q", [b + n for b, n in zip(coins.bases, coins.lengths)])
    return Layout(coins, starts, stops, sum(coins.lengths))


def _expanded(items: list) -> list:
    """The components of a group, Arrow spans as one list of Python numbers each."""
    components: list = []
    for item in items:
        if isinstance(item, _core.PackSpan):
            values = memoryview(item.values).tolist()
            offsets = memoryview(item.offsets)
            components += [values[offsets[j]:offsets[j + 1]] for j in range(len(offsets) - 1)]
        else:
            components.append(item)
    return components


def _shared_span(span: Any, n_rows: int, names: Sequence[str]) -> Layout | None:
    """A game that is one Arrow list array of int64 or float64 coins, without a copy: its
    coins are read in the Arrow buffer, its offsets widened to int64 (O(k))."""
    values, offsets = memoryview(span.values), memoryview(span.offsets)
    if values.format not in ("q", "d"):
        return None
    first, last = offsets[0], offsets[len(offsets) - 1]
    if first != 0:
        return None  # a sliced array: packed, so that no coin outside the games is kept
    if offsets.format != "q":
        widened = array("q", bytes(8 * len(offsets)))
        _core.batch_check_offsets(offsets, last, widened)  # checked valid: widened only
        offsets = memoryview(widened)
    k = len(offsets) - 1
    data = values[:last]
    coins = Coins(FLOAT64 if values.format == "d" else INT64, int, data, offsets[:k],
                  _Lengths(offsets), n_rows, names)
    return Layout(coins, offsets[:k], offsets[1:], last)


def _arrow_items(label: str, group: Any) -> list:
    """An Arrow list array (a ChunkedArray of them, a LargeList, a FixedSizeList) of rows or
    stacks: one ``PackSpan`` per chunk, reading its buffers where they are; lists of Python
    numbers for value types the kernels do not read (decimals, ...). ``ValueError`` for a
    null component or a null coin, naming it."""
    if not is_list_type(group.type):
        raise TypeError(f"{label}s is an Arrow array of {group.type}, not of lists: give an "
                        f"Arrow list array, one list of coins per {label}")
    items: list = []
    for chunk in list_chunks(group):
        null_list = first_null_list(chunk)
        if null_list is not None:
            raise ValueError(f"{label}s[{null_list}] is null, not a {label}")
        offsets = chunk.offsets
        problem, _ = _core.batch_check_offsets(offsets, len(chunk.values), array("q"))
        if problem != _core.OffsetsProblem.OFFSETS_OK:
            raise ValueError(f"{label}s is an Arrow list array with invalid offsets")
        null_coin = first_null_coin(chunk.values, offsets)
        if null_coin is not None:
            j, index = null_coin
            raise ValueError(f"{label} {chunk.first + j}: coin at index {index} is "
                             "null; coins must be numbers")
        view = values_view(chunk.values)
        if view is None:
            lo, hi = offsets[0], offsets[len(offsets) - 1]
            python = chunk.values.slice(lo, hi - lo).to_pylist()
            items += [python[offsets[j] - lo:offsets[j + 1] - lo]
                      for j in range(len(offsets) - 1)]
        else:
            items.append(_core.PackSpan(view, offsets))
    return items
