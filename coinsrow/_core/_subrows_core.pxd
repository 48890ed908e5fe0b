# Declarations of coinsrow._core._subrows_core (the build and the queries of the sub-rows'
# structure) that the structures and the exact twin cimport.

from coinsrow._core._types cimport *
from coinsrow._core._subrows cimport _SRCore, _SRExec


cdef int _sr_choose_pairs(_SRCore *c, coin_t *K1, coin_t *K2, int64_t spacing,
                          int64_t min_side) except -1 nogil

cdef int64_t _sr_core_bytes(_SRCore *c) noexcept nogil

cdef void _sr_core_free(_SRCore *c) noexcept nogil

cdef int _sr_core_layout(_SRCore *c, int64_t n, int64_t *ns, int64_t *ps, int64_t *par1,
                         int64_t *par2, int64_t *scratch0, int64_t *scratch1) except -1 nogil

cdef int _sr_fill_tables(_SRCore *c, coin_t *K1, coin_t *K2, coin_t *alt1, coin_t *alt2,
                         coin_t *T, _SRExec *e) except -1 nogil

cdef int _sr_numbers(_SRCore *c, coin_t *h, int64_t *par1, int64_t *par2, coin_t **K,
                     coin_t **alt, coin_t **T, int64_t spacing, int64_t min_side,
                     _SRExec *e) except -1 nogil

cdef int64_t *_sr_grown(int64_t **scratch, int64_t count) noexcept nogil

cdef void _sr_value(_SRCore *c, coin_t *K1, coin_t *K2, coin_t *h, coin_t *alt1,
                    coin_t *alt2, coin_t *T, int64_t lo, int64_t hi, _SRExec *e) noexcept nogil
