# Declarations of coinsrow._core._row_shapes that _row_stack cimports: the decisions taken
# once a part from samples of the row, and the plateau compaction of play (called once a
# chunk of _PLATEAU_CHUNK coins, never once a coin).

from coinsrow._core._types cimport int64_t


cdef bint _ties_fuse(const int64_t *c, int64_t n) noexcept nogil

cdef bint _compaction_pays(const int64_t *c, int64_t n) noexcept nogil

cdef int64_t _compact_plateaus(const int64_t *coins, int64_t p, int64_t e, int64_t *out,
                               int64_t *starts) noexcept nogil
