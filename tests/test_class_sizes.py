"""No class under ``app/`` has more than 25 methods: a class that needs more does two jobs,
and is split by job (``tables.table`` / ``tables.turns`` / ``tables.authority``, say)."""

from __future__ import annotations

import ast
from pathlib import Path

APP = Path(__file__).resolve().parent.parent / "app"
MOST = 25


def method_counts(root: Path = APP) -> dict[str, int]:
    """Each class under ``root`` (``path:Name``) with the methods its own body defines,
    properties, static and class methods included."""
    counts: dict[str, int] = {}
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ClassDef):
                methods = [
                    item
                    for item in node.body
                    if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef)
                ]
                counts[f"{path.relative_to(root.parent)}:{node.name}"] = len(methods)
    return counts


def test_no_class_under_app_has_more_than_25_methods() -> None:
    counts = method_counts()
    assert counts, "no class found: the walk is broken"
    too_big = {name: count for name, count in counts.items() if count > MOST}
    assert not too_big, f"classes with more than {MOST} methods: {too_big}"


def test_the_count_sees_every_kind_of_method(tmp_path: Path) -> None:
    root = tmp_path / "pkg"
    root.mkdir()
    (root / "m.py").write_text(
        "class A:\n"
        "    x = 1\n"
        "    def a(self): ...\n"
        "    async def b(self): ...\n"
        "    @property\n    def c(self): ...\n"
        "    @staticmethod\n    def d(): ...\n"
        "    class Inner:\n        def e(self): ...\n"
    )
    assert method_counts(root) == {"pkg/m.py:A": 4, "pkg/m.py:Inner": 1}
