# coinsrow._core._rows_exact: the exact twins of _rows (rows and stacks), the same algorithm
# on Python numbers. On ints, Fraction and Decimal they are exact; on Python floats they round
# as the loops of _rows do (same operations, same order), and report OVERFLOW where those would.

from coinsrow._core._types cimport *
import heapq
import math
from fractions import Fraction as _Fraction
from coinsrow._core._rows cimport _total_coins
from coinsrow._core._signals cimport _gil_signals
from array import array as _row_array


# ---------------------------------------------------------------------------------------
# The exact twins: the same algorithm on Python numbers. On ints, Fraction and Decimal they
# are exact; on Python floats they round as the loops above do (same operations, same order),
# and report OVERFLOW where those would.


def check_finite_exact(list coins):
    """``check_finite`` on Python numbers."""
    cdef Py_ssize_t p
    for p in range(len(coins)):
        if type(coins[p]) is float and not isfinite(coins[p]):
            return Status.NOT_FINITE, p
    return Status.OK, None


cdef tuple _reduce_all_exact(list coins, const int64_t[::1] starts, const int64_t[::1] stops,
                             Py_ssize_t n_rows, bint want_segments):
    """Fusion and Fruitless on Python numbers; see ``_reduce_all_into``.

    Returns ``(fruitless, reduced)``: for each component a list
    ``[values, segments, left, right, stop, tail]``.
    """
    cdef Py_ssize_t k = starts.shape[0], c
    cdef int64_t n = 0, start, stop, top, tail
    cdef list values, segments, reduced = []
    cdef object fruitless = _zero_of(coins), t
    cdef bint n_odd
    for c in range(k):
        n += stops[c] - starts[c]
    n_odd = n & 1
    for c in range(k):
        start = starts[c]
        stop = stops[c]
        values = []
        segments = []
        _push_exact(coins, start, stop, values, segments)
        top = len(values)
        tail = stop
        if c >= n_rows:
            while top >= 2 and values[top - 2] <= values[top - 1]:
                t = values[top - 2] - values[top - 1]
                fruitless = fruitless - t if n_odd else fruitless + t
                top -= 2
            if top < len(values):
                tail = segments[top]
        reduced.append([values, segments if want_segments else None, 0, top - 1, stop, tail])
    return fruitless, reduced


cdef object _greedy_exact(list reduced, Py_ssize_t n_rows, object total, list play):
    """Greedy phase on Python numbers; see ``_greedy``. Appends ``(component, coin, end)``
    moves to ``play`` if it is not None."""
    cdef list heap = [], values, segments, comp
    cdef Py_ssize_t c, k = len(reduced)
    cdef int64_t left, right, e, seg_lo, seg_hi, p, taken = 0
    cdef bint plus = True, from_left, is_stack
    cdef int end_code
    for c in range(k):
        comp = reduced[c]
        values = comp[0]
        left = comp[2]
        right = comp[3]
        if left <= right:
            heap.append((-_head_exact(values, left, right, c >= n_rows), c))
    heapq.heapify(heap)
    while heap:
        taken += 1
        _gil_signals(taken)
        c = heapq.heappop(heap)[1]
        comp = reduced[c]
        values = comp[0]
        left = comp[2]
        right = comp[3]
        is_stack = c >= n_rows
        from_left = is_stack or values[left] >= values[right]
        if from_left:
            e = left
            left += 1
        else:
            e = right
            right -= 1
        comp[2] = left
        comp[3] = right
        total = total + values[e] if plus else total - values[e]
        plus = not plus
        if play is not None:
            segments = comp[1]
            seg_lo = segments[e]
            seg_hi = segments[e + 1] if e + 1 < len(segments) else comp[4]
            end_code = TOP if is_stack else (LEFT if from_left else RIGHT)
            if from_left:
                for p in range(seg_lo, seg_hi):
                    play.append((c, p, end_code))
            else:
                for p in range(seg_hi - 1, seg_lo - 1, -1):
                    play.append((c, p, end_code))
        if left <= right:
            heapq.heappush(heap, (-_head_exact(values, left, right, is_stack), c))
    if play is not None:
        for c in range(n_rows, k):
            comp = reduced[c]
            for p in range(comp[5], comp[4]):
                play.append((c, p, TOP))
    return total


cdef object _value_exact(list coins, const int64_t[::1] starts, const int64_t[::1] stops,
                         Py_ssize_t n_rows):
    cdef Py_ssize_t k = starts.shape[0], steps = 0
    cdef list values, entries, taken
    cdef int64_t left, right
    cdef int player = 0
    cdef object x, y, zero = _zero_of(coins), total = zero
    fruitless, reduced = _reduce_all_exact(coins, starts, stops, n_rows, False)
    if k == 1 and n_rows == 1:
        # As _one_row_greedy: each player's total, then their difference.
        values, left, right = reduced[0][0], reduced[0][2], reduced[0][3]
        taken = [zero, zero]
        while left <= right:
            steps += 1
            _gil_signals(steps)
            x = values[left]
            y = values[right]
            if x >= y:
                left += 1
            else:
                x = y
                right -= 1
            taken[player] = taken[player] + x
            player ^= 1
        total = taken[0] - taken[1]
    else:
        # As _alternating_sum_sorted: every remaining entry, largest first.
        entries = []
        for comp in reduced:
            entries.extend(comp[0][comp[2]:comp[3] + 1])
        entries.sort(reverse=True)
        for x in entries:
            steps += 1
            _gil_signals(steps)
            total = total + x if player == 0 else total - x
            player ^= 1
    return total + fruitless


def game_value_exact(list coins, const int64_t[::1] starts, const int64_t[::1] stops,
                     Py_ssize_t n_rows):
    """``game_value`` on Python numbers (ints of any size, floats, Fraction, Decimal)."""
    _total_coins(starts, stops)
    if starts.shape[0] == 0:
        return Status.OK, _zero_of(coins)
    status, bad = check_finite_exact(coins)
    if status != OK:
        return status, bad
    value = _value_exact(coins, starts, stops, n_rows)
    if _overflowed(value):
        return Status.OVERFLOW, None
    return Status.OK, value


cdef tuple _play_exact(list coins, const int64_t[::1] starts, const int64_t[::1] stops,
                       Py_ssize_t n_rows):
    """``(value, [(component, coin, end), ...])`` on Python numbers."""
    cdef list play = []
    fruitless, reduced = _reduce_all_exact(coins, starts, stops, n_rows, True)
    value = _greedy_exact(reduced, n_rows, _zero_of(coins), play) + fruitless
    return value, play


def game_play_exact(list coins, const int64_t[::1] starts, const int64_t[::1] stops,
                    Py_ssize_t n_rows, int64_t[::1] out_component, int64_t[::1] out_coin,
                    uint8_t[::1] out_end):
    """``game_play`` on Python numbers: the same play, written to the same buffers."""
    cdef int64_t total_coins = _total_coins(starts, stops), t
    if (out_component.shape[0] < total_coins or out_coin.shape[0] < total_coins
            or out_end.shape[0] < total_coins):
        raise ValueError("output buffers are shorter than the game")
    if total_coins == 0:
        return Status.OK, _zero_of(coins)
    status, bad = check_finite_exact(coins)
    if status != OK:
        return status, bad
    value, play = _play_exact(coins, starts, stops, n_rows)
    if _overflowed(value):
        return Status.OVERFLOW, None
    for t in range(total_coins):
        out_component[t], out_coin[t], out_end[t] = play[t]
    return Status.OK, value


cdef object _float_sum_exact(list xs):
    """The exact sum of Python floats rounded once, half to even, as ``ExactSum`` gives it:
    math.fsum, or where one of its partial sums leaves the float range (it raises there),
    the exact sum rounded once; +-inf beyond the float range."""
    try:
        return math.fsum(xs)
    except OverflowError:
        exact = sum([_Fraction(x) for x in xs], _Fraction(0))
        try:
            return float(exact)   # correctly rounded (a division of two ints)
        except OverflowError:
            return math.inf if exact > 0 else -math.inf


cdef object _owner_fsum(list coins, list play):
    """Each player's coins of a play of Python floats, summed exactly and rounded once."""
    return (_float_sum_exact([coins[move[1]] for move in play[0::2]]),
            _float_sum_exact([coins[move[1]] for move in play[1::2]]))


cdef tuple _profits_exact(object total, object value):
    """What each player takes, from the coins' sum and the game's value on exact numbers:
    (sum + value) / 2 (ints halve exactly, Fraction and Decimal divide exactly) and the
    rest. O(1)."""
    if type(total) is int:
        first = (total + value) // 2
    else:
        first = (total + value) / 2
    return first, total - first


cdef tuple _float_profits_answer(object value, tuple profits):
    """The answer of a profits twin on Python floats: OVERFLOW when the value or a player's
    rounded sum is beyond the float range, as in the machine kernel. O(1)."""
    if _overflowed(value) or _overflowed(profits[0]) or _overflowed(profits[1]):
        return Status.OVERFLOW, None
    return Status.OK, profits


def game_profits_exact(list coins, const int64_t[::1] starts, const int64_t[::1] stops,
                       Py_ssize_t n_rows):
    """``game_profits`` on Python numbers. Exact numbers: (sum + value) / 2 and the rest
    (ints halve exactly, Fraction and Decimal divide exactly); Python floats: each player's
    coins of the play, summed exactly and rounded once."""
    cdef Py_ssize_t c
    cdef object total = _zero_of(coins)
    total_coins = _total_coins(starts, stops)
    if total_coins == 0:
        return Status.OK, (total, total)
    status, bad = check_finite_exact(coins)
    if status != OK:
        return status, bad
    if type(_first_coin(coins, starts, stops)) is float:
        value, play = _play_exact(coins, starts, stops, n_rows)
        return _float_profits_answer(value, _owner_fsum(coins, play))
    value = _value_exact(coins, starts, stops, n_rows)
    for c in range(starts.shape[0]):
        for p in range(starts[c], stops[c]):
            total = total + coins[p]
    return Status.OK, _profits_exact(total, value)


cdef object _first_coin(list coins, const int64_t[::1] starts, const int64_t[::1] stops):
    cdef Py_ssize_t c
    for c in range(starts.shape[0]):
        if starts[c] < stops[c]:
            return coins[starts[c]]
    return 0


# -- the one-row twins ------------------------------------------------------------------------

cdef void _push_exact(list coins, Py_ssize_t lo, Py_ssize_t hi, list values,
                      list segments, list coin_segments=None) except *:
    """``_push_coins`` on Python numbers: coins[lo:hi] onto the reduced row (values,
    segments), each with Fusion; runs the signal handlers now and then. The first coin of
    coins[p] is p, or coin_segments[p] when given (entries of a reduced part). O(hi - lo)
    amortised."""
    cdef Py_ssize_t p, top
    cdef object v
    cdef int64_t seg
    for p in range(lo, hi):
        _gil_signals(p - lo + 1)
        v = coins[p]
        seg = p if coin_segments is None else coin_segments[p]
        top = len(values)
        while top >= 2 and values[top - 2] <= values[top - 1] and values[top - 1] > v:
            v = (values[top - 2] - values[top - 1]) + v
            seg = segments[top - 2]
            top -= 2
            del values[top:]
            del segments[top:]
        values.append(v)
        segments.append(seg)


cdef void _stitch_exact(list values, list segments, list part, list part_segments) except *:
    """``_stitch`` on Python numbers: the part's entries pushed onto (values, segments)
    until nothing more can fuse at the seam, then the rest appended."""
    cdef Py_ssize_t i = 0, m = len(part), top
    cdef object x
    while i < m:
        x = part[i]
        top = len(values)
        if not (top >= 2 and values[top - 2] <= values[top - 1] and values[top - 1] > x):
            if top == 0 or i + 1 >= m:
                break
            if not (values[top - 1] <= x and x > part[i + 1]):
                break
        _push_exact(part, i, i + 1, values, segments, part_segments)
        i += 1
    values.extend(part[i:])
    segments.extend(part_segments[i:])


cdef tuple _row_reduce_exact(list coins, Py_ssize_t parts):
    """The reduced row ``(values, segments)`` as the machine kernels compute it: in
    ``parts`` parts stitched in order when the numbers are exact (on Python floats the
    machine kernel's additions are only reordered where that changes nothing: one part)."""
    cdef Py_ssize_t n = len(coins), i
    cdef list values = [], segments = [], part, part_segments
    if parts < 1:
        raise ValueError("parts and threads must be at least 1")
    if parts > n:
        parts = n if n > 0 else 1
    if parts == 1 or type(coins[0]) is float:
        _push_exact(coins, 0, n, values, segments)
        return values, segments
    for i in range(parts):
        part = []
        part_segments = []
        _push_exact(coins, n * i // parts, n * (i + 1) // parts, part, part_segments)
        _stitch_exact(values, segments, part, part_segments)
    return values, segments


cdef list _row_order_exact(list values):
    """The Greedy order of a reduced row: ``[(entry, from_left), ...]`` (larger end first,
    the left one on ties)."""
    cdef Py_ssize_t left = 0, right = len(values) - 1, p = 0
    cdef list order = []
    while left <= right:
        p += 1
        _gil_signals(p)
        if values[left] >= values[right]:
            order.append((left, True))
            left += 1
        else:
            order.append((right, False))
            right -= 1
    return order


cdef object _row_value_from_exact(list values, list order):
    """Each player's entries in Greedy order summed, then the difference (plus zero, as
    the machine kernel: -0.0 becomes 0.0)."""
    cdef list taken = [0, 0]
    cdef int r = 0
    for k, _ in order:
        taken[r] = taken[r] + values[k]
        r ^= 1
    return (taken[0] - taken[1]) + 0


cdef list _row_play_from_exact(list segments, list order, Py_ssize_t n):
    """The coins of the play, turn by turn: each entry's run from its exposed end."""
    cdef list play = []
    cdef Py_ssize_t m = len(segments), lo, hi
    for k, from_left in order:
        lo = segments[k]
        hi = segments[k + 1] if k + 1 < m else n
        if from_left:
            play.extend(range(lo, hi))
        else:
            play.extend(range(hi - 1, lo - 1, -1))
    return play


cdef tuple _row_solved_exact(list coins, Py_ssize_t parts):
    """A row solved as the machine kernels solve it: the segments of its reduced row, the
    Greedy order of its entries and the value. O(n) amortised."""
    values, segments = _row_reduce_exact(coins, parts)
    order = _row_order_exact(values)
    return segments, order, _row_value_from_exact(values, order)


def row_value_exact(list coins, Py_ssize_t parts, Py_ssize_t threads,
                    bint sample=False):
    """``row_value`` on Python numbers (the parts one after the other; ``sample`` changes
    nothing here)."""
    if threads < 1:
        raise ValueError("parts and threads must be at least 1")
    if not coins:
        return Status.OK, 0
    status, bad = check_finite_exact(coins)
    if status != OK:
        return status, bad
    _, _, value = _row_solved_exact(coins, parts)
    if _overflowed(value):
        return Status.OVERFLOW, None
    return Status.OK, value


def row_profits_exact(list coins, Py_ssize_t parts, Py_ssize_t threads,
                      bint sample=False):
    """``row_profits`` on Python numbers: exact numbers (sum + value) / 2 and the rest;
    Python floats each player's coins of the play, summed exactly and rounded once."""
    cdef Py_ssize_t p
    cdef object total = 0
    if threads < 1:
        raise ValueError("parts and threads must be at least 1")
    if not coins:
        return Status.OK, (0, 0)
    status, bad = check_finite_exact(coins)
    if status != OK:
        return status, bad
    segments, order, value = _row_solved_exact(coins, parts)
    if type(coins[0]) is float:
        play = _row_play_from_exact(segments, order, len(coins))
        first = _float_sum_exact([coins[p] for p in play[0::2]])
        second = _float_sum_exact([coins[p] for p in play[1::2]])
        return _float_profits_answer(value, (first, second))
    for p in range(len(coins)):
        _gil_signals(p + 1)
        total = total + coins[p]
    return Status.OK, _profits_exact(total, value)


def row_play_exact(list coins, Py_ssize_t parts, Py_ssize_t threads,
                   bint sample=False):
    """``row_play`` on Python numbers: the same play."""
    cdef Py_ssize_t n = len(coins)
    if threads < 1:
        raise ValueError("parts and threads must be at least 1")
    if n == 0:
        return Status.OK, _row_array("q")
    status, bad = check_finite_exact(coins)
    if status != OK:
        return status, bad
    segments, order, value = _row_solved_exact(coins, parts)
    if _overflowed(value):
        return Status.OVERFLOW, None
    return Status.OK, _row_array("q", _row_play_from_exact(segments, order, n))
