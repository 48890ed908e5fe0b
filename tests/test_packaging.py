"""Packaging: what the sdist ships, what a build leaves behind, the size of the compiled core,
the import error of an unbuilt source tree, and one list of supported Pythons everywhere.
"""

from __future__ import annotations

import os
import re
import shutil
import struct
import subprocess
import sys
import sysconfig
import tarfile
from pathlib import Path

import pytest

import coinsrow
from coinsrow import _core

PACKAGE_DIR = Path(coinsrow.__file__).resolve().parent
ROOT = Path(__file__).resolve().parent.parent
# The release build of the compiled core (every extension module of coinsrow._core, Cython's
# shared runtime included), as `pip install .` installs it: stripped of debug information
# (the symbol table stays, for profilers). Measured on x86-64 Linux, twenty-nine modules:
# 2,081,648 bytes on Python 3.11, 2,134,976 on 3.12. Cython writes more C for the C API of
# CPython 3.12 and newer, so those have a budget of their own.
OLDER_API = sys.version_info < (3, 12)
MAX_RELEASE_CORE_BYTES = 2_100_000 if OLDER_API else 2_160_000
# The same modules with their symbol tables stripped too (`strip`), as a wheel may ship them:
# the release's goal, 1.8 MB on every Python. Measured: 1,735,928 bytes on Python 3.11,
# 1,797,304 on 3.12 and 1,789,144 on 3.13, Cython's shared runtime (0.11 MB, compiled for
# size like the exact twins, setup.py) included. Each module's file grows by whole pages
# (4 KiB: the end of its relocated read-only data is page-aligned), so a few bytes more code
# can cost 4 KiB.
# What the last cuts took (setup.py): the codes as C enums with their Python classes made once
# (no converter of the Status enum in every module: 62 KB on 3.11), and Cython's runtime
# helpers in each kernel module compiled for size but those every call runs (61 KB).
MAX_STRIPPED_CORE_BYTES = 1_800_000


def _core_modules() -> list[Path]:
    # This interpreter's modules only: an in-place build for several Pythons leaves each one's.
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    core = Path(_core.__file__).parent
    return sorted(path for path in core.iterdir() if path.name.endswith(suffix))


def _clean_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONSTARTUP")}


def test_unbuilt_source_tree_says_how_to_build(tmp_path: Path) -> None:
    tree = tmp_path / "coinsrow"
    (tree / "_core").mkdir(parents=True)
    for directory in (PACKAGE_DIR, PACKAGE_DIR / "_core"):
        for source in directory.iterdir():
            if source.suffix in (".py", ".pyi") or source.name == "py.typed":
                shutil.copy2(source, tree / directory.relative_to(PACKAGE_DIR))
    # -S: no site-packages (an installed coinsrow must not answer for the tree).
    command = [sys.executable, "-S", "-c", "import coinsrow; print(coinsrow.value([1, 2]))"]
    result = subprocess.run(command, cwd=tmp_path, env=_clean_env(), capture_output=True,
                            text=True, timeout=120)
    assert result.returncode != 0
    last_line = result.stderr.strip().splitlines()[-1]
    assert last_line.startswith("ImportError: "), result.stderr
    assert "pip install -e ." in last_line and "not built" in last_line, last_line
    assert "circular import" not in result.stderr

    # Built (the compiled modules beside the sources), the same tree imports.
    for module in _core_modules():
        shutil.copy2(module, tree / "_core")
    result = subprocess.run(command, cwd=tmp_path, env=_clean_env(), capture_output=True,
                            text=True, timeout=120)
    assert (result.returncode, result.stdout.strip()) == (0, "1"), result.stderr


def _elf_sections(data: bytes) -> set[str]:
    """The section names of a 64-bit little-endian ELF file."""
    assert data[:4] == b"\x7fELF" and data[4] == 2 and data[5] == 1, "not a 64-bit LE ELF"
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    names_offset, = struct.unpack_from("<Q", data, shoff + shstrndx * shentsize + 0x18)
    sections = set()
    for i in range(shnum):
        name_index, = struct.unpack_from("<I", data, shoff + i * shentsize)
        end = data.index(b"\0", names_offset + name_index)
        sections.add(data[names_offset + name_index:end].decode())
    return sections


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads the ELF of Linux")
def test_release_core_has_no_debug_information(tmp_path: Path) -> None:
    total = stripped = 0
    for core in _core_modules():
        data = core.read_bytes()
        if data[4] != 2 or data[5] != 1:
            pytest.skip("not a 64-bit little-endian ELF")
        sections = _elf_sections(data)
        debug_sections = sorted(name for name in sections if name.startswith(".debug"))
        # The bounds checks of COINSROW_DEBUG=1 call this helper; a release build has none.
        if b"__Pyx_RaiseBufferIndexError" in data:
            assert debug_sections, "the debug build (COINSROW_DEBUG=1) keeps its debug information"
            pytest.skip("the debug build (COINSROW_DEBUG=1): its size is not bounded")
        assert not debug_sections, f"the release build of {core.name} carries {debug_sections}"
        total += core.stat().st_size
        if shutil.which("strip"):
            copy = tmp_path / core.name
            subprocess.run(["strip", "-o", str(copy), str(core)], check=True, timeout=60)
            stripped += copy.stat().st_size
    assert total <= MAX_RELEASE_CORE_BYTES, total
    if shutil.which("strip"):
        assert stripped <= MAX_STRIPPED_CORE_BYTES, stripped


def _tracked_files() -> list[str]:
    if not (ROOT / ".git").exists() or shutil.which("git") is None:
        pytest.skip("not a git checkout")
    if not (ROOT / "setup.py").is_file():
        pytest.skip("no setup.py next to the tests")
    pytest.importorskip("setuptools", reason="building the sdist needs setuptools")
    if sys.version_info < (3, 11):
        pytest.importorskip("tomli", reason="setup.py reads pyproject.toml with tomli")
    result = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                            timeout=60, check=True)
    return [name for name in result.stdout.decode().split("\0") if name]


def _tree(root: Path) -> set[str]:
    return {path.relative_to(root).as_posix() for path in root.rglob("*") if path.is_file()}


@pytest.mark.slow
def test_sdist_ships_the_sources_and_the_build_leaves_the_tree_alone(tmp_path: Path) -> None:
    tracked = _tracked_files()
    checkout = tmp_path / "checkout"
    for name in tracked:
        if (ROOT / name).is_file():
            (checkout / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, checkout / name)
    before = _tree(checkout)
    result = subprocess.run(
        [sys.executable, "setup.py", "-q", "sdist", "--formats=gztar", "--dist-dir", "dist"],
        cwd=checkout, env=_clean_env(), capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr

    # Nothing beside the sources: no generated C, no egg-info; only build/ and dist/.
    written = _tree(checkout) - before
    assert written and all(name.startswith(("build/", "dist/")) for name in written), written

    (archive,) = (checkout / "dist").glob("coinsrow-*.tar.gz")
    with tarfile.open(archive) as tar:
        shipped = {name.split("/", 1)[1] for name in tar.getnames() if "/" in name}
    needed = {name for name in tracked if re.fullmatch(
        r"coinsrow/(_core/)?[^/]+\.(py|pyi|pyx|pxd|tp)|coinsrow/py\.typed|tests/[^/]+\.py"
        r"|docs/([^/]+/)?[^/]+\.(md|rst|py|png)"
        r"|README\.md|CHANGELOG\.md|CONTRIBUTING\.md|LICENSE|pyproject\.toml|setup\.py"
        r"|MANIFEST\.in", name)}
    assert {"coinsrow/_core/_rows.pyx", "coinsrow/_core/_types.pxd", "tests/conftest.py"} <= needed
    assert not needed - shipped, f"missing from the sdist: {sorted(needed - shipped)}"
    generated = sorted(name for name in shipped if name.endswith((".c", ".so", ".pyd"))
                       or name.startswith("build/") or ".egg-info/" in name)
    assert not generated, generated


def _pyproject() -> dict:
    if sys.version_info >= (3, 11):
        import tomllib
    else:
        tomllib = pytest.importorskip("tomli")
    path = ROOT / "pyproject.toml"
    if not path.is_file():
        pytest.skip("no pyproject.toml next to the tests")
    return tomllib.loads(path.read_text(encoding="utf-8"))


def test_one_list_of_supported_pythons() -> None:
    """Classifiers, requires-python, the wheels built and the versions CI tests agree."""
    project = _pyproject()
    classified = {int(m) for c in project["project"]["classifiers"]
                  for m in re.findall(r"^Programming Language :: Python :: 3\.(\d+)$", c)}
    oldest = int(re.fullmatch(r">=3\.(\d+)", project["project"]["requires-python"]).group(1))
    assert classified == set(range(oldest, max(classified) + 1))

    builds = project["tool"]["cibuildwheel"]["build"]
    built = {int(m) for b in builds for m in re.findall(r"^cp3(\d+)-\*$", b)}
    built_free_threaded = {int(m) for b in builds for m in re.findall(r"^cp3(\d+)t-\*$", b)}
    assert built == classified
    assert built_free_threaded and built_free_threaded <= built

    ci = ROOT / ".github" / "workflows" / "ci.yml"
    if not ci.is_file():
        pytest.skip("no .github/workflows/ci.yml next to the tests")
    (matrix,) = re.findall(r"^\s*python-version:\s*\[([^\]]*)\]", ci.read_text(), re.M)
    tested = re.findall(r"\"3\.(\d+)(t?)\"", matrix)
    assert {int(minor) for minor, t in tested if not t} == classified
    assert {int(minor) for minor, t in tested if t} == built_free_threaded
