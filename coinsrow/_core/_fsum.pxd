# Declarations of coinsrow._core._fsum that other modules cimport.

from coinsrow._core._types cimport *
from libc.string cimport memcpy, memset


cdef enum:
    # Chunks 0 to 64 take additions (p / 32 + 1 <= 64); 65 to 67 take only carries, the
    # last one signed: 68 chunks hold any sum of fewer than 2^60 doubles.
    _FSUM_CHUNKS = 68
    # Each addition moves a chunk by under 2^52, from [0, 2^32) after a carry: 1024
    # additions keep it under 2^62.
    _FSUM_ADDS_BEFORE_CARRY = 1024

cdef struct ExactSum:
    int64_t chunk[_FSUM_CHUNKS]
    int64_t adds_left

cdef inline void exact_sum_init(ExactSum *acc) noexcept nogil:
    """Start an empty sum."""
    memset(acc.chunk, 0, sizeof(acc.chunk))
    acc.adds_left = _FSUM_ADDS_BEFORE_CARRY

cdef inline void exact_sum_add(ExactSum *acc, double x) noexcept nogil:
    """Add a finite x to the sum exactly."""
    cdef uint64_t bits, m
    cdef int64_t p, negative, low, high
    cdef int shift
    memcpy(&bits, &x, sizeof(double))
    p = <int64_t> ((bits >> 52) & 0x7FF)
    m = bits & ((<uint64_t> 1 << 52) - 1)
    if p != 0:
        m |= <uint64_t> 1 << 52
        p -= 1
    shift = <int> (p & 31)
    low = <int64_t> ((m << shift) & ((<uint64_t> 1 << 32) - 1))   # wraps: its low bits
    high = <int64_t> (m >> (32 - shift))
    negative = -<int64_t> (bits >> 63)            # all ones for a negative x
    acc.chunk[p >> 5] += (low ^ negative) - negative
    acc.chunk[(p >> 5) + 1] += (high ^ negative) - negative
    acc.adds_left -= 1
    if coinsrow_unlikely(acc.adds_left == 0):
        _exact_sum_carry(acc)

cdef void _exact_sum_carry(ExactSum *acc) noexcept nogil

cdef double exact_sum_result(ExactSum *acc) noexcept nogil
