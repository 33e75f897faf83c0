"""qg_studio's import graph, read from the source: every import, those inside functions
too. The layering test asserts on it; ``benchmarks/house_counts.py`` counts with it."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "qg_studio"
ENGINES = {"generation", "answering", "tagging", "ranking"}


def _module(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def module_graph() -> dict[str, set[str]]:
    """Module → the qg_studio modules it imports, at module level or inside functions
    (``from qg_studio.x import y`` counts as importing ``x.y`` when that is a module)."""
    modules = {_module(p): p for p in sorted(PACKAGE.rglob("*.py"))}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        found = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                targets = [f"{node.module}.{a.name}" for a in node.names] + [node.module]
            else:
                continue
            for target in targets:
                if target.startswith("qg_studio."):
                    inner = target.removeprefix("qg_studio.")
                    if inner in modules and inner != name:
                        found.add(inner)
        graph[name] = found
    return graph


def engine_imports(graph: dict[str, set[str]]) -> set[tuple[str, str]]:
    def engine(module: str) -> str:
        return module.split(".")[0]

    return {
        (a, b)
        for a, targets in graph.items()
        for b in targets
        if engine(a) in ENGINES and engine(b) in ENGINES and engine(a) != engine(b)
    }


def cycles(graph: dict[str, set[str]]) -> set[tuple[str, ...]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: set[tuple[str, ...]] = set()

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                found.add(tuple(sorted(group)))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found
