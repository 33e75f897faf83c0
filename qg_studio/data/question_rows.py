"""A row of a FairytaleQA questions file and the item it stands for, both ways.

:meth:`FtqaQuestion.to_item` turns a row into a QAItem; :func:`question_row` does the
reverse, keeping the original strings wherever they still mean the item's values, so an
unedited import writes back exactly. The files themselves are read and written by
:mod:`qg_studio.data.fairytaleqa`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from typing import Callable
from typing import Sequence

from qg_studio.schema import AnswerKind
from qg_studio.schema import Element
from qg_studio.schema import Explicitness
from qg_studio.schema import QAItem
from qg_studio.schema import Scope

# The README's column order; a few original files put ex-or-im1 after cor_section,
# and each file's own order is kept in FtqaStory.question_columns.
QUESTION_COLUMNS = [
    "question_id",
    "local-or-sum",
    "cor_section",
    "attribute1",
    "attribute2",
    "question",
    "ex-or-im1",
    "answer1",
    "answer2",
    "answer3",
    "ex-or-im2",
    "answer4",
    "answer5",
    "answer6",
]
FIRST_ANSWERS = ("answer1", "answer2", "answer3")
SECOND_ANSWERS = ("answer4", "answer5", "answer6")


def parse_sections(value: str) -> list[int]:
    """``cor_section`` ("5", "5,6", "5, 6") as section numbers; raises on anything else."""
    parts = [p.strip() for p in str(value).split(",")]
    if not any(parts):
        return []
    if not all(p.isdigit() for p in parts):
        raise ValueError(f"cor_section {value!r} is not a list of section numbers like 5,6")
    return [int(p) for p in parts]


def parse_or_none(kind: type, value: str | None) -> Any:
    if value is None or not str(value).strip():
        return None
    try:
        return kind.parse(value)
    except ValueError:
        return None


@dataclass
class FtqaQuestion:
    row: dict[str, str]

    @property
    def question_id(self) -> str:
        return self.row.get("question_id", "")

    @property
    def sections(self) -> list[int]:
        return parse_sections(self.row.get("cor_section", ""))

    @property
    def answers(self) -> list[str]:
        return [self.row[c] for c in FIRST_ANSWERS if self.row.get(c)]

    @property
    def second_answers(self) -> list[str]:
        return [self.row[c] for c in SECOND_ANSWERS if self.row.get(c)]

    @property
    def second_explicitness(self) -> Explicitness | None:
        # The train split holds one "doubt"; it stays in the row, not in the item.
        return parse_or_none(Explicitness, self.row.get("ex-or-im2"))

    def to_item(self, section_map: dict[int, int] | None = None) -> QAItem:
        """The row as a QAItem; ``section_map`` renumbers cited sections (see import)."""
        sections = self.sections
        if section_map:
            sections = [section_map.get(s, s) for s in sections]
        explicitness = Explicitness.parse(self.row["ex-or-im1"])
        return QAItem(
            question=self.row["question"],
            answers=self.answers,
            element=self.row["attribute1"],
            element2=parse_or_none(Element, self.row.get("attribute2")),
            explicitness=explicitness,
            scope=self.row["local-or-sum"],
            answer_kind=(
                AnswerKind.EXTRACTIVE
                if explicitness is Explicitness.EXPLICIT
                else AnswerKind.ABSTRACTIVE
            ),
            sections=sections,
            engine="expert",
            ref=self.question_id,
            second_answers=self.second_answers,
            second_explicitness=self.second_explicitness,
        )


def _keep(raw: str | None, value: str, same: Callable[[str], bool]) -> str:
    """The original cell when it still means ``value``, else ``value``."""
    if raw is not None:
        try:
            if same(raw):
                return raw
        except ValueError:
            pass
    return value


def _slots(raw: dict[str, str], columns: Sequence[str], values: list[str]) -> dict[str, str]:
    original = [raw[c] for c in columns if raw.get(c)]
    if raw and original == values:
        return {c: raw.get(c, "") for c in columns}
    padded = list(values[: len(columns)]) + [""] * (len(columns) - len(values))
    return dict(zip(columns, padded))


def question_row(
    item: QAItem,
    columns: Sequence[str] = QUESTION_COLUMNS,
    raw: dict[str, str] | None = None,
    question_id: str = "",
    section_labels: dict[int, str] | None = None,
) -> dict[str, str]:
    """A questions-file row for ``item``; ``raw`` is the row it was imported from.

    Each cell keeps its original string (spacing, "5, 6", capitals, a "doubt") when that
    string still parses to the item's value, so an unedited import writes back exactly.
    ``section_labels`` maps store section ids back to the file's section numbers.
    """
    raw = dict(raw or {})
    labels = section_labels or {}
    cited = [labels.get(s, str(s)) for s in item.sections]
    row = {c: raw.get(c, "") for c in columns}
    row["question_id"] = item.ref or question_id or raw.get("question_id", "")
    row["question"] = item.question
    row["local-or-sum"] = _keep(
        raw.get("local-or-sum"), item.scope.value, lambda r: Scope.parse(r) is item.scope
    )
    row["cor_section"] = _keep(
        raw.get("cor_section"),
        ",".join(cited),
        lambda r: [str(s) for s in parse_sections(r)] == cited,
    )
    row["attribute1"] = _keep(
        raw.get("attribute1"), item.element.value, lambda r: Element.parse(r) is item.element
    )
    row["attribute2"] = _keep(
        raw.get("attribute2"),
        item.element2.value if item.element2 else "",
        lambda r: parse_or_none(Element, r) is item.element2,
    )
    row["ex-or-im1"] = _keep(
        raw.get("ex-or-im1"),
        item.explicitness.value,
        lambda r: Explicitness.parse(r) is item.explicitness,
    )
    second = item.second_explicitness
    row["ex-or-im2"] = _keep(
        raw.get("ex-or-im2"),
        second.value if second else "",
        lambda r: parse_or_none(Explicitness, r) is second,
    )
    row.update(_slots(raw, FIRST_ANSWERS, list(item.answers)))
    row.update(_slots(raw, SECOND_ANSWERS, list(item.second_answers)))
    return {c: row.get(c, "") for c in columns}
