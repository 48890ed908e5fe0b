"""The game: values, profits and optimal play for rows and stacks.

A position is kept as one flat storage of all the coins of the game it started from, and for
each component (rows first, then stacks) the range ``[start, stop)`` of the coins still on
the table. Taking a coin only moves a bound, so a new position costs O(k), not a copy.
"""

from __future__ import annotations

import decimal
import math
import numbers
from array import array
from collections.abc import Iterable, Mapping, Sequence, Set
from decimal import Decimal
from fractions import Fraction
from typing import Any, NamedTuple, TypeAlias, Union, cast

from . import _core
from ._coins import (FLOAT64, INT64, OBJECTS, Buffer1D, Column, _describe, as_floats,
                     as_objects, column, unify)
from ._forest import ForestState, forest_line, forest_sum, forest_value, parse_forest

Number: TypeAlias = Union[int, float, Fraction, Decimal]

__all__ = ["Game", "Move", "Profits", "best_move", "play", "profits", "value"]

# Additions and subtractions of Decimals are exact under this context; the only division
# (halving for the profits) is a multiplication by 0.5, exact too.
_EXACT_DECIMAL = decimal.Context(
    prec=decimal.MAX_PREC,
    Emax=decimal.MAX_EMAX,
    Emin=decimal.MIN_EMIN,
    traps=[decimal.InvalidOperation, decimal.Inexact, decimal.Overflow, decimal.DivisionByZero],
)
_HALF_DECIMAL = Decimal("0.5")

_SVG_MAX_COINS = 5000

_END_NAMES = {_core.END_LEFT: "left", _core.END_RIGHT: "right", _core.END_TOP: "top",
              _core.END_ROOT: "root"}


class Profits(NamedTuple):
    """What each player collects: ``first`` is the player to move."""

    first: Number
    second: Number


class Move(NamedTuple):
    """One move: which component, from which end, and the coin it takes.

    ``kind`` is ``"row"`` or ``"stack"``, ``index`` the component's index among the rows or
    the stacks, ``end`` is ``"left"``/``"right"`` for rows and ``"top"`` for stacks,
    ``position`` the coin's index in the original row or stack, ``coin`` its value.
    A forest move is ``Move("tree", node, "root", node, coin)`` (``node``: its index in the
    original forest).
    """

    kind: str
    # The field shadows tuple.index (a method); the name is public API, kept on purpose.
    index: int  # type: ignore[assignment]
    end: str
    position: int
    coin: Number


class _Coins:
    """The flat storage shared by a game and every position reached from it."""

    __slots__ = ("kind", "exact_type", "data", "bases", "lengths", "n_rows", "_objects")

    def __init__(self, kind: str, exact_type: type, data: Any, bases: Sequence[int],
                 lengths: Sequence[int], n_rows: int) -> None:
        self.kind = kind
        self.exact_type = exact_type
        self.data = data
        self.bases = bases
        self.lengths = lengths
        self.n_rows = n_rows
        self._objects: list | None = None

    def objects(self) -> list:
        """The coins as exact Python numbers (for the int64 overflow fallback)."""
        if self._objects is None:
            self._objects = self.data if self.kind == OBJECTS else self.data.tolist()
        return self._objects

    def exact_objects(self) -> list:
        """The coins as exact numbers: floats as Fractions (for the float overflow fallback)."""
        if self.kind == FLOAT64:
            return [Fraction(x) for x in self.data.tolist()]
        return self.objects()

    def where(self, component: int) -> str:
        if component < self.n_rows:
            return f"row {component}"
        return f"stack {component - self.n_rows}"

    def coin(self, flat_index: int) -> Number:
        coin: Number = self.data[flat_index]  # an annotated local: free, unlike cast (hot)
        return coin

    def slice(self, start: int, stop: int) -> tuple:
        if self.kind == OBJECTS:
            return tuple(self.data[start:stop])
        return tuple(self.data[start:stop].tolist())


class _RowCoins(_Coins):
    """The coins of the one-row functions: error messages say "row", as ``column`` does."""

    __slots__ = ()

    def where(self, component: int) -> str:
        return "row"


def _build(rows: Iterable[Any], stacks: Iterable[Any], forest: Column | None = None) -> _Coins:
    """The flat storage; a forest's values (if any) go after every row and stack."""
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
                    f"{label}s[{i}] is {_describe(component)}, not a "
                    f"{label}; {label}s= takes a sequence of {label}s, e.g. {label}s=[[3, 1, 2]]"
                )
            columns.append(column(component, f"{label} {i}"))
        if label == "row":
            n_rows = len(columns)
    lengths = [len(c) for c in columns]
    bases = []
    offset = 0
    for length in lengths:
        bases.append(offset)
        offset += length
    if forest is not None:
        columns = columns + [forest]
    kind, exact_type = unify(columns)
    # A Game is immutable: it never keeps a view of the caller's (mutable) buffer.
    if kind == INT64:
        if len(columns) == 1 and not isinstance(columns[0].data, memoryview):
            data = columns[0].data
        else:
            flat: array[Any] = array("q")
            for c in columns:
                flat.frombytes(memoryview(cast(Buffer1D, c.data)).cast("B"))
            data = flat
    elif kind == FLOAT64:
        if (len(columns) == 1 and columns[0].kind == FLOAT64
                and not isinstance(columns[0].data, memoryview)):
            data = columns[0].data
        else:
            flat = array("d")
            for c in columns:
                flat.frombytes(memoryview(as_floats(c)).cast("B"))
            data = flat
    else:
        data = []
        for c in columns:
            data.extend(as_objects(c, exact_type))
    coins = _Coins(kind, exact_type, memoryview(cast(Buffer1D, data)) if kind != OBJECTS else data,
                   bases, lengths, n_rows)
    if kind == FLOAT64:
        _check_finite(coins)
    return coins


def _check_finite(coins: _Coins) -> None:
    """NaN or an infinity makes a Game invalid from the start: one pass in the kernel."""
    starts = array("q", coins.bases)
    stops = array("q", [b + n for b, n in zip(coins.bases, coins.lengths)])
    _, total = _core.game_sum(coins.data, starts, stops)
    if not math.isfinite(total):  # a bad coin, or only a sum beyond the float range
        for flat_index, coin in enumerate(coins.data.tolist()):
            if not math.isfinite(coin):
                raise _not_finite(coins, starts, stops, flat_index)


def _round_float(exact: Any) -> float:
    """An exact number rounded to the nearest float: +-inf beyond the float range (IEEE 754)."""
    try:
        return float(exact)
    except OverflowError:
        return math.inf if exact > 0 else -math.inf


def _finite(coins: _Coins, result: Any) -> bool:
    """False when a float kernel overflowed: inf and NaN never turn finite again."""
    return coins.kind != FLOAT64 or math.isfinite(result)


def _exact(coins: _Coins, result: Any) -> Number:
    if coins.exact_type is float:
        return _round_float(result)
    if coins.exact_type is Fraction:
        return Fraction(result)
    if coins.exact_type is Decimal:
        return Decimal(result)
    return cast(int, result)  # int coins: the kernels' exact results are Python ints


def _not_finite(coins: _Coins, starts: array, stops: array, flat_index: int) -> ValueError:
    for c in range(len(starts)):
        if starts[c] <= flat_index < stops[c]:
            return ValueError(
                f"{coins.where(c)}: coin at index {flat_index - coins.bases[c]} is "
                f"{coins.coin(flat_index)!r}; coins must be finite"
            )
    return ValueError(f"coin {coins.coin(flat_index)!r} is not finite")  # pragma: no cover


def _value(coins: _Coins, starts: array, stops: array) -> Number:
    """The value of a position: O(n) for one row, O(n log k) for k components."""
    if coins.kind != OBJECTS:
        status, result, bad = _core.game_value(coins.data, starts, stops, coins.n_rows)
        if status == _core.STATUS_OK and _finite(coins, result):
            return result
        if status == _core.STATUS_NOT_FINITE:
            raise _not_finite(coins, starts, stops, bad)
    # OBJECTS, an int64 overflow or a float overflow: the same algorithm, exactly.
    return _exact(coins, _exact_value(coins, starts, stops))


def _exact_value(coins: _Coins, starts: array, stops: array) -> Any:
    """The value on exact Python numbers (float coins as Fractions)."""
    with decimal.localcontext(_EXACT_DECIMAL):
        return _core.game_value_objects(coins.exact_objects(), starts, stops, coins.n_rows)


def _sum(coins: _Coins, starts: array, stops: array) -> Number:
    """The sum of the coins on the table (exact for ints: int64 overflow goes to Python ints)."""
    if coins.kind != OBJECTS:
        status, total = _core.game_sum(coins.data, starts, stops)
        if status == _core.STATUS_OK and _finite(coins, total):
            return total
    data = coins.exact_objects()
    with decimal.localcontext(_EXACT_DECIMAL):
        total = sum(sum(data[starts[c]:stops[c]]) for c in range(len(starts)))
    return _exact(coins, total)


def _profits(coins: _Coins, starts: array, stops: array, advantage: Number,
             total: Number | None = None) -> Profits:
    # Every number here is of the game's one kind (coins.exact_type), which the Number union
    # cannot say (it would allow float + Decimal): the arithmetic is typed as Any.
    tot: Any = _sum(coins, starts, stops) if total is None else total
    adv: Any = advantage
    if coins.exact_type is int and coins.kind != FLOAT64:
        first = (tot + adv) // 2
    elif coins.exact_type is Decimal:
        data = coins.objects()
        # Halving writes one digit more than the coins have; a profit is a sum of coins, so
        # it is exactly representable at the finest exponent among them.
        exponent = min((x.as_tuple().exponent for c in range(len(starts))
                        for x in data[starts[c]:stops[c]]), default=0)
        with decimal.localcontext(_EXACT_DECIMAL):
            first = ((tot + adv) * _HALF_DECIMAL).quantize(Decimal(1).scaleb(exponent))
    else:
        first = (tot + adv) / 2
        if coins.kind == FLOAT64 and not (math.isfinite(first) and math.isfinite(tot - first)):
            # A float overflow: both profits exactly, each rounded once.
            exact = coins.exact_objects()
            tot = sum(sum(exact[starts[c]:stops[c]]) for c in range(len(starts)))
            adv = _exact_value(coins, starts, stops)
            return Profits(_round_float((tot + adv) / 2), _round_float((tot - adv) / 2))
    with decimal.localcontext(_EXACT_DECIMAL):
        return Profits(first, tot - first)


class _Line:
    """An optimal play of a position, as computed once: shared by the positions along it."""

    __slots__ = ("components", "coins", "ends")

    def __init__(self, components: Sequence[int], coins: Sequence[int], ends: Sequence[int]):
        self.components = components
        self.coins = coins
        self.ends = ends


def _line(coins: _Coins, starts: array, stops: array) -> _Line:
    """A whole optimal play of the position: O(n log k)."""
    n = sum(stops[c] - starts[c] for c in range(len(starts)))
    if coins.kind != OBJECTS:
        components = array("q", bytes(8 * n))
        flat = array("q", bytes(8 * n))
        ends = array("B", bytes(n))
        status, total, bad = _core.game_play(coins.data, starts, stops, coins.n_rows,
                                             components, flat, ends)
        if status == _core.STATUS_OK and _finite(coins, total):
            return _Line(components, flat, ends)
        if status == _core.STATUS_NOT_FINITE:
            raise _not_finite(coins, starts, stops, bad)
    with decimal.localcontext(_EXACT_DECIMAL):
        _, moves = _core.game_play_objects(coins.exact_objects(), starts, stops, coins.n_rows)
    if not moves:
        return _Line(array("q"), array("q"), array("B"))
    move_components, move_coins, move_ends = zip(*moves)
    return _Line(array("q", move_components), array("q", move_coins), array("B", move_ends))


class Game:
    """A position of the coins-in-a-row game family: rows and stacks of coins.

    Two players alternately take one coin: from either end of a row, or from the top of a
    stack (``stack[0]`` is the top). ``Game`` is immutable and hashable.

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
        coins = _build(rows, stacks, forest_values)
        state = None
        if parents is not None:
            state = ForestState.initial(sum(coins.lengths), parents, len(coins.lengths))
        self._init(coins, array("q", coins.bases),
                   array("q", [b + n for b, n in zip(coins.bases, coins.lengths)]), None, 0,
                   state)

    def _init(self, coins: _Coins, starts: array[int], stops: array[int], line: _Line | None,
              turn: int, forest: ForestState | None = None) -> None:
        self._coins = coins
        self._starts = starts
        self._stops = stops
        self._line = line
        self._turn = turn
        self._cache: dict[str, Any] = {}
        self._forest = forest

    @classmethod
    def _position(cls, coins: _Coins, starts: array, stops: array, line: _Line | None,
                  turn: int, forest: ForestState | None = None) -> Game:
        game = cls.__new__(cls)
        game._init(coins, starts, stops, line, turn, forest)
        return game

    # -- what is on the table -------------------------------------------------------------

    def __len__(self) -> int:
        forest = 0 if self._forest is None else self._forest.left
        return forest + sum(self._stops[c] - self._starts[c] for c in range(len(self._starts)))

    def _components(self, first: int, last: int) -> tuple[tuple, ...]:
        return tuple(self._coins.slice(self._starts[c], self._stops[c]) for c in range(first, last))

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
        rows = [list(r) for r in self.rows]
        stacks = [list(s) for s in self.stacks]
        text = f"Game(rows={rows!r}, stacks={stacks!r}"
        if self._forest is not None:
            values, parents = cast("tuple[tuple, tuple]", self.forest)  # not None: a forest
            text += f", forest=({list(values)!r}, {list(parents)!r})"
        text += ")"
        return text if len(text) <= 200 else text[:190] + " ...)"

    # -- solving ---------------------------------------------------------------------------

    def value(self) -> Number:
        """Own total minus the opponent's, for the player to move, both playing optimally.

        O(n log k); O(n) for one row. ``0`` for an empty game.

        >>> Game(rows=[[1, 2, 1000, 3, 4, 900]]).value()
        1892
        """
        if "value" not in self._cache:
            if self._forest is not None:
                self._cache["value"] = forest_value(self._coins, self._starts, self._stops,
                                                    self._forest)
            else:
                self._cache["value"] = _value(self._coins, self._starts, self._stops)
        cached: Number = self._cache["value"]
        return cached

    def profits(self) -> Profits:
        """``Profits(first, second)``: what the player to move and the other one collect.

        >>> Game(rows=[[3, 2, 2, 3, 1, 2]]).profits()
        Profits(first=8, second=5)
        """
        total = None
        if self._forest is not None:
            total = forest_sum(self._coins, self._starts, self._stops, self._forest)
        return _profits(self._coins, self._starts, self._stops, self.value(), total)

    # -- moves -----------------------------------------------------------------------------

    def _move(self, component: int, flat_index: int, end_code: int) -> Move:
        coins = self._coins
        if component == len(self._starts):
            node = flat_index - cast(ForestState, self._forest).base  # the forest's component
            return Move("tree", node, "root", node, coins.coin(flat_index))
        if component < coins.n_rows:
            kind, index = "row", component
        else:
            kind, index = "stack", component - coins.n_rows
        return Move(kind, index, _END_NAMES[end_code], flat_index - coins.bases[component],
                    coins.coin(flat_index))

    def _ensure_line(self) -> _Line:
        if self._line is None:
            if self._forest is not None:
                self._line = _Line(*forest_line(self._coins, self._starts, self._stops,
                                                self._forest))
            else:
                self._line = _line(self._coins, self._starts, self._stops)
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
        return self._move(line.components[t], line.coins[t], line.ends[t])

    def play(self) -> list[Move]:
        """A whole optimal play from this position: every move optimal where it is made.

        O(n log k) time and O(n) memory (O(n) for one row).

        >>> [m.coin for m in Game(rows=[[3, 2, 2, 3, 1, 2]]).play()]
        [3, 2, 2, 2, 3, 1]
        """
        line = self._ensure_line()
        return [
            self._move(line.components[t], line.coins[t], line.ends[t])
            for t in range(self._turn, len(line.coins))
        ]

    def moves(self) -> list[Move]:
        """The legal moves: both ends of every non-empty row, the top of every stack, every
        root of the forest (O(n) with a forest)."""
        result = []
        coins = self._coins
        for c in range(len(self._starts)):
            start, stop = self._starts[c], self._stops[c]
            if start == stop:
                continue
            if c < coins.n_rows:
                result.append(self._move(c, start, _core.END_LEFT))
                if stop - start > 1:
                    result.append(self._move(c, stop - 1, _core.END_RIGHT))
            else:
                result.append(self._move(c, start, _core.END_TOP))
        if self._forest is not None:
            k, base = len(self._starts), self._forest.base
            result.extend(self._move(k, base + node, _core.END_ROOT)
                          for node in self._forest.roots())
        return result

    def take(self, move: Move | Sequence[Any]) -> Game:
        """The position after ``move`` (a legal ``Move``): O(k), the coins are shared.

        ``ValueError`` if the move is not legal here.

        >>> g = Game(rows=[[1, 2, 3]])
        >>> g.take(g.best_move()).rows
        ((1, 2),)
        """
        try:
            kind, index, end, position, coin = move
        except (TypeError, ValueError):
            raise ValueError(f"{move!r} is not a Move(kind, index, end, position, coin)") from None
        coins = self._coins
        if kind == "tree":
            return self._take_root(move, index, end, position, coin)
        if kind == "row" and isinstance(index, int) and 0 <= index < coins.n_rows:
            component = index
            if end not in ("left", "right"):
                raise ValueError(f"illegal move {move!r}: a row's end is 'left' or 'right'")
        elif (kind == "stack" and isinstance(index, int)
              and 0 <= index < len(self._starts) - coins.n_rows):
            component = coins.n_rows + index
            if end != "top":
                raise ValueError(f"illegal move {move!r}: a stack is taken from its 'top'")
        else:
            raise ValueError(f"illegal move {move!r}: no such {kind!r} with index {index!r}")
        start, stop = self._starts[component], self._stops[component]
        if start == stop:
            raise ValueError(f"illegal move {move!r}: {coins.where(component)} is empty")
        flat_index = stop - 1 if end == "right" else start
        expected = self._move(component, flat_index, {"left": 0, "right": 1, "top": 2}[end])
        if position != expected.position or coin != expected.coin:
            raise ValueError(f"illegal move {move!r}: the coin there is {expected!r}")
        starts, stops = array("q", self._starts), array("q", self._stops)
        if end == "right":
            stops[component] -= 1
        else:
            starts[component] += 1
        line, turn = None, 0
        t = self._turn
        line_ = self._line
        if (line_ is not None and t < len(line_.coins) and line_.components[t] == component
                and line_.coins[t] == flat_index):
            line, turn = line_, t + 1
        forest = self._forest
        if forest is not None and line is not None:
            forest = forest.passing(line, t)
        return Game._position(coins, starts, stops, line, turn, forest)

    def _take_root(self, move: Any, node: Any, end: Any, position: Any, coin: Any) -> Game:
        """``take`` of a forest move: O(1) along the optimal line, O(n) off it."""
        forest = self._forest
        if forest is None:
            raise ValueError(f"illegal move {move!r}: this game has no forest")
        if isinstance(node, bool) or not isinstance(node, int) or not 0 <= node < forest.size:
            raise ValueError(f"illegal move {move!r}: no node {node!r} in the forest")
        if end != "root":
            raise ValueError(f"illegal move {move!r}: a tree is taken at its 'root'")
        k, flat_index = len(self._starts), forest.base + node
        expected = self._move(k, flat_index, _core.END_ROOT)
        if position != expected.position or coin != expected.coin:
            raise ValueError(f"illegal move {move!r}: the coin there is {expected!r}")
        t, line = self._turn, self._line
        if (line is not None and t < len(line.coins) and line.components[t] == k
                and line.coins[t] == flat_index):
            return Game._position(self._coins, self._starts, self._stops, line, t + 1,
                                  forest.along(line, t))
        if forest.removed()[node]:
            raise ValueError(f"illegal move {move!r}: node {node} was already taken")
        if not forest.is_root(node):
            raise ValueError(f"illegal move {move!r}: node {node} is not a root (its parent "
                             f"{forest.parents[node]} is still there)")
        return Game._position(self._coins, self._starts, self._stops, None, 0,
                              forest.without(node))


    def _repr_svg_(self) -> str | None:
        """The position and its optimal play as an SVG picture (shown by Jupyter)."""
        if len(self) > _SVG_MAX_COINS:
            return None  # one element per coin: a huge picture would freeze the notebook
        from ._svg import game_svg

        return game_svg(self)


# -- one row ------------------------------------------------------------------------------


def _row_coins(row: Any) -> _Coins:
    if isinstance(row, Game):
        raise TypeError("expected a row of coins, got a Game; call its methods instead")
    col = column(row, "row")
    kind, exact_type = unify([col], "row")
    data = col.data if kind == OBJECTS else memoryview(cast(Buffer1D, col.data))
    return _RowCoins(kind, exact_type, data, (0,), (len(col),), 1)


def _bounds(start: int, stop: int) -> tuple[array, array]:
    return array("q", (start,)), array("q", (stop,))


def value(row: Any) -> Number:
    """The advantage of the player to move on one row, both playing optimally.

    Own total minus the opponent's; ``0`` for an empty row. Exact: ints give an ``int``
    (int64 overflow is redone on Python ints), floats a ``float``, ``Fraction``/``Decimal``
    their own type. A float overflow on the way (inf or NaN in the float kernel) is redone
    exactly on Fractions and rounded once: the answer is ``+-inf`` only when the exact value
    itself is beyond the float range (IEEE 754 rounding), and never NaN. O(n) time, at
    most one machine number of extra memory per coin; a contiguous int64/float64 buffer
    (NumPy array, ``array.array``) is read without a copy.

    >>> value([3, 2, 2, 3, 1, 2])
    3
    """
    coins = _row_coins(row)
    return _value(coins, *_bounds(0, coins.lengths[0]))


def profits(row: Any) -> Profits:
    """``Profits(first, second)`` on one row; ``first + second == sum(row)``. O(n).

    >>> profits([3, 2, 2, 3, 1, 2])
    Profits(first=8, second=5)
    """
    coins = _row_coins(row)
    bounds = _bounds(0, coins.lengths[0])
    return _profits(coins, *bounds, _value(coins, *bounds))


def best_move(row: Any) -> str:
    """``"left"`` or ``"right"``: an optimal first move on one row; ``"left"`` on ties.

    Compares ``row[0] - value(row[1:])`` with ``row[-1] - value(row[:-1])``: O(n).
    ``ValueError`` for an empty row.

    >>> best_move([1, 2, 1000, 3, 4, 900])
    'right'
    """
    coins = _row_coins(row)
    n = coins.lengths[0]
    if n == 0:
        raise ValueError("the row is empty: there is no move")
    if n == 1:
        if coins.kind == FLOAT64 and not math.isfinite(coins.coin(0)):
            raise _not_finite(coins, *_bounds(0, 1), 0)
        return "left"
    # Coins and values are of one kind, which the Number union cannot say: Any arithmetic.
    first_coin: Any = coins.coin(0)
    last_coin: Any = coins.coin(n - 1)
    with decimal.localcontext(_EXACT_DECIMAL):
        left = first_coin - _value(coins, *_bounds(1, n))
        right = last_coin - _value(coins, *_bounds(0, n - 1))
        if coins.kind == FLOAT64 and not (math.isfinite(left) and math.isfinite(right)):
            exact = coins.exact_objects()
            left = exact[0] - _exact_value(coins, *_bounds(1, n))
            right = exact[n - 1] - _exact_value(coins, *_bounds(0, n - 1))
        return "left" if left >= right else "right"


def play(row: Any) -> array:
    """A whole optimal play of one row: ``array('q')`` of coin indices, turn by turn.

    Entry t is the index in ``row`` of the coin taken at turn t; the first player moves at
    even t. Every move is optimal at the position where it is made. O(n) time and memory:
    the greedy play of the reduced row, each fused run of coins taken whole from the end
    where it is exposed.

    >>> list(play([3, 2, 2, 3, 1, 2]))
    [0, 1, 5, 2, 3, 4]
    """
    coins = _row_coins(row)
    line = _line(coins, *_bounds(0, coins.lengths[0]))
    return line.coins if isinstance(line.coins, array) else array("q", line.coins)
