"""Question generators behind one protocol; engines are chosen by name.

Engines never import each other: :mod:`qg_studio.pipeline` composes them with the
tagger, the answerer and the ranker.
"""

from __future__ import annotations

from typing import Sequence

from qg_studio.registry import ENGINES
from qg_studio.registry import Registry
from qg_studio.schema import Element
from qg_studio.schema import Explicitness
from qg_studio.schema import GenerationRequest
from qg_studio.schema import QAItem
from qg_studio.schema import Section

# An answer to write a question for: (the sections it is about, the answer, its element,
# its explicitness or None to let the engine judge).
WriteTarget = tuple[Sequence[Section], str, "Element | str", "Explicitness | str | None"]


class QuestionGenerator:
    """What every question engine offers; the engines subclass it."""

    name: str

    def generate(self, sections: Sequence[Section], request: GenerationRequest) -> list[QAItem]:
        """Candidate items for the sections; the pipeline ranks and selects among them."""
        raise NotImplementedError

    def write_many(self, targets: Sequence[WriteTarget]) -> list[QAItem]:
        """Answer-aware mode: for each target, the question its answer answers."""
        raise NotImplementedError

    def write_question(
        self,
        sections: Sequence[Section],
        answer: str,
        element: Element,
        explicitness: Explicitness | None = None,
    ) -> QAItem:
        """Answer-aware mode for one answer: the question ``answer`` answers, about ``sections``."""
        return self.write_many([(sections, answer, element, explicitness)])[0]


GENERATORS = Registry("question engine", ENGINES["question engine"])


def get_generator(name: str = "embedded", **options) -> QuestionGenerator:
    return GENERATORS.create(name, **options)
