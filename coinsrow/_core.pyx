# cython: language_level=3
"""The compiled loops of coinsrow: Fusion and Fruitless reductions, the Greedy merge.

Only loops live here; input checks, result types and errors are in the Python wrappers.

A game is given as one flat buffer of coins and, for each component, the half-open range
``[starts[c], stops[c])`` of its coins in that buffer. Components ``0 .. n_rows - 1`` are rows
(take from either end); the rest are stacks (take from ``starts[c]`` only, the top).

The int64 and float64 kernels share one fused implementation. int64 arithmetic is checked:
an overflow is reported with ``STATUS_OVERFLOW`` and the wrapper redoes the game on Python
ints with the ``*_objects`` kernels, which run the same algorithm on any Python numbers.
"""

from libc.stdint cimport int64_t, uint8_t, uint64_t
from libc.string cimport memcpy, memset
from libc.math cimport isfinite
# Scratch memory comes from Python's raw allocator: safe without the GIL, and seen by
# tracemalloc, so the memory benchmarks measure the kernels' scratch too.
from cpython.mem cimport PyMem_RawMalloc as malloc, PyMem_RawFree as free
import heapq

cdef extern from *:
    """
    #include <stdint.h>
    #if defined(__GNUC__) || defined(__clang__)
    static inline int coinsrow_add_overflow(int64_t a, int64_t b, int64_t *r) {
        return __builtin_add_overflow(a, b, r);
    }
    static inline int coinsrow_sub_overflow(int64_t a, int64_t b, int64_t *r) {
        return __builtin_sub_overflow(a, b, r);
    }
    #else
    /* Portable version (MSVC): unsigned arithmetic wraps without undefined behaviour. */
    static inline int coinsrow_add_overflow(int64_t a, int64_t b, int64_t *r) {
        int64_t s = (int64_t)((uint64_t)a + (uint64_t)b);
        *r = s;
        return ((a >= 0) == (b >= 0)) && ((s >= 0) != (a >= 0));
    }
    static inline int coinsrow_sub_overflow(int64_t a, int64_t b, int64_t *r) {
        int64_t s = (int64_t)((uint64_t)a - (uint64_t)b);
        *r = s;
        return ((a >= 0) != (b >= 0)) && ((s >= 0) != (a >= 0));
    }
    #endif
    #if defined(__GNUC__) || defined(__clang__)
    #define coinsrow_unlikely(x) __builtin_expect(!!(x), 0)
    #else
    #define coinsrow_unlikely(x) (x)
    #endif
    """
    bint coinsrow_unlikely(bint x) noexcept nogil
    bint coinsrow_add_overflow(int64_t a, int64_t b, int64_t *r) noexcept nogil
    bint coinsrow_sub_overflow(int64_t a, int64_t b, int64_t *r) noexcept nogil


ctypedef fused coin_t:
    int64_t
    double

# Kernel status codes, read by the wrappers.
STATUS_OK = 0
STATUS_OVERFLOW = 1
STATUS_NOT_FINITE = 2

# End codes of a move in the play kernels' output.
END_LEFT = 0
END_RIGHT = 1
END_TOP = 2

cdef enum:
    _OK = 0
    _OVERFLOW = 1
    _NOT_FINITE = 2
    _NO_MEMORY = 3


cdef inline bint _add(coin_t a, coin_t b, coin_t *r) noexcept nogil:
    """r = a + b; true on int64 overflow (never for float64)."""
    if coin_t is int64_t:
        return coinsrow_add_overflow(a, b, r)
    else:
        r[0] = a + b
        return False


cdef inline bint _sub(coin_t a, coin_t b, coin_t *r) noexcept nogil:
    """r = a - b; true on int64 overflow (never for float64)."""
    if coin_t is int64_t:
        return coinsrow_sub_overflow(a, b, r)
    else:
        r[0] = a - b
        return False


cdef struct Component:
    int64_t first     # index in the scratch arrays of the first reduced entry
    int64_t left      # next entry available from the left (rows) or the top (stacks)
    int64_t right     # last entry still available (inclusive); left > right when exhausted
    int64_t fused_end # one past the last entry after Fusion (before Fruitless)
    int64_t stop      # one past the component's last coin
    int64_t tail      # first coin of a stack's Fruitless tail (== stop when there is none)
    bint is_stack


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
        # Fusion: x <= M >= v with x = second, M = first.
        while coinsrow_unlikely((second <= first) & (first >= v) & (sp >= deep)):
            # int64: the overflow flags are accumulated, not branched on.
            ovf |= _sub(second, first, &t)
            ovf |= _add(t, v, &v)
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


cdef int64_t _first_not_finite(const double[::1] coins, int64_t start, int64_t stop) noexcept nogil:
    cdef int64_t p
    for p in range(start, stop):
        if not isfinite(coins[p]):
            return p
    return -1


cdef int _reduce_all(const coin_t[::1] coins, const int64_t[::1] starts,
                     const int64_t[::1] stops, Py_ssize_t n_rows,
                     coin_t *values, int64_t *segments, Component *components,
                     coin_t *fruitless, int64_t *bad_index) noexcept nogil:
    """Fusion on every component, Fruitless at the bottom of every stack.

    Fills ``components`` and adds the Fruitless terms to ``fruitless[0]``. Component c's
    reduced entries are at values[starts[c]:] (``_reduce_all_into`` can pack them).
    """
    return _reduce_all_into(coins, starts, stops, n_rows, values, segments, components,
                            fruitless, bad_index, False)


cdef int _reduce_all_into(const coin_t[::1] coins, const int64_t[::1] starts,
                          const int64_t[::1] stops, Py_ssize_t n_rows,
                          coin_t *values, int64_t *segments, Component *components,
                          coin_t *fruitless, int64_t *bad_index, bint packed) noexcept nogil:
    """``_reduce_all``; with ``packed``, the components' reduced entries are written one
    after the other from values[0], so ``values`` and ``segments`` need room for the
    game's coins only (sum of stops - starts), not for the whole buffer; ``values`` must
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
                return _NOT_FINITE
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
                ovf |= _sub(values[top - 2], values[top - 1], &t)
                if n_odd:
                    ovf |= _sub(fruitless[0], t, fruitless)
                else:
                    ovf |= _add(fruitless[0], t, fruitless)
                top -= 2
            if segments != NULL and top < comp.fused_end:
                comp.tail = segments[top]
        comp.right = top - 1
        # Entries removed by Fruitless stay where they are: the play reads their segments.
        base = comp.fused_end
    return _OVERFLOW if ovf else _OK


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
            ovf |= _add(total[0], x, total)
        else:
            ovf |= _sub(total[0], x, total)
        plus = not plus
        if out_coin != NULL:
            seg_lo = segments[e]
            seg_hi = segments[e + 1] if e + 1 < comp.fused_end else comp.stop
            end_code = 2 if comp.is_stack else (0 if from_left else 1)
            if from_left:
                for p in range(seg_lo, seg_hi):
                    out_component[turn] = c
                    out_coin[turn] = p
                    out_end[turn] = end_code
                    turn += 1
            else:
                p = seg_hi
                while p > seg_lo:
                    p -= 1
                    out_component[turn] = c
                    out_coin[turn] = p
                    out_end[turn] = end_code
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
                out_component[turn] = c
                out_coin[turn] = p
                out_end[turn] = 2
                turn += 1
    return _OVERFLOW if ovf else _OK


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
            return _NO_MEMORY
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
            ovf |= _add(total[0], x, total)
        else:
            ovf |= _sub(total[0], x, total)
        plus = not plus
    free(spare)
    return _OVERFLOW if ovf else _OK


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
        ovf |= _add(taken[player], x, &taken[player])
        player ^= 1
    ovf |= _sub(taken[0], taken[1], &result)
    overflow[0] |= ovf
    return result


def game_value(const coin_t[::1] coins, const int64_t[::1] starts,
               const int64_t[::1] stops, Py_ssize_t n_rows):
    """Value of the game for the player to move: ``(status, value, bad_index)``.

    O(n) for one row (two-pointer merge of its two sorted runs); for k components, O(n)
    too: the reduced entries of all components are radix-sorted (see
    ``_alternating_sum_sorted``), which beats the O(n log k) heap merge the play uses.
    Extra memory: one coin per coin of the game (n = the sum of stops - starts), plus
    O(k); for k > 1, at most n + m machine words at the peak, m <= n reduced entries (their
    keys are gathered, the coins' scratch freed, then the sort's spare keys allocated).
    """
    cdef Py_ssize_t k = starts.shape[0], c
    cdef int64_t total_coins = 0
    cdef coin_t *values = NULL
    cdef Component *components = NULL
    cdef coin_t fruitless = 0, total = 0
    cdef int64_t bad_index = -1, m
    cdef uint64_t *keys = NULL
    cdef int status = _OK, result
    cdef bint ovf = False
    if stops.shape[0] != k:
        raise ValueError("starts and stops differ in length")
    if k == 0:
        return STATUS_OK, 0, -1
    for c in range(k):
        total_coins += stops[c] - starts[c]
    with nogil:
        values = _padded(<coin_t *> malloc((total_coins + 2) * sizeof(coin_t)))
        components = <Component *> malloc(k * sizeof(Component))
        if values == NULL or components == NULL:
            status = _NO_MEMORY
        else:
            status = _reduce_all_into(coins, starts, stops, n_rows, values, NULL, components,
                                      &fruitless, &bad_index, True)
        if status == _OK or status == _OVERFLOW:
            if k == 1 and n_rows == 1:
                total = _one_row_greedy(values, components[0].left, components[0].right, &ovf)
            else:
                m = _gather_keys(k, components, values, NULL)
                keys = <uint64_t *> malloc((m if m > 0 else 1) * sizeof(uint64_t))
                if keys == NULL:
                    status = _NO_MEMORY
                else:
                    _gather_keys(k, components, values, keys)
                    # The reduced entries are all in keys now: give the scratch back first.
                    free(values - 2)
                    values = NULL
                    result = _alternating_sum_sorted(keys, m, &total, &fruitless)
                    if result == _NO_MEMORY:
                        status = _NO_MEMORY
                    ovf |= result == _OVERFLOW
            ovf |= _add(total, fruitless, &total)
            if ovf and status == _OK:
                status = _OVERFLOW
        if values != NULL:
            free(values - 2)
        free(components)
        free(keys)
    if status == _NO_MEMORY:
        raise MemoryError()
    return status, total, bad_index


def game_play(const coin_t[::1] coins, const int64_t[::1] starts,
              const int64_t[::1] stops, Py_ssize_t n_rows,
              int64_t[::1] out_component, int64_t[::1] out_coin, uint8_t[::1] out_end):
    """Write a whole optimal play into the output buffers: ``(status, value, bad_index)``.

    Turn t takes coin ``out_coin[t]`` (an index in ``coins``) of component
    ``out_component[t]`` from end ``out_end[t]`` (END_LEFT, END_RIGHT or END_TOP).
    Every move is optimal at the position where it is made. O(n log k) time, O(n) memory.
    """
    cdef Py_ssize_t k = starts.shape[0]
    cdef int64_t total_coins = 0
    cdef Py_ssize_t c
    cdef coin_t *values = NULL
    cdef int64_t *segments = NULL
    cdef Component *components = NULL
    cdef int64_t *heap = NULL
    cdef coin_t *heads = NULL
    cdef coin_t fruitless = 0, total = 0
    cdef int64_t bad_index = -1
    cdef int status = _OK
    if stops.shape[0] != k:
        raise ValueError("starts and stops differ in length")
    for c in range(k):
        total_coins += stops[c] - starts[c]
    if (out_component.shape[0] < total_coins or out_coin.shape[0] < total_coins
            or out_end.shape[0] < total_coins):
        raise ValueError("output buffers are shorter than the game")
    if k == 0:
        return STATUS_OK, 0, -1
    with nogil:
        values = _padded(<coin_t *> malloc((total_coins + 2) * sizeof(coin_t)))
        segments = <int64_t *> malloc((total_coins + 1) * sizeof(int64_t))
        components = <Component *> malloc(k * sizeof(Component))
        heap = <int64_t *> malloc(k * sizeof(int64_t))
        heads = <coin_t *> malloc(k * sizeof(coin_t))
        if (values == NULL or segments == NULL or components == NULL or heap == NULL
                or heads == NULL):
            status = _NO_MEMORY
        else:
            status = _reduce_all_into(coins, starts, stops, n_rows, values, segments,
                                      components, &fruitless, &bad_index, True)
        if status == _OK or status == _OVERFLOW:
            if _greedy(k, components, values, segments, heap, heads, &total,
                       &out_component[0] if total_coins > 0 else NULL,
                       &out_coin[0] if total_coins > 0 else NULL,
                       &out_end[0] if total_coins > 0 else NULL) == _OVERFLOW:
                status = _OVERFLOW
            if _add(total, fruitless, &total):
                status = _OVERFLOW
        if values != NULL:
            free(values - 2)
        free(segments)
        free(components)
        free(heap)
        free(heads)
    if status == _NO_MEMORY:
        raise MemoryError()
    return status, total, bad_index


def game_sum(const coin_t[::1] coins, const int64_t[::1] starts, const int64_t[::1] stops):
    """Sum of the coins of every component: ``(status, sum)``; int64 overflow is reported."""
    cdef Py_ssize_t k = starts.shape[0], c
    cdef int64_t p
    cdef coin_t total = 0
    cdef bint ovf = False
    if stops.shape[0] != k:
        raise ValueError("starts and stops differ in length")
    with nogil:
        for c in range(k):
            for p in range(starts[c], stops[c]):
                ovf |= _add(total, coins[p], &total)
    return (STATUS_OVERFLOW if ovf else STATUS_OK), total


# ---------------------------------------------------------------------------------------
# The same algorithm on Python numbers: exact for ints of any size, Fraction and Decimal.
# Used when int64 overflows and for inputs that are not machine numbers.

cdef tuple _reduce_all_objects(list coins, const int64_t[::1] starts, const int64_t[::1] stops,
                               Py_ssize_t n_rows, bint want_segments):
    """Fusion and Fruitless on Python numbers; see ``_reduce_all``.

    Returns ``(fruitless, reduced)``: for each component a list
    ``[values, segments, left, right, stop, tail]``.
    """
    cdef Py_ssize_t k = starts.shape[0], c
    cdef int64_t n = 0, p, start, stop, top, seg
    cdef list values, segments, reduced = []
    cdef object v, fruitless = 0, t
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
            while top >= 2 and values[top - 2] <= values[top - 1] and values[top - 1] >= v:
                v = values[top - 2] - values[top - 1] + v
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


cdef object _greedy_objects(list reduced, Py_ssize_t n_rows, object total, list play):
    """Greedy phase on Python numbers; see ``_greedy``. Appends moves to ``play`` if given."""
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
            heap.append((-_head_objects(values, left, right, c >= n_rows), c))
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
            end_code = END_TOP if is_stack else (END_LEFT if from_left else END_RIGHT)
            if from_left:
                for p in range(seg_lo, seg_hi):
                    play.append((c, p, end_code))
            else:
                for p in range(seg_hi - 1, seg_lo - 1, -1):
                    play.append((c, p, end_code))
        if left <= right:
            heapq.heappush(heap, (-_head_objects(values, left, right, is_stack), c))
    if play is not None:
        for c in range(n_rows, k):
            comp = reduced[c]
            for p in range(comp[5], comp[4]):
                play.append((c, p, END_TOP))
    return total


cdef inline object _head_objects(list values, int64_t left, int64_t right, bint is_stack):
    if is_stack or values[left] >= values[right]:
        return values[left]
    return values[right]


def game_value_objects(list coins, const int64_t[::1] starts, const int64_t[::1] stops,
                       Py_ssize_t n_rows):
    """``game_value`` on Python numbers (ints of any size, Fraction, Decimal): the value."""
    fruitless, reduced = _reduce_all_objects(coins, starts, stops, n_rows, False)
    return _greedy_objects(reduced, n_rows, 0, None) + fruitless


def game_play_objects(list coins, const int64_t[::1] starts, const int64_t[::1] stops,
                      Py_ssize_t n_rows):
    """``game_play`` on Python numbers: ``(value, [(component, coin, end), ...])``."""
    cdef list play = []
    fruitless, reduced = _reduce_all_objects(coins, starts, stops, n_rows, True)
    value = _greedy_objects(reduced, n_rows, 0, play) + fruitless
    return value, play


# ---------------------------------------------------------------------------------------
# Further loops, one file each, compiled into this module so they share the kernels above.

include "_cooperative.pxi"
include "_window.pxi"
include "_batch.pxi"
include "_forest.pxi"
