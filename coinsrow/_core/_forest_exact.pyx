# coinsrow._core._forest_exact: the exact twins of _forest (forests of rooted trees) on
# Python numbers.

cimport cython
from coinsrow._core._types cimport *
import heapq

from coinsrow._core._forest cimport _forest_arguments, _live_count
from coinsrow._core._forest_blocks cimport _FOREST_WIDE
from coinsrow._core._forest_play cimport _PLAY_RUN
from coinsrow._core._signals cimport _forest_signals
from coinsrow._core._rows_exact cimport (_first_coin, _head_exact, _overflowed, _owner_fsum,
                                         _reduce_all_exact, _zero_of)
from coinsrow._core._window_forests cimport _F_LIMIT
from coinsrow._core._window_exact cimport RowWindowsExact
from array import array as _window_array


# -- the same algorithms on Python numbers (ints of any size, floats, Fraction, Decimal) ---------
# Same operations in the same order as the loops above: on Python floats the answers agree
# bit for bit. (The heaps differ, but they pop the same keys: the arithmetic depends on the
# keys alone, and the tie rule orders equal keys by slot in both.)

cdef inline object _no_negative_zero(object x):
    return x + 0.0 if type(x) is float else x


cdef list _children_first_exact(list par):
    """``_children_first_kind`` and ``_kahn_order`` on a list: the vertices (par != -2) in
    the order the loops above visit them."""
    cdef int64_t n = len(par), v, head = 0, p
    cdef bint before = True, after = True
    cdef list count, order
    for v in range(n):
        if par[v] >= 0:
            before &= par[v] < v
            after &= par[v] > v
    if before:
        return [v for v in range(n - 1, -1, -1) if par[v] != -2]
    if after:
        return [v for v in range(n) if par[v] != -2]
    count = [0] * n
    for v in range(n):
        if par[v] >= 0:
            count[par[v]] += 1
    order = [v for v in range(n) if par[v] != -2 and count[v] == 0]
    while head < len(order):
        _forest_signals(head)
        p = par[order[head]]
        head += 1
        if p >= 0:
            count[p] -= 1
            if count[p] == 0:
                order.append(p)
    return order


cdef list _meld_exact(list a, list b):
    """Two heaps (heapq lists) as one: the smaller pushed into the larger."""
    if a is None:
        return b
    if b is None:
        return a
    if len(a) < len(b):
        a, b = b, a
    for item in b:
        heapq.heappush(a, item)
    return a


cdef object _forest_released_exact(list coins, int64_t fbase, list par, list keys,
                                   object frozen):
    """``_forest_released`` on Python numbers: appends the released blocks to ``keys`` and
    returns ``frozen`` plus the frozen blocks, added in the same order."""
    cdef int64_t n = len(par), u, p, j = 0
    cdef list acc = [None] * n, h
    cdef bint odd
    for u in _children_first_exact(par):
        _forest_signals(j)
        j += 1
        h = acc[u]
        d = _no_negative_zero(coins[fbase + u])
        odd = True
        while True:
            if odd and (not h or d >= -h[0]):
                if h is None:
                    h = []
                heapq.heappush(h, -d)
                break
            if not h:
                frozen = frozen + d
                break
            x = -heapq.heappop(h)
            d = d - x if odd else d + x
            odd = not odd
        acc[u] = None
        p = par[u]
        if p >= 0:
            acc[p] = _meld_exact(acc[p], h)
        else:
            keys.extend([-x for x in h])
    return frozen


cdef object _forest_released_wide_exact(list coins, int64_t fbase, const int64_t[::1] parents,
                                        const uint8_t[::1] removed, list keys, object frozen):
    """``_forest_released_wide`` on Python numbers."""
    cdef list slot_of_node = [], par = [], coin = []
    cdef int64_t i
    for i in range(parents.shape[0]):
        if removed[i]:
            slot_of_node.append(-1)
        else:
            slot_of_node.append(len(coin))
            coin.append(_no_negative_zero(coins[fbase + i]))
    for i in range(parents.shape[0]):
        if not removed[i]:
            par.append(slot_of_node[parents[i]] if parents[i] >= 0 else -1)
    K, released, alive, _, _ = _slot_blocks_exact(par, coin)
    for i in range(len(par)):
        if alive[i]:
            keys.append(K[i])
        elif not released[i]:
            frozen = frozen + K[i]
    return frozen


cdef list _forest_parents_exact(const int64_t[::1] parents, const uint8_t[::1] removed):
    cdef int64_t i, q
    cdef list par = []
    for i in range(parents.shape[0]):
        _forest_signals(i)
        if removed[i]:
            par.append(-2)
        else:
            q = parents[i]
            par.append(q if q >= 0 and not removed[q] else -1)
    return par


cdef object _forest_value_exact(list coins, const int64_t[::1] starts,
                                const int64_t[::1] stops, Py_ssize_t n_rows, int64_t fbase,
                                const int64_t[::1] parents, const uint8_t[::1] removed,
                                bint wide):
    """``_forest_value_into`` on Python numbers."""
    cdef list keys = [], par
    cdef int64_t live
    cdef bint plus = True
    zero = _zero_of(coins)
    fruitless, reduced = _reduce_all_exact(coins, starts, stops, n_rows, False)
    for comp in reduced:
        keys.extend(comp[0][comp[2]:comp[3] + 1])
    par = _forest_parents_exact(parents, removed)
    live = sum([1 for p in par if p != -2])
    if parents.shape[0] < _FOREST_WIDE and not wide:
        frozen = _forest_released_exact(coins, fbase, par, keys, zero)
    else:
        frozen = _forest_released_wide_exact(coins, fbase, parents, removed, keys, zero)
    keys.sort(reverse=True)
    total = zero
    for x in keys:
        total = total + x if plus else total - x
        plus = not plus
    total = total + frozen if len(keys) % 2 == 0 else total - frozen
    if live & 1:
        fruitless = zero - fruitless
    return total + fruitless


cdef tuple _slots_exact(list coins, const int64_t[::1] starts, const int64_t[::1] stops,
                        Py_ssize_t n_rows, int64_t fbase, const int64_t[::1] parents,
                        const uint8_t[::1] removed):
    """``_slots_of`` on lists: ``(flat, par, component, coin, slot_of_node)``."""
    cdef Py_ssize_t k = starts.shape[0], c
    cdef int64_t p, i, q
    cdef list flat = [], par = [], component = [], coin = [], slot_of_node = []
    for c in range(n_rows, k):
        for p in range(starts[c], stops[c]):
            par.append(len(flat) - 1 if p > starts[c] else -1)
            flat.append(p)
            component.append(c)
            coin.append(_no_negative_zero(coins[p]))
    for i in range(removed.shape[0]):
        if removed[i]:
            slot_of_node.append(-1)
            continue
        slot_of_node.append(len(flat))
        flat.append(fbase + i)
        component.append(k)
        coin.append(_no_negative_zero(coins[fbase + i]))
        par.append(-1)
    for i in range(removed.shape[0]):
        if slot_of_node[i] >= 0:
            q = parents[i]
            par[slot_of_node[i]] = slot_of_node[q] if q >= 0 else -1
    return flat, par, component, coin, slot_of_node


cdef tuple _slot_blocks_exact(list par, list coin):
    """``_slot_blocks`` on lists: ``(K, released, alive, merged, overflowed)``; merged[s] is
    the list of the blocks s absorbed, in order."""
    cdef int64_t n = len(par), u, p, x, j = 0
    cdef list K = [None] * n, merged = [None] * n, acc = [None] * n, h
    cdef bytearray released = bytearray(n), alive = bytearray(n)
    cdef bint odd, overflowed = False
    for u in _children_first_exact(par):
        _forest_signals(j)
        j += 1
        h = acc[u]
        acc[u] = None
        d = coin[u]
        odd = True
        merged[u] = []
        while True:
            if odd and (not h or d > K[h[0][1]]):
                released[u] = 1
                alive[u] = 1
                K[u] = d
                if h is None:
                    h = []
                heapq.heappush(h, (-d, u))
                break
            if not h:
                K[u] = d
                break
            x = heapq.heappop(h)[1]
            alive[x] = 0
            merged[u].append(x)
            d = d - K[x] if odd else d + K[x]
            odd = not odd
        if type(d) is float and not isfinite(d):
            overflowed = True
        p = par[u]
        if p >= 0:
            acc[p] = _meld_exact(acc[p], h)
    return K, released, alive, merged, overflowed


cdef tuple _forest_play_exact(list coins, const int64_t[::1] starts, const int64_t[::1] stops,
                              Py_ssize_t n_rows, int64_t fbase, const int64_t[::1] parents,
                              const uint8_t[::1] removed):
    """``_forest_play_into`` on Python numbers: ``(value, play, overflowed)``, the play a
    list of ``(component, flat index, end)``. Queue entries are ``(-key, rank, item)``: the
    same order as the machine's queue (ranks are unique)."""
    cdef Py_ssize_t k = starts.shape[0], c
    cdef int64_t s, ch, item, e, lo, hi, p, t = 0, S
    cdef list flat, par, component, coin, K, first_child, next_sib, play = []
    cdef list queue = [], frozen_roots = [], rows, values, segments, offered, runs = []
    cdef bytearray released
    cdef bint plus = True, from_left, overflowed
    cdef int end
    flat, par, component, coin, _ = _slots_exact(coins, starts, stops, n_rows, fbase,
                                                 parents, removed)
    K, released, _, _, overflowed = _slot_blocks_exact(par, coin)
    S = len(par)
    first_child = [-1] * S
    next_sib = [-1] * S
    for s in range(S - 1, -1, -1):
        p = par[s]
        if p >= 0:
            next_sib[s] = first_child[p]
            first_child[p] = s
    rows = _reduce_all_exact(coins, starts[:n_rows], stops[:n_rows], n_rows, True)[1]
    for c in range(n_rows):
        values = rows[c][0]
        for x in values:
            if type(x) is float and not isfinite(x):
                overflowed = True
        if rows[c][2] <= rows[c][3]:
            heapq.heappush(queue, (-_head_exact(values, rows[c][2], rows[c][3], False), c, c))
    total = _zero_of(coins)
    s = -1
    while True:
        _forest_signals(t)
        if s == -1:
            children = [x for x in range(S) if par[x] < 0]
        elif s >= 0:
            children = []
            ch = first_child[s]
            while ch >= 0:
                children.append(ch)
                ch = next_sib[ch]
        else:
            children = []
        offered = []
        for ch in children:
            if released[ch]:
                offered.append(ch)
            else:
                heapq.heappush(frozen_roots, ch)
        if len(offered) >= _PLAY_RUN:
            # Largest first; stable with reverse too, so the lower slot first on ties. (A
            # key of its own, a lambda, would be a closure class in the module: 4 KB.)
            offered.sort(key=K.__getitem__, reverse=True)
            item = n_rows + S + len(runs)
            runs.append([offered, 0])
            heapq.heappush(queue, (-K[offered[0]], n_rows + offered[0], item))
        else:
            for ch in offered:
                heapq.heappush(queue, (-K[ch], n_rows + ch, n_rows + ch))
        if queue:
            item = heapq.heappop(queue)[2]
            if item >= n_rows + S:
                run = runs[item - n_rows - S]
                s = run[0][run[1]]
                run[1] += 1
                if run[1] < len(run[0]):
                    ch = run[0][run[1]]
                    heapq.heappush(queue, (-K[ch], n_rows + ch, item))
                item = n_rows + s
            if item < n_rows:
                row = rows[item]
                values, segments = row[0], row[1]
                from_left = values[row[2]] >= values[row[3]]
                if from_left:
                    e = row[2]
                    row[2] += 1
                else:
                    e = row[3]
                    row[3] -= 1
                lo = segments[e]
                hi = segments[e + 1] if e + 1 < len(segments) else row[4]
                end = LEFT if from_left else RIGHT
                for p in (range(lo, hi) if from_left else range(hi - 1, lo - 1, -1)):
                    play.append((item, p, end))
                    t += 1
                    total = total + coins[p] if plus else total - coins[p]
                    plus = not plus
                if row[2] <= row[3]:
                    heapq.heappush(queue, (-_head_exact(values, row[2], row[3], False), item,
                                           item))
                s = -2
                continue
            s = item - n_rows
        elif frozen_roots:
            s = heapq.heappop(frozen_roots)
        else:
            break
        play.append((component[s], flat[s], TOP if component[s] < k else ROOT))
        t += 1
        total = total + coins[flat[s]] if plus else total - coins[flat[s]]
        plus = not plus
    return total, play, overflowed


cdef object _forest_first_not_finite(list coins, const int64_t[::1] starts,
                                     const int64_t[::1] stops, int64_t fbase,
                                     const uint8_t[::1] removed):
    """The flat index of the first NaN or infinity on the table (rows and stacks first, as
    ``_forest_not_finite`` looks), or -1."""
    cdef Py_ssize_t c
    cdef int64_t p
    for c in range(starts.shape[0]):
        for p in range(starts[c], stops[c]):
            if type(coins[p]) is float and not isfinite(coins[p]):
                return p
    for p in range(removed.shape[0]):
        if not removed[p] and type(coins[fbase + p]) is float and not isfinite(coins[fbase + p]):
            return fbase + p
    return -1


cdef object _forest_first_coin(list coins, const int64_t[::1] starts, const int64_t[::1] stops,
                               int64_t fbase, const uint8_t[::1] removed):
    cdef int64_t p
    first = _first_coin(coins, starts, stops)
    if type(first) is float:
        return first
    for p in range(removed.shape[0]):
        if not removed[p]:
            return coins[fbase + p]
    return first


def forest_value_exact(list coins, const int64_t[::1] starts, const int64_t[::1] stops,
                       Py_ssize_t n_rows, int64_t fbase, const int64_t[::1] parents,
                       const uint8_t[::1] removed, bint wide=False):
    """``forest_value`` on Python numbers."""
    _forest_arguments(len(coins), starts, stops, n_rows, fbase, parents, removed)
    bad = _forest_first_not_finite(coins, starts, stops, fbase, removed)
    if bad >= 0:
        return Status.NOT_FINITE, bad
    value = _forest_value_exact(coins, starts, stops, n_rows, fbase, parents, removed, wide)
    if _overflowed(value):
        return Status.OVERFLOW, None
    return Status.OK, value


def forest_play_exact(list coins, const int64_t[::1] starts, const int64_t[::1] stops,
                      Py_ssize_t n_rows, int64_t fbase, const int64_t[::1] parents,
                      const uint8_t[::1] removed, int64_t[::1] out_component,
                      int64_t[::1] out_coin, uint8_t[::1] out_end):
    """``forest_play`` on Python numbers: the same play, written to the same buffers."""
    cdef int64_t live, t
    _forest_arguments(len(coins), starts, stops, n_rows, fbase, parents, removed)
    live = _live_count(starts, stops, removed)
    if out_component.shape[0] < live or out_coin.shape[0] < live or out_end.shape[0] < live:
        raise ValueError("output buffers are shorter than the game")
    if live == 0:
        return Status.OK, _zero_of(coins)
    bad = _forest_first_not_finite(coins, starts, stops, fbase, removed)
    if bad >= 0:
        return Status.NOT_FINITE, bad
    value, play, overflowed = _forest_play_exact(coins, starts, stops, n_rows, fbase, parents,
                                                 removed)
    for t in range(len(play)):
        out_component[t], out_coin[t], out_end[t] = play[t]
    if overflowed or _overflowed(value):
        return Status.OVERFLOW, None
    return Status.OK, value


def forest_profits_exact(list coins, const int64_t[::1] starts, const int64_t[::1] stops,
                         Py_ssize_t n_rows, int64_t fbase, const int64_t[::1] parents,
                         const uint8_t[::1] removed):
    """``forest_profits`` on Python numbers (see ``game_profits_exact``)."""
    cdef int64_t live, p
    cdef Py_ssize_t c
    _forest_arguments(len(coins), starts, stops, n_rows, fbase, parents, removed)
    total = _zero_of(coins)
    live = _live_count(starts, stops, removed)
    if live == 0:
        return Status.OK, (total, total)
    bad = _forest_first_not_finite(coins, starts, stops, fbase, removed)
    if bad >= 0:
        return Status.NOT_FINITE, bad
    if type(_forest_first_coin(coins, starts, stops, fbase, removed)) is float:
        value, play, overflowed = _forest_play_exact(coins, starts, stops, n_rows, fbase,
                                                     parents, removed)
        profits = _owner_fsum(coins, play)
        if (overflowed or _overflowed(value) or _overflowed(profits[0])
                or _overflowed(profits[1])):
            return Status.OVERFLOW, None
        return Status.OK, profits
    value = _forest_value_exact(coins, starts, stops, n_rows, fbase, parents, removed, False)
    for c in range(starts.shape[0]):
        for p in range(starts[c], stops[c]):
            total = total + coins[p]
    for p in range(removed.shape[0]):
        if not removed[p]:
            total = total + coins[fbase + p]
    if type(total) is int:
        first = (total + value) // 2
    else:
        first = (total + value) / 2
    return Status.OK, (first, total - first)


# Not picklable (as ForestWindows is not): an Engine pickles as its game and its moves, and
# a structure's state from a pickle would be trusted unchecked.
@cython.auto_pickle(False)
cdef class ForestWindowsExact:
    """``ForestWindows`` on a list of Python numbers: the same methods and bounds, the rows
    in a ``RowWindowsExact`` whose treap also holds the slots' released blocks."""

    cdef RowWindowsExact rows
    cdef readonly int status
    cdef readonly int64_t bad_index
    cdef Py_ssize_t k
    cdef Py_ssize_t n_rows
    cdef int64_t nf, node0, fbase
    cdef list flat, par, component, slot_of_node, K, merged, first_child, next_sib, root_heap
    cdef list stack_top, stack_end, first_slot, comp_start, comp_stop
    cdef bytearray released, gone
    cdef object frozen

    def __init__(self, list coins, const int64_t[::1] starts, const int64_t[::1] stops,
                 Py_ssize_t n_rows, int64_t fbase, const int64_t[::1] parents,
                 const uint8_t[::1] removed):
        cdef Py_ssize_t c
        cdef int64_t s, p, i, x
        cdef double magnitude = 0
        cdef list coin
        cdef bytearray alive
        self.status = OK
        self.bad_index = -1
        _forest_arguments(len(coins), starts, stops, n_rows, fbase, parents, removed)
        self.k = starts.shape[0]
        self.n_rows = n_rows
        self.nf = parents.shape[0]
        self.fbase = fbase
        self.bad_index = _forest_first_not_finite(coins, starts, stops, fbase, removed)
        if self.bad_index >= 0:
            self.status = NOT_FINITE
            return
        # The machine structure's limit on floats (Python ints never overflow).
        for c in range(self.k):
            for p in range(starts[c], stops[c]):
                if type(coins[p]) is float:
                    magnitude += fabs(coins[p])
        for i in range(self.nf):
            if not removed[i] and type(coins[fbase + i]) is float:
                magnitude += fabs(coins[fbase + i])
        if not magnitude < _F_LIMIT:
            self.status = OVERFLOW
            return
        self.rows = RowWindowsExact(coins, _window_array("q", starts[:n_rows]),
                                    _window_array("q", stops[:n_rows]), n_rows)
        self.flat, self.par, self.component, coin, self.slot_of_node = _slots_exact(
            coins, starts, stops, n_rows, fbase, parents, removed)
        self.K, self.released, alive, self.merged, _ = _slot_blocks_exact(self.par, coin)
        n = len(self.par)
        self.node0 = self.rows._add_cells(n)
        zero = _zero_of(coins)
        self.first_child = [-1] * n
        self.next_sib = [-1] * n
        for s in range(n - 1, -1, -1):
            p = self.par[s]
            if p >= 0:
                self.next_sib[s] = self.first_child[p]
                self.first_child[p] = s
        self.gone = bytearray(n)
        self.root_heap = []
        self.frozen = zero
        for s in range(n):
            if self.par[s] < 0:
                heapq.heappush(self.root_heap, s)
            if alive[s]:
                self._treap_add(s)
            elif not self.released[s]:
                self.frozen = self.frozen + self.K[s]
        self.stack_top = []
        self.stack_end = []
        self.comp_start = [starts[c] for c in range(self.k)]
        self.comp_stop = [stops[c] for c in range(self.k)]
        x = 0
        for c in range(self.k):
            self.stack_top.append(x)
            if c >= n_rows:
                x += stops[c] - starts[c]
            self.stack_end.append(x)
        self.first_slot = list(self.stack_top)

    cdef void _treap_add(self, int64_t s):
        self.rows._insert_block(self.node0 + s, self.K[s])

    cdef void _take(self, int64_t s):
        cdef int64_t ch
        if self.released[s]:
            self.rows._drop_block(self.node0 + s)
        else:
            self.frozen = self.frozen - self.K[s]
        self.gone[s] = 1
        for x in self.merged[s]:
            self._treap_add(x)
        ch = self.first_child[s]
        while ch >= 0:
            heapq.heappush(self.root_heap, ch)
            ch = self.next_sib[ch]

    def value(self):
        """The value of the position for the player to move. O(1)."""
        return self.rows._greedy_with(self.frozen)

    cdef object _value_after_slot(self, int64_t s):
        """The value after taking slot s (a root), the structure left as it was (see
        ``ForestWindows._value_after_slot``). O((1 + b) log n) for the b blocks it had
        absorbed."""
        frozen = self.frozen
        self.rows.notes = {}
        try:
            if self.released[s]:
                self.rows._drop_block(self.node0 + s)
            else:
                frozen = frozen - self.K[s]
            for x in self.merged[s]:
                self._treap_add(x)
            return self.rows._greedy_with(frozen)
        finally:
            self.rows._undo()

    def value_after(self, Py_ssize_t c, bint from_left):
        """``ForestWindows.value_after``: the value after taking an end of row c or the top
        of stack c, the structure left exactly as it was."""
        cdef int64_t s
        if not 0 <= c < self.k or (not from_left and c >= self.n_rows):
            raise IndexError(c)
        if c < self.n_rows:
            return self.rows._value_after(c, from_left, self.frozen)
        s = self.stack_top[c]
        if s >= self.stack_end[c]:
            raise IndexError(c)
        return self._value_after_slot(s)

    cdef int64_t _root_slot(self, int64_t node) except -1:
        """The slot of forest node ``node``, which must be a root (IndexError otherwise)."""
        cdef int64_t s
        if not 0 <= node < self.nf:
            raise IndexError(node)
        s = self.slot_of_node[node]
        if s < 0 or self.gone[s] or (self.par[s] >= 0 and not self.gone[self.par[s]]):
            raise IndexError(node)
        return s

    def value_after_node(self, int64_t node):
        """``ForestWindows.value_after_node``: the value after taking forest node ``node`` (a
        root), the structure left exactly as it was."""
        return self._value_after_slot(self._root_slot(node))

    def best(self):
        """``(component, from_left, flat)``: the move of the one tie rule (see
        ``ForestWindows.best``)."""
        cdef int64_t i = self.rows._largest_block(), s
        if 0 <= i < self.node0:
            return self.rows._move_in(self.rows._row_of(i))
        if i >= 0:
            s = i - self.node0
        else:
            while self.root_heap and self.gone[self.root_heap[0]]:
                heapq.heappop(self.root_heap)
            if not self.root_heap:
                return -1, True, -1
            s = self.root_heap[0]
        return self.component[s], True, self.flat[s]

    def pop_left(self, Py_ssize_t c):
        """Take the left end of row c or the top of stack c (IndexError if empty)."""
        cdef int64_t s
        if not 0 <= c < self.k:
            raise IndexError(c)
        if c < self.n_rows:
            self.rows.pop_left(c)
            return
        s = self.stack_top[c]
        if s >= self.stack_end[c]:
            raise IndexError(c)
        self._take(s)
        self.stack_top[c] = s + 1

    def pop_right(self, Py_ssize_t c):
        """Take the right end of row c (IndexError if it is empty or not a row)."""
        if not 0 <= c < self.n_rows:
            raise IndexError(c)
        self.rows.pop_right(c)

    def take_node(self, int64_t node):
        """Take forest node ``node``, which must be a root (IndexError otherwise)."""
        self._take(self._root_slot(node))

    def bounds(self, Py_ssize_t c):
        """``(start, stop)``: the flat range of the coins left in row or stack c."""
        if not 0 <= c < self.k:
            raise IndexError(c)
        if c < self.n_rows:
            return self.rows.bounds(c)
        return (self.comp_start[c] + self.stack_top[c] - self.first_slot[c],
                self.comp_stop[c])

    def _state(self):
        """``ForestWindows._state``: the whole structure as lists and numbers (the rows'
        lists are the structure's own)."""
        state = dict(self.rows._state())
        state.update(frozen=self.frozen, gone=bytes(self.gone), roots=self._live_roots(),
                     stack_top=list(self.stack_top))
        return state

    cdef list _live_roots(self):
        # Plain loops, not generator expressions: each of those is a class of its own in the
        # compiled module (19 KB stripped for the three this class had).
        cdef list live = []
        for s in self.root_heap:
            if not self.gone[s]:
                live.append(s)
        live.sort()
        return live

    def roots(self):
        """``ForestWindows.roots``: the forest's current roots (node ids), increasing; the
        taken ones leave the roots' heap for good (a sorted list is a heap)."""
        self.root_heap = self._live_roots()
        cdef list found = []
        for s in self.root_heap:
            if self.component[s] == self.k:
                found.append(self.flat[s] - self.fbase)
        return found

    def taken(self, int64_t node):
        """Whether forest node ``node`` is gone (taken, or gone when the structure was
        built)."""
        cdef int64_t s
        if not 0 <= node < self.nf:
            raise IndexError(node)
        s = self.slot_of_node[node]
        return s < 0 or bool(self.gone[s])
