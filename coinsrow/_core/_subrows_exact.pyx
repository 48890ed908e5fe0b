# coinsrow._core._subrows_exact: the exact twin of _subrows (values of sub-rows) on Python
# numbers.

from coinsrow._core._types cimport *
from coinsrow._core._signals cimport _forest_signals, _forest_signals_now
from coinsrow._core._subrows cimport (_SR_ACC, _SR_F, _SR_OP_ADD_ACC, _SR_OP_BRIDGE,
                                      _SR_OP_RUN, _SR_OP_TABLES, _SR_OP_ZERO, _SR_TOTAL, _SRCore,
                                      _SRExec, _sr_exec_reset, _w_clamp)
from coinsrow._core._subrows_core cimport (_sr_choose_pairs, _sr_core_bytes, _sr_core_free,
                                           _sr_core_layout, _sr_fill_tables, _sr_value)
from coinsrow._core._rows_exact cimport _zero_of
from coinsrow._core._rows_exact import check_finite_exact
from coinsrow._core._window_exact cimport _w_order
from coinsrow._core._window_forests cimport _F_LIMIT, _window_forests_into
from array import array as _window_array


# ---------------------------------------------------------------------------------------
# The exact twin. The compiled planner runs on int64 keys that order the blocks exactly as
# the numbers do (their ranks); the numeric operations it records are performed on Python
# numbers in the same order as the machine structure performs them.

cdef class SubRowsExact:
    """``SubRows`` on a list of Python numbers (ints of any size, floats, Fraction, Decimal):
    the same methods and bounds, a constant factor slower."""

    cdef _SRCore core
    cdef int64_t *keys[2]
    cdef list h
    cdef list alt1
    cdef list alt2
    cdef list T
    cdef object zero
    cdef _SRExec e
    cdef readonly int status
    cdef readonly int64_t bad_index

    # (Cython zeroes the C members of a new object: every pointer starts NULL.)

    def __init__(self, list coins, int64_t spacing=0, int64_t min_side=0):
        cdef int64_t n = len(coins), j, r, x, p, f, k, nb
        cdef list h, order, blocks, alt, K
        cdef object zero = _zero_of(coins)
        cdef double magnitude = 0
        cdef int st
        self.core.n = n
        self.status = OK
        self.bad_index = -1
        self.zero = zero
        status, bad = check_finite_exact(coins)
        if status != OK:
            self.status = status
            self.bad_index = bad
            return
        nb = n + 1
        h = [zero] * nb
        for j in range(n):
            h[j + 1] = coins[j] - h[j]
            _forest_signals(j)
            if type(coins[j]) is float:
                magnitude += fabs(coins[j])
        if not magnitude < _F_LIMIT:  # the machine structure's limit (floats only)
            self.status = OVERFLOW
            return
        self.h = h
        # The static forests from the ranks of the heights (ties by boundary: a stable sort).
        order = list(_w_order(h))  # looks at signals, as list.sort does not
        ranks = _window_array("q", bytes(8 * nb))
        cdef int64_t[::1] rank_view = ranks
        for r in range(nb):
            rank_view[order[r]] = r
        ns, ps, par1, par2 = [_window_array("q", bytes(8 * nb)) for _ in range(4)]
        _window_forests_into(ranks, ns, ps, par1, par2)
        cdef int64_t[::1] ns_v = ns, ps_v = ps, p1_v = par1, p2_v = par2
        with nogil:
            st = _sr_core_layout(&self.core, n, &ns_v[0], &ps_v[0], &p1_v[0], &p2_v[0], NULL,
                                 NULL)
        if st != OK:
            raise MemoryError()
        # Keys: the blocks of both forests ordered as the merge takes them (larger first; on
        # ties forest 0 first, then along the paths), key = count - rank.
        blocks = []
        for x in range(nb):
            _forest_signals(x)
            if p1_v[x] >= 0:
                blocks.append((h[x] + h[p1_v[x]], 0, x))
            if p2_v[x] >= 0:
                blocks.append((h[x] + h[p2_v[x]], 1, x))
        # Larger values first; on ties forest 0 (left entries) first; along forest 0 paths
        # nodes increase, along forest 1 paths they decrease.
        order = list(_w_order([(-b[0], b[1], b[2] if b[1] == 0 else -b[2]) for b in blocks]))
        blocks = [blocks[at] for at in order]
        for f in range(2):
            self.keys[f] = <int64_t *> malloc(self.core.side[f].nslots * sizeof(int64_t))
            if self.keys[f] == NULL:
                raise MemoryError()
            for k in range(self.core.side[f].nslots):
                self.keys[f][k] = 0
        for r in range(len(blocks)):
            _forest_signals(r)
            f = blocks[r][1]
            self.keys[f][self.core.side[f].slot[blocks[r][2]]] = len(blocks) - r
        # Alternating sums per path, as the machine structure computes them.
        for f in range(2):
            K = [zero] * self.core.side[f].nslots
            for k in range(self.core.side[f].nslots):
                _forest_signals(k)
                x = self.core.side[f].node[k]
                p = (p1_v[x] if f == 0 else p2_v[x]) if x >= 0 else -1
                if p >= 0:
                    K[k] = h[x] + h[p]
            alt = [zero] * self.core.side[f].nslots
            for p in range(self.core.side[f].npaths):
                _forest_signals(p)
                k = self.core.side[f].start[p]
                alt[k] = zero
                for j in range(self.core.side[f].weighted[p]):
                    alt[k + j + 1] = alt[k + j] + K[k + j] if j % 2 == 0 else alt[k + j] - K[k + j]
            if f == 0:
                self.alt1 = alt
            else:
                self.alt2 = alt
        st = _sr_choose_pairs(&self.core, self.keys[0], self.keys[1], spacing, min_side)
        if st != OK:
            raise MemoryError()
        self.T = [zero] * (self.core.ncp + 1)
        _sr_exec_reset(&self.e)
        self.e.record = True
        _sr_fill_tables(&self.core, self.keys[0], self.keys[1], <int64_t *> NULL,
                        <int64_t *> NULL, <int64_t *> NULL, &self.e)
        if self.e.nomem:
            raise MemoryError()
        self._replay()

    def __dealloc__(self):
        _sr_core_free(&self.core)
        free(self.keys[0])
        free(self.keys[1])
        free(self.e.ops)

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
        """Bytes of the compiled part (the Python numbers are not counted)."""
        if self.status != OK:
            return 0
        return _sr_core_bytes(&self.core) + 8 * (self.core.side[0].nslots
                                                 + self.core.side[1].nslots)

    cdef object _replay(self):
        """Perform the recorded operations on Python numbers: the total register."""
        cdef int64_t i, code, x, y, z, reg
        cdef int64_t *ops = self.e.ops
        cdef list regs = [self.zero, self.zero, self.zero]
        cdef list h = self.h, T = self.T, alt
        cdef object r
        for i in range(0, self.e.nops, 4):
            _forest_signals(i >> 2)
            code = ops[i]
            x = ops[i + 1]
            y = ops[i + 2]
            z = ops[i + 3]
            if code == _SR_OP_RUN:
                reg = x >> 2
                alt = self.alt1 if (x >> 1) & 1 == 0 else self.alt2
                r = alt[z] - alt[y]
                regs[reg] = regs[reg] - r if x & 1 else regs[reg] + r
            elif code == _SR_OP_TABLES:
                if x < 0:
                    regs[_SR_ACC] = self.zero
                    if y >= 0:
                        regs[_SR_ACC] = regs[_SR_ACC] - T[y]
                elif y < 0:
                    regs[_SR_ACC] = T[x]
                else:
                    regs[_SR_ACC] = T[x] - T[y]
            elif code == _SR_OP_ADD_ACC:
                if x:
                    regs[_SR_TOTAL] = regs[_SR_TOTAL] - regs[_SR_ACC]
                else:
                    regs[_SR_TOTAL] = regs[_SR_TOTAL] + regs[_SR_ACC]
            elif code == _SR_OP_BRIDGE:
                r = h[x] + h[y]
                regs[_SR_TOTAL] = regs[_SR_TOTAL] - r if z else regs[_SR_TOTAL] + r
            elif code == _SR_OP_ZERO:
                regs[_SR_F] = self.zero
            else:
                T[x] = regs[_SR_F]
        return regs[_SR_TOTAL]

    cdef object _value(self, int64_t lo, int64_t hi):
        if lo >= hi:
            return self.zero
        _sr_exec_reset(&self.e)
        self.e.record = True
        _sr_value(&self.core, self.keys[0], self.keys[1], <int64_t *> NULL, <int64_t *> NULL,
                  <int64_t *> NULL, <int64_t *> NULL, lo, hi, &self.e)
        if self.e.nomem:
            raise MemoryError()
        return self._replay()

    def value(self, int64_t start, int64_t stop):
        """``SubRows.value`` on Python numbers: ``(OK, value)``."""
        if self.status != OK:
            raise ValueError("the structure was not built (see status)")
        if not 0 <= start <= stop <= self.core.n:
            raise IndexError((start, stop))
        return Status.OK, self._value(start, stop)

    def values(self, const int64_t[::1] starts, const int64_t[::1] stops, list out,
               uint8_t[::1] ok):
        """``SubRows.values`` on Python numbers, into the list ``out``: ``(OK, 0)``."""
        cdef Py_ssize_t q, m = starts.shape[0]
        cdef int64_t lo, hi
        if self.status != OK:
            raise ValueError("the structure was not built (see status)")
        if stops.shape[0] != m or ok.shape[0] < m:
            raise ValueError("starts, stops and ok differ in length")
        if len(out) < m:
            raise ValueError("output buffer is too short")
        for q in range(m):
            lo = _w_clamp(starts[q], self.core.n)
            hi = _w_clamp(stops[q], self.core.n)
            out[q] = self._value(lo, hi if hi > lo else lo)
            ok[q] = 1
            _forest_signals_now()
        return Status.OK, 0
