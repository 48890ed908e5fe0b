"""``coinsrow play``: a game against the engine, tested as a person plays it.

A test player reads the screen (the transcript), keeps its own copy of the position, checks
every line it reads against the oracles (dp_table / brute_solver: every engine move optimal,
every "gave away" exact, the hint a best move with the right value, the totals, the margins,
the final JSON), and types random moves, hints and undos. It plays through a pipe (the
command as a subprocess, and in-process through ``main()`` for many random games) and in a
pseudo-terminal (Python's ``pty``), where bad lines must leave the game running.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import queue
import random
import re
import subprocess
import sys
import threading
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any
from unittest import mock

import pytest

from coinsrow.__main__ import main

from generators import random_game
from generators import random_row as styled_row
from modes import scaled
from oracles import brute_solver, dp_table

ROOT = Path(__file__).resolve().parent.parent
PROMPT = "your move> "
#: The lines of the review (after the summary) other than its moves.
REVIEW_LINES = ("Review of the game", "move  player", "(* marks", "First player took",
                "Optimal margin", "The game is not finished")
OTHER_LINES = ("coinsrow play: ", "Type ", "Rows and stacks count from 0", "Optimal play by both",
               "moves: ", "  hint: ", "  undo: ", "  quit: ", "after each move: ")
ONE_ROW_WORDS = {"left": ["l", "left", "L", "Left", " left "], "right": ["r", "right", "R"]}


def number(text: str) -> Fraction:
    """A number as the screen shows it (int, p/q, decimal, float repr), exactly."""
    return Fraction(text)


class Screen:
    """A test player: reads the transcript line by line, checks it, chooses what to type.

    ``rows`` and ``stacks`` hold the game's coins as Fractions (stacks top first).
    """

    MOVE = re.compile(r"^(you take|engine takes) (\S+) \((.+)\): gave away (\S+)$")
    HINT = re.compile(r"^hint: (.+) \(takes (\S+)\); this position is worth (\S+) to you$")
    TOTALS = re.compile(r"^  you (\S+), engine (\S+)$")
    COMPONENT = re.compile(r"^  (row|row \d+|stack \d+ \(top first\)): (.*)$")
    OVER = re.compile(r"^(game over|game stopped with (\d+) coins? left): you (\S+), "
                      r"engine (\S+) \((you win|the engine wins|a draw|unfinished: you are "
                      r"ahead|unfinished: the engine is ahead|unfinished: level)\)$")
    REVIEW = re.compile(r"^ +(\d+)  (first|second) +\S+(?: \S+)* +(\S+) +\S+ +\S+ +(\S+)(?:  \*)?$")
    MARGIN = re.compile(r"^your margin: (\S+); optimal play by both from the start: (\S+); "
                        r"your moves gave away (\S+)$")

    def __init__(self, rows: list, stacks: list, human_first: bool, rng: random.Random,
                 hints: float = 0.1, undos: float = 0.08, quits: float = 0.0) -> None:
        self.rows = [[Fraction(c) for c in r] for r in rows]
        self.stacks = [[Fraction(c) for c in s] for s in stacks]
        self.one_row = len(rows) == 1 and not stacks
        self.bounds = [[0, len(r)] for r in rows]
        self.tops = [0] * len(stacks)
        if self.one_row:
            table = dp_table(self.rows[0])
            self.solve = lambda bounds, tops: table[bounds[0][0]][bounds[0][1]]
        else:
            self.solve = brute_solver(self.rows, self.stacks)
        start = self.value()
        self.optimal_margin = start if human_first else -start
        self.human_first = human_first
        self.rng = rng
        self.hints, self.undos, self.quits = hints, undos, quits
        self.history: list[tuple[str, str, Fraction, Fraction]] = []  # who, where, coin, loss
        self.totals = {"you": Fraction(0), "engine": Fraction(0)}
        self.lines_read = 0
        self.ended = False
        self.checked_summary = False
        self.expect_position = True   # a position block follows the intro
        self.typed = 0
        self.hints_checked = 0
        self.json_checked = False
        self.reviewed = 0
        self.last_hint: str | None = None

    # -- the position ------------------------------------------------------------------------

    def state(self) -> tuple[tuple, tuple]:
        return tuple(map(tuple, self.bounds)), tuple(self.tops)

    def value(self) -> Any:
        return self.solve(*self.state())

    def coins_left(self) -> int:
        return (sum(j - i for i, j in self.bounds)
                + sum(len(s) - t for s, t in zip(self.stacks, self.tops)))

    def legal(self) -> list[str]:
        """The legal moves, as the screen names them."""
        names = []
        for c, (i, j) in enumerate(self.bounds):
            if i < j:
                names += ["left end", "right end"] if self.one_row else \
                    [f"row {c} left", f"row {c} right"]
        names += [f"stack {c}" for c, (s, t) in enumerate(zip(self.stacks, self.tops))
                  if t < len(s)]
        return names

    def coin_at(self, where: str) -> Fraction:
        kind, c, end = self.parse_where(where)
        if kind == "row":
            i, j = self.bounds[c]
            assert i < j, f"{where}: the row is empty"
            return self.rows[c][i if end == "left" else j - 1]
        assert self.tops[c] < len(self.stacks[c]), f"{where}: the stack is empty"
        return self.stacks[c][self.tops[c]]

    def parse_where(self, where: str) -> tuple[str, int, str]:
        words = where.split()
        if words[-1] == "end":
            assert self.one_row, where
            return "row", 0, words[0]
        if words[0] == "row":
            return "row", int(words[1]), words[2]
        assert words[0] == "stack", where
        return "stack", int(words[1]), "top"

    def apply(self, where: str, back: bool = False) -> None:
        kind, c, end = self.parse_where(where)
        step = -1 if back else 1
        if kind == "row":
            if end == "left":
                self.bounds[c][0] += step
            else:
                self.bounds[c][1] -= step
        else:
            self.tops[c] += step

    # -- reading the screen ------------------------------------------------------------------

    def read(self, transcript: str) -> None:
        """Check every complete line not read yet."""
        lines = transcript.split("\n")[:-1]  # the last piece is incomplete (the prompt)
        for line in lines[self.lines_read:]:
            self.check(line)
        self.lines_read = len(lines)

    def check(self, line: str) -> None:
        if line.startswith(PROMPT) or not line.strip():
            return
        review = self.REVIEW.match(line)
        if review and not self.checked_summary:
            # The review of the game, before the verdict: each move's coin and loss are
            # the ones the game reported.
            turn = int(review[1]) - 1
            who, _, coin, loss = self.history[turn]
            assert review[2] == ("first" if turn % 2 == 0 else "second"), line
            assert (who == "you") == ((turn % 2 == 0) == self.human_first), line
            assert number(review[3]) == coin and number(review[4]) == loss, line
            self.reviewed += 1
            return
        if line.startswith(REVIEW_LINES) and not self.checked_summary:
            return
        if self.checked_summary:
            document = json.loads(line)  # only the JSON line may follow the summary
            self.check_json(document)
            return
        match = self.MOVE.match(line)
        if match:
            who = "you" if match[1] == "you take" else "engine"
            assert (who == "you") == self.human_to_move(), line
            where, coin, loss = match[3], number(match[2]), number(match[4])
            assert coin == self.coin_at(where), line
            before = self.value()
            self.apply(where)
            after = self.value()
            assert loss == before - (coin - after), line
            if who == "engine":
                assert loss == 0, f"the engine gave something away: {line}"
            self.history.append((who, where, coin, loss))
            self.totals[who] += coin
            self.expect_position = True
            return
        match = self.HINT.match(line)
        if match:
            where, coin, worth = match[1], number(match[2]), number(match[3])
            assert self.human_to_move()
            assert coin == self.coin_at(where)
            assert worth == self.value(), line
            self.apply(where)
            assert coin - self.value() == worth, f"the hint is not a best move: {line}"
            self.apply(where, back=True)
            self.hints_checked += 1
            self.last_hint = where
            return
        if line.startswith("taken back: "):
            said = line[len("taken back: "):].split(", ")
            assert said[0].startswith("your ")
            last_human = max(k for k, (who, *_) in enumerate(self.history) if who == "you")
            assert len(said) == len(self.history) - last_human
            for text in reversed(said):
                who, where, coin, _ = self.history.pop()
                match = re.fullmatch(r"(your|the engine's) (\S+) \((.+)\)", text)
                assert match, text
                assert (match[1] == "your") == (who == "you")
                assert (number(match[2]), match[3]) == (coin, where), text
                self.apply(where, back=True)
                self.totals[who] -= coin
            self.expect_position = True
            return
        match = self.COMPONENT.match(line)
        if match:
            name, shown = match[1], match[2]
            coins = [] if shown == "(empty)" else [number(x) for x in shown.split()]
            if name.startswith("stack"):
                c = int(name.split()[1])
                assert coins == self.stacks[c][self.tops[c]:], line
            else:
                c = 0 if name == "row" else int(name.split()[1])
                i, j = self.bounds[c]
                assert coins == self.rows[c][i:j], line
            return
        match = self.TOTALS.match(line)
        if match:
            assert (number(match[1]), number(match[2])) == (self.totals["you"],
                                                            self.totals["engine"]), line
            self.expect_position = False
            return
        match = self.OVER.match(line)
        if match:
            left = self.coins_left()
            assert (left == 0) == (match[1] == "game over"), line
            if left:
                assert int(match[2]) == left
            you, engine = number(match[3]), number(match[4])
            assert (you, engine) == (self.totals["you"], self.totals["engine"])
            if left:  # stopped (quit, the end of the input): nobody has won
                verdict = "unfinished: you are ahead" if you > engine else \
                    "unfinished: the engine is ahead" if you < engine else "unfinished: level"
            else:
                verdict = "you win" if you > engine else "the engine wins" if you < engine \
                    else "a draw"
            assert match[5] == verdict
            self.ended = True
            return
        match = self.MARGIN.match(line)
        if match:
            assert self.ended
            margin, optimal, gave = (number(match[k]) for k in (1, 2, 3))
            assert margin == self.totals["you"] - self.totals["engine"]
            assert optimal == self.optimal_margin
            assert gave == sum((loss for who, _, _, loss in self.history if who == "you"),
                               Fraction(0))
            if not self.coins_left():
                assert margin == optimal - gave  # the losses telescope
            self.checked_summary = True
            return
        # anything else: the introduction or the help
        assert line.startswith(OTHER_LINES), f"unexpected line {line!r}"

    def check_json(self, document: dict) -> None:
        assert set(document) == {"human", "engine", "moves"}
        assert number(str(document["human"])) == self.totals["you"]
        assert number(str(document["engine"])) == self.totals["engine"]
        assert len(document["moves"]) == len(self.history)
        for move, (who, where, coin, _) in zip(document["moves"], self.history):
            assert set(move) == {"player", "kind", "index", "end", "coin"}
            kind, c, end = self.parse_where(where)
            assert move["player"] == ("human" if who == "you" else "engine")
            assert (move["kind"], move["index"], move["end"]) == (kind, c, end)
            assert number(str(move["coin"])) == coin
        self.json_checked = True

    def human_to_move(self) -> bool:
        return (len(self.history) % 2 == 0) == self.human_first

    # -- typing --------------------------------------------------------------------------------

    def choose(self) -> str:
        """What to type next: a random legal move, sometimes hint, undo or quit."""
        self.typed += 1
        roll = self.rng.random()
        if roll < self.quits:
            return "quit"
        if roll < self.quits + self.hints:
            return self.rng.choice(["hint", "HINT", " hint"])
        if roll < self.quits + self.hints + self.undos and any(
                who == "you" for who, *_ in self.history):
            return "undo"
        where = self.rng.choice(self.legal())
        kind, c, end = self.parse_where(where)
        if self.one_row:
            return self.rng.choice(ONE_ROW_WORDS[end] + [f"row 0 {end}", f"row {end[0]}"])
        if kind == "row":
            return self.rng.choice([f"row {c} {end}", f"row {c} {end[0]}",
                                    f"ROW {c} {end.upper()}", f"row {c}, {end}"])
        return self.rng.choice([f"stack {c}", f"stack {c} top", f"s {c}"])


def game_arguments(rows: list, stacks: list) -> list[str]:
    args: list[str] = []
    if len(rows) == 1 and not stacks:
        return [str(c) for c in rows[0]]
    for r in rows:
        args += ["--row", " ".join(map(str, r))]
    for s in stacks:
        args += ["--stack", " ".join(map(str, s))]
    return args


# -- in-process, through main() with a scripted keyboard on a pipe -------------------------


def play_in_process(args: list[str], screen: Screen | None) -> tuple[int, str, str]:
    """``main(["play", *args])``; standard input is not a terminal and answers with what the
    screen player types after reading the output so far."""
    out, err = io.StringIO(), io.StringIO()

    class Keyboard:
        def readline(self) -> str:
            if screen is None:
                return ""
            screen.read(out.getvalue())
            return screen.choose() + "\n"

        def isatty(self) -> bool:
            return False

    with mock.patch.object(sys, "stdin", Keyboard()), contextlib.redirect_stdout(out), \
            contextlib.redirect_stderr(err):
        status = main(["play", *args])
    if screen is not None:
        screen.read(out.getvalue())
    return status, out.getvalue(), err.getvalue()


def random_exact_row(rng: random.Random, n: int) -> list:
    """A row of ints, or of Fractions and Decimals (written as on a command line)."""
    style = rng.random()
    if style < 0.6:
        return styled_row(rng, n)
    if style < 0.8:
        return [Fraction(rng.randint(-9, 9), rng.randint(1, 4)) for _ in range(n)]
    return [Decimal(rng.randint(-300, 300)) / 100 for _ in range(n)]


def test_random_one_row_games_in_process_every_line_checked():
    rng = random.Random(19)
    for _ in range(scaled(60)):
        row = random_exact_row(rng, rng.randint(1, 16))
        human_first = rng.random() < 0.6
        screen = Screen([row], [], human_first, rng, quits=0.01)
        args = [str(c) for c in row] + ["--json"] + ([] if human_first else ["--engine-first"])
        status, out, err = play_in_process(args, screen)
        assert (status, err) == (0, ""), err
        assert screen.ended and screen.checked_summary and screen.json_checked
        assert out.splitlines()[-1].startswith("{")


def test_random_rows_and_stacks_in_process_every_line_checked():
    rng = random.Random(1919)
    played = 0
    while played < scaled(50):
        rows, stacks = random_game(rng, 9)
        if (not any(rows) and not any(stacks)) or (len(rows) == 1 and not stacks):
            continue
        played += 1
        human_first = rng.random() < 0.5
        screen = Screen(rows, stacks, human_first, rng)
        args = game_arguments(rows, stacks) + ["--json"]
        args += [] if human_first else ["--engine-first"]
        status, _, err = play_in_process(args, screen)
        assert (status, err) == (0, ""), err
        assert screen.ended and screen.checked_summary and screen.json_checked


class HintFollower(Screen):
    """A player who asks for a hint before every move and plays it."""

    def choose(self) -> str:
        if self.last_hint is None:
            return "hint"
        where, self.last_hint = self.last_hint, None
        return {"left end": "l", "right end": "r"}.get(where, where)


def test_a_human_following_the_hints_plays_optimally():
    """Every hint is a best move: a human who plays them ends with the optimal margin."""
    rng = random.Random(5)
    for k in range(scaled(24)):
        if k % 2:
            rows, stacks = [styled_row(rng, rng.randint(1, 14))], []
        else:
            rows, stacks = random_game(rng, 8)
            if not any(rows) and not any(stacks):
                continue
        screen = HintFollower(rows, stacks, k % 3 != 0, rng)
        args = game_arguments(rows, stacks) + ([] if k % 3 else ["--engine-first"])
        status, out, err = play_in_process(args, screen)
        assert (status, err) == (0, ""), err
        assert screen.checked_summary and screen.hints_checked > 0
        margin = re.search(r"^your margin: (\S+);.*gave away (\S+)$", out, re.MULTILINE)
        assert number(margin[1]) == screen.optimal_margin and margin[2] == "0"


@pytest.mark.slow
def test_json_floats_and_a_float_game():
    rng = random.Random(8)
    row = [rng.choice([0.1, 0.2, 0.3, 1e-3, 2.5]) for _ in range(9)]
    moves = "\n".join(rng.choice("lr") for _ in range(5)) + "\n"
    result = run_play(["--float", "--json", *map(str, row)], moves)
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout.splitlines()[-1])
    taken = [m["coin"] for m in document["moves"]]
    assert sorted(taken) == sorted(row)
    import math

    assert document["human"] == math.fsum(m["coin"] for m in document["moves"]
                                          if m["player"] == "human")
    assert document["engine"] == math.fsum(m["coin"] for m in document["moves"]
                                           if m["player"] == "engine")
    # optimal engine moves: never "gave away" anything, not even a rounding error
    assert all(line.endswith("gave away 0") for line in result.stdout.splitlines()
               if line.startswith("engine takes"))


# -- the command as a subprocess, through a pipe ---------------------------------------------


def run_play(args: list[str], stdin: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "coinsrow", "play", *args], cwd=ROOT,
                          input=stdin, capture_output=True, text=True, timeout=120,
                          check=False)


class Console:
    """The command in a subprocess, talking through a pipe or a pseudo-terminal: read until
    the next prompt (or the end), type a line."""

    def __init__(self, args: list[str], terminal: bool) -> None:
        command = [sys.executable, "-m", "coinsrow", "play", *args]
        self.terminal = terminal
        if terminal:
            import pty

            master, slave = pty.openpty()
            self.process = subprocess.Popen(command, cwd=ROOT, stdin=slave, stdout=slave,
                                            stderr=slave, close_fds=True)
            os.close(slave)
            self.read_fd = self.write_fd = master
        else:
            self.process = subprocess.Popen(command, cwd=ROOT, stdin=subprocess.PIPE,
                                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            self.read_fd = self.process.stdout.fileno()
            self.write_fd = self.process.stdin.fileno()
        self.chunks: queue.Queue[bytes | None] = queue.Queue()
        self.output = ""
        self.typed_at = 0   # the length of the output when the last line was typed
        self.closed = False
        threading.Thread(target=self._reader, daemon=True).start()

    def _reader(self) -> None:
        while True:
            try:
                chunk = os.read(self.read_fd, 4096)
            except OSError:  # EIO: the terminal's other side closed
                chunk = b""
            if not chunk:
                self.chunks.put(None)
                return
            self.chunks.put(chunk)

    def screen(self) -> str:
        return self.output.replace("\r\n", "\n")

    def until_prompt(self, timeout: float = 60) -> bool:
        """Read until the output ends with the prompt (True) or the command ends (False)."""
        raw = b""
        while len(self.output) == self.typed_at or not self.screen().endswith(PROMPT):
            try:
                chunk = self.chunks.get(timeout=timeout)
            except queue.Empty:
                raise AssertionError(
                    f"no prompt after {timeout} s: {self.screen()[-300:]!r}") from None
            if chunk is None:
                self.closed = True
                return False
            raw += chunk
            try:
                self.output += raw.decode("utf-8")
                raw = b""
            except UnicodeDecodeError:
                continue
        return True

    def type(self, line: str, end: str = "\n") -> None:
        self.typed_at = len(self.output)
        os.write(self.write_fd, (line + end).encode())

    def finish(self, timeout: float = 60) -> int:
        while not self.closed:
            chunk = self.chunks.get(timeout=timeout)
            self.closed = chunk is None
            self.output += (chunk or b"").decode("utf-8", "replace")
        status = self.process.wait(timeout=timeout)
        if self.terminal:
            os.close(self.read_fd)
        return status


def play_console(console: Console, screen: Screen, bad_lines: list[str] = ()) -> str:
    """Play a whole game: read, check, type (a bad line now and then in a terminal)."""
    bad = list(bad_lines)
    while console.until_prompt():
        screen.read(console.screen())
        if bad and screen.rng.random() < 0.4:
            line = bad.pop()
            before = console.screen()
            console.type(line)
            assert console.until_prompt(), "a bad line ended the game in a terminal"
            said = console.screen()[len(before):].split("\n")
            # the echo of the line, one line of message, a new prompt
            assert said[0].strip() == line.strip() and len(said) == 3, said
            assert said[-1] == PROMPT and said[1] and "Traceback" not in said[1]
            screen.lines_read += 2  # the echoed line and the message: read
            continue
        console.type(screen.choose())
    screen.read(console.screen() + "\n")
    return console.screen()


@pytest.mark.slow
def test_pipe_games_random_moves_every_engine_reply_optimal():
    rng = random.Random(2019)
    for k in range(scaled(6, 2)):
        if k % 2:
            rows, stacks = [styled_row(rng, rng.randint(1, 12))], []
        else:
            rows, stacks = random_game(rng, 8)
            if not any(rows) and not any(stacks):
                rows = [[3, 1, 2]]
        human_first = k % 3 != 2
        screen = Screen(rows, stacks, human_first, rng)
        args = game_arguments(rows, stacks) + ["--json"]
        args += [] if human_first else ["--engine-first"]
        console = Console(args, terminal=False)
        play_console(console, screen)
        assert console.finish() == 0
        assert console.process.stderr.read() == b""
        assert screen.ended and screen.checked_summary and screen.json_checked


BAD_LINES = ["lft", "row 9 left", "", "stack 5", "node 1", "row -1 left", "undo x", "42"]


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="no pseudo-terminals on Windows")
def test_terminal_games_bad_lines_are_a_message_and_a_new_prompt():
    pytest.importorskip("pty", reason="Python's pty module is not available")
    rng = random.Random(1902)
    for k in range(scaled(4, 2)):
        if k % 2 == 0:
            rows, stacks = [styled_row(rng, rng.randint(3, 12))], []
        else:
            rows, stacks = [[rng.randint(0, 9) for _ in range(3)], [5]], [[4, 1, 7]]
        screen = Screen(rows, stacks, k != 1, rng, hints=0.15, undos=0.1)
        args = game_arguments(rows, stacks) + ([] if k != 1 else ["--engine-first"])
        console = Console(args, terminal=True)
        play_console(console, screen, bad_lines=rng.sample(BAD_LINES, 5))
        assert console.finish() == 0
        assert screen.ended and screen.checked_summary


@pytest.mark.skipif(sys.platform == "win32", reason="no pseudo-terminals on Windows")
def test_terminal_undo_hint_help_and_end_of_input():
    pytest.importorskip("pty", reason="Python's pty module is not available")
    console = Console(["1", "2", "1000", "3", "4", "900"], terminal=True)
    assert console.until_prompt()
    assert "Optimal play by both would end with you 1892 ahead." in console.screen()
    for line in ("undo", "help", "hint", "l", "undo", "r"):
        console.type(line)
        assert console.until_prompt()
    text = console.screen()
    assert "nothing to undo: you have not moved yet" in text
    assert "  undo: take back your last move and the engine's reply" in text
    assert "hint: right end (takes 900); this position is worth 1892 to you" in text
    assert "you take 1 (left end): gave away 1792" in text
    assert "engine takes 900 (right end): gave away 0" in text
    assert "taken back: your 1 (left end), the engine's 900 (right end)" in text
    assert "you take 900 (right end): gave away 0" in text
    assert text.rstrip().endswith("you 900, engine 4\n" + PROMPT.rstrip())
    console.type("\x04", end="")  # Ctrl-D: the end of input, as quit
    assert not console.until_prompt()
    assert console.finish() == 0
    screen = console.screen().split("\n")
    tail = screen[-3:]
    assert "Review of the game (the first player is you):" in screen
    assert tail[0] == ("game stopped with 4 coins left: you 900, engine 4 (unfinished: you are "
                       "ahead)")
    assert tail[1] == ("your margin: 896; optimal play by both from the start: 1892; your "
                       "moves gave away 0")


def test_transcript_of_the_guide():
    """The command-line guide's transcript of a game is what the command prints."""
    guide = ROOT / "docs" / "guide" / "cli.md"
    if not guide.is_file():
        pytest.skip("docs/guide/cli.md is not next to the tests (installed run)")
    block = re.search(r"```console\n\$ printf '([^']*)' \| coinsrow play ([^\n]*)\n(.*?)```",
                      guide.read_text(encoding="utf-8"), re.DOTALL)
    assert block, "the guide has no transcript of 'coinsrow play'"
    moves = block[1].encode().decode("unicode_escape")
    result = run_play(block[2].split(), moves)
    assert result.returncode == 0, result.stderr
    assert result.stdout == block[3]


# -- errors --------------------------------------------------------------------------------


@pytest.mark.parametrize("args, moves, named", [
    (["1", "2", "3"], "lft\n", "input line 1: 'lft' is not a move"),
    (["1", "2", "3"], "l\n", "the input ended with 1 coin left"),
    (["1", "2", "3"], "", "the input ended with 3 coins left"),
    (["1", "2", "3"], "hint\nrow 1 left\n", "input line 2: there is no row 1"),
    (["1", "2", "3"], "undo\n", "input line 1: nothing to undo"),
    (["--row", "1 2", "--row", "3"], "l\n", "this game has 2 rows: name one"),
    (["--row", "1 2", "--stack", "3"], "stack 1\n", "there is no stack 1"),
    (["--row", "1", "--stack", "3 4 5"], "row 0 left\nrow 0 left\n",
     "input line 2: row 0 is empty"),
    (["--row", "1 2", "--stack", "3"], "row 0 up\n", "a row move is 'row I left'"),
    (["--row", "1 2", "--stack", "3"], "node 0\n", "this game has no forest"),
    (["-"], "1 2 3\n", "play reads your moves from standard input"),
    (["--random", "0"], "", "--random 0: a game needs at least one coin"),
    (["--random", "3", "1", "2"], "", "--random N cannot be combined"),
    (["--seed", "3", "1", "2"], "", "--seed goes with --random N"),
    ([], "", "no coins given"),
    (["1", "x"], "", "'x' is not a number"),
])
def test_bad_input_from_a_pipe_is_one_line_and_status_2(tmp_path, args, moves, named):
    forest = tmp_path / "forest.json"
    forest.write_text('{"rows": [[1, 2]], "forest": {"values": [5, 1], "parents": [-1, 0]}}')
    args = [str(forest) if a == "FOREST" else a for a in args]
    status, out, err = play_stdin(args, moves)
    assert status == 2
    assert err.count("\n") == 1 and err.startswith("coinsrow: error: ")
    assert named in err, err
    assert "Traceback" not in out + err


def play_stdin(args: list[str], text: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with mock.patch.object(sys, "stdin", io.StringIO(text)), contextlib.redirect_stdout(out), \
            contextlib.redirect_stderr(err):
        status = main(["play", *args])
    return status, out.getvalue(), err.getvalue()


def test_bad_input_through_a_real_pipe():
    result = run_play(["3", "1", "2"], "l\nsideways\n")
    assert result.returncode == 2
    assert result.stderr == "coinsrow: error: input line 2: 'sideways' is not a move: l or r " \
                            "(the coin at the left or right end), hint, undo, quit or help\n"
    assert "you take 3 (left end): gave away 0" in result.stdout


def test_quit_from_a_pipe_ends_with_the_totals_and_json():
    status, out, err = play_stdin(["--json", "5", "1", "3", "8"], "r\nquit\n")
    assert (status, err) == (0, "")
    lines = out.splitlines()
    assert lines[-3] == ("game stopped with 2 coins left: you 8, engine 5 (unfinished: you are "
                         "ahead)")
    review = lines.index("Review of the game (the first player is you):")
    assert lines[review + 2:review + 4] == [
        "   1  first   row 0 right         8         5         5         0",
        "   2  second  row 0 left          5         3         3         0"]
    assert "The game is not finished." in lines[review:-3]
    assert json.loads(lines[-1]) == {"human": 8, "engine": 5, "moves": [
        {"player": "human", "kind": "row", "index": 0, "end": "right", "coin": 8},
        {"player": "engine", "kind": "row", "index": 0, "end": "left", "coin": 5}]}


def test_engine_first_and_exact_decimals_and_fractions():
    status, out, err = play_stdin(["--engine-first", "--json", "0.1", "7/3", "0.25"], "l\n")
    assert (status, err) == (0, ""), err
    document = json.loads(out.splitlines()[-1])
    assert document["moves"][0]["player"] == "engine"
    assert [m["player"] for m in document["moves"]] == ["engine", "human", "engine"]
    # Decimals and Fractions read as Fractions: exact strings in the JSON
    coins = [Fraction(m["coin"]) for m in document["moves"]]
    assert sorted(coins) == sorted([Fraction(1, 10), Fraction(7, 3), Fraction(1, 4)])
    assert Fraction(document["engine"]) == coins[0] + coins[2]
    assert Fraction(document["human"]) == coins[1]
    status, out, err = play_stdin(["--json", "0.1", "0.2", "0.3"], "l\nr\n")
    document = json.loads(out.splitlines()[-1])
    assert document["human"] == "0.3" and document["engine"] == "0.3"  # exact, as written


def test_random_game_is_reproducible_with_a_seed():
    def game(seed: str) -> list:
        status, out, _ = play_stdin(["--random", "15", "--seed", seed, "--json"], "quit\n")
        assert status == 0
        row = re.search(r"^  row: (.*)$", out, re.MULTILINE)[1].split()
        assert len(row) == 15 and all(1 <= int(c) <= 100 for c in row)
        return row

    assert game("4") == game("4")
    assert game("4") != game("5")


def test_a_long_row_is_shown_shortened():
    status, out, _ = play_stdin(["--random", "500", "--seed", "1"], "quit\n")
    assert status == 0
    row = re.search(r"^  row: (.*)$", out, re.MULTILINE)[1]
    assert row.endswith("(500 coins)") and " ... " in row
    assert len(row) < 120


def test_help_names_every_command():
    status, out, _ = play_stdin(["--help"], "")
    assert status == 0
    for word in ("hint", "undo", "quit", "--engine-first", "--json", "--random", "--seed",
                 "forest"):
        assert word in out
