"""The forest Engine's structure (``ForestWindows`` and its twin) on small forests of every
shape: its value and moves against minimax after every take, its roots (kept by the structure,
not by Python) against the parents, its treap's order and sums, through copies and pickles.
Cheap: some 0.3 s in all."""

from __future__ import annotations

import copy
import itertools
import pickle
import random
from array import array
from typing import Any

import pytest

from coinsrow import Engine, Game, _core

from generators import relabelled
from oracles import after_move, brute_forest_solver

SHAPES = ("path", "star", "caterpillar", "broom", "binary", "random")


def shaped_parents(rng: random.Random, shape: str, n: int) -> list[int]:
    """Parents of an n-node tree of the shape, every parent before its children, with a
    second root now and then."""
    parents: list[int] = []
    for i in range(n):
        if i == 0 or rng.random() < 0.1:
            parents.append(-1)
        elif shape == "path":
            parents.append(i - 1)
        elif shape == "star":
            parents.append(0)
        elif shape == "caterpillar":
            parents.append(max(0, i - rng.randint(1, 2)))
        elif shape == "broom":  # a handle, then bristles at its end
            parents.append(i - 1 if i <= n // 2 else n // 2)
        elif shape == "binary":
            parents.append((i - 1) // 2)
        else:
            parents.append(rng.randrange(i))
    return parents


def live_roots(parents: list[int], present: int) -> list[int]:
    return [v for v, p in enumerate(parents)
            if present >> v & 1 and (p < 0 or not present >> p & 1)]


def check_treap(windows: Any) -> None:
    """The treap of the rows' blocks and the slots' released blocks: in order (larger value
    first, then the lower node), each node's size and alternating sum right."""
    state = windows._state()
    tl, tr, sz, val, alt = (list(state[k]) for k in ("tl", "tr", "sz", "val", "alt"))
    for cell in state.get("cells", ()):
        for column, x in zip((tl, tr, sz, val, alt), cell):
            column.append(x)
    nil = state["nil"]

    def walk(t: int) -> list[int]:
        if t == nil:
            return []
        left, right = walk(tl[t]), walk(tr[t])
        assert sz[t] == len(left) + 1 + len(right)
        signs = sum(val[x] * (-1) ** i for i, x in enumerate(left + [t] + right))
        assert alt[t] == signs
        return left + [t] + right

    order = walk(state["root"])
    for a, b in itertools.pairwise(order):
        assert val[a] > val[b] or (val[a] == val[b] and a < b)


def test_forest_engine_every_shape_against_minimax_copies_and_pickles() -> None:
    rng = random.Random(40)
    for case in range(120):
        shape = SHAPES[case % len(SHAPES)]
        n = rng.randint(1, 9)
        values = [rng.randint(-3, 9) for _ in range(n)]
        parents = shaped_parents(rng, shape, n)
        if case % 3 == 2:  # numbered at random: parents after their children too
            label = list(range(n))
            rng.shuffle(label)
            values, parents = relabelled(values, parents, label)
        rows = [[rng.randint(0, 9) for _ in range(rng.randint(0, 3))]] if case % 2 else []
        stacks = [[rng.randint(0, 9) for _ in range(rng.randint(1, 3))]] if case % 4 == 1 else []
        solve = brute_forest_solver(rows, stacks, values, parents)
        state: Any = (tuple((0, len(r)) for r in rows), tuple(0 for _ in stacks),
                      (1 << n) - 1)
        engine = Engine(Game(rows=rows, stacks=stacks, forest=(values, parents)))
        while True:
            windows = engine._windows
            assert engine.value() == solve(*state), (shape, values, parents)
            assert windows.roots() == live_roots(parents, state[2])
            assert engine.moves() == engine.game.moves()
            check_treap(windows)
            legal = engine.moves()
            if not legal:
                break
            if rng.random() < 0.6:
                move = engine.best_move()  # optimal, and played as offered
                assert move.coin - solve(*after_move(state, move)) == solve(*state)
            else:
                move = rng.choice(legal)
            engine.take(move)
            state = after_move(state, move)
            if rng.random() < 0.25:
                engine = copy.copy(engine) if rng.random() < 0.5 else \
                    pickle.loads(pickle.dumps(engine))


@pytest.mark.parametrize("shape", SHAPES)
def test_forest_windows_and_its_twin_keep_the_same_roots(shape: str) -> None:
    """The structure's ``roots()`` (the heap compacted as it answers) and its exact twin's,
    move by move, with the value and the best move."""
    rng = random.Random(shape)
    n = 40
    values = [rng.randint(-5, 20) for _ in range(n)]
    parents = shaped_parents(rng, shape, n)
    args = (array("q"), array("q"), 0, 0, array("q", parents), bytes(n))
    machine = _core.ForestWindows(array("q", values), *args)
    twin = _core.ForestWindowsExact(list(values), *args)
    for _ in range(n):
        assert machine.roots() == twin.roots()
        assert machine.value() == twin.value()
        assert machine.best() == twin.best()
        roots = machine.roots()
        node = machine.best()[2] if rng.random() < 0.5 else rng.choice(roots)
        machine.take_node(node)
        twin.take_node(node)
        assert machine.taken(node) and twin.taken(node)
    assert machine.roots() == twin.roots() == []
    assert machine.best() == twin.best() == (-1, True, -1)


@pytest.mark.slow
@pytest.mark.parametrize("n", [2**16 - 1, 2**16])
@pytest.mark.parametrize("parents_first", [True, False])
def test_forests_on_either_side_of_the_preorder_numbering(n: int, parents_first: bool) -> None:
    """Below 2^16 slots the structure's heaps keep the slots' own numbering (or its reverse),
    from there on they are renumbered in preorder: either way the value, the best move and
    the roots are its twin's, over a stretch of the optimal line and random takes."""
    rng = random.Random(n + parents_first)
    values = [rng.randint(-10**6, 10**6) for _ in range(n)]
    parents = [-1] + [rng.randrange(v) for v in range(1, n)]  # each parent before its child
    if not parents_first:
        values, parents = relabelled(values, parents, list(range(n))[::-1])
    args = (array("q"), array("q"), 0, 0, array("q", parents), bytes(n))
    machine = _core.ForestWindows(array("q", values), *args)
    twin = _core.ForestWindowsExact(list(values), *args)
    assert machine.value() == twin.value()
    for _ in range(40):
        assert machine.best() == twin.best()
        node = machine.best()[2] if rng.random() < 0.7 else rng.choice(machine.roots())
        machine.take_node(node)
        twin.take_node(node)
        assert machine.value() == twin.value()
    assert machine.roots() == twin.roots()
