"""Narrative element and explicit/implicit for any question, generated or typed.

The element comes from the question alone, so a teacher's question and a generated
one are tagged alike. Explicitness uses what is known: the answer and the sections
when given (is the answer a span of them, how much of it is), else the question and
the answer's shape, else the question only.

Both are small linear models over sparse features (word n-grams, surface rules, answer
and section overlap: :mod:`.features`), trained on the FairytaleQA train split by
``qg-studio train tagger`` and shipped as ``models/tagger/tagger.npz`` (:mod:`.model`);
inference needs numpy only. Without that file the surface rules answer, with lower
confidences.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field
from typing import Sequence

from qg_studio.reading.question_element import rule_element
from qg_studio.schema import ELEMENTS
from qg_studio.schema import Element
from qg_studio.schema import Explicitness
from qg_studio.schema import Section
from qg_studio.tagging.features import answer_is_span
from qg_studio.tagging.features import explicitness_features
from qg_studio.tagging.features import mode_for
from qg_studio.tagging.features import question_features
from qg_studio.tagging.model import TaggerModel
from qg_studio.tagging.model import load_model

# Fallback confidences when no model file is there. On the train split the rules are
# right for 0.93 of the questions a rule matches, 0.80 of the default "action", 0.77 of
# explicitness by the span test and 0.77 by the question form; these values sit below
# that on purpose, so that whatever ranks or filters by confidence treats rule-tagged
# items as tentative next to model-tagged ones.
RULE_ELEMENT_CONFIDENCE = 0.7
RULE_DEFAULT_CONFIDENCE = 0.4  # no rule matched: "action" is the commonest element
RULE_SPAN_CONFIDENCE = 0.7  # answer found (or not) in the sections
RULE_PRIOR_CONFIDENCE = 0.55  # question form only


@dataclass
class Tag:
    """The labels of one question; ``scores`` is the probability of every element."""

    element: Element
    element_confidence: float
    explicitness: Explicitness
    explicitness_confidence: float
    scores: dict[str, float] = field(default_factory=dict)
    source: str = "model"  # "model", or "rules" when the model file is missing

    def to_dict(self) -> dict:
        return {
            "element": self.element.value,
            "element_confidence": self.element_confidence,
            "explicitness": self.explicitness.value,
            "explicitness_confidence": self.explicitness_confidence,
            "scores": dict(self.scores),
            "source": self.source,
        }


def _section_text(sections: Sequence[Section | str] | None) -> str | None:
    if not sections:
        return None
    text = "\n\n".join(s.text if isinstance(s, Section) else str(s) for s in sections)
    return text if text.strip() else None


def tag(question: str, answer: str | None = None, sections: Sequence[Section] | None = None) -> Tag:
    """Element and explicitness of one question; ``sections`` are those it is about."""
    return tag_many([question], [answer], [sections])[0]


def tag_many(
    questions: Sequence[str],
    answers: Sequence[str | None] | None = None,
    sections: Sequence[Section] | Sequence[Sequence[Section] | None] | None = None,
) -> list[Tag]:
    """Tag a batch. ``sections`` is one list shared by every question, or one per question."""
    questions = [str(q) for q in questions]
    if answers is None:
        answers = [None] * len(questions)
    if len(answers) != len(questions):
        raise ValueError(f"{len(answers)} answers for {len(questions)} questions")
    texts = _texts_per_question(sections, len(questions))
    model = load_model()
    out = []
    for question, answer, text in zip(questions, answers, texts):
        answer = answer.strip() if isinstance(answer, str) and answer.strip() else None
        if model is None:
            out.append(_tag_by_rules(question, answer, text))
        else:
            out.append(_tag_by_model(model, question, answer, text))
    return out


def _texts_per_question(sections, n: int) -> list[str | None]:
    if sections is None:
        return [None] * n
    sections = list(sections)
    if not sections or isinstance(sections[0], (Section, str)):
        shared = _section_text(sections)  # one story's sections, shared by every question
        return [shared] * n
    if len(sections) != n:
        raise ValueError(f"{len(sections)} section lists for {n} questions")
    return [_section_text(s) for s in sections]


def _tag_by_model(model: TaggerModel, question: str, answer: str | None, text: str | None) -> Tag:
    probs = model.element.probabilities(question_features(question))
    scores = {c: float(p) for c, p in zip(model.element.classes, probs)}
    element = max(scores, key=scores.get)
    mode = mode_for(answer, text)
    linear = model.explicitness[mode]
    ex_probs = linear.probabilities(explicitness_features(question, answer, text))
    ex_scores = dict(zip(linear.classes, (float(p) for p in ex_probs)))
    explicitness = max(ex_scores, key=ex_scores.get)
    return Tag(
        element=Element(element),
        element_confidence=scores[element],
        explicitness=Explicitness(explicitness),
        explicitness_confidence=ex_scores[explicitness],
        scores=scores,
        source="model",
    )


def _tag_by_rules(question: str, answer: str | None, text: str | None) -> Tag:
    rule = rule_element(question)
    element = rule or Element.ACTION
    confidence = RULE_ELEMENT_CONFIDENCE if rule else RULE_DEFAULT_CONFIDENCE
    rest = (1.0 - confidence) / (len(ELEMENTS) - 1)
    scores = {e.value: (confidence if e == element else rest) for e in ELEMENTS}
    if answer and text:
        explicitness = (
            Explicitness.EXPLICIT if answer_is_span(answer, text) else Explicitness.IMPLICIT
        )
        ex_conf = RULE_SPAN_CONFIDENCE
    else:
        # Feelings are mostly inferred; other questions mostly point at a span.
        explicitness = (
            Explicitness.IMPLICIT if element == Element.FEELING else Explicitness.EXPLICIT
        )
        ex_conf = RULE_PRIOR_CONFIDENCE
    return Tag(
        element=element,
        element_confidence=confidence,
        explicitness=explicitness,
        explicitness_confidence=ex_conf,
        scores=scores,
        source="rules",
    )
