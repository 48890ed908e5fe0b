"""coinsrow: the coins-in-a-row game family, solved exactly in linear time.

Two players alternately take a coin from an end of a row (or the top of a stack); how much
does each get when both play optimally, and what are the optimal moves? ``value`` and
``profits`` answer in O(n) for a row (T. Idziaszek's Fusion / Fruitless / Greedy
principles), O(n log k) for k rows and stacks; ``play`` gives a whole optimal play in O(n).

>>> import coinsrow
>>> coinsrow.profits([3, 2, 2, 3, 1, 2])
Profits(first=8, second=5)
"""

from . import silver_dollar
from ._batch import profits_many, values_many
from ._cooperative import cooperative_max
from ._engine import Engine
from ._game import Game, Move, Profits, best_move, play, profits, value
from ._intervals import Intervals
from ._pizza import PizzaResult, pizza
from ._strategies import Playout, simulate
from ._version import __version__

__all__ = [
    "Engine",
    "Intervals",
    "PizzaResult",
    "pizza",
    "Game",
    "Move",
    "Playout",
    "Profits",
    "__version__",
    "best_move",
    "cooperative_max",
    "play",
    "profits",
    "profits_many",
    "silver_dollar",
    "simulate",
    "value",
    "values_many",
]
