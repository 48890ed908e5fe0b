# The Fusion loop of float64 rows (_push_coins), inline: compiled into _row_stack, its only
# user, where _push_floats picks its variant. A .pxd of inline code only (no module of its
# own): the loop runs once a coin, so it must stay in the module that calls it.

from coinsrow._core._types cimport NotWanted, Wanted, coinsrow_unlikely, int64_t, runs_t, segments_t
from coinsrow._core._row_stack cimport RowStack, _guard, _push_entry, _refill, _top_entry


cdef inline const double *_zigzag(const double *z, const double *limit, double below,
                                  double *top) noexcept nogil:
    """A zigzag after a Fusion: the Fusion left ``top[0]`` to be pushed, on an entry
    ``below``. If below > top (or top has fewer than two entries under it), then while the
    next two coins a, b satisfy top <= a > b, a goes on without fusing and b fuses it
    with top into top - a + b. That is smaller than top, so it fuses with nothing under it
    either: each pair costs two compares and two additions, without touching the stack
    (rows that alternate high and low coins are all such pairs). Takes pairs of coins
    from z on, below ``limit``; returns the first coin not taken. O(1) a pair."""
    cdef double v = top[0], a, b
    if not (below > v):
        return z
    while z + 1 < limit:
        a = z[0]
        b = z[1]
        if not ((v <= a) & (a > b)):
            break
        v = (v - a) + b
        z += 2
    top[0] = v
    return z


cdef inline const double *_push_coin(const double *coins, const double *cp,
                                     const double *limit, double *values, int64_t *segments,
                                     RowStack *st, double **sp, double **deep, double **guard,
                                     double *first, double *second, bint *fused,
                                     segments_t *segments_mode,
                                     runs_t *runs_mode) noexcept nogil:
    """The step of _push_coins: push the coin cp[0], with Fusion, onto the stack whose top
    is at ``sp[0]`` (one past the top written entry) and whose two top entries are ``first``
    and ``second``; after a Fusion, a zigzag (_zigzag) takes pairs of the next coins below
    ``limit``. Returns the last coin taken (cp itself unless a zigzag took more). Sets
    ``fused`` at a Fusion; ``deep`` and ``guard`` move when a Fusion reaching into a run
    writes its last entries first (_refill). O(1) amortised.

    One step for every place of the pair loop, inlined into it: the two places of a pair
    differ only in the coin and the zigzag's limit, which the caller passes."""
    cdef double v = cp[0]
    cdef double *top = sp[0]
    cdef int64_t seg = 0, moved
    if segments_t is Wanted:
        seg = cp - coins
    # The Fusion test is one branch (bitwise &), taken rarely.
    if coinsrow_unlikely((second[0] <= first[0]) & (first[0] > v)):
        while True:
            if coinsrow_unlikely(top < deep[0]):
                break  # fewer than two entries under the coin (see _pad_below)
            fused[0] = True
            v = (second[0] - first[0]) + v
            if runs_t is Wanted and coinsrow_unlikely(top < guard[0]):
                # The top entries are in a run: write its last ones first.
                st.written = top - values
                moved = _refill(coins, values, segments, st)
                top += moved
                deep[0] += moved
                guard[0] = values + _guard(st)
            top -= 2
            if segments_t is Wanted:
                seg = segments[top - values]
            first[0] = (top - 1)[0]
            second[0] = (top - 2)[0]
            if not ((second[0] <= first[0]) & (first[0] > v)):
                break
        cp = _zigzag(cp + 1, limit, first[0], &v) - 1
    sp[0] = _push_entry(values, segments, top, v, seg, first, second, segments_mode)
    return cp


cdef inline int64_t _push_coins(const double *coins, int64_t p, int64_t stop, double *values,
                                int64_t *segments, RowStack *st, int64_t block,
                                segments_t *segments_mode, runs_t *runs_mode) noexcept nogil:
    """Push coins from coins[p] on onto ``st``, each with Fusion: while x <= M > v for the
    two top entries x, M and the coin v, they become one, x - M + v. Each is written; stops
    at ``stop``, or after a block of ``block`` coins without a Fusion (the next coins are
    then scanned as a run): returns the next coin. Float rows only: int64 rows go through
    _push_ints (_push_value, _push_play). O(1) amortised a coin.

    The two top entries are kept in registers; memory is read again only after a Fusion,
    without a branch unless a run is near (values[-2] and values[-1] are readable). The
    depth is tested only once the Fusion test passes: below the stack are the largest
    numbers (``_pad_below``), so that an entry alone on the stack almost never passes it.
    The variant (``segments_t``, ``runs_t``, see Wanted) says whether ``segments`` are
    written, whether ``st`` may have runs.
    """
    cdef double *sp = values + st.written         # one past the top written entry
    cdef double *guard = values + _guard(st)      # the fast path needs sp >= guard
    cdef double *deep = values + 2 - (st.top - st.written)  # two entries under the coin
    cdef const double *cp = coins + p
    cdef const double *end = coins + stop
    cdef const double *block_end
    cdef double first = 0, second = 0
    cdef bint fused = True
    if st.top >= 1:
        first = _top_entry(coins, values, st, 0)
    if st.top >= 2:
        second = _top_entry(coins, values, st, 1)
    # After a block without a Fusion, the caller scans a run.
    while fused and cp < end:
        fused = False
        block_end = cp + block if end - cp > block else end
        # Two coins a step (the loop's own work halves). The first coin's zigzag stops a
        # coin early, so that the second coin is still below ``block_end``.
        while cp + 1 < block_end:
            cp = _push_coin(coins, cp, block_end - 1, values, segments, st, &sp, &deep,
                            &guard, &first, &second, &fused, segments_mode, runs_mode)
            cp = _push_coin(coins, cp + 1, block_end, values, segments, st, &sp, &deep,
                            &guard, &first, &second, &fused, segments_mode, runs_mode) + 1
        if cp < block_end:
            cp = _push_coin(coins, cp, block_end, values, segments, st, &sp, &deep,
                            &guard, &first, &second, &fused, segments_mode, runs_mode) + 1
    st.top = (sp - values) + (values + 2 - deep)
    st.written = sp - values
    return cp - coins
