# Declarations of coinsrow._core._forest that other modules cimport.

from coinsrow._core._types cimport *


cdef int _forest_arguments(int64_t coins_length, const int64_t[::1] starts,
                           const int64_t[::1] stops, Py_ssize_t n_rows, int64_t fbase,
                           const int64_t[::1] parents,
                           const uint8_t[::1] removed) except -1

cdef int64_t _live_count(const int64_t[::1] starts, const int64_t[::1] stops,
                         const uint8_t[::1] removed) noexcept nogil
