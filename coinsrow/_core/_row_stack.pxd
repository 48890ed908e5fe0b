# Declarations of coinsrow._core._row_stack that other modules cimport: the reduced row as
# a stack of written entries and runs of coins, and the inline readers of its entries.

from coinsrow._core._types cimport *
from coinsrow._core._signals cimport coinsrow_store_flag, _stop_requested


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
    # After this many coins pushed without a Fusion (int64: in a row, without a Fusion of
    # unequal entries), the next coins are scanned as a run instead of being written (on
    # random coins this hardly ever happens).
    _RUN_AFTER = 64
    # The block after a long run (see _reduce_part).
    _RUN_PROBE = 8
    # The entries a Fusion reaching into a run writes the first time (then twice as many
    # each time): a tie on a descending stretch fuses once and no more, so most runs are
    # reached into only once.
    _REFILL_FIRST = 8
    # A Fusion of value() or profits() reaching into a run at least this long reads the
    # run's coins in place (_fuse_run) instead of writing them first.
    _READ_RUN = 16
    # How far below the top of such a run its coins are prefetched (entries): read from the
    # top down, a long run's coins are not fetched ahead by the processor (value() on the
    # linear peak, 10^7 coins: 1.06x to 1.08x the C loop without, 0.79x to 0.93x with 256;
    # 64: 1.01x, 1024: 1.01x).
    _RUN_AHEAD = 256
    # How far ahead of the coin it reads the Fusion loop of int64 value() and profits() asks
    # for a coin, at each Fusion (coins; see _push_ints).
    _COINS_AHEAD = 256
    # How far ahead of the pair it reads the run scan (_unfused_scan) asks for a coin, at
    # each pair: the processor's prefetchers alone left it waiting for coins out of the
    # cache (value() on 10^7 sorted coins, ascending 0.63 -> 0.45 ns a coin, descending
    # without ties 0.96 -> 0.45; 10^6 coins, in the cache: 0.39 -> 0.37, 0.44 -> 0.40).
    _SCAN_AHEAD = 256
    # Coins scanned without a Fusion that stay a run; fewer are written (a run near the top
    # sends the Fusion loop to its slow path).
    _SHORT_RUN = 32
    # The coins play compacts at a time where their plateaus are worth it (_reduce_compacted):
    # 2 x 16 KiB of entries, in the cache (chunks of 512 to 16,384 coins: the same time).
    _PLATEAU_CHUNK = 2048
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
    """
    int coinsrow_ctz64(uint64_t x) noexcept nogil


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


cdef inline void _write_coin_segments(int64_t *out, int64_t first_coin,
                                      int64_t n) noexcept nogil:
    """out[e] = first_coin + e for e < n: the segments of entries that are coins themselves
    (written out of a run, or a short unfused stretch). Its arguments are values, not the
    run's or the stack's fields: stores through ``out`` may alias those, which the compiler
    then reloaded at each entry instead of vectorising the loop (play() on plateaus, 10^6
    coins: 1.83 -> 1.41 ms in _refill). O(n)."""
    cdef int64_t e
    for e in range(n):
        out[e] = first_coin + e


cdef inline bint _fuses(int64_t second, int64_t first, int64_t v,
                        ties_t *ties_mode) noexcept nogil:
    """The Fusion test of _push_ints: x <= M >= v (``ties_t`` Wanted: a tie fuses too,
    which any Fusion may, keeping the value), written max(x, v) <= M, one compare as in the
    plain C loop; or x <= M > v (play: the reduced row every other kernel has, so the same
    moves; and value() on rows where ties would fuse much more, see _ties_fuse)."""
    if ties_t is NotWanted:
        return (second <= first) & (first > v)
    return (second if second > v else v) <= first


cdef inline coin_t *_push_entry(coin_t *values, int64_t *segments, coin_t *sp, coin_t v,
                                int64_t seg, coin_t *first, coin_t *second,
                                segments_t *segments_mode) noexcept nogil:
    """Write the entry ``v`` at ``sp``, one past the top of a Fusion stack in ``values``
    (and its first coin ``seg`` in ``segments``, when wanted), and move the two top entries
    the Fusion loop keeps in registers up: ``second`` becomes ``first``, ``first`` v.
    Returns the new one past the top. O(1)."""
    if segments_t is Wanted:
        segments[sp - values] = seg
    sp[0] = v
    second[0] = first[0]
    first[0] = v
    return sp + 1


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


cdef inline int64_t _alternating(const int64_t *a, int64_t lo, int64_t hi,
                                 bint *overflow) noexcept nogil:
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


cdef int _reduce_part(const coin_t *coins, int64_t lo, int64_t hi, coin_t *values,
                      int64_t *segments, RowStack *st, RowSums *sums, bint want_total,
                      int *stop_flag) noexcept nogil

cdef bint _must_stop(int *stop_flag) noexcept nogil

cdef void _place_runs(RowStack *st) noexcept nogil

cdef bint _unfused(RowStack *st, int64_t n) noexcept nogil

cdef int _stitch(const coin_t *coins, coin_t *values, int64_t *segments, RowStack *row,
                 const coin_t *part_values, const int64_t *part_segments,
                 RowStack *part, bint may_overtake) noexcept nogil

cdef bint _run_alt(const int64_t *coins, Run *r, int64_t *alt) noexcept nogil

cdef int64_t _refill(const coin_t *coins, coin_t *values, int64_t *segments,
                     RowStack *st) noexcept nogil

cdef coin_t _top_entry(const coin_t *coins, const coin_t *values, RowStack *st,
                       int64_t depth) noexcept nogil
