"""The package's layout rules: no import cycles, and no module reads another module's
private attributes (docs/architecture.md)."""

from __future__ import annotations

import ast
from pathlib import Path

import coinsrow

PACKAGE = Path(coinsrow.__file__).resolve().parent
SOURCE_MODULES = sorted(p for p in PACKAGE.glob("*.py"))


def _imports(path: Path) -> set[str]:
    """The coinsrow modules a module imports, at its top or inside functions."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1 and node.module:  # from ._x import y
                found.add(node.module)
            elif node.level == 1:  # from . import _x
                found.update(alias.name for alias in node.names)
            elif node.module and node.module.startswith("coinsrow."):
                found.add(node.module.split(".")[1])
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("coinsrow."):
                    found.add(alias.name.split(".")[1])
    return {name for name in found if (PACKAGE / f"{name}.py").exists()}


def test_no_import_cycles():
    graph = {path.stem: _imports(path) for path in SOURCE_MODULES}
    state: dict[str, int] = {}

    def visit(module: str, trail: list[str]) -> None:
        state[module] = 1
        for other in sorted(graph.get(module, ())):
            assert state.get(other) != 1, "import cycle: " + " -> ".join(trail + [other])
            if other not in state:
                visit(other, trail + [other])
        state[module] = 2

    for module in graph:
        if module not in state:
            visit(module, [module])


def _private_attributes_set_on_self(tree: ast.AST) -> set[str]:
    names = set()
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and node.value.id in ("self", "cls") and node.attr.startswith("_")):
            names.add(node.attr)
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.name.startswith("_"):
            names.add(node.name)
    return names


def test_no_module_reads_another_modules_private_attributes():
    """``x._name`` is allowed only where ``_name`` is an attribute of a class of the same
    module (or a dunder); the compiled core is reached by its public names."""
    offences = []
    for path in SOURCE_MODULES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        own = _private_attributes_set_on_self(tree)
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Attribute) and node.attr.startswith("_")
                    and not node.attr.startswith("__")):
                continue
            base = node.value
            if isinstance(base, ast.Name) and base.id in ("self", "cls"):
                continue
            if node.attr in own:
                continue
            offences.append(f"{path.name}:{node.lineno}: .{node.attr}")
    assert not offences, "private attributes read across modules:\n" + "\n".join(offences)
