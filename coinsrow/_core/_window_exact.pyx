# coinsrow._core._window_exact: the exact twins of _window (the window structure and the
# pizza) on Python numbers.

cimport cython
from coinsrow._core._types cimport *
from bisect import bisect_right
from coinsrow._core._window cimport _w_priority_of
from coinsrow._core._window_forests cimport _F_LIMIT, _window_forests_into
from array import array as _window_array
from coinsrow._core._rows_exact cimport _float_sum_exact, _overflowed, _play_exact, _zero_of
from coinsrow._core._signals cimport _forest_signals, _forest_signals_now
from coinsrow._core._rows_exact import check_finite_exact, game_profits_exact


# ---------------------------------------------------------------------------------------
# The exact twins: the same structure on Python numbers (ints of any size, floats, Fraction,
# Decimal). The static forests depend only on the order of the keys (h[t], t), so they are
# built by the compiled loop from the keys' ranks; the fusion tests compare ranks too. Only
# the block values and the treap's sums are Python numbers, computed in the same order as
# above (same priorities, so the same tree shape): on Python floats the answers are bit for
# bit those of RowWindows, and past the same height limit the status is OVERFLOW.

cdef enum:
    # Boundaries per piece of _w_order: Python's sort of one piece takes a few milliseconds.
    _W_ORDER_PIECE = 1 << 14


cdef object _w_order(list h):
    """The boundaries 0 .. len(h) - 1 in increasing order of (h[t], t), as an ``array('q')``:
    ``sorted(range(len(h)), key=h.__getitem__)``, but looking at signals (Ctrl-C) as it
    goes. Pieces of _W_ORDER_PIECE boundaries are sorted by Python's sort, then merged two
    by two here (a stable merge: on ties the earlier boundary first), with a look at
    signals every _WINDOW_STEPS_PER_SIGNAL_CHECK comparisons. O(m log m) comparisons of
    Python numbers, about as fast as one ``sorted``."""
    cdef Py_ssize_t m = len(h), lo, mid, hi, a, b, k, i
    cdef int64_t steps = 0
    first = _window_array("q", bytes(8 * m))
    second = _window_array("q", bytes(8 * m))
    cdef int64_t[::1] source = first
    cdef int64_t[::1] target = second
    cdef int64_t[::1] swap
    cdef Py_ssize_t width = _W_ORDER_PIECE
    key = h.__getitem__
    for lo in range(0, m, _W_ORDER_PIECE):
        i = lo
        for x in sorted(range(lo, min(m, lo + _W_ORDER_PIECE)), key=key):
            source[i] = x
            i += 1
        _forest_signals_now()
    while width < m:
        for lo in range(0, m, 2 * width):
            mid = min(m, lo + width)
            hi = min(m, lo + 2 * width)
            a, b, k = lo, mid, lo
            while a < mid and b < hi:
                steps += 1
                _forest_signals(steps)
                if h[source[b]] < h[source[a]]:
                    target[k] = source[b]
                    b += 1
                else:
                    target[k] = source[a]
                    a += 1
                k += 1
            while a < mid:
                target[k] = source[a]
                a += 1
                k += 1
            while b < hi:
                target[k] = source[b]
                b += 1
                k += 1
        swap = source
        source = target
        target = swap
        width *= 2
    return source.base


# Not picklable (as RowWindows is not): an Engine pickles as its game and its moves, and a
# structure's state from a pickle would be trusted unchecked.
@cython.auto_pickle(False)
cdef class RowWindowsExact:
    """``RowWindows`` on a list of Python numbers: the same methods and the same bounds
    (O(n log n) to build, O(log n) amortised a pop), a constant factor slower. Building
    looks at signals as ``RowWindows`` does."""

    def __init__(self, list coins, const int64_t[::1] starts, const int64_t[::1] stops,
                 Py_ssize_t n_rows, bint fill=True):
        cdef Py_ssize_t k = starts.shape[0], c
        cdef int64_t lo, j, nb, top, steps = 0
        cdef list heights = [], h
        cdef double magnitude = 0
        cdef object zero = _zero_of(coins)
        if stops.shape[0] != k:
            raise ValueError("starts and stops differ in length")
        if not 0 <= n_rows <= k:
            raise ValueError("n_rows is not between 0 and the number of components")
        for c in range(k):
            if stops[c] < starts[c]:
                raise ValueError("a component ends before it starts")
        self.rows = k
        self.n_rows = n_rows
        self.status = OK
        self.bad_index = -1
        self.base = []
        self.flat = [starts[c] for c in range(k)]
        self.ranks = _window_array("q")
        self.ns = _window_array("q")
        self.ps = _window_array("q")
        self.par1 = _window_array("q")
        self.par2 = _window_array("q")
        for c in range(k):
            lo = len(heights)
            self.base.append(lo)
            h = [zero] * (stops[c] - starts[c] + 1)
            for j in range(starts[c], stops[c]):  # NaN and infinities first, as _w_heights
                if type(coins[j]) is float and not isfinite(coins[j]):
                    self.status = NOT_FINITE
                    self.bad_index = j
                    return
            for j in range(stops[c] - starts[c]):
                steps += 1
                _forest_signals(steps)
                x = coins[starts[c] + j]
                h[j + 1] = x - h[j]
                if type(x) is float:
                    magnitude += fabs(x)
            if not magnitude < _F_LIMIT:  # the machine structure's limit (floats only)
                self.status = OVERFLOW
                return
            heights.extend(h)
            self._forests_of(h, lo)
        nb = len(heights)
        self.base.append(nb)
        self.h = heights
        self.nil = nb
        self.root = nb
        self.tl = [nb] * (nb + 1)
        self.tr = [nb] * (nb + 1)
        self.sz = [0] * (nb + 1)
        self.pri = [_w_priority_of(t) for t in range(nb + 1)]
        self.zero = zero
        self.val = [zero] * (nb + 1)
        self.alt = [zero] * (nb + 1)
        self.nxt = [0] * (nb + 1)
        self.prv = [0] * (nb + 1)
        self.left = self.base[:k]
        self.right = self.base[:k]
        self.in_tree = None
        self.gate = nb + 1
        self.coins_left = sum([stops[c] - starts[c] for c in range(k)])
        self.first_stack = n_rows
        self.fruitless = zero
        self.notes = None
        self.ys_of = [None] * k
        self.pm_of = [None] * k
        self.sp_of = [None] * k
        self.m_of = [0] * k
        self.tail_of = [zero] * k
        if n_rows < k:
            self.in_tree = bytearray(nb + 1)
        if fill:
            for c in range(k):
                top = self.base[c + 1] - 1
                self.gate = self.base[c] if c >= n_rows else nb + 1
                while self.right[c] < top:
                    steps += 1
                    _forest_signals(steps)
                    self._push_right(c)
                if c >= n_rows:
                    self._stack_path(c)
                    self.tail_of[c] = self._settle(c, self.left[c])
            for c in range(n_rows, k):
                self.fruitless += self.tail_of[c]

    cdef int _forests_of(self, list h, int64_t lo) except -1:
        """The static forests of one component's boundaries, appended (offset by lo)."""
        cdef int64_t m = len(h), r, x
        cdef int64_t[::1] order = _w_order(h)
        local = _window_array("q", bytes(8 * m))
        out = [_window_array("q", bytes(8 * m)) for _ in range(4)]
        cdef int64_t[::1] rank_view = local
        for r in range(m):
            rank_view[order[r]] = r
        _window_forests_into(local, out[0], out[1], out[2], out[3])
        self.ranks.extend(local)
        self.ns.extend([x + lo for x in out[0]])
        self.ps.extend([x + lo for x in out[1]])
        self.par1.extend([x + lo if x >= 0 else -1 for x in out[2]])
        self.par2.extend([x + lo if x >= 0 else -1 for x in out[3]])
        return 0

    # -- treap of block values (in-order: larger value first, then smaller boundary) -----

    cdef bint _before(self, int64_t a, int64_t b):
        va, vb = self.val[a], self.val[b]
        return va > vb or (va == vb and a < b)

    cdef void _pull(self, int64_t i):
        cdef int64_t lt = self.tl[i], rt = self.tr[i], sl = self.sz[lt]
        self.sz[i] = sl + 1 + self.sz[rt]
        if sl & 1:
            self.alt[i] = self.alt[lt] - self.val[i] + self.alt[rt]
        else:
            self.alt[i] = self.alt[lt] + self.val[i] - self.alt[rt]

    cdef tuple _split(self, int64_t i, int64_t x):
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

    cdef int64_t _merge(self, int64_t a, int64_t b):
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

    cdef int64_t _insert(self, int64_t i, int64_t x):
        cdef list child
        if i == self.nil:
            return x
        if self.pri[x] > self.pri[i]:
            self.tl[x], self.tr[x] = self._split(i, x)
            self._pull(x)
            return x
        child = self.tl if self._before(x, i) else self.tr  # the subtree on x's side
        child[i] = self._insert(child[i], x)
        self._pull(i)
        return i

    cdef int64_t _delete(self, int64_t i, int64_t x):
        cdef list child
        if i == x:
            return self._merge(self.tl[x], self.tr[x])
        child = self.tl if self._before(x, i) else self.tr  # the subtree on x's side
        child[i] = self._delete(child[i], x)
        self._pull(i)
        return i

    cdef void _add_block(self, int64_t t, int64_t u):
        if self.notes is not None:
            self._note(t)
            self._note(u)
        self.val[t] = self.h[t] + self.h[u]
        self.nxt[t] = u
        self.prv[u] = t
        if self.in_tree is not None and t >= self.gate:
            self.in_tree[t] = 0
            return
        self._tree_add(t)

    cdef void _tree_add(self, int64_t t):
        if self.notes is not None:
            self._note(t)
        self.alt[t] = self.val[t]
        self.tl[t] = self.nil
        self.tr[t] = self.nil
        self.sz[t] = 1
        if self.in_tree is not None:
            self.in_tree[t] = 1
        self.root = self._insert(self.root, t)

    cdef void _drop_block(self, int64_t t):
        if self.notes is not None:
            self._note(t)
        if self.in_tree is not None:
            if not self.in_tree[t]:
                return
            self.in_tree[t] = 0
        self.root = self._delete(self.root, t)

    # -- stacks: the Fruitless tail (see _w_settle and _w_stack_path) ----------------------

    cdef void _stack_path(self, Py_ssize_t c):
        cdef int64_t lo = self.base[c], right = self.base[c + 1] - 1, y, z
        cdef list ys = [right], pm = [right + 2], sp = [self.zero]
        cdef int64_t j = 0
        while self.ps[ys[j]] >= lo:
            y = ys[j]
            z = self.par2[y]
            pm.append(min(pm[j], self.ps[y]))
            block = self.h[y] + self.h[z]
            sp.append(sp[j] - block if j & 1 else sp[j] + block)
            ys.append(z)
            j += 1
        self.ys_of[c], self.pm_of[c], self.sp_of[c] = ys, pm, sp
        self.m_of[c] = len(ys) - 1

    cdef object _settle(self, Py_ssize_t c, int64_t old_v):
        cdef int64_t left = self.left[c], right = self.right[c], m, v, u, t
        cdef list pm
        if left == right:
            self.m_of[c] = 0
            return self.zero
        pm = self.pm_of[c]
        m = self.m_of[c]
        while pm[m] < left:
            m -= 1
        self.m_of[c] = m
        v = self.ys_of[c][m]
        u = self.prv[v]
        t = self.prv[old_v] if old_v > left else left
        while t != u:
            if not self.in_tree[t]:
                self._tree_add(t)
            t = self.nxt[t]
        if m & 1:
            self._drop_block(u)
            return self.val[u] - self.sp_of[c][m]
        if not self.in_tree[u]:
            self._tree_add(u)
        return -self.sp_of[c][m]

    # -- the deque operations ----------------------------------------------------------------

    cdef void _push_right(self, Py_ssize_t c):
        cdef int64_t left = self.left[c], r = self.right[c], t0, t1, t2, t3
        self._add_block(r, r + 1)
        self.right[c] = t3 = r + 1
        while True:
            t2 = self.prv[t3]
            if t2 == left:
                return
            t1 = self.prv[t2]
            if t1 == left:
                return
            t0 = self.prv[t1]
            if not (self.ranks[t0] < self.ranks[t2] and self.ranks[t3] < self.ranks[t1]):
                return
            self._drop_block(t0)
            self._drop_block(t1)
            self._drop_block(t2)
            self._add_block(t0, t3)

    cdef void _pop_left(self, Py_ssize_t c):
        cdef int64_t first = self.left[c], e = self.nxt[first], x, prev
        self._drop_block(first)
        self.left[c] = prev = x = first + 1
        while x != e:
            x = self.par1[x] if self.ns[x] - 1 <= e else e
            self._add_block(prev, x)
            prev = x

    cdef void _pop_right(self, Py_ssize_t c):
        cdef int64_t last = self.right[c], b = self.prv[last], x, prev
        self._drop_block(b)
        self.right[c] = prev = x = last - 1
        while x != b:
            x = self.par2[x] if self.ps[x] + 1 >= b else b
            self._add_block(x, prev)
            prev = x

    def pop_left(self, Py_ssize_t c):
        """Take the leftmost coin of row c, or the top of stack c (which must have coins)."""
        cdef int64_t old_v
        if not 0 <= c < self.rows or self.left[c] == self.right[c]:
            raise IndexError(c)
        self.coins_left -= 1
        if c < self.n_rows:
            self.gate = self.nil + 1
            self._pop_left(c)
            return
        old_v = self.ys_of[c][self.m_of[c]]
        self.gate = old_v
        self._pop_left(c)
        tail = self._settle(c, old_v)
        self.fruitless += tail - self.tail_of[c]
        self.tail_of[c] = tail

    def pop_right(self, Py_ssize_t c):
        """Take the rightmost coin of row c (which must not be empty)."""
        if not 0 <= c < self.n_rows or self.left[c] == self.right[c]:
            raise IndexError(c)
        self.coins_left -= 1
        self.gate = self.nil + 1
        self._pop_right(c)

    # -- the value after a move, the structure left as it was (see _w_value_after) ----------

    cdef bint _contains(self, int64_t t):
        """Is node t in the treap? (see ``_w_contains``) O(log n)."""
        cdef int64_t i = self.root
        while i != self.nil:
            if i == t:
                return True
            i = self.tl[i] if self._before(t, i) else self.tr[i]
        return False

    cdef void _note(self, int64_t t):
        """Node t as it is, the first time a journaled take is about to change it (see
        ``_w_note``)."""
        if t in self.notes:
            return
        boundary = t < self.nil
        self.notes[t] = (
            self._contains(t), self.val[t], self.alt[t], self.tl[t], self.tr[t], self.sz[t],
            self.nxt[t] if boundary else None, self.prv[t] if boundary else None,
            self.in_tree[t] if boundary and self.in_tree is not None else None)

    cdef void _undo(self):
        """Roll the journaled take back (see ``_w_undo``, and why the treap is then the same
        node for node). O(m log n) for its m notes."""
        cdef dict notes = self.notes
        self.notes = None
        for t in notes:
            if self._contains(t):
                self.root = self._delete(self.root, t)
        fields = (self.val, self.alt, self.tl, self.tr, self.sz, self.nxt, self.prv,
                  self.in_tree)
        for t, note in notes.items():
            for column, x in zip(fields, note[1:]):
                if x is not None:
                    column[t] = x
        for t, note in notes.items():
            if note[0]:
                self._tree_add(t)

    cdef object _value_after(self, Py_ssize_t c, bint from_left, object frozen):
        """The value after taking an end of component c (``value()``, or with ``frozen`` not
        None the Greedy sum with it, as ``ForestWindowsExact.value()``), the structure left as
        it was: the pop journaled and rolled back, as ``_w_value_after`` does."""
        if (not 0 <= c < self.rows or self.left[c] == self.right[c]
                or (not from_left and c >= self.n_rows)):
            raise IndexError(c)
        saved = (self.left[c], self.right[c], self.coins_left, self.fruitless, self.gate,
                 self.m_of[c], self.tail_of[c])
        self.notes = {}
        try:
            if from_left:
                self.pop_left(c)
            else:
                self.pop_right(c)
            return self.value() if frozen is None else self._greedy_with(frozen)
        finally:
            self._undo()
            (self.left[c], self.right[c], self.coins_left, self.fruitless, self.gate,
             self.m_of[c], self.tail_of[c]) = saved

    def value_after(self, Py_ssize_t c, bint from_left, frozen=None):
        """``RowWindows.value_after``: the value after taking an end of component c, the
        structure left exactly as it was. Costs what that pop costs, twice."""
        return self._value_after(c, from_left, frozen)

    # -- queries (the interface of RowWindows) -------------------------------------------------

    def value(self):
        """The value of the game for the player to move. O(1)."""
        greedy = self.alt[self.root]
        if self.n_rows == self.rows:
            return greedy
        if self.coins_left & 1:
            return greedy - self.fruitless
        return greedy + self.fruitless

    def length(self, Py_ssize_t c):
        """Coins left in component c."""
        if not 0 <= c < self.rows:
            raise IndexError(c)
        return self.right[c] - self.left[c]

    def bounds(self, Py_ssize_t c):
        """``(start, stop)``: the flat range of the coins left in component c."""
        if not 0 <= c < self.rows:
            raise IndexError(c)
        return (self.flat[c] + self.left[c] - self.base[c],
                self.flat[c] + self.right[c] - self.base[c])

    cdef bint _left_is_larger(self, Py_ssize_t c):
        return self.val[self.left[c]] >= self.val[self.prv[self.right[c]]]

    cdef Py_ssize_t _row_of(self, int64_t t):
        """The component of boundary t. O(log n)."""
        return bisect_right(self.base, t, 0, self.rows) - 1

    cdef tuple _move_in(self, Py_ssize_t c):
        """``(c, from_left, flat)``: the move at the best end of component c (see
        ``RowWindows._move_in``)."""
        cdef bint from_left = True
        if c < self.n_rows:
            from_left = self._left_is_larger(c)
        return (c, from_left, self.flat[c] - self.base[c]
                + (self.left[c] if from_left else self.right[c] - 1))

    cdef int64_t _largest_block(self):
        """The treap node of the largest block, -1 when the treap is empty. O(log n)."""
        cdef int64_t i = self.root
        if i == self.nil:
            return -1
        while self.tl[i] != self.nil:
            i = self.tl[i]
        return i

    cdef object _greedy_with(self, object frozen):
        """The Greedy alternating sum of the treap's blocks, and ``frozen`` with the sign of
        their parity (see ``RowWindows._greedy_with``). O(1)."""
        if self.sz[self.root] & 1:
            return self.alt[self.root] - frozen
        return self.alt[self.root] + frozen

    # -- blocks that are not the rows' (ForestWindowsExact: the forest's slots) ---------------

    cdef int64_t _add_cells(self, int64_t extra):
        """Room for ``extra`` more treap nodes after the nil node; returns the first of them
        (see ``RowWindows._add_cells``)."""
        cdef int64_t nil = self.nil
        self.tl.extend([nil] * extra)
        self.tr.extend([nil] * extra)
        self.sz.extend([0] * extra)
        self.pri.extend([_w_priority_of(nil + 1 + s) for s in range(extra)])
        self.val.extend([self.zero] * extra)
        self.alt.extend([self.zero] * extra)
        return nil + 1

    cdef void _insert_block(self, int64_t node, object value):
        """Put block ``node`` (from ``_add_cells``) in the treap, worth ``value``."""
        if self.notes is not None:
            self._note(node)
        self.val[node] = value
        self._tree_add(node)

    def best_in_row(self, Py_ssize_t c):
        """True when the left end of row c is its best end (the larger end block, ties left)."""
        if not 0 <= c < self.n_rows or self.left[c] == self.right[c]:
            raise IndexError(c)
        return self._left_is_larger(c)

    def best(self):
        """``(component, from_left, flat)``: an optimal move (see ``RowWindows.best``)."""
        cdef int64_t c
        if self.rows == 1 and self.n_rows == 1:
            if self.left[0] == self.right[0]:
                return -1, True, -1
            c = 0
        elif self.root == self.nil:
            while self.first_stack < self.rows and \
                    self.left[self.first_stack] == self.right[self.first_stack]:
                self.first_stack += 1
            if self.first_stack == self.rows:
                return -1, True, -1
            c = self.first_stack
        else:
            c = self._row_of(self._largest_block())
        return self._move_in(c)

    def blocks(self, Py_ssize_t c):
        """The block values of component c's reduced form, left to right."""
        cdef int64_t t
        if not 0 <= c < self.rows:
            raise IndexError(c)
        out = []
        t = self.left[c]
        while t != self.right[c]:
            out.append(self.val[t])
            t = self.nxt[t]
        return out

    def kept(self, Py_ssize_t c):
        """The kept boundaries of component c's reduced form (see ``RowWindows.kept``)."""
        cdef int64_t t
        if not 0 <= c < self.rows:
            raise IndexError(c)
        out = [self.left[c] - self.base[c]]
        t = self.left[c]
        while t != self.right[c]:
            t = self.nxt[t]
            out.append(t - self.base[c])
        return out

    def _state(self):
        """``RowWindows._state``: the whole structure as a dict of lists and numbers."""
        return dict(h=self.h, base=self.base, left=self.left, right=self.right, nxt=self.nxt,
                    val=self.val, alt=self.alt, tl=self.tl, tr=self.tr, sz=self.sz,
                    root=self.root, nil=self.nil,
                    in_tree=None if self.in_tree is None else list(self.in_tree),
                    n_rows=self.n_rows, coins_left=self.coins_left, fruitless=self.fruitless)

    def end_blocks(self, Py_ssize_t c):
        """``(left, right)``: how many coins the end blocks of row c span."""
        if not 0 <= c < self.rows or self.left[c] == self.right[c]:
            raise IndexError(c)
        return (self.nxt[self.left[c]] - self.left[c],
                self.right[c] - self.prv[self.right[c]])

    def _slide(self, Py_ssize_t c, bint push):
        """For the pizza: pop the left coin of row c (and push the next coin on its right)."""
        self.gate = self.nil + 1
        self._pop_left(c)
        if push:
            self._push_right(c)

    def _open(self, Py_ssize_t c, int64_t left, int64_t right):
        """For the pizza: an empty window of row c at boundary ``left``, filled up to
        ``right`` by pushes."""
        cdef int64_t steps = 0
        self.left[c] = left
        self.right[c] = left
        while self.right[c] < right:
            steps += 1
            _forest_signals(steps)
            self._push_right(c)


def window_pizza_exact(list circle):
    """``window_pizza`` on Python numbers: the same sliding window on a ``RowWindowsExact``
    of the doubled circle, looking at signals as it runs."""
    cdef int64_t n = len(circle), i, best_index = -1
    cdef object best = None, v
    status, bad = check_finite_exact(circle)
    if status != OK:
        return status, bad
    if n == 0:
        return Status.OK, (-1, 0)
    windows = RowWindowsExact(circle + circle, _window_array("q", [0]),
                              _window_array("q", [2 * n]), 1, False)
    if windows.status != OK:
        return Status.OVERFLOW, None
    windows._open(0, 1, n)
    for i in range(n):
        _forest_signals(i << 3)  # as window_pizza
        if i > 0:
            windows._slide(0, True)
        v = circle[i] - windows.value()
        if best is None or v > best:
            best_index, best = i, v
    return Status.OK, (best_index, best)


def pizza_profits_exact(list circle, int64_t first_slice):
    """``pizza_profits`` on Python numbers."""
    cdef int64_t n = len(circle)
    if not 0 <= first_slice < n:
        raise ValueError("the first slice is not a slice of the circle")
    status, bad = check_finite_exact(circle)
    if status != OK:
        return status, bad
    rest = circle[first_slice + 1:] + circle[:first_slice]
    taken = circle[first_slice]
    stops = _window_array("q", [len(rest)])
    if type(taken) is float:
        # The rest's first mover is the second player; the first slice is hers.
        value, play = _play_exact(rest, _window_array("q", [0]), stops, 1)
        first = _float_sum_exact([taken] + [rest[move[1]] for move in play[1::2]])
        second = _float_sum_exact([rest[move[1]] for move in play[0::2]])
        if _overflowed(value) or _overflowed(first) or _overflowed(second):
            return Status.OVERFLOW, None
        return Status.OK, (first, second)
    status, rest_profits = game_profits_exact(rest, _window_array("q", [0]), stops, 1)
    return Status.OK, (taken + rest_profits[1], rest_profits[0])
