"""Question generators behind one protocol; engines are chosen by name.

Engines never import each other: :mod:`qg_studio.pipeline` composes them with the
tagger, the answerer and the ranker.
"""

from __future__ import annotations

from typing import Protocol
from typing import Sequence
from typing import runtime_checkable

from qg_studio.registry import Registry
from qg_studio.schema import Element
from qg_studio.schema import Explicitness
from qg_studio.schema import GenerationRequest
from qg_studio.schema import QAItem
from qg_studio.schema import Section


@runtime_checkable
class QuestionGenerator(Protocol):
    name: str

    def generate(self, sections: Sequence[Section], request: GenerationRequest) -> list[QAItem]:
        """Candidate items for the sections; the pipeline ranks and selects among them."""

    def write_question(
        self,
        sections: Sequence[Section],
        answer: str,
        element: Element,
        explicitness: Explicitness | None = None,
    ) -> QAItem:
        """Answer-aware mode: the question that ``answer`` answers, about ``sections``."""


GENERATORS = Registry(
    "question engine",
    {
        "embedded": "qg_studio.generation.embedded:EmbeddedGenerator",
        "seq2seq": "qg_studio.generation.seq2seq:Seq2SeqGenerator",
        "smollm": "qg_studio.generation.causal_lm:CausalLMGenerator",
    },
)


def get_generator(name: str = "embedded", **options) -> QuestionGenerator:
    return GENERATORS.create(name, **options)
