"""How many threads a call may use: ``threads=None`` (as many as pay off) or a count.

The one-row functions cut a long row into parts reduced at once on threads
(docs/rows.md); this module decides how many threads and parts. A count beyond the
machine's cores starts no more threads than it has cores (more cannot run at once: they
would only add their start-up, stacks and switches), and a count beyond ``MAX_THREADS`` is
refused.
"""

from __future__ import annotations

import numbers
import os
from typing import Any

from ._core import THREADS_AT_MOST

__all__ = ["MAX_THREADS", "available_cores", "row_split", "thread_count"]

#: The largest ``threads=`` accepted: more than the cores of any machine Python runs on
#: (Linux builds for at most 8192 CPUs); a larger count is a ``ValueError``.
MAX_THREADS: int = THREADS_AT_MOST

# With threads=None, each thread gets at least this many coins of a row: below that the
# threads cost more than they save (a thread's start is some 0.1 ms, a million coins 3 ms).
ROW_COINS_PER_THREAD = 1 << 20
# A part of a row has at most this many coins, and there are about four parts a thread, so
# that the threads of a busy machine still finish together.
ROW_PART_COINS = 1 << 22
ROW_PARTS_PER_THREAD = 4


_cores: int | None = None
_machine_cores: int | None = None


def available_cores() -> int:
    """The cores this process may run on, asked of the OS once a process (a system call on
    every call with ``threads=None`` otherwise; a program that changes its CPU affinity
    afterwards can pass ``threads=`` explicitly)."""
    global _cores
    if _cores is None:
        _cores = _ask_cores()
    return _cores


def machine_cores() -> int:
    """The cores of the machine (``os.cpu_count()``), asked once a process: the most
    threads that can run at once, whatever this process's CPU affinity is now."""
    global _machine_cores
    if _machine_cores is None:
        _machine_cores = os.cpu_count() or 1
    return _machine_cores


def _ask_cores() -> int:
    counter = getattr(os, "process_cpu_count", None)  # Python 3.13+: respects the affinity
    if counter is not None:
        return int(counter() or 1)
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def requested_threads(threads: Any) -> int:
    """``threads`` checked: a positive int, at most ``MAX_THREADS`` (not ``None``)."""
    if isinstance(threads, bool) or not isinstance(threads, numbers.Integral):
        raise TypeError(f"threads must be a positive int or None, got {threads!r}")
    count = int(threads)
    if not 1 <= count <= MAX_THREADS:
        # (An int of thousands of digits has no str: its size is shown instead.)
        shown = str(count) if count.bit_length() <= 128 else f"a {count.bit_length()}-bit int"
        if count < 1:
            raise ValueError(f"threads must be at least 1, got {shown}")
        raise ValueError(f"threads must be at most {MAX_THREADS}, got {shown} (None uses the "
                         "cores this process may use)")
    return count


def thread_count(threads: Any) -> int:
    """The threads a call starts for ``threads``: every available core for ``None``; a count,
    checked (``requested_threads``), capped at the machine's cores."""
    if threads is None:
        return available_cores()
    return min(requested_threads(threads), machine_cores())


def row_split(n: int, threads: Any) -> tuple[int, int]:
    """``(parts, threads)`` for one row of n coins.

    ``threads=None``: one thread per ``ROW_COINS_PER_THREAD`` coins, at most the available
    cores; ``threads=k``: k threads, at most the machine's cores (``thread_count``), and
    about ``ROW_PARTS_PER_THREAD`` parts a thread, at least k (a row of fewer coins has a
    part per coin). One thread reduces the row coin after coin, in one part.
    """
    if threads is None:
        if n < 2 * ROW_COINS_PER_THREAD:
            return 1, 1  # one thread, whatever the cores: not worth asking the OS for them
        requested = count = max(1, min(available_cores(), n // ROW_COINS_PER_THREAD))
    else:
        requested, count = requested_threads(threads), thread_count(threads)
    if requested == 1 or n < 2:
        return 1, 1
    # About four parts a thread, and at least as many parts as threads asked
    # for: a short row is cut into k parts by threads=k on any machine (the same stitching
    # as on k cores), but the parts do not grow fourfold with a count past the cores.
    parts = max(ROW_PARTS_PER_THREAD * count, -(-n // ROW_PART_COINS), requested)
    return max(1, min(parts, n)), count
