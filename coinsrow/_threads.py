"""How many threads a call may use: ``threads=None`` (as many as pay off) or a count.

The one-row functions cut a long row into parts reduced at once on a thread pool
(docs/rows.md); this module decides how many threads and parts.
"""

from __future__ import annotations

import numbers
import os
from typing import Any

__all__ = ["available_cores", "row_split", "thread_count"]

# With threads=None, each thread gets at least this many coins of a row: below that the
# pool costs more than it saves (a thread's start is some 0.1 ms, a million coins 3 ms).
ROW_COINS_PER_THREAD = 1 << 20
# A part of a row has at most this many coins, and there are about four parts a thread, so
# that the threads of a busy machine still finish together.
ROW_PART_COINS = 1 << 22
ROW_PARTS_PER_THREAD = 4


_cores: int | None = None


def available_cores() -> int:
    """The cores this process may run on, asked of the OS once a process (a system call on
    every call with ``threads=None`` otherwise; a program that changes its CPU affinity
    afterwards can pass ``threads=`` explicitly)."""
    global _cores
    if _cores is None:
        _cores = _ask_cores()
    return _cores


def _ask_cores() -> int:
    counter = getattr(os, "process_cpu_count", None)  # Python 3.13+: respects the affinity
    if counter is not None:
        return int(counter() or 1)
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def thread_count(threads: Any) -> int:
    """``threads`` checked: a positive int (``None``: every available core)."""
    if threads is None:
        return available_cores()
    if isinstance(threads, bool) or not isinstance(threads, numbers.Integral):
        raise TypeError(f"threads must be a positive int or None, got {threads!r}")
    if threads < 1:
        raise ValueError(f"threads must be at least 1, got {threads}")
    return int(threads)


def row_split(n: int, threads: Any) -> tuple[int, int]:
    """``(parts, threads)`` for one row of n coins.

    ``threads=None``: one thread per ``ROW_COINS_PER_THREAD`` coins, at most the available
    cores; ``threads=k``: k threads (a row of fewer than k coins has a part per coin). One
    thread reduces the row coin after coin, in one part.
    """
    if threads is None:
        if n < 2 * ROW_COINS_PER_THREAD:
            return 1, 1  # one thread, whatever the cores: not worth asking the OS for them
        count = max(1, min(available_cores(), n // ROW_COINS_PER_THREAD))
    else:
        count = thread_count(threads)
    if count == 1 or n < 2:
        return 1, 1
    parts = max(ROW_PARTS_PER_THREAD * count, -(-n // ROW_PART_COINS))
    return max(1, min(parts, n)), count
