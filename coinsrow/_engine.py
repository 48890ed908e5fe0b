"""Live play against any opponent: ``Engine``, a mutable position with O(1) value.

The position of a game of rows and stacks only ever shrinks, so every component is a window
of the one it started as. The window structure (docs/window.md; ``RowWindows`` in
``_window.pxi``) keeps the reduced form of every component and a balanced tree of all its
blocks: the value is read at the tree's root in O(1), the best move is the largest block
(O(log n)), and taking any coin costs O(log n) amortised. A stack's Fruitless tail is the
increasing end of its reduced form, a prefix of one fixed path of the static forest, which
only shrinks as the top is taken. A whole game of n coins against any opponent costs
O(n log n) time and O(n) memory.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Sequence
from typing import Any, cast

from ._dispatch import Answer, Number, Structure, run
from ._game import Game, game_at, where
from ._moves import Move, MoveError, Position, moves, resolve

__all__ = ["Engine"]


def _new_move(fields: tuple,
              _new: Callable[[type[Move], tuple], Move] = cast(Any, tuple.__new__)) -> Move:
    """``Move(*fields)`` without the NamedTuple constructor's argument parsing (hot path)."""
    return _new(Move, fields)


class Engine:
    """A mutable position for live play against any opponent.

    ``Engine(game)`` takes a row (any accepted sequence or buffer) or a ``Game``.

    - ``value()``: the advantage of the player to move, O(1).
    - ``best_move()``: an optimal ``Move``, by the library's one tie rule (the move
      ``Game.best_move()`` makes in the same position): the largest block of the reduced
      forms (ties: the lowest row or stack), from the end of its row where it lies (ties:
      left) or the top of its stack; when only stacks' Fruitless tails are left, the top of
      the first stack. O(1) for one row, O(log n) otherwise.
    - ``take(move)``: play any legal move, by either side: a ``Move`` (as from ``moves()``,
      ``best_move()`` or ``game.moves()``), or ``"left"`` / ``"right"`` for a one-row game.
      Returns the ``Move`` played.
    - ``game``: the current position as an immutable ``Game``; ``len(engine)``: coins left.
    - ``copy.copy(engine)`` (and ``deepcopy``) is an independent engine at the same position;
      an engine pickles as the game it started from and the coins taken since.

    Cost: building O(n log n), each move O(log n) amortised, so a whole game of n coins in
    rows and stacks costs O(n log n) time and O(n) memory whatever the opponent does (at most
    two tree updates per move of a row; a stack's Fruitless tail adds O(1) amortised).
    int64 and float64 coins use compiled loops; int64 coins whose alternating prefix sums
    would pass 2^59 in magnitude, big ints, ``Fraction`` and ``Decimal`` use the exact twin
    of the structure on Python numbers (same bounds, a constant factor slower); so do floats
    whose magnitudes sum past 1e300, as Fractions, the answers rounded once.

    >>> e = Engine([1, 2, 1000, 3, 4, 900])
    >>> e.value(), e.best_move().end
    (1892, 'right')
    >>> e.take("right").coin, e.value()
    (900, -992)
    >>> e.take("left").coin, e.best_move()
    (1, Move(kind='row', index=0, end='right', position=4, coin=4))
    """

    __slots__ = ("_coins", "_starts", "_stops", "_structure", "_windows", "_left",
                 "_one_row", "_n_rows", "_bases", "_data", "_initial")

    def __init__(self, game: Any) -> None:
        if not isinstance(game, Game):
            game = Game(rows=[game])
        position = where(game)
        if position.forest is not None and position.forest.left:
            raise ValueError("Engine holds rows and stacks only; play a Game with a forest "
                             "through Game.best_move()/take()")
        self._build(position, position.starts, position.stops)

    def _build(self, initial: Position, starts: Sequence[int], stops: Sequence[int]) -> None:
        """The engine at the position ``starts``/``stops`` of ``initial``'s storage, which
        it remembers as the position it started from (for pickling). O(n log n)."""
        coins = initial.coins
        self._coins = coins
        self._initial = (array("q", initial.starts), array("q", initial.stops))
        self._starts = array("q", starts)
        self._stops = array("q", stops)
        n_rows = coins.n_rows
        self._n_rows = n_rows
        self._bases = coins.bases
        self._data = coins.objects() if not isinstance(coins.data, memoryview) else coins.data
        self._one_row = n_rows == 1 and len(self._starts) == 1
        self._left = sum(b - a for a, b in zip(self._starts, self._stops))
        self._structure: Structure = run(coins, "RowWindows", self._starts, self._stops,
                                         n_rows, answer=Answer.STRUCTURE)
        self._windows = self._structure.kernel

    # -- copies and pickles -----------------------------------------------------------------

    def __copy__(self) -> Engine:
        """An independent engine at the same position (moves on one leave the other alone),
        sharing the immutable coins. O(n log n): its structure is built again."""
        twin = Engine.__new__(Engine)
        twin._build(Position(self._coins, *self._initial), self._starts, self._stops)
        return twin

    def __deepcopy__(self, memo: dict) -> Engine:
        return self.__copy__()

    def __reduce__(self) -> tuple:
        """Pickled as the ``Game`` it started from and the coins taken since from each end of
        each component; unpickling plays them again (O(n log n))."""
        initial_starts, initial_stops = self._initial
        start = game_at(Position(self._coins, initial_starts, initial_stops))
        taken_left = [s - s0 for s, s0 in zip(self._starts, initial_starts)]
        taken_right = [s0 - s for s, s0 in zip(self._stops, initial_stops)]
        return _unpickle_engine, (start, taken_left, taken_right)

    # -- reading the position ---------------------------------------------------------------

    def __len__(self) -> int:
        return self._left

    def _where(self) -> Position:
        return Position(self._coins, self._starts, self._stops)

    @property
    def game(self) -> Game:
        """The current position as an immutable ``Game`` (O(k) for k rows and stacks)."""
        return game_at(self._where())

    def value(self) -> Number:
        """Own total minus the opponent's for the player to move, both playing optimally.

        O(1) (read at the root of the block tree).

        >>> Engine([3, 2, 2, 3, 1, 2]).value()
        3
        """
        return self._structure.number(self._windows.value())

    def best_move(self) -> Move:
        """An optimal move: the largest end block (ties: lowest row, then left).

        O(1) for one row, O(log n) for several. ``ValueError`` when no coin is left.

        >>> Engine([1, 2, 1000, 3, 4, 900]).best_move()
        Move(kind='row', index=0, end='right', position=5, coin=900)
        """
        c, from_left, flat = self._windows.best()
        if c < 0:
            raise ValueError("the game is over: no coin is left")
        if c < self._n_rows:
            return _new_move(("row", c, "left" if from_left else "right",
                              flat - self._bases[c], self._data[flat]))
        return _new_move(("stack", c - self._n_rows, "top", flat - self._bases[c],
                          self._data[flat]))

    def moves(self) -> list[Move]:
        """The legal moves: both ends of every non-empty row, the top of every stack."""
        return moves(self._where())

    def take(self, move: Move | str | Sequence[Any]) -> Move:
        """Play ``move`` (any legal move, by either side) and return it as a ``Move``.

        ``move`` is a ``Move`` or ``"left"`` / ``"right"`` (one-row games). ``ValueError`` if it
        is not legal here; the position is then unchanged. O(log n) amortised.

        >>> e = Engine([5, 1, 3])
        >>> e.take("right")
        Move(kind='row', index=0, end='right', position=2, coin=3)
        >>> len(e), e.game.rows
        (2, ((5, 1),))
        """
        if move.__class__ is str and self._one_row:
            # The hot path of a one-row game: an end by its name.
            start, stop = self._starts[0], self._stops[0]
            if start < stop and (move == "left" or move == "right"):
                flat = start if move == "left" else stop - 1
                played = _new_move(("row", 0, move, flat - self._bases[0], self._data[flat]))
                self._pop(0, move == "left")
                return played
        elif move.__class__ is Move:
            # The hot path: a Move on a row, checked without building anything.
            kind, c, end, position, coin = move
            if kind == "row" and c.__class__ is int and 0 <= c < self._n_rows:
                start, stop = self._starts[c], self._stops[c]
                if start < stop:
                    flat = start if end == "left" else stop - 1 if end == "right" else -1
                    coin_there = self._data[flat] if flat >= 0 else None
                    # Only a move exactly as the engine names it (an int position, the
                    # coin's own type) is returned as it came; others are resolved below.
                    if (flat >= 0 and position.__class__ is int
                            and position == flat - self._bases[c]
                            and coin.__class__ is coin_there.__class__ and coin == coin_there):
                        self._pop(c, end == "left")
                        return move
        try:
            component, _, end_code, played = resolve(move, self._where())
        except MoveError as error:
            raise ValueError(str(error)) from None
        self._pop(component, played.end != "right")
        return played

    def _pop(self, c: int, from_left: bool) -> None:
        try:
            if from_left:
                self._windows.pop_left(c)
                self._starts[c] += 1
            else:
                self._windows.pop_right(c)
                self._stops[c] -= 1
            self._left -= 1
        except BaseException:
            # A KeyboardInterrupt can come between the structure's pop (which never stops
            # half-way) and the bookkeeping: read the position back from the structure.
            self._resync()
            raise

    def _resync(self) -> None:
        for c in range(len(self._starts)):
            self._starts[c], self._stops[c] = self._windows.bounds(c)
        self._left = sum(b - a for a, b in zip(self._starts, self._stops))

    def __repr__(self) -> str:
        return f"Engine({self.game!r})"


def _unpickle_engine(start: Game, taken_left: Sequence[int],
                     taken_right: Sequence[int]) -> Engine:
    """The engine of a pickle (``Engine.__reduce__``): ``start`` with the coins taken."""
    position = where(start)
    k = len(position.starts)
    if len(taken_left) != k or len(taken_right) != k:
        raise ValueError("the pickled engine does not match its game")
    starts = [a + t for a, t in zip(position.starts, taken_left)]
    stops = [b - t for b, t in zip(position.stops, taken_right)]
    if any(not a0 <= a <= b <= b0 for a0, a, b, b0 in
           zip(position.starts, starts, stops, position.stops)):
        raise ValueError("the pickled engine does not match its game")
    engine = Engine.__new__(Engine)
    engine._build(position, starts, stops)
    return engine
