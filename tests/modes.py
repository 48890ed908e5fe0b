"""The mode the suite runs in: machine kernels, or (``COINSROW_EXACT=1``) their exact twins.

CI runs the whole suite in both modes. A test about which kernel runs, or about the machine
kernels' overflow, is marked ``machine_only``; ``scaled(n)`` shrinks a size in the exact mode,
where every kernel runs on Python numbers (the same answers, a constant factor slower).
"""

from __future__ import annotations

import pytest

from coinsrow import _core
from coinsrow._dispatch import EXACT

#: The window structure the Engine uses for int64 and float64 coins in this mode.
MACHINE_WINDOWS = _core.RowWindowsExact if EXACT else _core.RowWindows

machine_only = pytest.mark.skipif(
    EXACT, reason="about the machine kernels; COINSROW_EXACT=1 runs their exact twins")


def scaled(n: int, factor: int = 4) -> int:
    """``n``, or ``n // factor`` (at least 1) in the exact mode."""
    return max(1, n // factor) if EXACT else n
