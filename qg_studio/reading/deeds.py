"""Deeds: what a character does, as the story tells it happening.

Both the writer and the answerer read them: "What will the Goat do next?" is asked where a
part ends and answered by the first deed the next part tells (:func:`next_deed`)."""

from __future__ import annotations

from qg_studio import lang
from qg_studio.reading.analysis import Analysis
from qg_studio.reading.analysis import analyse
from qg_studio.reading.analysis import analyse_many
from qg_studio.reading.animacy import MINDFUL_VERBS
from qg_studio.reading.animacy import is_someone
from qg_studio.reading.clauses import in_progress
from qg_studio.reading.clauses import no_event
from qg_studio.reading.clauses import usable
from qg_studio.reading.grammar import span_of
from qg_studio.reading.grammar import state
from qg_studio.reading.lexicon import WEAK_VERBS
from qg_studio.reading.mentions import head_noun

# What a character does next is told early in the next part: within its first sentences.
NEXT_PART_SENTENCES = 4
# What a character does next is a deed: not what they think, say, see or hear.
NOT_DEEDS = WEAK_VERBS | MINDFUL_VERBS | lang.words("slight_verbs.txt")


def is_deed(clause, analysis: Analysis) -> bool:
    """The clause tells something a character did, as it happens in the story: the answer
    to "what will they do next?"."""
    return (
        usable(clause)
        and clause.head.pos_ == "VERB"
        and clause.head.lemma_ not in NOT_DEEDS
        and _by_character(clause)
        and in_tense(clause)
        # "the miller had poured oil on the floor": told now, done before.
        and not any(t.lemma_ == "have" for t in clause.aux)
        and bool(clause.tail)
        and clause.head.i not in analysis.quoted
        and not clause.negated
        and not no_event(clause)
        and not in_progress(clause)  # "the wolf was dragging the sack off": under way, not done
        and clause.tail[-1].dep_ != "prep"  # "the boy came from": cut short
    )


def next_deed(text: str, who: str, told_before: str = ""):
    """The first deed of ``who`` ("the bull", "he") that ``text`` tells, as
    (answer, start, end), else None. ``text`` is read after ``told_before`` (the story up
    to it), as the question's writer read it: its opening "he" is who that named last."""
    analysis = analyse_many([told_before, text])[1] if told_before.strip() else analyse(text)
    wanted = head_noun(who)
    for clause_list in analysis.sentence_clauses:
        for clause in clause_list:
            if is_deed(clause, analysis) and head_noun(clause.subject_text) == wanted:
                start, end = span_of(clause.tokens)
                return state(clause), start, end
    return None


def in_tense(clause) -> bool:
    """The clause tells an event as the story does, in a tense of its own: not "the King
    must do something", "the Queen call the guards" or "after twelve returned"."""
    verb = next((t for t in clause.aux if t.dep_ in ("aux", "auxpass")), clause.head)
    who = clause.subject_head
    return verb.tag_ in ("VBD", "VBZ", "VBP") and not (who is not None and who.tag_ == "CD")


def _by_character(clause) -> bool:
    """The clause's doer is someone ("he", "the bull"), not "the building of the mill"."""
    who = clause.subject_head
    return clause.inherited if who is None else is_someone(who)
