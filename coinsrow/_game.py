"""The game: values, profits and optimal play for rows, stacks and forests.

A position is one flat storage of all the coins of the game it started from (``Coins``), and
for each component (rows first, then stacks) the range ``[start, stop)`` of the coins still
on the table, plus the forest's nodes still there. Taking a coin only moves a bound, so a new
position shares the coins. Every answer is computed by a kernel through ``_dispatch.run``.
"""

from __future__ import annotations

import threading
from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from fractions import Fraction
from itertools import islice
from typing import Any, cast

from ._bounds import Bounds, Starts, Stops, pickled_bounds
from ._coins import FLOAT64, INT64, Coins, Number, refuse_as_row
from ._core import short_rows
from ._dispatch import SHORT_PATH, Answer, run
from ._forest import ForestState, parse_forest
from ._layout import layout, unpacked
from ._moves import End, Move, MoveError, Position, move_at, moves, resolve
from ._results import Profits
from ._text import Repr
from ._worths import move_values

# Profits is in the module's names for pickles written when it was defined here (they name it
# coinsrow._game.Profits); it lives in _results.
__all__ = ["Game", "Profits"]

_SVG_MAX_COINS = 5000

# Held while a small game's storage is made on first use (Game.__getattr__), so that all its
# positions share one storage even when threads read it at once.
_UNPACKING = threading.Lock()


class _Line:
    """An optimal play of a position, as computed once: shared by the positions along it.

    Turn t takes the coin at flat index ``coins[t]`` of component ``components[t]`` from
    end ``ends[t]`` (the forest is the component after the rows and stacks).
    """

    __slots__ = ("coins", "components", "ends")

    def __init__(self, components: Sequence[int], coins: Sequence[int], ends: Sequence[int]):
        self.components = components
        self.coins = coins
        self.ends = ends


class Game:
    """A position of the coins-in-a-row game family: rows, stacks and rooted trees of coins.

    Two players alternately take one coin: from either end of a row, or from the top of a
    stack (``stack[0]`` is the top). ``Game`` is immutable and hashable; it pickles (as its
    rows, stacks and forest), and a copy is the game itself.

    ``rows`` and ``stacks`` are sequences of components (lists, tuples, NumPy arrays, any
    numeric buffer) or a pyarrow list array (``ListArray``, ``LargeListArray``,
    ``FixedSizeListArray``, or a ``ChunkedArray`` of them). Building costs O(n + k): one
    compiled pass packs the coins into one buffer (one Arrow array of int64 or float64 coins
    is read in place, without a copy); only components of exact numbers (big ints,
    ``Fraction``, ``Decimal``) are normalised one by one in Python. docs/positions.md. A
    small game of lists or tuples of ints within int64 (at most 256 coins in 64 rows and
    stacks) is read by one compiled pass that also solves it when that takes at most 128
    steps (coins times components; at most 0.2 us more): its ``value()`` is then O(1).

    ``value()`` and ``profits()`` cost O(n log k) for n coins in k rows and stacks (O(n) for
    one row), with Idziaszek's Fusion, Fruitless and Greedy principles. ``take()`` costs
    O(log k) (the positions share the coins and all but O(log k) of the components' bounds),
    ``len()`` O(1), and a whole self-play through ``best_move()``/``take()`` O(n log k).

    Parameters
    ----------
    rows : sequence of rows, or a pyarrow list array, default ()
        The rows: each a list, tuple, NumPy array or numeric buffer of real numbers, left to
        right; a coin is taken from either end.
    stacks : sequence of stacks, or a pyarrow list array, default ()
        The stacks, each written top first (``stack[0]`` is taken first).
    forest : (values, parents) or None, default None
        A forest of rooted trees: node i holds ``values[i]`` below node ``parents[i]``
        (``-1`` for a root); a move takes a root, and its children become roots.

    Raises
    ------
    TypeError
        If ``rows`` or ``stacks`` is not a sequence of components, or a coin is not a real
        number; the message names the row, stack or node and the coin's index.
    ValueError
        If a coin is NaN or infinite, or ``parents`` is not a forest (a parent out of range,
        a cycle), naming where.

    Examples
    --------
    >>> g = Game(rows=[[3, 2, 2, 3, 1, 2]], stacks=[[1, 5]])
    >>> g.value(), g.profits(), len(g)
    (-1, Profits(first=9, second=10), 8)

    ``forest=(values, parents)`` adds a forest of rooted trees: node i holds ``values[i]``
    below node ``parents[i]`` (``-1`` for a root), and a move takes a root. With a forest,
    ``value()``, ``profits()`` and ``play()`` cost O(n log n) (block merging).

    >>> Game(forest=([1, 5, 3, 2, 4], [-1, 0, 0, 1, 1])).value()
    -1
    """

    __slots__ = (
        "__weakref__",
        "_bounds",
        "_cache",
        "_coins",
        "_forest",
        "_left",
        "_line",
        "_packed",
        "_turn",
    )

    def __init__(self, rows: Iterable[Any] = (), stacks: Iterable[Any] = (),
                 forest: Any = None) -> None:
        if forest is None and SHORT_PATH:
            packed = short_rows.pack(rows, stacks)
            if packed is not None:
                # A small game of lists of ints or floats, read in one compiled pass (and,
                # for ints, solved there): its storage and bounds are made when first read
                # (__getattr__). Building them here took 2.3 us of the 2.9 us of
                # Game(rows=[[3, 1, 4, 1, 5]], stacks=[[9, 2, 6]]).value(), which now takes
                # 1.05 us (benchmarks/small_calls.py): a game asked only its value skips
                # them.
                self._packed = packed
                self._left = packed[1][-1]
                self._line: _Line | None = None
                self._turn = 0
                self._forest: ForestState | None = None
                value = packed[3]
                self._cache: dict[str, Any] = {} if value is None else {"value": value}
                return
        forest_values, parents = parse_forest(forest) if forest is not None else (None, None)
        laid_out = layout(rows, stacks, forest_values)
        coins = laid_out.coins
        if coins.kind == FLOAT64:
            # NaN or an infinity makes a Game invalid from the start, in a forest too.
            run(coins, "check_finite", answer=Answer.PLAY)
        state = None
        if parents is not None:
            state = ForestState.initial(cast(int, coins.forest_base), parents,
                                        len(laid_out.starts))
        self._init(coins, Bounds(laid_out.starts, laid_out.stops),
                   laid_out.coins_in_components, None, 0, state)

    def _init(self, coins: Coins, bounds: Bounds, left: int, line: _Line | None, turn: int,
              forest: ForestState | None = None) -> None:
        self._coins = coins
        self._bounds = bounds
        self._left = left  # coins left in the rows and stacks
        self._line = line
        self._turn = turn
        self._cache = {}
        self._forest = forest

    def __getattr__(self, name: str) -> Any:
        """The storage (``_coins``) and bounds (``_bounds``) of a game built by the small
        fast path, made when first read, as ``layout`` makes them for the same game (O(k));
        every other attribute's lookup fails as usual. Called only when a slot is unset."""
        if name != "_coins" and name != "_bounds":
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        with _UNPACKING:
            try:  # another thread may have made them meanwhile: they are made once
                return object.__getattribute__(self, name)
            except AttributeError:
                pass
            data, offsets, n_rows, _ = self._packed
            laid_out = unpacked(data, offsets, n_rows)
            self._bounds = Bounds(laid_out.starts, laid_out.stops)
            self._coins = laid_out.coins
        return object.__getattribute__(self, name)

    @classmethod
    def _position(cls, coins: Coins, bounds: Bounds, left: int, line: _Line | None,
                  turn: int, forest: ForestState | None = None) -> Game:
        game = cls.__new__(cls)
        game._init(coins, bounds, left, line, turn, forest)
        return game

    # -- what is on the table -------------------------------------------------------------

    def __len__(self) -> int:
        """The number of coins left. O(1).

        Returns
        -------
        int
            The coins of the rows, stacks and forest not taken yet.
        """
        forest = self._forest
        return self._left if forest is None else self._left + forest.left

    def _components(self, first: int, last: int) -> tuple[tuple, ...]:
        data = self._coins.objects()
        starts, stops = self._bounds.arrays()
        return tuple(tuple(data[starts[c]:stops[c]]) for c in range(first, last))

    @property
    def rows(self) -> tuple[tuple, ...]:
        """The rows still on the table, as a tuple of tuples of coins (O(n + k))."""
        return self._components(0, self._coins.n_rows)

    @property
    def stacks(self) -> tuple[tuple, ...]:
        """The stacks still on the table, top first, as a tuple of tuples of coins
        (O(n + k))."""
        return self._components(self._coins.n_rows, len(self._bounds))

    @property
    def forest(self) -> tuple[tuple, tuple] | None:
        """The forest still on the table as ``(values, parents)``; ``None`` without a forest.

        The nodes left keep their original order but are numbered ``0..`` again (a removed
        parent becomes ``-1``), so ``Game(forest=game.forest)`` is the same position; moves
        name nodes by their index in the original forest. O(n).
        """
        if self._forest is None:
            return None
        forest = self._cache.get("forest")
        if forest is None:
            forest = self._cache["forest"] = self._forest.remaining(self._coins)
        return forest

    def _key(self) -> tuple:
        key = self._cache.get("key")
        if key is None:
            key = (self.rows, self.stacks)
            if self._forest is not None:
                key += (self.forest,)
            self._cache["key"] = key
        return key

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        """At most 200 characters, whatever the size of the game or of its numbers (an int
        too long for ``str`` is shown by its size); never fails."""
        text = Repr(200)
        text.add("Game(rows=")
        text.groups(self.rows)
        text.add(", stacks=")
        text.groups(self.stacks)
        if self._forest is not None:
            values, parents = cast("tuple[tuple, tuple]", self.forest)  # not None: a forest
            text.add(", forest=")
            text.groups((values, parents), brackets="()")
        text.add(")")
        return text.result()

    # -- copies and pickles -----------------------------------------------------------------

    def __copy__(self) -> Game:
        return self  # immutable

    def __deepcopy__(self, memo: dict) -> Game:
        return self  # immutable: its coins are numbers, shared by every position anyway

    def __reduce__(self) -> tuple:
        """Pickled as the game it was reached from (its rows, stacks and forest as given)
        and the bounds of what is left: the copy is the same position, equal, with the same
        hash, and names its moves as this one does (positions in the original rows, nodes of
        the original forest). O(n) for the n coins of the original game."""
        coins = self._coins
        data = coins.objects()
        components = [tuple(data[base:base + length])
                      for base, length in zip(coins.bases, coins.lengths)]
        forest = self._forest
        original_forest, removed = None, None
        if forest is not None:
            original_forest = (tuple(data[forest.base:forest.base + forest.size]),
                               tuple(forest.parents))
            removed = forest.removed()
        starts, stops = self._bounds.arrays()
        return _unpickle_game, (components[:coins.n_rows], components[coins.n_rows:],
                                original_forest, tuple(starts), tuple(stops), removed)

    # -- solving ---------------------------------------------------------------------------

    def _arguments(self) -> tuple:
        """The kernels' arguments for this position (after the coins)."""
        args: tuple = (*self._bounds.arrays(), self._coins.n_rows)
        forest = self._forest
        if forest is not None:
            args += (forest.base, forest.parents, forest.removed())
        return args

    def value(self) -> Number:
        """Own total minus the opponent's, for the player to move, both playing optimally.

        O(n log k); O(n) for one row; O(n log n) with a forest. Computed once: O(1) again.

        Returns
        -------
        number
            An ``int`` for int coins, a ``float`` if any coin is a float, else a
            ``Fraction`` or ``Decimal`` (docs/architecture.md); ``0`` for an empty game.

        Examples
        --------
        >>> Game(rows=[[1, 2, 1000, 3, 4, 900]]).value()
        1892
        """
        cache = self._cache
        if "value" not in cache:
            coins = self._coins
            answer = None
            if SHORT_PATH and coins.kind == INT64 and self._forest is None:
                answer = short_rows.game_value(coins.data, *self._bounds.arrays(), coins.n_rows)
            if answer is None:
                kernel = "forest_value" if self._forest is not None else "game_value"
                answer = run(coins, kernel, *self._arguments())
            cache["value"] = answer
        cached: Number = cache["value"]
        return cached

    def profits(self) -> Profits:
        """``Profits(first, second)``: what the player to move and the other one collect.

        Exact numbers: ``first + second`` is the sum of the coins and ``first - second`` the
        value. Floats: each player's coins of the optimal play, summed exactly and rounded
        once (``math.fsum`` of them). O(n log k), as ``value()``; O(1) again.

        Returns
        -------
        Profits
            ``first`` is the total of the player to move, ``second`` the other's.

        Examples
        --------
        >>> Game(rows=[[3, 2, 2, 3, 1, 2]]).profits()
        Profits(first=8, second=5)
        """
        if "profits" not in self._cache:
            kernel = "forest_profits" if self._forest is not None else "game_profits"
            self._cache["profits"] = Profits(*run(self._coins, kernel, *self._arguments(),
                                                  answer=Answer.PROFITS))
        cached: Profits = self._cache["profits"]
        return cached

    # -- moves -----------------------------------------------------------------------------

    def _where(self) -> Position:
        """The position with every bound as int64 buffers: O(k) the first time."""
        return Position(self._coins, *self._bounds.arrays(), self._forest)

    def _view(self) -> Position:
        """The position as the move protocol reads it: O(1) to make, O(log k) a bound."""
        bounds = self._bounds
        return Position(self._coins, Starts(bounds), Stops(bounds), self._forest)

    def _ensure_line(self) -> _Line:
        if self._line is None:
            n = len(self)
            components = array("q", bytes(8 * n))
            flat = array("q", bytes(8 * n))
            ends = array("B", bytes(n))
            kernel = "forest_play" if self._forest is not None else "game_play"
            run(self._coins, kernel, *self._arguments(), components, flat, ends,
                answer=Answer.PLAY)
            self._line = _Line(components, flat, ends)
            self._turn = 0
        return self._line

    def best_move(self) -> Move:
        """An optimal move: the next move of this position's optimal line.

        O(1) when the position was reached along the line (``take`` of the moves
        ``best_move`` gave, from a position that computed its line); otherwise the line is
        computed first, O(n log k) (O(n log n) with a forest), once for the positions along
        it.

        Returns
        -------
        Move
            The move, as ``take`` accepts it.

        Raises
        ------
        ValueError
            If the game is over (no coin is left).

        Examples
        --------
        >>> Game(rows=[[1, 2, 1000, 3, 4, 900]]).best_move()
        Move(kind='row', index=0, end='right', position=5, coin=900)
        """
        line = self._ensure_line()
        t = self._turn
        if t >= len(line.coins):
            raise ValueError("the game is over: no coin is left")
        return move_at(self._coins, line.components[t], line.coins[t], line.ends[t])

    def play(self) -> list[Move]:
        """A whole optimal play from this position: every move optimal where it is made.

        O(n log k) time and O(n) memory (O(n) for one row; O(n log n) with a forest).

        Returns
        -------
        list of Move
            One move a turn, the player to move first; empty for an empty game.

        Examples
        --------
        >>> [m.coin for m in Game(rows=[[3, 2, 2, 3, 1, 2]]).play()]
        [3, 2, 2, 2, 3, 1]
        """
        line = self._ensure_line()
        coins = self._coins
        return [
            move_at(coins, line.components[t], line.coins[t], line.ends[t])
            for t in range(self._turn, len(line.coins))
        ]

    def moves(self) -> list[Move]:
        """The legal moves: both ends of every non-empty row, the top of every stack, every
        root of the forest.

        O(k) for k rows and stacks (O(n) with a forest).

        Returns
        -------
        list of Move
            Rows first (a row's left end before its right), then stacks, then the roots;
            empty when the game is over.
        """
        return moves(self._where())

    def move_values(self) -> list[tuple[Move, Number]]:
        """Every legal move with its worth to the player to move: the coin it takes minus
        the value of the position after it.

        The largest worth is ``value()`` (floats: up to the rounding of the kernels' float
        value), and the optimal moves are those that reach it; a move's worth minus
        ``value()`` is what it gives away.

        Returns
        -------
        list of (Move, number)
            In ``moves()`` order; empty when the game is over. Exact for ints,
            ``Fraction`` and ``Decimal``; for floats each worth is the exact worth of the
            float coins, rounded once.

        Cost: O(n log n) for n coins in rows and stacks, however many moves there are (each
        component reduced again without each of its end coins, O(log n) for each reduced
        value a move changes; not a game solved per move). With a forest, the position
        after each root's move is solved, O(n log n) a move. With one component left (a
        row: two moves), of int64 coins, the compiled kernel values the position after each
        move, O(n) each.

        Examples
        --------
        >>> Game(rows=[[1, 2, 1000, 3, 4, 900]]).move_values()
        [(Move(kind='row', index=0, end='left', position=0, coin=1), 100), \
(Move(kind='row', index=0, end='right', position=5, coin=900), 1892)]
        """
        where = self._where()
        if where.coins.kind == FLOAT64:
            # A float forest's values after its moves are the kernels' float sums, which may
            # lose small coins beside huge ones; the worths are promised exact, rounded once.
            return move_values(where, self.moves(),
                               lambda m: _of_fractions(self.take(m)).value())
        return move_values(where, self.moves(), lambda m: self.take(m).value())

    def take(self, move: Move | Sequence[Any]) -> Game:
        """The position after ``move`` (a legal ``Move``): O(log k) for k rows and stacks.

        The new position shares the coins and all but O(log k) of the components' bounds
        with this one (a persistent array, docs/positions.md), so every position stays
        valid. Along the optimal line (the move ``best_move()`` gives) the next position
        keeps the line: a whole self-play through ``best_move()``/``take()`` costs
        O(n log k). A move off the line costs O(log k) too; the next ``best_move()`` there
        computes a new line. A forest's move off the line costs O(n).

        Parameters
        ----------
        move : Move, or "left" / "right"
            A legal move of this position: a ``Move`` (as ``moves()`` or ``best_move()``
            give it), or ``"left"``/``"right"`` in a game of one row.

        Returns
        -------
        Game
            The position after the move; this one is unchanged.

        Raises
        ------
        ValueError
            If the move is not legal here (the message says why).

        Examples
        --------
        >>> g = Game(rows=[[1, 2, 3]])
        >>> g.take(g.best_move()).rows
        ((1, 2),)
        """
        line, t = self._line, self._turn
        if line is not None and t < len(line.coins):
            expected = move_at(self._coins, line.components[t], line.coins[t], line.ends[t])
            # The line's own move, as it names it (a bool index or a float position, equal
            # to it, is for resolve to judge).
            if (move.__class__ is Move and move[1].__class__ is int
                    and move[3].__class__ is int and move == expected):
                return self._after(line.components[t], line.coins[t], line.ends[t], line, t)
        try:
            component, flat, end, _ = resolve(move, self._view())
        except MoveError as error:
            raise ValueError(str(error)) from None
        if line is not None and t < len(line.coins) and line.components[t] == component \
                and line.coins[t] == flat:
            return self._after(component, flat, end, line, t)
        return self._after(component, flat, end, None, 0)

    def _after(self, component: int, flat: int, end: int, line: _Line | None,
               t: int) -> Game:
        """The position after taking coin ``flat`` of ``component``; ``line`` (at turn t)
        is kept when the move follows it. O(log k) (a forest's move off the line: O(n))."""
        forest = self._forest
        bounds = self._bounds
        if component == len(bounds):
            assert forest is not None
            node = flat - forest.base
            state = forest.along(line, t) if line is not None else forest.without(node)
            return Game._position(self._coins, bounds, self._left, line,
                                  t + 1 if line is not None else 0, state)
        if forest is not None and line is not None:
            forest = forest.passing(line, t)
        return Game._position(self._coins, bounds.taken(component, end != End.RIGHT),
                              self._left - 1, line, t + 1 if line is not None else 0, forest)

    def to_html(self) -> str:
        """A self-contained web page (one HTML string: inline SVG, a style sheet and a little
        JavaScript, nothing loaded from elsewhere, works offline) of this position and an
        optimal play from it: buttons step forward and back or play the whole optimal play,
        with the running totals and the value of every position. The address may name a step
        (``page.html#step=3``, ``#end``, ``#play``).

        Games of more than 5000 coins get a summary page instead: their size, the profits,
        the value and the first 20 moves of the optimal play, without the picture. O(n log k)
        (O(n log n) with a forest).

        Returns
        -------
        str
            The page, starting with ``<!DOCTYPE html>``.

        Examples
        --------
        >>> page = Game(rows=[[3, 2, 2, 3, 1, 2]]).to_html()
        >>> page.startswith("<!DOCTYPE html>"), "<script src" in page
        (True, False)
        """
        from ._html import game_html

        return game_html(self)

    def _repr_svg_(self) -> str | None:
        """The position and its optimal play as an SVG picture (shown by Jupyter)."""
        if len(self) > _SVG_MAX_COINS:
            return None  # one element per coin: a huge picture would freeze the notebook
        from ._svg import game_svg

        return game_svg(self)


refuse_as_row(Game)  # a Game given to a one-row function: "call its methods instead"


def _unpickle_game(rows: Sequence[Any], stacks: Sequence[Any], forest: Any,
                   starts: Sequence[int], stops: Sequence[int], removed: bytes | None) -> Game:
    """The position ``Game.__reduce__`` describes: the original game, then the bounds, both
    checked (a corrupt pickle is a ``TypeError``/``ValueError`` here, as a bad game is)."""
    game = Game(rows=rows, stacks=stacks, forest=forest)
    starts, stops = pickled_bounds("Game", game._coins.names, *game._bounds.arrays(), starts,
                                   stops)
    bounds = Bounds(array("q", starts), array("q", stops))
    left = sum(stops) - sum(starts)
    state = game._forest
    if removed is not None:
        if state is None:
            raise ValueError("the pickled Game does not match its coins: removed nodes, but "
                             "no forest")
        state = state.without_nodes(removed)
    return Game._position(game._coins, bounds, left, None, 0, state)


def where(game: Game) -> Position:
    """The position of a game, as the move protocol and the engine read it."""
    return game._where()


def legal(game: Game, move: Any) -> Move:
    """``move`` as the position of ``game`` names it, if it is legal there (else
    ``MoveError``): the move protocol's ``resolve`` on the position's bounds, O(log k)."""
    return resolve(move, game._view())[3]


_new_tuple: Callable[[type[Move], tuple], Move] = cast(Any, tuple.__new__)


def play_moves(game: Game) -> Iterator[Move]:
    """The moves of ``game.play()`` one at a time, never all in memory: the line is computed
    once (O(n log k), 17 bytes a coin), then each ``Move`` is made when it is read (O(1)),
    as ``move_at`` makes it, with the fields that depend only on the component and the end
    made once (a long play is read at about a microsecond a move)."""
    line = game._ensure_line()
    coins = game._coins
    data, components, flat, ends = coins.data, line.components, line.coins, line.ends
    fields: dict[int, tuple[str, int, str, int]] = {}  # 4 * component + end: kind, index...
    turn, root = game._turn, int(End.ROOT)
    for c, f, e in zip(islice(components, turn, None), islice(flat, turn, None),
                       islice(ends, turn, None)):
        if e == root:
            yield move_at(coins, c, f, e)
            continue
        known = fields.get(4 * c + e)
        if known is None:
            first = move_at(coins, c, coins.bases[c], e)
            known = fields[4 * c + e] = (first.kind, first.index, first.end, coins.bases[c])
        yield _new_tuple(Move, (known[0], known[1], known[2], f - known[3], data[f]))


def game_at(position: Position) -> Game:
    """A ``Game`` of a position (sharing its storage): O(k); its forest part, if any, is a
    ``ForestState``."""
    starts, stops = array("q", position.starts), array("q", position.stops)
    return Game._position(position.coins, Bounds(starts, stops), sum(stops) - sum(starts),
                          None, 0, position.forest)


__all__ += ["game_at", "legal", "play_moves", "where"]


def _of_fractions(game: Game) -> Game:
    """The same position with every float coin as the Fraction of its exact value. O(n)."""
    forest = game.forest
    return Game(rows=[[Fraction(x) for x in r] for r in game.rows],
                stacks=[[Fraction(x) for x in s] for s in game.stacks],
                forest=None if forest is None else ([Fraction(x) for x in forest[0]], forest[1]))
