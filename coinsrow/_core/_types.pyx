"""The status and move-end codes shared by C and Python (declared in _types.pxd)."""

from enum import IntEnum as _IntEnum

#: The largest ``threads=`` a call accepts (``MAX_THREADS`` in _types.pxd), for the Python layer.
THREADS_AT_MOST = MAX_THREADS

# The Python classes of the C codes of _types.pxd: IntEnums, so that a kernel's plain int
# status equals its code (``status == Status.OK``). Made by the functional API, one call each
# (less compiled code than class statements); set through the module's namespace, where the
# C enums of the same names would refuse an assignment.
_codes = globals()
_codes["Status"] = _IntEnum("Status", [("OK", OK), ("OVERFLOW", OVERFLOW),
                                       ("NOT_FINITE", NOT_FINITE)], module=__name__)
_codes["End"] = _IntEnum("End", [("LEFT", LEFT), ("RIGHT", RIGHT), ("TOP", TOP),
                                 ("ROOT", ROOT)], module=__name__)
_codes["ForestProblem"] = _IntEnum(
    "ForestProblem", [("FOREST_OK", FOREST_OK), ("PARENT_OUT_OF_RANGE", PARENT_OUT_OF_RANGE),
                      ("CYCLE", CYCLE)], module=__name__)
_codes["OffsetsProblem"] = _IntEnum(
    "OffsetsProblem", [("OFFSETS_OK", OFFSETS_OK), ("OFFSETS_EMPTY", OFFSETS_EMPTY),
                       ("OFFSETS_NEGATIVE", OFFSETS_NEGATIVE),
                       ("OFFSETS_DECREASING", OFFSETS_DECREASING),
                       ("OFFSETS_PAST_END", OFFSETS_PAST_END)], module=__name__)
del _codes

cdef tuple _answer(int status, int64_t bad_index, object payload):
    """A kernel's answer ``(status, payload)`` from the status of its C loops: MemoryError
    for NO_MEMORY, ``(NOT_FINITE, bad_index)`` with the flat index of the first NaN or
    infinity. O(1)."""
    if status == NO_MEMORY:
        raise MemoryError()
    if status == NOT_FINITE:
        return NOT_FINITE, bad_index
    return status, payload
