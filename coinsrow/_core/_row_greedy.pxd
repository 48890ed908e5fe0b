# Declarations of coinsrow._core._row_greedy that other modules cimport.

from coinsrow._core._types cimport *
from coinsrow._core._row_stack cimport RowStack, FloatSurvey


cdef void _float_survey(const double *coins, int64_t lo, int64_t hi,
                        FloatSurvey *survey) noexcept nogil

cdef int64_t _stack_alternating(const int64_t *coins, const int64_t *values, RowStack *st,
                                int64_t lo, int64_t hi, bint *overflow) noexcept nogil

cdef int64_t _row_value_int(const int64_t *coins, const int64_t *values, RowStack *st,
                            bint whole_known, int64_t whole, bint *overflow) noexcept nogil

cdef double _row_value_float(const double *coins, const double *values,
                             RowStack *st) noexcept nogil

cdef int64_t _row_play_pieces(const coin_t *coins, const coin_t *values,
                              const int64_t *segments, RowStack *st, int64_t stop,
                              int64_t *out_coin, uint8_t *out_end) noexcept nogil

cdef int _row_float_profits_pieces(const double *coins, const double *values,
                                   const int64_t *segments, RowStack *st, int64_t stop,
                                   double *first, double *second) noexcept nogil


# Inline: compiled into the caller, where the row's first coin is the constant 0 (measured
# with callgrind: play() on an ascending row of 200,000 coins ran 4.5% more instructions
# through a call into this module).
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


cdef inline void _row_play_unfused(const coin_t *e, int64_t start, int64_t m,
                                   int64_t *out_coin) noexcept nogil:
    """``_row_play_pieces`` where nothing fused (entry k is the coin start + k): the merge
    of L and R writes one coin a step (without branches), the rest are ranges of coins."""
    # ``left`` an int64_t, not a bint: b moves by left - 1 without a sign extension (the
    # merge took 20 instructions a coin, 14 now: callgrind, play of a valley, 10^6 coins).
    cdef int64_t j, q, a, b, turn = 0, i, left
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
        b += left - 1
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
