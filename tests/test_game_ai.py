"""The game-AI adapters: coinsrow.spiel (OpenSpiel) and coinsrow.envs (Gymnasium, PettingZoo),
held to the frameworks' own checkers and to the exact value; skipped without the frameworks."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

import coinsrow

from oracles import dp_value


def test_import_coinsrow_imports_no_framework():
    code = ("import sys, coinsrow; bad = [m for m in ('pyspiel', 'gymnasium', 'pettingzoo', "
            "'open_spiel') if m in sys.modules]; print(bad); sys.exit(1 if bad else 0)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


# ---- OpenSpiel -------------------------------------------------------------------------------

def _spiel():
    pyspiel = pytest.importorskip("pyspiel")
    import coinsrow.spiel as spiel
    return pyspiel, spiel


def _row_text(row):
    return " ".join(map(str, row))


@pytest.mark.parametrize("params", [
    {"coins": "1 2 1000 3 4 900"},
    {"coins": "3 1 4", "stacks": "9 2 6 | 5 5"},
    {"n": 9, "seed": 4, "max_coin": 20},
    {"coins": "", "stacks": "1 2 | 3"},
    {"coins": "-3 0 0 7 -2"},
])
def test_random_sim_test_passes(params):
    pyspiel, _ = _spiel()
    game = pyspiel.load_game("coins_in_a_row", params)
    pyspiel.random_sim_test(game, num_sims=6, serialize=True, verbose=False)


def test_alpha_beta_search_agrees_with_value_on_random_small_games():
    pyspiel, _ = _spiel()
    from open_spiel.python.algorithms import minimax
    rng = random.Random(41)
    for trial in range(220):
        row = [rng.randint(-5, 9) for _ in range(rng.randint(1, 6))]
        params = {"coins": _row_text(row)}
        stacks = []
        if trial % 4 == 0:
            stacks = [[rng.randint(-5, 9) for _ in range(rng.randint(1, 2))]]
            params["stacks"] = "|".join(map(_row_text, stacks))
        game = pyspiel.load_game("coins_in_a_row", params)
        searched, _ = minimax.alpha_beta_search(game)
        exact = coinsrow.Game(rows=[row], stacks=stacks).value()
        assert searched == exact, (row, stacks)
        if not stacks:
            assert exact == dp_value(row)


def _play(game, bots):
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
    return state.returns()


def test_optimal_bot_self_play_gives_exactly_the_value():
    pyspiel, spiel = _spiel()
    rng = random.Random(5)
    for _ in range(40):
        row = [rng.randint(0, 30) for _ in range(rng.randint(1, 25))]
        stacks = [[rng.randint(0, 30) for _ in range(rng.randint(1, 4))]
                  for _ in range(rng.randint(0, 2))]
        params = {"coins": _row_text(row), "stacks": "|".join(map(_row_text, stacks))}
        game = pyspiel.load_game("coins_in_a_row", params)
        returns = _play(game, [spiel.OptimalBot(game, 0), spiel.OptimalBot(game, 1)])
        assert returns[0] == coinsrow.Game(rows=[row], stacks=stacks).value()
        assert returns[1] == -returns[0]


def test_optimal_bot_never_loses_to_mcts():
    pyspiel, spiel = _spiel()
    np = pytest.importorskip("numpy")
    from open_spiel.python.algorithms import mcts
    rng = random.Random(9)
    for trial in range(6):
        row = [rng.randint(0, 20) for _ in range(rng.randint(4, 10))]
        game = pyspiel.load_game("coins_in_a_row", {"coins": _row_text(row)})
        optimal = coinsrow.value(row)
        state_rng = np.random.RandomState(trial)
        searcher = mcts.MCTSBot(game, 2.0, 30, mcts.RandomRolloutEvaluator(1, state_rng),
                                random_state=state_rng)
        first = _play(game, [spiel.OptimalBot(game, 0), searcher])
        assert first[0] >= optimal, (row, first)
        second = _play(game, [searcher, spiel.OptimalBot(game, 1)])
        assert second[0] <= optimal, (row, second)


def test_optimal_bot_follows_any_history_and_restarts():
    pyspiel, spiel = _spiel()
    game = pyspiel.load_game("coins_in_a_row", {"coins": "5 1 9 2 8 3", "stacks": "4 7"})
    bot = spiel.OptimalBot(game, 0)
    state = game.new_initial_state()
    bot.step(state)
    other = game.new_initial_state()
    for action in (2, 1, 0):                 # a different line: read afresh
        other.apply_action(action)
    expected = coinsrow.Engine(other.coinsrow_game()).best_move()
    assert other.coin_of(bot.step(other)) == expected.coin
    bot.restart_at(state)
    assert bot.step(state) in state.legal_actions()


def test_observations_and_actions():
    pyspiel, _ = _spiel()
    game = pyspiel.load_game("coins_in_a_row", {"coins": "4 0 6", "stacks": "2 3"})
    state = game.new_initial_state()
    assert state.legal_actions() == [0, 1, 2]
    assert game.num_distinct_actions() == 3
    tensor = state.observation_tensor(0)
    assert tensor == [1, 0, 1, 1, 1, 1, 1, 4, 0, 6, 2, 3]
    state.apply_action(1)                    # takes 6
    state.apply_action(2)                    # takes the stack's 2
    assert state.observation_tensor(1) == [1, 0, 1, 1, 0, 0, 1, 4, 0, 0, 0, 3]
    assert "player 0 to move" in state.observation_string(0)
    state.apply_action(0)
    assert state.legal_actions() == [0, 2]   # one coin left in the row: one action for it
    state.apply_action(0)
    state.apply_action(2)
    assert state.is_terminal() and state.legal_actions() == []
    assert state.returns() == [(6 + 4 + 3) - (2 + 0), (2 + 0) - (6 + 4 + 3)]


@pytest.mark.parametrize("params, message", [
    ({"coins": "1 2", "n": 3}, "not both"),
    ({"coins": "1 x"}, "integers"),
    ({"n": -1}, ">= 0"),
    ({"coins": "1", "stacks": "2 | y"}, "integers"),
])
def test_bad_parameters_are_clear_errors(params, message):
    pyspiel, _ = _spiel()
    with pytest.raises((ValueError, pyspiel.SpielError), match=message):
        pyspiel.load_game("coins_in_a_row", params)


# ---- Gymnasium -------------------------------------------------------------------------------

def _envs():
    pytest.importorskip("gymnasium")
    import coinsrow.envs as envs
    return envs


def test_check_env_passes():
    envs = _envs()
    from gymnasium.utils.env_checker import check_env
    for env in (envs.CoinsRowEnv(n=7, seed=2), envs.CoinsRowEnv([1, 2, 1000, 3, 4, 900]),
                envs.CoinsRowEnv([-2.5, 0, 7.25], opponent="greedy")):
        check_env(env, skip_render_check=True)


def test_registered_with_gymnasium():
    envs = _envs()
    import gymnasium
    env = gymnasium.make("coinsrow/CoinsRow-v0", coins=[3, 9, 1])
    observation, info = env.reset(seed=0)
    assert observation.shape == (2, 3) and list(info["action_mask"]) == [1, 1]
    assert isinstance(env.unwrapped, envs.CoinsRowEnv)


@pytest.mark.parametrize("opponent", ["optimal", "greedy", "lookahead", "random"])
def test_return_plus_regret_is_the_optimal_margin(opponent):
    envs = _envs()
    rng = random.Random(hash(opponent) % 1000)
    env = envs.CoinsRowEnv(n=9, seed=3, opponent=opponent, max_coin=12)
    for episode in range(260):
        _, info = env.reset(seed=episode)
        total, done, taken = 0.0, False, 0
        while not done:
            _, reward, done, truncated, info = env.step(rng.randrange(2))
            total += reward
            taken += 1
            assert not truncated
        assert total + info["regret"] == info["optimal"]
        assert taken == 5                    # the agent's moves on 9 coins
        if opponent == "optimal":
            assert info["regret"] >= 0


def test_an_optimal_agent_has_no_regret_against_the_optimal_opponent():
    envs = _envs()
    rng = random.Random(8)
    for _ in range(60):
        row = [rng.randint(-9, 9) for _ in range(rng.randint(1, 12))]
        env = envs.CoinsRowEnv(row)
        env.reset()
        engine, done = coinsrow.Engine(row), False
        while not done:
            move = engine.best_move()
            engine.take(move)
            _, _, done, _, info = env.step(0 if move.end == "left" else 1)
            if not done:
                engine.take(engine.best_move())
        assert info["regret"] == 0 and info["optimal"] == dp_value(row)


def test_callable_opponent_and_bad_input():
    envs = _envs()
    seen = []

    def always_right(game):
        seen.append(len(game))
        return "right"

    env = envs.CoinsRowEnv([1, 2, 3, 4], opponent=always_right)
    env.reset()
    _, reward, _, _, _ = env.step(0)         # takes 1, the reply takes 4
    assert reward == 1 - 4 and seen == [3]
    with pytest.raises(ValueError, match="not 0"):
        env.step(5)
    with pytest.raises(ValueError, match="unknown opponent"):
        envs.CoinsRowEnv([1], opponent="clever")
    with pytest.raises(ValueError, match="empty"):
        envs.CoinsRowEnv([])
    with pytest.raises(TypeError, match=r"coins\[1\]"):
        envs.CoinsRowEnv([1, "2"])
    with pytest.raises(ValueError, match="positive"):
        envs.CoinsRowEnv(n=0)
    env = envs.CoinsRowEnv([5])
    env.reset()
    env.step(1)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


# ---- PettingZoo ------------------------------------------------------------------------------

def test_pettingzoo_api_test_passes():
    envs = _envs()
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test
    api_test(envs.aec_env(n=7), num_cycles=40)
    api_test(envs.aec_env([1, 2, 1000, 3, 4, 900]), num_cycles=40)


def test_pettingzoo_returns_are_the_margins():
    envs = _envs()
    pytest.importorskip("pettingzoo")
    rng = random.Random(2)
    env = envs.aec_env(n=8, max_coin=9)
    for episode in range(60):
        env.reset(seed=episode)
        coins = None
        totals = {"player_0": 0, "player_1": 0}
        margin, mover = 0, 1
        for agent in env.agent_iter():
            observation, reward, termination, truncation, info = env.last()
            totals[agent] += reward
            if coins is None:
                coins = [int(c) for c in observation["observation"][0]]
                row = list(coins)
            if termination or truncation:
                env.step(None)
                continue
            assert list(observation["action_mask"]) == [1, 1]
            action = rng.randrange(2)
            mover = -mover
            margin -= mover * row.pop(-action)   # + for player_0, - for player_1
            env.step(action)
        assert totals["player_0"] == margin == -totals["player_1"]
        assert info["optimal"] == dp_value(coins)


def test_the_guides_regret_example_runs():
    _spiel()
    _envs()
    import importlib.util
    from pathlib import Path
    path = Path(__file__).resolve().parent.parent / "docs" / "examples" / "game_ai_regret.py"
    spec = importlib.util.spec_from_file_location("game_ai_regret", path)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    table = example.regret_table([6, 9], [5, 20], rows=3, seed=1)
    assert [(line["length"], line["budget"]) for line in table] == [
        (6, 5), (6, 20), (9, 5), (9, 20)]
    for line in table:
        assert line["mean_regret"] >= 0 and 0 <= line["perfect"] <= line["rows"] == 3
    assert example.random_agent_regret(20, seed=2) > 0
    margin, optimal = example.pettingzoo_margin(seed=3)
    assert margin <= optimal
