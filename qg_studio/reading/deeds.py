"""Deeds: what a character does, as the story tells it happening.

Both the writer and the answerer read them: "What will the Goat do next?" is asked where a
part ends and answered by the first deed the next part tells (:func:`next_deed`)."""

from __future__ import annotations

from collections.abc import Sequence

from qg_studio import lang
from qg_studio.reading.analysis import Analysis
from qg_studio.reading.analysis import analyse
from qg_studio.reading.analysis import analyse_many
from qg_studio.reading.animacy import MINDFUL_VERBS
from qg_studio.reading.animacy import PRONOUNS
from qg_studio.reading.animacy import is_someone
from qg_studio.reading.clauses import usable
from qg_studio.reading.dialogue import tells_speech
from qg_studio.reading.grammar import state
from qg_studio.reading.lexicon import SAYING_VERBS
from qg_studio.reading.lexicon import WEAK_VERBS
from qg_studio.reading.moments import a_posture
from qg_studio.reading.moments import in_progress
from qg_studio.reading.moments import no_event
from qg_studio.reading.moments import undone
from qg_studio.reading.noun_phrases import head_noun
from qg_studio.reading.phrases import span_of

# What a character does next is told early in the next part: within its first sentences.
NEXT_PART_SENTENCES = 4
# What a character does next is a deed: not what they think, say, see or hear.
NOT_DEEDS = WEAK_VERBS | MINDFUL_VERBS | lang.words("slight_verbs.txt")
STATIVE_PARTICIPLES = lang.words("stative_participles.txt")


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
        and not tells_speech(clause, analysis.quoted)
        and not clause.negated
        and not no_event(clause)
        and not undone(clause)
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


# Verbs too common or too loose to say who did them: "be", "have", "do", and speech, whose
# speaker a parse of a quotation often misplaces.
_UNCHECKED = WEAK_VERBS | SAYING_VERBS | {"do"}
# A subject that names no one: a question word, or a pronoun the parse left as it is
# (a speech's "I" and "you" too: "Why do you light it?" tells no one lit it but the two).
_UNNAMED = set(lang.function_words("question_words")) | set(PRONOUNS) | {"it", "that", "one"}
_UNNAMED |= {"i", "you", "we", "me", "us"}


def _doers_of(clause) -> set[str]:
    """The head nouns of who does what ``clause`` tells ("the Crow and the Goat": crow,
    goat); none for a passive ("the fox was chased") or a clause with no subject."""
    if not clause.subject_text or any(t.dep_ == "nsubjpass" for t in clause.subject):
        return set()
    parts = clause.subject_text.replace(",", " and ").split(" and ")
    return {head_noun(p.strip()) for p in parts if p.strip()}


def _named(doers: set[str]) -> bool:
    """Whether every doer is a named someone, not a pronoun left unresolved or "who"."""
    return bool(doers) and not doers & _UNNAMED


def doers(analyses: Sequence[Analysis]) -> dict[str, set[str]]:
    """Each verb (lemma) the story tells someone doing, and who does it (head nouns,
    pronouns resolved): what a question may say a character did."""
    found: dict[str, set[str]] = {}
    for analysis in analyses:
        for clause_list in analysis.sentence_clauses:
            for clause in clause_list:
                if clause.head.pos_ == "VERB":
                    found.setdefault(clause.head.lemma_.lower(), set()).update(_doers_of(clause))
    return found


def misattributed(question: Analysis, told: dict[str, set[str]]) -> str | None:
    """Who the story says did what ``question`` (its parse, :func:`analyse_each`) says
    another character did ("Why did the Crow tumble down the hill?" where the fox
    tumbled), else None. ``told``: the story's
    :func:`doers`. Only a character the story names is held to it (a question about
    someone the story never mentions is another check's), and only a deed the story tells
    of someone (a reworded verb says nothing)."""
    characters = set().union(*told.values()) if told else set()
    for clause_list in question.sentence_clauses:
        for clause in clause_list:
            lemma = clause.head.lemma_.lower()
            if clause.head.pos_ != "VERB" or lemma in _UNCHECKED or lemma not in told:
                continue
            if any(t.pos_ == "PRON" for t in clause.subject):
                continue  # a question's own "he" is resolved within it alone: unreliable
            asked = _doers_of(clause)
            if (
                _named(asked)
                and _named(told[lemma])
                and asked <= characters
                and not asked & told[lemma]
            ):
                return " and ".join(sorted(told[lemma]))
    return None


def posture_before_a_deed(clause, clause_list) -> bool:
    """ "bent down and gave a shout of joy"; "sat in the back of the boat and watched" is
    where one went."""
    bare = all(t.dep_ in ("prt", "advmod", "cc", "punct") for t in clause.tail)
    return bare and any(c.head.i > clause.head.i and a_posture(clause, c) for c in clause_list)


def passive_state(clause) -> bool:
    """ "A small owl was perched on the gate": how or where it was, not what was done to it."""
    return (
        clause.passive
        and clause.head.lemma_ in STATIVE_PARTICIPLES
        and not any(c.dep_ == "agent" for c in clause.head.children)
    )
