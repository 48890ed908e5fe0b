"""Many independent one-row games at once: ``values_many`` and ``profits_many``.

A batch is either a sequence of rows, or one flat 1-D buffer of coins with offsets in Arrow's
list layout (game i is ``flat[offsets[i]:offsets[i + 1]]``), which is how a NumPy array of
concatenated rows, a ``pyarrow`` ListArray and a Parquet column of lists are stored. The
machine-number games are packed into one int64 and one float64 buffer (without a copy when
the input already is one), cut into chunks of whole games, and each chunk is solved by one
GIL-free kernel call (``_dispatch.run_games``, which reads the statuses); the chunks run on a
thread pool, so that a batch uses several cores without OpenMP. Games whose int64 arithmetic
overflows are redone exactly on Python ints, one by one; every other game keeps its machine
result.
"""

from __future__ import annotations

import bisect
import gc
import numbers
import struct
import sys
from array import array
from collections.abc import Callable, Iterable, Sequence
from decimal import Decimal
from itertools import repeat
from typing import Any, cast

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
    TYPECODES,
    Column,
    Number,
    column,
    describe,
    is_bool,
    split_format,
)
from ._dispatch import Answer, ChunkMap, run_game, run_games
from ._results import Profits
from ._threads import thread_count

__all__ = ["profits_many", "values_many"]

Result = Number | Profits

# Coins per kernel call: large enough that the Python work per call (a few microseconds) is
# negligible, small enough that the chunks balance the threads of a noisy, shared machine.
_CHUNK_COINS = 1 << 18
# Games per kernel call at most (for batches of many tiny or empty games).
_CHUNK_GAMES = 1 << 15
# From this many games on, profits_many pauses the garbage collector while it builds Profits.
_GC_PAUSE_GAMES = 10000

_INT_CODES = frozenset("bBhHiIlLqQnN")
_NATIVE_ORDER = "<" if sys.byteorder == "little" else ">"

# -- the public functions ------------------------------------------------------------------


def values_many(rows: Any, offsets: Any = None, *, threads: int | None = None) -> list[Number]:
    """The values of many independent one-row games: ``[value(row) for row in rows]``, faster.

    ``rows`` is one of:

    - a sequence (any iterable) of rows, each anything ``value`` accepts;
    - with ``offsets``: one flat 1-D buffer of coins (NumPy array, ``array.array``,
      ``memoryview``, ``pyarrow`` array, or a list of numbers) and ``offsets``, a 1-D integer
      sequence or buffer of length games + 1 in Arrow's list layout: game i is
      ``flat[offsets[i]:offsets[i + 1]]``. The offsets must be non-decreasing, with
      ``0 <= offsets[0]`` and ``offsets[-1] <= len(flat)``; as in Arrow, ``offsets[0]`` need
      not be 0 (a sliced array), and the coins outside ``flat[offsets[0]:offsets[-1]]`` belong
      to no game and are not read;
    - a ``pyarrow`` ListArray, LargeListArray, FixedSizeListArray or a ChunkedArray of them
      (e.g. a Parquet column of lists), read from its buffers without a copy;
    - a 2-D NumPy array: one game per row.

    Returns a list with one entry per game: entry i equals ``value`` of game i, of the same
    type (a Python ``int`` for integer coins, exact even where int64 overflows; a ``float``
    for float coins; ``Fraction`` or ``Decimal`` for those). ``0`` for an empty game. In a
    sequence of rows each game has its own type, as with ``value``; a flat buffer has one
    type for all its games. ``numpy.asarray(values_many(...))`` makes an array of it.

    The int64 and float64 games are solved by GIL-free kernels on ``threads`` threads
    (default: the cores this process may use; ``threads=1`` solves in the calling thread).
    A game whose int64 arithmetic overflows is redone exactly on Python ints, alone.
    O(total coins + games) time; extra memory: the results, the packed coins when the input
    is not already an int64/float64 buffer, and a small scratch buffer per thread.

    Parameters
    ----------
    rows : sequence of rows, flat buffer, pyarrow list array or 2-D NumPy array
        The games, as listed above.
    offsets : sequence or 1-D buffer of int, optional
        With a flat buffer of coins: where each game starts and stops (Arrow's layout).
    threads : int or None, default None
        The threads the kernels run on: ``None``, the cores this process may use; ``1``,
        the calling thread only; a count past the machine's cores, one thread a core; at
        most ``8192``.

    Returns
    -------
    list
        One value a game, each of its coins' type.

    Raises
    ------
    TypeError
        If a coin is not a real number, or ``rows`` is not one of the batches above (a flat
        buffer without ``offsets``); the message names the game and the coin's index.
    ValueError
        If a coin is NaN or infinite, or the offsets are not non-decreasing within the
        buffer; ``threads`` not a positive int (at most ``8192``) or ``None``
        (``TypeError`` for its type).

    Examples
    --------
    >>> values_many([[3, 2, 2, 3, 1, 2], [], [1, 2, 1000, 3, 4, 900], [2.5]])
    [3, 0, 1892, 2.5]
    >>> values_many([3, 2, 2, 3, 1, 2, 7], offsets=[0, 6, 6, 7])
    [3, 0, 7]
    """
    return _solve(rows, offsets, threads, False)


def profits_many(rows: Any, offsets: Any = None, *, threads: int | None = None) -> list[Profits]:
    """The profits of many independent one-row games: ``[profits(row) for row in rows]``.

    Takes the same batches as ``values_many`` (a sequence of rows, a flat buffer with Arrow
    offsets, a ``pyarrow`` list array, a 2-D NumPy array) and returns a list of
    ``Profits(first, second)``, entry i equal to ``profits`` of game i, of the same types.
    O(total coins + games) time on ``threads`` threads.

    Parameters
    ----------
    rows, offsets, threads
        The games and the threads, as for ``values_many``.

    Returns
    -------
    list of Profits
        One ``Profits(first, second)`` a game.

    Raises
    ------
    TypeError, ValueError
        As ``values_many``: naming the game and the coin, or the bad offset.

    Examples
    --------
    >>> profits_many([[3, 2, 2, 3, 1, 2], [], [-7]])
    [Profits(first=8, second=5), Profits(first=0, second=0), Profits(first=-7, second=0)]
    """
    return _solve(rows, offsets, threads, True)


# -- dispatch --------------------------------------------------------------------------------


def _solve(rows: Any, offsets: Any, threads: Any, want_profits: bool) -> list:
    n_threads = thread_count(threads)
    if offsets is not None:
        return _solve_flat_input(rows, offsets, n_threads, want_profits)
    if is_arrow(rows):
        return _solve_arrow(rows, n_threads, want_profits)
    if _is_numpy_array(rows) and rows.dtype.kind != "O":
        if rows.ndim == 2:
            return _solve_matrix(rows, n_threads, want_profits)
        if rows.ndim == 1:
            raise TypeError(
                "rows is a flat array of coins: give offsets= (game i is "
                "flat[offsets[i]:offsets[i + 1]]) or a sequence of rows"
            )
    elif isinstance(rows, (memoryview, array)):
        raise TypeError(
            "rows is a flat buffer of coins: give offsets= (game i is "
            "flat[offsets[i]:offsets[i + 1]]) or a sequence of rows"
        )
    return _solve_rows(rows, n_threads, want_profits)


def _is_numpy_array(obj: Any) -> bool:
    numpy = sys.modules.get("numpy")
    return numpy is not None and isinstance(obj, numpy.ndarray)


# -- a sequence of rows --------------------------------------------------------------------


class _Pack:
    """Games of one machine kind, packed into one flat buffer with their offsets."""

    __slots__ = ("coins", "games", "kind", "offsets")

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.coins = array(TYPECODES[kind])
        self.offsets = array("q", [0])
        self.games: list[int] = []  # the index of each packed game in the batch

    def add(self, index: int, data: Any) -> None:
        if isinstance(data, array):
            self.coins.extend(data)  # same type code: one copy of the raw items
        else:
            self.coins.frombytes(memoryview(data).cast("B"))
        self.offsets.append(len(self.coins))
        self.games.append(index)


def _not_a_row(index: int, row: Any) -> TypeError:
    return TypeError(
        f"game {index} is {row!r}, a number, not a row: pass a sequence of rows "
        "(e.g. [[3, 1, 2], [5]]) or a flat buffer of coins with offsets="
    )


def _solve_rows(rows: Any, n_threads: int, want_profits: bool, first_index: int = 0) -> list:
    if isinstance(rows, (str, bytes, bytearray)) or not isinstance(rows, Iterable):
        raise TypeError(
            f"rows must be a sequence of rows or a flat buffer with offsets, got "
            f"{type(rows).__name__}"
        )
    rows = rows if type(rows) is list else list(rows)
    # The common case, lists of Python ints, is packed in one C pass; the packed buffer has
    # an empty range for every other game, whose result is replaced below.
    coins, offsets, packed = _core.batch_pack_int_lists(rows)
    others = {INT64: _Pack(INT64), FLOAT64: _Pack(FLOAT64)}
    exact_games: list[tuple[int, Column]] = []
    g = packed.find(0)
    while g >= 0:
        row = rows[g]
        if isinstance(row, (numbers.Number, Decimal)):
            raise _not_a_row(first_index + g, row)
        col = column(row, f"game {first_index + g}")
        if col.kind == OBJECTS:
            exact_games.append((g, col))
        else:
            others[col.kind].add(g, col.data)
        g = packed.find(0, g + 1)
    if len(exact_games) + len(others[INT64].games) + len(others[FLOAT64].games) == len(rows):
        results: list = [None] * len(rows)
    else:
        results = _solve_packed(INT64, memoryview(coins), 0, memoryview(offsets), n_threads,
                                want_profits, _shifted(first_index))
    for pack in others.values():
        if pack.games:
            names = [first_index + i for i in pack.games]
            solved = _solve_packed(pack.kind, memoryview(pack.coins), 0,
                                   memoryview(pack.offsets), n_threads, want_profits,
                                   names.__getitem__)
            for index, result in zip(pack.games, solved):
                results[index] = result
    for index, col in exact_games:
        results[index] = _solve_exact(col, want_profits, f"game {first_index + index}")
    return results


def _solve_exact(col: Column, want_profits: bool, name: str = "row") -> Result:
    """One game on its own, exactly as ``value`` and ``profits`` solve it."""
    if want_profits:
        return Profits(*run_game(col, Answer.PROFITS, name))
    return cast(Number, run_game(col, Answer.NUMBER, name))


# -- a flat buffer and offsets ----------------------------------------------------------------


def _flat_length(flat: Any) -> int:
    if _is_numpy_array(flat):
        if flat.ndim != 1:
            raise ValueError(f"the flat coins must be 1-dimensional, got shape {flat.shape}")
        return cast(int, flat.shape[0])
    view = memoryview(flat)
    if view.ndim != 1:
        raise ValueError(
            f"the flat coins must be a 1-dimensional buffer, got {view.ndim} dimensions"
        )
    return len(view)


def _solve_flat_input(flat: Any, offsets: Any, n_threads: int, want_profits: bool,
                      first_index: int = 0) -> list:
    pyarrow = sys.modules.get("pyarrow")
    if pyarrow is not None and isinstance(flat, pyarrow.ChunkedArray):
        flat = flat.combine_chunks()
    arrow_flat = None
    if pyarrow is not None and isinstance(flat, pyarrow.Array):
        arrow_flat = flat
        flat = values_view(flat)
        if flat is None:  # not a primitive number type: its Python values, checked one by one
            flat = arrow_flat.to_pylist()
    if isinstance(flat, (str, bytes, bytearray)):
        raise TypeError(f"the flat coins are a {type(flat).__name__}; expected numbers")
    if isinstance(flat, (list, tuple)) or (_is_numpy_array(flat) and flat.dtype.kind == "O"):
        if len(flat) and _is_row(flat[0]):
            raise TypeError(
                f"offsets= goes with one flat sequence of coins, but rows[0] is "
                f"{describe(flat[0])}, a row: pass the rows without offsets "
                "(values_many([[3, 1, 2], [5]])), or their coins in one flat sequence with "
                "offsets (values_many([3, 1, 2, 5], offsets=[0, 3, 4]))"
            )
        bounds = _offsets(offsets, len(flat))
        return _solve_rows(_slices(flat, bounds), n_threads, want_profits, first_index)
    try:
        n_coins = _flat_length(flat)
    except TypeError:
        if not isinstance(flat, Iterable):
            raise TypeError(
                f"the flat coins must be a 1-D buffer or sequence of numbers, got "
                f"{type(flat).__name__}"
            ) from None
        flat = list(flat)
        bounds = _offsets(offsets, len(flat))
        return _solve_rows(_slices(flat, bounds), n_threads, want_profits, first_index)
    bounds = _offsets(offsets, n_coins)
    lo, hi = bounds[0], bounds[len(bounds) - 1]
    null_coin = None if arrow_flat is None else first_null_coin(arrow_flat, bounds)
    if null_coin is not None:
        game, index = null_coin
        raise ValueError(f"game {first_index + game}: coin at index {index} is null")
    used = flat[lo:hi] if _is_numpy_array(flat) else memoryview(flat)[lo:hi]
    col = column(used, "the flat coins")
    if col.kind == OBJECTS:  # uint64 beyond int64: each game on its own, exactly
        return _solve_rows(_slices(col.data, bounds, lo), n_threads, want_profits, first_index)
    return _solve_packed(col.kind, col.data, lo, bounds, n_threads, want_profits,
                         _shifted(first_index))


def _is_row(item: Any) -> bool:
    """Whether an item of a flat sequence is a row of coins (a list, an array, ...), not a
    coin."""
    return (isinstance(item, Iterable) and not isinstance(item, (str, bytes, bytearray))
            and not isinstance(item, (numbers.Number, Decimal)))


def _slices(flat: Any, bounds: Any, base: int = 0) -> list:
    return [flat[bounds[i] - base:bounds[i + 1] - base] for i in range(len(bounds) - 1)]


def _shifted(first_index: int) -> Callable[[int], int]:
    return lambda g: first_index + g


# The message of each problem, from (offsets, index of the bad entry, number of coins).
_OFFSET_PROBLEMS: dict[int, Callable[[memoryview, int, int], str]] = {
    _core.OffsetsProblem.OFFSETS_EMPTY: lambda o, i, n: (
        "offsets is empty: it has one entry more than there are games (Arrow's list layout), "
        "e.g. [0] for no games"
    ),
    _core.OffsetsProblem.OFFSETS_NEGATIVE: lambda o, i, n: f"offsets[0] = {o[0]} is negative",
    _core.OffsetsProblem.OFFSETS_DECREASING: lambda o, i, n: (
        f"offsets must be non-decreasing: offsets[{i}] = {o[i]} > offsets[{i + 1}] = {o[i + 1]}"
    ),
    _core.OffsetsProblem.OFFSETS_PAST_END: lambda o, i, n: (
        f"offsets[{i}] = {o[i]} is past the end of the {n} coins"
    ),
}


def _offsets(offsets: Any, n_coins: int) -> memoryview:
    """Arrow list offsets as a validated int64 buffer (without a copy when they are one)."""
    view = _offsets_view(offsets)
    widened = array("q") if view.format == "q" else array("q", bytes(8 * len(view)))
    problem, index = _core.batch_check_offsets(view, n_coins, widened)
    if problem != _core.OffsetsProblem.OFFSETS_OK:
        raise ValueError(_OFFSET_PROBLEMS[problem](view, index, n_coins))
    return view if view.format == "q" else memoryview(widened)


def _offsets_view(offsets: Any) -> memoryview:
    """The offsets as a 1-D int32 or int64 buffer, for the kernel that checks them."""
    pyarrow = sys.modules.get("pyarrow")
    if pyarrow is not None and isinstance(offsets, (pyarrow.Array, pyarrow.ChunkedArray)):
        if isinstance(offsets, pyarrow.ChunkedArray):
            offsets = offsets.combine_chunks()
        if offsets.null_count:
            raise ValueError("offsets has nulls")
        view = values_view(offsets)
        if view is None and pyarrow.types.is_integer(offsets.type):  # uint64 beyond int64
            raise ValueError(f"offsets has {max(offsets.to_pylist())}, past any buffer's end")
        if view is None:
            raise TypeError(f"offsets must be integers, got an Arrow array of {offsets.type}")
        offsets = view
    if isinstance(offsets, (str, bytes, bytearray)):
        raise TypeError(f"offsets must be a sequence of integers, got {type(offsets).__name__}")
    if _is_numpy_array(offsets):
        import numpy as np

        if offsets.ndim != 1:
            raise ValueError(f"offsets must be 1-dimensional, got shape {offsets.shape}")
        if offsets.dtype.kind not in "iu":
            raise TypeError(f"offsets must be integers, got dtype {offsets.dtype}")
        if offsets.dtype.kind == "u" and offsets.size and int(offsets.max()) > 2**63 - 1:
            raise ValueError(f"offsets has {int(offsets.max())}, past any buffer's end")
        if offsets.dtype not in (np.int32, np.int64) or not offsets.flags.c_contiguous:
            offsets = np.ascontiguousarray(offsets, dtype=np.int64)
        return memoryview(offsets).cast("B").cast("i" if offsets.dtype == np.int32 else "q")
    try:
        view = memoryview(offsets)
    except TypeError:
        view = None
    if view is not None:
        if view.ndim != 1:
            raise ValueError(f"offsets must be 1-dimensional, got {view.ndim} dimensions")
        order, code = split_format(view.format)
        if code == "?":
            raise TypeError("offsets must be integers, got a buffer of booleans")
        if code not in _INT_CODES:
            raise TypeError(f"offsets must be integers, got a buffer of format {view.format!r}")
        native = order in "@=" or order == _NATIVE_ORDER
        if native and view.c_contiguous and code in "iqln" and view.itemsize in (4, 8):
            return view.cast("B").cast("i" if view.itemsize == 4 else "q")
        # Any other width, layout or byte order: decoded by struct, which knows them all.
        offsets = list(struct.unpack(f"{order}{len(view)}{code}", view.tobytes()))
    if not isinstance(offsets, Iterable):
        raise TypeError(f"offsets must be a sequence of integers, got {type(offsets).__name__}")
    items = offsets if isinstance(offsets, (list, tuple)) else list(offsets)
    # One item of each type (built at C speed: offsets can number millions).
    if any(map(is_bool, dict(zip(map(type, items), items)).values())):
        raise TypeError("offsets must be integers, got a bool")
    try:
        return memoryview(array("q", items))
    except TypeError:
        bad = next(x for x in items if not isinstance(x, numbers.Integral))
        raise TypeError(f"offsets must be integers, got {bad!r}") from None
    except OverflowError:
        bad = next(x for x in items if not -(2**63) <= x < 2**63)
        raise ValueError(f"offsets has {bad}, past any buffer's end") from None


# -- pyarrow -------------------------------------------------------------------------------


def _solve_arrow(lists: Any, n_threads: int, want_profits: bool) -> list:
    types = sys.modules["pyarrow"].types
    kind = lists.type
    if not is_list_type(kind):
        if types.is_integer(kind) or types.is_floating(kind) or types.is_decimal(kind):
            raise TypeError(
                f"rows is a flat (1-D) Arrow array of {kind} coins, not of rows: give "
                "offsets= (game i is flat[offsets[i]:offsets[i + 1]]), or an Arrow list "
                "array (one list of coins per game)"
            )
        if not types.is_nested(kind):
            raise TypeError(f"rows is an Arrow array of {kind}, not of rows: give an Arrow "
                            "list array (one list of coins per game), or a flat array of "
                            "numbers with offsets=")
        return _solve_rows(lists.to_pylist(), n_threads, want_profits)
    results: list = []
    for chunk in list_chunks(lists):
        null_list = first_null_list(chunk)
        if null_list is not None:
            raise ValueError(f"game {null_list} is null, not a row")
        results += _solve_flat_input(chunk.values, chunk.offsets, n_threads, want_profits,
                                     chunk.first)
    return results


# -- a 2-D NumPy array -----------------------------------------------------------------------


def _solve_matrix(rows: Any, n_threads: int, want_profits: bool) -> list:
    import numpy as np

    n_games, n_coins = rows.shape
    flat = np.ascontiguousarray(rows).reshape(-1)
    offsets = array("q", range(0, n_games * n_coins + 1, n_coins)) if n_coins else array(
        "q", bytes(8 * (n_games + 1)))
    return _solve_flat_input(flat, offsets, n_threads, want_profits)


# -- the kernels on a thread pool ------------------------------------------------------------


def _chunks(offsets: memoryview, n_games: int) -> list[tuple[int, int]]:
    """Ranges of whole games of about _CHUNK_COINS coins (and at most _CHUNK_GAMES games)."""
    chunks = []
    g = 0
    while g < n_games:
        stop = min(n_games, g + _CHUNK_GAMES)
        end = bisect.bisect_left(offsets, offsets[g] + _CHUNK_COINS, g + 1, stop)
        chunks.append((g, end))
        g = end
    return chunks


def _solve_packed(kind: str, coins: Any, base: int, offsets: memoryview,
                  n_threads: int, want_profits: bool, name: Callable[[int], int]) -> list:
    """Solve every game of a flat int64/float64 buffer: game g is coins[offsets[g] - base:...].

    ``name(g)`` is game g's index in the caller's batch, for error messages. The chunks of
    games run on ``n_threads`` threads through ``_dispatch.run_games``, which redoes a game
    that overflows exactly, on its own.
    """
    firsts, seconds = run_games(kind, coins, base, offsets, _chunks(offsets, len(offsets) - 1),
                                None if n_threads == 1 else _on_threads(n_threads),
                                Answer.PROFITS if want_profits else Answer.NUMBER, name)
    return _profits_list(firsts, seconds) if want_profits else firsts


def _on_threads(n_threads: int) -> ChunkMap:
    """How ``run_games`` makes its kernel calls on ``n_threads`` threads (started from C:
    coinsrow/_core/_workers.pyx says why)."""

    def on_threads(solve_chunk: Callable[[tuple[int, int]], Any],
                   chunks: Sequence[tuple[int, int]]) -> list:
        # On an error or Ctrl-C, the chunks not started yet are dropped, not waited for.
        return _core.run_on_threads(lambda i: solve_chunk(chunks[i]), len(chunks), n_threads)

    return on_threads


def _profits_list(firsts: list, seconds: list) -> list[Profits]:
    """``[Profits(f, s) ...]``, with the cyclic garbage collector paused for a big batch.

    Profits are tuples of a subclass, which the collector never untracks: building a million
    of them would run collections that scan them over and over (80% of the time, measured).
    They hold only numbers, so no reference cycle can form while they are built.
    """
    pause = len(firsts) >= _GC_PAUSE_GAMES and gc.isenabled()
    if pause:
        gc.disable()
    try:
        return list(map(tuple.__new__, repeat(Profits), zip(firsts, seconds)))
    finally:
        if pause:
            gc.enable()
