# Declarations of coinsrow._core._row_greedy that other modules cimport.

from libc.stdint cimport int64_t, uint8_t
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

cdef void _row_play_unfused(const coin_t *e, int64_t start, int64_t m,
                            int64_t *out_coin) noexcept nogil
