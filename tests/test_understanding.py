"""Move values, reviews and explanations against the oracles (minimax, the O(n^2) DP, an
independent Fusion), on many random small games of rows, stacks and forests, of every number
type."""

from __future__ import annotations

import random
from decimal import Decimal
from fractions import Fraction
from itertools import pairwise
from typing import Any

import pytest

import coinsrow
from coinsrow import Engine, Game, Move, analyze, explain, simulate

from generators import random_forest, random_game, random_row
from modes import drawn
from oracles import after_move, brute_forest_solver, dp_table, paper_value

NUMBER_TYPES = (int, Fraction, Decimal)


def _typed(rng: random.Random, components: list[list[int]], kind: type) -> list[list[Any]]:
    if kind is Fraction:
        return [[Fraction(x, rng.choice((1, 2, 3))) for x in c] for c in components]
    if kind is Decimal:
        return [[Decimal(x) / 4 for x in c] for c in components]
    return components


def _random_position(rng: random.Random, forests: bool) -> tuple[Game, Any, Any]:
    """A random small game, its oracle and the oracle's state, some moves already made."""
    rows, stacks = random_game(rng, 8, -3, 5)
    kind = rng.choice(NUMBER_TYPES)
    rows, stacks = _typed(rng, rows, kind), _typed(rng, stacks, kind)
    values: list[Any] = []
    parents: list[int] = []
    if forests and rng.random() < 0.5:
        values, parents = random_forest(rng, rng.randint(1, 5), -3, 6)
        values = _typed(rng, [values], kind)[0]
    game = Game(rows=rows, stacks=stacks, forest=(values, parents) if values else None)
    solve = brute_forest_solver(rows, stacks, values, parents)
    state = (tuple((0, len(r)) for r in rows), tuple(0 for _ in stacks),
             (1 << len(values)) - 1)
    for _ in range(rng.randint(0, 3)):
        legal = game.moves()
        if not legal:
            break
        move = rng.choice(legal)
        game, state = game.take(move), after_move(state, move)
    return game, solve, state


def test_move_values_of_floats_are_the_exact_worths_rounded() -> None:
    rng = random.Random(7)
    for _ in range(300):
        rows, stacks = random_game(rng, 8, -40, 40)
        rows = [[x / 8 for x in r] for r in rows]
        stacks = [[x / 8 + 0.1 for x in s] for s in stacks]
        game = Game(rows=rows, stacks=stacks)
        exact_rows = [[Fraction(x) for x in r] for r in rows]
        exact_stacks = [[Fraction(x) for x in s] for s in stacks]
        solve = brute_forest_solver(exact_rows, exact_stacks, (), ())
        state = (tuple((0, len(r)) for r in rows), tuple(0 for _ in stacks), 0)
        for move, worth in game.move_values():
            want = Fraction(move.coin) - solve(*after_move(state, move))
            assert type(worth) is float and worth == float(want)


def test_move_values_of_a_row_match_the_dp() -> None:
    rng = random.Random(11)
    for _ in range(1500):
        row = [rng.randint(-3, 6) for _ in range(rng.randint(1, 9))]
        d = dp_table(row)
        n = len(row)
        got = {m.end: w for m, w in Game(rows=[row]).move_values()}
        assert got["left"] == row[0] - d[1][n]
        if n > 1:
            assert got["right"] == row[-1] - d[0][n - 1]


def test_move_values_of_an_empty_game() -> None:
    assert Game(rows=[[]]).move_values() == [] == Engine([]).move_values()


def _random_moves(rng: random.Random, game: Game) -> list[Any]:
    """A whole game, or its beginning, played by random choices or by a strategy."""
    how = rng.choice(("random", "greedy", "optimal", "mixed"))
    if how == "random" or (game.forest is not None and how == "mixed"):
        moves, g = [], game
        while g.moves() and rng.random() < 0.95:
            move = rng.choice(g.moves())
            moves.append(move)
            g = g.take(move)
        return moves
    second = "optimal" if how == "mixed" else how
    return simulate(game, how if how != "mixed" else "greedy", second).moves


#: Random small games per seed of the test against minimax (4 seeds: 3,200 games as CI draws them).
GAMES_PER_SEED = drawn(800)


@pytest.mark.parametrize("seed", range(4))
def test_move_values_and_reviews_agree_with_minimax(seed: int) -> None:
    """On each random position (rows, stacks, forests; ints, Fractions, Decimals; ties),
    every legal move's worth, then the review of a game played from there."""
    rng = random.Random(100 + seed)
    for _ in range(GAMES_PER_SEED):
        game, solve, state = _random_position(rng, forests=True)
        found = game.move_values()
        if rng.random() < 0.1:
            assert Engine(game).move_values() == found
        assert [m for m, _ in found] == game.moves()
        for move, worth in found:
            want = move.coin - solve(*after_move(state, move))
            assert worth == want and type(worth) is type(game.value()), (game, move)
        if found:
            assert max(w for _, w in found) == game.value() == solve(*state)
        _check_review(game, solve, state, _random_moves(rng, game))


def _check_review(game: Game, solve: Any, state: Any, moves: list) -> None:
    analysis = analyze(game, moves)
    assert len(analysis) == len(moves)
    assert analysis.optimal == solve(*state) == game.value()
    taken = [Fraction(0), Fraction(0)]
    for turn, (review, move) in enumerate(zip(analysis, moves)):
        assert review.turn == turn and review.player == turn % 2
        best = solve(*state)
        state = after_move(state, review.move)
        worth = review.coin - solve(*state)
        assert (review.best, review.worth, review.loss) == (best, worth, best - worth)
        assert review.loss >= 0
        assert review.move == move
        taken[turn % 2] += Fraction(review.coin)
    assert (analysis.first, analysis.second) == tuple(taken)
    assert analysis.losses == (sum(r.loss for r in analysis[0::2]),
                               sum(r.loss for r in analysis[1::2]))
    assert analysis.finished == (len(game) == len(moves))
    if analysis.finished:
        assert (analysis.first - analysis.second
                == analysis.optimal - analysis.losses[0] + analysis.losses[1])


def test_analyze_of_optimal_play_loses_nothing() -> None:
    rng = random.Random(5)
    for _ in range(300):
        rows, stacks = random_game(rng, 12, -5, 9)
        game = Game(rows=rows, stacks=stacks)
        analysis = analyze(game, simulate(game))
        assert analysis.losses == (0, 0) and analysis.finished
        assert (analysis.first, analysis.second) == tuple(game.profits())


def test_analyze_takes_a_playout_and_row_ends() -> None:
    row = [1, 2, 1000, 3, 4, 900]
    by_names = analyze(row, ["left", "right", "right", "left", "left", "left"])
    playout = simulate(row, "greedy", "optimal")
    assert [r.loss for r in by_names] == [1792, 0, 0, 0, 0, 0]
    assert analyze(row, playout).first == playout.first
    assert (by_names.first, by_names.second, by_names.optimal) == (1005, 905, 1892)


def test_analyze_of_floats() -> None:
    rng = random.Random(9)
    for _ in range(200):
        row = [rng.uniform(-5, 9) for _ in range(rng.randint(1, 8))]
        moves = simulate(row, "random", "greedy", seed=rng.random()).moves
        analysis = analyze(row, moves)
        d = dp_table([Fraction(x) for x in row])
        i, j = 0, len(row)
        for review in analysis:
            assert review.best == pytest.approx(float(d[i][j]), abs=1e-9)
            i, j = (i + 1, j) if review.move.end == "left" else (i, j - 1)
            assert review.loss >= 0 and type(review.loss) is float


@pytest.mark.parametrize("moves, turn", [(["left", "up"], 1), (["left"] * 4, 3),
                                         ([Move("row", 0, "left", 1, 5)], 0)])
def test_analyze_names_the_turn_of_an_illegal_move(moves: list, turn: int) -> None:
    with pytest.raises(ValueError, match=f"^turn {turn} \\(move {turn + 1}\\): "):
        analyze([1, 2, 3], moves)


def test_analyze_refuses_a_non_iterable() -> None:
    with pytest.raises(TypeError, match="iterable"):
        analyze([1, 2], 5)


# -- explain -------------------------------------------------------------------------------

def _independent_fusion(coins: list[Any]) -> list[Any]:
    """The reduced values by the strict tie rule, written apart from the library: fuse the
    leftmost x <= M > y anywhere until none is left (the reduced form is unique,
    docs/window.md, so any order gives the kernels' form)."""
    values = list(coins)
    changed = True
    while changed:
        changed = False
        for i in range(len(values) - 2):
            x, m, y = values[i:i + 3]
            if x <= m > y:
                values[i:i + 3] = [x - m + y]
                changed = True
                break
    return values


def _replay(coins: list[Any], first: int, fusions: list) -> list[tuple[Any, int, int]]:
    """The segments left after applying the recorded Fusions to the coins."""
    segments = [(x, first + p, first + p + 1) for p, x in enumerate(coins)]
    for step in fusions:
        i = next(i for i, s in enumerate(segments) if s[1] == step.x.start)
        x, m, y = segments[i:i + 3]
        assert (x, m, y) == (tuple(step.x), tuple(step.middle), tuple(step.y))
        assert x[0] <= m[0] > y[0] and step.fused.value == x[0] - m[0] + y[0]
        segments[i:i + 3] = [(step.fused.value, x[1], y[2])]
    return segments


@pytest.mark.parametrize("seed", range(4))
def test_explain_replays_to_its_reduced_rows_and_value(seed: int) -> None:
    rng = random.Random(200 + seed)
    for _ in range(drawn(2600)):  # 4 seeds: 10,400 games in CI
        rows, stacks = random_game(rng, 10, -3, 5)
        kind = rng.choice(NUMBER_TYPES)
        rows, stacks = _typed(rng, rows, kind), _typed(rng, stacks, kind)
        game = Game(rows=rows, stacks=stacks)
        if rng.random() < 0.3 and game.moves():
            game = game.take(rng.choice(game.moves()))
        e = explain(game)
        components = list(game.rows) + list(game.stacks)
        for c, coins in enumerate(components):
            mine = [s for s in e.fusions if s.component == c]
            replayed = _replay(list(coins), e.offsets[c], mine)
            assert [tuple(s) for s in e.reduced[c]] == replayed
            assert [s.value for s in e.reduced[c]] == _independent_fusion(list(coins))
        signed = sum((s.sign * s.segment.value for s in e.greedy), 0)
        assert e.value == signed + sum((s.amount for s in e.fruitless), 0)
        assert e.value == game.value() == paper_value(game.rows, game.stacks)
        assert e.play == game.play()


def test_explain_reduced_rows_are_the_window_structures() -> None:
    """The Engine's window structure keeps the same reduced form (its kept boundaries)."""
    from array import array

    from coinsrow import _core
    rng = random.Random(3)
    for _ in range(500):
        row = [rng.randint(-2, 3) for _ in range(rng.randint(1, 12))]
        windows = _core.RowWindowsExact(row, array("q", [0]), array("q", [len(row)]), 1)
        kept = windows.kept(0)
        assert [(s.start, s.stop) for s in explain(row).reduced[0]] == list(pairwise(kept))


def test_explain_of_floats_is_the_kernels_value() -> None:
    rng = random.Random(4)
    for _ in range(300):
        rows, stacks = random_game(rng, 10, -50, 50)
        game = Game(rows=[[x / 7 for x in r] for r in rows], stacks=[[x / 3 for x in s]
                                                                    for s in stacks])
        assert explain(game).value == game.value()
    huge = [1e308, 1e308, -1e308, 1e308]
    assert explain(huge).value == coinsrow.value(huge)


def test_explain_text_summarises_a_long_game() -> None:
    text = str(explain(list(range(100000, 0, -1)) + [5, 9, 1] * 1000))
    assert len(text.splitlines()) < 120 and "more greedy steps" in text


def test_explain_refuses_a_forest() -> None:
    with pytest.raises(ValueError, match="forest"):
        explain(Game(forest=([1, 2], [-1, 0])))


def test_explain_of_the_example() -> None:
    e = explain([3, 2, 2, 3, 1, 2])
    assert [tuple(s.fused) for s in e.fusions] == [(0, 2, 5)]
    assert [s.segment.value * s.sign for s in e.greedy] == [3, -2, 2, 0]
    assert e.value == 3


def test_analyze_of_floats_beyond_the_range_is_the_exact_review_rounded() -> None:
    """Coins near the float maximum: values beyond the range come out as infinities, and
    the review is the exact one rounded once (never NaN, no loss below 0)."""
    rng = random.Random(12)
    huge = 1.7976931348623157e308
    for _ in range(100):
        row = [rng.choice((huge, -huge, huge / 2, 1.0, 0.0)) for _ in range(rng.randint(1, 7))]
        moves = simulate(row, "random", "random", seed=rng.random()).moves
        exact = analyze([Fraction(x) for x in row],
                        [m._replace(coin=Fraction(m.coin)) for m in moves])
        got = analyze(row, moves)
        for r, e in zip(got, exact):
            for x, want in ((r.best, e.best), (r.worth, e.worth), (r.loss, e.loss)):
                assert type(x) is float and x == coinsrow._coins.round_float(want)


def test_analyze_of_float_games_with_forests_is_exact_then_rounded() -> None:
    rng = random.Random(13)
    for _ in range(150):
        rows, stacks = random_game(rng, 6, -9, 9)
        values, parents = random_forest(rng, rng.randint(1, 4), -9, 9)
        rows = [[x / 3 for x in r] for r in rows]
        stacks = [[x / 7 for x in s] for s in stacks]
        values = [x / 5 for x in values]
        game = Game(rows=rows, stacks=stacks, forest=(values, parents))
        kept = list(range(len(values)))  # the original numbers of the nodes left
        if rng.random() < 0.5:  # from a position reached by a move: numbered again
            first = rng.choice(game.moves())
            game = game.take(first)
            if first.kind == "tree":
                kept.remove(first.index)
        values, parents = game.forest  # type: ignore[misc]
        solve = brute_forest_solver([[Fraction(x) for x in r] for r in game.rows],
                                    [[Fraction(x) for x in s] for s in game.stacks],
                                    [Fraction(x) for x in values], parents)
        state = (tuple((0, len(r)) for r in game.rows), tuple(0 for _ in game.stacks),
                 (1 << len(values)) - 1)
        for review in analyze(game, _random_moves(rng, game)):
            best = solve(*state)
            move = review.move
            if move.kind == "tree":
                move = move._replace(index=kept.index(move.index))
            state = after_move(state, move)
            worth = Fraction(review.coin) - solve(*state)
            assert (review.best, review.worth, review.loss) == \
                (float(best), float(worth), float(best - worth))


def _as_fractions(game: Game) -> Game:
    """The same game with every float coin as the Fraction of its exact value."""
    forest = game.forest
    return Game(rows=[[Fraction(x) for x in r] for r in game.rows],
                stacks=[[Fraction(x) for x in s] for s in game.stacks],
                forest=None if forest is None else ([Fraction(x) for x in forest[0]], forest[1]))


@pytest.mark.parametrize("seed", range(2))
def test_engine_move_values_are_the_values_after_taking_each_move(seed: int) -> None:
    """Random Engines mid-game, many moves deep (rows of every style, up to 40 coins, with
    stacks and forests; ints, big ints, floats, Fractions): each move's worth is its coin
    minus the value of the game after the move is really taken, the largest worth is the
    Engine's value (floats: both exact, rounded once), and asking changes nothing."""
    rng = random.Random(500 + seed)
    for _ in range(drawn(30)):
        rows = [random_row(rng, rng.randint(0, 40)) for _ in range(rng.randint(1, 3))]
        stacks = [random_row(rng, rng.randint(0, 12)) for _ in range(rng.randint(0, 2))]
        kind = rng.choice((int, float, Fraction))
        if kind is float:
            rows = [[x / 4 for x in r] for r in rows]
            stacks = [[x / 4 for x in s] for s in stacks]
        elif kind is Fraction:
            rows = [[Fraction(x, 3) for x in r] for r in rows]
            stacks = [[Fraction(x, 3) for x in s] for s in stacks]
        forest = None
        if rng.random() < 0.3:
            forest = random_forest(rng, rng.randint(1, 12), -5, 9)
        engine = Engine(Game(rows=rows, stacks=stacks, forest=forest))
        while engine.moves():
            if rng.random() < 0.3:
                before = engine.game
                found = engine.move_values()
                assert [m for m, _ in found] == engine.moves()
                for move, worth in found:
                    after = engine.game.take(move)
                    if kind is float:  # the exact worth, rounded once
                        exact = Fraction(move.coin) - Engine(_as_fractions(after)).value()
                        assert worth == float(exact), (engine.game, move)
                    else:
                        assert worth == move.coin - Engine(after).value(), (engine.game, move)
                # Floats: the kernels' float value may lose small coins beside huge ones;
                # the worths are exact, rounded once.
                value = (float(Engine(_as_fractions(engine.game)).value()) if kind is float
                         else engine.value())
                assert max(w for _, w in found) == value
                assert engine.game == before
            engine.take(rng.choice(engine.moves()))
