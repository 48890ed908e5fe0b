# Stub of the compiled module coinsrow._core (coinsrow/_core.pyx and the .pxi files it
# includes). Checked against the built module by tests/test_typing.py (mypy.stubtest).
#
# The machine-number kernels are Cython fused functions over int64 and float64: ``coins``
# is any C-contiguous 1-D buffer of format "q" (int64) or "d" (float64); ``starts``,
# ``stops`` and the play output buffers are C-contiguous int64 buffers ("q"), ``out_end``
# uint8 ("B"). Buffers are typed as ``Buffer`` (the buffer protocol, PEP 688): a memoryview,
# an array.array or a NumPy array of the right dtype; the format is checked at run time.
#
# Kernels added in a .pxi file: append their stubs below, in a section named after the file.

from typing import Any, Final

from typing_extensions import Buffer

STATUS_OK: Final[int]
STATUS_OVERFLOW: Final[int]
STATUS_NOT_FINITE: Final[int]

END_LEFT: Final[int]
END_RIGHT: Final[int]
END_TOP: Final[int]

def game_value(
    coins: Buffer, starts: Buffer, stops: Buffer, n_rows: int
) -> tuple[int, int | float, int]:
    """``(status, value, bad_index)``; value is an int for int64 coins, a float for float64."""

def game_play(
    coins: Buffer,
    starts: Buffer,
    stops: Buffer,
    n_rows: int,
    out_component: Buffer,
    out_coin: Buffer,
    out_end: Buffer,
) -> tuple[int, int | float, int]:
    """Writes the optimal play into the output buffers; ``(status, value, bad_index)``."""

def game_sum(coins: Buffer, starts: Buffer, stops: Buffer) -> tuple[int, int | float]:
    """``(status, sum)`` of the coins of every component."""

def game_value_objects(coins: list[Any], starts: Buffer, stops: Buffer, n_rows: int) -> Any:
    """The value on Python numbers; its type is the coins' (int, Fraction, Decimal)."""

def game_play_objects(
    coins: list[Any], starts: Buffer, stops: Buffer, n_rows: int
) -> tuple[Any, list[tuple[int, int, int]]]:
    """``(value, [(component, coin, end), ...])`` on Python numbers."""

# --- _cooperative.pxi ----------------------------------------------------------------------

def row_cooperative_max(coins: Buffer) -> tuple[int, int | float, int]:
    """``(status, result, bad_index)``: the cooperative maximum of one int64/float64 row."""

def row_cooperative_max_objects(coins: list[Any]) -> Any:
    """The cooperative maximum of one row of Python numbers."""

# --- _window.pxi ---------------------------------------------------------------------------

# --- _batch.pxi ----------------------------------------------------------------------------

OFFSETS_OK: Final[int]
OFFSETS_EMPTY: Final[int]
OFFSETS_NEGATIVE: Final[int]
OFFSETS_DECREASING: Final[int]
OFFSETS_PAST_END: Final[int]

def batch_check_offsets(offsets: Buffer, n_coins: int, widened: Buffer) -> tuple[int, int]:
    """``(status, bad_entry)`` of Arrow-style offsets, widened to int64 into ``widened``."""

def batch_solve(
    coins: Buffer,
    base: int,
    offsets: Buffer,
    first_game: int,
    stop_game: int,
    out_first: Buffer,
    out_second: Buffer,
    out_status: Buffer,
) -> tuple[int, int]:
    """Solve games ``first_game .. stop_game - 1`` of a flat buffer with offsets."""

def batch_pack_int_lists(rows: list[Any]) -> tuple[Any, Any, bytearray]:
    """Pack lists of Python ints into one int64 buffer: ``(coins, offsets, kinds)``."""

# --- _forest.pxi ---------------------------------------------------------------------------
