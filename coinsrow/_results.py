"""The result types of the public functions: ``Profits`` (``profits``, ``Game.profits``,
``profits_many``) and ``PizzaResult`` (``pizza``).

They are named tuples: they compare, unpack and pickle as tuples. A pickle names the class by
its module; pickles written when these classes lived in ``coinsrow._game`` and
``coinsrow._pizza`` still load, because those modules still import them under that name.
"""

from __future__ import annotations

import sys
from types import GenericAlias
from typing import TYPE_CHECKING, Any, Generic, NamedTuple, TypeVar

from ._coins import Number

__all__ = ["PizzaResult", "Profits"]

NumberT = TypeVar("NumberT", bound=Number)

_PROFITS_DOC = """What each player collects: ``first`` is the player to move.

    ``Profits[int]`` for a row of ints (``Profits[float]``, ``Profits[Fraction]``,
    ``Profits[Decimal]`` likewise), so that ``p.first + p.second`` type-checks.
    """

if TYPE_CHECKING or sys.version_info >= (3, 11):
    class Profits(NamedTuple, Generic[NumberT]):
        first: NumberT
        second: NumberT
else:  # a NamedTuple can be generic from Python 3.11 on; Profits[int] works here too
    class Profits(NamedTuple):
        first: Any
        second: Any

    Profits.__class_getitem__ = classmethod(GenericAlias)
Profits.__doc__ = _PROFITS_DOC


class PizzaResult(NamedTuple):
    """The pizza game: ``value`` = first player's total minus the second's, both optimal;
    ``first_slice`` an optimal first slice (the smallest index on ties); ``first`` and
    ``second`` the players' totals."""

    value: Number
    first_slice: int
    first: Number
    second: Number
