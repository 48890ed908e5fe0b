"""Engine: every decision against the DP table (rows) and brute force (rows, stacks and
forests), while the opponent plays random, greedy, always-left and adversarial moves; with a
forest, every best move is also the one Game.best_move() makes (the one tie rule)."""

from __future__ import annotations

import copy
import itertools
import pickle
import random
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from coinsrow import Engine, Game, Move, _core
from coinsrow._dispatch import EXACT
from coinsrow._engine import _ShortRowEngine
from coinsrow._game import where

from generators import SMALL_STYLES, random_forest, random_parents, random_row
from modes import MACHINE_WINDOWS, drawn, scaled
from oracles import (
    after_move,
    brute_forest_solver,
    brute_forest_value,
    brute_solver,
    brute_value,
    dp_table,
)
from window_check import check_windows

OPPONENTS = ("random", "greedy", "left", "spoiler", "deviator", "optimal")


def _opponent_end(name: str, row: list, i: int, j: int, d: list, rng: random.Random) -> str:
    """The end the opponent takes from row[i:j]."""
    left_gain = row[i] - d[i + 1][j]
    right_gain = row[j - 1] - d[i][j - 1]
    if name == "random":
        return rng.choice(("left", "right"))
    if name == "greedy":
        return "left" if row[i] >= row[j - 1] else "right"
    if name == "left":
        return "left"
    if name == "spoiler":  # the worse move for itself, i.e. the best for the engine
        return "left" if left_gain < right_gain else "right"
    if name == "deviator":  # leaves the engine's line whenever it can
        return "left" if left_gain <= right_gain else "right"
    return "left" if left_gain >= right_gain else "right"


def _play_row_against(row: list, opponent: str, engine_first: bool, rng: random.Random) -> None:
    """Play a whole game; check the value and the best move at every turn of both sides."""
    d = dp_table(row)
    engine = Engine(row)
    i, j = 0, len(row)
    ours = engine_first
    score = 0
    while True:
        assert len(engine) == j - i
        assert engine.value() == d[i][j], (row, i, j)
        if i == j:
            break
        best = engine.best_move()
        gain = best.coin - (d[i + 1][j] if best.end == "left" else d[i][j - 1])
        assert gain == d[i][j], (row, i, j, best)
        assert best.position == (i if best.end == "left" else j - 1)
        if ours:
            end = best.end
        else:
            end = _opponent_end(opponent, row, i, j, d, rng)
        played = engine.take(end if rng.random() < 0.5 else Move(
            "row", 0, end, i if end == "left" else j - 1, row[i] if end == "left" else row[j - 1]))
        assert played.end == end and played.coin == row[played.position]
        score += played.coin if ours else -played.coin
        if end == "left":
            i += 1
        else:
            j -= 1
        ours = not ours
    if engine_first:
        assert score >= d[0][len(row)]
        if opponent == "optimal":
            assert score == d[0][len(row)]


def test_engine_decisions_on_long_rows_against_every_opponent():
    rng = random.Random(10)
    for game in range(12):
        row = random_row(rng, rng.randint(150, 300), SMALL_STYLES)
        for opponent in OPPONENTS:
            _play_row_against(row, opponent, game % 2 == 0, rng)


def test_engine_decisions_on_many_short_rows():
    rng = random.Random(11)
    for game in range(2500):
        row = random_row(rng, rng.randint(0, 16), SMALL_STYLES)
        _play_row_against(row, OPPONENTS[game % len(OPPONENTS)], game % 3 != 0, rng)


@given(st.lists(st.integers(-5, 5), max_size=25), st.randoms(use_true_random=False))
def test_engine_hypothesis(row, rng):
    _play_row_against(row, "random", True, rng)


def test_engine_uses_the_compiled_structure_for_machine_numbers():
    assert isinstance(Engine(Game(rows=[[1, 2, 3]]))._windows, MACHINE_WINDOWS)
    # A short list of ints has a fast path of its own (tests/test_small_engine.py).
    assert isinstance(Engine([1, 2, 3]), _ShortRowEngine) != EXACT
    assert isinstance(Engine(np.array([1.5, 2.0]))._windows, MACHINE_WINDOWS)
    assert isinstance(Engine([2**70, 1])._windows, _core.RowWindowsExact)
    assert isinstance(Engine([Fraction(1, 3)])._windows, _core.RowWindowsExact)


def _check_exact_row(row: list, rng: random.Random, kind: type) -> None:
    d = dp_table(row)
    engine = Engine(row)
    i, j = 0, len(row)
    while i < j:
        v = engine.value()
        assert v == d[i][j] and type(v) is kind, (row, i, j, v)
        best = engine.best_move()
        assert best.coin - (d[i + 1][j] if best.end == "left" else d[i][j - 1]) == d[i][j]
        end = rng.choice(("left", "right"))
        engine.take(end)
        if end == "left":
            i += 1
        else:
            j -= 1
    assert engine.value() == 0


def test_engine_exact_numbers():
    rng = random.Random(12)
    for _ in range(150):
        ints = random_row(rng, rng.randint(1, 30), SMALL_STYLES)
        _check_exact_row([x * 2**70 + rng.randint(0, 3) for x in ints], rng, int)
        _check_exact_row([Fraction(x, 7) for x in ints], rng, Fraction)
        _check_exact_row([Decimal(x) / 8 for x in ints], rng, Decimal)
        # int64 coins whose alternating prefix sums overflow the int64 window.
        _check_exact_row([(2**62 - 1) * (1 if k % 2 else -1) for k in range(len(ints))],
                         rng, int)
        floats = [x / 4 for x in ints]  # dyadic: float sums stay exact
        _check_exact_row(floats, rng, float)
        _check_exact_row(list(np.array(ints, dtype=np.int32)), rng, int)


def test_engine_on_numpy_and_buffers():
    rng = random.Random(13)
    for _ in range(50):
        row = random_row(rng, rng.randint(1, 40), SMALL_STYLES)
        for data in (np.array(row), np.array(row, dtype=np.int16), np.array(row, dtype=float)):
            e = Engine(data)
            assert e.value() == dp_table(row)[0][len(row)]


def _play_game_against_brute(rows, stacks, rng, opponent):
    solve = brute_solver(rows, stacks)
    engine = Engine(Game(rows=rows, stacks=stacks))
    bounds = [[0, len(r)] for r in rows]
    tops = [0] * len(stacks)
    ours = True

    def position_value():
        return solve(tuple(map(tuple, bounds)), tuple(tops))

    def gain(move):
        b = [list(x) for x in bounds]
        t = list(tops)
        if move.kind == "row":
            if move.end == "left":
                b[move.index][0] += 1
            else:
                b[move.index][1] -= 1
        else:
            t[move.index] += 1
        return move.coin - solve(tuple(map(tuple, b)), tuple(t))

    while True:
        v = position_value()
        assert engine.value() == v, (rows, stacks, bounds, tops)
        assert engine.game == Game(rows=[r[a:b] for r, (a, b) in zip(rows, bounds)],
                                   stacks=[s[t:] for s, t in zip(stacks, tops)])
        if len(engine) == 0:
            break
        best = engine.best_move()
        assert gain(best) == v, (rows, stacks, bounds, tops, best)
        moves = engine.moves()
        assert best in moves
        if ours:
            move = best
        elif opponent == "random":
            move = rng.choice(moves)
        elif opponent == "greedy":
            move = max(moves, key=lambda m: m.coin)
        elif opponent == "left":
            move = moves[0]
        else:  # spoiler: the worst move for itself
            move = min(moves, key=gain)
        assert engine.take(move) == move
        if move.kind == "row":
            bounds[move.index][0 if move.end == "left" else 1] += 1 if move.end == "left" else -1
        else:
            tops[move.index] += 1
        ours = not ours


@pytest.mark.slow
def test_engine_rows_and_stacks_against_brute_force():
    rng = random.Random(14)
    for game in range(drawn(700)):
        n_rows = rng.randint(0, 3)
        n_stacks = rng.randint(0, 2) if game % 2 else 0
        rows = [random_row(rng, rng.randint(0, 4), SMALL_STYLES) for _ in range(n_rows)]
        stacks = [random_row(rng, rng.randint(0, 3), SMALL_STYLES) for _ in range(n_stacks)]
        opponent = ("random", "greedy", "left", "spoiler")[game % 4]
        _play_game_against_brute(rows, stacks, rng, opponent)


def test_several_rows_use_one_window_structure():
    e = Engine(Game(rows=[[1, 2, 3], [4, 5]]))
    assert isinstance(e._windows, MACHINE_WINDOWS)
    e = Engine(Game(rows=[[1, 2, 3]], stacks=[[]]))
    assert isinstance(e._windows, MACHINE_WINDOWS)
    e = Engine(Game(rows=[[1, 2, 3]], stacks=[[4]]))
    assert isinstance(e._windows, MACHINE_WINDOWS)
    # Exact numbers (and int64 overflow) with stacks: the same structure on Python numbers.
    e = Engine(Game(rows=[[1, 2, 3]], stacks=[[Fraction(1, 2)]]))
    assert isinstance(e._windows, _core.RowWindowsExact)
    assert e.value() == brute_value([[1, 2, 3]], [[Fraction(1, 2)]])
    e = Engine(Game(stacks=[[2**62, -2**62, 2**62]]))
    assert isinstance(e._windows, _core.RowWindowsExact)
    assert e.value() == brute_value([], [[2**62, -2**62, 2**62]])


@pytest.mark.slow
def test_engine_stacks_against_brute_force():
    rng = random.Random(17)
    for game in range(drawn(600)):
        rows = [random_row(rng, rng.randint(0, 3), SMALL_STYLES) for _ in range(rng.randint(0, 2))]
        stacks = [random_row(rng, rng.randint(0, 7), SMALL_STYLES)
                  for _ in range(rng.randint(1, 3))]
        if game % 5 == 0:
            rows = [[x / 4 for x in r] for r in rows]
            stacks = [[x / 4 for x in t] for t in stacks]
        engine = Engine(Game(rows=rows, stacks=stacks))
        assert isinstance(engine._windows, MACHINE_WINDOWS)
        opponent = ("random", "greedy", "left", "spoiler")[game % 4]
        _play_game_against_brute(rows, stacks, rng, opponent)


@pytest.mark.slow
def test_engine_exact_stacks_against_brute_force():
    rng = random.Random(18)
    for game in range(drawn(300)):
        scale = (lambda x: Fraction(x, 3)) if game % 2 else (lambda x: x * 2**65 + 1)
        rows = [[scale(x) for x in random_row(rng, rng.randint(0, 3), SMALL_STYLES)]
                for _ in range(rng.randint(0, 2))]
        stacks = [[scale(x) for x in random_row(rng, rng.randint(1, 6), SMALL_STYLES)]
                  for _ in range(rng.randint(1, 3))]
        engine = Engine(Game(rows=rows, stacks=stacks))
        assert isinstance(engine._windows, _core.RowWindowsExact)
        _play_game_against_brute(rows, stacks, rng, ("random", "spoiler", "greedy")[game % 3])


def test_engine_from_a_position_in_play():
    rng = random.Random(15)
    for _ in range(100):
        row = random_row(rng, rng.randint(2, 30), SMALL_STYLES)
        g = Game(rows=[row])
        g = g.take(g.moves()[-1])
        e = Engine(g)
        d = dp_table(row[:-1])
        assert e.value() == d[0][len(row) - 1]
        best = e.best_move()
        assert best.position in (0, len(row) - 2)
        e.take(best)
        assert e.game == g.take(best)


def test_illegal_moves_change_nothing():
    e = Engine([5, 1, 3])
    with pytest.raises(ValueError, match="a row's end is 'left' or 'right'"):
        e.take("middle")
    with pytest.raises(ValueError, match="the coin there is"):
        e.take(Move("row", 0, "left", 1, 1))
    with pytest.raises(ValueError, match="the coin there is"):
        e.take(Move("row", 0, "left", 0, 4))
    with pytest.raises(ValueError, match="no such 'row' with index 1"):
        e.take(Move("row", 1, "left", 0, 5))
    with pytest.raises(ValueError, match="no such 'stack' with index 0"):
        e.take(Move("stack", 0, "top", 0, 5))
    with pytest.raises(ValueError, match=r"42 is not a Move\("):
        e.take(42)
    assert len(e) == 3 and e.value() == 3 and e.game == Game(rows=[[5, 1, 3]])
    e.take("left")
    e.take("left")
    e.take("right")
    assert len(e) == 0 and e.value() == 0
    with pytest.raises(ValueError, match="the game is over: no coin is left"):
        e.best_move()
    with pytest.raises(ValueError, match="illegal move 'left': the row is empty"):
        e.take("left")
    several = Engine(Game(rows=[[1], [2]]))
    with pytest.raises(ValueError, match="names an end of a one-row game"):
        several.take("left")


def test_engine_bad_input():
    with pytest.raises(ValueError, match="index 1"):
        Engine([1.0, float("nan")])
    with pytest.raises(TypeError):
        Engine([1, "x"])
    with pytest.raises(ValueError, match="index 2"):
        Engine(Game(rows=[[1, 2], [0.5, 1.0, float("inf")]]))
    assert Engine([]).value() == 0 and len(Engine([])) == 0


def _kernel_opponent(kind, row, rng):
    """An opponent choosing an end of the window [i, j) of ``row``: 0 optimal (the
    structure's own move), 1 random, 2 greedy (the larger end coin, ties left), 3 always
    left, 4 the adversary of the structure (the end whose end block spans more coins)."""
    def choose(windows, i, j):
        if kind == 0:
            return windows.best_in_row(0)
        if kind == 1:
            return rng.random() < 0.5
        if kind == 2:
            return row[i] >= row[j - 1]
        if kind == 3:
            return True
        left, right = windows.end_blocks(0)
        return left >= right
    return choose


@pytest.mark.parametrize("structure", [_core.RowWindows, _core.RowWindowsExact])
def test_kernel_playouts_are_optimal_against_every_opponent(structure):
    """The structure's own moves, against five opponents, are optimal at every position."""
    rng = random.Random(16)
    from array import array

    for _ in range(100):
        row = random_row(rng, rng.randint(1, 60), SMALL_STYLES)
        n = len(row)
        d = dp_table(row)
        for kind in range(5):
            coins = array("q", row) if structure is _core.RowWindows else list(row)
            windows = structure(coins, array("q", [0]), array("q", [n]), 1)
            opponent = _kernel_opponent(kind, row, rng)
            i, j = 0, n
            for t in range(n):
                from_left = windows.best_in_row(0) if t % 2 == 0 else opponent(windows, i, j)
                if t % 2 == 0 or kind == 0:
                    gain = row[i] - d[i + 1][j] if from_left else row[j - 1] - d[i][j - 1]
                    assert gain == d[i][j]
                assert windows.value() == d[i][j]
                if from_left:
                    windows.pop_left(0)
                    i += 1
                else:
                    windows.pop_right(0)
                    j -= 1
            check_windows(windows)


def test_engine_long_stacks_against_game_values():
    """Longer games: every value and best move checked with the core's Game.value."""
    rng = random.Random(19)
    for game in range(40):
        rows = [random_row(rng, rng.randint(0, 30), SMALL_STYLES) for _ in range(rng.randint(0, 3))]
        stacks = [random_row(rng, rng.randint(0, 40), SMALL_STYLES)
                  for _ in range(rng.randint(1, 4))]
        if game % 4 == 0:  # the exact structure
            rows = [[Fraction(x, 5) for x in r] for r in rows]
            stacks = [[Fraction(x, 5) for x in t] for t in stacks]
        engine = Engine(Game(rows=rows, stacks=stacks))
        position = Game(rows=rows, stacks=stacks)
        ours = True
        while len(engine):
            v = position.value()
            assert engine.value() == v
            best = engine.best_move()
            assert best.coin - position.take(best).value() == v, (rows, stacks, best)
            move = best if ours else rng.choice(position.moves())
            engine.take(move)
            position = position.take(move)
            ours = not ours
        assert engine.value() == 0


def _blocks(windows):
    kept = windows.kept(0)
    return set(itertools.pairwise(kept))


def test_tree_updates_stay_within_the_proven_amortised_bounds():
    """docs/window.md: at most 2 tree updates per pop (either end, any order), whatever the
    opponent does, and at most 3 per push (building). A row's blocks are all in the tree, so
    the updates of a pop are the blocks that change: counted from the kept boundaries. (For
    the pushes this count is a lower bound: a fusion cascade may add a block it drops.)"""
    from array import array

    rng = random.Random(20)
    for game in range(60):
        row = random_row(rng, rng.randint(1, 300), SMALL_STYLES)
        n = len(row)
        windows = _core.RowWindows(array("q", row), array("q", [0]), array("q", [n]), 1)
        opponent = _kernel_opponent(game % 5, row, rng)
        blocks = _blocks(windows)
        updates = 0
        i, j = 0, n
        for t in range(n):
            from_left = windows.best_in_row(0) if t % 2 == 0 else opponent(windows, i, j)
            if from_left:
                windows.pop_left(0)
                i += 1
            else:
                windows.pop_right(0)
                j -= 1
            after = _blocks(windows)
            updates += len(blocks ^ after)
            blocks = after
        assert updates <= 2 * n
        pushes = 0
        previous = set()
        for stop in range(1, n + 1):  # the reduced forms of the prefixes: one push each
            prefix = _core.RowWindows(array("q", row[:stop]), array("q", [0]),
                                      array("q", [stop]), 1)
            current = _blocks(prefix)
            pushes += len(previous ^ current)
            previous = current
        assert pushes <= 3 * n


def test_huge_floats_are_solved_exactly_then_rounded():
    """Floats whose alternating sums could overflow float64 use the exact structure."""
    rng = random.Random(21)
    exact = 0
    for _ in range(150):
        n = rng.randint(1, 12)
        row = [rng.choice([-3, -1, 0, 1, 2, 5]) * 1e305 for _ in range(n)]
        d = dp_table([Fraction(x) for x in row])
        engine = Engine(row)
        exact += isinstance(engine._windows, _core.RowWindowsExact)
        i, j = 0, n
        while i < j:
            v = engine.value()
            assert type(v) is float and v == float(d[i][j])
            best = engine.best_move()
            assert Fraction(best.coin) - (d[i + 1][j] if best.end == "left" else d[i][j - 1]) \
                == d[i][j]
            end = rng.choice(("left", "right"))
            engine.take(end)
            i, j = (i + 1, j) if end == "left" else (i, j - 1)
    assert exact > 100


@pytest.mark.slow
@given(
    st.lists(st.lists(st.integers(-4, 4), max_size=4), max_size=2),
    st.lists(st.lists(st.integers(-4, 4), max_size=5), min_size=1, max_size=2),
    st.randoms(use_true_random=False),
)
def test_engine_rows_and_stacks_hypothesis(rows, stacks, rng):
    _play_game_against_brute(rows, stacks, rng, "random")


# -- games with a forest ---------------------------------------------------------------------

FOREST_WINDOWS = _core.ForestWindowsExact if EXACT else _core.ForestWindows


def _forest_position(rng: random.Random, max_nodes: int):
    """Small rows, stacks and a forest (random shape, parents anywhere), coins with ties,
    zeros and negatives."""
    n = rng.randint(0, max_nodes)
    values = random_row(rng, n, SMALL_STYLES)
    parents = random_parents(rng, n, roots=0.15)
    rows = [random_row(rng, rng.randint(0, 3), SMALL_STYLES) for _ in range(rng.randint(0, 2))]
    stacks = [random_row(rng, rng.randint(0, 3), SMALL_STYLES)
              for _ in range(rng.randint(0, 2))]
    return rows, stacks, values, parents


def _fresh_move(game: Game, move: Move) -> tuple:
    """``move`` as the same position built from scratch names it (nodes numbered again)."""
    if move.kind == "tree":
        removed = where(game).forest.removed()
        return ("tree", sum(1 for i in range(move.index) if not removed[i]), move.coin)
    return (move.kind, move.index, move.end, move.coin)


def _play_forest_game(rows, stacks, values, parents, rng, opponent, check_rule=True):
    """A whole game on an Engine against ``opponent``: at every position the value is the
    minimax value, the best move is optimal, it is the move Game.best_move() makes (the
    Game reached by the same moves, and the position built from scratch), and the Engine's
    position is the Game's."""
    solve = brute_forest_solver(rows, stacks, values, parents)
    game = Game(rows=rows, stacks=stacks, forest=(values, parents))
    engine = Engine(game)
    state = (tuple((0, len(r)) for r in rows), tuple(0 for _ in stacks),
             (1 << len(values)) - 1)

    def gain(move):
        return move.coin - solve(*after_move(state, move))

    ours = True
    while True:
        v = solve(*state)
        assert engine.value() == v, (rows, stacks, values, parents, state)
        assert len(engine) == len(game)
        assert engine.game == game
        if not len(game):
            with pytest.raises(ValueError, match="over"):
                engine.best_move()
            break
        best = engine.best_move()
        assert gain(best) == v, (rows, stacks, values, parents, state, best)
        legal = engine.moves()
        assert best in legal and legal == game.moves()
        if check_rule:
            assert best == game.best_move(), (rows, stacks, values, parents, state)
            fresh = Game(rows=game.rows, stacks=game.stacks, forest=game.forest)
            assert _fresh_move(game, best) == _fresh_move(fresh, fresh.best_move())
        if ours:
            move = best
        elif opponent == "random":
            move = rng.choice(legal)
        elif opponent == "greedy":
            move = max(legal, key=lambda m: m.coin)
        elif opponent == "trees":  # a root whenever there is one
            move = next((m for m in legal if m.kind == "tree"), legal[0])
        else:  # spoiler: the worst move for itself
            move = min(legal, key=gain)
        assert engine.take(move) == move
        game = game.take(move)
        state = after_move(state, move)
        ours = not ours


FOREST_OPPONENTS = ("random", "greedy", "trees", "spoiler")


@pytest.mark.slow
def test_engine_on_forests_against_brute_force():
    rng = random.Random(40)
    for game in range(scaled(drawn(400), 3)):
        rows, stacks, values, parents = _forest_position(rng, 8)
        _play_forest_game(rows, stacks, values, parents, rng,
                          FOREST_OPPONENTS[game % len(FOREST_OPPONENTS)])


def test_engine_on_forests_uses_the_compiled_structure_for_machine_numbers():
    assert isinstance(Engine(Game(forest=([1, 2], [-1, 0])))._windows, FOREST_WINDOWS)
    assert isinstance(Engine(Game(rows=[[1.5]], forest=([2.5], [-1])))._windows,
                      FOREST_WINDOWS)
    assert isinstance(Engine(Game(forest=([2**70, 1], [-1, 0])))._windows,
                      _core.ForestWindowsExact)
    # int64 coins whose magnitudes add up past 2^59: the exact structure, the same answers.
    big = Engine(Game(forest=([2**58, 2**58, -2**58], [-1, 0, 0])))
    assert isinstance(big._windows, _core.ForestWindowsExact)
    assert big.value() == brute_forest_value([], [], [2**58, 2**58, -2**58], [-1, 0, 0])


@pytest.mark.slow
def test_engine_on_forests_exact_numbers():
    rng = random.Random(41)
    for game in range(scaled(drawn(300), 3)):
        rows, stacks, values, parents = _forest_position(rng, 7)
        scale = (lambda x: Fraction(x, 3), lambda x: x * 2**64 + 1,
                 lambda x: Decimal(x) / 8, lambda x: x / 4)[game % 4]
        rows = [[scale(x) for x in r] for r in rows]
        stacks = [[scale(x) for x in s] for s in stacks]
        values = [scale(x) for x in values]
        _play_forest_game(rows, stacks, values, parents, rng,
                          FOREST_OPPONENTS[game % len(FOREST_OPPONENTS)])


@pytest.mark.slow
def test_engine_on_forests_of_huge_floats():
    """Floats whose magnitudes add up past 1e300: the exact structure on Fractions, every
    value rounded once, every best move optimal."""
    rng = random.Random(42)
    exact = 0
    huge = 2.0**1012  # times coins of at most 1000: finite, and past 1e300
    games = scaled(drawn(200), 3)
    for _ in range(games):
        rows, stacks, values, parents = _forest_position(rng, 6)
        rows = [[x * huge for x in r] for r in rows]
        stacks = [[x * huge for x in s] for s in stacks]
        values = [x * huge for x in values]
        engine = Engine(Game(rows=rows, stacks=stacks, forest=(values, parents)))
        exact += isinstance(engine._windows, _core.ForestWindowsExact)
        solve = brute_forest_solver([[Fraction(x) for x in r] for r in rows],
                                    [[Fraction(x) for x in s] for s in stacks],
                                    [Fraction(x) for x in values], parents)
        bounds = tuple((0, len(r)) for r in rows)
        tops = tuple(0 for _ in stacks)
        present = (1 << len(values)) - 1
        while len(engine):
            v = solve(bounds, tops, present)
            assert engine.value() == float(v)
            best = engine.best_move()
            move = best if rng.random() < 0.5 else rng.choice(engine.moves())
            engine.take(move)
            if move.kind == "row":
                i, j = bounds[move.index]
                new = (i + 1, j) if move.end == "left" else (i, j - 1)
                bounds = bounds[:move.index] + (new,) + bounds[move.index + 1:]
            elif move.kind == "stack":
                tops = tops[:move.index] + (tops[move.index] + 1,) + tops[move.index + 1:]
            else:
                present ^= 1 << move.index
            if move is best:
                assert Fraction(best.coin) - solve(bounds, tops, present) == v
    assert exact > games // 10


@pytest.mark.slow
def test_engine_on_larger_forests_against_game_values():
    """Hundreds of nodes: every value against Game.value() of the same position, every best
    move against Game.best_move(), the opponent random."""
    rng = random.Random(43)
    for game in range(scaled(drawn(15))):
        rows, stacks, values, parents = _forest_position(rng, 300)
        if game % 3 == 0:
            values = [Fraction(x, 5) for x in values]
        position = Game(rows=rows, stacks=stacks, forest=(values, parents))
        engine = Engine(position)
        ours = True
        while len(engine):
            assert engine.value() == position.value()
            best = engine.best_move()
            assert best == position.best_move()
            assert best.coin - position.take(best).value() == position.value()
            move = best if ours else rng.choice(position.moves())
            engine.take(move)
            position = position.take(move)
            ours = not ours
        assert engine.value() == 0


def test_engine_from_a_forest_position_in_play():
    rng = random.Random(44)
    for _ in range(200):
        rows, stacks, values, parents = _forest_position(rng, 10)
        game = Game(rows=rows, stacks=stacks, forest=(values, parents))
        for _ in range(rng.randint(0, len(game))):
            game = game.take(rng.choice(game.moves()))
        engine = Engine(game)
        assert engine.value() == game.value() and engine.game == game
        if len(game):
            assert engine.best_move() == game.best_move()
            move = rng.choice(game.moves())
            engine.take(move)
            assert engine.game == game.take(move)
            assert engine.value() == game.take(move).value()


def test_illegal_forest_moves_change_nothing():
    engine = Engine(Game(rows=[[3]], stacks=[[1]], forest=([5, 6, 7], [-1, 0, 0])))
    value, before = engine.value(), engine.game
    for move, message in (
        (Move("tree", 1, "root", 1, 6), "not a root"),
        (Move("tree", 3, "root", 3, 6), "no node"),
        (Move("tree", 0, "top", 0, 5), "root"),
        (Move("tree", 0, "root", 0, 6), "coin there"),
        (Move("stack", 1, "top", 0, 1), "no such"),
        ("left", "Move"),
    ):
        with pytest.raises(ValueError, match=message):
            engine.take(move)
        assert engine.value() == value and engine.game == before and len(engine) == 5
    engine.take(Move("tree", 0, "root", 0, 5))
    with pytest.raises(ValueError, match="already taken"):
        engine.take(Move("tree", 0, "root", 0, 5))
    assert engine.game == Game(rows=[[3]], stacks=[[1]], forest=([5, 6, 7], [-1, 0, 0])).take(
        Move("tree", 0, "root", 0, 5))


def test_engine_on_an_empty_forest_and_the_kernel_bounds():
    assert Engine(Game(forest=([], []))).value() == 0
    engine = Engine(Game(rows=[[1, 2]], forest=([], [])))
    assert engine.value() == 1 and engine.best_move() == Game(rows=[[1, 2]],
                                                              forest=([], [])).best_move()
    windows = engine._windows
    for bad in (lambda: windows.take_node(0), lambda: windows.pop_left(1),
                lambda: windows.pop_right(-1)):
        with pytest.raises(IndexError):
            bad()


@pytest.mark.slow
@given(
    st.lists(st.tuples(st.integers(-4, 4), st.integers(-1, 7)), max_size=8),
    st.lists(st.lists(st.integers(-4, 4), max_size=3), max_size=2),
    st.lists(st.lists(st.integers(-4, 4), max_size=3), max_size=1),
    st.randoms(use_true_random=False),
)
def test_engine_on_forests_hypothesis(nodes, rows, stacks, rng):
    values = [v for v, _ in nodes]
    parents = [p if 0 <= p < i else -1 for i, (_, p) in enumerate(nodes)]
    _play_forest_game(rows, stacks, values, parents, rng, "random")


def _roundtrip(engine):
    return pickle.loads(pickle.dumps(engine, pickle.HIGHEST_PROTOCOL))


def test_engine_on_forests_copies_and_pickles():
    """Copies of an engine with a forest are independent; a pickle plays from where it was
    (the game it started from, the coins and nodes taken since) and names moves alike."""
    rng = random.Random(45)
    for game_number in range(scaled(150)):
        rows, stacks, values, parents = _forest_position(rng, 9)
        game = Game(rows=rows, stacks=stacks, forest=(values, parents))
        if game_number % 3 == 0:  # an engine built part way through a game
            for _ in range(rng.randint(0, len(game))):
                game = game.take(rng.choice(game.moves()))
        engine = Engine(game)
        for _ in range(rng.randint(0, len(engine))):
            engine.take(rng.choice(engine.moves()))
        before = (engine.game, len(engine), engine.value(), engine.moves())
        for make in (copy.copy, copy.deepcopy, _roundtrip):
            twin = make(engine)
            assert (twin.game, len(twin), twin.value(), twin.moves()) == before
            if not len(twin):
                continue
            assert twin.best_move() == engine.best_move()
            move = rng.choice(twin.moves())
            assert twin.take(move) == move
            assert (engine.game, len(engine), engine.value(), engine.moves()) == before
            assert twin.game == engine.game.take(move)
            assert twin.value() == Engine(twin.game).value() == twin.game.value()
            if len(twin):
                assert twin.best_move() == twin.game.best_move()


def test_engine_on_forests_unpickling_refuses_a_tampered_state():
    engine = Engine(Game(rows=[[1, 2]], forest=([5, 6, 7], [-1, 0, 0])))
    engine.take(Move("tree", 0, "root", 0, 5))
    engine.take(Move("tree", 2, "root", 2, 7))
    function, arguments = engine.__reduce__()
    start, left, right, nodes = arguments
    assert list(nodes) == [0, 2]
    assert function(*arguments).game == engine.game
    for bad in ([2], [0, 0], [3], [-1], [1, 0]):
        with pytest.raises(ValueError, match="does not match"):
            function(start, left, right, bad)
    with pytest.raises(ValueError, match="does not match"):
        function(Game(rows=[[1, 2]]), left, right, [0])


# -- the legal moves of a forest engine, from its set of roots ------------------------------


def _brute_moves(rows, stacks, values, parents, state) -> list[tuple]:
    """(kind, index, end, position) of every legal move of ``after_move``'s state, in the
    order of ``moves()``: rows (left end, then right), stacks, roots by node."""
    bounds, tops, present = state
    found = []
    for c, (i, j) in enumerate(bounds):
        if i < j:
            found.append(("row", c, "left", i))
            if j - i > 1:
                found.append(("row", c, "right", j - 1))
    found += [("stack", c, "top", t) for c, t in enumerate(tops) if t < len(stacks[c])]
    found += [("tree", node, "root", node) for node in range(len(values))
              if present >> node & 1 and (parents[node] < 0 or not present >> parents[node] & 1)]
    return found


def test_forest_engine_moves_are_the_legal_moves_after_any_moves():
    """On random forests (every shape, parents anywhere) with rows and stacks, the engine's
    moves() after every move of either side is exactly the legal moves (the minimax
    oracle's state), as Game.moves() lists them; through copies, pickles and a position
    read back from the structure (what an interrupted move leaves) as well."""
    rng = random.Random(5101)
    for _ in range(drawn(300)):
        values, parents = random_forest(rng, rng.randint(0, 12))
        rows = [random_row(rng, rng.randint(0, 4), SMALL_STYLES) for _ in range(rng.randint(0, 2))]
        stacks = [random_row(rng, rng.randint(0, 3), SMALL_STYLES)
                  for _ in range(rng.randint(0, 2))]
        game = Game(rows=rows, stacks=stacks, forest=(values, parents))
        engine = Engine(game)
        state = (tuple((0, len(r)) for r in rows), tuple(0 for _ in stacks),
                 (1 << len(values)) - 1)
        solve = brute_forest_solver(rows, stacks, values, parents) if len(values) <= 8 else None
        while True:
            listed = engine.moves()
            assert [m[:4] for m in listed] == _brute_moves(rows, stacks, values, parents, state)
            assert listed == engine.game.moves()
            if solve is not None:
                assert engine.value() == solve(*state)
            if not listed:
                break
            move = rng.choice(listed) if rng.random() < 0.7 else engine.best_move()
            engine.take(move)
            state = after_move(state, move)
            pick = rng.random()
            if pick < 0.05:
                engine = copy.copy(engine)
            elif pick < 0.1:
                engine = pickle.loads(pickle.dumps(engine))
            elif pick < 0.15:
                engine._resync()


def test_forest_engine_moves_on_long_paths_and_wide_stars():
    """The roots kept by moves: a path's one root moves down it; a star's center releases
    every leaf at once."""
    n = scaled(3000)
    path = Engine(Game(forest=(list(range(n)), [-1] + list(range(n - 1)))))
    for node in range(n):
        (move,) = path.moves()
        assert move == Move("tree", node, "root", node, node)
        path.take(move)
    assert path.moves() == [] and len(path) == 0
    star = Engine(Game(forest=([5] * n, [-1] + [0] * (n - 1))))
    star.take(star.moves()[0])
    assert [m.index for m in star.moves()] == list(range(1, n))
    gone = range(n - 1, 0, -2)
    for node in gone:
        star.take(Move("tree", node, "root", node, 5))
    assert [m.index for m in star.moves()] == sorted(set(range(1, n)) - set(gone))


# -- one engine shared by several threads ----------------------------------------------------


@pytest.mark.parametrize("kind", ["row", "rows and stacks", "forest"])
def test_an_engine_shared_by_threads_plays_each_coin_once(kind):
    """Four threads take moves on one engine (a random legal move or the best one, read
    first and taken next, so another thread may have taken that coin in between: then take
    refuses it with ValueError, as it refuses any illegal move). No other error, every coin
    taken exactly once, len() never negative, and the engine ends empty and consistent."""
    import sys
    import threading

    rng = random.Random(5102)
    n = scaled(2000)
    values = [rng.randint(-50, 50) for _ in range(n)]
    if kind == "row":
        game = Game(rows=[values])
    elif kind == "rows and stacks":
        game = Game(rows=[values[: n // 2]], stacks=[values[n // 2:]])
    else:
        game = Game(rows=[values[:100]], stacks=[values[100:200]],
                    forest=(values[200:], random_parents(rng, n - 200)))
    engine = Engine(game)
    taken: list[Move] = []
    problems: list[str] = []
    # A move is recorded under this lock with its take, so that ``taken`` is in the engine's
    # order (another thread could take and record a move between a take and its append);
    # reading the move (moves(), best_move()) stays outside it, racing the other threads.
    recording = threading.Lock()

    def player(seed: int) -> None:
        mine = random.Random(seed)
        while len(engine):
            if len(engine) < 0:
                problems.append("negative len")
                return
            try:
                if mine.random() < 0.5:
                    listed = engine.moves()
                    if not listed:
                        return
                    move = mine.choice(listed)
                else:
                    move = engine.best_move()
                with recording:
                    taken.append(engine.take(move))
            except ValueError:
                pass  # the coin went to another thread first (or the game ended)
            except Exception as error:  # pragma: no cover - what the test is for
                problems.append(repr(error))
                return

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)  # switch threads as often as possible
    try:
        threads = [threading.Thread(target=player, args=(seed,)) for seed in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert problems == []
    assert len(engine) == 0 and engine.moves() == [] and len(engine.game) == 0
    assert len(taken) == len(game)
    assert len({(m.kind, m.index, m.position) for m in taken}) == len(game)
    # The moves, in the order the engine made them, are a legal game.
    replay = game
    for move in taken:
        replay = replay.take(move)
    assert len(replay) == 0
