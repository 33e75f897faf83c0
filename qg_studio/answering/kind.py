"""The kind of answer a question wants (StoryQA's prefixes), and yes/no replies.

- yesno: the question opens with an auxiliary ("Did…", "Is…", "Will…") and offers no
  choice ("Is the lamp young or old?" wants a span, not a yes);
- abstractive: the answer is not in the text: what will or might happen, what someone
  would do, what the reader thinks;
- extractive: everything else (who, what, where, why… in the text).

A yes/no reply is "Yes" or "No" followed by the evidence sentence that justifies it. The
polarity compares the question, turned into a claim, with that sentence: a negation on
one side only, or the claim's key words missing from it, make a "No".
"""

from __future__ import annotations

import re

from qg_studio.answering.retrieval import content_words
from qg_studio.schema import AnswerKind

_AUX = ("is", "are", "was", "were", "am", "do", "does", "did", "can", "could", "will",
        "would", "should", "shall", "has", "have", "had", "may", "might", "must",
        "isn't", "aren't", "wasn't", "weren't", "don't", "doesn't", "didn't", "can't",
        "couldn't", "won't", "wouldn't", "shouldn't", "hasn't", "haven't", "hadn't")
_YESNO = re.compile(r"^\s*(?:(?:and|but|so|now|then|well)\s*,?\s+)?(%s)\b" % "|".join(
    re.escape(a) for a in _AUX), re.I)
_CHOICE = re.compile(r"\bor\b(?!\s+not\b)", re.I)
_ABSTRACTIVE = re.compile(
    r"\b(?:what|how|who|why|where)\b.*\b(?:will|might|would|shall|may|going to)\b"
    r"|\b(?:do|did|does) you think\b|\bin your (?:own )?(?:opinion|words)\b"
    r"|\bwhat (?:could|should)\b|\bpredict\b|\bwhat if\b", re.I)
_NEGATION = re.compile(r"\b(?:not|no|never|nothing|nobody|none|neither|nor|without|refused)\b"
                       r"|n't\b", re.I)


def is_question(text: str) -> bool:
    """A question mark, or an opening question word or auxiliary."""
    text = text.strip()
    if text.endswith("?"):
        return True
    first = text.split(maxsplit=1)[0].lower() if text else ""
    return first in {"who", "whom", "whose", "what", "when", "where", "why", "how", "which"} \
        or bool(_YESNO.match(text))


def answer_kind(question: str) -> AnswerKind:
    if _YESNO.match(question) and not _CHOICE.search(question):
        return AnswerKind.YESNO
    if _ABSTRACTIVE.search(question):
        return AnswerKind.ABSTRACTIVE
    return AnswerKind.EXTRACTIVE


def yes_or_no(question: str, evidence: str) -> tuple[bool, float]:
    """Whether ``evidence`` supports the claim in a yes/no ``question``, with a confidence."""
    claim = _YESNO.sub("", question, count=1).rstrip(" ?")
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
    """"Yes. <sentence>" or "No. <sentence>", and the confidence of the polarity."""
    yes, confidence = yes_or_no(question, evidence)
    sentence = " ".join(evidence.split())
    reply = "Yes" if yes else "No"
    return (f"{reply}. {sentence}" if sentence else reply), confidence
