"""Text that never fails: reprs of games of any size and of numbers of any size, and numbers
written as a person writes them (``format_number``: the command line, the terminal game, the
SVG picture and the web page).

Python refuses ``str(n)`` for an int beyond ``sys.get_int_max_str_digits()`` (4300 digits by
default); a repr must still answer, so such a number is shown by its size.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Any

__all__ = ["Repr", "format_number", "number_repr"]


class Repr:
    """A repr built piece by piece that stops at ``limit`` characters ("...)" after it)."""

    __slots__ = ("limit", "parts", "size")

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.parts: list[str] = []
        self.size = 0

    def full(self) -> bool:
        return self.size > self.limit

    def add(self, text: str) -> None:
        if not self.full():
            self.parts.append(text)
            self.size += len(text)

    def groups(self, groups: Iterable[Sequence[Any]], brackets: str = "[]") -> None:
        """``[[a, b], [c]]`` (``([a, b], [c])`` with ``brackets="()"``), until full."""
        self.add(brackets[0])
        for g, group in enumerate(groups):
            if self.full():
                return
            self.add(", [" if g else "[")
            for i, item in enumerate(group):
                if self.full():
                    return
                self.add((", " if i else "") + number_repr(item))
            self.add("]")
        self.add(brackets[1])

    def result(self) -> str:
        text = "".join(self.parts)
        return text if len(text) <= self.limit else text[:self.limit - 10] + " ...)"


def number_repr(x: Any) -> str:
    """``repr(x)``, or for an int beyond Python's int-to-str digit limit, its size."""
    try:
        return repr(x)
    except ValueError:
        if isinstance(x, int):
            return f"<int of {x.bit_length()} bits>"
        if isinstance(x, Fraction):
            return f"Fraction({number_repr(x.numerator)}, {number_repr(x.denominator)})"
        return f"<{type(x).__name__}>"


def format_number(x: Any) -> str:
    """A number as a person writes it, exactly: ``7``, ``7/2``, ``3.50``, ``0.1``.

    Ints in full, ``Fraction`` as ``p/q`` (or ``p`` when whole), ``Decimal`` in positional
    notation unless the exponent is extreme, floats by their shortest round-trip repr.
    """
    if isinstance(x, bool):
        return str(x)
    if isinstance(x, int):
        try:
            return str(x)
        except ValueError:  # beyond sys.get_int_max_str_digits()
            return f"<{x.bit_length()}-bit integer>"
    if isinstance(x, Fraction):
        return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"
    if isinstance(x, Decimal):
        exponent = x.as_tuple().exponent
        if isinstance(exponent, int) and -30 <= exponent <= 30:
            return format(x, "f")
        return str(x)
    if isinstance(x, float):
        return repr(x)
    return str(x)


def json_for_script(data: Any) -> str:
    """JSON that is safe inside a <script> element of a page (no "</script>", no "<!--")."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=True)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
