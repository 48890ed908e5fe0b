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
# ``engine`` makes the state of an Engine of a short list of ints (``ShortEngine``), whose
# moves are played here one call each; it too is None for any other row, and the Engine then
# takes the window structure.
#
# Why: a 16-int list costs 0.2 us here against 5 us through the Python layers; an Engine of 8
# ints played out, 2.6 us against 10.3 us (benchmarks/small_calls.py). O(n) for n coins.

cimport cython
from cpython.array cimport array, clone
from cpython.buffer cimport (PyBUF_C_CONTIGUOUS, PyBUF_FORMAT, PyBuffer_Release,
                             PyObject_GetBuffer)
from cpython.float cimport PyFloat_AS_DOUBLE
from cpython.long cimport PyLong_AsLongLongAndOverflow, PyLong_FromLongLong
from cpython.ref cimport PyObject
from libc.math cimport isfinite
from libc.string cimport memcpy
from libc.stdint cimport int64_t

from coinsrow._core._fsum cimport ExactSum, exact_sum_add, exact_sum_init, exact_sum_result
from coinsrow._core._row_helpers cimport _one_row_greedy
from coinsrow._core._types cimport MAX_THREADS, add_checked, coin_t, sub_checked


cdef extern from "Python.h":
    PyObject *PySequence_Fast_GET_ITEM(object seq, Py_ssize_t i)
    PyObject *PyTuple_GET_ITEM(object p, Py_ssize_t pos)
    Py_ssize_t PyTuple_GET_SIZE(object p)
    # Neither fails on the exact str or int it is given here (no error check).
    int PyUnicode_CompareWithASCIIString(object uni, const char *string) noexcept
    long long _as_long_long "PyLong_AsLongLongAndOverflow" (object x, int *overflow) noexcept


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


cdef Kind _read_coins(object seq, Row *r, Kind kind) noexcept:
    """The coins of the list or tuple ``seq`` appended to the ``r.n`` already in ``r`` (of
    ``kind``, INTS at first), if they fit: INTS, FLOATS (from the first float on, every coin
    is stored as a float), or NOT_SHORT for any other coin. The list is locked meanwhile on
    a free-threaded build, so that no other thread changes it while its items are read
    without references of their own."""
    with cython.critical_section(seq):
        return _read_locked_coins(seq, r, kind)


cdef Kind _read_locked_coins(object seq, Row *r, Kind kind) noexcept:
    cdef Py_ssize_t size = len(seq), i, j, n = r.n
    cdef PyObject *item
    cdef int overflow
    cdef long long x
    cdef double f
    if size > SHORT_ROW - n:
        return NOT_SHORT
    for i in range(size):
        item = PySequence_Fast_GET_ITEM(seq, i)
        if type(<object> item) is int:
            x = PyLong_AsLongLongAndOverflow(<object> item, &overflow)
            if overflow:
                return NOT_SHORT
            if kind == INTS:
                r.ints[n] = x
            else:
                r.floats[n] = <double> x  # rounded to nearest, as float(x)
        elif type(<object> item) is float:
            f = PyFloat_AS_DOUBLE(<object> item)
            if not isfinite(f):
                return NOT_SHORT  # the general path names the coin
            if kind == INTS:
                kind = FLOATS
                for j in range(n):
                    r.floats[j] = <double> r.ints[j]
            r.floats[n] = f
        else:
            return NOT_SHORT
        n += 1
    r.n = n
    return kind


cdef Kind _read(object row, object threads, Row *r) noexcept:
    """The coins of ``row`` into ``r``: INTS, FLOATS, or NOT_SHORT for any other row (or
    for ``threads`` that the general path is to check)."""
    if threads is not None and not (type(threads) is int and 0 < threads <= MAX_THREADS):
        return NOT_SHORT
    if type(row) is not list and type(row) is not tuple or len(row) == 0:
        return NOT_SHORT
    r.n = 0
    return _read_coins(row, r, INTS)


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


cdef bint _value(coin_t *values, Py_ssize_t top, coin_t *value) noexcept nogil:
    """Greedy on the reduced row (the general kernels' ``_one_row_greedy``: the larger end,
    the left one on ties). True on overflow (int64, or a float result beyond the float
    range)."""
    cdef bint overflow = False
    value[0] = _one_row_greedy(values, 0, top - 1, &overflow)
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


cdef inline Py_ssize_t _greedy_step(Row *r, Kind kind, Py_ssize_t *left, Py_ssize_t *right,
                                    bint *from_left) noexcept:
    """The reduced entry Greedy takes next from ``[left, right]`` (which it narrows), and
    whether from the left."""
    from_left[0] = _from_left(r, kind, left[0], right[0])
    if from_left[0]:
        left[0] += 1
        return left[0] - 1
    right[0] -= 1
    return right[0] + 1


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
    cdef bint overflow, from_left
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
        e = _greedy_step(&r, kind, &left, &right, &from_left)
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
        e = _greedy_step(&r, kind, &left, &right, &from_left)
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
    if kind == NOT_SHORT:
        return None
    return _coins_array(&r, kind)


cdef array _coins_array(Row *r, Kind kind):
    """The coins read into ``r`` as an ``array('q')`` (INTS) or ``array('d')``."""
    cdef array out
    if kind == INTS:
        out = clone(_INTS, r.n, False)
        memcpy(out.data.as_longlongs, r.ints, r.n * sizeof(int64_t))
    else:
        out = clone(_FLOATS, r.n, False)
        memcpy(out.data.as_doubles, r.floats, r.n * sizeof(double))
    return out


cdef enum:
    # The most components taken by ``pack``: with SHORT_ROW coins in all, a small game.
    SHORT_GAME_COMPONENTS = 64


cdef Kind _read_game(object rows, object stacks, Row *r, int64_t *offsets,
                     Py_ssize_t *k, Py_ssize_t *n_rows) noexcept:
    """The coins of every component of ``rows`` then ``stacks`` into ``r`` one after the
    other, component c from ``offsets[c]``: INTS, FLOATS, or NOT_SHORT for any other game.
    ``n_rows``: the components read from ``rows``."""
    cdef Py_ssize_t c = 0, g
    cdef Kind kind = INTS
    r.n = 0
    for g in range(2):
        group = rows if g == 0 else stacks
        if type(group) is not list and type(group) is not tuple:
            return NOT_SHORT
        with cython.critical_section(group):
            kind = _read_group(group, r, offsets, &c, kind)
        if kind == NOT_SHORT:
            return NOT_SHORT
        if g == 0:
            n_rows[0] = c
    offsets[c] = r.n
    k[0] = c
    return kind


cdef Kind _read_group(object group, Row *r, int64_t *offsets, Py_ssize_t *c,
                      Kind kind) noexcept:
    """The components of ``group`` (locked by the caller) read into ``r``, as ``_read_game``
    does. Each component is held by a reference of its own while it is read (locking it may
    suspend the group's lock), and the group's length is read again at each one."""
    cdef Py_ssize_t j = 0
    cdef object component
    while j < len(group):
        component = <object> PySequence_Fast_GET_ITEM(group, j)
        j += 1
        if type(component) is not list and type(component) is not tuple:
            return NOT_SHORT
        if c[0] == SHORT_GAME_COMPONENTS:
            return NOT_SHORT
        offsets[c[0]] = r.n
        c[0] += 1
        kind = _read_coins(component, r, kind)
        if kind == NOT_SHORT:
            return NOT_SHORT
    return kind


cdef enum:
    # A small game's value scans every component's head at each of its reduced entries:
    # at most this many steps (entries times components), some 2 us.
    SHORT_GAME_STEPS = 4096


cdef bint _int64_buffer(object obj, Py_buffer *view) noexcept:
    """A C-contiguous 1-D int64 buffer of ``obj`` into ``view`` (released by the caller),
    or False (nothing to release)."""
    try:
        PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT)
    except Exception:
        return False
    if view.ndim == 1 and view.itemsize == 8 and view.format != NULL and (
            (view.format[0] == b"q" and view.format[1] == 0)
            or (view.format[0] == b"@" and view.format[1] == b"q" and view.format[2] == 0)):
        return True
    PyBuffer_Release(view)
    return False


cdef bint _game_value(const int64_t *coins, Py_ssize_t n_coins, const int64_t *starts,
                      const int64_t *stops, Py_ssize_t k, Py_ssize_t n_rows,
                      int64_t *value) noexcept:
    """The value of a small int64 game of k rows and stacks (rows first): Fusion on every
    component, Fruitless at the bottom of every stack, then Greedy, the largest head of any
    component at each turn. True on an int64 overflow (or a game too large for here)."""
    cdef int64_t values[SHORT_ROW]
    cdef Py_ssize_t segments[SHORT_ROW]
    cdef Py_ssize_t left[SHORT_GAME_COMPONENTS]
    cdef Py_ssize_t right[SHORT_GAME_COMPONENTS]
    cdef Py_ssize_t c, size, top, base = 0, n = 0, m, turn, best
    cdef int64_t fruitless = 0, total = 0, t, head, best_head = 0
    cdef bint overflow = False, n_odd
    if k > SHORT_GAME_COMPONENTS:
        return True
    for c in range(k):
        size = stops[c] - starts[c]
        if starts[c] < 0 or stops[c] > n_coins or size < 0 or size > SHORT_ROW - n:
            return True
        n += size
    n_odd = n & 1
    for c in range(k):
        overflow |= _reduce(coins + starts[c], stops[c] - starts[c], values + base,
                            segments + base, &top)
        top += base
        if c >= n_rows:
            # Fruitless: a stack whose two bottom entries satisfy x <= M loses them at a
            # known cost, (-1)^n (x - M) for the player to move in the whole game.
            while top - base >= 2 and values[top - 2] <= values[top - 1]:
                overflow |= sub_checked(values[top - 2], values[top - 1], &t)
                if n_odd:
                    overflow |= sub_checked(fruitless, t, &fruitless)
                else:
                    overflow |= add_checked(fruitless, t, &fruitless)
                top -= 2
        left[c] = base
        right[c] = top - 1
        base = top
    m = base
    if m * k > SHORT_GAME_STEPS:
        return True
    for turn in range(m):
        best = -1
        for c in range(k):
            if left[c] > right[c]:
                continue
            head = values[left[c]]
            if c < n_rows and values[right[c]] > head:
                head = values[right[c]]
            if best < 0 or head > best_head:
                best, best_head = c, head
        if best >= n_rows or values[left[best]] >= values[right[best]]:
            left[best] += 1
        else:
            right[best] -= 1
        if turn & 1:
            overflow |= sub_checked(total, best_head, &total)
        else:
            overflow |= add_checked(total, best_head, &total)
    overflow |= add_checked(total, fruitless, value)
    return overflow


def game_value(coins, starts, stops, Py_ssize_t n_rows):
    """``Game.value()`` of a small game of int64 coins, without a forest: ``coins`` a
    C-contiguous int64 buffer, component c (rows first, then stacks) in
    ``coins[starts[c]:stops[c]]``; else None (float coins, a large game, an overflow).
    O(n + m k) for n coins, m reduced entries and k components."""
    cdef Py_buffer coins_view, starts_view, stops_view
    cdef int64_t value = 0
    cdef bint overflow = True
    if not _int64_buffer(coins, &coins_view):
        return None
    if _int64_buffer(starts, &starts_view):
        if _int64_buffer(stops, &stops_view):
            if starts_view.shape[0] == stops_view.shape[0]:
                overflow = _game_value(<const int64_t *> coins_view.buf,
                                       coins_view.shape[0],
                                       <const int64_t *> starts_view.buf,
                                       <const int64_t *> stops_view.buf,
                                       starts_view.shape[0], n_rows, &value)
            PyBuffer_Release(&stops_view)
        PyBuffer_Release(&starts_view)
    PyBuffer_Release(&coins_view)
    if overflow:
        return None
    return PyLong_FromLongLong(value)


cdef enum:
    # ``pack`` solves a small int64 game as it reads it when its value takes at most this
    # many steps (coins times components): at most 0.2 us more than reading it (0.05 us for
    # 8 coins in 2 components), against 0.3 us for a later ``value()`` to reach
    # ``game_value`` through the Python layers; a larger game, which may never be asked its
    # value, leaves it to be computed when asked.
    EAGER_GAME_STEPS = 128


def pack(rows, stacks):
    """``Game(rows=rows, stacks=stacks)`` read in one pass, for a small game of lists or
    tuples of ints within int64 and finite floats: ``(coins, offsets, n_rows, value)``, the
    coins as ``_core.pack_components`` packs them (a memoryview of format "q" or "d"), an
    ``array('q')`` of the components' bounds in them (rows first), the number of rows read,
    and the game's value when it is an int game small enough to solve now (else None); or
    None for any other game. O(n + k), plus O(n k) for the value of at most 128 steps."""
    cdef Row r
    cdef int64_t bounds[SHORT_GAME_COMPONENTS + 1]
    cdef Py_ssize_t k = 0, n_rows = 0
    cdef Kind kind = _read_game(rows, stacks, &r, bounds, &k, &n_rows)
    cdef array offsets
    cdef int64_t value
    cdef object answer = None
    if kind == NOT_SHORT:
        return None
    offsets = clone(_MOVES, k + 1, False)
    memcpy(offsets.data.as_longlongs, bounds, (k + 1) * sizeof(int64_t))
    # Component c is coins[bounds[c]:bounds[c + 1]]: the starts, and the stops one further.
    if kind == INTS and r.n * k <= EAGER_GAME_STEPS and not _game_value(
            r.ints, r.n, bounds, bounds + 1, k, n_rows, &value):
        answer = PyLong_FromLongLong(value)
    return memoryview(_coins_array(&r, kind)), offsets, n_rows, answer


cdef enum:
    # The longest row an Engine plays here. Each position's best move and value are
    # computed again from its coins (Fusion and Greedy, O(n)): some 15 ns for 8 random
    # coins, 90 ns for 64, where a move of the window structure (O(log n)) costs some 1 us
    # through the Python layers.
    SHORT_ENGINE = 64


cdef object _tuple_new = tuple.__new__


cdef inline bint _is_name(PyObject *item, const char *name) noexcept:
    """Whether ``item`` is a ``str`` (not a subclass) equal to ``name``."""
    if type(<object> item) is not str:
        return False
    return PyUnicode_CompareWithASCIIString(<object> item, name) == 0


cdef inline bint _is_int(PyObject *item, long long value) noexcept:
    """Whether ``item`` is an ``int`` (not a subclass, not a bool) equal to ``value``."""
    cdef int overflow = 0
    return (type(<object> item) is int and _as_long_long(<object> item, &overflow) == value
            and not overflow)


@cython.auto_pickle(False)  # an Engine pickles as its game and moves (Engine.__reduce__)
@cython.final
cdef class ShortEngine:
    """The state of an ``Engine`` of one short row of ints: the row's coins and the window
    ``[start, stop)`` still on the table, made by ``engine``. Every method is one atomic
    step (a critical section on free-threaded builds).

    The magnitudes of the coins sum to at most 2^63 - 1 (``engine`` checks it), so no
    reduced entry and no value of any window overflows int64: each is an alternating sum
    of coins."""

    cdef int64_t data[SHORT_ENGINE]
    cdef Py_ssize_t n, start, stop
    cdef object move_type
    # The best move and the value of the window, computed when first asked after a move.
    cdef bint solved, from_left
    cdef int64_t value_now

    cdef void _solve(self) noexcept:
        cdef int64_t values[SHORT_ENGINE]
        cdef Py_ssize_t segments[SHORT_ENGINE]
        cdef Py_ssize_t top = 0
        cdef int64_t value = 0
        self.from_left = True
        if self.start < self.stop:
            # Neither overflows (see the class): their flags are left unread.
            _reduce(self.data + self.start, self.stop - self.start, values, segments, &top)
            _value(values, top, &value)
            self.from_left = values[0] >= values[top - 1]
        self.value_now = value
        self.solved = True

    cdef object _move(self, bint from_left):
        """The Move taking the coin at the left or right end of the window."""
        cdef Py_ssize_t flat = self.start if from_left else self.stop - 1
        return _tuple_new(self.move_type, ("row", 0, "left" if from_left else "right", flat,
                                           PyLong_FromLongLong(self.data[flat])))

    cdef void _pop(self, bint from_left) noexcept:
        if from_left:
            self.start += 1
        else:
            self.stop -= 1
        self.solved = False

    @cython.critical_section
    def value(self):
        """``Engine.value()``: the value of the window, 0 when it is empty. O(n) after a
        move (the window reduced again), O(1) until the next."""
        if not self.solved:
            self._solve()
        return PyLong_FromLongLong(self.value_now)

    @cython.critical_section
    def best_move(self):
        """``Engine.best_move()``: the Move of the one tie rule, the end of the reduced
        window with the larger entry (left on ties). O(n) after a move, O(1) until the next.

        Raises
        ------
        ValueError
            If no coin is left (the message of the window structure's engine)."""
        if self.start == self.stop:
            raise ValueError("the game is over: no coin is left")
        if not self.solved:
            self._solve()
        return self._move(self.from_left)

    @cython.critical_section
    def take(self, move):
        """``Engine.take(move)`` of a move named as the engine names it: ``"left"`` or
        ``"right"`` (the Move is made), or a Move of the row's coin at that end with an int
        index, position and coin (returned as it is); None for any other move, which the
        caller checks (``Engine._short_take``). O(1)."""
        cdef Py_ssize_t flat
        cdef bint from_left
        cdef PyObject *end
        if self.start == self.stop:
            return None
        if type(move) is str:
            end = <PyObject *> move
        elif type(move) is self.move_type and PyTuple_GET_SIZE(move) == 5:
            if not (_is_name(PyTuple_GET_ITEM(move, 0), b"row")
                    and _is_int(PyTuple_GET_ITEM(move, 1), 0)):
                return None
            end = PyTuple_GET_ITEM(move, 2)
        else:
            return None
        if _is_name(end, b"left"):
            from_left = True
        elif _is_name(end, b"right"):
            from_left = False
        else:
            return None
        if type(move) is str:
            move = self._move(from_left)
        else:
            flat = self.start if from_left else self.stop - 1
            if not (_is_int(PyTuple_GET_ITEM(move, 3), flat)
                    and _is_int(PyTuple_GET_ITEM(move, 4), self.data[flat])):
                return None
        self._pop(from_left)
        return move

    @cython.critical_section
    def bounds(self):
        """``(start, stop)``: the window of the coins still on the table. O(1)."""
        return self.start, self.stop

    def __len__(self):
        return self.stop - self.start

    def coins(self):
        """Every coin of the row, taken or not, as an ``array('q')``. O(n)."""
        cdef array out = clone(_INTS, self.n, False)
        memcpy(out.data.as_longlongs, self.data, self.n * sizeof(int64_t))
        return out

    @cython.critical_section
    def copy(self):
        """An independent state at the same window. O(n)."""
        cdef ShortEngine twin = ShortEngine.__new__(ShortEngine)
        memcpy(twin.data, self.data, self.n * sizeof(int64_t))
        twin.n, twin.start, twin.stop = self.n, self.start, self.stop
        twin.move_type = self.move_type
        twin.solved = False
        return twin


def engine(row, move_type):
    """A ``ShortEngine`` of ``row``, a list or tuple of at most 64 ints within int64 whose
    magnitudes sum to at most 2^63 - 1 (its moves made as ``move_type``), else None. O(n)."""
    cdef ShortEngine state
    cdef Row r
    cdef Py_ssize_t i
    cdef int64_t total = 0, x
    cdef bint overflow = False
    if type(row) is not list and type(row) is not tuple or len(row) > SHORT_ENGINE:
        return None
    r.n = 0
    if _read_coins(row, &r, INTS) != INTS or r.n > SHORT_ENGINE:
        return None
    for i in range(r.n):
        x = r.ints[i]
        if x < 0:
            overflow |= sub_checked(<int64_t> 0, x, &x)
        overflow |= add_checked(total, x, &total)
    if overflow:
        return None
    state = ShortEngine.__new__(ShortEngine)
    memcpy(state.data, r.ints, r.n * sizeof(int64_t))
    state.n, state.start, state.stop = r.n, 0, r.n
    state.move_type = move_type
    state.solved = False
    return state
