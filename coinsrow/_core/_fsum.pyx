# coinsrow._core._fsum: correctly rounded sums of doubles, for float profits.
#
# A float game's profits are the sums of the coins each player takes, each rounded once
# (Python's math.fsum of them), not (sum +- value) / 2, which would state totals nobody took.
#
# The accumulator is a fixed-point integer wide enough for every double: a finite double is
# m * 2^(p - 1074) for an integer m < 2^53 and a position 0 <= p <= 2045 (normal numbers:
# the 53-bit significand and p = biased exponent - 1; subnormal numbers: the fraction and
# p = 0), so a sum of doubles is an integer count of units 2^-1074. That integer is kept in
# 32-bit digits, each held in an int64 "chunk" with 31 bits to spare: adding a double adds
# the low 32 bits of m * 2^(p mod 32) to chunk p / 32 and the rest (under 2^52) to the
# next, subtracting for a negative double. No addition can round, so the sum is exact in any
# order; every _FSUM_ADDS_BEFORE_CARRY additions the carries are moved up (each chunk back
# to [0, 2^32)), before any chunk could pass 2^63. The result is the integer rounded once to
# the nearest double, ties to even: the value math.fsum gives. An addition is a few integer
# operations and two stores, without a branch on the data: float profits take 1.6x to 3.1x
# the float value, 2.0x to 10.2x with Shewchuk's partials (docs/algorithm.md).
#
# No intermediate sum can overflow; a sum whose rounded value is beyond the float range
# gives +-inf (the callers then redo the game exactly, as for any float overflow).

from coinsrow._core._types cimport *

from libc.math cimport ldexp


cdef void _exact_sum_carry(ExactSum *acc) noexcept nogil:
    """Move the carries up: chunks 0 to _FSUM_CHUNKS - 2 in [0, 2^32), the same integer."""
    cdef int64_t carry = 0, v, low
    cdef int64_t digit = (<int64_t> 1) << 32
    cdef int i
    for i in range(_FSUM_CHUNKS - 1):
        v = acc.chunk[i] + carry
        low = v & (digit - 1)
        acc.chunk[i] = low
        carry = (v - low) / digit   # exact (no signed shift, whose meaning C leaves open)
    acc.chunk[_FSUM_CHUNKS - 1] += carry
    acc.adds_left = _FSUM_ADDS_BEFORE_CARRY


cdef double exact_sum_result(ExactSum *acc) noexcept nogil:
    """The exact sum rounded to the nearest double, ties to even (math.fsum's rounding);
    +-inf beyond the float range, +0.0 for a zero sum. Leaves ``acc`` holding the same
    integer."""
    cdef int64_t *d = acc.chunk
    cdef int k, i, bits
    cdef bint negative, sticky
    cdef uint64_t top, window, mantissa
    cdef int64_t position
    cdef double result
    _exact_sum_carry(acc)
    negative = d[_FSUM_CHUNKS - 1] < 0
    if negative:
        for i in range(_FSUM_CHUNKS):
            d[i] = -d[i]
        _exact_sum_carry(acc)
    # Now every chunk is a digit in [0, 2^32), but the last, which is small and >= 0.
    k = _FSUM_CHUNKS - 1
    while k >= 0 and d[k] == 0:
        k -= 1
    if k < 0:
        result = 0.0
    elif k <= 1 and (<uint64_t> d[1] >> 20) == 0:
        # Under 2^52 units: below the normal range, an exact subnormal (or the smallest
        # normals), which the conversion and the scaling keep exact.
        result = ldexp(<double> ((<uint64_t> d[1] << 32) | <uint64_t> d[0]), -1074)
    else:
        # The top 64 bits from the highest digit down; the bits below them only decide
        # whether the sum is above a tie (sticky).
        top = <uint64_t> d[k]
        bits = 0
        while (top >> bits) != 0:
            bits += 1    # 1 to 32 (the last chunk, the only one not a digit, stays small)
        window = (<uint64_t> d[k]) << (64 - bits)
        if k >= 1:
            window |= (<uint64_t> d[k - 1]) << (32 - bits)
        sticky = False
        if k >= 2:
            window |= (<uint64_t> d[k - 2]) >> bits
            sticky = ((<uint64_t> d[k - 2]) & ((<uint64_t> 1 << bits) - 1)) != 0
        for i in range(k - 2):
            if d[i] != 0:
                sticky = True
                break
        mantissa = window >> 11
        if (window >> 10) & 1 and (sticky or (window & 1023) != 0 or (mantissa & 1)):
            mantissa += 1   # 2^53 at most, still exact as a double
        # The window's top bit is unit 32 k + bits - 1, the mantissa's lowest 52 below.
        position = 32 * <int64_t> k + bits - 1 - 52
        result = ldexp(<double> mantissa, <int> (position - 1074))
    return -result if negative else result
