# coinsrow._core._window_forests: the static forests of a row's boundaries (docs/window.md),
# which the window structure (_window), the sub-rows (_subrows) and their exact twins read:
# the heights h, and per boundary t the next and previous boundaries of its parity class with
# a smaller key (ns, ps) and the smallest-key boundary of the other class between (par1,
# par2). The keys are (h[t], t): see the top of _window.pyx.

from coinsrow._core._types cimport *
from coinsrow._core._row_helpers cimport _first_not_finite
from coinsrow._core._signals cimport _forest_signals
from coinsrow._core._scratch cimport _huge_pages


cdef int _w_heights(const coin_t[::1] coins, int64_t start, int64_t stop, coin_t *h,
                    double *magnitude) noexcept nogil:
    """h[0..stop-start] for coins[start:stop]; OVERFLOW past the int64 height limit (for
    float64: once ``magnitude[0]``, the running sum of the coins' magnitudes, reaches
    _F_LIMIT), NOT_FINITE if a coin is NaN or infinite (checked first)."""
    cdef int64_t j
    cdef coin_t x
    h[0] = 0
    if coin_t is double:
        if _first_not_finite(coins, start, stop) >= 0:
            return NOT_FINITE
    for j in range(stop - start):
        x = coins[start + j]
        if coin_t is double:
            h[j + 1] = x - h[j]
            magnitude[0] += fabs(x)
        else:
            if coinsrow_sub_overflow(x, h[j], &h[j + 1]):
                return OVERFLOW
            if h[j + 1] >= _H_LIMIT or h[j + 1] <= -_H_LIMIT:
                return OVERFLOW
    if coin_t is double:
        if not magnitude[0] < _F_LIMIT:
            return OVERFLOW
    return OK


cdef int64_t _w_search_chain(int64_t *stack_pos, int64_t size, int64_t bound,
                             bint at_most) noexcept nogil:
    """Deepest entry of a monotone stack on the right side of ``bound``.

    stack_pos[0 .. size-1] runs from the bottom to the top. When ``at_most`` the positions
    decrease from bottom to top and the answer is the lowest index i with stack_pos[i] <= bound;
    otherwise they increase and it is the lowest i with stack_pos[i] >= bound.
    """
    cdef int64_t lo = 0, hi = size - 1, mid
    while lo < hi:
        mid = (lo + hi) >> 1
        if (stack_pos[mid] <= bound) if at_most else (stack_pos[mid] >= bound):
            hi = mid
        else:
            lo = mid + 1
    return stack_pos[lo]


cdef void _w_forests(coin_t *h, int64_t lo, int64_t hi, int64_t *ns, int64_t *ps,
                     int64_t *par1, int64_t *par2, int64_t *stack0, int64_t *stack1) noexcept nogil:
    """``_w_forests_counted`` without looking at signals (it cannot raise)."""
    _w_forests_counted(h, lo, hi, ns, ps, par1, par2, stack0, stack1, NULL)


cdef inline int _w_forest_sweep(coin_t *h, int64_t lo, int64_t hi, bint leftward,
                                int64_t *nearest, int64_t *par, int64_t *stack0,
                                int64_t *stack1, int64_t *steps) except -1 nogil:
    """One sweep of _w_forests_counted: right to left (``leftward``) for ns and par1, where
    stack positions decrease from bottom to top, or left to right for ps and par2, where
    they increase. The stack of t's parity class is stack[parity], parity = (t - lo) & 1."""
    cdef int64_t *stack[2]
    cdef int64_t size[2]
    cdef int64_t *own
    cdef int64_t t, i, parity, own_size, near, step = -1 if leftward else 1
    cdef int64_t missing = hi + 2 if leftward else lo - 2
    stack[0] = stack0
    stack[1] = stack1
    size[0] = size[1] = 0
    t = hi if leftward else lo
    for i in range(hi - lo + 1):
        if steps != NULL:
            _forest_signals(steps[0] + i)
        # The stack and its size in locals: read through size[], the size would be loaded
        # again after every store into an int64 array (which may alias it).
        parity = (t - lo) & 1
        own = stack[parity]
        own_size = size[parity]
        while own_size > 0 and _w_key_less(h, t, own[own_size - 1]):
            own_size -= 1
        near = own[own_size - 1] if own_size > 0 else missing
        own[own_size] = t
        size[parity] = own_size + 1
        nearest[t] = near
        if near != missing:
            # The other class on the range between t and near (exclusive).
            par[t] = _w_search_chain(stack[parity ^ 1], size[parity ^ 1], near + step,
                                     leftward)
        else:
            par[t] = -1
        t += step
    if steps != NULL:
        steps[0] += hi - lo + 1
    return 0


cdef int _w_forests_counted(coin_t *h, int64_t lo, int64_t hi, int64_t *ns, int64_t *ps,
                            int64_t *par1, int64_t *par2, int64_t *stack0, int64_t *stack1,
                            int64_t *steps) except -1 nogil:
    """The static forests of the boundaries lo..hi (one row), O(m log m), O(m) memory.

    With ``steps`` (not NULL) every boundary counts one step in ``steps[0]``, and signals are
    looked at (``_forest_signals``): KeyboardInterrupt is raised while the forests are built.

    ns(t) / ps(t): the next / previous boundary of t's parity class with a smaller key
    (hi + 2 / lo - 2 when there is none); par1(t): the smallest-key boundary of the other
    class on (t, ns(t) - 1]; par2(t): the same on [ps(t) + 1, t) (-1 when undefined).

    One sweep per direction keeps, per class, the chain of running minima seen from the sweep
    point (a monotone stack); the range minimum of the other class is the deepest chain entry
    inside the range, found by binary search.
    """
    _w_forest_sweep(h, lo, hi, True, ns, par1, stack0, stack1, steps)
    _w_forest_sweep(h, lo, hi, False, ps, par2, stack0, stack1, steps)
    return 0


cdef bint _w_alloc_numbers(int64_t nb, Py_ssize_t k, coin_t **h, coin_t **val, coin_t **alt,
                           coin_t **sp, coin_t **tail) noexcept nogil:
    """The numbers of a RowWindows: heights, block values, subtree sums and stack sums of nb
    boundaries and the nil node (whose value and sum are zero), the Fruitless terms of k
    components (zero). False when out of memory (every pointer set, NULL where it failed)."""
    cdef coin_t **per_boundary[4]
    cdef bint ok
    per_boundary[:] = [h, val, alt, sp]
    ok = _w_alloc_each(per_boundary, 4, nb + 1)
    tail[0] = <coin_t *> calloc(k + 1, sizeof(coin_t))
    if not ok or tail[0] == NULL:
        return False
    val[0][nb] = 0
    alt[0][nb] = 0
    return True


cdef void *_w_regrown(void *p, size_t size) except NULL:
    """p reallocated to ``size`` bytes; MemoryError when refused (p then stays valid and
    unchanged). O(size). Huge pages are asked for when it is big: the forest engine's treap
    arrays are written whole right after (an Engine of a random 10^6-node forest and its
    first moves(), after the Game's value: 97 -> 87 ms, median of 7, CPU time; 7,000 ->
    2,800 page faults)."""
    cdef void *q = realloc(p, size)
    if q == NULL:
        raise MemoryError()
    _huge_pages(q, size)
    return q


cdef int _w_alloc_stacks(int64_t **stacks[], int64_t cells) except -1:
    """The two stacks of _w_forests_counted, ``cells`` entries each, into stacks[0][0] and
    stacks[1][0]; MemoryError (and nothing left allocated) when out of memory."""
    if not _w_alloc_each(stacks, 2, cells):
        _w_free_each(stacks, 2)
        raise MemoryError()
    return 0


cdef int _window_forests_into(const int64_t[::1] keys, int64_t[::1] ns, int64_t[::1] ps,
                              int64_t[::1] par1, int64_t[::1] par2) except -1:
    """The static forests of one row given its boundary keys (ranks of the exact heights, for
    the exact twins). ``keys`` has one entry per boundary (m + 1 for m coins); the outputs
    as well. Keys are compared as (key, index). O(m log m) time, O(m) memory. Looks at
    signals while it runs (KeyboardInterrupt).
    """
    cdef int64_t nb = keys.shape[0], steps = 0
    cdef int64_t *stack0
    cdef int64_t *stack1
    cdef int64_t **stacks[2]
    if nb == 0:
        return 0
    stacks[:] = [&stack0, &stack1]
    _w_alloc_stacks(stacks, nb)
    try:
        with nogil:
            _w_forests_counted(<int64_t *> &keys[0], 0, nb - 1, &ns[0], &ps[0], &par1[0],
                               &par2[0], stack0, stack1, &steps)
    finally:
        _w_free_each(stacks, 2)
    return 0
