"""The ``coinsrow`` command: solve a game from the shell and show the optimal play.

    coinsrow 3 2 2 3 1 2                  one row on the command line
    coinsrow - < coins.txt                coins from standard input (whitespace or commas)
    coinsrow -f game.json                 a file: coins, a JSON list of rows [[...], [...]], or
                                          {"rows": [[...]], "stacks": [[...]],
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
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from decimal import Decimal
from typing import Any, NamedTuple, TextIO

import coinsrow

from ._cli_input import (
    INTEGER,
    MAX_DIGITS,
    CliParser,
    UsageError,
    add_game_arguments,
    check_digits,
    protect_negatives,
    read_game,
    show_token,
)
from ._cli_output import (
    describe_move,
    echo,
    json_number,
    json_play,
    json_profits,
    table,
    write_json,
    write_lines,
    zero_of,
)
from ._cli_review import analyze_command, explain_command, write_file
from ._dispatch import EXACT_DECIMAL
from ._game import Game, play_moves
from ._html import HTML_MAX_COINS, SUMMARY_MOVES
from ._svg import MAX_COINS, game_svg, tidy_profits
from ._text import format_number

__all__ = ["main"]

PROG = "coinsrow"
EXIT_USAGE = 2

DEMO_ROW = (1, 2, 1000, 3, 4, 900)      # from the puzzle write-up "Coins Game" (2011)
DEMO_ROW_2 = (3, 2, 2, 3, 1, 2)         # from the interview write-up "Coins in a Line"


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
    zero = zero_of(profits.first)
    if args.svg is not None:
        _write_svg(game, args.svg)
    if args.html is not None:
        _write_html(game, args.html)
    if args.json:
        document: dict[str, Any] = {"number_type": kind.__name__}
        if not args.quiet:
            document["rows"] = [[json_number(c, kind) for c in r] for r in game.rows]
            document["stacks"] = [[json_number(c, kind) for c in s] for s in game.stacks]
            if game.forest is not None:
                values, parents = game.forest
                document["forest"] = {"values": [json_number(c, kind) for c in values],
                                      "parents": list(parents)}
        document["profits"] = json_profits(profits, kind)
        if args.quiet:
            write_json(out, document)
            return 0
        document["value"] = json_number(profits.first - profits.second, kind)
        first = next(json_play(play_moves(game), zero, kind), None)
        document["best_move"] = first
        write_json(out, document, json_play(play_moves(game), zero, kind))
        return 0
    if args.quiet:
        out.write(f"{format_number(profits.first)} {format_number(profits.second)}\n")
        return 0
    lines = [f"row {i}: {echo(r)}" for i, r in enumerate(game.rows)]
    lines += [f"stack {i} (top first): {echo(s)}" for i, s in enumerate(game.stacks)]
    if game.forest is not None:
        values, parents = game.forest
        lines.append(f"forest ({len(values)} nodes, a move takes a root): values {echo(values)}")
        lines.append(f"  parents (-1: a root): {echo(parents)}")
    lines.append(f"profits: first {format_number(profits.first)}, "
                 f"second {format_number(profits.second)}")
    lines.append(f"value: {format_number(profits.first - profits.second)} "
                 f"(first minus second, both playing optimally)")
    lines.append(f"best move: {describe_move(game.best_move())}")
    lines.append("optimal play:")
    write_lines(out, lines)
    write_lines(out, table(lambda: play_moves(game), len(game), zero,
                             _abbreviate(args, out), indent="  "))
    return 0


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
    zero = zero_of(optimal.first)
    # The pictures are of the game played, not of the optimal play.
    if args.svg is not None:
        if len(game) > MAX_COINS:
            write_file(args.svg, lambda: game_svg(game, max_coins=MAX_COINS, play=moves,
                                                  totals=False))
        else:
            write_file(args.svg, lambda: coinsrow.analyze(game, moves).to_svg())
    if args.html is not None:
        write_file(args.html, lambda: coinsrow.analyze(game, moves).to_html())
    if args.json:
        kind = type(optimal.first)
        document: dict[str, Any] = {
            "number_type": kind.__name__,
            "strategies": {"first": first_name, "second": second_name},
            "profits": json_profits(playout, kind),
            "optimal_profits": json_profits(optimal, kind),
        }
        write_json(out, document, None if args.quiet else json_play(moves, zero, kind))
        return 0
    if args.quiet:
        out.write(f"{format_number(playout.first)} {format_number(playout.second)}\n")
        return 0
    write_lines(out, [f"first player: {first_name}, second player: {second_name}"])
    write_lines(out, table(lambda: moves, len(moves), zero, _abbreviate(args, out),
                             indent="  "))
    write_lines(out, [f"result: first {format_number(playout.first)}, "
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
        f"Row: {echo(row)}   (from the puzzle write-up \"Coins Game\")",
        f"  Even/odd strategy: odd places hold {spelled(row[0::2])}, even places "
        f"{spelled(row[1::2])}.",
        f"  Going first, she can take every {parity_class}-place coin (the second player then "
        f"only finds",
        f"  {other_class}-place coins at the ends), so she never loses: {parity_sum} to "
        f"{other_sum}.",
        f"  But the optimum is {profits.first} to {profits.second}:",
    ]
    lines += table(lambda: moves, len(moves), 0, abbreviate=False, indent="    ")
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
        f"Row: {echo(row2)}   (from the interview write-up \"Coins in a Line\")",
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
    parser = CliParser(prog=f"{PROG} silver",
                     description="The Silver Dollar game (the CodeChef problem 'A Coin Game', "
                                 "September 2009): coins on cells 1, 2, ...; "
                                 "a move slides a coin left to an empty cell without jumping; "
                                 "who cannot move loses. Prints the winner and the preferred "
                                 "winning move (leftmost coin, furthest left).")
    parser.add_argument("cells", nargs="*", metavar="CELL", help="the cells holding coins")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_intermixed_args(protect_negatives(argv))
    cells = []
    for i, token in enumerate(args.cells, 1):
        text = token.strip()
        if not INTEGER.fullmatch(text):
            raise UsageError(f"argument {i}: {show_token(text)} is not a cell number "
                             "(a positive integer)")
        check_digits(text, f"argument {i}")
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
    parser = CliParser(
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
    add_game_arguments(parser, standard_input=False)
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
    args = parser.parse_intermixed_args(protect_negatives(argv))
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
            "human": json_number(outcome.human, kind),
            "engine": json_number(outcome.engine, kind),
            "moves": [{"player": player, "kind": move.kind, "index": move.index,
                       "end": move.end, "coin": json_number(move.coin, kind)}
                      for player, move in outcome.moves],
        }
        out.write(json.dumps(document) + "\n")
    return 0


# -- command line --------------------------------------------------------------------------


def _parser() -> argparse.ArgumentParser:
    parser = CliParser(
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
    add_game_arguments(parser, standard_input=True)
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
    "analyze": Subcommand(" [COIN ...] --moves MOVES", "review a played game move by move",
                          analyze_command),
    "explain": Subcommand(" [COIN ...]", "the algorithm's steps on a game", explain_command),
}


def _run(argv: list[str], out: TextIO) -> int:
    if argv and argv[0] in SUBCOMMANDS:
        return SUBCOMMANDS[argv[0]].run(argv[1:], out)
    args = _parser().parse_intermixed_args(protect_negatives(argv))
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
