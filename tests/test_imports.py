"""The modules under ``app/`` import one another without a cycle.

The graph counts every import a module makes: at its top, under ``if TYPE_CHECKING:`` and
inside functions, since a cycle hidden in any of them still ties two modules together.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

APP = Path(__file__).resolve().parent.parent / "app"


def module_names(root: Path = APP) -> dict[str, Path]:
    """Every module under ``root`` by its dotted name (a package by its own name)."""
    modules: dict[str, Path] = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


def imported(name: str, path: Path, modules: dict[str, Path]) -> Iterator[str]:
    """The modules of ``modules`` that module ``name`` imports, wherever the import is."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield from _known(alias.name, modules)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            names = [f"{base}.{alias.name}" for alias in node.names]
            yield from (name for name in names if name in modules)  # from package import module
            if any(name not in modules for name in names):  # a name the module itself defines
                yield from _known(base, modules)


def _known(dotted: str, modules: dict[str, Path]) -> Iterator[str]:
    """The module ``dotted`` names, or the nearest package of it that is under ``app``."""
    while dotted:
        if dotted in modules:
            yield dotted
            return
        dotted = dotted.rpartition(".")[0]


def import_graph(modules: dict[str, Path]) -> dict[str, set[str]]:
    """Each module with the modules it imports (itself left out)."""
    return {
        name: {other for other in imported(name, path, modules) if other != name}
        for name, path in modules.items()
    }


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component: list[str] = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_module_under_app_is_part_of_an_import_cycle() -> None:
    graph = import_graph(module_names())
    found = cycles(graph)
    assert not found, "import cycles under app/:\n" + "\n".join(
        " <-> ".join(component) for component in found
    )


def test_the_areas_under_app_depend_on_one_another_in_one_direction() -> None:
    """Modules folded into their area (``app.tables``, ``app.players``, ...): no cycle either,
    so each area can be read with only the ones below it in mind."""
    areas: dict[str, set[str]] = {}
    for name, targets in import_graph(module_names()).items():
        area = ".".join(name.split(".")[:2])
        areas.setdefault(area, set()).update(".".join(target.split(".")[:2]) for target in targets)
    found = cycles({area: targets - {area} for area, targets in areas.items()})
    assert not found, "areas that import one another:\n" + "\n".join(
        " <-> ".join(component) for component in found
    )


def test_the_graph_sees_imports_under_type_checking_and_in_functions(tmp_path: Path) -> None:
    """The finder itself: a cycle made only of a ``TYPE_CHECKING`` import and a function-local
    relative one is found, and so is ``from package import module``."""
    root = tmp_path / "pkg"
    (root / "sub").mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (root / "sub" / "__init__.py").write_text("")
    (root / "a.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.sub.b import B\n"
    )
    (root / "sub" / "b.py").write_text("def f():\n    from .. import a\n")
    (root / "c.py").write_text("from pkg.sub import b\nimport pkg.a\n")
    graph = import_graph(module_names(root))
    assert graph["pkg.a"] == {"pkg.sub.b"}
    assert graph["pkg.sub.b"] == {"pkg.a"}
    assert graph["pkg.c"] == {"pkg.sub.b", "pkg.a"}
    assert cycles(graph) == [["pkg.a", "pkg.sub.b"]]
