# Stub of the compiled package coinsrow._core (the extension modules under coinsrow/_core/,
# re-exported by its __init__.py). Checked against the built module by tests/test_typing.py
# (mypy.stubtest).
#
# The machine kernels are Cython fused functions over int64 and float64: ``coins`` is any
# C-contiguous 1-D buffer of format "q" (int64) or "d" (float64); ``starts``, ``stops`` and
# the play output buffers are C-contiguous int64 buffers ("q"), ``out_end`` uint8 ("B").
# Buffers are typed as ``Buffer`` (the buffer protocol, PEP 688): a memoryview, an
# array.array or a NumPy array of the right dtype; the format is checked at run time.
#
# Every kernel returns ``(status, payload)`` (docs/architecture.md); its exact twin, named
# with the suffix ``_exact`` (``Exact`` for a class), takes a list of Python numbers in place
# of the buffer of coins and answers the same way.

import enum
from collections.abc import Callable
from typing import Any, Final

from typing_extensions import Buffer, disjoint_base

__all__ = [
    "End", "ForestProblem", "OffsetsProblem", "Status", "THREADS_AT_MOST",
    "scratch_kept", "scratch_release", "run_on_threads",
    "check_finite", "check_finite_exact", "game_play", "game_play_exact", "game_profits",
    "game_profits_exact", "game_value", "game_value_exact", "row_play", "row_play_exact",
    "row_profits", "row_profits_exact", "row_value", "row_value_exact",
    "WINDOW_INT64_LIMIT", "RowWindows", "RowWindowsExact", "pizza_profits",
    "pizza_profits_exact", "window_pizza", "window_pizza_exact",
    "SubRows", "SubRowsExact",
    "ForestWindows", "ForestWindowsExact", "forest_check", "forest_children_and_roots",
    "forest_play", "forest_play_exact", "forest_profits", "forest_profits_exact",
    "forest_value", "forest_value_exact",
    "batch_check_offsets", "batch_pack_int_lists", "batch_solve", "batch_solve_exact",
    "cooperative_max", "cooperative_max_exact",
    "Packing", "PackSpan", "pack_components",
    "short_rows",
]

# --- _short_rows.pyx (its functions are stubbed in _short_rows.pyi) ------------------------

from . import _short_rows as short_rows

# --- _types.pxd ------------------------------------------------------------------------------

THREADS_AT_MOST: int

# The codes' Python classes. A kernel answers a code as a plain int, equal to its member here
# (``status == Status.OK``).
class Status(enum.IntEnum):
    OK = 0
    OVERFLOW = 1
    NOT_FINITE = 2

class End(enum.IntEnum):
    LEFT = 0
    RIGHT = 1
    TOP = 2
    ROOT = 3

class ForestProblem(enum.IntEnum):
    FOREST_OK = 0
    PARENT_OUT_OF_RANGE = 1
    CYCLE = 2

class OffsetsProblem(enum.IntEnum):
    OFFSETS_OK = 0
    OFFSETS_EMPTY = 1
    OFFSETS_NEGATIVE = 2
    OFFSETS_DECREASING = 3
    OFFSETS_PAST_END = 4

# --- _scratch.pyx ---------------------------------------------------------------------------

def scratch_kept() -> list[tuple[int, bool]]:
    """The buffers kept between calls for the kernels' scratch: ``(bytes, busy)`` per slot."""

def scratch_release() -> None:
    """Return the kept buffers that no call is using to the allocator (also done at exit)."""

# --- _workers.pyx ---------------------------------------------------------------------------

def run_on_threads(
    task: Callable[[int], Any], n_tasks: int, n_threads: int,
    on_stop: Callable[[], Any] | None = None,
) -> list[Any]:
    """``[task(0), ..., task(n_tasks - 1)]`` on ``n_threads`` threads started for the call;
    Ctrl-C while they run stops the call."""

# --- _rows.pyx ------------------------------------------------------------------------------

def game_value(coins: Buffer, starts: Buffer, stops: Buffer, n_rows: int) -> tuple[int, Any]:
    """``(status, value or bad flat index)``; an int for int64 coins, a float for float64."""

def game_value_exact(
    coins: list[Any], starts: Buffer, stops: Buffer, n_rows: int
) -> tuple[int, Any]:
    """``game_value`` on Python numbers."""

def game_play(
    coins: Buffer,
    starts: Buffer,
    stops: Buffer,
    n_rows: int,
    out_component: Buffer,
    out_coin: Buffer,
    out_end: Buffer,
) -> tuple[int, Any]:
    """Writes the optimal play into the output buffers; ``(status, value or bad index)``."""

def game_play_exact(
    coins: list[Any],
    starts: Buffer,
    stops: Buffer,
    n_rows: int,
    out_component: Buffer,
    out_coin: Buffer,
    out_end: Buffer,
) -> tuple[int, Any]:
    """``game_play`` on Python numbers."""

def game_profits(
    coins: Buffer, starts: Buffer, stops: Buffer, n_rows: int
) -> tuple[int, Any]:
    """``(status, (first, second) or bad flat index)``."""

def game_profits_exact(
    coins: list[Any], starts: Buffer, stops: Buffer, n_rows: int
) -> tuple[int, Any]:
    """``game_profits`` on Python numbers."""

# One row, reduced in ``parts`` parts at once on ``threads`` threads (1, 1: in the calling
# thread); the answers do not depend on either (docs/rows.md).

def row_value(
    coins: Buffer, parts: int, threads: int, sample: bool = ...
) -> tuple[int, Any]:
    """``(status, value or bad index)`` of one row."""

def row_value_exact(
    coins: list[Any], parts: int, threads: int, sample: bool = ...
) -> tuple[int, Any]:
    """``row_value`` on Python numbers."""

def row_profits(
    coins: Buffer, parts: int, threads: int, sample: bool = ...
) -> tuple[int, Any]:
    """``(status, (first, second) or bad index)`` of one row."""

def row_profits_exact(
    coins: list[Any], parts: int, threads: int, sample: bool = ...
) -> tuple[int, Any]:
    """``row_profits`` on Python numbers."""

def row_play(
    coins: Buffer, parts: int, threads: int, sample: bool = ...
) -> tuple[int, Any]:
    """``(status, moves or bad index)``: moves an ``array('q')`` of coin indices."""

def row_play_exact(
    coins: list[Any], parts: int, threads: int, sample: bool = ...
) -> tuple[int, Any]:
    """``row_play`` on Python numbers."""

def check_finite(coins: Buffer) -> tuple[int, int | None]:
    """``(NOT_FINITE, index)`` of the first NaN or infinity, else ``(OK, None)``."""

def check_finite_exact(coins: list[Any]) -> tuple[int, int | None]:
    """``check_finite`` on Python numbers."""

# --- _window.pyx ----------------------------------------------------------------------------

WINDOW_INT64_LIMIT: Final[int]

def window_pizza(circle: Buffer) -> tuple[int, Any]:
    """``(status, (first_slice, value) or bad index)`` of the pizza game."""

def window_pizza_exact(circle: list[Any]) -> tuple[int, Any]:
    """``window_pizza`` on Python numbers."""

def pizza_profits(circle: Buffer, first_slice: int) -> tuple[int, Any]:
    """``(status, (first, second))`` of the pizza after the first player's first slice."""

def pizza_profits_exact(circle: list[Any], first_slice: int) -> tuple[int, Any]:
    """``pizza_profits`` on Python numbers."""

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
    def __new__(cls, coins: Buffer, starts: Buffer, stops: Buffer, n_rows: int) -> RowWindows: ...
    def value(self) -> Any: ...
    def length(self, c: int) -> int: ...
    def bounds(self, c: int) -> Any: ...
    def best(self) -> Any: ...
    def best_in_row(self, c: int) -> Any: ...
    def pop_left(self, c: int) -> Any: ...
    def pop_right(self, c: int) -> Any: ...
    def blocks(self, c: int) -> Any: ...
    def kept(self, c: int) -> Any: ...
    def end_blocks(self, c: int) -> Any: ...
    def value_after(self, c: int, from_left: bool, frozen: Any = None) -> Any: ...
    def _state(self) -> dict[str, Any]: ...

@disjoint_base
class RowWindowsExact:
    """``RowWindows`` on a list of Python numbers."""

    @property
    def rows(self) -> int: ...
    @property
    def n_rows(self) -> int: ...
    @property
    def status(self) -> int: ...
    @property
    def bad_index(self) -> int: ...
    def __init__(
        self, coins: list[Any], starts: Buffer, stops: Buffer, n_rows: int, fill: bool = True
    ) -> None: ...
    def value(self) -> Any: ...
    def length(self, c: int) -> int: ...
    def bounds(self, c: int) -> Any: ...
    def best(self) -> Any: ...
    def best_in_row(self, c: int) -> Any: ...
    def pop_left(self, c: int) -> Any: ...
    def pop_right(self, c: int) -> Any: ...
    def blocks(self, c: int) -> Any: ...
    def kept(self, c: int) -> Any: ...
    def end_blocks(self, c: int) -> Any: ...
    def value_after(self, c: int, from_left: bool, frozen: Any = None) -> Any: ...
    def _state(self) -> dict[str, Any]: ...
    def _slide(self, c: int, push: bool) -> None: ...
    def _open(self, c: int, left: int, right: int) -> None: ...

# --- _subrows.pyx ---------------------------------------------------------------------------

@disjoint_base
class SubRows:
    """Values of sub-rows of one row (``Intervals``); docs/subrows.md."""

    @property
    def status(self) -> int: ...
    @property
    def bad_index(self) -> int: ...
    @property
    def table_pairs(self) -> int: ...
    @property
    def checkpoints(self) -> int: ...
    @property
    def spacing(self) -> int: ...
    @property
    def memory(self) -> int: ...
    def __new__(cls, coins: Buffer, spacing: int = 0, min_side: int = 0) -> SubRows: ...
    def __len__(self) -> int: ...
    def value(self, start: int, stop: int) -> tuple[int, Any]: ...
    def values(
        self, starts: Buffer, stops: Buffer, out: Any, ok: Buffer
    ) -> tuple[int, int]: ...

@disjoint_base
class SubRowsExact:
    """``SubRows`` on a list of Python numbers."""

    @property
    def status(self) -> int: ...
    @property
    def bad_index(self) -> int: ...
    @property
    def table_pairs(self) -> int: ...
    @property
    def checkpoints(self) -> int: ...
    @property
    def spacing(self) -> int: ...
    @property
    def memory(self) -> int: ...
    def __init__(self, coins: list[Any], spacing: int = 0, min_side: int = 0) -> None: ...
    def __len__(self) -> int: ...
    def value(self, start: int, stop: int) -> tuple[int, Any]: ...
    def values(
        self, starts: Buffer, stops: Buffer, out: list[Any], ok: Buffer
    ) -> tuple[int, int]: ...

# --- _forest.pyx ----------------------------------------------------------------------------

def forest_check(parents: Buffer) -> tuple[int, int]:
    """``(problem, node)``: a parent out of range or a cycle, and the node it is found at."""

def forest_children_and_roots(parents: Buffer, removed: Buffer, first_child: Buffer,
                              next_sibling: Buffer) -> list[int]:
    """Fill each node's children lists; the current roots in increasing order. O(n)."""

def forest_value(
    coins: Buffer, starts: Buffer, stops: Buffer, n_rows: int, fbase: int, parents: Buffer,
    removed: Buffer, wide: bool = False,
) -> tuple[int, Any]:
    """``(status, value or bad index)`` of rows, stacks and a forest together."""

def forest_value_exact(
    coins: list[Any], starts: Buffer, stops: Buffer, n_rows: int, fbase: int, parents: Buffer,
    removed: Buffer, wide: bool = False,
) -> tuple[int, Any]:
    """``forest_value`` on Python numbers."""

def forest_play(
    coins: Buffer, starts: Buffer, stops: Buffer, n_rows: int, fbase: int, parents: Buffer,
    removed: Buffer, out_component: Buffer, out_coin: Buffer, out_end: Buffer,
) -> tuple[int, Any]:
    """A whole optimal play of rows, stacks and a forest: ``(status, value or bad index)``."""

def forest_play_exact(
    coins: list[Any], starts: Buffer, stops: Buffer, n_rows: int, fbase: int, parents: Buffer,
    removed: Buffer, out_component: Buffer, out_coin: Buffer, out_end: Buffer,
) -> tuple[int, Any]:
    """``forest_play`` on Python numbers."""

def forest_profits(
    coins: Buffer, starts: Buffer, stops: Buffer, n_rows: int, fbase: int, parents: Buffer,
    removed: Buffer,
) -> tuple[int, Any]:
    """``(status, (first, second) or bad index)`` of rows, stacks and a forest."""

def forest_profits_exact(
    coins: list[Any], starts: Buffer, stops: Buffer, n_rows: int, fbase: int, parents: Buffer,
    removed: Buffer,
) -> tuple[int, Any]:
    """``forest_profits`` on Python numbers."""

@disjoint_base
class ForestWindows:
    """Rows, stacks and a forest for the Engine: value, the tie rule's move, any move."""

    @property
    def status(self) -> int: ...
    @property
    def bad_index(self) -> int: ...
    def __new__(
        cls, coins: Buffer, starts: Buffer, stops: Buffer, n_rows: int, fbase: int,
        parents: Buffer, removed: Buffer,
    ) -> ForestWindows: ...
    def value(self) -> Any: ...
    def best(self) -> tuple[int, bool, int]: ...
    def pop_left(self, c: int) -> None: ...
    def pop_right(self, c: int) -> None: ...
    def take_node(self, node: int) -> None: ...
    def value_after(self, c: int, from_left: bool) -> Any: ...
    def value_after_node(self, node: int) -> Any: ...
    def bounds(self, c: int) -> tuple[int, int]: ...
    def taken(self, node: int) -> bool: ...
    def roots(self) -> list[int]: ...
    def _state(self) -> dict[str, Any]: ...

@disjoint_base
class ForestWindowsExact:
    """``ForestWindows`` on a list of Python numbers."""

    @property
    def status(self) -> int: ...
    @property
    def bad_index(self) -> int: ...
    def __init__(
        self, coins: list[Any], starts: Buffer, stops: Buffer, n_rows: int, fbase: int,
        parents: Buffer, removed: Buffer,
    ) -> None: ...
    def value(self) -> Any: ...
    def best(self) -> tuple[int, bool, int]: ...
    def pop_left(self, c: int) -> None: ...
    def pop_right(self, c: int) -> None: ...
    def take_node(self, node: int) -> None: ...
    def value_after(self, c: int, from_left: bool) -> Any: ...
    def value_after_node(self, node: int) -> Any: ...
    def bounds(self, c: int) -> tuple[int, int]: ...
    def taken(self, node: int) -> bool: ...
    def roots(self) -> list[int]: ...
    def _state(self) -> dict[str, Any]: ...

# --- _batch.pyx -----------------------------------------------------------------------------

def batch_check_offsets(
    offsets: Buffer, n_coins: int, widened: Buffer
) -> tuple[int, int]:
    """``(problem, bad_entry)`` of Arrow-style offsets, widened to int64 into ``widened``."""

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

def batch_solve_exact(
    coins: list[Any],
    base: int,
    offsets: Buffer,
    first_game: int,
    stop_game: int,
    out_first: list[Any],
    out_second: list[Any],
    out_status: Buffer,
) -> tuple[int, int]:
    """``batch_solve`` on Python numbers, into lists."""

def batch_pack_int_lists(rows: list[Any]) -> tuple[Any, Any, bytearray]:
    """Pack lists of Python ints into one int64 buffer: ``(coins, offsets, packed)``."""

# --- _cooperative.pyx -----------------------------------------------------------------------

def cooperative_max(coins: Buffer) -> tuple[int, Any]:
    """``(status, result or bad index)``: the cooperative maximum of one int64/float64 row."""

def cooperative_max_exact(coins: list[Any]) -> tuple[int, Any]:
    """``cooperative_max`` on Python numbers."""

# --- _pack.pyx ------------------------------------------------------------------------------

class Packing(enum.IntEnum):
    PACKED = 0
    PACK_ELSEWHERE = 1

@disjoint_base
class PackSpan:
    """Many components in one buffer: component j is ``values[offsets[j]:offsets[j + 1]]``."""

    @property
    def values(self) -> Any: ...
    @property
    def offsets(self) -> Any: ...
    def __init__(self, values: Buffer, offsets: Buffer) -> None: ...

def pack_components(items: list[Any], buffer_types: tuple[type, ...]) -> tuple[int, Any]:
    """``(PACKED, (coins, offsets))`` or ``(PACK_ELSEWHERE, marks)``: the components packed
    into one int64 or float64 buffer."""
