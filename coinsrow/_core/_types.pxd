# coinsrow._core._types: the coin type every kernel is written
# for, the status and move-end codes shared by C and Python, and the checked arithmetic.
# Every module of the package cimports these names (``from coinsrow._core._types cimport *``).
#
# The kernels' contract (docs/architecture.md):
# - a machine kernel reads its coins from a C-contiguous 1-D int64 or float64 buffer and
#   returns ``(status, payload)``: the result when ``status`` is OK, the flat index of the
#   bad coin when it is NOT_FINITE, nothing useful when it is OVERFLOW (an int64 overflow, or
#   a float64 result or intermediate beyond the float range);
# - its exact twin has the same name with the suffix ``_exact`` (``Exact`` for a class),
#   the same arguments and the same methods, but reads a list of Python numbers (ints of any
#   size, floats, Fraction, Decimal) and computes with Python's arithmetic. On Python floats
#   it rounds exactly as the machine kernel does (same operations in the same order), so the
#   two agree bit for bit; on exact numbers it never overflows.

# The C names every module of the package uses, cimported here once: ``cimport *`` passes
# them on.
from libc.stdint cimport (INT64_MAX, int8_t, int16_t, int32_t, int64_t, uint8_t,
                          uint16_t, uint32_t, uint64_t)
from libc.string cimport memcpy, memmove, memset
from libc.math cimport fabs, isfinite, ldexp, INFINITY
from cpython.exc cimport PyErr_CheckSignals, PyErr_Occurred
# Scratch memory comes from Python's raw allocator (every allocation, growth and release
# through the same one): safe without the GIL, and seen by tracemalloc, so the memory
# benchmarks measure the kernels' scratch too.
from cpython.mem cimport (PyMem_RawMalloc as malloc, PyMem_RawCalloc as calloc,
                          PyMem_RawRealloc as realloc, PyMem_RawFree as free, PyMem_RawRealloc)

ctypedef fused coin_t:
    int64_t
    double


# The codes are C enums here; their Python classes (IntEnums of the same names and values:
# ``_core.Status``, ...) are made once, in _types.pyx. A kernel answers a status as a plain int
# (``Status.OK`` below is the int 0 in Python), equal to its Python code: a ``cpdef enum``
# compiled into every module that returns one Cython's converter to the Python class,
# 30 KB in all, stripped on x86-64 Linux.
cdef enum Status:
    # The first element of every kernel's answer.
    OK "COINSROW_STATUS_OK" = 0
    OVERFLOW "COINSROW_STATUS_OVERFLOW" = 1
    NOT_FINITE "COINSROW_STATUS_NOT_FINITE" = 2


cdef enum End:
    # The end a coin is taken from, in the play kernels' output.
    LEFT "COINSROW_END_LEFT" = 0
    RIGHT "COINSROW_END_RIGHT" = 1
    TOP "COINSROW_END_TOP" = 2
    ROOT "COINSROW_END_ROOT" = 3


cdef enum:
    # Internal to the C loops: a failed allocation, raised as MemoryError before returning.
    NO_MEMORY "COINSROW_NO_MEMORY" = 3
    # The largest ``threads=`` a call accepts: more than the cores of any machine Python
    # runs on (Linux builds for at most 8192 CPUs). coinsrow._threads refuses a larger count
    # and the fast path of short rows leaves it to that refusal.
    MAX_THREADS "COINSROW_MAX_THREADS" = 8192


cdef extern from *:
    """
    #include <stdint.h>
    #if defined(__GNUC__) || defined(__clang__)
    static inline int coinsrow_add_overflow(int64_t a, int64_t b, int64_t *r) {
        return __builtin_add_overflow(a, b, r);
    }
    static inline int coinsrow_sub_overflow(int64_t a, int64_t b, int64_t *r) {
        return __builtin_sub_overflow(a, b, r);
    }
    #define coinsrow_unlikely(x) __builtin_expect(!!(x), 0)
    #else
    /* Portable version (MSVC): unsigned arithmetic wraps without undefined behaviour. */
    static inline int coinsrow_add_overflow(int64_t a, int64_t b, int64_t *r) {
        int64_t s = (int64_t)((uint64_t)a + (uint64_t)b);
        *r = s;
        return ((a >= 0) == (b >= 0)) && ((s >= 0) != (a >= 0));
    }
    static inline int coinsrow_sub_overflow(int64_t a, int64_t b, int64_t *r) {
        int64_t s = (int64_t)((uint64_t)a - (uint64_t)b);
        *r = s;
        return ((a >= 0) != (b >= 0)) && ((s >= 0) != (a >= 0));
    }
    #define coinsrow_unlikely(x) (x)
    #endif
    """
    bint coinsrow_unlikely(bint x) noexcept nogil
    bint coinsrow_add_overflow(int64_t a, int64_t b, int64_t *r) noexcept nogil
    bint coinsrow_sub_overflow(int64_t a, int64_t b, int64_t *r) noexcept nogil


cdef inline bint add_checked(coin_t a, coin_t b, coin_t *r) noexcept nogil:
    """r = a + b; true on int64 overflow (float64 overflow shows as an infinity instead)."""
    if coin_t is int64_t:
        return coinsrow_add_overflow(a, b, r)
    else:
        r[0] = a + b
        return False


cdef inline bint sub_checked(coin_t a, coin_t b, coin_t *r) noexcept nogil:
    """r = a - b; true on int64 overflow (float64 overflow shows as an infinity instead)."""
    if coin_t is int64_t:
        return coinsrow_sub_overflow(a, b, r)
    else:
        r[0] = a - b
        return False


cdef inline bint profits_checked(int64_t total, int64_t value, int64_t *first,
                                 int64_t *second) noexcept nogil:
    """What each player takes, from the coins' sum ``total`` and the game's value: sum +
    value is twice what the first player takes (even, so halving it is exact), the second
    takes the rest. True on int64 overflow. O(1)."""
    cdef int64_t twice
    cdef bint ovf = add_checked(total, value, &twice)
    first[0] = twice // 2
    return sub_checked(total, first[0], second) | ovf


cdef inline bint _is_finite(coin_t x) noexcept nogil:
    if coin_t is double:
        return isfinite(x)
    else:
        return True


# Variants of one loop (the Fusion loops of _row_helpers, _row_stack, _row_float_fusion),
# chosen at compile time, one specialisation each: compile-time flags. A loop takes a
# pointer argument of a fused type below (segments_t, runs_t, ...), and its caller passes
# ``<Wanted *> NULL`` or ``<NotWanted *> NULL``: the pointer is never read, only its type
# picks the specialisation, inside which ``if segments_t is Wanted:`` is decided by Cython
# (the other branch is not compiled; Cython warns "Unreachable code" for it). One fused
# type per flag, so that the flags of one loop vary independently:
#   segments_t  Wanted: the loop writes each entry's first coin (play, profits)
#   runs_t      Wanted: the stack may hold runs of unwritten coins (_row_stack)
#   padded_t    Wanted: the scratch has two readable entries below its first one
#   ties_t      Wanted: a tie fuses too (x <= M >= v), else the strict test (x <= M > v)
#   starts_t    Wanted: the coins are a compacted row's entries, with their first coins
# GCC names a specialisation by its flags' indices (Wanted 0, NotWanted 1, in the order of
# the loop's fused arguments): _row_stack's code placement refers to these names.
cdef struct Wanted:
    char unused

cdef struct NotWanted:
    char unused

ctypedef fused segments_t:
    Wanted
    NotWanted

ctypedef fused runs_t:
    Wanted
    NotWanted

ctypedef fused padded_t:
    Wanted
    NotWanted

ctypedef fused ties_t:
    Wanted
    NotWanted

ctypedef fused starts_t:
    Wanted
    NotWanted


cdef enum ForestProblem:
    # What forest_check finds in a parent array.
    FOREST_OK "COINSROW_FOREST_OK" = 0
    PARENT_OUT_OF_RANGE "COINSROW_FOREST_PARENT_OUT_OF_RANGE" = 1
    CYCLE "COINSROW_FOREST_CYCLE" = 2


cdef enum OffsetsProblem:
    # What batch_check_offsets finds in Arrow list offsets.
    OFFSETS_OK "COINSROW_OFFSETS_OK" = 0
    OFFSETS_EMPTY "COINSROW_OFFSETS_EMPTY" = 1
    OFFSETS_NEGATIVE "COINSROW_OFFSETS_NEGATIVE" = 2
    OFFSETS_DECREASING "COINSROW_OFFSETS_DECREASING" = 3
    OFFSETS_PAST_END "COINSROW_OFFSETS_PAST_END" = 4


cdef extern from *:
    """
    /* A hint that the line at p is read soon (coinsrow_prefetch), or written soon. */
    #if defined(__GNUC__) || defined(__clang__)
    #define coinsrow_prefetch(p) __builtin_prefetch(p)
    #define coinsrow_prefetch_write(p) __builtin_prefetch(p, 1)
    #else
    #define coinsrow_prefetch(p) ((void)0)
    #define coinsrow_prefetch_write(p) ((void)0)
    #endif
    """
    void coinsrow_prefetch(const void *p) noexcept nogil
    void coinsrow_prefetch_write(const void *p) noexcept nogil


# A kernel's answer from the C status of its loops (defined in _types.pyx).
cdef tuple _answer(int status, int64_t bad_index, object payload)
