# coinsrow._core._rows: games of many rows and stacks. Each component reduced by Fusion and
# Fruitless (_row_helpers), then the Greedy merge of the components, the optimal play and the
# profits (docs/algorithm.md). One row alone has kernels of its own (_one_row).
#
# A game is given as one flat buffer of coins and, for each component, the half-open range
# ``[starts[c], stops[c])`` of its coins in that buffer. Components ``0 .. n_rows - 1`` are
# rows (take from either end); the rest are stacks (take from ``starts[c]`` only, the top).

from coinsrow._core._types cimport *
from coinsrow._core._heap cimport _heap_sift_down
from coinsrow._core._row_helpers cimport (Component, _first_not_finite, _head,
                                          _one_row_float_profits, _one_row_greedy, _padded,
                                          _play_float_profits, _reduce_all_into, _take_head)
from coinsrow._core._sort cimport _key, _alternating_sum_sorted, _alternating_sum_narrow


cdef int _greedy(Py_ssize_t k, Component *components, coin_t *values, int64_t *segments,
                 int64_t *heap, coin_t *heads, coin_t *total,
                 int64_t *out_component, int64_t *out_coin, uint8_t *out_end) noexcept nogil:
    """Greedy phase: take the largest available reduced value until none is left.

    Adds the values with alternating signs to ``total[0]``. When ``out_coin`` is not NULL,
    writes the optimal play: each taken entry expands into its run of coins, taken one by
    one from the end where it is exposed; then the stacks' Fruitless tails, top to bottom.
    ``out_component`` and ``out_end`` may be NULL (only the coins are wanted).
    """
    cdef int64_t size = 0, c, i, e, seg_lo, seg_hi, turn = 0, p
    cdef coin_t x
    cdef bint ovf = False, plus = True, from_left
    cdef uint8_t end_code
    cdef Component *comp
    for c in range(k):
        comp = &components[c]
        if comp.left <= comp.right:
            heads[c] = _head(comp, values)
            heap[size] = c
            size += 1
    i = size // 2
    while i > 0:
        i -= 1
        _heap_sift_down(heap, size, i, heads, NULL)
    while size > 0:
        c = heap[0]
        comp = &components[c]
        e = _take_head(comp, values, &from_left)
        x = values[e]
        if plus:
            ovf |= add_checked(total[0], x, total)
        else:
            ovf |= sub_checked(total[0], x, total)
        plus = not plus
        if out_coin != NULL:
            seg_lo = segments[e]
            seg_hi = segments[e + 1] if e + 1 < comp.fused_end else comp.stop
            end_code = TOP if comp.is_stack else (LEFT if from_left else RIGHT)
            if from_left:
                for p in range(seg_lo, seg_hi):
                    if out_component != NULL:
                        out_component[turn] = c
                        out_end[turn] = end_code
                    out_coin[turn] = p
                    turn += 1
            else:
                p = seg_hi
                while p > seg_lo:
                    p -= 1
                    if out_component != NULL:
                        out_component[turn] = c
                        out_end[turn] = end_code
                    out_coin[turn] = p
                    turn += 1
        if comp.left <= comp.right:
            heads[c] = _head(comp, values)
        else:
            size -= 1
            heap[0] = heap[size]
        _heap_sift_down(heap, size, 0, heads, NULL)
    if out_coin != NULL:
        for c in range(k):
            comp = &components[c]
            for p in range(comp.tail, comp.stop):
                if out_component != NULL:
                    out_component[turn] = c
                    out_end[turn] = TOP
                out_coin[turn] = p
                turn += 1
    return OVERFLOW if ovf else OK


cdef int64_t _gather_keys(Py_ssize_t k, Component *components, double *values,
                          uint64_t *keys) noexcept nogil:
    """The keys of every component's remaining reduced entries into ``keys`` (when not
    NULL); returns how many there are."""
    cdef Py_ssize_t c
    cdef int64_t m = 0, e
    cdef Component *comp
    for c in range(k):
        comp = &components[c]
        if keys != NULL:
            for e in range(comp.left, comp.right + 1):
                keys[m] = _key(values[e])
                m += 1
        elif comp.left <= comp.right:
            m += comp.right - comp.left + 1
    return m


cdef int64_t _total_coins(const int64_t[::1] starts, const int64_t[::1] stops) except -1:
    cdef Py_ssize_t k = starts.shape[0], c
    cdef int64_t n = 0
    if stops.shape[0] != k:
        raise ValueError("starts and stops differ in length")
    for c in range(k):
        if stops[c] < starts[c]:
            raise ValueError("a component ends before it starts")
        n += stops[c] - starts[c]
    return n


# ---------------------------------------------------------------------------------------
# The value of a game of many int64 components (docs/positions.md, "The value of many
# components"). Fusion and Fruitless write the entries left of each component one after
# the other, so nothing is gathered afterwards; the coins' sum (for the profits) is taken in
# the same pass. When the remaining entries are within 2^32 of each other (coins of at most
# 32 bits), they are sorted in place as 32-bit offsets from the smallest one
# (_alternating_sum_narrow in _sort), otherwise as 64-bit keys (_alternating_sum_sorted).

cdef int64_t _game_reduce_int(const int64_t *coins, const int64_t *starts,
                              const int64_t *stops, Py_ssize_t k, Py_ssize_t n_rows,
                              int64_t total_coins, int64_t *values, int64_t *fruitless,
                              int64_t *coin_sum, bint *overflow,
                              bint *sum_overflow) noexcept nogil:
    """Fusion on every component, Fruitless at the bottom of every stack, the remaining
    entries written one component after the other from values[0]: their number returned.

    The order of the entries is the components', each component's its reduced form (the
    order does not matter for the value). ``values`` has room for ``total_coins`` entries and
    two readable ones before values[0] (see ``_padded``). Adds the Fruitless terms to
    ``fruitless[0]`` and the coins, in their order, to ``coin_sum[0]``; ``overflow`` and
    ``sum_overflow`` say whether int64 overflowed in either. O(n), one pass over the coins.
    """
    cdef Py_ssize_t c
    cdef int64_t *sp = values
    cdef int64_t *base
    cdef int64_t *deep
    cdef int64_t v, t, first, second, total = coin_sum[0], lost = fruitless[0]
    cdef int64_t p, stop
    cdef bint ovf = False, sovf = False, n_odd = total_coins & 1
    for c in range(k):
        base = sp
        deep = base + 2
        first = 0   # masked by the depth test until set
        second = 0
        stop = stops[c]
        for p in range(starts[c], stop):
            v = coins[p]
            sovf |= add_checked(total, v, &total)
            # Fusion x <= M > v, strict on the right (see _reduce_loop): the same reduced
            # form as every other kernel.
            while coinsrow_unlikely((second <= first) & (first > v) & (sp >= deep)):
                ovf |= sub_checked(second, first, &t)
                ovf |= add_checked(t, v, &v)
                sp -= 2
                # Below the component's base this reads entries of the component before,
                # or the padding: masked by the depth test.
                first = (sp - 1)[0]
                second = (sp - 2)[0]
            sp[0] = v
            sp += 1
            second = first
            first = v
        if c >= n_rows:
            # Fruitless (see _reduce_all_into): the stack's two bottom entries x <= M.
            while sp - base >= 2 and (sp - 2)[0] <= (sp - 1)[0]:
                ovf |= sub_checked((sp - 2)[0], (sp - 1)[0], &t)
                if n_odd:
                    ovf |= sub_checked(lost, t, &lost)
                else:
                    ovf |= add_checked(lost, t, &lost)
                sp -= 2
    coin_sum[0] = total
    fruitless[0] = lost
    overflow[0] |= ovf
    sum_overflow[0] |= sovf
    return sp - values


cdef int _game_value_int(const int64_t[::1] coins, const int64_t[::1] starts,
                         const int64_t[::1] stops, Py_ssize_t n_rows, int64_t total_coins,
                         int64_t *value, int64_t *coin_sum, bint *sum_overflow) noexcept nogil:
    """The value of a game of int64 coins, as ``_game_value`` computes it, and the sum of
    its coins (into ``coin_sum[0]``, ``sum_overflow`` set on overflow): OK, OVERFLOW or
    NO_MEMORY. O(n): one pass over the coins, one radix sort of the remaining entries.
    Extra memory: n + 2 coins (of which the m <= n entries left after the reductions are
    touched, and sorted there when their spread is under 2^32; otherwise m more 64-bit
    keys)."""
    cdef Py_ssize_t k = starts.shape[0]
    cdef int64_t *values = NULL
    cdef int64_t fruitless = 0, total = 0, smallest, largest, x, m, i
    cdef int status = OK, result
    cdef bint ovf = False
    cdef int64_t kind = 0
    values = _padded(<int64_t *> malloc((total_coins + 2) * sizeof(int64_t)))
    if values == NULL:
        value[0] = 0
        return NO_MEMORY
    m = _game_reduce_int(&coins[0], &starts[0], &stops[0], k, n_rows, total_coins, values,
                         &fruitless, coin_sum, &ovf, sum_overflow)
    if k == 1 and n_rows == 1:
        total = _one_row_greedy(values, 0, m - 1, &ovf)
    elif m > 0:
        smallest = values[0]
        largest = values[0]
        for i in range(1, m):
            x = values[i]
            smallest = x if x < smallest else smallest
            largest = x if x > largest else largest
        if (<uint64_t> largest - <uint64_t> smallest) >> 32 == 0 and m < (<int64_t> 1 << 31):
            status = _alternating_sum_narrow(values, m, smallest,
                                             <uint64_t> largest - <uint64_t> smallest, &total)
        else:
            # Wide spreads: the keys of every entry, in place, and the 64-bit sort.
            for i in range(m):
                (<uint64_t *> values)[i] = _key(values[i])
            result = _alternating_sum_sorted(<uint64_t *> values, m, &total, &kind)
            status = NO_MEMORY if result == NO_MEMORY else OK
            ovf |= result == OVERFLOW
    free(values - 2)
    ovf |= add_checked(total, fruitless, &total)
    if ovf and status == OK:
        status = OVERFLOW
    value[0] = total
    return status


cdef int _game_value(const double[::1] coins, const int64_t[::1] starts,
                     const int64_t[::1] stops, Py_ssize_t n_rows, int64_t total_coins,
                     double *value, int64_t *bad_index) noexcept nogil:
    """The value of a game of float64 coins, as ``game_value`` computes it; OK, OVERFLOW,
    NOT_FINITE or NO_MEMORY. (int64 coins: ``_game_value_int``.)"""
    cdef Py_ssize_t k = starts.shape[0]
    cdef double *values = NULL
    cdef Component *components = NULL
    cdef double fruitless = 0, total = 0
    cdef int64_t m
    cdef uint64_t *keys = NULL
    cdef int status = OK, result
    cdef bint ovf = False
    values = _padded(<double *> malloc((total_coins + 2) * sizeof(double)))
    components = <Component *> malloc((k if k > 0 else 1) * sizeof(Component))
    if values == NULL or components == NULL:
        status = NO_MEMORY
    else:
        status = _reduce_all_into(coins, starts, stops, n_rows, values, NULL, components,
                                  &fruitless, bad_index, True)
    if status == OK or status == OVERFLOW:
        if k == 1 and n_rows == 1:
            total = _one_row_greedy(values, components[0].left, components[0].right, &ovf)
        else:
            m = _gather_keys(k, components, values, NULL)
            keys = <uint64_t *> malloc((m if m > 0 else 1) * sizeof(uint64_t))
            if keys == NULL:
                status = NO_MEMORY
            else:
                _gather_keys(k, components, values, keys)
                # The reduced entries are all in keys now: give the scratch back first.
                free(values - 2)
                values = NULL
                result = _alternating_sum_sorted(keys, m, &total, &fruitless)
                if result == NO_MEMORY:
                    status = NO_MEMORY
                ovf |= result == OVERFLOW
        # Plus the Fruitless terms (zero for rows alone: this also turns -0.0 into 0.0).
        ovf |= add_checked(total, fruitless, &total)
        if (ovf or not _is_finite(total)) and status == OK:
            status = OVERFLOW
    if values != NULL:
        free(values - 2)
    free(components)
    free(keys)
    value[0] = total
    return status


def game_value(const coin_t[::1] coins, const int64_t[::1] starts,
               const int64_t[::1] stops, Py_ssize_t n_rows):
    """Value of the game for the player to move: ``(status, value or bad flat index)``.

    O(n) for one row (two-pointer merge of its two sorted runs); for k components, O(n)
    too: the reduced entries of all components are radix-sorted (see
    ``_alternating_sum_sorted``), which beats the O(n log k) heap merge the play uses.
    Extra memory: one coin per coin of the game (n = the sum of stops - starts), plus
    O(k); for k > 1, at most n + m machine words at the peak, m <= n reduced entries (their
    keys are gathered, the coins' scratch freed, then the sort's spare keys allocated). On
    int64 coins, one pass over the coins and no gathering (``_game_value_int``): n + 2 words,
    the entries sorted in them when they are within 2^32 of each other.
    """
    cdef int64_t total_coins = _total_coins(starts, stops), bad_index = -1, coin_sum = 0
    cdef coin_t value = 0
    cdef int status = OK
    cdef bint sum_overflow = False
    if starts.shape[0] == 0:
        return Status.OK, value
    with nogil:
        if coin_t is int64_t:
            status = _game_value_int(coins, starts, stops, n_rows, total_coins, &value,
                                     &coin_sum, &sum_overflow)
        else:
            status = _game_value(coins, starts, stops, n_rows, total_coins, &value,
                                 &bad_index)
    return _answer(status, bad_index, value)


cdef int _game_play(const coin_t[::1] coins, const int64_t[::1] starts,
                    const int64_t[::1] stops, Py_ssize_t n_rows, int64_t total_coins,
                    int64_t *out_component, int64_t *out_coin, uint8_t *out_end,
                    coin_t *value, int64_t *bad_index) noexcept nogil:
    """The optimal play into the output arrays (``out_component`` and ``out_end`` may be
    NULL); OK, OVERFLOW, NOT_FINITE or NO_MEMORY."""
    cdef Py_ssize_t k = starts.shape[0]
    cdef int64_t ksize = k if k > 0 else 1
    cdef coin_t *values = NULL
    cdef int64_t *segments = NULL
    cdef Component *components = NULL
    cdef int64_t *heap = NULL
    cdef coin_t *heads = NULL
    cdef coin_t fruitless = 0, total = 0
    cdef int status = OK
    values = _padded(<coin_t *> malloc((total_coins + 2) * sizeof(coin_t)))
    segments = <int64_t *> malloc((total_coins + 1) * sizeof(int64_t))
    components = <Component *> malloc(ksize * sizeof(Component))
    heap = <int64_t *> malloc(ksize * sizeof(int64_t))
    heads = <coin_t *> malloc(ksize * sizeof(coin_t))
    if (values == NULL or segments == NULL or components == NULL or heap == NULL
            or heads == NULL):
        status = NO_MEMORY
    else:
        status = _reduce_all_into(coins, starts, stops, n_rows, values, segments,
                                  components, &fruitless, bad_index, True)
    if status == OK or status == OVERFLOW:
        if _greedy(k, components, values, segments, heap, heads, &total,
                   out_component, out_coin if total_coins > 0 else NULL, out_end) == OVERFLOW:
            status = OVERFLOW
        if add_checked(total, fruitless, &total) or not _is_finite(total):
            status = OVERFLOW
    if values != NULL:
        free(values - 2)
    free(segments)
    free(components)
    free(heap)
    free(heads)
    value[0] = total
    return status


def game_play(const coin_t[::1] coins, const int64_t[::1] starts,
              const int64_t[::1] stops, Py_ssize_t n_rows,
              int64_t[::1] out_component, int64_t[::1] out_coin, uint8_t[::1] out_end):
    """Write a whole optimal play into the output buffers: ``(status, value or bad index)``.

    Turn t takes coin ``out_coin[t]`` (an index in ``coins``) of component
    ``out_component[t]`` from end ``out_end[t]`` (an ``End``). Every move is optimal at the
    position where it is made. O(n log k) time, O(n) memory.
    """
    cdef int64_t total_coins = _total_coins(starts, stops), bad_index = -1
    cdef coin_t value = 0
    cdef int status = OK
    if (out_component.shape[0] < total_coins or out_coin.shape[0] < total_coins
            or out_end.shape[0] < total_coins):
        raise ValueError("output buffers are shorter than the game")
    if total_coins == 0:
        return Status.OK, value
    with nogil:
        status = _game_play(coins, starts, stops, n_rows, total_coins, &out_component[0],
                            &out_coin[0], &out_end[0], &value, &bad_index)
    return _answer(status, bad_index, value)


def game_profits(const coin_t[::1] coins, const int64_t[::1] starts,
                 const int64_t[::1] stops, Py_ssize_t n_rows):
    """What each player collects: ``(status, (first, second) or bad flat index)``.

    int64: first = (sum + value) / 2, exact (every sum checked). float64: the coins each
    player takes in the optimal play, each total summed exactly and rounded once (so
    ``first`` is what math.fsum of her coins gives); OVERFLOW when the value or a rounded
    total is beyond the float range. O(n) for one row, O(n log k) otherwise.
    """
    cdef int64_t total_coins = _total_coins(starts, stops), bad_index = -1
    cdef Py_ssize_t k = starts.shape[0]
    cdef coin_t value = 0, total = 0, first = 0, second = 0
    cdef double *values = NULL
    cdef int64_t *segments = NULL
    cdef int64_t *play = NULL
    cdef int status = OK
    cdef bint ovf = False
    if total_coins == 0:
        return Status.OK, (first, second)
    with nogil:
        if coin_t is int64_t:
            # The coins' sum is taken in the value's pass over the coins.
            status = _game_value_int(coins, starts, stops, n_rows, total_coins, &value,
                                     &total, &ovf)
            ovf |= profits_checked(total, value, &first, &second)
            if ovf and status == OK:
                status = OVERFLOW
        elif k == 1 and n_rows == 1:
            values = <double *> malloc(total_coins * sizeof(double))
            segments = <int64_t *> malloc(total_coins * sizeof(int64_t))
            if values == NULL or segments == NULL:
                status = NO_MEMORY
            else:
                bad_index = _first_not_finite(coins, starts[0], stops[0])
                if bad_index >= 0:
                    status = NOT_FINITE
                else:
                    status = _one_row_float_profits(coins, starts[0], stops[0], values,
                                                    segments, &first, &second, 0.0)
        else:
            play = <int64_t *> malloc(total_coins * sizeof(int64_t))
            if play == NULL:
                status = NO_MEMORY
            else:
                status = _game_play(coins, starts, stops, n_rows, total_coins, NULL, play,
                                    NULL, &value, &bad_index)
                if status == OK:
                    status = _play_float_profits(coins, play, total_coins, &first, &second)
        free(values)
        free(segments)
        free(play)
    return _answer(status, bad_index, (first, second))


def check_finite(const coin_t[::1] coins):
    """``(NOT_FINITE, index)`` of the first NaN or infinity, else ``(OK, None)``. O(n)."""
    cdef int64_t bad = -1
    if coin_t is double:
        with nogil:
            bad = _first_not_finite(coins, 0, coins.shape[0])
    if bad >= 0:
        return Status.NOT_FINITE, bad
    return Status.OK, None
