# coinsrow._core._cooperative_exact: the exact twin of _cooperative on Python numbers.

from coinsrow._core._types cimport *
from coinsrow._core._rows_exact cimport _overflowed, _zero_of
from coinsrow._core._rows_exact import check_finite_exact


def cooperative_max_exact(list coins):
    """``cooperative_max`` on Python numbers (ints of any size, floats, Fraction, Decimal).

    The same DP on one list of n + 1 Python numbers. Once per length it checks for signals
    and lets other threads run (this loop needs the GIL for its arithmetic).
    """
    cdef Py_ssize_t n = len(coins), length, i
    cdef list best = [_zero_of(coins)] * (n + 1)
    cdef object take_left, take_right, keep
    status, bad = check_finite_exact(coins)
    if status != OK:
        return status, bad
    for length in range(1, n + 1):
        if (n - length) % 2 == 0:
            for i in range(n - length + 1):
                take_left = coins[i] + best[i + 1]
                take_right = coins[i + length - 1] + best[i]
                best[i] = take_left if take_left >= take_right else take_right
        else:
            for i in range(n - length + 1):
                keep = best[i + 1]
                if keep > best[i]:
                    best[i] = keep
        PyErr_CheckSignals()
        with nogil:
            pass  # hands the GIL to a thread that asked for it
    if _overflowed(best[0]):
        return Status.OVERFLOW, None
    return Status.OK, best[0]
