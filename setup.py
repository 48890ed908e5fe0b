"""Build of the compiled core. Compiler directives are set here, once.

COINSROW_DEBUG=1 builds with bounds and initialisation checks on (the debug build that CI
runs the whole test suite against); the default is the release build.

Switching between the two rebuilds everything: both the generated C and the compiled module
look up to date by their time stamps alone, so the mode of the last build is kept in
build/coinsrow-build-mode and a change of mode forces Cython and the compiler to run again.

Metadata is in pyproject.toml; the version in coinsrow/_version.py.
"""

import os
import sys
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

debug = os.environ.get("COINSROW_DEBUG", "") not in ("", "0")
mode = "debug" if debug else "release"

here = Path(__file__).resolve().parent
mode_file = here / "build" / "coinsrow-build-mode"
try:
    mode_changed = mode_file.read_text().strip() != mode
except OSError:
    # No record: a fresh tree (nothing to redo) or a tree built before the record existed.
    mode_changed = (here / "coinsrow" / "_core.c").exists()

directives = {
    "language_level": 3,
    "boundscheck": debug,
    "wraparound": False,
    "initializedcheck": debug,
    "cdivision": True,
    "nonecheck": debug,
    "embedsignature": True,
    # The kernels keep no module-level C state: each call has its own scratch memory, so
    # the module can run without the GIL on free-threaded CPython (3.14t).
    "freethreading_compatible": True,
}

if sys.platform == "win32":
    compile_args = ["/Od", "/Zi"] if debug else ["/O2"]
else:
    compile_args = ["-O0", "-g"] if debug else ["-O3"]


class BuildExt(build_ext):
    """build_ext that recompiles after a change of build mode and records the mode."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if mode_changed:
            self.force = True

    def run(self) -> None:
        super().run()
        mode_file.parent.mkdir(parents=True, exist_ok=True)
        mode_file.write_text(mode + "\n")


extensions = [
    Extension(
        "coinsrow._core",
        ["coinsrow/_core.pyx"],
        extra_compile_args=compile_args,
    )
]

setup(
    ext_modules=cythonize(extensions, compiler_directives=directives, force=mode_changed),
    cmdclass={"build_ext": BuildExt},
)
