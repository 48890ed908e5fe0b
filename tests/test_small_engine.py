"""The small calls' fast paths against the general path, call by call: an ``Engine`` of one
short row of ints (``short_rows.engine``) and a small ``Game`` of lists read in one pass
(``short_rows.game``). Both must be indistinguishable from the general path (answers, Move
objects and their types, reprs, copies, pickles, errors and their texts) and from the DP
oracle; in ``COINSROW_EXACT=1`` mode both paths are the general one."""

from __future__ import annotations

import contextlib
import copy
import pickle
import random
import sys
import threading
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest

from coinsrow import Engine, Game, Move, _engine, _game
from coinsrow._dispatch import EXACT

from generators import ROW_STYLES, random_game, random_row
from modes import drawn, machine_only, scaled
from oracles import brute_value, dp_table

INT64_MAX = 2**63 - 1


@contextlib.contextmanager
def _general(module: Any) -> Iterator[None]:
    """``module``'s calls take the general path while the block runs."""
    saved = module.SHORT_PATH
    module.SHORT_PATH = False
    try:
        yield
    finally:
        module.SHORT_PATH = saved


def _general_engine(row: Any) -> Engine:
    with _general(_engine):
        engine = Engine(row)
    assert not isinstance(engine, _engine._ShortRowEngine)
    return engine


def _outcome(call: Any) -> tuple:
    """What a call gives: its answer with its type and repr, or its exception and text."""
    try:
        answer = call()
    except Exception as error:  # the error itself is compared
        return ("raised", type(error), str(error))
    return ("answered", type(answer), repr(answer), answer)


def _odd_moves(engine: Engine, row: list, rng: random.Random) -> list[Any]:
    """Moves of every kind, legal or not, for the engine's position."""
    moves = engine.moves()
    out: list[Any] = ["left", "right", "up", 3]
    for m in moves:
        out += [m, tuple(m), list(m), Move(*m)]
        out.append(m._replace(coin=m.coin + 1))
        out.append(m._replace(position=m.position + 1))
        out.append(m._replace(position=float(m.position)))
        out.append(m._replace(coin=float(m.coin)))
        out.append(m._replace(coin=Fraction(m.coin)))
        out.append(m._replace(index=m.index == 1))
        out.append(m._replace(index=1))
        out.append(m._replace(kind="stack"))
        out.append(m._replace(end="top"))
        out.append(m._replace(coin=m.coin + 2**64))
    if row:
        out.append(Move("row", 0, "left", 0, row[0]))  # legal only at the start
    return out if rng.random() < 0.5 else rng.sample(out, min(4, len(out)))


def _same_state(fast: Engine, general: Engine, row: list, i: int, j: int, d: list) -> None:
    assert len(fast) == len(general) == j - i
    assert _outcome(fast.value) == _outcome(general.value)
    if all(type(x) is int for x in row):
        assert fast.value() == d[i][j]
    assert _outcome(fast.best_move) == _outcome(general.best_move)
    assert fast.moves() == general.moves()
    assert _outcome(fast.move_values) == _outcome(general.move_values)
    assert fast.game == general.game and repr(fast) == repr(general)
    assert fast.game.rows == general.game.rows == (tuple(row[i:j]),)


def _play_both(row: list, rng: random.Random) -> None:
    """A whole game of ``Engine(row)`` beside the general path's, every call compared."""
    fast, general = Engine(row), _general_engine(row)
    d = dp_table(row)
    i, j = 0, len(row)
    while True:
        _same_state(fast, general, row, i, j, d)
        if rng.random() < 0.1:  # copies and pickles mid-game, played on from there
            fast = copy.copy(fast) if rng.random() < 0.5 else copy.deepcopy(fast)
        if rng.random() < 0.1:
            assert pickle.dumps(fast) == pickle.dumps(general)
            fast = pickle.loads(pickle.dumps(fast))
            _same_state(fast, general, row, i, j, d)
        if rng.random() < 0.05:  # a fresh engine brought to the same position
            fast = Engine(row)
            for end in ["left"] * i + ["right"] * (len(row) - j):
                fast.take(end)
        if i == j:
            break
        played: Any = None
        if rng.random() < 0.3:
            for move in _odd_moves(general, row, rng):
                outcome = _outcome(lambda: fast.take(move))  # noqa: B023
                assert outcome == _outcome(lambda: general.take(move)), move  # noqa: B023
                if outcome[0] == "answered":
                    played = outcome[3]
                    break
        else:
            kind = rng.randrange(3)
            if kind == 0:
                move: Any = fast.best_move()
                assert move == general.best_move()
            elif kind == 1:
                move = rng.choice(general.moves())
            else:
                move = rng.choice(("left", "right"))
            played = fast.take(move)
            assert played == general.take(move) and type(played) is Move
            assert played is move or kind == 2  # a Move as the engine names it comes back
        if played is not None:
            assert played.coin == row[played.position]
            if played.end == "left":
                assert played.position == i
                i += 1
            else:
                assert played.position == j - 1
                j -= 1


@pytest.mark.slow
@pytest.mark.parametrize("styles", [ROW_STYLES, ("ties", "signs"), ("edges",), ("big",)])
def test_short_engine_against_the_general_path_and_the_dp(styles):
    rng = random.Random(hash(styles) % 1000)
    for _ in range(scaled(drawn(400))):
        n = rng.choice((0, 1, 2, 3, rng.randint(0, 12), rng.randint(0, 64), 65))
        _play_both(random_row(rng, n, styles), rng)


def test_odd_coins_and_rows_go_to_the_general_path():
    rng = random.Random(4)
    rows: list[Any] = [
        [1.5, 2], [1, 2.0], [Fraction(1, 2), 1], [2**63, 1], [-(2**63), 1],
        [INT64_MAX, 1], [INT64_MAX // 2, INT64_MAX // 2 + 1, 1], [2**70], list(range(65)),
    ]
    for row in rows:
        assert not isinstance(Engine(row), _engine._ShortRowEngine), row
        _play_both(row, rng)
        _play_both(tuple(row), rng)


@machine_only
def test_the_fast_path_is_taken():
    short_engine = _engine._ShortRowEngine
    assert isinstance(Engine([18, 73, 98, 9, 33, 16, 64, 98]), short_engine)  # the benchmark's
    for row in ([], [5], list(range(64)), (1, -2, 3), [INT64_MAX, 0], [-INT64_MAX],
                [INT64_MAX // 2, INT64_MAX // 2, 1]):
        assert isinstance(Engine(row), short_engine), row
    game = Game(rows=[[3, 1, 4, 1, 5]], stacks=[[9, 2, 6]])  # the benchmark's
    assert game._cache == {"value": 5}  # solved as it was read
    assert Game(rows=[[1.5]])._packed[3] is None  # a float game: read there, solved later


@machine_only
def test_a_short_engine_has_the_documentation_of_engine():
    engine = Engine([3, 1, 2])
    public = [name for name in dir(Engine) if not name.startswith("_")]
    assert {"value", "best_move", "moves", "move_values", "take", "game"} <= set(public)
    for name in public:
        assert getattr(type(engine), name).__doc__ == getattr(Engine, name).__doc__, name
        assert getattr(type(engine), name).__doc__, name


@pytest.mark.skipif(not EXACT, reason="about COINSROW_EXACT=1")
def test_the_exact_mode_takes_the_general_path():
    assert not isinstance(Engine([1, 2, 3]), _engine._ShortRowEngine)
    assert "value" not in Game(rows=[[3, 1, 4, 1, 5]], stacks=[[9, 2, 6]])._cache


def test_bad_rows_raise_as_before():
    for row in ([1, "x"], [float("nan"), 1], [None], [True, 2, 3], [1, False]):
        fast = _outcome(lambda: Engine(row))  # noqa: B023
        with _general(_engine):
            assert fast == _outcome(lambda: Engine(row))  # noqa: B023


def test_a_short_engine_shared_by_threads_plays_each_coin_once():
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads switch often: their moves race
    try:
        _threads_share_short_engines(random.Random(8))
    finally:
        sys.setswitchinterval(interval)


def _threads_share_short_engines(rng: random.Random) -> None:
    for _ in range(scaled(40)):
        row = [rng.randint(-9, 9) for _ in range(rng.randint(0, 64))]
        engine = Engine(row)
        taken: list[Move] = []

        def play(engine: Engine = engine, taken: list[Move] = taken) -> None:
            while len(engine):
                try:
                    move: Any = rng.choice((engine.best_move, lambda: "left",
                                            lambda: tuple(engine.best_move())))()
                    taken.append(engine.take(move))  # a tuple: checked in Python
                except ValueError:
                    pass  # the move was played by another thread meanwhile

        threads = [threading.Thread(target=play) for _ in range(3)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(m.position for m in taken) == list(range(len(row)))
        assert all(m.coin == row[m.position] for m in taken)


def _general_game(rows: Any, stacks: Any) -> Game:
    with _general(_game):
        return Game(rows=rows, stacks=stacks)


def _same_games(fast: Game, general: Game) -> None:
    for call in ("value", "profits", "play", "best_move", "moves", "move_values"):
        assert _outcome(getattr(fast, call)) == _outcome(getattr(general, call)), call
    assert (fast.rows, fast.stacks, len(fast), repr(fast)) == \
        (general.rows, general.stacks, len(general), repr(general))
    assert fast == general and hash(fast) == hash(general)
    assert pickle.dumps(fast) == pickle.dumps(general)


@pytest.mark.slow
def test_small_games_against_the_general_path_and_brute_force():
    rng = random.Random(5)
    for game in range(scaled(drawn(1500))):
        lo, hi = rng.choice(((-4, 9), (0, 2), (-2**62, 2**62), (-(2**63), INT64_MAX)))
        rows, stacks = random_game(rng, rng.choice((0, 1, 4, 9, 14)), lo, hi)
        if game % 7 == 0:
            stacks = [[x / 4 for x in s] for s in stacks]
        if game % 11 == 0:
            rows = [tuple(r) for r in rows]
        fast, general = Game(rows=rows, stacks=stacks), _general_game(rows, stacks)
        if len(fast) <= 9 and game % 7:  # ints: the exact value
            assert fast.value() == brute_value(rows, stacks)
        if game % 2:  # the storage made first, then the value read (a float game's)
            assert fast.stacks == general.stacks
        _same_games(fast, general)
        while len(general) and rng.random() < 0.7:  # the positions after a move
            move = rng.choice(general.moves())
            fast, general = fast.take(move), general.take(move)
            _same_games(fast, general)


def test_a_small_game_made_on_first_read_by_threads_at_once():
    for _ in range(scaled(50)):
        game = Game(rows=[[3, 1, 4]], stacks=[[1, 5]])
        seen: list[Any] = []
        threads = [threading.Thread(target=lambda: seen.append(game._coins))  # noqa: B023
                   for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert all(coins is seen[0] for coins in seen)
    with pytest.raises(AttributeError, match="'Game' object has no attribute 'nothing'"):
        Game(rows=[[1]]).nothing  # noqa: B018
