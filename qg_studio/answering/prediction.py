"""Reading a prediction question the way the story answers it: from what it tells next.

"What will the bull do after he grew strong again?" is a guess for the child, and the
story settles it a few sentences after that moment. A span reader given the question as
it stands answers with the moment itself (its words match); read from the moment on,
asked what the character did, it finds the event that follows.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from qg_studio.reading.deeds import NEXT_PART_SENTENCES
from qg_studio.text.evidence import bm25_scores
from qg_studio.text.sentences import sentences
from qg_studio.text.words import content_words

# "What will the fox do after/when …?", "What do you think the fox will do when …?",
# "What will happen to the fox after …?", "What will happen after …?"
_DO = re.compile(
    r"^\s*what (?:will|would|do you think|might) (?P<who>.+?) (?:will |would |might )?do "
    r"(?:next )?(?:after|when|once|now that) (?P<moment>.+?)\s*\?*\s*$",
    re.I,
)
_HAPPEN = re.compile(
    r"^\s*what (?:will|would|do you think will|might) happen(?: next)?(?: to (?P<who>.+?))? "
    r"(?:after|when|once|now that) (?P<moment>.+?)\s*\?*\s*$",
    re.I,
)


@dataclass(frozen=True)
class Prediction:
    """A prediction question taken apart: the moment it starts from, and the question
    that asks what the story tells next ("What did the bull do?")."""

    moment: str
    told: str
    who: str | None  # the character whose next deed is asked for, when one is named


def read_prediction(question: str) -> Prediction | None:
    """The moment and the told-next question of a prediction question, else None."""
    match = _DO.match(question)
    if match:
        return Prediction(match["moment"], f"What did {match['who']} do?", match["who"])
    match = _HAPPEN.match(question)
    if match:
        who = match["who"]
        told = f"What happened to {who}?" if who else "What happened?"
        return Prediction(match["moment"], told, None)
    return None


def following_span(text: str, moment: str) -> tuple[int, int] | None:
    """Where ``text`` goes on after the sentence that tells ``moment``: as many sentences
    as the generator reads for the answer (``NEXT_PART_SENTENCES``); None when no sentence
    tells the moment, or none follows it."""
    spans = sentences(text)
    if len(spans) < 2:
        return None
    scores = bm25_scores(content_words(moment), [content_words(text[a:b]) for a, b in spans])
    at = max(range(len(spans)), key=lambda i: scores[i])
    if scores[at] <= 0 or at + 1 >= len(spans):
        return None
    after = spans[at + 1 : at + 1 + NEXT_PART_SENTENCES]
    return after[0][0], after[-1][1]


__all__ = ["Prediction", "read_prediction", "following_span"]
