# Declarations of coinsrow._core._rows_exact that other twins cimport.

from coinsrow._core._types cimport *


cdef inline object _zero_of(list coins):
    """The zero that sums of these coins start at: 0.0 for Python floats, 0 otherwise.
    (Cython adds an int 0 to a float by returning the float itself, which keeps a -0.0
    that IEEE addition, 0.0 + -0.0, turns into 0.0; the machine kernels start at 0.0.)"""
    return 0.0 if len(coins) and type(coins[0]) is float else 0

cdef inline bint _overflowed(object x):
    """A Python float that left the float range (an infinity or a NaN)."""
    return type(x) is float and not isfinite(x)

cdef inline object _head_exact(list values, int64_t left, int64_t right, bint is_stack):
    if is_stack or values[left] >= values[right]:
        return values[left]
    return values[right]


cdef object _float_sum_exact(list xs)

cdef tuple _play_exact(list coins, const int64_t[::1] starts, const int64_t[::1] stops,
                       Py_ssize_t n_rows)

cdef object _value_exact(list coins, const int64_t[::1] starts, const int64_t[::1] stops,
                         Py_ssize_t n_rows)

cdef object _first_coin(list coins, const int64_t[::1] starts, const int64_t[::1] stops)

cdef object _owner_fsum(list coins, list play)

cdef tuple _reduce_all_exact(list coins, const int64_t[::1] starts, const int64_t[::1] stops,
                             Py_ssize_t n_rows, bint want_segments)
