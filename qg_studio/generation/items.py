"""One candidate item from an answer a finder has found: its evidence, kind and scope.

The section finders (candidates.py), the story-level rules (story_level.py) and the
predictions across parts (predictions.py) all end the same way: a question, an answer
and the span of the text that answers it become a :class:`~qg_studio.schema.QAItem`.
"""

from __future__ import annotations

from collections.abc import Sequence

from qg_studio.generation.rules import rule_id
from qg_studio.reading.clauses import Clause
from qg_studio.reading.grammar import words
from qg_studio.reading.phrases import span_of
from qg_studio.reading.subjects import kin_back
from qg_studio.schema import AnswerKind
from qg_studio.schema import Element
from qg_studio.schema import Evidence
from qg_studio.schema import Explicitness
from qg_studio.schema import QAItem
from qg_studio.schema import Scope
from qg_studio.schema import Section
from qg_studio.scores import ItemScores
from qg_studio.text.words import words as word_list


def found_item(
    question: str,
    answer: str,
    element: Element,
    explicit: bool,
    where: Section,
    start: int,
    end: int,
    confidence: float,
    sections: Sequence[int] | None = None,
    *,
    rule: str,
) -> QAItem | None:
    """The item, its evidence ``where.text[start:end]``; ``sections`` (by default the
    evidence's own) makes it a summary question when it spans more than one; ``rule``: the
    id of the rule that found it (generation/rules.py). None when the question or the
    answer is empty or the span is."""
    # One line each: a span of a hard-wrapped story keeps its line breaks.
    question = kin_back(" ".join(question.split()))
    answer = kin_back(" ".join(answer.split()).strip(" ,;:.\"'“”"))
    start, end = max(0, start), min(len(where.text), end)
    if not question or not answer or end <= start:
        return None
    ids = list(sections) if sections else [where.id]
    return QAItem(
        question=question,
        answers=[answer],
        element=element,
        explicitness=Explicitness.EXPLICIT if explicit else Explicitness.IMPLICIT,
        answer_kind=AnswerKind.EXTRACTIVE if explicit else AnswerKind.ABSTRACTIVE,
        scope=Scope.SUMMARY if len(ids) > 1 else Scope.LOCAL,
        sections=ids,
        evidence=[Evidence(where.id, start, end, where.text[start:end])],
        rule=rule_id(rule),
        scores=ItemScores(confidence=round(confidence, 3)),
    )


def span_item(
    question: str,
    element: Element,
    where: Section,
    span: tuple[int, int],
    confidence: float,
    sections: Sequence[int] | None = None,
    *,
    rule: str,
) -> QAItem | None:
    """An explicit item whose answer is the text of its evidence, ``where.text[start:end]``."""
    start, end = span
    answer = where.text[start:end]
    return found_item(
        question, answer, element, True, where, start, end, confidence, sections, rule=rule
    )


def clause_item(
    question: str,
    element: Element,
    where: Section,
    tokens: list,
    confidence: float,
    clause: Clause,
    *,
    rule: str,
) -> QAItem | None:
    """An explicit item whose evidence is ``tokens`` of ``clause`` and whose answer is their
    words with anyone but the clause's subject named by their given name: read alone, a
    key's "him" is no one ("gave Pip half of it", "at Hesper's mill"; the narrator's "my"
    is "their"). A "her" the resolver can only guess a noun for ("led her home": the
    lantern-fish or the little crab) stays as the story says it."""
    start, end = span_of(tokens)
    doc = tokens[0].doc
    told = doc[min(t.i for t in tokens) : max(t.i for t in tokens) + 1]  # "tossed and turned"
    return found_item(
        question,
        words(list(told), clause=clause, names_only=True),
        element,
        True,
        where,
        start,
        end,
        confidence,
        rule=rule,
    )


def well_formed(item: QAItem) -> bool:
    """Drop questions too short or too long to hand to a child, or that give the answer."""
    q = item.question
    n = len(q.split())
    if n < 3 or n > 24 or not q.endswith("?"):
        return False
    if any(ch in q for ch in '"“”'):
        return False
    # "Who looked at it?", "What did Elsa give it?": read alone, a question's "it" names
    # nothing a child can find (a character's "he" or "her" is named when it is asked).
    asked = word_list(q)
    if "it" in asked or (asked[0] == "who" and "its" in asked):
        return False  # "Who jumped onto its deck?": whose, read alone, is no one's
    if asked[-1] == "there":
        return False  # "What did Wen carry there?": where, read alone, is nowhere
    answer = item.answer.lower().strip()
    if len(answer.split()) > 30:
        return False
    if (
        item.explicitness == Explicitness.EXPLICIT
        and len(answer) > 3
        and answer in q.lower()
        and item.element != Element.FEELING
    ):
        return False
    return True
