"""Data files the code reads (word lists, the benchmark story), each loaded once.

They are data, not code, so a teacher or a linguist can change a list without touching
Python; ``pyproject.toml`` ships them with the package.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

HERE = Path(__file__).resolve().parent


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
