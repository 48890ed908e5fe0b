"""Games of floats whose sums leave the float range: every picture is drawn (the SVG, the
web page and its summary, the terminal game, the command line's --svg and --html), with
every number the oracle's exact one rounded once (+-inf beyond the range), as ``value()``
answers.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from fractions import Fraction
from pathlib import Path

import pytest
from test_cli_robustness import call_main

from coinsrow import Game
from coinsrow._html import HTML_MAX_COINS

from checks import rounded
from generators import random_parents
from modes import drawn
from oracles import after_move, brute_forest_solver

ROOT = Path(__file__).resolve().parent.parent
BIG = 1.7976931348623157e308
# Multiples k * 2**1020 (|k| < 16): every sum of a few of them is a float exactly, or beyond
# the range (16 * 2**1020 = 2**1024), so every answer is the exact one rounded once (no
# rounding inside the range, where float arithmetic may round differently).
HUGE = tuple(k * 2.0**1020 for k in (-15, -12, -8, -7, -4, -1, 0, 1, 3, 4, 8, 11, 15))
DATA = re.compile(r'<script type="application/json" id="coinsrow-data">(.*?)</script>', re.DOTALL)


def random_huge_game(rng: random.Random):
    """Rows, stacks and a forest of huge floats (at most 7 coins: the oracle is minimax)."""
    def coins(n: int) -> list[float]:
        return [rng.choice(HUGE) for _ in range(n)]
    rows = [coins(rng.randint(0, 4)) for _ in range(rng.randint(0, 2))]
    stacks = [coins(rng.randint(0, 3)) for _ in range(rng.randint(0, 1))]
    values: list[float] = []
    parents: list[int] = []
    if rng.random() < 0.4:
        n = rng.randint(1, 3)
        values, parents = coins(n), random_parents(rng, n)
    if not any(rows) and not any(stacks) and not values:
        rows = [coins(3)]
    return rows, stacks, values, parents


def exact(component: list[float]) -> list[Fraction]:
    return [Fraction(x) for x in component]


def test_every_number_of_the_page_is_the_exact_one_rounded_once():
    rng = random.Random(308)
    overflowed = 0
    for _ in range(drawn(300)):
        rows, stacks, values, parents = random_huge_game(rng)
        game = Game(rows=rows, stacks=stacks, forest=(values, parents) if values else None)
        solve = brute_forest_solver([exact(r) for r in rows], [exact(s) for s in stacks],
                                    exact(values), parents)
        state = (tuple((0, len(r)) for r in rows), tuple(0 for _ in stacks),
                 (1 << len(values)) - 1)
        page = game.to_html()
        data = json.loads(DATA.search(page)[1])
        assert game.value() == rounded(solve(*state))
        totals = [Fraction(0), Fraction(0)]
        for s, move in enumerate([*game.play(), None]):
            value = rounded(solve(*state))
            overflowed += abs(value) == float("inf")
            assert float(data["value"][s]) == value, (rows, stacks, values, parents, s)
            assert float(data["first"][s]) == rounded(totals[0])
            assert float(data["second"][s]) == rounded(totals[1])
            if move is not None:
                totals[s % 2] += Fraction(move.coin)
                state = after_move(state, move)
        picture = ET.fromstring(game._repr_svg_())
        discs = [g for g in picture.iter("{http://www.w3.org/2000/svg}g")
                 if g.get("class", "").split()[:1] == ["coin"]]
        assert len(discs) == len(game)
    assert overflowed > 0  # the games do leave the float range


def test_the_summary_page_of_a_huge_game():
    row = [BIG, BIG, -BIG] * (HTML_MAX_COINS // 3 + 1)
    game = Game(rows=[row])
    page = game.to_html()
    assert "a summary" in page
    assert re.search(r'id="value">([^<]*)<', page)[1] == repr(game.value())
    # The first moves' running totals: BIG, then 2 * BIG, beyond the range, for the first
    # player (who takes the two BIG ends while the second takes the other BIG coins).
    firsts = re.findall(r"<tr><td>\d+</td><td>[a-z ]+</td><td>[^<]*</td><td>[^<]*</td>"
                        r"<td>([^<]*)</td>", page)
    moves = []
    position = game
    for _ in firsts:
        moves.append(position.best_move())
        position = position.take(moves[-1])
    assert firsts == [repr(rounded(sum((Fraction(m.coin) for m in moves[:t + 1:2]),
                                       Fraction(0)))) for t in range(len(moves))]
    assert "inf" in firsts


def test_the_command_line_draws_it(tmp_path):
    html, svg = tmp_path / "o.html", tmp_path / "o.svg"
    result = subprocess.run(
        [sys.executable, "-m", "coinsrow", "--float", "--html", str(html), "--svg", str(svg),
         "1.7976931348623157e308", "1e308", "-1e308"],
        cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and result.stderr == "", result.stderr
    page = html.read_text()
    # The first player takes all three coins' worth BIG - 1e308 + (-1e308)... in order: the
    # value is BIG - 1e308 - 1e308 rounded once; after one move, [1e308, -1e308] is worth
    # 2e308 to the player to move: beyond the range.
    value = rounded(Fraction(BIG) - 2 * Fraction(1e308))
    assert Game(rows=[[BIG, 1e308, -1e308]]).value() == value
    assert re.search(r'id="game-value">([^<]*)<', page)[1] == repr(value)
    data = json.loads(DATA.search(page)[1])
    assert data["value"] == [repr(value), "inf", "-1e+308", "0.0"]
    ET.fromstring(svg.read_text())


@pytest.mark.parametrize("coin", [BIG, -BIG])
def test_the_terminal_game_shows_totals_beyond_the_range(coin):
    """One stack: the human takes both huge coins, the engine the 0 between them."""
    status, out, err = call_main(["play", "--float", "--stack", f"{coin} 0 {coin}"],
                                "stack 0\nstack 0\n")
    assert status == 0 and err == "", err
    assert f"game over: you {rounded(2 * Fraction(coin))}, engine 0.0" in out
