"""The tie rule the documentation states for one row (docs/guide/rows.md, "Which optimal
move"): the best move is at the end whose block of the reduced row (every Fusion
``x <= M > y`` done) is larger, the left end when the two blocks are equal; it is always an
optimal move (the DP agrees), and ``play``, ``Game`` and ``Engine`` make it too."""

from __future__ import annotations

import random
from decimal import Decimal
from fractions import Fraction

from coinsrow import Engine, Game, best_move, play

from oracles import dp_value


def reduced(row: list) -> list:
    """The row after every Fusion x <= M > y (strict on the right), as the docs state it."""
    stack: list = []
    for coin in row:
        stack.append(coin)
        while len(stack) >= 3 and stack[-3] <= stack[-2] > stack[-1]:
            x, m, y = stack[-3:]
            del stack[-3:]
            stack.append(x - m + y)
    return stack


def stated_rule(row: list) -> str:
    blocks = reduced(row)
    return "left" if blocks[0] >= blocks[-1] else "right"


def test_the_example_of_the_documentation():
    row = [0, -1, 1, 1]
    # both ends are worth 1 ...
    assert row[0] - dp_value(row[1:]) == row[-1] - dp_value(row[:-1]) == dp_value(row) == 1
    # ... and the end blocks are 0 and 1: the right end
    assert reduced(row) == [0, -1, 1, 1]
    assert best_move(row) == "right" == stated_rule(row)
    assert best_move([1, -1, 1, 1]) == "left" and best_move([2, 5, 2]) == "left"


def test_the_stated_rule_on_random_rows_with_ties():
    rng = random.Random(12)
    both_optimal = 0
    converts = (lambda x: x, float, Fraction, lambda x: Decimal(x) / 4, lambda x: x * 2**70)
    for k in range(2000):
        row = [rng.randint(-3, 3) for _ in range(rng.randint(1, 9))]
        row = [converts[k % len(converts)](x) for x in row]
        exact = [Fraction(x) for x in row]
        move = best_move(row)
        assert move == stated_rule(exact), row
        worth = {"left": exact[0] - dp_value(exact[1:]),
                 "right": exact[-1] - dp_value(exact[:-1])}
        assert worth[move] == dp_value(exact), row  # always an optimal move
        both_optimal += worth["left"] == worth["right"]
        first = play(row)[0]
        assert first == (0 if move == "left" else len(row) - 1)
        assert Game(rows=[row]).best_move().end == move
        assert Engine(row).best_move().end == move
    assert both_optimal > 250  # the rule decides between two optimal moves often
