"""Typing of the installed package: the stub of the compiled core matches the module.

``coinsrow/_core/__init__.pyi`` is written by hand; mypy.stubtest imports the compiled
``_core`` package and compares every name, argument and constant with the stub, so a kernel
added to a ``.pyx`` without its stub (or a stub that drifted from the code) fails here. The
package is checked where it is imported from: the source tree in development, site-packages
for a wheel.

``mypy coinsrow`` (strict, configured in pyproject.toml) must pass with no error on the
source tree: a change that breaks the annotations fails here, not only in CI's typing job.
"""

from __future__ import annotations

import os
import site
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

import coinsrow
from coinsrow import _core

PACKAGE_DIR = Path(coinsrow.__file__).resolve().parent
# The checkout these tests belong to (tests/..): its pyproject.toml configures mypy.
SOURCE_ROOT = Path(__file__).resolve().parent.parent


def _is_installed(directory: Path) -> bool:
    """Whether ``directory`` is a site-packages (an installed wheel, not a source tree)."""
    places = [sysconfig.get_path("purelib"), sysconfig.get_path("platlib")]
    places += site.getsitepackages() if hasattr(site, "getsitepackages") else []
    places.append(site.getusersitepackages())
    return any(directory == Path(place).resolve() for place in places if place)

# Names Cython adds to every module, not part of the API: none reach the package's namespace
# (its __init__.py re-exports the kernels by name), so nothing is allowed to differ.
STUBTEST_ALLOWLIST = ""


def _python(arguments: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    """This Python run with ``arguments`` in ``cwd``, its output captured as text."""
    return subprocess.run([sys.executable, *arguments], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=300)


def test_compiled_core_and_typing_files_ship_with_the_package() -> None:
    # A wheel without them would type-check as Any (no py.typed) or not at all (no stub).
    assert (PACKAGE_DIR / "py.typed").is_file()
    assert (PACKAGE_DIR / "_core" / "__init__.pyi").is_file()
    assert Path(_core.__file__).resolve().parent == PACKAGE_DIR / "_core"
    compiled = [Path(_core._rows.__file__), Path(_core._forest.__file__)]
    assert all(path.suffix in (".so", ".pyd") for path in compiled), compiled


@pytest.mark.slow
def test_stub_matches_compiled_module(tmp_path: Path) -> None:
    pytest.importorskip(
        "mypy.stubtest",
        reason="mypy is not installed (in the 'test' group: pip install -e . --group test)",
    )
    config = tmp_path / "mypy.ini"
    # Only the stub is checked here: errors in the package's .py files are the business of
    # `mypy coinsrow` (CI's typing job), not a reason for stubtest to refuse to run.
    config.write_text(
        "[mypy]\n"
        f"cache_dir = {tmp_path / 'mypy_cache'}\n"
        "[mypy-coinsrow.*]\n"
        "ignore_errors = True\n"
        "[mypy-coinsrow._core]\n"
        "ignore_errors = False\n"
        "[mypy-numpy.*]\n"
        "follow_imports = skip\n"
    )
    allowlist = tmp_path / "allowlist.txt"
    allowlist.write_text(STUBTEST_ALLOWLIST)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "MYPYPATH")}
    if not _is_installed(PACKAGE_DIR.parent):
        # A source tree (in-place or editable build): point mypy (which reads the stub) and
        # the runtime import (which stubtest compares against) at it. An installed package
        # is found by both in site-packages, which must not be named on MYPYPATH.
        env["MYPYPATH"] = env["PYTHONPATH"] = str(PACKAGE_DIR.parent)
    result = _python(["-m", "mypy.stubtest", "coinsrow._core", "--mypy-config-file",
                      str(config), "--allowlist", str(allowlist)], tmp_path, env)
    assert result.returncode == 0, (
        "coinsrow/_core/__init__.pyi does not match the compiled modules (add stubs for new "
        f"kernels under their module's heading):\n{result.stdout}\n{result.stderr}"
    )


@pytest.mark.slow
def test_package_source_passes_mypy(tmp_path: Path) -> None:
    pytest.importorskip(
        "mypy", reason="mypy is not installed (in the 'test' group: pip install -e . --group test)"
    )
    source_package = SOURCE_ROOT / "coinsrow"
    if not (SOURCE_ROOT / "pyproject.toml").is_file() or not source_package.is_dir():
        pytest.skip(f"no package source next to the tests ({SOURCE_ROOT}): mypy checks the "
                    "source tree, not an installed wheel")
    if _is_installed(PACKAGE_DIR.parent) or source_package.resolve() != PACKAGE_DIR:
        pytest.skip(f"the package under test ({PACKAGE_DIR}) is not the source tree next to the "
                    f"tests ({source_package}): mypy checks the source tree")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "MYPYPATH")}
    # A cache of its own: the run does not depend on (nor write) a .mypy_cache in the tree.
    result = _python(["-m", "mypy", "coinsrow", "--cache-dir", str(tmp_path / "mypy_cache")],
                     SOURCE_ROOT, env)
    assert result.returncode == 0, (
        "mypy coinsrow (strict, [tool.mypy] in pyproject.toml) reports errors; fix the "
        f"annotations:\n{result.stdout}\n{result.stderr}"
    )


# A user's script: the results are typed by the coins' type, so that it passes mypy --strict
# as written, and each static type is the run-time type (the script runs, too).
USER_SCRIPT = '''\
from __future__ import annotations

from array import array
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Literal

import coinsrow

if TYPE_CHECKING:
    from typing_extensions import assert_type
else:
    def assert_type(value, _type):
        return value

row = [1, 2, 1000, 3, 4, 900]
x: int = coinsrow.value([1, 2, 3])
assert type(x) is int
assert type(assert_type(coinsrow.value(row, threads=1), int)) is int
assert type(assert_type(coinsrow.value([0.5, 1.5]), float)) is float
assert type(assert_type(coinsrow.value([Fraction(1, 3)]), Fraction)) is Fraction
assert type(assert_type(coinsrow.value([Decimal("0.1"), Decimal(2)]), Decimal)) is Decimal
assert type(assert_type(coinsrow.value(array("q", row)), int)) is int
assert type(assert_type(coinsrow.value(array("d", [0.5])), float)) is float

p = coinsrow.profits(row)
total: int = p.first + p.second
assert total == sum(row) and type(p.first) is int
assert_type(p, coinsrow.Profits[int])
f = coinsrow.profits([0.1, 0.2], threads=None)
assert type(assert_type(f.first - f.second, float)) is float
q = coinsrow.profits([Fraction(1, 2), Fraction(1, 3)])
assert type(assert_type(q.first + q.second, Fraction)) is Fraction
d = coinsrow.profits([Decimal("1.5")])
assert type(assert_type(d.first * 2, Decimal)) is Decimal

end: Literal["left", "right"] = coinsrow.best_move(row)
assert end == "right"
turns: list[int] = list(coinsrow.play(row))
assert turns == [5, 4, 0, 1, 2, 3]

game = coinsrow.Game(rows=[row], stacks=[[9, 2, 6]])
move: coinsrow.Move = game.best_move()
kind: str = move.kind
after: coinsrow.Game = game.take(move)
moves: list[coinsrow.Move] = after.play()
profits = game.profits()
both = profits.first + profits.second
engine = coinsrow.Engine(row)
taken: coinsrow.Move = engine.take("left")
print(kind, len(moves), both, taken.coin, engine.value(), game.value())
'''

NUMPY_SCRIPT = '''\
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

import coinsrow

if TYPE_CHECKING:
    from typing_extensions import assert_type
else:
    def assert_type(value, _type):
        return value

ints = np.array([3, 2, 2, 3, 1, 2], dtype=np.int64)
floats = np.array([0.5, 0.25], dtype=np.float64)
assert type(assert_type(coinsrow.value(ints), int)) is int
assert type(assert_type(coinsrow.value(floats), float)) is float
assert type(assert_type(coinsrow.profits(np.arange(5, dtype=np.uint16)).first, int)) is int
assert type(assert_type(coinsrow.profits(floats.astype(np.float32)).second, float)) is float
'''

# Wrong uses the annotations must reject: a check that could not fail would prove nothing.
MISTAKES_SCRIPT = '''\
from __future__ import annotations

import coinsrow

text: str = coinsrow.value([1, 2, 3])
coinsrow.value(["1", "2"])
half: int = coinsrow.value([0.5])
coinsrow.value([1], threads="2")
if coinsrow.best_move([1, 2]) == "up":
    pass
'''
MISTAKES = {
    5: "Incompatible types in assignment",
    6: "has incompatible type \"str\"",
    7: "Incompatible types in assignment",
    8: "No overload variant",
    9: "Non-overlapping equality check",
}


def _mypy_user(tmp_path: Path, scripts: dict[str, str]) -> dict[str, list[tuple[int, str]]]:
    """mypy --strict on user ``scripts`` (file name -> text) as a user runs it, in one run
    (one start of mypy and one reading of the standard library's stubs for all of them):
    the errors of each script, as (line, message). Only the scripts' own errors count."""
    for name, script in scripts.items():
        (tmp_path / name).write_text(script)
    config = tmp_path / "mypy.ini"  # mypy's defaults, not the project's configuration
    config.write_text("[mypy]\n")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "MYPYPATH")}
    if not _is_installed(PACKAGE_DIR.parent):
        env["MYPYPATH"] = str(PACKAGE_DIR.parent)  # an in-place or editable build
    result = _python(["-m", "mypy", "--strict", "--follow-imports=silent", "--no-error-summary",
                      "--show-error-codes", "--cache-dir", str(tmp_path / "mypy_cache"),
                      "--config-file", str(config), *(str(tmp_path / name) for name in scripts)],
                     tmp_path, env)
    assert result.returncode in (0, 1), f"mypy did not run:\n{result.stdout}\n{result.stderr}"
    found: dict[str, list[tuple[int, str]]] = {name: [] for name in scripts}
    for line in result.stdout.splitlines():
        parts = line.split(":", 3)
        if len(parts) == 4 and "error" in parts[2]:
            found[Path(parts[0]).name].append((int(parts[1]), parts[3]))
    return found


def _run_script(tmp_path: Path, name: str) -> None:
    env = dict(os.environ)
    if not _is_installed(PACKAGE_DIR.parent):
        env["PYTHONPATH"] = str(PACKAGE_DIR.parent)
    result = _python([str(tmp_path / name)], tmp_path, env)
    assert result.returncode == 0, result.stderr


@pytest.mark.slow
def test_user_scripts_pass_mypy_strict_and_run_and_mistakes_are_caught(tmp_path: Path) -> None:
    """A user's scripts (plain Python numbers; NumPy arrays) pass mypy --strict and run (the
    static types are the run-time ones); a script of mistakes gets each expected error."""
    pytest.importorskip("mypy", reason="mypy is not installed (it is in the 'test' group)")
    scripts = {"user_script.py": USER_SCRIPT, "mistakes.py": MISTAKES_SCRIPT}
    try:
        import numpy  # noqa: F401
    except ImportError:
        pass
    else:
        scripts["numpy_script.py"] = NUMPY_SCRIPT
    found = _mypy_user(tmp_path, scripts)
    for name in scripts.keys() - {"mistakes.py"}:
        assert found[name] == [], f"mypy --strict on a user's script {name}: {found[name]}"
        _run_script(tmp_path, name)
    lines: dict[int, list[str]] = {}
    for line_number, message in found["mistakes.py"]:
        lines.setdefault(line_number, []).append(message)
    assert set(lines) == set(MISTAKES), found["mistakes.py"]
    for line_number, message in MISTAKES.items():
        assert any(message in text for text in lines[line_number]), found["mistakes.py"]
