"""Rooted forests (a move takes a root), alone and mixed with rows and stacks: small forests.

Values against exhaustive minimax on thousands of small positions; every move of play()
optimal; the best move a function of the position (the one tie rule); forests of paths
against Game(stacks=...); exact number types and floats that overflow; the Game API with a
forest; input checks. Larger forests and the kernels themselves: test_forest_kernels.py.
"""

from __future__ import annotations

import random
from array import array
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from coinsrow import Game, Move, _core
from coinsrow._game import where

from checks import check_best_moves_follow_the_play, check_forest_play, rounded
from generators import random_forest_position, random_parents, relabelled, small_coins
from modes import drawn
from oracles import after_move, brute_forest_solver, brute_forest_value, brute_value

# -- small positions against minimax --------------------------------------------------------


@pytest.mark.slow
def test_value_and_play_against_minimax_on_many_small_mixed_positions():
    rng = random.Random(2024)
    for _ in range(drawn(800)):
        rows, stacks, values, parents = random_forest_position(rng, 8)
        game = Game(rows=rows, stacks=stacks, forest=(values, parents))
        expected = brute_forest_value(rows, stacks, values, parents)
        assert game.value() == expected, (rows, stacks, values, parents)
        total = sum(map(sum, rows)) + sum(map(sum, stacks)) + sum(values)
        first, second = game.profits()
        assert first + second == total and first - second == expected
        check_forest_play(rows, stacks, values, parents, game.play())


@pytest.mark.slow
def test_value_and_play_against_minimax_on_forests_of_up_to_12_nodes():
    rng = random.Random(7)
    for _ in range(drawn(150)):
        n = rng.randint(9, 12)
        values = small_coins(rng, n)
        parents = random_parents(rng, n)
        rows, stacks = [], []
        if rng.random() < 0.4:
            rows = [small_coins(rng, rng.randint(1, 3))]
        if rng.random() < 0.4:
            stacks = [small_coins(rng, rng.randint(1, 2))]
        game = Game(rows=rows, stacks=stacks, forest=(values, parents))
        assert game.value() == brute_forest_value(rows, stacks, values, parents)
        check_forest_play(rows, stacks, values, parents, game.play())


def test_best_move_and_take_follow_the_play():
    rng = random.Random(11)
    for _ in range(300):
        rows, stacks, values, parents = random_forest_position(rng, 9)
        game = Game(rows=rows, stacks=stacks, forest=(values, parents))
        assert check_best_moves_follow_the_play(game).forest == ((), ())


def test_following_the_line_never_copies_the_forest():
    """best_move/take along the optimal line: O(1) per tree move, no O(n) copy of the mask."""
    rng = random.Random(16)
    for _ in range(20):
        rows, stacks, values, parents = random_forest_position(rng, 400)
        game = Game(rows=[r * 5 for r in rows], stacks=stacks, forest=(values, parents))
        initial = game._forest._removed_base
        position = game
        while len(position):
            position = position.take(position.best_move())
            assert position._forest._removed_base is initial
        assert position.forest == ((), ())


@pytest.mark.slow
def test_best_move_is_optimal_after_leaving_the_line():
    """Random moves by either side, then an optimal move: optimal at every position."""
    rng = random.Random(12)
    for _ in range(drawn(300)):
        rows, stacks, values, parents = random_forest_position(rng, 9)
        solve = brute_forest_solver(rows, stacks, values, parents)
        position = Game(rows=rows, stacks=stacks, forest=(values, parents))
        state = (tuple((0, len(r)) for r in rows), tuple(0 for _ in stacks),
                 (1 << len(values)) - 1)
        while len(position):
            legal = position.moves()
            move = rng.choice(legal) if rng.random() < 0.4 else position.best_move()
            assert move in legal
            state_after = after_move(state, move)
            if move == position.best_move():
                assert move.coin - solve(*state_after) == solve(*state)
            position = position.take(move)
            state = state_after
            assert position.value() == solve(*state)


@pytest.mark.slow
@given(
    st.lists(st.tuples(st.integers(-4, 4), st.integers(-1, 9)), max_size=10),
    st.lists(st.lists(st.integers(-4, 4), max_size=3), max_size=2),
    st.lists(st.lists(st.integers(-4, 4), max_size=3), max_size=1),
)
def test_value_against_minimax_hypothesis(nodes, rows, stacks):
    values = [v for v, _ in nodes]
    # Parent indices below the node make any list a forest.
    parents = [p if 0 <= p < i else -1 for i, (_, p) in enumerate(nodes)]
    game = Game(rows=rows, stacks=stacks, forest=(values, parents))
    assert game.value() == brute_forest_value(rows, stacks, values, parents)


# -- paths are stacks ------------------------------------------------------------------------


def _paths(stacks, rng=None):
    """One forest made of the given stacks as paths (top = root), optionally relabelled."""
    values, parents = [], []
    for stack in stacks:
        base = len(values)
        for i, coin in enumerate(stack):
            values.append(coin)
            parents.append(-1 if i == 0 else base + i - 1)
    if rng is None:
        return values, parents
    return relabelled(values, parents, rng.sample(range(len(values)), len(values)))


def test_forests_of_paths_agree_with_stacks():
    rng = random.Random(5)
    for _ in range(600):
        stacks = [small_coins(rng, rng.randint(0, 60)) for _ in range(rng.randint(1, 6))]
        rows = [small_coins(rng, rng.randint(0, 40)) for _ in range(rng.randint(0, 2))]
        forest = _paths(stacks, rng if rng.random() < 0.5 else None)
        expected = Game(rows=rows, stacks=stacks)
        game = Game(rows=rows, forest=forest)
        assert game.value() == expected.value()
        assert game.profits() == expected.profits()
        assert len(game) == len(expected)
        # The play reaches the same total for the player to move.
        moves = game.play()
        first = sum(m.coin for m in moves[0::2])
        assert first == expected.profits().first


def test_small_forests_of_paths_against_stack_minimax():
    rng = random.Random(6)
    for _ in range(400):
        stacks = [small_coins(rng, rng.randint(0, 4)) for _ in range(rng.randint(1, 3))]
        values, parents = _paths(stacks, rng)
        assert Game(forest=(values, parents)).value() == brute_value([], stacks)


def test_one_long_path_is_one_stack():
    rng = random.Random(8)
    for n in (1, 2, 3, 10, 1000, 5000):
        stack = small_coins(rng, n)
        forest = (stack, [-1] + list(range(n - 1)))
        assert Game(forest=forest).value() == Game(stacks=[stack]).value()


# -- number types and exactness --------------------------------------------------------------


@pytest.mark.slow
def test_exact_types_and_int64_overflow():
    rng = random.Random(9)
    for _ in range(drawn(300)):
        rows, stacks, values, parents = random_forest_position(rng, 8)
        expected = brute_forest_value(rows, stacks, values, parents)
        big = 2**62
        game = Game(rows=[[x * big for x in r] for r in rows],
                    stacks=[[x * big for x in s] for s in stacks],
                    forest=([x * big for x in values], parents))
        result = game.value()
        assert type(result) is int and result == expected * big
        fraction = Game(rows=rows, stacks=stacks,
                        forest=([Fraction(x, 3) for x in values], parents)).value()
        assert type(fraction) is (Fraction if values else int)
        assert fraction == brute_forest_value(rows, stacks, [Fraction(x, 3) for x in values],
                                              parents)
        decimal = Game(forest=([Decimal(x) / 4 for x in values], parents)).value()
        assert type(decimal) is (Decimal if values else int)
        assert decimal == brute_forest_value([], [], [Decimal(x) / 4 for x in values], parents)
        floats = Game(rows=rows, forest=([x / 4 for x in values], parents)).value()
        assert type(floats) is (float if values else int)
        assert floats == brute_forest_value(rows, [], [x / 4 for x in values], parents)


@pytest.mark.slow
def test_play_on_exact_and_overflowing_coins_is_optimal():
    rng = random.Random(10)
    for _ in range(drawn(150)):
        rows, stacks, values, parents = random_forest_position(rng, 8)
        big = [x * 2**62 for x in values]
        check_forest_play(rows, stacks, big, parents,
                            Game(rows=rows, stacks=stacks, forest=(big, parents)).play())
        thirds = [Fraction(x, 3) for x in values]
        check_forest_play(rows, stacks, thirds, parents,
                            Game(rows=rows, stacks=stacks, forest=(thirds, parents)).play())


def test_the_machine_and_the_exact_kernels_play_the_same_line():
    rng = random.Random(13)
    for _ in range(200):
        rows, stacks, values, parents = random_forest_position(rng, 30)
        machine = Game(rows=rows, stacks=stacks, forest=(values, parents)).play()
        exact = Game(rows=rows, stacks=stacks,
                     forest=([Fraction(x) for x in values], parents)).play()
        assert [(m.kind, m.index, m.position) for m in machine] == \
               [(m.kind, m.index, m.position) for m in exact]


def test_numpy_and_buffers():
    rng = random.Random(14)
    values = small_coins(rng, 50)
    parents = random_parents(rng, 50)
    expected = Game(forest=(values, parents)).value()
    for v, p in ((np.array(values), np.array(parents)),
                 (np.array(values, dtype=np.int32), np.array(parents, dtype=np.int16)),
                 (np.array(values, dtype=np.float64), np.array(parents, dtype=np.int64)),
                 (tuple(values), tuple(parents)),
                 (iter(values), iter(parents))):
        assert Game(forest=(v, p)).value() == expected
    assert Game(forest={"values": values, "parents": parents}).value() == expected
    assert type(Game(forest=(np.array(values, dtype=np.float64), parents)).value()) is float


def test_inputs_are_not_mutated():
    values, parents = [3, 1, 4, 1, 5], [-1, 0, 0, 2, -1]
    arr_values, arr_parents = np.array(values), np.array(parents)
    game = Game(forest=(arr_values, arr_parents))
    while len(game):
        game = game.take(game.best_move())
    assert values == [3, 1, 4, 1, 5] and parents == [-1, 0, 0, 2, -1]
    assert arr_values.tolist() == values and arr_parents.tolist() == parents


@pytest.mark.slow
def test_overflowing_floats_are_solved_exactly():
    """Coins near the top of the float range: a sum that overflows is redone exactly and
    rounded once (multiples of 2^1018: every sum that does not overflow is exact too)."""
    rng = random.Random(35)
    overflowed, positions = 0, drawn(300)
    for _ in range(positions):
        rows, stacks, values, parents = random_forest_position(rng, 7)
        if not values:
            continue
        huge = [x * 2.0**1018 for x in values]
        rows = [[x * 2.0**1018 for x in row] for row in rows]
        stacks = [[x * 2.0**1018 for x in stack] for stack in stacks]
        exact = brute_forest_value([[Fraction(x) for x in row] for row in rows],
                                   [[Fraction(x) for x in stack] for stack in stacks],
                                   [Fraction(x) for x in huge], parents)
        game = Game(rows=rows, stacks=stacks, forest=(huge, parents))
        assert game.value() == rounded(exact)
        overflowed += _core.forest_value(
            array("d", huge), array("q"), array("q"), 0, 0, array("q", parents),
            array("B", bytes(len(huge))))[0] == _core.Status.OVERFLOW
        check_forest_play([[Fraction(x) for x in row] for row in rows],
                            [[Fraction(x) for x in stack] for stack in stacks],
                            [Fraction(x) for x in huge], parents,
                            [m._replace(coin=Fraction(m.coin)) for m in game.play()])
    assert overflowed > positions // 50  # some sums overflow (14 of the 300 positions in CI)


# -- the Game API with a forest --------------------------------------------------------------


def test_moves_are_the_roots():
    game = Game(rows=[[1, 2]], forest=([5, 6, 7, 8], [-1, 0, 0, 2]))
    trees = [m for m in game.moves() if m.kind == "tree"]
    assert trees == [Move("tree", 0, "root", 0, 5)]
    game = game.take(trees[0])
    trees = [m for m in game.moves() if m.kind == "tree"]
    assert trees == [Move("tree", 1, "root", 1, 6), Move("tree", 2, "root", 2, 7)]
    game = game.take(trees[1])
    assert [m.index for m in game.moves() if m.kind == "tree"] == [1, 3]
    assert game.forest == ((6, 8), (-1, -1))
    assert len(game) == 4


def test_illegal_forest_moves():
    game = Game(stacks=[[1]], forest=([5, 6, 7], [-1, 0, 0]))
    for move, message in (
        (Move("tree", 1, "root", 1, 6), "not a root"),
        (Move("tree", 3, "root", 3, 6), "no node"),
        (Move("tree", -1, "root", -1, 6), "no node"),
        (Move("tree", 0, "top", 0, 5), "root"),
        (Move("tree", 0, "root", 0, 6), "coin there"),
        (Move("tree", 0, "root", 1, 5), "coin there"),
        (Move("tree", True, "root", 0, 5), "index must be an integer"),
    ):
        with pytest.raises(ValueError, match=message):
            game.take(move)
    after = game.take(Move("tree", 0, "root", 0, 5))
    with pytest.raises(ValueError, match="already taken"):
        after.take(Move("tree", 0, "root", 0, 5))
    with pytest.raises(ValueError, match="no forest"):
        Game(rows=[[1]]).take(Move("tree", 0, "root", 0, 1))


def test_equality_hash_and_the_remaining_forest():
    values, parents = [4, 4, 2, 9], [-1, -1, 0, 1]
    game = Game(forest=(values, parents))
    a = game.take(Move("tree", 0, "root", 0, 4)).take(Move("tree", 1, "root", 1, 4))
    b = game.take(Move("tree", 1, "root", 1, 4)).take(Move("tree", 0, "root", 0, 4))
    assert a == b and hash(a) == hash(b)
    assert a.forest == ((2, 9), (-1, -1))
    assert a == Game(forest=a.forest)
    assert a != game and game != Game(forest=([4, 4, 2, 9], [-1, -1, 0, -1]))
    assert Game(rows=[[1]]).forest is None
    assert Game(rows=[[1]]) != Game(rows=[[1]], forest=([], []))
    assert "forest=([4, 4, 2, 9], [-1, -1, 0, 1])" in repr(game)
    assert Game(rows=[[1, 2]]) == Game(rows=[[1, 2]])  # rows/stacks keys unchanged


def test_positions_rebuilt_from_forest_have_the_same_value():
    rng = random.Random(15)
    for _ in range(200):
        rows, stacks, values, parents = random_forest_position(rng, 12)
        game = Game(rows=rows, stacks=stacks, forest=(values, parents))
        for _ in range(rng.randint(0, len(game))):
            game = game.take(rng.choice(game.moves()))
        rebuilt = Game(rows=game.rows, stacks=game.stacks, forest=game.forest)
        assert rebuilt.value() == game.value()
        assert rebuilt.profits() == game.profits()
        assert len(rebuilt) == len(game)


def test_empty_forests():
    assert Game(forest=([], [])).value() == 0
    assert Game(forest=([], [])).play() == []
    assert len(Game(forest=([], []))) == 0
    assert Game(rows=[[3, 1]], forest=([], [])).value() == 2
    assert Game(forest=([7], [-1])).profits() == (7, 0)


# -- input checks ----------------------------------------------------------------------------


@pytest.mark.parametrize("forest, error, message", [
    (([1, 2], [-1]), ValueError, "2 values but 1 parents"),
    (([1, 2], [-1, 2]), ValueError, "parent of node 1 is 2"),
    (([1, 2], [-1, -2]), ValueError, "parent of node 1 is -2"),
    (([1, 2], [-1, 2**70]), ValueError, "parent of node 1"),
    (([1, 2], [0, 1]), ValueError, "node 0 is its own ancestor"),
    (([1, 2, 3], [-1, 2, 1]), ValueError, r"node (1|2) is its own ancestor"),
    (([1, 2, 3, 4], [-1, 0, 3, 2]), ValueError, r"node (2|3) is its own ancestor"),
    (([1, 2, 3], [1, 2, 0]), ValueError, "its own ancestor"),
    (([1, 2], [-1, 0.0]), TypeError, "parent of node 1 is 0.0"),
    (([1, 2], [-1, True]), TypeError, "parent of node 1 is True"),
    (([1, 2], [-1, "0"]), TypeError, "parent of node 1"),
    (([1, 2], "ab"), TypeError, "parents"),
    (([1, 2], np.array([-1.0, 0.0])), TypeError, "dtype"),
    (([1, 2], np.array([[-1, 0]])), ValueError, "1-dimensional"),
    (([1, 2], np.array([0, 5], dtype=np.uint64)), ValueError, "parent of node 1 is 5"),
    (([1, float("nan")], [-1, 0]), ValueError, "forest: coin at node 1 is nan"),
    (([1.5, float("inf")], [-1, -1]), ValueError, "forest: coin at node 1 is inf"),
    (([1, "x"], [-1, 0]), TypeError, "forest: coin at index 1"),
    (([1, None], [-1, 0]), TypeError, "forest: coin at index 1"),
    (([1, 2],), ValueError, "pair"),
    (5, TypeError, "forest is 5"),
    ({"values": [1]}, ValueError, "'values' and 'parents'"),
])
def test_bad_forests(forest, error, message):
    with pytest.raises(error, match=message):
        Game(forest=forest).value()  # like rows, NaN and inf are found by the kernel


def test_nan_in_numpy_values_is_reported_by_node():
    values = np.array([1.0, 2.0, np.nan])
    with pytest.raises(ValueError, match="node 2"):
        Game(forest=(values, [-1, 0, 1])).value()
    with pytest.raises(ValueError, match="row 0: coin at index 1"):
        Game(rows=[np.array([1.0, np.inf])], forest=([1.0], [-1])).value()


# -- the one tie rule: the best move is a function of the position ---------------------------


def _fresh(game: Game) -> Game:
    """The same position built from scratch (the forest's nodes numbered again, in order)."""
    return Game(rows=game.rows, stacks=game.stacks, forest=game.forest)


def _as_fresh(game: Game, move: Move) -> tuple:
    """What identifies ``move`` in ``_fresh(game)``: a node by its rank among the nodes left,
    a row's or stack's coin by its end (positions count from the original first coin)."""
    if move.kind == "tree":
        removed = where(game).forest.removed()
        return ("tree", sum(1 for i in range(move.index) if not removed[i]), move.coin)
    return (move.kind, move.index, move.end, move.coin)


def test_best_move_is_a_function_of_the_position():
    """Along any game (random moves and best moves), the best move of a position reached by
    take() is the best move of the same position built from scratch, and the first move of
    both positions' play()."""
    rng = random.Random(30)
    for _ in range(drawn(400)):
        rows, stacks, values, parents = random_forest_position(rng, 9)
        if rng.random() < 0.3:
            values = [Fraction(x, 2) for x in values]
        game = Game(rows=rows, stacks=stacks, forest=(values, parents))
        while len(game):
            best = game.best_move()
            fresh = _fresh(game)
            assert _as_fresh(game, best) == _as_fresh(fresh, fresh.best_move()), (
                rows, stacks, values, parents, game)
            assert game.play()[0] == best
            assert fresh.play()[0] == fresh.best_move()
            legal = game.moves()
            game = game.take(best if rng.random() < 0.6 else rng.choice(legal))


def test_the_play_repeats_the_rule():
    """play()[t] is the best move of the position after the first t moves, rebuilt."""
    rng = random.Random(31)
    for _ in range(300):
        rows, stacks, values, parents = random_forest_position(rng, 10)
        game = Game(rows=rows, stacks=stacks, forest=(values, parents))
        position = game
        for move in game.play():
            fresh = _fresh(position)
            assert _as_fresh(position, move) == _as_fresh(fresh, fresh.best_move())
            position = position.take(move)
