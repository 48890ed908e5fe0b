"""Random inputs shared by the tests: rows with ties, zeros, negatives, shapes, big ints."""

from __future__ import annotations

import random
from array import array

ROW_STYLES = (
    "wide", "ties", "signs", "valley", "peak", "walk", "alternating", "sorted", "big", "edges",
)

# Coins that fit in int32 (and in a float exactly): for NumPy dtype and float tests.
SMALL_STYLES = tuple(s for s in ROW_STYLES if s not in ("big", "edges"))


def random_row(rng: random.Random, n: int, styles: tuple[str, ...] = ROW_STYLES) -> list[int]:
    """A random row of ``n`` int coins in one of ``styles`` (chosen at random)."""
    style = rng.choice(styles)
    if style == "wide":
        return [rng.randint(-1000, 1000) for _ in range(n)]
    if style == "ties":  # many ties and zeros
        return [rng.randint(0, 3) for _ in range(n)]
    if style == "signs":  # ties, zeros, negatives
        return [rng.choice([-2, 0, 2]) for _ in range(n)]
    if style == "valley":  # V-shaped: one long valley, nothing fuses
        return [abs(k - n // 2) * 2 + rng.randint(0, 1) for k in range(n)]
    if style == "peak":  # everything fuses
        return [1000 - abs(k - n // 2) * 3 + rng.randint(0, 2) for k in range(n)]
    if style == "walk":
        x, out = 0, []
        for _ in range(n):
            x += rng.randint(-10, 10)
            out.append(x)
        return out
    if style == "alternating":  # high, low, high, ...
        return [rng.randint(0, 9) * (1 if k % 2 else 10) for k in range(n)]
    if style == "sorted":
        return sorted(rng.randint(-50, 50) for _ in range(n))
    if style == "big":  # beyond int64
        return [rng.randint(-3, 3) * 2**64 + rng.randint(0, 2) for _ in range(n)]
    if style == "edges":  # int64 limits: sums and fusions overflow
        return [rng.choice([2**63 - 1, -(2**63), 2**62, 0, -1]) for _ in range(n)]
    raise ValueError(f"unknown row style {style!r}")


def random_game(rng: random.Random, max_coins: int, lo: int = -4,
                hi: int = 4) -> tuple[list[list[int]], list[list[int]]]:
    """Random rows and stacks (stacks top first) of at most ``max_coins`` coins in all."""
    rows: list[list[int]] = []
    stacks: list[list[int]] = []
    budget = rng.randint(0, max_coins)
    while budget > 0:
        size = rng.randint(0, min(budget, 5))
        budget -= size
        component = [rng.randint(lo, hi) for _ in range(size)]
        (rows if rng.random() < 0.5 else stacks).append(component)
    return rows, stacks


# -- forests ---------------------------------------------------------------------------------

FOREST_SHAPES = ("recursive", "paths", "stars", "caterpillars", "shallow")


def random_parents(rng: random.Random, n: int, *, roots: float = 0.12,
                   shuffled: bool = True) -> list[int]:
    """The parents of a random forest of ``n`` nodes (``-1`` for a root), of one of
    ``FOREST_SHAPES`` chosen at random: random recursive trees, paths, stars, caterpillars, or
    broad and shallow trees. Node 0 and about ``roots`` of the others are roots.

    With ``shuffled`` the nodes are numbered at random, so that a parent may come after its
    child; without, every parent comes before its children (what the forest kernels take).
    """
    shape = rng.choice(FOREST_SHAPES)
    parents: list[int] = []
    for i in range(n):
        if i == 0 or rng.random() < roots:
            parents.append(-1)
        elif shape == "recursive":
            parents.append(rng.randrange(i))
        elif shape == "paths":
            parents.append(i - 1)
        elif shape == "stars":
            parents.append(0 if rng.random() < 0.7 else rng.randrange(i))
        elif shape == "caterpillars":
            parents.append(max(0, i - rng.randint(1, 2)))
        else:  # broad and shallow
            parents.append(rng.randrange(max(1, i // 2)))
    if not shuffled:
        return parents
    label = list(range(n))
    rng.shuffle(label)
    return relabelled([0] * n, parents, label)[1]


def relabelled(values: list, parents: list[int], label: list[int]) -> tuple[list, list[int]]:
    """The forest ``(values, parents)`` with node ``i`` renamed ``label[i]`` (``label`` a
    permutation): the same forest, numbered otherwise."""
    n = len(parents)
    new_values: list = [0] * n
    new_parents = [0] * n
    for i in range(n):
        new_values[label[i]] = values[i]
        new_parents[label[i]] = -1 if parents[i] < 0 else label[parents[i]]
    return new_values, new_parents


def numbered_any_way(rng: random.Random, values: list,
                     parents: list[int]) -> tuple[list, list[int]]:
    """The forest as made (parents first), reversed (parents last) or numbered at random,
    each a third of the time."""
    n = len(values)
    how = rng.randrange(3)
    if how == 0:
        return values, parents
    return relabelled(values, parents,
                      list(range(n))[::-1] if how == 1 else rng.sample(range(n), n))


def taken_mask(rng: random.Random, parents: list[int], chance: float) -> array:
    """A position in play, as the kernels' ``removed`` mask: each root taken with probability
    ``chance``, and each node whose parent was taken (a root then) likewise, in any
    numbering."""
    children: list[list[int]] = [[] for _ in parents]
    for v, p in enumerate(parents):
        if p >= 0:
            children[p].append(v)
    removed = array("B", bytes(len(parents)))
    roots = [v for v, p in enumerate(parents) if p < 0]
    while roots:
        v = roots.pop()
        if rng.random() < chance:
            removed[v] = 1
            roots.extend(children[v])
    return removed


def random_forest(rng: random.Random, n: int, low: int = -4, high: int = 9, *,
                  roots: float = 0.12, shuffled: bool = True) -> tuple[list[int], list[int]]:
    """A random forest of ``n`` nodes as ``(values, parents)``: values in ``[low, high]``
    (ties, zeros, negatives), parents as ``random_parents`` makes them."""
    values = [rng.randint(low, high) for _ in range(n)]
    return values, random_parents(rng, n, roots=roots, shuffled=shuffled)


def small_coins(rng: random.Random, n: int) -> list[int]:
    """``n`` small int coins in one of four styles: -5 to 5, 0 to 2 (many ties), -1, 0 or 1,
    -40 to 40."""
    style = rng.randrange(4)
    if style == 0:
        return [rng.randint(-5, 5) for _ in range(n)]
    if style == 1:
        return [rng.randint(0, 2) for _ in range(n)]  # many ties
    if style == 2:
        return [rng.choice([-1, 0, 1]) for _ in range(n)]
    return [rng.randint(-40, 40) for _ in range(n)]


def random_forest_position(rng: random.Random, max_nodes: int, extras: bool = True):
    """``(rows, stacks, values, parents)``: a forest of up to ``max_nodes`` nodes (parents
    anywhere) of ``small_coins``, with ``extras`` a few rows and stacks of a few coins each
    (few: the minimax's states multiply)."""
    n = rng.randint(0, max_nodes)
    values = small_coins(rng, n)
    parents = random_parents(rng, n)
    rows: list[list[int]] = []
    stacks: list[list[int]] = []
    if extras:
        rows = [small_coins(rng, rng.randint(0, size)) for size in rng.choice(
            [(), (4,), (3, 2), (1,)])]
        stacks = [small_coins(rng, rng.randint(0, size)) for size in rng.choice(
            [(), (3,), (2, 2)])]
    return rows, stacks, values, parents
