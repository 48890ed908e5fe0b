# Included by _core.pyx: the window structure (research/window.md).
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

from libc.stdint cimport uint64_t
from libc.stdlib cimport calloc
cimport cython

# |h| must stay below this for the int64 window loops (see above).
WINDOW_INT64_LIMIT = 2**59

cdef int64_t _H_LIMIT = (<int64_t> 1) << 59
# float64: past this magnitude a block value or an alternating sum could overflow to inf; the
# wrappers then solve the floats exactly as Fractions (and round the results).
cdef double _F_LIMIT = 1e300


cdef inline bint _w_key_less(coin_t *h, int64_t a, int64_t b) noexcept nogil:
    """key(a) < key(b) for the perturbed keys (h[t], t)."""
    return h[a] < h[b] or (h[a] == h[b] and a < b)


cdef int _w_heights(const coin_t[::1] coins, int64_t start, int64_t stop, coin_t *h) noexcept nogil:
    """h[0..stop-start] for coins[start:stop]; _OVERFLOW past the int64 (float) limit,
    _NOT_FINITE if a coin is NaN or infinite (checked first)."""
    cdef int64_t j
    cdef coin_t x
    h[0] = 0
    if coin_t is double:
        if _first_not_finite(coins, start, stop) >= 0:
            return _NOT_FINITE
    for j in range(stop - start):
        x = coins[start + j]
        if coin_t is double:
            h[j + 1] = x - h[j]
            if not (-_F_LIMIT < h[j + 1] < _F_LIMIT):
                return _OVERFLOW
        else:
            if coinsrow_sub_overflow(x, h[j], &h[j + 1]):
                return _OVERFLOW
            if h[j + 1] >= _H_LIMIT or h[j + 1] <= -_H_LIMIT:
                return _OVERFLOW
    return _OK


cdef int64_t _w_search_chain(int64_t *stack_pos, int64_t size, int64_t bound, bint at_most) noexcept nogil:
    """Deepest entry of a monotone stack on the right side of ``bound``.

    stack_pos[0 .. size-1] runs from the bottom to the top. When ``at_most`` the positions
    decrease from bottom to top and the answer is the lowest index i with stack_pos[i] <= bound;
    otherwise they increase and it is the lowest i with stack_pos[i] >= bound.
    """
    cdef int64_t lo = 0, hi = size - 1, mid
    while lo < hi:
        mid = (lo + hi) >> 1
        if (stack_pos[mid] <= bound) if at_most else (stack_pos[mid] >= bound):
            hi = mid
        else:
            lo = mid + 1
    return stack_pos[lo]


cdef void _w_forests(coin_t *h, int64_t lo, int64_t hi, int64_t *ns, int64_t *ps,
                   int64_t *par1, int64_t *par2, int64_t *stack0, int64_t *stack1) noexcept nogil:
    """The static forests of the boundaries lo..hi (one row), O(m log m), O(m) memory.

    ns(t) / ps(t): the next / previous boundary of t's parity class with a smaller key
    (hi + 2 / lo - 2 when there is none); par1(t): the smallest-key boundary of the other
    class on (t, ns(t) - 1]; par2(t): the same on [ps(t) + 1, t) (-1 when undefined).

    One sweep per direction keeps, per class, the chain of running minima seen from the sweep
    point (a monotone stack); the range minimum of the other class is the deepest chain entry
    inside the range, found by binary search.
    """
    cdef int64_t t, size0 = 0, size1 = 0, bound
    cdef int64_t *own
    cdef int64_t *other
    cdef int64_t *own_size
    cdef int64_t other_size
    # Right to left: ns and par1. stack positions decrease from bottom to top.
    t = hi + 1
    while t > lo:
        t -= 1
        if (t - lo) & 1:
            own = stack1
            own_size = &size1
            other = stack0
            other_size = size0
        else:
            own = stack0
            own_size = &size0
            other = stack1
            other_size = size1
        while own_size[0] > 0 and _w_key_less(h, t, own[own_size[0] - 1]):
            own_size[0] -= 1
        ns[t] = own[own_size[0] - 1] if own_size[0] > 0 else hi + 2
        own[own_size[0]] = t
        own_size[0] += 1
        if ns[t] <= hi:
            bound = ns[t] - 1
            par1[t] = _w_search_chain(other, other_size, bound, True)
        else:
            par1[t] = -1
    # Left to right: ps and par2. stack positions increase from bottom to top.
    size0 = 0
    size1 = 0
    for t in range(lo, hi + 1):
        if (t - lo) & 1:
            own = stack1
            own_size = &size1
            other = stack0
            other_size = size0
        else:
            own = stack0
            own_size = &size0
            other = stack1
            other_size = size1
        while own_size[0] > 0 and _w_key_less(h, t, own[own_size[0] - 1]):
            own_size[0] -= 1
        ps[t] = own[own_size[0] - 1] if own_size[0] > 0 else lo - 2
        own[own_size[0]] = t
        own_size[0] += 1
        if ps[t] >= lo:
            bound = ps[t] + 1
            par2[t] = _w_search_chain(other, other_size, bound, False)
        else:
            par2[t] = -1


def window_forests(const coin_t[::1] keys, int64_t[::1] ns, int64_t[::1] ps,
                   int64_t[::1] par1, int64_t[::1] par2):
    """The static forests of one row given its boundary keys (heights or their ranks).

    ``keys`` has one entry per boundary (m + 1 for m coins); the outputs as well. Keys are
    compared as (key, index). O(m log m) time, O(m) memory. Used by the exact fallback,
    which passes the ranks of exact heights.
    """
    cdef int64_t nb = keys.shape[0]
    cdef int64_t *stack0
    cdef int64_t *stack1
    if ns.shape[0] < nb or ps.shape[0] < nb or par1.shape[0] < nb or par2.shape[0] < nb:
        raise ValueError("output buffers are shorter than the keys")
    if nb == 0:
        return
    stack0 = <int64_t *> malloc(nb * sizeof(int64_t))
    stack1 = <int64_t *> malloc(nb * sizeof(int64_t))
    if stack0 == NULL or stack1 == NULL:
        free(stack0)
        free(stack1)
        raise MemoryError()
    with nogil:
        _w_forests(<coin_t *> &keys[0], 0, nb - 1, &ns[0], &ps[0], &par1[0], &par2[0],
                 stack0, stack1)
    free(stack0)
    free(stack1)


# ---------------------------------------------------------------------------------------
# The treap of block values (nodes are boundaries; ``nil`` is an extra node of size 0).

cdef struct _Win:
    int64_t nil
    int64_t root
    int64_t *ns
    int64_t *ps
    int64_t *par1
    int64_t *par2
    int64_t *nxt       # next kept boundary (valid for kept boundaries but the last)
    int64_t *prv       # previous kept boundary (valid for kept boundaries but the first)
    int64_t *tl
    int64_t *tr
    int64_t *sz
    uint64_t *pri
    int64_t updates    # treap insertions + deletions, for the benchmarks
    uint8_t *in_tree   # NULL, or per block: is it in the treap (stacks keep some out)
    int64_t gate       # with in_tree: only blocks starting before the gate enter the treap


cdef inline uint64_t _w_priority(uint64_t x) noexcept nogil:
    # splitmix64: fixed, well-mixed priorities; the tree shape does not depend on the values.
    x += <uint64_t> 0x9E3779B97F4A7C15
    x = (x ^ (x >> 30)) * <uint64_t> 0xBF58476D1CE4E5B9
    x = (x ^ (x >> 27)) * <uint64_t> 0x94D049BB133111EB
    return x ^ (x >> 31)


cdef inline bint _w_before(coin_t *val, int64_t a, int64_t b) noexcept nogil:
    """In-order: larger block value first, then the smaller boundary."""
    return val[a] > val[b] or (val[a] == val[b] and a < b)


cdef inline void _w_pull(_Win *w, coin_t *val, coin_t *alt, int64_t i) noexcept nogil:
    cdef int64_t l = w.tl[i], r = w.tr[i]
    w.sz[i] = w.sz[l] + 1 + w.sz[r]
    if w.sz[l] & 1:
        alt[i] = alt[l] - val[i] + alt[r]
    else:
        alt[i] = alt[l] + val[i] - alt[r]


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


cdef inline void _w_add_block(_Win *w, coin_t *h, coin_t *val, coin_t *alt,
                            int64_t t, int64_t u) noexcept nogil:
    """Keep the block [t, u): link the boundaries and insert its value."""
    val[t] = h[t] + h[u]
    w.nxt[t] = u
    w.prv[u] = t
    if w.in_tree != NULL:
        if t >= w.gate:
            w.in_tree[t] = 0
            return
        w.in_tree[t] = 1
    _w_tree_add(w, val, alt, t)


cdef inline void _w_tree_add(_Win *w, coin_t *val, coin_t *alt, int64_t t) noexcept nogil:
    """Insert the kept block t (its value already in val[t]) into the treap."""
    alt[t] = val[t]
    w.tl[t] = w.nil
    w.tr[t] = w.nil
    w.sz[t] = 1
    if w.in_tree != NULL:
        w.in_tree[t] = 1
    w.root = _w_insert(w, val, alt, w.root, t)
    w.updates += 1


cdef inline void _w_drop_block(_Win *w, coin_t *val, coin_t *alt, int64_t t) noexcept nogil:
    if w.in_tree != NULL:
        if not w.in_tree[t]:
            return
        w.in_tree[t] = 0
    w.root = _w_delete(w, val, alt, w.root, t)
    w.updates += 1


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


cdef inline int64_t _w_first_node(_Win *w) noexcept nogil:
    """The in-order first node: the largest block (smallest boundary on ties)."""
    cdef int64_t i = w.root
    if i == w.nil:
        return i
    while w.tl[i] != w.nil:
        i = w.tl[i]
    return i


# ---------------------------------------------------------------------------------------
# Storage of one window structure.

cdef int _w_win_alloc(_Win *w, int64_t nb) noexcept nogil:
    """Allocate the arrays for nb boundaries (+ the nil node); _NO_MEMORY on failure."""
    cdef int64_t i, cells = nb + 1
    w.nil = nb
    w.root = nb
    w.updates = 0
    w.in_tree = NULL
    w.gate = nb + 1
    w.ns = <int64_t *> malloc(cells * sizeof(int64_t))
    w.ps = <int64_t *> malloc(cells * sizeof(int64_t))
    w.par1 = <int64_t *> malloc(cells * sizeof(int64_t))
    w.par2 = <int64_t *> malloc(cells * sizeof(int64_t))
    w.nxt = <int64_t *> malloc(cells * sizeof(int64_t))
    w.prv = <int64_t *> malloc(cells * sizeof(int64_t))
    w.tl = <int64_t *> malloc(cells * sizeof(int64_t))
    w.tr = <int64_t *> malloc(cells * sizeof(int64_t))
    w.sz = <int64_t *> malloc(cells * sizeof(int64_t))
    w.pri = <uint64_t *> malloc(cells * sizeof(uint64_t))
    if (w.ns == NULL or w.ps == NULL or w.par1 == NULL or w.par2 == NULL or w.nxt == NULL
            or w.prv == NULL or w.tl == NULL or w.tr == NULL or w.sz == NULL or w.pri == NULL):
        return _NO_MEMORY
    for i in range(cells):
        w.pri[i] = _w_priority(<uint64_t> i)
        w.tl[i] = nb
        w.tr[i] = nb
        w.sz[i] = 0
    return _OK


cdef void _w_win_free(_Win *w) noexcept nogil:
    free(w.in_tree)
    w.in_tree = NULL
    free(w.ns)
    free(w.ps)
    free(w.par1)
    free(w.par2)
    free(w.nxt)
    free(w.prv)
    free(w.tl)
    free(w.tr)
    free(w.sz)
    free(w.pri)
    w.ns = w.ps = w.par1 = w.par2 = w.nxt = w.prv = w.tl = w.tr = w.sz = NULL
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


cdef class RowWindows:
    """Live rows and stacks of a game: the reduced form of every component, the value of the
    game and an optimal move.

    ``RowWindows(coins, starts, stops, kind, n_rows=-1)`` takes the flat coins (an int64 or
    float64 buffer; ``kind`` 0 / 1) and each component's range ``[starts[c], stops[c])``;
    components ``n_rows ..`` are stacks (top first; all rows when n_rows is -1).
    Construction is O(n log n); ``status`` is STATUS_OK, or STATUS_OVERFLOW when an int64
    height would pass ``WINDOW_INT64_LIMIT`` (nothing else is usable then), or
    STATUS_NOT_FINITE with ``bad_index`` (a flat index). ``value()`` is O(1); ``pop_left`` /
    ``pop_right`` cost O(log n) amortised per coin (research/window.md: at most 2 treap
    updates per pop of a row; a stack's Fruitless tail adds O(1) amortised).
    """

    cdef _Win w
    cdef bint is_float
    cdef int64_t *hi
    cdef double *hf
    cdef int64_t *val_i
    cdef int64_t *alt_i
    cdef double *val_f
    cdef double *alt_f
    cdef int64_t *left       # per component: current left (top) boundary (kept)
    cdef int64_t *right      # per component: current right (bottom) boundary (kept)
    cdef int64_t *base       # per component: boundary of its first coin at construction
    cdef int64_t *flat       # per component: flat index of that coin
    # Stacks: the par2-path of the bottom (see _w_settle), per stack at path_off[c].
    cdef int64_t *ys
    cdef int64_t *pm
    cdef int64_t *sp_i
    cdef double *sp_f
    cdef int64_t *path_off
    cdef int64_t *m
    cdef int64_t *tail_i     # per stack: its Fruitless term
    cdef double *tail_f
    cdef object fruitless    # sum of the stacks' Fruitless terms (a Python number: exact)
    cdef int64_t coins_left
    cdef int64_t first_stack  # no stack before it has coins left
    cdef readonly Py_ssize_t rows
    cdef readonly Py_ssize_t n_rows
    cdef readonly int status
    cdef readonly int64_t bad_index

    def __cinit__(self, coins, const int64_t[::1] starts, const int64_t[::1] stops, int kind,
                  Py_ssize_t n_rows=-1):
        cdef Py_ssize_t k = starts.shape[0], c
        cdef int64_t nb = 0, length, top
        cdef int st = _OK
        cdef int64_t *stack0 = NULL
        cdef int64_t *stack1 = NULL
        cdef const int64_t[::1] ci
        cdef const double[::1] cf
        cdef bint has_stacks
        if stops.shape[0] != k:
            raise ValueError("starts and stops differ in length")
        if n_rows < 0 or n_rows > k:
            n_rows = k
        self.rows = k
        self.n_rows = n_rows
        has_stacks = n_rows < k
        self.is_float = kind == 1
        self.bad_index = -1
        self.fruitless = 0.0 if self.is_float else 0
        self.coins_left = 0
        self.first_stack = n_rows
        for c in range(k):
            if stops[c] < starts[c]:
                raise ValueError("a component ends before it starts")
            nb += stops[c] - starts[c] + 1
            self.coins_left += stops[c] - starts[c]
        self.left = <int64_t *> malloc((k + 1) * sizeof(int64_t))
        self.right = <int64_t *> malloc((k + 1) * sizeof(int64_t))
        self.base = <int64_t *> malloc((k + 1) * sizeof(int64_t))
        self.flat = <int64_t *> malloc((k + 1) * sizeof(int64_t))
        self.m = <int64_t *> malloc((k + 1) * sizeof(int64_t))
        self.path_off = <int64_t *> malloc((k + 1) * sizeof(int64_t))
        if _w_win_alloc(&self.w, nb) != _OK or self.left == NULL or self.right == NULL \
                or self.base == NULL or self.flat == NULL or self.m == NULL \
                or self.path_off == NULL:
            raise MemoryError()
        if has_stacks:
            self.w.in_tree = <uint8_t *> calloc(nb + 1, sizeof(uint8_t))
            self.ys = <int64_t *> malloc((nb + 1) * sizeof(int64_t))
            self.pm = <int64_t *> malloc((nb + 1) * sizeof(int64_t))
            if self.w.in_tree == NULL or self.ys == NULL or self.pm == NULL:
                raise MemoryError()
        if self.is_float:
            cf = coins
            self.hf = <double *> malloc((nb + 1) * sizeof(double))
            self.val_f = <double *> malloc((nb + 1) * sizeof(double))
            self.alt_f = <double *> malloc((nb + 1) * sizeof(double))
            self.sp_f = <double *> malloc((nb + 1) * sizeof(double))
            self.tail_f = <double *> calloc(k + 1, sizeof(double))
            if (self.hf == NULL or self.val_f == NULL or self.alt_f == NULL
                    or self.sp_f == NULL or self.tail_f == NULL):
                raise MemoryError()
            self.val_f[nb] = 0
            self.alt_f[nb] = 0
        else:
            ci = coins
            self.hi = <int64_t *> malloc((nb + 1) * sizeof(int64_t))
            self.val_i = <int64_t *> malloc((nb + 1) * sizeof(int64_t))
            self.alt_i = <int64_t *> malloc((nb + 1) * sizeof(int64_t))
            self.sp_i = <int64_t *> malloc((nb + 1) * sizeof(int64_t))
            self.tail_i = <int64_t *> calloc(k + 1, sizeof(int64_t))
            if (self.hi == NULL or self.val_i == NULL or self.alt_i == NULL
                    or self.sp_i == NULL or self.tail_i == NULL):
                raise MemoryError()
            self.val_i[nb] = 0
            self.alt_i[nb] = 0
        stack0 = <int64_t *> malloc((nb + 1) * sizeof(int64_t))
        stack1 = <int64_t *> malloc((nb + 1) * sizeof(int64_t))
        if stack0 == NULL or stack1 == NULL:
            free(stack0)
            free(stack1)
            raise MemoryError()
        with nogil:
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
                if self.is_float:
                    st = _w_heights(cf, starts[c], stops[c], self.hf + nb)
                    if st == _NOT_FINITE:
                        self.bad_index = _first_not_finite(cf, starts[c], stops[c])
                else:
                    st = _w_heights(ci, starts[c], stops[c], self.hi + nb)
                if st != _OK:
                    break
                # Stacks start with no block in the treap; _w_settle puts in what stays.
                self.w.gate = nb if c >= n_rows else top + 2
                if self.is_float:
                    _w_forests(self.hf, nb, top, self.w.ns, self.w.ps,
                               self.w.par1, self.w.par2, stack0, stack1)
                    while self.right[c] < top:
                        _w_push_right(&self.w, self.hf, self.val_f, self.alt_f, self.left[c],
                                      &self.right[c])
                    if c >= n_rows:
                        _w_stack_path(self.hf, self.w.ps, self.w.par2, nb, top, self.ys + nb,
                                      self.pm + nb, self.sp_f + nb, &self.m[c])
                        self.tail_f[c] = _w_settle(&self.w, self.hf, self.val_f, self.alt_f,
                                                   nb, top, self.ys + nb, self.pm + nb,
                                                   self.sp_f + nb, &self.m[c], nb)
                else:
                    _w_forests(self.hi, nb, top, self.w.ns, self.w.ps,
                               self.w.par1, self.w.par2, stack0, stack1)
                    while self.right[c] < top:
                        _w_push_right(&self.w, self.hi, self.val_i, self.alt_i, self.left[c],
                                      &self.right[c])
                    if c >= n_rows:
                        _w_stack_path(self.hi, self.w.ps, self.w.par2, nb, top, self.ys + nb,
                                      self.pm + nb, self.sp_i + nb, &self.m[c])
                        self.tail_i[c] = _w_settle(&self.w, self.hi, self.val_i, self.alt_i,
                                                   nb, top, self.ys + nb, self.pm + nb,
                                                   self.sp_i + nb, &self.m[c], nb)
                nb += length + 1
        free(stack0)
        free(stack1)
        self.base[k] = nb
        self.status = st
        if st == _OK:
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
        cdef bint from_left = True
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
        if c < self.n_rows:
            from_left = self._left_is_larger(c)
        return (c, from_left, self.flat[c] - self.base[c]
                + (self.left[c] if from_left else self.right[c] - 1))

    @cython.critical_section
    def best_in_row(self, Py_ssize_t c):
        """True when the left end of row c is its best end (the larger end block, ties left)."""
        if not 0 <= c < self.n_rows or self.left[c] == self.right[c]:
            raise IndexError(c)
        return self._left_is_larger(c)

    @cython.critical_section
    def pop_left(self, Py_ssize_t c):
        """Take the leftmost coin of row c, or the top of stack c (which must have coins)."""
        cdef int64_t old_v, off, ti
        cdef double t
        if not 0 <= c < self.rows or self.left[c] == self.right[c]:
            raise IndexError(c)
        self.coins_left -= 1
        if c < self.n_rows:
            _w_pop_left_any(self, c)
            return
        off = self.path_off[c]
        old_v = self.ys[off + self.m[c]]
        self.w.gate = old_v
        if self.is_float:
            _w_pop_left(&self.w, self.hf, self.val_f, self.alt_f, &self.left[c])
            t = _w_settle(&self.w, self.hf, self.val_f, self.alt_f, self.left[c],
                          self.right[c], self.ys + off, self.pm + off, self.sp_f + off,
                          &self.m[c], old_v)
            self.fruitless += t - self.tail_f[c]
            self.tail_f[c] = t
        else:
            _w_pop_left(&self.w, self.hi, self.val_i, self.alt_i, &self.left[c])
            ti = _w_settle(&self.w, self.hi, self.val_i, self.alt_i, self.left[c],
                           self.right[c], self.ys + off, self.pm + off, self.sp_i + off,
                           &self.m[c], old_v)
            self.fruitless += ti - self.tail_i[c]
            self.tail_i[c] = ti

    @cython.critical_section
    def pop_right(self, Py_ssize_t c):
        """Take the rightmost coin of row c (which must not be empty)."""
        if not 0 <= c < self.n_rows or self.left[c] == self.right[c]:
            raise IndexError(c)
        self.coins_left -= 1
        _w_pop_right_any(self, c)

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
    def end_blocks(self, Py_ssize_t c):
        """``(left, right)``: how many coins the end blocks of row c span (benchmarks' adversary)."""
        if not 0 <= c < self.rows or self.left[c] == self.right[c]:
            raise IndexError(c)
        return (self.w.nxt[self.left[c]] - self.left[c],
                self.right[c] - self.w.prv[self.right[c]])

    @property
    def updates(self):
        """Treap insertions and deletions so far (for the benchmarks)."""
        return self.w.updates

    @cython.critical_section
    def play(self, int opponent, uint64_t seed, int64_t[::1] out_coin, uint8_t[::1] out_end):
        """Play row 0 to the end in compiled code, the engine moving first (benchmarks).

        ``opponent``: 0 the engine itself, 1 uniformly random (xorshift from ``seed``),
        2 greedy on the heights' coins (the larger end coin, ties left), 3 always left,
        4 the adversary of the structure (the end whose end block spans more coins).
        Writes each taken coin's flat index and end (0 left, 1 right): the cost per move of
        the structure without the Python layer.
        """
        cdef int64_t t = 0, a, b
        cdef bint from_left, ours = True
        cdef uint64_t state = seed * 2 + 1
        if self.rows != 1 or self.n_rows != 1:
            raise ValueError("play() needs exactly one row")
        if (out_coin.shape[0] < self.right[0] - self.left[0]
                or out_end.shape[0] < self.right[0] - self.left[0]):
            raise ValueError("output buffers are too short")
        while self.left[0] != self.right[0]:
            a = self.left[0]
            b = self.right[0]
            if ours or opponent == 0:
                from_left = self._left_is_larger(0)
            elif opponent == 1:
                state ^= state << 13
                state ^= state >> 7
                state ^= state << 17
                from_left = (state >> 11) & 1
            elif opponent == 2:
                if self.is_float:
                    from_left = self.hf[a] + self.hf[a + 1] >= self.hf[b - 1] + self.hf[b]
                else:
                    from_left = self.hi[a] + self.hi[a + 1] >= self.hi[b - 1] + self.hi[b]
            elif opponent == 3:
                from_left = True
            else:
                from_left = self.w.nxt[a] - a >= b - self.w.prv[b]
            out_coin[t] = self.flat[0] + (a if from_left else b - 1) - self.base[0]
            out_end[t] = 0 if from_left else 1
            t += 1
            self.coins_left -= 1
            if from_left:
                _w_pop_left_any(self, 0)
            else:
                _w_pop_right_any(self, 0)
            ours = not ours


cdef inline void _w_pop_left_any(RowWindows self, int64_t c) noexcept nogil:
    if self.is_float:
        _w_pop_left(&self.w, self.hf, self.val_f, self.alt_f, &self.left[c])
    else:
        _w_pop_left(&self.w, self.hi, self.val_i, self.alt_i, &self.left[c])


cdef inline void _w_pop_right_any(RowWindows self, int64_t c) noexcept nogil:
    if self.is_float:
        _w_pop_right(&self.w, self.hf, self.val_f, self.alt_f, &self.right[c])
    else:
        _w_pop_right(&self.w, self.hi, self.val_i, self.alt_i, &self.right[c])


# ---------------------------------------------------------------------------------------
# The pizza: the first player takes any slice i, then the rest is a row. One window slides
# over the doubled circle; the row left after slice i is the window [i + 1, i + n].

def window_pizza(const coin_t[::1] circle):
    """Best first slice of the circle: ``(status, first_slice, value, updates, bad_index)``.

    value = max over i of circle[i] - value(row after slice i); the smallest such i.
    O(n log n) time (at most 5 treap updates per shift, amortised), O(n) memory.
    """
    cdef int64_t n = circle.shape[0], nb = 2 * n + 1, j, i, left = 1, right = 1
    cdef int64_t best_index = -1, bad = -1
    cdef int st = _OK
    cdef coin_t x, v, best = 0
    cdef coin_t *h = NULL
    cdef coin_t *val = NULL
    cdef coin_t *alt = NULL
    cdef int64_t *stack0 = NULL
    cdef int64_t *stack1 = NULL
    cdef _Win w
    cdef int64_t updates = 0
    if n == 0:
        return STATUS_OK, -1, 0, 0, -1
    with nogil:
        st = _w_win_alloc(&w, nb)
        h = <coin_t *> malloc((nb + 1) * sizeof(coin_t))
        val = <coin_t *> malloc((nb + 1) * sizeof(coin_t))
        alt = <coin_t *> malloc((nb + 1) * sizeof(coin_t))
        stack0 = <int64_t *> malloc((nb + 1) * sizeof(int64_t))
        stack1 = <int64_t *> malloc((nb + 1) * sizeof(int64_t))
        if st != _OK or h == NULL or val == NULL or alt == NULL or stack0 == NULL or stack1 == NULL:
            st = _NO_MEMORY
        else:
            val[nb] = 0
            alt[nb] = 0
            h[0] = 0
            if coin_t is double:
                bad = _first_not_finite(circle, 0, n)
                if bad >= 0:
                    st = _NOT_FINITE
            for j in range(2 * n):
                if st != _OK:
                    break
                x = circle[j if j < n else j - n]
                if coin_t is double:
                    h[j + 1] = x - h[j]
                    if not (-_F_LIMIT < h[j + 1] < _F_LIMIT):
                        st = _OVERFLOW
                        break
                else:
                    if (coinsrow_sub_overflow(x, h[j], &h[j + 1]) or h[j + 1] >= _H_LIMIT
                            or h[j + 1] <= -_H_LIMIT):
                        st = _OVERFLOW
                        break
        if st == _OK:
            _w_forests(h, 0, nb - 1, w.ns, w.ps, w.par1, w.par2, stack0, stack1)
            while right < n:
                _w_push_right(&w, h, val, alt, left, &right)
            for i in range(n):
                if i > 0:
                    _w_pop_left(&w, h, val, alt, &left)
                    _w_push_right(&w, h, val, alt, left, &right)
                if _sub(circle[i], alt[w.root], &v):
                    st = _OVERFLOW
                    break
                if best_index < 0 or v > best:
                    best = v
                    best_index = i
        updates = w.updates
        _w_win_free(&w)
        free(h)
        free(val)
        free(alt)
        free(stack0)
        free(stack1)
    if st == _NO_MEMORY:
        raise MemoryError()
    if st != _OK:
        return (STATUS_OVERFLOW if st == _OVERFLOW else STATUS_NOT_FINITE), -1, 0, updates, bad
    return STATUS_OK, best_index, best, updates, -1


# ---------------------------------------------------------------------------------------
# Sub-row values: the kept boundaries of [L, R] are the par1-path from L while ns <= R and
# the par2-path from R while ps >= L, joined by the minimum block (research/window.md §2).
# Along each path the blocks decrease, so the Greedy alternating sum merges two sorted runs:
# each run is one jump-pointer search plus a difference of alternating path sums.
#
# Jump pointers (Myers): every node keeps one extra ancestor, chosen so that the first node of
# a path with a monotone property is found in O(log n) steps with O(1) memory per node. For
# find_u the property "some node so far has ns > R" needs the max of ns over each jump.

cdef class SubRows:
    """Values of sub-rows of one row: built in O(n log n), each query O((1 + runs) log n).

    ``status`` is STATUS_OK, STATUS_OVERFLOW (int64 heights past WINDOW_INT64_LIMIT: use the
    exact fallback) or STATUS_NOT_FINITE (``bad_index``).
    """

    cdef bint is_float
    cdef int64_t n
    cdef int64_t *hi
    cdef double *hf
    cdef int64_t *ns
    cdef int64_t *ps
    cdef int64_t *par[2]
    cdef int64_t *depth[2]
    cdef int64_t *jump[2]
    cdef int64_t *agg[2]
    cdef int64_t *pi[2]
    cdef double *pf[2]
    cdef readonly int status
    cdef readonly int64_t bad_index

    def __cinit__(self, coins, int kind):
        cdef const int64_t[::1] ci
        cdef const double[::1] cf
        cdef int64_t n, nb, f
        cdef int st = _OK
        cdef int64_t *stack0 = NULL
        cdef int64_t *stack1 = NULL
        self.is_float = kind == 1
        self.bad_index = -1
        if self.is_float:
            cf = coins
            n = cf.shape[0]
        else:
            ci = coins
            n = ci.shape[0]
        self.n = n
        nb = n + 1
        self.ns = <int64_t *> malloc(nb * sizeof(int64_t))
        self.ps = <int64_t *> malloc(nb * sizeof(int64_t))
        stack0 = <int64_t *> malloc(nb * sizeof(int64_t))
        stack1 = <int64_t *> malloc(nb * sizeof(int64_t))
        for f in range(2):
            self.par[f] = <int64_t *> malloc(nb * sizeof(int64_t))
            self.depth[f] = <int64_t *> malloc(nb * sizeof(int64_t))
            self.jump[f] = <int64_t *> malloc(nb * sizeof(int64_t))
            self.agg[f] = <int64_t *> malloc(nb * sizeof(int64_t))
            if self.is_float:
                self.pf[f] = <double *> malloc(nb * sizeof(double))
                self.pi[f] = NULL
            else:
                self.pi[f] = <int64_t *> malloc(nb * sizeof(int64_t))
                self.pf[f] = NULL
        if self.is_float:
            self.hf = <double *> malloc(nb * sizeof(double))
        else:
            self.hi = <int64_t *> malloc(nb * sizeof(int64_t))
        if (self.ns == NULL or self.ps == NULL or stack0 == NULL or stack1 == NULL
                or (self.hf == NULL and self.hi == NULL)):
            free(stack0)
            free(stack1)
            raise MemoryError()
        for f in range(2):
            if (self.par[f] == NULL or self.depth[f] == NULL or self.jump[f] == NULL
                    or self.agg[f] == NULL or (self.pf[f] == NULL and self.pi[f] == NULL)):
                free(stack0)
                free(stack1)
                raise MemoryError()
        with nogil:
            if self.is_float:
                st = _w_heights(cf, 0, n, self.hf)
                if st == _NOT_FINITE:
                    self.bad_index = _first_not_finite(cf, 0, n)
                else:
                    _w_forests(self.hf, 0, n, self.ns, self.ps, self.par[0], self.par[1],
                             stack0, stack1)
                    _w_path_tables(self, self.hf, self.pf[0], self.pf[1])
            else:
                st = _w_heights(ci, 0, n, self.hi)
                if st == _OK:
                    _w_forests(self.hi, 0, n, self.ns, self.ps, self.par[0], self.par[1],
                             stack0, stack1)
                    _w_path_tables(self, self.hi, self.pi[0], self.pi[1])
        free(stack0)
        free(stack1)
        self.status = (STATUS_OK if st == _OK else
                       STATUS_OVERFLOW if st == _OVERFLOW else STATUS_NOT_FINITE)

    def __dealloc__(self):
        cdef int f
        free(self.hi)
        free(self.hf)
        free(self.ns)
        free(self.ps)
        for f in range(2):
            free(self.par[f])
            free(self.depth[f])
            free(self.jump[f])
            free(self.agg[f])
            free(self.pi[f])
            free(self.pf[f])

    def __len__(self):
        return self.n

    def value(self, int64_t start, int64_t stop):
        """``(ok, value)`` of coins[start:stop] (0 <= start <= stop <= n); ok is False on an
        int64 overflow of an intermediate sum (redo the query exactly)."""
        cdef int64_t vi = 0
        cdef double vf = 0
        cdef bint ok
        if not 0 <= start <= stop <= self.n:
            raise IndexError((start, stop))
        with nogil:
            if self.is_float:
                ok = _w_subrow_value(self, self.hf, self.pf[0], self.pf[1], start, stop, &vf)
            else:
                ok = _w_subrow_value(self, self.hi, self.pi[0], self.pi[1], start, stop, &vi)
        if self.is_float:
            return ok, vf
        return ok, vi

    def values(self, const int64_t[::1] starts, const int64_t[::1] stops, out, uint8_t[::1] ok):
        """Values of the sub-rows coins[starts[q]:stops[q]] into ``out`` (an int64 or float64
        buffer, like the coins). Bounds follow Python's slice convention (negative from the
        end, clamped). ``ok[q]`` is 0 where query q overflowed int64 (redo it exactly).
        Returns the number of queries that overflowed."""
        cdef Py_ssize_t q, m = starts.shape[0]
        cdef int64_t[::1] oi
        cdef double[::1] of
        cdef int64_t bad = 0, lo, hi
        if stops.shape[0] != m or ok.shape[0] < m:
            raise ValueError("starts, stops and ok differ in length")
        if self.is_float:
            of = out
            if of.shape[0] < m:
                raise ValueError("output buffer is too short")
            with nogil:
                for q in range(m):
                    lo = _w_clamp(starts[q], self.n)
                    hi = _w_clamp(stops[q], self.n)
                    ok[q] = _w_subrow_value(self, self.hf, self.pf[0], self.pf[1],
                                            lo, hi if hi > lo else lo, &of[q])
        else:
            oi = out
            if oi.shape[0] < m:
                raise ValueError("output buffer is too short")
            with nogil:
                for q in range(m):
                    lo = _w_clamp(starts[q], self.n)
                    hi = _w_clamp(stops[q], self.n)
                    ok[q] = _w_subrow_value(self, self.hi, self.pi[0], self.pi[1],
                                            lo, hi if hi > lo else lo, &oi[q])
                    if not ok[q]:
                        bad += 1
        return bad


cdef inline int64_t _w_clamp(int64_t i, int64_t n) noexcept nogil:
    """A slice bound (negative counts from the end) clamped to 0..n, as Python slices do."""
    if i < 0:
        i += n
        if i < 0:
            i = 0
    if i > n:
        i = n
    return i


cdef void _w_path_tables(SubRows s, coin_t *h, coin_t *p1, coin_t *p2) noexcept nogil:
    """Depths, jump pointers, their ns-max / ps-min, and alternating path sums of both forests.

    Forest 0 (par1) has parents to the right, forest 1 (par2) to the left, so one sweep in
    each direction sees every parent before its children.
    """
    cdef int64_t n = s.n, x, p, jp, f, i
    cdef int64_t *par
    cdef int64_t *depth
    cdef int64_t *jump
    cdef int64_t *agg
    cdef int64_t *key
    cdef coin_t *P
    for f in range(2):
        par = s.par[f]
        depth = s.depth[f]
        jump = s.jump[f]
        agg = s.agg[f]
        P = p1 if f == 0 else p2
        key = s.ns if f == 0 else s.ps
        for i in range(n + 1):
            x = n - i if f == 0 else i
            p = par[x]
            if p < 0:
                depth[x] = 0
                jump[x] = x
                agg[x] = key[x]
                P[x] = 0
                continue
            depth[x] = depth[p] + 1
            # P[x] = w(x) - P[p]: alternating sum of the blocks from x up to the root.
            P[x] = h[x] + h[p] - P[p]
            jp = jump[p]
            if par[p] >= 0 and depth[p] - depth[jp] == depth[jp] - depth[jump[jp]]:
                jump[x] = jump[jp]
                if f == 0:
                    agg[x] = _w_imax(key[p], _w_imax(agg[p], agg[jp]))
                else:
                    agg[x] = _w_imin(key[p], _w_imin(agg[p], agg[jp]))
            else:
                jump[x] = p
                agg[x] = key[p]


cdef inline int64_t _w_imax(int64_t a, int64_t b) noexcept nogil:
    return a if a >= b else b


cdef inline int64_t _w_imin(int64_t a, int64_t b) noexcept nogil:
    return a if a <= b else b


cdef inline int64_t _w_path_end(SubRows s, int f, int64_t x, int64_t bound) noexcept nogil:
    """First node z on x's path with ns(z) > bound (f = 0) or ps(z) < bound (f = 1)."""
    cdef int64_t *par = s.par[f]
    cdef int64_t *jump = s.jump[f]
    cdef int64_t *agg = s.agg[f]
    if f == 0:
        while s.ns[x] <= bound:
            if jump[x] != x and agg[x] <= bound:
                x = jump[x]
            else:
                x = par[x]
    else:
        while s.ps[x] >= bound:
            if jump[x] != x and agg[x] >= bound:
                x = jump[x]
            else:
                x = par[x]
    return x


cdef inline bint _w_run_stops(coin_t *h, int64_t *par, int64_t *depth, int64_t z,
                            int64_t stop_depth, bint has_threshold, coin_t threshold) noexcept nogil:
    return depth[z] <= stop_depth or (has_threshold and h[z] + h[par[z]] < threshold)


cdef int64_t _w_run_end(SubRows s, coin_t *h, int f, int64_t x, int64_t stop_depth,
                      bint has_threshold, coin_t threshold) noexcept nogil:
    """First node z on x's path at depth <= stop_depth or whose block is below threshold
    (both properties are monotone along the path: blocks decrease towards the root)."""
    cdef int64_t *par = s.par[f]
    cdef int64_t *jump = s.jump[f]
    cdef int64_t *depth = s.depth[f]
    cdef int64_t j
    while not _w_run_stops(h, par, depth, x, stop_depth, has_threshold, threshold):
        j = jump[x]
        if not _w_run_stops(h, par, depth, j, stop_depth, has_threshold, threshold):
            x = j
        else:
            x = par[x]
    return x


cdef bint _w_subrow_value(SubRows s, coin_t *h, coin_t *p1, coin_t *p2, int64_t lo, int64_t hi,
                        coin_t *out) noexcept nogil:
    """The value of the coins between boundaries lo and hi; False on int64 overflow."""
    cdef int64_t u, v, x, y, z, du, dv, length
    cdef coin_t total = 0, dx, dy, run, t
    cdef bint plus = True, ovf = False, has_x, has_y
    if lo == hi:
        out[0] = 0
        return True
    u = _w_path_end(s, 0, lo, hi)
    v = _w_path_end(s, 1, hi, lo)
    du = s.depth[0][u]
    dv = s.depth[1][v]
    x = lo
    y = hi
    while True:
        has_x = x != u
        has_y = y != v
        if not has_x and not has_y:
            break
        if has_x:
            dx = h[x] + h[s.par[0][x]]
        if has_y:
            dy = h[y] + h[s.par[1][y]]
        if has_x and (not has_y or dx >= dy):
            z = _w_run_end(s, h, 0, x, du, has_y, dy)
            length = s.depth[0][x] - s.depth[0][z]
            if length & 1:
                ovf |= _add(p1[x], p1[z], &run)
            else:
                ovf |= _sub(p1[x], p1[z], &run)
            x = z
        else:
            z = _w_run_end(s, h, 1, y, dv, has_x, dx)
            length = s.depth[1][y] - s.depth[1][z]
            if length & 1:
                ovf |= _add(p2[y], p2[z], &run)
            else:
                ovf |= _sub(p2[y], p2[z], &run)
            y = z
        if plus:
            ovf |= _add(total, run, &total)
        else:
            ovf |= _sub(total, run, &total)
        if length & 1:
            plus = not plus
    # The bridge between the two paths is the minimum block: it comes last.
    t = h[u] + h[v]
    if plus:
        ovf |= _add(total, t, &total)
    else:
        ovf |= _sub(total, t, &total)
    out[0] = total
    return not ovf
