# Declarations of coinsrow._core._rows that other modules cimport.

from coinsrow._core._types cimport int64_t
# The helpers that lived here before _row_helpers, re-exported for the modules that still
# cimport them from _rows: cimport them from _row_helpers instead.
from coinsrow._core._row_helpers cimport (Component, _first_not_finite, _head,
                                          _one_row_float_profits, _one_row_greedy, _padded,
                                          _play_float_profits, _reduce, _reduce_all_into,
                                          _reduce_into, _take_head)


cdef int64_t _total_coins(const int64_t[::1] starts, const int64_t[::1] stops) except -1
