"""The one-row functions: ``value``, ``profits``, ``best_move`` and ``play`` of one row.

A short list or tuple takes the compiled fast path (``_core.short_rows``); any other row is
normalised into one buffer (``_coins.row_coins``) and solved by the one-row kernels through
``_dispatch.run``, on as many threads as ``threads`` asks (docs/rows.md).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable
from decimal import Decimal
from fractions import Fraction
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    Protocol,
    SupportsFloat,
    SupportsIndex,
    cast,
    overload,
)

from ._coins import Number, row_coins
from ._core import short_rows
from ._dispatch import SHORT_PATH, Answer, run, span
from ._moves import End
from ._results import Profits
from ._threads import row_split

__all__ = ["best_move", "play", "profits", "value"]

# ``Profits(first, second)`` of a pair without the NamedTuple constructor's argument parsing
# (tuple.__new__, typed as the constructor it stands for): 0.2 us of the fast path's 0.4.
_new_profits: Callable[[type[Profits], tuple], Profits] = cast(Any, tuple.__new__)

# The one-row functions' result types follow the coins' (static) type; a row mixing number
# kinds gets the union, and any row is accepted at run time. (An int array also matches the
# float array's protocol, and typeshed calls every memoryview a sequence of ints: the first
# match is the right one, hence the ignored overlaps.)
if TYPE_CHECKING:
    class _IntArray(Protocol):
        """A NumPy array of an integer dtype (its ``item()`` is a Python int)."""

        def item(self) -> int: ...
        def __len__(self) -> int: ...

    class _FloatArray(Protocol):
        """A NumPy array of a floating dtype (its ``item()`` is a Python float)."""

        def item(self) -> float: ...
        def __len__(self) -> int: ...



@overload
def value(row: _IntArray, *,  # type: ignore[overload-overlap]
          threads: int | None = None) -> int: ...
@overload
def value(row: _FloatArray, *, threads: int | None = None) -> float: ...
@overload
def value(row: memoryview, *,  # type: ignore[overload-overlap]
          threads: int | None = None) -> int | float: ...
@overload
def value(row: Iterable[int], *, threads: int | None = None) -> int: ...
@overload
def value(row: Iterable[SupportsIndex], *, threads: int | None = None) -> int: ...
@overload
def value(row: Iterable[float], *, threads: int | None = None) -> float: ...
@overload
def value(row: Iterable[Fraction], *, threads: int | None = None) -> Fraction: ...
@overload
def value(row: Iterable[Decimal], *, threads: int | None = None) -> Decimal: ...
@overload
def value(row: Iterable[SupportsFloat], *, threads: int | None = None) -> Number: ...


def value(row: Any, *, threads: int | None = None) -> Number:
    """The advantage of the player to move on one row, both playing optimally.

    Own total minus the opponent's; ``0`` for an empty row. Exact: ints give an ``int``
    (int64 overflow is redone on Python ints), floats a ``float``, ``Fraction``/``Decimal``
    their own type. A float overflow on the way is redone exactly on Fractions and rounded
    once: the answer is ``+-inf`` only when the exact value itself is beyond the float range
    (IEEE 754 rounding), and never NaN. O(n) time, at most one machine number of extra
    memory per coin; a contiguous int64/float64 buffer (NumPy array, ``array.array``) is
    read without a copy.

    Parameters
    ----------
    row : iterable of real numbers or 1-D numeric buffer
        The coins, left to right: a list or any iterable of ints, floats, ``Fraction`` or
        ``Decimal``, or a NumPy array, ``array.array`` or ``memoryview`` (a contiguous
        int64 or float64 buffer is read without a copy). Never modified.
    threads : int or None, default None
        A long row is cut into parts reduced at once on that many threads. ``None``: as
        many as pay off (one for a row of under a million coins, or for a row that a sample
        finds mostly sorted stretches); ``1``: no thread is started; a count past the
        machine's cores starts one thread a core; at most ``8192``. The answer is the same
        whatever it is, float rounding included (docs/rows.md).

    Returns
    -------
    number
        Own total minus the opponent's for the player to move: ``int``, ``float``,
        ``Fraction`` or ``Decimal`` as the coins are; ``0`` for an empty row.

    Raises
    ------
    TypeError
        If ``row`` is not a sequence of numbers or a numeric buffer (a ``str``, an int, ...)
        or a coin is not a real number (``str``, ``None``, ``complex``, ``bool``, ...); the
        message names the index of the coin.
    ValueError
        If a coin is NaN or infinite (naming its index).
    TypeError, ValueError
        If ``threads`` is not a positive int (at most ``8192``) or ``None``.

    Examples
    --------
    >>> value([3, 2, 2, 3, 1, 2])
    3
    """
    if SHORT_PATH:
        short: Number | None = short_rows.value(row, threads)
        if short is not None:
            return short
    coins = row_coins(row)
    answer: Number = run(coins, "row_value", *row_split(len(coins), threads), threads is None)
    return answer


@overload
def profits(row: _IntArray, *,  # type: ignore[overload-overlap]
            threads: int | None = None) -> Profits[int]: ...
@overload
def profits(row: _FloatArray, *, threads: int | None = None) -> Profits[float]: ...
@overload
def profits(row: memoryview, *,  # type: ignore[overload-overlap]
            threads: int | None = None) -> Profits[int] | Profits[float]: ...
@overload
def profits(row: Iterable[int], *, threads: int | None = None) -> Profits[int]: ...
@overload
def profits(row: Iterable[SupportsIndex], *, threads: int | None = None) -> Profits[int]: ...
@overload
def profits(row: Iterable[float], *, threads: int | None = None) -> Profits[float]: ...
@overload
def profits(row: Iterable[Fraction], *, threads: int | None = None) -> Profits[Fraction]: ...
@overload
def profits(row: Iterable[Decimal], *, threads: int | None = None) -> Profits[Decimal]: ...
@overload
def profits(row: Iterable[SupportsFloat], *,
            threads: int | None = None) -> Profits[Number]: ...


def profits(row: Any, *, threads: int | None = None) -> Profits:
    """What each player collects on one row, both playing optimally: ``Profits(first, second)``.

    O(n), on ``threads`` threads as ``value``.

    Exact numbers: ``first + second == sum(row)`` and ``first - second == value(row)``.
    Floats: each player's coins of the optimal play, summed exactly and rounded once, so
    ``profits([0.1, 0.2]) == (0.2, 0.1)``.

    Parameters
    ----------
    row, threads
        As for ``value``: the coins (any iterable of real numbers or 1-D numeric buffer,
        never modified) and the threads a long row is cut into (``None``: as many as pay off).

    Returns
    -------
    Profits
        ``first``: the total of the player to move; ``second``: the other player's.

    Raises
    ------
    TypeError, ValueError
        As for ``value``: a row that is not numbers, a coin that is not a finite real number
        (naming its index), ``threads`` not a positive int (at most ``8192``) or ``None``.

    Examples
    --------
    >>> profits([3, 2, 2, 3, 1, 2])
    Profits(first=8, second=5)
    """
    if SHORT_PATH:
        pair = short_rows.profits(row, threads)
        if pair is not None:
            return _new_profits(Profits, pair)
    coins = row_coins(row)
    return Profits(*run(coins, "row_profits", *row_split(len(coins), threads), threads is None,
                        answer=Answer.PROFITS))


def best_move(row: Any) -> Literal["left", "right"]:
    """An optimal first move on one row: ``"left"`` or ``"right"``.

    The move of the library's one tie rule (the first move of ``play(row)``, which
    ``Game.best_move`` and ``Engine.best_move`` also make): the end whose end block of the
    reduced row (the row after every Fusion ``x <= M > y``) is larger, the left one when the
    two blocks are equal. Where both ends are optimal moves this compares the blocks, not
    the coins: ``best_move([0, -1, 1, 1])`` is ``"right"`` (both ends are worth 1, the end
    blocks are 0 and 1). docs/algorithm.md. O(n).

    Parameters
    ----------
    row : iterable of real numbers or 1-D numeric buffer
        The coins, as for ``value``; never modified.

    Returns
    -------
    {"left", "right"}
        The end to take the coin from.

    Raises
    ------
    ValueError
        If the row is empty.
    TypeError, ValueError
        As for ``value``: a row that is not numbers, a coin that is not a finite real number
        (naming its index).

    Examples
    --------
    >>> best_move([1, 2, 1000, 3, 4, 900])
    'right'
    >>> best_move([0, -1, 1, 1]), best_move([1, -1, 1, 1]), best_move([2, 5, 2])
    ('right', 'left', 'left')
    """
    if SHORT_PATH:
        end = short_rows.best_move(row)
        if end is not None:
            return end
    coins = row_coins(row)
    n = len(coins)
    if n == 0:
        raise ValueError("the row is empty: there is no move")
    # The first move of the row's optimal line, as Game.best_move finds it (the one tie rule).
    components = array("q", bytes(8 * n))
    flat = array("q", bytes(8 * n))
    ends = array("B", bytes(n))
    run(coins, "game_play", *span(0, n), 1, components, flat, ends, answer=Answer.PLAY)
    return "left" if ends[0] == End.LEFT else "right"


def play(row: Any, *, threads: int | None = None) -> array:
    """A whole optimal play of one row: ``array('q')`` of coin indices, turn by turn.

    Entry t is the index in ``row`` of the coin taken at turn t; the first player moves at
    even t. Every move is optimal at the position where it is made. O(n) time and memory:
    the greedy play of the reduced row, each fused run of coins taken whole from the end
    where it is exposed.

    Parameters
    ----------
    row : iterable of real numbers or 1-D numeric buffer
        The coins, as for ``value``; never modified.
    threads : int or None, default None
        As for ``value``: the same play whatever it is.

    Returns
    -------
    array.array of int (typecode 'q')
        The index in ``row`` of the coin taken at each turn; empty for an empty row.

    Raises
    ------
    TypeError, ValueError
        On a bad row, coin or ``threads``, as ``value`` does.

    Examples
    --------
    >>> list(play([3, 2, 2, 3, 1, 2]))
    [0, 1, 5, 2, 3, 4]
    """
    if SHORT_PATH:
        short_play = short_rows.play(row, threads)
        if short_play is not None:
            return short_play
    coins = row_coins(row)
    moves: array = run(coins, "row_play", *row_split(len(coins), threads), threads is None,
                       answer=Answer.PLAY)
    return moves
