# coinsrow._core._forest_blocks: the blocks of a forest, bottom-up, for the value, where ties
# do not matter (docs/forests.md; the method is described at the top of _forest.pyx). The
# slots' variant with the tie rule, which the play and the engine use, is in _forest_play.

from coinsrow._core._types cimport *

from coinsrow._core._scratch cimport _scratch, _scratch_free
from coinsrow._core._signals cimport _FOREST_SIGNALS, _forest_signals
from coinsrow._core._sort cimport _sort_ascending
from coinsrow._core._forest_play cimport _FOREST_RUN, _slot_blocks


cdef struct _Node:
    # A vertex of the value's pairing heaps, 16 bytes: its key and links in one memory access
    # (the heaps jump around memory; a cache line holds four vertices).
    uint64_t key      # the bits of a coin_t (_node_key, _set_node_key)
    int32_t child     # the first child; before the vertex is visited: its unvisited children
    int32_t sibling   # the next sibling, or the next heap in a list of heaps


# The value's heaps: the same pairing heaps on _Node records (ties in any order: the value
# does not depend on them).

cdef inline coin_t _node_key(const _Node *N, int64_t v, const coin_t *like) noexcept nogil:
    cdef coin_t x
    memcpy(&x, &N[v].key, sizeof(coin_t))
    return x


cdef inline void _set_node_key(_Node *N, int64_t v, coin_t x) noexcept nogil:
    memcpy(&N[v].key, &x, sizeof(coin_t))


cdef inline int32_t _node_meld(_Node *N, int32_t a, int32_t b, const coin_t *like) noexcept nogil:
    cdef int32_t t
    if a < 0:
        return b
    if b < 0:
        return a
    if _node_key(N, b, like) > _node_key(N, a, like):
        t = a
        a = b
        b = t
    N[b].sibling = N[a].child
    N[a].child = b
    return a


cdef inline int32_t _meld_list(_Node *N, int32_t h, int32_t heaps,
                               const coin_t *like) noexcept nogil:
    """The heaps of the list ``heaps`` melded into h, one by one. O(length)."""
    cdef int32_t nx
    while heaps >= 0:
        nx = N[heaps].sibling
        N[heaps].sibling = -1
        h = _node_meld(N, h, heaps, like)
        heaps = nx
    return h


cdef int32_t _node_pop(_Node *N, int32_t h, const coin_t *like) noexcept nogil:
    """``_ph_pop`` on _Node records."""
    cdef int32_t c = N[h].child, pairs = -1, a, b, rest, r
    if c < 0:
        return -1
    if N[c].sibling < 0:
        return c
    while c >= 0:
        a = c
        b = N[a].sibling
        if b < 0:
            N[a].sibling = pairs
            pairs = a
            break
        rest = N[b].sibling
        N[a].sibling = -1
        N[b].sibling = -1
        a = _node_meld(N, a, b, like)
        N[a].sibling = pairs
        pairs = a
        c = rest
    r = pairs
    pairs = N[r].sibling
    N[r].sibling = -1
    return _meld_list(N, r, pairs, like)


# -- the value: bottom-up over the forest ------------------------------------------------------

cdef enum:
    # Vertices visited ahead of time whose records are prefetched (the heaps are latency
    # bound: a random tree's parent and first child are anywhere in memory).
    _FOREST_AHEAD = 12


cdef inline int32_t _lay_out(_Node *N, const coin_t *stack, int64_t top, int32_t *pool,
                             int32_t *free_lo, int32_t free_hi) noexcept nogil:
    """The keys of an array heap (ascending) as a chain of records, the largest first:
    records from the pool (linked through sibling), then the free range free_lo..free_hi;
    returns the chain's head."""
    cdef int32_t head = -1, previous = -1, v
    while top > 0:
        top -= 1
        if pool[0] >= 0:
            v = pool[0]
            pool[0] = N[v].sibling
        else:
            v = free_lo[0]
            free_lo[0] += 1
        _set_node_key(N, v, stack[top])
        N[v].child = -1
        N[v].sibling = -1
        if previous >= 0:
            N[previous].child = v
        else:
            head = v
        previous = v
    return head


cdef inline int64_t _parent_at(const int64_t *par, const _Node *N, bint renumbered,
                               int64_t v) noexcept nogil:
    """The parent of a vertex not visited yet (renumbered: in its record)."""
    if renumbered:
        return N[v].child
    return par[v]


cdef inline coin_t _coin_at(const coin_t *coin, const _Node *N, bint renumbered,
                            int64_t v) noexcept nogil:
    """The coin of a vertex not visited yet (renumbered: in its record)."""
    if renumbered:
        return _node_key(N, v, coin)
    return coin[v]


cdef inline int _far(int64_t a, int64_t b) noexcept nogil:
    return (<uint64_t> (a - b + _FOREST_NEAR)) > 2 * _FOREST_NEAR


cdef inline int64_t _children_first_at(int kind, int64_t n, const int32_t *order,
                                       int64_t j) noexcept nogil:
    """The j-th vertex children first: by decreasing id (kind 0), increasing (1), or
    ``order`` (Kahn's, all n of them)."""
    if kind == 0:
        return n - 1 - j
    if kind == 1:
        return j
    return order[j]


cdef inline void _prefetch_size(int kind, int64_t n, const int32_t *order, const int64_t *par,
                                const int32_t *size, int64_t j) noexcept nogil:
    """Requests size[] at the parent of the j-th vertex children first: a pass of
    ``_renumbered`` reads it there _RENUMBER_AHEAD vertices later. O(1)."""
    cdef int64_t p = par[_children_first_at(kind, n, order, j)]
    if p >= 0:
        coinsrow_prefetch_write(&size[p])


cdef int64_t _kahn_rest(const int64_t *par, const uint8_t *gone, bint any_removed,
                        int32_t *order, int64_t count, _Node *N) except -1 nogil:
    """Kahn's order completed: order[0:count] are the leaves, N[v].child the number of v's
    children on the table; each vertex is appended when its last child is done. Returns
    the length of the order (the vertices on the table), or -1 with KeyboardInterrupt (or
    what a signal handler raised) set: it looks at signals, so the error must reach the
    caller, which stops and frees its scratch. O(n)."""
    cdef int64_t j = 0, p
    while j < count:
        _forest_signals(j)
        p = par[order[j]]
        j += 1
        if p >= 0 and not (any_removed and gone[p]):
            N[p].child -= 1
            if N[p].child == 0:
                order[count] = <int32_t> p
                count += 1
    return count


cdef int _renumbered(const coin_t *coin, const int64_t *par, const uint8_t *gone,
                     bint any_removed, int64_t n, int kind, const int32_t *order,
                     int64_t visits, int32_t *size, int32_t *position, int32_t *kids,
                     _Node *N) except -1 nogil:
    """The forest's vertices on the table renumbered in preorder (each subtree a range of
    ids, its root first; siblings in the order opposite to their visits children first), a
    vertex whose parent is off the table a root: writes the coin and the parent of new id i
    to N[i].key and N[i].child (parents precede their children there) and sets kids[0:n]
    to -1. Returns 0, writing nothing more, when the ids are a preorder already (and no
    vertex is off the table), 1 when it renumbered, -1 when a signal handler raised (it
    looks at signals: the error reaches the caller, which stops and frees its scratch). n
    is the number of ids; ``kind`` (``_children_first_kind``) the order children first:
    decreasing ids (0), increasing (1), or the first ``visits`` of ``order`` (2: Kahn's,
    every vertex on the table). ``size`` and ``position`` have room for n ids each.

    Three passes, each reading the parents in order and one other array at the parent (no
    chain of dependent reads): the sizes of the subtrees, children first; each vertex's
    first id, parents first (a parent's size becomes the next free id in its range); the
    coins and parents moved to their new ids. O(n)."""
    cdef int64_t j, v, p, s, at, next_root = 0
    cdef bint same = not any_removed and kind != 2
    if kind != 2:
        visits = n
    for v in range(n):
        size[v] = 1
    for j in range(visits):
        _forest_signals(j)
        v = _children_first_at(kind, n, order, j)
        if j + _RENUMBER_AHEAD < visits:
            _prefetch_size(kind, n, order, par, size, j + _RENUMBER_AHEAD)
        if any_removed and gone[v]:
            continue
        p = par[v]
        if p >= 0 and not (any_removed and gone[p]):
            size[p] += size[v]
    for j in range(visits):
        _forest_signals(j)
        v = _children_first_at(kind, n, order, visits - 1 - j)
        if j + _RENUMBER_AHEAD < visits:
            _prefetch_size(kind, n, order, par, size, visits - 1 - j - _RENUMBER_AHEAD)
        if any_removed and gone[v]:
            continue
        p = par[v]
        s = size[v]
        if p < 0 or (any_removed and gone[p]):
            at = next_root
            next_root += s
        else:
            at = size[p]
            size[p] = <int32_t> (at + s)
        size[v] = <int32_t> (at + 1)
        position[v] = <int32_t> at
        same &= at == v
    if same:
        for v in range(n):
            kids[v] = -1
        return 0
    for v in range(n):
        _forest_signals(v)
        kids[v] = -1
        if v + _RENUMBER_AHEAD < n and not (any_removed and gone[v + _RENUMBER_AHEAD]):
            # The record written and the parent's id read a few vertices ahead, requested
            # now (both anywhere in memory).
            coinsrow_prefetch_write(&N[position[v + _RENUMBER_AHEAD]])
            p = par[v + _RENUMBER_AHEAD]
            if p >= 0:
                coinsrow_prefetch_write(&position[p])
        if any_removed and gone[v]:
            continue
        at = position[v]
        p = par[v]
        # One record written per vertex, its coin and parent side by side (one cache line).
        _set_node_key(N, at, coin[v])
        N[at].child = position[p] if p >= 0 and not (any_removed and gone[p]) else -1
    return 1


cdef struct _Visits:
    # The order _forest_released visits the vertices in, children first (_visit_order).
    int kind              # 0: by decreasing id, 1: by increasing id, 2: order[] (Kahn's)
    bint any_removed      # some vertices are off the table (gone[])
    bint renumbered       # coins and parents in preorder, in the records (_renumbered)
    int64_t n             # the ids
    int64_t count         # the vertices to visit (kind 2: those in order[] so far)
    int32_t *order        # Kahn's order, extended as vertices are visited (kind 2)


cdef int _visit_order(const coin_t *coin, const int64_t *par, const uint8_t *gone, int64_t n,
                      int order, _Node *N, int32_t *kids, coin_t *stack,
                      _Visits *v) except -1 nogil:
    """The order of the visits of ``_forest_released`` in ``v`` (``v.order`` allocated for
    kind 2, the caller frees it), every ``kids[]`` set to -1, and an int64 forest whose heaps
    would be scattered over the records renumbered in preorder first (``stack`` lends its
    room). ``order``: what the arguments' check found of every parent
    (``_forest_arguments``: 1 all precede their children, 2 all follow, 0 neither), or -1
    (not known: read here). OK or NO_MEMORY. O(n)."""
    cdef int64_t j, live = 0, scattered = 0, branching = 0, tail = 0
    cdef bint before = True, after = True
    cdef int64_t chunk, end
    cdef uint8_t any_gone = 0
    v.n = n
    v.count = n
    v.renumbered = False
    memset(kids, 0xFF, n * sizeof(int32_t))  # every list empty (-1)
    for j in range(n):
        any_gone |= gone[j]
    v.any_removed = any_gone != 0
    if order > 0:
        # What holds of every parent holds of those on the table: no pass over them again
        # (a path of 10^6 nodes: 0.4 ms of 6).
        before = order == 1
        after = order == 2
    elif v.any_removed:
        for j in range(n):
            _forest_signals(j)
            if not gone[j] and par[j] >= 0 and not gone[par[j]]:
                before &= par[j] < j
                after &= par[j] > j
    elif order == 0:
        before = after = False
    else:
        # Vectorised passes of _FOREST_SIGNALS + 1 vertices (_parents_scan), until neither
        # order can hold.
        chunk = 0
        while chunk < n and (before or after):
            _forest_signals(chunk)
            end = chunk + _FOREST_SIGNALS + 1 if chunk + _FOREST_SIGNALS + 1 < n else n
            _parents_scan(par, chunk, end, n, &before, &after)
            chunk = end
    v.kind = 0 if before else (1 if after else 2)
    if coin_t is int64_t and v.kind != 2:
        # Scattered vertices: a parent far from its child and from the previous vertex's
        # parent (the heaps of a subtree then lie all over the records), counted on one
        # vertex in _FOREST_SAMPLE.
        j = 1
        while j < n:
            if not gone[j]:
                live += 1
                scattered += _far(par[j], j) & _far(par[j], par[j - 1])
            j += _FOREST_SAMPLE
    if coin_t is int64_t and v.kind != 2 and scattered * _FOREST_SCATTERED > live:
        live = n
        if v.any_removed:
            for j in range(n):
                live -= gone[j]
        if _renumbered(coin, par, gone, v.any_removed, n, v.kind, NULL, n, kids,
                       <int32_t *> stack, kids, N):
            v.renumbered = True
            v.n = live
            v.count = live
            v.any_removed = False
            v.kind = 0
    if v.kind == 2:
        v.order = <int32_t *> _scratch((n if n > 0 else 1) * sizeof(int32_t))
        if v.order == NULL:
            return NO_MEMORY
        for j in range(n):
            N[j].child = 0
        for j in range(n):
            _forest_signals(j)
            if not gone[j] and par[j] >= 0 and not gone[par[j]]:
                N[par[j]].child += 1
        for j in range(n):
            if not gone[j]:
                if N[j].child == 0:
                    v.order[tail] = <int32_t> j
                    tail += 1
                branching += N[j].child >= 2
        v.count = tail
    if coin_t is int64_t and v.kind == 2 and branching * _FOREST_BRANCHING > n:
        # Parents anywhere, and many vertices with several children (a random tree: many
        # heaps popped): Kahn's order in full (each vertex when its last child is done),
        # then the preorder renumbering along it. Its visits would jump all over memory;
        # the renumbered forest's go down the ids. (A path's, a star's or a
        # caterpillar's heaps are chains and runs: renumbering them measured slower.)
        v.count = _kahn_rest(par, gone, v.any_removed, v.order, v.count, N)
        live = v.count
        if _renumbered(coin, par, gone, v.any_removed, n, v.kind, v.order, v.count, kids,
                       <int32_t *> stack, kids, N):
            v.renumbered = True
            v.n = live
            v.any_removed = False
            v.kind = 0
    return OK


cdef inline int64_t _visit_sibling_leaves(_Node *N, int32_t *kids, const coin_t *coin,
                                          const int64_t *par, const _Visits *v,
                                          int32_t parent, int64_t j) except -1 nogil:
    """The leaves of ``parent`` visited next, from the j-th vertex on, each put on its
    parent's list in a short loop (the general visit does nothing more for them; its
    prefetches are hints). The one right before the parent itself is left to the general
    visit (an array starts there). Returns the next j. O(leaves).

    Every variable is a local, the list's head too (written back once): through ``v`` and
    ``kids[parent]`` the compiler reloads them after each record written, as they may
    alias it (a star of 10^6 nodes: forest_value 10.9 ms -> 10.0 ms, the median of 15,
    three times alternately)."""
    cdef int32_t u, step = -1 if v.kind == 0 else 1, head = kids[parent]
    cdef int64_t count = v.count, last = v.n - 1
    cdef bint down = v.kind == 0, renumbered = v.renumbered
    cdef coin_t d
    while j + 1 < count:
        u = <int32_t> (last - j if down else j)
        if kids[u] >= 0 or _parent_at(par, N, renumbered, u) != parent:
            break
        if parent == u + step:
            break
        _forest_signals(j)
        d = _coin_at(coin, N, renumbered, u)
        if coin_t is double:
            d = d + 0.0
        _set_node_key(N, u, d)
        N[u].child = -1
        N[u].sibling = head
        head = u
        j += 1
    kids[parent] = head
    return j


cdef inline void _prefetch_visits(const _Node *N, const int32_t *kids, const int64_t *par,
                                  const _Visits *v, int64_t w, int64_t near,
                                  int64_t nearest) noexcept nogil:
    """Requests what the visits of vertices w, near and nearest (soon, sooner, next; -1:
    none) will read first: the heaps are latency bound, a random tree's parent and first
    child are anywhere in memory. O(1)."""
    cdef int32_t x, q
    if 0 <= w < v.n:
        # w's parent's list head and its first child's record.
        x = <int32_t> _parent_at(par, N, v.renumbered, w)
        if x >= 0:
            coinsrow_prefetch_write(&kids[x])
        if kids[w] >= 0:
            coinsrow_prefetch_write(&N[kids[w]])
    if 0 <= near < v.n and kids[near] >= 0:
        # near's first child's first child and next sibling.
        q = kids[near]
        if N[q].child >= 0:
            coinsrow_prefetch_write(&N[N[q].child])
        if N[q].sibling >= 0:
            coinsrow_prefetch_write(&N[N[q].sibling])
    if 0 <= nearest < v.n and kids[nearest] >= 0:
        # One step further down the list: the third heap's record and the second heap's
        # first child.
        q = N[kids[nearest]].sibling
        if q >= 0:
            if N[q].sibling >= 0:
                coinsrow_prefetch_write(&N[N[q].sibling])
            if N[q].child >= 0:
                coinsrow_prefetch_write(&N[N[q].child])


cdef inline int32_t _visited(const _Visits *v, int64_t j, const _Node *N, const int32_t *kids,
                             const coin_t *coin, const int64_t *par, int64_t *w, int64_t *near,
                             int64_t *nearest) noexcept nogil:
    """The j-th vertex visited, and the vertices whose records ``_prefetch_visits`` requests
    (-1: none); in Kahn's order, what a vertex further ahead reads first is requested here.
    O(1)."""
    cdef int32_t x
    if v.kind == 0:
        w[0] = v.n - 1 - j - _FOREST_AHEAD
        near[0] = v.n - 1 - j - _FOREST_AHEAD // 2
        nearest[0] = v.n - 1 - j - _FOREST_AHEAD // 4
        return <int32_t> (v.n - 1 - j)
    if v.kind == 1:
        w[0] = j + _FOREST_AHEAD
        near[0] = j + _FOREST_AHEAD // 2
        nearest[0] = j + _FOREST_AHEAD // 4
        return <int32_t> j
    w[0] = v.order[j + _FOREST_AHEAD] if j + _FOREST_AHEAD < v.count else -1
    near[0] = v.order[j + _FOREST_AHEAD // 2] if j + _FOREST_AHEAD // 2 < v.count else -1
    nearest[0] = -1  # measured slower here: these records are prefetched below
    if j + 2 * _FOREST_AHEAD < v.count:
        # Kahn's order jumps around memory: its parent, coin, list and record.
        x = v.order[j + 2 * _FOREST_AHEAD]
        coinsrow_prefetch_write(&par[x])
        coinsrow_prefetch_write(&coin[x])
        coinsrow_prefetch_write(&kids[x])
        coinsrow_prefetch_write(&N[x])
    return v.order[j]


cdef inline int64_t _split_children(_Node *N, int32_t heaps, coin_t *stack, int32_t *h,
                                    int32_t *singles, const coin_t *like) noexcept nogil:
    """A vertex's children's heaps (the list ``heaps``): the one-block ones set aside in
    ``singles`` (the list kept as it is when they all are), their keys gathered in ``stack``; the
    others melded into h. Returns how many keys were gathered. O(children)."""
    cdef int64_t r = 0
    cdef int32_t q = heaps, nx
    singles[0] = heaps
    while q >= 0:
        if N[q].child >= 0:
            singles[0] = -1  # the list mixes both kinds: split it below
            break
        stack[r] = _node_key(N, q, like)
        r += 1
        q = N[q].sibling
    if singles[0] < 0:
        r = 0
        q = heaps
        while q >= 0:
            nx = N[q].sibling
            if N[q].child < 0:
                N[q].sibling = singles[0]
                singles[0] = q
                stack[r] = _node_key(N, q, like)
                r += 1
            else:
                if nx >= 0:
                    coinsrow_prefetch_write(&N[nx])
                coinsrow_prefetch_write(&N[N[q].child])  # read if q is popped
                N[q].sibling = -1
                h[0] = _node_meld(N, h[0], q, like)
            q = nx
    return r


cdef inline int32_t _chain_of(_Node *N, int32_t heaps, const coin_t *stack,
                              int64_t r) noexcept nogil:
    """The records of the list ``heaps`` (r of them) as one chain holding stack[0:r]
    (ascending), the largest first: one heap. Returns its head. O(r)."""
    cdef int32_t q = heaps, nx
    while q >= 0:
        nx = N[q].sibling
        r -= 1
        _set_node_key(N, q, stack[r])
        N[q].sibling = -1
        N[q].child = nx
        q = nx
    return heaps


cdef inline void _free_record(_Node *N, int32_t u, int32_t *pool, int32_t *free_lo,
                              int32_t *free_hi) noexcept nogil:
    """u's record free for the array's keys: consecutive ids extend the free range (nothing
    written); others join the pool's list. O(1)."""
    if free_hi[0] < free_lo[0]:
        free_lo[0] = u
        free_hi[0] = u
    elif u == free_lo[0] - 1:
        free_lo[0] = u
    elif u == free_hi[0] + 1:
        free_hi[0] = u
    else:
        N[u].sibling = pool[0]
        pool[0] = u


cdef inline void _block_onto_heap(_Node *N, int32_t *h, int32_t u, coin_t *d, coin_t *frozen,
                                  bint *ovf) noexcept nogil:
    """Vertex u of coin d[0] over the heap h of its children's blocks: d merged with the
    blocks it beats, the result u's record at the top of h (or frozen). ``ovf[0]`` set on
    an overflow (a flag passed in, not returned: returning it cost two instructions a
    vertex, callgrind). O(pops log n)."""
    cdef bint odd = True
    cdef coin_t key
    while True:
        if h[0] >= 0:
            key = _node_key(N, h[0], d)
        if odd and (h[0] < 0 or d[0] >= key):
            _set_node_key(N, u, d[0])
            N[u].child = h[0]
            N[u].sibling = -1
            h[0] = u
            return
        if h[0] < 0:
            ovf[0] |= add_checked(frozen[0], d[0], frozen)
            return
        h[0] = _node_pop(N, h[0], d)
        if odd:
            ovf[0] |= sub_checked(d[0], key, d)
        else:
            ovf[0] |= add_checked(d[0], key, d)
        odd = not odd


cdef inline int64_t _onto_array(coin_t *stack, int64_t t, coin_t d, coin_t *frozen,
                                bint *ovf) noexcept nogil:
    """A vertex of coin d over the array heap stack[0:t] of its only child (ascending, the
    largest key on top): the stack's Fusion, d absorbing the top while below it (odd d - M,
    even), then the key below (odd again), until it is at least the top; at the bottom an
    even block is frozen. Returns the new top. ``ovf[0]`` set on an overflow. O(pops)."""
    while True:
        if t == 0 or d >= stack[t - 1]:
            stack[t] = d
            return t + 1
        ovf[0] |= sub_checked(d, stack[t - 1], &d)
        if t == 1:
            ovf[0] |= add_checked(frozen[0], d, frozen)
            return 0
        ovf[0] |= add_checked(d, stack[t - 2], &d)
        t -= 2


cdef inline int _up_a_chain(_Node *N, const int32_t *kids, const coin_t *coin,
                            const int64_t *par, const uint8_t *gone, const _Visits *v,
                            coin_t *stack, int64_t *top, int32_t *pool, int32_t *free_lo,
                            int32_t *free_hi, coin_t *frozen, int32_t *u, int64_t *pu,
                            int64_t *j, coin_t d, bint *ovf) except -1 nogil:
    """Vertex u of coin d onto the array heap, and up the chain: each vertex with the array
    as its only child's heap. Decreasing or increasing ids go on here while the parent is
    the next id and has no other child's heap (its other children were visited before).
    Leaves u, pu (its parent) and j at the last vertex of the chain; ``ovf[0]`` set on an
    overflow. O(chain + pops).

    A chain is a stack: with the ids in order and no vertex off the table, its coins go
    through the stack's Fusion in one loop with every variable a local (no pointer into
    the caller, whose stores to the array the compiler must assume alias them), its
    records freed at the end as one range of ids. A path of 10^6 nodes: 96 instructions a
    vertex in ``_forest_released`` through pointers to the caller's variables, 38 now
    (callgrind); a random recursive tree (renumbered, the coins and parents read from the
    records): about 1.5% less time. (Finding the chain's end first, then a loop over its
    coins alone, measured 5% slower on a path: two passes over memory.)"""
    cdef int32_t x = u[0], p, lo = free_lo[0], hi = free_hi[0], free_list = pool[0]
    cdef int32_t step = -1 if v.kind == 0 else 1, first, y
    cdef int64_t t = top[0], at = j[0], count = v.count, px = pu[0]
    cdef coin_t fz = frozen[0]
    cdef bint o = False
    # x's record is free now: the array may gain one key below.
    _free_record(N, x, &free_list, &lo, &hi)
    t = _onto_array(stack, t, d, &fz, &o)
    if v.kind != 2 and not v.any_removed:
        first = x
        while True:
            # The last vertex visited is a root: its parent, -1, stops the chain.
            p = <int32_t> px
            if p < 0 or p != x + step or kids[p] >= 0:
                break
            x += step  # p, not read from the load: no chain of dependent loads
            _forest_signals(at)
            at += 1
            if v.renumbered:
                px = N[x].child
                d = _node_key(N, x, coin)
            else:
                px = par[x]
                d = coin[x]
            if coin_t is double:
                d = d + 0.0
            t = _onto_array(stack, t, d, &fz, &o)
        # The chain's records free: a range of ids next to first's (else one by one).
        if x != first:
            if step < 0 and lo == first:
                lo = x
            elif step > 0 and hi == first:
                hi = x
            else:
                y = first
                while y != x:
                    y += step
                    _free_record(N, y, &free_list, &lo, &hi)
    else:
        while v.kind != 2 and at < count:
            p = <int32_t> px
            if p < 0 or p != x + step or kids[p] >= 0 or (v.any_removed and gone[p]):
                break
            x = p
            _forest_signals(at)
            at += 1
            px = _parent_at(par, N, v.renumbered, p)
            d = _coin_at(coin, N, v.renumbered, p)
            if coin_t is double:
                d = d + 0.0
            _free_record(N, x, &free_list, &lo, &hi)
            t = _onto_array(stack, t, d, &fz, &o)
    u[0] = x
    pu[0] = px
    j[0] = at
    top[0] = t
    free_lo[0] = lo
    free_hi[0] = hi
    pool[0] = free_list
    frozen[0] = fz
    ovf[0] |= o
    return 0


cdef inline int32_t _parent_done(_Visits *v, _Node *N, const uint8_t *gone, int64_t pu,
                                 int32_t u, int64_t j, int32_t *next_vertex) noexcept nogil:
    """After u's visit: its parent on the table (-1: none), and the vertex visited next
    (-1: none); in Kahn's order, the parent is appended when its last child is done. O(1)."""
    cdef int32_t p = <int32_t> pu
    if p >= 0 and v.any_removed and gone[p]:
        p = -1
    if p >= 0 and v.kind == 2:
        N[p].child -= 1
        if N[p].child == 0:
            v.order[v.count] = p
            v.count += 1
    if v.kind == 0:
        next_vertex[0] = u - 1
    elif v.kind == 1:
        next_vertex[0] = u + 1
    else:
        next_vertex[0] = v.order[j] if j < v.count else -1
    return p


cdef inline void _array_to_list(_Node *N, int32_t *kids, int32_t u, const coin_t *stack,
                                int64_t *top, int32_t *pool, int32_t *free_lo,
                                int32_t free_hi) noexcept nogil:
    """The array heap as a chain of records (``_lay_out``), one more heap in u's list; the
    array left empty. O(top)."""
    cdef int32_t h
    if top[0] > 0:
        h = _lay_out(N, stack, top[0], pool, free_lo, free_hi)
        N[h].sibling = kids[u]
        kids[u] = h
    top[0] = 0


cdef inline void _array_to_keys(const coin_t *stack, int64_t *top, coin_t *keys,
                                int64_t *n_keys) noexcept nogil:
    """A root's blocks, the array's keys, appended to keys largest first. O(top)."""
    cdef int64_t m = n_keys[0]
    while top[0] > 0:
        top[0] -= 1
        keys[m] = stack[top[0]]
        m += 1
    n_keys[0] = m


cdef int64_t _read_heaps(const _Node *N, int32_t roots, int32_t *stack, coin_t *keys,
                         int64_t m) except -1 nogil:
    """The keys of the heaps in the list ``roots`` appended to keys[m:], depth first
    (``stack`` has room for a record each). Returns the new end. O(records)."""
    cdef int64_t r = 0
    cdef int32_t x
    if roots >= 0:
        stack[0] = roots
        r = 1
    while r > 0:
        _forest_signals(m)
        r -= 1
        x = stack[r]
        keys[m] = _node_key(N, x, keys)
        m += 1
        if N[x].sibling >= 0:
            stack[r] = N[x].sibling
            r += 1
        if N[x].child >= 0:
            stack[r] = N[x].child
            r += 1
    return m


cdef int _forest_released(const coin_t[::1] coins, int64_t fbase, const int64_t[::1] parents,
                          const uint8_t[::1] removed, int order, coin_t *keys,
                          int64_t *n_keys, coin_t *frozen, bint *overflow) except -1 nogil:
    """Bottom-up block merging of a forest of fewer than 2^31 nodes, for its value: appends
    the blocks released at the roots to keys[n_keys[0]:] (n_keys[0] grows) and adds the
    frozen blocks to frozen[0]. ``order``: what ``_forest_arguments`` found of the parents
    (1 all precede their children, 2 all follow, 0 neither; -1 not known). ``keys`` has
    room for a key per vertex on the table after n_keys[0]: the room not yet written is the
    scratch of the runs' sorts.

    Vertices are visited children first: by decreasing id when every parent precedes its
    children, increasing when it follows them, else in Kahn's order (leaves first, then each
    vertex when its last child is done); an int64 forest whose heaps would be scattered over
    the records (``_FOREST_NEAR``, ``_FOREST_BRANCHING``) is first renumbered in preorder
    (``_renumbered``) and visited by decreasing new id (``_visit_order``). Each vertex keeps
    the list of its children's heaps; those that are one block each are sorted as one run
    once there are _FOREST_RUN of them, the others melded. A heap that is one sorted run,
    or a chain going up (each vertex the only child of the next one visited), lives in an
    array (a stack: the largest key on top) until it meets a vertex with other children,
    where it becomes a chain of records. The released blocks left at the roots are read
    from the arrays and heaps, in order for an array and a chain. O(n log n); O(n) for
    paths and stars. NO_MEMORY if scratch memory is refused.
    """
    cdef int64_t n = parents.shape[0], size = n if n > 0 else 1
    cdef _Node *N = NULL
    cdef int32_t *kids = NULL    # each vertex's children's heaps, linked through sibling
    cdef coin_t *stack = NULL    # the array heap (ascending: its maximum at top - 1)
    cdef int64_t j = 0, r, w, near, nearest, top = 0, pu
    cdef int32_t u, p, singles, next_vertex, h
    cdef int32_t roots = -1      # the roots' final heaps, linked through sibling
    cdef int32_t owner = -1      # the vertex whose only child's heap is the array
    cdef int32_t pool = -1       # records free for the array's keys: this list, linked
    cdef int32_t free_lo = 0     # through sibling, and the ids free_lo..free_hi (the visited
    cdef int32_t free_hi = -1    # ids of a chain of consecutive ids): top of them at least
    cdef int32_t sibling_parent = -1  # the parent of the leaf just visited
    cdef coin_t d
    cdef bint ovf = False, in_array
    cdef const coin_t *coin
    cdef const int64_t *par
    cdef const uint8_t *gone
    cdef _Visits v
    v.order = NULL
    if n == 0:
        return OK
    coin = &coins[fbase]
    par = &parents[0]
    gone = &removed[0]
    try:
        N = <_Node *> _scratch(size * sizeof(_Node))
        kids = <int32_t *> _scratch(size * sizeof(int32_t))
        stack = <coin_t *> _scratch(size * sizeof(coin_t))
        if N == NULL or kids == NULL or stack == NULL:
            return NO_MEMORY
        if _visit_order(coin, par, gone, n, order, N, kids, stack, &v) == NO_MEMORY:
            return NO_MEMORY
        n = v.n
        while j < v.count:
            if sibling_parent >= 0:
                # The last vertex was a leaf whose record went on its parent's list, and a
                # sibling comes next: so do the next ones while they are leaves of the same
                # parent (a star's, or any vertex's whose leaves are numbered in a row).
                j = _visit_sibling_leaves(N, kids, coin, par, &v, sibling_parent, j)
                sibling_parent = -1
            _forest_signals(j)
            u = _visited(&v, j, N, kids, coin, par, &w, &near, &nearest)
            j += 1
            if v.any_removed and gone[u]:
                continue
            # u's coin and parent, read before u's record is written (renumbered: they are
            # in it).
            pu = _parent_at(par, N, v.renumbered, u)
            d = _coin_at(coin, N, v.renumbered, u)
            in_array = owner == u
            if in_array and kids[u] >= 0:
                # Other children too: the array becomes one more heap in u's list.
                in_array = False
                _array_to_list(N, kids, u, stack, &top, &pool, &free_lo, free_hi)
                owner = -1
            h = -1
            if not in_array:
                _prefetch_visits(N, kids, par, &v, w, near, nearest)
                # The array is free while the children's heaps are split.
                r = _split_children(N, kids[u], stack, &h, &singles, &d)
                if 0 < r < _FOREST_RUN:
                    h = _meld_list(N, h, singles, &d)
                elif r > 0:
                    # One sorted run: an array heap when it is all u has (with its records
                    # as the pool), else dealt again along the list as a chain.
                    # The sort's scratch: the unwritten end of ``keys`` (the blocks put
                    # there so far and the run's keys are distinct visited vertices, so
                    # n_keys[0] + r <= the rows' entries + the live vertices: its room).
                    if _sort_ascending(stack, r, <uint64_t *> (keys + n_keys[0])) == NO_MEMORY:
                        return NO_MEMORY
                    if h < 0:
                        top = r
                        pool = singles
                        free_lo = 0
                        free_hi = -1
                        in_array = True
                    else:
                        h = _node_meld(N, h, _chain_of(N, singles, stack, r), &d)
            if coin_t is double:
                d = d + 0.0  # no -0.0 anywhere: ties then never depend on the order of pops
            if in_array:
                _up_a_chain(N, kids, coin, par, gone, &v, stack, &top, &pool, &free_lo,
                            &free_hi, frozen, &u, &pu, &j, d, &ovf)
            else:
                _block_onto_heap(N, &h, u, &d, frozen, &ovf)
            p = _parent_done(&v, N, gone, pu, u, j, &next_vertex)
            if in_array:
                if p >= 0 and p == next_vertex:
                    owner = p  # the chain goes on: the array stays
                    continue
                owner = -1
                if p < 0:
                    _array_to_keys(stack, &top, keys, n_keys)  # a root
                    continue
                h = _lay_out(N, stack, top, &pool, &free_lo, free_hi)
                top = 0
            elif (p >= 0 and p == next_vertex and h == u and N[u].child < 0
                    and owner < 0):
                # A single block whose parent comes next: an array from here.
                stack[0] = d
                top = 1
                pool = -1
                free_lo = u
                free_hi = u
                owner = p
                continue
            if p >= 0:
                if h >= 0:
                    N[h].sibling = kids[p]
                    kids[p] = h
                    if (h == u and 0 <= next_vertex < n
                            and _parent_at(par, N, v.renumbered, next_vertex) == p
                            and N[u].child < 0 and v.kind != 2 and not v.any_removed):
                        sibling_parent = p  # a leaf, and its sibling comes next
            elif h >= 0:
                N[h].sibling = roots
                roots = h
        # The blocks left in the roots' heaps (kids is the stack now).
        n_keys[0] = _read_heaps(N, roots, kids, keys, n_keys[0])
        overflow[0] |= ovf
        return OK
    finally:
        _scratch_free(N)
        _scratch_free(kids)
        _scratch_free(v.order)
        _scratch_free(stack)


cdef int _forest_released_wide(const coin_t[::1] coins, int64_t fbase,
                               const int64_t[::1] parents, const uint8_t[::1] removed,
                               coin_t *keys, int64_t *n_keys, coin_t *frozen,
                               bint *overflow) except -1 nogil:
    """``_forest_released`` for forests of 2^31 nodes or more (64-bit ids): the slots'
    blocks (``_slot_blocks``) of the nodes on the table, by index. O(n log n)."""
    cdef int64_t n = parents.shape[0], size = n if n > 0 else 1, i, s = 0, m
    cdef int64_t *slot_of_node = NULL
    cdef int64_t *par = NULL
    cdef coin_t *K = NULL
    cdef uint8_t *released = NULL
    cdef uint8_t *alive = NULL
    cdef int status
    try:
        slot_of_node = <int64_t *> malloc(size * sizeof(int64_t))
        par = <int64_t *> malloc(size * sizeof(int64_t))
        K = <coin_t *> malloc(size * sizeof(coin_t))
        released = <uint8_t *> malloc(size * sizeof(uint8_t))
        alive = <uint8_t *> malloc(size * sizeof(uint8_t))
        if (slot_of_node == NULL or par == NULL or K == NULL or released == NULL
                or alive == NULL):
            return NO_MEMORY
        for i in range(n):
            if removed[i]:
                slot_of_node[i] = -1
            else:
                slot_of_node[i] = s
                K[s] = coins[fbase + i]
                if coin_t is double:
                    K[s] = K[s] + 0.0
                s += 1
        for i in range(n):
            if not removed[i]:
                par[slot_of_node[i]] = slot_of_node[parents[i]] if parents[i] >= 0 else -1
        status = _slot_blocks(s, par, K, K, released, alive, NULL, NULL, overflow)
        if status != OK:
            return status
        m = n_keys[0]
        for i in range(s):
            if alive[i]:
                keys[m] = K[i]
                m += 1
            elif not released[i]:
                overflow[0] |= add_checked(frozen[0], K[i], frozen)
        n_keys[0] = m
        return OK
    finally:
        free(slot_of_node)
        free(par)
        free(K)
        free(released)
        free(alive)
