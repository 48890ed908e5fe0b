# cython: language_level=3
"""The compiled loops of coinsrow: one included file per algorithm.

Only loops live here; input checks, result types and errors are in the Python modules, and
one of them, ``coinsrow._dispatch``, runs every kernel. Declarations shared by the files
(the coin type, the ``Status`` and ``End`` codes, the checked arithmetic) are in _core.pxd.

Every kernel that computes on coins has an exact twin beside it: the same name with the
suffix ``_exact`` (``Exact`` for a class), the same arguments and methods, on a list of
Python numbers. docs/architecture.md describes the contract.
"""

from libc.stdint cimport int64_t, uint8_t, uint64_t
# Scratch memory comes from Python's raw allocator (every allocation, growth and release
# through the same one): safe without the GIL, and seen by tracemalloc, so the memory
# benchmarks measure the kernels' scratch too.
from cpython.mem cimport (PyMem_RawMalloc as malloc, PyMem_RawCalloc as calloc,
                          PyMem_RawRealloc as realloc, PyMem_RawFree as free)

include "_scratch.pxi"      # scratch memory kept between calls, huge pages
include "_fsum.pxi"         # correctly rounded sums of doubles (float profits)
include "_rows.pxi"         # rows and stacks: Fusion, Fruitless, Greedy, play, profits
include "_window.pxi"       # the window structure: Engine and the pizza
include "_subrows.pxi"      # values of sub-rows (Intervals)
include "_forest.pxi"       # forests of rooted trees, with rows and stacks
include "_batch.pxi"        # many one-row games at once
include "_cooperative.pxi"  # the cooperative maximum
include "_pack.pxi"         # the coins of many components packed into one buffer
