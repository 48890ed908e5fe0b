"""The plain C baseline (``plain_loop.c``) compiled with -O2 and loaded with ctypes.

Used by the benchmarks (``run.py``, ``shapes.py``, ``components_bench.py``) and by the tests
of the row families, which skip the comparison when no C compiler is found.
"""

from __future__ import annotations

import ctypes
import os
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "plain_loop.c"
FLAGS = ["-O2", "-shared", "-fPIC"]


class PlainC:
    """``plain_loop.c`` compiled with ``cc -O2`` (``lib`` is None without a compiler, and
    ``why`` says why).

    ``value`` is the hand-written loop of the paper's pseudocode; its stack is a buffer kept
    here between calls, allocated (and its pages touched) before the first timed call of a
    size, as the library keeps its scratch. ``value_push_first`` is the earlier baseline,
    which allocates its stack in each call."""

    def __init__(self, flags: list[str] | None = None) -> None:
        self.lib: ctypes.CDLL | None = None
        self.why = ""
        self.compiler = ""
        self.flags = list(FLAGS if flags is None else flags)
        self._stack = np.zeros(1, dtype=np.int64)
        cc = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc")
        if cc is None:
            self.why = "no C compiler found"
            return
        if not SOURCE.exists():
            self.why = f"{SOURCE.name} not found"
            return
        self.tmp = tempfile.mkdtemp(prefix="coinsrow-bench-")
        so = os.path.join(self.tmp, "plain_loop.so")
        try:
            done = subprocess.run([cc, *self.flags, "-o", so, str(SOURCE)],
                                  capture_output=True, text=True)
        except OSError as e:
            self.why = f"running {cc} failed: {e}"
            return
        if done.returncode != 0:
            self.why = "compiling plain_loop.c failed: " + done.stderr.strip()[:200]
            return
        lib = ctypes.CDLL(so)
        lib.plain_value.restype = ctypes.c_int64
        lib.plain_value.argtypes = [ctypes.c_void_p, ctypes.c_int64, ctypes.c_void_p]
        lib.plain_value_push_first.restype = ctypes.c_int64
        lib.plain_value_push_first.argtypes = [ctypes.c_void_p, ctypes.c_int64]
        lib.pe477_coins.restype = None
        lib.pe477_coins.argtypes = [ctypes.c_void_p, ctypes.c_int64]
        self.lib = lib
        self.compiler = subprocess.run([cc, "--version"], capture_output=True,
                                       text=True).stdout.splitlines()[0]

    def reserve(self, n: int) -> None:
        """Make the kept stack hold ``n`` entries, its pages touched (call it outside the
        timing; ``value`` calls it too, so the first call of a larger size pays for it)."""
        if len(self._stack) < n:
            self._stack = np.zeros(n, dtype=np.int64)
            self._stack.fill(1)  # fault the pages in now, not in the timed call

    def value(self, a: np.ndarray, start: int = 0, stop: int | None = None) -> int:
        """The value of the row a[start:stop] (a contiguous int64 array)."""
        assert self.lib is not None and a.dtype == np.int64 and a.flags.c_contiguous
        stop = len(a) if stop is None else stop
        self.reserve(stop - start)
        return int(self.lib.plain_value(a.ctypes.data + 8 * start, stop - start,
                                        self._stack.ctypes.data))

    def value_push_first(self, a: np.ndarray) -> int:
        assert self.lib is not None and a.dtype == np.int64 and a.flags.c_contiguous
        return int(self.lib.plain_value_push_first(a.ctypes.data, len(a)))

    def halves_on_two_threads(self, a: np.ndarray) -> None:
        """The C loop on each half of ``a`` at once, on two threads (ctypes releases the
        GIL), each with its own stack: what two threads of this machine give at this
        moment, as a calibration."""
        assert self.lib is not None
        h = len(a) // 2
        self.reserve(len(a))  # the two halves' stacks, one after the other
        lib, base, stack = self.lib, a.ctypes.data, self._stack.ctypes.data
        other = threading.Thread(target=lib.plain_value, args=(base, h, stack))
        other.start()
        lib.plain_value(base + 8 * h, len(a) - h, stack + 8 * h)
        other.join()

    def pe477(self, n: int) -> np.ndarray:
        """Project Euler 477's first n coins."""
        assert self.lib is not None
        a = np.empty(n, dtype=np.int64)
        self.lib.pe477_coins(a.ctypes.data, n)
        return a
