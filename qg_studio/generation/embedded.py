"""The embedded question engine: spaCy parses and grammar rules, no download, no GPU.

``generate`` finds answer candidates of every narrative element in each section and
writes a question for each (see :mod:`~qg_studio.generation.candidates`);
``write_many`` is the answer-aware mode: the question a given answer answers.
The pipeline ranks and selects among the candidates.
"""

from __future__ import annotations

from typing import Any
from typing import Sequence

from qg_studio.generation import QuestionGenerator
from qg_studio.generation import WriteTarget
from qg_studio.generation.variants import choose
from qg_studio.reading.analysis import analyse_many
from qg_studio.reading.analysis import locate
from qg_studio.schema import AnswerKind
from qg_studio.schema import Element
from qg_studio.schema import Evidence
from qg_studio.schema import Explicitness
from qg_studio.schema import GenerationRequest
from qg_studio.schema import QAItem
from qg_studio.schema import Scope
from qg_studio.schema import Section
from qg_studio.scores import ItemScores


class EmbeddedGenerator(QuestionGenerator):
    name = "embedded"

    def __init__(self, **options: Any):
        # Options meant for other engines (model=..., device=...) are ignored here.
        self.options = options

    def generate(self, sections: Sequence[Section], request: GenerationRequest) -> list[QAItem]:
        from qg_studio.generation.candidates import find_candidates

        sections = [s for s in sections if s.text.strip()]
        if not sections:
            return []
        analyses = analyse_many([s.text for s in sections])
        items: list[QAItem] = []
        for index, (section, analysis) in enumerate(zip(sections, analyses)):
            following = sections[index + 1] if index + 1 < len(sections) else None
            next_analysis = analyses[index + 1] if following is not None else None
            items.extend(find_candidates(section, analysis, following, next_analysis))
        for item in items:
            item.engine = self.name
        return items

    def write_many(self, targets: Sequence[WriteTarget]) -> list[QAItem]:
        return [self._written(target) for target in targets]

    def _written(self, target: WriteTarget) -> QAItem:
        sections, answer, element, explicitness = target
        element = Element.parse(element)
        explicitness = Explicitness.parse(explicitness or Explicitness.EXPLICIT)
        best = best_location(sections, answer)
        question = ""
        evidence: list[Evidence] = []
        if best is not None:
            section, analysis, loc = best
            question = choose(analysis, loc, element, answer)
            sent = analysis.sentences[loc.sentence]
            evidence = [Evidence(section.id, sent.start_char, sent.end_char, sent.text)]
        if not question:
            question = _generic(element)
        return QAItem(
            question=question,
            answers=[answer],
            element=element,
            explicitness=explicitness,
            answer_kind=(
                AnswerKind.EXTRACTIVE
                if explicitness == Explicitness.EXPLICIT
                else AnswerKind.ABSTRACTIVE
            ),
            scope=Scope.SUMMARY if len({e.section for e in evidence}) > 1 else Scope.LOCAL,
            sections=[s.id for s in sections],
            evidence=evidence,
            engine=self.name,
            rule="written.for_answer",
            scores=ItemScores(
                confidence=0.5 if best is None else round(min(1.0, best[2].score), 3)
            ),
        )


def best_location(sections: Sequence[Section], answer: str):
    """(section, analysis, location) where the answer is said, verbatim first."""
    sections = [s for s in sections if s.text.strip()]
    analyses = analyse_many([s.text for s in sections])
    best, best_key = None, None
    for section, analysis in zip(sections, analyses):
        loc = locate(analysis, answer)
        if loc is None:
            continue
        key = (loc.exact, loc.score)
        if best_key is None or key > best_key:
            best, best_key = (section, analysis, loc), key
    return best


def _generic(element: Element) -> str:
    return {
        Element.CHARACTER: "Who is this part of the story about?",
        Element.SETTING: "Where does this part of the story happen?",
        Element.ACTION: "What did the main character do?",
        Element.FEELING: "How did the main character feel?",
        Element.CAUSAL: "Why did this happen?",
        Element.OUTCOME: "What happened in the end?",
        Element.PREDICTION: "What will happen next?",
    }[element]
