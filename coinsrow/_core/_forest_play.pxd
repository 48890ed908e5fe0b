# Declarations of coinsrow._core._forest_play that other modules cimport.

from coinsrow._core._types cimport *


cdef enum:
    # A taken vertex's released children join the queue as one sorted run (one item) from
    # this many on (here and in the exact twin).
    _PLAY_RUN = 64


cdef int _forest_play_into(const coin_t[::1] coins, const int64_t[::1] starts,
                           const int64_t[::1] stops, Py_ssize_t n_rows, int64_t fbase,
                           const int64_t[::1] parents, const uint8_t[::1] removed,
                           int64_t *out_component, int64_t *out_coin, uint8_t *out_end,
                           coin_t *value, int64_t *bad_index) except -1 nogil
