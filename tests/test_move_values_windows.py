"""``Engine.move_values()`` through the Engine's own window structure (``value_after``,
``value_after_node``): the same list as ``Game.move_values()`` of the current position and the
minimax oracle, after every move of many random small games of every number type (ints with
negatives, zeros and ties, ints near the int64 limit that force the exact twin, floats,
Fractions, Decimals), through copies and pickles; and the structure left exactly as it was.
Run in both modes (``COINSROW_EXACT=1`` runs the exact twins)."""

from __future__ import annotations

import copy
import pickle
import random
from array import array
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest

from coinsrow import Engine, Game, _core
from coinsrow._dispatch import EXACT

from generators import random_forest, random_game
from modes import drawn
from oracles import after_move, brute_forest_solver

KINDS = ("int", "int", "big", "float", "Fraction", "Decimal")


def _typed(rng: random.Random, xs: list[int], kind: str) -> list[Any]:
    if kind == "big":  # near the int64 limit: the window structure's exact twin
        return [x * 2**60 + rng.randint(-2, 2) for x in xs]
    if kind == "float":
        return [x / 8 for x in xs]
    if kind == "Fraction":
        return [Fraction(x, rng.choice((1, 2, 3))) for x in xs]
    if kind == "Decimal":
        return [Decimal(x) / 4 for x in xs]
    return xs


def _random_game(rng: random.Random, forests: bool = True) -> tuple[Game, Any, Any]:
    """A random small game, its minimax oracle (on exact numbers) and the oracle's state."""
    rows, stacks = random_game(rng, 9, -3, 4)
    kind = rng.choice(KINDS)
    rows = [_typed(rng, r, kind) for r in rows]
    stacks = [_typed(rng, s, kind) for s in stacks]
    values: list[Any] = []
    parents: list[int] = []
    if forests and rng.random() < 0.5:
        values, parents = random_forest(rng, rng.randint(1, 6), -3, 5)
        values = _typed(rng, values, kind)
    game = Game(rows=rows, stacks=stacks, forest=(values, parents) if values else None)

    def exact(xs: list[Any]) -> list[Any]:
        return [Fraction(x) if isinstance(x, float) else x for x in xs]

    solve = brute_forest_solver([exact(r) for r in rows], [exact(s) for s in stacks],
                                exact(values), parents)
    state = (tuple((0, len(r)) for r in rows), tuple(0 for _ in stacks),
             (1 << len(values)) - 1)
    return game, solve, state


def _canonical(x: Any) -> Any:
    """A structure's state with every number written out with its type (a float by its bits,
    a Decimal with its exponent): equal only if byte for byte the same."""
    if isinstance(x, dict):
        return {k: _canonical(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_canonical(v) for v in x]
    if isinstance(x, (bytes, bytearray)):
        return bytes(x)
    if isinstance(x, float):
        return ("float", x.hex())
    return (type(x).__name__, repr(x))


def _state(engine: Engine) -> Any:
    return _canonical(engine._windows._state())


def _live(engine: Engine) -> Any:
    """What of a structure's state two engines at the same position must share: the treap,
    node by node in order (a treap is fixed by its nodes, their order and their priorities),
    the components' bounds and the counts; not the numbers left behind by blocks no longer
    kept, nor memory never written (which differs from one structure to the next)."""
    state = engine._windows._state()
    tl, tr, sz, val, alt = (list(state[k]) for k in ("tl", "tr", "sz", "val", "alt"))
    for cell in state.get("cells", ()):  # a forest's slots, the nodes after nil
        for column, x in zip((tl, tr, sz, val, alt), cell):
            column.append(x)
    nodes, todo = [], [state["root"]]
    while todo:
        t = todo.pop()
        if t != state["nil"]:
            nodes.append((t, val[t], alt[t], sz[t], tl[t], tr[t]))
            todo += [tl[t], tr[t]]
    shared = {k: v for k, v in state.items()
              if k not in ("tl", "tr", "sz", "val", "alt", "cells", "nxt", "in_tree")}
    return _canonical(dict(shared, nodes=nodes))


def _value_after(engine: Engine, move: Any) -> Any:
    windows = engine._windows
    if move.kind == "tree":
        return windows.value_after_node(move.index)
    if move.kind == "row":
        return windows.value_after(move.index, move.end == "left")
    return windows.value_after(engine._n_rows + move.index, True)


def _check_position(engine: Engine, solve: Any, state: Any) -> None:
    before = _state(engine)
    found = engine.move_values()
    assert _state(engine) == before
    want = engine.game.move_values()
    assert found == want
    assert [type(w) for _, w in found] == [type(w) for _, w in want]
    assert [m for m, _ in found] == engine.moves()
    for move, worth in found:
        exact = (Fraction(move.coin) if isinstance(move.coin, float) else move.coin) \
            - solve(*after_move(state, move))
        assert worth == (float(exact) if isinstance(worth, float) else exact), (move, worth)
    # The structure's own value after each move, and still nothing changed.
    for move, _ in found:
        after = _value_after(engine, move)
        assert engine._structure.number(after) == engine.game.take(move).value()
    assert _state(engine) == before


@pytest.mark.parametrize("seed", range(4))
def test_engine_move_values_after_every_move_against_the_game_and_minimax(seed: int) -> None:
    """Whole random games (600 of them): after every move, by either side, the Engine's
    worths are the Game's and the oracle's, its structure unchanged by asking; copies and
    pickles made mid-game answer the same."""
    rng = random.Random(4100 + seed)
    for _ in range(drawn(150)):
        game, solve, state = _random_game(rng)
        engine = Engine(game)
        while True:
            _check_position(engine, solve, state)
            legal = engine.moves()
            if not legal:
                break
            move = rng.choice(legal)
            engine.take(move)
            state = after_move(state, move)
            if rng.random() < 0.15:
                engine = pickle.loads(pickle.dumps(engine))
            elif rng.random() < 0.15:
                engine = copy.copy(engine)


@pytest.mark.parametrize("seed", range(2))
def test_asking_changes_nothing_the_engine_does_next(seed: int) -> None:
    """An engine asked for its move values after every move plays on exactly as one never
    asked: the same best moves, values and structure at every step."""
    rng = random.Random(4200 + seed)
    for _ in range(drawn(300)):
        game, _, _ = _random_game(rng)
        asked, fresh = Engine(game), Engine(game)
        while True:
            asked.move_values()
            assert _live(asked) == _live(fresh)
            assert asked.value() == fresh.value()
            if not fresh.moves():
                assert asked.moves() == []
                break
            assert asked.best_move() == fresh.best_move()
            move = rng.choice(fresh.moves()) if rng.random() < 0.5 else fresh.best_move()
            assert asked.take(move) == fresh.take(move)


def test_long_rows_and_stacks_whose_takes_restructure_many_blocks() -> None:
    """Rows and stacks long enough for a move to replace an end block by many blocks (a
    long par1-path) or to bring back much of a stack's Fruitless tail."""
    rng = random.Random(4300)
    shapes = (lambda m: [rng.randint(-9, 9) for _ in range(m)],
              lambda m: [k * (-1) ** k for k in range(m)],
              lambda m: sorted(rng.randint(0, 20) for _ in range(m)),
              lambda m: [m - k for k in range(m)] + [rng.randint(0, 3) for _ in range(m)])
    for _ in range(drawn(30)):
        rows = [rng.choice(shapes)(rng.randint(1, 40)) for _ in range(rng.randint(1, 2))]
        stacks = [rng.choice(shapes)(rng.randint(1, 40)) for _ in range(rng.randint(0, 2))]
        engine = Engine(Game(rows=rows, stacks=stacks))
        while engine.moves():
            before = _state(engine)
            assert engine.move_values() == engine.game.move_values()
            assert _state(engine) == before
            engine.take(rng.choice(engine.moves()))


def test_int64_near_the_limit_runs_on_the_exact_twin() -> None:
    coins = [2**62, -(2**62), 2**61 + 1, 5, -(2**62) + 3, 7]
    engine = Engine(coins)
    assert not engine._structure.machine
    while engine.moves():
        assert engine.move_values() == engine.game.move_values()
        engine.take(engine.best_move())


def test_huge_floats_are_answered_by_the_exact_structure(monkeypatch) -> None:
    """Floats whose magnitudes sum past 1e300 run on Fractions (outside the exact mode): the
    windows answer, each worth the exact one rounded once."""
    rows = [[1e300, 3.5, -1e300, 0.1], [2.25, 1e299]]
    game = Game(rows=rows, stacks=[[0.3, -7e299]], forest=([1e300, 0.5, 2.0], [-1, 0, 0]))
    want = Engine(game).move_values()
    engine = Engine(game)
    if not EXACT:
        assert not engine._structure.machine
        # Not the Game's path: the structure answers.
        monkeypatch.setattr(Game, "move_values", lambda self: pytest.fail("solved again"))
    assert engine.move_values() == want
    monkeypatch.undo()
    assert want == game.move_values()


def test_ints_do_not_solve_the_position_again(monkeypatch) -> None:
    monkeypatch.setattr(Game, "move_values", lambda self: pytest.fail("solved again"))
    engine = Engine(Game(rows=[[3, 1, 4, 1, 5]], stacks=[[9, 2, 6]],
                         forest=([5, 3, 5], [-1, 0, 0])))
    worths = engine.move_values()
    assert len(worths) == 4 and max(w for _, w in worths) == engine.value()


def test_value_after_refuses_what_a_take_refuses() -> None:
    engine = Engine(Game(rows=[[1, 2], []], stacks=[[3]], forest=([1, 2], [-1, 0])))
    windows = engine._windows
    for c, from_left in ((1, True), (2, False), (3, True), (-1, True)):
        with pytest.raises(IndexError):
            windows.value_after(c, from_left)
    for node in (1, 2, -1):
        with pytest.raises(IndexError):
            windows.value_after_node(node)
    rows = _core.RowWindowsExact if EXACT else _core.RowWindows
    structure = rows([1, 2, 3] if EXACT else array("q", [1, 2, 3]), array("q", [0, 1]),
                     array("q", [1, 3]), 1)
    with pytest.raises(IndexError):
        structure.value_after(1, False)  # a stack has no right end
    assert structure.value_after(0, True) == -1  # the row empty: the stack [2, 3] is left
