# coinsrow._core._window: the window structure (docs/window.md), for live play against any
# opponent (Engine) and the pizza.
#
# Boundary heights: for the coins a[0..m-1] of a row, h[0] = 0 and h[t+1] = a[t] - h[t], so
# an odd-length run of coins between boundaries p < q has alternating sum h[p] + h[q]. The
# reduced form (Fusion) of the coins between boundaries L and R is a list of kept boundaries
# L = t0 < ... < tk = R; block i is worth h[t_i] + h[t_{i+1}]. Ties are broken by the key
# (h[t], t), an infinitesimal perturbation that leaves the values alone but makes the reduced
# form unique, so a window can be shrunk without unfusing anything:
#   pop_left  of the first block [L, e): its replacement blocks are the par1-path from L + 1
#             while ns(x) - 1 <= e, then e;
#   pop_right mirrors it with par2 / ps;
#   push_*    is the ordinary fusion cascade at that end.
# The block values are kept in a treap sorted non-increasingly; every node holds the size and
# the alternating sum of its subtree, so the window's value (the Greedy alternating sum) is
# read at the root. Treap nodes are boundaries: node t is the block that starts at t.
#
# Several rows and stacks share one boundary array (component c owns boundaries B[c] ..
# B[c] + len_c) and one treap, so the value of the game is still read at the root and its best
# move is the largest block (always an end block of its row, or the top block of its stack:
# reduced forms have no interior maximum). A stack's Fruitless tail (the increasing end of
# its reduced form, paired off from the bottom) stays out of the treap: see _w_settle.
# (push_left, the fourth deque operation of the research note, is not needed here.)
#
# int64: every height is checked against WINDOW_INT64_LIMIT when it is computed; below it no
# block value, subtree sum or value can overflow (|block| <= 2^60, |alternating sums| <= 2^61),
# so the loops need no further checks. Above it the wrapper falls back to exact Python numbers.
# float64: heights past 1e300 in magnitude are refused the same way (no inf, no NaN inside).

cimport cython
from coinsrow._core._types cimport *
from coinsrow._core._row_helpers cimport (_first_not_finite, _one_row_float_profits,
                                          _one_row_greedy, _reduce_into)
from coinsrow._core._signals cimport _forest_signals
from coinsrow._core._sort cimport _sort_ids_by_key
from coinsrow._core._window_forests cimport (_F_LIMIT, _H_LIMIT, _w_alloc_each, _w_alloc_numbers,
                                             _w_alloc_stacks, _w_forests_counted, _w_free_each,
                                             _w_heights, _w_key_less, _w_regrown)

from array import array as _window_array

# |h| must stay below this for the int64 window loops (see above).
WINDOW_INT64_LIMIT = 2**59

# float64: every block value, alternating sum and Fruitless total is a signed sum of distinct
# coins, so none can overflow while the sum of the coins' magnitudes stays below this; past
# it the structures report OVERFLOW and the floats are solved exactly as Fractions (the
# answers rounded once).


# ---------------------------------------------------------------------------------------
# The treap of block values (nodes are boundaries; ``nil`` is an extra node of size 0).


cdef inline bint _w_before(coin_t *val, int64_t a, int64_t b) noexcept nogil:
    """In-order: larger block value first, then the smaller boundary."""
    return val[a] > val[b] or (val[a] == val[b] and a < b)


cdef void _w_split(_Win *w, coin_t *val, coin_t *alt, int64_t i, int64_t x,
                   int64_t *before, int64_t *after) noexcept nogil:
    """Split subtree i into the nodes ordered before x and those after x."""
    cdef int64_t p, q
    if i == w.nil:
        before[0] = w.nil
        after[0] = w.nil
        return
    if _w_before(val, i, x):
        _w_split(w, val, alt, w.tr[i], x, &p, &q)
        w.tr[i] = p
        _w_pull(w, val, alt, i)
        before[0] = i
        after[0] = q
    else:
        _w_split(w, val, alt, w.tl[i], x, &p, &q)
        w.tl[i] = q
        _w_pull(w, val, alt, i)
        before[0] = p
        after[0] = i


cdef int64_t _w_merge(_Win *w, coin_t *val, coin_t *alt, int64_t a, int64_t b) noexcept nogil:
    if a == w.nil:
        return b
    if b == w.nil:
        return a
    if w.pri[a] > w.pri[b]:
        w.tr[a] = _w_merge(w, val, alt, w.tr[a], b)
        _w_pull(w, val, alt, a)
        return a
    w.tl[b] = _w_merge(w, val, alt, a, w.tl[b])
    _w_pull(w, val, alt, b)
    return b


# Insert and delete each write out their descent with a branch: one helper choosing the
# child's link without a branch (a conditional move, fewer instructions) made the pizza up
# to 4% slower (3*10^5 coins, peak family, best of 4 side by side).
cdef int64_t _w_insert(_Win *w, coin_t *val, coin_t *alt, int64_t i, int64_t x) noexcept nogil:
    cdef int64_t p, q
    if i == w.nil:
        return x
    if w.pri[x] > w.pri[i]:
        _w_split(w, val, alt, i, x, &p, &q)
        w.tl[x] = p
        w.tr[x] = q
        _w_pull(w, val, alt, x)
        return x
    if _w_before(val, x, i):
        w.tl[i] = _w_insert(w, val, alt, w.tl[i], x)
    else:
        w.tr[i] = _w_insert(w, val, alt, w.tr[i], x)
    _w_pull(w, val, alt, i)
    return i


cdef int64_t _w_delete(_Win *w, coin_t *val, coin_t *alt, int64_t i, int64_t x) noexcept nogil:
    if i == x:
        return _w_merge(w, val, alt, w.tl[x], w.tr[x])
    if _w_before(val, x, i):
        w.tl[i] = _w_delete(w, val, alt, w.tl[i], x)
    else:
        w.tr[i] = _w_delete(w, val, alt, w.tr[i], x)
    _w_pull(w, val, alt, i)
    return i


cdef void _w_pull_all(_Win *w, coin_t *val, coin_t *alt, int64_t i) noexcept nogil:
    """Sizes and alternating sums of the subtree of i, children first (depth O(log n))."""
    if i == w.nil:
        return
    _w_pull_all(w, val, alt, w.tl[i])
    _w_pull_all(w, val, alt, w.tr[i])
    _w_pull(w, val, alt, i)


cdef int64_t _w_union(_Win *w, coin_t *val, coin_t *alt, int64_t a, int64_t b) noexcept nogil:
    """One treap of the nodes of two (O(m log(n / m)) for m nodes in the smaller)."""
    cdef int64_t t, before, after
    if a == w.nil:
        return b
    if b == w.nil:
        return a
    if w.pri[a] < w.pri[b]:
        t = a
        a = b
        b = t
    _w_split(w, val, alt, b, a, &before, &after)
    w.tl[a] = _w_union(w, val, alt, w.tl[a], before)
    w.tr[a] = _w_union(w, val, alt, w.tr[a], after)
    _w_pull(w, val, alt, a)
    return a


cdef int _w_add_all(_Win *w, coin_t *val, coin_t *alt, int64_t node0, const uint8_t *alive,
                    int64_t n, const coin_t *K) except -1 nogil:
    """Put the blocks s < n with ``alive[s]`` in the treap at once (node node0 + s, value
    K[s]): sorted by the treap's order (radix), built in O(m) on that order (the usual stack
    of the right spine), its sums computed children first, then joined to the treap. The
    same treap as inserting them one by one (a treap is fixed by its order and its
    priorities), without O(m log m) random accesses. NO_MEMORY if scratch is refused."""
    cdef int64_t *order = NULL
    cdef int64_t *spine = NULL
    cdef int64_t m = 0, s, i, top = 0, node, last
    try:
        order = <int64_t *> malloc((n if n > 0 else 1) * sizeof(int64_t))
        spine = <int64_t *> malloc((n + 1) * sizeof(int64_t))
        if order == NULL or spine == NULL:
            return NO_MEMORY
        for s in range(n):
            if alive[s]:
                order[m] = s
                m += 1
        if _sort_ids_by_key(order, m, K) == NO_MEMORY:
            return NO_MEMORY
        for i in range(m):
            node = node0 + order[i]
            val[node] = K[order[i]]
            w.tl[node] = w.nil
            w.tr[node] = w.nil
            last = w.nil
            while top > 0 and w.pri[spine[top - 1]] < w.pri[node]:
                top -= 1
                last = spine[top]
            w.tl[node] = last
            if top > 0:
                w.tr[spine[top - 1]] = node
            spine[top] = node
            top += 1
        if m > 0:
            _w_pull_all(w, val, alt, spine[0])
            w.root = _w_union(w, val, alt, w.root, spine[0])
        return OK
    finally:
        free(order)
        free(spine)


cdef void _w_note_now(_Win *w, coin_t *val, coin_t *alt, int64_t t) noexcept nogil:
    """The work of _w_note (_window.pxd), in one place rather than inlined at every change of
    the structure (about 9 KB of code less in all)."""
    cdef _WNote *note
    cdef _WNote *grown
    if w.n_notes == w.cap_notes:  # only a safety net: _w_journal_open reserved the room
        grown = <_WNote *> realloc(w.notes, 2 * (w.cap_notes + 1) * sizeof(_WNote))
        if grown == NULL:
            w.lost = True
            return
        w.notes = grown
        w.cap_notes = 2 * (w.cap_notes + 1)
    note = &w.notes[w.n_notes]
    w.n_notes += 1
    w.noted[t] = 1
    note.t, note.tl, note.tr, note.sz = t, w.tl[t], w.tr[t], w.sz[t]
    if coin_t is double:
        note.val.f, note.alt.f = val[t], alt[t]
    else:
        note.val.i, note.alt.i = val[t], alt[t]
    note.nxt = w.nxt[t] if t < w.nil else 0
    note.prv = w.prv[t] if t < w.nil else 0
    note.in_tree = w.in_tree[t] if w.in_tree != NULL and t < w.nil else 0
    note.was_in = _w_contains(w, val, t)


cdef inline void _w_add_block(_Win *w, coin_t *h, coin_t *val, coin_t *alt,
                              int64_t t, int64_t u) noexcept nogil:
    """Keep the block [t, u): link the boundaries and insert its value."""
    _w_note(w, val, alt, t)
    _w_note(w, val, alt, u)
    val[t] = h[t] + h[u]
    w.nxt[t] = u
    w.prv[u] = t
    if w.in_tree != NULL:
        if t >= w.gate:
            w.in_tree[t] = 0
            return
        w.in_tree[t] = 1
    _w_tree_add(w, val, alt, t)


# ---------------------------------------------------------------------------------------
# The four deque operations on the window [left[0], right[0]] of one row.

cdef inline bint _w_fuses(coin_t *h, int64_t t0, int64_t t1, int64_t t2, int64_t t3) noexcept nogil:
    """x <= M >= y for the blocks [t0,t1), [t1,t2), [t2,t3), with the perturbed keys."""
    return _w_key_less(h, t0, t2) and _w_key_less(h, t3, t1)


cdef void _w_push_right(_Win *w, coin_t *h, coin_t *val, coin_t *alt,
                        int64_t left, int64_t *right) noexcept nogil:
    cdef int64_t t0, t1, t2, t3
    _w_add_block(w, h, val, alt, right[0], right[0] + 1)
    right[0] += 1
    t3 = right[0]
    while True:
        t2 = w.prv[t3]
        if t2 == left:
            break
        t1 = w.prv[t2]
        if t1 == left:
            break
        t0 = w.prv[t1]
        if not _w_fuses(h, t0, t1, t2, t3):
            break
        _w_drop_block(w, val, alt, t0)
        _w_drop_block(w, val, alt, t1)
        _w_drop_block(w, val, alt, t2)
        _w_add_block(w, h, val, alt, t0, t3)


cdef void _w_pop_left(_Win *w, coin_t *h, coin_t *val, coin_t *alt, int64_t *left) noexcept nogil:
    """Remove the window's first coin (the window must not be empty)."""
    cdef int64_t first = left[0], e = w.nxt[first], x, prev
    _w_drop_block(w, val, alt, first)
    left[0] = first + 1
    prev = first + 1
    x = prev
    while x != e:
        if w.ns[x] - 1 <= e:
            x = w.par1[x]
        else:
            x = e
        _w_add_block(w, h, val, alt, prev, x)
        prev = x


cdef void _w_pop_right(_Win *w, coin_t *h, coin_t *val, coin_t *alt, int64_t *right) noexcept nogil:
    """Remove the window's last coin (the window must not be empty)."""
    cdef int64_t last = right[0], b = w.prv[last], x, prev
    _w_drop_block(w, val, alt, b)
    right[0] = last - 1
    prev = last - 1
    x = prev
    while x != b:
        if w.ps[x] + 1 >= b:
            x = w.par2[x]
        else:
            x = b
        _w_add_block(w, h, val, alt, x, prev)
        prev = x


# ---------------------------------------------------------------------------------------
# Storage of one window structure.

cdef enum:
    _W_ARRAYS = 9  # the per-boundary int64 arrays of a _Win (pri, uint64, apart)


cdef inline void _w_win_arrays(_Win *w, int64_t ***arrays) noexcept nogil:
    """The _W_ARRAYS per-boundary int64 arrays of w, for _w_alloc_each and _w_free_each."""
    arrays[:_W_ARRAYS] = [&w.ns, &w.ps, &w.par1, &w.par2, &w.nxt, &w.prv, &w.tl, &w.tr, &w.sz]


cdef int _w_win_alloc(_Win *w, int64_t nb) noexcept nogil:
    """Allocate the arrays for nb boundaries (+ the nil node); NO_MEMORY on failure. Every
    pointer is set (NULL when it failed), for _w_win_free; _w_win_init fills the tree."""
    cdef int64_t **arrays[_W_ARRAYS]
    cdef bint ok
    w.nil = nb
    w.root = nb
    w.in_tree = NULL
    w.gate = nb + 1
    w.cells = nb + 1
    _w_journal_init(w)
    _w_win_arrays(w, arrays)
    ok = _w_alloc_each(arrays, _W_ARRAYS, nb + 1)
    w.pri = <uint64_t *> malloc((nb + 1) * sizeof(uint64_t))
    return OK if ok and w.pri != NULL else NO_MEMORY


cdef int _w_win_init(_Win *w) except -1 nogil:
    """An empty tree over the allocated boundaries: every node alone, with its priority.
    Looks at signals (it touches every page of four arrays: a second at 10^8 boundaries)."""
    cdef int64_t i, nb = w.nil
    for i in range(nb + 1):
        _forest_signals(i)
        w.pri[i] = _w_priority(<uint64_t> i)
        w.tl[i] = nb
        w.tr[i] = nb
        w.sz[i] = 0
    return 0


cdef void _w_win_free(_Win *w) noexcept nogil:
    cdef int64_t **arrays[_W_ARRAYS]
    free(w.in_tree)
    w.in_tree = NULL
    _w_journal_free(w)
    _w_win_arrays(w, arrays)
    _w_free_each(arrays, _W_ARRAYS)
    free(w.pri)
    w.pri = NULL


cdef coin_t _w_settle(_Win *w, coin_t *h, coin_t *val, coin_t *alt, int64_t left,
                      int64_t right, int64_t *ys, int64_t *pm, coin_t *sp, int64_t *m,
                      int64_t old_v) noexcept nogil:
    """Restore a stack's split between the treap and its Fruitless tail; return the tail's
    Fruitless term (the sum of x - M over its removed pairs).

    The reduced form of a stack [left, right] is the par1-path from the top (decreasing
    blocks), the minimum block (u, v), and the par2-path from the bottom ``right`` reversed
    (increasing): ys[0] = right, ys[j + 1] = par2(ys[j]), v = ys[m] with m the largest j such
    that ps(ys[i]) >= left for all i < j (pm[j] is that prefix minimum). Fruitless removes the
    increasing blocks in pairs from the bottom, the minimum block too when m is odd; the rest
    stays in the treap. Since ``right`` is fixed and ``left`` only grows, m only decreases:
    each block leaves the tail once, O(1) amortised per pop. Before the call the blocks that
    start before ``old_v`` are in the treap, the others not.
    """
    cdef int64_t v, u, t
    if left == right:
        m[0] = 0
        return 0
    while pm[m[0]] < left:
        m[0] -= 1
    v = ys[m[0]]
    u = w.prv[v]
    t = w.prv[old_v] if old_v > left else left
    while t != u:
        if not w.in_tree[t]:
            _w_tree_add(w, val, alt, t)
        t = w.nxt[t]
    if m[0] & 1:
        _w_drop_block(w, val, alt, u)
        return val[u] - sp[m[0]]
    if not w.in_tree[u]:
        _w_tree_add(w, val, alt, u)
    return -sp[m[0]]


cdef void _w_stack_path(coin_t *h, int64_t *ps, int64_t *par2, int64_t lo, int64_t right,
                        int64_t *ys, int64_t *pm, coin_t *sp, int64_t *length) noexcept nogil:
    """The par2-path from a stack's bottom boundary, its ps prefix minima and alternating
    block sums (see _w_settle)."""
    cdef int64_t j = 0
    ys[0] = right
    pm[0] = right + 2
    sp[0] = 0
    while ps[ys[j]] >= lo:
        ys[j + 1] = par2[ys[j]]
        pm[j + 1] = pm[j] if pm[j] <= ps[ys[j]] else ps[ys[j]]
        if j & 1:
            sp[j + 1] = sp[j] - (h[ys[j]] + h[ys[j + 1]])
        else:
            sp[j + 1] = sp[j] + (h[ys[j]] + h[ys[j + 1]])
        j += 1
    length[0] = j


cdef int _w_fill_component(RowWindows self, coin_t *h, coin_t *val, coin_t *alt, coin_t *sp,
                           coin_t *tail, Py_ssize_t c, int64_t lo, int64_t top,
                           int64_t *stack0, int64_t *stack1, int64_t *steps) except -1 nogil:
    """Fill component c of a new structure, boundaries lo..top with their heights in h: its
    static forests, its reduced form pushed coin by coin, and for a stack its par2-path and
    Fruitless term (tail[c]). O(m log m) for m coins; looks at signals (one step a coin)."""
    _w_forests_counted(h, lo, top, self.w.ns, self.w.ps, self.w.par1, self.w.par2, stack0,
                       stack1, steps)
    while self.right[c] < top:
        steps[0] += 1
        _forest_signals(steps[0])
        _w_push_right(&self.w, h, val, alt, self.left[c], &self.right[c])
    if c >= self.n_rows:
        _w_stack_path(h, self.w.ps, self.w.par2, lo, top, self.ys + lo, self.pm + lo, sp + lo,
                      &self.m[c])
        tail[c] = _w_settle(&self.w, h, val, alt, lo, top, self.ys + lo, self.pm + lo, sp + lo,
                            &self.m[c], lo)
    return 0


cdef coin_t _w_pop_stack_top(RowWindows self, Py_ssize_t c, coin_t *h, coin_t *val,
                             coin_t *alt, coin_t *sp, coin_t *tail) noexcept nogil:
    """Take the top coin of stack c and restore its Fruitless split; return by how much its
    Fruitless term (tail[c]) changed. O(log n) amortised."""
    cdef int64_t off = self.path_off[c], old_v = self.ys[off + self.m[c]]
    cdef coin_t before = tail[c]
    self.w.gate = old_v
    _w_pop_left(&self.w, h, val, alt, &self.left[c])
    tail[c] = _w_settle(&self.w, h, val, alt, self.left[c], self.right[c], self.ys + off,
                        self.pm + off, sp + off, &self.m[c], old_v)
    return tail[c] - before


cdef class RowWindows:
    """Live rows and stacks of a game: the reduced form of every component, the value of the
    game and an optimal move.

    ``RowWindows(coins, starts, stops, n_rows)`` takes the flat coins (an int64 or float64
    buffer) and each component's range ``[starts[c], stops[c])``; components ``n_rows ..``
    are stacks (top first). Construction is O(n log n); ``status`` is OK, or OVERFLOW when
    an int64 height would pass ``WINDOW_INT64_LIMIT`` (a float64 one 1e300; nothing else is
    usable then), or NOT_FINITE with ``bad_index`` (a flat index). ``value()`` is O(1);
    ``pop_left`` / ``pop_right`` cost O(log n) amortised per coin (docs/window.md: at most 2
    treap updates per pop of a row; a stack's Fruitless tail adds O(1) amortised). Building
    looks at signals (Ctrl-C raises KeyboardInterrupt at once); a pop never does, so an
    interrupt never leaves the structure half-updated. The exact twin is ``RowWindowsExact``.
    """

    def __cinit__(self, coins, const int64_t[::1] starts, const int64_t[::1] stops,
                  Py_ssize_t n_rows):
        cdef Py_ssize_t k = starts.shape[0], c
        cdef int64_t nb = 0, length, top, steps = 0
        cdef int st = OK
        cdef int64_t *stack0 = NULL
        cdef int64_t *stack1 = NULL
        cdef const int64_t[::1] ci
        cdef const double[::1] cf
        cdef int64_t **stacks[2]
        cdef int64_t **per_component[6]
        cdef int64_t **per_stack_boundary[2]
        cdef bint has_stacks, ok
        cdef double magnitude = 0
        if stops.shape[0] != k:
            raise ValueError("starts and stops differ in length")
        if not 0 <= n_rows <= k:
            raise ValueError("n_rows is not between 0 and the number of components")
        self.rows = k
        self.n_rows = n_rows
        has_stacks = n_rows < k
        self.is_float = memoryview(coins).format == "d"
        self.bad_index = -1
        self.fruitless = 0.0 if self.is_float else 0
        self.coins_left = 0
        self.first_stack = n_rows
        for c in range(k):
            if stops[c] < starts[c]:
                raise ValueError("a component ends before it starts")
            nb += stops[c] - starts[c] + 1
            self.coins_left += stops[c] - starts[c]
        per_component[:] = [&self.left, &self.right, &self.base, &self.flat, &self.m,
                            &self.path_off]
        ok = _w_alloc_each(per_component, 6, k + 1)
        if _w_win_alloc(&self.w, nb) != OK or not ok:
            raise MemoryError()
        if has_stacks:
            self.w.in_tree = <uint8_t *> calloc(nb + 1, sizeof(uint8_t))
            per_stack_boundary[:] = [&self.ys, &self.pm]
            if not _w_alloc_each(per_stack_boundary, 2, nb + 1) or self.w.in_tree == NULL:
                raise MemoryError()
        if self.is_float:
            cf = coins
            ok = _w_alloc_numbers(nb, k, &self.hf, &self.val_f, &self.alt_f, &self.sp_f,
                                  &self.tail_f)
        else:
            ci = coins
            ok = _w_alloc_numbers(nb, k, &self.hi, &self.val_i, &self.alt_i, &self.sp_i,
                                  &self.tail_i)
        if not ok:
            raise MemoryError()
        stacks[:] = [&stack0, &stack1]
        _w_alloc_stacks(stacks, nb + 1)
        try:
            # Interruptible (Ctrl-C): the exception leaves a half-built object that is never
            # returned (__dealloc__ frees what was allocated).
            with nogil:
                _w_win_init(&self.w)
                nb = 0
                for c in range(k):
                    length = stops[c] - starts[c]
                    top = nb + length
                    self.base[c] = nb
                    self.flat[c] = starts[c]
                    self.left[c] = nb
                    self.right[c] = nb
                    self.path_off[c] = nb
                    self.m[c] = 0
                    # The component's O(1) work (its coins count in _w_fill_component).
                    steps += 1
                    _forest_signals(steps)
                    if self.is_float:
                        st = _w_heights(cf, starts[c], stops[c], self.hf + nb, &magnitude)
                        if st == NOT_FINITE:
                            self.bad_index = _first_not_finite(cf, starts[c], stops[c])
                    else:
                        st = _w_heights(ci, starts[c], stops[c], self.hi + nb, &magnitude)
                    if st != OK:
                        break
                    # Stacks start with no block in the treap; _w_settle puts in what stays.
                    self.w.gate = nb if c >= n_rows else top + 2
                    if self.is_float:
                        _w_fill_component(self, self.hf, self.val_f, self.alt_f, self.sp_f,
                                          self.tail_f, c, nb, top, stack0, stack1, &steps)
                    else:
                        _w_fill_component(self, self.hi, self.val_i, self.alt_i, self.sp_i,
                                          self.tail_i, c, nb, top, stack0, stack1, &steps)
                    nb += length + 1
        finally:
            _w_free_each(stacks, 2)
        self.base[k] = nb
        self.status = st
        if st == OK:
            for c in range(n_rows, k):
                if self.is_float:
                    self.fruitless += self.tail_f[c]
                else:
                    self.fruitless += self.tail_i[c]

    def __dealloc__(self):
        _w_win_free(&self.w)
        free(self.hi)
        free(self.hf)
        free(self.val_i)
        free(self.alt_i)
        free(self.val_f)
        free(self.alt_f)
        free(self.left)
        free(self.right)
        free(self.base)
        free(self.flat)
        free(self.ys)
        free(self.pm)
        free(self.sp_i)
        free(self.sp_f)
        free(self.path_off)
        free(self.m)
        free(self.tail_i)
        free(self.tail_f)

    @cython.critical_section
    def value(self):
        """The value of the game for the player to move. O(1).

        The Greedy alternating sum of the blocks in the treap, plus the stacks' Fruitless
        terms, each counted (-1)^n for n coins left (as in the core's kernels).
        """
        cdef object greedy
        if self.is_float:
            greedy = self.alt_f[self.w.root]
        else:
            greedy = self.alt_i[self.w.root]
        if self.n_rows == self.rows:
            return greedy
        if self.coins_left & 1:
            return greedy - self.fruitless
        return greedy + self.fruitless

    @cython.critical_section
    def length(self, Py_ssize_t c):
        """Coins left in component c."""
        if not 0 <= c < self.rows:
            raise IndexError(c)
        return self.right[c] - self.left[c]

    @cython.critical_section
    def bounds(self, Py_ssize_t c):
        """``(start, stop)``: the flat range of the coins left in component c."""
        if not 0 <= c < self.rows:
            raise IndexError(c)
        return (self.flat[c] + self.left[c] - self.base[c],
                self.flat[c] + self.right[c] - self.base[c])

    cdef int64_t _row_of(self, int64_t t) noexcept nogil:
        cdef int64_t lo = 0, hi = self.rows - 1, mid
        while lo < hi:
            mid = (lo + hi + 1) >> 1
            if self.base[mid] <= t:
                lo = mid
            else:
                hi = mid - 1
        return lo

    cdef bint _left_is_larger(self, int64_t c) noexcept nogil:
        """Is the left end block of row c at least its right end block?"""
        cdef int64_t a = self.left[c], b = self.w.prv[self.right[c]]
        if self.is_float:
            return self.val_f[a] >= self.val_f[b]
        return self.val_i[a] >= self.val_i[b]

    cdef tuple _move_in(self, Py_ssize_t c):
        """``(c, from_left, flat)``: the move at the best end of component c, which has coins
        (a row's end with the larger end block, ties left; a stack's top). O(1)."""
        cdef bint from_left = True
        if c < self.n_rows:
            from_left = self._left_is_larger(c)
        return (c, from_left, self.flat[c] - self.base[c]
                + (self.left[c] if from_left else self.right[c] - 1))

    cdef int64_t _largest_block(self) noexcept nogil:
        """The treap node of the largest block (ties: the lowest node), -1 when the treap is
        empty. O(log n)."""
        cdef int64_t first = _w_first_node(&self.w)
        return -1 if first == self.w.nil else first

    cdef object _greedy_with(self, int64_t frozen_i, double frozen_f):
        """The Greedy alternating sum of the treap's blocks, and ``frozen`` (frozen_i on int64
        coins, frozen_f on float64 ones) with the sign of their parity: minus after an odd
        number of blocks. O(1)."""
        cdef int64_t root = self.w.root
        if self.is_float:
            if self.w.sz[root] & 1:
                return self.alt_f[root] - frozen_f
            return self.alt_f[root] + frozen_f
        if self.w.sz[root] & 1:
            return self.alt_i[root] - frozen_i
        return self.alt_i[root] + frozen_i

    # -- blocks that are not the rows' (ForestWindows: the forest's slots) ----------------------

    cdef int64_t _add_cells(self, int64_t extra) except -1:
        """Room for ``extra`` more treap nodes after the nil node; returns the first of them
        (nil + 1). Each is alone and out of the treap until ``_insert_block`` or
        ``_insert_blocks``; they order after every row block on ties (the treap breaks ties by
        node id, docs/window.md). MemoryError when refused (arrays already grown stay valid).
        O(nil + extra)."""
        cdef int64_t nil = self.w.nil, cells = nil + 1 + extra, i
        self.w.tl = <int64_t *> _w_regrown(self.w.tl, cells * sizeof(int64_t))
        self.w.tr = <int64_t *> _w_regrown(self.w.tr, cells * sizeof(int64_t))
        self.w.sz = <int64_t *> _w_regrown(self.w.sz, cells * sizeof(int64_t))
        self.w.pri = <uint64_t *> _w_regrown(self.w.pri, cells * sizeof(uint64_t))
        if self.is_float:
            self.val_f = <double *> _w_regrown(self.val_f, cells * sizeof(double))
            self.alt_f = <double *> _w_regrown(self.alt_f, cells * sizeof(double))
        else:
            self.val_i = <int64_t *> _w_regrown(self.val_i, cells * sizeof(int64_t))
            self.alt_i = <int64_t *> _w_regrown(self.alt_i, cells * sizeof(int64_t))
        self.w.cells = cells
        for i in range(nil + 1, cells):
            self.w.pri[i] = _w_priority(<uint64_t> i)
            self.w.tl[i] = nil
            self.w.tr[i] = nil
            self.w.sz[i] = 0
            if self.is_float:
                self.val_f[i] = 0
                self.alt_f[i] = 0
            else:
                self.val_i[i] = 0
                self.alt_i[i] = 0
        return nil + 1

    cdef int _insert_blocks(self, int64_t node0, const uint8_t *alive, int64_t n,
                            const int64_t *K_i, const double *K_f) except -1 nogil:
        """Put the blocks s < n with ``alive[s]`` in the treap at once, as nodes node0 + s
        (from ``_add_cells``) worth K_i[s] (int64 coins) or K_f[s] (float64). OK, or
        NO_MEMORY when scratch is refused. O(m log n) for m blocks."""
        if self.is_float:
            return _w_add_all(&self.w, self.val_f, self.alt_f, node0, alive, n, K_f)
        return _w_add_all(&self.w, self.val_i, self.alt_i, node0, alive, n, K_i)

    cdef void _insert_block(self, int64_t node, int64_t value_i, double value_f) noexcept nogil:
        """Put block ``node`` (from ``_add_cells``) in the treap, worth value_i (int64 coins)
        or value_f (float64). O(log n)."""
        if self.is_float:
            self.val_f[node] = value_f
            _w_tree_add(&self.w, self.val_f, self.alt_f, node)
        else:
            self.val_i[node] = value_i
            _w_tree_add(&self.w, self.val_i, self.alt_i, node)

    cdef void _drop_block(self, int64_t node) noexcept nogil:
        """Take block ``node`` out of the treap. O(log n)."""
        if self.is_float:
            _w_drop_block(&self.w, self.val_f, self.alt_f, node)
        else:
            _w_drop_block(&self.w, self.val_i, self.alt_i, node)

    @cython.critical_section
    def best(self):
        """``(component, from_left, flat)``: an optimal move and the flat index of its coin,
        or ``(-1, True, -1)`` when no coin is left.

        The largest block in the treap (ties: the lowest component), taken from the end of
        its row where it lies (ties: left) or from the top of its stack; when only Fruitless
        tails are left, the top of the first stack that has coins. O(1) for one row,
        O(log n) otherwise.
        """
        cdef int64_t first, c
        if self.rows == 1 and self.n_rows == 1:
            if self.left[0] == self.right[0]:
                return -1, True, -1
            c = 0
        else:
            first = _w_first_node(&self.w)
            if first == self.w.nil:
                while self.first_stack < self.rows and \
                        self.left[self.first_stack] == self.right[self.first_stack]:
                    self.first_stack += 1
                if self.first_stack == self.rows:
                    return -1, True, -1
                c = self.first_stack
            else:
                c = self._row_of(first)
        return self._move_in(c)

    @cython.critical_section
    def best_in_row(self, Py_ssize_t c):
        """True when the left end of row c is its best end (the larger end block, ties left)."""
        if not 0 <= c < self.n_rows or self.left[c] == self.right[c]:
            raise IndexError(c)
        return self._left_is_larger(c)

    @cython.critical_section
    def pop_left(self, Py_ssize_t c):
        """Take the leftmost coin of row c, or the top of stack c (which must have coins)."""
        if not 0 <= c < self.rows or self.left[c] == self.right[c]:
            raise IndexError(c)
        self.coins_left -= 1
        if c < self.n_rows:
            _w_pop_left_any(self, c)
            return
        _w_pop_stack_top_any(self, c)

    @cython.critical_section
    def pop_right(self, Py_ssize_t c):
        """Take the rightmost coin of row c (which must not be empty)."""
        if not 0 <= c < self.n_rows or self.left[c] == self.right[c]:
            raise IndexError(c)
        self.coins_left -= 1
        _w_pop_right_any(self, c)

    @cython.critical_section
    def value_after(self, Py_ssize_t c, bint from_left, frozen=None):
        """The value after taking the left end of row c (the top of stack c) or its right
        end, the structure left exactly as it was (with ``frozen``: ForestWindows' value, see
        ``_w_value_after`` in _window.pxd). Costs what that pop costs, twice: O(log n) for a
        typical move, O(b log n) when it puts b blocks in the treap."""
        return _w_value_after(self, c, from_left, frozen)

    @cython.critical_section
    def blocks(self, Py_ssize_t c):
        """The block values of component c's reduced form, left to right (for tests)."""
        cdef int64_t t
        out = []
        if not 0 <= c < self.rows:
            raise IndexError(c)
        t = self.left[c]
        while t != self.right[c]:
            if self.is_float:
                out.append(self.val_f[t])
            else:
                out.append(self.val_i[t])
            t = self.w.nxt[t]
        return out

    @cython.critical_section
    def kept(self, Py_ssize_t c):
        """The kept boundaries of component c's reduced form, left to right, counted from
        its first coin (block i spans coins kept[i] .. kept[i + 1] - 1)."""
        cdef int64_t t
        if not 0 <= c < self.rows:
            raise IndexError(c)
        out = [self.left[c] - self.base[c]]
        t = self.left[c]
        while t != self.right[c]:
            t = self.w.nxt[t]
            out.append(t - self.base[c])
        return out

    @cython.critical_section
    def _state(self):
        """The whole structure as a dict of Python lists and numbers, O(n): what
        tests/window_check.py verifies against the invariants of docs/window.md."""
        cdef int64_t t, nb = self.w.nil
        return dict(
            h=[self.hf[t] if self.is_float else self.hi[t] for t in range(nb)],
            base=[self.base[c] for c in range(self.rows + 1)],
            left=[self.left[c] for c in range(self.rows)],
            right=[self.right[c] for c in range(self.rows)],
            nxt=[self.w.nxt[t] for t in range(nb + 1)],
            val=[self.val_f[t] if self.is_float else self.val_i[t] for t in range(nb + 1)],
            alt=[self.alt_f[t] if self.is_float else self.alt_i[t] for t in range(nb + 1)],
            tl=[self.w.tl[t] for t in range(nb + 1)], tr=[self.w.tr[t] for t in range(nb + 1)],
            sz=[self.w.sz[t] for t in range(nb + 1)], root=self.w.root, nil=nb,
            in_tree=None if self.w.in_tree == NULL
            else [self.w.in_tree[t] for t in range(nb + 1)],
            n_rows=self.n_rows, coins_left=self.coins_left, fruitless=self.fruitless)

    @cython.critical_section
    def end_blocks(self, Py_ssize_t c):
        """``(left, right)``: how many coins the end blocks of row c span (the benchmarks'
        adversary)."""
        if not 0 <= c < self.rows or self.left[c] == self.right[c]:
            raise IndexError(c)
        return (self.w.nxt[self.left[c]] - self.left[c],
                self.right[c] - self.w.prv[self.right[c]])


# ---------------------------------------------------------------------------------------
# The pizza: the first player takes any slice i, then the rest is a row. One window slides
# over the doubled circle; the row left after slice i is the window [i + 1, i + n].

cdef tuple _w_report(int status, int64_t bad, object answer):
    """A pizza kernel's ``(status, answer or bad index)``: MemoryError when out of memory."""
    if status == NO_MEMORY:
        raise MemoryError()
    if status == NOT_FINITE:
        return Status.NOT_FINITE, bad
    return status, answer


def window_pizza(const coin_t[::1] circle):
    """Best first slice of the circle: ``(status, (first_slice, value) or bad index)``.

    value = max over i of circle[i] - value(row after slice i); the smallest such i.
    O(n log n) time (at most 5 treap updates per shift, amortised), O(n) memory. Looks at
    signals while it runs (Ctrl-C raises KeyboardInterrupt at once). The exact twin is
    ``window_pizza_exact``.
    """
    cdef int64_t n = circle.shape[0], nb = 2 * n + 1, j, i, left = 1, right = 1
    cdef int64_t best_index = -1, bad = -1, steps = 0
    cdef int st = OK
    cdef coin_t x, v, best = 0
    cdef double magnitude = 0
    cdef coin_t *h = NULL
    cdef coin_t *val = NULL
    cdef coin_t *alt = NULL
    cdef int64_t *stack0 = NULL
    cdef int64_t *stack1 = NULL
    cdef coin_t **numbers[3]
    cdef int64_t **stacks[2]
    cdef bint ok
    cdef _Win w
    if n == 0:
        return Status.OK, (-1, best)
    numbers[:] = [&h, &val, &alt]
    stacks[:] = [&stack0, &stack1]
    with nogil:
        st = _w_win_alloc(&w, nb)  # every pointer of w set (NULL on failure): freed below
    try:
        with nogil:
            if st == OK:
                _w_win_init(&w)
            ok = _w_alloc_each(numbers, 3, nb + 1)
            ok &= _w_alloc_each(stacks, 2, nb + 1)
            if st != OK or not ok:
                st = NO_MEMORY
            else:
                val[nb] = 0
                alt[nb] = 0
                h[0] = 0
                if coin_t is double:
                    bad = _first_not_finite(circle, 0, n)
                    if bad >= 0:
                        st = NOT_FINITE
                for j in range(2 * n):
                    if st != OK:
                        break
                    _forest_signals(j)
                    x = circle[j if j < n else j - n]
                    if coin_t is double:
                        h[j + 1] = x - h[j]
                        magnitude += fabs(x)
                    else:
                        if (coinsrow_sub_overflow(x, h[j], &h[j + 1]) or h[j + 1] >= _H_LIMIT
                                or h[j + 1] <= -_H_LIMIT):
                            st = OVERFLOW
                            break
            if coin_t is double:
                if st == OK and not magnitude < _F_LIMIT:
                    st = OVERFLOW
            if st == OK:
                _w_forests_counted(h, 0, nb - 1, w.ns, w.ps, w.par1, w.par2, stack0, stack1,
                                   &steps)
                while right < n:
                    steps += 1
                    _forest_signals(steps)
                    _w_push_right(&w, h, val, alt, left, &right)
                for i in range(n):
                    # A shift costs up to about 5 treap updates (amortised): 8 steps.
                    _forest_signals(i << 3)
                    if i > 0:
                        _w_pop_left(&w, h, val, alt, &left)
                        _w_push_right(&w, h, val, alt, left, &right)
                    if sub_checked(circle[i], alt[w.root], &v):
                        st = OVERFLOW
                        break
                    if best_index < 0 or v > best:
                        best = v
                        best_index = i
    finally:
        _w_win_free(&w)
        _w_free_each(numbers, 3)
        _w_free_each(stacks, 2)
    return _w_report(st, bad, (best_index, best) if st == OK else None)


def pizza_profits(const coin_t[::1] circle, int64_t first_slice):
    """What each player collects in the pizza when the first player's first slice is
    ``first_slice`` and both play optimally after it: ``(status, (first, second))``.

    The rest of the circle, from the slice after it round to the slice before it, is a row
    in which the second player moves first. int64: from the rest's sum and value, exactly;
    float64: each player's coins (the first slice counted for the first player) summed
    exactly and rounded once, as ``game_profits`` does. O(n). The exact twin is
    ``pizza_profits_exact``.
    """
    cdef int64_t n = circle.shape[0], j, m, top
    cdef coin_t total = 0, value = 0, twice, first = 0, second = 0, rest_first
    cdef double first_f = 0, second_f = 0
    cdef coin_t *values = NULL
    cdef int64_t *segments = NULL
    cdef int64_t bad = -1
    cdef int status = OK
    cdef bint ovf = False
    if not 0 <= first_slice < n:
        raise ValueError("the first slice is not a slice of the circle")
    m = n - 1
    rest_array = _window_array("q" if coin_t is int64_t else "d", bytes(8 * m))
    cdef coin_t[::1] rest = rest_array
    with nogil:
        for j in range(m):
            rest[j] = circle[(first_slice + 1 + j) % n]
        values = <coin_t *> malloc((m if m > 0 else 1) * sizeof(coin_t))
        segments = <int64_t *> malloc((m if m > 0 else 1) * sizeof(int64_t))
        if values == NULL or segments == NULL:
            status = NO_MEMORY
        elif coin_t is double:
            bad = _first_not_finite(circle, 0, n)
            if bad >= 0:
                status = NOT_FINITE
            else:
                # In the rest the second player moves first, so his coins are the rest's
                # first profit; the first slice joins hers before the one rounding.
                status = _one_row_float_profits(rest, 0, m, values, segments, &second_f,
                                                &first_f, circle[first_slice])
                first = first_f
                second = second_f
        else:
            top = _reduce_into(rest, 0, m, values, 0, NULL, &ovf, False)
            value = _one_row_greedy(values, 0, top - 1, &ovf)
            for j in range(m):
                ovf |= add_checked(total, rest[j], &total)
            # sum + value is twice what the rest's first mover (the second player) takes.
            ovf |= add_checked(total, value, &twice)
            second = twice // 2
            ovf |= sub_checked(total, second, &rest_first)
            ovf |= add_checked(rest_first, circle[first_slice], &first)
            if ovf:
                status = OVERFLOW
        free(values)
        free(segments)
    return _w_report(status, bad, (first, second))
