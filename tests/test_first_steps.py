"""What a newcomer met in the first minutes: a JSON list of rows given to the command line,
a pandas Series holding None, and ``quit`` in ``coinsrow play``.

- A JSON list of rows is a game of rows (as ``{"rows": [...]}``): solved, and the profits
  are the minimax oracle's; a list mixing coins and rows is refused, naming both items.
- A pandas Series of floats holding None (stored by pandas as NaN) is refused by every
  entry point, the coin named as missing, None included, not as "nan".
- ``quit`` (or Ctrl-D at a terminal, tests/test_play_cli.py) leaves the game unfinished:
  the last lines say so and name who is ahead, never a winner.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any
from unittest import mock

import pytest

import coinsrow
from coinsrow.__main__ import main

from generators import ROW_STYLES, random_row
from oracles import brute_value


def _run(argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with mock.patch.object(sys, "stdin", io.StringIO(stdin)), contextlib.redirect_stdout(out), \
            contextlib.redirect_stderr(err):
        status = main(argv)
    return status, out.getvalue(), err.getvalue()


# -- a JSON list of rows ------------------------------------------------------------------


def _random_rows(rng: random.Random) -> list[list[Any]]:
    rows = []
    for _ in range(rng.randint(1, 4)):
        n = rng.randint(0, 4)
        kind = rng.choice(("int", "negative", "tie", "big", "float"))
        if kind == "int":
            rows.append([rng.randint(0, 9) for _ in range(n)])
        elif kind == "negative":
            rows.append([rng.randint(-9, 9) for _ in range(n)])
        elif kind == "tie":
            rows.append([rng.choice((0, 3)) for _ in range(n)])
        elif kind == "big":
            rows.append([rng.choice((-1, 1)) * 2**rng.randint(60, 70) + rng.randint(-5, 5)
                         for _ in range(n)])
        else:
            rows.append([rng.randint(-8, 8) / 4 for _ in range(n)])
    if not any(rows):
        rows[0].append(rng.randint(-5, 5))
    return rows


@pytest.mark.parametrize("seed", range(40))
def test_a_json_list_of_rows_is_a_game_of_rows(seed, tmp_path):
    rng = random.Random(seed)
    rows = _random_rows(rng)
    path = tmp_path / "rows.json"
    path.write_text(json.dumps(rows), encoding="utf-8")
    status, out, err = _run(["--json", "-f", str(path)])
    assert (status, err) == (0, "")
    document = json.loads(out)
    # Numbers with a fraction are read exactly (Decimal: written as strings in the JSON).
    exact = [[Fraction(c) for c in row] for row in rows]
    assert [[Fraction(c) for c in row] for row in document["rows"]] == exact
    assert document["stacks"] == []
    value = brute_value(exact)
    total = sum(sum(row) for row in exact)
    profits = document["profits"]
    assert (Fraction(profits["first"]), Fraction(profits["second"])) == \
        ((total + value) / 2, (total - value) / 2)
    assert Fraction(document["value"]) == value
    assert len(document["play"]) == sum(map(len, rows))
    # The same game as the object form gives, and as standard input.
    object_form = tmp_path / "object.json"
    object_form.write_text(json.dumps({"rows": rows}), encoding="utf-8")
    assert _run(["--json", "-f", str(object_form)]) == (0, out, "")
    assert _run(["--json", "-"], json.dumps(rows)) == (0, out, "")


def test_a_json_list_of_rows_with_play_and_an_empty_row(tmp_path):
    path = tmp_path / "rows.json"
    path.write_text("[[3, 1, 2], [], [5]]", encoding="utf-8")
    status, out, err = _run(["-q", "-f", str(path)])
    assert (status, out, err) == (0, "7 4\n", "")
    game = coinsrow.Game(rows=[[3, 1, 2], [], [5]])
    assert tuple(game.profits()) == (7, 4)
    status, out, err = _run(["play", "-f", str(path)], "quit\n")
    assert status == 0 and err == ""
    assert "row 0: 3 1 2" in out and "row 2: 5" in out


@pytest.mark.parametrize(("text", "message"), [
    ("[[1, 2], 3]", "got a list of both: item 0 is a list, item 1 is 3"),
    ("[1, [2]]", "got a list of both: item 1 is a list, item 0 is 1"),
    ("[2.5, 1, [null]]", "got a list of both: item 2 is a list, item 0 is 2.5"),
    ('[[1], {"a": 1}]', 'item 0 is a list, item 1 is {"a": 1}'),
    ("[[[1]]]", "rows[0][0]: [1] is not a number"),
    ("[[1, null]]", "rows[0][1]: null is not a number"),
])
def test_a_json_list_that_is_no_game_is_refused_on_one_line(text, message, tmp_path):
    path = tmp_path / "game.json"
    path.write_text(text, encoding="utf-8")
    for argv in (["-f", str(path)], ["play", "-f", str(path)]):
        status, out, err = _run(argv, "quit\n")
        assert status == 2 and out == ""
        assert err.count("\n") == 1 and err.startswith("coinsrow: error: ")
        assert message in err, err
    assert path.read_text(encoding="utf-8") == text


# -- a pandas Series holding None ---------------------------------------------------------


INT64_STYLES = tuple(style for style in ROW_STYLES if style != "big")
MISSING = "is missing (None or NaN: pandas stores None as NaN in a column of numbers)"


def _calls(series: Any) -> dict[str, Any]:
    return {
        "value": lambda: coinsrow.value(series),
        "profits": lambda: coinsrow.profits(series),
        "play": lambda: coinsrow.play(series),
        "best_move": lambda: coinsrow.best_move(series),
        "Game row": lambda: coinsrow.Game(rows=[[1], series]),
        "Game stack": lambda: coinsrow.Game(stacks=[series]),
        "Game forest": lambda: coinsrow.Game(forest=(series, [-1] * len(series))),
        "Engine": lambda: coinsrow.Engine(series),
        "Intervals": lambda: coinsrow.Intervals(series),
        "pizza": lambda: coinsrow.pizza(series),
        "cooperative_max": lambda: coinsrow.cooperative_max(series),
        "values_many": lambda: coinsrow.values_many([[1, 2], series]),
        "profits_many": lambda: coinsrow.profits_many([series]),
    }


WHERE = {"Game row": "row 1", "Game stack": "stack 0", "Game forest": "forest",
         "Engine": "row 0", "pizza": "circle", "values_many": "game 1",
         "profits_many": "game 0"}


@pytest.mark.parametrize("seed", range(12))
def test_a_pandas_series_holding_none_names_it_as_missing(seed):
    pandas = pytest.importorskip("pandas")
    rng = random.Random(seed)
    # (Ints beyond int64 would make an object column, where None stays None.)
    coins: list[Any] = random_row(rng, rng.randint(1, 12), INT64_STYLES)
    if rng.random() < 0.5:
        coins = [c / 4 for c in coins]
    index = rng.randrange(len(coins) + 1)
    coins.insert(index, None)
    series = pandas.Series(coins)
    assert series.dtype.kind == "f"  # pandas made the None a NaN
    before = series.copy()
    for name, call in _calls(series).items():
        with pytest.raises(ValueError, match="coins must be finite") as caught:
            call()
        message = str(caught.value)
        where = WHERE.get(name, "row")
        assert message == f"{where}: coin at index {index} {MISSING}; coins must be finite", \
            name
        assert "nan" not in message
    pandas.testing.assert_series_equal(series, before)  # never modified


def test_a_pandas_series_of_numbers_is_solved_as_its_list():
    pandas = pytest.importorskip("pandas")
    rng = random.Random(7)
    for _ in range(30):
        coins = random_row(rng, rng.randint(0, 10), INT64_STYLES)
        if rng.random() < 0.5:
            coins = [c / 2 for c in coins]
        series = pandas.Series(coins, dtype=float if coins and isinstance(coins[0], float)
                               else None)
        assert coinsrow.value(series) == coinsrow.value(list(series))
        assert coinsrow.Game(rows=[series]).profits() == coinsrow.profits(list(series))


def test_other_missing_values_keep_their_names():
    """An object column keeps None as None, a nullable integer column keeps pd.NA: the
    existing messages name them."""
    pandas = pytest.importorskip("pandas")
    with pytest.raises(TypeError, match=r"coin at index 1 is None of type NoneType"):
        coinsrow.value(pandas.Series([1, None, 3], dtype=object))
    with pytest.raises(TypeError, match=r"coin at index 1 is <NA> of type NAType"):
        coinsrow.value(pandas.Series([1, None, 3], dtype="Int64"))
    with pytest.raises(ValueError, match=r"index 0 is missing \(None or NaN"):
        coinsrow.value(pandas.Index([None, 1.0]))


# -- quit leaves the game unfinished ------------------------------------------------------


@pytest.mark.parametrize(("moves", "verdict"), [
    ("quit\n", "unfinished: level"),
    ("l\nquit\n", "unfinished: the engine is ahead"),   # 1 taken, the engine takes 1000
    ("r\nquit\n", "unfinished: you are ahead"),         # 900, then the engine's 4
])
def test_quit_says_the_game_was_left_unfinished(moves, verdict):
    status, out, err = _run(["play", "1", "2", "1000", "3", "4", "900"], moves)
    assert (status, err) == (0, "")
    lines = out.splitlines()
    assert lines[-2].startswith("game stopped with ") and lines[-2].endswith(f"({verdict})")
    assert "win" not in lines[-2]


def test_a_finished_game_still_names_its_winner():
    status, out, err = _run(["play", "3", "2", "2", "3", "1", "2"], "l\nr\nl\n")
    assert (status, err) == (0, "")
    last = [line for line in out.splitlines() if line.startswith("game over")]
    assert last == ["game over: you 8, engine 5 (you win)"]


def test_the_json_of_a_quit_game_has_its_totals(tmp_path: Path):
    status, out, err = _run(["play", "--json", "5", "1", "3", "8"], "r\nquit\n")
    assert (status, err) == (0, "")
    lines = out.splitlines()
    assert lines[-3] == ("game stopped with 2 coins left: you 8, engine 5 (unfinished: you "
                         "are ahead)")
    assert json.loads(lines[-1])["human"] == 8
