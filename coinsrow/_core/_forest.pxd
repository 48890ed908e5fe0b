# Declarations of coinsrow._core._forest that other modules cimport.

from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t
from coinsrow._core._types cimport *


cdef enum:
    # Steps between two looks at pending signals (Ctrl-C) in the long loops: a fraction of a
    # millisecond of work, so an interrupt is honoured at once and the GIL rarely taken.
    _FOREST_SIGNALS = 0xFFFF
    # Siblings that released one block each are sorted as one run from this many on.
    _FOREST_RUN = 8
    # The play: a taken vertex's released children join the queue as one sorted run (one
    # item) from this many on.
    _PLAY_RUN = 64
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

cdef int _forest_arguments(int64_t coins_length, const int64_t[::1] starts,
                           const int64_t[::1] stops, Py_ssize_t n_rows, int64_t fbase,
                           const int64_t[::1] parents,
                           const uint8_t[::1] removed) except -1

cdef int64_t _live_count(const int64_t[::1] starts, const int64_t[::1] stops,
                         const uint8_t[::1] removed) noexcept nogil
