# Included by _core.pyx: values of sub-rows (docs/subrows.md), with the static forests of the
# window structure (docs/window.md).
#
# The kept boundaries of [L, R] are the par1-path from L while ns <= R and
# the par2-path from R while ps >= L, joined by the minimum block (docs/window.md).
# Along each path the blocks decrease, so the Greedy alternating sum merges two sorted runs:
# each run is one jump-pointer search plus a difference of alternating path sums.
#
# Jump pointers (Myers): every node keeps one extra ancestor, chosen so that the first node of
# a path with a monotone property is found in O(log n) steps with O(1) memory per node. For
# find_u the property "some node so far has ns > R" needs the max of ns over each jump.

cdef class SubRows:
    """Values of sub-rows of one row: built in O(n log n), each query O((1 + runs) log n).

    ``status`` is OK, OVERFLOW (int64 heights past WINDOW_INT64_LIMIT, float64 ones past
    1e300: use the exact twin, ``SubRowsExact``) or NOT_FINITE (``bad_index``).
    """

    cdef bint is_float
    cdef int64_t n
    cdef int64_t *hi
    cdef double *hf
    cdef int64_t *ns
    cdef int64_t *ps
    cdef int64_t *par[2]
    cdef int64_t *depth[2]
    cdef int64_t *jump[2]
    cdef int64_t *agg[2]
    cdef int64_t *pi[2]
    cdef double *pf[2]
    cdef readonly int status
    cdef readonly int64_t bad_index

    def __cinit__(self, coins):
        cdef const int64_t[::1] ci
        cdef const double[::1] cf
        cdef int64_t n, nb, f
        cdef int st = OK
        cdef int64_t *stack0 = NULL
        cdef int64_t *stack1 = NULL
        cdef double magnitude = 0
        self.is_float = memoryview(coins).format == "d"
        self.bad_index = -1
        if self.is_float:
            cf = coins
            n = cf.shape[0]
        else:
            ci = coins
            n = ci.shape[0]
        self.n = n
        nb = n + 1
        self.ns = <int64_t *> malloc(nb * sizeof(int64_t))
        self.ps = <int64_t *> malloc(nb * sizeof(int64_t))
        stack0 = <int64_t *> malloc(nb * sizeof(int64_t))
        stack1 = <int64_t *> malloc(nb * sizeof(int64_t))
        for f in range(2):
            self.par[f] = <int64_t *> malloc(nb * sizeof(int64_t))
            self.depth[f] = <int64_t *> malloc(nb * sizeof(int64_t))
            self.jump[f] = <int64_t *> malloc(nb * sizeof(int64_t))
            self.agg[f] = <int64_t *> malloc(nb * sizeof(int64_t))
            if self.is_float:
                self.pf[f] = <double *> malloc(nb * sizeof(double))
                self.pi[f] = NULL
            else:
                self.pi[f] = <int64_t *> malloc(nb * sizeof(int64_t))
                self.pf[f] = NULL
        if self.is_float:
            self.hf = <double *> malloc(nb * sizeof(double))
        else:
            self.hi = <int64_t *> malloc(nb * sizeof(int64_t))
        if (self.ns == NULL or self.ps == NULL or stack0 == NULL or stack1 == NULL
                or (self.hf == NULL and self.hi == NULL)):
            free(stack0)
            free(stack1)
            raise MemoryError()
        for f in range(2):
            if (self.par[f] == NULL or self.depth[f] == NULL or self.jump[f] == NULL
                    or self.agg[f] == NULL or (self.pf[f] == NULL and self.pi[f] == NULL)):
                free(stack0)
                free(stack1)
                raise MemoryError()
        with nogil:
            if self.is_float:
                st = _w_heights(cf, 0, n, self.hf, &magnitude)
                if st == NOT_FINITE:
                    self.bad_index = _first_not_finite(cf, 0, n)
                else:
                    _w_forests(self.hf, 0, n, self.ns, self.ps, self.par[0], self.par[1],
                             stack0, stack1)
                    _w_path_tables(self, self.hf, self.pf[0], self.pf[1])
            else:
                st = _w_heights(ci, 0, n, self.hi, &magnitude)
                if st == OK:
                    _w_forests(self.hi, 0, n, self.ns, self.ps, self.par[0], self.par[1],
                             stack0, stack1)
                    _w_path_tables(self, self.hi, self.pi[0], self.pi[1])
        free(stack0)
        free(stack1)
        self.status = (st)

    def __dealloc__(self):
        cdef int f
        free(self.hi)
        free(self.hf)
        free(self.ns)
        free(self.ps)
        for f in range(2):
            free(self.par[f])
            free(self.depth[f])
            free(self.jump[f])
            free(self.agg[f])
            free(self.pi[f])
            free(self.pf[f])

    def __len__(self):
        return self.n

    def value(self, int64_t start, int64_t stop):
        """``(status, value)`` of coins[start:stop] (0 <= start <= stop <= n); the status is
        OVERFLOW when an intermediate sum leaves int64 (ask the exact twin)."""
        cdef int64_t vi = 0
        cdef double vf = 0
        cdef bint ok
        if not 0 <= start <= stop <= self.n:
            raise IndexError((start, stop))
        with nogil:
            if self.is_float:
                ok = _w_subrow_value(self, self.hf, self.pf[0], self.pf[1], start, stop, &vf)
            else:
                ok = _w_subrow_value(self, self.hi, self.pi[0], self.pi[1], start, stop, &vi)
        if not ok:
            return Status.OVERFLOW, None
        if self.is_float:
            return Status.OK, vf
        return Status.OK, vi

    def values(self, const int64_t[::1] starts, const int64_t[::1] stops, out, uint8_t[::1] ok):
        """Values of the sub-rows coins[starts[q]:stops[q]] into ``out`` (an int64 or float64
        buffer, like the coins). Bounds follow Python's slice convention (negative from the
        end, clamped). ``ok[q]`` is 0 where query q overflowed int64 (ask the exact twin).
        Returns ``(status, number of queries that overflowed)``, OVERFLOW when some did."""
        cdef Py_ssize_t q, m = starts.shape[0]
        cdef int64_t[::1] oi
        cdef double[::1] of
        cdef int64_t bad = 0, lo, hi
        if stops.shape[0] != m or ok.shape[0] < m:
            raise ValueError("starts, stops and ok differ in length")
        if self.is_float:
            of = out
            if of.shape[0] < m:
                raise ValueError("output buffer is too short")
            with nogil:
                for q in range(m):
                    lo = _w_clamp(starts[q], self.n)
                    hi = _w_clamp(stops[q], self.n)
                    ok[q] = _w_subrow_value(self, self.hf, self.pf[0], self.pf[1],
                                            lo, hi if hi > lo else lo, &of[q])
        else:
            oi = out
            if oi.shape[0] < m:
                raise ValueError("output buffer is too short")
            with nogil:
                for q in range(m):
                    lo = _w_clamp(starts[q], self.n)
                    hi = _w_clamp(stops[q], self.n)
                    ok[q] = _w_subrow_value(self, self.hi, self.pi[0], self.pi[1],
                                            lo, hi if hi > lo else lo, &oi[q])
                    if not ok[q]:
                        bad += 1
        return (Status.OVERFLOW if bad else Status.OK), bad


cdef inline int64_t _w_clamp(int64_t i, int64_t n) noexcept nogil:
    """A slice bound (negative counts from the end) clamped to 0..n, as Python slices do."""
    if i < 0:
        i += n
        if i < 0:
            i = 0
    if i > n:
        i = n
    return i


cdef void _w_path_tables(SubRows s, coin_t *h, coin_t *p1, coin_t *p2) noexcept nogil:
    """Depths, jump pointers, their ns-max / ps-min, and alternating path sums of both forests.

    Forest 0 (par1) has parents to the right, forest 1 (par2) to the left, so one sweep in
    each direction sees every parent before its children.
    """
    cdef int64_t n = s.n, x, p, jp, f, i
    cdef int64_t *par
    cdef int64_t *depth
    cdef int64_t *jump
    cdef int64_t *agg
    cdef int64_t *key
    cdef coin_t *P
    for f in range(2):
        par = s.par[f]
        depth = s.depth[f]
        jump = s.jump[f]
        agg = s.agg[f]
        P = p1 if f == 0 else p2
        key = s.ns if f == 0 else s.ps
        for i in range(n + 1):
            x = n - i if f == 0 else i
            p = par[x]
            if p < 0:
                depth[x] = 0
                jump[x] = x
                agg[x] = key[x]
                P[x] = 0
                continue
            depth[x] = depth[p] + 1
            # P[x] = w(x) - P[p]: alternating sum of the blocks from x up to the root.
            P[x] = h[x] + h[p] - P[p]
            jp = jump[p]
            if par[p] >= 0 and depth[p] - depth[jp] == depth[jp] - depth[jump[jp]]:
                jump[x] = jump[jp]
                if f == 0:
                    agg[x] = _w_imax(key[p], _w_imax(agg[p], agg[jp]))
                else:
                    agg[x] = _w_imin(key[p], _w_imin(agg[p], agg[jp]))
            else:
                jump[x] = p
                agg[x] = key[p]


cdef inline int64_t _w_imax(int64_t a, int64_t b) noexcept nogil:
    return a if a >= b else b


cdef inline int64_t _w_imin(int64_t a, int64_t b) noexcept nogil:
    return a if a <= b else b


cdef inline int64_t _w_path_end(SubRows s, int f, int64_t x, int64_t bound) noexcept nogil:
    """First node z on x's path with ns(z) > bound (f = 0) or ps(z) < bound (f = 1)."""
    cdef int64_t *par = s.par[f]
    cdef int64_t *jump = s.jump[f]
    cdef int64_t *agg = s.agg[f]
    if f == 0:
        while s.ns[x] <= bound:
            if jump[x] != x and agg[x] <= bound:
                x = jump[x]
            else:
                x = par[x]
    else:
        while s.ps[x] >= bound:
            if jump[x] != x and agg[x] >= bound:
                x = jump[x]
            else:
                x = par[x]
    return x


cdef inline bint _w_run_stops(coin_t *h, int64_t *par, int64_t *depth, int64_t z,
                            int64_t stop_depth, bint has_threshold, coin_t threshold) noexcept nogil:
    return depth[z] <= stop_depth or (has_threshold and h[z] + h[par[z]] < threshold)


cdef int64_t _w_run_end(SubRows s, coin_t *h, int f, int64_t x, int64_t stop_depth,
                      bint has_threshold, coin_t threshold) noexcept nogil:
    """First node z on x's path at depth <= stop_depth or whose block is below threshold
    (both properties are monotone along the path: blocks decrease towards the root)."""
    cdef int64_t *par = s.par[f]
    cdef int64_t *jump = s.jump[f]
    cdef int64_t *depth = s.depth[f]
    cdef int64_t j
    while not _w_run_stops(h, par, depth, x, stop_depth, has_threshold, threshold):
        j = jump[x]
        if not _w_run_stops(h, par, depth, j, stop_depth, has_threshold, threshold):
            x = j
        else:
            x = par[x]
    return x


cdef bint _w_subrow_value(SubRows s, coin_t *h, coin_t *p1, coin_t *p2, int64_t lo, int64_t hi,
                        coin_t *out) noexcept nogil:
    """The value of the coins between boundaries lo and hi; False on int64 overflow."""
    cdef int64_t u, v, x, y, z, du, dv, length
    cdef coin_t total = 0, dx, dy, run, t
    cdef bint plus = True, ovf = False, has_x, has_y
    if lo == hi:
        out[0] = 0
        return True
    u = _w_path_end(s, 0, lo, hi)
    v = _w_path_end(s, 1, hi, lo)
    du = s.depth[0][u]
    dv = s.depth[1][v]
    x = lo
    y = hi
    while True:
        has_x = x != u
        has_y = y != v
        if not has_x and not has_y:
            break
        if has_x:
            dx = h[x] + h[s.par[0][x]]
        if has_y:
            dy = h[y] + h[s.par[1][y]]
        if has_x and (not has_y or dx >= dy):
            z = _w_run_end(s, h, 0, x, du, has_y, dy)
            length = s.depth[0][x] - s.depth[0][z]
            if length & 1:
                ovf |= add_checked(p1[x], p1[z], &run)
            else:
                ovf |= sub_checked(p1[x], p1[z], &run)
            x = z
        else:
            z = _w_run_end(s, h, 1, y, dv, has_x, dx)
            length = s.depth[1][y] - s.depth[1][z]
            if length & 1:
                ovf |= add_checked(p2[y], p2[z], &run)
            else:
                ovf |= sub_checked(p2[y], p2[z], &run)
            y = z
        if plus:
            ovf |= add_checked(total, run, &total)
        else:
            ovf |= sub_checked(total, run, &total)
        if length & 1:
            plus = not plus
    # The bridge between the two paths is the minimum block: it comes last.
    t = h[u] + h[v]
    if plus:
        ovf |= add_checked(total, t, &total)
    else:
        ovf |= sub_checked(total, t, &total)
    out[0] = total
    return not ovf


# ---------------------------------------------------------------------------------------
# The exact twin: the same structure on Python numbers. The static forests depend only on the
# order of the keys (h[t], t): the compiled loop builds them from the keys' ranks. Path sums
# and block comparisons use the Python heights, in the same order as _w_subrow_value.

cdef class SubRowsExact:
    """``SubRows`` on a list of Python numbers (ints of any size, floats, Fraction, Decimal):
    the same methods and bounds, a constant factor slower."""

    cdef int64_t n
    cdef list h
    cdef object ns, ps
    cdef tuple par
    cdef list depth, jump, agg, P
    cdef readonly int status
    cdef readonly int64_t bad_index

    def __init__(self, list coins):
        cdef int64_t n = len(coins), j, r, x, p, jp, f
        cdef object zero = _zero_of(coins)
        cdef list h = [zero] * (n + 1), order, depth, jump, agg, P
        self.n = n
        self.status = OK
        self.bad_index = -1
        status, bad = check_finite_exact(coins)
        if status != OK:
            self.status = status
            self.bad_index = bad
            return
        cdef double magnitude = 0
        for j in range(n):
            h[j + 1] = coins[j] - h[j]
            if type(coins[j]) is float:
                magnitude += fabs(coins[j])
        if not magnitude < _F_LIMIT:  # the machine structure's limit (floats only)
            self.status = OVERFLOW
            return
        self.h = h
        order = sorted(range(n + 1), key=h.__getitem__)  # stable: ties by boundary
        ranks = _window_array("q", bytes(8 * (n + 1)))
        cdef int64_t[::1] rank_view = ranks
        for r in range(n + 1):
            rank_view[order[r]] = r
        ns, ps, par1, par2 = (_window_array("q", bytes(8 * (n + 1))) for _ in range(4))
        _window_forests_into(ranks, ns, ps, par1, par2)
        self.ns, self.ps = ns, ps
        self.par = (par1, par2)
        self.depth, self.jump, self.agg, self.P = [], [], [], []
        for f in range(2):
            par = self.par[f]
            key = ns if f == 0 else ps
            depth = [0] * (n + 1)
            jump = list(range(n + 1))
            agg = list(key)
            P = [zero] * (n + 1)
            for x in (range(n, -1, -1) if f == 0 else range(n + 1)):
                p = par[x]
                if p < 0:
                    continue
                depth[x] = depth[p] + 1
                P[x] = h[x] + h[p] - P[p]
                jp = jump[p]
                if par[p] >= 0 and depth[p] - depth[jp] == depth[jp] - depth[jump[jp]]:
                    jump[x] = jump[jp]
                    agg[x] = (max if f == 0 else min)(key[p], agg[p], agg[jp])
                else:
                    jump[x] = p
                    agg[x] = key[p]
            self.depth.append(depth)
            self.jump.append(jump)
            self.agg.append(agg)
            self.P.append(P)

    def __len__(self):
        return self.n

    cdef int64_t _path_end(self, int f, int64_t x, int64_t bound):
        cdef object par = self.par[f]
        cdef list jump = self.jump[f], agg = self.agg[f]
        if f == 0:
            while self.ns[x] <= bound:
                x = jump[x] if jump[x] != x and agg[x] <= bound else par[x]
        else:
            while self.ps[x] >= bound:
                x = jump[x] if jump[x] != x and agg[x] >= bound else par[x]
        return x

    cdef bint _run_stops(self, int f, int64_t z, int64_t stop_depth, object threshold):
        return self.depth[f][z] <= stop_depth or (
            threshold is not None and self.h[z] + self.h[self.par[f][z]] < threshold)

    cdef int64_t _run_end(self, int f, int64_t x, int64_t stop_depth, object threshold):
        cdef int64_t j
        cdef object par = self.par[f]
        while not self._run_stops(f, x, stop_depth, threshold):
            j = self.jump[f][x]
            x = j if not self._run_stops(f, j, stop_depth, threshold) else par[x]
        return x

    cdef object _value(self, int64_t lo, int64_t hi):
        cdef int64_t u, v, du, dv, x, y, z, length
        cdef list h = self.h, P1 = self.P[0], P2 = self.P[1]
        cdef object par1 = self.par[0], par2 = self.par[1]
        cdef object total = self.h[0], dx, dy, run
        cdef bint plus = True
        if lo >= hi:
            return self.h[0]  # the zero of the coins
        u = self._path_end(0, lo, hi)
        v = self._path_end(1, hi, lo)
        du, dv = self.depth[0][u], self.depth[1][v]
        x, y = lo, hi
        while x != u or y != v:
            dx = h[x] + h[par1[x]] if x != u else None
            dy = h[y] + h[par2[y]] if y != v else None
            if dx is not None and (dy is None or dx >= dy):
                z = self._run_end(0, x, du, dy)
                length = self.depth[0][x] - self.depth[0][z]
                run = P1[x] + P1[z] if length & 1 else P1[x] - P1[z]
                x = z
            else:
                z = self._run_end(1, y, dv, dx)
                length = self.depth[1][y] - self.depth[1][z]
                run = P2[y] + P2[z] if length & 1 else P2[y] - P2[z]
                y = z
            total = total + run if plus else total - run
            if length & 1:
                plus = not plus
        bridge = h[u] + h[v]  # the minimum block comes last
        return total + bridge if plus else total - bridge

    def value(self, int64_t start, int64_t stop):
        """``SubRows.value`` on Python numbers: ``(OK, value)``."""
        if not 0 <= start <= stop <= self.n:
            raise IndexError((start, stop))
        return Status.OK, self._value(start, stop)

    def values(self, const int64_t[::1] starts, const int64_t[::1] stops, list out,
               uint8_t[::1] ok):
        """``SubRows.values`` on Python numbers, into the list ``out``: ``(OK, 0)``."""
        cdef Py_ssize_t q, m = starts.shape[0]
        cdef int64_t lo, hi
        if stops.shape[0] != m or ok.shape[0] < m:
            raise ValueError("starts, stops and ok differ in length")
        if len(out) < m:
            raise ValueError("output buffer is too short")
        for q in range(m):
            lo = _w_clamp(starts[q], self.n)
            hi = _w_clamp(stops[q], self.n)
            out[q] = self._value(lo, hi if hi > lo else lo)
            ok[q] = 1
            if q & 4095 == 4095:
                PyErr_CheckSignals()
        return Status.OK, 0
