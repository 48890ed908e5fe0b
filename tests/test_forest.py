"""Rooted forests (a move takes a root), alone and mixed with rows and stacks.

Values against exhaustive minimax on thousands of small positions; every move of play()
optimal; the best move a function of the position (the one tie rule); larger forests of
every shape and numbering against the global form of block merging; forests of paths against
Game(stacks=...); the kernels against their exact twins; exact number types; Ctrl-C; input
checks.
"""

from __future__ import annotations

import os
import random
import signal
import struct
import subprocess
import sys
import threading
import time
from array import array
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
from alarms import raised_in, stop_after
from hypothesis import given
from hypothesis import strategies as st

from coinsrow import Game, Move, _core
from coinsrow._dispatch import EXACT
from coinsrow._game import where

from generators import random_parents
from modes import scaled
from oracles import after_move, brute_forest_solver, brute_forest_value, brute_value

# The files an interrupt of a forest kernel may land in: the kernels' module, its steps' and
# the exact twins'.
_FOREST_FILES = ("_forest.pyx", "_forest_blocks.pyx", "_forest_play.pyx", "_sort.pyx",
                 "_forest_exact.pyx")

# -- random positions ----------------------------------------------------------------------


def _random_values(rng: random.Random, n: int) -> list[int]:
    style = rng.randrange(4)
    if style == 0:
        return [rng.randint(-5, 5) for _ in range(n)]
    if style == 1:
        return [rng.randint(0, 2) for _ in range(n)]  # many ties
    if style == 2:
        return [rng.choice([-1, 0, 1]) for _ in range(n)]
    return [rng.randint(-40, 40) for _ in range(n)]


def _random_position(rng: random.Random, max_nodes: int, extras: bool = True):
    n = rng.randint(0, max_nodes)
    values = _random_values(rng, n)
    parents = random_parents(rng, n)
    rows, stacks = [], []
    if extras:  # a few coins: the minimax's states multiply
        rows = [_random_values(rng, rng.randint(0, size)) for size in rng.choice(
            [(), (4,), (3, 2), (1,)])]
        stacks = [_random_values(rng, rng.randint(0, size)) for size in rng.choice(
            [(), (3,), (2, 2)])]
    return rows, stacks, values, parents


# -- checking a play against minimax ----------------------------------------------------------


def _check_play_optimal(rows, stacks, values, parents, moves):
    """Every move is legal and achieves the minimax value of the position where it is made."""
    solve = brute_forest_solver(rows, stacks, values, parents)
    bounds = tuple((0, len(r)) for r in rows)
    tops = tuple(0 for _ in stacks)
    present = (1 << len(values)) - 1
    assert len(moves) == sum(map(len, rows)) + sum(map(len, stacks)) + len(values)
    for move in moves:
        before = solve(bounds, tops, present)
        if move.kind == "row":
            i, j = bounds[move.index]
            if move.end == "left":
                assert move.position == i
                bounds = bounds[:move.index] + ((i + 1, j),) + bounds[move.index + 1:]
            else:
                assert move.end == "right" and move.position == j - 1
                bounds = bounds[:move.index] + ((i, j - 1),) + bounds[move.index + 1:]
            assert move.coin == rows[move.index][move.position]
        elif move.kind == "stack":
            assert move.end == "top" and move.position == tops[move.index]
            assert move.coin == stacks[move.index][move.position]
            tops = tops[:move.index] + (tops[move.index] + 1,) + tops[move.index + 1:]
        else:
            node = move.index
            assert move.kind == "tree" and move.end == "root" and move.position == node
            assert present >> node & 1, f"node {node} taken twice"
            p = parents[node]
            assert p < 0 or not present >> p & 1, f"node {node} taken before its parent"
            assert move.coin == values[node]
            present ^= 1 << node
        after = solve(bounds, tops, present)
        assert move.coin - after == before, (rows, stacks, values, parents, move)
    assert present == 0


@pytest.mark.slow
def test_value_and_play_against_minimax_on_many_small_mixed_positions():
    rng = random.Random(2024)
    for _ in range(800):
        rows, stacks, values, parents = _random_position(rng, 8)
        game = Game(rows=rows, stacks=stacks, forest=(values, parents))
        expected = brute_forest_value(rows, stacks, values, parents)
        assert game.value() == expected, (rows, stacks, values, parents)
        total = sum(map(sum, rows)) + sum(map(sum, stacks)) + sum(values)
        first, second = game.profits()
        assert first + second == total and first - second == expected
        _check_play_optimal(rows, stacks, values, parents, game.play())


@pytest.mark.slow
def test_value_and_play_against_minimax_on_forests_of_up_to_12_nodes():
    rng = random.Random(7)
    for _ in range(150):
        n = rng.randint(9, 12)
        values = _random_values(rng, n)
        parents = random_parents(rng, n)
        rows, stacks = [], []
        if rng.random() < 0.4:
            rows = [_random_values(rng, rng.randint(1, 3))]
        if rng.random() < 0.4:
            stacks = [_random_values(rng, rng.randint(1, 2))]
        game = Game(rows=rows, stacks=stacks, forest=(values, parents))
        assert game.value() == brute_forest_value(rows, stacks, values, parents)
        _check_play_optimal(rows, stacks, values, parents, game.play())


def test_best_move_and_take_follow_the_play():
    rng = random.Random(11)
    for _ in range(300):
        rows, stacks, values, parents = _random_position(rng, 9)
        game = Game(rows=rows, stacks=stacks, forest=(values, parents))
        line = game.play()
        position, moves = game, []
        while len(position):
            move = position.best_move()
            assert move in position.moves()
            moves.append(move)
            position = position.take(move)
        assert moves == line
        assert position.forest == ((), ())
        with pytest.raises(ValueError, match="over"):
            position.best_move()


def test_following_the_line_never_copies_the_forest():
    """best_move/take along the optimal line: O(1) per tree move, no O(n) copy of the mask."""
    rng = random.Random(16)
    for _ in range(20):
        rows, stacks, values, parents = _random_position(rng, 400)
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
    for _ in range(300):
        rows, stacks, values, parents = _random_position(rng, 9)
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
    if rng is not None:
        n = len(values)
        label = list(range(n))
        rng.shuffle(label)
        new_values, new_parents = [0] * n, [0] * n
        for i in range(n):
            new_values[label[i]] = values[i]
            new_parents[label[i]] = -1 if parents[i] < 0 else label[parents[i]]
        values, parents = new_values, new_parents
    return values, parents


def test_forests_of_paths_agree_with_stacks():
    rng = random.Random(5)
    for _ in range(600):
        stacks = [_random_values(rng, rng.randint(0, 60)) for _ in range(rng.randint(1, 6))]
        rows = [_random_values(rng, rng.randint(0, 40)) for _ in range(rng.randint(0, 2))]
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
        stacks = [_random_values(rng, rng.randint(0, 4)) for _ in range(rng.randint(1, 3))]
        values, parents = _paths(stacks, rng)
        assert Game(forest=(values, parents)).value() == brute_value([], stacks)


def test_one_long_path_is_one_stack():
    rng = random.Random(8)
    for n in (1, 2, 3, 10, 1000, 5000):
        stack = _random_values(rng, n)
        forest = (stack, [-1] + list(range(n - 1)))
        assert Game(forest=forest).value() == Game(stacks=[stack]).value()


# -- number types and exactness --------------------------------------------------------------


@pytest.mark.slow
def test_exact_types_and_int64_overflow():
    rng = random.Random(9)
    for _ in range(300):
        rows, stacks, values, parents = _random_position(rng, 8)
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
    for _ in range(150):
        rows, stacks, values, parents = _random_position(rng, 8)
        big = [x * 2**62 for x in values]
        _check_play_optimal(rows, stacks, big, parents,
                            Game(rows=rows, stacks=stacks, forest=(big, parents)).play())
        thirds = [Fraction(x, 3) for x in values]
        _check_play_optimal(rows, stacks, thirds, parents,
                            Game(rows=rows, stacks=stacks, forest=(thirds, parents)).play())


def test_the_machine_and_the_exact_kernels_play_the_same_line():
    rng = random.Random(13)
    for _ in range(200):
        rows, stacks, values, parents = _random_position(rng, 30)
        machine = Game(rows=rows, stacks=stacks, forest=(values, parents)).play()
        exact = Game(rows=rows, stacks=stacks,
                     forest=([Fraction(x) for x in values], parents)).play()
        assert [(m.kind, m.index, m.position) for m in machine] == \
               [(m.kind, m.index, m.position) for m in exact]


def test_numpy_and_buffers():
    rng = random.Random(14)
    values = _random_values(rng, 50)
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
        rows, stacks, values, parents = _random_position(rng, 12)
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
    for _ in range(400):
        rows, stacks, values, parents = _random_position(rng, 9)
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
        rows, stacks, values, parents = _random_position(rng, 10)
        game = Game(rows=rows, stacks=stacks, forest=(values, parents))
        position = game
        for move in game.play():
            fresh = _fresh(position)
            assert _as_fresh(position, move) == _as_fresh(fresh, fresh.best_move())
            position = position.take(move)


# -- larger forests: the global form of block merging as the oracle ---------------------------


def block_merging_value(stacks, values, parents):
    """Block merging in its global form (docs/forests.md): one heap of all odd blocks, the
    largest popped first; a block whose head is a root or hangs below a taken block is
    taken (Greedy), any other fuses into its parent's block. Stacks are paths. O(n log n);
    written from the description, independently of the kernels."""
    import heapq

    vals, par = list(values), list(parents)
    for stack in stacks:
        base = len(vals)
        for i, coin in enumerate(stack):
            vals.append(coin)
            par.append(-1 if i == 0 else base + i - 1)
    n = len(vals)
    uf = list(range(n))
    d = list(vals)
    odd = [True] * n
    taken = [False] * n
    version = [0] * n

    def find(x):
        while uf[x] != x:
            uf[x] = uf[uf[x]]
            x = uf[x]
        return x

    heap = [(-d[v], v, 0) for v in range(n)]
    heapq.heapify(heap)
    total, sign = 0, 1
    while heap:
        _, b, stamp = heapq.heappop(heap)
        if stamp != version[b]:
            continue
        block = find(par[b]) if par[b] >= 0 else -1
        if block < 0 or taken[block]:
            taken[b] = True
            total += sign * d[b]
            sign = -sign
            continue
        uf[b] = block
        version[block] += 1
        if odd[block]:
            d[block] -= d[b]
            odd[block] = False
        else:
            d[block] += d[b]
            odd[block] = True
            heapq.heappush(heap, (-d[block], block, version[block]))
    return total + sign * sum(d[v] for v in range(n) if uf[v] == v and not taken[v])


def _shape(rng: random.Random, n: int) -> list[int]:
    """Parents of n nodes, every parent first: random trees, paths, stars (long runs of
    leaves), caterpillars, brooms, several trees."""
    kind = rng.randrange(6)
    parents = []
    for i in range(n):
        if i == 0 or (kind == 5 and rng.random() < 0.05):
            parents.append(-1)
        elif kind == 0:
            parents.append(rng.randrange(i))
        elif kind == 1:
            parents.append(i - 1)
        elif kind == 2:
            parents.append(rng.randrange(min(i, 3)))
        elif kind == 3:
            parents.append(i - 1 if i % 2 else max(0, i - 2))
        elif kind == 4:
            parents.append(i - 1 if i < max(1, n // 3) else rng.randrange(max(1, n // 3)))
        else:
            parents.append(rng.randrange(max(0, i - 20), i))
    return parents


def _labelled(rng: random.Random, values: list, parents: list[int]) -> tuple[list, list]:
    """As generated (parents first), reversed (parents last) or relabelled at random."""
    n = len(values)
    how = rng.randrange(3)
    if how == 0:
        return values, parents
    label = list(range(n))[::-1] if how == 1 else rng.sample(range(n), n)
    new_values, new_parents = [0] * n, [0] * n
    for i in range(n):
        new_values[label[i]] = values[i]
        new_parents[label[i]] = -1 if parents[i] < 0 else label[parents[i]]
    return new_values, new_parents


def _wide_values(rng: random.Random, n: int) -> list[int]:
    """Coins of every range: small with ties, up to 2^40 and 2^60 (the radix sorts' bytes),
    multiples of 2^16 (bytes all equal below), two clusters 2^24 apart (a range whose low
    bytes are zero while the coins' differ), one value."""
    style = rng.randrange(6)
    if style == 0:
        return _random_values(rng, n)
    if style == 5:
        return [rng.choice([0, 2**24]) + rng.randint(-300, 300) for _ in range(n)]
    if style == 1:
        return [rng.randint(-2**40, 2**40) for _ in range(n)]
    if style == 2:
        return [rng.randint(-2**60, 2**60) for _ in range(n)]
    if style == 3:
        return [rng.randint(-2**20, 2**20) * 2**16 for _ in range(n)]
    return [7] * n


@pytest.mark.slow
def test_large_forests_against_the_global_block_merging():
    rng = random.Random(32)
    for _ in range(scaled(160)):
        n = rng.randint(50, 2500)
        values, parents = _labelled(rng, _wide_values(rng, n), _shape(rng, n))
        stacks = [_random_values(rng, rng.randint(0, 30)) for _ in range(rng.randint(0, 2))]
        game = Game(stacks=stacks, forest=(values, parents))
        expected = block_merging_value(stacks, values, parents)
        assert game.value() == expected
        play = game.play()
        assert sum(m.coin if t % 2 == 0 else -m.coin for t, m in enumerate(play)) == expected
        assert game.profits() == ((sum(values) + sum(map(sum, stacks)) + expected) // 2,
                                  (sum(values) + sum(map(sum, stacks)) - expected) // 2)


def test_runs_of_every_key_width_against_the_global_block_merging():
    """Sorted runs (a vertex with many one-block children) whose keys span 1 to 4 bytes (the
    32-bit sort, its range taken while gathering) or just more (the 64-bit one): ranges at
    2^8k - 1 and 2^8k, runs short and long, a few children with subtrees among them."""
    rng = random.Random(35)
    for _ in range(scaled(60)):
        width = rng.choice([1, 2, 3, 4, 5])
        span = rng.choice([2 ** (8 * width) - 1, 2 ** (8 * width), 2 ** (8 * width - 1)])
        low = rng.randint(-2**40, 2**40) - span // 2  # no int64 overflow: the machine answers
        n = rng.choice([9, 33, 40, rng.randint(50, 1500)])
        values = [rng.randint(low, low + span) for _ in range(n)]
        values[rng.randrange(n)] = low
        values[rng.randrange(n)] = low + span
        # Star-like: most nodes hang below the root or one other node, a few below others.
        parents = [-1] + [rng.choice([0, 0, 0, min(1, i - 1), rng.randrange(i)])
                          for i in range(1, n)]
        values, parents = _labelled(rng, values, parents)
        expected = block_merging_value([], values, parents)
        assert Game(forest=(values, parents)).value() == expected
        assert Game(forest=(np.array(values), np.array(parents))).value() == expected


def test_the_path_for_huge_forests_agrees():
    """Forests of 2^31 nodes or more take a 64-bit path; ``wide`` takes it at any size."""
    rng = random.Random(33)
    for _ in range(scaled(200)):
        n = rng.randint(0, 300)
        values, parents = _labelled(rng, _random_values(rng, n), _shape(rng, n) if n else [])
        removed = array("B", bytes(n))
        for i in range(n):  # a position: nodes go after their parents
            if (parents[i] < 0 or removed[parents[i]]) and rng.random() < 0.2:
                removed[i] = 1
        arguments = (array("q", []), array("q", []), 0, 0, array("q", parents), removed)
        for coins, kernel in ((array("q", values), _core.forest_value),
                              (array("d", [x / 4 for x in values]), _core.forest_value),
                              (values, _core.forest_value_exact)):
            assert kernel(coins, *arguments, wide=True) == kernel(coins, *arguments)


def test_machine_and_twin_agree_bit_for_bit_on_every_order_and_on_runs():
    """forest_value / forest_play on floats, parents first, last or anywhere (the three
    orders of the loop), with stars (sorted runs), ties and signed zeros."""
    rng = random.Random(34)
    for _ in range(scaled(150)):
        n = rng.randint(0, 120)
        style = rng.random()
        if style < 0.3:
            floats = [rng.choice([-0.0, 0.0, 0.5, 1.0, -1.0]) for _ in range(n)]
        elif style < 0.4:
            floats = [rng.choice([-1.7e308, 1e308, 0.0, 1.5e308]) for _ in range(n)]
        else:
            floats = [rng.uniform(-1e3, 1e3) for _ in range(n)]
        values, parents = _labelled(rng, floats, _shape(rng, n) if n else [])
        arguments = (array("q", []), array("q", []), 0, 0, array("q", parents),
                     array("B", bytes(n)))
        a = _core.forest_value(array("d", values), *arguments)
        b = _core.forest_value_exact(list(values), *arguments)
        assert a[0] == b[0]
        if a[0] == _core.Status.OK:
            assert struct.pack("<d", a[1]) == struct.pack("<d", b[1] + 0.0 if n == 0 else b[1])
        outs = [[array("q", bytes(8 * n)), array("q", bytes(8 * n)), array("B", bytes(n))]
                for _ in range(2)]
        a = _core.forest_play(array("d", values), *arguments, *outs[0])
        b = _core.forest_play_exact(list(values), *arguments, *outs[1])
        assert a[0] == b[0]
        if a[0] == _core.Status.OK:
            assert outs[0] == outs[1]


def _rounded(exact: Fraction) -> float:
    try:
        return float(exact)
    except OverflowError:
        return float("inf") if exact > 0 else float("-inf")


@pytest.mark.slow
def test_overflowing_floats_are_solved_exactly():
    """Coins near the top of the float range: a sum that overflows is redone exactly and
    rounded once (multiples of 2^1018: every sum that does not overflow is exact too)."""
    rng = random.Random(35)
    overflowed = 0
    for _ in range(300):
        rows, stacks, values, parents = _random_position(rng, 7)
        if not values:
            continue
        huge = [x * 2.0**1018 for x in values]
        rows = [[x * 2.0**1018 for x in row] for row in rows]
        stacks = [[x * 2.0**1018 for x in stack] for stack in stacks]
        exact = brute_forest_value([[Fraction(x) for x in row] for row in rows],
                                   [[Fraction(x) for x in stack] for stack in stacks],
                                   [Fraction(x) for x in huge], parents)
        game = Game(rows=rows, stacks=stacks, forest=(huge, parents))
        assert game.value() == _rounded(exact)
        overflowed += _core.forest_value(
            array("d", huge), array("q"), array("q"), 0, 0, array("q", parents),
            array("B", bytes(len(huge))))[0] == _core.Status.OVERFLOW
        _check_play_optimal([[Fraction(x) for x in row] for row in rows],
                            [[Fraction(x) for x in stack] for stack in stacks],
                            [Fraction(x) for x in huge], parents,
                            [m._replace(coin=Fraction(m.coin)) for m in game.play()])
    assert overflowed > 5


def _leaves_in_blocks(rng: random.Random, n: int) -> list[int]:
    """Parents first, each vertex's leaves numbered one after the other (breadth first): a
    vertex gets a block of consecutive children, some of them leaves, some with children of
    their own; now and then a root, or a single child (a path's step)."""
    parents = [-1]
    frontier = [0]
    while len(parents) < n and frontier:
        vertex = frontier.pop(0)
        for _ in range(rng.choice([0, 1, 1, 2, 3, 8, 9, 30, rng.randint(0, 200)])):
            if len(parents) >= n:
                break
            parents.append(-1 if rng.random() < 0.01 else vertex)
            if rng.random() < 0.3:
                frontier.append(len(parents) - 1)
        if not frontier and len(parents) < n:
            parents.append(-1)
            frontier.append(len(parents) - 1)
    return parents


def test_runs_of_sibling_leaves_against_the_global_block_merging():
    """Leaves of one parent visited one after the other (the short loop of the value), their
    runs ended by a sibling with children, a leaf of another parent, the parent itself or a
    root; parents first and parents last; with ties, on ints and on floats (-0.0 among them:
    the machine and the twin agree bit for bit)."""
    rng = random.Random(44)
    for _ in range(scaled(80)):
        n = rng.randint(1, 3000)
        parents = _leaves_in_blocks(rng, n)
        n = len(parents)
        values = _wide_values(rng, n)
        if max(map(abs, values)) > 2**41:
            values = [x >> 20 for x in values]
        if rng.random() < 0.5:  # parents last
            values, parents = values[::-1], [-1 if p < 0 else n - 1 - p for p in parents[::-1]]
        expected = block_merging_value([], values, parents)
        assert Game(forest=(values, parents)).value() == expected
        assert _machine_value(values, parents) == expected
        floats = [rng.choice([-0.0, 0.0, 0.5, -1.5]) if rng.random() < 0.3 else x / 8
                  for x in values]
        arguments = (array("q", []), array("q", []), 0, 0, array("q", parents),
                     array("B", bytes(n)))
        machine = _core.forest_value(array("d", floats), *arguments)
        twin = _core.forest_value_exact(list(floats), *arguments)
        assert machine[0] == twin[0] == _core.Status.OK
        assert struct.pack("<d", machine[1]) == struct.pack("<d", twin[1])


def _scattered(parents: list[int], removed: bytes | None = None) -> bool:
    """Whether the value renumbers this forest in preorder first (docs/forests.md): parents
    all before or all after their children, and more than a quarter of the vertices 1, 17,
    33, ... on the table scattered (a parent more than 8 ids away from the vertex and from
    the previous vertex's parent)."""
    n = len(parents)
    gone = removed or bytes(n)
    live = [v for v in range(n) if not gone[v]]
    linked = [v for v in live if parents[v] >= 0 and not gone[parents[v]]]
    if not (all(parents[v] < v for v in linked) or all(parents[v] > v for v in linked)):
        return False
    sample = [j for j in range(1, n, 16) if not gone[j]]
    far = sum(abs(parents[j] - j) > 8 and abs(parents[j] - parents[j - 1]) > 8
              for j in sample)
    return far * 4 > len(sample)


def _preorder(parents: list[int]) -> list[int]:
    """The labels of a preorder of the forest (children by increasing id): each subtree a
    range, its root first."""
    children: list[list[int]] = [[] for _ in parents]
    for v, p in enumerate(parents):
        if p >= 0:
            children[p].append(v)
    label, order = [0] * len(parents), []
    for root in (v for v, p in enumerate(parents) if p < 0):
        todo = [root]
        while todo:
            v = todo.pop()
            label[v] = len(order)
            order.append(v)
            todo.extend(reversed(children[v]))
    return label


def _scattered_forest(rng: random.Random, n: int) -> list[int]:
    """Parents first, most of them far: random recursive trees, a forest of many of them,
    trees whose vertices hang below the first tenth (wide) or below one of the last 40
    vertices but never the previous ones (deep and narrow)."""
    kind = rng.randrange(4)
    parents = [-1]
    for i in range(1, n):
        if kind == 0 or (kind == 2 and n < 1000):
            parents.append(rng.randrange(i))
        elif kind == 1:
            parents.append(-1 if rng.random() < 0.05 else rng.randrange(i))
        elif kind == 2:
            parents.append(rng.randrange(n // 10) if i > n // 10 else i - 1)
        else:
            parents.append(rng.randrange(max(0, i - 40), max(1, i - 9)))
    return parents


def _check_value_kernels(values: list, parents: list, removed: array) -> tuple:
    """The value of the forest (values, parents) with the nodes ``removed`` off the table,
    from the machine kernel, its 64-bit path and its twin, checked against the global block
    merging of the nodes left (renumbered in order, a node whose parent is off a root).
    Returns those nodes' values and parents, and the value."""
    keep = [v for v in range(len(values)) if not removed[v]]
    new_id = {v: i for i, v in enumerate(keep)}
    left_values = [values[v] for v in keep]
    left_parents = [new_id[parents[v]] if parents[v] >= 0 and not removed[parents[v]]
                    else -1 for v in keep]
    expected = block_merging_value([], left_values, left_parents)
    arguments = (array("q", []), array("q", []), 0, 0, array("q", parents), removed)
    machine = _core.forest_value(array("q", values), *arguments)
    assert machine == _core.forest_value(array("q", values), *arguments, wide=True)
    if machine[0] == _core.Status.OK:
        assert machine[1] == expected
    assert _core.forest_value_exact(list(values), *arguments) == (_core.Status.OK, expected)
    return left_values, left_parents, expected


@pytest.mark.slow
def test_scattered_forests_renumbered_in_preorder_against_the_global_block_merging():
    """The value's preorder renumbering (parents scattered over the ids): random recursive
    trees, many trees, wide and deep ones, parents first and parents last, positions in play
    (nodes off the table: their children are roots), ties, negatives, coins of every width;
    against the global block merging, the 64-bit path (which does not renumber) and the
    same forest in preorder already (renumbering changes nothing there)."""
    rng = random.Random(47)
    checked = 0
    for _ in range(scaled(120)):
        n = rng.randint(100, 3000)
        parents = _scattered_forest(rng, n)
        values = _wide_values(rng, n)
        if rng.random() < 0.5:  # parents last
            values, parents = values[::-1], [-1 if p < 0 else n - 1 - p for p in parents[::-1]]
        removed = array("B", bytes(n))
        if rng.random() < 0.5:  # a position in play: roots taken, their children roots
            for v in sorted(range(n), key=lambda v: v if parents[0] == -1 else -v):
                if (parents[v] < 0 or removed[parents[v]]) and rng.random() < 0.3:
                    removed[v] = 1
        checked += _scattered(parents, bytes(removed))
        left_values, left_parents, expected = _check_value_kernels(values, parents, removed)
        assert Game(forest=(left_values, left_parents)).value() == expected
        label = _preorder(left_parents)
        size = len(left_values)
        in_preorder_values, in_preorder_parents = [0] * size, [0] * size
        for v in range(size):
            in_preorder_values[label[v]] = left_values[v]
            in_preorder_parents[label[v]] = (-1 if left_parents[v] < 0
                                             else label[left_parents[v]])
        assert Game(forest=(in_preorder_values, in_preorder_parents)).value() == expected
    assert checked >= scaled(120) * 9 // 10  # nearly all of them renumbered


def test_branching_forests_numbered_anywhere_renumbered_against_the_global_block_merging():
    """Parents anywhere (Kahn's order) in forests with many branching vertices: renumbered in
    preorder along Kahn's order (docs/forests.md); random trees and forests relabelled at
    random, positions in play, every coin width; against the global block merging, the
    64-bit path and the twin."""
    rng = random.Random(49)
    renumbered = 0
    for _ in range(scaled(120)):
        n = rng.randint(2, 2000)
        parents = _scattered_forest(rng, n)
        values = _wide_values(rng, n)
        label = rng.sample(range(n), n)
        relabelled_values, relabelled_parents = [0] * n, [0] * n
        for v in range(n):
            relabelled_values[label[v]] = values[v]
            relabelled_parents[label[v]] = -1 if parents[v] < 0 else label[parents[v]]
        values, parents = relabelled_values, relabelled_parents
        removed = array("B", bytes(n))
        if rng.random() < 0.5:  # a position in play: roots taken, their children roots
            taken = [v for v in range(n) if parents[v] < 0]
            while taken:
                v = taken.pop()
                if rng.random() < 0.3:
                    removed[v] = 1
                    taken.extend(c for c in range(n) if parents[c] == v)
        children = [0] * n
        for v in range(n):
            if not removed[v] and parents[v] >= 0 and not removed[parents[v]]:
                children[parents[v]] += 1
        renumbered += sum(count >= 2 for count in children) * 8 > n
        _check_value_kernels(values, parents, removed)
    assert renumbered >= scaled(120) // 2  # most of them renumbered


def test_scattered_forests_that_overflow_int64_are_solved_exactly():
    """Renumbered forests whose sums pass 2^63: the exact value all the same."""
    rng = random.Random(48)
    checked = 0
    for _ in range(scaled(30)):
        n = rng.randint(100, 1500)
        parents = _scattered_forest(rng, n)
        values = [rng.choice([2**62, -2**62, 2**63 - 1, -2**63, rng.randint(-9, 9)])
                  for _ in range(n)]
        checked += _scattered(parents)
        expected = block_merging_value([], values, parents)
        assert Game(forest=(values, parents)).value() == expected
        assert Game(forest=(np.array(values, dtype=np.int64),
                            np.array(parents))).value() == expected
    assert checked >= scaled(30) * 8 // 10  # nearly all of them renumbered


# -- scratch kept between calls -----------------------------------------------------------------
# The value's and the play's big scratch buffers (64 KiB or more: forests of a few thousand
# nodes) are kept for the next call. Each call must find them in any state the previous one
# left (other forests' records), and a call stopped midway must give them back.


# What the slots may hold in all (COINSROW_KEPT_MOST in _scratch.pyx): the tests before these
# may have left a long row's scratch there.
_KEPT_AT_MOST = 256 * 2**20


def _kept_buffers_are_free() -> bool:
    kept = _core.scratch_kept()
    return (not any(busy for _, busy in kept)
            and sum(size for size, _ in kept) <= _KEPT_AT_MOST)


def _machine_value(values: list[int], parents: list[int]) -> int:
    status, value = _core.forest_value(array("q", values), array("q", []), array("q", []), 0,
                                       0, array("q", parents), array("B", bytes(len(values))))
    assert status == _core.Status.OK
    return value


@pytest.mark.slow
def test_kept_scratch_gives_the_values_of_fresh_scratch():
    """Forests of 5,000 to 40,000 nodes of every shape and numbering, one after the other (each
    call reuses the buffers the last one wrote), against the global block merging; the play
    (whose blocks use kept buffers too) adds up to the value."""
    rng = random.Random(41)
    for round_ in range(scaled(12, 3)):
        if round_ == 4:
            _core.scratch_release()  # from empty slots again
        n = rng.randint(5000, 40000)
        values = _wide_values(rng, n)
        if max(map(abs, values)) > 2**41:
            values = [x >> 20 for x in values]  # no int64 overflow: the machine answers
        values, parents = _labelled(rng, values, _shape(rng, n))
        expected = block_merging_value([], values, parents)
        assert _machine_value(values, parents) == expected
        assert _kept_buffers_are_free()
        outs = (array("q", bytes(8 * n)), array("q", bytes(8 * n)), array("B", bytes(n)))
        assert _core.forest_play(array("q", values), array("q", []), array("q", []), 0, 0,
                                 array("q", parents), array("B", bytes(n)), *outs) == (
            _core.Status.OK, expected)
        assert sum(values[c] if t % 2 == 0 else -values[c]
                   for t, c in enumerate(outs[1])) == expected
        assert _kept_buffers_are_free()
    if sys.platform != "win32":  # built with GCC or Clang: the atomics that keep buffers
        assert sum(size for size, _ in _core.scratch_kept()) > 0


@pytest.mark.slow
def test_threads_computing_values_at_once_share_the_kept_scratch():
    """Threads solving forests at the same time (the kernels release the GIL): each call
    takes free slots or allocates its own, and every answer is the one of a lone call."""
    rng = random.Random(42)
    forests = []
    for _ in range(scaled(8, 2)):
        n = rng.randint(20000, 60000)
        forests.append(_labelled(rng, _random_values(rng, n), _shape(rng, n)))
    expected = [_machine_value(values, parents) for values, parents in forests]
    answers: dict[tuple[int, int], int] = {}

    def work(thread: int) -> None:
        for step in range(6):
            k = (thread + step) % len(forests)
            answers[thread, step] = _machine_value(*forests[k])

    threads = [threading.Thread(target=work, args=(t,)) for t in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert answers == {(t, s): expected[(t + s) % len(forests)]
                       for t in range(4) for s in range(6)}
    assert _kept_buffers_are_free()


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="needs SIGALRM")
def test_a_value_stopped_by_a_signal_gives_its_kept_scratch_back():
    """An exception raised by a signal handler inside the loop (as Ctrl-C does) leaves every
    slot free, and the next call's answer is right."""
    rng = np.random.default_rng(43)
    n = 10**6
    parents = (rng.random(n) * np.arange(n)).astype(np.int64)
    parents[0] = -1
    label = rng.permutation(n)  # parents anywhere: the Kahn order
    shuffled = np.empty(n, dtype=np.int64)
    shuffled[label] = np.where(parents < 0, -1, label[np.maximum(parents, 0)])
    coins = rng.integers(-10**9, 10**9, n)
    arguments = (coins, array("q", []), array("q", []), 0, 0, shuffled, bytes(n))
    expected = _core.forest_value(*arguments)
    inside = False
    for attempt in range(1, 6):  # a busy machine may deliver the signal late or early
        stop = stop_after(0.01 * attempt, lambda: _core.forest_value(*arguments))
        inside = raised_in(stop, _FOREST_FILES)
        assert _kept_buffers_are_free()
        if inside:
            break
    assert inside
    assert _core.forest_value(*arguments) == expected
    assert _kept_buffers_are_free()


# -- Ctrl-C ------------------------------------------------------------------------------------

_INTERRUPTED = r"""
import signal, sys, time, traceback
import numpy as np
from coinsrow import Game
# Ctrl-C raises KeyboardInterrupt even when this process was started with SIGINT ignored
# (as a shell does for a job in the background).
signal.signal(signal.SIGINT, signal.default_int_handler)
n = int(sys.argv[1])
rng = np.random.default_rng(0)
parents = (rng.random(n) * np.arange(n)).astype(np.int64)
parents[0] = -1
label = rng.permutation(n)  # parents anywhere: the longest loop (Kahn's order)
shuffled = np.empty(n, dtype=np.int64)
shuffled[label] = np.where(parents < 0, -1, label[np.maximum(parents, 0)])
game = Game(forest=(rng.integers(-10**9, 10**9, n), shuffled))
game.rows  # the coins as Python numbers too (the exact mode's), before the signal
print("ready", flush=True)
try:
    game.value()
except KeyboardInterrupt as error:
    stopped = time.monotonic()
    inside = any(f.filename.endswith(("_forest.pyx", "_forest_blocks.pyx", "_sort.pyx",
                                      "_forest_exact.pyx"))
                 for f in traceback.extract_tb(error.__traceback__))
    print("interrupted", inside, repr(stopped), flush=True)
else:
    print("finished", flush=True)
"""


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(signal, "SIGINT") or sys.platform == "win32",
                    reason="sends SIGINT to a child process (POSIX)")
def test_ctrl_c_stops_the_value_of_a_big_forest():
    """SIGINT during ``value()`` of a forest of 10^7 nodes (10^6 for the exact twin): the
    loop looks at signals every 65,536 steps, so the KeyboardInterrupt comes out of the
    kernel itself, while it runs."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""))
    n = 10**6 if EXACT else 10**7
    child = subprocess.Popen([sys.executable, "-c", _INTERRUPTED, str(n)], cwd=root, env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "ready"
        time.sleep(0.3)
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=120)
    finally:
        child.kill()
    words = out.split()
    assert words[:2] == ["interrupted", "True"], (out, err)
    # How long the kernel took to stop, for the record (the machine may be busy: not asserted).
    print(f"stopped {float(words[2]) - sent:.3f} s after SIGINT")
