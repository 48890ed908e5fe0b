"""Intervals.value / .values against the DP table, on every row family.

The structure (docs/subrows.md) merges the two sides of a sub-row in chunks, reading the
chunks of heavily interleaved pairs of heavy paths from tables. On small rows the automatic
parameters make no table, so the kernels are also built with ``spacing`` and ``min_side``
forced small (tables for nearly every pair, a checkpoint every 1, 2 or 4 merged entries):
every path of the query code then runs on every sub-row.
"""

from __future__ import annotations

import os
import random
import signal
import struct
import subprocess
import sys
import textwrap
import time
from array import array
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coinsrow import Intervals, _core, value

from generators import SMALL_STYLES, random_row
from modes import drawn, scaled
from oracles import dp_table

# The forced (spacing, min_side) of the kernels in these tests; (0, 0) is automatic.
PARAMETERS = ((1, 1), (2, 1), (4, 2), (0, 0))


def family_row(rng: random.Random, name: str, n: int) -> list[int]:
    """A row of one family, shifted at random so that negatives and zeros occur."""
    m = n // 2
    shift = rng.choice([0, 0, -rng.randint(0, 40)])
    if name == "valley":  # a V with noise
        row = [abs(k - m) * 3 + rng.randint(-4, 4) for k in range(n)]
    elif name == "vplateau":  # a V of plateaus (many ties)
        w = rng.randint(1, 4)
        row = [abs(k - m) // w for k in range(n)]
    elif name == "nestedv":  # a V whose arms are small Vs
        p = rng.randint(3, 7)
        row = [abs(k - m) * 10 + abs(k % p - p // 2) * 3 for k in range(n)]
    elif name == "peak":
        row = [100 - abs(k - m) * 3 + rng.randint(0, 2) for k in range(n)]
    elif name == "ascending":
        row = sorted(rng.randint(-20, 20) for _ in range(n))
    elif name == "descending":
        row = sorted((rng.randint(-20, 20) for _ in range(n)), reverse=True)
    elif name == "alternating":
        row = [(100 if k % 2 else 0) + rng.randint(0, 10) for k in range(n)]
    elif name == "random":
        row = [rng.randint(-100, 100) for _ in range(n)]
    elif name == "sawtooth":
        p = rng.randint(2, 6)
        row = [(k % p) * 5 + rng.randint(0, 1) for k in range(n)]
    elif name == "triangle":  # many long arms: many pairs of heavy paths interleave
        p = rng.randint(2, 6)
        row = [abs(k % (2 * p) - p) * 4 + rng.randint(0, 2) for k in range(n)]
    elif name == "ties":
        row = [rng.randint(-2, 2) for _ in range(n)]
    else:
        raise ValueError(name)
    return [x + shift for x in row]


FAMILIES = ("valley", "vplateau", "nestedv", "peak", "ascending", "descending", "alternating",
            "random", "sawtooth", "triangle", "ties")


def kernels(row: list, spacing: int, min_side: int) -> list:
    """The machine kernels on int64 and float64 buffers and their twins, on one row."""
    return [_core.SubRows(array("q", row), spacing, min_side),
            _core.SubRowsExact(list(row), spacing, min_side),
            _core.SubRows(array("d", row), spacing, min_side),
            _core.SubRowsExact([float(x) for x in row], spacing, min_side)]


def _check_every_sub_row(iv: Intervals, row: list, d: list[list]) -> None:
    """Every ``iv.value(i, j)`` of ``row`` is the DP's ``d[i][j]``."""
    n = len(row)
    for i in range(n + 1):
        for j in range(i, n + 1):
            assert iv.value(i, j) == d[i][j], (row, i, j)


def test_every_sub_row_of_small_rows_of_every_family():
    rng = random.Random(36)
    tables = 0
    for index in range(scaled(440)):
        name = FAMILIES[index % len(FAMILIES)]
        row = family_row(rng, name, rng.randint(0, 22))
        n = len(row)
        d = dp_table(row)
        _check_every_sub_row(Intervals(row), row, d)
        spacing, min_side = PARAMETERS[index % len(PARAMETERS)]
        for kernel in kernels(row, spacing, min_side):
            tables += kernel.table_pairs
            for i in range(n + 1):
                for j in range(i, n + 1):
                    assert kernel.value(i, j) == (0, d[i][j]), (name, row, spacing, i, j)
    assert tables > 100  # the table code ran


@given(st.lists(st.integers(-6, 6), max_size=16), st.sampled_from(PARAMETERS))
@settings(max_examples=scaled(200))
def test_hypothesis_every_sub_row(row, parameters):
    d = dp_table(row)
    n = len(row)
    for kernel in kernels(row, *parameters):
        got = [kernel.value(i, j)[1] for i in range(n + 1) for j in range(i, n + 1)]
        assert got == [d[i][j] for i in range(n + 1) for j in range(i, n + 1)], row


def test_machine_and_twin_agree_bit_for_bit_on_floats():
    rng = random.Random(37)
    for index in range(scaled(300)):
        n = rng.randint(0, 30)
        style = index % 3
        if style == 0:
            row = [rng.uniform(-1, 1) for _ in range(n)]
        elif style == 1:
            row = [abs(k - n // 2) * 0.1 + rng.uniform(0, 0.05) for k in range(n)]
        else:
            row = [rng.choice([0.1, 0.2, -0.3, 0.0, -0.0, 1e-300]) for _ in range(n)]
        spacing, min_side = PARAMETERS[index % len(PARAMETERS)]
        machine = _core.SubRows(array("d", row), spacing, min_side)
        twin = _core.SubRowsExact(list(row), spacing, min_side)
        assert (machine.table_pairs, machine.checkpoints, machine.spacing) == (
            twin.table_pairs, twin.checkpoints, twin.spacing)
        for i in range(n + 1):
            for j in range(i, n + 1):
                a, b = machine.value(i, j)[1], twin.value(i, j)[1]
                if not row:  # no coin to tell the twin that its numbers are floats
                    b = float(b)
                assert type(b) is float and struct.pack("<d", a) == struct.pack("<d", b), (
                    row, i, j, a, b)


@pytest.mark.slow
def test_long_rows_of_every_family_against_the_row_solver():
    """Rows long enough for the automatic parameters to make tables (V-shaped families),
    random queries checked against ``value`` of the slice (an independent O(n) solver)."""
    rng = random.Random(38)
    tables = 0
    for name in FAMILIES:
        for n in (scaled(3000), scaled(20000)):
            row = family_row(rng, name, n)
            iv = Intervals(row)
            tables += iv._structure.kernel.table_pairs
            starts = [rng.randint(0, n) for _ in range(scaled(150))]
            stops = [rng.randint(s, n) for s in starts]
            starts += [rng.randint(0, n // 50) for _ in range(20)]
            stops += [n - rng.randint(0, n // 50) for _ in range(20)]
            got = iv.values(starts, stops)
            assert list(got) == [value(row[s:e]) for s, e in zip(starts, stops)], name
    assert tables > 0


def test_every_sub_row_of_small_rows():
    rng = random.Random(30)
    for _ in range(drawn(600)):
        row = random_row(rng, rng.randint(0, 18), SMALL_STYLES)
        _check_every_sub_row(Intervals(row), row, dp_table(row))


def test_random_queries_on_long_rows():
    rng = random.Random(31)
    for _ in range(12):
        row = random_row(rng, rng.randint(150, 300), SMALL_STYLES)
        n = len(row)
        d = dp_table(row)
        iv = Intervals(row)
        starts = [rng.randint(0, n) for _ in range(400)]
        stops = [rng.randint(s, n) for s in starts]
        got = iv.values(starts, stops)
        assert isinstance(got, array) and got.typecode == "q"
        assert list(got) == [d[s][e] for s, e in zip(starts, stops)]
        assert [iv.value(s, e) for s, e in zip(starts, stops)] == list(got)


def test_v_shaped_rows():
    rng = random.Random(32)
    for n in (50, 101, 200):
        row = [abs(k - n // 2) * 2 + rng.randint(0, 1) for k in range(n)]
        d = dp_table(row)
        iv = Intervals(row)
        for i in range(0, n + 1, 3):
            for j in range(i, n + 1, 2):
                assert iv.value(i, j) == d[i][j]


@given(st.lists(st.integers(-5, 5), max_size=20), st.integers(-25, 25), st.integers(-25, 25))
def test_slice_convention(row, start, stop):
    iv = Intervals(row)
    assert iv.value(start, stop) == value(row[start:stop])
    assert iv.values([start], [stop])[0] == value(row[start:stop])


def test_slice_bounds_none_and_types():
    row = [3, 2, 2, 3, 1, 2]
    iv = Intervals(row)
    assert iv.value() == value(row) and len(iv) == 6
    assert iv.value(None, 3) == value(row[:3]) and iv.value(-3) == value(row[-3:])
    assert iv.value(np.int64(1), np.int32(4)) == value(row[1:4])
    assert list(iv.values(np.array([0, 1]), array("q", [6, 4]))) == [value(row), value(row[1:4])]
    assert list(iv.values([5, 2**80], [2, -2**80])) == [0, 0]
    with pytest.raises(TypeError):
        iv.value(1.5, 3)
    with pytest.raises(TypeError):
        iv.values([1.5], [3])
    with pytest.raises(ValueError, match="starts has 2 entries but stops has 1"):
        iv.values([1, 2], [3])


def test_exact_and_float_rows():
    rng = random.Random(33)
    for _ in range(drawn(60)):
        ints = random_row(rng, rng.randint(1, 25), SMALL_STYLES)
        n = len(ints)
        for row, kind in (
            ([x * 2**70 + 3 for x in ints], int),
            ([Fraction(x, 7) for x in ints], Fraction),
            ([Decimal(x) / 4 for x in ints], Decimal),
            ([x / 4 for x in ints], float),
            ([(2**62 - 1) * (1 if k % 2 else -1) for k in range(n)], int),
        ):
            d = dp_table(row)
            iv = Intervals(row)
            starts = [rng.randint(0, n) for _ in range(30)]
            stops = [rng.randint(s, n) for s in starts]
            got = iv.values(starts, stops)
            assert list(got) == [d[s][e] for s, e in zip(starts, stops)]
            for s, e in zip(starts, stops):
                v = iv.value(s, e)
                assert v == d[s][e] and type(v) is kind


def test_intervals_bad_input():
    with pytest.raises(ValueError, match="index 1"):
        Intervals([1.0, float("inf")])
    with pytest.raises(TypeError):
        Intervals([1, "a"])
    assert Intervals([]).value(0, 0) == 0


def test_exact_structure_on_every_sub_row():
    from coinsrow import _core

    rng = random.Random(34)
    for _ in range(150):
        ints = random_row(rng, rng.randint(1, 16), SMALL_STYLES)
        if rng.random() < 0.5:
            row = [Fraction(x, 3) for x in ints]
        else:
            row = [(x + 2000) * 2**64 + x for x in ints]
        iv = Intervals(row)
        assert isinstance(iv._structure.kernel, _core.SubRowsExact)
        _check_every_sub_row(iv, row, dp_table(row))


def test_huge_floats():
    rng = random.Random(35)
    for _ in range(100):
        row = [rng.choice([-3, -1, 0, 1, 2, 5]) * 1e305 for _ in range(rng.randint(1, 12))]
        d = dp_table([Fraction(x) for x in row])
        iv = Intervals(row)
        n = len(row)
        got = iv.values([0] * (n + 1), list(range(n + 1)))
        assert isinstance(got, array) and got.typecode == "d"
        assert list(got) == [float(d[0][j]) for j in range(n + 1)]
        for i in range(n + 1):
            for j in range(i, n + 1):
                v = iv.value(i, j)
                assert type(v) is float and v == float(d[i][j])


_CHILD = textwrap.dedent("""
    import sys
    import traceback
    from array import array
    from fractions import Fraction

    import numpy as np
    from coinsrow import Intervals

    n, m, exact = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3] == "exact"
    k = np.arange(n)
    row = np.abs(k - n // 2) * 10 + np.abs(k % 5 - 2) * 3
    if exact:  # Fractions: the exact twin answers
        row = [Fraction(int(x), 3) for x in row]
    iv = Intervals(row)
    whole = iv.value(0, n)
    rng = np.random.default_rng(1)
    a, b = rng.integers(0, n + 1, m), rng.integers(0, n + 1, m)
    # array('q') bounds: values() spends its time in the kernel, not converting them.
    starts = array("q", np.minimum(a, b).tobytes())
    stops = array("q", np.maximum(a, b).tobytes())
    del a, b
    print("ready", flush=True)
    retries = 0
    while True:
        try:
            while True:  # each call takes seconds; a signal lands inside one
                iv.values(starts, stops)
        except KeyboardInterrupt as exc:
            inside = any(frame.filename.endswith(("_subrows.pyx", "_subrows_core.pyx",
                                                  "_subrows_exact.pyx"))
                         for frame in traceback.extract_tb(exc.__traceback__))
            if not inside and retries < 5:  # it landed between two calls: once more
                retries += 1
                print("retry", flush=True)
                continue
            # The structure is still usable.
            print("interrupted", inside, iv.value(0, n) == whole,
                  list(iv.values([0, 1], [n, n - 1])) == [whole, iv.value(1, n - 1)],
                  flush=True)
            raise
""")


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("kind,n,m", [("machine", 200_000, 2_000_000),
                                      ("exact", 20_000, 200_000)])
def test_ctrl_c_stops_values_at_once(kind, n, m, tmp_path):
    """SIGINT to a child busy in ``Intervals.values`` (seconds a call): KeyboardInterrupt from
    inside the kernel within a second or two, and the structure answers afterwards."""
    script = tmp_path / "child.py"
    script.write_text(_CHILD)
    root = Path(__file__).resolve().parent.parent
    env = dict(os.environ, PYTHONPATH=str(root) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    child = subprocess.Popen([sys.executable, str(script), str(n), str(m), kind],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=env, cwd=root)
    try:
        assert child.stdout.readline().strip() == "ready"
        time.sleep(1.0)
        while True:
            sent = time.monotonic()
            child.send_signal(signal.SIGINT)
            line = child.stdout.readline()
            if line.strip() != "retry":
                break
            time.sleep(0.3)
        rest, err = child.communicate(timeout=60)
        elapsed = time.monotonic() - sent
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert (line + rest).split() == ["interrupted", "True", "True", "True"], (line, rest, err)
    assert "KeyboardInterrupt" in err and child.returncode != 0
    assert elapsed < 3.0, elapsed


@pytest.mark.slow
def test_twin_of_rows_longer_than_a_sorted_run_agrees_with_the_machine_structure():
    """Past 65536 boundaries the twin sorts its heights and blocks in runs merged pairwise
    (so that Ctrl-C is looked at): on rows of heavy ties (the order of equal keys matters)
    and of every family, the twin's layout and answers are the machine structure's."""
    rng = random.Random(38)
    for name, n in (("ties", 150_000), ("random", 140_000), ("triangle", 70_000),
                    ("valley", 66_000)):
        row = family_row(rng, name, n)
        machine, twin = _core.SubRows(array("q", row)), _core.SubRowsExact(list(row))
        assert (machine.table_pairs, machine.checkpoints, machine.spacing) == (
            twin.table_pairs, twin.checkpoints, twin.spacing), name
        starts = array("q", [rng.randint(0, n) for _ in range(300)])
        stops = array("q", [rng.randint(0, n) for _ in range(300)])
        out_m, out_t = array("q", bytes(8 * 300)), [0] * 300
        machine.values(starts, stops, out_m, array("B", bytes(300)))
        twin.values(starts, stops, out_t, array("B", bytes(300)))
        assert list(out_m) == out_t, name
