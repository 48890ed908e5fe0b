"""Games of many components: built from lists, buffers and Arrow arrays in one compiled pass,
and played through the persistent ``take``.

- Building: every kind of input (lists, tuples, NumPy arrays of every numeric dtype,
  ``array.array``, memoryviews, pyarrow list arrays of every layout) gives the game of the
  same coins, whose value is the oracles'; a bad coin among many components is named exactly;
  an Arrow array is read without a copy; a NumPy array is copied (the game never changes).
- Playing: a self-play through ``best_move()``/``take()`` plays ``play()`` and collects
  ``profits()``, every move optimal (the brute force) and the one a game rebuilt from
  scratch at that position makes; the position after any sequence of moves, from any earlier
  position (persistence), equals the game rebuilt from the coins left; the persistent bounds
  agree with a plain list under any sequence of changes.
- Playouts: the heap-driven ``"greedy"`` and the tree-driven ``"random"`` play exactly what
  their definitions over ``moves()`` play; a user callable sees the current position.
"""

from __future__ import annotations

import random
from array import array
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from coinsrow import Game, Move, simulate
from coinsrow._bounds import Bounds, Starts, Stops
from coinsrow._game import where

from generators import random_forest, random_game
from modes import drawn, scaled
from oracles import brute_solver, paper_value

try:
    import pyarrow as pa
except ImportError:  # pragma: no cover - pyarrow is an optional test dependency
    pa = None

needs_arrow = pytest.mark.skipif(pa is None, reason="pyarrow is not installed")


# -- building -------------------------------------------------------------------------------

INT_KINDS = [
    ("list", list),
    ("tuple", tuple),
    ("range-like iterator", lambda c: iter(list(c))),
    ("numpy int64", lambda c: np.array(c, dtype=np.int64)),
    ("numpy int32", lambda c: np.array(c, dtype=np.int32)),
    ("numpy int16", lambda c: np.array(c, dtype=np.int16)),
    ("numpy int8", lambda c: np.array(c, dtype=np.int8)),
    ("numpy uint64", lambda c: np.array([x + 100 for x in c], dtype=np.uint64)),
    ("numpy uint32", lambda c: np.array([x + 100 for x in c], dtype=np.uint32)),
    ("numpy uint8", lambda c: np.array([x + 100 for x in c], dtype=np.uint8)),
    ("numpy strided", lambda c: np.array([y for x in c for y in (x, 99)], dtype=np.int64)[::2]),
    ("numpy big-endian", lambda c: np.array(c, dtype=">i8")),
    ("array q", lambda c: array("q", c)),
    ("array i", lambda c: array("i", c)),
    ("array b", lambda c: array("b", c)),
    ("memoryview", lambda c: memoryview(array("q", c))),
    ("numpy int64 scalars", lambda c: [np.int64(x) for x in c]),
]

FLOAT_KINDS = [
    ("list of floats", lambda c: [float(x) for x in c]),
    ("list mixing floats and ints", lambda c: [x if i % 2 else float(x) for i, x in enumerate(c)]),
    ("numpy float64", lambda c: np.array(c, dtype=np.float64)),
    ("numpy float32", lambda c: np.array(c, dtype=np.float32)),
    ("numpy float16", lambda c: np.array(c, dtype=np.float16)),
    ("array d", lambda c: array("d", c)),
    ("array f", lambda c: array("f", c)),
]


def _shifted(kind: str, component: list) -> list:
    """The coins a kind of input holds (the unsigned ones are shifted to be non-negative)."""
    return [x + 100 for x in component] if "uint" in kind else list(component)


def _check_game(game: Game, rows: list, stacks: list, *, exact_value: bool = True) -> None:
    """``game`` holds these rows and stacks, and solves them as the oracles do."""
    assert game.rows == tuple(tuple(r) for r in rows)
    assert game.stacks == tuple(tuple(s) for s in stacks)
    assert len(game) == sum(map(len, rows)) + sum(map(len, stacks))
    expected = paper_value(rows, stacks)
    if exact_value:
        assert game.value() == expected
    else:
        assert game.value() == pytest.approx(expected, abs=1e-6)
    first, second = game.profits()
    assert first - second == game.value() or not exact_value
    assert game == Game(rows=[list(r) for r in rows], stacks=[list(s) for s in stacks])


def _check_game_of_kinds(rows: list, stacks: list, kinds: list, number: type) -> None:
    """The game of ``rows`` and ``stacks`` each made by its kind (a ``(name, make)`` of
    INT_KINDS or FLOAT_KINDS): checked against its coins as ``number``s, and its coins
    are ``number``s."""
    components = rows + stacks
    built = [make(c) for (_, make), c in zip(kinds, components)]
    coins = [[number(x) for x in _shifted(name, c)] for (name, _), c in zip(kinds, components)]
    game = Game(rows=built[:len(rows)], stacks=built[len(rows):])
    _check_game(game, coins[:len(rows)], coins[len(rows):])
    assert all(type(x) is number for r in game.rows + game.stacks for x in r)


def test_every_kind_of_component_gives_the_same_game():
    rng = random.Random(1701)
    for _ in range(scaled(300)):
        rows, stacks = random_game(rng, 40, -20, 20)
        kinds = [rng.choice(INT_KINDS) for _ in rows + stacks]
        _check_game_of_kinds(rows, stacks, kinds, int)


def test_one_float_component_makes_a_float_game():
    rng = random.Random(1702)
    for _ in range(scaled(300)):
        rows, stacks = random_game(rng, 40, -20, 20)
        nonempty = [i for i, c in enumerate(rows + stacks) if c]
        if not nonempty:
            continue
        kinds = [rng.choice(INT_KINDS + FLOAT_KINDS) for _ in rows + stacks]
        kinds[rng.choice(nonempty)] = rng.choice(FLOAT_KINDS)
        _check_game_of_kinds(rows, stacks, kinds, float)


def test_exact_components_make_an_exact_game():
    rng = random.Random(1703)
    for _ in range(scaled(150)):
        rows, stacks = random_game(rng, 30, -20, 20)
        if not rows + stacks:
            continue
        for exact in (lambda c: [x * 2**70 for x in c], lambda c: [Fraction(x, 3) for x in c],
                      lambda c: [Decimal(x) / 4 for x in c]):
            components = [list(c) for c in rows + stacks]
            chosen = rng.randrange(len(components))
            components[chosen] = exact(components[chosen])
            kind = type(exact([1])[0])
            built = [c if i == chosen else np.array(c, dtype=np.int64)
                     for i, c in enumerate(components)]
            game = Game(rows=built[:len(rows)], stacks=built[len(rows):])
            _check_game(game, components[:len(rows)], components[len(rows):])
            if any(components[chosen]):
                assert game.value().__class__ is kind or kind is int


def _arrow_inputs(components: list, rng: random.Random) -> list:
    """The same components as pyarrow arrays of every list layout."""
    n = len(components)
    inputs = [
        pa.array(components, type=pa.list_(pa.int64())),
        pa.array(components, type=pa.large_list(pa.int64())),
        pa.array(components, type=pa.list_(pa.int32())),
        pa.array(components, type=pa.list_(pa.int16())),
        pa.array(components, type=pa.large_list(pa.float64())),
        pa.array(components, type=pa.list_(pa.float32())),
        pa.array(components, type=pa.list_(pa.decimal128(12, 2))),
    ]
    cut = rng.randint(0, n)
    inputs.append(pa.chunked_array([pa.array(components[:cut], type=pa.list_(pa.int64())),
                                    pa.array([], type=pa.list_(pa.int64())),
                                    pa.array(components[cut:], type=pa.list_(pa.int64()))],
                                   type=pa.list_(pa.int64())))
    # A slice of a bigger array: its offsets do not start at 0, and coins around it belong
    # to no component.
    padded = [[7, 7]] + components + [[9]]
    inputs.append(pa.array(padded, type=pa.list_(pa.int64()))[1:n + 1])
    width = rng.randint(0, 3)
    return inputs, width


def _value_kind(components) -> str:
    if not isinstance(components, pa.Array | pa.ChunkedArray):
        return "int"
    value_type = components.type.value_type
    return ("floating" if pa.types.is_floating(value_type)
            else "decimal" if pa.types.is_decimal(value_type) else "int")


@needs_arrow
def test_arrow_list_arrays_give_the_same_game():
    rng = random.Random(1704)
    for _ in range(scaled(60)):
        rows, stacks = random_game(rng, 40, -20, 20)
        row_inputs, _ = _arrow_inputs(rows, rng)
        stack_inputs, _ = _arrow_inputs(stacks, rng)
        for r in row_inputs:
            for s in (stacks, rng.choice(stack_inputs)):
                if {_value_kind(r), _value_kind(s)} == {"decimal", "floating"}:
                    continue  # a game mixing Decimal and float coins: refused
                game = Game(rows=r, stacks=s)
                exact = not pa.types.is_floating(r.type.value_type) and not (
                    isinstance(s, pa.Array | pa.ChunkedArray)
                    and pa.types.is_floating(s.type.value_type))
                _check_game(game, rows, stacks, exact_value=exact)
        for s in stack_inputs:
            _check_game(Game(stacks=s), [], stacks,
                        exact_value=not pa.types.is_floating(s.type.value_type))


@needs_arrow
def test_arrow_fixed_size_lists():
    rng = random.Random(1705)
    for size in (1, 3):
        for count in (0, 1, 5):
            flat = [rng.randint(-9, 9) for _ in range(size * (count + 2))]
            array_ = pa.FixedSizeListArray.from_arrays(pa.array(flat, type=pa.int64()), size)
            components = [flat[i * size:(i + 1) * size] for i in range(count + 2)]
            _check_game(Game(rows=array_), components, [])
            _check_game(Game(rows=array_[1:count + 1], stacks=array_[:1]),
                        components[1:count + 1], components[:1])


@needs_arrow
def test_arrow_uint64_beyond_int64_is_exact():
    big = [[2**64 - 1, 3], [2**63]]
    game = Game(rows=pa.array(big, type=pa.list_(pa.uint64())))
    _check_game(game, big, [])
    small = [[1, 2], [3]]
    _check_game(Game(stacks=pa.array(small, type=pa.list_(pa.uint64()))), [], small)


def _address(buffer) -> int:
    return np.frombuffer(buffer, dtype=np.uint8).ctypes.data


@needs_arrow
@pytest.mark.parametrize("list_type", ["int64", "large int64", "float64"])
@pytest.mark.parametrize("side", ["rows", "stacks"])
def test_one_arrow_array_is_read_without_a_copy(list_type, side):
    list_type = {"int64": pa.list_(pa.int64()), "large int64": pa.large_list(pa.int64()),
                 "float64": pa.list_(pa.float64())}[list_type]
    components = [[3, 1, 2], [], [5, 6], [4]]
    arrow = pa.array(components, type=list_type)
    game = Game(**{side: arrow})
    data = where(game).coins.data
    assert _address(data) == arrow.values.buffers()[1].address
    expected = [[float(x) for x in c] if pa.types.is_floating(list_type.value_type) else c
                for c in components]
    if side == "rows":
        _check_game(game, expected, [])
    else:
        _check_game(game, [], expected)


def test_a_game_keeps_its_own_copy_of_numpy_and_list_coins():
    rows = [np.array([1, 2, 3]), np.array([4.0, 5.0])]
    stacks = [[6, 7], array("q", [8])]
    game = Game(rows=rows, stacks=stacks)
    before = (game.rows, game.stacks, game.value())
    rows[0][0] = 100
    rows[1][1] = -50.0
    stacks[0][1] = 70
    stacks[1][0] = 80
    assert (game.rows, game.stacks, game.value()) == before
    assert rows[0].tolist() == [100, 2, 3] and stacks[0] == [6, 70]  # inputs not changed


# Bad components among many good ones: (where, component, exception, message).
MANY = 1000
BAD_COMPONENTS = [
    ("row", [1, True], TypeError,
     "row 777: coin at index 1 is True of type bool; booleans are not coins"),
    ("stack", [1, 2, "x"], TypeError,
     "stack 777: coin at index 2 is 'x' of type str; coins must be real numbers"),
    ("row", np.array([1.0, 2.0, 3.0, np.nan]), ValueError,
     "row 777: coin at index 3 is nan; coins must be finite"),
    ("stack", [1.5, float("-inf")], ValueError,
     "stack 777: coin at index 1 is -inf; coins must be finite"),
    ("row", np.zeros((2, 2)), ValueError,
     "row 777 must be 1-dimensional, got an array of shape (2, 2)"),
    ("row", np.array([True, False]), TypeError,
     "row 777 has dtype bool; booleans are not coins"),
    ("stack", 5, TypeError,
     "stacks[777] is 5 of type int, not a stack; stacks= takes a sequence of stacks, "
     "e.g. stacks=[[3, 1, 2]]"),
    ("row", "abc", TypeError,
     "row 777 is a str; expected a sequence of numbers or a numeric buffer"),
    ("row", [Decimal(1), 2.5], TypeError,
     "row 777 mixes Decimal with float or Fraction coins; use one kind"),
    ("stack", [10**400], ValueError,
     "stack 777: coin at index 0 is too large for a float; the game has float coins, "
     "so all coins are solved as floats"),
]


@pytest.mark.parametrize("good", ["lists", "arrays"])
@pytest.mark.parametrize("case", BAD_COMPONENTS, ids=lambda c: repr(c)[:40])
def test_a_bad_component_among_many_is_named(case, good):
    side, bad, exception, message = case
    make = (lambda i: [i, 1.5, 2]) if good == "lists" else (lambda i: np.array([i, 1.5, 2]))
    components = [make(i) for i in range(MANY)]
    components[777] = bad
    others = [make(i) for i in range(3)]
    kwargs = {"rows": components, "stacks": others} if side == "row" else {
        "rows": others, "stacks": components}
    with pytest.raises(exception) as info:
        Game(**kwargs)
    assert type(info.value) is exception
    assert str(info.value) == message


def test_the_first_bad_component_is_reported():
    rows = [[1, 2]] * 10 + [[1, None]] + [[2, "x"]]
    with pytest.raises(TypeError, match=r"^row 10: coin at index 1 is None"):
        Game(rows=rows, stacks=[[float("nan")]])
    with pytest.raises(ValueError, match=r"^stack 0: coin at index 0 is nan"):
        Game(rows=[[1.0, 2.0]] * 50, stacks=[[float("nan")]])
    with pytest.raises(TypeError, match=r"^stacks must be a sequence of stacks, got int"):
        Game(rows=[[1]] * 5, stacks=7)
    with pytest.raises(TypeError, match=r"^row 3: coin at index 0 is 'y'"):
        Game(rows=[[1]] * 3 + [["y"]], stacks=7)  # the rows' errors come first


ARROW_ERRORS = [
    (lambda: pa.array([[1, 2], [3], None, [4]]), ValueError,
     "{label}s[2] is null, not a {label}"),
    (lambda: pa.chunked_array([pa.array([[1]]), pa.array([[2], None])]), ValueError,
     "{label}s[2] is null, not a {label}"),
    (lambda: pa.array([[1, 2], [3, None, 5]]), ValueError,
     "{label} 1: coin at index 1 is null; coins must be numbers"),
    (lambda: pa.chunked_array([pa.array([[1]]), pa.array([[], [2, None]])]), ValueError,
     "{label} 2: coin at index 1 is null; coins must be numbers"),
    (lambda: pa.array([[1], None, [None]]).slice(1), ValueError,
     "{label}s[0] is null, not a {label}"),
    (lambda: pa.array([[1.0], [2.0, float("nan")]]), ValueError,
     "{label} 1: coin at index 1 is nan; coins must be finite"),
    (lambda: pa.array([1, 2, 3]), TypeError,
     "{label}s is an Arrow array of int64, not of lists: give an Arrow list array, one list "
     "of coins per {label}"),
    (lambda: pa.array([["a"]]), TypeError,
     "{label} 0: coin at index 0 is 'a' of type str; coins must be real numbers"),
]


@needs_arrow
@pytest.mark.parametrize("arrow, exception, message", ARROW_ERRORS)
def test_bad_arrow_inputs_are_named(arrow, exception, message):
    arrow = arrow()
    for kwargs, label in (({"rows": arrow}, "row"), ({"rows": [[1]], "stacks": arrow}, "stack")):
        with pytest.raises(exception) as info:
            Game(**kwargs)
        assert type(info.value) is exception
        assert str(info.value) == message.format(label=label)


@needs_arrow
def test_a_forest_goes_with_packed_components():
    rng = random.Random(1706)
    for _ in range(scaled(50)):
        rows, stacks = random_game(rng, 12)
        values, parents = random_forest(rng, rng.randint(0, 6), -5, 5)
        packed = Game(rows=[np.array(r, dtype=np.int32) for r in rows],
                      stacks=pa.array(stacks, type=pa.list_(pa.int64())),
                      forest=(np.array(values, dtype=np.int64), parents))
        plain = Game(rows=rows, stacks=stacks, forest=(values, parents))
        assert packed == plain
        assert packed.value() == plain.value() and packed.profits() == plain.profits()
        assert packed.play() == plain.play()


# -- the persistent take ----------------------------------------------------------------------


def _key(move: Move) -> tuple:
    """A move without its position (which counts from the original row's start)."""
    return move.kind, move.index, move.end, move.coin


def test_self_play_through_take_follows_the_line_and_every_move_is_optimal():
    rng = random.Random(1801)
    for _ in range(scaled(300)):
        rows, stacks = random_game(rng, 11)
        game = Game(rows=rows, stacks=stacks)
        line, profits = game.play(), game.profits()
        solve = brute_solver(rows, stacks)
        position, taken = game, []
        while len(position):
            move = position.best_move()
            rebuilt = Game(rows=position.rows, stacks=position.stacks)
            assert _key(rebuilt.best_move()) == _key(move)
            after = position.take(move)
            value = solve(*_bounds_and_tops(position, rows, stacks))
            assert position.value() == value == move.coin - after.value()
            taken.append(move)
            position = after
        assert taken == line
        assert (sum(m.coin for m in taken[0::2]), sum(m.coin for m in taken[1::2])) == profits


def _bounds_and_tops(game: Game, rows: list, stacks: list) -> tuple:
    """The brute solver's position: (start, stop) of each row and the top of each stack."""
    position = where(game)
    starts, stops, bases = position.starts, position.stops, position.coins.bases
    n_rows = len(rows)
    bounds = tuple((starts[c] - bases[c], stops[c] - bases[c]) for c in range(n_rows))
    tops = tuple(starts[c] - bases[c] for c in range(n_rows, n_rows + len(stacks)))
    return bounds, tops


@pytest.mark.parametrize("k", [1, 31, 33, 1100])
def test_self_play_of_many_components(k):
    """Components beyond one leaf (32) and one inner node (32 leaves) of the bounds' tree."""
    rng = random.Random(k)
    stacks = [[rng.randint(-9, 9) for _ in range(rng.randint(0, 3))] for _ in range(k)]
    rows = [[rng.randint(-9, 9) for _ in range(rng.randint(0, 3))] for _ in range(k // 3)]
    game = Game(rows=rows, stacks=stacks)
    line, profits = game.play(), game.profits()
    assert game.value() == paper_value(rows, stacks)
    position, taken = game, []
    check_every = max(1, len(line) // scaled(40))
    while len(position):
        move = position.best_move()
        if len(taken) % check_every == 0:
            rebuilt = Game(rows=position.rows, stacks=position.stacks)
            assert _key(rebuilt.best_move()) == _key(move)
            assert rebuilt.value() == position.value()
        position = position.take(move)
        taken.append(move)
    assert taken == line
    assert (sum(m.coin for m in taken[0::2]), sum(m.coin for m in taken[1::2])) == profits
    assert game.rows == tuple(map(tuple, rows)) and len(game) == len(line)  # unchanged


class _Model:
    """A position as plain lists: the coins left in each row and stack."""

    def __init__(self, rows: list, stacks: list) -> None:
        self.rows = [list(r) for r in rows]
        self.stacks = [list(s) for s in stacks]

    def after(self, move: Move) -> _Model:
        model = _Model(self.rows, self.stacks)
        if move.kind == "row":
            model.rows[move.index].pop(0 if move.end == "left" else -1)
        else:
            model.stacks[move.index].pop(0)
        return model

    def moves(self) -> list[tuple]:
        found = []
        for i, r in enumerate(self.rows):
            if r:
                found.append(("row", i, "left", r[0]))
                if len(r) > 1:
                    found.append(("row", i, "right", r[-1]))
        found += [("stack", i, "top", s[0]) for i, s in enumerate(self.stacks) if s]
        return found


def _assert_same_position(game: Game, model: _Model) -> None:
    rebuilt = Game(rows=model.rows, stacks=model.stacks)
    assert game == rebuilt and hash(game) == hash(rebuilt)
    assert game.rows == rebuilt.rows and game.stacks == rebuilt.stacks
    assert len(game) == len(rebuilt)
    assert [_key(m) for m in game.moves()] == model.moves()
    assert game.value() == rebuilt.value() and game.profits() == rebuilt.profits()
    if len(game):
        assert _key(game.best_move()) == _key(rebuilt.best_move())


components = st.lists(st.integers(-6, 6), max_size=4)


@pytest.mark.slow
@given(st.lists(components, max_size=40), st.lists(components, max_size=40),
       st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 10**6),
                          st.booleans()), max_size=60))
def test_any_sequence_of_moves_from_any_position_equals_the_rebuilt_game(rows, stacks,
                                                                          steps):
    """Moves from any earlier position (a tree of positions, not only a line), some along
    the optimal line (``best_move``) and some not; every position stays what it was."""
    positions = [(Game(rows=rows, stacks=stacks), _Model(rows, stacks))]
    for which, choice, optimal in steps:
        game, model = positions[which % len(positions)]
        if not len(game):
            continue
        legal = game.moves()
        move = game.best_move() if optimal else legal[choice % len(legal)]
        positions.append((game.take(move), model.after(move)))
        _assert_same_position(*positions[-1])
    for game, model in positions:  # persistence: the earlier positions are unchanged
        _assert_same_position(game, model)


@pytest.mark.slow
@given(st.integers(0, 2100), st.integers(0, 2**32))
def test_persistent_bounds_agree_with_a_list_under_any_changes(k, seed):
    rng = random.Random(seed)
    starts = [rng.randint(0, 50) for _ in range(k)]
    stops = [s + rng.randint(0, 60) for s in starts]
    versions = [(Bounds(array("q", starts), array("q", stops)), list(zip(starts, stops)))]
    for _ in range(drawn(60)):
        bounds, model = rng.choice(versions)
        nonempty = [c for c, (a, b) in enumerate(model) if a < b]
        if not nonempty:
            break
        c = rng.choice(nonempty)
        from_start = rng.random() < 0.5
        a, b = model[c]
        changed = list(model)
        changed[c] = (a + 1, b) if from_start else (a, b - 1)
        versions.append((bounds.taken(c, from_start), changed))
    for bounds, model in versions:
        assert len(bounds) == k
        for c in rng.sample(range(k), min(k, 40)):
            assert bounds.get(c) == model[c]
            assert Starts(bounds)[c] == model[c][0] and Stops(bounds)[c] == model[c][1]
        a, b = bounds.arrays()
        assert list(a) == [x for x, _ in model] and list(b) == [y for _, y in model]


def test_take_copies_only_the_path_to_one_leaf():
    game = Game(stacks=[[1, 2]] * 3000)
    after = game.take(game.best_move())
    old, new = game._bounds._tree(), after._bounds._tree()
    changed = [i for i in range(len(old)) if old[i] is not new[i]]
    assert len(changed) == 1  # one child of the root differs; the others are shared
    inner_old, inner_new = old[changed[0]], new[changed[0]]
    assert sum(a is not b for a, b in zip(inner_old, inner_new)) == 1


# -- playouts ---------------------------------------------------------------------------------


def _scanning_greedy(game: Game) -> Move:
    """The largest coin of ``moves()``, the first one on ties (the definition)."""
    best = None
    for move in game.moves():
        if best is None or move.coin > best.coin:
            best = move
    return best


@pytest.mark.slow
def test_greedy_plays_what_its_definition_plays():
    rng = random.Random(1901)
    for _ in range(scaled(drawn(200))):
        rows, stacks = random_game(rng, rng.choice([10, 60]), -3, 3)
        for kind in (int, float, Fraction, Decimal):
            game = Game(rows=[[kind(x) for x in r] for r in rows],
                        stacks=[[kind(x) for x in s] for s in stacks])
            for opponent in ("optimal", "random", "greedy"):
                seed = rng.random()
                fast = simulate(game, "greedy", opponent, seed=seed)
                slow = simulate(game, _scanning_greedy,
                                _scanning_greedy if opponent == "greedy" else opponent,
                                seed=seed)
                assert fast == slow


def test_greedy_with_decimals_beyond_the_default_precision():
    coins = [Decimal("1.00000000000000000000000000000001"), Decimal(1)]
    playout = simulate(Game(stacks=[[coins[1]], [coins[0]]]), "greedy", "greedy")
    assert [m.coin for m in playout.moves] == [coins[0], coins[1]]


def test_random_plays_what_its_definition_plays():
    rng = random.Random(1902)
    for _ in range(scaled(200)):
        rows, stacks = random_game(rng, rng.choice([10, 60]), -3, 3)
        game = Game(rows=rows, stacks=stacks)
        seed = rng.random()
        chooser = random.Random(seed)

        def uniform(position: Game, chooser: random.Random = chooser) -> Move:
            legal = position.moves()
            return legal[chooser.randrange(len(legal))]

        assert simulate(game, "random", "random", seed=seed) == simulate(game, uniform,
                                                                         uniform)


def test_a_user_strategy_sees_the_current_position():
    rng = random.Random(1903)
    for _ in range(scaled(100)):
        rows, stacks = random_game(rng, 30)
        game = Game(rows=rows, stacks=stacks)
        seen: list[Game] = []

        def watcher(position: Game, seen: list[Game] = seen) -> Move:
            seen.append(position)
            return position.moves()[-1]

        for opponent in ("optimal", "greedy", "random"):
            seen.clear()
            playout = simulate(game, opponent, watcher, seed=1)
            replay = game
            for t, move in enumerate(playout.moves):
                if t % 2:
                    assert seen[t // 2] == replay
                replay = replay.take(move)


def test_greedy_against_optimal_on_many_stacks():
    """The optimal player answers every greedy move off the line: it gets at least the
    value of its side."""
    rng = random.Random(1904)
    for k in (50, scaled(600)):
        stacks = [[rng.randint(-50, 50) for _ in range(10)] for _ in range(k)]
        game = Game(stacks=stacks)
        first = simulate(game, "greedy", "optimal")
        assert first.second - first.first >= -game.value()
        second = simulate(game, "optimal", "greedy")
        assert second.first - second.second >= game.value()
        assert len(first.moves) == len(second.moves) == 10 * k
