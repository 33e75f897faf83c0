"""What an answerer replies: the answers, their kind, the evidence and how sure it is."""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field
from typing import Any

from qg_studio.schema import AnswerKind
from qg_studio.schema import Evidence


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
        return answer_fields(self)


def answer_fields(reply) -> dict[str, Any]:
    """What an answer reports as JSON: an :class:`Answer`, or anything that holds the same
    fields (the services' labelled question)."""
    return {
        "answers": list(reply.answers),
        "answer_kind": str(reply.answer_kind) if reply.answer_kind else None,
        "explicit": reply.explicit,
        "evidence": [e.to_dict() for e in reply.evidence],
        "sections": list(reply.sections),
        "confidence": reply.confidence,
        "engine": reply.engine,
        "note": reply.note,
    }
