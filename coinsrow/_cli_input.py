"""The command line's input: coins and games from arguments, files and standard input.

Every coin is read exactly (``12`` an int, ``7/2`` a Fraction, ``0.1`` a Decimal) unless
``--float``; bad input is a ``UsageError`` naming the source, the line and the token. The
arguments that describe a game (coins, ``-f``, ``--row``, ``--stack``, ``--float``) are
defined once, in ``add_game_arguments``, for every command that reads a game.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from array import array
from collections.abc import Iterator, Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Any, NoReturn, cast

from ._coins import column
from ._game import Game

__all__ = ["MAX_DIGITS", "CliParser", "UsageError", "add_game_arguments", "check_digits",
           "parse_coins", "parse_json", "parse_number", "protect_negatives", "read_game",
           "show_token"]

# A number of the input has at most this many digits, counting a decimal's exponent as
# digits (1e-5 is 0.00001): exact arithmetic on longer numbers, and Python's conversions
# between ints and text (quadratic before Python 3.12), take more than a second a number.
# Checked on the text, before any conversion: "1e999999999" costs nothing to refuse.
MAX_DIGITS = 100_000

INTEGER = re.compile(r"[+-]?[0-9]+", re.ASCII)
# Text made only of plain integers and separators: read with int() in one pass.
_PLAIN_INTEGERS = re.compile(r"[0-9+\-, \t\n\r\f\v]*", re.ASCII)
_FRACTION = re.compile(r"[+-]?[0-9]+/[0-9]+", re.ASCII)
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?", re.ASCII)
_NEGATIVE = re.compile(r"-(?:[0-9]|\.[0-9])", re.ASCII)
_SEPARATORS = re.compile(r"[\s,]+")


class UsageError(Exception):
    """Bad input: reported on one line, exit status 2."""


def show_token(text: str) -> str:
    """A token quoted for an error message, cut short if it is long."""
    return repr(text if len(text) <= 40 else text[:37] + "...")




# -- reading coins -------------------------------------------------------------------------


def parse_number(token: str, where: str,
                 as_float: bool = False) -> int | float | Fraction | Decimal:
    """One coin from its text, exactly: ``12`` -> int, ``7/2`` -> Fraction, ``0.1`` -> Decimal.

    With ``as_float`` every coin is a float. ``UsageError`` naming the token otherwise.
    """
    text = token.strip()
    kind: type = int if INTEGER.fullmatch(text) else Fraction if _FRACTION.fullmatch(text) \
        else Decimal if _DECIMAL.fullmatch(text) else str
    if kind is str:
        raise UsageError(f"{where}: {show_token(text)} is not a number")
    check_digits(text, where)
    try:
        number: int | float | Fraction | Decimal = kind(text)
    except ZeroDivisionError:
        raise UsageError(f"{where}: {show_token(text)} divides by zero") from None
    return _to_float(number, where, text) if as_float else number


def check_digits(text: str, where: str) -> None:
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
        raise UsageError(f"{where}: {show_token(text)} is too long: a number has at most "
                         f"{MAX_DIGITS} digits, exponent included")


def _to_float(number: Any, where: str, text: str) -> float:
    """``--float``: the number as a float; one beyond the float range is an error."""
    try:
        result = float(number)
    except OverflowError:
        result = math.inf
    if not math.isfinite(result):
        raise UsageError(f"{where}: {show_token(text)} is too large for a float")
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
    """(rows, stacks, forest) from a JSON document: a list of coins (one row), a list of
    rows (lists of coins) or ``{"rows": [[...], ...], "stacks": [[...], ...], "forest":
    {"values": [...], "parents": [...]}}`` (every key optional; forest ``None`` when
    absent). Numbers with a fraction or an exponent are read as Decimal (exact), never
    through a binary float unless ``as_float``."""

    def reject_constant(name: str) -> NoReturn:
        raise UsageError(f"{source}: {name} is not a finite number")

    def read_int(number: str) -> int:
        check_digits(number, source)
        return int(number)

    def read_decimal(number: str) -> float | Decimal:
        check_digits(number, source)
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
    if isinstance(document, list):
        if all(not isinstance(x, list) for x in document):
            document = {"rows": [document]}
        elif all(isinstance(x, list) for x in document):  # a list of rows: a game of rows
            document = {"rows": document}
        else:
            row = next(i for i, x in enumerate(document) if isinstance(x, list))
            coin = next(i for i, x in enumerate(document) if not isinstance(x, list))
            raise UsageError(f"{source}: expected a list of coins (one row) or a list of rows "
                             f"(lists of coins), got a list of both: item {row} is a list, "
                             f"item {coin} is {_json_text(document[coin])}")
    if not isinstance(document, dict):
        raise UsageError(f"{source}: expected a JSON object {{\"rows\": [[...]], \"stacks\": "
                         f"[[...]], \"forest\": {{...}}}}, a list of coins (one row) or a list "
                         f"of rows, got {type(document).__name__}")
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


# -- the arguments -------------------------------------------------------------------------


class CliParser(argparse.ArgumentParser):
    """argparse, but errors are one line and exit status 2 through ``UsageError``."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def protect_negatives(argv: Sequence[str]) -> list[str]:
    """A leading space keeps argparse from taking a negative coin ("-3/2", "-1e5") for an
    option; every coin is stripped when it is read."""
    return [" " + a if _NEGATIVE.match(a) else a for a in argv]



def add_game_arguments(parser: argparse.ArgumentParser, *, standard_input: bool) -> None:
    """The arguments that describe a game, as ``read_game`` reads them: positional coins,
    ``-f FILE``, ``--row``, ``--stack`` and ``--float``. ``standard_input``: '-' reads the
    coins (or the game) from standard input (``coinsrow play`` reads its moves there)."""
    if standard_input:
        parser.add_argument("coins", nargs="*", metavar="COIN",
                            help="the coins of one row; '-' reads coins from standard input")
        parser.add_argument("-f", "--file", metavar="FILE",
                            help="read coins (whitespace or comma separated), a JSON list "
                                 "of rows [[...], ...] or a JSON document {\"rows\": [[...]], "
                                 "\"stacks\": [[...]], "
                                 "\"forest\": {\"values\": [...], \"parents\": [...]}} from "
                                 "FILE ('-': stdin); a forest's parents[i] is node i's "
                                 "parent, -1 for a root")
    else:
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
