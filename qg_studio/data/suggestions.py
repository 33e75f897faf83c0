"""Engine suggestions for annotators: questions, an answer, labels — each one optional.

The annotator accepts or edits what comes back; an engine that is missing or fails
gives a :class:`Suggestion` with a note instead of an exception, so annotating never
depends on a model being installed. Imports are late so opening the page loads none.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from qg_studio.schema import Element, Explicitness, GenerationRequest, QAItem, Section


@dataclass
class Suggestion:
    fields: dict[str, Any] = field(default_factory=dict)
    items: list[QAItem] = field(default_factory=list)
    engine: str = ""
    note: str = ""

    @property
    def ok(self) -> bool:
        return bool(self.fields or self.items)


def _failed(what: str, exc: BaseException) -> Suggestion:
    return Suggestion(note=f"{what} is not available here ({type(exc).__name__}: {exc})")


def suggest_items(sections: Sequence[Section], count: int = 3,
                  engine: str = "embedded") -> Suggestion:
    """Whole QA pairs for the chosen sections, from the generation pipeline."""
    try:
        from qg_studio.pipeline import generate_items

        items = generate_items(list(sections), GenerationRequest(count=count), engine=engine,
                               use_embeddings=False)
    except Exception as exc:  # an optional engine: report, never break the page
        return _failed("question generation", exc)
    for item in items:
        item.engine = item.engine or engine
    return Suggestion(items=items, engine=engine,
                      note="" if items else "the engine found no questions here")


def suggest_question(sections: Sequence[Section], answer: str, element: str | Element,
                     explicitness: str | Explicitness | None = None,
                     engine: str = "embedded") -> Suggestion:
    """The question that ``answer`` answers (answer-aware generation)."""
    if not answer.strip():
        return Suggestion(note="write answer1 first: the engine writes a question for it")
    try:
        from qg_studio.generation import get_generator

        item = get_generator(engine).write_question(list(sections), answer,
                                                    Element.parse(element), explicitness)
    except Exception as exc:
        return _failed("question writing", exc)
    return Suggestion(fields={"question": item.question}, engine=engine)


def suggest_answer(question: str, sections: Sequence[Section],
                   engine: str = "extractive") -> Suggestion:
    if not question.strip():
        return Suggestion(note="write the question first")
    try:
        from qg_studio.answering import get_answerer

        answer = get_answerer(engine).answer([question], list(sections))[0]
    except Exception as exc:
        return _failed("question answering", exc)
    if not answer.answers:
        return Suggestion(note="the answerer found no answer in these sections")
    return Suggestion(fields={"answers": list(answer.answers[:1]),
                              "explicitness": (Explicitness.EXPLICIT if answer.explicit
                                               else Explicitness.IMPLICIT).value},
                      engine=answer.engine or engine)


def suggest_labels(question: str, answer: str, sections: Sequence[Section]) -> Suggestion:
    """Element and explicitness from the tagger."""
    if not question.strip():
        return Suggestion(note="write the question first")
    try:
        from qg_studio.tagging import tag

        result = tag(question, answer or None, list(sections) or None)
    except Exception as exc:
        return _failed("tagging", exc)
    return Suggestion(fields={"element": result.element.value,
                              "explicitness": result.explicitness.value},
                      engine=f"tagger ({result.source})")
