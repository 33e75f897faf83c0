"""A question set read from JSON (``generate --json`` output, or one a teacher edited):
every field checked before use, so a wrong one is named in one line, never a traceback.
"""

from __future__ import annotations

import math
from typing import Any

from qg_studio.schema import QAItem
from qg_studio.schema import Section


class PayloadError(ValueError):
    pass


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, (int, float)):
        return "NaN" if isinstance(value, float) and not math.isfinite(value) else "a number"
    return {str: "text", list: "a list", dict: "an object"}.get(type(value), type(value).__name__)


def _expect(value: Any, wanted: type | tuple, where: str, what: str) -> Any:
    ok = isinstance(value, wanted) and not isinstance(value, bool)
    if ok and isinstance(value, float) and not math.isfinite(value):
        ok = False
    if not ok:
        raise PayloadError(f"{where} must be {what}, not {_kind(value)}")
    return value


def _nth(where: str, n: int) -> str:
    """ "item 2 field 'answers'" → "item 2 field 'answers[1]'"."""
    return f"{where[:-1]}[{n}]'" if where.endswith("'") else f"{where}[{n}]"


def _texts(value: Any, where: str) -> list[str]:
    if value is None:
        return []
    for n, text in enumerate(_expect(value, list, where, "a list of texts"), start=1):
        _expect(text, str, _nth(where, n), "text")
    return value


def _numbers(value: Any, where: str) -> list[int]:
    if value is None:
        return []
    for n, number in enumerate(_expect(value, list, where, "a list of section numbers"), 1):
        _expect(number, int, _nth(where, n), "a whole number")
    return value


def check_section(data: Any, where: str) -> Section:
    _expect(data, dict, where, "an object")
    _expect(data.get("id"), int, f"{where} field 'id'", "a whole number")
    _expect(data.get("text"), str, f"{where} field 'text'", "text")
    readability = data.get("readability")
    if readability is not None:
        for key, value in _expect(
            readability, dict, f"{where} field 'readability'", "an object"
        ).items():
            _expect(value, (int, float), f"{where} field 'readability.{key}'", "a number")
    try:
        return Section.from_dict(data)
    except (TypeError, ValueError, KeyError) as exc:
        raise PayloadError(f"{where}: {exc}") from None


def check_item(data: Any, where: str) -> QAItem:
    _expect(data, dict, where, "an object")
    field = f"{where} field"
    _expect(data.get("question"), str, f"{field} 'question'", "text")
    _texts(data.get("answers"), f"{field} 'answers'")
    _texts(data.get("second_answers"), f"{field} 'second_answers'")
    _numbers(data.get("sections"), f"{field} 'sections'")
    for name in ("element", "explicitness"):
        _expect(data.get(name), str, f"{field} '{name}'", "text")
    for name in (
        "answer_kind",
        "scope",
        "status",
        "element2",
        "second_explicitness",
        "engine",
        "ref",
    ):
        if data.get(name) is not None:
            _expect(data[name], str, f"{field} '{name}'", "text")
    scores = data.get("scores")
    if scores is not None:
        for key, value in _expect(scores, dict, f"{field} 'scores'", "an object").items():
            _expect(value, (int, float), f"{field} 'scores.{key}'", "a number")
    evidence = data.get("evidence")
    if evidence is not None:
        for n, span in enumerate(_expect(evidence, list, f"{field} 'evidence'", "a list"), 1):
            span_at = f"{field} 'evidence[{n}]'"
            _expect(span, dict, span_at, "an object")
            for key in ("section", "start", "end"):
                _expect(span.get(key), int, f"{span_at}.{key}", "a whole number")
    if data.get("id") is not None:
        _expect(data["id"], int, f"{field} 'id'", "a whole number")
    try:
        return QAItem.from_dict(data)
    except (TypeError, ValueError, KeyError) as exc:  # e.g. an unknown element name
        raise PayloadError(f"{where}: {exc}") from None


def read_set(payload: dict, fallback_title: str) -> tuple[str, list[Section], list[QAItem]]:
    """(title, sections, items) of a ``generate --json`` object; :class:`PayloadError`
    names the first wrong item and field."""
    story = payload.get("story")
    if story is not None:
        _expect(story, dict, "'story'", "an object")
    raw_sections = payload.get("sections")
    where = "'sections'"
    if not raw_sections and isinstance(story, dict) and story.get("sections"):
        raw_sections, where = story["sections"], "'story.sections'"
    if raw_sections is None:
        raw_sections = []
    _expect(raw_sections, list, where, "a list of sections")
    sections = [check_section(s, f"section {n}") for n, s in enumerate(raw_sections, 1)]
    raw_items = payload.get("items")
    raw_items = (
        [] if raw_items is None else _expect(raw_items, list, "'items'", "a list of questions")
    )
    items = [check_item(i, f"item {n}") for n, i in enumerate(raw_items, start=1)]
    title = (story or {}).get("title") or payload.get("title") or fallback_title
    _expect(title, str, "'title'", "text")
    return title, sections, items
