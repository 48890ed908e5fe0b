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

A short list or tuple of ints or floats, and a small game of them, has a compiled fast path
before all this, ``_core.short_rows``: the answers of ``run``'s path, bit for bit, or None
for an input it leaves to it; taken where ``SHORT_PATH`` is true (not with
``COINSROW_EXACT=1``).

Kernel structures that answer many queries (the window structure, sub-row values) are built
the same way and wrapped in a ``Structure``, whose queries take the same path. A batch of
one-row games takes it too, through ``run_games``: one kernel call per chunk of games, one
status per game.
docs/architecture.md describes the layout and the kernels' contract.
"""

from __future__ import annotations

import bisect
import decimal
import enum
import os
from array import array
from collections.abc import Callable, Sequence
from decimal import Decimal
from typing import Any, cast

from . import _core
from ._coins import FLOAT64, INT64, OBJECTS, TYPECODES, Coins, Column, Number, storage

__all__ = ["EXACT", "EXACT_DECIMAL", "Answer", "Structure", "kernels", "span", "run",
           "run_game", "run_games", "SHORT_PATH", "twins"]

#: ``COINSROW_EXACT=1`` at import: every kernel runs as its exact twin (for tests and
#: debugging; the answers are the same, a constant factor slower).
EXACT = os.environ.get("COINSROW_EXACT", "").strip() not in ("", "0")

#: Whether the compiled fast path of short lists and small games (``_core.short_rows``) is
#: taken: its functions answer as ``run`` would, or None (the caller then takes ``run``'s
#: path). A 16-int list costs 0.2 us there against 5 us through the Python layers
#: (benchmarks/small_calls.py). Not with ``COINSROW_EXACT=1``, where every answer comes from
#: the kernels' exact twins.
SHORT_PATH = not EXACT

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


# The codes that every call compares, read as module constants: an enum class's attribute
# (``Answer.NUMBER``, ``Status.OK``) costs 0.14 us on CPython 3.11, a global 0.02 us, and
# run() read five of them for a structure (measured with timeit).
_NUMBER, _PROFITS, _INDEXED, _STRUCTURE = (Answer.NUMBER, Answer.PROFITS, Answer.INDEXED,
                                          Answer.STRUCTURE)
_OK, _NOT_FINITE = Status.OK, Status.NOT_FINITE


def _answer(coins: Coins, payload: Any, answer: Answer) -> Any:
    """The payload in the game's number type."""
    if answer is _NUMBER:
        return coins.number(payload)
    if answer is _PROFITS:
        first, second = coins.number(payload[0]), coins.number(payload[1])
        if isinstance(first, Decimal) and isinstance(second, Decimal):
            # A profit is a sum of coins: exact at their finest exponent, where it is written.
            quantum = Decimal(1).scaleb(coins.decimal_exponent())
            with decimal.localcontext(EXACT_DECIMAL):
                first, second = first.quantize(quantum), second.quantize(quantum)
        return first, second
    if answer is _INDEXED:
        return payload[0], coins.number(payload[1])
    return payload  # PLAY, STRUCTURE


def _status(reply: Any) -> tuple[Any, Any]:
    """(status, payload) of a kernel's reply: a function's pair, or a structure."""
    if isinstance(reply, tuple):
        return reply
    status = reply.status
    return status, (reply if status == _OK else reply.bad_index)


def _solve(coins: Coins, first: Callable[..., Any] | None, exact: Callable[..., Any],
           answer: Answer, args: tuple = ()) -> Any:
    """The one path from a kernel's status to its fallback: ``first(numbers, *args)`` (the
    machine kernel, or the twin on the same numbers) unless it is None, then if it
    overflowed ``exact(exact numbers, *args)`` under the exact Decimal context; the payload
    put in the game's number type."""
    if first is not None:
        status, payload = _status(first(coins.objects() if EXACT else coins.data, *args))
        if status == _OK:
            return _answer(coins, payload, answer)
        if status == _NOT_FINITE:
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
    if answer is _STRUCTURE:
        return Structure(coins, twin, args, payload)
    return payload


# -- many one-row games ------------------------------------------------------------------------

ChunkMap = Callable[[Callable[[tuple[int, int]], Any], Sequence[tuple[int, int]]], list]


def run_games(kind: str, coins: Any, base: int, offsets: Any,
              chunks: Sequence[tuple[int, int]], map_chunks: ChunkMap | None, answer: Answer,
              name: Callable[[int], int]) -> tuple[list, list]:
    """The one path for a batch of one-row games, as ``run`` is for one game.

    The machine kernel ``batch_solve`` (its twin in the exact mode) solves every game of the
    flat int64/float64 buffer ``coins`` of ``kind`` (game g is ``coins[offsets[g] - base:
    offsets[g + 1] - base]``), one call per chunk ``(first game, stop)`` of ``chunks``;
    ``map_chunks(solve_chunk, chunks)``, if given, makes the calls (on threads: the kernel
    releases the GIL) and returns their reports in order. Then the statuses: NOT_FINITE is a
    ``ValueError`` naming the game ("game ``name(g)``") and the first bad coin; a game
    that overflowed is redone on its own by ``run_game``, exactly (and rounded once). Returns
    the values (``Answer.NUMBER``) or the first players' profits (``Answer.PROFITS``), and
    the second players' profits (empty for values), as lists in the games' number type.
    O(total coins + games).
    """
    want_profits = answer is Answer.PROFITS
    n_games = len(offsets) - 1
    kernel, _ = kernels("batch_solve", kind)
    if EXACT:
        numbers = coins.tolist()
        first: Any = [0] * n_games
        second: Any = [0] * n_games if want_profits else []
    else:
        numbers = coins
        typecode = TYPECODES[kind]
        first = array(typecode, bytes(8 * n_games))
        second = array(typecode, bytes(8 * n_games)) if want_profits else array(typecode)
    status = bytearray(n_games)

    def solve_chunk(chunk: tuple[int, int]) -> tuple[int, int]:
        return cast("tuple[int, int]", kernel(numbers, base, offsets, chunk[0], chunk[1],
                                              first, second, status))

    if map_chunks is None or EXACT or len(chunks) <= 1:  # the twin holds the GIL
        reports = [solve_chunk(chunk) for chunk in chunks]
    else:
        reports = map_chunks(solve_chunk, chunks)
    bad_coins = [payload for code, payload in reports if code == Status.NOT_FINITE]
    if bad_coins:
        flat_index = min(bad_coins)
        game = bisect.bisect_right(offsets, flat_index + base) - 1
        index = flat_index - (offsets[game] - base)
        raise ValueError(f"game {name(game)}: coin at index {index} is {coins[flat_index]!r}; "
                         "coins must be finite")
    if EXACT:  # the twin's answers, in the games' number type (0 is 0.0 in a float game)
        convert = float if kind == FLOAT64 else int
        firsts: list[Any] = [convert(x) for x in first]
        seconds: list[Any] = [convert(x) for x in second]
    else:
        firsts = first.tolist()
        seconds = second.tolist()
    if any(code == Status.OVERFLOW for code, _ in reports):
        overflowed = bytes([Status.OVERFLOW])
        g = status.find(overflowed)
        while g >= 0:
            start, stop = offsets[g] - base, offsets[g + 1] - base
            exact = run_game(Column(kind, coins[start:stop]), answer, f"game {name(g)}")
            if want_profits:
                firsts[g], seconds[g] = exact
            else:
                firsts[g] = exact
            g = status.find(overflowed, g + 1)
    return firsts, seconds


def run_game(col: Column, answer: Answer, name: str) -> Any:
    """One one-row game on its own, through ``run`` (``game_value``, or ``game_profits`` for
    ``Answer.PROFITS``): a game of a batch that is exact numbers, or that overflowed. O(n)."""
    coins = storage([col], 1, [name], copy=False, where=name)
    kernel = "game_profits" if answer is Answer.PROFITS else "game_value"
    return run(coins, kernel, *span(0, len(col)), 1, answer=answer)


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
