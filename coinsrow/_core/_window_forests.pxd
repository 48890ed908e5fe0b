# Declarations of coinsrow._core._window_forests (the heights and static forests of a row's
# boundaries) that other modules cimport, with the height limits and the allocation helpers
# the window structures share.

from coinsrow._core._types cimport *


cdef extern from *:
    """
    #define COINSROW_H_LIMIT (((int64_t) 1) << 59)
    #define COINSROW_F_LIMIT 1e300
    """
    # Heights beyond these are refused (an int64 height is checked against the int64 limit
    # when it is computed; below it no sum of the structure can overflow; docs/window.md).
    const int64_t _H_LIMIT "COINSROW_H_LIMIT"
    const double _F_LIMIT "COINSROW_F_LIMIT"


cdef inline bint _w_alloc_each(coin_t **arrays[], int count, int64_t cells) noexcept nogil:
    """Point each ``arrays[i][0]`` at fresh memory for ``cells`` numbers; False when any
    allocation failed. Every pointer is set (NULL where it failed), so that one
    ``_w_free_each`` of the same arrays frees whatever was allocated."""
    cdef int i
    cdef bint ok = True
    for i in range(count):
        arrays[i][0] = <coin_t *> malloc(cells * sizeof(coin_t))
        ok &= arrays[i][0] != NULL
    return ok

cdef inline void _w_free_each(coin_t **arrays[], int count) noexcept nogil:
    """Free each ``arrays[i][0]`` (NULL is fine) and set it to NULL."""
    cdef int i
    for i in range(count):
        free(arrays[i][0])
        arrays[i][0] = NULL

cdef inline bint _w_key_less(coin_t *h, int64_t a, int64_t b) noexcept nogil:
    """key(a) < key(b) for the perturbed keys (h[t], t)."""
    return h[a] < h[b] or (h[a] == h[b] and a < b)


cdef void _w_forests(coin_t *h, int64_t lo, int64_t hi, int64_t *ns, int64_t *ps,
                     int64_t *par1, int64_t *par2, int64_t *stack0, int64_t *stack1) noexcept nogil

cdef int _w_forests_counted(coin_t *h, int64_t lo, int64_t hi, int64_t *ns, int64_t *ps,
                            int64_t *par1, int64_t *par2, int64_t *stack0, int64_t *stack1,
                            int64_t *steps) except -1 nogil

cdef int _w_heights(const coin_t[::1] coins, int64_t start, int64_t stop, coin_t *h,
                    double *magnitude) noexcept nogil

cdef int _window_forests_into(const int64_t[::1] keys, int64_t[::1] ns, int64_t[::1] ps,
                              int64_t[::1] par1, int64_t[::1] par2) except -1

cdef bint _w_alloc_numbers(int64_t nb, Py_ssize_t k, coin_t **h, coin_t **val, coin_t **alt,
                           coin_t **sp, coin_t **tail) noexcept nogil

cdef void *_w_regrown(void *p, size_t size) except NULL

cdef int _w_alloc_stacks(int64_t **stacks[], int64_t cells) except -1
