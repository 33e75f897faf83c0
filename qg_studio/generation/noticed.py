"""Why someone acted, where the text has just told what they saw or heard: "Why did the
shepherds turn their flocks toward the sound? – the shepherds heard the bell"."""

from __future__ import annotations

from qg_studio.generation.causes import REASON
from qg_studio.generation.items import found_item
from qg_studio.reading.clauses import Clause
from qg_studio.reading.grammar import ask
from qg_studio.reading.grammar import state
from qg_studio.reading.lexicon import SAYING_VERBS
from qg_studio.reading.lexicon import STATE_VERBS
from qg_studio.reading.lexicon import WEAK_VERBS
from qg_studio.reading.moments import across_paragraphs
from qg_studio.reading.moments import event_before
from qg_studio.reading.phrases import span_of
from qg_studio.schema import Element

# Finding out by the senses, then acting: "The shepherds heard the bell and turned their
# flocks toward the sound". ("found", "watched": what one finds or watches is seldom why
# one acts next.)
NOTICING = frozenset(("see", "hear", "notice", "spot", "spy", "smell", "discover"))


def noticed_item(section, analysis, clause, context, clause_list):
    """Why someone acted, when the text has just told what they saw or heard (implicit:
    the text does not say "because"): "Why did the shepherds turn their flocks toward the
    sound? – the shepherds heard the bell"."""
    if (
        clause.head.pos_ != "VERB"
        or clause.head.lemma_ in NOTICING | SAYING_VERBS | STATE_VERBS | WEAK_VERBS
        or not clause.tail
        or clause.negated
        or any(c.marker in REASON for c in clause_list)
        or any(t.i in analysis.quoted for t in clause.tokens)
    ):
        return None
    cause = event_before(analysis, clause_list, clause)
    if (
        cause is None
        or cause.head.lemma_ not in NOTICING
        or cause.negated
        or cause.subject_text != clause.subject_text
        or across_paragraphs(analysis, cause, clause)
        # Something seen the answer can name: not "Sami saw it first", "saw everything".
        or _what_was_noticed(cause) is None
    ):
        return None
    question = ask(clause, "Why")
    if not question:
        return None
    start, end = span_of(cause.tokens)
    return found_item(
        question,
        state(cause, tense_past=True, resolver=analysis.resolver, name_objects=True),
        Element.CAUSAL,
        False,
        section,
        start,
        end,
        0.65,
        rule="causal.noticed",
    )


def _what_was_noticed(cause: Clause):
    """The thing or someone perceived ("heard the wolf's howl"; "saw that the gate was
    open": the gate), when a noun names it."""
    for child in cause.head.children:
        if child.dep_ == "dobj":
            return child if child.pos_ in ("NOUN", "PROPN") else None
        if child.dep_ in ("ccomp", "xcomp"):
            subject = next((c for c in child.children if c.dep_ == "nsubj"), None)
            return subject if subject is not None and subject.pos_ in ("NOUN", "PROPN") else None
    return None
