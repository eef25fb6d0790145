"""The layers of app/ import only downwards (docs/architecture.md): rules ← platform ← storage ←
services ← web ← the app itself (app/__init__.py, app/__main__.py); and the rules import in no
circle. Read from the source (ast), every import, those inside functions too."""

import ast
from pathlib import Path

import pytest

APP = Path(__file__).resolve().parents[2] / "app"
# Each layer, and those it may import besides itself.
MAY_IMPORT = {
    "rules": set(),
    "platform": {"rules"},
    "storage": {"rules", "platform"},
    "services": {"rules", "platform", "storage"},
    "web": {"rules", "platform", "storage", "services"},
}


def _module(path: Path) -> str:
    parts = path.relative_to(APP.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


PATHS = sorted(APP.rglob("*.py"))
KNOWN = {_module(path) for path in PATHS}


def _imports(path: Path) -> set[str]:
    """The app modules this file imports (`from app.x import y` may name a module y of x)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                name = f"{node.module}.{alias.name}"
                names.add(name if name in KNOWN else node.module)
    return names & KNOWN


def _layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in MAY_IMPORT else "app"


MODULES = {_module(path): _imports(path) for path in PATHS}


@pytest.mark.parametrize("layer", MAY_IMPORT)
def test_a_layer_imports_none_above_it(layer):
    upwards = {
        f"{module} imports {name}"
        for module, names in MODULES.items()
        if _layer(module) == layer
        for name in names
        if _layer(name) not in MAY_IMPORT[layer] | {layer}
    }
    assert not upwards


def test_the_rules_import_in_no_circle():
    rules = {module: names for module, names in MODULES.items() if _layer(module) == "rules"}
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> None:
        assert module not in path, " → ".join([*path, module])
        if module not in done:
            for name in rules[module]:
                visit(name, [*path, module])
            done.add(module)

    for module in rules:
        visit(module, [])
