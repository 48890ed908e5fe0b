"""Strategies and playouts: pit the optimal player against simple heuristics.

A strategy chooses a move in a position: it is one of the names in ``STRATEGY_NAMES`` or any
callable ``f(game) -> Move``. ``simulate`` plays a whole game between two strategies.

While every move so far follows the ``Game``'s optimal line, ``simulate`` steps along it
(optimal against optimal gives exactly ``Game.play()`` in O(n log k)). At the first move off
the line it builds an ``Engine`` (the window structure, docs/window.md) and the optimal player
answers every later move there, in O(log n) amortised, never by solving again. ``"greedy"``
keeps a heap of the components' end coins (and of the forest's roots) that the moves update,
and ``"random"`` a Fenwick tree of the components' numbers of legal moves (and one of the
forest's roots): O(log n) a move each, without looking at the whole position. Strategies that
read the position (user callables, ``"parity"``, ``"lookahead"``) get a ``Game``, kept up to
date by ``Game.take`` (O(log k) a move, the positions sharing their bounds; with a forest, off
the optimal line, O(n)). So ``simulate(game, "greedy", "optimal")`` costs O(n log n) for n
coins in k rows and stacks and a forest, and O(n log k) while the moves follow the line.
"""

from __future__ import annotations

import decimal
import heapq
import math
import random
from array import array
from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from typing import Any, NamedTuple, cast

from ._coins import Coins, Number
from ._dispatch import EXACT_DECIMAL
from ._engine import Engine
from ._forest import LiveForest
from ._game import Game, legal, where
from ._moves import End, Move, MoveError, move_at

__all__ = ["STRATEGY_NAMES", "Playout", "simulate"]

Strategy = str | Callable[[Game], Any]

STRATEGY_NAMES = ("optimal", "greedy", "parity", "lookahead", "random")


class Playout(NamedTuple):
    """A whole game: the moves made, turn by turn, and what each player collected.

    A named tuple, made in O(1).

    Parameters
    ----------
    moves : list of Move
        The moves, turn by turn; the first player makes moves 0, 2, 4, ...
    first : number
        The total of the player who moved first.
    second : number
        The total of the other player.
    """

    moves: list[Move]
    first: Number
    second: Number

    def to_svg(self, game: Any) -> str:
        """An SVG picture of this playout of ``game``: the coins coloured by the player
        who took them, the turn under each (``analyze(game, self).to_svg()``).

        Parameters
        ----------
        game : Game, or a row
            The game the playout was played from (a playout does not keep it).

        Returns
        -------
        str
            A standalone SVG document.

        Raises
        ------
        ValueError
            If the moves are not a playout of ``game``.

        Cost: O(n log n) for n moves.
        """
        from ._analysis import analyze

        return analyze(game, self.moves).to_svg()

    def to_html(self, game: Any) -> str:
        """A self-contained web page stepping through this playout of ``game``, with each
        move's worth and loss (``analyze(game, self).to_html()``).

        Parameters
        ----------
        game : Game, or a row
            The game the playout was played from.

        Returns
        -------
        str
            The HTML document.

        Raises
        ------
        ValueError
            If the moves are not a playout of ``game``.

        Cost: O(n log n) for n moves.
        """
        from ._analysis import analyze

        return analyze(game, self.moves).to_html()


# -- the named strategies -----------------------------------------------------------------
# Each is built once per playout (``parity`` commits to a class of coins at the start) and
# then called with the position at each of its turns.


class _Tracked:
    """A named strategy that follows the game through the moves played (``played``), from
    the start position: it needs no ``Game`` to choose. The forest's part (if any) is a
    ``LiveForest``: its roots, and a taken root's children, in O(1) each."""

    def __init__(self, game: Game) -> None:
        position = where(game)  # O(k), once (O(n) with a forest)
        self.coins: Coins = position.coins
        self.starts = array("q", position.starts)
        self.stops = array("q", position.stops)
        self.n_rows = self.coins.n_rows
        self.forest = None if position.forest is None else LiveForest(position.forest)
        self.tree = len(self.starts)  # the component of the forest's nodes

    def played(self, move: Move) -> None:
        """Follow a legal move (of a row, a stack or the forest) of the game."""
        if move.kind == "tree":
            forest = cast(LiveForest, self.forest)
            forest.take(move.index)
            self._rooted(move.index, forest.children(move.index))
            return
        c = move.index if move.kind == "row" else self.n_rows + move.index
        if move.end == "right":
            self.stops[c] -= 1
            self._changed(c, False)
        else:
            self.starts[c] += 1
            self._changed(c, True)

    def _changed(self, c: int, at_start: bool) -> None:
        raise NotImplementedError

    def _rooted(self, taken: int, children: list[int]) -> None:
        """The forest's root ``taken`` is gone and its ``children`` are roots."""
        raise NotImplementedError

    def _root_move(self, node: int) -> Move:
        return move_at(self.coins, self.tree, cast(LiveForest, self.forest).base + node,
                       End.ROOT)

    def _move(self, c: int, side: int) -> Move:
        """The move at the start (side 0) or before the stop (side 1) of component c."""
        if side:
            return move_at(self.coins, c, self.stops[c] - 1, End.RIGHT)
        return move_at(self.coins, c, self.starts[c], End.LEFT if c < self.n_rows else End.TOP)


class _Greedy(_Tracked):
    """The largest coin available; ties: the first of ``Game.moves()`` (the lowest row, then
    stack, index, the left end; then the root with the lowest index). O(log n) amortised a
    move, for k rows and stacks and r roots at most.

    A heap holds ``(-coin, component, side, flat index)`` of the coins at the components'
    ends (side 0: left, top or a root, 1: right), so that its smallest entry is the largest
    coin with those tie rules; a move pushes the coins it exposes. Entries of coins taken
    since stay in the heap until they reach its top (then they are dropped) or until the heap
    is rebuilt from the ends and roots, when it has grown to 4(k + r) + 16 entries: O(1)
    amortised, so the heap keeps O(k + r) entries.
    """

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.exact = self.coins.exact_type is Decimal  # negated exactly, not to 28 digits
        self.heap: list[tuple] = []
        self.roots = 0  # the forest's roots now
        self._rebuild()

    def _entry(self, c: int, side: int, flat: int) -> tuple:
        coin: Any = self.coins.coin(flat)
        if self.exact:
            with decimal.localcontext(EXACT_DECIMAL):
                return (-coin, c, side, flat)
        return (-coin, c, side, flat)

    def _rebuild(self) -> None:
        heap = []
        for c in range(len(self.starts)):
            start, stop = self.starts[c], self.stops[c]
            if start < stop:
                heap.append(self._entry(c, 0, start))
                if c < self.n_rows and stop - 1 > start:
                    heap.append(self._entry(c, 1, stop - 1))
        forest = self.forest
        if forest is not None:
            roots = forest.roots()
            heap.extend(self._entry(self.tree, 0, forest.base + node) for node in roots)
            self.roots = len(roots)
        heapq.heapify(heap)
        self.heap = heap

    def _grown(self) -> None:
        if len(self.heap) > 4 * (len(self.starts) + self.roots) + 16:
            self._rebuild()

    def _changed(self, c: int, at_start: bool) -> None:
        start, stop = self.starts[c], self.stops[c]
        if at_start:
            if start < stop:
                heapq.heappush(self.heap, self._entry(c, 0, start))
        elif stop - 1 > start:
            heapq.heappush(self.heap, self._entry(c, 1, stop - 1))
        self._grown()

    def _rooted(self, taken: int, children: list[int]) -> None:
        base = cast(LiveForest, self.forest).base
        for node in children:
            heapq.heappush(self.heap, self._entry(self.tree, 0, base + node))
        self.roots += len(children) - 1
        self._grown()

    def __call__(self, game: Game | None, turn: int) -> Move:
        heap = self.heap
        while True:
            _, c, side, flat = heap[0]
            if c == self.tree:
                forest = cast(LiveForest, self.forest)
                if not forest.removed()[flat - forest.base]:  # a root until it is taken
                    return self._root_move(flat - forest.base)
            elif side == 0:
                if self.starts[c] == flat < self.stops[c]:
                    return self._move(c, 0)
            elif self.stops[c] - 1 == flat > self.starts[c]:
                # (A row's last coin is its left move: the entry of side 0 comes first.)
                return self._move(c, 1)
            heapq.heappop(heap)


class _Fenwick:
    """Counts ``counts[0..m-1]`` (non-negative): their total, a change O(log m), and the
    index holding the r-th unit (0-based) with the units left of it, O(log m). Built in
    O(m)."""

    def __init__(self, counts: list[int]) -> None:
        m = len(counts)
        self.counts = counts
        tree = [0] * (m + 1)
        for i in range(1, m + 1):
            tree[i] += counts[i - 1]
            parent = i + (i & -i)
            if parent <= m:
                tree[parent] += tree[i]
        self.tree = tree
        self.total = sum(counts)
        self.top = 1 << m.bit_length() if m else 0

    def set(self, i: int, count: int) -> None:
        delta = count - self.counts[i]
        if delta:
            self.counts[i] = count
            self.total += delta
            tree, i = self.tree, i + 1
            while i < len(tree):
                tree[i] += delta
                i += i & -i

    def find(self, r: int) -> tuple[int, int]:
        """``(i, r')``: the r-th unit is unit r' of index i."""
        # The largest prefix of counts summing to <= r.
        tree, position, step = self.tree, 0, self.top
        while step:
            following = position + step
            if following < len(tree) and tree[following] <= r:
                position = following
                r -= tree[following]
            step >>= 1
        return position, r


class _UniformRandom(_Tracked):
    """A uniformly random legal move, ``moves[rng.randrange(len(moves))]`` of the position's
    ``moves()`` list (the same draws, the same moves), in O(log n) a move: a Fenwick tree
    counts the legal moves of each component (a row 2, or 1 when one coin is left; a stack 1;
    an empty one 0; the forest its roots) and finds the component of the r-th; in the forest,
    a Fenwick tree over the nodes (1 at a root) finds the r-th root."""

    def __init__(self, game: Game, rng: random.Random) -> None:
        super().__init__(game)
        self.rng = rng
        counts = [self._count(c) for c in range(len(self.starts))]
        self.nodes: _Fenwick | None = None
        forest = self.forest
        if forest is not None:
            is_root = [0] * forest.size
            for node in forest.roots():
                is_root[node] = 1
            self.nodes = _Fenwick(is_root)
            counts.append(self.nodes.total)
        self.components = _Fenwick(counts)

    def _count(self, c: int) -> int:
        size = self.stops[c] - self.starts[c]
        if size <= 0:
            return 0
        return 2 if c < self.n_rows and size > 1 else 1

    def _changed(self, c: int, at_start: bool) -> None:
        self.components.set(c, self._count(c))

    def _rooted(self, taken: int, children: list[int]) -> None:
        nodes = cast(_Fenwick, self.nodes)
        nodes.set(taken, 0)
        for node in children:
            nodes.set(node, 1)
        self.components.set(self.tree, nodes.total)

    def __call__(self, game: Game | None, turn: int) -> Move:
        c, r = self.components.find(self.rng.randrange(self.components.total))
        if c == self.tree:
            return self._root_move(cast(_Fenwick, self.nodes).find(r)[0])
        return self._move(c, r)


def _single_row(game: Game) -> int | None:
    """The index of the only row with coins, if the game is one row (empty rows aside)."""
    position = where(game)
    if position.forest is not None and position.forest.left:
        return None
    starts, stops, n_rows = position.starts, position.stops, position.coins.n_rows
    found = None
    for c in range(len(starts)):
        if starts[c] < stops[c]:
            if c >= n_rows or found is not None:
                return None
            found = c
    return 0 if found is None else found


def _lookahead(game: Game) -> Move:
    """The one-step look-ahead heuristic of the "Coins Game" write-up: maximise my coin
    minus the best coin it exposes.

    Its pseudocode compares ``choose_1 = a[1] - max(a[2], a[n])`` with
    ``choose_n = a[n] - max(a[1], a[n-1])`` (and then takes the smaller by a slip; its
    text means the larger). Ties: left.
    """
    row = _single_row(game)
    assert row is not None, "checked when the strategy was chosen"
    position = where(game)
    coins, i, j = position.coins, position.starts[row], position.stops[row]
    moves = game.moves()
    if j - i <= 1:
        return moves[0]
    left: Any = coins.coin(i)
    right: Any = coins.coin(j - 1)
    exposed_by_left: Any = max(coins.coin(i + 1), right)
    exposed_by_right: Any = max(left, coins.coin(j - 2))
    with decimal.localcontext(EXACT_DECIMAL):
        take_left = left - exposed_by_left >= right - exposed_by_right
    return moves[0] if take_left else moves[1]


class _Parity:
    """The even/odd strategy of the "Coins in a Line" write-up, for the first player on an
    even row.

    She commits to the class of positions (those of the row's first coin, or of its last)
    with the larger sum, ties to the first coin's class. On an even row each of her turns
    finds the two ends in different classes, so she can always take one of hers and the
    opponent only ever sees coins of the other class: she gets her whole class, at least
    half of the total.
    """

    def __init__(self, game: Game) -> None:
        (row,) = [r for r in game.rows if r] or [()]
        with decimal.localcontext(EXACT_DECIMAL):
            first_class = sum(row[0::2])
            last_class = sum(row[1::2])
        start = game.moves()[0].position if row else 0
        # Classes are kept as the parity of the positions in the original row (Move.position).
        self.parity = start % 2 if first_class >= last_class else (start + 1) % 2

    def __call__(self, game: Game) -> Move:
        for move in game.moves():
            if move.position % 2 == self.parity:
                return move
        raise AssertionError("parity: no coin of the class at an end")  # pragma: no cover


def _named(name: str, role: str, game: Game, rng: random.Random) -> Callable[..., Move]:
    """The strategy ``name``: a callable ``(position, turn) -> Move``; greedy and random are
    ``_Tracked`` (their position is ``None``: they follow the moves played)."""
    if name == "greedy":
        return _Greedy(game)
    if name == "random":
        return _UniformRandom(game, rng)
    if name == "lookahead":
        if _single_row(game) is None:
            raise ValueError(
                f"strategy 'lookahead' ({role} player) is for one row, but the game has "
                f"{_describe_components(game)}"
            )
        return lambda position, turn: _lookahead(position)
    if name == "parity":
        if role != "first":
            raise ValueError(
                "strategy 'parity' is for the first player only: it relies on her moving "
                "first on a row of even length"
            )
        if _single_row(game) is None:
            raise ValueError(
                f"strategy 'parity' is for one row of even length, but the game has "
                f"{_describe_components(game)}"
            )
        if len(game) % 2:
            raise ValueError(
                f"strategy 'parity' needs a row of even length, but the row has {len(game)} "
                "coins: on an odd row the opponent chooses which class the ends belong to"
            )
        parity = _Parity(game)
        return lambda position, turn: parity(position)
    raise ValueError(
        f"unknown strategy {name!r} for the {role} player; the strategies are "
        f"{', '.join(map(repr, STRATEGY_NAMES))}, or a callable f(game) -> Move"
    )


def _describe_components(game: Game) -> str:
    rows = sum(1 for r in game.rows if r)
    stacks = sum(1 for s in game.stacks if s)
    text = f"{rows} non-empty row(s) and {stacks} non-empty stack(s)"
    forest = game.forest
    if forest is not None and forest[0]:
        text += f" and a forest of {len(forest[0])} node(s)"
    return text


def _checked(strategy: Callable[[Game], Any], role: str) -> Callable[[Game, int], Move]:
    """A user's callable, with its answers checked by the move protocol (O(log k))."""
    name = getattr(strategy, "__name__", None) or repr(strategy)

    def choose(game: Game, turn: int) -> Move:
        answer = strategy(game)
        try:
            return legal(game, answer)
        except MoveError:
            legal_moves = game.moves()
            shown = ", ".join(map(repr, legal_moves[:4])) + (
                ", ..." if len(legal_moves) > 4 else "")
            raise ValueError(
                f"strategy {name!r} ({role} player) returned an illegal move at turn {turn}: "
                f"{answer!r}; the legal moves were {shown}"
            ) from None

    return choose


def _OPTIMAL(position: Game, turn: int) -> Move:
    """The optimal player; ``simulate`` recognises it and asks its engine or line instead."""
    return position.best_move()


def _player(strategy: Strategy, role: str, game: Game, rng: random.Random
            ) -> Callable[..., Move]:
    if isinstance(strategy, str):
        if strategy == "optimal":
            return _OPTIMAL
        return _named(strategy, role, game, rng)
    if callable(strategy):
        return _checked(strategy, role)
    raise TypeError(
        f"the {role} player's strategy is {strategy!r} of type {type(strategy).__name__}; "
        f"expected one of {', '.join(map(repr, STRATEGY_NAMES))} or a callable f(game) -> Move"
    )


def simulate(game: Any, first: Strategy = "optimal", second: Strategy = "optimal",
             seed: Any = None) -> Playout:
    """Play a whole game between two strategies: ``Playout(moves, first, second)``.

    ``game`` is a row (anything ``value`` accepts) or a ``Game``. A strategy is a callable
    ``f(game) -> Move`` (on one row it may also answer ``"left"`` or ``"right"``; an illegal
    answer is a ``ValueError`` naming the strategy) or one of these names:

    - ``"optimal"``: an optimal move (the ``Game``'s optimal line);
    - ``"greedy"``: the largest coin available (ties: lowest row/stack index, then left);
    - ``"parity"``: the even/odd strategy, for the first player on one row of even length:
      she takes the whole odd or even class of coins, whichever is larger, so never loses;
    - ``"lookahead"``: the "Coins Game" write-up's heuristic, for one row: take the end
      whose coin minus the larger coin then left to the opponent is larger (ties: left);
    - ``"random"``: a uniformly random legal move from ``random.Random(seed)``.

    Cost, for n coins in k rows and stacks and a forest: while every move so far follows
    the ``Game``'s optimal line, "optimal" plays that line (O(1) a move, O(log k) to take
    it), so optimal against optimal costs O(n log k) (O(n log n) with a forest) and gives
    the moves of ``Game.play()`` and the totals of ``profits()``. From the first move off
    the line the optimal player answers on an ``Engine`` (built once, O(n log n); then
    O(log n) amortised a move), never by solving again. "greedy" and "random" cost O(log n)
    amortised a move (O(log k) without a forest); a user's callable sees the position as a
    ``Game`` (kept up to date in O(log k) a move, O(n) off the line with a forest) and costs
    what it costs. So ``simulate(game, "greedy", "optimal")`` costs O(n log n) in all,
    forests included. Totals are exact for ints, ``Fraction`` and ``Decimal``; float totals are
    each player's coins summed exactly and rounded once (``math.fsum``), as ``profits()``
    gives them.

    Parameters
    ----------
    game : Game, or a row
        The starting position: a ``Game`` or one row (anything ``value`` accepts).
    first, second : str or callable, default "optimal"
        The strategies of the player who moves first and of the other: a name above, or a
        callable ``f(game) -> Move``.
    seed : optional
        The seed of ``random.Random`` for the "random" strategy: the same seed, the same
        playout. ``None``: fresh randomness.

    Returns
    -------
    Playout
        ``(moves, first, second)``: the moves made and both totals.

    Raises
    ------
    TypeError
        If ``game`` is not a ``Game`` or a row, or a coin is not a real number.
    ValueError
        If a strategy is an unknown name, or a callable returns an illegal move (naming the
        strategy and the turn); a coin is NaN or infinite.

    Examples
    --------
    >>> simulate([1, 2, 1000, 3, 4, 900], "greedy", "optimal").first
    905
    >>> simulate([1, 2, 1000, 3, 4, 900]).first
    1901
    """
    position = game if isinstance(game, Game) else Game(rows=[game])
    rng = random.Random(seed)
    start = where(position)  # O(k), once
    players = (_player(first, "first", position, rng),
               _player(second, "second", position, rng))
    moves = _through_engine(position, players)
    return Playout(moves, *_totals(start.coins, moves))


def _float_total(coins: Coins, taken: list[Any]) -> Number:
    """Float coins summed exactly and rounded once: math.fsum, or where one of its partial
    sums leaves the float range (it raises there), the exact sum rounded by the game's
    ``Coins.number`` (+-inf beyond the range)."""
    try:
        return math.fsum(taken)
    except OverflowError:
        return coins.number(sum(map(Fraction, taken), Fraction(0)))


def _totals(coins: Coins, moves: list[Move]) -> tuple[Number, Number]:
    """What each player took: exact sums, or for floats each player's coins summed exactly
    and rounded once (``math.fsum``), as ``profits()`` states them."""
    taken = ([move.coin for move in moves[0::2]], [move.coin for move in moves[1::2]])
    if coins.exact_type is float:
        return _float_total(coins, taken[0]), _float_total(coins, taken[1])
    with decimal.localcontext(EXACT_DECIMAL):
        return (coins.number(sum(taken[0], coins.number(0))),
                coins.number(sum(taken[1], coins.number(0))))


def _through_engine(start: Game, players: tuple) -> list[Move]:
    """The playout of a game of rows, stacks and a forest.

    Along the ``Game``'s optimal line while every move follows it (the optimal player's move
    O(1), taking it O(log k)); at the first move off it an ``Engine`` is built, which
    answers the optimal player from then on and plays every move in O(log n) amortised.
    Without an optimal player there is neither line nor engine. The ``Game`` is kept up to
    date (O(log k) a move) only for the players that read it; the ``_Tracked`` strategies
    follow the moves themselves.
    """
    tracked = [player for player in players if isinstance(player, _Tracked)]
    needs_game = any(player is not _OPTIMAL and not isinstance(player, _Tracked)
                     for player in players)
    on_line = any(player is _OPTIMAL for player in players)
    position: Game = start  # up to date while on the line, or when a player needs it
    engine = None
    moves: list[Move] = []
    for turn in range(len(start)):
        player = players[turn % 2]
        if engine is None:
            if on_line:
                line_move = position.best_move()  # O(1): the position carries the line
                move = line_move if player is _OPTIMAL else player(position, turn)
                if move == line_move:
                    position = position.take(move)
                else:
                    engine = Engine(position)
                    move = engine.take(move)
                    if needs_game:
                        position = position.take(move)
            else:
                move = player(position, turn)
                if needs_game:
                    position = position.take(move)
        else:
            move = engine.best_move() if player is _OPTIMAL else player(position, turn)
            move = engine.take(move)
            if needs_game:
                position = position.take(move)
        for follower in tracked:
            follower.played(move)
        moves.append(move)
    return moves
