"""``coinsrow play`` with a forest: a game against the engine, tested as a person plays it.

The test player of ``test_play_cli`` (it reads every line of the transcript and checks it
against the oracles) learns the forest: it keeps the nodes left, checks the drawing of the
forest after every move (each node under its parent, depth first from the roots in order,
the roots listed, every coin), every engine move and every "gave away" against the minimax
of ``brute_forest_solver``, the hints, undo and the final JSON; it types 'node N' in every
spelling. Bad node numbers and nodes that are not roots are one line (a pipe: status 2; a
terminal: a message and a new prompt), never a traceback.
"""

from __future__ import annotations

import io
import json
import random
import re
import sys
from fractions import Fraction
from typing import Any

import pytest
from test_play_cli import (
    PROMPT,
    Console,
    Screen,
    number,
    play_console,
    play_in_process,
    play_stdin,
    run_play,
)

from coinsrow import Game
from coinsrow._play import play

from generators import random_forest, random_game
from modes import scaled
from oracles import brute_forest_solver, brute_forest_value

FOREST_LINES = ("The forest's nodes keep their numbers", "A move takes a root",
                "  node N: ")
SHOWN_ROOTS = 16   # the roots a forest's heading lists at most


def forest_file(tmp_path: Any, rows: list, stacks: list, values: list, parents: list,
                name: str = "game.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps({"rows": rows, "stacks": stacks,
                                "forest": {"values": values, "parents": parents}}))
    return str(path)


class ForestScreen(Screen):
    """The test player of ``test_play_cli`` with a forest beside the rows and stacks."""

    HEADING = re.compile(r"^  forest \((\d+) nodes?; roots: (.*)\):$")
    NODE = re.compile(r"^    ((?:  )*)node (\d+): (\S+)$")
    HIDDEN = re.compile(r"^    \.\.\. and (\d+) more nodes?$")

    def __init__(self, rows: list, stacks: list, values: list, parents: list,
                 human_first: bool, rng: random.Random, **odds: float) -> None:
        self.values = [Fraction(v) for v in values]
        self.parents = list(parents)
        self.present = (1 << len(values)) - 1
        self.forest_solve = brute_forest_solver([[Fraction(c) for c in r] for r in rows],
                                                [[Fraction(c) for c in s] for s in stacks],
                                                self.values, self.parents)
        self.listing: list[tuple[int, int, Fraction]] | None = None   # (depth, node, coin)
        self.heading: tuple[int, str] | None = None
        self.hidden = 0
        self.forests_checked = 0
        super().__init__(rows, stacks, human_first, rng, **odds)
        self.one_row = False
        self.forest_only = not rows and not stacks

    # -- the position ------------------------------------------------------------------------

    def value(self) -> Any:
        bounds, tops = self.state()
        return self.forest_solve(bounds, tops, self.present)

    def nodes_left(self) -> int:
        return bin(self.present).count("1")

    def coins_left(self) -> int:
        return super().coins_left() + self.nodes_left()

    def is_root(self, node: int) -> bool:
        parent = self.parents[node]
        return bool(self.present >> node & 1) and (parent < 0 or not self.present >> parent & 1)

    def roots(self) -> list[int]:
        return [node for node in range(len(self.values)) if self.is_root(node)]

    def legal(self) -> list[str]:
        return super().legal() + [f"node {node}" for node in self.roots()]

    def parse_where(self, where: str) -> tuple[str, int, str]:
        words = where.split()
        if words[0] == "node":
            return "tree", int(words[1]), "root"
        return super().parse_where(where)

    def coin_at(self, where: str) -> Fraction:
        kind, node, _ = self.parse_where(where)
        if kind != "tree":
            return super().coin_at(where)
        assert self.is_root(node), f"{where} is not a root"
        return self.values[node]

    def apply(self, where: str, back: bool = False) -> None:
        kind, node, _ = self.parse_where(where)
        if kind != "tree":
            super().apply(where, back)
            return
        if back:
            assert not self.present >> node & 1
        else:
            assert self.is_root(node), where
        self.present ^= 1 << node

    # -- reading the screen ------------------------------------------------------------------

    def expected_listing(self) -> list[tuple[int, int, Fraction]]:
        """The forest as the board must draw it: depth first from the roots in order, the
        children of a node in order."""
        children: dict[int, list[int]] = {}
        for node, parent in enumerate(self.parents):
            children.setdefault(parent, []).append(node)
        listing = []
        pending = [(root, 0) for root in reversed(self.roots())]
        while pending:
            node, depth = pending.pop()
            listing.append((depth, node, self.values[node]))
            pending.extend((child, depth + 1) for child in reversed(children.get(node, [])))
        return listing

    def check_forest(self) -> None:
        """At the end of a position block: the drawing read is the forest left."""
        left = self.nodes_left()
        if self.heading is None:
            assert left == 0 and self.listing == [], "no forest drawn"
        else:
            count, listed = self.heading
            assert count == left
            roots = self.roots()
            expected = ", ".join(map(str, roots[:SHOWN_ROOTS]))
            if len(roots) > SHOWN_ROOTS:
                expected += f", ... ({len(roots)} roots)"
            assert listed == expected, (listed, roots)
            full = self.expected_listing()
            assert self.listing == full[:len(self.listing)], (self.listing, full)
            assert len(self.listing) + self.hidden == left
        self.forests_checked += 1
        self.listing, self.heading, self.hidden = None, None, 0

    def check(self, line: str) -> None:
        match = self.HEADING.match(line)
        if match:
            self.heading, self.listing = (int(match[1]), match[2]), []
            return
        if line == "  forest: (empty)":
            self.listing = []
            return
        match = self.NODE.match(line)
        if match and self.listing is not None:
            self.listing.append((len(match[1]) // 2, int(match[2]), number(match[3])))
            return
        match = self.HIDDEN.match(line)
        if match and self.listing is not None:
            self.hidden = int(match[1])
            return
        if self.TOTALS.match(line):
            self.check_forest()
        if line.startswith(FOREST_LINES):
            return
        super().check(line)

    # -- typing --------------------------------------------------------------------------------

    def choose(self) -> str:
        """A random legal move in a random spelling, sometimes hint or undo."""
        self.typed += 1
        roll = self.rng.random()
        if roll < self.hints:
            return self.rng.choice(["hint", "Hint"])
        if roll < self.hints + self.undos and any(who == "you" for who, *_ in self.history):
            return "undo"
        kind, c, end = self.parse_where(self.rng.choice(self.legal()))
        if kind == "tree":
            spellings = [f"node {c}", f"NODE {c}", f"n {c}", f"root {c}", f"tree {c}",
                         f" node  {c} "]
            return self.rng.choice(spellings + ([str(c)] if self.forest_only else []))
        if kind == "row":
            return self.rng.choice([f"row {c} {end}", f"row {c} {end[0]}"])
        return self.rng.choice([f"stack {c}", f"s {c}"])


class ForestHintFollower(ForestScreen):
    """A player who asks for a hint before every move and plays it."""

    def choose(self) -> str:
        if self.last_hint is None:
            return "hint"
        where, self.last_hint = self.last_hint, None
        return where


def random_forest_game(rng: random.Random, max_nodes: int,
                       max_coins: int) -> tuple[list, list, list, list]:
    """Rows, stacks (maybe none) and a forest of at least one node."""
    rows, stacks = random_game(rng, max_coins) if rng.random() < 0.6 else ([], [])
    values, parents = random_forest(rng, rng.randint(1, max_nodes))
    return rows, stacks, values, parents


def test_random_forest_games_in_process_every_line_checked(tmp_path):
    """Random moves, hints and undos on forests alone and with rows and stacks: every
    engine move optimal (minimax), every loss exact, the drawing of the forest right."""
    rng = random.Random(2024)
    for k in range(scaled(60, 12)):
        rows, stacks, values, parents = random_forest_game(rng, 9, 5)
        human_first = k % 3 != 2
        screen = ForestScreen(rows, stacks, values, parents, human_first, rng,
                              hints=0.12, undos=0.1)
        args = ["-f", forest_file(tmp_path, rows, stacks, values, parents), "--json"]
        args += [] if human_first else ["--engine-first"]
        status, out, err = play_in_process(args, screen)
        assert (status, err) == (0, ""), err
        assert screen.ended and screen.checked_summary and screen.json_checked
        assert screen.forests_checked > screen.coins_left()
        assert "Traceback" not in out


def test_a_human_following_the_hints_ends_with_the_value_of_the_game(tmp_path):
    """The hints are the engine's best moves: a human who plays them ends with the margin
    Game.value() promises (and the minimax), having given nothing away."""
    rng = random.Random(77)
    hints = 0
    for k in range(scaled(40, 10)):
        rows, stacks, values, parents = random_forest_game(rng, 10, 4)
        human_first = k % 2 == 0
        screen = ForestHintFollower(rows, stacks, values, parents, human_first, rng)
        args = ["-f", forest_file(tmp_path, rows, stacks, values, parents)]
        args += [] if human_first else ["--engine-first"]
        status, out, err = play_in_process(args, screen)
        assert (status, err) == (0, ""), err
        assert screen.checked_summary
        assert screen.hints_checked == sum(who == "you" for who, *_ in screen.history)
        hints += screen.hints_checked
        value = Game(rows=rows, stacks=stacks, forest=(values, parents)).value()
        assert value == brute_forest_value(rows, stacks, values, parents)
        margin = re.search(r"^your margin: (\S+);.*gave away (\S+)$", out, re.MULTILINE)
        assert number(margin[1]) == (value if human_first else -value)
        assert margin[2] == "0"
    assert hints > scaled(40, 10)


class HintKeyboard(io.StringIO):
    """Standard input that asks for a hint, then types the move hinted, and again."""

    def __init__(self, screen: io.StringIO) -> None:
        super().__init__()
        self.screen = screen
        self.asked = False

    def readline(self, size: int | None = -1) -> str:
        self.asked = not self.asked
        if self.asked:
            return "hint\n"
        return re.findall(r"^hint: (.+) \(takes", self.screen.getvalue(), re.MULTILINE)[-1] + "\n"


def test_hints_on_larger_forests_end_with_the_value_of_the_game():
    """Forests too large for the minimax: playing the hints gives Game.value() exactly, with
    ints, Fractions and floats (through ``play()`` directly)."""
    rng = random.Random(31)
    for k in range(scaled(12, 4)):
        rows, stacks = random_game(rng, 30, -20, 20)
        values, parents = random_forest(rng, rng.randint(20, 120), -50, 50)
        if k % 3 == 1:
            values = [Fraction(v, rng.randint(1, 7)) for v in values]
        elif k % 3 == 2:
            values = [v / 8 for v in values]
            rows = [[c / 4 for c in r] for r in rows]
            stacks = [[c / 2 for c in s] for s in stacks]
        game = Game(rows=rows, stacks=stacks, forest=(values, parents))
        out = io.StringIO()
        outcome = play(game, stdin=HintKeyboard(out), out=out, interactive=False)
        assert outcome.finished
        assert outcome.human - outcome.engine == game.value()
        assert "gave away 0" in out.getvalue()
        assert not re.search(r"gave away (?!0$)", out.getvalue(), re.MULTILINE)


def test_a_large_forest_is_drawn_cut_short():
    """A star of 2000 nodes and a path of 3000: the board shows a few nodes and says how many
    more, the roots listed cut short; a deep tree is drawn without a deep recursion."""
    star = Game(forest=([1] * 2000, [-1] + [0] * 1999))
    path = Game(forest=(list(range(3000)), [k - 1 for k in range(3000)]))
    for game, moves in ((star, "node 0\n"), (path, "node 0\nnode 2\n")):
        out = io.StringIO()
        play(game, stdin=io.StringIO(moves + "quit\n"), out=out, interactive=False)
        drawings = re.findall(r"^  forest \(.*\n((?:    .*\n)*)", out.getvalue(), re.MULTILINE)
        assert len(drawings) == 1 + 2 * moves.count("node")
        for drawing in drawings:
            # at most 24 nodes and the "... more" line
            assert 0 < drawing.count("\n") <= 25 and drawing.count("    node ") <= 24
        assert re.search(r"^    \.\.\. and \d+ more nodes$", out.getvalue(), re.MULTILINE)
    out = io.StringIO()
    play(star, stdin=io.StringIO("node 0\nquit\n"), out=out, interactive=False)
    headings = re.findall(r"^  forest \((\d+) nodes; roots: (.*)\):$", out.getvalue(),
                          re.MULTILINE)
    assert headings[0] == ("2000", "0")
    assert headings[-1][0] == "1998"
    assert headings[-1][1].endswith(", ... (1998 roots)")
    assert len(headings[-1][1].split(", ")) == SHOWN_ROOTS + 1


def test_a_game_already_under_way_is_drawn_and_played_from_there():
    """``play()`` of a Game reached by taking nodes: the node numbers stay those of the
    forest as given; the board shows only the nodes left."""
    game = Game(rows=[[4, 1]], forest=([5, 1, 7, 2, 3, 8], [-1, 0, 0, 2, 2, -1]))
    later = game.take(("tree", 0, "root", 0, 5)).take(("tree", 2, "root", 2, 7))
    out = io.StringIO()
    outcome = play(later, stdin=io.StringIO("node 0\nnode 2\nnode 3\n"),
                   out=out, interactive=True)
    text = out.getvalue()
    assert "node 0 was taken" in text and "node 2 was taken" in text
    assert "  forest (4 nodes; roots: 1, 3, 4, 5):" in text
    assert "you take 2 (node 3): gave away" in text
    assert not outcome.finished


BAD_NODE_LINES = [
    ("node 6", "there is no node 6 (the forest has nodes 0 to 5)"),
    ("node 99999999999999999999", "there is no node 99999999999999999999"),
    ("node -1", "there is no node -1 (the forest has nodes 0 to 5)"),
    ("node x", "there is no node x"),
    ("node 1.5", "there is no node 1.5"),
    ("node \u00b2", "there is no node \u00b2"),          # a digit int() does not read
    ("node \u0663", "there is no node \u0663"),          # an Arabic-Indic 3
    ("node " + "9" * 5000, "there is no node 999"),      # beyond int()'s digit limit
    ("row \u00b2 left", "not a row number"),
    ("row " + "0" * 4999 + "1 left", "there is no row 0000"),
    ("node", "a tree move is 'node N'"),
    ("node 1 2", "a tree move is 'node N'"),
    ("node 1", "node 1 is not a root: its parent, node 0, is still there"),
    ("node 3", "node 3 is not a root: its parent, node 2, is still there"),
    ("3", "'3' is not a move"),            # a bare number only in a game of a forest alone
    ("row 1 left", "there is no row 1"),
    ("stack 0", "there is no stack 0"),
]


@pytest.mark.parametrize("line, named", BAD_NODE_LINES)
def test_bad_node_numbers_from_a_pipe_are_one_line_and_status_2(tmp_path, line, named):
    path = forest_file(tmp_path, [[1, 2]], [], [5, 1, 7, 2, 3, 8], [-1, 0, 0, 2, 2, -1])
    status, out, err = play_stdin(["-f", path], line + "\n")
    assert status == 2, out
    assert err.count("\n") == 1 and err.startswith("coinsrow: error: input line 1: "), err
    assert named in err, err
    assert "Traceback" not in out + err


def test_a_node_taken_before_is_refused(tmp_path):
    path = forest_file(tmp_path, [], [], [5, 1, 7, 2, 3, 8], [-1, 0, 0, 2, 2, -1])
    status, out, err = play_stdin(["-f", path], "node 5\nnode 5\n")
    assert status == 2
    assert err == "coinsrow: error: input line 2: node 5 was taken\n"
    assert "you take 8 (node 5): gave away 0" in out
    status, _, err = play_stdin(["-f", path, "--engine-first"], "3\n")
    assert status == 2
    assert err == ("coinsrow: error: input line 1: node 3 is not a root: its parent, node 2, "
                   "is still there\n")


def test_a_forest_of_one_node_and_an_empty_forest(tmp_path):
    status, out, err = play_stdin(["--json", "-f", forest_file(tmp_path, [], [], [7], [-1])],
                                  "node 1\n")
    assert status == 2 and "there is no node 1 (the forest has node 0 only)" in err
    status, out, err = play_stdin(["--json", "-f", forest_file(tmp_path, [], [], [7], [-1])],
                                  "0\n")
    assert (status, err) == (0, "")
    assert "  forest (1 node; roots: 0):\n    node 0: 7\n" in out
    assert "  forest: (empty)" in out
    assert json.loads(out.splitlines()[-1]) == {"human": 7, "engine": 0, "moves": [
        {"player": "human", "kind": "tree", "index": 0, "end": "root", "coin": 7}]}
    # An empty forest beside a row: the game of one row ('l' and 'r'), no forest drawn.
    status, out, err = play_stdin(["-f", forest_file(tmp_path, [[3, 1]], [], [], [])],
                                  "l\n")
    assert (status, err) == (0, ""), err
    assert "forest" not in out and "you take 3 (left end)" in out


def test_help_and_intro_name_the_forest(tmp_path):
    path = forest_file(tmp_path, [], [[2, 9]], [5, 1], [-1, 0])
    status, out, err = play_stdin(["-f", path], "help\nquit\n")
    assert (status, err) == (0, "")
    assert "Type stack I, node N; hint, undo, quit or help." in out
    assert "A move takes a root (a node whose parent is gone); its children become roots." \
        in out
    assert "  node N: take the root N of the forest" in out
    status, out, _ = play_stdin(["--help"], "")
    assert status == 0
    assert "'node N' for a root of the forest" in out and "refused" not in out


@pytest.mark.slow
def test_pipe_session_through_a_subprocess(tmp_path):
    rng = random.Random(404)
    for k in range(scaled(3, 2)):
        rows, stacks, values, parents = random_forest_game(rng, 8, 4)
        screen = ForestScreen(rows, stacks, values, parents, k != 1, rng)
        args = ["-f", forest_file(tmp_path, rows, stacks, values, parents), "--json"]
        console = Console(args + ([] if k != 1 else ["--engine-first"]), terminal=False)
        play_console(console, screen)
        assert console.finish() == 0
        assert console.process.stderr.read() == b""
        assert screen.ended and screen.checked_summary and screen.json_checked


def test_a_real_pipe_with_a_bad_node(tmp_path):
    path = forest_file(tmp_path, [[1, 5, 2]], [], [5, 1, 7], [-1, 0, 0])
    result = run_play(["-f", path], "node 0\nnode 9\n")
    assert result.returncode == 2
    assert result.stderr == ("coinsrow: error: input line 2: there is no node 9 (the forest "
                             "has nodes 0 to 2)\n")
    assert "you take 5 (node 0): gave away" in result.stdout
    assert "Traceback" not in result.stdout + result.stderr


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="no pseudo-terminals on Windows")
def test_terminal_bad_nodes_are_a_message_and_a_new_prompt(tmp_path):
    pytest.importorskip("pty", reason="Python's pty module is not available")
    rng = random.Random(1903)
    bad = ["node 99", "node x", "node", "node -3", "tree 1 2", "42", "row 7 left"]
    for _ in range(scaled(3, 2)):
        rows, stacks, values, parents = random_forest_game(rng, 8, 4)
        screen = ForestScreen(rows, stacks, values, parents, True, rng, hints=0.15,
                              undos=0.1)
        console = Console(["-f", forest_file(tmp_path, rows, stacks, values, parents)],
                          terminal=True)
        play_console(console, screen, bad_lines=rng.sample(bad, 4))
        assert console.finish() == 0
        assert screen.ended and screen.checked_summary
        assert "Traceback" not in console.screen()


def test_undo_in_a_forest_puts_the_nodes_back():
    game = Game(forest=([5, 1, 7, 2, 3, 8], [-1, 0, 0, 2, 2, -1]))
    out = io.StringIO()
    play(game, stdin=io.StringIO("node 5\nundo\nhint\nquit\n"), out=out, interactive=False)
    text = out.getvalue()
    taken_back = re.search(r"^taken back: your 8 \(node 5\), the engine's (\S+) \(node (\d)\)$",
                           text, re.MULTILINE)
    assert taken_back
    after_undo = text[taken_back.end():].split(PROMPT)[0]
    assert "  forest (6 nodes; roots: 0, 5):\n    node 0: 5\n      node 1: 1\n" \
           "      node 2: 7\n        node 3: 2\n        node 4: 3\n    node 5: 8\n" in after_undo
    assert "hint: node 5 (takes 8)" in text
