"""Answer one question about a story and label it: the Ask page, Curate's "add by hand",
the Annotate suggestions and ``qg-studio answer`` all come here.

One scope rule: a question is about the sections its answer came from (else the ones the
teacher named); the tagger reads those sections, and more than one makes it a summary
question.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from dataclasses import field
from typing import Any
from typing import Sequence

from qg_studio.answer_kind import in_text
from qg_studio.answering import answer_fields
from qg_studio.schema import AnswerKind
from qg_studio.schema import Element
from qg_studio.schema import Evidence
from qg_studio.schema import Explicitness
from qg_studio.schema import QAItem
from qg_studio.schema import Scope
from qg_studio.schema import Section
from qg_studio.schema import section_texts
from qg_studio.scores import ItemScores
from qg_studio.services import ServiceError

# A question a child reads is a sentence or two; anything longer is pasted by mistake,
# and every step after this one (tagging, answering) is paid per character.
MAX_QUESTION_CHARS = 1_000


def check_question(question: str) -> None:
    """A question's limit, checked before anything is loaded or read."""
    if len(question) > MAX_QUESTION_CHARS:
        raise ServiceError(
            f"the question has {len(question):,} characters; a question is at most "
            f"{MAX_QUESTION_CHARS:,} (ask one thing at a time)"
        )


@functools.lru_cache(maxsize=4)
def load_answerer(name: str = "extractive", model: str | None = None):
    """An answerer, loaded once per process; :class:`ServiceError` when it cannot load."""
    from qg_studio.answering import get_answerer

    options = {}
    if model:
        options["model_dir" if name == "extractive" else "model"] = model
    try:
        return get_answerer(name, **options)
    except KeyError as exc:
        raise ServiceError(str(exc).strip("'\"")) from None
    except (OSError, ValueError, ImportError) as exc:
        raise ServiceError(f"cannot load answerer {name!r}: {exc}") from None


def answerer_named(name: str | None):
    """The answerer a command's ``--answerer`` names, the same in every command: "auto"
    the best one here (:func:`best_answerer`), "none" (or nothing) none, else that one."""
    if not name or name == "none":
        return None
    if name == "auto":
        return best_answerer()
    return load_answerer(name)


@functools.lru_cache(maxsize=1)
def best_answerer():
    """The best answerer that loads here (:func:`qg_studio.models.choice.choose_engine` for
    "qa"); the built-in extractive one when that model will not load."""
    from qg_studio.models.choice import choose_engine

    choice = choose_engine("qa")
    try:
        return load_answerer(choice.name, choice.options.get("model"))
    except ServiceError:  # a broken model falls back, as generation does
        return load_answerer("extractive")


def parse_answers(text: str) -> list[str]:
    """Answers typed in one box, one per line or separated by "|"."""
    parts = [p for line in str(text).splitlines() for p in line.split("|")]
    return [p.strip() for p in parts if p.strip()]


@dataclass
class LabelledQuestion:
    """A question with its answer, evidence, sections and labels, and notes for the user."""

    question: str
    answers: list[str] = field(default_factory=list)
    answer_kind: AnswerKind | None = None
    evidence: list[Evidence] = field(default_factory=list)
    sections: list[int] = field(default_factory=list)
    explicit: bool | None = None  # the answerer's view: found in the text or not
    confidence: float | None = None
    engine: str = ""
    note: str = ""  # the answerer's own note (e.g. a fallback)
    labels: Any = None  # tagging.Tag, or None when no tagger ran
    notes: list[str] = field(default_factory=list)
    answerer_failed: bool = False

    @property
    def answer(self) -> str:
        return self.answers[0] if self.answers else ""

    @property
    def scope(self) -> Scope:
        return Scope.SUMMARY if len(self.sections) > 1 else Scope.LOCAL

    @property
    def element(self) -> Element | None:
        return self.labels.element if self.labels is not None else None

    @property
    def explicitness(self) -> Explicitness | None:
        if self.labels is not None:
            return self.labels.explicitness
        if self.explicit is None:
            return None
        return Explicitness.EXPLICIT if self.explicit else Explicitness.IMPLICIT

    def fields(self) -> dict[str, Any]:
        """The item fields this answer and its labels set (JSON values); only those known."""
        fields: dict[str, Any] = {
            "answers": list(self.answers),
            "sections": list(self.sections),
            "evidence": [e.to_dict() for e in self.evidence],
            "scope": self.scope.value,
        }
        if self.answer_kind is not None:
            fields["answer_kind"] = str(self.answer_kind)
        if self.confidence is not None:
            fields["scores"] = ItemScores(confidence=float(self.confidence)).to_dict()
        if self.labels is not None:
            fields.update(element=self.element.value, explicitness=self.explicitness.value)
        return fields

    def to_item(self, engine: str, **overrides: Any) -> QAItem:
        """The question as an item of the set; ``overrides`` are the teacher's choices."""
        explicitness = self.explicitness or Explicitness.EXPLICIT
        fields = {
            "question": self.question,
            "engine": engine,
            "element": (self.element or Element.ACTION).value,
            "explicitness": explicitness.value,
            **self.fields(),
        }
        fields.update(
            {
                k: (v.value if hasattr(v, "value") else v)
                for k, v in overrides.items()
                if v is not None
            }
        )
        return QAItem.from_dict(fields)

    def to_dict(self) -> dict[str, Any]:
        return {
            "question": self.question,
            **answer_fields(self),
            "element": self.element.value if self.element else None,
            "explicitness": self.explicitness.value if self.explicitness else None,
        }


def answer_and_label(
    question: str,
    sections: Sequence[Section],
    section_ids: Sequence[int] | None = None,
    typed_answer: str = "",
    answerer=None,
    label: bool = True,
    title: str = "",
) -> LabelledQuestion:
    """Answer ``question`` (unless the teacher typed the answer) and tag it.

    ``answerer`` is an answerer object, or None for the best one here; when it cannot be
    loaded or fails the result says so in ``notes`` and the question is kept. An answerer
    that rejects the question (empty, or a story with no text) is a :class:`ServiceError`.
    """
    from qg_studio.answering import QuestionError

    check_question(question)
    question = " ".join(question.split())
    if not question:
        raise ServiceError("the question is empty")
    result = LabelledQuestion(question)
    named = [s for s in sections if section_ids and s.id in section_ids]
    if typed_answer.strip():
        # The teacher's answer is kept, located in the text, and the answerer is not asked.
        result.answers = parse_answers(typed_answer)
        result.evidence = [
            e for s in (named or sections) for e in [Evidence.find(s, result.answers[0])] if e
        ][:1]
        result.sections = list(section_ids or [e.section for e in result.evidence])
        result.notes.append("your answer kept")
    else:
        try:
            answerer = answerer or best_answerer()
            reply = answerer.answer(
                [question],
                list(sections),
                [list(section_ids)] if section_ids else None,
                title=title,
            )[0]
        except QuestionError as exc:
            raise ServiceError(str(exc)) from None
        except Exception as exc:  # a missing or broken answerer must not lose the question
            result.answerer_failed = True
            result.notes.append(
                f"no answerer available ({type(exc).__name__}: {exc}): type the answer"
            )
            result.sections = list(section_ids or [])
        else:
            result.answers = [a for a in reply.answers if a]
            result.answer_kind = reply.answer_kind
            result.evidence = list(reply.evidence)
            result.sections = list(reply.sections) or list(section_ids or [])
            # "Stated in the text" only for words the text has: a reply that names who
            # "he" is, or retells the ending, is the story's meaning in other words.
            told = section_texts(sections)
            result.explicit = reply.explicit and any(in_text(a, told) for a in result.answers)
            result.confidence = float(reply.confidence)
            result.engine, result.note = reply.engine, reply.note
            result.notes.append(
                f"answered by the {reply.engine or 'default'} answerer"
                + (f" ({reply.note})" if reply.note else "")
            )
    if label:
        _label(result, sections)
    return result


def _label(result: LabelledQuestion, sections: Sequence[Section]) -> None:
    by_id = {s.id: s for s in sections}
    about = [by_id[i] for i in result.sections if i in by_id]
    try:
        from qg_studio.tagging import tag

        result.labels = tag(result.question, result.answer or None, about or None)
    except Exception as exc:  # labels are a help, never a reason to lose the answer
        result.notes.append(f"no tagger available ({type(exc).__name__}): labels set by hand")
        return
    result.notes.append(
        f"tagged {result.labels.element.value} / "
        f"{result.labels.explicitness.value} by the tagger "
        f"({result.labels.source})"
    )
