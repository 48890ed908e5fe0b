# Declarations of coinsrow._core._forest_blocks (the value's blocks) that the other forest
# modules cimport.

from coinsrow._core._types cimport *


cdef enum:
    # The value's records have 32-bit ids: from this many nodes on, the 64-bit slots.
    _FOREST_WIDE = 0x7FFFFFFF
    # A parent farther than this from its child and from the previous vertex's parent counts
    # as scattered; with more than one vertex in _FOREST_SCATTERED scattered, the forest is
    # renumbered in preorder first.
    _FOREST_NEAR = 8
    _FOREST_SCATTERED = 4
    _FOREST_SAMPLE = 16
    # Parents anywhere: renumbered when more than one vertex in _FOREST_BRANCHING has two
    # children or more.
    _FOREST_BRANCHING = 8
    # The renumbering's passes request what they will read at the parent this many vertices
    # ahead.
    _RENUMBER_AHEAD = 32


cdef int _forest_released(const coin_t[::1] coins, int64_t fbase, const int64_t[::1] parents,
                          const uint8_t[::1] removed, coin_t *keys, int64_t *n_keys,
                          coin_t *frozen, bint *overflow) except -1 nogil

cdef int _forest_released_wide(const coin_t[::1] coins, int64_t fbase,
                               const int64_t[::1] parents, const uint8_t[::1] removed,
                               coin_t *keys, int64_t *n_keys, coin_t *frozen,
                               bint *overflow) except -1 nogil
