# coinsrow._core._forest_play: the optimal play of a game with a forest, move after move
# by the one tie rule of a position (docs/forests.md).

from coinsrow._core._types cimport *

from coinsrow._core._signals cimport _forest_signals
from coinsrow._core._sort cimport _sort_ids_by_key
from coinsrow._core._forest_blocks cimport _forest_not_finite
from coinsrow._core._forest_slots cimport (_link_children, _slot_blocks, _slot_count,
                                           _slots_of)
from coinsrow._core._heap cimport _heap_pop, _heap_push, _min_pop, _min_push
from coinsrow._core._rows cimport Component, _head, _padded, _reduce_into


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
