# Declarations of coinsrow._core._rows that other modules cimport.

from coinsrow._core._types cimport int64_t


cdef int64_t _total_coins(const int64_t[::1] starts, const int64_t[::1] stops) except -1
