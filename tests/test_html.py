"""``Game.to_html()`` and ``coinsrow --html``: one self-contained page stepping through the
optimal play.

Without a browser: every number the page can show (running totals and the value of every
position) is checked against the play, ``Game.profits()``, ``Game.value()`` along the line
and the brute-force oracle; the page loads nothing from elsewhere; large games get the
summary page. With headless Chromium (skipped, with the reason, where there is none): the
page is opened at a step (``#step=k``, ``#end``), played through ("Play all" under a virtual
clock) and driven by its buttons and keys, and the totals read off the page equal the
profits.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import os
import random
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from decimal import Decimal
from fractions import Fraction
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

import coinsrow
from coinsrow import Game
from coinsrow.__main__ import main
from coinsrow._html import HTML_MAX_COINS, SUMMARY_MOVES, game_html
from coinsrow._svg import game_svg

from generators import random_forest, random_game
from modes import scaled
from oracles import brute_forest_value

DATA = re.compile(r'<script type="application/json" id="coinsrow-data">(.*?)</script>', re.DOTALL)


def page_data(page: str) -> dict:
    match = DATA.search(page)
    assert match, "the page has no data"
    return json.loads(match[1])


def same_number(text: str, x: Any) -> bool:
    """The page's text is exactly ``x`` (floats: the same float)."""
    if isinstance(x, float):
        return float(text) == x
    return Fraction(text) == Fraction(x)


def running_totals(moves: list, floats: bool) -> list[tuple[Any, Any]]:
    """Both players' totals after every step 0..n, exactly (floats: math.fsum of the coins)."""
    firsts, seconds = [], []
    result = [(0.0, 0.0) if floats else (0, 0)]
    for t, move in enumerate(moves):
        (firsts if t % 2 == 0 else seconds).append(move.coin)
        if floats:
            result.append((math.fsum(firsts), math.fsum(seconds)))
        else:
            result.append((sum(firsts, 0), sum(seconds, 0)))
    return result


def random_games(rng: random.Random, count: int):
    """Games of every shape (rows, stacks, forests) and number type, small enough for the
    brute-force oracle."""
    for k in range(count):
        rows, stacks = random_game(rng, 8)
        values: list = []
        parents: list[int] = []
        if k % 3 == 0:
            values, parents = random_forest(rng, rng.randint(1, 5))
        convert = [lambda x: x, Fraction, lambda x: Decimal(x) / 4, float,
                   lambda x: x * 2**70][k % 5]
        rows = [[convert(c) for c in r] for r in rows]
        stacks = [[convert(c) for c in s] for s in stacks]
        values = [convert(c) for c in values]
        yield Game(rows=rows, stacks=stacks, forest=(values, parents) if values else None), \
            (rows, stacks, values, parents)


# -- the page's numbers, without a browser ---------------------------------------------------


def check_page_numbers(game: Game, oracle: tuple | None = None) -> dict:
    page = game.to_html()
    data = page_data(page)
    moves = game.play()
    n = len(game)
    assert len(data["moves"]) == n == len(moves)
    assert len(data["first"]) == len(data["second"]) == len(data["value"]) == n + 1
    first, second = game.profits()
    floats = isinstance(first, float)
    for s, (a, b) in enumerate(running_totals(moves, floats)):
        assert same_number(data["first"][s], a) and same_number(data["second"][s], b), s
    # the totals at the end are the profits, exactly (floats: each player's fsum)
    assert same_number(data["first"][n], first) and same_number(data["second"][n], second)
    # the value of every position along the optimal line, for the player to move there
    position = game
    for s in range(n + 1):
        value = position.value()
        if floats:
            assert math.isclose(float(data["value"][s]), value, rel_tol=1e-12, abs_tol=1e-12)
        else:
            assert same_number(data["value"][s], value), (s, data["value"][s], value)
        if s < n:
            assert position.best_move() == moves[s]
            taken = data["moves"][s]
            assert taken.startswith(("first player takes ", "second player takes "))
            assert taken.startswith(("first", "second")[s % 2])
            position = position.take(moves[s])
    if oracle is not None:
        rows, stacks, values, parents = oracle
        expected = brute_forest_value(rows, stacks, values, parents)
        if floats:
            assert math.isclose(float(data["value"][0]), expected, rel_tol=1e-12,
                                abs_tol=1e-12)
        else:
            assert same_number(data["value"][0], expected)
    return data


def test_random_games_every_number_on_the_page():
    rng = random.Random(1913)
    for game, oracle in random_games(rng, scaled(60)):
        check_page_numbers(game, oracle)


def test_positions_off_the_optimal_line_and_the_empty_game():
    rng = random.Random(3)
    for _ in range(scaled(20)):
        rows, stacks = random_game(rng, 10)
        game = Game(rows=rows, stacks=stacks)
        for _ in range(rng.randint(0, len(game))):
            game = game.take(rng.choice(game.moves()))
        check_page_numbers(game)
    data = check_page_numbers(Game())
    assert data["moves"] == [] and data["first"] == ["0"]
    assert "no coins left" in Game().to_html()


class Resources(HTMLParser):
    """Every tag and attribute of a page, to find anything loaded from elsewhere."""

    VOID = frozenset({"meta", "br", "img", "input", "link", "hr", "circle", "line", "rect",
                      "path"})

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.attributes: list[tuple[str, str, str | None]] = []
        self.open: list[str] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self.tags.append(tag)
        self.attributes += [(tag, name, value) for name, value in attrs]
        if tag not in self.VOID:
            self.open.append(tag)

    def handle_startendtag(self, tag: str, attrs: list) -> None:
        self.tags.append(tag)
        self.attributes += [(tag, name, value) for name, value in attrs]

    def handle_endtag(self, tag: str) -> None:
        assert self.open and self.open[-1] == tag, f"</{tag}> closes {self.open[-1:]}"
        self.open.pop()


@pytest.mark.parametrize("game", [
    Game(rows=[[1, 2, 1000, 3, 4, 900]]),
    Game(rows=[[3, 1, 4]], stacks=[[9, 2, 6]], forest=([5, 1, 7], [-1, 0, 0])),
    Game(rows=[[Fraction(1, 3), 2]], stacks=[[Fraction(-5, 2)]]),
    Game(rows=[[i % 7 for i in range(HTML_MAX_COINS + 1)]]),   # the summary page
])
def test_the_page_is_self_contained_and_well_formed(game):
    page = game.to_html()
    parser = Resources()
    parser.feed(page)
    parser.close()
    assert parser.open == [], f"unclosed: {parser.open}"
    assert parser.tags[:3] == ["html", "head", "meta"]
    for tag in ("link", "img", "iframe", "object", "embed", "audio", "video", "source",
                "base"):
        assert tag not in parser.tags
    for tag, name, value in parser.attributes:
        assert name not in ("src", "href", "xlink:href", "srcset", "action"), (tag, name)
        if name == "xmlns":
            assert value == "http://www.w3.org/2000/svg"
    # no address anywhere but the SVG namespace; no style sheet loads anything
    assert set(re.findall(r"https?://[^\s\"'<>]*", page)) <= {"http://www.w3.org/2000/svg"}
    assert "url(" not in page and "@import" not in page
    if len(game) <= HTML_MAX_COINS:
        svg = re.search(r"<svg .*?</svg>", page, re.DOTALL)[0]
        root = ET.fromstring(svg)  # well-formed XML
        coins = [g for g in root.iter("{http://www.w3.org/2000/svg}g")
                 if g.get("class", "").startswith("coin ")]
        assert len(coins) == len(game)
        data = DATA.search(page)[1]
        assert "<" not in data and ">" not in data  # cannot close its <script>


def test_a_game_over_the_cap_gets_the_summary_page():
    rng = random.Random(11)
    row = [rng.randint(-50, 50) for _ in range(HTML_MAX_COINS - 3)]
    at_cap = Game(rows=[row], stacks=[[1, 2, 3]])
    assert len(at_cap) == HTML_MAX_COINS
    assert "coinsrow-data" in at_cap.to_html() and "<svg" in at_cap.to_html()
    over = Game(rows=[row], stacks=[[1, 2, 3, 4]])
    page = over.to_html()
    assert "<svg" not in page and "<script" not in page
    assert f"at\nmost {HTML_MAX_COINS} coins" in page or f"at most {HTML_MAX_COINS} coins" in page
    first, second = over.profits()
    assert re.search(r'id="first-total">([^<]*)<', page)[1] == str(first)
    assert re.search(r'id="second-total">([^<]*)<', page)[1] == str(second)
    assert re.search(r'id="value">([^<]*)<', page)[1] == str(over.value())
    listed = re.findall(r"<tr><td>(\d+)</td><td>([a-z ]+)</td><td>([^<]*)</td><td>([^<]*)</td>"
                        r"<td>([^<]*)</td><td>([^<]*)</td></tr>", page)
    moves = over.play()[:SUMMARY_MOVES]
    assert len(listed) == SUMMARY_MOVES
    totals = running_totals(moves, False)
    for (turn, player, where, coin, a, b), move, (x, y) in zip(listed, moves, totals[1:]):
        assert player == ("first player" if int(turn) % 2 else "second player")
        assert int(coin) == move.coin and (int(a), int(b)) == (x, y)
        assert f"row {move.index}" in where or f"stack {move.index}" in where


def test_the_cap_is_stated_where_people_look():
    doc = Game.to_html.__doc__
    assert f"more than {HTML_MAX_COINS} coins" in " ".join(doc.split())
    assert f"first {SUMMARY_MOVES} moves" in " ".join(doc.split())
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["--help"]) == 0
    text = " ".join(out.getvalue().split())
    assert f"more than {HTML_MAX_COINS} coins gets a summary page" in text
    guide = Path(__file__).resolve().parent.parent / "docs" / "guide" / "pictures.md"
    if guide.is_file():  # not next to the tests of an installed wheel
        text = " ".join(guide.read_text(encoding="utf-8").split())
        assert f"more than {HTML_MAX_COINS} coins gets a summary page" in text
        assert f"the first {SUMMARY_MOVES} moves of the optimal play" in text


def test_svg_without_totals_for_the_page():
    game = Game(rows=[[3, 2, 2, 3, 1, 2]])
    assert 'class="total first"' in game_svg(game)
    plain = game_svg(game, totals=False)
    assert "total first" not in plain and "total second" not in plain
    assert plain.count('class="coin ') == 6


# -- the command line ------------------------------------------------------------------------


def call(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(argv)
    return status, out.getvalue(), err.getvalue()


def test_html_flag_writes_the_page(tmp_path):
    path = tmp_path / "play.html"
    status, out, err = call(["--html", str(path), "--row", "1 5 2", "--stack", "4 1"])
    assert (status, err) == (0, "")
    assert "profits: first" in out  # the usual output too
    game = Game(rows=[[1, 5, 2]], stacks=[[4, 1]])
    assert path.read_text(encoding="utf-8") == game.to_html() == game_html(game)
    path2 = tmp_path / "versus.html"
    status, _, err = call(["--html", str(path2), "--strategy", "greedy", "1", "2", "3"])
    assert (status, err) == (0, "")
    # the page of the game played (greedy against optimal), not of the optimal play
    played = coinsrow.simulate([1, 2, 3], "greedy", "optimal")
    assert path2.read_text(encoding="utf-8") == \
        coinsrow.analyze(Game(rows=[[1, 2, 3]]), played).to_html()


def test_html_flag_bad_path_is_one_line(tmp_path):
    status, _, err = call(["--html", str(tmp_path / "no" / "such" / "dir.html"), "1", "2"])
    assert status == 2 and err.count("\n") == 1 and err.startswith("coinsrow: error: cannot")


# -- in a browser ----------------------------------------------------------------------------

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")


def find_chromium() -> str | None:
    """A headless Chromium that runs here (COINSROW_CHROMIUM names one), else None."""
    named = os.environ.get("COINSROW_CHROMIUM")
    candidates = [named] if named else [shutil.which(b) for b in BROWSERS]
    for candidate in candidates:
        if not candidate:
            continue
        try:
            probe = subprocess.run([candidate, "--headless", "--version"], capture_output=True,
                                   timeout=60, check=False)
        except (OSError, subprocess.SubprocessError):
            continue
        if probe.returncode == 0:
            return candidate
    return None


CHROMIUM = find_chromium()
needs_browser = pytest.mark.skipif(
    CHROMIUM is None,
    reason="no headless Chromium here (Debian: apt-get install -y chromium; or set "
           "COINSROW_CHROMIUM to a Chromium or Chrome executable)")


def dom(tmp_path: Path, page: str, address: str = "", script: str = "",
        clock_ms: int | None = None) -> str:
    """The page's DOM after it has loaded in headless Chromium (its script has run), at
    ``address`` (e.g. "#end"), with ``script`` run after the page's own (a person's clicks),
    the virtual clock advanced ``clock_ms`` for timers ("Play all")."""
    path = tmp_path / f"page{len(list(tmp_path.iterdir()))}.html"
    if script:
        page = page.replace("</body>", f"<script>{script}</script>\n</body>")
    path.write_text(page, encoding="utf-8")
    command = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
               f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom"]
    if clock_ms is not None:
        command.append(f"--virtual-time-budget={clock_ms}")
    result = subprocess.run(command + [path.as_uri() + address], capture_output=True,
                            text=True, timeout=180, check=False)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "coinsrow" in result.stdout, result.stdout[:500]
    return result.stdout


# After the page's own script, each state's script runs in turn and the body as it then
# stands (its scripts left out) is copied to the end of the page: one Chromium start (about a
# second of CPU) for several states of a page instead of one start each.
SNAPSHOT = '<div id="coinsrow-snapshot-'
_SNAPSHOTS = """
(function (states) {
  var copies = states.map(function (state) {
    state();
    var body = document.body.cloneNode(true);
    body.querySelectorAll("script").forEach(function (s) { s.remove(); });
    return [document.title, body.innerHTML];
  });
  copies.forEach(function (titleAndBody, k) {
    var copy = document.createElement("div");
    copy.id = "coinsrow-snapshot-" + k;
    copy.innerHTML = titleAndBody[1];
    var title = document.createElement("title");  // the title as it was then
    title.textContent = titleAndBody[0];
    copy.prepend(title);
    document.body.appendChild(copy);
  });
})([%s]);
"""


def at_address(address: str) -> str:
    """The script of a state: the page's address changed to ``address`` (e.g. "#end")."""
    return (f'history.replaceState(null, "", "{address}"); '
            'window.dispatchEvent(new HashChangeEvent("hashchange"));')


def dom_states(tmp_path: Path, page: str, states: list[str], address: str = "") -> list[str]:
    """The page's DOM after each of ``states`` (scripts run in turn on one loaded page: a
    person's clicks and keys, or ``at_address``): its title then, and its body."""
    functions = ", ".join(f"function () {{ {state} }}" for state in states)
    text = dom(tmp_path, page, address, _SNAPSHOTS % functions)
    copies = text.split(SNAPSHOT)[1:]
    assert len(copies) == len(states), text[-2000:]
    return copies


def shown(text: str, name: str) -> str:
    match = re.search(rf'id="{name}"[^>]*>([^<]*)<', text)
    assert match, f"no #{name} on the page"
    return match[1]


def coin_states(text: str) -> dict[int, str]:
    """turn -> "taken" / "next" / "" for every coin of the picture."""
    states = {}
    for classes, turn in re.findall(r'<g class="coin ([a-z ]+)">.*?<text [^>]*class="turn"'
                                    r'[^>]*>(\d+)</text>', text):
        words = classes.split()
        states[int(turn)] = "taken" if "taken" in words else "next" if "next" in words else ""
    return states


def check_step(text: str, game: Game, step: int) -> None:
    """The page shows step ``step`` of the optimal play of ``game``."""
    n = len(game)
    moves = game.play()
    first, second = running_totals(moves, isinstance(game.profits().first, float))[step]
    assert shown(text, "step") == str(step)
    assert same_number(shown(text, "first-total"), first)
    assert same_number(shown(text, "second-total"), second)
    position = game
    for move in moves[:step]:
        position = position.take(move)
    value = position.value()
    if isinstance(value, float):
        assert math.isclose(float(shown(text, "value")), value, rel_tol=1e-12, abs_tol=1e-12)
    else:
        assert same_number(shown(text, "value"), value)
    states = coin_states(text)
    assert sorted(states) == list(range(1, n + 1))
    assert sorted(t for t in states if states[t] == "taken") == list(range(1, step + 1))
    assert sorted(t for t in states if states[t] == "next") == ([step + 1] if step < n else [])


BROWSER_GAMES = [
    Game(rows=[[1, 2, 1000, 3, 4, 900]]),
    Game(rows=[[Fraction(7, 2), 1, Fraction(-1, 3)], [2]], stacks=[[5, Fraction(1, 2), 4]]),
    Game(rows=[[Decimal("0.1"), Decimal("2.25")]], stacks=[[Decimal("1.5")]],
         forest=([Decimal(5), Decimal("0.5"), Decimal(7), Decimal(2)], [-1, 0, 0, 2])),
    Game(rows=[[0.1, 0.2, 0.3, 1e-3]], stacks=[[2.5, 0.7]]),
    Game(forest=([3, 1, 4, 1, 5, 9, 2, 6], [-1, 0, 0, 1, -1, 4, 4, 6])),
]


@pytest.mark.slow
@needs_browser
@pytest.mark.parametrize("game", BROWSER_GAMES, ids=["row", "fractions", "decimals-forest",
                                                      "floats", "forest"])
def test_browser_at_the_end_the_totals_are_the_profits(tmp_path, game):
    text = dom(tmp_path, game.to_html(), "#end")
    first, second = game.profits()
    assert same_number(shown(text, "first-total"), first)
    assert same_number(shown(text, "second-total"), second)
    assert shown(text, "value") in ("0", "0.0")
    assert shown(text, "next-move") == "none, the game is over"
    check_step(text, game, len(game))


@pytest.mark.slow
@needs_browser
def test_browser_any_step_from_the_address(tmp_path):
    rng = random.Random(7)
    rows, stacks = random_game(rng, 14)
    game = Game(rows=rows + [[3, 1, 4, 1, 5]], stacks=stacks)
    page = game.to_html()
    steps = sorted(rng.sample(range(len(game) + 1), 3)) + [0]
    # the first step as the page is opened at its address, the others as the address changes
    texts = dom_states(tmp_path, page, [""] + [at_address(f"#step={s}") for s in steps[1:]]
                       + [at_address(f"#step={len(game) + 50}")], f"#step={steps[0]}")
    for step, text in zip(steps, texts):
        check_step(text, game, step)
    assert shown(texts[-1], "step") == str(len(game))


@pytest.mark.slow
@needs_browser
def test_browser_play_all_plays_to_the_end(tmp_path):
    game = BROWSER_GAMES[1]
    n = len(game)
    # "Play all" from the address: a move every 600 ms of the virtual clock
    text = dom(tmp_path, game.to_html(), "#play", clock_ms=600 * (n + 2))
    check_step(text, game, n)
    assert shown(text, "play-all").endswith("Play all")  # stopped at the end
    # and half-way through, the play is half-way
    text = dom(tmp_path, game.to_html(), "#play", clock_ms=600 * (n // 2) + 300)
    check_step(text, game, n // 2)
    assert shown(text, "play-all") == "Pause"


@pytest.mark.slow
@needs_browser
def test_browser_buttons_and_keys(tmp_path):
    game = BROWSER_GAMES[2]
    n = len(game)
    page = game.to_html()
    clicks = ["to-end", "step-back", "step-back", "step-forward"]
    keys = ["End", "Home", "ArrowRight", "ArrowRight", "ArrowRight", "ArrowLeft"]
    by_buttons, by_keys, at_start, at_end = dom_states(tmp_path, page, [
        "".join(f'document.getElementById("{b}").click();' for b in clicks),
        "".join(f'document.dispatchEvent(new KeyboardEvent("keydown", {{key: "{k}"}}));'
                for k in keys),
        at_address("#step=0"), at_address("#end")])
    check_step(by_buttons, game, n - 1)
    check_step(by_keys, game, 2)
    # buttons that cannot move are disabled
    assert re.search(r'<button id="to-start"[^>]*disabled', at_start)
    assert re.search(r'<button id="to-end"[^>]*disabled', at_end)
    assert not re.search(r'<button id="to-start"[^>]*disabled', at_end)


def test_a_forest_page_names_its_nodes_where_the_moves_do():
    """The moves name a forest's nodes by number: each node's coin says its number in its
    title, and the page says so; a page without a forest does not."""
    rng = random.Random(515)
    for _ in range(20):
        n = rng.randint(1, 12)
        parents = [rng.randrange(-1, k) for k in range(n)]
        order = list(range(n))
        rng.shuffle(order)   # numbers in any order: a parent may come after its child
        relabelled = [-1] * n
        for k, parent in enumerate(parents):
            relabelled[order[k]] = -1 if parent < 0 else order[parent]
        values = [rng.randint(-5, 9) for _ in range(n)]
        game = Game(rows=[[1, 2]], forest=(values, relabelled))
        page = game.to_html()
        assert "a node's number shows when the pointer rests on it" in page
        data = json.loads(DATA.search(page)[1])
        for node, value in enumerate(values):
            title = re.search(rf"<title>tree node {node}: {value}, taken at turn (\d+) ", page)
            assert title, node
            assert data["moves"][int(title[1]) - 1].endswith(f"the root node {node} of the "
                                                             "forest")
    assert "pointer rests" not in Game(rows=[[1, 2]], stacks=[[3]]).to_html()
