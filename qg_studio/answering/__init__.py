"""Answerers behind one protocol; chosen by name like the generators."""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field
from typing import Any
from typing import Protocol
from typing import Sequence
from typing import runtime_checkable

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
        return {
            "answers": list(self.answers),
            "answer_kind": str(self.answer_kind),
            "explicit": self.explicit,
            "evidence": [e.to_dict() for e in self.evidence],
            "sections": list(self.sections),
            "confidence": self.confidence,
            "engine": self.engine,
            "note": self.note,
        }


@runtime_checkable
class Answerer(Protocol):
    name: str

    def answer(
        self,
        questions: Sequence[str],
        sections: Sequence[Section],
        section_ids: Sequence[Sequence[int] | None] | None = None,
    ) -> list[Answer]:
        """Answer a batch of questions about one story; ``section_ids[i]`` narrows question i."""


ANSWERERS = Registry(
    "answerer",
    {
        "extractive": "qg_studio.answering.extractive:ExtractiveAnswerer",
        "seq2seq": "qg_studio.answering.seq2seq:UnifiedSeq2SeqAnswerer",
        "smollm": "qg_studio.answering.causal_lm:CausalLMAnswerer",
    },
)


def get_answerer(name: str = "extractive", **options) -> Answerer:
    return ANSWERERS.create(name, **options)
