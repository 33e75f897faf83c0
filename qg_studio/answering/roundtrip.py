"""Round trip: answer each generated question and compare with the intended answer.

A question whose own answerer cannot find the answer the generator meant is either
ambiguous or wrongly keyed. The agreement (the higher of token F1 and ROUGE-L against
any intended answer; for yes/no items, whether the polarity matches) is stored as
``item.scores.answerability``; ranking drops or flags items below
:data:`ANSWERABILITY_FLOOR`.
"""

from __future__ import annotations

import re
from typing import Sequence

from qg_studio.answering import Answer
from qg_studio.answering import Answerer
from qg_studio.evaluate import rouge_l
from qg_studio.evaluate import token_f1
from qg_studio.schema import AnswerKind
from qg_studio.schema import QAItem
from qg_studio.schema import Section
from qg_studio.scores import ANSWERABILITY_FLOOR
from qg_studio.text.sentences import sentence_start

_POLARITY = re.compile(r"^\W*(yes|no)\b", re.I)


def agreement(predicted: str, intended: str, yesno: bool = False) -> float:
    """How well a predicted answer matches an intended one, in [0, 1]."""
    if yesno:
        a, b = _POLARITY.match(predicted), _POLARITY.match(intended)
        if a and b:
            return 1.0 if a.group(1).lower() == b.group(1).lower() else 0.0
    return max(token_f1(predicted, intended), rouge_l(predicted, intended))


def score_answerability(
    items: Sequence[QAItem],
    sections: Sequence[Section],
    answerer: Answerer,
    whole_story: bool = False,
) -> None:
    """Answer every item's question and store the agreement in its scores (in place).

    With ``whole_story`` the answerer reads the whole story, as a child with a worksheet
    about it does: a question that fits several places ("Where did the farmer hide
    the key?") then fails the trip it would pass inside its own section."""
    todo = [it for it in items if it.question.strip() and any(a.strip() for a in it.answers)]
    if not todo:
        return
    replies: list[Answer] = answerer.answer(
        [it.question for it in todo],
        sections,
        [None if whole_story else it.sections or None for it in todo],
    )
    texts = {s.id: s.text for s in sections}
    for item, reply in zip(todo, replies):
        yesno = item.answer_kind is AnswerKind.YESNO or reply.answer_kind is AnswerKind.YESNO
        best = max(
            (agreement(p, a, yesno) for p in reply.answers for a in item.answers if a.strip()),
            default=0.0,
        )
        if same_sentence(item.evidence, reply.evidence, texts):
            # The answerer reads the answer off the sentence the key cites: the question
            # points at the right place even when the words differ (implicit answers).
            best = max(best, SAME_PLACE)
        item.scores.answerability = round(best, 3)


SAME_PLACE = 0.6  # answerability when the answerer answers from the key's own sentence


def same_sentence(evidence, others, texts: dict[int, str]) -> bool:
    """Whether any span of ``others`` starts in the sentence of one of ``evidence``."""
    return any(
        e.section == o.section
        and e.section in texts
        and sentence_start(texts[e.section], e.start) == sentence_start(texts[o.section], o.start)
        for e in evidence
        for o in others
    )


def flagged(items: Sequence[QAItem], floor: float = ANSWERABILITY_FLOOR) -> list[QAItem]:
    """Items whose round trip scored below ``floor`` (unscored items are not flagged)."""
    unscored = 1.0
    return [
        it
        for it in items
        if (unscored if it.scores.answerability is None else it.scores.answerability) < floor
    ]
