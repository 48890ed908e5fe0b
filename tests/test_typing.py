"""Typing of the installed package: the stub of the compiled core matches the module.

``coinsrow/_core.pyi`` is written by hand; mypy.stubtest imports the compiled ``_core`` and
compares every name, argument and constant with the stub, so a kernel added to a ``.pxi``
without its stub (or a stub that drifted from the code) fails here. The package is checked
where it is imported from: the source tree in development, site-packages for a wheel.

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

# Names Cython adds to every module, not part of the API.
STUBTEST_ALLOWLIST = """\
# Cython's dict of doctests of cdef functions
coinsrow\\._core\\.__test__
# Cython's pickling helpers of cdef classes that cannot be pickled
coinsrow\\._core\\.__reduce_cython__
coinsrow\\._core\\.__setstate_cython__
"""


def test_compiled_core_and_typing_files_ship_with_the_package() -> None:
    # A wheel without them would type-check as Any (no py.typed) or not at all (no stub).
    assert (PACKAGE_DIR / "py.typed").is_file()
    assert (PACKAGE_DIR / "_core.pyi").is_file()
    core_file = Path(_core.__file__).resolve()
    assert core_file.parent == PACKAGE_DIR
    assert core_file.suffix in (".so", ".pyd"), f"_core is not compiled: {core_file}"


def test_stub_matches_compiled_module(tmp_path: Path) -> None:
    pytest.importorskip(
        "mypy.stubtest",
        reason="mypy is not installed (it is in the 'test' extra: pip install -e '.[test]')",
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
    result = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "coinsrow._core",
         "--mypy-config-file", str(config), "--allowlist", str(allowlist)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, (
        "coinsrow/_core.pyi does not match the compiled module (add stubs for new kernels "
        f"at the end of _core.pyi):\n{result.stdout}\n{result.stderr}"
    )


def test_package_source_passes_mypy(tmp_path: Path) -> None:
    pytest.importorskip(
        "mypy", reason="mypy is not installed (it is in the 'test' extra: pip install -e '.[test]')"
    )
    source_package = SOURCE_ROOT / "coinsrow"
    if not (SOURCE_ROOT / "pyproject.toml").is_file() or not source_package.is_dir():
        pytest.skip(f"no package source next to the tests ({SOURCE_ROOT}): mypy checks the "
                    "source tree, not an installed wheel")
    if _is_installed(PACKAGE_DIR.parent) or PACKAGE_DIR != source_package.resolve():
        pytest.skip(f"the package under test ({PACKAGE_DIR}) is not the source tree next to the "
                    f"tests ({source_package}): mypy checks the source tree")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "MYPYPATH")}
    # A cache of its own: the run does not depend on (nor write) a .mypy_cache in the tree.
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "coinsrow", "--cache-dir", str(tmp_path / "mypy_cache")],
        cwd=SOURCE_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, (
        "mypy coinsrow (strict, [tool.mypy] in pyproject.toml) reports errors; fix the "
        f"annotations:\n{result.stdout}\n{result.stderr}"
    )
