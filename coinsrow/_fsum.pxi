# Included by _core.pyx: correctly rounded sums of doubles, for float profits.
#
# A float game's profits are the sums of the coins each player takes, each rounded once
# (Python's math.fsum of them), not (sum +- value) / 2, which would state totals nobody took.
# The accumulator is Shewchuk's exact summation, as CPython's math.fsum implements it: the
# running sum is kept as a list of non-overlapping partials, whose exact total is the sum of
# every number added so far; the result is rounded once, half to even. Adding a number costs
# O(number of partials), a handful in practice. A double's bits span 2098 binary places, and
# partials do not overlap, so there are never more than _FSUM_CAPACITY of them.
#
# An intermediate sum beyond the float range makes the accumulator report an overflow (the
# caller then redoes the game exactly, as for any float overflow); the coins are finite.

from libc.math cimport fabs, isfinite

cdef enum:
    _FSUM_CAPACITY = 2100


cdef struct ExactSum:
    double *partials
    int64_t count
    bint overflow


cdef inline int exact_sum_init(ExactSum *acc) noexcept nogil:
    """Start an empty sum: NO_MEMORY if its partials cannot be allocated, OK otherwise."""
    acc.count = 0
    acc.overflow = False
    acc.partials = <double *> malloc(_FSUM_CAPACITY * sizeof(double))
    return NO_MEMORY if acc.partials == NULL else OK


cdef inline void exact_sum_free(ExactSum *acc) noexcept nogil:
    free(acc.partials)
    acc.partials = NULL


cdef inline void exact_sum_add(ExactSum *acc, double x) noexcept nogil:
    """Add a finite x to the sum exactly (the partials keep every bit)."""
    cdef int64_t i = 0, j
    cdef double y, hi, lo, t
    cdef double *p = acc.partials
    for j in range(acc.count):
        y = p[j]
        if fabs(x) < fabs(y):
            t = x
            x = y
            y = t
        hi = x + y
        lo = y - (hi - x)
        if lo != 0.0:
            p[i] = lo
            i += 1
        x = hi
    if x != 0.0:
        if not isfinite(x) or i >= _FSUM_CAPACITY:
            # (The capacity is never reached: checked only so that no input can write past
            # the partials.) Either way the caller redoes the sum exactly.
            acc.overflow = True
        else:
            p[i] = x
            i += 1
    acc.count = i


cdef inline double exact_sum_result(ExactSum *acc) noexcept nogil:
    """The exact sum rounded to the nearest double, ties to even (math.fsum's rounding)."""
    cdef int64_t n = acc.count
    cdef double *p = acc.partials
    cdef double hi = 0.0, lo = 0.0, x, y, yr
    if n > 0:
        n -= 1
        hi = p[n]
        # Add the partials from the top down until the sum becomes inexact.
        while n > 0:
            x = hi
            n -= 1
            y = p[n]
            hi = x + y
            yr = hi - x
            lo = y - yr
            if lo != 0.0:
                break
        # Half-even rounding across the partials: if lo and the next partial have the same
        # sign, the exact sum lies beyond the halfway point that hi was rounded to.
        if n > 0 and ((lo < 0.0 and p[n - 1] < 0.0) or (lo > 0.0 and p[n - 1] > 0.0)):
            y = lo * 2.0
            x = hi + y
            yr = x - hi
            if y == yr:
                hi = x
    return hi
