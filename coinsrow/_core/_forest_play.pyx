# coinsrow._core._forest_play: the slots of a game with a forest (the stacks' coins and the
# forest's nodes) and their blocks, bottom-up, with the tie rule (docs/forests.md; the method
# is described at the top of _forest.pyx), which the engine uses too; and the optimal play,
# move after move by the one tie rule of a position. The value's variant of the blocks, where
# ties do not matter, is _forest_blocks.

from coinsrow._core._types cimport *

from coinsrow._core._scratch cimport _scratch, _scratch_free
from coinsrow._core._signals cimport _forest_signals
from coinsrow._core._sort cimport _sort_ascending, _sort_ids_by_key
from coinsrow._core._heap cimport _heap_pop, _heap_push, _min_pop, _min_push
from coinsrow._core._row_helpers cimport Component, _first_not_finite, _head, _padded, _reduce_into


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
# A vertex's key, heap links and original id in one record, so that visiting a heap's node
# costs one memory access where separate arrays cost several. The records are numbered in
# preorder (``_slot_preorder``) from _SLOT_PREORDER_FROM slots on, or when the parents are in
# no order, else as the slots (or in reverse); the order of the heaps is the larger key first,
# then the lower original id (the tie rule's slot), which the record carries for that.

cdef struct _SlotNode:
    uint64_t key      # the bits of a coin_t (_slot_key)
    int64_t child     # the first child (-1: none); before the visit: the children's heaps
    int64_t sibling   # the next sibling, or the next heap in a list of heaps (-1: none);
    #                   before the visit: the parent's record (-1: a root)
    int64_t slot      # the original id (the slot)


cdef inline coin_t _slot_key(const _SlotNode *N, int64_t v, const coin_t *like) noexcept nogil:
    cdef coin_t x
    memcpy(&x, &N[v].key, sizeof(coin_t))
    return x


cdef inline bint _ph_before(const _SlotNode *N, int64_t a, int64_t b,
                            const coin_t *like) noexcept nogil:
    cdef coin_t x = _slot_key(N, a, like), y = _slot_key(N, b, like)
    return x > y or (x == y and N[a].slot < N[b].slot)

cdef inline int64_t _ph_meld(_SlotNode *N, int64_t a, int64_t b, const coin_t *like) noexcept nogil:
    cdef int64_t t
    if a < 0:
        return b
    if b < 0:
        return a
    if _ph_before(N, b, a, like):
        t = a
        a = b
        b = t
    N[b].sibling = N[a].child
    N[a].child = b
    return a


cdef int64_t _ph_pop(_SlotNode *N, int64_t h, const coin_t *like) noexcept nogil:
    """The heap of root h without h: its children paired left to right, then melded right to
    left (two-pass pairing, O(log n) amortised)."""
    cdef int64_t c = N[h].child, pairs = -1, a, b, rest, r
    if c < 0:
        return -1
    if N[c].sibling < 0:
        return c  # one child (a chain, a path): O(1)
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
        a = _ph_meld(N, a, b, like)
        N[a].sibling = pairs
        pairs = a
        c = rest
    r = pairs
    pairs = N[r].sibling
    N[r].sibling = -1
    while pairs >= 0:
        rest = N[pairs].sibling
        N[pairs].sibling = -1
        r = _ph_meld(N, r, pairs, like)
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


cdef enum:
    # The passes over the slots request what they read at a parent (or a record) this many
    # vertices ahead: a random tree's parents are anywhere in memory.
    _SLOT_AHEAD = 12


cdef inline void _set_slot_key(_SlotNode *N, int64_t v, coin_t x) noexcept nogil:
    memcpy(&N[v].key, &x, sizeof(coin_t))


cdef int _slot_preorder(int64_t n, const int64_t *par, int kind, const int64_t *order,
                        int64_t count, int64_t *size, int64_t *position) except -1 nogil:
    """position[v]: vertex v's id in a preorder of the forest (each subtree a range of ids,
    its root first), for the ``count`` vertices of the order children first (``kind`` and
    ``order`` as ``_order_at`` reads them); with Kahn's order (kind 2), -1 for a vertex left
    out (on a cycle of an invalid forest: a vertex below it is a root). ``size`` is scratch
    for n ids. Two passes, each reading the parents in order and one array at the parent:
    the subtrees' sizes children first, then each vertex's id parents first (a parent's
    size becomes the next free id in its range). O(n)."""
    cdef int64_t j, v, p, at, next_root = 0
    for v in range(n):
        size[v] = 1
        if kind == 2:
            position[v] = -1
    for j in range(count):
        _forest_signals(j)
        if j + _SLOT_AHEAD < count:
            p = par[_order_at(kind, n, order, j + _SLOT_AHEAD)]
            if p >= 0:
                coinsrow_prefetch_write(&size[p])
        v = _order_at(kind, n, order, j)
        p = par[v]
        if p >= 0:
            size[p] += size[v]
    j = count
    while j > 0:
        j -= 1
        _forest_signals(j)
        if j >= _SLOT_AHEAD:
            p = par[_order_at(kind, n, order, j - _SLOT_AHEAD)]
            if p >= 0:
                coinsrow_prefetch_write(&size[p])
        v = _order_at(kind, n, order, j)
        p = par[v]
        if p < 0 or (kind == 2 and position[p] < 0):
            at = next_root
            next_root += size[v]
        else:
            at = size[p]
            size[p] = at + size[v]
        size[v] = at + 1
        position[v] = at
    return 0


cdef enum:
    # Marks a record absorbed (in its sibling link, which it no longer needs).
    _SLOT_ABSORBED = -3
    # From this many slots on (2 MiB of records), they are numbered in preorder.
    _SLOT_PREORDER_FROM = 1 << 16


cdef int _slot_blocks(int64_t n, const int64_t *par, coin_t *coin, coin_t *K,
                      uint8_t *released, uint8_t *alive, int64_t *merged_first,
                      int64_t *merged_next, bint *overflow) except -1 nogil:
    """Bottom-up block merging over the slots, with the tie rule: K[s] is the value of the
    block of slot s, ``released[s]`` whether it was released (else it was frozen). A block
    is released only when strictly above everything below it still unabsorbed, and the
    heaps pop ties by the lower slot. When not NULL: ``alive[s]`` is 1 for the released
    blocks no vertex absorbed, and the blocks s absorbed, in order, are merged_first[s],
    merged_next[merged_first[s]], ... (-1 ends). ``coin`` may be ``K`` (every coin is read
    before any block is written). As in ``_forest_released``, a vertex's children that
    released one block each are sorted as one chain (by key, then slot) from _FOREST_RUN
    of them on. O(n log n); NO_MEMORY on refused scratch.

    From _SLOT_PREORDER_FROM slots on (or with the parents in no order) the slots are
    renumbered in preorder first (``_slot_preorder``), each one's record
    (key, heap links, its slot for the ties) at its new id, and visited by decreasing new
    id: a vertex's subtree, whose heaps it melds and pops, is then one range of records
    instead of records anywhere in memory. What a pop returns depends on the order (key,
    slot) alone, never on the heaps' shapes, so the blocks are those of the slots' order.
    The loop writes nothing by slot (a random tree's slots are anywhere in memory): each
    record keeps its results where it no longer needs its links (its block in its key, -1
    in its slot when frozen, its absorber's next block in its first child once absorbed),
    and one pass by slot gathers them at the end, its records requested ahead. An
    Engine of a random 10^6-node forest and its first moves(), each after the Game's
    value as in benchmarks/forest_end_to_end.py: 170 -> 131 ms (median of 7, CPU time;
    this loop's samples 1,640 -> 990, perf); a star's, with three passes more and
    nothing to gain from them: 280 -> 293 ms (before the run's prefetches below).
    """
    cdef int64_t *order = NULL
    cdef int64_t *position = NULL   # per slot: its record
    cdef int64_t *first = NULL      # per record: the slot of the first block it absorbed
    cdef _SlotNode *N = NULL
    cdef int64_t *run = NULL
    cdef void *grown
    cdef int kind
    cdef int64_t size = n if n > 0 else 1, count, u, v, h, x, p, last, q, nx, r
    cdef int64_t run_size = 0, at, ahead
    cdef coin_t d, key
    cdef bint odd, absorbed, ovf = False
    try:
        N = <_SlotNode *> _scratch(size * (sizeof(_SlotNode) + 2 * sizeof(int64_t)))
        if N == NULL:
            return NO_MEMORY
        position = <int64_t *> (N + size)
        first = position + size
        kind = _children_first_kind(n, par)
        count = n
        if kind != 2 and n < _SLOT_PREORDER_FROM:
            # The records fit in the caches: any numbering with the parents first will do,
            # the slots' own (kind 0) or its reverse (kind 1). An Engine of a random
            # 20,000-node forest: 0.95 -> 0.82 ms; of 5,000 nodes: 0.23 -> 0.12 ms (lower
            # quartile of CPU times; at 65,536 nodes either way 3.3-3.6 ms).
            for v in range(n):
                position[v] = v if kind == 0 else n - 1 - v
        else:
            if kind == 2:
                order = <int64_t *> malloc(size * sizeof(int64_t))
                if order == NULL:
                    return NO_MEMORY
                count = _kahn_order(n, par, order, first)  # ``first`` lends its room
            _slot_preorder(n, par, kind, order, count, first, position)
        # The records, in one pass by slot: each written at its new id, with its parent's.
        for v in range(n):
            _forest_signals(v)
            if v + _SLOT_AHEAD < n:
                at = position[v + _SLOT_AHEAD]
                if at >= 0:
                    coinsrow_prefetch_write(&N[at])
                p = par[v + _SLOT_AHEAD]
                if p >= 0:
                    coinsrow_prefetch(&position[p])
            at = position[v]
            if at < 0:
                continue
            p = par[v]
            _set_slot_key(N, at, coin[v])
            N[at].child = -1
            N[at].sibling = position[p] if p >= 0 else -1
            N[at].slot = v
        u = count
        while u > 0:
            u -= 1
            _forest_signals(u)
            # The children's heaps: the one-block ones set aside, the others melded.
            p = N[u].sibling
            q = N[u].child
            h = -1
            r = 0
            while q >= 0:
                nx = N[q].sibling
                N[q].sibling = -1
                if N[q].child < 0:
                    if r >= run_size:
                        run_size = 2 * run_size + 16
                        grown = PyMem_RawRealloc(run, run_size * sizeof(int64_t))
                        if grown == NULL:
                            return NO_MEMORY
                        run = <int64_t *> grown
                    run[r] = q
                    r += 1
                else:
                    h = _ph_meld(N, h, q, coin)
                q = nx
            if r >= _FOREST_RUN:
                # One chain in the heaps' order.
                if _sort_run(run, r, N, position, coin) == NO_MEMORY:
                    return NO_MEMORY
                for x in range(r - 1):
                    N[run[x]].child = run[x + 1]
                h = _ph_meld(N, h, run[0], coin)
                ahead = _SLOT_AHEAD
            else:
                for x in range(r):
                    h = _ph_meld(N, h, run[x], coin)
                ahead = r
            d = _slot_key(N, u, coin)
            N[u].child = -1
            N[u].sibling = -1
            odd = True
            last = -1
            first[u] = -1
            while True:
                if odd and (h < 0 or d > _slot_key(N, h, coin)):
                    N[u].child = h
                    h = u
                    break
                if h < 0:
                    N[u].slot = -1  # frozen: never in a heap, never compared
                    break
                if ahead < r:
                    # The chain pops in the run's order, one record anywhere after another
                    # (sorted by key): the run's next ones requested with each pop. An
                    # Engine of a 10^6-node star, whose root absorbs its leaves one by
                    # one: 265 -> 105 ms (median of 5, CPU time).
                    coinsrow_prefetch_write(&N[run[ahead]])
                    ahead += 1
                x = h
                h = _ph_pop(N, x, coin)
                N[x].sibling = _SLOT_ABSORBED
                N[x].child = -1
                if last < 0:
                    first[u] = N[x].slot
                else:
                    N[last].child = N[x].slot
                last = x
                key = _slot_key(N, x, coin)
                if odd:
                    ovf |= sub_checked(d, key, &d)
                else:
                    ovf |= add_checked(d, key, &d)
                odd = not odd
            _set_slot_key(N, u, d)
            if not _is_finite(d):
                ovf = True  # beyond the float range: no comparison can be trusted
            if p >= 0 and h >= 0:
                N[h].sibling = N[p].child
                N[p].child = h
        for v in range(n):
            _forest_signals(v)
            if v + _SLOT_AHEAD < n:
                at = position[v + _SLOT_AHEAD]
                if at >= 0:
                    coinsrow_prefetch(&N[at])
                    if merged_first != NULL:
                        coinsrow_prefetch(&first[at])
            at = position[v]
            if at < 0:
                # Left out (an invalid forest's cycle): nothing released, nothing absorbed.
                released[v] = 0
                if alive != NULL:
                    alive[v] = 0
                if merged_next != NULL:
                    merged_next[v] = -1
                if merged_first != NULL:
                    merged_first[v] = -1
                continue
            K[v] = _slot_key(N, at, coin)
            released[v] = N[at].slot >= 0
            absorbed = N[at].sibling == _SLOT_ABSORBED
            if alive != NULL:
                alive[v] = released[v] and not absorbed
            if merged_next != NULL:
                merged_next[v] = N[at].child if absorbed else -1
            if merged_first != NULL:
                merged_first[v] = first[at]
        overflow[0] |= ovf
        return OK
    finally:
        free(order)
        _scratch_free(N)
        free(run)


cdef int _sort_run(int64_t *run, int64_t m, const _SlotNode *N, const int64_t *position,
                   const coin_t *like) except -1 nogil:
    """The records run[0:m] (released, not absorbed) in the heaps' order: the larger key
    first, then the lower slot. Sorted by slot, then stably by key. O(m); NO_MEMORY. (Its
    scratch is kept between calls: a star's one run of 10^6 leaves took 25 ms more in fresh
    pages.)"""
    cdef int64_t *ids = <int64_t *> _scratch(m * (2 * sizeof(int64_t) + sizeof(coin_t)))
    cdef uint64_t *spare = <uint64_t *> (ids + m)
    cdef coin_t *keys = <coin_t *> (spare + m)
    cdef int64_t x
    cdef int status = OK
    try:
        if ids == NULL:
            return NO_MEMORY
        for x in range(m):
            ids[x] = N[run[x]].slot
        if _sort_ascending(ids, m, spare) == NO_MEMORY:
            return NO_MEMORY
        for x in range(m):
            run[x] = position[ids[x]]
            keys[x] = _slot_key(N, run[x], keys)
            ids[x] = x
        if _sort_ids_by_key(ids, m, keys) == NO_MEMORY:
            return NO_MEMORY
        for x in range(m):
            spare[x] = <uint64_t> run[ids[x]]
        for x in range(m):
            run[x] = <int64_t> spare[x]
        return status
    finally:
        _scratch_free(ids)


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


# -- the play --------------------------------------------------------------------------------

cdef struct _Play:
    # The state of one play besides its coin-typed arrays (a struct cannot hold a fused
    # type: those are passed beside it). Items of the queue: row c is item c, slot s is
    # item n_rows + s, sorted run r is item n_rows + S + r.
    int64_t S              # slots (live forest nodes)
    int64_t n_rows
    int64_t *sflat         # per slot: its coin's flat index, parent slot, component
    int64_t *spar
    int64_t *scomp
    int64_t *slot_of_node
    int64_t *first_child   # per slot: its first child slot and next sibling (-1: none)
    int64_t *next_sib
    uint8_t *released      # per slot: 1 when its block is released (it may wait in the queue)
    int64_t *fheap         # the frozen roots: a heap of slots, the lowest first
    int64_t fsize
    int64_t *qheap         # the queue of rows, released slots and runs (_heap.pxd order)
    int64_t *qrank
    int64_t qsize
    int64_t *runs          # the slots of the sorted runs, run after run
    int64_t *run_at        # per run: its next slot in runs[]
    int64_t *run_end
    int64_t n_runs
    int64_t runs_used
    int64_t *segments      # the rows' reduced forms (_reduce_into)
    Component *rows
    # The output: the move count, the sign of the next coin, the arrays written.
    int64_t t
    bint plus
    int64_t *out_component
    int64_t *out_coin
    uint8_t *out_end


cdef inline int _play_alloc(_Play *p, int64_t S, int64_t nf, Py_ssize_t n_rows, int64_t rc,
                            int64_t *out_component, int64_t *out_coin,
                            uint8_t *out_end) noexcept nogil:
    """Every field of ``p`` set for a play of S slots, nf nodes, n_rows rows of rc coins in
    all, its int64 scratch allocated. OK or NO_MEMORY (then ``_play_free`` still frees the
    rest). O(1) calls. (Each field is written here rather than the struct zeroed first: a
    memset of it kept the counters in memory, not registers, for the whole play: about 13
    instructions more a move, measured with callgrind on a path.)"""
    cdef int64_t size = S if S > 0 else 1
    cdef int64_t items = n_rows + size + size // _PLAY_RUN + 2
    p.S = S
    p.n_rows = n_rows
    p.fsize = 0
    p.qsize = 0
    p.n_runs = 0
    p.runs_used = 0
    p.t = 0
    p.plus = True
    p.out_component = out_component
    p.out_coin = out_coin
    p.out_end = out_end
    p.sflat = <int64_t *> malloc(size * sizeof(int64_t))
    p.spar = <int64_t *> malloc(size * sizeof(int64_t))
    p.scomp = <int64_t *> malloc(size * sizeof(int64_t))
    p.slot_of_node = <int64_t *> malloc((nf if nf > 0 else 1) * sizeof(int64_t))
    p.first_child = <int64_t *> malloc(size * sizeof(int64_t))
    p.next_sib = <int64_t *> malloc(size * sizeof(int64_t))
    p.released = <uint8_t *> malloc(size * sizeof(uint8_t))
    p.fheap = <int64_t *> malloc(size * sizeof(int64_t))
    p.qheap = <int64_t *> malloc(items * sizeof(int64_t))
    p.qrank = <int64_t *> malloc(items * sizeof(int64_t))
    p.runs = <int64_t *> malloc(size * sizeof(int64_t))
    p.run_at = <int64_t *> malloc((size // _PLAY_RUN + 2) * sizeof(int64_t))
    p.run_end = <int64_t *> malloc((size // _PLAY_RUN + 2) * sizeof(int64_t))
    p.segments = <int64_t *> malloc((rc + 1) * sizeof(int64_t))
    p.rows = <Component *> malloc((n_rows if n_rows > 0 else 1) * sizeof(Component))
    if (p.sflat == NULL or p.spar == NULL or p.scomp == NULL or p.slot_of_node == NULL
            or p.first_child == NULL or p.next_sib == NULL or p.released == NULL
            or p.fheap == NULL or p.qheap == NULL or p.qrank == NULL or p.runs == NULL
            or p.run_at == NULL or p.run_end == NULL or p.segments == NULL or p.rows == NULL):
        return NO_MEMORY
    return OK


cdef inline void _play_free(_Play *p) noexcept nogil:
    """The scratch of ``_play_alloc`` released (NULL entries too). O(1) calls."""
    free(p.sflat)
    free(p.spar)
    free(p.scomp)
    free(p.slot_of_node)
    free(p.first_child)
    free(p.next_sib)
    free(p.released)
    free(p.fheap)
    free(p.qheap)
    free(p.qrank)
    free(p.runs)
    free(p.run_at)
    free(p.run_end)
    free(p.segments)
    free(p.rows)


cdef inline bint _queue_rows(_Play *p, const coin_t[::1] coins, const int64_t[::1] starts,
                             const int64_t[::1] stops, coin_t *values,
                             coin_t *qkey) noexcept nogil:
    """Each row in its reduced form (the window structure's blocks) in ``values``, its
    larger end block queued. True on an overflow (a block beyond int64 or the float range).
    O(rc log k)."""
    cdef int64_t c, e, base = 0, top
    cdef Component *comp
    cdef bint ovf = False
    for c in range(p.n_rows):
        top = _reduce_into(coins, starts[c], stops[c], values, base, p.segments, &ovf, True)
        comp = &p.rows[c]
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
            _heap_push(p.qheap, &p.qsize, qkey, p.qrank, c)
        base = top
    return ovf


cdef inline int64_t _next_child(_Play *p, int64_t s, int64_t ch) noexcept nogil:
    """The sibling after ch among the children of slot s (s == -1: among the roots), or
    -1. O(1), or O(slots skipped) among the roots."""
    if s == -1:
        ch += 1
        while ch < p.S and p.spar[ch] >= 0:
            ch += 1
        return ch if ch < p.S else -1
    return p.next_sib[ch]


cdef inline int _offer_children(_Play *p, int64_t s, const coin_t *K,
                                coin_t *qkey) noexcept nogil:
    """The children of slot s just taken (s == -1: the roots at the start) become roots:
    the frozen ones wait in the min-heap; the released ones join the queue, as one sorted
    run (one item: its first slot) when there are _PLAY_RUN of them or more. OK or
    NO_MEMORY. O(c log c + c log n) for c children."""
    cdef int64_t first = p.runs_used, item, ch
    ch = _next_child(p, -1, -1) if s == -1 else p.first_child[s]
    while ch >= 0:
        if p.released[ch]:
            p.runs[p.runs_used] = ch
            p.runs_used += 1
        else:
            _min_push(p.fheap, &p.fsize, ch)
        ch = _next_child(p, s, ch)
    if p.runs_used - first >= _PLAY_RUN:
        if _sort_ids_by_key(p.runs + first, p.runs_used - first, K) == NO_MEMORY:
            return NO_MEMORY
        item = p.n_rows + p.S + p.n_runs
        p.run_at[p.n_runs] = first
        p.run_end[p.n_runs] = p.runs_used
        p.n_runs += 1
        qkey[item] = K[p.runs[first]]
        p.qrank[item] = p.n_rows + p.runs[first]
        _heap_push(p.qheap, &p.qsize, qkey, p.qrank, item)
    else:
        for ch in range(first, p.runs_used):
            item = p.n_rows + p.runs[ch]
            qkey[item] = K[p.runs[ch]]
            _heap_push(p.qheap, &p.qsize, qkey, p.qrank, item)
        p.runs_used = first
    return OK


cdef inline int64_t _pop_queue(_Play *p, const coin_t *K, coin_t *qkey) noexcept nogil:
    """The queue's first item as a row (c) or a slot (n_rows + s): a run gives its first
    slot and goes back with the next one. The queue must not be empty. O(log n)."""
    cdef int64_t item = _heap_pop(p.qheap, &p.qsize, qkey, p.qrank), r, s
    if item < p.n_rows + p.S:
        return item
    r = item - p.n_rows - p.S
    s = p.runs[p.run_at[r]]
    p.run_at[r] += 1
    if p.run_at[r] < p.run_end[r]:
        qkey[item] = K[p.runs[p.run_at[r]]]
        p.qrank[item] = p.n_rows + p.runs[p.run_at[r]]
        _heap_push(p.qheap, &p.qsize, qkey, p.qrank, item)
    return p.n_rows + s


cdef inline bint _record(_Play *p, const coin_t *coins, int64_t component, uint8_t end,
                         int64_t flat, coin_t *total) noexcept nogil:
    """Write one move and add its coin to the total with the next sign. True on an
    overflow. O(1)."""
    if p.out_component != NULL:
        p.out_component[p.t] = component
        p.out_end[p.t] = end
    p.out_coin[p.t] = flat
    p.t += 1
    p.plus = not p.plus
    if not p.plus:
        return add_checked(total[0], coins[flat], total)
    return sub_checked(total[0], coins[flat], total)


cdef inline bint _take_row_block(_Play *p, const coin_t *coins, int64_t c,
                                 coin_t *values, coin_t *qkey, coin_t *total) noexcept nogil:
    """Row c's larger end block taken whole (ties: the left end), coin after coin; the row
    queued again with its new ends. True on an overflow. O(block + log n)."""
    cdef Component *comp = &p.rows[c]
    cdef bint from_left = values[comp.left] >= values[comp.right], ovf = False
    cdef int64_t e, lo, hi, i
    if from_left:
        e = comp.left
        comp.left += 1
    else:
        e = comp.right
        comp.right -= 1
    lo = p.segments[e]
    hi = p.segments[e + 1] if e + 1 < comp.fused_end else comp.stop
    for i in range(hi - lo):
        ovf |= _record(p, coins, c, LEFT if from_left else RIGHT,
                       lo + i if from_left else hi - 1 - i, total)
    if comp.left <= comp.right:
        qkey[c] = _head(comp, values)
        _heap_push(p.qheap, &p.qsize, qkey, p.qrank, c)
    return ovf


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
    cdef int64_t S, rc = 0, s, item, size, items
    cdef coin_t *scoin = NULL
    cdef coin_t *K = NULL
    cdef coin_t *qkey = NULL
    cdef coin_t *values = NULL
    cdef coin_t total = 0
    cdef bint ovf = False
    cdef int status
    cdef const coin_t *coin = &coins[0] if coins.shape[0] > 0 else NULL
    cdef _Play p
    if coin_t is double:
        bad_index[0] = _forest_not_finite(coins, starts, stops, fbase, removed)
        if bad_index[0] >= 0:
            return NOT_FINITE
    S = _slot_count(starts, stops, n_rows, removed)
    for c in range(n_rows):
        rc += stops[c] - starts[c]
    status = _play_alloc(&p, S, parents.shape[0], n_rows, rc, out_component, out_coin, out_end)
    try:
        size = S if S > 0 else 1
        items = n_rows + size + size // _PLAY_RUN + 2
        scoin = <coin_t *> malloc(size * sizeof(coin_t))
        K = <coin_t *> malloc(size * sizeof(coin_t))
        qkey = <coin_t *> malloc(items * sizeof(coin_t))
        values = _padded(<coin_t *> malloc((rc + 2) * sizeof(coin_t)))
        if status != OK or scoin == NULL or K == NULL or qkey == NULL or values == NULL:
            return NO_MEMORY
        for item in range(n_rows + size):
            p.qrank[item] = item
        _slots_of(coins, starts, stops, n_rows, fbase, parents, removed, p.sflat, p.spar,
                  p.scomp, scoin, p.slot_of_node)
        status = _slot_blocks(S, p.spar, scoin, K, p.released, NULL, NULL, NULL, &ovf)
        if status != OK:
            return status
        _link_children(S, p.spar, p.first_child, p.next_sib)
        ovf |= _queue_rows(&p, coins, starts, stops, values, qkey)
        s = -1  # the roots, as the children of a taken vertex below
        while True:
            _forest_signals(p.t)
            if s != -2 and _offer_children(&p, s, K, qkey) == NO_MEMORY:
                return NO_MEMORY
            if p.qsize > 0:
                item = _pop_queue(&p, K, qkey)
                if item < n_rows:
                    ovf |= _take_row_block(&p, coin, item, values, qkey, &total)
                    s = -2  # no vertex taken: no children to offer
                    continue
                s = item - n_rows
            elif p.fsize > 0:
                s = _min_pop(p.fheap, &p.fsize)
            else:
                break  # all taken (or an invalid forest: the nodes on a cycle are left)
            ovf |= _record(&p, coin, p.scomp[s], TOP if p.scomp[s] < k else ROOT, p.sflat[s],
                           &total)
        value[0] = total
        return OVERFLOW if ovf or not _is_finite(total) else OK
    finally:
        _play_free(&p)
        free(scoin)
        free(K)
        free(qkey)
        if values != NULL:
            free(values - 2)
