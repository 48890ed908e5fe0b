"""``analyze``: a played game reviewed move by move, as an engine reviews a game of chess.

One ``Engine`` follows the moves (docs/window.md): before each move its value is what the
player to move could have gained (``best``), after it the value the opponent now has, so the
move's worth is its coin minus that, and its loss the difference from ``best``. The value is
read in O(1) and each move costs O(log n) amortised: a whole game of n moves is reviewed in
O(n log n), whoever played it and however badly.
"""

from __future__ import annotations

import decimal
import math
from collections.abc import Iterable, Iterator, Sequence
from fractions import Fraction
from typing import Any, NamedTuple, overload

from ._coins import Number, round_float
from ._dispatch import EXACT_DECIMAL
from ._engine import Engine
from ._game import Game, where
from ._moves import Move, move_words
from ._results import Profits
from ._text import format_number

__all__ = ["Analysis", "Review", "analyze"]


class Review(NamedTuple):
    """One move of a reviewed game.

    A named tuple, made in O(1).

    Parameters
    ----------
    turn : int
        0 for the first move of the game, 1 for the second, ...
    player : int
        0 for the player who moved first, 1 for the other.
    move : Move
        The move, as the position names it.
    coin : number
        The coin it took.
    best : number
        The value of the position before it: what optimal play gains from there.
    worth : number
        The coin minus the value of the position after it.
    loss : number
        ``best - worth``: 0 for an optimal move, never below 0.
    """

    turn: int
    player: int
    move: Move
    coin: Number
    best: Number
    worth: Number
    loss: Number


class Analysis(Sequence[Review]):
    """A reviewed game (``analyze``): a sequence of ``Review``, one per move, and totals.

    Made by ``analyze`` (O(1) here; indexing and ``len`` O(1)). ``str()`` is the review as
    a table, ``to_json()`` as plain data, ``to_svg()``/``to_html()`` as pictures.

    Parameters
    ----------
    reviews : list of Review
        One per move, in the order played.
    first, second : number
        What each player collected in the moves reviewed.
    optimal : number
        The value of the starting position: the first player's margin under optimal play.
    losses : tuple of two numbers
        Each player's total loss.
    finished : bool
        Whether the moves end the game. Then ``first - second == optimal - losses[0] +
        losses[1]``.
    start : Game
        The position the moves start from.


    Raises
    ------
    TypeError, ValueError
        Never: the constructor stores what it is given; the function that makes it
        (``analyze``, ``explain``) checks its input.
    """

    __slots__ = ("_reviews", "first", "second", "optimal", "losses", "finished", "start")

    def __init__(self, reviews: list[Review], first: Number, second: Number,
                 optimal: Number, losses: tuple[Number, Number], finished: bool,
                 start: Game) -> None:
        self._reviews = reviews
        self.first = first
        self.second = second
        self.optimal = optimal
        self.losses = losses
        self.finished = finished
        self.start = start

    @overload
    def __getitem__(self, index: int) -> Review: ...
    @overload
    def __getitem__(self, index: slice) -> list[Review]: ...

    def __getitem__(self, index: int | slice) -> Review | list[Review]:
        return self._reviews[index]

    def __len__(self) -> int:
        return len(self._reviews)

    def __iter__(self) -> Iterator[Review]:
        return iter(self._reviews)

    def __repr__(self) -> str:
        return (f"<Analysis of {len(self)} moves: first {format_number(self.first)}, second "
                f"{format_number(self.second)}, optimal margin {format_number(self.optimal)},"
                f" losses {format_number(self.losses[0])} and "
                f"{format_number(self.losses[1])}>")

    def __str__(self) -> str:
        return "\n".join(self.lines())

    def lines(self, limit: int = 200) -> Iterator[str]:
        """The review as text: one line a move, then the totals.

        Parameters
        ----------
        limit : int
            At most this many moves are shown: the first and last ``limit // 2`` of a
            longer game, with a count of the others.

        Returns
        -------
        iterator of str
            The lines, without line ends.

        Raises
        ------
        TypeError
            If ``limit`` is not an int.

        Cost: O(min(n, limit)).
        """
        if not isinstance(limit, int):
            raise TypeError(f"limit must be an int, not {type(limit).__name__}")
        f = format_number
        yield "move  player  takes from       coin      best     worth      loss"
        shown: Iterable[Review] = self._reviews
        skipped = len(self) - limit
        if skipped > 0:
            shown = self._reviews[:limit // 2]
        for r in shown:
            yield _review_line(r)
        if skipped > 0:
            yield f"... {skipped} more moves ..."
            for r in self._reviews[len(self) - limit // 2:]:
                yield _review_line(r)
        yield "(* marks a move that lost something against optimal play)"
        yield f"First player took {f(self.first)}, second player took {f(self.second)}."
        yield (f"Optimal margin {f(self.optimal)}; losses: first player {f(self.losses[0])}, "
               f"second player {f(self.losses[1])}.")
        if not self.finished:
            yield "The game is not finished."

    def to_json(self) -> dict[str, Any]:
        """The review as plain JSON data.

        Returns
        -------
        dict
            ``moves`` (one dict a move), ``first``, ``second``, ``optimal``, ``losses``,
            ``finished``; numbers as strings written as a person writes them (exact).

        Cost: O(n).
        """
        f = format_number
        return {
            "moves": [{"turn": r.turn, "player": r.player, "kind": r.move.kind,
                       "index": r.move.index, "end": r.move.end,
                       "position": r.move.position, "coin": f(r.coin), "best": f(r.best),
                       "worth": f(r.worth), "loss": f(r.loss)} for r in self._reviews],
            "first": f(self.first), "second": f(self.second), "optimal": f(self.optimal),
            "losses": [f(self.losses[0]), f(self.losses[1])], "finished": self.finished,
        }


    def _bases(self) -> list[int]:
        """Each component's original position of its first coin at the start."""
        position = where(self.start)
        bases = position.coins.bases
        return [start - bases[c] for c, start in enumerate(position.starts)]

    def to_svg(self) -> str:
        """An SVG picture of the moves played: each coin coloured by the player who took
        it, the turn under it, the coins not taken grey; the played totals on top.

        Returns
        -------
        str
            A standalone SVG document.

        Cost: O(n) for n coins.
        """
        from ._svg import game_svg

        return game_svg(self.start, play=[r.move for r in self._reviews],
                        profits=Profits(self.first, self.second), bases=self._bases())

    def to_html(self) -> str:
        """A self-contained web page of the review: the picture, buttons and keys to step
        through the moves, each position's value, and each move's worth and loss (the moves
        that lost marked). Works offline; a game of more than 5,000 coins gets the review's
        table alone (its first and last moves and those that lost most).

        Returns
        -------
        str
            The HTML document.

        Cost: O(n log n) for n coins.
        """
        from ._html import review_html

        return review_html(self, self._bases())


def _review_line(r: Review) -> str:
    f = format_number
    mark = "" if r.loss == 0 else "  *"
    return (f"{r.turn + 1:>4}  {('first', 'second')[r.player]:<6}  "
            f"{move_words(r.move, 'column'):<14} {f(r.coin):>6} {f(r.best):>9} "
            f"{f(r.worth):>9} {f(r.loss):>9}{mark}")


def analyze(game: Any, moves: Any) -> Analysis:
    """Review a played game, move by move: each move's worth and how much it lost.

    Parameters
    ----------
    game : Game, or a row
        The starting position (anything ``Game`` or ``value`` takes).
    moves : iterable of moves, or a Playout
        The moves played from there, the whole game or its beginning: ``Move``s,
        ``"left"``/``"right"`` on one row, ``(kind, index, end)`` triples such as
        ``("stack", 1, "top")``, or anything ``Game.take`` accepts; a ``Playout`` (from
        ``simulate``) stands for its moves.

    Returns
    -------
    Analysis
        One ``Review(turn, player, move, coin, best, worth, loss)`` per move, and the
        totals ``first``, ``second``, ``optimal``, ``losses``. Exact for ints,
        ``Fraction`` and ``Decimal``; for floats each best, worth and loss is the exact
        number for the float coins, rounded once (so a loss is never below 0, and coins
        of very different sizes lose nothing to rounding); ``optimal`` is ``value()``;
        totals are summed exactly and rounded once.

    Raises
    ------
    TypeError, ValueError
        As ``Game`` raises for bad coins, or if ``moves`` is not an iterable.
    ValueError
        If a move is illegal where it is played; the message names its turn.

    Cost: O(n log n) for n moves (one ``Engine`` pass: O(1) a value, O(log n) amortised a
    move), O(n) memory; a float game takes a second pass on the exact values (the same
    bound, the exact twin's constant factor).

    Examples
    --------
    >>> a = analyze([1, 2, 1000, 3, 4, 900], "l r r l l l".split())
    Traceback (most recent call last):
    ...
    ValueError: turn 0 (move 1): illegal move 'l': a row's end is 'left' or 'right'
    >>> a = analyze([1, 2, 1000, 3, 4, 900], ["left", "right", "right", "left"])
    >>> [r.loss for r in a], a.optimal, a.losses
    ([1792, 0, 0, 0], 1892, (1792, 0))
    """
    if not isinstance(game, Game):
        game = Game(rows=[game])
    played = getattr(moves, "moves", moves) if not isinstance(moves, (str, bytes)) else moves
    if isinstance(played, (str, bytes)) or not isinstance(played, Iterable):
        raise TypeError(f"analyze() takes the moves as an iterable of moves (or a Playout), "
                        f"not {type(moves).__name__}")
    engine = Engine(game)
    is_float = isinstance(engine.value(), float)
    reviews: list[Review] = []
    optimal: Any = engine.value()
    with decimal.localcontext(EXACT_DECIMAL):
        for turn, move in enumerate(played):
            if not len(engine):
                raise ValueError(f"turn {turn} (move {turn + 1}): illegal move {move!r}: the "
                                 "game is over")
            best: Any = engine.value()
            try:
                if move.__class__ in (tuple, list) and len(move) == 3:
                    move = _completed(engine, move)
                made = engine.take(move)
            except ValueError as error:
                raise ValueError(f"turn {turn} (move {turn + 1}): {error}") from None
            except TypeError as error:
                raise TypeError(f"turn {turn} (move {turn + 1}): {error}") from None
            coin: Any = made.coin
            after: Any = engine.value()
            worth = coin - after
            loss = best - worth
            reviews.append(Review(turn, turn & 1, made, made.coin, best, worth, loss))
        if is_float and reviews:
            # The float engine's values are each rounded: their differences can lose what a
            # move lost (coins of very different sizes) or leave the float range. The review
            # is redone on the floats' exact values, each number rounded once.
            reviews = _exact_reviews(game, reviews)
        taken = ([r.coin for r in reviews[0::2]], [r.coin for r in reviews[1::2]])
        lost = ([r.loss for r in reviews[0::2]], [r.loss for r in reviews[1::2]])
        first, second = (_total(t, is_float, optimal) for t in taken)
        losses = (_total(lost[0], is_float, optimal), _total(lost[1], is_float, optimal))
    return Analysis(reviews, first, second, optimal, losses, not len(engine), game)


def _exact_reviews(game: Game, reviews: list[Review]) -> list[Review]:
    """The reviews of a float game redone on an Engine of the coins' exact Fractions (the
    game as it stands, its components and nodes numbered again from 0): best, worth and loss
    exact, then rounded once. O(n log n) for n moves, the exact twin's constant factor."""
    position = where(game)
    bases = position.coins.bases
    offsets = [start - bases[c] for c, start in enumerate(position.starts)]
    n_rows = len(game.rows)
    renumbered: dict[int, int] = {}
    forest = game.forest
    if position.forest is not None:
        removed = position.forest.removed()
        renumbered = {node: new for new, node in
                      enumerate(x for x in range(len(removed)) if not removed[x])}
    exact = Engine(Game(rows=[[Fraction(x) for x in r] for r in game.rows],
                        stacks=[[Fraction(x) for x in s] for s in game.stacks],
                        forest=None if forest is None else
                        ([Fraction(x) for x in forest[0]], forest[1])))
    redone = []
    for r in reviews:
        kind, index, end, p, coin = r.move
        if kind == "tree":
            index = p = renumbered[index]
        else:
            p -= offsets[index if kind == "row" else n_rows + index]
        best: Any = exact.value()
        exact.take(Move(kind, index, end, p, Fraction(coin)))
        after: Any = exact.value()
        worth = Fraction(coin) - after
        redone.append(Review(r.turn, r.player, r.move, r.coin, round_float(best),
                             round_float(worth), round_float(best - worth)))
    return redone


def _completed(engine: Engine, move: Sequence[Any]) -> Move:
    """The legal ``Move`` a ``(kind, index, end)`` triple names (O(k) for k components, plus
    the forest's roots)."""
    kind, index, end = move
    for legal in engine.moves():
        if (legal.kind, legal.index, legal.end) == (kind, index, end):
            return legal
    raise ValueError(f"illegal move {tuple(move)!r}: no such coin to take here (the legal "
                     f"moves are {[(m.kind, m.index, m.end) for m in engine.moves()][:6]}"
                     f"{' ...' if len(engine.moves()) > 6 else ''})")


def _total(numbers: list[Any], is_float: bool, like: Any) -> Any:
    """Exact sums; floats summed exactly and rounded once (``math.fsum``)."""
    if is_float:
        try:
            return math.fsum(numbers)
        except OverflowError:
            return round_float(sum(map(Fraction, numbers), Fraction(0)))
    zero = like - like
    return sum(numbers, zero)
