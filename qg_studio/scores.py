"""What the stages write on a question item: named scores and flags, each with its writer.

``QAItem.scores`` is an :class:`ItemScores`: a reader sees which scores exist, who sets
them, and that a flag is a flag. The store keeps them as the JSON object they always were
(:meth:`ItemScores.to_dict`, :meth:`ItemScores.from_dict`): unset scores and lowered flags
are absent, a raised flag is 1.0, and a key no stage declares (an older store's) is kept
as it was.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field
from dataclasses import fields
from typing import Any

# Under this round-trip agreement the answerer's reply shares little with the intended
# answer: it found another one (on FairytaleQA val, expert explicit questions score above
# it ~80% of the time with the shipped model). Ranking flags, trust marks and eval sets
# all read this one floor.
ANSWERABILITY_FLOOR = 0.3

# Scores: None until the stage that owns them runs.
SCORES = {
    "confidence": "the engine's own confidence in its question (generation/*, answerers "
    "for a typed question)",
    "answerability": "agreement of the answerer's reply with the item's answer "
    "(answering/roundtrip.py)",
    "quality": "surface quality: a question mark, length, no echo (ranking.score_items)",
    "rank": "the order the set is filled in (ranking.score_items)",
    "answer_confidence": "how far to trust the answer in the key (trust.mark_trust)",
}
# Flags: stored as 1.0 when raised, absent otherwise (the store's format since v1).
FLAGS = {
    "unanswerable": "an answer the answerer cannot find (ranking)",
    "low_quality": "kept although it reads badly: nothing better was written (ranking)",
    "check_answer": "show the answer as 'check this answer' (trust.mark_trust)",
    "story_level": "asks about the whole story (generation/story_level.py)",
    "section_end": "a prediction asked where a part of the story ends (generation/predictions.py)",
}


@dataclass
class ItemScores:
    confidence: float | None = None
    answerability: float | None = None
    quality: float | None = None
    rank: float | None = None
    answer_confidence: float | None = None
    unanswerable: bool = False
    low_quality: bool = False
    check_answer: bool = False
    story_level: bool = False
    section_end: bool = False
    extra: dict[str, float] = field(default_factory=dict)  # keys no stage declares

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> "ItemScores":
        """Scores as stored (a JSON object); an unknown key is kept in ``extra``."""
        scores = cls()
        for key, value in (data or {}).items():
            if key in SCORES:
                setattr(scores, key, None if value is None else float(value))
            elif key in FLAGS:
                setattr(scores, key, bool(value))
            else:
                scores.extra[key] = float(value)
        return scores

    def to_dict(self) -> dict[str, float]:
        """The stored form: set scores, raised flags as 1.0, then the undeclared keys."""
        out: dict[str, float] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in SCORES and value is not None:
                out[f.name] = value
            elif f.name in FLAGS and value:
                out[f.name] = 1.0
        out.update(self.extra)
        return out
