"""Live play against any opponent: ``Engine``, a mutable position with O(1) value.

The position of a game of rows and stacks only ever shrinks, so every component is a window
of the one it started as. The window structure (research/window.md; kernels in
``_window.pxi``) keeps the reduced form of every component and a balanced tree of all its
blocks: the value is read at the tree's root in O(1), the best move is the largest block
(O(log n)), and taking any coin costs O(log n) amortised. A stack's Fruitless tail is the
increasing end of its reduced form, a prefix of one fixed path of the static forest, which
only shrinks as the top is taken. A whole game of n coins against any opponent costs
O(n log n) time and O(n) memory.
"""

from __future__ import annotations

import decimal
from array import array
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, cast

from . import _core
from ._coins import FLOAT64, OBJECTS
from ._game import (
    _EXACT_DECIMAL,
    Game,
    Move,
    Number,
    _Coins,
    _exact,
    _not_finite,
)

__all__ = ["Engine"]

_END_CODES = {"left": 0, "right": 1, "top": 2}


def _new_move(fields: tuple,
              _new: Callable[[type[Move], tuple], Move] = cast(Any, tuple.__new__)) -> Move:
    """``Move(*fields)`` without the NamedTuple constructor's argument parsing (hot path)."""
    return _new(Move, fields)


def _priority(t: int) -> int:
    """A fixed pseudo-random treap priority for node t (splitmix64, as in the kernel)."""
    x = (t + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return x ^ (x >> 31)


class _ExactWindows:
    """The window structure on exact Python numbers (ints of any size, Fraction, Decimal).

    The same algorithm as ``_core.RowWindows``: used when int64 heights would overflow and for
    coins that are not machine numbers. The static forests only depend on the order of the
    keys (h[t], t), so they are built by the compiled kernel from the keys' ranks; the fusion
    tests compare ranks too. Only the treap of block values holds Python numbers.
    O(n log n) to build, O(log n) amortised per pop or push, like the compiled structure.
    """

    def __init__(self, rows: Sequence[Sequence[Any]], flats: Sequence[int], fill: bool = True,
                 n_rows: int | None = None):
        heights: list = []
        ranks = array("q")
        self.base: list[int] = []
        self.flat = list(flats)
        ns = array("q")
        ps = array("q")
        par1 = array("q")
        par2 = array("q")
        for row in rows:
            lo = len(heights)
            self.base.append(lo)
            h = [0] * (len(row) + 1)
            for j, x in enumerate(row):
                h[j + 1] = x - h[j]
            heights.extend(h)
            order = sorted(range(len(h)), key=h.__getitem__)  # stable: ties by boundary
            local = array("q", bytes(8 * len(h)))
            for r, t in enumerate(order):
                local[t] = r
            ranks.extend(local)
            m = len(h)
            out = [array("q", bytes(8 * m)) for _ in range(4)]
            _core.window_forests(local, *out)
            ns.extend(x + lo for x in out[0])
            ps.extend(x + lo for x in out[1])
            par1.extend(x + lo if x >= 0 else -1 for x in out[2])
            par2.extend(x + lo if x >= 0 else -1 for x in out[3])
        nb = len(heights)
        self.base.append(nb)
        self.h = heights
        self.rank = ranks
        self.ns, self.ps, self.par1, self.par2 = ns, ps, par1, par2
        self.nil = nb
        self.root = nb
        self.updates = 0
        self.tl = [nb] * (nb + 1)
        self.tr = [nb] * (nb + 1)
        self.sz = [0] * (nb + 1)
        self.pri = [_priority(t) for t in range(nb + 1)]
        self.val: list = [0] * (nb + 1)
        self.alt: list = [0] * (nb + 1)
        self.nxt = [0] * (nb + 1)
        self.prv = [0] * (nb + 1)
        self.left = list(self.base[:-1])
        self.right = list(self.base[:-1])
        self.rows = len(rows)
        self.n_rows = self.rows if n_rows is None else n_rows
        # Stacks (components n_rows ..): see _core's _w_settle for the Fruitless tail.
        self.in_tree: list[bool] | None = None
        self.gate = nb + 1
        self.coins_left = sum(map(len, rows))
        self.first_stack = self.n_rows
        self.fruitless: Any = 0
        self.ys: dict[int, list[int]] = {}
        self.pm: dict[int, list[int]] = {}
        self.sp: dict[int, list] = {}
        self.m: dict[int, int] = {}
        self.tail: dict[int, Any] = {}
        if self.n_rows < self.rows:
            self.in_tree = [False] * (nb + 1)
        if fill:
            for c in range(self.rows):
                top = self.base[c + 1] - 1
                self.gate = self.base[c] if c >= self.n_rows else nb + 1
                while self.right[c] < top:
                    self.push_right(c)
                if c >= self.n_rows:
                    self._stack_path(c)
                    self.tail[c] = self._settle(c, self.left[c])
                    self.fruitless += self.tail[c]

    # -- treap of block values (in-order: larger value first, then smaller boundary) -----

    def _before(self, a: int, b: int) -> bool:
        va, vb = self.val[a], self.val[b]
        return va > vb or (va == vb and a < b)

    def _pull(self, i: int) -> None:
        l, r = self.tl[i], self.tr[i]
        sl = self.sz[l]
        self.sz[i] = sl + 1 + self.sz[r]
        if sl & 1:
            self.alt[i] = self.alt[l] - self.val[i] + self.alt[r]
        else:
            self.alt[i] = self.alt[l] + self.val[i] - self.alt[r]

    def _split(self, i: int, x: int) -> tuple[int, int]:
        if i == self.nil:
            return i, i
        if self._before(i, x):
            p, q = self._split(self.tr[i], x)
            self.tr[i] = p
            self._pull(i)
            return i, q
        p, q = self._split(self.tl[i], x)
        self.tl[i] = q
        self._pull(i)
        return p, i

    def _merge(self, a: int, b: int) -> int:
        if a == self.nil:
            return b
        if b == self.nil:
            return a
        if self.pri[a] > self.pri[b]:
            self.tr[a] = self._merge(self.tr[a], b)
            self._pull(a)
            return a
        self.tl[b] = self._merge(a, self.tl[b])
        self._pull(b)
        return b

    def _insert(self, i: int, x: int) -> int:
        if i == self.nil:
            return x
        if self.pri[x] > self.pri[i]:
            self.tl[x], self.tr[x] = self._split(i, x)
            self._pull(x)
            return x
        if self._before(x, i):
            self.tl[i] = self._insert(self.tl[i], x)
        else:
            self.tr[i] = self._insert(self.tr[i], x)
        self._pull(i)
        return i

    def _delete(self, i: int, x: int) -> int:
        if i == x:
            return self._merge(self.tl[x], self.tr[x])
        if self._before(x, i):
            self.tl[i] = self._delete(self.tl[i], x)
        else:
            self.tr[i] = self._delete(self.tr[i], x)
        self._pull(i)
        return i

    def _add_block(self, t: int, u: int) -> None:
        self.val[t] = self.h[t] + self.h[u]
        self.nxt[t] = u
        self.prv[u] = t
        if self.in_tree is not None and t >= self.gate:
            self.in_tree[t] = False
            return
        self._tree_add(t)

    def _tree_add(self, t: int) -> None:
        self.alt[t] = self.val[t]
        self.tl[t] = self.tr[t] = self.nil
        self.sz[t] = 1
        if self.in_tree is not None:
            self.in_tree[t] = True
        self.root = self._insert(self.root, t)
        self.updates += 1

    def _drop_block(self, t: int) -> None:
        if self.in_tree is not None:
            if not self.in_tree[t]:
                return
            self.in_tree[t] = False
        self.root = self._delete(self.root, t)
        self.updates += 1

    # -- stacks: the Fruitless tail (the same as _core's _w_stack_path / _w_settle) -------

    def _stack_path(self, c: int) -> None:
        lo, right = self.base[c], self.base[c + 1] - 1
        h, ps, par2 = self.h, self.ps, self.par2
        ys, pm, sp = [right], [right + 2], [0]
        while ps[ys[-1]] >= lo:
            y = ys[-1]
            z = par2[y]
            pm.append(min(pm[-1], ps[y]))
            block = h[y] + h[z]
            sp.append(sp[-1] - block if (len(ys) - 1) & 1 else sp[-1] + block)
            ys.append(z)
        self.ys[c], self.pm[c], self.sp[c] = ys, pm, sp
        self.m[c] = len(ys) - 1

    def _settle(self, c: int, old_v: int) -> Any:
        left, right = self.left[c], self.right[c]
        if left == right:
            self.m[c] = 0
            return 0
        pm = self.pm[c]
        m = self.m[c]
        while pm[m] < left:
            m -= 1
        self.m[c] = m
        v = self.ys[c][m]
        u = self.prv[v]
        t = self.prv[old_v] if old_v > left else left
        in_tree = self.in_tree
        assert in_tree is not None
        while t != u:
            if not in_tree[t]:
                self._tree_add(t)
            t = self.nxt[t]
        if m & 1:
            self._drop_block(u)
            return self.val[u] - self.sp[c][m]
        if not in_tree[u]:
            self._tree_add(u)
        return -self.sp[c][m]

    # -- the four deque operations ----------------------------------------------------------

    def _fuses(self, t0: int, t1: int, t2: int, t3: int) -> bool:
        rk = self.rank
        return rk[t0] < rk[t2] and rk[t3] < rk[t1]

    def push_right(self, c: int) -> None:
        left = self.left[c]
        r = self.right[c]
        self._add_block(r, r + 1)
        self.right[c] = t3 = r + 1
        prv = self.prv
        while True:
            t2 = prv[t3]
            if t2 == left:
                return
            t1 = prv[t2]
            if t1 == left:
                return
            t0 = prv[t1]
            if not self._fuses(t0, t1, t2, t3):
                return
            self._drop_block(t0)
            self._drop_block(t1)
            self._drop_block(t2)
            self._add_block(t0, t3)

    def pop_left(self, c: int) -> None:
        self.coins_left -= 1
        if c >= self.n_rows:
            old_v = self.ys[c][self.m[c]]
            self.gate = old_v
            self._pop_left(c)
            tail = self._settle(c, old_v)
            self.fruitless += tail - self.tail[c]
            self.tail[c] = tail
        else:
            self.gate = self.nil + 1
            self._pop_left(c)

    def _pop_left(self, c: int) -> None:
        first = self.left[c]
        e = self.nxt[first]
        self._drop_block(first)
        self.left[c] = prev = x = first + 1
        ns, par1 = self.ns, self.par1
        while x != e:
            x = par1[x] if ns[x] - 1 <= e else e
            self._add_block(prev, x)
            prev = x

    def pop_right(self, c: int) -> None:
        self.coins_left -= 1
        self.gate = self.nil + 1
        last = self.right[c]
        b = self.prv[last]
        self._drop_block(b)
        self.right[c] = prev = x = last - 1
        ps, par2 = self.ps, self.par2
        while x != b:
            x = par2[x] if ps[x] + 1 >= b else b
            self._add_block(x, prev)
            prev = x

    # -- queries (the interface of _core.RowWindows) ---------------------------------------

    def value(self) -> Number:
        # The treap holds Python numbers of the game's one kind (its lists are list[Any]).
        greedy: Number = self.alt[self.root]
        if self.n_rows == self.rows:
            return greedy
        value: Number = (greedy - self.fruitless if self.coins_left & 1
                         else greedy + self.fruitless)
        return value

    def length(self, c: int) -> int:
        return self.right[c] - self.left[c]

    def bounds(self, c: int) -> tuple[int, int]:
        return (self.flat[c] + self.left[c] - self.base[c],
                self.flat[c] + self.right[c] - self.base[c])

    def best_in_row(self, c: int) -> bool:
        left_is_best: bool = self.val[self.left[c]] >= self.val[self.prv[self.right[c]]]
        return left_is_best

    def best(self) -> tuple[int, bool, int]:
        i = self.root
        if i == self.nil:
            while self.first_stack < self.rows and self.length(self.first_stack) == 0:
                self.first_stack += 1
            if self.first_stack == self.rows:
                return -1, True, -1
            return self.first_stack, True, self.bounds(self.first_stack)[0]
        while self.tl[i] != self.nil:
            i = self.tl[i]
        lo, hi = 0, self.rows - 1
        while lo < hi:
            mid = (lo + hi + 1) >> 1
            if self.base[mid] <= i:
                lo = mid
            else:
                hi = mid - 1
        from_left = lo >= self.n_rows or self.best_in_row(lo)
        start, stop = self.bounds(lo)
        return lo, from_left, start if from_left else stop - 1

    def blocks(self, c: int) -> list:
        out = []
        t = self.left[c]
        while t != self.right[c]:
            out.append(self.val[t])
            t = self.nxt[t]
        return out


def _row_windows(coins: _Coins, starts: array, stops: array, n_rows: int = -1) -> Any:
    """The window structure of the components ``[starts[c], stops[c])`` (stacks from
    ``n_rows`` on): compiled for int64/float64 (int64 heights checked), exact Python numbers
    otherwise or on overflow."""
    if n_rows < 0:
        n_rows = len(starts)
    if coins.kind != OBJECTS:
        windows = _core.RowWindows(coins.data, starts, stops, 1 if coins.kind == FLOAT64 else 0,
                                   n_rows)
        if windows.status == _core.STATUS_OK:
            return windows
        if windows.status == _core.STATUS_NOT_FINITE:
            raise _not_finite(coins, starts, stops, windows.bad_index)
    data = coins.objects()
    if coins.kind == FLOAT64:  # floats so large that sums could overflow: exactly, as Fractions
        data = [Fraction(x) for x in data]
    with decimal.localcontext(_EXACT_DECIMAL):
        return _ExactWindows([data[starts[c]:stops[c]] for c in range(len(starts))], starts,
                             n_rows=n_rows)


class Engine:
    """A mutable position for live play against any opponent.

    ``Engine(game)`` takes a row (any accepted sequence or buffer) or a ``Game``.

    - ``value()``: the advantage of the player to move, O(1).
    - ``best_move()``: an optimal ``Move``: the largest block of the reduced forms (ties: the
      lowest row or stack), from the end of its row where it lies (ties: left) or the top of
      its stack; when only stacks' Fruitless tails are left, the top of the first stack.
      O(1) for one row, O(log n) otherwise.
    - ``take(move)``: play any legal move, by either side: a ``Move`` (as from ``moves()``,
      ``best_move()`` or ``game.moves()``), or ``"left"`` / ``"right"`` for a one-row game.
      Returns the ``Move`` played.
    - ``game``: the current position as an immutable ``Game``; ``len(engine)``: coins left.

    Cost: building O(n log n), each move O(log n) amortised, so a whole game of n coins in
    rows and stacks costs O(n log n) time and O(n) memory whatever the opponent does (at most
    two tree updates per move of a row; a stack's Fruitless tail adds O(1) amortised).
    int64 and float64 coins use compiled loops; int64 coins whose alternating prefix sums
    would pass 2^59 in magnitude, big ints, ``Fraction`` and ``Decimal`` use the same
    structure on exact Python numbers (same bounds, a constant factor slower); so do floats
    whose alternating sums would pass 1e300, as Fractions, the results rounded to floats.

    >>> e = Engine([1, 2, 1000, 3, 4, 900])
    >>> e.value(), e.best_move().end
    (1892, 'right')
    >>> e.take("right").coin, e.value()
    (900, -992)
    >>> e.take("left").coin, e.best_move()
    (1, Move(kind='row', index=0, end='right', position=4, coin=4))
    """

    __slots__ = ("_coins", "_starts", "_stops", "_windows",
                 "_left", "_one_row", "_n_rows", "_bases", "_data", "_exact_numbers")

    def __init__(self, game: Any) -> None:
        if not isinstance(game, Game):
            game = Game(rows=[game])
        if game._forest is not None and game._forest.left:
            raise ValueError("Engine holds rows and stacks only; play a Game with a forest "
                             "through Game.best_move()/take()")
        coins = game._coins
        self._coins = coins
        self._starts = array("q", game._starts)
        self._stops = array("q", game._stops)
        n_rows = coins.n_rows
        self._n_rows = n_rows
        self._bases = coins.bases
        self._data = coins.data
        self._one_row = n_rows == 1 and len(self._starts) == 1
        self._left = len(game)
        has_stack = any(self._stops[c] > self._starts[c] for c in range(n_rows, len(self._starts)))
        if has_stack:
            self._windows = _row_windows(coins, self._starts, self._stops, n_rows)
        else:  # empty stacks never move: the rows alone (the one-row fast path applies)
            self._windows = _row_windows(coins, self._starts[:n_rows], self._stops[:n_rows])
        self._exact_numbers = isinstance(self._windows, _ExactWindows)

    # -- reading the position ---------------------------------------------------------------

    def __len__(self) -> int:
        return self._left

    @property
    def game(self) -> Game:
        """The current position as an immutable ``Game`` (O(k) for k rows and stacks)."""
        return Game._position(self._coins, array("q", self._starts), array("q", self._stops),
                              None, 0)

    def value(self) -> Number:
        """Own total minus the opponent's for the player to move, both playing optimally.

        O(1) for rows (read at the root of the block tree).

        >>> Engine([3, 2, 2, 3, 1, 2]).value()
        3
        """
        result = self._windows.value()
        if self._coins.kind == FLOAT64:
            return float(result)
        return _exact(self._coins, result)

    def best_move(self) -> Move:
        """An optimal move: the largest end block (ties: lowest row, then left).

        O(1) for one row, O(log n) for several. ``ValueError`` when no coin is left.

        >>> Engine([1, 2, 1000, 3, 4, 900]).best_move()
        Move(kind='row', index=0, end='right', position=5, coin=900)
        """
        windows = self._windows
        c, from_left, flat = self._windows.best()
        if c < 0:
            raise ValueError("the game is over: no coin is left")
        if c < self._n_rows:
            return _new_move(("row", c, "left" if from_left else "right",
                              flat - self._bases[c], self._data[flat]))
        return _new_move(("stack", c - self._n_rows, "top", flat - self._bases[c],
                          self._data[flat]))

    def moves(self) -> list[Move]:
        """The legal moves: both ends of every non-empty row, the top of every stack."""
        return self.game.moves()

    def take(self, move: Move | str | Sequence[Any]) -> Move:
        """Play ``move`` (any legal move, by either side) and return it as a ``Move``.

        ``move`` is a ``Move`` or ``"left"`` / ``"right"`` (one-row games). ``ValueError`` if it
        is not legal here; the position is then unchanged. O(log n) amortised.

        >>> e = Engine([5, 1, 3])
        >>> e.take("right")
        Move(kind='row', index=0, end='right', position=2, coin=3)
        >>> len(e), e.game.rows
        (2, ((5, 1),))
        """
        windows = self._windows
        if move.__class__ is str or isinstance(move, str):
            if not self._one_row:
                raise ValueError(
                    f"{move!r} names an end of a one-row game; this game has "
                    f"{len(self._starts)} rows and stacks: pass a Move"
                )
            if move != "left" and move != "right":
                raise ValueError(f"illegal move {move!r}: a row's end is 'left' or 'right'")
            start, stop = self._starts[0], self._stops[0]
            if start == stop:
                raise ValueError(f"illegal move {move!r}: the row is empty")
            flat = start if move == "left" else stop - 1
            played = _new_move(("row", 0, move, flat - self._bases[0], self._data[flat]))
            self._pop(0, move == "left")
            return played
        # The hot path: a move on a row, checked without building anything.
        fields: Sequence[Any] = move  # a str was handled above; mypy keeps it in the union
        try:
            kind, c, end, position, coin = fields
        except (TypeError, ValueError):
            raise ValueError(f"{move!r} is not a Move(kind, index, end, position, coin)") from None
        if (kind == "row" and c.__class__ is int and 0 <= c < self._n_rows
                and self._starts[c] < self._stops[c] and not self._exact_numbers):
            if end == "left":
                flat = self._starts[c]
            elif end == "right":
                flat = self._stops[c] - 1
            else:
                flat = -1
            if flat >= 0 and position == flat - self._bases[c] and coin == self._data[flat]:
                played = move if move.__class__ is Move else _new_move(
                    ("row", c, end, position, self._data[flat]))
                if end == "left":
                    windows.pop_left(c)
                    self._starts[c] = flat + 1
                else:
                    windows.pop_right(c)
                    self._stops[c] = flat
                self._left -= 1
                return played
        played = self._checked(move)  # raises the precise error, or normalises the move
        if played.kind == "row":
            self._pop(played.index, played.end == "left")
        else:
            self._pop(self._n_rows + played.index, True)
        return played

    def _pop(self, c: int, from_left: bool) -> None:
        windows = self._windows
        if self._exact_numbers:
            with decimal.localcontext(_EXACT_DECIMAL):
                if from_left:
                    windows.pop_left(c)
                else:
                    windows.pop_right(c)
        elif from_left:
            windows.pop_left(c)
        else:
            windows.pop_right(c)
        if from_left:
            self._starts[c] += 1
        else:
            self._stops[c] -= 1
        self._left -= 1

    def _end_move(self, component: int, end: str) -> Move:
        start, stop = self._starts[component], self._stops[component]
        flat = stop - 1 if end == "right" else start
        coins = self._coins
        if component < coins.n_rows:
            kind, index = "row", component
        else:
            kind, index = "stack", component - coins.n_rows
        return Move(kind, index, end, flat - coins.bases[component], coins.coin(flat))

    def _checked(self, move: Any) -> Move:
        """The legal ``Move`` that ``move`` names, or ``ValueError``."""
        try:
            kind, index, end, position, coin = move
        except (TypeError, ValueError):
            raise ValueError(f"{move!r} is not a Move(kind, index, end, position, coin)") from None
        coins = self._coins
        n_rows = coins.n_rows
        if kind == "row" and isinstance(index, int) and 0 <= index < n_rows:
            component = index
            if end not in ("left", "right"):
                raise ValueError(f"illegal move {move!r}: a row's end is 'left' or 'right'")
        elif kind == "stack" and isinstance(index, int) and 0 <= index < len(self._starts) - n_rows:
            component = n_rows + index
            if end != "top":
                raise ValueError(f"illegal move {move!r}: a stack is taken from its 'top'")
        else:
            raise ValueError(f"illegal move {move!r}: no such {kind!r} with index {index!r}")
        if self._starts[component] == self._stops[component]:
            raise ValueError(f"illegal move {move!r}: {coins.where(component)} is empty")
        expected = self._end_move(component, end)
        if position != expected.position or coin != expected.coin:
            raise ValueError(f"illegal move {move!r}: the coin there is {expected!r}")
        return expected

    def __repr__(self) -> str:
        return f"Engine({self.game!r})"
