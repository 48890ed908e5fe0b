"""The move protocol: what a move is, and which coin a move names in a position.

A move is a ``Move(kind, index, end, position, coin)``; on a game of one row, the strings
``"left"`` and ``"right"`` name its ends. ``resolve`` checks a move against a position and
returns the component, the coin's flat index and the ``Move`` as the position names it:
``Game.take``, ``Engine.take`` and the playouts' checks of a strategy's answer all go
through it, so a move is legal in one exactly when it is legal in the others.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any, Literal, NamedTuple

from . import _core
from ._coins import Coins, Number, describe, is_bool, short_repr

__all__ = ["END_CODES", "END_NAMES", "Move", "MoveError", "move_words", "moves", "resolve"]

End = _core.End

#: The names of the ends in a ``Move``, by their kernel code, and back.
END_NAMES: dict[int, str] = {End.LEFT: "left", End.RIGHT: "right", End.TOP: "top",
                             End.ROOT: "root"}
END_CODES: dict[str, int] = {name: code for code, name in END_NAMES.items()}

EndName = Literal["left", "right", "top", "root"]


class Move(NamedTuple):
    """One move: which component, from which end, and the coin it takes.

    A named tuple, made in O(1).

    Parameters
    ----------
    kind : {"row", "stack", "tree"}
        What the coin is taken from.
    index : int
        The component's index among the rows or the stacks (a tree move: the node's index
        in the original forest).
    end : {"left", "right", "top", "root"}
        ``"left"``/``"right"`` for rows, ``"top"`` for stacks and ``"root"`` for trees.
    position : int
        The coin's index in the original row or stack (the node for a tree).
    coin : number
        Its value.
    """

    kind: str
    # The field shadows tuple.index (a method); the name is public API, kept on purpose.
    index: int  # type: ignore[assignment]
    end: str
    position: int
    coin: Number


WordsStyle = Literal["phrase", "column", "command"]


def move_words(move: Move, style: WordsStyle = "phrase", one_row: bool = False) -> str:
    """Where ``move`` takes its coin, in words: the one place every output names a move.

    O(1).

    Parameters
    ----------
    move : Move
        The move (only ``kind``, ``index`` and ``end`` are read).
    style : {"phrase", "column", "command"}
        ``"phrase"``: for a sentence, "the left end of row 0", "the top of stack 1", "the
        root node 3 of the forest" (the web page, the command line's best move);
        ``"column"``: for a table's column, "row 0 left", "stack 1 top", "tree node 3";
        ``"command"``: as ``coinsrow play``'s commands name it, "row 0 left" ("left end"
        when ``one_row``), "stack 1", "node 3".
    one_row : bool, default False
        The game is one row (``"command"`` then names only the end).

    Returns
    -------
    str
        The words, without the coin.
    """
    kind, index, end = move.kind, move.index, move.end
    if style == "phrase":
        if kind == "tree":
            return f"the root node {index} of the forest"
        if kind == "stack":
            return f"the top of stack {index}"
        return f"the {end} end of row {index}"
    if style == "column":
        return f"tree node {index}" if kind == "tree" else f"{kind} {index} {end}"
    if kind == "tree":
        return f"node {index}"
    if kind == "stack":
        return f"stack {index}"
    return f"{end} end" if one_row else f"row {index} {end}"


class MoveError(ValueError):
    """A move that is not legal in the position (a ``ValueError``)."""


class Position:
    """What ``resolve`` reads of a position: the storage, each component's range of coins
    still on the table, and the forest's nodes (``None`` without a forest).

    ``forest`` answers ``size``, ``base``, ``is_root(node)``, ``removed()``,
    ``parents`` and ``roots()`` (``_forest.ForestState``).
    """

    __slots__ = ("coins", "starts", "stops", "forest")

    def __init__(self, coins: Coins, starts: Sequence[int], stops: Sequence[int],
                 forest: Any = None) -> None:
        self.coins = coins
        self.starts = starts
        self.stops = stops
        self.forest = forest


def _index(value: Any) -> int | None:
    """An integer index as ``operator.index`` reads it (NumPy integers too); None for a
    bool or anything that is not an integer."""
    if value.__class__ is int:
        return value  # the common case, without the checks below
    # NumPy's bool: no __index__ from NumPy 2.3 on, a deprecated one before.
    if is_bool(value):
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None


def move_at(coins: Coins, component: int, flat_index: int, end: int) -> Move:
    """The ``Move`` taking coin ``flat_index`` of component ``component`` from ``end``."""
    coin = coins.coin(flat_index)
    if end == End.ROOT:
        node = flat_index - (coins.forest_base or 0)
        return Move("tree", node, "root", node, coin)
    n_rows = coins.n_rows
    if component < n_rows:
        return Move("row", component, END_NAMES[end], flat_index - coins.bases[component], coin)
    return Move("stack", component - n_rows, "top", flat_index - coins.bases[component], coin)


def moves(where: Position) -> list[Move]:
    """The legal moves: both ends of every non-empty row (its left end first), the top of
    every stack, every root of the forest. O(k), plus O(n) with a forest."""
    coins, starts, stops = where.coins, where.starts, where.stops
    result = []
    for c in range(len(starts)):
        start, stop = starts[c], stops[c]
        if start == stop:
            continue
        if c < coins.n_rows:
            result.append(move_at(coins, c, start, End.LEFT))
            if stop - start > 1:
                result.append(move_at(coins, c, stop - 1, End.RIGHT))
        else:
            result.append(move_at(coins, c, start, End.TOP))
    forest = where.forest
    if forest is not None:
        result.extend(move_at(coins, len(starts), forest.base + node, End.ROOT)
                      for node in forest.roots())
    return result


def _one_row(where: Position) -> int | None:
    """The component of the only row of a game of one row (and nothing else), else None."""
    coins, starts = where.coins, where.starts
    if coins.n_rows == 1 and len(starts) == 1 and where.forest is None:
        return 0
    return None


def resolve(move: Any, where: Position) -> tuple[int, int, int, Move]:
    """``(component, flat index, end code, Move)`` of a legal move, or ``MoveError``.

    ``move`` is a ``Move`` (any 5-sequence: kind, index, end, position, coin; the index an
    int or anything ``operator.index`` accepts, not a bool) or, in a game of one row,
    ``"left"`` / ``"right"``. The position and the coin must be the ones at that end.
    A forest's node is the component ``len(starts)``. O(1) for rows and stacks.
    """
    coins, starts, stops = where.coins, where.starts, where.stops
    if isinstance(move, str):
        row = _one_row(where)
        if row is None:
            raise MoveError(_not_a_move_here(move, where))
        if move != "left" and move != "right":
            raise MoveError(f"illegal move {move!r}: a row's end is 'left' or 'right'")
        if starts[row] == stops[row]:
            raise MoveError(f"illegal move {move!r}: the row is empty")
        code: int = End.LEFT if move == "left" else End.RIGHT
        flat = starts[row] if move == "left" else stops[row] - 1
        return row, flat, code, move_at(coins, row, flat, code)
    try:
        kind, index, end_name, position, coin = move
    except (TypeError, ValueError):
        raise MoveError(f"{move!r} is not a Move(kind, index, end, position, coin)") from None
    number = _index(index)
    for field, given, meaning in (("index", index, "the row's, stack's or node's number"),
                                  ("position", position, "the coin's index in its row or "
                                   "stack, or the node")):
        if _index(given) is None:
            raise MoveError(f"illegal move {move!r}: its {field} must be an integer "
                            f"({meaning}), got {describe(given)}")
    if kind == "tree":
        return _resolve_root(move, where, number, end_name, position, coin)
    n_rows = coins.n_rows
    if kind == "row" and number is not None and 0 <= number < n_rows:
        component = number
        if end_name != "left" and end_name != "right":
            raise MoveError(f"illegal move {move!r}: a row's end is 'left' or 'right'")
    elif kind == "stack" and number is not None and 0 <= number < len(starts) - n_rows:
        component = n_rows + number
        if end_name != "top":
            raise MoveError(f"illegal move {move!r}: a stack is taken from its 'top'")
    else:
        raise MoveError(f"illegal move {move!r}: no such {kind!r} with index {index!r}")
    start, stop = starts[component], stops[component]
    if start == stop:
        raise MoveError(f"illegal move {move!r}: {coins.names[component]} is empty")
    end = END_CODES[end_name]
    flat = stop - 1 if end == End.RIGHT else start
    expected = move_at(coins, component, flat, end)
    if _index(position) != expected.position or coin != expected.coin:
        raise MoveError(f"illegal move {move!r}: the coin there is {expected!r}")
    return component, flat, end, expected


def _not_a_move_here(text: str, where: Position) -> str:
    """Why a string is not a move of a game that is not one row: what the game has, and a
    legal move as it must be written (the first of ``moves``: O(k), plus O(n) with a
    forest)."""
    coins = where.coins
    n_stacks = len(where.starts) - coins.n_rows
    parts = [f"{count} {name}{'s' if count != 1 else ''}"
             for count, name in ((coins.n_rows, "row"), (n_stacks, "stack")) if count]
    if where.forest is not None:
        parts.append(f"a forest of {where.forest.size} nodes")
    legal = moves(where)
    example = f" (e.g. {tuple(legal[0])!r}; .moves() lists them all)" if legal else ""
    said = (f"{text!r} names an end of a one-row game" if text in ("left", "right") else
            f"{short_repr(text)} is not a move: a string names only an end of a one-row game "
            "('left' or 'right')")
    return (f"{said}; this game has {' and '.join(parts) or 'no coins'}: pass a Move(kind, "
            f"index, end, position, coin){example}")


def _resolve_root(move: Any, where: Position, node: int | None, end_name: Any,
                  position: Any, coin: Any) -> tuple[int, int, int, Move]:
    forest = where.forest
    if forest is None:
        raise MoveError(f"illegal move {move!r}: this game has no forest")
    if node is None or not 0 <= node < forest.size:
        raise MoveError(f"illegal move {move!r}: no node {move[1]!r} in the forest")
    if end_name != "root":
        raise MoveError(f"illegal move {move!r}: a tree is taken at its 'root'")
    component, flat = len(where.starts), forest.base + node
    expected = move_at(where.coins, component, flat, End.ROOT)
    if _index(position) != expected.position or coin != expected.coin:
        raise MoveError(f"illegal move {move!r}: the coin there is {expected!r}")
    if forest.removed()[node]:
        raise MoveError(f"illegal move {move!r}: node {node} was already taken")
    if not forest.is_root(node):
        raise MoveError(f"illegal move {move!r}: node {node} is not a root (its parent "
                        f"{forest.parents[node]} is still there)")
    return component, flat, End.ROOT, expected
