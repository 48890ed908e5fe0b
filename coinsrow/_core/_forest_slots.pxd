# Declarations of coinsrow._core._forest_slots (the slots' blocks, with the tie rule) that the
# other forest modules cimport.

from coinsrow._core._types cimport *


cdef enum:
    # Siblings that released one block each are sorted as one run from this many on (both
    # variants: the slots' here, the value's in _forest_blocks).
    _FOREST_RUN = 8


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
