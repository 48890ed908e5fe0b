# Declarations of coinsrow._core._row_helpers: the row and stack helpers every kind of game
# shares (games of many components, forests, windows, the batch, the short rows). The
# inline ones are compiled into each caller; the others are called once a component.

from coinsrow._core._types cimport (add_checked, coin_t, int64_t, isfinite, padded_t,
                                    segments_t, sub_checked)


cdef struct Component:
    int64_t first     # index in the scratch arrays of the first reduced entry
    int64_t left      # next entry available from the left (rows) or the top (stacks)
    int64_t right     # last entry still available (inclusive); left > right when exhausted
    int64_t fused_end  # one past the last entry after Fusion (before Fruitless)
    int64_t stop      # one past the component's last coin
    int64_t tail      # first coin of a stack's Fruitless tail (== stop when there is none)
    bint is_stack

cdef inline coin_t *_padded(coin_t *raw) noexcept nogil:
    """Scratch for ``_reduce_all_into(..., packed=True)``: ``raw`` has room for n + 2
    entries; the first two are zeroed and the array starts after them. NULL stays NULL.
    Release with ``free(values - 2)``."""
    if raw == NULL:
        return NULL
    raw[0] = 0
    raw[1] = 0
    return raw + 2

cdef inline coin_t _head(Component *comp, coin_t *values) noexcept nogil:
    if comp.is_stack:
        return values[comp.left]
    if values[comp.left] >= values[comp.right]:
        return values[comp.left]
    return values[comp.right]

cdef inline int64_t _take_head(Component *comp, coin_t *values, bint *from_left) noexcept nogil:
    """Take the component's head (see _head) off it: returns its entry; ``from_left`` says
    whether it was the left end of a row or the top of a stack (else the right end)."""
    from_left[0] = comp.is_stack or values[comp.left] >= values[comp.right]
    if from_left[0]:
        comp.left += 1
        return comp.left - 1
    comp.right -= 1
    return comp.right + 1

cdef inline int64_t _first_not_finite_at(const double *coins, int64_t start,
                                         int64_t stop) noexcept nogil:
    """The first coin of coins[start:stop] that is a NaN or an infinity, -1 if none: every
    float kernel refuses such coins before any work (they poison every comparison). O(n)."""
    cdef int64_t p
    for p in range(start, stop):
        if not isfinite(coins[p]):
            return p
    return -1

cdef inline int64_t _first_not_finite(const double[::1] coins, int64_t start,
                                      int64_t stop) noexcept nogil:
    """``_first_not_finite_at`` on a buffer of coins. O(n)."""
    if stop <= start:
        return -1  # no coin (and coins[0] may not exist)
    return _first_not_finite_at(&coins[0], start, stop)

cdef inline coin_t _one_row_greedy(coin_t *values, int64_t left, int64_t right,
                                   bint *overflow) noexcept nogil:
    """The Greedy phase of a single row: a two-pointer merge of its two sorted runs.
    Inline: the batch and the fast path of short rows call it once a small game (10^5
    games of 20 coins: 68.5 million instructions through a call, 67.8 inline; callgrind)."""
    cdef coin_t taken[2]        # what the player to move and the other player take
    cdef coin_t x, y, result
    cdef int player = 0
    cdef bint ovf = False
    taken[0] = 0
    taken[1] = 0
    while left <= right:
        x = values[left]
        y = values[right]
        if x >= y:
            left += 1
        else:
            x = y
            right -= 1
        ovf |= add_checked(taken[player], x, &taken[player])
        player ^= 1
    ovf |= sub_checked(taken[0], taken[1], &result)
    overflow[0] |= ovf
    return result

cdef int64_t _reduce_into(const coin_t[::1] coins, int64_t start, int64_t stop,
                          coin_t *values, int64_t base, int64_t *segments,
                          bint *overflow, bint padded) noexcept nogil

cdef int64_t _reduce(const coin_t *coins, int64_t start, int64_t stop,
                     coin_t *values, int64_t *segments, bint *overflow) noexcept nogil

cdef int _reduce_all_into(const coin_t[::1] coins, const int64_t[::1] starts,
                          const int64_t[::1] stops, Py_ssize_t n_rows,
                          coin_t *values, int64_t *segments, Component *components,
                          coin_t *fruitless, int64_t *bad_index, bint packed) noexcept nogil

cdef int _play_float_profits(const double[::1] coins, int64_t *play, int64_t n,
                             double *first, double *second) noexcept nogil


cdef int _one_row_float_profits(const double[::1] coins, int64_t start, int64_t stop,
                                double *values, int64_t *segments, double *first,
                                double *second, double second_extra) noexcept nogil
