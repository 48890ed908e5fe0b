# coinsrow._core._rows: rows and stacks. Fusion and Fruitless reductions, the Greedy merge,
# the optimal play and the profits (docs/algorithm.md).
#
# A game is given as one flat buffer of coins and, for each component, the half-open range
# ``[starts[c], stops[c])`` of its coins in that buffer. Components ``0 .. n_rows - 1`` are
# rows (take from either end); the rest are stacks (take from ``starts[c]`` only, the top).

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
from coinsrow._core._fsum cimport ExactSum, exact_sum_init, exact_sum_add, exact_sum_result

import heapq
import math
from fractions import Fraction as _Fraction  # private: not a kernel of the module
from libc.string cimport memcpy, memmove, memset
from libc.math cimport isfinite, ldexp, INFINITY
from libc.stdint cimport INT64_MAX
from cpython.mem cimport PyMem_RawRealloc
from cpython.exc cimport PyErr_CheckSignals, PyErr_Occurred
from itertools import repeat as _repeat
from concurrent.futures import ThreadPoolExecutor as _RowPool
from array import array as _row_array
from cpython cimport array as _cpython_array

# The type of the moves ``row_play`` returns (cloned without being zeroed first).
cdef _cpython_array.array _MOVES_TEMPLATE = _row_array("q")


# Variants of the Fusion loop, chosen at compile time (one specialisation each): a NULL
# pointer of type Wanted or NotWanted says whether the loop keeps the coins' total, the
# segments, the runs, whether the scratch is padded.
cdef struct Wanted:
    char unused

cdef struct NotWanted:
    char unused

ctypedef fused total_t:
    Wanted
    NotWanted

ctypedef fused segments_t:
    Wanted
    NotWanted

ctypedef fused runs_t:
    Wanted
    NotWanted

ctypedef fused padded_t:
    Wanted
    NotWanted




cdef int64_t _first_not_finite(const double[::1] coins, int64_t start, int64_t stop) noexcept nogil:
    cdef int64_t p
    for p in range(start, stop):
        if not isfinite(coins[p]):
            return p
    return -1




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

    ``padded``: values[base - 2] and values[base - 1] are readable (values has two entries
    before values[0]); otherwise the reload after a fusion reads values[base] there
    instead (two conditional moves, a little slower). Each combination of ``padded`` and
    ``segments`` runs its own compiled loop (``_reduce_loop``).
    """
    if segments != NULL:
        if padded:
            return _reduce_loop(coins, start, stop, values, base, segments, overflow,
                                <Wanted *> NULL, <Wanted *> NULL)
        return _reduce_loop(coins, start, stop, values, base, segments, overflow,
                            <Wanted *> NULL, <NotWanted *> NULL)
    if padded:
        return _reduce_loop(coins, start, stop, values, base, NULL, overflow,
                            <NotWanted *> NULL, <Wanted *> NULL)
    return _reduce_loop(coins, start, stop, values, base, NULL, overflow,
                        <NotWanted *> NULL, <NotWanted *> NULL)


cdef int64_t _reduce_loop(const coin_t[::1] coins, int64_t start, int64_t stop,
                          coin_t *values, int64_t base, int64_t *segments, bint *overflow,
                          segments_t *segments_mode, padded_t *padded_mode) noexcept nogil:
    """The loop of ``_reduce_into``, compiled once for each variant (see Wanted).

    The two top entries are kept in registers; memory is read again only after a fusion.
    The fusion test is one branch (bitwise &, not three short-circuit branches), and the
    padded reload after a fusion has no branch: it reads the two entries below the top even
    where the depth is under 2 (the depth test masks them).
    """
    cdef coin_t *sp = values + base           # one past the top entry
    cdef coin_t *deep = values + base + 2     # a fusion needs two entries under the coin
    cdef coin_t v, t
    cdef coin_t first = 0, second = 0         # masked by the depth test until set
    cdef int64_t p, seg = 0, top
    cdef bint ovf = False
    for p in range(start, stop):
        v = coins[p]
        if segments_t is Wanted:
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
            if segments_t is Wanted:
                seg = segments[sp - values]
            if padded_t is Wanted:
                first = (sp - 1)[0]
                second = (sp - 2)[0]
            else:
                # Where the depth is under 2, values[base] (written before this fusion).
                top = sp - values
                first = values[top - 1 if top - 1 >= base else base]
                second = values[top - 2 if top - 2 >= base else base]
        if segments_t is Wanted:
            segments[sp - values] = seg
        sp[0] = v
        sp += 1
        second = first
        first = v
    overflow[0] |= ovf
    return sp - values




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






cdef int64_t _gather_keys(Py_ssize_t k, Component *components, double *values,
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
    for stop - start entries. OK or OVERFLOW (a sum beyond the float range).

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
    exact_sum_init(&sums[0])
    exact_sum_init(&sums[1])
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
    if not isfinite(total + 0.0) or not (isfinite(first[0]) and isfinite(second[0])):
        status = OVERFLOW
    return status


cdef int _play_float_profits(const double[::1] coins, int64_t *play, int64_t n,
                             double *first, double *second) noexcept nogil:
    """Each player's coins of a written play (coin indices, turn by turn), summed exactly
    and rounded once: the player to move takes the even turns."""
    cdef ExactSum sums[2]
    cdef int64_t t
    cdef int status = OK
    exact_sum_init(&sums[0])
    exact_sum_init(&sums[1])
    for t in range(n):
        exact_sum_add(&sums[t & 1], coins[play[t]])
    first[0] = exact_sum_result(&sums[0])
    second[0] = exact_sum_result(&sums[1])
    if not (isfinite(first[0]) and isfinite(second[0])):
        status = OVERFLOW
    return status


# ---------------------------------------------------------------------------------------
# One row: value, profits and play, the value in one pass over the coins, a long row in
# parts on several threads (docs/rows.md).
#
# The reduced row is a stack. Coins pushed without a Fusion are not written: a stretch of
# them is a run of coins (on sorted coins, where nothing fuses, the coins are read once and
# nothing is written). The other entries are written, one after the other in stack order,
# to the scratch ``values`` (the first coin of each one's run of coins in ``segments``): a
# run sits between the written entries ``values[:run.at]`` and ``values[run.at:]``. Only
# written entries touch memory, so a row that rarely fuses costs few pages. A Fusion that
# reaches into a run writes the run's last entries first.

cdef enum:
    # Coins reduced between two looks at Ctrl-C (or at a request to stop): a few ms.
    _ROW_STEP = 1 << 20
    # After a block of this many coins pushed without a Fusion, the next coins are scanned as
    # a run instead of being written (on random coins this hardly ever happens). The block
    # loop's exit is a mispredicted branch: one in 64 coins costs little.
    _RUN_AFTER = 64
    # The block after a long run (see _reduce_part).
    _RUN_PROBE = 8
    # The entries a Fusion reaching into a run writes the first time (then twice as many
    # each time): a tie on a descending stretch fuses once and no more, so most runs are
    # reached into only once.
    _REFILL_FIRST = 8
    # Coins scanned without a Fusion that stay a run; fewer are written (a run near the top
    # sends the Fusion loop to its slow path).
    _SHORT_RUN = 32
    # The coins of int64 profits' Fusion loop summed at a time (128 KiB: in the cache).
    _SUM_CHUNK = 1 << 14
    # Internal status: a signal handler raised (its exception is set), or the caller told
    # the worker threads to stop.
    _STOPPED = 5
    # Internal status of _stitch: the part's written entries must be read from a copy.
    _OVERTAKE = 6
    # The coins of each part a row on several threads samples first (_RowWork._mostly_runs).
    _SAMPLE_COINS = 1 << 13


cdef extern from *:
    """
    #if defined(_MSC_VER)
    #include <intrin.h>
    static inline int coinsrow_ctz64(uint64_t x) {
        unsigned long i; _BitScanForward64(&i, x); return (int)i;
    }
    #else
    static inline int coinsrow_ctz64(uint64_t x) { return __builtin_ctzll(x); }
    #endif
    /* A flag written by one thread and polled by others. */
    static inline int coinsrow_load_flag(const int *flag) {
        return *(const volatile int *)flag;
    }
    static inline void coinsrow_store_flag(int *flag, int value) {
        *(volatile int *)flag = value;
    }
    """
    int coinsrow_ctz64(uint64_t x) noexcept nogil
    int coinsrow_load_flag(const int *flag) noexcept nogil
    void coinsrow_store_flag(int *flag, int value) noexcept nogil


cdef extern from "Python.h":
    # Declared without an exception value: the caller sees -1 and returns _STOPPED, and the
    # kernel raises the exception the handler set (``_raise_pending``).
    int _pending_signals "PyErr_CheckSignals" ()


cdef int _raise_pending() except -1:
    """Raise the exception a signal handler set while a loop ran without the GIL."""
    if PyErr_Occurred() != NULL:
        return -1
    raise SystemError("a one-row kernel stopped without an exception")


cdef struct Run:
    int64_t at        # the written entries before it: values[:at]
    int64_t length    # its entries: the coins coin .. coin + length - 1
    int64_t coin
    int64_t written   # its last entries written so far by Fusions reaching into it
    int64_t pos       # its first entry's position in the stack (set by _place_runs)
    # int64 rows: the sum of its first ``alt_length`` coins with alternating signs, the
    # first added (known unless it overflowed or was not worth computing), so that the
    # Greedy phase adds a whole run without reading it again. (Fusions reaching into the
    # run shorten it, not ``alt_length``: what they took is subtracted when it is used.)
    int64_t alt
    int64_t alt_length
    bint alt_known


cdef struct RowStack:
    int64_t start     # the first coin reduced into it
    int64_t top       # number of entries
    int64_t written   # written entries: values[:written]
    Run *runs         # its runs, in stack order
    int64_t n_runs
    int64_t capacity
    bint overflow     # an int64 Fusion overflowed
    bint no_memory    # the runs could not grow


cdef struct RowSums:
    # int64 rows: sums of coins, checked (``overflow`` when one overflowed).
    int64_t even      # the coins of the unfused prefix at even offsets from its first coin
    int64_t odd       # ... at odd offsets
    int64_t rest      # the sum of the other coins (only when the total is wanted)
    bint overflow


cdef struct FloatSurvey:
    # float64 parts: what decides whether the order of the additions may change.
    int64_t bad       # first NaN or infinity (flat index), -1 if none
    int lowest        # every coin is a multiple of 2**lowest (1100 when all are zero)
    double magnitude  # the sum of |coin|, rounded


cdef int _add_run(RowStack *st, int64_t at, int64_t length, int64_t coin, int64_t alt,
                  bint alt_known) noexcept nogil:
    """Append a run of ``length`` coins from ``coin`` on, after values[:at] (continuing
    the top run when nothing is written after it and the coins continue it): OK or
    NO_MEMORY. ``alt``: the run's alternating sum (see Run), if ``alt_known``."""
    cdef Run *r
    cdef Run *grown
    cdef int64_t capacity
    if length <= 0:
        return OK
    if st.n_runs > 0:
        r = &st.runs[st.n_runs - 1]
        if r.at == at and r.coin + r.length == coin:
            if r.alt_known and alt_known and r.alt_length == r.length:
                # The new coins' signs start at the parity of the run's length.
                if r.length & 1:
                    r.alt_known = not sub_checked(r.alt, alt, &r.alt)
                else:
                    r.alt_known = not add_checked(r.alt, alt, &r.alt)
            else:
                r.alt_known = False
            r.length += length
            r.alt_length = r.length
            return OK
    if st.n_runs == st.capacity:
        capacity = 2 * st.capacity if st.capacity > 0 else 8
        grown = <Run *> PyMem_RawRealloc(st.runs, capacity * sizeof(Run))
        if grown == NULL:
            st.no_memory = True
            return NO_MEMORY
        st.runs = grown
        st.capacity = capacity
    r = &st.runs[st.n_runs]
    r.at = at
    r.length = length
    r.coin = coin
    r.written = 0
    r.pos = 0
    r.alt = alt
    r.alt_length = length
    r.alt_known = alt_known
    st.n_runs += 1
    return OK


cdef inline void _pad_below(void *values, bint floats) noexcept nogil:
    """Fill the two readable entries below entry 0 of a scratch stack with the largest
    number (int64 max, or +inf): reloaded under a lone entry e by the Fusion loop, the test
    ``max <= e`` fails unless e is that number itself (then the depth test catches it)."""
    # The entries below are reached by pointer arithmetic (Cython warns on negative indices).
    cdef int64_t *ints = <int64_t *> values - 2
    cdef double *doubles = <double *> values - 2
    if floats:
        doubles[0] = INFINITY
        doubles[1] = INFINITY
    else:
        ints[0] = INT64_MAX
        ints[1] = INT64_MAX


cdef inline int64_t _guard(RowStack *st) noexcept nogil:
    """The written entries the Fusion loop's fast path needs: four above the top run (none
    without runs: values[-2] and values[-1] stand for missing entries)."""
    if st.n_runs > 0:
        return st.runs[st.n_runs - 1].at + 4
    return -2


cdef int64_t _refill(const coin_t *coins, coin_t *values, int64_t *segments,
                     RowStack *st) noexcept nogil:
    """Write the top runs' last entries (with their segments) under the written entries
    above them, until four written entries are above the top run or no run is left;
    returns how many entries it wrote (``st.written`` grows by as much).

    The entries written from a run's end double each time a Fusion reaches into it again,
    so that Fusions eating into a long run soon take the fast path again, and a run is never
    written for much more than the Fusions eat of it.
    """
    cdef Run *r
    cdef int64_t above, block, e, moved = 0
    while st.n_runs > 0 and st.written - st.runs[st.n_runs - 1].at < 4:
        r = &st.runs[st.n_runs - 1]
        above = st.written - r.at
        block = r.written if r.written > _REFILL_FIRST else _REFILL_FIRST
        if block > r.length:
            block = r.length
        # The entries above the run move up, the run's last entries go under them.
        memmove(values + r.at + block, values + r.at, above * sizeof(coin_t))
        memcpy(values + r.at, coins + r.coin + r.length - block, block * sizeof(coin_t))
        if segments != NULL:
            memmove(segments + r.at + block, segments + r.at, above * sizeof(int64_t))
            for e in range(block):
                segments[r.at + e] = r.coin + r.length - block + e
        st.written += block
        moved += block
        r.length -= block
        r.written += block
        if r.length == 0:
            st.n_runs -= 1
    return moved


cdef coin_t _top_entry(const coin_t *coins, const coin_t *values, RowStack *st,
                       int64_t depth) noexcept nogil:
    """The entry ``depth`` below the top one (0: the top one); the stack has more."""
    cdef int64_t w = st.written, above
    cdef int64_t k = st.n_runs - 1
    while k >= 0:
        above = w - st.runs[k].at
        if depth < above:
            return values[w - 1 - depth]
        depth -= above
        if depth < st.runs[k].length:
            return coins[st.runs[k].coin + st.runs[k].length - 1 - depth]
        depth -= st.runs[k].length
        w = st.runs[k].at
        k -= 1
    return values[w - 1 - depth]


cdef inline int64_t _top_segment(const int64_t *segments, RowStack *st) noexcept nogil:
    """The first coin of the top entry's run of coins."""
    cdef Run *r
    if st.n_runs > 0:
        r = &st.runs[st.n_runs - 1]
        if r.at == st.written:
            return r.coin + r.length - 1
    return segments[st.written - 1]


cdef int64_t _unfused_scan(const coin_t *c, int64_t p, int64_t stop, coin_t prev,
                           bint down, RowSums *sums) noexcept nogil:
    """The first q in [p, stop) where coin c[q] fuses, or ``stop``: the two top entries
    of the stack are c[q - 2] and c[q - 1] (at p: ``prev`` on top, ``down`` if the entry
    under it is larger) and a Fusion happens at the first descent that follows a rise or a
    flat step. int64: adds each coin c[i], p <= i < q, to ``sums.even`` or ``sums.odd`` by
    the parity of i.

    Two coins a step: a rising (or flat) pair, or a falling pair after a descent, goes on
    after two compares (branches that a long monotone stretch makes predictable) and two
    additions (whose overflow tests are branches never taken): about as fast as reading
    the coins. Anything else is looked at coin by coin.
    """
    cdef int64_t here = 0, there = 0   # coins at p's parity, at the other one (pair loop)
    cdef int64_t parity = p & 1
    cdef coin_t x0, x1
    cdef bint ovf = False
    while True:
        while p + 1 < stop:
            x0 = c[p]
            x1 = c[p + 1]
            if prev <= x0:
                if x0 > x1:
                    break  # a Fusion at p + 1
                down = False
            elif down and x0 > x1:
                pass       # still falling
            else:
                break      # a Fusion at p (a descent after a rise), or a turn up at p + 1
            if coin_t is int64_t:
                if coinsrow_unlikely(add_checked(here, x0, &here)):
                    ovf = True
                if coinsrow_unlikely(add_checked(there, x1, &there)):
                    ovf = True
            prev = x1
            p += 2
        # One coin (a turn, or the last coin): then the pairs again.
        if p >= stop:
            break
        x0 = c[p]
        if (prev > x0) > down:
            break  # a Fusion at p
        down = prev > x0
        prev = x0
        if coin_t is int64_t:
            if coinsrow_unlikely(add_checked(here, x0, &here)):
                ovf = True
        p += 1
        # The pair loop's parities flip: ``here`` is now the other parity's sum.
        here, there = there, here
        parity ^= 1
    if coin_t is int64_t:
        if parity:
            ovf |= add_checked(sums.even, there, &sums.even)
            ovf |= add_checked(sums.odd, here, &sums.odd)
        else:
            ovf |= add_checked(sums.even, here, &sums.even)
            ovf |= add_checked(sums.odd, there, &sums.odd)
        sums.overflow |= ovf
    return p


cdef inline const coin_t *_zigzag(const coin_t *coins, const coin_t *z, const coin_t *limit,
                                  coin_t below, coin_t *top, bint *ovf, int64_t *total,
                                  RowSums *sums, int64_t shift,
                                  total_t *total_mode) noexcept nogil:
    """A zigzag after a Fusion: the Fusion left ``top[0]`` to be pushed, on an entry
    ``below``. If below > top (or top has fewer than two entries under it), then while the
    next two coins a, b satisfy top <= a > b, a goes on without fusing and b fuses it
    with top into top - a + b. That is smaller than top, so it fuses with nothing under it
    either: each pair costs two compares and two additions, without touching the stack
    (rows that alternate high and low coins are all such pairs). Takes pairs of coins
    from z on, below ``limit``; returns the first coin not taken. ``ovf``, ``total`` and
    ``sums`` as in _push_coins; of the pair z[0], z[1], the coin at an even index among
    z[shift] and z[shift + 1] is added to ``total`` (shift 1: the caller added the one
    before z, and the pair loop will not add z[0] when it is pushed; z[2] is then below
    ``limit``)."""
    cdef coin_t v = top[0], a, b, t
    cdef int64_t even
    if not (below > v):
        return z
    even = ((z + shift - coins) & 1) + shift   # the coin added: z[even]
    while z + 1 < limit:
        a = z[0]
        b = z[1]
        if not ((v <= a) & (a > b)):
            break
        if coinsrow_unlikely(sub_checked(v, a, &t)):
            ovf[0] = True
        if coinsrow_unlikely(add_checked(t, b, &v)):
            ovf[0] = True
        if coin_t is int64_t:
            if total_t is Wanted:
                if coinsrow_unlikely(add_checked(total[0], z[even], total)):
                    sums.overflow = True
        z += 2
    top[0] = v
    return z


cdef int64_t _push_coins(const coin_t *coins, int64_t p, int64_t stop, coin_t *values,
                         int64_t *segments, RowStack *st, RowSums *sums, int64_t block,
                         total_t *total_mode, segments_t *segments_mode,
                         runs_t *runs_mode) noexcept nogil:
    """Push coins from coins[p] on onto ``st``, each with Fusion: while x <= M > v for the
    two top entries x, M and the coin v, they become one, x - M + v. Each is written; stops
    at ``stop``, or after a block of ``block`` coins without a Fusion (the next coins are
    then scanned as a run): returns the next coin.

    The two top entries are kept in registers; memory is read again only after a Fusion,
    without a branch unless a run is near (values[-2] and values[-1] are readable). The
    depth is tested only once the Fusion test passes: below the stack are the largest
    numbers (``_pad_below``), so that an entry alone on the stack almost never passes it.
    The variant (``total_t`` etc., see Wanted) says whether the coins at even indices are
    added to ``sums.rest`` (int64), whether ``segments`` are written, whether ``st`` may
    have runs.
    """
    cdef coin_t *sp = values + st.written         # one past the top written entry
    cdef coin_t *guard = values + _guard(st)      # the fast path needs sp >= guard
    cdef coin_t *deep = values + 2 - (st.top - st.written)  # two entries under the coin
    cdef const coin_t *cp = coins + p
    cdef const coin_t *end = coins + stop
    cdef const coin_t *block_end
    cdef int64_t seg = 0, moved, even
    cdef coin_t v, t, first = 0, second = 0
    cdef int64_t total = 0
    cdef bint ovf = False, fused = True
    if st.top >= 1:
        first = _top_entry(coins, values, st, 0)
    if st.top >= 2:
        second = _top_entry(coins, values, st, 1)
    # After a block without a Fusion, the caller scans a run.
    while fused and cp < end:
        fused = False
        block_end = cp + block if end - cp > block else end
        even = (cp - coins) & 1
        # Two coins a step (the loop's own work halves; the roles of ``first`` and
        # ``second`` need no moves between the two).
        while cp + 1 < block_end:
            v = cp[0]
            if segments_t is Wanted:
                seg = cp - coins
            if coin_t is int64_t:
                if total_t is Wanted:
                    # The coin of the two at an even index (see RowSums.rest). Its overflow
                    # is stored at once, not kept in a register: a branch never taken,
                    # where a flag in a register slowed the loop on alternating high and
                    # low coins from about 10.4 ms to 11.5 ms (10^7 coins).
                    if coinsrow_unlikely(add_checked(total, cp[even], &total)):
                        sums.overflow = True
            # The Fusion test is one branch (bitwise &), taken rarely.
            if coinsrow_unlikely((second <= first) & (first > v)):
                while True:
                    if coinsrow_unlikely(sp < deep):
                        break  # fewer than two entries under the coin (see _pad_below)
                    fused = True
                    # int64: an overflow is rare, its test a branch never taken.
                    if coinsrow_unlikely(sub_checked(second, first, &t)):
                        ovf = True
                    if coinsrow_unlikely(add_checked(t, v, &v)):
                        ovf = True
                    if runs_t is Wanted and coinsrow_unlikely(sp < guard):
                        # The top entries are in a run: write its last ones first.
                        st.written = sp - values
                        moved = _refill(coins, values, segments, st)
                        sp += moved
                        deep += moved
                        guard = values + _guard(st)
                    sp -= 2
                    if segments_t is Wanted:
                        seg = segments[sp - values]
                    first = (sp - 1)[0]
                    second = (sp - 2)[0]
                    if not ((second <= first) & (first > v)):
                        break
                cp = _zigzag(coins, cp + 1, block_end - 1, first, &v, &ovf, &total, sums,
                             1, total_mode) - 1
            if segments_t is Wanted:
                segments[sp - values] = seg
            sp[0] = v
            sp += 1
            second = first
            first = v
            v = cp[1]
            if segments_t is Wanted:
                seg = cp + 1 - coins
            if coinsrow_unlikely((second <= first) & (first > v)):
                while True:
                    if coinsrow_unlikely(sp < deep):
                        break  # fewer than two entries under the coin (see _pad_below)
                    fused = True
                    # int64: an overflow is rare, its test a branch never taken.
                    if coinsrow_unlikely(sub_checked(second, first, &t)):
                        ovf = True
                    if coinsrow_unlikely(add_checked(t, v, &v)):
                        ovf = True
                    if runs_t is Wanted and coinsrow_unlikely(sp < guard):
                        # The top entries are in a run: write its last ones first.
                        st.written = sp - values
                        moved = _refill(coins, values, segments, st)
                        sp += moved
                        deep += moved
                        guard = values + _guard(st)
                    sp -= 2
                    if segments_t is Wanted:
                        seg = segments[sp - values]
                    first = (sp - 1)[0]
                    second = (sp - 2)[0]
                    if not ((second <= first) & (first > v)):
                        break
                cp = _zigzag(coins, cp + 2, block_end, first, &v, &ovf, &total, sums,
                             0, total_mode) - 2
            if segments_t is Wanted:
                segments[sp - values] = seg
            sp[0] = v
            sp += 1
            second = first
            first = v
            cp += 2
        if cp < block_end:
            v = cp[0]
            if segments_t is Wanted:
                seg = cp - coins
            if coin_t is int64_t:
                if total_t is Wanted:
                    if even == 0 and coinsrow_unlikely(add_checked(total, v, &total)):
                        sums.overflow = True
            # The Fusion test is one branch (bitwise &), taken rarely.
            if coinsrow_unlikely((second <= first) & (first > v)):
                while True:
                    if coinsrow_unlikely(sp < deep):
                        break  # fewer than two entries under the coin (see _pad_below)
                    fused = True
                    # int64: an overflow is rare, its test a branch never taken.
                    if coinsrow_unlikely(sub_checked(second, first, &t)):
                        ovf = True
                    if coinsrow_unlikely(add_checked(t, v, &v)):
                        ovf = True
                    if runs_t is Wanted and coinsrow_unlikely(sp < guard):
                        # The top entries are in a run: write its last ones first.
                        st.written = sp - values
                        moved = _refill(coins, values, segments, st)
                        sp += moved
                        deep += moved
                        guard = values + _guard(st)
                    sp -= 2
                    if segments_t is Wanted:
                        seg = segments[sp - values]
                    first = (sp - 1)[0]
                    second = (sp - 2)[0]
                    if not ((second <= first) & (first > v)):
                        break
                cp = _zigzag(coins, cp + 1, block_end, first, &v, &ovf, &total, sums,
                             0, total_mode) - 1
            if segments_t is Wanted:
                segments[sp - values] = seg
            sp[0] = v
            sp += 1
            second = first
            first = v
            cp += 1
    st.top = (sp - values) + (values + 2 - deep)
    st.written = sp - values
    st.overflow |= ovf
    if coin_t is int64_t:
        if total_t is Wanted:
            sums.overflow |= add_checked(sums.rest, total, &sums.rest)
    return cp - coins


cdef inline bint _fuses(int64_t second, int64_t first, int64_t v,
                        segments_t *segments_mode) noexcept nogil:
    """The Fusion test of _push_ints: x <= M >= v (value and profits: a tie fuses too, any
    Fusion keeps the value), written max(x, v) <= M, one compare as in the plain C loop;
    or x <= M > v (play: the reduced row every other kernel has, so the same moves)."""
    if segments_t is Wanted:
        return (second <= first) & (first > v)
    return (second if second > v else v) <= first


cdef int64_t _push_ints(const int64_t *coins, int64_t p, int64_t stop, int64_t *values,
                       int64_t *segments, RowStack *st, int64_t block,
                       segments_t *segments_mode, runs_t *runs_mode) noexcept nogil:
    """_push_coins for int64 rows, in the shape of the plain C loop: one coin a step, kept
    in a register; while the two top entries x, M and the coin v pass the Fusion test
    (_fuses), they become one, x - M + v; then the coin is written once. One compare and
    one branch a coin, whose outcomes follow the row (a predictor learns a repeating row as
    it does the plain loop's); overflow tests are branches never taken.

    Stops after ``block`` coins in a row without a Fusion of unequal entries (a tie fusing
    does not count: plateaus are scanned as runs again): the limit moves on at each Fusion,
    not block by block, so that the loop's branches repeat as the row does (blocks of a
    fixed length cut a row whose coins repeat with another period at a different place in
    each period: Project Euler 477's coins, period 7,248, took 3.2 ns a coin in blocks of
    64, 2.3 with the moving limit, against 2.0 for the plain C loop, 10^6 coins).

    After a Fusion that leaves v under its entry M (so x > M: nothing under can fuse), a
    zigzag: while the next two coins a, b pass the test with v, a goes on and b fuses it,
    v - a + b, not more than v, so that nothing under fuses either: two coins a step
    without touching the stack (rows that alternate high and low coins: 0.7x the C loop).

    ``segments_t`` Wanted: each entry's first coin goes to ``segments``. ``runs_t`` Wanted:
    ``st`` may have runs."""
    cdef int64_t *sp = values + st.written         # one past the top written entry
    cdef int64_t *guard = values + _guard(st)      # the fast path needs sp >= guard
    cdef int64_t *deep = values + 2 - (st.top - st.written)  # two entries under the coin
    cdef int64_t *low = deep                       # the higher of the two
    cdef const int64_t *cp = coins + p
    cdef const int64_t *end = coins + stop
    cdef const int64_t *limit
    cdef const int64_t *moved_limit
    cdef int64_t moved, v, t, a, b, seg = 0, first = 0, second = 0
    cdef bint ovf = False, unequal
    if runs_t is Wanted and guard > deep:
        low = guard
    if st.top >= 1:
        first = _top_entry(coins, values, st, 0)
    if st.top >= 2:
        second = _top_entry(coins, values, st, 1)
    if block > stop - p:
        block = stop - p
    limit = cp + block
    while cp < limit:
        v = cp[0]
        if segments_t is Wanted:
            seg = cp - coins
        if _fuses(second, first, v, segments_mode):
            # Where the limit goes if a Fusion is not of a tie.
            moved_limit = cp + 1 + block if end - cp - 1 > block else end
            while True:
                # One test for both rare cases: fewer than two entries under the coin (see
                # _pad_below), or the top entries are in a run.
                if coinsrow_unlikely(sp < low):
                    if runs_t is NotWanted or sp < deep:
                        break
                    # The top entries are in a run: write its last ones first.
                    st.written = sp - values
                    moved = _refill(coins, values, segments, st)
                    sp += moved
                    deep += moved
                    guard = values + _guard(st)
                    low = guard if guard > deep else deep
                limit = moved_limit if first != v else limit
                if coinsrow_unlikely(sub_checked(second, first, &t)):
                    ovf = True
                if coinsrow_unlikely(add_checked(t, v, &v)):
                    ovf = True
                sp -= 2
                if segments_t is Wanted:
                    seg = segments[sp - values]
                first = (sp - 1)[0]
                second = (sp - 2)[0]
                if not _fuses(second, first, v, segments_mode):
                    break
            if first > v:
                unequal = False
                while cp + 2 < end:
                    a = cp[1]
                    b = cp[2]
                    if not _fuses(v, a, b, segments_mode):
                        break
                    unequal |= a != b
                    if coinsrow_unlikely(sub_checked(v, a, &t)):
                        ovf = True
                    if coinsrow_unlikely(add_checked(t, b, &v)):
                        ovf = True
                    cp += 2
                # The limit moves on after a zigzag, unless its pairs were all of equal
                # coins (moved pair by pair, its computation was the zigzag's longest
                # chain of dependent instructions: alternating rows took 1.5 ns a coin,
                # 1.1 with the limit moved once).
                if unequal:
                    limit = cp + 1 + block if end - cp - 1 > block else end
        if segments_t is Wanted:
            segments[sp - values] = seg
        sp[0] = v
        sp += 1
        second = first
        first = v
        cp += 1
    st.top = (sp - values) + (values + 2 - deep)
    st.written = sp - values
    st.overflow |= ovf
    return cp - coins


cdef bint _add_sum(const int64_t *c, int64_t n, int64_t *total) noexcept nogil:
    """Add c[0] + ... + c[n - 1] to ``total``: True if it overflows (or a partial sum
    does). Four sums of every fourth coin, each addition tested by a branch never taken
    (it returns at once): four independent chains of one instruction a coin."""
    cdef int64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0, i = 0
    while i + 4 <= n:
        if (add_checked(s0, c[i], &s0) or add_checked(s1, c[i + 1], &s1)
                or add_checked(s2, c[i + 2], &s2) or add_checked(s3, c[i + 3], &s3)):
            return True
        i += 4
    while i < n:
        if add_checked(s0, c[i], &s0):
            return True
        i += 1
    return (add_checked(s0, s1, &s0) | add_checked(s2, s3, &s2) | add_checked(s0, s2, &s0)
            | add_checked(total[0], s0, total))


cdef int64_t _push_value(const coin_t *coins, int64_t p, int64_t stop, coin_t *values,
                         RowStack *st, RowSums *sums, int64_t block) noexcept nogil:
    """Push coins with Fusion (value and profits): int64 rows by _push_ints, float rows by
    _push_coins. ``sums``: NULL, or (profits, int64) receives the coins' sum in ``rest``,
    taken after each _SUM_CHUNK coins by _add_sum while they are in the cache (added in
    the Fusion loop, the sum's register was spilled to memory: profits took up to 1.6x
    the time of value on rows that alternate high and low coins)."""
    cdef int64_t q, chunk_end
    if coin_t is int64_t:
        while True:
            chunk_end = stop if sums == NULL or stop - p <= _SUM_CHUNK else p + _SUM_CHUNK
            if st.n_runs > 0:
                q = _push_ints(coins, p, chunk_end, values, NULL, st, block,
                               <NotWanted *> NULL, <Wanted *> NULL)
            else:
                q = _push_ints(coins, p, chunk_end, values, NULL, st, block,
                               <NotWanted *> NULL, <NotWanted *> NULL)
            if sums == NULL:
                return q
            sums.overflow |= _add_sum(coins + p, q - p, &sums.rest)
            if q < chunk_end or q == stop:
                return q
            p = q
    if st.n_runs > 0:
        return _push_coins(coins, p, stop, values, NULL, st, sums, block, <Wanted *> NULL,
                           <NotWanted *> NULL, <Wanted *> NULL)
    return _push_coins(coins, p, stop, values, NULL, st, sums, block, <Wanted *> NULL,
                       <NotWanted *> NULL, <NotWanted *> NULL)


cdef int64_t _push_play(const coin_t *coins, int64_t p, int64_t stop, coin_t *values,
                        int64_t *segments, RowStack *st, int64_t block) noexcept nogil:
    """Push coins with Fusion, each entry's first coin in ``segments`` (play): int64 rows
    by _push_ints, float rows by _push_coins."""
    if coin_t is int64_t:
        if st.n_runs > 0:
            return _push_ints(coins, p, stop, values, segments, st, block, <Wanted *> NULL,
                              <Wanted *> NULL)
        return _push_ints(coins, p, stop, values, segments, st, block, <Wanted *> NULL,
                          <NotWanted *> NULL)
    if st.n_runs > 0:
        return _push_coins(coins, p, stop, values, segments, st, NULL, block,
                           <NotWanted *> NULL, <Wanted *> NULL, <Wanted *> NULL)
    return _push_coins(coins, p, stop, values, segments, st, NULL, block, <NotWanted *> NULL,
                       <Wanted *> NULL, <NotWanted *> NULL)


cdef int _push_unfused(const coin_t *coins, int64_t p, int64_t q, coin_t *values,
                       int64_t *segments, RowStack *st, int64_t alt,
                       bint alt_known) noexcept nogil:
    """Push coins[p:q], which do not fuse: a run if there are many, else written (a short
    run would only slow the Fusion loop down). ``alt``: their alternating sum, if
    ``alt_known`` (see Run). OK or NO_MEMORY."""
    cdef int64_t e
    if q - p >= _SHORT_RUN:
        if _add_run(st, st.written, q - p, p, alt, alt_known) != OK:
            return NO_MEMORY
    else:
        memcpy(values + st.written, coins + p, (q - p) * sizeof(coin_t))
        if segments != NULL:
            for e in range(q - p):
                segments[st.written + e] = p + e
        st.written += q - p
    st.top += q - p
    return OK


cdef int64_t _scan_run(const coin_t *coins, int64_t p, int64_t stop, coin_t *values,
                       int64_t *segments, RowStack *st, RowSums *sums) noexcept nogil:
    """Push the coins from coins[p] on that do not fuse as a run (unwritten), up to
    ``stop``: returns the first coin that fuses (or ``stop``). ``st`` has two entries at
    least. int64: ``sums`` receives the coins' sum in ``rest`` (may be
    NULL)."""
    cdef RowSums scanned
    cdef coin_t prev = _top_entry(coins, values, st, 0)
    cdef bint down = _top_entry(coins, values, st, 1) > prev
    cdef int64_t q, alt = 0
    cdef bint alt_known = False
    scanned.even = 0
    scanned.odd = 0
    scanned.overflow = False
    q = _unfused_scan(coins, p, stop, prev, down, &scanned)
    if coin_t is int64_t:
        # The sums are by the parity of the coins' indices; the run's signs start at p's.
        if p & 1:
            alt_known = not (scanned.overflow
                             | sub_checked(scanned.odd, scanned.even, &alt))
        else:
            alt_known = not (scanned.overflow
                             | sub_checked(scanned.even, scanned.odd, &alt))
    _push_unfused(coins, p, q, values, segments, st, alt, alt_known)
    if coin_t is int64_t:
        if sums != NULL:
            sums.overflow |= (scanned.overflow | add_checked(sums.rest, scanned.even,
                                                             &sums.rest)
                              | add_checked(sums.rest, scanned.odd, &sums.rest))
    return q


cdef int _reduce_part(const coin_t *coins, int64_t lo, int64_t hi, coin_t *values,
                      int64_t *segments, RowStack *st, RowSums *sums, bint want_total,
                      int *stop_flag) noexcept nogil:
    """Reduce the coins coins[lo:hi] on their own into ``st`` (written entries in
    ``values``; values[-2] and values[-1] readable). ``st.runs`` may be allocated already.

    Every _ROW_STEP coins it looks at ``stop_flag`` (another thread asks it to stop) or,
    when ``stop_flag`` is NULL, runs the signal handlers (taking the GIL for a moment):
    _STOPPED if it must stop, NO_MEMORY, or OK.
    """
    cdef int64_t p, q, step_end, block, alt = 0
    cdef bint alt_known = False
    st.start = lo
    st.top = 0
    st.written = 0
    st.n_runs = 0
    st.overflow = False
    st.no_memory = False
    sums.even = 0
    sums.odd = 0
    sums.rest = 0
    sums.overflow = False
    if hi - lo < 3:
        # Fewer than three coins: nothing fuses.
        if coin_t is int64_t:
            if hi - lo >= 1:
                sums.even = coins[lo]
            if hi - lo >= 2:
                sums.odd = coins[lo + 1]
            alt_known = not sub_checked(sums.even, sums.odd, &alt)
        if _add_run(st, 0, hi - lo, lo, alt, alt_known) != OK:
            return NO_MEMORY
        st.top = hi - lo
        return OK
    if coin_t is int64_t:
        sums.even = coins[lo]
        sums.odd = coins[lo + 1]
    # The unfused prefix, a run (its sums by parity give the value where nothing fuses).
    p = lo + 2
    while True:
        step_end = p + _ROW_STEP if hi - p > _ROW_STEP else hi
        p = _unfused_scan(coins + lo, p - lo, step_end - lo, coins[p - 1],
                          coins[p - 2] > coins[p - 1], sums) + lo
        if p < step_end or p == hi:
            break
        if _must_stop(stop_flag):
            return _STOPPED
    if coin_t is int64_t:
        # The prefix's sums are by parity from lo, its first coin.
        alt_known = not (sums.overflow | sub_checked(sums.even, sums.odd, &alt))
    if p < hi:
        if _push_unfused(coins, lo, p, values, segments, st, alt, alt_known) != OK:
            return NO_MEMORY
    else:
        # Nothing fuses: the stack is the coins, one run (whatever its length).
        if _add_run(st, 0, p - lo, lo, alt, alt_known) != OK:
            return NO_MEMORY
        st.top = p - lo
    # Then the stack: written, or scanned as runs where nothing fuses for a while. After a
    # long run, the next one is tried for soon (on sorted coins with ties, a tie fuses,
    # then nothing does for a long time again).
    step_end = p
    block = _RUN_AFTER
    while p < hi:
        if p >= step_end:
            if step_end > lo and _must_stop(stop_flag):
                return _STOPPED
            step_end = p + _ROW_STEP if hi - p > _ROW_STEP else hi
        if segments != NULL:
            p = _push_play(coins, p, step_end, values, segments, st, block)
        else:
            p = _push_value(coins, p, step_end, values, st, sums if want_total else NULL,
                            block)
        if p < step_end:
            q = _scan_run(coins, p, step_end, values, segments, st,
                          sums if want_total else NULL)
            block = _RUN_PROBE if q - p >= _RUN_AFTER else _RUN_AFTER
            p = q
        if st.no_memory:
            return NO_MEMORY
    return OK


cdef bint _must_stop(int *stop_flag) noexcept nogil:
    """True when a worker was told to stop (``stop_flag``), or, in the calling thread
    (``stop_flag`` NULL), when a signal handler raised (its exception is then set)."""
    if stop_flag != NULL:
        return coinsrow_load_flag(stop_flag) != 0
    with gil:
        return _pending_signals() != 0


cdef void _place_runs(RowStack *st) noexcept nogil:
    """Set each run's position in the stack (``pos``)."""
    cdef int64_t k, before = 0
    for k in range(st.n_runs):
        st.runs[k].pos = st.runs[k].at + before
        before += st.runs[k].length


cdef inline int64_t _run_below(RowStack *st, int64_t e) noexcept nogil:
    """The last run starting at or below entry e (-1 if none); runs placed."""
    cdef int64_t lo = 0, hi = st.n_runs, mid
    while lo < hi:
        mid = (lo + hi) >> 1
        if st.runs[mid].pos <= e:
            lo = mid + 1
        else:
            hi = mid
    return lo - 1


cdef inline coin_t _stack_entry(const coin_t *coins, const coin_t *values, RowStack *st,
                                int64_t e) noexcept nogil:
    """Entry e of ``st`` (runs placed). O(log runs)."""
    cdef int64_t k = _run_below(st, e)
    cdef Run *r
    if k < 0:
        return values[e]
    r = &st.runs[k]
    if e < r.pos + r.length:
        return coins[r.coin + e - r.pos]
    return values[r.at + e - r.pos - r.length]


cdef inline int64_t _stack_segment(const int64_t *segments, RowStack *st,
                                   int64_t e) noexcept nogil:
    """The first coin of entry e's run of coins (runs placed)."""
    cdef int64_t k = _run_below(st, e)
    cdef Run *r
    if k < 0:
        return segments[e]
    r = &st.runs[k]
    if e < r.pos + r.length:
        return r.coin + e - r.pos
    return segments[r.at + e - r.pos - r.length]


cdef bint _unfused(RowStack *st, int64_t n) noexcept nogil:
    """Nothing fused: the stack is its n coins, one run."""
    return (st.top == n and st.written == 0
            and (n == 0 or (st.n_runs == 1 and st.runs[0].coin == st.start)))


cdef int _stitch(const coin_t *coins, coin_t *values, int64_t *segments, RowStack *row,
                 const coin_t *part_values, const int64_t *part_segments,
                 RowStack *part, bint may_overtake) noexcept nogil:
    """Push the entries of ``part`` (the next coins, reduced on their own, written entries
    in part_values; runs placed) onto ``row``, the reduced row of the coins before them
    (values[-2] and values[-1] readable): OK, or _OVERTAKE, having changed nothing, when
    the seam fuses and ``may_overtake`` says that what the row then writes could overtake
    what is still to be read of the part (the caller then passes a copy of the part's
    written entries). Where the seam does not fuse, the part's written entries only move
    down (the row has no more written entries than the coins before the part), in order.

    Fusion is confluent (docs/rows.md), so this gives the reduced row of all the coins.
    Only the seam can fuse: as soon as neither triple across it would (the row's two top
    entries and the part's next one; the row's top and the part's next two), the rest of
    the part goes on as it is: its runs as runs, its written entries moved.
    """
    cdef int64_t i = 0, m = part.top, seg = 0, k, e, w, b, p, q
    cdef int64_t limit = 0, piece_offset = 0   # the part's piece holding entry i
    cdef int64_t written, top, guard
    cdef const coin_t *piece = NULL
    cdef coin_t x, t, first = 0, second = 0
    cdef bint ovf = part.overflow, alt_known
    cdef int64_t alt = 0
    cdef Run *r
    if row.top >= 1:
        first = _top_entry(coins, values, row, 0)
    if row.top >= 2:
        second = _top_entry(coins, values, row, 1)
    while i < m:
        # The part's entries read piece by piece (a run of coins, or written entries), not
        # looked up one by one: a seam can fuse for most of a part (a peak cut at its top).
        if i >= limit:
            piece = _piece_up(coins, part_values, part, i, &limit, &piece_offset)
        x = piece[i - piece_offset]
        if not ((row.top >= 2) & (second <= first) & (first > x)):
            if row.top == 0 or i + 1 >= m:
                break
            if i + 1 < limit:
                t = piece[i + 1 - piece_offset]
            else:
                t = _stack_entry(coins, part_values, part, i + 1)
            if not ((first <= x) & (x > t)):
                break
        if may_overtake:
            return _OVERTAKE  # before the first push: nothing has changed
        if piece == coins and i + 1 < limit:
            # A run of the part's coins: the Fusion loop of one thread pushes them, as it
            # would have without the cut (it returns after a block without a Fusion).
            p = i - piece_offset
            if segments != NULL:
                q = _push_play(coins, p, limit - piece_offset, values, segments, row,
                               _RUN_AFTER)
            else:
                q = _push_value(coins, p, limit - piece_offset, values, row, NULL, _RUN_AFTER)
            i += q - p
            first = _top_entry(coins, values, row, 0)
            if row.top >= 2:
                second = _top_entry(coins, values, row, 1)
            continue
        if segments != NULL:
            seg = _stack_segment(part_segments, part, i)
        # The row's counts in locals while entries are written: stores to ``values`` could
        # alias the struct's fields, which the compiler would then read again each time.
        written = row.written
        top = row.top
        guard = _guard(row)
        while (top >= 2) & (second <= first) & (first > x):
            ovf |= sub_checked(second, first, &t)
            ovf |= add_checked(t, x, &x)
            if written < guard:
                row.written = written
                _refill(coins, values, segments, row)
                written = row.written
                guard = _guard(row)
            written -= 2
            top -= 2
            if segments != NULL:
                seg = segments[written]
            first = values[written - 1]
            second = values[written - 2]
        if segments != NULL:
            segments[written] = seg
        values[written] = x
        row.written = written + 1
        row.top = top + 1
        second = first
        first = x
        i += 1
    # The rest of the part, part[i:], goes on unchanged, piece by piece (the runs in order).
    e = i
    k = _run_below(part, e)
    while e < m:
        if k >= 0 and e < part.runs[k].pos + part.runs[k].length:
            r = &part.runs[k]
            b = r.pos + r.length
            # A whole run keeps its alternating sum; the rest of one is read if needed.
            alt_known = False
            if coin_t is int64_t:
                alt_known = e == r.pos and _run_alt(coins, r, &alt)
            _add_run(row, row.written, b - e, r.coin + e - r.pos, alt, alt_known)
        else:
            # Written entries up to the next run: at part_values[w:].
            w = e if k < 0 else part.runs[k].at + e - part.runs[k].pos - part.runs[k].length
            b = part.runs[k + 1].pos if k + 1 < part.n_runs else m
            k += 1
            memmove(values + row.written, part_values + w, (b - e) * sizeof(coin_t))
            if segments != NULL:
                memmove(segments + row.written, part_segments + w, (b - e) * sizeof(int64_t))
            row.written += b - e
        row.top += b - e
        e = b
    row.overflow |= ovf
    row.no_memory |= part.no_memory
    return OK


cdef void _float_survey(const double *coins, int64_t lo, int64_t hi,
                        FloatSurvey *survey) noexcept nogil:
    """The first NaN or infinity of coins[lo:hi], the lowest power of two every coin is a
    multiple of, and the sum of their magnitudes."""
    cdef int64_t p
    cdef uint64_t bits, mantissa
    cdef int exponent, lowest = 1100, low
    cdef double magnitude = 0.0
    survey.bad = -1
    for p in range(lo, hi):
        memcpy(&bits, &coins[p], sizeof(bits))
        exponent = <int> ((bits >> 52) & 0x7FF)
        if exponent == 0x7FF:
            survey.bad = p
            return
        mantissa = bits & ((<uint64_t> 1 << 52) - 1)
        if exponent == 0:
            if mantissa == 0:
                continue  # a zero
            low = coinsrow_ctz64(mantissa) - 1074
        else:
            low = coinsrow_ctz64(mantissa | (<uint64_t> 1 << 52)) + exponent - 1075
        if low < lowest:
            lowest = low
        magnitude += fabs(coins[p])
    survey.lowest = lowest
    survey.magnitude = magnitude


# -- the Greedy phase of one reduced row ----------------------------------------------------
#
# The reduced row e[0:m] is a valley: e[0:j+1] strictly decreases, e[j:m] never decreases.
# Greedy takes the larger end, the left one on ties. So its order is the merge of the left
# run L = e[0:j] (from the left) with the right run R = e[m-1], e[m-2], ..., e[q+1] (from the
# right), L first on ties, followed by the bottom block E = e[j:q+1] of entries equal to
# e[j], taken from the left (they are all smaller than everything in L and R).

cdef inline int64_t _valley_bottom(const coin_t *coins, const coin_t *values, RowStack *st,
                                   int64_t m) noexcept nogil:
    """j: the first entry not above the next one (m - 1 if none). O(log m log runs)."""
    cdef int64_t lo = 0, hi = m - 1, mid
    while lo < hi:
        mid = lo + (hi - lo) // 2
        if (_stack_entry(coins, values, st, mid)
                <= _stack_entry(coins, values, st, mid + 1)):
            hi = mid
        else:
            lo = mid + 1
    return lo


cdef inline int64_t _bottom_end(const coin_t *coins, const coin_t *values, RowStack *st,
                                int64_t j, int64_t m) noexcept nogil:
    """q: the last entry equal to entry j (entries j.. never decrease). O(log m log runs)."""
    cdef int64_t lo = j, hi = m - 1, mid
    cdef coin_t bottom = _stack_entry(coins, values, st, j)
    while lo < hi:
        mid = hi - (hi - lo) // 2
        if _stack_entry(coins, values, st, mid) == bottom:
            lo = mid
        else:
            hi = mid - 1
    return lo


cdef inline const coin_t *_piece_up(const coin_t *coins, const coin_t *values, RowStack *st,
                                    int64_t e, int64_t *limit, int64_t *offset) noexcept nogil:
    """The piece holding entry e, read upwards (runs placed): p[x - offset] is entry x for
    e <= x < limit (a run of coins, or written entries up to the next run)."""
    cdef int64_t k = _run_below(st, e)
    cdef Run *r
    if k >= 0:
        r = &st.runs[k]
        if e < r.pos + r.length:
            limit[0] = r.pos + r.length
            offset[0] = r.pos - r.coin
            return coins
        offset[0] = r.pos + r.length - r.at
    else:
        offset[0] = 0
    limit[0] = st.runs[k + 1].pos if k + 1 < st.n_runs else st.top
    return values


cdef inline const coin_t *_piece_down(const coin_t *coins, const coin_t *values, RowStack *st,
                                      int64_t e, int64_t *floor, int64_t *offset) noexcept nogil:
    """The piece holding entry e, read downwards (runs placed): p[x - offset] is entry x
    for floor <= x <= e."""
    cdef int64_t k = _run_below(st, e)
    cdef Run *r
    if k >= 0:
        r = &st.runs[k]
        if e < r.pos + r.length:
            floor[0] = r.pos
            offset[0] = r.pos - r.coin
            return coins
        floor[0] = r.pos + r.length
        offset[0] = r.pos + r.length - r.at
        return values
    floor[0] = 0
    offset[0] = 0
    return values


cdef int64_t _alternating(const int64_t *a, int64_t lo, int64_t hi, bint *overflow) noexcept nogil:
    """The sum of (-1)^i a[i] over lo <= i < hi, checked."""
    cdef int64_t even = 0, odd = 0, i = lo, result
    cdef bint ovf = False
    if i < hi and i & 1:
        odd = a[i]
        i += 1
    while i + 1 < hi:
        if coinsrow_unlikely(add_checked(even, a[i], &even)):
            ovf = True
        if coinsrow_unlikely(add_checked(odd, a[i + 1], &odd)):
            ovf = True
        i += 2
    if i < hi:
        ovf |= add_checked(even, a[i], &even)
    ovf |= sub_checked(even, odd, &result)
    overflow[0] |= ovf
    return result


cdef bint _run_alt(const int64_t *coins, Run *r, int64_t *alt) noexcept nogil:
    """The alternating sum of the run's coins now (see Run) into ``alt``: False if it is
    not known. Reads only the coins Fusions took from its end."""
    cdef bint ovf = False
    cdef int64_t taken
    if not r.alt_known:
        return False
    taken = _alternating(coins + r.coin, r.length, r.alt_length, &ovf)
    ovf |= sub_checked(r.alt, taken, alt)
    return not ovf


cdef int64_t _stack_alternating(const int64_t *coins, const int64_t *values, RowStack *st,
                                int64_t lo, int64_t hi, bint *overflow) noexcept nogil:
    """The sum of (-1)^e entry(e) over lo <= e < hi, piece by piece, the runs in order
    (one binary search): a whole run whose alternating sum is known is not read (runs
    placed)."""
    cdef int64_t e = lo, b, total = 0, part = 0, offset, k = _run_below(st, lo)
    cdef Run *r
    cdef bint ovf = False
    while e < hi:
        if k >= 0 and e < st.runs[k].pos + st.runs[k].length:
            r = &st.runs[k]
            b = r.pos + r.length
            if e == r.pos and b <= hi and _run_alt(coins, r, &part):
                offset = e  # its sum's signs start at the run's first entry
            else:
                if b > hi:
                    b = hi
                offset = r.pos - r.coin
                part = _alternating(coins, e - offset, b - offset, &ovf)
        else:
            # The written entries after run k (before the first run when k < 0).
            offset = 0 if k < 0 else st.runs[k].pos + st.runs[k].length - st.runs[k].at
            b = st.runs[k + 1].pos if k + 1 < st.n_runs else st.top
            k += 1
            if b > hi:
                b = hi
            part = _alternating(values, e - offset, b - offset, &ovf)
        if offset & 1:
            ovf |= sub_checked(total, part, &total)
        else:
            ovf |= add_checked(total, part, &total)
        e = b
    overflow[0] |= ovf
    return total


cdef inline bint _add_signed(int64_t *total, int64_t x, bint negative) noexcept nogil:
    if negative:
        return sub_checked(total[0], x, total)
    return add_checked(total[0], x, total)


cdef enum:
    # Merges of the value's Greedy phase step this many chains at once (below _MERGE_SPLIT
    # entries, one): the steps of one chain wait on each other's loads, four do not.
    _MERGE_CHAINS = 4
    _MERGE_SPLIT = 4096


cdef inline int64_t _merge_split(const int64_t *left, int64_t n_left, const int64_t *right,
                                 int64_t n_right, int64_t rank) noexcept nogil:
    """How many of the first ``rank`` entries of the merge of the non-increasing runs
    left[0:n_left] and right[0], right[-1], ..., right[-(n_right - 1)] (left first on ties)
    come from ``left`` (merge path: a binary search)."""
    cdef int64_t lo = rank - n_right if rank > n_right else 0
    cdef int64_t hi = rank if rank < n_left else n_left, a
    while lo < hi:
        a = (lo + hi) >> 1
        if left[a] >= right[-(rank - a - 1)]:
            lo = a + 1
        else:
            hi = a
    return lo


cdef int64_t _merge_value(const int64_t *left, int64_t n_left, const int64_t *right,
                          int64_t n_right, bint *overflow) noexcept nogil:
    """The sum of the merge of two non-increasing runs (see ``_merge_split``), entries with
    alternating signs, the first added. The merge is cut into _MERGE_CHAINS chains at even
    ranks (merge path) and the chains step together without branches; once a side of a
    chain is used up, the rest of that chain is one run (an alternating sum)."""
    cdef int64_t total = n_left + n_right, steps, k, c, t = 0
    cdef int64_t a[_MERGE_CHAINS]
    cdef int64_t b[_MERGE_CHAINS]
    cdef int64_t a_end[_MERGE_CHAINS]
    cdef int64_t b_end[_MERGE_CHAINS]
    cdef int64_t rank, x, y, plus = 0, minus = 0, part, take
    cdef const int64_t *pa0
    cdef const int64_t *pa1
    cdef const int64_t *pa2
    cdef const int64_t *pa3
    cdef const int64_t *pb0
    cdef const int64_t *pb1
    cdef const int64_t *pb2
    cdef const int64_t *pb3
    cdef int chains = _MERGE_CHAINS if total >= _MERGE_SPLIT else 1
    cdef bint ovf = False
    for c in range(chains):
        rank = (total * c // chains) & ~1
        a[c] = _merge_split(left, n_left, right, n_right, rank)
        b[c] = rank - a[c]
    for c in range(chains):
        a_end[c] = a[c + 1] if c + 1 < chains else n_left
        b_end[c] = b[c + 1] if c + 1 < chains else n_right
    # All chains at once, ``steps`` at a time: none can use up a side within them. (The
    # chains are pointers in scalars, which stay in registers: one step of each, again.)
    if chains == _MERGE_CHAINS:
        pa0, pa1, pa2, pa3 = left + a[0], left + a[1], left + a[2], left + a[3]
        pb0, pb1, pb2, pb3 = right - b[0], right - b[1], right - b[2], right - b[3]
        while True:
            steps = min(a_end[0] - (pa0 - left), b_end[0] - (right - pb0),
                        a_end[1] - (pa1 - left), b_end[1] - (right - pb1),
                        a_end[2] - (pa2 - left), b_end[2] - (right - pb2),
                        a_end[3] - (pa3 - left), b_end[3] - (right - pb3))
            if steps == 0:
                break
            for k in range(steps):
                # All chains are at rank parity t + k: added at even ranks, else subtracted.
                if ((t + k) & 1) == 0:
                    x = pa0[0]
                    y = pb0[0]
                    take = x >= y
                    x = x if take else y
                    pa0 += take
                    pb0 += take - 1
                    if coinsrow_unlikely(add_checked(plus, x, &plus)):
                        ovf = True
                    x = pa1[0]
                    y = pb1[0]
                    take = x >= y
                    x = x if take else y
                    pa1 += take
                    pb1 += take - 1
                    if coinsrow_unlikely(add_checked(plus, x, &plus)):
                        ovf = True
                    x = pa2[0]
                    y = pb2[0]
                    take = x >= y
                    x = x if take else y
                    pa2 += take
                    pb2 += take - 1
                    if coinsrow_unlikely(add_checked(plus, x, &plus)):
                        ovf = True
                    x = pa3[0]
                    y = pb3[0]
                    take = x >= y
                    x = x if take else y
                    pa3 += take
                    pb3 += take - 1
                    if coinsrow_unlikely(add_checked(plus, x, &plus)):
                        ovf = True
                else:
                    x = pa0[0]
                    y = pb0[0]
                    take = x >= y
                    x = x if take else y
                    pa0 += take
                    pb0 += take - 1
                    if coinsrow_unlikely(add_checked(minus, x, &minus)):
                        ovf = True
                    x = pa1[0]
                    y = pb1[0]
                    take = x >= y
                    x = x if take else y
                    pa1 += take
                    pb1 += take - 1
                    if coinsrow_unlikely(add_checked(minus, x, &minus)):
                        ovf = True
                    x = pa2[0]
                    y = pb2[0]
                    take = x >= y
                    x = x if take else y
                    pa2 += take
                    pb2 += take - 1
                    if coinsrow_unlikely(add_checked(minus, x, &minus)):
                        ovf = True
                    x = pa3[0]
                    y = pb3[0]
                    take = x >= y
                    x = x if take else y
                    pa3 += take
                    pb3 += take - 1
                    if coinsrow_unlikely(add_checked(minus, x, &minus)):
                        ovf = True
            t += steps
        a[0], a[1], a[2], a[3] = pa0 - left, pa1 - left, pa2 - left, pa3 - left
        b[0], b[1], b[2], b[3] = right - pb0, right - pb1, right - pb2, right - pb3
    # Each chain's end on its own; its entries are at ranks of the parity of t and up.
    for c in range(chains):
        k = t
        while a[c] < a_end[c] and b[c] < b_end[c]:
            x = left[a[c]]
            y = right[-b[c]]
            take = x >= y
            x = x if take else y
            a[c] += take
            b[c] += 1 - take
            if k & 1:
                ovf |= add_checked(minus, x, &minus)
            else:
                ovf |= add_checked(plus, x, &plus)
            k += 1
        if a[c] < a_end[c]:
            part = _alternating(left, a[c], a_end[c], &ovf)
            ovf |= _add_signed(&plus, part, ((k + a[c]) & 1) != 0)
        elif b[c] < b_end[c]:
            # right[-i] for i in [b, b_end): the alternating sum over i, sign by rank.
            part = _alternating(right - (b_end[c] - 1), 0, b_end[c] - b[c], &ovf)
            ovf |= _add_signed(&plus, part, ((k + b_end[c] - 1 - b[c]) & 1) != 0)
    ovf |= sub_checked(plus, minus, &part)
    overflow[0] |= ovf
    return part


cdef inline int64_t _count_before(const int64_t *run, int64_t n, int64_t step, int64_t x,
                                  bint ties) noexcept nogil:
    """How many of run[0], run[step], ..., run[(n - 1) * step] (non-increasing) are above
    x (or equal to it, with ``ties``): a binary search."""
    cdef int64_t lo = 0, hi = n, mid
    while lo < hi:
        mid = (lo + hi) >> 1
        if run[mid * step] > x or (ties and run[mid * step] == x):
            lo = mid + 1
        else:
            hi = mid
    return lo


cdef void _merge_pieces(const int64_t *left, int64_t n_left, const int64_t *right,
                        int64_t n_right, int parity, int64_t *a, int64_t *b, int64_t *plus,
                        int64_t *minus, bint *overflow) noexcept nogil:
    """One step of the merge of L and R in pieces: the merge of the pieces left[0:n_left]
    and right[0], right[-1], ..., right[-(n_right - 1)] (both non-empty, non-increasing)
    up to where the first of them is used up, its entries of alternating signs (the first
    at rank ``parity``) added to ``plus`` or ``minus``; ``a`` grows and ``b`` falls by the
    entries taken from each.

    Left comes first on ties, so the left piece is used up once the entries of the right
    one above its last entry are taken, and the right one once the entries of the left one
    not below its last entry are: the earlier of the two is a point of the merge path of
    the whole of L and R, and the merge of the two prefixes is that of L and R up to it.
    """
    cdef int64_t from_right = _count_before(right, n_right, -1, left[n_left - 1], False)
    cdef int64_t from_left = _count_before(left, n_left, 1, right[-(n_right - 1)], True)
    cdef int64_t part
    if from_right < n_right and (from_left == n_left
                                 or n_left + from_right <= n_right + from_left):
        from_left = n_left
    else:
        from_right = n_right
    part = _merge_value(left, from_left, right, from_right, overflow)
    if parity:
        overflow[0] |= add_checked(minus[0], part, minus)
    else:
        overflow[0] |= add_checked(plus[0], part, plus)
    a[0] += from_left
    b[0] -= from_right


cdef int64_t _row_value_int(const int64_t *coins, const int64_t *values, RowStack *st,
                            bint whole_known, int64_t whole, bint *overflow) noexcept nogil:
    """The value of the reduced int64 row ``st``: the sum of its entries in Greedy order
    with alternating signs. ``whole_known``: ``whole`` is the alternating sum of all its
    entries (from the coins' scan, when nothing fused).

    Only the merge of L and R steps entry by entry (without branches: the larger of two
    sorted runs is a coin toss on a valley of random coins); once one of them is used up,
    the rest is consecutive entries (one alternating sum) and E counts once or not at all.
    """
    cdef int64_t m = st.top, j, q, a, b, x, y, value = 0, plus = 0, minus = 0, part
    cdef int64_t a_limit = 0, a_offset = 0, b_floor = 0, b_offset = 0
    cdef const int64_t *ap = NULL
    cdef const int64_t *bp = NULL
    cdef const int64_t *merged
    cdef int r = 0
    cdef bint ovf = False, left
    if m == 0:
        return 0
    j = _valley_bottom(coins, values, st, m)
    q = _bottom_end(coins, values, st, j, m)
    a = 0
    b = m - 1
    if j > 0 and b > q:
        ap = _piece_up(coins, values, st, a, &a_limit, &a_offset)
        bp = _piece_down(coins, values, st, b, &b_floor, &b_offset)
        merged = NULL
        if a_limit >= j and b_floor <= q + 1:
            # L and R each lie in one piece: the chained merge, then E.
            value = _merge_value(ap - a_offset, j, bp + (b - b_offset), b - q, &ovf)
            merged = ap
        elif j + b - q >= _MERGE_SPLIT:
            # In pieces, and long: the chained merge of one piece of L with one of R at a
            # time, up to where the first of them is used up (a point of the merge path).
            while a < j and b > q:
                ap = _piece_up(coins, values, st, a, &a_limit, &a_offset)
                bp = _piece_down(coins, values, st, b, &b_floor, &b_offset)
                _merge_pieces(ap + (a - a_offset), (j if a_limit > j else a_limit) - a,
                              bp + (b - b_offset), b - (q + 1 if b_floor <= q else b_floor) + 1,
                              (a + m - 1 - b) & 1, &a, &b, &plus, &minus, &ovf)
            r = (a + m - 1 - b) & 1
        if merged != NULL:
            if (q - j + 1) & 1:
                ovf |= _add_signed(&value, _stack_entry(coins, values, st, j),
                                   ((j + b - q) & 1) != 0)
            overflow[0] |= ovf
            return value
    # Two entries a turn: the first added, the second subtracted.
    while a < j and b > q:
        if a >= a_limit:
            ap = _piece_up(coins, values, st, a, &a_limit, &a_offset)
        if b < b_floor:
            bp = _piece_down(coins, values, st, b, &b_floor, &b_offset)
        x = ap[a - a_offset]
        y = bp[b - b_offset]
        left = x >= y
        x = x if left else y
        a += left
        b -= 1 - left
        ovf |= add_checked(plus, x, &plus)
        if not (a < j and b > q):
            r = 1
            break
        if a >= a_limit:
            ap = _piece_up(coins, values, st, a, &a_limit, &a_offset)
        if b < b_floor:
            bp = _piece_down(coins, values, st, b, &b_floor, &b_offset)
        x = ap[a - a_offset]
        y = bp[b - b_offset]
        left = x >= y
        x = x if left else y
        a += left
        b -= 1 - left
        ovf |= add_checked(minus, x, &minus)
    ovf |= sub_checked(plus, minus, &value)
    if a < j:
        # The rest of L, from the left: entry i has rank r + i - a.
        if whole_known and a + (m - j) < j - a:
            # Less to read outside: everything, minus [0, a) and [j, m).
            part = _stack_alternating(coins, values, st, 0, a, &ovf)
            ovf |= add_checked(part, _stack_alternating(coins, values, st, j, m, &ovf), &part)
            ovf |= sub_checked(whole, part, &part)
        else:
            part = _stack_alternating(coins, values, st, a, j, &ovf)
        ovf |= _add_signed(&value, part, ((r + a) & 1) != 0)
        r ^= (j - a) & 1
    elif b > q:
        # The rest of R, from the right: entry i has rank r + b - i.
        if whole_known and (q + 1) + (m - b - 1) < b - q:
            part = _stack_alternating(coins, values, st, 0, q + 1, &ovf)
            ovf |= add_checked(part, _stack_alternating(coins, values, st, b + 1, m, &ovf),
                               &part)
            ovf |= sub_checked(whole, part, &part)
        else:
            part = _stack_alternating(coins, values, st, q + 1, b + 1, &ovf)
        ovf |= _add_signed(&value, part, ((r + b) & 1) != 0)
        r ^= (b - q) & 1
    if (q - j + 1) & 1:
        # E: equal entries of alternating signs, one is left over.
        ovf |= _add_signed(&value, _stack_entry(coins, values, st, j), r != 0)
    overflow[0] |= ovf
    return value


cdef inline int64_t _greedy_bottom(const coin_t *e, int64_t m) noexcept nogil:
    """``_valley_bottom`` of the written row e[0:m]."""
    cdef int64_t lo = 0, hi = m - 1, mid
    while lo < hi:
        mid = lo + (hi - lo) // 2
        if e[mid] <= e[mid + 1]:
            hi = mid
        else:
            lo = mid + 1
    return lo


cdef inline int64_t _greedy_bottom_end(const coin_t *e, int64_t j, int64_t m) noexcept nogil:
    cdef int64_t lo = j, hi = m - 1, mid
    while lo < hi:
        mid = hi - (hi - lo) // 2
        if e[mid] == e[j]:
            lo = mid
        else:
            hi = mid - 1
    return lo


cdef struct Piece:
    # A piece of a reduced row: its entries [lo, hi) are a run of coins (``run``: entry e
    # is the coin e - offset) or written (entry e at values[e - offset]).
    int64_t lo, hi, offset
    bint run


cdef inline void _piece(RowStack *st, int64_t e, Piece *piece) noexcept nogil:
    """The piece holding entry e (runs placed)."""
    cdef int64_t k = _run_below(st, e)
    cdef Run *r
    if k >= 0:
        r = &st.runs[k]
        if e < r.pos + r.length:
            piece.lo = r.pos
            piece.hi = r.pos + r.length
            piece.offset = r.pos - r.coin
            piece.run = True
            return
        piece.lo = r.pos + r.length
        piece.offset = r.pos + r.length - r.at
    else:
        piece.lo = 0
        piece.offset = 0
    piece.hi = st.runs[k + 1].pos if k + 1 < st.n_runs else st.top
    piece.run = False


cdef inline coin_t _piece_entry(const coin_t *coins, const coin_t *values, RowStack *st,
                                Piece *piece, int64_t e) noexcept nogil:
    """Entry e, ``piece`` moved to it first if it is elsewhere."""
    if e < piece.lo or e >= piece.hi:
        _piece(st, e, piece)
    if piece.run:
        return coins[e - piece.offset]
    return values[e - piece.offset]


cdef struct PieceOrder:
    # Walks the Greedy order of a reduced row: ``_piece_order_next`` gives its entries one
    # by one (phase 0: merging L and R; 1: the rest of L; 2: the rest of R; 3: E; 4: done).
    int64_t a, b, j, q, i, m
    int phase
    Piece left, right, bottom


cdef inline void _piece_order_start(PieceOrder *o, const coin_t *coins, const coin_t *values,
                                    RowStack *st) noexcept nogil:
    o.m = st.top
    o.phase = 4 if o.m == 0 else 0
    if o.m == 0:
        return
    o.j = _valley_bottom(coins, values, st, o.m)
    o.q = _bottom_end(coins, values, st, o.j, o.m)
    o.a = 0
    o.b = o.m - 1
    o.i = o.j
    o.left.lo = o.left.hi = 0
    o.right.lo = o.right.hi = 0
    o.bottom.lo = o.bottom.hi = 0


cdef inline int64_t _piece_order_next(PieceOrder *o, const coin_t *coins,
                                      const coin_t *values, RowStack *st,
                                      bint *from_left) noexcept nogil:
    """The next entry in Greedy order (-1 when none is left); ``from_left``: taken from the
    left end (else the right)."""
    if o.phase == 0:
        if o.a < o.j and o.b > o.q:
            if (_piece_entry(coins, values, st, &o.left, o.a)
                    >= _piece_entry(coins, values, st, &o.right, o.b)):
                from_left[0] = True
                o.a += 1
                return o.a - 1
            from_left[0] = False
            o.b -= 1
            return o.b + 1
        o.phase = 1 if o.a < o.j else 2
    if o.phase == 1:
        if o.a < o.j:
            from_left[0] = True
            o.a += 1
            return o.a - 1
        o.phase = 3
    if o.phase == 2:
        if o.b > o.q:
            from_left[0] = False
            o.b -= 1
            return o.b + 1
        o.phase = 3
    if o.phase == 3:
        if o.i <= o.q:
            from_left[0] = True
            o.i += 1
            return o.i - 1
        o.phase = 4
    return -1


cdef inline void _piece_run_of(RowStack *st, const int64_t *segments, Piece *piece,
                               int64_t k, int64_t stop, int64_t *lo,
                               int64_t *hi) noexcept nogil:
    """The coins [lo, hi) entry k stands for (``piece``: a piece cache)."""
    cdef Piece next_piece
    if k < piece.lo or k >= piece.hi:
        _piece(st, k, piece)
    if piece.run:
        lo[0] = k - piece.offset
        hi[0] = lo[0] + 1
        return
    lo[0] = segments[k - piece.offset]
    if k + 1 < piece.hi:
        hi[0] = segments[k + 1 - piece.offset]
    elif k + 1 >= st.top:
        hi[0] = stop
    else:
        _piece(st, k + 1, &next_piece)
        hi[0] = (k + 1 - next_piece.offset if next_piece.run
                 else segments[k + 1 - next_piece.offset])


cdef double _row_value_float(const double *coins, const double *values,
                             RowStack *st) noexcept nogil:
    """The value of the reduced float64 row ``st`` (runs placed): each player's entries
    summed in Greedy order, then the difference (as ``_one_row_greedy`` rounds it)."""
    cdef PieceOrder order
    cdef Piece cache
    cdef int64_t k
    cdef double taken[2]
    cdef int r = 0
    cdef bint from_left = True
    cache.lo = cache.hi = 0
    taken[0] = 0.0
    taken[1] = 0.0
    _piece_order_start(&order, coins, values, st)
    while True:
        k = _piece_order_next(&order, coins, values, st, &from_left)
        if k < 0:
            break
        taken[r] = taken[r] + _piece_entry(coins, values, st, &cache, k)
        r ^= 1
    return taken[0] - taken[1]


cdef inline int64_t _coin_of(RowStack *st, const int64_t *segments, int64_t k,
                            int64_t stop) noexcept nogil:
    """The first coin of entry k (``stop`` for k == st.top; runs placed)."""
    if k >= st.top:
        return stop
    return _stack_segment(segments, st, k)


cdef inline int64_t _write_up(int64_t *out_coin, uint8_t *out_end, int64_t turn, int64_t lo,
                              int64_t hi) noexcept nogil:
    """Turns from ``turn`` on take the coins lo, lo + 1, ..., hi - 1 from the left."""
    cdef int64_t p
    for p in range(lo, hi):
        out_coin[turn + p - lo] = p
    if out_end != NULL:
        memset(out_end + turn, LEFT, hi - lo)
    return turn + hi - lo


cdef inline int64_t _write_down(int64_t *out_coin, uint8_t *out_end, int64_t turn,
                                int64_t lo, int64_t hi) noexcept nogil:
    """Turns from ``turn`` on take the coins hi - 1, hi - 2, ..., lo from the right."""
    cdef int64_t p
    for p in range(hi - lo):
        out_coin[turn + p] = hi - 1 - p
    if out_end != NULL:
        memset(out_end + turn, RIGHT, hi - lo)
    return turn + hi - lo


cdef int64_t _row_play_pieces(const coin_t *coins, const coin_t *values,
                              const int64_t *segments, RowStack *st, int64_t stop,
                              int64_t *out_coin, uint8_t *out_end) noexcept nogil:
    """Write the optimal play of the reduced row ``st`` (runs placed) of the coins
    [st.start, stop): each entry, in Greedy order, expands into its run of coins, taken one
    by one from the end where it is exposed. ``out_end`` may be NULL. Returns the moves.

    Entry by entry only while L and R merge: after that, consecutive entries cover
    consecutive coins, so the rest of L, the rest of R (from the right) and E are at most
    three ranges of coins.
    """
    cdef PieceOrder order
    cdef Piece runs
    cdef int64_t k, lo, hi, turn = 0
    cdef bint from_left = True
    runs.lo = runs.hi = 0
    _piece_order_start(&order, coins, values, st)
    if order.phase == 4:
        return 0
    while order.a < order.j and order.b > order.q:
        k = _piece_order_next(&order, coins, values, st, &from_left)
        _piece_run_of(st, segments, &runs, k, stop, &lo, &hi)
        if from_left:
            turn = _write_up(out_coin, out_end, turn, lo, hi)
        else:
            turn = _write_down(out_coin, out_end, turn, lo, hi)
    if order.a < order.j:
        turn = _write_up(out_coin, out_end, turn, _coin_of(st, segments, order.a, stop),
                         _coin_of(st, segments, order.j, stop))
    elif order.b > order.q:
        turn = _write_down(out_coin, out_end, turn, _coin_of(st, segments, order.q + 1, stop),
                           _coin_of(st, segments, order.b + 1, stop))
    return _write_up(out_coin, out_end, turn, _coin_of(st, segments, order.j, stop),
                     _coin_of(st, segments, order.q + 1, stop))


cdef int _row_float_profits_pieces(const double *coins, const double *values,
                                   const int64_t *segments, RowStack *st, int64_t stop,
                                   double *first, double *second) noexcept nogil:
    """Each player's coins in the optimal play of the reduced float64 row ``st`` (runs
    placed), summed exactly and rounded once. Entry k at Greedy rank r is taken by player
    r % 2, its run coin by coin from the exposed end: since the run has odd length, its coin
    at an even offset goes to the same player whichever end that is, the others to the
    other player. After the merge of L and R, the play is ranges of coins taken one a turn
    (see ``_row_play_pieces``). OK or OVERFLOW (a sum beyond the float range)."""
    cdef ExactSum sums[2]
    cdef PieceOrder order
    cdef Piece runs
    cdef int64_t k, lo, hi, p, turn = 0
    cdef int status = OK
    cdef bint from_left = True
    runs.lo = runs.hi = 0
    exact_sum_init(&sums[0])
    exact_sum_init(&sums[1])
    _piece_order_start(&order, coins, values, st)
    if order.phase != 4:
        while order.a < order.j and order.b > order.q:
            k = _piece_order_next(&order, coins, values, st, &from_left)
            _piece_run_of(st, segments, &runs, k, stop, &lo, &hi)
            for p in range(lo, hi):
                exact_sum_add(&sums[(turn + p - lo) & 1], coins[p])
            turn += hi - lo
        # The ranges: coin p of a range [lo, hi) taken from the left goes at turn
        # turn + p - lo, from the right at turn + hi - 1 - p.
        if order.a < order.j:
            lo = _coin_of(st, segments, order.a, stop)
            hi = _coin_of(st, segments, order.j, stop)
            for p in range(lo, hi):
                exact_sum_add(&sums[(turn + p - lo) & 1], coins[p])
            turn += hi - lo
        elif order.b > order.q:
            lo = _coin_of(st, segments, order.q + 1, stop)
            hi = _coin_of(st, segments, order.b + 1, stop)
            for p in range(lo, hi):
                exact_sum_add(&sums[(turn + hi - 1 - p) & 1], coins[p])
            turn += hi - lo
        lo = _coin_of(st, segments, order.j, stop)
        hi = _coin_of(st, segments, order.q + 1, stop)
        for p in range(lo, hi):
            exact_sum_add(&sums[(turn + p - lo) & 1], coins[p])
    first[0] = exact_sum_result(&sums[0])
    second[0] = exact_sum_result(&sums[1])
    if not (isfinite(first[0]) and isfinite(second[0])):
        status = OVERFLOW
    return status


cdef void _row_play_unfused(const coin_t *e, int64_t start, int64_t m,
                            int64_t *out_coin) noexcept nogil:
    """``_row_play_pieces`` where nothing fused (entry k is the coin start + k): the merge
    of L and R writes one coin a step (without branches), the rest are ranges of coins."""
    cdef int64_t j, q, a, b, turn = 0, i
    cdef bint left
    if m == 0:
        return
    j = _greedy_bottom(e, m)
    q = _greedy_bottom_end(e, j, m)
    a = 0
    b = m - 1
    while a < j and b > q:
        left = e[a] >= e[b]
        out_coin[turn] = start + (a if left else b)
        turn += 1
        a += left
        b -= 1 - left
    for i in range(a, j):
        out_coin[turn] = start + i
        turn += 1
    i = b
    while i > q:
        out_coin[turn] = start + i
        turn += 1
        i -= 1
    for i in range(j, q + 1):
        out_coin[turn] = start + i
        turn += 1


# -- the reduction of one row, on one thread or several ---------------------------------------

cdef class _RowWork:
    """One call of a one-row kernel: the row's reduced form and its scratch memory.

    ``reduce(parts, threads)`` reduces the row: on one thread, coin after coin; or in
    ``parts`` parts at once on a pool of ``threads`` threads, stitched in order afterwards
    (``_stitch``). Part i's scratch starts after the coins of the parts before it and two
    entries of its own (``_push_coins`` may read them), so the row (part 0's scratch,
    growing) never overtakes a part it has not read yet. The worker threads keep this
    object, hence the scratch, alive: an interrupted call never frees memory a worker uses.
    """
    cdef object buffer            # the coins' buffer, kept alive
    cdef const void *coins
    cdef bint floats
    cdef int64_t n
    cdef bint want_segments
    cdef bint want_total
    cdef char *raw                # the scratch as allocated (_scratch: kept between calls)
    cdef int64_t *raw_segments
    cdef void *values             # the row's written entries: entry e at values[e]
    cdef int64_t *segments        # the first coin of each written entry's run, or NULL
    cdef RowStack row
    cdef RowSums sums             # int64: the whole row's (see RowSums)
    cdef int64_t bad_index
    cdef Py_ssize_t n_parts
    cdef Py_ssize_t n_stacks
    cdef int64_t *bounds
    cdef RowStack *stacks
    cdef RowSums *part_sums
    cdef FloatSurvey *surveys
    cdef int stop_flag

    def __cinit__(self, object buffer, bint floats, int64_t n, bint want_segments,
                  bint want_total):
        cdef const int64_t[::1] ints
        cdef const double[::1] doubles
        self.buffer = buffer
        self.floats = floats
        self.n = n
        if n > 0:
            if floats:
                doubles = buffer
                self.coins = &doubles[0]
            else:
                ints = buffer
                self.coins = &ints[0]
        self.want_segments = want_segments
        self.want_total = want_total
        self.bad_index = -1

    def __dealloc__(self):
        cdef Py_ssize_t i
        _scratch_free(self.raw)
        _scratch_free(self.raw_segments)
        free(self.bounds)
        if self.stacks != NULL:
            for i in range(self.n_stacks):
                free(self.stacks[i].runs)
        free(self.stacks)
        free(self.row.runs)
        free(self.part_sums)
        free(self.surveys)

    cdef int reduce(self, Py_ssize_t parts, Py_ssize_t threads, bint sample) except -1:
        """Reduce the row: OK, or NOT_FINITE (``bad_index``); raises what a signal handler
        raises (Ctrl-C), MemoryError. ``sample``: on several threads, first a sample of the
        parts decides whether the threads pay off (``_mostly_runs``)."""
        cdef Py_ssize_t i
        cdef int status = OK
        cdef int lowest = 1100
        cdef double magnitude = 0.0
        cdef bint mostly_runs
        if parts < 1 or threads < 1:
            raise ValueError("parts and threads must be at least 1")
        if parts > self.n:
            parts = self.n if self.n > 0 else 1
        self._cut(parts)
        if parts > 1 and self.floats:
            self._run(threads, True)
            for i in range(parts):
                if self.surveys[i].bad >= 0:
                    self.bad_index = self.surveys[i].bad
                    return NOT_FINITE
                if self.surveys[i].lowest < lowest:
                    lowest = self.surveys[i].lowest
                magnitude += self.surveys[i].magnitude
            # With every coin a multiple of 2**lowest and the sum of their magnitudes below
            # 2**(lowest + 53), every sum of coins with signs is a float: the additions are
            # exact in any order, so the parts give the one-thread answer bit for bit. (The
            # factor 2 covers the rounding of magnitude.) Otherwise: one part.
            if lowest < 1100 and not magnitude <= ldexp(1.0, lowest + 52):
                self._cut(1)
        elif self.floats:
            with nogil:
                self.bad_index = _first_not_finite_at(<const double *> self.coins, 0, self.n)
            if self.bad_index >= 0:
                return NOT_FINITE
        if self.n_parts > 1 and threads > 1 and sample:
            # Where the row is mostly runs (sorted stretches, read at memory speed), the
            # pool, the stitching and their memory traffic cost about what a second thread
            # saves, or more (the seam after a peak fuses for the whole descending side, on
            # one thread): a sample of each part decides, and such a row is reduced here.
            with nogil:
                mostly_runs = self._mostly_runs()
            if mostly_runs:
                self._cut(1)
        if self.n_parts == 1:
            with nogil:
                status = self._reduce_range(0, &self.stacks[0], &self.part_sums[0], NULL)
            if status == _STOPPED:
                _raise_pending()
            if status == NO_MEMORY:
                raise MemoryError()
            self._take_part_zero()
            return OK
        self._run(threads, False)
        with nogil:
            status = self._stitch_all()
        if status == NO_MEMORY or self.row.no_memory:
            raise MemoryError()
        return OK

    cdef bint _mostly_runs(self) noexcept nogil:
        """A sample says the row is mostly runs: each part's first _SAMPLE_COINS coins,
        reduced on their own (in the part's scratch), have at least 3/4 of them as
        entries of runs (unwritten, unfused)."""
        cdef Py_ssize_t i
        cdef int64_t lo, hi, sampled = 0, in_runs = 0
        cdef RowStack *st
        for i in range(self.n_parts):
            lo = self.bounds[i]
            hi = self.bounds[i + 1]
            if hi - lo > _SAMPLE_COINS:
                hi = lo + _SAMPLE_COINS
            st = &self.stacks[i]
            # stop_flag is never looked at: the sample is shorter than a step.
            self._reduce_span(i, lo, hi, st, &self.part_sums[i], &self.stop_flag)
            sampled += hi - lo
            in_runs += st.top - st.written
        return 4 * in_runs >= 3 * sampled

    cdef int _cut(self, Py_ssize_t parts) except -1:
        """Cut the row into ``parts`` parts and allocate their scratch."""
        cdef Py_ssize_t i
        cdef int64_t size = self.n + 2 * parts
        self.n_parts = parts
        free(self.bounds)
        _scratch_free(self.raw)
        _scratch_free(self.raw_segments)
        self.raw = NULL
        self.raw_segments = NULL
        self.bounds = <int64_t *> malloc((parts + 1) * sizeof(int64_t))
        # No huge pages: a row that rarely fuses touches its scratch in a few places only.
        self.raw = <char *> _scratch(size * 8, False)
        if self.want_segments:
            self.raw_segments = <int64_t *> _scratch(size * sizeof(int64_t), False)
        if (self.bounds == NULL or self.raw == NULL
                or (self.want_segments and self.raw_segments == NULL)):
            raise MemoryError()
        if self.stacks == NULL:
            self.stacks = <RowStack *> malloc(parts * sizeof(RowStack))
            self.part_sums = <RowSums *> malloc(parts * sizeof(RowSums))
            self.surveys = <FloatSurvey *> malloc(parts * sizeof(FloatSurvey))
            if self.stacks == NULL or self.part_sums == NULL or self.surveys == NULL:
                raise MemoryError()
            memset(self.stacks, 0, parts * sizeof(RowStack))
            self.n_stacks = parts
        for i in range(parts + 1):
            self.bounds[i] = self.n * i // parts
        self.values = self.raw + 16
        _pad_below(self.values, self.floats)  # the row's two readable entries below entry 0
        self.segments = self.raw_segments + 2 if self.want_segments else NULL
        return 0

    cdef void _take_part_zero(self) noexcept nogil:
        """The row is part 0 (its runs move to the row)."""
        self.row = self.stacks[0]
        self.sums = self.part_sums[0]
        self.stacks[0].runs = NULL
        self.stacks[0].capacity = 0
        self.stacks[0].n_runs = 0

    cdef int _run(self, Py_ssize_t threads, bint survey) except -1:
        """Run every part (``survey``: its float survey, else its reduction), in this
        thread (looking at signals between steps) or on a pool of ``threads`` threads."""
        cdef Py_ssize_t i
        cdef int status
        task = self.survey_part if survey else self.reduce_part
        if threads <= 1:
            for i in range(self.n_parts):
                status = task(i, True)
                if status == _STOPPED:
                    _raise_pending()
                if status == NO_MEMORY:
                    raise MemoryError()
            return 0
        pool = _RowPool(max_workers=min(threads, self.n_parts))
        finished = False
        try:
            statuses = list(pool.map(task, range(self.n_parts), _repeat(False)))
            finished = True
        finally:
            if not finished:
                # Interrupted (Ctrl-C while waiting): the workers stop at their next step.
                coinsrow_store_flag(&self.stop_flag, 1)
            pool.shutdown(wait=True, cancel_futures=True)
        if NO_MEMORY in statuses:
            raise MemoryError()
        return 0

    def reduce_part(self, Py_ssize_t i, bint in_caller):
        """Reduce part i on its own (a task of the pool): OK, NO_MEMORY or _STOPPED."""
        cdef int status
        with nogil:
            status = self._reduce_range(i, &self.stacks[i], &self.part_sums[i],
                                        NULL if in_caller else &self.stop_flag)
        return status

    def survey_part(self, Py_ssize_t i, bint in_caller):
        """The float survey of part i (a task of the pool)."""
        with nogil:
            _float_survey(<const double *> self.coins, self.bounds[i], self.bounds[i + 1],
                          &self.surveys[i])
        return OK

    cdef int64_t _offset(self, Py_ssize_t i) noexcept nogil:
        """Where part i's entry 0 is, counted from the row's entry 0."""
        return self.bounds[i] + 2 * i

    cdef int _reduce_range(self, Py_ssize_t i, RowStack *st, RowSums *sums,
                           int *stop_flag) noexcept nogil:
        return self._reduce_span(i, self.bounds[i], self.bounds[i + 1], st, sums, stop_flag)

    cdef int _reduce_span(self, Py_ssize_t i, int64_t lo, int64_t hi, RowStack *st,
                          RowSums *sums, int *stop_flag) noexcept nogil:
        """Reduce the coins [lo, hi) of part i on their own, in part i's scratch."""
        cdef int64_t offset = self._offset(i)
        cdef int64_t *segments = self.segments + offset if self.segments != NULL else NULL
        if i > 0:
            # The part's own two readable entries below its entry 0.
            _pad_below((<char *> self.values) + 8 * offset, self.floats)
        if self.floats:
            return _reduce_part(<const double *> self.coins, lo, hi,
                                <double *> self.values + offset, segments, st, sums, False,
                                stop_flag)
        return _reduce_part(<const int64_t *> self.coins, lo, hi,
                            <int64_t *> self.values + offset, segments, st, sums,
                            self.want_total, stop_flag)

    cdef int _stitch_all(self) noexcept nogil:
        """The parts' reduced forms, pushed in order onto the row's (parts reduced): OK or
        NO_MEMORY."""
        cdef Py_ssize_t i
        cdef int64_t offset, w
        cdef int status
        cdef RowSums *s
        cdef RowStack *part
        cdef void *part_values
        cdef int64_t *part_segments
        cdef void *copy = NULL
        cdef int64_t *copy_segments = NULL
        self._take_part_zero()
        for i in range(1, self.n_parts):
            offset = self._offset(i)
            part = &self.stacks[i]
            _place_runs(part)
            part_values = (<char *> self.values) + 8 * offset
            part_segments = self.segments + offset if self.segments != NULL else NULL
            w = part.written
            # Its written entries come after runs: where the seam fuses, the row could
            # overtake them while it pushes the part's first entries.
            status = self._stitch_one(part, part_values, part_segments,
                                      part.n_runs > 0 and w > 0)
            if status == _OVERTAKE:
                # Read them from a copy.
                copy = malloc(w * 8)
                if self.segments != NULL:
                    copy_segments = <int64_t *> malloc(w * sizeof(int64_t))
                if copy == NULL or (self.segments != NULL and copy_segments == NULL):
                    free(copy)
                    free(copy_segments)
                    return NO_MEMORY
                memcpy(copy, part_values, w * 8)
                if self.segments != NULL:
                    memcpy(copy_segments, part_segments, w * sizeof(int64_t))
                self._stitch_one(part, copy, copy_segments, False)
                free(copy)
                free(copy_segments)
                copy = NULL
                copy_segments = NULL
            if not self.floats:
                s = &self.part_sums[i]
                self.sums.overflow |= s.overflow
                # The part's parities are counted from its own first coin.
                if self.bounds[i] & 1:
                    self.sums.overflow |= add_checked(self.sums.even, s.odd, &self.sums.even)
                    self.sums.overflow |= add_checked(self.sums.odd, s.even, &self.sums.odd)
                else:
                    self.sums.overflow |= add_checked(self.sums.even, s.even, &self.sums.even)
                    self.sums.overflow |= add_checked(self.sums.odd, s.odd, &self.sums.odd)
                self.sums.overflow |= add_checked(self.sums.rest, s.rest, &self.sums.rest)
        return OK

    cdef int _stitch_one(self, RowStack *part, const void *part_values,
                         const int64_t *part_segments, bint may_overtake) noexcept nogil:
        if self.floats:
            return _stitch(<const double *> self.coins, <double *> self.values, self.segments,
                           &self.row, <const double *> part_values, part_segments, part,
                           may_overtake)
        return _stitch(<const int64_t *> self.coins, <int64_t *> self.values, self.segments,
                       &self.row, <const int64_t *> part_values, part_segments, part,
                       may_overtake)

    cdef bint unfused(self) noexcept nogil:
        """Nothing fused: the reduced row is the row itself."""
        return _unfused(&self.row, self.n)

cdef int64_t _first_not_finite_at(const double *coins, int64_t start, int64_t stop) noexcept nogil:
    cdef int64_t p
    for p in range(start, stop):
        if not isfinite(coins[p]):
            return p
    return -1


cdef object _row_work(object coins, bint floats, Py_ssize_t parts, Py_ssize_t threads,
                      bint sample, bint want_segments, bint want_total):
    """A reduced row (``_RowWork``), or the index of its first NaN or infinity (an int)."""
    work = _RowWork(coins, floats, len(coins), want_segments, want_total)
    if work.reduce(parts, threads, sample) == NOT_FINITE:
        return work.bad_index
    return work


cdef int _row_work_value(_RowWork work, coin_t *value) except -1:
    """The value of a reduced row: OK or OVERFLOW (the GIL released while it runs)."""
    cdef bint ovf = work.row.overflow, whole_known = False
    cdef int64_t whole = 0
    cdef coin_t result = 0
    with nogil:
        if coin_t is int64_t:
            if work.unfused() and not work.sums.overflow:
                whole_known = not sub_checked(work.sums.even, work.sums.odd, &whole)
            _place_runs(&work.row)
            result = _row_value_int(<const int64_t *> work.coins, <const int64_t *> work.values,
                                    &work.row, whole_known, whole, &ovf)
        else:
            # Plus zero, as for a whole game (its empty Fruitless term): -0.0 becomes 0.0.
            _place_runs(&work.row)
            result = _row_value_float(<const double *> work.coins,
                                      <const double *> work.values, &work.row) + 0.0
    value[0] = result
    if ovf or not _is_finite(result):
        return OVERFLOW
    return OK


def row_value(const coin_t[::1] coins, Py_ssize_t parts, Py_ssize_t threads,
              bint sample=False):
    """The value of one row: ``(status, value or bad index)``.

    The row is reduced in ``parts`` parts at once on ``threads`` threads (1, 1: coin after
    coin in the calling thread) and the parts stitched; the answer, float rounding
    included, does not depend on either (float rows are cut only where every addition is
    exact). ``sample`` (``threads=None``): a sample of the parts first, and a row that is
    mostly runs is reduced on the calling thread (docs/rows.md). O(n) time, the Greedy
    phase O(m) for m reduced entries (O(1) when nothing fuses); extra memory one number per
    coin, written only where coins fuse. Ctrl-C stops it.
    """
    cdef coin_t value = 0
    cdef int status
    cdef _RowWork work
    if coins.shape[0] == 0:
        return Status.OK, value
    reply = _row_work(coins, coin_t is double, parts, threads, sample, False, False)
    if not isinstance(reply, _RowWork):
        return Status.NOT_FINITE, reply
    work = reply
    status = _row_work_value(work, &value)
    return _codes.Status(status), value


def row_profits(const coin_t[::1] coins, Py_ssize_t parts, Py_ssize_t threads,
                bint sample=False):
    """What each player collects on one row: ``(status, (first, second) or bad index)``.

    int64: first = (sum + value) / 2, the sum taken in the same pass as the value. float64:
    each player's coins of the optimal play, summed exactly and rounded once. ``parts`` and
    ``threads`` as for ``row_value``. O(n).
    """
    cdef coin_t value = 0, total = 0, twice, first = 0, second = 0
    cdef int64_t part_sum = 0
    cdef double first_f = 0.0, second_f = 0.0
    cdef int status, result = OK
    cdef bint ovf = False
    cdef _RowWork work
    if coins.shape[0] == 0:
        return Status.OK, (first, second)
    reply = _row_work(coins, coin_t is double, parts, threads, sample, coin_t is double,
                      coin_t is int64_t)
    if not isinstance(reply, _RowWork):
        return Status.NOT_FINITE, reply
    work = reply
    status = _row_work_value(work, &value)
    with nogil:
        if coin_t is int64_t:
            # The sum: the unfused prefix's coins by parity, and the others (see RowSums).
            ovf = work.sums.overflow
            ovf |= add_checked(work.sums.even, work.sums.odd, &part_sum)
            ovf |= add_checked(part_sum, work.sums.rest, &total)
            # sum + value is twice what the first player takes: even, so halving is exact.
            ovf |= add_checked(total, value, &twice)
            first = twice // 2
            ovf |= sub_checked(total, first, &second)
            if ovf:
                status = OVERFLOW
        else:
            _place_runs(&work.row)
            result = _row_float_profits_pieces(<const double *> work.coins,
                                               <const double *> work.values, work.segments,
                                               &work.row, work.n, &first_f, &second_f)
            if result != OK:
                status = result
            first = first_f
            second = second_f
    if status == NO_MEMORY:
        raise MemoryError()
    return _codes.Status(status), (first, second)


def row_play(const coin_t[::1] coins, Py_ssize_t parts, Py_ssize_t threads,
             bint sample=False):
    """An optimal play of one row: ``(status, moves or bad index)``, ``moves`` an
    ``array('q')`` of the index of the coin taken at each turn. ``parts`` and ``threads``
    as for ``row_value``; the play is the same whatever they are (one tie rule:
    docs/rows.md). OVERFLOW when the value overflows (int64) or leaves the float range.
    O(n) time, two numbers of scratch per coin besides the moves."""
    cdef coin_t value = 0
    cdef int status
    cdef _RowWork work
    cdef int64_t n = coins.shape[0]
    moves = _cpython_array.clone(_MOVES_TEMPLATE, n, False)
    if n == 0:
        return Status.OK, moves
    cdef int64_t[::1] out_coin = moves
    reply = _row_work(coins, coin_t is double, parts, threads, sample, True, False)
    if not isinstance(reply, _RowWork):
        return Status.NOT_FINITE, reply
    work = reply
    status = _row_work_value(work, &value)
    with nogil:
        if work.unfused():
            _row_play_unfused(<const coin_t *> work.coins, 0, n, &out_coin[0])
        else:
            _place_runs(&work.row)
            _row_play_pieces(<const coin_t *> work.coins, <const coin_t *> work.values,
                             work.segments, &work.row, n, &out_coin[0], NULL)
    return _codes.Status(status), moves


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


# ---------------------------------------------------------------------------------------
# The value of a game of many int64 components (docs/positions.md, "The value of many
# components"). Fusion and Fruitless write the entries left of each component one after
# the other, so nothing is gathered afterwards; the coins' sum (for the profits) is taken in
# the same pass. When the remaining entries are within 2^32 of each other (coins of at most
# 32 bits), they are sorted as 32-bit offsets from the smallest one, in as few passes of at
# most 11 bits as their spread needs: half the memory and bandwidth of 64-bit keys, and no
# pass over bits every entry shares.

cdef enum:
    # Bits per pass of the narrow radix sort: 2048 counters a pass, in the first-level cache.
    _NARROW_DIGIT = 11


cdef int64_t _game_reduce_int(const int64_t *coins, const int64_t *starts,
                              const int64_t *stops, Py_ssize_t k, Py_ssize_t n_rows,
                              int64_t total_coins, int64_t *values, int64_t *fruitless,
                              int64_t *coin_sum, bint *overflow,
                              bint *sum_overflow) noexcept nogil:
    """Fusion on every component, Fruitless at the bottom of every stack, the remaining
    entries written one component after the other from values[0]: their number returned.

    The order of the entries is the components', each component's its reduced form (the
    order does not matter for the value). ``values`` has room for ``total_coins`` entries and
    two readable ones before values[0] (see ``_padded``). Adds the Fruitless terms to
    ``fruitless[0]`` and the coins, in their order, to ``coin_sum[0]``; ``overflow`` and
    ``sum_overflow`` say whether int64 overflowed in either. O(n), one pass over the coins.
    """
    cdef Py_ssize_t c
    cdef int64_t *sp = values
    cdef int64_t *base
    cdef int64_t *deep
    cdef int64_t v, t, first, second, total = coin_sum[0], lost = fruitless[0]
    cdef int64_t p, stop
    cdef bint ovf = False, sovf = False, n_odd = total_coins & 1
    for c in range(k):
        base = sp
        deep = base + 2
        first = 0   # masked by the depth test until set
        second = 0
        stop = stops[c]
        for p in range(starts[c], stop):
            v = coins[p]
            sovf |= add_checked(total, v, &total)
            # Fusion x <= M > v, strict on the right (see _reduce_loop): the same reduced
            # form as every other kernel.
            while coinsrow_unlikely((second <= first) & (first > v) & (sp >= deep)):
                ovf |= sub_checked(second, first, &t)
                ovf |= add_checked(t, v, &v)
                sp -= 2
                # Below the component's base this reads entries of the component before,
                # or the padding: masked by the depth test.
                first = (sp - 1)[0]
                second = (sp - 2)[0]
            sp[0] = v
            sp += 1
            second = first
            first = v
        if c >= n_rows:
            # Fruitless (see _reduce_all_into): the stack's two bottom entries x <= M.
            while sp - base >= 2 and (sp - 2)[0] <= (sp - 1)[0]:
                ovf |= sub_checked((sp - 2)[0], (sp - 1)[0], &t)
                if n_odd:
                    ovf |= sub_checked(lost, t, &lost)
                else:
                    ovf |= add_checked(lost, t, &lost)
                sp -= 2
    coin_sum[0] = total
    fruitless[0] = lost
    overflow[0] |= ovf
    sum_overflow[0] |= sovf
    return sp - values


cdef int _alternating_sum_narrow(int64_t *values, int64_t m, int64_t smallest,
                                 uint64_t spread, int64_t *total) noexcept nogil:
    """The entries values[0:m], largest first, with alternating signs, into ``total[0]``:
    every entry is in [smallest, smallest + spread] and spread < 2^32, m < 2^31.

    LSD radix sort of the 32-bit offsets ``value - smallest``, in passes of at most
    _NARROW_DIGIT bits covering only the bits of ``spread``. The sorted entries x0 >= x1 >=
    ... are summed as (x0 - x1) + (x2 - x3) + ... (each pair's difference at most the
    spread, so the offsets' sum cannot overflow 64 bits) plus, for odd m, the smallest
    entry: that equals the alternating sum, and every partial sum of it in sorted order lies
    in [0, spread] or [smallest, largest], so it never overflows int64 either.

    No scratch: the offsets overwrite the entries (the first 4 m bytes of ``values``) and
    the sort's other half is the next 4 m bytes, memory the entries already touched (a
    fresh page costs a page fault, about as much as sorting the entries on it). Always OK.
    """
    cdef uint32_t counts[3][1 << _NARROW_DIGIT]
    cdef char *bytes = <char *> values
    cdef uint32_t *keys = <uint32_t *> bytes
    cdef uint32_t *spare = keys + m
    cdef uint32_t *source
    cdef uint32_t *target
    cdef uint32_t *swap
    cdef uint32_t key, mask, offset, count
    cdef uint64_t high = 0, low = 0
    cdef int64_t i, x
    cdef int bits = 0, passes, width, d, shift, b
    while bits < 32 and (spread >> bits) != 0:
        bits += 1
    if m == 0:
        total[0] = 0
        return OK
    if bits == 0:  # all alike: the pairs cancel
        total[0] = smallest if m & 1 else 0
        return OK
    passes = (bits + _NARROW_DIGIT - 1) // _NARROW_DIGIT
    width = (bits + passes - 1) // passes
    mask = (1u << width) - 1
    memset(counts, 0, sizeof(counts))
    for i in range(m):
        # In place, through memcpy (the same bytes read as int64 and written as uint32):
        # key i is written over bytes 4i to 4i + 4, entry i already read, entry i + 1 at 8i + 8.
        memcpy(&x, bytes + 8 * i, 8)
        key = <uint32_t> (<uint64_t> x - <uint64_t> smallest)
        memcpy(bytes + 4 * i, &key, 4)
        for d in range(passes):
            counts[d][(key >> (d * width)) & mask] += 1
    source = keys
    target = spare
    for d in range(passes):
        shift = d * width
        offset = 0
        for b in range(1 << width):
            count = counts[d][b]
            counts[d][b] = offset
            offset += count
        for i in range(m):
            key = source[i]
            b = (key >> shift) & mask
            target[counts[d][b]] = key
            counts[d][b] += 1
        swap = source
        source = target
        target = swap
    # source is ascending: the pairs from the top.
    i = m - 1
    while i > 0:
        high += source[i]
        low += source[i - 1]
        i -= 2
    total[0] = <int64_t> (high - low)
    if m & 1:
        total[0] += smallest + <int64_t> source[0]
    return OK


cdef int _game_value_int(const int64_t[::1] coins, const int64_t[::1] starts,
                         const int64_t[::1] stops, Py_ssize_t n_rows, int64_t total_coins,
                         int64_t *value, int64_t *coin_sum, bint *sum_overflow) noexcept nogil:
    """The value of a game of int64 coins, as ``_game_value`` computes it, and the sum of
    its coins (into ``coin_sum[0]``, ``sum_overflow`` set on overflow): OK, OVERFLOW or
    NO_MEMORY. O(n): one pass over the coins, one radix sort of the remaining entries.
    Extra memory: n + 2 coins (of which the m <= n entries left after the reductions are
    touched, and sorted there when their spread is under 2^32; otherwise m more 64-bit
    keys)."""
    cdef Py_ssize_t k = starts.shape[0]
    cdef int64_t *values = NULL
    cdef int64_t fruitless = 0, total = 0, smallest, largest, x, m, i
    cdef int status = OK, result
    cdef bint ovf = False
    cdef int64_t kind = 0
    values = _padded(<int64_t *> malloc((total_coins + 2) * sizeof(int64_t)))
    if values == NULL:
        value[0] = 0
        return NO_MEMORY
    m = _game_reduce_int(&coins[0], &starts[0], &stops[0], k, n_rows, total_coins, values,
                         &fruitless, coin_sum, &ovf, sum_overflow)
    if k == 1 and n_rows == 1:
        total = _one_row_greedy(values, 0, m - 1, &ovf)
    elif m > 0:
        smallest = values[0]
        largest = values[0]
        for i in range(1, m):
            x = values[i]
            smallest = x if x < smallest else smallest
            largest = x if x > largest else largest
        if (<uint64_t> largest - <uint64_t> smallest) >> 32 == 0 and m < (<int64_t> 1 << 31):
            status = _alternating_sum_narrow(values, m, smallest,
                                             <uint64_t> largest - <uint64_t> smallest, &total)
        else:
            # Wide spreads: the keys of every entry, in place, and the 64-bit sort.
            for i in range(m):
                (<uint64_t *> values)[i] = _key(values[i])
            result = _alternating_sum_sorted(<uint64_t *> values, m, &total, &kind)
            status = NO_MEMORY if result == NO_MEMORY else OK
            ovf |= result == OVERFLOW
    free(values - 2)
    ovf |= add_checked(total, fruitless, &total)
    if ovf and status == OK:
        status = OVERFLOW
    value[0] = total
    return status


cdef int _game_value(const double[::1] coins, const int64_t[::1] starts,
                     const int64_t[::1] stops, Py_ssize_t n_rows, int64_t total_coins,
                     double *value, int64_t *bad_index) noexcept nogil:
    """The value of a game of float64 coins, as ``game_value`` computes it; OK, OVERFLOW,
    NOT_FINITE or NO_MEMORY. (int64 coins: ``_game_value_int``.)"""
    cdef Py_ssize_t k = starts.shape[0]
    cdef double *values = NULL
    cdef Component *components = NULL
    cdef double fruitless = 0, total = 0
    cdef int64_t m
    cdef uint64_t *keys = NULL
    cdef int status = OK, result
    cdef bint ovf = False
    values = _padded(<double *> malloc((total_coins + 2) * sizeof(double)))
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
    keys are gathered, the coins' scratch freed, then the sort's spare keys allocated). On
    int64 coins, one pass over the coins and no gathering (``_game_value_int``): n + 2 words,
    the entries sorted in them when they are within 2^32 of each other.
    """
    cdef int64_t total_coins = _total_coins(starts, stops), bad_index = -1, coin_sum = 0
    cdef coin_t value = 0
    cdef int status = OK
    cdef bint sum_overflow = False
    if starts.shape[0] == 0:
        return Status.OK, value
    with nogil:
        if coin_t is int64_t:
            status = _game_value_int(coins, starts, stops, n_rows, total_coins, &value,
                                     &coin_sum, &sum_overflow)
        else:
            status = _game_value(coins, starts, stops, n_rows, total_coins, &value,
                                 &bad_index)
    if status == NO_MEMORY:
        raise MemoryError()
    if status == NOT_FINITE:
        return Status.NOT_FINITE, bad_index
    return _codes.Status(status), value


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
    return _codes.Status(status), value


def game_profits(const coin_t[::1] coins, const int64_t[::1] starts,
                 const int64_t[::1] stops, Py_ssize_t n_rows):
    """What each player collects: ``(status, (first, second) or bad flat index)``.

    int64: first = (sum + value) / 2, exact (every sum checked). float64: the coins each
    player takes in the optimal play, each total summed exactly and rounded once (so
    ``first`` is what math.fsum of her coins gives); OVERFLOW when the value or a rounded
    total is beyond the float range. O(n) for one row, O(n log k) otherwise.
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
            # The coins' sum is taken in the value's pass over the coins.
            status = _game_value_int(coins, starts, stops, n_rows, total_coins, &value,
                                     &total, &ovf)
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
    return _codes.Status(status), (first, second)


def check_finite(const coin_t[::1] coins):
    """``(NOT_FINITE, index)`` of the first NaN or infinity, else ``(OK, None)``. O(n)."""
    cdef int64_t bad = -1
    if coin_t is double:
        with nogil:
            bad = _first_not_finite(coins, 0, coins.shape[0])
    if bad >= 0:
        return Status.NOT_FINITE, bad
    return Status.OK, None
