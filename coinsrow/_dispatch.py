"""The one dispatch layer: every kernel of ``coinsrow._core`` is run from here.

A position's coins are kept in one flat storage, ``Coins``: a contiguous int64 or float64
buffer (the machine kinds) or a list of exact Python numbers, with the layout of the
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
import math
import os
from array import array
from collections.abc import Callable, Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Any, TypeAlias, cast

from . import _core
from ._coins import (
    FLOAT64,
    INT64,
    OBJECTS,
    Buffer1D,
    Column,
    as_floats,
    as_objects,
    short_repr,
    unify,
)

__all__ = ["EXACT", "EXACT_DECIMAL", "Answer", "Coins", "Number", "Structure", "kernels",
           "span", "run", "storage", "twins"]

Number: TypeAlias = int | float | Fraction | Decimal

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


def _round_float(exact: Any) -> float:
    """An exact number rounded to the nearest float: +-inf beyond the float range."""
    try:
        return float(exact)
    except OverflowError:
        return math.inf if exact > 0 else -math.inf


class Coins:
    """The flat storage of a position's coins, and the exact-number context of its game.

    ``kind`` is INT64, FLOAT64 or OBJECTS; ``data`` an int64/float64 buffer (a memoryview)
    or a list of Python numbers of one ``exact_type`` (int, Fraction or Decimal; ``float``
    for FLOAT64, ``int`` for INT64). Component c occupies ``data[bases[c]:bases[c] +
    lengths[c]]``; components ``n_rows ..`` are stacks; ``names[c]`` names it in errors. A
    forest's nodes follow them from ``forest_base`` on. Immutable once built: the positions
    of a game share it.
    """

    __slots__ = ("kind", "exact_type", "data", "bases", "lengths", "n_rows", "names",
                 "forest_base", "_objects", "_exact", "_exponent")

    def __init__(self, kind: str, exact_type: type, data: Any, bases: Sequence[int],
                 lengths: Sequence[int], n_rows: int, names: Sequence[str],
                 forest_base: int | None = None) -> None:
        self.kind = kind
        self.exact_type = float if kind == FLOAT64 else exact_type
        self.data = data
        self.bases = bases
        self.lengths = lengths
        self.n_rows = n_rows
        self.names = names
        self.forest_base = forest_base
        self._objects: list | None = None
        self._exact: list | None = None
        self._exponent: int | None = None

    def __len__(self) -> int:
        return len(self.data)

    # -- the numbers in the forms the kernels read ------------------------------------------

    def objects(self) -> list:
        """The coins as Python numbers (ints, floats, Fractions or Decimals), cached."""
        if self._objects is None:
            self._objects = self.data if self.kind == OBJECTS else self.data.tolist()
        return self._objects

    def exact(self) -> list:
        """The coins as exact numbers: floats become Fractions (no NaN or infinity is left
        by then: the machine kernel or ``check_finite`` has refused them)."""
        if self._exact is None:
            if self.kind == FLOAT64:
                coins = self.objects()
                try:
                    self._exact = [Fraction(x) for x in coins]
                except (ValueError, OverflowError):
                    bad = next(i for i, x in enumerate(coins) if not math.isfinite(x))
                    raise self.not_finite(bad) from None
            else:
                self._exact = self.objects()
        return self._exact

    def decimal_exponent(self) -> int:
        """The finest exponent among ALL the game's coins, forest included (0 if none is
        finer): every sum of coins is exact there."""
        if self._exponent is None:
            exponent = 0
            if self.exact_type is Decimal:
                for x in self.data:
                    e = x.as_tuple().exponent
                    if isinstance(e, int) and e < exponent:
                        exponent = e
            self._exponent = exponent
        return self._exponent

    # -- results and errors ------------------------------------------------------------------

    def number(self, exact: Any) -> Number:
        """An answer in the game's number type: floats rounded once, 0 typed."""
        kind = self.exact_type
        if kind is float:
            return exact if type(exact) is float else _round_float(exact)
        if kind is int:
            return int(exact)
        result: Any = exact if type(exact) is kind else kind(exact)
        return cast(Number, result)

    def coin(self, flat_index: int) -> Number:
        coin: Number = self.data[flat_index]
        return coin

    def locate(self, flat_index: int) -> tuple[str, str]:
        """(name of the component, "index i" or "node i") of a flat index."""
        base = self.forest_base
        if base is not None and flat_index >= base:
            return "forest", f"node {flat_index - base}"
        for c, (start, length) in enumerate(zip(self.bases, self.lengths)):
            if start <= flat_index < start + length:
                return self.names[c], f"index {flat_index - start}"
        return "game", f"index {flat_index}"  # pragma: no cover - every coin has a place

    def not_finite(self, flat_index: int) -> ValueError:
        name, place = self.locate(flat_index)
        return ValueError(f"{name}: coin at {place} is {short_repr(self.coin(flat_index))}; "
                          "coins must be finite")


def storage(columns: Sequence[Column], n_rows: int, names: Sequence[str],
            forest: Column | None = None, *, copy: bool = True, where: str = "game") -> Coins:
    """One flat storage for the components (rows first, then stacks) and a forest's values
    (after them), in the one number kind they are solved in (``unify``).

    With ``copy`` (a ``Game``: immutable, it never keeps a view of a caller's mutable
    buffer) the coins are always copied; without it (one call of a one-row function) a
    single int64/float64 buffer is read where it is. O(n).
    """
    lengths = [len(c) for c in columns]
    bases = []
    offset = 0
    for length in lengths:
        bases.append(offset)
        offset += length
    every = list(columns) if forest is None else [*columns, forest]
    kind, exact_type = unify(every, where)
    data: Any
    if kind in (INT64, FLOAT64):
        parts = [cast(Buffer1D, c.data) if kind == INT64 else as_floats(c) for c in every]
        if len(parts) == 1 and not (copy and isinstance(parts[0], memoryview)):
            data = memoryview(parts[0])
        else:
            flat: array[Any] = array("q" if kind == INT64 else "d")
            for part in parts:
                flat.frombytes(memoryview(part).cast("B"))
            data = memoryview(flat)
    else:
        data = []
        for c in every:
            data.extend(as_objects(c, exact_type))
    return Coins(kind, exact_type, data, bases, lengths, n_rows, names,
                 None if forest is None else offset)


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


def _solve(coins: Coins, first: Callable[..., Any] | None, exact: Callable[..., Any],
           answer: Answer, args: tuple = ()) -> Any:
    """The one path from a kernel's status to its fallback: ``first(numbers, *args)`` (the
    machine kernel, or the twin on the same numbers) unless it is None, then if it
    overflowed ``exact(exact numbers, *args)`` under the exact Decimal context; the payload
    put in the game's number type."""
    if first is not None:
        status, payload = _status(first(coins.objects() if EXACT else coins.data, *args))
        if status == Status.OK:
            return _answer(coins, payload, answer)
        if status == Status.NOT_FINITE:
            raise coins.not_finite(payload)
    with decimal.localcontext(EXACT_DECIMAL):
        status, payload = _status(exact(coins.exact(), *args))
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


# The name of a fused kernel's specialisation for each machine kind.
_SPECIALISATIONS = {INT64: "int64_t", FLOAT64: "double"}
_KERNELS: dict[tuple[str, str], tuple[Callable[..., Any], Callable[..., Any]]] = {}


def kernels(name: str, kind: str) -> tuple[Callable[..., Any], Callable[..., Any]]:
    """What ``run`` calls first on coins of ``kind`` (the machine kernel ``name``, its twin
    with ``COINSROW_EXACT=1``) and the exact twin, looked up once a process.

    A fused kernel is called through its specialisation for the kind: the fused function's
    own dispatch imports NumPy to look at its argument (some 60 ms on the first call) and
    costs 0.25 us a call (benchmarks/small_calls.py).
    """
    found = _KERNELS.get((name, kind))
    if found is None:
        machine, twin = twins(name)
        signatures = getattr(machine, "__signatures__", None)
        if signatures is not None and kind in _SPECIALISATIONS:
            machine = signatures[_SPECIALISATIONS[kind]]
        found = _KERNELS[(name, kind)] = (twin if EXACT else machine, twin)
    return found


def run(coins: Coins, kernel: str, *args: Any, answer: Answer = Answer.NUMBER) -> Any:
    """Run ``kernel`` (a name in ``_core``) over ``coins`` with ``args``, through the one
    path above; for ``Answer.STRUCTURE``, a ``Structure``."""
    first, twin = kernels(kernel, coins.kind)
    payload = _solve(coins, first if coins.kind != OBJECTS else None, twin, answer, args)
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
