"""simulate(), Playout and the named strategies, checked against the oracles' values."""

from __future__ import annotations

import random
from array import array
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import coinsrow
from coinsrow import Game, Move, Playout, profits, simulate, value

from generators import random_forest, random_parents, random_row
from modes import drawn
from oracles import after_move, brute_forest_solver, brute_forest_value, brute_value, dp_value

ONE_ROW = ("optimal", "greedy", "lookahead", "random")  # usable by either player on one row
ANY_GAME = ("optimal", "greedy", "random")  # usable on rows and stacks


def _random_game(rng: random.Random) -> tuple[list, list]:
    # Small enough for the brute-force oracle: at most 7 * 7 * 7 * 5 * 5 positions.
    rows = [random_row(rng, rng.randint(0, 3)) for _ in range(rng.randint(0, 3))]
    stacks = [random_row(rng, rng.randint(0, 4)) for _ in range(rng.randint(0, 2))]
    style = rng.randrange(2)
    if style:  # one kind of coin for the whole game: small ints
        rows = [[x % 7 - 3 for x in r] for r in rows]
        stacks = [[x % 7 - 3 for x in s] for s in stacks]
    return rows, stacks


def _random_callable(rng: random.Random):
    """A user strategy: random legal moves from its own generator, in a variety of forms."""
    own = random.Random(rng.random())

    def user_strategy(game: Game) -> Move:
        moves = game.moves()
        move = moves[own.randrange(len(moves))]
        return tuple(move) if own.random() < 0.3 else move

    return user_strategy


def _margin(playout: Playout):
    return playout.first - playout.second


# -- optimal against optimal ----------------------------------------------------------------


def test_optimal_against_optimal_reproduces_profits_and_play():
    rng = random.Random(4001)
    for _ in range(300):
        row = random_row(rng, rng.randint(0, 60))
        playout = simulate(row)
        assert (playout.first, playout.second) == tuple(profits(row))
        assert playout.moves == Game(rows=[row]).play()
        assert len(playout.moves) == len(row)
    for _ in range(300):
        rows, stacks = _random_game(rng)
        game = Game(rows=rows, stacks=stacks)
        playout = simulate(game)
        assert (playout.first, playout.second) == tuple(game.profits())
        assert playout.moves == game.play()


def test_optimal_against_optimal_on_fractions_decimals_floats():
    rng = random.Random(4002)
    for _ in range(100):
        ints = random_row(rng, rng.randint(1, 30))
        for row in ([Fraction(x, rng.randint(1, 9)) for x in ints],
                    [Decimal(x).scaleb(-rng.randint(0, 30)) for x in ints],
                    [x / 8 for x in ints if abs(x) < 2**40]):
            playout = simulate(row)
            assert (playout.first, playout.second) == tuple(profits(row))
            if row:
                assert type(playout.first) is type(row[0]) and type(playout.second) is type(row[0])


# -- optimal is never beaten; nobody beats optimal ------------------------------------------


@pytest.mark.slow
def test_optimal_first_never_ends_below_the_value_on_rows():
    rng = random.Random(4003)
    for _ in range(drawn(700)):
        row = random_row(rng, rng.randint(0, 25))
        expected = dp_value(row)
        assert value(row) == expected
        for second in ONE_ROW + (_random_callable(rng),):
            assert _margin(simulate(row, "optimal", second, seed=rng.random())) >= expected, (
                row, second)


@pytest.mark.slow
def test_no_strategy_ends_above_the_value_against_optimal_on_rows():
    rng = random.Random(4004)
    for _ in range(drawn(700)):
        row = random_row(rng, rng.randint(0, 25))
        expected = dp_value(row)
        firsts = ONE_ROW + (_random_callable(rng),) + (("parity",) if len(row) % 2 == 0 else ())
        for first in firsts:
            assert _margin(simulate(row, first, "optimal", seed=rng.random())) <= expected, (
                row, first)


@pytest.mark.slow
def test_optimal_against_strategies_on_rows_and_stacks():
    rng = random.Random(4005)
    for _ in range(drawn(400)):
        rows, stacks = _random_game(rng)
        game = Game(rows=rows, stacks=stacks)
        expected = brute_value(rows, stacks)
        assert game.value() == expected
        others = ANY_GAME + (_random_callable(rng),)
        single_row = len([r for r in rows if r]) <= 1 and not any(stacks)
        if single_row:
            others += ("lookahead",)
        for other in others:
            seed = rng.random()
            assert _margin(simulate(game, "optimal", other, seed=seed)) >= expected
            assert _margin(simulate(game, other, "optimal", seed=seed)) <= expected


@given(st.lists(st.integers(-8, 8), max_size=24), st.sampled_from(ONE_ROW), st.integers())
def test_optimal_bounds_hypothesis(row, other, seed):
    expected = dp_value(row)
    assert _margin(simulate(row, "optimal", other, seed=seed)) >= expected
    assert _margin(simulate(row, other, "optimal", seed=seed)) <= expected


# -- the parity strategy ----------------------------------------------------------------------


@pytest.mark.slow
def test_parity_never_loses_on_even_rows():
    rng = random.Random(4006)
    for _ in range(drawn(600)):
        row = random_row(rng, 2 * rng.randint(0, 15))
        evens, odds = sum(row[0::2]), sum(row[1::2])
        for second in ONE_ROW + (_random_callable(rng),):
            playout = simulate(row, "parity", second, seed=rng.random())
            assert playout.first >= playout.second, (row, second)
            # She takes exactly the class she committed to: the larger one, ties to the first.
            assert playout.first == max(evens, odds)
            assert playout.first + playout.second == sum(row)


def test_parity_loses_to_optimal_play_on_the_textbook_rows():
    # {3, 2, 2, 3, 1, 2}: parity takes the even-numbered coins, 7; optimal gets 8.
    assert simulate([3, 2, 2, 3, 1, 2], "parity", "optimal").first == 7
    assert simulate([3, 2, 2, 3, 1, 2], "optimal", "optimal").first == 8
    # 1, 2, 1000, 3, 4, 900: parity takes 1, 1000 and 4.
    assert simulate([1, 2, 1000, 3, 4, 900], "parity", "optimal").first == 1005


def test_parity_on_a_position_reached_inside_a_longer_row():
    """Classes are those of the row as it is now, whatever its positions in the original."""
    rng = random.Random(4007)
    for _ in range(300):
        row = random_row(rng, 2 * rng.randint(1, 10) + 1)
        game = Game(rows=[row])
        game = game.take(game.moves()[rng.randrange(len(game.moves()))])
        rest = list(game.rows[0])
        evens, odds = sum(rest[0::2]), sum(rest[1::2])
        playout = simulate(game, "parity", "greedy")
        assert playout.first == max(evens, odds)


def test_parity_where_it_does_not_apply():
    with pytest.raises(ValueError, match=r"even length.*3 coins"):
        simulate([1, 2, 3], "parity")
    with pytest.raises(ValueError, match="first player"):
        simulate([1, 2, 3, 4], "optimal", "parity")
    with pytest.raises(ValueError, match=r"one row.*2 non-empty row"):
        simulate(Game(rows=[[1, 2], [3, 4]]), "parity")
    with pytest.raises(ValueError, match=r"one row.*1 non-empty stack"):
        simulate(Game(rows=[[1, 2]], stacks=[[5]]), "parity")
    # Empty components do not count: it is still one row.
    assert simulate(Game(rows=[[], [4, 1]], stacks=[[]]), "parity").first == 4


# -- greedy, lookahead, random ------------------------------------------------------------------


def _replay(game: Game, moves):
    positions = [game]
    for move in moves:
        positions.append(positions[-1].take(move))
    return positions


def _expected_greedy(game: Game) -> tuple:
    """(component order, end) of the first largest coin: rows by index, then stacks."""
    candidates = []
    for i, r in enumerate(game.rows):
        if r:
            candidates.append((r[0], ("row", i, "left")))
            if len(r) > 1:
                candidates.append((r[-1], ("row", i, "right")))
    for i, s in enumerate(game.stacks):
        if s:
            candidates.append((s[0], ("stack", i, "top")))
    top = max(c for c, _ in candidates)
    return next(where for c, where in candidates if c == top)


def test_greedy_takes_the_largest_coin_with_the_tie_rules():
    rng = random.Random(4008)
    for _ in range(400):
        rows, stacks = _random_game(rng)
        game = Game(rows=rows, stacks=stacks)
        playout = simulate(game, "greedy", "random", seed=rng.random())
        positions = _replay(game, playout.moves)
        for t in range(0, len(playout.moves), 2):
            move = playout.moves[t]
            assert (move.kind, move.index, move.end) == _expected_greedy(positions[t])


def test_greedy_ties_go_to_the_lowest_index_then_left():
    playout = simulate(Game(rows=[[5, 1, 5], [5]], stacks=[[5]]), "greedy", "greedy")
    assert [(m.kind, m.index, m.end) for m in playout.moves[:4]] == [
        ("row", 0, "left"), ("row", 0, "right"), ("row", 1, "left"), ("stack", 0, "top")]


def test_lookahead_follows_its_definition():
    rng = random.Random(4009)
    for _ in range(500):
        row = random_row(rng, rng.randint(1, 20))
        game = Game(rows=[row])
        playout = simulate(game, "lookahead", "random", seed=rng.random())
        positions = _replay(game, playout.moves)
        for t in range(0, len(row), 2):
            rest = positions[t].rows[0]
            if len(rest) == 1:
                continue
            choose_left = rest[0] - max(rest[1], rest[-1])
            choose_right = rest[-1] - max(rest[0], rest[-2])
            expected = "left" if choose_left >= choose_right else "right"
            assert playout.moves[t].end == expected, (rest, playout.moves[t])
    # The textbook rows: on 1, 2, 6, 4 the heuristic takes... 1 - max(2, 4) = -3 against
    # 4 - max(1, 6) = -2: the right end, 4.
    assert simulate([1, 2, 6, 4], "lookahead", "optimal").moves[0].coin == 4
    assert simulate([1, 2, 1000, 3, 4, 900], "lookahead", "optimal").first == 1901


def test_lookahead_needs_one_row():
    with pytest.raises(ValueError, match=r"lookahead.*one row"):
        simulate(Game(rows=[[1], [2]]), "lookahead")
    with pytest.raises(ValueError, match=r"lookahead.*second player.*one row"):
        simulate(Game(stacks=[[1, 2]]), "optimal", "lookahead")


def test_random_is_reproducible_with_a_seed_and_uses_it():
    rng = random.Random(4010)
    row = random_row(rng, 40)
    game = Game(rows=[row[:20], row[20:30]], stacks=[row[30:]])
    for seed in range(20):
        assert simulate(game, "random", "random", seed=seed) == simulate(
            game, "random", "random", seed=seed)
        assert simulate(row, "random", "greedy", seed=seed) == simulate(
            row, "random", "greedy", seed=seed)
    plays = {tuple(simulate(game, "random", "random", seed=seed).moves) for seed in range(20)}
    assert len(plays) > 10


def test_random_moves_are_spread_over_the_legal_moves():
    counts = {"left": 0, "right": 0}
    for seed in range(400):
        counts[simulate([1, 2, 3], "random", "random", seed=seed).moves[0].end] += 1
    assert 120 < counts["left"] < 280


# -- callables ------------------------------------------------------------------------------------


def test_callable_strategies_and_their_answers():
    row = [4, 8, 1, 5]

    def always_left(game):
        return "left"  # one row: "left"/"right" name a move

    playout = simulate(row, always_left, always_left)
    assert [m.position for m in playout.moves] == [0, 1, 2, 3]
    assert (playout.first, playout.second) == (5, 13)

    def always_right(game):
        return "right"

    assert simulate(row, always_right, "optimal").moves[0].position == 3
    assert simulate([7], always_right).first == 7  # one coin: both ends are the same coin

    def as_tuples(game):
        return tuple(game.best_move())

    assert simulate(row, as_tuples, as_tuples) == simulate(row)
    seen = []

    def watcher(game):
        assert isinstance(game, Game)
        seen.append(len(game))
        return game.best_move()

    simulate(Game(rows=[[1, 2], [3]], stacks=[[4, 5]]), watcher, "greedy")
    assert seen == [5, 3, 1]


def test_illegal_moves_are_a_value_error_naming_the_strategy():
    row = [4, 8, 1, 5]

    def cheat(game):
        return Move("row", 0, "left", 0, 100)

    def wrong_position(game):
        return Move("row", 0, "left", 3, 4)

    def no_such_row(game):
        return Move("row", 1, "left", 0, 4)

    def garbage(game):
        return None

    def stack_move_on_a_row(game):
        return Move("stack", 0, "top", 0, 4)

    for strategy in (cheat, wrong_position, no_such_row, garbage, stack_move_on_a_row):
        with pytest.raises(ValueError, match=f"strategy '{strategy.__name__}' \\(first player\\)"):
            simulate(row, strategy, "optimal")
        with pytest.raises(ValueError, match=f"'{strategy.__name__}' \\(second player\\).*turn 1"):
            simulate(row, "optimal", strategy)
    with pytest.raises(ValueError, match="'middle'"):
        simulate(row, lambda game: "middle")
    with pytest.raises(ValueError, match="illegal"):
        simulate(Game(rows=[[1, 2]], stacks=[[3]]), lambda game: "left")  # not one row


def test_unknown_or_wrong_type_of_strategy():
    with pytest.raises(ValueError, match="unknown strategy 'smart' for the first player") as caught:
        simulate([1, 2], "smart")
    for name in ("optimal", "greedy", "parity", "lookahead", "random"):
        assert repr(name) in str(caught.value)
    with pytest.raises(ValueError, match="second player"):
        simulate([1, 2], "optimal", "Optimal")
    with pytest.raises(TypeError, match=r"first player.*int"):
        simulate([1, 2], 3)
    with pytest.raises(TypeError, match=r"second player.*NoneType"):
        simulate([1, 2], "optimal", None)


# -- games and rows of every kind ---------------------------------------------------------------


def test_rows_of_every_kind_and_games():
    rng = random.Random(4011)
    for _ in range(60):
        row = [rng.randint(-50, 50) for _ in range(rng.randint(0, 30))]
        expected = simulate(row, "greedy", "lookahead")
        for same in (tuple(row), array("q", row), np.array(row, dtype=np.int32),
                     np.array(row, dtype=np.int64), iter(row), Game(rows=[row])):
            assert simulate(same, "greedy", "lookahead") == expected


def test_empty_and_one_coin_games():
    assert simulate([]) == Playout([], 0, 0)
    assert simulate(Game()) == Playout([], 0, 0)
    assert simulate([], "parity", "lookahead") == Playout([], 0, 0)
    playout = simulate([2.5], "greedy")
    assert playout == Playout([Move("row", 0, "left", 0, 2.5)], 2.5, 0.0)
    assert type(playout.second) is float
    assert type(simulate([Fraction(1, 3)]).second) is Fraction
    assert type(simulate([Decimal("0.1")]).second) is Decimal


def test_totals_add_up_and_inputs_are_unchanged():
    rng = random.Random(4012)
    for _ in range(200):
        row = random_row(rng, rng.randint(0, 30))
        copy = list(row)
        for first, second in (("greedy", "random"), ("random", "lookahead"), ("optimal", "greedy")):
            playout = simulate(row, first, second, seed=rng.random())
            assert playout.first + playout.second == sum(row)
            assert playout.first == sum(m.coin for m in playout.moves[0::2])
            assert sorted(m.position for m in playout.moves) == list(range(len(row)))
        assert row == copy
    arr = np.array([3, 1, 2, 9])
    game = Game(rows=[arr])
    simulate(game, "greedy", "random", seed=1)
    assert arr.tolist() == [3, 1, 2, 9] and game.rows == ((3, 1, 2, 9),)


def test_bad_rows_are_errors():
    with pytest.raises(ValueError, match="index 1"):
        simulate([1, float("nan")])
    with pytest.raises(TypeError, match="index 0"):
        simulate(["a"])
    with pytest.raises(TypeError):
        simulate(5)


def test_exported():
    for name in ("simulate", "Playout"):
        assert name in coinsrow.__all__ and getattr(coinsrow, name) is not None
    assert Playout._fields == ("moves", "first", "second")


# -- through the Engine; forests through Game.take ----------------------------------------------


def _random_forest(rng: random.Random, n: int) -> tuple[list, list]:
    """Values with many ties (0 and 3 often) on a random forest."""
    return [rng.choice([rng.randint(-6, 6), 0, 3]) for _ in range(n)], random_parents(rng, n)


def test_optimal_off_the_line_plays_the_engines_best_move():
    """Once a move leaves the optimal line, every optimal move is the Engine's best move."""
    rng = random.Random(4013)
    for _ in range(300):
        if rng.random() < 0.5:
            rows, stacks = [random_row(rng, rng.randint(0, 40))], []
        else:
            rows, stacks = _random_game(rng)
        game = Game(rows=rows, stacks=stacks)
        line = game.play()
        playout = simulate(game, "optimal", "random", seed=rng.random())
        engine = coinsrow.Engine(game)
        on_line = True
        for turn, move in enumerate(playout.moves):
            if turn % 2 == 0:
                expected = line[turn] if on_line else engine.best_move()
                assert move == expected, (game, turn)
            engine.take(move)
            on_line = on_line and (move.kind, move.index, move.position) == (
                line[turn].kind, line[turn].index, line[turn].position)


def test_strategies_see_the_current_position_and_its_line():
    rng = random.Random(4014)
    for _ in range(100):
        rows, stacks = _random_game(rng)
        game = Game(rows=rows, stacks=stacks)
        seen: list[Game] = []

        def recorder(position: Game, seen: list[Game] = seen) -> Move:
            seen.append(position)
            return position.best_move()

        playout = simulate(game, recorder, "random", seed=rng.random())
        positions = _replay(game, playout.moves)
        assert seen == positions[0::2][:len(seen)]
        assert len(seen) == (len(game) + 1) // 2
        assert _margin(playout) >= game.value()


def test_forests_optimal_against_optimal_reproduces_profits_and_play():
    rng = random.Random(4015)
    for _ in range(300):
        rows, stacks = _random_game(rng)
        forest = _random_forest(rng, rng.randint(0, 6))
        game = Game(rows=rows, stacks=stacks, forest=forest)
        playout = simulate(game)
        assert (playout.first, playout.second) == tuple(game.profits())
        assert playout.moves == game.play()
        assert sum(m.kind == "tree" for m in playout.moves) == len(forest[0])


def test_forests_optimal_against_every_strategy():
    rng = random.Random(4016)
    for _ in range(250):
        rows, stacks = _random_game(rng)
        rows, stacks = rows[:2], stacks[:1]  # keep the brute force small
        values, parents = _random_forest(rng, rng.randint(0, 6))
        game = Game(rows=rows, stacks=stacks, forest=(values, parents))
        expected = brute_forest_value(rows, stacks, values, parents)
        assert game.value() == expected
        for other in ANY_GAME + (_random_callable(rng),):
            seed = rng.random()
            playout = simulate(game, "optimal", other, seed=seed)
            assert _margin(playout) >= expected, (game, other)
            assert sorted(m.position for m in playout.moves if m.kind == "tree") == list(
                range(len(values)))
            assert _margin(simulate(game, other, "optimal", seed=seed)) <= expected, (game, other)


def test_forest_strategies_that_do_not_apply_and_illegal_tree_moves():
    game = Game(forest=([1, 2, 3], [-1, 0, 0]))
    with pytest.raises(ValueError, match=r"lookahead.*one row.*forest of 3 node"):
        simulate(game, "lookahead")
    with pytest.raises(ValueError, match=r"parity.*one row.*forest of 1 node"):
        simulate(Game(rows=[[1, 2]], forest=([1], [-1])), "parity")
    # Empty forests do not count: still one row.
    assert simulate(Game(rows=[[4, 1]], forest=([], [])), "lookahead").first == 4

    def child(position):
        return Move("tree", 1, "root", 1, 2)  # node 1's parent, node 0, is still there

    with pytest.raises(ValueError, match=r"'child' \(first player\).*turn 0"):
        simulate(game, child, "optimal")
    # greedy takes the largest root; ties: rows, then stacks, then the forest in node order
    playout = simulate(Game(rows=[[2]], forest=([2, 9, 1], [-1, 0, -1])), "greedy", "greedy")
    assert [(m.kind, m.index) for m in playout.moves] == [
        ("row", 0), ("tree", 0), ("tree", 1), ("tree", 2)]


def test_optimal_against_optimal_follows_the_line_without_an_engine(monkeypatch):
    """Optimal against optimal is the O(n log k) line: no O(n log n) engine is built."""
    import coinsrow._strategies as strategies

    def no_engine(game):
        raise AssertionError("an Engine was built for a game that stayed on the line")

    monkeypatch.setattr(strategies, "Engine", no_engine)
    rng = random.Random(61)
    for _ in range(100):
        rows = [[rng.randint(-5, 5) for _ in range(rng.randint(0, 8))] for _ in range(2)]
        stacks = [[rng.randint(-5, 5) for _ in range(rng.randint(0, 5))]]
        game = Game(rows=rows, stacks=stacks)
        playout = simulate(game)
        assert playout.moves == game.play()
        assert (playout.first, playout.second) == game.profits()


# -- forests through the Engine: every move by its rule, the optimal ones by the oracle ----------


def _forest_reference_move(position: Game, name: str, rng: random.Random) -> Move:
    """The move of ``name`` by its definition on the whole list of legal moves."""
    listed = position.moves()  # rows (left, right), stacks, then roots by node
    if name == "random":
        return listed[rng.randrange(len(listed))]
    best = listed[0]
    for move in listed:
        if move.coin > best.coin:
            best = move
    return best


def test_forest_strategies_follow_their_rules_and_optimal_play_the_oracles_moves():
    """On random forests (every shape, parents anywhere) with rows and stacks: each greedy
    and random move is the one its definition picks from the position's legal moves (random:
    the same draws of the same generator), and each optimal move keeps the minimax value
    (coin - value after = value before), whoever the opponent is."""
    rng = random.Random(4017)
    for _ in range(drawn(200)):
        rows, stacks = _random_game(rng)
        rows, stacks = rows[:2], stacks[:1]
        values, parents = random_forest(rng, rng.randint(0, 7))
        game = Game(rows=rows, stacks=stacks, forest=(values, parents))
        solve = brute_forest_solver(rows, stacks, values, parents)
        first, second = rng.choice([("greedy", "optimal"), ("optimal", "random"),
                                    ("random", "greedy"), ("greedy", "greedy"),
                                    ("random", "optimal")])
        seed = rng.random()
        playout = simulate(game, first, second, seed=seed)
        draws = random.Random(seed)
        state = (tuple((0, len(r)) for r in rows), tuple(0 for _ in stacks),
                 (1 << len(values)) - 1)
        position = game
        for turn, move in enumerate(playout.moves):
            name = (first, second)[turn % 2]
            before = solve(*state)
            state = after_move(state, move)
            if name == "optimal":
                assert move.coin - solve(*state) == before, (game, turn, move)
            else:
                assert move == _forest_reference_move(position, name, draws), (game, turn)
            position = position.take(move)
        assert len(position) == 0 and len(playout.moves) == len(game)
        assert sorted(m.index for m in playout.moves if m.kind == "tree") == list(
            range(len(values)))
        assert (playout.first, playout.second) == (
            sum(m.coin for m in playout.moves[0::2]), sum(m.coin for m in playout.moves[1::2]))


def test_forest_strategies_on_big_forests_take_every_node_once():
    """Greedy and random against optimal on forests of thousands of nodes (paths, stars,
    random trees): legal moves only (the playout checks each), each node once, the optimal
    player's margin at least the value when it moves first."""
    rng = random.Random(4018)
    for _ in range(6):
        values, parents = random_forest(rng, rng.randint(1000, 3000), -50, 50)
        game = Game(rows=[[rng.randint(-9, 9) for _ in range(50)]], forest=(values, parents))
        for other in ("greedy", "random"):
            playout = simulate(game, "optimal", other, seed=rng.random())
            assert sorted(m.index for m in playout.moves if m.kind == "tree") == list(
                range(len(values)))
            assert _margin(playout) >= game.value()
