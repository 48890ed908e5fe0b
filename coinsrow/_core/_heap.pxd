# coinsrow._core._heap: the one binary heap of the core, as inline functions (no module of
# its own: every user compiles them into its own loops, with no call per item).
#
# A heap is an array of item ids (int64) and its size. With a key array, the item with the
# larger key comes first, ties by the lower rank (``key[item]``, ``rank[item]``; with
# ``rank`` NULL, by the lower id); with ``key`` NULL (``_min_push``/``_min_pop``), the lower
# id comes first. After inlining, the tests of ``key`` and ``rank`` are constants and the
# compiler drops the branches not taken.

from coinsrow._core._types cimport *


cdef inline bint _heap_before(const coin_t *key, const int64_t *rank, int64_t a,
                              int64_t b) noexcept nogil:
    """Whether item a comes out of the heap before item b. O(1)."""
    if key == NULL:
        return a < b
    if rank == NULL:
        return key[a] > key[b] or (key[a] == key[b] and a < b)
    return key[a] > key[b] or (key[a] == key[b] and rank[a] < rank[b])


cdef inline void _heap_push(int64_t *heap, int64_t *size, const coin_t *key,
                            const int64_t *rank, int64_t item) noexcept nogil:
    """Add item (sifted up from the end). O(log size)."""
    cdef int64_t i = size[0], parent
    size[0] += 1
    while i > 0:
        parent = (i - 1) >> 1
        if not _heap_before(key, rank, item, heap[parent]):
            break
        heap[i] = heap[parent]
        i = parent
    heap[i] = item


cdef inline void _heap_sift_down(int64_t *heap, int64_t size, int64_t i, const coin_t *key,
                                 const int64_t *rank) noexcept nogil:
    """Move heap[i] down to its place (after it was replaced, or to build a heap from an
    array: from i = size // 2 - 1 down to 0). O(log size)."""
    cdef int64_t item = heap[i], child
    while True:
        child = 2 * i + 1
        if child >= size:
            break
        if child + 1 < size and _heap_before(key, rank, heap[child + 1], heap[child]):
            child += 1
        if not _heap_before(key, rank, heap[child], item):
            break
        heap[i] = heap[child]
        i = child
    heap[i] = item


cdef inline int64_t _heap_pop(int64_t *heap, int64_t *size, const coin_t *key,
                              const int64_t *rank) noexcept nogil:
    """Remove and return the first item (the last one sifted down from the top); the heap
    must not be empty. O(log size)."""
    cdef int64_t top = heap[0]
    size[0] -= 1
    if size[0] > 0:
        heap[0] = heap[size[0]]
        _heap_sift_down(heap, size[0], 0, key, rank)
    return top


cdef inline void _min_push(int64_t *heap, int64_t *size, int64_t x) noexcept nogil:
    """Add x to a heap of ids, the lowest first. O(log size)."""
    _heap_push(heap, size, <const int64_t *> NULL, NULL, x)


cdef inline int64_t _min_pop(int64_t *heap, int64_t *size) noexcept nogil:
    """Remove and return the lowest id of a non-empty heap of ids. O(log size)."""
    return _heap_pop(heap, size, <const int64_t *> NULL, NULL)
