"""The kernels' reduction of one component, in Python, optionally recording each step.

``explain`` shows the Fusion and Fruitless steps of a game, and ``move_values`` needs the
reduced values of a component after one coin is taken. Both run this: the rule of
``_push_exact`` in ``_core/_rows_exact.pyx`` (the exact twin of the kernels), the library's
one tie rule (docs/architecture.md "One tie rule"): the top three values x, M, y of the scan
fuse when ``x <= M > y``, strict on the right, into ``(x - M) + y``; then, on a stack, while
its last two values satisfy ``x <= M`` both go (Fruitless) and ``x - M`` is added with the
sign ``(-1)^n``, n the number of coins of the whole game. The same operations in the same
order as the twin, so a float fusion here is the kernels' float, bit for bit.

The values are whatever numbers the caller passes (the caller sets the exact Decimal
context); each reduced value carries the span ``[start, stop)`` of the coins it stands for.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

__all__ = ["FruitlessStep", "FusionStep", "Segment", "fruitless", "reduce_coins"]


class Segment(NamedTuple):
    """A reduced value and the coins it stands for: ``coins[start:stop]`` (an odd count).

    A named tuple, made in O(1).

    Parameters
    ----------
    value : number
        The alternating sum of those coins, first minus second plus third ...
    start : int
        The index of its first coin in the original row or stack (top first for a stack).
    stop : int
        One past the index of its last coin.
    """

    value: Any
    start: int
    stop: int


class FusionStep(NamedTuple):
    """One Fusion: three adjacent values ``x <= middle > y`` replaced by one.

    A named tuple, made in O(1).

    Parameters
    ----------
    component : int
        The component: rows first (0 .. rows - 1), then the stacks, as in ``reduced``.
    x, middle, y : Segment
        The three values, left to right (top to bottom on a stack), with their coins.
    fused : Segment
        ``x - middle + y``, standing for the coins of all three.
    """

    component: int
    x: Segment
    middle: Segment
    y: Segment
    fused: Segment


class FruitlessStep(NamedTuple):
    """One Fruitless move on a stack: its last two values ``x <= middle`` dropped.

    A named tuple, made in O(1).

    Parameters
    ----------
    component : int
        The stack's component (rows come first).
    x, middle : Segment
        The two values dropped; ``middle`` is the one at the bottom.
    amount : number
        What the pair adds to the value: ``x - middle`` times ``(-1)^n``, n the number of
        coins of the whole game.
    """

    component: int
    x: Segment
    middle: Segment
    amount: Any


def reduce_coins(coins: Sequence[Any], first: int = 0, component: int = 0,
                 steps: list[FusionStep] | None = None) -> list[Segment]:
    """The reduced values of ``coins`` by the kernels' Fusion rule, left to right.

    ``first`` is the original index of ``coins[0]``; each Fusion is appended to ``steps``
    when given. The result has no interior maximum (it decreases, then increases).

    Parameters
    ----------
    coins : sequence of numbers
        One row (or stack, top first).
    first : int
        The original position of ``coins[0]``, for the segments' spans.
    component : int
        The component's number, written into the recorded steps.
    steps : list, optional
        Where each ``FusionStep`` is appended, in the order the scan makes them.

    Returns
    -------
    list of Segment
        The reduced values with their spans, left to right.

    Cost: O(n): each Fusion removes two values.
    """
    stack: list[Segment] = []
    for offset, v in enumerate(coins):
        p = first + offset
        entry = Segment(v, p, p + 1)
        while len(stack) >= 2 and stack[-2].value <= stack[-1].value and stack[-1].value > v:
            x, middle = stack[-2], stack[-1]
            v = (x.value - middle.value) + v
            fused = Segment(v, x.start, entry.stop)
            if steps is not None:
                steps.append(FusionStep(component, x, middle, entry, fused))
            entry = fused
            del stack[-2:]
        stack.append(entry)
    return stack


def fruitless(reduced: list[Segment], odd: bool, component: int = 0,
              steps: list[FruitlessStep] | None = None) -> tuple[list[Segment], Any]:
    """A stack's reduced values after its Fruitless moves, and what they add to the value.

    ``reduced`` is the stack's reduced form (top first), ``odd`` whether the whole game has
    an odd number of coins. The pairs go from the bottom while ``x <= middle``; each adds
    ``x - middle``, negated when ``odd``. Each step is appended to ``steps`` when given.

    Parameters
    ----------
    reduced : list of Segment
        The stack's values after Fusion, top first.
    odd : bool
        Whether the game (all components) has an odd number of coins.
    component : int
        The component's number, written into the recorded steps.
    steps : list, optional
        Where each ``FruitlessStep`` is appended.

    Returns
    -------
    (list of Segment, number or None)
        What is left of the stack (non-increasing from its top) and the total added (None
        when nothing was dropped).

    Cost: O(k) for k reduced values.
    """
    top = len(reduced)
    total: Any = None
    while top >= 2 and reduced[top - 2].value <= reduced[top - 1].value:
        x, middle = reduced[top - 2], reduced[top - 1]
        t = x.value - middle.value
        amount = -t if odd else t
        total = amount if total is None else total + amount
        if steps is not None:
            steps.append(FruitlessStep(component, x, middle, amount))
        top -= 2
    return reduced[:top], total
