"""Garbage in, TypeError or ValueError out: a fuzz test of every public callable.

The callables are found, not listed: every callable of ``coinsrow.__all__`` (and of the public
submodules in it), and every public method of an instance of each public class. Each gets
random garbage (mixed types, odd buffers, nested lists, iterators, huge numbers, NaN) in its
main positional argument(s) (``Game`` also in ``rows=`` and ``stacks=``), and may only answer
or raise ``TypeError``/``ValueError``. Anything else (another exception, a crash) fails.

The command line gets random tokens, flags and standard input (random text, random and
deeply nested JSON, numbers of any length): it answers (exit status 0) or refuses in one
line on stderr (exit status 2), never with a traceback or exit status 1.

The suite runs a short campaign (a quarter of the hypothesis profile's examples per
callable); a long one is ``HYPOTHESIS_PROFILE=thorough python -m pytest tests/test_fuzz.py``
or, longer still, ``COINSROW_FUZZ_EXAMPLES=100000``.
"""

from __future__ import annotations

import contextlib
import inspect
import io
import json
import os
import subprocess
import sys
import types
from array import array, typecodes
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import coinsrow
from coinsrow._cli import main as cli_main

ALLOWED = (TypeError, ValueError)
TEXT_CODE = "w" if "w" in typecodes else "u"  # 'u' is deprecated from Python 3.13

# Arguments a callable may accept, tried in order to find a valid one (for its methods).
VALID_MAINS = [[3, 1, 2, 5], [[3, 1, 2, 5]], "game"]


def _valid_main(candidate):
    return coinsrow.Game(rows=[[3, 1, 2, 5]], stacks=[[4, 6]]) if candidate == "game" else candidate


def _public_callables():
    found = {}
    for name in coinsrow.__all__:
        obj = getattr(coinsrow, name)
        if isinstance(obj, types.ModuleType):
            for sub in getattr(obj, "__all__", [n for n in dir(obj) if not n.startswith("_")]):
                member = getattr(obj, sub)
                if callable(member) and not isinstance(member, types.ModuleType):
                    found[f"{name}.{sub}"] = member
        elif isinstance(obj, type) and issubclass(obj, tuple):
            continue  # NamedTuples (Move, Profits) take anything
        elif callable(obj):
            found[name] = obj
    return found


CALLABLES = _public_callables()
CLASSES = {name: obj for name, obj in CALLABLES.items() if inspect.isclass(obj)}


def _required_positionals(function) -> int:
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return 1
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    required = [p for p in signature.parameters.values()
                if p.kind in kinds and p.default is inspect.Parameter.empty]
    return max(1, len(required))


def _instance(cls):
    """An instance of a public class built from a valid argument, or None."""
    for candidate in VALID_MAINS:
        try:
            return cls(_valid_main(candidate))
        except ALLOWED:
            continue
    return None


def _public_methods():
    methods = {}
    for name, cls in CLASSES.items():
        if issubclass(cls, tuple):  # NamedTuples: no methods of their own to fuzz
            continue
        if _instance(cls) is None:
            continue
        for attr, member in inspect.getmembers(cls):
            if attr.startswith("_") or not callable(member) or isinstance(member, type):
                continue
            if isinstance(inspect.getattr_static(cls, attr), (staticmethod, classmethod)):
                continue
            if _required_positionals(member) - 1 >= 1:  # takes arguments beyond self
                methods[f"{name}.{attr}"] = (cls, attr, _required_positionals(member) - 1)
    return methods


METHODS = _public_methods()


# -- garbage ----------------------------------------------------------------------------------


class Opaque:
    pass


class Floaty:
    """Has __float__ and __index__ but is no registered number."""

    def __float__(self):
        return 1.0

    def __index__(self):
        return 1


class LyingLength:
    """Says it has 3 items, yields 1."""

    def __len__(self):
        return 3

    def __iter__(self):
        return iter([1])

    def __getitem__(self, i):
        raise IndexError(i)


class NotIterable:
    def __len__(self):
        return 2


SCALARS = st.one_of(
    st.integers(-10, 10),
    st.integers(),
    st.sampled_from([2**63 - 1, -(2**63), 2**63, 2**64 - 1, 2**64, -(2**64), 10**300]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([5e-324, 1.7e308, -1.7e308, 0.0, -0.0]),
    st.text(max_size=4),
    st.binary(max_size=4),
    st.none(),
    st.booleans(),
    st.complex_numbers(allow_nan=True, allow_infinity=True),
    st.fractions(),
    st.decimals(allow_nan=True, allow_infinity=True),
    st.sampled_from([Decimal("1e-40"), Decimal("-0"), Decimal("sNaN"), Fraction(10**40, 3)]),
    st.sampled_from([np.float64("nan"), np.int64(3), np.bool_(True), np.float32(1.5),
                     np.uint64(2**64 - 1), np.int8(-128), np.float16("inf"),
                     np.longdouble(2.5), np.complex64(1j), np.datetime64("2020-01-01"),
                     np.str_("a")]),
    st.builds(Opaque), st.builds(Floaty), st.builds(LyingLength), st.builds(NotIterable),
    st.sampled_from([Ellipsis, NotImplemented, int, float, print, type, slice(1, 2),
                     range(3), range(10**20)]),
    st.sampled_from([coinsrow.Move("row", 0, "left", 0, 3),
                     coinsrow.Move("stack", 0, "top", 0, 4),
                     coinsrow.Move("row", 0, "right", 3, 5),
                     ("row", 0, "left", 0), "left", "right", "top"]),
)

DTYPES = st.one_of(
    hnp.integer_dtypes(endianness="?"), hnp.unsigned_integer_dtypes(endianness="?"),
    hnp.floating_dtypes(endianness="?"), hnp.boolean_dtypes(),
    hnp.complex_number_dtypes(endianness="?"), hnp.byte_string_dtypes(max_len=3),
    hnp.unicode_string_dtypes(max_len=3), hnp.datetime64_dtypes(),
    hnp.timedelta64_dtypes(),
)


@st.composite
def numpy_arrays(draw):
    arr = draw(hnp.arrays(DTYPES, hnp.array_shapes(min_dims=0, max_dims=3, min_side=0,
                                                     max_side=6)))
    layout = draw(st.sampled_from(["plain", "strided", "reversed", "readonly", "fortran"]))
    if layout == "strided" and arr.ndim:
        arr = arr[::2]
    elif layout == "reversed" and arr.ndim:
        arr = arr[::-1]
    elif layout == "readonly":
        arr.flags.writeable = False
    elif layout == "fortran":
        arr = np.asfortranarray(arr)
    return arr


@st.composite
def object_arrays(draw):
    items = draw(st.lists(SCALARS, max_size=6))
    arr = np.empty(len(items), dtype=object)
    for i, item in enumerate(items):
        arr[i] = item
    return arr


@st.composite
def array_arrays(draw):
    code = draw(st.sampled_from("bBhHiIlLqQfdu"))
    if code == "u":
        return array(TEXT_CODE, draw(st.text(max_size=5)))
    if code in "fd":
        return array(code, draw(st.lists(st.floats(allow_nan=True, width=32), max_size=8)))
    return array(code, draw(st.lists(st.integers(0, 127), max_size=8)))


@st.composite
def memoryviews(draw):
    base = draw(array_arrays() | numpy_arrays())
    try:
        view = memoryview(base)
    except (TypeError, ValueError):
        return base
    how = draw(st.sampled_from(["plain", "bytes", "chars", "bools", "strided", "2d"]))
    try:
        if how == "bytes":
            return view.cast("B") if view.c_contiguous else view
        if how == "chars":
            return view.cast("B").cast("c") if view.c_contiguous else view
        if how == "bools":
            return view.cast("B").cast("?") if view.c_contiguous else view
        if how == "strided" and view.ndim == 1:
            return view[::2]
        if how == "2d" and view.c_contiguous and view.nbytes % 2 == 0 and view.nbytes:
            return view.cast("B").cast("B", (2, view.nbytes // 2))
    except (TypeError, ValueError):
        pass
    return view


LEAVES = st.one_of(SCALARS, numpy_arrays(), object_arrays(), array_arrays(), memoryviews(),
                   st.builds(bytearray, st.binary(max_size=4)))


def _containers(children):
    return st.one_of(
        st.lists(children, max_size=6),
        st.lists(children, max_size=6).map(tuple),
        st.lists(children, max_size=6).map(iter),
        st.lists(children, max_size=6).map(lambda xs: (x for x in xs)),
        st.dictionaries(st.integers(-3, 3), children, max_size=3),
        st.frozensets(st.integers(-5, 5) | st.floats(allow_nan=True), max_size=4),
    )


GARBAGE = st.recursive(LEAVES, _containers, max_leaves=12)
# Rows of mostly numbers with an occasional bad coin: errors deep inside long valid prefixes.
NEAR_MISSES = st.lists(st.integers(-5, 5), max_size=8).flatmap(
    lambda good: st.tuples(st.just(good), SCALARS, st.integers(0, len(good))).map(
        lambda t: t[0][: t[2]] + [t[1]] + t[0][t[2]:]))
ARGUMENT = GARBAGE | NEAR_MISSES | st.lists(NEAR_MISSES, max_size=3)

# A quarter of the profile's examples per callable keeps the file fast as the API grows;
# COINSROW_FUZZ_EXAMPLES=100000 runs a long campaign.
EXAMPLES = int(os.environ.get("COINSROW_FUZZ_EXAMPLES",
                              max(25, settings.default.max_examples // 4)))
FUZZ = settings(max_examples=EXAMPLES,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.filter_too_much])


def _call(function, *args, **kwargs):
    try:
        function(*args, **kwargs)
    except ALLOWED:
        pass


# -- the tests --------------------------------------------------------------------------------


def test_the_fuzz_covers_the_api():
    for name in ("value", "profits", "best_move", "play", "Game", "silver_dollar.winner"):
        assert name in CALLABLES
    assert "Game.take" in METHODS


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(CALLABLES))
@FUZZ
@given(data=st.data())
def test_public_callables_reject_garbage_cleanly(name, data):
    function = CALLABLES[name]
    count = _required_positionals(function)
    args = [data.draw(ARGUMENT) for _ in range(count)]
    _call(function, *args)


@FUZZ
@given(rows=ARGUMENT, stacks=ARGUMENT)
def test_game_keywords_reject_garbage_cleanly(rows, stacks):
    _call(coinsrow.Game, rows=rows)
    _call(coinsrow.Game, stacks=stacks)
    _call(coinsrow.Game, rows=[[1, 2]], stacks=stacks)


@pytest.mark.parametrize("name", sorted(METHODS))
@FUZZ
@given(data=st.data())
def test_public_methods_reject_garbage_cleanly(name, data):
    cls, attr, count = METHODS[name]
    instance = _instance(cls)
    args = [data.draw(ARGUMENT | SCALARS) for _ in range(count)]
    _call(getattr(instance, attr), *args)


@FUZZ
@given(rows=st.lists(st.lists(SCALARS | st.integers(-9, 9), max_size=4), max_size=3),
       stacks=st.lists(st.lists(st.integers(-9, 9), max_size=4), max_size=2))
def test_games_of_any_coins_are_solved_or_rejected(rows, stacks):
    """When a game is accepted, everything about it works."""
    try:
        g = coinsrow.Game(rows=rows, stacks=stacks)
    except ALLOWED:
        return
    g.value()
    g.profits()
    moves = g.play()
    assert len(moves) == len(g)
    for m in moves:
        assert m in g.moves()
        g = g.take(m)
    assert len(g) == 0


# -- the command line -----------------------------------------------------------------------
# Random tokens, flags and standard input (random text, random and deeply nested JSON): the
# command answers (exit 0) or refuses in one line on stderr (exit 2); never a traceback,
# never exit 1. Most cases run main() in this process (fast); a few run the real command.

ROOT = Path(__file__).resolve().parent.parent

NUMBER_TOKENS = st.one_of(
    st.integers(-10**6, 10**6).map(str),
    st.integers().map(str),
    st.fractions().map(str),
    st.decimals(allow_nan=False, allow_infinity=False).map(str),
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
    st.sampled_from(["1e999999999", "1e-999999999", "-1e99999", "1/0", "0/0", "-0", "+5",
                     "1_000", "0x10", "1e", ".", "-.5", "5.", "1/2/3", "٣", "\uff11", "inf",
                     "nan", "-inf", "1e400", "-", "--", "-3/2", " 7 ", "9" * 5000,
                     "1" + "0" * 100_001, "1/" + "7" * 100_001, "\ufeff3"]),
)
FLAGS = st.sampled_from(["--json", "-q", "--quiet", "--all", "--float", "--svg", "-f",
                         "--file", "--row", "--stack", "--strategy", "--vs", "--seed", "-",
                         "demo", "silver", "--version", "-h", "--help", "--unknown", "-x",
                         "", " ", "play", "optimal", "greedy", "random", "parity",
                         "lookahead", "nobody", "/dev/null", "/nonexistent/dir/x.svg"])
TOKENS = NUMBER_TOKENS | FLAGS | st.text(max_size=6)


def _deep(depth: int, opening: str, closing: str, middle: str = "1") -> str:
    return opening * depth + middle + closing * depth


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True)
    | st.text(max_size=5) | st.sampled_from(["1/2", "0.1", "1e999999999", "x"]),
    lambda children: st.lists(children, max_size=5)
    | st.dictionaries(st.sampled_from(["rows", "stacks", "forest", "values", "parents", "x"]),
                      children, max_size=4),
    max_leaves=20,
)
STDIN = st.one_of(
    JSON_VALUES.map(lambda value: json.dumps(value)),
    st.builds(lambda rows, stacks: json.dumps({"rows": rows, "stacks": stacks}),
              st.lists(st.lists(st.integers(-9, 9) | st.text(max_size=3), max_size=5),
                       max_size=3),
              st.lists(st.lists(st.integers(-9, 9), max_size=4), max_size=2)),
    st.builds(_deep, st.integers(1, 20_000), st.sampled_from(["[", "{\"rows\": ["]),
              st.sampled_from(["]"]), st.sampled_from(["1", "", "[1]"])),
    st.builds(_deep, st.integers(1, 20_000), st.just('{"a": '), st.just("}")),
    st.lists(NUMBER_TOKENS, max_size=8).map(" ".join),
    st.text(max_size=30),
    st.binary(max_size=30).map(lambda b: b.decode("latin-1")),
    st.lists(NUMBER_TOKENS, max_size=6).map(lambda tokens: "\ufeff" + ",".join(tokens)),
)


@pytest.fixture(scope="module")
def scratch(tmp_path_factory):
    """A directory to run the command in: a random "--svg NAME" writes a file there."""
    return tmp_path_factory.mktemp("cli")


def _run_cli(argv: list[str], stdin_text: str, directory: Path) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    stdin = io.TextIOWrapper(io.BytesIO(stdin_text.encode("utf-8", "surrogatepass")),
                             encoding="utf-8")
    previous = sys.stdin
    sys.stdin = stdin
    try:
        with _working_directory(directory), contextlib.redirect_stdout(out), \
                contextlib.redirect_stderr(err):
            status = cli_main(argv)
    finally:
        sys.stdin = previous
    return status, out.getvalue(), err.getvalue()


@contextlib.contextmanager
def _working_directory(directory: Path):
    """``contextlib.chdir`` (Python 3.11+)."""
    previous = os.getcwd()
    os.chdir(directory)
    try:
        yield
    finally:
        os.chdir(previous)


def _check_outcome(status, err: str) -> None:
    assert status in (0, 2), (status, err)
    assert "Traceback" not in err, err
    if status == 2:
        lines = err.splitlines()
        assert len(lines) == 1 and lines[0].startswith("coinsrow: error: "), err


@FUZZ
@given(argv=st.lists(TOKENS, max_size=8), stdin=STDIN)
def test_command_line_answers_or_refuses_in_one_line(argv, stdin, scratch):
    status, _, err = _run_cli(argv, stdin, scratch)
    _check_outcome(status, err)


@FUZZ
@given(stdin=STDIN, flags=st.lists(st.sampled_from(["--json", "-q", "--float", "--all"]),
                                   max_size=3, unique=True))
def test_command_line_reads_any_standard_input(stdin, flags, scratch):
    status, _, err = _run_cli(["-", *flags], stdin, scratch)
    _check_outcome(status, err)


@pytest.mark.slow
@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(argv=st.lists(TOKENS.filter(lambda t: "\x00" not in t), max_size=6), stdin=STDIN)
def test_the_real_command_never_shows_a_traceback(argv, stdin, scratch):
    environment = dict(os.environ)
    environment["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT),
                                                              environment.get("PYTHONPATH")]))
    result = subprocess.run([sys.executable, "-m", "coinsrow", *argv], cwd=scratch,
                            env=environment, input=stdin.encode("utf-8", "surrogatepass"),
                            capture_output=True, timeout=120)
    _check_outcome(result.returncode, result.stderr.decode("utf-8", "replace"))
