"""Reference solvers used as oracles by the tests. They never ship in the package.

- ``dp_table``: the textbook O(n^2) dynamic program d[i][j] for one row.
- ``brute_value``: exhaustive minimax over several rows and stacks (small games only).
- ``paper_value``: a plain transcription of the pseudocode in the appendix of Idziaszek's
  paper, written independently of the package's kernels.
- ``brute_forest_value`` (``brute_forest_solver``): exhaustive minimax with a forest too.
- ``block_merging_value``: the global form of block merging for large forests.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from functools import cache
from typing import Any


def dp_table(row: Sequence[Any]) -> list[list[Any]]:
    """d[i][j] = value of the sub-row row[i:j] for the player to move (j exclusive)."""
    n = len(row)
    zero = row[0] - row[0] if n else 0
    d = [[zero] * (n + 1) for _ in range(n + 1)]
    for length in range(1, n + 1):
        for i in range(n - length + 1):
            j = i + length
            left = row[i] - d[i + 1][j]
            right = row[j - 1] - d[i][j - 1]
            d[i][j] = left if left >= right else right
    return d


def dp_value(row: Sequence[Any]) -> Any:
    if not row:
        return 0
    return dp_table(row)[0][len(row)]


def brute_solver(rows: Sequence[Sequence[Any]], stacks: Sequence[Sequence[Any]] = ()):
    """A memoised minimax ``value(bounds, tops)`` for positions reached from a game."""
    solve = brute_forest_solver(rows, stacks, (), ())
    return lambda bounds, tops: solve(bounds, tops, 0)


def brute_value(rows: Sequence[Sequence[Any]], stacks: Sequence[Sequence[Any]] = ()) -> Any:
    """Minimax value of a game of rows and stacks (stacks top first)."""
    return brute_solver(rows, stacks)(tuple((0, len(r)) for r in rows), tuple(0 for _ in stacks))


def paper_value(rows: Sequence[Sequence[Any]], stacks: Sequence[Sequence[Any]] = ()) -> Any:
    """The appendix pseudocode, literally: Fusion, Fruitless, then sort and alternate."""
    n = sum(map(len, rows)) + sum(map(len, stacks))
    val: Any = 0
    remaining: list = []
    for component, anchored in [(r, False) for r in rows] + [(s, True) for s in stacks]:
        sc: list = []
        for v in component:
            sc.append(v)
            while len(sc) >= 3 and sc[-3] <= sc[-2] >= sc[-1]:
                fused = sc[-3] - sc[-2] + sc[-1]
                del sc[-3:]
                sc.append(fused)
        if anchored:
            while len(sc) >= 2 and sc[-2] <= sc[-1]:
                val += (-1) ** n * (sc[-2] - sc[-1])
                del sc[-2:]
        remaining.extend(sc)
    sign = 1
    for x in sorted(remaining, reverse=True):
        val += sign * x
        sign = -sign
    return val


# -- the cooperative maximum (the second player helps the first) --------------------------


def cooperative_brute(row: Sequence[Any]) -> Any:
    """Memoised game-tree search: the most the first player collects when both players pick
    their moves for her. Top-down over the positions (i, j), the mover found from the number
    of coins already taken."""
    row = tuple(row)
    n = len(row)

    @cache
    def most(i: int, j: int) -> Any:
        if i == j:
            return 0
        hers = (n - (j - i)) % 2 == 0
        options = []
        for coin, rest in ((row[i], most(i + 1, j)), (row[j - 1], most(i, j - 1))):
            options.append(coin + rest if hers else rest)
        return max(options)

    return most(0, n)


def cooperative_exhaustive(row: Sequence[Any]) -> Any:
    """Every play of the row (2^(n-1) of them), the first player's best total. n <= ~12."""
    from itertools import product

    n = len(row)
    if n == 0:
        return 0
    best = None
    for ends in product((0, 1), repeat=n - 1):
        i, j, total = 0, n, 0
        for turn in range(n):
            if turn < n - 1 and ends[turn]:
                coin, j = row[j - 1], j - 1
            else:
                coin, i = row[i], i + 1
            if turn % 2 == 0:
                total = total + coin
        if best is None or total > best:
            best = total
    return best


def cooperative_dumb_dp(row: Sequence[Any]) -> Any:
    """The bottom-up "dumb opponent" table: dumb[i][j] = sum(i..j) - min/max(dumb[i+1][j],
    dumb[i][j-1]), the gain of the player to move at [i, j] (inclusive), min where the first
    player moves (she maximises her gain), max where the helper moves (he minimises his)."""
    n = len(row)
    if n == 0:
        return 0
    prefix = [0]
    for x in row:
        prefix.append(prefix[-1] + x)
    dumb = [[0] * n for _ in range(n)]
    for i in range(n):
        dumb[i][i] = row[i]
    for gap in range(1, n):
        for i in range(n - gap):
            j = i + gap
            total = prefix[j + 1] - prefix[i]
            if (j - i + n) % 2 == 1:
                dumb[i][j] = total - min(dumb[i + 1][j], dumb[i][j - 1])
            else:
                dumb[i][j] = total - max(dumb[i + 1][j], dumb[i][j - 1])
    return dumb[0][n - 1]


def brute_forest_solver(rows: Sequence[Sequence[Any]], stacks: Sequence[Sequence[Any]],
                        values: Sequence[Any], parents: Sequence[int]):
    """A memoised minimax ``value(bounds, tops, present)`` over rows, stacks and a forest.

    ``present`` is a bit mask of the forest nodes still on the table; a node can be taken
    when it is present and its parent is not (or it has none).
    """
    rows = tuple(tuple(r) for r in rows)
    stacks = tuple(tuple(s) for s in stacks)
    values = tuple(values)
    parent_bits = tuple(0 if p < 0 else 1 << p for p in parents)

    @cache
    def solve(bounds: tuple, tops: tuple, present: int) -> Any:
        best = None
        for c, (i, j) in enumerate(bounds):
            if i == j:
                continue
            for coin, nb in (
                (rows[c][i], bounds[:c] + ((i + 1, j),) + bounds[c + 1:]),
                (rows[c][j - 1], bounds[:c] + ((i, j - 1),) + bounds[c + 1:]),
            ):
                v = coin - solve(nb, tops, present)
                if best is None or v > best:
                    best = v
        for c, t in enumerate(tops):
            if t == len(stacks[c]):
                continue
            v = stacks[c][t] - solve(bounds, tops[:c] + (t + 1,) + tops[c + 1:], present)
            if best is None or v > best:
                best = v
        for node, coin in enumerate(values):
            if present >> node & 1 and not present & parent_bits[node]:
                v = coin - solve(bounds, tops, present ^ (1 << node))
                if best is None or v > best:
                    best = v
        return 0 if best is None else best

    return solve


def after_move(state: tuple, move: Any) -> tuple:
    """The ``(bounds, tops, present)`` state of ``brute_forest_solver`` after a ``Move``."""
    bounds, tops, present = state
    if move.kind == "row":
        i, j = bounds[move.index]
        new = (i + 1, j) if move.end == "left" else (i, j - 1)
        return bounds[:move.index] + (new,) + bounds[move.index + 1:], tops, present
    if move.kind == "stack":
        return bounds, tops[:move.index] + (tops[move.index] + 1,) + tops[move.index + 1:], present
    return bounds, tops, present ^ (1 << move.index)


def brute_forest_value(rows: Sequence[Sequence[Any]], stacks: Sequence[Sequence[Any]],
                       values: Sequence[Any], parents: Sequence[int]) -> Any:
    """Minimax value of rows, stacks and a forest of rooted trees (a move takes a root)."""
    solve = brute_forest_solver(rows, stacks, values, parents)
    return solve(tuple((0, len(r)) for r in rows), tuple(0 for _ in stacks),
                 (1 << len(values)) - 1)


def block_merging_value(stacks: Sequence[Sequence[Any]], values: Sequence[Any],
                        parents: Sequence[int]) -> Any:
    """Block merging in its global form (docs/forests.md): one heap of all odd blocks, the
    largest popped first; a block whose head is a root or hangs below a taken block is
    taken (Greedy), any other fuses into its parent's block. Stacks are paths. O(n log n);
    written from the description, independently of the kernels."""
    vals, par = list(values), list(parents)
    for stack in stacks:
        base = len(vals)
        for i, coin in enumerate(stack):
            vals.append(coin)
            par.append(-1 if i == 0 else base + i - 1)
    n = len(vals)
    uf = list(range(n))
    d = list(vals)
    odd = [True] * n
    taken = [False] * n
    version = [0] * n

    def find(x):
        while uf[x] != x:
            uf[x] = uf[uf[x]]
            x = uf[x]
        return x

    heap = [(-d[v], v, 0) for v in range(n)]
    heapq.heapify(heap)
    total, sign = 0, 1
    while heap:
        _, b, stamp = heapq.heappop(heap)
        if stamp != version[b]:
            continue
        block = find(par[b]) if par[b] >= 0 else -1
        if block < 0 or taken[block]:
            taken[b] = True
            total += sign * d[b]
            sign = -sign
            continue
        uf[b] = block
        version[block] += 1
        if odd[block]:
            d[block] -= d[b]
            odd[block] = False
        else:
            d[block] += d[b]
            odd[block] = True
            heapq.heappush(heap, (-d[block], block, version[block]))
    return total + sign * sum(d[v] for v in range(n) if uf[v] == v and not taken[v])
