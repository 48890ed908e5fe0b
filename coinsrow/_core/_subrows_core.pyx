# coinsrow._core._subrows_core: the core of the sub-rows' structure (docs/subrows.md), for
# SubRows (_subrows) and its exact twin: the build (both static forests laid out in heavy
# paths, the keys and their alternating sums, the pairs of paths that get a table and the
# tables' checkpoints) and a query (the two sides of a window as slot ranges of heavy paths,
# merged chunk by chunk: run by run, or from a pair's table). The method is described at the
# top of _subrows.pyx.

from coinsrow._core._types cimport *
from coinsrow._core._signals cimport _forest_signals, _forest_signals_now
from coinsrow._core._window_forests cimport _w_alloc_each, _w_free_each
from coinsrow._core._subrows cimport (_SR_ACC, _SR_CHECKPOINT_BUDGET, _SR_F, _SR_MAX_SEGMENTS,
                                      _SR_MIN_SHIFT, _SR_OP_ADD_ACC, _SR_OP_BRIDGE, _SR_OP_RUN,
                                      _SR_OP_STORE, _SR_OP_TABLES, _SR_OP_ZERO, _SR_TOTAL,
                                      _SR_WORK_PER_SIGNAL_CHECK, _SRCore, _SRExec, _SRSide)


# ---------------------------------------------------------------------------------------
# Searches along slots. Keys are non-increasing along a path; ns increases, ps decreases.

# The tests of _sr_gallop, chosen at compile time (one specialisation each, no flag in the
# loop). Callers call _sr_gallop itself: behind one-line wrappers gcc inlined it otherwise
# and the table builds took 1.7% more instructions (callgrind, a triangle wave of 10^5).
cdef struct _Below:     # K[s] < y
    char unused

cdef struct _AtMost:    # K[s] <= y
    char unused

cdef struct _Above:     # K[s] > y
    char unused

ctypedef fused gallop_test_t:
    _Below
    _AtMost
    _Above


cdef inline bint _sr_holds(coin_t k, coin_t y, gallop_test_t *test) noexcept nogil:
    if gallop_test_t is _Below:
        return k < y
    elif gallop_test_t is _AtMost:
        return k <= y
    else:
        return k > y


cdef inline int64_t _sr_gallop(coin_t *K, int64_t a, int64_t b, coin_t y,
                               gallop_test_t *test) noexcept nogil:
    """First slot s in [a, b) where ``test`` holds of K[s] and y, b if none; it must hold
    from some slot on. Galloping from a: O(log(s - a + 1))."""
    cdef int64_t lo = a, hi, step = 1, mid
    if a >= b or _sr_holds(K[a], y, test):
        return a
    while True:
        hi = lo + step
        if hi >= b:
            hi = b
            break
        if _sr_holds(K[hi], y, test):
            break
        lo = hi
        step <<= 1
    while hi - lo > 1:
        mid = (lo + hi) >> 1
        if _sr_holds(K[mid], y, test):
            hi = mid
        else:
            lo = mid
    return hi


# ---------------------------------------------------------------------------------------
# Numeric operations: performed on machine numbers, or recorded for the exact twin.

cdef inline void _sr_push(_SRExec *e, int64_t code, int64_t x, int64_t y, int64_t z) noexcept nogil:
    cdef int64_t cap
    cdef int64_t *grown
    if e.nops + 4 > e.cap:
        cap = 2 * e.cap if e.cap else 1024
        grown = <int64_t *> realloc(e.ops, cap * sizeof(int64_t))
        if grown == NULL:
            e.nomem = True
            return
        e.ops = grown
        e.cap = cap
    e.ops[e.nops] = code
    e.ops[e.nops + 1] = x
    e.ops[e.nops + 2] = y
    e.ops[e.nops + 3] = z
    e.nops += 4


cdef inline void _sr_add_to(_SRExec *e, int reg, coin_t r, bint minus) noexcept nogil:
    """reg +-= r (int64: checked, an overflow noted in e)."""
    if coin_t is int64_t:
        if minus:
            e.overflow |= sub_checked(e.ri[reg], r, &e.ri[reg])
        else:
            e.overflow |= add_checked(e.ri[reg], r, &e.ri[reg])
    else:
        if minus:
            e.rf[reg] = e.rf[reg] - r
        else:
            e.rf[reg] = e.rf[reg] + r


cdef inline void _sr_run(_SRExec *e, int reg, int f, coin_t *alt, int64_t a, int64_t b,
                         bint minus) noexcept nogil:
    """reg +-= alt[b] - alt[a]."""
    cdef coin_t r
    if e.record:
        _sr_push(e, _SR_OP_RUN, reg * 4 + f * 2 + minus, a, b)
        return
    if coin_t is int64_t:
        e.overflow |= sub_checked(alt[b], alt[a], &r)
    else:
        r = alt[b] - alt[a]
    _sr_add_to(e, reg, r, minus)


cdef inline void _sr_tables(_SRExec *e, coin_t *T, int64_t c1, int64_t c0) noexcept nogil:
    """acc = T[c1] - T[c0] (a negative index stands for the zero at merged position 0)."""
    if e.record:
        _sr_push(e, _SR_OP_TABLES, c1, c0, 0)
        return
    if coin_t is int64_t:
        e.ri[_SR_ACC] = T[c1] if c1 >= 0 else 0
    else:
        e.rf[_SR_ACC] = T[c1] if c1 >= 0 else 0
    if c0 >= 0:
        _sr_add_to(e, _SR_ACC, T[c0], True)


cdef inline void _sr_add_acc(_SRExec *e, coin_t *T, bint minus) noexcept nogil:
    """total +-= acc (T only selects the number type)."""
    if e.record:
        _sr_push(e, _SR_OP_ADD_ACC, minus, 0, 0)
        return
    if coin_t is int64_t:
        _sr_add_to(e, _SR_TOTAL, e.ri[_SR_ACC], minus)
    else:
        _sr_add_to(e, _SR_TOTAL, e.rf[_SR_ACC], minus)


cdef inline void _sr_bridge(_SRExec *e, coin_t *h, int64_t u, int64_t v, bint minus) noexcept nogil:
    """total +-= h[u] + h[v]."""
    cdef coin_t b
    if e.record:
        _sr_push(e, _SR_OP_BRIDGE, u, v, minus)
        return
    if coin_t is int64_t:
        e.overflow |= add_checked(h[u], h[v], &b)
    else:
        b = h[u] + h[v]
    _sr_add_to(e, _SR_TOTAL, b, minus)


cdef inline void _sr_zero_f(_SRExec *e, coin_t *T) noexcept nogil:
    if e.record:
        _sr_push(e, _SR_OP_ZERO, 0, 0, 0)
        return
    if coin_t is int64_t:
        e.ri[_SR_F] = 0
    else:
        e.rf[_SR_F] = 0


cdef inline void _sr_store(_SRExec *e, coin_t *T, int64_t c) noexcept nogil:
    if e.record:
        _sr_push(e, _SR_OP_STORE, c, 0, 0)
        return
    if coin_t is int64_t:
        T[c] = e.ri[_SR_F]
    else:
        T[c] = e.rf[_SR_F]


# ---------------------------------------------------------------------------------------
# The checkpoints of a pair.

cdef inline int64_t _sr_checkpoints(_SRCore *c, int64_t pr) noexcept nogil:
    """Checkpoints of a pair: at s0, s0 + spacing, ... (below s1), and at s1."""
    return ((c.pair_s1[pr] - c.pair_s0[pr] - 1) >> c.shift) + 2


# ---------------------------------------------------------------------------------------
# Searches along slots: the heavy paths of one side of a window.

cdef inline bint _sr_stops(int64_t ext, int64_t bound, int f) noexcept nogil:
    """The path of a side ends here: ns > R (forest 0) or ps < L (forest 1)."""
    return ext > bound if f == 0 else ext < bound


cdef int64_t _sr_segments(_SRSide *s, int f, int64_t x, int64_t bound, int64_t *seg_path,
                          int64_t *seg_from, int64_t *seg_to, int64_t *end_node) noexcept nogil:
    """The entries of one side of a window, as slot ranges [seg_from, seg_to) of heavy paths,
    from x up to the first node whose ext passes ``bound`` (written to end_node)."""
    cdef int64_t k = 0, a = s.slot[x], p, t, hi
    while True:
        p = s.path[a]
        t = s.top[p]
        if _sr_stops(s.ext[t], bound, f):
            # The first slot that stops (t does).
            if f == 0:
                hi = _sr_gallop(s.ext, a, t, bound, <_Above *> NULL)
            else:
                hi = _sr_gallop(s.ext, a, t, bound, <_Below *> NULL)
            seg_path[k] = p
            seg_from[k] = a
            seg_to[k] = hi
            end_node[0] = s.node[hi]
            return k + 1
        seg_path[k] = p
        seg_from[k] = a
        seg_to[k] = t + 1
        k += 1
        a = s.up[p]


# ---------------------------------------------------------------------------------------
# Merging.

cdef inline void _sr_side_run(_SRCore *c, int f, coin_t *alt, int64_t a, int64_t b,
                              int64_t *parity, _SRExec *e) noexcept nogil:
    """Add the entries of slots [a, b) of one path to the total, alternating from the current
    parity (the number of entries added so far)."""
    cdef int64_t start
    if a == b:
        return
    start = c.side[f].start[c.side[f].path[a]]
    _sr_run(e, _SR_TOTAL, f, alt, a, b, ((parity[0] ^ (a - start)) & 1) != 0)
    parity[0] += b - a


cdef void _sr_forward(_SRCore *c, coin_t *K1, coin_t *K2, coin_t *alt1, coin_t *alt2,
                      int64_t X, int64_t Y, int64_t *pos, int64_t *ix, int64_t d, int reg,
                      bint negate, _SRExec *e) noexcept nogil:
    """Merge d more entries of the whole paths X and Y from merged position pos (ix of them
    from X) into register reg: reg +-= sum of (-1)^q w_q over the merged positions q."""
    cdef int64_t sx = c.side[0].start[X], lx = c.side[0].weighted[X]
    cdef int64_t sy = c.side[1].start[Y], ly = c.side[1].weighted[Y]
    cdef int64_t iy = pos[0] - ix[0], end, j, length
    while d > 0:
        if ix[0] < lx and (iy >= ly or K1[sx + ix[0]] >= K2[sy + iy]):
            end = sx + (lx if lx - ix[0] < d else ix[0] + d)
            j = end if iy >= ly else _sr_gallop(K1, sx + ix[0], end, K2[sy + iy],
                                                <_Below *> NULL)
            _sr_run(e, reg, 0, alt1, sx + ix[0], j,
                    (((pos[0] ^ ix[0]) & 1) != 0) != negate)
            length = j - sx - ix[0]
            ix[0] += length
        else:
            end = sy + (ly if ly - iy < d else iy + d)
            j = end if ix[0] >= lx else _sr_gallop(K2, sy + iy, end, K1[sx + ix[0]],
                                                   <_AtMost *> NULL)
            _sr_run(e, reg, 1, alt2, sy + iy, j, (((pos[0] ^ iy) & 1) != 0) != negate)
            length = j - sy - iy
            iy += length
        pos[0] += length
        d -= length


cdef inline int64_t _sr_find_pair(_SRCore *c, int64_t X, int64_t Y) noexcept nogil:
    """The table of the pair (X, Y), or -1."""
    cdef int64_t lo, hi, mid
    if c.npairs == 0:
        return -1
    lo = c.pair_first[X]
    hi = c.pair_first[X + 1]
    while lo < hi:
        mid = (lo + hi) >> 1
        if c.pair_y[mid] < Y:
            lo = mid + 1
        else:
            hi = mid
    if lo < c.pair_first[X + 1] and c.pair_y[lo] == Y:
        return lo
    return -1


cdef inline int64_t _sr_checkpoint(_SRCore *c, int64_t pr, int64_t P, int64_t *pos,
                                   int64_t *ix) noexcept nogil:
    """The last checkpoint at or before merged position P (-1: position 0)."""
    cdef int64_t s0 = c.pair_s0[pr], s1 = c.pair_s1[pr], k
    if P < s0:
        pos[0] = 0
        ix[0] = 0
        return -1
    if P >= s1:
        k = _sr_checkpoints(c, pr) - 1
        pos[0] = s1
    else:
        k = (P - s0) >> c.shift
        pos[0] = s0 + (k << c.shift)
    k += c.pair_cp[pr]
    ix[0] = c.cp_x[k]
    return k


cdef void _sr_chunk(_SRCore *c, coin_t *K1, coin_t *K2, coin_t *alt1, coin_t *alt2,
                    coin_t *T, int64_t X, int64_t a0, int64_t a1, int64_t Y, int64_t b0,
                    int64_t b1, int64_t *parity, _SRExec *e) noexcept nogil:
    """Merge left entries in slots [a0, a1) of path X with right entries in slots [b0, b1)
    of path Y: all of them lie between the entries merged before and after."""
    cdef int64_t sx = 0, sy = 0, j, pr, P0, P1, c1, c0, pos1, ix1, pos0, ix0
    if a0 < a1 and b0 < b1:
        sx = c.side[0].start[X]
        sy = c.side[1].start[Y]
        # Entries of X below a0 (not in this window) may come after some of the chunk's
        # entries of Y, or the other way round: those lead the chunk as one run. After it,
        # every entry of X and Y before the chunk in their paths comes before it in the
        # merge of the whole paths, so the chunk is merged positions [P0, P1) there.
        if a0 > sx and K1[a0 - 1] < K2[b0]:
            j = _sr_gallop(K2, b0, b1, K1[a0 - 1], <_AtMost *> NULL)
            _sr_side_run(c, 1, alt2, b0, j, parity, e)
            b0 = j
        elif b0 > sy and K2[b0 - 1] <= K1[a0]:
            j = _sr_gallop(K1, a0, a1, K2[b0 - 1], <_Below *> NULL)
            _sr_side_run(c, 0, alt1, a0, j, parity, e)
            a0 = j
    if a0 < a1 and b0 < b1:
        P0 = (a0 - sx) + (b0 - sy)
        P1 = (a1 - sx) + (b1 - sy)
        pr = _sr_find_pair(c, X, Y) if P1 - P0 > (2 << c.shift) else -1
        if pr >= 0:
            c1 = _sr_checkpoint(c, pr, P1, &pos1, &ix1)
            c0 = _sr_checkpoint(c, pr, P0, &pos0, &ix0)
            _sr_tables(e, T, c1, c0)
            _sr_forward(c, K1, K2, alt1, alt2, X, Y, &pos1, &ix1, P1 - pos1, _SR_ACC, False, e)
            _sr_forward(c, K1, K2, alt1, alt2, X, Y, &pos0, &ix0, P0 - pos0, _SR_ACC, True, e)
            # The chunk alternates from its first entry: (-1)^P0 (F(P1) - F(P0)).
            _sr_add_acc(e, T, ((parity[0] ^ P0) & 1) != 0)
            parity[0] += P1 - P0
            return
        while a0 < a1 and b0 < b1:
            if K1[a0] >= K2[b0]:
                j = _sr_gallop(K1, a0, a1, K2[b0], <_Below *> NULL)
                _sr_side_run(c, 0, alt1, a0, j, parity, e)
                a0 = j
            else:
                j = _sr_gallop(K2, b0, b1, K1[a0], <_AtMost *> NULL)
                _sr_side_run(c, 1, alt2, b0, j, parity, e)
                b0 = j
    _sr_side_run(c, 0, alt1, a0, a1, parity, e)
    _sr_side_run(c, 1, alt2, b0, b1, parity, e)


cdef void _sr_value(_SRCore *c, coin_t *K1, coin_t *K2, coin_t *h, coin_t *alt1,
                    coin_t *alt2, coin_t *T, int64_t lo, int64_t hi, _SRExec *e) noexcept nogil:
    """The value of the coins between boundaries lo < hi into the total register."""
    cdef int64_t a_path[_SR_MAX_SEGMENTS]
    cdef int64_t a_from[_SR_MAX_SEGMENTS]
    cdef int64_t a_to[_SR_MAX_SEGMENTS]
    cdef int64_t b_path[_SR_MAX_SEGMENTS]
    cdef int64_t b_from[_SR_MAX_SEGMENTS]
    cdef int64_t b_to[_SR_MAX_SEGMENTS]
    cdef int64_t na, nb, ia = 0, ib = 0, sa, sb, ea, eb, ja, jb, u = 0, v = 0, parity = 0
    na = _sr_segments(&c.side[0], 0, lo, hi, a_path, a_from, a_to, &u)
    nb = _sr_segments(&c.side[1], 1, hi, lo, b_path, b_from, b_to, &v)
    sa = a_from[0]
    sb = b_from[0]
    while True:
        while ia < na and sa == a_to[ia]:
            ia += 1
            if ia < na:
                sa = a_from[ia]
        while ib < nb and sb == b_to[ib]:
            ib += 1
            if ib < nb:
                sb = b_from[ib]
        if ia == na or ib == nb:
            break
        ea = a_to[ia]
        eb = b_to[ib]
        # The chunk ends with the last entry of one of the two current segments.
        if K1[ea - 1] >= K2[eb - 1]:
            ja = ea
            jb = _sr_gallop(K2, sb, eb, K1[ea - 1], <_AtMost *> NULL)
        else:
            jb = eb
            ja = _sr_gallop(K1, sa, ea, K2[eb - 1], <_Below *> NULL)
        _sr_chunk(c, K1, K2, alt1, alt2, T, a_path[ia], sa, ja, b_path[ib], sb, jb, &parity, e)
        sa = ja
        sb = jb
    while ia < na:
        _sr_side_run(c, 0, alt1, sa, a_to[ia], &parity, e)
        ia += 1
        if ia < na:
            sa = a_from[ia]
    while ib < nb:
        _sr_side_run(c, 1, alt2, sb, b_to[ib], &parity, e)
        ib += 1
        if ib < nb:
            sb = b_from[ib]
    # The bridge, the smallest block, comes last.
    _sr_bridge(e, h, u, v, (parity & 1) != 0)


# ---------------------------------------------------------------------------------------
# Memory of the core.

cdef enum:
    # The arrays of a _SRSide: one per node, three per slot, four per path.
    _SR_SIDE_ARRAYS = 8


cdef inline void _sr_side_arrays(_SRSide *s, int64_t ***arrays) noexcept nogil:
    """The arrays of s, per node, per slot, per path (for _w_alloc_each and _w_free_each)."""
    arrays[:_SR_SIDE_ARRAYS] = [&s.slot, &s.node, &s.path, &s.ext, &s.start, &s.top,
                                &s.weighted, &s.up]


cdef void _sr_side_free(_SRSide *s) noexcept nogil:
    cdef int64_t **arrays[_SR_SIDE_ARRAYS]
    _sr_side_arrays(s, arrays)
    _w_free_each(arrays, _SR_SIDE_ARRAYS)


cdef void _sr_core_free(_SRCore *c) noexcept nogil:
    _sr_side_free(&c.side[0])
    _sr_side_free(&c.side[1])
    free(c.pair_first)
    free(c.pair_y)
    free(c.pair_s0)
    free(c.pair_s1)
    free(c.pair_cp)
    free(c.cp_x)
    c.pair_first = c.pair_y = c.pair_s0 = c.pair_s1 = c.pair_cp = c.cp_x = NULL


cdef int64_t _sr_core_bytes(_SRCore *c) noexcept nogil:
    """Bytes of the integer arrays of the core."""
    cdef int64_t total = 0, f
    for f in range(2):
        total += 8 * (c.n + 1 + 3 * c.side[f].nslots + 4 * c.side[f].npaths)
    total += 8 * (c.side[0].npaths + 1 + 4 * c.npairs + c.ncp)
    return total


# ---------------------------------------------------------------------------------------
# Heavy paths of one forest.

cdef int _sr_side_build(_SRSide *s, int64_t *par, int64_t *ext_of_node, int64_t nb,
                        bint parents_right, int64_t *below, int64_t *heavy) except -1 nogil:
    """Lay out the forest ``par`` over nodes 0..nb-1 in heavy paths; NO_MEMORY or OK.

    ``below`` and ``heavy`` are the caller's scratch of nb entries each. Children precede
    their parent in node order (forest 0) or follow it (forest 1), so one sweep accumulates
    subtree sizes and, a node's size being final when the sweep reaches it, picks each
    parent's heavy child as well (one sweep instead of three: 2*10^7 random coins, about
    0.25 s less). Looks at signals as it goes (-1 with KeyboardInterrupt). O(nb).
    """
    cdef int64_t i, x, p, npaths, nslots, length, k, next_slot = 0, y
    cdef int64_t **arrays[_SR_SIDE_ARRAYS]
    cdef bint ok
    # below[x]: the number of x's descendants (its subtree's size minus one).
    memset(below, 0, nb * sizeof(int64_t))
    memset(heavy, 0xFF, nb * sizeof(int64_t))  # every entry -1: no heavy child yet
    npaths = nb
    for i in range(nb):
        x = i if parents_right else nb - 1 - i
        p = par[x]
        if p >= 0:
            below[p] += below[x] + 1
            if heavy[p] < 0:
                heavy[p] = x
                npaths -= 1  # a node with a heavy child continues its path
            elif below[x] > below[heavy[p]]:
                heavy[p] = x
        _forest_signals(i)
    nslots = nb + npaths
    s.nslots = nslots
    s.npaths = npaths
    _sr_side_arrays(s, arrays)
    # Every pointer is set before any test, for _sr_side_free.
    ok = _w_alloc_each(arrays, 1, nb)
    ok &= _w_alloc_each(arrays + 1, 3, nslots)
    ok &= _w_alloc_each(arrays + 4, 4, npaths)
    if not ok:
        return NO_MEMORY
    p = 0
    for x in range(nb):
        if par[x] >= 0 and heavy[par[x]] == x:
            continue
        # x heads a path: its heavy chain goes down from x; slots run bottom to top.
        length = 0
        y = x
        while y >= 0:
            length += 1
            y = heavy[y]
        s.start[p] = next_slot
        s.top[p] = next_slot + length - 1
        s.weighted[p] = length - 1 if par[x] < 0 else length
        k = next_slot + length - 1
        y = x
        while y >= 0:
            _forest_signals(k)  # k runs over every slot once in all
            s.slot[y] = k
            s.node[k] = y
            s.path[k] = p
            s.ext[k] = ext_of_node[y]
            k -= 1
            y = heavy[y]
        k = next_slot + length   # the pad
        s.node[k] = -1
        s.path[k] = p
        s.ext[k] = 0
        next_slot += length + 1
        p += 1
    for p in range(npaths):
        x = s.node[s.top[p]]
        s.up[p] = s.slot[par[x]] if par[x] >= 0 else -1
    return OK


# ---------------------------------------------------------------------------------------
# Building: heavy paths, then the pairs that get a table, then their checkpoints.

cdef int _sr_core_layout(_SRCore *c, int64_t n, int64_t *ns, int64_t *ps, int64_t *par1,
                         int64_t *par2, int64_t *scratch0, int64_t *scratch1) except -1 nogil:
    """Both forests in heavy paths; NO_MEMORY or OK, -1 with KeyboardInterrupt. scratch0 and
    scratch1 are n + 1 entries each, or NULL (then allocated here)."""
    cdef bint own = scratch0 == NULL
    cdef int st = NO_MEMORY
    c.n = n
    if own:
        scratch0 = <int64_t *> malloc((n + 1) * sizeof(int64_t))
        scratch1 = <int64_t *> malloc((n + 1) * sizeof(int64_t))
    try:
        if scratch0 != NULL and scratch1 != NULL:
            st = _sr_side_build(&c.side[0], par1, ns, n + 1, True, scratch0, scratch1)
            if st == OK:
                st = _sr_side_build(&c.side[1], par2, ps, n + 1, False, scratch0, scratch1)
    finally:
        if own:
            free(scratch0)
            free(scratch1)
    return st


cdef int _sr_keys_and_sums(_SRSide *s, int64_t *par, coin_t *h, coin_t *K,
                           coin_t *alt) except -1 nogil:
    """Machine keys (the blocks h[x] + h[par x]) and per-path alternating prefix sums. Looks
    at signals as it goes (-1 with KeyboardInterrupt)."""
    cdef int64_t k, x
    for k in range(s.nslots):
        x = s.node[k]
        K[k] = h[x] + h[par[x]] if x >= 0 and par[x] >= 0 else 0
        _forest_signals(k)
    _sr_alternating_sums(s, K, alt)
    return 0


cdef void _sr_alternating_sums(_SRSide *s, coin_t *K, coin_t *alt) noexcept nogil:
    """alt[start + j] = K[start] - K[start + 1] + ... (j terms), per path."""
    cdef int64_t p, j, k
    for p in range(s.npaths):
        k = s.start[p]
        alt[k] = 0
        for j in range(s.weighted[p]):
            alt[k + j + 1] = alt[k + j] + K[k + j] if j % 2 == 0 else alt[k + j] - K[k + j]


cdef inline int64_t _sr_count_k1_at_least(coin_t *K1, int64_t sx, int64_t lx,
                                          coin_t y) noexcept nogil:
    return _sr_gallop(K1, sx, sx + lx, y, <_Below *> NULL) - sx


cdef inline int64_t _sr_count_k2_above(coin_t *K2, int64_t sy, int64_t ly, coin_t x) noexcept nogil:
    return _sr_gallop(K2, sy, sy + ly, x, <_AtMost *> NULL) - sy


cdef bint _sr_span(_SRCore *c, coin_t *K1, coin_t *K2, int64_t X, int64_t Y, int64_t *s0,
                   int64_t *s1, int64_t *in_x, int64_t *in_y) noexcept nogil:
    """Where the merge of the whole paths X and Y interleaves: before merged position s0 and
    from s1 on it takes entries of one path only; in_x, in_y entries of each in between."""
    cdef int64_t sx = c.side[0].start[X], lx = c.side[0].weighted[X]
    cdef int64_t sy = c.side[1].start[Y], ly = c.side[1].weighted[Y]
    cdef int64_t lead, trail
    cdef bint lead_x, trail_x
    if K1[sx] >= K2[sy]:
        lead = _sr_count_k1_at_least(K1, sx, lx, K2[sy])
        lead_x = True
    else:
        lead = _sr_count_k2_above(K2, sy, ly, K1[sx])
        lead_x = False
    if K1[sx + lx - 1] >= K2[sy + ly - 1]:
        # X's last entry comes first: the entries of Y after it trail.
        trail = ly - _sr_count_k2_above(K2, sy, ly, K1[sx + lx - 1])
        trail_x = False
    else:
        trail = lx - _sr_count_k1_at_least(K1, sx, lx, K2[sy + ly - 1])
        trail_x = True
    s0[0] = lead
    s1[0] = lx + ly - trail
    in_x[0] = lx - (lead if lead_x else 0) - (trail if trail_x else 0)
    in_y[0] = ly - (0 if lead_x else lead) - (0 if trail_x else trail)
    return s1[0] > s0[0]


cdef int _sr_grow(int64_t **arrays, int64_t count, int64_t *cap, int64_t needed) noexcept nogil:
    cdef int64_t newcap, i
    cdef int64_t *grown
    if needed <= cap[0]:
        return OK
    newcap = 2 * cap[0] if cap[0] else 256
    while newcap < needed:
        newcap *= 2
    for i in range(count):
        grown = <int64_t *> realloc(arrays[i], newcap * sizeof(int64_t))
        if grown == NULL:
            return NO_MEMORY
        arrays[i] = grown
    cap[0] = newcap
    return OK


cdef int _sr_choose_pairs(_SRCore *c, coin_t *K1, coin_t *K2, int64_t spacing,
                          int64_t min_side) except -1 nogil:
    """Choose the pairs (X, Y) that get a table and the checkpoint spacing; allocate them.

    A pair gets a table when its paths interleave over at least G merged entries (the
    proof's spacing bound, about sqrt(n)) with at least m0 entries of each (about
    G / log2 n), and some node of X lies left of some node of Y (else no window holds
    both). The spacing is the smallest power of two (from 16, at most G) whose checkpoints
    fit in (n + 1) / 4 beyond two per table; G when none does. ``spacing`` > 0 (tests) sets G
    and the spacing; ``min_side`` > 0 sets m0. Returns NO_MEMORY or OK; -1 when a signal
    handler raised (Ctrl-C).
    """
    cdef _SRSide *s1 = &c.side[0]
    cdef _SRSide *s2 = &c.side[1]
    cdef int64_t n = c.n, limit_shift = 0, m0, X, Y, sx, lx, sy, ly, a, b, in_x, in_y
    cdef int64_t cap = 0, count = 0, shift, total, k, pr, work = 0, logn = 0
    cdef int64_t *arrays[4]
    cdef int64_t *big2 = NULL
    cdef int64_t nbig2 = 0
    cdef int i
    cdef bint chosen = False
    arrays[0] = arrays[1] = arrays[2] = arrays[3] = NULL
    if spacing > 0:
        while (2 << limit_shift) <= spacing:
            limit_shift += 1
    else:
        while (<int64_t> 1 << (2 * limit_shift)) < n + 1:
            limit_shift += 1
    while (<int64_t> 1 << logn) < n + 2:
        logn += 1
    m0 = min_side if min_side > 0 else max(1, ((<int64_t> 1) << limit_shift) // max(1, logn))
    c.limit_shift = limit_shift
    c.min_side = m0
    c.shift = limit_shift
    big2 = <int64_t *> malloc((s2.npaths + 1) * sizeof(int64_t))
    if big2 == NULL:
        return NO_MEMORY
    for Y in range(s2.npaths):
        if s2.weighted[Y] >= m0:
            big2[nbig2] = Y
            nbig2 += 1
    try:  # KeyboardInterrupt or NO_MEMORY: the finally clause frees what was allocated
        for X in range(s1.npaths):
            lx = s1.weighted[X]
            if lx < m0:
                continue
            sx = s1.start[X]
            for k in range(nbig2):
                Y = big2[k]
                sy = s2.start[Y]
                ly = s2.weighted[Y]
                work += 1
                _forest_signals(work)
                # A window holds entries of X left of its entries of Y.
                if s1.node[sx] >= s2.node[sy]:
                    continue
                # Disjoint ranges of keys: one path's entries all come first.
                if K1[sx + lx - 1] >= K2[sy] or K2[sy + ly - 1] > K1[sx]:
                    continue
                if not _sr_span(c, K1, K2, X, Y, &a, &b, &in_x, &in_y):
                    continue
                if b - a < ((<int64_t> 1) << limit_shift) or in_x < m0 or in_y < m0:
                    continue
                if _sr_grow(arrays, 4, &cap, count + 1) != OK:
                    return NO_MEMORY
                arrays[0][count] = X
                arrays[1][count] = Y
                arrays[2][count] = a
                arrays[3][count] = b
                count += 1
        chosen = True
    finally:
        free(big2)
        if not chosen:
            for i in range(4):
                free(arrays[i])
    # The spacing: as fine as the memory budget allows, never above G.
    shift = limit_shift
    if spacing <= 0 and count > 0:
        shift = _SR_MIN_SHIFT if _SR_MIN_SHIFT < limit_shift else limit_shift
        while shift < limit_shift:
            total = 0
            for pr in range(count):
                total += ((arrays[3][pr] - arrays[2][pr] - 1) >> shift) + 2
            if total - 2 * count <= (n + 1) // _SR_CHECKPOINT_BUDGET:
                break
            shift += 1
    c.shift = shift
    c.npairs = count
    c.pair_first = <int64_t *> malloc((s1.npaths + 1) * sizeof(int64_t))
    c.pair_cp = <int64_t *> malloc((count + 1) * sizeof(int64_t))
    if c.pair_first == NULL or c.pair_cp == NULL:
        for i in range(4):
            free(arrays[i])
        return NO_MEMORY
    c.pair_y = arrays[1]
    c.pair_s0 = arrays[2]
    c.pair_s1 = arrays[3]
    k = 0
    for X in range(s1.npaths + 1):
        while k < count and arrays[0][k] < X:
            k += 1
        c.pair_first[X] = k
    free(arrays[0])
    total = 0
    for pr in range(count):
        c.pair_cp[pr] = total
        total += _sr_checkpoints(c, pr)
    c.pair_cp[count] = total
    c.ncp = total
    c.cp_x = <int64_t *> malloc((total + 1) * sizeof(int64_t))
    if c.cp_x == NULL:
        return NO_MEMORY
    return OK


cdef int _sr_fill_tables(_SRCore *c, coin_t *K1, coin_t *K2, coin_t *alt1, coin_t *alt2,
                         coin_t *T, _SRExec *e) except -1 nogil:
    """The checkpoints of every table: one merge of the two whole paths, up to s1."""
    cdef int64_t X = 0, pr, k, count, pos, ix, target, work = 0, base
    for pr in range(c.npairs):
        while c.pair_first[X + 1] <= pr:
            X += 1
        count = _sr_checkpoints(c, pr)
        base = c.pair_cp[pr]
        pos = 0
        ix = 0
        _sr_zero_f(e, T)
        for k in range(count):
            target = c.pair_s0[pr] + (k << c.shift) if k < count - 1 else c.pair_s1[pr]
            work += target - pos
            _sr_forward(c, K1, K2, alt1, alt2, X, c.pair_y[pr], &pos, &ix, target - pos,
                        _SR_F, False, e)
            _sr_store(e, T, base + k)
            c.cp_x[base + k] = ix
            # Between checkpoints: one pair's merge can be most of the build.
            if work >= _SR_WORK_PER_SIGNAL_CHECK:
                work = 0
                _forest_signals_now()
    return 0


cdef int _sr_numbers(_SRCore *c, coin_t *h, int64_t *par1, int64_t *par2, coin_t **K,
                     coin_t **alt, coin_t **T, int64_t spacing, int64_t min_side,
                     _SRExec *e) except -1 nogil:
    """The numbers of a laid out core: keys and sums of both sides (into K[f] and alt[f],
    nslots entries each), the pairs, their tables (T[0] allocated here, for the caller to
    free). NO_MEMORY or OK; -1 with KeyboardInterrupt. O(n) plus the tables' merges."""
    cdef int st
    _sr_keys_and_sums(&c.side[0], par1, h, K[0], alt[0])
    _sr_keys_and_sums(&c.side[1], par2, h, K[1], alt[1])
    st = _sr_choose_pairs(c, K[0], K[1], spacing, min_side)
    if st != OK:
        return st
    T[0] = <coin_t *> malloc((c.ncp + 1) * sizeof(coin_t))
    if T[0] == NULL:
        return NO_MEMORY
    _sr_fill_tables(c, K[0], K[1], alt[0], alt[1], T[0], e)
    return OK


cdef int64_t *_sr_grown(int64_t **scratch, int64_t count) noexcept nogil:
    """``scratch[0]`` grown to ``count`` entries and handed over (``scratch[0]`` becomes
    NULL); NULL when out of memory (``scratch[0]`` is then still the caller's)."""
    cdef int64_t *grown = <int64_t *> realloc(scratch[0], count * sizeof(int64_t))
    if grown != NULL:
        scratch[0] = NULL
    return grown
