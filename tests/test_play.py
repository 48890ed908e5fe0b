"""Optimal play: every move of play()/Game.play() is optimal where it is made (DP, brute force)."""

from __future__ import annotations

import random
import re
from array import array
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from coinsrow import Engine, Game, Move, _core, best_move, play, value

from checks import check_best_moves_follow_the_play
from generators import SMALL_STYLES, random_game, random_row
from modes import drawn, machine_only
from oracles import brute_solver, dp_table


def _check_row_play(row, order):
    """Each taken coin is at an end, and taking it achieves the DP value of the position."""
    d = dp_table(row)
    i, j = 0, len(row)
    assert len(order) == len(row)
    for p in order:
        if p == i:
            assert row[i] - d[i + 1][j] == d[i][j], (row, i, j, "left")
            i += 1
        elif p == j - 1:
            assert row[j - 1] - d[i][j - 1] == d[i][j], (row, i, j, "right")
            j -= 1
        else:
            raise AssertionError(f"coin {p} is not at an end of row[{i}:{j}]")
    assert i == j


def test_play_of_long_random_rows_is_optimal_at_every_move():
    rng = random.Random(42)
    for _ in range(25):
        row = random_row(rng, rng.randint(150, 300))
        order = play(row)
        assert isinstance(order, array) and order.typecode == "q"
        _check_row_play(row, list(order))


@machine_only
def test_play_kernel_answers_where_only_the_value_overflows():
    """int64 play compares exact entries and adds nothing: where the value's sums overflow
    int64 but no Fusion does, the kernel still answers (OK) with the exact twin's moves;
    where a Fusion overflows, it says so and the library's play is still the twin's."""
    rng = random.Random(4242)
    for _ in range(40):
        n = rng.randint(3, 300)
        # Coins near 2^62: sums of a few of them overflow, a Fusion x - M + v may too.
        row = [2**62 + rng.randrange(-(2**60), 2**60) for _ in range(n)]
        if rng.random() < 0.5:
            row.sort(reverse=rng.random() < 0.5)  # sorted: nothing fuses
        arr = np.array(row, dtype=np.int64)
        want = list(_core.row_play_exact(row, 1, 1)[1])
        status, moves = _core.row_play(arr, 1, 1)
        if len(set(row)) == n and (row == sorted(row) or row == sorted(row, reverse=True)):
            assert status == _core.Status.OK
        if status == _core.Status.OK:
            assert list(moves) == want
        else:
            assert status == _core.Status.OVERFLOW
        assert list(play(arr)) == want == list(play(row))
        if n <= 60:
            _check_row_play(row, want)


def test_play_of_many_short_rows_is_optimal_at_every_move():
    rng = random.Random(43)
    for _ in range(3000):
        row = random_row(rng, rng.randint(0, 14))
        _check_row_play(row, list(play(row)))


@given(st.lists(st.integers(-6, 6), max_size=30))
def test_play_is_optimal_hypothesis(row):
    _check_row_play(row, list(play(row)))


def test_play_on_other_number_types():
    rng = random.Random(44)
    for _ in range(200):
        ints = random_row(rng, rng.randint(0, 20), SMALL_STYLES)
        for row in (ints, [Fraction(x, 3) for x in ints], [x * 2**70 for x in ints],
                    np.array(ints, dtype=np.int32)):
            _check_row_play(list(row), list(play(row)))
        floats = [x / 4 for x in ints]  # exact in binary: comparisons stay exact
        _check_row_play(floats, list(play(floats)))


def test_play_textbook_example():
    # 1, 2, 1000, 3, 4, 900 -- the first player takes 900, then 1 and 1000.
    row = [1, 2, 1000, 3, 4, 900]
    order = list(play(row))
    assert [row[p] for p in order[0::2]] == [900, 1, 1000]
    _check_row_play(row, order)


@pytest.mark.slow
@given(st.lists(st.integers(-5, 5), max_size=25))
def test_best_move_is_the_first_move_of_play_and_optimal(row):
    """One tie rule: best_move(row) is play(row)'s first move, the Engine's and the Game's
    (the end whose end block of the reduced row is larger, left on equal blocks)."""
    if not row:
        with pytest.raises(ValueError, match="the row is empty: there is no move"):
            best_move(row)
        return
    d = dp_table(row)
    n = len(row)
    move = best_move(row)
    assert move == ("left" if play(row)[0] == 0 else "right")
    assert move == Engine(row).best_move().end
    assert move == Game(rows=[row]).best_move().end
    worth = row[0] - d[1][n] if move == "left" else row[-1] - d[0][n - 1]
    assert worth == d[0][n]


# -- games of rows and stacks ------------------------------------------------------------------


def _check_game_play(rows, stacks, moves):
    solve = brute_solver(rows, stacks)
    bounds = [(0, len(r)) for r in rows]
    tops = [0] * len(stacks)
    assert len(moves) == sum(map(len, rows)) + sum(map(len, stacks))
    for m in moves:
        here = solve(tuple(bounds), tuple(tops))
        if m.kind == "row":
            i, j = bounds[m.index]
            assert m.end in ("left", "right")
            p = i if m.end == "left" else j - 1
            assert i < j and m.position == p and m.coin == rows[m.index][p]
            bounds[m.index] = (i + 1, j) if m.end == "left" else (i, j - 1)
        else:
            t = tops[m.index]
            assert m.end == "top" and m.position == t and m.coin == stacks[m.index][t]
            tops[m.index] = t + 1
        assert m.coin - solve(tuple(bounds), tuple(tops)) == here, (rows, stacks, m)


@pytest.mark.slow
def test_game_play_is_optimal_at_every_move_against_brute_force():
    rng = random.Random(45)
    for trial in range(drawn(1000)):
        rows, stacks = random_game(rng, 11, *((0, 2) if trial % 3 == 0 else (-4, 4)))
        _check_game_play(rows, stacks, Game(rows=rows, stacks=stacks).play())


def test_stacks_only_play_is_optimal():
    rng = random.Random(46)
    for _ in range(1500):
        stacks = [[rng.randint(-3, 3) for _ in range(rng.randint(0, 5))]
                  for _ in range(rng.randint(1, 3))]
        _check_game_play([], stacks, Game(stacks=stacks).play())


def test_big_int_game_play_is_optimal():
    rng = random.Random(47)
    for _ in range(300):
        rows, stacks = random_game(rng, 9)
        scale = 2**63 - 5
        rows = [[x * scale for x in r] for r in rows]
        stacks = [[x * scale for x in s] for s in stacks]
        _check_game_play(rows, stacks, Game(rows=rows, stacks=stacks).play())


# -- playing through a Game --------------------------------------------------------------------


def test_best_move_and_take_follow_the_line():
    rng = random.Random(48)
    for _ in range(500):
        rows, stacks = random_game(rng, 10)
        check_best_moves_follow_the_play(Game(rows=rows, stacks=stacks))


@pytest.mark.slow
def test_take_off_the_line_recomputes_an_optimal_line():
    rng = random.Random(49)
    for _ in range(400):
        rows, stacks = random_game(rng, 10)
        g = Game(rows=rows, stacks=stacks)
        solve = brute_solver(rows, stacks)
        while len(g):
            m = rng.choice(g.moves())  # any legal move, often not the line's
            g = g.take(m)
            if len(g):
                best = g.best_move()
                after = g.take(best)
                assert best.coin - after.value() == g.value()
                assert g.value() == solve(*_state(g, rows, stacks))


def _state(g, rows, stacks):
    """The (bounds, tops) of a Game's position in the original rows and stacks."""
    bounds = []
    for i, rest in enumerate(g.rows):
        row = rows[i]
        for start in range(len(row) - len(rest) + 1):
            if tuple(row[start:start + len(rest)]) == rest:
                break
        bounds.append((start, start + len(rest)))
    tops = tuple(len(s) - len(rest) for s, rest in zip(stacks, g.stacks))
    return tuple(bounds), tops


def test_take_rejects_illegal_moves():
    g = Game(rows=[[1, 2, 3]], stacks=[[4, 5]])
    bad = [
        (Move("row", 0, "left", 1, 2), "the coin there is"),  # not the coin at that end
        (Move("row", 0, "left", 0, 9), "the coin there is"),  # wrong coin value
        (Move("row", 1, "left", 0, 1), "no such 'row' with index 1"),
        (Move("row", 0, "top", 0, 1), "a row's end is 'left' or 'right'"),
        (Move("stack", 0, "left", 0, 4), "a stack is taken from its 'top'"),
        (Move("stack", 0, "top", 1, 5), "the coin there is"),  # not the top
        (Move("tree", 0, "root", 0, 1), "this game has no forest"),
        (("row", 0), "('row', 0) is not a Move(kind, index, end, position, coin)"),
        ("left", "'left' names an end of a one-row game"),
        (None, "None is not a Move(kind, index, end, position, coin)"),
    ]
    for move, message in bad:
        with pytest.raises(ValueError, match=re.escape(message)):
            g.take(move)
    assert g.rows == ((1, 2, 3),) and g.stacks == ((4, 5),)
    empty = Game(rows=[[]])
    with pytest.raises(ValueError, match="empty"):
        empty.take(Move("row", 0, "left", 0, 1))


def test_take_shares_the_coins_and_keeps_the_original():
    g = Game(rows=[[5, 1, 7]], stacks=[[2, 9]])
    h = g.take(Move("row", 0, "right", 2, 7)).take(Move("stack", 0, "top", 0, 2))
    assert h.rows == ((5, 1),) and h.stacks == ((9,),) and len(h) == 3
    assert g.rows == ((5, 1, 7),) and g.stacks == ((2, 9),) and len(g) == 5
    assert h._coins is g._coins  # a view on the same coins, not a copy
    assert h.moves() == [Move("row", 0, "left", 0, 5), Move("row", 0, "right", 1, 1),
                         Move("stack", 0, "top", 1, 9)]


def test_game_play_single_row_matches_play():
    rng = random.Random(50)
    for _ in range(200):
        row = random_row(rng, rng.randint(0, 40))
        assert [m.position for m in Game(rows=[row]).play()] == list(play(row))
        assert Game(rows=[row]).value() == value(row)
