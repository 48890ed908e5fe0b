"""Tests for coinsrow.silver_dollar.

The reference oracle is an exhaustive memoised minimax over the actual game
rules (it lives only here, never in the package).
"""

from __future__ import annotations

import doctest
import itertools
from decimal import Decimal
from fractions import Fraction
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coinsrow import silver_dollar
from coinsrow.silver_dollar import winner, winning_move

MAX_CELL = 12
MAX_COINS = 5


# --------------------------------------------------------------------------
# Brute-force oracle (game rules only, no theory)
# --------------------------------------------------------------------------


def _moves(coins: tuple[int, ...]) -> list[tuple[int, int]]:
    """All legal moves of a sorted position, ordered by coin then target."""
    moves = []
    previous = 0
    for cell in coins:
        for target in range(previous + 1, cell):
            moves.append((cell, target))
        previous = cell
    return moves


def _apply(coins: tuple[int, ...], move: tuple[int, int]) -> tuple[int, ...]:
    source, target = move
    return tuple(sorted(target if c == source else c for c in coins))


@cache
def _brute_wins(coins: tuple[int, ...]) -> bool:
    """True iff the player to move wins from the sorted position ``coins``."""
    return any(not _brute_wins(_apply(coins, m)) for m in _moves(coins))


def _brute_preferred_move(coins: tuple[int, ...]) -> tuple[int, int] | None:
    """Leftmost coin, then leftmost target, among moves to losing positions."""
    for move in _moves(coins):  # already in preference order
        if not _brute_wins(_apply(coins, move)):
            return move
    return None


ALL_POSITIONS = [
    combo
    for k in range(MAX_COINS + 1)
    for combo in itertools.combinations(range(1, MAX_CELL + 1), k)
]


def _is_legal(coins: list[int], move: tuple[int, int]) -> bool:
    source, target = move
    coins = sorted(coins)
    if source not in coins:
        return False
    i = coins.index(source)
    previous = coins[i - 1] if i else 0
    return previous < target < source


# --------------------------------------------------------------------------
# Contest samples and doctests
# --------------------------------------------------------------------------


def test_contest_samples() -> None:
    assert winner([2, 3]) == "second"
    assert winning_move([2, 3]) is None
    assert winner([1, 3, 5]) == "first"
    assert winning_move([1, 3, 5]) == (5, 4)
    assert winner([2, 4, 6, 9]) == "first"
    assert winning_move([2, 4, 6, 9]) == (2, 1)


def test_empty_position() -> None:
    assert winner([]) == "second"
    assert winning_move([]) is None
    assert winner(iter(())) == "second"


def test_doctests() -> None:
    result = doctest.testmod(silver_dollar, verbose=False)
    assert result.attempted > 0
    assert result.failed == 0


def test_public_api() -> None:
    assert sorted(silver_dollar.__all__) == ["winner", "winning_move"]


# --------------------------------------------------------------------------
# Exhaustive comparison with the minimax oracle
# --------------------------------------------------------------------------


def test_exhaustive_against_minimax() -> None:
    assert len(ALL_POSITIONS) == sum(
        len(list(itertools.combinations(range(MAX_CELL), k)))
        for k in range(MAX_COINS + 1)
    )
    mismatches = []
    for coins in ALL_POSITIONS:
        expected_winner = "first" if _brute_wins(coins) else "second"
        expected_move = _brute_preferred_move(coins)
        got = (winner(coins), winning_move(coins))
        if got != (expected_winner, expected_move):
            mismatches.append((coins, got, (expected_winner, expected_move)))
    assert not mismatches, mismatches[:10]


def test_exhaustive_covers_both_outcomes() -> None:
    outcomes = {_brute_wins(coins) for coins in ALL_POSITIONS}
    assert outcomes == {True, False}


@pytest.mark.parametrize("coins", [(1,), (1, 2), (1, 2, 3), (1, 2, 3, 4, 5)])
def test_packed_against_wall_is_lost(coins: tuple[int, ...]) -> None:
    # No coin can move at all.
    assert winner(coins) == "second"
    assert winning_move(coins) is None


# --------------------------------------------------------------------------
# Input handling
# --------------------------------------------------------------------------


@given(st.sets(st.integers(1, 40), max_size=8), st.randoms())
def test_order_independence(cells: set[int], rnd) -> None:
    ordered = sorted(cells)
    shuffled = list(ordered)
    rnd.shuffle(shuffled)
    assert winner(shuffled) == winner(ordered)
    assert winning_move(shuffled) == winning_move(ordered)
    assert winning_move(reversed(ordered)) == winning_move(ordered)
    assert winning_move(tuple(shuffled)) == winning_move(ordered)
    assert winning_move(iter(shuffled)) == winning_move(ordered)
    assert winning_move(set(shuffled)) == winning_move(ordered)


def test_accepts_various_iterables() -> None:
    assert winning_move(x for x in [9, 6, 4, 2]) == (2, 1)
    assert winning_move({2: "a", 4: "b", 6: "c", 9: "d"}) == (2, 1)
    assert winning_move(range(2, 3)) == (2, 1)


def test_returns_plain_ints() -> None:
    move = winning_move([1, 3, 5])
    assert move is not None
    assert all(type(v) is int for v in move)


def test_numpy_integer_scalars() -> None:
    np = pytest.importorskip("numpy")
    coins = [np.int64(2), np.int32(4), np.uint8(6), np.int16(9)]
    assert winner(coins) == "first"
    move = winning_move(coins)
    assert move == (2, 1)
    assert all(type(v) is int for v in move)
    assert winning_move(np.array([1, 3, 5])) == (5, 4)
    with pytest.raises(TypeError, match=r"index 0"):
        winner([np.float64(1.0)])


BAD_TYPES = [
    ([1.0], 0, "float"),
    ([1, 2, 3.5], 2, "float"),
    ([1, "2"], 1, "str"),
    ([None], 0, "NoneType"),
    ([3, True], 1, "bool"),
    ([False], 0, "bool"),
    ([1, Fraction(5, 1)], 1, "Fraction"),
    ([Decimal(4)], 0, "Decimal"),
    ([2, 1 + 0j], 1, "complex"),
    ([5, 7, [1]], 2, "list"),
]


@pytest.mark.parametrize("func", [winner, winning_move])
@pytest.mark.parametrize(("positions", "index", "type_name"), BAD_TYPES)
def test_non_integer_elements(func, positions, index, type_name) -> None:
    with pytest.raises(TypeError, match=rf"index {index}\b.*\b{type_name}\b"):
        func(positions)


@pytest.mark.parametrize("func", [winner, winning_move])
@pytest.mark.parametrize("positions", [5, None, 3.0, object()])
def test_non_iterable(func, positions) -> None:
    with pytest.raises(TypeError, match=r"iterable"):
        func(positions)


@pytest.mark.parametrize("func", [winner, winning_move])
@pytest.mark.parametrize("positions", ["123", b"\x01\x03", bytearray(b"\x02")])
def test_string_like_containers_rejected(func, positions) -> None:
    with pytest.raises(TypeError, match=r"iterable of integers"):
        func(positions)


@pytest.mark.parametrize("func", [winner, winning_move])
@pytest.mark.parametrize(
    ("positions", "pattern"),
    [
        ([0], r"index 0\b.*\b0\b"),
        ([1, 2, 0], r"index 2\b.*\b0\b"),
        ([4, -7, 9], r"index 1\b.*-7\b"),
        ([-(10**40)], r"index 0\b.*-" + str(10**40)),
    ],
)
def test_positions_below_one(func, positions, pattern) -> None:
    with pytest.raises(ValueError, match=pattern):
        func(positions)


@pytest.mark.parametrize("func", [winner, winning_move])
@pytest.mark.parametrize(
    ("positions", "pattern"),
    [
        ([3, 1, 3], r"duplicate position 3 at index 2\b.*index 0\b"),
        ([5, 5], r"duplicate position 5 at index 1\b"),
        ([1, 2, 10**30, 7, 10**30], r"position 10{30} at index 4\b"),
    ],
)
def test_duplicates(func, positions, pattern) -> None:
    with pytest.raises(ValueError, match=pattern):
        func(positions)


# --------------------------------------------------------------------------
# Huge positions
# --------------------------------------------------------------------------

HUGE = 10**30


def test_huge_hand_solved_positions() -> None:
    # Two adjacent coins anywhere: the second player re-closes the pair.
    for k in (HUGE, 10**100, 2**200 + 12345):
        assert winner([k, k + 1]) == "second"
        assert winning_move([k + 1, k]) is None
        # Several adjacent pairs (pairing strategy) are still lost.
        pairs = [k, k + 1, 3 * k, 3 * k + 1, 7 * k + 5, 7 * k + 6]
        assert winner(pairs) == "second"
        assert winning_move(pairs) is None
        # A single coin: jump straight to cell 1 and the opponent is stuck.
        assert winning_move([k]) == (k, 1)
        # Two separated coins: the left one can never help (moving it only
        # widens the right gap), so close the gap with the right one.
        assert winning_move([1, k]) == (k, 2)
        assert winning_move([k, 5 * k]) == (5 * k, k + 1)


@st.composite
def _big_positions(draw) -> list[int]:
    gaps = draw(
        st.lists(
            st.one_of(
                st.integers(0, 5),
                st.integers(0, 10**40),
                st.integers(0, 2**130).map(lambda g: g * HUGE),
            ),
            max_size=12,
        )
    )
    cells, cell = [], 0
    for gap in gaps:
        cell += gap + 1
        cells.append(cell)
    return cells


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(_big_positions(), st.randoms())
def test_huge_positions_move_is_valid_and_winning(cells, rnd) -> None:
    rnd.shuffle(cells)
    result = winner(cells)
    move = winning_move(cells)
    assert (move is None) == (result == "second")
    if move is not None:
        assert _is_legal(cells, move)
        after = [move[1] if c == move[0] else c for c in cells]
        assert winner(after) == "second"
        assert winning_move(after) is None
        # Every reply from the losing position must hand back a win
        # (spot-check the extreme replies of every coin).
        coins = sorted(after)
        previous = 0
        for c in coins:
            for target in {previous + 1, c - 1}:
                if previous < target < c:
                    reply = [target if x == c else x for x in coins]
                    assert winner(reply) == "first"
            previous = c


@settings(max_examples=300, deadline=None)
@given(st.sets(st.integers(1, 60), max_size=9))
def test_preferred_move_on_medium_positions(cells) -> None:
    # Beyond the exhaustive range: enumerate every legal move in preference
    # order and use winner() (validated exhaustively above) as the oracle.
    coins = tuple(sorted(cells))
    expected = None
    for move in _moves(coins):
        if winner(_apply(coins, move)) == "second":
            expected = move
            break
    assert winning_move(cells) == expected
    assert (expected is None) == (winner(cells) == "second")
