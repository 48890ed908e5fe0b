"""The one dispatch layer: every kernel of ``coinsrow._core`` is run from here.

A position's coins are kept in one flat storage, ``_coins.Coins``: a contiguous int64 or
float64 buffer (the machine kinds) or a list of exact Python numbers, with the layout of the
components in it. ``run`` solves a kernel over it, the same way for every entry point:

1. the machine kernel on the buffer (or, with ``COINSROW_EXACT=1`` in the environment at
   import, its exact twin on the same numbers as Python ints or floats, which agrees with the
   machine kernel bit for bit);
2. its status: OK gives the answer; NOT_FINITE is a ``ValueError`` naming the coin;
   OVERFLOW (an int64 overflow, or a float result or intermediate beyond the float range)
   goes on to
3. the exact twin on exact numbers (Python ints; floats as Fractions; Fraction and Decimal
   as they are), under an exact Decimal context;
4. the answer in the game's number type, rounded once: exact answers of a float game are
   rounded to the nearest float (an infinity only when the exact answer is beyond the float
   range, never NaN); Decimal profits are written at the finest exponent of the game's coins.

Kernel structures that answer many queries (the window structure, sub-row values) are built
the same way and wrapped in a ``Structure``, whose queries take the same path.
docs/architecture.md describes the layout and the kernels' contract.
"""

from __future__ import annotations

import decimal
import enum
import os
from array import array
from collections.abc import Callable
from decimal import Decimal
from typing import Any, cast

from . import _core
from ._coins import OBJECTS, Coins, Number

__all__ = ["EXACT", "EXACT_DECIMAL", "Answer", "Structure", "span", "run", "twins"]

#: ``COINSROW_EXACT=1`` at import: every kernel runs as its exact twin (for tests and
#: debugging; the answers are the same, a constant factor slower).
EXACT = os.environ.get("COINSROW_EXACT", "").strip() not in ("", "0")

# Additions and subtractions of Decimals are exact under this context (no rounding to 28
# digits); halving a profit is exact too. The digit budget of the input (``_coins``) keeps
# the numbers it can produce to a sane size.
EXACT_DECIMAL = decimal.Context(
    prec=decimal.MAX_PREC,
    Emax=decimal.MAX_EMAX,
    Emin=decimal.MIN_EMIN,
    traps=[decimal.InvalidOperation, decimal.Inexact, decimal.Overflow, decimal.DivisionByZero],
)

Status = _core.Status


class Answer(enum.Enum):
    """What a kernel's payload is, so that ``run`` can put it in the game's number type."""

    NUMBER = "number"          # one number (a value)
    PROFITS = "profits"        # (first, second)
    INDEXED = "indexed"        # (an index, a number): the pizza's (first slice, value)
    PLAY = "play"              # written into the caller's buffers; the payload is ignored
    STRUCTURE = "structure"    # a kernel object: wrapped in a ``Structure``


def _answer(coins: Coins, payload: Any, answer: Answer) -> Any:
    """The payload in the game's number type."""
    if answer is Answer.NUMBER:
        return coins.number(payload)
    if answer is Answer.PROFITS:
        first, second = coins.number(payload[0]), coins.number(payload[1])
        if isinstance(first, Decimal) and isinstance(second, Decimal):
            # A profit is a sum of coins: exact at their finest exponent, where it is written.
            quantum = Decimal(1).scaleb(coins.decimal_exponent())
            with decimal.localcontext(EXACT_DECIMAL):
                first, second = first.quantize(quantum), second.quantize(quantum)
        return first, second
    if answer is Answer.INDEXED:
        return payload[0], coins.number(payload[1])
    return payload  # PLAY, STRUCTURE


def _status(reply: Any) -> tuple[Any, Any]:
    """(status, payload) of a kernel's reply: a function's pair, or a structure."""
    if isinstance(reply, tuple):
        return reply
    status = reply.status
    return status, (reply if status == Status.OK else reply.bad_index)


def _solve(coins: Coins, first: Callable[[Any], Any] | None,
           exact: Callable[[list], Any], answer: Answer) -> Any:
    """The one path from a kernel's status to its fallback: ``first(numbers)`` (the machine
    kernel, or the twin on the same numbers) unless it is None, then if it overflowed
    ``exact(exact numbers)`` under the exact Decimal context; the payload put in the game's
    number type."""
    if first is not None:
        status, payload = _status(first(coins.objects() if EXACT else coins.data))
        if status == Status.OK:
            return _answer(coins, payload, answer)
        if status == Status.NOT_FINITE:
            raise coins.not_finite(payload)
    with decimal.localcontext(EXACT_DECIMAL):
        status, payload = _status(exact(coins.exact()))
        if status == Status.NOT_FINITE:  # pragma: no cover - refused by the first attempt
            raise coins.not_finite(payload)
        if status != Status.OK:  # pragma: no cover - exact numbers never overflow
            raise ArithmeticError("an exact kernel reported an overflow")
        return _answer(coins, payload, answer)


def twins(name: str) -> tuple[Callable[..., Any], Callable[..., Any]]:
    """The machine kernel ``name`` of ``_core`` and its exact twin (``name + "_exact"``,
    ``name + "Exact"`` for a class)."""
    machine = getattr(_core, name)
    suffix = "Exact" if isinstance(machine, type) else "_exact"
    return machine, getattr(_core, name + suffix)


def run(coins: Coins, kernel: str, *args: Any, answer: Answer = Answer.NUMBER) -> Any:
    """Run ``kernel`` (a name in ``_core``) over ``coins`` with ``args``, through the one
    path above; for ``Answer.STRUCTURE``, a ``Structure``."""
    machine, twin = twins(kernel)

    def first(numbers: Any) -> Any:  # the machine kernel (its twin in the exact mode)
        return (twin if EXACT else machine)(numbers, *args)

    payload = _solve(coins, first if coins.kind != OBJECTS else None,
                     lambda numbers: twin(numbers, *args), answer)
    if answer is Answer.STRUCTURE:
        return Structure(coins, twin, args, payload)
    return payload


class _ExactDecimalCalls:
    """A structure on Decimals whose every method runs under the exact Decimal context
    (its arithmetic happens at each call, long after ``run`` returned it)."""

    __slots__ = ("_structure",)

    def __init__(self, structure: Any) -> None:
        self._structure = structure

    def __getattr__(self, name: str) -> Any:
        method = getattr(self._structure, name)
        if not callable(method):
            return method

        def exactly(*args: Any) -> Any:
            with decimal.localcontext(EXACT_DECIMAL):
                return method(*args)

        return exactly


class Structure:
    """A kernel structure built over a position (``RowWindows``, ``SubRows``, or an exact
    twin of one), with an exact twin built on demand for the queries it cannot answer.

    ``kernel`` is the structure itself, for the callers' hot paths, whose answers
    ``number`` puts in the game's number type; ``machine`` tells whether it is the machine
    structure (not a twin). ``ask(method, *args)`` runs a query that returns ``(status,
    answer)`` and redoes it on the exact twin when it overflows.
    """

    __slots__ = ("coins", "kernel", "machine", "_twin", "_args", "_exact")

    def __init__(self, coins: Coins, twin: Callable[..., Any], args: tuple, kernel: Any):
        self.coins = coins
        self.machine = not isinstance(kernel, cast(type, twin))
        self.kernel = _ExactDecimalCalls(kernel) if coins.exact_type is Decimal else kernel
        self._twin = twin
        self._args = args
        self._exact: Any = None

    def number(self, x: Any) -> Number:
        return self.coins.number(x)

    def _exact_twin(self, numbers: list) -> Any:
        if self._exact is None:
            self._exact = self._twin(numbers, *self._args)
        return self._exact

    def ask(self, method: str, *args: Any) -> Any:
        """A query, redone exactly (and rounded once) if the structure overflows on it."""
        return _solve(self.coins, lambda _: getattr(self.kernel, method)(*args),
                      lambda numbers: getattr(self._exact_twin(numbers), method)(*args),
                      Answer.NUMBER)


def span(start: int, stop: int) -> tuple[array, array]:
    """The ``starts``/``stops`` arguments of a one-component position."""
    return array("q", (start,)), array("q", (stop,))
