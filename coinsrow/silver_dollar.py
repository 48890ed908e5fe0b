"""The Silver Dollar game (staircase Nim on a strip of cells).

Coins lie on distinct cells of a strip whose cells are numbered from 1.
A move takes one coin and slides it to an empty cell strictly to its left,
any number of cells (at least one), without jumping over another coin and
without going below cell 1.  The player who cannot move loses; the first
player moves first.

Theory (staircase Nim)
----------------------
Sort the coins ``p_1 < p_2 < ... < p_n`` and put a virtual, immovable coin
at cell ``p_0 = 0``.  Let ``g_i = p_i - p_{i-1} - 1`` be the number of
*empty* cells between coin ``i - 1`` and coin ``i``.  Moving coin ``i`` left
by ``d`` cells (``1 <= d <= g_i``) turns ``g_i`` into ``g_i - d`` and, when
``i < n``, ``g_{i+1}`` into ``g_{i+1} + d``.

Count every other gap starting from the rightmost one, i.e. the gaps
``g_i`` with ``n - i`` even.  Every move either decreases exactly one
counted gap (moving a coin whose own gap is counted) or increases exactly
one counted gap (moving a coin whose own gap is not counted; then the gap
after it is counted).  Increases are reversible by the opponent, so the
counted gaps behave as ordinary Nim heaps: the first player loses iff the
xor of the counted gaps is 0.

Note that the gaps are the numbers of *empty* cells (differences minus
one): with cells numbered from 1 the virtual coin sits at 0 and a lone coin
on cell 1 is a lost position, which the plain differences would get wrong.

Complexity: validating the input is O(n), sorting it is O(n log n), and the
game-theoretic pass itself is O(n) arithmetic operations (each on integers
of the size of the input positions, which may be arbitrarily large).
"""

from __future__ import annotations

import operator
from collections.abc import Iterable
from typing import Literal

__all__ = ["winner", "winning_move"]


def _normalize(positions: Iterable[int]) -> list[int]:
    """Validate ``positions`` and return them as a sorted list of ``int``.

    Raises ``TypeError`` for a non-iterable argument (or a string/bytes-like
    one) and for any element that is not an integer (``bool`` is rejected),
    and ``ValueError`` for a position below 1 or a duplicate position.
    Error messages name the offending index.  O(n log n) because of the
    final sort; everything else is O(n).
    """
    if isinstance(positions, (str, bytes, bytearray, memoryview)):
        raise TypeError(
            "positions must be an iterable of integers, "
            f"not {type(positions).__name__}"
        )
    try:
        iterator = iter(positions)
    except TypeError:
        raise TypeError(
            "positions must be an iterable of integers, "
            f"not {type(positions).__name__}"
        ) from None

    seen: dict[int, int] = {}
    for index, item in enumerate(iterator):
        if isinstance(item, bool):
            raise TypeError(
                f"position at index {index} must be an integer, not bool"
            )
        try:
            value = operator.index(item)
        except TypeError:
            raise TypeError(
                f"position at index {index} must be an integer, "
                f"not {type(item).__name__}"
            ) from None
        if value < 1:
            raise ValueError(
                f"position at index {index} must be >= 1, got {value}"
            )
        if value in seen:
            raise ValueError(
                f"duplicate position {value} at index {index} "
                f"(already at index {seen[value]})"
            )
        seen[value] = index
    return sorted(seen)


def _gaps(coins: list[int]) -> list[int]:
    """Empty-cell gaps ``g_i = p_i - p_{i-1} - 1`` with ``p_0 = 0``. O(n)."""
    gaps = []
    previous = 0
    for cell in coins:
        gaps.append(cell - previous - 1)
        previous = cell
    return gaps


def _nim_sum(gaps: list[int]) -> int:
    """Xor of every other gap, counted from the rightmost one. O(n)."""
    total = 0
    for gap in gaps[::-2]:
        total ^= gap
    return total


def winner(positions: Iterable[int]) -> Literal["first", "second"]:
    """Return which player wins the Silver Dollar game with perfect play.

    ``positions`` are the (distinct, >= 1) cells holding coins, in any
    order.  The first player moves first; a player unable to move loses.

    Complexity: O(n log n) for sorting the input, then O(n).

    Parameters
    ----------
    positions : iterable of int
        The cells holding coins (distinct, at least 1), in any order.

    Returns
    -------
    {"first", "second"}
        The player who wins with perfect play (``"second"`` when no coin can move).

    Raises
    ------
    TypeError
        If ``positions`` is not an iterable of integers (a ``str``, a ``bool`` entry, ...),
        naming the index.
    ValueError
        If a position is below 1 or repeated, naming the index.

    Examples
    --------
    >>> winner([2, 3])
    'second'
    >>> winner([1, 3, 5])
    'first'
    >>> winner([])
    'second'
    """
    coins = _normalize(positions)
    return "first" if _nim_sum(_gaps(coins)) else "second"


def winning_move(positions: Iterable[int]) -> tuple[int, int] | None:
    """Return a winning move ``(from_cell, to_cell)``, or ``None`` if lost.

    Among all winning moves (moves to a position lost for the player to
    move), the one moving the leftmost coin is returned; for that coin the
    winning target is unique (see below), which is in particular the
    leftmost winning target.

    For coin ``i`` (1-based, sorted) and nim-sum ``x != 0`` exactly one
    counted gap changes when that coin moves, so the new value of that gap
    must be ``h ^ x`` where ``h`` is its current value:

    * if ``g_i`` is counted, the coin moves ``d = g_i - (g_i ^ x)`` cells,
      valid iff ``g_i ^ x < g_i``;
    * otherwise ``g_{i+1}`` is counted and grows by ``d``, so
      ``d = (g_{i+1} ^ x) - g_{i+1}``, valid iff ``1 <= d <= g_i``.

    The constraint ``d <= g_i`` is exactly "target >= 1, above the previous
    coin and not jumping over it".

    Complexity: O(n log n) for sorting the input, then O(n).

    Parameters
    ----------
    positions : iterable of int
        The cells holding coins, as for ``winner``.

    Returns
    -------
    tuple of (int, int) or None
        ``(from_cell, to_cell)``, or ``None`` when every move loses.

    Raises
    ------
    TypeError, ValueError
        On bad positions, as ``winner`` does.

    Examples
    --------
    >>> winning_move([2, 3]) is None
    True
    >>> winning_move([1, 3, 5])
    (5, 4)
    >>> winning_move([2, 4, 6, 9])
    (2, 1)
    """
    coins = _normalize(positions)
    gaps = _gaps(coins)
    x = _nim_sum(gaps)
    if x == 0:
        return None
    n = len(coins)
    for i in range(n):  # 0-based: coin i has gap gaps[i] on its left
        if (n - 1 - i) % 2 == 0:
            # Own gap is counted: decrease it to gaps[i] ^ x.
            target_gap = gaps[i] ^ x
            d = gaps[i] - target_gap
        else:
            # Own gap is not counted, the next gap is: increase it.
            d = (gaps[i + 1] ^ x) - gaps[i + 1]
        if 1 <= d <= gaps[i]:
            return (coins[i], coins[i] - d)
    # Unreachable: a nonzero nim-sum always admits a decrease of a counted
    # gap, which is always a legal move.
    raise AssertionError("no winning move found for a winning position")
