"""Answerers behind one protocol; chosen by name like the generators."""

from __future__ import annotations

from typing import Sequence

from qg_studio.answering.answer import Answer
from qg_studio.answering.answer import answer_fields
from qg_studio.answering.story_scope import story_replies
from qg_studio.registry import ENGINES
from qg_studio.registry import Registry
from qg_studio.schema import Section


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


__all__ = [
    "ANSWERERS",
    "Answer",
    "Answerer",
    "QuestionError",
    "SectionIds",
    "answer_fields",
    "get_answerer",
]
