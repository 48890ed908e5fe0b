# Declarations of coinsrow._core._row_shapes that _row_stack cimports: the decisions taken
# once a part from samples of the row, and the plateau compaction of play (called once a
# chunk of _PLATEAU_CHUNK coins, never once a coin).

from coinsrow._core._types cimport int64_t


cdef enum:
    # A row of value() or profits() of _TIE_SAMPLE_FROM to _TIE_SAMPLE_UNTIL coins first
    # reduces _TIE_SAMPLES stretches of _TIE_STRETCH coins, spread over the row, with
    # either Fusion test, to pick the faster (_ties_fuse). Longer rows let ties fuse: the
    # stack the strict test leaves on a square wave (half the coins) no longer stays in the
    # cache (value(), square wave of period 8, strict test against tie test: 0.65x at 10^6
    # coins, 1.3x at 3 * 10^6, 1.4x at 10^7).
    _TIE_SAMPLE_FROM = 1 << 17
    _TIE_SAMPLE_UNTIL = 1 << 21
    _TIE_SAMPLES = 4
    _TIE_STRETCH = 128


cdef bint _ties_fuse_sampled(const int64_t *c, int64_t n) noexcept nogil

cdef bint _compaction_pays_sampled(const int64_t *c, int64_t n) noexcept nogil


# The length tests inline, the samples out of line: the Fusion loop's module keeps the code
# shape it had with both in it (value() on the square wave, 10^6 coins, 1.3x the time with
# the whole of each called out of line; the loop it runs there is inlined in _reduce_part).
cdef inline bint _ties_fuse(const int64_t *c, int64_t n) noexcept nogil:
    """Whether value() lets ties fuse on the row c[0:n] (see _ties_fuse_sampled). O(1)."""
    if n < _TIE_SAMPLE_FROM or n > _TIE_SAMPLE_UNTIL:
        return True
    return _ties_fuse_sampled(c, n)


cdef inline bint _compaction_pays(const int64_t *c, int64_t n) noexcept nogil:
    """Whether play compacts the plateaus of the row c[0:n] first (see
    _compaction_pays_sampled). O(1)."""
    if n < _TIE_SAMPLE_FROM:
        return False
    return _compaction_pays_sampled(c, n)

cdef int64_t _compact_plateaus(const int64_t *coins, int64_t p, int64_t e, int64_t *out,
                               int64_t *starts) noexcept nogil
