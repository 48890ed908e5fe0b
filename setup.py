"""Build of the compiled core. Compiler directives and flags are set here, once.

COINSROW_DEBUG=1 builds with bounds and initialisation checks on and C debug information (the
debug build that CI runs the whole test suite against); the default is the release build,
optimised and without debug information (on Linux the linker also drops what the toolchain's
own objects carry), so that an installed ``_core`` is small.

Cython runs inside ``build_ext`` only, once per build, and writes the generated C into the
build directory, never into the source tree: reading this file for metadata (as the
``get_requires_*`` hooks of ``python -m build`` and ``pip`` do) compiles nothing. The
egg-info metadata goes to the build directory too.

Switching between the two modes rebuilds everything: both the generated C and the compiled
module look up to date by their time stamps alone, so the mode of the last build is kept in
``build/coinsrow-build-mode`` and a change of mode forces Cython and the compiler to run again
(so does a change of the compiler directives or flags below, which the record names too).

PyPI shows README.md without the repository around it: ``pypi_description`` gives it the README
with its links to files of the repository and its images made absolute (under the ``Source``
URL of ``[project.urls]``) or, while the project has no public URL, replaced by text that
stands without them.

The modules are cythonized and compiled in parallel, on every core (``os.cpu_count()``)
unless ``-j N`` says otherwise: the C of each module takes a few seconds to compile, and one
after another a fresh build took 80 s on 2 cores. Each compiled module gets a line on stderr
(``coinsrow: [3/25] coinsrow._core._rows compiled in 9.1 s``), which ``pip install -v``
shows; plain ``pip install`` shows its own "Building wheel" line meanwhile.

Metadata is in pyproject.toml; the version in coinsrow/_version.py.
"""

import hashlib
import os
import re
import sys
import threading
import time
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.egg_info import egg_info
from setuptools.command.sdist import sdist

HERE = Path(__file__).resolve().parent
DEBUG = os.environ.get("COINSROW_DEBUG", "") not in ("", "0")
MODE = "debug" if DEBUG else "release"

DIRECTIVES = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": False,
    "initializedcheck": DEBUG,
    "cdivision": True,
    "nonecheck": DEBUG,
    "embedsignature": True,
    # Functions as built-in functions (PyCFunction), not Cython's own function objects:
    # 47 KB less in all, stripped on x86-64 Linux (each def costs a code object and a function
    # object type's machinery less). Their signature stays readable (inspect.signature, so
    # stubtest checks every argument against the stub): "clinic" writes it as the
    # ``__text_signature__`` of a built-in, not as a first docstring line.
    "binding": False,
    "embedsignature.format": "clinic",
    # The kernels keep no module-level C state: each call has its own scratch memory, so
    # the module can run without the GIL on free-threaded CPython (3.14t).
    "freethreading_compatible": True,
}

# The compiled functions keep the signature line of their docstrings (the __text_signature__
# that inspect.signature and stubtest read; without any docstring CPython 3.13 gives the
# functions without arguments the signature "(self, /)" and stubtest no longer matches the
# stub) but not the prose after it, which the kernels' readers find in the .pyx sources (the
# _core kernels are private). 20 KB less in all, stripped, on x86-64 Linux with CPython 3.11,
# 16 KB with 3.12; the code is the same, so the hot loops do not move (.text of the same size
# at the same address). With a Cython that embeds signatures otherwise, the whole docstrings
# are kept.
SIGNATURES_ONLY = True

# Calls into libpython through the GOT, without a PLT stub for each function the module calls
# (modules are loaded with every symbol bound at once, RTLD_NOW, so lazy binding gains
# nothing): 26 KB less in all, stripped on x86-64 Linux.
NO_PLT = ["-fno-plt"] if sys.platform.startswith("linux") else []
# Appended after Python's own CFLAGS (which often carry -g), so these win.
# -fno-asynchronous-unwind-tables: no .eh_frame unwind tables (C code raises no exceptions to
# unwind through): 0.10 MB less in all, stripped, on x86-64 Linux. Profilers still read the
# symbol table; only DWARF call graphs (perf --call-graph dwarf) lose these modules' callers.
COMPILE_ARGS = {
    "msvc": ["/Od", "/Zi"] if DEBUG else ["/O2"],
    "unix": (["-O0", "-g"] if DEBUG else ["-O3", "-g0", "-fno-asynchronous-unwind-tables"])
    + NO_PLT,
}
# The exact twins (Python objects, every operation a call into the interpreter) and Cython's
# shared runtime (per call: argument parsing, buffer acquisition) are compiled for size.
# Measured on x86-64 Linux, stripped: twins and runtime 1.10 MB at -O3, 0.98 MB at -O2,
# 0.68 MB at -Os; callgrind, instructions of a mixed exact workload (rows of big ints,
# ints, floats and Fractions, a forest, a pizza, a game): -O2 +2.0%, -Os +6.4% over -O3; of
# 20,000 small machine calls (value/profits/play of ten coins) with the runtime at -Os:
# +0.1%.
COLD_COMPILE_ARGS = {
    "msvc": COMPILE_ARGS["msvc"] if DEBUG else ["/O1"],
    "unix": COMPILE_ARGS["unix"] if DEBUG
    else ["-Os", "-g0", "-fno-asynchronous-unwind-tables", *NO_PLT],
}
LINK_ARGS = {
    "msvc": [],
    # GNU ld, gold and lld: no debug sections from crt and libgcc objects either. (The
    # symbol table stays, for profilers.) macOS keeps debug information out of the binary.
    # noseparate-code: no page of padding between the code and the data segments of each of
    # the package's modules (4 KiB less per module measured on x86-64).
    "unix": ["-Wl,--strip-debug", "-Wl,-z,noseparate-code"]
    if not DEBUG and sys.platform.startswith("linux") else [],
}
# Measured and left out (the whole core, stripped, x86-64 Linux, GCC 12, Cython 3.3):
# - -ffunction-sections -fdata-sections -Wl,--gc-sections: nothing (every function is
#   reachable from the module's tables);
# - CYTHON_CLINE_IN_TRACEBACK=0 (c_line_in_traceback=False): nothing, already Cython's default;
# - embedsignature off: 4 KB, but the built-in functions' signatures live in it (binding above);
# - optimize.use_switch off (if-chains for switches): 4 KB more;
# - -O2 for the kernels' modules: 0.11 MB less, but callgrind counts cooperative_max +16%,
#   a forest's float profits +3.6%, the pizza +2.2%;
# - -Wl,-z,norelro: 42 KB less (no padding before the page of relocated read-only data), at
#   the cost of a writable GOT once loaded: not worth the hardening.

# The compiled core is a package of extension modules, one per ``.pyx`` file under
# coinsrow/_core/ (found here, never listed by hand), plus Cython's runtime, which every
# module imports from one shared module instead of carrying its own copy.
PACKAGE_DIR = HERE / "coinsrow" / "_core"
PACKAGE = "coinsrow._core"
SHARED_RUNTIME = PACKAGE + "._cyutility"
# Compiled for size (COLD_COMPILE_ARGS) besides the exact twins (every ``*_exact`` module): the
# shared runtime and the modules without a loop, _types (the codes' Python classes: 4 KB
# less at -Os than at -O3, stripped on x86-64 Linux), _scratch (the scratch memory kept
# between calls, a few steps a call: 4 KB less) and _workers (threads started for a call).
COLD_MODULES = {SHARED_RUNTIME, PACKAGE + "._types", PACKAGE + "._scratch",
                PACKAGE + "._workers"}
# The cold modules' C is written for size too: calls of Python methods without Cython's
# inline unpacking of bound methods (a few calls per kernel call, into the interpreter
# anyway), and no pickling functions for their classes (no kernel object pickles: an Engine
# pickles as its game and moves; a class then refuses pickle as Python's default does).
# 4 KB less in all, stripped, x86-64 Linux, CPython 3.11 and 3.12. Not for the kernels'
# modules: there they save 17 KB more but move the hot loops, and one such layout made
# play() of a valley row of 200,000 coins 10% slower (0.59 ms to 0.65 ms, the best of 40,
# five times alternately; the same instructions in the kernels, counted by callgrind).
COLD_DIRECTIVES = {**DIRECTIVES, "optimize.unpack_method_calls": False, "auto_pickle": False}
# Cython's runtime helpers in each kernel module (the definitions Cython writes after the
# module's own code: module init, imports, traceback records, error raising, ...) are compiled
# for size, except those every call runs (argument parsing, conversions, buffer acquisition,
# the fused functions' dispatch, object creation): GCC then keeps the cold helpers out of the
# wrappers of the kernels (a helper compiled with other options is not inlined), where -O3
# had inlined them into every fused specialisation. The kernels' own code and loops are
# compiled as before. Measured on x86-64 Linux, GCC 12, stripped: 0.10 MB less in all with
# CPython 3.11; callgrind, 5,000 calls of row_value on 20 coins: +14 instructions a call
# with the per-call helpers of RUNTIME_PER_CALL at -O3, +660 (10% of the call's time)
# with every helper for size. GCC only (the pragma); other compilers build as before.
RUNTIME_SECTION = "/* #### Code section: utility_code_def ### */"
# A helper's definition starts with a comment line of its name (``/* CIntFromPy */``); the
# type conversions follow the last one without a name of their own, from this line.
RUNTIME_CONVERSIONS = "static CYTHON_INLINE Py_ssize_t __Pyx_ssize_strlen("
RUNTIME_PER_CALL = {
    "ObjectToMemviewSlice", "MemviewRefcount", "memoryview_get_from_buffer", "CIntFromPy",
    "CIntToPy", "TypeConversions", "FastTypeChecks", "ExtTypeTest", "ArgTypeTest", "fastcall",
    "ParseKeywords", "AllocateExtensionType", "CallNewInitFromVectorcall",
    "CallSlotAsVectorcall", "PyObjectGetAttrStr", "DictGetItem", "dict_getitem_default",
    "GetModuleGlobalName", "PyObjectCallOneArg", "PyObjectFastCall", "PyObjectCall",
    "TupleOrListFromArrayImpl", "SaveResetException", "ImportNumPyArray", "GetItemInt",
}
# The pragmas, for GCC only (clang and MSVC build every helper as before).
_GCC_ONLY = "#if defined(__GNUC__) && !defined(__clang__)\n{}#endif\n"
_FOR_SIZE = _GCC_ONLY.format('#pragma GCC push_options\n#pragma GCC optimize ("Os")\n')
_AS_BEFORE = _GCC_ONLY.format("#pragma GCC pop_options\n")
RUNTIME_MARK = "/* coinsrow (setup.py): cold runtime helpers compiled for size */\n"
# Left as they were: the one-row play and Fusion modules. With their helpers for size, play()
# of a row of 10^6 equal coins took 0.70 ms against 0.58 ms (the best of 25, three times
# alternately), the same instructions in the kernels: the hot loops' placement moved. 4 KB.
LAYOUT_SENSITIVE = {PACKAGE + "._one_row", PACKAGE + "._row_stack"}

# The recorded mode names the directives and flags too: a change of them (not only a switch
# between debug and release) rebuilds everything, as the time stamps alone would keep the old C.
MODE += " " + hashlib.sha256(repr(
    (DIRECTIVES, COLD_DIRECTIVES, SIGNATURES_ONLY, COMPILE_ARGS, COLD_COMPILE_ARGS, LINK_ARGS,
     sorted(COLD_MODULES), RUNTIME_MARK, sorted(RUNTIME_PER_CALL), sorted(LAYOUT_SENSITIVE))
).encode()).hexdigest()[:16]


def kernel_modules() -> list[Extension]:
    """One Extension per ``coinsrow/_core/*.pyx`` (written or rendered from a ``.pyx.tp``
    template), and the shared Cython runtime."""
    names = {path.name for path in PACKAGE_DIR.glob("*.pyx")}
    names |= {path.name.removesuffix(".tp") for path in PACKAGE_DIR.glob("*.pyx.tp")}
    modules = [
        Extension(f"{PACKAGE}.{Path(name).stem}", [f"coinsrow/_core/{name}"])
        for name in sorted(names)
    ]
    modules.append(Extension(SHARED_RUNTIME, ["coinsrow/_core/_cyutility.c"]))
    return modules


def is_cold(ext: Extension) -> bool:
    """Whether a module is compiled for size: an exact twin or one of COLD_MODULES."""
    return ext.name.endswith("_exact") or ext.name in COLD_MODULES


def runtime_for_size(sources: list[Path]) -> None:
    """Compile the runtime helpers of each generated C file for size, but RUNTIME_PER_CALL
    (once: a file already marked is left alone)."""
    for source in sources:
        if source.suffix != ".c" or not source.exists():
            continue
        text = source.read_text(encoding="utf-8")
        if RUNTIME_MARK in text or RUNTIME_SECTION not in text:
            continue
        head, _, helpers = text.partition(RUNTIME_SECTION)
        helpers = helpers.replace(RUNTIME_CONVERSIONS,
                                  "/* TypeConversions */\n" + RUNTIME_CONVERSIONS, 1)
        blocks = re.split(r"(?m)^(?=/\* [A-Za-z_0-9]+(?: \(used by [^)]*\))? \*/$)", helpers)
        parts = [RUNTIME_MARK, _FOR_SIZE]
        for block in blocks:
            name = re.match(r"/\* ([A-Za-z_0-9]+)", block)
            if name and name.group(1) in RUNTIME_PER_CALL:
                block = _AS_BEFORE + block + _FOR_SIZE
            parts.append(block)
        parts.append(_AS_BEFORE)
        source.write_text(head + RUNTIME_SECTION + "".join(parts), encoding="utf-8")


def embed_signatures_only() -> None:
    """Make Cython's embedsignature write a docstring of the signature line alone
    (SIGNATURES_ONLY), where this Cython embeds signatures as it did when this was written
    (3.1 to 3.3); otherwise the whole docstrings stay."""
    from Cython.Compiler.AutoDocTransforms import EmbedSignature

    embed = getattr(EmbedSignature, "_embed_signature", None)
    if not SIGNATURES_ONLY or embed is None or getattr(embed, "signature_only", False):
        return

    def signature_only(self: object, signature: str, node_doc: object) -> object:
        return embed(self, signature, None)

    signature_only.signature_only = True  # type: ignore[attr-defined]
    EmbedSignature._embed_signature = signature_only


def render_templates() -> None:
    """Write ``X.pyx`` beside each ``X.pyx.tp`` template under coinsrow/_core/ whose output is
    missing or older than it (the rendered file is ignored by git; the template is the
    source). Tempita, the template language NumPy and scikit-learn use for the same purpose,
    comes with Cython."""
    from Cython import Tempita

    for template in sorted(PACKAGE_DIR.glob("*.pyx.tp")):
        target = template.with_suffix("")
        if target.exists() and target.stat().st_mtime >= template.stat().st_mtime:
            continue
        text = Tempita.sub(template.read_text(encoding="utf-8"))
        header = (f"# Rendered from {template.name} by setup.py: edit the template, not this"
                  " file.\n")
        target.write_text(header + text, encoding="utf-8")


class BuildExt(build_ext):
    """build_ext that cythonizes (only what changed), recompiles after a change of build mode
    and records it, on every core unless ``-j`` says otherwise, with a line per module."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if not self.parallel:  # not set: every core (setuptools' default is one at a time)
            self.parallel = os.cpu_count() or 1
        self._progress_lock = threading.Lock()
        self._compiled = 0

    def build_extension(self, ext: Extension) -> None:
        """Compile one module (setuptools calls this from its threads) and say so on stderr,
        with its time: a fresh build is some 25 modules of a few seconds each."""
        target = Path(self.get_ext_fullpath(ext.name))
        before = target.stat().st_mtime_ns if target.exists() else None
        start = time.perf_counter()
        super().build_extension(ext)
        done = (f"compiled in {time.perf_counter() - start:.1f} s"
                if not target.exists() or target.stat().st_mtime_ns != before
                else "up to date")
        with self._progress_lock:
            self._compiled += 1
            print(f"coinsrow: [{self._compiled}/{len(self.extensions)}] {ext.name} {done}",
                  file=sys.stderr, flush=True)

    def run(self) -> None:
        build_base = Path(self.get_finalized_command("build").build_base)
        mode_file = build_base / "coinsrow-build-mode"
        try:
            mode_changed = mode_file.read_text().strip() != MODE
        except OSError:
            # No record: a fresh build directory, or C generated in an unknown mode.
            mode_changed = any(Path(self.build_temp).glob("coinsrow/**/*.c"))
        if mode_changed:
            self.force = True
        print(f"coinsrow: building {len(self.extensions)} extension modules"
              f" ({MODE.split()[0]}), {self.parallel} at a time", file=sys.stderr, flush=True)
        self.cythonize()
        # The longest compiles first (the C's size stands for the time), so that no long one
        # starts last beside an idle core: 18.4 -> 17.8 s from the first compile to the last
        # link on 2 cores (two fresh builds each; 17.2 s is the sum over two).
        self.extensions.sort(key=lambda ext: -sum(Path(s).stat().st_size for s in ext.sources))
        super().run()
        mode_file.parent.mkdir(parents=True, exist_ok=True)
        mode_file.write_text(MODE + "\n")

    def cythonize(self) -> None:
        """Generate the C of every module whose sources (its .pyx and every .pxd it cimports)
        changed since the last run, in parallel with ``-j``; the C goes to the build
        directory."""
        from Cython.Build import cythonize

        embed_signatures_only()
        render_templates()
        by_name = {}
        for cold in (True, False):
            group = [ext for ext in self.extensions if is_cold(ext) == cold]
            generated = cythonize(
                group,
                compiler_directives=COLD_DIRECTIVES if cold else DIRECTIVES,
                build_dir=self.build_temp,
                force=self.force,
                quiet=not self.verbose,
                nthreads=self.parallel or 0,
                shared_utility_qualified_name=SHARED_RUNTIME,
            )
            by_name.update((ext.name, ext) for ext in generated)
        kind = "msvc" if self.compiler_type() == "msvc" else "unix"
        for ext in self.extensions:
            ext.sources = by_name[ext.name].sources
            if not DEBUG and not is_cold(ext) and ext.name not in LAYOUT_SENSITIVE:
                runtime_for_size([Path(source) for source in ext.sources])
            # The C file depends on its .pyx and the .pxd files: the compiler reruns when
            # Cython rewrote the C, and only then.
            ext.depends = []
            ext.extra_compile_args = (COLD_COMPILE_ARGS if is_cold(ext) else COMPILE_ARGS)[kind]
            ext.extra_link_args = LINK_ARGS[kind]

    def compiler_type(self) -> str:
        from setuptools._distutils.ccompiler import get_default_compiler

        return self.compiler if isinstance(self.compiler, str) else get_default_compiler()


class EggInfo(egg_info):
    """egg_info written into the build directory, unless its caller chose a directory."""

    def finalize_options(self) -> None:
        if self.egg_base is None:
            self.egg_base = self.get_finalized_command("build").build_base
            Path(self.egg_base).mkdir(parents=True, exist_ok=True)
        super().finalize_options()


class Sdist(sdist):
    """sdist without the build directory (where egg_info's file list now is)."""

    def make_release_tree(self, base_dir: str, files: list[str]) -> None:
        build_base = Path(self.get_finalized_command("build").build_base)
        files = [name for name in files if build_base not in Path(name).parents]
        super().make_release_tree(base_dir, files)


# -- the PyPI description -------------------------------------------------------------------

# Fenced code blocks and inline code spans: never links.
_CODE = re.compile(
    r"^ {0,3}([`~]{3,})[^\n]*\n.*?^ {0,3}\1[`~]*[ \t]*$"  # a fenced block
    r"|(?<!`)(`+)(?!`).+?(?<!`)\2(?!`)",  # a code span
    re.M | re.S,
)
# [text](target "title") and ![alt](target): the target, and an optional title.
_LINK = re.compile(r"(!?)\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\(\s*<?([^\s()<>]+)>?(\s+\"[^\"]*\")?\s*\)")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def _masked(text: str) -> tuple[str, list[str]]:
    """``text`` with its code replaced by placeholders (to put back with ``_unmasked``)."""
    code: list[str] = []

    def hide(match: re.Match[str]) -> str:
        code.append(match.group(0))
        return f"\0{len(code) - 1}\0"

    return _CODE.sub(hide, text), code


def _unmasked(text: str, code: list[str]) -> str:
    return re.sub("\0(\\d+)\0", lambda match: code[int(match.group(1))], text)


def pypi_description(readme: str, source_url: str | None) -> str:
    """The README for PyPI: links to files of the repository and images made absolute under
    ``source_url`` (GitHub-style ``/blob/HEAD/`` and ``/raw/HEAD/`` paths), or, without one,
    turned into text naming the file. Links within the page (``#heading``) work there as they
    are: PyPI gives headings GitHub's ids."""
    text, code = _masked(readme)

    def absolute(match: re.Match[str]) -> str:
        bang, label, target, title = match.group(1), match.group(2), match.group(3), match.group(4)
        if target.startswith(("#", "//")) or _SCHEME.match(target):
            return match.group(0)
        if source_url:
            kind = "raw" if bang else "blob"
            return f"{bang}[{label}]({source_url.rstrip('/')}/{kind}/HEAD/{target}{title or ''})"
        path = target.split("#", 1)[0].removeprefix("./")
        if bang:  # a picture PyPI cannot show: say what it is and where it is
            return f"*{label}* (`{path}` in the source repository)"
        if _unmasked(label, code).strip("`") == path:
            return f"`{path}` (in the source repository)"
        return f"{label} (`{path}` in the source repository)"

    return _unmasked(_LINK.sub(absolute, text), code)


def source_url() -> str | None:
    """``[project.urls]``'s Source (or Repository) URL in pyproject.toml, if there is one."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:
        import tomli as tomllib
    with open(HERE / "pyproject.toml", "rb") as file:
        urls = tomllib.load(file)["project"].get("urls", {})
    return urls.get("Source") or urls.get("Repository")


if __name__ == "__main__":  # as setuptools runs it; tests import it for pypi_description
    setup(
        ext_modules=kernel_modules(),
        cmdclass={"build_ext": BuildExt, "egg_info": EggInfo, "sdist": Sdist},
        long_description=pypi_description((HERE / "README.md").read_text(encoding="utf-8"),
                                          source_url()),
        long_description_content_type="text/markdown",
    )
