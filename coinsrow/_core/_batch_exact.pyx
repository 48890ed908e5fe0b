# coinsrow._core._batch_exact: the exact twin of _batch (many one-row games) on Python
# numbers.

from coinsrow._core._types cimport *
from array import array as _batch_array
from coinsrow._core._rows_exact import game_profits_exact, game_value_exact


def batch_solve_exact(list coins, int64_t base, const int64_t[::1] offsets,
                      Py_ssize_t first_game, Py_ssize_t stop_game, list out_first,
                      list out_second, uint8_t[::1] out_status):
    """``batch_solve`` on Python numbers, into the lists ``out_first`` (and ``out_second``,
    when not empty): each game as ``game_value_exact`` / ``game_profits_exact`` solve it."""
    cdef bint profits = len(out_second) > 0
    cdef Py_ssize_t g
    cdef int64_t first_bad = -1, n_overflow = 0, start
    one = _batch_array("q", [0])
    if not 0 <= first_game <= stop_game < offsets.shape[0]:
        raise ValueError("the games are outside the offsets")
    if (len(out_first) < stop_game or out_status.shape[0] < stop_game
            or (profits and len(out_second) < stop_game)):
        raise ValueError("the output buffers are shorter than the batch")
    for g in range(first_game, stop_game):
        if offsets[g] > offsets[g + 1] or offsets[g] < base or offsets[g + 1] - base > len(coins):
            raise ValueError("the offsets decrease or point outside the coins")
    for g in range(first_game, stop_game):
        PyErr_CheckSignals()  # Ctrl-C: honoured between two games
        start = offsets[g] - base
        game = coins[start:offsets[g + 1] - base]
        stop = _batch_array("q", [len(game)])
        if profits:
            status, payload = game_profits_exact(game, one, stop, 1)
        else:
            status, payload = game_value_exact(game, one, stop, 1)
        out_status[g] = status
        if status == NOT_FINITE:
            if first_bad < 0:
                first_bad = start + payload
        elif status == OVERFLOW:
            n_overflow += 1
        elif profits:
            out_first[g], out_second[g] = payload
        else:
            out_first[g] = payload
    if first_bad >= 0:
        return Status.NOT_FINITE, first_bad
    if n_overflow:
        return Status.OVERFLOW, n_overflow
    return Status.OK, 0
