# Declarations of coinsrow._core._subrows that other modules cimport.

from coinsrow._core._types cimport *


cdef enum:
    # A side of a window crosses at most log2(n + 1) light edges: at most 64 heavy paths.
    _SR_MAX_SEGMENTS = 72
    # Ctrl-C (_signals.pxd's ``_forest_signals`` counts steps): a query of ``values``, at
    # most O(sqrt(n) log n), well under a millisecond at n = 10^6, counts as this many steps
    # (a look at signals every 64 queries).
    _SR_STEPS_PER_QUERY = 1 << 10
    # Merged entries of the tables' build between two looks at signals.
    _SR_WORK_PER_SIGNAL_CHECK = 1 << 20
    # The smallest checkpoint spacing chosen automatically, and the memory it may use:
    # at most (n + 1) / _SR_CHECKPOINT_BUDGET checkpoints beyond two per table.
    _SR_MIN_SHIFT = 4
    _SR_CHECKPOINT_BUDGET = 4
    # Recorded operations (the exact twin): four int64 each, (code, x, y, z).
    _SR_OP_RUN = 0        # reg (x >> 2) +-= alt_f[z] - alt_f[y], f = (x >> 1) & 1, minus = x & 1
    _SR_OP_TABLES = 1     # acc = T[x] - T[y] (y < 0: T[x]; x < 0: zero)
    _SR_OP_ADD_ACC = 2    # total +-= acc (minus = x)
    _SR_OP_BRIDGE = 3     # total +-= h[x] + h[y] (minus = z)
    _SR_OP_ZERO = 4       # F = zero
    _SR_OP_STORE = 5      # T[x] = F
    # Registers.
    _SR_TOTAL = 0
    _SR_ACC = 1
    _SR_F = 2

cdef struct _SRSide:
    # One static forest laid out in heavy paths. Slots of a path run from its bottom (start)
    # to its head (top); the slot after the head is a pad. Forest 0 is par1 (parents to the
    # right, ext = ns), forest 1 is par2 (parents to the left, ext = ps).
    int64_t nslots
    int64_t npaths
    int64_t *slot       # node -> slot
    int64_t *node       # slot -> node (-1 in a pad)
    int64_t *path       # slot -> heavy path
    int64_t *ext        # slot -> ns (forest 0) or ps (forest 1) of its node
    int64_t *start      # path -> slot of its bottom
    int64_t *top        # path -> slot of its head
    int64_t *weighted   # path -> number of slots with a block (a root has none)
    int64_t *up         # path -> slot of the head's parent (-1 when the head is a root)

cdef struct _SRCore:
    int64_t n
    _SRSide side[2]
    # Pair tables, sorted by (X, Y): pairs of X are pair_first[X] .. pair_first[X + 1] - 1.
    int64_t npairs
    int64_t *pair_first
    int64_t *pair_y
    int64_t *pair_s0    # merged positions [s0, s1): where X and Y interleave
    int64_t *pair_s1
    int64_t *pair_cp    # first checkpoint of the pair
    int64_t ncp
    int64_t *cp_x       # entries of X merged before the checkpoint
    int64_t shift       # checkpoint spacing = 1 << shift
    int64_t limit_shift  # the proof's spacing bound G = 1 << limit_shift
    int64_t min_side    # the proof's m0: fewer entries of a path in the overlap, no table

cdef struct _SRExec:
    # Performs (or records) the numeric operations of a query or of a table build.
    bint record
    bint nomem
    bint overflow
    int64_t *ops
    int64_t nops
    int64_t cap
    int64_t ri[3]
    double rf[3]

cdef inline void _sr_exec_reset(_SRExec *e) noexcept nogil:
    e.nops = 0
    e.overflow = False
    e.nomem = False
    e.ri[0] = e.ri[1] = e.ri[2] = 0
    e.rf[0] = e.rf[1] = e.rf[2] = 0

cdef inline int64_t _w_clamp(int64_t i, int64_t n) noexcept nogil:
    """A slice bound (negative counts from the end) clamped to 0..n, as Python slices do."""
    if i < 0:
        i += n
        if i < 0:
            i = 0
    if i > n:
        i = n
    return i
