"""``coinsrow play``: a game in the terminal against the ``Engine``, with hints and undo.

The human types a move, ``hint``, ``undo`` or ``quit``; the engine answers with its best move
(``Engine.best_move()``). After every move the position, both totals and how much the move
gave away against optimal play are printed:

    gave away = value before the move - (coin taken - value after it)

where a value is the advantage of the player to move under optimal play from there
(``Engine.value()``, O(1)). It is 0 exactly for an optimal move and positive otherwise; over a
whole game the human's margin is the optimal margin minus everything the human gave away (the
sum telescopes), since the engine never gives anything away. Ints, ``Fraction`` and
``Decimal`` are computed exactly; with floats, a loss within the rounding of the values shows
as 0 and the totals are each player's coins summed exactly and rounded once (``math.fsum``).

A forest is shown as its nodes left, each under its parent (indented), with the roots
listed: the human takes a root by its number (``node N``), the numbers of the forest as
given, which never change during a game.

Moves come from a terminal or from a pipe (a scripted game). In a terminal a bad line is a
one-line message and a new prompt; from a pipe it is ``InputError`` (the command prints one
line and exits with status 2), and so is the input ending before the game does. Each move
costs O(k + log n) for k rows and stacks (the Engine's O(log n) amortised, plus printing a
shortened position); a tree move adds O(r + c log r) for the r roots and the c children of
the node taken (the sorted list of roots) and the Engine's O((1 + b) log n) for the b blocks
the node had absorbed (docs/forests.md), O(n log n) over a game. ``undo`` replays the game
so far on a new Engine, O(n log n) (O(n r) at most with a forest: the roots' list).
"""

from __future__ import annotations

import decimal
from bisect import bisect_left, insort
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, NamedTuple, TextIO

from ._analysis import analyze
from ._coins import Number, round_float
from ._dispatch import EXACT_DECIMAL
from ._engine import Engine
from ._game import Game, where
from ._moves import End, Move, move_at, move_words
from ._text import format_number

__all__ = ["InputError", "Outcome", "play"]

HUMAN, ENGINE = "human", "engine"
# A component longer than this is shown as its first and last coins.
_SHOWN_HEAD, _SHOWN_TAIL = 12, 6
# A forest shows at most this many nodes (its first trees, depth first) and roots.
_SHOWN_NODES, _SHOWN_ROOTS = 24, 16
_ENDS = {"l": "left", "left": "left", "r": "right", "right": "right"}
_COMMANDS = {"hint": "hint", "undo": "undo", "quit": "quit", "q": "quit", "exit": "quit",
             "help": "help", "?": "help"}


class InputError(ValueError):
    """Bad input from a pipe, or a game that cannot be played: one line, exit status 2."""


class _BadMove(Exception):
    """A line that is not a legal move or command here (the message says why)."""


class Outcome(NamedTuple):
    """How a game went: every move with who made it, both totals, and whether it ended
    (``False`` after ``quit``)."""

    moves: list[tuple[str, Move]]
    human: Number
    engine: Number
    finished: bool


class _Total:
    """One player's running total: exact for every number type, and for float coins their
    exact sum rounded once (what ``math.fsum`` gives; +-inf beyond the float range), without
    an O(n) sum per move."""

    def __init__(self, floats: bool, zero: Any) -> None:
        self._floats = floats
        self._sum: Any = Fraction(0) if floats else zero

    def add(self, coin: Any) -> None:
        self._sum += Fraction(coin) if self._floats else coin

    def value(self) -> Any:
        return round_float(self._sum) if self._floats else self._sum


def _coins(count: int) -> str:
    return "1 coin" if count == 1 else f"{count} coins"


def _number_below(text: str, count: int) -> int | None:
    """``int(text)`` when ``text`` is an index 0..count-1 in ASCII digits, else None (never
    converts more digits than ``count`` has)."""
    if not (text.isascii() and text.isdigit()) or len(text.lstrip("0")) > len(str(count)):
        return None
    index = int(text)
    return index if index < count else None


class _Board:
    """The coins on the table, kept beside the Engine to read the human's moves and to print
    the position without asking the Engine for a whole ``Game`` (O(n) with a forest).

    Each row and stack is its range of coins in the game's storage; the forest is the mask
    of the nodes taken, each node's children and the roots in increasing order (a sorted
    list). ``take`` costs O(1) for a row or a stack and O(r + c log r) for a node with c
    children among r roots.
    """

    def __init__(self, game: Game) -> None:
        spot = where(game)
        self.coins = spot.coins
        self.n_rows = self.coins.n_rows
        self.starts, self.stops = list(spot.starts), list(spot.stops)
        forest = spot.forest
        self.has_forest = forest is not None and forest.size > 0
        self.forest_base = forest.base if forest is not None else 0
        self.parents: Sequence[int] = forest.parents if forest is not None else []
        self.taken = bytearray(forest.removed()) if forest is not None else bytearray()
        self.nodes_left = forest.left if forest is not None else 0
        self.children: list[list[int]] = [[] for _ in self.parents]
        for node, parent in enumerate(self.parents):
            if parent >= 0:
                self.children[parent].append(node)
        self.roots = forest.roots() if forest is not None else []

    def take(self, move: Move) -> None:
        """Follow a move the Engine played."""
        if move.kind == "tree":
            node = move.index
            self.taken[node] = 1
            self.nodes_left -= 1
            del self.roots[bisect_left(self.roots, node)]
            for child in self.children[node]:
                insort(self.roots, child)
        elif move.kind == "stack":
            self.starts[self.n_rows + move.index] += 1
        elif move.end == "left":
            self.starts[move.index] += 1
        else:
            self.stops[move.index] -= 1

    def row_move(self, row: int, end: str, one_row: bool) -> Move:
        start, stop = self.starts[row], self.stops[row]
        if start == stop:
            raise _BadMove("the row is empty" if one_row else f"row {row} is empty")
        if end == "left":
            return move_at(self.coins, row, start, End.LEFT)
        return move_at(self.coins, row, stop - 1, End.RIGHT)

    def stack_move(self, stack: int) -> Move:
        c = self.n_rows + stack
        if self.starts[c] == self.stops[c]:
            raise _BadMove(f"stack {stack} is empty")
        return move_at(self.coins, c, self.starts[c], End.TOP)

    def node_move(self, text: str) -> Move:
        if not self.has_forest:
            raise _BadMove("this game has no forest")
        size = len(self.parents)
        node = _number_below(text, size)
        if node is None:
            have = f"nodes 0 to {size - 1}" if size > 1 else "node 0 only"
            raise _BadMove(f"there is no node {text} (the forest has {have})")
        if self.taken[node]:
            raise _BadMove(f"node {node} was taken")
        parent = self.parents[node]
        if parent >= 0 and not self.taken[parent]:
            raise _BadMove(f"node {node} is not a root: its parent, node {parent}, is still "
                           "there")
        return move_at(self.coins, len(self.starts), self.forest_base + node, End.ROOT)

    def component_lines(self, one_row: bool) -> list[str]:
        """Each row and stack on a line, a long one as its first and last coins: O(k) plus
        the coins shown."""
        coins = self.coins
        lines = []
        for c in range(len(self.starts)):
            start, stop = self.starts[c], self.stops[c]
            if stop - start > _SHOWN_HEAD + _SHOWN_TAIL + 1:
                head = [coins.coin(i) for i in range(start, start + _SHOWN_HEAD)]
                tail = [coins.coin(i) for i in range(stop - _SHOWN_TAIL, stop)]
                shown = (" ".join(map(format_number, head)) + " ... "
                         + " ".join(map(format_number, tail)) + f"  ({stop - start} coins)")
            else:
                shown = " ".join(format_number(coins.coin(i)) for i in range(start, stop))
            if c < self.n_rows:
                name = "row" if one_row else f"row {c}"
            else:
                name = f"stack {c - self.n_rows} (top first)"
            lines.append(f"  {name}: {shown or '(empty)'}")
        return lines

    def forest_lines(self) -> list[str]:
        """The forest's nodes left, depth first from the roots in order, each indented under
        its parent, and the roots listed: at most ``_SHOWN_NODES`` nodes and
        ``_SHOWN_ROOTS`` roots (then how many more), so O(those shown)."""
        if not self.has_forest:
            return []
        if not self.nodes_left:
            return ["  forest: (empty)"]
        roots = self.roots
        listed = ", ".join(map(str, roots[:_SHOWN_ROOTS]))
        if len(roots) > _SHOWN_ROOTS:
            listed += f", ... ({len(roots)} roots)"
        word = "node" if self.nodes_left == 1 else "nodes"
        lines = [f"  forest ({self.nodes_left} {word}; roots: {listed}):"]
        # Depth first with an explicit stack (a forest may be deeper than Python's recursion).
        pending = [(root, 0) for root in reversed(roots[:_SHOWN_NODES])]
        while pending and len(lines) <= _SHOWN_NODES:
            node, depth = pending.pop()
            coin = self.coins.coin(self.forest_base + node)
            lines.append(f"    {'  ' * depth}node {node}: {format_number(coin)}")
            pending.extend((child, depth + 1)
                           for child in reversed(self.children[node][:_SHOWN_NODES]))
        hidden = self.nodes_left - (len(lines) - 1)
        if hidden:
            lines.append(f"    ... and {hidden} more {'node' if hidden == 1 else 'nodes'}")
        return lines


class _Match:
    """The state of one game: the Engine, the board, the moves so far, the totals."""

    def __init__(self, game: Game, human_first: bool) -> None:
        self.start = game
        self.human_first = human_first
        self.engine = Engine(game)
        self.board = _Board(game)
        self.n_rows = len(game.rows)
        self.n_stacks = len(game.stacks)
        self.has_forest = self.board.has_forest
        self.one_row = self.n_rows == 1 and self.n_stacks == 0 and not self.has_forest
        start_value = self.engine.value()
        self.floats = isinstance(start_value, float)
        self.zero = type(start_value)(0)
        # The margin (human minus engine) optimal play by both would give.
        self.optimal_margin = start_value if human_first else -start_value
        self.history: list[tuple[str, Move, Any]] = []   # (player, move, gave away)
        self.totals = {HUMAN: _Total(self.floats, self.zero),
                       ENGINE: _Total(self.floats, self.zero)}

    def human_to_move(self) -> bool:
        return (len(self.history) % 2 == 0) == self.human_first

    def total(self, player: str) -> Any:
        return self.totals[player].value()

    def take(self, player: str, move: Move) -> tuple[Move, Any]:
        """Play ``move`` (legal here) for ``player``: the move played and what it gave away
        against optimal play."""
        # One number type throughout a game: its arithmetic is typed as Any.
        before: Any = self.engine.value()
        best = self.engine.best_move()
        played = self.engine.take(move)
        after: Any = self.engine.value()
        if self.floats:
            loss: Any = before - (played.coin - after)
            scale = abs(before) + abs(played.coin) + abs(after)
            if played == best or loss <= 1e-9 * scale:
                loss = 0.0  # an optimal move; the values are rounded, the difference noise
        else:
            loss = before - (played.coin - after)
        self.history.append((player, played, loss))
        self.totals[player].add(played.coin)
        self.board.take(played)
        return played, loss

    def undo(self) -> list[tuple[str, Move, Any]]:
        """Take back the human's last move and the engine's replies after it: the moves taken
        back (none if the human has not moved). Replays the rest on a new Engine."""
        last = max((i for i, (player, _, _) in enumerate(self.history) if player == HUMAN),
                   default=None)
        if last is None:
            return []
        taken_back = self.history[last:]
        kept = self.history[:last]
        self.engine = Engine(self.start)
        self.board = _Board(self.start)
        self.history = []
        self.totals = {HUMAN: _Total(self.floats, self.zero),
                       ENGINE: _Total(self.floats, self.zero)}
        for player, move, loss in kept:
            self.engine.take(move)
            self.board.take(move)
            self.history.append((player, move, loss))
            self.totals[player].add(move.coin)
        return taken_back

    # -- reading a move ----------------------------------------------------------------------

    def parse(self, line: str) -> str | Move:
        """A command (``"hint"``, ``"undo"``, ``"quit"``, ``"help"``) or a legal ``Move``;
        ``_BadMove`` otherwise."""
        words = line.replace(",", " ").lower().split()
        if not words:
            raise _BadMove("empty line: type a move, or help")
        if len(words) == 1 and words[0] in _COMMANDS:
            return _COMMANDS[words[0]]
        head, rest = words[0], words[1:]
        if head in _ENDS and not rest:
            if self.n_rows != 1:
                raise _BadMove(f"{line.strip()!r}: this game has {self.n_rows} rows: name "
                               "one, e.g. 'row 0 left'")
            return self._row_move(0, _ENDS[head])
        if head == "row":
            if len(rest) == 1 and rest[0] in _ENDS and self.n_rows == 1:
                return self._row_move(0, _ENDS[rest[0]])
            if len(rest) != 2 or rest[1] not in _ENDS:
                raise _BadMove(f"{line.strip()!r}: a row move is 'row I left' or "
                               "'row I right' (I counts from 0)")
            return self._row_move(self._index(rest[0], "row", self.n_rows), _ENDS[rest[1]])
        if head in ("stack", "s"):
            if rest and rest[-1] == "top":
                rest = rest[:-1]
            if not rest and self.n_stacks == 1:
                return self._stack_move(0)
            if len(rest) != 1:
                raise _BadMove(f"{line.strip()!r}: a stack move is 'stack I' (I counts "
                               "from 0)")
            return self._stack_move(self._index(rest[0], "stack", self.n_stacks))
        if head in ("node", "n", "tree", "root"):
            if len(rest) != 1:
                raise _BadMove(f"{line.strip()!r}: a tree move is 'node N' (a root of the "
                               "forest)")
            return self.board.node_move(rest[0])
        if head.isdigit() and not rest and self.has_forest and not self.n_rows + self.n_stacks:
            return self.board.node_move(head)  # a game of a forest alone: N is node N
        raise _BadMove(f"{line.strip()!r} is not a move: {self.commands_words()}")

    def commands_words(self) -> str:
        """The moves and commands, as the prompt takes them."""
        if self.one_row:
            return "l or r (the coin at the left or right end), hint, undo, quit or help"
        kinds = []
        if self.n_rows:
            kinds.append("row I left|right" + (" (or l|r)" if self.n_rows == 1 else ""))
        if self.n_stacks:
            kinds.append("stack I")
        if self.has_forest:
            kinds.append("node N" + (" (or N)" if not self.n_rows + self.n_stacks else ""))
        return ", ".join(kinds) + "; hint, undo, quit or help"

    @staticmethod
    def _index(text: str, kind: str, count: int) -> int:
        if not (text.isascii() and text.isdigit()):
            raise _BadMove(f"{kind} {text!r}: not a {kind} number (they count from 0)")
        index = _number_below(text, count)
        if index is None:
            have = f"{kind}s 0 to {count - 1}" if count > 1 else \
                f"{kind} 0 only" if count == 1 else f"no {kind}"
            raise _BadMove(f"there is no {kind} {text} (this game has {have})")
        return index

    def _row_move(self, index: int, end: str) -> Move:
        return self.board.row_move(index, end, self.one_row)

    def _stack_move(self, index: int) -> Move:
        return self.board.stack_move(index)

    # -- writing -------------------------------------------------------------------------------

    def position_lines(self) -> list[str]:
        """The coins left: each row and stack on a line (a long one shortened), the forest's
        nodes under their parents (a large one cut), both totals. O(k) plus the coins
        shown."""
        return [*self.board.component_lines(self.one_row), *self.board.forest_lines(),
                f"  you {format_number(self.total(HUMAN))}, "
                f"engine {format_number(self.total(ENGINE))}"]

    def describe(self, player: str, move: Move, loss: Any) -> str:
        who = "you take" if player == HUMAN else "engine takes"
        shown = "0" if loss == 0 else format_number(loss)
        taken = move_words(move, "command", self.one_row)
        return f"{who} {format_number(move.coin)} ({taken}): gave away {shown}"

    def hint(self) -> str:
        move = self.engine.best_move()
        taken = move_words(move, "command", self.one_row)
        return (f"hint: {taken} (takes {format_number(move.coin)}); "
                f"this position is worth {format_number(self.engine.value())} to you")

    def summary(self) -> list[str]:
        human, engine = self.total(HUMAN), self.total(ENGINE)
        margin = human - engine
        given = [loss for player, _, loss in self.history if player == HUMAN]
        gave_away: Any = sum(given, self.zero) if not self.floats else \
            round_float(sum((Fraction(x) for x in given), Fraction(0)))
        if len(self.engine):  # quit, or the end of the input: nobody has won
            head = f"game stopped with {_coins(len(self.engine))} left"
            verdict = ("unfinished: you are ahead" if margin > 0 else
                       "unfinished: the engine is ahead" if margin < 0 else "unfinished: level")
        else:
            head = "game over"
            verdict = ("you win" if margin > 0 else "the engine wins" if margin < 0 else
                       "a draw")
        return [
            f"{head}: you {format_number(human)}, engine {format_number(engine)} ({verdict})",
            (f"your margin: {format_number(margin)}; optimal play by both from the start: "
             f"{format_number(self.optimal_margin)}; your moves gave away "
             f"{'0' if gave_away == 0 else format_number(gave_away)}"),
        ]


def _intro(match: _Match) -> list[str]:
    first = "You move first." if match.human_first else "The engine moves first."
    return [
        f"coinsrow play: you against the engine, which plays optimally. {first}",
        f"Type {match.commands_words()}.",
        *_numbering(match),
        "Optimal play by both would end with you "
        + (f"{format_number(match.optimal_margin)} ahead." if match.optimal_margin > 0 else
           f"{format_number(-match.optimal_margin)} behind." if match.optimal_margin < 0
           else "level with the engine."),
    ]


_FOREST_RULES = ["The forest's nodes keep their numbers (from 0); each is shown under its "
                 "parent.",
                 "A move takes a root (a node whose parent is gone); its children become roots."]


def _numbering(match: _Match) -> list[str]:
    """How the board names what a move takes (nothing to say for one row)."""
    lines = []
    if match.n_rows + match.n_stacks and not match.one_row:
        lines.append("Rows and stacks count from 0; stacks are taken at the top.")
    if match.has_forest:
        lines.extend(_FOREST_RULES)
    return lines


def _help(match: _Match) -> list[str]:
    forest = ["  node N: take the root N of the forest (the roots are listed on the forest's "
              "line)"] if match.has_forest else []
    return [
        f"moves: {match.commands_words()}",
        *forest,
        ("  hint: the best move here, and what the position is worth to you: your coins from "
         "here minus the engine's, both playing best"),
        "  undo: take back your last move and the engine's reply",
        "  quit: stop the game (the totals so far are printed)",
        ("after each move: the coins left, both totals, and what the move gave away against "
         "optimal play (0 for a best move)"),
    ]


def play(game: Game, *, engine_first: bool = False, stdin: TextIO, out: TextIO,
         interactive: bool | None = None) -> Outcome:
    """Play ``game`` against the Engine: the human's moves are read from ``stdin`` (one a
    line), everything is written to ``out``. ``interactive`` (default: ``stdin`` is a
    terminal) decides what a bad line does: a message and a new prompt, or ``InputError``.

    O(n log n) for a game of n coins in rows and stacks, plus O(k) a move for printing.
    """
    if interactive is None:
        try:
            interactive = stdin.isatty()
        except (AttributeError, ValueError):
            interactive = False
    with decimal.localcontext(EXACT_DECIMAL):
        return _loop(_Match(game, not engine_first), stdin, out, interactive)


def _write(out: TextIO, lines: Sequence[str]) -> None:
    out.write("".join(line + "\n" for line in lines))
    out.flush()


def _loop(match: _Match, stdin: TextIO, out: TextIO, interactive: bool) -> Outcome:
    _write(out, _intro(match) + [""] + match.position_lines())
    line_number = 0
    while len(match.engine):
        if not match.human_to_move():
            move, loss = match.take(ENGINE, match.engine.best_move())
            _write(out, [match.describe(ENGINE, move, loss)] + match.position_lines())
            continue
        out.write("your move> ")
        out.flush()
        line = stdin.readline()
        line_number += 1
        if not line:  # end of input
            if interactive:
                out.write("\n")
                break
            out.write("\n")
            raise InputError(f"the input ended with {_coins(len(match.engine))} left (the "
                             "last line may be 'quit')")
        if not interactive:
            out.write(line.rstrip("\r\n") + "\n")  # the transcript shows what was played
        try:
            action = match.parse(line)
        except _BadMove as error:
            if not interactive:
                raise InputError(f"input line {line_number}: {error}") from None
            _write(out, [f"{error}"])
            continue
        if action == "quit":
            break
        if action == "help":
            _write(out, _help(match))
        elif action == "hint":
            _write(out, [match.hint()])
        elif action == "undo":
            taken_back = match.undo()
            if not taken_back:
                message = "nothing to undo: you have not moved yet"
                if not interactive:
                    raise InputError(f"input line {line_number}: {message}")
                _write(out, [message])
                continue
            said = ", ".join(("your " if player == HUMAN else "the engine's ")
                             + f"{format_number(move.coin)} "
                             + f"({move_words(move, 'command', match.one_row)})"
                             for player, move, _ in taken_back)
            _write(out, [f"taken back: {said}"] + match.position_lines())
        else:
            assert isinstance(action, Move)
            move, loss = match.take(HUMAN, action)
            _write(out, [match.describe(HUMAN, move, loss)] + match.position_lines())
    if match.history:
        # The review of the game just played (coinsrow analyze's table), before the verdict.
        first = "you" if match.human_first else "the engine"
        _write(out, ["", f"Review of the game (the first player is {first}):",
                     *analyze(match.start, [move for _, move, _ in match.history]).lines(),
                     ""])
    _write(out, match.summary())
    return Outcome([(player, move) for player, move, _ in match.history],
                   match.total(HUMAN), match.total(ENGINE), not len(match.engine))
