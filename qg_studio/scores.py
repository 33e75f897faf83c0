"""What the stages write on a question item: named scores and flags, each with its writer.

Until now ``QAItem.scores`` was a free dict, so a reader could not tell which keys exist,
who sets them, or whether a flag is a number. :class:`ItemScores` declares them. It is a
mapping too, so a stored item's dict, ``scores.get("rank")`` and ``scores["rank"] = x``
keep working; a key no stage declares (an older store's) is kept as it was.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, MutableMapping
from dataclasses import dataclass, field, fields
from typing import Any

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
    "unanswerable": "an explicit answer the answerer cannot find (ranking)",
    "low_quality": "kept although it reads badly: nothing better was written (ranking)",
    "check_answer": "show the answer as 'check this answer' (trust.mark_trust)",
    "story_level": "asks about the whole story (generation/story_level.py)",
    "section_end": "a prediction asked where a part of the story ends "
                   "(generation/story_level.py)",
}


@dataclass(eq=False)
class ItemScores(MutableMapping):
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
        scores = cls()
        for key, value in (data or {}).items():
            scores[key] = value
        return scores

    def to_dict(self) -> dict[str, float]:
        return dict(self.items())

    # -- the mapping view (stored dicts and older readers) ------------------------------

    def __getitem__(self, key: str) -> float:
        if key in SCORES:
            value = getattr(self, key)
            if value is None:
                raise KeyError(key)
            return value
        if key in FLAGS:
            if not getattr(self, key):
                raise KeyError(key)
            return 1.0
        return self.extra[key]

    def __setitem__(self, key: str, value: Any) -> None:
        if key in SCORES:
            setattr(self, key, None if value is None else float(value))
        elif key in FLAGS:
            setattr(self, key, bool(value))
        else:
            self.extra[key] = float(value)

    def __delitem__(self, key: str) -> None:
        self[key]  # KeyError when it is not set, as a dict does
        if key in SCORES:
            setattr(self, key, None)
        elif key in FLAGS:
            setattr(self, key, False)
        else:
            del self.extra[key]

    def __iter__(self) -> Iterator[str]:
        for f in fields(self):
            if f.name in SCORES and getattr(self, f.name) is not None:
                yield f.name
            elif f.name in FLAGS and getattr(self, f.name):
                yield f.name
        yield from self.extra

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def __repr__(self) -> str:
        return f"ItemScores({self.to_dict()!r})"
