"""The compiled loops of coinsrow: a package of Cython extension modules, one per family.

Only loops live here; input checks, result types and errors are in the Python modules, and
one of them, ``coinsrow._dispatch``, runs every kernel. This file is the manifest: it
re-exports every kernel under one namespace (``_core.NAME``), and says which module holds
what:

==================  ===================================================================
``_types``          the coin type, ``Status``/``End``/``ForestProblem``/``OffsetsProblem``
                    codes, checked int64 arithmetic (declared in ``_types.pxd``)
``_scratch``        scratch memory kept between calls: ``scratch_kept``, ``scratch_release``
``_workers``        tasks on threads started for one call, Ctrl-C while they run:
                    ``run_on_threads``
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
``_short_rows``     the compiled fast path of short lists and tuples of ints or floats and of
                    small games of them, and the Engine of a short list of ints
                    (``ShortEngine``), re-exported as the module ``short_rows``
==================  ===================================================================

Every kernel that computes on coins has an exact twin in the module of the same name with the
suffix ``_exact`` beside it (``_rows_exact`` beside ``_rows``, ...): the same name with the
suffix ``_exact`` (``Exact`` for a class), the same arguments and methods, on a list of
Python numbers. docs/architecture.md describes the contract. The fast path ``short_rows``
has none: it answers only where its answers are the kernels' (ints within int64, finite
floats, the same operations in the same order), and leaves every other input to them.
"""

from importlib import import_module

# Loaded at once: the codes the Python layer names at import, and the proof that the core is
# built (coinsrow/__init__.py says how to build it when this fails).
from ._types import THREADS_AT_MOST, End, ForestProblem, OffsetsProblem, Status

# Every other name is loaded from its module when first used (PEP 562): ``import coinsrow``
# then costs the shared runtime and ``_types`` alone, and a call loads the modules it runs
# (the 14 modules then took 4 ms of an 11.9 ms ``import coinsrow``; benchmarks/small_calls.py).
_EXPORTS: dict[str, tuple[str, ...]] = {
    "_batch": ("batch_check_offsets", "batch_pack_int_lists", "batch_solve"),
    "_batch_exact": ("batch_solve_exact",),
    "_cooperative": ("cooperative_max",),
    "_cooperative_exact": ("cooperative_max_exact",),
    "_forest": ("ForestWindows", "forest_check", "forest_children_and_roots", "forest_play",
                "forest_profits", "forest_value"),
    "_forest_exact": ("ForestWindowsExact", "forest_play_exact", "forest_profits_exact",
                      "forest_value_exact"),
    "_forest_blocks": (),
    "_forest_play": (),
    "_fsum": (),
    "_pack": ("Packing", "PackSpan", "pack_components"),
    "_one_row": ("row_play", "row_profits", "row_value"),
    "_row_greedy": (),
    "_row_helpers": (),
    "_row_shapes": (),
    "_row_stack": (),
    "_rows": ("check_finite", "game_play", "game_profits", "game_value"),
    "_rows_exact": ("check_finite_exact", "game_play_exact", "game_profits_exact",
                    "game_value_exact", "row_play_exact", "row_profits_exact",
                    "row_value_exact"),
    "_scratch": ("scratch_kept", "scratch_release"),
    "_short_rows": (),
    "_sort": (),
    "_subrows": ("SubRows",),
    "_subrows_core": (),
    "_subrows_exact": ("SubRowsExact",),
    "_workers": ("run_on_threads",),
    "_window": ("WINDOW_INT64_LIMIT", "RowWindows", "pizza_profits", "window_pizza"),
    "_window_forests": (),
    "_window_exact": ("RowWindowsExact", "pizza_profits_exact", "window_pizza_exact"),
}
_HOMES = {name: module for module, names in _EXPORTS.items() for name in names}
# Modules re-exported as themselves.
_MODULES = {"short_rows": "_short_rows"}


def __getattr__(name: str) -> object:
    if name in _HOMES:
        found = getattr(import_module(f"{__name__}.{_HOMES[name]}"), name)
    elif name in _MODULES or name in _EXPORTS:
        found = import_module(f"{__name__}.{_MODULES.get(name, name)}")
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = found
    return found


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


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
