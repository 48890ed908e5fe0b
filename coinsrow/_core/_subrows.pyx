# coinsrow._core._subrows: values of sub-rows (docs/subrows.md), built on the static forests of
# the window structure (docs/window.md).
#
# The reduced form of the coins between boundaries L < R is the par1 path from L up to the
# first node u with ns(u) > R (its decreasing side, the "left entries"), the par2 path from R
# up to the first node v with ps(v) < L (its increasing side read backwards, the "right
# entries"), and the bridge [u, v), the smallest block. Its value is the alternating sum of
# all these blocks in non-increasing order: a merge of two sorted lists.
#
# Each forest is cut into heavy paths (every root path crosses at most log2(n + 1) light
# edges), laid out bottom to top in "slots", one pad slot after each path. Along a path the
# block values (the keys K) do not increase and ns increases (ps decreases), so the two sides
# of a window are O(log n) slot ranges, found by binary search, and the merge proceeds in
# chunks: a chunk is a slot range of one heavy path X of forest 1 against a slot range of one
# heavy path Y of forest 2. A chunk is merged run by run (galloping searches), or, for the
# pairs (X, Y) whose merge interleaves a lot, read from the pair's table: the alternating
# prefix sums F of the merge of the whole of X and Y, kept every ``spacing`` merged entries
# (checkpoints). The worst case is O(sqrt(n) log n) a query; docs/subrows.md proves it.
#
# Numbers: every numeric step is one of six operations (a run of a path's alternating prefix
# sums added to a register, a difference of two checkpoints, a register added to the total,
# the bridge, a register cleared, a checkpoint stored). The machine structure performs them
# as it goes; the exact twin runs the same compiled planner on the ranks of its numbers,
# records the operations and performs them on Python numbers in the same order, so that
# floats agree bit for bit. int64: the heights stay below 2^59 (WINDOW_INT64_LIMIT), so no
# block (2^60) or alternating sum of sorted blocks (2^61) can overflow; the sums are checked
# all the same.

from coinsrow._core._types cimport *
from coinsrow._core._rows cimport _first_not_finite
from coinsrow._core._window_forests cimport _w_forests_counted, _w_heights
from coinsrow._core._signals cimport _forest_signals
from coinsrow._core._subrows_core cimport (_sr_core_bytes, _sr_core_free, _sr_core_layout,
                                           _sr_grown, _sr_numbers, _sr_value)

# The steps live in a module of their own, _subrows_core (heavy paths, keys, pairs and their
# tables; a query's merge); this module has the structure.


cdef class SubRows:
    """Values of sub-rows of one row (docs/subrows.md).

    Built in O(n log n) time plus the pair tables (their merges; O(n^1.5 log n) in the worst
    case, far less on the usual rows), in O(n) memory plus the checkpoints (at most (n + 1) / 4
    beyond two per table while that budget suffices, O(n log n) in the worst case). A query
    costs O(sqrt(n) log n) in the worst case, O(log n) to O(log^2 n) when the two sides of the
    sub-row interleave little.

    ``status`` is OK, OVERFLOW (int64 heights past WINDOW_INT64_LIMIT, float64 ones past
    1e300: use the exact twin, ``SubRowsExact``) or NOT_FINITE (``bad_index``).
    ``spacing`` and ``min_side`` (tests) set the proof's parameters G and m0 instead of
    choosing them from n.
    """

    cdef _SRCore core
    cdef bint is_float
    cdef int64_t *hi
    cdef double *hf
    cdef int64_t *ki[2]
    cdef double *kf[2]
    cdef int64_t *ai[2]
    cdef double *af[2]
    cdef int64_t *ti
    cdef double *tf
    cdef readonly int status
    cdef readonly int64_t bad_index

    def __cinit__(self, coins, int64_t spacing=0, int64_t min_side=0):
        cdef const int64_t[::1] ci
        cdef const double[::1] cf
        cdef int64_t n, nb, f, k, steps = 0
        cdef int st = OK
        cdef int64_t *ns = NULL
        cdef int64_t *ps = NULL
        cdef int64_t *par1 = NULL
        cdef int64_t *par2 = NULL
        cdef int64_t *stack0 = NULL
        cdef int64_t *stack1 = NULL
        cdef double magnitude = 0
        cdef _SRExec e
        memset(&self.core, 0, sizeof(_SRCore))
        memset(&e, 0, sizeof(_SRExec))
        self.is_float = memoryview(coins).format == "d"
        self.bad_index = -1
        if self.is_float:
            cf = coins
            n = cf.shape[0]
        else:
            ci = coins
            n = ci.shape[0]
        self.core.n = n
        nb = n + 1
        if self.is_float:
            self.hf = <double *> malloc(nb * sizeof(double))
        else:
            self.hi = <int64_t *> malloc(nb * sizeof(int64_t))
        if self.hf == NULL and self.hi == NULL:
            raise MemoryError()
        ns = <int64_t *> malloc(nb * sizeof(int64_t))
        ps = <int64_t *> malloc(nb * sizeof(int64_t))
        par1 = <int64_t *> malloc(nb * sizeof(int64_t))
        par2 = <int64_t *> malloc(nb * sizeof(int64_t))
        stack0 = <int64_t *> malloc(nb * sizeof(int64_t))
        stack1 = <int64_t *> malloc(nb * sizeof(int64_t))
        try:
            if (ns == NULL or ps == NULL or par1 == NULL or par2 == NULL or stack0 == NULL
                    or stack1 == NULL):
                raise MemoryError()
            with nogil:
                if self.is_float:
                    st = _w_heights(cf, 0, n, self.hf, &magnitude)
                    if st == NOT_FINITE:
                        self.bad_index = _first_not_finite(cf, 0, n)
                    elif st == OK:
                        _w_forests_counted(self.hf, 0, n, ns, ps, par1, par2, stack0, stack1,
                                           &steps)
                else:
                    st = _w_heights(ci, 0, n, self.hi, &magnitude)
                    if st == OK:
                        _w_forests_counted(self.hi, 0, n, ns, ps, par1, par2, stack0, stack1,
                                           &steps)
            self.status = st
            if st != OK:
                return
            with nogil:
                # The forests' stacks are the layout's scratch (fresh memory costs its page
                # faults: 2*10^7 random coins, about 0.1 s).
                st = _sr_core_layout(&self.core, n, ns, ps, par1, par2, stack0, stack1)
            if st != OK:
                raise MemoryError()
            # The keys and sums of the slots take over ns, ps and the two stacks, done with:
            # grown in place, their pages are not faulted in afresh (2*10^7 random coins:
            # 0.64 GB of fresh memory less).
            for f in range(2):
                k = self.core.side[f].nslots
                if self.is_float:
                    self.kf[f] = <double *> _sr_grown(&ns if f == 0 else &ps, k)
                    self.af[f] = <double *> _sr_grown(&stack0 if f == 0 else &stack1, k)
                    if self.kf[f] == NULL or self.af[f] == NULL:
                        raise MemoryError()
                else:
                    self.ki[f] = _sr_grown(&ns if f == 0 else &ps, k)
                    self.ai[f] = _sr_grown(&stack0 if f == 0 else &stack1, k)
                    if self.ki[f] == NULL or self.ai[f] == NULL:
                        raise MemoryError()
            with nogil:
                if self.is_float:
                    st = _sr_numbers(&self.core, self.hf, par1, par2, self.kf, self.af,
                                     &self.tf, spacing, min_side, &e)
                else:
                    st = _sr_numbers(&self.core, self.hi, par1, par2, self.ki, self.ai,
                                     &self.ti, spacing, min_side, &e)
            if st != OK:
                raise MemoryError()
        finally:
            free(ns)
            free(ps)
            free(par1)
            free(par2)
            free(stack0)
            free(stack1)

    def __dealloc__(self):
        cdef int f
        _sr_core_free(&self.core)
        free(self.hi)
        free(self.hf)
        free(self.ti)
        free(self.tf)
        for f in range(2):
            free(self.ki[f])
            free(self.kf[f])
            free(self.ai[f])
            free(self.af[f])

    def __len__(self):
        return self.core.n

    @property
    def table_pairs(self):
        """Pairs of heavy paths with a table."""
        return self.core.npairs

    @property
    def checkpoints(self):
        """Checkpoints of all tables."""
        return self.core.ncp

    @property
    def spacing(self):
        """Merged entries between two checkpoints of a table."""
        return (<int64_t> 1) << self.core.shift

    @property
    def memory(self):
        """Bytes held by the structure (0 unless ``status`` is OK)."""
        if self.status != OK:
            return 0
        return (_sr_core_bytes(&self.core) + 8 * (self.core.n + 1)
                + 16 * (self.core.side[0].nslots + self.core.side[1].nslots)
                + 8 * (self.core.ncp + 1))

    cdef inline bint _value(self, int64_t lo, int64_t hi, _SRExec *e, void *out) noexcept nogil:
        _sr_exec_reset(e)
        if lo >= hi:
            if self.is_float:
                (<double *> out)[0] = 0
            else:
                (<int64_t *> out)[0] = 0
            return True
        if self.is_float:
            _sr_value(&self.core, self.kf[0], self.kf[1], self.hf, self.af[0], self.af[1],
                      self.tf, lo, hi, e)
            (<double *> out)[0] = e.rf[_SR_TOTAL]
        else:
            _sr_value(&self.core, self.ki[0], self.ki[1], self.hi, self.ai[0], self.ai[1],
                      self.ti, lo, hi, e)
            (<int64_t *> out)[0] = e.ri[_SR_TOTAL]
        return not e.overflow

    def value(self, int64_t start, int64_t stop):
        """``(status, value)`` of coins[start:stop] (0 <= start <= stop <= n); the status is
        OVERFLOW when an intermediate sum leaves int64 (ask the exact twin). O(sqrt(n) log n)
        in the worst case."""
        cdef int64_t vi = 0
        cdef double vf = 0
        cdef bint ok
        cdef _SRExec e
        if self.status != OK:
            raise ValueError("the structure was not built (see status)")
        if not 0 <= start <= stop <= self.core.n:
            raise IndexError((start, stop))
        memset(&e, 0, sizeof(_SRExec))
        with nogil:
            if self.is_float:
                ok = self._value(start, stop, &e, <void *> &vf)
            else:
                ok = self._value(start, stop, &e, <void *> &vi)
        if not ok:
            return Status.OVERFLOW, None
        if self.is_float:
            return Status.OK, vf
        return Status.OK, vi

    def values(self, const int64_t[::1] starts, const int64_t[::1] stops, out, uint8_t[::1] ok):
        """Values of the sub-rows coins[starts[q]:stops[q]] into ``out`` (an int64 or float64
        buffer, like the coins). Bounds follow Python's slice convention (negative from the
        end, clamped). ``ok[q]`` is 0 where query q overflowed int64 (ask the exact twin).
        Returns ``(status, number of queries that overflowed)``, OVERFLOW when some did.
        Without the GIL; it is taken every few queries to honour Ctrl-C."""
        cdef Py_ssize_t q, m = starts.shape[0]
        cdef int64_t[::1] oi
        cdef double[::1] of
        cdef int64_t bad = 0, lo, hi
        cdef _SRExec e
        if self.status != OK:
            raise ValueError("the structure was not built (see status)")
        if stops.shape[0] != m or ok.shape[0] < m:
            raise ValueError("starts, stops and ok differ in length")
        memset(&e, 0, sizeof(_SRExec))
        if self.is_float:
            of = out
            if of.shape[0] < m:
                raise ValueError("output buffer is too short")
        else:
            oi = out
            if oi.shape[0] < m:
                raise ValueError("output buffer is too short")
        with nogil:
            for q in range(m):
                lo = _w_clamp(starts[q], self.core.n)
                hi = _w_clamp(stops[q], self.core.n)
                if self.is_float:
                    ok[q] = self._value(lo, hi, &e, <void *> &of[q])
                else:
                    ok[q] = self._value(lo, hi, &e, <void *> &oi[q])
                if not ok[q]:
                    bad += 1
                _forest_signals((q + 1) * _SR_STEPS_PER_QUERY)
        return (Status.OVERFLOW if bad else Status.OK), bad
