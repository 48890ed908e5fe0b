"""An SVG picture of a position and its optimal play (``Game._repr_svg_``, ``coinsrow --svg``).

Rows are drawn left to right, stacks as columns with the top coin first (at the top), the
trees of a forest with their roots at the top and every node joined to its parent. Every
coin is one ``<g class="coin first">`` / ``<g class="coin second">`` element: a disc coloured
by the player who takes it in the optimal play, its value inside, and under it the turn
(1 = the next move) at which it is taken. The two totals head the picture.
"""

from __future__ import annotations

import decimal
from decimal import Decimal
from fractions import Fraction
from typing import Any
from xml.sax.saxutils import escape, quoteattr

__all__ = ["format_number", "game_svg", "tidy_profits"]

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


def format_number(x: Any) -> str:
    """A number as a person writes it, exactly: ``7``, ``7/2``, ``3.50``, ``0.1``.

    Ints in full, ``Fraction`` as ``p/q`` (or ``p`` when whole), ``Decimal`` in positional
    notation unless the exponent is extreme, floats by their shortest round-trip repr.
    """
    if isinstance(x, bool):
        return str(x)
    if isinstance(x, int):
        try:
            return str(x)
        except ValueError:  # beyond sys.get_int_max_str_digits()
            return f"<{x.bit_length()}-bit integer>"
    if isinstance(x, Fraction):
        return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"
    if isinstance(x, Decimal):
        exponent = x.as_tuple().exponent
        if isinstance(exponent, int) and -30 <= exponent <= 30:
            return format(x, "f")
        return str(x)
    if isinstance(x, float):
        return repr(x)
    return str(x)


def tidy_profits(profits: Any, moves: Any) -> Any:
    """Decimal profits written as the sums of the coins each player takes in ``moves`` (an
    optimal play): equal, but with the coins' own decimal places, where the library's
    halving writes 0.4 as 0.40. Other number types are returned unchanged."""
    if not isinstance(profits.first, Decimal):
        return profits
    with decimal.localcontext() as context:
        context.prec = decimal.MAX_PREC
        context.Emax, context.Emin = decimal.MAX_EMAX, decimal.MIN_EMIN
        context.traps[decimal.Inexact] = True
        try:
            first = sum((m.coin for m in moves[0::2]), Decimal(0))
            second = sum((m.coin for m in moves[1::2]), Decimal(0))
        except decimal.DecimalException:  # pragma: no cover - sums of coins are exact
            return profits
    if (first, second) != (profits.first, profits.second):  # pragma: no cover - defensive
        return profits
    return type(profits)(first, second)


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
        f"<title>{escape(f'{where}: {label}, {taken}')}</title>",
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


def game_svg(game: Any, *, totals: bool = True) -> str:
    """An SVG drawing of ``game`` (a ``Game``) and one optimal play from it.

    O(n log k) for the play (O(n log n) with a forest) plus O(n) for the drawing. One
    ``<g class="coin ...">`` per coin left in the game (rows, then stacks, then the forest's
    nodes in their order); all text is XML-escaped. ``totals=False`` leaves the two final
    totals out of the heading (a page that shows running totals beside the picture).

    >>> from coinsrow import Game
    >>> svg = game_svg(Game(rows=[[3, 2, 2, 3, 1, 2]]))
    >>> svg.count('class="coin ')
    6
    """
    rows = [tuple(r) for r in game.rows]
    stacks = [tuple(s) for s in game.stacks]
    forest = getattr(game, "forest", None)
    moves = game.play()
    profits = tidy_profits(game.profits(), moves)

    # The turn of every coin, keyed by (kind, index, position in the original component);
    # a component's first coin left has the smallest position among its moves.
    turn_of: dict[tuple[str, int, int], int] = {}
    offset: dict[tuple[str, int], int] = {}
    for t, move in enumerate(moves, 1):
        turn_of[(move.kind, move.index, move.position)] = t
        key = (move.kind, move.index)
        offset[key] = min(offset.get(key, move.position), move.position)

    body: list[str] = []
    y = _MARGIN + 16
    header = (f"first {format_number(profits.first)}", f"second {format_number(profits.second)}")
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

    for i, row in enumerate(rows):
        base = offset.get(("row", i), 0)
        lines = max(1, -(-len(row) // _ROW_WRAP))
        top = y + _RADIUS + 6
        body.append(_text(_MARGIN, top + 5, f"row {i}", class_="label", font_size=13,
                          fill="#222222"))
        if not row:
            body.append(_text(_MARGIN + _LABEL_WIDTH, top + 5, "(empty)", class_="label",
                              font_size=12, fill="#777777"))
        for j, coin in enumerate(row):
            line, column = divmod(j, _ROW_WRAP)
            cx: float = _MARGIN + _LABEL_WIDTH + _RADIUS + column * _CELL
            cy = top + line * _LINE
            body.append(_coin(cx, cy, coin, turn_of.get(("row", i, base + j)),
                              f"row {i}, coin {base + j}"))
        width = max(width, _MARGIN + _LABEL_WIDTH + min(len(row), _ROW_WRAP) * _CELL)
        y += lines * _LINE

    if stacks:
        y += 6
        tallest = max(len(s) for s in stacks)
        for i, stack in enumerate(stacks):
            base = offset.get(("stack", i), 0)
            cx = _MARGIN + i * _STACK_WIDTH + _STACK_WIDTH / 2
            body.append(_text(cx, y + 12, f"stack {i}", class_="label", font_size=13,
                              fill="#222222", text_anchor="middle"))
            if not stack:
                body.append(_text(cx, y + 36, "(empty)", class_="label", font_size=12,
                                  fill="#777777", text_anchor="middle"))
            for j, coin in enumerate(stack):
                cy = y + 22 + _RADIUS + j * _LINE
                body.append(_coin(cx, cy, coin, turn_of.get(("stack", i, base + j)),
                                  f"stack {i}, coin {base + j}"))
        width = max(width, _MARGIN + len(stacks) * _STACK_WIDTH)
        y += 22 + max(tallest, 1) * _LINE

    if forest is not None and forest[0]:
        values, parents = forest
        nodes = _forest_nodes(moves, len(values))
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
            node = nodes[j]
            node_x, node_y = centres[j]
            body.append(_coin(node_x, node_y, coin, turn_of.get(("tree", node, node)),
                              f"tree node {node}"))
        width = max(width, _MARGIN + _LABEL_WIDTH + slots * _CELL)
        y += (max(depth) + 1) * _TREE_LEVEL

    if not moves:
        body.append(_text(_MARGIN, y + 14, "no coins left", class_="label", font_size=13,
                          fill="#777777"))
        y += 24

    width = int(width + _MARGIN)
    height = int(y + _MARGIN)
    title = (f"coins: first player {format_number(profits.first)}, "
             f"second player {format_number(profits.second)}")
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Verdana, sans-serif" '
        f'role="img">'
        f"<title>{escape(title)}</title>"
        f'<rect width="100%" height="100%" fill="#ffffff"/>'
        + "".join(body)
        + "</svg>"
    )
