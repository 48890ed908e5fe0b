"""Build of the compiled core. Compiler directives are set here, once.

COINSROW_DEBUG=1 builds with bounds and initialisation checks on (the debug build that CI
runs the whole test suite against); the default is the release build.
"""

import os
import sys

from Cython.Build import cythonize
from setuptools import Extension, setup

debug = os.environ.get("COINSROW_DEBUG", "") not in ("", "0")

directives = {
    "language_level": 3,
    "boundscheck": debug,
    "wraparound": False,
    "initializedcheck": debug,
    "cdivision": True,
    "nonecheck": debug,
    "embedsignature": True,
    "freethreading_compatible": True,
}

if sys.platform == "win32":
    compile_args = ["/O2"]
else:
    compile_args = ["-O0", "-g"] if debug else ["-O3"]

extensions = [
    Extension(
        "coinsrow._core",
        ["coinsrow/_core.pyx"],
        extra_compile_args=compile_args,
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
    )
]

setup(ext_modules=cythonize(extensions, compiler_directives=directives))
