# Declarations of coinsrow._core._scratch that other modules cimport.

from coinsrow._core._types cimport *


cdef void *_scratch(size_t n, bint huge_pages=*) noexcept nogil

cdef void _scratch_free(void *p) noexcept nogil

cdef void _huge_pages(void *p, size_t n) noexcept nogil
