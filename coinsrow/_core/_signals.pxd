# Ctrl-C, the one home of its checks: every long loop of the compiled core looks at pending
# signals through these helpers (docs/architecture.md). Only inline helpers: no module of its
# own.
#
# - A loop that holds the GIL (an exact twin) calls _gil_signals(step) each step.
# - A loop that may raise (``except -1``) calls _forest_signals(step) each step: every
#   _FOREST_SIGNALS steps it takes the GIL for a moment and runs the signal handlers.
# - A loop that returns a status instead (noexcept, e.g. a kernel's part on a worker thread)
#   calls _signal_raised() every so often: True when a handler raised (its exception is then
#   set, for the caller to raise with the GIL), and looks at the stop flag of its call
#   (_stop_requested) when it runs on a worker thread, where signals are not run.

from libc.stdint cimport int64_t
from cpython.exc cimport PyErr_CheckSignals


cdef enum:
    # Steps between two looks at pending signals (Ctrl-C) in the long loops: a fraction of a
    # millisecond of work, so an interrupt is honoured at once and the GIL rarely taken.
    _FOREST_SIGNALS = 0xFFFF


cdef extern from *:
    """
    /* A flag written by one thread and polled by others. */
    static inline int coinsrow_load_flag(const int *flag) {
        return *(const volatile int *)flag;
    }
    static inline void coinsrow_store_flag(int *flag, int value) {
        *(volatile int *)flag = value;
    }
    """
    int coinsrow_load_flag(const int *flag) noexcept nogil
    void coinsrow_store_flag(int *flag, int value) noexcept nogil


cdef extern from "Python.h":
    # Declared without an exception value: the caller sees -1 and returns a status, then
    # raises the exception the handler set once it holds the GIL.
    int _pending_signals "PyErr_CheckSignals" ()


cdef inline bint _signal_raised() noexcept nogil:
    """Take the GIL for a moment and run the signal handlers: True when one raised (its
    exception is set)."""
    with gil:
        return _pending_signals() != 0


cdef inline bint _stop_requested(int *stop_flag) noexcept nogil:
    """True when the call's workers were told to stop (``stop_flag``, set by
    coinsrow_store_flag), or, in the calling thread (``stop_flag`` NULL), when a signal
    handler raised (_signal_raised)."""
    if stop_flag != NULL:
        return coinsrow_load_flag(stop_flag) != 0
    return _signal_raised()


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


cdef inline int _signals_now() except -1:
    """Run the signal handlers now (the GIL held): at the end of a kernel whose last phase
    runs too briefly to look at them, so that a Ctrl-C pressed then stops the kernel itself,
    not the Python code after it."""
    PyErr_CheckSignals()
    return 0


cdef inline int _gil_signals(int64_t step) except -1:
    """_forest_signals for loops that hold the GIL (the exact twins): every
    _FOREST_SIGNALS steps, run the signal handlers."""
    if (step & _FOREST_SIGNALS) == 0:
        PyErr_CheckSignals()
    return 0
