# Ctrl-C in long loops that run without the GIL: every few steps the loop takes the GIL
# for a moment and runs the signal handlers. Only inline helpers: no module of its own.

from libc.stdint cimport int64_t
from cpython.exc cimport PyErr_CheckSignals


cdef enum:
    # Steps between two looks at pending signals (Ctrl-C) in the long loops: a fraction of a
    # millisecond of work, so an interrupt is honoured at once and the GIL rarely taken.
    _FOREST_SIGNALS = 0xFFFF


cdef inline int _forest_signals_now() except -1 nogil:
    with gil:
        PyErr_CheckSignals()
    return 0


cdef inline int _forest_signals(int64_t step) except -1 nogil:
    """Every _FOREST_SIGNALS steps, take the GIL briefly and run the signal handlers (a
    KeyboardInterrupt is raised from here). The GIL's code is out of line, so that this
    test stays small enough to be inlined in the long loops."""
    if (step & _FOREST_SIGNALS) == 0:
        _forest_signals_now()
    return 0
