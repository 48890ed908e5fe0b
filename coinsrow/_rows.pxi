# Included by _core.pyx: rows and stacks. Fusion and Fruitless reductions, the Greedy merge,
# the optimal play and the profits (docs/algorithm.md).
#
# A game is given as one flat buffer of coins and, for each component, the half-open range
# ``[starts[c], stops[c])`` of its coins in that buffer. Components ``0 .. n_rows - 1`` are
# rows (take from either end); the rest are stacks (take from ``starts[c]`` only, the top).

import heapq
import math
from libc.string cimport memcpy, memset
from libc.math cimport isfinite
from cpython.exc cimport PyErr_CheckSignals


cdef struct Component:
    int64_t first     # index in the scratch arrays of the first reduced entry
    int64_t left      # next entry available from the left (rows) or the top (stacks)
    int64_t right     # last entry still available (inclusive); left > right when exhausted
    int64_t fused_end # one past the last entry after Fusion (before Fruitless)
    int64_t stop      # one past the component's last coin
    int64_t tail      # first coin of a stack's Fruitless tail (== stop when there is none)
    bint is_stack


cdef int64_t _first_not_finite(const double[::1] coins, int64_t start, int64_t stop) noexcept nogil:
    cdef int64_t p
    for p in range(start, stop):
        if not isfinite(coins[p]):
            return p
    return -1


cdef inline bint _is_finite(coin_t x) noexcept nogil:
    if coin_t is double:
        return isfinite(x)
    else:
        return True


cdef int64_t _reduce(const coin_t[::1] coins, int64_t start, int64_t stop,
                     coin_t *values, int64_t *segments, bint *overflow) noexcept nogil:
    """Fusion reduction of coins[start:stop] into values[start:], return one past the top.

    values[start:top] is the canonical bitonic form of the component. When ``segments``
    is not NULL, segments[e] is the first coin of the contiguous, odd-length run of coins
    that reduced entry e stands for. (``_reduce_into`` writes at any position.)
    """
    return _reduce_into(coins, start, stop, values, start, segments, overflow, False)


cdef int64_t _reduce_into(const coin_t[::1] coins, int64_t start, int64_t stop,
                          coin_t *values, int64_t base, int64_t *segments,
                          bint *overflow, bint padded) noexcept nogil:
    """``_reduce``, writing the reduced entries (and segments) at ``base`` instead of
    ``start``: values[base:top], top returned.

    The two top entries are kept in registers; memory is read again only after a fusion.
    The fusion test is one branch (bitwise &, not three short-circuit branches), and the
    reload after a fusion has no branch: it reads the two entries below the top even where
    the depth is under 2 (the depth test masks them). ``padded``: values[base - 2] and
    values[base - 1] are readable (values has two entries before values[0]); otherwise the
    reload reads values[base] there instead (two conditional moves, a little slower).
    """
    cdef coin_t *sp = values + base           # one past the top entry
    cdef coin_t *deep = values + base + 2     # a fusion needs two entries under the coin
    cdef coin_t v, t
    cdef coin_t first = 0, second = 0         # masked by the depth test until set
    cdef int64_t p, seg, top
    cdef bint ovf = False
    for p in range(start, stop):
        v = coins[p]
        seg = p
        # Fusion: x <= M > v with x = second, M = first. (M >= v would be as valid; the
        # strict test gives the one reduced form the window structure keeps, the canonical
        # form under the tie-breaking perturbation of docs/window.md, so that every part of
        # the library plays the same move on ties: docs/algorithm.md.)
        while coinsrow_unlikely((second <= first) & (first > v) & (sp >= deep)):
            # int64: the overflow flags are accumulated, not branched on.
            ovf |= sub_checked(second, first, &t)
            ovf |= add_checked(t, v, &v)
            sp -= 2
            if segments != NULL:
                seg = segments[sp - values]
            if padded:
                first = (sp - 1)[0]
                second = (sp - 2)[0]
            else:
                # Where the depth is under 2, values[base] (written before this fusion).
                top = sp - values
                first = values[top - 1 if top - 1 >= base else base]
                second = values[top - 2 if top - 2 >= base else base]
        if segments != NULL:
            segments[sp - values] = seg
        sp[0] = v
        sp += 1
        second = first
        first = v
    overflow[0] |= ovf
    return sp - values


cdef inline coin_t *_padded(coin_t *raw) noexcept nogil:
    """Scratch for ``_reduce_all_into(..., packed=True)``: ``raw`` has room for n + 2
    entries; the first two are zeroed and the array starts after them. NULL stays NULL.
    Release with ``free(values - 2)``."""
    if raw == NULL:
        return NULL
    raw[0] = 0
    raw[1] = 0
    return raw + 2


cdef int _reduce_all_into(const coin_t[::1] coins, const int64_t[::1] starts,
                          const int64_t[::1] stops, Py_ssize_t n_rows,
                          coin_t *values, int64_t *segments, Component *components,
                          coin_t *fruitless, int64_t *bad_index, bint packed) noexcept nogil:
    """Fusion on every component, Fruitless at the bottom of every stack.

    Fills ``components`` and adds the Fruitless terms to ``fruitless[0]``. Without
    ``packed``, component c's reduced entries are at values[starts[c]:]; with it, they are
    written one after the other from values[0], so ``values`` and ``segments`` need room for
    the game's coins only (sum of stops - starts), not for the whole buffer; ``values`` must
    then also have two readable entries before values[0] (see ``_reduce_into``).

    Packing matters for many small components: their few reduced entries then share cache
    lines and pages, instead of each component touching a page of its own.
    """
    cdef Py_ssize_t k = starts.shape[0], c
    cdef int64_t n = 0, start, stop, top, base = 0
    cdef bint ovf = False
    cdef bint n_odd
    cdef coin_t t
    cdef Component *comp
    for c in range(k):
        n += stops[c] - starts[c]
    n_odd = n & 1
    if coin_t is double:
        # NaN and infinities poison every comparison: refuse them before any work.
        for c in range(k):
            bad_index[0] = _first_not_finite(coins, starts[c], stops[c])
            if bad_index[0] >= 0:
                return NOT_FINITE
    fruitless[0] = 0
    for c in range(k):
        start = starts[c]
        stop = stops[c]
        if not packed:
            base = start
        top = _reduce_into(coins, start, stop, values, base, segments, &ovf, packed)
        comp = &components[c]
        comp.first = base
        comp.left = base
        comp.fused_end = top
        comp.stop = stop
        comp.is_stack = c >= n_rows
        comp.tail = stop
        if comp.is_stack:
            # Fruitless: a stack whose two bottom entries satisfy x <= M loses them at
            # a known cost, (-1)^n (x - M) for the player to move in the whole game.
            while top - base >= 2 and values[top - 2] <= values[top - 1]:
                ovf |= sub_checked(values[top - 2], values[top - 1], &t)
                if n_odd:
                    ovf |= sub_checked(fruitless[0], t, fruitless)
                else:
                    ovf |= add_checked(fruitless[0], t, fruitless)
                top -= 2
            if segments != NULL and top < comp.fused_end:
                comp.tail = segments[top]
        comp.right = top - 1
        # Entries removed by Fruitless stay where they are: the play reads their segments.
        base = comp.fused_end
    return OVERFLOW if ovf else OK


cdef inline bint _before(Component *components, coin_t *heads, int64_t a, int64_t b) noexcept nogil:
    """Heap order: larger head first, then lower component index."""
    return heads[a] > heads[b] or (heads[a] == heads[b] and a < b)


cdef inline coin_t _head(Component *comp, coin_t *values) noexcept nogil:
    if comp.is_stack:
        return values[comp.left]
    if values[comp.left] >= values[comp.right]:
        return values[comp.left]
    return values[comp.right]


cdef void _sift_down(int64_t *heap, int64_t size, int64_t i, Component *components,
                     coin_t *heads) noexcept nogil:
    cdef int64_t child, item = heap[i]
    while True:
        child = 2 * i + 1
        if child >= size:
            break
        if child + 1 < size and _before(components, heads, heap[child + 1], heap[child]):
            child += 1
        if not _before(components, heads, heap[child], item):
            break
        heap[i] = heap[child]
        i = child
    heap[i] = item


cdef int _greedy(Py_ssize_t k, Component *components, coin_t *values, int64_t *segments,
                 int64_t *heap, coin_t *heads, coin_t *total,
                 int64_t *out_component, int64_t *out_coin, uint8_t *out_end) noexcept nogil:
    """Greedy phase: take the largest available reduced value until none is left.

    Adds the values with alternating signs to ``total[0]``. When ``out_coin`` is not NULL,
    writes the optimal play: each taken entry expands into its run of coins, taken one by
    one from the end where it is exposed; then the stacks' Fruitless tails, top to bottom.
    ``out_component`` and ``out_end`` may be NULL (only the coins are wanted).
    """
    cdef int64_t size = 0, c, i, e, seg_lo, seg_hi, turn = 0, p
    cdef coin_t x
    cdef bint ovf = False, plus = True, from_left
    cdef uint8_t end_code
    cdef Component *comp
    for c in range(k):
        comp = &components[c]
        if comp.left <= comp.right:
            heads[c] = _head(comp, values)
            heap[size] = c
            size += 1
    i = size // 2
    while i > 0:
        i -= 1
        _sift_down(heap, size, i, components, heads)
    while size > 0:
        c = heap[0]
        comp = &components[c]
        from_left = comp.is_stack or values[comp.left] >= values[comp.right]
        if from_left:
            e = comp.left
            comp.left += 1
        else:
            e = comp.right
            comp.right -= 1
        x = values[e]
        if plus:
            ovf |= add_checked(total[0], x, total)
        else:
            ovf |= sub_checked(total[0], x, total)
        plus = not plus
        if out_coin != NULL:
            seg_lo = segments[e]
            seg_hi = segments[e + 1] if e + 1 < comp.fused_end else comp.stop
            end_code = TOP if comp.is_stack else (LEFT if from_left else RIGHT)
            if from_left:
                for p in range(seg_lo, seg_hi):
                    if out_component != NULL:
                        out_component[turn] = c
                        out_end[turn] = end_code
                    out_coin[turn] = p
                    turn += 1
            else:
                p = seg_hi
                while p > seg_lo:
                    p -= 1
                    if out_component != NULL:
                        out_component[turn] = c
                        out_end[turn] = end_code
                    out_coin[turn] = p
                    turn += 1
        if comp.left <= comp.right:
            heads[c] = _head(comp, values)
        else:
            size -= 1
            heap[0] = heap[size]
        _sift_down(heap, size, 0, components, heads)
    if out_coin != NULL:
        for c in range(k):
            comp = &components[c]
            for p in range(comp.tail, comp.stop):
                if out_component != NULL:
                    out_component[turn] = c
                    out_end[turn] = TOP
                out_coin[turn] = p
                turn += 1
    return OVERFLOW if ovf else OK


cdef inline uint64_t _key(coin_t x) noexcept nogil:
    """An unsigned key in the order of the coins (IEEE order for finite doubles)."""
    cdef uint64_t bits
    if coin_t is int64_t:
        return (<uint64_t> x) ^ (<uint64_t> 1 << 63)
    else:
        memcpy(&bits, &x, sizeof(bits))
        if bits >> 63:
            return ~bits
        return bits | (<uint64_t> 1 << 63)


cdef inline coin_t _unkey(uint64_t key, coin_t *kind) noexcept nogil:
    """The inverse of ``_key``; ``kind`` only selects the type."""
    cdef double d
    if coin_t is int64_t:
        return <int64_t> (key ^ (<uint64_t> 1 << 63))
    else:
        if key >> 63:
            key ^= <uint64_t> 1 << 63
        else:
            key = ~key
        memcpy(&d, &key, sizeof(d))
        return d


cdef int64_t _gather_keys(Py_ssize_t k, Component *components, coin_t *values,
                          uint64_t *keys) noexcept nogil:
    """The keys of every component's remaining reduced entries into ``keys`` (when not
    NULL); returns how many there are."""
    cdef Py_ssize_t c
    cdef int64_t m = 0, e
    cdef Component *comp
    for c in range(k):
        comp = &components[c]
        if keys != NULL:
            for e in range(comp.left, comp.right + 1):
                keys[m] = _key(values[e])
                m += 1
        elif comp.left <= comp.right:
            m += comp.right - comp.left + 1
    return m


cdef int _alternating_sum_sorted(uint64_t *keys, int64_t m, coin_t *total,
                                 coin_t *kind) noexcept nogil:
    """Greedy phase for the value alone: the reduced entries of all components, largest
    first, with alternating signs (ties are alike for the sum), added to ``total[0]``.

    The entries are sorted with an LSD radix sort on bytes, skipping the bytes all keys
    share: O(m) for m entries, with sequential memory access. (A heap merge of the k
    components costs O(m log k), each level a dependent load; on 20,000 rows and 20,000
    stacks that was ten times slower.) The play, which needs the order of the moves
    within ties, keeps the heap. Needs m more keys of scratch; ``keys`` ends up sorted.
    """
    cdef int64_t counts[8][256]
    cdef int64_t i, offset, count
    cdef int d, b, shift
    cdef uint64_t key
    cdef uint64_t *source = keys
    cdef uint64_t *target
    cdef uint64_t *swap
    cdef uint64_t *spare = NULL
    cdef bint ovf = False, plus = True
    cdef coin_t x
    if m > 1:
        spare = <uint64_t *> malloc(m * sizeof(uint64_t))
        if spare == NULL:
            return NO_MEMORY
        target = spare
        memset(counts, 0, sizeof(counts))
        for i in range(m):
            key = source[i]
            for d in range(8):
                counts[d][(key >> (8 * d)) & 255] += 1
        for d in range(8):
            shift = 8 * d
            if counts[d][(source[0] >> shift) & 255] == m:
                continue  # every key has this byte: nothing to do
            offset = 0
            for b in range(256):
                count = counts[d][b]
                counts[d][b] = offset
                offset += count
            for i in range(m):
                key = source[i]
                b = (key >> shift) & 255
                target[counts[d][b]] = key
                counts[d][b] += 1
            swap = source
            source = target
            target = swap
    # source is in ascending order: take from the end.
    i = m
    while i > 0:
        i -= 1
        x = _unkey(source[i], kind)
        if plus:
            ovf |= add_checked(total[0], x, total)
        else:
            ovf |= sub_checked(total[0], x, total)
        plus = not plus
    free(spare)
    return OVERFLOW if ovf else OK


cdef coin_t _one_row_greedy(coin_t *values, int64_t left, int64_t right, bint *overflow) noexcept nogil:
    """The Greedy phase of a single row: a two-pointer merge of its two sorted runs."""
    cdef coin_t taken[2]        # what the player to move and the other player take
    cdef coin_t x, y, result
    cdef int player = 0
    cdef bint ovf = False
    taken[0] = 0
    taken[1] = 0
    while left <= right:
        x = values[left]
        y = values[right]
        if x >= y:
            left += 1
        else:
            x = y
            right -= 1
        ovf |= add_checked(taken[player], x, &taken[player])
        player ^= 1
    ovf |= sub_checked(taken[0], taken[1], &result)
    overflow[0] |= ovf
    return result


cdef int _one_row_float_profits(const double[::1] coins, int64_t start, int64_t stop,
                                double *values, int64_t *segments, double *first,
                                double *second, double second_extra) noexcept nogil:
    """The profits of the row coins[start:stop] of doubles: each player's coins in the
    optimal play, summed exactly and rounded once (``second_extra``, a coin the second
    player took before the row, joins his sum). ``values`` and ``segments`` are scratch
    for stop - start entries. OK, OVERFLOW (a sum beyond the float range) or NO_MEMORY.

    Greedy entry g (in the order taken) is taken by player g % 2; its odd run of coins is
    taken coin by coin from its exposed end, so the coin at an even offset in the run goes to
    the same player and the coin at an odd offset to the other: whichever end is exposed,
    since the run has odd length. The play itself is never written out.
    """
    cdef ExactSum sums[2]
    cdef int64_t left = 0, right, top, e, p, seg_lo, seg_hi, turn = 0
    cdef int status = OK
    cdef bint ovf = False
    cdef double total = 0.0
    top = _reduce_into(coins, start, stop, values, 0, segments, &ovf, False)
    right = top - 1
    if (exact_sum_init(&sums[0]) | exact_sum_init(&sums[1])) != OK:
        exact_sum_free(&sums[0])
        exact_sum_free(&sums[1])
        return NO_MEMORY
    exact_sum_add(&sums[1], second_extra)
    while left <= right:
        if values[left] >= values[right]:
            e = left
            left += 1
        else:
            e = right
            right -= 1
        # The value in the play kernel's order: a float overflow anywhere in the reduction
        # or the Greedy shows in it, and the game is then redone exactly.
        total = total + values[e] if turn & 1 == 0 else total - values[e]
        seg_lo = segments[e]
        seg_hi = segments[e + 1] if e + 1 < top else stop
        for p in range(seg_lo, seg_hi):
            exact_sum_add(&sums[(turn + p - seg_lo) & 1], coins[p])
        turn += 1
    first[0] = exact_sum_result(&sums[0])
    second[0] = exact_sum_result(&sums[1])
    if (sums[0].overflow or sums[1].overflow or not isfinite(total + 0.0)
            or not (isfinite(first[0]) and isfinite(second[0]))):
        status = OVERFLOW
    exact_sum_free(&sums[0])
    exact_sum_free(&sums[1])
    return status


cdef int _play_float_profits(const double[::1] coins, int64_t *play, int64_t n,
                             double *first, double *second) noexcept nogil:
    """Each player's coins of a written play (coin indices, turn by turn), summed exactly
    and rounded once: the player to move takes the even turns."""
    cdef ExactSum sums[2]
    cdef int64_t t
    cdef int status = OK
    if (exact_sum_init(&sums[0]) | exact_sum_init(&sums[1])) != OK:
        exact_sum_free(&sums[0])
        exact_sum_free(&sums[1])
        return NO_MEMORY
    for t in range(n):
        exact_sum_add(&sums[t & 1], coins[play[t]])
    first[0] = exact_sum_result(&sums[0])
    second[0] = exact_sum_result(&sums[1])
    if sums[0].overflow or sums[1].overflow or not (isfinite(first[0]) and isfinite(second[0])):
        status = OVERFLOW
    exact_sum_free(&sums[0])
    exact_sum_free(&sums[1])
    return status


cdef int64_t _total_coins(const int64_t[::1] starts, const int64_t[::1] stops) except -1:
    cdef Py_ssize_t k = starts.shape[0], c
    cdef int64_t n = 0
    if stops.shape[0] != k:
        raise ValueError("starts and stops differ in length")
    for c in range(k):
        if stops[c] < starts[c]:
            raise ValueError("a component ends before it starts")
        n += stops[c] - starts[c]
    return n


cdef int _game_value(const coin_t[::1] coins, const int64_t[::1] starts,
                     const int64_t[::1] stops, Py_ssize_t n_rows, int64_t total_coins,
                     coin_t *value, int64_t *bad_index) noexcept nogil:
    """The value, as ``game_value`` computes it; OK, OVERFLOW, NOT_FINITE or NO_MEMORY."""
    cdef Py_ssize_t k = starts.shape[0]
    cdef coin_t *values = NULL
    cdef Component *components = NULL
    cdef coin_t fruitless = 0, total = 0
    cdef int64_t m
    cdef uint64_t *keys = NULL
    cdef int status = OK, result
    cdef bint ovf = False
    values = _padded(<coin_t *> malloc((total_coins + 2) * sizeof(coin_t)))
    components = <Component *> malloc((k if k > 0 else 1) * sizeof(Component))
    if values == NULL or components == NULL:
        status = NO_MEMORY
    else:
        status = _reduce_all_into(coins, starts, stops, n_rows, values, NULL, components,
                                  &fruitless, bad_index, True)
    if status == OK or status == OVERFLOW:
        if k == 1 and n_rows == 1:
            total = _one_row_greedy(values, components[0].left, components[0].right, &ovf)
        else:
            m = _gather_keys(k, components, values, NULL)
            keys = <uint64_t *> malloc((m if m > 0 else 1) * sizeof(uint64_t))
            if keys == NULL:
                status = NO_MEMORY
            else:
                _gather_keys(k, components, values, keys)
                # The reduced entries are all in keys now: give the scratch back first.
                free(values - 2)
                values = NULL
                result = _alternating_sum_sorted(keys, m, &total, &fruitless)
                if result == NO_MEMORY:
                    status = NO_MEMORY
                ovf |= result == OVERFLOW
        # Plus the Fruitless terms (zero for rows alone: this also turns -0.0 into 0.0).
        ovf |= add_checked(total, fruitless, &total)
        if (ovf or not _is_finite(total)) and status == OK:
            status = OVERFLOW
    if values != NULL:
        free(values - 2)
    free(components)
    free(keys)
    value[0] = total
    return status


def game_value(const coin_t[::1] coins, const int64_t[::1] starts,
               const int64_t[::1] stops, Py_ssize_t n_rows):
    """Value of the game for the player to move: ``(status, value or bad flat index)``.

    O(n) for one row (two-pointer merge of its two sorted runs); for k components, O(n)
    too: the reduced entries of all components are radix-sorted (see
    ``_alternating_sum_sorted``), which beats the O(n log k) heap merge the play uses.
    Extra memory: one coin per coin of the game (n = the sum of stops - starts), plus
    O(k); for k > 1, at most n + m machine words at the peak, m <= n reduced entries (their
    keys are gathered, the coins' scratch freed, then the sort's spare keys allocated).
    """
    cdef int64_t total_coins = _total_coins(starts, stops), bad_index = -1
    cdef coin_t value = 0
    cdef int status = OK
    if starts.shape[0] == 0:
        return Status.OK, value
    with nogil:
        status = _game_value(coins, starts, stops, n_rows, total_coins, &value, &bad_index)
    if status == NO_MEMORY:
        raise MemoryError()
    if status == NOT_FINITE:
        return Status.NOT_FINITE, bad_index
    return Status(status), value


cdef int _game_play(const coin_t[::1] coins, const int64_t[::1] starts,
                    const int64_t[::1] stops, Py_ssize_t n_rows, int64_t total_coins,
                    int64_t *out_component, int64_t *out_coin, uint8_t *out_end,
                    coin_t *value, int64_t *bad_index) noexcept nogil:
    """The optimal play into the output arrays (``out_component`` and ``out_end`` may be
    NULL); OK, OVERFLOW, NOT_FINITE or NO_MEMORY."""
    cdef Py_ssize_t k = starts.shape[0]
    cdef int64_t ksize = k if k > 0 else 1
    cdef coin_t *values = NULL
    cdef int64_t *segments = NULL
    cdef Component *components = NULL
    cdef int64_t *heap = NULL
    cdef coin_t *heads = NULL
    cdef coin_t fruitless = 0, total = 0
    cdef int status = OK
    values = _padded(<coin_t *> malloc((total_coins + 2) * sizeof(coin_t)))
    segments = <int64_t *> malloc((total_coins + 1) * sizeof(int64_t))
    components = <Component *> malloc(ksize * sizeof(Component))
    heap = <int64_t *> malloc(ksize * sizeof(int64_t))
    heads = <coin_t *> malloc(ksize * sizeof(coin_t))
    if (values == NULL or segments == NULL or components == NULL or heap == NULL
            or heads == NULL):
        status = NO_MEMORY
    else:
        status = _reduce_all_into(coins, starts, stops, n_rows, values, segments,
                                  components, &fruitless, bad_index, True)
    if status == OK or status == OVERFLOW:
        if _greedy(k, components, values, segments, heap, heads, &total,
                   out_component, out_coin if total_coins > 0 else NULL, out_end) == OVERFLOW:
            status = OVERFLOW
        if add_checked(total, fruitless, &total) or not _is_finite(total):
            status = OVERFLOW
    if values != NULL:
        free(values - 2)
    free(segments)
    free(components)
    free(heap)
    free(heads)
    value[0] = total
    return status


def game_play(const coin_t[::1] coins, const int64_t[::1] starts,
              const int64_t[::1] stops, Py_ssize_t n_rows,
              int64_t[::1] out_component, int64_t[::1] out_coin, uint8_t[::1] out_end):
    """Write a whole optimal play into the output buffers: ``(status, value or bad index)``.

    Turn t takes coin ``out_coin[t]`` (an index in ``coins``) of component
    ``out_component[t]`` from end ``out_end[t]`` (an ``End``). Every move is optimal at the
    position where it is made. O(n log k) time, O(n) memory.
    """
    cdef int64_t total_coins = _total_coins(starts, stops), bad_index = -1
    cdef coin_t value = 0
    cdef int status = OK
    if (out_component.shape[0] < total_coins or out_coin.shape[0] < total_coins
            or out_end.shape[0] < total_coins):
        raise ValueError("output buffers are shorter than the game")
    if total_coins == 0:
        return Status.OK, value
    with nogil:
        status = _game_play(coins, starts, stops, n_rows, total_coins, &out_component[0],
                            &out_coin[0], &out_end[0], &value, &bad_index)
    if status == NO_MEMORY:
        raise MemoryError()
    if status == NOT_FINITE:
        return Status.NOT_FINITE, bad_index
    return Status(status), value


def game_profits(const coin_t[::1] coins, const int64_t[::1] starts,
                 const int64_t[::1] stops, Py_ssize_t n_rows):
    """What each player collects: ``(status, (first, second) or bad flat index)``.

    int64: first = (sum + value) / 2, exact (every sum checked). float64: the coins each
    player takes in the optimal play, each total summed exactly and rounded once (so
    ``first`` is what math.fsum of her coins gives); OVERFLOW when a total, or an
    intermediate sum, is beyond the float range. O(n) for one row, O(n log k) otherwise.
    """
    cdef int64_t total_coins = _total_coins(starts, stops), bad_index = -1, p
    cdef Py_ssize_t c, k = starts.shape[0]
    cdef coin_t value = 0, total = 0, twice, first = 0, second = 0
    cdef double *values = NULL
    cdef int64_t *segments = NULL
    cdef int64_t *play = NULL
    cdef int status = OK
    cdef bint ovf = False
    if total_coins == 0:
        return Status.OK, (first, second)
    with nogil:
        if coin_t is int64_t:
            status = _game_value(coins, starts, stops, n_rows, total_coins, &value,
                                 &bad_index)
            for c in range(k):
                for p in range(starts[c], stops[c]):
                    ovf |= add_checked(total, coins[p], &total)
            # sum + value is twice what the first player takes: even, so halving is exact.
            ovf |= add_checked(total, value, &twice)
            first = twice // 2
            ovf |= sub_checked(total, first, &second)
            if ovf and status == OK:
                status = OVERFLOW
        elif k == 1 and n_rows == 1:
            values = <double *> malloc(total_coins * sizeof(double))
            segments = <int64_t *> malloc(total_coins * sizeof(int64_t))
            if values == NULL or segments == NULL:
                status = NO_MEMORY
            else:
                bad_index = _first_not_finite(coins, starts[0], stops[0])
                if bad_index >= 0:
                    status = NOT_FINITE
                else:
                    status = _one_row_float_profits(coins, starts[0], stops[0], values,
                                                    segments, &first, &second, 0.0)
        else:
            play = <int64_t *> malloc(total_coins * sizeof(int64_t))
            if play == NULL:
                status = NO_MEMORY
            else:
                status = _game_play(coins, starts, stops, n_rows, total_coins, NULL, play,
                                    NULL, &value, &bad_index)
                if status == OK:
                    status = _play_float_profits(coins, play, total_coins, &first, &second)
        free(values)
        free(segments)
        free(play)
    if status == NO_MEMORY:
        raise MemoryError()
    if status == NOT_FINITE:
        return Status.NOT_FINITE, bad_index
    return Status(status), (first, second)


def check_finite(const coin_t[::1] coins):
    """``(NOT_FINITE, index)`` of the first NaN or infinity, else ``(OK, None)``. O(n)."""
    cdef int64_t bad = -1
    if coin_t is double:
        with nogil:
            bad = _first_not_finite(coins, 0, coins.shape[0])
    if bad >= 0:
        return Status.NOT_FINITE, bad
    return Status.OK, None


# ---------------------------------------------------------------------------------------
# The exact twins: the same algorithm on Python numbers. On ints, Fraction and Decimal they
# are exact; on Python floats they round as the loops above do (same operations, same order),
# and report OVERFLOW where those would.

def check_finite_exact(list coins):
    """``check_finite`` on Python numbers."""
    cdef Py_ssize_t p
    for p in range(len(coins)):
        if type(coins[p]) is float and not isfinite(coins[p]):
            return Status.NOT_FINITE, p
    return Status.OK, None


cdef inline object _zero_of(list coins):
    """The zero that sums of these coins start at: 0.0 for Python floats, 0 otherwise.
    (Cython adds an int 0 to a float by returning the float itself, which keeps a -0.0
    that IEEE addition, 0.0 + -0.0, turns into 0.0; the machine kernels start at 0.0.)"""
    return 0.0 if len(coins) and type(coins[0]) is float else 0


cdef inline bint _overflowed(object x):
    """A Python float that left the float range (an infinity or a NaN)."""
    return type(x) is float and not isfinite(x)


cdef tuple _reduce_all_exact(list coins, const int64_t[::1] starts, const int64_t[::1] stops,
                             Py_ssize_t n_rows, bint want_segments):
    """Fusion and Fruitless on Python numbers; see ``_reduce_all_into``.

    Returns ``(fruitless, reduced)``: for each component a list
    ``[values, segments, left, right, stop, tail]``.
    """
    cdef Py_ssize_t k = starts.shape[0], c
    cdef int64_t n = 0, p, start, stop, top, seg, tail
    cdef list values, segments, reduced = []
    cdef object v, fruitless = _zero_of(coins), t
    cdef bint n_odd
    for c in range(k):
        n += stops[c] - starts[c]
    n_odd = n & 1
    for c in range(k):
        start = starts[c]
        stop = stops[c]
        values = []
        segments = []
        for p in range(start, stop):
            v = coins[p]
            seg = p
            top = len(values)
            while top >= 2 and values[top - 2] <= values[top - 1] and values[top - 1] > v:
                v = (values[top - 2] - values[top - 1]) + v
                seg = segments[top - 2]
                top -= 2
                del values[top:]
                del segments[top:]
            values.append(v)
            segments.append(seg)
        top = len(values)
        tail = stop
        if c >= n_rows:
            while top >= 2 and values[top - 2] <= values[top - 1]:
                t = values[top - 2] - values[top - 1]
                fruitless = fruitless - t if n_odd else fruitless + t
                top -= 2
            if top < len(values):
                tail = segments[top]
        reduced.append([values, segments if want_segments else None, 0, top - 1, stop, tail])
    return fruitless, reduced


cdef inline object _head_exact(list values, int64_t left, int64_t right, bint is_stack):
    if is_stack or values[left] >= values[right]:
        return values[left]
    return values[right]


cdef object _greedy_exact(list reduced, Py_ssize_t n_rows, object total, list play):
    """Greedy phase on Python numbers; see ``_greedy``. Appends ``(component, coin, end)``
    moves to ``play`` if it is not None."""
    cdef list heap = [], values, segments, comp
    cdef Py_ssize_t c, k = len(reduced)
    cdef int64_t left, right, e, seg_lo, seg_hi, p
    cdef bint plus = True, from_left, is_stack
    cdef int end_code
    for c in range(k):
        comp = reduced[c]
        values = comp[0]
        left = comp[2]
        right = comp[3]
        if left <= right:
            heap.append((-_head_exact(values, left, right, c >= n_rows), c))
    heapq.heapify(heap)
    while heap:
        c = heapq.heappop(heap)[1]
        comp = reduced[c]
        values = comp[0]
        left = comp[2]
        right = comp[3]
        is_stack = c >= n_rows
        from_left = is_stack or values[left] >= values[right]
        if from_left:
            e = left
            left += 1
        else:
            e = right
            right -= 1
        comp[2] = left
        comp[3] = right
        total = total + values[e] if plus else total - values[e]
        plus = not plus
        if play is not None:
            segments = comp[1]
            seg_lo = segments[e]
            seg_hi = segments[e + 1] if e + 1 < len(segments) else comp[4]
            end_code = TOP if is_stack else (LEFT if from_left else RIGHT)
            if from_left:
                for p in range(seg_lo, seg_hi):
                    play.append((c, p, end_code))
            else:
                for p in range(seg_hi - 1, seg_lo - 1, -1):
                    play.append((c, p, end_code))
        if left <= right:
            heapq.heappush(heap, (-_head_exact(values, left, right, is_stack), c))
    if play is not None:
        for c in range(n_rows, k):
            comp = reduced[c]
            for p in range(comp[5], comp[4]):
                play.append((c, p, TOP))
    return total


cdef object _value_exact(list coins, const int64_t[::1] starts, const int64_t[::1] stops,
                         Py_ssize_t n_rows):
    cdef Py_ssize_t k = starts.shape[0]
    cdef list values, entries, taken
    cdef int64_t left, right
    cdef int player = 0
    cdef object x, y, zero = _zero_of(coins), total = zero
    fruitless, reduced = _reduce_all_exact(coins, starts, stops, n_rows, False)
    if k == 1 and n_rows == 1:
        # As _one_row_greedy: each player's total, then their difference.
        values, left, right = reduced[0][0], reduced[0][2], reduced[0][3]
        taken = [zero, zero]
        while left <= right:
            x = values[left]
            y = values[right]
            if x >= y:
                left += 1
            else:
                x = y
                right -= 1
            taken[player] = taken[player] + x
            player ^= 1
        total = taken[0] - taken[1]
    else:
        # As _alternating_sum_sorted: every remaining entry, largest first.
        entries = []
        for comp in reduced:
            entries.extend(comp[0][comp[2]:comp[3] + 1])
        entries.sort(reverse=True)
        for x in entries:
            total = total + x if player == 0 else total - x
            player ^= 1
    return total + fruitless


def game_value_exact(list coins, const int64_t[::1] starts, const int64_t[::1] stops,
                     Py_ssize_t n_rows):
    """``game_value`` on Python numbers (ints of any size, floats, Fraction, Decimal)."""
    _total_coins(starts, stops)
    if starts.shape[0] == 0:
        return Status.OK, _zero_of(coins)
    status, bad = check_finite_exact(coins)
    if status != OK:
        return status, bad
    value = _value_exact(coins, starts, stops, n_rows)
    if _overflowed(value):
        return Status.OVERFLOW, None
    return Status.OK, value


cdef tuple _play_exact(list coins, const int64_t[::1] starts, const int64_t[::1] stops,
                       Py_ssize_t n_rows):
    """``(value, [(component, coin, end), ...])`` on Python numbers."""
    cdef list play = []
    fruitless, reduced = _reduce_all_exact(coins, starts, stops, n_rows, True)
    value = _greedy_exact(reduced, n_rows, _zero_of(coins), play) + fruitless
    return value, play


def game_play_exact(list coins, const int64_t[::1] starts, const int64_t[::1] stops,
                    Py_ssize_t n_rows, int64_t[::1] out_component, int64_t[::1] out_coin,
                    uint8_t[::1] out_end):
    """``game_play`` on Python numbers: the same play, written to the same buffers."""
    cdef int64_t total_coins = _total_coins(starts, stops), t
    if (out_component.shape[0] < total_coins or out_coin.shape[0] < total_coins
            or out_end.shape[0] < total_coins):
        raise ValueError("output buffers are shorter than the game")
    if total_coins == 0:
        return Status.OK, _zero_of(coins)
    status, bad = check_finite_exact(coins)
    if status != OK:
        return status, bad
    value, play = _play_exact(coins, starts, stops, n_rows)
    if _overflowed(value):
        return Status.OVERFLOW, None
    for t in range(total_coins):
        out_component[t], out_coin[t], out_end[t] = play[t]
    return Status.OK, value


cdef object _owner_fsum(list coins, list play):
    """Each player's coins of a play of Python floats, as math.fsum adds them."""
    try:
        return (math.fsum([coins[move[1]] for move in play[0::2]]),
                math.fsum([coins[move[1]] for move in play[1::2]]))
    except OverflowError:  # an intermediate sum beyond the float range
        return None


def game_profits_exact(list coins, const int64_t[::1] starts, const int64_t[::1] stops,
                       Py_ssize_t n_rows):
    """``game_profits`` on Python numbers. Exact numbers: (sum + value) / 2 and the rest
    (ints halve exactly, Fraction and Decimal divide exactly); Python floats: each player's
    coins of the play, as math.fsum adds them."""
    cdef Py_ssize_t c
    cdef object total = _zero_of(coins)
    total_coins = _total_coins(starts, stops)
    if total_coins == 0:
        return Status.OK, (total, total)
    status, bad = check_finite_exact(coins)
    if status != OK:
        return status, bad
    if type(_first_coin(coins, starts, stops)) is float:
        value, play = _play_exact(coins, starts, stops, n_rows)
        profits = _owner_fsum(coins, play)
        if (profits is None or _overflowed(value) or _overflowed(profits[0])
                or _overflowed(profits[1])):
            return Status.OVERFLOW, None
        return Status.OK, profits
    value = _value_exact(coins, starts, stops, n_rows)
    for c in range(starts.shape[0]):
        for p in range(starts[c], stops[c]):
            total = total + coins[p]
    if type(total) is int:
        first = (total + value) // 2
    else:
        first = (total + value) / 2
    return Status.OK, (first, total - first)


cdef object _first_coin(list coins, const int64_t[::1] starts, const int64_t[::1] stops):
    cdef Py_ssize_t c
    for c in range(starts.shape[0]):
        if starts[c] < stops[c]:
            return coins[starts[c]]
    return 0
