# coinsrow._core._forest_play: the optimal play of a game with a forest, move after move
# by the one tie rule of a position (docs/forests.md).

from coinsrow._core._types cimport *

from coinsrow._core._scratch cimport _scratch, _scratch_free
from coinsrow._core._signals cimport _FOREST_SIGNALS, _forest_signals
from coinsrow._core._sort cimport *
from coinsrow._core._forest_blocks cimport *
from coinsrow._core._heap cimport _heap_pop, _heap_push, _min_pop, _min_push
from coinsrow._core._rows cimport (Component, _first_not_finite, _head, _padded,
    _play_float_profits, _reduce_all_into, _reduce_into)


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
                _heap_push(qheap, &qsize, qkey, qrank, c)
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
                _heap_push(qheap, &qsize, qkey, qrank, item)
            else:
                for ch in range(first, runs_used):
                    qkey[n_rows + runs[ch]] = K[runs[ch]]
                    _heap_push(qheap, &qsize, qkey, qrank, n_rows + runs[ch])
                runs_used = first
            if qsize > 0:
                item = _heap_pop(qheap, &qsize, qkey, qrank)
                if item >= n_rows + S:
                    # A run: its first slot is taken, the run goes back with the next one.
                    ch = item - n_rows - S
                    s = runs[run_at[ch]]
                    run_at[ch] += 1
                    if run_at[ch] < run_end[ch]:
                        qkey[item] = K[runs[run_at[ch]]]
                        qrank[item] = n_rows + runs[run_at[ch]]
                        _heap_push(qheap, &qsize, qkey, qrank, item)
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
                        _heap_push(qheap, &qsize, qkey, qrank, item)
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
