"""Yes/no replies (the kind of answer a question wants is :mod:`qg_studio.answer_kind`).

A yes/no reply is "Yes" or "No" followed by the evidence sentence that justifies it. The
polarity compares the question, turned into a claim, with that sentence: a negation on
one side only, or the claim's key words missing from it, make a "No".
"""

from __future__ import annotations

import re

from qg_studio import lang
from qg_studio.answer_kind import YESNO_QUESTION
from qg_studio.text.words import content_words

_NEGATION = re.compile(
    r"\b(?:not|no|never|nothing|nobody|none|neither|nor|without|refused)\b"
    r"|n't\b",
    re.I,
)


def is_question(text: str) -> bool:
    """A question mark, or an opening question word or auxiliary."""
    text = text.strip()
    if text.endswith("?"):
        return True
    first = text.split(maxsplit=1)[0].lower() if text else ""
    return first in lang.function_words("question_words") or bool(YESNO_QUESTION.match(text))


def yes_or_no(question: str, evidence: str) -> tuple[bool, float]:
    """Whether ``evidence`` supports the claim in a yes/no ``question``, with a confidence."""
    claim = YESNO_QUESTION.sub("", question, count=1).rstrip(" ?")
    claim_neg = bool(_NEGATION.search(question))
    evid_neg = bool(_NEGATION.search(evidence))
    key = set(content_words(claim))
    found = key & set(content_words(evidence))
    coverage = len(found) / len(key) if key else 0.0
    if coverage < 0.34:
        # The sentence barely speaks of the claim: a weak "No".
        return False, round(0.5 + 0.3 * (0.34 - coverage), 3)
    agree = claim_neg == evid_neg
    return agree, round(0.5 + 0.4 * min(1.0, coverage), 3)


def yesno_reply(question: str, evidence: str) -> tuple[str, float]:
    """ "Yes. <sentence>" or "No. <sentence>", and the confidence of the polarity."""
    yes, confidence = yes_or_no(question, evidence)
    sentence = " ".join(evidence.split())
    reply = "Yes" if yes else "No"
    return (f"{reply}. {sentence}" if sentence else reply), confidence
