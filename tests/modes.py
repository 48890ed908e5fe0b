"""The mode the suite runs in: machine kernels, or (``COINSROW_EXACT=1``) their exact twins.

CI runs the whole suite in both modes. A test about which kernel runs, or about the machine
kernels' overflow, is marked ``machine_only``; ``scaled(n)`` shrinks a size in the exact mode,
where every kernel runs on Python numbers (the same answers, a constant factor slower).

How many random cases a test draws follows the Hypothesis profile the run loads
(tests/conftest.py): ``drawn(n)`` is ``n`` under "ci", the profile .ci/run sets, half as many
in a plain run (the README's command), a quarter under "quick", four times under "thorough".
"""

from __future__ import annotations

import os

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


#: The share of each loop's random cases this run draws (see ``drawn``).
DRAWN_SHARE = {"quick": 0.25, "default": 0.5, "ci": 1.0, "thorough": 4.0}.get(
    os.environ.get("HYPOTHESIS_PROFILE", "default"), 0.5)


def drawn(n: int) -> int:
    """``n`` random cases as CI draws them, scaled to this run's profile (at least 1)."""
    return max(1, round(n * DRAWN_SHARE))
