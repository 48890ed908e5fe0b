# coinsrow._core._forest_slots: the blocks of a forest, bottom-up, over the slots (the
# stacks' coins and the forest's nodes) with the tie rule, which the play and the engine use
# (docs/forests.md; the method is described at the top of _forest.pyx). The value's variant,
# where ties do not matter, is _forest_blocks.

from coinsrow._core._types cimport *

from coinsrow._core._scratch cimport _scratch, _scratch_free
from coinsrow._core._signals cimport _forest_signals
from coinsrow._core._sort cimport _sort_ascending, _sort_ids_by_key


# -- the order of the vertices: children first -----------------------------------------------

cdef int _children_first_kind(int64_t n, const int64_t *par) noexcept nogil:
    """0 when every parent precedes its children (decreasing ids put children first), 1 when
    every parent follows them (increasing ids), 2 otherwise. ``par[v]`` is v's parent, -1 for
    a root, -2 for a vertex that is not there."""
    cdef int64_t v
    cdef bint before = True, after = True
    for v in range(n):
        if par[v] >= 0:
            before &= par[v] < v
            after &= par[v] > v
    return 0 if before else (1 if after else 2)


cdef int64_t _kahn_order(int64_t n, const int64_t *par, int64_t *order,
                         int64_t *count) except -1 nogil:
    """The vertices (par[v] != -2) leaves first, each after all its children (Kahn's order):
    the leaves by increasing id, then each vertex when its last child is done. Returns how
    many vertices are in ``order``; those on a cycle (an invalid forest) never are. O(n)."""
    cdef int64_t v, head = 0, tail = 0, p
    for v in range(n):
        count[v] = 0
    for v in range(n):
        if par[v] >= 0:
            count[par[v]] += 1
    for v in range(n):
        if par[v] != -2 and count[v] == 0:
            order[tail] = v
            tail += 1
    while head < tail:
        _forest_signals(head)
        p = par[order[head]]
        head += 1
        if p >= 0:
            count[p] -= 1
            if count[p] == 0:
                order[tail] = p
                tail += 1
    return tail


cdef inline int64_t _order_at(int kind, int64_t n, const int64_t *order, int64_t j) noexcept nogil:
    if kind == 0:
        return n - 1 - j
    if kind == 1:
        return j
    return order[j]


# -- pairing heaps over vertex ids -------------------------------------------------------------
# K[v] is the key of vertex v, CH[v] its first child and SB[v] its next sibling (-1: none).
# Order: the larger key first, then the lower id.

cdef inline bint _ph_before(const coin_t *K, int64_t a, int64_t b) noexcept nogil:
    return K[a] > K[b] or (K[a] == K[b] and a < b)


cdef inline int64_t _ph_meld(const coin_t *K, int64_t *CH, int64_t *SB, int64_t a,
                             int64_t b) noexcept nogil:
    cdef int64_t t
    if a < 0:
        return b
    if b < 0:
        return a
    if _ph_before(K, b, a):
        t = a
        a = b
        b = t
    SB[b] = CH[a]
    CH[a] = b
    return a


cdef int64_t _ph_pop(const coin_t *K, int64_t *CH, int64_t *SB, int64_t h) noexcept nogil:
    """The heap of root h without h: its children paired left to right, then melded right to
    left (two-pass pairing, O(log n) amortised)."""
    cdef int64_t c = CH[h], pairs = -1, a, b, rest, r
    if c < 0:
        return -1
    if SB[c] < 0:
        return c  # one child (a chain, a path): O(1)
    while c >= 0:
        a = c
        b = SB[a]
        if b < 0:
            SB[a] = pairs
            pairs = a
            break
        rest = SB[b]
        SB[a] = -1
        SB[b] = -1
        a = _ph_meld(K, CH, SB, a, b)
        SB[a] = pairs
        pairs = a
        c = rest
    r = pairs
    pairs = SB[r]
    SB[r] = -1
    while pairs >= 0:
        rest = SB[pairs]
        SB[pairs] = -1
        r = _ph_meld(K, CH, SB, r, pairs)
        pairs = rest
    return r


# -- slots: the stacks' coins and the forest's nodes, with the tie rule ------------------------

cdef int64_t _slot_count(const int64_t[::1] starts, const int64_t[::1] stops,
                         Py_ssize_t n_rows, const uint8_t[::1] removed) noexcept nogil:
    cdef int64_t total = 0, i
    cdef Py_ssize_t c
    for c in range(n_rows, starts.shape[0]):
        total += stops[c] - starts[c]
    for i in range(removed.shape[0]):
        if not removed[i]:
            total += 1
    return total


cdef void _slots_of(const coin_t[::1] coins, const int64_t[::1] starts,
                    const int64_t[::1] stops, Py_ssize_t n_rows, int64_t fbase,
                    const int64_t[::1] parents, const uint8_t[::1] removed, int64_t *flat,
                    int64_t *par, int64_t *component, coin_t *coin,
                    int64_t *slot_of_node) noexcept nogil:
    """The slots: every stack's coins top to bottom, stack by stack, then the forest's nodes
    on the table by index. flat[s] is the coin's flat index, par[s] the parent's slot (-1 at
    a root), component[s] the stack's component (len(starts) for the forest), coin[s] the coin
    (floats without -0.0); slot_of_node[i] is node i's slot (-1: taken)."""
    cdef Py_ssize_t k = starts.shape[0], c
    cdef int64_t s = 0, p, i, q
    for c in range(n_rows, k):
        for p in range(starts[c], stops[c]):
            flat[s] = p
            par[s] = s - 1 if p > starts[c] else -1
            component[s] = c
            coin[s] = coins[p]
            if coin_t is double:
                coin[s] = coin[s] + 0.0  # no -0.0: see _forest_released
            s += 1
    for i in range(removed.shape[0]):
        if removed[i]:
            slot_of_node[i] = -1
            continue
        slot_of_node[i] = s
        flat[s] = fbase + i
        component[s] = k
        coin[s] = coins[fbase + i]
        if coin_t is double:
            coin[s] = coin[s] + 0.0
        s += 1
    for i in range(removed.shape[0]):
        s = slot_of_node[i]
        if s >= 0:
            q = parents[i]
            par[s] = slot_of_node[q] if q >= 0 else -1


cdef void _link_children(int64_t n, const int64_t *par, int64_t *first_child,
                         int64_t *next_sib) noexcept nogil:
    """Each of n vertices' children as a list (first_child, then next_sib; -1 ends it), in
    increasing order. O(n)."""
    cdef int64_t s, p
    for s in range(n):
        first_child[s] = -1
    s = n
    while s > 0:
        s -= 1
        p = par[s]
        if p >= 0:
            next_sib[s] = first_child[p]
            first_child[p] = s


cdef int _slot_blocks(int64_t n, const int64_t *par, coin_t *coin, coin_t *K,
                      uint8_t *released, uint8_t *alive, int64_t *merged_first,
                      int64_t *merged_next, bint *overflow) except -1 nogil:
    """Bottom-up block merging over the slots, with the tie rule: K[s] is the value of the
    block of slot s, ``released[s]`` whether it was released (else it was frozen). A block
    is released only when strictly above everything below it still unabsorbed, and the
    heaps pop ties by the lower slot. When not NULL: ``alive[s]`` is 1 for the released
    blocks no vertex absorbed, and the blocks s absorbed, in order, are merged_first[s],
    merged_next[merged_first[s]], ... (-1 ends). ``coin`` may be ``K`` (each coin is read
    before its slot's block is written). As in ``_forest_released``, a vertex's children
    that released one block each are sorted as one chain (by key, then slot) from
    _FOREST_RUN of them on. O(n log n); NO_MEMORY on refused scratch.
    """
    cdef int64_t *order = NULL
    cdef int64_t *kids = NULL
    cdef int64_t *CH = NULL
    cdef int64_t *SB = NULL
    cdef int64_t *run = NULL
    cdef void *grown
    cdef int kind
    cdef int64_t size = n if n > 0 else 1, j, count, u, h, x, p, last, q, nx, r, run_size = 0
    cdef coin_t d
    cdef bint odd, ovf = False
    try:
        kids = <int64_t *> _scratch(size * sizeof(int64_t))
        CH = <int64_t *> _scratch(size * sizeof(int64_t))
        SB = <int64_t *> _scratch(size * sizeof(int64_t))
        if kids == NULL or CH == NULL or SB == NULL:
            return NO_MEMORY
        kind = _children_first_kind(n, par)
        count = n
        if kind == 2:
            order = <int64_t *> malloc(size * sizeof(int64_t))
            if order == NULL:
                return NO_MEMORY
            count = _kahn_order(n, par, order, kids)
        for u in range(n):
            kids[u] = -1
            if alive != NULL:
                alive[u] = 0
        for j in range(count):
            _forest_signals(j)
            u = _order_at(kind, n, order, j)
            # The children's heaps: the one-block ones set aside, the others melded.
            h = -1
            r = 0
            q = kids[u]
            while q >= 0:
                nx = SB[q]
                SB[q] = -1
                if CH[q] < 0:
                    if r >= run_size:
                        run_size = 2 * run_size + 16
                        grown = PyMem_RawRealloc(run, run_size * sizeof(int64_t))
                        if grown == NULL:
                            return NO_MEMORY
                        run = <int64_t *> grown
                    run[r] = q
                    r += 1
                else:
                    h = _ph_meld(K, CH, SB, h, q)
                q = nx
            if r >= _FOREST_RUN:
                # One chain in the heaps' order: slots ascending, then by key (stable).
                if _sort_slots_then_keys(run, r, K) == NO_MEMORY:
                    return NO_MEMORY
                for x in range(r - 1):
                    CH[run[x]] = run[x + 1]
                h = _ph_meld(K, CH, SB, h, run[0])
            else:
                for x in range(r):
                    h = _ph_meld(K, CH, SB, h, run[x])
            d = coin[u]
            odd = True
            last = -1
            if merged_first != NULL:
                merged_first[u] = -1
            while True:
                if odd and (h < 0 or d > K[h]):
                    released[u] = 1
                    CH[u] = h
                    SB[u] = -1
                    if alive != NULL:
                        alive[u] = 1
                    h = u
                    break
                if h < 0:
                    released[u] = 0
                    break
                x = h
                h = _ph_pop(K, CH, SB, x)
                if alive != NULL:
                    alive[x] = 0
                if merged_first != NULL:
                    if last < 0:
                        merged_first[u] = x
                    else:
                        merged_next[last] = x
                    merged_next[x] = -1
                    last = x
                if odd:
                    ovf |= sub_checked(d, K[x], &d)
                else:
                    ovf |= add_checked(d, K[x], &d)
                odd = not odd
            K[u] = d
            if not _is_finite(d):
                ovf = True  # beyond the float range: no comparison can be trusted
            p = par[u]
            if p >= 0 and h >= 0:
                SB[h] = kids[p]
                kids[p] = h
        overflow[0] |= ovf
        return OK
    finally:
        free(order)
        _scratch_free(kids)
        _scratch_free(CH)
        _scratch_free(SB)
        free(run)


cdef int _sort_slots_then_keys(int64_t *ids, int64_t m, const coin_t *K) except -1 nogil:
    """ids[0:m] in the heaps' order: the larger key first, then the lower slot."""
    cdef uint64_t *spare = <uint64_t *> malloc(m * sizeof(uint64_t))
    if spare == NULL:
        return NO_MEMORY
    try:
        if _sort_ascending(ids, m, spare) == NO_MEMORY:
            return NO_MEMORY
    finally:
        free(spare)
    return _sort_ids_by_key(ids, m, K)
