"""Checks an annotation before it is saved; every message starts with the field it is about.

Errors refuse the annotation (an unknown label, a section the story does not have, an
empty question or answer); warnings let it through with a note (an answer marked
explicit that is not a span of the sections it cites).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from typing import Mapping
from typing import Sequence

from qg_studio.answer_kind import in_text
from qg_studio.data.question_rows import parse_sections
from qg_studio.schema import AnswerKind
from qg_studio.schema import Element
from qg_studio.schema import Explicitness
from qg_studio.schema import QAItem
from qg_studio.schema import Scope
from qg_studio.schema import Section
from qg_studio.schema import section_texts

ERROR = "error"
WARNING = "warning"
FIRST = ("answer1", "answer2", "answer3")
SECOND = ("answer4", "answer5", "answer6")


@dataclass
class Issue:
    field: str
    message: str
    level: str = ERROR

    def __str__(self) -> str:
        return f"{self.field}: {self.message}"


class AnnotationError(ValueError):
    """An annotation refused; ``issues`` holds every error found, not just the first."""

    def __init__(self, issues: Sequence[Issue]):
        self.issues = list(issues)
        super().__init__("; ".join(str(i) for i in self.issues))


def _label(kind: type, name: str, value: Any, issues: list[Issue], required: bool = True):
    if value is None or str(value).strip() == "":
        if required:
            issues.append(
                Issue(name, f"missing; choose one of: {', '.join(m.value for m in kind)}")
            )
        return None
    try:
        return kind.parse(value)
    except ValueError:
        issues.append(
            Issue(
                name,
                f"unknown label {str(value)!r}; expected one of: "
                f"{', '.join(m.value for m in kind)}",
            )
        )
        return None


def _section_ids(value: Any, story: Sequence[Section], issues: list[Issue]) -> list[int]:
    if isinstance(value, str):
        try:
            ids = parse_sections(value)
        except ValueError:
            issues.append(Issue("sections", f"{value!r} is not a list of section numbers like 5,6"))
            return []
    else:
        try:
            ids = [int(v) for v in (value or [])]
        except (TypeError, ValueError):
            issues.append(Issue("sections", f"{value!r} is not a list of section numbers"))
            return []
    if not ids:
        issues.append(Issue("sections", "missing; cite the section(s) the question is about"))
        return []
    known = [s.id for s in story]
    missing = [i for i in ids if i not in known]
    if missing:
        have = f"{min(known)}–{max(known)}" if known else "none"
        issues.append(
            Issue(
                "sections",
                f"section {', '.join(map(str, missing))} does not "
                f"exist (this story has sections {have})",
            )
        )
    return list(dict.fromkeys(ids))


def _answers(values: Sequence[str] | None, names: Sequence[str]) -> list[str]:
    values = list(values or [])[: len(names)]
    return [str(v) for v in values]


def check_annotation(
    fields: Mapping[str, Any], story: Sequence[Section]
) -> tuple[QAItem | None, list[Issue]]:
    """Validate form fields and build the item; the item is None when there are errors.

    ``fields``: question, answers (up to 3), element, element2, explicitness, scope,
    sections (ids or "5,6"), second_answers (up to 3), second_explicitness, and
    optionally answer_kind, engine, ref.
    """
    issues: list[Issue] = []
    question = str(fields.get("question") or "")
    if not question.strip():
        issues.append(Issue("question", "empty; write the question"))
    element = _label(Element, "element", fields.get("element"), issues)
    element2 = _label(Element, "element2", fields.get("element2"), issues, required=False)
    explicitness = _label(Explicitness, "explicitness", fields.get("explicitness"), issues)
    scope = _label(Scope, "scope", fields.get("scope") or "local", issues)
    second_explicitness = _label(
        Explicitness,
        "second explicitness",
        fields.get("second_explicitness"),
        issues,
        required=False,
    )
    sections = _section_ids(fields.get("sections"), story, issues)

    answers = _answers(fields.get("answers"), FIRST)
    if not answers or not answers[0].strip():
        issues.append(Issue("answer1", "empty; every question needs an answer"))
    for name, value in zip(FIRST[1:], answers[1:]):
        if value and not value.strip():
            issues.append(Issue(name, "only spaces; it is left out", WARNING))
    answers = [a for a in answers if a.strip()]

    second = _answers(fields.get("second_answers"), SECOND)
    second = [a for a in second if a.strip()]
    if (
        second
        and second_explicitness is None
        and not any(i.field == "second explicitness" for i in issues)
    ):
        issues.append(
            Issue(
                "second explicitness",
                "missing; the second annotator's answer needs explicit or implicit",
                WARNING,
            )
        )
    if second_explicitness is not None and not second:
        issues.append(Issue("answer4", "empty; the second annotator's pass needs an answer"))

    known = {s.id for s in story}
    cited = [s for s in story if s.id in sections and s.id in known]
    if cited:
        text = section_texts(cited)
        where = ", ".join(str(s.id) for s in cited)
        if explicitness is Explicitness.EXPLICIT:
            for name, answer in zip(FIRST, answers):
                if not in_text(answer, text):
                    issues.append(
                        Issue(
                            name,
                            f"marked explicit but not a span of section(s) "
                            f"{where}; copy the words from the text or "
                            "mark it implicit",
                            WARNING,
                        )
                    )
        if second_explicitness is Explicitness.EXPLICIT:
            for name, answer in zip(SECOND, second):
                if not in_text(answer, text):
                    issues.append(
                        Issue(
                            name, f"marked explicit but not a span of section(s) {where}", WARNING
                        )
                    )
    if any(i.level == ERROR for i in issues):
        return None, issues
    kind = fields.get("answer_kind") or (
        AnswerKind.EXTRACTIVE if explicitness is Explicitness.EXPLICIT else AnswerKind.ABSTRACTIVE
    )
    item = QAItem(
        question=question,
        answers=answers,
        element=element,
        element2=element2,
        explicitness=explicitness,
        scope=scope,
        answer_kind=kind,
        sections=sections,
        engine=str(fields.get("engine") or ""),
        ref=str(fields.get("ref") or ""),
        second_answers=second,
        second_explicitness=second_explicitness,
    )
    return item, issues


def build_item(fields: Mapping[str, Any], story: Sequence[Section]) -> tuple[QAItem, list[Issue]]:
    """The item and its warnings; raises :class:`AnnotationError` listing every error."""
    item, issues = check_annotation(fields, story)
    if item is None:
        raise AnnotationError([i for i in issues if i.level == ERROR])
    return item, issues


def item_fields(item: QAItem) -> dict[str, Any]:
    """An item as the fields :func:`check_annotation` takes (to re-check or edit it)."""
    return {
        "question": item.question,
        "answers": list(item.answers),
        "element": item.element.value,
        "element2": item.element2.value if item.element2 else None,
        "explicitness": item.explicitness.value,
        "scope": item.scope.value,
        "sections": list(item.sections),
        "second_answers": list(item.second_answers),
        "second_explicitness": (
            item.second_explicitness.value if item.second_explicitness else None
        ),
        "answer_kind": item.answer_kind.value,
        "engine": item.engine,
        "ref": item.ref,
    }


def validate_item(item: QAItem, story: Sequence[Section]) -> list[Issue]:
    return check_annotation(item_fields(item), story)[1]


ROW_FIELDS = {
    "question": "question",
    "element": "attribute1",
    "element2": "attribute2",
    "explicitness": "ex-or-im1",
    "scope": "local-or-sum",
    "sections": "cor_section",
    "second explicitness": "ex-or-im2",
}


def validate_row(row: Mapping[str, str], story: Sequence[Section]) -> list[Issue]:
    """A FairytaleQA questions-file row; issues name the file's columns."""
    fields = {
        "question": row.get("question", ""),
        "answers": [row.get(c, "") for c in FIRST],
        "element": row.get("attribute1"),
        "element2": row.get("attribute2"),
        "explicitness": row.get("ex-or-im1"),
        "scope": row.get("local-or-sum"),
        "sections": row.get("cor_section", ""),
        "second_answers": [row.get(c, "") for c in SECOND],
        "second_explicitness": row.get("ex-or-im2"),
    }
    issues = check_annotation(fields, story)[1]
    for issue in issues:
        issue.field = ROW_FIELDS.get(issue.field, issue.field)
    return issues


def validate_story(story) -> list[tuple[int, Issue]]:
    """Every issue of a FairytaleQA story's rows, with the file's row number (header = 1)."""
    return [
        (number, issue)
        for number, question in enumerate(story.questions, start=2)
        for issue in validate_row(question.row, story.sections)
    ]
