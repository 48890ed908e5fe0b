# coinsrow._core._subrows_query: a query of the sub-rows' structure (docs/subrows.md): the
# two sides of a window as slot ranges of heavy paths, merged chunk by chunk (run by run, or
# from a pair's table). The method is described at the top of _subrows.pyx; the searches,
# the numeric operations and the checkpoints it shares with the build are in
# _subrows_query.pxd.

from coinsrow._core._types cimport *
from coinsrow._core._subrows cimport _SR_MAX_SEGMENTS, _SRSide


# ---------------------------------------------------------------------------------------
# Searches along slots (the galloping ones are in _subrows_query.pxd).

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
