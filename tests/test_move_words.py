"""``_moves.move_words``: the one place a move is put into words, in its three styles, and
the outputs that use it (the command line's table and best move, the web page, play)."""

from __future__ import annotations

import random

import pytest

import coinsrow
from coinsrow import Move
from coinsrow._cli_output import describe_move, table
from coinsrow._moves import move_words

from generators import random_forest, random_game

EXPECTED = {
    ("row", 2, "left"): ("the left end of row 2", "row 2 left", "row 2 left", "left end"),
    ("row", 0, "right"): ("the right end of row 0", "row 0 right", "row 0 right", "right end"),
    ("stack", 1, "top"): ("the top of stack 1", "stack 1 top", "stack 1", "stack 1"),
    ("tree", 7, "root"): ("the root node 7 of the forest", "tree node 7", "node 7", "node 7"),
}


@pytest.mark.parametrize("key", EXPECTED)
def test_each_style_of_each_kind_of_move(key):
    kind, index, end = key
    move = Move(kind, index, end, 3, 5)
    phrase, column, command, one_row = EXPECTED[key]
    assert move_words(move) == phrase
    assert move_words(move, "phrase") == phrase
    assert move_words(move, "column") == column
    assert move_words(move, "command") == command
    assert move_words(move, "command", one_row=True) == one_row


def test_the_outputs_name_every_move_of_random_games_with_it():
    rng = random.Random(5)
    checked = 0
    for _ in range(40):
        rows, stacks = random_game(rng, 12)
        forest = random_forest(rng, rng.randint(0, 6)) if rng.random() < 0.5 else None
        game = coinsrow.Game(rows=rows, stacks=stacks, forest=forest)
        if not len(game):
            continue
        best = game.best_move()
        taken = "at" if best.kind == "tree" else "from"
        assert describe_move(best) == f"take {best.coin} {taken} {move_words(best)}"
        page = game.to_html()
        lines = list(table(game.play, len(game), 0, abbreviate=False))[1:]
        for line, move in zip(lines, game.play(), strict=True):
            assert f"  {move_words(move, 'column')}  " in line
            assert move_words(move) in page
            checked += 1
    assert checked >= 100
