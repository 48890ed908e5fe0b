# Declarations of coinsrow._core._window that other modules cimport.

from coinsrow._core._types cimport *


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
    uint8_t *in_tree   # NULL, or per block: is it in the treap (stacks keep some out)
    int64_t gate       # with in_tree: only blocks starting before the gate enter the treap

cdef inline uint64_t _w_priority(uint64_t x) noexcept nogil:
    # splitmix64: fixed, well-mixed priorities; the tree shape does not depend on the values.
    x += <uint64_t> 0x9E3779B97F4A7C15
    x = (x ^ (x >> 30)) * <uint64_t> 0xBF58476D1CE4E5B9
    x = (x ^ (x >> 27)) * <uint64_t> 0x94D049BB133111EB
    return x ^ (x >> 31)

cdef inline void _w_pull(_Win *w, coin_t *val, coin_t *alt, int64_t i) noexcept nogil:
    cdef int64_t lt = w.tl[i], rt = w.tr[i]
    w.sz[i] = w.sz[lt] + 1 + w.sz[rt]
    if w.sz[lt] & 1:
        alt[i] = alt[lt] - val[i] + alt[rt]
    else:
        alt[i] = alt[lt] + val[i] - alt[rt]

cdef inline void _w_tree_add(_Win *w, coin_t *val, coin_t *alt, int64_t t) noexcept nogil:
    """Insert the kept block t (its value already in val[t]) into the treap."""
    alt[t] = val[t]
    w.tl[t] = w.nil
    w.tr[t] = w.nil
    w.sz[t] = 1
    if w.in_tree != NULL:
        w.in_tree[t] = 1
    w.root = _w_insert(w, val, alt, w.root, t)

cdef inline void _w_drop_block(_Win *w, coin_t *val, coin_t *alt, int64_t t) noexcept nogil:
    if w.in_tree != NULL:
        if not w.in_tree[t]:
            return
        w.in_tree[t] = 0
    w.root = _w_delete(w, val, alt, w.root, t)

cdef inline int64_t _w_first_node(_Win *w) noexcept nogil:
    """The in-order first node: the largest block (smallest boundary on ties)."""
    cdef int64_t i = w.root
    if i == w.nil:
        return i
    while w.tl[i] != w.nil:
        i = w.tl[i]
    return i

cdef inline uint64_t _w_priority_of(int64_t t) noexcept nogil:
    return _w_priority(<uint64_t> t)

cdef void _w_split(_Win *w, coin_t *val, coin_t *alt, int64_t i, int64_t x,
                   int64_t *before, int64_t *after) noexcept nogil

cdef int64_t _w_insert(_Win *w, coin_t *val, coin_t *alt, int64_t i, int64_t x) noexcept nogil

cdef int64_t _w_delete(_Win *w, coin_t *val, coin_t *alt, int64_t i, int64_t x) noexcept nogil

cdef void _w_pop_left(_Win *w, coin_t *h, coin_t *val, coin_t *alt, int64_t *left) noexcept nogil

cdef void _w_pop_right(_Win *w, coin_t *h, coin_t *val, coin_t *alt, int64_t *right) noexcept nogil

cdef class RowWindows:
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

    cdef int64_t _row_of(self, int64_t t) noexcept nogil
    cdef bint _left_is_larger(self, int64_t c) noexcept nogil
    cdef tuple _move_in(self, Py_ssize_t c)
    cdef int64_t _largest_block(self) noexcept nogil
    cdef object _greedy_with(self, int64_t frozen_i, double frozen_f)
    cdef int64_t _add_cells(self, int64_t extra) except -1
    cdef int _insert_blocks(self, int64_t node0, const uint8_t *alive, int64_t n,
                            const int64_t *K_i, const double *K_f) except -1 nogil
    cdef void _insert_block(self, int64_t node, int64_t value_i, double value_f) noexcept nogil
    cdef void _drop_block(self, int64_t node) noexcept nogil


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


# Ctrl-C: the long loops here (building a structure, sliding the pizza's window) count their
# steps and look at signals through _signals.pxd's ``_forest_signals``, so KeyboardInterrupt
# comes out of the loop at once. The loops that change a live structure (pops) never check:
# an interrupt cannot leave one half-updated.
