"""The kind of answer a question wants, in DESIGN's vocabulary (extractive / yesno /
abstractive): one rule, used by the answerers, the training recipes and the data writers.

From the question (answering, where the answer is unknown):
- yesno: it opens with an auxiliary ("Did…", "Is…", "Will…") and offers no choice
  ("Is the lamp young or old?" wants a span, not a yes);
- abstractive: the answer is not in the text: what will or might happen, what someone
  would do, what the reader thinks;
- extractive: everything else (who, what, where, why… in the text).

From a known answer (training pairs, StoryQA records): yesno for "Yes." or "no, he did
not" (not "no one came"); else extractive when the answer is explicit (and, when the text
is given, found in it), abstractive otherwise.
"""

from __future__ import annotations

import re

from qg_studio import lang
from qg_studio.schema import AnswerKind
from qg_studio.schema import Explicitness

AUXILIARIES = lang.function_words("auxiliaries")
# A yes/no question: an auxiliary first, after an optional "And," / "So now".
YESNO_QUESTION = re.compile(
    r"^\s*(?:(?:and|but|so|now|then|well)\s*,?\s+)?(%s)\b"
    % "|".join(re.escape(a) for a in AUXILIARIES),
    re.I,
)
_CHOICE = re.compile(r"\bor\b(?!\s+not\b)", re.I)
# A guess or an opinion: a wh-word with a modal after it, or the phrases below. The two
# halves are searched one after the other (a ``wh.*modal`` pattern backtracks over every
# wh-word of a long question: minutes on 100,000 characters).
_WH = re.compile(r"\b(?:what|how|who|why|where)\b", re.I)
_MODAL = re.compile(r"\b(?:will|might|would|shall|may|going to)\b", re.I)
_ABSTRACTIVE = re.compile(
    r"\b(?:do|did|does) you think\b|\bin your (?:own )?(?:opinion|words)\b"
    r"|\bwhat (?:could|should)\b|\bpredict\b|\bwhat if\b",
    re.I,
)
# A yes/no answer: "Yes." or "no, he did not", not "no one came"; group 1 is the word.
YESNO_ANSWER = re.compile(r"^\s*(yes|no)\s*(?:[.,!;:]|$)", re.I)
_SPACE = re.compile(r"\s+")


def _normalise(text: str) -> str:
    return _SPACE.sub(" ", text).strip().lower()


def in_text(answer: str, text: str) -> bool:
    """Whether ``answer`` occurs in ``text`` (case and spacing ignored)."""
    needle = _normalise(answer).rstrip(".!?")
    return bool(needle) and needle in _normalise(text)


def answer_kind(
    question: str = "",
    *,
    answer: str | None = None,
    explicitness: Explicitness | str | None = None,
    text: str | None = None,
) -> AnswerKind:
    """The kind of answer: from the ``answer`` when it is known (with its
    ``explicitness``, and the ``text`` it should be found in if given), else from the
    ``question``."""
    if answer is not None:
        if YESNO_ANSWER.match(answer):
            return AnswerKind.YESNO
        explicit = (
            explicitness is not None and Explicitness.parse(explicitness) is Explicitness.EXPLICIT
        )
        if explicit and (text is None or in_text(answer, text)):
            return AnswerKind.EXTRACTIVE
        return AnswerKind.ABSTRACTIVE
    if YESNO_QUESTION.match(question) and not _CHOICE.search(question):
        return AnswerKind.YESNO
    wh = _WH.search(question)
    if (wh and _MODAL.search(question, wh.end())) or _ABSTRACTIVE.search(question):
        return AnswerKind.ABSTRACTIVE
    return AnswerKind.EXTRACTIVE
