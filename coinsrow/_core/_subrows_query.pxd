# Declarations of coinsrow._core._subrows_query (the queries' merge, docs/subrows.md) that the
# table build and the sub-rows' structures cimport, with the inline steps they share: the
# galloping searches along slots, the six numeric operations and the checkpoints of a pair.

from coinsrow._core._types cimport *
from coinsrow._core._subrows cimport (_SR_ACC, _SR_F, _SR_OP_ADD_ACC, _SR_OP_BRIDGE, _SR_OP_RUN,
                                      _SR_OP_STORE, _SR_OP_TABLES, _SR_OP_ZERO, _SR_TOTAL,
                                      _SRCore, _SRExec)


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


cdef void _sr_forward(_SRCore *c, coin_t *K1, coin_t *K2, coin_t *alt1, coin_t *alt2,
                      int64_t X, int64_t Y, int64_t *pos, int64_t *ix, int64_t d, int reg,
                      bint negate, _SRExec *e) noexcept nogil

cdef void _sr_value(_SRCore *c, coin_t *K1, coin_t *K2, coin_t *h, coin_t *alt1,
                    coin_t *alt2, coin_t *T, int64_t lo, int64_t hi, _SRExec *e) noexcept nogil
