# coinsrow._core._row_helpers: what every kind of game does with its rows and stacks, shared
# by the games of many components (_rows), the forests, the windows and the batch: each
# component reduced by Fusion (and Fruitless at a stack's bottom), and the profits of a row of
# floats summed exactly. Called once a component, never once a coin; the inline helpers
# (Component, _first_not_finite, _one_row_greedy, ...) are in _row_helpers.pxd.

from coinsrow._core._types cimport (NOT_FINITE, NotWanted, OK, OVERFLOW, Wanted, add_checked,
                                    coin_t, coinsrow_unlikely, int64_t, isfinite, padded_t,
                                    segments_t, sub_checked)
from coinsrow._core._fsum cimport ExactSum, exact_sum_add, exact_sum_init, exact_sum_result
from coinsrow._core._row_stack cimport _push_entry


cdef int64_t _reduce(const coin_t *coins, int64_t start, int64_t stop,
                     coin_t *values, int64_t *segments, bint *overflow) noexcept nogil:
    """Fusion reduction of coins[start:stop] into values[start:], return one past the top.

    values[start:top] is the canonical bitonic form of the component. When ``segments``
    is not NULL, segments[e] is the first coin of the contiguous, odd-length run of coins
    that reduced entry e stands for. (``_reduce_into`` writes at any position.)

    The coins by pointer: the batch calls this once a game from its own module, and a
    memoryview argument is a 208-byte struct copied at each such call (10^5 games of 20
    coins, callgrind: 72.3 million instructions with it, 68.5 without).
    """
    return _reduce_variant(coins, start, stop, values, start, segments, overflow, False)


cdef int64_t _reduce_into(const coin_t[::1] coins, int64_t start, int64_t stop,
                          coin_t *values, int64_t base, int64_t *segments,
                          bint *overflow, bint padded) noexcept nogil:
    """``_reduce``, writing the reduced entries (and segments) at ``base`` instead of
    ``start``: values[base:top], top returned.

    ``padded``: values[base - 2] and values[base - 1] are readable (values has two entries
    before values[0]); otherwise the reload after a fusion reads values[base] there
    instead (two conditional moves, a little slower).
    """
    if stop <= start:
        return base  # no coin (and coins[0] may not exist)
    return _reduce_variant(&coins[0], start, stop, values, base, segments, overflow, padded)


cdef inline int64_t _reduce_variant(const coin_t *coins, int64_t start, int64_t stop,
                                    coin_t *values, int64_t base, int64_t *segments,
                                    bint *overflow, bint padded) noexcept nogil:
    """Each combination of ``padded`` and ``segments`` runs its own compiled loop
    (``_reduce_loop``)."""
    if segments != NULL:
        if padded:
            return _reduce_loop(coins, start, stop, values, base, segments, overflow,
                                <Wanted *> NULL, <Wanted *> NULL)
        return _reduce_loop(coins, start, stop, values, base, segments, overflow,
                            <Wanted *> NULL, <NotWanted *> NULL)
    if padded:
        return _reduce_loop(coins, start, stop, values, base, NULL, overflow,
                            <NotWanted *> NULL, <Wanted *> NULL)
    return _reduce_loop(coins, start, stop, values, base, NULL, overflow,
                        <NotWanted *> NULL, <NotWanted *> NULL)


cdef int64_t _reduce_loop(const coin_t *coins, int64_t start, int64_t stop,
                          coin_t *values, int64_t base, int64_t *segments, bint *overflow,
                          segments_t *segments_mode, padded_t *padded_mode) noexcept nogil:
    """The loop of ``_reduce_into``, compiled once for each variant (see Wanted).

    The two top entries are kept in registers; memory is read again only after a fusion.
    The fusion test is one branch (bitwise &, not three short-circuit branches), and the
    padded reload after a fusion has no branch: it reads the two entries below the top even
    where the depth is under 2 (the depth test masks them).
    """
    cdef coin_t *sp = values + base           # one past the top entry
    cdef coin_t *deep = values + base + 2     # a fusion needs two entries under the coin
    cdef coin_t v, t
    cdef coin_t first = 0, second = 0         # masked by the depth test until set
    cdef int64_t p, seg = 0, top
    cdef bint ovf = False
    for p in range(start, stop):
        v = coins[p]
        if segments_t is Wanted:
            seg = p
        # Fusion: x <= M > v with x = second, M = first. (M >= v would be as valid; the
        # strict test gives the one reduced form the window structure keeps, the canonical
        # form under the tie-breaking perturbation of docs/window.md, so that every part of
        # the library plays the same move on ties: docs/algorithm.md.)
        while coinsrow_unlikely((second <= first) & (first > v) & (sp >= deep)):
            # int64: the overflow flags are accumulated, not branched on.
            ovf |= sub_checked(second, first, &t)
            ovf |= add_checked(t, v, &v)
            sp -= 2
            if segments_t is Wanted:
                seg = segments[sp - values]
            if padded_t is Wanted:
                first = (sp - 1)[0]
                second = (sp - 2)[0]
            else:
                # Where the depth is under 2, values[base] (written before this fusion).
                top = sp - values
                first = values[top - 1 if top - 1 >= base else base]
                second = values[top - 2 if top - 2 >= base else base]
        sp = _push_entry(values, segments, sp, v, seg, &first, &second, segments_mode)
    overflow[0] |= ovf
    return sp - values


cdef int _reduce_all_into(const coin_t[::1] coins, const int64_t[::1] starts,
                          const int64_t[::1] stops, Py_ssize_t n_rows,
                          coin_t *values, int64_t *segments, Component *components,
                          coin_t *fruitless, int64_t *bad_index, bint packed) noexcept nogil:
    """Fusion on every component, Fruitless at the bottom of every stack.

    Fills ``components`` and adds the Fruitless terms to ``fruitless[0]``. Without
    ``packed``, component c's reduced entries are at values[starts[c]:]; with it, they are
    written one after the other from values[0], so ``values`` and ``segments`` need room for
    the game's coins only (sum of stops - starts), not for the whole buffer; ``values`` must
    then also have two readable entries before values[0] (see ``_reduce_into``).

    Packing matters for many small components: their few reduced entries then share cache
    lines and pages, instead of each component touching a page of its own.
    """
    cdef Py_ssize_t k = starts.shape[0], c
    cdef int64_t n = 0, start, stop, top, base = 0
    cdef bint ovf = False
    cdef bint n_odd
    cdef coin_t t
    cdef Component *comp
    for c in range(k):
        n += stops[c] - starts[c]
    n_odd = n & 1
    if coin_t is double:
        # NaN and infinities poison every comparison: refuse them before any work.
        for c in range(k):
            bad_index[0] = _first_not_finite(coins, starts[c], stops[c])
            if bad_index[0] >= 0:
                return NOT_FINITE
    fruitless[0] = 0
    for c in range(k):
        start = starts[c]
        stop = stops[c]
        if not packed:
            base = start
        top = _reduce_into(coins, start, stop, values, base, segments, &ovf, packed)
        comp = &components[c]
        comp.first = base
        comp.left = base
        comp.fused_end = top
        comp.stop = stop
        comp.is_stack = c >= n_rows
        comp.tail = stop
        if comp.is_stack:
            # Fruitless: a stack whose two bottom entries satisfy x <= M loses them at
            # a known cost, (-1)^n (x - M) for the player to move in the whole game.
            while top - base >= 2 and values[top - 2] <= values[top - 1]:
                ovf |= sub_checked(values[top - 2], values[top - 1], &t)
                if n_odd:
                    ovf |= sub_checked(fruitless[0], t, fruitless)
                else:
                    ovf |= add_checked(fruitless[0], t, fruitless)
                top -= 2
            if segments != NULL and top < comp.fused_end:
                comp.tail = segments[top]
        comp.right = top - 1
        # Entries removed by Fruitless stay where they are: the play reads their segments.
        base = comp.fused_end
    return OVERFLOW if ovf else OK


cdef int _one_row_float_profits(const double[::1] coins, int64_t start, int64_t stop,
                                double *values, int64_t *segments, double *first,
                                double *second, double second_extra) noexcept nogil:
    """The profits of the row coins[start:stop] of doubles: each player's coins in the
    optimal play, summed exactly and rounded once (``second_extra``, a coin the second
    player took before the row, joins his sum). ``values`` and ``segments`` are scratch
    for stop - start entries. OK or OVERFLOW (a sum beyond the float range).

    Greedy entry g (in the order taken) is taken by player g % 2; its odd run of coins is
    taken coin by coin from its exposed end, so the coin at an even offset in the run goes to
    the same player and the coin at an odd offset to the other: whichever end is exposed,
    since the run has odd length. The play itself is never written out.
    """
    cdef ExactSum sums[2]
    cdef int64_t left = 0, right, top, e, p, seg_lo, seg_hi, turn = 0
    cdef int status = OK
    cdef bint ovf = False
    cdef double total = 0.0
    top = _reduce_into(coins, start, stop, values, 0, segments, &ovf, False)
    right = top - 1
    exact_sum_init(&sums[0])
    exact_sum_init(&sums[1])
    exact_sum_add(&sums[1], second_extra)
    while left <= right:
        if values[left] >= values[right]:
            e = left
            left += 1
        else:
            e = right
            right -= 1
        # The value in the play kernel's order: a float overflow anywhere in the reduction
        # or the Greedy shows in it, and the game is then redone exactly.
        total = total + values[e] if turn & 1 == 0 else total - values[e]
        seg_lo = segments[e]
        seg_hi = segments[e + 1] if e + 1 < top else stop
        for p in range(seg_lo, seg_hi):
            exact_sum_add(&sums[(turn + p - seg_lo) & 1], coins[p])
        turn += 1
    first[0] = exact_sum_result(&sums[0])
    second[0] = exact_sum_result(&sums[1])
    if not isfinite(total + 0.0) or not (isfinite(first[0]) and isfinite(second[0])):
        status = OVERFLOW
    return status


cdef int _play_float_profits(const double[::1] coins, int64_t *play, int64_t n,
                             double *first, double *second) noexcept nogil:
    """Each player's coins of a written play (coin indices, turn by turn), summed exactly
    and rounded once: the player to move takes the even turns."""
    cdef ExactSum sums[2]
    cdef int64_t t
    cdef int status = OK
    exact_sum_init(&sums[0])
    exact_sum_init(&sums[1])
    for t in range(n):
        exact_sum_add(&sums[t & 1], coins[play[t]])
    first[0] = exact_sum_result(&sums[0])
    second[0] = exact_sum_result(&sums[1])
    if not (isfinite(first[0]) and isfinite(second[0])):
        status = OVERFLOW
    return status
