"""The invariants of both window structures (``RowWindows`` and ``RowWindowsExact``,
docs/window.md), checked from scratch on a snapshot of their state (``_state()``): the tests
call ``check_windows`` after every move of random games and in a Hypothesis state machine.

Test code, not part of the compiled core: compiled into ``_window`` it took 50 KB (stripped,
x86-64 Linux) of every installation.
"""

from __future__ import annotations

import itertools
from array import array
from types import SimpleNamespace
from typing import Any

from coinsrow import _core


def check_windows(windows: Any) -> None:
    """Verify the invariants of a ``RowWindows`` or ``RowWindowsExact``, O(n log n): see
    ``check_window_state``."""
    check_window_state(SimpleNamespace(**windows._state()), windows.value())


def reduced_boundaries(h: list[Any], lo: int, hi: int) -> list[int]:
    """The kept boundaries of the window [lo, hi] by Fusion on the perturbed keys (h[t], t):
    blocks x, M, y with boundaries t0 < t1 < t2 < t3 fuse when key(t0) < key(t2) and
    key(t3) < key(t1). O(hi - lo)."""
    def less(a: int, b: int) -> bool:
        return bool(h[a] < h[b] or (h[a] == h[b] and a < b))
    kept = [lo]
    for t in range(lo + 1, hi + 1):
        kept.append(t)
        m = len(kept)
        while m >= 4 and less(kept[m - 4], kept[m - 2]) and less(kept[m - 1], kept[m - 3]):
            del kept[m - 3:m - 1]
            m -= 2
    return kept


def check_window_state(state: Any, value: Any) -> None:
    """Every component's kept boundaries are the reduced form of its coins, the tree holds the
    blocks in order with the right sizes and sums, and ``value`` is the value of the position;
    AssertionError names the first one broken. O(n log n)."""
    k = len(state.left)
    h, nxt, val = state.h, state.nxt, state.val
    blocks = set()
    coins_left = 0
    for c in range(k):
        assert state.base[c] <= state.left[c] <= state.right[c] <= state.base[c + 1] - 1, \
            f"component {c}: window outside its boundaries"
        coins_left += state.right[c] - state.left[c]
        kept = [state.left[c]]
        t = state.left[c]
        while t != state.right[c]:
            assert val[t] == h[t] + h[nxt[t]], f"component {c}: block {t} has a wrong value"
            blocks.add(t)
            t = nxt[t]
            kept.append(t)
        expected = reduced_boundaries(h, state.left[c], state.right[c])
        assert kept == expected, f"component {c}: kept boundaries {kept}, reduced {expected}"
    assert coins_left == state.coins_left, "the count of coins left is wrong"
    # The tree: in order (larger value first, then smaller boundary), sizes and sums.
    order = []
    stack = []
    t = state.root
    while stack or t != state.nil:
        while t != state.nil:
            stack.append(t)
            t = state.tl[t]
        t = stack.pop()
        order.append(t)
        t = state.tr[t]
    for a, b in itertools.pairwise(order):
        assert val[a] > val[b] or (val[a] == val[b] and a < b), "the tree is out of order"
    assert set(order) <= blocks and len(set(order)) == len(order), \
        "the tree holds a block that is not kept"
    in_order = set(order)
    for c in range(state.n_rows):
        t = state.left[c]
        while t != state.right[c]:
            assert t in in_order, f"row {c}: block {t} is missing from the tree"
            t = nxt[t]
    if state.in_tree is not None:
        for t in blocks:
            assert bool(state.in_tree[t]) == (t in in_order), f"block {t}: wrong tree flag"

    def subtree(t: int) -> tuple[int, Any]:
        if t == state.nil:
            return 0, 0
        size_l, alt_l = subtree(state.tl[t])
        size_r, alt_r = subtree(state.tr[t])
        assert state.sz[t] == size_l + 1 + size_r, f"node {t}: wrong size"
        if size_l & 1:
            alt = alt_l - val[t] + alt_r
        else:
            alt = alt_l + val[t] - alt_r
        assert state.alt[t] == alt, f"node {t}: wrong alternating sum"
        return state.sz[t], alt

    subtree(state.root)
    if not isinstance(value, float):
        # The value of the position from scratch, by the rows kernel's exact twin.
        coins: list[Any] = []
        starts, stops = array("q"), array("q")
        for c in range(k):
            starts.append(len(coins))
            coins.extend(h[t] + h[t + 1] for t in range(state.left[c], state.right[c]))
            stops.append(len(coins))
        status, expected_value = _core.game_value_exact(coins, starts, stops, state.n_rows)
        assert status == _core.Status.OK and value == expected_value, \
            "the value is not the value of the position"
