# coinsrow._core._forest: the game on a forest of rooted trees, mixed with rows and stacks
# (docs/forests.md). A move takes a root; its children become roots. A stack is a path.
#
# Block merging, bottom-up. Once the children of a vertex u are done, u owns H(u): the blocks
# its children's subtrees released, in a max-heap (a pairing heap over vertex ids: melding
# two is O(1)). u's block starts odd with d = coin(u) and absorbs the largest block x of H(u)
# while it is odd and not above max H(u), or even and H(u) is not empty: odd d - x is even,
# even d + x is odd. Then an odd block is released (it is the new maximum of H(u), which goes
# up to u's parent), an even one is frozen (H(u) is empty then). At the roots, the released
# blocks are taken largest first (Greedy):
#     value = t1 - t2 + t3 - ... + (-1)^k (sum of the frozen blocks).
# The blocks of a subtree depend on that subtree alone, so they stay valid in every position
# where the subtree is still whole: that is what the play, the engine and the proofs use.
#
# Three uses, three variants of the same loop:
# - forest_value: the value alone. Ties do not matter; siblings that released one block each
#   (leaves, mostly) are sorted as one run (radix sort) and laid as a chain, which pops in
#   O(1); a run, or a heap going up a chain of only children (a path), lives in an array (a
#   stack) until it meets a vertex with other children. An int64 forest whose subtrees are
#   scattered over the ids (a random tree) is renumbered in preorder first, so that the
#   records a vertex pops lie together. Rows and stacks go through the Fusion and Fruitless
#   of _rows.
# - forest_play: the stacks' coins and the forest's nodes are "slots" (stacks first, top to
#   bottom, then the nodes by index). A block is released only when strictly above H(u), and
#   H(u) pops ties by the lower slot. The play repeats the one tie rule of a position: the
#   largest of the rows' end blocks and the released blocks at the roots (ties: rows first,
#   the lower row, the left end; then the lower slot), coin by coin; when nothing is
#   released any more, the root with the lowest slot. Every move is optimal and each move is
#   the rule's move in the position it is made in.
# - ForestWindows (the Engine): the same blocks, the released ones in the treap of the rows'
#   window structure (docs/window.md); taking a root puts the blocks it had absorbed back.

cimport cython
from coinsrow._core._types cimport *
from coinsrow._core import _types as _codes  # the codes' Python classes, to convert a C code
from coinsrow._core._scratch cimport _huge_pages, _scratch, _scratch_free
from coinsrow._core._row_helpers cimport Component, _padded, _play_float_profits, _reduce_all_into
from coinsrow._core._window cimport RowWindows, _w_close, _w_note_node, _w_open
from coinsrow._core._window_forests cimport _F_LIMIT, _H_LIMIT
from array import array as _window_array

from coinsrow._core._sort cimport _alternate_sorted, _sort_ascending
from coinsrow._core._forest_blocks cimport _FOREST_WIDE, _forest_released, _forest_released_wide
from coinsrow._core._forest_play cimport (_forest_not_finite, _forest_play_into, _link_children,
                                          _slot_blocks, _slot_count, _slots_of)
from coinsrow._core._heap cimport _min_pop, _min_push
from coinsrow._core._forest_blocks cimport _parents_scan

# The steps live in modules of their own: _sort (radix sorts), _forest_blocks (the value's
# loop of the blocks, bottom-up), _forest_play (the slots' loop of the blocks, with the tie
# rule, and the play's loop); this module has the kernels and the engine's structure, whose
# treap is the rows' RowWindows (it grows its own memory for the slots).


# -- the kernels -----------------------------------------------------------------------------------


cdef int _forest_value_into(const coin_t[::1] coins, const int64_t[::1] starts,
                            const int64_t[::1] stops, Py_ssize_t n_rows, int64_t fbase,
                            const int64_t[::1] parents, const uint8_t[::1] removed,
                            int order, coin_t *value, int64_t *bad_index,
                            bint wide) except -1 nogil:
    """The value of rows, stacks and a forest: OK, OVERFLOW, NOT_FINITE or NO_MEMORY.
    ``order``: what ``_forest_arguments`` returned. ``wide``: the forest through
    ``_forest_released_wide`` whatever its size (for tests).

    Rows and stacks: Fusion and Fruitless (``_reduce_all_into``); the forest: bottom-up
    block merging (``_forest_released``); then every remaining entry and released block,
    sorted, with alternating signs, and the even parts with the sign of the parity.
    """
    cdef Py_ssize_t k = starts.shape[0], c
    cdef int64_t nf = parents.shape[0], rs = 0, live = 0, m = 0, e, i
    cdef coin_t *values = NULL
    cdef coin_t *keys = NULL
    cdef Component *components = NULL
    cdef coin_t fruitless = 0, frozen = 0, total = 0, zero = 0
    cdef int status = OK
    cdef bint ovf = False
    try:
        if coin_t is double:
            bad_index[0] = _forest_not_finite(coins, starts, stops, fbase, removed)
            if bad_index[0] >= 0:
                return NOT_FINITE
        for c in range(k):
            rs += stops[c] - starts[c]
        for i in range(nf):
            live += not removed[i]
        values = _padded(<coin_t *> malloc((rs + 2) * sizeof(coin_t)))
        components = <Component *> malloc((k if k > 0 else 1) * sizeof(Component))
        if values == NULL or components == NULL:
            return NO_MEMORY
        ovf = _reduce_all_into(coins, starts, stops, n_rows, values, NULL, components,
                               &fruitless, bad_index, True) == OVERFLOW
        for c in range(k):
            if components[c].left <= components[c].right:
                m += components[c].right - components[c].left + 1
        keys = <coin_t *> _scratch((m + live + 1) * sizeof(coin_t))
        if keys == NULL:
            return NO_MEMORY
        m = 0
        for c in range(k):
            for e in range(components[c].left, components[c].right + 1):
                keys[m] = values[e]
                m += 1
        free(values - 2)
        values = NULL
        if nf < _FOREST_WIDE and not wide:
            status = _forest_released(coins, fbase, parents, removed, order, keys, &m,
                                      &frozen, &ovf)
        else:
            status = _forest_released_wide(coins, fbase, parents, removed, keys, &m,
                                           &frozen, &ovf)
        if status != OK:
            return status
        status = _alternate_sorted(keys, m, &total, &ovf)
        if status != OK:
            return status
        if m & 1:
            ovf |= sub_checked(total, frozen, &total)
        else:
            ovf |= add_checked(total, frozen, &total)
        # Fruitless counted its terms with the parity of the rows' and stacks' coins: the
        # forest's coins count too.
        if live & 1:
            ovf |= sub_checked(zero, fruitless, &fruitless)
        ovf |= add_checked(total, fruitless, &total)
        value[0] = total
        return OVERFLOW if ovf or not _is_finite(total) else OK
    finally:
        if values != NULL:
            free(values - 2)
        free(components)
        _scratch_free(keys)


cdef int64_t _live_count(const int64_t[::1] starts, const int64_t[::1] stops,
                         const uint8_t[::1] removed) noexcept nogil:
    cdef int64_t total = 0, i
    cdef Py_ssize_t c
    for c in range(starts.shape[0]):
        total += stops[c] - starts[c]
    for i in range(removed.shape[0]):
        if not removed[i]:
            total += 1
    return total


cdef int _forest_arguments(int64_t coins_length, const int64_t[::1] starts,
                           const int64_t[::1] stops, Py_ssize_t n_rows, int64_t fbase,
                           const int64_t[::1] parents,
                           const uint8_t[::1] removed) except -1:
    """Refuse arguments that do not describe a position (the same errors for every kernel
    and its twin). Returns what the pass over the parents found besides: 1 when every
    parent precedes its children, 2 when every one follows them, else 0 (the value's
    visiting order, ``_forest_released``, needs no pass of its own then). O(k + n)."""
    cdef Py_ssize_t c
    cdef int64_t nf = parents.shape[0]
    cdef bint bad_parent = False, before = True, after = True
    if stops.shape[0] != starts.shape[0]:
        raise ValueError("starts and stops differ in length")
    if not 0 <= n_rows <= starts.shape[0]:
        raise ValueError("n_rows is not between 0 and the number of components")
    for c in range(starts.shape[0]):
        if not 0 <= starts[c] <= stops[c] <= coins_length:
            raise ValueError("a component's range is not in the coins")
    if removed.shape[0] != nf:
        raise ValueError("removed and parents differ in length")
    if fbase < 0 or fbase + nf > coins_length:
        raise ValueError("the forest lies outside the coins")
    if nf > 0:
        with nogil:
            bad_parent = _parents_scan(&parents[0], 0, nf, nf, &before, &after)
    if bad_parent:
        raise ValueError("a parent is not a node index or -1")
    return 1 if before else (2 if after else 0)


def forest_value(const coin_t[::1] coins, const int64_t[::1] starts, const int64_t[::1] stops,
                 Py_ssize_t n_rows, int64_t fbase, const int64_t[::1] parents,
                 const uint8_t[::1] removed, bint wide=False):
    """Value of rows, stacks and a forest together: ``(status, value or bad flat index)``.

    The forest's node i is ``coins[fbase + i]``, its parent ``parents[i]`` (-1: a root);
    nodes with ``removed[i]`` are gone (a node whose parent is gone is a root). ``parents``
    must pass ``forest_check``. O(n log n) time (O(n) for paths and stars), O(n) memory;
    signals (Ctrl-C) are looked at every 65,536 steps. ``wide`` takes the path of forests
    of 2^31 nodes or more whatever the size (the tests' way to reach it).
    """
    cdef coin_t total = 0
    cdef int64_t bad_index = -1
    cdef int status, order
    order = _forest_arguments(coins.shape[0], starts, stops, n_rows, fbase, parents, removed)
    with nogil:
        status = _forest_value_into(coins, starts, stops, n_rows, fbase, parents, removed,
                                    order, &total, &bad_index, wide)
    if status == NO_MEMORY:
        raise MemoryError()
    if status == NOT_FINITE:
        return Status.NOT_FINITE, bad_index
    return _codes.Status(status), total


def forest_play(const coin_t[::1] coins, const int64_t[::1] starts, const int64_t[::1] stops,
                Py_ssize_t n_rows, int64_t fbase, const int64_t[::1] parents,
                const uint8_t[::1] removed, int64_t[::1] out_component, int64_t[::1] out_coin,
                uint8_t[::1] out_end):
    """A whole optimal play of rows, stacks and a forest: ``(status, value or bad index)``.

    Turn t takes coin ``out_coin[t]`` (a flat index) of component ``out_component[t]``
    from ``out_end[t]``; a forest node has component ``len(starts)`` and end ROOT. Each move
    is the move of the one tie rule in the position it is made in (docs/forests.md), so a
    position reached along the play has the rest of it as its own play. The value is the
    alternating sum of the play's coins. O(n log n) time, O(n) memory.
    """
    cdef coin_t total = 0
    cdef int64_t bad_index = -1, live
    cdef int status
    _forest_arguments(coins.shape[0], starts, stops, n_rows, fbase, parents, removed)
    live = _live_count(starts, stops, removed)
    if out_component.shape[0] < live or out_coin.shape[0] < live or out_end.shape[0] < live:
        raise ValueError("output buffers are shorter than the game")
    if live == 0:
        return Status.OK, total
    with nogil:
        status = _forest_play_into(coins, starts, stops, n_rows, fbase, parents, removed,
                                   &out_component[0], &out_coin[0], &out_end[0], &total,
                                   &bad_index)
    if status == NO_MEMORY:
        raise MemoryError()
    if status == NOT_FINITE:
        return Status.NOT_FINITE, bad_index
    return _codes.Status(status), total


def forest_profits(const coin_t[::1] coins, const int64_t[::1] starts,
                   const int64_t[::1] stops, Py_ssize_t n_rows, int64_t fbase,
                   const int64_t[::1] parents, const uint8_t[::1] removed):
    """What each player collects: ``(status, (first, second) or bad flat index)``, as
    ``game_profits`` computes them (int64: from the sum and the value; float64: each
    player's coins of the optimal play, summed exactly and rounded once)."""
    cdef coin_t total = 0, value = 0, twice, first = 0, second = 0
    cdef int64_t bad_index = -1, live, p
    cdef int64_t *play = NULL
    cdef Py_ssize_t c
    cdef int status = OK, order
    cdef bint ovf = False
    order = _forest_arguments(coins.shape[0], starts, stops, n_rows, fbase, parents, removed)
    live = _live_count(starts, stops, removed)
    if live == 0:
        return Status.OK, (first, second)
    try:
        with nogil:
            if coin_t is int64_t:
                status = _forest_value_into(coins, starts, stops, n_rows, fbase, parents,
                                            removed, order, &value, &bad_index, False)
                for c in range(starts.shape[0]):
                    for p in range(starts[c], stops[c]):
                        ovf |= add_checked(total, coins[p], &total)
                for p in range(removed.shape[0]):
                    if not removed[p]:
                        ovf |= add_checked(total, coins[fbase + p], &total)
                # sum + value is twice what the first player takes: even, halving is exact.
                ovf |= add_checked(total, value, &twice)
                first = twice // 2
                ovf |= sub_checked(total, first, &second)
                if ovf and status == OK:
                    status = OVERFLOW
            else:
                play = <int64_t *> malloc(live * sizeof(int64_t))
                if play == NULL:
                    status = NO_MEMORY
                else:
                    status = _forest_play_into(coins, starts, stops, n_rows, fbase, parents,
                                               removed, NULL, play, NULL, &value, &bad_index)
                    if status == OK:
                        status = _play_float_profits(coins, play, live, &first, &second)
    finally:
        free(play)
    if status == NO_MEMORY:
        raise MemoryError()
    if status == NOT_FINITE:
        return Status.NOT_FINITE, bad_index
    return _codes.Status(status), (first, second)


def forest_check(const int64_t[::1] parents):
    """Validate a parent array: ``(FOREST_OK, -1)``, ``(PARENT_OUT_OF_RANGE, node)`` or
    ``(CYCLE, node)`` with ``node`` on the cycle (a ``ForestProblem``). O(n) time and
    memory."""
    cdef int64_t n = parents.shape[0], v, x, q
    cdef uint8_t *state
    cdef int code = FOREST_OK
    cdef int64_t bad = -1
    cdef bint out_of_range = False, before = True, after = True
    if n > 0:
        with nogil:
            # One vectorised pass: the parents in range, and whether they all precede or
            # all follow their children, when no cycle can exist (a path of 10^6 nodes:
            # 2.5 ms -> 0.45 ms for the check).
            out_of_range = _parents_scan(&parents[0], 0, n, n, &before, &after)
    if out_of_range:
        for v in range(n):
            q = parents[v]
            if q < -1 or q >= n:
                code = PARENT_OUT_OF_RANGE
                bad = v
                break
    elif n > 0 and not (before or after):
        state = <uint8_t *> malloc(n * sizeof(uint8_t))
        if state == NULL:
            raise MemoryError()
        with nogil:
            for v in range(n):
                state[v] = 0  # 0: not seen, 1: on the path being climbed, 2: reaches a root
            for v in range(n):
                x = v
                while x >= 0 and state[x] == 0:
                    state[x] = 1
                    x = parents[x]
                if x >= 0 and state[x] == 1:
                    code = CYCLE
                    bad = x
                    break
                x = v
                while x >= 0 and state[x] == 1:
                    state[x] = 2
                    x = parents[x]
        free(state)
    return _codes.ForestProblem(code), bad


def forest_children_and_roots(const int64_t[::1] parents, const uint8_t[::1] removed,
                              int64_t[::1] first_child, int64_t[::1] next_sibling):
    """Every node's children and the current roots of a live forest, in one C pass.

    ``parents`` is a checked parent array (``forest_check``), ``removed[i]`` is 1 for a node
    gone. Fills ``first_child`` and ``next_sibling`` (as long as ``parents``): each node's
    children in increasing order as a linked list, -1 for none. Returns the roots (nodes not
    removed whose parent is none or removed) as a list in increasing order. O(n) time; what
    the engine built in a Python loop (0.47 s at 10^6 nodes) before its first ``moves()``.
    """
    cdef Py_ssize_t n = parents.shape[0]
    cdef int64_t node, parent
    if removed.shape[0] != n or first_child.shape[0] != n or next_sibling.shape[0] != n:
        raise ValueError("forest_children_and_roots: arrays of different lengths")
    with nogil:
        for node in range(n):
            first_child[node] = -1
        for node in range(n - 1, -1, -1):
            parent = parents[node]
            next_sibling[node] = -1
            if parent >= 0:
                next_sibling[node] = first_child[parent]
                first_child[parent] = node
    return [node for node in range(n)
            if not removed[node] and (parents[node] < 0 or removed[parents[node]])]


# -- the engine's structure --------------------------------------------------------------------

cdef inline int64_t *_carve(int64_t **at, int64_t words) noexcept:
    """The next ``words`` int64 of a block being handed out as arrays; ``at`` moves past them."""
    cdef int64_t *piece = at[0]
    at[0] = piece + words
    return piece


cdef class ForestWindows:
    """Live rows, stacks and a forest (the Engine's position): the value, the move of the
    one tie rule, and any move by either side.

    ``ForestWindows(coins, starts, stops, n_rows, fbase, parents, removed)`` takes the
    arguments of ``forest_value``. The rows are a window structure (``RowWindows``); the
    stacks' coins and the forest's nodes are slots whose blocks are computed once, bottom-up
    (a subtree's blocks depend on it alone, so they stay right while it is whole). The treap
    of the rows' blocks also holds the released blocks of the slots; taking a root puts back
    the blocks it had absorbed.

    Building: O(n log n). ``value()``: O(1). ``best()``: O(log n). ``pop_left(c)`` (a row's
    left end, a stack's top), ``pop_right(c)`` (a row's right end): O(log n) amortised;
    ``take_node(i)`` (forest node i, a root): O((1 + b) log n) for the b blocks node i had
    absorbed, each put back once in a game: a whole game costs O(n log n) against any
    opponent. ``status``: OK, OVERFLOW (int64 coins whose magnitudes add up to 2^59 or
    more, float64 ones to 1e300: use ``ForestWindowsExact``) or NOT_FINITE (``bad_index``).
    """

    cdef RowWindows rows
    cdef bint is_float
    cdef readonly int status
    cdef readonly int64_t bad_index
    cdef Py_ssize_t k
    cdef Py_ssize_t n_rows
    cdef int64_t nf, n_slots, node0, roots_size, fbase
    cdef int64_t *sflat
    cdef int64_t *spar
    cdef int64_t *scomp
    cdef int64_t *slot_of_node
    cdef int64_t *first_child
    cdef int64_t *next_sib
    cdef int64_t *merged_first
    cdef int64_t *merged_next
    cdef int64_t *root_heap    # a min-heap of slots holding every current root (and old ones)
    cdef int64_t *stack_top    # per component: the slot of a stack's top
    cdef int64_t *stack_end    # per component: one past a stack's last slot
    cdef int64_t *first_slot   # per component: a stack's first slot
    cdef int64_t *comp_start   # per component: its first coin's flat index at the start
    cdef int64_t *comp_stop
    cdef uint8_t *released
    cdef uint8_t *gone
    cdef int64_t *K_i          # NULL for float64 coins
    cdef double *K_f           # NULL for int64 coins
    cdef void *memory          # every array above, in one allocation
    cdef int64_t frozen_i      # the frozen blocks still on the table
    cdef double frozen_f

    def __cinit__(self, coins, const int64_t[::1] starts, const int64_t[::1] stops,
                  Py_ssize_t n_rows, int64_t fbase, const int64_t[::1] parents,
                  const uint8_t[::1] removed):
        cdef const int64_t[::1] ci
        cdef const double[::1] cf
        cdef Py_ssize_t c
        cdef int64_t s, S, size, x, p, i, magnitude_i = 0
        cdef double magnitude_f = 0
        cdef uint8_t *alive = NULL
        cdef int64_t *at
        cdef int64_t nf_size, words
        cdef size_t nbytes
        cdef bint ovf = False, too_big = False
        cdef int st = OK
        view = memoryview(coins)
        self.is_float = view.format == "d"
        self.status = OK
        self.bad_index = -1
        _forest_arguments(view.shape[0], starts, stops, n_rows, fbase, parents, removed)
        self.k = starts.shape[0]
        self.n_rows = n_rows
        self.nf = parents.shape[0]
        self.fbase = fbase
        if self.is_float:
            cf = coins
            self.bad_index = _forest_not_finite(cf, starts, stops, fbase, removed)
            if self.bad_index >= 0:
                self.status = NOT_FINITE
                return
            for c in range(self.k):
                for p in range(starts[c], stops[c]):
                    magnitude_f += fabs(cf[p])
            for i in range(self.nf):
                if not removed[i]:
                    magnitude_f += fabs(cf[fbase + i])
            too_big = not magnitude_f < _F_LIMIT
        else:
            ci = coins
            # Every block, treap sum and frozen total is a signed sum of distinct coins.
            for c in range(self.k):
                for p in range(starts[c], stops[c]):
                    too_big |= _add_magnitude(&magnitude_i, ci[p])
            for i in range(self.nf):
                if not removed[i]:
                    too_big |= _add_magnitude(&magnitude_i, ci[fbase + i])
        if too_big:
            self.status = OVERFLOW
            return
        self.rows = RowWindows(coins, _window_array("q", starts[:n_rows]),
                               _window_array("q", stops[:n_rows]), n_rows)
        S = _slot_count(starts, stops, n_rows, removed)
        self.n_slots = S
        size = S if S > 0 else 1
        # Every per-slot and per-component array in one allocation with huge pages asked
        # for: they are all written while building, and fresh 4 KiB pages cost a page fault
        # each. An Engine of a random 10^6-node forest and its first moves(), after the
        # Game's value as in benchmarks/forest_end_to_end.py: 131 -> 97 ms (median of 7,
        # CPU time; 24,000 -> 7,000 page faults, and fewer TLB misses).
        nf_size = self.nf if self.nf > 0 else 1
        words = 9 * size + nf_size + 5 * (self.k + 1)
        nbytes = words * sizeof(int64_t) + 2 * size * sizeof(uint8_t)
        self.memory = malloc(nbytes)
        if self.memory == NULL:
            raise MemoryError()
        _huge_pages(self.memory, nbytes)
        alive = <uint8_t *> malloc(size * sizeof(uint8_t))
        if alive == NULL:
            raise MemoryError()
        at = <int64_t *> self.memory
        self.sflat = _carve(&at, size)
        self.spar = _carve(&at, size)
        self.scomp = _carve(&at, size)
        self.first_child = _carve(&at, size)
        self.next_sib = _carve(&at, size)
        self.merged_first = _carve(&at, size)
        self.merged_next = _carve(&at, size)
        self.root_heap = _carve(&at, size)
        if self.is_float:
            self.K_f = <double *> _carve(&at, size)
        else:
            self.K_i = _carve(&at, size)
        self.slot_of_node = _carve(&at, nf_size)
        self.stack_top = _carve(&at, self.k + 1)
        self.stack_end = _carve(&at, self.k + 1)
        self.first_slot = _carve(&at, self.k + 1)
        self.comp_start = _carve(&at, self.k + 1)
        self.comp_stop = _carve(&at, self.k + 1)
        self.released = <uint8_t *> at
        self.gone = self.released + size
        memset(self.gone, 0, size * sizeof(uint8_t))
        try:
            self.node0 = self.rows._add_cells(S)
            with nogil:
                if self.is_float:
                    _slots_of(cf, starts, stops, n_rows, fbase, parents, removed, self.sflat,
                              self.spar, self.scomp, self.K_f, self.slot_of_node)
                    # The coins are read from K: _slot_blocks reads them all first.
                    st = _slot_blocks(S, self.spar, self.K_f, self.K_f, self.released, alive,
                                      self.merged_first, self.merged_next, &ovf)
                else:
                    _slots_of(ci, starts, stops, n_rows, fbase, parents, removed, self.sflat,
                              self.spar, self.scomp, self.K_i, self.slot_of_node)
                    st = _slot_blocks(S, self.spar, self.K_i, self.K_i, self.released, alive,
                                      self.merged_first, self.merged_next, &ovf)
            if st == NO_MEMORY:
                raise MemoryError()
            _link_children(S, self.spar, self.first_child, self.next_sib)
            self.roots_size = 0
            for s in range(S):
                if self.spar[s] < 0:
                    _min_push(self.root_heap, &self.roots_size, s)
                if not alive[s] and not self.released[s]:
                    if self.is_float:
                        self.frozen_f += self.K_f[s]
                    else:
                        self.frozen_i += self.K_i[s]
            with nogil:
                st = self.rows._insert_blocks(self.node0, alive, S, self.K_i, self.K_f)
            if st == NO_MEMORY:
                raise MemoryError()
            x = 0
            for c in range(self.k):
                self.stack_top[c] = x
                self.first_slot[c] = x
                self.comp_start[c] = starts[c]
                self.comp_stop[c] = stops[c]
                if c >= n_rows:
                    x += stops[c] - starts[c]
                self.stack_end[c] = x
        finally:
            free(alive)

    def __dealloc__(self):
        free(self.memory)

    cdef void _treap_add(self, int64_t s) noexcept:
        if self.is_float:
            self.rows._insert_block(self.node0 + s, 0, self.K_f[s])
        else:
            self.rows._insert_block(self.node0 + s, self.K_i[s], 0)

    cdef void _take(self, int64_t s) noexcept:
        """Take slot s (a root): its block leaves the treap (or the frozen total), the blocks
        it had absorbed come back, its children become roots."""
        cdef int64_t x, ch
        if self.released[s]:
            self.rows._drop_block(self.node0 + s)
        elif self.is_float:
            self.frozen_f -= self.K_f[s]
        else:
            self.frozen_i -= self.K_i[s]
        self.gone[s] = 1
        x = self.merged_first[s]
        while x >= 0:
            self._treap_add(x)
            x = self.merged_next[x]
        ch = self.first_child[s]
        while ch >= 0:
            _min_push(self.root_heap, &self.roots_size, ch)
            ch = self.next_sib[ch]

    cdef object _value_after_slot(self, int64_t s):
        """The value after taking slot s (a root), the structure left as it was: the changes
        of ``_take`` that the value sees (s's block out of the treap or of the frozen total,
        the blocks it had absorbed in) journaled in the rows' structure and rolled back
        (``_w_undo`` in _window.pxd says why it is then the same); the roots' heap is not
        touched. O((1 + b) log n) for the b blocks s had absorbed."""
        cdef int64_t x = self.merged_first[s], room = 1
        cdef int64_t frozen_i = self.frozen_i
        cdef double frozen_f = self.frozen_f
        while x >= 0:
            room += 1
            x = self.merged_next[x]
        _w_open(self.rows, room)
        if self.released[s]:
            self.rows._drop_block(self.node0 + s)
        elif self.is_float:
            frozen_f -= self.K_f[s]
        else:
            frozen_i -= self.K_i[s]
        x = self.merged_first[s]
        while x >= 0:
            _w_note_node(self.rows, self.node0 + x)  # before _insert_block writes its value
            self._treap_add(x)
            x = self.merged_next[x]
        value = self.rows._greedy_with(frozen_i, frozen_f)
        _w_close(self.rows)
        return value

    @cython.critical_section
    def value_after(self, Py_ssize_t c, bint from_left):
        """The value after taking the left end of row c (the top of stack c) or its right
        end, the structure left exactly as it was (IndexError where ``pop_left`` /
        ``pop_right`` would raise it). A row's end: ``RowWindows.value_after``'s journaled
        pop with the frozen blocks, O(log n) for a typical move; a stack's top:
        ``_value_after_slot``."""
        cdef int64_t s
        if not 0 <= c < self.k or (not from_left and c >= self.n_rows):
            raise IndexError(c)
        if c < self.n_rows:
            return self.rows.value_after(c, from_left,
                                         self.frozen_f if self.is_float else self.frozen_i)
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
        if s < 0 or self.gone[s] or (self.spar[s] >= 0 and not self.gone[self.spar[s]]):
            raise IndexError(node)
        return s

    @cython.critical_section
    def value_after_node(self, int64_t node):
        """The value after taking forest node ``node`` (a root; IndexError otherwise), the
        structure left exactly as it was. O((1 + b) log n) for the b blocks the node had
        absorbed (see ``_value_after_slot``)."""
        return self._value_after_slot(self._root_slot(node))

    cdef int64_t _lowest_root(self) noexcept:
        while self.roots_size > 0 and self.gone[self.root_heap[0]]:
            _min_pop(self.root_heap, &self.roots_size)
        return self.root_heap[0] if self.roots_size > 0 else -1

    @cython.critical_section
    def value(self):
        """The value of the position for the player to move. O(1): the Greedy alternating
        sum at the treap's root, and the frozen blocks with the sign of the parity."""
        return self.rows._greedy_with(self.frozen_i, self.frozen_f)

    @cython.critical_section
    def best(self):
        """``(component, from_left, flat)``: the move of the one tie rule, or ``(-1, True,
        -1)`` when no coin is left. The largest block of the treap: a row's (taken from
        the end of its row with the larger end block, ties left) or a released block at a
        root; when the treap is empty, the root with the lowest slot. A forest node's
        component is ``len(starts)``. O(log n)."""
        cdef int64_t first = self.rows._largest_block(), s
        if first >= 0:
            if first < self.node0:
                return self.rows._move_in(self.rows._row_of(first))
            s = first - self.node0
        else:
            s = self._lowest_root()
            if s < 0:
                return -1, True, -1
        # The take that usually follows reads these (a random tree's slot is anywhere in
        # memory): requested now, they arrive while the engine builds its Move in Python.
        # A move along the optimal line of a random 10^6-node forest: 2.9 -> 2.2 us.
        coinsrow_prefetch(&self.gone[s])
        coinsrow_prefetch(&self.spar[s])
        coinsrow_prefetch(&self.released[s])
        coinsrow_prefetch(&self.merged_first[s])
        coinsrow_prefetch(&self.first_child[s])
        if self.scomp[s] == self.k:
            coinsrow_prefetch(&self.slot_of_node[self.sflat[s] - self.fbase])
        return self.scomp[s], True, self.sflat[s]

    @cython.critical_section
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

    @cython.critical_section
    def pop_right(self, Py_ssize_t c):
        """Take the right end of row c (IndexError if it is empty or not a row)."""
        if not 0 <= c < self.n_rows:
            raise IndexError(c)
        self.rows.pop_right(c)

    @cython.critical_section
    def take_node(self, int64_t node):
        """Take forest node ``node``, which must be a root (IndexError otherwise)."""
        self._take(self._root_slot(node))

    @cython.critical_section
    def bounds(self, Py_ssize_t c):
        """``(start, stop)``: the flat range of the coins left in row or stack c."""
        if not 0 <= c < self.k:
            raise IndexError(c)
        if c < self.n_rows:
            return self.rows.bounds(c)
        return (self.comp_start[c] + self.stack_top[c] - self.first_slot[c],
                self.comp_stop[c])

    @cython.critical_section
    def _state(self):
        """The whole structure as Python lists and numbers, O(n), for tests (what
        ``value_after`` must leave as it was): the rows' (``RowWindows._state``), the slots'
        treap cells after its nil node, and the forest's own numbers."""
        cdef RowWindows rows = self.rows
        cdef int64_t t
        state = rows._state()
        state["cells"] = [(rows.w.tl[t], rows.w.tr[t], rows.w.sz[t],
                           rows.val_f[t] if self.is_float else rows.val_i[t],
                           rows.alt_f[t] if self.is_float else rows.alt_i[t])
                          for t in range(rows.w.nil + 1, rows.w.cells)]
        state.update(frozen=self.frozen_f if self.is_float else self.frozen_i,
                     gone=self.gone[:self.n_slots],
                     # The live roots: the taken ones the heap still holds are no part
                     # of the position (``roots()`` drops them).
                     roots=sorted([self.root_heap[t] for t in range(self.roots_size)
                                   if not self.gone[self.root_heap[t]]]),
                     stack_top=[self.stack_top[t] for t in range(self.k)])
        return state

    @cython.critical_section
    def roots(self):
        """The forest's current roots (node ids) in increasing order. The roots' heap holds
        every root since the build, the taken ones too: those leave it here for good, and
        the live ones stay sorted (a sorted array is a min-heap), so a call costs O(r log r)
        for the r roots plus O(1) for each node taken since the last. What ``moves()`` lists:
        no pass over the n nodes, and nothing kept in Python while the game is played."""
        cdef int64_t i, m = 0, s
        cdef uint64_t *spare
        for i in range(self.roots_size):
            s = self.root_heap[i]
            if not self.gone[s]:
                self.root_heap[m] = s
                m += 1
        self.roots_size = m
        spare = <uint64_t *> malloc((m if m > 0 else 1) * sizeof(uint64_t))
        if spare == NULL:
            raise MemoryError()
        try:
            # In place, so the heap is the sorted array; ties cannot happen (distinct slots).
            if _sort_ascending(self.root_heap, m, spare) == NO_MEMORY:
                raise MemoryError()
        finally:
            free(spare)
        return [self.sflat[self.root_heap[i]] - self.fbase for i in range(m)
                if self.scomp[self.root_heap[i]] == self.k]

    @cython.critical_section
    def taken(self, int64_t node):
        """Whether forest node ``node`` is gone (taken, or gone when the structure was
        built)."""
        cdef int64_t s
        if not 0 <= node < self.nf:
            raise IndexError(node)
        s = self.slot_of_node[node]
        return s < 0 or bool(self.gone[s])


cdef inline bint _add_magnitude(int64_t *total, int64_t x) noexcept nogil:
    """total += |x|; true once the total reaches the window's int64 limit (2^59)."""
    if x >= _H_LIMIT or x <= -_H_LIMIT:
        return True
    total[0] += x if x >= 0 else -x  # both below 2^59: no overflow
    return total[0] >= _H_LIMIT
