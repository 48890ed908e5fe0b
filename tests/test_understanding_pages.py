"""The review and explain pages, their pictures, and the command line's analyze and explain.

Without a browser: the numbers each page carries are the library's (running totals, each
position's value, the signed sums of the Greedy phase), the pages load nothing from elsewhere,
and a played game is drawn as it was played. In headless Chromium (skipped without one): no
script error, stepping with the buttons and keys reaches the end, and the numbers shown there
are the library's.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from test_html import at_address, dom, dom_states, needs_browser, page_data, same_number, shown

from coinsrow import Game, analyze, explain, simulate
from coinsrow.__main__ import main

from generators import random_game

ERRORS = "<script>window.onerror = function (m) { document.title = 'SCRIPT ERROR ' + m; };" \
         "</script>"


def _with_error_trap(page: str) -> str:
    """The page with a handler that writes any script error into its title (read back
    from the DOM), installed before the page's own script."""
    return page.replace("<head>", "<head>" + ERRORS, 1)


def _title(text: str) -> str:
    match = re.search(r"<title>([^<]*)</title>", text)
    assert match
    return match[1]


GAMES = [
    (Game(rows=[[1, 2, 1000, 3, 4, 900]]), ["left", "right", "right", "left", "left", "left"]),
    (Game(rows=[[Fraction(7, 2), 1, Fraction(-1, 3)], [2]], stacks=[[5, Fraction(1, 2), 4]]),
     None),
    (Game(rows=[[Decimal("0.1"), Decimal("2.25")]], stacks=[[Decimal("1.5"), Decimal(3)]]),
     None),
    (Game(rows=[[0.1, 0.2, 0.3, 1e-3]], stacks=[[2.5, 0.7]]), None),
    (Game(rows=[[5, 1]], forest=([3, 1, 4, 1, 5], [-1, 0, 0, 1, -1])), None),
]


def _played(game: Game, moves: Any, seed: int = 0) -> Any:
    return moves if moves is not None else simulate(game, "greedy", "random", seed=seed)


@pytest.mark.parametrize("game, moves", GAMES)
def test_review_page_carries_the_analysis(game: Game, moves: Any) -> None:
    analysis = analyze(game, _played(game, moves))
    page = analysis.to_html()
    data = page_data(page)
    n = len(analysis)
    assert len(data["moves"]) == n and len(data["value"]) == n + 1
    for review, value, lost in zip(analysis, data["value"], data["lost"]):
        assert same_number(value, review.best)
        assert lost == (review.loss != 0)
    assert same_number(data["first"][-1], analysis.first)
    assert same_number(data["second"][-1], analysis.second)
    assert "http:" not in page.replace("http://www.w3.org/2000/svg", "")
    # one coin drawn per coin of the game, the turn under each taken one
    svg = analysis.to_svg()
    turns = sorted(int(t) for t in re.findall(r'class="turn"[^>]*>(\d+)<', svg))
    assert turns == list(range(1, n + 1))


def test_a_partial_game_draws_the_coins_not_taken_grey() -> None:
    game = Game(rows=[[1, 2, 3, 4, 5]], stacks=[[7, 8]])
    analysis = analyze(game, [("row", 0, "right"), ("stack", 0, "top")])
    svg = analysis.to_svg()
    assert svg.count('class="coin none"') == 5
    titles = re.findall(r"<title>(row 0, coin \d+): [^,]*, (taken at turn \d|not taken)", svg)
    assert ("row 0, coin 4", "taken at turn 1") in titles
    assert ("row 0, coin 0", "not taken") in titles


@pytest.mark.parametrize("game, moves", GAMES[:4])
def test_explain_page_steps_end_at_the_value(game: Game, moves: Any) -> None:
    e = explain(game)
    data = page_data(e.to_html())
    steps = data["steps"]
    assert steps[-1]["phase"] == "the value" and same_number(steps[-1]["sum"], e.value)
    assert len(steps) == 2 + 2 * len(e.fusions) + len(e.fruitless) + len(e.greedy)
    # after the Fusions, the bars are the reduced values
    fused = steps[2 * len(e.fusions)]["segments"]
    assert [[bar[0] for bar in bars] for bars in fused] == \
        [[_text(s.value) for s in segments] for segments in e.reduced]


def _text(x: Any) -> str:
    from coinsrow._text import format_number
    return format_number(x)


def test_explain_page_of_a_long_game_is_its_account() -> None:
    page = explain(list(range(1000))).to_html()
    assert 'id="account"' in page and "coinsrow-data" not in page


# -- in a browser ------------------------------------------------------------------------------


@pytest.mark.slow
@needs_browser
@pytest.mark.parametrize("game, moves", GAMES, ids=["row", "fractions", "decimals", "floats",
                                                    "forest"])
def test_browser_review_page_steps_to_the_end(tmp_path: Path, game: Game, moves: Any) -> None:
    analysis = analyze(game, _played(game, moves, seed=3))
    page = _with_error_trap(analysis.to_html())
    n = len(analysis)
    # the keys and the buttons, as a person uses them: Right n times, then End
    clicks = (f"for (var i = 0; i < {n}; i++) {{ document.dispatchEvent(new KeyboardEvent("
              "'keydown', {key: 'ArrowRight'})); }")
    steps = (0, n // 2)
    text, *at_steps, at_end = dom_states(
        tmp_path, page, [clicks] + [at_address(f"#step={s}") for s in steps]
        + [at_address("#end")])
    for state in (text, *at_steps, at_end):
        assert not _title(state).startswith("SCRIPT ERROR"), _title(state)
    assert shown(text, "step") == str(n)
    assert same_number(shown(text, "first-total"), analysis.first)
    assert same_number(shown(text, "second-total"), analysis.second)
    for step, state in zip(steps, at_steps):
        assert shown(state, "step") == str(step)
        if step < n:
            assert same_number(shown(state, "value"), analysis[step].best)
    lost = [r.turn for r in analysis if r.loss != 0]
    rings = re.findall(r'<g class="coin (?:first|second) lost[^"]*">.*?class="turn"[^>]*>(\d+)<',
                       at_end)
    assert sorted(int(t) - 1 for t in rings) == lost


@pytest.mark.slow
@needs_browser
@pytest.mark.parametrize("game", [GAMES[0][0], GAMES[1][0], Game(rows=[[3, 2, 2, 3, 1, 2]],
                                                                  stacks=[[1, 2, 3, 9]])])
def test_browser_explain_page_steps_to_the_end(tmp_path: Path, game: Game) -> None:
    e = explain(game)
    page = _with_error_trap(e.to_html())
    steps = page_data(page)["steps"]
    clicks = (f"for (var i = 0; i < {len(steps) + 3}; i++) {{ "
              "document.getElementById('step-forward').click(); }")
    text, at_step_1 = dom_states(tmp_path, page, [clicks, at_address("#step=1")])
    assert not _title(text).startswith("SCRIPT ERROR"), _title(text)
    assert shown(text, "step") == str(len(steps) - 1)
    assert shown(text, "phase") == "the value"
    assert same_number(shown(text, "sum"), e.value)
    # every value bar of the last step is drawn
    bars = sum(len(b) for b in steps[-1]["segments"])
    assert text.count('<rect class="seg') == bars
    assert shown(at_step_1, "step") == "1"
    assert not _title(at_step_1).startswith("SCRIPT ERROR"), _title(at_step_1)


# -- the command line ----------------------------------------------------------------------------


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(args)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_cli_analyze_json(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = _run(["analyze", "1", "2", "1000", "3", "4", "900", "--moves",
                             "l r r l l l", "--json"], capsys)
    assert (status, err) == (0, "")
    document = json.loads(out)
    assert document["optimal"] == 1892 and document["losses"] == {"first": 1792, "second": 0}
    assert [m["loss"] for m in document["moves"]] == [1792, 0, 0, 0, 0, 0]
    assert (document["first"], document["second"], document["finished"]) == (1005, 905, True)


def test_cli_analyze_of_a_game_from_a_moves_file(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    moves = tmp_path / "moves.json"
    moves.write_text(json.dumps(["stack 0", ["row", 0, "right"], {"kind": "stack", "index": 0,
                                                                  "end": "top"}]))
    html = tmp_path / "review.html"
    status, out, err = _run(["analyze", "--row", "1 2", "--stack", "3 4", "--moves-file",
                             str(moves), "--html", str(html)], capsys)
    assert (status, err) == (0, "")
    want = analyze(Game(rows=[[1, 2]], stacks=[[3, 4]]),
                   [("stack", 0, "top"), ("row", 0, "right"), ("stack", 0, "top")])
    assert out == "\n".join(want.lines()) + "\n"
    assert page_data(html.read_text())["value"] == page_data(want.to_html())["value"]


def test_cli_explain(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = _run(["explain", "3", "2", "2", "3", "1", "2"], capsys)
    assert (status, err) == (0, "")
    assert out == str(explain([3, 2, 2, 3, 1, 2])) + "\n"
    status, out, _ = _run(["explain", "--json", "3", "2", "2", "3", "1", "2"], capsys)
    assert json.loads(out)["value"] == "3"


@pytest.mark.parametrize("args, said", [
    (["analyze", "1", "2", "3"], "give the moves played"),
    (["analyze", "1", "2", "3", "--moves", "l x"], "move 2 ('x') is not a move"),
    (["analyze", "1", "2", "3", "--moves", "l l l l"], "turn 3 (move 4)"),
    (["analyze", "--row", "1", "--row", "2", "--moves", "l"], "move 1 ('l') is not a move"),
    (["analyze", "--row", "1", "--moves", "row 5 left"], "turn 0 (move 1)"),
    (["analyze", "1", "2", "--moves", "l", "--moves-file", "x"], "one of the two"),
    (["analyze", "1", "2", "--moves-file", "/nonexistent/moves.json"], "cannot read"),
    (["analyze", "1", "2", "--moves", "l", "--html", ""], "--html needs a file name"),
    (["explain", "--json", "x"], "'x'"),
    (["explain", "-f", "/nonexistent/game.json"], "/nonexistent/game.json"),
])
def test_cli_bad_input_is_one_line_and_exit_2(args: list[str], said: str,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = _run(args, capsys)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and said in err and "Traceback" not in err


def test_cli_explain_of_a_forest_is_refused(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    game = tmp_path / "forest.json"
    game.write_text(json.dumps({"forest": {"values": [1, 2], "parents": [-1, 0]}}))
    status, _, err = _run(["explain", "-f", str(game)], capsys)
    assert status == 2 and "forest" in err and err.count("\n") == 1


def test_cli_strategies_draw_the_game_they_played(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    svg, html = tmp_path / "played.svg", tmp_path / "played.html"
    row = [1, 2, 1000, 3, 4, 900]
    status, _, err = _run(["--svg", str(svg), "--html", str(html), "--strategy", "greedy",
                           "--vs", "optimal", *map(str, row)], capsys)
    assert (status, err) == (0, "")
    played = simulate(row, "greedy", "optimal")
    turns = {int(t): int(p) for p, t in re.findall(
        r"<title>row 0, coin (\d+): [^,]*, taken at turn (\d+)", svg.read_text())}
    assert [turns[t + 1] for t in range(len(row))] == [m.position for m in played.moves]
    assert turns != {t + 1: m.position for t, m in enumerate(Game(rows=[row]).play())}
    data = page_data(html.read_text())
    assert same_number(data["first"][-1], played.first)


def test_random_games_reviewed_from_the_command_line(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    rng = random.Random(5)
    for _ in range(20):
        rows, stacks = random_game(rng, 10)
        if not rows and not stacks:
            continue
        game = Game(rows=rows, stacks=stacks)
        moves = simulate(game, "random", "greedy", seed=rng.random()).moves
        words = ", ".join(f"row {m.index} {m.end}" if m.kind == "row" else f"stack {m.index}"
                          for m in moves)
        args = [a for r in rows for a in ("--row", " ".join(map(str, r)))] + \
               [a for s in stacks for a in ("--stack", " ".join(map(str, s)))]
        status, out, err = _run(["analyze", *args, "--moves", words, "--json"], capsys)
        assert (status, err) == (0, ""), err
        document = json.loads(out)
        want = analyze(game, moves)
        assert [m["loss"] for m in document["moves"]] == [r.loss for r in want]


@needs_browser
def test_the_error_trap_catches_a_script_error(tmp_path: Path) -> None:
    page = _with_error_trap(analyze([1, 2], ["left"]).to_html())
    text = dom(tmp_path, page.replace("</body>", "<script>noSuchFunction();</script></body>"))
    assert _title(text).startswith("SCRIPT ERROR")


def test_the_module_runs_analyze(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "coinsrow", "analyze", "5", "1", "--moves",
                             "r l"], capture_output=True, text=True, check=False,
                            cwd=Path(__file__).resolve().parent.parent)
    assert result.returncode == 0 and "losses: first player 8" in result.stdout


def test_a_playout_draws_itself() -> None:
    game = Game(rows=[[1, 2, 1000, 3, 4, 900]], stacks=[[5, 1]])
    playout = simulate(game, "greedy", "random", seed=2)
    assert playout.to_svg(game) == analyze(game, playout).to_svg()
    assert page_data(playout.to_html(game)) == page_data(analyze(game, playout).to_html())
    with pytest.raises(ValueError, match="turn 0"):
        playout.to_svg(Game(rows=[[7]]))
