# coinsrow._core._scratch: the scratch memory of the big kernels.
#
# A kernel on 10^6 coins or nodes needs megabytes of scratch. Fresh memory from the system
# costs a page fault and the clearing of a page for every 4 KiB first touched: on inputs
# whose loops are short (a star, a row that rarely fuses) that is a large part of a call
# (docs/forests.md, docs/rows.md measure it). So big buffers are kept between calls in a few
# slots, within a bound, and big buffers ask for huge pages (fewer faults, fewer TLB misses
# for the forests' random accesses).

from coinsrow._core._types cimport *

cdef extern from *:
    """
    #if defined(__linux__)
    #include <sys/mman.h>
    #endif
    /* Ask for transparent huge pages (2 MiB) over the aligned middle of a big scratch
       array: a few page faults instead of one per 4 KiB, and fewer TLB misses for the
       heaps' random accesses. Advice only; a no-op elsewhere. */
    static void coinsrow_huge_pages(void *p, size_t n) {
    #if defined(__linux__) && defined(MADV_HUGEPAGE)
        const uintptr_t huge = (uintptr_t)1 << 21;
        uintptr_t start, end;
        if (p == NULL || n < 2 * huge)
            return;
        start = ((uintptr_t)p + huge - 1) & ~(huge - 1);
        end = ((uintptr_t)p + n) & ~(huge - 1);
        if (end > start)
            (void)madvise((void *)start, end - start, MADV_HUGEPAGE);
    #else
        (void)p;
        (void)n;
    #endif
    }
    /* Scratch kept between calls. A forest's value needs tens of bytes per node of scratch,
       a row's reduction 8 to 16 bytes per coin; fresh memory from the system costs a page
       fault (and the zeroing of a page) per 4 KiB touched, a large part of a call on a star
       or a row that rarely fuses. Buffers of COINSROW_KEPT_LEAST bytes or more
       are therefore not returned to the allocator but kept in a few slots, up to
       COINSROW_KEPT_MOST bytes in all, for the next call. Each slot is owned by one call at a
       time: its `busy` flag is taken by an atomic exchange (no lock, nothing to wait for); a
       call that finds no free slot of the size it needs replaces a free one, or allocates as
       usual when every slot is busy or the total would pass the bound (threads at once). A
       call that stops early (an exception, Ctrl-C) gives its buffers back in its `finally`.
       Without the GCC/Clang atomics, nothing is kept. */
    #define COINSROW_KEPT_SLOTS 8
    #define COINSROW_KEPT_LEAST ((size_t)1 << 16)
    #define COINSROW_KEPT_MOST ((size_t)256 << 20)
    #if defined(__GNUC__) || defined(__clang__)
    #define COINSROW_KEEPS 1
    #else
    #define COINSROW_KEEPS 0
    #endif
    typedef struct { void *memory; size_t size; int busy; } coinsrow_kept_slot;
    static coinsrow_kept_slot coinsrow_kept[COINSROW_KEPT_SLOTS];

    #if COINSROW_KEEPS
    static int coinsrow_kept_take(int i) {
        return __atomic_exchange_n(&coinsrow_kept[i].busy, 1, __ATOMIC_ACQUIRE) == 0;
    }
    static void coinsrow_kept_give(int i) {
        __atomic_store_n(&coinsrow_kept[i].busy, 0, __ATOMIC_RELEASE);
    }
    #endif

    static void *coinsrow_scratch(size_t n, int huge_pages) {
        void *p;
    #if COINSROW_KEEPS
        int i;
        size_t total = 0;
        if (n >= COINSROW_KEPT_LEAST && n <= COINSROW_KEPT_MOST) {
            /* A free slot large enough, first in slot order (a call asks for its buffers
               in the same order each time, so each finds the slot it had). */
            for (i = 0; i < COINSROW_KEPT_SLOTS; i++) {
                if (__atomic_load_n(&coinsrow_kept[i].size, __ATOMIC_RELAXED) >= n
                        && coinsrow_kept_take(i)) {
                    if (coinsrow_kept[i].size >= n)
                        return coinsrow_kept[i].memory;
                    coinsrow_kept_give(i);
                }
            }
            /* Else a free slot whose buffer is replaced by one of n bytes, if the total
               kept stays within the bound. */
            for (i = 0; i < COINSROW_KEPT_SLOTS; i++)
                total += __atomic_load_n(&coinsrow_kept[i].size, __ATOMIC_RELAXED);
            for (i = 0; i < COINSROW_KEPT_SLOTS; i++) {
                size_t size = __atomic_load_n(&coinsrow_kept[i].size, __ATOMIC_RELAXED);
                if (total - size + n <= COINSROW_KEPT_MOST && coinsrow_kept_take(i)) {
                    PyMem_RawFree(coinsrow_kept[i].memory);
                    p = PyMem_RawMalloc(n);
                    if (huge_pages)
                        coinsrow_huge_pages(p, n);
                    __atomic_store_n(&coinsrow_kept[i].memory, p, __ATOMIC_RELAXED);
                    __atomic_store_n(&coinsrow_kept[i].size, p != NULL ? n : 0,
                                     __ATOMIC_RELAXED);
                    if (p == NULL)
                        coinsrow_kept_give(i);
                    return p;
                }
            }
        }
    #endif
        p = PyMem_RawMalloc(n);
        if (huge_pages)
            coinsrow_huge_pages(p, n);
        return p;
    }

    static void coinsrow_scratch_free(void *p) {
    #if COINSROW_KEEPS
        int i;
        if (p == NULL)
            return;
        /* Only the call that owns a slot changes its buffer: no other slot holds p. */
        for (i = 0; i < COINSROW_KEPT_SLOTS; i++) {
            if (__atomic_load_n(&coinsrow_kept[i].memory, __ATOMIC_RELAXED) == p) {
                coinsrow_kept_give(i);
                return;
            }
        }
    #endif
        PyMem_RawFree(p);
    }

    /* Return the free slots' buffers to the allocator (at exit, and for the tests). */
    static void coinsrow_scratch_release(void) {
    #if COINSROW_KEEPS
        int i;
        for (i = 0; i < COINSROW_KEPT_SLOTS; i++) {
            if (coinsrow_kept_take(i)) {
                PyMem_RawFree(coinsrow_kept[i].memory);
                __atomic_store_n(&coinsrow_kept[i].memory, NULL, __ATOMIC_RELAXED);
                __atomic_store_n(&coinsrow_kept[i].size, 0, __ATOMIC_RELAXED);
                coinsrow_kept_give(i);
            }
        }
    #endif
    }

    /* What slot i holds, and whether a call owns it (for the tests). */
    static size_t coinsrow_kept_size(int i) {
    #if COINSROW_KEEPS
        return __atomic_load_n(&coinsrow_kept[i].size, __ATOMIC_RELAXED);
    #else
        return coinsrow_kept[i].size;
    #endif
    }
    static int coinsrow_kept_busy(int i) {
    #if COINSROW_KEEPS
        return __atomic_load_n(&coinsrow_kept[i].busy, __ATOMIC_RELAXED);
    #else
        return coinsrow_kept[i].busy;
    #endif
    }
    """
    void coinsrow_huge_pages(void *p, size_t n) noexcept nogil
    enum: COINSROW_KEPT_SLOTS
    void *coinsrow_scratch(size_t n, int huge_pages) noexcept nogil
    void coinsrow_scratch_free(void *p) noexcept nogil
    void coinsrow_scratch_release() noexcept nogil
    size_t coinsrow_kept_size(int i) noexcept nogil
    int coinsrow_kept_busy(int i) noexcept nogil


cdef void *_scratch(size_t n, bint huge_pages=True) noexcept nogil:
    """malloc; a big buffer may be one kept from an earlier call (``coinsrow_scratch``).
    ``huge_pages``: ask for huge pages when it is big, for scratch read all over (the
    forests' heaps); not for scratch touched in a few places only (a huge page is cleared
    whole on its first touch). Give it back with ``_scratch_free``."""
    return coinsrow_scratch(n, huge_pages)


cdef void _scratch_free(void *p) noexcept nogil:
    """Free a buffer of ``_scratch`` (or keep it for the next call)."""
    coinsrow_scratch_free(p)


def scratch_kept():
    """The buffers kept between calls for the kernels' scratch: a list of ``(bytes, busy)``
    per slot (``busy``: a call is using it). At most 256 MiB are kept in all."""
    return [(coinsrow_kept_size(i), bool(coinsrow_kept_busy(i)))
            for i in range(COINSROW_KEPT_SLOTS)]


def scratch_release():
    """Return the kept buffers that no call is using to the allocator (also done at exit)."""
    coinsrow_scratch_release()


import atexit as _atexit
_atexit.register(scratch_release)


cdef void _huge_pages(void *p, size_t n) noexcept nogil:
    """Ask for huge pages over the aligned middle of ``p[0:n]`` (an array written whole soon
    after it is allocated: a few page faults instead of one per 4 KiB). Advice only."""
    coinsrow_huge_pages(p, n)
