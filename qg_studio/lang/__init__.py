"""The language data (``lang/en/``: word lists, the feeling and stop-word tables, the
benchmark story), each file loaded once.

They are data, not code, so a teacher or a linguist can change a list without touching
Python; ``pyproject.toml`` ships them with the package. One folder per language: English
is the only one so far.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

LANGUAGE = "en"
HERE = Path(__file__).resolve().parent / LANGUAGE


@lru_cache(maxsize=None)
def text(name: str) -> str:
    return (HERE / name).read_text(encoding="utf-8")


@lru_cache(maxsize=None)
def words(name: str) -> frozenset[str]:
    """A word list: one entry a line, ``#`` starts a comment, case kept as written."""
    entries = (line.split("#", 1)[0].strip() for line in text(name).splitlines())
    return frozenset(e for e in entries if e)


@lru_cache(maxsize=None)
def data(name: str) -> dict:
    """A JSON data file (a map or groups of words); callers read it, never change it."""
    return json.loads(text(name))


@lru_cache(maxsize=None)
def table(name: str) -> tuple[dict[str, str], ...]:
    """A tab-separated table: ``#`` lines are comments, the first other line names the
    columns; each row a dict by column (an empty cell is "")."""
    lines = [line for line in text(name).splitlines() if line and not line.startswith("#")]
    columns = lines[0].split("\t")
    return tuple(
        dict(zip(columns, (line.split("\t") + [""] * len(columns))[: len(columns)]))
        for line in lines[1:]
    )


@lru_cache(maxsize=None)
def function_words(group: str) -> tuple[str, ...]:
    """A group of closed-class words (function_words.json), in its order."""
    groups = data("function_words.json")
    if group not in groups or group.startswith("_"):
        raise KeyError(f"no function-word group {group!r} in function_words.json")
    return tuple(groups[group]["words"])
