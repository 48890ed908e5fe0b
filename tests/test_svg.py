"""The SVG picture of a game: well-formed XML, one element per coin, labelled and coloured by
the optimal play, text escaped."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from collections import namedtuple
from decimal import Decimal
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from coinsrow import Game, Profits
from coinsrow._svg import COLOURS, game_svg
from coinsrow._text import format_number

from generators import random_forest

SVG = "{http://www.w3.org/2000/svg}"


def coin_elements(svg: str) -> list[ET.Element]:
    root = ET.fromstring(svg)  # raises on malformed XML
    assert root.tag == f"{SVG}svg"
    return [g for g in root.iter(f"{SVG}g") if g.get("class", "").split()[:1] == ["coin"]]


def describe(g: ET.Element) -> tuple[str, str, str, str]:
    """(player class, disc colour, value label, turn label) of one coin element."""
    circle = g.find(f"{SVG}circle")
    value = g.find(f"{SVG}text[@class='value']")
    turn = g.find(f"{SVG}text[@class='turn']")
    return g.get("class").split()[1], circle.get("fill"), value.text, turn.text


def expected_coins(game: Game) -> list[tuple[str, str, str, str]]:
    """What the picture must show, in drawing order (rows, then stacks, each in order)."""
    turn_of = {}
    for t, move in enumerate(game.play(), 1):
        turn_of[(move.kind, move.index, move.position)] = t
    expected = []
    for kind, components in (("row", game.rows), ("stack", game.stacks)):
        for index, component in enumerate(components):
            positions = sorted(p for (k, i, p) in turn_of if (k, i) == (kind, index))
            assert len(positions) == len(component)
            for position, coin in zip(positions, component):
                t = turn_of[(kind, index, position)]
                player = "first" if t % 2 else "second"
                expected.append((player, COLOURS[player], format_number(coin), str(t)))
    if getattr(game, "forest", None) is not None:
        # The nodes left, in their original order (a tree move's index is the node).
        nodes = sorted(i for (k, i, _) in turn_of if k == "tree")
        values, _ = game.forest
        assert len(nodes) == len(values)
        for node, coin in zip(nodes, values):
            t = turn_of[("tree", node, node)]
            player = "first" if t % 2 else "second"
            expected.append((player, COLOURS[player], format_number(coin), str(t)))
    return expected


def check_picture(game: Game) -> None:
    svg = game_svg(game)
    coins = coin_elements(svg)
    assert len(coins) == len(game)
    shown = [describe(g) for g in coins]
    expected = expected_coins(game)
    for (player, colour, label, turn), (e_player, e_colour, e_label, e_turn) in zip(shown,
                                                                                    expected):
        assert (player, colour, turn) == (e_player, e_colour, e_turn)
        # long values are approximated inside the disc (the full value is in the <title>)
        assert label == e_label or (len(e_label) > 6 and label.startswith("\u2248"))
    titles = [g.find(f"{SVG}title").text for g in coins]
    assert all(e_label in title for (_, _, e_label, _), title in zip(expected, titles))
    assert sorted(int(turn) for _, _, _, turn in shown) == list(range(1, len(game) + 1))
    first, second = game.profits()
    totals = {t.get("class"): t.text for t in ET.fromstring(svg).iter(f"{SVG}text")
              if (t.get("class") or "").startswith("total")}
    assert set(totals) == {"total first", "total second"}
    for name, profit in (("first", first), ("second", second)):
        label, _, number = totals[f"total {name}"].partition(" ")
        assert label == name
        assert type(profit)(number) == profit  # exact (0.40 == 0.400 for Decimal)


small = st.integers(-9, 30)


@settings(max_examples=120)
@given(st.lists(st.lists(small, max_size=25), max_size=3),
       st.lists(st.lists(small, max_size=6), max_size=3))
def test_random_games_one_coin_element_each(rows, stacks):
    check_picture(Game(rows=rows, stacks=stacks))


def test_positions_part_way_through_a_game():
    rng = random.Random(4)
    for _ in range(30):
        game = Game(rows=[[rng.randint(-5, 9) for _ in range(rng.randint(0, 9))]
                          for _ in range(2)],
                    stacks=[[rng.randint(-5, 9) for _ in range(rng.randint(1, 4))]])
        for _ in range(rng.randint(0, len(game))):
            game = game.take(rng.choice(game.moves()))  # off the optimal line too
        check_picture(game)


def test_exact_number_kinds_and_big_ints():
    check_picture(Game(rows=[[Fraction(7, 2), Fraction(-1, 3), 2]]))
    check_picture(Game(rows=[[Decimal("0.10"), Decimal("-2.5")]], stacks=[[Decimal("1e-3")]]))
    check_picture(Game(rows=[[10 ** 40, -(10 ** 30), 5, 12345678]]))
    check_picture(Game(rows=[[0.1, 2.5e300, -3.0]]))


def test_long_values_are_approximated_in_the_disc():
    game = Game(rows=[[12345678, -(10 ** 40), Fraction(1, 3), 7]])
    labels = [describe(g)[2] for g in coin_elements(game_svg(game))]
    assert labels == ["\u22481.2e7", "\u2248-1.0e40", "1/3", "7"]


def test_repr_svg_is_the_picture():
    game = Game(rows=[[1, 2, 1000, 3, 4, 900]])
    assert game._repr_svg_() == game_svg(game)
    check_picture(game)


def test_empty_game_is_well_formed():
    svg = game_svg(Game(rows=[[]]))
    assert coin_elements(svg) == []
    assert "no coins left" in svg


def test_text_is_escaped():
    """Whatever a coin prints as, the document stays well-formed and shows it verbatim."""

    class Odd(int):
        def __str__(self) -> str:
            return '<&">\''

    Move = namedtuple("Move", "kind index end position coin")

    class FakeGame:
        rows = ((Odd(1), 2),)
        stacks = ()

        def play(self):
            return [Move("row", 0, "left", 0, Odd(1)), Move("row", 0, "left", 1, 2)]

        def profits(self):
            return Profits(Odd(1), 2)

    svg = game_svg(FakeGame())
    coins = coin_elements(svg)
    assert len(coins) == 2
    assert describe(coins[0])[2] == '<&">\''  # parsed back verbatim: it was escaped
    assert '<&">' in coins[0].find(f"{SVG}title").text


# -- forests ----------------------------------------------------------------------------------


def tree_geometry(svg: str, count: int) -> tuple[list[tuple[float, float]], list]:
    """The centres of the last ``count`` coins (the forest's) and the edges drawn."""
    root = ET.fromstring(svg)
    coins = coin_elements(svg)[len(coin_elements(svg)) - count:]
    centres = [(float(g.find(f"{SVG}circle").get("cx")), float(g.find(f"{SVG}circle").get("cy")))
               for g in coins]
    edges = [line for g in root.iter(f"{SVG}g") if g.get("class") == "edges"
             for line in g.iter(f"{SVG}line")]
    return centres, edges


def check_tree_drawing(game: Game) -> None:
    values, parents = game.forest
    centres, edges = tree_geometry(game_svg(game), len(values))
    assert len(edges) == sum(p >= 0 for p in parents)
    # Every node below its parent, joined to it by an edge from under the parent's disc to
    # the top of the child's; roots on the top level; no two discs overlap.
    tops = {(cx, cy) for (cx, cy), p in zip(centres, parents) if p < 0}
    assert len({cy for _, cy in tops}) <= 1
    ends = {(float(e.get("x1")), float(e.get("x2")), float(e.get("y2"))) for e in edges}
    for (cx, cy), p in zip(centres, parents):
        if p >= 0:
            px, py = centres[p]
            assert cy > py
            assert (px, cx, cy - 21) in ends
        else:
            assert cy == min(y for _, y in centres)
    assert len(set(centres)) == len(centres)
    for i, (x1, y1) in enumerate(centres):
        for x2, y2 in centres[:i]:
            assert (x1 - x2) ** 2 + (y1 - y2) ** 2 >= (2 * 21) ** 2


def test_forests_one_coin_element_each_and_the_trees_drawn():
    rng = random.Random(11)
    for _ in range(150):
        values, parents = random_forest(rng, rng.randint(0, 14), -5, 12)
        rows = [[rng.randint(-5, 9) for _ in range(rng.randint(0, 5))]
                for _ in range(rng.randint(0, 2))]
        stacks = [[rng.randint(-5, 9) for _ in range(rng.randint(1, 3))]
                  for _ in range(rng.randint(0, 1))]
        game = Game(rows=rows, stacks=stacks, forest=(values, parents))
        check_picture(game)
        check_tree_drawing(game)


def test_forest_positions_part_way_through_a_game():
    rng = random.Random(12)
    for _ in range(60):
        game = Game(rows=[[rng.randint(-5, 9) for _ in range(rng.randint(0, 4))]],
                    forest=random_forest(rng, rng.randint(1, 12), -5, 12))
        for _ in range(rng.randint(0, len(game))):
            game = game.take(rng.choice(game.moves()))  # off the optimal line too
        check_picture(game)
        if game.forest[0]:
            check_tree_drawing(game)
            titles = [g.find(f"{SVG}title").text for g in coin_elements(game_svg(game))]
            nodes = sorted(m.index for m in game.play() if m.kind == "tree")
            assert [t.split(":")[0] for t in titles[-len(nodes):]] == [
                f"tree node {node}" for node in nodes]


def test_a_deep_path_and_a_wide_star():
    path = Game(forest=(list(range(300)), [i - 1 for i in range(300)]))  # no recursion limit
    check_picture(path)
    check_tree_drawing(path)
    star = Game(forest=([1] * 200, [-1] + [0] * 199))
    check_picture(star)
    check_tree_drawing(star)
    assert path._repr_svg_() == game_svg(path)
