"""Forests of rooted trees: input checks, the forest part of a position, kernel wrappers.

A forest is ``(values, parents)``: node i holds coin ``values[i]`` and hangs below node
``parents[i]`` (``-1`` for a root). A move takes a root; its children become roots. Stacks
are the special case of paths (``parents == [-1, 0, 1, ...]`` is a stack listed top first).

The forest's coins are stored after the rows' and stacks' coins in the game's flat storage
(one storage kind for the whole game). A position's forest part records which nodes are gone,
lazily: the nodes removed at some position, plus the tree moves of an optimal line from there,
so following the line costs O(1) per move and leaving it one O(n) copy.
"""

from __future__ import annotations

import numbers
import sys
from array import array
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from . import _core
from ._arrow import arrow_row, is_arrow
from ._coins import Coins, Column, column, describe

__all__ = ["ForestState", "LiveForest", "parse_forest"]


def _parents_array(parents: Any, n: int) -> array:
    """``parents`` as an ``array('q')`` (a copy: the caller's object is never kept)."""
    if is_arrow(parents):
        parents = arrow_row(parents, "forest parents", "parent")
    if isinstance(parents, (str, bytes, bytearray)):
        raise TypeError(f"forest parents is a {type(parents).__name__}; expected a sequence of "
                        "node indices")
    numpy = sys.modules.get("numpy")
    if numpy is not None and isinstance(parents, numpy.ndarray):
        if parents.ndim != 1:
            raise ValueError(f"forest parents must be 1-dimensional, got shape {parents.shape}")
        if parents.dtype.kind == "b" or parents.dtype.kind not in "iuO":
            raise TypeError(f"forest parents has dtype {parents.dtype}; expected integers")
        if parents.dtype.kind in "iu":
            if parents.dtype.kind == "u" and parents.size and int(parents.max()) >= n:
                node = int(numpy.argmax(parents >= n))
                raise ValueError(f"forest: parent of node {node} is {int(parents[node])}, "
                                 f"not a node index (0 <= parent < {n}) or -1")
            # One copy, straight from the array's memory (through tobytes(): two, 0.9 ms
            # instead of 0.3 ms for 10^6 parents).
            copied = array("q")
            copied.frombytes(
                memoryview(numpy.ascontiguousarray(parents, dtype=numpy.int64)).cast("B"))
            return copied
        items = parents.tolist()
    elif isinstance(parents, (list, tuple)):
        items = parents
    else:
        try:
            view = memoryview(parents)
        except TypeError:
            if not isinstance(parents, Iterable):
                raise TypeError(f"forest parents is {describe(parents)}; expected a sequence "
                                "of node indices") from None
            items = list(parents)
        else:
            if view.ndim != 1:
                raise ValueError("forest parents must be a 1-dimensional buffer")
            if view.format.lstrip("@=<>!") not in "bBhHiIlLqQnN":
                raise TypeError(f"forest parents is a buffer of format {view.format!r}; "
                                "expected integers")
            items = view.tolist()
    if set(map(type, items)) <= {int}:
        try:
            return array("q", items)
        except OverflowError:
            pass  # a huge index: reported below, by node
    checked = array("q")
    for node, item in enumerate(items):
        if isinstance(item, bool) or not isinstance(item, numbers.Integral):
            raise TypeError(f"forest: parent of node {node} is {describe(item)}; expected a "
                            "node index or -1")
        item = int(item)
        if not -1 <= item < n:
            raise ValueError(f"forest: parent of node {node} is {item}, not a node index "
                             f"(0 <= parent < {n}) or -1")
        checked.append(item)
    return checked


def parse_forest(forest: Any) -> tuple[Column, array]:
    """Check ``forest = (values, parents)`` (or a mapping with those keys).

    Returns the values as a ``Column`` (validated like a row) and the parents as an
    ``array('q')``. ``ValueError`` names the node whose parent is out of range or lies on a
    cycle; ``TypeError`` for anything that is not a forest. O(n).
    """
    if isinstance(forest, Mapping):
        try:
            values, parents = forest["values"], forest["parents"]
        except KeyError:
            raise ValueError("forest as a mapping needs the keys 'values' and 'parents'") from None
    else:
        if isinstance(forest, (str, bytes, bytearray)) or not isinstance(forest, Iterable):
            raise TypeError(f"forest is {describe(forest)}; expected (values, parents)")
        pair = list(forest)
        if len(pair) != 2:
            raise ValueError(f"forest must be a pair (values, parents), got {len(pair)} items")
        values, parents = pair
    col = column(values, "forest")
    n = len(col)
    parent_array = _parents_array(parents, n)
    if len(parent_array) != n:
        raise ValueError(f"forest has {n} values but {len(parent_array)} parents")
    code, node = _core.forest_check(parent_array)
    if code == _core.ForestProblem.PARENT_OUT_OF_RANGE:
        raise ValueError(f"forest: parent of node {node} is {parent_array[node]}, not a node "
                         f"index (0 <= parent < {n}) or -1")
    if code == _core.ForestProblem.CYCLE:
        cycle = [node]
        x = parent_array[node]
        while x != node and len(cycle) < 6:
            cycle.append(x)
            x = parent_array[x]
        path = " -> ".join(map(str, cycle)) + (" -> ..." if x != node else f" -> {node}")
        raise ValueError(f"forest: node {node} is its own ancestor (parents cycle {path}); "
                         "a forest has no cycles")
    return col, parent_array


class ForestState:
    """The forest part of a position: which nodes are gone.

    Removed nodes = ``removed_base`` plus the tree moves ``line.coins[first:last]`` (tree
    moves are those of component ``component``). ``removed()`` materialises it once, O(n).
    """

    __slots__ = ("base", "parents", "size", "component", "left", "_removed_base", "_line",
                 "_first", "_last", "_removed")

    def __init__(self, base: int, parents: array, component: int, removed: bytes,
                 left: int, line: Any = None, first: int = 0, last: int = 0) -> None:
        self.base = base                # flat index of node 0 in the game's storage
        self.parents = parents          # array('q'), never mutated
        self.size = len(parents)
        self.component = component      # the component index of tree moves in a line
        self.left = left                # number of nodes still on the table
        self._removed_base = removed
        self._line = line
        self._first = first
        self._last = last
        self._removed: bytes | None = removed if line is None or first == last else None

    @classmethod
    def initial(cls, base: int, parents: array, component: int) -> ForestState:
        return cls(base, parents, component, bytes(len(parents)), len(parents))

    def removed(self) -> bytes:
        """``removed[i]`` is 1 when node i is gone. O(n) the first time, then cached."""
        if self._removed is None:
            mask = bytearray(self._removed_base)
            line = self._line
            for t in range(self._first, self._last):
                if line.components[t] == self.component:
                    mask[line.coins[t] - self.base] = 1
            self._removed = bytes(mask)
        return self._removed

    def is_root(self, node: int) -> bool:
        removed = self.removed()
        parent = self.parents[node]
        return not removed[node] and (parent < 0 or bool(removed[parent]))

    def roots(self) -> list[int]:
        removed = self.removed()
        parents = self.parents
        return [i for i in range(self.size)
                if not removed[i] and (parents[i] < 0 or removed[parents[i]])]

    def along(self, line: Any, turn: int) -> ForestState:
        """After the tree move at ``line[turn]``: O(1) when this state follows ``line``."""
        if self._line is line and self._last == turn:
            return ForestState(self.base, self.parents, self.component, self._removed_base,
                               self.left - 1, line, self._first, turn + 1)
        return ForestState(self.base, self.parents, self.component, self.removed(),
                           self.left - 1, line, turn, turn + 1)

    def passing(self, line: Any, turn: int) -> ForestState:
        """After the row or stack move at ``line[turn]``: the same nodes, still following
        ``line`` (so that its next tree move costs O(1) too)."""
        if self._line is line and self._last == turn:
            return ForestState(self.base, self.parents, self.component, self._removed_base,
                               self.left, line, self._first, turn + 1)
        return self

    def without_nodes(self, removed: Any) -> ForestState:
        """This forest with the nodes marked in ``removed`` gone (a position's forest, as
        ``removed()`` gave it, read from a pickle): checked, as a position can have it (one
        byte 0 or 1 a node; a node gone with its parent still there cannot be), else
        ``TypeError``/``ValueError``. O(n)."""
        if not isinstance(removed, (bytes, bytearray)):
            raise TypeError(f"the pickled forest is corrupt: its removed nodes are of type "
                            f"{type(removed).__name__}, not bytes")
        mask = bytes(removed)
        if len(mask) != self.size:
            raise ValueError(f"the pickled forest does not match its coins: {len(mask)} "
                             f"removed flags for {self.size} nodes")
        if mask.strip(b"\x00\x01"):
            raise ValueError("the pickled forest is corrupt: a removed flag is not 0 or 1")
        parents = self.parents
        for node in range(self.size):
            parent = parents[node]
            if mask[node] and parent >= 0 and not mask[parent]:
                raise ValueError(f"the pickled forest is corrupt: node {node} is gone but its "
                                 f"parent {parent} is still there")
        return ForestState(self.base, self.parents, self.component, mask,
                           self.size - sum(mask))

    def without(self, node: int) -> ForestState:
        """After taking root ``node`` off the line: O(n)."""
        mask = bytearray(self.removed())
        mask[node] = 1
        return ForestState(self.base, self.parents, self.component, bytes(mask), self.left - 1)

    def remaining(self, coins: Coins) -> tuple[tuple, tuple]:
        """``(values, parents)`` of the nodes left, renumbered 0.. in their original order."""
        removed = self.removed()
        parents = self.parents
        kept = [i for i in range(self.size) if not removed[i]]
        number = {node: j for j, node in enumerate(kept)}
        data = coins.objects()
        values = tuple(data[self.base + i] for i in kept)
        new_parents = tuple(
            number[parents[i]] if parents[i] >= 0 and not removed[parents[i]] else -1
            for i in kept
        )
        return values, new_parents


class LiveForest:
    """The forest part of a live position (an ``Engine``'s): the nodes gone, updated in place.

    It answers what the move protocol asks of a position's forest (``size``, ``base``,
    ``parents``, ``removed()``, ``is_root(node)``, ``roots()``) in O(1), except ``roots()``:
    O(r log r) for the r roots, from the set of current roots that ``take`` keeps (built on
    the first call, O(n); a path of 10^5 nodes with one root: a few microseconds a call
    instead of 10 ms, benchmarks/engine_bench.py). With ``roots`` (an engine's: its
    structure's ``roots``, which keeps them as it plays), ``roots()`` asks it instead, and
    ``take`` only marks the node gone: an engine's first ``moves()`` builds nothing (the
    children lists took 16 ms at 10^6 nodes) and a move keeps no Python set. ``state()`` is
    an immutable ``ForestState`` of it, O(n).
    """

    __slots__ = ("base", "parents", "size", "component", "left", "_mask", "_roots",
                 "_first_child", "_next_sibling", "_kept_roots")

    def __init__(self, state: ForestState, roots: Callable[[], list[int]] | None = None) -> None:
        self.base = state.base
        self.parents = state.parents
        self.size = state.size
        self.component = state.component
        self.left = state.left
        self._mask = bytearray(state.removed())
        # The current roots and the children lists, once roots() is first asked for.
        self._roots: set[int] | None = None
        self._first_child: array | None = None
        self._next_sibling: array | None = None
        self._kept_roots = roots

    def removed(self) -> bytearray:
        """``removed()[i]`` is 1 when node i is gone (the live mask itself: read it only)."""
        return self._mask

    def is_root(self, node: int) -> bool:
        parent = self.parents[node]
        return not self._mask[node] and (parent < 0 or bool(self._mask[parent]))

    def roots(self) -> list[int]:
        """The current roots in increasing order. O(r log r) for r roots (O(n) once)."""
        kept = self._kept_roots
        if kept is not None:
            return kept()
        roots = self._roots
        if roots is None:
            return self._build()[0]
        return sorted(roots)

    def _build(self) -> tuple[list[int], array, array]:
        """The children lists and the set of current roots, in one compiled pass
        (``forest_children_and_roots``): the roots in increasing order, first child and next
        sibling. O(n)."""
        size = self.size
        first_child = array("q", bytes(8 * size))
        next_sibling = array("q", bytes(8 * size))
        found = _core.forest_children_and_roots(self.parents, self._mask, first_child,
                                                next_sibling)
        self._first_child, self._next_sibling = first_child, next_sibling
        self._roots = set(found)
        return found, first_child, next_sibling

    def _children_lists(self) -> tuple[array, array]:
        """Every node's children in increasing order, as first child and next sibling
        (-1: none), built on the first call. O(n) once, then O(1)."""
        first_child, next_sibling = self._first_child, self._next_sibling
        if first_child is None or next_sibling is None:
            _, first_child, next_sibling = self._build()
        return first_child, next_sibling

    def children(self, node: int) -> list[int]:
        """The children of ``node`` in increasing order. O(1 + their number) (O(n) once)."""
        first_child, next_sibling = self._children_lists()
        found = []
        child = first_child[node]
        while child >= 0:
            found.append(child)
            child = next_sibling[child]
        return found

    def take(self, node: int) -> None:
        """Node ``node`` (a root: the move protocol checked it) is taken: its children become
        roots. O(1 + its children)."""
        self._mask[node] = 1
        self.left -= 1
        roots = self._roots
        if roots is not None:
            roots.discard(node)
            roots.update(self.children(node))

    def resync(self, taken: Callable[[int], bool]) -> None:
        """The nodes gone read back from ``taken(node)`` (the engine's structure). O(n)."""
        mask = self._mask
        for node in range(self.size):
            mask[node] = 1 if taken(node) else 0
        self.left = self.size - sum(mask)
        self._roots = None  # read from the mask again when next asked for

    def state(self) -> ForestState:
        return ForestState(self.base, self.parents, self.component, bytes(self._mask),
                           self.left)
