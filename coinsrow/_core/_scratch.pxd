# Declarations of coinsrow._core._scratch that other modules cimport.

from libc.stdint cimport int64_t, uint8_t, uint64_t
from coinsrow._core._types cimport *




cdef void *_scratch(size_t n, bint huge_pages=*) noexcept nogil

cdef void _scratch_free(void *p) noexcept nogil
