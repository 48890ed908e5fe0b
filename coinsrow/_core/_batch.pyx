# coinsrow._core._batch: many one-row games at once (values_many, profits_many).
#
# Many independent one-row games in one call (values_many, profits_many). A batch is one flat
# buffer of coins and Arrow-style list offsets: game g is
# ``coins[offsets[g] - base : offsets[g + 1] - base]``. One call solves a whole range of games
# with the GIL released, so that a thread pool runs calls on several cores at once. Every game
# gets its own status, so that only the games whose int64 arithmetic overflowed are redone
# exactly on Python ints, and a NaN is reported with the game it is in.

from coinsrow._core._types cimport *
from coinsrow._core._row_helpers cimport (_first_not_finite, _one_row_float_profits,
                                          _one_row_greedy, _reduce)

from cpython.long cimport PyLong_AsLongLongAndOverflow
from array import array as _batch_array  # a name no other included file uses

ctypedef fused offset_t:
    int32_t
    int64_t


cdef enum:
    # Coins per slice of a batch that one scratch buffer serves: the reduced row is written
    # and read back while it is still in the core's cache. A longer game grows the buffer.
    _BATCH_SLICE = 8192


def batch_check_offsets(const offset_t[::1] offsets, int64_t n_coins, int64_t[::1] widened):
    """Check Arrow list offsets against a buffer of ``n_coins`` coins: ``(problem, index)``.

    ``problem`` (an ``OffsetsProblem``) is OFFSETS_OK, OFFSETS_EMPTY, OFFSETS_NEGATIVE
    (offsets[0] < 0), OFFSETS_DECREASING (offsets[index] > offsets[index + 1]) or
    OFFSETS_PAST_END (offsets[index] > n_coins, index being the last entry). offsets[0] may be
    positive: the coins before it belong to no game (a sliced Arrow array). When ``widened``
    is not empty (it must then be as long as ``offsets``), it receives the offsets as int64.
    O(games), without the GIL.
    """
    cdef Py_ssize_t n = offsets.shape[0], i
    cdef Py_ssize_t index = -1
    cdef int problem = 0
    cdef bint widen = widened.shape[0] > 0
    if n == 0:
        return OffsetsProblem.OFFSETS_EMPTY, 0
    if widen and widened.shape[0] != n:
        raise ValueError("widened must be as long as offsets")
    with nogil:
        if offsets[0] < 0:
            problem = OFFSETS_NEGATIVE
            index = 0
        else:
            for i in range(n - 1):
                if offsets[i] > offsets[i + 1]:
                    problem = OFFSETS_DECREASING
                    index = i
                    break
            if problem == 0 and offsets[n - 1] > n_coins:
                problem = OFFSETS_PAST_END
                index = n - 1
        if problem == 0 and widen:
            for i in range(n):
                widened[i] = offsets[i]
    return problem, index


def batch_solve(const coin_t[::1] coins, int64_t base, const int64_t[::1] offsets,
                Py_ssize_t first_game, Py_ssize_t stop_game,
                coin_t[::1] out_first, coin_t[::1] out_second, uint8_t[::1] out_status):
    """Solve the games ``first_game .. stop_game - 1`` of a batch: ``(status, payload)``.

    Game g is ``coins[offsets[g] - base : offsets[g + 1] - base]``, a row. With an empty
    ``out_second``, ``out_first[g]`` receives the value of game g; otherwise
    ``out_first[g]``, ``out_second[g]`` receive its profits. ``out_status[g]`` is OK,
    OVERFLOW (int64 overflow, or a float result beyond the float range, in game g: its
    outputs are meaningless, redo it exactly) or NOT_FINITE (a NaN or an infinity in
    game g). The answer is ``(NOT_FINITE, index in coins of the first bad coin)`` if some
    game has one, else ``(OVERFLOW, number of games to redo)`` if some overflowed, else
    ``(OK, 0)``.

    Each game is solved exactly as ``game_value`` and ``game_profits`` solve a one-row game,
    so that float results are bit for bit those of ``value`` and ``profits``. O(coins +
    games) time without the GIL; scratch memory for one slice of the batch (the longest game
    at most).
    """
    cdef bint profits = out_second.shape[0] > 0
    cdef Py_ssize_t g, h, q
    cdef int64_t first_bad = -1, bad
    cdef int64_t lo, hi, start, stop, top, p, n_overflow = 0
    cdef int64_t capacity = _BATCH_SLICE
    cdef coin_t *scratch = NULL
    cdef int64_t *segments = NULL
    cdef coin_t *grown
    cdef int64_t *grown_segments
    cdef const coin_t[::1] piece
    cdef const coin_t *piece_data
    cdef coin_t result, total, twice, first, second, zero = 0
    cdef double first_f, second_f
    cdef bint ovf, bad_range = False, no_memory = False
    cdef int status
    if not 0 <= first_game <= stop_game < offsets.shape[0]:
        raise ValueError("the games are outside the offsets")
    if (out_first.shape[0] < stop_game or out_status.shape[0] < stop_game
            or (profits and out_second.shape[0] < stop_game)):
        raise ValueError("the output buffers are shorter than the batch")
    if first_game == stop_game:
        return Status.OK, 0
    with nogil:
        # Checked here as well as by the caller: no call can read outside the coins.
        if offsets[first_game] < base or offsets[stop_game] - base > coins.shape[0]:
            bad_range = True
        else:
            for g in range(first_game, stop_game):
                if offsets[g] > offsets[g + 1]:
                    bad_range = True
                    break
        if not bad_range:
            scratch = <coin_t *> malloc(capacity * sizeof(coin_t))
            if coin_t is double:
                if profits:
                    segments = <int64_t *> malloc(capacity * sizeof(int64_t))
                    no_memory = segments == NULL
            no_memory = no_memory or scratch == NULL
            g = first_game
            while g < stop_game and not no_memory:
                # The slice: games g .. h - 1, as many as fit in the scratch (at least one).
                lo = offsets[g] - base
                h = g + 1
                while h < stop_game and offsets[h + 1] - base - lo <= capacity:
                    h += 1
                hi = offsets[h] - base
                if hi - lo > capacity:
                    grown = <coin_t *> realloc(scratch, (hi - lo) * sizeof(coin_t))
                    if grown == NULL:
                        no_memory = True
                        break
                    scratch = grown
                    if segments != NULL:
                        grown_segments = <int64_t *> realloc(segments,
                                                             (hi - lo) * sizeof(int64_t))
                        if grown_segments == NULL:
                            no_memory = True
                            break
                        segments = grown_segments
                    capacity = hi - lo
                # _reduce writes the reduced row at the coins' own indices: index the slice
                # from 0 so that the small scratch serves it.
                piece = coins[lo:hi]
                piece_data = &piece[0] if hi > lo else NULL
                for q in range(g, h):
                    start = offsets[q] - base - lo
                    stop = offsets[q + 1] - base - lo
                    ovf = False
                    if coin_t is double:
                        bad = _first_not_finite(piece, start, stop)
                        if bad >= 0:
                            out_status[q] = NOT_FINITE
                            if first_bad < 0:
                                first_bad = lo + bad
                            continue
                    if coin_t is double:
                        if profits:
                            status = _one_row_float_profits(piece, start, stop, scratch,
                                                            segments, &first_f, &second_f,
                                                            0.0)
                            if status == NO_MEMORY:
                                no_memory = True
                                break
                            out_first[q] = first_f
                            out_second[q] = second_f
                            ovf = status == OVERFLOW
                    if coin_t is int64_t or not profits:
                        top = _reduce(piece_data, start, stop, scratch, NULL, &ovf)
                        result = _one_row_greedy(scratch, start, top - 1, &ovf)
                        # As game_value: plus the (empty) Fruitless term, which turns -0.0
                        # into 0.0.
                        ovf |= add_checked(result, zero, &result)
                        ovf |= not _is_finite(result)
                        if profits:
                            total = 0
                            for p in range(start, stop):
                                ovf |= add_checked(total, piece[p], &total)
                            # Exact: twice = 2 * first whenever nothing overflowed.
                            ovf |= add_checked(total, result, &twice)
                            first = twice // 2
                            ovf |= sub_checked(total, first, &second)
                            out_first[q] = first
                            out_second[q] = second
                        else:
                            out_first[q] = result
                    if ovf:
                        out_status[q] = OVERFLOW
                        n_overflow += 1
                    else:
                        out_status[q] = OK
                g = h
            free(scratch)
            free(segments)
    if bad_range:
        raise ValueError("the offsets decrease or point outside the coins")
    if no_memory:
        raise MemoryError()
    if first_bad >= 0:
        return Status.NOT_FINITE, first_bad
    if n_overflow:
        return Status.OVERFLOW, n_overflow
    return Status.OK, 0


def batch_pack_int_lists(list rows):
    """Pack the games that are lists of Python ints within int64 into one int64 buffer.

    Returns ``(coins, offsets, packed)``: ``array('q')`` coins and offsets (Arrow layout, one
    entry per game of ``rows`` plus one) and a ``bytearray`` with ``packed[g] = 1`` for the
    games packed. Any other game (not a list, or with a coin that is not an int within int64:
    bool, float, big int, ...) gets an empty range and ``packed[g] = 0``: the caller solves
    it its own way. One C pass over the coins, instead of a Python-level check per row.
    """
    cdef Py_ssize_t n_games = len(rows), g
    cdef int64_t total = 0, pos = 0, start, checked = 0
    cdef long long x
    cdef int overflow
    cdef bint ok
    cdef object row, item
    offsets_array = _batch_array("q", bytes(8 * (n_games + 1)))
    packed_array = bytearray(n_games)
    cdef int64_t[::1] offsets = offsets_array
    cdef uint8_t[::1] packed = packed_array
    for g in range(n_games):
        row = rows[g]
        if type(row) is list:
            total += len(<list> row)
    coins_array = _batch_array("q", bytes(8 * total))
    cdef int64_t[::1] coins = coins_array
    for g in range(n_games):
        if pos - checked >= _BATCH_SLICE * 8:  # Ctrl-C every 2^16 coins or so
            checked = pos
            PyErr_CheckSignals()
        row = rows[g]
        start = pos
        if type(row) is list:
            ok = True
            for item in <list> row:
                # A list could have grown since it was counted (a finaliser run by the
                # allocation above): such a game is left to the caller, never overrun.
                if type(item) is not int or pos >= total:
                    ok = False
                    break
                x = PyLong_AsLongLongAndOverflow(item, &overflow)
                if overflow:
                    ok = False
                    break
                coins[pos] = x
                pos += 1
            if ok:
                packed[g] = 1
            else:
                pos = start
        offsets[g + 1] = pos
    return coins_array, offsets_array, packed_array
