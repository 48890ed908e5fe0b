"""Engine: every decision against the DP table (rows) and brute force (rows and stacks),
while the opponent plays random, greedy, always-left and adversarial moves."""

from __future__ import annotations

import random
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from coinsrow import Engine, Game, Move, _core
from oracles import brute_solver, brute_value, dp_table
from generators import SMALL_STYLES, random_row
from modes import MACHINE_WINDOWS

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
    assert isinstance(Engine([1, 2, 3])._windows, MACHINE_WINDOWS)
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


def test_engine_rows_and_stacks_against_brute_force():
    rng = random.Random(14)
    for game in range(700):
        n_rows = rng.randint(0, 3)
        n_stacks = rng.randint(0, 2) if game % 2 else 0
        rows = [random_row(rng, rng.randint(0, 4), SMALL_STYLES) for _ in range(n_rows)]
        stacks = [random_row(rng, rng.randint(0, 3), SMALL_STYLES) for _ in range(n_stacks)]
        _play_game_against_brute(rows, stacks, rng, ("random", "greedy", "left", "spoiler")[game % 4])


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


def test_engine_stacks_against_brute_force():
    rng = random.Random(17)
    for game in range(600):
        rows = [random_row(rng, rng.randint(0, 3), SMALL_STYLES) for _ in range(rng.randint(0, 2))]
        stacks = [random_row(rng, rng.randint(0, 7), SMALL_STYLES) for _ in range(rng.randint(1, 3))]
        if game % 5 == 0:
            rows = [[x / 4 for x in r] for r in rows]
            stacks = [[x / 4 for x in t] for t in stacks]
        engine = Engine(Game(rows=rows, stacks=stacks))
        assert isinstance(engine._windows, MACHINE_WINDOWS)
        _play_game_against_brute(rows, stacks, rng, ("random", "greedy", "left", "spoiler")[game % 4])


def test_engine_exact_stacks_against_brute_force():
    rng = random.Random(18)
    for game in range(300):
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
    with pytest.raises(ValueError):
        e.take("middle")
    with pytest.raises(ValueError):
        e.take(Move("row", 0, "left", 1, 1))
    with pytest.raises(ValueError):
        e.take(Move("row", 0, "left", 0, 4))
    with pytest.raises(ValueError):
        e.take(Move("row", 1, "left", 0, 5))
    with pytest.raises(ValueError):
        e.take(Move("stack", 0, "top", 0, 5))
    with pytest.raises(ValueError):
        e.take(42)
    assert len(e) == 3 and e.value() == 3 and e.game == Game(rows=[[5, 1, 3]])
    e.take("left")
    e.take("left")
    e.take("right")
    assert len(e) == 0 and e.value() == 0
    with pytest.raises(ValueError):
        e.best_move()
    with pytest.raises(ValueError):
        e.take("left")
    several = Engine(Game(rows=[[1], [2]]))
    with pytest.raises(ValueError):
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
            windows._check()


def test_engine_long_stacks_against_game_values():
    """Longer games: every value and best move checked with the core's Game.value."""
    rng = random.Random(19)
    for game in range(40):
        rows = [random_row(rng, rng.randint(0, 30), SMALL_STYLES) for _ in range(rng.randint(0, 3))]
        stacks = [random_row(rng, rng.randint(0, 40), SMALL_STYLES) for _ in range(rng.randint(1, 4))]
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
    return set(zip(kept, kept[1:]))


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


@given(
    st.lists(st.lists(st.integers(-4, 4), max_size=4), max_size=2),
    st.lists(st.lists(st.integers(-4, 4), max_size=5), min_size=1, max_size=2),
    st.randoms(use_true_random=False),
)
def test_engine_rows_and_stacks_hypothesis(rows, stacks, rng):
    _play_game_against_brute(rows, stacks, rng, "random")
