"""The compiled loops of coinsrow: a package of Cython extension modules, one per family.

Only loops live here; input checks, result types and errors are in the Python modules, and
one of them, ``coinsrow._dispatch``, runs every kernel. This file is the manifest: it
re-exports every kernel under one namespace (``_core.NAME``), and says which module holds
what:

==================  ===================================================================
``_types``          the coin type, ``Status``/``End``/``ForestProblem``/``OffsetsProblem``
                    codes, checked int64 arithmetic (declared in ``_types.pxd``)
``_scratch``        scratch memory kept between calls: ``scratch_kept``, ``scratch_release``
``_fsum``           correctly rounded sums of doubles (float profits; cimported only)
``_rows``           games of many rows and stacks: ``game_*``, ``check_finite``
``_one_row``        one row: ``row_*`` (``_row_stack`` reduces it, ``_row_greedy`` plays it)
``_window``         the window structure and the pizza: ``RowWindows``, ``window_pizza``,
                    ``pizza_profits``, ``WINDOW_INT64_LIMIT``
``_subrows``        values of sub-rows: ``SubRows``
``_forest``         forests of rooted trees: ``forest_*``, ``ForestWindows``
``_batch``          many one-row games at once: ``batch_*``
``_cooperative``    the cooperative maximum: ``cooperative_max``
``_pack``           the coins of many components packed into one buffer: ``pack_components``,
                    ``PackSpan``, ``Packing``
==================  ===================================================================

Every kernel that computes on coins has an exact twin in the module of the same name with the
suffix ``_exact`` beside it (``_rows_exact`` beside ``_rows``, ...): the same name with the
suffix ``_exact`` (``Exact`` for a class), the same arguments and methods, on a list of
Python numbers. docs/architecture.md describes the contract.
"""

from ._batch import batch_check_offsets, batch_pack_int_lists, batch_solve
from ._batch_exact import batch_solve_exact
from ._cooperative import cooperative_max
from ._cooperative_exact import cooperative_max_exact
from ._forest import ForestWindows, forest_check, forest_play, forest_profits, forest_value
from ._forest_exact import (
    ForestWindowsExact,
    forest_play_exact,
    forest_profits_exact,
    forest_value_exact,
)
from ._one_row import row_play, row_profits, row_value
from ._pack import Packing, PackSpan, pack_components
from ._rows import check_finite, game_play, game_profits, game_value
from ._rows_exact import (
    check_finite_exact,
    game_play_exact,
    game_profits_exact,
    game_value_exact,
    row_play_exact,
    row_profits_exact,
    row_value_exact,
)
from ._scratch import scratch_kept, scratch_release
from ._subrows import SubRows
from ._subrows_exact import SubRowsExact
from ._types import End, ForestProblem, OffsetsProblem, Status
from ._window import WINDOW_INT64_LIMIT, RowWindows, pizza_profits, window_pizza
from ._window_exact import RowWindowsExact, pizza_profits_exact, window_pizza_exact

__all__ = [
    "End", "ForestProblem", "OffsetsProblem", "Status",
    "scratch_kept", "scratch_release",
    "check_finite", "check_finite_exact", "game_play", "game_play_exact", "game_profits",
    "game_profits_exact", "game_value", "game_value_exact", "row_play", "row_play_exact",
    "row_profits", "row_profits_exact", "row_value", "row_value_exact",
    "WINDOW_INT64_LIMIT", "RowWindows", "RowWindowsExact", "pizza_profits",
    "pizza_profits_exact", "window_pizza", "window_pizza_exact",
    "SubRows", "SubRowsExact",
    "ForestWindows", "ForestWindowsExact", "forest_check", "forest_play", "forest_play_exact",
    "forest_profits", "forest_profits_exact", "forest_value", "forest_value_exact",
    "batch_check_offsets", "batch_pack_int_lists", "batch_solve", "batch_solve_exact",
    "cooperative_max", "cooperative_max_exact",
    "Packing", "PackSpan", "pack_components",
]
