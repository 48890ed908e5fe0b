# Declarations of coinsrow._core._sort: radix sorts of coins and of ids by their coins,
# and the inline helpers that turn a coin into an unsigned sort key and back.

from coinsrow._core._types cimport *


cdef inline uint64_t _key(coin_t x) noexcept nogil:
    """An unsigned key in the order of the coins (IEEE order for finite doubles)."""
    cdef uint64_t bits
    if coin_t is int64_t:
        return (<uint64_t> x) ^ (<uint64_t> 1 << 63)
    else:
        memcpy(&bits, &x, sizeof(bits))
        if bits >> 63:
            return ~bits
        return bits | (<uint64_t> 1 << 63)

cdef inline coin_t _unkey(uint64_t key, coin_t *kind) noexcept nogil:
    """The inverse of ``_key``; ``kind`` only selects the type."""
    cdef double d
    if coin_t is int64_t:
        return <int64_t> (key ^ (<uint64_t> 1 << 63))
    else:
        if key >> 63:
            key ^= <uint64_t> 1 << 63
        else:
            key = ~key
        memcpy(&d, &key, sizeof(d))
        return d


cdef inline void _store_key(coin_t *a, int64_t i, uint64_t key) noexcept nogil:
    memcpy(&a[i], &key, sizeof(uint64_t))


cdef inline uint64_t _load_key(const coin_t *a, int64_t i) noexcept nogil:
    cdef uint64_t key
    memcpy(&key, &a[i], sizeof(uint64_t))
    return key


cdef inline uint64_t _sort_key(coin_t x, uint64_t base) noexcept nogil:
    """An unsigned key in the order of the numbers: int64 offset by ``base`` (their minimum),
    float64 by its bits (``_key``)."""
    if coin_t is int64_t:
        return (<uint64_t> x) - base
    else:
        return _key(x)


cdef inline coin_t _from_sort_key(uint64_t key, uint64_t base, coin_t *kind) noexcept nogil:
    """The inverse of ``_sort_key``."""
    if coin_t is int64_t:
        return <int64_t> (key + base)
    else:
        return _unkey(key, kind)


cdef int _sort_ascending(coin_t *a, int64_t m, uint64_t *spare) except -1 nogil

cdef int _sort_ids_by_key(int64_t *ids, int64_t m, const coin_t *K) except -1 nogil

cdef int _alternate_sorted(coin_t *a, int64_t m, coin_t *total, bint *overflow) except -1 nogil

cdef int _alternating_sum_narrow(int64_t *values, int64_t m, int64_t smallest,
                                 uint64_t spread, int64_t *total) noexcept nogil

cdef int _alternating_sum_sorted(uint64_t *keys, int64_t m, coin_t *total,
                                 coin_t *kind) noexcept nogil
