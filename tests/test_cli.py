"""The ``coinsrow`` command, driven as a subprocess (``python -m coinsrow``, cwd = repo root so
the in-place build is imported) and, for the many random games, through ``main()`` in-process.

Every printed play is checked move by move against the oracles (dp_table for one row,
brute_solver for rows and stacks), numbers are read back exactly (Fraction/Decimal).
"""

from __future__ import annotations

import contextlib
import decimal
import io
import json
import os
import random
import subprocess
import sys
import xml.etree.ElementTree as ET
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import coinsrow
from coinsrow import silver_dollar
from coinsrow.__main__ import main

from checks import same_or_close
from generators import random_forest
from modes import drawn
from oracles import brute_forest_solver, brute_solver, dp_table, dp_value

ROOT = Path(__file__).resolve().parent.parent

MOVE_KEYS = {"turn", "player", "kind", "index", "end", "position", "coin", "first_total",
             "second_total"}
TOP_KEYS = {"number_type", "rows", "stacks", "profits", "value", "best_move", "play"}


def run(*args: str, stdin: str | bytes | None = None) -> subprocess.CompletedProcess:
    text = not isinstance(stdin, bytes)
    return subprocess.run(
        [sys.executable, "-m", "coinsrow", *args], cwd=ROOT, input=stdin,
        capture_output=True, text=text, timeout=120,
    )


def call_main(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(argv)
    return status, out.getvalue(), err.getvalue()


def tokens(row) -> list[str]:
    return [str(x) for x in row]


# -- checking a JSON play --------------------------------------------------------------------


def read_number(x, number_type: str):
    """A JSON number back into its exact type (strings for Fraction and Decimal)."""
    if number_type == "int":
        assert isinstance(x, int) and not isinstance(x, bool)
        return x
    if number_type == "float":
        assert isinstance(x, (int, float)) and not isinstance(x, bool)
        return float(x)
    assert isinstance(x, str), x
    return Fraction(x) if number_type == "Fraction" else Decimal(x)


def check_schema(doc: dict) -> None:
    assert set(doc) == TOP_KEYS
    assert doc["number_type"] in ("int", "float", "Fraction", "Decimal")
    assert isinstance(doc["rows"], list) and all(isinstance(r, list) for r in doc["rows"])
    assert isinstance(doc["stacks"], list) and all(isinstance(s, list) for s in doc["stacks"])
    assert set(doc["profits"]) == {"first", "second"}
    assert isinstance(doc["play"], list)
    for turn, move in enumerate(doc["play"], 1):
        assert set(move) == MOVE_KEYS
        assert move["turn"] == turn
        assert move["player"] == ("first" if turn % 2 else "second")
        assert move["kind"] in ("row", "stack")
        assert move["end"] in (("left", "right") if move["kind"] == "row" else ("top",))
        assert isinstance(move["index"], int) and isinstance(move["position"], int)
    assert doc["best_move"] == (doc["play"][0] if doc["play"] else None)


def check_optimal_play(doc: dict, rows: list, stacks: list = ()) -> None:
    """Schema, then every move legal and optimal where it is made, running totals, profits."""
    check_schema(doc)
    kind = doc["number_type"]
    num = lambda x: read_number(x, kind)  # noqa: E731
    assert [[num(c) for c in r] for r in doc["rows"]] == [list(r) for r in rows]
    assert [[num(c) for c in s] for s in doc["stacks"]] == [list(s) for s in stacks]
    n = sum(map(len, rows)) + sum(map(len, stacks))
    assert len(doc["play"]) == n
    single_row = len(rows) == 1 and not stacks
    if single_row:
        table = dp_table(list(rows[0]))
    else:
        solve = brute_solver(rows, stacks)
    bounds = [[0, len(r)] for r in rows]
    tops = [0] * len(stacks)
    totals = [0, 0]
    for t, move in enumerate(doc["play"]):
        if single_row:
            i, j = bounds[0]
            before = table[i][j]
        else:
            before = solve(tuple(map(tuple, bounds)), tuple(tops))
        c, coin = move["index"], num(move["coin"])
        if move["kind"] == "row":
            i, j = bounds[c]
            assert i < j, "move from an empty row"
            expected_position = i if move["end"] == "left" else j - 1
            assert move["position"] == expected_position
            assert coin == rows[c][expected_position]
            bounds[c] = [i + 1, j] if move["end"] == "left" else [i, j - 1]
        else:
            assert tops[c] < len(stacks[c]), "move from an empty stack"
            assert move["position"] == tops[c]
            assert coin == stacks[c][tops[c]]
            tops[c] += 1
        after = (table[bounds[0][0]][bounds[0][1]] if single_row
                 else solve(tuple(map(tuple, bounds)), tuple(tops)))
        assert same_or_close(coin - after, before), f"turn {t + 1} is not optimal"
        totals[t % 2] += coin
        assert same_or_close(num(move["first_total"]), totals[0])
        assert same_or_close(num(move["second_total"]), totals[1])
    value = dp_value(list(rows[0])) if single_row else solve(
        tuple((0, len(r)) for r in rows), tuple(0 for _ in stacks))
    first, second = num(doc["profits"]["first"]), num(doc["profits"]["second"])
    assert same_or_close(first - second, value) and same_or_close(num(doc["value"]), value)
    assert same_or_close(first, totals[0]) and same_or_close(second, totals[1])


def random_row(rng: random.Random, n: int, low: int = -5, high: int = 20) -> list[int]:
    return [rng.randint(low, high) for _ in range(n)]


# -- the command as a subprocess -------------------------------------------------------------


@pytest.mark.slow
def test_random_rows_subprocess_every_move_optimal():
    rng = random.Random(20240607)
    for n in [1, 2, 3, 5, 6, 8] + [rng.randint(9, 40) for _ in range(4)]:
        row = random_row(rng, n, -6, rng.choice([3, 30]))  # small ranges give ties
        result = run("--json", *tokens(row))
        assert result.returncode == 0, result.stderr
        assert result.stderr == ""
        check_optimal_play(json.loads(result.stdout), [row])


@pytest.mark.slow
def test_rows_and_stacks_subprocess_every_move_optimal():
    rng = random.Random(7)
    for _ in range(6):
        rows = [random_row(rng, rng.randint(0, 3), -3, 9) for _ in range(rng.randint(1, 2))]
        stacks = [random_row(rng, rng.randint(1, 3), -3, 9) for _ in range(rng.randint(1, 2))]
        args = ["--json"]
        for r in rows:
            args += ["--row", " ".join(tokens(r))]
        for s in stacks:
            args += ["--stack", ",".join(tokens(s))]
        result = run(*args)
        assert result.returncode == 0, result.stderr
        check_optimal_play(json.loads(result.stdout), rows, stacks)


def test_python_dash_m_and_table_output():
    row = [3, 2, 2, 3, 1, 2]
    result = run(*tokens(row))
    assert result.returncode == 0 and result.stderr == ""
    lines = result.stdout.splitlines()
    first, second = coinsrow.profits(row)
    assert f"profits: first {first}, second {second}" in lines
    assert f"value: {dp_value(row)} " in result.stdout
    header = next(i for i, line in enumerate(lines) if line.split()[:2] == ["turn", "player"])
    # turn, player, "row", index, end, coin, first total, second total
    table = [line.split() for line in lines[header + 1:]]
    assert [int(r[0]) for r in table] == list(range(1, len(row) + 1))
    assert [r[1] for r in table] == ["first", "second"] * (len(row) // 2)
    moves = coinsrow.Game(rows=[row]).play()
    assert [(r[2], int(r[3]), r[4], int(r[5])) for r in table] == [
        (m.kind, m.index, m.end, m.coin) for m in moves]
    running = [0, 0]
    for t, r in enumerate(table):
        running[t % 2] += int(r[5])
        assert [int(r[6]), int(r[7])] == running
    # running totals, read off the table, end at the profits
    assert (int(table[-1][6]), int(table[-1][7])) == (first, second)
    best = coinsrow.Game(rows=[row]).best_move()
    assert f"best move: take {best.coin} from the {best.end} end of row 0" in lines


@pytest.mark.slow
def test_quiet_and_json_quiet():
    row = [1, 2, 1000, 3, 4, 900]
    first, second = coinsrow.profits(row)
    result = run("--quiet", *tokens(row))
    assert result.returncode == 0
    assert result.stdout.split() == [str(first), str(second)]
    result = run("--json", "-q", *tokens(row))
    assert json.loads(result.stdout) == {"number_type": "int",
                                         "profits": {"first": first, "second": second}}


def test_stdin_whitespace_and_commas_over_lines():
    rng = random.Random(3)
    row = random_row(rng, 17, -50, 50)
    text = ", ".join(tokens(row[:5])) + "\n" + "  ".join(tokens(row[5:11])) + "\n\t" + \
        ",".join(tokens(row[11:])) + ",\n"
    result = run("--json", "-", stdin=text)
    assert result.returncode == 0, result.stderr
    check_optimal_play(json.loads(result.stdout), [row])


@pytest.mark.slow
def test_file_and_json_document(tmp_path):
    rows = [[4, -1, 7], [2, 2]]
    stacks = [[5, 1, 9], [3]]
    path = tmp_path / "game.json"
    path.write_text(json.dumps({"rows": rows, "stacks": stacks}))
    result = run("--json", "-f", str(path))
    assert result.returncode == 0, result.stderr
    check_optimal_play(json.loads(result.stdout), rows, stacks)
    # a JSON list is one row; through stdin too
    result = run("--json", "-", stdin=json.dumps(rows[0]))
    check_optimal_play(json.loads(result.stdout), [rows[0]])
    # a plain text file
    plain = tmp_path / "coins.txt"
    plain.write_text("3 2 2\n3 1 2\n")
    result = run("--json", "--file", str(plain))
    check_optimal_play(json.loads(result.stdout), [[3, 2, 2, 3, 1, 2]])


@contextlib.contextmanager
def unlimited_int_digits():
    """This test process converts ints beyond Python's default 4300-digit limit too."""
    limit = getattr(sys, "get_int_max_str_digits", lambda: None)()
    if limit is not None:
        sys.set_int_max_str_digits(0)
    try:
        yield
    finally:
        if limit is not None:
            sys.set_int_max_str_digits(limit)


@pytest.mark.slow
def test_big_ints_exact():
    rng = random.Random(11)
    with unlimited_int_digits():
        for digits in (19, 20, 40, 5000):  # 5000 digits: beyond Python's default str limit
            row = [rng.randrange(-10 ** digits, 10 ** digits) for _ in range(7)]
            result = run("--json", *tokens(row))
            assert result.returncode == 0, result.stderr
            doc = json.loads(result.stdout)
            assert doc["number_type"] == "int"
            check_optimal_play(doc, [row])
        row = [10 ** 30, 1, -(10 ** 25), 3 ** 9000]
        quiet = run("-q", *tokens(row))
        first, second = coinsrow.profits(row)
        assert quiet.stdout.split() == [str(first), str(second)]


def test_decimals_are_exact_not_floats():
    row_text = ["0.1", "0.2", "0.3", "-1.25", "2e-3", "7"]
    row = [Decimal(t) for t in row_text]
    result = run("--json", *row_text)
    assert result.returncode == 0, result.stderr
    doc = json.loads(result.stdout)
    assert doc["number_type"] == "Decimal"
    check_optimal_play(doc, [row])
    first = Decimal(doc["profits"]["first"])
    assert first + Decimal(doc["profits"]["second"]) == sum(row)  # exact, unlike floats
    # the plain output is decimal, exact: 0.1 + 0.3 is 0.40, not 0.4000000000000000222
    coins = [Decimal("0.1"), Decimal("0.2"), Decimal("0.30")]
    quiet = run("-q", *map(str, coins))
    printed = quiet.stdout.split()
    assert [Decimal(x) for x in printed] == list(coinsrow.profits(coins))
    assert all(len(x) <= 4 for x in printed)


def test_long_decimals_not_rounded_to_the_default_precision():
    row_text = ["0.1234567890123456789012345678901234567890", "1e-40", "3",
                "-98765432109876543210987654321.5"]
    result = run("--json", *row_text)
    assert result.returncode == 0, result.stderr
    with decimal.localcontext() as context:  # the oracle, exactly too
        context.prec = 200
        context.traps[decimal.Inexact] = True
        check_optimal_play(json.loads(result.stdout), [[Decimal(t) for t in row_text]])


def test_fractions_exact_and_mixed_with_decimals():
    result = run("--json", "7/2", "-1/3", "0.5", "2")
    doc = json.loads(result.stdout)
    assert doc["number_type"] == "Fraction"
    check_optimal_play(doc, [[Fraction(7, 2), Fraction(-1, 3), Fraction(1, 2), Fraction(2)]])
    quiet = run("-q", "7/2", "1")
    assert quiet.stdout.split() == ["7/2", "1"]


def test_float_flag_reads_binary_floats():
    result = run("--json", "--float", "0.1", "0.2", "0.3", "1/4")
    doc = json.loads(result.stdout)
    assert doc["number_type"] == "float"
    check_optimal_play(doc, [[0.1, 0.2, 0.3, 0.25]])


def test_negative_coins_are_coins_not_options():
    row = [Fraction(-3, 2), Decimal("-1e5"), 4, -7]
    result = run("--json", "-3/2", "-1e5", "4", "-7")
    assert result.returncode == 0, result.stderr
    check_optimal_play(json.loads(result.stdout), [[Fraction(c) for c in row]])


BAD_INPUTS = [
    (["3", "x", "2"], None, "'x'"),
    (["3", "nan"], None, "'nan'"),
    (["1/0", "2"], None, "'1/0'"),
    (["1.5.2"], None, "'1.5.2'"),
    (["0x10"], None, "'0x10'"),
    (["--float", "1e400", "1"], None, "'1e400'"),
    (["--row", "1 2 three"], None, "'three'"),
    (["--stack", "1;2"], None, "'1;2'"),
    (["--bogus", "3"], None, "--bogus"),
    ([], None, "no coins"),
    (["-"], "", "no coins"),
    (["-"], " \n\t\n", "no coins"),
    (["-"], "1 2\n3 oops 4\n", "'oops'"),
    (["-"], '{"rows": [[1, 2]', "bad JSON"),
    (["-"], '{"rows": [[1, true]]}', "rows[0][1]"),
    (["-"], '{"rows": [[1, "abc"]]}', "'abc'"),
    (["-"], '[1, NaN]', "NaN"),
    (["-"], '{"rowz": [[1]]}', "'rowz'"),
    (["-"], '{"rows": [1, 2]}', "rows[0]"),
    (["-"], '"just a string"', "'\"just'"),
    (["-", "3"], None, "'-'"),
    (["demo", "extra"], None, "'extra'"),
    (["silver", "1", "x"], None, "'x'"),
    (["silver", "1", "1"], None, "duplicate position 1"),
    (["silver", "0", "2"], None, ">= 1"),
]


def check_one_line_error(status: int, out: str, err: str, named: str) -> None:
    assert status == 2
    assert out == ""
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("coinsrow: error: ")
    assert named in lines[0]


@pytest.mark.parametrize("args, stdin, named", BAD_INPUTS)
def test_bad_input_one_line_error_status_2(monkeypatch, args, stdin, named):
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin or ""))
    check_one_line_error(*call_main(args), named)


@pytest.mark.slow
def test_bad_input_subprocess():
    """The same through the interpreter: nothing but the one line reaches stderr."""
    for args, stdin, named in BAD_INPUTS[::4]:
        result = run(*args, stdin=stdin)
        check_one_line_error(result.returncode, result.stdout, result.stderr, named)


@pytest.mark.slow
def test_unreadable_files_status_2(tmp_path):
    missing = tmp_path / "missing.txt"
    binary = tmp_path / "binary.dat"
    binary.write_bytes(b"\xff\xfe\x00\x81 1 2")
    for path in (missing, tmp_path, binary):
        result = run("-f", str(path))
        assert result.returncode == 2
        assert "Traceback" not in result.stderr
        assert len(result.stderr.splitlines()) == 1
        assert str(path) in result.stderr
    result = run("-", stdin=b"\xff\xfe 1 2")
    assert result.returncode == 2 and b"Traceback" not in result.stderr
    assert len(result.stderr.splitlines()) == 1
    result = run("--svg", str(tmp_path / "no" / "such" / "dir.svg"), "1", "2")
    assert result.returncode == 2 and "dir.svg" in result.stderr


def test_help_and_version():
    result = run("--help")
    assert result.returncode == 0 and "--json" in result.stdout and "demo" in result.stdout
    result = run("--version")
    assert result.returncode == 0 and coinsrow.__version__ in result.stdout


def test_svg_flag_writes_a_picture(tmp_path):
    path = tmp_path / "game.svg"
    result = run("--svg", str(path), "-q", "--row", "3 2 2 3 1 2", "--stack", "5 1")
    assert result.returncode == 0, result.stderr
    root = ET.fromstring(path.read_text())
    coins = [g for g in root.iter("{http://www.w3.org/2000/svg}g")
             if g.get("class", "").split()[:1] == ["coin"]]
    assert len(coins) == 8


def pty_output(args: list[str]) -> str:
    pty = pytest.importorskip("pty")
    master, slave = pty.openpty()
    try:
        proc = subprocess.run([sys.executable, "-m", "coinsrow", *args], cwd=ROOT,
                              stdout=slave, stderr=subprocess.PIPE, timeout=120)
    finally:
        os.close(slave)
    chunks = []
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO once the slave side is closed and drained
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(master)
    assert proc.returncode == 0, proc.stderr
    return b"".join(chunks).decode().replace("\r\n", "\n")


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_long_play_abbreviated_on_a_terminal_unless_all():
    row = tokens(random_row(random.Random(5), 80))
    short = pty_output(row)
    assert "more moves (--all shows every move)" in short
    turns = [line.split()[0] for line in short.splitlines() if line.split()[:1] != [] and
             line.split()[0].isdigit()]
    assert len(turns) < 80 and turns[0] == "1" and turns[-1] == "80"
    full = pty_output(["--all", *row])
    turns = [line.split()[0] for line in full.splitlines() if line.split()[:1] != [] and
             line.split()[0].isdigit()]
    assert turns == [str(t) for t in range(1, 81)]
    # a pipe is not a terminal: everything
    piped = run(*row).stdout
    assert "more moves" not in piped


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="Windows reports a closed pipe differently")
def test_broken_pipe_is_quiet():
    proc = subprocess.Popen([sys.executable, "-m", "coinsrow", *map(str, range(30000))],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    first_line = proc.stdout.readline()
    proc.stdout.close()
    stderr = proc.stderr.read().decode()
    proc.wait(timeout=120)
    proc.stderr.close()
    assert first_line.startswith(b"row 0:")
    assert "Traceback" not in stderr and "BrokenPipe" not in stderr
    assert proc.returncode == 0


# -- demo and silver ---------------------------------------------------------------------


def test_demo_solves_and_explains_the_textbook_example():
    result = run("demo")
    assert result.returncode == 0 and result.stderr == ""
    out = result.stdout
    lines = out.splitlines()
    assert len(lines) <= 40 and max(map(len, lines)) <= 100
    row = [1, 2, 1000, 3, 4, 900]
    assert "1 2 1000 3 4 900" in out
    odd, even = sum(row[0::2]), sum(row[1::2])
    assert f"odd places hold {' + '.join(map(str, row[0::2]))} = {odd}" in out
    assert f"even places {' + '.join(map(str, row[1::2]))} = {even}" in out
    d = dp_table(row)
    first = (sum(row) + d[0][6]) // 2
    assert f"the optimum is {first} to {sum(row) - first}" in out
    assert first > max(odd, even)  # the point of the demo: even/odd is not optimal
    assert f"take {row[0]} (left): worth {row[0] - d[1][6]}" in out
    assert f"take {row[-1]} (right): worth {row[-1] - d[0][5]}" in out
    # the coins the optimal first player takes, read off the table below
    taken = [int(cells[5]) for cells in (line.split() for line in lines)
             if len(cells) == 8 and cells[1] == "first"]
    assert f"takes {', '.join(map(str, taken))} (places" in out
    assert sum(taken) == first
    # the demo's table is an optimal play
    header = lines.index(next(line for line in lines if line.split()[:2] == ["turn", "player"]))
    table = [line.split() for line in lines[header + 1:header + 7]]
    bounds, totals = [0, 6], [0, 0]
    for t, cells in enumerate(table):
        coin, end = int(cells[5]), cells[4]
        i, j = bounds
        before = d[i][j]
        bounds = [i + 1, j] if end == "left" else [i, j - 1]
        assert coin == (row[i] if end == "left" else row[j - 1])
        assert coin - d[bounds[0]][bounds[1]] == before
        totals[t % 2] += coin
        assert [int(cells[6]), int(cells[7])] == totals
    row2 = [3, 2, 2, 3, 1, 2]
    assert "3 2 2 3 1 2" in out
    first2 = (sum(row2) + dp_value(row2)) // 2
    assert f"gets {max(sum(row2[0::2]), sum(row2[1::2]))}," in out
    assert f"the optimum is {first2} to {sum(row2) - first2}" in out


@pytest.mark.slow
def test_silver_subcommand_matches_the_library():
    rng = random.Random(2)
    cases = [[1, 3, 5], [2, 3], [2, 4, 6, 9], [10 ** 20, 7]]
    cases += [rng.sample(range(1, 30), rng.randint(1, 6)) for _ in range(4)]
    for cells in cases:
        result = run("silver", "--json", *tokens(cells))
        assert result.returncode == 0, result.stderr
        doc = json.loads(result.stdout)
        move = silver_dollar.winning_move(cells)
        assert doc == {"cells": cells, "winner": silver_dollar.winner(cells),
                       "winning_move": list(move) if move else None}
    text = run("silver", "1", "3", "5").stdout
    start, stop = silver_dollar.winning_move([1, 3, 5])
    assert f"the coin on cell {start} to cell {stop}" in text
    assert "winner: first player" in text
    assert "winner: second player" in run("silver", "2", "3").stdout


# -- strategies (coinsrow.simulate) ------------------------------------------


@pytest.mark.slow
def test_strategy_greedy_against_optimal():
    rng = random.Random(17)
    for _ in range(4):
        row = random_row(rng, rng.randint(1, 10))
        result = run("--json", "--strategy", "greedy", "--vs", "optimal", *tokens(row))
        assert result.returncode == 0, result.stderr
        doc = json.loads(result.stdout)
        assert doc["strategies"] == {"first": "greedy", "second": "optimal"}
        d = dp_table(row)
        i, j = 0, len(row)
        totals = [0, 0]
        for t, move in enumerate(doc["play"]):
            coin = move["coin"]
            if t % 2 == 0:  # greedy: the larger end coin, ties left
                assert coin == max(row[i], row[j - 1])
            else:  # optimal
                after = (i + 1, j) if move["end"] == "left" else (i, j - 1)
                assert coin - d[after[0]][after[1]] == d[i][j]
            assert coin == (row[i] if move["end"] == "left" else row[j - 1])
            i, j = (i + 1, j) if move["end"] == "left" else (i, j - 1)
            totals[t % 2] += coin
        assert [doc["profits"]["first"], doc["profits"]["second"]] == totals
        optimal_first = (sum(row) + d[0][len(row)]) // 2
        assert doc["optimal_profits"]["first"] == optimal_first
        assert totals[0] <= optimal_first  # the second player plays optimally


def test_strategy_errors_are_one_line():
    result = run("--strategy", "parity", "1", "2", "3")  # parity needs an even row
    assert result.returncode == 2 and len(result.stderr.splitlines()) == 1
    result = run("--strategy", "no-such-strategy", "1", "2")
    assert result.returncode == 2 and "Traceback" not in result.stderr


# -- many random games through main() in-process ---------------------------------------------



small_ints = st.integers(-20, 20)
coins = st.one_of(small_ints, st.integers(-(2 ** 70), 2 ** 70))


@settings(max_examples=150)
@given(st.lists(coins, max_size=14))
def test_main_random_rows_every_move_optimal(row):
    status, out, err = call_main(["--json", *tokens(row)])
    if not row:  # no coins: a usage error, not a crash
        assert status == 2 and out == ""
        assert err.startswith("coinsrow: error: no coins")
        return
    assert status == 0, err
    check_optimal_play(json.loads(out), [row])


@settings(max_examples=60)
@given(st.lists(st.lists(small_ints, max_size=3), min_size=1, max_size=2),
       st.lists(st.lists(small_ints, min_size=1, max_size=3), max_size=2))
def test_main_random_games_every_move_optimal(rows, stacks):
    argv = ["--json"] + [a for r in rows for a in ("--row", " ".join(tokens(r)))] + \
        [a for s in stacks for a in ("--stack", " ".join(tokens(s)))]
    status, out, err = call_main(argv)
    if sum(map(len, rows)) + sum(map(len, stacks)) == 0:
        assert status == 2 and "no coins" in err
        return
    assert status == 0, err
    check_optimal_play(json.loads(out), rows, stacks)


@settings(max_examples=60)
@given(st.lists(st.decimals(min_value=-100, max_value=100, places=2, allow_nan=False),
                min_size=1, max_size=10))
def test_main_random_decimal_rows_exact(row):
    status, out, err = call_main(["--json", *map(str, row)])
    assert status == 0, err
    doc = json.loads(out)
    assert doc["number_type"] == "Decimal"
    check_optimal_play(doc, [row])


# -- forests ----------------------------------------------------------------------------------


def check_forest_play(doc: dict, rows: list, stacks: list, values: list, parents: list) -> None:
    """Every move of the printed play legal and optimal (brute-force minimax over rows,
    stacks and the forest), the running totals and the profits."""
    assert set(doc) == TOP_KEYS | {"forest"}
    assert doc["number_type"] == "int"
    assert doc["rows"] == rows and doc["stacks"] == stacks
    assert doc["forest"] == {"values": values, "parents": parents}
    solve = brute_forest_solver(rows, stacks, values, parents)
    bounds = [(0, len(r)) for r in rows]
    tops = [0] * len(stacks)
    present = (1 << len(values)) - 1
    assert len(doc["play"]) == sum(map(len, rows)) + sum(map(len, stacks)) + len(values)
    assert doc["best_move"] == (doc["play"][0] if doc["play"] else None)
    totals = [0, 0]
    for t, move in enumerate(doc["play"]):
        assert set(move) == MOVE_KEYS and move["turn"] == t + 1
        before = solve(tuple(bounds), tuple(tops), present)
        c, coin = move["index"], move["coin"]
        if move["kind"] == "tree":
            assert move["end"] == "root" and move["position"] == c
            assert present >> c & 1, "node taken twice"
            assert parents[c] < 0 or not present >> parents[c] & 1, "not a root"
            assert coin == values[c]
            present &= ~(1 << c)
        elif move["kind"] == "row":
            i, j = bounds[c]
            position = i if move["end"] == "left" else j - 1
            assert i < j and move["position"] == position and coin == rows[c][position]
            bounds[c] = (i + 1, j) if move["end"] == "left" else (i, j - 1)
        else:
            assert move["kind"] == "stack" and move["end"] == "top"
            assert move["position"] == tops[c] and coin == stacks[c][tops[c]]
            tops[c] += 1
        assert coin - solve(tuple(bounds), tuple(tops), present) == before, (
            f"turn {t + 1} is not optimal")
        totals[t % 2] += coin
        assert (move["first_total"], move["second_total"]) == tuple(totals)
    value = solve(tuple((0, len(r)) for r in rows), tuple(0 for _ in stacks),
                  (1 << len(values)) - 1)
    assert doc["profits"] == {"first": totals[0], "second": totals[1]}
    assert doc["value"] == value == totals[0] - totals[1]


@pytest.mark.slow
def test_forest_json_every_move_optimal_against_brute_force():
    rng = random.Random(1111)
    for _ in range(drawn(250)):
        values, parents = random_forest(rng, rng.randint(1, 9))
        rows = [random_row(rng, rng.randint(0, 3), -3, 9) for _ in range(rng.randint(0, 2))]
        stacks = [random_row(rng, rng.randint(1, 2), -3, 9) for _ in range(rng.randint(0, 1))]
        document: dict = {"forest": {"values": values, "parents": parents}}
        if rows or rng.random() < 0.3:
            document["rows"] = rows
        if stacks:
            document["stacks"] = stacks
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(sys, "stdin", io.StringIO(json.dumps(document)))
            status, out, err = call_main(["--json", "-"])
        assert status == 0, err
        check_forest_play(json.loads(out), rows, stacks, values, parents)


@pytest.mark.slow
def test_forest_subprocess_file_table_and_svg(tmp_path):
    rng = random.Random(1112)
    values, parents = random_forest(rng, 8)
    rows = [[3, 2, 2, 3]]
    path = tmp_path / "forest.json"
    path.write_text(json.dumps({"rows": rows, "forest": {"values": values,
                                                          "parents": parents}}))
    result = run("--json", "-f", str(path))
    assert result.returncode == 0, result.stderr
    doc = json.loads(result.stdout)
    check_forest_play(doc, rows, [], values, parents)
    # The table names tree moves by their node, in the order of the JSON play.
    svg = tmp_path / "forest.svg"
    table = run("-f", str(path), "--svg", str(svg))
    assert table.returncode == 0, table.stderr
    lines = table.stdout.splitlines()
    assert f"forest (8 nodes, a move takes a root): values {' '.join(map(str, values))}" in lines
    played = [line.split() for line in lines if line.split()[:1] and line.split()[0].isdigit()]
    assert len(played) == len(doc["play"])
    for cells, move in zip(played, doc["play"]):
        if move["kind"] == "tree":
            assert cells[2:5] == ["tree", "node", str(move["index"])]
            assert int(cells[5]) == move["coin"]
        else:
            assert cells[2:5] == [move["kind"], str(move["index"]), move["end"]]
    first = doc["play"][0]
    expected_best = (f"at the root node {first['index']} of the forest" if first["kind"] == "tree"
                     else f"from the {first['end']} end of row {first['index']}")
    assert any(line.startswith("best move: take") and line.endswith(expected_best)
               for line in lines)
    coins = [g for g in ET.fromstring(svg.read_text()).iter("{http://www.w3.org/2000/svg}g")
             if g.get("class", "").split()[:1] == ["coin"]]
    assert len(coins) == 4 + 8


def test_forest_with_strategies_and_exact_numbers():
    document = {"forest": {"values": ["1/2", "0.25", 3], "parents": [-1, 0, 0]}}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sys, "stdin", io.StringIO(json.dumps(document)))
        status, out, err = call_main(["--json", "-"])
    assert status == 0, err
    doc = json.loads(out)
    assert doc["number_type"] == "Fraction"
    assert doc["forest"] == {"values": ["1/2", "1/4", "3"], "parents": [-1, 0, 0]}
    game = coinsrow.Game(forest=([Fraction(1, 2), Fraction(1, 4), 3], [-1, 0, 0]))
    assert Fraction(doc["profits"]["first"]) == game.profits().first
    assert [m["index"] for m in doc["play"]] == [m.index for m in game.play()]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sys, "stdin", io.StringIO(json.dumps(document)))
        status, out, err = call_main(["--json", "--strategy", "greedy", "--vs", "optimal", "-"])
    assert status == 0, err
    doc = json.loads(out)
    playout = coinsrow.simulate(game, "greedy", "optimal")
    assert [m["index"] for m in doc["play"]] == [m.index for m in playout.moves]
    assert Fraction(doc["profits"]["first"]) == playout.first


@pytest.mark.parametrize("document, named", [
    ({"forest": [[1, 2], [-1, 0]]}, '"forest" must be an object'),
    ({"forest": {"values": [1, 2]}}, '"parents" must be a list'),
    ({"forest": {"values": [1, 2], "parents": [-1, 0], "x": 1}}, "unknown key 'x'"),
    ({"forest": {"values": [1, "a"], "parents": [-1, 0]}}, "forest values[1]"),
    ({"forest": {"values": [1, 2], "parents": [-1, 1.5]}}, "parents[1]: 1.5 is not a node"),
    ({"forest": {"values": [1, 2], "parents": [-1, True]}}, "parents[1]: true is not a node"),
    ({"forest": {"values": [1, 2], "parents": [-1]}}, "2 values but 1 parents"),
    ({"forest": {"values": [1, 2], "parents": [-1, 5]}}, "parent of node 1 is 5"),
    ({"forest": {"values": [1, 2, 3], "parents": [2, -1, 0]}}, "node 0 is its own ancestor"),
    ({"forest": {"values": [], "parents": []}}, "no coins"),
    ({"trees": []}, "unknown key 'trees'"),
])
def test_bad_forests_are_one_line_errors(document, named):
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sys, "stdin", io.StringIO(json.dumps(document)))
        status, out, err = call_main(["--json", "-"])
    assert status == 2 and out == ""
    assert err.startswith("coinsrow: error: ") and err.count("\n") == 1
    assert named in err, err


def test_two_forests_are_an_error(tmp_path):
    path = tmp_path / "forest.json"
    path.write_text(json.dumps({"forest": {"values": [1], "parents": [-1]}}))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sys, "stdin", io.StringIO(path.read_text()))
        status, out, err = call_main(["-f", str(path), "-"])
    assert status == 2 and out == "" and "a second forest" in err
