"""``explain``: Idziaszek's algorithm run on one game of rows and stacks, every step kept.

The steps are those the kernels take (docs/algorithm.md): Fusion of every component by the
library's one tie rule, ``x <= M > y`` strict on the right (``_reduction``, the rule of the
kernels' exact twin); Fruitless on every stack; then the Greedy phase, which takes the
reduced values largest first (a heap of the components' heads: ties to the lower component,
a row's left end on ties), each with the sign of the player who takes it. The value is their
alternating sum plus the Fruitless terms, added in the kernels' order, so on floats it is the
kernels' float; the play follows from the Greedy order (each segment taken whole from the
end where it is exposed, the stacks' Fruitless tails last), the play ``Game.play()`` gives.

The paper's Fusion principle allows ``x <= M >= y``; fusing on ``M == y`` too gives the same
value but, on rows with ties, other reduced rows. The strict rule is the one that
``value()``, ``play()`` and the ``Engine`` use (the canonical reduced form of
docs/window.md), so what ``explain`` shows is what the library computes.
"""

from __future__ import annotations

import decimal
import heapq
import math
from collections.abc import Callable, Iterator, Sequence
from typing import Any, NamedTuple

from ._coins import FLOAT64, Number, round_float
from ._dispatch import EXACT_DECIMAL
from ._game import Game, where
from ._moves import Move
from ._reduction import FruitlessStep, FusionStep, Segment, fruitless, reduce_coins
from ._text import format_number

__all__ = ["Explanation", "GreedyStep", "explain"]

#: Steps printed in full at each end of a long list; the middle is summarised by counts.
SHOWN_STEPS = 12


class GreedyStep(NamedTuple):
    """One step of the Greedy phase: a reduced value taken, and whose it is.

    A named tuple, made in O(1).

    Parameters
    ----------
    component : int
        The component it is taken from (rows first, then stacks, as in ``reduced``).
    segment : Segment
        The reduced value and the coins it stands for.
    end : {"left", "right", "top"}
        The end of its component it is taken from.
    sign : int
        +1 when the player to move gets it, -1 when the other player does.
    """

    component: int
    segment: Segment
    end: str
    sign: int


class Explanation:
    """The algorithm's steps on one game (``explain``); ``str()`` tells them in words.

    Made by ``explain`` (O(1) here). ``to_json()`` gives the steps as plain data,
    ``to_html()`` a page stepping through them.

    Parameters
    ----------
    fusions : list of FusionStep
        Every Fusion, in the order the scan makes them (component by component): named
        tuples ``(component, x, middle, y, fused)``, each part a ``Segment``.
    fruitless : list of FruitlessStep
        Every Fruitless move on a stack: ``(component, x, middle, amount)``.
    reduced : list of list of Segment
        For each component (rows first, then stacks) its values after Fusion (a stack's
        before its Fruitless moves), each with the span of original coins it stands for.
    greedy : list of GreedyStep
        The Greedy phase: ``(component, segment, end, sign)`` in the order taken.
    value : number
        The sum of the signed Greedy values and the Fruitless amounts: ``value()``.
    play : list of Move
        The optimal play that follows (``Game.play()``).
    names : list of str
        Each component's name ("row 0", "stack 1").
    coins : list of tuple
        Each component's coins, as the game has them now.
    offsets : list of int
        Each component's original position of its first coin now (spans count from the
        original coins, as ``Move.position`` does).


    Raises
    ------
    TypeError, ValueError
        Never: the constructor stores what it is given; the function that makes it
        (``analyze``, ``explain``) checks its input.
    """

    __slots__ = ("fusions", "fruitless", "reduced", "greedy", "value", "play", "names",
                 "coins", "offsets")

    def __init__(self, fusions: list[FusionStep], fruitless: list[FruitlessStep],
                 reduced: list[list[Segment]], greedy: list[GreedyStep], value: Number,
                 play: list[Move], names: list[str], coins: list[tuple],
                 offsets: list[int]) -> None:
        self.fusions = fusions
        self.fruitless = fruitless
        self.reduced = reduced
        self.greedy = greedy
        self.value = value
        self.play = play
        self.names = names
        self.coins = coins
        self.offsets = offsets

    def __repr__(self) -> str:
        return (f"<Explanation: {len(self.fusions)} fusions, {len(self.fruitless)} "
                f"fruitless moves, {len(self.greedy)} greedy steps, value "
                f"{format_number(self.value)}>")

    def __str__(self) -> str:
        return "\n".join(self.lines())

    def lines(self) -> Iterator[str]:
        """The account, line by line.

        Returns
        -------
        iterator of str
            The lines, without line ends; long lists show their first and last steps and
            a count of the others.

        Cost: O(k + s) for k components and s steps shown.
        """
        f = format_number
        yield "The game:"
        for name, coins in zip(self.names, self.coins):
            yield f"  {name}: {_short_list(coins)}"
        yield ""
        yield ("1. Fusion: three neighbours x <= M > y become one value x - M + y "
               "(the value does not change).")
        yield from _step_lines(self.fusions, "fusions", "No three neighbours fuse.",
                               self._fusion_line)
        section = 2
        if self._stacks():
            section = 3
            yield ""
            yield ("2. Fruitless: on a stack, its last two values x <= M are dropped; "
                   "the value changes by (-1)^n (x - M).")
            yield from _step_lines(self.fruitless, "fruitless moves", "Nothing is fruitless.",
                                   self._fruitless_line)
        yield ""
        yield "Reduced values (each stands for the coins shown):"
        for name, segments in zip(self.names, self.reduced):
            shown = ", ".join(f"{f(s.value)} [{_span(s.start, s.stop)}]"
                              for s in segments[:SHOWN_STEPS])
            more = f", ... ({len(segments)} values)" if len(segments) > SHOWN_STEPS else ""
            yield f"  {name}: {shown or '(nothing)'}{more}"
        yield ""
        yield (f"{section}. Greedy: the reduced values are taken largest first, turn by turn "
               "(+ for the player to move, - for the other):")
        yield from _step_lines(self.greedy, "greedy steps", "Nothing is left to take.",
                               self._greedy_line)
        yield ""
        yield f"Value: {f(self.value)} (the signed Greedy values plus the Fruitless amounts)"
        moves = [f"{m.coin}" for m in self.play[:2 * SHOWN_STEPS]]
        more = f" ... ({len(self.play)} moves)" if len(self.play) > 2 * SHOWN_STEPS else ""
        yield f"Optimal play (coins taken in turn): {' '.join(moves) or '(none)'}{more}"

    def _fusion_line(self, step: FusionStep) -> str:
        f = format_number
        return (f"   {self.names[step.component]}: {f(step.x.value)} <= {f(step.middle.value)}"
                f" > {f(step.y.value)} (coins {_span(step.x.start, step.y.stop)}) -> "
                f"{f(step.fused.value)}")

    def _fruitless_line(self, step: FruitlessStep) -> str:
        f = format_number
        return (f"   {self.names[step.component]}: {f(step.x.value)} <= {f(step.middle.value)}"
                f" (coins {_span(step.x.start, step.middle.stop)}) adds {f(step.amount)}")

    def _greedy_line(self, step: GreedyStep) -> str:
        who = "+" if step.sign > 0 else "-"
        value = format_number(step.segment.value)
        value = f"({value})" if value.startswith("-") else value
        return (f"   {who}{value} from the {step.end} of {self.names[step.component]} (coins "
                f"{_span(step.segment.start, step.segment.stop)})")

    def to_html(self) -> str:
        """A self-contained web page stepping through the algorithm on this game: the coins,
        and under them the values of each step (buttons and the arrow keys move between
        steps; it works offline). A game of more than 400 coins gets the account in words.

        Returns
        -------
        str
            The HTML document.

        Cost: O(s k) for s steps and k reduced values (each step's state is written).
        """
        from ._explain_html import explanation_html

        return explanation_html(self)

    def _stacks(self) -> int:
        return sum(1 for name in self.names if name.startswith("stack"))

    def to_json(self) -> dict[str, Any]:
        """The steps as plain JSON data.

        Returns
        -------
        dict
            ``components``, ``fusions``, ``fruitless``, ``reduced``, ``greedy``, ``value``
            and ``play``; numbers as strings written as a person writes them (exact).

        Cost: O(n) for n coins.
        """
        f = format_number

        def seg(s: Segment) -> dict[str, Any]:
            return {"value": f(s.value), "start": s.start, "stop": s.stop}

        return {
            "components": [{"name": n, "coins": [f(x) for x in c], "offset": o}
                           for n, c, o in zip(self.names, self.coins, self.offsets)],
            "fusions": [{"component": s.component, "x": seg(s.x), "middle": seg(s.middle),
                         "y": seg(s.y), "fused": seg(s.fused)} for s in self.fusions],
            "fruitless": [{"component": s.component, "x": seg(s.x), "middle": seg(s.middle),
                           "amount": f(s.amount)} for s in self.fruitless],
            "reduced": [[seg(s) for s in segments] for segments in self.reduced],
            "greedy": [{"component": s.component, "segment": seg(s.segment), "end": s.end,
                        "sign": s.sign} for s in self.greedy],
            "value": f(self.value),
            "play": [{"kind": m.kind, "index": m.index, "end": m.end,
                      "position": m.position, "coin": f(m.coin)} for m in self.play],
        }


def _span(start: int, stop: int) -> str:
    return f"{start}" if stop == start + 1 else f"{start}..{stop - 1}"


def _short_list(coins: Sequence[Any]) -> str:
    shown = " ".join(format_number(x) for x in coins[:2 * SHOWN_STEPS])
    if len(coins) > 2 * SHOWN_STEPS:
        shown += f" ... ({len(coins)} coins)"
    return shown or "(empty)"


def _step_lines(steps: Sequence[Any], what: str, none: str,
                line: Callable[[Any], str]) -> Iterator[str]:
    """The lines of the first and last SHOWN_STEPS steps, and a line counting those in
    between; ``none`` (indented as a step) when there is no step."""
    if not steps:
        yield f"   {none}"
    if len(steps) <= 2 * SHOWN_STEPS:
        yield from map(line, steps)
        return
    yield from map(line, steps[:SHOWN_STEPS])
    yield f"   ... {len(steps) - 2 * SHOWN_STEPS} more {what} ..."
    yield from map(line, steps[-SHOWN_STEPS:])


def explain(game: Any) -> Explanation:
    """Idziaszek's algorithm on ``game``, step by step: Fusion, Fruitless, Greedy.

    Runs the reduction the kernels run (the one tie rule ``x <= M > y``, docs/algorithm.md)
    and records each step; its value is ``value()`` and its play ``Game.play()``.

    Parameters
    ----------
    game : Game, or a row
        A game of rows and stacks, or one row (anything ``value`` accepts).

    Returns
    -------
    Explanation
        The steps; ``str()`` of it is an account a student can follow, long lists
        summarised (their first and last steps and a count).

    Raises
    ------
    TypeError, ValueError
        As ``Game`` raises for bad coins.
    ValueError
        If the game has a forest (the explanation covers rows and stacks).

    Cost: O(n log k) for n coins in k rows and stacks (the Greedy phase's heap), O(n)
    memory.

    Examples
    --------
    >>> e = explain([3, 2, 2, 3, 1, 2])
    >>> [(s.x.value, s.middle.value, s.y.value, s.fused.value) for s in e.fusions]
    [(2, 3, 1, 0)]
    >>> [s.value for s in e.reduced[0]], e.value
    ([3, 2, 0, 2], 3)
    """
    if not isinstance(game, Game):
        game = Game(rows=[game])
    position = where(game)
    if position.forest is not None:
        raise ValueError("explain() covers rows and stacks: this game has a forest (its "
                         "algorithm is described in the docs' forests page)")
    coins = position.coins
    objects = coins.objects()
    if coins.kind == FLOAT64:
        found = _explain(game, objects, position)
        if math.isfinite(found.value) and all(math.isfinite(s.fused.value)
                                              for s in found.fusions):
            return found
        # A float left the float range on the way: the kernels redo such a game exactly and
        # round once, and so does this.
        return _rounded(_explain(game, coins.exact(), position))
    with decimal.localcontext(EXACT_DECIMAL):
        return _explain(game, objects, position)


def _explain(game: Game, numbers: list, position: Any) -> Explanation:
    coins = position.coins
    starts, stops = position.starts, position.stops
    k = len(starts)
    n_rows = coins.n_rows
    n = sum(stops) - sum(starts)
    fusions: list[FusionStep] = []
    dropped: list[FruitlessStep] = []
    reduced: list[list[Segment]] = []
    left_over: list[list[Segment]] = []
    zero: Any = 0.0 if coins.kind == FLOAT64 else 0
    fruitless_total = zero
    for c in range(k):
        first = starts[c] - coins.bases[c]
        segments = reduce_coins(numbers[starts[c]:stops[c]], first, c, fusions)
        reduced.append(segments)
        if c >= n_rows:
            before = len(dropped)
            segments, _ = fruitless(segments, bool(n & 1), c, dropped)
            for step in dropped[before:]:
                fruitless_total = fruitless_total + step.amount
        left_over.append(segments)
    greedy, total = _greedy(left_over, n_rows, zero)
    value = total + fruitless_total
    play = _play(greedy, left_over, reduced, n_rows, coins, stops)
    names = [coins.names[c] for c in range(k)]
    return Explanation(fusions, dropped, reduced, greedy, coins.number(value), play, names,
                       [tuple(numbers[starts[c]:stops[c]]) for c in range(k)],
                       [starts[c] - coins.bases[c] for c in range(k)])


def _greedy(left_over: list[list[Segment]], n_rows: int,
            zero: Any) -> tuple[list[GreedyStep], Any]:
    """The Greedy phase as the kernels' twin runs it (``_greedy_exact``): a heap of the
    components' heads, largest first, ties to the lower component, a row's left end on
    ties; the total summed as ``_value_exact`` sums it (one row: each player's total, then
    their difference; otherwise the alternating sum in that order)."""
    bounds = [[0, len(s) - 1] for s in left_over]
    heap = []
    for c, segments in enumerate(left_over):
        if segments:
            heap.append((-_head(segments, bounds[c], c >= n_rows), c))
    heapq.heapify(heap)
    steps: list[GreedyStep] = []
    sign = 1
    while heap:
        c = heapq.heappop(heap)[1]
        segments, (left, right) = left_over[c], bounds[c]
        is_stack = c >= n_rows
        from_left = is_stack or segments[left].value >= segments[right].value
        e = left if from_left else right
        bounds[c] = [left + 1, right] if from_left else [left, right - 1]
        steps.append(GreedyStep(c, segments[e], "top" if is_stack else
                                "left" if from_left else "right", sign))
        sign = -sign
        if bounds[c][0] <= bounds[c][1]:
            heapq.heappush(heap, (-_head(segments, bounds[c], is_stack), c))
    if len(left_over) == 1 and n_rows == 1:
        taken = [zero, zero]
        for t, step in enumerate(steps):
            taken[t & 1] = taken[t & 1] + step.segment.value
        return steps, taken[0] - taken[1]
    total = zero
    for step in steps:
        total = total + step.segment.value if step.sign > 0 else total - step.segment.value
    return steps, total


def _head(segments: list[Segment], bounds: list[int], is_stack: bool) -> Any:
    left, right = bounds
    if is_stack or segments[left].value >= segments[right].value:
        return segments[left].value
    return segments[right].value


def _play(greedy: list[GreedyStep], left_over: list[list[Segment]],
          reduced: list[list[Segment]], n_rows: int, coins: Any,
          stops: Sequence[int]) -> list[Move]:
    """The optimal play of the Greedy order: each segment coin by coin from the end where
    it is exposed, then the stacks' Fruitless tails, top to bottom."""
    play: list[Move] = []

    def move(c: int, p: int, end: str) -> Move:
        coin = coins.coin(coins.bases[c] + p)
        if c < n_rows:
            return Move("row", c, end, p, coin)
        return Move("stack", c - n_rows, "top", p, coin)

    for step in greedy:
        seg = step.segment
        positions = range(seg.start, seg.stop) if step.end != "right" else \
            range(seg.stop - 1, seg.start - 1, -1)
        play.extend(move(step.component, p, step.end) for p in positions)
    for c in range(n_rows, len(reduced)):
        kept = left_over[c]
        stop = stops[c] - coins.bases[c]
        tail = kept[-1].stop if kept else reduced[c][0].start if reduced[c] else stop
        play.extend(move(c, p, "top") for p in range(tail, stop))
    return play


def _rounded(found: Explanation) -> Explanation:
    """An explanation computed on exact Fractions with every number rounded to a float."""
    def seg(s: Segment) -> Segment:
        return Segment(round_float(s.value), s.start, s.stop)

    fusions = [FusionStep(s.component, seg(s.x), seg(s.middle), seg(s.y), seg(s.fused))
               for s in found.fusions]
    dropped = [FruitlessStep(s.component, seg(s.x), seg(s.middle), round_float(s.amount))
               for s in found.fruitless]
    reduced = [[seg(s) for s in segments] for segments in found.reduced]
    greedy = [GreedyStep(s.component, seg(s.segment), s.end, s.sign) for s in found.greedy]
    coins = [tuple(float(x) for x in c) for c in found.coins]
    play = found.play  # its coins are the game's floats already
    return Explanation(fusions, dropped, reduced, greedy, found.value, play, found.names,
                       coins, found.offsets)
