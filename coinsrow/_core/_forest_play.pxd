# Declarations of coinsrow._core._forest_play (the slots, their blocks with the tie rule, the
# play) that other modules cimport.

from coinsrow._core._types cimport *


cdef enum:
    # Siblings that released one block each are sorted as one run from this many on (both
    # variants of the blocks: the slots' here, the value's in _forest_blocks).
    _FOREST_RUN = 8
    # A taken vertex's released children join the queue as one sorted run (one item) from
    # this many on (here and in the exact twin).
    _PLAY_RUN = 64


cdef int _forest_play_into(const coin_t[::1] coins, const int64_t[::1] starts,
                           const int64_t[::1] stops, Py_ssize_t n_rows, int64_t fbase,
                           const int64_t[::1] parents, const uint8_t[::1] removed,
                           int64_t *out_component, int64_t *out_coin, uint8_t *out_end,
                           coin_t *value, int64_t *bad_index) except -1 nogil

cdef int64_t _slot_count(const int64_t[::1] starts, const int64_t[::1] stops,
                         Py_ssize_t n_rows, const uint8_t[::1] removed) noexcept nogil

cdef void _slots_of(const coin_t[::1] coins, const int64_t[::1] starts,
                    const int64_t[::1] stops, Py_ssize_t n_rows, int64_t fbase,
                    const int64_t[::1] parents, const uint8_t[::1] removed, int64_t *flat,
                    int64_t *par, int64_t *component, coin_t *coin,
                    int64_t *slot_of_node) noexcept nogil

cdef void _link_children(int64_t n, const int64_t *par, int64_t *first_child,
                         int64_t *next_sib) noexcept nogil

cdef int _slot_blocks(int64_t n, const int64_t *par, coin_t *coin, coin_t *K,
                      uint8_t *released, uint8_t *alive, int64_t *merged_first,
                      int64_t *merged_next, bint *overflow) except -1 nogil

cdef int64_t _forest_not_finite(const double[::1] coins, const int64_t[::1] starts,
                                const int64_t[::1] stops, int64_t fbase,
                                const uint8_t[::1] removed) noexcept nogil
