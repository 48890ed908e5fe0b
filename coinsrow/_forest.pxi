# Included by _core.pyx: the game on a forest of rooted trees, mixed with rows and stacks.
#
# A move takes a root of a tree (its children become roots). Block merging
# (docs/forests.md): blocks are connected sets of vertices kept in a union-find,
# each with a head (its top vertex, which is also its union-find representative), a net
# value d and a parity. Start: every vertex is an odd block with d = its coin. Repeatedly pop
# the odd block B with the largest d (ties: lower vertex id):
#   - B's head is a root (no parent, or its parent's block is taken): Greedy takes B;
#   - otherwise Fusion merges B into its parent's block P: an odd P becomes even with
#     d = d_P - d_B, an even P becomes odd with d = d_P + d_B (and goes back into the heap).
# When no odd block is left, the untaken blocks are even (Fruitless pairs).
# Value = t1 - t2 + t3 - ... + (-1)^k (sum of the even blocks' d).
#
# Rows join as stacks: Fusion turns a row into a valley, which splits at its minimum into two
# stacks (each non-increasing from its open end); each reduced entry is one vertex standing
# for its odd run of coins. Stacks join as paths of single coins.
#
# Vertex ids are flat indices in ``coins``: a row's reduced entry e lives at the index of
# its run's first coin (as ``_reduce`` writes it), a stack coin and a forest node at their
# own index. Ids outside the position (taken coins, fused-away entries) stay unused.
#
# The order of play of a taken block is the concatenation of the orders of the blocks that
# were merged into it (P's vertices, then B's): a topological order, since B's head hangs
# below a vertex of P. Every move of that play was checked optimal against exhaustive
# minimax (tests/test_forest.py).

cdef enum:
    _LIVE = 1
    _ODD = 2
    _TAKEN = 4
    _EMITTED = 8


cdef inline bint _block_before(coin_t key_a, int64_t a, coin_t key_b, int64_t b) noexcept nogil:
    """Heap order: larger d first, then lower vertex id."""
    return key_a > key_b or (key_a == key_b and a < b)


# The heap of odd blocks, 4-ary (half the depth of a binary heap; the heap is memory bound):
# ids in heap[], their d beside them in keys[] (compared without a random access to d[]),
# each block's place in pos[] (an odd block absorbing a child becomes even and leaves the
# heap from the middle).

cdef inline void _block_up(int64_t *heap, coin_t *keys, int64_t *pos, int64_t i) noexcept nogil:
    cdef int64_t item = heap[i], parent
    cdef coin_t key = keys[i]
    while i > 0:
        parent = (i - 1) >> 2
        if not _block_before(key, item, keys[parent], heap[parent]):
            break
        heap[i] = heap[parent]
        keys[i] = keys[parent]
        pos[heap[i]] = i
        i = parent
    heap[i] = item
    keys[i] = key
    pos[item] = i


cdef inline void _block_down(int64_t *heap, coin_t *keys, int64_t *pos, int64_t size,
                             int64_t i) noexcept nogil:
    cdef int64_t item = heap[i], child, first, last, j
    cdef coin_t key = keys[i]
    while True:
        first = 4 * i + 1
        if first >= size:
            break
        last = first + 4 if first + 4 < size else size
        child = first
        for j in range(first + 1, last):
            if _block_before(keys[j], heap[j], keys[child], heap[child]):
                child = j
        if not _block_before(keys[child], heap[child], key, item):
            break
        heap[i] = heap[child]
        keys[i] = keys[child]
        pos[heap[i]] = i
        i = child
    heap[i] = item
    keys[i] = key
    pos[item] = i


cdef inline void _block_remove(int64_t *heap, coin_t *keys, int64_t *pos, int64_t *size,
                               int64_t item) noexcept nogil:
    cdef int64_t i = pos[item], last
    size[0] -= 1
    if i < size[0]:
        last = heap[size[0]]
        heap[i] = last
        keys[i] = keys[size[0]]
        pos[last] = i
        _block_down(heap, keys, pos, size[0], i)
        _block_up(heap, keys, pos, pos[last])


cdef inline int64_t _block_find(int64_t *uf, int64_t x) noexcept nogil:
    """Union-find root with path halving: O(log n) amortised (no union by rank: the
    representative must stay the head of the block)."""
    while uf[x] != x:
        uf[x] = uf[uf[x]]
        x = uf[x]
    return x


cdef int _forest_blocks(const coin_t[::1] coins, const int64_t[::1] starts,
                        const int64_t[::1] stops, Py_ssize_t n_rows, int64_t fbase,
                        const int64_t[::1] parents, const uint8_t[::1] removed,
                        coin_t *d, int64_t *par, int64_t *uf, int64_t *heap, coin_t *keys,
                        int64_t *pos, uint8_t *flags, int64_t *segments, int64_t *row_mid, int64_t *row_top,
                        int64_t *nxt, int64_t *tail, int64_t *taken_order, int64_t *n_taken,
                        coin_t *total, int64_t *bad_index) noexcept nogil:
    """Block merging on the whole position; adds its value to ``total[0]``.

    ``parents`` must be valid (checked by ``forest_check``). With ``nxt`` not NULL, also
    keeps each block's play order as a linked list and the taken blocks in ``taken_order``.
    """
    cdef int64_t n = coins.shape[0], nf = parents.shape[0]
    cdef Py_ssize_t k = starts.shape[0], c
    cdef int64_t v, p, q, e, m, start, stop, top, size = 0, i, b, P, taken = 0
    cdef bint ovf = False, plus = True
    cdef coin_t even_sum = 0
    for v in range(n):
        flags[v] = 0
        uf[v] = v
    if coin_t is double:
        # NaN and infinities poison every comparison: refuse them before any work.
        for c in range(k):
            bad_index[0] = _first_not_finite(coins, starts[c], stops[c])
            if bad_index[0] >= 0:
                return NOT_FINITE
        for i in range(nf):
            if not removed[i] and not isfinite(coins[fbase + i]):
                bad_index[0] = fbase + i
                return NOT_FINITE
    for c in range(k):
        start = starts[c]
        stop = stops[c]
        if c < n_rows:
            if start == stop:
                row_mid[c] = start - 1
                row_top[c] = start
                continue
            top = _reduce(coins, start, stop, d, segments, &ovf)
            m = start
            for e in range(start + 1, top):
                if d[e] < d[m]:
                    m = e
            # Left stack: entries start..m, top at start. Right stack: top-1 down to m+1.
            for e in range(start, top):
                if e <= m:
                    par[e] = e - 1 if e > start else -1
                else:
                    par[e] = e + 1 if e < top - 1 else -1
                flags[e] = _LIVE | _ODD
            row_mid[c] = m
            row_top[c] = top
        else:
            for p in range(start, stop):
                d[p] = coins[p]
                par[p] = p - 1 if p > start else -1
                flags[p] = _LIVE | _ODD
    for i in range(nf):
        if removed[i]:
            continue
        v = fbase + i
        d[v] = coins[v]
        q = parents[i]
        par[v] = fbase + q if q >= 0 and not removed[q] else -1
        flags[v] = _LIVE | _ODD
    for v in range(n):
        if flags[v] & _LIVE:
            heap[size] = v
            keys[size] = d[v]
            pos[v] = size
            size += 1
            if nxt != NULL:
                nxt[v] = -1
                tail[v] = v
    i = (size + 2) >> 2
    while i > 0:
        i -= 1
        _block_down(heap, keys, pos, size, i)
    while size > 0:
        b = heap[0]
        size -= 1
        if size > 0:
            heap[0] = heap[size]
            keys[0] = keys[size]
            pos[heap[0]] = 0
            _block_down(heap, keys, pos, size, 0)
        P = -1
        if par[b] >= 0:
            P = _block_find(uf, par[b])
            # P == b only on a cycle, which forest_check refuses: taking b keeps any
            # input from looping here.
            if flags[P] & _TAKEN or P == b:
                P = -1
        if P < 0:
            # Greedy: the player to move takes the whole block.
            flags[b] |= _TAKEN
            if plus:
                ovf |= add_checked(total[0], d[b], total)
            else:
                ovf |= sub_checked(total[0], d[b], total)
            plus = not plus
            if taken_order != NULL:
                taken_order[taken] = b
            taken += 1
            continue
        # Fusion of B into its parent's block.
        uf[b] = P
        if nxt != NULL:
            nxt[tail[P]] = b
            tail[P] = tail[b]
        if flags[P] & _ODD:
            _block_remove(heap, keys, pos, &size, P)
            ovf |= sub_checked(d[P], d[b], &d[P])
            flags[P] &= ~_ODD
        else:
            ovf |= add_checked(d[P], d[b], &d[P])
            flags[P] |= _ODD
            heap[size] = P
            keys[size] = d[P]
            pos[P] = size
            size += 1
            _block_up(heap, keys, pos, size - 1)
    # Fruitless: the even blocks left, all taken by whoever is to move then.
    for v in range(n):
        if (flags[v] & (_LIVE | _TAKEN)) == _LIVE and uf[v] == v:
            ovf |= add_checked(even_sum, d[v], &even_sum)
    if plus:
        ovf |= add_checked(total[0], even_sum, total)
    else:
        ovf |= sub_checked(total[0], even_sum, total)
    n_taken[0] = taken
    return OVERFLOW if ovf else OK


cdef inline int64_t _component_of(const int64_t[::1] stops, int64_t v) noexcept nogil:
    """The first component whose range ends after flat index v (ranges are in order)."""
    cdef int64_t lo = 0, hi = stops.shape[0] - 1, mid
    while lo < hi:
        mid = (lo + hi) >> 1
        if stops[mid] > v:
            hi = mid
        else:
            lo = mid + 1
    return lo


cdef int64_t _emit_block(int64_t b, int64_t turn, const int64_t[::1] stops, Py_ssize_t n_rows,
                         int64_t fbase, int64_t *segments, int64_t *row_mid, int64_t *row_top,
                         int64_t *row_left, int64_t *nxt, int64_t *out_component,
                         int64_t *out_coin, uint8_t *out_end) noexcept nogil:
    """Write the moves of block b, in its play order, from ``turn`` on; return the next turn.

    ``row_left[c]`` counts the coins of row c not yet written: the last one is named as taken
    from the left, as ``Game.moves()`` names it.
    """
    cdef int64_t v = b, c, lo, hi, p
    cdef int64_t forest_component = stops.shape[0]
    while v >= 0:
        if v >= fbase:
            out_component[turn] = forest_component
            out_coin[turn] = v
            out_end[turn] = ROOT
            turn += 1
        else:
            c = _component_of(stops, v)
            if c >= n_rows:
                out_component[turn] = c
                out_coin[turn] = v
                out_end[turn] = TOP
                turn += 1
            else:
                # A reduced row entry: its odd run of coins, whole, from the exposed end.
                lo = segments[v]
                hi = segments[v + 1] if v + 1 < row_top[c] else stops[c]
                if v <= row_mid[c]:
                    for p in range(lo, hi):
                        out_component[turn] = c
                        out_coin[turn] = p
                        out_end[turn] = LEFT
                        row_left[c] -= 1
                        turn += 1
                else:
                    p = hi
                    while p > lo:
                        p -= 1
                        out_component[turn] = c
                        out_coin[turn] = p
                        out_end[turn] = RIGHT if row_left[c] > 1 else LEFT
                        row_left[c] -= 1
                        turn += 1
        v = nxt[v]
    return turn


cdef void _forest_emit(int64_t n, const int64_t[::1] starts, const int64_t[::1] stops,
                       Py_ssize_t n_rows, int64_t fbase,
                       int64_t *par, int64_t *uf, uint8_t *flags, int64_t *segments,
                       int64_t *row_mid, int64_t *row_top, int64_t *row_left, int64_t *nxt,
                       int64_t *taken_order, int64_t n_taken, int64_t *chain,
                       int64_t *out_component, int64_t *out_coin, uint8_t *out_end) noexcept nogil:
    """The optimal play: the taken blocks in the order taken, then the even blocks, each
    after the block holding its head's parent."""
    cdef int64_t i, v, x, depth, turn = 0
    cdef Py_ssize_t c
    for c in range(n_rows):
        row_left[c] = stops[c] - starts[c]
    for i in range(n_taken):
        turn = _emit_block(taken_order[i], turn, stops, n_rows, fbase, segments, row_mid,
                           row_top, row_left, nxt, out_component, out_coin, out_end)
    for v in range(n):
        if (flags[v] & (_LIVE | _TAKEN | _EMITTED)) != _LIVE or uf[v] != v:
            continue
        # Climb to the highest even block not yet played, then play the chain top down.
        depth = 0
        x = v
        while True:
            chain[depth] = x
            depth += 1
            flags[x] |= _EMITTED
            if par[x] < 0:
                break
            x = _block_find(uf, par[x])
            if flags[x] & (_TAKEN | _EMITTED):
                break
        while depth > 0:
            depth -= 1
            turn = _emit_block(chain[depth], turn, stops, n_rows, fbase, segments, row_mid,
                               row_top, row_left, nxt, out_component, out_coin, out_end)


cdef int _forest_run(const coin_t[::1] coins, const int64_t[::1] starts,
                     const int64_t[::1] stops, Py_ssize_t n_rows, int64_t fbase,
                     const int64_t[::1] parents, const uint8_t[::1] removed,
                     coin_t *total, int64_t *bad_index, int64_t *out_component,
                     int64_t *out_coin, uint8_t *out_end) noexcept nogil:
    """Allocate, solve, and (when ``out_coin`` is not NULL) write the play."""
    cdef int64_t n = coins.shape[0], n_taken = 0
    cdef Py_ssize_t k = starts.shape[0]
    cdef int64_t size = n if n > 0 else 1
    cdef int64_t ksize = k if k > 0 else 1
    cdef bint want_play = out_coin != NULL
    cdef int status
    cdef coin_t *d = <coin_t *> malloc(size * sizeof(coin_t))
    cdef int64_t *par = <int64_t *> malloc(size * sizeof(int64_t))
    cdef int64_t *uf = <int64_t *> malloc(size * sizeof(int64_t))
    cdef int64_t *heap = <int64_t *> malloc(size * sizeof(int64_t))
    cdef coin_t *keys = <coin_t *> malloc(size * sizeof(coin_t))
    cdef int64_t *pos = <int64_t *> malloc(size * sizeof(int64_t))
    cdef uint8_t *flags = <uint8_t *> malloc(size * sizeof(uint8_t))
    cdef int64_t *row_mid = <int64_t *> malloc(ksize * sizeof(int64_t))
    cdef int64_t *row_top = <int64_t *> malloc(ksize * sizeof(int64_t))
    cdef int64_t *segments = NULL
    cdef int64_t *nxt = NULL
    cdef int64_t *tail = NULL
    cdef int64_t *taken_order = NULL
    cdef int64_t *row_left = NULL
    cdef bint no_memory = (d == NULL or par == NULL or uf == NULL or heap == NULL
                           or keys == NULL or pos == NULL or flags == NULL or row_mid == NULL
                           or row_top == NULL)
    if want_play and not no_memory:
        segments = <int64_t *> malloc((size + 1) * sizeof(int64_t))
        nxt = <int64_t *> malloc(size * sizeof(int64_t))
        tail = <int64_t *> malloc(size * sizeof(int64_t))
        taken_order = <int64_t *> malloc(size * sizeof(int64_t))
        row_left = <int64_t *> malloc(ksize * sizeof(int64_t))
        no_memory = (segments == NULL or nxt == NULL or tail == NULL or taken_order == NULL
                     or row_left == NULL)
    if no_memory:
        status = NO_MEMORY
    else:
        status = _forest_blocks(coins, starts, stops, n_rows, fbase, parents, removed, d, par,
                                uf, heap, keys, pos, flags, segments, row_mid, row_top, nxt,
                                tail, taken_order, &n_taken, total, bad_index)
        if want_play and (status == OK or status == OVERFLOW):
            # The heap is empty now: its memory holds the chains of even blocks.
            _forest_emit(n, starts, stops, n_rows, fbase, par, uf, flags, segments, row_mid,
                         row_top, row_left, nxt, taken_order, n_taken, heap, out_component,
                         out_coin, out_end)
    free(d)
    free(par)
    free(uf)
    free(heap)
    free(keys)
    free(pos)
    free(flags)
    free(row_mid)
    free(row_top)
    free(segments)
    free(nxt)
    free(tail)
    free(taken_order)
    free(row_left)
    return status


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


def _forest_arguments(coins_length, starts, stops, fbase, parents, removed):
    if stops.shape[0] != starts.shape[0]:
        raise ValueError("starts and stops differ in length")
    if removed.shape[0] != parents.shape[0]:
        raise ValueError("removed and parents differ in length")
    if fbase < 0 or fbase + parents.shape[0] > coins_length:
        raise ValueError("the forest lies outside the coins")


def forest_value(const coin_t[::1] coins, const int64_t[::1] starts, const int64_t[::1] stops,
                 Py_ssize_t n_rows, int64_t fbase, const int64_t[::1] parents,
                 const uint8_t[::1] removed):
    """Value of rows, stacks and a forest together: ``(status, value or bad flat index)``.

    The forest's node i is ``coins[fbase + i]``, its parent ``parents[i]`` (-1: a root);
    nodes with ``removed[i]`` are gone. ``parents`` must pass ``forest_check``.
    O(n log n) time, O(n) memory for n = len(coins).
    """
    cdef coin_t total = 0
    cdef int64_t bad_index = -1
    cdef int status
    _forest_arguments(coins.shape[0], starts, stops, fbase, parents, removed)
    with nogil:
        status = _forest_run(coins, starts, stops, n_rows, fbase, parents, removed, &total,
                             &bad_index, NULL, NULL, NULL)
    if status == NO_MEMORY:
        raise MemoryError()
    if status == NOT_FINITE:
        return Status.NOT_FINITE, bad_index
    if status == OK and not _is_finite(total):
        status = OVERFLOW
    return Status(status), total


def forest_play(const coin_t[::1] coins, const int64_t[::1] starts, const int64_t[::1] stops,
                Py_ssize_t n_rows, int64_t fbase, const int64_t[::1] parents,
                const uint8_t[::1] removed, int64_t[::1] out_component, int64_t[::1] out_coin,
                uint8_t[::1] out_end):
    """A whole optimal play of rows, stacks and a forest: ``(status, value or bad index)``.

    Turn t takes coin ``out_coin[t]`` (a flat index) of component ``out_component[t]``
    from ``out_end[t]``; a forest node has component ``len(starts)`` and end ROOT.
    O(n log n) time, O(n) memory.
    """
    cdef coin_t total = 0
    cdef int64_t bad_index = -1, live
    cdef int status
    _forest_arguments(coins.shape[0], starts, stops, fbase, parents, removed)
    live = _live_count(starts, stops, removed)
    if out_component.shape[0] < live or out_coin.shape[0] < live or out_end.shape[0] < live:
        raise ValueError("output buffers are shorter than the game")
    if live == 0:
        return Status.OK, total
    with nogil:
        status = _forest_run(coins, starts, stops, n_rows, fbase, parents, removed, &total,
                             &bad_index, &out_component[0], &out_coin[0], &out_end[0])
    if status == NO_MEMORY:
        raise MemoryError()
    if status == NOT_FINITE:
        return Status.NOT_FINITE, bad_index
    if status == OK and not _is_finite(total):
        status = OVERFLOW
    return Status(status), total


def forest_profits(const coin_t[::1] coins, const int64_t[::1] starts,
                   const int64_t[::1] stops, Py_ssize_t n_rows, int64_t fbase,
                   const int64_t[::1] parents, const uint8_t[::1] removed):
    """What each player collects: ``(status, (first, second) or bad flat index)``, as
    ``game_profits`` computes them (int64: from the sum and the value; float64: each
    player's coins of the optimal play, summed exactly and rounded once)."""
    cdef coin_t total = 0, value = 0, twice, first = 0, second = 0
    cdef int64_t bad_index = -1, live, p
    cdef int64_t *components = NULL
    cdef int64_t *play = NULL
    cdef uint8_t *ends = NULL
    cdef Py_ssize_t c
    cdef int status = OK
    cdef bint ovf = False
    _forest_arguments(coins.shape[0], starts, stops, fbase, parents, removed)
    live = _live_count(starts, stops, removed)
    if live == 0:
        return Status.OK, (first, second)
    with nogil:
        if coin_t is int64_t:
            status = _forest_run(coins, starts, stops, n_rows, fbase, parents, removed,
                                 &value, &bad_index, NULL, NULL, NULL)
            for c in range(starts.shape[0]):
                for p in range(starts[c], stops[c]):
                    ovf |= add_checked(total, coins[p], &total)
            for p in range(removed.shape[0]):
                if not removed[p]:
                    ovf |= add_checked(total, coins[fbase + p], &total)
            # sum + value is twice what the first player takes: even, so halving is exact.
            ovf |= add_checked(total, value, &twice)
            first = twice // 2
            ovf |= sub_checked(total, first, &second)
            if ovf and status == OK:
                status = OVERFLOW
        else:
            components = <int64_t *> malloc(live * sizeof(int64_t))
            play = <int64_t *> malloc(live * sizeof(int64_t))
            ends = <uint8_t *> malloc(live * sizeof(uint8_t))
            if components == NULL or play == NULL or ends == NULL:
                status = NO_MEMORY
            else:
                status = _forest_run(coins, starts, stops, n_rows, fbase, parents, removed,
                                     &value, &bad_index, components, play, ends)
                if status == OK and not isfinite(value):
                    status = OVERFLOW
                if status == OK:
                    status = _play_float_profits(coins, play, live, &first, &second)
            free(components)
            free(play)
            free(ends)
    if status == NO_MEMORY:
        raise MemoryError()
    if status == NOT_FINITE:
        return Status.NOT_FINITE, bad_index
    return Status(status), (first, second)


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
    return ForestProblem(code), bad


# -- the same algorithm on Python numbers (ints of any size, Fraction, Decimal) ------------

cdef tuple _forest_exact(list coins, const int64_t[::1] starts, const int64_t[::1] stops,
                           Py_ssize_t n_rows, int64_t fbase, const int64_t[::1] parents,
                           const uint8_t[::1] removed, bint want_play):
    """``_forest_blocks`` (and ``_forest_emit``) on Python numbers: ``(value, play)``.

    Same vertex ids, same tie-break, so the same play as the machine kernel.
    """
    cdef int64_t n = len(coins), nf = parents.shape[0]
    cdef Py_ssize_t k = starts.shape[0], c
    cdef int64_t v, p, q, e, m, start, stop, top, seg, b, P, x, i, lo, hi
    cdef list d = [None] * n, par = [-1] * n, uf = list(range(n)), version = [0] * n
    cdef list nxt = [-1] * n, tail = list(range(n)), segments = [0] * n
    cdef list row_mid = [0] * k, row_top = [0] * k, heap = [], taken_order = [], values
    cdef list chain, row_left, play = []
    cdef bytearray flags = bytearray(n)
    cdef object total = _zero_of(coins), even_sum = total, w
    cdef bint plus = True
    for c in range(k):
        start = starts[c]
        stop = stops[c]
        if c < n_rows:
            top = start
            for p in range(start, stop):
                w = coins[p]
                seg = p
                while (top - start >= 2 and d[top - 2] <= d[top - 1]
                       and d[top - 1] > w):
                    w = d[top - 2] - d[top - 1] + w
                    seg = segments[top - 2]
                    top -= 2
                d[top] = w
                segments[top] = seg
                top += 1
            m = start
            for e in range(start + 1, top):
                if d[e] < d[m]:
                    m = e
            for e in range(start, top):
                if e <= m:
                    par[e] = e - 1 if e > start else -1
                else:
                    par[e] = e + 1 if e < top - 1 else -1
                flags[e] = _LIVE | _ODD
            row_mid[c] = m
            row_top[c] = top
        else:
            for p in range(start, stop):
                d[p] = coins[p]
                par[p] = p - 1 if p > start else -1
                flags[p] = _LIVE | _ODD
    for i in range(nf):
        if removed[i]:
            continue
        v = fbase + i
        d[v] = coins[v]
        q = parents[i]
        par[v] = fbase + q if q >= 0 and not removed[q] else -1
        flags[v] = _LIVE | _ODD
    for v in range(n):
        if flags[v] & _LIVE:
            heap.append((-d[v], v, 0))
    heapq.heapify(heap)
    while heap:
        _, b, e = heapq.heappop(heap)
        if e != version[b]:
            continue
        P = -1
        if par[b] >= 0:
            P = _find_exact(uf, par[b])
            if flags[P] & _TAKEN or P == b:
                P = -1
        if P < 0:
            flags[b] |= _TAKEN
            total = total + d[b] if plus else total - d[b]
            plus = not plus
            taken_order.append(b)
            continue
        uf[b] = P
        nxt[tail[P]] = b
        tail[P] = tail[b]
        version[P] += 1
        if flags[P] & _ODD:
            d[P] = d[P] - d[b]
            flags[P] &= ~_ODD
        else:
            d[P] = d[P] + d[b]
            flags[P] |= _ODD
            heapq.heappush(heap, (-d[P], P, version[P]))
    for v in range(n):
        if (flags[v] & (_LIVE | _TAKEN)) == _LIVE and uf[v] == v:
            even_sum = even_sum + d[v]
    total = total + even_sum if plus else total - even_sum
    if not want_play:
        return total, None
    row_left = [stops[c] - starts[c] for c in range(k)]
    for b in taken_order:
        _emit_exact(b, play, stops, n_rows, fbase, segments, row_mid, row_top, row_left, nxt)
    for v in range(n):
        if (flags[v] & (_LIVE | _TAKEN | _EMITTED)) != _LIVE or uf[v] != v:
            continue
        chain = []
        x = v
        while True:
            chain.append(x)
            flags[x] |= _EMITTED
            if par[x] < 0:
                break
            x = _find_exact(uf, par[x])
            if flags[x] & (_TAKEN | _EMITTED):
                break
        for x in reversed(chain):
            _emit_exact(x, play, stops, n_rows, fbase, segments, row_mid, row_top, row_left,
                          nxt)
    return total, play


cdef inline int64_t _find_exact(list uf, int64_t x):
    while uf[x] != x:
        uf[x] = uf[uf[x]]
        x = uf[x]
    return x


cdef int _emit_exact(int64_t b, list play, const int64_t[::1] stops, Py_ssize_t n_rows,
                       int64_t fbase, list segments, list row_mid, list row_top,
                       list row_left, list nxt) except -1:
    cdef int64_t v = b, c, lo, hi, p
    cdef int64_t forest_component = stops.shape[0]
    while v >= 0:
        if v >= fbase:
            play.append((forest_component, v, ROOT))
        else:
            c = _component_of(stops, v)
            if c >= n_rows:
                play.append((c, v, TOP))
            else:
                lo = segments[v]
                hi = segments[v + 1] if v + 1 < row_top[c] else stops[c]
                if v <= row_mid[c]:
                    for p in range(lo, hi):
                        play.append((c, p, LEFT))
                        row_left[c] -= 1
                else:
                    for p in range(hi - 1, lo - 1, -1):
                        play.append((c, p, RIGHT if row_left[c] > 1 else LEFT))
                        row_left[c] -= 1
        v = nxt[v]
    return 0


def forest_value_exact(list coins, const int64_t[::1] starts, const int64_t[::1] stops,
                       Py_ssize_t n_rows, int64_t fbase, const int64_t[::1] parents,
                       const uint8_t[::1] removed):
    """``forest_value`` on Python numbers."""
    _forest_arguments(len(coins), starts, stops, fbase, parents, removed)
    bad = _forest_first_not_finite(coins, starts, stops, fbase, removed)
    if bad >= 0:
        return Status.NOT_FINITE, bad
    value = _forest_exact(coins, starts, stops, n_rows, fbase, parents, removed, False)[0]
    if _overflowed(value):
        return Status.OVERFLOW, None
    return Status.OK, value


def forest_play_exact(list coins, const int64_t[::1] starts, const int64_t[::1] stops,
                      Py_ssize_t n_rows, int64_t fbase, const int64_t[::1] parents,
                      const uint8_t[::1] removed, int64_t[::1] out_component,
                      int64_t[::1] out_coin, uint8_t[::1] out_end):
    """``forest_play`` on Python numbers: the same play, written to the same buffers."""
    cdef int64_t live, t
    _forest_arguments(len(coins), starts, stops, fbase, parents, removed)
    live = _live_count(starts, stops, removed)
    if out_component.shape[0] < live or out_coin.shape[0] < live or out_end.shape[0] < live:
        raise ValueError("output buffers are shorter than the game")
    if live == 0:
        return Status.OK, 0
    bad = _forest_first_not_finite(coins, starts, stops, fbase, removed)
    if bad >= 0:
        return Status.NOT_FINITE, bad
    value, play = _forest_exact(coins, starts, stops, n_rows, fbase, parents, removed, True)
    if _overflowed(value):
        return Status.OVERFLOW, None
    for t in range(live):
        out_component[t], out_coin[t], out_end[t] = play[t]
    return Status.OK, value


def forest_profits_exact(list coins, const int64_t[::1] starts, const int64_t[::1] stops,
                         Py_ssize_t n_rows, int64_t fbase, const int64_t[::1] parents,
                         const uint8_t[::1] removed):
    """``forest_profits`` on Python numbers (see ``game_profits_exact``)."""
    cdef int64_t live, p
    cdef Py_ssize_t c
    cdef object total = 0
    _forest_arguments(len(coins), starts, stops, fbase, parents, removed)
    live = _live_count(starts, stops, removed)
    if live == 0:
        return Status.OK, (0, 0)
    bad = _forest_first_not_finite(coins, starts, stops, fbase, removed)
    if bad >= 0:
        return Status.NOT_FINITE, bad
    want_play = type(_forest_first_coin(coins, starts, stops, fbase, removed)) is float
    value, play = _forest_exact(coins, starts, stops, n_rows, fbase, parents, removed,
                                want_play)
    if want_play:
        profits = _owner_fsum(coins, [(None, coin) for _, coin, _ in play])
        if (profits is None or _overflowed(value) or _overflowed(profits[0])
                or _overflowed(profits[1])):
            return Status.OVERFLOW, None
        return Status.OK, profits
    for c in range(starts.shape[0]):
        for p in range(starts[c], stops[c]):
            total = total + coins[p]
    for p in range(removed.shape[0]):
        if not removed[p]:
            total = total + coins[fbase + p]
    if type(total) is int:
        first = (total + value) // 2
    else:
        first = (total + value) / 2
    return Status.OK, (first, total - first)


cdef int64_t _forest_first_not_finite(list coins, const int64_t[::1] starts,
                                      const int64_t[::1] stops, int64_t fbase,
                                      const uint8_t[::1] removed):
    """The flat index of the first NaN or infinity on the table (rows and stacks first, as
    ``_forest_blocks`` looks), or -1."""
    cdef Py_ssize_t c
    cdef int64_t p
    for c in range(starts.shape[0]):
        for p in range(starts[c], stops[c]):
            if type(coins[p]) is float and not isfinite(coins[p]):
                return p
    for p in range(removed.shape[0]):
        if not removed[p] and type(coins[fbase + p]) is float and not isfinite(coins[fbase + p]):
            return fbase + p
    return -1


cdef object _forest_first_coin(list coins, const int64_t[::1] starts, const int64_t[::1] stops,
                               int64_t fbase, const uint8_t[::1] removed):
    cdef int64_t p
    first = _first_coin(coins, starts, stops)
    if type(first) is float:
        return first
    for p in range(removed.shape[0]):
        if not removed[p]:
            return coins[fbase + p]
    return first
