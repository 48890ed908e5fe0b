"""A corrupt pickle of a ``Game`` or an ``Engine`` is refused when it is loaded (a
``TypeError`` or ``ValueError`` saying what is wrong), never a crash or a garbage answer
later: every mutation of a pickle's contents either loads as the position it describes (its
answers are then the oracle's) or raises at load. The compiled structures do not pickle."""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest

from coinsrow import Engine, Game, _engine, _game

from generators import random_forest, random_game
from modes import drawn
from oracles import brute_forest_value

BAD_NUMBERS: tuple[Any, ...] = (-1, -(2**63), 2**63, 2**64, 10**30, 1.0, 0.5, "1", None, True,
                                b"\x00", [1], float("nan"))


class _Forged:
    """An object whose pickle is whatever ``__reduce__`` returns: a pickle with any
    contents, made the way a corrupt file would hold it."""

    def __init__(self, reduced: tuple) -> None:
        self.reduced = reduced

    def __reduce__(self) -> tuple:
        return self.reduced


def load(function: Any, args: tuple) -> Any:
    return pickle.loads(pickle.dumps(_Forged((function, args))))


def load_or_refusal(function: Any, args: tuple) -> tuple[Any, str | None]:
    """(the object loaded, None), or (None, the message of the TypeError/ValueError)."""
    try:
        return load(function, args), None
    except (TypeError, ValueError) as error:
        return None, str(error)


def random_position(rng: random.Random) -> Game:
    rows, stacks = random_game(rng, 9)
    forest = random_forest(rng, rng.randint(1, 4)) if rng.random() < 0.5 else None
    game = Game(rows=rows, stacks=stacks, forest=forest)
    for _ in range(rng.randint(0, len(game))):
        game = game.take(rng.choice(game.moves()))
    return game


def oracle_value(rows: Any, stacks: Any, forest: Any, starts: Any, stops: Any,
                 removed: Any, bases: list[int]) -> Any:
    """The value of the position a Game pickle describes, by minimax on its coins."""
    components = [list(c) for c in [*rows, *stacks]]
    left = [c[a - base:b - base] for c, a, b, base in zip(components, starts, stops, bases)]
    values: list = []
    parents: list = []
    if forest is not None:
        gone = removed or bytes(len(forest[0]))
        kept = [i for i in range(len(forest[0])) if not gone[i]]
        number = {node: j for j, node in enumerate(kept)}
        values = [forest[0][i] for i in kept]
        parents = [number.get(forest[1][i], -1) for i in kept]
    return brute_forest_value(left[:len(rows)], left[len(rows):], values, parents)


def mutations(rng: random.Random, args: tuple):
    """Corrupt versions of a Game pickle's arguments."""
    rows, stacks, forest, starts, stops, _ = args
    k = len(starts)
    for name, bounds in (("starts", starts), ("stops", stops)):
        for c in range(k):
            for bad in (*BAD_NUMBERS, bounds[c] + 1, bounds[c] - 1, bounds[c] + 10**6):
                changed = list(bounds)
                changed[c] = bad
                yield name, (tuple(changed), stops) if name == "starts" else (starts,
                                                                              tuple(changed))
        for bad in (bounds[:-1], (*bounds, 0), 5, "abc", None, {0: 1}, b"\x00" * k):
            yield name, (bad, stops) if name == "starts" else (starts, bad)
    for bad_removed in (b"", b"\x02" * 4, [0] * 4, "0000", 7, bytes(range(4)),
                        bytes(rng.randint(0, 1) for _ in range(len(forest[0]) if forest else 3))):
        yield "removed", bad_removed
    yield "rows", [*rows, "abc"]
    yield "stacks", [*stacks, [None]]
    yield "forest", ((1, 2), (5, -1))


def test_a_corrupt_game_pickle_is_refused_or_is_the_position_it_describes():
    rng = random.Random(9)
    refused = answered = 0
    for _ in range(drawn(150)):
        game = random_position(rng)
        function, args = game.__reduce__()
        assert load(function, args) == game
        rows, stacks, forest, starts, stops, removed = args
        bases = list(Game(rows=rows, stacks=stacks, forest=forest)._bounds.arrays()[0])
        for what, change in mutations(rng, args):
            if what in ("starts", "stops"):
                new = (rows, stacks, forest, *change, removed)
            elif what == "removed":
                new = (rows, stacks, forest, starts, stops, change)
            elif what == "rows":
                new = (change, stacks, forest, starts, stops, removed)
            elif what == "stacks":
                new = (rows, change, forest, starts, stops, removed)
            else:
                new = (rows, stacks, change, starts, stops, removed)
            loaded, refusal = load_or_refusal(function, new)
            if refusal is not None:
                assert "pickled" in refusal or what in ("rows", "stacks", "forest"), refusal
                refused += 1
                continue
            answered += 1
            assert loaded.value() == oracle_value(*new, bases), new
            assert len(loaded) == len(loaded.play())
    assert refused > 1000 and answered > 100


def test_the_examples_of_corrupt_game_pickles():
    game = Game(rows=[[1, 2, 3]], stacks=[[4, 5]], forest=([1, 2, 3], [-1, 0, 0]))
    function, (rows, stacks, forest, starts, stops, removed) = game.__reduce__()
    cases = {
        "row 0 left as [0, 99), not within its 3 coins": (starts, (99, stops[1])),
        "row 0 left as [-1, 3)": ((-1, starts[1]), stops),
        "stack 0 left as [2, 1)": ((starts[0], starts[1] + 2), (stops[0], stops[1] - 1)),
        "its starts[0] is of type float, not int": ((0.0, starts[1]), stops),
        "1 stops for 2 rows and stacks": (starts, stops[:1]),
    }
    for message, (bad_starts, bad_stops) in cases.items():
        with pytest.raises((TypeError, ValueError), match=message.replace("[", r"\[")
                           .replace("(", r"\(").replace(")", r"\)")):
            load(function, (rows, stacks, forest, bad_starts, bad_stops, removed))
    with pytest.raises(ValueError, match="node 1 is gone but its parent 0 is still there"):
        load(function, (rows, stacks, forest, starts, stops, b"\x00\x01\x00"))
    with pytest.raises(ValueError, match="removed nodes, but no forest"):
        load(function, (rows, stacks, None, starts, stops, b"\x00"))


def test_a_corrupt_engine_pickle_is_refused_or_plays_the_position_it_describes():
    rng = random.Random(10)
    for _ in range(drawn(100)):
        start = random_position(rng)
        engine = Engine(start)
        for _ in range(rng.randint(0, len(engine))):
            engine.take(rng.choice(engine.moves()))
        function, args = engine.__reduce__()
        assert load(function, args).game == engine.game
        game, left, right, *nodes = args
        k = len(left)
        variants = [(game, left, right, *nodes)]
        for c in range(k):
            for bad in (*BAD_NUMBERS, left[c] + 1, 10**6):
                variants.append((game, [*left[:c], bad, *left[c + 1:]], right, *nodes))
                variants.append((game, left, [*right[:c], bad, *right[c + 1:]], *nodes))
        variants += [(game, left[:-1], right, *nodes), ("game", left, right, *nodes),
                     (game, 5, right, *nodes), (game, left, right, 5),
                     (game, left, right, [0, 0]), (game, left, right, [10**6]),
                     (game, left, right, [1.0])]
        for variant in variants:
            loaded, refusal = load_or_refusal(function, variant)
            if refusal is not None:
                assert "pickled" in refusal, refusal
                continue
            position = loaded.game
            assert loaded.value() == position.value() == brute_forest_value(
                position.rows, position.stacks,
                *(position.forest if position.forest is not None else ((), ())))


@pytest.mark.parametrize("coins", [[1, 2, 3], [0.5, 1.5], [2**70, 1], [1, 2]],
                         ids=["int64", "float64", "exact", "forest"])
def test_the_compiled_structures_do_not_pickle(coins):
    game = Game(forest=(coins, [-1, 0])) if len(coins) == 2 and coins == [1, 2] \
        else Game(rows=[coins])
    engine = Engine(game)
    with pytest.raises(TypeError):
        pickle.dumps(engine._structure.kernel)
    assert pickle.loads(pickle.dumps(engine)).value() == engine.value()


def test_the_unpickling_functions_are_the_ones_checked():
    assert Game(rows=[[1]]).__reduce__()[0] is _game._unpickle_game
    assert Engine([1]).__reduce__()[0] is _engine._unpickle_engine
