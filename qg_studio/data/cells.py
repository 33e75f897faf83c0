"""CSV cells are data, never formulas (docs/DESIGN.md §5), and the guard must round-trip.

A cell that a spreadsheet would run as a formula (it starts with ``= + - @``, a tab or
a carriage return) is written with a leading apostrophe. So that our own readers give
back exactly what was written, the guard also adds an apostrophe to a cell whose
leading apostrophes already precede such a character, and :func:`unguard` removes one:
the pair is a bijection on strings.
"""

from __future__ import annotations

# One test for "a spreadsheet would run this": the exports' (qg_studio.export.safety).
from qg_studio.export.safety import looks_like_formula


def _needs_mark(value: str) -> bool:
    return looks_like_formula(value.lstrip("'"))


def guard(value: str) -> str:
    """The cell text to write for ``value``."""
    return "'" + value if _needs_mark(value) else value


def unguard(value: str) -> str:
    """The value a cell written by :func:`guard` stands for."""
    if value.startswith("'") and _needs_mark(value):
        return value[1:]
    return value
