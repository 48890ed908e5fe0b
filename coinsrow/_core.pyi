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

from typing_extensions import Buffer, disjoint_base

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

WINDOW_INT64_LIMIT: Final[int]

def window_forests(keys: Buffer, ns: Buffer, ps: Buffer, par1: Buffer, par2: Buffer) -> None:
    """The static forests (ns, ps, par1, par2) of one row from its boundary keys."""

def window_pizza(circle: Buffer) -> tuple[int, int, int | float, int, int]:
    """``(status, first_slice, value, updates, bad_index)`` of the pizza game."""

@disjoint_base
class RowWindows:
    """The window structure of rows and stacks: optimal moves against any opponent."""

    @property
    def rows(self) -> int: ...
    @property
    def n_rows(self) -> int: ...
    @property
    def status(self) -> int: ...
    @property
    def bad_index(self) -> int: ...
    @property
    def updates(self) -> int: ...
    def __new__(
        cls, coins: Buffer, starts: Buffer, stops: Buffer, kind: int, n_rows: int = -1
    ) -> RowWindows: ...
    def value(self) -> Any: ...
    def length(self, c: int) -> int: ...
    def bounds(self, c: int) -> Any: ...
    def best(self) -> Any: ...
    def best_in_row(self, c: int) -> Any: ...
    def pop_left(self, c: int) -> Any: ...
    def pop_right(self, c: int) -> Any: ...
    def blocks(self, c: int) -> Any: ...
    def end_blocks(self, c: int) -> Any: ...
    def play(self, opponent: int, seed: int, out_coin: Buffer, out_end: Buffer) -> Any: ...

@disjoint_base
class SubRows:
    """Values of sub-rows of one row (``Intervals``)."""

    @property
    def status(self) -> int: ...
    @property
    def bad_index(self) -> int: ...
    def __new__(cls, coins: Buffer, kind: int) -> SubRows: ...
    def __len__(self) -> int: ...
    def value(self, start: int, stop: int) -> tuple[bool, int | float]: ...
    def values(self, starts: Buffer, stops: Buffer, out: Any, ok: Buffer) -> int: ...

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

END_ROOT: Final[int]
FOREST_OK: Final[int]
FOREST_PARENT_OUT_OF_RANGE: Final[int]
FOREST_CYCLE: Final[int]

def forest_check(parents: Buffer) -> tuple[int, int]:
    """``(status, node)``: a parent out of range or a cycle, and the node it is found at."""

def forest_value(
    coins: Buffer, starts: Buffer, stops: Buffer, n_rows: int, fbase: int, parents: Buffer,
    removed: Buffer,
) -> tuple[int, int | float, int]:
    """``(status, value, bad_index)`` of rows, stacks and a forest together."""

def forest_play(
    coins: Buffer, starts: Buffer, stops: Buffer, n_rows: int, fbase: int, parents: Buffer,
    removed: Buffer, out_component: Buffer, out_coin: Buffer, out_end: Buffer,
) -> tuple[int, int | float, int]:
    """A whole optimal play of rows, stacks and a forest: ``(status, value, bad_index)``."""

def forest_sum(
    coins: Buffer, starts: Buffer, stops: Buffer, fbase: int, removed: Buffer
) -> tuple[int, int | float]:
    """``(status, sum)`` of the coins on the table, forest included."""

def forest_value_objects(
    coins: list[Any], starts: Buffer, stops: Buffer, n_rows: int, fbase: int, parents: Buffer,
    removed: Buffer,
) -> Any:
    """``forest_value`` on Python numbers."""

def forest_play_objects(
    coins: list[Any], starts: Buffer, stops: Buffer, n_rows: int, fbase: int, parents: Buffer,
    removed: Buffer,
) -> tuple[Any, list[tuple[int, int, int]]]:
    """``forest_play`` on Python numbers: ``(value, [(component, coin, end), ...])``."""
