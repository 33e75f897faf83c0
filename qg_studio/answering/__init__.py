"""Answerers behind one protocol; chosen by name like the generators."""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field
from typing import Any
from typing import Sequence

from qg_studio.registry import ENGINES
from qg_studio.registry import Registry
from qg_studio.schema import AnswerKind
from qg_studio.schema import Evidence
from qg_studio.schema import Section


@dataclass
class Answer:
    answers: list[str]
    answer_kind: AnswerKind
    evidence: list[Evidence] = field(default_factory=list)
    explicit: bool = True
    confidence: float = 0.0
    sections: list[int] = field(default_factory=list)
    engine: str = ""
    note: str = ""  # e.g. "fallback: no shipped model found"

    def to_dict(self) -> dict[str, Any]:
        return answer_fields(self)


def answer_fields(reply) -> dict[str, Any]:
    """What an answer reports as JSON: an :class:`Answer`, or anything that holds the same
    fields (the services' labelled question)."""
    return {
        "answers": list(reply.answers),
        "answer_kind": str(reply.answer_kind) if reply.answer_kind else None,
        "explicit": reply.explicit,
        "evidence": [e.to_dict() for e in reply.evidence],
        "sections": list(reply.sections),
        "confidence": reply.confidence,
        "engine": reply.engine,
        "note": reply.note,
    }


class QuestionError(ValueError):
    """A question the answerer cannot take (empty), or a story with no text."""


# Per question: the ids of the sections it is about, or None to let the answerer find them.
SectionIds = Sequence[Sequence[int] | None]


class Answerer:
    """What every answerer offers; the answerers subclass it. :meth:`answer` refuses an
    empty question or a story without text the same way for all of them."""

    name: str

    def answer(
        self,
        questions: Sequence[str],
        sections: Sequence[Section],
        section_ids: SectionIds | None = None,
        title: str = "",
    ) -> list[Answer]:
        """Answer a batch of questions about one story; ``section_ids[i]`` narrows question i;
        ``title``: the story's, which names its main characters as Generate reads them."""
        questions = [str(q) for q in questions]
        if any(not q.strip() for q in questions):
            raise QuestionError("the question is empty: type a question about the story")
        sections = [s for s in sections if s.text.strip()]
        if not sections:
            raise QuestionError("the story has no text to answer from")
        from qg_studio.answering.story_scope import story_replies

        # A question about the whole story is answered from the whole story, whatever
        # sections it was narrowed to; the rest go to the answerer's own reading.
        replies = story_replies(questions, sections, self.name, title)
        rest = [i for i, reply in enumerate(replies) if reply is None]
        if rest:
            read = self.answer_checked(
                [questions[i] for i in rest],
                sections,
                None if section_ids is None else [section_ids[i] for i in rest],
            )
            for i, reply in zip(rest, read):
                replies[i] = reply
        return replies

    def answer_checked(
        self, questions: list[str], sections: list[Section], section_ids: SectionIds | None
    ) -> list[Answer]:
        """:meth:`answer` once every question has words and the story has text."""
        raise NotImplementedError


ANSWERERS = Registry("answerer", ENGINES["answerer"])


def get_answerer(name: str = "extractive", **options) -> Answerer:
    return ANSWERERS.create(name, **options)
