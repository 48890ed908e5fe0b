"""An SVG picture of a position and its optimal play (``Game._repr_svg_``, ``coinsrow --svg``).

Rows are drawn left to right, stacks as columns with the top coin first (at the top), the
trees of a forest with their roots at the top and every node joined to its parent. Every
coin is one ``<g class="coin first">`` / ``<g class="coin second">`` element: a disc coloured
by the player who takes it in the optimal play, its value inside, and under it the turn
(1 = the next move) at which it is taken. The two totals head the picture.
"""

from __future__ import annotations

import decimal
from array import array
from collections.abc import Iterable, Sequence
from decimal import Decimal
from typing import Any

from ._text import format_number

__all__ = ["MAX_COINS", "game_svg", "tidy_profits"]

#: ``coinsrow --svg`` draws a game of more coins as a summary of this many coins (about 2 MB:
#: each coin is one element of at most a few hundred bytes).
MAX_COINS = 5000


def escape(text: str) -> str:
    """``text`` with ``&``, ``<`` and ``>`` escaped for XML."""
    # Imported when drawing only: xml.sax.saxutils imports urllib.request, 26 ms at start-up
    # (python -X importtime), which the command line would pay on every call.
    from xml.sax.saxutils import escape as xml_escape

    return xml_escape(text)


def quoteattr(text: str) -> str:
    """``text`` escaped and quoted as an XML attribute value."""
    from xml.sax.saxutils import quoteattr as xml_quoteattr

    return xml_quoteattr(text)


PLAYERS = ("first", "second")
# Blue for the first player, vermilion for the second: distinguishable with the common
# colour-vision deficiencies, and white text stays readable on both.
COLOURS = {"first": "#1f5fa8", "second": "#c4461c"}

_RADIUS = 21
_CELL = 2 * _RADIUS + 8           # horizontal distance between two coins of a row
_LINE = 2 * _RADIUS + 26          # vertical distance between two coins (room for the turn)
_MARGIN = 12
_LABEL_WIDTH = 64                 # "row 12" left of a row
_STACK_WIDTH = 62                 # a stack's column ("stack 12" above it)
_ROW_WRAP = 20                    # a longer row continues on the next line
_MAX_LABEL = 6                    # longer coin values are shortened inside the disc
_TREE_LEVEL = _LINE + 18          # vertical distance between a node and its children
_TREE_GAP = _CELL // 2            # extra room between two trees
_EDGE = "#666666"
_MAX_TEXT = 300                   # longer numbers are shortened in titles and totals
_LEAST_SHARE = 2 * _ROW_WRAP      # a summary draws at least this much of a component


def tidy_profits(profits: Any, moves: Iterable[Any]) -> Any:
    """Decimal profits written as the sums of the coins each player takes in ``moves`` (an
    optimal play, read once): equal, but with the coins' own decimal places, where the
    library's halving writes 0.4 as 0.40. Other number types are returned unchanged."""
    if not isinstance(profits.first, Decimal):
        return profits
    with decimal.localcontext() as context:
        context.prec = decimal.MAX_PREC
        context.Emax, context.Emin = decimal.MAX_EMAX, decimal.MIN_EMIN
        context.traps[decimal.Inexact] = True
        sums = [Decimal(0), Decimal(0)]
        try:
            for t, move in enumerate(moves):
                sums[t & 1] += move.coin
        except decimal.DecimalException:  # pragma: no cover - sums of coins are exact
            return profits
    if tuple(sums) != (profits.first, profits.second):  # pragma: no cover - defensive
        return profits
    return type(profits)(*sums)


def _long_text(label: str) -> str:
    """A number's text for a title or a total, at most about _MAX_TEXT characters: a longer
    one keeps its start and says how long it is (the picture stays small)."""
    if len(label) <= _MAX_TEXT:
        return label
    return f"{label[:_MAX_TEXT - 40]}\u2026 ({len(label)} characters)"


def _disc_label(coin: Any) -> str:
    """The value inside a disc: exact when short, else "≈1.2e40" (the <title> has it all)."""
    label = format_number(coin)
    if len(label) <= _MAX_LABEL:
        return label
    try:
        if isinstance(coin, int):
            digits = str(abs(coin))
            approx = f"{'-' if coin < 0 else ''}{digits[0]}.{digits[1]}e{len(digits) - 1}"
        else:
            mantissa, _, exponent = format(float(coin), ".2g").partition("e")
            approx = f"{mantissa}e{int(exponent)}" if exponent else mantissa
    except (OverflowError, ValueError):
        return label[: _MAX_LABEL - 1] + "\u2026"
    return "\u2248" + approx


def _text(x: float, y: float, content: str, **attributes: Any) -> str:
    attrs = "".join(f" {name.rstrip('_').replace('_', '-')}={quoteattr(str(v))}"
                    for name, v in attributes.items())
    return f'<text x="{x:g}" y="{y:g}"{attrs}>{escape(content)}</text>'


def _coin(cx: float, cy: float, coin: Any, turn: int | None, where: str) -> str:
    """One coin: disc, value, turn; ``turn`` is None for a coin nobody takes (cannot happen
    in a finished play, kept so that a partial picture stays drawable)."""
    label = format_number(coin)
    player = PLAYERS[(turn - 1) % 2] if turn is not None else "none"
    fill = COLOURS.get(player, "#888888")
    shown = _disc_label(coin)
    size = {1: 15, 2: 15, 3: 14, 4: 13}.get(len(shown), 11)
    # Five characters and more are squeezed to the disc's width.
    fit = {"textLength": 2 * _RADIUS - 6, "lengthAdjust": "spacingAndGlyphs"} \
        if len(shown) >= 5 else {}
    taken = f"taken at turn {turn} by the {player} player" if turn is not None else "not taken"
    parts = [
        f'<g class="coin {player}">',
        f"<title>{escape(f'{where}: {_long_text(label)}, {taken}')}</title>",
        f'<circle cx="{cx:g}" cy="{cy:g}" r="{_RADIUS}" fill="{fill}" '
        f'stroke="#222222" stroke-width="1"/>',
        _text(cx, cy + size * 0.36, shown, class_="value", font_size=size,
              fill="#ffffff", font_weight="bold", text_anchor="middle", **fit),
    ]
    if turn is not None:
        parts.append(_text(cx, cy + _RADIUS + 14, str(turn), class_="turn", font_size=11,
                           fill="#333333", text_anchor="middle"))
    parts.append("</g>")
    return "".join(parts)


def _forest_layout(parents: Any) -> tuple[list[float], list[int], int]:
    """Where the nodes of a forest go: (x in leaf slots, depth, number of slots).

    Leaves take consecutive slots in depth-first order (children by node index), a parent
    sits midway between its first and last child, and each tree after the first starts half
    a slot further right. O(n), without recursion (paths may be deep).
    """
    n = len(parents)
    children: list[list[int]] = [[] for _ in range(n)]
    roots: list[int] = []
    for node, parent in enumerate(parents):
        (roots if parent < 0 else children[parent]).append(node)
    x = [0.0] * n
    depth = [0] * n
    slot = 0.0
    for k, root in enumerate(roots):
        if k:
            slot += _TREE_GAP / _CELL
        # Post-order with an explicit stack: (node, children visited?)
        stack = [(root, False)]
        while stack:
            node, visited = stack.pop()
            kids = children[node]
            if visited:
                x[node] = (x[kids[0]] + x[kids[-1]]) / 2
                continue
            if not kids:
                x[node] = slot
                slot += 1
                continue
            stack.append((node, True))
            for kid in reversed(kids):
                depth[kid] = depth[node] + 1
                stack.append((kid, False))
    return x, depth, int(-(-slot // 1))


def _forest_nodes(moves: Any, count: int) -> list[int]:
    """The original node numbers (as in ``Move.index``) of the ``count`` nodes left, in
    their order: every node left is taken by one tree move of the play."""
    nodes = sorted(m.index for m in moves if m.kind == "tree")
    return nodes if len(nodes) == count else list(range(count))


def game_svg(game: Any, max_coins: int | None = None, play: Iterable[Any] | None = None, *,
             totals: bool = True, profits: Any = None,
             bases: Sequence[int] | None = None) -> str:
    """An SVG drawing of ``game`` (a ``Game``) and one optimal play from it.

    O(n log k) for the play (O(n log n) with a forest) plus O(n) for the drawing. One
    ``<g class="coin ...">`` per coin left in the game (rows, then stacks, then the forest's
    nodes in their order); all text is XML-escaped, and numbers longer than a few hundred
    characters are shortened (with their length) in titles and totals. ``totals=False``
    leaves the two final totals out of the heading (a page that shows running totals beside
    the picture).

    With ``max_coins``, a game of more coins is drawn as a summary of at most that many
    (``_summary_svg``): the picture's size stays bounded. ``play`` is the game's optimal
    play (default ``game.play()``), read once; a summary reads it as it goes, so an iterator
    keeps a long play out of memory.

    Any play can be drawn, optimal or not, whole or a beginning: ``profits`` are then its
    totals (``(first, second)``; default ``game.profits()``, the optimal play's), and
    ``bases`` each component's original position of its first coin left (rows, then stacks;
    default: read from the play, which a play that takes every coin tells), so that a coin
    nobody has taken yet is drawn grey, without a turn.

    >>> from coinsrow import Game
    >>> svg = game_svg(Game(rows=[[3, 2, 2, 3, 1, 2]]))
    >>> svg.count('class="coin ')
    6
    """
    if max_coins is not None and len(game) > max_coins:
        return _summary_svg(game, max_coins, game.play() if play is None else play, totals)
    rows = [tuple(r) for r in game.rows]
    stacks = [tuple(s) for s in game.stacks]
    forest = getattr(game, "forest", None)
    moves = game.play() if play is None else list(play)
    profits = tidy_profits(game.profits() if profits is None else profits, moves)

    # The turn of every coin, keyed by (kind, index, position in the original component);
    # a component's first coin left has the smallest position among its moves.
    turn_of: dict[tuple[str, int, int], int] = {}
    offset: dict[tuple[str, int], int] = {}
    for t, move in enumerate(moves, 1):
        turn_of[(move.kind, move.index, move.position)] = t
        key = (move.kind, move.index)
        offset[key] = min(offset.get(key, move.position), move.position)
    if bases is not None:
        offset.update({("row", i): b for i, b in enumerate(bases[:len(rows)])})
        offset.update({("stack", i): b for i, b in enumerate(bases[len(rows):])})

    body, width, y = _header(profits, totals=totals)
    for i, row in enumerate(rows):
        base = offset.get(("row", i), 0)
        width, y = _draw_row(body, width, y, i, [(base, row)], 0, turn_of)

    if stacks:
        width, y = _draw_stacks(body, width, y, [(i, stack, offset.get(("stack", i), 0), 0)
                                                for i, stack in enumerate(stacks)], turn_of)

    if forest is not None and forest[0]:
        values, parents = forest
        nodes = _forest_nodes(moves, len(values))
        turns = [turn_of.get(("tree", node, node)) for node in nodes]
        width, y = _draw_forest(body, width, y, values, parents, nodes, turns, 0)

    if not moves:
        body.append(_text(_MARGIN, y + 14, "no coins left", class_="label", font_size=13,
                          fill="#777777"))
        y += 24
    return _document(body, width, y, profits)


def _header(profits: Any, note: str = "",
            totals: bool = True) -> tuple[list[str], float, float]:
    """The two totals (unless ``totals`` is false) and the caption: (body, width, y below
    them)."""
    body: list[str] = []
    y = _MARGIN + 16
    header = (f"first {_long_text(format_number(profits.first))}",
              f"second {_long_text(format_number(profits.second))}")
    x = _MARGIN
    for player, text in zip(PLAYERS, header if totals else ()):
        body.append(f'<circle cx="{x + 7}" cy="{y - 5}" r="7" fill="{COLOURS[player]}"/>')
        body.append(_text(x + 20, y, text, class_=f"total {player}", font_size=15,
                          font_weight="bold", fill="#222222"))
        x += 20 + 10 * len(text) + 24
    caption = "number under a coin: the turn it is taken"
    body.append(_text(x, y, caption, class_="caption", font_size=12, fill="#555555"))
    width = x + 7 * len(caption)
    y += 18
    if note:
        body.append(_text(_MARGIN, y + 4, note, class_="summary", font_size=12,
                          fill="#555555"))
        width = max(width, _MARGIN + 7 * len(note))
        y += 18
    return body, width, y


def _gap_label(body: list[str], x: float, y: float, text: str, **attributes: Any) -> None:
    body.append(_text(x, y, text, class_="gap", font_size=12, fill="#777777", **attributes))


def _draw_row(body: list[str], width: float, y: float, i: int,
              pieces: Sequence[tuple[int, Sequence[Any]]], hidden: int,
              turn_of: dict[tuple[str, int, int], int]) -> tuple[float, float]:
    """Row i as pieces (first position, coins), one line apart with a line saying how many
    coins between them are not drawn (``hidden``): a whole row is one piece."""
    top = y + _RADIUS + 6
    body.append(_text(_MARGIN, top + 5, f"row {i}", class_="label", font_size=13,
                      fill="#222222"))
    if not any(coins for _, coins in pieces):
        body.append(_text(_MARGIN + _LABEL_WIDTH, top + 5, "(empty)", class_="label",
                          font_size=12, fill="#777777"))
    line = 0
    for k, (base, coins) in enumerate(pieces):
        if k:
            after = pieces[k - 1][0] + len(pieces[k - 1][1])
            _gap_label(body, _MARGIN + _LABEL_WIDTH, top + line * _LINE + 5,
                       f"\u22ef {hidden} coins not drawn (positions {after} to {base - 1})")
            line += 1
        for j, coin in enumerate(coins):
            row_line, column = divmod(j, _ROW_WRAP)
            cx: float = _MARGIN + _LABEL_WIDTH + _RADIUS + column * _CELL
            cy = top + (line + row_line) * _LINE
            body.append(_coin(cx, cy, coin, turn_of.get(("row", i, base + j)),
                              f"row {i}, coin {base + j}"))
        line += max(1, -(-len(coins) // _ROW_WRAP))
        width = max(width, _MARGIN + _LABEL_WIDTH + min(len(coins), _ROW_WRAP) * _CELL)
    return width, y + line * _LINE


def _draw_stacks(body: list[str], width: float, y: float,
                 stacks: Sequence[tuple[int, Sequence[Any], int, int]],
                 turn_of: dict[tuple[str, int, int], int]) -> tuple[float, float]:
    """Stacks side by side as (index, top coins drawn, first position, coins not drawn
    below them)."""
    y += 6
    tallest = max(len(s) + (1 if hidden else 0) for _, s, _, hidden in stacks)
    for column, (i, stack, base, hidden) in enumerate(stacks):
        cx = _MARGIN + column * _STACK_WIDTH + _STACK_WIDTH / 2
        body.append(_text(cx, y + 12, f"stack {i}", class_="label", font_size=13,
                          fill="#222222", text_anchor="middle"))
        if not stack:
            body.append(_text(cx, y + 36, "(empty)", class_="label", font_size=12,
                              fill="#777777", text_anchor="middle"))
        for j, coin in enumerate(stack):
            cy = y + 22 + _RADIUS + j * _LINE
            body.append(_coin(cx, cy, coin, turn_of.get(("stack", i, base + j)),
                              f"stack {i}, coin {base + j}"))
        if hidden:
            _gap_label(body, cx, y + 22 + 10 + len(stack) * _LINE, f"\u22ef {hidden} more",
                       text_anchor="middle")
    width = max(width, _MARGIN + len(stacks) * _STACK_WIDTH)
    return width, y + 22 + max(tallest, 1) * _LINE


def _draw_forest(body: list[str], width: float, y: float, values: Sequence[Any],
                 parents: Sequence[int], nodes: Sequence[int], turns: Sequence[int | None],
                 hidden: int) -> tuple[float, float]:
    """A forest (``parents`` indexing ``values``), node j labelled with ``nodes[j]`` and
    taken at ``turns[j]``; ``hidden`` deeper nodes are not drawn."""
    slot_of, depth, slots = _forest_layout(parents)
    y += 6
    top = y + _RADIUS + 6
    body.append(_text(_MARGIN, top + 5, "forest", class_="label", font_size=13,
                      fill="#222222"))
    left = _MARGIN + _LABEL_WIDTH + _RADIUS
    centres = [(left + slot_of[j] * _CELL, top + depth[j] * _TREE_LEVEL)
               for j in range(len(values))]
    # Edges first, under the discs; each leaves its parent below the parent's turn.
    edges = [f'<line x1="{centres[p][0]:g}" y1="{centres[p][1] + _RADIUS + 19:g}" '
             f'x2="{cx:g}" y2="{cy - _RADIUS:g}"/>'
             for (cx, cy), p in zip(centres, parents) if p >= 0]
    if edges:
        body.append(f'<g class="edges" stroke="{_EDGE}" stroke-width="1.5">'
                    + "".join(edges) + "</g>")
    for j, coin in enumerate(values):
        node_x, node_y = centres[j]
        body.append(_coin(node_x, node_y, coin, turns[j], f"tree node {nodes[j]}"))
    width = max(width, _MARGIN + _LABEL_WIDTH + slots * _CELL)
    y += (max(depth) + 1) * _TREE_LEVEL
    if hidden:
        _gap_label(body, _MARGIN + _LABEL_WIDTH, y, f"\u22ef {hidden} deeper nodes not drawn")
        y += 18
    return width, y


def _document(body: list[str], width: float, y: float, profits: Any) -> str:
    width = int(width + _MARGIN)
    height = int(y + _MARGIN)
    title = (f"coins: first player {_long_text(format_number(profits.first))}, "
             f"second player {_long_text(format_number(profits.second))}")
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Verdana, sans-serif" '
        f'role="img">'
        f"<title>{escape(title)}</title>"
        f'<rect width="100%" height="100%" fill="#ffffff"/>'
        + "".join(body)
        + "</svg>"
    )


# -- a summary of a large game -------------------------------------------------------------


def _shares(lengths: Sequence[int], budget: int) -> list[int]:
    """How many coins of each component a summary draws, at most ``budget`` in all: the
    components in order, each at least min(its length, _LEAST_SHARE) while the budget lasts
    (the rest get 0: not drawn), then one common share s, the largest with
    sum(min(length, s)) <= budget (water-filling)."""
    drawn = used = 0
    for length in lengths:
        need = min(length, _LEAST_SHARE)
        if used + need > budget:
            break
        used += need
        drawn += 1
    active = lengths[:drawn]
    low, high = _LEAST_SHARE, max(active, default=0)
    while low < high:
        middle = (low + high + 1) // 2
        if sum(min(length, middle) for length in active) <= budget:
            low = middle
        else:
            high = middle - 1
    return [min(length, low) for length in active] + [0] * (len(lengths) - drawn)


def _shallow_nodes(parents: Sequence[int], share: int) -> list[int]:
    """The nodes of the top levels of a forest, as many whole levels as fit in ``share``
    (at least the first ``share`` roots): every node's parent is among them. O(n)."""
    children: list[list[int]] = [[] for _ in parents]
    level = [node for node, parent in enumerate(parents) if parent < 0]
    for node, parent in enumerate(parents):
        if parent >= 0:
            children[parent].append(node)
    chosen: list[int] = []
    while level and len(chosen) + len(level) <= share:
        chosen += level
        level = [kid for node in level for kid in children[node]]
    if not chosen:
        chosen = level[:share]
    return sorted(chosen)


def _summary_svg(game: Any, max_coins: int, play: Iterable[Any], totals: bool = True) -> str:
    """A game of more than ``max_coins`` coins, drawn with at most ``max_coins`` of them:
    each row's first and last coins (a line between says how many are not drawn), each
    stack's top coins, the forest's top levels; components beyond the budget are only
    counted. Turns and totals are those of the whole optimal play, read once from ``play``
    (O(n) time; memory O(max_coins) beyond the game, plus O(forest) for a forest)."""
    rows = game.rows
    stacks = game.stacks
    forest = getattr(game, "forest", None)
    values, parents = forest if forest is not None else ((), ())
    total = len(game)
    # Every component's first position left: the position of its left (top) coin.
    first_position: dict[tuple[str, int], int] = {}
    for move in game.moves():
        if move.kind != "tree":
            key = (move.kind, move.index)
            first_position[key] = min(first_position.get(key, move.position), move.position)
    lengths = [len(r) for r in rows] + [len(s) for s in stacks]
    shares = _shares(lengths + ([len(values)] if values else []), max_coins)

    drawn: set[tuple[str, int, int]] = set()
    row_pieces = []
    for i, row in enumerate(rows):
        share = shares[i]
        if share == 0 and len(row):
            continue
        base = first_position.get(("row", i), 0)
        head = (share + 1) // 2 if share < len(row) else share
        tail = share - head
        pieces = [(base, row[:head])]
        if tail:
            pieces.append((base + len(row) - tail, row[len(row) - tail:]))
        row_pieces.append((i, pieces, len(row) - share))
        drawn.update(("row", i, p) for start, coins in pieces
                     for p in range(start, start + len(coins)))
    stack_parts = []
    for i, stack in enumerate(stacks):
        share = shares[len(rows) + i]
        if share == 0 and len(stack):
            continue
        base = first_position.get(("stack", i), 0)
        stack_parts.append((i, stack[:share], base, len(stack) - share))
        drawn.update(("stack", i, p) for p in range(base, base + share))
    chosen = _shallow_nodes(parents, shares[-1]) if values else []

    # One pass over the play: the turns of the coins drawn, the forest's node numbers, and
    # the Decimal profits as each player's sum (tidy_profits).
    turn_of: dict[tuple[str, int, int], int] = {}
    tree_turns: dict[int, int] = {}
    tree_nodes = array("q")
    profits = game.profits()
    decimal_game = isinstance(profits.first, Decimal)
    sums: list[Any] = [Decimal(0), Decimal(0)]
    with decimal.localcontext() as context:
        context.prec = decimal.MAX_PREC  # exact sums of the coins (see tidy_profits)
        context.Emax, context.Emin = decimal.MAX_EMAX, decimal.MIN_EMIN
        for t, move in enumerate(play, 1):
            coin_key = (move.kind, move.index, move.position)
            if move.kind == "tree":
                tree_nodes.append(move.index)
                tree_turns[move.index] = t
            elif coin_key in drawn:
                turn_of[coin_key] = t
            if decimal_game:
                sums[(t - 1) & 1] += move.coin
    if decimal_game and tuple(sums) == (profits.first, profits.second):
        profits = type(profits)(*sums)

    shown = sum(len(c) for _, pieces, _ in row_pieces for _, c in pieces)
    shown += sum(len(s) for _, s, _, _ in stack_parts) + len(chosen)
    skipped = (len(rows) - len(row_pieces)) + (len(stacks) - len(stack_parts))
    note = (f"summary: {shown} of {total} coins drawn (the first and last coins of each row, "
            "the top of each stack, the top levels of the forest)")
    body, width, y = _header(profits, note, totals)
    for i, pieces, hidden in row_pieces:
        width, y = _draw_row(body, width, y, i, pieces, hidden, turn_of)
    if stack_parts:
        width, y = _draw_stacks(body, width, y, stack_parts, turn_of)
    if skipped:
        _gap_label(body, _MARGIN, y + 14, f"\u22ef {skipped} more rows and stacks not drawn")
        y += 24
    if values and not chosen:
        _gap_label(body, _MARGIN, y + 14, f"\u22ef a forest of {len(values)} nodes not drawn")
        y += 24
    if chosen:
        nodes = sorted(tree_nodes)
        index = {node: j for j, node in enumerate(chosen)}
        sub_parents = [index.get(parents[j], -1) for j in chosen]
        names = [nodes[j] for j in chosen] if len(nodes) == len(values) else list(chosen)
        turns = [tree_turns.get(name) for name in names]
        width, y = _draw_forest(body, width, y, [values[j] for j in chosen], sub_parents,
                                names, turns, len(values) - len(chosen))
    return _document(body, width, y, profits)
