"""A deed whose reason its own sentence gives with "for": "His mother scolded him for
being sleepy", "The king thanked the boy for finding the ring". Why is asked of the deed
and answered with its reason (explicit), and no moment told before it stands in for the
reason: "Why did his mother scold him? – for being sleepy in the mornings", not what
happened the night before.
"""

from __future__ import annotations

from qg_studio import lang
from qg_studio.generation.items import found_item
from qg_studio.reading.grammar import ask
from qg_studio.reading.grammar import words
from qg_studio.reading.phrases import span_of
from qg_studio.schema import Element

REASON_FOR_VERBS = lang.words("reason_for_verbs.txt")
# The reason is in the words, as sure as a purpose ("to fetch water") is.
CONFIDENCE = 0.75


def reason_for(verb):
    """The "for" phrase that gives why ``verb`` was done, or None."""
    if verb.lemma_.lower() not in REASON_FOR_VERBS:
        return None
    for prep in verb.children:
        if (
            prep.dep_ == "prep"
            and prep.lower_ == "for"
            and prep.i > verb.i
            and any(c.dep_ in ("pobj", "pcomp") for c in prep.children)
        ):
            return prep
    return None


def reason_for_item(section, analysis, clause, context, clause_list):
    prep = reason_for(clause.head)
    if prep is None or clause.negated:
        return None
    phrase = sorted(prep.subtree, key=lambda t: t.i)
    question = ask(clause, "Why", gap={t.i for t in phrase})
    start, end = span_of(phrase)
    return found_item(
        question,
        words(phrase),
        Element.CAUSAL,
        True,
        section,
        start,
        end,
        CONFIDENCE,
        rule="causal.reason_for",
    )


def about_the_reason(verb, clause) -> str:
    """The reason as what a feeling is about: "scolded him for being sleepy" -> "about Pim
    being sleepy"; "thanked her for the soup" -> "about the soup"."""
    prep = reason_for(verb)
    if prep is None:
        return ""
    done_to = [c for c in verb.children if c.dep_ == "dobj"]
    reason = words(sorted(prep.subtree, key=lambda t: t.i)[1:])
    gerund = any(c.dep_ == "pcomp" and c.tag_ == "VBG" for c in prep.children)
    if gerund and done_to:
        return f"about {words([done_to[0]], clause=clause)} {reason}"
    return "" if gerund else f"about {reason}"
