"""Why someone acts, told by what they meant to do just before.

"The fox longed for the grapes. He jumped as high as he could" gives "Why did the fox jump
as high as he could? – the fox longed for the grapes": an implicit why (the text does not
say "because"), the kind experts ask most (about half of FairytaleQA's implicit
questions are whys). The aim and the deed must be one character's, told one after the
other, and the deed must not be the aim itself ("Nell wanted a kite. Nell got a kite"
asks nothing).
"""

from __future__ import annotations

from qg_studio import lang
from qg_studio.generation.items import found_item
from qg_studio.reading.analysis import Analysis
from qg_studio.reading.analysis import content
from qg_studio.reading.animacy import MINDFUL_VERBS
from qg_studio.reading.clauses import Clause
from qg_studio.reading.clauses import usable
from qg_studio.reading.deeds import is_deed
from qg_studio.reading.grammar import ANSWER_TAIL
from qg_studio.reading.grammar import ask
from qg_studio.reading.grammar import state
from qg_studio.schema import Element
from qg_studio.schema import QAItem
from qg_studio.schema import Section
from qg_studio.text.words import stem

AIMS = lang.words("aim_verbs.txt")
# How an aim names its goal: "wanted to marry her" (xcomp), "wanted the grapes" (dobj),
# "longed for the grapes" (prep).
GOAL_DEPS = ("xcomp", "dobj", "prep")
WH_TAGS = ("WP", "WDT", "WRB")
MAX_DEED_WORDS = 14  # a longer "Why did ...?" no longer reads as one question


def intention_items(section: Section, analysis: Analysis) -> list[QAItem]:
    """One implicit why per aim that a deed of the same character follows."""
    told = [
        (index, clause)
        for index, clause_list in enumerate(analysis.sentence_clauses)
        for clause in clause_list
        if clause.head.i not in analysis.quoted
    ]
    out = []
    for n, (index, aim) in enumerate(told):
        if not _an_aim(aim):
            continue
        deed = _next_deed(aim, [c for i, c in told[n + 1 :] if i <= index + 1], analysis)
        if deed is None:
            continue
        question = ask(deed, "Why")
        answer = state(aim, tense_past=True, limit=ANSWER_TAIL)
        if not question or len(question.split()) > MAX_DEED_WORDS or not answer:
            continue
        item = found_item(
            question,
            answer,
            Element.CAUSAL,
            False,
            section,
            aim.start_char,
            aim.end_char,
            0.7,
            rule="causal.aim",
        )
        if item is not None:
            out.append(item)
    return out


def _an_aim(clause: Clause) -> bool:
    # "did not understand what she meant": a question word is no aim.
    goal = [t for t in clause.head.children if t.dep_ in GOAL_DEPS and t.tag_ not in WH_TAGS]
    return (
        clause.head.lemma_.lower() in AIMS
        and any(_words(t) for t in goal)
        and usable(clause)
        and not clause.negated
        and not any(t.tag_ == "MD" for t in clause.aux)  # "would like to": not yet meant
    )


def _next_deed(aim: Clause, later: list[Clause], analysis: Analysis) -> Clause | None:
    """The first clause after ``aim`` that is its character's deed; None when another
    character acts first (then what follows is theirs, not an answer to the aim)."""
    inside = {t.i for t in aim.head.subtree}
    goal = {stem(w) for t in aim.head.children if t.dep_ in GOAL_DEPS for w in _words(t)}
    for clause in later:
        if clause.head.i in inside:
            continue  # "to marry her" is the aim's own goal, not a deed
        if clause.subject_text.lower() != aim.subject_text.lower():
            return None
        lemma = clause.head.lemma_.lower()
        if (
            not is_deed(clause, analysis)
            or lemma in MINDFUL_VERBS
            or lemma in AIMS
            or any(t.tag_ == "MD" for t in clause.aux)
        ):
            return None
        if stem(lemma) in goal:
            return None  # they did what they wanted: the aim would give the answer away
        return clause
    return None


def _words(token) -> list[str]:
    return content(" ".join(t.text for t in token.subtree))
