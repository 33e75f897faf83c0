"""Whether a question read alone names whom its pronouns stand for: "after he waved to
him" names no one unless the story tells who "him" is, and then the question says it.

Apart from :mod:`.grammar` so the finders can ask it of a clause before any question is
written."""

from __future__ import annotations

from qg_studio.reading.clauses import Clause
from qg_studio.reading.noun_phrases import head_noun
from qg_studio.reading.subjects import as_known


def named_other(name: str | None, clause: Clause) -> str | None:
    """The character a pronoun stands for, as a question names them, unless it is the
    clause's own subject ("How did the three Hares feel about their long legs?")."""
    if not name:
        return None
    name = as_known(name)
    subject = clause.subject_text.lower()
    # "the wretched cat raised her tail": her own, though named "the cat" before.
    same = name.lower() in subject or head_noun(name) == head_noun(subject)
    return None if same else name


def vague(clause: Clause, analysis) -> bool:
    """The moment leans on the text around it: "after he set it down", or "after he waved
    to him" where the story does not tell who he is, read alone, is no moment a child can
    place. One it tells is named in the question ("after he waved to the little boy")."""
    return any(
        t.dep_ in ("dobj", "pobj", "dative")
        and t.i not in analysis.quoted
        and (
            t.lower_ == "it"
            or (
                t.lower_ in ("him", "her", "them")
                and not named_other(analysis.resolver.resolve(t), clause)
            )
        )
        for t in clause.tail
    )
