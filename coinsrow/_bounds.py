"""The bounds of a position's rows and stacks, persistent: a move copies O(log k) of them.

A position of a ``Game`` is, for each of its k rows and stacks, the range ``[start, stop)``
of its coins still on the table (indices in the game's one flat storage of coins). A move
changes one bound of one component, and every position a game passes through stays valid
(``Game`` is immutable), so the bounds are a persistent array: a tree of fanout 32 whose
leaves hold the bounds of 32 consecutive components (an ``array('q')``: their starts, then
their stops) and whose inner nodes hold up to 32 children. A move copies the path from the
root to one leaf (path copying) and shares every other node with the position it came from:
O(log k) time and memory, log to the base 32 (one leaf below 32 components, three levels
for 10^5). Reading one bound is O(log k); all of them as flat arrays, O(k).

docs/positions.md explains the design and its bounds.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from typing import Any, overload

__all__ = ["Bounds", "Starts", "Stops", "pickled_bounds", "pickled_ints"]

_BITS = 5
_WIDTH = 1 << _BITS  # components per leaf, children per inner node
_MASK = _WIDTH - 1


def _int64(buffer: Any) -> array:
    """An ``array('q')`` copy of a 1-D int64 buffer (one memcpy)."""
    copy = array("q")
    copy.frombytes(memoryview(buffer).cast("B"))
    return copy


class Bounds:
    """The ``[start, stop)`` of each of k components, immutable and persistent.

    ``Bounds(starts, stops)`` keeps the two int64 buffers as they are (they must not change
    afterwards) and builds the tree on the first change, O(k); ``get(c)`` is O(log k) (O(1)
    before any change), ``taken(c, from_start)`` the bounds after a coin is taken at one end
    of component c, O(log k); ``arrays()`` all starts and stops, O(k) once, then cached.
    """

    __slots__ = ("_depth", "_flat", "_k", "_root")

    def __init__(self, starts: Any, stops: Any) -> None:
        self._k = len(starts)
        self._depth = 0
        self._root: Any = None
        self._flat: tuple[Any, Any] | None = (starts, stops)

    @classmethod
    def _of_tree(cls, k: int, depth: int, root: Any) -> Bounds:
        bounds = cls.__new__(cls)
        bounds._k = k
        bounds._depth = depth
        bounds._root = root
        bounds._flat = None
        return bounds

    def __len__(self) -> int:
        return self._k

    def _tree(self) -> Any:
        """The root of the tree, built from the flat arrays the first time: O(k)."""
        root = self._root
        if root is None:
            flat = self._flat
            assert flat is not None  # one of the two representations is always there
            starts, stops = _int64(flat[0]), _int64(flat[1])
            nodes: list[Any] = [starts[i:i + _WIDTH] + stops[i:i + _WIDTH]
                                for i in range(0, self._k, _WIDTH)] or [array("q")]
            depth = 0
            while len(nodes) > 1:
                nodes = [nodes[i:i + _WIDTH] for i in range(0, len(nodes), _WIDTH)]
                depth += 1
            self._depth = depth
            root = self._root = nodes[0]
        return root

    def get(self, c: int) -> tuple[int, int]:
        """``(start, stop)`` of component c (0 <= c < k). O(log k)."""
        flat = self._flat
        if flat is not None:
            return flat[0][c], flat[1][c]
        node = self._root
        shift = self._depth * _BITS
        while shift:
            node = node[(c >> shift) & _MASK]
            shift -= _BITS
        half = len(node) >> 1
        j = c & _MASK
        return node[j], node[half + j]

    def taken(self, c: int, from_start: bool) -> Bounds:
        """The bounds after taking the coin at the start (``from_start``) or before the stop
        of component c, which must have one: O(log k), the path to c's leaf copied."""
        root = self._tree()
        depth = self._depth
        path = []
        node = root
        shift = depth * _BITS
        while shift:
            path.append(node)
            node = node[(c >> shift) & _MASK]
            shift -= _BITS
        leaf = node[:]
        j = c & _MASK
        if from_start:
            leaf[j] += 1
        else:
            leaf[(len(leaf) >> 1) + j] -= 1
        new: Any = leaf
        for node in reversed(path):
            shift += _BITS
            copy = node[:]
            copy[(c >> shift) & _MASK] = new
            new = copy
        return Bounds._of_tree(self._k, depth, new)

    def _leaves(self) -> list[array]:
        nodes = [self._tree()]
        for _ in range(self._depth):
            nodes = [child for node in nodes for child in node]
        return nodes

    def arrays(self) -> tuple[Any, Any]:
        """``(starts, stops)``: every component's bounds as C-contiguous int64 buffers, in
        component order. O(k) the first time, then cached; the caller must not change them."""
        flat = self._flat
        if flat is None:
            starts, stops = array("q"), array("q")
            for leaf in self._leaves():
                half = len(leaf) >> 1
                starts += leaf[:half]
                stops += leaf[half:]
            flat = self._flat = (starts, stops)
        return flat


class _View(Sequence[int]):
    """One side of the bounds as a read-only sequence (O(log k) per item): what the move
    protocol reads of a position, without materialising all of it."""

    __slots__ = ("_bounds",)
    _side = 0

    def __init__(self, bounds: Bounds) -> None:
        self._bounds = bounds

    def __len__(self) -> int:
        return len(self._bounds)

    @overload
    def __getitem__(self, c: int) -> int: ...

    @overload
    def __getitem__(self, c: slice) -> Sequence[int]: ...

    def __getitem__(self, c: int | slice) -> int | Sequence[int]:
        if isinstance(c, slice):
            return self._bounds.arrays()[self._side][c]  # type: ignore[no-any-return]
        if not 0 <= c < len(self._bounds):
            raise IndexError(c)
        return self._bounds.get(c)[self._side]


class Starts(_View):
    """The starts of a position's components (``Bounds.get(c)[0]``)."""

    __slots__ = ()
    _side = 0


class Stops(_View):
    """The stops of a position's components (``Bounds.get(c)[1]``)."""

    __slots__ = ()
    _side = 1


# -- bounds read from a pickle -----------------------------------------------------------------


def pickled_ints(values: Any, count: int, what: str, name: str) -> list[int]:
    """``values`` from a pickle of a ``name``, checked: a sequence of ``count`` ints (not
    bools). ``TypeError``/``ValueError`` saying what is wrong. O(count)."""
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence):
        raise TypeError(f"the pickled {name} is corrupt: its {what} are of type "
                        f"{type(values).__name__}, not a sequence of ints")
    if len(values) != count:
        raise ValueError(f"the pickled {name} does not match its coins: {len(values)} {what} "
                         f"for {count} rows and stacks")
    for i, x in enumerate(values):
        if type(x) is not int:
            raise TypeError(f"the pickled {name} is corrupt: its {what}[{i}] is of type "
                            f"{type(x).__name__}, not int")
    return list(values)


def pickled_bounds(name: str, components: Sequence[str], initial_starts: Sequence[int],
                   initial_stops: Sequence[int], starts: Any,
                   stops: Any) -> tuple[list[int], list[int]]:
    """The ``[start, stop)`` of each row and stack (named by ``components``) of a position
    read from a pickle of a ``name``, checked against the game it was reached from: ints,
    within the game's own bounds of each component, ``start <= stop`` (a position only ever
    takes coins). A corrupt pickle is a ``TypeError``/``ValueError`` here, never a kernel
    reading outside its coins. O(k)."""
    k = len(initial_starts)
    starts = pickled_ints(starts, k, "starts", name)
    stops = pickled_ints(stops, k, "stops", name)
    for c, (a0, a, b, b0) in enumerate(zip(initial_starts, starts, stops, initial_stops)):
        if not a0 <= a <= b <= b0:
            raise ValueError(f"the pickled {name} does not match its coins: {components[c]} "
                             f"left as [{a - a0}, {b - a0}), not within its {b0 - a0} coins")
    return starts, stops
