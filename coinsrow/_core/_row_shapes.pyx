# coinsrow._core._row_shapes: what a row's shape decides before its Fusion loop runs, once
# a part (docs/rows.md): whether value() lets ties fuse (_ties_fuse) and whether play
# compacts the row's plateaus first (_compaction_pays), both from samples of the row, and
# that compaction (_compact_plateaus, called by _row_stack once a chunk of coins). The
# Fusion loops themselves are in _row_stack.

from coinsrow._core._types cimport NotWanted, Wanted, int64_t, memset, ties_t, uint8_t, uint64_t
from coinsrow._core._row_stack cimport _fuses, _write_coin_segments, coinsrow_ctz64

from array import array


cdef int64_t _sample_fusions(const int64_t *c, int64_t n, int64_t *stack,
                             int64_t *mispredicted, ties_t *ties_mode) noexcept nogil:
    """The Fusions in the reduction of the coins c[0:n] on their own (``stack``: room for
    n entries), with _fuses' test of ``ties_t``; ``mispredicted`` receives how many
    outcomes of that test a simple branch predictor (two-bit counters indexed by the last
    six outcomes) gets wrong. Wrapping arithmetic: a count, not a value. O(n)."""
    cdef int64_t m = 0, fusions = 0, misses = 0, v
    cdef uint8_t counters[64]
    cdef unsigned int history = 0
    cdef bint fuses
    cdef Py_ssize_t i
    memset(counters, 1, sizeof(counters))
    for i in range(n):
        v = c[i]
        while True:
            fuses = m >= 2 and _fuses(stack[m - 2], stack[m - 1], v, ties_mode)
            misses += (counters[history] >= 2) != fuses
            if fuses:
                counters[history] += counters[history] < 3
            else:
                counters[history] -= counters[history] > 0
            history = ((history << 1) | fuses) & 63
            if not fuses:
                break
            v = <int64_t> (<uint64_t> stack[m - 2] - <uint64_t> stack[m - 1] + <uint64_t> v)
            m -= 2
            fusions += 1
        stack[m] = v
        m += 1
    mispredicted[0] = misses
    return fusions


cdef bint _all_equal(const int64_t *c, int64_t n) noexcept nogil:
    """Whether the coins c[0:n] are all equal. O(n)."""
    cdef int64_t i
    for i in range(1, n):
        if c[i] != c[0]:
            return False
    return True


cdef bint _ties_fuse_sampled(const int64_t *c, int64_t n) noexcept nogil:
    """Whether value() lets ties fuse on the row c[0:n], of _TIE_SAMPLE_FROM to
    _TIE_SAMPLE_UNTIL coins, as samples of the row say (_TIE_SAMPLES stretches of
    _TIE_STRETCH coins, spread over the row). Either test gives the same value.

    Letting ties fuse keeps the stack short and the Fusions regular (staircase down, 10^6
    coins: 1.4 ms, 3.7 with the strict test, whose Fusions come at irregular places); but
    where ties fuse an entry with the coin equal to it, the strict test leaves the two on
    the stack, and on a square wave it makes half the Fusions and is the faster (0.55x to
    0.8x the time, 10^6 coins). So each test's cost on the samples is its Fusions plus five
    for each outcome of its test a simple predictor gets wrong (a misprediction costs
    about what five Fusions do), and the strict test is taken where it costs a fifth less
    and fuses at all. Fusions alone took rows with many ties at random places for square
    waves (the top 30% of the coins tied, plateaus of 2: value() 1.75x the plain C loop
    with the strict test, 0.80x with ties fused), and one sample from the middle took a
    valley of a few noisy levels, all equal coins in its middle, for a row of equal coins
    (1.36x against 0.91x to 0.94x). O(1): a few microseconds."""
    cdef int64_t stack[_TIE_STRETCH]
    cdef const int64_t *sample
    cdef int64_t strict = 0, ties = 0, strict_misses = 0, ties_misses = 0, misses, k
    for k in range(_TIE_SAMPLES):
        # The k-th stretch starts at (2k + 1) / (2 _TIE_SAMPLES) of the row.
        sample = c + (2 * k + 1) * (n // (2 * _TIE_SAMPLES))
        if _all_equal(sample, _TIE_STRETCH):
            continue
        strict += _sample_fusions(sample, _TIE_STRETCH, stack, &misses, <NotWanted *> NULL)
        strict_misses += misses
        ties += _sample_fusions(sample, _TIE_STRETCH, stack, &misses, <Wanted *> NULL)
        ties_misses += misses
    return (strict == 0
            or 5 * (strict + 5 * strict_misses) >= 4 * (ties + 5 * ties_misses))


def ties_fuse(bytes coins):
    """Whether value() lets ties fuse on a row of these int64 coins (their bytes, native
    order), as its Fusion loop decides (_ties_fuse): for the tests, which check both
    Fusion tests on the rows each is taken for. O(1)."""
    return _ties_fuse(<const int64_t *> <const char *> coins, len(coins) // 8)


# Play on rows where many coins repeat the one before (staircase down: one coin in three)
# first compacts each chunk of coins (_compact_plateaus): a plateau of equal coins b, b, ...
# followed by a lower coin c fuses pair by pair from its end, (b, b, c) -> c, which the strict
# test of _push_ints does too, but there the number of Fusions a coin follows the plateaus'
# random lengths and its branches are mispredicted 0.58 times a coin (docs/rows.md, "Against
# the plain C loop"). Fusion is confluent, so these Fusions may come first: the compaction
# does them by the parity of each plateau's length, branching only on whether the coin after
# a plateau is lower, and the Fusion loop then reads the entries left (a third of the
# staircase's coins) with their first coins (``starts_t`` Wanted). Staircase down, 10^6
# coins, a C copy of the loop: 3.6 ms, compacted 2.1 (the compaction 1.2 of it). The cost on
# rows with few ties is the compaction's, for nothing: _compaction_pays decides.
cdef extern from *:
    """
    #if defined(__SSE2__) || defined(_M_X64)
    #include <emmintrin.h>
    #endif
    /* Bit i set where w[i] != w[i - 1], for i < 64 (w[-1] readable). SSE2: two coins a
       compare, the 64-bit lanes equal where both their 32-bit halves are (the bits in one
       scalar loop took 0.35 ns a coin more of the compaction's 1.5 on the staircase). */
    static inline uint64_t coinsrow_unequal_mask(const int64_t *w) {
        uint64_t equal = 0;
        int i;
    #if defined(__SSE2__) || defined(_M_X64)
        for (i = 0; i < 64; i += 2) {
            __m128i e = _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(w + i)),
                                        _mm_loadu_si128((const __m128i *)(w + i - 1)));
            e = _mm_and_si128(e, _mm_shuffle_epi32(e, 0xB1));
            equal |= (uint64_t)_mm_movemask_pd(_mm_castsi128_pd(e)) << i;
        }
    #else
        for (i = 0; i < 64; i++)
            equal |= (uint64_t)(w[i] == w[i - 1]) << i;
    #endif
        return ~equal;
    }
    """
    uint64_t coinsrow_unequal_mask(const int64_t *w) noexcept nogil


cdef inline int64_t _write_plateau(int64_t b, int64_t s, int64_t k, int64_t first_start,
                                   int64_t *out, int64_t *starts) noexcept nogil:
    """Write a plateau of k coins b from coin s on as entries: the first with its segment
    from ``first_start`` on, the others each a coin. Returns k."""
    cdef int64_t t
    out[0] = b
    starts[0] = first_start
    for t in range(1, k):
        out[t] = b
    _write_coin_segments(starts + 1, s + 1, k - 1)
    return k


cdef inline int64_t _end_plateau(int64_t x, int64_t j, int64_t b, int64_t s,
                                 int64_t *carry, int64_t *out, int64_t *starts) noexcept nogil:
    """The plateau of coins s .. j - 1, all b (its first entry's segment from ``carry`` on),
    is followed by coin j, x != b: write what is left of it at ``out`` and return how many
    entries; ``carry`` becomes the first coin of coin j's entry. A lower coin eats the
    plateau's equal entries in pairs from its end: all of them (it then starts where the
    plateau did), or all but the first (it starts at s + 1), by the parity of the length,
    without a branch on it."""
    cdef int64_t k = j - s, odd
    if x < b:
        out[0] = b
        starts[0] = carry[0]
        odd = k & 1
        carry[0] ^= (carry[0] ^ (s + 1)) & -odd
        return odd
    _write_plateau(b, s, k, carry[0], out, starts)
    carry[0] = j
    return k


cdef int64_t _compact_plateaus(const int64_t *coins, int64_t p, int64_t e, int64_t *out,
                               int64_t *starts) noexcept nogil:
    """The coins coins[p:e] after the Fusions (b, b, c) -> c of every plateau of equal coins
    b followed by a lower coin c inside them, into ``out`` (at most e - p entries), the first
    coin of each entry into ``starts``; returns how many. Fusion in any order gives the
    same reduced row, so pushing these entries gives the stack the coins give. coins[p - 1]
    is readable (p > 0). The plateaus are found 64 coins at a time (coinsrow_unequal_mask),
    one step a plateau. O(e - p)."""
    cdef int64_t o = 0, s = p, b = coins[p], carry = p, base = p, j, x
    cdef uint64_t unequal
    while base + 64 <= e:
        unequal = coinsrow_unequal_mask(coins + base)
        if base == p:
            unequal &= ~(<uint64_t> 1)  # coin p starts the first plateau
        while unequal:
            j = base + coinsrow_ctz64(unequal)
            unequal &= unequal - 1
            x = coins[j]
            o += _end_plateau(x, j, b, s, &carry, out + o, starts + o)
            s = j
            b = x
        base += 64
    for j in range(base if base > p else p + 1, e):
        x = coins[j]
        if x != b:
            o += _end_plateau(x, j, b, s, &carry, out + o, starts + o)
            s = j
            b = x
    # The last plateau, whose end is not known here.
    return o + _write_plateau(b, s, e - s, carry, out + o, starts + o)


cdef bint _compaction_pays_sampled(const int64_t *c, int64_t n) noexcept nogil:
    """Whether play compacts the plateaus of the row c[0:n] first (_reduce_compacted): on rows
    of _TIE_SAMPLE_FROM coins or more, as _TIE_SAMPLES stretches of _TIE_STRETCH coins spread
    over the row say. Each way's cost on them, in the unit of a Fusion (about 1 ns): the
    Fusions of the strict test plus 5 for each outcome of it a simple predictor gets wrong
    (_sample_fusions), on the coins or on the compacted entries; the compaction 1.2 a coin
    and 5 a rise (its one unpredictable branch), the Fusion loop 0.8 an entry it reads.
    Measured in a C copy of both, 10^6 coins: staircase down 0.58x the time (this estimate:
    0.66x), zigzag plateaus 1.23x (1.28x), 2 values 1.25x (1.28x), square wave 1.7x (1.36x);
    rows without ties 1.2x to 5x. O(1): a few microseconds."""
    cdef int64_t stack[_TIE_STRETCH]
    cdef int64_t out[_TIE_STRETCH]
    cdef int64_t starts[_TIE_STRETCH]
    cdef int64_t raw = 0, compacted = 0, raw_misses = 0, compacted_misses = 0, misses
    cdef int64_t kept = 0, rises = 0, at, m, k, i
    cdef int64_t sampled = _TIE_SAMPLES * _TIE_STRETCH
    for k in range(_TIE_SAMPLES):
        at = (2 * k + 1) * (n // (2 * _TIE_SAMPLES))
        raw += _sample_fusions(c + at, _TIE_STRETCH, stack, &misses, <NotWanted *> NULL)
        raw_misses += misses
        m = _compact_plateaus(c, at, at + _TIE_STRETCH, out, starts)
        kept += m
        compacted += _sample_fusions(out, m, stack, &misses, <NotWanted *> NULL)
        compacted_misses += misses
        for i in range(at + 1, at + _TIE_STRETCH):
            rises += c[i] > c[i - 1]
    # Both sides times 5: 1.2 and 0.8 a coin are 6 and 4.
    return (5 * (compacted + 5 * compacted_misses + 5 * rises) + 4 * kept + 6 * sampled
            < 5 * (raw + 5 * raw_misses) + 4 * sampled)


def compaction_pays(bytes coins):
    """Whether play compacts the plateaus of a row of these int64 coins (their bytes, native
    order) first (_compaction_pays): for the tests, which check both ways on the rows each
    is taken for. O(1)."""
    return _compaction_pays(<const int64_t *> <const char *> coins, len(coins) // 8)


def compact_plateaus(bytes coins, Py_ssize_t p, Py_ssize_t e):
    """The entries _compact_plateaus makes of coins[p:e] (int64 coins, their bytes in native
    order; 0 < p < e <= n) and the first coin of each: two lists, for the tests. O(e - p)."""
    cdef Py_ssize_t n = len(coins) // 8
    if not 0 < p < e <= n:
        raise ValueError(f"need 0 < p < e <= {n}, got p={p}, e={e}")
    out = array("q", bytes(8 * (e - p)))
    starts = array("q", bytes(8 * (e - p)))
    cdef int64_t[::1] out_view = out
    cdef int64_t[::1] starts_view = starts
    cdef int64_t m = _compact_plateaus(<const int64_t *> <const char *> coins, p, e,
                                       &out_view[0], &starts_view[0])
    return out.tolist()[:m], starts.tolist()[:m]
