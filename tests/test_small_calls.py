"""Small calls pay only for what they use: the modules a call imports, the public names
loaded when first used, the per-call work done once."""

from __future__ import annotations

import copy
import os
import random
import subprocess
import sys
from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

import coinsrow
from coinsrow import _dispatch, _threads
from coinsrow._coins import FLOAT64, INT64

from oracles import dp_value

ROOT = Path(__file__).resolve().parents[1]


def _modules_after(code: str) -> set[str]:
    """The modules loaded in a fresh process after ``code`` runs."""
    script = f"import sys\n{code}\nprint(' '.join(sys.modules))"
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                            text=True, timeout=120,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert result.returncode == 0, result.stderr
    return set(result.stdout.split())


def test_list_inputs_import_neither_numpy_nor_pyarrow() -> None:
    pytest.importorskip("numpy")  # otherwise there is nothing to avoid
    loaded = _modules_after(
        "import coinsrow\n"
        "row = [3, 1, 4, 1, 5, 9, 2, 6]\n"
        "coinsrow.value(row); coinsrow.profits(row); coinsrow.play(row)\n"
        "coinsrow.best_move(row); coinsrow.value([0.5, 2.0]); coinsrow.profits((1.5, 2))\n"
        "coinsrow.value([2**70, 1]); coinsrow.profits([1, 2**70])\n"
        "g = coinsrow.Game(rows=[[3, 1, 4, 1, 5]], stacks=[[9, 2, 6]])\n"
        "g.value(); g.profits(); g.play(); g.take(g.best_move())\n"
        "e = coinsrow.Engine(row)\n"
        "while len(e): e.take(e.best_move())\n"
        "coinsrow.values_many([row, [1.5], []]); coinsrow.profits_many([row, [2**70]])\n"
    )
    assert not {"numpy", "pyarrow"} & loaded


def test_the_numpy_path_still_takes_numpy_arrays() -> None:
    np = pytest.importorskip("numpy")
    rng = random.Random(30)
    for n in range(12):
        row = [rng.randint(-9, 9) for _ in range(n)]
        assert coinsrow.value(np.array(row, dtype=np.int64)) == dp_value(row)
        floats = coinsrow.profits(np.array(row, dtype=np.float64))
        assert floats == coinsrow.profits([float(x) for x in row])
        assert floats.first - floats.second == dp_value(row)


def test_import_loads_the_core_only() -> None:
    loaded = _modules_after("import coinsrow")
    assert {"coinsrow._core", "coinsrow._core._types"} <= loaded
    assert not {"coinsrow._game", "coinsrow._batch", "coinsrow._svg", "numpy"} & loaded
    # The kernels' modules load when a call first needs them.
    assert not {"coinsrow._core._rows", "coinsrow._core._forest", "concurrent.futures",
                "logging"} & loaded


def test_every_kernel_loads_from_its_module_when_first_used() -> None:
    loaded = _modules_after(
        "from coinsrow import _core\n"
        "for name in _core.__all__:\n"
        "    assert getattr(_core, name) is not None, name\n"
    )
    assert {"coinsrow._core._rows", "coinsrow._core._forest_exact",
            "coinsrow._core._short_rows"} <= loaded
    # Every module of the package, by its name, before anything imported it.
    loaded = _modules_after(
        "import pkgutil\n"
        "from coinsrow import _core\n"
        "for info in pkgutil.iter_modules(_core.__path__):\n"
        "    assert getattr(_core, info.name).__name__.endswith(info.name), info.name\n"
    )
    assert {"coinsrow._core._sort", "coinsrow._core._one_row"} <= loaded
    from coinsrow import _core

    assert set(_core.__all__) <= set(dir(_core))
    assert _core.short_rows is _core._short_rows and _core._pack.PackSpan is _core.PackSpan
    with pytest.raises(AttributeError, match="has no attribute 'no_such_kernel'"):
        _core.no_such_kernel  # noqa: B018


def test_the_command_line_loads_no_drawing_or_terminal_game() -> None:
    loaded = _modules_after(
        "from coinsrow._cli import main\n"
        "assert main(['3', '2', '2', '3', '1', '2']) == 0\n"
    )
    assert not {"xml.sax.saxutils", "urllib.request", "coinsrow._play", "numpy"} & loaded


def test_every_public_name_loads_when_first_used() -> None:
    loaded = _modules_after(
        "import coinsrow\n"
        "for name in coinsrow.__all__:\n"
        "    assert getattr(coinsrow, name) is not None, name\n"
    )
    assert {"coinsrow._game", "coinsrow._batch", "coinsrow._strategies",
            "coinsrow.silver_dollar"} <= loaded
    for name in coinsrow.__all__:
        assert name in dir(coinsrow)
    assert coinsrow.Profits is coinsrow._results.Profits
    from coinsrow import silver_dollar, value

    assert value is coinsrow.value and silver_dollar.winner([1, 3, 5]) in ("first", "second")
    with pytest.raises(AttributeError, match="has no attribute 'no_such_name'"):
        coinsrow.no_such_name  # noqa: B018


@pytest.mark.parametrize("name", ["row_value", "game_profits", "batch_solve", "check_finite"])
@pytest.mark.parametrize("kind", [INT64, FLOAT64])
def test_kernels_are_the_specialisation_for_the_kind(name: str, kind: str) -> None:
    first, twin = _dispatch.kernels(name, kind)
    machine, exact = _dispatch.twins(name)
    assert twin is exact
    if _dispatch.EXACT:
        assert first is exact
    else:
        specialisation = {INT64: "int64_t", FLOAT64: "double"}[kind]
        assert first is machine.__signatures__[specialisation]
    assert _dispatch.kernels(name, kind) == (first, twin)  # looked up once


def test_a_short_row_does_not_ask_for_the_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse() -> int:
        raise AssertionError("the cores were asked for")

    monkeypatch.setattr(_threads, "available_cores", refuse)
    assert _threads.row_split(16, None) == (1, 1)
    assert _threads.row_split(2 * _threads.ROW_COINS_PER_THREAD - 1, None) == (1, 1)
    assert coinsrow.value([3, 1, 2]) == 2
    with pytest.raises(AssertionError):
        _threads.row_split(2 * _threads.ROW_COINS_PER_THREAD, None)


_BAD_ROWS = [[1, float("nan")], [float("-inf")], [1, "x"], [True, 2], (1, 2**70),
             [1.5, 2**1100], [Fraction(1, 3), 2], [Decimal("0.5"), 1], [Decimal("1"), 0.5],
             [None], [[1]], []]


@pytest.mark.parametrize("row", _BAD_ROWS + [(3, 1, 2), [2.5, -0.0, 1], [Fraction(7, 2)]],
                         ids=repr)
def test_an_engine_of_a_list_is_the_engine_of_its_game(row: Any) -> None:
    """Engine(list) skips building a Game: the same position, answers, types and errors."""
    def outcome(make: Callable[[], coinsrow.Engine]) -> Any:
        try:
            engine = make()
        except Exception as error:
            return type(error), str(error)
        trace = [(engine.value(), type(engine.value()), len(engine), engine.game)]
        while len(engine):
            move = engine.best_move()
            trace.append((move, type(move.coin), engine.take(move), engine.value()))
        return trace

    assert outcome(lambda: coinsrow.Engine(row)) == outcome(
        lambda: coinsrow.Engine(coinsrow.Game(rows=[row])))


def test_engines_of_random_lists() -> None:
    rng = random.Random(4)
    for _ in range(300):
        n = rng.randint(0, 12)
        row: list[Any] = [rng.choice([rng.randint(-5, 5), rng.randint(-2**63, 2**63 - 1),
                                      rng.uniform(-3, 3), 2**64]) for _ in range(n)]
        engine, reference = coinsrow.Engine(row), coinsrow.Engine(coinsrow.Game(rows=[row]))
        assert engine.value() == reference.value()
        assert type(engine.value()) is type(reference.value())
        while len(engine):
            move = reference.best_move()
            assert engine.best_move() == move
            engine.take(move)
            reference.take(move)
            assert engine.value() == reference.value()


def test_the_cores_are_asked_for_once(monkeypatch: pytest.MonkeyPatch) -> None:
    asked = []

    def ask() -> int:
        asked.append(1)
        return 3

    monkeypatch.setattr(_threads, "_cores", None)
    monkeypatch.setattr(_threads, "_ask_cores", ask)
    assert _threads.thread_count(None) == 3
    assert _threads.row_split(10 * _threads.ROW_COINS_PER_THREAD, None) == (12, 3)
    assert coinsrow.values_many([[1, 2], [3]]) == [1, 3]
    assert asked == [1]


def test_the_move_best_move_offered_is_played_as_it_is_until_the_position_changes() -> None:
    engine = coinsrow.Engine([5, 1, 3, 9])
    offered = engine.best_move()
    assert engine.take(offered) is offered and len(engine) == 3
    stale = engine.best_move()
    assert stale == coinsrow.Move("row", 0, "left", 0, 5)
    engine.take("left")  # the same coin, by its end: the offered move is gone with it
    with pytest.raises(ValueError, match="illegal move"):
        engine.take(stale)
    offered = engine.best_move()
    twin = copy.copy(engine)  # an engine of its own: the move is checked there
    assert twin.take(offered) == offered and engine.take(offered) is offered
    assert twin.game == engine.game and twin.value() == engine.value()
    game = coinsrow.Game(rows=[[5, 1, 3, 9]], stacks=[[2, 7]])
    engine = coinsrow.Engine(game)
    while len(engine):
        move = engine.best_move()
        assert move == game.best_move() and engine.take(move) == move
        game = game.take(move)
        assert engine.value() == game.value()
