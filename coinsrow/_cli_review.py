"""``coinsrow analyze`` and ``coinsrow explain``: a played game reviewed, the algorithm shown.

    coinsrow analyze 1 2 1000 3 4 900 --moves "l r r l l l"      each move's worth and loss
    coinsrow analyze -f game.json --moves-file moves.json --html review.html
    coinsrow explain 3 2 2 3 1 2                                 Fusion, Fruitless, Greedy

Moves, in ``--moves`` (separated by spaces or commas) or as the strings of a JSON list in
``--moves-file``: ``l``/``r`` (``left``/``right``) on a game of one row; ``row I left``,
``row I right``, ``stack I``, ``node N`` on any game (the words ``coinsrow play`` reads). A
JSON list may also hold ``[kind, index, end]`` triples or ``{"kind", "index", "end"}``
objects. Exit status 2 for bad input, with one line naming the move's turn.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TextIO

from ._analysis import Analysis, analyze
from ._cli_input import CliParser, UsageError, add_game_arguments, protect_negatives, read_game
from ._cli_output import json_number
from ._explain import explain
from ._game import Game

__all__ = ["analyze_command", "explain_command", "parse_moves", "write_file"]

#: Words that name the ends of a game of one row.
_ENDS = {"l": "left", "left": "left", "r": "right", "right": "right"}
#: The most moves a --moves-file may list (a game of a million coins is long enough to read).
MAX_MOVES = 10_000_000


def parse_moves(text: str, one_row: bool, where: str = "--moves") -> list[Any]:
    """The moves named in ``text``: ``"left"``/``"right"`` or ``(kind, index, end)`` triples.

    Parameters
    ----------
    text : str
        Moves separated by spaces or commas: ``l``, ``r``, ``left``, ``right`` (one row);
        ``row I left|right``, ``stack I``, ``node N``.
    one_row : bool
        Whether the game is one row (only then do ``l``/``r`` stand alone).
    where : str
        Where the text comes from, for messages.

    Returns
    -------
    list
        One entry a move, as ``analyze`` takes them.

    Raises
    ------
    UsageError
        For a word that names no move (the message names the move's number).

    Cost: O(length of the text).
    """
    words = text.replace(",", " ").lower().split()
    moves: list[Any] = []
    i = 0
    while i < len(words):
        word = words[i]
        turn = len(moves)
        if word in _ENDS and one_row:
            moves.append(_ENDS[word])
            i += 1
        elif word == "row" and i + 2 < len(words) and words[i + 2] in _ENDS:
            moves.append(("row", _number(words[i + 1], where, turn), _ENDS[words[i + 2]]))
            i += 3
        elif word in ("stack", "node") and i + 1 < len(words):
            kind, end = ("stack", "top") if word == "stack" else ("tree", "root")
            moves.append((kind, _number(words[i + 1], where, turn), end))
            i += 2
        else:
            shown = word if len(word) <= 20 else word[:17] + "..."
            hint = ("l or r" if one_row else "'row I left', 'row I right', 'stack I' or "
                    "'node N'")
            raise UsageError(f"{where}: move {turn + 1} ({shown!r}) is not a move: write "
                             f"{hint}")
    return moves


def _number(word: str, where: str, turn: int) -> int:
    if not word.isdigit() or len(word) > 18:
        raise UsageError(f"{where}: move {turn + 1}: {word[:20]!r} is not an index (0, 1, ...)")
    return int(word)


def _moves_from_file(path: str, one_row: bool) -> list[Any]:
    """The moves of a JSON file: a list of move strings, [kind, index, end] triples or
    {"kind", "index", "end"} objects."""
    try:
        with open(path, encoding="utf-8-sig") as file:
            document = json.load(file)
    except OSError as error:
        raise UsageError(f"cannot read {path!r}: {error.strerror or error}") from None
    except (ValueError, RecursionError) as error:
        raise UsageError(f"--moves-file {path!r}: not JSON ({str(error)[:80]})") from None
    if not isinstance(document, list) or len(document) > MAX_MOVES:
        raise UsageError(f"--moves-file {path!r}: expected a JSON list of moves")
    moves: list[Any] = []
    for i, item in enumerate(document):
        if isinstance(item, str):
            found = parse_moves(item, one_row, f"--moves-file {path!r}")
            if len(found) != 1:
                raise UsageError(f"--moves-file {path!r}: entry {i + 1} is not one move")
            moves.extend(found)
            continue
        if isinstance(item, dict):
            item = [item.get("kind"), item.get("index"), item.get("end")]
        if (isinstance(item, list) and len(item) == 3 and all(isinstance(x, str) for x in
                                                               (item[0], item[2]))
                and type(item[1]) is int):
            moves.append(tuple(item))
            continue
        raise UsageError(f"--moves-file {path!r}: entry {i + 1} is not a move (a string such "
                         "as 'row 0 left', a [kind, index, end] list or an object)")
    return moves


def write_file(path: str, text: Callable[[], str]) -> None:
    """Write ``text()`` into ``path``; a one-line usage error if it cannot be written."""
    if not path.strip():
        raise UsageError("the output file needs a name")
    try:
        with open(path, "w", encoding="utf-8") as file:
            file.write(text())
    except OSError as error:
        raise UsageError(f"cannot write {path!r}: {error.strerror or error}") from None


def _one_row(game: Game) -> bool:
    return len(game.rows) == 1 and not game.stacks and game.forest is None


def _game_parser(prog: str, description: str, epilog: str) -> CliParser:
    parser = CliParser(prog=prog, description=description, epilog=epilog)
    add_game_arguments(parser, standard_input=True)
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--html", metavar="FILE",
                        help="also write a self-contained web page stepping through it")
    return parser


def analyze_command(argv: list[str], out: TextIO) -> int:
    """``coinsrow analyze``: review the moves of a played game."""
    parser = _game_parser(
        "coinsrow analyze",
        "Review a played game: each move's worth (the coin minus what the opponent can then "
        "gain) against the best gain there, and its loss (0 for an optimal move); both "
        "players' totals and total losses. The moves may be the whole game or its beginning.",
        "Moves: l, r (one row); 'row I left', 'row I right', 'stack I', 'node N'. Example: "
        "coinsrow analyze 1 2 1000 3 4 900 --moves \"l r r l l l\"")
    parser.add_argument("--moves", metavar="MOVES",
                        help="the moves played, separated by spaces or commas")
    parser.add_argument("--moves-file", metavar="FILE",
                        help="the moves played, as a JSON list (of move strings, [kind, "
                             "index, end] lists or objects)")
    parser.add_argument("--svg", metavar="FILE", help="also draw the game as it was played")
    args = parser.parse_intermixed_args(protect_negatives(argv))
    if (args.moves is None) == (args.moves_file is None):
        raise UsageError("give the moves played: --moves \"l r ...\" or --moves-file FILE "
                         "(one of the two)")
    for option, path in (("--html", args.html), ("--svg", args.svg)):
        if path is not None and not path.strip():
            raise UsageError(f"{option} needs a file name")
    game = read_game(args)
    one_row = _one_row(game)
    moves = parse_moves(args.moves, one_row) if args.moves is not None else \
        _moves_from_file(args.moves_file, one_row)
    try:
        analysis = analyze(game, moves)
    except (TypeError, ValueError) as error:
        raise UsageError(str(error)) from None
    if args.svg is not None:
        write_file(args.svg, analysis.to_svg)
    if args.html is not None:
        write_file(args.html, analysis.to_html)
    if args.json:
        out.write(json.dumps(analysis_json(analysis)) + "\n")
    else:
        out.write("\n".join(analysis.lines()) + "\n")
    return 0


def analysis_json(analysis: Analysis) -> dict[str, Any]:
    """The review as the command line writes it in JSON (numbers as the main command's:
    ints and floats as JSON numbers, Fractions and Decimals as exact strings)."""
    kind = type(analysis.optimal)

    def number(x: Any) -> Any:
        return json_number(x, kind)

    return {
        "number_type": kind.__name__,
        "optimal": number(analysis.optimal),
        "first": number(analysis.first), "second": number(analysis.second),
        "losses": {"first": number(analysis.losses[0]),
                   "second": number(analysis.losses[1])},
        "finished": analysis.finished,
        "moves": [{"turn": r.turn + 1, "player": "first" if r.player == 0 else "second",
                   "kind": r.move.kind, "index": r.move.index, "end": r.move.end,
                   "position": r.move.position, "coin": number(r.coin),
                   "best": number(r.best), "worth": number(r.worth), "loss": number(r.loss)}
                  for r in analysis],
    }


def explain_command(argv: list[str], out: TextIO) -> int:
    """``coinsrow explain``: the algorithm's steps on a game of rows and stacks."""
    parser = _game_parser(
        "coinsrow explain",
        "Show Idziaszek's algorithm on this game, step by step: each Fusion (three "
        "neighbours x <= M > y become x - M + y), each Fruitless move on a stack, the "
        "reduced rows, the Greedy phase (largest value first, turn by turn), the value and "
        "the optimal play that follows. Long games are summarised.",
        "Example: coinsrow explain 3 2 2 3 1 2")
    args = parser.parse_intermixed_args(protect_negatives(argv))
    if args.html is not None and not args.html.strip():
        raise UsageError("--html needs a file name")
    game = read_game(args)
    try:
        explanation = explain(game)
    except (TypeError, ValueError) as error:
        raise UsageError(str(error)) from None
    if args.html is not None:
        write_file(args.html, explanation.to_html)
    if args.json:
        out.write(json.dumps(explanation.to_json()) + "\n")
    else:
        out.write(str(explanation) + "\n")
    return 0
