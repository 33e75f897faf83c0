"""How far to trust an answer in the key, and the words a teacher sees when not to.

Every answer carries a confidence in [0, 1]: the answerer's own for a question the
teacher typed (Ask, a hand-added question), and for a generated one the round trip's
agreement when it ran, else the engine's confidence. Below :data:`CHECK_ANSWER_BELOW`
the answer is shown as "check this answer" — in Curate, Ask and the answer key's
teacher sheet — never in a success box.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from qg_studio.schema import Explicitness
from qg_studio.schema import QAItem
from qg_studio.scores import ANSWERABILITY_FLOOR

# On FairytaleQA val the shipped extractive answerer's replies under 0.4 confidence are
# wrong more often than right; the round trip's agreement floor is 0.3.
CHECK_ANSWER_BELOW = 0.4
CHECK_LABEL = "check this answer"


@dataclass(frozen=True)
class TrustWeights:
    """How the round trip's agreement moves the engine's confidence in an answer."""

    # An explicit answer is trusted at most this much above the round trip's agreement: a
    # stated answer the answerer cannot find is the one to check.
    explicit_margin: float = 0.1
    # What an implicit answer keeps of the engine's confidence however low the agreement:
    # an extractive answerer agrees little with a paraphrase even when it is right.
    implicit_floor: float = 0.75


TRUST_WEIGHTS = TrustWeights()


def needs_check(confidence: float | None) -> bool:
    """Whether an answer with this confidence must be shown as "check this answer"."""
    return confidence is not None and confidence < CHECK_ANSWER_BELOW


def answer_confidence(item: QAItem, weights: TrustWeights = TRUST_WEIGHTS) -> float | None:
    """The confidence of an item's answer: set by an answerer, else read off the round
    trip (explicit items) and the engine's own confidence."""
    scores = item.scores
    if scores.answer_confidence is not None:
        return scores.answer_confidence
    engine, trip = scores.confidence, scores.answerability
    if trip is None:
        return engine
    if item.explicitness == Explicitness.EXPLICIT or engine is None:
        # A stated answer the answerer cannot find is the one to check.
        return trip if engine is None else min(engine, max(trip, 0.0) + weights.explicit_margin)
    # An implicit answer is a paraphrase: an extractive answerer's agreement is low even
    # when it is right, so it only tempers the engine's confidence.
    floor = weights.implicit_floor
    return engine * (floor + (1 - floor) * max(trip, 0.0))


def mark_trust(items: Sequence[QAItem], ranker=None) -> None:
    """Store each item's answer confidence, and flag the ones to check (in place). With a
    learned ranker (its probability already the item's rank), that probability is the
    confidence, and the ranker's own threshold, chosen on val, says what to check."""
    for item in items:
        if ranker is not None and item.scores.rank is not None:
            item.scores.answer_confidence = round(item.scores.rank, 3)
            item.scores.check_answer = item.scores.rank < ranker.check_below or bool(
                item.scores.unanswerable
            )
            continue
        confidence = answer_confidence(item)
        if confidence is None:
            continue
        item.scores.answer_confidence = round(confidence, 3)
        item.scores.check_answer = needs_check(confidence) or item.scores.unanswerable


def trust_note(confidence: float | None) -> str:
    """ "" for a trusted answer; else what the teacher sees beside it."""
    if not needs_check(confidence):
        return ""
    return f"{CHECK_LABEL} (confidence {confidence:.0%})"


# The plain mark a teacher sees beside every question, first in Curate's table and on
# Generate, with its reason in words.
SURE, CHECK_THIS, LIKELY_WRONG = "sure", "check this", "likely wrong"
MARK_SYMBOLS = {SURE: "✓ sure", CHECK_THIS: "? check this", LIKELY_WRONG: "✗ likely wrong"}
# Under this confidence an answer the check could not find is more likely wrong than right.
LIKELY_WRONG_BELOW = 0.25


def mark(item: QAItem) -> tuple[str, str]:
    """(mark, why) for a question: ``sure``, ``check this`` or ``likely wrong`` from the
    round trip and the confidence in its answer; ("", "") for one with nothing measured
    (a question the teacher typed with her own answer)."""
    scores = item.scores
    confidence = answer_confidence(item)
    trip = scores.answerability
    if scores.unanswerable or (trip is not None and trip < ANSWERABILITY_FLOOR):
        why = "the answer check found another answer in the story, not this one"
        if confidence is None or confidence < LIKELY_WRONG_BELOW:
            return LIKELY_WRONG, why
        return CHECK_THIS, why
    if scores.low_quality:
        return CHECK_THIS, "it reads badly: nothing better was written for its part of the set"
    if confidence is None:
        return "", ""
    if scores.check_answer or needs_check(confidence):
        return CHECK_THIS, f"little confidence in the answer ({confidence:.0%})"
    return SURE, f"the answer check agrees with the answer ({confidence:.0%})"
