"""Checks shared by the tests: equal answers of equal types, floats against exact answers,
optimal plays against the DP and the minimax.

Each returns a bool for ``assert check(...), context`` (``check_play`` and
``check_forest_play`` assert move by move).
"""

from __future__ import annotations

import math
import struct
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import pytest

from oracles import brute_forest_solver, dp_table

TINY = 2.0**-1074  # the smallest denormal


def same(got: Any, want: Any) -> bool:
    """Equal and of the same types, through lists and tuples (``Profits`` included) entry by
    entry: ``1 == 1.0`` is not the same answer."""
    if type(got) is not type(want):
        return False
    if isinstance(want, (tuple, list)):
        return len(got) == len(want) and all(same(a, b) for a, b in zip(got, want))
    return bool(got == want)


def _bits(x: float) -> bytes:
    return struct.pack("<d", x)


def same_bits(got: Any, want: Any) -> bool:
    """As ``same``, with floats equal bit for bit (a zero's sign counts); lists, tuples and
    ``Profits`` hold the same entries whichever of them each one is."""
    if isinstance(want, (tuple, list)):
        return (isinstance(got, (tuple, list)) and len(got) == len(want)
                and all(same_bits(a, b) for a, b in zip(got, want)))
    if isinstance(want, float):
        return isinstance(got, float) and _bits(got) == _bits(want)
    return same(got, want)


def same_or_close(a: Any, b: Any) -> bool:
    """Equal; two floats up to rounding (computed in different orders: 1e-9 relative or
    absolute)."""
    if isinstance(a, float) or isinstance(b, float):
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)
    return bool(a == b)


def rounded(exact: Any) -> float:
    """An exact number rounded once to the nearest float (+-inf beyond the float range)."""
    try:
        return float(exact)
    except OverflowError:
        return math.inf if exact > 0 else -math.inf


def close(got: float, exact: Any, coins: Sequence[float] | None = None) -> bool:
    """A float answer against the exact one: never NaN; the same infinity when the exact
    answer is beyond the float range (the overflow was redone exactly and rounded once);
    otherwise within the rounding error of float arithmetic on the way: with ``coins``, a few
    units in the last place of the coins' total magnitude per operation; without, 1e-12
    relative (or four of the smallest denormals)."""
    if math.isnan(got):
        return False
    want = rounded(exact)
    if math.isinf(want) or math.isinf(got):
        return got == want
    if coins is None:
        return math.isclose(got, want, rel_tol=1e-12, abs_tol=4 * TINY)
    scale = sum(abs(Fraction(x)) for x in coins)
    return abs(Fraction(got) - exact) <= 8 * (len(coins) + 1) * scale / 2**53


def check_play(row: Sequence[Any], moves: Sequence[int]) -> None:
    """Every move takes an end coin of what is left and is optimal there (the DP), and the
    play takes every coin."""
    table = dp_table(row)  # table[i][j]: row[i:j] for the player to move
    i, j = 0, len(row)
    for p in moves:
        assert p in (i, j - 1), (p, i, j)
        if p == i:
            assert row[i] - table[i + 1][j] == table[i][j], (p, i, j)
            i += 1
        else:
            assert row[j - 1] - table[i][j - 1] == table[i][j], (p, i, j)
            j -= 1
    assert i == j, (i, j)


def check_forest_play(rows: Sequence[Sequence[Any]], stacks: Sequence[Sequence[Any]],
                      values: Sequence[Any], parents: Sequence[int],
                      moves: Sequence[Any]) -> None:
    """Every move of a play of rows, stacks and a forest is legal and achieves the minimax
    value of the position where it is made (``brute_forest_solver``), and the play takes every
    coin."""
    solve = brute_forest_solver(rows, stacks, values, parents)
    bounds = tuple((0, len(r)) for r in rows)
    tops = tuple(0 for _ in stacks)
    present = (1 << len(values)) - 1
    assert len(moves) == sum(map(len, rows)) + sum(map(len, stacks)) + len(values)
    for move in moves:
        before = solve(bounds, tops, present)
        if move.kind == "row":
            i, j = bounds[move.index]
            if move.end == "left":
                assert move.position == i
                bounds = bounds[:move.index] + ((i + 1, j),) + bounds[move.index + 1:]
            else:
                assert move.end == "right" and move.position == j - 1
                bounds = bounds[:move.index] + ((i, j - 1),) + bounds[move.index + 1:]
            assert move.coin == rows[move.index][move.position]
        elif move.kind == "stack":
            assert move.end == "top" and move.position == tops[move.index]
            assert move.coin == stacks[move.index][move.position]
            tops = tops[:move.index] + (tops[move.index] + 1,) + tops[move.index + 1:]
        else:
            node = move.index
            assert move.kind == "tree" and move.end == "root" and move.position == node
            assert present >> node & 1, f"node {node} taken twice"
            p = parents[node]
            assert p < 0 or not present >> p & 1, f"node {node} taken before its parent"
            assert move.coin == values[node]
            present ^= 1 << node
        after = solve(bounds, tops, present)
        assert move.coin - after == before, (rows, stacks, values, parents, move)
    assert present == 0


def check_best_moves_follow_the_play(game: Any) -> Any:
    """``best_move()`` then ``take()`` until the game is over make ``play()``, each move a
    legal one; a position with no coin refuses ``best_move()``. Returns that last position."""
    line = game.play()
    position, moves = game, []
    while len(position):
        move = position.best_move()
        assert move in position.moves()
        moves.append(move)
        position = position.take(move)
    assert moves == line
    with pytest.raises(ValueError, match="the game is over: no coin is left"):
        position.best_move()
    return position
