# coinsrow._core._row_greedy: the Greedy phase of one reduced row (a stack of
# _row_stack): its value, its optimal play and its profits (docs/rows.md).

from coinsrow._core._types cimport *

from coinsrow._core._fsum cimport ExactSum, exact_sum_init, exact_sum_add, exact_sum_result
from coinsrow._core._row_stack cimport *


cdef void _float_survey(const double *coins, int64_t lo, int64_t hi,
                        FloatSurvey *survey) noexcept nogil:
    """The first NaN or infinity of coins[lo:hi], the lowest power of two every coin is a
    multiple of, and the sum of their magnitudes."""
    cdef int64_t p
    cdef uint64_t bits, mantissa
    cdef int exponent, lowest = 1100, low
    cdef double magnitude = 0.0
    survey.bad = -1
    for p in range(lo, hi):
        memcpy(&bits, &coins[p], sizeof(bits))
        exponent = <int> ((bits >> 52) & 0x7FF)
        if exponent == 0x7FF:
            survey.bad = p
            return
        mantissa = bits & ((<uint64_t> 1 << 52) - 1)
        if exponent == 0:
            if mantissa == 0:
                continue  # a zero
            low = coinsrow_ctz64(mantissa) - 1074
        else:
            low = coinsrow_ctz64(mantissa | (<uint64_t> 1 << 52)) + exponent - 1075
        if low < lowest:
            lowest = low
        magnitude += fabs(coins[p])
    survey.lowest = lowest
    survey.magnitude = magnitude


cdef int64_t _stack_alternating(const int64_t *coins, const int64_t *values, RowStack *st,
                                int64_t lo, int64_t hi, bint *overflow) noexcept nogil:
    """The sum of (-1)^e entry(e) over lo <= e < hi, piece by piece, the runs in order
    (one binary search): a whole run whose alternating sum is known is not read (runs
    placed)."""
    cdef int64_t e = lo, b, total = 0, part = 0, offset, k = _run_below(st, lo)
    cdef Run *r
    cdef bint ovf = False
    while e < hi:
        if k >= 0 and e < st.runs[k].pos + st.runs[k].length:
            r = &st.runs[k]
            b = r.pos + r.length
            if e == r.pos and b <= hi and _run_alt(coins, r, &part):
                offset = e  # its sum's signs start at the run's first entry
            else:
                if b > hi:
                    b = hi
                offset = r.pos - r.coin
                part = _alternating(coins, e - offset, b - offset, &ovf)
        else:
            # The written entries after run k (before the first run when k < 0).
            offset = 0 if k < 0 else st.runs[k].pos + st.runs[k].length - st.runs[k].at
            b = st.runs[k + 1].pos if k + 1 < st.n_runs else st.top
            k += 1
            if b > hi:
                b = hi
            part = _alternating(values, e - offset, b - offset, &ovf)
        if offset & 1:
            ovf |= sub_checked(total, part, &total)
        else:
            ovf |= add_checked(total, part, &total)
        e = b
    overflow[0] |= ovf
    return total


cdef inline bint _add_signed(int64_t *total, int64_t x, bint negative) noexcept nogil:
    if negative:
        return sub_checked(total[0], x, total)
    return add_checked(total[0], x, total)


cdef enum:
    # Merges of the value's Greedy phase step this many chains at once (below _MERGE_SPLIT
    # entries, one): the steps of one chain wait on each other's loads, four do not.
    _MERGE_CHAINS = 4
    _MERGE_SPLIT = 4096


cdef inline int64_t _merge_split(const int64_t *left, int64_t n_left, const int64_t *right,
                                 int64_t n_right, int64_t rank) noexcept nogil:
    """How many of the first ``rank`` entries of the merge of the non-increasing runs
    left[0:n_left] and right[0], right[-1], ..., right[-(n_right - 1)] (left first on ties)
    come from ``left`` (merge path: a binary search)."""
    cdef int64_t lo = rank - n_right if rank > n_right else 0
    cdef int64_t hi = rank if rank < n_left else n_left, a
    while lo < hi:
        a = (lo + hi) >> 1
        if left[a] >= right[-(rank - a - 1)]:
            lo = a + 1
        else:
            hi = a
    return lo


cdef int64_t _merge_value(const int64_t *left, int64_t n_left, const int64_t *right,
                          int64_t n_right, bint *overflow) noexcept nogil:
    """The sum of the merge of two non-increasing runs (see ``_merge_split``), entries with
    alternating signs, the first added. The merge is cut into _MERGE_CHAINS chains at even
    ranks (merge path) and the chains step together without branches; once a side of a
    chain is used up, the rest of that chain is one run (an alternating sum)."""
    cdef int64_t total = n_left + n_right, steps, k, c, t = 0
    cdef int64_t a[_MERGE_CHAINS]
    cdef int64_t b[_MERGE_CHAINS]
    cdef int64_t a_end[_MERGE_CHAINS]
    cdef int64_t b_end[_MERGE_CHAINS]
    cdef int64_t rank, x, y, plus = 0, minus = 0, part, take
    cdef const int64_t *pa0
    cdef const int64_t *pa1
    cdef const int64_t *pa2
    cdef const int64_t *pa3
    cdef const int64_t *pb0
    cdef const int64_t *pb1
    cdef const int64_t *pb2
    cdef const int64_t *pb3
    cdef int chains = _MERGE_CHAINS if total >= _MERGE_SPLIT else 1
    cdef bint ovf = False
    for c in range(chains):
        rank = (total * c // chains) & ~1
        a[c] = _merge_split(left, n_left, right, n_right, rank)
        b[c] = rank - a[c]
    for c in range(chains):
        a_end[c] = a[c + 1] if c + 1 < chains else n_left
        b_end[c] = b[c + 1] if c + 1 < chains else n_right
    # All chains at once, ``steps`` at a time: none can use up a side within them. (The
    # chains are pointers in scalars, which stay in registers: one step of each, again.)
    # The eight steps below are written out on purpose: the same step as one inline helper
    # taking the chain's pointers by address ran 8.6% more instructions a coin in value() on
    # the valley family (benchmarks/callgrind_counts.py --n 200000 --families valley: 25.18
    # against 23.26).
    if chains == _MERGE_CHAINS:
        pa0, pa1, pa2, pa3 = left + a[0], left + a[1], left + a[2], left + a[3]
        pb0, pb1, pb2, pb3 = right - b[0], right - b[1], right - b[2], right - b[3]
        while True:
            steps = min(a_end[0] - (pa0 - left), b_end[0] - (right - pb0),
                        a_end[1] - (pa1 - left), b_end[1] - (right - pb1),
                        a_end[2] - (pa2 - left), b_end[2] - (right - pb2),
                        a_end[3] - (pa3 - left), b_end[3] - (right - pb3))
            if steps == 0:
                break
            for k in range(steps):
                # All chains are at rank parity t + k: added at even ranks, else subtracted.
                if ((t + k) & 1) == 0:
                    x = pa0[0]
                    y = pb0[0]
                    take = x >= y
                    x = x if take else y
                    pa0 += take
                    pb0 += take - 1
                    if coinsrow_unlikely(add_checked(plus, x, &plus)):
                        ovf = True
                    x = pa1[0]
                    y = pb1[0]
                    take = x >= y
                    x = x if take else y
                    pa1 += take
                    pb1 += take - 1
                    if coinsrow_unlikely(add_checked(plus, x, &plus)):
                        ovf = True
                    x = pa2[0]
                    y = pb2[0]
                    take = x >= y
                    x = x if take else y
                    pa2 += take
                    pb2 += take - 1
                    if coinsrow_unlikely(add_checked(plus, x, &plus)):
                        ovf = True
                    x = pa3[0]
                    y = pb3[0]
                    take = x >= y
                    x = x if take else y
                    pa3 += take
                    pb3 += take - 1
                    if coinsrow_unlikely(add_checked(plus, x, &plus)):
                        ovf = True
                else:
                    x = pa0[0]
                    y = pb0[0]
                    take = x >= y
                    x = x if take else y
                    pa0 += take
                    pb0 += take - 1
                    if coinsrow_unlikely(add_checked(minus, x, &minus)):
                        ovf = True
                    x = pa1[0]
                    y = pb1[0]
                    take = x >= y
                    x = x if take else y
                    pa1 += take
                    pb1 += take - 1
                    if coinsrow_unlikely(add_checked(minus, x, &minus)):
                        ovf = True
                    x = pa2[0]
                    y = pb2[0]
                    take = x >= y
                    x = x if take else y
                    pa2 += take
                    pb2 += take - 1
                    if coinsrow_unlikely(add_checked(minus, x, &minus)):
                        ovf = True
                    x = pa3[0]
                    y = pb3[0]
                    take = x >= y
                    x = x if take else y
                    pa3 += take
                    pb3 += take - 1
                    if coinsrow_unlikely(add_checked(minus, x, &minus)):
                        ovf = True
            t += steps
        a[0], a[1], a[2], a[3] = pa0 - left, pa1 - left, pa2 - left, pa3 - left
        b[0], b[1], b[2], b[3] = right - pb0, right - pb1, right - pb2, right - pb3
    # Each chain's end on its own; its entries are at ranks of the parity of t and up.
    for c in range(chains):
        k = t
        while a[c] < a_end[c] and b[c] < b_end[c]:
            x = left[a[c]]
            y = right[-b[c]]
            take = x >= y
            x = x if take else y
            a[c] += take
            b[c] += 1 - take
            if k & 1:
                ovf |= add_checked(minus, x, &minus)
            else:
                ovf |= add_checked(plus, x, &plus)
            k += 1
        if a[c] < a_end[c]:
            part = _alternating(left, a[c], a_end[c], &ovf)
            ovf |= _add_signed(&plus, part, ((k + a[c]) & 1) != 0)
        elif b[c] < b_end[c]:
            # right[-i] for i in [b, b_end): the alternating sum over i, sign by rank.
            part = _alternating(right - (b_end[c] - 1), 0, b_end[c] - b[c], &ovf)
            ovf |= _add_signed(&plus, part, ((k + b_end[c] - 1 - b[c]) & 1) != 0)
    ovf |= sub_checked(plus, minus, &part)
    overflow[0] |= ovf
    return part


cdef inline int64_t _count_before(const int64_t *run, int64_t n, int64_t step, int64_t x,
                                  bint ties) noexcept nogil:
    """How many of run[0], run[step], ..., run[(n - 1) * step] (non-increasing) are above
    x (or equal to it, with ``ties``): a binary search."""
    cdef int64_t lo = 0, hi = n, mid
    while lo < hi:
        mid = (lo + hi) >> 1
        if run[mid * step] > x or (ties and run[mid * step] == x):
            lo = mid + 1
        else:
            hi = mid
    return lo


cdef void _merge_pieces(const int64_t *left, int64_t n_left, const int64_t *right,
                        int64_t n_right, int parity, int64_t *a, int64_t *b, int64_t *plus,
                        int64_t *minus, bint *overflow) noexcept nogil:
    """One step of the merge of L and R in pieces: the merge of the pieces left[0:n_left]
    and right[0], right[-1], ..., right[-(n_right - 1)] (both non-empty, non-increasing)
    up to where the first of them is used up, its entries of alternating signs (the first
    at rank ``parity``) added to ``plus`` or ``minus``; ``a`` grows and ``b`` falls by the
    entries taken from each.

    Left comes first on ties, so the left piece is used up once the entries of the right
    one above its last entry are taken, and the right one once the entries of the left one
    not below its last entry are: the earlier of the two is a point of the merge path of
    the whole of L and R, and the merge of the two prefixes is that of L and R up to it.
    """
    cdef int64_t from_right = _count_before(right, n_right, -1, left[n_left - 1], False)
    cdef int64_t from_left = _count_before(left, n_left, 1, right[-(n_right - 1)], True)
    cdef int64_t part
    if from_right < n_right and (from_left == n_left
                                 or n_left + from_right <= n_right + from_left):
        from_left = n_left
    else:
        from_right = n_right
    part = _merge_value(left, from_left, right, from_right, overflow)
    if parity:
        overflow[0] |= add_checked(minus[0], part, minus)
    else:
        overflow[0] |= add_checked(plus[0], part, plus)
    a[0] += from_left
    b[0] -= from_right


cdef int64_t _row_value_int(const int64_t *coins, const int64_t *values, RowStack *st,
                            bint whole_known, int64_t whole, bint *overflow) noexcept nogil:
    """The value of the reduced int64 row ``st``: the sum of its entries in Greedy order
    with alternating signs. ``whole_known``: ``whole`` is the alternating sum of all its
    entries (from the coins' scan, when nothing fused).

    Only the merge of L and R steps entry by entry (without branches: the larger of two
    sorted runs is a coin toss on a valley of random coins); once one of them is used up,
    the rest is consecutive entries (one alternating sum) and E counts once or not at all.
    """
    cdef int64_t m = st.top, j, q, a, b, x, y, value = 0, plus = 0, minus = 0, part
    cdef int64_t a_limit = 0, a_offset = 0, b_floor = 0, b_offset = 0
    cdef const int64_t *ap = NULL
    cdef const int64_t *bp = NULL
    cdef const int64_t *merged
    cdef int r = 0
    cdef bint ovf = False, left
    if m == 0:
        return 0
    j = _valley_bottom(coins, values, st, m)
    q = _bottom_end(coins, values, st, j, m)
    a = 0
    b = m - 1
    if j > 0 and b > q:
        ap = _piece_up(coins, values, st, a, &a_limit, &a_offset)
        bp = _piece_down(coins, values, st, b, &b_floor, &b_offset)
        merged = NULL
        if a_limit >= j and b_floor <= q + 1:
            # L and R each lie in one piece: the chained merge, then E.
            value = _merge_value(ap - a_offset, j, bp + (b - b_offset), b - q, &ovf)
            merged = ap
        elif j + b - q >= _MERGE_SPLIT:
            # In pieces, and long: the chained merge of one piece of L with one of R at a
            # time, up to where the first of them is used up (a point of the merge path).
            while a < j and b > q:
                ap = _piece_up(coins, values, st, a, &a_limit, &a_offset)
                bp = _piece_down(coins, values, st, b, &b_floor, &b_offset)
                _merge_pieces(ap + (a - a_offset), (j if a_limit > j else a_limit) - a,
                              bp + (b - b_offset), b - (q + 1 if b_floor <= q else b_floor) + 1,
                              (a + m - 1 - b) & 1, &a, &b, &plus, &minus, &ovf)
            r = (a + m - 1 - b) & 1
        if merged != NULL:
            if (q - j + 1) & 1:
                ovf |= _add_signed(&value, _stack_entry(coins, values, st, j),
                                   ((j + b - q) & 1) != 0)
            overflow[0] |= ovf
            return value
    # Two entries a turn: the first added, the second subtracted.
    while a < j and b > q:
        if a >= a_limit:
            ap = _piece_up(coins, values, st, a, &a_limit, &a_offset)
        if b < b_floor:
            bp = _piece_down(coins, values, st, b, &b_floor, &b_offset)
        x = ap[a - a_offset]
        y = bp[b - b_offset]
        left = x >= y
        x = x if left else y
        a += left
        b -= 1 - left
        ovf |= add_checked(plus, x, &plus)
        if not (a < j and b > q):
            r = 1
            break
        if a >= a_limit:
            ap = _piece_up(coins, values, st, a, &a_limit, &a_offset)
        if b < b_floor:
            bp = _piece_down(coins, values, st, b, &b_floor, &b_offset)
        x = ap[a - a_offset]
        y = bp[b - b_offset]
        left = x >= y
        x = x if left else y
        a += left
        b -= 1 - left
        ovf |= add_checked(minus, x, &minus)
    ovf |= sub_checked(plus, minus, &value)
    if a < j:
        # The rest of L, from the left: entry i has rank r + i - a.
        if whole_known and a + (m - j) < j - a:
            # Less to read outside: everything, minus [0, a) and [j, m).
            part = _stack_alternating(coins, values, st, 0, a, &ovf)
            ovf |= add_checked(part, _stack_alternating(coins, values, st, j, m, &ovf), &part)
            ovf |= sub_checked(whole, part, &part)
        else:
            part = _stack_alternating(coins, values, st, a, j, &ovf)
        ovf |= _add_signed(&value, part, ((r + a) & 1) != 0)
        r ^= (j - a) & 1
    elif b > q:
        # The rest of R, from the right: entry i has rank r + b - i.
        if whole_known and (q + 1) + (m - b - 1) < b - q:
            part = _stack_alternating(coins, values, st, 0, q + 1, &ovf)
            ovf |= add_checked(part, _stack_alternating(coins, values, st, b + 1, m, &ovf),
                               &part)
            ovf |= sub_checked(whole, part, &part)
        else:
            part = _stack_alternating(coins, values, st, q + 1, b + 1, &ovf)
        ovf |= _add_signed(&value, part, ((r + b) & 1) != 0)
        r ^= (b - q) & 1
    if (q - j + 1) & 1:
        # E: equal entries of alternating signs, one is left over.
        ovf |= _add_signed(&value, _stack_entry(coins, values, st, j), r != 0)
    overflow[0] |= ovf
    return value


cdef struct Piece:
    # A piece of a reduced row: its entries [lo, hi) are a run of coins (``run``: entry e
    # is the coin e - offset) or written (entry e at values[e - offset]).
    int64_t lo, hi, offset
    bint run


cdef inline void _piece(RowStack *st, int64_t e, Piece *piece) noexcept nogil:
    """The piece holding entry e (runs placed)."""
    cdef int64_t k = _run_below(st, e)
    cdef Run *r
    if k >= 0:
        r = &st.runs[k]
        if e < r.pos + r.length:
            piece.lo = r.pos
            piece.hi = r.pos + r.length
            piece.offset = r.pos - r.coin
            piece.run = True
            return
        piece.lo = r.pos + r.length
        piece.offset = r.pos + r.length - r.at
    else:
        piece.lo = 0
        piece.offset = 0
    piece.hi = st.runs[k + 1].pos if k + 1 < st.n_runs else st.top
    piece.run = False


cdef inline coin_t _piece_entry(const coin_t *coins, const coin_t *values, RowStack *st,
                                Piece *piece, int64_t e) noexcept nogil:
    """Entry e, ``piece`` moved to it first if it is elsewhere."""
    if e < piece.lo or e >= piece.hi:
        _piece(st, e, piece)
    if piece.run:
        return coins[e - piece.offset]
    return values[e - piece.offset]


cdef struct PieceOrder:
    # Walks the Greedy order of a reduced row: ``_piece_order_next`` gives its entries one
    # by one (phase 0: merging L and R; 1: the rest of L; 2: the rest of R; 3: E; 4: done).
    int64_t a, b, j, q, i, m
    int phase
    Piece left, right, bottom


cdef inline void _piece_order_start(PieceOrder *o, const coin_t *coins, const coin_t *values,
                                    RowStack *st) noexcept nogil:
    o.m = st.top
    o.phase = 4 if o.m == 0 else 0
    if o.m == 0:
        return
    o.j = _valley_bottom(coins, values, st, o.m)
    o.q = _bottom_end(coins, values, st, o.j, o.m)
    o.a = 0
    o.b = o.m - 1
    o.i = o.j
    o.left.lo = o.left.hi = 0
    o.right.lo = o.right.hi = 0
    o.bottom.lo = o.bottom.hi = 0


cdef inline int64_t _piece_order_next(PieceOrder *o, const coin_t *coins,
                                      const coin_t *values, RowStack *st,
                                      bint *from_left) noexcept nogil:
    """The next entry in Greedy order (-1 when none is left); ``from_left``: taken from the
    left end (else the right)."""
    if o.phase == 0:
        if o.a < o.j and o.b > o.q:
            if (_piece_entry(coins, values, st, &o.left, o.a)
                    >= _piece_entry(coins, values, st, &o.right, o.b)):
                from_left[0] = True
                o.a += 1
                return o.a - 1
            from_left[0] = False
            o.b -= 1
            return o.b + 1
        o.phase = 1 if o.a < o.j else 2
    if o.phase == 1:
        if o.a < o.j:
            from_left[0] = True
            o.a += 1
            return o.a - 1
        o.phase = 3
    if o.phase == 2:
        if o.b > o.q:
            from_left[0] = False
            o.b -= 1
            return o.b + 1
        o.phase = 3
    if o.phase == 3:
        if o.i <= o.q:
            from_left[0] = True
            o.i += 1
            return o.i - 1
        o.phase = 4
    return -1


cdef inline void _piece_run_of(RowStack *st, const int64_t *segments, Piece *piece,
                               int64_t k, int64_t stop, int64_t *lo,
                               int64_t *hi) noexcept nogil:
    """The coins [lo, hi) entry k stands for (``piece``: a piece cache)."""
    cdef Piece next_piece
    if k < piece.lo or k >= piece.hi:
        _piece(st, k, piece)
    if piece.run:
        lo[0] = k - piece.offset
        hi[0] = lo[0] + 1
        return
    lo[0] = segments[k - piece.offset]
    if k + 1 < piece.hi:
        hi[0] = segments[k + 1 - piece.offset]
    elif k + 1 >= st.top:
        hi[0] = stop
    else:
        _piece(st, k + 1, &next_piece)
        hi[0] = (k + 1 - next_piece.offset if next_piece.run
                 else segments[k + 1 - next_piece.offset])


cdef double _row_value_float(const double *coins, const double *values,
                             RowStack *st) noexcept nogil:
    """The value of the reduced float64 row ``st`` (runs placed): each player's entries
    summed in Greedy order, then the difference (as ``_one_row_greedy`` rounds it)."""
    cdef PieceOrder order
    cdef Piece cache
    cdef int64_t k
    cdef double taken[2]
    cdef int r = 0
    cdef bint from_left = True
    cache.lo = cache.hi = 0
    taken[0] = 0.0
    taken[1] = 0.0
    _piece_order_start(&order, coins, values, st)
    while True:
        k = _piece_order_next(&order, coins, values, st, &from_left)
        if k < 0:
            break
        taken[r] = taken[r] + _piece_entry(coins, values, st, &cache, k)
        r ^= 1
    return taken[0] - taken[1]


cdef inline int64_t _coin_of(RowStack *st, const int64_t *segments, int64_t k,
                            int64_t stop) noexcept nogil:
    """The first coin of entry k (``stop`` for k == st.top; runs placed)."""
    if k >= st.top:
        return stop
    return _stack_segment(segments, st, k)


cdef inline int64_t _write_up(int64_t *out_coin, uint8_t *out_end, int64_t turn, int64_t lo,
                              int64_t hi) noexcept nogil:
    """Turns from ``turn`` on take the coins lo, lo + 1, ..., hi - 1 from the left."""
    cdef int64_t p
    for p in range(lo, hi):
        out_coin[turn + p - lo] = p
    if out_end != NULL:
        memset(out_end + turn, LEFT, hi - lo)
    return turn + hi - lo


cdef inline int64_t _write_down(int64_t *out_coin, uint8_t *out_end, int64_t turn,
                                int64_t lo, int64_t hi) noexcept nogil:
    """Turns from ``turn`` on take the coins hi - 1, hi - 2, ..., lo from the right."""
    cdef int64_t p
    for p in range(hi - lo):
        out_coin[turn + p] = hi - 1 - p
    if out_end != NULL:
        memset(out_end + turn, RIGHT, hi - lo)
    return turn + hi - lo


cdef int64_t _row_play_pieces(const coin_t *coins, const coin_t *values,
                              const int64_t *segments, RowStack *st, int64_t stop,
                              int64_t *out_coin, uint8_t *out_end) noexcept nogil:
    """Write the optimal play of the reduced row ``st`` (runs placed) of the coins
    [st.start, stop): each entry, in Greedy order, expands into its run of coins, taken one
    by one from the end where it is exposed. ``out_end`` may be NULL. Returns the moves.

    Entry by entry only while L and R merge: after that, consecutive entries cover
    consecutive coins, so the rest of L, the rest of R (from the right) and E are at most
    three ranges of coins.
    """
    cdef PieceOrder order
    cdef Piece runs
    cdef int64_t k, lo, hi, turn = 0
    cdef bint from_left = True
    runs.lo = runs.hi = 0
    _piece_order_start(&order, coins, values, st)
    if order.phase == 4:
        return 0
    while order.a < order.j and order.b > order.q:
        k = _piece_order_next(&order, coins, values, st, &from_left)
        _piece_run_of(st, segments, &runs, k, stop, &lo, &hi)
        if from_left:
            turn = _write_up(out_coin, out_end, turn, lo, hi)
        else:
            turn = _write_down(out_coin, out_end, turn, lo, hi)
    if order.a < order.j:
        turn = _write_up(out_coin, out_end, turn, _coin_of(st, segments, order.a, stop),
                         _coin_of(st, segments, order.j, stop))
    elif order.b > order.q:
        turn = _write_down(out_coin, out_end, turn, _coin_of(st, segments, order.q + 1, stop),
                           _coin_of(st, segments, order.b + 1, stop))
    return _write_up(out_coin, out_end, turn, _coin_of(st, segments, order.j, stop),
                     _coin_of(st, segments, order.q + 1, stop))


cdef int _row_float_profits_pieces(const double *coins, const double *values,
                                   const int64_t *segments, RowStack *st, int64_t stop,
                                   double *first, double *second) noexcept nogil:
    """Each player's coins in the optimal play of the reduced float64 row ``st`` (runs
    placed), summed exactly and rounded once. Entry k at Greedy rank r is taken by player
    r % 2, its run coin by coin from the exposed end: since the run has odd length, its coin
    at an even offset goes to the same player whichever end that is, the others to the
    other player. After the merge of L and R, the play is ranges of coins taken one a turn
    (see ``_row_play_pieces``). OK or OVERFLOW (a sum beyond the float range)."""
    cdef ExactSum sums[2]
    cdef PieceOrder order
    cdef Piece runs
    cdef int64_t k, lo, hi, p, turn = 0
    cdef int status = OK
    cdef bint from_left = True
    runs.lo = runs.hi = 0
    exact_sum_init(&sums[0])
    exact_sum_init(&sums[1])
    _piece_order_start(&order, coins, values, st)
    if order.phase != 4:
        while order.a < order.j and order.b > order.q:
            k = _piece_order_next(&order, coins, values, st, &from_left)
            _piece_run_of(st, segments, &runs, k, stop, &lo, &hi)
            for p in range(lo, hi):
                exact_sum_add(&sums[(turn + p - lo) & 1], coins[p])
            turn += hi - lo
        # The ranges: coin p of a range [lo, hi) taken from the left goes at turn
        # turn + p - lo, from the right at turn + hi - 1 - p.
        if order.a < order.j:
            lo = _coin_of(st, segments, order.a, stop)
            hi = _coin_of(st, segments, order.j, stop)
            for p in range(lo, hi):
                exact_sum_add(&sums[(turn + p - lo) & 1], coins[p])
            turn += hi - lo
        elif order.b > order.q:
            lo = _coin_of(st, segments, order.q + 1, stop)
            hi = _coin_of(st, segments, order.b + 1, stop)
            for p in range(lo, hi):
                exact_sum_add(&sums[(turn + hi - 1 - p) & 1], coins[p])
            turn += hi - lo
        lo = _coin_of(st, segments, order.j, stop)
        hi = _coin_of(st, segments, order.q + 1, stop)
        for p in range(lo, hi):
            exact_sum_add(&sums[(turn + p - lo) & 1], coins[p])
    first[0] = exact_sum_result(&sums[0])
    second[0] = exact_sum_result(&sums[1])
    if not (isfinite(first[0]) and isfinite(second[0])):
        status = OVERFLOW
    return status


# -- the reduction of one row, on one thread or several ---------------------------------------
