# coinsrow._core._one_row: the one-row kernels row_value, row_profits and row_play: a row
# reduced on one thread or in parts on several (_row_stack), then its Greedy phase
# (_row_greedy). docs/rows.md.

from coinsrow._core._types cimport *

from coinsrow._core._scratch cimport _scratch, _scratch_free
from coinsrow._core._row_stack cimport (_OVERTAKE, _SAMPLE_COINS, _STOPPED, FloatSurvey,
                                        RowStack, RowSums, _pad_below, _place_runs,
                                        _reduce_part, _stitch, _unfused)
from coinsrow._core._row_greedy cimport (_float_survey, _row_float_profits_pieces,
                                         _row_play_pieces, _row_play_unfused, _row_value_float,
                                         _row_value_int)
from coinsrow._core._signals cimport _signals_now, coinsrow_store_flag
from coinsrow._core._row_helpers cimport _first_not_finite_at

from coinsrow._core._workers import run_on_threads
from array import array as _row_array
from cpython cimport array as _cpython_array

# The type of the moves ``row_play`` returns (cloned without being zeroed first).
cdef _cpython_array.array _MOVES_TEMPLATE = _row_array("q")


cdef int _raise_pending() except -1:
    """Raise the exception a signal handler set while a loop ran without the GIL."""
    if PyErr_Occurred() != NULL:
        return -1
    raise SystemError("a one-row kernel stopped without an exception")


cdef class _RowWork:
    """One call of a one-row kernel: the row's reduced form and its scratch memory.

    ``reduce(parts, threads)`` reduces the row: on one thread, coin after coin; or in
    ``parts`` parts at once on a pool of ``threads`` threads, stitched in order afterwards
    (``_stitch``). Part i's scratch starts after the coins of the parts before it and two
    entries of its own (``_push_coins`` may read them), so the row (part 0's scratch,
    growing) never overtakes a part it has not read yet. The worker threads keep this
    object, hence the scratch, alive: an interrupted call never frees memory a worker uses.
    """
    cdef object buffer            # the coins' buffer, kept alive
    cdef const void *coins
    cdef bint floats
    cdef int64_t n
    cdef bint want_segments
    cdef bint want_total
    cdef char *raw                # the scratch as allocated (_scratch: kept between calls)
    cdef int64_t *raw_segments
    cdef void *values             # the row's written entries: entry e at values[e]
    cdef int64_t *segments        # the first coin of each written entry's run, or NULL
    cdef RowStack row
    cdef RowSums sums             # int64: the whole row's (see RowSums)
    cdef int64_t bad_index
    cdef Py_ssize_t n_parts
    cdef Py_ssize_t n_stacks
    cdef int64_t *bounds
    cdef RowStack *stacks
    cdef RowSums *part_sums
    cdef FloatSurvey *surveys
    cdef int stop_flag

    def __cinit__(self, object buffer, bint floats, int64_t n, bint want_segments,
                  bint want_total):
        cdef const int64_t[::1] ints
        cdef const double[::1] doubles
        self.buffer = buffer
        self.floats = floats
        self.n = n
        if n > 0:
            if floats:
                doubles = buffer
                self.coins = &doubles[0]
            else:
                ints = buffer
                self.coins = &ints[0]
        self.want_segments = want_segments
        self.want_total = want_total
        self.bad_index = -1

    def __dealloc__(self):
        cdef Py_ssize_t i
        _scratch_free(self.raw)
        _scratch_free(self.raw_segments)
        free(self.bounds)
        if self.stacks != NULL:
            for i in range(self.n_stacks):
                free(self.stacks[i].runs)
        free(self.stacks)
        free(self.row.runs)
        free(self.part_sums)
        free(self.surveys)

    cdef int reduce(self, Py_ssize_t parts, Py_ssize_t threads, bint sample) except -1:
        """Reduce the row: OK, or NOT_FINITE (``bad_index``); raises what a signal handler
        raises (Ctrl-C), MemoryError. ``sample``: on several threads, first a sample of the
        parts decides whether the threads pay off (``_mostly_runs``)."""
        cdef Py_ssize_t i
        cdef int status = OK
        cdef int lowest = 1100
        cdef double magnitude = 0.0
        cdef bint mostly_runs
        if parts < 1 or threads < 1:
            raise ValueError("parts and threads must be at least 1")
        if parts > self.n:
            parts = self.n if self.n > 0 else 1
        self._cut(parts)
        if parts > 1 and self.floats:
            self._run(threads, True)
            for i in range(parts):
                if self.surveys[i].bad >= 0:
                    self.bad_index = self.surveys[i].bad
                    return NOT_FINITE
                if self.surveys[i].lowest < lowest:
                    lowest = self.surveys[i].lowest
                magnitude += self.surveys[i].magnitude
            # With every coin a multiple of 2**lowest and the sum of their magnitudes below
            # 2**(lowest + 53), every sum of coins with signs is a float: the additions are
            # exact in any order, so the parts give the one-thread answer bit for bit. (The
            # factor 2 covers the rounding of magnitude.) Otherwise: one part.
            if lowest < 1100 and not magnitude <= ldexp(1.0, lowest + 52):
                self._cut(1)
        elif self.floats:
            with nogil:
                self.bad_index = _first_not_finite_at(<const double *> self.coins, 0, self.n)
            if self.bad_index >= 0:
                return NOT_FINITE
        if self.n_parts > 1 and threads > 1 and sample:
            # Where the row is mostly runs (sorted stretches, read at memory speed), the
            # pool, the stitching and their memory traffic cost about what a second thread
            # saves, or more (the seam after a peak fuses for the whole descending side, on
            # one thread): a sample of each part decides, and such a row is reduced here.
            with nogil:
                mostly_runs = self._mostly_runs()
            if mostly_runs:
                self._cut(1)
        if self.n_parts == 1:
            with nogil:
                status = self._reduce_range(0, &self.stacks[0], &self.part_sums[0], NULL)
            if status == _STOPPED:
                _raise_pending()
            if status == NO_MEMORY:
                raise MemoryError()
            self._take_part_zero()
            return OK
        self._run(threads, False)
        with nogil:
            status = self._stitch_all()
        if status == NO_MEMORY or self.row.no_memory:
            raise MemoryError()
        return OK

    cdef bint _mostly_runs(self) noexcept nogil:
        """A sample says the row is mostly runs: each part's first _SAMPLE_COINS coins,
        reduced on their own (in the part's scratch), have at least 3/4 of them as
        entries of runs (unwritten, unfused)."""
        cdef Py_ssize_t i
        cdef int64_t lo, hi, sampled = 0, in_runs = 0
        cdef RowStack *st
        for i in range(self.n_parts):
            lo = self.bounds[i]
            hi = self.bounds[i + 1]
            if hi - lo > _SAMPLE_COINS:
                hi = lo + _SAMPLE_COINS
            st = &self.stacks[i]
            # stop_flag is never looked at: the sample is shorter than a step.
            self._reduce_span(i, lo, hi, st, &self.part_sums[i], &self.stop_flag)
            sampled += hi - lo
            in_runs += st.top - st.written
        return 4 * in_runs >= 3 * sampled

    cdef int _cut(self, Py_ssize_t parts) except -1:
        """Cut the row into ``parts`` parts and allocate their scratch."""
        cdef Py_ssize_t i
        cdef int64_t size = self.n + 2 * parts
        self.n_parts = parts
        free(self.bounds)
        _scratch_free(self.raw)
        _scratch_free(self.raw_segments)
        self.raw = NULL
        self.raw_segments = NULL
        self.bounds = <int64_t *> malloc((parts + 1) * sizeof(int64_t))
        # No huge pages: a row that rarely fuses touches its scratch in a few places only.
        self.raw = <char *> _scratch(size * 8, False)
        if self.want_segments:
            self.raw_segments = <int64_t *> _scratch(size * sizeof(int64_t), False)
        if (self.bounds == NULL or self.raw == NULL
                or (self.want_segments and self.raw_segments == NULL)):
            raise MemoryError()
        if self.stacks == NULL:
            self.stacks = <RowStack *> malloc(parts * sizeof(RowStack))
            self.part_sums = <RowSums *> malloc(parts * sizeof(RowSums))
            self.surveys = <FloatSurvey *> malloc(parts * sizeof(FloatSurvey))
            if self.stacks == NULL or self.part_sums == NULL or self.surveys == NULL:
                raise MemoryError()
            memset(self.stacks, 0, parts * sizeof(RowStack))
            self.n_stacks = parts
        for i in range(parts + 1):
            self.bounds[i] = self.n * i // parts
        self.values = self.raw + 16
        _pad_below(self.values, self.floats)  # the row's two readable entries below entry 0
        self.segments = self.raw_segments + 2 if self.want_segments else NULL
        return 0

    cdef void _take_part_zero(self) noexcept nogil:
        """The row is part 0 (its runs move to the row)."""
        self.row = self.stacks[0]
        self.sums = self.part_sums[0]
        self.stacks[0].runs = NULL
        self.stacks[0].capacity = 0
        self.stacks[0].n_runs = 0

    cdef int _run(self, Py_ssize_t threads, bint survey) except -1:
        """Run every part (``survey``: its float survey, else its reduction), in this
        thread (looking at signals between steps) or on ``threads`` threads started for the
        call (``_workers``: this thread waits, and Ctrl-C stops the parts)."""
        cdef Py_ssize_t i
        cdef int status
        task = self.survey_part if survey else self.reduce_part
        if threads <= 1:
            for i in range(self.n_parts):
                status = task(i, True)
                if status == _STOPPED:
                    _raise_pending()
                if status == NO_MEMORY:
                    raise MemoryError()
            return 0
        statuses = run_on_threads(
            (lambda i: task(i, False)), self.n_parts, threads, self.stop_parts)
        if NO_MEMORY in statuses:
            raise MemoryError()
        return 0

    def stop_parts(self):
        """Tell the parts running on threads to stop at their next step (Ctrl-C)."""
        coinsrow_store_flag(&self.stop_flag, 1)

    def reduce_part(self, Py_ssize_t i, bint in_caller):
        """Reduce part i on its own (a task on a thread): OK, NO_MEMORY or _STOPPED."""
        cdef int status
        with nogil:
            status = self._reduce_range(i, &self.stacks[i], &self.part_sums[i],
                                        NULL if in_caller else &self.stop_flag)
        return status

    def survey_part(self, Py_ssize_t i, bint in_caller):
        """The float survey of part i (a task on a thread)."""
        with nogil:
            _float_survey(<const double *> self.coins, self.bounds[i], self.bounds[i + 1],
                          &self.surveys[i])
        return OK

    cdef int64_t _offset(self, Py_ssize_t i) noexcept nogil:
        """Where part i's entry 0 is, counted from the row's entry 0."""
        return self.bounds[i] + 2 * i

    cdef int _reduce_range(self, Py_ssize_t i, RowStack *st, RowSums *sums,
                           int *stop_flag) noexcept nogil:
        return self._reduce_span(i, self.bounds[i], self.bounds[i + 1], st, sums, stop_flag)

    cdef int _reduce_span(self, Py_ssize_t i, int64_t lo, int64_t hi, RowStack *st,
                          RowSums *sums, int *stop_flag) noexcept nogil:
        """Reduce the coins [lo, hi) of part i on their own, in part i's scratch."""
        cdef int64_t offset = self._offset(i)
        cdef int64_t *segments = self.segments + offset if self.segments != NULL else NULL
        if i > 0:
            # The part's own two readable entries below its entry 0.
            _pad_below((<char *> self.values) + 8 * offset, self.floats)
        if self.floats:
            return _reduce_part(<const double *> self.coins, lo, hi,
                                <double *> self.values + offset, segments, st, sums, False,
                                stop_flag)
        return _reduce_part(<const int64_t *> self.coins, lo, hi,
                            <int64_t *> self.values + offset, segments, st, sums,
                            self.want_total, stop_flag)

    cdef int _stitch_all(self) noexcept nogil:
        """The parts' reduced forms, pushed in order onto the row's (parts reduced): OK or
        NO_MEMORY."""
        cdef Py_ssize_t i
        cdef int64_t offset, w
        cdef int status
        cdef RowSums *s
        cdef RowStack *part
        cdef void *part_values
        cdef int64_t *part_segments
        cdef void *copy = NULL
        cdef int64_t *copy_segments = NULL
        self._take_part_zero()
        for i in range(1, self.n_parts):
            offset = self._offset(i)
            part = &self.stacks[i]
            _place_runs(part)
            part_values = (<char *> self.values) + 8 * offset
            part_segments = self.segments + offset if self.segments != NULL else NULL
            w = part.written
            # Its written entries come after runs: where the seam fuses, the row could
            # overtake them while it pushes the part's first entries.
            status = self._stitch_one(part, part_values, part_segments,
                                      part.n_runs > 0 and w > 0)
            if status == _OVERTAKE:
                # Read them from a copy.
                copy = malloc(w * 8)
                if self.segments != NULL:
                    copy_segments = <int64_t *> malloc(w * sizeof(int64_t))
                if copy == NULL or (self.segments != NULL and copy_segments == NULL):
                    free(copy)
                    free(copy_segments)
                    return NO_MEMORY
                memcpy(copy, part_values, w * 8)
                if self.segments != NULL:
                    memcpy(copy_segments, part_segments, w * sizeof(int64_t))
                self._stitch_one(part, copy, copy_segments, False)
                free(copy)
                free(copy_segments)
                copy = NULL
                copy_segments = NULL
            if not self.floats:
                s = &self.part_sums[i]
                self.sums.overflow |= s.overflow
                # The part's parities are counted from its own first coin.
                if self.bounds[i] & 1:
                    self.sums.overflow |= add_checked(self.sums.even, s.odd, &self.sums.even)
                    self.sums.overflow |= add_checked(self.sums.odd, s.even, &self.sums.odd)
                else:
                    self.sums.overflow |= add_checked(self.sums.even, s.even, &self.sums.even)
                    self.sums.overflow |= add_checked(self.sums.odd, s.odd, &self.sums.odd)
                self.sums.overflow |= add_checked(self.sums.rest, s.rest, &self.sums.rest)
        return OK

    cdef int _stitch_one(self, RowStack *part, const void *part_values,
                         const int64_t *part_segments, bint may_overtake) noexcept nogil:
        if self.floats:
            return _stitch(<const double *> self.coins, <double *> self.values, self.segments,
                           &self.row, <const double *> part_values, part_segments, part,
                           may_overtake)
        return _stitch(<const int64_t *> self.coins, <int64_t *> self.values, self.segments,
                       &self.row, <const int64_t *> part_values, part_segments, part,
                       may_overtake)

    cdef bint unfused(self) noexcept nogil:
        """Nothing fused: the reduced row is the row itself."""
        return _unfused(&self.row, self.n)

cdef object _row_work(object coins, bint floats, Py_ssize_t parts, Py_ssize_t threads,
                      bint sample, bint want_segments, bint want_total):
    """A reduced row (``_RowWork``), or the index of its first NaN or infinity (an int)."""
    work = _RowWork(coins, floats, len(coins), want_segments, want_total)
    if work.reduce(parts, threads, sample) == NOT_FINITE:
        return work.bad_index
    return work


cdef int _row_work_value(_RowWork work, coin_t *value) except -1:
    """The value of a reduced row: OK or OVERFLOW (the GIL released while it runs)."""
    cdef bint ovf = work.row.overflow, whole_known = False
    cdef int64_t whole = 0
    cdef coin_t result = 0
    with nogil:
        if coin_t is int64_t:
            if work.unfused() and not work.sums.overflow:
                whole_known = not sub_checked(work.sums.even, work.sums.odd, &whole)
            _place_runs(&work.row)
            result = _row_value_int(<const int64_t *> work.coins, <const int64_t *> work.values,
                                    &work.row, whole_known, whole, &ovf)
        else:
            # Plus zero, as for a whole game (its empty Fruitless term): -0.0 becomes 0.0.
            _place_runs(&work.row)
            result = _row_value_float(<const double *> work.coins,
                                      <const double *> work.values, &work.row) + 0.0
    value[0] = result
    if ovf or not _is_finite(result):
        return OVERFLOW
    return OK


def row_value(const coin_t[::1] coins, Py_ssize_t parts, Py_ssize_t threads,
              bint sample=False):
    """The value of one row: ``(status, value or bad index)``.

    The row is reduced in ``parts`` parts at once on ``threads`` threads (1, 1: coin after
    coin in the calling thread) and the parts stitched; the answer, float rounding
    included, does not depend on either (float rows are cut only where every addition is
    exact). ``sample`` (``threads=None``): a sample of the parts first, and a row that is
    mostly runs is reduced on the calling thread (docs/rows.md). O(n) time, the Greedy
    phase O(m) for m reduced entries (O(1) when nothing fuses); extra memory one number per
    coin, written only where coins fuse. Ctrl-C stops it.
    """
    cdef coin_t value = 0
    cdef int status
    cdef _RowWork work
    if coins.shape[0] == 0:
        return Status.OK, value
    reply = _row_work(coins, coin_t is double, parts, threads, sample, False, False)
    if not isinstance(reply, _RowWork):
        return Status.NOT_FINITE, reply
    work = reply
    status = _row_work_value(work, &value)
    return status, value


def row_profits(const coin_t[::1] coins, Py_ssize_t parts, Py_ssize_t threads,
                bint sample=False):
    """What each player collects on one row: ``(status, (first, second) or bad index)``.

    int64: first = (sum + value) / 2, the sum taken in the same pass as the value. float64:
    each player's coins of the optimal play, summed exactly and rounded once. ``parts`` and
    ``threads`` as for ``row_value``. O(n).
    """
    cdef coin_t value = 0, total = 0, twice, first = 0, second = 0
    cdef int64_t part_sum = 0
    cdef double first_f = 0.0, second_f = 0.0
    cdef int status, result = OK
    cdef bint ovf = False
    cdef _RowWork work
    if coins.shape[0] == 0:
        return Status.OK, (first, second)
    reply = _row_work(coins, coin_t is double, parts, threads, sample, coin_t is double,
                      coin_t is int64_t)
    if not isinstance(reply, _RowWork):
        return Status.NOT_FINITE, reply
    work = reply
    status = _row_work_value(work, &value)
    with nogil:
        if coin_t is int64_t:
            # The sum: the unfused prefix's coins by parity, and the others (see RowSums).
            ovf = work.sums.overflow
            ovf |= add_checked(work.sums.even, work.sums.odd, &part_sum)
            ovf |= add_checked(part_sum, work.sums.rest, &total)
            # sum + value is twice what the first player takes: even, so halving is exact.
            ovf |= add_checked(total, value, &twice)
            first = twice // 2
            ovf |= sub_checked(total, first, &second)
            if ovf:
                status = OVERFLOW
        else:
            _place_runs(&work.row)
            result = _row_float_profits_pieces(<const double *> work.coins,
                                               <const double *> work.values, work.segments,
                                               &work.row, work.n, &first_f, &second_f)
            if result != OK:
                status = result
            first = first_f
            second = second_f
    if status == NO_MEMORY:
        raise MemoryError()
    return status, (first, second)


def row_play(const coin_t[::1] coins, Py_ssize_t parts, Py_ssize_t threads,
             bint sample=False):
    """An optimal play of one row: ``(status, moves or bad index)``, ``moves`` an
    ``array('q')`` of the index of the coin taken at each turn. ``parts`` and ``threads``
    as for ``row_value``; the play is the same whatever they are (one tie rule:
    docs/rows.md). OVERFLOW when a Fusion overflows (int64) or the value leaves the float
    range. O(n) time, two numbers of scratch per coin besides the moves."""
    cdef coin_t value = 0
    cdef int status
    cdef _RowWork work
    cdef int64_t n = coins.shape[0]
    moves = _cpython_array.clone(_MOVES_TEMPLATE, n, False)
    if n == 0:
        return Status.OK, moves
    cdef int64_t[::1] out_coin = moves
    reply = _row_work(coins, coin_t is double, parts, threads, sample, True, False)
    if not isinstance(reply, _RowWork):
        return Status.NOT_FINITE, reply
    work = reply
    if coin_t is int64_t:
        # The moves compare exact entries and add nothing: only an overflow of the Fusions
        # (inexact entries) matters, not one of the value's sums (the value, computed here
        # before for its status alone, took play() on the dealt valley, 10^6 coins, 3.47
        # ms against 2.87 without).
        status = OVERFLOW if work.row.overflow else OK
    else:
        status = _row_work_value(work, &value)
    with nogil:
        if work.unfused():
            _row_play_unfused(<const coin_t *> work.coins, 0, n, &out_coin[0])
        else:
            _place_runs(&work.row)
            _row_play_pieces(<const coin_t *> work.coins, <const coin_t *> work.values,
                             work.segments, &work.row, n, &out_coin[0], NULL)
    # Writing the moves runs at memory speed (10^7 coins: about half of the call, mostly the
    # page faults of the new array), without looking at signals.
    _signals_now()
    return status, moves
