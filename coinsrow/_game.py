"""The game: values, profits and optimal play for rows, stacks and forests.

A position is one flat storage of all the coins of the game it started from (``Coins``), and
for each component (rows first, then stacks) the range ``[start, stop)`` of the coins still
on the table, plus the forest's nodes still there. Taking a coin only moves a bound, so a new
position shares the coins. Every answer is computed by a kernel through ``_dispatch.run``.
"""

from __future__ import annotations

import numbers
from array import array
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence, Set
from decimal import Decimal
from itertools import islice
from typing import Any, NamedTuple, cast

from ._coins import FLOAT64, Column, column, describe
from ._dispatch import Answer, Coins, Number, run, span, storage
from ._forest import ForestState, parse_forest
from ._moves import End, Move, MoveError, Position, move_at, moves, resolve
from ._text import Repr

__all__ = ["Game", "Move", "Number", "Profits", "best_move", "play", "profits", "value"]

_SVG_MAX_COINS = 5000


class Profits(NamedTuple):
    """What each player collects: ``first`` is the player to move."""

    first: Number
    second: Number


class _Line:
    """An optimal play of a position, as computed once: shared by the positions along it.

    Turn t takes the coin at flat index ``coins[t]`` of component ``components[t]`` from
    end ``ends[t]`` (the forest is the component after the rows and stacks).
    """

    __slots__ = ("components", "coins", "ends")

    def __init__(self, components: Sequence[int], coins: Sequence[int], ends: Sequence[int]):
        self.components = components
        self.coins = coins
        self.ends = ends


def _columns(rows: Iterable[Any], stacks: Iterable[Any]) -> tuple[list[Column], int]:
    """The rows' and the stacks' columns (rows first) and the number of rows."""
    columns: list[Column] = []
    n_rows = 0
    for label, group in (("row", rows), ("stack", stacks)):
        if (isinstance(group, (str, bytes, Set, Mapping))
                or not isinstance(group, Iterable)):
            raise TypeError(
                f"{label}s must be a sequence of {label}s, got {type(group).__name__}"
            )
        try:
            group = list(group)
        except NotImplementedError:  # a multi-dimensional memoryview cannot be iterated
            raise TypeError(
                f"{label}s must be a sequence of {label}s, got {type(group).__name__}"
            ) from None
        for i, component in enumerate(group):
            if isinstance(component, (numbers.Number, Decimal)):
                raise TypeError(
                    f"{label}s[{i}] is {describe(component)}, not a "
                    f"{label}; {label}s= takes a sequence of {label}s, e.g. {label}s=[[3, 1, 2]]"
                )
            columns.append(column(component, f"{label} {i}"))
        if label == "row":
            n_rows = len(columns)
    return columns, n_rows


def _names(n_rows: int, k: int) -> list[str]:
    return [f"row {c}" if c < n_rows else f"stack {c - n_rows}" for c in range(k)]


class Game:
    """A position of the coins-in-a-row game family: rows, stacks and rooted trees of coins.

    Two players alternately take one coin: from either end of a row, or from the top of a
    stack (``stack[0]`` is the top). ``Game`` is immutable and hashable; it pickles (as its
    rows, stacks and forest), and a copy is the game itself.

    ``value()`` and ``profits()`` cost O(n log k) for n coins in k rows and stacks (O(n) for
    one row), with Idziaszek's Fusion, Fruitless and Greedy principles.

    >>> g = Game(rows=[[3, 2, 2, 3, 1, 2]], stacks=[[1, 5]])
    >>> g.value(), g.profits(), len(g)
    (-1, Profits(first=9, second=10), 8)

    ``forest=(values, parents)`` adds a forest of rooted trees: node i holds ``values[i]``
    below node ``parents[i]`` (``-1`` for a root), and a move takes a root. With a forest,
    ``value()``, ``profits()`` and ``play()`` cost O(n log n) (block merging).

    >>> Game(forest=([1, 5, 3, 2, 4], [-1, 0, 0, 1, 1])).value()
    -1
    """

    __slots__ = ("_coins", "_starts", "_stops", "_line", "_turn", "_cache", "_forest",
                 "__weakref__")

    def __init__(self, rows: Iterable[Any] = (), stacks: Iterable[Any] = (),
                 forest: Any = None) -> None:
        forest_values, parents = parse_forest(forest) if forest is not None else (None, None)
        columns, n_rows = _columns(rows, stacks)
        coins = storage(columns, n_rows, _names(n_rows, len(columns)), forest_values)
        if coins.kind == FLOAT64:
            # NaN or an infinity makes a Game invalid from the start, in a forest too.
            run(coins, "check_finite", answer=Answer.PLAY)
        state = None
        if parents is not None:
            state = ForestState.initial(cast(int, coins.forest_base), parents, len(columns))
        starts = array("q", coins.bases)
        stops = array("q", [b + n for b, n in zip(coins.bases, coins.lengths)])
        self._init(coins, starts, stops, None, 0, state)

    def _init(self, coins: Coins, starts: array[int], stops: array[int], line: _Line | None,
              turn: int, forest: ForestState | None = None) -> None:
        self._coins = coins
        self._starts = starts
        self._stops = stops
        self._line = line
        self._turn = turn
        self._cache: dict[str, Any] = {}
        self._forest = forest

    @classmethod
    def _position(cls, coins: Coins, starts: array, stops: array, line: _Line | None,
                  turn: int, forest: ForestState | None = None) -> Game:
        game = cls.__new__(cls)
        game._init(coins, starts, stops, line, turn, forest)
        return game

    # -- what is on the table -------------------------------------------------------------

    def __len__(self) -> int:
        forest = 0 if self._forest is None else self._forest.left
        return forest + sum(self._stops[c] - self._starts[c] for c in range(len(self._starts)))

    def _components(self, first: int, last: int) -> tuple[tuple, ...]:
        data = self._coins.objects()
        return tuple(tuple(data[self._starts[c]:self._stops[c]]) for c in range(first, last))

    @property
    def rows(self) -> tuple[tuple, ...]:
        """The rows still on the table, as tuples of coins."""
        return self._components(0, self._coins.n_rows)

    @property
    def stacks(self) -> tuple[tuple, ...]:
        """The stacks still on the table, top first, as tuples of coins."""
        return self._components(self._coins.n_rows, len(self._starts))

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
        """Pickled as its rows, stacks and forest (``Game(rows=g.rows, stacks=g.stacks,
        forest=g.forest)``): an equal game, whose moves count positions from its first coins
        left (as that call's game does). O(n)."""
        return Game, (self.rows, self.stacks, self.forest)

    # -- solving ---------------------------------------------------------------------------

    def _arguments(self) -> tuple:
        """The kernels' arguments for this position (after the coins)."""
        args: tuple = (self._starts, self._stops, self._coins.n_rows)
        forest = self._forest
        if forest is not None:
            args += (forest.base, forest.parents, forest.removed())
        return args

    def _kernel(self, name: str) -> str:
        return ("forest_" if self._forest is not None else "game_") + name

    def value(self) -> Number:
        """Own total minus the opponent's, for the player to move, both playing optimally.

        O(n log k); O(n) for one row. ``0`` for an empty game.

        >>> Game(rows=[[1, 2, 1000, 3, 4, 900]]).value()
        1892
        """
        if "value" not in self._cache:
            self._cache["value"] = run(self._coins, self._kernel("value"), *self._arguments())
        cached: Number = self._cache["value"]
        return cached

    def profits(self) -> Profits:
        """``Profits(first, second)``: what the player to move and the other one collect.

        Exact numbers: ``first + second`` is the sum of the coins and ``first - second`` the
        value. Floats: each player's coins of the optimal play, summed exactly and rounded
        once (``math.fsum`` of them).

        >>> Game(rows=[[3, 2, 2, 3, 1, 2]]).profits()
        Profits(first=8, second=5)
        """
        if "profits" not in self._cache:
            self._cache["profits"] = Profits(*run(self._coins, self._kernel("profits"),
                                                  *self._arguments(), answer=Answer.PROFITS))
        cached: Profits = self._cache["profits"]
        return cached

    # -- moves -----------------------------------------------------------------------------

    def _where(self) -> Position:
        return Position(self._coins, self._starts, self._stops, self._forest)

    def _ensure_line(self) -> _Line:
        if self._line is None:
            n = len(self)
            components = array("q", bytes(8 * n))
            flat = array("q", bytes(8 * n))
            ends = array("B", bytes(n))
            run(self._coins, self._kernel("play"), *self._arguments(), components, flat, ends,
                answer=Answer.PLAY)
            self._line = _Line(components, flat, ends)
            self._turn = 0
        return self._line

    def best_move(self) -> Move:
        """An optimal move: the next move of this position's optimal line.

        O(1) when the position was reached along the line; O(n log k) otherwise.
        ``ValueError`` for an empty game.

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

        O(n log k) time and O(n) memory (O(n) for one row).

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
        root of the forest (O(n) with a forest)."""
        return moves(self._where())

    def take(self, move: Move | Sequence[Any]) -> Game:
        """The position after ``move`` (a legal ``Move``): O(k), the coins are shared.

        Along the optimal line (the move ``best_move()`` gives) the next position keeps the
        line, so that a whole self-play costs O(n log k); a forest move off the line costs
        O(n). ``ValueError`` if the move is not legal here.

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
            component, flat, end, _ = resolve(move, self._where())
        except MoveError as error:
            raise ValueError(str(error)) from None
        if line is not None and t < len(line.coins) and line.components[t] == component \
                and line.coins[t] == flat:
            return self._after(component, flat, end, line, t)
        return self._after(component, flat, end, None, 0)

    def _after(self, component: int, flat: int, end: int, line: _Line | None,
               t: int) -> Game:
        """The position after taking coin ``flat`` of ``component``; ``line`` (at turn t)
        is kept when the move follows it."""
        forest = self._forest
        if component == len(self._starts):
            assert forest is not None
            node = flat - forest.base
            state = forest.along(line, t) if line is not None else forest.without(node)
            return Game._position(self._coins, self._starts, self._stops, line,
                                  t + 1 if line is not None else 0, state)
        starts, stops = array("q", self._starts), array("q", self._stops)
        if end == End.RIGHT:
            stops[component] -= 1
        else:
            starts[component] += 1
        if forest is not None and line is not None:
            forest = forest.passing(line, t)
        return Game._position(self._coins, starts, stops, line,
                              t + 1 if line is not None else 0, forest)

    def _repr_svg_(self) -> str | None:
        """The position and its optimal play as an SVG picture (shown by Jupyter)."""
        if len(self) > _SVG_MAX_COINS:
            return None  # one element per coin: a huge picture would freeze the notebook
        from ._svg import game_svg

        return game_svg(self)


# -- one row ------------------------------------------------------------------------------


def row_coins(row: Any, name: str = "row") -> Coins:
    """The storage of one row for the one-row functions (a buffer is read where it is)."""
    if isinstance(row, Game):
        raise TypeError("expected a row of coins, got a Game; call its methods instead")
    col = column(row, name)
    return storage([col], 1, [name], copy=False, where=name)


def value(row: Any) -> Number:
    """The advantage of the player to move on one row, both playing optimally.

    Own total minus the opponent's; ``0`` for an empty row. Exact: ints give an ``int``
    (int64 overflow is redone on Python ints), floats a ``float``, ``Fraction``/``Decimal``
    their own type. A float overflow on the way is redone exactly on Fractions and rounded
    once: the answer is ``+-inf`` only when the exact value itself is beyond the float range
    (IEEE 754 rounding), and never NaN. O(n) time, at most one machine number of extra
    memory per coin; a contiguous int64/float64 buffer (NumPy array, ``array.array``) is
    read without a copy.

    >>> value([3, 2, 2, 3, 1, 2])
    3
    """
    coins = row_coins(row)
    answer: Number = run(coins, "game_value", *span(0, len(coins)), 1)
    return answer


def profits(row: Any) -> Profits:
    """``Profits(first, second)`` on one row. O(n).

    Exact numbers: ``first + second == sum(row)`` and ``first - second == value(row)``.
    Floats: each player's coins of the optimal play, summed exactly and rounded once, so
    ``profits([0.1, 0.2]) == (0.2, 0.1)``.

    >>> profits([3, 2, 2, 3, 1, 2])
    Profits(first=8, second=5)
    """
    coins = row_coins(row)
    return Profits(*run(coins, "game_profits", *span(0, len(coins)), 1,
                        answer=Answer.PROFITS))


def best_move(row: Any) -> str:
    """``"left"`` or ``"right"``: an optimal first move on one row, by the library's one
    tie rule (the first move of ``play(row)``, which ``Game.best_move`` and
    ``Engine.best_move`` also make: the end whose end block of the reduced row is larger,
    the left one on ties; docs/algorithm.md). O(n). ``ValueError`` for an empty row.

    >>> best_move([1, 2, 1000, 3, 4, 900])
    'right'
    """
    coins = row_coins(row)
    n = len(coins)
    if n == 0:
        raise ValueError("the row is empty: there is no move")
    line = _row_line(coins)
    return "left" if line.ends[0] == End.LEFT else "right"


def _row_line(coins: Coins) -> _Line:
    n = len(coins)
    components = array("q", bytes(8 * n))
    flat = array("q", bytes(8 * n))
    ends = array("B", bytes(n))
    run(coins, "game_play", *span(0, n), 1, components, flat, ends, answer=Answer.PLAY)
    return _Line(components, flat, ends)


def play(row: Any) -> array:
    """A whole optimal play of one row: ``array('q')`` of coin indices, turn by turn.

    Entry t is the index in ``row`` of the coin taken at turn t; the first player moves at
    even t. Every move is optimal at the position where it is made. O(n) time and memory:
    the greedy play of the reduced row, each fused run of coins taken whole from the end
    where it is exposed.

    >>> list(play([3, 2, 2, 3, 1, 2]))
    [0, 1, 5, 2, 3, 4]
    """
    return cast(array, _row_line(row_coins(row)).coins)


def where(game: Game) -> Position:
    """The position of a game, as the move protocol and the engine read it."""
    return game._where()


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
    """A ``Game`` of a position of rows and stacks (sharing its storage): O(k)."""
    return Game._position(position.coins, array("q", position.starts),
                          array("q", position.stops), None, 0)


__all__ += ["game_at", "play_moves", "row_coins", "where"]
