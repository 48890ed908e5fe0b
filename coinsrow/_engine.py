"""Live play against any opponent: ``Engine``, a mutable position with O(1) value.

The position of a game of rows and stacks only ever shrinks, so every component is a window
of the one it started as. The window structure (docs/window.md; ``RowWindows`` in
``_core/_window.pyx``) keeps the reduced form of every component and a balanced tree of all its
blocks: the value is read at the tree's root in O(1), the best move is the largest block
(O(log n)), and taking any coin costs O(log n) amortised. A stack's Fruitless tail is the
increasing end of its reduced form, a prefix of one fixed path of the static forest, which
only shrinks as the top is taken. A whole game of n coins against any opponent costs
O(n log n) time and O(n) memory.

A game with a forest (docs/forests.md; ``ForestWindows`` in ``_core/_forest.pyx``) keeps its rows
in the same window structure and treats the stacks as paths of the forest: the blocks of
every subtree are computed once, bottom-up, and stay valid as long as the subtree is whole
(a move only ever takes a root), so the blocks released at the roots join the rows' blocks
in the one tree; taking a root puts back the blocks it had absorbed, each once in a game.
"""

from __future__ import annotations

import decimal
import threading
from array import array
from collections.abc import Callable, Sequence
from contextlib import nullcontext
from decimal import Decimal
from fractions import Fraction
from typing import Any, TypeVar, cast

from ._bounds import pickled_bounds, pickled_ints
from ._coins import FLOAT64, INT64, Coins, Number, column, storage
from ._core import short_rows
from ._dispatch import EXACT, EXACT_DECIMAL, SHORT_PATH, Answer, Structure, run
from ._forest import ForestState, LiveForest
from ._game import Game, game_at, where
from ._moves import Move, MoveError, Position, moves, resolve

__all__ = ["Engine"]


# ``_new_move(Move, fields)`` is ``Move(*fields)`` without the NamedTuple constructor's
# argument parsing: tuple.__new__, typed as the constructor it stands for, and called
# directly on the hot paths (a Python function around it cost 0.1 us a move).
_new_move: Callable[[type[Move], tuple], Move] = cast(Any, tuple.__new__)

# Held while a short engine's storage is made, when first needed
# (_ShortRowEngine._short_coins), so that it is made once: its positions, games and copies
# share it.
_SHORT_STORAGE = threading.Lock()


def _row_storage(data: array) -> Coins:
    """The storage of one row whose coins are ``data``, an ``array('q')`` or
    ``array('d')``: what ``Game(rows=[row])`` stores for it. O(1)."""
    return Coins(FLOAT64 if data.typecode == "d" else INT64, int, memoryview(data), (0,),
                 (len(data),), 1, ("row 0",))


def _row_position(row: list | tuple) -> Position:
    """The position ``Game(rows=[row])`` starts at (the same storage, the same errors),
    without building the ``Game``: some 5 us less for a short row, half of what an Engine
    of 8 coins costs to build (benchmarks/small_calls.py); a short row of ints or finite
    floats is read by the compiled fast path (``short_rows.coins``). O(n)."""
    names = ("row 0",)
    data = short_rows.coins(row) if SHORT_PATH else None
    if data is not None:
        coins = _row_storage(data)
    else:
        coins = storage([column(row, "row 0")], 1, names)
        if coins.kind == FLOAT64:
            # NaN or an infinity makes the game invalid from the start, as in Game().
            run(coins, "check_finite", answer=Answer.PLAY)
    return Position(coins, (0,), (len(coins),))  # copied into arrays by Engine._build


class Engine:
    """A mutable position for live play against any opponent.

    ``Engine(game)`` takes a row (any accepted sequence or buffer) or a ``Game``, forests
    included.

    - ``value()``: the advantage of the player to move, O(1).
    - ``best_move()``: an optimal ``Move``, by the library's one tie rule: always the move
      ``Game.best_move()`` makes in the same position. Without a forest: the largest block
      of the reduced forms (ties: the lowest row or stack), from the end of its row where it
      lies (ties: left) or the top of its stack; when only stacks' Fruitless tails are left,
      the top of the first stack. With a forest (docs/forests.md): the largest of the rows'
      blocks and of the blocks released at the roots of the stacks and trees (ties: rows
      first, the lowest row, the left end; then the stacks in order, then the nodes by
      index); when no block is released any more, the first stack's top, else the root with
      the lowest index. O(1) for one row, O(log n) otherwise.
    - ``take(move)``: play any legal move, by either side: a ``Move`` (as from ``moves()``,
      ``best_move()`` or ``game.moves()``; a forest's is ``Move("tree", node, "root", node,
      coin)``), or ``"left"`` / ``"right"`` for a one-row game. Returns the ``Move`` played.
    - ``game``: the current position as an immutable ``Game``; ``len(engine)``: coins left.
    - ``copy.copy(engine)`` (and ``deepcopy``) is an independent engine at the same position;
      an engine pickles as the game it started from and the coins taken since.

    Threads: an engine may be shared. ``take``, ``moves``, ``game``, a copy and a pickle
    hold the engine's lock while they run (``value`` and ``best_move`` are one call of the
    compiled structure, atomic on their own), so the calls of several threads take turns
    and each sees the position between two moves, never in the middle of one. A move read
    in one call and played in the next may meanwhile have been played by another thread:
    ``take`` then refuses it with ``ValueError``, like any illegal move. Holding the lock
    costs about 0.2 us, 12% of a move of a one-row game and 3% of a forest's
    (benchmarks/forest_engine_bench.py). An engine of one short row of ints (below) needs no
    lock: each of its calls is one atomic step of its compiled state, and a move checked
    in Python is played only if the position is still the one it was checked on.

    Cost: building O(n log n), each move O(log n) amortised, so a whole game of n coins costs
    O(n log n) time and O(n) memory whatever the opponent does, on the optimal line or off
    it (at most two tree updates per move of a row; a stack's Fruitless tail adds O(1)
    amortised). With a forest, taking a node costs O((1 + b) log n) for the b blocks it had
    absorbed, which go back into the tree: each block once in a game, so the whole game is
    still O(n log n) against any opponent, and nothing is ever solved again.
    int64 and float64 coins use compiled loops; int64 coins whose alternating prefix sums
    (with a forest: whose magnitudes add up) pass 2^59, big ints, ``Fraction`` and
    ``Decimal`` use the exact twin of the structure on Python numbers (same bounds, a
    constant factor slower); so do floats whose magnitudes sum past 1e300, as Fractions,
    the answers rounded once. A list or tuple of at most 64 ints within int64 whose
    magnitudes sum to at most 2^63 - 1 is played by a compiled fast path instead
    (``short_rows.engine``, its engine an instance of a private subclass; not with
    ``COINSROW_EXACT=1``), with the same answers: building O(n), ``value()`` and
    ``best_move()`` O(n) (the position solved again after a move; some 15 ns for 8 coins),
    ``take`` O(1).

    Parameters
    ----------
    game : Game, or a row
        The starting position: a ``Game`` (rows, stacks, a forest) or one row, anything
        ``value`` accepts. It is not modified.

    Raises
    ------
    TypeError
        If ``game`` is neither a ``Game`` nor a row, or a coin is not a real number.
    ValueError
        If a coin is NaN or infinite.

    Examples
    --------
    >>> e = Engine([1, 2, 1000, 3, 4, 900])
    >>> e.value(), e.best_move().end
    (1892, 'right')
    >>> e.take("right").coin, e.value()
    (900, -992)
    >>> e.take("left").coin, e.best_move()
    (1, Move(kind='row', index=0, end='right', position=4, coin=4))
    >>> t = Engine(Game(stacks=[[2, 9]], forest=([5, 1, 7], [-1, 0, 0])))
    >>> t.value(), t.best_move()
    (6, Move(kind='tree', index=0, end='root', position=0, coin=5))
    >>> t.take(Move("stack", 0, "top", 0, 2)).coin, t.value(), t.best_move().coin
    (2, 10, 9)
    """

    __slots__ = ("_coins", "_starts", "_stops", "_structure", "_windows", "_left",
                 "_one_row", "_n_rows", "_bases", "_data", "_initial", "_forest", "_lock",
                 "_offered", "_short")  # _short: _ShortRowEngine's (one layout for both)

    def __init__(self, game: Any) -> None:
        if game.__class__ is list or game.__class__ is tuple:
            short = short_rows.engine(game, Move) if SHORT_PATH else None
            if short is not None:
                # One short row of ints: played by a compiled object (``ShortEngine``), each
                # method one call into it. An Engine of 8 coins and its 8 moves took 10.3 us
                # through the window structure and the Python bookkeeping around it, 2.6 us
                # so (benchmarks/small_calls.py). Its methods are a subclass's, so that
                # Engine's own take no branch for it: a row's take(best_move()) ran 10,559
                # instructions with the two branches, 10,203 without (callgrind, a row of
                # 10^5 coins), and took 3% longer. The class is switched here rather than
                # chosen in a __new__: 295 against 365 ns to build an Engine of 8 coins (best
                # of 11 timeit runs).
                self.__class__ = _ShortRowEngine
                self._short = short
                return
            position = _row_position(game)
        else:
            if not isinstance(game, Game):
                game = Game(rows=[game])
            position = where(game)
        self._build(position, position.starts, position.stops, position.forest)

    def _build(self, initial: Position, starts: Sequence[int], stops: Sequence[int],
               forest: ForestState | None = None) -> None:
        """The engine at the position ``starts``/``stops`` (and ``forest``, the forest's part
        of it) of ``initial``'s storage, which it remembers as the position it started from
        (for pickling). O(n log n)."""
        coins = initial.coins
        # One operation at a time: threads sharing an engine take turns (see the class).
        self._lock = threading.RLock()
        self._coins = coins
        self._initial = (array("q", initial.starts), array("q", initial.stops),
                         initial.forest)
        self._starts = array("q", starts)
        self._stops = array("q", stops)
        n_rows = coins.n_rows
        self._n_rows = n_rows
        self._bases = coins.bases
        self._data = coins.objects() if not isinstance(coins.data, memoryview) else coins.data
        self._one_row = n_rows == 1 and len(self._starts) == 1 and forest is None
        self._left = sum(self._stops) - sum(self._starts)
        self._forest: LiveForest | None = None
        if forest is None:
            self._structure: Structure = run(coins, "RowWindows", self._starts, self._stops,
                                             n_rows, answer=Answer.STRUCTURE)
        else:
            self._left += forest.left
            self._structure = run(coins, "ForestWindows", self._starts, self._stops, n_rows,
                                  forest.base, forest.parents, forest.removed(),
                                  answer=Answer.STRUCTURE)
            # The structure keeps the roots as it plays: the forest asks it for them.
            self._forest = LiveForest(forest, self._structure.kernel.roots)
        self._windows = self._structure.kernel
        # What best_move offered last, which take() plays without checks: (coins left, the
        # Move, its component or -1 for a forest's node, whether it is taken from the left)
        self._offered: tuple[int, Move, int, bool] | None = None

    # -- copies and pickles -----------------------------------------------------------------

    def __copy__(self) -> Engine:
        """An independent engine at the same position (moves on one leave the other alone),
        sharing the immutable coins. O(n log n): its structure is built again."""
        twin = Engine.__new__(Engine)
        with self._lock:
            starts, stops = array("q", self._starts), array("q", self._stops)
            forest = None if self._forest is None else self._forest.state()
        twin._build(Position(self._coins, *self._initial), starts, stops, forest)
        return twin

    def __deepcopy__(self, memo: dict) -> Engine:
        return self.__copy__()

    def __reduce__(self) -> tuple:
        """Pickled as the ``Game`` it started from and the coins taken since from each end of
        each component (and the forest's nodes, parents first); unpickling plays them again
        (O(n log n))."""
        initial_starts, initial_stops, initial_forest = self._initial
        start = game_at(Position(self._coins, initial_starts, initial_stops, initial_forest))
        with self._lock:
            taken_left = [s - s0 for s, s0 in zip(self._starts, initial_starts)]
            taken_right = [s0 - s for s, s0 in zip(self._stops, initial_stops)]
            if self._forest is None or initial_forest is None:
                return _unpickle_engine, (start, taken_left, taken_right)
            return _unpickle_engine, (start, taken_left, taken_right,
                                      _taken_nodes(initial_forest, self._forest))

    # -- reading the position ---------------------------------------------------------------

    def __len__(self) -> int:
        return self._left

    def _where(self) -> Position:
        return Position(self._coins, self._starts, self._stops, self._forest)

    @property
    def game(self) -> Game:
        """The current position as an immutable ``Game`` (O(k) for k rows and stacks; O(n)
        with a forest)."""
        with self._lock:
            forest = None if self._forest is None else self._forest.state()
            return game_at(Position(self._coins, self._starts, self._stops, forest))

    def value(self) -> Number:
        """Own total minus the opponent's for the player to move, both playing optimally.

        O(1) (read at the root of the block tree).

        Returns
        -------
        number
            ``int``, ``float``, ``Fraction`` or ``Decimal`` as the coins are; ``0`` when no
            coin is left.

        Examples
        --------
        >>> Engine([3, 2, 2, 3, 1, 2]).value()
        3
        """
        # One call of the structure: atomic without the lock (its own critical section).
        return self._structure.number(self._windows.value())

    def best_move(self) -> Move:
        """An optimal move, by the one tie rule (the move ``Game.best_move()`` makes here).

        O(1) for one row, O(log n) otherwise.

        Returns
        -------
        Move
            The move ``Game.best_move()`` gives in this position; ``take`` accepts it.

        Raises
        ------
        ValueError
            If no coin is left.

        Examples
        --------
        >>> Engine([1, 2, 1000, 3, 4, 900]).best_move()
        Move(kind='row', index=0, end='right', position=5, coin=900)
        """
        # One call of the structure (atomic: see value); the rest reads what never changes.
        # The coins left are read before the structure: a move of another thread in between
        # leaves fewer, and take() then checks the move as any other.
        left = self._left
        c, from_left, flat = self._windows.best()
        if c < 0:
            raise ValueError("the game is over: no coin is left")
        if c < self._n_rows:
            move = _new_move(Move, ("row", c, "left" if from_left else "right",
                                    flat - self._bases[c], self._data[flat]))
        elif c < len(self._starts):
            move = _new_move(Move, ("stack", c - self._n_rows, "top", flat - self._bases[c],
                                    self._data[flat]))
            from_left = True  # a stack's top is the start of its coins
        else:
            # Narrowed by an assert, not typing.cast (here and in _take_node): cast is a Python
            # call. A 20,000-node forest's Engine built and 2,000 take(best_move()): 3.12 ->
            # 2.94 ms, some 90 ns a move (best of 6, alternating with the casts).
            forest = self._forest
            assert forest is not None  # a flat index past the components: a forest's node
            node = flat - forest.base
            move = _new_move(Move, ("tree", node, "root", node, self._data[flat]))
            c = -1
        self._offered = (left, move, c, from_left)
        return move

    def moves(self) -> list[Move]:
        """The legal moves, as ``Game.moves()`` lists them for the same position.

        O(k + r log r) for k rows and stacks and r roots of the forest: the engine's
        structure keeps the current roots as it plays (``ForestWindows.roots``), so the
        first call builds nothing either.

        Returns
        -------
        list of Move
            Empty when the game is over.
        """
        with self._lock:
            return moves(self._where())

    def move_values(self) -> list[tuple[Move, Number]]:
        """Every legal move with its worth to the player to move (``Game.move_values()`` of
        the current position: the same list).

        Each move's value after is read from the engine's own window structure
        (``value_after`` / ``value_after_node`` of ``RowWindows``, ``ForestWindows`` and
        their exact twins): the move is played on the structure with an undo journal, the
        value read at the root, and the move rolled back, so nothing is solved again and
        the structure is left exactly as it was.

        Returns
        -------
        list of (Move, number)
            In ``moves()`` order: the coin minus the value after the move; empty when the
            game is over. Exact, as ``Game.move_values()``: ints, Fractions and Decimals as
            they are, floats the exact worth rounded once.

        Notes
        -----
        Cost: O(k + r log r) to list the moves (``moves()``), then for each move what
        playing and undoing it costs: O(log n) for a typical move, but not amortised, since
        the move is undone: a row's end whose block spans b coins, or a stack's top that
        brings b blocks of its Fruitless tail back, costs O(b log n); a forest's root,
        O((1 + b) log n) for the b blocks it had absorbed. Float coins are the exception:
        the float structure's sums are rounded at each step, so their worths come from
        ``Game.move_values()`` of the current position (O(n log n) for the n coins of rows
        and stacks, O(n) for one row; a forest's: one value per root), unless the engine
        already runs on exact Fractions (coins whose magnitudes sum past 1e300).

        Threads: it holds the engine's lock, and on int64 and float64 coins each move is
        played and undone within one call of the compiled structure, so ``value()`` and
        ``best_move()`` of other threads never see it. The exact twin's arithmetic (big
        ints, Fractions, Decimals) runs Python code, during which another thread may run:
        there, as during a ``take()``, a ``value()`` or ``best_move()`` of another thread,
        which take no lock, may see the structure in the middle of a move.

        An engine of a short list of ints (see the class) has no window structure: its at
        most two moves are ``Game.move_values()`` of the position, O(n) for its n <= 64 coins.
        """
        with self._lock:
            listed = moves(self._where())
            structure = self._structure
            if not listed or (self._coins.exact_type is float
                              and (structure.machine or EXACT)):
                # A float structure (the machine's, or its twin on Python floats): its sums
                # are rounded, the worths must be the exact ones rounded once.
                return self.game.move_values() if listed else []
            windows, n_rows, number = self._windows, self._n_rows, structure.number
            worths = []
            # Decimals subtract exactly under the exact context (as in _worths); entering it
            # costs more than the rest of a one-row game's call, so only for them.
            with (decimal.localcontext(EXACT_DECIMAL) if self._coins.exact_type is Decimal
                  else nullcontext()):
                for move in listed:
                    kind = move.kind
                    if kind == "row":
                        after = windows.value_after(move.index, move.end == "left")
                    elif kind == "stack":
                        after = windows.value_after(n_rows + move.index, True)
                    else:
                        after = windows.value_after_node(move.index)
                    coin = move.coin
                    worths.append((move, number((Fraction(coin) if coin.__class__ is float
                                                 else coin) - after)))
            return worths

    def take(self, move: Move | str | Sequence[Any]) -> Move:
        """Play ``move`` (any legal move, by either side) and return it as a ``Move``.

        O(log n) amortised (a forest's node: O((1 + b) log n), see the class).

        Parameters
        ----------
        move : Move, or "left" / "right"
            Any legal move of the position, by either player: a ``Move`` (as ``moves()``,
            ``best_move()`` or ``game.moves()`` give it), or ``"left"``/``"right"`` in a
            game of one row.

        Returns
        -------
        Move
            The move played, with its coin.

        Raises
        ------
        ValueError
            If the move is not legal here (the message says why); the position is then
            unchanged.

        Examples
        --------
        >>> e = Engine([5, 1, 3])
        >>> e.take("right")
        Move(kind='row', index=0, end='right', position=2, coin=3)
        >>> len(e), e.game.rows
        (2, ((5, 1),))
        """
        with self._lock:
            offered = self._offered
            if offered is not None and move is offered[1] and offered[0] == self._left:
                # The move ``best_move`` gave at this very position (the coins left tell: a
                # move takes one): played as it is, without the checks below. A move of an
                # Engine of 8 coins took 9,500 instructions with them, 6,900 without
                # (callgrind, best_move and take); a move of a 20,000-node forest, 3.4 us with
                # them, 1.1 us without (2,000 moves, best time of five).
                if offered[2] >= 0:
                    self._pop(offered[2], offered[3])
                else:
                    self._take_node(move[1])
                return move
            if move.__class__ is str and self._one_row:
                # The hot path of a one-row game: an end by its name.
                start, stop = self._starts[0], self._stops[0]
                if start < stop and (move == "left" or move == "right"):
                    flat = start if move == "left" else stop - 1
                    played = _new_move(Move, ("row", 0, move, flat - self._bases[0],
                                              self._data[flat]))
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
                component, flat, _, played = resolve(move, self._where())
            except MoveError as error:
                raise ValueError(str(error)) from None
            if component == len(self._starts):
                self._take_node(flat - cast(LiveForest, self._forest).base)
            else:
                self._pop(component, played.end != "right")
            return played

    def _take_node(self, node: int) -> None:
        forest = self._forest
        assert forest is not None  # nodes are taken only where there is a forest
        try:
            self._windows.take_node(node)
            forest.take(node)
            self._left -= 1
        except BaseException:
            # As in _pop: read the position back from the structure.
            self._resync()
            raise

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
        forest = self._forest
        if forest is not None:
            forest.resync(self._windows.taken)
            self._left += forest.left

    def __repr__(self) -> str:
        return f"Engine({self.game!r})"


_EngineClass = TypeVar("_EngineClass", bound=Engine)


def _documented_as_engine(cls: type[_EngineClass]) -> type[_EngineClass]:
    """``cls`` with the documentation of ``Engine``'s public methods it redefines, so that
    ``help()`` on a short row's engine shows it."""
    redefined: Any = cls
    for name in ("value", "best_move", "moves", "move_values", "take"):
        getattr(redefined, name).__doc__ = getattr(Engine, name).__doc__
    redefined.game = property(redefined.game.fget, doc=Engine.game.__doc__)
    return cls


@_documented_as_engine
class _ShortRowEngine(Engine):
    """The engine of one short row of ints (``Engine.__init__`` makes it; see ``Engine``):
    each method one call of the compiled ``ShortEngine``. It has no window structure and no
    lock: each of the object's methods is atomic (the lock cost 0.13 us a call), and a move
    checked in Python is played only if the position is still the one it was checked on
    (``_short_take``). Only ``_short`` is set when it is made; ``_coins``, the row's storage,
    when a method first needs a position (``_short_where``)."""

    __slots__ = ()
    _short: short_rows.ShortEngine

    def __copy__(self) -> Engine:
        twin = object.__new__(_ShortRowEngine)
        twin._short = self._short.copy()
        return twin

    def __reduce__(self) -> tuple:
        n = len(self._short_coins().data)
        start_at, stop_at = self._short.bounds()
        return _unpickle_engine, (game_at(self._short_where(0, n)), [start_at], [n - stop_at])

    def __len__(self) -> int:
        return len(self._short)

    def _where(self) -> Position:
        return self._short_where(*self._short.bounds())

    def _short_coins(self) -> Coins:
        """The storage of the row of a short engine, made when first needed, once. O(n)."""
        with _SHORT_STORAGE:
            try:
                return self._coins
            except AttributeError:  # not made yet
                self._coins = _row_storage(self._short.coins())
                return self._coins

    def _short_where(self, start: int, stop: int) -> Position:
        """The position of a short engine whose row's coins ``[start, stop)`` are left."""
        return Position(self._short_coins(), array("q", (start,)), array("q", (stop,)))

    @property
    def game(self) -> Game:
        return game_at(self._where())

    def value(self) -> Number:
        value: int = self._short.value()
        return value

    def best_move(self) -> Move:
        best: Move = self._short.best_move()
        return best

    def moves(self) -> list[Move]:
        return moves(self._where())  # a position read at once

    def move_values(self) -> list[tuple[Move, Number]]:
        return self.game.move_values()

    def take(self, move: Move | str | Sequence[Any]) -> Move:
        short = self._short
        played = short.take(move)  # a move named as the engine names it: one call
        return played if played is not None else self._short_take(short, move)

    def _short_take(self, short: short_rows.ShortEngine, move: Any) -> Move:
        """``take`` of a short engine for a move its fast check left: checked by
        ``resolve`` on the position, and played as ``resolve`` names it, which the fast
        check takes as long as that coin is still at that end. If another thread took it
        meanwhile, the move is checked again on the new position: each retry follows a
        coin taken, so there are at most n."""
        while True:
            try:
                _, _, _, played = resolve(move, self._short_where(*short.bounds()))
            except MoveError as error:
                raise ValueError(str(error)) from None
            if short.take(played) is not None:
                return played


def _unpickle_engine(start: Game, taken_left: Sequence[int], taken_right: Sequence[int],
                     taken_nodes: Sequence[int] = ()) -> Engine:
    """The engine of a pickle (``Engine.__reduce__``): ``start`` with the coins taken (the
    forest's nodes in an order where each is a root when it is taken)."""
    if not isinstance(start, Game):
        raise TypeError(f"the pickled Engine is corrupt: its game is of type "
                        f"{type(start).__name__}, not Game")
    position = where(start)
    k = len(position.starts)
    taken_left = pickled_ints(taken_left, k, "coins taken from the left", "Engine")
    taken_right = pickled_ints(taken_right, k, "coins taken from the right", "Engine")
    starts, stops = pickled_bounds(
        "Engine", position.coins.names, position.starts, position.stops,
        [a + t for a, t in zip(position.starts, taken_left)],
        [b - t for b, t in zip(position.stops, taken_right)])
    forest = position.forest
    if isinstance(taken_nodes, (str, bytes)) or not isinstance(taken_nodes, Sequence):
        raise TypeError(f"the pickled Engine is corrupt: its taken nodes are of type "
                        f"{type(taken_nodes).__name__}, not a sequence of ints")
    if taken_nodes:
        if forest is None:
            raise ValueError("the pickled Engine does not match its coins: nodes taken, but "
                             "no forest")
        live = LiveForest(forest)
        for node in taken_nodes:
            if not (type(node) is int and 0 <= node < live.size and live.is_root(node)):
                raise ValueError(f"the pickled Engine does not match its coins: taken node "
                                 f"{node!r} is not a root of its forest then")
            live.take(node)
        forest = live.state()
    engine = Engine.__new__(Engine)
    engine._build(position, starts, stops, forest)
    return engine


def _taken_nodes(initial: ForestState, now: LiveForest) -> list[int]:
    """The nodes gone from ``now`` but not from ``initial``, parents before children (so
    that each is a root when taken again). O(n)."""
    before, after, parents = initial.removed(), now.removed(), initial.parents
    depth: dict[int, int] = {}
    for node in range(initial.size):
        if after[node] and not before[node]:
            path, x = [], node
            while x not in depth and x >= 0 and after[x] and not before[x]:
                path.append(x)
                x = parents[x]
            known = depth.get(x, 0) if x >= 0 else 0
            for y in reversed(path):
                known += 1
                depth[y] = known
    return sorted(depth, key=lambda x: (depth[x], x))
