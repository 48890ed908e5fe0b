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
#   of _rows.pxi.
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
from libc.stdint cimport (INT64_MAX, int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t,
                         uint32_t, uint64_t)
from libc.string cimport memcpy, memmove, memset
from libc.math cimport fabs, isfinite, ldexp, INFINITY
from cpython.exc cimport PyErr_CheckSignals, PyErr_Occurred
# Scratch memory comes from Python's raw allocator (every allocation, growth and release
# through the same one): safe without the GIL, and seen by tracemalloc, so the memory
# benchmarks measure the kernels' scratch too.
from cpython.mem cimport (PyMem_RawMalloc as malloc, PyMem_RawCalloc as calloc,
                          PyMem_RawRealloc as realloc, PyMem_RawFree as free)
from coinsrow._core._types cimport *
from coinsrow._core import _types as _codes  # the codes' Python classes, to convert a C code
from coinsrow._core._scratch cimport _scratch, _scratch_free
from coinsrow._core._rows cimport (Component, _first_not_finite, _head, _key,
    _padded, _play_float_profits, _reduce_all_into, _reduce_into, _unkey)
from coinsrow._core._window cimport (RowWindows, _F_LIMIT, _H_LIMIT, _Win, _w_drop_block,
    _w_first_node, _w_pop_left_any, _w_pop_right_any, _w_priority, _w_pull, _w_split,
    _w_tree_add)
from array import array as _window_array

from libc.math cimport isfinite
from libc.stdint cimport int32_t, uint32_t
from cpython.mem cimport PyMem_RawRealloc



cdef struct _Node:
    # A vertex of the value's pairing heaps, 16 bytes: its key and links in one memory access
    # (the heaps jump around memory; a cache line holds four vertices).
    uint64_t key      # the bits of a coin_t (_node_key, _set_node_key)
    int32_t child     # the first child; before the vertex is visited: its unvisited children
    int32_t sibling   # the next sibling, or the next heap in a list of heaps


cdef int _forest_signals_now() except -1 nogil:
    with gil:
        PyErr_CheckSignals()
    return 0


cdef inline int _forest_signals(int64_t step) except -1 nogil:
    """Every _FOREST_SIGNALS steps, take the GIL briefly and run the signal handlers (a
    KeyboardInterrupt is raised from here). The GIL's code is out of line, so that this
    test stays small enough to be inlined in the long loops."""
    if (step & _FOREST_SIGNALS) == 0:
        _forest_signals_now()
    return 0


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


# The value's heaps: the same pairing heaps on _Node records (ties in any order: the value
# does not depend on them).

cdef inline coin_t _node_key(const _Node *N, int64_t v, const coin_t *like) noexcept nogil:
    cdef coin_t x
    memcpy(&x, &N[v].key, sizeof(coin_t))
    return x


cdef inline void _set_node_key(_Node *N, int64_t v, coin_t x) noexcept nogil:
    memcpy(&N[v].key, &x, sizeof(coin_t))


cdef inline int32_t _node_meld(_Node *N, int32_t a, int32_t b, const coin_t *like) noexcept nogil:
    cdef int32_t t
    if a < 0:
        return b
    if b < 0:
        return a
    if _node_key(N, b, like) > _node_key(N, a, like):
        t = a
        a = b
        b = t
    N[b].sibling = N[a].child
    N[a].child = b
    return a


cdef int32_t _node_pop(_Node *N, int32_t h, const coin_t *like) noexcept nogil:
    """``_ph_pop`` on _Node records."""
    cdef int32_t c = N[h].child, pairs = -1, a, b, rest, r
    if c < 0:
        return -1
    if N[c].sibling < 0:
        return c
    while c >= 0:
        a = c
        b = N[a].sibling
        if b < 0:
            N[a].sibling = pairs
            pairs = a
            break
        rest = N[b].sibling
        N[a].sibling = -1
        N[b].sibling = -1
        a = _node_meld(N, a, b, like)
        N[a].sibling = pairs
        pairs = a
        c = rest
    r = pairs
    pairs = N[r].sibling
    N[r].sibling = -1
    while pairs >= 0:
        rest = N[pairs].sibling
        N[pairs].sibling = -1
        r = _node_meld(N, r, pairs, like)
        pairs = rest
    return r


# -- sorting keys ------------------------------------------------------------------------------

cdef inline void _store_key(coin_t *a, int64_t i, uint64_t key) noexcept nogil:
    memcpy(&a[i], &key, sizeof(uint64_t))


cdef inline uint64_t _load_key(const coin_t *a, int64_t i) noexcept nogil:
    cdef uint64_t key
    memcpy(&key, &a[i], sizeof(uint64_t))
    return key


cdef inline uint64_t _sort_key(coin_t x, uint64_t base) noexcept nogil:
    """An unsigned key in the order of the numbers: int64 offset by ``base`` (their minimum),
    float64 by its bits (``_key``)."""
    if coin_t is int64_t:
        return (<uint64_t> x) - base
    else:
        return _key(x)


cdef inline coin_t _from_sort_key(uint64_t key, uint64_t base, coin_t *kind) noexcept nogil:
    """The inverse of ``_sort_key``."""
    if coin_t is int64_t:
        return <int64_t> (key + base)
    else:
        return _unkey(key, kind)


cdef int _sort_narrow(int64_t *a, int64_t m, uint64_t base, int d,
                      uint32_t *spare) except -1 nogil:
    """``_sort_ascending`` of int64 numbers whose range max - min (``base`` = min) fits in
    ``d`` <= 4 bytes: the same LSD radix sort on bytes, of 32-bit keys x - min. The passes
    between the first (which reads the numbers) and the last (which writes them back) move
    half the bytes of 64-bit keys: measured 1.7x faster on 10^6 keys of 31 bits. ``spare``
    has room for 2m 32-bit keys (two buffers, used in turn). O(m)."""
    cdef int64_t counts[4][256]
    cdef int64_t i, j, offset, count
    cdef uint32_t *source
    cdef uint32_t *target
    cdef uint32_t key
    cdef int p, shift
    memset(counts, 0, sizeof(counts))
    for i in range(m):
        key = <uint32_t> ((<uint64_t> a[i]) - base)
        counts[0][key & 255] += 1
        counts[1][(key >> 8) & 255] += 1
        counts[2][(key >> 16) & 255] += 1
        counts[3][key >> 24] += 1
    for p in range(d):
        offset = 0
        for j in range(256):
            count = counts[p][j]
            counts[p][j] = offset
            offset += count
    source = spare + m
    target = spare
    if d == 1:
        # One pass reads and writes the numbers: their keys first go to the spare room.
        for i in range(m):
            source[i] = <uint32_t> ((<uint64_t> a[i]) - base)
    for p in range(d):
        if m > _FOREST_SIGNALS:
            _forest_signals(0)
        shift = 8 * p
        if p == d - 1:
            for i in range(m):
                key = source[i]
                j = counts[p][(key >> shift) & 255]
                counts[p][(key >> shift) & 255] = j + 1
                a[j] = <int64_t> (key + base)
        elif p == 0:
            for i in range(m):
                key = <uint32_t> ((<uint64_t> a[i]) - base)
                j = counts[0][key & 255]
                counts[0][key & 255] = j + 1
                target[j] = key
        else:
            for i in range(m):
                key = source[i]
                j = counts[p][(key >> shift) & 255]
                counts[p][(key >> shift) & 255] = j + 1
                target[j] = key
        source = target
        target = spare + m if target == spare else spare
    return OK


cdef int _sort_ascending(coin_t *a, int64_t m, uint64_t *spare) except -1 nogil:
    """Sort a[0:m] in ascending order; ``spare`` has room for m keys. O(m); NO_MEMORY when
    the counters' memory is refused.

    A short run by insertion; otherwise an LSD radix sort of order-preserving keys on bytes
    (256 counters fit the first-level cache; wider digits measured slower), skipping the
    bytes every key shares: the first pass reads the numbers, the last writes them back.
    int64 keys are offset by the minimum, so a narrow range of numbers sorts in a few passes.
    """
    cdef int64_t counts[8][256]
    cdef int64_t i, j, offset, count
    cdef int d, passes = 0, done = 0, p
    cdef int live[8]
    cdef uint64_t key, base = 0, first_key, differ
    cdef coin_t x, low, high
    if m <= 32:
        for i in range(1, m):
            x = a[i]
            j = i
            while j > 0 and a[j - 1] > x:
                a[j] = a[j - 1]
                j -= 1
            a[j] = x
        return OK
    # The bytes the keys do not all share (the others need no pass), then their counts:
    # int64 keys are at most max - min (every byte up to its highest one may differ),
    # float64 keys differ where some key differs from the first one.
    if coin_t is int64_t:
        low = a[0]
        high = a[0]
        for i in range(1, m):
            if a[i] < low:
                low = a[i]
            elif a[i] > high:
                high = a[i]
        base = <uint64_t> low
        differ = (<uint64_t> high) - base
        d = 0
        while d < 8 and (differ >> (8 * d)) != 0:
            d += 1
        if 0 < d <= 4:
            return _sort_narrow(a, m, base, d, <uint32_t *> spare)
        differ = (~(<uint64_t> 0)) >> (64 - 8 * d) if d > 0 else 0
    else:
        first_key = _key(a[0])
        differ = 0
        for i in range(m):
            differ |= _key(a[i]) ^ first_key
    for d in range(8):
        if (differ >> (8 * d)) & 255:
            live[passes] = d
            passes += 1
    if passes == 0:
        return OK  # all equal
    memset(counts, 0, sizeof(counts))
    for i in range(m):
        key = _sort_key(a[i], base)
        for p in range(passes):
            counts[live[p]][(key >> (8 * live[p])) & 255] += 1
    for d in range(passes):
        offset = 0
        for j in range(256):
            count = counts[live[d]][j]
            counts[live[d]][j] = offset
            offset += count
    # Pass p moves the keys by byte live[p]: even passes into ``spare``, odd ones into ``a``
    # (keys in the numbers' place, through memcpy). The first pass reads the numbers; the
    # last writes them back (an odd count of passes ends in ``spare``: one pass more).
    for p in range(passes):
        if m > _FOREST_SIGNALS:
            _forest_signals(0)
        d = live[p]
        if p == 0:
            for i in range(m):
                key = _sort_key(a[i], base)
                j = counts[d][(key >> (8 * d)) & 255]
                counts[d][(key >> (8 * d)) & 255] = j + 1
                spare[j] = key
        elif p % 2 == 1 and p == passes - 1:
            for i in range(m):
                key = spare[i]
                j = counts[d][(key >> (8 * d)) & 255]
                counts[d][(key >> (8 * d)) & 255] = j + 1
                a[j] = _from_sort_key(key, base, &x)
        elif p % 2 == 1:
            for i in range(m):
                key = spare[i]
                j = counts[d][(key >> (8 * d)) & 255]
                counts[d][(key >> (8 * d)) & 255] = j + 1
                _store_key(a, j, key)
        else:
            for i in range(m):
                key = _load_key(a, i)
                j = counts[d][(key >> (8 * d)) & 255]
                counts[d][(key >> (8 * d)) & 255] = j + 1
                spare[j] = key
    if passes % 2 == 1:
        for i in range(m):
            a[i] = _from_sort_key(spare[i], base, &x)
    return OK


cdef int _sort_ids_by_key(int64_t *ids, int64_t m, const coin_t *K) except -1 nogil:
    """Order ids[0:m] by K[id], the largest first, keeping their order on ties (a stable LSD
    radix sort on bytes, as ``_sort_ascending``). O(m); NO_MEMORY when scratch is refused.
    Given ids in increasing order, the result is the tie rule's order: the larger key, then
    the lower id."""
    cdef uint64_t *keys = NULL
    cdef uint64_t *keys_to = NULL
    cdef int64_t *ids_to = NULL
    cdef uint64_t *swap_keys
    cdef int64_t *swap_ids
    cdef int64_t counts[256]
    cdef int64_t i, j, offset, count
    cdef int d
    cdef uint64_t differ = 0, base = 0, key
    cdef coin_t low
    if m < 2:
        return OK
    try:
        keys = <uint64_t *> malloc(m * sizeof(uint64_t))
        keys_to = <uint64_t *> malloc(m * sizeof(uint64_t))
        ids_to = <int64_t *> malloc(m * sizeof(int64_t))
        if keys == NULL or keys_to == NULL or ids_to == NULL:
            return NO_MEMORY
        if coin_t is int64_t:
            low = K[ids[0]]
            for i in range(1, m):
                if K[ids[i]] < low:
                    low = K[ids[i]]
            base = <uint64_t> low
        for i in range(m):
            keys[i] = ~_sort_key(K[ids[i]], base)  # complemented: ascending is largest first
            differ |= keys[i] ^ keys[0]
        for d in range(8):
            if not (differ >> (8 * d)) & 255:
                continue
            if m > _FOREST_SIGNALS:
                _forest_signals(0)
            memset(counts, 0, sizeof(counts))
            for i in range(m):
                counts[(keys[i] >> (8 * d)) & 255] += 1
            offset = 0
            for j in range(256):
                count = counts[j]
                counts[j] = offset
                offset += count
            for i in range(m):
                j = counts[(keys[i] >> (8 * d)) & 255]
                counts[(keys[i] >> (8 * d)) & 255] = j + 1
                keys_to[j] = keys[i]
                ids_to[j] = ids[i]
            swap_keys = keys
            keys = keys_to
            keys_to = swap_keys
            memcpy(ids, ids_to, m * sizeof(int64_t))
        return OK
    finally:
        free(keys)
        free(keys_to)
        free(ids_to)


cdef int _alternate_sorted(coin_t *a, int64_t m, coin_t *total, bint *overflow) except -1 nogil:
    """Add a[0:m] to total[0] largest first with alternating signs (+ first). Read as it is
    when it is already in order (either way, the common case of one tree's blocks), else
    sorted in place first. O(m); NO_MEMORY if the sort's scratch is refused."""
    cdef uint64_t *spare = NULL
    cdef int64_t i, step = -1, at
    cdef coin_t sum = total[0]
    cdef bint ovf = False, plus = True, ascending = True
    # Optimistically in the order given, as if non-increasing.
    for i in range(m):
        if i > 0 and a[i] > a[i - 1]:
            break
        if plus:
            ovf |= add_checked(sum, a[i], &sum)
        else:
            ovf |= sub_checked(sum, a[i], &sum)
        plus = not plus
    else:
        total[0] = sum
        overflow[0] |= ovf
        return OK
    ovf = False
    plus = True
    for i in range(1, m):
        if a[i] < a[i - 1]:
            ascending = False
            break
    if not ascending:
        spare = <uint64_t *> _scratch(m * sizeof(uint64_t))
        if spare == NULL:
            return NO_MEMORY
        try:
            with gil:
                PyErr_CheckSignals()
            if _sort_ascending(a, m, spare) == NO_MEMORY:
                return NO_MEMORY
        finally:
            _scratch_free(spare)
    at = m - 1
    for i in range(m):
        if plus:
            ovf |= add_checked(total[0], a[at], total)
        else:
            ovf |= sub_checked(total[0], a[at], total)
        plus = not plus
        at -= 1
    overflow[0] |= ovf
    return OK


# -- the value: bottom-up over the forest ------------------------------------------------------

cdef enum:
    # Vertices visited ahead of time whose records are prefetched (the heaps are latency
    # bound: a random tree's parent and first child are anywhere in memory).
    _FOREST_AHEAD = 12


cdef inline int32_t _lay_out(_Node *N, const coin_t *stack, int64_t top, int32_t *pool,
                            int32_t *free_lo, int32_t free_hi) noexcept nogil:
    """The keys of an array heap (ascending) as a chain of records, the largest first:
    records from the pool (linked through sibling), then the free range free_lo..free_hi;
    returns the chain's head."""
    cdef int32_t head = -1, previous = -1, v
    while top > 0:
        top -= 1
        if pool[0] >= 0:
            v = pool[0]
            pool[0] = N[v].sibling
        else:
            v = free_lo[0]
            free_lo[0] += 1
        _set_node_key(N, v, stack[top])
        N[v].child = -1
        N[v].sibling = -1
        if previous >= 0:
            N[previous].child = v
        else:
            head = v
        previous = v
    return head


cdef inline int64_t _parent_at(const int64_t *par, const _Node *N, bint renumbered,
                               int64_t v) noexcept nogil:
    """The parent of a vertex not visited yet (renumbered: in its record)."""
    if renumbered:
        return N[v].child
    return par[v]


cdef inline coin_t _coin_at(const coin_t *coin, const _Node *N, bint renumbered,
                            int64_t v) noexcept nogil:
    """The coin of a vertex not visited yet (renumbered: in its record)."""
    if renumbered:
        return _node_key(N, v, coin)
    return coin[v]


cdef inline int _far(int64_t a, int64_t b) noexcept nogil:
    return (<uint64_t> (a - b + _FOREST_NEAR)) > 2 * _FOREST_NEAR


cdef inline int64_t _children_first_at(int kind, int64_t n, const int32_t *order,
                                       int64_t j) noexcept nogil:
    """The j-th vertex children first: by decreasing id (kind 0), increasing (1), or
    ``order`` (Kahn's, all n of them)."""
    if kind == 0:
        return n - 1 - j
    if kind == 1:
        return j
    return order[j]


cdef int64_t _kahn_rest(const int64_t *par, const uint8_t *gone, bint any_removed,
                        int32_t *order, int64_t count, _Node *N) except -1 nogil:
    """Kahn's order completed: order[0:count] are the leaves, N[v].child the number of v's
    children on the table; each vertex is appended when its last child is done. Returns
    the length of the order (the vertices on the table), or -1 with KeyboardInterrupt (or
    what a signal handler raised) set: it looks at signals, so the error must reach the
    caller, which stops and frees its scratch. O(n)."""
    cdef int64_t j = 0, p
    while j < count:
        _forest_signals(j)
        p = par[order[j]]
        j += 1
        if p >= 0 and not (any_removed and gone[p]):
            N[p].child -= 1
            if N[p].child == 0:
                order[count] = <int32_t> p
                count += 1
    return count


cdef int _renumbered(const coin_t *coin, const int64_t *par, const uint8_t *gone,
                     bint any_removed, int64_t n, int kind, const int32_t *order,
                     int64_t visits, int32_t *size, int32_t *position, int32_t *kids,
                     _Node *N) except -1 nogil:
    """The forest's vertices on the table renumbered in preorder (each subtree a range of
    ids, its root first; siblings in the order opposite to their visits children first), a
    vertex whose parent is off the table a root: writes the coin and the parent of new id i
    to N[i].key and N[i].child (parents precede their children there) and sets kids[0:n]
    to -1. Returns 0, writing nothing more, when the ids are a preorder already (and no
    vertex is off the table), 1 when it renumbered, -1 when a signal handler raised (it looks
    at signals: the error reaches the caller, which stops and frees its scratch). n is the number of ids; ``kind`` (``_children_first_kind``)
    the order children first: decreasing ids (0), increasing (1), or the first ``visits``
    of ``order`` (2: Kahn's, every vertex on the table). ``size`` and ``position`` have
    room for n ids each.

    Three passes, each reading the parents in order and one other array at the parent (no
    chain of dependent reads): the sizes of the subtrees, children first; each vertex's
    first id, parents first (a parent's size becomes the next free id in its range); the
    coins and parents moved to their new ids. O(n)."""
    cdef int64_t j, v, p, s, at, next_root = 0
    cdef bint same = not any_removed and kind != 2
    if kind != 2:
        visits = n
    for v in range(n):
        size[v] = 1
    for j in range(visits):
        _forest_signals(j)
        v = _children_first_at(kind, n, order, j)
        if j + _RENUMBER_AHEAD < visits:
            p = par[_children_first_at(kind, n, order, j + _RENUMBER_AHEAD)]
            if p >= 0:
                coinsrow_prefetch(&size[p])
        if any_removed and gone[v]:
            continue
        p = par[v]
        if p >= 0 and not (any_removed and gone[p]):
            size[p] += size[v]
    for j in range(visits):
        _forest_signals(j)
        v = _children_first_at(kind, n, order, visits - 1 - j)
        if j + _RENUMBER_AHEAD < visits:
            p = par[_children_first_at(kind, n, order, visits - 1 - j - _RENUMBER_AHEAD)]
            if p >= 0:
                coinsrow_prefetch(&size[p])
        if any_removed and gone[v]:
            continue
        p = par[v]
        s = size[v]
        if p < 0 or (any_removed and gone[p]):
            at = next_root
            next_root += s
        else:
            at = size[p]
            size[p] = <int32_t> (at + s)
        size[v] = <int32_t> (at + 1)
        position[v] = <int32_t> at
        same &= at == v
    if same:
        for v in range(n):
            kids[v] = -1
        return 0
    for v in range(n):
        _forest_signals(v)
        kids[v] = -1
        if v + _RENUMBER_AHEAD < n and not (any_removed and gone[v + _RENUMBER_AHEAD]):
            # The record written and the parent's id read a few vertices ahead, requested
            # now (both anywhere in memory).
            coinsrow_prefetch(&N[position[v + _RENUMBER_AHEAD]])
            p = par[v + _RENUMBER_AHEAD]
            if p >= 0:
                coinsrow_prefetch(&position[p])
        if any_removed and gone[v]:
            continue
        at = position[v]
        p = par[v]
        # One record written per vertex, its coin and parent side by side (one cache line).
        _set_node_key(N, at, coin[v])
        N[at].child = position[p] if p >= 0 and not (any_removed and gone[p]) else -1
    return 1


cdef int _forest_released(const coin_t[::1] coins, int64_t fbase, const int64_t[::1] parents,
                          const uint8_t[::1] removed, coin_t *keys, int64_t *n_keys,
                          coin_t *frozen, bint *overflow) except -1 nogil:
    """Bottom-up block merging of a forest of fewer than 2^31 nodes, for its value: appends
    the blocks released at the roots to keys[n_keys[0]:] (n_keys[0] grows) and adds the
    frozen blocks to frozen[0]. ``keys`` has room for a key per vertex on the table after
    n_keys[0]: the room not yet written is the scratch of the runs' sorts.

    Vertices are visited children first: by decreasing id when every parent precedes its
    children, increasing when it follows them, else in Kahn's order (leaves first, then each
    vertex when its last child is done); an int64 forest whose heaps would be scattered over
    the records (``_FOREST_NEAR``, ``_FOREST_BRANCHING``) is first renumbered in preorder
    (``_renumbered``) and visited by decreasing new id. Each vertex keeps the list of its
    children's heaps; those that are one block each are sorted as one run once there are
    _FOREST_RUN of them, the others melded. A heap that is one sorted run, or a chain going up (each vertex the
    only child of the next one visited), lives in an array (a stack: the largest key on top)
    until it meets a vertex with other children, where it becomes a chain of records. The
    released blocks left at the roots are read from the arrays and heaps, in order for an
    array and a chain. O(n log n); O(n) for paths and stars. NO_MEMORY if scratch memory is
    refused.
    """
    cdef int64_t n = parents.shape[0], size = n if n > 0 else 1
    cdef _Node *N = NULL
    cdef int32_t *kids = NULL    # each vertex's children's heaps, linked through sibling
    cdef int32_t *order = NULL   # Kahn's order, extended as vertices are visited
    cdef coin_t *stack = NULL    # the array heap (ascending: its maximum at top - 1)
    cdef int64_t j, count = n, tail = 0, m, r, w, near, nearest, top = 0
    cdef int32_t u, h, x, p, q, nx, singles, head, next_vertex
    cdef int32_t roots = -1      # the roots' final heaps, linked through sibling
    cdef int32_t owner = -1      # the vertex whose only child's heap is the array
    cdef int32_t pool = -1       # records free for the array's keys: this list, linked
    cdef int32_t free_lo = 0     # through sibling, and the ids free_lo..free_hi (the visited
    cdef int32_t free_hi = -1    # ids of a chain of consecutive ids): top of them at least
    cdef int32_t step = 1        # the id visited next, in the first two orders: u + step
    cdef int32_t sibling_parent = -1  # the parent of the leaf just visited
    cdef int kind
    cdef coin_t d, key
    cdef bint odd, ovf = False, any_removed = False, before = True, after = True, in_array
    cdef const coin_t *coin
    cdef const int64_t *par
    cdef const uint8_t *gone
    cdef bint renumbered = False  # coins and parents in preorder, in N (_renumbered)
    cdef int64_t scattered = 0, live = 0, pu, branching = 0
    if n == 0:
        return OK
    coin = &coins[fbase]
    par = &parents[0]
    gone = &removed[0]
    try:
        N = <_Node *> _scratch(size * sizeof(_Node))
        kids = <int32_t *> _scratch(size * sizeof(int32_t))
        stack = <coin_t *> _scratch(size * sizeof(coin_t))
        if N == NULL or kids == NULL or stack == NULL:
            return NO_MEMORY
        for j in range(n):
            _forest_signals(j)
            kids[j] = -1
            if gone[j]:
                any_removed = True
            elif par[j] >= 0 and not gone[par[j]]:
                before &= par[j] < j
                after &= par[j] > j
        kind = 0 if before else (1 if after else 2)
        if coin_t is int64_t and kind != 2:
            # Scattered vertices: a parent far from its child and from the previous vertex's
            # parent (the heaps of a subtree then lie all over the records), counted on one
            # vertex in _FOREST_SAMPLE.
            live = 0
            j = 1
            while j < n:
                if not gone[j]:
                    live += 1
                    scattered += _far(par[j], j) & _far(par[j], par[j - 1])
                j += _FOREST_SAMPLE
        if coin_t is int64_t and kind != 2 and scattered * _FOREST_SCATTERED > live:
            live = n
            if any_removed:
                for j in range(n):
                    live -= gone[j]
            if _renumbered(coin, par, gone, any_removed, n, kind, NULL, n, kids,
                           <int32_t *> stack, kids, N):
                renumbered = True
                n = live
                count = live
                any_removed = False
                kind = 0
        if kind == 2:
            order = <int32_t *> _scratch(size * sizeof(int32_t))
            if order == NULL:
                return NO_MEMORY
            for j in range(n):
                N[j].child = 0
            for j in range(n):
                _forest_signals(j)
                if not gone[j] and par[j] >= 0 and not gone[par[j]]:
                    N[par[j]].child += 1
            for j in range(n):
                if not gone[j]:
                    if N[j].child == 0:
                        order[tail] = <int32_t> j
                        tail += 1
                    branching += N[j].child >= 2
            count = tail
        if coin_t is int64_t and kind == 2 and branching * _FOREST_BRANCHING > n:
            # Parents anywhere, and many vertices with several children (a random tree: many
            # heaps popped): Kahn's order in full (each vertex when its last child is done),
            # then the preorder renumbering along it. Its visits would jump all over memory;
            # the renumbered forest's go down the ids. (A path's, a star's or a
            # caterpillar's heaps are chains and runs: renumbering them measured slower.)
            count = _kahn_rest(par, gone, any_removed, order, count, N)
            live = count
            if _renumbered(coin, par, gone, any_removed, n, kind, order, count, kids,
                           <int32_t *> stack, kids, N):
                renumbered = True
                n = live
                any_removed = False
                kind = 0
        j = 0
        step = -1 if kind == 0 else 1
        while j < count:
            if sibling_parent >= 0:
                # The last vertex was a leaf whose record went on its parent's list, and a
                # sibling comes next: while the next ones are leaves of the same parent (a
                # star's, or any vertex's whose leaves are numbered one after the other),
                # the same, in a short loop (the general visit below does nothing more for
                # them; its prefetches are hints). The one right before the parent itself
                # goes the general way (an array starts there).
                while j + 1 < count:
                    u = <int32_t> (n - 1 - j if kind == 0 else j)
                    if (kids[u] >= 0
                            or _parent_at(par, N, renumbered, u) != sibling_parent):
                        break
                    if sibling_parent == u + step:
                        break
                    _forest_signals(j)
                    d = _coin_at(coin, N, renumbered, u)
                    if coin_t is double:
                        d = d + 0.0
                    _set_node_key(N, u, d)
                    N[u].child = -1
                    N[u].sibling = kids[sibling_parent]
                    kids[sibling_parent] = u
                    j += 1
                sibling_parent = -1
            _forest_signals(j)
            if kind == 0:
                u = <int32_t> (n - 1 - j)
                w = u - _FOREST_AHEAD
                near = u - _FOREST_AHEAD // 2
                nearest = u - _FOREST_AHEAD // 4
            elif kind == 1:
                u = <int32_t> j
                w = u + _FOREST_AHEAD
                near = u + _FOREST_AHEAD // 2
                nearest = u + _FOREST_AHEAD // 4
            else:
                u = order[j]
                w = order[j + _FOREST_AHEAD] if j + _FOREST_AHEAD < count else -1
                near = order[j + _FOREST_AHEAD // 2] if j + _FOREST_AHEAD // 2 < count else -1
                nearest = -1  # measured slower here: these records are prefetched below
                if j + 2 * _FOREST_AHEAD < count:
                    # Kahn's order jumps around memory: what a vertex further ahead reads
                    # first (its parent, coin, list, record) is requested now.
                    x = order[j + 2 * _FOREST_AHEAD]
                    coinsrow_prefetch(&par[x])
                    coinsrow_prefetch(&coin[x])
                    coinsrow_prefetch(&kids[x])
                    coinsrow_prefetch(&N[x])
            j += 1
            if any_removed and gone[u]:
                continue
            # u's coin and parent, read before u's record is written (renumbered: they are
            # in it).
            pu = _parent_at(par, N, renumbered, u)
            d = _coin_at(coin, N, renumbered, u)
            in_array = owner == u
            if in_array and kids[u] >= 0:
                # Other children too: the array becomes a chain of records, one more heap
                # in u's list.
                in_array = False
                if top > 0:
                    q = _lay_out(N, stack, top, &pool, &free_lo, free_hi)
                    N[q].sibling = kids[u]
                    kids[u] = q
                top = 0
                owner = -1
            h = -1
            if not in_array:
                if 0 <= w < n:
                    # A vertex visited soon: its parent's list head and its first child's
                    # record; nearer, that child's first child and next sibling (the records
                    # the visit will read next).
                    x = <int32_t> _parent_at(par, N, renumbered, w)
                    if x >= 0:
                        coinsrow_prefetch(&kids[x])
                    if kids[w] >= 0:
                        coinsrow_prefetch(&N[kids[w]])
                if 0 <= near < n and kids[near] >= 0:
                    q = kids[near]
                    if N[q].child >= 0:
                        coinsrow_prefetch(&N[N[q].child])
                    if N[q].sibling >= 0:
                        coinsrow_prefetch(&N[N[q].sibling])
                if 0 <= nearest < n and kids[nearest] >= 0:
                    # Nearer still, one step further down the list: the third heap's record
                    # and the second heap's first child.
                    q = N[kids[nearest]].sibling
                    if q >= 0:
                        if N[q].sibling >= 0:
                            coinsrow_prefetch(&N[N[q].sibling])
                        if N[q].child >= 0:
                            coinsrow_prefetch(&N[N[q].child])
                # The children's heaps: the one-block ones set aside, their keys gathered
                # in the array (free: no array is on while this runs). When they are all
                # one-block heaps, their list is kept as it is.
                singles = kids[u]
                r = 0
                q = kids[u]
                while q >= 0:
                    if N[q].child >= 0:
                        singles = -1  # the list mixes both kinds: split it below
                        break
                    stack[r] = _node_key(N, q, &d)
                    r += 1
                    q = N[q].sibling
                if singles < 0:
                    r = 0
                    q = kids[u]
                    while q >= 0:
                        nx = N[q].sibling
                        if N[q].child < 0:
                            N[q].sibling = singles
                            singles = q
                            stack[r] = _node_key(N, q, &d)
                            r += 1
                        else:
                            if nx >= 0:
                                coinsrow_prefetch(&N[nx])
                            coinsrow_prefetch(&N[N[q].child])  # read if q is popped
                            N[q].sibling = -1
                            h = _node_meld(N, h, q, &d)
                        q = nx
                if 0 < r < _FOREST_RUN:
                    while singles >= 0:
                        nx = N[singles].sibling
                        N[singles].sibling = -1
                        h = _node_meld(N, h, singles, &d)
                        singles = nx
                elif r > 0:
                    # One sorted run: an array heap when it is all u has (with its records
                    # as the pool), else dealt again along the list as a chain.
                    # The sort's scratch: the unwritten end of ``keys`` (the blocks put
                    # there so far and the run's keys are distinct visited vertices, so
                    # n_keys[0] + r <= the rows' entries + the live vertices: its room).
                    if _sort_ascending(stack, r, <uint64_t *> (keys + n_keys[0])) == NO_MEMORY:
                        return NO_MEMORY
                    if h < 0:
                        top = r
                        pool = singles
                        free_lo = 0
                        free_hi = -1
                        in_array = True
                    else:
                        head = singles
                        q = singles
                        while q >= 0:
                            nx = N[q].sibling
                            r -= 1
                            _set_node_key(N, q, stack[r])
                            N[q].sibling = -1
                            N[q].child = nx
                            q = nx
                        h = _node_meld(N, h, head, &d)
            if coin_t is double:
                d = d + 0.0  # no -0.0 anywhere: ties then never depend on the order of pops
            odd = True
            if in_array:
                # Up a chain: each vertex with the array as its only child's heap. Decreasing
                # or increasing ids go on here while the parent is the next id and has no
                # other child's heap (its other children were visited before).
                while True:
                    # u's record is free now: the array may gain one key below. Consecutive
                    # ids extend the free range (nothing written); others join the list.
                    if free_hi < free_lo:
                        free_lo = u
                        free_hi = u
                    elif u == free_lo - 1:
                        free_lo = u
                    elif u == free_hi + 1:
                        free_hi = u
                    else:
                        N[u].sibling = pool
                        pool = u
                    while True:
                        if odd and (top == 0 or d >= stack[top - 1]):
                            stack[top] = d
                            top += 1
                            break
                        if top == 0:
                            ovf |= add_checked(frozen[0], d, frozen)
                            break
                        top -= 1
                        if odd:
                            ovf |= sub_checked(d, stack[top], &d)
                        else:
                            ovf |= add_checked(d, stack[top], &d)
                        odd = not odd
                    if kind == 2 or j >= count:
                        break
                    p = <int32_t> pu
                    if p < 0 or p != (u - 1 if kind == 0 else u + 1) or kids[p] >= 0:
                        break
                    if any_removed and gone[p]:
                        break
                    u = p
                    _forest_signals(j)
                    j += 1
                    pu = _parent_at(par, N, renumbered, u)
                    d = _coin_at(coin, N, renumbered, u)
                    if coin_t is double:
                        d = d + 0.0
                    odd = True
            else:
                while True:
                    if h >= 0:
                        key = _node_key(N, h, &d)
                    if odd and (h < 0 or d >= key):
                        _set_node_key(N, u, d)
                        N[u].child = h
                        N[u].sibling = -1
                        h = u
                        break
                    if h < 0:
                        ovf |= add_checked(frozen[0], d, frozen)
                        break
                    h = _node_pop(N, h, &d)
                    if odd:
                        ovf |= sub_checked(d, key, &d)
                    else:
                        ovf |= add_checked(d, key, &d)
                    odd = not odd
            p = <int32_t> pu
            if p >= 0 and any_removed and gone[p]:
                p = -1
            if p >= 0 and kind == 2:
                N[p].child -= 1
                if N[p].child == 0:
                    order[count] = p
                    count += 1
            if kind == 0:
                next_vertex = u - 1
            elif kind == 1:
                next_vertex = u + 1
            else:
                next_vertex = order[j] if j < count else -1
            if in_array:
                if p >= 0 and p == next_vertex:
                    owner = p  # the chain goes on: the array stays
                    continue
                owner = -1
                if p < 0:
                    # A root: its blocks are the array's, largest first.
                    m = n_keys[0]
                    while top > 0:
                        top -= 1
                        keys[m] = stack[top]
                        m += 1
                    n_keys[0] = m
                    continue
                h = _lay_out(N, stack, top, &pool, &free_lo, free_hi)
                top = 0
            elif (p >= 0 and p == next_vertex and h == u and N[u].child < 0
                    and owner < 0):
                # A single block whose parent comes next: an array from here.
                stack[0] = d
                top = 1
                pool = -1
                free_lo = u
                free_hi = u
                owner = p
                continue
            if p >= 0:
                if h >= 0:
                    N[h].sibling = kids[p]
                    kids[p] = h
                    if (h == u and 0 <= next_vertex < n
                            and _parent_at(par, N, renumbered, next_vertex) == p
                            and N[u].child < 0 and kind != 2 and not any_removed):
                        sibling_parent = p  # a leaf, and its sibling comes next
            elif h >= 0:
                N[h].sibling = roots
                roots = h
        # The blocks left in the roots' heaps, read depth first (kids is the stack now).
        m = n_keys[0]
        r = 0
        if roots >= 0:
            kids[0] = roots
            r = 1
        while r > 0:
            _forest_signals(m)
            r -= 1
            x = kids[r]
            keys[m] = _node_key(N, x, &d)
            m += 1
            if N[x].sibling >= 0:
                kids[r] = N[x].sibling
                r += 1
            if N[x].child >= 0:
                kids[r] = N[x].child
                r += 1
        n_keys[0] = m
        overflow[0] |= ovf
        return OK
    finally:
        _scratch_free(N)
        _scratch_free(kids)
        _scratch_free(order)
        _scratch_free(stack)


cdef int _forest_released_wide(const coin_t[::1] coins, int64_t fbase,
                               const int64_t[::1] parents, const uint8_t[::1] removed,
                               coin_t *keys, int64_t *n_keys, coin_t *frozen,
                               bint *overflow) except -1 nogil:
    """``_forest_released`` for forests of 2^31 nodes or more (64-bit ids): the slots'
    blocks (``_slot_blocks``) of the nodes on the table, by index. O(n log n)."""
    cdef int64_t n = parents.shape[0], size = n if n > 0 else 1, i, s = 0, m
    cdef int64_t *slot_of_node = NULL
    cdef int64_t *par = NULL
    cdef coin_t *K = NULL
    cdef uint8_t *released = NULL
    cdef uint8_t *alive = NULL
    cdef int status
    try:
        slot_of_node = <int64_t *> malloc(size * sizeof(int64_t))
        par = <int64_t *> malloc(size * sizeof(int64_t))
        K = <coin_t *> malloc(size * sizeof(coin_t))
        released = <uint8_t *> malloc(size * sizeof(uint8_t))
        alive = <uint8_t *> malloc(size * sizeof(uint8_t))
        if (slot_of_node == NULL or par == NULL or K == NULL or released == NULL
                or alive == NULL):
            return NO_MEMORY
        for i in range(n):
            if removed[i]:
                slot_of_node[i] = -1
            else:
                slot_of_node[i] = s
                K[s] = coins[fbase + i]
                if coin_t is double:
                    K[s] = K[s] + 0.0
                s += 1
        for i in range(n):
            if not removed[i]:
                par[slot_of_node[i]] = slot_of_node[parents[i]] if parents[i] >= 0 else -1
        status = _slot_blocks(s, par, K, K, released, alive, NULL, NULL, overflow)
        if status != OK:
            return status
        m = n_keys[0]
        for i in range(s):
            if alive[i]:
                keys[m] = K[i]
                m += 1
            elif not released[i]:
                overflow[0] |= add_checked(frozen[0], K[i], frozen)
        n_keys[0] = m
        return OK
    finally:
        free(slot_of_node)
        free(par)
        free(K)
        free(released)
        free(alive)


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


# -- heaps of items for the play ----------------------------------------------------------------

cdef inline bint _q_before(const coin_t *key, const int64_t *rank, int64_t a,
                           int64_t b) noexcept nogil:
    """The larger key first, then the lower rank."""
    return key[a] > key[b] or (key[a] == key[b] and rank[a] < rank[b])


cdef void _q_push(int64_t *heap, int64_t *size, const coin_t *key, const int64_t *rank,
                  int64_t item) noexcept nogil:
    cdef int64_t i = size[0], parent
    size[0] += 1
    while i > 0:
        parent = (i - 1) >> 1
        if not _q_before(key, rank, item, heap[parent]):
            break
        heap[i] = heap[parent]
        i = parent
    heap[i] = item


cdef int64_t _q_pop(int64_t *heap, int64_t *size, const coin_t *key,
                    const int64_t *rank) noexcept nogil:
    cdef int64_t top = heap[0], item, i = 0, child
    size[0] -= 1
    if size[0] > 0:
        item = heap[size[0]]
        while True:
            child = 2 * i + 1
            if child >= size[0]:
                break
            if child + 1 < size[0] and _q_before(key, rank, heap[child + 1], heap[child]):
                child += 1
            if not _q_before(key, rank, heap[child], item):
                break
            heap[i] = heap[child]
            i = child
        heap[i] = item
    return top


cdef void _min_push(int64_t *heap, int64_t *size, int64_t x) noexcept nogil:
    cdef int64_t i = size[0], parent
    size[0] += 1
    while i > 0:
        parent = (i - 1) >> 1
        if heap[parent] <= x:
            break
        heap[i] = heap[parent]
        i = parent
    heap[i] = x


cdef int64_t _min_pop(int64_t *heap, int64_t *size) noexcept nogil:
    cdef int64_t top = heap[0], x, i = 0, child
    size[0] -= 1
    if size[0] > 0:
        x = heap[size[0]]
        while True:
            child = 2 * i + 1
            if child >= size[0]:
                break
            if child + 1 < size[0] and heap[child + 1] < heap[child]:
                child += 1
            if heap[child] >= x:
                break
            heap[i] = heap[child]
            i = child
        heap[i] = x
    return top


# -- the kernels -----------------------------------------------------------------------------------

cdef int64_t _forest_not_finite(const double[::1] coins, const int64_t[::1] starts,
                                const int64_t[::1] stops, int64_t fbase,
                                const uint8_t[::1] removed) noexcept nogil:
    """The flat index of the first NaN or infinity on the table (rows and stacks first), or
    -1."""
    cdef Py_ssize_t c
    cdef int64_t i, bad
    for c in range(starts.shape[0]):
        bad = _first_not_finite(coins, starts[c], stops[c])
        if bad >= 0:
            return bad
    for i in range(removed.shape[0]):
        if not removed[i] and not isfinite(coins[fbase + i]):
            return fbase + i
    return -1


cdef int _forest_value_into(const coin_t[::1] coins, const int64_t[::1] starts,
                            const int64_t[::1] stops, Py_ssize_t n_rows, int64_t fbase,
                            const int64_t[::1] parents, const uint8_t[::1] removed,
                            coin_t *value, int64_t *bad_index, bint wide) except -1 nogil:
    """The value of rows, stacks and a forest: OK, OVERFLOW, NOT_FINITE or NO_MEMORY.
    ``wide``: the forest through ``_forest_released_wide`` whatever its size (for tests).

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
            status = _forest_released(coins, fbase, parents, removed, keys, &m, &frozen,
                                      &ovf)
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


cdef int _forest_play_into(const coin_t[::1] coins, const int64_t[::1] starts,
                           const int64_t[::1] stops, Py_ssize_t n_rows, int64_t fbase,
                           const int64_t[::1] parents, const uint8_t[::1] removed,
                           int64_t *out_component, int64_t *out_coin, uint8_t *out_end,
                           coin_t *value, int64_t *bad_index) except -1 nogil:
    """A whole optimal play by the tie rule, written to the output arrays (``out_component``
    and ``out_end`` may be NULL); ``value[0]``: its coins with alternating signs. OK,
    OVERFLOW (a block beyond int64 or the float range), NOT_FINITE or NO_MEMORY.

    Every move is the rule's move in its position: the largest of the rows' end blocks and
    the released blocks at the roots (ties: rows before slots, the lower row, the left end,
    the lower slot), else the root with the lowest slot. A row's block is taken whole from
    its end (the rows' reduced forms are those of the window structure); a root's children
    become roots with the blocks computed once, bottom-up. O(n log n).
    """
    cdef Py_ssize_t k = starts.shape[0], c
    cdef int64_t nf = parents.shape[0], S, rc = 0, t = 0, s, ch, item, e, lo, hi, p
    cdef int64_t qsize = 0, fsize = 0, base = 0, top, flat, size
    cdef int64_t *sflat = NULL
    cdef int64_t *spar = NULL
    cdef int64_t *scomp = NULL
    cdef int64_t *slot_of_node = NULL
    cdef int64_t *first_child = NULL
    cdef int64_t *next_sib = NULL
    cdef int64_t *fheap = NULL
    cdef int64_t *qheap = NULL
    cdef int64_t *segments = NULL
    cdef int64_t *qrank = NULL
    cdef int64_t *runs = NULL       # the slots of the sorted runs, run after run
    cdef int64_t *run_at = NULL     # per run: its next slot in runs[]
    cdef int64_t *run_end = NULL
    cdef int64_t n_runs = 0, runs_used = 0, items, first
    cdef uint8_t *released = NULL
    cdef coin_t *scoin = NULL
    cdef coin_t *K = NULL
    cdef coin_t *qkey = NULL
    cdef coin_t *values = NULL
    cdef Component *rows = NULL
    cdef Component *comp
    cdef coin_t total = 0
    cdef bint ovf = False, plus = True, from_left
    cdef int status
    cdef uint8_t end
    try:
        if coin_t is double:
            bad_index[0] = _forest_not_finite(coins, starts, stops, fbase, removed)
            if bad_index[0] >= 0:
                return NOT_FINITE
        S = _slot_count(starts, stops, n_rows, removed)
        for c in range(n_rows):
            rc += stops[c] - starts[c]
        size = S if S > 0 else 1
        sflat = <int64_t *> malloc(size * sizeof(int64_t))
        spar = <int64_t *> malloc(size * sizeof(int64_t))
        scomp = <int64_t *> malloc(size * sizeof(int64_t))
        slot_of_node = <int64_t *> malloc((nf if nf > 0 else 1) * sizeof(int64_t))
        first_child = <int64_t *> malloc(size * sizeof(int64_t))
        next_sib = <int64_t *> malloc(size * sizeof(int64_t))
        fheap = <int64_t *> malloc(size * sizeof(int64_t))
        items = n_rows + size + size // _PLAY_RUN + 2
        qheap = <int64_t *> malloc(items * sizeof(int64_t))
        qrank = <int64_t *> malloc(items * sizeof(int64_t))
        runs = <int64_t *> malloc(size * sizeof(int64_t))
        run_at = <int64_t *> malloc((size // _PLAY_RUN + 2) * sizeof(int64_t))
        run_end = <int64_t *> malloc((size // _PLAY_RUN + 2) * sizeof(int64_t))
        released = <uint8_t *> malloc(size * sizeof(uint8_t))
        scoin = <coin_t *> malloc(size * sizeof(coin_t))
        K = <coin_t *> malloc(size * sizeof(coin_t))
        qkey = <coin_t *> malloc(items * sizeof(coin_t))
        values = _padded(<coin_t *> malloc((rc + 2) * sizeof(coin_t)))
        segments = <int64_t *> malloc((rc + 1) * sizeof(int64_t))
        rows = <Component *> malloc((n_rows if n_rows > 0 else 1) * sizeof(Component))
        if (sflat == NULL or spar == NULL or scomp == NULL or slot_of_node == NULL
                or first_child == NULL or next_sib == NULL or fheap == NULL or qheap == NULL
                or released == NULL or scoin == NULL or K == NULL or qkey == NULL
                or values == NULL or segments == NULL or rows == NULL or qrank == NULL
                or runs == NULL or run_at == NULL or run_end == NULL):
            return NO_MEMORY
        for item in range(n_rows + size):
            qrank[item] = item
        _slots_of(coins, starts, stops, n_rows, fbase, parents, removed, sflat, spar, scomp,
                  scoin, slot_of_node)
        status = _slot_blocks(S, spar, scoin, K, released, NULL, NULL, NULL, &ovf)
        if status != OK:
            return status
        for s in range(S):
            first_child[s] = -1
        s = S
        while s > 0:
            s -= 1
            p = spar[s]
            if p >= 0:
                next_sib[s] = first_child[p]
                first_child[p] = s
        for c in range(n_rows):
            top = _reduce_into(coins, starts[c], stops[c], values, base, segments, &ovf, True)
            comp = &rows[c]
            comp.first = base
            comp.left = base
            comp.right = top - 1
            comp.fused_end = top
            comp.stop = stops[c]
            comp.tail = stops[c]
            comp.is_stack = False
            if coin_t is double:
                for e in range(base, top):
                    if not isfinite(values[e]):
                        ovf = True
            if comp.left <= comp.right:
                qkey[c] = _head(comp, values)
                _q_push(qheap, &qsize, qkey, qrank, c)
            base = top
        # The roots, as the children of a taken vertex below.
        s = -1
        while True:
            _forest_signals(t)
            if s == -1:
                ch = 0
                while ch < S and spar[ch] >= 0:
                    ch += 1
            elif s >= 0:
                ch = first_child[s]
            else:
                ch = -1  # a row's move: no vertex taken
            # The children of the vertex just taken (the roots at first): the frozen ones
            # wait in the min-heap; the released ones join the queue, as one sorted run
            # (one item: its first slot) when there are many of them.
            first = runs_used
            while ch >= 0 and ch < S:
                if released[ch]:
                    runs[runs_used] = ch
                    runs_used += 1
                else:
                    _min_push(fheap, &fsize, ch)
                if s == -1:
                    ch += 1
                    while ch < S and spar[ch] >= 0:
                        ch += 1
                else:
                    ch = next_sib[ch]
            if runs_used - first >= _PLAY_RUN:
                if _sort_ids_by_key(runs + first, runs_used - first, K) == NO_MEMORY:
                    return NO_MEMORY
                item = n_rows + S + n_runs
                run_at[n_runs] = first
                run_end[n_runs] = runs_used
                n_runs += 1
                qkey[item] = K[runs[first]]
                qrank[item] = n_rows + runs[first]
                _q_push(qheap, &qsize, qkey, qrank, item)
            else:
                for ch in range(first, runs_used):
                    qkey[n_rows + runs[ch]] = K[runs[ch]]
                    _q_push(qheap, &qsize, qkey, qrank, n_rows + runs[ch])
                runs_used = first
            if qsize > 0:
                item = _q_pop(qheap, &qsize, qkey, qrank)
                if item >= n_rows + S:
                    # A run: its first slot is taken, the run goes back with the next one.
                    ch = item - n_rows - S
                    s = runs[run_at[ch]]
                    run_at[ch] += 1
                    if run_at[ch] < run_end[ch]:
                        qkey[item] = K[runs[run_at[ch]]]
                        qrank[item] = n_rows + runs[run_at[ch]]
                        _q_push(qheap, &qsize, qkey, qrank, item)
                    item = n_rows + s
                if item < n_rows:
                    comp = &rows[item]
                    from_left = values[comp.left] >= values[comp.right]
                    if from_left:
                        e = comp.left
                        comp.left += 1
                    else:
                        e = comp.right
                        comp.right -= 1
                    lo = segments[e]
                    hi = segments[e + 1] if e + 1 < comp.fused_end else comp.stop
                    end = LEFT if from_left else RIGHT
                    for p in range(hi - lo):
                        flat = lo + p if from_left else hi - 1 - p
                        if out_component != NULL:
                            out_component[t] = item
                            out_end[t] = end
                        out_coin[t] = flat
                        t += 1
                        if plus:
                            ovf |= add_checked(total, coins[flat], &total)
                        else:
                            ovf |= sub_checked(total, coins[flat], &total)
                        plus = not plus
                    if comp.left <= comp.right:
                        qkey[item] = _head(comp, values)
                        _q_push(qheap, &qsize, qkey, qrank, item)
                    s = -2  # no vertex taken: no children to offer
                    continue
                s = item - n_rows
            elif fsize > 0:
                s = _min_pop(fheap, &fsize)
            else:
                break  # all taken (or an invalid forest: the nodes on a cycle are left)
            if out_component != NULL:
                out_component[t] = scomp[s]
                out_end[t] = TOP if scomp[s] < k else ROOT
            out_coin[t] = sflat[s]
            t += 1
            if plus:
                ovf |= add_checked(total, coins[sflat[s]], &total)
            else:
                ovf |= sub_checked(total, coins[sflat[s]], &total)
            plus = not plus
        value[0] = total
        return OVERFLOW if ovf or not _is_finite(total) else OK
    finally:
        free(sflat)
        free(spar)
        free(scomp)
        free(slot_of_node)
        free(first_child)
        free(next_sib)
        free(fheap)
        free(qheap)
        free(qrank)
        free(runs)
        free(run_at)
        free(run_end)
        free(released)
        free(scoin)
        free(K)
        free(qkey)
        if values != NULL:
            free(values - 2)
        free(segments)
        free(rows)


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
    and its twin). O(k + n)."""
    cdef Py_ssize_t c
    cdef int64_t i, nf = parents.shape[0], q
    cdef bint bad_parent = False
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
    with nogil:
        for i in range(nf):
            q = parents[i]
            if q < -1 or q >= nf:
                bad_parent = True
                break
    if bad_parent:
        raise ValueError("a parent is not a node index or -1")
    return 0


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
    cdef int status
    _forest_arguments(coins.shape[0], starts, stops, n_rows, fbase, parents, removed)
    with nogil:
        status = _forest_value_into(coins, starts, stops, n_rows, fbase, parents, removed,
                                    &total, &bad_index, wide)
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
    cdef int status = OK
    cdef bint ovf = False
    _forest_arguments(coins.shape[0], starts, stops, n_rows, fbase, parents, removed)
    live = _live_count(starts, stops, removed)
    if live == 0:
        return Status.OK, (first, second)
    try:
        with nogil:
            if coin_t is int64_t:
                status = _forest_value_into(coins, starts, stops, n_rows, fbase, parents,
                                            removed, &value, &bad_index, False)
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
    for v in range(n):
        q = parents[v]
        if q < -1 or q >= n:
            return ForestProblem.PARENT_OUT_OF_RANGE, v
    if n == 0:
        return ForestProblem.FOREST_OK, -1
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


# -- the engine's structure --------------------------------------------------------------------

cdef int _grow_treap_cells(RowWindows rows, int64_t extra) except -1:
    """Room for ``extra`` more treap nodes after the rows' nil node (ids nil + 1 ..): they
    order after every row block on ties (docs/window.md's treap breaks ties by node id)."""
    cdef int64_t nil = rows.w.nil, cells = nil + 1 + extra, i
    cdef void *p
    p = PyMem_RawRealloc(rows.w.tl, cells * sizeof(int64_t))
    if p == NULL:
        raise MemoryError()
    rows.w.tl = <int64_t *> p
    p = PyMem_RawRealloc(rows.w.tr, cells * sizeof(int64_t))
    if p == NULL:
        raise MemoryError()
    rows.w.tr = <int64_t *> p
    p = PyMem_RawRealloc(rows.w.sz, cells * sizeof(int64_t))
    if p == NULL:
        raise MemoryError()
    rows.w.sz = <int64_t *> p
    p = PyMem_RawRealloc(rows.w.pri, cells * sizeof(uint64_t))
    if p == NULL:
        raise MemoryError()
    rows.w.pri = <uint64_t *> p
    if rows.is_float:
        p = PyMem_RawRealloc(rows.val_f, cells * sizeof(double))
        if p == NULL:
            raise MemoryError()
        rows.val_f = <double *> p
        p = PyMem_RawRealloc(rows.alt_f, cells * sizeof(double))
        if p == NULL:
            raise MemoryError()
        rows.alt_f = <double *> p
    else:
        p = PyMem_RawRealloc(rows.val_i, cells * sizeof(int64_t))
        if p == NULL:
            raise MemoryError()
        rows.val_i = <int64_t *> p
        p = PyMem_RawRealloc(rows.alt_i, cells * sizeof(int64_t))
        if p == NULL:
            raise MemoryError()
        rows.alt_i = <int64_t *> p
    for i in range(nil + 1, cells):
        rows.w.pri[i] = _w_priority(<uint64_t> i)
        rows.w.tl[i] = nil
        rows.w.tr[i] = nil
        rows.w.sz[i] = 0
        if rows.is_float:
            rows.val_f[i] = 0
            rows.alt_f[i] = 0
        else:
            rows.val_i[i] = 0
            rows.alt_i[i] = 0
    return 0


cdef void _treap_pull_all(_Win *w, coin_t *val, coin_t *alt, int64_t i) noexcept nogil:
    """Sizes and alternating sums of the subtree of i, children first (depth O(log n))."""
    if i == w.nil:
        return
    _treap_pull_all(w, val, alt, w.tl[i])
    _treap_pull_all(w, val, alt, w.tr[i])
    _w_pull(w, val, alt, i)


cdef int64_t _treap_union(_Win *w, coin_t *val, coin_t *alt, int64_t a,
                          int64_t b) noexcept nogil:
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
    w.tl[a] = _treap_union(w, val, alt, w.tl[a], before)
    w.tr[a] = _treap_union(w, val, alt, w.tr[a], after)
    _w_pull(w, val, alt, a)
    return a


cdef int _treap_of_slots(_Win *w, coin_t *val, coin_t *alt, int64_t node0,
                         const uint8_t *alive, int64_t n, coin_t *K) except -1 nogil:
    """Put the slots s with ``alive[s]`` in the treap (node node0 + s, value K[s]) at once:
    sorted by the treap's order (radix), built in O(m) on that order (the usual stack of
    the right spine), its sums computed children first, then joined to the rows' blocks.
    The same treap as inserting them one by one (a treap is fixed by its order and its
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
            _treap_pull_all(w, val, alt, spine[0])
            w.root = _treap_union(w, val, alt, w.root, spine[0])
        return OK
    finally:
        free(order)
        free(spine)


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
    cdef int64_t nf, n_slots, node0, roots_size
    cdef int64_t *sflat
    cdef int64_t *spar
    cdef int64_t *scomp
    cdef int64_t *slot_of_node
    cdef int64_t *first_child
    cdef int64_t *next_sib
    cdef int64_t *merged_first
    cdef int64_t *merged_next
    cdef int64_t *roots        # a min-heap of slots holding every current root (and old ones)
    cdef int64_t *stack_top    # per component: the slot of a stack's top
    cdef int64_t *stack_end    # per component: one past a stack's last slot
    cdef int64_t *first_slot   # per component: a stack's first slot
    cdef int64_t *comp_start   # per component: its first coin's flat index at the start
    cdef int64_t *comp_stop
    cdef uint8_t *released
    cdef uint8_t *gone
    cdef int64_t *K_i
    cdef double *K_f
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
        self.node0 = self.rows.w.nil + 1
        size = S if S > 0 else 1
        self.sflat = <int64_t *> malloc(size * sizeof(int64_t))
        self.spar = <int64_t *> malloc(size * sizeof(int64_t))
        self.scomp = <int64_t *> malloc(size * sizeof(int64_t))
        self.slot_of_node = <int64_t *> malloc((self.nf if self.nf > 0 else 1) * sizeof(int64_t))
        self.first_child = <int64_t *> malloc(size * sizeof(int64_t))
        self.next_sib = <int64_t *> malloc(size * sizeof(int64_t))
        self.merged_first = <int64_t *> malloc(size * sizeof(int64_t))
        self.merged_next = <int64_t *> malloc(size * sizeof(int64_t))
        self.roots = <int64_t *> malloc(size * sizeof(int64_t))
        self.stack_top = <int64_t *> malloc((self.k + 1) * sizeof(int64_t))
        self.stack_end = <int64_t *> malloc((self.k + 1) * sizeof(int64_t))
        self.first_slot = <int64_t *> malloc((self.k + 1) * sizeof(int64_t))
        self.comp_start = <int64_t *> malloc((self.k + 1) * sizeof(int64_t))
        self.comp_stop = <int64_t *> malloc((self.k + 1) * sizeof(int64_t))
        self.released = <uint8_t *> malloc(size * sizeof(uint8_t))
        self.gone = <uint8_t *> malloc(size * sizeof(uint8_t))
        alive = <uint8_t *> malloc(size * sizeof(uint8_t))
        if self.is_float:
            self.K_f = <double *> malloc(size * sizeof(double))
        else:
            self.K_i = <int64_t *> malloc(size * sizeof(int64_t))
        if (self.sflat == NULL or self.spar == NULL or self.scomp == NULL
                or self.slot_of_node == NULL or self.first_child == NULL
                or self.next_sib == NULL or self.merged_first == NULL
                or self.merged_next == NULL or self.roots == NULL or self.stack_top == NULL
                or self.stack_end == NULL or self.first_slot == NULL or self.comp_start == NULL
                or self.comp_stop == NULL or self.released == NULL or self.gone == NULL
                or alive == NULL or (self.K_f == NULL and self.K_i == NULL)):
            free(alive)
            raise MemoryError()
        memset(self.gone, 0, size * sizeof(uint8_t))
        try:
            _grow_treap_cells(self.rows, S)
            with nogil:
                if self.is_float:
                    _slots_of(cf, starts, stops, n_rows, fbase, parents, removed, self.sflat,
                              self.spar, self.scomp, self.K_f, self.slot_of_node)
                    # The coins are read from K: _slot_blocks overwrites each after use.
                    st = _slot_blocks(S, self.spar, self.K_f, self.K_f, self.released, alive,
                                      self.merged_first, self.merged_next, &ovf)
                else:
                    _slots_of(ci, starts, stops, n_rows, fbase, parents, removed, self.sflat,
                              self.spar, self.scomp, self.K_i, self.slot_of_node)
                    st = _slot_blocks(S, self.spar, self.K_i, self.K_i, self.released, alive,
                                      self.merged_first, self.merged_next, &ovf)
            if st == NO_MEMORY:
                raise MemoryError()
            for s in range(S):
                self.first_child[s] = -1
            s = S
            while s > 0:
                s -= 1
                p = self.spar[s]
                if p >= 0:
                    self.next_sib[s] = self.first_child[p]
                    self.first_child[p] = s
            self.roots_size = 0
            for s in range(S):
                if self.spar[s] < 0:
                    _min_push(self.roots, &self.roots_size, s)
                if not alive[s] and not self.released[s]:
                    if self.is_float:
                        self.frozen_f += self.K_f[s]
                    else:
                        self.frozen_i += self.K_i[s]
            with nogil:
                if self.is_float:
                    st = _treap_of_slots(&self.rows.w, self.rows.val_f, self.rows.alt_f,
                                         self.node0, alive, S, self.K_f)
                else:
                    st = _treap_of_slots(&self.rows.w, self.rows.val_i, self.rows.alt_i,
                                         self.node0, alive, S, self.K_i)
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
        free(self.sflat)
        free(self.spar)
        free(self.scomp)
        free(self.slot_of_node)
        free(self.first_child)
        free(self.next_sib)
        free(self.merged_first)
        free(self.merged_next)
        free(self.roots)
        free(self.stack_top)
        free(self.stack_end)
        free(self.first_slot)
        free(self.comp_start)
        free(self.comp_stop)
        free(self.released)
        free(self.gone)
        free(self.K_i)
        free(self.K_f)

    cdef void _treap_add(self, int64_t s) noexcept:
        cdef int64_t node = self.node0 + s
        if self.is_float:
            self.rows.val_f[node] = self.K_f[s]
            _w_tree_add(&self.rows.w, self.rows.val_f, self.rows.alt_f, node)
        else:
            self.rows.val_i[node] = self.K_i[s]
            _w_tree_add(&self.rows.w, self.rows.val_i, self.rows.alt_i, node)

    cdef void _take(self, int64_t s) noexcept:
        """Take slot s (a root): its block leaves the treap (or the frozen total), the blocks
        it had absorbed come back, its children become roots."""
        cdef int64_t x, ch
        if self.released[s]:
            if self.is_float:
                _w_drop_block(&self.rows.w, self.rows.val_f, self.rows.alt_f, self.node0 + s)
            else:
                _w_drop_block(&self.rows.w, self.rows.val_i, self.rows.alt_i, self.node0 + s)
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
            _min_push(self.roots, &self.roots_size, ch)
            ch = self.next_sib[ch]

    cdef int64_t _lowest_root(self) noexcept:
        while self.roots_size > 0 and self.gone[self.roots[0]]:
            _min_pop(self.roots, &self.roots_size)
        return self.roots[0] if self.roots_size > 0 else -1

    @cython.critical_section
    def value(self):
        """The value of the position for the player to move. O(1): the Greedy alternating
        sum at the treap's root, and the frozen blocks with the sign of the parity."""
        cdef int64_t root = self.rows.w.root
        if self.is_float:
            if self.rows.w.sz[root] & 1:
                return self.rows.alt_f[root] - self.frozen_f
            return self.rows.alt_f[root] + self.frozen_f
        if self.rows.w.sz[root] & 1:
            return self.rows.alt_i[root] - self.frozen_i
        return self.rows.alt_i[root] + self.frozen_i

    @cython.critical_section
    def best(self):
        """``(component, from_left, flat)``: the move of the one tie rule, or ``(-1, True,
        -1)`` when no coin is left. The largest block of the treap: a row's (taken from
        the end of its row with the larger end block, ties left) or a released block at a
        root; when the treap is empty, the root with the lowest slot. A forest node's
        component is ``len(starts)``. O(log n)."""
        cdef RowWindows rows = self.rows
        cdef int64_t first = _w_first_node(&rows.w), s, c
        cdef bint from_left
        if first != rows.w.nil:
            if first < rows.w.nil:
                c = rows._row_of(first)
                from_left = rows._left_is_larger(c)
                return (c, from_left, rows.flat[c] - rows.base[c]
                        + (rows.left[c] if from_left else rows.right[c] - 1))
            s = first - self.node0
        else:
            s = self._lowest_root()
            if s < 0:
                return -1, True, -1
        return self.scomp[s], True, self.sflat[s]

    @cython.critical_section
    def pop_left(self, Py_ssize_t c):
        """Take the left end of row c or the top of stack c (IndexError if empty)."""
        cdef int64_t s
        if not 0 <= c < self.k:
            raise IndexError(c)
        if c < self.n_rows:
            if self.rows.left[c] == self.rows.right[c]:
                raise IndexError(c)
            _w_pop_left_any(self.rows, c)
            return
        s = self.stack_top[c]
        if s >= self.stack_end[c]:
            raise IndexError(c)
        self._take(s)
        self.stack_top[c] = s + 1

    @cython.critical_section
    def pop_right(self, Py_ssize_t c):
        """Take the right end of row c (IndexError if it is empty or not a row)."""
        if not 0 <= c < self.n_rows or self.rows.left[c] == self.rows.right[c]:
            raise IndexError(c)
        _w_pop_right_any(self.rows, c)

    @cython.critical_section
    def take_node(self, int64_t node):
        """Take forest node ``node``, which must be a root (IndexError otherwise)."""
        cdef int64_t s
        if not 0 <= node < self.nf:
            raise IndexError(node)
        s = self.slot_of_node[node]
        if s < 0 or self.gone[s] or (self.spar[s] >= 0 and not self.gone[self.spar[s]]):
            raise IndexError(node)
        self._take(s)

    @cython.critical_section
    def bounds(self, Py_ssize_t c):
        """``(start, stop)``: the flat range of the coins left in row or stack c."""
        if not 0 <= c < self.k:
            raise IndexError(c)
        if c < self.n_rows:
            return (self.rows.flat[c] + self.rows.left[c] - self.rows.base[c],
                    self.rows.flat[c] + self.rows.right[c] - self.rows.base[c])
        return (self.comp_start[c] + self.stack_top[c] - self.first_slot[c],
                self.comp_stop[c])

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
