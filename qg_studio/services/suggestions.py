"""Engine suggestions for annotators: questions, an answer, labels — each one optional.

The annotator accepts or edits what comes back; an engine that is missing or fails
gives a :class:`Suggestion` with a note instead of an exception, so annotating never
depends on a model being installed. Imports are late so opening the page loads none.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field
from typing import Any
from typing import Sequence

from qg_studio.schema import Element
from qg_studio.schema import Explicitness
from qg_studio.schema import GenerationRequest
from qg_studio.schema import QAItem
from qg_studio.schema import Section


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


def suggest_items(
    sections: Sequence[Section], count: int = 3, engine: str = "embedded"
) -> Suggestion:
    """Whole QA pairs for the chosen sections, from the generation service."""
    from qg_studio.services.generation import generate

    try:
        run = generate(
            list(sections),
            GenerationRequest(count=count),
            engine,
            use_embeddings=False,
            fallback=False,
        )
    except Exception as exc:  # an optional engine: report, never break the page
        return _failed("question generation", exc)
    for item in run.items:
        item.engine = item.engine or run.engine
    return Suggestion(
        items=run.items,
        engine=run.engine,
        note="" if run.items else "the engine found no questions here",
    )


def suggest_question(
    sections: Sequence[Section],
    answer: str,
    element: str | Element,
    explicitness: str | Explicitness | None = None,
    engine: str = "embedded",
) -> Suggestion:
    """The question that ``answer`` answers (answer-aware generation)."""
    from qg_studio.services.generation import question_writer

    if not answer.strip():
        return Suggestion(note="write answer1 first: the engine writes a question for it")
    try:
        item = question_writer(engine).write_question(
            list(sections), answer, Element.parse(element), explicitness
        )
    except Exception as exc:
        return _failed("question writing", exc)
    return Suggestion(fields={"question": item.question}, engine=engine)


def suggest_answer(
    question: str, sections: Sequence[Section], engine: str = "extractive"
) -> Suggestion:
    from qg_studio.services.answers import answer_and_label
    from qg_studio.services.answers import load_answerer

    if not question.strip():
        return Suggestion(note="write the question first")
    try:
        answered = answer_and_label(question, sections, answerer=load_answerer(engine), label=False)
    except Exception as exc:
        return _failed("question answering", exc)
    if answered.answerer_failed:
        return Suggestion(note=f"question answering is not available here ({answered.notes[0]})")
    if not answered.answers:
        return Suggestion(note="the answerer found no answer in these sections")
    return Suggestion(
        fields={"answers": answered.answers[:1], "explicitness": answered.explicitness.value},
        engine=answered.engine or engine,
    )


def suggest_labels(question: str, answer: str, sections: Sequence[Section]) -> Suggestion:
    """Element and explicitness from the tagger."""
    if not question.strip():
        return Suggestion(note="write the question first")
    try:
        from qg_studio.tagging import tag

        result = tag(question, answer or None, list(sections) or None)
    except Exception as exc:
        return _failed("tagging", exc)
    return Suggestion(
        fields={"element": result.element.value, "explicitness": result.explicitness.value},
        engine=f"tagger ({result.source})",
    )
