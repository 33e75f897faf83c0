"""The layers of README's *Layout*: a module imports only from its own layer or lower ones.

The walls this keeps: the engines never reach up into the pipeline, the services, the
command line or the pages, so a page and a command share one way to do each thing.
"""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from import_graph import cycles
from import_graph import engine_imports
from import_graph import module_graph

PACKAGE = Path(__file__).resolve().parents[1] / "qg_studio"

# Lowest first. Every top-level module or package of qg_studio is in exactly one layer.
LAYERS: list[set[str]] = [
    # vocabulary: the shared dataclasses, name registries, safe paths, data files
    {"schema", "scores", "registry", "paths", "lang", "toml", "__init__"},
    # text, stored projects and model loading: no engine, no use case
    {
        "text",
        "reading",
        "answer_kind",
        "evaluate",
        "ingest",
        "grading",
        "story",
        "models",
        "store",
        "mix",
        "trust",
    },
    # engines and formats: each does one job on sections, items or files
    {"generation", "answering", "tagging", "ranking", "export", "data"},
    # composition and measurement of the engines
    {"pipeline", "sectioning_eval", "set_eval"},
    # the use cases, each written once; training recipes (they measure what they trained
    # with the evaluation service)
    {"services", "batch", "train"},
    # the two ways in: the command line and the app
    {"cli", "ui", "__main__"},
]


def _layer(name: str) -> int:
    for index, members in enumerate(LAYERS):
        if name in members:
            return index
    raise AssertionError(f"qg_studio.{name} is in no layer: add it to LAYERS and the README")


def _imports(path: Path) -> set[str]:
    """The qg_studio top-level names a file imports, at module level or inside functions."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = (
                [f"qg_studio.{a.name}" for a in node.names]
                if node.module == "qg_studio"
                else [node.module]
            )
        else:
            continue
        found |= {n.split(".")[1] for n in names if n.startswith("qg_studio.")}
    return found


def _owner(path: Path) -> str:
    return path.relative_to(PACKAGE).parts[0].removesuffix(".py")


FILES = sorted(PACKAGE.rglob("*.py"))


def test_every_module_has_a_layer():
    for path in FILES:
        _layer(_owner(path))


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_import_from_a_higher_layer(path):
    own = _layer(_owner(path))
    upward = sorted(name for name in _imports(path) - {_owner(path)} if _layer(name) > own)
    assert not upward, (
        f"{path.relative_to(PACKAGE.parent)} (layer {own}) imports "
        f"{', '.join(f'qg_studio.{n} (layer {_layer(n)})' for n in upward)}"
    )


def test_the_check_sees_an_upward_import(tmp_path):
    # The test above would pass on an empty list: make sure the parser finds imports.
    sample = tmp_path / "x.py"
    sample.write_text(
        "def f():\n    from qg_studio.services.generation import generate\n"
        "import qg_studio.cli\nfrom qg_studio import ui\n"
    )
    assert _imports(sample) == {"services", "cli", "ui"}


# Every module under qg_studio/ stays short enough to read as one job (issue 13), counted
# as `ruff format` writes it: a long word list is data (qg_studio/lang/en/), not code.
MAX_LINES = 450


def _formatted_lengths(folder: Path, tmp_path: Path) -> dict[str, int]:
    """Line counts of the folder's modules once ``ruff format`` has run on a copy."""
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    if ruff is None:
        pytest.skip("ruff is not installed (pip install -e '.[dev]')")
    copy = tmp_path / folder.name
    shutil.copytree(folder, copy, ignore=shutil.ignore_patterns("__pycache__"))
    config = PACKAGE.parent / "pyproject.toml"
    subprocess.run([ruff, "format", "--quiet", "--config", str(config), str(copy)], check=True)
    return {
        str(p.relative_to(copy)): len(p.read_text(encoding="utf-8").splitlines())
        for p in sorted(copy.rglob("*.py"))
    }


def test_no_module_is_longer_than_450_lines_once_formatted(tmp_path):
    lengths = _formatted_lengths(PACKAGE, tmp_path)
    assert len(lengths) == len(FILES)
    long = {name: n for name, n in lengths.items() if n > MAX_LINES}
    assert not long, f"over {MAX_LINES} lines once formatted (split along a seam): {long}"


def test_the_length_check_counts_formatted_lines(tmp_path):
    # One line of source that the formatter writes as one word a line.
    sample = tmp_path / "sample"
    sample.mkdir()
    words = ", ".join(f'"word{i}"' for i in range(MAX_LINES))
    (sample / "lists.py").write_text(f"WORDS = [{words}]\n", encoding="utf-8")
    assert _formatted_lengths(sample, tmp_path / "out")["lists.py"] > MAX_LINES


# -- engines are siblings; no module imports itself round a circle -------------------------


def test_engines_import_only_what_they_share_not_each_other():
    found = engine_imports(module_graph())
    assert not found, (
        f"an engine imports another: {found} (move what both read to reading/, or let the "
        "pipeline hand one's output to the other, or take it from the registry by name)"
    )


def test_no_circle_of_imports():
    found = cycles(module_graph())
    assert not found, f"modules that import each other round a circle: {found}"


def test_the_graph_sees_imports_inside_functions_and_circles():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == {("a", "b", "c")}
    both = {"generation.x": {"answering.y"}, "answering.y": set(), "reading.z": set()}
    assert engine_imports(both) == {("generation.x", "answering.y")}
    # qg_studio's own graph has the function-level imports: the int8 runtime is imported
    # inside the loader, only when a model loads.
    assert "models.ct2" in module_graph()["models.causal_lm"]
