"""The status and move-end codes shared by C and Python (declared in _types.pxd)."""

#: The largest ``threads=`` a call accepts (``MAX_THREADS`` in _types.pxd), for the Python layer.
THREADS_AT_MOST = MAX_THREADS


cdef tuple _answer(int status, int64_t bad_index, object payload):
    """A kernel's answer ``(status, payload)`` from the status of its C loops: MemoryError
    for NO_MEMORY, ``(NOT_FINITE, bad_index)`` with the flat index of the first NaN or
    infinity. O(1)."""
    if status == NO_MEMORY:
        raise MemoryError()
    if status == NOT_FINITE:
        return Status.NOT_FINITE, bad_index
    return <Status> status, payload
