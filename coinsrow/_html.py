"""A self-contained web page stepping through an optimal play (``Game.to_html()``,
``coinsrow --html FILE``).

The page is one HTML file: the picture of ``game_svg`` inline, a style sheet and a small
script, and the play's numbers as JSON. It loads nothing else, so it works offline and from
a file. Every number on it is computed here, in Python, with the game's own arithmetic (ints,
``Fraction`` and ``Decimal`` exactly; float totals summed exactly and rounded once, as
``Game.profits()`` does) and written as text: the script only shows the text for a step.

Buttons (and the keys Home, Left, Right, End, Space) step back and forward, jump to either
end, or play the whole optimal play move by move; the address may name a step: ``#step=3``,
``#end``, or ``#play`` (play from the start when the page opens).

Games of more than ``HTML_MAX_COINS`` coins get a summary page instead: their size, the
profits, the value, and the first ``SUMMARY_MOVES`` moves of the optimal play, without the
picture (one element per coin would make the page too heavy to open).
"""

from __future__ import annotations

import decimal
from fractions import Fraction
from html import escape
from typing import Any

from ._coins import round_float
from ._dispatch import EXACT_DECIMAL
from ._moves import move_words
from ._page import page
from ._svg import COLOURS, game_svg
from ._text import format_number, json_for_script

__all__ = ["HTML_MAX_COINS", "SUMMARY_MOVES", "game_html", "review_html"]

#: The largest game drawn on a page with its play step by step; a larger one gets a summary.
HTML_MAX_COINS = 5000
#: The moves a summary page lists (the start of the optimal play).
SUMMARY_MOVES = 20

PLAYER_NAMES = ("first player", "second player")

# The play and review page's own rules, after the ones every page shares (_page).
_STYLE = """
.rules, .note { color: #444444; max-width: 52em; }
.totals b { font-size: 1.2em; margin-right: 1.2em; }
.swatch { display: inline-block; width: .8em; height: .8em; border-radius: 50%;
          margin-right: .3em; vertical-align: baseline; }
.swatch.first { background: FIRST; }
.swatch.second { background: SECOND; }
#picture g.coin { transition: opacity .15s; }
#picture g.coin.taken { opacity: .16; }
#picture g.coin.next circle { stroke: #111111; stroke-width: 4px; }
table { border-collapse: collapse; margin-top: .6em; }
td, th { padding: .15em .7em; text-align: right; border-bottom: 1px solid #dddddd; }
th { background: #f0f0f0; }
#picture g.coin.lost circle { stroke: #d4a017; stroke-width: 4px; stroke-dasharray: 5 3; }
#picture g.coin.none circle { fill: #9a9a9a; }
#review tr.lost td.loss { color: #9b1c1c; font-weight: bold; }
#review tr.current td { background: #fff4c2; }
#review td.move { text-align: left; }
.verdict { font-size: 1.05em; }
""".replace("FIRST", COLOURS["first"]).replace("SECOND", COLOURS["second"])

# The script only moves between steps and shows the texts computed in Python. Each coin of
# the picture is found by the turn written under it (its <text class="turn">).
_SCRIPT = """
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("coinsrow-data").textContent);
  var n = data.moves.length;
  var coins = new Array(n);
  var groups = document.querySelectorAll("#picture g.coin");
  for (var i = 0; i < groups.length; i++) {
    var turn = groups[i].querySelector("text.turn");
    if (turn) { coins[parseInt(turn.textContent, 10) - 1] = groups[i]; }
  }
  var step = 0, timer = null;
  // A reviewed game: the moves that lost are ringed, and the review's row of the last move
  // is marked.
  var lost = data.lost || [];
  for (var m = 0; m < lost.length; m++) {
    if (lost[m] && coins[m]) { coins[m].classList.add("lost"); }
  }
  var reviewRows = document.querySelectorAll("#review tr.move");
  function byId(id) { return document.getElementById(id); }
  function text(id, value) { byId(id).textContent = value; }
  function show(s) {
    step = Math.max(0, Math.min(n, s));
    for (var t = 0; t < n; t++) {
      coins[t].classList.toggle("taken", t < step);
      coins[t].classList.toggle("next", t === step);
    }
    for (var r = 0; r < reviewRows.length; r++) {
      reviewRows[r].classList.toggle("current", r === step - 1);
    }
    text("step", step);
    text("first-total", data.first[step]);
    text("second-total", data.second[step]);
    text("value", data.value[step]);
    text("to-move", step < n ? data.players[step % 2] : "nobody (no coin left)");
    text("last-move", step > 0 ? "Last move: " + data.moves[step - 1] + "." : "No move yet.");
    text("next-move", step < n ? data.moves[step] : "none, the game is over");
    byId("to-start").disabled = byId("step-back").disabled = step === 0;
    byId("step-forward").disabled = byId("to-end").disabled = step === n;
    byId("play-all").disabled = n === 0;
  }
  function stop() {
    if (timer !== null) { clearInterval(timer); timer = null; }
    text("play-all", "\\u25b6 Play all");
  }
  function go(s) { stop(); show(s); }
  function play() {
    if (timer !== null) { stop(); return; }
    if (step === n) { show(0); }
    text("play-all", "Pause");
    timer = setInterval(function () {
      show(step + 1);
      if (step === n) { stop(); }
    }, data.delay);
  }
  byId("to-start").onclick = function () { go(0); };
  byId("step-back").onclick = function () { go(step - 1); };
  byId("step-forward").onclick = function () { go(step + 1); };
  byId("to-end").onclick = function () { go(n); };
  byId("play-all").onclick = play;
  document.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.altKey || e.metaKey) { return; }
    if (e.target && e.target.tagName === "BUTTON" && (e.key === " " || e.key === "Enter")) {
      return;  // the focused button's own click
    }
    var keys = {ArrowLeft: "step-back", ArrowRight: "step-forward", Home: "to-start",
                End: "to-end"};
    if (e.key === " ") { play(); e.preventDefault(); }
    else if (keys[e.key]) { byId(keys[e.key]).click(); e.preventDefault(); }
  });
  function fromAddress() {
    var hash = window.location.hash.replace(/^#/, "");
    var match = /^step=(\\d+)$/.exec(hash);
    if (hash === "end") { go(n); }
    else if (hash === "play") { go(0); play(); }
    else if (match) { go(parseInt(match[1], 10)); }
    else { show(step); }
  }
  window.addEventListener("hashchange", fromAddress);
  fromAddress();
}());
"""



def _describe(turn: int, move: Any) -> str:
    return f"{PLAYER_NAMES[turn % 2]} takes {format_number(move.coin)} from {move_words(move)}"


def _steps(moves: list, floats: bool, zero: Any) -> tuple[list[str], list[str], list[str]]:
    """The texts of every step s = 0..n: both running totals after s moves, and the value of
    the position for the player to move then (the rest of the optimal play, signed). Exact;
    floats through Fractions, rounded once (+-inf beyond the float range, as ``value()``
    answers there). O(n) additions."""
    coins = [Fraction(m.coin) if floats else m.coin for m in moves]
    start: Any = Fraction(0) if floats else zero

    def shown(x: Any) -> str:
        return format_number(round_float(x) if floats else x)

    with decimal.localcontext(EXACT_DECIMAL):
        totals = [start, start]
        first, second = [shown(start)], [shown(start)]
        for t, coin in enumerate(coins):
            totals[t % 2] += coin
            first.append(shown(totals[0]))
            second.append(shown(totals[1]))
        values = [shown(start)]
        rest = start
        for coin in reversed(coins):
            rest = coin - rest
            values.append(shown(rest))
    values.reverse()
    return first, second, values


_RULES = ("Two players take turns; a move takes a coin from either end of a row, the top of a "
          "stack (drawn top first) or a root of a tree. The first player moves first; both "
          "play optimally, each collecting as much as possible.")


_REVIEW_RULES = ("Two players take turns; a move takes a coin from either end of a row, the "
                 "top of a stack (drawn top first) or a root of a tree. Each move played is "
                 "compared with optimal play: its worth is the coin minus what the opponent "
                 "can then gain, its loss how much less than the best that is.")


def game_html(game: Any, *, delay_ms: int = 600) -> str:
    """A self-contained HTML page of ``game`` (a ``Game``) and one optimal play from it.

    Up to ``HTML_MAX_COINS`` coins: the picture with buttons to step through the play
    (``delay_ms`` between the moves of "Play all"), the running totals and the value of every
    position. Beyond: a summary page (no picture). O(n log k) for the play (O(n log n) with a
    forest) and O(n) for the page.

    >>> page = game_html(__import__("coinsrow").Game(rows=[[3, 2, 2, 3, 1, 2]]))
    >>> page.startswith("<!DOCTYPE html>"), page.count('class="coin ')
    (True, 6)
    """
    n = len(game)
    if n > HTML_MAX_COINS:
        return _summary_page(game)
    moves = game.play()
    profits = game.profits()
    floats = isinstance(profits.first, float)
    first, second, values = _steps(moves, floats, type(profits.first)(0))
    described = [_describe(t, m) for t, m in enumerate(moves)]
    data = {"moves": described, "first": first, "second": second, "value": values,
            "players": list(PLAYER_NAMES), "delay": int(delay_ms)}
    svg = game_svg(game, totals=False)
    to_move = PLAYER_NAMES[0] if n else "nobody (no coin left)"
    next_move = described[0] if n else "none, the game is over"
    title = f"coinsrow: an optimal play of {n} coin{'s' if n != 1 else ''}"
    # The moves name a forest's nodes by number; the picture has them in each coin's title.
    forest_note = (" A forest is drawn with its roots at the top, each node under its parent; "
                   "a node's number shows when the pointer rests on it."
                   if game.forest is not None and game.forest[0] else "")
    body = f"""<main>
<h1>Coins in a row: an optimal play</h1>
<p class="rules">{escape(_RULES)}</p>
<p>{n} coin{'s' if n != 1 else ''}. Value of the game (first player's total minus the second's,
both playing optimally): <b id="game-value">{escape(values[0])}</b>; in the end, first player
<b>{escape(first[-1])}</b>, second player <b>{escape(second[-1])}</b>.</p>
{_controls_and_totals(n, first[0], second[0], "play the whole optimal play")}
<p>To move: <span id="to-move">{to_move}</span>. Value of this position for the player to
move: <b id="value">{escape(values[0])}</b> (her coins from here minus the other's, both playing
optimally).</p>
<p>Next optimal move: <span id="next-move">{escape(next_move)}</span>.</p>
</div>
<noscript><p class="note">Without JavaScript the buttons do nothing; the picture shows the
whole play: the number under a coin is the turn at which it is taken.</p></noscript>
<div id="picture">{svg}</div>
<p class="note">A coin's colour is the player who takes it (<span class="swatch first"></span>first,
<span class="swatch second"></span>second); the number under it is the turn. Taken coins fade;
the ringed coin is the next move.{forest_note}</p>
</main>
<script type="application/json" id="coinsrow-data">{json_for_script(data)}</script>
<script>{_SCRIPT}</script>"""
    return page(title, _STYLE, body)


def _summary_page(game: Any) -> str:
    """The page of a game over the cap: its size, profits and value, and the start of the
    optimal play (walked along the game's optimal line: O(n log k) once, then O(k) a move)."""
    n = len(game)
    profits = game.profits()
    floats = isinstance(profits.first, float)
    moves = []
    position = game
    for _ in range(min(SUMMARY_MOVES, n)):
        move = position.best_move()
        moves.append(move)
        position = position.take(move)
    first, second, _ = _steps(moves, floats, type(profits.first)(0))
    value = game.value()
    rows = "\n".join(
        f"<tr><td>{t + 1}</td><td>{PLAYER_NAMES[t % 2]}</td><td>{escape(move_words(m))}</td>"
        f"<td>{escape(format_number(m.coin))}</td><td>{escape(first[t + 1])}</td>"
        f"<td>{escape(second[t + 1])}</td></tr>"
        for t, m in enumerate(moves))
    parts = [f"{len(game.rows)} rows" if game.rows else "",
             f"{len(game.stacks)} stacks" if game.stacks else "",
             "a forest" if game.forest is not None and game.forest[0] else ""]
    shape = ", ".join(p for p in parts if p)
    body = f"""<main>
<h1>Coins in a row: a summary</h1>
<p class="rules">{escape(_RULES)}</p>
<p class="note">This game has {n} coins ({escape(shape)}): a page steps through games of at
most {HTML_MAX_COINS} coins; a larger game gets this summary, with the first {len(moves)}
moves of the optimal play.</p>
<p class="totals"><span class="swatch first"></span>first player
<b id="first-total">{escape(format_number(profits.first))}</b>
<span class="swatch second"></span>second player
<b id="second-total">{escape(format_number(profits.second))}</b></p>
<p>Value of the game (first minus second, both playing optimally):
<b id="value">{escape(format_number(value))}</b>.</p>
<table>
<tr><th>turn</th><th>player</th><th>takes from</th><th>coin</th><th>first</th>
<th>second</th></tr>
{rows}
</table>
</main>"""
    return page(f"coinsrow: a summary of a game of {n} coins", _STYLE, body)


def review_html(analysis: Any, bases: Any = None, *, delay_ms: int = 600) -> str:
    """A self-contained page of a played game and its review (``Analysis.to_html()``).

    The picture of the moves played (coins coloured by who took them, the turn under each,
    the coins not taken grey), the same step buttons and keys as ``game_html``, the value of
    every position reached, and the review: each move's coin, the best gain there, its
    worth and its loss; the moves that lost are ringed on the picture and marked in the
    table. ``bases`` as for ``game_svg``. Games of more than ``HTML_MAX_COINS`` coins get the
    table alone, its first and last ``SUMMARY_MOVES`` moves and the moves that lost most.
    O(n) for n moves (plus O(n log n) to find the largest losses of a long game).
    """
    game = analysis.start
    reviews = list(analysis)
    n = len(reviews)
    moves = [r.move for r in reviews]
    floats = isinstance(analysis.optimal, float)
    f = format_number
    first, second, _ = _steps(moves, floats, type(analysis.optimal)(0))
    values = [f(r.best) for r in reviews]
    if n:
        last = reviews[-1]
        with decimal.localcontext(EXACT_DECIMAL):
            values.append(f(last.coin - last.worth) if not analysis.finished
                          else f(type(analysis.optimal)(0)))
    else:
        values.append(f(analysis.optimal))
    described = [f"{_describe(r.turn, r.move)}: worth {f(r.worth)}, "
                 + ("optimal" if r.loss == 0 else f"lost {f(r.loss)} (best {f(r.best)})")
                 for r in reviews]
    data = {"moves": described, "first": first, "second": second, "value": values,
            "players": list(PLAYER_NAMES), "delay": int(delay_ms),
            "lost": [1 if r.loss != 0 else 0 for r in reviews]}
    big = len(game) > HTML_MAX_COINS
    shown = reviews if not big else _review_sample(reviews)
    table = "\n".join(
        f'<tr class="move{" lost" if r.loss != 0 else ""}"><td>{r.turn + 1}</td>'
        f"<td>{PLAYER_NAMES[r.player]}</td><td class=\"move\">{escape(move_words(r.move))}</td>"
        f"<td>{escape(f(r.coin))}</td><td>{escape(f(r.best))}</td>"
        f"<td>{escape(f(r.worth))}</td><td class=\"loss\">{escape(f(r.loss))}</td></tr>"
        for r in shown)
    margin = f(_difference(analysis.first, analysis.second))
    verdict = (f"Optimal play gives the first player a margin of <b id=\"optimal\">"
               f"{escape(f(analysis.optimal))}</b>; her margin "
               f"{'in this game' if analysis.finished else 'so far (the game is not finished)'}"
               f": <b id=\"margin\">{escape(margin)}</b>. Losses: first player "
               f"<b id=\"loss-first\">"
               f"{escape(f(analysis.losses[0]))}</b>, second player <b id=\"loss-second\">"
               f"{escape(f(analysis.losses[1]))}</b>.")
    if analysis.finished:
        verdict += (" (Margin = optimal margin &minus; the first player's losses + the "
                    "second's.)")
    title = f"coinsrow: a review of {n} move{'s' if n != 1 else ''}"
    if big:
        body = f"""<main>
<h1>Coins in a row: a reviewed game</h1>
<p class="verdict">{verdict}</p>
<p class="note">This game has {len(game)} coins: the page lists the first and last
{SUMMARY_MOVES} moves and the {SUMMARY_MOVES} that lost most, without the picture.</p>
<table id="review"><tr><th>turn</th><th>player</th><th>takes from</th><th>coin</th>
<th>best</th><th>worth</th><th>loss</th></tr>
{table}
</table>
</main>"""
        return page(title, _STYLE, body)
    svg = game_svg(game, play=moves, totals=False, bases=bases,
                   profits=_Totals(analysis.first, analysis.second))
    next_move = described[0] if n else "none"
    body = f"""<main>
<h1>Coins in a row: a reviewed game</h1>
<p class="rules">{escape(_REVIEW_RULES)}</p>
<p class="verdict">{verdict}</p>
{_controls_and_totals(n, first[0], second[0], "replay the moves")}
<p>To move: <span id="to-move">{PLAYER_NAMES[0] if n else "nobody"}</span>. Best gain from
here for the player to move: <b id="value">{escape(values[0])}</b>.</p>
<p>Move played next: <span id="next-move">{escape(next_move)}</span>.</p>
</div>
<div id="picture">{svg}</div>
<p class="note">A coin's colour is the player who took it (<span class="swatch first"></span>first,
<span class="swatch second"></span>second; grey: not taken), the number under it the turn; a
dashed gold ring marks a move that lost against optimal play.</p>
<table id="review"><tr><th>turn</th><th>player</th><th>takes from</th><th>coin</th>
<th title="the value of the position: what optimal play gains from there">best</th>
<th title="the coin minus the value left to the opponent">worth</th><th>loss</th></tr>
{table}
</table>
</main>
<script type="application/json" id="coinsrow-data">{json_for_script(data)}</script>
<script>{_SCRIPT}</script>"""
    return page(title, _STYLE, body)


class _Totals:
    """The two totals a picture heads with (what ``game_svg`` reads of profits)."""

    __slots__ = ("first", "second")

    def __init__(self, first: Any, second: Any) -> None:
        self.first = first
        self.second = second


def _difference(a: Any, b: Any) -> Any:
    with decimal.localcontext(EXACT_DECIMAL):
        if isinstance(a, float):
            return round_float(Fraction(a) - Fraction(b))
        return a - b


def _review_sample(reviews: list) -> list:
    """The first and last SUMMARY_MOVES moves and the SUMMARY_MOVES that lost most, in
    turn order."""
    import heapq

    worst = heapq.nlargest(SUMMARY_MOVES, reviews, key=lambda r: r.loss)
    chosen = {r.turn: r for r in reviews[:SUMMARY_MOVES] + reviews[-SUMMARY_MOVES:] + worst}
    return [chosen[t] for t in sorted(chosen)]


def _controls_and_totals(n: int, first: str, second: str, play_all: str) -> str:
    """The step buttons (with their keys) and the status lines every stepping page shows:
    the move reached, the last move, both totals."""
    return f"""<div class="controls">
<button id="to-start" type="button" title="back to the start (Home)">&#x25c0;&#x25c0; Start
</button>
<button id="step-back" type="button" title="one move back (Left)">&#x25c0; Back</button>
<button id="step-forward" type="button" title="one move forward (Right)">Forward &#x25b6;
</button>
<button id="to-end" type="button" title="to the end (End)">End &#x25b6;&#x25b6;</button>
<button id="play-all" type="button" title="{play_all} (Space)">&#x25b6; Play all
</button>
</div>
<div class="status" aria-live="polite">
<p>Move <span id="step">0</span> of <span id="moves">{n}</span>.
<span id="last-move">No move yet.</span></p>
<p class="totals"><span class="swatch first"></span>first player
<b id="first-total">{escape(first)}</b> <span class="swatch second"></span>second player
<b id="second-total">{escape(second)}</b></p>"""
