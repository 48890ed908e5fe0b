"""``move_values``: every legal move of a position with its worth to the player to move.

A move's worth is its coin minus the value of the position after it. The value of a game of
rows and stacks is the alternating sum of all components' reduced values, largest first,
plus the stacks' Fruitless terms (docs/algorithm.md), and a move changes one component
only. So the reduced values of every component are computed once (``_reduction``, the
kernels' rule), sorted together with their alternating prefix sums, and each move's value
after is that sum with the component's old values taken out and its new ones put in: one
binary search and one O(1) correction per value that changes, the signs of the values in
between flipped through the prefix sums.

Numbers are exact: ints, Fractions and Decimals (under the exact Decimal context) as they
are, floats as the Fractions of their exact values, each worth rounded once.
"""

from __future__ import annotations

import bisect
import decimal
from array import array
from collections import Counter
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from ._coins import INT64, Number
from ._dispatch import EXACT_DECIMAL, run
from ._moves import Move, Position
from ._reduction import fruitless, reduce_coins

__all__ = ["move_values"]


def move_values(where: Position, moves: list[Move],
                value_after: Callable[[Move], Number]) -> list[tuple[Move, Number]]:
    """Every legal move of a position with its worth: the coin minus the value after it.

    ``moves`` are the position's legal moves (``moves(where)``); ``value_after(move)`` is
    the value of the position after a move, called only for a game with a forest.

    Parameters
    ----------
    where : Position
        The position (``_game.where(game)``).
    moves : list of Move
        Its legal moves, in the order the answer keeps.
    value_after : callable
        ``value_after(move)``: the value after ``move`` (a forest's moves only).

    Returns
    -------
    list of (Move, number)
        Worths in the game's number type (floats: each the exact worth of the float
        coins, rounded once).

    Cost: O(n log n) for n coins in rows and stacks, whatever the number of moves: each
    component reduced once and again without each of its end coins, O(log n) for each
    reduced value a move changes. With a forest, one ``value_after`` per legal move.
    """
    if not moves:
        return []
    coins = where.coins
    if where.forest is not None:
        return [(m, coins.number(_exact(m.coin) - _exact(value_after(m)))) for m in moves]
    if coins.kind == INT64 and len(moves) <= 2 and all(m.index == moves[0].index and
                                                        m.kind == moves[0].kind for m in moves):
        # One component left, of int64 coins (a row, typically: a hint in play): the value
        # after each of its two moves from the compiled kernel, two O(n) passes in C, some
        # 50x faster than the reductions in Python (benchmarks/understanding_bench.py).
        return [(m, coins.number(m.coin - _value_after(where, m))) for m in moves]
    numbers = coins.exact()
    with decimal.localcontext(EXACT_DECIMAL):
        worths = _worths(numbers, where.starts, where.stops, coins.n_rows, moves)
    return [(m, coins.number(w)) for m, w in zip(moves, worths)]


def _value_after(where: Position, move: Move) -> Any:
    """The value of the position after ``move`` (a row's or a stack's), by the kernel."""
    n_rows = where.coins.n_rows
    c = move.index if move.kind == "row" else n_rows + move.index
    starts, stops = array("q", where.starts), array("q", where.stops)
    if move.end == "right":
        stops[c] -= 1
    else:
        starts[c] += 1
    return run(where.coins, "game_value", starts, stops, n_rows)


def _exact(x: Any) -> Any:
    return Fraction(x) if isinstance(x, float) else x


def _reduced(numbers: Sequence[Any], start: int, stop: int, is_stack: bool,
             odd: bool) -> tuple[list[Any], Any]:
    """The values Greedy takes from numbers[start:stop] and its Fruitless total (unsigned
    by the game's parity: ``odd`` is False here so that the caller applies the sign)."""
    segments = reduce_coins(numbers[start:stop])
    total: Any = 0
    if is_stack:
        segments, dropped = fruitless(segments, odd)
        if dropped is not None:
            total = dropped
    return [s.value for s in segments], total


def _worths(numbers: Sequence[Any], starts: Sequence[int], stops: Sequence[int],
            n_rows: int, moves: list[Move]) -> list[Any]:
    k = len(starts)
    n = sum(stops) - sum(starts)
    values: list[list[Any]] = []
    tails: list[Any] = []
    for c in range(k):
        v, t = _reduced(numbers, starts[c], stops[c], c >= n_rows, False)
        values.append(v)
        tails.append(t)
    everything = sorted((x for v in values for x in v), reverse=True)
    keys = [-x for x in everything]  # ascending, for bisect
    prefix = [0]
    for i, x in enumerate(everything):
        prefix.append(prefix[-1] + x if i % 2 == 0 else prefix[-1] - x)
    tail_total = sum(tails)
    # After a move n - 1 coins are left: the Fruitless terms count (-1)^(n - 1).
    sign_after = 1 if (n - 1) % 2 == 0 else -1
    worths = []
    for move in moves:
        c = move.index if move.kind == "row" else n_rows + move.index
        start, stop = starts[c], stops[c]
        if move.end == "right":
            stop -= 1
        else:
            start += 1
        new_values, new_tail = _reduced(numbers, start, stop, c >= n_rows, False)
        greedy = _changed_sum(everything, keys, prefix, values[c], new_values)
        after = greedy + sign_after * (tail_total - tails[c] + new_tail)
        worths.append(numbers[move_flat(starts, stops, c, move)] - after)
    return worths


def move_flat(starts: Sequence[int], stops: Sequence[int], c: int, move: Move) -> int:
    return stops[c] - 1 if move.end == "right" else starts[c]


def _changed_sum(everything: list[Any], keys: list[Any], prefix: list[Any],
                 removed: list[Any], inserted: list[Any]) -> Any:
    """The alternating sum (largest first) of ``everything`` without ``removed`` and with
    ``inserted``: O((r + i) log n) for the values that really differ."""
    gone, new = Counter(removed), Counter(inserted)
    common = gone & new
    gone -= common
    new -= common
    events: list[tuple[int, int, Any]] = []
    for x, count in gone.items():
        lo = bisect.bisect_left(keys, -x)
        events.extend((lo + j, 1, x) for j in range(count))
    for x, count in new.items():
        at = bisect.bisect_left(keys, -x)
        events.extend((at, 0, x) for _ in range(count))
    # At one index: the new values first, largest first, then the removal there.
    events.sort(key=lambda e: (e[0], e[1], -e[2]))
    total: Any = 0
    shift = 0
    done = 0
    for at, kind, x in events:
        part = prefix[at] - prefix[done]
        total = total + part if shift % 2 == 0 else total - part
        done = at
        if kind == 0:
            total = total + x if (at + shift) % 2 == 0 else total - x
            shift += 1
        else:
            done = at + 1
            shift -= 1
    part = prefix[len(everything)] - prefix[done]
    return total + part if shift % 2 == 0 else total - part
