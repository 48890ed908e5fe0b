"""The game: values, profits and optimal play for rows, stacks and forests.

A position is one flat storage of all the coins of the game it started from (``Coins``), and
for each component (rows first, then stacks) the range ``[start, stop)`` of the coins still
on the table, plus the forest's nodes still there. Taking a coin only moves a bound, so a new
position shares the coins. Every answer is computed by a kernel through ``_dispatch.run``.
"""

from __future__ import annotations

import numbers
import sys
from array import array
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence, Set
from decimal import Decimal
from fractions import Fraction
from itertools import islice
from types import GenericAlias
from typing import (
    TYPE_CHECKING,
    Any,
    Generic,
    Literal,
    NamedTuple,
    Protocol,
    SupportsFloat,
    SupportsIndex,
    TypeVar,
    cast,
    overload,
)

from . import _core
from ._arrow import (
    first_null_coin,
    first_null_list,
    is_arrow,
    is_list_type,
    list_chunks,
    values_view,
)
from ._bounds import Bounds, Starts, Stops
from ._coins import FLOAT64, INT64, OBJECTS, Column, column, describe
from ._dispatch import Answer, Coins, Number, run, span, storage
from ._forest import ForestState, parse_forest
from ._moves import End, Move, MoveError, Position, move_at, moves, resolve
from ._text import Repr
from ._threads import row_split

__all__ = ["Game", "Move", "Number", "Profits", "best_move", "play", "profits", "value"]

_SVG_MAX_COINS = 5000


NumberT = TypeVar("NumberT", bound=Number)

_PROFITS_DOC = """What each player collects: ``first`` is the player to move.

    ``Profits[int]`` for a row of ints (``Profits[float]``, ``Profits[Fraction]``,
    ``Profits[Decimal]`` likewise), so that ``p.first + p.second`` type-checks.
    """

if TYPE_CHECKING or sys.version_info >= (3, 11):
    class Profits(NamedTuple, Generic[NumberT]):
        first: NumberT
        second: NumberT
else:  # a NamedTuple can be generic from Python 3.11 on; Profits[int] works here too
    class Profits(NamedTuple):
        first: Any
        second: Any

    Profits.__class_getitem__ = classmethod(GenericAlias)
Profits.__doc__ = _PROFITS_DOC


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


def _group(label: str, group: Any) -> list:
    """The components of ``rows=`` or ``stacks=`` as a list (not yet checked one by one)."""
    if group.__class__ is list or group.__class__ is tuple:
        return list(group)  # the common case, without the checks of abstract types below
    if isinstance(group, (str, bytes, Set, Mapping)) or not isinstance(group, Iterable):
        raise TypeError(f"{label}s must be a sequence of {label}s, got {type(group).__name__}")
    try:
        return list(group)
    except NotImplementedError:  # a multi-dimensional memoryview cannot be iterated
        raise TypeError(
            f"{label}s must be a sequence of {label}s, got {type(group).__name__}"
        ) from None
    except OverflowError:  # e.g. range(10**20): more components than a list can hold
        raise ValueError(f"{label}s is {describe(group)}; it has too many {label}s") from None


def _column(label: str, i: int, component: Any) -> Column:
    """Component i of ``rows=`` or ``stacks=``, normalised (the one-by-one path, whose
    errors name the component and the coin)."""
    if isinstance(component, (numbers.Number, Decimal)):
        raise TypeError(
            f"{label}s[{i}] is {describe(component)}, not a "
            f"{label}; {label}s= takes a sequence of {label}s, e.g. {label}s=[[3, 1, 2]]"
        )
    return column(component, f"{label} {i}")


def _columns(rows: list, stacks: list) -> list[Column]:
    """The rows' and the stacks' columns (rows first), one component at a time."""
    return ([_column("row", i, r) for i, r in enumerate(rows)]
            + [_column("stack", i, s) for i, s in enumerate(stacks)])


class _Names(Sequence[str]):
    """The components' names for error messages ("row 3", "stack 0"), made when asked."""

    __slots__ = ("_k", "_n_rows")

    def __init__(self, n_rows: int, k: int) -> None:
        self._n_rows = n_rows
        self._k = k

    def __len__(self) -> int:
        return self._k

    def __getitem__(self, c: Any) -> Any:
        if isinstance(c, slice):
            return [self[i] for i in range(*c.indices(self._k))]
        if not 0 <= c < self._k:
            raise IndexError(c)
        return f"row {c}" if c < self._n_rows else f"stack {c - self._n_rows}"


class _Lengths(Sequence[int]):
    """The components' lengths, from their offsets (Arrow's list layout)."""

    __slots__ = ("_offsets",)

    def __init__(self, offsets: Any) -> None:
        self._offsets = offsets

    def __len__(self) -> int:
        return len(self._offsets) - 1

    def __getitem__(self, c: Any) -> Any:
        if isinstance(c, slice):
            return [self[i] for i in range(*c.indices(len(self)))]
        if not 0 <= c < len(self):
            raise IndexError(c)
        return int(self._offsets[c + 1] - self._offsets[c])


def _buffer_types() -> tuple[type, ...]:
    """The buffer types the packing kernel reads (their format is checked there)."""
    numpy = sys.modules.get("numpy")
    return (array, memoryview) if numpy is None else (array, memoryview, numpy.ndarray)


class _Layout(NamedTuple):
    """The coins of a new game and where each component is in them."""

    coins: Coins
    starts: Any
    stops: Any
    coins_in_components: int


def _layout(rows: Any, stacks: Any, forest: Column | None) -> _Layout:
    """The storage of a new game: the coins of its rows, stacks and forest in one buffer.

    The common inputs (lists of ints or floats, NumPy arrays and other numeric buffers,
    Arrow list arrays) are packed by one compiled pass, ``pack_components``; a component it
    does not take (exact numbers, other types) is normalised on its own by ``column``, whose
    errors name it, and when some component needs exact numbers the whole game is stored as
    ``storage`` stores it. O(n + k) compiled, plus O(1) Python per component the kernel
    does not take. A single Arrow list array of int64 or float64 coins (rows alone, or
    stacks alone) is read where it is, without a copy.
    """
    row_items, n_rows = _items("row", rows)
    try:
        stack_items, n_stacks = _items("stack", stacks)
    except Exception:
        _columns(_expanded(row_items), [])  # the rows' errors come first
        raise
    k = n_rows + n_stacks
    names = _Names(n_rows, k)
    if forest is None and len(row_items) + len(stack_items) == 1:
        single = (row_items or stack_items)[0]
        if isinstance(single, _core.PackSpan):
            shared = _shared_span(single, n_rows, names)
            if shared is not None:
                return shared
    items = row_items + stack_items
    if forest is not None:
        if forest.kind == OBJECTS:
            return _stored(row_items, stack_items, forest)
        items.append(forest.data)
    status, payload = _core.pack_components(items, _buffer_types())
    if status == _core.Packing.PACK_ELSEWHERE:
        if any(isinstance(item, _core.PackSpan) for item in row_items + stack_items):
            return _stored(row_items, stack_items, forest)
        marks = payload
        i = marks.find(1)
        while i >= 0:
            label, index = ("row", i) if i < len(row_items) else ("stack", i - len(row_items))
            if label == "stack" and index >= len(stack_items):
                return _stored(row_items, stack_items, forest)  # the forest's values
            col = _column(label, index, items[i])
            if col.kind == OBJECTS:
                return _stored(row_items, stack_items, forest)
            items[i] = col.data
            i = marks.find(1, i + 1)
        status, payload = _core.pack_components(items, _buffer_types())
        if status != _core.Packing.PACKED:  # pragma: no cover - a list changed meanwhile
            return _stored(row_items, stack_items, forest)
    data, offsets = payload
    kind = FLOAT64 if data.format == "d" else INT64
    bounds = memoryview(offsets)
    coins = Coins(kind, int, data, bounds[:k], _Lengths(bounds[:k + 1]), n_rows, names,
                  None if forest is None else offsets[k])
    return _Layout(coins, bounds[:k], bounds[1:k + 1], offsets[k])


def _items(label: str, group: Any) -> tuple[list, int]:
    """The items to pack of ``rows=`` or ``stacks=`` and their number of components."""
    if not is_arrow(group):
        items = _group(label, group)
        return items, len(items)
    items = _arrow_items(label, group)
    count = 0
    for item in items:
        count += len(item.offsets) - 1 if isinstance(item, _core.PackSpan) else 1
    return items, count


def _stored(row_items: list, stack_items: list, forest: Column | None) -> _Layout:
    """The one-by-one path: every component normalised by ``column``, then ``storage``."""
    rows = _expanded(row_items)
    stacks = _expanded(stack_items)
    columns = _columns(rows, stacks)
    coins = storage(columns, len(rows), _Names(len(rows), len(columns)), forest)
    starts = array("q", coins.bases)
    stops = array("q", [b + n for b, n in zip(coins.bases, coins.lengths)])
    return _Layout(coins, starts, stops, sum(coins.lengths))


def _expanded(items: list) -> list:
    """The components of a group, Arrow spans as one list of Python numbers each."""
    components: list = []
    for item in items:
        if isinstance(item, _core.PackSpan):
            values = memoryview(item.values).tolist()
            offsets = memoryview(item.offsets)
            components += [values[offsets[j]:offsets[j + 1]] for j in range(len(offsets) - 1)]
        else:
            components.append(item)
    return components


def _shared_span(span: Any, n_rows: int, names: Sequence[str]) -> _Layout | None:
    """A game that is one Arrow list array of int64 or float64 coins, without a copy: its
    coins are read in the Arrow buffer, its offsets widened to int64 (O(k))."""
    values, offsets = memoryview(span.values), memoryview(span.offsets)
    if values.format not in ("q", "d"):
        return None
    first, last = offsets[0], offsets[len(offsets) - 1]
    if first != 0:
        return None  # a sliced array: packed, so that no coin outside the games is kept
    if offsets.format != "q":
        widened = array("q", bytes(8 * len(offsets)))
        _core.batch_check_offsets(offsets, last, widened)  # checked valid: widened only
        offsets = memoryview(widened)
    k = len(offsets) - 1
    data = values[:last]
    coins = Coins(FLOAT64 if values.format == "d" else INT64, int, data, offsets[:k],
                  _Lengths(offsets), n_rows, names)
    return _Layout(coins, offsets[:k], offsets[1:], last)


def _arrow_items(label: str, group: Any) -> list:
    """An Arrow list array (a ChunkedArray of them, a LargeList, a FixedSizeList) of rows or
    stacks: one ``PackSpan`` per chunk, reading its buffers where they are; lists of Python
    numbers for value types the kernels do not read (decimals, ...). ``ValueError`` for a
    null component or a null coin, naming it."""
    if not is_list_type(group.type):
        raise TypeError(f"{label}s is an Arrow array of {group.type}, not of lists: give an "
                        f"Arrow list array, one list of coins per {label}")
    items: list = []
    for chunk in list_chunks(group):
        null_list = first_null_list(chunk)
        if null_list is not None:
            raise ValueError(f"{label}s[{null_list}] is null, not a {label}")
        offsets = chunk.offsets
        problem, _ = _core.batch_check_offsets(offsets, len(chunk.values), array("q"))
        if problem != _core.OffsetsProblem.OFFSETS_OK:
            raise ValueError(f"{label}s is an Arrow list array with invalid offsets")
        null_coin = first_null_coin(chunk.values, offsets)
        if null_coin is not None:
            j, index = null_coin
            raise ValueError(f"{label} {chunk.first + j}: coin at index {index} is "
                             "null; coins must be numbers")
        view = values_view(chunk.values)
        if view is None:
            lo, hi = offsets[0], offsets[len(offsets) - 1]
            python = chunk.values.slice(lo, hi - lo).to_pylist()
            items += [python[offsets[j] - lo:offsets[j + 1] - lo]
                      for j in range(len(offsets) - 1)]
        else:
            items.append(_core.PackSpan(view, offsets))
    return items


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
    ``Fraction``, ``Decimal``) are normalised one by one in Python. docs/positions.md.

    ``value()`` and ``profits()`` cost O(n log k) for n coins in k rows and stacks (O(n) for
    one row), with Idziaszek's Fusion, Fruitless and Greedy principles. ``take()`` costs
    O(log k) (the positions share the coins and all but O(log k) of the components' bounds),
    ``len()`` O(1), and a whole self-play through ``best_move()``/``take()`` O(n log k).

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
        "_turn",
    )

    def __init__(self, rows: Iterable[Any] = (), stacks: Iterable[Any] = (),
                 forest: Any = None) -> None:
        forest_values, parents = parse_forest(forest) if forest is not None else (None, None)
        layout = _layout(rows, stacks, forest_values)
        coins = layout.coins
        if coins.kind == FLOAT64:
            # NaN or an infinity makes a Game invalid from the start, in a forest too.
            run(coins, "check_finite", answer=Answer.PLAY)
        state = None
        if parents is not None:
            state = ForestState.initial(cast(int, coins.forest_base), parents,
                                        len(layout.starts))
        self._init(coins, Bounds(layout.starts, layout.stops), layout.coins_in_components,
                   None, 0, state)

    def _init(self, coins: Coins, bounds: Bounds, left: int, line: _Line | None, turn: int,
              forest: ForestState | None = None) -> None:
        self._coins = coins
        self._bounds = bounds
        self._left = left  # coins left in the rows and stacks
        self._line = line
        self._turn = turn
        self._cache: dict[str, Any] = {}
        self._forest = forest

    @classmethod
    def _position(cls, coins: Coins, bounds: Bounds, left: int, line: _Line | None,
                  turn: int, forest: ForestState | None = None) -> Game:
        game = cls.__new__(cls)
        game._init(coins, bounds, left, line, turn, forest)
        return game

    # -- what is on the table -------------------------------------------------------------

    def __len__(self) -> int:
        """The number of coins left. O(1)."""
        forest = self._forest
        return self._left if forest is None else self._left + forest.left

    def _components(self, first: int, last: int) -> tuple[tuple, ...]:
        data = self._coins.objects()
        starts, stops = self._bounds.arrays()
        return tuple(tuple(data[starts[c]:stops[c]]) for c in range(first, last))

    @property
    def rows(self) -> tuple[tuple, ...]:
        """The rows still on the table, as tuples of coins. O(n + k)."""
        return self._components(0, self._coins.n_rows)

    @property
    def stacks(self) -> tuple[tuple, ...]:
        """The stacks still on the table, top first, as tuples of coins. O(n + k)."""
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
            run(self._coins, self._kernel("play"), *self._arguments(), components, flat, ends,
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
        """The position after ``move`` (a legal ``Move``): O(log k) for k rows and stacks.

        The new position shares the coins and all but O(log k) of the components' bounds
        with this one (a persistent array, docs/positions.md), so every position stays
        valid. Along the optimal line (the move ``best_move()`` gives) the next position
        keeps the line: a whole self-play through ``best_move()``/``take()`` costs
        O(n log k). A move off the line costs O(log k) too; the next ``best_move()`` there
        computes a new line. A forest's move off the line costs O(n). ``ValueError`` if the
        move is not legal here.

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


# -- one row ------------------------------------------------------------------------------

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


def row_coins(row: Any, name: str = "row") -> Coins:
    """The storage of one row for the one-row functions (a buffer is read where it is)."""
    if isinstance(row, Game):
        raise TypeError("expected a row of coins, got a Game; call its methods instead")
    col = column(row, name)
    return storage([col], 1, [name], copy=False, where=name)


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

    ``threads``: a long row is cut into parts reduced at once on that many threads
    (``None``: as many as pay off, one for a row of under a million coins or for a row
    that a sample finds mostly sorted stretches; ``1``: one). The answer is the same, float
    rounding included (docs/rows.md).

    >>> value([3, 2, 2, 3, 1, 2])
    3
    """
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
    """``Profits(first, second)`` on one row. O(n), on ``threads`` threads as ``value``.

    Exact numbers: ``first + second == sum(row)`` and ``first - second == value(row)``.
    Floats: each player's coins of the optimal play, summed exactly and rounded once, so
    ``profits([0.1, 0.2]) == (0.2, 0.1)``.

    >>> profits([3, 2, 2, 3, 1, 2])
    Profits(first=8, second=5)
    """
    coins = row_coins(row)
    return Profits(*run(coins, "row_profits", *row_split(len(coins), threads), threads is None,
                        answer=Answer.PROFITS))


def best_move(row: Any) -> Literal["left", "right"]:
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


def play(row: Any, *, threads: int | None = None) -> array:
    """A whole optimal play of one row: ``array('q')`` of coin indices, turn by turn.

    Entry t is the index in ``row`` of the coin taken at turn t; the first player moves at
    even t. Every move is optimal at the position where it is made. O(n) time and memory:
    the greedy play of the reduced row, each fused run of coins taken whole from the end
    where it is exposed. ``threads`` as for ``value``: the same play whatever it is.

    >>> list(play([3, 2, 2, 3, 1, 2]))
    [0, 1, 5, 2, 3, 4]
    """
    coins = row_coins(row)
    moves: array = run(coins, "row_play", *row_split(len(coins), threads), threads is None,
                       answer=Answer.PLAY)
    return moves


def _unpickle_game(rows: Sequence[Any], stacks: Sequence[Any], forest: Any,
                   starts: Sequence[int], stops: Sequence[int], removed: bytes | None) -> Game:
    """The position ``Game.__reduce__`` describes: the original game, then the bounds."""
    game = Game(rows=rows, stacks=stacks, forest=forest)
    bounds = Bounds(array("q", starts), array("q", stops))
    left = sum(stops) - sum(starts)
    state = game._forest
    if state is not None and removed is not None:
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


__all__ += ["game_at", "legal", "play_moves", "row_coins", "where"]
