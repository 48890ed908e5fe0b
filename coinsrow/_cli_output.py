"""The command line's output: a play as an aligned table or as JSON, written in chunks.

A long play is read as it is written (never held as a list); numbers are written as a
person writes them (``format_number``), in JSON as numbers for ints and floats and as exact
strings for ``Fraction`` and ``Decimal``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, TextIO

from ._moves import Move, move_words
from ._text import format_number

__all__ = ["describe_move", "echo", "json_number", "json_play", "json_profits", "table",
           "write_json", "write_lines", "zero_of"]

# A terminal shows at most this many moves of a play (head and tail) unless --all.
_TTY_HEAD, _TTY_TAIL = 12, 6
# The echo of the input shows long components shortened.
_ECHO_MAX = 30
# Lines (or JSON entries of a play) per write.
_WRITE_CHUNK = 4096


def json_number(x: Any, number_type: type) -> Any:
    """A number for JSON in the game's number type: ints and floats as JSON numbers,
    Fraction and Decimal as exact strings (an int coin of a Fraction game is "2")."""
    if number_type is int:
        return x
    if number_type is float:
        return float(x)
    return format_number(number_type(x))


def _with_totals(moves: Iterable[Move], zero: Any) -> Iterator[tuple[Move, Any, Any]]:
    """(move, first total, second total) after every move, as the moves are read."""
    first = second = zero
    for t, move in enumerate(moves):
        if t % 2 == 0:
            first += move.coin
        else:
            second += move.coin
        yield move, first, second


def zero_of(profit: Any) -> Any:
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
        "coin": json_number(move.coin, number_type),
        "first_total": json_number(totals[0], number_type),
        "second_total": json_number(totals[1], number_type),
    }


def table(moves: Callable[[], Iterable[Move]], count: int, zero: Any, abbreviate: bool,
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
                yield t, (str(t + 1), players[t & 1], move_words(move, "column"),
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
    takes = max((len(move_words(Move(kind, index, end, 0, 0), "column"))
                 for kind, index, end in places), default=0)
    numbers = [max(len(str(a)), len(str(b))) for a, b in zip(low, high)]
    return [len(str(count)), len("second") if count > 1 else len("first"), takes, *numbers]


def write_lines(out: TextIO, lines: Iterable[str]) -> None:
    """Write lines in chunks (one write per few thousand lines)."""
    chunk: list[str] = []
    for text in lines:
        chunk.append(text)
        if len(chunk) >= _WRITE_CHUNK:
            out.write("\n".join(chunk) + "\n")
            chunk.clear()
    if chunk:
        out.write("\n".join(chunk) + "\n")


def write_json(out: TextIO, document: dict[str, Any],
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


def json_play(moves: Iterable[Move], zero: Any, kind: type) -> Iterator[dict[str, Any]]:
    """The play as JSON entries, one per move, with the running totals after it."""
    for t, (move, first, second) in enumerate(_with_totals(moves, zero), 1):
        yield _move_json(t, move, (first, second), kind)


def echo(values: Sequence[Any]) -> str:
    if len(values) > _ECHO_MAX:
        head = " ".join(format_number(x) for x in values[:10])
        tail = " ".join(format_number(x) for x in values[-5:])
        return f"{head} ... {tail}  ({len(values)} coins)"
    return " ".join(format_number(x) for x in values) if values else "(empty)"


def describe_move(move: Move) -> str:
    """The best move of the solved game's summary: "take 900 from the right end of row 0"."""
    taken = "at" if move.kind == "tree" else "from"
    return f"take {format_number(move.coin)} {taken} {move_words(move)}"


def json_profits(totals: Any, kind: type) -> dict[str, Any]:
    """``{"first": ..., "second": ...}`` of anything with ``.first`` and ``.second``."""
    return {"first": json_number(totals.first, kind),
            "second": json_number(totals.second, kind)}

