# coinsrow._core._row_stack: one row reduced into a stack, coin after coin (Fusion), in
# parts on several threads stitched together afterwards (docs/rows.md). The stack's layout
# and its readers are declared in _row_stack.pxd.

from coinsrow._core._types cimport *
from coinsrow._core._row_shapes cimport _compact_plateaus, _compaction_pays, _ties_fuse
from coinsrow._core._row_float_fusion cimport _push_coins


cdef int _add_run(RowStack *st, int64_t at, int64_t length, int64_t coin, int64_t alt,
                  bint alt_known) noexcept nogil:
    """Append a run of ``length`` coins from ``coin`` on, after values[:at] (continuing
    the top run when nothing is written after it and the coins continue it): OK or
    NO_MEMORY. ``alt``: the run's alternating sum (see Run), if ``alt_known``."""
    cdef Run *r
    cdef Run *grown
    cdef int64_t capacity
    if length <= 0:
        return OK
    if st.n_runs > 0:
        r = &st.runs[st.n_runs - 1]
        if r.at == at and r.coin + r.length == coin:
            if r.alt_known and alt_known and r.alt_length == r.length:
                # The new coins' signs start at the parity of the run's length.
                if r.length & 1:
                    r.alt_known = not sub_checked(r.alt, alt, &r.alt)
                else:
                    r.alt_known = not add_checked(r.alt, alt, &r.alt)
            else:
                r.alt_known = False
            r.length += length
            r.alt_length = r.length
            return OK
    if st.n_runs == st.capacity:
        capacity = 2 * st.capacity if st.capacity > 0 else 8
        grown = <Run *> realloc(st.runs, capacity * sizeof(Run))
        if grown == NULL:
            st.no_memory = True
            return NO_MEMORY
        st.runs = grown
        st.capacity = capacity
    r = &st.runs[st.n_runs]
    r.at = at
    r.length = length
    r.coin = coin
    r.written = 0
    r.pos = 0
    r.alt = alt
    r.alt_length = length
    r.alt_known = alt_known
    st.n_runs += 1
    return OK


cdef int64_t _refill(const coin_t *coins, coin_t *values, int64_t *segments,
                     RowStack *st) noexcept nogil:
    """Write the top runs' last entries (with their segments) under the written entries
    above them, until four written entries are above the top run or no run is left;
    returns how many entries it wrote (``st.written`` grows by as much).

    The entries written from a run's end double each time a Fusion reaches into it again,
    so that Fusions eating into a long run soon take the fast path again, and a run is never
    written for much more than the Fusions eat of it.
    """
    cdef Run *r
    cdef int64_t above, block, moved = 0
    while st.n_runs > 0 and st.written - st.runs[st.n_runs - 1].at < 4:
        r = &st.runs[st.n_runs - 1]
        above = st.written - r.at
        block = r.written if r.written > _REFILL_FIRST else _REFILL_FIRST
        if block > r.length:
            block = r.length
        # The entries above the run move up, the run's last entries go under them.
        memmove(values + r.at + block, values + r.at, above * sizeof(coin_t))
        memcpy(values + r.at, coins + r.coin + r.length - block, block * sizeof(coin_t))
        if segments != NULL:
            memmove(segments + r.at + block, segments + r.at, above * sizeof(int64_t))
            _write_coin_segments(segments + r.at, r.coin + r.length - block, block)
        st.written += block
        moved += block
        r.length -= block
        r.written += block
        if r.length == 0:
            st.n_runs -= 1
    return moved


cdef coin_t _top_entry(const coin_t *coins, const coin_t *values, RowStack *st,
                       int64_t depth) noexcept nogil:
    """The entry ``depth`` below the top one (0: the top one); the stack has more."""
    cdef int64_t w = st.written, above
    cdef int64_t k = st.n_runs - 1
    while k >= 0:
        above = w - st.runs[k].at
        if depth < above:
            return values[w - 1 - depth]
        depth -= above
        if depth < st.runs[k].length:
            return coins[st.runs[k].coin + st.runs[k].length - 1 - depth]
        depth -= st.runs[k].length
        w = st.runs[k].at
        k -= 1
    return values[w - 1 - depth]


cdef inline int64_t _top_segment(const int64_t *segments, RowStack *st) noexcept nogil:
    """The first coin of the top entry's run of coins."""
    cdef Run *r
    if st.n_runs > 0:
        r = &st.runs[st.n_runs - 1]
        if r.at == st.written:
            return r.coin + r.length - 1
    return segments[st.written - 1]


cdef int64_t _unfused_scan(const coin_t *c, int64_t p, int64_t stop, coin_t prev,
                           bint down, RowSums *sums) noexcept nogil:
    """The first q in [p, stop) where coin c[q] fuses, or ``stop``: the two top entries
    of the stack are c[q - 2] and c[q - 1] (at p: ``prev`` on top, ``down`` if the entry
    under it is larger) and a Fusion happens at the first descent that follows a rise or a
    flat step. int64: adds each coin c[i], p <= i < q, to ``sums.even`` or ``sums.odd`` by
    the parity of i.

    Two coins a step: a rising (or flat) pair, or a falling pair after a descent, goes on
    after two compares (branches that a long monotone stretch makes predictable) and two
    additions (whose overflow tests are branches never taken): about as fast as reading
    the coins. Anything else is looked at coin by coin.
    """
    cdef int64_t here = 0, there = 0   # coins at p's parity, at the other one (pair loop)
    cdef int64_t parity = p & 1
    cdef coin_t x0, x1
    cdef bint ovf = False
    while True:
        while p + 1 < stop:
            coinsrow_prefetch(c + p + _SCAN_AHEAD)
            x0 = c[p]
            x1 = c[p + 1]
            if prev <= x0:
                if x0 > x1:
                    break  # a Fusion at p + 1
                down = False
            elif down and x0 > x1:
                pass       # still falling
            else:
                break      # a Fusion at p (a descent after a rise), or a turn up at p + 1
            if coin_t is int64_t:
                if coinsrow_unlikely(add_checked(here, x0, &here)):
                    ovf = True
                if coinsrow_unlikely(add_checked(there, x1, &there)):
                    ovf = True
            prev = x1
            p += 2
        # One coin (a turn, or the last coin): then the pairs again.
        if p >= stop:
            break
        x0 = c[p]
        if (prev > x0) > down:
            break  # a Fusion at p
        down = prev > x0
        prev = x0
        if coin_t is int64_t:
            if coinsrow_unlikely(add_checked(here, x0, &here)):
                ovf = True
        p += 1
        # The pair loop's parities flip: ``here`` is now the other parity's sum.
        here, there = there, here
        parity ^= 1
    if coin_t is int64_t:
        if parity:
            ovf |= add_checked(sums.even, there, &sums.even)
            ovf |= add_checked(sums.odd, here, &sums.odd)
        else:
            ovf |= add_checked(sums.even, here, &sums.even)
            ovf |= add_checked(sums.odd, there, &sums.odd)
        sums.overflow |= ovf
    return p


cdef int64_t _push_floats(const double *coins, int64_t p, int64_t stop,
                          double *values, int64_t *segments, RowStack *st,
                          int64_t block, segments_t *segments_mode) noexcept nogil:
    """_push_coins in the variant for ``st``: with runs, or without them (whose Fusion loop
    never tests for a run near the top)."""
    if st.n_runs > 0:
        return _push_coins(coins, p, stop, values, segments, st, block, segments_mode,
                           <Wanted *> NULL)
    return _push_coins(coins, p, stop, values, segments, st, block, segments_mode,
                       <NotWanted *> NULL)


cdef void _push_slow(const int64_t *coins, int64_t *values, RowStack *st, int64_t v,
                     bint *ovf) noexcept nogil:
    """Push v with Fusion (a tie fuses too) by the general readers of the stack: the end of
    a Fusion that used up a run under _fuse_run (rare: once a run)."""
    cdef int64_t first, second, t
    while st.top >= 2:
        first = _top_entry(coins, values, st, 0)
        second = _top_entry(coins, values, st, 1)
        if not _fuses(second, first, v, <Wanted *> NULL):
            break
        ovf[0] |= sub_checked(second, first, &t)
        ovf[0] |= add_checked(t, v, &v)
        if st.n_runs > 0 and st.written - st.runs[st.n_runs - 1].at < 2:
            _refill(coins, values, NULL, st)
        st.written -= 2
        st.top -= 2
    values[st.written] = v
    st.written += 1
    st.top += 1


cdef const int64_t *_fuse_run(const int64_t *coins, const int64_t *cp, const int64_t *end,
                              const int64_t **limit, int64_t block, int64_t *values,
                              RowStack *st, int64_t v, int64_t first, int64_t second,
                              bint *ovf) noexcept nogil:
    """_push_ints (value, profits) where a Fusion reaches into the top run: the coin v
    (cp[0], partly fused) passes the Fusion test with the top entries ``second``, ``first``,
    and fewer than four written entries are above the run. Goes on with the same loop, but
    reads the entries under the written ones straight from the run's coins instead of
    copying them into the scratch first, until four entries are written above the run, the
    coins reach ``limit`` (moved on by Fusions as in _push_ints) or a Fusion uses the run
    up (that one ends in _push_slow). Returns the next coin; ``st`` is up to date.

    On a peak, the rising half is a run and the falling half's Fusions eat it from its top:
    copied in blocks (8, 16, 32, ... entries), the run's coins were read twice and written
    once more than the plain C loop reads and writes its stack (value() 1.28x the C loop
    on the linear peak, 10^7 coins)."""
    cdef Run *r = &st.runs[st.n_runs - 1]
    cdef const int64_t *rc = coins + r.coin     # the run's entries: rc[0:n_run]
    cdef int64_t *base = values + r.at          # the written entries above it: base[0:w]
    cdef int64_t n_run = r.length, w = st.written - r.at, t
    cdef int64_t old_entries = n_run + w
    cdef const int64_t *moved_limit
    cdef bint used_up = False
    while True:
        if _fuses(second, first, v, <Wanted *> NULL):
            moved_limit = cp + 1 + block if end - cp - 1 > block else end
            while True:
                if coinsrow_unlikely(n_run + w < 4):
                    used_up = True
                    break
                if first != v:
                    limit[0] = moved_limit
                if coinsrow_unlikely(sub_checked(second, first, &t)):
                    ovf[0] = True
                if coinsrow_unlikely(add_checked(t, v, &v)):
                    ovf[0] = True
                # The two top entries go: written ones first, then the run's last ones.
                w -= 2
                if w < 0:
                    n_run += w
                    w = 0
                first = base[w - 1] if w >= 1 else rc[n_run - 1]
                second = base[w - 2] if w >= 2 else rc[n_run + w - 2]
                if not _fuses(second, first, v, <Wanted *> NULL):
                    break
            if used_up:
                break
        base[w] = v
        w += 1
        second = first
        first = v
        cp += 1
        coinsrow_prefetch(rc + n_run - _RUN_AHEAD)
        if w >= 4 or cp >= limit[0]:
            break
        v = cp[0]
    st.top += n_run + w - old_entries
    st.written = r.at + w
    r.length = n_run
    if used_up:
        _push_slow(coins, values, st, v, ovf)
        cp += 1
    return cp


# Code placement of the Fusion loop of int64 value() and profits() on rows without runs (the
# variant of _push_ints without segments or runs that fuses ties; GCC only): its entry on a
# 64-byte boundary, so that where the loop's branches fall does not move with unrelated code
# before it, and its blocks laid out in source order ("simple"), where a Fusion that ends the
# loop at once falls through (1 taken branch a coin that fuses once, against 4 in GCC's
# default layout; 1 a coin that does not fuse in both). value() / the plain C loop, 10^7
# coins, median of 7 rounds in each of 2 processes, the module rebuilt with 0, 80 and 1000
# bytes of code before all of it (default layout -> this): Project Euler 477 1.32-1.35 ->
# 1.14-1.20, staircase down 1.08-1.22 -> 1.04-1.08, random 0.94-0.97 -> 0.94-0.95, dealt
# peak 1.00-1.03 -> 0.99-1.01, linear peak 0.70-0.75 -> 0.70-0.72 (in the whole family
# table, 2 to 5 values 0.99-1.02 -> 0.95-0.98, nothing slower). The variant with runs
# (peaks: _fuse_run is inlined in it) keeps GCC's layout: "simple" there made the dealt
# peak 1.00-1.03 -> 1.06-1.09; but its entry is on a 64-byte boundary too: a change of play's
# variants alone moved it by 32 bytes and made value() on the square wave (10^6 coins, where
# plateaus send the coins back and forth between this variant and the run scan) 1.15x to
# 1.18x the time in each of 5 rounds (0.65 ms aligned, 0.86 32 bytes off; the dealt peak
# 2.75-2.80 ms against 2.84-2.95). So is play's variant without runs: the unrolled sum
# (_add_sum) moved it off its boundary and play() on 2 values and zigzag plateaus took 1.04x
# the time (5 rounds, 10^6 coins), 1.00x to 1.02x aligned. The names are Cython's for these
# variants: if they change, GCC warns that they are declared and never defined.
cdef extern from *:
    """
    #if defined(__GNUC__) && !defined(__clang__)
    struct __pyx_t_8coinsrow_5_core_10_row_stack_RowStack;
    struct __pyx_t_8coinsrow_5_core_6_types_Wanted;
    struct __pyx_t_8coinsrow_5_core_6_types_NotWanted;
    /* One declaration of a variant of _push_ints: its name, its four tag types (segments,
       runs, ties, starts) and its attributes. */
    #define COINSROW_PUSH_INTS(name, segments_t, runs_t, ties_t, starts_t, attributes)      \
        static int64_t name(int64_t const *, int64_t const *, int64_t, int64_t, int64_t *, \
            int64_t *, struct __pyx_t_8coinsrow_5_core_10_row_stack_RowStack *, int64_t,  \
            struct segments_t *, struct runs_t *, struct ties_t *,                        \
            struct starts_t *) attributes;
    #define COINSROW_WANTED __pyx_t_8coinsrow_5_core_6_types_Wanted
    #define COINSROW_NOT_WANTED __pyx_t_8coinsrow_5_core_6_types_NotWanted
    COINSROW_PUSH_INTS(__pyx_fuse_1_1_0_1__pyx_f_8coinsrow_5_core_10_row_stack__push_ints,
                       COINSROW_NOT_WANTED, COINSROW_NOT_WANTED, COINSROW_WANTED,
                       COINSROW_NOT_WANTED,
                       __attribute__((aligned(64),
                                      optimize("reorder-blocks-algorithm=simple"))))
    COINSROW_PUSH_INTS(__pyx_fuse_1_0_0_1__pyx_f_8coinsrow_5_core_10_row_stack__push_ints,
                       COINSROW_NOT_WANTED, COINSROW_WANTED, COINSROW_WANTED,
                       COINSROW_NOT_WANTED, __attribute__((aligned(64))))
    COINSROW_PUSH_INTS(__pyx_fuse_0_1_1_1__pyx_f_8coinsrow_5_core_10_row_stack__push_ints,
                       COINSROW_WANTED, COINSROW_NOT_WANTED, COINSROW_NOT_WANTED,
                       COINSROW_NOT_WANTED, __attribute__((aligned(64))))
    COINSROW_PUSH_INTS(__pyx_fuse_0_1_1_0__pyx_f_8coinsrow_5_core_10_row_stack__push_ints,
                       COINSROW_WANTED, COINSROW_NOT_WANTED, COINSROW_NOT_WANTED,
                       COINSROW_WANTED, __attribute__((aligned(64))))
    /* Not inlined into _reduce_part (with the variant above in it): value() on the square
       wave took 1.05x to 1.11x the time (10^6 coins, 5 rounds). */
    static int __pyx_f_8coinsrow_5_core_10_row_stack__reduce_compacted(
        int64_t const *, int64_t, int64_t, int64_t *, int64_t *,
        struct __pyx_t_8coinsrow_5_core_10_row_stack_RowStack *, int *)
        __attribute__((noinline));
    #endif
    """


# At each Fusion, the Fusion loop of _push_ints asks for the coin _COINS_AHEAD coins (2 KiB)
# ahead (coinsrow_prefetch). Out of the cache, the loop waited for its coins: on Project
# Euler 477, value() on 10^5 coins (in the cache) took the plain C loop's time, on 10^7
# coins 1.27x to 1.32x it (29-31 ms against 23). The C loop reads coin after coin with one
# load, a stride the processor's prefetchers follow; this loop's zigzags take pairs of coins
# with other loads, so that its coins' addresses do not advance by a fixed step, and
# (presumably) its mispredictions keep it from reading ahead by itself. The sum of profits
# (_add_sum, a fast pass over each _SUM_CHUNK coins once pushed) hid part of it: profits
# took 0.79x to 0.86x the time of value. Asked for ahead: value 10^7 coins 12-13 ms of CPU
# time against 29-32 (best of 3), 0.56x the C loop (64 coins ahead: 0.92x; 512: as 256).
# Asked for at every coin rather than at each Fusion, rows of 10^6 coins that the cache
# holds took up to 1.48x their time (2 values; 1.19x staircase down); at each Fusion, none
# is slower. Not in play's variants: there, Project Euler 477 at 10^6 coins took 1.06x to
# 1.14x the time with it. docs/rows.md, "Reading the coins ahead".
cdef int64_t _push_ints(const int64_t *coins, const int64_t *starts, int64_t p, int64_t stop,
                        int64_t *values, int64_t *segments, RowStack *st, int64_t block,
                        segments_t *segments_mode, runs_t *runs_mode, ties_t *ties_mode,
                        starts_t *starts_mode) noexcept nogil:
    """_push_coins for int64 rows, in the shape of the plain C loop: one coin a step, kept
    in a register; while the two top entries x, M and the coin v pass the Fusion test
    (_fuses), they become one, x - M + v; then the coin is written once. One compare and
    one branch a coin, whose outcomes follow the row (a predictor learns a repeating row as
    it does the plain loop's); overflow tests are branches never taken.

    Stops after ``block`` coins in a row without a Fusion of unequal entries (a tie fusing
    does not count: plateaus are scanned as runs again): the limit moves on at each Fusion,
    not block by block, so that the loop's branches repeat as the row does (blocks of a
    fixed length cut a row whose coins repeat with another period at a different place in
    each period: Project Euler 477's coins, period 7,248, took 3.2 ns a coin in blocks of
    64, 2.3 with the moving limit, against 2.0 for the plain C loop, 10^6 coins).

    After a Fusion that leaves v under its entry M (so x > M: nothing under can fuse), a
    zigzag: while the next two coins a, b pass the test with v, a goes on and b fuses it,
    v - a + b, not more than v, so that nothing under fuses either: two coins a step
    without touching the stack (rows that alternate high and low coins: 0.7x the C loop).

    ``segments_t`` Wanted: each entry's first coin goes to ``segments``. ``runs_t`` Wanted:
    ``st`` may have runs. ``starts_t`` Wanted (play, with segments and without runs):
    ``coins`` are the entries of a compacted row (_reduce_compacted), coins[i]'s first coin
    is starts[i] (else ``starts`` is not read: each coin is its own first coin)."""
    cdef int64_t *sp = values + st.written         # one past the top written entry
    cdef int64_t *guard = values + _guard(st)      # the fast path needs sp >= guard
    cdef int64_t *deep = values + 2 - (st.top - st.written)  # two entries under the coin
    cdef int64_t *low = deep                       # the higher of the two
    # segments_t Wanted: the segment of the entry at sp, moved with sp (an index from
    # values, computed a coin, took two more instructions a coin and a register).
    cdef int64_t *ss = segments + (sp - values) if segments_t is Wanted else NULL
    cdef const int64_t *cp = coins + p
    cdef const int64_t *end = coins + stop
    cdef const int64_t *limit
    cdef const int64_t *moved_limit
    cdef int64_t moved, v, t, a, b, seg = 0, first = 0, second = 0
    cdef bint ovf = False, unequal, in_run = False
    if runs_t is Wanted and guard > deep:
        low = guard
    if st.top >= 1:
        first = _top_entry(coins, values, st, 0)
    if st.top >= 2:
        second = _top_entry(coins, values, st, 1)
    if block > stop - p:
        block = stop - p
    limit = cp + block
    while cp < limit:
        v = cp[0]
        if segments_t is Wanted:
            seg = starts[cp - coins] if starts_t is Wanted else cp - coins
        if _fuses(second, first, v, ties_mode):
            if segments_t is NotWanted:
                coinsrow_prefetch(cp + _COINS_AHEAD)  # no fault past the row's end
            # Where the limit goes if a Fusion is not of a tie.
            moved_limit = cp + 1 + block if end - cp - 1 > block else end
            while True:
                # One test for both rare cases: fewer than two entries under the coin (see
                # _pad_below), or the top entries are in a run.
                if coinsrow_unlikely(sp < low):
                    if runs_t is NotWanted or sp < deep:
                        break
                    if (segments_t is NotWanted and ties_t is Wanted
                            and st.runs[st.n_runs - 1].length >= _READ_RUN):
                        # A long run: read in place (_fuse_run), not copied.
                        st.written = sp - values
                        st.top = (sp - values) + (values + 2 - deep)
                        in_run = True
                        break
                    # The top entries are in a run: write its last ones first.
                    st.written = sp - values
                    moved = _refill(coins, values, segments, st)
                    sp += moved
                    if segments_t is Wanted:
                        ss += moved
                    deep += moved
                    guard = values + _guard(st)
                    low = guard if guard > deep else deep
                if ties_t is NotWanted:
                    limit = moved_limit  # the strict test passed: first > v, no tie
                else:
                    limit = moved_limit if first != v else limit
                if coinsrow_unlikely(sub_checked(second, first, &t)):
                    ovf = True
                if coinsrow_unlikely(add_checked(t, v, &v)):
                    ovf = True
                sp -= 2
                if segments_t is Wanted:
                    ss -= 2
                    seg = ss[0]
                first = (sp - 1)[0]
                second = (sp - 2)[0]
                if not _fuses(second, first, v, ties_mode):
                    break
            if runs_t is Wanted and segments_t is NotWanted and ties_t is Wanted and in_run:
                in_run = False
                cp = _fuse_run(coins, cp, end, &limit, block, values, st, v, first, second,
                               &ovf)
                sp = values + st.written
                deep = values + 2 - (st.top - st.written)
                guard = values + _guard(st)
                low = guard if guard > deep else deep
                first = _top_entry(coins, values, st, 0)
                second = _top_entry(coins, values, st, 1)
                continue
            if first > v:
                unequal = False
                while cp + 2 < end:
                    a = cp[1]
                    b = cp[2]
                    if not _fuses(v, a, b, ties_mode):
                        break
                    if ties_t is NotWanted:
                        unequal = True  # the strict test passed: a > b
                    else:
                        unequal |= a != b
                    if coinsrow_unlikely(sub_checked(v, a, &t)):
                        ovf = True
                    if coinsrow_unlikely(add_checked(t, b, &v)):
                        ovf = True
                    cp += 2
                # The limit moves on after a zigzag, unless its pairs were all of equal
                # coins (moved pair by pair, its computation was the zigzag's longest
                # chain of dependent instructions: alternating rows took 1.4 to 1.7 ns a
                # coin, 1.1 to 1.2 with the limit moved once, 10^7 coins).
                if unequal:
                    limit = cp + 1 + block if end - cp - 1 > block else end
        if segments_t is Wanted:
            ss[0] = seg
            ss += 1
        sp[0] = v
        sp += 1
        second = first
        first = v
        cp += 1
    st.top = (sp - values) + (values + 2 - deep)
    st.written = sp - values
    st.overflow |= ovf
    return cp - coins


# The loop of _add_sum, in C to have GCC unroll it (8 vectors of two coins an iteration):
# profits() on the square wave, 10^7 coins, 12.0-12.4 ms against 12.75-13.2 rolled (3
# rounds, alternating builds); value() and profits() of 7 other families no slower. With
# glibc on x86-64 it is compiled twice, for AVX2 (four coins a vector) and without, and the
# loader picks the one the processor runs (target_clones): the sum reads its 16,384 coins
# from the level-2 cache at 0.10 ns a coin against 0.13 with SSE2 (a C copy), and profits()
# on the square wave, 10^7 coins, takes 1.068x the time of value() against 1.126x (medians
# of 21 paired rounds, the same build otherwise). Chunks of 4,096 coins (in the level-1
# cache: 0.08 ns a coin) gave the square wave nothing more, and rows that alternate high
# and low coins 1.18x instead of 0.83x (the sum no longer fetches the next coins early).
cdef extern from *:
    """
    #if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__GLIBC__)
    __attribute__((optimize("unroll-loops"), target_clones("avx2", "default")))
    #elif defined(__GNUC__) && !defined(__clang__)
    __attribute__((optimize("unroll-loops")))
    #endif
    static int coinsrow_wrapped_sum(const int64_t *c, int64_t n, uint64_t *wrapped,
                                    uint64_t *high) {
        uint64_t w = 0, h = 0;
        int64_t i;
        for (i = 0; i < n; i++) {
            w += (uint64_t)c[i];
            h |= (uint64_t)c[i] + ((uint64_t)1 << 46);
        }
        *wrapped = w;
        *high = h;
        return 1;
    }
    """
    bint coinsrow_wrapped_sum(const int64_t *c, int64_t n, uint64_t *wrapped,
                              uint64_t *high) noexcept nogil


cdef bint _add_sum(const int64_t *c, int64_t n, int64_t *total) noexcept nogil:
    """Add c[0] + ... + c[n - 1] to ``total`` (n <= _SUM_CHUNK): True if it overflows (or
    a partial sum does). Where every coin is in [-2^46, 2^46), no partial sum of 2^14 of
    them can overflow: the sum wraps, without a test a coin, and one OR a coin tells
    whether they all are (coinsrow_wrapped_sum, a loop the compiler vectorises). Else
    _add_sum_checked. O(n)."""
    cdef uint64_t wrapped = 0, high = 0
    # (Always true: tested, it gives reduce_part the register allocation measured above;
    # without the test the square wave, 10^6 coins, took 1.24x the time.)
    if coinsrow_wrapped_sum(c, n, &wrapped, &high) and high >> 47 == 0:
        return add_checked(total[0], <int64_t> wrapped, total)
    return _add_sum_checked(c, n, total)


cdef bint _add_sum_checked(const int64_t *c, int64_t n, int64_t *total) noexcept nogil:
    """_add_sum for any coins. Four sums of every fourth coin, each addition tested by a
    branch never taken (it returns at once): four independent chains of one instruction a
    coin."""
    cdef int64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0, i = 0
    while i + 4 <= n:
        if (add_checked(s0, c[i], &s0) or add_checked(s1, c[i + 1], &s1)
                or add_checked(s2, c[i + 2], &s2) or add_checked(s3, c[i + 3], &s3)):
            return True
        i += 4
    while i < n:
        if add_checked(s0, c[i], &s0):
            return True
        i += 1
    return (add_checked(s0, s1, &s0) | add_checked(s2, s3, &s2) | add_checked(s0, s2, &s0)
            | add_checked(total[0], s0, total))


cdef int64_t _push_value(const coin_t *coins, int64_t p, int64_t stop, coin_t *values,
                         RowStack *st, RowSums *sums, int64_t block,
                         bint ties_fuse) noexcept nogil:
    """Push coins with Fusion (value and profits): int64 rows by _push_ints, with the tie
    test if ``ties_fuse`` (_ties_fuse), float rows by _push_coins. ``sums``: NULL, or
    (profits, int64) receives the coins' sum in ``rest``, taken after each _SUM_CHUNK
    coins by _add_sum while they are in the cache (added in the Fusion loop, the sum's
    register was spilled to memory: profits took up to 1.7x the time of value on rows
    that alternate high and low coins, 0.9x now)."""
    cdef int64_t q, chunk_end
    if coin_t is int64_t:
        while True:
            chunk_end = stop if sums == NULL or stop - p <= _SUM_CHUNK else p + _SUM_CHUNK
            if ties_fuse:
                q = _push_value_ints(coins, p, chunk_end, values, st, block,
                                     <Wanted *> NULL)
            else:
                q = _push_value_ints(coins, p, chunk_end, values, st, block,
                                     <NotWanted *> NULL)
            if sums == NULL:
                return q
            sums.overflow |= _add_sum(coins + p, q - p, &sums.rest)
            if q < chunk_end or q == stop:
                return q
            p = q
    else:
        return _push_floats(coins, p, stop, values, NULL, st, block, <NotWanted *> NULL)


cdef inline int64_t _push_value_ints(const int64_t *coins, int64_t p, int64_t stop,
                                     int64_t *values, RowStack *st, int64_t block,
                                     ties_t *ties_mode) noexcept nogil:
    """_push_ints for value, in the variant for ``st``: with runs or without them."""
    if st.n_runs > 0:
        return _push_ints(coins, NULL, p, stop, values, NULL, st, block, <NotWanted *> NULL,
                          <Wanted *> NULL, ties_mode, <NotWanted *> NULL)
    return _push_ints(coins, NULL, p, stop, values, NULL, st, block, <NotWanted *> NULL,
                      <NotWanted *> NULL, ties_mode, <NotWanted *> NULL)


cdef inline int64_t _push_play(const coin_t *coins, int64_t p, int64_t stop,
                               coin_t *values, int64_t *segments, RowStack *st,
                               int64_t block) noexcept nogil:
    """Push coins with Fusion, each entry's first coin in ``segments`` (play): int64 rows
    by _push_ints (the strict test), float rows by _push_coins."""
    if coin_t is int64_t:
        if st.n_runs > 0:
            return _push_ints(coins, NULL, p, stop, values, segments, st, block,
                              <Wanted *> NULL, <Wanted *> NULL, <NotWanted *> NULL,
                              <NotWanted *> NULL)
        return _push_ints(coins, NULL, p, stop, values, segments, st, block, <Wanted *> NULL,
                          <NotWanted *> NULL, <NotWanted *> NULL, <NotWanted *> NULL)
    else:
        return _push_floats(coins, p, stop, values, segments, st, block, <Wanted *> NULL)


# Play on rows with many plateaus (staircase down) compacts each chunk of coins first
# (_row_shapes._compact_plateaus, where the measurements are), then pushes the entries left.
cdef int _reduce_compacted(const int64_t *coins, int64_t p, int64_t hi, int64_t *values,
                           int64_t *segments, RowStack *st, int *stop_flag) noexcept nogil:
    """The rest of _reduce_part for play on the int64 rows _compaction_pays picks, ``st``
    without runs: the coins coins[p:hi] compacted (_compact_plateaus) _PLATEAU_CHUNK at a
    time, each chunk's entries then pushed by the strict Fusion loop. A plateau cut by a
    chunk's end is left whole: the Fusion loop eats what is left of it. Every _ROW_STEP
    coins it looks at ``stop_flag`` as _reduce_part does: _STOPPED, NO_MEMORY or OK.
    O(hi - p)."""
    cdef int64_t *out = <int64_t *> malloc(2 * _PLATEAU_CHUNK * sizeof(int64_t))
    cdef int64_t *starts = out + _PLATEAU_CHUNK
    cdef int64_t e, m, step_end = p + _ROW_STEP
    if out == NULL:
        return NO_MEMORY
    while p < hi:
        if p >= step_end:
            if _must_stop(stop_flag):
                free(out)
                return _STOPPED
            step_end = p + _ROW_STEP
        e = p + _PLATEAU_CHUNK if hi - p > _PLATEAU_CHUNK else hi
        m = _compact_plateaus(coins, p, e, out, starts)
        _push_ints(out, starts, 0, m, values, segments, st, m, <Wanted *> NULL,
                   <NotWanted *> NULL, <NotWanted *> NULL, <Wanted *> NULL)
        p = e
    free(out)
    return OK


cdef int _push_unfused(const coin_t *coins, int64_t p, int64_t q, coin_t *values,
                       int64_t *segments, RowStack *st, int64_t alt, bint alt_known,
                       bint written) noexcept nogil:
    """Push coins[p:q], which do not fuse: a run if there are many, else written (a short
    run would only slow the Fusion loop down); always written if ``written`` (the stack of
    _reduce_compacted has no runs). ``alt``: their alternating sum, if ``alt_known`` (see
    Run). OK or NO_MEMORY."""
    if q - p >= _SHORT_RUN and not written:
        if _add_run(st, st.written, q - p, p, alt, alt_known) != OK:
            return NO_MEMORY
    else:
        memcpy(values + st.written, coins + p, (q - p) * sizeof(coin_t))
        if segments != NULL:
            _write_coin_segments(segments + st.written, p, q - p)
        st.written += q - p
    st.top += q - p
    return OK


cdef int64_t _scan_run(const coin_t *coins, int64_t p, int64_t stop, coin_t *values,
                       int64_t *segments, RowStack *st, RowSums *sums) noexcept nogil:
    """Push the coins from coins[p] on that do not fuse as a run (unwritten), up to
    ``stop``: returns the first coin that fuses (or ``stop``). ``st`` has two entries at
    least. int64: ``sums`` receives the coins' sum in ``rest`` (may be NULL).

    int64 value() and profits(): a Fusion of a tie on a falling stretch, ``x, a, a, v``
    with x > a > v, gives v and no more Fusions (x > v, and the entry under x is larger
    still): the scan takes it without stopping, as two runs around the tie's two coins (the
    tie's alternating sum is zero, so the runs' sums stay right). The Fusion loop spent a
    few hundred instructions on it (a refill of the run, then a block of coins pushed):
    value() on 10^7 sorted coins below 10^9 in descending order, a tie every 200 coins,
    took 1.9 ns a coin against 0.9 without ties; 1.5 with the ties taken here (0.95 with
    the coins read ahead too)."""
    cdef RowSums scanned
    cdef coin_t prev = _top_entry(coins, values, st, 0)
    cdef bint down = _top_entry(coins, values, st, 1) > prev
    cdef int64_t q, end, alt = 0
    cdef bint alt_known = False
    while True:
        scanned.even = 0
        scanned.odd = 0
        scanned.overflow = False
        q = _unfused_scan(coins, p, stop, prev, down, &scanned)
        if coin_t is int64_t:
            # The sums are by the parity of the coins' indices; the run's signs start at
            # p's.
            if p & 1:
                alt_known = not (scanned.overflow
                                 | sub_checked(scanned.odd, scanned.even, &alt))
            else:
                alt_known = not (scanned.overflow
                                 | sub_checked(scanned.even, scanned.odd, &alt))
            if sums != NULL:
                sums.overflow |= (scanned.overflow
                                  | add_checked(sums.rest, scanned.even, &sums.rest)
                                  | add_checked(sums.rest, scanned.odd, &sums.rest))
        end = q
        if (coin_t is int64_t and segments == NULL and q < stop and q - p >= 4
                and coins[q - 2] == coins[q - 1] and coins[q - 3] > coins[q - 2]):
            # A tie at q - 2, q - 1 fuses with coin q (coins[q - 1] > coins[q]): the
            # stack is then the coins to q - 2, and coin q on them, which the scan goes
            # on from (it stops at once if coin q fuses again).
            end = q - 2
        _push_unfused(coins, p, end, values, segments, st, alt, alt_known, False)
        if end == q:
            return q
        prev = coins[q - 3]
        down = coins[q - 4] > prev
        p = q


cdef int _reduce_part(const coin_t *coins, int64_t lo, int64_t hi, coin_t *values,
                      int64_t *segments, RowStack *st, RowSums *sums, bint want_total,
                      int *stop_flag) noexcept nogil:
    """Reduce the coins coins[lo:hi] on their own into ``st`` (written entries in
    ``values``; values[-2] and values[-1] readable). ``st.runs`` may be allocated already.

    Every _ROW_STEP coins it looks at ``stop_flag`` (another thread asks it to stop) or,
    when ``stop_flag`` is NULL, runs the signal handlers (taking the GIL for a moment):
    _STOPPED if it must stop, NO_MEMORY, or OK.
    """
    cdef int64_t p, q, step_end, block, alt = 0, short_scans = 0
    cdef bint alt_known = False, ties_fuse = True, compacted = False
    st.start = lo
    st.top = 0
    st.written = 0
    st.n_runs = 0
    st.overflow = False
    st.no_memory = False
    sums.even = 0
    sums.odd = 0
    sums.rest = 0
    sums.overflow = False
    if hi - lo < 3:
        # Fewer than three coins: nothing fuses.
        if coin_t is int64_t:
            if hi - lo >= 1:
                sums.even = coins[lo]
            if hi - lo >= 2:
                sums.odd = coins[lo + 1]
            alt_known = not sub_checked(sums.even, sums.odd, &alt)
        if _add_run(st, 0, hi - lo, lo, alt, alt_known) != OK:
            return NO_MEMORY
        st.top = hi - lo
        return OK
    if coin_t is int64_t:
        sums.even = coins[lo]
        sums.odd = coins[lo + 1]
    # The unfused prefix, a run (its sums by parity give the value where nothing fuses).
    p = lo + 2
    while True:
        step_end = p + _ROW_STEP if hi - p > _ROW_STEP else hi
        p = _unfused_scan(coins + lo, p - lo, step_end - lo, coins[p - 1],
                          coins[p - 2] > coins[p - 1], sums) + lo
        if p < step_end or p == hi:
            break
        if _must_stop(stop_flag):
            return _STOPPED
    if coin_t is int64_t:
        # The prefix's sums are by parity from lo, its first coin.
        alt_known = not (sums.overflow | sub_checked(sums.even, sums.odd, &alt))
        if segments != NULL:
            compacted = _compaction_pays(coins + lo, hi - lo)
    if p < hi:
        if _push_unfused(coins, lo, p, values, segments, st, alt, alt_known,
                         compacted) != OK:
            return NO_MEMORY
    else:
        # Nothing fuses: the stack is the coins, one run (whatever its length).
        if _add_run(st, 0, p - lo, lo, alt, alt_known) != OK:
            return NO_MEMORY
        st.top = p - lo
    if coin_t is int64_t and compacted:
        return _reduce_compacted(coins, p, hi, values, segments, st, stop_flag)
    if coin_t is int64_t and segments == NULL:
        ties_fuse = _ties_fuse(coins + lo, hi - lo)
    # Then the stack: written, or scanned as runs where nothing fuses for a while. After a
    # long run, the next one is tried for soon (on sorted coins with ties, a tie fuses,
    # then nothing does for a long time again).
    step_end = p
    block = _RUN_AFTER
    while p < hi:
        if p >= step_end:
            if step_end > lo and _must_stop(stop_flag):
                return _STOPPED
            step_end = p + _ROW_STEP if hi - p > _ROW_STEP else hi
        if segments != NULL:
            p = _push_play(coins, p, step_end, values, segments, st, block)
        else:
            p = _push_value(coins, p, step_end, values, st, sums if want_total else NULL,
                            block, ties_fuse)
        if p < step_end:
            q = _scan_run(coins, p, step_end, values, segments, st,
                          sums if want_total else NULL)
            # After scans that found only short runs, the Fusion loop goes on for longer
            # (64, 128, 256, then 512 coins without a Fusion of unequal entries): plateaus
            # of a few levels, each some 16 coins long, sent the coins back and forth
            # between the two every 64 coins (value() on 10^6 coins of the few-level
            # plateaus family against the plain C loop: 1.34x, 1.04x-1.15x with this). Not
            # further: with up to 4,096 coins (0.97x there) more coins of the square wave
            # went through the Fusion loop rather than the scan, whose sums profits() gets
            # for free, and profits() took 1.09x-1.11x the time of value() (10^7 coins).
            if q - p >= _RUN_AFTER:
                block = _RUN_PROBE
                short_scans = 0
            else:
                block = _RUN_AFTER << (short_scans if short_scans < 3 else 3)
                short_scans += 1
            p = q
        if st.no_memory:
            return NO_MEMORY
    return OK


cdef bint _must_stop(int *stop_flag) noexcept nogil:
    """True when a worker was told to stop (``stop_flag``), or, in the calling thread
    (``stop_flag`` NULL), when a signal handler raised (its exception is then set)."""
    return _stop_requested(stop_flag)


cdef void _place_runs(RowStack *st) noexcept nogil:
    """Set each run's position in the stack (``pos``)."""
    cdef int64_t k, before = 0
    for k in range(st.n_runs):
        st.runs[k].pos = st.runs[k].at + before
        before += st.runs[k].length


cdef bint _unfused(RowStack *st, int64_t n) noexcept nogil:
    """Nothing fused: the stack is its n coins, one run."""
    return (st.top == n and st.written == 0
            and (n == 0 or (st.n_runs == 1 and st.runs[0].coin == st.start)))


cdef int _stitch(const coin_t *coins, coin_t *values, int64_t *segments, RowStack *row,
                 const coin_t *part_values, const int64_t *part_segments,
                 RowStack *part, bint may_overtake) noexcept nogil:
    """Push the entries of ``part`` (the next coins, reduced on their own, written entries
    in part_values; runs placed) onto ``row``, the reduced row of the coins before them
    (values[-2] and values[-1] readable): OK, or _OVERTAKE, having changed nothing, when
    the seam fuses and ``may_overtake`` says that what the row then writes could overtake
    what is still to be read of the part (the caller then passes a copy of the part's
    written entries). Where the seam does not fuse, the part's written entries only move
    down (the row has no more written entries than the coins before the part), in order.

    Fusion is confluent (docs/rows.md), so this gives the reduced row of all the coins.
    Only the seam can fuse: as soon as neither triple across it would (the row's two top
    entries and the part's next one; the row's top and the part's next two), the rest of
    the part goes on as it is: its runs as runs, its written entries moved.
    """
    cdef int64_t i = 0, m = part.top, seg = 0, k, e, w, b, p, q
    cdef int64_t limit = 0, piece_offset = 0   # the part's piece holding entry i
    cdef int64_t written, top, guard
    cdef const coin_t *piece = NULL
    cdef coin_t x, t, first = 0, second = 0
    cdef bint ovf = part.overflow, alt_known
    cdef int64_t alt = 0
    cdef Run *r
    if row.top >= 1:
        first = _top_entry(coins, values, row, 0)
    if row.top >= 2:
        second = _top_entry(coins, values, row, 1)
    while i < m:
        # The part's entries read piece by piece (a run of coins, or written entries), not
        # looked up one by one: a seam can fuse for most of a part (a peak cut at its top).
        if i >= limit:
            piece = _piece_up(coins, part_values, part, i, &limit, &piece_offset)
        x = piece[i - piece_offset]
        if not ((row.top >= 2) & (second <= first) & (first > x)):
            if row.top == 0 or i + 1 >= m:
                break
            if i + 1 < limit:
                t = piece[i + 1 - piece_offset]
            else:
                t = _stack_entry(coins, part_values, part, i + 1)
            if not ((first <= x) & (x > t)):
                break
        if may_overtake:
            return _OVERTAKE  # before the first push: nothing has changed
        if piece == coins and i + 1 < limit:
            # A run of the part's coins: the Fusion loop of one thread pushes them, as it
            # would have without the cut (it returns after a block without a Fusion).
            p = i - piece_offset
            if segments != NULL:
                q = _push_play(coins, p, limit - piece_offset, values, segments, row,
                               _RUN_AFTER)
            else:
                q = _push_value(coins, p, limit - piece_offset, values, row, NULL, _RUN_AFTER,
                                True)
            i += q - p
            first = _top_entry(coins, values, row, 0)
            if row.top >= 2:
                second = _top_entry(coins, values, row, 1)
            continue
        if segments != NULL:
            seg = _stack_segment(part_segments, part, i)
        # The row's counts in locals while entries are written: stores to ``values`` could
        # alias the struct's fields, which the compiler would then read again each time.
        written = row.written
        top = row.top
        guard = _guard(row)
        while (top >= 2) & (second <= first) & (first > x):
            ovf |= sub_checked(second, first, &t)
            ovf |= add_checked(t, x, &x)
            if written < guard:
                row.written = written
                _refill(coins, values, segments, row)
                written = row.written
                guard = _guard(row)
            written -= 2
            top -= 2
            if segments != NULL:
                seg = segments[written]
            first = values[written - 1]
            second = values[written - 2]
        if segments != NULL:
            segments[written] = seg
        values[written] = x
        row.written = written + 1
        row.top = top + 1
        second = first
        first = x
        i += 1
    # The rest of the part, part[i:], goes on unchanged, piece by piece (the runs in order).
    e = i
    k = _run_below(part, e)
    while e < m:
        if k >= 0 and e < part.runs[k].pos + part.runs[k].length:
            r = &part.runs[k]
            b = r.pos + r.length
            # A whole run keeps its alternating sum; the rest of one is read if needed.
            alt_known = False
            if coin_t is int64_t:
                alt_known = e == r.pos and _run_alt(coins, r, &alt)
            _add_run(row, row.written, b - e, r.coin + e - r.pos, alt, alt_known)
        else:
            # Written entries up to the next run: at part_values[w:].
            w = e if k < 0 else part.runs[k].at + e - part.runs[k].pos - part.runs[k].length
            b = part.runs[k + 1].pos if k + 1 < part.n_runs else m
            k += 1
            memmove(values + row.written, part_values + w, (b - e) * sizeof(coin_t))
            if segments != NULL:
                memmove(segments + row.written, part_segments + w, (b - e) * sizeof(int64_t))
            row.written += b - e
        row.top += b - e
        e = b
    row.overflow |= ovf
    row.no_memory |= part.no_memory
    return OK


cdef bint _run_alt(const int64_t *coins, Run *r, int64_t *alt) noexcept nogil:
    """The alternating sum of the run's coins now (see Run) into ``alt``: False if it is
    not known. Reads only the coins Fusions took from its end."""
    cdef bint ovf = False
    cdef int64_t taken
    if not r.alt_known:
        return False
    taken = _alternating(coins + r.coin, r.length, r.alt_length, &ovf)
    ovf |= sub_checked(r.alt, taken, alt)
    return not ovf
