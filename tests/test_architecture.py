"""The maps of the house against the house: docs/architecture.md and CONTRIBUTING.md
against the code they describe.

- Every kernel the Python layer calls is written in full where it is called (grep finds
  the caller), and no module builds a kernel's name from pieces, except the one place that
  adds a twin's suffix (``_dispatch.twins``).
- The table "Which kernel answers which call" names, for each public call, a kernel that
  its Python module calls, that its compiled module defines, with its twin, and Fusion
  loops that exist.
- The layer list is true: every import of every module goes to a lower layer.
- Every file that the two pages name exists.

The pages are read, not copied here: a name changed on a page is checked as it is written.
"""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import pytest

from coinsrow import _core

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "coinsrow"
CORE = PACKAGE / "_core"
ARCHITECTURE = ROOT / "docs" / "architecture.md"
CONTRIBUTING = ROOT / "CONTRIBUTING.md"

# Names of _core.__all__ that the Python layer does not use: the tests and the benchmarks
# read them (the scratch memory kept between calls, the window structure's int64 limit).
NOT_CALLED_FROM_PYTHON = {"scratch_kept", "scratch_release", "WINDOW_INT64_LIMIT"}
# The one place that adds a twin's suffix to a kernel's name (module, function).
TWIN_SUFFIX_PLACE = ("_dispatch", "twins")


def _is_twin(name: str) -> bool:
    return name.endswith(("_exact", "Exact"))


def _modules() -> list[Path]:
    return sorted(PACKAGE.glob("*.py"))


@cache
def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring constants of a module, its classes and functions."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if (body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
                    and isinstance(body[0].value.value, str)):
                found.add(id(body[0].value))
    return found


@cache
def _written_names(path: Path) -> frozenset[str]:
    """What the code of a module writes in full: its string constants (docstrings aside),
    names, attributes and imported names."""
    tree = _tree(path)
    docstrings = _docstrings(tree)
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in docstrings:
                names.add(node.value)
        elif isinstance(node, ast.Name):
            names.add(node.id)
        elif isinstance(node, ast.Attribute):
            names.add(node.attr)
        elif isinstance(node, ast.alias):
            names.add(node.asname or node.name)
    return frozenset(names)


def _kernel_names() -> list[str]:
    return [name for name in _core.__all__ if not _is_twin(name)]


# -- kernel names written in full ---------------------------------------------------------


def test_every_kernel_the_python_layer_calls_is_written_in_full():
    written = set().union(*(_written_names(path) for path in _modules()))
    missing = [name for name in _kernel_names()
               if name not in NOT_CALLED_FROM_PYTHON and name not in written]
    assert not missing, f"kernels written in full in no coinsrow/*.py: {missing}"
    # The exceptions are names of _core that really are not used: the list cannot rot.
    assert set(_core.__all__) >= NOT_CALLED_FROM_PYTHON
    used = sorted(NOT_CALLED_FROM_PYTHON & written)
    assert not used, f"{used} are used by coinsrow/*.py: take them off NOT_CALLED_FROM_PYTHON"


def test_forest_kernels_are_found_by_grep():
    """The calls the issue could not follow: each is in the source text of _game."""
    text = (PACKAGE / "_game.py").read_text(encoding="utf-8")
    for name in ("forest_value", "forest_profits", "forest_play", "game_value",
                 "game_profits", "game_play"):
        assert re.search(rf"\"{name}\"", text), name


def _fragments() -> set[str]:
    """The pieces a kernel's name could be built from: every proper prefix ending in "_"
    and every proper suffix starting with "_" of the names of _core (twins included), and
    the class twins' suffix "Exact"."""
    pieces = {"Exact"}
    for name in _core.__all__:
        for i, char in enumerate(name):
            if char == "_" and 0 < i < len(name) - 1:
                pieces.add(name[:i + 1])
                pieces.add(name[i:])
    return pieces


def _enclosing_functions(tree: ast.Module) -> dict[int, str]:
    """The id of every node, mapped to the name of the function it is in (if any)."""
    owner: dict[int, str] = {}
    for function in ast.walk(tree):
        if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for node in ast.walk(function):
                owner.setdefault(id(node), function.name)
    # (ast.walk visits outer functions first: a nested function's nodes keep the outer
    # name, which is the one a reader greps.)
    return owner


def _static_strings(node: ast.AST) -> list[str] | None:
    """The strings an expression can be, when it is written out: a constant or a
    conditional of them; None otherwise."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        body, orelse = _static_strings(node.body), _static_strings(node.orelse)
        if body is not None and orelse is not None:
            return body + orelse
    return None


def _local_strings(tree: ast.Module,
                   owner: dict[int, str]) -> dict[tuple[str | None, str], list[str]]:
    """(function, variable) -> the strings a variable is given, for the variables given only
    strings written out (constants or conditionals of them)."""
    given: dict[tuple[str | None, str], list[str] | None] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            values = _static_strings(node.value)
            for target in node.targets:
                if isinstance(target, ast.Name):
                    key = (owner.get(id(node)), target.id)
                    known = given.get(key, [])
                    given[key] = None if values is None or known is None else known + values
    return {key: values for key, values in given.items() if values is not None}


def _assembled_names(path: Path) -> list[tuple[int, str, str | None]]:
    """(line, the piece, the function) of every string built by +, % or an f-string, or
    ``.format``, from a piece of a kernel's name; and of every ``getattr(_core, x)`` with
    ``x`` not written in full."""
    tree = _tree(path)
    owner = _enclosing_functions(tree)
    pieces = _fragments()
    found: list[tuple[int, str, str | None]] = []

    assigned = _local_strings(tree, owner)

    def pieces_of(node: ast.AST, function: str | None, template: bool) -> list[str]:
        values = _static_strings(node)
        if values is None and isinstance(node, ast.Name):
            values = assigned.get((function, node.id))
        found = []
        for value in values or ():
            # A template ("batch_%s", "{}_profits"): the text around its placeholders.
            parts = re.split(r"%[sdr]|\{[^}]*\}", value) if template else [value]
            found += [part for part in parts if part in pieces]
        return found

    for node in ast.walk(tree):
        candidates: list[ast.AST] = []
        template = False
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            candidates = [node.left, node.right]
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
            candidates, template = [node.left], True
        elif isinstance(node, ast.JoinedStr):
            candidates = list(node.values)
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr == "format"):
            candidates, template = [node.func.value], True
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id == "getattr" and len(node.args) >= 2
              and isinstance(node.args[0], ast.Name) and node.args[0].id == "_core"
              and not isinstance(node.args[1], ast.Constant)):
            found.append((node.lineno, "getattr(_core, ...)", owner.get(id(node))))
            continue
        for candidate in candidates:
            found += [(node.lineno, piece, owner.get(id(node)))
                      for piece in pieces_of(candidate, owner.get(id(node)), template)]
    return found


def test_no_module_assembles_a_kernel_name():
    places = []
    for path in _modules():
        for line, piece, function in _assembled_names(path):
            if (path.stem, function) != TWIN_SUFFIX_PLACE:
                places.append(f"coinsrow/{path.name}:{line} ({piece!r} in {function})")
    assert not places, "kernel names built from pieces: " + "; ".join(places)


def test_the_twin_suffix_is_added_in_one_place():
    module, function = TWIN_SUFFIX_PLACE
    pieces = {piece for _, piece, owner in _assembled_names(PACKAGE / f"{module}.py")
              if owner == function}
    assert pieces == {"Exact", "_exact", "getattr(_core, ...)"}


def test_the_static_check_sees_assembled_names(tmp_path):
    """The check itself: each way of building a kernel's name is caught."""
    sample = tmp_path / "sample.py"
    sample.write_text(
        "from coinsrow import _core\n"
        "def a(name, forest):\n"
        "    return ('forest_' if forest else 'game_') + name\n"
        "def b(name):\n"
        "    return f'row_{name}'\n"
        "def c(name):\n"
        "    return getattr(_core, name + '_exact')\n"
        "def d(name):\n"
        "    return 'batch_%s' % name\n"
        "def e(name):\n"
        "    return '{}_profits'.format(name)\n"
        "def fine(forest):\n"
        "    return 'forest_profits' if forest else 'game_profits'\n",
        encoding="utf-8")
    functions = sorted({function for _, _, function in _assembled_names(sample)})
    assert functions == ["a", "b", "c", "d", "e"]


KERNEL_CALLERS = {"run": 1, "kernels": 0}  # _dispatch's functions: where the name is


def test_every_run_names_a_kernel_of_the_core():
    """Every ``run(coins, "name", ...)`` (and ``kernels("name", kind)``) names a kernel of
    ``_core.__all__`` in full: a constant, a conditional of constants, or a local variable
    given only such values; only ``_dispatch.run`` passes its own argument on."""
    kernels = set(_kernel_names())
    problems = []
    calls = 0
    for path in _modules():
        tree = _tree(path)
        owner = _enclosing_functions(tree)
        assigned = _local_strings(tree, owner)
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in KERNEL_CALLERS):
                continue
            position = KERNEL_CALLERS[node.func.id]
            if len(node.args) <= position:
                continue
            function = owner.get(id(node))
            if (path.stem, function) == ("_dispatch", "run"):
                continue
            argument = node.args[position]
            values = _static_strings(argument)
            if values is None and isinstance(argument, ast.Name):
                values = assigned.get((function, argument.id))
            calls += 1
            where = f"coinsrow/{path.name}:{node.lineno}"
            if values is None:
                problems.append(f"{where}: the kernel's name is not written in full")
            else:
                problems += [f"{where}: {v!r} is not a kernel of _core" for v in values
                             if v not in kernels]
    assert calls >= 15  # the check found the calls
    assert not problems, "; ".join(problems)


# -- the table of calls and kernels -------------------------------------------------------


def _section(text: str, title: str) -> str:
    start = text.index(f"## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start:end if end >= 0 else len(text)]


def _table_rows() -> list[list[str]]:
    section = _section(ARCHITECTURE.read_text(encoding="utf-8"),
                       "Which kernel answers which call")
    lines = [line for line in section.splitlines() if line.startswith("|")]
    header = [cell.strip() for cell in lines[0].strip("|").split("|")]
    assert header == ["public call", "fast path", "kernel", "Python module", "`_core` module",
                      "exact twin", "machine Fusion loop"]
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in lines[2:]]


def _ticked(cell: str) -> list[str]:
    return re.findall(r"`([^`]+)`", cell)


TABLE_ROWS = _table_rows()


def test_the_table_covers_the_public_calls():
    calls = " ".join(row[0] for row in TABLE_ROWS)
    for call in ("`value(row)`", "`profits(row)`", "`play(row)`", "`best_move(row)`",
                 "`Game.value()`", "`Game.profits()`", "`Game.play()`", "`Game.best_move()`",
                 "`Engine`", "`Intervals`", "`pizza`", "`values_many`", "`profits_many`",
                 "`cooperative_max`"):
        assert call in calls, call
    assert "forest" in calls


def _defines(source: str, name: str) -> bool:
    return re.search(rf"^(?:def|cpdef|cdef class|class)\s+{name}\b", source, re.M) is not None


def _core_source(module: str) -> str:
    paths = [CORE / f"{module}{suffix}" for suffix in (".pyx", ".pyx.tp", ".pxd")]
    return "\n".join(p.read_text(encoding="utf-8") for p in paths if p.exists())


@pytest.mark.parametrize("row", TABLE_ROWS, ids=[row[0] for row in TABLE_ROWS])
def test_a_row_of_the_table_is_true(row):
    _, fast, kernel_cell, python_cell, core_cell, twin_cell, fusion = row
    (python_module,) = _ticked(python_cell)
    (core_module,) = _ticked(core_cell)
    kernels, twins = _ticked(kernel_cell), _ticked(twin_cell)
    assert kernels and len(kernels) == len(twins)
    python_path = PACKAGE / f"{python_module}.py"
    written = _written_names(python_path)
    core = _core_source(core_module)
    assert core, f"no coinsrow/_core/{core_module}.pyx"
    for kernel, twin in zip(kernels, twins):
        assert kernel in written, f"{kernel} is not written in coinsrow/{python_module}.py"
        assert _defines(core, kernel), f"{kernel} is not defined in _core/{core_module}"
        assert kernel in _core.__all__ and twin in _core.__all__
        suffix = "Exact" if isinstance(getattr(_core, kernel), type) else "_exact"
        assert twin == kernel + suffix
        assert callable(getattr(_core, twin))
    if fast != "none":
        (fast_call, *_) = _ticked(fast)
        module, function = fast_call.split(".")
        assert module == "short_rows"
        assert _defines(_core_source("_short_rows"), function)
        assert re.search(rf"\bshort_rows\.{function}\(", python_path.read_text("utf-8"))
    loops = [name for name in _ticked(fusion) if "." in name]
    assert loops or fusion.startswith("none"), fusion
    for loop in loops:
        module, function = loop.split(".")
        assert re.search(rf"^cdef\b[^\n]*\b{function}\(", _core_source(module), re.M), loop


# The pages' one exception to "X_exact beside X": the one-row kernels share their twins'
# module with the game kernels.
TWIN_MODULES = {"_one_row": "_rows_exact"}


def test_every_twin_is_in_the_exact_module_beside_its_kernel():
    """architecture.md and CONTRIBUTING: the twin of a kernel of ``X`` is in ``X_exact``
    (the one exception, named on both pages, in TWIN_MODULES)."""
    checked = 0
    for name in _kernel_names():
        kernel = getattr(_core, name)
        twin_name = name + ("Exact" if isinstance(kernel, type) else "_exact")
        if twin_name not in _core.__all__:
            continue
        module = kernel.__module__.rsplit(".", 1)[1]
        twin_module = getattr(_core, twin_name).__module__.rsplit(".", 1)[1]
        assert twin_module == TWIN_MODULES.get(module, module + "_exact"), name
        checked += 1
    assert checked >= 15
    text = ARCHITECTURE.read_text(encoding="utf-8") + CONTRIBUTING.read_text(encoding="utf-8")
    for module, twin_module in TWIN_MODULES.items():
        assert re.search(rf"`{module}` have theirs\s+in `{twin_module}\.pyx`", text), module


def test_the_fusion_loops_named_in_the_section_exist():
    section = _section(ARCHITECTURE.read_text(encoding="utf-8"),
                       "Which kernel answers which call")
    loops = set(re.findall(r"`(_\w+)\.(_\w+)`", section))
    assert {module for module, _ in loops} >= {"_rows", "_row_stack", "_short_rows"}
    for module, function in loops:
        assert re.search(rf"^cdef\b[^\n]*\b{function}\(", _core_source(module), re.M), \
            f"{module}.{function}"


# -- the layers ---------------------------------------------------------------------------


def _layers() -> dict[str, int]:
    text = ARCHITECTURE.read_text(encoding="utf-8")
    block = re.search(r"Modules import downwards only.*?```\n(.*?)```", text, re.S)
    assert block is not None
    layers: dict[str, int] = {}
    for line in block.group(1).splitlines():
        number, _, rest = line.partition("  ")
        names = re.sub(r"\(.*?\)", "", rest).replace(",", " ").split()
        for name in names:
            assert name not in layers, f"{name} is in two layers"
            layers[name] = int(number)
    return layers


def _imports(path: Path) -> set[str]:
    """The coinsrow modules that a module imports (anywhere in it), _core aside."""
    found = set()
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                found.add(node.module.split(".")[0])
            else:
                found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module and \
                node.module.startswith("coinsrow."):
            found.add(node.module.split(".")[1])
    return found - {"_core"}


def test_the_layer_list_names_every_module():
    layers = _layers()
    modules = {path.stem for path in _modules()} - {"__init__"}
    assert set(layers) == modules


def test_every_import_goes_to_a_lower_layer():
    layers = _layers()
    upward = []
    for path in _modules():
        if path.stem == "__init__":  # the public names, each imported when first used
            continue
        for imported in _imports(path):
            if layers[imported] >= layers[path.stem]:
                upward.append(f"{path.stem} (layer {layers[path.stem]}) imports {imported} "
                              f"(layer {layers[imported]})")
    assert not upward, "; ".join(upward)


# -- the files the pages name -------------------------------------------------------------

PLACEHOLDERS = {"X", "X_exact", "NAME", "name"}
SEARCHED = ("", "coinsrow", "coinsrow/_core", "docs", "tests", "benchmarks",
            "benchmarks/results")


def _exists(name: str, relative_to: Path) -> bool:
    name = name.rstrip("/")
    if (relative_to / name).exists():
        return True
    return any((ROOT / folder / name).exists() for folder in SEARCHED)


def _named_files(text: str) -> set[str]:
    names = set(re.findall(r"(?<![\w/.-])((?:coinsrow|docs|tests|benchmarks|\.ci)/[\w./-]*\w/?)",
                           text))
    for ticked in re.findall(r"`([^`\s]+)`", text):
        if re.fullmatch(r"[\w./-]+\.(?:py|pyx|pxd|pyi|md|toml|tp|cfg|txt|json)", ticked):
            stem = ticked.rsplit("/", 1)[-1].split(".")[0]
            if stem not in PLACEHOLDERS:
                names.add(ticked)
    names.update(re.findall(r"\]\(([\w./-]+\.md)\)", text))
    return names


@pytest.mark.parametrize("page", [ARCHITECTURE, CONTRIBUTING], ids=lambda p: p.name)
def test_every_file_the_page_names_exists(page):
    names = _named_files(page.read_text(encoding="utf-8"))
    assert len(names) >= 5
    missing = sorted(name for name in names if not _exists(name, page.parent))
    assert not missing, f"{page.name} names files that do not exist: {missing}"


def test_every_file_of_the_layout_exists():
    """The Layout block of architecture.md: coinsrow/'s files, and _core/'s modules (a name
    without a suffix is a module: its .pyx, .pyx.tp or .pxd)."""
    section = _section(ARCHITECTURE.read_text(encoding="utf-8"), "Layout")
    block = section.split("```")[1]
    checked = 0
    in_core = False
    for line in block.splitlines()[1:]:
        match = re.match(r"( *)([\w./]+(?:, [\w./]+)*)", line)
        if not match or len(match.group(1)) > 4 or not match.group(2).startswith("_"):
            continue
        indent = len(match.group(1))
        if indent == 2:
            in_core = match.group(2) == "_core/"
        for name in match.group(2).split(", "):
            folder = CORE if indent == 4 and in_core else PACKAGE
            if "." in name or name.endswith("/"):
                assert (folder / name).exists(), f"{folder.relative_to(ROOT)}/{name}"
            elif name == "_cyutility":  # Cython's runtime: generated by setup.py
                assert "._cyutility" in (ROOT / "setup.py").read_text(encoding="utf-8")
            else:
                assert any((folder / f"{name}{suffix}").exists()
                           for suffix in (".pyx", ".pyx.tp", ".pxd")), name
            checked += 1
    assert checked >= 30


# -- private attributes -------------------------------------------------------------------


def _defined_names(tree: ast.Module) -> set[str]:
    """The names a module defines: functions, classes, variables, attributes it sets, and
    strings it writes (``__slots__``)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            names.add(node.value)
    return names


# What a framework's base class offers its subclasses under a private-looking name (PettingZoo's
# AECEnv: the rewards' bookkeeping and the step of an agent that is done), used by _aec.
FRAMEWORK_HOOKS = {"_accumulate_rewards", "_was_dead_step"}


def test_no_module_reads_another_modules_private_names():
    """architecture.md: "No module reads another's private attributes". A private attribute
    read (``x._name``) must be one the module itself defines; no private name is imported
    from another module. (_core's compiled modules are the Python layer's own, read through
    the manifest.)"""
    reads = []
    for path in _modules():
        tree = _tree(path)
        own = _defined_names(tree) | FRAMEWORK_HOOKS
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and node.attr.startswith("_")
                    and not node.attr.startswith("__") and node.attr not in own
                    and not (isinstance(node.value, ast.Name) and node.value.id == "_core")):
                reads.append(f"coinsrow/{path.name}:{node.lineno}: {ast.unparse(node)}")
            elif isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
                reads += [f"coinsrow/{path.name}:{node.lineno}: imports {alias.name} from "
                          f"{node.module}" for alias in node.names
                          if alias.name.startswith("_") and not alias.name.startswith("__")]
    assert not reads, "; ".join(reads)


# -- small files --------------------------------------------------------------------------

MAX_LINES = 1000


# The source files: the package's, the tests', the benchmarks', the documentation's examples
# and setup.py (Python, Cython, stubs, templates, C and the pages' stylesheets and scripts).
SOURCE_SUFFIXES = {".py", ".pyx", ".pxd", ".pyi", ".tp", ".c", ".css", ".js"}


def test_no_source_file_is_over_1000_lines():
    """CONTRIBUTING: small modules, one concept each; test files split by concept too."""
    sources = [ROOT / "setup.py"] + [
        path for folder in ("coinsrow", "tests", "benchmarks", "docs")
        for path in sorted((ROOT / folder).rglob("*")) if path.suffix in SOURCE_SUFFIXES]
    long = {str(path.relative_to(ROOT)): count for path in sources
            if (count := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert not long, f"over {MAX_LINES} lines: {long}"
