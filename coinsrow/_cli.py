"""The ``coinsrow`` command: solve a game from the shell and show the optimal play.

    coinsrow 3 2 2 3 1 2                  one row on the command line
    coinsrow - < coins.txt                coins from standard input (whitespace or commas)
    coinsrow -f game.json                 a file: coins, or {"rows": [[...]], "stacks": [[...]],
                                          "forest": {"values": [...], "parents": [...]}}
    coinsrow --row "3 1 2" --stack "5 1"  several rows and stacks (stacks top first)
    coinsrow demo                         a solved example from the literature, and why
    coinsrow play 1 2 1000 3 4 900        play against the engine in the terminal
    coinsrow silver 1 3 5                 the Silver Dollar game: winner and winning move

Exit status: 0 on success, 2 for bad input (a one-line message naming the offending token).

JSON output (``--json``): numbers are JSON numbers for ints and floats, strings for
``Fraction`` ("7/2") and ``Decimal`` ("3.50") so that no consumer rounds them::

    {"number_type": "int" | "float" | "Fraction" | "Decimal",
     "rows": [[coin, ...], ...], "stacks": [[coin, ...], ...],
     "forest": {"values": [coin, ...], "parents": [p, ...]},     (only for a forest)
     "profits": {"first": x, "second": y}, "value": x - y,
     "best_move": MOVE or null,
     "play": [MOVE, ...]}

    MOVE = {"turn": 1, "player": "first" | "second", "kind": "row" | "stack" | "tree",
            "index": i, "end": "left" | "right" | "top" | "root", "position": p, "coin": c,
            "first_total": running total, "second_total": running total}

Turns count from 1; ``index`` and ``position`` from 0, as in ``coinsrow.Move``. A forest's
``parents[i]`` is the index of node i's parent, -1 for a root; a move takes a root (its
children become roots), and a tree move's ``index`` and ``position`` are the node.
"""

from __future__ import annotations

import argparse
import contextlib
import decimal
import json
import math
import os
import re
import sys
from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Any, NamedTuple, NoReturn, TextIO, cast

import coinsrow

from ._coins import column
from ._dispatch import EXACT_DECIMAL
from ._game import Game, play_moves
from ._html import HTML_MAX_COINS, SUMMARY_MOVES
from ._moves import Move
from ._svg import MAX_COINS, game_svg, tidy_profits
from ._text import format_number

__all__ = ["main"]

PROG = "coinsrow"
EXIT_USAGE = 2
# A terminal shows at most this many moves of a play (head and tail) unless --all.
_TTY_HEAD, _TTY_TAIL = 12, 6
# The echo of the input shows long components shortened.
_ECHO_MAX = 30
# Lines (or JSON entries of a play) per write.
_WRITE_CHUNK = 4096

# A number of the input has at most this many digits, counting a decimal's exponent as
# digits (1e-5 is 0.00001): exact arithmetic on longer numbers, and Python's conversions
# between ints and text (quadratic before Python 3.12), take more than a second a number.
# Checked on the text, before any conversion: "1e999999999" costs nothing to refuse.
MAX_DIGITS = 100_000

_INT = re.compile(r"[+-]?[0-9]+", re.ASCII)
# Text made only of plain integers and separators: read with int() in one pass.
_PLAIN_INTEGERS = re.compile(r"[0-9+\-, \t\n\r\f\v]*", re.ASCII)
_FRACTION = re.compile(r"[+-]?[0-9]+/[0-9]+", re.ASCII)
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?", re.ASCII)
_NEGATIVE = re.compile(r"-(?:[0-9]|\.[0-9])", re.ASCII)
_SEPARATORS = re.compile(r"[\s,]+")

DEMO_ROW = (1, 2, 1000, 3, 4, 900)      # from the puzzle write-up "Coins Game" (2011)
DEMO_ROW_2 = (3, 2, 2, 3, 1, 2)         # from the interview write-up "Coins in a Line"


class UsageError(Exception):
    """Bad input: reported on one line, exit status 2."""


def _show(text: str) -> str:
    """A token quoted for an error message, cut short if it is long."""
    return repr(text if len(text) <= 40 else text[:37] + "...")


# -- reading coins -------------------------------------------------------------------------


def parse_number(token: str, where: str,
                 as_float: bool = False) -> int | float | Fraction | Decimal:
    """One coin from its text, exactly: ``12`` -> int, ``7/2`` -> Fraction, ``0.1`` -> Decimal.

    With ``as_float`` every coin is a float. ``UsageError`` naming the token otherwise.
    """
    text = token.strip()
    kind: type = int if _INT.fullmatch(text) else Fraction if _FRACTION.fullmatch(text) \
        else Decimal if _DECIMAL.fullmatch(text) else str
    if kind is str:
        raise UsageError(f"{where}: {_show(text)} is not a number")
    _check_digits(text, where)
    try:
        number: int | float | Fraction | Decimal = kind(text)
    except ZeroDivisionError:
        raise UsageError(f"{where}: {_show(text)} divides by zero") from None
    return _to_float(number, where, text) if as_float else number


def _check_digits(text: str, where: str) -> None:
    """``UsageError`` for a number (an integer, a fraction, a decimal as JSON or the
    command line writes it) of more than MAX_DIGITS digits, its exponent counted as digits.
    O(len(text)), without converting it."""
    mantissa, _, exponent = text.lower().partition("e")
    if len(mantissa) <= MAX_DIGITS and not exponent:
        return
    digits = sum(c in "0123456789" for c in mantissa)
    exponent_digits = exponent.lstrip("+-").lstrip("0")
    if len(exponent_digits) > len(str(MAX_DIGITS)):
        digits = MAX_DIGITS + 1
    elif exponent_digits:
        digits += int(exponent_digits)
    if digits > MAX_DIGITS:
        raise UsageError(f"{where}: {_show(text)} is too long: a number has at most "
                         f"{MAX_DIGITS} digits, exponent included")


def _to_float(number: Any, where: str, text: str) -> float:
    """``--float``: the number as a float; one beyond the float range is an error."""
    try:
        result = float(number)
    except OverflowError:
        result = math.inf
    if not math.isfinite(result):
        raise UsageError(f"{where}: {_show(text)} is too large for a float")
    return result


def _tokens(text: str) -> Iterator[tuple[int, str]]:
    """(line number, token) for every coin in whitespace- or comma-separated text."""
    for line_number, line in enumerate(text.splitlines(), 1):
        for token in _SEPARATORS.split(line):
            if token:
                yield line_number, token


def parse_coins(text: str, source: str, as_float: bool,
                multiline: bool = True) -> Sequence[Any]:
    """The coins in ``text`` (whitespace or commas), errors naming source, line and token.

    Text of plain integers (the common case, millions of coins in a file) is read in one
    pass of ``int``; anything else token by token, with exact error messages. O(len(text)).
    """
    if not as_float and _PLAIN_INTEGERS.fullmatch(text):
        plain = _plain_integers(text)
        if plain is not None:
            return plain
    coins: list = []
    for line_number, token in _tokens(text):
        where = f"{source}, line {line_number}" if multiline else source
        coins.append(parse_number(token, where, as_float))
    return coins


def _plain_integers(text: str) -> Sequence[int] | None:
    """The integers of a text made of digits, signs and separators: an ``array('q')`` (8
    bytes a coin: a file of millions of coins is read piece by piece, never as a list of
    strings), a list if one is beyond int64, None if a token is not an integer or too long
    (the caller's slow path names it)."""
    text = text.replace(",", " ")
    coins: Any = array("q")
    start = 0
    while start < len(text):
        # About a megabyte at a time, cut at a separator.
        stop = min(len(text), start + (1 << 20))
        while stop < len(text) and not text[stop].isspace():
            stop += 1
        tokens = text[start:stop].split()
        start = stop
        if any(len(token) > MAX_DIGITS for token in tokens):
            return None
        try:
            if isinstance(coins, array):
                done = len(coins)
                try:
                    coins.extend(map(int, tokens))
                    continue
                except OverflowError:  # beyond int64: Python ints from here on
                    coins = coins[:done].tolist()
            coins.extend(map(int, tokens))
        except ValueError:  # e.g. "1-2" or "+-3"
            return None
    return cast(Sequence[int], coins)


def _json_text(item: Any) -> str:
    """A piece of a JSON document for an error message: its JSON, at most 40 characters
    (a number with a fraction or an exponent, read as a Decimal, as it was written)."""
    if isinstance(item, Decimal):
        return str(item)[:40]
    try:
        text = json.dumps(item, default=str)
    except (RecursionError, ValueError):
        text = type(item).__name__
    return text[:40]


def _json_coin(item: Any, where: str, as_float: bool) -> Any:
    if isinstance(item, bool) or item is None or isinstance(item, (list, dict)):
        raise UsageError(f"{where}: {_json_text(item)} is not a number")
    if isinstance(item, str):
        return parse_number(item, where, as_float)
    return _to_float(item, where, str(item)) if as_float else item


def _json_forest(forest: Any, source: str, as_float: bool) -> tuple[list, list]:
    """(values, parents) of ``{"values": [...], "parents": [...]}``; the Game checks that
    the parents are in range and form no cycle."""
    if not isinstance(forest, dict):
        raise UsageError(f"{source}: \"forest\" must be an object {{\"values\": [...], "
                         f"\"parents\": [...]}}, got {_json_text(forest)}")
    unknown = sorted(set(forest) - {"values", "parents"})
    if unknown:
        raise UsageError(f"{source}: forest: unknown key {unknown[0]!r} (expected \"values\" "
                         f"and \"parents\")")
    for key in ("values", "parents"):
        if not isinstance(forest.get(key), list):
            raise UsageError(f"{source}: forest: \"{key}\" must be a list")
    values = [_json_coin(c, f"{source}: forest values[{i}]", as_float)
              for i, c in enumerate(forest["values"])]
    parents = forest["parents"]
    for i, parent in enumerate(parents):
        if isinstance(parent, bool) or not isinstance(parent, int):
            raise UsageError(f"{source}: forest parents[{i}]: {_json_text(parent)} is not a "
                             "node index (an integer, -1 for a root)")
    if len(parents) != len(values):
        raise UsageError(f"{source}: forest has {len(values)} values but {len(parents)} "
                         "parents")
    return values, parents


# A game's JSON is at most an object of lists of lists of coins (a forest: of two lists).
_MAX_NESTING = 16
_TOO_DEEP = object()


def _nesting(document: object) -> int:
    """How deeply ``document``'s lists and objects nest (without recursion: O(size))."""
    deepest, pending = 0, [(document, 1)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, (list, dict)):
            deepest = max(deepest, depth)
            if depth > _MAX_NESTING:
                break
            pending.extend((child, depth + 1)
                           for child in (item.values() if isinstance(item, dict) else item))
    return deepest

def parse_json(text: str, source: str, as_float: bool) -> tuple[list, list, tuple | None]:
    """(rows, stacks, forest) from a JSON document: a list of coins (one row) or
    ``{"rows": [[...], ...], "stacks": [[...], ...], "forest": {"values": [...],
    "parents": [...]}}`` (every key optional; forest ``None`` when absent). Numbers with a
    fraction or an exponent are read as Decimal (exact), never through a binary float unless
    ``as_float``."""

    def reject_constant(name: str) -> NoReturn:
        raise UsageError(f"{source}: {name} is not a finite number")

    def read_int(number: str) -> int:
        _check_digits(number, source)
        return int(number)

    def read_decimal(number: str) -> float | Decimal:
        _check_digits(number, source)
        return float(number) if as_float else Decimal(number)

    try:
        document = json.loads(text, parse_float=read_decimal, parse_int=read_int,
                              parse_constant=reject_constant)
    except RecursionError:
        document = _TOO_DEEP
    except json.JSONDecodeError as error:
        near = error.doc[error.pos:error.pos + 20].split("\n")[0].strip()
        place = f"near {near!r}" if near else "at the end of the input"
        raise UsageError(f"{source}: bad JSON at line {error.lineno} column {error.colno}: "
                         f"{error.msg} {place}") from None
    except ValueError as error:  # e.g. an integer literal beyond the digit limit
        raise UsageError(f"{source}: bad JSON: {error}") from None
    # Python 3.13's json reads thousands of levels without a RecursionError: the depth is
    # checked here too, so that every Python gives the same one-line message.
    if document is _TOO_DEEP or _nesting(document) > _MAX_NESTING:
        raise UsageError(f"{source}: bad JSON: nested too deeply (a game is at most a list "
                         "of lists of coins)")
    if isinstance(document, list) and all(not isinstance(x, list) for x in document):
        document = {"rows": [document]}
    if not isinstance(document, dict):
        raise UsageError(f"{source}: expected a JSON object {{\"rows\": [[...]], \"stacks\": "
                         f"[[...]], \"forest\": {{...}}}} or a list of coins, got "
                         f"{type(document).__name__}")
    unknown = sorted(set(document) - {"rows", "stacks", "forest"})
    if unknown:
        raise UsageError(f"{source}: unknown key {unknown[0]!r} (expected \"rows\", "
                         f"\"stacks\" and/or \"forest\")")
    result: dict[str, list] = {}
    for key in ("rows", "stacks"):
        components = document.get(key, [])
        if not isinstance(components, list):
            raise UsageError(f"{source}: \"{key}\" must be a list of lists of coins")
        parsed = []
        for i, component in enumerate(components):
            if not isinstance(component, list):
                raise UsageError(f"{source}: {key}[{i}] must be a list of coins, "
                                 f"got {_json_text(component)}")
            parsed.append([_json_coin(c, f"{source}: {key}[{i}][{j}]", as_float)
                           for j, c in enumerate(component)])
        result[key] = parsed
    forest = None
    if "forest" in document:
        forest = _json_forest(document["forest"], source, as_float)
    return result["rows"], result["stacks"], forest


def _read_source(name: str) -> str:
    """The text of a file or of standard input ('-'): UTF-8, with or without the byte-order
    mark that some editors write first."""
    if name == "-":
        stdin = sys.stdin
        try:
            binary = getattr(stdin, "buffer", None)
            if binary is not None:
                data: bytes = binary.read()
                return data.decode("utf-8-sig")
            return stdin.read().removeprefix("\ufeff")
        except UnicodeDecodeError:
            raise UsageError("standard input is not UTF-8 text") from None
    try:
        with open(name, encoding="utf-8-sig") as file:
            return file.read()
    except UnicodeDecodeError:
        raise UsageError(f"{name}: not a UTF-8 text file") from None
    except OSError as error:
        raise UsageError(f"cannot read {name!r}: {error.strerror or error}") from None


def _read_game_text(text: str, source: str,
                    as_float: bool) -> tuple[list, list, tuple | None]:
    stripped = text.lstrip()
    if stripped.startswith(("{", "[")):
        return parse_json(text, source, as_float)
    coins = parse_coins(text, source, as_float)
    if not coins:
        raise UsageError(f"{source}: no coins")
    return [coins], [], None


def _exact_kinds(rows: list, stacks: list, forest_values: list) -> tuple[list, list, list]:
    """Decimal and Fraction coins in one game: read the decimals as Fractions (exactly)."""
    # (An array holds ints only.)
    coins = [c for component in rows + stacks + [forest_values]
             if not isinstance(component, array) for c in component]
    if any(isinstance(c, Fraction) for c in coins) and any(isinstance(c, Decimal) for c in coins):
        # Fractions of decimals far apart (1e-99999 and 1e99999) are as long as the Decimal
        # sums the library refuses: the same digit budget, checked before converting.
        try:
            column([c for c in coins if isinstance(c, Decimal)], "the decimal coins")
        except ValueError as error:
            raise UsageError(f"{error} (they are read as fractions, beside 1/2-style "
                             "coins)") from None

        def convert(component: list) -> list:
            return [Fraction(c) if isinstance(c, Decimal) else c for c in component]
        return [convert(r) for r in rows], [convert(s) for s in stacks], convert(forest_values)
    return rows, stacks, forest_values


def read_game(args: argparse.Namespace) -> Game:
    """The game described by the command line (positional coins, -f, --row, --stack)."""
    rows: list = []
    stacks: list = []
    forest: tuple | None = None
    coins = [c.strip() for c in args.coins]
    sources = ([args.file] if args.file else [])
    if "-" in coins:
        if len(coins) > 1:
            raise UsageError("'-' (read standard input) cannot be mixed with coins")
        sources.append("-")
        coins = []
    if sources.count("-") > 1:
        raise UsageError("standard input can be read only once")
    if coins:
        rows.append([parse_number(token, f"argument {i}", args.float)
                     for i, token in enumerate(coins, 1)])
    for name in sources:
        label = "standard input" if name == "-" else name
        more_rows, more_stacks, more_forest = _read_game_text(_read_source(name), label,
                                                              args.float)
        rows += more_rows
        stacks += more_stacks
        if more_forest is not None:
            if forest is not None:
                raise UsageError(f"{label}: a second forest (a game has at most one; put "
                                 "every tree in one \"forest\")")
            forest = more_forest
    for i, text in enumerate(args.row or [], 1):
        rows.append(parse_coins(text, f"--row #{i}", args.float, multiline=False))
    for i, text in enumerate(args.stack or [], 1):
        stacks.append(parse_coins(text, f"--stack #{i}", args.float, multiline=False))
    forest_values, parents = forest if forest is not None else ([], [])
    if not any(rows) and not any(stacks) and not forest_values:
        raise UsageError("no coins given (try 'coinsrow 3 2 2 3 1 2', 'coinsrow demo' or "
                         "'coinsrow --help')")
    rows, stacks, forest_values = _exact_kinds(rows, stacks, forest_values)
    try:
        return Game(rows=rows, stacks=stacks,
                    forest=None if forest is None else (forest_values, parents))
    except (TypeError, ValueError) as error:
        raise UsageError(str(error)) from None


# -- writing -------------------------------------------------------------------------------


def _json_number(x: Any, number_type: type) -> Any:
    """A number for JSON in the game's number type: ints and floats as JSON numbers,
    Fraction and Decimal as exact strings (an int coin of a Fraction game is "2")."""
    if number_type is int:
        return x
    if number_type is float:
        return float(x)
    return format_number(number_type(x))


def _where(move: Move) -> str:
    if move.kind == "tree":
        return f"tree node {move.index}"
    return f"{move.kind} {move.index} {move.end}"


def _with_totals(moves: Iterable[Move], zero: Any) -> Iterator[tuple[Move, Any, Any]]:
    """(move, first total, second total) after every move, as the moves are read."""
    first = second = zero
    for t, move in enumerate(moves):
        if t % 2 == 0:
            first += move.coin
        else:
            second += move.coin
        yield move, first, second


def _zero(profit: Any) -> Any:
    """Zero of the game's number type (Decimal('0'), not the profit's many decimal places)."""
    return type(profit)(0)


def _move_json(turn: int, move: Move, totals: tuple[Any, Any], number_type: type) -> dict:
    return {
        "turn": turn,
        "player": "first" if turn % 2 == 1 else "second",
        "kind": move.kind,
        "index": move.index,
        "end": move.end,
        "position": move.position,
        "coin": _json_number(move.coin, number_type),
        "first_total": _json_number(totals[0], number_type),
        "second_total": _json_number(totals[1], number_type),
    }


def _table(moves: Callable[[], Iterable[Move]], count: int, zero: Any, abbreviate: bool,
           indent: str = "") -> Iterator[str]:
    """The play as aligned lines: turn, player, where, coin, running totals.

    ``moves()`` gives the ``count`` moves of the play afresh: a long play is read twice (the
    column widths, then the lines) and never held in memory. Abbreviated, only the first
    and last moves are shown. O(count) time.
    """
    head, tail = count, 0
    if abbreviate and count > _TTY_HEAD + _TTY_TAIL + 1:
        head, tail = _TTY_HEAD, _TTY_TAIL
    # Ints are written by str, floats by repr (as format_number writes them), at C speed.
    text: Callable[[Any], str] = (str if type(zero) is int else repr if type(zero) is float
                                  else format_number)
    players = ("first", "second")

    def rows() -> Iterator[tuple[int, tuple[str, ...]]]:
        for t, (move, first, second) in enumerate(_with_totals(moves(), zero)):
            if t < head or t >= count - tail:
                coin = move.coin
                yield t, (str(t + 1), players[t & 1], _where(move),
                          text(coin) if type(coin) is type(zero) else format_number(coin),
                          text(first), text(second))

    header = ("turn", "player", "takes", "coin", "first", "second")
    widths = [len(cell) for cell in header]
    kept = list(rows()) if tail else None  # abbreviated: a few lines, read once
    if kept is None and type(zero) is int:
        widths = list(map(max, widths, _int_widths(moves(), count)))
    else:
        for _, cells in kept if kept is not None else rows():
            widths = list(map(max, widths, map(len, cells)))
    w = widths
    line = (f"{indent}{{:>{w[0]}}}  {{:<{w[1]}}}  {{:<{w[2]}}}  {{:>{w[3]}}}  {{:>{w[4]}}}  "
            f"{{:>{w[5]}}}").format

    yield line(*header).rstrip()
    previous = -1
    for t, cells in kept if kept is not None else rows():
        if previous >= 0 and t != previous + 1:
            yield f"{indent}  ... {t - previous - 1} more moves (--all shows every move) ..."
        yield line(*cells).rstrip()
        previous = t


def _int_widths(moves: Iterable[Move], count: int) -> list[int]:
    """The widths of the columns of the whole table of a play of ints, without writing its
    numbers: the longest int of a column is its smallest or its largest."""
    places: set[tuple[str, int, str]] = set()
    low: list[Any] = [0, 0, 0]  # coin, first total, second total (0 is never the longest)
    high: list[Any] = [0, 0, 0]
    for move, first, second in _with_totals(moves, 0):
        places.add((move.kind, move.index, move.end))
        coin = move.coin
        if coin < low[0]:
            low[0] = coin
        elif coin > high[0]:
            high[0] = coin
        if first < low[1]:
            low[1] = first
        elif first > high[1]:
            high[1] = first
        if second < low[2]:
            low[2] = second
        elif second > high[2]:
            high[2] = second
    takes = max((len(_where(Move(kind, index, end, 0, 0))) for kind, index, end in places),
                default=0)
    numbers = [max(len(str(a)), len(str(b))) for a, b in zip(low, high)]
    return [len(str(count)), len("second") if count > 1 else len("first"), takes, *numbers]


def _write_lines(out: TextIO, lines: Iterable[str]) -> None:
    """Write lines in chunks (one write per few thousand lines)."""
    chunk: list[str] = []
    for text in lines:
        chunk.append(text)
        if len(chunk) >= _WRITE_CHUNK:
            out.write("\n".join(chunk) + "\n")
            chunk.clear()
    if chunk:
        out.write("\n".join(chunk) + "\n")


def _write_json(out: TextIO, document: dict[str, Any],
                play: Iterable[dict[str, Any]] | None = None) -> None:
    """``json.dumps(document)`` and a newline; with ``play``, the document gets a last key
    "play" whose entries are written as they come (the same text as one ``json.dumps``)."""
    text = json.dumps(document)
    if play is None:
        out.write(text + "\n")
        return
    out.write(text[:-1] + (", " if document else "") + '"play": [')
    chunk: list[str] = []
    separator = ""
    for entry in play:
        chunk.append(json.dumps(entry))
        if len(chunk) >= _WRITE_CHUNK:
            out.write(separator + ", ".join(chunk))
            separator = ", "
            chunk.clear()
    if chunk:
        out.write(separator + ", ".join(chunk))
    out.write("]}\n")


def _json_play(moves: Iterable[Move], zero: Any, kind: type) -> Iterator[dict[str, Any]]:
    """The play as JSON entries, one per move, with the running totals after it."""
    for t, (move, first, second) in enumerate(_with_totals(moves, zero), 1):
        yield _move_json(t, move, (first, second), kind)


def _echo(values: Sequence[Any]) -> str:
    if len(values) > _ECHO_MAX:
        head = " ".join(format_number(x) for x in values[:10])
        tail = " ".join(format_number(x) for x in values[-5:])
        return f"{head} ... {tail}  ({len(values)} coins)"
    return " ".join(format_number(x) for x in values) if values else "(empty)"


def _describe_move(move: Move) -> str:
    if move.kind == "stack":
        return f"take {format_number(move.coin)} from the top of stack {move.index}"
    if move.kind == "tree":
        return f"take {format_number(move.coin)} at the root node {move.index} of the forest"
    return f"take {format_number(move.coin)} from the {move.end} end of row {move.index}"


def _check_output_paths(args: argparse.Namespace) -> None:
    """``--svg ""`` or ``--html ""``: a one-line error before any work."""
    for option, path in (("--svg", args.svg), ("--html", args.html)):
        if path is not None and not path.strip():
            raise UsageError(f"{option} needs a file name")


def _write_svg(game: Game, path: str) -> None:
    """The picture of ``game`` (a summary of MAX_COINS coins if it has more) into ``path``."""
    picture = game_svg(game, max_coins=MAX_COINS, play=play_moves(game))
    try:
        with open(path, "w", encoding="utf-8") as file:
            file.write(picture)
    except OSError as error:
        raise UsageError(f"cannot write {path!r}: {error.strerror or error}") from None


def _write_html(game: Game, path: str) -> None:
    try:
        with open(path, "w", encoding="utf-8") as file:
            file.write(game.to_html())
    except OSError as error:
        raise UsageError(f"cannot write {path!r}: {error.strerror or error}") from None


def _abbreviate(args: argparse.Namespace, out: TextIO) -> bool:
    if args.all:
        return False
    try:
        return out.isatty()
    except (AttributeError, ValueError):
        return False


def solve(args: argparse.Namespace, out: TextIO) -> int:
    """Solve the game and print it. The optimal play is read as it is printed (never held as
    a list: a few dozen bytes a coin beyond the game itself), and ``--quiet`` prints the
    profits without the play (Decimal coins: the play is read once, to write each
    player's sum with the coins' own decimal places)."""
    _check_output_paths(args)
    game = read_game(args)
    profits: Any = game.profits()  # of the game's one number type
    if isinstance(profits.first, Decimal):
        profits = tidy_profits(profits, play_moves(game))
    kind = type(profits.first)
    zero = _zero(profits.first)
    if args.svg is not None:
        _write_svg(game, args.svg)
    if args.html is not None:
        _write_html(game, args.html)
    if args.json:
        document: dict[str, Any] = {"number_type": kind.__name__}
        if not args.quiet:
            document["rows"] = [[_json_number(c, kind) for c in r] for r in game.rows]
            document["stacks"] = [[_json_number(c, kind) for c in s] for s in game.stacks]
            if game.forest is not None:
                values, parents = game.forest
                document["forest"] = {"values": [_json_number(c, kind) for c in values],
                                      "parents": list(parents)}
        document["profits"] = _json_profits(profits, kind)
        if args.quiet:
            _write_json(out, document)
            return 0
        document["value"] = _json_number(profits.first - profits.second, kind)
        first = next(_json_play(play_moves(game), zero, kind), None)
        document["best_move"] = first
        _write_json(out, document, _json_play(play_moves(game), zero, kind))
        return 0
    if args.quiet:
        out.write(f"{format_number(profits.first)} {format_number(profits.second)}\n")
        return 0
    lines = [f"row {i}: {_echo(r)}" for i, r in enumerate(game.rows)]
    lines += [f"stack {i} (top first): {_echo(s)}" for i, s in enumerate(game.stacks)]
    if game.forest is not None:
        values, parents = game.forest
        lines.append(f"forest ({len(values)} nodes, a move takes a root): values {_echo(values)}")
        lines.append(f"  parents (-1: a root): {_echo(parents)}")
    lines.append(f"profits: first {format_number(profits.first)}, "
                 f"second {format_number(profits.second)}")
    lines.append(f"value: {format_number(profits.first - profits.second)} "
                 f"(first minus second, both playing optimally)")
    lines.append(f"best move: {_describe_move(game.best_move())}")
    lines.append("optimal play:")
    _write_lines(out, lines)
    _write_lines(out, _table(lambda: play_moves(game), len(game), zero,
                             _abbreviate(args, out), indent="  "))
    return 0


def _json_profits(totals: Any, kind: type) -> dict[str, Any]:
    """``{"first": ..., "second": ...}`` of anything with ``.first`` and ``.second``."""
    return {"first": _json_number(totals.first, kind),
            "second": _json_number(totals.second, kind)}


def versus(args: argparse.Namespace, out: TextIO) -> int:
    """``--strategy A --vs B``: a whole game between two strategies (``coinsrow.simulate``)."""
    _check_output_paths(args)
    game = read_game(args)
    first_name = args.strategy or "optimal"
    second_name = args.vs or "optimal"
    try:
        playout = coinsrow.simulate(game, first=first_name, second=second_name, seed=args.seed)
    except (TypeError, ValueError) as error:
        raise UsageError(str(error)) from None
    moves = playout.moves
    optimal = tidy_profits(game.profits(), play_moves(game))
    zero = _zero(optimal.first)
    if args.svg is not None:
        _write_svg(game, args.svg)
    if args.html is not None:
        _write_html(game, args.html)
    if args.json:
        kind = type(optimal.first)
        document: dict[str, Any] = {
            "number_type": kind.__name__,
            "strategies": {"first": first_name, "second": second_name},
            "profits": _json_profits(playout, kind),
            "optimal_profits": _json_profits(optimal, kind),
        }
        _write_json(out, document, None if args.quiet else _json_play(moves, zero, kind))
        return 0
    if args.quiet:
        out.write(f"{format_number(playout.first)} {format_number(playout.second)}\n")
        return 0
    _write_lines(out, [f"first player: {first_name}, second player: {second_name}"])
    _write_lines(out, _table(lambda: moves, len(moves), zero, _abbreviate(args, out),
                             indent="  "))
    _write_lines(out, [f"result: first {format_number(playout.first)}, "
                       f"second {format_number(playout.second)} (both optimal: first "
                       f"{format_number(optimal.first)}, second "
                       f"{format_number(optimal.second)})"])
    return 0


# -- demo ----------------------------------------------------------------------------------


def demo(out: TextIO) -> int:
    """The row of the "Coins Game" write-up, where the even/odd strategy is not optimal,
    solved and explained; then the example of "Coins in a Line". Every number shown is
    computed by the library."""
    row = list(DEMO_ROW)
    game = Game(rows=[row])
    profits = game.profits()
    moves = game.play()
    odd, even = sum(row[0::2]), sum(row[1::2])
    parity_class, other_class = ("odd", "even") if odd >= even else ("even", "odd")
    parity_sum, other_sum = max(odd, even), min(odd, even)
    first_moves = moves[0::2]
    classes = ["odd" if m.position % 2 == 0 else "even" for m in first_moves]  # 1-based places

    def spelled(coins: Sequence[int]) -> str:
        return f"{' + '.join(map(str, coins))} = {sum(coins)}"

    lines = [
        "coinsrow demo: two players take turns taking a coin from either end of a row.",
        "How much does each collect when both play as well as possible?",
        "",
        f"Row: {_echo(row)}   (from the puzzle write-up \"Coins Game\")",
        f"  Even/odd strategy: odd places hold {spelled(row[0::2])}, even places "
        f"{spelled(row[1::2])}.",
        f"  Going first, she can take every {parity_class}-place coin (the second player then "
        f"only finds",
        f"  {other_class}-place coins at the ends), so she never loses: {parity_sum} to "
        f"{other_sum}.",
        f"  But the optimum is {profits.first} to {profits.second}:",
    ]
    lines += _table(lambda: moves, len(moves), 0, abbreviate=False, indent="    ")
    # The worth (first minus second, best play after it) of each first move.
    worth = {"left": row[0] - coinsrow.value(row[1:]),
             "right": row[-1] - coinsrow.value(row[:-1])}
    parity_end = "left" if parity_class == "odd" else "right"
    lines.append("  Why: the first move decides (worth = first minus second after it, best play):")
    for end, coin in (("left", row[0]), ("right", row[-1])):
        note = "  <- the even/odd strategy's move" if end == parity_end else ""
        lines.append(f"    take {coin} ({end}): worth {worth[end]}{note}")
    taken = ", ".join(format_number(m.coin) for m in first_moves)
    places = ", ".join(str(m.position + 1) for m in first_moves)
    switches = len(set(classes)) > 1
    lines.append(f"  The optimal first player takes {taken} (places {places}: "
                 f"{', '.join(classes)}){';' if switches else '.'}")
    if switches:
        lines.append("  she switches class after her first move, which the even/odd strategy "
                     "never does.")
    row2 = list(DEMO_ROW_2)
    game2 = Game(rows=[row2])
    profits2 = game2.profits()
    moves2 = game2.play()
    odd2, even2 = sum(row2[0::2]), sum(row2[1::2])
    lines += [
        "",
        f"Row: {_echo(row2)}   (from the interview write-up \"Coins in a Line\")",
        f"  Odd places sum to {odd2}, even places to {even2}: the even/odd strategy gets "
        f"{max(odd2, even2)},",
        f"  the optimum is {profits2.first} to {profits2.second}. Optimal play, turn by turn:",
        "    " + ", ".join(f"{format_number(m.coin)} ({m.end})" for m in moves2),
        "",
        "Try:  coinsrow 3 2 2 3 1 2",
        "      coinsrow --json --row \"1 5 2\" --stack \"4 1\"",
        "      coinsrow --help",
    ]
    out.write("\n".join(lines) + "\n")
    return 0


# -- the Silver Dollar game ----------------------------------------------------------------


def silver(argv: list[str], out: TextIO) -> int:
    parser = _Parser(prog=f"{PROG} silver",
                     description="The Silver Dollar game (the CodeChef problem 'A Coin Game', "
                                 "September 2009): coins on cells 1, 2, ...; "
                                 "a move slides a coin left to an empty cell without jumping; "
                                 "who cannot move loses. Prints the winner and the preferred "
                                 "winning move (leftmost coin, furthest left).")
    parser.add_argument("cells", nargs="*", metavar="CELL", help="the cells holding coins")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_intermixed_args(_protect_negatives(argv))
    cells = []
    for i, token in enumerate(args.cells, 1):
        text = token.strip()
        if not _INT.fullmatch(text):
            raise UsageError(f"argument {i}: {_show(text)} is not a cell number "
                             "(a positive integer)")
        _check_digits(text, f"argument {i}")
        cells.append(int(text))
    from . import silver_dollar

    try:
        winner = silver_dollar.winner(cells)
        move = silver_dollar.winning_move(cells)
    except (TypeError, ValueError) as error:
        raise UsageError(str(error)) from None
    if args.json:
        out.write(json.dumps({"cells": cells, "winner": winner,
                              "winning_move": list(move) if move else None}) + "\n")
        return 0
    shown = " ".join(map(str, sorted(cells))) if cells else "(none)"
    lines = [f"coins on cells: {shown}"]
    if move is None:
        lines.append(f"winner: {winner} player (every move of the first player loses)")
    else:
        lines.append(f"winner: {winner} player")
        lines.append(f"winning move: the coin on cell {move[0]} to cell {move[1]}")
    out.write("\n".join(lines) + "\n")
    return 0


# -- playing against the engine ------------------------------------------------------------

RANDOM_COINS = (1, 100)   # ``play --random N``: N whole coins drawn from this range
# ``play --random N`` makes at most this many coins: a game played move by move has no use
# for more, and a count such as 10**20 would fill the memory before the first move.
RANDOM_MAX_COINS = 1_000_000


def play_command(argv: list[str], out: TextIO) -> int:
    """``coinsrow play``: a game in the terminal against the Engine (``coinsrow._play``)."""
    parser = _Parser(
        prog=f"{PROG} play",
        description="Play against the engine, which plays optimally. Type a move: l or r "
                    "(the left or right end) for one row; 'row I left', 'row I right', "
                    "'stack I' for several rows and stacks; 'node N' for a root of the "
                    "forest (a game with a forest is read with -f, as JSON; its nodes are "
                    "shown under their parents, numbered as given); or hint (the best move "
                    "and the value of the position), undo, quit, help. After each move: the "
                    "coins left, both totals, and what the move gave away against optimal "
                    "play (0 for a best move). Moves may come from a pipe, one a line: then a "
                    "bad line is an error (exit status 2).",
        epilog="Example: coinsrow play 1 2 1000 3 4 900;  printf 'l\\nr\\nr\\n' | coinsrow "
               "play --json 3 2 2 3 1 2",
    )
    parser.add_argument("coins", nargs="*", metavar="COIN", help="the coins of one row")
    parser.add_argument("-f", "--file", metavar="FILE",
                        help="read the game from FILE (coins, or JSON as for 'coinsrow': "
                             "{\"rows\": [[...]], \"stacks\": [[...]], \"forest\": "
                             "{\"values\": [...], \"parents\": [...]}})")
    parser.add_argument("--row", action="append", metavar="COINS",
                        help="a row, e.g. --row \"3 1 2\" (repeatable)")
    parser.add_argument("--stack", action="append", metavar="COINS",
                        help="a stack, top coin first (repeatable)")
    parser.add_argument("--float", action="store_true",
                        help="read every coin as a binary float (default: exact)")
    parser.add_argument("--random", type=int, metavar="N",
                        help=f"a row of N random whole coins from {RANDOM_COINS[0]} to "
                             f"{RANDOM_COINS[1]} (N at most {RANDOM_MAX_COINS})")
    parser.add_argument("--seed", type=int, metavar="S", help="seed for --random")
    parser.add_argument("--engine-first", action="store_true",
                        help="the engine moves first (default: you do)")
    parser.add_argument("--json", action="store_true",
                        help="end with one line of JSON: {\"human\": total, \"engine\": total, "
                             "\"moves\": [{\"player\", \"kind\", \"index\", \"end\", "
                             "\"coin\"}, ...]}")
    args = parser.parse_intermixed_args(_protect_negatives(argv))
    if "-" in [c.strip() for c in args.coins] or args.file == "-":
        raise UsageError("play reads your moves from standard input: give the coins as "
                         "arguments, with --row/--stack or with -f FILE")
    if args.random is not None:
        if args.coins or args.file or args.row or args.stack:
            raise UsageError("--random N cannot be combined with coins, -f, --row or --stack")
        if args.random < 1:
            raise UsageError(f"--random {args.random}: a game needs at least one coin")
        if args.random > RANDOM_MAX_COINS:
            count = str(args.random)
            raise UsageError(f"--random {count if len(count) <= 40 else count[:37] + '...'}: "
                             f"at most {RANDOM_MAX_COINS} coins (a game played move by move)")
        import random

        rng = random.Random(args.seed)
        game = Game(rows=[[rng.randint(*RANDOM_COINS) for _ in range(args.random)]])
    elif args.seed is not None:
        raise UsageError("--seed goes with --random N")
    else:
        game = read_game(args)
    from . import _play  # the terminal game: only for this subcommand

    try:
        outcome = _play.play(game, engine_first=args.engine_first, stdin=sys.stdin, out=out)
    except _play.InputError as error:
        raise UsageError(str(error)) from None
    if args.json:
        kind = type(outcome.human)
        document = {
            "human": _json_number(outcome.human, kind),
            "engine": _json_number(outcome.engine, kind),
            "moves": [{"player": player, "kind": move.kind, "index": move.index,
                       "end": move.end, "coin": _json_number(move.coin, kind)}
                      for player, move in outcome.moves],
        }
        out.write(json.dumps(document) + "\n")
    return 0


# -- command line --------------------------------------------------------------------------


class _Parser(argparse.ArgumentParser):
    """argparse, but errors are one line and exit status 2 through ``UsageError``."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def _protect_negatives(argv: Sequence[str]) -> list[str]:
    """A leading space keeps argparse from taking a negative coin ("-3/2", "-1e5") for an
    option; every coin is stripped when it is read."""
    return [" " + a if _NEGATIVE.match(a) else a for a in argv]


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog=PROG,
        description="Solve the coins-in-a-row game exactly: two players alternately take a "
                    "coin from an end of a row (or the top of a stack). Prints both players' "
                    "totals under optimal play and the optimal play itself.",
        epilog="Other commands: " + "; ".join(
                   f"'{PROG} {name}{command.arguments}' ({command.summary})"
                   for name, command in SUBCOMMANDS.items())
               + f" ('{PROG} COMMAND --help' for each). Coins: integers (exact, any size), "
               "decimals like 0.1 (read exactly, as Decimal), fractions like 7/2; a number "
               f"has at most {MAX_DIGITS} digits, exponent included. Files and standard input "
               "are UTF-8 (a byte-order mark is skipped). Exit status 2 on bad input.",
    )
    parser.add_argument("coins", nargs="*", metavar="COIN",
                        help="the coins of one row; '-' reads coins from standard input")
    parser.add_argument("-f", "--file", metavar="FILE",
                        help="read coins (whitespace or comma separated) or a JSON document "
                             "{\"rows\": [[...]], \"stacks\": [[...]], \"forest\": {\"values\": "
                             "[...], \"parents\": [...]}} from FILE ('-': stdin); a forest's "
                             "parents[i] is node i's parent, -1 for a root")
    parser.add_argument("--row", action="append", metavar="COINS",
                        help="a row, e.g. --row \"3 1 2\" (repeatable)")
    parser.add_argument("--stack", action="append", metavar="COINS",
                        help="a stack, top coin first (repeatable)")
    parser.add_argument("--float", action="store_true",
                        help="read every coin as a binary float (default: exact)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("-q", "--quiet", action="store_true",
                        help="print only the two profits: first second")
    parser.add_argument("--all", action="store_true",
                        help="show every move (a terminal otherwise sees a long play shortened)")
    parser.add_argument("--svg", metavar="FILE",
                        help=f"also draw the game and its play as SVG; a game of more than "
                             f"{MAX_COINS} coins is summarised: {MAX_COINS} coins drawn (the "
                             "first and last coins of each row, the top of each stack, the top "
                             "levels of the forest), the picture at most a few MB")
    parser.add_argument("--html", metavar="FILE",
                        help="also write a web page of the game stepping through its optimal "
                             "play (one self-contained file, works offline); a game of more "
                             f"than {HTML_MAX_COINS} coins gets a summary page (profits, value, "
                             f"the first {SUMMARY_MOVES} moves) instead")
    parser.add_argument("--strategy", metavar="NAME",
                        help="the first player's strategy (optimal, greedy, parity, lookahead, "
                             "random); plays a game against --vs")
    parser.add_argument("--vs", metavar="NAME", help="the second player's strategy")
    parser.add_argument("--seed", type=int, help="seed for the 'random' strategy")
    parser.add_argument("--version", action="version", version=f"%(prog)s {coinsrow.__version__}")
    return parser


@contextlib.contextmanager
def _unlimited_int_digits() -> Iterator[None]:
    """Integers of any size are read and printed whole (Python 3.11+ limits str <-> int
    conversion to 4300 digits by default); restored afterwards."""
    get = getattr(sys, "get_int_max_str_digits", None)
    if get is None:
        yield
        return
    previous = get()
    sys.set_int_max_str_digits(0)
    try:
        yield
    finally:
        sys.set_int_max_str_digits(previous)


def demo_command(argv: list[str], out: TextIO) -> int:
    """``coinsrow demo``: no arguments (``-h``/``--help``: what it shows)."""
    if argv in (["-h"], ["--help"]):
        out.write(f"usage: {PROG} demo\n\nSolves two examples from the literature (the "
                  "rows 1 2 1000 3 4 900 and 3 2 2 3 1 2)\nand shows why the even/odd "
                  "strategy is not optimal.\n")
        return 0
    if argv:
        raise UsageError(f"demo takes no arguments, got {argv[0]!r}")
    return demo(out)


class Subcommand(NamedTuple):
    arguments: str  # as the top-level help shows them
    summary: str
    run: Callable[[list[str], TextIO], int]


#: The subcommands, by name: the top-level help lists each one.
SUBCOMMANDS: dict[str, Subcommand] = {
    "demo": Subcommand("", "a solved example from the literature, and why", demo_command),
    "play": Subcommand(" [COIN ...]", "play against the engine in the terminal", play_command),
    "silver": Subcommand(" CELL...", "the Silver Dollar game", silver),
}


def _run(argv: list[str], out: TextIO) -> int:
    if argv and argv[0] in SUBCOMMANDS:
        return SUBCOMMANDS[argv[0]].run(argv[1:], out)
    args = _parser().parse_intermixed_args(_protect_negatives(argv))
    if args.strategy or args.vs:
        return versus(args, out)
    return solve(args, out)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``coinsrow`` command with ``argv`` (default ``sys.argv[1:]``); the exit status.

    >>> main(["--quiet", "3", "2", "2", "3", "1", "2"])
    8 5
    0
    """
    arguments = list(sys.argv[1:] if argv is None else argv)
    out = sys.stdout
    try:
        with _unlimited_int_digits(), decimal.localcontext(EXACT_DECIMAL):
            return _run(arguments, out)
    except UsageError as error:
        message = " ".join(str(error).split())
        print(f"{PROG}: error: {message}", file=sys.stderr)
        return EXIT_USAGE
    except decimal.DecimalException as error:
        print(f"{PROG}: error: exact decimal arithmetic failed ({type(error).__name__}): the "
              "numbers are too large; try --float", file=sys.stderr)
        return EXIT_USAGE
    except RecursionError:
        print(f"{PROG}: error: the input is nested too deeply", file=sys.stderr)
        return EXIT_USAGE
    except MemoryError:
        print(f"{PROG}: error: out of memory: the game is too large for this machine",
              file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except SystemExit as exit_:  # --help, --version
        return exit_.code if isinstance(exit_.code, int) else 0
    except BrokenPipeError:
        # The reader went away (e.g. "| head"): not an error. Point stdout at devnull so that
        # Python's flush at exit does not report the broken pipe again.
        with contextlib.suppress(OSError, ValueError, AttributeError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        return 0
