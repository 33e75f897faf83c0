"""Questions about the story as a whole, read from the story as a whole.

"Who is the main character?", "Where does this story take place?", "How does the story
end?" and "What lesson does the story teach?" point at no passage: a span reader goes to
the passage that repeats the question's words ("the story", "end") and answers from it
("How does the story end? – set out and seek my fortune"). The story's own reading
answers them instead, for every answerer: who is talked about most, the place the story
opens in, what last happens, the moral: the registry's "story reading", the same reading
that writes these questions for a set (taken by name: engines never import each other).
"""

from __future__ import annotations

import re
from typing import Sequence

from qg_studio.answer_kind import answer_kind
from qg_studio.answering.answer import Answer
from qg_studio.registry import ENGINES
from qg_studio.registry import Registry
from qg_studio.schema import AnswerKind
from qg_studio.schema import Explicitness
from qg_studio.schema import Section

_STORY = r"(?:the|this) (?:story|tale|fable)"
_END = r"\s*[?.!]*\s*$"
# What the question asks about the story, by the same patterns for a typed question and
# for the story-level questions the generator writes; whole questions only ("Who is the
# main character's friend?" is a passage question).
ASKS = {
    "who": re.compile(
        rf"^\s*who (?:is|are|was|were) the (?:two |three )?main characters?"
        rf"(?: (?:of|in) {_STORY})?{_END}"
        rf"|^\s*who is {_STORY} (?:mostly |mainly )?about{_END}",
        re.I,
    ),
    "where": re.compile(rf"^\s*where (?:does|did) {_STORY} (?:take place|happen){_END}", re.I),
    # The turning point, asked with the time the story gives it ("one day", "at last").
    "turn": re.compile(
        rf"^\s*what (?:important|main) (?:thing|event) happened"
        rf"(?: (?:one|that|at|in|on|suddenly|then|soon|later)\b[\w ]{{0,24}})?{_END}",
        re.I,
    ),
    "end": re.compile(rf"^\s*how (?:does|did) {_STORY} end{_END}", re.I),
    "lesson": re.compile(
        rf"^\s*(?:what (?:lesson|moral) (?:does|did|can) {_STORY} teach(?: us)?"
        rf"|what is the (?:lesson|moral) of {_STORY}){_END}",
        re.I,
    ),
}


def story_question(question: str) -> str | None:
    """Which whole-story question this is (a key of :data:`ASKS`), else None."""
    return next((kind for kind, pattern in ASKS.items() if pattern.match(question)), None)


def story_replies(
    questions: Sequence[str], sections: Sequence[Section], engine: str, title: str = ""
) -> list:
    """Per question, the story's own answer (an ``Answer``) when it asks about the whole
    story and the story answers it; else None, for the answerer to read passages."""
    kinds = [story_question(q) for q in questions]
    if not any(kinds):
        return [None] * len(questions)
    whole_story_questions = Registry("story reading", ENGINES["story reading"]).get("default")
    readings = {}
    for item in whole_story_questions(sections, title=title):
        kind = story_question(item.question)
        if kind:
            readings.setdefault(kind, item)
    return [
        _reply(q, readings[kind], engine) if kind in readings else None
        for q, kind in zip(questions, kinds)
    ]


def _reply(question: str, item, engine: str) -> Answer:
    # The lesson is the reader's inference, whatever the question's words.
    implicit = item.explicitness == Explicitness.IMPLICIT
    kind = AnswerKind.ABSTRACTIVE if implicit else answer_kind(question)
    return Answer(
        [item.answer],
        kind,
        list(item.evidence),
        explicit=kind is AnswerKind.EXTRACTIVE,
        confidence=item.scores.confidence or 0.0,
        sections=sorted({e.section for e in item.evidence}),
        engine=engine,
        note="read from the whole story",
    )


__all__ = ["ASKS", "story_question", "story_replies"]
