"""The vocabulary every part of QG Studio shares (docs/DESIGN.md §2), as plain dataclasses.

Nothing here imports a model or a UI library: engines, the store, the exporters and
the CLI all speak in these types, and JSON goes through ``to_dict``/``from_dict``.
"""

from __future__ import annotations

import re
from dataclasses import asdict
from dataclasses import dataclass
from dataclasses import field
from enum import Enum
from typing import Any
from typing import Iterable

from qg_studio.scores import ItemScores


class _Label(str, Enum):
    """A closed set of labels whose value is the exact string the data uses."""

    def __str__(self) -> str:  # f-strings and CSV cells get the dataset's spelling
        return self.value

    @classmethod
    def parse(cls, value: "str | _Label") -> "_Label":
        """Accept the dataset spelling, the enum name, or common variants ("causal")."""
        if isinstance(value, cls):
            return value
        text = str(value).strip().lower().replace("_", " ").replace("-", " ")
        for member in cls:
            if text in (member.value, member.name.lower().replace("_", " ")):
                return member
        for alias, member in _ALIASES.get(cls.__name__, {}).items():
            if text == alias:
                return cls(member)
        allowed = ", ".join(m.value for m in cls)
        raise ValueError(f"unknown {cls.__name__.lower()} {value!r}; expected one of: {allowed}")


class Element(_Label):
    """Narrative element of a question (FairytaleQA schema, Paris & Paris 2003)."""

    CHARACTER = "character"
    SETTING = "setting"
    ACTION = "action"
    FEELING = "feeling"
    CAUSAL = "causal relationship"
    OUTCOME = "outcome resolution"
    PREDICTION = "prediction"


class Explicitness(_Label):
    EXPLICIT = "explicit"
    IMPLICIT = "implicit"


class Scope(_Label):
    LOCAL = "local"
    SUMMARY = "summary"


class AnswerKind(_Label):
    """The unified QA model's prefixes (StoryQA)."""

    EXTRACTIVE = "extractive"
    YESNO = "yesno"
    ABSTRACTIVE = "abstractive"


class ReviewStatus(_Label):
    UNREVIEWED = "unreviewed"
    KEPT = "kept"
    DROPPED = "dropped"


_ALIASES: dict[str, dict[str, str]] = {
    "Element": {
        "causal": "causal relationship",
        "outcome": "outcome resolution",
        "cause": "causal relationship",
        "resolution": "outcome resolution",
    },
    "Scope": {"sum": "summary"},
    "AnswerKind": {
        "yes/no": "yesno",
        "yes no": "yesno",
        "span": "extractive",
        "free": "abstractive",
    },
}

ELEMENTS: tuple[Element, ...] = tuple(Element)


class Record:
    """A dataclass whose JSON form is its fields, as :func:`dataclasses.asdict` gives them."""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Readability(Record):
    """textstat figures for a piece of text; ``grade`` is the consensus grade."""

    words: int
    sentences: int
    fk_grade: float
    dale_chall: float
    coleman_liau: float
    flesch_reading_ease: float
    grade: float


@dataclass
class Section:
    """One section of a story. ``id`` is 1-based, as teachers and FairytaleQA number them."""

    id: int
    text: str
    readability: Readability | None = None
    verdict: str | None = None  # "below", "in" or "above" the teacher's grade band

    @property
    def words(self) -> int:
        return len(self.text.split())

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "text": self.text, "words": self.words}
        if self.readability is not None:
            data["grade"] = self.readability.grade
            data["readability"] = self.readability.to_dict()
        if self.verdict is not None:
            data["verdict"] = self.verdict
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Section":
        figures = data.get("readability")
        return cls(
            id=int(data["id"]),
            text=str(data["text"]),
            readability=Readability(**figures) if figures else None,
            verdict=data.get("verdict"),
        )


@dataclass
class Evidence(Record):
    """A span of one section's text: ``text == section.text[start:end]``."""

    section: int
    start: int
    end: int
    text: str

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Evidence":
        return cls(
            section=int(data["section"]),
            start=int(data["start"]),
            end=int(data["end"]),
            text=str(data.get("text", "")),
        )

    @classmethod
    def find(cls, section: Section, text: str) -> "Evidence | None":
        """The first occurrence of ``text`` in ``section`` (case-insensitive), if any; a
        space in ``text`` matches a line break, as answers are written on one line and a
        story pasted from a book is hard-wrapped."""
        found = re.search(r"\s+".join(map(re.escape, text.split())) or "(?!)", section.text, re.I)
        if found is None:
            return None
        return cls(section.id, found.start(), found.end(), found.group())


@dataclass
class QAItem:
    """A question with its answers and labels: what engines make and teachers curate."""

    question: str
    answers: list[str]
    element: Element
    explicitness: Explicitness
    answer_kind: AnswerKind = AnswerKind.EXTRACTIVE
    scope: Scope = Scope.LOCAL
    sections: list[int] = field(default_factory=list)
    evidence: list[Evidence] = field(default_factory=list)
    engine: str = ""  # the proposer that wrote it (an engine), or who typed it
    rule: str = ""  # the proposer's rule (generation/rules.py) or mode, "" for a person
    # Named scores and flags, each declared with the stage that writes it (scores.py);
    # a plain dict assigned here becomes one.
    scores: ItemScores = field(default_factory=ItemScores)
    status: ReviewStatus = ReviewStatus.UNREVIEWED
    element2: Element | None = None
    # A second annotator's pass (FairytaleQA's ex-or-im2 and answer4-6).
    second_answers: list[str] = field(default_factory=list)
    second_explicitness: Explicitness | None = None
    ref: str = ""  # an external id, e.g. FairytaleQA's question_id
    # Wrong options for a multiple-choice quiz as the teacher saw and kept them in Curate;
    # empty: the quiz export chooses them.
    distractors: list[str] = field(default_factory=list)
    id: int | None = None  # set by the store

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "scores" and not isinstance(value, ItemScores):
            value = ItemScores.from_dict(value)
        object.__setattr__(self, name, value)

    def __post_init__(self) -> None:
        self.element = Element.parse(self.element)
        self.explicitness = Explicitness.parse(self.explicitness)
        self.answer_kind = AnswerKind.parse(self.answer_kind)
        self.scope = Scope.parse(self.scope)
        self.status = ReviewStatus.parse(self.status)
        if self.element2 is not None and self.element2 != "":
            self.element2 = Element.parse(self.element2)
        else:
            self.element2 = None
        if self.second_explicitness not in (None, ""):
            self.second_explicitness = Explicitness.parse(self.second_explicitness)
        else:
            self.second_explicitness = None
        self.second_answers = [str(a) for a in self.second_answers]
        self.evidence = [
            e if isinstance(e, Evidence) else Evidence.from_dict(e) for e in self.evidence
        ]
        self.sections = [int(s) for s in self.sections]
        self.answers = [str(a) for a in self.answers]
        self.distractors = [str(d).strip() for d in self.distractors if str(d).strip()]

    @property
    def answer(self) -> str:
        return self.answers[0] if self.answers else ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "question": self.question,
            "answers": list(self.answers),
            "element": self.element.value,
            "element2": self.element2.value if self.element2 else None,
            "explicitness": self.explicitness.value,
            "scope": self.scope.value,
            "answer_kind": self.answer_kind.value,
            "sections": list(self.sections),
            "evidence": [e.to_dict() for e in self.evidence],
            "engine": self.engine,
            "rule": self.rule,
            "scores": self.scores.to_dict(),
            "status": self.status.value,
            "second_answers": list(self.second_answers),
            "second_explicitness": (
                self.second_explicitness.value if self.second_explicitness else None
            ),
            "ref": self.ref,
            "distractors": list(self.distractors),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "QAItem":
        return cls(
            question=data["question"],
            answers=list(data.get("answers") or []),
            element=data["element"],
            explicitness=data["explicitness"],
            answer_kind=data.get("answer_kind", AnswerKind.EXTRACTIVE),
            scope=data.get("scope", Scope.LOCAL),
            sections=list(data.get("sections") or []),
            evidence=list(data.get("evidence") or []),
            engine=data.get("engine", ""),
            rule=str(data.get("rule") or ""),
            scores=ItemScores.from_dict(data.get("scores")),
            status=data.get("status", ReviewStatus.UNREVIEWED),
            element2=data.get("element2"),
            second_answers=list(data.get("second_answers") or []),
            second_explicitness=data.get("second_explicitness"),
            ref=str(data.get("ref") or ""),
            distractors=list(data.get("distractors") or []),
            id=data.get("id"),
        )


@dataclass
class GenerationRequest:
    """What the teacher asks for. ``elements`` is "balanced" or a count per element.

    ``count`` is the total; ``per_section`` overrides it with a number per section.
    """

    count: int | None = 10
    per_section: int | None = None
    elements: str | dict[Element, int] = "balanced"
    implicit_share: float = 0.3

    def __post_init__(self) -> None:
        if isinstance(self.elements, dict):
            self.elements = {Element.parse(k): int(v) for k, v in self.elements.items()}
        elif self.elements != "balanced":
            self.elements = parse_element_mix(self.elements)
        if not 0.0 <= self.implicit_share <= 1.0:
            raise ValueError("implicit share must be between 0 and 1")

    def to_dict(self) -> dict[str, Any]:
        elements = (
            {e.value: n for e, n in self.elements.items()}
            if isinstance(self.elements, dict)
            else self.elements
        )
        return {
            "count": self.count,
            "per_section": self.per_section,
            "elements": elements,
            "implicit_share": self.implicit_share,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "GenerationRequest":
        return cls(
            count=data.get("count", 10),
            per_section=data.get("per_section"),
            elements=data.get("elements", "balanced"),
            implicit_share=float(data.get("implicit_share", 0.3)),
        )

    def total(self, n_sections: int) -> int:
        if self.per_section is not None:
            return self.per_section * max(n_sections, 1)
        if isinstance(self.elements, dict) and self.count is None:
            return sum(self.elements.values())
        return self.count if self.count is not None else 10


def parse_element_mix(spec: str | dict[str, int]) -> str | dict[Element, int]:
    """Parse "balanced" or "character=2,feeling=1" (the CLI's --elements)."""
    if isinstance(spec, dict):
        return {Element.parse(k): int(v) for k, v in spec.items()}
    spec = spec.strip()
    if spec.lower() in ("", "balanced"):
        return "balanced"
    mix: dict[Element, int] = {}
    for part in spec.split(","):
        if "=" not in part:
            raise ValueError(f"expected element=count in {part!r}, e.g. character=2,feeling=1")
        name, _, count = part.partition("=")
        try:
            number = int(count)
        except ValueError:
            raise ValueError(f"the count in {part.strip()!r} is not a whole number") from None
        if number < 0:
            raise ValueError(f"the count in {part.strip()!r} is below 0")
        mix[Element.parse(name)] = number
    if not any(mix.values()):
        raise ValueError("the element mix asks for no questions (every count is 0)")
    return mix


def section_texts(sections: Iterable[Section], ids: Iterable[int] | None = None) -> str:
    """The text of the chosen sections (all when ``ids`` is None), blank-line separated."""
    wanted = set(ids) if ids is not None else None
    return "\n\n".join(s.text for s in sections if wanted is None or s.id in wanted)
