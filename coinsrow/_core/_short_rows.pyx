# coinsrow._core._short_rows: the one-row answers of a short list or tuple, without the
# general path.
#
# A list or tuple of at most SHORT_ROW coins, every one a Python ``int`` within int64 or a
# finite ``float`` (any float makes a float game, as everywhere), is read straight into a
# buffer on the C stack and solved there: Fusion (``x <= M > y``, strict on the right: the
# canonical reduced form, docs/algorithm.md), then the Greedy two-pointer merge of the reduced
# row, which is valley-shaped. These are the operations of the general kernels for one row, in
# the same order, so that the answers are theirs bit for bit, float rounding included; float
# profits are each player's coins summed exactly and rounded once (``_fsum``), as there.
#
# Every function answers ``None`` when the row is not for it: another type of row or coin
# (bool, an int subclass, a big int, NaN, an infinity, Fraction, Decimal, ...), an empty or
# long row, a ``threads`` other than None or a positive int, or an int64 overflow or a float
# leaving the float range on the way. The caller then takes the general path
# (``_dispatch.run``), which answers or raises for every input, exactly: this module never
# states an answer the kernels and their exact twins would not, so it has no twin of its own,
# and with COINSROW_EXACT=1 it is not called (``_dispatch.short_rows``). ``threads`` changes
# no answer (docs/rows.md), and a short row is reduced on the calling thread whatever it is.
#
# Why: a 16-int list costs 0.2 us here against 5 us through the Python layers
# (benchmarks/small_calls.py). O(n) for n coins.

from cpython.array cimport array, clone
from cpython.float cimport PyFloat_AS_DOUBLE
from cpython.long cimport PyLong_AsLongLongAndOverflow, PyLong_FromLongLong
from cpython.ref cimport PyObject
from libc.math cimport isfinite
from libc.stdint cimport int64_t

from coinsrow._core._fsum cimport ExactSum, exact_sum_add, exact_sum_init, exact_sum_result
from coinsrow._core._types cimport add_checked, coin_t, sub_checked


cdef extern from "Python.h":
    PyObject *PySequence_Fast_GET_ITEM(object seq, Py_ssize_t i)
    const Py_ssize_t PY_SSIZE_T_MAX


cdef enum:
    # The longest row taken here: its coins, reduced entries and runs fit in 10 KB of
    # stack, and beyond it the general path's fixed cost (some 5 us) is small beside the
    # work.
    SHORT_ROW = 256


cdef enum Kind:
    NOT_SHORT = 0
    INTS = 1
    FLOATS = 2


cdef struct Row:
    Py_ssize_t n            # coins
    Py_ssize_t top          # reduced entries
    int64_t ints[SHORT_ROW]
    double floats[SHORT_ROW]
    int64_t int_values[SHORT_ROW]
    double float_values[SHORT_ROW]
    Py_ssize_t segments[SHORT_ROW]  # the first coin of each reduced entry's run


cdef Kind _read(object row, object threads, Row *r) noexcept:
    """The coins of ``row`` into ``r``: INTS, FLOATS, or NOT_SHORT for any other row (or
    for ``threads`` that the general path is to check)."""
    cdef Py_ssize_t n, i, j
    cdef PyObject *item
    cdef int overflow
    cdef long long x
    cdef double f
    cdef Kind kind = INTS
    if threads is not None and not (type(threads) is int and 0 < threads <= PY_SSIZE_T_MAX):
        return NOT_SHORT
    if type(row) is list:
        n = len(<list> row)
    elif type(row) is tuple:
        n = len(<tuple> row)
    else:
        return NOT_SHORT
    if n == 0 or n > SHORT_ROW:
        return NOT_SHORT
    for i in range(n):
        item = PySequence_Fast_GET_ITEM(row, i)
        if type(<object> item) is int:
            x = PyLong_AsLongLongAndOverflow(<object> item, &overflow)
            if overflow:
                return NOT_SHORT
            if kind == INTS:
                r.ints[i] = x
            else:
                r.floats[i] = <double> x  # rounded to nearest, as float(x)
        elif type(<object> item) is float:
            f = PyFloat_AS_DOUBLE(<object> item)
            if not isfinite(f):
                return NOT_SHORT  # the general path names the coin
            if kind == INTS:
                kind = FLOATS
                for j in range(i):
                    r.floats[j] = <double> r.ints[j]
            r.floats[i] = f
        else:
            return NOT_SHORT
    r.n = n
    return kind


cdef bint _reduce(const coin_t *coins, Py_ssize_t n, coin_t *values,
                  Py_ssize_t *segments, Py_ssize_t *top) noexcept nogil:
    """Fusion: the reduced row into ``values[:top]``, each entry's run of coins starting at
    ``segments[e]``. True on an int64 overflow."""
    cdef Py_ssize_t p, t = 0, seg
    cdef coin_t v, d
    cdef bint overflow = False
    for p in range(n):
        v = coins[p]
        seg = p
        while t >= 2 and values[t - 2] <= values[t - 1] and values[t - 1] > v:
            overflow |= sub_checked(values[t - 2], values[t - 1], &d)
            overflow |= add_checked(d, v, &v)
            t -= 2
            seg = segments[t]
        values[t] = v
        segments[t] = seg
        t += 1
    top[0] = t
    return overflow


cdef bint _value(const coin_t *values, Py_ssize_t top, coin_t *value) noexcept nogil:
    """Greedy on the reduced row: the larger end, the left one on ties. True on overflow
    (int64, or a float result beyond the float range)."""
    cdef coin_t taken[2]
    cdef coin_t x, y
    cdef Py_ssize_t left = 0, right = top - 1
    cdef int player = 0
    cdef bint overflow = False
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
        overflow |= add_checked(taken[player], x, &taken[player])
        player ^= 1
    overflow |= sub_checked(taken[0], taken[1], value)
    # Plus zero, as the general kernels do: -0.0 becomes 0.0.
    overflow |= add_checked(value[0], <coin_t> 0, value)
    if coin_t is double:
        overflow |= not isfinite(value[0])
    return overflow


cdef object _solved_value(Row *r, Kind kind):
    """The value of the row read into ``r`` (reduced on the way), or None if it overflowed."""
    cdef int64_t int_value
    cdef double float_value
    if kind == INTS:
        if _reduce(r.ints, r.n, r.int_values, r.segments, &r.top):
            return None
        if _value(r.int_values, r.top, &int_value):
            return None
        return PyLong_FromLongLong(int_value)
    _reduce(r.floats, r.n, r.float_values, r.segments, &r.top)
    if _value(r.float_values, r.top, &float_value):
        return None
    return float_value


cdef inline bint _from_left(Row *r, Kind kind, Py_ssize_t left, Py_ssize_t right) noexcept:
    """Greedy's choice between the reduced entries at both ends: the left one on ties."""
    if kind == INTS:
        return r.int_values[left] >= r.int_values[right]
    return r.float_values[left] >= r.float_values[right]


cdef inline Py_ssize_t _run_stop(Row *r, Py_ssize_t e) noexcept:
    """One past the last coin of reduced entry ``e``'s run."""
    return r.segments[e + 1] if e + 1 < r.top else r.n


def value(row, threads=None):
    """``coinsrow.value(row)`` of a short row of ints or floats, else None. O(n)."""
    cdef Row r
    cdef Kind kind = _read(row, threads, &r)
    if kind == NOT_SHORT:
        return None
    return _solved_value(&r, kind)


def profits(row, threads=None):
    """``(first, second)`` as ``coinsrow.profits(row)`` of a short row, else None. O(n).

    Ints: first = (sum + value) / 2. Floats: each player's coins of the optimal play, summed
    exactly and rounded once."""
    cdef Row r
    cdef Kind kind = _read(row, threads, &r)
    cdef int64_t int_value, total = 0, twice, first
    cdef Py_ssize_t p, left, right, e, stop, turn = 0
    cdef bint overflow
    cdef ExactSum sums[2]
    cdef double first_sum, second_sum
    if kind == NOT_SHORT:
        return None
    if kind == INTS:
        overflow = _reduce(r.ints, r.n, r.int_values, r.segments, &r.top)
        overflow |= _value(r.int_values, r.top, &int_value)
        for p in range(r.n):
            overflow |= add_checked(total, r.ints[p], &total)
        # sum + value is twice what the first player takes: even, so halving is exact.
        overflow |= add_checked(total, int_value, &twice)
        if overflow:
            return None
        first = twice // 2
        return PyLong_FromLongLong(first), PyLong_FromLongLong(total - first)
    if _solved_value(&r, kind) is None:
        return None
    # Greedy entry g (in the order taken) goes to player g % 2, and its odd run of coins is
    # taken coin by coin from its exposed end: a coin at an even offset in the run goes to
    # the same player.
    exact_sum_init(&sums[0])
    exact_sum_init(&sums[1])
    left, right = 0, r.top - 1
    while left <= right:
        if _from_left(&r, kind, left, right):
            e = left
            left += 1
        else:
            e = right
            right -= 1
        stop = _run_stop(&r, e)
        for p in range(r.segments[e], stop):
            exact_sum_add(&sums[(turn + p - r.segments[e]) & 1], r.floats[p])
        turn += 1
    first_sum = exact_sum_result(&sums[0])
    second_sum = exact_sum_result(&sums[1])
    if not (isfinite(first_sum) and isfinite(second_sum)):
        return None  # a sum beyond the float range: the general path rounds it once
    return first_sum, second_sum


cdef array _MOVES = array("q")
cdef array _INTS = array("q")
cdef array _FLOATS = array("d")


def play(row, threads=None):
    """``coinsrow.play(row)`` of a short row (an ``array('q')`` of the coin taken at each
    turn), else None. O(n)."""
    cdef Row r
    cdef Kind kind = _read(row, threads, &r)
    cdef Py_ssize_t left, right, e, p, lo, hi, t = 0
    cdef array moves
    cdef long long *out
    cdef bint from_left
    if kind == NOT_SHORT:
        return None
    if _solved_value(&r, kind) is None:
        return None  # the general path redoes an overflowing row exactly
    moves = clone(_MOVES, r.n, False)
    out = moves.data.as_longlongs
    left, right = 0, r.top - 1
    while left <= right:
        from_left = _from_left(&r, kind, left, right)
        if from_left:
            e = left
            left += 1
        else:
            e = right
            right -= 1
        lo = r.segments[e]
        hi = _run_stop(&r, e)
        if from_left:
            for p in range(lo, hi):
                out[t] = p
                t += 1
        else:
            for p in range(hi - 1, lo - 1, -1):
                out[t] = p
                t += 1
    return moves


def best_move(row):
    """``coinsrow.best_move(row)`` of a short row (``"left"`` or ``"right"``), else None."""
    cdef Row r
    cdef Kind kind = _read(row, None, &r)
    if kind == NOT_SHORT:
        return None
    if _solved_value(&r, kind) is None:
        return None
    return "left" if _from_left(&r, kind, 0, r.top - 1) else "right"


def coins(row):
    """The coins of a short row as an ``array('q')`` or ``array('d')`` (what the general
    input path stores for it), else None. O(n)."""
    cdef Row r
    cdef Kind kind = _read(row, None, &r)
    cdef array out
    cdef Py_ssize_t p
    if kind == NOT_SHORT:
        return None
    if kind == INTS:
        out = clone(_INTS, r.n, False)
        for p in range(r.n):
            out.data.as_longlongs[p] = r.ints[p]
    else:
        out = clone(_FLOATS, r.n, False)
        for p in range(r.n):
            out.data.as_doubles[p] = r.floats[p]
    return out
