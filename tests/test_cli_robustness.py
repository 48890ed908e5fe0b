"""The ``coinsrow`` command on hostile input and big outputs, driven as a user does: a
subprocess (``python -m coinsrow``), its exit status and its stderr.

Bad input is one line on stderr and exit status 2, quickly: deeply nested JSON, numbers of
millions of digits (refused from their text, before any conversion), an SVG path that
cannot be written. A UTF-8 byte-order mark is read as editors write it. Big games stream
their play: memory stays a few dozen bytes a coin, and ``--quiet`` never builds the play;
an SVG of a big game is a summary of at most MAX_COINS coins.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import subprocess
import sys
import xml.etree.ElementTree as ET
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest

from coinsrow import Game, _cli, _cli_input
from coinsrow._cli import main
from coinsrow._cli_input import MAX_DIGITS
from coinsrow._svg import MAX_COINS, game_svg

from modes import machine_only

ROOT = Path(__file__).resolve().parent.parent
SVG = "{http://www.w3.org/2000/svg}"
# Far above what any refusal here takes; the calls fixed here took minutes before.
QUICK = 30


def run(*args: str, stdin: str | bytes | None = None,
        timeout: float = 120) -> subprocess.CompletedProcess:
    data = stdin.encode() if isinstance(stdin, str) else stdin
    result = subprocess.run([sys.executable, "-m", "coinsrow", *args], cwd=ROOT, input=data,
                            capture_output=True, timeout=timeout)
    result.stdout = result.stdout.decode()
    result.stderr = result.stderr.decode()
    return result


def refused(result: subprocess.CompletedProcess, *words: str) -> None:
    """Exit status 2 and one line on stderr, naming what is wrong."""
    assert result.returncode == 2, (result.returncode, result.stderr)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("coinsrow: error: "), result.stderr
    assert "Traceback" not in result.stderr
    for word in words:
        assert word in lines[0], (word, lines[0])


def call_main(argv: list[str], stdin: str | bytes = "") -> tuple[int, str, str]:
    """main() in this process; bytes on standard input come as a process's do (a text
    stream over a binary buffer), a str as a plain text stream."""
    out, err = io.StringIO(), io.StringIO()
    previous = sys.stdin
    sys.stdin = io.StringIO(stdin) if isinstance(stdin, str) else io.TextIOWrapper(
        io.BytesIO(stdin), encoding="utf-8")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(argv)
    finally:
        sys.stdin = previous
    return status, out.getvalue(), err.getvalue()


# -- deeply nested JSON ------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("document", [
    "[" * 5000 + "]" * 5000,
    "[" * 100_000 + "1" + "]" * 100_000,
    '{"rows": ' + "[" * 5000 + "]" * 5000 + "}",
    '{"a": ' * 5000 + "1" + "}" * 5000,
    "[" * 100_000,  # and never closed
])
def test_deeply_nested_json_is_one_line(document, tmp_path):
    refused(run("-", stdin=document, timeout=QUICK), "standard input", "nested too deeply")
    path = tmp_path / "deep.json"
    path.write_text(document)
    refused(run("-f", str(path), timeout=QUICK), "deep.json", "nested too deeply")


def test_nesting_that_fits_is_the_usual_error():
    # (A list of lists is a game of rows: its first row holds a list where a coin goes.)
    refused(run("-", stdin="[[[[1]]]]"), "rows[0][0]: [[1]] is not a number")


# -- numbers of millions of digits ---------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("args", [
    ["1/2", "1e999999999"],
    ["1/2", "1e-999999999"],
    ["1e999999999"],
    ["--float", "1e999999999"],
    ["0.5", "1E+999999999999999999999999"],
    ["1/3", "2.5e" + "9" * 50],
    ["--row", "1/2 1e-999999999"],
    ["1", "1" + "0" * (MAX_DIGITS + 1)],
    ["1/" + "3" * (MAX_DIGITS + 1)],
])
def test_huge_numbers_are_refused_from_their_text(args):
    refused(run(*args, timeout=QUICK), "too long", f"at most {MAX_DIGITS} digits")


@pytest.mark.parametrize("document", [
    '[1e999999999, "1/2"]',
    '{"rows": [["1/2", 1e-999999999]]}',
    '{"rows": [[1, ' + "7" * (MAX_DIGITS + 1) + "]]}",
    '{"forest": {"values": [1e999999999], "parents": [-1]}}',
    '["1e999999999"]',
])
def test_huge_numbers_in_json_are_refused(document):
    refused(run("-", stdin=document, timeout=QUICK), "too long")


def test_many_far_apart_decimals_beside_a_fraction_are_refused(tmp_path):
    """Beside a fraction, decimals are read as fractions: those far apart need as many
    digits as the Decimal sums the library refuses, and are refused the same way."""
    path = tmp_path / "coins.txt"
    path.write_text("1/2 " + " ".join(["1e-99999", "3"] * 2000))
    refused(run("-q", "-f", str(path), timeout=QUICK), "exact Decimal sums", "fractions")
    path.write_text(" ".join(["1e-99999", "3"] * 2000))  # alone: the library's refusal
    refused(run("-q", "-f", str(path), timeout=QUICK), "exact Decimal sums")


def test_the_digit_limit_is_exactly_max_digits():
    """A number of MAX_DIGITS digits (exponent counted) is read; one more is refused."""
    with _cli._unlimited_int_digits():  # as main() reads numbers
        check_the_limit()


def check_the_limit():
    assert _cli_input.parse_number("1e" + str(MAX_DIGITS - 1), "x") == Decimal("1e99999")
    assert _cli_input.parse_number("1" * MAX_DIGITS, "x") == int("1" * MAX_DIGITS)
    assert _cli_input.parse_number("-0.0" + "0" * (MAX_DIGITS - 3), "x") == 0
    for text in ("1e" + str(MAX_DIGITS), "1" * (MAX_DIGITS + 1), "1e-" + str(MAX_DIGITS),
                 "1" * (MAX_DIGITS // 2) + "/" + "1" * (MAX_DIGITS // 2 + 1), "1e+0999999",
                 "1.5e" + "0" * 50 + "100000"):
        with pytest.raises(_cli_input.UsageError, match="too long"):
            _cli_input.parse_number(text, "x")
    assert _cli_input.parse_number("1e" + "0" * 500 + "5", "x") == Decimal("1e5")  # leading zeros


def test_big_numbers_within_the_limit_still_work():
    result = run("-q", "1/2", "1e-5000", "3")
    assert result.returncode == 0, result.stderr
    first, second = result.stdout.split()
    with _cli._unlimited_int_digits():  # this process reads 5000-digit numbers back
        assert Fraction(first) + Fraction(second) == Fraction(1, 2) + Fraction(1, 10**5000) + 3
    assert run("-q", "1" * 4000, "1").stdout.split() == ["1" * 4000, "1"]


# -- the byte-order mark -----------------------------------------------------------------------


BOM_TEXTS = ["3 2 2 3 1 2", "3,2,2,3,1,2\n", "[3, 2, 2, 3, 1, 2]",
             '{"rows": [[3, 2, 2, 3, 1, 2]]}', "3 2 2\r\n3 1 2\r\n", "3 2 2 3 1 2.0"]


@pytest.mark.slow
@pytest.mark.parametrize("text", ["3 2 2 3 1 2", '{"rows": [[3, 2, 2, 3, 1, 2]]}'])
def test_a_byte_order_mark_is_skipped(text, tmp_path):
    marked = "\ufeff" + text
    for result in (run("-q", "-", stdin=marked.encode("utf-8")),
                   run("-q", "-f", "-", stdin=marked.encode("utf-8"))):
        assert result.returncode == 0, result.stderr
        assert result.stdout == "8 5\n"
    path = tmp_path / "coins.txt"
    path.write_bytes(marked.encode("utf-8"))
    result = run("-q", "-f", str(path))
    assert result.returncode == 0 and result.stdout == "8 5\n", result.stderr


@pytest.mark.parametrize("text", BOM_TEXTS)
def test_a_byte_order_mark_is_skipped_in_every_format(text, tmp_path):
    marked = "\ufeff" + text
    expected = call_main(["-q", "-"], text)  # the same text without the mark
    assert expected[0] == 0 and expected[1].split()[0] in ("8", "8.0"), expected
    expected = (0, expected[1], "")
    assert call_main(["-q", "-"], marked) == expected
    assert call_main(["-q", "-f", "-"], marked.encode("utf-8")) == expected
    path = tmp_path / "coins.txt"
    path.write_bytes(marked.encode("utf-8"))
    assert call_main(["-q", "-f", str(path)]) == expected


def test_a_byte_order_mark_inside_is_still_an_error():
    refused(run("-", stdin="3 \ufeff1 2"), "line 1", "is not a number")
    refused(run("-", stdin=b"\xff\xfe3\x00"), "not UTF-8")


# -- --svg -------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["", "   "])
def test_svg_needs_a_file_name(path, tmp_path):
    result = subprocess.run([sys.executable, "-m", "coinsrow", "--svg", path, "3", "1", "2"],
                            cwd=tmp_path, capture_output=True, text=True, timeout=QUICK,
                            env=_env_with_root())
    refused(result, "--svg needs a file name")
    assert list(tmp_path.iterdir()) == []


def _env_with_root() -> dict:
    import os
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


@pytest.mark.slow
def test_svg_paths_that_cannot_be_written(tmp_path):
    refused(run("--svg", str(tmp_path / "no" / "such" / "dir.svg"), "1", "2"), "cannot write",
            "dir.svg")
    refused(run("--svg", str(tmp_path), "1", "2"), "cannot write")
    (tmp_path / "file").write_text("")
    refused(run("--svg", str(tmp_path / "file" / "x.svg"), "1", "2"), "cannot write")
    refused(run("--svg", str(tmp_path / "x.svg"), "--strategy", "greedy", "1", "x"),
            "not a number")
    assert not (tmp_path / "x.svg").exists()


def test_help_says_how_big_pictures_are_summarised():
    text = " ".join(run("--help").stdout.split())
    assert f"more than {MAX_COINS} coins is summarised" in text
    assert "at most a few MB" in text and f"at most {MAX_DIGITS} digits" in text


def _coins_of(svg: str):
    return [g for g in ET.fromstring(svg).iter(f"{SVG}g")
            if (g.get("class") or "").startswith("coin ")]


@pytest.mark.slow
def test_svg_of_a_big_game_is_a_summary_of_a_few_megabytes(tmp_path):
    rng = random.Random(6)
    n = 60_000
    coins = [rng.randint(-10**9, 10**9) for _ in range(n)]
    path = tmp_path / "coins.txt"
    path.write_text(" ".join(map(str, coins)))
    picture = tmp_path / "big.svg"
    result = run("-q", "--svg", str(picture), "-f", str(path))
    assert result.returncode == 0, result.stderr
    size = picture.stat().st_size
    drawn = _coins_of(picture.read_text())
    print(f"\n--svg of {n} coins: {size} bytes, {len(drawn)} coins drawn")
    assert size < 3_000_000 and len(drawn) == MAX_COINS
    assert f"summary: {MAX_COINS} of {n} coins drawn" in picture.read_text()
    # The turns shown are those of the whole optimal play.
    turn = {m.position: t for t, m in enumerate(Game(rows=[coins]).play(), 1)}
    for g in drawn:
        title = g.find(f"{SVG}title").text
        position = int(title.split(",")[1].split()[1].rstrip(":"))
        shown = int(g.findall(f"{SVG}text")[-1].text)
        assert shown == turn[position], title


@pytest.mark.parametrize("shape", ["rows", "many rows", "stacks", "forest", "mixed"])
def test_summaries_of_every_shape(shape):
    rng = random.Random(len(shape))
    limit = 300

    def coins(k):
        return [rng.randint(-50, 99) for _ in range(k)]

    game = {
        "rows": Game(rows=[coins(700), coins(5), []]),
        "many rows": Game(rows=[coins(10) for _ in range(100)]),
        "stacks": Game(stacks=[coins(400), coins(3)]),
        "forest": Game(forest=(coins(1000), [-1] + [rng.randrange(i) for i in range(1, 1000)])),
        "mixed": Game(rows=[coins(200)], stacks=[coins(150)],
                      forest=(coins(300), [-1] + [(i - 1) // 2 for i in range(1, 300)])),
    }[shape]
    svg = game_svg(game, max_coins=limit)
    drawn = _coins_of(svg)
    assert 0 < len(drawn) <= limit < len(game)
    assert "summary:" in svg and 'class="gap"' in svg  # says what is not drawn
    root = ET.fromstring(svg)
    totals = {t.get("class"): t.text for t in root.iter(f"{SVG}text")
              if (t.get("class") or "").startswith("total")}
    first, second = game.profits()
    assert totals == {"total first": f"first {first}", "total second": f"second {second}"}
    # every coin drawn is a coin of the game, with its turn in the optimal play
    turn = {(m.kind, m.index, m.position): t for t, m in enumerate(game.play(), 1)}
    for g in drawn:
        where = g.find(f"{SVG}title").text.split(":")[0]
        if where.startswith("tree node"):
            key = ("tree", int(where.split()[-1]), int(where.split()[-1]))
        else:
            kind_index, coin = where.split(", coin ")
            kind, index = kind_index.split()
            key = (kind, int(index), int(coin))
        assert int(g.findall(f"{SVG}text")[-1].text) == turn[key]
    assert game_svg(game, max_coins=len(game)) == game_svg(game)  # small enough: the picture


def test_long_numbers_are_shortened_in_the_picture():
    huge = 7 ** 3000  # 2536 digits
    svg = game_svg(Game(rows=[[huge, 1, 2]]))
    assert len(svg) < 20_000 and "characters)" in svg
    assert ET.fromstring(svg) is not None


# -- big games stream their output -----------------------------------------------------------


PEAK = """
import resource, subprocess, sys
subprocess.run([sys.executable, "-m", "coinsrow", *sys.argv[1:]], stdout=subprocess.DEVNULL,
               check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024)
"""


def peak_bytes(*args: str) -> int:
    """The peak resident memory of ``coinsrow ARGS`` (its own process only)."""
    result = subprocess.run([sys.executable, "-c", PEAK, *args], cwd=ROOT, capture_output=True,
                            text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    return int(result.stdout)


@pytest.mark.slow
@machine_only  # the exact twins keep Python numbers: other bytes a coin
@pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss in kilobytes: Linux")
def test_big_games_stream_their_play(tmp_path):
    """Memory beyond a tiny game's, per coin, for the table, JSON and --quiet (a table kept
    whole, every line and every move, takes about 900 bytes a coin)."""
    n = 100_000
    rng = random.Random(8)
    path = tmp_path / "coins.txt"
    path.write_text(" ".join(str(rng.randint(-10**6, 10**6)) for _ in range(n)))
    tiny = tmp_path / "tiny.txt"
    tiny.write_text("3 1 2")
    base = peak_bytes("-f", str(tiny))
    for flags, bound in ((["--all"], 250), (["--json"], 250), (["-q"], 100)):
        per_coin = (peak_bytes(*flags, "-f", str(path)) - base) / n
        print(f"\ncoinsrow {' '.join(flags)} -f ({n} coins): {per_coin:.0f} bytes a coin")
        assert per_coin < bound, flags


def test_quiet_never_builds_the_play(monkeypatch):
    def forbidden(*args, **kwargs):
        raise AssertionError("the play was built")

    monkeypatch.setattr(Game, "play", forbidden)
    monkeypatch.setattr(Game, "best_move", forbidden)
    monkeypatch.setattr(_cli, "play_moves", forbidden)
    for coins in (["3", "2", "2", "3", "1", "2"], ["0.5", "--float", "1.5"], ["1/2", "3"],
                  [str(2**70), "1"]):
        status, out, err = call_main(["-q", *coins])
        assert status == 0 and len(out.split()) == 2, err
        status, out, err = call_main(["-q", "--json", *coins])
        assert status == 0 and set(json.loads(out)) == {"number_type", "profits"}, err


def test_decimal_quiet_reads_the_play_once_without_a_list(monkeypatch):
    """Decimal profits are written with the coins' own decimal places: the play is read
    once, move by move (never ``Game.play()``)."""
    def forbidden(*args, **kwargs):
        raise AssertionError("the play was built")

    monkeypatch.setattr(Game, "play", forbidden)
    assert call_main(["-q", "0.1", "0.25", "3"]) == (0, "3.1 0.25\n", "")


@pytest.mark.slow
def test_streamed_outputs_are_the_documents_of_the_play():
    """The table and the JSON written piece by piece are those of Game.play()."""
    rng = random.Random(10)
    for kind in (int, float, Fraction, Decimal):
        coins = [kind(rng.randint(-9, 20)) if kind is int else kind(rng.randint(-9, 20)) / 4
                 for _ in range(9000)]
        text = [str(c) for c in coins]
        game = Game(rows=[coins])
        moves = game.play()
        status, out, err = call_main(["--json", *(["--float"] if kind is float else []),
                                      *text])
        assert status == 0, err
        document = json.loads(out, parse_float=Decimal)
        assert len(document["play"]) == len(moves) == len(coins)
        assert document["best_move"] == document["play"][0]
        for entry, move in zip(document["play"], moves):
            assert (entry["kind"], entry["index"], entry["end"], entry["position"]) == (
                move.kind, move.index, move.end, move.position)
        status, out, err = call_main(["--all", *(["--float"] if kind is float else []),
                                      *text])
        assert status == 0, err
        table = out.split("optimal play:\n")[1].splitlines()
        assert len(table) == 1 + len(moves)
        # right-aligned columns: the turns, coins and totals end where the header's do
        header = table[0]
        for column in ("turn", "coin", "first", "second"):
            end = header.index(column) + len(column)
            assert all(line[end - 1] != " " and (len(line) == end or line[end] == " ")
                       for line in table[1:]), column
        ends = [line.split()[4] for line in table[1:]]  # turn, player, "row", 0, end, ...
        assert ends == [m.end for m in moves]
        last = table[-1].split()
        profits = game.profits()
        assert [kind(last[-2]), kind(last[-1])] == [profits.first, profits.second]


def test_big_input_files_are_read_in_one_pass(tmp_path):
    """Plain integers (the common big file) are read at C speed, as an int64 array; one
    token that is not an integer still gets its line number."""
    rng = random.Random(12)
    rows = [[rng.randint(-10**12, 10**12) for _ in range(1000)] for _ in range(3)]
    text = "\n".join(", ".join(map(str, row)) for row in rows)
    assert list(_cli_input.parse_coins(text, "f", False)) == [c for row in rows for c in row]
    assert list(_cli_input.parse_coins("1 2 " + str(2**70) + " 3", "f", False)) == [1, 2, 2**70, 3]
    with pytest.raises(_cli_input.UsageError, match="f, line 4: '1-2' is not a number"):
        _cli_input.parse_coins(text + "\n1-2", "f", False)
    with pytest.raises(_cli_input.UsageError, match="line 2: '--3' is not a number"):
        _cli_input.parse_coins("1\n--3", "f", False)
