# Declarations of coinsrow._core._window that other modules cimport.

from coinsrow._core._types cimport *


cdef union _WNumber:
    int64_t i
    double f

cdef struct _WNote:
    # A node as it was before a journaled take (see _w_note): its links, its number fields
    # and whether it was in the treap.
    int64_t t, tl, tr, sz, nxt, prv
    _WNumber val, alt
    uint8_t in_tree, was_in

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
    int64_t cells      # treap nodes: the boundaries, nil, and the cells added after nil
    # The undo journal of a take that is rolled back (value_after; _w_note, _w_undo).
    bint journal       # notes are being taken
    bint lost          # a note found no room (never, with the room reserved: a safety net)
    _WNote *notes
    int64_t n_notes
    int64_t cap_notes
    uint8_t *noted     # per node (``noted_cells`` of them): has it a note in this take
    int64_t noted_cells

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

cdef inline bint _w_contains(_Win *w, coin_t *val, int64_t t) noexcept nogil:
    """Is node t in the treap? A descent by t's order (its value is the one it was inserted
    with while it is there: a block's value changes only out of the treap). O(log n)."""
    cdef int64_t i = w.root
    while i != w.nil:
        if i == t:
            return True
        if val[t] > val[i] or (val[t] == val[i] and t < i):
            i = w.tl[i]
        else:
            i = w.tr[i]
    return False

cdef void _w_note_now(_Win *w, coin_t *val, coin_t *alt, int64_t t) noexcept nogil

cdef inline void _w_note(_Win *w, coin_t *val, coin_t *alt, int64_t t) noexcept nogil:
    """While a take is journaled: remember node t as it is, the first time the take is about
    to change it (its links, value, sum and membership; nxt, prv and in_tree only exist for
    boundaries, below nil). Every change of a take to a node other than the treap's
    rotations goes through here first: _w_add_block, _w_tree_add, _w_drop_block and the
    forest's slots (_w_note_node)."""
    if w.journal and not w.noted[t]:
        _w_note_now(w, val, alt, t)

cdef inline int _w_journal_open(_Win *w, int64_t room) noexcept nogil:
    """Start journaling a take that notes at most ``room`` nodes (the room is reserved
    now, so that no note can fail half-way). NO_MEMORY (and nothing started) if refused."""
    cdef uint8_t *noted
    cdef _WNote *notes
    if w.noted_cells < w.cells:
        noted = <uint8_t *> calloc(w.cells, sizeof(uint8_t))
        if noted == NULL:
            return NO_MEMORY
        free(w.noted)
        w.noted = noted
        w.noted_cells = w.cells
    if w.cap_notes < room:
        notes = <_WNote *> realloc(w.notes, room * sizeof(_WNote))
        if notes == NULL:
            return NO_MEMORY
        w.notes = notes
        w.cap_notes = room
    w.n_notes = 0
    w.lost = False
    w.journal = True
    return OK

cdef inline void _w_journal_init(_Win *w) noexcept nogil:
    """No journal yet (its memory comes with value_after's first call)."""
    w.notes = NULL
    w.noted = NULL
    w.n_notes = w.cap_notes = w.noted_cells = 0
    w.journal = w.lost = False

cdef inline void _w_journal_free(_Win *w) noexcept nogil:
    free(w.notes)
    free(w.noted)
    w.notes = NULL
    w.noted = NULL
    w.n_notes = w.cap_notes = w.noted_cells = 0
    w.journal = w.lost = False

cdef inline void _w_undo(_Win *w, coin_t *val, coin_t *alt) noexcept nogil:
    """Roll back the journaled take: every noted node still in the treap leaves it, every
    noted node gets back its fields, and those that were in the treap go back in. The treap
    is then the one before the take, node for node: a treap is fixed by its order and its
    priorities, and the set of (node, value) is the same again; the nodes outside it are
    exactly as noted (the take changed no other node outside the treap). O(m log n) for the
    m notes, the take's own cost."""
    cdef int64_t j, t
    cdef _WNote *note
    w.journal = False
    for j in range(w.n_notes):
        t = w.notes[j].t
        if _w_contains(w, val, t):
            w.root = _w_delete(w, val, alt, w.root, t)
    for j in range(w.n_notes):
        note = &w.notes[j]
        t = note.t
        w.tl[t] = note.tl
        w.tr[t] = note.tr
        w.sz[t] = note.sz
        if coin_t is double:
            val[t] = note.val.f
            alt[t] = note.alt.f
        else:
            val[t] = note.val.i
            alt[t] = note.alt.i
        if t < w.nil:
            w.nxt[t] = note.nxt
            w.prv[t] = note.prv
            if w.in_tree != NULL:
                w.in_tree[t] = note.in_tree
        w.noted[t] = 0
    for j in range(w.n_notes):
        note = &w.notes[j]
        if note.was_in:
            t = note.t
            alt[t] = val[t]
            w.tl[t] = w.nil
            w.tr[t] = w.nil
            w.sz[t] = 1
            w.root = _w_insert(w, val, alt, w.root, t)
    w.n_notes = 0

cdef inline void _w_tree_add(_Win *w, coin_t *val, coin_t *alt, int64_t t) noexcept nogil:
    """Insert the kept block t (its value already in val[t]) into the treap."""
    _w_note(w, val, alt, t)
    alt[t] = val[t]
    w.tl[t] = w.nil
    w.tr[t] = w.nil
    w.sz[t] = 1
    if w.in_tree != NULL:
        w.in_tree[t] = 1
    w.root = _w_insert(w, val, alt, w.root, t)

cdef inline void _w_drop_block(_Win *w, coin_t *val, coin_t *alt, int64_t t) noexcept nogil:
    _w_note(w, val, alt, t)
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

cdef coin_t _w_pop_stack_top(RowWindows self, Py_ssize_t c, coin_t *h, coin_t *val,
                             coin_t *alt, coin_t *sp, coin_t *tail) noexcept nogil


cdef inline void _w_pop_stack_top_any(RowWindows self, Py_ssize_t c):
    """Take the top of stack c, its Fruitless term (if any) added to ``self.fruitless``."""
    if self.is_float:
        self.fruitless += _w_pop_stack_top(self, c, self.hf, self.val_f, self.alt_f,
                                           self.sp_f, self.tail_f)
    else:
        self.fruitless += _w_pop_stack_top(self, c, self.hi, self.val_i, self.alt_i,
                                           self.sp_i, self.tail_i)


# -- the value after a move, the structure left as it was (value_after) ----------------------
# The take is done for real with every change to a node noted first (_w_note), the value read,
# and the take rolled back (_w_undo), with the few numbers of the component it changed.

cdef inline void _w_note_node(RowWindows self, int64_t t) noexcept nogil:
    """Note node t before a change that does not go through the treap's own functions (a
    forest slot's value written by _insert_block)."""
    if self.is_float:
        _w_note(&self.w, self.val_f, self.alt_f, t)
    else:
        _w_note(&self.w, self.val_i, self.alt_i, t)

cdef inline int _w_open(RowWindows self, int64_t room) except -1:
    """Start journaling a take that notes at most ``room`` nodes (MemoryError if refused,
    before anything changed)."""
    if _w_journal_open(&self.w, room) != OK:
        raise MemoryError()
    return 0

cdef inline int _w_close(RowWindows self) except -1:
    """Roll the journaled take back (see _w_undo)."""
    cdef bint lost = self.w.lost
    if self.is_float:
        _w_undo(&self.w, self.val_f, self.alt_f)
    else:
        _w_undo(&self.w, self.val_i, self.alt_i)
    if lost:  # pragma: no cover - the room is reserved by _w_open
        raise MemoryError("the window structure lost a note of its undo journal")
    return 0

cdef inline object _w_value_after(RowWindows self, Py_ssize_t c, bint from_left, frozen):
    """The value after taking the left end (a stack's top) or the right end of component c:
    RowWindows.value() then (or, ``frozen`` not None, the treap's Greedy sum with the frozen
    blocks, as ForestWindows.value() reads it), the structure left exactly as it was.

    The take is a pop, journaled (_w_note) and rolled back (_w_undo), with the component's
    bounds, its Fruitless numbers and the counts restored. Its notes are the nodes it
    touches: at most the end block's boundaries for a row (the blocks that replace it lie
    inside it), and for a stack also those of the part of its Fruitless tail that comes
    back, at most the m[c] + 1 boundaries of its par2-path and a few around: that much room
    is reserved first. Costs what that pop costs, O(log n) for a typical move, O(b log n)
    when it puts b blocks back (the pop's amortised bound does not carry over to a pop that
    is undone), plus as much again to undo it; never a rebuild. No signal is looked at, so
    Ctrl-C cannot stop it half-way."""
    cdef int64_t left, right, room, coins_left = self.coins_left, gate = self.w.gate
    cdef int64_t m = 0, tail_i = 0
    cdef double tail_f = 0
    cdef object fruitless = self.fruitless, greedy
    if (not 0 <= c < self.rows or self.left[c] == self.right[c]
            or (not from_left and c >= self.n_rows)):
        raise IndexError(c)
    left = self.left[c]
    right = self.right[c]
    room = (self.w.nxt[left] - left if from_left else right - self.w.prv[right]) + 2
    if c >= self.n_rows:
        m = self.m[c]
        room += m + 8
        if self.is_float:
            tail_f = self.tail_f[c]
        else:
            tail_i = self.tail_i[c]
    _w_open(self, room)
    self.coins_left -= 1
    if c >= self.n_rows:
        _w_pop_stack_top_any(self, c)
    elif from_left:
        _w_pop_left_any(self, c)
    else:
        _w_pop_right_any(self, c)
    if frozen is not None:
        if self.is_float:
            greedy = self._greedy_with(0, frozen)
        else:
            greedy = self._greedy_with(frozen, 0)
    else:
        greedy = self.alt_f[self.w.root] if self.is_float else self.alt_i[self.w.root]
        if self.n_rows < self.rows:
            greedy = greedy - self.fruitless if self.coins_left & 1 else greedy + self.fruitless
    self.coins_left = coins_left
    self.fruitless = fruitless
    self.w.gate = gate
    self.left[c] = left
    self.right[c] = right
    if c >= self.n_rows:
        self.m[c] = m
        if self.is_float:
            self.tail_f[c] = tail_f
        else:
            self.tail_i[c] = tail_i
    _w_close(self)
    return greedy


# Ctrl-C: the long loops here (building a structure, sliding the pizza's window) count their
# steps and look at signals through _signals.pxd's ``_forest_signals``, so KeyboardInterrupt
# comes out of the loop at once. The loops that change a live structure (pops) never check:
# an interrupt cannot leave one half-updated.
