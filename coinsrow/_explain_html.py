"""The web page of ``explain``: the algorithm's steps on a game, one at a time.

One self-contained HTML file (works offline, from a file): the coins drawn as the other pages
draw them, and under each component its current values, each a bar spanning the coins it
stands for. The steps: the coins; each Fusion (the three values and the fused one marked);
each Fruitless move (the pair greyed out); each Greedy step (the value coloured by the player
who takes it, the signed sum so far); the value and the optimal play. Every number is
computed in Python and written as text; the script only shows the state of a step. Buttons
and the keys Left, Right, Home, End step through it; ``#step=K`` opens at step K.

Games of more than ``EXPLAIN_MAX_COINS`` coins get the text account instead (``str()`` of the
explanation, which summarises long lists).
"""

from __future__ import annotations

from html import escape
from typing import Any

from ._page import page
from ._svg import COLOURS
from ._text import format_number, json_for_script

__all__ = ["EXPLAIN_MAX_COINS", "explanation_html"]

#: The most coins a page draws with its steps; a larger game gets the text account.
EXPLAIN_MAX_COINS = 400

_CELL = 50
_RADIUS = 20
_LABEL = 84
_BAND = 112  # the height of one component: its coins, then the bar of its values

# The explain page's own rules, after the ones every page shares (_page).
_STYLE = """
p { max-width: 60em; }
.note { color: #444444; }
.controls button { margin: 0 .3em .3em 0; }
.status { min-height: 4.2em; }
#phase { font-weight: bold; }
rect.seg { fill: #eef2f7; stroke: #5a6b80; stroke-width: 1; }
rect.seg.fresh { fill: #ffe08a; stroke: #8a6d00; stroke-width: 2; }
rect.seg.part { fill: #fff4c2; stroke: #8a6d00; stroke-dasharray: 4 2; }
rect.seg.dropped { fill: #e4e4e4; stroke: #aaaaaa; stroke-dasharray: 3 3; }
rect.seg.first { fill: FIRST; }
rect.seg.second { fill: SECOND; }
text.seg { font-size: 13px; text-anchor: middle; fill: #222222; }
text.seg.first, text.seg.second { fill: #ffffff; font-weight: bold; }
text.seg.dropped { fill: #888888; }
pre { background: #f6f6f6; padding: .8em; overflow-x: auto; }
""".replace("FIRST", COLOURS["first"]).replace("SECOND", COLOURS["second"])

_SCRIPT = """
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("coinsrow-data").textContent);
  var steps = data.steps, n = steps.length - 1, step = 0;
  var NS = "http://www.w3.org/2000/svg";
  var layer = document.getElementById("segments");
  function byId(id) { return document.getElementById(id); }
  function add(tag, attributes, text) {
    var node = document.createElementNS(NS, tag);
    for (var key in attributes) { node.setAttribute(key, attributes[key]); }
    if (text !== undefined) { node.textContent = text; }
    layer.appendChild(node);
  }
  function show(s) {
    step = Math.max(0, Math.min(n, s));
    var state = steps[step];
    while (layer.firstChild) { layer.removeChild(layer.firstChild); }
    for (var c = 0; c < state.segments.length; c++) {
      var y = data.top + c * data.band + 2 * data.radius + 14;
      var segs = state.segments[c];
      for (var k = 0; k < segs.length; k++) {
        var seg = segs[k];  // [label, first cell, cells, class]
        var x = data.left + seg[1] * data.cell + 3;
        var w = seg[2] * data.cell - 6;
        add("rect", {"class": "seg " + seg[3], x: x, y: y, width: w, height: 26, rx: 5});
        add("text", {"class": "seg " + seg[3], x: x + w / 2, y: y + 18}, seg[0]);
      }
    }
    byId("step").textContent = step;
    byId("phase").textContent = state.phase;
    byId("says").textContent = state.text;
    byId("sum").textContent = state.sum;
    byId("to-start").disabled = byId("step-back").disabled = step === 0;
    byId("step-forward").disabled = byId("to-end").disabled = step === n;
  }
  byId("to-start").onclick = function () { show(0); };
  byId("step-back").onclick = function () { show(step - 1); };
  byId("step-forward").onclick = function () { show(step + 1); };
  byId("to-end").onclick = function () { show(n); };
  byId("next-phase").onclick = function () {
    var phase = steps[step].phase, s = step;
    while (s < n && steps[s].phase === phase) { s++; }
    show(s);
  };
  document.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.altKey || e.metaKey) { return; }
    var keys = {ArrowLeft: "step-back", ArrowRight: "step-forward", Home: "to-start",
                End: "to-end", PageDown: "next-phase"};
    if (keys[e.key]) { byId(keys[e.key]).click(); e.preventDefault(); }
  });
  function fromAddress() {
    var match = /^#step=(\\d+)$/.exec(window.location.hash);
    if (window.location.hash === "#end") { show(n); }
    else { show(match ? parseInt(match[1], 10) : step); }
  }
  window.addEventListener("hashchange", fromAddress);
  fromAddress();
}());
"""



def explanation_html(explanation: Any) -> str:
    """The page of an ``Explanation``: the coins and the values under them, step by step.

    O(s * k) for s steps and k reduced values at most (each step's state is written out),
    on games of at most ``EXPLAIN_MAX_COINS`` coins; O(n) text beyond.
    """
    e = explanation
    total = sum(len(c) for c in e.coins)
    f = format_number
    if total > EXPLAIN_MAX_COINS:
        body = (f"<main>\n<h1>Coins in a row: the algorithm on a game of {total} coins</h1>\n"
                f"<p class=\"note\">A page draws the steps of games of at most "
                f"{EXPLAIN_MAX_COINS} coins; this is the account in words, long lists "
                f"shortened.</p>\n<pre id=\"account\">{escape(str(e))}</pre>\n</main>")
        return page(f"coinsrow: the algorithm on {total} coins", _STYLE, body)
    steps = _steps(e)
    width = _LABEL + max((len(c) for c in e.coins), default=0) * _CELL + 20
    top = 20
    height = top + len(e.coins) * _BAND + 10
    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Verdana, sans-serif" '
           f'role="img"><title>the coins and their reduced values</title>'
           '<rect width="100%" height="100%" fill="#ffffff"/>']
    for c, (name, coins) in enumerate(zip(e.names, e.coins)):
        cy = top + c * _BAND + _RADIUS
        svg.append(f'<text x="8" y="{cy + 5}" font-size="13">{escape(name)}</text>')
        if name.startswith("stack"):
            svg.append(f'<text x="8" y="{cy + 19}" font-size="10" fill="#555555">top '
                       'first</text>')
        for j, coin in enumerate(coins):
            cx = _LABEL + j * _CELL + _CELL / 2
            label = f(coin)
            shown = label if len(label) <= 6 else label[:5] + "\u2026"
            svg.append(f'<g class="coin"><title>{escape(name)}, coin {e.offsets[c] + j}: '
                       f'{escape(label)}</title><circle cx="{cx:g}" cy="{cy}" r="{_RADIUS}" '
                       'fill="#6b6b6b" stroke="#222222"/>'
                       f'<text x="{cx:g}" y="{cy + 5}" font-size="13" fill="#ffffff" '
                       f'text-anchor="middle" font-weight="bold">{escape(shown)}</text></g>')
        svg.append(f'<text x="8" y="{cy + _RADIUS + 32}" font-size="11" '
                   'fill="#555555">values</text>')
    svg.append('<g id="segments"></g></svg>')
    data = {"steps": steps, "cell": _CELL, "left": _LABEL, "top": top, "band": _BAND,
            "radius": _RADIUS}
    body = f"""<main>
<h1>Coins in a row: the algorithm, step by step</h1>
<p class="note">Idziaszek's algorithm: <b>Fusion</b> replaces three neighbours x &le; M &gt; y
by one value x &minus; M + y (the bar under the coins it stands for); <b>Fruitless</b> drops the
last two values x &le; M of a stack; <b>Greedy</b> then takes the values largest first, one a
turn. Value of this game: <b id="value">{escape(f(e.value))}</b>.</p>
<div class="controls">
<button id="to-start" type="button" title="the coins (Home)">&#x25c0;&#x25c0; Start</button>
<button id="step-back" type="button" title="one step back (Left)">&#x25c0; Back</button>
<button id="step-forward" type="button" title="one step forward (Right)">Forward &#x25b6;
</button>
<button id="next-phase" type="button" title="to the next phase (Page Down)">Next phase
</button>
<button id="to-end" type="button" title="the value and the play (End)">End &#x25b6;&#x25b6;
</button>
</div>
<div class="status" aria-live="polite">
<p>Step <span id="step">0</span> of {len(steps) - 1}: <span id="phase"></span>.</p>
<p id="says"></p>
<p>Signed sum so far: <b id="sum"></b></p>
</div>
<noscript><pre>{escape(str(e))}</pre></noscript>
<div id="picture">{"".join(svg)}</div>
<p class="note">Bars: yellow, the values of the step (dashed: the three that fuse); grey and
dashed, dropped by Fruitless; blue, taken by the player to move; red, by the other.</p>
</main>
<script type="application/json" id="coinsrow-data">{json_for_script(data)}</script>
<script>{_SCRIPT}</script>"""
    return page("coinsrow: the algorithm, step by step", _STYLE, body)


def _steps(e: Any) -> list[dict[str, Any]]:
    """Every step's state: the values of each component as bars [label, first cell,
    cells, class], the phase, a sentence and the signed sum so far."""
    f = format_number
    current: list[list[list[Any]]] = [[[f(x), j, 1, ""] for j, x in enumerate(coins)]
                                      for coins in e.coins]

    def bar(c: int, segment: Any, cls: str) -> list[Any]:
        return [f(segment.value), segment.start - e.offsets[c], segment.stop - segment.start,
                cls]

    def state(phase: str, text: str, total: str = "(Greedy adds the values up)",
              marks: dict[tuple[int, int], str] | None = None) -> dict[str, Any]:
        marks = marks or {}
        return {"phase": phase, "text": text, "sum": total,
                "segments": [[[b[0], b[1], b[2], marks.get((c, b[1]), b[3])] for b in bars]
                             for c, bars in enumerate(current)]}

    steps = [state("the coins", "Each coin is a value of its own.")]
    for step in e.fusions:
        c = step.component
        first = step.x.start - e.offsets[c]
        i = next(k for k, b in enumerate(current[c]) if b[1] == first)
        marks = {(c, current[c][i + k][1]): "part" for k in range(3)}
        steps.append(state("Fusion", f"{e.names[c]}: {f(step.x.value)} <= "
                                     f"{f(step.middle.value)} > {f(step.y.value)} fuse ...",
                           marks=marks))
        current[c][i:i + 3] = [bar(c, step.fused, "")]
        steps.append(state("Fusion", f"{e.names[c]}: they become {f(step.x.value)} - "
                                     f"{f(step.middle.value)} + {f(step.y.value)} = "
                                     f"{f(step.fused.value)}, standing for their coins",
                           marks={(c, first): "fresh"}))
    fruitless = "0"
    dropped: dict[tuple[int, int], str] = {}
    sum_fruitless: Any = 0
    for step in e.fruitless:
        c = step.component
        for s in (step.x, step.middle):
            dropped[(c, s.start - e.offsets[c])] = "dropped"
        sum_fruitless = sum_fruitless + step.amount
        fruitless = f(sum_fruitless)
        steps.append(state("Fruitless", f"{e.names[c]}: {f(step.x.value)} <= "
                                        f"{f(step.middle.value)} at the bottom are dropped; "
                                        f"they add {f(step.amount)}", fruitless,
                           marks=dict(dropped)))
    taken = dict(dropped)
    running: Any = sum_fruitless
    for t, step in enumerate(e.greedy):
        c = step.component
        taken[(c, step.segment.start - e.offsets[c])] = "first" if step.sign > 0 else "second"
        running = running + step.sign * step.segment.value
        who = "the player to move" if step.sign > 0 else "the other player"
        steps.append(state("Greedy", f"Turn {t + 1}: {who} takes {f(step.segment.value)}, "
                                     f"the largest value left (from the {step.end} of "
                                     f"{e.names[c]})", f(running), marks=dict(taken)))
    play = " ".join(f(m.coin) for m in e.play[:40]) + (" ..." if len(e.play) > 40 else "")
    steps.append(state("the value", f"Value {f(e.value)}. The optimal play takes each value's "
                                    f"coins in the Greedy order: {play}", f(e.value),
                       marks=dict(taken)))
    return steps
