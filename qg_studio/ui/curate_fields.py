"""What the Curate page does with a question, apart from drawing it: reading typed
values, saving table edits, marking evidence, answering and tagging a hand-written one."""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

import pandas as pd

from qg_studio.mix import whole_counts
from qg_studio.schema import AnswerKind
from qg_studio.schema import Element
from qg_studio.schema import Evidence
from qg_studio.schema import Explicitness
from qg_studio.schema import GenerationRequest
from qg_studio.schema import QAItem
from qg_studio.schema import ReviewStatus
from qg_studio.schema import Section
from qg_studio.services.curation import edit_item
from qg_studio.store import Store
from qg_studio.trust import MARK_SYMBOLS
from qg_studio.trust import mark
from qg_studio.ui.state import current_actor
from qg_studio.ui.text import quoted

STATUS_LABELS = {"unreviewed": "Not reviewed", "kept": "Keep", "dropped": "Drop"}
TABLE_FIELDS = {  # table column -> QAItem field
    "Status": "status",
    "Question": "question",
    "Answers": "answers",
    "Element": "element",
    "Explicitness": "explicitness",
    "Answer kind": "answer_kind",
    "Sections": "sections",
}


def parse_answers(text: str) -> list[str]:
    """Answers are typed one per line or separated by " | "."""
    parts = [p for line in str(text).splitlines() for p in line.split("|")]
    return [p.strip() for p in parts if p.strip()]


def parse_sections(text: Any, known: Sequence[int]) -> list[int]:
    if isinstance(text, (list, tuple)):
        values = [int(v) for v in text]
    else:
        values = [
            int(v) for v in str(text).replace(";", ",").replace(" ", ",").split(",") if v.strip()
        ]
    unknown = [v for v in values if v not in known]
    if unknown:
        raise ValueError(f"no section {', '.join(map(str, unknown))} in this story")
    return values


def table(items: Sequence[QAItem], positions: dict[int, int]) -> pd.DataFrame:
    """The questions as Curate's table: the mark a teacher checks first (sure, check this,
    likely wrong) comes right after the number, its reason last."""
    rows = []
    for item in items:
        verdict, why = mark(item)
        rows.append(
            {
                "#": positions[item.id],
                "Mark": MARK_SYMBOLS.get(verdict, ""),
                "Status": item.status.value,
                "Question": item.question,
                "Answers": " | ".join(item.answers),
                "Element": item.element.value,
                "Explicitness": item.explicitness.value,
                "Answer kind": item.answer_kind.value,
                "Sections": ", ".join(str(s) for s in item.sections),
                "Engine": item.engine,
                "Confidence": None
                if item.scores.confidence is None
                else round(item.scores.confidence, 2),
                "Why": why,
            }
        )
    return pd.DataFrame(rows, columns=["#", "Mark", *TABLE_FIELDS, "Engine", "Confidence", "Why"])


def apply_table_edits(
    store: Store,
    story_id: int,
    shown: Sequence[QAItem],
    edited_rows: dict,
    section_ids: Sequence[int],
) -> list[str]:
    """Save the data editor's ``edited_rows`` ({row: {column: value}}); returns problems.

    A value that cannot be right (an empty question, an unknown section) is refused and
    the saved value kept, so bad input never loses the teacher's earlier work.
    """
    problems: list[str] = []
    for row, columns in sorted(edited_rows.items(), key=lambda kv: int(kv[0])):
        item = shown[int(row)]
        changes: dict[str, Any] = {}
        for column, value in columns.items():
            if column == "#":
                if value is not None:
                    store.move_item(item.id, int(value) - 1, actor=current_actor())
                continue
            field = TABLE_FIELDS.get(column)
            if field is None:
                continue
            try:
                changes[field] = field_value(field, value, section_ids)
            except ValueError as exc:
                problems.append(f"{quoted(item.question, 50)}: {exc}; the saved value is kept.")
        if changes:
            edit_item(store, story_id, item.id, current_actor(), **changes)
    return problems


def field_value(field: str, value: Any, section_ids: Sequence[int]) -> Any:
    if field == "question":
        text = " ".join(str(value or "").split())
        if not text:
            raise ValueError("a question cannot be empty")
        return text
    if field == "answers":
        answers = parse_answers(value or "")
        if not answers:
            raise ValueError("a question needs an answer")
        return answers
    if field == "sections":
        return parse_sections(value or "", section_ids)
    if field == "distractors":  # none: the quiz export chooses them
        return [line.strip() for line in str(value or "").splitlines() if line.strip()]
    if value is None:
        raise ValueError(f"{field.replace('_', ' ')} cannot be empty")
    enum = {
        "status": ReviewStatus,
        "element": Element,
        "explicitness": Explicitness,
        "answer_kind": AnswerKind,
    }[field]
    return enum.parse(value).value


def highlight(section: Section, evidence: Sequence[Evidence], answer: str = "") -> str:
    """The section as HTML with its evidence spans (or else the answer) marked."""
    spans = sorted(
        (e.start, e.end)
        for e in evidence
        if e.section == section.id and 0 <= e.start < e.end <= len(section.text)
    )
    if not spans and answer:
        found = Evidence.find(section, answer)
        if found is not None:
            spans = [(found.start, found.end)]
    out, at = [], 0
    for start, end in spans:
        if start < at:
            continue
        out.append(html.escape(section.text[at:start]))
        out.append(f"<mark>{html.escape(section.text[start:end])}</mark>")
        at = end
    out.append(html.escape(section.text[at:]))
    return "".join(out).replace("\n", "<br>")


def requested_counts(settings: dict, n_sections: int) -> tuple[dict[str, int], float | None]:
    """What the teacher asked for on the Generate page, if it was saved with the project."""
    raw = settings.get("request") or settings.get("generation") or {}
    if not isinstance(raw, dict) or not raw:
        return {}, None
    try:
        request = GenerationRequest.from_dict(raw)
    except (TypeError, ValueError):
        return {}, None
    wanted = {e.value: n for e, n in whole_counts(request, n_sections).items()}
    return wanted, request.implicit_share


# -- engines (optional: the page works with manual labels when they are missing) -------


def answer_and_tag(
    question: str,
    sections: Sequence[Section],
    section_ids: list[int] | None,
    typed_answer: str = "",
) -> tuple[dict[str, Any], list[str]]:
    """Fields for a hand-written question from the answerer and the tagger, with notes
    (:func:`qg_studio.services.answers.answer_and_label`: a typed answer is kept)."""
    from qg_studio.services.answers import answer_and_label

    result = answer_and_label(question, sections, section_ids, typed_answer)
    return result.fields(), result.notes
