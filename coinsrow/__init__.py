"""coinsrow: the coins-in-a-row game family, solved exactly in linear time.

Two players alternately take a coin from an end of a row (or the top of a stack); how much
does each get when both play optimally, and what are the optimal moves? ``value`` and
``profits`` answer in O(n) for a row (T. Idziaszek's Fusion / Fruitless / Greedy
principles), O(n log k) for k rows and stacks; ``play`` gives a whole optimal play in O(n).

>>> import coinsrow
>>> coinsrow.profits([3, 2, 2, 3, 1, 2])
Profits(first=8, second=5)
"""

# The compiled extension first: if it is missing, say how to build it (otherwise the first
# module to import it fails with a misleading "partially initialized module ... (most likely
# due to a circular import)").
try:
    from . import _core  # noqa: F401
except ImportError:
    from importlib.machinery import EXTENSION_SUFFIXES
    from os import path

    _modules = path.join(__path__[0], "_core", "_rows")
    if any(path.exists(_modules + suffix) for suffix in EXTENSION_SUFFIXES):
        raise  # built, but it does not load: the original error says why
    raise ImportError(
        f"coinsrow's compiled core (coinsrow._core) is not built for this Python in "
        f"{__path__[0]}: this is a source tree. Build it with `pip install -e .` (or "
        "`python setup.py build_ext --inplace`), or install coinsrow from a wheel.",
        name=f"{__name__}._core",
    ) from None

from ._version import __version__

# Each public name is imported from its module when first used (PEP 562), so that
# ``import coinsrow`` costs the compiled core alone and a program pays only for the parts it
# calls: the whole package took 23 ms to import on this project's machine, the core alone
# 14 ms (benchmarks/small_calls.py).
_HOMES = {
    "Analysis": "_analysis",
    "Engine": "_engine",
    "Explanation": "_explain",
    "Game": "_game",
    "Intervals": "_intervals",
    "Move": "_moves",
    "PizzaResult": "_results",
    "Playout": "_strategies",
    "Profits": "_results",
    "Review": "_analysis",
    "Segment": "_reduction",
    "analyze": "_analysis",
    "best_move": "_row_calls",
    "cooperative_max": "_cooperative",
    "explain": "_explain",
    "pizza": "_pizza",
    "play": "_row_calls",
    "profits": "_row_calls",
    "profits_many": "_batch",
    "silver_dollar": "silver_dollar",
    "simulate": "_strategies",
    "value": "_row_calls",
    "values_many": "_batch",
}

# Seen by type checkers only (mypy reads any name TYPE_CHECKING so); ``typing`` itself takes
# 2 ms to import.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from . import silver_dollar
    from ._analysis import Analysis, Review, analyze
    from ._batch import profits_many, values_many
    from ._cooperative import cooperative_max
    from ._engine import Engine
    from ._explain import Explanation, explain
    from ._game import Game
    from ._intervals import Intervals
    from ._moves import Move
    from ._pizza import pizza
    from ._reduction import Segment
    from ._results import PizzaResult, Profits
    from ._row_calls import best_move, play, profits, value
    from ._strategies import Playout, simulate


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    module = import_module(f"{__name__}.{home}")
    found = module if home == name else getattr(module, name)
    globals()[name] = found
    return found


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


__all__ = [
    "Analysis",
    "Engine",
    "Explanation",
    "Intervals",
    "PizzaResult",
    "pizza",
    "Game",
    "Move",
    "Playout",
    "Profits",
    "Review",
    "Segment",
    "__version__",
    "analyze",
    "best_move",
    "cooperative_max",
    "explain",
    "play",
    "profits",
    "profits_many",
    "silver_dollar",
    "simulate",
    "value",
    "values_many",
]
