# coinsrow._core._pack: the coins of a game of many components, packed into one buffer.
#
# A Game keeps all its coins in one flat int64 or float64 buffer (``_dispatch.Coins``).
# Building it one component at a time in Python costs microseconds per component; this
# kernel packs a whole list of components in one compiled pass: Python lists of ints and
# floats, 1-D numeric buffers (NumPy arrays, ``array.array``, ``memoryview``) and Arrow
# list spans (``PackSpan``: many components in one values buffer with list offsets). It
# moves coins and never computes on them, so it has no exact twin: with COINSROW_EXACT=1
# the kernels read the packed coins as Python numbers.

cimport cython
from coinsrow._core._types cimport *

from cpython.buffer cimport PyObject_GetBuffer, PyBuffer_Release, PyBUF_FORMAT, PyBUF_STRIDES
from cpython.float cimport PyFloat_AS_DOUBLE
from cpython.long cimport PyLong_AsLongLongAndOverflow
from cpython.array cimport array as _pack_array_type, clone as _pack_clone
from array import array as _pack_array
from enum import IntEnum as _IntEnum
import sys as _pack_sys


# pack_components answers a plain int, equal to its code in the IntEnum ``Packing`` made below
# (a ``cpdef enum`` compiled Cython's enum base class and converter into this module).
cdef enum Packing:
    PACKED = 0          # every component packed: (coins, offsets)
    PACK_ELSEWHERE = 1  # some items are not packable here: (marks, None), marks[i] = 1


# Set through the module's namespace, where the C enum of the same name refuses an assignment.
globals()["Packing"] = _IntEnum("Packing", [("PACKED", PACKED),
                                            ("PACK_ELSEWHERE", PACK_ELSEWHERE)],
                                module=__name__)


@cython.auto_pickle(False)
cdef class PackSpan:
    """Many components in one buffer: component j of the span is
    ``values[offsets[j]:offsets[j + 1]]`` (Arrow's list layout). ``values`` is a 1-D numeric
    buffer, ``offsets`` a 1-D int32 or int64 buffer, non-decreasing, within ``values``."""

    cdef readonly object values
    cdef readonly object offsets

    def __init__(self, values, offsets):
        self.values = values
        self.offsets = offsets


cdef enum:
    _PACK_SIGNED = 1
    _PACK_UNSIGNED = 2
    _PACK_FLOAT = 3


cdef int _pack_code(const Py_buffer *view) noexcept:
    """The kind of a 1-D buffer's items (_PACK_SIGNED, _UNSIGNED, _FLOAT), 0 if unsupported:
    native byte order, one item code, a width the code allows."""
    cdef const char *f = view.format
    cdef char code
    cdef Py_ssize_t size = view.itemsize
    if f == NULL:
        return 0
    if f[0] == b'@' or f[0] == b'=' or f[0] == b'<':
        if f[0] == b'<' and not _PACK_LITTLE_ENDIAN:
            return 0
        f += 1
    if f[0] == 0 or f[1] != 0:
        return 0
    code = f[0]
    if code in b'bhilqn' and (size == 1 or size == 2 or size == 4 or size == 8):
        return _PACK_SIGNED
    if code in b'BHILQN' and (size == 1 or size == 2 or size == 4 or size == 8):
        return _PACK_UNSIGNED
    if code in b'fd' and (size == 4 or size == 8):
        return _PACK_FLOAT
    return 0


cdef bint _PACK_LITTLE_ENDIAN = _pack_sys.byteorder == "little"


cdef inline void _pack_to_floats(int64_t *out, int64_t n) noexcept nogil:
    """Turn the int64 coins out[0:n] into float64 in place (same width)."""
    cdef int64_t i, x
    cdef double d
    for i in range(n):
        memcpy(&x, out + i, 8)
        d = <double> x
        memcpy(out + i, &d, 8)


cdef inline void _pack_put_float(int64_t *out, double d) noexcept nogil:
    memcpy(out, &d, 8)


cdef bint _pack_items(const char *src, int code, Py_ssize_t size, int64_t first, int64_t n,
                      int64_t *out, bint *floats, int64_t done) noexcept nogil:
    """Copy the items src[first:first + n] (of ``code`` and width ``size``) to out[0:n] as
    int64, or float64 once ``floats``; a float item turns the game to floats (the ``done``
    coins packed before ``out`` are converted). False for a uint64 beyond int64."""
    cdef int64_t i
    cdef uint64_t u
    if code == _PACK_FLOAT and not floats[0]:
        _pack_to_floats(out - done, done)
        floats[0] = True
    src += first * size
    if floats[0]:
        for i in range(n):
            if code == _PACK_FLOAT:
                if size == 8:
                    _pack_put_float(out + i, (<const double *> src)[i])
                else:
                    _pack_put_float(out + i, (<const float *> src)[i])
            elif code == _PACK_SIGNED:
                if size == 8:
                    _pack_put_float(out + i, <double> (<const int64_t *> src)[i])
                elif size == 4:
                    _pack_put_float(out + i, <double> (<const int32_t *> src)[i])
                elif size == 2:
                    _pack_put_float(out + i, <double> (<const int16_t *> src)[i])
                else:
                    _pack_put_float(out + i, <double> (<const int8_t *> src)[i])
            else:
                if size == 8:
                    u = (<const uint64_t *> src)[i]
                    if u > <uint64_t> INT64_MAX:
                        return False
                    _pack_put_float(out + i, <double> <int64_t> u)
                elif size == 4:
                    _pack_put_float(out + i, <double> (<const uint32_t *> src)[i])
                elif size == 2:
                    _pack_put_float(out + i, <double> (<const uint16_t *> src)[i])
                else:
                    _pack_put_float(out + i, <double> (<const uint8_t *> src)[i])
        return True
    if size == 8:
        if code == _PACK_SIGNED:
            memcpy(out, src, n * 8)
        else:
            for i in range(n):
                u = (<const uint64_t *> src)[i]
                if u > <uint64_t> INT64_MAX:
                    return False
                out[i] = <int64_t> u
    elif code == _PACK_SIGNED:
        for i in range(n):
            if size == 4:
                out[i] = (<const int32_t *> src)[i]
            elif size == 2:
                out[i] = (<const int16_t *> src)[i]
            else:
                out[i] = (<const int8_t *> src)[i]
    else:
        for i in range(n):
            if size == 4:
                out[i] = (<const uint32_t *> src)[i]
            elif size == 2:
                out[i] = (<const uint16_t *> src)[i]
            else:
                out[i] = (<const uint8_t *> src)[i]
    return True


cdef bint _pack_list(list items, int64_t *out, int64_t n, bint *floats, int64_t done):
    """Copy a list of Python ints and floats (exactly those types) to out[0:n]: False if an
    item is anything else, an int beyond int64, or the list no longer has n items."""
    cdef Py_ssize_t i
    cdef object item
    cdef long long x
    cdef int overflow
    if len(items) != n:
        return False
    for i in range(n):
        item = items[i]
        if type(item) is int:
            x = PyLong_AsLongLongAndOverflow(item, &overflow)
            if overflow:
                return False
            if floats[0]:
                _pack_put_float(out + i, <double> x)
            else:
                out[i] = x
        elif type(item) is float:
            if not floats[0]:
                _pack_to_floats(out - done, done + i)
                floats[0] = True
            _pack_put_float(out + i, PyFloat_AS_DOUBLE(item))
        else:
            return False
    return True


cdef bint _pack_buffer(object item, int64_t *out, int64_t n, bint *floats, int64_t done):
    """Copy a 1-D contiguous numeric buffer of n items to out[0:n]; False if it is not one
    (or no longer has n items)."""
    cdef Py_buffer view
    cdef int code
    cdef bint ok
    try:
        PyObject_GetBuffer(item, &view, PyBUF_FORMAT | PyBUF_STRIDES)
    except Exception:  # no buffer of these items (a datetime array, ...)
        return False
    try:
        code = _pack_code(&view)
        ok = (code != 0 and view.ndim == 1 and view.shape[0] == n
              and (n <= 1 or view.strides[0] == view.itemsize))
        if ok:
            ok = _pack_items(<const char *> view.buf, code, view.itemsize, 0, n, out, floats,
                             done)
    finally:
        PyBuffer_Release(&view)
    return ok


cdef bint _pack_span(PackSpan span, int64_t *out, int64_t n, Py_ssize_t components,
                     bint *floats, int64_t done, int64_t *offsets, int64_t at):
    """Copy a span's coins to out[0:n] and its list offsets, shifted to ``done``, to
    offsets[at + 1:at + components + 1]; False if it is not a valid span of n coins in
    ``components`` components."""
    cdef Py_buffer view
    cdef const int64_t[::1] offsets64
    cdef const int32_t[::1] offsets32
    cdef Py_ssize_t j, m
    cdef int64_t first, previous, here
    cdef int code
    cdef bint ok
    cdef bint wide = memoryview(span.offsets).itemsize == 8
    if wide:
        offsets64 = span.offsets
        m = offsets64.shape[0]
        first = offsets64[0] if m else 0
    else:
        offsets32 = span.offsets
        m = offsets32.shape[0]
        first = offsets32[0] if m else 0
    if m != components + 1 or first < 0:
        return False
    try:
        PyObject_GetBuffer(span.values, &view, PyBUF_FORMAT | PyBUF_STRIDES)
    except Exception:
        return False
    try:
        code = _pack_code(&view)
        ok = (code != 0 and view.ndim == 1
              and (view.shape[0] <= 1 or view.strides[0] == view.itemsize))
        previous = first
        for j in range(1, m):
            if not ok:
                break
            here = offsets64[j] if wide else offsets32[j]
            ok = previous <= here <= view.shape[0]
            offsets[at + j] = done + here - first
            previous = here
        ok = ok and previous - first == n
        if ok:
            ok = _pack_items(<const char *> view.buf, code, view.itemsize, first, n, out,
                             floats, done)
    finally:
        PyBuffer_Release(&view)
    return ok


# NumPy arrays, read without the buffer protocol. Exporting a buffer costs a NumPy array
# far more than copying ten coins (it builds the format string and a cached description,
# allocated and compared on every export): for many small arrays that was most of the time
# of packing them. An array whose type is exactly ``numpy.ndarray`` and whose dtype is one of
# NumPy's native integer or float dtypes (the dtype objects themselves, compared by
# identity) is read from the leading fields of its object, which NumPy's C API declares
# (``PyArrayObject_fields``, the same in NumPy 1.x and 2.x); any other array goes through
# the buffer protocol. Nothing runs Python code between reading the fields and copying the
# coins, the GIL held: the array cannot change in between.
cdef extern from *:
    """
    typedef struct {
        PyObject_HEAD
        char *data;
        int nd;
        Py_ssize_t *dimensions;
        Py_ssize_t *strides;
        PyObject *base;
        PyObject *descr;
    } coinsrow_numpy_array;
    """
    ctypedef struct coinsrow_numpy_array:
        char *data
        int nd
        Py_ssize_t *dimensions
        Py_ssize_t *strides
        void *descr


cdef enum:
    _PACK_NUMPY_DTYPES = 12

cdef object _pack_numpy_type = None     # numpy.ndarray once an item of that type was seen
cdef tuple _pack_numpy_dtypes = ()      # the dtypes below, kept alive
cdef void *_pack_numpy_descr[_PACK_NUMPY_DTYPES]
cdef int _pack_numpy_code[_PACK_NUMPY_DTYPES]
cdef int _pack_numpy_size[_PACK_NUMPY_DTYPES]
cdef int _pack_numpy_count = 0


cdef bint _pack_is_numpy(object kind):
    """Whether ``kind`` is ``numpy.ndarray`` (then the dtypes table is ready)."""
    global _pack_numpy_type, _pack_numpy_dtypes, _pack_numpy_count
    cdef object dtype
    cdef int i = 0, code
    if _pack_numpy_type is not None:
        return kind is _pack_numpy_type
    numpy = _pack_sys.modules.get("numpy")
    if numpy is None or kind is not numpy.ndarray:
        return False
    dtypes = []
    for char in "bhilqBHILQfd":
        dtype = numpy.dtype(char)
        code = (_PACK_SIGNED if char in "bhilq" else
                _PACK_UNSIGNED if char in "BHILQ" else _PACK_FLOAT)
        if (dtype.itemsize not in (1, 2, 4, 8)
                or (code == _PACK_FLOAT and dtype.itemsize not in (4, 8))):
            continue
        dtypes.append(dtype)
        _pack_numpy_descr[i] = <void *> dtype
        _pack_numpy_code[i] = code
        _pack_numpy_size[i] = dtype.itemsize
        i += 1
    _pack_numpy_dtypes = tuple(dtypes)
    _pack_numpy_count = i
    _pack_numpy_type = numpy.ndarray
    return True


cdef inline int _pack_numpy_dtype(object item) noexcept:
    """The index in the table of a 1-D NumPy array's dtype, -1 if it is not there."""
    cdef coinsrow_numpy_array *fields = <coinsrow_numpy_array *> <void *> item
    cdef int i
    if fields.nd != 1:
        return -1
    for i in range(_pack_numpy_count):
        if fields.descr == _pack_numpy_descr[i]:
            return i
    return -1


cdef bint _pack_numpy(object item, int64_t *out, int64_t n, bint *floats, int64_t done):
    """``_pack_buffer`` for a NumPy array, read from its fields (see above); False if it is
    not a 1-D contiguous array of a dtype of the table with n items."""
    cdef coinsrow_numpy_array *fields = <coinsrow_numpy_array *> <void *> item
    cdef int i = _pack_numpy_dtype(item)
    if i < 0 or fields.dimensions[0] != n:
        return False
    if n > 1 and fields.strides[0] != _pack_numpy_size[i]:
        return False
    return _pack_items(<const char *> fields.data, _pack_numpy_code[i], _pack_numpy_size[i],
                       0, n, out, floats, done)


cdef extern from "Python.h":
    # -1 with an exception set when the object has no length (a 0-dimensional buffer).
    Py_ssize_t _pack_length "PyObject_Size"(object o) noexcept
    void _pack_clear_error "PyErr_Clear"() noexcept


cdef int64_t _pack_count(object item, tuple buffer_types, Py_ssize_t *components):
    """The number of coins of an item (a span: also its number of components), -1 if it
    is not a kind packed here."""
    cdef PackSpan span
    cdef Py_ssize_t m, length
    cdef object kind = type(item)
    components[0] = 1
    if kind is list:
        return len(<list> item)
    if kind is PackSpan:
        span = <PackSpan> item
        offsets = memoryview(span.offsets)
        m = len(offsets)
        if m == 0 or offsets.ndim != 1 or offsets.format not in ("i", "q"):
            return -1
        components[0] = m - 1
        return offsets[m - 1] - offsets[0]
    for accepted in buffer_types:
        if kind is accepted:
            if _pack_is_numpy(kind) and _pack_numpy_dtype(item) >= 0:
                return (<coinsrow_numpy_array *> <void *> item).dimensions[0]
            length = _pack_length(item)
            if length < 0:
                _pack_clear_error()
            return length
    return -1


def pack_components(list items, tuple buffer_types):
    """Pack components into one flat buffer: ``(status, payload)``.

    ``items`` are Python lists of ints and floats, 1-D buffers whose type is one of
    ``buffer_types`` (native-order integers of 1 to 8 bytes, float32 or float64, C-contiguous)
    and ``PackSpan``s (many components each). ``(PACKED, (coins, offsets))``: ``coins`` a
    memoryview of format "q" (int64: every coin an integer) or "d" (float64: some coin is a
    float, and every int was converted with correct rounding), ``offsets`` an
    ``array('q')`` of the components' bounds in it (Arrow's list layout, from 0; a span
    contributes one entry per component). ``(PACK_ELSEWHERE, marks)``: ``marks[i] = 1`` for
    each item that cannot be packed here (another type or format, an int beyond int64, a
    bool, ...): the caller normalises those items its own way, then packs again. O(n + k)
    with one compiled pass over the coins; NaN and infinities are packed as they are.
    """
    cdef Py_ssize_t n_items = len(items), i, components = 0, each
    cdef int64_t total = 0, count, pos = 0, at = 0
    cdef bint floats = False, ok, any_bad = False
    cdef object item
    cdef _pack_array_type coins_array, offsets_array, _counts_array
    cdef int64_t *out
    cdef int64_t *offsets
    marks = bytearray(n_items)
    cdef uint8_t[::1] marked = marks
    cdef bint spans = False
    # Each item's coins, as counted before the buffers are allocated, at counts[i + 1]: in
    # the offsets' own array when every item is one component (no span; offsets[at] is
    # then written after counts[at] is read, at <= i + 1), else in an array of their own.
    offsets_array = _pack_clone(_pack_array("q"), n_items + 1, False)
    cdef int64_t *counts = <int64_t *> offsets_array.data.as_longlongs
    for i in range(n_items):
        count = _pack_count(items[i], buffer_types, &each)
        counts[i + 1] = count
        if type(items[i]) is PackSpan:
            spans = True
        if count < 0:
            marked[i] = 1
            any_bad = True
        else:
            total += count
            components += each
    _counts_array = offsets_array  # the counts stay alive while they are read
    if spans:
        offsets_array = _pack_clone(_pack_array("q"), components + 1, False)
    coins_array = _pack_clone(_pack_array("q"), total, False)
    out = <int64_t *> coins_array.data.as_longlongs
    offsets = <int64_t *> offsets_array.data.as_longlongs
    offsets[0] = 0
    for i in range(n_items):
        if marked[i]:
            continue
        item = items[i]
        count = counts[i + 1]
        # Each copy checks the item again (a list's length, a buffer's shape, a span's
        # offsets), so that nothing is written past the ends even if an item changed since
        # it was counted.
        if type(item) is list:
            ok = _pack_list(<list> item, out + pos, count, &floats, pos)
        elif type(item) is PackSpan:
            ok = _pack_count(item, buffer_types, &each) == count
            ok = ok and _pack_span(<PackSpan> item, out + pos, count, each, &floats, pos,
                                   offsets, at)
        elif type(item) is _pack_numpy_type:
            ok = (_pack_numpy(item, out + pos, count, &floats, pos)
                  or _pack_buffer(item, out + pos, count, &floats, pos))
        else:
            ok = _pack_buffer(item, out + pos, count, &floats, pos)
        if not ok:
            marked[i] = 1
            any_bad = True
            continue
        pos += count
        if type(item) is PackSpan:
            at += each
        else:
            at += 1
            offsets[at] = pos
    if any_bad or pos != total or at != components:
        return Packing.PACK_ELSEWHERE, marks
    view = memoryview(coins_array)
    return Packing.PACKED, ((view.cast("B").cast("d") if floats else view), offsets_array)
