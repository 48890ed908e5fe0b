"""Strategies and playouts: pit the optimal player against the heuristics of the seeds.

A strategy chooses a move in a position: it is one of the names in ``STRATEGY_NAMES`` or any
callable ``f(game) -> Move``. ``simulate`` plays a whole game between two strategies.

While every move so far follows the ``Game``'s optimal line, ``simulate`` steps along it
(optimal against optimal gives exactly ``Game.play()`` in O(n log k)). At the first move off
the line it builds an ``Engine`` (API.md §7) and plays the rest on it: every move, by either
side, in O(log n) amortised, so a whole game costs O(n log n) whatever the opponent does; the
other named strategies see the engine's position (O(k) per move for k rows and stacks). Forests
(``Game(forest=...)``) are not in the engine's structure: for them the playout steps through
``Game.take`` as before (the line while on it, one O(n log n) recomputation per move off it).
"""

from __future__ import annotations

import decimal
import math
import random
from collections.abc import Callable
from typing import Any, NamedTuple, Union

from ._dispatch import EXACT_DECIMAL, Number
from ._engine import Engine
from ._game import Game, Move, where
from ._moves import MoveError, resolve

__all__ = ["STRATEGY_NAMES", "Playout", "simulate"]

Strategy = Union[str, Callable[[Game], Any]]  # noqa: UP007 (a runtime alias on 3.10+)

STRATEGY_NAMES = ("optimal", "greedy", "parity", "lookahead", "random")


class Playout(NamedTuple):
    """A whole game: the moves made, turn by turn, and what each player collected.

    ``first`` is the total of the player who moved first (moves 0, 2, 4, ...).
    """

    moves: list[Move]
    first: Number
    second: Number


# -- the named strategies -----------------------------------------------------------------
# Each is built once per playout (``parity`` commits to a class of coins at the start) and
# then called with the position at each of its turns.


def _greedy(game: Game) -> Move:
    """The largest coin available; ties: lowest row, then stack, index, then the left end."""
    moves = game.moves()  # rows first, then stacks; a row's left end before its right
    best = moves[0]
    for move in moves:
        if move.coin > best.coin:
            best = move
    return best


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


class _Random:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def __call__(self, game: Game) -> Move:
        moves = game.moves()
        return moves[self.rng.randrange(len(moves))]


def _named(name: str, role: str, game: Game, rng: random.Random) -> Callable[[Game], Move]:
    if name == "greedy":
        return _greedy
    if name == "random":
        return _Random(rng)
    if name == "lookahead":
        if _single_row(game) is None:
            raise ValueError(
                f"strategy 'lookahead' ({role} player) is for one row, but the game has "
                f"{_describe_components(game)}"
            )
        return _lookahead
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
        return _Parity(game)
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
    """A user's callable, with its answers checked by the move protocol."""
    name = getattr(strategy, "__name__", None) or repr(strategy)

    def choose(game: Game, turn: int) -> Move:
        answer = strategy(game)
        try:
            return resolve(answer, where(game))[3]
        except MoveError as error:
            legal = game.moves()
            shown = ", ".join(map(repr, legal[:4])) + (", ..." if len(legal) > 4 else "")
            raise ValueError(
                f"strategy {name!r} ({role} player) returned an illegal move at turn {turn}: "
                f"{answer!r}; the legal moves were {shown}"
            ) from None

    return choose


def _OPTIMAL(position: Game, turn: int) -> Move:
    """The optimal player; ``simulate`` recognises it and asks its engine or line instead."""
    return position.best_move()


def _player(strategy: Strategy, role: str, game: Game,
            rng: random.Random) -> Callable[[Game, int], Move]:
    if isinstance(strategy, str):
        if strategy == "optimal":
            return _OPTIMAL
        named = _named(strategy, role, game, rng)
        return lambda position, turn: named(position)
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
    - ``"lookahead"``: the "Coins Game" write-up's heuristic, for one row: take the end whose coin minus the
      larger coin then left to the opponent is larger (ties: left);
    - ``"random"``: a uniformly random legal move from ``random.Random(seed)``.

    While every move so far follows the ``Game``'s optimal line, "optimal" plays that line
    (O(1) a move, O(k) to take it): optimal against optimal costs O(n log k) in total and gives
    the moves of ``Game.play()`` and the totals of ``profits()``. From the first move off the
    line the game is played on an ``Engine`` (built once, O(n log n); then O(log n) amortised
    a move), so a whole game costs O(n log n) against any strategy, plus what the strategies
    themselves cost (O(k) per move for the named ones, k rows and stacks). A ``Game`` with a forest is played through ``Game.take`` instead: the
    line while on it, one O(n log n) recomputation per optimal move off it.
    Totals are exact for ints, ``Fraction`` and ``Decimal``; float totals are each player's
    coins summed exactly and rounded once (``math.fsum``), as ``profits()`` gives them.

    >>> simulate([1, 2, 1000, 3, 4, 900], "greedy", "optimal").first
    905
    >>> simulate([1, 2, 1000, 3, 4, 900]).first
    1901
    """
    position = game if isinstance(game, Game) else Game(rows=[game])
    rng = random.Random(seed)
    players = (_player(first, "first", position, rng), _player(second, "second", position, rng))
    if where(position).forest is not None:
        moves = _through_games(position, players)
    else:
        moves = _through_engine(position, players)
    return Playout(moves, *_totals(position, moves))


def _totals(start: Game, moves: list[Move]) -> tuple[Number, Number]:
    """What each player took: exact sums, or for floats each player's coins summed exactly
    and rounded once (``math.fsum``), as ``profits()`` states them."""
    coins = where(start).coins
    taken = ([move.coin for move in moves[0::2]], [move.coin for move in moves[1::2]])
    if coins.exact_type is float:
        return math.fsum(taken[0]), math.fsum(taken[1])
    with decimal.localcontext(EXACT_DECIMAL):
        return (coins.number(sum(taken[0], coins.number(0))),
                coins.number(sum(taken[1], coins.number(0))))


def _through_engine(start: Game, players: tuple) -> list[Move]:
    """The playout: along the ``Game``'s optimal line while every move follows it, then on an
    ``Engine`` built at the first move off the line.

    Along the line each move costs O(k) (``Game.take``) and the optimal player's move O(1), so
    optimal against optimal costs the O(n log k) of the line and never builds an engine.
    Off the line, each move costs O(log n) amortised on the engine.
    """
    position = start  # valid until the engine takes over
    engine = None if any(p is _OPTIMAL for p in players) else Engine(start)
    moves: list[Move] = []
    for turn in range(len(start)):
        player = players[turn % 2]
        if engine is None:
            line_move = position.best_move()  # O(1): the position carries the line
            move = line_move if player is _OPTIMAL else player(position, turn)
            if move == line_move:
                position = position.take(move)
                moves.append(move)
                continue
            engine = Engine(position)
        elif player is _OPTIMAL:
            move = engine.best_move()
        else:
            move = player(engine.game, turn)
        moves.append(engine.take(move))
    return moves


def _through_games(position: Game, players: tuple) -> list[Move]:
    """The playout through immutable ``Game``s (forests, which the engine does not hold)."""
    moves: list[Move] = []
    for turn in range(len(position)):
        player = players[turn % 2]
        move = position.best_move() if player is _OPTIMAL else player(position, turn)
        position = position.take(move)
        moves.append(move)
    return moves
