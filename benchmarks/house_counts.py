"""Counts of the house a newcomer reads (issue 30), from the source itself.

    .venv/bin/python benchmarks/house_counts.py [--json]

What each figure counts, so a before/after is the same count:

- engine_imports, import_cycles: the layering test's own graph (tests/import_graph.py),
  imports inside functions included;
- top_modules: .py files directly under qg_studio/;
- inline_word_lists: set, frozenset, list or tuple literals in qg_studio/ of five or more
  one-word lowercase strings (a word list written in code, not in lang/en/);
- word_regexes: distinct regex patterns given to ``re`` that match runs of letters (a word
  tokenizer): they contain ``[a-z`` or ``[A-Za-z`` or ``\\w+``;
- sentence_splitters: regexes that cut text into sentences (a ``[.!?]`` followed by
  whitespace); ``sents_reads`` counts the places that read a parsed doc's ``.sents``
  (before 2026-11-26 the parser placed those boundaries, a rule of its own; since then
  the spaCy pipeline places them by the house rule, so they are no splitter);
- stop_word_lists: stop-word data files, and names bound to a stop-word set written in
  code (``*STOP*`` = a literal; a name bound to a view of the data, ``stop_words(...)``,
  is no list of its own; before 2026-11-26 every ``*STOP*`` name was counted);
- feeling_lexicons: feeling data files and names bound to feeling word sets (``*FEEL*``).
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "qg_studio"
sys.path.insert(0, str(ROOT / "tests"))

from import_graph import cycles  # noqa: E402
from import_graph import engine_imports  # noqa: E402
from import_graph import module_graph  # noqa: E402

_ONE_WORD = re.compile(r"^[a-z][a-z'\-]*$")
_WORD_PATTERN = re.compile(r"\[a-z|\[A-Za-z|\\w\+")
_SENTENCE_PATTERN = re.compile(r"(?:\[\.!\?|\[!\?\.|\[\.\?!)\][^|]*\\s")


def _files() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def _literal_words(node: ast.AST) -> list[str] | None:
    if isinstance(node, ast.Call) and getattr(node.func, "id", "") in ("frozenset", "set"):
        node = node.args[0] if node.args else node
    if isinstance(node, (ast.Set, ast.List, ast.Tuple)):
        values = [e.value for e in node.elts if isinstance(e, ast.Constant)]
        if len(values) == len(node.elts) and all(isinstance(v, str) for v in values):
            return values
    return None


def _literal_text(node: ast.AST) -> str | None:
    """A string literal's text; an f-string's literal parts (its holes left out)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value for v in node.values if isinstance(v, ast.Constant))
    return None


def counts() -> dict:
    inline, word_patterns, splitters, stops, feelings = [], set(), [], set(), set()
    sents_reads: list[str] = []
    for path in _files():
        where = str(path.relative_to(ROOT))
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            words = _literal_words(node)
            if words and len(words) >= 5 and all(_ONE_WORD.match(w) for w in words):
                inline.append(f"{where}:{node.lineno}")
            if isinstance(node, ast.Call) and getattr(node.func, "value", None) is not None:
                if getattr(node.func.value, "id", "") == "re" and node.args:
                    pattern = _literal_text(node.args[0])
                    if pattern is not None:
                        if _WORD_PATTERN.search(pattern) and not _SENTENCE_PATTERN.search(pattern):
                            word_patterns.add(pattern)
                        if _SENTENCE_PATTERN.search(pattern) and node.func.attr in (
                            "split",
                            "compile",
                        ):
                            splitters.append(f"{where}:{node.lineno}")
            if isinstance(node, ast.Attribute) and node.attr == "sents":
                sents_reads.append(f"{where}:{node.lineno}")
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    name = getattr(target, "id", "")
                    if "STOP" in name and _literal_words(node.value):
                        stops.add(f"{where}:{name}")
                    if "FEEL" in name and _literal_words(node.value):
                        feelings.add(f"{where}:{name}")
    resources = PACKAGE / "lang" / "en"
    stops |= {f"lang/en/{p.name}" for p in resources.glob("stop_words*")}
    stops |= {f"resources/{p.name}" for p in (PACKAGE / "resources").glob("stop_words*")}
    feelings |= {f"lang/en/{p.name}" for p in resources.glob("*feeling*")}
    feelings |= {f"resources/{p.name}" for p in (PACKAGE / "resources").glob("*feeling*")}
    graph = module_graph()
    return {
        "engine_imports": sorted(map(list, engine_imports(graph))),
        "import_cycles": sorted(map(list, cycles(graph))),
        "top_modules": len(list(PACKAGE.glob("*.py"))),
        "inline_word_lists": len(inline),
        "word_regexes": len(word_patterns),
        "sentence_splitters": len(splitters),
        "sents_reads": len(sents_reads),
        "stop_word_lists": sorted(stops),
        "feeling_lexicons": sorted(feelings),
        "where": {
            "inline_word_lists": inline,
            "sentence_splitters": splitters,
            "word_regexes": sorted(word_patterns),
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true", help="everything, with where")
    args = parser.parse_args()
    found = counts()
    if args.json:
        print(json.dumps(found, indent=1))
        return
    for key, value in found.items():
        if key != "where":
            print(f"{key}: {len(value) if isinstance(value, list) else value}")


if __name__ == "__main__":
    main()
