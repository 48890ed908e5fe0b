# coinsrow._core._cooperative: the cooperative maximum (docs/algorithm.md).
#
# The cooperative maximum of a row: the largest total the first player can collect when the
# second player helps her, i.e. the maximum over all plays of the first player's coins.
#
# Interval DP by lengths. For a length L, best[i] is the most the first player collects from
# the sub-row coins[i:i+L], reached after n - L moves: she is to move there iff n - L is even.
#     her move:   best_L[i] = max(coins[i] + best_{L-1}[i+1], coins[i+L-1] + best_{L-1}[i])
#     his move:   best_L[i] = max(best_{L-1}[i+1], best_{L-1}[i])
# best_L[i] reads best_{L-1}[i] and best_{L-1}[i+1] only, so one array of n + 1 entries is
# updated in place with i increasing: O(n^2) time, O(n) memory.

# DP cells computed between two looks at pending signals (Ctrl-C): a fraction of a
# millisecond of work, so an interrupt is honoured at once and the GIL is rarely taken.
from coinsrow._core._types cimport *
from coinsrow._core._row_helpers cimport _first_not_finite

cdef enum:
    _COOPERATIVE_CELLS_PER_SIGNAL_CHECK = 1 << 16

cdef extern from "<stdint.h>":
    const int64_t INT64_MIN_VALUE "INT64_MIN"


cdef bint _sums_may_overflow(const coin_t[::1] coins) noexcept nogil:
    """Whether some sum of coins could leave int64: every DP entry and candidate is a sum of
    distinct coins, bounded by the sum of their absolute values."""
    cdef int64_t p, n = coins.shape[0], bound = 0, magnitude
    if coin_t is double:
        return False
    else:
        for p in range(n):
            if coins[p] == INT64_MIN_VALUE:
                return True
            magnitude = coins[p] if coins[p] >= 0 else -coins[p]
            if coinsrow_add_overflow(bound, magnitude, &bound):
                return True
        return False


cdef int _cooperative_layers(const coin_t[::1] coins, coin_t *best, bint checked,
                             bint *overflow) except -1 nogil:
    """Run the DP over all lengths; ``best[0]`` is the answer. Stops early on int64 overflow.

    ``checked`` false: the caller has proved that no sum overflows, so the plain additions
    (which the compiler can vectorise) are used. Raises whatever a signal handler raises
    (KeyboardInterrupt): the GIL is taken every ``_COOPERATIVE_CELLS_PER_SIGNAL_CHECK``
    cells to run the handlers.
    """
    cdef int64_t n = coins.shape[0], length, i, last, cells = 0
    cdef coin_t take_left, take_right, keep
    cdef bint ovf = False
    for i in range(n + 1):
        best[i] = 0
    for length in range(1, n + 1):
        last = n - length  # the last start of a sub-row of this length
        if (n - length) % 2 == 0:
            if checked:
                for i in range(last + 1):
                    ovf |= add_checked(coins[i], best[i + 1], &take_left)
                    ovf |= add_checked(coins[i + length - 1], best[i], &take_right)
                    best[i] = take_left if take_left >= take_right else take_right
                if ovf:
                    overflow[0] = True
                    return 0
            else:
                for i in range(last + 1):
                    take_left = coins[i] + best[i + 1]
                    take_right = coins[i + length - 1] + best[i]
                    best[i] = take_left if take_left >= take_right else take_right
        else:
            # The helper takes no coin for her: he leads to the better of the two sub-rows.
            for i in range(last + 1):
                keep = best[i + 1]
                if keep > best[i]:
                    best[i] = keep
        cells += last + 1
        if cells >= _COOPERATIVE_CELLS_PER_SIGNAL_CHECK:
            cells = 0
            with gil:
                PyErr_CheckSignals()
    return 0


def cooperative_max(const coin_t[::1] coins):
    """Cooperative maximum of one row of machine numbers: ``(status, result or bad index)``.

    OVERFLOW: an int64 sum overflowed, or a float64 result left the float range (redo it
    exactly). NOT_FINITE gives the index of a NaN or an infinity. O(n^2) time without the
    GIL (taken briefly now and then to honour Ctrl-C), n + 1 numbers of memory.
    """
    cdef int64_t n = coins.shape[0], bad_index = -1
    cdef coin_t *best = NULL
    cdef bint ovf = False, checked = False
    cdef coin_t result = 0
    if n == 0:
        return Status.OK, result
    if coin_t is double:
        with nogil:
            bad_index = _first_not_finite(coins, 0, n)
        if bad_index >= 0:
            return Status.NOT_FINITE, bad_index
    best = <coin_t *> malloc((n + 1) * sizeof(coin_t))
    if best == NULL:
        raise MemoryError()
    try:
        with nogil:
            checked = _sums_may_overflow(coins)
            _cooperative_layers(coins, best, checked, &ovf)
        result = best[0]
    finally:
        free(best)
    if ovf or not _is_finite(result):
        return Status.OVERFLOW, None
    return Status.OK, result
